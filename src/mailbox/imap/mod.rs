//! An IMAP mailbox (RFC 3501): pbem reads the unseen mail of one folder
//! and, once a mail's record and replies are durable, flags it `\Seen` or
//! moves it to a processed folder.
//!
//! The protocol is the `imap` crate's (login, SELECT, UID SEARCH, UID
//! FETCH, UID STORE, UID MOVE, IDLE). TLS is rustls, set up here: the
//! crate's own TLS features bring native-tls or a second rustls
//! configuration that cannot take a private CA file. Only the two
//! exchanges before a STARTTLS handshake (greeting, CAPABILITY, STARTTLS)
//! are written out here, since the crate offers STARTTLS only with its own
//! TLS.
//!
//! A mail's name is `imap:<UIDVALIDITY>:<UID>`: the same across
//! reconnects, and never mistaken for another mail after the server
//! renumbers the folder (a changed UIDVALIDITY, RFC 3501 section 2.3.1.1).
//! Reading uses `BODY.PEEK[]`, so reading alone never sets `\Seen`.
//!
//! Its parts: [`config`] (`[inbox] imap = { ... }` and the errors),
//! [`connection`] (TCP, TLS, STARTTLS, login, the folders made and
//! selected), [`watch`] (IDLE or a nap until the folder changes), and here
//! the [`Source`] itself: fetching unseen mail and marking it done.

use super::{InboxMail, MAX_MAIL, Source};
use imap::extensions::idle::{SetReadTimeout, WaitOutcome, stop_on_any};
use imap::types::UnsolicitedResponse;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use serde::{Deserialize, Serialize};
use std::io::{self, BufRead, Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub mod config;
pub mod connection;
#[cfg(test)]
mod tests;
pub mod watch;

pub use config::*;
pub use connection::*;
pub use watch::*;

/// How long one network read or write may take before the connection is
/// given up as lost.
pub(super) const IO_TIMEOUT: Duration = Duration::from_secs(60);
/// How long connecting may take.
pub(super) const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
/// Mails fetched per UID FETCH.
pub(super) const BATCH: usize = 50;

pub(super) type Session = imap::Session<Stream>;

/// What the server can do, from CAPABILITY after login.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capabilities {
    pub idle: bool,
    pub moves: bool,
    pub uidplus: bool,
}

/// A logged-in connection with the folder selected.
struct Conn {
    session: Session,
    /// The same socket, to restore its timeout after IDLE and to close it
    /// from the stop watcher.
    socket: TcpStream,
    caps: Capabilities,
    /// The selected folder's UIDVALIDITY.
    validity: u32,
}

/// What [`Imap::select`] saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FolderState {
    pub messages: u32,
    pub unseen: usize,
    pub validity: u32,
    pub caps: Capabilities,
}

/// Why [`Imap::wait`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wake {
    /// The folder changed (IDLE), or the polling interval passed.
    Changed,
    /// Nothing happened within the time given.
    TimedOut,
    /// The stop flag was raised.
    Stopped,
}

/// An IMAP folder as a [`Source`]. Connects on first use and again after
/// a lost connection.
pub struct Imap {
    config: ImapConfig,
    conn: Option<Conn>,
    /// The server's IDLE misbehaved once: poll instead from then on.
    idle_broken: bool,
}

impl Imap {
    /// Does not connect yet.
    pub fn new(config: ImapConfig) -> Imap {
        Imap {
            config,
            conn: None,
            idle_broken: false,
        }
    }

    pub fn config(&self) -> &ImapConfig {
        &self.config
    }

    /// Connects, logs in, makes the processed folder when missing, and
    /// selects the folder: what `pbem check` tries.
    ///
    /// # Errors
    /// [`ImapError`] saying which step failed.
    pub fn select(&mut self) -> Result<FolderState, ImapError> {
        self.conn = None;
        let folder = self.config.folder.clone();
        let conn = self.conn()?;
        let messages = conn
            .session
            .select(&folder)
            .map_err(|e| ImapError::Folder {
                folder: folder.clone(),
                key: "folder",
                message: e.to_string(),
            })?
            .exists;
        let unseen = conn
            .session
            .uid_search("UNSEEN")
            .map_err(ImapError::protocol("UID SEARCH"))?
            .len();
        Ok(FolderState {
            messages,
            unseen,
            validity: conn.validity,
            caps: conn.caps,
        })
    }

    /// Logs out (quietly: the connection may be gone already).
    pub fn logout(&mut self) {
        if let Some(mut c) = self.conn.take() {
            let _ = c.session.logout();
        }
    }

    /// The connection, made when there is none.
    fn conn(&mut self) -> Result<&mut Conn, ImapError> {
        if self.conn.is_none() {
            self.conn = Some(connect(&self.config)?);
        }
        self.conn.as_mut().ok_or_else(|| ImapError::Protocol {
            what: "connect",
            message: "no connection".into(),
        })
    }

    /// Runs `f` on the connection; when a connection kept from before
    /// fails (the server closed it while we were away), once more on a
    /// fresh one. Any failure drops the connection.
    fn with_conn<T>(
        &mut self,
        mut f: impl FnMut(&ImapConfig, &mut Conn) -> Result<T, ImapError>,
    ) -> Result<T, ImapError> {
        let reused = self.conn.is_some();
        let first = {
            let config = self.config.clone();
            self.conn().and_then(|c| f(&config, c))
        };
        match first {
            Ok(x) => Ok(x),
            Err(e @ ImapError::Renumbered { .. }) => Err(e),
            Err(e) => {
                self.conn = None;
                if !reused {
                    return Err(e);
                }
                let config = self.config.clone();
                let second = self.conn().and_then(|c| f(&config, c));
                if second.is_err() {
                    self.conn = None;
                }
                second
            }
        }
    }
}

