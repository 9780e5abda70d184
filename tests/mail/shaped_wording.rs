//! Wordings in pbem's shapes, for the quoting test ([`crate::quoting`]):
//!
//! - [`shaped`]: a template of any commit with every branch's literal
//!   text kept and each `{{ ... }}` filled with a plausible value by its
//!   name (a move, a list of legal moves, a board, a name, an address, a
//!   date), so no wording a template ever held is missed, whatever
//!   context a branch needs;
//! - [`random`]: mails made of pbem's kinds of paragraph in random
//!   words: sentences with moves in them, `Label: value` lines, lists of
//!   moves, boards, a record's lines, a footer wrapped at any width.
//!
//! Like pbem, neither makes a paragraph of one line that reads as a
//! command: a reader could not tell it from the player's own.

use crate::html_board::Sample;
use crate::wordings::{Wording, wrap};
use pbem::mail::command::reads_as_command;

/// The values put in for `{{ ... }}`, in turn.
pub struct Values {
    boards: Vec<String>,
    turn: usize,
}

const MOVES: &[&str] = &["61-34", "13-21", "22-15", "50-26", "6-13", "2-34", "41-32"];
const NAMES: &[&str] = &[
    "Bob Example",
    "Bob Example <bob@example.org>",
    "Alexandra Zo\u{eb} Konstantinopoulou-Smythe",
    "red",
];
const LISTS: &[&str] = &[
    "50-26, 50-29, 50-33",
    "From 50: 50-26, 50-29, 50-33",
    "  from 22: 22-17 22-18\n  from 23: 23-18 23-19",
    "13-21 13-22 14-22",
];
const SENTENCES: &[&str] = &[
    "the move 2-34 is not legal: square 2 holds no black tower",
    "red has no legal move left on the board",
    "Bob offers a draw after 61-34.",
    "it is red's move, not yours (you play black); wait for their move",
];
const RECORD: &str = "id = \"bz-test1\"\nrules = \"boom-and-zoom\"\n\
    black = \"Alice Example <alice@example.org>\"\nred = \"Bob Example <bob@example.org>\"\n\
    result = \"1-0\"\nmoves = \"\"\"\n1. black 6-13\n2. red 61-34\n3. black 13-21\n\"\"\"";

impl Values {
    pub fn new(samples: &[Sample]) -> Values {
        Values {
            boards: samples.iter().map(|s| s.text.clone()).collect(),
            turn: 0,
        }
    }

    fn pick<'a>(&mut self, of: &[&'a str]) -> &'a str {
        self.turn += 1;
        of[self.turn % of.len()]
    }

    /// A plausible value for the variable `name` (the last part of a
    /// dotted name).
    pub fn of(&mut self, name: &str) -> String {
        let v = match name {
            "move" | "played" | "command" | "example" | "last" | "last_move" | "text_move"
            | "hint" | "line" => self.pick(MOVES),
            "moves" | "legal" | "legal_moves" | "lines" => self.pick(LISTS),
            "from" | "square" => "50",
            "next" | "ply" | "number" | "count" | "round" | "rounds" | "place" | "days" | "n"
            | "index" | "length" | "more" | "left" | "per_mail" | "squares" | "hour" => {
                self.pick(&["3", "12", "2"])
            }
            "board" | "marked" => {
                self.turn += 1;
                let b = &self.boards[self.turn % self.boards.len()];
                return b.trim_end().to_string();
            }
            "record" => RECORD,
            "mover" | "opponent" | "challenger" | "name" | "who" | "winner" | "player"
            | "second" | "loser" | "other" | "me" | "by" => self.pick(NAMES),
            "side" | "your_side" | "turn" | "first" | "colour" | "color" => {
                self.pick(&["black", "red"])
            }
            "id" | "target" | "game_id" => "bz-test1",
            "game" | "games" => "Boom & Zoom",
            "slug" | "rules_of" | "rules" => "boom-and-zoom",
            "address" | "reply_to" | "sender" | "email" | "to" | "pbem_address" => {
                "pbem+bz-test1.alicekey2345@example.net"
            }
            "deadline" | "received" | "until" | "date" | "when" | "since" | "due" | "now" => {
                "Tue 24 Nov 2026 18:00 Europe/Amsterdam (in 3 days)"
            }
            "clock" | "clock_words" => "3 days per move",
            "result" | "outcome" => "black wins",
            "reason" | "error" | "text" | "message" | "what" | "event" | "why" | "notes"
            | "summary" => self.pick(SENTENCES),
            "subject" => "Re: [pbem bz-test1] Boom & Zoom",
            "notation" => "as two square numbers joined by a dash, like 22-15",
            "byline" => "(rules by Ty Bomba)",
            "rating" | "before" | "after" | "theirs_before" | "theirs_after" => "1517",
            "change" | "theirs_change" => "+17",
            "points" | "tie_break" => "2.5",
            "zone" => "Europe/Berlin",
            "blank" => "          ",
            "ids" => "bz-test1, bz-test2",
            _ => return name.replace('_', " "),
        };
        v.to_string()
    }
}

