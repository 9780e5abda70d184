//! pbem's own words must never be read back as commands, whatever
//! wording of pbem's a reply quotes and however it quotes it.
//!
//! The real `pbem` binary plays a game by mail (challenge, accept, moves,
//! a draw offer, `board`, `moves`, `moves 13`, `help`, `games`, `rules`,
//! refusals of every kind, a reminder, a digest, the end of the game) and
//! every mail it sends a player is gathered. Then:
//!
//! (a) [`no_line_pbem_writes_is_a_command`]: every line of every such mail,
//!     as written and with quote prefixes taken off, is chatter for
//!     `pbem::mail::command::parse_line`;
//! (b) every wording pbem's mail ever had -- those mails, every commit of
//!     `templates/` in the git history rendered for real, as written and
//!     shaped ([`crate::wordings`]), and random wording in pbem's shapes
//!     ([`crate::shaped_wording`]) -- quoted back in every way
//!     ([`crate::quote_shapes`]: prefixes, attributions and header blocks
//!     in many languages, separators, a nested unmarked quote, the whole
//!     mail behind a TAB; top-posted, bottom-posted, interleaved) beside
//!     the player's own `13-21`, `board` or chatter, parsed as pbem parses
//!     an inbound mail (`inbound::parse`, then `command::parse` of its
//!     body), gives exactly the player's own commands, no error, and a
//!     mail with a command is not taken for an automated one. The main test runs with
//!     pbem's memory of its sent lines empty (the quote's shape alone must
//!     tell); the other with the memory a poll has (`strip_known`). Every
//!     style x attribution and every wording runs at least once; a seeded
//!     sample (`QUOTING_SEED`, `QUOTING_SAMPLES`) covers the other
//!     combinations. Unmarked quotes that no reader could tell from the
//!     player's text are left out and counted ([`ambiguous`]).
//!
//! Each prints its size (`--nocapture`) and lists, on failure, what went
//! wrong grouped, an example of each and the first failure in full
//! (`QUOTING_SHOW=words`: the first three whose description holds them;
//! `QUOTING_DUMP=FILE`: every failure, a line each, to FILE.memory-off and
//! FILE.memory-on).
//!
//! ```text
//! cargo test --test mail quoting::
//! QUOTING_SEED=7 QUOTING_SAMPLES=50000 cargo test --test mail quoting:: -- --nocapture
//! QUOTING_SHOW="read \`1-8\`" cargo test --test mail quoting::every_wording
//! ```

use crate::common::pbem_setup;

use crate::quote_shapes::{
    ATTRIBUTIONS, Combo, LAYOUTS, NO_ATTRIBUTION, STYLES, UNMARKED, ambiguous, body, own, raw_mail,
};
use crate::shaped_wording;
use crate::wordings::{self, Wording};
use pbem::mail::command;
use pbem::mail::inbound;
use pbem_setup::{PBEM, Pbem, Sent};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::LazyLock;

/// One mail pbem sent a player: what kind, and its text part.
#[derive(Clone, Debug)]
struct Mail {
    kind: String,
    subject: String,
    text: String,
}

/// The game of [`gather`] under way: pbem, the mails gathered, and the
/// clock in minutes from 2026-11-04 00:00 (a Wednesday).
struct Gathering {
    p: Pbem,
    out: Vec<Mail>,
    minutes: u32,
}

impl Gathering {
    /// Delivers `mail` if any, polls ten minutes later and gathers what
    /// pbem sent (something, unless `kind` is "quiet").
    fn step(&mut self, kind: &str, mail: Option<String>) -> Vec<Sent> {
        let before = self.p.sent();
        if let Some(m) = mail {
            self.p.deliver(m.as_bytes());
        }
        self.minutes += 10;
        let m = self.minutes;
        let now = format!(
            "2026-11-{:02}T{:02}:{:02}:00Z",
            4 + m / (24 * 60),
            (m / 60) % 24,
            m % 60
        );
        let log = self.p.poll(&now);
        let sent = self.p.sent_since(&before);
        assert!(
            !sent.is_empty() || kind == "quiet",
            "step `{kind}` sent nothing:\n{log}"
        );
        self.out.extend(sent.iter().map(|s: &Sent| Mail {
            kind: format!("{kind} (to {})", s.to),
            subject: s.subject(),
            text: s.text(),
        }));
        sent
    }
}

