//! The clock rules (clocks, reminders and absence) under a
//! fake clock: reminder points, loss on time, the Fischer bank, vacations
//! and their allowance, weekends, time zones around the 2026 DST changes,
//! digests, and a month of play polled every minute, in milliseconds.

use chrono::{DateTime, TimeDelta, Utc};
use chrono_tz::Tz;
use pbem::game::Side;
use pbem::timecontrol::{
    ClockError, ClockPolicy, ClockState, DigestBatch, DigestMode, DigestPrefs, HeldNews, Notice,
    ReminderPoint, TimeControl, VacationError, format_deadline, release,
};
use std::collections::HashSet;

mod vacations;

fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

fn tc(s: &str) -> TimeControl {
    s.parse().unwrap()
}

fn h(hours: i64) -> TimeDelta {
    TimeDelta::hours(hours)
}

fn m(minutes: i64) -> TimeDelta {
    TimeDelta::minutes(minutes)
}

fn pct(s: &str) -> ReminderPoint {
    s.parse().unwrap()
}

/// Polls `state` from `from` to `to` every `step`, sending (and marking)
/// whatever is due; returns the notices with the poll time.
fn poll(
    state: &mut ClockState,
    policy: &ClockPolicy,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    step: TimeDelta,
) -> Vec<(DateTime<Utc>, Notice)> {
    let mut sent = Vec::new();
    let mut now = from;
    while now <= to {
        let notice = state.due(now, policy);
        // Asking again without marking gives the same answer.
        assert_eq!(state.due(now, policy), notice);
        if let Some(notice) = notice {
            state.mark_sent(&notice);
            assert_eq!(
                state.due(now, policy),
                None,
                "{notice:?} due twice at {now}"
            );
            sent.push((now, notice));
        }
        now += step;
    }
    sent
}

fn kinds(sent: &[(DateTime<Utc>, Notice)]) -> Vec<String> {
    sent.iter()
        .map(|(_, n)| match n {
            Notice::Reminder { point, .. } => point.to_string(),
            Notice::Final { .. } => "final".into(),
            Notice::Timeout { .. } => "timeout".into(),
        })
        .collect()
}

// --- deadlines and loss on time ---------------------------------------------

#[test]
fn a_turn_has_its_days_and_then_is_lost_on_time() {
    let _shared = crate::common::lock::shared();
    let start = t("2026-11-02T09:00:00Z"); // Monday
    let mut s = ClockState::new(tc("2d"), Side::A, start);
    let deadline = t("2026-11-04T09:00:00Z");
    assert_eq!(s.deadline(), Some(deadline));
    assert_eq!(s.time_left(Side::A, start), h(48));
    assert_eq!(s.time_left(Side::B, start), h(48));
    assert_eq!(s.time_left(Side::A, deadline + h(5)), TimeDelta::zero());

    // One second before the deadline a move is in time...
    assert!(s.clone().on_move(deadline - TimeDelta::seconds(1)).is_ok());
    // ...at the deadline it is too late.
    let late = s.clone().on_move(deadline).unwrap_err();
    assert_eq!(
        late,
        ClockError::OutOfTime {
            side: Side::A,
            deadline
        }
    );
    assert_eq!(
        late.to_string(),
        "the move came too late: time ran out at Wed 4 Nov 2026, 09:00 UTC; the game is lost on time"
    );

    let policy = ClockPolicy::default();
    let timeout = Notice::Timeout {
        side: Side::A,
        deadline,
    };
    assert_eq!(s.due(deadline, &policy), Some(timeout));
    assert_eq!(s.due(deadline + h(100), &policy), Some(timeout));
    s.mark_sent(&timeout);
    assert_eq!(s.flagged, Some(Side::A));
    assert_eq!(s.to_move, None);
    assert_eq!(s.deadline(), None);
    assert_eq!(s.due(deadline + h(200), &policy), None);
    assert_eq!(s.on_move(deadline + h(1)), Err(ClockError::Stopped));
}

#[test]
fn without_a_bank_every_turn_gets_the_same_days() {
    let _shared = crate::common::lock::shared();
    let start = t("2026-11-02T09:00:00Z");
    let mut s = ClockState::new(tc("3d"), Side::A, start);
    let moved = s.on_move(start + h(70)).unwrap();
    assert_eq!(moved.used, h(70));
    assert_eq!(moved.left, h(72));
    assert_eq!(moved.next_deadline, start + h(70 + 72));
    let moved = s.on_move(start + h(71)).unwrap();
    assert_eq!((moved.side, moved.used, moved.left), (Side::B, h(1), h(72)));
    assert_eq!(s.deadline(), Some(start + h(71 + 72)));
}

