//! How a reply is read, line by line: each line's quote prefix, the quote
//! blocks, and the two layers that decide what is old mail: its shape
//! first, pbem's memory of its own lines second.

use super::super::command;
use super::quotes;

/// A line's quote prefix as a key, and its content. The key holds the
/// markers (`>`, `|`, TAB) in order, spaces between them ignored, so `> >`
/// and `>>` are one level. Two or more spaces before the first marker, or
/// before none, make the key start with `" "` (indented old mail, in which
/// a board's `|` rows stand: `"    | 1 |"` is `" |"`). One leading space
/// is no prefix.
pub(super) fn split_prefix(line: &str) -> (String, &str) {
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
    let indent = prefix.bytes().take_while(|b| *b == b' ').count();
    let mut key = String::new();
    if indent >= 2 {
        key.push(' ');
    }
    key.extend(prefix.chars().filter(|c| *c != ' '));
    (key, rest.trim())
}

/// Whether a line with this key is in a quote whose marker says so
/// (`>`); those are dropped without asking.
pub(super) fn is_marked(key: &str) -> bool {
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
pub(super) struct Blocks {
    /// First and last line of each block.
    spans: Vec<(usize, usize)>,
    /// The block each line is in.
    of_line: Vec<Option<usize>>,
}

impl Blocks {
    pub(super) fn of(marks: &[(String, &str)]) -> Blocks {
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

    /// The last line of the block line `i` is in (`i` if none).
    fn end_of(&self, i: usize) -> usize {
        self.of_line[i].map_or(i, |b| self.spans[b].1)
    }
}

/// A reply's lines, their quote prefixes and quote blocks, as the two
/// layers read them.
pub(super) struct Reading<'a> {
    pub(super) lines: &'a [&'a str],
    pub(super) marks: &'a [(String, &'a str)],
    pub(super) blocks: &'a Blocks,
    /// The sender's address and name, lower case.
    pub(super) sender: &'a [String],
}

/// The longest line, in words, taken for a command of the player's inside
/// unmarked old mail: a command is a few words, a sentence of old mail
/// that happens to start like one (`#5 22-15. Other commands: ...`) is
/// longer.
const INTERLEAVED_WORDS: usize = 6;
/// The longest paragraph of the player's inside unmarked old mail, in
/// lines (a move, a word to the opponent, a name).
const INTERLEAVED_LINES: usize = 4;

/// How many lines behind a `|`, a TAB or an indent make a quote,
/// attributed or not: a player may indent a move or two, not a mail.
const QUOTE_LINES: usize = 3;

/// How far above pbem's known lines the span to drop may reach for their
/// attribution or header lines (a header block has up to six).
const KNOWN_REACH_UP: usize = 6;

