//! Refusals (issue 3, "Replies": what was wrong and why, the board, the
//! legal moves): the one answer every concern words its refusals with,
//! and the refusal of a mail with no command.

use super::*;

/// A refusal: what was refused, why, and what helps (issue 3, "Replies":
/// what was wrong and why, the board, and the legal moves).
#[derive(Debug, Default)]
pub(super) struct Refusal {
    /// The command as written; empty when the mail had none.
    pub(super) command: String,
    pub(super) reason: String,
    pub(super) board: Option<String>,
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
    /// for a correction (issue 12).
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
        let what = if command.is_empty() {
            "your mail".to_string()
        } else if command.starts_with(|c: char| c.is_ascii_digit() || c == '#') {
            format!("your move {command}")
        } else {
            "your command".to_string()
        };
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
            context: context! { id => game, game => name, what, command, reason, rules_of, section, board, legal => listing(&legal), from, skipped, wait },
            game: game.map(str::to_string),
            reply_to,
        })
    }
}

/// The refusal of a mail in which pbem found no command. It shows what
/// was read: a player can then see whether pbem missed their text (a
/// quote or signature cut too early).
pub(super) fn no_command_reason(body: &str) -> String {
    let read: Vec<&str> = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let how = "write your move alone on a line, like 22-15, or `help` for the commands";
    if read.is_empty() {
        return format!(
            "{how}. pbem read no text of yours: it reads what you write outside the quoted mail, up to your signature, and not the subject."
        );
    }
    // Each line cut to 100 characters: a mail of one 10 MB line was
    // quoted whole in the reply (issue 5).
    let mut shown: Vec<String> = read
        .iter()
        .take(6)
        .map(|l| match l.char_indices().nth(100) {
            Some((i, _)) => format!("| {} ...", &l[..i]),
            None => format!("| {l}"),
        })
        .collect();
    if read.len() > 6 {
        shown.push("| ...".into());
    }
    format!(
        "{how}. This is what pbem read in your mail (quotes and signature left out):\n\n{}",
        shown.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue5_a_mail_without_a_command_is_quoted_short() {
        let body = format!("{}\n", "chatter ".repeat(1_000_000));
        let r = no_command_reason(&body);
        assert!(r.len() < 400, "{} bytes", r.len());
        assert!(r.ends_with("chat ..."), "{r}");
        assert!(no_command_reason("hi\n").ends_with("| hi"));
    }
}
