//! Clocks for correspondence play: time controls, deadlines, reminders,
//! loss on time, vacations, weekends and digests (issue 4, "Clocks,
//! reminders and absence").
//!
//! Everything here is pure: no I/O, and the time is always passed in (the
//! one clock is [`crate::clock::now`]; STYLE.md habit 8), so a month of
//! play runs in milliseconds under a fake clock (`tests/timecontrol.rs`).
//! The poll asks [`ClockState::due`] what is owed now, sends it, and
//! records it with [`ClockState::mark_sent`] in the state it stores beside
//! the record.
//!
//! # The time control
//!
//! [`TimeControl`] is chosen at challenge time and written `3d` (three days
//! per move), `3d+1d/10d` (a bank: three days to start, one more day after
//! each move, never more than ten), either followed by `weekends-free`
//! (`3d weekends-free`). Days are whole days; each is 24 hours of *counted*
//! time (see below), at most [`MAX_DAYS`].
//!
//! - **Without a bank** every turn gets `days_per_move`; unused time is
//!   lost.
//! - **With a bank** (Fischer style) each side starts with `days_per_move`
//!   in its bank. The time a turn uses comes out of the bank; after the
//!   move `add_days` goes in, and the bank is then cut to `cap_days`. A
//!   side's deadline is the moment its bank runs dry.
//!
//! # Counted time: weekends and vacations
//!
//! A side's clock runs only during its own turn, and only outside its
//! *pauses*:
//!
//! - **Weekends**, when the time control says `weekends-free`: from
//!   Saturday 00:00 to Monday 00:00 *in the time zone of the side whose
//!   clock runs* (UTC when it has none), as the clocks on that player's
//!   wall show them. A weekend that contains a daylight-saving change is
//!   49 or 47 hours long and none of it counts. A midnight that does not
//!   exist (a zone that springs forward at 00:00) is the first instant
//!   after it. A change of zone applies at once, to the whole running turn.
//! - **Vacations**: `vacation <days>` pauses that player's clock in the
//!   game from the moment it is booked for `days` × 24 hours. It pauses
//!   only the player's own clock: the opponent's turn runs as usual, and a
//!   turn that starts during the vacation starts paused. Moving does not
//!   end a vacation; ending it early ([`ClockState::end_vacation`]) gives
//!   back the whole days not yet begun.
//!
//! A day of the time control is 24 hours of counted time, so across a
//! daylight-saving change a deadline keeps its instant, and its wall-clock
//! time moves by the hour of the change (a turn started at 18:00 CEST can
//! end at 17:00 CET).
//!
//! # The vacation allowance and the year boundary
//!
//! Each player has [`ClockPolicy::vacation_days_per_year`] days per
//! calendar year, the year being the one *in the player's time zone* when
//! the vacation is booked. All the days of a vacation are charged to the
//! year it starts in, even when it runs into the next; the count starts
//! again from zero at the first booking of a new year. One vacation at a
//! time. The ledger ([`Allowance`]) is kept per side in each game's
//! [`ClockState`], so a player's vacation is booked game by game.
//!
//! # Reminders, the final notice and loss on time
//!
//! All three are measured on the turn's time: the counted time the side
//! had when its turn started (with a bank, the whole bank then; the
//! increment earned by the coming move does not count).
//!
//! - A **reminder point** `50%` is due once half of the turn's time is used.
//! - The **final notice** is due when the time left is at most
//!   [`ClockPolicy::final_notice_hours`] *and* at most a tenth of the
//!   turn's time, so it always comes after every reminder point up to
//!   90%, and a short turn never starts with it. A reminder point that
//!   would fall after it is not sent; `final_notice_hours = 0` turns the
//!   final notice off.
//! - **Timeout**: when the time left reaches zero the side has lost on
//!   time; a move at or after the deadline is refused.
//!
//! [`ClockState::due`] returns at most one notice, the latest that is due
//! and not yet sent: when polls are far apart and several points have
//! passed, only the latest is sent and the earlier ones are marked as
//! passed with it. Sent notices are part of the stored state, so each
//! point is sent at most once per turn whatever the poll frequency, and
//! `due` without `mark_sent` gives the same answer again (idempotent).
//!
//! # In the poll
//!
//! For each game in play: apply the moves that came by mail with
//! [`ClockState::on_move`] (a move at or after the deadline is refused with
//! [`ClockError::OutOfTime`]); then ask [`ClockState::due`], send what it
//! says (a timeout to both players, with `timeout` in the record), call
//! [`ClockState::mark_sent`], and store the state with the mail it
//! staged.
//!
//! # Showing deadlines
//!
//! Deadlines are kept in UTC and shown by [`format_deadline`] in the
//! player's zone with UTC beside it, `Tue 3 Nov 2026 18:00 CET (17:00
//! UTC)`, or in UTC alone when the zone is unknown; the minute is rounded
//! down.
//!
//! # Digests
//!
//! [`release`] decides which queued mails go out now and groups them per
//! recipient, by the recipient's [`DigestMode`]: `off` (one mail per
//! event, at once), `per-poll` (one mail per poll), or `daily 08:00` (one
//! mail a day, at the first poll after that hour in the recipient's zone;
//! an urgent item, such as a final notice, goes out at once and takes the
//! recipient's other pending items with it).

use crate::game::Side;
use chrono::{
    DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, Offset, TimeDelta, TimeZone, Utc,
    Weekday,
};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::str::FromStr;

/// The most days any number in a time control may have (a stored bank
/// beyond it counts as this much).
pub const MAX_DAYS: u32 = 365;

const DAY_SECS: i64 = 86_400;

// ---------------------------------------------------------------------------
// The time control
// ---------------------------------------------------------------------------

/// A game's time control, chosen at challenge time (issue 4): `3d`,
/// `3d+1d/10d`, `3d weekends-free`. See the module docs for its meaning.
///
/// Parsed with [`str::parse`], written back by `Display` in the canonical
/// form, and stored in TOML as that string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TimeControl {
    /// Days per move; with a bank, the days each side starts with.
    pub days_per_move: u32,
    /// A Fischer bank, if any.
    pub bank: Option<Bank>,
    /// Saturdays and Sundays, in the moving player's zone, do not count.
    pub weekends_free: bool,
}

/// A Fischer bank: `add_days` after each move, never more than `cap_days`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bank {
    pub add_days: u32,
    pub cap_days: u32,
}

/// A time control that cannot be read: the input, what is wrong, and how to
/// write one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad time control `{input}`: {kind}; hint: write days per move as `3d`, \
     a bank as `3d+1d/10d` (3 days to start, 1 more after each move, at most 10), \
     and add `weekends-free` to stop the clocks at weekends"
)]
pub struct TimeControlError {
    pub input: String,
    pub kind: TimeControlErrorKind,
}

/// What is wrong in a [`TimeControlError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlErrorKind {
    #[error("it is empty")]
    Empty,
    #[error("`{0}` is not a number of days such as `3d`")]
    NotDays(String),
    #[error("a number of days is missing, as in `3d`")]
    MissingDays,
    #[error("a bank needs a cap after `/`, as in `+1d/10d`")]
    MissingCap,
    #[error("a move needs at least 1 day")]
    ZeroDays,
    #[error("a bank adds at least 1 day per move")]
    ZeroAdd,
    #[error("{0}d is more than the {MAX_DAYS} days allowed")]
    TooMany(u64),
    #[error("the cap {cap}d is below the {days}d each side starts with")]
    CapBelowStart { days: u32, cap: u32 },
    #[error("the {add}d added per move is more than the cap {cap}d")]
    AddAboveCap { add: u32, cap: u32 },
    #[error("`{0}` is not an option (the only one is `weekends-free`)")]
    UnknownOption(String),
}

