//! The transport's settings (`[send]` in pbem.toml), the transport they
//! make ([`from_config`]) and the try of it without sending (`pbem check`,
//! [`check`]). Mail path: the last stage, `outbox -> transport`.
//!
//! Crash safety: none to keep; nothing here writes but the probe file of
//! [`check`], removed at once.

use super::maildir::MaildirSink;
use super::{SendError, Transport, sendmail, smtp};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::PathBuf;

/// How pbem sends mail (`[send]` in pbem.toml).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "transport", rename_all = "lowercase", deny_unknown_fields)]
pub enum SendConfig {
    /// Into `<folder>/<recipient address>/new/`: nothing leaves the machine.
    Maildir { folder: PathBuf },
    /// Over SMTP.
    Smtp {
        host: String,
        #[serde(default = "default_port")]
        port: u16,
        /// `starttls` (default), `tls`, or `none` (loopback only).
        #[serde(default = "default_security")]
        security: String,
        #[serde(default)]
        user: Option<String>,
        /// A file holding the password (kept out of pbem.toml).
        #[serde(default)]
        password_file: Option<PathBuf>,
        /// Extra CA certificate (PEM) to trust, for a private server.
        #[serde(default)]
        ca_file: Option<PathBuf>,
    },
    /// Through a sendmail-compatible binary.
    Sendmail {
        #[serde(default = "default_sendmail")]
        command: PathBuf,
    },
}

/// The keys of each transport's `[send]` table besides `transport`:
/// those it needs, then those it may take. Kept beside [`SendConfig`]
/// (a test checks they agree), so an error can say whose a stray key is.
pub const TRANSPORT_KEYS: &[(&str, &[&str], &[&str])] = &[
    ("maildir", &["folder"], &[]),
    (
        "smtp",
        &["host"],
        &["port", "security", "user", "password_file", "ca_file"],
    ),
    ("sendmail", &[], &["command"]),
];

