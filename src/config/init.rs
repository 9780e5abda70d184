//! The file `pbem init` writes, in its variants: [`INIT`] as it is
//! (paths taken from the file's folder), or with absolute paths under a
//! folder of its own (`--data-root /var/lib/pbem`, as the Debian package
//! installs it), and the replies sent to the mail server on this machine
//! (`--send localhost`) instead of into local Maildirs. Made from
//! [`INIT`] line by line, so the variants keep its comments and cannot
//! drift from it.

use super::INIT;
use std::fmt;
use std::path::{Path, PathBuf};

/// Where the replies go in the file `pbem init` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitSend {
    /// One Maildir per recipient under `mail/sent`: no mail server.
    Maildir,
    /// SMTP to the mail server on this machine: 127.0.0.1, port 25, no
    /// TLS, no password (what Postfix and Exim take from loopback).
    Localhost,
}

/// A `--data-root` pbem cannot write into the file.
#[derive(Debug, PartialEq, Eq)]
pub enum InitError {
    /// Relative: it would be taken from the file's folder, not from where
    /// pbem ran.
    NotAbsolute(PathBuf),
    /// Not UTF-8: a TOML string cannot hold it.
    NotUnicode(PathBuf),
}

impl fmt::Display for InitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InitError::NotAbsolute(p) => write!(
                f,
                "--data-root {}: not an absolute path; give the folder from /, like \
                 --data-root /var/lib/pbem",
                p.display()
            ),
            InitError::NotUnicode(p) => write!(
                f,
                "--data-root {}: not UTF-8, which pbem.toml cannot hold; choose a folder \
                 whose name is plain text",
                p.display()
            ),
        }
    }
}

impl std::error::Error for InitError {}

/// The lines of [`INIT`] that name a folder relative to the file, and the
/// folder under a data root each becomes.
const FOLDERS: &[(&str, &str, &str)] = &[
    ("data = \"data\"", "data = ", "data"),
    ("maildir = \"mail/inbox\"", "maildir = ", "mail/inbox"),
    ("folder = \"mail/sent\"", "folder = ", "mail/sent"),
];

/// The head of [`INIT`]'s `[send]` table: the Maildir transport, set.
const MAILDIR_SEND: &str =
    "# Where replies go. \"maildir\": one Maildir per recipient under `folder`.
transport = \"maildir\"
folder = ";

/// What follows it: the other transports, commented out.
const OTHER_SMTP: &str = "# Over SMTP instead:\n";

/// The text of the settings file: [`INIT`] with its folders under
/// `data_root` (absolute paths; `None`: as they are, relative to the
/// file) and its replies going where `send` says.
pub fn init_text(data_root: Option<&Path>, send: InitSend) -> Result<String, InitError> {
    if let Some(root) = data_root.filter(|r| !r.is_absolute()) {
        return Err(InitError::NotAbsolute(root.to_path_buf()));
    }
    // A folder's value in the file: a TOML string, quoted and escaped.
    let value = |folder: &str| -> Result<String, InitError> {
        let path = match data_root {
            None => folder.to_string(),
            Some(root) => root
                .join(folder)
                .to_str()
                .ok_or_else(|| InitError::NotUnicode(root.to_path_buf()))?
                .to_string(),
        };
        Ok(toml::Value::String(path).to_string())
    };
    let mut text = INIT.to_string();
    if data_root.is_some() {
        for (line, key, folder) in FOLDERS {
            swap(&mut text, line, &format!("{key}{}", value(folder)?));
        }
    }
    if send == InitSend::Localhost {
        let sent = value("mail/sent")?;
        let localhost = format!(
            "# Where replies go: over SMTP to the mail server on this machine (Postfix,\n\
             # Exim), which sends them on; from loopback it takes them without TLS or\n\
             # a password.\n\
             transport = \"smtp\"\n\
             host = \"127.0.0.1\"\n\
             port = 25\n\
             security = \"none\"\n\
             \n\
             # Or one Maildir per recipient under `folder`, with no mail server:\n\
             # transport = \"maildir\"\n\
             # folder = {sent}\n"
        );
        swap(&mut text, &format!("{MAILDIR_SEND}{sent}\n"), &localhost);
        swap(&mut text, OTHER_SMTP, "# Or over SMTP to another server:\n");
    }
    Ok(text)
}

