//! Records (engine/src/record): any text read as a record, replayed, written and
//! read again, as pbem does (the writer writes the `result` the replay
//! gave). Invariants: nothing panics; a record that replays is written in
//! a form that reads and replays to the same moves and end, and writing
//! that again gives the same text (the writer's form is a fixed point).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pbem::game::Game;
use pbem::record::{self, Record};

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(rec) = Record::parse("fuzz.toml", src) else {
        return;
    };
    pbem::with_game!(rec.rules, G => check::<G>(&rec));
});

fn check<G: Game>(rec: &Record) {
    let Ok(first) = record::replay::<G>(rec) else {
        return;
    };
    let mut rec = rec.clone();
    rec.result = Some((first.result(), 0));
    let text = record::write::to_string(&rec);
    let again = Record::parse("fuzz.toml", &text)
        .unwrap_or_else(|e| panic!("the written record does not read: {e}\n{text}"));
    let replayed = record::replay::<G>(&again)
        .unwrap_or_else(|e| panic!("the written record does not replay: {e}\n{text}"));
    assert_eq!(first.moves, replayed.moves);
    assert_eq!(first.end, replayed.end);
    assert_eq!(first.draw_offer, replayed.draw_offer);
    assert_eq!(record::write::to_string(&again), text);
}