#[test]
fn the_fischer_bank_grows_by_the_increment_up_to_the_cap() {
    let _shared = crate::common::lock::shared();
    let start = t("2026-11-02T09:00:00Z");
    let mut s = ClockState::new(tc("3d+1d/10d"), Side::A, start);
    let mut now = start;
    let mut banks = Vec::new();
    for _ in 0..10 {
        // Each side moves after one hour: +23 hours a move.
        now += h(1);
        let moved = s.on_move(now).unwrap();
        assert_eq!(moved.side, Side::A);
        banks.push(moved.left.num_hours());
        now += h(1);
        s.on_move(now).unwrap();
    }
    assert_eq!(banks, [95, 118, 141, 164, 187, 210, 233, 240, 240, 240]);
    assert_eq!(s.a.left_seconds, 240 * 3600);
    // A full bank is the turn's time: the deadline is ten days away.
    assert_eq!(s.to_move, Some(Side::A));
    assert_eq!(s.deadline(), Some(now + h(240)));
    // A slow move spends it: 240 - 100 + 24.
    now += h(100);
    assert_eq!(s.on_move(now).unwrap().left, h(164));
    // B's bank was untouched by A's turns.
    assert_eq!(s.b.left_seconds, 240 * 3600);
    // With the bank nearly gone the increment is all there is: 24 + 1 - ... .
    now += h(1);
    s.on_move(now).unwrap(); // B
    now += h(163);
    assert_eq!(s.on_move(now).unwrap().left, h(25));
}

// --- reminders ---------------------------------------------------------------

#[test]
fn reminder_points_fire_once_each_when_polled_every_minute() {
    let _shared = crate::common::lock::shared();
    let start = t("2026-11-02T09:00:00Z");
    let mut s = ClockState::new(tc("3d"), Side::A, start);
    let policy = ClockPolicy::default(); // 50%, 80%, final at 12 h or a tenth
    let sent = poll(&mut s, &policy, start, start + h(100), m(1));
    let deadline = start + h(72);
    assert_eq!(
        sent,
        [
            (
                start + h(36),
                Notice::Reminder {
                    side: Side::A,
                    point: pct("50%"),
                    deadline
                }
            ),
            (
                start + h(57) + m(36),
                Notice::Reminder {
                    side: Side::A,
                    point: pct("80%"),
                    deadline
                }
            ),
            // A tenth of 72 hours is left: 7 h 12 min.
            (
                start + h(64) + m(48),
                Notice::Final {
                    side: Side::A,
                    deadline
                }
            ),
            (
                deadline,
                Notice::Timeout {
                    side: Side::A,
                    deadline
                }
            ),
        ]
    );
}

#[test]
fn daily_polls_send_the_latest_point_once_and_never_a_storm() {
    let _shared = crate::common::lock::shared();
    let start = t("2026-11-02T09:00:00Z");
    let policy = ClockPolicy::default();
    // Polled once a day at 09:30: at 48.5 h only 50% is due; at 72.5 h the
    // game is lost (the 80% and final notices were never due at a poll).
    let mut s = ClockState::new(tc("3d"), Side::A, start);
    let sent = poll(&mut s, &policy, start + m(30), start + h(24 * 6), h(24));
    assert_eq!(kinds(&sent), ["50%", "timeout"]);
    assert_eq!(sent[0].0, start + h(48) + m(30));
    assert_eq!(sent[1].0, start + h(72) + m(30));

    // Polled every 10 hours: 50% at 40 h, 80% at 60 h, timeout at 80 h;
    // at 70 h the final notice.
    let mut s = ClockState::new(tc("3d"), Side::A, start);
    let sent = poll(&mut s, &policy, start, start + h(200), h(10));
    assert_eq!(kinds(&sent), ["50%", "80%", "final", "timeout"]);

    // One poll long after everything: only the timeout, once.
    let mut s = ClockState::new(tc("3d"), Side::A, start);
    let sent = poll(&mut s, &policy, start + h(500), start + h(600), h(50));
    assert_eq!(kinds(&sent), ["timeout"]);

    // A poll that catches 50% and 80% together sends 80% only, and 50% is
    // never sent after it.
    let mut s = ClockState::new(tc("3d"), Side::A, start);
    let sent = poll(&mut s, &policy, start + h(60), start + h(64), m(1));
    assert_eq!(kinds(&sent), ["80%"]);
}

