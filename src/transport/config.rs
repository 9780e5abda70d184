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
        SendConfig::Maildir { folder } => Box::new(MaildirSink {
            folder: folder.clone(),
        }),
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
