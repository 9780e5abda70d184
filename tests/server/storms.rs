//! Loops and storms ("an autoresponder that answers every pbem
//! mail, a bouncing address, a player who sends 1,000 mails in a minute:
//! pbem never loops, rate-limits replies per sender, and keeps serving
//! other players"), through the whole mail path under a fake clock: mail
//! goes into pbem's Maildir, [`Poller::poll`] runs at the world's time,
//! and what pbem sends is read back from the maildir transport's folders,
//! where a scripted autoresponder or mail system answers it.
//!
//! The limits are the defaults of `pbem init` ([`Limits::default`]); the
//! figures below are derived from them, not written in.

use crate::common;

use chrono::{DateTime, Duration, Utc};
use pbem::adjudicate::{Adjudicator, Desk};
use pbem::config::{Config, INIT};
use pbem::demo::Received;
use pbem::game::{PerSide, Side};
use pbem::mailbox::Maildir;
use pbem::poll::OsRandom;
use pbem::poll::{Limits, Report};
use pbem::record::{Entry, Record};
use pbem::rules::Rules;
use pbem::setup::Server;
use pbem::timecontrol::format_deadline;
use std::collections::HashSet;
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

mod storm;

mod loops;

const PBEM: &str = "pbem@example.net";

struct World {
    dir: tempfile::TempDir,
    server: Server,
    inbox: Maildir,
    now: DateTime<Utc>,
    delivered: usize,
    /// Sent mails already read, by file.
    read: HashSet<PathBuf>,
}

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

impl World {
    /// A fresh pbem with `pbem init`'s settings.
    fn new() -> World {
        World::at(PBEM)
    }

    /// The same, at its own address `address`.
    fn at(address: &str) -> World {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pbem.toml");
        // No analysis of the games that end: the storms count one mail
        // a command (the analysis's mails: tests/server/analysis.rs).
        let settings = format!(
            "{}\n[bot]\nanalysis_nodes = 0\n",
            INIT.replace("pbem@localhost", address)
        );
        fs::write(&path, settings).unwrap();
        let config = Config::load(&path).unwrap();
        let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
        World {
            server: Server::new(config).unwrap(),
            inbox,
            dir,
            now: at("2026-11-20T10:00:00Z"),
            delivered: 0,
            read: HashSet::new(),
        }
    }

    fn limits(&self) -> Limits {
        self.server.config.limits
    }

    /// Starts a game of Boom & Zoom, `players[0]` black (to move first);
    /// their keys.
    fn game(&self, id: &str, players: [&str; 2]) -> [String; 2] {
        let s = &self.server;
        let adj = Adjudicator {
            desk: Desk::new(&s.store),
            draw: &OsRandom,
            identity: &s.identity,
            templates: &s.templates,
            now: self.now,
            challenges: Default::default(),
        };
        let rules = Rules::BoomAndZoom;
        let map = PerSide::new(players[0].to_string(), players[1].to_string());
        let ((), effects) = adj
            .decide(|a| a.start_game(id, rules, Some(Side::A), map, None, Default::default()))
            .unwrap();
        s.store.apply_effects(&effects).unwrap();
        let secrets = s.store.secrets(id, rules).unwrap();
        [Side::A, Side::B].map(|side| secrets.tokens[side].clone().unwrap())
    }

    /// Puts a mail into pbem's Maildir (named so that mails are read in
    /// the order they were delivered).
    fn deliver(&mut self, raw: &str) {
        self.delivered += 1;
        self.inbox
            .deliver(&format!("{:08}.storms", self.delivered), raw.as_bytes())
            .unwrap();
    }

    /// One poll at the world's time.
    fn poll(&mut self) -> Report {
        let r = self
            .server
            .poller()
            .poll(&mut self.inbox.clone(), self.now, true)
            .unwrap();
        assert!(!r.failed(), "{r:?}");
        r
    }