/// The `n`th player's mail of the game, from `from` to `to`.
fn player_mail(n: &mut u32, from: &str, to: &str, body: &str) -> String {
    *n += 1;
    let name = if from.starts_with("alice") {
        "Alice Example"
    } else {
        "Bob Example"
    };
    format!(
        "From: {name} <{from}>\nTo: {to}\nSubject: pbem\nDate: Wed, 4 Nov 2026 09:00:00 +0000\n\
         Message-ID: <quoting.{n}@example.org>\nMIME-Version: 1.0\n\
         Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n{body}\n"
    )
}

/// Where pbem asks a player to reply: the Reply-To of its last mail to `who`.
fn reply_to(sent: &[Sent], who: &str) -> String {
    let s = sent
        .iter()
        .rev()
        .find(|s| s.to == who)
        .unwrap_or_else(|| panic!("no mail to {who}"));
    let m = mail_parser::MessageParser::default().parse(&s.raw).unwrap();
    m.reply_to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or(PBEM)
        .to_string()
}

/// Plays the game that makes every kind of mail; the mails, in order.
fn gather() -> Vec<Mail> {
    let p = Pbem::with_settings(|s| {
        s.replace("replies_per_hour = 20", "replies_per_hour = 0")
            .replace("replies_per_day = 50", "replies_per_day = 0")
    });
    let mut g = Gathering {
        p,
        out: Vec::new(),
        minutes: 9 * 60,
    };
    let mut n = 0;
    let a = "alice@example.org";
    let b = "bob@example.org";

    let s = g.step(
        "challenge",
        Some(player_mail(
            &mut n,
            a,
            PBEM,
            "challenge boom-and-zoom bob@example.org first 3d",
        )),
    );
    let bob_to = reply_to(&s, b);
    let s = g.step("accept", Some(player_mail(&mut n, b, &bob_to, "accept")));
    let alice_to = reply_to(&s, a);
    let bob_to = reply_to(&s, b);
    for (kind, who, body) in [
        ("move", a, "6-13"),
        ("not your turn", a, "14-22"),
        ("move and draw offer", b, "61-34\ndraw"),
        ("decline draw", a, "decline draw"),
        ("board", a, "board"),
        ("moves", a, "moves"),
        ("moves 13", a, "moves 13"),
        ("help", a, "help"),
        ("games", a, "games"),
        ("rules", a, "rules"),
        ("rules game", a, "rules boom-and-zoom"),
        ("illegal move", a, "2-34"),
        ("malformed move", a, "13-x21"),
        ("no command", a, "Thanks, thinking about it."),
        ("unknown game", a, "rules chess"),
        ("no draw offer", a, "accept draw"),
        ("timezone", a, "timezone Europe/Berlin"),
        ("vacation", b, "vacation 2"),
        ("vacation off", b, "vacation off"),
        ("digest on", b, "digest per-poll"),
        ("move, digest", a, "13-21"),
        ("draw offer", b, "34-26\ndraw"),
    ] {
        let to = if who == a { &alice_to } else { &bob_to };
        g.step(kind, Some(player_mail(&mut n, who, to, body)));
    }
    // The clock: 3 days a move; polls through the turn bring the reminders.
    g.minutes += 36 * 60;
    g.step("reminder", None);
    g.minutes += 30 * 60;
    g.step("quiet", None);
    g.step("resign", Some(player_mail(&mut n, a, &alice_to, "resign")));
    // A stranger's help, and a challenge pbem refuses.
    g.step(
        "stranger help",
        Some(player_mail(&mut n, "carol@example.org", PBEM, "help")),
    );
    g.step(
        "challenge refused",
        Some(player_mail(
            &mut n,
            a,
            PBEM,
            "challenge chess bob@example.org",
        )),
    );
    g.out
}

static MAILS: LazyLock<Vec<Mail>> = LazyLock::new(gather);

/// The kinds every run must have gathered: a missing one means the game
/// above went another way than it should (a template or rule changed).
const KINDS: &[&str] = &[
    "news of a move",
    "game over",
    "board",
    "move list",
    "refusal",
    "help",
    "games",
    "rules",
    "challenge",
    "game begins",
    "draw",
    "reminder",
    "digest",
];

fn kinds_seen(mails: &[Mail]) -> Vec<&'static str> {
    let mut seen = Vec::new();
    for m in mails {
        // A game's mails share one subject; what happened is
        // the first line, the subject and the first line together.
        let t = m.text.to_lowercase();
        let s = format!(
            "{} | {}",
            m.subject.to_lowercase(),
            t.lines().next().unwrap_or("")
        );
        for (k, hit) in [
            ("news of a move", s.contains(" played ")),
            (
                "game over",
                s.contains("wins") || s.contains("resign") || s.contains("over"),
            ),
            ("board", s.contains("the board, as you asked")),
            ("move list", t.contains("legal moves")),
            ("refusal", s.contains("not accepted")),
            ("help", m.kind.starts_with("help")),
            ("games", m.kind.starts_with("games")),
            ("rules", m.kind.starts_with("rules")),
            ("challenge", s.contains("challenge")),
            ("game begins", s.contains("begins")),
            ("draw", s.contains("draw") || t.contains("offers a draw")),
            ("reminder", m.kind.starts_with("reminder")),
            ("digest", s.contains("your games")),
        ] {
            if hit && !seen.contains(&k) {
                seen.push(k);
            }
        }
    }
    seen
}