impl TimeControl {
    /// `days` per move, no bank, weekends counted.
    pub const fn days(days_per_move: u32) -> TimeControl {
        TimeControl {
            days_per_move,
            bank: None,
            weekends_free: false,
        }
    }

    /// The time a side has when the game starts.
    pub fn start_time(&self) -> TimeDelta {
        days(self.days_per_move)
    }

    /// The control in words, for mails: "3 days per move", "3 days to
    /// start, 1 more after each move, at most 10; weekends free".
    pub fn in_words(&self) -> String {
        let d = |n: u32| format!("{n} day{}", if n == 1 { "" } else { "s" });
        let mut s = match self.bank {
            None => format!("{} per move", d(self.days_per_move)),
            Some(b) => format!(
                "{} to start, {} more after each move, at most {}",
                d(self.days_per_move),
                d(b.add_days),
                d(b.cap_days)
            ),
        };
        if self.weekends_free {
            s.push_str("; weekends do not count");
        }
        s
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads `3d`, `3d+1d/10d`, `3d weekends-free`, forgiving case and
    /// spaces (`3D + 1d / 10d, Weekends-Free`).
    ///
    /// # Errors
    /// [`TimeControlError`] quoting the input, with a hint.
    fn from_str(input: &str) -> Result<TimeControl, TimeControlError> {
        let fail = |kind| TimeControlError {
            input: input.trim().to_string(),
            kind,
        };
        let lower = input.to_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        if words.is_empty() {
            return Err(fail(TimeControlErrorKind::Empty));
        }
        // The clock is the words before the first one that starts with a
        // letter; the options are the rest.
        let split = words
            .iter()
            .position(|w| w.starts_with(|c: char| c.is_alphabetic()))
            .unwrap_or(words.len());
        let clock: String = words[..split].concat();
        if clock.is_empty() {
            return Err(fail(TimeControlErrorKind::NotDays(words[0].into())));
        }
        let mut weekends_free = false;
        for option in &words[split..] {
            match *option {
                "weekends-free" => weekends_free = true,
                other => return Err(fail(TimeControlErrorKind::UnknownOption(other.into()))),
            }
        }
        let (start, bank) = match clock.split_once('+') {
            None => (clock.as_str(), None),
            Some((start, bank)) => (start, Some(bank)),
        };
        let days_per_move = read_days(start).map_err(fail)?;
        if days_per_move == 0 {
            return Err(fail(TimeControlErrorKind::ZeroDays));
        }
        let bank = match bank {
            None => None,
            Some(bank) => {
                let (add, cap) = bank
                    .split_once('/')
                    .ok_or(TimeControlErrorKind::MissingCap)
                    .map_err(fail)?;
                let add_days = read_days(add).map_err(fail)?;
                let cap_days = read_days(cap).map_err(fail)?;
                if add_days == 0 {
                    return Err(fail(TimeControlErrorKind::ZeroAdd));
                }
                if cap_days < days_per_move {
                    return Err(fail(TimeControlErrorKind::CapBelowStart {
                        days: days_per_move,
                        cap: cap_days,
                    }));
                }
                if add_days > cap_days {
                    return Err(fail(TimeControlErrorKind::AddAboveCap {
                        add: add_days,
                        cap: cap_days,
                    }));
                }
                Some(Bank { add_days, cap_days })
            }
        };
        Ok(TimeControl {
            days_per_move,
            bank,
            weekends_free,
        })
    }
}

/// `3d` -> 3, at most [`MAX_DAYS`].
fn read_days(text: &str) -> Result<u32, TimeControlErrorKind> {
    if text.is_empty() {
        return Err(TimeControlErrorKind::MissingDays);
    }
    let not_days = || TimeControlErrorKind::NotDays(text.to_string());
    let digits = text.strip_suffix('d').ok_or_else(not_days)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(not_days());
    }
    // Anything too long for u64 is too many days all the same.
    let n: u64 = digits.parse().unwrap_or(u64::MAX);
    if n > u64::from(MAX_DAYS) {
        return Err(TimeControlErrorKind::TooMany(n));
    }
    u32::try_from(n).map_err(|_| TimeControlErrorKind::TooMany(n))
}

impl fmt::Display for TimeControl {
    /// The canonical form: `3d`, `3d+1d/10d`, `3d+1d/10d weekends-free`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d", self.days_per_move)?;
        if let Some(bank) = self.bank {
            write!(f, "+{}d/{}d", bank.add_days, bank.cap_days)?;
        }
        if self.weekends_free {
            f.write_str(" weekends-free")?;
        }
        Ok(())
    }
}

impl TryFrom<String> for TimeControl {
    type Error = TimeControlError;
    fn try_from(s: String) -> Result<TimeControl, TimeControlError> {
        s.parse()
    }
}

impl From<TimeControl> for String {
    fn from(tc: TimeControl) -> String {
        tc.to_string()
    }
}

// ---------------------------------------------------------------------------
// The server's policy: reminder points, final notice, vacation allowance
// ---------------------------------------------------------------------------

/// A reminder point: a share of the turn's time, `50%` or `87.5%`, kept in
/// tenths of a percent (1..=999).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ReminderPoint(u16);

/// A reminder point that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad reminder point `{input}`: write a share of the turn's time above 0% and below 100%, \
     such as `50%` or `87.5%`"
)]
pub struct ReminderPointError {
    pub input: String,
}

impl ReminderPoint {
    /// `permille` tenths of a percent (500 is 50%); `None` outside 1..=999.
    pub fn from_permille(permille: u16) -> Option<ReminderPoint> {
        (1..=999)
            .contains(&permille)
            .then_some(ReminderPoint(permille))
    }

    /// The point in tenths of a percent.
    pub fn permille(self) -> u16 {
        self.0
    }
}

impl FromStr for ReminderPoint {
    type Err = ReminderPointError;
    fn from_str(input: &str) -> Result<ReminderPoint, ReminderPointError> {
        let fail = || ReminderPointError {
            input: input.trim().to_string(),
        };
        let number = input.trim().strip_suffix('%').ok_or_else(fail)?.trim_end();
        let (whole, tenth) = match number.split_once('.') {
            None => (number, "0"),
            Some((whole, tenth)) => (whole, tenth),
        };
        let digits = |s: &str, max: usize| {
            !s.is_empty() && s.len() <= max && s.bytes().all(|b| b.is_ascii_digit())
        };
        if !digits(whole, 3) || !digits(tenth, 1) {
            return Err(fail());
        }
        let whole: u16 = whole.parse().map_err(|_| fail())?;
        let tenth: u16 = tenth.parse().map_err(|_| fail())?;
        ReminderPoint::from_permille(whole * 10 + tenth).ok_or_else(fail)
    }
}

impl fmt::Display for ReminderPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 % 10 {
            0 => write!(f, "{}%", self.0 / 10),
            tenth => write!(f, "{}.{}%", self.0 / 10, tenth),
        }
    }
}

impl TryFrom<String> for ReminderPoint {
    type Error = ReminderPointError;
    fn try_from(s: String) -> Result<ReminderPoint, ReminderPointError> {
        s.parse()
    }
}

impl From<ReminderPoint> for String {
    fn from(p: ReminderPoint) -> String {
        p.to_string()
    }
}

/// The server's clock settings (a `[clock]` table in pbem.toml, say); the
/// same for every game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClockPolicy {
    /// Reminder points, e.g. `["50%", "80%"]` (the default).
    pub reminders: Vec<ReminderPoint>,
    /// The final notice comes when this many hours are left, or a tenth of
    /// the turn if that is less (default 12; 0: no final notice).
    pub final_notice_hours: u32,
    /// Vacation days per player and calendar year (default 30).
    pub vacation_days_per_year: u32,
}

impl Default for ClockPolicy {
    fn default() -> ClockPolicy {
        ClockPolicy {
            reminders: vec![ReminderPoint(500), ReminderPoint(800)],
            final_notice_hours: 12,
            vacation_days_per_year: 30,
        }
    }
}

