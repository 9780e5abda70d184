//! Tournaments by mail (issue 16, "Tournaments"): made by the admin's
//! `pbem tournament new`, played by scripted players who answer pbem's
//! mails as a mail client's Reply would (the loser resigns, or a draw is
//! offered and accepted), `pbem poll` over a Maildir with its clock
//! pinned. The pairings, byes and standings are checked against numbers
//! worked by hand (the same tournaments as league's unit tests).

use crate::common;

use common::pbem_setup::{PBEM, Pbem};
use pbem::demo::Player;
use pbem::mailbox::Maildir;
use pbem::store::league::TournamentFile;
use std::collections::BTreeMap;

/// How a game between two seats ends: the winner, or none for a draw.
type Results = BTreeMap<(usize, usize), Option<usize>>;

/// A pbem, its players (seat order) and a clock a minute on per poll.
struct Club {
    pbem: Pbem,
    inbox: Maildir,
    players: Vec<Player>,
    minute: u32,
}

impl Club {
    fn new(n: usize) -> Club {
        let pbem = Pbem::new();
        let inbox = Maildir::open(pbem.config.inbox.maildir.as_ref().unwrap()).unwrap();
        let sent = pbem.sent_folder();
        let players = (0..n)
            .map(|i| Player::new(&format!("P{i}"), &format!("p{i}@example.org"), &sent))
            .collect();
        Club {
            pbem,
            inbox,
            players,
            minute: 0,
        }
    }

    fn now(&self) -> String {
        format!(
            "2026-11-25T{:02}:{:02}:00Z",
            10 + self.minute / 60,
            self.minute % 60
        )
    }

    /// Runs a poll a minute on; every player reads their new mail.
    fn poll(&mut self) -> String {
        self.minute += 1;
        let log = self.pbem.poll(&self.now());
        self.read();
        log
    }

    fn read(&mut self) {
        for p in &mut self.players {
            p.check();
        }
    }

    /// Runs a pbem command at the clock's time; every player reads.
    fn run(&mut self, args: &[&str]) -> String {
        let out = self.pbem.run(args, &self.now());
        self.read();
        out
    }

    /// Player `who` answers the newest mail about game `id` with `body`.
    fn say(&mut self, who: usize, id: &str, body: &str) -> String {
        self.players[who]
            .reply(&self.inbox, &format!("[pbem {id}]"), body)
            .unwrap();
        self.poll()
    }

    fn tournament(&self, name: &str) -> TournamentFile {
        self.pbem
            .store
            .tournament(name)
            .unwrap()
            .expect("the tournament")
    }

    /// Plays every game of the round in play by `results`.
    fn play_round(&mut self, name: &str, results: &Results) {
        let t = self.tournament(name);
        let round = t.played.last().unwrap().clone();
        for g in round.games.iter().filter(|g| g.outcome.is_none()) {
            let id = g.game.clone().unwrap();
            let pair = (g.first.min(g.second), g.first.max(g.second));
            match results[&pair] {
                Some(winner) => {
                    let loser = if winner == g.first { g.second } else { g.first };
                    let log = self.say(loser, &id, "resign");
                    assert!(log.contains("resigned"), "{log}");
                }
                None => {
                    self.say(g.first, &id, "draw");
                    let log = self.say(g.second, &id, "accept draw");
                    assert!(log.contains(&id), "{log}");
                }
            }
        }
    }

    /// The text of player `who`'s newest mail holding `what`, its lines
    /// joined with single spaces.
    fn last_about(&self, who: usize, what: &str) -> String {
        let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        self.players[who]
            .received
            .iter()
            .rev()
            .map(|r| flat(&r.text))
            .find(|t| t.contains(what))
            .unwrap_or_else(|| panic!("p{who} got no mail with {what}"))
    }
}

/// A round's games as (first, second) seats, and its bye.
fn boards(t: &TournamentFile, round: usize) -> (Vec<(usize, usize)>, Option<usize>) {
    let r = &t.played[round - 1];
    (r.games.iter().map(|g| (g.first, g.second)).collect(), r.bye)
}

