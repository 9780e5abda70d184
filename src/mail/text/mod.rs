//! The text of a player's mail, cleaned of what mail clients add: CRLF,
//! odd spaces, quoted-printable leftovers, quoted replies and signatures.
//! What is left is the lines the player wrote.

use super::quotes;
use reading::{Blocks, Reading, is_marked, split_prefix};

mod reading;

/// Normalises characters clients add: CRLF and CR to LF, each character
/// as [`crate::glyph::fold`] reads it (non-breaking and other Unicode
/// spaces a plain space, zero-width characters, BOMs and bidirectional
/// marks removed, fullwidth forms ASCII), soft
/// line breaks (`=` at the end of a line) and `=20`/`=3D` leftovers of
/// quoted-printable undone. TAB stays: it may be a quote prefix (POSIX
/// mailx), see [`strip_quotes_with`], which turns the rest into spaces.
pub fn normalize(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(text.len());
    for line in text.split('\n') {
        // The characters as every reader of pbem's takes them.
        let l: String = line.chars().filter_map(crate::glyph::fold).collect();
        // A soft line break joins this line with the next.
        let (l, soft) = match l.strip_suffix('=') {
            Some(joined) if !joined.ends_with('=') => (joined, true),
            _ => (l.as_str(), false),
        };
        match qp_leftovers(l) {
            Some(decoded) => out.extend(decoded.chars().filter_map(crate::glyph::fold)),
            None => out.push_str(l),
        }
        if !soft {
            out.push('\n');
        }
    }
    out
}

