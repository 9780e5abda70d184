//! Settings: one TOML file (`pbem.toml`; `pbem init` writes a commented
//! one). Relative paths are taken from the file's folder.

use crate::mailbox::imap::ImapConfig;
use crate::transport::SendConfig;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

mod init;
pub use init::{InitError, InitSend, init_text};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// pbem's own address; players reply to `local+<game>.<key>@domain`.
    pub address: String,
    /// The display name on pbem's mail.
    #[serde(default = "default_name")]
    pub name: String,
    /// The admin's address ("Name <address>" or a bare address): told when
    /// pbem finds a game record it cannot use ("A corrupt
    /// record"). Without it only the players are told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin: Option<String>,
    /// The data folder: records, secrets, outbox.
    pub data: PathBuf,
    /// A folder of templates overriding the built-in ones.
    #[serde(default)]
    pub templates: Option<PathBuf>,
    /// Trust `Authentication-Results: <this>; dmarc=pass
    /// header.from=<the From's domain>` from your own MTA instead of the
    /// key in the reply address (read by RFC 8601).
    #[serde(default)]
    pub trusted_authserv: Option<String>,
    /// The takebacks each player may ask for in one game (`takeback`, by
    /// agreement); 0 turns them off.
    #[serde(default = "default_takebacks")]
    pub takebacks_per_game: u32,
    /// The time zone times are shown in to readers who set none of their
    /// own (the admin, and players without `timezone`): an IANA name
    /// (`Europe/Berlin`). Default: the system's (`TZ`, `/etc/localtime`),
    /// else UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timezone: Option<String>,
    /// Game clocks: reminder points, final notice, vacation allowance.
    #[serde(default)]
    pub clock: crate::timecontrol::ClockPolicy,
    /// Reply limits against storms and loops.
    #[serde(default)]
    pub limits: crate::poll::Limits,
    pub inbox: Inbox,
    pub send: SendConfig,
    /// How long the bot may think (`[bot]`).
    #[serde(default)]
    pub bot: crate::bot::BotPolicy,
    /// The web archive the daemon keeps current (`[site]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<SiteConfig>,
    /// The git history of the records (`[git]`;
    /// docs/src/admin/git.md): off without the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git: Option<crate::history::GitConfig>,
}

/// `[site]`: where the daemon keeps the web archive (`pbem site`)
/// current, rewriting the pages of changed games after each batch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    pub dir: PathBuf,
    /// Show the players' addresses (default: their names only).
    #[serde(default)]
    pub addresses: bool,
}

/// Where pbem reads its mail (`[inbox]`): one of a Maildir or an IMAP
/// folder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inbox {
    /// The Maildir pbem reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maildir: Option<PathBuf>,
    /// The IMAP folder pbem reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imap: Option<ImapConfig>,
}

/// The one mailbox an [`Inbox`] names.
#[derive(Clone, Copy, Debug)]
pub enum InboxKind<'a> {
    Maildir(&'a Path),
    Imap(&'a ImapConfig),
}

impl Inbox {
    /// A Maildir inbox.
    pub fn maildir(path: impl Into<PathBuf>) -> Inbox {
        Inbox {
            maildir: Some(path.into()),
            imap: None,
        }
    }

    /// An IMAP inbox.
    pub fn imap(config: ImapConfig) -> Inbox {
        Inbox {
            maildir: None,
            imap: Some(config),
        }
    }

    /// Which mailbox it is.
    ///
    /// # Errors
    /// Neither or both set, or bad IMAP settings: a message naming the key.
    pub fn kind(&self) -> Result<InboxKind<'_>, SettingError> {
        match (&self.maildir, &self.imap) {
            (Some(m), None) => Ok(InboxKind::Maildir(m)),
            (None, Some(i)) => {
                i.validate("inbox.imap")?;
                Ok(InboxKind::Imap(i))
            }
            (Some(_), Some(_)) => Err(SettingError::BothInboxes),
            (None, None) => Err(SettingError::NoInbox),
        }
    }
}

fn default_name() -> String {
    "pbem".into()
}

