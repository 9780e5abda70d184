//! Tournaments by mail: made by the admin's
//! `pbem tournament new`, played by scripted players who answer pbem's
//! mails as a mail client's Reply would (the loser resigns, or a draw is
//! offered and accepted), `pbem poll` over a Maildir with its clock
//! pinned. The pairings, byes and standings are checked against numbers
//! worked by hand (the same tournaments as league's unit tests).

use crate::common;

use common::club::Club;
use pbem::store::league::TournamentFile;
use std::collections::BTreeMap;

/// How a game between two seats ends: the winner, or none for a draw.
type Results = BTreeMap<(usize, usize), Option<usize>>;

/// Plays every game of the round in play of tournament `name` by
/// `results`.
fn play_round(club: &mut Club, name: &str, results: &Results) {
    let t = club.tournament(name);
    let round = t.played.last().unwrap().clone();
    for g in round.games.iter().filter(|g| g.outcome.is_none()) {
        let id = g.game.clone().unwrap();
        let pair = (g.first.min(g.second), g.first.max(g.second));
        match results[&pair] {
            Some(winner) => {
                let loser = if winner == g.first { g.second } else { g.first };
                // The game that ends the round leaves the standings to
                // the round's own mail.
                let now = club.tournament(name);
                let open = now.played.last().unwrap().games.iter();
                let last = open.filter(|g| g.outcome.is_none()).count() == 1;
                let log = club.say(loser, &id, "resign");
                assert!(log.contains("resigned"), "{log}");
                // The end, as the loser reads it: the tournament and its
                // round, what comes next, and no rematch on the side.
                let over = club.last_about(loser, "and you lost (");
                let of = format!(
                    "your game of round {} of the tournament {name}",
                    t.played.len()
                );
                assert!(over.contains(&of), "{over}");
                assert!(over.contains("what comes next"), "{over}");
                assert_eq!(over.contains("The standings now:"), !last, "{over}");
                assert!(!over.contains("`rematch`"), "{over}");
            }
            None => {
                club.say(g.first, &id, "draw");
                let log = club.say(g.second, &id, "accept draw");
                assert!(log.contains(&id), "{log}");
            }
        }
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
    let mut club = Club::numbered(5);
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
        // The one who sits out is told so, by the name of their mails
        // once they wrote one (P1), else their address's local part (p1).
        let bye = want.1.unwrap();
        let told = club.last_about(bye, &format!("Round {}:", k + 1));
        assert!(
            told.to_lowercase()
                .contains(&format!("bye: p{bye} sits the round out")),
            "{told}"
        );
        play_round(&mut club, "rr5", &r);
    }
    let t = club.tournament("rr5");
    assert!(t.over, "over after the fifth round");
    // Nothing is left to leave.
    club.send(3, "leave rr5\n");
    club.poll();
    let refused = club.last_about(3, "rr5 is over");
    assert!(
        refused.contains("Your command `leave rr5` was not accepted"),
        "{refused}"
    );
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
                && last.contains("place 1: P0, 2½ points (Sonneborn-Berger 4¾, 4 played)"),
            "{last}"
        );
    }
    // The two draws are rated: both players wrote in them. The eight
    // games given up before their winner wrote a line are not (a player
    // who never wrote may be an address nobody asked), and the ratings
    // rebuilt from the records agree.
    let out = club.run(&["ratings", "mad-rooks", "--rebuild"]);
    assert!(
        out.contains("2 rated games rebuilt from the records; the same as kept"),
        "{out}"
    );
}

#[test]
fn a_swiss_of_eight_to_the_end() {
    let _shared = common::lock::shared();
    let mut club = Club::numbered(8);
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
        play_round(&mut club, "sw8", &r);
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
    club.send(4, "standings sw8\n");
    club.poll();
    let table = club.last_about(
        4,
        "Tournament sw8: Embed, swiss, 8 players. It is over after 3 rounds.",
    );
    assert!(
        table.contains("place 2: P7, 2 points (Buchholz 5½, 3 played)"),
        "{table}"
    );
}

#[test]
fn sign_up_by_mail_then_play() {
    let _shared = common::lock::shared();
    let mut club = Club::numbered(5);
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
        club.send(who, "join su\n");
    }
    club.poll();
    // A From anyone can write counts only once confirmed from the mailbox.
    assert!(club.tournament("su").players.is_empty());
    for who in 0..4 {
        club.confirm(who);
    }
    assert!(
        club.last_about(3, "You are signed up for su")
            .contains("4 players so far")
    );
    // One leaves before the start; a wrong name is refused and says so.
    club.send(2, "leave su\n");
    club.send(4, "join sux\n");
    club.poll();
    assert_eq!(club.tournament("su").players.len(), 4);
    club.confirm(2);
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
    club.send(4, "join su\n");
    club.poll();
    assert!(
        club.last_about(4, "sign-up for su is closed")
            .contains("closed")
    );
    // Nor can one leave what one never joined.
    club.send(4, "leave su\n");
    club.poll();
    let refused = club.last_about(4, "you are not among the players of su");
    assert!(
        refused.contains("Your command `leave su` was not accepted"),
        "{refused}"
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
    play_round(&mut club, "su", &r);
    assert_eq!(club.tournament("su").played.len(), 2, "round 2 begun");
    assert!(!id.is_empty());
}

