//! A quick hasher for pbem's own text.

/// A hasher for maps whose keys are pbem's own text (the memory of which
/// lines read as commands, in the templates): eight bytes a step, where
/// the standard one (made to stand a stranger's keys) took as long as the
/// look-up it serves. Never for keys a stranger chooses.
#[derive(Default, Clone, Copy)]
pub struct Quick;

impl std::hash::BuildHasher for Quick {
    type Hasher = QuickHasher;
    fn build_hasher(&self) -> QuickHasher {
        QuickHasher(0x9e37_79b9_7f4a_7c15)
    }
}

/// See [`Quick`].
pub struct QuickHasher(u64);

impl std::hash::Hasher for QuickHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut mix = |word: u64| {
            self.0 = (self.0 ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            self.0 ^= self.0 >> 29;
        };
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0; 8];
            w.copy_from_slice(c);
            mix(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        let mut w = [0; 8];
        w[..rest.len()].copy_from_slice(rest);
        mix(u64::from_le_bytes(w) ^ ((bytes.len() as u64) << 56));
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn texts_that_differ_hash_apart() {
        // Lengths around the eight-byte steps, and texts that differ in
        // one byte or only in their length (a zero at the end).
        let mut seen = std::collections::HashSet::new();
        assert!(seen.insert(Quick.hash_one(&b""[..])));
        for len in 1..40 {
            for fill in [b'a', b'b', 0] {
                let text = vec![fill; len];
                assert!(seen.insert(Quick.hash_one(&text[..])), "{text:?}");
            }
        }
    }
}
