//! Takebacks in the record (docs/src/formats/record.md, "Takebacks"): the
//! taken-back move keeps its line, a line takes it back, the move after
//! reuses its number; the full form round-trips through the writer and
//! the reader in every game; replay drops the move and refuses a takeback
//! line out of place, naming its line.

use pbem_engine::game::{self, Game, Side};
use pbem_engine::record::{self, Entry, Event, MoveLine, Record, TakenBack};
use pbem_engine::testing::random_record;

/// A record of `G` with no lines yet, the first side moving first.
fn empty<G: Game>(seed: u64) -> Record {
    let first = game::first_sides::<G>()[0];
    let mut rec = random_record::<G>(seed, first, 0);
    rec.lines.clear();
    rec.result = None;
    rec
}

fn replayed<G: Game>(rec: &Record) -> record::Replayed<G> {
    record::replay::<G>(rec).unwrap_or_else(|e| panic!("{e}\n{}", record::write::to_string(rec)))
}

/// The time of line `n`: a minute apart.
fn time(n: usize) -> Option<chrono::DateTime<chrono::FixedOffset>> {
    let t0: chrono::DateTime<chrono::FixedOffset> = "2026-11-20T10:00:00Z".parse().unwrap();
    Some(t0 + chrono::Duration::minutes(n as i64))
}

/// Plays the `pick`th legal move (modulo their number) of the position
/// `rec` leaves, as its next line; its canonical text.
fn push_move<G: Game>(rec: &mut Record, pick: usize) -> String {
    let r = replayed::<G>(rec);
    let pos = r.position();
    let legal = game::listed_moves(pos);
    assert!(!legal.is_empty(), "{}: no legal move", G::RULES.name());
    let (m, _) = legal[pick % legal.len()];
    let text = game::canonical(pos, m);
    let n = rec.lines.len();
    rec.lines.push(MoveLine {
        line: 0,
        number: Some(r.moves.len() as u32 + 1),
        side: Some(pos.turn()),
        entry: Entry::Move(text.clone()),
        time: time(n),
        message_id: Some(format!("<l{n}@mail.example.org>")),
    });
    text
}

fn push_event(rec: &mut Record, side: Side, e: Event) {
    let n = rec.lines.len();
    rec.lines.push(MoveLine {
        line: 0,
        number: None,
        side: Some(side),
        entry: Entry::Event(e),
        time: time(n),
        message_id: Some(format!("<l{n}@mail.example.org>")),
    });
}

/// Three moves and a fourth, which its side asks to take back; a seed
/// whose first moves do not end the game. The record, the fourth move
/// and its side.
fn asked<G: Game>() -> (Record, String, Side) {
    for seed in 0..50 {
        let mut rec = empty::<G>(seed);
        let mut last = String::new();
        for i in 0..4 {
            last = push_move::<G>(&mut rec, seed as usize * 7 + i * 3);
        }
        let r = replayed::<G>(&rec);
        if r.end.is_some() {
            continue;
        }
        let side = r.position().turn().other();
        push_event(&mut rec, side, Event::TakebackAsked);
        return (rec, last, side);
    }
    panic!("{}: no game of four moves in play", G::RULES.name());
}

