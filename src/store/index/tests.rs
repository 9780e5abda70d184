//! Tests of the indexes: they read back what was written, never take a
//! summary of a file that changed, and meet garbage with a clear error,
//! never a panic.

use super::*;
use crate::game::Side;
use crate::record::Verdict;
use crate::rules::Rules;
use crate::store::GameClock;
use crate::timecontrol::ClockState;

/// A Boom & Zoom record, its result and move lines as given.
fn record(id: &str, result: &str, lines: &str) -> String {
    format!(
        "rules = \"boom-and-zoom\"\nid = \"{id}\"\nfirst = \"red\"\nresult = \"{result}\"\n\n\
         [players]\nblack = \"Ann <ann@example.org>\"\nred = \"bob@example.org\"\n\n\
         [play]\nmoves = \"\"\"\n{lines}\"\"\"\n"
    )
}

const ONE_MOVE: &str = "1. red 58-50 2026-11-19T10:00:00Z\n";
const RESIGNED: &str = "1. red 58-50 2026-11-19T10:00:00Z\nblack resign 2026-11-19T11:00:00Z\n";

fn clock() -> GameClock {
    GameClock {
        lines: 1,
        state: ClockState::new(
            "3d".parse().unwrap(),
            Side::A,
            "2026-11-19T10:00:00Z".parse().unwrap(),
        ),
    }
}

fn listing<T: Summary>(s: &Store) -> Listing<T> {
    s.summaries::<T>(Refresh::Stale, &mut |_, _| {}).unwrap()
}

fn games(s: &Store) -> Vec<(String, GameSummary)> {
    listing::<GameSummary>(s).items
}

fn index_text(s: &Store, folder: &str) -> String {
    fs::read_to_string(s.index_path(folder)).unwrap()
}

/// An index of games that holds one of each kind of summary.
fn sample() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    s.write_game("bz-play", &record("bz-play", "*", ONE_MOVE))
        .unwrap();
    s.write_game("bz-over", &record("bz-over", "red", RESIGNED))
        .unwrap();
    s.write_game("bz-bad", "rules = \"nothing\"\n").unwrap();
    s.write_clock("bz-play", &clock(), &Default::default())
        .unwrap();
    (dir, s)
}

#[test]
fn an_index_reads_back_every_summary_as_written() {
    let (_dir, s) = sample();
    let got = games(&s);
    let ids: Vec<&str> = got.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["bz-bad", "bz-over", "bz-play"]);
    let GameSummary::Game(over) = &got[1].1 else {
        panic!("{got:?}")
    };
    assert_eq!(
        (over.rules, over.first, over.moves, over.result),
        (Rules::BoomAndZoom, Side::B, 1, Verdict::Won(Side::B))
    );
    assert_eq!(over.named_players()["black"], "Ann <ann@example.org>");
    assert!(matches!(&got[0].1, GameSummary::Damaged(e) if e.contains("bz-bad.toml")));
    // Every line parses back to what was written: the index, read alone,
    // holds the three summaries the listing gave.
    let path = s.index_path("games").display().to_string();
    let text = index_text(&s, "games");
    let index = parse::<GameSummary>(&path, text.as_bytes())
        .unwrap()
        .unwrap();
    assert!(index.problems.is_empty() && index.current);
    for (id, summary) in &got {
        let e = index.entries.iter().find(|e| e.0 == *id).unwrap();
        assert_eq!(&e.1.1, summary, "{id}");
    }
    let clocks = listing::<ClockSummary>(&s);
    assert_eq!(clocks.read, 0, "the clock's write put it in its index");
    assert_eq!(
        clocks.items,
        [("bz-play".to_string(), ClockSummary::Clock(clock()))]
    );
}

#[test]
fn the_summaries_pbem_writes_are_taken_without_reading_the_records() {
    let (_dir, s) = sample();
    assert_eq!(listing::<GameSummary>(&s).read, 0);
    // A batch's summaries too, once it is synced.
    let b = s.batch().unwrap();
    b.write_game("bz-new", &record("bz-new", "*", ONE_MOVE))
        .unwrap();
    b.remove_file(&s.game_path("bz-bad").unwrap()).unwrap();
    b.sync().unwrap();
    let l = listing::<GameSummary>(&s);
    assert_eq!(l.read, 0);
    let ids: Vec<&str> = l.items.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["bz-new", "bz-over", "bz-play"]);
}