#[test]
fn any_poll_rhythm_sends_a_subsequence_of_the_minute_polls() {
    let _shared = crate::common::lock::shared();
    let start = t("2026-11-02T09:00:00Z");
    let policy = ClockPolicy {
        reminders: vec![pct("25%"), pct("50%"), pct("75%"), pct("87.5%")],
        ..ClockPolicy::default()
    };
    let control = tc("4d weekends-free");
    let mut s = ClockState::new(control, Side::B, start);
    let every_minute = kinds(&poll(&mut s, &policy, start, start + h(24 * 9), m(1)));
    assert_eq!(
        every_minute,
        ["25%", "50%", "75%", "87.5%", "final", "timeout"]
    );
    let mut rng = fastrand::Rng::with_seed(4);
    for _ in 0..200 {
        let mut s = ClockState::new(control, Side::B, start);
        let mut now = start;
        let mut sent = Vec::new();
        while now < start + h(24 * 9) {
            if let Some(n) = s.due(now, &policy) {
                s.mark_sent(&n);
                sent.push(n);
            }
            now += m(rng.i64(1..3000));
        }
        let sent = kinds(&sent.into_iter().map(|n| (now, n)).collect::<Vec<_>>());
        // In order, no repeats, the timeout exactly once and last.
        let mut rest = every_minute.iter();
        for k in &sent {
            assert!(rest.any(|e| e == k), "{sent:?}");
        }
        assert_eq!(sent.last().map(String::as_str), Some("timeout"), "{sent:?}");
    }
}

#[test]
fn fifty_percent_is_half_of_the_bank_at_the_start_of_the_turn() {
    let _shared = crate::common::lock::shared();
    let start = t("2026-11-02T09:00:00Z");
    let mut s = ClockState::new(tc("3d+1d/10d"), Side::A, start);
    // Fill both banks: ten quick moves each.
    let mut now = start;
    for _ in 0..20 {
        now += m(1);
        s.on_move(now).unwrap();
    }
    assert_eq!(s.time_left(Side::A, now), h(240));
    let policy = ClockPolicy::default();
    let sent = poll(&mut s, &policy, now, now + h(300), m(1));
    let at: Vec<_> = sent.iter().map(|(t, _)| (*t - now).num_minutes()).collect();
    // 50% of 240 h, 80%, 12 h left (less than a tenth), out of time.
    assert_eq!(kinds(&sent), ["50%", "80%", "final", "timeout"]);
    assert_eq!(at, [120 * 60, 192 * 60, 228 * 60, 240 * 60]);
}

#[test]
fn the_final_notice_on_short_turns_and_when_turned_off() {
    let _shared = crate::common::lock::shared();
    let start = t("2026-11-02T09:00:00Z");
    // One day: a tenth is 2 h 24 min, less than 12 h.
    let mut s = ClockState::new(tc("1d"), Side::A, start);
    let sent = poll(&mut s, &ClockPolicy::default(), start, start + h(30), m(1));
    let at: Vec<_> = sent
        .iter()
        .map(|(t, _)| (*t - start).num_minutes())
        .collect();
    assert_eq!(kinds(&sent), ["50%", "80%", "final", "timeout"]);
    assert_eq!(at, [12 * 60, 19 * 60 + 12, 21 * 60 + 36, 24 * 60]);

    // A point after the final notice is never sent.
    let policy = ClockPolicy {
        reminders: vec![pct("50%"), pct("95%")],
        ..ClockPolicy::default()
    };
    let mut s = ClockState::new(tc("3d"), Side::A, start);
    let sent = poll(&mut s, &policy, start, start + h(80), m(1));
    assert_eq!(kinds(&sent), ["50%", "final", "timeout"]);

    // final_notice_hours = 0: no final notice; 95% is sent.
    let policy = ClockPolicy {
        final_notice_hours: 0,
        ..policy
    };
    let mut s = ClockState::new(tc("3d"), Side::A, start);
    let sent = poll(&mut s, &policy, start, start + h(80), m(1));
    assert_eq!(kinds(&sent), ["50%", "95%", "timeout"]);
}

