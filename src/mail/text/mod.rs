//! The text of a player's mail, cleaned of what mail clients add: CRLF,
//! odd spaces, quoted-printable leftovers, quoted replies and signatures.
//! What is left is the lines the player wrote (issue 3, "Parse").

use super::quotes;

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
        let mut l: String = line.chars().filter_map(crate::glyph::fold).collect();
        if l.contains("=20") || l.contains("=3D") || l.contains("=A0") || l.contains("=C2=A0") {
            l = l
                .replace("=C2=A0", " ")
                .replace("=A0", " ")
                .replace("=20", " ")
                .replace("=3D", "=");
        }
        // A soft line break joins this line with the next.
        if let Some(joined) = l.strip_suffix('=')
            && !joined.ends_with('=')
        {
            out.push_str(joined);
            continue;
        }
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// The lines the player wrote: quoted text (`>` lines, "On ... wrote:"
/// blocks, Outlook's "-----Original Message-----" and "From: ... Sent:"
/// header blocks, forwarded blocks) and the signature (after `-- ` or a
/// "Sent from my iPhone" line) cut off. Top-posted replies keep what is
/// above the quote; bottom-posted ones what is below a marked quote too.
/// The shapes recognised are the rows of [`quotes::TABLE`].
pub fn strip_quotes(text: &str) -> String {
    strip_quotes_with(text, &|_| false)
}

/// [`strip_quotes`], told which lines pbem itself wrote: `known(content)`
/// is asked about a line's content (its quote prefix of `>`, `|`, TAB and
/// leading spaces removed, the rest trimmed) and says whether pbem sent
/// that exact line to this player recently. pbem's own words are inert:
/// a prefixed block holding one is dropped whole, and an unprefixed run of
/// them (a quote whose marker or attribution was not recognised) is
/// dropped with the header lines directly above it and the lines directly
/// below it, up to blank lines. What the player wrote above or below
/// survives.
pub fn strip_quotes_with(text: &str, known: &dyn Fn(&str) -> bool) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let marks: Vec<(String, &str)> = lines.iter().map(|l| split_prefix(l)).collect();
    let blocks = Blocks::of(&marks);
    let mut drop = vec![false; lines.len()];
    let known_at: Vec<bool> = marks
        .iter()
        .map(|(key, content)| !content.is_empty() && !is_marked(key) && known(content))
        .collect();
    let end = read_structure(&lines, &marks, &blocks, &known_at, &mut drop);
    drop_known(
        &lines[..end],
        &marks[..end],
        &blocks,
        &known_at[..end],
        &mut drop,
    );
    let mut s = lines[..end]
        .iter()
        .zip(&drop)
        .filter(|(_, d)| !**d)
        .map(|(l, _)| l.replace('\t', " "))
        .collect::<Vec<_>>()
        .join("\n");
    s.push('\n');
    s
}

/// A line's quote prefix as a key, and its content. The key holds the
/// markers (`>`, `|`, TAB) in order, spaces between them ignored, so `> >`
/// and `>>` are one level; a prefix of two or more spaces and nothing else
/// is the key `" "` (indented old mail). One leading space is no prefix.
fn split_prefix(line: &str) -> (String, &str) {
    // Supercite's and alpine's initials before the `>` (`p> `, `AB> `):
    // a `>` marker like any other.
    let initials = line.bytes().take_while(u8::is_ascii_alphabetic).count();
    let line = if (1..=3).contains(&initials) && line.as_bytes().get(initials) == Some(&b'>') {
        &line[initials..]
    } else {
        line
    };
    let rest = line.trim_start_matches(['>', '|', '\t', ' ']);
    let prefix = &line[..line.len() - rest.len()];
    let mut key: String = prefix.chars().filter(|c| *c != ' ').collect();
    if key.is_empty() && prefix.len() >= 2 {
        key.push(' ');
    }
    (key, rest.trim())
}

/// Whether a line with this key is in a quote whose marker says so
/// (`>`); those are dropped without asking.
fn is_marked(key: &str) -> bool {
    key.contains('>')
}