// ---------------------------------------------------------------------------
// The clock state of one game
// ---------------------------------------------------------------------------

/// The clocks of one game, stored beside its record (TOML, via serde).
///
/// Created by [`ClockState::new`] when the game starts; every move goes
/// through [`ClockState::on_move`], every poll through
/// [`ClockState::due`] and [`ClockState::mark_sent`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockState {
    /// The game's time control.
    pub control: TimeControl,
    /// Whose clock runs; `None` once the clocks are stopped (game over).
    #[serde(default, with = "opt_side", skip_serializing_if = "Option::is_none")]
    pub to_move: Option<Side>,
    /// When the running turn started (the last move, or the start).
    pub turn_start: DateTime<Utc>,
    /// The highest reminder point sent in the running turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reminded: Option<ReminderPoint>,
    /// The final notice of the running turn has been sent.
    #[serde(default)]
    pub final_sent: bool,
    /// The side that lost on time, once the timeout has been announced.
    #[serde(default, with = "opt_side", skip_serializing_if = "Option::is_none")]
    pub flagged: Option<Side>,
    /// Side A's clock.
    pub a: SideClock,
    /// Side B's clock.
    pub b: SideClock,
}

/// One side's clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideClock {
    /// Counted seconds the side has: while its turn runs, what it had when
    /// the turn started; otherwise what its next turn starts with.
    pub left_seconds: i64,
    /// The player's time zone (IANA name); `None` is UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<Tz>,
    /// The vacation days used, by year.
    #[serde(default, skip_serializing_if = "Allowance::is_unused")]
    pub allowance: Allowance,
    /// Vacations that may still matter: the current or latest ones (those
    /// over before the running turn are dropped at each move).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vacations: Vec<Vacation>,
}

/// The vacation days a player has used in one calendar year (in the
/// player's zone); a booking in a later year starts it again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Allowance {
    pub year: i32,
    pub used_days: u32,
}

impl Allowance {
    /// No day ever booked.
    pub fn is_unused(&self) -> bool {
        *self == Allowance::default()
    }

    /// The days used in `year`.
    pub fn used_in(&self, year: i32) -> u32 {
        if self.year == year { self.used_days } else { 0 }
    }
}

/// A vacation: the player's clock is paused from `start` to `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vacation {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    /// The days charged to the allowance.
    pub days: u32,
    /// The year they are charged to.
    pub year: i32,
}

/// What the poll owes the players now ([`ClockState::due`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// `point` of the turn's time is used; tell the side to move.
    Reminder {
        side: Side,
        point: ReminderPoint,
        deadline: DateTime<Utc>,
    },
    /// The last call before the deadline; tell the side to move.
    Final { side: Side, deadline: DateTime<Utc> },
    /// `side` ran out of time at `deadline` and lost on time; tell both
    /// players and write `timeout` in the record.
    Timeout { side: Side, deadline: DateTime<Utc> },
}

impl Notice {
    /// The side whose clock the notice is about.
    pub fn side(&self) -> Side {
        match *self {
            Notice::Reminder { side, .. }
            | Notice::Final { side, .. }
            | Notice::Timeout { side, .. } => side,
        }
    }

    /// The deadline it is about (for a timeout: when time ran out).
    pub fn deadline(&self) -> DateTime<Utc> {
        match *self {
            Notice::Reminder { deadline, .. }
            | Notice::Final { deadline, .. }
            | Notice::Timeout { deadline, .. } => deadline,
        }
    }
}

/// The outcome of a move on the clock ([`ClockState::on_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moved {
    /// The side that moved.
    pub side: Side,
    /// The counted time its turn used.
    pub used: TimeDelta,
    /// What it has for its next turn (with a bank: after the increment and
    /// the cap).
    pub left: TimeDelta,
    /// The deadline of the opponent, whose turn it is now.
    pub next_deadline: DateTime<Utc>,
}

/// A move the clock refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    #[error("the clocks are stopped: the game is over")]
    Stopped,
    #[error(
        "the move came too late: time ran out at {}; the game is lost on time",
        format_deadline(*.deadline, None)
    )]
    OutOfTime { side: Side, deadline: DateTime<Utc> },
}

/// A `vacation` command the clock refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VacationError {
    #[error("`vacation 0`: a vacation is at least 1 day; hint: `vacation 7` for a week")]
    ZeroDays,
    #[error(
        "`vacation {days}`: you are already on vacation until {}; hint: end it first \
         (`vacation off`), then book again",
        format_deadline(*.until, *.zone)
    )]
    AlreadyOnVacation {
        days: u32,
        until: DateTime<Utc>,
        zone: Option<Tz>,
    },
    #[error("{}", allowance_exceeded(*.days, *.left, *.per_year, *.year))]
    AllowanceExceeded {
        days: u32,
        left: u32,
        per_year: u32,
        year: i32,
    },
    #[error("`vacation off`: you are not on vacation")]
    NotOnVacation,
}

/// The message of [`VacationError::AllowanceExceeded`].
fn allowance_exceeded(days: u32, left: u32, per_year: u32, year: i32) -> String {
    if left == 0 {
        format!(
            "`vacation {days}`: none of your {per_year} vacation days for {year} is left; \
             hint: the allowance starts again on 1 January {}",
            year.saturating_add(1)
        )
    } else {
        format!(
            "`vacation {days}`: only {left} of your {per_year} vacation days for {year} \
             are left; hint: ask for {left} days or fewer"
        )
    }
}

impl ClockState {
    /// The clocks of a game that starts at `start` with `first` to move.
    pub fn new(control: TimeControl, first: Side, start: DateTime<Utc>) -> ClockState {
        let side = SideClock {
            left_seconds: control.start_time().num_seconds(),
            zone: None,
            allowance: Allowance::default(),
            vacations: Vec::new(),
        };
        ClockState {
            control,
            to_move: Some(first),
            turn_start: start,
            reminded: None,
            final_sent: false,
            flagged: None,
            a: side.clone(),
            b: side,
        }
    }

    /// One side's clock.
    pub fn side(&self, side: Side) -> &SideClock {
        match side {
            Side::A => &self.a,
            Side::B => &self.b,
        }
    }

    fn side_mut(&mut self, side: Side) -> &mut SideClock {
        match side {
            Side::A => &mut self.a,
            Side::B => &mut self.b,
        }
    }

    /// Sets a player's time zone (the `timezone` command); it shows their
    /// deadlines and places their weekends, from the running turn on.
    pub fn set_zone(&mut self, side: Side, zone: Option<Tz>) {
        self.side_mut(side).zone = zone;
    }

    /// The player's zone, UTC when unknown.
    fn zone(&self, side: Side) -> Tz {
        self.side(side).zone.unwrap_or(Tz::UTC)
    }

    /// The turn's time: what the side to move had when its turn started
    /// (a stored value beyond [`MAX_DAYS`] counts as [`MAX_DAYS`]).
    fn turn_time(&self, side: Side) -> TimeDelta {
        seconds(self.side(side).left_seconds).min(days(MAX_DAYS))
    }

    /// The deadline of the side to move; `None` when the clocks are
    /// stopped. Weekends and vacations are skipped (module docs).
    pub fn deadline(&self) -> Option<DateTime<Utc>> {
        let side = self.to_move?;
        Some(self.instant_after(side, self.turn_start, self.turn_time(side)))
    }

    /// The counted time `side` has at `now`: while its turn runs, what is
    /// left of it (never below zero); otherwise what its next turn starts
    /// with.
    pub fn time_left(&self, side: Side, now: DateTime<Utc>) -> TimeDelta {
        let turn = self.turn_time(side);
        if self.to_move == Some(side) {
            turn - self.counted(side, self.turn_start, now, turn)
        } else {
            turn
        }
    }

