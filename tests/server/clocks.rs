//! Game clocks through the whole mail path ("Clocks, reminders
//! and absence"), under a fake clock: every poll is given its time, so a
//! month of play runs in a fraction of a second. The clock rules
//! themselves (banks, weekends, time zones across DST, allowances) are
//! tested in `tests/server/timecontrol.rs`; these tests show that pbem sends what
//! they owe, once, and records the loss on time.

use chrono::{DateTime, Duration, Utc};
use pbem::adjudicate::TickFate;
use pbem::config::{Config, INIT};
use pbem::demo::{Player, Received};
use pbem::game::Side;
use pbem::mailbox::Maildir;
use pbem::poll::Report;
use pbem::record::Record;
use pbem::setup::Server;

struct World {
    _dir: tempfile::TempDir,
    server: Server,
    inbox: Maildir,
    alice: Player,
    bob: Player,
    now: DateTime<Utc>,
    /// What the game clocks did, poll after poll.
    ticks: Vec<TickFate>,
}

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pbem.toml");
        std::fs::write(&path, INIT).unwrap();
        let config = Config::load(&path).unwrap();
        let sent = dir.path().join("mail/sent");
        let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
        World {
            server: Server::new(config).unwrap(),
            inbox,
            alice: Player::new("Alice", "alice@example.org", &sent),
            bob: Player::new("Bob", "bob@example.org", &sent),
            _dir: dir,
            // A Wednesday.
            now: at("2026-11-04T09:00:00Z"),
            ticks: Vec::new(),
        }
    }

    /// One poll at the world's time.
    fn poll(&mut self) -> Report {
        let mut md = self.inbox.clone();
        let r = self.server.poller().poll(&mut md, self.now, true).unwrap();
        assert!(!r.failed(), "{r:?}");
        self.ticks.extend(r.ticks.iter().cloned());
        r
    }

    /// Polls every `step` until `until`; what each player received.
    fn run(&mut self, until: DateTime<Utc>, step: Duration) -> (Vec<Received>, Vec<Received>) {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        while self.now < until {
            self.now = (self.now + step).min(until);
            self.poll();
            a.extend(self.alice.check());
            b.extend(self.bob.check());
        }
        (a, b)
    }

    /// Alice challenges Bob (she plays black and moves first) with
    /// `control`; Bob accepts. The game's id.
    fn start(&mut self, control: &str) -> String {
        let inbox = self.inbox.clone();
        self.alice
            .send(
                &inbox,
                "pbem@localhost",
                "a game?",
                &format!("challenge boom-and-zoom bob@example.org first {control}\n"),
                None,
            )
            .unwrap();
        self.poll();
        let ch = self.bob.check();
        assert!(
            ch[0].text.contains(&format!("Time control: {control}")),
            "{}",
            ch[0].text
        );
        let id: String = ch[0].subject["[pbem ".len()..]
            .chars()
            .take_while(|c| *c != ']')
            .collect();
        self.alice.check();
        self.bob.reply(&inbox, &id, "accept").unwrap();
        self.poll();
        let begun = self.alice.check();
        assert!(begun[0].headline().starts_with("The game begins"));
        self.bob.check();
        id
    }

    fn record(&self, id: &str) -> Record {
        let text = self.server.store.read_game(id).unwrap().unwrap();
        Record::parse("x.toml", &text).unwrap()
    }
}

/// Each mail's subject and first line, in lower case: the subject is
/// the game's, the first line says what happened.
fn subjects(mails: &[Received]) -> Vec<String> {
    mails
        .iter()
        .map(|m| format!("{} | {}", m.subject, m.headline()).to_lowercase())
        .collect()
}

#[test]
fn the_game_mails_show_the_deadline() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let id = w.start("3d");
    let begun = w.alice.received.last().unwrap();
    assert!(
        begun
            .text
            .contains("Clock 3d: your move #1 is due by Sat 7 Nov 2026, 09:00 UTC."),
        "{}",
        begun.text
    );
    let bobs = w.bob.received.last().unwrap();
    assert!(
        bobs.text
            .contains("their move is due by Sat 7 Nov 2026, 09:00 UTC"),
        "{}",
        bobs.text
    );
    let _ = id;
}

