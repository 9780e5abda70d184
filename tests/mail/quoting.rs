//! pbem's own words must never be read back as commands.
//!
//! The real `pbem` binary plays a game by mail (challenge, accept, moves,
//! a draw offer, `board`, `moves`, `moves 13`, `help`, `games`, `rules`,
//! refusals of every kind, a reminder, a digest, the end of the game) and
//! every mail it sends a player is gathered. Then:
//!
//! (a) [`no_line_pbem_writes_is_a_command`]: every line of every such mail,
//!     as written and with quote prefixes taken off, is chatter for
//!     `pbem::mail::command::parse_line`;
//! (b) [`quoted_back_in_every_style_only_the_players_commands_count`]:
//!     each mail quoted back in every common style (prefixes `> `, `>`,
//!     `> > `, `| `, TAB, four spaces, none after an attribution; an
//!     attribution in 18 languages, an Outlook header block or none;
//!     top-posted, bottom-posted, interleaved) beside the player's own
//!     `13-21`, `board` or chatter, parsed as pbem parses an inbound mail
//!     (`inbound::parse`, pbem's own lines of the quoted mail dropped as a
//!     poll drops them, then `command::parse` of its body), gives exactly
//!     the player's own commands. Every style x attribution runs at least
//!     once; a seeded sample (`QUOTING_SEED`, `QUOTING_SAMPLES`) covers the
//!     other combinations.
//!
//! Both list every offending line in their failure message.
//!
//! ```text
//! cargo test --test mail quoting::
//! QUOTING_SEED=7 QUOTING_SAMPLES=20000 cargo test --test mail quoting::
//! ```

use crate::common::pbem_setup;

use pbem::mail::command::{self, Command};
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
        // A game's mails share one subject (issue 12); what happened is
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

const STYLES: &[(&str, &str)] = &[
    ("`> `", "> "),
    ("`>`", ">"),
    ("`> > `", "> > "),
    ("`| `", "| "),
    ("TAB", "\t"),
    ("four spaces", "    "),
    ("none", ""),
];

/// Attributions: Gmail's wording in each language, an Outlook header
/// block, or nothing.
const ATTRIBUTIONS: &[(&str, &str)] = &[
    (
        "en",
        "On Wed, Nov 4, 2026 at 10:10 AM pbem <pbem@example.net> wrote:",
    ),
    (
        "de",
        "Am Mi., 4. Nov. 2026 um 10:10 Uhr schrieb pbem <pbem@example.net>:",
    ),
    (
        "fr",
        "Le mer. 4 nov. 2026 à 10:10, pbem <pbem@example.net> a écrit :",
    ),
    (
        "es",
        "El mié, 4 nov 2026 a las 10:10, pbem (<pbem@example.net>) escribió:",
    ),
    (
        "it",
        "Il giorno mer 4 nov 2026 alle ore 10:10 pbem <pbem@example.net> ha scritto:",
    ),
    (
        "pt",
        "Em qua., 4 de nov. de 2026 às 10:10, pbem <pbem@example.net> escreveu:",
    ),
    (
        "nl",
        "Op wo 4 nov 2026 om 10:10 schreef pbem <pbem@example.net>:",
    ),
    (
        "sv",
        "Den ons 4 nov. 2026 kl 10:10 skrev pbem <pbem@example.net>:",
    ),
    (
        "da",
        "Den ons. 4. nov. 2026 kl. 10.10 skrev pbem <pbem@example.net>:",
    ),
    (
        "no",
        "ons. 4. nov. 2026 kl. 10:10 skrev pbem <pbem@example.net>:",
    ),
    (
        "fi",
        "ke 4.11.2026 klo 10.10 pbem (pbem@example.net) kirjoitti:",
    ),
    (
        "pl",
        "śr., 4 lis 2026 o 10:10 pbem <pbem@example.net> napisał(a):",
    ),
    (
        "ru",
        "ср, 4 нояб. 2026 г. в 10:10, pbem <pbem@example.net>:",
    ),
    (
        "uk",
        "ср, 4 лист. 2026 р. о 10:10 pbem <pbem@example.net> пише:",
    ),
    (
        "cs",
        "st 4. 11. 2026 v 10:10 odesílatel pbem <pbem@example.net> napsal:",
    ),
    (
        "tr",
        "4 Kas 2026 Çar, 10:10 tarihinde pbem <pbem@example.net> şunu yazdı:",
    ),
    ("ja", "2026年11月4日(水) 10:10 pbem <pbem@example.net>:"),
    (
        "zh",
        "pbem <pbem@example.net> 于2026年11月4日周三 10:10写道：",
    ),
    (
        "Outlook block",
        "From: pbem <pbem@example.net>\nSent: Wednesday, November 4, 2026 10:10 AM\n\
         To: Alice Example <alice@example.org>\nSubject: [pbem] your game",
    ),
    ("no attribution", ""),
];