/// A record written from one in hand goes into the index with what it
/// says of its game, as reading its text gives; a later write of plain
/// text to the same file in the batch drops what was known of the first.
#[test]
fn a_summary_known_as_a_record_is_written_is_the_one_its_text_gives() {
    let (_dir, s) = sample();
    let text = record("bz-known", "red", RESIGNED);
    let rec = crate::store::parse_record("bz-known", &text).unwrap();
    let known = GameFacts::of_written(&rec).unwrap();
    let b = s.batch().unwrap();
    b.write_game_known("bz-known", &text, Some(known.clone()))
        .unwrap();
    // Known, then overwritten with a text that says otherwise: the
    // index must say what the file does.
    b.write_game_known("bz-later", &text, Some(known.clone()))
        .unwrap();
    b.write_game("bz-later", &record("bz-later", "*", ONE_MOVE))
        .unwrap();
    b.sync().unwrap();
    let got = games(&s);
    let summary = |id: &str| got.iter().find(|(i, _)| i == id).unwrap().1.clone();
    assert_eq!(summary("bz-known"), GameSummary::Game(known));
    assert_eq!(
        summary("bz-known"),
        GameSummary::of_written("bz-known", &text)
    );
    let GameSummary::Game(later) = summary("bz-later") else {
        panic!("{got:?}")
    };
    assert_eq!((later.moves, later.result), (1, Verdict::Unfinished));
    // Read again from the files, the index agrees.
    let rebuilt = s
        .summaries::<GameSummary>(Refresh::All, &mut |_, _| {})
        .unwrap();
    assert_eq!(rebuilt.items, got);
}

#[test]
fn a_record_changed_behind_the_index_is_read_again_and_the_index_mended() {
    let (dir, s) = sample();
    let path = dir.path().join("games/bz-play.toml");
    // Edited in place, by hand: the game is over now.
    fs::write(&path, record("bz-play", "red", RESIGNED)).unwrap();
    let l = listing::<GameSummary>(&s);
    assert_eq!(l.read, 1);
    let play = &l.items.iter().find(|(id, _)| id == "bz-play").unwrap().1;
    assert!(matches!(play, GameSummary::Game(f) if f.result == Verdict::Won(Side::B)));
    assert_eq!(listing::<GameSummary>(&s).read, 0, "mended");
    // A record that no longer replays, and one no longer there.
    fs::write(&path, record("bz-play", "black", ONE_MOVE)).unwrap();
    fs::remove_file(dir.path().join("games/bz-over.toml")).unwrap();
    let got = games(&s);
    assert_eq!(got.len(), 2);
    assert!(matches!(&got[1].1, GameSummary::Damaged(e) if e.contains("result")));
}

#[test]
fn a_summary_lost_by_a_crash_leaves_its_record_to_be_read() {
    let (_dir, s) = sample();
    let before = index_text(&s, "games");
    s.write_game("bz-play", &record("bz-play", "red", RESIGNED))
        .unwrap();
    // The record renamed into place, the append lost (or cut short).
    let after = index_text(&s, "games");
    let torn = &after[..before.len() + (after.len() - before.len()) / 2];
    for text in [before.as_str(), torn] {
        fs::write(s.index_path("games"), text).unwrap();
        let l = listing::<GameSummary>(&s);
        assert_eq!(l.read, 1);
        assert!(l.problems.is_empty(), "a torn last line is no damage");
        let play = &l.items.iter().find(|(id, _)| id == "bz-play").unwrap().1;
        assert!(matches!(play, GameSummary::Game(f) if f.result.is_over()));
    }
}

#[test]
fn an_index_of_another_pbem_is_not_taken() {
    let (_dir, s) = sample();
    let text = index_text(&s, "games").replacen(VERSION, "0.0.0-other", 1);
    fs::write(s.index_path("games"), text).unwrap();
    let l = listing::<GameSummary>(&s);
    assert_eq!((l.read, l.problems.len()), (3, 0));
    assert!(index_text(&s, "games").contains(VERSION), "written anew");
}

/// `text` with a few bytes changed, cut, or put in, as `rng` draws.
fn mangle(rng: &mut fastrand::Rng, text: &str) -> Vec<u8> {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..rng.usize(1..4) {
        if b.is_empty() {
            break;
        }
        let at = rng.usize(..b.len());
        match rng.u8(..4) {
            0 => b[at] = rng.u8(..),
            1 => b.truncate(at),
            2 => b.insert(at, rng.u8(..)),
            _ => drop(b.drain(at..(at + rng.usize(1..40)).min(b.len()))),
        }
    }
    b
}

