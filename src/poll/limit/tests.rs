//! The reply limits' counts, one tally at a time.

use super::*;

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

const LIMITS: Limits = Limits {
    replies_per_hour: 3,
    replies_per_day: 5,
    keyed_per_hour: 6,
    keyed_per_day: 10,
    fruitless_in_a_row: 0,
    challenges_per_mail: 2,
    open_challenges: 3,
};

fn never(_: &str) -> bool {
    false
}

#[test]
fn a_burst_gets_the_limit_then_one_notice_then_nothing() {
    let now = at("2026-11-20T10:00:00Z");
    let mut t = Tally::new("bob@example.org");
    let verdicts: Vec<Verdict> = (0..4)
        .map(|i| t.answer(now, (&LIMITS, Bucket::Any), true, &format!("<m{i}>"), never))
        .collect();
    let until = at("2026-11-20T11:00:00Z");
    assert_eq!(verdicts[..3], [Verdict::Send, Verdict::Send, Verdict::Send]);
    assert_eq!(
        verdicts[3],
        Verdict::Notice {
            until,
            count: 3,
            window: Window::Hour
        }
    );
    // A second answer of the same mail "<m3>" (not committed yet: it
    // is the one being handled), then the next mail: held.
    assert_eq!(
        t.answer(now, (&LIMITS, Bucket::Any), true, "<m3>", never),
        Verdict::Hold { until }
    );
    assert_eq!(
        t.answer(now, (&LIMITS, Bucket::Any), true, "<m4>", |k| k == "<m3>"),
        Verdict::Hold { until }
    );
    assert_eq!(t.any.notice.as_deref(), Some("<m3>"));
    // News of the sender's own move waits out the pause too.
    assert_eq!(
        t.answer(now, (&LIMITS, Bucket::Any), false, "<m9>", |_| true),
        Verdict::Hold { until }
    );
    // After the hour: answered again, until the daily limit (5).
    let later = at("2026-11-20T11:00:01Z");
    assert_eq!(
        t.answer(later, (&LIMITS, Bucket::Any), true, "<n1>", |_| true),
        Verdict::Send
    );
    assert_eq!(
        t.answer(later, (&LIMITS, Bucket::Any), true, "<n2>", |_| true),
        Verdict::Send
    );
    assert_eq!(
        t.answer(later, (&LIMITS, Bucket::Any), true, "<n3>", |_| true),
        Verdict::Notice {
            until: later + Duration::hours(24),
            count: 5,
            window: Window::Day
        }
    );
}

#[test]
fn news_is_not_counted() {
    let now = at("2026-11-20T10:00:00Z");
    let mut t = Tally::new("bob@example.org");
    for i in 0..100 {
        assert_eq!(
            t.answer(
                now,
                (&LIMITS, Bucket::Any),
                false,
                &format!("<m{i}>"),
                never
            ),
            Verdict::Send
        );
    }
    assert!(t.is_empty(), "{t:?}");
}

#[test]
fn a_notice_lost_in_a_crash_goes_with_the_next_answer() {
    let now = at("2026-11-20T10:00:00Z");
    let mut t = Tally::new("bob@example.org");
    for i in 0..4 {
        t.answer(now, (&LIMITS, Bucket::Any), true, &format!("<m{i}>"), never);
    }
    assert_eq!(t.any.notice.as_deref(), Some("<m3>"));
    // "<m3>" committed: no second notice.
    assert!(matches!(
        t.answer(now, (&LIMITS, Bucket::Any), true, "<m4>", |k| k == "<m3>"),
        Verdict::Hold { .. }
    ));
    // It did not (the poll died before its commit): "<m5>" carries it.
    assert!(matches!(
        t.answer(now, (&LIMITS, Bucket::Any), true, "<m5>", never),
        Verdict::Notice { .. }
    ));
    assert_eq!(t.any.notice.as_deref(), Some("<m5>"));
}