/// The text of `rec` written, read back and written again: the same
/// text, the same lines, the same replay.
fn round_trip<G: Game>(rec: &Record) -> Record {
    let text = record::write::to_string(rec);
    let back = Record::parse("t.toml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let lines = |r: &Record| {
        r.lines
            .iter()
            .map(|l| (l.entry.clone(), l.side, l.time, l.message_id.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&back), lines(rec), "{text}");
    assert_eq!(record::write::to_string(&back), text);
    // The copy a mail carries replays as the full record.
    let bare = record::write::moves_only(rec);
    let bare = Record::parse("t.toml", &bare).unwrap_or_else(|e| panic!("{e}\n{bare}"));
    let a = replayed::<G>(&back);
    let b = replayed::<G>(&bare);
    assert_eq!(a.moves, b.moves, "{text}");
    assert_eq!(a.taken_back, b.taken_back, "{text}");
    back
}

fn an_accepted_takeback_drops_the_move_and_its_number_is_played_again<G: Game>() {
    let (mut rec, taken, side) = asked::<G>();
    let before = replayed::<G>(&rec);
    assert_eq!(before.takeback, Some(side));
    push_event(&mut rec, side.other(), Event::TakebackAccepted);
    let after = replayed::<G>(&rec);
    assert_eq!(after.moves.len(), 3);
    assert_eq!(
        after.position().turn(),
        side,
        "the turn is back with the asker"
    );
    assert_eq!(after.takeback, None);
    assert_eq!(after.takebacks_asked[side], 1);
    assert_eq!(after.takebacks_asked[side.other()], 0);
    assert_eq!(
        after.taken_back,
        [TakenBack {
            ply: 4,
            side,
            notation: before.moves[3].clone()
        }]
    );
    // Move 4 again (another where there is one), and move 5.
    let again = push_move::<G>(&mut rec, 1);
    let fifth = push_move::<G>(&mut rec, 2);
    let back = round_trip::<G>(&rec);
    let r = replayed::<G>(&back);
    assert_eq!(r.moves.len(), 5);
    let text = record::write::to_string(&rec);
    let numbered: Vec<&str> = text.lines().filter(|l| l.starts_with("4.")).collect();
    assert_eq!(numbered.len(), 2, "{text}");
    assert!(
        numbered[0].contains(&taken) && numbered[1].contains(&again),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("5.") && l.contains(&fifth)),
        "{text}"
    );
    let words = |l: &str| l.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    let asked = format!("{} takeback asked", G::RULES.side_name(side));
    assert!(text.lines().any(|l| words(l) == asked), "{text}");
    // The game as if the move had never been played: the same positions.
    let mut plain = rec.clone();
    plain.lines.drain(3..6);
    let p = replayed::<G>(&plain);
    assert_eq!(p.moves, r.moves);
    assert_eq!(format!("{:?}", p.positions), format!("{:?}", r.positions));
    assert_eq!(record::plies(&rec.lines), 5);
}

fn a_declined_takeback_leaves_the_move<G: Game>() {
    let (mut rec, _, side) = asked::<G>();
    push_event(&mut rec, side.other(), Event::TakebackDeclined);
    let r = replayed::<G>(&round_trip::<G>(&rec));
    assert_eq!((r.moves.len(), r.takeback), (4, None));
    assert_eq!(r.position().turn(), side.other());
    assert!(r.taken_back.is_empty());
    assert_eq!(r.takebacks_asked[side], 1);
    // The opponent moves on.
    push_move::<G>(&mut rec, 0);
    assert_eq!(replayed::<G>(&rec).moves.len(), 5);
}

fn a_move_answers_a_takeback_asked<G: Game>() {
    let (mut rec, _, side) = asked::<G>();
    push_move::<G>(&mut rec, 0);
    let r = replayed::<G>(&round_trip::<G>(&rec));
    assert_eq!((r.moves.len(), r.takeback), (5, None));
    // Too late to accept it now.
    let mut late = rec.clone();
    push_event(&mut late, side.other(), Event::TakebackAccepted);
    let e = record::replay::<G>(&late).unwrap_err();
    assert!(e.message.contains("no takeback was asked"), "{e}");
    // The opponent, who moved last now, may ask in turn.
    push_event(&mut rec, side.other(), Event::TakebackAsked);
    let r = replayed::<G>(&rec);
    assert_eq!(r.takeback, Some(side.other()));
    assert_eq!(r.takebacks_asked.0, [1, 1]);
}

pbem_engine::game_tests!(_, G => {
    an_accepted_takeback_drops_the_move_and_its_number_is_played_again::<G>();
    a_declined_takeback_leaves_the_move::<G>();
    a_move_answers_a_takeback_asked::<G>();
});