/// Whether a line with this key may carry a separator, header or
/// attribution: unprefixed or only indented (HTML turned to text often
/// is). Inside `|` and TAB quotes such lines are old mail's own.
fn is_open(key: &str) -> bool {
    key.is_empty() || key == " "
}

/// The outermost marker of a key: what a quote block is known by.
fn outer(key: &str) -> Option<char> {
    key.chars().next()
}

/// The quote blocks of a text: runs of lines sharing one non-empty key,
/// blank and bare-prefix lines inside a run belonging to it.
struct Blocks {
    /// First and last line of each block.
    spans: Vec<(usize, usize)>,
    /// The block each line is in.
    of_line: Vec<Option<usize>>,
}

impl Blocks {
    fn of(marks: &[(String, &str)]) -> Blocks {
        let mut spans = Vec::new();
        let mut current: Option<(&str, usize, usize)> = None;
        for (i, (key, content)) in marks.iter().enumerate() {
            if content.is_empty() {
                continue; // blank or bare prefix: belongs to the run around it
            }
            match &mut current {
                // One quote whatever its depth inside: `\t` and `\t|` (a
                // board's row in a TAB quote), `>` and `>>`.
                Some((k, _, last)) if outer(k) == outer(key) => *last = i,
                _ => {
                    if let Some((_, start, last)) = current.take() {
                        spans.push((start, last));
                    }
                    if !key.is_empty() {
                        current = Some((key, i, i));
                    }
                }
            }
        }
        if let Some((_, start, last)) = current {
            spans.push((start, last));
        }
        let mut of_line = vec![None; marks.len()];
        for (b, &(start, last)) in spans.iter().enumerate() {
            for slot in &mut of_line[start..=last] {
                *slot = Some(b);
            }
        }
        Blocks { spans, of_line }
    }
}

/// The first layer, reading the text top-down: drops `>` lines and the
/// attributions above quotes (with the quote: a `|`, TAB or indented one
/// too) into `drop`, and returns the index of the line where the old mail
/// or the signature starts (the length if nowhere): a separator, a header
/// block, a signature, or an attribution above unmarked text.
fn read_structure(
    lines: &[&str],
    marks: &[(String, &str)],
    blocks: &Blocks,
    known_at: &[bool],
    drop: &mut [bool],
) -> usize {
    // Where the old mail starts unmarked: the rest is old mail, unless
    // pbem knows lines of it, which then mark where it ends (the player
    // may write below it): only the lines up to the first known one go
    // here, the known span itself in `drop_known`.
    let quoted_at = |j: usize| known_at[j] || is_marked(&marks[j].0);
    // `Ok(line)`: read on from that line (the quote pbem knows); `Err(i)`:
    // the reply ends at `i`.
    let old_mail_from = |i: usize, drop: &mut [bool]| -> Result<usize, usize> {
        let first = (i + 1..lines.len()).find(|&j| quoted_at(j)).ok_or(i)?;
        // Between the header and the quote, a line that reads as a command
        // is the player's (an interleaved reply).
        for j in i..first {
            drop[j] = !super::command::reads_as_command(lines[j]);
        }
        Ok(first)
    };
    let mut i = 0;
    while i < lines.len() {
        let (key, content) = (&marks[i].0, marks[i].1);
        if is_marked(key) {
            drop[i] = true;
            i += 1;
            continue;
        }
        if !is_open(key) || content.is_empty() {
            i += 1;
            continue;
        }
        // A signature ends the reply; but `--` above lines pbem knows is
        // the footer of its own mail quoted back, and an indented one is
        // inside an old mail (issue 12).
        if quotes::signature(content).is_some()
            && key.is_empty()
            && !known_at[i + 1..].iter().any(|k| *k)
        {
            return i;
        }
        if quotes::separator(content).is_some() || quotes::header_block(lines, i).is_some() {
            match old_mail_from(i, drop) {
                Ok(next) => i = next,
                Err(end) => return end,
            }
            continue;
        }
        // The attribution's lines are those of this quote level.
        let window: Vec<&str> = marks[i..]
            .iter()
            .take(3)
            .take_while(|(k, _)| k == key)
            .map(|(_, c)| *c)
            .collect();
        if let Some((_, n)) = quotes::attribution(&window, 0) {
            // Above a quote (any marker, or indented), skip the
            // attribution and the quote: the reply may go on below it
            // (bottom-posting). Above unmarked old mail, the rest is the
            // old mail.
            let next = (i + n..lines.len()).find(|&j| !lines[j].trim().is_empty());
            match next {
                Some(j) if !marks[j].0.is_empty() && marks[j].0 != *key => {
                    let last = blocks.of_line[j].map_or(j, |b| blocks.spans[b].1);
                    drop[i..=last].fill(true);
                    i = last + 1;
                    continue;
                }
                _ => {}
            }
            // Interleaved: the player's lines right below the attribution,
            // then the marked quote (a few lines on).
            let marked_soon = (i + n..lines.len())
                .filter(|&j| !lines[j].trim().is_empty())
                .take(4)
                .any(|j| quoted_at(j) || (!marks[j].0.is_empty() && marks[j].0 != *key));
            if marked_soon {
                drop[i..i + n].fill(true);
                i += n;
                continue;
            }
            match old_mail_from(i, drop) {
                Ok(next) => i = next,
                Err(end) => return end,
            }
            continue;
        }
        i += 1;
    }
    lines.len()
}

