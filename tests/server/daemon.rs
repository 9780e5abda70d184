//! `pbem daemon` answers a mail within a second of its landing in the
//! Maildir, and stops cleanly (exit 0) on SIGTERM. Timed, so alone in
//! its binary ([`crate::common::lock::alone`]).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn the_daemon_answers_within_a_second_and_stops_on_sigterm() {
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
    // Let it start and make its first sweep.
    std::thread::sleep(Duration::from_millis(700));
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
        while std::fs::read_dir(&sent).map(|d| d.count()).unwrap_or(0) < i + 1 {
            assert!(
                t.elapsed() < Duration::from_secs(5),
                "no answer to mail {i}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
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
    let worst = latencies.iter().max().unwrap();
    eprintln!("daemon latencies: {latencies:?}");
    assert!(
        *worst < Duration::from_secs(1),
        "answered within a second: {latencies:?}"
    );
}

fn unsafe_kill(pid: i32) -> i32 {
    // SIGTERM through the kill command: no libc binding needed here.
    Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .map(|s| if s.success() { 0 } else { 1 })
        .unwrap_or(1)
}
