//! The text of a player's mail, cleaned of what mail clients add: CRLF,
//! odd spaces, quoted-printable leftovers, quoted replies and signatures.
//! What is left is the lines the player wrote (issue 3, "Parse").

/// Normalises characters clients add: CRLF and CR to LF, non-breaking and
/// other Unicode spaces to a plain space, zero-width characters and BOMs
/// removed, so are bidirectional marks, fullwidth forms to ASCII, soft line breaks (`=` at the end of a line) and `=20`/`=3D`
/// leftovers of quoted-printable undone.
pub fn normalize(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(text.len());
    for line in text.split('\n') {
        let mut l: String = line
            .chars()
            .filter_map(|c| match c {
                '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}' => None,
                // Bidirectional marks and overrides: invisible, and able
                // to make `12-31` show as `13-21` (issue 5).
                '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => None,
                '\u{00A0}'
                | '\u{2000}'..='\u{200A}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\t' => Some(' '),
                // Fullwidth forms (East Asian input methods) are their ASCII
                // letters: `２２－１５` is 22-15, `ｂｏａｒｄ` is board.
                '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
                c => Some(c),
            })
            .collect();
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
/// header blocks, Gmail's forwarded blocks) and the signature (after
/// `-- `) cut off. Top-posted replies keep what is above the quote;
/// bottom-posted ones what is below a `>`-marked quote too.
pub fn strip_quotes_with(text: &str, _known: &dyn Fn(&str) -> bool) -> String {
    strip_quotes(text)
}

pub fn strip_quotes(text: &str) -> String {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let t = line.trim();
        if line == "-- " || t == "--" || t == "__" || t.starts_with("Sent from my ") {
            break; // signature: nothing after it is a command
        }
        if let Some(len) = attribution(&lines, i) {
            // "On ... wrote:" above a quote marked with `>`: the reply may
            // go on below the quote (bottom-posting), so skip only the
            // header. Above unmarked old mail, the rest is the old mail.
            let next = lines[i + len..].iter().find(|l| !l.trim().is_empty());
            if next.is_some_and(|l| l.trim_start().starts_with('>')) {
                i += len;
                continue;
            }
            break;
        }
        if is_quote_header(&lines, i) {
            break; // everything from the quote header down is the old mail
        }
        if t.starts_with('>') {
            i += 1;
            continue;
        }
        out.push(line);
        i += 1;
    }
    let mut s = out.join("\n");
    s.push('\n');
    s
}

/// Whether line `i` starts an unmarked copy of the old mail (Outlook's
/// and forwarding clients' header blocks).
fn is_quote_header(lines: &[&str], i: usize) -> bool {
    let t = lines[i].trim();
    let lower = t.to_lowercase();
    if lower.starts_with("-----original message-----")
        || lower.starts_with("---------- forwarded message")
        || lower.starts_with("-------- original message")
        || lower.starts_with("________________________________")
    {
        return true;
    }
    // Outlook: "From: ..." followed within a few lines by "Sent:" / "Date:".
    if lower.starts_with("from:") {
        return lines[i + 1..].iter().take(4).any(|l| {
            let l = l.trim().to_lowercase();
            l.starts_with("sent:") || l.starts_with("date:") || l.starts_with("to:")
        });
    }
    false
}

/// The number of lines of the attribution starting at line `i`: "On Tue,
/// 3 Nov 2026 at 10:00, Alice <a@x> wrote:", possibly wrapped over two or
/// three lines; also the common translations.
fn attribution(lines: &[&str], i: usize) -> Option<usize> {
    let lower = lines[i].trim().to_lowercase();
    let starts = ["on ", "am ", "le ", "el ", "il ", "op "];
    if !starts.iter().any(|s| lower.starts_with(s)) {
        return None;
    }
    // The verb, and a colon ending one of the header's lines.
    let header: Vec<String> = lines[i..]
        .iter()
        .take(3)
        .map(|l| l.trim().to_lowercase())
        .collect();
    let verbs = [
        "wrote",
        "schrieb",
        "a écrit",
        "escribió",
        "ha scritto",
        "schreef",
        "skrev",
    ];
    let joined = header.join(" ");
    if !verbs.iter().any(|v| joined.contains(v)) || joined.len() >= 400 {
        return None;
    }
    header.iter().position(|l| l.ends_with(':')).map(|n| n + 1)
}

/// Turns an HTML body into text for command parsing: quoted blocks
/// (`<blockquote>`, Gmail's `gmail_quote`) dropped first, block elements
/// to line breaks, tags removed, entities decoded.
pub fn html_to_text(html: &str) -> String {
    // Drop quoted blocks before anything else: mail-parser's own
    // conversion keeps them without markers. A `>` line where the quote
    // was, as a text part marks it.
    let mut s = drop_blocks(html, "<blockquote", "</blockquote>", "\n>\n");
    s = drop_blocks(&s, "<div class=\"gmail_quote", "</div>", "\n>\n");
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
    decode_entities(&out)
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
}
