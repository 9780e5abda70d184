//! Loops and storms ("an autoresponder that answers every pbem
//! mail, a bouncing address, a player who sends 1,000 mails in a minute:
//! pbem never loops, rate-limits replies per sender, and keeps serving
//! other players").
//!
//! # The rule
//!
//! pbem answers one address's own mails at most [`Limits::replies_per_hour`]
//! times in any hour and [`Limits::replies_per_day`] times in any 24 hours.
//! What counts is an *answer*: a reply to the sender of the mail that
//! caused it, from a mail that moved no game (a refusal, `board`, `help`,
//! a warning about their key). The news of a move, a draw, a result or a
//! game begun is not counted: a game only moves when the other player
//! moves too, so news cannot storm.
//!
//! The answer that would go past a limit is replaced by one notice (the
//! `paused` template: replies are paused, until when, in the sender's time
//! zone), and from then until the end of that window (an hour, or a day
//! when the daily limit tripped) every reply to the sender's own mails is
//! held back, news of their own move included. Held replies are dropped,
//! not queued: sending them later would restart a loop. The mails
//! themselves are still processed: a legal move is played and the
//! opponent is told; only replies addressed to the storming sender wait.
//! A naive autoresponder's loop therefore dies at the notice: its answer
//! to it comes in while replies are paused and is not answered.
//!
//! A player writing in their own game, with their key, is counted apart:
//! [`Limits::keyed_per_hour`] and [`Limits::keyed_per_day`] bound the
//! answers to those of their mails that hold a command (a move, `board`,
//! `help`...), a higher bound than a stranger's, with a pause of its own.
//! A newcomer who tries everything on the first day still hears why each
//! of their moves is refused. A mail with no command (what an
//! autoresponder answering pbem's mail sends to the keyed reply address)
//! counts as any other, so that loops end at the same bounds.
//!
//! Mail to a third party that a mail caused without moving a game (a
//! challenge, a warning to a player that someone used their key) is
//! counted against its recipient as *unsolicited* with the same limits,
//! and held back silently past them: nobody can make pbem flood an
//! address that never wrote to it.
//!
//! # State and crash safety
//!
//! Each address's counts are a [`Tally`] in `DATA/ratelimit/<hash>.toml`,
//! so cron polls, `pbem deliver` and the daemon share them. The poll
//! writes the tally *before* it stages the replies (see [`crate::poll`]):
//! a crash between the two handles the mail again and counts its replies
//! again. When unsure, a reply is counted. A notice is known by the mail
//! it went with; if that mail never committed, the next held answer
//! carries the notice instead, so a crash cannot swallow it.

use super::{PollError, Poller};
use crate::adjudicate::{ChallengeLimits, Handled};
use crate::mail::inbound::Inbound;
use crate::reply::{Reply, address_of, mailbox_key};
use crate::store::StoreError;
use crate::timecontrol::format_deadline;
use chrono::{DateTime, Duration, Utc};
use minijinja::context;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

/// The reply limits (`[limits]` in pbem.toml); 0 turns a limit off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Answers to one address's own mails in any hour (default 20).
    pub replies_per_hour: u32,
    /// Answers to one address's own mails in any 24 hours (default 50).
    pub replies_per_day: u32,
    /// Answers in any hour to a player's mails in their own game that
    /// carry their key and hold a command (default 60): counted apart
    /// from [`Limits::replies_per_hour`], and paused apart.
    pub keyed_per_hour: u32,
    /// The same in any 24 hours (default 200).
    pub keyed_per_day: u32,
    /// Mails in a row from one address that hold no command pbem can act
    /// on (none, or lines that are no command), after which it stops
    /// answering such mails from it, whatever their pace (default 5;
    /// a loop with a round trip of half an hour never tripped
    /// the other limits). A refused command (an illegal move) is always
    /// answered, and starts the count again.
    pub fruitless_in_a_row: u32,
    /// Challenges one mail may make (default 2); the rest are refused.
    pub challenges_per_mail: u32,
    /// Challenges from one address that wait for an answer at once
    /// (default 3; one older than 30 days no longer counts).
    pub open_challenges: u32,
}

