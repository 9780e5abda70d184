//! The clock state of one game: whose clock runs, the deadlines,
//! reminders and the final notice due, moves, vacations and their
//! allowance.

use super::*;

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
pub(super) fn allowance_exceeded(days: u32, left: u32, per_year: u32, year: i32) -> String {
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
        self.pass_turn(now, true)
    }

    /// The side to move agreed at `now` to take back its opponent's last
    /// move (docs/src/players/clocks.md, "Takebacks"): the turn goes back
    /// to the opponent as after a move, its clock starting at `now` with
    /// what it has; the side that agreed is charged the time it used,
    /// with no increment (it made no move).
    ///
    /// # Errors
    /// As [`ClockState::on_move`].
    pub fn on_takeback(&mut self, now: DateTime<Utc>) -> Result<Moved, ClockError> {
        self.pass_turn(now, false)
    }

    /// The turn passes at `now` to the other side, the time used charged
    /// to the side to move, with the bank's increment when `increment`.
    fn pass_turn(&mut self, now: DateTime<Utc>, increment: bool) -> Result<Moved, ClockError> {
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
            Some(bank) => {
                let add = if increment {
                    days(bank.add_days)
                } else {
                    TimeDelta::zero()
                };
                (turn - used + add).min(days(bank.cap_days))
            }
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
    /// it, so that a poll reads only the clocks whose time has come.
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
    pub(super) fn counted(
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
    pub(super) fn instant_after(
        &self,
        side: Side,
        from: DateTime<Utc>,
        amount: TimeDelta,
    ) -> DateTime<Utc> {
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
