//! The wording of every mail pbem sends lives in `templates/` and is
//! rendered by minijinja. The defaults are built into the binary; an admin
//! can point pbem at a folder of their own, whose files take precedence
//! (missing ones fall back to the defaults).
//!
//! Each template's first line is `Subject: ...`, then a blank line, then
//! the plain-text body.
//!
//! This is the compose step of the mail path: the adjudicator decides what
//! to send as data ([`crate::reply::Letter`]), [`Templates::compose`] words
//! it; the words that go into other templates (the reasons of refusals,
//! the texts of answers) are the blocks of `_words.txt`
//! ([`Templates::words`]).

use crate::lines;
use crate::reply::{Letter, Reply};
use minijinja::{Environment, Value};
use std::path::PathBuf;

/// The built-in templates, by file name.
pub const DEFAULTS: &[(&str, &str)] = &[
    (
        "_conditions.txt",
        include_str!("../../templates/_conditions.txt"),
    ),
    ("_footer.txt", include_str!("../../templates/_footer.txt")),
    ("_tally.txt", include_str!("../../templates/_tally.txt")),
    ("_ignored.txt", include_str!("../../templates/_ignored.txt")),
    ("_thread.txt", include_str!("../../templates/_thread.txt")),
    ("_words.txt", include_str!("../../templates/_words.txt")),
    ("analysis.txt", include_str!("../../templates/analysis.txt")),
    (
        "analysis_table.txt",
        include_str!("../../templates/analysis_table.txt"),
    ),
    ("board.txt", include_str!("../../templates/board.txt")),
    (
        "challenge.txt",
        include_str!("../../templates/challenge.txt"),
    ),
    (
        "challenged.txt",
        include_str!("../../templates/challenged.txt"),
    ),
    (
        "conditions.txt",
        include_str!("../../templates/conditions.txt"),
    ),
    ("confirm.txt", include_str!("../../templates/confirm.txt")),
    ("damaged.txt", include_str!("../../templates/damaged.txt")),
    (
        "dead_letter.txt",
        include_str!("../../templates/dead_letter.txt"),
    ),
    ("declined.txt", include_str!("../../templates/declined.txt")),
    ("digest.txt", include_str!("../../templates/digest.txt")),
    ("draw.txt", include_str!("../../templates/draw.txt")),
    ("help.txt", include_str!("../../templates/help.txt")),
    ("info.txt", include_str!("../../templates/info.txt")),
    ("key_used.txt", include_str!("../../templates/key_used.txt")),
    ("moved.txt", include_str!("../../templates/moved.txt")),
    ("over.txt", include_str!("../../templates/over.txt")),
    ("paused.txt", include_str!("../../templates/paused.txt")),
    ("rejected.txt", include_str!("../../templates/rejected.txt")),
    ("reminder.txt", include_str!("../../templates/reminder.txt")),
    (
        "series_over.txt",
        include_str!("../../templates/series_over.txt"),
    ),
    ("spoofed.txt", include_str!("../../templates/spoofed.txt")),
    ("started.txt", include_str!("../../templates/started.txt")),
    ("takeback.txt", include_str!("../../templates/takeback.txt")),
    (
        "unanswered.txt",
        include_str!("../../templates/unanswered.txt"),
    ),
    (
        "withdrawn.txt",
        include_str!("../../templates/withdrawn.txt"),
    ),
];

use crate::reply::Rendered;

/// The file of the words pbem puts into other templates, one block each.
const WORDS: &str = "_words.txt";

/// Whether a value a template prints must exist. In use a missing value
/// renders as nothing, so a mail still goes out; under test (the unit
/// tests, and `PBEM_STRICT_TEMPLATES=1`, which the repository's cargo
/// settings give every `cargo test` and `cargo run`) it is an error, so a
/// misspelt key fails a test instead of leaving a gap in a mail. A
/// template may still ask whether a value is there (`{% if x %}`,
/// `x is defined`).
fn strict() -> bool {
    cfg!(test) || std::env::var_os("PBEM_STRICT_TEMPLATES").is_some_and(|v| v == "1")
}