impl Default for Limits {
    /// 20 an hour and 50 a day. A player writing by hand sends a handful
    /// of mails that are not moves in an hour; an autoresponder looping
    /// with a daemon trips the hourly limit within minutes, and one
    /// looping with a poll every five minutes (12 rounds an hour, under
    /// the hourly limit) trips the daily one in about four hours. In
    /// their own game, with their key, a player who tries things (moves
    /// that turn out illegal, `moves`, `board`) gets 60 an hour and 200
    /// a day: a move a minute for an hour.
    fn default() -> Limits {
        Limits {
            replies_per_hour: 20,
            replies_per_day: 50,
            keyed_per_hour: 60,
            keyed_per_day: 200,
            fruitless_in_a_row: 5,
            challenges_per_mail: 2,
            open_challenges: 3,
        }
    }
}

impl Limits {
    /// The limits the adjudicator applies when it makes challenges.
    pub fn challenges(&self) -> ChallengeLimits {
        ChallengeLimits {
            per_mail: self.challenges_per_mail,
            open: self.open_challenges,
        }
    }
}

/// Which count an answer goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bucket {
    /// Answers to any mail of the address's own.
    Any,
    /// Answers to a player's mails in their own game, with their key,
    /// that hold a command ([`Limits::keyed_per_hour`]).
    Keyed,
}

/// The answers of one [`Bucket`]: when they went out, and its pause.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answers {
    /// When answers to this address's own mails went out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<DateTime<Utc>>,
    /// Answers are held back until then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused_until: Option<DateTime<Utc>>,
    /// The key of the mail whose replies carry the notice of the pause.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

impl Answers {
    fn is_empty(&self) -> bool {
        self.answers.is_empty() && self.paused_until.is_none()
    }

    fn prune(&mut self, now: DateTime<Utc>) {
        let start = now - Window::Day.length();
        self.answers.retain(|t| *t > start);
        if self.paused_until.is_some_and(|u| u <= now) {
            self.paused_until = None;
            self.notice = None;
        }
    }
}

/// What pbem remembers of the replies it sent one address, the last 24
/// hours' (`DATA/ratelimit/<hash>.toml`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// The address, lower case (two addresses may share a hash).
    pub address: String,
    /// The answers to any of this address's own mails ([`Bucket::Any`]).
    #[serde(flatten)]
    pub any: Answers,
    /// The answers to its keyed mails in its own games ([`Bucket::Keyed`]).
    #[serde(default, skip_serializing_if = "Answers::is_empty")]
    pub keyed: Answers,
    /// When mail that others caused went to it (challenges, warnings).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unsolicited: Vec<DateTime<Utc>>,
    /// This address's mails in a row that pbem could act on none of
    /// (kept however old: a slow loop is a loop).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fruitless: u32,
    /// The key of the mail whose replies carry the notice that such
    /// mails are no longer answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fruitless_notice: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// What becomes of the answers to a mail, by the count of fruitless
/// mails in a row (see [`Tally::fruitless`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fruitless {
    /// They go out (or meet the other limits).
    Answer,
    /// The first is replaced by the notice that mails like it are no
    /// longer answered, after `count` in a row; the rest are dropped.
    Notice { count: u32 },
    /// They are dropped.
    Silent,
}

/// What becomes of one reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It goes out.
    Send,
    /// It is replaced by the notice: replies are paused until `until`,
    /// after `count` answers in the last `window`.
    Notice {
        until: DateTime<Utc>,
        count: usize,
        window: Window,
    },
    /// It is held back (dropped) until `until`.
    Hold { until: DateTime<Utc> },
}

/// The window whose limit tripped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    Hour,
    Day,
}

impl Window {
    pub fn length(self) -> Duration {
        match self {
            Window::Hour => Duration::hours(1),
            Window::Day => Duration::hours(24),
        }
    }
    /// "hour", "24 hours": for the notice.
    pub fn words(self) -> &'static str {
        match self {
            Window::Hour => "hour",
            Window::Day => "24 hours",
        }
    }
}

impl Limits {
    /// The limits of `bucket`: a day's, an hour's.
    pub fn of(&self, bucket: Bucket) -> [(Window, u32); 2] {
        match bucket {
            Bucket::Any => [
                (Window::Day, self.replies_per_day),
                (Window::Hour, self.replies_per_hour),
            ],
            Bucket::Keyed => [
                (Window::Day, self.keyed_per_day),
                (Window::Hour, self.keyed_per_hour),
            ],
        }
    }

    /// The window whose limit (of `bucket`) `times` has reached at `now`,
    /// the longest first.
    fn reached(
        &self,
        bucket: Bucket,
        times: &[DateTime<Utc>],
        now: DateTime<Utc>,
    ) -> Option<(Window, usize)> {
        self.of(bucket)
            .into_iter()
            .filter(|(_, limit)| *limit > 0)
            .map(|(w, limit)| (w, limit, in_window(times, now, w)))
            .find(|(_, limit, n)| *n >= *limit as usize)
            .map(|(w, _, n)| (w, n))
    }
}