/// `pbem tournament show --json`'s standings: (place, seat, points,
/// tie-break) in quarter points.
fn standings(club: &mut Club, name: &str) -> Vec<(u64, usize, u64, u64)> {
    let out = club.run(&["tournament", "show", name, "--json"]);
    let v: serde_json::Value =
        serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"));
    v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let seat: usize = l["player"].as_str().unwrap()[1..2].parse().unwrap();
            let q = |k: &str| (l[k].as_f64().unwrap() * 4.0) as u64;
            (
                l["place"].as_u64().unwrap(),
                seat,
                q("points"),
                q("tie_break"),
            )
        })
        .collect()
}

fn results(list: &[((usize, usize), Option<usize>)]) -> Results {
    list.iter()
        .map(|&((a, b), w)| ((a.min(b), a.max(b)), w))
        .collect()
}

#[test]
fn a_round_robin_of_five_to_the_end() {
    let _shared = common::lock::shared();
    let mut club = Club::new(5);
    let mut args = vec!["tournament", "new", "rr5", "--game", "mad-rooks"];
    let addresses: Vec<String> = (0..5).map(|i| format!("p{i}@example.org")).collect();
    for a in &addresses {
        args.extend(["--player", a.as_str()]);
    }
    let out = club.run(&args);
    assert!(out.contains("round 1 begun: 2 games"), "{out}");
    // 0 beats 1 and 4, draws 2, loses to 3; 1 beats 2 and 3, draws 4;
    // 2 beats 3; 4 beats 2; 3 beats 4.
    let r = results(&[
        ((0, 1), Some(0)),
        ((0, 2), None),
        ((0, 3), Some(3)),
        ((0, 4), Some(0)),
        ((1, 2), Some(1)),
        ((1, 3), Some(1)),
        ((1, 4), None),
        ((2, 3), Some(2)),
        ((2, 4), Some(4)),
        ((3, 4), Some(3)),
    ]);
    // The Berger table for 5 (seat 6 the bye), seats from 0.
    let berger = [
        (vec![(1, 4), (2, 3)], Some(0)),
        (vec![(4, 2), (0, 1)], Some(3)),
        (vec![(2, 0), (3, 4)], Some(1)),
        (vec![(0, 3), (1, 2)], Some(4)),
        (vec![(3, 1), (4, 0)], Some(2)),
    ];
    for (k, want) in berger.iter().enumerate() {
        let t = club.tournament("rr5");
        assert_eq!(t.played.len(), k + 1, "round {} begun", k + 1);
        assert_eq!(&boards(&t, k + 1), want, "round {}", k + 1);
        // The one who sits out is told so.
        let bye = want.1.unwrap();
        assert!(
            club.last_about(bye, &format!("Round {}:", k + 1))
                .contains(&format!("bye: p{bye}@e… sits the round out"))
        );
        club.play_round("rr5", &r);
    }
    let t = club.tournament("rr5");
    assert!(t.over, "over after the fifth round");
    // Points 2½, 2½, 2, 1½, 1½; Sonneborn-Berger 4¾, 4¼, 4, 3¼, 2¾.
    assert_eq!(
        standings(&mut club, "rr5"),
        [
            (1, 0, 10, 19),
            (2, 1, 10, 17),
            (3, 3, 8, 16),
            (4, 2, 6, 13),
            (5, 4, 6, 11)
        ]
    );
    // Every player had the final standings by mail.
    for who in 0..5 {
        let last = club.last_about(who, "Tournament rr5");
        assert!(
            last.contains("It is over after 5 rounds")
                && last.contains("place 1: p0@e…, 2½ points (Sonneborn-Berger 4¾, 4 played)"),
            "{last}"
        );
    }
    // Ten rated games; the ratings rebuilt from the records alike.
    let out = club.run(&["ratings", "mad-rooks", "--rebuild"]);
    assert!(
        out.contains("10 rated games rebuilt from the records; the same as kept"),
        "{out}"
    );
}

