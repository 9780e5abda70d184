//! A `[git] remote` that takes connections and never answers (a "black
//! hole" listening on 127.0.0.1) holds up no reply, no lock and no
//! process: a poll's replies are out and its lock let go before its push
//! begins, the push is killed with every process it started, and the
//! daemon, which pushes from a thread of its own, answers mail all the
//! while and pushes once the remote works again. Timed against bounds,
//! so alone in their binary.

use super::git_history::{ALICE, BOB, games_dir, git, subjects, table};
use crate::common;
use common::club::Club;
use pbem::demo::example_moves;
use pbem::rules::Rules;
use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A remote that accepts every connection and never says a word.
struct BlackHole {
    port: u16,
    calls: Arc<Mutex<Vec<TcpStream>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl BlackHole {
    fn open() -> BlackHole {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let calls = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (c, s) = (Arc::clone(&calls), Arc::clone(&stop));
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => c.lock().unwrap().push(stream),
                    Err(_) => std::thread::sleep(Duration::from_millis(10)),
                }
            }
        });
        BlackHole {
            port,
            calls,
            stop,
            thread: Some(thread),
        }
    }

    /// Waits (at most 30 s) until someone connected.
    fn wait_for_a_call(&self) -> bool {
        until(Duration::from_secs(30), || {
            !self.calls.lock().unwrap().is_empty()
        })
    }

    /// Whether a caller still holds its connection open.
    fn still_called(&self) -> bool {
        self.calls.lock().unwrap().iter_mut().any(|s| {
            s.set_nonblocking(true).unwrap();
            let mut buf = [0u8; 4096];
            loop {
                match s.read(&mut buf) {
                    Ok(0) => return false,
                    Ok(_) => continue,
                    Err(e) => return e.kind() == std::io::ErrorKind::WouldBlock,
                }
            }
        })
    }
}

impl Drop for BlackHole {
    /// Stops listening and hangs up on every caller.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.calls.lock().unwrap().clear();
    }
}