/// How many of `times` fall in the `window` that ends at `now`.
fn in_window(times: &[DateTime<Utc>], now: DateTime<Utc>, window: Window) -> usize {
    let start = now - window.length();
    times.iter().filter(|t| **t > start && **t <= now).count()
}

impl Tally {
    /// A fresh tally for `address`.
    pub fn new(address: &str) -> Tally {
        Tally {
            address: address.to_string(),
            ..Tally::default()
        }
    }

    /// Forgets what is older than a day, and a pause that is over.
    /// Times in the future (a clock set back) are kept: they still count.
    pub fn prune(&mut self, now: DateTime<Utc>) {
        let start = now - Window::Day.length();
        self.any.prune(now);
        self.keyed.prune(now);
        self.unsolicited.retain(|t| *t > start);
    }

    /// Nothing left to remember: the file can go.
    pub fn is_empty(&self) -> bool {
        self.any.is_empty()
            && self.keyed.is_empty()
            && self.unsolicited.is_empty()
            && self.fruitless == 0
    }

    /// One mail of this address's own, `key`: `acted` whether pbem could
    /// act on it (it moved a game, or it was answered: a refused move
    /// counts, its refusal is the help a player needs), `refused` whether
    /// it held no command pbem could act on ([`Handled::fruitless`]; a
    /// mail neither, such as an automated one dropped unanswered, leaves
    /// the count as it is). `committed` says whether a mail's replies are
    /// committed. Past [`Limits::fruitless_in_a_row`] such mails in a
    /// row, their answers stop until one pbem can act on comes.
    pub fn fruitless_mail(
        &mut self,
        limits: &Limits,
        acted: bool,
        refused: bool,
        key: &str,
        committed: impl Fn(&str) -> bool,
    ) -> Fruitless {
        if acted {
            self.fruitless = 0;
            self.fruitless_notice = None;
            return Fruitless::Answer;
        }
        if !refused {
            return Fruitless::Answer;
        }
        self.fruitless = self.fruitless.saturating_add(1);
        let limit = limits.fruitless_in_a_row;
        if limit == 0 || self.fruitless < limit {
            return Fruitless::Answer;
        }
        // The notice goes with the mail that reaches the limit, or with
        // the next one if that mail never committed (a crash).
        let lost = self
            .fruitless_notice
            .as_deref()
            .is_none_or(|k| k != key && !committed(k));
        if lost {
            self.fruitless_notice = Some(key.to_string());
            return Fruitless::Notice {
                count: self.fruitless,
            };
        }
        Fruitless::Silent
    }

    /// One reply to this address's own mail `key` at `now`, in `bucket`.
    /// `counted`: it is an answer (not news of a game); news only waits
    /// out a pause. `committed` says whether a mail's replies are
    /// committed (to know whether the notice of a pause went out).
    /// Records what it allows.
    pub fn answer(
        &mut self,
        now: DateTime<Utc>,
        (limits, bucket): (&Limits, Bucket),
        counted: bool,
        key: &str,
        committed: impl Fn(&str) -> bool,
    ) -> Verdict {
        self.prune(now);
        let this = match bucket {
            Bucket::Any => &mut self.any,
            Bucket::Keyed => &mut self.keyed,
        };
        if let Some(until) = this.paused_until {
            // The notice's mail never committed (a crash): this one
            // carries it.
            let lost = this
                .notice
                .as_deref()
                .is_none_or(|k| k != key && !committed(k));
            if counted && lost {
                this.notice = Some(key.to_string());
                let window = if until - now > Window::Hour.length() {
                    Window::Day
                } else {
                    Window::Hour
                };
                return Verdict::Notice {
                    until,
                    count: in_window(&this.answers, now, window),
                    window,
                };
            }
            return Verdict::Hold { until };
        }
        if !counted {
            return Verdict::Send;
        }
        match limits.reached(bucket, &this.answers, now) {
            None => {
                this.answers.push(now);
                Verdict::Send
            }
            Some((window, count)) => {
                let until = now + window.length();
                this.paused_until = Some(until);
                this.notice = Some(key.to_string());
                Verdict::Notice {
                    until,
                    count,
                    window,
                }
            }
        }
    }

