//! Time zones and counted time: weekends in a player's zone, local
//! instants, durations, and deadlines shown in the player's zone with
//! UTC beside them.

use super::*;

/// `days` × 24 hours.
pub(super) fn days(days: u32) -> TimeDelta {
    TimeDelta::seconds(i64::from(days) * DAY_SECS)
}

pub(super) fn hours(hours: u32) -> TimeDelta {
    TimeDelta::seconds(i64::from(hours) * 3600)
}

/// Seconds as a duration, saturating (a stored state may hold anything).
pub(super) fn seconds(secs: i64) -> TimeDelta {
    TimeDelta::try_seconds(secs.max(0)).unwrap_or(TimeDelta::MAX)
}

/// `t + d`, saturating at the end of time instead of panicking.
pub(super) fn add(t: DateTime<Utc>, d: TimeDelta) -> DateTime<Utc> {
    t.checked_add_signed(d).unwrap_or(DateTime::<Utc>::MAX_UTC)
}

/// `at` on the wall clocks of `zone`; `None` only at the ends of chrono's
/// calendar (where `DateTime::with_timezone(..).naive_local()` panics).
pub(super) fn local(zone: Tz, at: DateTime<Utc>) -> Option<NaiveDateTime> {
    let offset = zone.offset_from_utc_datetime(&at.naive_utc()).fix();
    at.naive_utc().checked_add_offset(offset)
}

/// The calendar year of `at` in `zone` (UTC's at the ends of time).
pub(super) fn local_year(zone: Tz, at: DateTime<Utc>) -> i32 {
    local(zone, at).map_or(at.year(), |t| t.year())
}

/// The first instant at or after `time` on `date` in `zone`: the earlier
/// of two when the clocks fall back, the end of the gap when they spring
/// forward. `None` only at the ends of chrono's calendar.
pub(super) fn local_instant(zone: Tz, date: NaiveDate, time: NaiveTime) -> Option<DateTime<Utc>> {
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
pub(super) fn weekend_from(zone: Tz, at: DateTime<Utc>) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
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
