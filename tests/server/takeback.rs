//! Takebacks by agreement through the whole mail path, in every game,
//! with a clock and without (docs/src/players/mail.md; the record's side
//! is docs/src/formats/record.md, "Takebacks"): asked by the player who
//! made the last move, accepted, declined, or declined by a move; refused
//! with their reasons (not your move, asked already, none asked, none
//! left, in a tournament that does not allow them, after the deadline);
//! the record append-only and valid, the ratings untouched, the clock
//! back with the asker, a mail handled again after a crash not applied
//! twice. pbem polls in this process, its clock given.

use crate::common;
use chrono::{DateTime, Duration, Utc};
use pbem::adjudicate::{Adjudicator, Desk};
use pbem::config::{Config, INIT};
use pbem::demo::Player;
use pbem::game::{self, Game, PerSide, Side};
use pbem::mailbox::Maildir;
use pbem::poll::OsRandom;
use pbem::record::{self, Entry, Event, MatchInfo, MoveLine, Record};
use pbem::rules::Rules;
use pbem::setup::Server;
use std::fs;

struct World {
    _dir: tempfile::TempDir,
    server: Server,
    inbox: Maildir,
    /// Alice plays side A, Bob side B.
    players: [Player; 2],
    keys: [String; 2],
    now: DateTime<Utc>,
    sent: usize,
}

const ID: &str = "tb-1";

impl World {
    /// A pbem with the settings `edit` makes of the default ones, and
    /// game [`ID`] of `rules` begun between Alice and Bob.
    fn new(
        rules: Rules,
        clock: Option<&str>,
        info: MatchInfo,
        edit: impl FnOnce(String) -> String,
    ) -> World {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pbem.toml");
        fs::write(&path, edit(INIT.to_string())).unwrap();
        let config = Config::load(&path).unwrap();
        let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
        let sent = dir.path().join("mail/sent");
        let server = Server::new(config).unwrap();
        let now: DateTime<Utc> = "2026-11-04T09:00:00Z".parse().unwrap();
        let adj = Adjudicator {
            desk: Desk::new(&server.store),
            draw: &OsRandom,
            identity: &server.identity,
            templates: &server.templates,
            now,
            challenges: Default::default(),
        };
        let addresses = ["alice@example.org", "bob@example.org"];
        let map = PerSide::new(addresses[0].to_string(), addresses[1].to_string());
        let first = Some(rules.fixed_first().unwrap_or(Side::A));
        let control = clock.map(|c| c.parse().unwrap());
        let ((), effects) = adj
            .decide(|a| a.start_game(ID, rules, first, map, control, info))
            .unwrap();
        server.store.apply_effects(&effects).unwrap();
        let secrets = server.store.secrets(ID, rules).unwrap();
        let keys = [Side::A, Side::B].map(|s| secrets.tokens[s].clone().unwrap());
        World {
            players: [
                Player::new("Alice", addresses[0], &sent),
                Player::new("Bob", addresses[1], &sent),
            ],
            _dir: dir,
            server,
            inbox,
            keys,
            now,
            sent: 0,
        }
    }

    fn record(&self) -> Record {
        let text = self.server.store.read_game(ID).unwrap().unwrap();
        Record::parse("tb-1.toml", &text).unwrap()
    }

    /// Delivers a mail of player `who` (0 Alice, 1 Bob) with their key,
    /// Message-ID `mid`, saying `body`; an hour on, pbem polls. The mails
    /// each player got, their words on one line each.
    fn mail(&mut self, who: usize, mid: &str, body: &str) -> [String; 2] {
        let raw = format!(
            "From: {}\r\nTo: pbem+{ID}.{}@localhost\r\nSubject: Re: [pbem {ID}] move\r\n\
             Message-ID: {mid}\r\n\r\n{body}\r\n",
            self.players[who].address, self.keys[who]
        );
        self.sent += 1;
        self.inbox
            .deliver(&format!("{:06}.tb", self.sent), raw.as_bytes())
            .unwrap();
        self.now += Duration::hours(1);
        self.server
            .poller()
            .poll(&mut self.inbox.clone(), self.now, true)
            .unwrap();
        self.players.each_mut().map(|p| {
            p.check()
                .iter()
                .map(|r| r.text.split_whitespace().collect::<Vec<_>>().join(" "))
                .collect::<Vec<_>>()
                .join("\n")
        })
    }