#[test]
fn reminders_once_each_then_loss_on_time_whatever_the_poll_rhythm() {
    let _shared = crate::common::lock::shared();
    // The turn starts Wed 09:00 with 3 days: 50% at Thu 21:00, 80% at
    // Fri 18:36, the final notice 7.2 hours before the deadline (a tenth
    // of the turn, less than 12 hours), the deadline Sat 09:00. Polls 26
    // hours apart (Thu 11:00, Fri 13:00, Sat 15:00) pass several points at
    // once: only the latest is sent.
    let both: &[&str] = &["50%", "80%"];
    for (step, points_owed, last_calls_owed) in [
        (Duration::minutes(7), both, 1),
        (Duration::hours(1), both, 1),
        (Duration::hours(10), both, 1),
        (Duration::hours(26), &["50%"][..], 0),
    ] {
        let reminders_owed = points_owed.len();
        let mut w = World::new();
        let id = w.start("3d");
        let (a, b) = w.run(w.now + Duration::days(30), step);
        let a = subjects(&a);
        let b = subjects(&b);
        let reminders: Vec<&String> = a.iter().filter(|s| s.contains("reminder")).collect();
        let last_calls: Vec<&String> = a.iter().filter(|s| s.contains("last call")).collect();
        let over: Vec<&String> = a
            .iter()
            .filter(|s| s.contains("the game is over"))
            .collect();
        assert_eq!(reminders.len(), reminders_owed, "every {step}: {a:?}");
        assert_eq!(last_calls.len(), last_calls_owed, "every {step}: {a:?}");
        assert_eq!(over.len(), 1, "every {step}: {a:?}");
        assert_eq!(
            a.len(),
            reminders_owed + last_calls_owed + 1,
            "nothing more for a month: {a:?}"
        );
        assert_eq!(b.len(), 1, "bob hears only of the result: {b:?}");
        assert!(
            b[0].contains("the game is over, and you won (black ran out of time)"),
            "{b:?}"
        );
        // The clocks' own account: the reminders, the final notice and
        // the loss, each once, all about black (Side::A, who moves first).
        let points: Vec<String> = w
            .ticks
            .iter()
            .filter_map(|t| match t {
                TickFate::Reminded { point, .. } => Some(point.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(points, points_owed, "every {step}: {:?}", w.ticks);
        let finals = w
            .ticks
            .iter()
            .filter(|t| matches!(t, TickFate::FinalNotice { .. }))
            .count();
        assert_eq!(finals, last_calls_owed, "every {step}: {:?}", w.ticks);
        assert!(
            matches!(
                w.ticks.last(),
                Some(TickFate::LostOnTime { id: lost, side: Side::A, .. }) if *lost == id
            ),
            "every {step}: {:?}",
            w.ticks
        );
        assert!(
            w.ticks.iter().all(|t| match t {
                TickFate::Reminded { id: i, side, .. }
                | TickFate::FinalNotice { id: i, side, .. }
                | TickFate::LostOnTime { id: i, side, .. } => *i == id && *side == Side::A,
            }),
            "{:?}",
            w.ticks
        );
        let rec = w.record(&id);
        assert_eq!(rec.verdict().word(rec.rules), "red");
        let last = rec.lines.last().unwrap();
        assert_eq!(format!("{:?}", last.entry), "Event(Timeout)");
        // The timeout line carries the deadline, not the poll's time.
        assert_eq!(last.time.unwrap().to_rfc3339(), "2026-11-07T09:00:00+00:00");
    }
}

#[test]
fn a_move_in_time_starts_the_opponents_clock_and_a_late_one_is_refused() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let id = w.start("2d");
    let inbox = w.inbox.clone();
    let tag = format!("[pbem {id}]");
    // Alice moves after a day and a bit: Bob's 2 days start then.
    w.run(w.now + Duration::hours(30), Duration::hours(1));
    w.alice.reply(&inbox, &tag, "#1 6-13").unwrap();
    w.poll();
    let bob_news = w.bob.check();
    assert!(
        bob_news[0]
            .text
            .contains("your move #2 is due by Sat 7 Nov 2026, 15:00 UTC"),
        "{}",
        bob_news[0].text
    );
    w.alice.check();
    // Bob answers too late: the poll after his deadline records the
    // timeout before it reads his mail, which then finds the game over.
    w.now = at("2026-11-07T15:30:00Z");
    w.bob.reply(&inbox, &tag, "#2 58-50").unwrap();
    w.poll();
    let b = subjects(&w.bob.check());
    assert!(
        b.iter()
            .any(|s| s.contains("the game is over, and you lost (red ran out of time)")),
        "{b:?}"
    );
    assert!(b.iter().any(|s| s.contains("was not accepted")), "{b:?}");
    let rec = w.record(&id);
    assert_eq!(rec.verdict().word(rec.rules), "black");
}

#[test]
fn vacation_pauses_the_clock_and_the_reply_says_until_when() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let id = w.start("3d");
    let inbox = w.inbox.clone();
    let tag = format!("[pbem {id}]");
    w.alice.reply(&inbox, &tag, "vacation 5").unwrap();
    w.poll();
    let got = w.alice.check();
    assert!(
        got[0].text.contains(&format!(
            "{id}: your clock is paused until Mon 9 Nov 2026, 09:00 UTC"
        )),
        "{}",
        got[0].text
    );
    assert!(
        got[0]
            .text
            .contains("You have 25 vacation days left in 2026"),
        "{}",
        got[0].text
    );
    // 3 + 5 days: nothing is lost before 12 November.
    let (a, _) = w.run(at("2026-11-12T08:59:00Z"), Duration::hours(2));
    assert!(
        !subjects(&a).iter().any(|s| s.contains("the game is over")),
        "{:?}",
        subjects(&a)
    );
    let (a, _) = w.run(at("2026-11-12T09:01:00Z"), Duration::minutes(1));
    assert!(
        subjects(&a).iter().any(|s| s.contains("the game is over")),
        "{:?}",
        subjects(&a)
    );
}

#[test]
fn a_time_zone_shows_deadlines_in_it() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let id = w.start("3d");
    let inbox = w.inbox.clone();
    let tag = format!("[pbem {id}]");
    w.alice
        .reply(&inbox, &tag, "timezone Europe/Berlin")
        .unwrap();
    w.poll();
    let got = w.alice.check();
    assert!(
        got[0].text.contains("Your time zone is now Europe/Berlin"),
        "{}",
        got[0].text
    );
    w.alice.reply(&inbox, &tag, "board").unwrap();
    w.poll();
    let board = w.alice.check();
    assert!(
        board[0].text.contains("due by Sat 7 Nov 2026, 10:00 CET"),
        "{}",
        board[0].text
    );
    // Bob's mails stay in UTC.
    w.alice.reply(&inbox, &tag, "#1 6-13").unwrap();
    w.poll();
    let b = w.bob.check();
    assert!(b[0].text.contains("UTC."), "{}", b[0].text);
    assert!(!b[0].text.contains("CET"), "{}", b[0].text);
}