/// A process this test started, killed if the test ends early.
struct Started(Child);

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until `done`, at most `limit`; whether it came.
fn until(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while !done() {
        if start.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// The processes whose command line holds `mark`, once those that are
/// going have gone (at most 10 s).
fn left_running(mark: &str) -> Vec<String> {
    let mut left = Vec::new();
    until(Duration::from_secs(10), || {
        left = std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .filter(|c| c.contains(mark))
            .collect();
        left.is_empty()
    });
    left
}

/// `pbem ARGS --config ...` of `t`, at its clock, its log into `log`.
fn pbem(t: &Club, args: &[&str], log: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .arg("--config")
        .arg(&t.pbem.config_path)
        .env("PBEM_NOW", t.now())
        .env_remove("PBEM_CONFIG")
        .env_remove("RUST_LOG")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap()
}

/// A game `id` between Alice (black, first) and Bob at a pbem whose
/// remote is `remote`, started by an admin's command.
fn game_with_remote(remote: &str, id: &str) -> Club {
    let mut t = table(&format!("[git]\nremote = \"{remote}\""));
    let out = t.run(&[
        "new",
        "boom-and-zoom",
        "--black",
        ALICE,
        "--red",
        BOB,
        "--first",
        "black",
        "--id",
        id,
    ]);
    assert!(out.contains(&format!("started {id}")), "{out}");
    t
}

/// Whether player `who` has a new mail holding `what`.
fn has_news(t: &mut Club, who: usize, what: &str) -> bool {
    t.players[who].check().iter().any(|m| m.text.contains(what))
}

/// A `pbem poll` with a move mail, its remote a black hole reached by
/// `scheme`: the push starts after the replies are out and the lock is
/// let go, and is killed, with all it started, long before `pbem poll`
/// would wait the 60 s of `push_seconds`.
fn a_poll_answers_and_lets_go_before_a_push_that_hangs(scheme: &str) {
    let _alone = common::lock::alone();
    let hole = BlackHole::open();
    let remote = format!("{scheme}://127.0.0.1:{}/x.git", hole.port);
    let mut t = game_with_remote(&remote, "bz-hole");
    assert!(
        t.pbem.config.git.as_ref().unwrap().push_seconds == 60,
        "the default time of a push"
    );
    // An admin's command commits and leaves the push to the next poll.
    assert!(
        hole.calls.lock().unwrap().is_empty(),
        "no push from `pbem new`"
    );
    t.players[0]
        .reply(&t.inbox, "[pbem bz-hole]", "6-13")
        .unwrap();
    t.minute += 1;
    let log = t.pbem.dir.path().join("poll.log");
    let started = Instant::now();
    let mut poll = Started(pbem(&t, &["poll"], &log));
    assert!(hole.wait_for_a_call(), "the poll pushes to {remote}");
    // The push waits on the remote: the reply is in Bob's Maildir, the
    // data folder's lock is free.
    assert!(has_news(&mut t, 1, "6-13"), "Bob is told of the move");
    assert!(
        t.pbem.store.lock(false).is_ok(),
        "the lock is let go before the push"
    );
    assert!(hole.still_called(), "all this while the push waited");
    let status = poll.0.wait().unwrap();
    let took = started.elapsed();
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(status.success(), "a push that fails fails no poll: {said}");
    assert!(took < Duration::from_secs(30), "pbem poll took {took:?}");
    assert!(
        said.contains("git-push-failed") && said.contains("ran past its 10 s"),
        "{said}"
    );
    let port = format!("127.0.0.1:{}", hole.port);
    assert_eq!(left_running(&port), Vec::<String>::new(), "no git left");
    // Committed all the same, the push left for later.
    let games = games_dir(&t);
    assert_eq!(subjects(&games).last().unwrap(), "bz-hole: 1. black 6-13");
    assert_eq!(git(&games, &["status", "--porcelain"]), "");
    eprintln!("pbem poll beside a {scheme}:// black hole: {took:?}");
}

#[test]
fn a_poll_answers_and_lets_go_before_an_http_push_that_hangs() {
    a_poll_answers_and_lets_go_before_a_push_that_hangs("http");
}

#[test]
fn a_poll_answers_and_lets_go_before_a_git_protocol_push_that_hangs() {
    a_poll_answers_and_lets_go_before_a_push_that_hangs("git");
}

/// `pbem daemon` with a black hole for a remote answers mail after mail
/// while its first push hangs; once a git daemon serves a bare
/// repository on that port instead, the history reaches it, and the
/// daemon stops cleanly, leaving no git behind.
#[test]
fn the_daemon_answers_beside_a_remote_that_never_answers_and_pushes_once_it_does() {
    let _alone = common::lock::alone();
    let hole = BlackHole::open();
    let port = hole.port;
    let mut t = game_with_remote(&format!("git://127.0.0.1:{port}/x.git"), "bz-dmn");
    t.minute += 1;
    let log = t.pbem.dir.path().join("daemon.log");
    let mut daemon = Started(pbem(&t, &["daemon"], &log));
    assert!(hole.wait_for_a_call(), "the daemon pushes at its start");
    let moves = example_moves(Rules::BoomAndZoom);
    for (ply, mv) in moves.iter().take(2).enumerate() {
        let started = Instant::now();
        t.players[ply % 2]
            .reply(&t.inbox, "[pbem bz-dmn]", mv)
            .unwrap();
        let answered = until(Duration::from_secs(30), || {
            has_news(&mut t, 1 - ply % 2, mv)
        });
        let said = std::fs::read_to_string(&log).unwrap();
        assert!(answered, "mail {} answered: {said}", ply + 1);
        eprintln!(
            "daemon, push hanging: mail {} answered in {:?}",
            ply + 1,
            started.elapsed()
        );
    }
    assert!(hole.still_called(), "answered while the first push hung");

    // The remote works again: the same port, a real repository.
    drop(hole);
    let served = tempfile::tempdir().unwrap();
    git(served.path(), &["init", "-q", "--bare", "x.git"]);
    // git-daemon itself, not `git daemon`: the `git` wrapper runs it as a
    // child, which killing the wrapper would leave serving.
    let exec_path = Command::new("git").arg("--exec-path").output().unwrap();
    let exec_path = String::from_utf8_lossy(&exec_path.stdout)
        .trim()
        .to_string();
    let _git_daemon = Started(
        Command::new(Path::new(&exec_path).join("git-daemon"))
            .args(["--reuseaddr", "--listen=127.0.0.1", "--export-all"])
            .arg("--enable=receive-pack")
            .arg(format!("--port={port}"))
            .arg(format!("--base-path={}", served.path().display()))
            .arg(served.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let games = games_dir(&t);
    let bare = served.path().join("x.git");
    let pushed = until(Duration::from_secs(120), || {
        let head = git(&games, &["rev-parse", "HEAD"]);
        let there = Command::new("git")
            .arg("-C")
            .arg(&bare)
            .args(["rev-parse", "-q", "--verify", "main"])
            .output()
            .unwrap();
        let said = std::fs::read_to_string(&log).unwrap();
        there.stdout == head.as_bytes() && said.contains("git-pushed")
    });
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(pushed, "the history reaches the remote, as logged: {said}");
    let second = format!("bz-dmn: 2. red {}", moves[1]);
    let there = git(&bare, &["log", "--format=%s", "main"]);
    assert!(there.lines().any(|l| l == second), "{there}");

    let pid = rustix::process::Pid::from_child(&daemon.0);
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    let status = daemon.0.wait().unwrap();
    let said = std::fs::read_to_string(&log).unwrap();
    assert_eq!(status.code(), Some(0), "{said}");
    assert!(said.contains("daemon-stop"), "{said}");
    assert_eq!(
        left_running(&format!("127.0.0.1:{port}")),
        Vec::<String>::new()
    );
}

/// A daemon told to stop while its push hangs stops at once (not when
/// the push's 60 s are up), and its git goes with it.
#[test]
fn the_daemon_stops_at_once_while_its_push_hangs() {
    let _alone = common::lock::alone();
    let hole = BlackHole::open();
    let port = hole.port;
    let t = game_with_remote(&format!("http://127.0.0.1:{port}/x.git"), "bz-stop");
    let log = t.pbem.dir.path().join("daemon.log");
    let mut daemon = Started(pbem(&t, &["daemon"], &log));
    assert!(hole.wait_for_a_call(), "the daemon pushes at its start");
    let started = Instant::now();
    let pid = rustix::process::Pid::from_child(&daemon.0);
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    let status = daemon.0.wait().unwrap();
    let took = started.elapsed();
    let said = std::fs::read_to_string(&log).unwrap();
    assert_eq!(status.code(), Some(0), "{said}");
    assert!(said.contains("daemon-stop"), "{said}");
    assert!(took < Duration::from_secs(30), "stopped in {took:?}");
    assert_eq!(
        left_running(&format!("127.0.0.1:{port}")),
        Vec::<String>::new()
    );
    eprintln!("daemon stopped during a hanging push in {took:?}");
}