fn default_takebacks() -> u32 {
    crate::reply::DEFAULT_TAKEBACKS
}

/// A config file that cannot be used: the file, what is wrong, and the
/// one hint that fits (said by the error alone, so no caller adds a
/// second one).
#[derive(Debug, thiserror::Error)]
#[error("{path}: {problem} ({})", .fault.hint())]
pub struct ConfigError {
    pub path: String,
    pub problem: SettingError,
    pub fault: ConfigFault,
}

/// What is wrong with the settings, without the file (which
/// [`ConfigError`] adds): each variant names the key and quotes the value.
#[derive(Debug, thiserror::Error)]
pub enum SettingError {
    /// The file cannot be read.
    #[error("{0}")]
    Io(#[source] std::io::Error),
    /// Not TOML, or not pbem's settings: the reader's message (with the
    /// send transport's hint).
    #[error("line {line}: {message}")]
    Toml { line: usize, message: String },
    #[error("{0}")]
    Unplaced(String),
    #[error("address = \"{0}\" is not a mail address")]
    Address(String),
    #[error("admin = \"{0}\" is not a mail address (write \"Name <address>\" or a bare address)")]
    Admin(String),
    #[error("timezone = \"{zone}\": {error}")]
    Zone {
        zone: String,
        error: crate::timecontrol::ZoneError,
    },
    #[error("[inbox] sets both `maildir` and `imap`: pbem reads one mailbox; keep one")]
    BothInboxes,
    #[error(
        "[inbox] needs `maildir = \"FOLDER\"` or \
         `imap = {{ host = ..., user = ..., password_file = ... }}`"
    )]
    NoInbox,
    #[error(transparent)]
    Imap(#[from] crate::mailbox::imap::ImapSettingError),
    #[error(transparent)]
    Git(#[from] crate::history::GitSettingError),
    #[error(transparent)]
    Override(#[from] OverrideError),
}

/// A `--set KEY=VALUE` that does not fit the settings; each quotes it.
#[derive(Debug, thiserror::Error)]
pub enum OverrideError {
    #[error("--set {0}: write KEY=VALUE, like --set send.port=2587")]
    Form(String),
    #[error("--set {0}: the key is empty; write KEY=VALUE, like --set send.port=2587")]
    EmptyKey(String),
    #[error("--set {set}: `{section}` is not a section")]
    NotASection { set: String, section: String },
    /// The settings read well without this one.
    #[error("--set {set}: {message}")]
    Rejected { set: String, message: String },
    /// No one override is to blame (each may need the others).
    #[error("after --set: {0}")]
    Together(String),
    /// The settings read cannot be written back as a table to set in.
    #[error("{0}")]
    Encode(String),
}

/// What is wrong with the settings, which decides what to do about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigFault {
    /// There is no such file.
    Missing,
    /// The file is there but cannot be read.
    Unreadable,
    /// The file reads, but a setting in it is wrong.
    Content,
    /// A `--set` override is wrong.
    Override,
}

impl ConfigFault {
    /// What the admin can do about it.
    pub fn hint(self) -> &'static str {
        match self {
            ConfigFault::Missing => "write one with `pbem init`",
            ConfigFault::Unreadable => "check that the user pbem runs as may read it",
            ConfigFault::Content => "fix it, or write a new one with `pbem init`",
            ConfigFault::Override => "mend the --set, or leave it out",
        }
    }
}

impl Config {
    /// pbem as the adjudicator knows itself: its address, name, the admin
    /// and the policies of clocks and the bot.
    pub fn identity(&self) -> crate::reply::Identity {
        crate::reply::Identity {
            address: self.address.to_lowercase(),
            name: self.name.clone(),
            trusted_authserv: self.trusted_authserv.clone(),
            admin: self.admin.clone(),
            clocks: self.clock.clone(),
            bot: self.bot,
            takebacks: self.takebacks_per_game,
        }
    }

    /// The zone of the `timezone` setting, if it has one.
    ///
    /// # Errors
    /// A setting that names no zone: a message naming the key.
    pub fn zone(&self) -> Result<Option<chrono_tz::Tz>, SettingError> {
        let Some(zone) = &self.timezone else {
            return Ok(None);
        };
        crate::timecontrol::parse_zone(zone)
            .map(Some)
            .map_err(|error| SettingError::Zone {
                zone: zone.clone(),
                error,
            })
    }