#[test]
fn garbage_in_an_index_is_a_clear_error_and_never_a_panic_nor_a_wrong_summary() {
    let (_dir, s) = sample();
    let text = index_text(&s, "games");
    let path = "DATA/index/games.idx";
    let good = parse::<GameSummary>(path, text.as_bytes())
        .unwrap()
        .unwrap()
        .entries;
    let mut rng = fastrand::Rng::with_seed(30);
    let mut errors = 0;
    for _ in 0..3000 {
        let bytes = mangle(&mut rng, &text);
        let t = String::from_utf8_lossy(&bytes);
        match parse::<GameSummary>(path, &bytes[..]).unwrap() {
            // What is taken is what was written; what is not is named.
            Ok(index) => {
                for e in &index.entries {
                    assert!(good.contains(e), "{t}");
                }
                for p in &index.problems {
                    assert!(
                        p.to_string().starts_with("DATA/index/games.idx: line "),
                        "{p}"
                    );
                }
            }
            Err(e) => {
                errors += 1;
                let words = e.to_string();
                assert!(words.contains("not a pbem index"), "{words}");
                assert!(words.contains("writes the index again"), "{words}");
            }
        }
    }
    assert!(errors > 0, "some mangled headers");
    for junk in [
        "\u{0}\u{1}\u{2}",
        "hello\nworld\n",
        "pbem-index 1 games\n",
        "{}\n",
    ] {
        let read = parse::<GameSummary>(path, junk.as_bytes()).unwrap();
        assert!(read.is_err(), "{junk:?}");
    }
}

#[test]
fn a_damaged_index_is_rebuilt_from_the_records() {
    let (_dir, s) = sample();
    let want = games(&s);
    let text = index_text(&s, "games");
    let second = text.lines().nth(2).unwrap();
    for junk in [
        "garbage, not an index\n".to_string(),
        text.replacen(second, &second.replace("bz-", "bz+"), 1),
    ] {
        fs::write(s.index_path("games"), &junk).unwrap();
        let l = listing::<GameSummary>(&s);
        assert_eq!(l.items, want);
        assert_eq!(l.problems.len(), 1, "{:?}", l.problems);
        let again = listing::<GameSummary>(&s);
        assert_eq!((again.read, again.problems.len()), (0, 0), "rebuilt");
    }
}

#[test]
fn an_index_that_grew_is_rewritten_one_line_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let ids: Vec<String> = (0..600).map(|i| format!("bz-{i:04}")).collect();
    let mut sizes = Vec::new();
    for result in ["*", "red", "*", "red", "*"] {
        let b = s.batch().unwrap();
        for id in &ids {
            let lines = if result == "*" { ONE_MOVE } else { RESIGNED };
            b.write_game(id, &record(id, result, lines)).unwrap();
        }
        b.sync().unwrap();
        sizes.push(index_text(&s, "games").len());
    }
    // Written anew once it passed twice its size and the slack.
    let first = sizes[0] as u64;
    assert!(
        sizes.iter().all(|&n| n as u64 <= 2 * first + SLACK + first),
        "{sizes:?}"
    );
    assert!(sizes.windows(2).any(|w| w[1] < w[0]), "{sizes:?}");
    let l = listing::<GameSummary>(&s);
    assert_eq!((l.read, l.items.len()), (0, 600));
}

/// `n` clocks written by hand (no index knows them), each its own.
fn clocks_by_hand(s: &Store, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let id = format!("bz-{i:05}");
            let mut c = clock();
            c.lines = i;
            fs::write(
                s.root().join("clocks").join(format!("{id}.toml")),
                toml::to_string(&c).unwrap(),
            )
            .unwrap();
            id
        })
        .collect()
}

#[test]
fn a_scan_hands_on_every_file_once_and_keeps_none() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    // More new lines than are kept in memory: they go through a file.
    let ids = clocks_by_hand(&s, 3000);
    for round in 0..2 {
        let (seen, scanned) = clock_lines(|each| {
            s.scan_summaries::<ClockSummary>(Refresh::Stale, &mut |_, _| {}, each)
        });
        let want: Vec<(String, usize)> = ids.iter().cloned().zip(0..).collect();
        assert_eq!(seen, want, "round {round}");
        // The first scan read every clock and wrote the index; the
        // second takes them all from it.
        let read = if round == 0 { ids.len() } else { 0 };
        assert_eq!((scanned.read, scanned.problems.len()), (read, 0));
    }
    // What `each` fails with stops the scan.
    let err = s.scan_summaries::<ClockSummary>(Refresh::Stale, &mut |_, _| {}, &mut |id, _| {
        Err(StoreError::BadId { id: id.to_string() })
    });
    assert!(matches!(err, Err(StoreError::BadId { .. })));
}