#[test]
fn a_player_who_loses_on_time_drops_out_and_forfeits_the_rest() {
    let _shared = common::lock::shared();
    let mut club = Club::numbered(4);
    let mut args = vec![
        "tournament",
        "new",
        "tt",
        "--game",
        "mad-rooks",
        "--clock",
        "1d",
        "--drop-after-timeouts",
        "1",
    ];
    let addresses: Vec<String> = (0..4).map(|i| format!("p{i}@example.org")).collect();
    for a in &addresses {
        args.extend(["--player", a.as_str()]);
    }
    let out = club.run(&args);
    assert!(out.contains("round 1 begun: 2 games"), "{out}");
    // Round 1 (Berger for 4: 1-4, 2-3): p0 moves first against p3 and
    // never moves; p2 resigns to p1. Two days on, p0 has lost on time.
    let t = club.tournament("tt");
    assert_eq!(boards(&t, 1), (vec![(0, 3), (1, 2)], None));
    let other = t.played[0].games[1].game.clone().unwrap();
    club.say(2, &other, "resign");
    club.minute += 2 * 24 * 60;
    let log = club.poll();
    assert!(log.contains("lost on time"), "{log}");
    let t = club.tournament("tt");
    assert_eq!(
        t.dropped,
        [0],
        "one loss on time is all this tournament allows"
    );
    assert_eq!(t.timeouts.first(), Some(&1));
    // Round 2 (4-3, 1-2): p0's game against p1 is a forfeit, not played.
    let (games, _) = boards(&t, 2);
    assert_eq!(games, [(3, 2), (0, 1)]);
    assert!(t.played[1].games[1].game.is_none());
    assert_eq!(
        t.played[1].games[1].outcome,
        Some(pbem_league::Outcome::SecondWins)
    );
    play_round(&mut club, "tt", &results(&[((2, 3), Some(3))]));
    // Round 3 (2-4, 3-1): p0's game against p2 a forfeit too; p3 resigns to p1.
    let t = club.tournament("tt");
    assert!(
        t.played[2]
            .games
            .iter()
            .any(|g| g.game.is_none() && g.first == 2 && g.second == 0)
    );
    play_round(&mut club, "tt", &results(&[((1, 3), Some(1))]));
    assert!(club.tournament("tt").over);
    // p1: 3 (one by forfeit); p3: 2; p2: 1 (by forfeit); p0: 0, dropped.
    let table: Vec<(usize, u64)> = standings(&mut club, "tt")
        .iter()
        .map(|&(_, s, p, _)| (s, p / 4))
        .collect();
    assert_eq!(table, [(1, 3), (3, 2), (2, 1), (0, 0)]);
    assert!(
        club.last_about(3, "Tournament tt")
            .contains("p0, 0 points (Sonneborn-Berger 0, 3 played), dropped out")
    );
}

#[test]
fn leaving_a_begun_tournament_takes_the_players_key() {
    let _shared = common::lock::shared();
    let mut club = Club::numbered(4);
    let mut args = vec!["tournament", "new", "lv", "--game", "embed"];
    let addresses: Vec<String> = (0..4).map(|i| format!("p{i}@example.org")).collect();
    for a in &addresses {
        args.extend(["--player", a.as_str()]);
    }
    club.run(&args);
    // From p3's address but without the key (anyone can write that From):
    // nothing changes; p3 is asked whether it was them.
    club.send(3, "leave lv\n");
    club.poll();
    assert!(
        club.last_about(3, "confirm: leave lv?")
            .contains("nothing is done until you confirm from your own mailbox")
    );
    assert!(club.tournament("lv").dropped.is_empty());
    // In a reply in p3's game of the tournament: p3 drops out.
    let t = club.tournament("lv");
    let game = t.played[0]
        .games
        .iter()
        .find(|g| g.first == 3 || g.second == 3)
        .unwrap()
        .game
        .clone()
        .unwrap();
    // In that game's thread, `leave` gives the game up too (a player who
    // drops out resigns all).
    club.say(3, &game, "leave lv");
    assert!(
        club.last_about(3, "You have dropped out of lv")
            .contains("forfeited")
    );
    let t = club.tournament("lv");
    assert_eq!(t.dropped, [3]);
    let board = t.played[0]
        .games
        .iter()
        .find(|g| g.game.as_deref() == Some(game.as_str()))
        .unwrap();
    let p3_lost = if board.first == 3 {
        pbem_league::Outcome::SecondWins
    } else {
        pbem_league::Outcome::FirstWins
    };
    assert_eq!(board.outcome, Some(p3_lost), "p3's game is given up");
    let record = club.record(&game);
    assert!(
        matches!(
            record.lines.last().map(|l| &l.entry),
            Some(pbem::record::Entry::Event(pbem::record::Event::Resign))
        ),
        "the record says how it ended: {:?}",
        record.lines.last()
    );
}
