//! Time zones and counted time: weekends in a player's zone, local
//! instants, durations, and times shown in the reader's zone (or the
//! server's).

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

/// A time as people read it, in `zone` (the reader's), else in the
/// server's ([`server_zone`]): `Mon 30 Nov 2026, 18:00 CET`. Every time
/// pbem mails or prints for a person goes through here, so that one form
/// and one zone rule hold everywhere; the minute is rounded down (no
/// seconds: a deadline is to the minute). UTC at the ends of chrono's
/// calendar, where no zone's wall clock can be read.
pub fn format_deadline(at: DateTime<Utc>, zone: Option<Tz>) -> String {
    const FORM: &str = "%a %-d %b %Y, %H:%M";
    let zone = zone.unwrap_or_else(server_zone);
    if local(zone, at).is_none() {
        return format!("{} UTC", at.format(FORM));
    }
    at.with_timezone(&zone)
        .format(&format!("{FORM} %Z"))
        .to_string()
}

/// The zone the server shows times in to a reader who set none: the
/// `timezone` setting ([`set_server_zone`]), else the system's.
static SERVER_ZONE: std::sync::RwLock<Option<Tz>> = std::sync::RwLock::new(None);

/// Sets the zone of [`server_zone`] (from the settings' `timezone`).
pub fn set_server_zone(zone: Tz) {
    if let Ok(mut z) = SERVER_ZONE.write() {
        *z = Some(zone);
    }
}

/// The system's zone, looked up once a process: it was looked up (the
/// environment read, a link read) every time a time was shown, twice a
/// mail.
static SYSTEM_ZONE: std::sync::OnceLock<Tz> = std::sync::OnceLock::new();

/// The server's time zone: the `timezone` setting once the settings are
/// read, else the system's ([`system_zone`], as it was when first asked).
pub fn server_zone() -> Tz {
    match SERVER_ZONE.read().ok().and_then(|z| *z) {
        Some(zone) => zone,
        None => *SYSTEM_ZONE.get_or_init(system_zone),
    }
}

/// The system's time zone: `TZ` (an IANA name, with or without the
/// leading `:`), else the zone `/etc/localtime` links to or `/etc/timezone`
/// names, else UTC.
pub fn system_zone() -> Tz {
    let from_tz = std::env::var("TZ").ok().and_then(|tz| zone_of_tz(&tz));
    let linked = || {
        let target = std::fs::read_link("/etc/localtime").ok()?;
        target
            .to_string_lossy()
            .contains("zoneinfo/")
            .then_some(())?;
        zone_of_tz(&target.to_string_lossy())
    };
    let named = || {
        let text = std::fs::read_to_string("/etc/timezone").ok()?;
        text.trim().parse::<Tz>().ok()
    };
    from_tz.or_else(linked).or_else(named).unwrap_or(Tz::UTC)
}

/// The zone a `TZ` value names: `Europe/Berlin`, `:Europe/Berlin`, or a
/// path into the zone files (`/usr/share/zoneinfo/Europe/Berlin`).
pub(super) fn zone_of_tz(value: &str) -> Option<Tz> {
    let name = value.trim().trim_start_matches(':');
    let name = name.rsplit_once("zoneinfo/").map_or(name, |(_, n)| n);
    name.parse::<Tz>().ok()
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