#[test]
fn a_swiss_of_eight_to_the_end() {
    let _shared = common::lock::shared();
    let mut club = Club::new(8);
    let mut args = vec![
        "tournament",
        "new",
        "sw8",
        "--game",
        "embed",
        "--format",
        "swiss",
        "--rounds",
        "3",
    ];
    let addresses: Vec<String> = (0..8).map(|i| format!("p{i}@example.org")).collect();
    for a in &addresses {
        args.extend(["--player", a.as_str()]);
    }
    let out = club.run(&args);
    assert!(out.contains("round 1 begun: 4 games"), "{out}");
    let r = results(&[
        ((0, 4), Some(0)),
        ((5, 1), None),
        ((2, 6), Some(2)),
        ((7, 3), Some(7)),
        ((2, 0), Some(0)),
        ((1, 7), None),
        ((3, 5), Some(3)),
        ((4, 6), Some(6)),
        ((0, 7), None),
        ((3, 1), Some(3)),
        ((4, 2), Some(2)),
        ((6, 5), Some(6)),
    ]);
    // The pairings worked by hand in league's pairing::swiss tests.
    let want = [
        vec![(0, 4), (5, 1), (2, 6), (7, 3)],
        vec![(2, 0), (1, 7), (3, 5), (4, 6)],
        vec![(0, 7), (3, 1), (4, 2), (6, 5)],
    ];
    for (k, w) in want.iter().enumerate() {
        let t = club.tournament("sw8");
        assert_eq!(boards(&t, k + 1), (w.clone(), None), "round {}", k + 1);
        club.play_round("sw8", &r);
    }
    assert!(club.tournament("sw8").over);
    // Points 2½; 2, 2, 2, 2; 1; ½; 0. Buchholz breaks the tie of four.
    assert_eq!(
        standings(&mut club, "sw8"),
        [
            (1, 0, 10, 16),
            (2, 7, 8, 22),
            (3, 2, 8, 18),
            (4, 3, 8, 14),
            (5, 6, 8, 10),
            (6, 1, 4, 18),
            (7, 5, 2, 20),
            (8, 4, 0, 26),
        ]
    );
    // `standings sw8` by mail, from anyone.
    club.players[4]
        .send(&club.inbox, PBEM, "table?", "standings sw8\n", None)
        .unwrap();
    club.poll();
    let table = club.last_about(
        4,
        "Tournament sw8: Embed, swiss, 8 players. It is over after 3 rounds.",
    );
    assert!(
        table.contains("place 2: p7@e…, 2 points (Buchholz 5½, 3 played)"),
        "{table}"
    );
}

#[test]
fn sign_up_by_mail_then_play() {
    let _shared = common::lock::shared();
    let mut club = Club::new(5);
    let out = club.run(&[
        "tournament",
        "new",
        "su",
        "--game",
        "toroidal-checkers",
        "--format",
        "swiss",
        "--signup-until",
        "30m",
    ]);
    assert!(out.contains("sign-up by mail (`join su`)"), "{out}");
    for who in 0..4 {
        club.players[who]
            .send(&club.inbox, PBEM, "count me in", "join su\n", None)
            .unwrap();
    }
    club.poll();
    assert!(
        club.last_about(3, "You are signed up for su")
            .contains("4 players so far")
    );
    // One leaves before the start; a wrong name is refused and says so.
    club.players[2]
        .send(&club.inbox, PBEM, "sorry", "leave su\n", None)
        .unwrap();
    club.players[4]
        .send(&club.inbox, PBEM, "me too", "join sux\n", None)
        .unwrap();
    club.poll();
    assert!(
        club.last_about(2, "You are off the list of su")
            .contains("off the list")
    );
    assert!(
        club.last_about(4, "there is no tournament called sux")
            .contains("sux")
    );
    assert_eq!(club.tournament("su").players.len(), 3);
    // Half an hour on: the poll closes the sign-up and begins round 1
    // (three players: a Swiss of 2 rounds, one bye).
    club.minute += 30;
    let log = club.poll();
    assert!(
        log.contains("tournament") && log.contains("round 1 begun"),
        "{log}"
    );
    let t = club.tournament("su");
    assert_eq!(t.played.len(), 1);
    assert_eq!(t.played[0].games.len(), 1);
    assert_eq!(t.played[0].bye, Some(2), "the lowest seed sits out");
    // Too late to join.
    club.players[4]
        .send(&club.inbox, PBEM, "late", "join su\n", None)
        .unwrap();
    club.poll();
    assert!(
        club.last_about(4, "sign-up for su is closed")
            .contains("closed")
    );
    // The game of round 1 is mailed to both its players.
    let id = t.played[0].games[0].game.clone().unwrap();
    for who in [0, 1] {
        assert!(
            club.last_about(who, "The game begins")
                .contains("Toroidal Checkers")
        );
    }
    let r = results(&[((0, 1), Some(0)), ((0, 2), Some(2)), ((1, 2), Some(1))]);
    club.play_round("su", &r);
    assert_eq!(club.tournament("su").played.len(), 2, "round 2 begun");
    assert!(!id.is_empty());
}
