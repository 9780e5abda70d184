//! The HTML part of pbem's mails, made from the same words as the plain
//! text: prose as paragraphs in a proportional font (reflowed, so a phone
//! wraps it to its width), blocks whose columns matter (lists aligned with
//! spaces, the help table, a board drawn in ASCII) as `<pre>` that shrinks
//! to fit when it can and wraps when it cannot; the board of a mail that
//! shows one as a table ([`crate::mail::board`]). One `<style>` block in
//! the `<head>` styles it; what must survive a client that drops that
//! block (no overflow, the blocks' fonts) is inline.

use crate::lines;
use std::fmt::Write as _;

/// HTML-escapes text: the one escaper the board's table uses too, with
/// apostrophes left as they are.
pub use pbem_engine::board::escape_text as escape_html;

/// The style of the words, for every mail.
pub const TEXT_STYLE: &str = "body{margin:8px;color:#222;max-width:42em;\n\
     font:15px/1.45 Arial,Helvetica,sans-serif}\n\
     p{margin:0 0 .8em}\n\
     pre{margin:0 0 .8em;line-height:1.3;\n\
     font-family:Menlo,Consolas,\"DejaVu Sans Mono\",monospace}\n\
     .i{margin-left:1.5em}\n\
     dl{margin:0 0 .8em}\n\
     dt{font-weight:bold}\n\
     dd{margin:0 0 .3em 1.5em}\n\
     .g{font-size:13px;line-height:1.7}\n";

/// The widest text a phone shows, in pixels (360 less the margins).
const ROOM: f64 = 340.0;
/// A monospace character's width, in ems (DejaVu Sans Mono, Courier).
const MONO_EM: f64 = 0.61;
/// The font sizes of a block whose columns matter: the usual one, and
/// the smallest it shrinks to before it wraps instead.
const PRE_PX: u32 = 13;
const PRE_MIN_PX: u32 = 8;
/// A line at least this long followed by a word, at most the plain
/// text's width, was wrapped there: the paragraph goes on. A shorter one
/// ended where its writer ended it.
const WRAPPED: usize = 64;

/// The longest line of the HTML: a mail carries shorter ones as they are
/// (7bit), longer ones encoded, a third bigger.
pub const LINE: usize = 74;

/// The whole HTML document: `style` in the head, `body` in the body.
pub fn document(style: &str, body: &str) -> String {
    // Joined at its length at once: the body is most of a mail's HTML.
    [
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width\">\n\
         <style>\n",
        style,
        "</style></head><body>\n<div style=\"word-wrap:break-word\">\n",
        body,
        "</div>\n</body></html>\n",
    ]
    .concat()
}

/// What a line of the plain text is, for its HTML.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Line {
    /// Words that may flow into the next line.
    Prose,
    /// Indented words (a quoted reason): prose set in.
    Indented,
    /// A line whose spacing matters.
    Columns,
}

fn line_kind(line: &str) -> Line {
    let body = line.trim_start();
    let aligned = body.trim_end().contains("  ") || line.contains('\t');
    if aligned || is_board_row(line) {
        Line::Columns
    } else if body.len() < line.len() {
        Line::Indented
    } else {
        Line::Prose
    }
}

/// A row of an ASCII board ([`pbem_engine::diagram::grid`]): its rules
/// (`+----+`, with stones at crossings), its squares (`| 12 |`), its
/// column numbers. Never wrapped, in either part.
pub fn is_board_row(line: &str) -> bool {
    let t = line.trim_end();
    // Each test stops at the first character that rules it out (a line
    // of prose at its first letter): this runs for most lines of a mail.
    let rule = || {
        t.len() > 5
            && !t.starts_with('-')
            && t.bytes().all(|b| b"+-Ox@".contains(&b))
            && t.contains("---")
    };
    let squares = || t.starts_with('|') && t.bytes().filter(|&b| b == b'|').count() > 2;
    let columns = || {
        t.split_whitespace()
            .all(|w| w.len() <= 3 && w.bytes().all(|b| b.is_ascii_digit()))
            && t.split_whitespace().count() > 4
    };
    rule() || squares() || columns()
}

/// Starts a point of a list: a line of its own in a paragraph.
fn starts_item(line: &str) -> bool {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    t.starts_with("- ")
        || t.starts_with("* ")
        || t.starts_with("== ")
        || t.starts_with("--")
        || (digits > 0 && t[digits..].starts_with(". "))
}

/// A line of dashes alone: the fence around text that must stay as it is
/// (the record of a game, to be saved and read back), in both parts.
pub fn is_fence(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 20 && t.bytes().all(|b| b == b'-')
}

