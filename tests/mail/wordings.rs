//! Every wording pbem's mail has had, read from the repository's git
//! history of `templates/` at test time, for the quoting test
//! ([`crate::quoting`]): a game runs for months, and a player answers a
//! mail pbem worded before its templates last changed, so a reply must be
//! read right whatever wording it quotes.
//!
//! Each template set of the history is worded three ways:
//!
//! - rendered for real: [`Templates::new`] on a folder of that commit's
//!   templates, each template with the context `tests/mail/phone.rs`
//!   gives it ([`crate::phone::context_of`]) and with one that flips its
//!   branches (the game over, not your turn, a tournament), the blocks of
//!   its `_words.txt` too (a value an old template uses and today's
//!   context lacks renders empty);
//! - as written: the same templates in a bare minijinja, without
//!   today's passes over the text (pbem sent its mail so before it
//!   learned to keep its lines inert, and an admin's template may be
//!   worded so);
//! - shaped ([`crate::shaped_wording::shaped`]): every branch's literal
//!   text, `{{ ... }}` filled with plausible values by name.
//!
//! Without `git` or without the history the tests that use this fail;
//! they never skip.

use crate::html_board::{Sample, sample};
use crate::shaped_wording::{Values, shaped};
use minijinja::{Environment, Value, context};
use pbem::mail::templates::Templates;
use pbem::rules::Rules;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

/// One mail's words: where they come from, what kind of mail, its
/// subject and its text part.
#[derive(Clone, Debug)]
pub struct Wording {
    /// `today (game)`, `rendered`, `as written`, `shaped`, `random`.
    pub source: &'static str,
    /// The commit (short) and template, or the game step.
    pub kind: String,
    pub subject: String,
    pub text: String,
}

/// The fewest commits of `templates/` the history must hold: it held 51
/// when this test was written, and history only grows.
const FEWEST_COMMITS: usize = 40;

/// One commit's template set: its short hash and its files (name, text).
pub struct TemplateSet {
    pub commit: String,
    pub files: Vec<(String, String)>,
}

/// Runs git in the repository; its output. Panics, loudly, when git is
/// missing or fails: the test needs the history.
fn git(args: &[&str], input: Option<String>) -> Vec<u8> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut child = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "the quoting test reads every wording pbem ever sent from the git history of \
                 templates/, and `git` does not run here ({e}): run the test in a git checkout \
                 with git installed"
            )
        });
    // Fed from a thread: git answers while it reads.
    let feeder = input.map(|text| {
        let mut stdin = child.stdin.take().unwrap();
        std::thread::spawn(move || stdin.write_all(text.as_bytes()))
    });
    let out = child.wait_with_output().unwrap();
    if let Some(f) = feeder {
        f.join().unwrap().unwrap();
    }
    assert!(
        out.status.success(),
        "`git {}` failed in {root}: {}\nthe quoting test needs the repository's history of \
         templates/ (a full clone, not a shallow one or an export)",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Every template set `templates/` has had, newest first, read with one
/// `git log`, a `git ls-tree` per commit and one `git cat-file --batch`.
pub fn template_history() -> Vec<TemplateSet> {
    let log = String::from_utf8(git(&["log", "--format=%h", "--", "templates"], None)).unwrap();
    let commits: Vec<&str> = log.lines().filter(|l| !l.is_empty()).collect();
    assert!(
        commits.len() >= FEWEST_COMMITS,
        "`git log -- templates` lists {} commits, fewer than the {FEWEST_COMMITS} the history \
         held when this test was written: a shallow clone? (git fetch --unshallow)",
        commits.len()
    );
    let mut wanted = Vec::new();
    for c in &commits {
        let tree =
            String::from_utf8(git(&["ls-tree", "--name-only", c, "templates/"], None)).unwrap();
        for path in tree.lines().filter(|p| p.ends_with(".txt")) {
            wanted.push((c.to_string(), path.to_string()));
        }
    }
    let input: String = wanted.iter().map(|(c, p)| format!("{c}:{p}\n")).collect();
    let out = git(&["cat-file", "--batch"], Some(input));
    let texts = batch_objects(&out, wanted.len());
    let mut sets: Vec<TemplateSet> = commits
        .iter()
        .map(|c| TemplateSet {
            commit: c.to_string(),
            files: Vec::new(),
        })
        .collect();
    for ((c, path), text) in wanted.iter().zip(texts) {
        let name = path.trim_start_matches("templates/").to_string();
        let set = sets.iter_mut().find(|s| &s.commit == c).unwrap();
        set.files.push((name, text));
    }
    sets
}

/// The objects of a `git cat-file --batch` answer, in order: each is a
/// line `<sha> <type> <size>`, the bytes, a newline.
fn batch_objects(out: &[u8], count: usize) -> Vec<String> {
    let mut texts = Vec::with_capacity(count);
    let mut at = 0;
    while at < out.len() {
        let end = at + out[at..].iter().position(|b| *b == b'\n').unwrap();
        let head = String::from_utf8_lossy(&out[at..end]).into_owned();
        let size: usize = head
            .split_whitespace()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("git cat-file: `{head}`"));
        texts.push(String::from_utf8_lossy(&out[end + 1..end + 1 + size]).into_owned());
        at = end + 1 + size + 1;
    }
    assert_eq!(texts.len(), count, "git cat-file answered for fewer files");
    texts
}