type Bz = pbem_engine::games::boom_and_zoom::BoomAndZoom;

const BZ: &str = "\
rules = \"boom-and-zoom\"
first = \"black\"
moves = \"\"\"
1. black 6-13
2. red 61-34
";

/// The error of replaying `BZ` and then `lines`.
fn error_of(lines: &str) -> record::RecordError {
    let text = format!("{BZ}{lines}\"\"\"\n");
    let rec = Record::parse("bz.toml", &text).unwrap_or_else(|e| panic!("{e}"));
    record::replay::<Bz>(&rec).expect_err(lines)
}

#[test]
fn a_takeback_line_out_of_place_is_refused_naming_its_line() {
    let e = error_of("black takeback asked\n");
    assert_eq!(e.line, 6, "{e}");
    assert_eq!(
        e.message,
        "`black takeback asked`: the last move (2. 61-34) is red's; a side takes back only its own move"
    );
    let e = error_of("black takeback accepted\n");
    assert_eq!(
        (e.line, e.message.as_str()),
        (
            6,
            "`black takeback accepted`: no takeback was asked (a line `red takeback asked` comes first)"
        )
    );
    let e = error_of("red takeback asked\nred takeback declined\n");
    assert_eq!(e.line, 7, "{e}");
    assert!(
        e.message
            .contains("red asked for this takeback; only the opponent answers it"),
        "{e}"
    );
    let e = error_of("red takeback asked\nred takeback asked\n");
    assert_eq!(e.line, 7, "{e}");
    assert!(e.message.contains("red asked already"), "{e}");
    let text = "rules = \"boom-and-zoom\"\nfirst = \"black\"\nmoves = \"\"\"\nblack takeback asked\n\"\"\"\n";
    let e = record::replay::<Bz>(&Record::parse("bz.toml", text).unwrap()).unwrap_err();
    assert_eq!(e.line, 4, "{e}");
    assert!(
        e.message.contains("no move has been played to take back"),
        "{e}"
    );
    // After the taken-back move the number is that move's again.
    let e = error_of("red takeback asked\nblack takeback accepted\n3. red 58-50\n");
    assert_eq!(e.line, 8, "{e}");
    assert!(e.message.contains("should be 2."), "{e}");
}

/// Without sides, the lines read as pbem would have written them: the
/// request is the last mover's, the answer the side to move's.
#[test]
fn takeback_lines_without_sides_take_the_sides_they_must_have() {
    let text = format!("{BZ}takeback asked\ntakeback accepted\n2. 58-50\n\"\"\"\n");
    let r = record::replay::<Bz>(&Record::parse("bz.toml", &text).unwrap()).unwrap();
    assert_eq!(r.moves.len(), 2);
    assert_eq!(r.taken_back[0].side, Side::B);
    assert_eq!(r.takebacks_asked.0, [0, 1]);
    // The reader's other forms.
    let text = format!("{BZ}red asks takeback\nblack takeback agreed\n\"\"\"\n");
    let r = record::replay::<Bz>(&Record::parse("bz.toml", &text).unwrap()).unwrap();
    assert_eq!(r.moves.len(), 1);
}

/// A takeback accepted takes a draw offer about the move's position with
/// it; a move that ended the game is not taken back.
#[test]
fn a_takeback_ends_a_draw_offer_and_never_follows_the_end() {
    let text =
        format!("{BZ}red draw offered\nred takeback asked\nblack takeback accepted\n\"\"\"\n");
    let r = record::replay::<Bz>(&Record::parse("bz.toml", &text).unwrap()).unwrap();
    assert_eq!((r.draw_offer, r.moves.len()), (None, 1));
    let text = format!("{BZ}black resign\nred takeback asked\n\"\"\"\n")
        .replace("first = \"black\"", "first = \"black\"\nresult = \"red\"");
    let e = record::replay::<Bz>(&Record::parse("bz.toml", &text).unwrap()).unwrap_err();
    assert!(e.message.contains("comes after the end of the game"), "{e}");
}
