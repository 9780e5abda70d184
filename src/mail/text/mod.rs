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
/// The shapes recognised are the rows of [`quotes::TABLE`].
pub fn strip_quotes(text: &str) -> String {
    strip_quotes_with(text, &|_| false)
}

/// [`strip_quotes`], told which lines pbem itself wrote: `known(content)`
/// is asked about a line's content (its quote prefix of `>`, `|`, TAB and
/// leading spaces removed, the rest trimmed) and says whether pbem sent
/// that exact line to this player recently.
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
pub fn strip_quotes_with(text: &str, known: &dyn Fn(&str) -> bool) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let marks: Vec<(String, &str)> = lines.iter().map(|l| split_prefix(l)).collect();
    let blocks = Blocks::of(&marks);
    let mut drop = vec![false; lines.len()];
    let known_at: Vec<bool> = marks
        .iter()
        .map(|(key, content)| !content.is_empty() && !is_marked(key) && known(content))
        .collect();
    let reading = Reading {
        lines: &lines,
        marks: &marks,
        blocks: &blocks,
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

/// A reply's lines, their quote prefixes and quote blocks, as the two
/// layers read them.
struct Reading<'a> {
    lines: &'a [&'a str],
    marks: &'a [(String, &'a str)],
    blocks: &'a Blocks,
}

/// The longest line, in words, taken for a command of the player's inside
/// unmarked old mail: a command is a few words, a sentence of old mail
/// that happens to start like one (`#5 22-15. Other commands: ...`) is
/// longer.
const INTERLEAVED_WORDS: usize = 6;