#[test]
fn every_kind_of_mail_is_gathered() {
    let _shared = crate::common::lock::shared();
    let seen = kinds_seen(&MAILS);
    let missing: Vec<&&str> = KINDS.iter().filter(|k| !seen.contains(k)).collect();
    let list: Vec<String> = MAILS
        .iter()
        .map(|m| format!("{}: {}", m.kind, m.subject))
        .collect();
    assert!(
        missing.is_empty(),
        "no mail of kind {missing:?} among:\n{}",
        list.join("\n")
    );
}

/// `line` with leading quote marks (`>`, `|`) and spaces taken off.
fn unprefixed(line: &str) -> &str {
    line.trim_start_matches(|c: char| c == '>' || c == '|' || c.is_whitespace())
        .trim()
}

/// (a) No line pbem writes to a player parses as a command.
#[test]
fn no_line_pbem_writes_is_a_command() {
    let _shared = crate::common::lock::shared();
    // line -> (what it parses as, the mails it is in)
    let mut bad: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
    for m in MAILS.iter() {
        for line in m.text.lines() {
            for l in [line.trim(), unprefixed(line)] {
                let parsed = match command::parse_line(l) {
                    Ok(None) => continue,
                    Ok(Some(c)) => format!("the command `{c}`"),
                    Err(e) => format!("an error ({e})"),
                };
                let e = bad.entry(l.to_string()).or_insert((parsed, Vec::new()));
                if !e.1.contains(&m.kind) {
                    e.1.push(m.kind.clone());
                }
            }
        }
    }
    let mut o = String::new();
    for (line, (parsed, kinds)) in &bad {
        let _ = writeln!(
            o,
            "  `{line}`\n      parses as {parsed}; in: {}",
            kinds.join(", ")
        );
    }
    assert!(
        bad.is_empty(),
        "{} distinct line(s) pbem writes to players parse as commands (or attempts at one); \
         quoted back in a reply, each is read as the player's:\n{o}",
        bad.len()
    );
}

// --- (b) -----------------------------------------------------------------

/// Every wording the tests quote back: today's game mails, every commit's
/// templates rendered, as written and shaped, and random ones; each text
/// once.
struct Corpus {
    wordings: Vec<Wording>,
    /// Commits of `templates/` read from git.
    commits: usize,
    /// Renders of old templates that failed (a template the code of its
    /// day rendered with other means).
    failed: Vec<String>,
    seed: u64,
}