    /// The side to move moved at `now`: its time is charged (with a bank:
    /// the increment is added and the cap applied; without: the next turn
    /// gets a full `days_per_move`), the opponent's clock starts, and the
    /// reminders start again.
    ///
    /// # Errors
    /// [`ClockError::Stopped`] when the game is over;
    /// [`ClockError::OutOfTime`] at or after the deadline (the poll then
    /// records the timeout that [`ClockState::due`] reports).
    pub fn on_move(&mut self, now: DateTime<Utc>) -> Result<Moved, ClockError> {
        let side = self.to_move.ok_or(ClockError::Stopped)?;
        let turn = self.turn_time(side);
        let used = self.counted(side, self.turn_start, now, turn);
        if used >= turn {
            return Err(ClockError::OutOfTime {
                side,
                deadline: self.instant_after(side, self.turn_start, turn),
            });
        }
        let left = match self.control.bank {
            None => self.control.start_time(),
            Some(bank) => (turn - used + days(bank.add_days)).min(days(bank.cap_days)),
        };
        self.side_mut(side).left_seconds = left.num_seconds();
        let next = side.other();
        if self.control.bank.is_none() {
            self.side_mut(next).left_seconds = self.control.start_time().num_seconds();
        }
        self.to_move = Some(next);
        self.turn_start = self.turn_start.max(now);
        self.reminded = None;
        self.final_sent = false;
        let start = self.turn_start;
        for s in Side::BOTH {
            self.side_mut(s).vacations.retain(|v| v.end > start);
        }
        Ok(Moved {
            side,
            used,
            left: seconds(self.side(side).left_seconds),
            next_deadline: self.instant_after(next, start, self.turn_time(next)),
        })
    }

    /// Stops the clocks: the game ended on the board, by resignation or by
    /// agreement.
    pub fn stop(&mut self) {
        self.to_move = None;
    }

    /// The notice owed at `now`, if any: the timeout, else the final
    /// notice, else the highest reminder point passed, whichever is due and
    /// not yet sent (module docs). Pure: asking again before
    /// [`ClockState::mark_sent`] gives the same answer.
    pub fn due(&self, now: DateTime<Utc>, policy: &ClockPolicy) -> Option<Notice> {
        let side = self.to_move?;
        let turn = self.turn_time(side);
        let used = self.counted(side, self.turn_start, now, turn);
        let deadline = self.instant_after(side, self.turn_start, turn);
        if used >= turn {
            return Some(Notice::Timeout { side, deadline });
        }
        if self.final_sent {
            return None;
        }
        let final_left = hours(policy.final_notice_hours).min(turn / 10);
        if turn - used <= final_left {
            return Some(Notice::Final { side, deadline });
        }
        // used / turn >= permille / 1000, in whole milliseconds.
        let used_ms = i128::from(used.num_milliseconds());
        let turn_ms = i128::from(turn.num_milliseconds());
        policy
            .reminders
            .iter()
            .copied()
            .filter(|p| Some(*p) > self.reminded)
            .filter(|p| used_ms * 1000 >= i128::from(p.permille()) * turn_ms)
            .max()
            .map(|point| Notice::Reminder {
                side,
                point,
                deadline,
            })
    }

    /// The earliest instant at which [`ClockState::due`] may give a
    /// notice, `None` when the clocks are stopped: the first reminder
    /// point not yet sent, the final notice, or the deadline. Never later
    /// than the first instant `due` gives one (a millisecond earlier at
    /// most, by rounding); the data folder's deadline index is built on
    /// it, so that a poll reads only the clocks whose time has come
    /// (issue 6).
    pub fn next_due(&self, policy: &ClockPolicy) -> Option<DateTime<Utc>> {
        let side = self.to_move?;
        let turn = self.turn_time(side);
        let mut amount = turn;
        if !self.final_sent {
            let final_left = hours(policy.final_notice_hours).min(turn / 10);
            amount = amount.min(turn - final_left);
            let turn_ms = i128::from(turn.num_milliseconds());
            for p in policy
                .reminders
                .iter()
                .filter(|p| Some(**p) > self.reminded)
            {
                // `due` asks used_ms * 1000 >= permille * turn_ms.
                let ms = i128::from(p.permille()) * turn_ms / 1000;
                let ms = i64::try_from(ms).unwrap_or(i64::MAX);
                amount = amount.min(TimeDelta::try_milliseconds(ms).unwrap_or(turn));
            }
        }
        Some(self.instant_after(side, self.turn_start, amount))
    }

    /// Records that `notice` was sent, so that it is never due again: a
    /// reminder marks its point and the lower ones, the final notice marks
    /// every point, and a timeout stops the clocks with `flagged` set. A
    /// notice about a turn that is no longer running is ignored.
    pub fn mark_sent(&mut self, notice: &Notice) {
        if self.to_move != Some(notice.side()) {
            return;
        }
        match *notice {
            Notice::Reminder { point, .. } => {
                self.reminded = self.reminded.max(Some(point));
            }
            Notice::Final { .. } => self.final_sent = true,
            Notice::Timeout { side, .. } => {
                self.flagged = Some(side);
                self.to_move = None;
            }
        }
    }

    /// The vacation `side` is on at `now`, if any.
    pub fn on_vacation(&self, side: Side, now: DateTime<Utc>) -> Option<&Vacation> {
        self.side(side)
            .vacations
            .iter()
            .find(|v| v.start <= now && now < v.end)
    }

    /// The vacation days `side` may still book in the year of `now` (in
    /// the player's zone).
    pub fn vacation_days_left(&self, side: Side, now: DateTime<Utc>, policy: &ClockPolicy) -> u32 {
        let year = local_year(self.zone(side), now);
        policy
            .vacation_days_per_year
            .saturating_sub(self.side(side).allowance.used_in(year))
    }

    /// `vacation <days>`: pauses `side`'s clock from `now` for `days` × 24
    /// hours and charges the days to this year's allowance.
    ///
    /// # Errors
    /// [`VacationError`]: no days, already on vacation, or more days than
    /// are left this year.
    pub fn start_vacation(
        &mut self,
        side: Side,
        days_asked: u32,
        now: DateTime<Utc>,
        policy: &ClockPolicy,
    ) -> Result<Vacation, VacationError> {
        if days_asked == 0 {
            return Err(VacationError::ZeroDays);
        }
        if let Some(v) = self.on_vacation(side, now) {
            return Err(VacationError::AlreadyOnVacation {
                days: days_asked,
                until: v.end,
                zone: self.side(side).zone,
            });
        }
        let year = local_year(self.zone(side), now);
        let left = self.vacation_days_left(side, now, policy);
        if days_asked > left {
            return Err(VacationError::AllowanceExceeded {
                days: days_asked,
                left,
                per_year: policy.vacation_days_per_year,
                year,
            });
        }
        let clock = self.side_mut(side);
        clock.allowance = Allowance {
            year,
            used_days: clock.allowance.used_in(year) + days_asked,
        };
        let vacation = Vacation {
            start: now,
            end: add(now, days(days_asked)),
            days: days_asked,
            year,
        };
        clock.vacations.push(vacation);
        Ok(vacation)
    }

    /// `vacation off`: ends `side`'s vacation at `now` and gives back the
    /// whole days not yet begun; returns how many.
    ///
    /// # Errors
    /// [`VacationError::NotOnVacation`].
    pub fn end_vacation(&mut self, side: Side, now: DateTime<Utc>) -> Result<u32, VacationError> {
        let clock = self.side_mut(side);
        let vacation = clock
            .vacations
            .iter_mut()
            .find(|v| v.start <= now && now < v.end)
            .ok_or(VacationError::NotOnVacation)?;
        let taken = now - vacation.start;
        // Days begun: a started day counts whole.
        let begun = (taken.num_seconds() + DAY_SECS - 1) / DAY_SECS;
        let charged = u32::try_from(begun).unwrap_or(u32::MAX).min(vacation.days);
        let refund = vacation.days - charged;
        vacation.days = charged;
        vacation.end = now;
        let year = vacation.year;
        if clock.allowance.year == year {
            clock.allowance.used_days = clock.allowance.used_days.saturating_sub(refund);
        }
        Ok(refund)
    }