    /// The mails pbem sent `address` since the last look, oldest first.
    fn mails_to(&mut self, address: &str) -> Vec<(Vec<u8>, Received)> {
        let dir = self.dir.path().join("mail/sent").join(address).join("new");
        let Ok(entries) = fs::read_dir(&dir) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| !self.read.contains(p))
            .collect();
        // The transport gives each file a later time than the one before.
        files.sort_by_key(|p| {
            let m = fs::metadata(p).unwrap().modified().unwrap();
            (m, p.clone())
        });
        files
            .into_iter()
            .map(|p| {
                let raw = fs::read(&p).unwrap();
                self.read.insert(p);
                let r = Received::parse(&raw).unwrap();
                (raw, r)
            })
            .collect()
    }

    fn record(&self, id: &str) -> Record {
        let text = self.server.store.read_game(id).unwrap().unwrap();
        Record::parse("x.toml", &text).unwrap()
    }

    fn moves(&self, id: &str) -> Vec<String> {
        self.record(id)
            .lines
            .into_iter()
            .filter_map(|l| match l.entry {
                Entry::Move(m) => Some(m),
                Entry::Event(_) => None,
            })
            .collect()
    }

    /// Mails still waiting in pbem's Maildir.
    fn pending(&self) -> usize {
        fs::read_dir(self.inbox.root().join("new")).unwrap().count()
    }
}

/// A plain mail.
fn mail(from: &str, to: &str, subject: &str, id: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nDate: Fri, 20 Nov 2026 10:00:00 +0000\r\n\
         Message-ID: {id}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
        body.replace('\n', "\r\n")
    )
}

/// The `fate` of each `mail` log line of a poll.
fn fates(r: &Report) -> Vec<String> {
    r.log
        .iter()
        .filter(|l| l.starts_with("mail "))
        .map(|l| l.split(" fate=").nth(1).unwrap_or("").to_string())
        .collect()
}

fn is_notice(r: &Received) -> bool {
    r.subject.contains("replies to you are paused")
}

/// What an autoresponder without RFC 3834 headers writes: "I am away",
/// `Re:` the subject, to the Reply-To (so it carries the player's key),
/// pbem's text quoted.
fn away_answer(n: usize, from: &str, got: &Received) -> String {
    let quoted: String = got.text.lines().map(|l| format!("> {l}\n")).collect();
    let to = got.reply_to.clone().unwrap_or_else(|| PBEM.into());
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Re: {}\r\nDate: Fri, 20 Nov 2026 10:00:00 +0000\r\n\
         Message-ID: <away.{n}@example.org>\r\nIn-Reply-To: {}\r\nReferences: {}\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n\
         I am away until Monday 30 November and will read your mail when I am back.\r\n\r\n\
         On Fri, 20 Nov 2026, pbem wrote:\r\n{}",
        got.subject,
        got.message_id,
        got.message_id,
        quoted.replace('\n', "\r\n")
    )
}

/// Bob is back after the pause (`until`): his move is played and
/// answered.
fn bob_is_back(w: &mut World, until: DateTime<Utc>, bob_key: &str) {
    let bob = "bob@example.org";
    w.now = until + Duration::minutes(1);
    w.deliver(&mail(
        "Bob <bob@example.org>",
        &format!("pbem+bz-away.{bob_key}@example.net"),
        "Re: [pbem bz-away] Boom & Zoom: black played 6-13",
        "<bob.back@example.org>",
        "#2 61-34",
    ));
    let r = w.poll();
    assert_eq!(r.limited, 0, "{r:?}");
    let back = w.mails_to(bob);
    assert_eq!(
        back.len(),
        1,
        "{:?}",
        back.iter().map(|m| &m.1.subject).collect::<Vec<_>>()
    );
    assert!(back[0].1.headline().contains("Red played 61-34"));
    assert_eq!(w.moves("bz-away"), ["6-13", "61-34"]);
}

