//! Where mail comes from: a Maildir, an IMAP folder ([`imap`]), or one
//! message on standard input (`pbem deliver`, for an MTA pipe). All sit
//! behind [`Source`], so the poll does not care.
//!
//! The start of the mail path: a source gives the poll each waiting mail
//! as an [`InboxMail`] (its raw bytes), and is told when one is done.
//! One source per file: [`maildir`], [`stdin`], [`imap`].

pub mod imap;
pub mod maildir;
pub mod stdin;

pub use maildir::Maildir;
pub use stdin::Stdin;

use std::io;

/// One mail waiting in a source to be processed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboxMail {
    /// The source's name for it: a Maildir file name, `imap:<UIDVALIDITY>:<UID>`.
    pub name: String,
    pub raw: Vec<u8>,
}

/// A mailbox pbem reads.
pub trait Source {
    /// The mails not yet processed, oldest first.
    ///
    /// # Errors
    /// When the mailbox cannot be read.
    fn pending(&mut self) -> io::Result<Vec<InboxMail>>;
    /// Marks a mail as done; called only after its record and replies are
    /// durable.
    ///
    /// # Errors
    /// When the mailbox cannot be changed.
    fn done(&mut self, mail: &InboxMail) -> io::Result<()>;
    /// Makes the marks of [`Source::done`] so far durable, where they are
    /// not at once (a Maildir: one folder sync for a batch of mails). A
    /// mark lost to a crash is harmless: the mail is found again, its key
    /// is committed, and it is only marked.
    ///
    /// # Errors
    /// When the mailbox cannot be synced.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A mailbox that is always empty: a poll that only does what is due
/// without mail (clocks, tournaments), as `pbem tournament new` runs one.
pub struct NoMail;

impl Source for NoMail {
    fn pending(&mut self) -> io::Result<Vec<InboxMail>> {
        Ok(Vec::new())
    }
    fn done(&mut self, _: &InboxMail) -> io::Result<()> {
        Ok(())
    }
}

/// The largest mail read; anything bigger is left alone and reported.
pub const MAX_MAIL: u64 = 25 * 1024 * 1024;