#[test]
fn a_move_starts_the_reminders_again_for_the_opponent() {
    let _shared = crate::common::lock::shared();
    let start = t("2026-11-02T09:00:00Z");
    let policy = ClockPolicy::default();
    let mut s = ClockState::new(tc("2d"), Side::A, start);
    let sent = poll(&mut s, &policy, start, start + h(40), m(1));
    assert_eq!(kinds(&sent), ["50%", "80%"]);
    let stale = sent[0].1;
    s.on_move(start + h(40)).unwrap();
    // A notice about A's finished turn changes nothing now.
    s.mark_sent(&stale);
    assert_eq!(s.reminded, None);
    let sent = poll(&mut s, &policy, start + h(40), start + h(40 + 40), m(1));
    assert_eq!(kinds(&sent), ["50%", "80%"]);
    assert!(sent.iter().all(|(_, n)| n.side() == Side::B));
    assert_eq!(sent[0].1.deadline(), start + h(88));
}

// --- weekends and time zones ---------------------------------------------

#[test]
fn weekends_do_not_count_in_the_players_own_zone() {
    let _shared = crate::common::lock::shared();
    let control = tc("3d weekends-free");
    // UTC player, Wednesday 00:00: the deadline is the moment the weekend
    // starts, not the Monday after.
    let s = ClockState::new(control, Side::A, t("2026-11-04T00:00:00Z"));
    assert_eq!(s.deadline(), Some(t("2026-11-07T00:00:00Z")));
    // Starting on Saturday: the clock starts on Monday.
    let s = ClockState::new(control, Side::A, t("2026-11-07T12:00:00Z"));
    assert_eq!(s.deadline(), Some(t("2026-11-12T00:00:00Z")));
    assert_eq!(s.time_left(Side::A, t("2026-11-08T23:59:00Z")), h(72));
    // Thursday noon: 36 h to the weekend, 36 h after it.
    let s = ClockState::new(control, Side::A, t("2026-11-05T12:00:00Z"));
    assert_eq!(s.deadline(), Some(t("2026-11-10T12:00:00Z")));

    // Monday 02:00 UTC is a weekday in Berlin, still Sunday in New York.
    let start = t("2026-11-09T02:00:00Z");
    let mut s = ClockState::new(control, Side::A, start);
    s.set_zone(Side::A, Some(Tz::Europe__Berlin));
    assert_eq!(s.deadline(), Some(t("2026-11-12T02:00:00Z")));
    s.set_zone(Side::A, Some(Tz::America__New_York));
    let deadline = s.deadline().unwrap();
    assert_eq!(deadline, t("2026-11-12T05:00:00Z"));
    assert_eq!(
        format_deadline(deadline, s.a.zone),
        "Thu 12 Nov 2026, 00:00 EST"
    );

    // The zone that counts is the moving player's: at 22:00 UTC on Sunday
    // A (Berlin) is still in its weekend; B's turn (New York) then starts
    // counting at 05:00 UTC on Monday.
    let sunday = t("2026-11-08T12:00:00Z");
    let mut s = ClockState::new(control, Side::A, sunday);
    s.set_zone(Side::A, Some(Tz::Europe__Berlin));
    s.set_zone(Side::B, Some(Tz::America__New_York));
    assert_eq!(s.time_left(Side::A, t("2026-11-08T22:00:00Z")), h(72));
    s.on_move(t("2026-11-08T22:00:00Z")).unwrap();
    // B's turn: Sunday 17:00 in New York, the clock starts at 05:00 UTC.
    assert_eq!(s.time_left(Side::B, t("2026-11-09T05:00:00Z")), h(72));
    assert_eq!(s.deadline(), Some(t("2026-11-12T05:00:00Z")));
}

