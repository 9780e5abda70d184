//! An IMAP mailbox (RFC 3501): pbem reads the unseen mail of one folder
//! and, once a mail's record and replies are durable, flags it `\Seen` or
//! moves it to a processed folder (issue 4, "IMAP source").
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

use super::{MAX_MAIL, Pending, Source};
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

/// How long one network read or write may take before the connection is
/// given up as lost.
const IO_TIMEOUT: Duration = Duration::from_secs(60);
/// How long connecting may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
/// Mails fetched per UID FETCH.
const BATCH: usize = 50;

/// `[inbox] imap = { ... }` in pbem.toml.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImapConfig {
    pub host: String,
    /// Default: 993 with `security = "tls"`, else 143.
    #[serde(default)]
    pub port: Option<u16>,
    /// `starttls` (default), `tls` (IMAPS), or `plain` (loopback only).
    #[serde(default)]
    pub security: Security,
    pub user: String,
    /// The password itself; `password_file` keeps it out of pbem.toml.
    #[serde(default)]
    pub password: Option<Secret>,
    /// A file holding the password (its first line).
    #[serde(default)]
    pub password_file: Option<PathBuf>,
    /// The folder pbem reads.
    #[serde(default = "default_folder")]
    pub folder: String,
    /// Move processed mail here (created when missing) instead of only
    /// flagging it `\Seen`.
    #[serde(default)]
    pub processed_folder: Option<String>,
    /// Extra CA certificates (PEM) to trust, for a private server.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    /// `pbem daemon`: wait with IDLE when the server has it (default).
    #[serde(default = "yes")]
    pub idle: bool,
    /// `pbem daemon` without IDLE: look every this many seconds.
    #[serde(default = "default_poll_seconds")]
    pub poll_seconds: u64,
}

fn default_folder() -> String {
    "INBOX".into()
}
fn yes() -> bool {
    true
}
fn default_poll_seconds() -> u64 {
    60
}

/// How the connection is protected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// No TLS: only for a server on this machine.
    Plain,
    /// Plain connect, then STARTTLS before login (port 143).
    #[default]
    Starttls,
    /// TLS from the start (IMAPS, port 993).
    Tls,
}

/// A password: never printed, not even by `{:?}`.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("\"(hidden)\"")
    }
}

