//! The outbox's pack (src/outbox/pack.rs): any bytes read as
//! a pack, and any list of mails written as one and read back.
//! Invariants: nothing panics; what a pack gives back (the entries before
//! any damage) writes to a pack that reads back to the same entries with
//! no damage; and the input cut into mails (at each 0xff byte, numbered
//! in turn; every other one with an envelope) is read back from its pack
//! exactly.
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
});