#[test]
fn a_line_whose_file_changed_since_is_not_taken_however_late() {
    let (dir, s) = sample();
    let play = dir.path().join("games/bz-play.toml");
    // The index vouches for bz-play; its line copied to the end, then the
    // file edited by hand: neither line holds.
    let text = index_text(&s, "games");
    let line = text.lines().find(|l| l.contains("bz-play")).unwrap();
    fs::write(s.index_path("games"), format!("{text}{line}\n")).unwrap();
    fs::write(&play, record("bz-play", "red", RESIGNED)).unwrap();
    let l = listing::<GameSummary>(&s);
    assert_eq!(l.read, 1);
    let got = &l.items.iter().find(|(id, _)| id == "bz-play").unwrap().1;
    assert!(matches!(got, GameSummary::Game(f) if f.result.is_over()));
}

#[test]
fn files_read_on_many_threads_come_back_in_the_order_asked() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let games = s.root().join("games");
    // Records found, not written by pbem: each read and replayed. Every
    // seventh does not read; one asked for is not there at all.
    let ids: Vec<String> = (0..200).map(|i| format!("bz-{i:03}")).collect();
    for (i, id) in ids.iter().enumerate() {
        let text = if i % 7 == 3 {
            "rules = \"nothing\"\n".to_string()
        } else {
            record(id, "*", ONE_MOVE)
        };
        fs::write(games.join(format!("{id}.toml")), text).unwrap();
    }
    let mut asked: Vec<(usize, &str)> = ids.iter().map(String::as_str).enumerate().collect();
    asked.insert(50, (999, "bz-gone"));
    let seen = |threads| -> Vec<String> {
        super::scan::read_round::<GameSummary>(&games, &asked, threads)
            .into_iter()
            .map(|r| match r.unwrap() {
                Some((line, (_, summary))) => format!("{line} {summary:?}"),
                None => "none".to_string(),
            })
            .collect()
    };
    let alone = seen(1);
    assert_eq!(alone.len(), asked.len());
    assert_eq!(alone[50], "none");
    assert!(alone[3].contains("Damaged"), "{}", alone[3]);
    assert!(
        alone[1].contains("bz-001") && alone[1].contains("moves: 1"),
        "{}",
        alone[1]
    );
    for threads in [2, 3, 8] {
        assert_eq!(seen(threads), alone, "{threads} threads");
    }
}

/// What a scan of the clocks in parts of about `most` hands on, sorted:
/// each id with its clock's lines.
fn clocks_in_parts(s: &Store, most: usize) -> (Vec<(String, usize)>, Scanned) {
    clock_lines(|each| s.scan_in_parts_of::<ClockSummary>(most, each))
}

/// Each clock `scan` hands on, by id, with its lines; and what it found.
fn clock_lines(
    scan: impl FnOnce(
        &mut dyn FnMut(&str, ClockSummary) -> Result<(), StoreError>,
    ) -> Result<Scanned, StoreError>,
) -> (Vec<(String, usize)>, Scanned) {
    let mut seen = Vec::new();
    let scanned = scan(&mut |id, c| {
        let ClockSummary::Clock(c) = c else {
            panic!("{id}: {c:?}")
        };
        seen.push((id.to_string(), c.lines));
        Ok(())
    })
    .unwrap();
    seen.sort();
    (seen, scanned)
}

/// The clock `id` written by hand with `lines`.
fn clock_by_hand(s: &Store, id: &str, lines: usize) {
    let mut c = clock();
    c.lines = lines;
    let p = s.root().join("clocks").join(format!("{id}.toml"));
    fs::write(p, toml::to_string(&c).unwrap()).unwrap();
}

