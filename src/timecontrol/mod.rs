//! Clocks for correspondence play: time controls, deadlines, reminders,
//! loss on time, vacations, weekends and digests ("Clocks,
//! reminders and absence").
//!
//! Everything here is pure: no I/O, and the time is always passed in (the
//! one clock is [`crate::clock::now`]; docs/src/contributing.md, "One clock"),
//! so a month of play runs in milliseconds under a fake clock
//! (`tests/server/timecontrol.rs`). The poll asks [`ClockState::due`] what is
//! owed now, sends it, and records it with [`ClockState::mark_sent`] in the
//! state it stores beside the record.
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
//! reader's zone, `Tue 3 Nov 2026, 18:00 CET`, or in the server's
//! ([`server_zone`]: the `timezone` setting, else the system's) when the
//! reader set none; the minute is rounded down.
//!
//! # Digests
//!
//! [`release`] ([`digest`]) decides which queued mails go out now and groups them per
//! recipient, by the recipient's [`DigestMode`]: `off` (one mail per
//! event, at once), `per-poll` (one mail per poll), or `daily 08:00` (one
//! mail a day, at the first poll after that hour in the recipient's zone;
//! an urgent item, such as a final notice, goes out at once and takes the
//! recipient's other pending items with it).
//!
//! # Where things are
//!
//! [`control`]: the time control and the server's policy (reminder
//! points, final notice, vacation allowance); [`state`]: the clock state
//! of one game, its deadlines, notices and vacations; [`zones`]: time
//! zones, weekends and deadline formatting; [`digest`]: digests.

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

pub(crate) const DAY_SECS: i64 = 86_400;

pub mod control;
pub mod digest;
pub mod state;
#[cfg(test)]
mod tests;
pub mod zones;

pub use control::*;
pub use digest::*;
pub use state::*;
pub use zones::*;