/// The source of template `name`: a file of [`DEFAULTS`] (the admin's
/// copy in `dir` when there is one), or its first line's subject as
/// `subject:<file>`. `None` for any other name, so no name can reach
/// outside `dir`.
fn source(dir: Option<&std::path::Path>, name: &str) -> Option<String> {
    let (file, subject) = match name.strip_prefix("subject:") {
        Some(file) => (file, true),
        None => (name, false),
    };
    let default = DEFAULTS.iter().find(|(n, _)| *n == file)?.1;
    let custom = dir.and_then(|d| std::fs::read_to_string(d.join(file)).ok());
    let text = custom.as_deref().unwrap_or(default);
    if file == WORDS {
        // Its blocks are rendered one at a time, each with its own
        // values ([`Templates::words`]); the file as a whole is never
        // shown, and rendering it would evaluate every block with the
        // values of one.
        return (!subject).then(|| format!("{{% if false %}}{text}{{% endif %}}"));
    }
    // The subject line is its own template, rendered apart from the
    // body: no value can carry a line break into the header. A bad
    // custom template shows up when it is rendered.
    let (first, body) = text.split_once('\n').unwrap_or((text, ""));
    match (first.strip_prefix("Subject:"), subject) {
        (Some(line), true) => Some(line.trim().to_string()),
        (Some(_), false) => Some(body.strip_prefix('\n').unwrap_or(body).to_string()),
        (None, true) => None,
        (None, false) => Some(text.to_string()),
    }
}

/// The template set.
pub struct Templates {
    env: Environment<'static>,
    /// Whether an admin's folder may override the built-in templates.
    custom: bool,
}

/// A template that failed to render: a bad admin template, usually.
#[derive(Debug, thiserror::Error)]
#[error("template {name}: {message}")]
pub struct TemplateError {
    pub name: String,
    pub message: String,
}

impl Templates {
    /// The built-in templates, overridden by files in `dir` when given.
    /// Only the known template names are read from `dir`, so no name can
    /// reach outside it.
    pub fn new(dir: Option<PathBuf>) -> Templates {
        Templates::with_strictness(dir, strict())
    }

    /// [`Templates::new`], strict or not as asked ([`strict`]).
    ///
    /// Nothing is read or parsed here: a template is loaded the first
    /// time it is rendered ([`source`]), so a process that sends one
    /// kind of mail parses one template, not the whole set.
    pub fn with_strictness(dir: Option<PathBuf>, strict: bool) -> Templates {
        let custom = dir.is_some();
        let mut env = Environment::new();
        env.set_undefined_behavior(if strict {
            minijinja::UndefinedBehavior::SemiStrict
        } else {
            minijinja::UndefinedBehavior::Lenient
        });
        env.add_filter("wrap", wrap);
        env.add_filter("pad", pad);
        env.set_loader(move |name| Ok(source(dir.as_deref(), name)));
        Templates { env, custom }
    }

    /// The compose step: the mail `letter` stands for, worded by its
    /// template.
    ///
    /// # Errors
    /// [`TemplateError`] for a missing or broken template.
    pub fn compose(&self, letter: &Letter) -> Result<Reply, TemplateError> {
        Ok(Reply {
            kind: letter.kind,
            to: letter.to.clone(),
            rendered: self.render(letter.template, letter.context.clone())?,
            game: letter.game.clone(),
            reply_to: letter.reply_to.clone(),
            head: None,
        })
    }

    /// The words of block `block` of `_words.txt`, for a value that goes
    /// into another template (the reason of a refusal, the text of an
    /// answer): rendered as written, the template that shows them tidies
    /// them.
    ///
    /// # Errors
    /// [`TemplateError`] for a missing or broken block.
    pub fn words(&self, block: &str, ctx: Value) -> Result<String, TemplateError> {
        let err = |message: String| TemplateError {
            name: format!("_words.txt, block {block}"),
            message,
        };
        let t = self
            .env
            .get_template(WORDS)
            .map_err(|e| err(e.to_string()))?;
        let mut rendered = t.render_captured(ctx).map_err(|e| err(e.to_string()))?;
        rendered
            .with_state_mut(|state| state.render_block(block))
            .map_err(|e| err(e.to_string()))
    }

    /// Template `name` (without `.txt`) rendered as one header line: as
    /// written, no pass of the body's (a subject is not wrapped at 72
    /// columns), control characters as spaces.
    ///
    /// # Errors
    /// [`TemplateError`] for a missing or broken template.
    pub fn line(&self, name: &str, ctx: Value) -> Result<String, TemplateError> {
        let (_, text) = self.as_written(&format!("{name}.txt"), &ctx)?;
        Ok(one_line(&text))
    }

    /// Template file `file` and its text rendered with `ctx` as written,
    /// before any pass.
    fn as_written(
        &self,
        file: &str,
        ctx: &Value,
    ) -> Result<(minijinja::Template<'_, '_>, String), TemplateError> {
        let err = |message: String| TemplateError {
            name: file.to_string(),
            message,
        };
        let t = self
            .env
            .get_template(file)
            .map_err(|e| err(e.to_string()))?;
        let text = t.render(ctx).map_err(|e| err(e.to_string()))?;
        Ok((t, text))
    }

