//! Crash safety (issue 3, "Exactly once"): `pbem poll` processes run over a
//! mailbox holding a whole game's moves and are killed with SIGKILL at
//! random points, again and again; then a last poll runs to the end. Every
//! move must be in the record exactly once, every reply delivered exactly
//! once, every mail marked done, and no temporary file left behind.
//!
//! `PBEM_CRASH_KILLS=1000 cargo test --release --test crash` runs the long
//! version (the default is a short one for every test run).

mod common;

use common::files;
use common::workload::{self, Workload};
use pbem::adjudicate::Identity;
use pbem::config::{Config, INIT};
use pbem::mailbox::Maildir;
use pbem::store::Store;
use std::collections::HashSet;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn kills() -> usize {
    std::env::var("PBEM_CRASH_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40)
}

#[test]
fn killed_polls_lose_and_double_nothing() {
    let kills = kills();
    // Enough mail that every kill can land in the middle of a poll.
    let n_games = (kills / 8).max(4);
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("pbem.toml");
    std::fs::write(&config_path, INIT).unwrap();
    let config = Config::load(&config_path).unwrap();
    let store = Store::open(&config.data).unwrap();
    let identity = Identity {
        address: config.address.clone(),
        name: "pbem".into(),
        trusted_authserv: None,
        admin: None,
        clocks: Default::default(),
    };
    let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
    let load: Workload = workload::build(
        &store,
        &identity,
        n_games,
        None,
        &|g| [format!("p{g}a@example.org"), format!("p{g}b@example.org")],
        true,
    );
    for m in &load.mails {
        inbox.deliver(&m.name, &m.raw).unwrap();
    }
    let mails = load.mails.len();

    let pbem = env!("CARGO_BIN_EXE_pbem");
    let mut rng = fastrand::Rng::with_seed(20261121);
    let (mut interrupted, mut finished) = (0, 0);
    let started = Instant::now();
    // Kill until `kills` polls died mid-way, or the mailbox ran dry.
    while interrupted < kills && finished < 3 {
        let mut child = Command::new(pbem)
            .args(["poll", "--quiet", "--wait", "--config"])
            .arg(&config_path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(rng.u64(500..30_000)));
        if child.try_wait().unwrap().is_none() {
            interrupted += 1;
            let _ = child.kill(); // SIGKILL
        } else {
            finished += 1;
        }
        let _ = child.wait();
    }
    let last = Command::new(pbem)
        .args(["poll", "--config"])
        .arg(&config_path)
        .output()
        .unwrap();
    assert!(
        last.status.success(),
        "{}",
        String::from_utf8_lossy(&last.stderr)
    );
    eprintln!(
        "crash test: {interrupted} polls killed mid-way (SIGKILL), {n_games} games, {mails} mails, {:.1?}",
        started.elapsed()
    );
    assert!(
        interrupted >= kills.min(20),
        "kills must land mid-poll ({interrupted})"
    );

    let sent = dir.path().join("mail/sent");
    load.check_records(&store);
    load.check_replies(&|who| {
        files(&sent.join(who).join("new"))
            .iter()
            .map(|f| std::fs::read(f).unwrap())
            .collect()
    });
    // Every mail done, nothing left half-way.
    assert!(
        files(&config.inbox.maildir.as_ref().unwrap().join("new")).is_empty(),
        "all mail left new/"
    );
    assert!(
        files(&config.inbox.maildir.as_ref().unwrap().join("cur"))
            .iter()
            .all(|p| p.to_string_lossy().ends_with(",S"))
    );
    assert!(
        files(&store.outbox_staging()).is_empty(),
        "no staged replies left"
    );
    assert!(
        files(&store.outbox_ready()).is_empty(),
        "the outbox is empty"
    );
    let leftovers: Vec<_> = files(&config.data)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".tmp"))
        })
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    let keys = common::committed_keys(&config.data);
    let unique: HashSet<&String> = keys.iter().collect();
    assert_eq!(keys.len(), unique.len(), "no mail committed twice");
    assert_eq!(keys.len(), mails, "every mail committed");
}
