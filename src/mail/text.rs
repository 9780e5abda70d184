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
mod tests {
    use super::*;

    #[test]
    fn normalizes_client_noise() {
        assert_eq!(
            normalize("22-15\r\n\u{00A0}\u{200B}board\r\n"),
            "22-15\n board\n\n"
        );
        assert_eq!(normalize("#12=2022-15\n"), "#12 22-15\n\n");
        assert_eq!(normalize("２２－１５\nｂｏａｒｄ"), "22-15\nboard\n");
        assert_eq!(normalize("\u{202E}22-15\u{200E}"), "22-15\n");
        assert_eq!(normalize("mo=\nve 22-15\n"), "move 22-15\n\n");
    }

    #[test]
    fn strips_quotes_and_signatures() {
        let gmail = "22-15\n\nOn Tue, 3 Nov 2026 at 10:00, pbem <pbem@example.org>\nwrote:\n> 1. red 58-50\n> board\n";
        assert_eq!(strip_quotes(gmail).trim(), "22-15");
        let outlook = "resign\n\n-----Original Message-----\nFrom: pbem\nSent: Tuesday\n22-15\n";
        assert_eq!(strip_quotes(outlook).trim(), "resign");
        let outlook2 = "board\nFrom: pbem <pbem@example.org>\nSent: Tuesday, 3 November 2026 10:00\nTo: Bob\n\n22-15";
        assert_eq!(strip_quotes(outlook2).trim(), "board");
        let sig = "22-15\n-- \nBob\n23-30\n";
        assert_eq!(strip_quotes(sig).trim(), "22-15");
        let inline = "> old\n22-15\n> older\n";
        assert_eq!(strip_quotes(inline).trim(), "22-15");
        let german = "22-15\nAm 03.11.2026 um 10:00 schrieb pbem:\n> x\n";
        assert_eq!(strip_quotes(german).trim(), "22-15");
        // Bottom-posting (Thunderbird): the reply below the quote is kept.
        let bottom =
            "On 19/11/2026 12:33, pbem wrote:\n> 1. red 58-50\n>\n> #3 1-9. Other\n\n22-15\n";
        assert_eq!(strip_quotes(bottom).trim(), "22-15");
        // Above unmarked old mail (a converted HTML quote), nothing after counts.
        let unmarked = "22-15\nOn Tue, pbem wrote:\n#3 1-9\n";
        assert_eq!(strip_quotes(unmarked).trim(), "22-15");
        // A line starting "On" that is not a quote header stays.
        assert_eq!(
            strip_quotes("On reflection: resign\n").trim(),
            "On reflection: resign"
        );
    }

    #[test]
    fn issue5_an_ampersand_before_non_ascii_text_is_kept() {
        // Found by fuzz/fuzz_targets/mail.rs: a str slice inside 'é'.
        assert_eq!(decode_entities("& Zéééééé"), "& Zéééééé");
        assert_eq!(decode_entities("&é;x"), "&é;x");
        assert_eq!(html_to_text("<p>&€€€€;</p>").trim(), "&€€€€;");
        assert_eq!(decode_entities("&amp;é"), "&é");
    }

    #[test]
    fn issue5_many_tags_take_linear_time() {
        let html = format!(
            "{}<p>22-15</p>{}",
            "<SCRIPT>x</script><blockquote>q</blockquote>".repeat(100_000),
            "<style>".repeat(1000)
        );
        let t = std::time::Instant::now();
        let text = html_to_text(&html);
        assert!(t.elapsed().as_secs() < 5, "{:?}", t.elapsed());
        assert!(text.contains("22-15"));
        assert!(!text.contains('x') && !text.contains('q'));
    }

    #[test]
    fn html_becomes_lines() {
        let html = "<html><head><style>p{}</style></head><body><div>22&ndash;15</div><div>board<br>moves&nbsp;22</div><blockquote>old 1-2</blockquote><script>alert(1)</script></body></html>";
        let t = html_to_text(html);
        let lines: Vec<&str> = t.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        assert_eq!(lines, ["22–15", "board", "moves 22", ">"]);
    }

    /// The commands pbem's own mail holds; none may survive quoting.
    const OLD: &str = "board\nresign\n#3 1-9";

    fn kept(text: &str) -> String {
        strip_quotes(text).trim().to_string()
    }

