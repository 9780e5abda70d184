//! The poll's own error: what stops a poll, or leaves one mail (or one
//! step: the digests, the bot's turn) for the next poll. Each layer's
//! failure is carried whole, as its `source()`: the store's, the
//! mailbox's, a template's, the adjudicator's.

use crate::adjudicate::AdjudicateError;
use crate::mail::templates::TemplateError;
use crate::store::StoreError;
use std::io;

/// A failure of a poll or of one of its steps.
#[derive(Debug, thiserror::Error)]
pub enum PollError {
    /// The data folder: the message names the file, and says what to do
    /// where the admin can do something.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The mailbox could not list its mails (a Maildir folder that cannot
    /// be read, an IMAP server gone away or refusing the login): nothing
    /// was processed.
    #[error(
        "cannot read the mailbox: {source}; its mails wait there for the next poll \
         (`pbem check` tries the mailbox's settings)"
    )]
    Mailbox {
        #[source]
        source: io::Error,
    },
    /// A notice or a digest pbem writes by itself whose template does not
    /// render: an admin's template, usually.
    #[error(
        "{source} (mend it in the `templates` folder pbem.toml names, or take it out to use \
         the built-in one)"
    )]
    Template {
        #[from]
        source: TemplateError,
    },
    /// The adjudicator's failure on a mail or on the bot's turn.
    #[error(transparent)]
    Adjudicate(#[from] AdjudicateError),
}

impl PollError {
    /// The data folder cannot be written at all (full, read-only): every
    /// other mail would fail the same way.
    pub fn is_unwritable(&self) -> bool {
        match self {
            PollError::Store(e) => e.is_unwritable(),
            PollError::Adjudicate(e) => e.is_unwritable(),
            PollError::Mailbox { .. } | PollError::Template { .. } => false,
        }
    }

    /// Another pbem holds the data folder's lock: this poll did nothing.
    pub fn is_busy(&self) -> bool {
        matches!(self, PollError::Store(StoreError::Busy(_)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn a_mailbox_failure_quotes_its_cause_and_says_what_to_do() {
        let e = PollError::Mailbox {
            source: io::Error::other("connection reset"),
        };
        assert_eq!(
            e.to_string(),
            "cannot read the mailbox: connection reset; its mails wait there for the next poll \
             (`pbem check` tries the mailbox's settings)"
        );
        assert_eq!(
            e.source().map(|s| s.to_string()).as_deref(),
            Some("connection reset")
        );
        assert!(!e.is_unwritable() && !e.is_busy());
    }

    #[test]
    fn a_template_failure_names_the_template_and_the_cure() {
        let e = PollError::from(TemplateError {
            name: "paused.txt".into(),
            message: "unknown filter".into(),
        });
        assert_eq!(
            e.to_string(),
            "template paused.txt: unknown filter (mend it in the `templates` folder pbem.toml \
             names, or take it out to use the built-in one)"
        );
        assert!(e.source().is_some_and(|s| s.is::<TemplateError>()));
        assert!(!e.is_unwritable());
    }

    #[test]
    fn the_lock_held_elsewhere_is_busy_and_nothing_else_is() {
        let busy = PollError::from(StoreError::Busy("/srv/pbem/data".into()));
        assert!(busy.is_busy());
        let id = PollError::from(StoreError::BadId { id: "X".into() });
        assert!(!id.is_busy() && !id.is_unwritable());
    }
}