#[test]
fn berlin_dst_end_2026_10_25_a_weekend_of_49_hours() {
    let _shared = crate::common::lock::shared();
    // Friday 23 Oct 2026 18:00 CEST = 16:00 UTC. The weekend runs from
    // Saturday 00:00 CEST (Fri 22:00 UTC) to Monday 00:00 CET (Sun 23:00
    // UTC): 49 hours. 6 h before it, 66 h after: Wednesday 17:00 UTC.
    let start = t("2026-10-23T16:00:00Z");
    let mut s = ClockState::new(tc("3d weekends-free"), Side::A, start);
    s.set_zone(Side::A, Some(Tz::Europe__Berlin));
    let deadline = s.deadline().unwrap();
    assert_eq!(deadline, t("2026-10-28T17:00:00Z"));
    assert_eq!(
        format_deadline(deadline, s.a.zone),
        "Wed 28 Oct 2026, 18:00 CET"
    );
    assert_eq!(s.time_left(Side::A, t("2026-10-23T22:00:00Z")), h(66));
    assert_eq!(s.time_left(Side::A, t("2026-10-25T23:00:00Z")), h(66));
    assert_eq!(
        s.time_left(Side::A, t("2026-10-25T23:01:00Z")),
        h(66) - m(1)
    );
    // Without weekends free, 72 hours: the wall clock shows 17:00, not 18:00.
    let mut s = ClockState::new(tc("3d"), Side::A, start);
    s.set_zone(Side::A, Some(Tz::Europe__Berlin));
    assert_eq!(
        format_deadline(s.deadline().unwrap(), s.a.zone),
        "Mon 26 Oct 2026, 17:00 CET"
    );
    assert_eq!(
        format_deadline(start, s.a.zone),
        "Fri 23 Oct 2026, 18:00 CEST"
    );
}

#[test]
fn berlin_dst_start_2026_03_29_a_weekend_of_47_hours() {
    let _shared = crate::common::lock::shared();
    // Friday 27 Mar 2026 18:00 CET = 17:00 UTC; weekend from Fri 23:00 UTC
    // to Sun 29 Mar 22:00 UTC (Monday 00:00 CEST).
    let start = t("2026-03-27T17:00:00Z");
    let mut s = ClockState::new(tc("3d weekends-free"), Side::B, start);
    s.set_zone(Side::B, Some(Tz::Europe__Berlin));
    let deadline = s.deadline().unwrap();
    assert_eq!(deadline, t("2026-04-01T16:00:00Z"));
    assert_eq!(
        format_deadline(deadline, s.b.zone),
        "Wed 1 Apr 2026, 18:00 CEST"
    );
}

#[test]
fn new_york_dst_end_2026_11_01() {
    let _shared = crate::common::lock::shared();
    // Friday 30 Oct 2026 12:00 EDT = 16:00 UTC, two days. The weekend runs
    // from Sat 00:00 EDT (04:00 UTC) to Mon 2 Nov 00:00 EST (05:00 UTC).
    let start = t("2026-10-30T16:00:00Z");
    let mut s = ClockState::new(tc("2d weekends-free"), Side::A, start);
    s.set_zone(Side::A, Some(Tz::America__New_York));
    assert_eq!(
        s.time_left(Side::A, t("2026-10-31T03:59:00Z")),
        h(36) + m(1)
    );
    assert_eq!(s.time_left(Side::A, t("2026-10-31T04:00:00Z")), h(36));
    // Through the repeated hour on Sunday morning, nothing counts.
    assert_eq!(s.time_left(Side::A, t("2026-11-01T06:30:00Z")), h(36));
    assert_eq!(s.time_left(Side::A, t("2026-11-02T05:00:00Z")), h(36));
    assert_eq!(
        s.time_left(Side::A, t("2026-11-02T05:01:00Z")),
        h(36) - m(1)
    );
    let deadline = s.deadline().unwrap();
    assert_eq!(deadline, t("2026-11-03T17:00:00Z"));
    assert_eq!(
        format_deadline(deadline, s.a.zone),
        "Tue 3 Nov 2026, 12:00 EST"
    );
    // The repeated hour itself is never ambiguous on the page.
    let zone = Some(Tz::America__New_York);
    assert_eq!(
        format_deadline(t("2026-11-01T05:30:00Z"), zone),
        "Sun 1 Nov 2026, 01:30 EDT"
    );
    assert_eq!(
        format_deadline(t("2026-11-01T06:30:00Z"), zone),
        "Sun 1 Nov 2026, 01:30 EST"
    );
    // No reminder or notice comes while the weekend stops the clock.
    let policy = ClockPolicy::default();
    let sent = poll(&mut s, &policy, start, t("2026-11-04T00:00:00Z"), m(1));
    for (at, _) in &sent {
        assert!(
            !(t("2026-10-31T04:00:01Z")..t("2026-11-02T05:00:00Z")).contains(at),
            "{at}"
        );
    }
    assert_eq!(kinds(&sent), ["50%", "80%", "final", "timeout"]);
    // 50% (24 h counted): 12 h before the weekend, 12 h after it.
    assert_eq!(sent[0].0, t("2026-11-02T17:00:00Z"));
}