    // --- counted time -----------------------------------------------------

    /// The pause of `side` that contains `at` (from `at` on), or else the
    /// next one to begin after it: a weekend (if free) or a vacation.
    fn next_pause(&self, side: Side, at: DateTime<Utc>) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
        let mut best = if self.control.weekends_free {
            weekend_from(self.zone(side), at).map(|(start, end)| (start.max(at), end))
        } else {
            None
        };
        for v in &self.side(side).vacations {
            if v.end > at && v.start < v.end {
                let start = v.start.max(at);
                if best.is_none_or(|(s, _)| start < s) {
                    best = Some((start, v.end));
                }
            }
        }
        best
    }

    /// The counted time of `side` from `from` to `to`: the span less its
    /// pauses (zero when `to` is not after `from`), up to `limit` (the walk
    /// stops there, so a game idle for years costs no more than a turn).
    fn counted(
        &self,
        side: Side,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: TimeDelta,
    ) -> TimeDelta {
        let mut total = TimeDelta::zero();
        let mut t = from;
        while t < to && total < limit {
            match self.next_pause(side, t) {
                Some((start, end)) if start < to => {
                    total += start - t;
                    t = end;
                }
                _ => {
                    total += to - t;
                    break;
                }
            }
        }
        total.min(limit)
    }

    /// The instant at which `side` has counted `amount` from `from`.
    fn instant_after(&self, side: Side, from: DateTime<Utc>, amount: TimeDelta) -> DateTime<Utc> {
        let mut t = from;
        let mut rest = amount.max(TimeDelta::zero());
        loop {
            match self.next_pause(side, t) {
                Some((start, end)) if rest > start - t => {
                    rest -= start - t;
                    t = end;
                }
                _ => return add(t, rest),
            }
        }
    }
}

/// `days` × 24 hours.
fn days(days: u32) -> TimeDelta {
    TimeDelta::seconds(i64::from(days) * DAY_SECS)
}

fn hours(hours: u32) -> TimeDelta {
    TimeDelta::seconds(i64::from(hours) * 3600)
}

/// Seconds as a duration, saturating (a stored state may hold anything).
fn seconds(secs: i64) -> TimeDelta {
    TimeDelta::try_seconds(secs.max(0)).unwrap_or(TimeDelta::MAX)
}

/// `t + d`, saturating at the end of time instead of panicking.
fn add(t: DateTime<Utc>, d: TimeDelta) -> DateTime<Utc> {
    t.checked_add_signed(d).unwrap_or(DateTime::<Utc>::MAX_UTC)
}

/// `at` on the wall clocks of `zone`; `None` only at the ends of chrono's
/// calendar (where `DateTime::with_timezone(..).naive_local()` panics).
fn local(zone: Tz, at: DateTime<Utc>) -> Option<NaiveDateTime> {
    let offset = zone.offset_from_utc_datetime(&at.naive_utc()).fix();
    at.naive_utc().checked_add_offset(offset)
}

/// The calendar year of `at` in `zone` (UTC's at the ends of time).
fn local_year(zone: Tz, at: DateTime<Utc>) -> i32 {
    local(zone, at).map_or(at.year(), |t| t.year())
}

/// The first instant at or after `time` on `date` in `zone`: the earlier
/// of two when the clocks fall back, the end of the gap when they spring
/// forward. `None` only at the ends of chrono's calendar.
fn local_instant(zone: Tz, date: NaiveDate, time: NaiveTime) -> Option<DateTime<Utc>> {
    let naive = date.and_time(time);
    if let Some(t) = zone.from_local_datetime(&naive).earliest() {
        return Some(t.with_timezone(&Utc));
    }
    // In a gap: the first minute that exists (a gap is at most a day,
    // Samoa 2011).
    (1..=2 * 24 * 60)
        .find_map(|m| {
            let later = naive.checked_add_signed(TimeDelta::minutes(m))?;
            zone.from_local_datetime(&later).earliest()
        })
        .map(|t| t.with_timezone(&Utc))
}

/// The weekend (Saturday 00:00 to Monday 00:00 in `zone`) that contains
/// `at`, or else the next one.
fn weekend_from(zone: Tz, at: DateTime<Utc>) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
    let today = local(zone, at)?.date();
    let to_saturday = match today.weekday() {
        Weekday::Sat => 0,
        Weekday::Sun => -1,
        other => 5 - i64::from(other.num_days_from_monday()),
    };
    let mut saturday = today.checked_add_signed(TimeDelta::days(to_saturday))?;
    for _ in 0..2 {
        let monday = saturday.checked_add_signed(TimeDelta::days(2))?;
        let start = local_instant(zone, saturday, NaiveTime::MIN)?;
        let end = local_instant(zone, monday, NaiveTime::MIN)?;
        if end > at {
            return Some((start, end));
        }
        saturday = saturday.checked_add_signed(TimeDelta::days(7))?;
    }
    None
}

/// A deadline as players see it: `Tue 3 Nov 2026 18:00 CET (17:00 UTC)`,
/// with the UTC date too when it differs (`Wed 4 Nov 2026 00:30 CET (Tue
/// 3 Nov 2026 23:30 UTC)`), or `Tue 3 Nov 2026 17:00 UTC` without a zone.
/// The minute is rounded down.
pub fn format_deadline(at: DateTime<Utc>, zone: Option<Tz>) -> String {
    const DAY: &str = "%a %-d %b %Y";
    let utc_day = at.format(DAY).to_string();
    let utc_time = at.format("%H:%M").to_string();
    match zone {
        None | Some(Tz::UTC) | Some(Tz::Etc__UTC) => format!("{utc_day} {utc_time} UTC"),
        Some(zone) if local(zone, at).is_none() => format!("{utc_day} {utc_time} UTC"),
        Some(zone) => {
            let local = at.with_timezone(&zone);
            let day = local.format(DAY).to_string();
            let time = local.format("%H:%M %Z");
            if day == utc_day {
                format!("{day} {time} ({utc_time} UTC)")
            } else {
                format!("{day} {time} ({utc_day} {utc_time} UTC)")
            }
        }
    }
}

/// A time zone that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown time zone `{input}`; hint: {}", match .suggestion {
    Some(name) => format!("did you mean `{name}`?"),
    None => "write an IANA name such as `Europe/Berlin` or `America/New_York`, or `UTC`".to_string(),
})]
pub struct ZoneError {
    pub input: String,
    /// A zone whose last part is the input (`berlin` -> `Europe/Berlin`).
    pub suggestion: Option<&'static str>,
}

/// Reads an IANA time zone name, in any case (`europe/berlin`), for the
/// `timezone` command.
///
/// # Errors
/// [`ZoneError`], suggesting a zone whose city is the input.
pub fn parse_zone(input: &str) -> Result<Tz, ZoneError> {
    let name = input.trim();
    if let Ok(zone) = Tz::from_str_insensitive(name) {
        return Ok(zone);
    }
    let city = name.replace(' ', "_").to_lowercase();
    let suggestion = (!city.is_empty())
        .then(|| {
            chrono_tz::TZ_VARIANTS.iter().map(|z| z.name()).find(|z| {
                z.rsplit('/')
                    .next()
                    .is_some_and(|last| last.to_lowercase() == city)
            })
        })
        .flatten();
    Err(ZoneError {
        input: name.to_string(),
        suggestion,
    })
}