#[test]
fn a_notice_is_sent_once_even_when_the_clock_file_was_not_saved() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let id = w.start("3d");
    let store = w.server.store.clone();
    let before = store.clock(&id).unwrap().unwrap();
    // The 50% point: one reminder.
    w.now += Duration::hours(37);
    w.poll();
    assert_eq!(w.alice.check().len(), 1);
    // A crash after the mail was committed but before the clock was
    // written: the old clock comes back; the next poll sends nothing again.
    store
        .write_clock(&id, &before, &w.server.identity.clocks)
        .unwrap();
    w.now += Duration::minutes(5);
    w.poll();
    assert_eq!(w.alice.check().len(), 0, "the reminder is not sent twice");
}

#[test]
fn the_clock_can_be_asked_for_and_refused_without_a_key() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let inbox = w.inbox.clone();
    w.alice
        .send(&inbox, "pbem@localhost", "away", "vacation 7\n", None)
        .unwrap();
    w.poll();
    let got = w.alice.check();
    assert!(
        got[0].text.contains("pbem cannot tell it is you"),
        "{}",
        got[0].text
    );
    w.alice
        .send(
            &inbox,
            "pbem@localhost",
            "a game?",
            "challenge mad bob@example.org 3 days\n",
            None,
        )
        .unwrap();
    w.poll();
    let got = w.alice.check();
    assert!(
        got[0].headline().contains("not accepted"),
        "{}",
        got[0].text
    );
}

/// Alice makes her first move in game `id`.
fn first_move(w: &mut World, id: &str) {
    let inbox = w.inbox.clone();
    w.alice
        .reply(&inbox, &format!("[pbem {id}]"), "#1 6-13")
        .unwrap();
}