    /// One mail to this address that another's mail caused, at `now`.
    pub fn unsolicited(&mut self, now: DateTime<Utc>, limits: &Limits) -> Verdict {
        self.prune(now);
        match limits.reached(Bucket::Any, &self.unsolicited, now) {
            None => {
                self.unsolicited.push(now);
                Verdict::Send
            }
            Some((window, _)) => {
                // When the oldest one in the window leaves it.
                let start = now - window.length();
                let oldest = self
                    .unsolicited
                    .iter()
                    .filter(|t| **t > start)
                    .min()
                    .copied()
                    .unwrap_or(now);
                Verdict::Hold {
                    until: oldest + window.length(),
                }
            }
        }
    }
}

/// What the limits did to one mail's replies, for the log and the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Limited {
    /// Per address whose replies were held back: how many, until when,
    /// and whether the notice went with this mail.
    pub held: Vec<(String, usize, DateTime<Utc>, bool)>,
}

/// The reply limits at work on one mail's replies: what they are
/// weighed by, the tallies read so far (each with whether it changed),
/// and what was held.
struct Pass<'a> {
    key: &'a str,
    sender: &'a str,
    /// The mail moved a game: news to others is never held, and its
    /// answers are not counted.
    progress: bool,
    bucket: Bucket,
    committed: &'a dyn Fn(&str) -> bool,
    now: DateTime<Utc>,
    /// What the sender's fruitless mails in a row allow.
    fruitless: Fruitless,
    /// Per mailbox ([`mailbox_key`]).
    tallies: BTreeMap<String, (Tally, bool)>,
    limited: Limited,
}