/// The value of the expression of a `{{ ... }}`: a string literal as
/// written, else the value of its first name, capitalised by
/// `capitalize`.
fn value_of(expr: &str, values: &mut Values) -> String {
    let e = expr.trim().trim_matches('-').trim();
    let head = e.split('|').next().unwrap_or("").trim();
    let head = head.split(" if ").next().unwrap_or(head).trim();
    if let Some(lit) = head
        .strip_prefix('"')
        .and_then(|h| h.split('"').next())
        .or_else(|| head.strip_prefix('\'').and_then(|h| h.split('\'').next()))
    {
        return lit.to_string();
    }
    let ident: String = head
        .chars()
        .skip_while(|c| !c.is_ascii_alphabetic() && *c != '_')
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
        .collect();
    let name = ident.rsplit('.').next().unwrap_or("");
    let v = values.of(name);
    if e.contains("capitalize") {
        let mut c = v.chars();
        return c
            .next()
            .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
            .unwrap_or_default();
    }
    v
}

/// Template file `name` (`text`) as one mail's subject and body: every
/// branch's literal text kept, the tags taken out (a line they alone
/// held with them), each `{{ ... }}` filled by [`Values::of`], long lines
/// broken at 72 as the `wrap` filter breaks them.
pub fn shaped(name: &str, text: &str, values: &mut Values) -> (String, String) {
    let mut subject = String::new();
    let mut body = text;
    if let Some((first, rest)) = text.split_once('\n')
        && let Some(s) = first.strip_prefix("Subject:")
    {
        subject = fill(s.trim(), values).0.replace('\n', " ");
        body = rest.trim_start_matches('\n');
    }
    let body = without_comments(body);
    let mut lines = Vec::new();
    for line in body.lines() {
        let (filled, tags_only) = fill(line, values);
        if tags_only && filled.trim().is_empty() {
            continue;
        }
        lines.push(filled);
    }
    let joined = lines.join("\n");
    let _ = name;
    (subject, wrap(&joined, 72, ""))
}

/// `text` with each comment, which may run over lines, as an empty tag:
/// the line it stood on is dropped like a line of tags.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("{#") {
        out.push_str(&rest[..at]);
        out.push_str("{% %}");
        rest = match rest[at..].find("#}") {
            Some(end) => &rest[at + end + 2..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// `line` with its comments and tags taken out and its expressions
/// filled; whether it held a tag or comment and nothing else of its own.
fn fill(line: &str, values: &mut Values) -> (String, bool) {
    let mut out = String::new();
    let mut rest = line;
    let mut tagged = false;
    while let Some(at) = rest.find('{') {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let close = match from.get(..2) {
            Some("{{") => "}}",
            Some("{%") => "%}",
            Some("{#") => "#}",
            _ => {
                out.push('{');
                rest = &from[1..];
                continue;
            }
        };
        let Some(end) = from.find(close) else {
            // A tag that runs over lines: the rest of the line is in it.
            tagged = true;
            rest = "";
            break;
        };
        let inner = &from[2..end];
        if close == "}}" {
            out.push_str(&value_of(inner, values));
        } else {
            tagged = true;
            // The branches of an `if` follow one another: a space keeps
            // the last word of one from the first of the next.
            let word = inner.trim_matches(|c: char| c == '-' || c.is_whitespace());
            if (word.starts_with("else") || word.starts_with("elif"))
                && !out.ends_with(char::is_whitespace)
                && !out.is_empty()
            {
                out.push(' ');
            }
        }
        rest = &from[end + 2..];
    }
    out.push_str(rest);
    let tags_only = tagged && !line.contains("{{");
    (out, tags_only)
}

/// `count` mails in pbem's shapes, drawn from `seed`.
pub fn random(seed: u64, count: usize, samples: &[Sample]) -> Vec<Wording> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..count)
        .map(|i| {
            let mut paragraphs = Vec::new();
            for _ in 0..rng.usize(2..8) {
                // pbem's invariant: no paragraph a reader could take for
                // the player's own line.
                let p = loop {
                    let p = paragraph(&mut rng, samples);
                    let lone = p.lines().count() == 1 && reads_as_command(&p);
                    if !lone {
                        break p;
                    }
                };
                paragraphs.push(p);
            }
            Wording {
                source: "random",
                kind: format!("random mail {i} of seed {seed}"),
                subject: format!(
                    "[pbem bz-test1] Boom & Zoom: red played {}",
                    rng.choice(MOVES).unwrap()
                ),
                text: paragraphs.join("\n\n") + "\n",
            }
        })
        .collect()
}