#[test]
fn a_per_poll_digest_gathers_the_news_of_one_round() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let one = w.start("3d");
    let two = w.start("3d");
    let inbox = w.inbox.clone();
    w.bob
        .reply(&inbox, &format!("[pbem {one}]"), "digest per-poll")
        .unwrap();
    w.poll();
    let ack = w.bob.check();
    assert_eq!(ack.len(), 1, "the answer to his own mail comes at once");
    assert!(
        ack[0].text.contains("gathered in one mail"),
        "{}",
        ack[0].text
    );
    first_move(&mut w, &one);
    first_move(&mut w, &two);
    w.poll();
    assert_eq!(w.alice.check().len(), 2, "Alice has no digest: two mails");
    let got = w.bob.check();
    assert_eq!(got.len(), 1, "one digest for Bob: {:?}", subjects(&got));
    let d = &got[0];
    assert!(d.subject.contains("your games: 2 news"), "{}", d.subject);
    for id in [&one, &two] {
        assert!(
            d.text
                .contains(&format!("== [pbem {id}] Boom & Zoom: black played 6-13")),
            "{}",
            d.text
        );
        let flat = d.text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(&format!("write to pbem+{id}.")), "{}", d.text);
    }
    assert!(!d.text.contains("Reply to this mail"), "{}", d.text);
    // He answers through the address the digest gave: it carries his key.
    let flat = d.text.split_whitespace().collect::<Vec<_>>().join(" ");
    let to = flat
        .split("To answer in this game, write to ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap()
        .to_string();
    let game = to["pbem+".len()..].split('.').next().unwrap().to_string();
    w.bob
        .send(&inbox, &to, "my move", "#2 58-50", None)
        .unwrap();
    w.poll();
    assert_eq!(
        w.record(&game).lines.len(),
        2,
        "the move from the digest's address counts"
    );
    // Nothing waits afterwards, and nothing is sent twice.
    w.now += Duration::minutes(5);
    w.poll();
    assert_eq!(w.bob.check().len(), 1, "only the answer to his move");
}

#[test]
fn a_daily_digest_comes_once_a_day_and_a_last_call_at_once() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let id = w.start("2d");
    let inbox = w.inbox.clone();
    w.bob
        .reply(&inbox, &format!("[pbem {id}]"), "digest daily 08:00")
        .unwrap();
    w.poll();
    assert_eq!(w.bob.check().len(), 1);
    // Alice moves Wed 10:00; Bob's news waits for Thu 08:00.
    w.now = at("2026-11-04T10:00:00Z");
    first_move(&mut w, &id);
    w.poll();
    w.alice.check();
    let (_, b) = w.run(at("2026-11-05T07:59:00Z"), Duration::hours(1));
    assert_eq!(b.len(), 0, "nothing before 08:00: {:?}", subjects(&b));
    let (_, b) = w.run(at("2026-11-05T08:30:00Z"), Duration::minutes(10));
    assert_eq!(b.len(), 1, "{:?}", subjects(&b));
    assert!(
        subjects(&b)[0].contains("black played 6-13"),
        "{:?}",
        subjects(&b)
    );
    // His 2 days run out Fri 10:00: the 50% and 80% reminders wait for the
    // next digest (Fri 08:00); the last call (Fri 05:12) comes at once and
    // takes what waits with it.
    let (_, b) = w.run(at("2026-11-06T05:30:00Z"), Duration::minutes(10));
    let s = subjects(&b);
    assert_eq!(b.len(), 1, "{s:?}");
    assert!(s[0].contains("your games: 3 news"), "{s:?}");
    assert!(b[0].text.contains("last call"), "{}", b[0].text);
}

#[test]
fn the_vacation_allowance_is_the_players_over_all_games() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let one = w.start("3d");
    let two = w.start("3d");
    let inbox = w.inbox.clone();
    w.alice
        .reply(&inbox, &format!("[pbem {one}]"), "vacation 20")
        .unwrap();
    w.poll();
    let got = w.alice.check();
    for id in [&one, &two] {
        assert!(
            got[0]
                .text
                .contains(&format!("{id}: your clock is paused until")),
            "{}",
            got[0].text
        );
    }
    assert!(
        got[0]
            .text
            .contains("You have 10 vacation days left in 2026"),
        "{}",
        got[0].text
    );
    // Back early (Nov 6 09:00, 2 days in): 18 whole days come back.
    w.now = at("2026-11-06T09:00:00Z");
    w.alice
        .reply(&inbox, &format!("[pbem {two}]"), "vacation off")
        .unwrap();
    w.poll();
    let got = w.alice.check();
    assert!(
        got[0].text.contains("You have 28 vacation days left"),
        "{}",
        got[0].text
    );
    // 29 days are more than the 28 left: nothing is paused anywhere.
    w.alice
        .reply(&inbox, &format!("[pbem {two}]"), "vacation 29")
        .unwrap();
    w.poll();
    let got = w.alice.check();
    assert!(
        got[0]
            .text
            .contains("you have 28 vacation days left in 2026"),
        "{}",
        got[0].text
    );
    assert!(
        got[0].text.contains("nothing was paused"),
        "{}",
        got[0].text
    );
}