    /// Reads `path`, resolving relative paths against its folder.
    ///
    /// # Errors
    /// [`ConfigError`] naming the file: unreadable, bad TOML (with the
    /// line), unknown keys, a bad address.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        Config::load_with(path, &[])
    }

    /// Reads `path`, then applies `overrides` (`send.port=2587`: a dotted
    /// key and a TOML value, or else a bare string), as the command line's
    /// `--set` does.
    ///
    /// # Errors
    /// As [`Config::load`]; an override that does not fit names itself.
    pub fn load_with(path: &Path, overrides: &[String]) -> Result<Config, ConfigError> {
        let fail = |fault: ConfigFault| {
            move |problem: SettingError| ConfigError {
                path: path.display().to_string(),
                problem,
                fault,
            }
        };
        let err = fail(ConfigFault::Content);
        let text = std::fs::read_to_string(path).map_err(|e| {
            fail(if e.kind() == std::io::ErrorKind::NotFound {
                ConfigFault::Missing
            } else {
                ConfigFault::Unreadable
            })(SettingError::Io(e))
        })?;
        let mut c: Config = toml::from_str(&text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            let message = with_send_hint(e.message(), toml::from_str(&text).ok().as_ref());
            err(match line {
                Some(line) => SettingError::Toml { line, message },
                None => SettingError::Unplaced(message),
            })
        })?;
        if !overrides.is_empty() {
            c = apply_overrides(&c, overrides)
                .map_err(|e| fail(ConfigFault::Override)(e.into()))?;
        }
        if c.address.parse::<lettre::Address>().is_err() {
            return Err(err(SettingError::Address(c.address.clone())));
        }
        if let Some(a) = &c.admin
            && a.parse::<lettre::message::Mailbox>().is_err()
        {
            return Err(err(SettingError::Admin(a.clone())));
        }
        c.zone().map_err(err)?;
        let base = path.parent().unwrap_or(Path::new("."));
        let fix = |p: &mut PathBuf| {
            if p.is_relative() {
                *p = base.join(&*p);
            }
        };
        fix(&mut c.data);
        if let Some(m) = &mut c.inbox.maildir {
            fix(m);
        }
        if let Some(i) = &mut c.inbox.imap {
            i.resolve(base);
        }
        c.inbox.kind().map_err(err)?;
        if let Some(t) = &mut c.templates {
            fix(t);
        }
        match &mut c.send {
            SendConfig::Maildir { folder } => fix(folder),
            SendConfig::Smtp {
                password_file,
                ca_file,
                ..
            } => {
                if let Some(p) = password_file {
                    fix(p);
                }
                if let Some(p) = ca_file {
                    fix(p);
                }
            }
            SendConfig::Sendmail { .. } => {}
        }
        if let Some(g) = &mut c.git {
            g.resolve(base).map_err(|e| err(e.into()))?;
        }
        Ok(c)
    }
}

/// `c` with each `key.path=value` of `overrides` set. A key that is no
/// setting (`--set bogus.key=1`) is an error naming the override, as the
/// key would be in the file (item 13: `pbem check` ignored
/// `--set`, so a typo there went unnoticed).
fn apply_overrides(c: &Config, overrides: &[String]) -> Result<Config, OverrideError> {
    let table = toml::Table::try_from(c).map_err(|e| OverrideError::Encode(e.to_string()))?;
    let with = |skip: Option<usize>| -> Result<toml::Table, OverrideError> {
        let mut table = table.clone();
        for (i, o) in overrides.iter().enumerate() {
            if Some(i) != skip {
                set(&mut table, o)?;
            }
        }
        Ok(table)
    };
    let read =
        |t: toml::Table| -> Result<Config, toml::de::Error> { toml::Value::Table(t).try_into() };
    let all = with(None)?;
    read(all.clone()).map_err(|e| {
        let message = with_send_hint(e.message(), Some(&all));
        // The override without which the settings read well is the one
        // to name (each may need the others: a new transport's keys).
        match (0..overrides.len()).find(|&i| with(Some(i)).is_ok_and(|t| read(t).is_ok())) {
            Some(i) => OverrideError::Rejected {
                set: overrides[i].clone(),
                message,
            },
            None => OverrideError::Together(message),
        }
    })
}