/// `text` (plain, at most one blank line in a row) as HTML blocks; what
/// stands between fences ([`is_fence`]) as one block, as it is, between
/// rules.
pub fn blocks(text: &str) -> String {
    let mut out = String::new();
    let mut words: Vec<&str> = Vec::new();
    // The fence's line and the lines after it.
    let mut fenced: Option<Vec<&str>> = None;
    for line in lines::lines(text) {
        match (&mut fenced, is_fence(line)) {
            (None, true) => {
                out.push_str(&paragraphs(&words.join("\n")));
                words.clear();
                fenced = Some(vec![line]);
            }
            (Some(kept), true) => {
                out.push_str("<hr>\n");
                out.push_str(&pre(&kept[1..]));
                out.push_str("<hr>\n");
                fenced = None;
            }
            (Some(kept), false) => kept.push(line),
            (None, false) => words.push(line),
        }
    }
    // A fence that is not closed fences nothing.
    words.extend(fenced.unwrap_or_default());
    out.push_str(&paragraphs(&words.join("\n")));
    out
}

/// Paragraphs of `text`: prose, indented prose, aligned lines.
fn paragraphs(text: &str) -> String {
    let mut out = String::new();
    for para in text.split("\n\n") {
        let lines: Vec<&str> = lines::lines(para)
            .filter(|l| !l.trim().is_empty())
            .collect();
        // A point of a list wrapped with a hanging indent (`- a reason
        // that`, `  goes on`) is prose on, not a block set in.
        let mut kinds: Vec<Line> = lines.iter().map(|l| line_kind(l)).collect();
        let mut in_item = false;
        for (j, line) in lines.iter().enumerate() {
            let indent = line.len() - line.trim_start().len();
            if indent == 0 {
                in_item = starts_item(line);
            } else if in_item && indent <= 4 && kinds[j] == Line::Indented {
                kinds[j] = Line::Prose;
            } else {
                in_item = false;
            }
        }
        let mut i = 0;
        while i < lines.len() {
            let kind = kinds[i];
            // Aligned lines take the lines set in deep below them: the
            // rest of a column.
            let deep = |l: &str| l.len() - l.trim_start().len() >= 8;
            let run = (i..lines.len())
                .take_while(|&j| kinds[j] == kind || (kind == Line::Columns && deep(lines[j])))
                .count();
            let part = &lines[i..i + run];
            match kind {
                Line::Columns => match definitions(part) {
                    Some(terms) => out.push_str(&terms),
                    None => out.push_str(&pre(part)),
                },
                Line::Prose | Line::Indented => {
                    out.push_str(if kind == Line::Prose {
                        "<p>\n"
                    } else {
                        "<p class=\"i\">\n"
                    });
                    flow_into(&mut out, part);
                    out.push_str("</p>\n");
                }
            }
            i += run;
        }
    }
    out
}

/// Lines of prose as one paragraph: a line that was wrapped flows into
/// the next, one that ended short (or before a point of a list) keeps
/// its break; onto `out`.
fn flow_into(out: &mut String, lines: &[&str]) {
    let mut html = String::new();
    for (i, line) in lines.iter().enumerate() {
        html.clear();
        escaped_ascii(&mut html, line.trim());
        if let Some(next) = lines.get(i + 1) {
            let word = next.split_whitespace().next().unwrap_or("");
            let wrapped = line.trim_end().len() + 1 + word.len() > WRAPPED;
            if !wrapped || starts_item(next) {
                html.push_str("<br>");
            }
        }
        short_into(out, &html);
    }
}

/// `s` escaped for HTML with every character outside ASCII as a
/// character reference, onto `out`: `ascii(&escape_html(s))` in one pass.
fn escaped_ascii(out: &mut String, s: &str) {
    pbem_engine::board::escape_onto(out, s, false, true);
}

/// A line of prose HTML as lines of at most [`LINE`] characters, broken
/// at spaces (a line break is a space in HTML), each ending in a newline.
fn short(html: &str) -> String {
    let mut out = String::new();
    short_into(&mut out, html);
    out
}

/// [`short`], onto `out`.
fn short_into(out: &mut String, html: &str) {
    // Most lines: short already, and no space at the start to drop.
    if html.len() <= LINE && !html.starts_with(' ') {
        out.push_str(html);
        out.push('\n');
        return;
    }
    // The length of the line being made, in bytes (HTML here is ASCII).
    let mut len = 0;
    for word in lines::pieces(html, b' ') {
        if len > 0 && len + 1 + word.len() > LINE {
            out.push('\n');
            len = 0;
        } else if len > 0 {
            out.push(' ');
            len += 1;
        }
        out.push_str(word);
        len += word.len();
    }
    out.push('\n');
}