    /// Renders template `name` (without `.txt`).
    ///
    /// # Errors
    /// [`TemplateError`] for a missing or broken template.
    pub fn render(&self, name: &str, ctx: Value) -> Result<Rendered, TemplateError> {
        let file = format!("{name}.txt");
        let err = |message: String| TemplateError {
            name: file.clone(),
            message,
        };
        let body = self
            .env
            .get_template(&file)
            .map_err(|e| err(e.to_string()))?;
        let value = ctx.get_attr("board").ok();
        let board = value.as_ref().and_then(super::board::value_of);
        // With a board, the body worded with a mark in its place (for
        // the HTML part), and the text from it where that is sure to be
        // the text the body words with the board ([`as_text`]).
        let marked = match board {
            Some(b) => Some(
                body.render(minijinja::context! { board => b.marked.clone(), ..ctx.clone() })
                    .map_err(|e| err(e.to_string()))?,
            ),
            None => None,
        };
        let text = match (board, &marked) {
            (Some(b), Some(m)) if !self.custom => as_text(m, b),
            _ => None,
        };
        let text = match text {
            Some(t) => {
                debug_assert_eq!(Some(&t), body.render(&ctx).ok().as_ref(), "{file}");
                t
            }
            None => body.render(&ctx).map_err(|e| err(e.to_string()))?,
        };
        let note = self.note(&ctx)?;
        let text = noted(&text, note.as_deref());
        let subject = match self.env.get_template(&format!("subject:{file}")) {
            Ok(t) => t.render(&ctx).map_err(|e| err(e.to_string()))?,
            Err(_) if file.starts_with('_') => String::new(),
            Err(_) => return Err(err("the first line must be `Subject: ...`".into())),
        };
        // Subjects are single lines: no header injection from any value.
        let subject = one_line(&subject);
        let html = match (board, &marked) {
            (Some(b), Some(m)) => board_html(m, b, note.as_deref()),
            _ => None,
        };
        Ok(Rendered {
            subject,
            text: inert(fit(&tidy(&text))),
            html,
        })
    }

    /// The note of the lines of the reader's mail that pbem left out
    /// (`ignored` in the context), as `_ignored.txt` words it: one note
    /// for every template, an admin's own among them.
    fn note(&self, ctx: &Value) -> Result<Option<String>, TemplateError> {
        match ctx.get_attr("ignored") {
            Ok(v) if !v.is_undefined() && !v.is_none() => {
                Ok(Some(self.as_written("_ignored.txt", ctx)?.1))
            }
            _ => Ok(None),
        }
    }
}

/// A mail's `text` with `note` above its closing part: its first `--`
/// line (the footer) or fence of dashes (a game's record), else at its
/// end, a blank line on each side.
fn noted(text: &str, note: Option<&str>) -> String {
    let Some(note) = note else {
        return text.to_string();
    };
    let lines: Vec<&str> = lines::lines(text).collect();
    let at = lines
        .iter()
        .position(|l| l.trim_end() == "--" || super::html::is_fence(l))
        .unwrap_or(lines.len());
    format!(
        "{}\n\n{}\n\n{}\n",
        lines[..at].join("\n"),
        note.trim(),
        lines[at..].join("\n")
    )
}

/// `text` as one line: control characters (line breaks) as spaces,
/// trimmed.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// The text a body worded with `board` in its context gives, from
/// `marked`, the body worded with the board's [`BoardValue::marked`] in
/// its place: the board's caption and mark line swapped for its whole
/// diagram. `None` unless the caption and mark stand in `marked` once,
/// as they were printed, and the board prints as something: a body that
/// changes the value as it prints it (a filter) or asks what it is is
/// worded again with the board itself. Used for the built-in templates
/// only, each held to wording again by every test that renders it.
///
/// [`BoardValue::marked`]: super::board::BoardValue::marked
fn as_text(marked: &str, board: &super::board::BoardValue) -> Option<String> {
    // The mark line is in the board's marked words once, at their end:
    // they are there once where it is there once, ending with it.
    static MARK: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(super::board::MARK));
    let mut found = MARK.find_iter(marked.as_bytes());
    let end = found.next()? + super::board::MARK.len() + 1;
    let start = end.checked_sub(board.marked.len())?;
    let once = found.next().is_none() && marked.get(start..end) == Some(board.marked.as_str());
    (once && !board.text.is_empty())
        .then(|| [&marked[..start], &board.text, &marked[end..]].concat())
}