// --- storage -----------------------------------------------------------------

#[test]
fn the_clock_state_round_trips_through_toml() {
    let _shared = crate::common::lock::shared();
    let policy = ClockPolicy::default();
    let start = t("2026-11-02T09:00:00Z");
    let mut s = ClockState::new(tc("3d+1d/10d weekends-free"), Side::A, start);
    s.set_zone(Side::A, Some(Tz::Europe__Berlin));
    s.set_zone(Side::B, Some(Tz::America__New_York));
    s.on_move(start + h(5)).unwrap();
    s.start_vacation(Side::A, 3, start + h(6), &policy).unwrap();
    let now = start + h(60);
    let n = s.due(now, &policy).unwrap();
    s.mark_sent(&n);
    let text = toml::to_string(&s).unwrap();
    for line in [
        "control = \"3d+1d/10d weekends-free\"",
        "to_move = \"b\"",
        "reminded = \"50%\"",
        "zone = \"Europe/Berlin\"",
        "zone = \"America/New_York\"",
        "[[a.vacations]]",
    ] {
        assert!(text.contains(line), "{line} not in\n{text}");
    }
    let back: ClockState = toml::from_str(&text).unwrap();
    assert_eq!(back, s);
    assert_eq!(back.deadline(), s.deadline());
    assert_eq!(back.due(now + h(20), &policy), s.due(now + h(20), &policy));

    // A bad time control in a stored state says what is wrong.
    let bad = text.replace("3d+1d/10d weekends-free", "3d+1d");
    let err = toml::from_str::<ClockState>(&bad).unwrap_err().to_string();
    assert!(
        err.contains("bad time control `3d+1d`: a bank needs a cap"),
        "{err}"
    );
    let bad = text.replace("to_move = \"b\"", "to_move = \"c\"");
    let err = toml::from_str::<ClockState>(&bad).unwrap_err().to_string();
    assert!(err.contains("bad side `c`"), "{err}");

    // A finished game: no to_move, flagged.
    let mut over = s.clone();
    let n = over.due(now + h(1000), &policy).unwrap();
    over.mark_sent(&n);
    let text = toml::to_string(&over).unwrap();
    assert!(!text.contains("to_move"), "{text}");
    assert!(text.contains("flagged = \"b\""), "{text}");
    assert_eq!(toml::from_str::<ClockState>(&text).unwrap(), over);
}

#[test]
fn the_policy_and_time_controls_read_from_toml() {
    let _shared = crate::common::lock::shared();
    #[derive(serde::Deserialize, serde::Serialize, PartialEq, Debug)]
    struct Settings {
        clock: ClockPolicy,
        control: TimeControl,
        digest: DigestMode,
    }
    let s: Settings = toml::from_str(
        "control = \"5d+1d/14d\"\ndigest = \"daily 07:00\"\n[clock]\nreminders = [\"50%\", \"87.5%\"]\nfinal_notice_hours = 6\n",
    )
    .unwrap();
    assert_eq!(s.clock.reminders, [pct("50%"), pct("87.5%")]);
    assert_eq!(s.clock.final_notice_hours, 6);
    assert_eq!(s.clock.vacation_days_per_year, 30);
    assert_eq!(s.control, tc("5d+1d/14d"));
    assert_eq!(s.digest, DigestMode::Daily { hour: 7 });
    let again: Settings = toml::from_str(&toml::to_string(&s).unwrap()).unwrap();
    assert_eq!(again, s);
    let empty: ClockPolicy = toml::from_str("").unwrap();
    assert_eq!(empty, ClockPolicy::default());
    let err = toml::from_str::<ClockPolicy>("reminders = [\"50\"]")
        .unwrap_err()
        .to_string();
    assert!(err.contains("bad reminder point `50`"), "{err}");
    assert!(toml::from_str::<ClockPolicy>("remnders = []").is_err());
}

// --- digests -----------------------------------------------------------------

