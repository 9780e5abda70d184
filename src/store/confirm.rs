//! Requests that wait for their sender to prove the address:
//! `DATA/confirm/ID.toml`. A mail's From can be forged, so what a mail
//! asks that reaches beyond its sender's own games (signing up for a
//! tournament, leaving one) is done only once pbem has mailed that
//! address a key and a reply carrying it came back (a double opt-in). The
//! key is a secret: these files are never published.

use super::{Store, StoreError};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// What a confirmation, once given, does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Action {
    /// Sign up for tournament `tournament` (`join NAME`).
    Join { tournament: String },
    /// Leave tournament `tournament` (`leave NAME`).
    Leave { tournament: String },
}

/// A request waiting for (or given) its confirmation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Confirmation {
    pub action: Action,
    /// Who asked, "Name <address>" as their mail's From named them.
    pub mailbox: String,
    /// Their address, lower case: the only one that may confirm.
    pub address: String,
    /// The key that proves the address: in the Reply-To of the mail pbem
    /// sent there, and nowhere else.
    pub key: String,
    /// The command that asked (a hash of its mail: a mail handled again
    /// finds the request it made).
    pub source: String,
    pub created: DateTime<Utc>,
    /// When it was confirmed. Kept a while after, so that a confirmation
    /// handled again (a crash before its commit) is answered the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub done: Option<DateTime<Utc>>,
    /// It was declined (and `done` says when): nothing was carried out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub declined: bool,
}

impl Store {
    /// Request `id`, `None` when there is none.
    ///
    /// # Errors
    /// A bad id, I/O errors or a damaged file.
    pub fn confirmation(&self, id: &str) -> Result<Option<Confirmation>, StoreError> {
        self.read_toml(&self.checked("confirm", id)?)
    }

    /// # Errors
    /// A bad id or any I/O error.
    pub fn write_confirmation(&self, id: &str, c: &Confirmation) -> Result<(), StoreError> {
        self.write_toml(&self.checked("confirm", id)?, c)
    }

    /// # Errors
    /// A bad id or any I/O error.
    pub fn remove_confirmation(&self, id: &str) -> Result<(), StoreError> {
        self.remove_file(&self.checked("confirm", id)?)
    }

    /// The ids of the requests, sorted.
    ///
    /// # Errors
    /// When the folder cannot be read.
    pub fn confirmation_ids(&self) -> Result<Vec<String>, StoreError> {
        self.ids_in("confirm")
    }

    pub fn confirmation_path(&self, id: &str) -> Result<std::path::PathBuf, StoreError> {
        self.checked("confirm", id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_reads_back_as_written_and_goes() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let c = Confirmation {
            action: Action::Join {
                tournament: "spring-cup".into(),
            },
            mailbox: "\"Ann \\\"A\\\" O'Neil\" <ann@example.org>".into(),
            address: "ann@example.org".into(),
            key: "k3y".into(),
            source: "ab12".into(),
            created: "2026-11-28T10:00:00Z".parse().unwrap(),
            done: Some("2026-11-28T11:00:00Z".parse().unwrap()),
            declined: true,
        };
        store.write_confirmation("ok-abc", &c).unwrap();
        assert_eq!(store.confirmation("ok-abc").unwrap(), Some(c.clone()));
        let leave = Confirmation {
            action: Action::Leave {
                tournament: "x".into(),
            },
            done: None,
            declined: false,
            ..c
        };
        store.write_confirmation("ok-def", &leave).unwrap();
        assert_eq!(store.confirmation("ok-def").unwrap(), Some(leave));
        assert_eq!(store.confirmation_ids().unwrap(), ["ok-abc", "ok-def"]);
        store.remove_confirmation("ok-abc").unwrap();
        assert_eq!(store.confirmation("ok-abc").unwrap(), None);
        assert!(store.confirmation("../x").is_err());
    }
}