/// Replaces the one `from` in `text` (the tests check that each is there).
fn swap(text: &mut String, from: &str, to: &str) {
    debug_assert!(text.contains(from), "INIT has no {from:?}");
    *text = text.replacen(from, to, 1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::transport::SendConfig;

    fn load(text: &str) -> (tempfile::TempDir, Config) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("pbem.toml");
        std::fs::write(&p, text).unwrap();
        let c = Config::load(&p).unwrap();
        (dir, c)
    }

    #[test]
    fn without_options_the_file_is_init() {
        assert_eq!(init_text(None, InitSend::Maildir).unwrap(), INIT);
    }

    #[test]
    fn a_data_root_makes_every_folder_absolute_under_it() {
        let root = Path::new("/var/lib/pbem");
        let text = init_text(Some(root), InitSend::Maildir).unwrap();
        let (_dir, c) = load(&text);
        assert_eq!(c.data, root.join("data"));
        assert_eq!(c.inbox.maildir, Some(root.join("mail/inbox")));
        assert_eq!(
            c.send,
            SendConfig::Maildir {
                folder: root.join("mail/sent")
            }
        );
        // Only those lines changed; the comments are INIT's.
        let changed: Vec<_> = INIT
            .lines()
            .zip(text.lines())
            .filter(|(a, b)| a != b)
            .collect();
        assert_eq!(changed.len(), FOLDERS.len(), "{changed:?}");
        assert_eq!(INIT.lines().count(), text.lines().count());
        // A trailing slash, a quote: still the folder, still TOML.
        let odd = Path::new("/srv/my \"pbem\"/");
        let (_dir, c) = load(&init_text(Some(odd), InitSend::Maildir).unwrap());
        assert_eq!(c.data, odd.join("data"));
    }

    #[test]
    fn localhost_sends_over_smtp_to_this_machine() {
        let root = Path::new("/var/lib/pbem");
        let text = init_text(Some(root), InitSend::Localhost).unwrap();
        let (_dir, c) = load(&text);
        match &c.send {
            SendConfig::Smtp {
                host,
                port,
                security,
                user,
                password_file,
                ..
            } => {
                assert_eq!((host.as_str(), *port), ("127.0.0.1", 25));
                assert_eq!(security, "none");
                assert_eq!((user, password_file), (&None, &None));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(c.data, root.join("data"));
        assert!(
            text.contains("# folder = \"/var/lib/pbem/mail/sent\"\n"),
            "{text}"
        );
        assert!(text.contains("# Or over SMTP to another server:\n# transport = \"smtp\""));
        // Relative, as INIT, without a data root.
        let text = init_text(None, InitSend::Localhost).unwrap();
        let (dir, c) = load(&text);
        assert_eq!(c.data, dir.path().join("data"));
        assert!(text.contains("# folder = \"mail/sent\"\n"), "{text}");
    }

    #[test]
    fn a_relative_or_unreadable_data_root_is_refused_with_a_hint() {
        let e = init_text(Some(Path::new("var/lib/pbem")), InitSend::Maildir).unwrap_err();
        assert_eq!(e, InitError::NotAbsolute("var/lib/pbem".into()));
        assert!(
            e.to_string()
                .contains("--data-root var/lib/pbem: not an absolute path")
                && e.to_string().contains("like --data-root /var/lib/pbem"),
            "{e}"
        );
        use std::os::unix::ffi::OsStrExt;
        let bad = Path::new(std::ffi::OsStr::from_bytes(b"/srv/\xff"));
        let e = init_text(Some(bad), InitSend::Maildir).unwrap_err();
        assert!(e.to_string().contains("not UTF-8"), "{e}");
    }
}
