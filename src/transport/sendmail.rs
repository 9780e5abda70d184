//! Through a sendmail-compatible binary (`sendmail -i -f FROM -- TO...`,
//! the mail on standard input), its exit status read by sysexits.h
//! (item 13: lettre's sendmail transport keeps only the text
//! of a failure, not the status that says whose it is).

use super::{SendError, SendErrorKind, Transport};
use lettre::address::Envelope;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The transport for `[send] transport = "sendmail"`.
pub(super) struct Sendmail {
    pub(super) command: PathBuf,
}

/// What a sendmail exit status means (sysexits.h), and its name.
///
/// - `EX_DATAERR` (65, the mail is malformed), `EX_NOUSER` (67, no such
///   recipient), `EX_NOHOST` (68, no such domain): this mail can never go,
///   [`SendErrorKind::Permanent`].
/// - `EX_TEMPFAIL` (75), and any status sysexits.h does not name (exim
///   and others exit 1 for most failures): [`SendErrorKind::Transient`],
///   kept and tried again.
/// - the others (`EX_USAGE`, `EX_UNAVAILABLE`, `EX_SOFTWARE`, `EX_OSERR`,
///   `EX_CANTCREAT`, `EX_IOERR`, `EX_PROTOCOL`, `EX_NOPERM`, `EX_CONFIG`,
///   ...): the MTA or its settings, [`SendErrorKind::Down`].
pub fn exit_kind(status: i32) -> (SendErrorKind, &'static str) {
    use SendErrorKind::{Down, Permanent, Transient};
    match status {
        64 => (Down, "EX_USAGE"),
        65 => (Permanent, "EX_DATAERR"),
        66 => (Down, "EX_NOINPUT"),
        67 => (Permanent, "EX_NOUSER"),
        68 => (Permanent, "EX_NOHOST"),
        69 => (Down, "EX_UNAVAILABLE"),
        70 => (Down, "EX_SOFTWARE"),
        71 => (Down, "EX_OSERR"),
        72 => (Down, "EX_OSFILE"),
        73 => (Down, "EX_CANTCREAT"),
        74 => (Down, "EX_IOERR"),
        75 => (Transient, "EX_TEMPFAIL"),
        76 => (Down, "EX_PROTOCOL"),
        77 => (Down, "EX_NOPERM"),
        78 => (Down, "EX_CONFIG"),
        _ => (Transient, "not a sysexits.h status"),
    }
}

/// What sendmail said on standard error, on one line and bounded.
fn said(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let line: String = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(500)
        .collect();
    if line.is_empty() {
        "nothing on standard error".into()
    } else {
        line
    }
}

impl Transport for Sendmail {
    fn shared(&self) -> Option<&(dyn Transport + Sync)> {
        Some(self)
    }

    fn send(&self, envelope: &Envelope, raw: &[u8]) -> Result<(), SendError> {
        let name = self.command.display();
        let mut c = Command::new(&self.command);
        c.arg("-i");
        if let Some(from) = envelope.from() {
            c.arg("-f").arg(AsRef::<str>::as_ref(from));
        }
        c.arg("--")
            .args(envelope.to().iter().map(AsRef::<str>::as_ref))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = c
            .spawn()
            .map_err(|e| SendError::down(format!("sendmail {name}: {e}")))?;
        let stdin = child.stdin.take();
        // The mail is written while its output is read: a sendmail that
        // says much before it reads all cannot block on a full pipe.
        let (written, output) = std::thread::scope(|s| {
            let writer = s.spawn(move || match stdin {
                Some(mut w) => w.write_all(raw),
                None => Ok(()),
            });
            let output = child.wait_with_output();
            (writer.join(), output)
        });
        let output =
            output.map_err(|e| SendError::down(format!("sendmail {name}: waiting for it: {e}")))?;
        match output.status.code() {
            Some(0) => match written {
                Ok(Ok(())) => Ok(()),
                // It took the mail but not all of it: keep the mail.
                Ok(Err(e)) => Err(SendError::transient(format!(
                    "sendmail {name} exited 0 before it read the whole mail: {e}"
                ))),
                Err(_) => Err(SendError::down(format!(
                    "sendmail {name}: the writer failed"
                ))),
            },
            Some(status) => {
                let (kind, what) = exit_kind(status);
                Err(SendError::new(
                    kind,
                    format!(
                        "sendmail {name} exited {status} ({what}): {}",
                        said(&output.stderr)
                    ),
                ))
            }
            None => Err(SendError::down(format!(
                "sendmail {name} was killed by a signal: {}",
                said(&output.stderr)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn envelope() -> Envelope {
        Envelope::new(
            Some("pbem@example.net".parse().unwrap()),
            vec!["bob@example.org".parse().unwrap()],
        )
        .unwrap()
    }

    /// A sendmail script in `dir` running `body`.
    fn script(dir: &std::path::Path, name: &str, body: &str) -> Sendmail {
        let path = dir.join(name);
        fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        Sendmail { command: path }
    }

    #[test]
    fn the_exit_status_says_whose_the_failure_is() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let mail = b"Subject: x\r\n\r\nx\r\n";
        let missing = Sendmail {
            command: "/nonexistent/sendmail".into(),
        };
        let e = missing.send(&envelope(), mail).unwrap_err();
        assert!(e.is_down(), "{e:?}");
        // It gets the envelope as arguments and the mail on its input.
        let log = d.join("log");
        let ok = script(
            d,
            "ok",
            &format!("echo \"$@\" >{0}; cat >>{0}", log.display()),
        );
        ok.send(&envelope(), mail).unwrap();
        assert_eq!(
            fs::read(&log).unwrap(),
            [&b"-i -f pbem@example.net -- bob@example.org\n"[..], mail].concat()
        );
        for (status, kind, name) in [
            (67, SendErrorKind::Permanent, "EX_NOUSER"),
            (65, SendErrorKind::Permanent, "EX_DATAERR"),
            (75, SendErrorKind::Transient, "EX_TEMPFAIL"),
            (1, SendErrorKind::Transient, "not a sysexits.h status"),
            (78, SendErrorKind::Down, "EX_CONFIG"),
            (69, SendErrorKind::Down, "EX_UNAVAILABLE"),
        ] {
            let t = script(
                d,
                &format!("exit{status}"),
                &format!("cat >/dev/null\necho \"no such user\nbob\" >&2\nexit {status}"),
            );
            let e = t.send(&envelope(), mail).unwrap_err();
            assert_eq!(e.kind, kind, "{e}");
            assert!(
                e.message
                    .ends_with(&format!("exited {status} ({name}): no such user bob")),
                "{e}"
            );
        }
        // Refused before it read a long mail: the status still counts.
        let big = [&b"Subject: x\r\n\r\n"[..], &vec![b'x'; 1 << 20]].concat();
        let t = script(d, "early", "exit 67");
        assert!(t.send(&envelope(), &big).unwrap_err().is_permanent());
        let t = script(d, "killed", "kill -9 $$");
        let e = t.send(&envelope(), mail).unwrap_err();
        assert!(e.is_down() && e.message.contains("signal"), "{e}");
    }
}
