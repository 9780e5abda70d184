//! The one clock (docs/src/contributing.md, "One clock"). Everything that needs
//! the time asks here; tests pin it with `PBEM_NOW=2026-11-20T10:00:00Z` so
//! that records and mails come out the same on every run.

use chrono::{DateTime, Utc};

/// The current time, or `PBEM_NOW` when set to an RFC 3339 time.
pub fn now() -> DateTime<Utc> {
    if let Ok(s) = std::env::var("PBEM_NOW")
        && let Ok(t) = DateTime::parse_from_rfc3339(s.trim())
    {
        return t.with_timezone(&Utc);
    }
    #[allow(clippy::disallowed_methods)]
    Utc::now()
}