    /// Every row of the table in a realistic reply: recognised with a move
    /// above it (top-posting) that survives and commands below it that do
    /// not; attributions also above `>`, `|`, TAB and indented quotes with
    /// the move below (bottom-posting).
    #[test]
    fn every_table_row_in_a_reply() {
        use quotes::Kind;
        for row in quotes::TABLE {
            for ex in row.examples {
                let name = format!("{} {ex:?}", row.name);
                let top = format!("22-15\n\n{ex}\n{OLD}\n");
                assert_eq!(kept(&top), "22-15", "{name}: top-posted");
                let top_tight = format!("22-15\n{ex}\n{OLD}\n");
                assert_eq!(kept(&top_tight), "22-15", "{name}: no blank line");
                match row.kind {
                    Kind::Attribution => {
                        for prefix in ["> ", ">", "| ", "\t", "    "] {
                            let quoted: String =
                                OLD.lines().map(|l| format!("{prefix}{l}\n")).collect();
                            let bottom = format!("{ex}\n{quoted}\n22-15\n");
                            assert_eq!(kept(&bottom), "22-15", "{name}: bottom {prefix:?}");
                            let top = format!("22-15\n\n{ex}\n{quoted}");
                            assert_eq!(kept(&top), "22-15", "{name}: top {prefix:?}");
                        }
                    }
                    Kind::Signature => {
                        // Not alone on its line: no signature.
                        let inline = format!("Note: {ex}: 22-15\n");
                        assert_eq!(kept(&inline), inline.trim(), "{name}: inline");
                    }
                    Kind::Separator | Kind::Header => {
                        let bold = format!("22-15\n\n*{}\n{OLD}\n", ex.replacen(':', ":*", 1));
                        assert_eq!(kept(&bold), "22-15", "{name}: bold");
                    }
                }
            }
        }
    }

    #[test]
    fn header_labels_bold_spaced_and_fullwidth() {
        for block in [
            "*From:* pbem <pbem@example.net>\n*Sent:* Friday\n*To:* Bob",
            "**Von:** pbem\n**Gesendet:** Freitag\n**An:** Bob",
            "De : pbem\nEnvoyé : vendredi\nÀ : Bob",
            "差出人： pbem\n送信日時： 2026年11月20日\n件名： RE",
            "From: pbem\n\nSent: Friday",
        ] {
            assert_eq!(
                kept(&format!("22-15\n{block}\n{OLD}\n")),
                "22-15",
                "{block}"
            );
        }
    }

    #[test]
    fn bottom_posted_and_interleaved_replies_keep_the_move() {
        let interleaved = "> 1. red 58-50\n22-15\n> board\n>> older\nresign\n> #3 1-9\n";
        assert_eq!(kept(interleaved), "22-15\nresign");
        let nested =
            "On Fri, pbem wrote:\n> > On Thu, Bob wrote:\n> > > board\n> resign\n\n22-15\n";
        assert_eq!(kept(nested), "22-15");
        // The reply below a quote goes on until a separator or signature.
        let below = "Le ven. 20 nov. 2026, pbem a écrit :\n> board\n\n22-15\n\nSent from my iPhone\nresign\n";
        assert_eq!(kept(below), "22-15");
        // A bare `>` (a dropped HTML quote) after an attribution is a quote.
        assert_eq!(kept("On Fri, pbem wrote:\n>\n\n22-15\n"), "22-15");
    }

    #[test]
    fn chatter_is_not_a_quote_start() {
        for text in [
            "On reflection: resign",
            "From 22 I go to 15:\n22-15",
            "Den här gången: 22-15",
            "Den här gången skrev jag:\n22-15",
            "Here is what I wrote:\n22-15",
            "Sent from my phone: 22-15",
            "From: 22\nTo: 15",
            "Am I late? 22-15",
            "  22-15\n  board",
            "| 22-15\n| board",
            "\t22-15",
        ] {
            assert_eq!(kept(text), text.replace('\t', " ").trim(), "{text:?}");
        }
    }

    /// pbem's own lines (the `known` layer) in quotes of every prefix.
    #[test]
    fn known_lines_drop_their_block() {
        let ours = |l: &str| ["1. red 58-50", "Your move, Bob.", "board"].contains(&l);
        for prefix in ["| ", "|", "\t", "  ", "    ", "> "] {
            let quote =
                format!("{prefix}Your move, Bob.\n{prefix}\n{prefix}resign\n\n{prefix}#3 1-9\n");
            let text = format!("22-15\n\n{quote}\nboard please\n");
            let left = strip_quotes_with(&text, &ours);
            let left: Vec<&str> = left.lines().filter(|l| !l.is_empty()).collect();
            assert_eq!(left, ["22-15", "board please"], "{prefix:?}");
            // Nothing known in the block: only `>` drops it.
            let unknown = format!("22-15\n{prefix}resign\n");
            let want = if prefix.contains('>') {
                "22-15"
            } else {
                unknown.trim_end()
            };
            assert_eq!(
                strip_quotes_with(&unknown, &ours).trim_end(),
                want.replace('\t', " "),
                "{prefix:?}"
            );
        }
    }

