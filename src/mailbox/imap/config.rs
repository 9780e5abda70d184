//! `[inbox] imap = { ... }` in pbem.toml: the server, the login, the
//! folders, how to wait; and the errors of the IMAP source.

use super::*;

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

pub(super) fn default_folder() -> String {
    "INBOX".into()
}
pub(super) fn yes() -> bool {
    true
}
pub(super) fn default_poll_seconds() -> u64 {
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

/// An `[inbox] imap` setting that cannot be used: each names the key
/// (`key`, where the settings are: `inbox.imap`) and what to write instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImapSettingError {
    #[error("{key}.host is empty: write the IMAP server's name")]
    EmptyHost { key: String },
    #[error(
        "{key}.security = \"plain\" sends the password in clear: only for a server \
         on this machine (host = \"{host}\"); use \"starttls\" or \"tls\""
    )]
    PlainRemote { key: String, host: String },
    #[error("{key}: set `password_file` or `password`, not both")]
    BothPasswords { key: String },
    #[error("{key} needs `password_file = \"FILE\"` (or `password`) for user \"{user}\"")]
    NoPassword { key: String, user: String },
    #[error("{key}.user is empty")]
    EmptyUser { key: String },
    #[error(
        "{key}.{name} = {folder:?}: a folder name must be non-empty, without quotes, \
         backslashes or control characters"
    )]
    Folder {
        key: String,
        name: &'static str,
        folder: String,
    },
    #[error(
        "{key}.processed_folder is the folder pbem reads (\"{folder}\"): choose another, \
         or leave it out to only mark mail as seen"
    )]
    ProcessedIsRead { key: String, folder: String },
    #[error("{key}.poll_seconds must be at least 1")]
    NoPoll { key: String },
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
    /// An [`ImapSettingError`] naming the key and saying what to write instead.
    pub fn validate(&self, key: &str) -> Result<(), ImapSettingError> {
        let key = key.to_string();
        if self.host.trim().is_empty() {
            return Err(ImapSettingError::EmptyHost { key });
        }
        if self.security == Security::Plain && !is_loopback(&self.host) {
            let host = self.host.clone();
            return Err(ImapSettingError::PlainRemote { key, host });
        }
        match (&self.password, &self.password_file) {
            (Some(_), Some(_)) => return Err(ImapSettingError::BothPasswords { key }),
            (None, None) => {
                let user = self.user.clone();
                return Err(ImapSettingError::NoPassword { key, user });
            }
            _ => {}
        }
        if self.user.is_empty() {
            return Err(ImapSettingError::EmptyUser { key });
        }
        for (name, folder) in [
            ("folder", Some(&self.folder)),
            ("processed_folder", self.processed_folder.as_ref()),
        ] {
            if let Some(f) = folder
                && (f.is_empty() || f.chars().any(|c| c.is_control() || c == '"' || c == '\\'))
            {
                let folder = f.clone();
                return Err(ImapSettingError::Folder { key, name, folder });
            }
        }
        if self.processed_folder.as_deref() == Some(self.folder.as_str()) {
            let folder = self.folder.clone();
            return Err(ImapSettingError::ProcessedIsRead { key, folder });
        }
        if self.poll_seconds == 0 {
            return Err(ImapSettingError::NoPoll { key });
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

    pub(super) fn password(&self) -> Result<String, ImapError> {
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
    pub(super) fn protocol(what: &'static str) -> impl FnOnce(imap::Error) -> ImapError {
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