/// Whether `host` names this machine (where a plain connection is fine).
pub fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl ImapConfig {
    pub fn port(&self) -> u16 {
        self.port.unwrap_or(match self.security {
            Security::Tls => 993,
            _ => 143,
        })
    }

    /// Checks what serde cannot; `key` is where the settings are
    /// (`inbox.imap`), for the messages.
    ///
    /// # Errors
    /// A message naming the key and saying what to write instead.
    pub fn validate(&self, key: &str) -> Result<(), String> {
        if self.host.trim().is_empty() {
            return Err(format!("{key}.host is empty: write the IMAP server's name"));
        }
        if self.security == Security::Plain && !is_loopback(&self.host) {
            return Err(format!(
                "{key}.security = \"plain\" sends the password in clear: only for a server \
                 on this machine (host = \"{}\"); use \"starttls\" or \"tls\"",
                self.host
            ));
        }
        match (&self.password, &self.password_file) {
            (Some(_), Some(_)) => {
                return Err(format!(
                    "{key}: set `password_file` or `password`, not both"
                ));
            }
            (None, None) => {
                return Err(format!(
                    "{key} needs `password_file = \"FILE\"` (or `password`) for user \"{}\"",
                    self.user
                ));
            }
            _ => {}
        }
        if self.user.is_empty() {
            return Err(format!("{key}.user is empty"));
        }
        for (name, folder) in [
            ("folder", Some(&self.folder)),
            ("processed_folder", self.processed_folder.as_ref()),
        ] {
            if let Some(f) = folder
                && (f.is_empty() || f.chars().any(|c| c.is_control() || c == '"' || c == '\\'))
            {
                return Err(format!(
                    "{key}.{name} = {f:?}: a folder name must be non-empty, without quotes, \
                     backslashes or control characters"
                ));
            }
        }
        if self.processed_folder.as_deref() == Some(self.folder.as_str()) {
            return Err(format!(
                "{key}.processed_folder is the folder pbem reads (\"{}\"): choose another, \
                 or leave it out to only mark mail as seen",
                self.folder
            ));
        }
        if self.poll_seconds == 0 {
            return Err(format!("{key}.poll_seconds must be at least 1"));
        }
        Ok(())
    }

    /// Resolves the relative paths against `base` (pbem.toml's folder).
    pub fn resolve(&mut self, base: &Path) {
        for p in [&mut self.password_file, &mut self.ca_file]
            .into_iter()
            .flatten()
        {
            if p.is_relative() {
                *p = base.join(&*p);
            }
        }
    }

    /// `imap HOST:PORT (SECURITY) as USER, folder "FOLDER"`, for
    /// messages (no password).
    pub fn describe(&self) -> String {
        format!(
            "imap {}:{} ({}) as {}, folder \"{}\"",
            self.host,
            self.port(),
            match self.security {
                Security::Plain => "plain",
                Security::Starttls => "starttls",
                Security::Tls => "tls",
            },
            self.user,
            self.folder,
        )
    }

    fn password(&self) -> Result<String, ImapError> {
        if let Some(Secret(p)) = &self.password {
            return Ok(p.clone());
        }
        let Some(path) = &self.password_file else {
            return Err(ImapError::Password {
                path: "(none)".into(),
                message: "inbox.imap has neither `password` nor `password_file`".into(),
            });
        };
        let text = std::fs::read_to_string(path).map_err(|e| ImapError::Password {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Ok(text.lines().next().unwrap_or("").to_string())
    }
}

/// What went wrong talking to the IMAP server. The messages name the
/// setting to look at; none holds the password.
#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    #[error(
        "cannot connect to {host}:{port}: {message} (is the server up? check inbox.imap.host and inbox.imap.port)"
    )]
    Connect {
        host: String,
        port: u16,
        message: String,
    },
    #[error(
        "TLS with {host}:{port}: {message} (a private CA needs inbox.imap.ca_file; IMAPS on port 993 needs security = \"tls\", port 143 \"starttls\")"
    )]
    Tls {
        host: String,
        port: u16,
        message: String,
    },
    #[error(
        "{host}:{port} does not offer STARTTLS (use security = \"tls\" on the IMAPS port, 993)"
    )]
    NoStarttls { host: String, port: u16 },
    #[error("inbox.imap.password_file {path}: {message}")]
    Password { path: String, message: String },
    #[error("login as \"{user}\" refused: {message} (check inbox.imap.user and the password)")]
    Login { user: String, message: String },
    #[error("folder \"{folder}\": {message} (check inbox.imap.{key})")]
    Folder {
        folder: String,
        key: &'static str,
        message: String,
    },
    #[error(
        "the folder's UIDVALIDITY changed ({was} -> {now}): mail {name} is found again by the next poll, and skipped as already processed"
    )]
    Renumbered { name: String, was: u32, now: u32 },
    #[error("IMAP {what}: {message}")]
    Protocol { what: &'static str, message: String },
}

impl ImapError {
    fn protocol(what: &'static str) -> impl FnOnce(imap::Error) -> ImapError {
        move |e| ImapError::Protocol {
            what,
            message: e.to_string(),
        }
    }
}

impl From<ImapError> for io::Error {
    fn from(e: ImapError) -> io::Error {
        io::Error::other(e)
    }
}

/// The connection: plain TCP, or TLS over it.
pub enum Stream {
    Plain(TcpStream),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
}

impl Stream {
    pub fn tcp(&self) -> &TcpStream {
        match self {
            Stream::Plain(t) => t,
            Stream::Tls(t) => t.get_ref(),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(t) => t.read(buf),
            Stream::Tls(t) => t.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(t) => t.write(buf),
            Stream::Tls(t) => t.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Plain(t) => t.flush(),
            Stream::Tls(t) => t.flush(),
        }
    }
}

impl SetReadTimeout for Stream {
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> imap::Result<()> {
        self.tcp()
            .set_read_timeout(timeout)
            .map_err(imap::Error::Io)
    }
}