/// `line` (an index line) with its JSON's keys in another order, and its
/// checksum made again: a line a reader takes, whose id cannot be seen
/// without parsing it.
fn reordered(line: &str) -> String {
    let (_, json) = line.split_once(' ').unwrap();
    let mut value: serde_json::Value = serde_json::from_str(json).unwrap();
    let id = value["id"].take();
    value.as_object_mut().unwrap().remove("id");
    let json = value.to_string();
    let json = format!("{},\"id\":{id}}}", json.strip_suffix('}').unwrap());
    format!("{:016x} {json}", stable_hash(json.as_bytes()))
}

#[test]
fn a_scan_in_parts_hands_on_what_a_whole_scan_does_and_mends_the_index_alike() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let ids = clocks_by_hand(&s, 300);
    let mut want: Vec<(String, usize)> = ids.iter().cloned().zip(0..).collect();
    // No index yet: the folder is read whole and its index written.
    let (seen, scanned) = clocks_in_parts(&s, 7);
    assert_eq!((seen == want, scanned.read), (true, 300));
    // All in the index: nothing read, a part at a time.
    let (seen, scanned) = clocks_in_parts(&s, 7);
    assert_eq!(
        (seen == want, scanned.read, scanned.problems.len()),
        (true, 0, 0)
    );

    // Behind the index: a clock edited, one added, one removed.
    clock_by_hand(&s, "bz-00005", 1000);
    want[5].1 = 1000;
    clock_by_hand(&s, "bz-new", 7);
    want.push(("bz-new".to_string(), 7));
    fs::remove_file(s.root().join("clocks/bz-00010.toml")).unwrap();
    want.retain(|(id, _)| id != "bz-00010");
    // In the index: a line's checksum broken, a line garbled at its
    // start, and two lines written otherwise (their id seen only once
    // parsed, so with the first part: 300 files in parts of 7 make 43),
    // one of a file of the first part and one of another.
    let first = |id: &String| stable_hash(id.as_bytes()).is_multiple_of(43);
    let inside = ids.iter().find(|id| first(id)).unwrap();
    let outside = ids[40..].iter().find(|id| !first(id)).unwrap();
    let text = index_text(&s, "clocks");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for l in &mut lines[1..] {
        let id = |n: &str| l.contains(&format!("\"{n}\""));
        if id("bz-00020") {
            *l = l.replacen('0', "1", 1);
        } else if id("bz-00021") {
            *l = format!("junk{l}");
        } else if id(inside) || id(outside) {
            *l = reordered(l);
        }
    }
    fs::write(s.index_path("clocks"), lines.join("\n") + "\n").unwrap();
    let (seen, scanned) = clocks_in_parts(&s, 7);
    assert_eq!(seen, want);
    // Read: the edited, the added, the two of the damaged lines, and the
    // file of the line written otherwise outside the first part.
    assert_eq!(scanned.read, 5);
    assert_eq!(
        scanned.problems.len(),
        2,
        "each bad line once: {:?}",
        scanned.problems
    );
    // The index was written anew: nothing is read again, in parts or whole.
    let (seen, scanned) = clocks_in_parts(&s, 7);
    assert_eq!(
        (seen == want, scanned.read, scanned.problems.len()),
        (true, 0, 0)
    );
    let l = listing::<ClockSummary>(&s);
    assert_eq!(
        (l.read, l.problems.len(), l.items.len()),
        (0, 0, want.len())
    );
    assert_eq!(index_text(&s, "clocks").lines().count(), want.len() + 1);
}

#[test]
fn an_index_written_anew_in_parts_keeps_one_line_a_file_the_newest_first() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let ids = clocks_by_hand(&s, 100);
    clocks_in_parts(&s, 1000);
    // Lines of files changed since, as a poll appends them: the new ones.
    clock_by_hand(&s, &ids[3], 333);
    let stamp = Stamp::of(&fs::metadata(s.root().join(format!("clocks/{}.toml", ids[3]))).unwrap());
    let mut c = clock();
    c.lines = 333;
    let new = line(&ids[3], Some(&(stamp, ClockSummary::Clock(c)))).unwrap();
    let path = s.index_path("clocks");
    let mut body = scan::Body::of_text(&new, &s.root().join("tmp"));
    s.rewrite_index::<ClockSummary>(&path, Some(&mut body), true, 9)
        .unwrap();
    let text = index_text(&s, "clocks");
    assert_eq!(text.lines().count(), 101, "{text}");
    let l = listing::<ClockSummary>(&s);
    assert_eq!((l.read, l.problems.len(), l.items.len()), (0, 0, 100));
    assert!(matches!(&l.items[3].1, ClockSummary::Clock(c) if c.lines == 333));
}