impl Reading<'_> {
    /// The first layer, by shape alone, reading the text top-down. It
    /// drops `>` lines; `|`, TAB and indented blocks that hold a header
    /// block or a separator (a whole mail quoted, as mailx's `~m` does);
    /// attributions and header blocks with the quote below them (a `|`,
    /// TAB or indented one too); and every later block of a quote so
    /// found (the same quote, with the player's lines written into it).
    /// It stops at a signature or a forward (the rest is dropped) and at
    /// the start of unmarked old mail: a separator, a header block, or an
    /// attribution above unmarked text ([`Reading::cut`]).
    ///
    /// `known_at` counts for one thing only: a `--` line above lines pbem
    /// sent is the footer of its own mail quoted back, no signature.
    pub(super) fn read_structure(&self, known_at: &[bool], drop: &mut [bool]) {
        let (lines, marks) = (self.lines, self.marks);
        // The outer markers of the quotes found to be old mail.
        let mut old: Vec<Option<char>> = Vec::new();
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
            if !key.is_empty() && old.contains(&outer(key)) {
                let last = self.blocks.end_of(i);
                drop[i..=last].fill(true);
                i = last + 1;
                continue;
            }
            if !is_open(key) || self.indented_quote(i) {
                i = self.skip_block(i, drop, &mut old);
                continue;
            }
            // A signature ends the reply, as unmarked old mail does (a
            // signature quoted with one space, pbem's `--` footer, is one).
            if quotes::signature(content).is_some()
                && key.is_empty()
                && !known_at[i + 1..].iter().any(|k| *k)
            {
                self.cut(i, i + 1, drop);
                return;
            }
            // Below a forward's separator (`Begin forwarded message:`) is
            // another's mail, the player's words above it; below a
            // reply's (`-----Original Message-----`), the mail answered.
            let separator = quotes::separator(content).is_some();
            if separator && quotes::forwards(content) {
                drop[i..].fill(true);
                return;
            }
            let opening = if separator || quotes::header_block(lines, i).is_some() {
                Some(self.below_headers(i))
            } else {
                self.attribution(i).map(|n| i + n)
            };
            let Some(body) = opening else {
                i += 1;
                continue;
            };
            i = match self.opens(i, body, drop, &mut old) {
                Some(next) => next,
                None => return,
            };
        }
    }

    /// What the lines from `at` to `body` (an attribution, a separator, a
    /// header block) open, `body` the first line below them. Above a
    /// quote (any marker, or indented): they and the quote are dropped,
    /// and the reply may go on below it (bottom-posting): `Some` line to
    /// read on from. Above the player's lines and then a `>` quote (an
    /// interleaved reply): they alone are dropped. Above unmarked text:
    /// the old mail starts here ([`Reading::cut`]), `None`.
    fn opens(
        &self,
        at: usize,
        body: usize,
        drop: &mut [bool],
        old: &mut Vec<Option<char>>,
    ) -> Option<usize> {
        let (lines, marks) = (self.lines, self.marks);
        let key = &marks[at].0;
        let next = (body..lines.len()).find(|&j| !lines[j].trim().is_empty());
        // A quote is marked, or runs over lines: one indented line is a
        // board's column numbers in unmarked old mail.
        if let Some(j) = next
            && !marks[j].0.is_empty()
            && marks[j].0 != *key
            && (is_marked(&marks[j].0) || self.blocks.end_of(j) > j)
        {
            let last = self.blocks.end_of(j);
            drop[at..=last].fill(true);
            old.push(outer(&marks[j].0));
            return Some(last + 1);
        }
        // Not a `|` line: a row of a board in unmarked old mail starts
        // with one.
        let marked_soon = (body..lines.len())
            .filter(|&j| !lines[j].trim().is_empty())
            .take(4)
            .any(|j| is_marked(&marks[j].0));
        if marked_soon && body > at {
            drop[at..body].fill(true);
            return Some(body);
        }
        self.cut(at, body, drop);
        None
    }

    /// How many lines the attribution starting at line `i` takes, if one
    /// does (its lines are those of line `i`'s quote level; a line that
    /// reads as a command starts none).
    fn attribution(&self, i: usize) -> Option<usize> {
        quotes::attribution(&self.window(i), 0)
            .filter(|_| !command::reads_as_command(self.lines[i]))
            .map(|(_, n)| n)
    }

    /// The contents of the lines an attribution starting at line `i` may
    /// take: up to four, of line `i`'s quote level.
    fn window(&self, i: usize) -> Vec<&str> {
        let key = &self.marks[i].0;
        self.marks[i..]
            .iter()
            .take(4)
            .take_while(|(k, _)| k == key)
            .map(|(_, c)| *c)
            .collect()
    }

    /// The first line below the separator or header block at line `i`
    /// and its header lines (those right below it, up to a blank line):
    /// where the old mail's text starts. Lines of the text shaped like
    /// headers (`Last move: 61-34`) are the text's.
    fn below_headers(&self, i: usize) -> usize {
        let n = self.lines.len();
        let mut j = i + 1;
        while j < n && {
            let c = self.marks[j].1;
            !c.is_empty() && (quotes::label_value(c).is_some() || quotes::separator(c).is_some())
        } {
            j += 1;
        }
        (j..n).find(|&k| !self.marks[k].1.is_empty()).unwrap_or(n)
    }

    /// Whether line `i` starts an indented block of [`QUOTE_LINES`] lines
    /// or more: a quote, attributed or not (two indented lines may be a
    /// player's own).
    fn indented_quote(&self, i: usize) -> bool {
        self.marks[i].0 == " "
            && self.blocks.of_line[i].is_some_and(|b| {
                let (start, last) = self.blocks.spans[b];
                start == i
                    && self.marks[start..=last]
                        .iter()
                        .filter(|(_, c)| !c.is_empty())
                        .count()
                        >= QUOTE_LINES
            })
    }

    /// At line `i` of a `|`, TAB or indented block: the line to read on from. The
    /// block is dropped, and its marker noted in `old`, when it is a quote:
    /// [`QUOTE_LINES`] lines or more, or a mail quoted whole (a header
    /// block or a separator in it); else it is read on as the player's
    /// (`| 22-15`, a TAB-indented move).
    fn skip_block(&self, i: usize, drop: &mut [bool], old: &mut Vec<Option<char>>) -> usize {
        let Some((start, last)) = self.blocks.of_line[i].map(|b| self.blocks.spans[b]) else {
            return i + 1;
        };
        if start != i {
            return i + 1;
        }
        let contents: Vec<&str> = self.marks[start..=last].iter().map(|(_, c)| *c).collect();
        let lines = contents.iter().filter(|c| !c.is_empty()).count();
        let old_mail = lines >= QUOTE_LINES
            || (0..contents.len()).any(|k| {
                quotes::separator(contents[k]).is_some()
                    || quotes::header_block(&contents, k).is_some()
            });
        if !old_mail {
            return i + 1;
        }
        drop[start..=last].fill(true);
        old.push(outer(&self.marks[i].0));
        last + 1
    }

    /// Unmarked old mail starts at line `at`, its text at line `body` (below
    /// its attribution, separator or header lines): everything from `at`
    /// down is dropped, whatever pbem remembers of it.
    ///
    /// Unless the player wrote no command above it, and the old mail is
    /// not their own (its opening lines do not name them): then a short
    /// paragraph down there that holds a command, before any older mail
    /// nested in this one, is the player's (a reply written into the old
    /// mail, or below it, with no quote marks to tell them apart). A line
    /// that ends a paragraph of old mail (`1-8.`) is no such paragraph.
    fn cut(&self, at: usize, body: usize, drop: &mut [bool]) {
        let (lines, marks) = (self.lines, self.marks);
        let answered_above = (0..at).any(|j| !drop[j] && is_short_command(lines[j]));
        drop[at..].fill(true);
        if answered_above || self.names_sender(at, body) {
            return;
        }
        let mut j = body;
        while j < lines.len() {
            if !marks[j].0.is_empty() || marks[j].1.is_empty() {
                j += 1;
                continue;
            }
            let end = (j..lines.len())
                .find(|&k| !marks[k].0.is_empty() || marks[k].1.is_empty())
                .unwrap_or(lines.len());
            if (j..end).any(|k| self.nested_old_mail(k)) {
                return;
            }
            if self.players_paragraph(j, end) {
                for k in (j..end).filter(|&k| is_short_command(marks[k].1)) {
                    drop[k] = false;
                }
            }
            j = end;
        }
    }

    /// Whether lines `from..to` (a paragraph) read as the player's own
    /// words inside old mail: a few lines, one of them a command and the
    /// others a few words each (a name, `thanks`).
    fn players_paragraph(&self, from: usize, to: usize) -> bool {
        let contents = &self.marks[from..to];
        contents.len() <= INTERLEAVED_LINES
            && contents.iter().any(|(_, c)| is_short_command(c))
            && contents
                .iter()
                .all(|(_, c)| is_short_command(c) || c.split_whitespace().count() <= 3)
    }

    /// Whether lines `from..to` (an attribution, or a header block: its
    /// `From` line, or its first when no label is known) name the sender:
    /// their own old mail. A header block's `To:` names them in pbem's.
    fn names_sender(&self, from: usize, to: usize) -> bool {
        let lines = &self.marks[from..to.min(self.lines.len())];
        let labelled: Vec<(&str, &str)> = lines
            .iter()
            .filter_map(|(_, c)| quotes::label_value(c))
            .collect();
        let headers = quotes::separator(self.marks[from].1).is_some()
            || quotes::header_block(self.lines, from).is_some();
        let writer: Vec<&str> = if labelled.is_empty() || !headers {
            lines.iter().map(|(_, c)| *c).collect()
        } else {
            let from_lines: Vec<&str> = labelled
                .iter()
                .filter(|(l, _)| quotes::is_from_label(l))
                .map(|(_, v)| *v)
                .collect();
            if from_lines.is_empty() {
                vec![labelled[0].1]
            } else {
                from_lines
            }
        };
        let text = writer.join(" ").to_lowercase();
        self.sender.iter().any(|s| text.contains(s.as_str()))
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
        quotes::attribution(&self.window(j), 0).is_some_and(|(r, _)| !r.generic())
    }

    /// The second layer: pbem's own lines (see [`super::strip_reply`]) and
    /// what belongs with them into `drop`. It only ever drops more.
    pub(super) fn drop_known(&self, known_at: &[bool], drop: &mut [bool]) {
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
        let stays = |i: usize| lines[i].trim().is_empty() || command::reads_as_command(lines[i]);
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
        && command::foreign::read(line).is_none()
        && matches!(command::parse_line(line), Ok(Some(_)))
}