fn seed() -> u64 {
    std::env::var("QUOTING_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20261120)
}

fn corpus() -> Corpus {
    let seed = seed();
    let mut wordings: Vec<Wording> = MAILS
        .iter()
        .map(|m| Wording {
            source: "today (game)",
            kind: m.kind.clone(),
            subject: m.subject.clone(),
            text: m.text.clone(),
        })
        .collect();
    let history = wordings::template_history();
    let rendered = wordings::render_history(&history);
    wordings.extend(rendered.wordings);
    let samples: Vec<_> = pbem::rules::Rules::ALL
        .iter()
        .map(|r| crate::html_board::sample(*r, 12))
        .collect();
    wordings.extend(shaped_wording::random(seed, 400, &samples));
    Corpus {
        wordings: wordings::distinct(wordings),
        commits: history.len(),
        failed: rendered.failed,
        seed,
    }
}

static CORPUS: LazyLock<Corpus> = LazyLock::new(corpus);

/// The history is read from git and every commit's templates are worded.
#[test]
fn every_commit_of_the_templates_is_worded() {
    let _shared = crate::common::lock::shared();
    let c = &*CORPUS;
    let count = |source: &str| c.wordings.iter().filter(|w| w.source == source).count();
    eprintln!(
        "quoting: {} commits of templates/; distinct wordings: {} today's game mails, {} rendered, \
         {} as written, {} shaped, {} random; {} renders failed",
        c.commits,
        count("today (game)"),
        count("rendered"),
        count("as written"),
        count("shaped"),
        count("random"),
        c.failed.len()
    );
    for source in ["rendered", "as written", "shaped"] {
        assert!(
            count(source) >= c.commits,
            "only {} {source} wordings from {} commits of templates/",
            count(source),
            c.commits
        );
    }
}

/// What went wrong with one combination, if anything: pbem must read
/// exactly the player's commands, no error, and take a mail with a
/// command in it for a person's. With `memory`, pbem knows the lines of the mail it sent, as
/// a poll does; without, the quote's shape alone must tell.
fn check(c: Combo, w: &Wording, memory: bool) -> Option<String> {
    let raw = raw_mail(&body(c, &w.subject, &w.text));
    let mut inbound = match inbound::parse(raw.as_bytes()) {
        Ok(i) => i,
        Err(e) => return Some(format!("unreadable: {e}")),
    };
    if memory {
        let mut sent = pbem::store::Correspondence::new("alice@example.org");
        sent.sent(None, "", "<m@x>", None, &w.text, "2026-11-04");
        inbound.strip_known(&|line| sent.knows(line));
    }
    let got = command::parse(&inbound.body);
    let (_, want) = own(c.own);
    let mut o = Vec::new();
    // A mail taken for an automated answer is dropped unread: the
    // player's command is lost. (Chatter the same as a line pbem quoted
    // back to the player may be taken so; nothing is lost.)
    if let Some(why) = inbound.automated.as_ref().filter(|_| !want.is_empty()) {
        o.push(format!("dropped as automated ({why})"));
    }
    if got.commands == want && got.errors.is_empty() && o.is_empty() {
        return None;
    }
    for c in &got.commands {
        if !want.contains(c) {
            o.push(format!("read `{c}`"));
        }
    }
    for w in &want {
        if !got.commands.contains(w) {
            o.push(format!("missed `{w}`"));
        }
    }
    for e in &got.errors {
        o.push(format!("error {e}"));
    }
    if o.is_empty() {
        o.push(format!(
            "commands out of order or twice: {:?}",
            got.commands
        ));
    }
    Some(o.join(" || "))
}

fn describe(c: Combo, w: &Wording) -> String {
    format!(
        "{} `{}` quoted with {} after {}, {}, own text `{}`",
        w.source,
        w.kind,
        STYLES[c.style].0,
        ATTRIBUTIONS[c.attribution].name,
        LAYOUTS[c.layout],
        own(c.own).0
    )
}

/// The replies tried, drawn with `seed`: every style with every
/// attribution, every wording once, each of today's game mails in every
/// layout with each own text, and `samples` more; those no reader could
/// tell apart ([`ambiguous`]) left out and counted.
fn combos(ws: &[Wording], seed: u64, samples: usize) -> (Vec<Combo>, usize) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let draw = |rng: &mut fastrand::Rng, mail: Option<usize>| Combo {
        mail: mail.unwrap_or_else(|| rng.usize(..ws.len())),
        style: rng.usize(..STYLES.len()),
        attribution: rng.usize(..ATTRIBUTIONS.len()),
        layout: rng.usize(..LAYOUTS.len()),
        own: rng.usize(..3),
    };
    let mut combos = Vec::new();
    for style in 0..STYLES.len() {
        for attribution in 0..ATTRIBUTIONS.len() {
            let c = draw(&mut rng, None);
            combos.push(Combo {
                style,
                attribution,
                ..c
            });
        }
    }
    for (mail, w) in ws.iter().enumerate() {
        combos.push(draw(&mut rng, Some(mail)));
        if w.source != "today (game)" {
            continue;
        }
        for layout in 0..LAYOUTS.len() {
            for own in 0..3 {
                combos.push(Combo {
                    mail,
                    style: 0,
                    attribution: 0,
                    layout,
                    own,
                });
            }
        }
    }
    for _ in 0..samples {
        combos.push(draw(&mut rng, None));
    }
    // An unmarked quote with no attribution is no quote at all; nor is
    // one behind a single space (what format=flowed space-stuffing
    // adds to a line of the player's own).
    let unmarked = |style: usize| style == UNMARKED || STYLES[style].1 == " ";
    let mut combos: Vec<Combo> = combos
        .into_iter()
        .map(Combo::fitted)
        .filter(|c| !(unmarked(c.style) && c.attribution == NO_ATTRIBUTION))
        .collect();
    let before = combos.len();
    combos.retain(|c| !ambiguous(*c, &ws[c.mail].text));
    let left_out = before - combos.len();
    (combos, left_out)
}

