//! Digests: a player's [`DigestMode`], and [`release`], which
//! decides which held news goes out now, grouped into one mail per
//! recipient.

use super::*;

/// How a player wants the mail about their games ("a daily or
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

/// One item of news held for a digest, waiting to be mailed: a notice, a move, a reply, rendered or
/// not (the lead's choice of `T`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldNews<T> {
    pub recipient: String,
    /// When it was queued.
    pub at: DateTime<Utc>,
    /// Goes out at once whatever the mode (a final notice, a timeout).
    pub urgent: bool,
    pub item: T,
}

/// One mail to send: items for one recipient, in queue order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DigestBatch<T> {
    pub recipient: String,
    pub items: Vec<T>,
}

/// What [`release`] decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Release<T> {
    /// The mails to send now: one per recipient (in order of their first
    /// item), or one per item for `off`.
    pub send: Vec<DigestBatch<T>>,
    /// What stays queued, in queue order.
    pub keep: Vec<HeldNews<T>>,
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
    queue: Vec<HeldNews<T>>,
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
    let mut send: Vec<DigestBatch<T>> = Vec::new();
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
                send.push(DigestBatch {
                    recipient: q.recipient,
                    items: vec![q.item],
                });
            }
        }
    }
    Release { send, keep }
}

/// The latest `hour`:00 in `zone` at or before `now`.
pub(super) fn daily_slot(zone: Tz, hour: u8, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    let time = NaiveTime::from_hms_opt(u32::from(hour.min(23)), 0, 0)?;
    let today = local(zone, now)?.date();
    let slot = local_instant(zone, today, time)?;
    if slot <= now {
        return Some(slot);
    }
    local_instant(zone, today.pred_opt()?, time)
}