/// The reader's `message` about the settings `table`, and, when its
/// `[send]` holds keys of another transport than the one it names, whose
/// keys they are and what the chosen transport needs: serde alone says
/// only "unknown field".
fn with_send_hint(message: &str, table: Option<&toml::Table>) -> String {
    let stray = table
        .and_then(|t| t.get("send"))
        .and_then(toml::Value::as_table)
        .and_then(crate::transport::config::stray_keys);
    match stray {
        // Serde's "unknown field `folder`, expected one of ..." lists the
        // keys of the wrong transport's reader; this says it all.
        Some(s) => s,
        None => message.to_string(),
    }
}

/// Sets one `key.path=value` override `o` in `table`.
fn set(table: &mut toml::Table, o: &str) -> Result<(), OverrideError> {
    let Some((key, value)) = o.split_once('=') else {
        return Err(OverrideError::Form(o.to_string()));
    };
    let key = key.trim();
    // A TOML value (2587, true, "x y", [..]), or else the text itself.
    let value = toml::from_str::<toml::Table>(&format!("v = {value}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.to_string()));
    let mut parts: Vec<&str> = key.split('.').collect();
    let last = parts
        .pop()
        .filter(|l| !l.is_empty())
        .ok_or_else(|| OverrideError::EmptyKey(o.to_string()))?;
    let mut at = table;
    for p in parts {
        at = match at
            .entry(p.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()))
        {
            toml::Value::Table(t) => t,
            _ => {
                return Err(OverrideError::NotASection {
                    set: o.to_string(),
                    section: p.to_string(),
                });
            }
        };
    }
    at.insert(last.to_string(), value);
    Ok(())
}

/// The commented file `pbem init` writes: the embedded default, a local
/// Maildir in and Maildirs out, so nothing needs a mail server.
pub const INIT: &str = r#"# pbem settings. Relative paths are taken from this file's folder.

# pbem's own address. Players reply to pbem+<game>.<key>@<domain>, so the
# mail server must deliver plus-addresses to pbem's mailbox.
address = "pbem@localhost"
name = "pbem"

# The admin: told (once per fault) when a game record cannot be read or
# replayed, with the file, the line and how to mend it. Without it only
# the game's players are told.
# admin = "Your Name <you@example.org>"

# Records (games/), players' keys (secrets/), the outbox.
data = "data"

# The time zone pbem shows times in (deadlines, sign-up ends) to the admin
# and to players who set none with `timezone`. Default: the system's.
# timezone = "Europe/Berlin"

# A folder whose files replace the built-in templates of the same name
# (see the templates/ folder of the source for the names).
# templates = "templates"

# Trust "Authentication-Results: <this id>; dmarc=pass header.from=<the
# From's domain>" added by your own mail server, instead of requiring the
# key in the reply address. pbem reads only the topmost such header; your
# server must add it on top of every incoming mail (and should remove
# copies sent from outside). A mail with two From headers is dropped.
# trusted_authserv = "mx.example.org"

# Takebacks by agreement: a player may ask to take back their last move
# (`takeback`) until the opponent moves, and the opponent accepts or
# declines; at most this many requests per player and game. 0 turns them
# off. A tournament's games have them only if it allows them
# (`pbem tournament new --takebacks`).
takebacks_per_game = 3

# Game clocks, for games challenged with a time control ("challenge mad
# bob@example.org 3d+1d/10d"): reminders at these points of a turn's time,
# a final notice this many hours before the deadline, and the vacation
# days each player has per year.
[clock]
reminders = ["50%", "80%"]
final_notice_hours = 12
vacation_days_per_year = 30

# Storms and loops: pbem answers one address's own mails (refusals,
# `board`, `help`: anything but the news of a game) at most this often.
# Past a limit it still reads and carries out every mail from that address
# (a legal move is played and the opponent told), sends it one notice that
# replies are paused and until when, and answers nothing more from it
# until then: an autoresponder that answers every mail cannot loop with
# pbem. The same limits hold for mail others' mails cause to an address
# (challenges, warnings about its key). 0 turns a limit off.
[limits]
replies_per_hour = 20
replies_per_day = 50
# A player's mails in their own game, carrying their key and holding a
# command (a move, `board`, `moves`...), are counted apart and may be
# answered more often: a newcomer trying things still hears why each of
# their moves was refused. A mail with no command counts as any other.
keyed_per_hour = 60
keyed_per_day = 200
# After this many mails in a row from one address that hold no command
# pbem knows, it tells the address once and answers no more such mails
# from it until one it can act on comes: a loop ends whatever its pace.
# (A refused command, such as an illegal move, is always answered.)
fruitless_in_a_row = 5
# What a stranger can make pbem send to others: the challenges one mail
# may make (the rest are refused), and the challenges from one address
# that may wait for an answer at once (a challenge older than 30 days no
# longer counts; the challenger withdraws one by replying `decline`).
challenges_per_mail = 2
open_challenges = 3

[inbox]
# The Maildir pbem reads (new/ and unseen mail in cur/).
maildir = "mail/inbox"

# Or an IMAP folder: drop `maildir` above and fill in this table. pbem
# reads the folder's unseen mail and, once a mail is answered, flags it
# \Seen (or moves it to processed_folder). Give pbem a mailbox of its own.
# [inbox.imap]
# host = "imap.example.org"
# port = 143                      # default: 993 with security = "tls", else 143
# security = "starttls"           # or "tls" (IMAPS), or "plain" (this machine only)
# user = "pbem@example.org"
# password_file = "imap-password" # or password = "..."
# folder = "INBOX"
# processed_folder = "pbem-done"  # optional; created when missing
# ca_file = "ca.pem"              # optional: a private CA to trust
# idle = true                     # pbem daemon waits with IMAP IDLE, or
# poll_seconds = 60               # looks this often without it

[send]
# Where replies go. "maildir": one Maildir per recipient under `folder`.
transport = "maildir"
folder = "mail/sent"

# Over SMTP instead:
# transport = "smtp"
# host = "smtp.example.org"
# port = 587
# security = "starttls"      # or "tls" (port 465), or "none" (loopback only)
# user = "pbem@example.org"
# password_file = "smtp-password"

# Or through sendmail:
# transport = "sendmail"
# command = "/usr/sbin/sendmail"

# The history of every game record in git: the data folder's games/ is a
# git repository, and each batch of changes one commit by pbem, listing
# each game's new lines ("bz-7k2q: 12. red 22-15"). Needs `git`.
# Only the records go in, never the players' keys.
# [git]
# remote = "/srv/pbem-history.git"  # optional: pushed after each commit
# branch = "main"
# author_name = "pbem"              # default: name above
# author_email = "pbem@example.org" # default: address above

# The web archive (`pbem site`), kept current after each poll that changed
# something: only the changed games' pages and the lists are rewritten.
# [site]
# dir = "/var/www/pbem"
# addresses = false  # true: show the players' addresses, not only names

# pbem's bot (`challenge GAME bot [level 1|2|3]`): how long it thinks. The
# poll plays its moves after the players' mail, then analyses finished
# games, at most poll_ms in all.
# [bot]
# think_ms = 2000  # a move at level 3 (level 1: a ninth, level 2: a third)
# poll_ms = 20000
# analysis_nodes = 20000  # positions per move of a game's analysis; 0: none
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_init_file_loads() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("pbem.toml");
        std::fs::write(&p, INIT).unwrap();
        let c = Config::load(&p).unwrap();
        assert_eq!(c.data, dir.path().join("data"));
        // The file shows the defaults (tests/server/storms.rs relies on it).
        assert_eq!(c.limits, crate::poll::Limits::default());
        assert_eq!(
            c.send,
            SendConfig::Maildir {
                folder: dir.path().join("mail/sent")
            }
        );
    }

    #[test]
    fn the_timezone_setting_names_a_zone_or_the_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("pbem.toml");
        let with = |zone: &str| INIT.replace("# timezone = \"Europe/Berlin\"", zone);
        std::fs::write(&p, with("timezone = \"europe/berlin\"")).unwrap();
        let c = Config::load(&p).unwrap();
        assert_eq!(c.zone().ok(), Some(Some(chrono_tz::Tz::Europe__Berlin)));
        std::fs::write(&p, with("timezone = \"Berlin\"")).unwrap();
        let e = Config::load(&p).unwrap_err().to_string();
        assert!(
            e.contains("timezone = \"Berlin\": unknown time zone") && e.contains("Europe/Berlin"),
            "{e}"
        );
        std::fs::write(&p, INIT).unwrap();
        assert_eq!(Config::load(&p).unwrap().zone().ok(), Some(None));
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("pbem.toml");
        std::fs::write(&p, INIT.replace("name = \"pbem\"", "nmae = \"pbem\"")).unwrap();
        let e = Config::load(&p).unwrap_err().to_string();
        assert!(e.contains("pbem.toml: line 6") && e.contains("nmae"), "{e}");
        let e = Config::load(&dir.path().join("none.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("pbem init"), "{e}");
    }

    #[test]
    fn flags_override_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("pbem.toml");
        std::fs::write(&p, INIT).unwrap();
        let set = |o: &[&str]| {
            let o: Vec<String> = o.iter().map(|s| s.to_string()).collect();
            Config::load_with(&p, &o)
        };
        let c = set(&["address=judge@example.org", "name=The Judge", "data=/srv/x"]).unwrap();
        assert_eq!(c.address, "judge@example.org");
        assert_eq!(c.name, "The Judge");
        assert_eq!(c.data, PathBuf::from("/srv/x"));
        // A relative path is taken from the file's folder, as in the file.
        assert_eq!(set(&[]).unwrap().admin, None);
        let c = set(&["admin=Ann Admin <ann@example.org>"]).unwrap();
        assert_eq!(c.admin.as_deref(), Some("Ann Admin <ann@example.org>"));
        let c = set(&["inbox.maildir=box"]).unwrap();
        assert_eq!(c.inbox.maildir, Some(dir.path().join("box")));
        let c = set(&[
            "send={transport=\"smtp\", host=\"localhost\"}",
            "send.port=2587",
        ])
        .unwrap();
        assert!(
            matches!(&c.send, SendConfig::Smtp { host, port: 2587, .. } if host == "localhost"),
            "{:?}",
            c.send
        );
        // Each override may need the others; the one that does not fit is
        // named.
        let e = set(&[
            "send={transport=\"smtp\", host=\"localhost\"}",
            "send.port=\"many\"",
        ])
        .unwrap_err()
        .to_string();
        assert!(e.contains("--set send.port=\"many\": invalid type"), "{e}");
        let e = set(&["send.transport=smtp", "send.smtp.port=1"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("after --set: "), "{e}");
        for (bad, says) in [
            ("sendport", "write KEY=VALUE"),
            ("=x", "the key is empty"),
            // The file's transport is "maildir", which has no port: the
            // error says whose key it is.
            (
                "send.port=2587",
                "--set send.port=2587: `port` is a key of the smtp transport, not of maildir; maildir needs `folder`",
            ),
            (
                "adress=x@y.org",
                "--set adress=x@y.org: unknown field `adress`",
            ),
            ("bogus.key=1", "--set bogus.key=1: unknown field `bogus`"),
            ("send.bogus=1", "--set send.bogus=1: unknown field `bogus`"),
            ("inbox.imap.bogus=1", "--set inbox.imap.bogus=1:"),
            ("address=nobody", "not a mail address"),
            ("name.first=x", "`name` is not a section"),
            (
                "admin=the boss",
                "admin = \"the boss\" is not a mail address",
            ),
        ] {
            let e = set(&[bad]).unwrap_err().to_string();
            assert!(e.contains(says), "--set {bad}: {e}");
        }
    }
}