/// `line` with quoted-printable escapes a client left undecoded (a body
/// encoded twice, or sent without its `Content-Transfer-Encoding`)
/// decoded: `Fr=C3=A5n:` is `Från:`, `=20` a space, `=3D` an `=`. When
/// the escaped bytes are no UTF-8, the Latin-1 spaces (`=A0`) and the
/// ASCII ones are decoded alone. `None` when there is nothing to decode.
fn qp_leftovers(line: &str) -> Option<String> {
    let hex = |b: u8| (b as char).to_digit(16).filter(|_| !b.is_ascii_lowercase());
    let bytes = line.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let mut found = false;
    while i < bytes.len() {
        if bytes[i] == b'='
            && let (Some(hi), Some(lo)) = (
                bytes.get(i + 1).and_then(|b| hex(*b)),
                bytes.get(i + 2).and_then(|b| hex(*b)),
            )
        {
            // Both digits fit in a byte: 16 * 15 + 15.
            out.push(u8::try_from(hi * 16 + lo).unwrap_or(b'?'));
            found = true;
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    if !found {
        return None;
    }
    Some(String::from_utf8(out).unwrap_or_else(|_| {
        line.replace("=C2=A0", " ")
            .replace("=A0", " ")
            .replace("=20", " ")
            .replace("=3D", "=")
    }))
}

/// The lines the player wrote: quoted text (`>` lines, "On ... wrote:"
/// blocks, Outlook's "-----Original Message-----" and "From: ... Sent:"
/// header blocks, forwarded blocks) and the signature (after `-- ` or a
/// "Sent from my iPhone" line) cut off. Top-posted replies keep what is
/// above the quote; bottom-posted ones what is below a marked quote too.
/// The shapes recognised are the rows of [`quotes::TABLE`] and
/// [`quotes::GENERIC`]; see [`strip_reply`].
pub fn strip_quotes(text: &str) -> String {
    strip_reply(text, &[], &|_| false)
}

/// [`strip_reply`] of a sender pbem knows nothing of.
pub fn strip_quotes_with(text: &str, known: &dyn Fn(&str) -> bool) -> String {
    strip_reply(text, &[], known)
}

/// The lines the player wrote, `sender` their address and display name
/// (an old mail of theirs quoted back holds none of their new
/// commands), `known(content)` whether pbem sent that line (its quote
/// prefix of `>`, `|`, TAB and leading spaces removed, the rest trimmed)
/// to this player recently.
///
/// The shape of the reply decides first ([`Reading::read_structure`]):
/// what it cuts stays cut whatever pbem remembers, so a reply reads the
/// same with the memory, with a memory lost, and quoting a mail of a
/// wording pbem no longer sends. The memory then only drops more
/// ([`Reading::drop_known`]): a prefixed block holding a line pbem sent
/// goes whole, and an unprefixed run of them (a quote no shape gave away)
/// goes with the header lines directly above it and the lines directly
/// below it, up to blank lines. What the player wrote above or below
/// survives.
pub fn strip_reply(text: &str, sender: &[&str], known: &dyn Fn(&str) -> bool) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let marks: Vec<(String, &str)> = lines.iter().map(|l| split_prefix(l)).collect();
    let blocks = Blocks::of(&marks);
    let mut drop = vec![false; lines.len()];
    let known_at: Vec<bool> = marks
        .iter()
        .map(|(key, content)| !content.is_empty() && !is_marked(key) && known(content))
        .collect();
    let sender: Vec<String> = sender
        .iter()
        .map(|s| s.trim().to_lowercase())
        .filter(|s| s.chars().count() >= 3)
        .collect();
    let reading = Reading {
        lines: &lines,
        marks: &marks,
        blocks: &blocks,
        sender: &sender,
    };
    reading.read_structure(&known_at, &mut drop);
    reading.drop_known(&known_at, &mut drop);
    let mut s = lines
        .iter()
        .zip(&drop)
        .filter(|(_, d)| !**d)
        .map(|(l, _)| l.replace('\t', " "))
        .collect::<Vec<_>>()
        .join("\n");
    s.push('\n');
    s
}

/// Turns an HTML body into text for command parsing: quoted mail (the
/// [`quotes::HTML`] shapes) dropped first, block elements
/// to line breaks, tags removed, entities decoded.
pub fn html_to_text(html: &str) -> String {
    // Drop quoted blocks before anything else: mail-parser's own
    // conversion keeps them without markers. A `>` line where the quote
    // was, as a text part marks it.
    let mut s = drop_html_quotes(html);
    for (open, close) in [
        ("<script", "</script>"),
        ("<style", "</style>"),
        ("<head", "</head>"),
    ] {
        s = drop_blocks(&s, open, close, "");
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s.as_str();
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        let Some(gt) = rest[lt..].find('>') else {
            rest = "";
            break;
        };
        let tag = rest[lt + 1..lt + gt].trim().to_ascii_lowercase();
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if matches!(
            name.as_str(),
            "br" | "p"
                | "div"
                | "li"
                | "tr"
                | "h1"
                | "h2"
                | "h3"
                | "h4"
                | "pre"
                | "table"
                | "ul"
                | "ol"
        ) {
            out.push('\n');
        }
        rest = &rest[lt + gt + 1..];
    }
    out.push_str(rest);
    // HTML's tabs are layout, never a quote prefix.
    decode_entities(&out).replace('\t', " ")
}

/// Where a dropped quote stood: a `>` line, so that the text-level rules
/// see a quote there (an attribution above it is skipped, a reply below it
/// kept).
const QUOTE_MARK: &str = "\n>\n";

/// Elements without content: they cannot be dropped with their content.
const VOID: &[&str] = &[
    "br", "hr", "img", "meta", "input", "link", "wbr", "col", "area",
];

/// The rule an opening tag matches: `name` its lowercased name, `tag` the
/// text between `<` and `>`.
fn html_quote_rule(name: &str, tag: &str) -> Option<quotes::Cut> {
    if name.is_empty() {
        return None; // comments, doctypes, processing instructions
    }
    let compact: String = tag
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    quotes::HTML
        .iter()
        .find(|q| (q.tag.is_empty() || q.tag == name) && compact.contains(q.needle))
        .map(|q| q.cut)
}

/// `html` with its quoted mail (the [`quotes::HTML`] elements) replaced by
/// [`QUOTE_MARK`]. One pass over the tags: an element is dropped up to
/// the end tag that closes it, counting nested elements of the same name
/// (a `<div>` inside Gmail's quote div does not end the drop early).
fn drop_html_quotes(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut copied = 0; // html[..copied] is in `out` or dropped
    let mut at = 0;
    let mut dropping: Option<(String, usize)> = None;
    while let Some(lt) = html[at..].find('<') {
        let start = at + lt;
        let Some(gt) = html[start..].find('>') else {
            break;
        };
        let end = start + gt + 1;
        at = end;
        let tag = &html[start + 1..end - 1];
        let closing = tag.starts_with('/');
        let name = tag_name(tag);
        let self_closing = tag.ends_with('/') || VOID.contains(&name.as_str());
        if let Some((open, depth)) = &mut dropping {
            if *open == name && !self_closing {
                if closing {
                    *depth -= 1;
                } else {
                    *depth += 1;
                }
                if *depth == 0 {
                    dropping = None;
                    out.push_str(QUOTE_MARK);
                    copied = end;
                }
            }
            continue;
        }
        if closing {
            continue;
        }
        match html_quote_rule(&name, tag) {
            None => {}
            Some(quotes::Cut::Rest) => {
                out.push_str(&html[copied..start]);
                out.push_str(QUOTE_MARK);
                return out;
            }
            Some(quotes::Cut::Element) => {
                out.push_str(&html[copied..start]);
                if self_closing {
                    out.push_str(QUOTE_MARK);
                    copied = end;
                } else {
                    dropping = Some((name, 1));
                }
            }
        }
    }
    if dropping.is_some() {
        out.push_str(QUOTE_MARK); // unclosed: the quote runs to the end
    } else {
        out.push_str(&html[copied..]);
    }
    out
}

/// A tag's lowercased name: `div` for `<div class=x>` and `</DIV>`.
fn tag_name(tag: &str) -> String {
    tag.trim_start()
        .trim_start_matches('/')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// `html` with every block from `open` to the next `close` (or the end)
/// replaced by `with`, tags matched without regard to ASCII case. One
/// pass: lowering the whole text again for each block made a mail of many
/// `<script>` tags take hours.
fn drop_blocks(html: &str, open: &str, close: &str, with: &str) -> String {
    // ASCII lower case keeps every byte offset.
    let lower = html.to_ascii_lowercase();
    let mut out = String::with_capacity(html.len());
    let mut pos = 0;
    while let Some(i) = lower[pos..].find(open) {
        let start = pos + i;
        out.push_str(&html[pos..start]);
        out.push_str(with);
        pos = lower[start..]
            .find(close)
            .map_or(html.len(), |e| start + e + close.len());
    }
    out.push_str(&html[pos..]);
    out
}

/// The longest entity read: HTML5's longest name,
/// `&CounterClockwiseContourIntegral;`, is 31 letters.
const MAX_ENTITY: usize = 32;

/// `s` with its character references (`&amp;`, `&rarr;`, `&#8212;`,
/// `&#x2014;`) decoded by mail-parser's table of all HTML5 names. A `&`
/// that starts none (`& Zé`, `&€;`, an unknown name) is kept as written.
/// `&nbsp;` is a plain space: a layout space, never part of a command.
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let tail = &rest[amp..];
        // ASCII only, so the slice below ends on a character boundary.
        let name = tail[1..]
            .bytes()
            .take(MAX_ENTITY)
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'#')
            .count();
        if name == 0 || tail.as_bytes().get(1 + name) != Some(&b';') {
            out.push('&');
            rest = &tail[1..];
            continue;
        }
        let token = &tail[..name + 2];
        let mut decoded = String::new();
        mail_parser::decoders::html::add_html_token(&mut decoded, token.as_bytes(), false);
        out.push_str(if decoded == "\u{a0}" { " " } else { &decoded });
        rest = &tail[token.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests;