/// How far above pbem's known lines the span to drop may reach for their
/// attribution or header lines (a header block has up to six).
const KNOWN_REACH_UP: usize = 6;

/// The second layer: pbem's own lines (see [`strip_quotes_with`]) and
/// what belongs with them into `drop`.
fn drop_known(
    lines: &[&str],
    marks: &[(String, &str)],
    blocks: &Blocks,
    known_at: &[bool],
    drop: &mut [bool],
) {
    let end = lines.len();
    let is_known: Vec<bool> = known_at
        .iter()
        .zip(drop.iter())
        .map(|(known, dropped)| *known && !dropped)
        .collect();
    for &(start, last) in &blocks.spans {
        let last = last.min(end.saturating_sub(1));
        if start < end && is_known[start..=last].iter().any(|k| *k) {
            drop[start..=last].fill(true);
        }
    }
    // Unmarked, pbem's words go by paragraph: each paragraph that holds a
    // line pbem sent is its, and goes whole (a line a client re-wrapped
    // with it); a paragraph of the player's between two of pbem's (an
    // interleaved reply with no quote marks) stays. A line that reads as
    // a command is the player's even inside a paragraph of pbem's.
    let stays = |i: usize| lines[i].trim().is_empty() || super::command::reads_as_command(lines[i]);
    for i in (0..end).filter(|&i| is_known[i] && marks[i].0.is_empty()) {
        if drop[i] {
            continue;
        }
        let mut top = i;
        while top > 0 && i - top < KNOWN_REACH_UP && !stays(top - 1) {
            top -= 1;
        }
        let mut bottom = i;
        while bottom + 1 < end && !stays(bottom + 1) {
            bottom += 1;
        }
        drop[top..=bottom].fill(true);
    }
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
/// `<script>` tags take hours (issue 5).
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

fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let tail = &rest[amp..];
        // Bytes, not a str slice: the 10th byte may fall inside a
        // character (`&` then non-ASCII text panicked, issue 5 fuzzing).
        let end = tail.as_bytes()[..tail.len().min(10)]
            .iter()
            .position(|b| *b == b';');
        let decoded = end.and_then(|e| {
            let ent = &tail[1..e];
            let c = match ent {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" | "#39" => Some('\''),
                "nbsp" => Some(' '),
                "ndash" => Some('–'),
                "mdash" => Some('—'),
                _ => ent
                    .strip_prefix("#x")
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| ent.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, e + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &tail[len..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests;
