//! What pbem sends, as data: one [`Reply`] per mail out, the
//! [`Identity`] it is sent as, how a game's thread is headed
//! ([`ThreadHead`]), and the helpers that read and write mail addresses.
//!
//! The lowest module of the mail path's output side: the adjudicator
//! ([`crate::adjudicate`]) decides what to send, the compose step
//! ([`crate::mail::templates`]) words it, the poll and the outbound
//! builder ([`crate::mail::outbound`]) deliver it. It imports none of them.

use crate::timecontrol::ClockPolicy;
use minijinja::Value;

/// A rendered mail: subject, plain text and, when the mail shows a board,
/// the body of its HTML part (the board as a table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    pub subject: String,
    pub text: String,
    /// The HTML part, a whole document; `None`: made from the plain text
    /// ([`crate::mail::outbound::text_html`]).
    pub html: Option<String>,
}

/// What a mail out is, for whoever must tell mails apart (the reply
/// limits, the digests): decided by the adjudicator, never read back from
/// the wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An answer to the sender's own mail (`help`, `games`, `board`, a
    /// setting confirmed).
    Answer,
    /// A refusal of the sender's mail: what was wrong and what helps.
    Refusal,
    /// News of a game to one of its players: a move, a draw, a result,
    /// the game begun, a challenge declined or withdrawn.
    News,
    /// A challenge, to the player challenged (a stranger's invitation).
    Challenge,
    /// A warning to a player about a mail that was not theirs (their key
    /// used by another address, a mail without their key).
    Warning,
    /// A game pbem cannot use, to the admin or a player.
    Damage,
    /// A clock's reminder or final notice.
    Reminder,
    /// A notice of pbem's own, about no one mail: the reply limits'
    /// notices, a dead letter to the admin (not made by the adjudicator).
    Notice,
}

/// One mail the adjudicator decided to send, before it is worded: its
/// [`Kind`], the template that words it and the template's context. The
/// compose step ([`crate::mail::templates::Templates::compose`]) renders
/// it into a [`Reply`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Letter {
    pub kind: Kind,
    /// The template's name, without `.txt` (`rejected`, `moved`).
    pub template: &'static str,
    /// The values the template words.
    pub context: Value,
    /// "Name <address>" or a bare address.
    pub to: String,
    /// The game it is about, for threading and the Message-ID.
    pub game: Option<String>,
    /// The Reply-To carrying the recipient's key, when they play the game.
    pub reply_to: Option<String>,
}

/// The takebacks a player may ask for in one game, unless the settings
/// say (`takebacks_per_game`).
pub const DEFAULT_TAKEBACKS: u32 = 3;

/// What the adjudicator needs to know about its own address.
#[derive(Clone, Debug)]
pub struct Identity {
    /// pbem's address, `pbem@example.net`: replies come from it, and
    /// players reply to `pbem+<id>.<token>@example.net`.
    pub address: String,
    /// The display name on pbem's mail.
    pub name: String,
    /// Trust `Authentication-Results: <this id>; dmarc=pass` from the
    /// admin's own MTA instead of a token.
    pub trusted_authserv: Option<String>,
    /// The admin ("Name <address>"), told of damaged records;
    /// none: only the players are told.
    pub admin: Option<String>,
    /// Reminder points, final notice and vacation allowance of game clocks.
    pub clocks: ClockPolicy,
    /// How long the bot may think.
    pub bot: crate::bot::BotPolicy,
    /// The takebacks each player may ask for in one game; 0: none.
    pub takebacks: u32,
}

impl Identity {
    /// pbem at `address`, named "pbem", with every other setting at its
    /// default: no admin, no trusted DMARC verdicts, the default clocks
    /// and bot (for tests and tools; a server's comes from its settings).
    pub fn at(address: impl Into<String>) -> Identity {
        Identity {
            address: address.into(),
            name: "pbem".into(),
            trusted_authserv: None,
            admin: None,
            clocks: ClockPolicy::default(),
            bot: crate::bot::BotPolicy::default(),
            takebacks: DEFAULT_TAKEBACKS,
        }
    }

