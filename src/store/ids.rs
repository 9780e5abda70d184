//! Names the store gives and checks: game ids, secret tokens, and the
//! hashes that name files and keys.

use super::StoreError;

/// Fills `bytes` from the OS's random source, or, when the OS gives
/// none, from the process's own generator: for names and boundaries that
/// must not meet another's and should not be foreseen (the fallback still
/// keeps them apart, if not unforeseeable), never for a secret (a secret
/// takes the OS's bytes or fails: [`new_token`]).
pub(crate) fn fill_random(bytes: &mut [u8]) {
    if getrandom::fill(bytes).is_err() {
        bytes.iter_mut().for_each(|b| *b = fastrand::u8(..));
    }
}

/// A game id: lower-case letters, digits and dashes, 2-40 characters,
/// starting with a letter or digit. Nothing else can name a file.
pub fn valid_id(id: &str) -> bool {
    (2..=40).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !id.starts_with('-')
}

/// A fresh secret: 12 characters from the OS's random source.
///
/// # Errors
/// When the OS has no randomness to give.
pub fn new_token() -> Result<String, StoreError> {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes).map_err(|source| StoreError::Random { source })?;
    Ok(bytes
        .iter()
        .map(|b| ALPHABET[(*b as usize) % ALPHABET.len()] as char)
        .collect())
}

/// A new game id: `prefix-` and 12 characters (60 bits) from the OS's
/// random source (an id derived from a hash of a Message-ID let
/// a stranger make one collide with a running game's). The caller still
/// checks, under the lock, that nothing has the id ([`Store::id_taken`]).
///
/// # Errors
/// When the OS has no randomness to give.
pub fn new_game_id(prefix: &str) -> Result<String, StoreError> {
    Ok(format!("{prefix}-{}", new_token()?))
}

/// A 64-bit hash of `bytes` at memory speed: four lanes of eight bytes,
/// each a multiply and a shift per word, so that the lanes run side by
/// side where [`stable_hash`] takes a multiply a byte, one after the
/// other. Stable too (what it gives is stored: the sent memory's
/// checksums, the names of Maildir deliveries); not made to stand an
/// adversary who can see what it hashes.
pub fn lane_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mix = |h: u64, word: u64| {
        let h = (h ^ word).wrapping_mul(K);
        h ^ (h >> 32)
    };
    let word = |b: &[u8]| {
        let mut w = [0; 8];
        w[..b.len()].copy_from_slice(b);
        u64::from_le_bytes(w)
    };
    let mut lanes = [K, K ^ 1, K ^ 2, K ^ 3];
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        for (lane, w) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane = mix(*lane, word(w));
        }
    }
    let mut h = mix(K, bytes.len() as u64);
    for lane in lanes {
        h = mix(h, lane);
    }
    for w in blocks.remainder().chunks(8) {
        h = mix(h, word(w));
    }
    h
}

/// FNV-1a: a stable 64-bit hash for keys of mails without a Message-ID
/// and for ids derived from one.
pub fn stable_hash(bytes: &[u8]) -> u64 {
    let mut h = StableHash::new();
    for &b in bytes {
        h.write(b);
    }
    h.finish()
}

/// [`stable_hash`] fed a byte at a time.
#[derive(Clone, Copy)]
pub(crate) struct StableHash(u64);

impl StableHash {
    pub(crate) const fn new() -> StableHash {
        StableHash(0xcbf29ce484222325)
    }

    pub(crate) fn write(&mut self, b: u8) {
        self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100000001b3);
    }

    pub(crate) const fn finish(self) -> u64 {
        self.0
    }
}

/// `n` in `width` decimal digits (its last `width`, zeros in front)
/// pushed onto `out`: the fields of a date as pbem writes it, without the
/// formatting machinery (a mail's `Date`, the sent memory's days).
pub(crate) fn push_digits(out: &mut String, n: u32, width: u32) {
    for at in (0..width).rev() {
        let digit = n / 10u32.pow(at) % 10;
        // A digit: 0 to 9.
        out.push(char::from(b'0' + digit as u8));
    }
}

/// `hash` in 16 lower-case hex digits pushed onto `out`: what
/// `write!(out, "{hash:016x}")` gives, without the formatting machinery
/// (file names and the sent memory's keys, a few hundred a mail).
pub(crate) fn push_hex16(out: &mut String, hash: u64) {
    let hex = hex16(hash);
    // Always so: the digits are ASCII.
    if let Ok(hex) = std::str::from_utf8(&hex) {
        out.push_str(hex);
    }
}

/// `hash` in 16 lower-case hex digits, as bytes.
pub(crate) fn hex16(hash: u64) -> [u8; 16] {
    /// Each byte's two digits.
    static PAIRS: [[u8; 2]; 256] = {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut table = [[0u8; 2]; 256];
        let mut b = 0;
        while b < 256 {
            table[b] = [DIGITS[b >> 4], DIGITS[b & 0xf]];
            b += 1;
        }
        table
    };
    let mut hex = [0u8; 16];
    for (pair, byte) in hex.chunks_exact_mut(2).zip(hash.to_be_bytes()) {
        pair.copy_from_slice(&PAIRS[usize::from(byte)]);
    }
    hex
}