/// Alice moves in a game against Bob, whose autoresponder answers every
/// mail pbem sends him; pbem polls every `step`, `rounds` times. Bob must
/// get the news, `cap` answers and one notice, and then nothing. The
/// bound on fruitless mails in a row is off here: these are
/// the hourly and daily limits' cases.
fn away_loop(step: Duration, rounds: usize, cap: u32) {
    let mut w = World::new();
    w.server.config.limits.fruitless_in_a_row = 0;
    let bob = "bob@example.org";
    let [alice_key, bob_key] = w.game(
        "bz-away",
        ["Alice <alice@example.org>", "Bob <bob@example.org>"],
    );
    w.deliver(&mail(
        "Alice <alice@example.org>",
        &format!("pbem+bz-away.{alice_key}@example.net"),
        "Re: [pbem bz-away] the game begins",
        "<alice.1@example.org>",
        "#1 6-13",
    ));
    w.poll();
    let mut got: Vec<Received> = Vec::new();
    let mut last_mail_round = 0;
    let mut answered = 0;
    let mut notice_at = None;
    let mut held = 0;
    for round in 1..=rounds {
        let new = w.mails_to(bob);
        if !new.is_empty() {
            last_mail_round = round;
        }
        for (_, r) in new {
            if is_notice(&r) {
                notice_at.get_or_insert(w.now);
            }
            answered += 1;
            w.deliver(&away_answer(answered, "Bob <bob@example.org>", &r));
            got.push(r);
        }
        w.now += step;
        held += w.poll().limited;
    }
    let subjects: Vec<&str> = got.iter().map(|r| r.subject.as_str()).collect();
    // The news of Alice's move, `cap` answers ("no command" refusals), one
    // notice; then nothing: the answer to the notice came in while
    // replies were paused.
    assert_eq!(got.len(), 1 + cap as usize + 1, "{subjects:#?}");
    assert!(
        got[0].headline().contains("Black played 6-13"),
        "{subjects:#?}"
    );
    for r in &got[1..=cap as usize] {
        assert!(
            r.headline().contains("Your mail was not accepted"),
            "{}",
            r.subject
        );
        assert!(r.text.contains("I am away until Monday"), "{}", r.text);
    }
    let notice = got.last().unwrap();
    assert!(is_notice(notice), "{subjects:#?}");
    // Paused for the window whose limit tripped, from the poll that sent
    // the notice (the world's time when the next round read it).
    let window = if cap == w.limits().replies_per_hour {
        Duration::hours(1)
    } else {
        Duration::hours(24)
    };
    let until = notice_at.unwrap() + window;
    assert!(
        notice.subject.ends_with(&format_deadline(until, None)),
        "{} (expected until {until})",
        notice.subject
    );
    assert!(notice.text.contains("out-of-office"), "{}", notice.text);
    // The loop died: the notice's round was the last with mail for Bob;
    // the autoresponder's answer to it was processed (nothing is left in
    // the inbox) and held back, like the answer the notice replaced.
    assert!(
        last_mail_round + 5 < rounds,
        "mail for Bob until round {last_mail_round} of {rounds}"
    );
    assert_eq!(w.pending(), 0);
    assert_eq!(held, 2);
    assert_eq!(w.moves("bz-away"), ["6-13"]);
    println!(
        "autoresponder every {} min: {} mails to it ({} answers, then the notice); the last in round {last_mail_round} of {rounds}",
        step.num_minutes(),
        got.len(),
        cap
    );

    bob_is_back(&mut w, until, &bob_key);
}

/// a leaked key used again and again by another address: its
/// owner is told, but no more often than the limits allow; the sender
/// learns nothing, and nothing moves.
#[test]
fn a_leaked_key_cannot_flood_its_owner() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let limits = w.limits();
    let [alice_key, _] = w.game("bz-leak", ["Alice <alice@example.org>", "bob@example.org"]);
    let tries = limits.replies_per_hour as usize + 30;
    for i in 0..tries {
        w.deliver(&mail(
            "carol@example.com",
            &format!("pbem+bz-leak.{alice_key}@example.net"),
            "Re: Fwd: [pbem bz-leak] Boom & Zoom",
            &format!("<carol.{i}@example.com>"),
            "#1 6-13",
        ));
    }
    let r = w.poll();
    assert_eq!(r.handled, tries);
    let told = w.mails_to("alice@example.org");
    assert_eq!(told.len(), limits.replies_per_hour as usize);
    assert!(
        told[0].1.text.contains("from carol@example.com"),
        "{}",
        told[0].1.text
    );
    assert_eq!(r.limited, tries - limits.replies_per_hour as usize);
    assert!(w.mails_to("carol@example.com").is_empty());
    assert!(w.moves("bz-leak").is_empty());
}

