//! The lines of a text, as [`str::lines`] gives them, found with
//! [`memchr`]: a mail's text and HTML are taken apart line by line
//! several times over, and `str::lines` looks for each line end with a
//! search that costs more than the short line it finds.

/// The lines of `text`, each without its `\n` or `\r\n`; a last line
/// without a line end is a line; none after a last line end. The same
/// lines as [`str::lines`].
pub fn lines(text: &str) -> Lines<'_> {
    Lines { rest: text }
}

/// The iterator of [`lines`].
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    rest: &'a str,
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        // `\n` is never part of a longer character: the cut is on a
        // character's boundary.
        let (line, rest) = match memchr::memchr(b'\n', self.rest.as_bytes()) {
            Some(at) => {
                let (line, rest) = self.rest.split_at(at);
                (line.strip_suffix('\r').unwrap_or(line), &rest[1..])
            }
            None => (self.rest, ""),
        };
        self.rest = rest;
        Some(line)
    }
}

/// The pieces of `text` between the bytes `sep` (an ASCII character),
/// as `text.split(sep as char)` gives them: one search over the whole
/// text, not one a piece.
///
/// # Panics
/// When `sep` is not ASCII (a caller's mistake, never input's).
pub fn pieces(text: &str, sep: u8) -> impl Iterator<Item = &str> {
    assert!(sep.is_ascii(), "a separator of pieces is ASCII");
    let mut start = 0;
    let ends = memchr::memchr_iter(sep, text.as_bytes()).chain([text.len()]);
    ends.map(move |end| {
        // An ASCII byte is never part of a longer character.
        let piece = &text[start..end];
        start = end + 1;
        piece
    })
}

/// `text` in lower case, as [`str::to_lowercase`] makes it; borrowed when
/// it is lower case already and ASCII (most addresses, names and command
/// words), so that the common case makes no string.
pub fn lowercase(text: &str) -> std::borrow::Cow<'_, str> {
    if text
        .bytes()
        .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
    {
        std::borrow::Cow::Borrowed(text)
    } else {
        std::borrow::Cow::Owned(text.to_lowercase())
    }
}

#[cfg(test)]
mod tests {
    use super::{lines, lowercase, pieces};

    /// The same lines as `str::lines`, over hand-picked texts and random
    /// ones made of line ends, carriage returns and a few characters.
    #[test]
    fn the_lines_are_those_of_str_lines() {
        let picked = [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\r",
            "a\rb\n",
            "\r\n",
            "\r\r\n",
            "é\nß\r\n€",
            "a\n\nb\n\n",
        ];
        for t in picked {
            assert_eq!(
                lines(t).collect::<Vec<_>>(),
                t.lines().collect::<Vec<_>>(),
                "{t:?}"
            );
        }
        let alphabet = ['a', ' ', '\n', '\r', 'é', '€', '-'];
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..20_000 {
            let n = rng.usize(0..40);
            let t: String = (0..n)
                .map(|_| alphabet[rng.usize(..alphabet.len())])
                .collect();
            assert_eq!(
                lines(&t).collect::<Vec<_>>(),
                t.lines().collect::<Vec<_>>(),
                "{t:?}"
            );
        }
    }

    /// The same pieces as `str::split` of the character.
    #[test]
    fn the_pieces_are_those_of_str_split() {
        let alphabet = ['a', ' ', '\n', 'é', '€', '-'];
        let mut rng = fastrand::Rng::with_seed(11);
        for n in 0..20_000 {
            let t: String = (0..n % 30)
                .map(|_| alphabet[rng.usize(..alphabet.len())])
                .collect();
            for sep in [b' ', b'\n', b'-'] {
                let want: Vec<&str> = t.split(sep as char).collect();
                assert_eq!(pieces(&t, sep).collect::<Vec<_>>(), want, "{t:?}");
            }
        }
    }

    /// The same text as `str::to_lowercase`, borrowed only when it is
    /// that text already; over random texts of capitals, small letters,
    /// letters whose lower case is longer or another letter's, and marks.
    #[test]
    fn the_lower_case_is_that_of_str_to_lowercase() {
        let alphabet = ['a', 'Z', '@', '+', ' ', 'É', 'é', 'İ', 'Σ', 'ß', '\u{212a}'];
        let mut rng = fastrand::Rng::with_seed(13);
        for n in 0..20_000 {
            let t: String = (0..n % 12)
                .map(|_| alphabet[rng.usize(..alphabet.len())])
                .collect();
            let lower = lowercase(&t);
            assert_eq!(lower, t.to_lowercase(), "{t:?}");
            if let std::borrow::Cow::Borrowed(b) = lower {
                assert!(t.is_ascii() && b == t, "{t:?}");
            }
        }
        assert!(matches!(
            lowercase("player@example.org"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert!(matches!(
            lowercase("Player@example.org"),
            std::borrow::Cow::Owned(_)
        ));
    }
}