impl Reading<'_> {
    /// The first layer, by shape alone, reading the text top-down: drops
    /// `>` lines, `|`, TAB and indented blocks that hold a header block
    /// or a separator (a whole mail quoted, as mailx's `~m` does), and
    /// attributions with the quote below them (a `|`, TAB or indented one
    /// too). It stops at a signature or a separator (the rest is
    /// dropped) and at the start of unmarked old mail: a header block, or
    /// an attribution above unmarked text ([`Reading::cut`]).
    ///
    /// `known_at` counts for one thing only: a `--` line above lines pbem
    /// sent is the footer of its own mail quoted back, no signature.
    fn read_structure(&self, known_at: &[bool], drop: &mut [bool]) {
        let (lines, marks, blocks) = (self.lines, self.marks, self.blocks);
        let mut i = 0;
        while i < lines.len() {
            let (key, content) = (&marks[i].0, marks[i].1);
            if is_marked(key) {
                drop[i] = true;
                i += 1;
                continue;
            }
            if content.is_empty() {
                i += 1;
                continue;
            }
            if !is_open(key) {
                i = self.skip_block(i, drop);
                continue;
            }
            if quotes::signature(content).is_some()
                && key.is_empty()
                && !known_at[i + 1..].iter().any(|k| *k)
            {
                drop[i..].fill(true);
                return;
            }
            // Below a separator (`-----Original Message-----`, `Begin
            // forwarded message:`) is another's mail, the player's reply
            // above it.
            if quotes::separator(content).is_some() {
                drop[i..].fill(true);
                return;
            }
            if quotes::header_block(lines, i).is_some() {
                self.cut(i, drop);
                return;
            }
            // The attribution's lines are those of this quote level.
            let window: Vec<&str> = marks[i..]
                .iter()
                .take(4)
                .take_while(|(k, _)| k == key)
                .map(|(_, c)| *c)
                .collect();
            let Some((_, n)) = quotes::attribution(&window, 0)
                .filter(|_| !super::command::reads_as_command(lines[i]))
            else {
                i += 1;
                continue;
            };
            // Above a quote (any marker, or indented), skip the
            // attribution and the quote: the reply may go on below it
            // (bottom-posting).
            let next = (i + n..lines.len()).find(|&j| !lines[j].trim().is_empty());
            if let Some(j) = next
                && !marks[j].0.is_empty()
                && marks[j].0 != *key
            {
                let last = blocks.of_line[j].map_or(j, |b| blocks.spans[b].1);
                drop[i..=last].fill(true);
                i = last + 1;
                continue;
            }
            // Interleaved: the player's lines right below the attribution,
            // then the `>` quote (a few lines on). Not a `|` line: a row
            // of a board in unmarked old mail starts with one.
            let marked_soon = (i + n..lines.len())
                .filter(|&j| !lines[j].trim().is_empty())
                .take(4)
                .any(|j| is_marked(&marks[j].0));
            if marked_soon {
                drop[i..i + n].fill(true);
                i += n;
                continue;
            }
            // Above unmarked text: the old mail starts here.
            self.cut(i, drop);
            return;
        }
    }

    /// At the first line of a `|` or TAB block (or inside one): the line
    /// after the block, the block dropped when it is a mail quoted whole
    /// (a header block or a separator in it); else the next line.
    fn skip_block(&self, i: usize, drop: &mut [bool]) -> usize {
        let Some((start, last)) = self.blocks.of_line[i].map(|b| self.blocks.spans[b]) else {
            return i + 1;
        };
        if start != i {
            return i + 1;
        }
        let contents: Vec<&str> = self.marks[start..=last].iter().map(|(_, c)| *c).collect();
        let old_mail = (0..contents.len()).any(|k| {
            quotes::separator(contents[k]).is_some() || quotes::header_block(&contents, k).is_some()
        });
        if !old_mail {
            return i + 1;
        }
        drop[start..=last].fill(true);
        last + 1
    }

    /// Unmarked old mail starts at line `at`: everything from there down
    /// is dropped, whatever pbem remembers of it. Unless the player's own
    /// lines above hold a command: then a short unprefixed line that
    /// reads as a command down there, before any older mail nested in
    /// this one, is the player's (a reply written into the old mail,
    /// or below it, with no quote marks to tell them apart).
    fn cut(&self, at: usize, drop: &mut [bool]) {
        let (lines, marks) = (self.lines, self.marks);
        let answered_above = (0..at).any(|j| !drop[j] && is_short_command(lines[j]));
        drop[at..].fill(true);
        if answered_above {
            return;
        }
        for j in at + 1..lines.len() {
            let (key, content) = (&marks[j].0, marks[j].1);
            if !key.is_empty() || content.is_empty() {
                continue;
            }
            if self.nested_old_mail(j) {
                return;
            }
            if is_short_command(content) {
                drop[j] = false;
            }
        }
    }

    /// Whether an older mail, quoted inside the old mail, starts at
    /// unprefixed line `j`: a separator, or a header block or attribution
    /// of a row of the table (shapes pbem's own wording never has).
    fn nested_old_mail(&self, j: usize) -> bool {
        let content = self.marks[j].1;
        if quotes::separator(content).is_some() {
            return true;
        }
        if quotes::header_block(self.lines, j).is_some_and(|r| !r.generic()) {
            return true;
        }
        let window: Vec<&str> = self.marks[j..]
            .iter()
            .take(4)
            .take_while(|(k, _)| k.is_empty())
            .map(|(_, c)| *c)
            .collect();
        quotes::attribution(&window, 0).is_some_and(|(r, _)| !r.generic())
    }

    /// The second layer: pbem's own lines (see [`strip_quotes_with`]) and
    /// what belongs with them into `drop`. It only ever drops more.
    fn drop_known(&self, known_at: &[bool], drop: &mut [bool]) {
        let (lines, marks, blocks) = (self.lines, self.marks, self.blocks);
        let end = lines.len();
        let is_known: Vec<bool> = known_at
            .iter()
            .zip(drop.iter())
            .map(|(known, dropped)| *known && !dropped)
            .collect();
        for &(start, last) in &blocks.spans {
            if is_known[start..=last].iter().any(|k| *k) {
                drop[start..=last].fill(true);
            }
        }
        // Unmarked, pbem's words go by paragraph: each paragraph that holds
        // a line pbem sent is its, and goes whole (a line a client
        // re-wrapped with it); a paragraph of the player's between two of
        // pbem's (an interleaved reply with no quote marks) stays. A line
        // that reads as a command is the player's even inside a paragraph
        // of pbem's.
        let stays =
            |i: usize| lines[i].trim().is_empty() || super::command::reads_as_command(lines[i]);
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
}

/// Whether a line reads as one short command of the player's: a command
/// of at most [`INTERLEAVED_WORDS`] words, not an attempt the reader
/// refuses.
fn is_short_command(line: &str) -> bool {
    let line = line.trim().trim_end_matches(['.', '!']).trim();
    line.split_whitespace().count() <= INTERLEAVED_WORDS
        && super::command::foreign::read(line).is_none()
        && matches!(super::command::parse_line(line), Ok(Some(_)))
}

/// How far above pbem's known lines the span to drop may reach for their
/// attribution or header lines (a header block has up to six).
const KNOWN_REACH_UP: usize = 6;

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