/// `pbem poll` says what the limits held back: a `rate-limited`
/// line per mail and `limited=N` in its summary (here with
/// `--set limits.replies_per_hour=3`).
#[test]
fn pbem_poll_reports_what_it_held_back() {
    let _shared = crate::common::lock::shared();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pbem.toml");
    fs::write(&path, INIT.replace("pbem@localhost", PBEM)).unwrap();
    let config = Config::load(&path).unwrap();
    let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
    let sent = 8;
    let mut zeds = Vec::new();
    for i in 0..sent {
        let raw = mail(
            "Zed <zed@example.org>",
            PBEM,
            "hello?",
            &format!("<zed.{i}@example.org>"),
            "help",
        );
        zeds.push(raw.clone());
        inbox
            .deliver(&format!("{i:04}.zed"), raw.as_bytes())
            .unwrap();
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["poll", "--set", "limits.replies_per_hour=3", "--config"])
        .arg(&path)
        .env("PBEM_NOW", "2026-11-20T10:00:00Z")
        .env("PBEM_LOG", "info")
        .env_remove("PBEM_CONFIG")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let limited: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(" rate-limited "))
        .collect();
    assert_eq!(limited.len(), sent - 3, "{stderr}");
    let fourth = common::mail_key(zeds[3].as_bytes());
    assert!(
        limited[0].ends_with(&format!(
            "rate-limited key={fourth} to=zed@example.org held=1 until=2026-11-20T11:00:00Z notice=sent"
        )),
        "{stderr}"
    );
    let summary = stderr.lines().find(|l| l.contains(" poll ")).unwrap();
    assert!(
        summary.ends_with(&format!(
            "poll handled={sent} refused=0 already=0 failed=0 sent=4 waiting=0 limited={}",
            sent - 3
        )),
        "{summary}"
    );
    let folder = dir.path().join("mail/sent/zed@example.org/new");
    assert_eq!(fs::read_dir(folder).unwrap().count(), 4);
    // The counts are in the data folder, for the next poll.
    let tallies = fs::read_dir(dir.path().join("data/ratelimit"))
        .unwrap()
        .count();
    assert_eq!(tallies, 1);
}

/// answers are counted per mailbox, so `victim+1@` ... `victim+60@`
/// (one person's plus-addresses) get no more answers than one address.
#[test]
fn plus_addresses_share_one_mailboxs_limit() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    for n in 1..=60 {
        w.deliver(&mail(
            &format!("victim+{n}@example.org"),
            PBEM,
            "help",
            &format!("<plus.{n}@example.org>"),
            "help",
        ));
    }
    w.server.config.limits.fruitless_in_a_row = 0;
    let r = w.poll();
    assert_eq!(r.handled, 60, "{r:?}");
    let answered: usize = (1..=60)
        .map(|n| w.mails_to(&format!("victim+{n}@example.org")).len())
        .sum();
    // 20 answers an hour, and one notice that replies are paused.
    assert_eq!(answered, 21, "{answered} mails to victim+N@example.org");
}

/// item 6: one mail with 20 `challenge` lines makes two
/// challenges; the rest are refused in one answer. The strangers it
/// reaches see the challenger's address, never a name or text of their
/// choosing; ten more such mails (some from `+tag`s of the same mailbox)
/// reach no one more than the open challenges allow; withdrawing one
/// (the challenger's `decline`) makes room again.
#[test]
fn challenges_are_bounded_and_carry_no_strangers_text() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let lim = w.limits();
    let spam = "Buy Cheap Pills at pills.example";
    let from = format!("\"{spam}\" <mallory@example.org>");
    let lines = |k: usize| -> String {
        (1..=20)
            .map(|n| format!("challenge embed x{k}.{n}@example.com\n"))
            .collect()
    };
    w.deliver(&mail(&from, PBEM, spam, "<spam.0@example.org>", &lines(0)));
    w.poll();
    let strangers = |w: &mut World, k: usize| -> Vec<Received> {
        (1..=20)
            .flat_map(|n| w.mails_to(&format!("x{k}.{n}@example.com")))
            .map(|(_, r)| r)
            .collect()
    };
    let reached = strangers(&mut w, 0);
    assert_eq!(reached.len(), lim.challenges_per_mail as usize);
    for r in &reached {
        for text in [&r.subject, &r.text] {
            assert!(!text.contains("Pills") && !text.contains("pills"), "{text}");
        }
        // The local part in the subject (no name of theirs), the address in the text.
        assert!(r.subject.ends_with(" vs mallory"), "{}", r.subject);
        assert!(
            r.text.contains("mallory (mallory@example.org)"),
            "{}",
            r.text
        );
    }
    let to_mallory = w.mails_to("mallory@example.org");
    assert_eq!(to_mallory.len(), lim.challenges_per_mail as usize + 1);
    let refusal = &to_mallory.last().unwrap().1;
    let words = refusal
        .text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        words.contains("one mail makes at most 2 challenges: this one and 17 more were not sent"),
        "{words}"
    );
    // Ten more mails: one more challenge reaches anyone (three open).
    for k in 1..=10 {
        let sender = if k % 2 == 0 {
            format!("mallory+{k}@example.org")
        } else {
            from.clone()
        };
        w.deliver(&mail(
            &sender,
            PBEM,
            "x",
            &format!("<spam.{k}@example.org>"),
            &lines(k),
        ));
    }
    w.poll();
    let more: usize = (1..=10).map(|k| strangers(&mut w, k).len()).sum();
    assert_eq!(more, lim.open_challenges as usize - reached.len());
    assert_eq!(
        w.server.store.challenge_ids().unwrap().len(),
        lim.open_challenges as usize
    );
    // Mallory withdraws her first challenge with `decline` in a reply to
    // pbem's mail about it: its opponent hears of it, in pbem's words.
    let first = to_mallory[0].1.reply_to.clone().unwrap();
    w.deliver(&mail(
        &from,
        &first,
        "Re: challenge",
        "<withdraw@example.org>",
        "decline",
    ));
    w.poll();
    let told = strangers(&mut w, 0);
    assert_eq!(told.len(), 1);
    assert!(
        told[0].text.contains("withdrawn") && !told[0].text.contains("Pills"),
        "{}",
        told[0].text
    );
    assert_eq!(
        w.server.store.challenge_ids().unwrap().len(),
        lim.open_challenges as usize - 1
    );
    // And there is room for one more.
    w.deliver(&mail(
        &from,
        PBEM,
        "x",
        "<spam.last@example.org>",
        "challenge embed y@example.com",
    ));
    w.poll();
    assert_eq!(w.mails_to("y@example.com").len(), 1);
}