/// `Side` as `"a"` / `"b"` in the stored state (the game's side names
/// belong to the record).
mod opt_side {
    use crate::game::Side;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(side: &Option<Side>, s: S) -> Result<S::Ok, S::Error> {
        match side {
            Some(Side::A) => s.serialize_str("a"),
            Some(Side::B) => s.serialize_str("b"),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Side>, D::Error> {
        match Option::<String>::deserialize(d)?.as_deref() {
            None => Ok(None),
            Some("a") => Ok(Some(Side::A)),
            Some("b") => Ok(Some(Side::B)),
            Some(other) => Err(D::Error::custom(format!(
                "bad side `{other}`: write \"a\" or \"b\""
            ))),
        }
    }
}

// ---------------------------------------------------------------------------
// Digests
// ---------------------------------------------------------------------------

/// How a player wants the mail about their games (issue 4: "a daily or
/// per-poll digest option for players with many games").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum DigestMode {
    /// One mail per event, at once (`off`).
    #[default]
    Off,
    /// One mail per poll with everything since the last (`per-poll`).
    PerPoll,
    /// One mail a day at the first poll from `hour`:00 in the player's zone
    /// (`daily 08:00`); urgent items go out at once.
    Daily { hour: u8 },
}

/// A digest mode that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad digest mode `{input}`: write `off` (one mail per event), `per-poll` \
     (one mail per poll) or `daily 08:00` (one mail a day at that hour, 00:00 to 23:00)"
)]
pub struct DigestModeError {
    pub input: String,
}

impl FromStr for DigestMode {
    type Err = DigestModeError;

    /// Reads `off`, `per-poll`, `daily` (08:00), `daily 18`, `daily 18:00`,
    /// `daily at 18:00`.
    fn from_str(input: &str) -> Result<DigestMode, DigestModeError> {
        let fail = || DigestModeError {
            input: input.trim().to_string(),
        };
        let lower = input.trim().to_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        match words.as_slice() {
            ["off"] => Ok(DigestMode::Off),
            ["per-poll"] => Ok(DigestMode::PerPoll),
            ["daily"] => Ok(DigestMode::Daily { hour: 8 }),
            ["daily", time] | ["daily", "at", time] => {
                let hour = time.strip_suffix(":00").unwrap_or(time);
                if hour.is_empty() || hour.len() > 2 || !hour.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(fail());
                }
                match hour.parse::<u8>() {
                    Ok(hour) if hour < 24 => Ok(DigestMode::Daily { hour }),
                    _ => Err(fail()),
                }
            }
            _ => Err(fail()),
        }
    }
}

impl fmt::Display for DigestMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DigestMode::Off => f.write_str("off"),
            DigestMode::PerPoll => f.write_str("per-poll"),
            DigestMode::Daily { hour } => write!(f, "daily {hour:02}:00"),
        }
    }
}

impl TryFrom<String> for DigestMode {
    type Error = DigestModeError;
    fn try_from(s: String) -> Result<DigestMode, DigestModeError> {
        s.parse()
    }
}

impl From<DigestMode> for String {
    fn from(m: DigestMode) -> String {
        m.to_string()
    }
}

/// A recipient's digest settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DigestPrefs {
    pub mode: DigestMode,
    /// Places the daily hour; `None` is UTC.
    pub zone: Option<Tz>,
}

/// One item waiting to be mailed: a notice, a move, a reply, rendered or
/// not (the lead's choice of `T`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queued<T> {
    pub recipient: String,
    /// When it was queued.
    pub at: DateTime<Utc>,
    /// Goes out at once whatever the mode (a final notice, a timeout).
    pub urgent: bool,
    pub item: T,
}

/// One mail to send: items for one recipient, in queue order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch<T> {
    pub recipient: String,
    pub items: Vec<T>,
}

/// What [`release`] decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Release<T> {
    /// The mails to send now: one per recipient (in order of their first
    /// item), or one per item for `off`.
    pub send: Vec<Batch<T>>,
    /// What stays queued, in queue order.
    pub keep: Vec<Queued<T>>,
}

/// Decides which queued items go out at `now` and groups them into mails,
/// by each recipient's [`DigestPrefs`]:
///
/// - `off`: every item at once, one mail each, in queue order;
/// - `per-poll`: all of a recipient's items at once, in one mail;
/// - `daily HH:00`: all of a recipient's items in one mail as soon as one
///   of them was queued before the latest `HH:00` in the recipient's zone
///   (so the first poll after that hour sends what the day gathered, and
///   what comes later waits for the next day), or one of them is urgent.
///
/// Pure and stateless: the queue is the state, so the lead drops what it
/// sent and keeps `keep`.
pub fn release<T>(
    queue: Vec<Queued<T>>,
    now: DateTime<Utc>,
    prefs: impl Fn(&str) -> DigestPrefs,
) -> Release<T> {
    // Decide once per recipient: does a mail go out now?
    let mut prefs_of: HashMap<&str, DigestPrefs> = HashMap::new();
    let mut goes: HashMap<&str, bool> = HashMap::new();
    for q in &queue {
        let p = *prefs_of
            .entry(&q.recipient)
            .or_insert_with(|| prefs(&q.recipient));
        let due = match p.mode {
            DigestMode::Off | DigestMode::PerPoll => true,
            DigestMode::Daily { hour } => {
                q.urgent
                    || daily_slot(p.zone.unwrap_or(Tz::UTC), hour, now).is_some_and(|s| q.at < s)
            }
        };
        *goes.entry(&q.recipient).or_default() |= due;
    }
    let one_each: HashSet<String> = prefs_of
        .iter()
        .filter(|(_, p)| p.mode == DigestMode::Off)
        .map(|(r, _)| r.to_string())
        .collect();
    let goes: HashSet<String> = goes
        .into_iter()
        .filter(|(_, go)| *go)
        .map(|(r, _)| r.to_string())
        .collect();
    let mut send: Vec<Batch<T>> = Vec::new();
    let mut batch_of: HashMap<String, usize> = HashMap::new();
    let mut keep = Vec::new();
    for q in queue {
        if !goes.contains(&q.recipient) {
            keep.push(q);
            continue;
        }
        match batch_of.get(&q.recipient) {
            Some(&i) if !one_each.contains(&q.recipient) => send[i].items.push(q.item),
            _ => {
                batch_of.insert(q.recipient.clone(), send.len());
                send.push(Batch {
                    recipient: q.recipient,
                    items: vec![q.item],
                });
            }
        }
    }
    Release { send, keep }
}

