//! Refusals ("Replies": what was wrong and why, the board, the
//! legal moves): the one answer every concern words its refusals with,
//! and the refusal of a mail with no command.

use super::*;
use crate::reply::address_of;

/// A refusal: what was refused, why, and what helps ("Replies":
/// what was wrong and why, the board, and the legal moves).
#[derive(Debug, Default)]
pub(super) struct Refusal {
    /// The command as written; empty when the mail had none.
    pub(super) command: String,
    pub(super) reason: String,
    pub(super) board: Option<minijinja::Value>,
    pub(super) legal: Vec<String>,
    /// The square the legal moves start from, when they all do.
    pub(super) from: Option<String>,
    /// The mail's other commands, not carried out because of this one.
    pub(super) skipped: String,
    /// The section of the game's rules the refusal rests on: the mail
    /// tells the player how to read it (the `rules GAME` command).
    pub(super) rule: Option<crate::rules::Cite>,
    /// Nothing to correct: the player is to wait (a move out of turn, a
    /// challenge not answered yet), and is told so instead of being asked
    /// for a correction.
    pub(super) wait: bool,
}

impl Refusal {
    pub(super) fn new(command: impl Into<String>, reason: impl Into<String>) -> Refusal {
        Refusal {
            command: command.into(),
            reason: reason.into(),
            ..Refusal::default()
        }
    }
}
impl Adjudicator<'_> {
    pub(super) fn reject(&self, to: &str, game: Option<&str>, refusal: Refusal) -> Result<Letter> {
        let Refusal {
            command,
            reason,
            board,
            legal,
            from,
            skipped,
            rule,
            wait,
        } = refusal;
        let (rules_of, section) = rule.map(|c| (c.rules.slug(), c.section)).unzip();
        // A move is written with a digit or `#` first; every other
        // command with a word.
        let of = if command.is_empty() {
            "mail"
        } else if command.starts_with(|c: char| c.is_ascii_digit() || c == '#') {
            "move"
        } else {
            "command"
        };
        let what = self.words("what_refused", context! { of, command => &command })?;
        let legal = listing(self.templates, &legal)?;
        let table = match game {
            Some(id) => self.table(id)?,
            None => None,
        };
        let name = table.as_ref().and_then(Table::rules).map(Rules::name);
        // "Send the corrected command in a reply": the reply must carry
        // the key, so a player gets their own (at their own address).
        let reply_to = game.zip(table.as_ref()).and_then(|(id, t)| {
            let (side, _) = t
                .players()
                .into_iter()
                .find(|(_, m)| address_of(m) == address_of(to))?;
            t.token(side).map(|k| self.identity.reply_to(id, k))
        });
        Ok(Letter {
            to: to.to_string(),
            kind: Kind::Refusal,
            template: "rejected",
            context: context! { id => game, game => name, what, command, reason, rules_of, section, board, legal, from, skipped, wait },
            game: game.map(str::to_string),
            reply_to,
        })
    }
}

impl Adjudicator<'_> {
    /// The refusal of a line the reader refused, to `to`; `known` the
    /// game of the mail's thread, for its players, `table` that thread's.
    pub(super) fn refuse_line(
        &self,
        to: &str,
        known: Option<&str>,
        table: Option<&(String, Table)>,
        e: &command::CommandError,
    ) -> Result<Letter> {
        let refusal = self.command_error(e, known.and(table))?;
        self.reject(to, known, refusal)
    }

    /// A move in another game's notation is worded here, where the game
    /// is known (`table`, for the game's players): its squares counted on
    /// the game's board, and the move as pbem writes it when that move is
    /// legal now, else the legal moves from its first square.
    fn command_error(
        &self,
        e: &command::CommandError,
        table: Option<&(String, Table)>,
    ) -> Result<Refusal> {
        let Some(f) = e.foreign else {
            return Ok(Refusal::new(&e.line, &e.message));
        };
        let record = match table {
            Some((_, Table::Game { record, .. })) => Some(record),
            _ => None,
        };
        let geometry = record.map(|r| r.rules.geometry());
        let squares = geometry.map(|g| g.squares());
        let game = record.map(|r| r.rules.slug());
        let near = record
            .zip(geometry.and_then(|g| f.written(g)))
            .map(|(rec, w)| crate::with_game!(rec.rules, G => nearest::<G>(rec, &w)))
            .unwrap_or_default();
        let hint = near.hint;
        let reason = self.words(
            "foreign_move",
            context! { line => &e.line, squares, hint, game },
        )?;
        let (from, legal) = near.from.unzip();
        Ok(Refusal {
            from,
            legal: legal.unwrap_or_default(),
            ..Refusal::new(&e.line, reason)
        })
    }
}