    /// `body` from player `who`, in a mail of its own.
    fn say(&mut self, who: usize, body: &str) -> [String; 2] {
        let mid = format!("<m{}@example.org>", self.sent + 1);
        self.mail(who, &mid, body)
    }

    /// The player to move (0 Alice, 1 Bob).
    fn to_move(&self) -> usize {
        let rec = self.record();
        pbem::with_game!(rec.rules, G => record::replay::<G>(&rec).unwrap().position().turn().index())
    }

    /// The player to move plays a legal move that does not end the game
    /// (the `skip`th such, if there are that many), numbered; the move.
    fn play(&mut self, skip: usize) -> String {
        let rec = self.record();
        let (ply, text) = pbem::with_game!(rec.rules, G => quiet_move::<G>(&rec, skip));
        let who = self.to_move();
        let got = self.say(who, &format!("#{ply} {text}"));
        assert!(got[who].contains(&format!("played {text}")), "{got:?}");
        text
    }

    fn replayed_counts(&self) -> (usize, usize, Option<Side>, [u32; 2]) {
        let rec = self.record();
        pbem::with_game!(rec.rules, G => {
            let r = record::replay::<G>(&rec).unwrap();
            (r.moves.len(), r.taken_back.len(), r.takeback, r.takebacks_asked.0)
        })
    }
}

/// The number of the next move of `rec`, and a legal move there after
/// which the game goes on (the `skip`th such, or the last).
fn quiet_move<G: Game>(rec: &Record, skip: usize) -> (usize, String) {
    let r = record::replay::<G>(rec).unwrap();
    let pos = r.position();
    let quiet: Vec<String> = game::listed_moves(pos)
        .into_iter()
        .filter(|(m, _)| {
            let mut after = pos.clone();
            after.play_unchecked(*m);
            game::outcome(&after).is_none()
        })
        .map(|(m, _)| game::canonical(pos, m))
        .collect();
    let text = quiet
        .get(skip)
        .or(quiet.last())
        .cloned()
        .expect("a move that does not end the game");
    (r.moves.len() + 1, text)
}

/// The last line of the record: its side and entry.
fn last_line(w: &World) -> (Option<Side>, Entry) {
    let rec = w.record();
    let l = rec.lines.last().unwrap();
    (l.side, l.entry.clone())
}

fn side(who: usize) -> Side {
    [Side::A, Side::B][who]
}

/// Every rule in one game: refusals and their reasons, an accepted, a
/// declined and a lapsed takeback, the limit, the record and the clock.
fn every_rule(rules: Rules, clock: Option<&str>) {
    let _shared = common::lock::shared();
    let mut w = World::new(rules, clock, MatchInfo::default(), |s| s);
    let first = w.to_move();
    let second = 1 - first;
    let got = w.say(first, "takeback");
    assert!(got[first].contains("nothing to take back"), "{got:?}");
    w.play(0);
    w.play(0);
    let third = w.play(0);
    // Not the move of the player who asks.
    let got = w.say(second, "take back");
    assert!(got[second].contains("is your opponent's"), "{got:?}");
    let got = w.say(second, "accept takeback");
    assert!(
        got[second].contains("has not asked to take back"),
        "{got:?}"
    );
    // Asked: the opponent is told how to answer.
    let got = w.say(first, "takeback");
    assert!(
        got[second].contains(&format!(
            "asks to take back move 3 ({third}): reply `accept takeback`"
        )),
        "{got:?}"
    );
    assert!(got[first].contains("your takeback 1 of 3"), "{got:?}");
    assert_eq!(
        last_line(&w),
        (Some(side(first)), Entry::Event(Event::TakebackAsked))
    );
    let got = w.say(first, "undo");
    assert!(got[first].contains("you have asked already"), "{got:?}");
    let got = w.say(first, "accept takeback");
    assert!(got[first].contains("has not asked to take back"), "{got:?}");
    // Accepted: the move is gone, the turn is the asker's.
    let got = w.say(second, "accept takeback");
    assert!(
        got[first].contains(&format!("agreed: your move 3 ({third}) is taken back"))
            && got[first].contains("your move: move #3 again"),
        "{got:?}"
    );
    assert_eq!(w.replayed_counts(), (2, 1, None, side_counts(first, 1)));
    assert_eq!(w.to_move(), first);
    if clock.is_some() {
        let gc = w.server.store.clock(ID).unwrap().unwrap();
        assert_eq!(
            gc.state.to_move,
            Some(side(first)),
            "the asker's clock runs"
        );
        assert_eq!(gc.state.turn_start, w.now, "from the accept on");
    }
    // Move 3 again; then a takeback declined.
    w.play(1);
    w.say(first, "takeback");
    let got = w.say(second, "decline takeback");
    assert!(got[first].contains("declined your takeback"), "{got:?}");
    assert_eq!(w.replayed_counts(), (3, 1, None, side_counts(first, 2)));
    // A takeback declined by a move.
    w.play(0);
    w.play(0);
    w.say(first, "takeback");
    w.play(0);
    assert_eq!(w.replayed_counts(), (6, 1, None, side_counts(first, 3)));
    w.play(0);
    let got = w.say(first, "takeback");
    assert!(
        got[first].contains("you have asked for 3 takebacks in this game, all of the 3"),
        "{got:?}"
    );
    check_record(&w, 7);
    // Nothing rated: the game is in play.
    assert!(
        w.server
            .store
            .ratings(rules.slug())
            .unwrap()
            .games
            .is_empty()
    );
    if clock.is_some() {
        past_the_deadline(&mut w, first);
    }
}