/// The HTML part of a mail whose context shows a board
/// ([`super::board`]), from `marked`, the mail worded with a mark line in
/// place of the ASCII board and its legend (with the same `note`, through
/// the same passes as the text): paragraphs and blocks
/// ([`super::html::blocks`]) around the board's table and the table's own
/// legend, styled by the board's rules with the words'. `None` when the
/// mark is not there: the HTML part is then made from the text alone.
fn board_html(
    marked: &str,
    board: &super::board::BoardValue,
    note: Option<&str>,
) -> Option<String> {
    let text = inert(fit(&tidy(&noted(marked, note))));
    let lines: Vec<&str> = lines::lines(&text).collect();
    let at = lines.iter().position(|l| *l == super::board::MARK)?;
    let words = |part: &[&str]| super::html::blocks(&part.join("\n"));
    let (above, below) = (words(&lines[..at]), words(&lines[at + 1..]));
    let html = [&above, &board.table, &board.legend, &below]
        .map(String::as_str)
        .concat();
    let style = [super::html::TEXT_STYLE, &board.style].concat();
    Some(super::html::document(&style, &html))
}

/// The width of the plain text, and the most a line may take when it
/// cannot be broken (a board row, a word longer than the width).
pub const WIDTH: usize = 72;
pub const MAX_WIDTH: usize = 78;

/// The last pass over a mail's plain text: every line longer than
/// [`WIDTH`] broken at spaces, whatever template or value it came from;
/// the rest of the line under its indent (and under the text of a point
/// of a list), never starting a line with a number that reads as the
/// next point of a list. A long line of prose at the margin takes the
/// lines of its paragraph below it along (a text wrapped a little wider,
/// such as a game's summary, reads as one paragraph, not as a long line
/// and a word). Rows of an ASCII board are never broken, nor what stands
/// between fences of dashes (the record of a game, which must read back
/// as it was written).
fn fit(text: &str) -> String {
    let lines: Vec<&str> = lines::lines(text).collect();
    let mut out = String::with_capacity(text.len() + 16);
    let mut fenced = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if super::html::is_fence(line) {
            fenced = !fenced;
        }
        // (A line no longer than the width in bytes is no longer in
        // characters.)
        let short = line.len() <= WIDTH || line.chars().count() <= WIDTH;
        if short || super::html::is_board_row(line) || fenced {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if prose(line) {
            while i < lines.len() && prose(lines[i]) {
                words.extend(lines[i].split_whitespace());
                i += 1;
            }
        }
        let indent = line.len() - line.trim_start().len();
        let first = words.first().copied().unwrap_or("");
        let point = first == "-" || first == "*" || numbered(first);
        let hang = indent + if point { first.len() + 1 } else { 0 };
        fill(&mut out, &words, indent, hang);
    }
    out
}

/// A line of a paragraph of prose at the margin: text that starts at the
/// left edge and is no point of a list, no row of a board, no fence, no
/// quote.
fn prose(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    !line.starts_with(char::is_whitespace)
        && !first.is_empty()
        && !["-", "*", "|", ">", "=="]
            .iter()
            .any(|m| first.starts_with(m))
        && !numbered(first)
        && !super::html::is_board_row(line)
        && !super::html::is_fence(line)
}

/// `words` as lines of at most [`WIDTH`], the first after `indent`
/// spaces, the others after `hang`.
fn fill(out: &mut String, words: &[&str], indent: usize, hang: usize) {
    let mut at = 0;
    let mut lead = indent;
    while at < words.len() {
        let mut end = at;
        let mut len = lead;
        while end < words.len() {
            let add = words[end].chars().count() + usize::from(end > at);
            if end > at && len + add > WIDTH {
                break;
            }
            len += add;
            end += 1;
        }
        // A line of its own for no word that would read as a point.
        while end < words.len() && end > at + 1 && numbered(words[end]) {
            end -= 1;
        }
        out.push_str(&" ".repeat(lead));
        out.push_str(&words[at..end].join(" "));
        out.push('\n');
        at = end;
        lead = hang;
    }
}