/// One paragraph of a random kind.
fn paragraph(rng: &mut fastrand::Rng, samples: &[Sample]) -> String {
    let mv = |rng: &mut fastrand::Rng| (*rng.choice(MOVES).unwrap()).to_string();
    let n = rng.u32(2..60);
    match rng.u8(0..7) {
        0 => format!(
            "{} played {} (move {n}). It is {}: move #{}.",
            rng.choice(["Red", "Bob Example", "Black"]).unwrap(),
            mv(rng),
            rng.choice(["your move", "red's move", "black's move"])
                .unwrap(),
            n + 1
        ),
        1 => {
            let (a, b) = (mv(rng), mv(rng));
            sentence(rng, &a, &b)
        }
        2 => labels(rng),
        3 => move_list(rng),
        4 => samples[rng.usize(..samples.len())]
            .text
            .trim_end()
            .to_string(),
        5 => {
            let mut r = String::from("---\n");
            for k in 1..rng.u32(2..8) {
                let side = if k % 2 == 1 { "black" } else { "red" };
                r.push_str(&format!(
                    "{k}. {side} {}  2026-11-{:02}T09:17:00Z <bz1.{k}@example.org>\n",
                    mv(rng),
                    10 + k
                ));
            }
            r + "---"
        }
        _ => {
            let m = mv(rng);
            footer(rng, n, &m)
        }
    }
}

fn sentence(rng: &mut fastrand::Rng, a: &str, b: &str) -> String {
    let s = match rng.u8(0..5) {
        0 => format!("Your move {a} was not played: {b} is not a legal move in this position."),
        1 => format!("Black can answer {a} with {b}, or zoom off the board from 57-64."),
        2 => format!(
            "Bob offers a draw after {a}. To accept, answer accept draw; to play on, send your move, like {b}."
        ),
        3 => format!("The game is over: black wins after {a} ({b} was the last move)."),
        _ => format!(
            "moves {b} lists the moves from one square; {a} and {b} are legal now, resign ends the game."
        ),
    };
    wrap(&s, rng.usize(40..73), "")
}

fn labels(rng: &mut fastrand::Rng) -> String {
    let all = [
        ("Game", "bz-test1 (Boom & Zoom)"),
        ("Your side", "black"),
        ("Last move", "61-34"),
        ("Legal moves", "50-26, 50-29, 50-33"),
        ("Legal moves from 13", "13-21, 13-22"),
        ("Clock", "3 days per move"),
        ("Deadline", "Tue 24 Nov 2026 18:00 UTC"),
        ("Opponent", "Bob Example <bob@example.org>"),
        ("Result", "1-0"),
        ("Move", "#3 13-21"),
        ("Reply to", "pbem+bz-test1.alicekey2345@example.net"),
    ];
    let mut out = Vec::new();
    for _ in 0..rng.usize(2..6) {
        let (k, v) = all[rng.usize(..all.len())];
        out.push(format!("{k}: {v}"));
    }
    out.join("\n")
}

fn move_list(rng: &mut fastrand::Rng) -> String {
    let mut out = vec![
        rng.choice(["Legal moves:", "The legal moves, as you asked:", "Moves:"])
            .unwrap()
            .to_string(),
    ];
    for _ in 0..rng.usize(2..5) {
        let from = rng.u32(1..64);
        let to: Vec<String> = (0..rng.usize(1..4))
            .map(|_| format!("{from}-{}", rng.u32(1..64)))
            .collect();
        out.push(if rng.bool() {
            format!("  from {from}: {}", to.join(" "))
        } else {
            format!("From {from}: {}", to.join(", "))
        });
    }
    out.join("\n")
}

fn footer(rng: &mut fastrand::Rng, n: u32, mv: &str) -> String {
    let text = match rng.u8(0..3) {
        0 => format!(
            "Reply to this mail to play: write your move alone on a line, like #{n} {mv}. \
             Other commands: board, moves [square], draw, resign, help. Your reply address \
             carries your key: keep it private."
        ),
        1 => format!(
            "To play, reply to this mail with your move on a line of its own, as in `#{n} {mv}`. \
             Other commands, each on a line of its own: `board`, `moves` (or `moves SQUARE`), \
             `draw`, `resign`, `help`."
        ),
        _ => "Clock 3 days per move: your move is due by Tue 24 Nov 2026 18:00 UTC. \
              Commands: board, moves, draw, resign, help, rules, games."
            .to_string(),
    };
    format!("--\n{}", wrap(&text, rng.usize(30..73), ""))
}