/// The number 16 hex digits (either case) give, as
/// `u64::from_str_radix(text, 16)` reads them when there are exactly 16
/// and nothing else: `None` for any other text.
pub(crate) fn parse_hex16(text: &[u8]) -> Option<u64> {
    /// Each byte's value as a hex digit; 0xff: not one.
    static VALUE: [u8; 256] = {
        let mut table = [0xffu8; 256];
        let mut b = 0;
        while b < 16 {
            table[b"0123456789abcdef"[b] as usize] = b as u8;
            table[b"0123456789ABCDEF"[b] as usize] = b as u8;
            b += 1;
        }
        table
    };
    let digits: &[u8; 16] = text.try_into().ok()?;
    let mut n = 0u64;
    let mut bad = 0u8;
    for &d in digits {
        let v = VALUE[usize::from(d)];
        bad |= v;
        n = (n << 4) | u64::from(v & 0xf);
    }
    // A digit's value is at most 0xf: any other byte sets a high bit.
    (bad & 0xf0 == 0).then_some(n)
}

/// `<hash>.<ext>`, the hash in 16 lower-case hex digits: what
/// `format!("{hash:016x}.{ext}")` gives, without the formatting machinery.
pub(crate) fn hex_name(hash: u64, ext: &str) -> String {
    let mut name = String::with_capacity(17 + ext.len());
    push_hex16(&mut name, hash);
    name.push('.');
    name.push_str(ext);
    name
}

/// 128 bits of a SHA-256 over `parts`, each length-prefixed (so no two
/// lists of parts hash alike), as 32 hex digits: a name for something a
/// stranger must not be able to make collide with another (a mail's key,
/// a challenge's source), where [`stable_hash`] is not enough.
pub fn strong_hash(parts: &[&[u8]]) -> String {
    let mut h = ring::digest::Context::new(&ring::digest::SHA256);
    for p in parts {
        h.update(&(p.len() as u64).to_be_bytes());
        h.update(p);
    }
    let mut hex = String::with_capacity(32);
    for b in &h.finish().as_ref()[..16] {
        let _ = std::fmt::Write::write_fmt(&mut hex, format_args!("{b:02x}"));
    }
    hex
}

/// The hasher of a batch's maps ([`PathMap`]), keyed by the store's own
/// paths (its root joined with names it made: game ids from the OS's
/// random source, hashes of addresses): one multiply for eight bytes,
/// where the standard library's SipHash, which resists keys chosen to
/// collide, took several rounds of mixing for them and 2 % of a poll's
/// instructions. A batch holds a few hundred keys at most, so even keys
/// made to collide cost little.
#[derive(Clone, Copy, Default)]
pub(crate) struct PathHasher(u64);

impl PathHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl std::hash::Hasher for PathHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut word = [0u8; 8];
            word.copy_from_slice(w);
            self.add(u64::from_le_bytes(word));
        }
        let rest = words.remainder();
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        // The length in the last word: `ab` and `ab\0` differ.
        self.add(u64::from_le_bytes(word) ^ ((bytes.len() as u64) << 56));
    }

    fn finish(&self) -> u64 {
        // The table takes its buckets from the low bits, which the last
        // multiply mixed least.
        self.0.rotate_left(26)
    }
}

/// A map keyed by the store's own paths, hashed with [`PathHasher`].
pub(crate) type PathMap<V> =
    std::collections::HashMap<std::ffi::OsString, V, std::hash::BuildHasherDefault<PathHasher>>;

/// A set of the store's own paths, hashed with [`PathHasher`].
pub(crate) type PathSet =
    std::collections::HashSet<std::ffi::OsString, std::hash::BuildHasherDefault<PathHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn the_path_hasher_tells_the_store_paths_apart_and_fills_a_map() {
        let hash = |s: &str| std::hash::BuildHasherDefault::<PathHasher>::default().hash_one(s);
        // Lengths around a word, a byte more or less, zeros at the end.
        let mut keys: Vec<String> = ["", "a", "ab", "ab\0", "abcdefg", "abcdefgh", "abcdefghi"]
            .map(String::from)
            .to_vec();
        for n in 0..2000 {
            keys.push(format!(
                "/data/sent/{}.{}",
                hex_name(stable_hash(&[n as u8, (n >> 8) as u8]), "x"),
                n % 2
            ));
            keys.push(format!("/data/games/tp-{n}.toml"));
        }
        let hashes: std::collections::HashSet<u64> = keys.iter().map(|k| hash(k)).collect();
        assert_eq!(hashes.len(), keys.len(), "no two of these collide");
        // The low bits, where the table's buckets come from, spread too.
        let buckets: std::collections::HashSet<u64> = hashes.iter().map(|h| h & 1023).collect();
        assert!(buckets.len() > 900, "{} of 1024 buckets", buckets.len());
        let mut map: PathMap<usize> = PathMap::default();
        for (i, k) in keys.iter().enumerate() {
            map.insert(k.into(), i);
        }
        assert!(
            keys.iter()
                .enumerate()
                .all(|(i, k)| map[std::ffi::OsStr::new(k)] == i)
        );
    }
}