fn q(recipient: &str, at: &str, urgent: bool, item: &str) -> HeldNews<String> {
    HeldNews {
        recipient: recipient.into(),
        at: t(at),
        urgent,
        item: item.into(),
    }
}

fn batch(recipient: &str, items: &[&str]) -> DigestBatch<String> {
    DigestBatch {
        recipient: recipient.into(),
        items: items.iter().map(|s| s.to_string()).collect(),
    }
}

#[test]
fn digests_group_per_recipient_by_mode() {
    let _shared = crate::common::lock::shared();
    let prefs = |r: &str| match r {
        "alice" => DigestPrefs {
            mode: DigestMode::Daily { hour: 18 },
            zone: Some(Tz::Europe__Berlin),
        },
        "bob" => DigestPrefs {
            mode: DigestMode::PerPoll,
            zone: None,
        },
        _ => DigestPrefs::default(), // off
    };
    let queue = vec![
        q("alice", "2026-11-03T10:00:00Z", false, "a1"),
        q("bob", "2026-11-03T10:00:00Z", false, "b1"),
        q("carol", "2026-11-03T10:30:00Z", false, "c1"),
        q("alice", "2026-11-03T16:30:00Z", false, "a2"),
        q("bob", "2026-11-03T16:40:00Z", false, "b2"),
        q("carol", "2026-11-03T16:50:00Z", false, "c2"),
    ];
    // 16:59 UTC is 17:59 in Berlin: alice waits.
    let r = release(queue.clone(), t("2026-11-03T16:59:00Z"), prefs);
    assert_eq!(
        r.send,
        [
            batch("bob", &["b1", "b2"]),
            batch("carol", &["c1"]),
            batch("carol", &["c2"]),
        ]
    );
    assert_eq!(r.keep, [queue[0].clone(), queue[3].clone()]);

    // At 18:05 Berlin she gets the day in one mail, with what came at
    // 18:02; what comes at 18:10 waits for tomorrow.
    let mut keep = r.keep;
    keep.push(q("alice", "2026-11-03T17:02:00Z", false, "a3"));
    let r = release(keep, t("2026-11-03T17:05:00Z"), prefs);
    assert_eq!(r.send, [batch("alice", &["a1", "a2", "a3"])]);
    assert!(r.keep.is_empty());
    let later = vec![q("alice", "2026-11-03T17:10:00Z", false, "a4")];
    let r = release(later, t("2026-11-04T16:59:00Z"), prefs);
    assert!(r.send.is_empty());
    let r = release(r.keep, t("2026-11-04T17:00:00Z"), prefs);
    assert_eq!(r.send, [batch("alice", &["a4"])]);

    // An urgent item goes out at once and takes the others along.
    let queue = vec![
        q("alice", "2026-11-05T08:00:00Z", false, "move"),
        q("alice", "2026-11-05T09:00:00Z", true, "final notice"),
    ];
    let r = release(queue, t("2026-11-05T09:00:00Z"), prefs);
    assert_eq!(r.send, [batch("alice", &["move", "final notice"])]);

    // Nothing queued, nothing sent.
    let r = release(
        Vec::<HeldNews<String>>::new(),
        t("2026-11-05T09:00:00Z"),
        prefs,
    );
    assert!(r.send.is_empty() && r.keep.is_empty());
}

#[test]
fn a_daily_digest_keeps_its_hour_across_dst() {
    let _shared = crate::common::lock::shared();
    // 08:00 in New York is 12:00 UTC on Saturday 31 Oct (EDT) and 13:00
    // UTC on Sunday 1 Nov (EST).
    let prefs = |_: &str| DigestPrefs {
        mode: DigestMode::Daily { hour: 8 },
        zone: Some(Tz::America__New_York),
    };
    let queue = vec![q("dave", "2026-10-31T12:30:00Z", false, "d1")];
    let r = release(queue, t("2026-11-01T12:30:00Z"), prefs);
    assert!(r.send.is_empty(), "07:30 EST is before the hour");
    let r = release(r.keep, t("2026-11-01T13:00:00Z"), prefs);
    assert_eq!(r.send, [batch("dave", &["d1"])]);
    let queue = vec![q("dave", "2026-10-30T11:00:00Z", false, "d0")];
    let r = release(queue, t("2026-10-31T12:00:00Z"), prefs);
    assert_eq!(r.send, [batch("dave", &["d0"])]);
}

