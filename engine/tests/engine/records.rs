//! Records (docs/src/formats/record.md): the full form round-trips through the writer and
//! the reader for every game; errors name the right line; events end games;
//! `result` is checked against the replay. (That garbage never panics,
//! through `pbem validate`'s checks too, is the root package's
//! `tests/cli/records.rs`.)

use pbem_engine::game::{self, Game, Side};
use pbem_engine::record::{self, Entry, Event, MoveLine, Record, Verdict};
use pbem_engine::rules::Rules;
use pbem_engine::testing::random_record;

fn round_trip<G: Game>() {
    for seed in 0..4 {
        for first in game::first_sides::<G>() {
            let rec = random_record::<G>(seed, first, 300);
            let text = record::write::to_string(&rec);
            let back = Record::parse("t.toml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.rules, rec.rules);
            assert_eq!(back.players, rec.players);
            assert_eq!(back.created, rec.created);
            assert_eq!(back.lines.len(), rec.lines.len());
            for (a, b) in back.lines.iter().zip(&rec.lines) {
                assert_eq!(
                    (&a.entry, a.number, a.side, a.time, &a.message_id),
                    (&b.entry, b.number, b.side, b.time, &b.message_id)
                );
                // Each move is on the line the reader says it is.
                let line = text.lines().nth(a.line - 1).unwrap();
                if let Entry::Move(m) = &a.entry {
                    assert!(line.contains(m.as_str()), "line {}: {line}", a.line);
                }
            }
            let r = record::replay::<G>(&back).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(r.moves.len(), rec.lines.len());
            // Writing what was read gives the same text.
            assert_eq!(record::write::to_string(&back), text);
        }
    }
}

#[test]
fn full_form_round_trips_for_every_game() {
    for rules in Rules::ALL {
        pbem_engine::with_game!(rules, G => round_trip::<G>());
    }
}

const BZ: &str = "\
# comment
rules = \"boom-and-zoom\"
first = \"red\"
result = \"*\"
moves = \"\"\"
58-50
2-10   # black

3. red 50-42
\"\"\"
";

#[test]
fn illegal_move_names_its_line() {
    let bad = BZ.replace("50-42", "50-43x");
    let e = Record::parse("bz.toml", &bad).and_then(|r| {
        record::replay::<pbem_engine::games::boom_and_zoom::BoomAndZoom>(&r).map(|_| ())
    });
    let e = e.unwrap_err();
    assert_eq!(e.line, 9, "{e}");
    let bad = BZ.replace("50-42", "50-10");
    let r = Record::parse("bz.toml", &bad).unwrap();
    let e = record::replay::<pbem_engine::games::boom_and_zoom::BoomAndZoom>(&r).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bz.toml:9: 50-10 is not a legal move for red: a 3-high tower zooms and booms at most 3 squares; 50 to 10 is 5 (see `pbem rules boom-and-zoom`, section Zooming); legal moves from 50: 50-26, 50-29, 50-34, 50-36, 50-41, 50-42, 50-43, 50-49, 50-51, 50-52, 50-53, 50-58"
    );
}

#[test]
fn wrong_side_or_number_names_its_line() {
    type Bz = pbem_engine::games::boom_and_zoom::BoomAndZoom;
    let r = Record::parse("bz.toml", &BZ.replace("3. red", "3. black")).unwrap();
    let e = record::replay::<Bz>(&r).unwrap_err();
    assert_eq!(e.line, 9);
    assert!(
        e.message
            .contains("the line says black but it is red's move 3"),
        "{e}"
    );
    let r = Record::parse("bz.toml", &BZ.replace("3. red", "4. red")).unwrap();
    let e = record::replay::<Bz>(&r).unwrap_err();
    assert_eq!(e.line, 9);
    assert!(e.message.contains("should be 3."), "{e}");
}

#[test]
fn result_must_match_the_replay() {
    type Bz = pbem_engine::games::boom_and_zoom::BoomAndZoom;
    let r = Record::parse("bz.toml", &BZ.replace("result = \"*\"", "result = \"red\"")).unwrap();
    let e = record::replay::<Bz>(&r).unwrap_err();
    assert_eq!(e.line, 4);
    assert!(
        e.message.contains(
            "result = \"red\" but the moves give \"*\" (the game is still in play, black to move)"
        ),
        "{e}"
    );
}