const LAYOUTS: &[&str] = &["top-posted", "bottom-posted", "interleaved"];

/// The player's own text and the commands it holds.
fn own(which: usize) -> (&'static str, Vec<Command>) {
    match which {
        0 => (
            "13-21",
            vec![Command::Move {
                number: None,
                text: "13-21".into(),
            }],
        ),
        1 => ("board", vec![Command::Board]),
        _ => ("Thanks, thinking about it.", vec![]),
    }
}

#[derive(Clone, Copy, Debug)]
struct Combo {
    mail: usize,
    style: usize,
    attribution: usize,
    layout: usize,
    own: usize,
}

/// The reply's body for one combination.
fn body(c: Combo, mails: &[Mail]) -> String {
    let prefix = STYLES[c.style].1;
    let text = &mails[c.mail].text;
    let quote = |lines: &[&str]| -> String {
        lines
            .iter()
            .map(|l| {
                if l.is_empty() {
                    prefix.trim_end().to_string()
                } else {
                    format!("{prefix}{l}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let lines: Vec<&str> = text.lines().collect();
    let attribution = ATTRIBUTIONS[c.attribution].1;
    let head = if attribution.is_empty() {
        String::new()
    } else {
        format!("{attribution}\n\n")
    };
    let (own, _) = own(c.own);
    match LAYOUTS[c.layout] {
        "top-posted" => format!("{own}\n\nAlice\n\n{head}{}\n", quote(&lines)),
        "bottom-posted" => format!("{head}{}\n\n{own}\n\nAlice\n", quote(&lines)),
        _ => {
            let cut = lines.len() / 2;
            format!(
                "{head}{}\n\n{own}\n\n{}\n",
                quote(&lines[..cut]),
                quote(&lines[cut..])
            )
        }
    }
}

fn raw_mail(body: &str) -> String {
    format!(
        "From: Alice Example <alice@example.org>\nTo: pbem <pbem+bz-test1.alicekey2345@example.net>\n\
         Subject: Re: [pbem bz-test1] your game\nDate: Wed, 4 Nov 2026 10:20:00 +0100\n\
         Message-ID: <quoting@example.org>\nIn-Reply-To: <pbem.bz-test1.1.0@example.net>\n\
         MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\
         Content-Transfer-Encoding: 8bit\n\n{body}"
    )
}

/// What went wrong with one combination, if anything.
fn check(c: Combo, mails: &[Mail]) -> Option<String> {
    let raw = raw_mail(&body(c, mails));
    let mut inbound = match inbound::parse(raw.as_bytes()) {
        Ok(i) => i,
        Err(e) => return Some(format!("unreadable: {e}")),
    };
    // As a poll does: pbem knows the lines of the mail it sent (issue 12).
    let mut sent = pbem::store::Correspondence::new("alice@example.org");
    sent.sent(None, "", "<m@x>", None, &mails[c.mail].text, "2026-11-04");
    inbound.strip_known(&|line| sent.knows(line));
    let got = command::parse(&inbound.body);
    let (_, want) = own(c.own);
    if got.commands == want && got.errors.is_empty() {
        return None;
    }
    let mut o = Vec::new();
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

fn describe(c: Combo, mails: &[Mail]) -> String {
    format!(
        "{} quoted with {} after {}, {}, own text `{}`",
        mails[c.mail].kind,
        STYLES[c.style].0,
        ATTRIBUTIONS[c.attribution].0,
        LAYOUTS[c.layout],
        own(c.own).0
    )
}

/// (b) Quoted back in any style, only the player's own commands count.
#[test]
fn quoted_back_in_every_style_only_the_players_commands_count() {
    let _shared = crate::common::lock::shared();
    let mails = &*MAILS;
    let seed: u64 = std::env::var("QUOTING_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20261120);
    let samples: usize = std::env::var("QUOTING_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000);
    let combos = combos(mails, seed, samples);
    let mut failures: Vec<(Combo, String)> = Vec::new();
    for c in &combos {
        if let Some(f) = check(*c, mails) {
            failures.push((*c, f));
        }
    }
    if failures.is_empty() {
        return;
    }
    panic!("{}", report(&failures, combos.len(), seed, mails));
}

/// The replies tried: every style with every attribution, every mail in
/// every layout, and `samples` drawn with `seed`.
fn combos(mails: &[Mail], seed: u64, samples: usize) -> Vec<Combo> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut combos = Vec::new();
    // Every style with every attribution, at least once; the rest drawn.
    for style in 0..STYLES.len() {
        for attribution in 0..ATTRIBUTIONS.len() {
            combos.push(Combo {
                mail: rng.usize(..mails.len()),
                style,
                attribution,
                layout: rng.usize(..LAYOUTS.len()),
                own: rng.usize(..3),
            });
        }
    }
    // Every mail in every layout with each own text, in the first style.
    for mail in 0..mails.len() {
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
        combos.push(Combo {
            mail: rng.usize(..mails.len()),
            style: rng.usize(..STYLES.len()),
            attribution: rng.usize(..ATTRIBUTIONS.len()),
            layout: rng.usize(..LAYOUTS.len()),
            own: rng.usize(..3),
        });
    }
    // An unmarked quote with no attribution is no quote at all: skipped.
    let none = STYLES.iter().position(|s| s.1.is_empty()).unwrap();
    let no_attr = ATTRIBUTIONS.len() - 1;
    combos.retain(|c| !(c.style == none && c.attribution == no_attr));
    combos
}

/// What went wrong, grouped by what and by style, attribution and
/// layout, with the first failure in full.
fn report(failures: &[(Combo, String)], tried: usize, seed: u64, mails: &[Mail]) -> String {
    // Grouped by what went wrong, and by style and attribution.
    let mut by_what: BTreeMap<String, (usize, Combo)> = BTreeMap::new();
    let mut by_style: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_attr: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_layout: BTreeMap<&str, usize> = BTreeMap::new();
    for (c, f) in failures {
        for what in f.split(" || ") {
            by_what.entry(what.to_string()).or_insert((0, *c)).0 += 1;
        }
        *by_style.entry(STYLES[c.style].0).or_default() += 1;
        *by_attr.entry(ATTRIBUTIONS[c.attribution].0).or_default() += 1;
        *by_layout.entry(LAYOUTS[c.layout]).or_default() += 1;
    }
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{} of {} quoted replies (seed {seed}) gave other commands than the player's own.",
        failures.len(),
        tried
    );
    let _ = writeln!(o, "by style: {by_style:?}");
    let _ = writeln!(o, "by attribution: {by_attr:?}");
    let _ = writeln!(o, "by layout: {by_layout:?}");
    let _ = writeln!(o, "what went wrong (times; an example):");
    let mut whats: Vec<(&String, &(usize, Combo))> = by_what.iter().collect();
    whats.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
    for (what, (count, c)) in whats {
        let _ = writeln!(
            o,
            "  {count:5}  {what}\n         e.g. {}",
            describe(*c, mails)
        );
    }
    let (c, f) = &failures[0];
    let _ = writeln!(
        o,
        "\nthe first failure in full ({}; {f}):\n{}",
        describe(*c, mails),
        body(*c, mails)
    );
    o
}