/// What is wrong with a `[send]` table (`send`) whose keys do not fit
/// its transport: each key that belongs to another transport, with that
/// transport, and the keys the chosen one needs and takes. `None` when no
/// key belongs to another transport (a typo is for the reader to name).
pub fn stray_keys(send: &toml::Table) -> Option<String> {
    let chosen = send.get("transport")?.as_str()?;
    let (_, needs, takes) = TRANSPORT_KEYS.iter().find(|(t, ..)| *t == chosen)?;
    let strays: Vec<String> = send
        .keys()
        .filter(|k| {
            *k != "transport" && !needs.contains(&k.as_str()) && !takes.contains(&k.as_str())
        })
        .filter_map(|k| {
            let owners: Vec<&str> = TRANSPORT_KEYS
                .iter()
                .filter(|(_, n, t)| n.contains(&k.as_str()) || t.contains(&k.as_str()))
                .map(|(t, ..)| *t)
                .collect();
            (!owners.is_empty())
                .then(|| format!("`{k}` is a key of the {} transport", owners.join(" and ")))
        })
        .collect();
    if strays.is_empty() {
        return None;
    }
    let list = |keys: &[&str]| {
        keys.iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut what = format!("{}, not of {chosen}; {chosen} ", strays.join(", "));
    if needs.is_empty() {
        what.push_str("needs no other key");
    } else {
        what.push_str(&format!("needs {}", list(needs)));
    }
    if !takes.is_empty() {
        what.push_str(&format!(" and may take {}", list(takes)));
    }
    what.push_str(&format!(
        "; remove the other transport's keys from [send], or replace the section whole, like --set 'send={{transport=\"{chosen}\", ...}}'"
    ));
    Some(what)
}

fn default_port() -> u16 {
    587
}
fn default_security() -> String {
    "starttls".into()
}
fn default_sendmail() -> PathBuf {
    "/usr/sbin/sendmail".into()
}

/// Builds the transport for `config`.
///
/// # Errors
/// A configuration that cannot work (unknown security, unreadable password
/// or CA file), as [`SendErrorKind::Down`](super::SendErrorKind::Down).
pub fn from_config(config: &SendConfig) -> Result<Box<dyn Transport>, SendError> {
    Ok(match config {
        SendConfig::Maildir { folder } => Box::new(MaildirSink::new(folder.clone())),
        SendConfig::Sendmail { command } => Box::new(sendmail::Sendmail {
            command: command.clone(),
        }),
        SendConfig::Smtp { .. } => Box::new(smtp::Smtp::new(config)?),
    })
}

/// Tries the transport without sending anything (`pbem check`): for SMTP
/// connect, EHLO, STARTTLS or TLS, and AUTH, as a flush does; for
/// sendmail, that the command is there and executable; for Maildirs, that
/// the folder is writable. Returns what worked, in words.
///
/// # Errors
/// What failed, with the setting to look at.
pub fn check(config: &SendConfig) -> Result<String, SendError> {
    let fail = |m: String| SendError::down(m);
    match config {
        SendConfig::Smtp {
            host,
            port,
            security,
            user,
            ..
        } => {
            let what = format!(
                "smtp {host}:{port} ({security}{})",
                user.as_ref()
                    .map(|u| format!(", AUTH as {u}"))
                    .unwrap_or_default()
            );
            smtp::Smtp::new(config)
                .and_then(|t| t.probe())
                .map(|()| {
                    format!(
                        "{what}: connect, EHLO{}{} work",
                        if security == "none" { "" } else { ", TLS" },
                        if user.is_some() { ", AUTH" } else { "" }
                    )
                })
                .map_err(|e| {
                    fail(format!(
                        "{what}: {e} (check send.host, send.port, send.security{})",
                        if user.is_some() {
                            ", send.user and send.password_file"
                        } else {
                            ""
                        }
                    ))
                })
        }
        SendConfig::Sendmail { command } => {
            use std::os::unix::fs::PermissionsExt;
            match fs::metadata(command) {
                Ok(m) if m.is_file() && m.permissions().mode() & 0o111 != 0 => {
                    Ok(format!("sendmail {} is there", command.display()))
                }
                Ok(_) => Err(fail(format!(
                    "sendmail {} is not an executable file (check send.command)",
                    command.display()
                ))),
                Err(e) => Err(fail(format!(
                    "sendmail {}: {e} (install an MTA, or set send.command)",
                    command.display()
                ))),
            }
        }
        SendConfig::Maildir { folder } => {
            let probe = folder.join(format!(".pbem-check.{}", std::process::id()));
            fs::create_dir_all(folder)
                .and_then(|()| fs::write(&probe, b"x"))
                .and_then(|()| fs::remove_file(&probe))
                .map(|()| format!("Maildirs under {} (writable)", folder.display()))
                .map_err(|e| {
                    fail(format!(
                        "{}: {e} (check send.folder, and that pbem's user may write there)",
                        folder.display()
                    ))
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value each key of [`TRANSPORT_KEYS`] reads.
    fn value(key: &str) -> toml::Value {
        match key {
            "port" => toml::Value::Integer(2525),
            "security" => "none".into(),
            _ => "x".into(),
        }
    }

    fn table(transport: &str, keys: &[&str]) -> toml::Table {
        let mut t = toml::Table::new();
        t.insert("transport".into(), transport.into());
        for k in keys {
            t.insert((*k).into(), value(k));
        }
        t
    }

    #[test]
    fn the_key_list_agrees_with_the_settings() {
        for (transport, needs, takes) in TRANSPORT_KEYS {
            let all: Vec<&str> = needs.iter().chain(takes.iter()).copied().collect();
            for keys in [needs.to_vec(), all] {
                let t = table(transport, &keys);
                let read: Result<SendConfig, _> = toml::Value::Table(t).try_into();
                assert!(read.is_ok(), "{transport} {keys:?}: {read:?}");
                assert_eq!(stray_keys(&table(transport, &keys)), None);
            }
            // Each needed key is needed.
            for k in *needs {
                let t = table(transport, &[]);
                let read: Result<SendConfig, _> = toml::Value::Table(t).try_into();
                assert!(read.is_err(), "{transport} without {k}");
            }
        }
    }

    #[test]
    fn a_key_of_another_transport_is_named_with_its_transport() {
        let e = stray_keys(&table("smtp", &["folder", "command"])).unwrap();
        assert!(
            e.starts_with("`command` is a key of the sendmail transport, `folder` is a key of the maildir transport, not of smtp; smtp needs `host` and may take `port`"),
            "{e}"
        );
        let e = stray_keys(&table("maildir", &["folder", "host", "port"])).unwrap();
        assert!(e.contains("`host` is a key of the smtp transport"), "{e}");
        assert!(
            e.contains("not of maildir; maildir needs `folder`; remove"),
            "{e}"
        );
        assert_eq!(stray_keys(&table("smtp", &["host", "bogus"])), None);
        assert_eq!(stray_keys(&table("pigeon", &["folder"])), None);
    }
}