#[test]
fn events_end_the_game_and_nothing_may_follow() {
    type Bz = pbem_engine::games::boom_and_zoom::BoomAndZoom;
    let resign = BZ
        .replace("3. red 50-42\n", "3. red 50-42\nblack resign\n")
        .replace("result = \"*\"", "result = \"red\"");
    let r = Record::parse("bz.toml", &resign).unwrap();
    let done = record::replay::<Bz>(&r).unwrap();
    assert_eq!(done.result(), Verdict::Won(Side::B));
    // Drawn after its last move the board says how it ended; before, not.
    let total = done.moves.len();
    let view = done.view(total, Some(Side::B));
    assert_eq!(view.last.as_ref(), done.moves.last());
    assert_eq!((view.ply, view.seat), (total, Some(Side::B)));
    assert_eq!(
        view.ended.as_ref().map(|e| e.reason.as_str()),
        Some("black resigned")
    );
    let start = done.view(0, None);
    assert!(start.last.is_none() && start.ended.is_none());
    assert_eq!(done.view(1, None).last.as_ref(), done.moves.first());
    assert!(done.view(total - 1, None).ended.is_none());
    assert_eq!(done.end.unwrap().reason, "black resigned");
    let after = resign.replace("black resign\n", "black resign\n10-18\n");
    let e = record::replay::<Bz>(&Record::parse("bz.toml", &after).unwrap()).unwrap_err();
    assert_eq!(e.line, 11);
    assert!(
        e.message
            .contains("comes after the end of the game (red won: black resigned)"),
        "{e}"
    );
    let timeout = BZ
        .replace("3. red 50-42\n", "3. red 50-42\ntimeout\n")
        .replace("result = \"*\"", "result = \"red\"");
    let r = record::replay::<Bz>(&Record::parse("bz.toml", &timeout).unwrap()).unwrap();
    assert_eq!(
        r.end.unwrap().reason,
        "black ran out of time",
        "the side to move times out"
    );
    let draw = BZ
        .replace(
            "3. red 50-42\n",
            "3. red 50-42\nblack draw offered\nred draw agreed\n",
        )
        .replace("result = \"*\"", "result = \"draw\"");
    let r = record::replay::<Bz>(&Record::parse("bz.toml", &draw).unwrap()).unwrap();
    assert_eq!(r.result(), Verdict::Drawn);
    let offered = BZ.replace("3. red 50-42\n", "3. red 50-42\nblack draw offered\n");
    let r = record::replay::<Bz>(&Record::parse("bz.toml", &offered).unwrap()).unwrap();
    assert_eq!(
        (r.result(), r.draw_offer),
        (Verdict::Unfinished, Some(Side::A))
    );
    assert!(matches!(Event::Resign.as_str(), "resign"));
}

#[test]
fn moves_may_sit_at_the_top_level_or_under_play() {
    let a = Record::parse("a.toml", BZ).unwrap();
    let b = Record::parse("b.toml", &BZ.replace("moves = ", "[play]\nmoves = ")).unwrap();
    let entries = |r: &Record| {
        r.lines
            .iter()
            .map(|l| (l.line, l.entry.clone()))
            .collect::<Vec<_>>()
    };
    let shifted: Vec<_> = entries(&a).into_iter().map(|(l, e)| (l + 1, e)).collect();
    assert_eq!(shifted, entries(&b), "one line lower under [play]");
    let both = format!("{BZ}[play]\nmoves = \"\"\"\n58-50\n\"\"\"\n");
    let e = Record::parse("c.toml", &both).unwrap_err();
    assert!(e.message.contains("two move lists"), "{e}");
}