/// The lines of a mail that failed as commands beside good ones: left
/// out, the rest carried out, and the sender told in the first mail pbem
/// sends them for that mail, whatever it is (`ignored` in its context,
/// shown by the compose step through `_ignored.txt`).
pub(super) struct LeftOut {
    count: usize,
    /// Each line as a refusal quotes it, and why it was left out; none
    /// when the sender is not proven a player of the mail's game: pbem
    /// quotes a mail's text only to its proven sender, never to an
    /// address anyone could have put on a mail.
    lines: Vec<minijinja::Value>,
}

impl Adjudicator<'_> {
    /// The lines `errors` stand for, left out of a mail; `known` the game
    /// of the mail's thread when its sender is proven one of its players.
    pub(super) fn left_out(
        &self,
        errors: &[command::CommandError],
        known: Option<&(String, Table)>,
    ) -> Result<LeftOut> {
        let mut lines = Vec::new();
        if known.is_some() {
            for e in errors {
                let Refusal {
                    command, reason, ..
                } = self.command_error(e, known)?;
                lines.push(context! { line => command, reason });
            }
        }
        Ok(LeftOut {
            count: errors.len(),
            lines,
        })
    }
}

impl LeftOut {
    /// `handled` with the note of the lines left out in its first mail to
    /// `sender` (no other reader's), and their count in its fate.
    pub(super) fn tell(self, mut handled: Handled, sender: &str) -> Handled {
        if self.count == 0 {
            return handled;
        }
        handled.fate = Fate::LeftOut {
            fate: Box::new(std::mem::take(&mut handled.fate)),
            lines: self.count,
        };
        if let Some(l) = handled
            .letters
            .iter_mut()
            .find(|l| address_of(&l.to) == sender)
        {
            let ignored = context! { count => self.count, lines => self.lines };
            l.context = context! { ignored, ..l.context.clone() };
        }
        handled
    }
}

/// The legal move nearest to what a player wrote in another game's
/// notation.
#[derive(Default)]
struct Nearest {
    /// The move as pbem writes it, when it is legal now.
    hint: Option<String>,
    /// Else the legal moves from the square it starts from, if any.
    from: Option<(String, Vec<String>)>,
}

/// `text` (a move in pbem's notation) against the position the record
/// `rec` stands at: legal, or the legal moves from its first square.
fn nearest<G: Game>(rec: &Record, text: &str) -> Nearest {
    let Ok(replayed) = record::replay::<G>(rec) else {
        return Nearest::default();
    };
    let Some(pos) = replayed.positions.last().filter(|_| replayed.end.is_none()) else {
        return Nearest::default();
    };
    match crate::play::parse_move(pos, text) {
        Ok(m) => Nearest {
            hint: Some(game::canonical(pos, m)),
            from: None,
        },
        Err(rej) => Nearest {
            hint: None,
            from: rej.without_alternatives().1,
        },
    }
}

/// How much of one line of a mail the refusal of a mail without a
/// command shows whole: with its indent and mark (`  | `), a line of 72.
/// A longer one is cut to leave room for ` ...`.
const SHOWN: usize = 68;

/// The refusal of a mail in which pbem found no command. It shows what
/// was read: a player can then see whether pbem missed their text (a
/// quote or signature cut too early).
pub(super) fn no_command_reason(
    templates: &Templates,
    body: &str,
) -> std::result::Result<String, TemplateError> {
    let read: Vec<&str> = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    // Each line cut to fit a line of the reply (a mail of one 10 MB line
    // is not quoted whole); the words before the cut are wrapped.
    let mut shown: Vec<String> = read
        .iter()
        .take(6)
        .map(|l| {
            match l
                .char_indices()
                .nth(SHOWN)
                .and(l.char_indices().nth(SHOWN - 4))
            {
                Some((i, _)) => format!("| {} ...", l[..i].trim_end()),
                None => format!("| {l}"),
            }
        })
        .collect();
    if read.len() > 6 {
        shown.push("| ...".into());
    }
    templates.words("no_command", context! { shown => shown.join("\n") })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mail_without_a_command_is_quoted_short() {
        let body = format!("{}\n", "chatter ".repeat(1_000_000));
        let t = Templates::new(None);
        let r = no_command_reason(&t, &body).unwrap();
        assert!(r.len() < 400, "{} bytes", r.len());
        assert!(r.ends_with("chatter ..."), "{r}");
        let shown = r.lines().last().unwrap();
        assert!(shown.chars().count() + 2 <= 72, "{shown}");
        assert!(no_command_reason(&t, "hi\n").unwrap().ends_with("| hi"));
    }
}