    /// The address the bot plays at, at `level`: `pbem+bot2@domain`.
    pub fn bot_address(&self, level: pbem_engine::bot::Level) -> String {
        let (local, domain) = self.local_domain();
        format!("{local}+{}@{domain}", crate::bot::tag(level))
    }

    /// The bot as a player of a record: `pbem bot, level 2 <pbem+bot2@…>`.
    pub fn bot_mailbox(&self, level: pbem_engine::bot::Level) -> String {
        format!(
            "{} bot, level {} <{}>",
            self.name,
            level.number(),
            self.bot_address(level)
        )
    }

    /// The bot's level when `mailbox` ("Name <address>" or an address) is
    /// the bot's.
    pub fn bot_level(&self, mailbox: &str) -> Option<pbem_engine::bot::Level> {
        let address = address_in(mailbox);
        let (local, domain) = self.local_domain();
        let tag = address
            .strip_prefix(local)?
            .strip_prefix('+')?
            .strip_suffix(domain)?
            .strip_suffix('@')?;
        crate::bot::level_of_tag(tag)
    }

    pub(crate) fn local_domain(&self) -> (&str, &str) {
        self.address
            .split_once('@')
            .unwrap_or((&self.address, "localhost"))
    }
    /// The reply address that carries a player's key.
    pub fn reply_to(&self, id: &str, token: &str) -> String {
        let (local, domain) = self.local_domain();
        format!("{local}+{id}.{token}@{domain}")
    }
    pub fn domain(&self) -> &str {
        self.local_domain().1
    }
}

/// One mail to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// What the mail is, as decided (the poll's limits and digests tell
    /// replies apart by it, never by their words).
    pub kind: Kind,
    /// "Name <address>" or a bare address.
    pub to: String,
    pub rendered: Rendered,
    /// The game it is about, for threading and the Message-ID.
    pub game: Option<String>,
    /// The Reply-To carrying the recipient's key, when they play the game.
    pub reply_to: Option<String>,
    /// How the mails of [`Reply::game`] to its players are headed, as the
    /// adjudicator read the game when it wrote this mail (`None`: about
    /// no game, or one whose players cannot be read).
    pub head: Option<ThreadHead>,
}

/// How the mails of a game to its players are headed
/// ([`crate::adjudicate::Adjudicator::thread_head`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ThreadHead {
    /// The subject of every mail of the game.
    pub subject: String,
    /// The players' "Name <address>", in the order of their sides.
    pub players: Vec<String>,
}

impl ThreadHead {
    /// The player at `address` as the game names them; `None` for anyone
    /// else (the admin's notices keep their own subjects).
    pub fn player(&self, address: &str) -> Option<&str> {
        self.players
            .iter()
            .find(|m| address_of(m) == address)
            .map(String::as_str)
    }
}

/// The address inside "Name <address>", lower case.
pub fn address_of(mailbox: &str) -> String {
    address_in(mailbox).into_owned()
}

/// [`address_of`], borrowed from `mailbox` when it is in lower case
/// already.
pub fn address_in(mailbox: &str) -> std::borrow::Cow<'_, str> {
    let m = mailbox.trim();
    match (m.rfind('<'), m.rfind('>')) {
        (Some(a), Some(b)) if a < b => crate::lines::lowercase(m[a + 1..b].trim()),
        _ => crate::lines::lowercase(m),
    }
}

