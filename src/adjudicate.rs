//! The adjudicator: one parsed mail in, the game's new state on disk and
//! the replies out (issue 3, steps "Commands", "Who may move", "Records",
//! "Replies"). It writes records itself; queueing and sending the replies
//! is [`crate::poll`]'s job.
//!
//! Handling is idempotent: a mail whose Message-ID already stands in the
//! record (a crash after the record was written) changes nothing again but
//! yields the same replies, so a re-run finishes the job.

mod clocks;

pub use clocks::Tick;

use crate::game::{self, Game, Origin, Side, View};
use crate::mail::command::{self, Command, Order};
use crate::mail::inbound::Inbound;
use crate::mail::templates::{Rendered, TemplateError, Templates};
use crate::record::{self, Entry, Event, MoveLine, Record};
use crate::rules::Rules;
use crate::store::{self, Challenge, GameClock, Secrets, Store, StoreError};
use crate::timecontrol::{ClockPolicy, TimeControl};
use chrono::{DateTime, Utc};
use minijinja::context;
use std::collections::BTreeMap;

/// What the adjudicator needs to know about its own address.
#[derive(Clone, Debug)]
pub struct Identity {
    /// pbem's address, `pbem@example.net`: replies come from it, and
    /// players reply to `pbem+<id>.<token>@example.net`.
    pub address: String,
    /// The display name on pbem's mail.
    pub name: String,
    /// Trust `Authentication-Results: <this id>; dmarc=pass` from the
    /// admin's own MTA instead of a token (issue 3, "Who may move").
    pub trusted_authserv: Option<String>,
    /// The admin ("Name <address>"), told of damaged records (issue 5,
    /// "A corrupt record"); none: only the players are told.
    pub admin: Option<String>,
    /// Reminder points, final notice and vacation allowance of game clocks
    /// (issue 4, "Clocks, reminders and absence").
    pub clocks: ClockPolicy,
}

impl Identity {
    fn local_domain(&self) -> (&str, &str) {
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
    /// "Name <address>" or a bare address.
    pub to: String,
    pub rendered: Rendered,
    /// The game it is about, for threading and the Message-ID.
    pub game: Option<String>,
    /// The Reply-To carrying the recipient's key, when they play the game.
    pub reply_to: Option<String>,
}

/// How the mails of a game to its players are headed
/// ([`Adjudicator::thread_head`]).
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// What became of a mail.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Handled {
    pub replies: Vec<Reply>,
    /// One line for the log: the mail's fate.
    pub fate: String,
    /// The mail was refused or could not be used (for the exit status).
    pub failed: bool,
    /// The mail met a game pbem cannot use: the poll tells the admin and
    /// the players (once per damage).
    pub damage: Option<Damage>,
    /// The mail moved a game (a move, a draw, a result, a game begun or
    /// a challenge declined): its replies are news, which the reply limits
    /// do not count ([`crate::poll::limit`]).
    pub progress: bool,
    /// The mail held no command pbem could act on (none at all, or lines
    /// that are no command): what an autoresponder or another robot
    /// writes. The reply limits count such mails in a row (issue 13);
    /// a refused command (an illegal move) is not one: its refusal always
    /// goes out, so the player can mend it.
    pub fruitless: bool,
}

/// A game pbem cannot use: its record (or its challenge) does not read or
/// does not replay (issue 5, "A corrupt record (edited by hand)"). pbem
/// refuses to touch it until it is mended, and goes on with the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// The game's id.
    pub id: String,
    /// What the reader says, with the file and line:
    /// `bz-7k2q.toml:14: 22-13 is not a legal move ...`.
    pub error: String,
    /// The file to mend.
    pub file: std::path::PathBuf,
    /// The file is a game record, which `pbem validate` checks.
    pub record: bool,
}

impl Damage {
    /// The key its notice is committed under: one per game and distinct
    /// error, so the admin and the players are told once, not at every
    /// poll, and told again when the record breaks anew.
    pub fn key(&self) -> String {
        format!(
            "damaged:{}:{:016x}",
            self.id,
            store::stable_hash(self.error.as_bytes())
        )
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AdjudicateError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// The game's record cannot be used (met by the clock sweep).
    #[error("{}", .0.error)]
    Damaged(Damage),
}

impl AdjudicateError {
    /// The data folder cannot be written at all (full, read-only): every
    /// other mail would fail the same way.
    pub fn is_unwritable(&self) -> bool {
        matches!(self, AdjudicateError::Store(e) if e.is_unwritable())
    }
}

type Result<T> = std::result::Result<T, AdjudicateError>;

/// The address inside "Name <address>", lower case.
pub fn address_of(mailbox: &str) -> String {
    let m = mailbox.trim();
    match (m.rfind('<'), m.rfind('>')) {
        (Some(a), Some(b)) if a < b => m[a + 1..b].trim().to_lowercase(),
        _ => m.to_lowercase(),
    }
}

/// Why pbem cannot mail `address` (lower case, bare), if it cannot: an
/// address with a quoted local part (`"a b"@example.org`) or a domain
/// literal (`a@[127.0.0.1]`) is valid RFC 5322 but does not survive the
/// way into a player's `To` header (issue 13: `pbem new` took them, and
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

/// The mailbox an address reaches, for counting: the address without its
/// `+tag` (`victim+7@example.org` is `victim@example.org`).
pub fn mailbox_key(address: &str) -> String {
    match address.rsplit_once('@') {
        Some((local, domain)) => {
            let local = local.split_once('+').map_or(local, |(l, _)| l);
            format!("{local}@{domain}")
        }
        None => address.to_string(),
    }
}

/// The adjudicator for one poll.
pub struct Adjudicator<'a> {
    pub store: &'a Store,
    pub identity: &'a Identity,
    pub templates: &'a Templates,
    /// The one clock (STYLE.md habit 8): the poll's time.
    pub now: DateTime<Utc>,
    /// How many challenges a stranger can make pbem send.
    pub challenges: ChallengeLimits,
}

/// The bounds on challenges (issue 13: one mail with 20 `challenge`
/// lines made pbem mail 20 strangers): `[limits]` in pbem.toml; 0 turns a
/// bound off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChallengeLimits {
    /// Challenges one mail may make; the rest are refused.
    pub per_mail: u32,
    /// Challenges from one mailbox waiting for an answer at once.
    pub open: u32,
}

impl Default for ChallengeLimits {
    fn default() -> ChallengeLimits {
        ChallengeLimits {
            per_mail: 2,
            open: 3,
        }
    }
}

/// How long a challenge counts as waiting for an answer.
const CHALLENGE_OPEN_DAYS: i64 = 30;

/// Where the game of a mail was named.
struct Target {
    id: String,
    token: Option<String>,
}

/// A game or a challenge waiting for its answer, as found on disk.
enum Table {
    Challenge {
        rules: Rules,
        challenge: Challenge,
        secrets: Secrets,
    },
    Game {
        record: Record,
        secrets: Secrets,
    },
    /// A record or challenge pbem cannot read.
    Damaged {
        damage: Damage,
        /// The players' keys and registered addresses, if their file
        /// reads.
        secrets: Option<Secrets>,
    },
}

/// Who wrote a mail, as far as one game is concerned (issue 3, "Who may
/// move").
#[derive(Clone, Debug, PartialEq, Eq)]
enum Standing {
    /// A player who proved it, with their key or (if trusted) DMARC: the
    /// side they play.
    Player(Side),
    /// A player's address without a valid key: perhaps forged.
    Unproven,
    /// Not a player.
    Stranger,
    /// The record cannot be read, and the sender's address or key is in
    /// it.
    Unreadable(Damage),
}

/// Whose key a mail carried, when it did not prove its sender a player
/// (issue 5, "Spoofing").
#[derive(Clone, Debug, PartialEq, Eq)]
enum Key {
    /// None.
    Missing,
    /// No key pbem gave out: mistyped, made up, or of a game long gone.
    Unknown,
    /// The key of a player: of `side` in game (or challenge) `id`, which
    /// may be another game than the mail's; `player` is "Name <address>".
    Of {
        id: String,
        side: String,
        player: String,
    },
}

impl Key {
    /// "without a key", "with the key of black in bz-1 (alice@...)": for
    /// the log.
    fn words(&self) -> String {
        match self {
            Key::Missing => "without a key".into(),
            Key::Unknown => "with a key pbem never gave out".into(),
            Key::Of { id, side, player } => {
                format!("with the key of {side} in {id} ({})", address_of(player))
            }
        }
    }
}

impl Table {
    fn rules(&self) -> Option<Rules> {
        match self {
            Table::Challenge { rules, .. } => Some(*rules),
            Table::Game { record, .. } => Some(record.rules),
            Table::Damaged { .. } => None,
        }
    }

    /// The players, side by side, as "Name <address>".
    fn players(&self) -> Vec<(Side, String)> {
        match self {
            Table::Challenge {
                rules, challenge, ..
            } => {
                let theirs = rules
                    .side_named(&challenge.challenger_side)
                    .unwrap_or(Side::A);
                vec![
                    (theirs, challenge.challenger.clone()),
                    (theirs.other(), challenge.opponent.clone()),
                ]
            }
            Table::Game { record, .. } => record
                .players
                .iter()
                .filter_map(|(name, m)| Some((record.rules.side_named(name)?, m.clone())))
                .collect(),
            Table::Damaged { .. } => Vec::new(),
        }
    }

    fn token(&self, side: Side) -> Option<&str> {
        let (rules, secrets) = match self {
            Table::Challenge { rules, secrets, .. } => (*rules, secrets),
            Table::Game { record, secrets } => (record.rules, secrets),
            Table::Damaged { .. } => return None,
        };
        secrets
            .tokens
            .get(rules.side_name(side))
            .map(String::as_str)
    }