#[test]
fn a_slow_loop_trips_the_daily_limit() {
    // One answer every 30 minutes never reaches 3 an hour.
    let mut now = at("2026-11-20T10:00:00Z");
    let mut t = Tally::new("away@example.org");
    let mut sent = 0;
    let mut notices = Vec::new();
    for i in 0..20 {
        match t.answer(
            now,
            (&LIMITS, Bucket::Any),
            true,
            &format!("<m{i}>"),
            |_| true,
        ) {
            Verdict::Send => sent += 1,
            Verdict::Notice { until, window, .. } => notices.push((until, window)),
            Verdict::Hold { .. } => {}
        }
        now += Duration::minutes(30);
    }
    assert_eq!(sent, 5);
    assert_eq!(
        notices,
        [(at("2026-11-21T12:30:00Z"), Window::Day)],
        "one notice, at the sixth answer (12:30), for a day"
    );
}

#[test]
fn zero_turns_a_limit_off() {
    let off = Limits {
        replies_per_hour: 0,
        replies_per_day: 0,
        ..LIMITS
    };
    let now = at("2026-11-20T10:00:00Z");
    let mut t = Tally::new("bob@example.org");
    for i in 0..1000 {
        assert_eq!(
            t.answer(now, (&off, Bucket::Any), true, &format!("<m{i}>"), never),
            Verdict::Send
        );
        assert_eq!(t.unsolicited(now, &off), Verdict::Send);
    }
}

#[test]
fn unsolicited_mail_is_held_silently_past_the_limit() {
    let now = at("2026-11-20T10:00:00Z");
    let mut t = Tally::new("carol@example.org");
    for _ in 0..3 {
        assert_eq!(t.unsolicited(now, &LIMITS), Verdict::Send);
    }
    assert_eq!(
        t.unsolicited(now + Duration::minutes(10), &LIMITS),
        Verdict::Hold {
            until: now + Duration::hours(1)
        }
    );
    assert_eq!(t.any.paused_until, None);
    // Answers to her own mails are a separate count.
    assert_eq!(
        t.answer(now, (&LIMITS, Bucket::Any), true, "<c1>", never),
        Verdict::Send
    );
}

#[test]
fn old_times_are_forgotten() {
    let now = at("2026-11-20T10:00:00Z");
    let mut t = Tally::new("bob@example.org");
    t.answer(now, (&LIMITS, Bucket::Any), true, "<a>", never);
    t.unsolicited(now, &LIMITS);
    t.prune(now + Duration::hours(24));
    assert!(t.is_empty(), "{t:?}");
}

#[test]
fn a_players_keyed_answers_are_counted_apart_and_higher() {
    let now = at("2026-11-20T10:00:00Z");
    let mut t = Tally::new("ann@example.org");
    let keyed = (&LIMITS, Bucket::Keyed);
    let any = (&LIMITS, Bucket::Any);
    // The count of her mails without a key (or with no command) is used up.
    for i in 0..4 {
        t.answer(now, any, true, &format!("<a{i}>"), never);
    }
    assert!(t.any.paused_until.is_some());
    // Her own moves in her own game are still answered, 6 an hour.
    let verdicts: Vec<Verdict> = (0..7)
        .map(|i| t.answer(now, keyed, true, &format!("<k{i}>"), never))
        .collect();
    assert!(
        verdicts[..6].iter().all(|v| *v == Verdict::Send),
        "{verdicts:?}"
    );
    assert_eq!(
        verdicts[6],
        Verdict::Notice {
            until: now + Duration::hours(1),
            count: 6,
            window: Window::Hour
        }
    );
    // And the pause of one count holds back no answer of the other.
    let mut fresh = Tally::new("bo@example.org");
    for i in 0..7 {
        fresh.answer(now, keyed, true, &format!("<k{i}>"), never);
    }
    assert_eq!(fresh.answer(now, any, true, "<a>", never), Verdict::Send);
}