impl Drop for Imap {
    fn drop(&mut self) {
        self.logout();
    }
}

/// `imap:<UIDVALIDITY>:<UID>` back into its numbers.
pub(super) fn parse_name(name: &str) -> Option<(u32, u32)> {
    let rest = name.strip_prefix("imap:")?;
    let (v, u) = rest.split_once(':')?;
    Some((v.parse().ok()?, u.parse().ok()?))
}

impl Source for Imap {
    fn pending(&mut self) -> io::Result<Vec<InboxMail>> {
        Ok(self.with_conn(|config, c| {
            // SELECT each time: it shows mail that came since, and a
            // renumbered folder. What the server announced before is
            // old news then.
            c.session.take_all_unsolicited().for_each(drop);
            c.validity = select(&mut c.session, &config.folder, "folder")?;
            let mut uids: Vec<u32> = c
                .session
                .uid_search("UNSEEN")
                .map_err(ImapError::protocol("UID SEARCH"))?
                .into_iter()
                .collect();
            uids.sort_unstable();
            let mut found = Vec::new();
            for chunk in uids.chunks(BATCH) {
                let set = uid_set(chunk);
                let sizes = c
                    .session
                    .uid_fetch(&set, "(UID RFC822.SIZE)")
                    .map_err(ImapError::protocol("UID FETCH"))?;
                let (mut small, mut big) = (Vec::new(), Vec::new());
                for f in sizes.iter() {
                    if let Some(uid) = f.uid {
                        if u64::from(f.size.unwrap_or(0)) > MAX_MAIL {
                            big.push(uid);
                        } else {
                            small.push(uid);
                        }
                    }
                }
                // Too big to be a move: only the headers, as the Maildir
                // source does.
                for (uids, query) in [
                    (small, "(UID BODY.PEEK[])"),
                    (big, "(UID BODY.PEEK[HEADER])"),
                ] {
                    if uids.is_empty() {
                        continue;
                    }
                    let fetched = c
                        .session
                        .uid_fetch(uid_set(&uids), query)
                        .map_err(ImapError::protocol("UID FETCH"))?;
                    for f in fetched.iter() {
                        let (Some(uid), Some(raw)) = (f.uid, f.body().or_else(|| f.header()))
                        else {
                            continue;
                        };
                        found.push((
                            uid,
                            InboxMail {
                                name: format!("imap:{}:{uid}", c.validity),
                                raw: raw.to_vec(),
                            },
                        ));
                    }
                }
            }
            found.sort_by_key(|(uid, _)| *uid);
            found.dedup_by_key(|(uid, _)| *uid);
            Ok(found.into_iter().map(|(_, p)| p).collect())
        })?)
    }

    fn done(&mut self, mail: &InboxMail) -> io::Result<()> {
        let Some((validity, uid)) = parse_name(&mail.name) else {
            return Err(io::Error::other(format!(
                "{}: not the name of an IMAP mail",
                mail.name
            )));
        };
        let name = mail.name.clone();
        Ok(self.with_conn(|config, c| {
            if c.validity != validity {
                return Err(ImapError::Renumbered {
                    name: name.clone(),
                    was: validity,
                    now: c.validity,
                });
            }
            let uid = uid.to_string();
            c.session
                .uid_store(&uid, "+FLAGS.SILENT (\\Seen)")
                .map_err(ImapError::protocol("UID STORE"))?;
            let Some(to) = &config.processed_folder else {
                return Ok(());
            };
            if c.caps.moves {
                c.session
                    .uid_mv(&uid, to)
                    .map_err(ImapError::protocol("UID MOVE"))?;
            } else {
                // RFC 6851 section 3.3: COPY, flag \Deleted, expunge (only
                // this mail where the server has UIDPLUS).
                c.session
                    .uid_copy(&uid, to)
                    .map_err(ImapError::protocol("UID COPY"))?;
                c.session
                    .uid_store(&uid, "+FLAGS.SILENT (\\Deleted)")
                    .map_err(ImapError::protocol("UID STORE"))?;
                if c.caps.uidplus {
                    c.session
                        .uid_expunge(&uid)
                        .map_err(ImapError::protocol("UID EXPUNGE"))?;
                } else {
                    c.session
                        .expunge()
                        .map_err(ImapError::protocol("EXPUNGE"))?;
                }
            }
            Ok(())
        })?)
    }
}

/// `1,5,7` from UIDs.
pub(super) fn uid_set(uids: &[u32]) -> String {
    uids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// SELECTs `folder`; returns its UIDVALIDITY.
pub(super) fn select(
    session: &mut Session,
    folder: &str,
    key: &'static str,
) -> Result<u32, ImapError> {
    let m = session.select(folder).map_err(|e| ImapError::Folder {
        folder: folder.to_string(),
        key,
        message: e.to_string(),
    })?;
    m.uid_validity.ok_or_else(|| ImapError::Folder {
        folder: folder.to_string(),
        key,
        message: "the server gave no UIDVALIDITY".into(),
    })
}
