//! The adjudicator: one parsed mail in, the game's new state and the
//! replies out (steps "Commands", "Who may move", "Records", "Replies"),
//! all as data. It reads the data folder through a read-only port
//! ([`Facts`]) and writes nothing: every change it decides is an
//! [`Effect`] on its [`Desk`] (whose reads see them first), handed back
//! in order ([`Adjudicator::decide`], [`Handled::effects`]) for the poll to
//! apply in its batch; fresh keys and ids come from the [`Draw`] it is
//! given, the time is the poll's. What to send is data too
//! ([`crate::reply::Letter`]: a kind, a template and its context), worded
//! by the compose step ([`crate::mail::templates::Templates::compose`]);
//! the mail's fate is a [`Fate`]. Queueing and sending is
//! [`crate::poll`]'s job.
//!
//! Handling is idempotent: a mail whose Message-ID already stands in the
//! record (a crash after the record was written) changes nothing again but
//! yields the same replies, so a re-run finishes the job.
//!
//! [`Adjudicator::handle`] routes one mail, by concern:
//!
//! - [`table`]: which game the mail is about (its plus-address, subject
//!   tag or thread) and what stands on disk for it;
//! - [`auth`]: who is who: the player's key or DMARC; a player's address
//!   without its key (spoofed), a stranger, a key used by another address;
//! - [`refuse`]: a mail with no command or a line that is none, and the
//!   refusal every concern words its refusals with; the lines left out of
//!   a mail carried out, and the note of them to its sender;
//! - [`challenge`]: `challenge`, and the answer to one (accept, decline,
//!   withdraw), the bounds on challenges, the game's start;
//! - [`play`]: the commands of a game in play, applied in order to the
//!   record, the turn (a mail is carried out whole or not at all);
//! - [`account`]: what is not about one game: `help`, `rules`, `games`,
//!   which game a command meant, `timezone`, `vacation`, `digest`;
//! - [`news`]: the news of a move to both players, `board` and `moves`;
//! - [`takeback`]: takebacks by agreement: asked, accepted, declined,
//!   refused, and their news;
//! - [`over`]: a game's end as each reader is told it (won, lost or
//!   drawn, how, their rating, what comes next);
//! - [`damage`]: a game pbem cannot use, and the notices of it;
//! - [`clocks`]: game clocks, reminders and the loss on time;
//! - [`ids`]: the ids of new games;
//! - beyond one game: [`league`] (`ratings`, `standings`,
//!   `join`, `leave`), [`series`] (what follows a game's end: its rating,
//!   its series' next game or end; `rematch`), [`ratings`] (rated in the
//!   order games ended; rebuilt from the records), [`tournament`] (rounds
//!   begun, results entered, standings mailed);
//! - [`desk`]: the read port, the effects and the draws; [`fate`]: what
//!   became of a mail.

mod account;
mod analysis;
mod auth;
mod bot;
mod challenge;
mod clocks;
mod conditions;
mod confirm;
mod damage;
mod desk;
mod fate;
mod ids;
mod league;
mod names;
mod news;
mod over;
mod play;
mod ratings;
mod refuse;
mod series;
mod table;
mod takeback;
mod tournament;

pub use bot::{BotStep, MAX_BOT_GAMES, MAX_BOT_GAMES_IN_ALL, bot_key};
pub use challenge::ChallengeLimits;
pub use clocks::Tick;
pub use damage::Damage;
pub use desk::{Desk, Draw, Effect, Facts};
pub use fate::{Fate, TickFate};
pub use league::tournament_state as league_state;
pub use names::{known_name, nearest, public_name};
pub use news::MAX_LISTED;
pub use ratings::{Finished, rebuild as rebuild_ratings};
pub use tournament::{MAX_NAME as MAX_TOURNAMENT_NAME, tournament_game_id};

