//! The memory of what pbem sent an address (src/store/correspondence/):
//! any text read as a slot file, and as the body of a slot of each form.
//! Invariants: nothing panics, and whatever state reads writes to a slot
//! that reads back to the same state.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pbem::store::correspondence::{self, Correspondence};

fn round_trip(state: Correspondence) {
    let slot = state.slot(7).expect("a state writes as a slot");
    assert_eq!(
        correspondence::state_of_slot(&slot),
        Some(state),
        "a slot pbem wrote reads back otherwise:\n{slot}"
    );
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // As a whole file: its head must read, so most inputs stop there.
    if let Some(state) = correspondence::state_of_slot(text) {
        round_trip(state);
    }
    // As the body of a slot of form 2 and of form 1, with a good head.
    for form in ["pbem-sent 2", "pbem-sent 1"] {
        let sum = correspondence::checksum(text.as_bytes());
        let slot = format!("{form} 3 {} {sum:016x}\n{text}", text.len());
        if let Some(state) = correspondence::state_of_slot(&slot) {
            round_trip(state);
        }
    }
});