/// Quotes every wording back in every way; panics with the report of
/// what went wrong.
fn quote_everything_back(memory: bool) {
    let ws = &CORPUS.wordings;
    let seed = CORPUS.seed;
    let samples: usize = std::env::var("QUOTING_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20000);
    let (combos, skipped) = combos(ws, seed, samples);
    let failures: Vec<(Combo, String)> = combos
        .iter()
        .filter_map(|c| check(*c, &ws[c.mail], memory).map(|f| (*c, f)))
        .collect();
    let size = format!(
        "{} replies quoting {} distinct wordings (seed {seed}, memory {}); {skipped} left out \
         as ambiguous (an unmarked quote around a lone line that reads as a command)",
        combos.len(),
        ws.len(),
        if memory { "on" } else { "off" }
    );
    eprintln!("quoting: {size}: {} failed", failures.len());
    // QUOTING_DUMP=FILE: every failure on a line of its own (tab-separated:
    // memory, source, wording, style, attribution, layout, own text, what
    // went wrong), to sort and count a work queue by.
    if let Some(file) = std::env::var_os("QUOTING_DUMP") {
        let mut file = std::path::PathBuf::from(file).into_os_string();
        file.push(if memory { ".memory-on" } else { ".memory-off" });
        let lines: String = failures
            .iter()
            .map(|(c, f)| {
                let w = &ws[c.mail];
                format!(
                    "{memory}\t{}\t{}\t{}\t{}\t{}\t{}\t{f}\n",
                    w.source,
                    w.kind,
                    STYLES[c.style].0,
                    ATTRIBUTIONS[c.attribution].name,
                    LAYOUTS[c.layout],
                    own(c.own).0
                )
            })
            .collect();
        std::fs::write(&file, lines).unwrap();
    }
    if !failures.is_empty() {
        panic!("{}", report(&failures, &size, ws));
    }
}

/// (b) With pbem's memory of its sent lines empty, any wording quoted
/// back in any way leaves exactly the player's own commands: the quote's
/// shape alone tells.
#[test]
fn every_wording_quoted_back_with_an_empty_memory_leaves_only_the_players_commands() {
    let _shared = crate::common::lock::shared();
    quote_everything_back(false);
}

/// (b) The same with pbem's memory of the lines it sent, as a poll has it.
#[test]
fn every_wording_quoted_back_with_pbems_memory_leaves_only_the_players_commands() {
    let _shared = crate::common::lock::shared();
    quote_everything_back(true);
}

/// What went wrong, grouped by what and by source, style, attribution and
/// layout, an example of each, and the first failure in full.
fn report(failures: &[(Combo, String)], size: &str, ws: &[Wording]) -> String {
    let mut by_what: BTreeMap<String, (usize, Combo)> = BTreeMap::new();
    let mut by: [BTreeMap<String, usize>; 4] = Default::default();
    for (c, f) in failures {
        for what in f.split(" || ") {
            // Group a wording's own words out: what kind of thing was read.
            by_what.entry(what.to_string()).or_insert((0, *c)).0 += 1;
        }
        for (i, k) in [
            ws[c.mail].source.to_string(),
            STYLES[c.style].0.to_string(),
            ATTRIBUTIONS[c.attribution].name.to_string(),
            LAYOUTS[c.layout].to_string(),
        ]
        .into_iter()
        .enumerate()
        {
            *by[i].entry(k).or_default() += 1;
        }
    }
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{} of {size} gave other commands than the player's own.",
        failures.len()
    );
    for (name, m) in ["source", "style", "attribution", "layout"].iter().zip(&by) {
        let _ = writeln!(o, "by {name}: {m:?}");
    }
    let _ = writeln!(
        o,
        "what went wrong ({} kinds; times, an example):",
        by_what.len()
    );
    let mut whats: Vec<(&String, &(usize, Combo))> = by_what.iter().collect();
    whats.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
    for (what, (count, c)) in whats.iter().take(60) {
        let _ = writeln!(
            o,
            "  {count:5}  {what}\n         e.g. {}",
            describe(*c, &ws[c.mail])
        );
    }
    // QUOTING_SHOW=words: the first failures whose description holds
    // them, in full, instead of the first failure.
    let show = std::env::var("QUOTING_SHOW").unwrap_or_default();
    let shown = failures
        .iter()
        .filter(|(c, f)| format!("{} {f}", describe(*c, &ws[c.mail])).contains(&show))
        .take(if show.is_empty() { 1 } else { 3 });
    for (c, f) in shown {
        let w = &ws[c.mail];
        let _ = writeln!(
            o,
            "\na failure in full ({}; {f}):\n{}",
            describe(*c, w),
            body(*c, &w.subject, &w.text)
        );
    }
    o
}