    #[test]
    fn known_unprefixed_span_drops_with_its_header() {
        let ours = |l: &str| ["1. red 58-50", "Your move, Bob."].contains(&l);
        // An attribution no row knows, above an unmarked quote.
        let text = "22-15\n\nQuoth the pbem, Friday:\nYour move, Bob.\nresign\n1. red 58-50\nboard\n\nalso: draw offer\n";
        // pbem writes no line that reads as a command: those in its
        // paragraph are the player's, interleaved without quote marks.
        assert_eq!(
            strip_quotes_with(text, &ours).trim(),
            "22-15\n\nresign\nboard\n\nalso: draw offer"
        );
        // Nothing known, nothing marked: nothing dropped.
        let plain = "22-15\n\nQuoth the pbem, Friday:\nresign\n";
        assert_eq!(strip_quotes_with(plain, &ours), plain);
        assert_eq!(strip_quotes_with(plain, &|_| false), plain);
        // `known` is never asked about blank lines.
        let asked = std::cell::RefCell::new(Vec::new());
        strip_quotes_with("a\n\n  \n> b\n", &|l: &str| {
            asked.borrow_mut().push(l.to_string());
            false
        });
        assert_eq!(*asked.borrow(), ["a"]);
    }

    /// Every HTML row: the quote dropped (a `>` left where it stood), the
    /// reply above kept, nested elements of the same name matched; after
    /// an element, the reply goes on; after a `Rest` marker, nothing does.
    #[test]
    fn every_html_row_drops_its_quote() {
        let words = |t: &str| -> Vec<String> {
            t.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect()
        };
        for q in quotes::HTML {
            let name = if q.tag.is_empty() { "div" } else { q.tag };
            let (html, want, reply): (String, &[&str], &[&str]) = match q.cut {
                quotes::Cut::Element => (
                    format!(
                        "<div>22-15</div>{}<div>#3 1-9</div><{name}>board</{name}>resign</{name}><p>after</p>",
                        q.example
                    ),
                    &["22-15", ">", "after"],
                    &["22-15", "after"],
                ),
                quotes::Cut::Rest => (
                    format!(
                        "<div>22-15</div>{}<div>board</div></div><p>resign</p>",
                        q.example
                    ),
                    &["22-15", ">"],
                    &["22-15"],
                ),
            };
            let text = html_to_text(&html);
            assert_eq!(words(&text), want, "{}", q.example);
            assert_eq!(
                words(&strip_quotes(&normalize(&text))),
                reply,
                "{}",
                q.example
            );
        }
    }

    #[test]
    fn html_quote_nesting_and_attribution() {
        let gmail = r#"<div dir="ltr">22-15</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Fri, pbem wrote:<br></div><div><div>board</div></div><blockquote class="gmail_quote">resign</blockquote></div><div>draw</div>"#;
        let t = html_to_text(gmail);
        assert!(!t.contains("board") && !t.contains("resign"), "{t:?}");
        assert!(t.contains("draw"));
        let thunderbird = r#"<p>22-15</p><div class="moz-cite-prefix">On 20/11/2026 10:00, pbem wrote:<br></div><blockquote type="cite" cite="mid:x@y"><blockquote>board</blockquote>resign</blockquote><p>draw</p>"#;
        let t = html_to_text(thunderbird);
        assert_eq!(
            strip_quotes(&normalize(&t))
                .split_whitespace()
                .collect::<Vec<_>>(),
            ["22-15", "draw"]
        );
        // A quote never closed runs to the end; a comment is no element.
        assert!(!html_to_text("22-15<blockquote><div>board").contains("board"));
        assert!(html_to_text("<!-- <div class=\"gmail_quote\"> -->22-15").contains("22-15"));
        // Deep nesting stays linear.
        let deep = format!(
            "<p>22-15</p><div class=\"gmail_quote\">{}x{}</div><p>draw</p>",
            "<div>".repeat(100_000),
            "</div>".repeat(100_000)
        );
        let t = std::time::Instant::now();
        let text = html_to_text(&deep);
        assert!(t.elapsed().as_secs() < 5);
        assert!(text.contains("draw") && !text.contains('x'));
    }

