//! The outbox's pack (src/outbox/pack.rs): any bytes read as
//! a pack, and any list of mails written as one and read back.
//! Invariants: nothing panics; what a pack gives back (the entries before
//! any damage) writes to a pack that reads back to the same entries with
//! no damage; the input cut into mails (at each 0xff byte, numbered in
//! turn; every other one with an envelope) is read back from its pack
//! exactly; and that pack, in small chunks, with one byte changed (where
//! and how the input's first bytes say: inside a packed chunk, most
//! often), gives back at most the mails, in order, each one whole.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pbem::outbox::pack::{self, Entry, Id};

fuzz_target!(|data: &[u8]| {
    let (entries, _damage) = pack::decode(data);
    let (again, damage) = pack::decode(&pack::encode(&entries));
    assert_eq!(damage, None, "a pack pbem wrote does not read");
    assert_eq!(again, entries, "the entries changed on the way");

    let envelope = pbem::transport::envelope_of(
        b"From: pbem@example.net\r\nTo: o'hara+x%y@example.org\r\n\r\n",
    )
    .unwrap();
    let mails: Vec<Entry> = data
        .split(|b| *b == 0xff)
        .enumerate()
        .map(|(i, raw)| Entry {
            id: Id { idx: i / 4, n: i % 4 },
            envelope: (i % 2 == 0).then(|| envelope.clone()),
            raw: raw.to_vec(),
        })
        .collect();
    let (back, damage) = pack::decode(&pack::encode(&mails));
    assert_eq!(damage, None, "a pack pbem wrote does not read");
    assert_eq!(back, mails, "the mails changed on the way");

    let whole = pack::encode_in_chunks(&mails, 64);
    if let [a, b, c, ..] = data {
        let at = usize::from(u16::from_le_bytes([*a, *b])) % whole.len();
        let mut changed = whole.clone();
        changed[at] ^= c | 1;
        let (back, _damage) = pack::decode(&changed);
        // The chunks before the changed byte's read as they were.
        if let Some(before) = chunk_start(&whole, at) {
            let (kept, damage) = pack::decode(&whole[..before]);
            assert_eq!(damage, None, "a pack cut between chunks does not read");
            assert!(back.starts_with(&kept), "a change at {at} changed the chunks before it");
        }
    }
});

/// Where the chunk holding byte `at` of `pack` (one pbem wrote) starts:
/// after the header line, or after the chunk before it; `None` when `at`
/// is in the header line.
fn chunk_start(pack: &[u8], at: usize) -> Option<usize> {
    let mut start = pack.iter().position(|&b| b == b'\n').unwrap() + 1;
    if at < start {
        return None;
    }
    while start <= at && start < pack.len() {
        let end = start + pack[start..].iter().position(|&b| b == b'\n').unwrap();
        let line = std::str::from_utf8(&pack[start..end]).unwrap();
        let packed: usize = line.split_once(' ').unwrap().1.parse().unwrap();
        let next = end + 1 + packed + 1;
        if next > at {
            break;
        }
        start = next;
    }
    Some(start)
}