    /// Whether `from` proved they play: their address with the key of
    /// their side, or their address alone when the admin's MTA vouched
    /// for it (`dmarc_pass`) and it plays one side only.
    fn standing(&self, from: &str, token: Option<&str>, dmarc_pass: bool) -> Standing {
        if let Table::Damaged { damage, secrets } = self {
            // Exact matches only (issue 13): a key of the game, or an
            // address pbem registered as a player; never a substring of
            // the damaged text.
            let known = secrets.as_ref().is_some_and(|s| {
                token.is_some_and(|t| s.tokens.values().any(|k| k == t)) || s.registered(from)
            });
            return if known {
                Standing::Unreadable(damage.clone())
            } else {
                Standing::Stranger
            };
        }
        let mine: Vec<Side> = self
            .players()
            .into_iter()
            .filter(|(_, m)| address_of(m) == from)
            .map(|(s, _)| s)
            .collect();
        if let Some(&s) = mine
            .iter()
            .find(|&&s| token.is_some() && token == self.token(s))
        {
            Standing::Player(s)
        } else if mine.len() == 1 && dmarc_pass {
            Standing::Player(mine[0])
        } else if mine.is_empty() {
            Standing::Stranger
        } else {
            Standing::Unproven
        }
    }
}

/// A refusal: what was refused, why, and what helps (issue 3, "Replies":
/// what was wrong and why, the board, and the legal moves).
#[derive(Debug, Default)]
struct Refusal {
    /// The command as written; empty when the mail had none.
    command: String,
    reason: String,
    board: Option<String>,
    legal: Vec<String>,
    /// The square the legal moves start from, when they all do.
    from: Option<String>,
    /// The mail's other commands, not carried out because of this one.
    skipped: String,
    /// The section of the game's rules the refusal rests on: the mail
    /// tells the player how to read it (the `rules GAME` command).
    rule: Option<crate::rules::Cite>,
    /// Nothing to correct: the player is to wait (a move out of turn, a
    /// challenge not answered yet), and is told so instead of being asked
    /// for a correction (issue 12).
    wait: bool,
}

/// A command refused, and why (for the log).
struct Refused {
    refusal: Refusal,
    why: String,
}

/// One game while a mail's commands are applied to it.
struct Turn<'a, G: Game> {
    id: &'a str,
    from: &'a str,
    mail: &'a Inbound,
    /// The side of the mail's sender.
    side: Side,
    secrets: &'a Secrets,
    rec: Record,
    replayed: record::Replayed<G>,
    /// The mail was handled before (its Message-ID is in the record).
    already: bool,
    /// Lines were added to `rec`.
    changed: bool,
    /// The game's clock, caught up with the record, if it has one.
    clock: Option<GameClock>,
    replies: Vec<Reply>,
    fates: Vec<String>,
    /// `board` and `moves` asked in the mail: answered once the whole mail
    /// is carried out, on the position it leaves; not at all when it is
    /// refused (issue 12: a refused mail shows nothing of its refused
    /// moves; the refusal shows the board as it stands).
    asked: Vec<Command>,
    /// The number of the command being carried out, in the mail.
    index: usize,
}

impl<G: Game> Turn<'_, G> {
    fn pos(&self) -> &G {
        self.replayed.position()
    }

    fn ply(&self) -> usize {
        self.replayed.moves.len()
    }

    /// The board from the sender's seat.
    fn board(&self) -> String {
        self.pos().diagram(&View {
            last: self.replayed.moves.last().cloned(),
            seat: Some(self.side),
            ply: self.ply(),
            ended: self.replayed.end.clone(),
        })
    }

    /// "Name <address>" of the player of `side`.
    fn player(&self, side: Side) -> String {
        self.rec
            .players
            .get(G::RULES.side_name(side))
            .cloned()
            .unwrap_or_default()
    }

    fn reply_to(&self, a: &Adjudicator<'_>, side: Side) -> Option<String> {
        self.secrets
            .tokens
            .get(G::RULES.side_name(side))
            .map(|k| a.identity.reply_to(self.id, k))
    }

    /// Adds a line written by the sender, now, from this mail.
    fn push(&mut self, number: Option<u32>, entry: Entry, now: DateTime<Utc>) {
        self.rec.lines.push(MoveLine {
            line: 0,
            number,
            side: Some(self.side),
            entry,
            time: Some(now.fixed_offset()),
            message_id: self.mail.message_id.as_deref().map(record::message_id_form),
        });
        self.changed = true;
    }
}

impl Refusal {
    fn new(command: impl Into<String>, reason: impl Into<String>) -> Refusal {
        Refusal {
            command: command.into(),
            reason: reason.into(),
            ..Refusal::default()
        }
    }
}

