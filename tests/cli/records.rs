//! Records (docs/src/formats/record.md) through the server's checks: garbage never
//! panics, in the reader or in `pbem validate`'s checks. The record
//! format itself is tested by the engine's tests
//! (`engine/tests/engine/records.rs`).

use pbem::game::Side;
use pbem::record::{self, Record};
use pbem_engine::testing::random_record;

#[test]
fn garbage_never_panics() {
    // Every prefix and many byte flips of a real record: an error or a
    // record, never a panic.
    let rec = random_record::<pbem::games::boom_and_zoom::BoomAndZoom>(1, Side::A, 60);
    let text = record::write::to_string(&rec);
    let mut rng = fastrand::Rng::with_seed(7);
    let mut errors = 0;
    for cut in (0..text.len()).step_by(7) {
        if text.is_char_boundary(cut) && Record::parse("x", &text[..cut]).is_err() {
            errors += 1;
        }
    }
    for _ in 0..3000 {
        let mut bytes = text.clone().into_bytes();
        for _ in 0..rng.usize(1..4) {
            let i = rng.usize(..bytes.len());
            bytes[i] = *b"0123456789-x/.#\n\"\\ abcOFF<>"
                .get(rng.usize(..27))
                .unwrap();
        }
        if let Ok(s) = String::from_utf8(bytes)
            && let Ok(r) = Record::parse("x", &s)
        {
            let _ = pbem::cli::validate_record(&r);
        }
    }
    assert!(errors > 10);
}