/// Why pbem cannot mail `address` (lower case, bare), if it cannot: an
/// address with a quoted local part (`"a b"@example.org`) or a domain
/// literal (`a@[127.0.0.1]`) is valid RFC 5322 but does not survive the
/// way into a player's `To` header (`pbem new` took them, and
/// that player never got a key). pbem plays with dot-atom addresses at a
/// host name.
pub fn unmailable(address: &str) -> Option<String> {
    let Some((local, domain)) = address.rsplit_once('@') else {
        return Some("it has no @".into());
    };
    let atext = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c);
    if local.is_empty()
        || local.starts_with('.')
        || local.ends_with('.')
        || local.contains("..")
        || !local.chars().all(|c| atext(c) || c == '.' || !c.is_ascii())
    {
        return Some(format!(
            "the part before the @, `{local}`, is quoted or holds characters pbem does not write in an address"
        ));
    }
    if domain.starts_with('[') {
        return Some(format!(
            "`{domain}` is an address literal; pbem writes to host names only"
        ));
    }
    let label = |l: &str| {
        !l.is_empty()
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    if !domain.split('.').all(label) {
        return Some(format!("`{domain}` is not a host name"));
    }
    match format!("x <{address}>").parse::<lettre::message::Mailbox>() {
        Ok(m) if m.email.to_string().eq_ignore_ascii_case(address) => None,
        _ => Some("it does not read back as written".into()),
    }
}

/// The name in "Name <address>", else the address: how a player is named
/// to the other.
pub fn display_name(mailbox: &str) -> String {
    let m = mailbox.trim();
    match m.rfind('<') {
        Some(i) if i > 0 => {
            let name = m[..i].trim().trim_matches('"').trim();
            if name.is_empty() {
                address_of(m)
            } else {
                name.to_string()
            }
        }
        _ => address_of(m),
    }
}

/// "Name <address>" for a sender, quoting the name when it needs it.
pub fn mailbox(name: Option<&str>, address: &str) -> String {
    match name {
        Some(n) if !n.trim().is_empty() => {
            let n: String = n
                .chars()
                .filter(|c| !c.is_control() && *c != '"' && *c != '\\')
                .collect();
            let n = n.trim();
            if n.chars().any(|c| "()<>[]:;@,.".contains(c)) {
                format!("\"{n}\" <{address}>")
            } else {
                format!("{n} <{address}>")
            }
        }
        _ => address.to_string(),
    }
}

/// The mailbox an address reaches, for counting and for telling players
/// apart: the address without its `+tag`, in lower case
/// (`Victim+7@Example.org` is `victim@example.org`). Mail servers may
/// tell case apart in the local part, but no honest player has two
/// mailboxes that differ only so, and a stranger must not count twice.
pub fn mailbox_key(address: &str) -> String {
    let address = address.trim().to_lowercase();
    match address.rsplit_once('@') {
        Some((local, domain)) => {
            let local = local.split_once('+').map_or(local, |(l, _)| l);
            format!("{local}@{domain}")
        }
        None => address,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_pbem_cannot_write_are_named() {
        for ok in [
            "bob@example.org",
            "o'neil+games@mail.example.co.uk",
            "a@localhost",
            "é@例え.jp",
        ] {
            assert_eq!(unmailable(ok), None, "{ok}");
        }
        for bad in [
            "\"a b\"@example.org",
            "a@[127.0.0.1]",
            "a..b@example.org",
            ".a@example.org",
            "a@-x.org",
            "a@x..org",
            "a b@x.org",
            "a",
        ] {
            assert!(unmailable(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn mailboxes_quote_only_when_needed() {
        assert_eq!(mailbox(Some("Bob"), "bob@x.org"), "Bob <bob@x.org>");
        assert_eq!(
            mailbox(Some("Smith, Bob"), "bob@x.org"),
            "\"Smith, Bob\" <bob@x.org>"
        );
        assert_eq!(
            mailbox(Some("Evil\"\r\nBcc: x"), "bob@x.org"),
            "EvilBcc: x <bob@x.org>".replace("EvilBcc: x", "\"EvilBcc: x\"")
        );
        assert_eq!(address_of("Bob <Bob@X.org>"), "bob@x.org");
    }
}