type Session = imap::Session<Stream>;

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

    /// Waits up to `max` for the folder to change: IMAP IDLE (RFC 2177)
    /// when the server has it and `idle` is on, else a nap of
    /// `poll_seconds` (at most `max`). Returns early, with
    /// [`Wake::Stopped`], once `stop` is raised.
    ///
    /// # Errors
    /// A lost connection (dropped: the next call reconnects).
    pub fn wait(&mut self, max: Duration, stop: &AtomicBool) -> Result<Wake, ImapError> {
        let idle = self.config.idle && !self.idle_broken;
        let conn = self.conn()?;
        // Mail that came while pbem was busy was announced (EXISTS) in
        // the answers to its commands, and IDLE would not tell it again.
        if let Err(e) = conn.session.noop() {
            self.conn = None;
            return Err(ImapError::protocol("NOOP")(e));
        }
        if conn.session.take_all_unsolicited().any(|r| {
            matches!(
                r,
                UnsolicitedResponse::Exists(_) | UnsolicitedResponse::Recent(_)
            )
        }) {
            return Ok(Wake::Changed);
        }
        if !(idle && conn.caps.idle) {
            let nap = Duration::from_secs(self.config.poll_seconds).min(max);
            return Ok(if nap_unless(stop, nap) {
                Wake::Stopped
            } else if nap < max {
                Wake::Changed
            } else {
                Wake::TimedOut
            });
        }
        // IDLE blocks in a read; a watcher closes the socket when `stop`
        // is raised, which ends the read at once.
        let socket = &conn.socket;
        let over = AtomicBool::new(false);
        let outcome = std::thread::scope(|scope| {
            scope.spawn(|| {
                while !over.load(Ordering::Relaxed) {
                    if stop.load(Ordering::Relaxed) {
                        let _ = socket.shutdown(Shutdown::Both);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
            });
            // The crate asserts a well-formed answer to IDLE; a server
            // that breaks it must not bring pbem down.
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                conn.session
                    .idle()
                    .timeout(max)
                    .keepalive(false)
                    .wait_while(stop_on_any)
            }));
            over.store(true, Ordering::Relaxed);
            r
        });
        let outcome = match outcome {
            Ok(r) => r,
            Err(_) => {
                self.idle_broken = true;
                self.conn = None;
                return Err(ImapError::Protocol {
                    what: "IDLE",
                    message: format!(
                        "the server's answer makes no sense; looking every {} s instead",
                        self.config.poll_seconds
                    ),
                });
            }
        };
        // IDLE leaves the socket without a read timeout.
        let _ = conn.socket.set_read_timeout(Some(IO_TIMEOUT));
        if stop.load(Ordering::Relaxed) {
            self.conn = None;
            return Ok(Wake::Stopped);
        }
        match outcome {
            Ok(o) => Ok(match o {
                WaitOutcome::MailboxChanged => Wake::Changed,
                WaitOutcome::TimedOut => Wake::TimedOut,
            }),
            Err(e) => {
                self.conn = None;
                Err(ImapError::Protocol {
                    what: "IDLE",
                    message: e.to_string(),
                })
            }
        }
    }
}

/// Sleeps `d` in short steps; true when `stop` was raised meanwhile.
pub fn nap_unless(stop: &AtomicBool, d: Duration) -> bool {
    let end = Instant::now() + d;
    while Instant::now() < end {
        if stop.load(Ordering::Relaxed) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50).min(end - Instant::now()));
    }
    stop.load(Ordering::Relaxed)
}

impl Drop for Imap {
    fn drop(&mut self) {
        self.logout();
    }
}

/// `imap:<UIDVALIDITY>:<UID>` back into its numbers.
fn parse_name(name: &str) -> Option<(u32, u32)> {
    let rest = name.strip_prefix("imap:")?;
    let (v, u) = rest.split_once(':')?;
    Some((v.parse().ok()?, u.parse().ok()?))
}