/// Every event keeps the columns of the moves around it (`draw
/// offered` and `draw declined` pushed their time and Message-ID out),
/// and a record with every event reads back as it was written.
#[test]
fn events_line_up_with_the_moves_and_read_back() {
    type Bz = pbem_engine::games::boom_and_zoom::BoomAndZoom;
    let mut rec = random_record::<Bz>(1, Side::B, 6);
    rec.lines.truncate(6);
    let t = rec.lines[5].time;
    let event = |side, e: Event, n: u32| MoveLine {
        line: 0,
        number: None,
        side: Some(side),
        entry: Entry::Event(e),
        time: t,
        message_id: Some(format!("<e{n}@mail.example.org>")),
    };
    // Offered, declined, offered again, agreed: every event word but
    // resign and timeout, which end the game as well.
    rec.lines.push(event(Side::A, Event::DrawOffered, 1));
    rec.lines.push(event(Side::B, Event::DrawDeclined, 2));
    rec.lines.push(event(Side::B, Event::DrawOffered, 3));
    rec.lines.push(event(Side::A, Event::DrawAgreed, 4));
    rec.result = Some((Verdict::Drawn, 0));
    let text = record::write::to_string(&rec);
    let times: Vec<usize> = text.lines().filter_map(|l| l.find("  2026-")).collect();
    assert_eq!(times.len(), 10, "{text}");
    assert!(times.iter().all(|&c| c == times[0]), "one column:\n{text}");
    let back = Record::parse("t.toml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let entries = |r: &Record| {
        r.lines
            .iter()
            .map(|l| (l.entry.clone(), l.side, l.time, l.message_id.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(entries(&back), entries(&rec));
    assert_eq!(
        record::replay::<Bz>(&back).unwrap().result(),
        Verdict::Drawn
    );
    assert_eq!(record::write::to_string(&back), text);
    // Resign and timeout, each the last line of its game, line up too.
    for e in [Event::Resign, Event::Timeout] {
        let mut r = rec.clone();
        r.lines.truncate(6);
        // Side B is to move after six plies from B: it resigns, or its
        // time runs out.
        r.lines.push(event(Side::B, e, 5));
        r.result = Some((Verdict::Won(Side::A), 0));
        let text = record::write::to_string(&r);
        let cols: Vec<usize> = text.lines().filter_map(|l| l.find("  2026-")).collect();
        assert!(cols.iter().all(|&c| c == cols[0]), "{text}");
        let back = Record::parse("t.toml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(entries(&back), entries(&r));
        assert_eq!(
            record::replay::<Bz>(&back).unwrap().result(),
            Verdict::Won(Side::A)
        );
        assert_eq!(Bz::RULES.side_name(Side::A), "black");
    }
}

/// A game played to its end by the rules, then one more line: refused as
/// a line after the end, whatever else is wrong with it.
fn a_line_after_the_rules_end_is_refused_as_such<G: Game>() {
    let first = game::first_sides::<G>()[0];
    let (rec, end) = (0..200)
        .find_map(|seed| {
            let rec = random_record::<G>(seed, first, 400);
            let end = record::replay::<G>(&rec).ok()?.end?;
            Some((rec, end))
        })
        .expect("a random game that ends by the rules");
    let last = rec.lines.last().expect("moves").clone();
    let ply = rec.lines.len() as u32 + 1;
    let mover = last.side.map(|s| s.other());
    for (what, side, entry) in [
        ("a move", mover, "1-2"),
        ("garbage", mover, "no move"),
        ("the wrong side", last.side, "1-2"),
    ] {
        let mut after = rec.clone();
        after.lines.push(record::MoveLine {
            line: last.line + 1,
            number: Some(ply),
            side,
            entry: Entry::Move(entry.into()),
            ..last.clone()
        });
        let e = record::replay::<G>(&after).unwrap_err();
        assert_eq!(e.line, last.line + 1, "{what}: {e}");
        assert!(
            e.message.contains("comes after the end of the game")
                && e.message.contains(&end.reason),
            "{} {what}: {e}",
            G::RULES.name()
        );
    }
}

#[test]
fn a_line_after_the_rules_end_is_refused_as_such_in_every_game() {
    for rules in Rules::ALL {
        pbem_engine::with_game!(rules, G => a_line_after_the_rules_end_is_refused_as_such::<G>());
    }
}

/// `replay_more` carries a replay of a record's first lines through the
/// rest as a whole replay would play them: the same positions, moves,
/// end, offers and takebacks, or the same error at the same line. Over
/// random games of every game with random events (most out of place)
/// put among their moves, split at every line.
fn replay_more_is_a_whole_replay<G: Game>() {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % n
    };
    // Whole replays that went, and that failed, compared.
    let mut compared = [0, 0];
    for (seed, events) in (0..6).zip([0, 1, 2, 3, 6, 6]) {
        for first in game::first_sides::<G>() {
            let mut rec = random_record::<G>(seed, first, 40);
            rec.result = None;
            for _ in 0..events {
                let at = next(rec.lines.len() + 1);
                let side = [None, Some(Side::A), Some(Side::B)][next(3)];
                rec.lines.insert(
                    at,
                    MoveLine {
                        line: 1000 + at,
                        number: None,
                        side,
                        entry: Entry::Event(Event::ALL[next(Event::ALL.len())]),
                        time: None,
                        message_id: None,
                    },
                );
            }
            let whole = record::replay::<G>(&rec);
            for from in 0..=rec.lines.len() {
                let head = Record {
                    lines: rec.lines[..from].to_vec(),
                    ..rec.clone()
                };
                let Ok(mut more) = record::replay::<G>(&head) else {
                    continue;
                };
                let carried = record::replay_more(&mut more, &rec, from).map(|()| more);
                compared[usize::from(whole.is_err())] += 1;
                match (&whole, carried) {
                    (Ok(w), Ok(c)) => assert_eq!(format!("{w:?}"), format!("{c:?}"), "from {from}"),
                    (Err(w), Err(c)) => assert_eq!(w.to_string(), c.to_string(), "from {from}"),
                    (w, c) => panic!("from {from}: {w:?} against {c:?}"),
                }
            }
        }
    }
    assert!(compared.iter().all(|&n| n > 20), "{compared:?}");
}

#[test]
fn a_replay_carried_on_is_a_whole_replay_in_every_game() {
    for rules in Rules::ALL {
        pbem_engine::with_game!(rules, G => replay_more_is_a_whole_replay::<G>());
    }
}