use crate::game::{self, Game, PerSide, Side, View};
use crate::mail::command::{self, Command, Opponent, Order};
use crate::mail::inbound::Inbound;
use crate::mail::templates::{TemplateError, Templates};
use crate::play::Origin;
use crate::record::{self, Entry, Event, MoveLine, Record};
use crate::reply::{Identity, Reply};
use crate::reply::{Kind, Letter};
use crate::rules::Rules;
use crate::store::{self, Challenge, GameClock, Secrets, StoreError};
use crate::timecontrol::TimeControl;
use auth::Who;
use challenge::Asked;
use chrono::{DateTime, Utc};
use minijinja::context;
use news::{News, capitalized, example_move, listing};
use play::{GameMail, Refused, Turn, all_moves, done_phrase};
use refuse::{Refusal, no_command_reason};
use table::Table;
use takeback::is_takeback;

/// What became of a mail.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Handled {
    /// The changes to the data folder the mail comes to, in order, for
    /// the caller to apply (in the poll's batch).
    pub effects: Vec<Effect>,
    /// The mails to send, composed from [`Handled::letters`] in their
    /// order; the poll may hold back or replace some of them (the reply
    /// limits, the digests).
    pub replies: Vec<Reply>,
    /// What the adjudicator decided to send, as data: each mail's kind,
    /// template and context; [`Adjudicator::handle`] composes them into
    /// `replies` and leaves this empty.
    pub(crate) letters: Vec<Letter>,
    /// The mail's fate; its `Display` is the log's line.
    pub fate: Fate,
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
    /// writes. The reply limits count such mails in a row;
    /// a refused command (an illegal move) is not one: its refusal always
    /// goes out, so the player can mend it.
    pub fruitless: bool,
    /// The mail is its sender's, in a game (or about a question of
    /// pbem's) they proved they play: their key from their own address,
    /// or a DMARC pass the admin trusts. The reply limits count the
    /// answers to such mails apart, with higher limits
    /// ([`crate::poll::Limits::keyed_per_hour`]).
    pub own_game: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum AdjudicateError {
    #[error(transparent)]
    Data(#[from] StoreError),
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
        matches!(self, AdjudicateError::Data(e) if e.is_unwritable())
    }
}

type Result<T> = std::result::Result<T, AdjudicateError>;

/// The adjudicator for one poll.
pub struct Adjudicator<'a> {
    /// What it reads, and the changes it decides (taken by the caller
    /// with [`Desk::take`] after each call, and applied).
    pub desk: Desk<'a>,
    /// Where fresh keys and game ids come from.
    pub draw: &'a dyn Draw,
    pub identity: &'a Identity,
    pub templates: &'a Templates,
    /// The one clock (docs/src/contributing.md, "One clock"): the poll's time.
    pub now: DateTime<Utc>,
    /// How many challenges a stranger can make pbem send.
    pub challenges: ChallengeLimits,
}

