//! The time control (`3d`, `3d+1d/10d weekends-free`) and the server's
//! policy: reminder points, the final notice, the vacation allowance.

use super::*;

/// A game's time control, chosen at challenge time: `3d`,
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
pub(super) fn read_days(text: &str) -> Result<u32, TimeControlErrorKind> {
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