/// The latest `hour`:00 in `zone` at or before `now`.
fn daily_slot(zone: Tz, hour: u8, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    let time = NaiveTime::from_hms_opt(u32::from(hour.min(23)), 0, 0)?;
    let today = local(zone, now)?.date();
    let slot = local_instant(zone, today, time)?;
    if slot <= now {
        return Some(slot);
    }
    local_instant(zone, today.pred_opt()?, time)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn time_control_parses_and_round_trips() {
        for (input, canonical) in [
            ("3d", "3d"),
            ("1d", "1d"),
            ("365d", "365d"),
            ("3d+1d/10d", "3d+1d/10d"),
            ("3D + 1d / 10D", "3d+1d/10d"),
            ("3d weekends-free", "3d weekends-free"),
            ("3d+1d/10d,Weekends-Free", "3d+1d/10d weekends-free"),
            ("  5d+2d/5d   weekends-free ", "5d+2d/5d weekends-free"),
            ("3d weekends-free weekends-free", "3d weekends-free"),
        ] {
            let tc: TimeControl = input.parse().unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(tc.to_string(), canonical, "{input}");
            assert_eq!(canonical.parse::<TimeControl>().unwrap(), tc);
        }
        let tc: TimeControl = "3d+1d/10d weekends-free".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                days_per_move: 3,
                bank: Some(Bank {
                    add_days: 1,
                    cap_days: 10
                }),
                weekends_free: true
            }
        );
        // Every valid control round-trips through Display.
        for d in 1..=12 {
            for add in 1..=4 {
                for cap in d.max(add)..=d + 6 {
                    for weekends_free in [false, true] {
                        let tc = TimeControl {
                            days_per_move: d,
                            bank: Some(Bank {
                                add_days: add,
                                cap_days: cap,
                            }),
                            weekends_free,
                        };
                        assert_eq!(tc.to_string().parse::<TimeControl>(), Ok(tc));
                    }
                }
            }
        }
    }

    #[test]
    fn time_control_errors_quote_the_input_and_hint() {
        use TimeControlErrorKind as K;
        for (input, kind) in [
            ("", K::Empty),
            ("   ", K::Empty),
            ("3", K::NotDays("3".into())),
            ("3h", K::NotDays("3h".into())),
            ("d", K::NotDays("d".into())),
            ("-3d", K::NotDays("-3d".into())),
            ("0d", K::ZeroDays),
            ("366d", K::TooMany(366)),
            ("99999999999999999999999d", K::TooMany(u64::MAX)),
            ("3d+", K::MissingCap),
            ("3d+1d", K::MissingCap),
            ("3d+1d/", K::MissingDays),
            ("+1d/10d", K::MissingDays),
            ("3d+0d/10d", K::ZeroAdd),
            ("3d+1d/2d", K::CapBelowStart { days: 3, cap: 2 }),
            ("3d+11d/10d", K::AddAboveCap { add: 11, cap: 10 }),
            ("3d+1d/10d/12d", K::NotDays("10d/12d".into())),
            ("3d weekends", K::UnknownOption("weekends".into())),
            ("weekends-free", K::NotDays("weekends-free".into())),
            ("3d+1w/10d", K::NotDays("1w".into())),
        ] {
            let err = input.parse::<TimeControl>().unwrap_err();
            assert_eq!(err.kind, kind, "{input:?}");
            let msg = err.to_string();
            assert!(
                msg.starts_with(&format!("bad time control `{}`", input.trim())),
                "{msg}"
            );
            assert!(msg.contains("hint: write days per move as `3d`"), "{msg}");
        }
        assert_eq!(
            "3d+1d/2d".parse::<TimeControl>().unwrap_err().to_string(),
            "bad time control `3d+1d/2d`: the cap 2d is below the 3d each side starts with; \
             hint: write days per move as `3d`, a bank as `3d+1d/10d` (3 days to start, \
             1 more after each move, at most 10), and add `weekends-free` to stop the clocks \
             at weekends"
        );
    }

    #[test]
    fn reminder_points_parse_and_display() {
        for (input, permille, shown) in [
            ("50%", 500, "50%"),
            (" 80 % ", 800, "80%"),
            ("87.5%", 875, "87.5%"),
            ("0.1%", 1, "0.1%"),
            ("99.9%", 999, "99.9%"),
            ("050%", 500, "50%"),
        ] {
            let p: ReminderPoint = input.parse().unwrap();
            assert_eq!(p.permille(), permille);
            assert_eq!(p.to_string(), shown);
            assert_eq!(shown.parse::<ReminderPoint>(), Ok(p));
        }
        for bad in [
            "", "50", "0%", "100%", "150%", "1000%", "-5%", "5.25%", "x%", ".5%", "5.%",
        ] {
            let err = bad.parse::<ReminderPoint>().unwrap_err();
            assert_eq!(err.input, bad.trim());
            assert!(err.to_string().contains(&format!("`{}`", bad.trim())));
        }
    }

    #[test]
    fn digest_modes_parse_and_round_trip() {
        for (input, mode, shown) in [
            ("off", DigestMode::Off, "off"),
            ("Per-Poll", DigestMode::PerPoll, "per-poll"),
            ("daily", DigestMode::Daily { hour: 8 }, "daily 08:00"),
            ("daily 18", DigestMode::Daily { hour: 18 }, "daily 18:00"),
            (
                "daily at 7:00",
                DigestMode::Daily { hour: 7 },
                "daily 07:00",
            ),
            ("daily 00:00", DigestMode::Daily { hour: 0 }, "daily 00:00"),
        ] {
            assert_eq!(input.parse::<DigestMode>(), Ok(mode), "{input}");
            assert_eq!(mode.to_string(), shown);
            assert_eq!(shown.parse::<DigestMode>(), Ok(mode));
        }
        for bad in [
            "",
            "weekly",
            "daily 24",
            "daily 7:30",
            "daily -1",
            "daily 123",
            "off now",
        ] {
            let err = bad.parse::<DigestMode>().unwrap_err();
            assert!(
                err.to_string()
                    .starts_with(&format!("bad digest mode `{}`", bad.trim()))
            );
        }
    }

    #[test]
    fn zones_parse_in_any_case_with_a_suggestion() {
        assert_eq!(parse_zone("Europe/Berlin"), Ok(Tz::Europe__Berlin));
        assert_eq!(parse_zone(" america/new_york "), Ok(Tz::America__New_York));
        assert_eq!(parse_zone("utc"), Ok(Tz::UTC));
        let err = parse_zone("Berlin").unwrap_err();
        assert_eq!(err.suggestion, Some("Europe/Berlin"));
        assert_eq!(
            err.to_string(),
            "unknown time zone `Berlin`; hint: did you mean `Europe/Berlin`?"
        );
        let err = parse_zone("new york").unwrap_err();
        assert_eq!(err.suggestion, Some("America/New_York"));
        let err = parse_zone("Mars/Olympus").unwrap_err();
        assert!(err.to_string().contains("`Europe/Berlin`"), "{err}");
        assert!(parse_zone("").is_err());
    }

    /// Every day's first instant is on that day, and the second before it
    /// is not, in zones that change at midnight (Havana falls back from
    /// 01:00 to 00:00 on 1 Nov 2026, Santiago springs forward from 00:00
    /// on 6 Sep 2026, Beirut on 29 Mar 2026) and the usual ones.
    #[test]
    fn local_midnight_is_the_first_instant_of_the_day() {
        let zones = [
            Tz::UTC,
            Tz::Europe__Berlin,
            Tz::America__New_York,
            Tz::America__Havana,
            Tz::America__Santiago,
            Tz::Asia__Beirut,
            Tz::Australia__Lord_Howe,
            Tz::Pacific__Kiritimati,
            Tz::Pacific__Pago_Pago,
        ];
        for zone in zones {
            let mut day = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
            while day.year() == 2026 {
                let t = local_instant(zone, day, NaiveTime::MIN).unwrap();
                assert_eq!(t.with_timezone(&zone).date_naive(), day, "{zone} {day}");
                let before = (t - TimeDelta::seconds(1)).with_timezone(&zone);
                assert!(before.date_naive() < day, "{zone} {day}");
                day = day.succ_opt().unwrap();
            }
        }
        // The gap in Santiago: the day starts at 01:00 local.
        let t = local_instant(
            Tz::America__Santiago,
            NaiveDate::from_ymd_opt(2026, 9, 6).unwrap(),
            NaiveTime::MIN,
        )
        .unwrap();
        assert_eq!(t, utc("2026-09-06T04:00:00Z"));
        // Samoa skipped 30 Dec 2011: it "starts" when 31 Dec does.
        let t = local_instant(
            Tz::Pacific__Apia,
            NaiveDate::from_ymd_opt(2011, 12, 30).unwrap(),
            NaiveTime::MIN,
        )
        .unwrap();
        assert_eq!(
            t.with_timezone(&Tz::Pacific__Apia).to_rfc3339(),
            "2011-12-31T00:00:00+14:00"
        );
    }

    #[test]
    fn weekends_are_saturday_and_sunday_in_the_zone() {
        // Wed 4 Nov 2026, 12:00 UTC.
        let wed = utc("2026-11-04T12:00:00Z");
        assert_eq!(
            weekend_from(Tz::UTC, wed),
            Some((utc("2026-11-07T00:00:00Z"), utc("2026-11-09T00:00:00Z")))
        );
        assert_eq!(
            weekend_from(Tz::Europe__Berlin, wed),
            Some((utc("2026-11-06T23:00:00Z"), utc("2026-11-08T23:00:00Z")))
        );
        // Inside a weekend: that weekend.
        let sun = utc("2026-11-08T22:59:59Z");
        assert_eq!(
            weekend_from(Tz::Europe__Berlin, sun).unwrap().1,
            utc("2026-11-08T23:00:00Z")
        );
        // At its end: the next one.
        let mon = utc("2026-11-08T23:00:00Z");
        assert_eq!(
            weekend_from(Tz::Europe__Berlin, mon).unwrap().0,
            utc("2026-11-13T23:00:00Z")
        );
        // Sunday evening in New York is already Monday in UTC.
        let sun_ny = utc("2026-11-09T02:00:00Z");
        assert_eq!(
            weekend_from(Tz::America__New_York, sun_ny),
            Some((utc("2026-11-07T05:00:00Z"), utc("2026-11-09T05:00:00Z")))
        );
    }

    #[test]
    fn deadlines_are_shown_in_the_zone_with_utc() {
        let t = utc("2026-11-03T17:00:00Z");
        assert_eq!(format_deadline(t, None), "Tue 3 Nov 2026 17:00 UTC");
        assert_eq!(
            format_deadline(t, Some(Tz::UTC)),
            "Tue 3 Nov 2026 17:00 UTC"
        );
        assert_eq!(
            format_deadline(t, Some(Tz::Europe__Berlin)),
            "Tue 3 Nov 2026 18:00 CET (17:00 UTC)"
        );
        assert_eq!(
            format_deadline(utc("2026-10-20T17:00:59Z"), Some(Tz::Europe__Berlin)),
            "Tue 20 Oct 2026 19:00 CEST (17:00 UTC)"
        );
        assert_eq!(
            format_deadline(utc("2026-11-03T23:30:00Z"), Some(Tz::Europe__Berlin)),
            "Wed 4 Nov 2026 00:30 CET (Tue 3 Nov 2026 23:30 UTC)"
        );
        assert_eq!(
            format_deadline(utc("2026-11-03T02:00:00Z"), Some(Tz::America__New_York)),
            "Mon 2 Nov 2026 21:00 EST (Tue 3 Nov 2026 02:00 UTC)"
        );
    }

    #[test]
    fn extreme_stored_states_do_not_panic() {
        let policy = ClockPolicy::default();
        for left in [i64::MIN, -1, 0, 1, i64::MAX] {
            for start in [
                DateTime::<Utc>::MIN_UTC,
                utc("2026-11-02T09:00:00Z"),
                DateTime::<Utc>::MAX_UTC,
            ] {
                let mut s =
                    ClockState::new("3d+1d/10d weekends-free".parse().unwrap(), Side::A, start);
                s.a.left_seconds = left;
                s.a.zone = Some(Tz::Pacific__Kiritimati);
                for now in [DateTime::<Utc>::MIN_UTC, start, DateTime::<Utc>::MAX_UTC] {
                    let _ = s.deadline();
                    let _ = s.time_left(Side::A, now);
                    let _ = s.due(now, &policy);
                    let _ = s.clone().on_move(now);
                    let _ = s.clone().start_vacation(Side::A, 5, now, &policy);
                    let _ = s.clone().end_vacation(Side::A, now);
                    let _ = format_deadline(now, Some(Tz::Pacific__Kiritimati));
                    let _ = format_deadline(now, Some(Tz::Pacific__Pago_Pago));
                    let _ = daily_slot(Tz::Pacific__Kiritimati, 23, now);
                }
            }
        }
    }

    /// A clock of a random control (1-7 days a move, weekends free or
    /// not) started at a random minute of 2026 for a side in one of
    /// `zones`; and its start.
    fn random_clock(rng: &mut fastrand::Rng, zones: &[Tz]) -> (ClockState, DateTime<Utc>) {
        let control = TimeControl {
            days_per_move: rng.u32(1..8),
            bank: None,
            weekends_free: rng.bool(),
        };
        let start = utc("2026-01-01T00:00:00Z") + TimeDelta::minutes(rng.i64(0..525_600));
        let mut s = ClockState::new(control, Side::A, start);
        s.a.zone = Some(zones[rng.usize(..zones.len())]);
        (s, start)
    }

    /// The deadline index (issue 6) may look too early, never too late:
    /// for random policies, controls, zones and vacations, nothing is due
    /// just before `next_due`, and something is just after it.
    #[test]
    fn issue6_next_due_is_never_after_the_first_notice() {
        let zones = [Tz::UTC, Tz::Europe__Berlin, Tz::Pacific__Kiritimati];
        let mut rng = fastrand::Rng::with_seed(66);
        let mut notices = 0;
        for _ in 0..1000 {
            let policy = ClockPolicy {
                reminders: (0..rng.usize(0..3))
                    .filter_map(|_| ReminderPoint::from_permille(rng.u16(1..1000)))
                    .collect(),
                final_notice_hours: rng.u32(0..30),
                vacation_days_per_year: 30,
            };
            let (mut s, start) = random_clock(&mut rng, &zones);
            if rng.bool() {
                let _ = s.start_vacation(Side::A, rng.u32(1..4), start, &policy);
            }
            // Walk the turn: before the index's instant nothing is due;
            // a little after it, something is.
            for _ in 0..5 {
                let Some(at) = s.next_due(&policy) else {
                    break;
                };
                let before = at - TimeDelta::milliseconds(2);
                if before >= start {
                    assert_eq!(s.due(before, &policy), None, "{s:?} {policy:?}");
                }
                let Some(n) = s.due(at + TimeDelta::milliseconds(2), &policy) else {
                    panic!("nothing due just after {at}: {s:?} {policy:?}");
                };
                s.mark_sent(&n);
                notices += 1;
            }
        }
        assert!(notices > 2000, "{notices}");
    }

    /// Counted time and deadlines agree, for random zones, starts,
    /// vacations and amounts: the counted time up to `instant_after(d)` is
    /// `d`, counted time never exceeds the span, and it never goes back.
    #[test]
    fn counted_time_and_deadlines_agree() {
        let zones = [
            Tz::UTC,
            Tz::Europe__Berlin,
            Tz::America__New_York,
            Tz::America__Santiago,
            Tz::Australia__Lord_Howe,
            Tz::Pacific__Kiritimati,
        ];
        let policy = ClockPolicy::default();
        let mut rng = fastrand::Rng::with_seed(44);
        for _ in 0..2000 {
            let (mut s, start) = random_clock(&mut rng, &zones);
            for _ in 0..rng.usize(0..3) {
                let at = start + TimeDelta::minutes(rng.i64(-5_000..20_000));
                let _ = s.start_vacation(Side::A, rng.u32(1..6), at, &policy);
                if rng.bool() {
                    let _ = s.end_vacation(Side::A, at + TimeDelta::minutes(rng.i64(0..5000)));
                }
            }
            let amount = TimeDelta::minutes(rng.i64(0..15_000));
            let end = s.instant_after(Side::A, start, amount);
            let big = TimeDelta::days(1000);
            assert!(end >= start + amount, "{s:?}");
            assert_eq!(s.counted(Side::A, start, end, big), amount, "{s:?}");
            let mut last = TimeDelta::zero();
            for k in 0..30 {
                let to = start + TimeDelta::minutes(k * 997);
                let c = s.counted(Side::A, start, to, big);
                assert!(c >= last && c <= to - start, "{s:?} {to}");
                last = c;
            }
        }
    }
}