/// item 5, the other side: a player who sends illegal moves, or
/// a mix of them and mails with no command, is never silenced by the
/// count of fruitless mails: each refused move is answered with its
/// reason, and starts the count again.
#[test]
fn a_player_who_keeps_erring_is_always_told_why() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let alice = "alice@example.org";
    let [alice_key, _] = w.game(
        "bz-err",
        ["Alice <alice@example.org>", "Bob <bob@example.org>"],
    );
    let to = format!("pbem+bz-err.{alice_key}@example.net");
    let cap = w.limits().fruitless_in_a_row as usize;
    for n in 0..3 * cap {
        // Every few mails one with no command; the rest illegal moves.
        let body = if n % 3 == 2 { "hello?" } else { "#1 6-7" };
        w.deliver(&mail(
            alice,
            &to,
            "Re: game",
            &format!("<err.{n}@example.org>"),
            body,
        ));
        w.now += Duration::hours(2);
        w.poll();
        let got = w.mails_to(alice);
        assert_eq!(got.len(), 1, "mail {n}");
        assert!(
            got[0].1.text.contains("was not accepted"),
            "mail {n}: {}",
            got[0].1.text
        );
    }
}

/// A newcomer who tries things: more mails without a key than the hourly
/// limit (`help` to pbem's own address), then moves in their own game,
/// from the game's keyed address, that turn out illegal. The keyless
/// mails meet the limit of any address (its answers, one notice); each of
/// the moves is still refused with its reason, up to the higher limit of
/// a player's keyed mails in their own game, and the legal move after
/// them is played and its news comes.
#[test]
fn a_newcomer_past_the_hourly_limit_still_hears_why_their_moves_are_refused() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let ann = "ann@example.org";
    let limits = w.limits();
    let [ann_key, _] = w.game("bz-new", ["Ann <ann@example.org>", "Bob <bob@example.org>"]);
    for n in 0..=limits.replies_per_hour {
        w.deliver(&mail(
            ann,
            PBEM,
            "help?",
            &format!("<new.help.{n}@example.org>"),
            "help",
        ));
    }
    w.poll();
    let got = w.mails_to(ann);
    assert_eq!(got.len(), limits.replies_per_hour as usize + 1);
    assert!(is_notice(&got.last().unwrap().1));
    let to = format!("pbem+bz-new.{ann_key}@example.net");
    let tries = limits.keyed_per_hour as usize - 1;
    for n in 0..tries {
        w.now += Duration::seconds(30);
        w.deliver(&mail(
            ann,
            &to,
            "Re: game",
            &format!("<new.try.{n}@example.org>"),
            "#1 6-7",
        ));
        w.poll();
        let got = w.mails_to(ann);
        assert_eq!(got.len(), 1, "try {n}");
        assert!(
            got[0].1.text.contains("was not accepted"),
            "try {n}: {}",
            got[0].1.text
        );
    }
    w.deliver(&mail(
        ann,
        &to,
        "Re: game",
        "<new.move@example.org>",
        "#1 6-13",
    ));
    w.poll();
    let got = w.mails_to(ann);
    assert_eq!(got.len(), 1);
    assert!(
        got[0].1.headline().contains("Black played 6-13"),
        "{}",
        got[0].1.text
    );
    assert_eq!(w.moves("bz-new"), ["6-13"]);
}