impl Adjudicator<'_> {
    /// Handles one mail.
    ///
    /// # Errors
    /// Only store and template failures: the mail then stays unprocessed.
    pub fn handle(&self, mail: &Inbound) -> Result<Handled> {
        // Composed on the desk: a mail's thread head reads the game as
        // the mail left it.
        let (mut handled, effects) = self.decide(|a| {
            let mut handled = a.route(mail)?;
            let letters = std::mem::take(&mut handled.letters);
            handled.replies = a.compose(&letters)?;
            Ok(handled)
        })?;
        handled.effects = effects;
        Ok(handled)
    }

    /// `step` (one of the adjudicator's calls) on a clean desk: what it
    /// returns, and the changes it decided, in order, for the caller to
    /// apply. What a call cut short (an error, a panic) left on the desk
    /// stands for nothing: a step's changes are applied whole or not.
    ///
    /// # Errors
    /// What `step` returns; its changes are then dropped.
    pub fn decide<T>(&self, step: impl FnOnce(&Self) -> Result<T>) -> Result<(T, Vec<Effect>)> {
        self.desk.take();
        let r = step(self);
        let effects = self.desk.take();
        Ok((r?, effects))
    }

    /// The mails `letters` stand for, worded by the compose step.
    /// No mail goes to the bot: it plays in the poll.
    ///
    /// Every template also knows whether its mail's reply address carries
    /// the reader's key (`keyed`) and pbem's own address
    /// (`pbem_address`): a mail without a key must not send its reader to
    /// "reply to this mail" for what only a key can do, but say where to
    /// write instead.
    pub(super) fn compose(&self, letters: &[Letter]) -> Result<Vec<Reply>> {
        // One look at each game for all its mails.
        let mut heads = std::collections::HashMap::new();
        letters
            .iter()
            .filter(|l| self.identity.bot_level(&l.to).is_none())
            .map(|l| {
                let context = context! {
                    keyed => l.reply_to.is_some(),
                    pbem_address => &self.identity.address,
                    ..l.context.clone()
                };
                let mut reply = self.templates.compose(&Letter {
                    context,
                    ..l.clone()
                })?;
                if let Some(g) = &l.game {
                    let head = heads
                        .entry(g.clone())
                        .or_insert_with(|| self.thread_head(g));
                    reply.head = head.clone();
                }
                Ok(reply)
            })
            .collect()
    }

    /// Words of the compose step for a value of a template: block `block`
    /// of `_words.txt`, which knows pbem's address too (`pbem_address`).
    fn words(&self, block: &str, ctx: minijinja::Value) -> Result<String> {
        let ctx = context! { pbem_address => &self.identity.address, ..ctx };
        Ok(self.templates.words(block, ctx)?)
    }

    /// What to do with one mail, as data: the route of a mail. Robots and
    /// pbem's own mail are dropped; the game it names is found and its
    /// sender's standing in it checked before anything is answered (a
    /// stranger learns nothing of a game, not even from a refused line);
    /// a mail without a usable command is refused; then the commands go
    /// to the game, or are answered one by one outside any game.
    fn route(&self, mail: &Inbound) -> Result<Handled> {
        let from = match self.sender(mail) {
            Ok(from) => from,
            Err(dropped) => return Ok(*dropped),
        };
        let parsed = command::parse(&mail.body);
        let target = self.target(mail);
        let mut commands = parsed.commands.clone();
        let token = take_token(target.as_ref().and_then(|t| t.token.clone()), &mut commands);
        let table = match &target {
            Some(t) => self.table(&t.id)?.map(|table| (t.id.clone(), table)),
            None => None,
        };
        let mut side = None;
        if let Some((id, table)) = &table {
            let about_game =
                !parsed.errors.is_empty() || commands.is_empty() || commands.iter().any(needs_game);
            let who = Who {
                from: &from,
                mail,
                token: token.as_deref(),
            };
            match self.check_sender(&who, id, table, about_game)? {
                Ok(s) => side = s,
                Err(refused) => return Ok(refused),
            }
            // A player proven by their key or DMARC: their name is theirs.
            if side.is_some() {
                self.learn_name(&from, mail)?;
            }
        }
        if let Some(s) = side
            && table
                .as_ref()
                .is_some_and(|(_, t)| self.awaits_confirmation(t, s))
            && let Some((id, t)) = table
        {
            return self
                .answer_question(&from, mail, (&id, t), s, &commands)
                .map(own_game);
        }
        // The game named in a refusal: only for its players.
        let known = table
            .as_ref()
            .filter(|_| side.is_some())
            .map(|(id, _)| id.as_str());
        if let Some(e) = refusing(&parsed.errors, &commands) {
            let r = self.refuse_line(&from, known, table.as_ref(), e)?;
            return Ok(Handled {
                fruitless: true,
                ..failed(vec![r], refused(&from, e))
            });
        }
        if commands.is_empty() {
            let reason = no_command_reason(self.templates, &mail.body)?;
            let r = self.reject(&from, known, Refusal::new("", reason))?;
            return Ok(Handled {
                fruitless: true,
                ..failed(vec![r], refused(&from, "no command"))
            });
        }
        // The lines that failed beside good commands are left out: the
        // rest is carried out, and the sender told which and why.
        let left_out = self.left_out(&parsed.errors, known.and(table.as_ref()))?;
        if let (Some((_, Table::Game { record, .. })), Some(_)) = (&table, side) {
            leaving_resigns(&mut commands, record);
        }
        let handled = self.carry_out(&from, mail, target, (table, side), &commands)?;
        Ok(left_out.tell(handled, &from))
    }

    /// The commands of a mail carried out, with the game its thread names
    /// (`target`, and what stands for it with the sender's side in it):
    /// in that game, or one by one outside any game.
    fn carry_out(
        &self,
        from: &str,
        mail: &Inbound,
        target: Option<table::Target>,
        (table, side): (Option<(String, Table)>, Option<Side>),
        commands: &[Command],
    ) -> Result<Handled> {
        match (table, side) {
            (Some((id, table)), Some(side)) if commands.iter().any(needs_game) => {
                let m = GameMail {
                    from,
                    mail,
                    id: &id,
                    side,
                    commands,
                };
                self.in_game(&m, table).map(own_game)
            }
            (None, _) if target.is_some() && commands.iter().any(needs_game) => {
                // An unknown id: say nothing that helps a stranger guess.
                Ok(fate(Fate::UnknownGame {
                    from: from.to_string(),
                    id: target.map(|t| t.id).unwrap_or_default(),
                }))
            }
            (table, side) => {
                // A player's `help`, `games` or `rules` in a game's
                // thread: answered in that thread, with their key to reply
                // with.
                let thread = table.as_ref().zip(side).map(|((id, t), s)| {
                    (
                        id.clone(),
                        t.token(s).map(|k| self.identity.reply_to(id, k)),
                    )
                });
                let proven = thread.is_some();
                let handled = self.outside_game(from, mail, commands, thread)?;
                Ok(if proven { own_game(handled) } else { handled })
            }
        }
    }

    /// A reply to one of pbem's questions (a request, a challenge to the
    /// bot; `question`, its id and what stands for it), carrying its key,
    /// from the address it went to (`side`): whatever it says but
    /// `decline` confirms, however the client wrote it.
    fn answer_question(
        &self,
        from: &str,
        mail: &Inbound,
        question: (&str, Table),
        side: Side,
        commands: &[Command],
    ) -> Result<Handled> {
        let answer = if commands.contains(&Command::Decline) {
            Command::Decline
        } else {
            Command::Accept
        };
        let m = GameMail {
            from,
            mail,
            id: question.0,
            side,
            commands: &[answer],
        };
        self.in_game(&m, question.1)
    }

    /// Whether `table` is one of pbem's questions that `side` is to answer
    /// with `accept` or `decline`: a request waiting for its sender's
    /// confirmation, or a challenge to the bot waiting for its
    /// challenger's.
    fn awaits_confirmation(&self, table: &Table, side: Side) -> bool {
        match table {
            Table::Confirm { .. } => true,
            Table::Challenge { challenge, .. } => {
                self.identity.bot_level(&challenge.opponent).is_some()
                    && challenge.challenger_side == side
            }
            _ => false,
        }
    }

    /// The sender of a mail pbem answers, or what becomes of a mail it
    /// does not: a robot's, one without a usable From, pbem's own.
    fn sender(&self, mail: &Inbound) -> std::result::Result<String, Box<Handled>> {
        if let Some(why) = &mail.automated {
            return Err(Box::new(fate(Fate::Automated(why.clone()))));
        }
        let Some(from) = mail.from.clone() else {
            let dropped = failed(Vec::new(), Fate::NoFrom);
            return Err(Box::new(dropped));
        };
        if from == crate::lines::lowercase(&self.identity.address)
            || from.starts_with(&format!("{}+", self.identity.local_domain().0))
                && from.ends_with(self.identity.domain())
        {
            return Err(Box::new(fate(Fate::OwnMail)));
        }
        Ok(from)
    }

    /// Commands answered outside a game (or in a game's `thread`, its id
    /// and the sender's reply address): one by one, past the bound on the
    /// challenges of one mail.
    fn outside_game(
        &self,
        from: &str,
        mail: &Inbound,
        commands: &[Command],
        thread: Option<(String, Option<String>)>,
    ) -> Result<Handled> {
        let mut replies = Vec::new();
        let mut failed_any = false;
        // The challenges past the bound of one mail.
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
            let thread_id = thread.as_ref().map(|(id, _)| id.as_str());
            let (r, refused) = self.gameless(from, mail, c, n, thread_id)?;
            replies.extend(r.into_iter().map(|r| match &thread {
                Some((id, reply_to)) if !matches!(c, Command::Challenge { .. }) => Letter {
                    game: Some(id.clone()),
                    reply_to: reply_to.clone(),
                    ..r
                },
                _ => r,
            }));
            failed_any |= refused;
        }
        if let Some(first) = over.first() {
            let reason = self.words(
                "challenges_per_mail",
                context! { per_mail => self.challenges.per_mail, more => over.len() - 1 },
            )?;
            replies.push(self.reject(from, None, Refusal::new(first.clone(), reason))?);
            failed_any = true;
        }
        Ok(Handled {
            letters: replies,
            fate: Fate::Answered(commands.to_vec()),
            failed: failed_any,
            ..Handled::default()
        })
    }
}

