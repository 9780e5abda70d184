//! `pbem daemon` answers a mail as it lands in the Maildir (it watches
//! new/, rather than waiting for its 30 s sweep), and stops cleanly
//! (exit 0) on SIGTERM. Its latencies are printed, alone in its binary
//! ([`crate::common::lock::alone`]) so that they mean something.

use crate::common::wait::wait_until;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long an answer may take: under the daemon's 30 s sweep, so only a
/// daemon that watches its Maildir answers in time, and long enough for
/// a machine under heavy load.
const ON_ARRIVAL: Duration = Duration::from_secs(25);

#[test]
fn the_daemon_answers_a_mail_as_it_lands_and_stops_on_sigterm() {
    let _alone = crate::common::lock::alone();
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pbem.toml");
    std::fs::write(&config, pbem::config::INIT).unwrap();
    let mut daemon = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["daemon", "--config"])
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // No wait for it to start: it watches new/ before its first sweep,
    // so a mail is answered whether it lands before or after.
    let inbox = pbem::mailbox::Maildir::open(dir.path().join("mail/inbox")).unwrap();
    let sent = dir.path().join("mail/sent/carol@example.org/new");
    let mut latencies = Vec::new();
    for i in 0..5 {
        let t = Instant::now();
        let raw = format!(
            "From: carol@example.org\r\nTo: pbem@localhost\r\nSubject: help\r\nMessage-ID: <help{i}@example.org>\r\n\r\nhelp\r\n"
        );
        inbox
            .deliver(&format!("{i}.carol"), raw.as_bytes())
            .unwrap();
        wait_until(
            ON_ARRIVAL,
            &format!("the answer to mail {i}"),
            || match std::fs::read_dir(&sent).map(|d| d.count()).unwrap_or(0) {
                n if n > i => Ok(()),
                n => Err(format!("{n} answers")),
            },
        );
        latencies.push(t.elapsed());
    }
    // SIGTERM, then a clean exit.
    let pid = daemon.id() as i32;
    assert_eq!(unsafe_kill(pid), 0);
    let status = daemon.wait().unwrap();
    let mut err = String::new();
    use std::io::Read;
    daemon
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(err.contains("INFO  daemon-stop"), "{err}");
    eprintln!("daemon latencies: {latencies:?}");
}

fn unsafe_kill(pid: i32) -> i32 {
    // SIGTERM through the kill command: no libc binding needed here.
    Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .map(|s| if s.success() { 0 } else { 1 })
        .unwrap_or(1)
}
