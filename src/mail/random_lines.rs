//! Random lines for the tests that hold a hand-written reader against the
//! pattern it replaces, or a quick check against its regex: the same
//! lines from the same seed every run (xorshift), made of pieces the
//! patterns speak of.

/// `count` lines, each of fewer than `most` of `pieces`, picked by a
/// xorshift sequence from `seed` (not 0).
pub(crate) fn random_lines(pieces: &[&str], count: usize, most: u64, seed: u64) -> Vec<String> {
    let mut seed = seed;
    (0..count)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (0..seed % most)
                .map(|i| pieces[(seed >> (i * 9 % 55)) as usize % pieces.len()])
                .collect()
        })
        .collect()
}