impl Source for Imap {
    fn pending(&mut self) -> io::Result<Vec<Pending>> {
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
                            Pending {
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

    fn done(&mut self, mail: &Pending) -> io::Result<()> {
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
fn uid_set(uids: &[u32]) -> String {
    uids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// SELECTs `folder`; returns its UIDVALIDITY.
fn select(session: &mut Session, folder: &str, key: &'static str) -> Result<u32, ImapError> {
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

/// Connect, TLS as configured, log in, make the processed folder when
/// missing, select the folder.
fn connect(config: &ImapConfig) -> Result<Conn, ImapError> {
    let host = config.host.as_str();
    let port = config.port();
    let failed = |message: String| ImapError::Connect {
        host: host.to_string(),
        port,
        message,
    };
    let addrs = (host, port)
        .to_socket_addrs()
        .map_err(|e| failed(e.to_string()))?;
    let mut last = "the name has no address".to_string();
    let mut tcp = None;
    for addr in addrs {
        match TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT) {
            Ok(t) => {
                tcp = Some(t);
                break;
            }
            Err(e) => last = e.to_string(),
        }
    }
    let mut tcp = tcp.ok_or_else(|| failed(last))?;
    // Until logged in, a short timeout: a server that says nothing is
    // likely an IMAPS port spoken to without TLS.
    tcp.set_read_timeout(Some(CONNECT_TIMEOUT))
        .and_then(|()| tcp.set_write_timeout(Some(IO_TIMEOUT)))
        .map_err(|e| failed(e.to_string()))?;
    let socket = tcp.try_clone().map_err(|e| failed(e.to_string()))?;
    let tls_failed = |message: String| ImapError::Tls {
        host: host.to_string(),
        port,
        message,
    };
    let stream = match config.security {
        Security::Plain => Stream::Plain(tcp),
        Security::Tls => Stream::Tls(Box::new(handshake(config, tcp).map_err(tls_failed)?)),
        Security::Starttls => {
            match starttls(&mut tcp) {
                Ok(true) => {}
                Ok(false) => {
                    return Err(ImapError::NoStarttls {
                        host: host.to_string(),
                        port,
                    });
                }
                Err(e) if is_timeout(&e) => {
                    return Err(failed(format!(
                        "no greeting within {} s (an IMAPS port? then security = \"tls\")",
                        CONNECT_TIMEOUT.as_secs()
                    )));
                }
                Err(e) => return Err(failed(format!("before STARTTLS: {e}"))),
            }
            Stream::Tls(Box::new(handshake(config, tcp).map_err(tls_failed)?))
        }
    };
    let mut client = imap::Client::new(stream);
    if config.security == Security::Starttls {
        // Read by `starttls`, before the handshake.
        client.greeting_read = true;
    } else {
        let greeting = client.read_greeting().map_err(|e| match e {
            imap::Error::Io(e) if is_timeout(&e) => failed(format!(
                "no greeting within {} s (an IMAPS port? then security = \"tls\")",
                CONNECT_TIMEOUT.as_secs()
            )),
            e => failed(format!("no greeting: {e}")),
        })?;
        if !greeting.starts_with(b"* OK") && !greeting.starts_with(b"* PREAUTH") {
            return Err(failed(format!(
                "the server says {:?}",
                String::from_utf8_lossy(&greeting).trim_end()
            )));
        }
    }
    let password = config.password()?;
    let mut session = client
        .login(&config.user, &password)
        .map_err(|(e, _)| ImapError::Login {
            user: config.user.clone(),
            message: e.to_string(),
        })?;
    socket
        .set_read_timeout(Some(IO_TIMEOUT))
        .map_err(|e| failed(e.to_string()))?;
    let caps = session
        .capabilities()
        .map_err(ImapError::protocol("CAPABILITY"))?;
    let caps = Capabilities {
        idle: caps.has_str("IDLE"),
        moves: caps.has_str("MOVE"),
        uidplus: caps.has_str("UIDPLUS"),
    };
    if let Some(to) = &config.processed_folder {
        let exists = session
            .list(None, Some(to))
            .map_err(|e| ImapError::Folder {
                folder: to.clone(),
                key: "processed_folder",
                message: e.to_string(),
            })?
            .iter()
            .next()
            .is_some();
        if !exists && let Err(e) = session.create(to) {
            // Another connection (a second pbem, a reconnect) may have
            // made it between the LIST and the CREATE: that is no error.
            let made_meanwhile = e.to_string().contains("ALREADYEXISTS")
                || session
                    .list(None, Some(to))
                    .is_ok_and(|l| l.iter().next().is_some());
            if !made_meanwhile {
                return Err(ImapError::Folder {
                    folder: to.clone(),
                    key: "processed_folder",
                    message: format!("cannot create it: {e}"),
                });
            }
        }
    }
    let validity = select(&mut session, &config.folder, "folder")?;
    Ok(Conn {
        session,
        socket,
        caps,
        validity,
    })
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// The TLS client settings: the public roots, plus `ca_file`.
fn tls_config(config: &ImapConfig) -> Result<Arc<rustls::ClientConfig>, String> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(ca) = &config.ca_file {
        let shown = ca.display();
        let mut n = 0;
        for cert in CertificateDer::pem_file_iter(ca)
            .map_err(|e| format!("inbox.imap.ca_file {shown}: {e}"))?
        {
            let cert = cert.map_err(|e| format!("inbox.imap.ca_file {shown}: {e}"))?;
            roots
                .add(cert)
                .map_err(|e| format!("inbox.imap.ca_file {shown}: {e}"))?;
            n += 1;
        }
        if n == 0 {
            return Err(format!(
                "inbox.imap.ca_file {shown}: no PEM certificate in it"
            ));
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(Arc::new(
        rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots)
            .with_no_client_auth(),
    ))
}

/// The TLS handshake over `tcp`, done now so that a bad certificate is
/// reported as such.
fn handshake(
    config: &ImapConfig,
    mut tcp: TcpStream,
) -> Result<rustls::StreamOwned<rustls::ClientConnection, TcpStream>, String> {
    let name = ServerName::try_from(
        config
            .host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string(),
    )
    .map_err(|e| format!("host \"{}\": {e}", config.host))?;
    let mut conn =
        rustls::ClientConnection::new(tls_config(config)?, name).map_err(|e| e.to_string())?;
    while conn.is_handshaking() {
        conn.complete_io(&mut tcp).map_err(|e| match e.get_ref() {
            Some(inner) => inner.to_string(),
            None => e.to_string(),
        })?;
    }
    Ok(rustls::StreamOwned::new(conn, tcp))
}

/// Before STARTTLS (RFC 3501 section 6.2.1): reads the greeting, asks for
/// the capabilities and, when STARTTLS is among them, sends it. False when
/// the server does not offer it. Reads byte by byte so that nothing of the
/// TLS stream that follows is taken.
fn starttls(tcp: &mut TcpStream) -> io::Result<bool> {
    let mut reader = io::BufReader::with_capacity(1, &*tcp);
    let greeting = read_line(&mut reader)?;
    if !greeting.starts_with("* OK") {
        return Err(io::Error::other(format!(
            "the server says {:?}",
            greeting.trim_end()
        )));
    }
    (&*tcp).write_all(b"s1 CAPABILITY\r\n")?;
    let mut offered = false;
    loop {
        let line = read_line(&mut reader)?;
        if line.starts_with("* ") && line.to_ascii_uppercase().contains(" STARTTLS") {
            offered = true;
        }
        if let Some(rest) = line.strip_prefix("s1 ") {
            if !rest.starts_with("OK") {
                return Err(io::Error::other(format!("CAPABILITY: {}", rest.trim_end())));
            }
            break;
        }
    }
    if !offered {
        return Ok(false);
    }
    (&*tcp).write_all(b"s2 STARTTLS\r\n")?;
    loop {
        let line = read_line(&mut reader)?;
        if let Some(rest) = line.strip_prefix("s2 ") {
            return if rest.starts_with("OK") {
                Ok(true)
            } else {
                Err(io::Error::other(format!("STARTTLS: {}", rest.trim_end())))
            };
        }
    }
}

/// One line of at most 8 KiB.
fn read_line(reader: &mut impl BufRead) -> io::Result<String> {
    let mut buf = Vec::new();
    let n = reader.take(8192).read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the server closed the connection",
        ));
    }
    if !buf.ends_with(b"\n") {
        return Err(io::Error::other("a line longer than 8 KiB"));
    }
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> ImapConfig {
        toml::from_str(
            r#"host = "127.0.0.1"
               user = "pbem"
               password_file = "pw""#,
        )
        .unwrap()
    }

    #[test]
    fn names_round_trip() {
        assert_eq!(parse_name("imap:17:4021"), Some((17, 4021)));
        assert_eq!(parse_name("new/17:4021"), None);
        assert_eq!(parse_name("imap:x:1"), None);
    }

    #[test]
    fn defaults_and_validation() {
        let c = config();
        assert_eq!(
            (c.security, c.port(), c.folder.as_str()),
            (Security::Starttls, 143, "INBOX")
        );
        assert!(c.validate("inbox.imap").is_ok());
        let mut plain = c.clone();
        plain.security = Security::Plain;
        assert!(plain.validate("inbox.imap").is_ok(), "plain on loopback");
        plain.host = "imap.example.org".into();
        let e = plain.validate("inbox.imap").unwrap_err();
        assert!(
            e.contains("inbox.imap.security") && e.contains("starttls"),
            "{e}"
        );
        let mut none = c.clone();
        none.password_file = None;
        let e = none.validate("inbox.imap").unwrap_err();
        assert!(e.contains("password_file"), "{e}");
        let mut same = c.clone();
        same.processed_folder = Some("INBOX".into());
        assert!(
            same.validate("inbox.imap")
                .unwrap_err()
                .contains("processed_folder")
        );
        let mut tls = c;
        tls.security = Security::Tls;
        assert_eq!(tls.port(), 993);
    }

    #[test]
    fn the_password_is_never_printed() {
        let mut c = config();
        c.password = Some(Secret("hunter2".into()));
        assert!(!format!("{c:?}").contains("hunter2"));
        assert!(!c.describe().contains("hunter2"));
    }

    #[test]
    fn loopback_hosts() {
        for h in ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"] {
            assert!(is_loopback(h), "{h}");
        }
        for h in ["example.org", "10.0.0.1", "localhost.example.org"] {
            assert!(!is_loopback(h), "{h}");
        }
    }

    #[test]
    fn a_closed_port_is_a_connect_error_naming_the_settings() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut c = config();
        c.port = Some(port);
        c.password = Some(Secret("x".into()));
        c.password_file = None;
        let e = Imap::new(c).select().unwrap_err().to_string();
        assert!(
            e.contains("cannot connect") && e.contains("inbox.imap.port"),
            "{e}"
        );
    }
}
