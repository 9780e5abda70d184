//! Two pbems at once (tests/server/faults.rs): a poll that finds
//! the lock held says so or waits, and a daemon, polls and MTA deliveries
//! at the same moment process each mail once.

use super::*;

/// "Two pbem processes at once (cron overlapping a daemon): ...
/// a `pbem poll` without --wait that finds the lock held exits with a
/// clear message" — and `pbem poll --wait` waits for it.
#[test]
fn a_poll_that_finds_the_lock_held_says_so_or_waits() {
    let _shared = crate::common::lock::shared();
    let mut site = Site::new(INIT);
    site.deliver(
        b"From: carol@example.org\r\nTo: pbem@localhost\r\nSubject: hi\r\n\
          Message-ID: <lock.help@example.org>\r\n\r\nhelp\r\n",
    );
    let store = site.store();
    let held = store.lock(false).unwrap();
    let o = site.poll(at(0));
    let log = stderr(&o);
    assert_eq!(o.status.code(), Some(EX_TEMPFAIL), "{log}");
    assert!(
        log.contains(&site.data().display().to_string())
            && log.contains("pbem.lock")
            && log.contains("--wait"),
        "names the data folder and the way out: {log}"
    );
    assert_eq!(site.waiting().len(), 1, "nothing was done");
    let mut waiting = site
        .command(at(0), &["poll", "--wait"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(waiting.try_wait().unwrap().is_none(), "--wait waits");
    assert_eq!(site.waiting().len(), 1);
    drop(held);
    let o = waiting.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(site.waiting().is_empty());
    assert_eq!(site.mails_to("carol@example.org").len(), 1);
}

/// The mails of the busy test. Into the Maildir: every move, in order,
/// and now and then a board request. Through `pbem deliver`: board
/// requests, half of them copies of one in the Maildir (the same mail come
/// twice).
struct Busy {
    maildir: Vec<Vec<u8>>,
    piped: Vec<Vec<u8>>,
    /// What each mail must bring: (recipient, mail answered) -> 1.
    want: HashMap<(String, String), usize>,
    /// Each mail's key hash, by its Message-ID: how a reply names it.
    hashes: HashMap<String, String>,
}

fn busy_mails(site: &Site, games: &[Game]) -> Busy {
    let mut maildir: Vec<Vec<u8>> = Vec::new();
    let mut piped: Vec<Vec<u8>> = Vec::new();
    let mut want: HashMap<(String, String), usize> = HashMap::new();
    let mut hashes: HashMap<String, String> = HashMap::new();
    for ply in 0..20 {
        for g in games.iter().filter(|g| ply < g.moves.len()) {
            let mid = format!("<{}.move{ply}@example.org>", g.id);
            let raw = site.move_mail(g, ply, &mid);
            hashes.insert(mid.clone(), common::key_hash(&raw));
            maildir.push(raw);
            for p in &g.players {
                want.insert((p.clone(), mid.clone()), 1);
            }
            if ply % 5 == 2 {
                let mid = format!("<{}.board{ply}@example.org>", g.id);
                let raw = site.mail(g, ply, &mid, "board");
                hashes.insert(mid.clone(), common::key_hash(&raw));
                maildir.push(raw.clone());
                piped.push(raw);
                want.insert((g.players[g.mover(ply).index()].clone(), mid), 1);
            }
            if ply % 10 == 4 {
                let mid = format!("<{}.piped{ply}@example.org>", g.id);
                let raw = site.mail(g, ply, &mid, "moves");
                hashes.insert(mid.clone(), common::key_hash(&raw));
                piped.push(raw);
                want.insert((g.players[g.mover(ply).index()].clone(), mid), 1);
            }
        }
    }
    Busy {
        maildir,
        piped,
        want,
        hashes,
    }
}

/// Starts `pbem ARGS` on the settings `config` at the test's time, its
/// stderr to `log` (a file and its path); the child and the path.
fn spawn_pbem(
    config: &Path,
    args: &[&str],
    (f, p): (fs::File, PathBuf),
) -> (std::process::Child, PathBuf) {
    let child = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .arg("--config")
        .arg(config)
        .env("PBEM_NOW", stamp(at(0)))
        .env_remove("PBEM_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(f)
        .spawn()
        .unwrap();
    (child, p)
}

/// Waits for `children` to end: each one's exit code and log.
fn finish(children: Vec<(std::process::Child, PathBuf)>) -> Vec<(Option<i32>, String)> {
    children
        .into_iter()
        .map(|(mut c, log)| {
            let code = c.wait().unwrap().code();
            (code, fs::read_to_string(log).unwrap())
        })
        .collect()
}

/// Waits (two minutes at most) until `expected_keys` mails are committed
/// and none waits.
fn wait_until_done(site: &Site, expected_keys: usize) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while (site.committed().len() < expected_keys || !site.waiting().is_empty())
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// Every poll, `poll --wait` and `deliver` ended well: a poll that found
/// the lock held said so (naming the data folder and `--wait`).
fn check_outcomes(
    site: &Site,
    polls: &[(Option<i32>, String)],
    waits: &[(Option<i32>, String)],
    delivers: &[(Option<i32>, String)],
    started: std::time::Instant,
) {
    let busy = polls
        .iter()
        .filter(|(code, _)| *code == Some(EX_TEMPFAIL))
        .count();
    eprintln!(
        "{} polls ({busy} found the lock held), {} polls --wait, {} deliveries, {:.1?}",
        polls.len(),
        waits.len(),
        delivers.len(),
        started.elapsed()
    );
    for (code, log) in polls {
        match code {
            Some(0) => {}
            Some(EX_TEMPFAIL) => assert!(
                log.contains(&site.data().display().to_string()) && log.contains("--wait"),
                "{log}"
            ),
            _ => panic!("pbem poll: {code:?}: {log}"),
        }
    }
    for (code, log) in waits.iter().chain(delivers) {
        assert_eq!(*code, Some(0), "{log}");
    }
}

/// Each reply, by recipient and the mail it is about: the number of
/// times it came.
fn replies_by_mail(
    site: &Site,
    games: &[Game],
    want: &HashMap<(String, String), usize>,
    hashes: &HashMap<String, String>,
) -> HashMap<(String, String), usize> {
    let mut got: HashMap<(String, String), usize> = HashMap::new();
    let mut message_ids = HashSet::new();
    for g in games {
        for p in &g.players {
            for m in site.mails_to(p) {
                assert!(message_ids.insert(m.message_id.clone()), "{m:#?}");
                // Which mail a reply is about: its Message-ID names it
                // (the other player's copy is In-Reply-To
                // pbem's last mail to them).
                let about = want
                    .keys()
                    .map(|(_, id)| id)
                    .find(|id| hashes[*id] == common::hash_of_reply(&m.message_id))
                    .cloned()
                    .unwrap_or_else(|| m.message_id.clone());
                *got.entry((p.clone(), about)).or_default() += 1;
            }
        }
    }
    got
}

/// "Two pbem processes at once (cron overlapping a daemon):
/// nothing is processed twice; the second waits or exits with a clear
/// message." A daemon watches the Maildir while polls, polls with --wait
/// and MTA deliveries run beside it over some 300 mails in 12 games.
#[test]
fn a_daemon_polls_and_deliveries_at_once_process_each_mail_once() {
    let _shared = crate::common::lock::shared();
    let mut site = Site::new(INIT);
    let ids: Vec<String> = (0..12).map(|i| format!("busy-{i}")).collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut games = site.start(&ids, &common::workload::RULES, None);
    for g in &mut games {
        g.moves.truncate(20);
    }
    let Busy {
        maildir,
        piped,
        want,
        hashes,
    } = busy_mails(&site, &games);
    let mails: HashSet<&String> = want.keys().map(|(_, m)| m).collect();
    let expected_keys = mails.len();
    eprintln!(
        "{} mails into the Maildir, {} through pbem deliver, {expected_keys} distinct",
        maildir.len(),
        piped.len()
    );
    let started = std::time::Instant::now();
    // Half the mail is there when the daemon starts; the rest arrives
    // while everything runs.
    let half = maildir.len() / 2;
    for raw in &maildir[..half] {
        site.deliver(raw);
    }
    // Logs go to files: a pipe nobody reads until the end could fill
    // and stop a busy process.
    let logs = site.dir.path().join("logs");
    fs::create_dir_all(&logs).unwrap();
    let mut n = 0;
    let mut log_file = || {
        n += 1;
        let p = logs.join(format!("{n:04}.log"));
        (fs::File::create(&p).unwrap(), p)
    };
    let (f, daemon_log) = log_file();
    let mut daemon = site
        .command(at(0), &["daemon", "--interval", "50"])
        .stderr(f)
        .spawn()
        .unwrap();
    let config = site.config.clone();
    let spawn = |args: &[&str], log: (fs::File, PathBuf)| spawn_pbem(&config, args, log);
    let mut polls = Vec::new();
    let mut waits = Vec::new();
    let mut delivers = Vec::new();
    let mut rest = maildir[half..].iter();
    let mut piped_left = piped.iter();
    loop {
        let mut more = false;
        for raw in rest.by_ref().take(12) {
            site.deliver(raw);
            more = true;
        }
        for raw in piped_left.by_ref().take(6) {
            let (mut c, log) = spawn(&["deliver"], log_file());
            c.stdin.take().unwrap().write_all(raw).unwrap();
            delivers.push((c, log));
            more = true;
        }
        polls.push(spawn(&["poll"], log_file()));
        waits.push(spawn(&["poll", "--wait"], log_file()));
        if !more {
            break;
        }
    }
    let (polls, waits, delivers) = (finish(polls), finish(waits), finish(delivers));
    // The daemon takes what is left.
    wait_until_done(&site, expected_keys);
    rustix::process::kill_process(
        rustix::process::Pid::from_child(&daemon),
        rustix::process::Signal::TERM,
    )
    .unwrap();
    let code = daemon.wait().unwrap().code();
    let log = fs::read_to_string(&daemon_log).unwrap();
    assert_eq!(code, Some(0), "the daemon stops cleanly: {log}");
    assert!(!log.contains("ERROR"), "{log}");
    check_outcomes(&site, &polls, &waits, &delivers, started);

    // Each move recorded once, every record valid.
    for g in &games {
        assert_eq!(site.played(&g.id), g.moves, "{}", g.id);
    }
    // Each mail committed once, every mail done.
    let committed = site.committed();
    let unique: HashSet<&String> = committed.iter().collect();
    assert_eq!(unique.len(), committed.len(), "no mail committed twice");
    assert_eq!(committed.len(), expected_keys);
    assert!(site.waiting().is_empty());
    let got = replies_by_mail(&site, &games, &want, &hashes);
    assert_eq!(got, want, "each reply exactly once");
    assert!(files(&site.data().join("outbox/ready")).is_empty());
    assert!(leftovers(&site.data()).is_empty());
}
