//! `pbem daemon` on an IMAP inbox keeps a game going while the IMAP server
//! goes away under it: its session is kicked (`doveadm kick`),
//! and later Dovecot is stopped for a few seconds while a move is on its
//! way (Postfix keeps it). The daemon logs the lost connection, tries
//! again with backoff, and answers every move exactly once; SIGTERM then
//! stops it cleanly, even in the middle of an IDLE.
//!
//! Alone in its binary ([`crate::common::lock::alone`]): it stops the
//! shared Dovecot, which no other test may see.

use crate::common;

use common::mailstack::{PbemSide, StackRoom, nonce, stack};
use common::play::play_game;
use pbem::rules::Rules;
use pbem::transport;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack)"]
fn the_daemon_survives_a_kick_and_a_server_restart_and_loses_nothing() {
    let _alone = crate::common::lock::alone();
    let s = stack();
    let tag = nonce();
    let local = format!("pbem.{tag}");
    let address = s.address(&local);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pbem.toml");
    std::fs::write(
        &config,
        s.pbem_toml(
            &address,
            &dir.path().join("data"),
            &s.imap_inbox(&address),
            &s.password_file,
        ),
    )
    .unwrap();
    let log = dir.path().join("daemon.log");
    let mut daemon = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["daemon", "--config"])
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();

    let (mut room, mut players) = StackRoom::new(
        s,
        &tag,
        &address,
        PbemSide::Outside(dir.path().join("data")),
    );
    // The players send through Postfix's plain port (no AUTH, which needs
    // Dovecot): their mail is queued while Dovecot is down.
    for sender in &mut room.senders {
        *sender = transport::from_config(&s.plain_smtp()).unwrap();
    }
    let restart: Arc<Mutex<Option<std::thread::JoinHandle<()>>>> = Arc::default();
    let restart_in_hook = Arc::clone(&restart);
    let kicked = address.clone();
    room.hook = Some(Box::new(move |ply| match ply {
        4 => stack().script(&["kick", &kicked]),
        10 => {
            // Down now; up again in 3 s, while the next move waits in
            // Postfix's queue and pbem tries to reconnect.
            stack().script(&["stop-imap"]);
            *restart_in_hook.lock().unwrap() = Some(std::thread::spawn(|| {
                std::thread::sleep(Duration::from_secs(3));
                stack().script(&["start"]);
            }));
        }
        _ => {}
    }));
    let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        play_game(&mut room, &mut players, Rules::Embed)
    }));
    if let Some(t) = restart.lock().unwrap().take() {
        t.join().unwrap();
    }

    // SIGTERM in the middle of an IDLE: a clean stop, at once.
    let t = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &daemon.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = daemon.wait().unwrap();
    let stopped_in = t.elapsed();
    let err = std::fs::read_to_string(&log).unwrap();
    eprintln!("{err}");
    if let Err(e) = played {
        std::panic::resume_unwind(e);
    }
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(err.contains("INFO  daemon-stop"), "{err}");
    // At once: not when the IDLE (30 s) would have ended by itself.
    assert!(
        stopped_in < Duration::from_secs(20),
        "stopped in {stopped_in:?}"
    );
    assert!(
        err.contains("WARN  inbox-failed ")
            && err.contains("retry_s=1 failures=1")
            && err.contains("INFO  inbox-back "),
        "the outage is logged, and the recovery: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