/// Text with every character outside ASCII as a character reference, so
/// that the HTML part travels as 7bit.
fn ascii(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let _ = write!(out, "&#{};", c as u32);
        }
    }
    out
}

/// Lines of two columns, a term and its description, the description
/// going on in lines set in deeper (the help's table of commands): a
/// list of terms, which a phone shows one under the other. `None` for
/// lines of any other shape.
fn definitions(lines: &[&str]) -> Option<String> {
    let mut terms: Vec<(&str, String)> = Vec::new();
    for line in lines {
        let indent = line.len() - line.trim_start().len();
        let body = line.trim();
        if is_board_row(line) {
            return None;
        }
        if indent >= 8 {
            let (_, text) = terms.last_mut()?;
            text.push(' ');
            text.push_str(body);
            continue;
        }
        let (term, text) = body.split_once("  ")?;
        if text.trim().contains("  ") {
            return None;
        }
        terms.push((term.trim(), text.trim().to_string()));
    }
    if terms.len() < 2 {
        return None;
    }
    let mut out = String::from("<dl>\n");
    for (term, text) in terms {
        let _ = writeln!(out, "<dt>{}</dt>", ascii(&escape_html(term)));
        out.push_str(&short(&format!("<dd>{}</dd>", ascii(&escape_html(&text)))));
    }
    out.push_str("</dl>\n");
    Some(out)
}

/// Lines whose spacing matters, in a monospace font small enough for a
/// phone to show the widest whole, down to [`PRE_MIN_PX`]; wider ones
/// wrap at the usual size.
fn pre(lines: &[&str]) -> String {
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let fits = |px: u32| widest as f64 * MONO_EM * f64::from(px) <= ROOM;
    let px = (PRE_MIN_PX..=PRE_PX)
        .rev()
        .find(|px| fits(*px))
        .unwrap_or(PRE_PX);
    let text: Vec<String> = lines
        .iter()
        .map(|l| fold(&ascii(&escape_html(l))))
        .collect();
    // The line break after the start tag is not part of the text.
    format!(
        "<pre style=\"white-space:pre-wrap;word-wrap:break-word;font-size:{px}px\">\n{}\n</pre>\n",
        text.join("\n")
    )
}