    #[test]
    fn hostile_input_never_panics_and_stays_linear() {
        let long = format!("{}\n", "a:".repeat(100_000));
        let many = "On x\nwrote\n".repeat(50_000) + &"From: a\n".repeat(50_000);
        let tabs = "\t|>\t \u{3000}：\n".repeat(50_000);
        let t = std::time::Instant::now();
        for text in [
            long.as_str(),
            many.as_str(),
            tabs.as_str(),
            "",
            "\n",
            ">",
            "-- ",
        ] {
            strip_quotes_with(text, &|l| l.len() % 3 == 0);
            strip_quotes(text);
        }
        assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
    }

    /// Whole replies as the clients write them (plain text), each with the
    /// move on top or below and pbem's commands in the quote.
    #[test]
    fn client_replies() {
        let cases: &[(&str, &str)] = &[
            (
                "gmail",
                "22-15\n\nOn Fri, Nov 20, 2026 at 10:00 AM pbem <pbem@example.net> wrote:\n\n> Your move.\n> board\n>\n",
            ),
            (
                "gmail-ru",
                "22-15\n\nпт, 20 нояб. 2026 г. в 10:00, pbem <pbem@example.net>:\n\n> board\n",
            ),
            (
                "gmail-ja",
                "22-15\n\n2026年11月20日(金) 10:00 pbem <pbem@example.net>:\n\n> board\n",
            ),
            (
                "outlook-desktop",
                "22-15\n\n-----Original Message-----\nFrom: pbem <pbem@example.net> \nSent: Friday, November 20, 2026 10:00 AM\nTo: Bob <bob@example.org>\nSubject: bz-test1\n\nboard\n",
            ),
            (
                "outlook-web",
                "22-15\n\n________________________________\nFrom: pbem <pbem@example.net>\nSent: Friday, November 20, 2026 10:00\nTo: Bob\nSubject: bz-test1\n\nboard\n",
            ),
            (
                "outlook-ios",
                "22-15\n\nGet Outlook for iOS\n________________________________\nFrom: pbem <pbem@example.net>\nSent: Friday, November 20, 2026 10:00:00 AM\nTo: Bob\nSubject: bz-test1\n\nboard\n",
            ),
            (
                "outlook-mac-de",
                "22-15\n\nVon: pbem <pbem@example.net>\nDatum: Freitag, 20. November 2026 um 10:00\nAn: Bob\nBetreff: bz-test1\n\nboard\n",
            ),
            (
                "iphone",
                "22-15\n\nSent from my iPhone\n\n> On 20 Nov 2026, at 10:00, pbem <pbem@example.net> wrote:\n>\n> board\n",
            ),
            (
                "apple-mail-fr",
                "22-15\n\n> Le 20 nov. 2026 à 10:00, pbem <pbem@example.net> a écrit :\n>\n> board\n",
            ),
            (
                "thunderbird-bottom",
                "On 20/11/2026 10:00, pbem wrote:\n> Your move.\n> board\n\n22-15\n",
            ),
            (
                "yahoo-indented",
                "22-15\n\n    On Friday, November 20, 2026, 10:00:00 AM GMT, pbem <pbem@example.net> wrote:\n\n    board\n",
            ),
            (
                "aol",
                "22-15\n\n-----Original Message-----\nFrom: pbem <pbem@example.net>\nTo: bob@example.org\nSent: Fri, Nov 20, 2026 10:00 am\nSubject: bz-test1\n\nboard\n",
            ),
            (
                "zimbra",
                "22-15\n\n----- Original Message -----\nFrom: \"pbem\" <pbem@example.net>\nTo: \"Bob\" <bob@example.org>\nSent: Friday, November 20, 2026 10:00:00 AM\nSubject: bz-test1\n\nboard\n",
            ),
            (
                "zoho",
                "22-15\n\n---- On Fri, 20 Nov 2026 10:00:00 +0000 pbem <pbem@example.net> wrote ----\n\nboard\n",
            ),
            (
                "samsung",
                "22-15\n\n\nSent from my Galaxy\n\n\n-------- Original message --------\nFrom: pbem <pbem@example.net>\nDate: 20/11/2026 10:00 (GMT+00:00)\nTo: Bob\nSubject: bz-test1\n\nboard\n",
            ),
            (
                "samsung-da",
                "22-15\n\n-------- Oprindelig besked --------\nFra: pbem <pbem@example.net>\nDato: 20.11.2026 10.00 (GMT+01:00)\nTil: Bob\nEmne: bz-test1\n\nboard\n",
            ),
            (
                "k9",
                "22-15\n\nOn November 20, 2026 10:00:00 AM UTC, pbem <pbem@example.net> wrote:\n>board\n",
            ),
            (
                "windows-mail",
                "22-15\n\nSent from Mail for Windows\n\nFrom: pbem\nSent: Friday, November 20, 2026 10:00\nTo: Bob\nSubject: bz-test1\n\nboard\n",
            ),
            (
                "roundcube",
                "On 2026-11-20 10:00, pbem wrote:\n> board\n\n22-15\n",
            ),
            (
                "open-xchange-de",
                "22-15\n\n> pbem <pbem@example.net> hat am 20. November 2026 um 10:00 geschrieben:\n>\n> board\n",
            ),
            (
                "mail-ru",
                "22-15\n\n\nПятница, 20 ноября 2026, 10:00 +03:00 от pbem <pbem@example.net>:\n\n>board\n",
            ),
            (
                "yandex",
                "22-15\n\n20.11.2026, 10:00, \"pbem\" <pbem@example.net>:\n\nboard\n",
            ),
            (
                "mutt",
                "* pbem <pbem@example.net> [2026-11-20 10:00]:\n> board\n\n22-15\n",
            ),
            (
                "alpine",
                "On Fri, 20 Nov 2026, pbem wrote:\n\n> board\n\n22-15\n",
            ),
            (
                "s-nail",
                "pbem <pbem@example.net> wrote:\n |board\n\n22-15\n",
            ),
            (
                "qq",
                "22-15\n\n------------------ 原始邮件 ------------------\n发件人: \"pbem\"<pbem@example.net>;\n发送时间: 2026年11月20日(星期五) 上午10:00\n收件人: \"Bob\"<bob@example.org>;\n主题: bz-test1\n\nboard\n",
            ),
            (
                "gmail-zh",
                "22-15\n\npbem <pbem@example.net> 于2026年11月20日周五 10:00写道：\n\n> board\n",
            ),
            (
                "forward",
                "22-15\n\n---------- Forwarded message ---------\nFrom: pbem <pbem@example.net>\nDate: Fri, Nov 20, 2026 at 10:00 AM\nSubject: bz-test1\nTo: Bob\n\nboard\n",
            ),
        ];
        for (client, text) in cases {
            assert_eq!(kept(text), "22-15", "{client}");
        }
    }