impl Adjudicator<'_> {
    /// Handles one mail.
    ///
    /// # Errors
    /// Only store and template failures: the mail then stays unprocessed.
    pub fn handle(&self, mail: &Inbound) -> Result<Handled> {
        if let Some(why) = &mail.automated {
            return Ok(fate(format!("dropped, automated mail: {why}")));
        }
        let Some(from) = mail.from.clone() else {
            return Ok(failed(Vec::new(), "dropped: no usable From address".into()));
        };
        if from == self.identity.address.to_lowercase()
            || from.starts_with(&format!("{}+", self.identity.local_domain().0))
                && from.ends_with(self.identity.domain())
        {
            return Ok(fate("dropped: sent by pbem itself".into()));
        }
        let parsed = command::parse(&mail.body);
        let target = self.target(mail);
        let mut commands = parsed.commands.clone();
        let token = target.as_ref().and_then(|t| t.token.clone()).or_else(|| {
            commands.iter().find_map(|c| match c {
                Command::Token(t) => Some(t.clone()),
                _ => None,
            })
        });
        commands.retain(|c| !matches!(c, Command::Token(_)));
        // The game the mail is about, and whether its sender proved they
        // play it. Checked before anything is answered, so a stranger
        // learns nothing of a game, not even from a refused line.
        let table = match &target {
            Some(t) => self.table(&t.id)?.map(|table| (t.id.clone(), table)),
            None => None,
        };
        let needs_game = |c: &Command| {
            !matches!(
                c,
                Command::Challenge { .. } | Command::Games | Command::Rules { .. } | Command::Help
            )
        };
        let mut side = None;
        if let Some((id, table)) = &table {
            let about_game =
                !parsed.errors.is_empty() || commands.is_empty() || commands.iter().any(needs_game);
            match table.standing(&from, token.as_deref(), self.dmarc_pass(mail)) {
                Standing::Player(s) => side = Some(s),
                _ if !about_game => {}
                Standing::Unproven => {
                    let key = self.whose_key(id, table, token.as_deref())?;
                    return self.spoofed(&from, id, table, key);
                }
                Standing::Unreadable(damage) => return self.damaged(&from, damage),
                Standing::Stranger => {
                    if let Table::Damaged { damage, .. } = table {
                        // Not for a stranger's eyes, but the admin and
                        // the players hear of a damaged game all the same.
                        return Ok(Handled {
                            damage: Some(damage.clone()),
                            ..failed(
                                Vec::new(),
                                format!("dropped: {from} is not a player of {id}"),
                            )
                        });
                    }
                    let key = self.whose_key(id, table, token.as_deref())?;
                    return self.stranger(&from, id, key);
                }
            }
        }
        // The game named in a refusal: only for its players.
        let known = table
            .as_ref()
            .filter(|_| side.is_some())
            .map(|(id, _)| id.as_str());
        if let Some(e) = parsed.errors.first() {
            let r = self.reject(&from, known, Refusal::new(&e.line, &e.message))?;
            return Ok(Handled {
                fruitless: true,
                ..failed(vec![r], format!("refused from {from}: {e}"))
            });
        }
        if commands.is_empty() {
            let r = self.reject(
                &from,
                known,
                Refusal::new("", no_command_reason(&mail.body)),
            )?;
            return Ok(Handled {
                fruitless: true,
                ..failed(vec![r], format!("refused from {from}: no command"))
            });
        }
        // A player's `help`, `games` or `rules` in a game's thread: answered
        // in that thread, with their key to reply with (issue 12).
        let thread = table.as_ref().zip(side).map(|((id, t), s)| {
            (
                id.clone(),
                t.token(s).map(|k| self.identity.reply_to(id, k)),
            )
        });
        match (table, side) {
            (Some((id, table)), Some(side)) if commands.iter().any(needs_game) => {
                self.in_game(&from, mail, &id, table, side, &commands)
            }
            (None, _) if target.is_some() && commands.iter().any(needs_game) => {
                // An unknown id: say nothing that helps a stranger guess.
                Ok(fate(format!(
                    "dropped: mail from {from} names unknown game {}",
                    target.map(|t| t.id).unwrap_or_default()
                )))
            }
            _ => {
                let mut replies = Vec::new();
                let mut failed_any = false;
                // The challenges past the bound of one mail (issue 13).
                let mut over = Vec::new();
                for (n, c) in commands.iter().enumerate() {
                    if matches!(c, Command::Challenge { .. })
                        && self.challenges.per_mail > 0
                        && commands[..n]
                            .iter()
                            .filter(|c| matches!(c, Command::Challenge { .. }))
                            .count()
                            >= self.challenges.per_mail as usize
                    {
                        over.push(c.to_string());
                        continue;
                    }
                    let (r, refused) = self.gameless(&from, mail, c, n)?;
                    replies.extend(r.into_iter().map(|r| match &thread {
                        Some((id, reply_to)) if !matches!(c, Command::Challenge { .. }) => Reply {
                            game: Some(id.clone()),
                            reply_to: reply_to.clone(),
                            ..r
                        },
                        _ => r,
                    }));
                    failed_any |= refused;
                }
                if let Some(first) = over.first() {
                    let per_mail = self.challenges.per_mail;
                    let what = match over.len() - 1 {
                        0 => "this one was".to_string(),
                        n => format!("this one and {n} more were"),
                    };
                    replies.push(self.reject(
                        &from,
                        None,
                        Refusal::new(
                            first.clone(),
                            format!(
                                "one mail makes at most {per_mail} challenge{}: {what} not sent; send each in a later mail",
                                if per_mail == 1 { "" } else { "s" }
                            ),
                        ),
                    )?);
                    failed_any = true;
                }
                Ok(Handled {
                    fate: summary(&commands),
                    replies,
                    failed: failed_any,
                    damage: None,
                    progress: false,
                    fruitless: false,
                })
            }
        }
    }

    /// The game or challenge `id` names, if there is one.
    fn table(&self, id: &str) -> Result<Option<Table>> {
        if let Some(ch) = self.store.challenge(id)? {
            let secrets = self.store.secrets(id)?;
            return Ok(Some(match ch.rules.parse::<Rules>() {
                Ok(rules) => Table::Challenge {
                    rules,
                    challenge: ch,
                    secrets,
                },
                Err(e) => Table::Damaged {
                    damage: Damage {
                        id: id.to_string(),
                        error: format!("challenge {id}: {e}"),
                        file: self.store.challenge_path(id)?,
                        record: false,
                    },
                    secrets: Some(secrets),
                },
            }));
        }
        let text = match self.store.read_game(id) {
            Ok(Some(text)) => text,
            Ok(None) => return Ok(None),
            // Bytes that are not UTF-8 (issue 13): a damaged record like
            // any other, not a store failure that keeps the mail waiting.
            Err(e @ StoreError::NotText { .. }) => {
                return Ok(Some(Table::Damaged {
                    damage: self.damage(id, &e),
                    secrets: self.store.secrets(id).ok(),
                }));
            }
            Err(e) => return Err(e.into()),
        };
        Ok(Some(match Record::parse(&format!("{id}.toml"), &text) {
            Ok(record) => Table::Game {
                record,
                secrets: self.store.secrets(id)?,
            },
            Err(e) => Table::Damaged {
                damage: self.damage(id, &e),
                secrets: self.store.secrets(id).ok(),
            },
        }))
    }

    /// Finds the game a mail is about: the plus-address, the subject tag
    /// `[pbem <id>]`, or a Message-ID of pbem's in its thread.
    fn target(&self, mail: &Inbound) -> Option<Target> {
        let (local, domain) = self.identity.local_domain();
        let prefix = format!("{}+", local.to_lowercase());
        for r in &mail.recipients {
            if let Some(rest) = r.strip_prefix(&prefix)
                && let Some((tag, d)) = rest.split_once('@')
                && d.eq_ignore_ascii_case(domain)
            {
                let (id, token) = match tag.split_once('.') {
                    Some((i, t)) => (i, Some(t.to_string())),
                    None => (tag, None),
                };
                if store::valid_id(id) {
                    return Some(Target {
                        id: id.to_string(),
                        token,
                    });
                }
            }
        }
        let subj = mail.subject.to_lowercase();
        if let Some(i) = subj.find("[pbem ") {
            let id: String = subj[i + 6..].chars().take_while(|c| *c != ']').collect();
            let id = id.trim();
            if store::valid_id(id) {
                return Some(Target {
                    id: id.to_string(),
                    token: None,
                });
            }
        }
        for t in &mail.thread {
            if let Some(rest) = t.strip_prefix("<pbem.")
                && let Some((id, _)) = rest.split_once('.')
                && store::valid_id(id)
            {
                return Some(Target {
                    id: id.to_string(),
                    token: None,
                });
            }
        }
        None
    }

    /// How the mails of game (or challenge) `id` to its players are headed
    /// (issue 12: one thread per game and player): the subject of every
    /// mail of the game, `[pbem bz-7k2q] Boom & Zoom: Alice vs Bob` (the
    /// players' names in the order of their sides), and each player's
    /// "Name <address>" as the game knows it, so that every mail's `To`
    /// has one form. `None` when the game's players cannot be read.
    pub fn thread_head(&self, id: &str) -> Option<ThreadHead> {
        let (rules, players): (Rules, Vec<String>) = match self.table(id).ok()?? {
            Table::Game { record, .. } => (
                record.rules,
                Side::BOTH
                    .iter()
                    .filter_map(|s| record.players.get(record.rules.side_name(*s)).cloned())
                    .collect(),
            ),
            // Until the opponent accepts, the challenger is a stranger to
            // them: their address only, no name of their choosing, in the
            // subject (issue 13).
            Table::Challenge {
                rules, challenge, ..
            } => {
                let mut p = vec![
                    address_of(&challenge.challenger),
                    challenge.opponent.clone(),
                ];
                if rules.side_named(&challenge.challenger_side) != Some(Side::A) {
                    p.reverse();
                }
                (rules, p)
            }
            Table::Damaged { .. } => return None,
        };
        let names: Vec<String> = players.iter().map(|m| display_name(m)).collect();
        let r = self
            .templates
            .render(
                "_thread",
                context! { id, game => rules.name(), players => names },
            )
            .ok()?;
        let subject = r.text.trim();
        (!subject.is_empty() && !subject.contains('\n')).then(|| ThreadHead {
            subject: subject.to_string(),
            players,
        })
    }

    /// When pbem received the mail it is handling, for a notice to
    /// someone who may not have sent it: the one thing about a stranger's
    /// mail pbem repeats to a third party (issue 13: its subject or
    /// Message-ID would carry the stranger's text).
    fn received(&self) -> String {
        self.now.format("%Y-%m-%d %H:%M UTC").to_string()
    }

    fn info(&self, to: &str, title: &str, text: &str, game: Option<&str>) -> Result<Reply> {
        Ok(Reply {
            to: to.to_string(),
            rendered: self
                .templates
                .render("info", context! { id => game, title, text })?,
            game: game.map(str::to_string),
            reply_to: None,
        })
    }

    fn reject(&self, to: &str, game: Option<&str>, refusal: Refusal) -> Result<Reply> {
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
        Ok(Reply {
            to: to.to_string(),
            rendered: self.templates.render(
                "rejected",
                context! { id => game, game => name, what, command, reason, rules_of, section, board, legal => listing(&legal), from, skipped, wait },
            )?,
            game: game.map(str::to_string),
            reply_to,
        })
    }

    /// Commands outside a game: challenge, games, rules, help; and whether
    /// the command was refused.
    fn gameless(
        &self,
        from: &str,
        mail: &Inbound,
        c: &Command,
        n: usize,
    ) -> Result<(Vec<Reply>, bool)> {
        let refuse = |command: String, reason: &str| -> Result<(Vec<Reply>, bool)> {
            Ok((
                vec![self.reject(from, None, Refusal::new(command, reason))?],
                true,
            ))
        };
        Ok((
            match c {
                Command::Help => vec![Reply {
                    to: from.to_string(),
                    rendered: self.templates.render(
                        "help",
                        context! { games => Rules::ALL.map(|r| r.slug()).join(", ") },
                    )?,
                    game: None,
                    reply_to: None,
                }],
                Command::Rules { game } => {
                    let (title, text) = match game {
                        Some(r) => (format!("rules of {}", r.name()), r.rules_text()),
                        None => ("rules".to_string(), crate::rules::listing()),
                    };
                    vec![self.info(from, &title, &text, None)?]
                }
                Command::Games => {
                    vec![self.info(from, "your games", &self.games_of(from)?, None)?]
                }
                Command::Challenge {
                    rules,
                    opponent,
                    order,
                    clock,
                } => return self.challenge(from, mail, n, *rules, opponent, *order, *clock),
                Command::Timezone(_) | Command::Vacation(_) | Command::Digest(_) => {
                    return refuse(
                        c.to_string(),
                        "pbem cannot tell it is you: send it in a reply to a mail from pbem about one of your games (the reply address carries your key); it then applies to all your games",
                    );
                }
                other => return refuse(other.to_string(), &self.which_game(from)?),
            },
            false,
        ))
    }

    /// The refusal of a game command that names no game: the sender's
    /// running games, each with the address that reaches it (their key in
    /// it: this mail goes to the sender's address alone).
    fn which_game(&self, who: &str) -> Result<String> {
        let mut running = Vec::new();
        for id in self.store.game_ids()? {
            let Some(Table::Game { record, secrets }) = self.table(&id)? else {
                continue;
            };
            let playing = record.players.iter().find(|(_, m)| address_of(m) == who);
            if let Some((side, _)) = playing
                && record.result.as_ref().is_none_or(|(r, _)| r == "*")
                && let Some(key) = secrets.tokens.get(side)
            {
                running.push(format!(
                    "{id} ({}, you play {side}): write to {}",
                    record.rules.name(),
                    self.identity.reply_to(&id, key)
                ));
            }
        }
        let how = "which game? Reply to the last mail pbem sent you about the game: its reply address carries your key";
        Ok(if running.is_empty() {
            format!("{how}. You play no game with pbem now; `challenge GAME ADDRESS` starts one")
        } else {
            format!(
                "{how}. Or write to the game's own address:\n{}",
                running.join("\n")
            )
        })
    }

    fn games_of(&self, who: &str) -> Result<String> {
        let mut lines = Vec::new();
        for id in self.store.game_ids()? {
            // A record that is not text is damaged: left out like one
            // that does not parse.
            let text = match self.store.read_game(&id) {
                Ok(Some(text)) => text,
                Ok(None) | Err(StoreError::NotText { .. }) => continue,
                Err(e) => return Err(e.into()),
            };
            let Ok(rec) = Record::parse(&id, &text) else {
                continue;
            };
            if let Some((side, _)) = rec.players.iter().find(|(_, m)| address_of(m) == who) {
                let result = rec.result.as_ref().map(|(r, _)| r.as_str()).unwrap_or("*");
                lines.push(format!(
                    "{id:<16} {:<20} you play {side:<10} {}",
                    rec.rules.name(),
                    match result {
                        "*" => "in play".to_string(),
                        "draw" => "over: drawn".to_string(),
                        r if r == side => "over: you won".to_string(),
                        r => format!("over: {r} won"),
                    }
                ));
                // The way back into the game: its reply address, with the
                // key. It goes to `who` alone, whose key it is (issue 12).
                if result == "*"
                    && let Some(key) = self.store.secrets(&id)?.tokens.get(side.as_str())
                {
                    lines.push(format!(
                        "{:<16} to play, write to {}",
                        "",
                        self.identity.reply_to(&id, key)
                    ));
                }
            }
        }
        for id in self.store.challenge_ids()? {
            if let Some(c) = self.store.challenge(&id)?
                && (address_of(&c.challenger) == who || c.opponent == who)
            {
                let name = c
                    .rules
                    .parse::<Rules>()
                    .map_or(c.rules.clone(), |r| r.name().to_string());
                let state = if c.opponent == who {
                    format!(
                        "{} challenges you: answer accept or decline",
                        address_of(&c.challenger)
                    )
                } else {
                    format!("challenge waiting for {}", c.opponent)
                };
                lines.push(format!("{id:<16} {name:<20} {state}"));
            }
        }
        Ok(if lines.is_empty() {
            "You have no games with pbem yet. Start one with: challenge GAME ADDRESS".into()
        } else {
            lines.join("\n")
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn challenge(
        &self,
        from: &str,
        mail: &Inbound,
        n: usize,
        rules: Rules,
        opponent: &str,
        order: Order,
        clock: Option<TimeControl>,
    ) -> Result<(Vec<Reply>, bool)> {
        // Each refusal of a challenge: one answer to the challenger.
        let refuse = |command: String, reason: String| -> Result<(Vec<Reply>, bool)> {
            Ok((
                vec![self.reject(from, None, Refusal::new(command, reason))?],
                true,
            ))
        };
        let command = |opponent: &str| format!("challenge {} {opponent}", rules.slug());
        // One address pbem can write to, as it will write it, or nothing
        // is made (issue 5: a list or a broken address made a challenge
        // whose mail to the opponent was never sent, while the challenger
        // was told it was).
        let Ok(opponent) = opponent
            .parse::<lettre::message::Mailbox>()
            .map(|m| m.email.to_string().to_lowercase())
        else {
            let opponent = opponent.to_lowercase();
            return refuse(
                command(&opponent),
                format!(
                    "`{opponent}` is not a mail address pbem can write to; challenge one player by their address, like bob@example.org"
                ),
            );
        };
        if let Some(why) = unmailable(&opponent) {
            return refuse(
                command(&opponent),
                format!("pbem cannot write to `{opponent}`: {why}"),
            );
        }
        if opponent == from || !opponent.contains('@') {
            return refuse(
                "challenge".into(),
                "you cannot play yourself: challenge another player's address".into(),
            );
        }
        // A mail handled again after a crash finds the challenge it made
        // (by a hash of its sender, Message-ID and text, and the command's
        // place in it, as the poll knows a mail again: a stranger's mail
        // with the same Message-ID is another mail); each challenge of a
        // mail is its own.
        let source = store::strong_hash(&[
            from.as_bytes(),
            mail.message_id.as_deref().unwrap_or_default().as_bytes(),
            mail.body.as_bytes(),
            n.to_string().as_bytes(),
        ]);
        let (id, challenge) = match self.challenge_from(&source)? {
            Some(found) => found,
            None => {
                let open = self.open_challenges_of(from)?;
                if self.challenges.open > 0 && open.len() >= self.challenges.open as usize {
                    return refuse(
                        command(&opponent),
                        format!(
                            "{} of your challenges wait for an answer ({}), as many as pbem keeps open for one address; once one is accepted or declined you can challenge again (to withdraw one, reply `decline` to pbem's mail about it; a challenge older than {CHALLENGE_OPEN_DAYS} days no longer counts)",
                            open.len(),
                            open.join(", ")
                        ),
                    );
                }
                let id = self.fresh_id(rules)?;
                let challenger_first = match order {
                    Order::First => true,
                    Order::Second => false,
                    // Who moves first is no secret, and the challenger
                    // may choose it outright: a bit of the source will do,
                    // and a mail handled again decides the same.
                    Order::Random => source.starts_with(['8', '9', 'a', 'b', 'c', 'd', 'e', 'f']),
                };
                let first = rules.fixed_first().unwrap_or(Side::A);
                let challenger_side = if challenger_first {
                    first
                } else {
                    first.other()
                };
                let c = Challenge {
                    rules: rules.slug().into(),
                    challenger: mailbox(mail.from_name.as_deref(), from),
                    opponent: opponent.clone(),
                    challenger_side: rules.side_name(challenger_side).into(),
                    first: rules.side_name(first).into(),
                    created: self.now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                    clock,
                    source: Some(source),
                };
                let mut secrets = Secrets::default();
                for s in Side::BOTH {
                    secrets
                        .tokens
                        .insert(rules.side_name(s).into(), store::new_token()?);
                }
                secrets.players = BTreeMap::from([
                    (c.challenger_side.clone(), from.to_lowercase()),
                    (
                        rules.side_name(challenger_side.other()).into(),
                        opponent.clone(),
                    ),
                ]);
                self.store.write_secrets(&id, &secrets)?;
                self.store.write_challenge(&id, &c)?;
                (id, c)
            }
        };
        let first = rules
            .side_named(&challenge.first)
            .unwrap_or_else(|| rules.fixed_first().unwrap_or(Side::A));
        let secrets = self.store.secrets(&id)?;
        let opp_side = rules
            .side_named(&challenge.challenger_side)
            .unwrap_or(Side::A)
            .other();
        let board = crate::with_game!(rules, G => G::start(first).diagram(&View { seat: Some(opp_side), ..View::default() }));
        let i = rules.info();
        let token = |s: Side| {
            secrets
                .tokens
                .get(rules.side_name(s))
                .cloned()
                .unwrap_or_default()
        };
        Ok((vec![
            Reply {
                to: opponent.clone(),
                rendered: self.templates.render(
                    "challenge",
                    context! { id => id.clone(), game => i.name, slug => i.slug, byline => i.credit.to_string(), challenger => address_of(&challenge.challenger),
                        your_side => rules.side_name(opp_side), first => rules.side_name(first),
                        summary => i.summary, notation => i.notation, board, clock => challenge.clock.map(|c| c.to_string()), clock_words => challenge.clock.map(|c| c.in_words()) },
                )?,
                game: Some(id.clone()),
                reply_to: Some(self.identity.reply_to(&id, &token(opp_side))),
            },
            Reply {
                to: challenge.challenger.clone(),
                rendered: self.templates.render(
                    "challenged",
                    context! { id => id.clone(), game => i.name, opponent => opponent.clone(), your_side => challenge.challenger_side.clone(), first => rules.side_name(first), clock => challenge.clock.map(|c| c.to_string()), clock_words => challenge.clock.map(|c| c.in_words()) },
                )?,
                game: Some(id.clone()),
                reply_to: Some(self.identity.reply_to(&id, &token(opp_side.other()))),
            },
        ], false))
    }

    /// The ids of the challenges from `from`'s mailbox (any `+tag`) that
    /// wait for an answer, younger than [`CHALLENGE_OPEN_DAYS`].
    fn open_challenges_of(&self, from: &str) -> Result<Vec<String>> {
        let who = mailbox_key(from);
        let since = self.now - chrono::Duration::days(CHALLENGE_OPEN_DAYS);
        let mut open = Vec::new();
        for id in self.store.challenge_ids()? {
            if let Some(c) = self.store.challenge(&id)?
                && mailbox_key(&address_of(&c.challenger)) == who
                && DateTime::parse_from_rfc3339(&c.created).is_ok_and(|t| t.to_utc() > since)
            {
                open.push(id);
            }
        }
        Ok(open)
    }

    /// The challenge a command made before (its `source`), if any.
    fn challenge_from(&self, source: &str) -> Result<Option<(String, Challenge)>> {
        for id in self.store.challenge_ids()? {
            if let Some(c) = self.store.challenge(&id)?
                && c.source.as_deref() == Some(source)
            {
                return Ok(Some((id, c)));
            }
        }
        Ok(None)
    }

    /// A new id for a game of `rules` that nothing has (issue 13: random,
    /// and never one in use: a challenge must not replace a game).
    fn fresh_id(&self, rules: Rules) -> Result<String> {
        for _ in 0..16 {
            let id = store::new_game_id(id_prefix(rules))?;
            if !self.store.id_taken(&id)? {
                return Ok(id);
            }
        }
        Err(StoreError::Invalid("no free game id after 16 random tries".into()).into())
    }

    /// Commands about one game, from a player who proved it (`side`).
    fn in_game(
        &self,
        from: &str,
        mail: &Inbound,
        id: &str,
        table: Table,
        side: Side,
        commands: &[Command],
    ) -> Result<Handled> {
        let (record, secrets) = match table {
            Table::Game { record, secrets } => (record, secrets),
            Table::Challenge {
                rules, challenge, ..
            } => return self.answer(from, mail, id, rules, &challenge, side, commands),
            Table::Damaged { damage, .. } => return self.damaged(from, damage),
        };
        crate::with_game!(record.rules, G => self.play::<G>(from, mail, id, side, &secrets, record, commands))
    }

    /// A mail about a challenge waiting for its answer.
    #[allow(clippy::too_many_arguments)]
    fn answer(
        &self,
        from: &str,
        mail: &Inbound,
        id: &str,
        rules: Rules,
        ch: &Challenge,
        side: Side,
        commands: &[Command],
    ) -> Result<Handled> {
        let not_yet = |reason: String, why: &str| -> Result<Handled> {
            let refusal = Refusal {
                wait: why == "not answered yet",
                ..Refusal::new(summary(commands), reason)
            };
            let r = self.reject(from, Some(id), refusal)?;
            Ok(failed(
                vec![r],
                format!("refused from {from}: challenge {id} {why}"),
            ))
        };
        if rules.side_named(&ch.challenger_side) == Some(side) {
            // The challenger, with their key: `decline` withdraws the
            // challenge (issue 13: so that the bound on open challenges
            // never locks a player out); anything else is too early.
            if let Some(Command::Decline) = commands.first() {
                return self.withdraw(from, id, rules, ch);
            }
            return not_yet(
                format!(
                    "the game has not begun: {} has not answered your challenge yet; pbem will write to you when they do (to withdraw the challenge, reply `decline`)",
                    ch.opponent
                ),
                "not answered yet",
            );
        }
        match commands.first() {
            Some(Command::Accept) => self.accept(id, ch, rules, mail),
            Some(Command::Decline) => {
                self.store.remove_challenge(id)?;
                let r = Reply {
                    to: ch.challenger.clone(),
                    rendered: self.templates.render(
                        "declined",
                        context! { id, game => rules.name(), opponent => ch.opponent.clone() },
                    )?,
                    game: Some(id.to_string()),
                    reply_to: None,
                };
                Ok(Handled {
                    replies: vec![r],
                    fate: format!("challenge {id} declined by {from}"),
                    failed: false,
                    damage: None,
                    progress: true,
                    fruitless: false,
                })
            }
            _ => not_yet(
                "the game has not begun: reply `accept` to play, or `decline`".into(),
                "not answered",
            ),
        }
    }

    /// The challenger's `decline`: the challenge is withdrawn, and both
    /// are told (the opponent in a word: pbem's own, none of the
    /// challenger's).
    fn withdraw(&self, from: &str, id: &str, rules: Rules, ch: &Challenge) -> Result<Handled> {
        self.store.remove_challenge(id)?;
        let challenger = address_of(&ch.challenger);
        let replies = [(ch.challenger.clone(), true), (ch.opponent.clone(), false)]
            .into_iter()
            .map(|(to, yours)| {
                Ok(Reply {
                    to,
                    rendered: self.templates.render(
                        "withdrawn",
                        context! { id, game => rules.name(), challenger => challenger.clone(), opponent => ch.opponent.clone(), yours },
                    )?,
                    game: Some(id.to_string()),
                    reply_to: None,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Handled {
            replies,
            fate: format!("challenge {id} withdrawn by {from}"),
            failed: false,
            damage: None,
            progress: true,
            fruitless: false,
        })
    }

    fn dmarc_pass(&self, mail: &Inbound) -> bool {
        let Some(trusted) = &self.identity.trusted_authserv else {
            return false;
        };
        // Only the topmost header: the one the admin's MTA added last. A
        // sender can write any header below it (RFC 8601, section 7.2).
        // Parsed by RFC 8601, for the domain of this mail's From alone
        // (issue 13).
        let Some(domain) = mail.from.as_deref().and_then(|f| f.rsplit_once('@')) else {
            return false;
        };
        mail.authentication_results
            .first()
            .is_some_and(|h| crate::mail::authres::dmarc_passed(h, trusted, domain.1))
    }

    /// Whose key `token` is, when it did not prove its sender a player of
    /// game `id` (issue 5, "Spoofing"): a side's of this game, or a
    /// player's of another game or challenge (every secrets file is read:
    /// this happens only for refused mail), or nobody's.
    fn whose_key(&self, id: &str, table: &Table, token: Option<&str>) -> Result<Key> {
        let Some(token) = token else {
            return Ok(Key::Missing);
        };
        let of = |id: &str, t: &Table| {
            t.players()
                .into_iter()
                .find(|(s, _)| t.token(*s) == Some(token))
                .and_then(|(s, player)| {
                    Some(Key::Of {
                        id: id.to_string(),
                        side: t.rules()?.side_name(s).to_string(),
                        player,
                    })
                })
        };
        if let Some(k) = of(id, table) {
            return Ok(k);
        }
        let Some(other) = self.store.key_owner(token)? else {
            return Ok(Key::Unknown);
        };
        Ok(self
            .table(&other)?
            .and_then(|t| of(&other, &t))
            .unwrap_or(Key::Unknown))
    }

    /// A mail for a game from a player's address without their key:
    /// nothing moves, and the registered address is told (it is the
    /// sender's, so a forger learns nothing), and so is the player whose
    /// key it carried, if it was another's.
    fn spoofed(&self, from: &str, id: &str, table: &Table, key: Key) -> Result<Handled> {
        let game = table.rules().map_or("", Rules::name);
        let why = match &key {
            Key::Missing => "it did not carry your key".to_string(),
            Key::Unknown => {
                "it carried a key pbem never gave out (a mistyped or guessed one)".to_string()
            }
            Key::Of { id: k, side, .. } if k == id => {
                format!("it carried the key of {side}, your opponent's side, not yours")
            }
            Key::Of { id: k, player, .. } if address_of(player) == from => {
                format!("it carried your key for game {k}, which counts only in that game")
            }
            Key::Of { .. } => {
                "the key it carried is not yours: it belongs to another player".to_string()
            }
        };
        let mut replies = vec![Reply {
            to: from.to_string(),
            rendered: self.templates.render(
                "spoofed",
                context! { id, game, why, received => self.received() },
            )?,
            game: Some(id.to_string()),
            reply_to: None,
        }];
        let mut told = "the registered address was told".to_string();
        if let Some(warning) = self.key_warning(from, id, &key)? {
            told = format!("{told}, and so was {}", address_of(&warning.to));
            replies.push(warning);
        }
        Ok(failed(
            replies,
            format!("refused: mail for {id} from {from} {}; {told}", key.words()),
        ))
    }

    /// A mail for a game from an address that plays no side in it: nothing
    /// moves, nothing is answered (a stranger learns nothing of a game);
    /// when it carried a player's key, that player is told.
    fn stranger(&self, from: &str, id: &str, key: Key) -> Result<Handled> {
        let dropped = format!("{from} is not a player of {id}");
        Ok(match self.key_warning(from, id, &key)? {
            Some(warning) => {
                let owner = address_of(&warning.to);
                failed(
                    vec![warning],
                    format!(
                        "refused: mail for {id} from {from} {}; {dropped}, so nothing was done; {owner} was told",
                        key.words()
                    ),
                )
            }
            None => failed(Vec::new(), format!("dropped: {dropped}")),
        })
    }

    /// The warning to a player whose key came in a mail from another
    /// address (`from`), if it did.
    fn key_warning(&self, from: &str, target: &str, key: &Key) -> Result<Option<Reply>> {
        let Key::Of { id, side, player } = key else {
            return Ok(None);
        };
        if address_of(player) == from {
            return Ok(None);
        }
        let game = self
            .table(id)?
            .and_then(|t| t.rules())
            .map_or("", Rules::name);
        Ok(Some(Reply {
            to: player.clone(),
            rendered: self.templates.render(
                "key_used",
                context! {
                    id, game, side, target, sender => from, address => address_of(player),
                    received => self.received(),
                },
            )?,
            game: Some(id.clone()),
            reply_to: None,
        }))
    }

    /// The refusal of a mail for a damaged game; the poll tells the admin
    /// and the players (issue 5, "A corrupt record").
    fn damaged(&self, from: &str, damage: Damage) -> Result<Handled> {
        let r = self.damage_mail(from, &damage, true, false)?;
        Ok(Handled {
            damage: Some(damage.clone()),
            ..failed(
                vec![r],
                format!(
                    "refused: record of {} is damaged: {}",
                    damage.id, damage.error
                ),
            )
        })
    }

    /// The damage of game `id`'s record, `error` being what the reader or
    /// replay says.
    fn damage(&self, id: &str, error: &dyn std::fmt::Display) -> Damage {
        Damage {
            id: id.to_string(),
            error: error.to_string(),
            file: self.store.game_path(id).unwrap_or_default(),
            record: true,
        }
    }

    /// One mail about a damaged game: to the sender of a refused mail
    /// (`refused`), to a player, or to the admin (`for_admin`).
    fn damage_mail(&self, to: &str, d: &Damage, refused: bool, for_admin: bool) -> Result<Reply> {
        Ok(Reply {
            to: to.to_string(),
            rendered: self.templates.render(
                "damaged",
                context! {
                    id => d.id.clone(), error => d.error.clone(), refused,
                    for_admin, file => d.file.display().to_string(), validate => d.record,
                    admin_told => self.identity.admin.is_some(),
                },
            )?,
            game: Some(d.id.clone()),
            reply_to: None,
        })
    }

    /// The mails that tell the admin (if pbem.toml names one) and the
    /// game's players that game `d.id` cannot be used, with the file, the
    /// line and how to mend it. The players are found in what survives
    /// of the damaged files: the record's `[players]`, else any
    /// `key = "Name <address>"` line of the record or challenge.
    ///
    /// # Errors
    /// Template failures.
    pub fn damage_notice(&self, d: &Damage) -> Result<Vec<Reply>> {
        let mut to: Vec<(String, bool)> = Vec::new();
        if let Some(admin) = &self.identity.admin {
            to.push((admin.clone(), true));
        }
        for p in self.players_of_damaged(&d.id) {
            if !to.iter().any(|(t, _)| address_of(t) == address_of(&p)) {
                to.push((p, false));
            }
        }
        to.iter()
            .map(|(who, admin)| self.damage_mail(who, d, false, *admin))
            .collect()
    }

    /// The players of a game whose files may be damaged, as
    /// "Name <address>"; whatever cannot be read is skipped. From a record
    /// that reads, its players; from files that do not, only the
    /// addresses pbem registered for the game ([`Secrets::players`]), each
    /// with the name found beside it if it is there whole (issue 13: a
    /// record cut short inside an address names someone else's domain).
    fn players_of_damaged(&self, id: &str) -> Vec<String> {
        let registered = self.store.secrets(id).unwrap_or_default();
        let mut found: Vec<String> = Vec::new();
        if let Ok(Some(text)) = self.store.read_game(id) {
            match Record::parse(&format!("{id}.toml"), &text) {
                Ok(rec) => found.extend(rec.players.into_values()),
                Err(_) => found.extend(
                    mailboxes_in(&text)
                        .into_iter()
                        .filter(|m| registered.registered(&address_of(m))),
                ),
            }
        }
        if found.is_empty() {
            match self.store.challenge(id) {
                Ok(Some(ch)) => found.extend([ch.challenger, ch.opponent]),
                _ => {
                    if let Ok(p) = self.store.challenge_path(id)
                        && let Ok(text) = std::fs::read_to_string(p)
                    {
                        found.extend(
                            mailboxes_in(&text)
                                .into_iter()
                                .filter(|m| registered.registered(&address_of(m))),
                        );
                    }
                }
            }
        }
        // A registered player whose line the damage took is still told.
        found.extend(registered.players.into_values());
        let mut out: Vec<String> = Vec::new();
        for m in found {
            if m.parse::<lettre::message::Mailbox>().is_ok()
                && !out.iter().any(|o| address_of(o) == address_of(&m))
            {
                out.push(m);
            }
        }
        out
    }

    /// Creates game `id` (record and keys) unless it exists; `players`
    /// maps side names to "Name <address>". Used by `accept` and by the
    /// admin's `pbem new`.
    ///
    /// # Errors
    /// Store failures.
    pub fn start_game(
        &self,
        id: &str,
        rules: Rules,
        first: Option<Side>,
        players: BTreeMap<String, String>,
        clock: Option<TimeControl>,
    ) -> Result<()> {
        if self.store.read_game(id)?.is_some() {
            return Ok(());
        }
        let mut secrets = self.store.secrets(id)?;
        for s in Side::BOTH {
            if !secrets.tokens.contains_key(rules.side_name(s)) {
                secrets
                    .tokens
                    .insert(rules.side_name(s).into(), store::new_token()?);
            }
        }
        secrets.players = players
            .iter()
            .map(|(side, m)| (side.clone(), address_of(m).to_lowercase()))
            .collect();
        self.store.write_secrets(id, &secrets)?;
        let rec = Record {
            file: format!("{id}.toml"),
            format: Some(1),
            rules,
            id: Some(id.to_string()),
            created: Some(self.now.fixed_offset()),
            first,
            result: Some(("*".into(), 0)),
            players,
            lines: Vec::new(),
        };
        // The clock first: a crash before the record leaves no game, and
        // the next try writes both.
        if let Some(control) = clock {
            self.start_clock(id, control, rec.first_side(), &rec)?;
        }
        self.store.write_game(id, &record::write::to_string(&rec))?;
        Ok(())
    }

    /// The "game begins" mails of game `id`, one per player.
    ///
    /// # Errors
    /// Store and template failures; a game that does not exist.
    pub fn started(&self, id: &str) -> Result<Vec<Reply>> {
        let text = self
            .store
            .read_game(id)?
            .ok_or_else(|| StoreError::Invalid(format!("no game {id}")))?;
        let rec = Record::parse(&format!("{id}.toml"), &text)
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        let rules = rec.rules;
        let secrets = self.store.secrets(id)?;
        let clock = self.game_clock(id, &rec)?;
        Ok(crate::with_game!(rules, G => {
            let pos = G::start(rec.first_side());
            let mut out = Vec::new();
            for side in Side::BOTH {
                let to = rec.players.get(rules.side_name(side)).cloned().unwrap_or_default();
                let board = pos.diagram(&View { seat: Some(side), ..View::default() });
                out.push(Reply {
                    to,
                    rendered: self.templates.render("started", context! {
                        id, game => rules.name(), players => rec.players.values().cloned().collect::<Vec<_>>().join(" and "),
                        your_side => rules.side_name(side), your_turn => pos.turn() == side,
                        turn => rules.side_name(pos.turn()), board, next => 1, example => example_move::<G>(&pos),
                        deadline => Self::deadline_for(clock.as_ref(), side), clock => clock.as_ref().map(|c| c.state.control.to_string()),
                    })?,
                    game: Some(id.to_string()),
                    reply_to: secrets.tokens.get(rules.side_name(side)).map(|t| self.identity.reply_to(id, t)),
                });
            }
            out
        }))
    }

    fn accept(&self, id: &str, ch: &Challenge, rules: Rules, mail: &Inbound) -> Result<Handled> {
        let first = rules.side_named(&ch.first);
        let challenger_side = rules.side_named(&ch.challenger_side).unwrap_or(Side::A);
        let mut players = BTreeMap::new();
        players.insert(
            rules.side_name(challenger_side).to_string(),
            ch.challenger.clone(),
        );
        players.insert(
            rules.side_name(challenger_side.other()).to_string(),
            mailbox(mail.from_name.as_deref(), &ch.opponent),
        );
        self.store.remove_challenge_after(id, || {
            self.start_game(id, rules, first, players.clone(), ch.clock)
        })?;
        let replies = self.started(id)?;
        Ok(Handled {
            replies,
            fate: format!("challenge {id} accepted: game begins"),
            failed: false,
            damage: None,
            progress: true,
            fruitless: false,
        })
    }

    /// Applies a mail's commands to a game, in order. A mail is carried
    /// out whole or not at all: the first refused command refuses the mail
    /// and nothing of it is written.
    #[allow(clippy::too_many_arguments)]
    fn play<G: Game>(
        &self,
        from: &str,
        mail: &Inbound,
        id: &str,
        side: Side,
        secrets: &Secrets,
        rec: Record,
        commands: &[Command],
    ) -> Result<Handled> {
        let replayed = match record::replay::<G>(&rec) {
            Ok(r) => r,
            Err(e) => return self.damaged(from, self.damage(id, &e)),
        };
        // This mail was handled before a crash: its lines stand in the
        // record. Nothing is written again; the replies are made again.
        let already = mail
            .message_id
            .as_ref()
            .map(|m| record::message_id_form(m))
            .is_some_and(|m| rec.lines.iter().any(|l| l.message_id.as_ref() == Some(&m)));
        let clock = self.game_clock(id, &rec)?;
        let mut t = Turn {
            id,
            from,
            mail,
            side,
            secrets,
            rec,
            replayed,
            already,
            changed: false,
            clock,
            replies: Vec::new(),
            fates: Vec::new(),
            asked: Vec::new(),
            index: 0,
        };
        // The board as it stands, for refusals: a refused mail changes
        // nothing, even if commands before the refused one were fine.
        let board = t.board();
        for (i, c) in commands.iter().enumerate() {
            t.index = i;
            if let Err(Refused { mut refusal, why }) = self.command(&mut t, c)? {
                if t.changed {
                    let before: Vec<Command> = commands[..i]
                        .iter()
                        .filter(|o| o.changes_game())
                        .cloned()
                        .collect();
                    refusal.reason = format!(
                        "after {} in the same mail, {}",
                        summary(&before),
                        refusal.reason
                    );
                }
                refusal.board = refusal.board.map(|_| board.clone());
                let others: Vec<Command> = commands
                    .iter()
                    .enumerate()
                    .filter(|&(j, o)| j != i && o.changes_game())
                    .map(|(_, o)| o.clone())
                    .collect();
                if !others.is_empty() {
                    refusal.skipped = summary(&others);
                }
                t.replies.push(self.reject(from, Some(id), refusal)?);
                return Ok(failed(
                    t.replies,
                    format!("refused {c} from {from} in {id}: {why}"),
                ));
            }
            if t.changed {
                // Replay what was added, so later commands see it.
                match record::replay::<G>(&Record {
                    result: None,
                    ..t.rec.clone()
                }) {
                    Ok(r) => t.replayed = r,
                    Err(e) => {
                        // The lines this mail added do not replay: the
                        // record on disk is sound, so nobody is asked
                        // to mend it; the mail is refused.
                        let refused = self.damaged(from, self.damage(id, &e))?;
                        return Ok(Handled {
                            damage: None,
                            ..refused
                        });
                    }
                }
            }
        }
        // After the news of the mail's moves, in the order asked.
        let mut asked = Vec::new();
        for c in std::mem::take(&mut t.asked) {
            asked.push(self.board_reply(&t, &c)?);
        }
        let Turn {
            mut rec,
            replayed,
            changed,
            mut replies,
            fates,
            mut clock,
            ..
        } = t;
        if changed || already {
            rec.result = Some((replayed.result().to_string(), 0));
            if changed {
                self.store.write_game(id, &record::write::to_string(&rec))?;
            }
            // After the record: the clock catches up from the record's
            // times, also after a crash in between.
            if let Some(gc) = &mut clock {
                self.sync_clock(gc, &rec)?;
                self.store.write_clock(id, gc, &self.identity.clocks)?;
            }
            replies.extend(self.news::<G>(id, &rec, &replayed, side, secrets, clock.as_ref())?);
        }
        replies.extend(asked);
        Ok(Handled {
            replies,
            fate: format!("{id}: {}", fates.join("; ")),
            failed: false,
            damage: None,
            progress: changed || already,
            fruitless: false,
        })
    }

    /// Applies one command of a mail to `t`, or refuses it.
    fn command<G: Game>(
        &self,
        t: &mut Turn<'_, G>,
        c: &Command,
    ) -> Result<std::result::Result<(), Refused>> {
        let rules = G::RULES;
        let me = rules.side_name(t.side);
        let refuse = |t: &Turn<'_, G>, reason: String, why: &str| {
            Ok(Err(Refused {
                refusal: Refusal {
                    board: Some(t.board()),
                    ..Refusal::new(c.to_string(), reason)
                },
                why: why.to_string(),
            }))
        };
        if let Some(end) = &t.replayed.end
            && c.changes_game()
            && !t.already
        {
            let result = match end.outcome {
                game::Outcome::Win(s) => format!("{} won", rules.side_name(s)),
                game::Outcome::Draw => "drawn".into(),
            };
            let reason = format!(
                "the game is over ({result}: {}); nothing more can be played in it",
                end.reason
            );
            return refuse(t, reason, "game over");
        }
        match c {
            Command::Move { number, text } => {
                if !t.already {
                    let ply = t.ply();
                    if t.pos().turn() != t.side {
                        let reason = format!(
                            "it is {}'s move, not yours (you play {me}); wait for their move",
                            rules.side_name(t.pos().turn())
                        );
                        return Ok(Err(Refused {
                            refusal: Refusal {
                                board: Some(t.board()),
                                wait: true,
                                ..Refusal::new(c.to_string(), reason)
                            },
                            why: "not their turn".into(),
                        }));
                    }
                    if let Some(n) = number
                        && *n as usize != ply + 1
                    {
                        let reason = format!(
                            "the move number #{n} does not fit: the game is at move #{}; {text} was not played. If you meant it for this move, send #{} {text}",
                            ply + 1,
                            ply + 1
                        );
                        return refuse(t, reason, "stale move number");
                    }
                    if let Some(gc) = &t.clock
                        && let Some(deadline) = gc.state.deadline()
                        && self.now >= deadline
                    {
                        let reason = format!(
                            "your time for this move ran out at {}; the game is lost on time",
                            crate::timecontrol::format_deadline(
                                deadline,
                                gc.state.side(t.side).zone
                            )
                        );
                        return refuse(t, reason, "out of time");
                    }
                    let m = match game::parse_move(t.pos(), text) {
                        Ok(m) => m,
                        Err(rej) => {
                            let (reason, from_square) = rej.without_alternatives();
                            let (from, legal) = match from_square {
                                Some((sq, list)) => (Some(sq), list),
                                None => (None, all_moves(t.pos())),
                            };
                            return Ok(Err(Refused {
                                refusal: Refusal {
                                    board: Some(t.board()),
                                    legal,
                                    from,
                                    rule: rej.cite(),
                                    ..Refusal::new(c.to_string(), reason)
                                },
                                why: rej.to_string(),
                            }));
                        }
                    };
                    let canonical = game::canonical(t.pos(), m);
                    t.fates.push(format!("{me} played {canonical}"));
                    t.push(Some(ply as u32 + 1), Entry::Move(canonical), self.now);
                } else {
                    t.fates.push(format!("{me} played {text}"));
                }
            }
            Command::Resign | Command::OfferDraw => {
                if !t.already {
                    let ev = if *c == Command::Resign {
                        Event::Resign
                    } else {
                        Event::DrawOffered
                    };
                    t.push(None, Entry::Event(ev), self.now);
                }
                t.fates.push(format!("{me} {}", done_phrase(c)));
            }
            Command::AcceptDraw | Command::DeclineDraw => {
                if !t.already {
                    if t.replayed.draw_offer != Some(t.side.other()) {
                        let reason = "there is no draw offer from your opponent to answer; `draw` offers one";
                        return refuse(t, reason.into(), "no offer");
                    }
                    let ev = if *c == Command::AcceptDraw {
                        Event::DrawAgreed
                    } else {
                        Event::DrawDeclined
                    };
                    t.push(None, Entry::Event(ev), self.now);
                }
                t.fates.push(format!("{me} {}", done_phrase(c)));
            }
            Command::Board | Command::Moves { .. } => {
                t.asked.push(c.clone());
                t.fates.push(format!("{me} asked for {c}"));
            }
            // An accept handled again after a crash: the game exists but
            // nothing is played yet; send the opening mails.
            Command::Accept if t.rec.lines.is_empty() && already_accepted(t.mail, &t.rec) => {
                t.replies.extend(self.started(t.id)?);
                t.fates.push(format!("{me} accepted (again)"));
            }
            Command::Accept | Command::Decline => {
                return refuse(t, "the game has already begun".into(), "already begun");
            }
            Command::Timezone(zone) => {
                let mut p = self.store.player(t.from)?;
                p.zone = *zone;
                self.store.write_player(&p)?;
                if let Some(gc) = &mut t.clock {
                    gc.state.set_zone(t.side, *zone);
                }
                let text = format!(
                    "Your time zone is now {}: deadlines in all your games are shown in it{}. It is now {}.",
                    zone.map_or("UTC".to_string(), |z| z.name().to_string()),
                    if t.clock
                        .as_ref()
                        .is_some_and(|c| c.state.control.weekends_free)
                    {
                        ", and free weekends are counted in it"
                    } else {
                        ""
                    },
                    crate::timecontrol::format_deadline(self.now, *zone)
                );
                let reply = self.note(t, "time zone", &text)?;
                t.replies.push(reply);
                t.fates.push(format!("{me} set the time zone"));
            }
            Command::Vacation(days) => {
                let text = self.vacation(t.from, *days)?;
                // The vacation was written to this game's clock too.
                t.clock = self.game_clock(t.id, &t.rec)?;
                let reply = self.note(t, "vacation", &text)?;
                t.replies.push(reply);
                t.fates.push(format!("{me}: {c}"));
            }
            Command::Digest(mode) => {
                let mut p = self.store.player(t.from)?;
                p.digest = *mode;
                self.store.write_player(&p)?;
                let text = match mode {
                    crate::timecontrol::DigestMode::Off => "Digests are off: pbem writes to you about each event in your games as it happens.".to_string(),
                    crate::timecontrol::DigestMode::PerPoll => "News of your games (your opponents' moves, reminders, results) now comes gathered in one mail each time pbem reads its mail. Answers to your own mails still come at once.".to_string(),
                    crate::timecontrol::DigestMode::Daily { hour } => format!(
                        "News of your games (your opponents' moves, reminders, results) now comes in one mail a day, after {hour:02}:00 {}. A last call before a deadline still comes at once, and answers to your own mails too.",
                        p.zone.map_or("UTC".to_string(), |z| z.name().to_string())
                    ),
                };
                let reply = self.note(t, "digest", &text)?;
                t.replies.push(reply);
                t.fates.push(format!("{me}: {c}"));
            }
            other => {
                // `help`, `games`, `rules` asked in a game: answered in the
                // game's thread, with the player's key to reply with.
                let (replies, _) = self.gameless(t.from, t.mail, other, t.index)?;
                for r in replies {
                    t.replies.push(Reply {
                        game: Some(t.id.to_string()),
                        reply_to: t.reply_to(self, t.side),
                        ..r
                    });
                }
            }
        }
        Ok(Ok(()))
    }

    /// `vacation DAYS` (or `vacation off`, `None`) for every running game
    /// with a clock that `who` plays; what became of each, for the reply.
    fn vacation(&self, who: &str, days: Option<u32>) -> Result<String> {
        use crate::timecontrol::{Allowance, format_deadline};
        use chrono::Datelike;
        let mut player = self.store.player(who)?;
        let year = self
            .now
            .with_timezone(&player.zone.unwrap_or(chrono_tz::Tz::UTC))
            .year();
        let per_year = self.identity.clocks.vacation_days_per_year;
        let used = player.vacation.used_in(year);
        if let Some(d) = days
            && used + d > per_year
        {
            return Ok(format!(
                "`vacation {d}`: you have {} vacation day{} left in {year} ({per_year} a year); nothing was paused. Hint: book fewer days.",
                per_year - used,
                if per_year - used == 1 { "" } else { "s" }
            ));
        }
        let mut lines = Vec::new();
        let mut paused = false;
        let mut given_back = 0;
        for id in self.store.clock_ids()? {
            // A record that is not text is damaged: left out like one
            // that does not parse.
            let text = match self.store.read_game(&id) {
                Ok(Some(text)) => text,
                Ok(None) | Err(StoreError::NotText { .. }) => continue,
                Err(e) => return Err(e.into()),
            };
            let Ok(rec) = Record::parse(&format!("{id}.toml"), &text) else {
                continue;
            };
            if rec.result.as_ref().is_some_and(|(r, _)| r != "*") {
                continue;
            }
            let Some(side) = rec
                .players
                .iter()
                .find(|(_, m)| address_of(m) == who)
                .and_then(|(n, _)| rec.rules.side_named(n))
            else {
                continue;
            };
            let Some(mut gc) = self.game_clock(&id, &rec)? else {
                continue;
            };
            let zone = gc.state.side(side).zone;
            let line = match days {
                Some(d) => match gc
                    .state
                    .start_vacation(side, d, self.now, &self.identity.clocks)
                {
                    Ok(v) => {
                        paused = true;
                        format!(
                            "{id}: your clock is paused until {}",
                            format_deadline(v.end, zone)
                        )
                    }
                    Err(e) => format!("{id}: {e}"),
                },
                None => match gc.state.end_vacation(side, self.now) {
                    Ok(back) => {
                        given_back = given_back.max(back);
                        format!("{id}: your clock runs again")
                    }
                    Err(e) => format!("{id}: {e}"),
                },
            };
            self.store.write_clock(&id, &gc, &self.identity.clocks)?;
            lines.push(line);
        }
        if lines.is_empty() {
            return Ok("You have no running game with a clock: nothing to pause.".into());
        }
        let now_used = match days {
            Some(d) if paused => used + d,
            None => used.saturating_sub(given_back),
            _ => used,
        };
        if now_used != used {
            player.vacation = Allowance {
                year,
                used_days: now_used,
            };
            self.store.write_player(&player)?;
        }
        let left = per_year.saturating_sub(now_used);
        lines.push(String::new());
        lines.push(format!(
            "You have {left} vacation day{} left in {year} ({per_year} a year, for all your games together).",
            if left == 1 { "" } else { "s" }
        ));
        Ok(lines.join("\n"))
    }

    /// An answer to the sender of a game's mail, with their key.
    fn note<G: Game>(&self, t: &Turn<'_, G>, title: &str, text: &str) -> Result<Reply> {
        Ok(Reply {
            reply_to: t.reply_to(self, t.side),
            ..self.info(&t.player(t.side), title, text, Some(t.id))?
        })
    }

    /// The answer to `board` or `moves [SQUARE]`.
    fn board_reply<G: Game>(&self, t: &Turn<'_, G>, c: &Command) -> Result<Reply> {
        let rules = G::RULES;
        let (legal, from_sq) = match c {
            Command::Moves { from: f } => {
                // An origin that does not read lists nothing.
                let list: Vec<String> = match f {
                    None => all_moves(t.pos()),
                    Some(f) => match Origin::parse_for(f, rules) {
                        Err(_) => Vec::new(),
                        Ok(o) => game::listed_moves(t.pos())
                            .into_iter()
                            .filter(|(_, n)| o.starts(n, rules.geometry()))
                            .map(|(_, n)| n.canonical(rules.geometry()))
                            .collect(),
                    },
                };
                let legal = if list.is_empty() {
                    "  none".to_string()
                } else {
                    listing(&list)
                };
                (legal, f.clone())
            }
            _ => (String::new(), None),
        };
        let ply = t.ply();
        let mine = t.pos().turn() == t.side && t.replayed.end.is_none();
        Ok(Reply {
            to: t.player(t.side),
            rendered: self.templates.render("board", context! {
                id => t.id, game => rules.name(), board => t.board(),
                legal, from => from_sq, next => mine.then_some(ply + 1), example => example_move(t.pos()),
                deadline => Self::deadline_for(t.clock.as_ref(), t.side), clock => t.clock.as_ref().map(|c| c.state.control.to_string()),
            })?,
            game: Some(t.id.to_string()),
            reply_to: t.reply_to(self, t.side),
        })
    }

    /// The mails telling both players of the last line of game `id`'s
    /// record (for the admin's `pbem move`).
    ///
    /// # Errors
    /// Store and template failures; a damaged record.
    pub fn news_of(&self, id: &str) -> Result<Vec<Reply>> {
        let text = self
            .store
            .read_game(id)?
            .ok_or_else(|| StoreError::Invalid(format!("no game {id}")))?;
        let rec = Record::parse(&format!("{id}.toml"), &text)
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        let secrets = self.store.secrets(id)?;
        crate::with_game!(rec.rules, G => {
            let replayed = record::replay::<G>(&rec).map_err(|e| StoreError::Invalid(e.to_string()))?;
            let mover = replayed.positions.len().checked_sub(2).map(|i| replayed.positions[i].turn()).unwrap_or(Side::A);
            let clock = self.game_clock(id, &rec)?;
            if let Some(gc) = &clock {
                self.store.write_clock(id, gc, &self.identity.clocks)?;
            }
            self.news::<G>(id, &rec, &replayed, mover, &secrets, clock.as_ref())
        })
    }

    /// Tells both players what just happened.
    fn news<G: Game>(
        &self,
        id: &str,
        rec: &Record,
        replayed: &record::Replayed<G>,
        mover: Side,
        secrets: &Secrets,
        clock: Option<&GameClock>,
    ) -> Result<Vec<Reply>> {
        let rules = G::RULES;
        let pos = replayed.position();
        let control = clock.map(|c| c.state.control.to_string());
        let ply = replayed.moves.len();
        let last_line = rec.lines.last();
        let what = match last_line.map(|l| &l.entry) {
            Some(Entry::Move(m)) => m.clone(),
            Some(Entry::Event(e)) => e.as_str().to_string(),
            None => String::new(),
        };
        let mut out = Vec::new();
        for side in Side::BOTH {
            let to = rec
                .players
                .get(rules.side_name(side))
                .cloned()
                .unwrap_or_default();
            let board = pos.diagram(&View {
                last: replayed.moves.last().cloned(),
                seat: Some(side),
                ply,
                ended: replayed.end.clone(),
            });
            let reply_to = secrets
                .tokens
                .get(rules.side_name(side))
                .map(|t| self.identity.reply_to(id, t));
            let rendered = match (&replayed.end, last_line.map(|l| &l.entry)) {
                (Some(end), _) => {
                    let result = match end.outcome {
                        game::Outcome::Win(s) => format!("{} wins", rules.side_name(s)),
                        game::Outcome::Draw => "drawn".into(),
                    };
                    self.templates.render("over", context! { id, game => rules.name(), result, reason => end.reason.clone(), board, record => record::write::to_string(rec) })?
                }
                (None, Some(Entry::Event(ev))) => {
                    let name = rules.side_name(mover);
                    let mut chars = name.chars();
                    let who: String = chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default();
                    let mut text = match ev {
                        Event::DrawOffered if side == mover => "You offered a draw; your opponent has been asked.".to_string(),
                        Event::DrawOffered => format!("{who} offers a draw."),
                        Event::DrawDeclined => format!("{who} declined the draw offer; play goes on."),
                        other => other.as_str().to_string(),
                    };
                    let mut what = what.clone();
                    // A move sent in the same mail (`22-15` and `draw`).
                    let prev = rec.lines.iter().rev().nth(1);
                    if let (Some(prev), Some(last)) = (prev, last_line)
                        && prev.message_id.is_some()
                        && prev.message_id == last.message_id
                        && let Entry::Move(m) = &prev.entry
                    {
                        text = format!("{who} played {m} (move {ply}). {text}");
                        what = format!("{name} played {m}, {what}");
                    }
                    self.templates.render("draw", context! {
                        id, game => rules.name(), what, text, board, offer_to_you => *ev == Event::DrawOffered && side != mover,
                        next => (pos.turn() == side).then_some(ply + 1), example => example_move::<G>(pos),
                        deadline => Self::deadline_for(clock, side), clock => control.clone(),
                    })?
                }
                _ => self.templates.render("moved", context! {
                    id, game => rules.name(), mover => rules.side_name(mover), move => what.clone(), ply, over => false,
                    your_turn => pos.turn() == side, turn => rules.side_name(pos.turn()), next => ply + 1, board,
                    example => example_move::<G>(pos), deadline => Self::deadline_for(clock, side), clock => control.clone(),
                })?,
            };
            out.push(Reply {
                to,
                rendered,
                game: Some(id.to_string()),
                reply_to,
            });
        }
        Ok(out)
    }
}

/// "resigned", "offered a draw": what a command did, for the log.
fn done_phrase(c: &Command) -> &'static str {
    match c {
        Command::Resign => "resigned",
        Command::OfferDraw => "offered a draw",
        Command::AcceptDraw => "agreed a draw",
        Command::DeclineDraw => "declined a draw",
        _ => "did something",
    }
}

/// Every legal move in `pos`, canonical.
fn all_moves<G: Game>(pos: &G) -> Vec<String> {
    game::listed_moves(pos)
        .into_iter()
        .map(|(_, n)| n.canonical(G::RULES.geometry()))
        .collect()
}

/// The refusal of a mail in which pbem found no command. It shows what
/// was read: a player can then see whether pbem missed their text (a
/// quote or signature cut too early).
fn no_command_reason(body: &str) -> String {
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

/// Whether `mail` can be the accept that created `rec`: the sender plays
/// in it (the caller checked that no move is played yet).
fn already_accepted(mail: &Inbound, rec: &Record) -> bool {
    mail.from
        .as_ref()
        .is_some_and(|f| rec.players.values().any(|p| address_of(p) == *f))
}

/// The most moves a mail lists; Guerrilla Checkers can have hundreds of
/// thousands of legal capture chains.
pub const MAX_LISTED: usize = 80;

/// Moves a mail lists on one line.
const PER_LINE: usize = 10;

/// A list of moves as a mail shows it: one line per square the moves start
/// from (`  from 50: 50-51 50-52 50-53`), at most [`PER_LINE`] moves a line,
/// past [`MAX_LISTED`] the first ones and how many more. Every line starts
/// with a word, so that no line of a list, quoted back in a reply however
/// it is quoted, reads as a move or as several (issue 12); `""` for none.
fn listing(list: &[String]) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut group: Option<(String, Vec<&str>)> = None;
    let flush = |g: Option<(String, Vec<&str>)>, lines: &mut Vec<String>| {
        if let Some((from, moves)) = g {
            for chunk in moves.chunks(PER_LINE) {
                lines.push(format!("  from {from}: {}", chunk.join(" ")));
            }
        }
    };
    for m in list.iter().take(MAX_LISTED) {
        let from = origin_of(m);
        match &mut group {
            Some((f, moves)) if *f == from => moves.push(m),
            _ => {
                flush(group.take(), &mut lines);
                group = Some((from, vec![m]));
            }
        }
    }
    flush(group, &mut lines);
    if list.len() > MAX_LISTED {
        lines.push(format!(
            "  and {} more (the command `moves SQUARE` lists those from one square)",
            list.len() - MAX_LISTED
        ));
    }
    lines.join("\n")
}

/// The square (or point) a canonical move starts from: `22` of `22x36x50`,
/// `12` of `L12-28` and `12-20:2`, `27/36` of `27/36,28/37`.
fn origin_of(m: &str) -> String {
    m.trim_start_matches(['L', 'l'])
        .split(['-', 'x', ','])
        .next()
        .unwrap_or(m)
        .to_string()
}

/// A legal move to show as an example of the notation.
fn example_move<G: Game>(pos: &G) -> String {
    game::listed_moves(pos)
        .first()
        .map(|(_, n)| n.canonical(G::RULES.geometry()))
        .unwrap_or_else(|| "22-15".into())
}

fn summary(commands: &[Command]) -> String {
    commands
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The values of the `key = "Name <address>"` lines of a file that may
/// not be valid TOML (a record's `[players]`, a challenge's challenger and
/// opponent): what a hand-edited, broken file still tells of its players.
fn mailboxes_in(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(_, v)| {
            let v = v.trim();
            let v = v.split_once(" #").map_or(v, |(v, _)| v).trim();
            v.trim_matches(|c| c == '"' || c == '\'').trim().to_string()
        })
        .filter(|v| v.contains('@') && v.parse::<lettre::message::Mailbox>().is_ok())
        .collect()
}

fn fate(s: String) -> Handled {
    Handled {
        replies: Vec::new(),
        fate: s,
        failed: false,
        damage: None,
        progress: false,
        fruitless: false,
    }
}

fn failed(replies: Vec<Reply>, s: String) -> Handled {
    Handled {
        replies,
        fate: s,
        failed: true,
        damage: None,
        progress: false,
        fruitless: false,
    }
}

/// Short game-id prefixes.
pub fn id_prefix(r: Rules) -> &'static str {
    match r {
        Rules::BoomAndZoom => "bz",
        Rules::DragonsTeeth => "dt",
        Rules::Embed => "em",
        Rules::Mad => "mad",
        Rules::MadRooks => "mr",
        Rules::MadBishops => "mb",
        Rules::GuerrillaCheckers => "gc",
        Rules::ToroidalCheckers => "tc",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_move_lists_are_capped_and_grouped() {
        let list: Vec<String> = (0..500).map(|i| format!("{}-{}", i / 20, i)).collect();
        let s = listing(&list);
        assert!(
            s.ends_with("  and 420 more (the command `moves SQUARE` lists those from one square)"),
            "{s}"
        );
        assert!(s.starts_with("  from 0: 0-0 0-1 0-2"), "{s}");
        assert_eq!(s.lines().count(), 9);
        let few: Vec<String> = ["2-9", "2-10", "L3-19", "27/36,28/37", "27/36,29/38"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            listing(&few),
            "  from 2: 2-9 2-10\n  from 3: L3-19\n  from 27/36: 27/36,28/37 27/36,29/38"
        );
    }

    #[test]
    fn issue5_a_mail_without_a_command_is_quoted_short() {
        let body = format!("{}\n", "chatter ".repeat(1_000_000));
        let r = no_command_reason(&body);
        assert!(r.len() < 400, "{} bytes", r.len());
        assert!(r.ends_with("chat ..."), "{r}");
        assert!(no_command_reason("hi\n").ends_with("| hi"));
    }

    #[test]
    fn issue13_addresses_pbem_cannot_write_are_named() {
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