impl Poller<'_> {
    /// Applies the reply limits to the replies of the mail `key` from
    /// `sender`: held replies are taken out, a notice put in the place of
    /// the first held answer, and the tallies written (before the replies
    /// are staged: when unsure, a reply is counted). `committed` says
    /// whether a mail is committed, or staged in the batch being
    /// committed with this one.
    ///
    /// # Errors
    /// A tally or a player's settings that cannot be read or written, a
    /// template that fails: the mail is then left for the next poll.
    pub(super) fn limit(
        &self,
        key: &str,
        mail: Option<&Inbound>,
        handled: &mut Handled,
        committed: &dyn Fn(&str) -> bool,
        now: DateTime<Utc>,
    ) -> Result<Limited, PollError> {
        let Some(sender) = mail.and_then(|m| m.from.as_deref()) else {
            return Ok(Limited::default());
        };
        let mut pass = self.pass(key, sender, handled, committed, now)?;
        let mut kept = Vec::with_capacity(handled.replies.len());
        for reply in std::mem::take(&mut handled.replies) {
            kept.extend(self.limit_reply(&mut pass, reply)?);
        }
        handled.replies = kept;
        for (tally, changed) in pass.tallies.values() {
            if *changed {
                let kept = (!tally.is_empty()).then_some(tally);
                self.store.write_limits_file(&tally.address, kept)?;
            }
        }
        Ok(pass.limited)
    }

    /// The limits' pass over the replies to `sender`'s mail `key`, begun
    /// with the count of fruitless mails in a row (a loop too slow for
    /// the hourly and daily limits ends there).
    fn pass<'a>(
        &self,
        key: &'a str,
        sender: &'a str,
        handled: &Handled,
        committed: &'a dyn Fn(&str) -> bool,
        now: DateTime<Utc>,
    ) -> Result<Pass<'a>, StoreError> {
        let own = mailbox_key(sender);
        let mut tally = self.tally(&own)?;
        let before = tally.clone();
        let acted = !handled.fruitless && (handled.progress || !handled.replies.is_empty());
        let fruitless =
            tally.fruitless_mail(&self.limits, acted, handled.fruitless, key, committed);
        let changed = tally != before;
        Ok(Pass {
            key,
            sender,
            progress: handled.progress,
            // A player's mail in their own game, with their key, that
            // holds a command: counted apart, with the higher limits.
            bucket: if handled.own_game && !handled.fruitless {
                Bucket::Keyed
            } else {
                Bucket::Any
            },
            committed,
            now,
            fruitless,
            tallies: BTreeMap::from([(own, (tally, changed))]),
            limited: Limited::default(),
        })
    }

    /// One reply through the limits: kept, replaced by a notice, or held
    /// (none).
    fn limit_reply(&self, pass: &mut Pass<'_>, reply: Reply) -> Result<Option<Reply>, PollError> {
        let to = address_of(&reply.to);
        if to == pass.sender && !pass.progress {
            match pass.fruitless {
                Fruitless::Answer => {}
                Fruitless::Notice { count } => {
                    let notice = self.fruitless_notice(&reply, pass.sender, count)?;
                    note(&mut pass.limited, &to, pass.now, true);
                    pass.fruitless = Fruitless::Silent;
                    return Ok(Some(notice));
                }
                Fruitless::Silent => {
                    note(&mut pass.limited, &to, pass.now, false);
                    return Ok(None);
                }
            }
        }
        if to != pass.sender && pass.progress {
            // News for the other player: never held.
            return Ok(Some(reply));
        }
        match self.verdict(pass, &to)? {
            Verdict::Send => Ok(Some(reply)),
            Verdict::Notice {
                until,
                count,
                window,
            } => {
                let pause = (until, count, window, pass.bucket);
                let notice = self.notice(&reply, pass.sender, pause)?;
                note(&mut pass.limited, &to, until, true);
                Ok(Some(notice))
            }
            Verdict::Hold { until } => {
                note(&mut pass.limited, &to, until, false);
                Ok(None)
            }
        }
    }

    /// What the tally of `to`'s mailbox says of one more reply to it
    /// (counted per mailbox: `victim+1@` and `victim+2@` are one
    /// person's, so plus-addresses do not get past the limits): an answer
    /// to the sender, or mail they did not ask for.
    fn verdict(&self, pass: &mut Pass<'_>, to: &str) -> Result<Verdict, StoreError> {
        let (tally, changed) = match pass.tallies.entry(mailbox_key(to)) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => {
                let tally = self.tally(e.key())?;
                e.insert((tally, false))
            }
        };
        let before = tally.clone();
        let verdict = if to == pass.sender {
            let counted = !pass.progress;
            let limits = (&self.limits, pass.bucket);
            tally.answer(pass.now, limits, counted, pass.key, pass.committed)
        } else {
            tally.unsolicited(pass.now, &self.limits)
        };
        *changed |= *tally != before;
        Ok(verdict)
    }

    /// The tally of `mailbox` as stored (a new one when there is none, or
    /// the file holds another address's: a hash shared).
    fn tally(&self, mailbox: &str) -> Result<Tally, StoreError> {
        Ok(self
            .store
            .read_limits_file(mailbox)?
            .filter(|t: &Tally| t.address == mailbox)
            .unwrap_or_else(|| Tally::new(mailbox)))
    }

    /// The notice that mails like `sender`'s last `count` are no longer
    /// answered, in the place of `reply`.
    fn fruitless_notice(
        &self,
        reply: &Reply,
        sender: &str,
        count: u32,
    ) -> Result<Reply, PollError> {
        let rendered = self.templates.render(
            "unanswered",
            context! { address => sender, count, pbem_address => &self.identity.address },
        )?;
        Ok(in_place_of(reply, rendered))
    }

    /// The notice that replies to `sender` are paused, in the place of
    /// `reply`.
    fn notice(
        &self,
        reply: &Reply,
        sender: &str,
        (until, count, window, bucket): (DateTime<Utc>, usize, Window, Bucket),
    ) -> Result<Reply, PollError> {
        let zone = self.store.player(sender)?.zone;
        let limit = self
            .limits
            .of(bucket)
            .into_iter()
            .find(|(w, _)| *w == window)
            .map_or(0, |(_, n)| n);
        let rendered = self.templates.render(
            "paused",
            context! {
                address => sender, count, limit, window => window.words(),
                in_game => bucket == Bucket::Keyed,
                until => format_deadline(until, zone),
            },
        )?;
        Ok(in_place_of(reply, rendered))
    }
}

/// A notice of the limits, `rendered`, to the recipient of `reply`, in
/// its place: about no game, with no key to reply with.
fn in_place_of(reply: &Reply, rendered: crate::reply::Rendered) -> Reply {
    Reply {
        kind: crate::reply::Kind::Notice,
        to: reply.to.clone(),
        rendered,
        game: None,
        reply_to: None,
        head: None,
    }
}

/// Counts one held reply (a notice counts as held: it replaced one).
fn note(limited: &mut Limited, to: &str, until: DateTime<Utc>, notice: bool) {
    match limited.held.iter_mut().find(|h| h.0 == to) {
        Some(h) => {
            h.1 += 1;
            h.2 = until;
            h.3 |= notice;
        }
        None => limited.held.push((to.to_string(), 1, until, notice)),
    }
}

#[cfg(test)]
mod tests;