    /// HTML-only replies as Outlook desktop and Apple Mail send them.
    #[test]
    fn html_client_replies() {
        let outlook = r#"<html><head><style><!-- p.MsoNormal {margin:0cm} --></style></head><body lang="EN-GB"><div class="WordSection1"><p class="MsoNormal">22-15<o:p></o:p></p><p class="MsoNormal"><o:p>&nbsp;</o:p></p><div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal"><b>From:</b> pbem &lt;pbem@example.net&gt;<br><b>Sent:</b> Friday, November 20, 2026 10:00 AM<br><b>To:</b> Bob<br><b>Subject:</b> bz-test1</p></div></div><p class="MsoNormal">board</p></div></body></html>"#;
        let apple = r#"<html><body dir="auto"><div>22-15</div><div><br><blockquote type="cite">On 20 Nov 2026, at 10:00, pbem &lt;pbem@example.net&gt; wrote:<br><br></blockquote></div><blockquote type="cite"><div>board<blockquote type="cite">resign</blockquote></div></blockquote></body></html>"#;
        let outlook_web = r#"<div dir="ltr">22-15</div><hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><b>From:</b> pbem</div><div>board</div>"#;
        for html in [outlook, apple, outlook_web] {
            let text = strip_quotes(&normalize(&html_to_text(html)));
            assert_eq!(
                text.split_whitespace().collect::<Vec<_>>(),
                ["22-15"],
                "{html}"
            );
        }
    }

    /// Random text of the characters quote recognition looks at: no
    /// panic, whatever the shape.
    #[test]
    fn random_text_never_panics() {
        let alphabet: Vec<char> = "> |\t\n:：<>/=\"-_@*2015.aé年ivdblockquote写道Onwrote"
            .chars()
            .collect();
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..3000 {
            let len = rng.usize(0..200);
            let text: String = (0..len)
                .map(|_| alphabet[rng.usize(0..alphabet.len())])
                .collect();
            strip_quotes_with(&text, &|l| l.len() % 2 == 0);
            html_to_text(&text);
            normalize(&text);
        }
    }
}
