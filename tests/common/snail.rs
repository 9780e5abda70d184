//! A real mail client writing a player's mail: s-nail (POSIX mailx) in
//! its batch mode, with a fresh HOME, replying to a mail it reads from an
//! mbox or writing a new one. Its "sendmail" is a script that keeps the
//! mail in a file, which the test then sends through the real mail
//! server; so what pbem reads is what s-nail wrote: its quoting, its
//! headers, its threading.
//!
//! s-nail must be installed (`apt-get install s-nail`; `scripts/test`
//! installs it): a test that needs it fails, never skips.

use std::path::Path;
use std::process::{Command, Stdio};

/// s-nail's reply, from `from`, to `mail` (raw, as pbem sent it), with
/// `body` typed below the quote s-nail puts first (its `quote` setting).
pub fn reply(mail: &[u8], from: &str, body: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let mbox = dir.path().join("mbox");
    std::fs::write(&mbox, as_mbox(mail)).unwrap();
    let script = format!("reply 1\n{}~.\nquit\n", typed(body));
    run(
        dir.path(),
        from,
        &["-f".as_ref(), mbox.as_os_str()],
        &script,
    )
}

/// A new mail s-nail writes from `from` to `to`.
pub fn compose(from: &str, to: &str, subject: &str, body: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let args = ["-s".as_ref(), subject.as_ref(), to.as_ref()];
    run(dir.path(), from, &args, &typed(body))
}

/// `body` as typed in s-nail's compose mode: lines ending in a newline,
/// none that s-nail would read as a tilde escape.
fn typed(body: &str) -> String {
    body.lines()
        .map(|l| {
            assert!(!l.starts_with('~'), "a line s-nail would obey: {l}");
            format!("{l}\n")
        })
        .collect()
}

/// Runs s-nail in `dir` (its HOME) as `from` with `args`, `script` on its
/// standard input; returns the mail it sent.
fn run(dir: &Path, from: &str, args: &[&std::ffi::OsStr], script: &str) -> Vec<u8> {
    let sent = dir.join("sent.eml");
    let sendmail = dir.join("sendmail");
    std::fs::write(
        &sendmail,
        format!("#!/bin/sh\ncat > '{}'\n", sent.display()),
    )
    .unwrap();
    std::fs::set_permissions(
        &sendmail,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let mut child = Command::new("s-nail")
        // -# batch mode, -~ tilde escapes (`~.` ends the mail), -n no
        // system-wide settings: POSIX mailx's TAB before quoted lines.
        // `quote` quotes the mail replied to; `reply-to-honour` replies
        // to the Reply-To, which carries the player's key (Debian's
        // /etc/s-nail.rc has both, the second as `ask-yes`).
        .args(["-#", "-~", "-n", "-S", "quote", "-S", "reply-to-honour=yes"])
        .args(["-S", "sendwait"])
        .arg("-S")
        .arg(format!("mta={}", sendmail.display()))
        .arg("-S")
        .arg(format!("from={from}"))
        .args(args)
        .env_clear()
        .env("HOME", dir)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("LC_ALL", "C.UTF-8")
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run s-nail ({e}): install it (apt-get install s-nail; scripts/test does)"
            )
        });
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "s-nail failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(&sent).unwrap_or_else(|e| {
        panic!(
            "s-nail sent nothing ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// `mail` as the one message of an mbox: a `From ` line first, line ends
/// as Unix has them (s-nail reads an mbox with CRLF badly), body lines
/// that begin with `From ` quoted.
fn as_mbox(mail: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(mail).replace("\r\n", "\n");
    let mut out = String::from("From pbem@localhost Thu Jan  1 00:00:00 2026\n");
    for line in text.lines() {
        if line.starts_with("From ") {
            out.push('>');
        }
        out.push_str(line);
        out.push('\n');
    }
    out.push('\n');
    out.into_bytes()
}