/// Each side's requests, `n` by the player `who`.
fn side_counts(who: usize, n: u32) -> [u32; 2] {
    let mut c = [0, 0];
    c[who] = n;
    c
}

/// The record as stored: valid, its moves numbered again after the
/// takeback, the same once written again.
fn check_record(w: &World, moves: usize) {
    let rec = w.record();
    let checked = pbem::cli::validate_record(&rec).unwrap();
    assert_eq!((checked.moves, checked.taken_back), (moves, 1));
    let text = record::write::to_string(&rec);
    assert_eq!(text, w.server.store.read_game(ID).unwrap().unwrap());
    let threes = text.lines().filter(|l| l.starts_with("3.")).count();
    assert_eq!(threes, 2, "{text}");
    assert_eq!(record::plies(&rec.lines), moves);
}

/// A takeback asked, then the deadline of the side to move passes: the
/// takeback is not accepted (the adjudicator refuses it by itself), and
/// the poll records the loss on time before it reads the accept.
fn past_the_deadline(w: &mut World, first: usize) {
    let second = 1 - first;
    assert_eq!(w.to_move(), second);
    let eighth = w.play(0);
    let got = w.say(second, "takeback");
    assert!(
        got[first].contains(&format!("asks to take back move 8 ({eighth})")),
        "{got:?}"
    );
    w.now += Duration::days(30);
    let raw = format!(
        "From: {}\r\nTo: pbem+{ID}.{}@localhost\r\nSubject: Re: [pbem {ID}] move\r\n\
         Message-ID: <late@example.org>\r\n\r\naccept takeback\r\n",
        w.players[first].address, w.keys[first]
    );
    let s = &w.server;
    let adj = Adjudicator {
        desk: Desk::new(&s.store),
        draw: &OsRandom,
        identity: &s.identity,
        templates: &s.templates,
        now: w.now,
        challenges: Default::default(),
    };
    let handled = adj
        .handle(&pbem::mail::inbound::parse(raw.as_bytes()).unwrap())
        .unwrap();
    let text: String = handled
        .replies
        .iter()
        .map(|r| {
            r.rendered
                .text
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert!(
        text.contains("the game is lost on time, and no move can be taken back"),
        "{text}"
    );
    assert!(
        handled.effects.is_empty()
            || !format!("{:?}", handled.effects).contains("takeback accepted")
    );
    let got = w.say(first, "accept takeback");
    assert!(got[first].contains("the game is over"), "{got:?}");
    let rec = w.record();
    assert_eq!(
        rec.lines.last().unwrap().entry,
        Entry::Event(Event::Timeout)
    );
    assert_eq!(
        rec.verdict().word(rec.rules),
        rec.rules.side_name(side(second))
    );
}

pbem_engine::game_tests!(rules, _G => {
    every_rule(rules, None);
    every_rule(rules, Some("3d+1d/10d"));
});

/// A tournament's games have takebacks only if it allows them; a game
/// against the bot never; a server may turn them off.
#[test]
fn takebacks_are_off_where_the_settings_say() {
    let _shared = common::lock::shared();
    let cup = MatchInfo {
        tournament: Some("cup".into()),
        round: Some(1),
        ..MatchInfo::default()
    };
    for allowed in [false, true] {
        let mut w = World::new(Rules::Embed, None, cup.clone(), |s| s);
        let mut t = tournament("cup");
        t.takebacks = allowed;
        w.server.store.write_tournament(&t).unwrap();
        let first = w.to_move();
        w.play(0);
        let got = w.say(first, "takeback");
        assert_eq!(
            got[first].contains("takebacks are off in the games of the tournament cup"),
            !allowed,
            "{got:?}"
        );
    }
    // Against the bot: its side's player is the bot's mailbox.
    let mut w = World::new(Rules::Mad, None, MatchInfo::default(), |s| s);
    let mut rec = w.record();
    let level = pbem_engine::bot::Level::new(2).unwrap();
    rec.players[Side::B] = Some(w.server.identity.bot_mailbox(level));
    let text = record::write::to_string(&rec);
    w.server.store.write_game(ID, &text).unwrap();
    assert_eq!(w.to_move(), 0);
    w.play(0);
    let got = w.say(0, "takeback");
    assert!(
        got[0].contains("pbem's bot does not agree to takebacks"),
        "{got:?}"
    );
    let off = |s: String| s.replace("takebacks_per_game = 3", "takebacks_per_game = 0");
    let mut w = World::new(Rules::Mad, None, MatchInfo::default(), off);
    let first = w.to_move();
    w.play(0);
    let got = w.say(first, "takeback");
    assert!(
        got[first].contains("takebacks are off on this server"),
        "{got:?}"
    );
}

fn tournament(name: &str) -> pbem::store::league::TournamentFile {
    pbem::store::league::TournamentFile {
        name: name.into(),
        rules: Rules::Embed,
        format: pbem_league::pairing::Format::RoundRobin,
        rounds: 0,
        clock: None,
        rated: false,
        created: "2026-11-01T00:00:00Z".parse().unwrap(),
        begins: "2026-11-01T00:00:00Z".parse().unwrap(),
        signup: false,
        drop_after_timeouts: 0,
        takebacks: false,
        players: vec!["alice@example.org".into(), "bob@example.org".into()],
        dropped: Vec::new(),
        timeouts: Vec::new(),
        played: Vec::new(),
        over: false,
    }
}

/// A crash after the record took a mail's lines, before its key was
/// kept: the mail handled again writes nothing twice, an accepted
/// takeback nor the move that follows it (numbered as the move taken
/// back), and its news goes out again.
#[test]
fn a_takeback_mail_handled_again_is_not_applied_twice() {
    let _shared = common::lock::shared();
    let mut w = World::new(Rules::BoomAndZoom, None, MatchInfo::default(), |s| s);
    let first = w.to_move();
    let second = 1 - first;
    w.play(0);
    w.play(0);
    let third = w.play(0);
    w.say(first, "takeback");
    // The accept's line as its first handling wrote it.
    let at = Some(w.now.fixed_offset());
    let line = |who: usize, entry: Entry, number, mid: &str| MoveLine {
        line: 0,
        number,
        side: Some(side(who)),
        entry,
        time: at,
        message_id: Some(mid.to_string()),
    };
    let accepted = line(
        second,
        Entry::Event(Event::TakebackAccepted),
        None,
        "<acc@example.org>",
    );
    let mut rec = w.record();
    rec.lines.push(accepted);
    let text = record::write::to_string(&rec);
    w.server.store.write_game(ID, &text).unwrap();
    let got = w.mail(second, "<acc@example.org>", "accept takeback");
    assert!(
        got[first].contains(&format!("your move 3 ({third}) is taken back")),
        "{got:?}"
    );
    assert_eq!(w.server.store.read_game(ID).unwrap().unwrap(), text);
    // The move after it, numbered 3 again, as its first handling wrote it.
    let again = pbem::with_game!(rec.rules, G => quiet_move::<G>(&rec, 1)).1;
    assert_ne!(again, third);
    let moved = line(
        first,
        Entry::Move(again.clone()),
        Some(3),
        "<mv@example.org>",
    );
    rec.lines.push(moved);
    let text = record::write::to_string(&rec);
    w.server.store.write_game(ID, &text).unwrap();
    let got = w.mail(first, "<mv@example.org>", &format!("#3 {again}"));
    assert!(got[second].contains(&format!("played {again}")), "{got:?}");
    assert_eq!(w.server.store.read_game(ID).unwrap().unwrap(), text);
    assert_eq!(w.replayed_counts(), (3, 1, None, side_counts(first, 1)));
}