/// The names of the blocks of a `_words.txt`.
fn blocks(words: &str) -> Vec<String> {
    words
        .split("{% block ")
        .skip(1)
        .filter_map(|b| b.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// A context whose branches go the other way from `base`'s: the game
/// over, not your turn, in a tournament, no legal moves shown.
fn flipped(base: &Value) -> Value {
    context! {
        over => true, your_turn => false, outcome => "won", next => (), legal => "",
        tournament => context! { round => 2, name => "autumn-cup-2026" },
        yours => true, wait => true, shown => "13-21 please", mode => "daily", hour => 18,
        ..base.clone()
    }
}

/// What rendering a history gave: the wordings, and the renders that
/// failed (template, error), which the test reports.
#[derive(Default)]
pub struct Rendered {
    pub wordings: Vec<Wording>,
    pub failed: Vec<String>,
}

/// Every template set of `history` rendered for real and as written,
/// each set with the board of one game (in turn), and every template file
/// it ever had shaped.
pub fn render_history(history: &[TemplateSet]) -> Rendered {
    let today = Templates::with_strictness(None, false);
    let samples: Vec<Sample> = Rules::ALL.iter().map(|r| sample(*r, 12)).collect();
    let mut out = Rendered::default();
    for (i, set) in history.iter().enumerate() {
        let s = &samples[i % samples.len()];
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in &set.files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        render_for_real(set, &today, s, dir.path(), &mut out);
        render_as_written(set, &today, s, &mut out);
    }
    // Each distinct file once: most commits change one or two.
    let mut files: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
    for set in history {
        for (name, text) in &set.files {
            files.entry(text.as_str()).or_insert((&set.commit, name));
        }
    }
    let mut values = Values::new(&samples);
    for (text, (commit, name)) in files {
        let (subject, body) = shaped(name, text, &mut values);
        out.wordings.push(Wording {
            source: "shaped",
            kind: format!("{commit} {name}"),
            subject,
            text: body,
        });
    }
    out
}

/// `set` rendered by [`Templates`] from a folder holding it.
fn render_for_real(
    set: &TemplateSet,
    today: &Templates,
    s: &Sample,
    dir: &Path,
    out: &mut Rendered,
) {
    // Old template sets with today's contexts: a value an old set
    // prints may be gone, and renders as nothing, as it did then.
    let t = Templates::with_strictness(Some(dir.to_path_buf()), false);
    for (file, text) in &set.files {
        let Some(name) = file.strip_suffix(".txt") else {
            continue;
        };
        let base = crate::phone::context_of(today, s, name);
        if name == "_words" {
            for block in blocks(text) {
                for ctx in [base.clone(), flipped(&base)] {
                    match t.words(&block, ctx) {
                        Ok(w) => out.wordings.push(Wording {
                            source: "rendered",
                            kind: format!("{} _words.txt {block}", set.commit),
                            subject: String::new(),
                            text: w,
                        }),
                        Err(e) => out.failed.push(format!("{} {e}", set.commit)),
                    }
                }
            }
            continue;
        }
        if name.starts_with('_') {
            continue;
        }
        for ctx in [base.clone(), flipped(&base)] {
            match t.render(name, ctx) {
                Ok(r) => out.wordings.push(Wording {
                    source: "rendered",
                    kind: format!("{} {file}", set.commit),
                    subject: r.subject,
                    text: r.text,
                }),
                Err(e) => out.failed.push(format!("{} {e}", set.commit)),
            }
        }
    }
}

/// `set` rendered by a bare minijinja: the text as its templates write
/// it, before any pass of today's.
fn render_as_written(set: &TemplateSet, today: &Templates, s: &Sample, out: &mut Rendered) {
    let mut env = Environment::new();
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Lenient);
    env.add_filter(
        "wrap",
        |text: String, width: Option<usize>, indent: Option<String>| {
            wrap(&text, width.unwrap_or(72), &indent.unwrap_or_default())
        },
    );
    for (name, text) in &set.files {
        let (first, body) = text.split_once('\n').unwrap_or((text, ""));
        match first.strip_prefix("Subject:") {
            Some(subject) => {
                let _ =
                    env.add_template_owned(format!("subject:{name}"), subject.trim().to_string());
                let _ =
                    env.add_template_owned(name.clone(), body.trim_start_matches('\n').to_string());
            }
            None => {
                let _ = env.add_template_owned(name.clone(), text.clone());
            }
        }
    }
    for (file, _) in &set.files {
        let name = file.trim_end_matches(".txt");
        if name.starts_with('_') {
            continue;
        }
        let base = crate::phone::context_of(today, s, name);
        for ctx in [base.clone(), flipped(&base)] {
            let text = env.get_template(file).and_then(|t| t.render(&ctx));
            let subject = env
                .get_template(&format!("subject:{file}"))
                .and_then(|t| t.render(&ctx))
                .unwrap_or_default();
            match text {
                Ok(text) => out.wordings.push(Wording {
                    source: "as written",
                    kind: format!("{} {file}", set.commit),
                    subject: subject.replace('\n', " "),
                    text,
                }),
                Err(e) => out
                    .failed
                    .push(format!("{} {file} (as written): {e}", set.commit)),
            }
        }
    }
}

/// `text`'s lines longer than `width` broken at spaces, the lines after a
/// break starting with `indent` (the `wrap` filter's way).
pub fn wrap(text: &str, width: usize, indent: &str) -> String {
    let width = width.saturating_sub(indent.len()).max(20);
    let mut out = Vec::new();
    for line in text.split('\n') {
        if line.chars().count() <= width {
            out.push(line.trim_end().to_string());
            continue;
        }
        let lead: String = line.chars().take_while(|c| *c == ' ').collect();
        let mut cur = lead.clone();
        for w in line.split_whitespace() {
            if cur.trim().is_empty() {
                cur.push_str(w);
            } else if cur.chars().count() + 1 + w.chars().count() > width {
                out.push(std::mem::replace(&mut cur, format!("{lead}{w}")));
            } else {
                cur.push(' ');
                cur.push_str(w);
            }
        }
        out.push(cur);
    }
    out.join(&format!("\n{indent}"))
}

/// `wordings` with each text once (the first of its wording kept).
pub fn distinct(wordings: Vec<Wording>) -> Vec<Wording> {
    let mut seen = BTreeSet::new();
    wordings
        .into_iter()
        .filter(|w| !w.text.trim().is_empty() && seen.insert(w.text.clone()))
        .collect()
}