/// Whether a command is about one game (all but `challenge`, `games`,
/// `rules`, `help` and the commands of ratings and tournaments).
fn needs_game(c: &Command) -> bool {
    !matches!(
        c,
        Command::Challenge { .. }
            | Command::Games
            | Command::Rules { .. }
            | Command::Help
            | Command::Ratings(_)
            | Command::Standings(_)
            | Command::Join(_)
            | Command::Leave(_)
    )
}

/// `leave NAME` from a player in a reply about their game of tournament
/// NAME still in play gives that game up too: a player who drops out
/// resigns all. A `resign` goes before the `leave`, unless the
/// mail resigns already.
fn leaving_resigns(commands: &mut Vec<Command>, record: &Record) {
    let Some(name) = record.match_info.tournament.as_deref() else {
        return;
    };
    let Some(at) = commands
        .iter()
        .position(|c| matches!(c, Command::Leave(n) if n == name))
    else {
        return;
    };
    if commands.contains(&Command::Resign) {
        return;
    }
    let in_play = crate::with_game!(record.rules, G => {
        record::replay::<G>(record).is_ok_and(|r| r.end.is_none())
    });
    if in_play {
        commands.insert(at, Command::Resign);
    }
}

/// The error that refuses a mail whole: one that does so whatever else
/// the mail holds (two moves, a move and `resign`, too many commands), or
/// the first line that failed in a mail with no command to carry out.
fn refusing<'a>(
    errors: &'a [command::CommandError],
    commands: &[Command],
) -> Option<&'a command::CommandError> {
    errors
        .iter()
        .find(|e| e.kind.refuses_mail())
        .or_else(|| errors.first().filter(|_| commands.is_empty()))
}

/// `commands` in words, one after the other.
fn summary(commands: &[Command]) -> String {
    commands
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The fate of a mail from `from` refused whole, for `why`.
fn refused(from: &str, why: impl std::fmt::Display) -> Fate {
    Fate::Refused {
        from: from.to_string(),
        why: why.to_string(),
    }
}

/// `h`, the handling of a mail in its sender's own game.
fn own_game(h: Handled) -> Handled {
    Handled {
        own_game: true,
        ..h
    }
}

fn fate(s: Fate) -> Handled {
    Handled {
        fate: s,
        ..Handled::default()
    }
}

fn failed(letters: Vec<Letter>, s: Fate) -> Handled {
    Handled {
        letters,
        fate: s,
        failed: true,
        ..Handled::default()
    }
}

/// The key a mail carries: the one in the address it was sent to
/// (`in_address`), else one written on a line of its own; such lines are
/// taken out of `commands`.
fn take_token(in_address: Option<String>, commands: &mut Vec<Command>) -> Option<String> {
    let token = in_address.or_else(|| {
        commands.iter().find_map(|c| match c {
            Command::Token(t) => Some(t.clone()),
            _ => None,
        })
    });
    commands.retain(|c| !matches!(c, Command::Token(_)));
    token
}