/// A line of `<pre>` HTML longer than [`LINE`] in source lines that are
/// not: broken inside `<wbr\n>`, whose line break is in a tag, not in the
/// text (which copies as it was, the record of a game above all); after
/// a space where there is one, so that a narrow screen wraps there too.
fn fold(html: &str) -> String {
    // Room for the `>` that starts a folded line and the `<wbr` that ends it.
    let most = LINE - ">".len() - "<wbr".len() - 1;
    let mut out = String::with_capacity(html.len() + 16);
    let mut rest = html;
    while rest.len() > most {
        // Never inside a character reference.
        let safe = |i: usize| {
            rest[..i]
                .rfind('&')
                .is_none_or(|a| rest[a..i].contains(';'))
        };
        let cut = rest[..most]
            .rfind(' ')
            .map(|i| i + 1)
            .filter(|i| *i > most / 2 && safe(*i))
            .or_else(|| {
                (1..=most)
                    .rev()
                    .find(|i| rest.is_char_boundary(*i) && safe(*i))
            })
            .unwrap_or(most);
        out.push_str(&rest[..cut]);
        out.push_str("<wbr\n>");
        rest = &rest[cut..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests that stop early are the tests as first written: the
    /// same answer over random lines of a board's characters and others.
    #[test]
    fn a_board_row_is_told_as_before() {
        fn before(line: &str) -> bool {
            let t = line.trim_end();
            let rule = t.len() > 5
                && t.contains("---")
                && t.chars().all(|c| "+-Ox@".contains(c))
                && !t.starts_with('-');
            let squares = t.starts_with('|') && t.matches('|').count() > 2;
            let columns = t.split_whitespace().count() > 4
                && t.split_whitespace()
                    .all(|w| w.len() <= 3 && w.bytes().all(|b| b.is_ascii_digit()));
            rule || squares || columns
        }
        let alphabet = [
            '+', '-', 'O', 'x', '@', '|', ' ', '1', '2', '3', 'a', '\t', 'é',
        ];
        let mut rng = fastrand::Rng::with_seed(5);
        let mut rows = 0;
        for n in 0..40_000 {
            // A third from a board's characters alone, where rows are.
            let pick = if n % 3 == 0 {
                &alphabet[..9]
            } else {
                &alphabet[..]
            };
            let t: String = (0..n % 30).map(|_| pick[rng.usize(..pick.len())]).collect();
            assert_eq!(is_board_row(&t), before(&t), "{t:?}");
            rows += usize::from(before(&t));
        }
        assert!(rows > 100, "{rows} rows among the lines");
    }

    #[test]
    fn prose_escapes_as_the_two_passes_did() {
        let mut rng = fastrand::Rng::with_seed(5);
        let chars = [
            'a',
            ' ',
            '&',
            '<',
            '>',
            '"',
            '\'',
            'é',
            '—',
            '\u{1F600}',
            '1',
            '-',
        ];
        for _ in 0..2000 {
            let s: String = (0..rng.usize(0..30))
                .map(|_| chars[rng.usize(..chars.len())])
                .collect();
            let mut one = String::new();
            escaped_ascii(&mut one, &s);
            assert_eq!(one, ascii(&escape_html(&s)), "{s:?}");
        }
    }

    #[test]
    fn wrapped_prose_flows_and_short_lines_keep_their_breaks() {
        let text = "This is a long line of prose that was wrapped by pbem at the width of\n\
                    seventy-two columns, and goes on here.\nA line of its own.\n\n\
                    Your moves:\n  from 2: 2-9 2-10\n\n  bz-1   Boom & Zoom   Bob\n";
        let h = blocks(text);
        assert!(h.contains("width of\nseventy-two"), "{h}");
        assert!(h.lines().all(|l| l.len() <= LINE), "{h}");
        assert!(h.contains("here.<br>\nA line"), "{h}");
        assert!(h.contains("<p class=\"i\">\nfrom 2: 2-9 2-10\n</p>"), "{h}");
        assert!(h.contains("<pre style="), "{h}");
        assert!(h.contains("bz-1   Boom &amp; Zoom   Bob\n</pre>"), "{h}");
    }

    #[test]
    fn a_wide_block_shrinks_to_fit_or_wraps() {
        let board = "+----+----+----+----+----+----+----+----+";
        assert!(is_board_row(board) && is_board_row("| 64 | 63 |  57-64"));
        assert!(is_board_row("   8    7    6    5    4    3    2    1"));
        assert!(!is_board_row("Games: 1 2"));
        assert!(pre(&["| 1 |"; 2]).contains("font-size:13px"));
        let wide = "x  ".repeat(22);
        assert!(pre(&[&wide]).contains("font-size:8px"));
        let wider = "x  ".repeat(40);
        assert!(pre(&[&wider]).contains("font-size:13px"));
    }

    #[test]
    fn long_lines_of_a_block_fold_in_tags_not_in_text() {
        let line = format!("name = \"{}\"", "&<x> ".repeat(30));
        let h = pre(&[&line]);
        assert!(h.lines().all(|l| l.len() <= LINE), "{h}");
        let text = h.replace("<wbr\n>", "");
        assert!(text.contains(&escape_html(&line)), "{h}");
    }

    #[test]
    fn fenced_lines_stay_as_they_are() {
        let fence = "-".repeat(72);
        let record = "black = \"A very long name <a.very.long.address@example.org>\" # etc.";
        let h = blocks(&format!(
            "Save this:\n{fence}\n{record}\n1.   22-15\n{fence}\nBye.\n"
        ));
        assert_eq!(h.matches("<hr>").count(), 2, "{h}");
        assert!(h.contains("\n1.   22-15\n</pre>"), "{h}");
        assert!(!h.contains("---"), "{h}");
        let open = blocks(&format!("{fence}\nno end\n"));
        assert!(open.contains("no end") && !open.contains("<hr>"), "{open}");
    }

    #[test]
    fn a_table_of_terms_is_a_list_of_terms() {
        let help = "  `board`       the board now\n  `challenge GAME ADDRESS`  start a game;\n                add `first`\n";
        let h = blocks(help);
        assert!(
            h.contains("<dt>`board`</dt>\n<dd>the board now</dd>"),
            "{h}"
        );
        assert!(h.contains("<dd>start a game; add `first`</dd>"), "{h}");
        let three = blocks("  a  b  c\n  d  e  f\n");
        assert!(three.contains("<pre"), "{three}");
    }

    #[test]
    fn a_point_wrapped_with_a_hanging_indent_flows_on() {
        let html = blocks(
            "Left out:\n\n- `a`: one\n- `timezone Mars/Base`: unknown time zone `Mars/Base`; hint: write an\n  IANA name such as `Europe/Berlin`\n",
        );
        assert!(html.contains("write an\nIANA name"), "{html}");
        assert!(!html.contains("class=\"i\""), "{html}");
    }

    #[test]
    fn lists_keep_their_points_apart() {
        let h = blocks("Commands:\n- resign\n- draw\n1. first\n");
        assert_eq!(h.matches("<br>").count(), 3, "{h}");
    }
}