// --- a month of play ---------------------------------------------------------

/// Thirty days of a 3d+1d/10d weekends-free game between Berlin (A) and New
/// York (B), polled every minute: A answers in 3 hours (or when back from
/// a four-day vacation), B once 60% of its turn is used, until B falls
/// silent and loses on time.
#[test]
fn a_month_of_play_polled_every_minute_runs_in_milliseconds() {
    // Timed by its own CPU time, which other processes on the cores do
    // not inflate; alone in its binary all the same.
    let _alone = crate::common::lock::alone();
    let cpu_at_start = crate::common::wait::thread_cpu_time();
    let policy = ClockPolicy::default();
    let start = t("2026-10-01T08:00:00Z");
    let control = tc("3d+1d/10d weekends-free");
    let mut s = ClockState::new(control, Side::A, start);
    s.set_zone(Side::A, Some(Tz::Europe__Berlin));
    s.set_zone(Side::B, Some(Tz::America__New_York));
    let vacation_at = t("2026-10-12T10:00:00Z");
    let silent_from = t("2026-10-22T00:00:00Z");

    let mut now = start;
    let mut moves = [0u32; 2];
    let mut sent: Vec<(DateTime<Utc>, Notice)> = Vec::new();
    let mut seen: HashSet<(DateTime<Utc>, String)> = HashSet::new();
    let mut polls = 0u32;
    let mut on_vacation_minutes = 0u32;
    while now < start + TimeDelta::days(30) {
        polls += 1;
        if now == vacation_at {
            s.start_vacation(Side::A, 4, now, &policy).unwrap();
        }
        if let Some(side) = s.to_move {
            let turn_time = s.time_left(side, s.turn_start);
            let moves_now = match side {
                Side::A => {
                    let away = s.on_vacation(Side::A, now).is_some();
                    on_vacation_minutes += u32::from(away);
                    now - s.turn_start >= h(3) && !away
                }
                Side::B => now < silent_from && s.time_left(side, now) * 10 <= turn_time * 4,
            };
            if moves_now {
                let moved = s.on_move(now).unwrap();
                assert!(moved.left <= h(240));
                moves[side.index()] += 1;
            }
        }
        if let Some(n) = s.due(now, &policy) {
            let turn = s.turn_start;
            let key = kinds(&[(now, n)]).remove(0);
            assert!(seen.insert((turn, key.clone())), "{key} twice in a turn");
            // A reminder fires at the first poll past its point.
            if let Notice::Reminder { side, point, .. } = n {
                let turn_time = s.time_left(side, turn);
                let used = |at| turn_time - s.time_left(side, at);
                let share = |d: TimeDelta| d.num_seconds() * 1000 / turn_time.num_seconds();
                assert!(share(used(now)) >= i64::from(point.permille()));
                assert!(share(used(now - m(1))) < i64::from(point.permille()));
            }
            s.mark_sent(&n);
            sent.push((now, n));
        }
        now += m(1);
    }
    let elapsed = crate::common::wait::thread_cpu_time() - cpu_at_start;

    assert_eq!(polls, 30 * 24 * 60);
    assert!(moves[0] >= 8 && moves[1] >= 8, "{moves:?}");
    assert!(on_vacation_minutes > 0);
    // Never a word to A: 3 hours a move, and paused on vacation.
    assert!(sent.iter().all(|(_, n)| n.side() == Side::B), "{sent:?}");
    // B heard 50% on every turn, and the rest only on its last.
    let count = |k: &str| kinds(&sent).iter().filter(|x| *x == k).count();
    assert_eq!(count("50%"), moves[1] as usize + 1);
    assert_eq!((count("80%"), count("final"), count("timeout")), (1, 1, 1));
    // B lost on time after falling silent, and the clocks stopped.
    let (at, last) = sent.last().unwrap();
    assert!(matches!(last, Notice::Timeout { side: Side::B, .. }));
    assert_eq!(*at, last.deadline());
    assert!(*at > silent_from);
    assert_eq!((s.flagged, s.to_move), (Some(Side::B), None));
    eprintln!(
        "a month of play: {polls} polls, {} moves, {} notices in {elapsed:?} of CPU",
        moves[0] + moves[1],
        sent.len()
    );
    assert!(elapsed.as_secs_f64() < 5.0, "{elapsed:?}");
}