/// `1.`, `12.`: what starts a point of a numbered list.
fn numbered(word: &str) -> bool {
    word.strip_suffix('.')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The `wrap` filter, `{{ reason | wrap(72, "  ") }}` or
/// `{% filter wrap %}...{% endfilter %}`: lines longer than `width`
/// (default 72) broken at spaces, every line after the first starting with
/// `indent` (for a value placed after an indent in the template).
fn wrap(text: String, width: Option<usize>, indent: Option<String>) -> String {
    let indent = indent.unwrap_or_default();
    let width = width.unwrap_or(72).saturating_sub(indent.len()).max(20);
    lines::pieces(&text, b'\n')
        .map(|line| {
            if line.len() <= width {
                line.trim_end().to_string()
            } else {
                crate::diagram::wrap(line, width).trim_end().to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        .replace('\n', &format!("\n{indent}"))
}

/// `value` padded with spaces to `width` characters: on the left (set
/// to the right) for a width above 0, on the right for one below (a
/// table's columns); a longer value as it is.
fn pad(value: Value, width: i64) -> String {
    let text = value.to_string();
    let w = usize::try_from(width.unsigned_abs()).unwrap_or(0);
    if width < 0 {
        format!("{text:<w$}")
    } else {
        format!("{text:>w$}")
    }
}

/// [`super::command::reads_as_command`], remembered: the mails of a poll
/// share most of their lines (a template's prose, a board's frame), and a
/// line reads the same however often it is asked. At most
/// [`JUDGED_LINES`] are kept (then forgotten all at once). Only pbem's own
/// lines: a stranger's (the quote reader's) are never kept, so a mail of
/// long lines cannot fill it.
fn reads_as_command(line: &str) -> bool {
    thread_local! {
        static JUDGED: std::cell::RefCell<std::collections::HashMap<String, bool, super::quick::Quick>> =
            std::cell::RefCell::default();
    }
    JUDGED.with_borrow_mut(|judged| {
        if let Some(&reads) = judged.get(line) {
            return reads;
        }
        let reads = super::command::reads_as_command(line);
        if judged.len() >= JUDGED_LINES {
            judged.clear();
        }
        judged.insert(line.to_string(), reads);
        reads
    })
}

/// How many lines [`reads_as_command`] remembers: a few hundred replies'
/// worth, under a megabyte.
const JUDGED_LINES: usize = 8192;

/// pbem's own words are inert: no line of a mail it sends may read as a
/// command, however the reply quotes it. The templates are written so;
/// this pass makes sure of it whatever a template or a value holds (an
/// admin's template, a wrap that starts a line with `resign`): a line that
/// reads as a command takes the last word of the line above it in the
/// same paragraph while it fits [`WIDTH`], and, failing that, is marked
/// with a leading `- `. A line that the mark takes past the width gives
/// its end to a line of its own below, which is checked in turn.
fn inert(text: String) -> String {
    // Nearly always so: no line reads as a command, and the text is
    // already as the pass below would join it.
    if text.ends_with('\n') && !text.contains('\r') && !lines::lines(&text).any(reads_as_command) {
        return text;
    }
    let mut lines: Vec<String> = lines::lines(&text).map(str::to_string).collect();
    let mut i = 0;
    while i < lines.len() {
        if !reads_as_command(&lines[i]) {
            i += 1;
            continue;
        }
        for _ in 0..3 {
            let Some(prev) = i.checked_sub(1).map(|p| lines[p].trim_end().to_string()) else {
                break;
            };
            let Some((head, last)) = prev.rsplit_once(' ').filter(|(h, _)| !h.trim().is_empty())
            else {
                break;
            };
            let indent: String = lines[i].chars().take_while(|c| *c == ' ').collect();
            let pulled = format!("{indent}{last} {}", lines[i].trim_start());
            // Never past the width: the line would be broken again where
            // it was, and the word pulled back, for ever.
            if pulled.chars().count() > WIDTH {
                break;
            }
            lines[i] = pulled;
            lines[i - 1] = head.trim_end().to_string();
            if !reads_as_command(&lines[i]) {
                break;
            }
        }
        if reads_as_command(&lines[i]) {
            lines[i] = format!("- {}", lines[i].trim_start());
        }
        // A word wider than a line (a quoted 10,000-character move)
        // stays as it is: no break can shorten it.
        let breakable = lines[i]
            .split_whitespace()
            .all(|w| w.chars().count() < WIDTH / 2);
        if lines[i].chars().count() > WIDTH && breakable && !super::html::is_board_row(&lines[i]) {
            let fitted = fit(&lines[i]);
            let parts: Vec<String> = lines::lines(&fitted).map(str::to_string).collect();
            lines.splice(i..=i, parts);
        }
        i += 1;
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// At most one blank line in a row, one newline at the end.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in lines::lines(text) {
        if line.trim().is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests;
