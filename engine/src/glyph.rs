//! The characters a player types, read the same way wherever pbem reads
//! them: in mail, in records (`pbem validate`, `pbem moves`, `pbem show`)
//! and on the command line (`pbem move`). Below both [`crate::notation`]
//! and [`crate::mail`], so that a character is either read everywhere or
//! refused everywhere, in the same words (fullwidth digits were
//! read in mail and refused by `pbem validate`, and a Cyrillic `х` was
//! explained in mail but only "unexpected" there).

/// What a typed character is before anything else reads it: `None` for
/// one that shows nothing (zero-width characters, BOMs, soft hyphens,
/// bidirectional marks, which can make `12-31` show as `13-21`),
/// a plain space for the other spaces (non-breaking, thin, ideographic),
/// the ASCII character for a fullwidth form (East Asian input methods:
/// `２２－１５` is 22-15, `ｂｏａｒｄ` is board), else itself.
pub fn fold(c: char) -> Option<char> {
    match c {
        '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}' => None,
        '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => None,
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => Some(' '),
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
        c => Some(c),
    }
}

/// The dashes read as `-` in a move (docs/src/rules/common.md, "Canonical notation": `–`
/// and `—`, and the other dashes keyboards and word processors make).
pub const DASHES: &[char] = &['–', '—', '−', '‐', '‑', '‒', '―', '﹣'];

/// Read as `x` in a move: the multiplication sign.
pub const TIMES: char = '×';

/// A character of a move as the notation reads it, once [`fold`]ed:
/// the dashes are `-`, `×` is `x`, letters are lower case.
pub fn move_char(c: char) -> char {
    if DASHES.contains(&c) {
        '-'
    } else if c == TIMES {
        'x'
    } else {
        c.to_ascii_lowercase()
    }
}

/// Whether `c` is read in a move as one of its marks (a dash or `×`)
/// though it is not ASCII.
pub fn is_move_mark(c: char) -> bool {
    DASHES.contains(&c) || c == TIMES
}

/// What to say of a character that belongs in no move. One that is not
/// ASCII is named by its code point, for it may look like one that does
/// (a Cyrillic `х`, a superscript `¹`): "unexpected 'х'" would read as a
/// complaint about a legal `x`.
pub fn unexpected(c: char) -> String {
    if c.is_ascii() {
        format!("unexpected {c:?}")
    } else {
        format!(
            "{c:?} (U+{:04X}) is not a character of moves, though it looks like one",
            c as u32
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fullwidth_is_ascii_and_invisible_is_nothing() {
        let folded: String = "２２－１５\u{200B}\u{00A0}ｘ"
            .chars()
            .filter_map(fold)
            .collect();
        assert_eq!(folded, "22-15 x");
        assert_eq!(move_char('—'), '-');
        assert_eq!(move_char('×'), 'x');
        assert_eq!(move_char('X'), 'x');
        assert_eq!(unexpected('h'), "unexpected 'h'");
        assert_eq!(
            unexpected('х'),
            "'х' (U+0445) is not a character of moves, though it looks like one"
        );
    }
}
