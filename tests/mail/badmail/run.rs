//! Running one bad-mail case (tests/mail/badmail.rs): a fresh pbem in a
//! temporary folder, the mail delivered to its Maildir, the real `pbem
//! poll` with the clock pinned, then the checks of what it did.

use super::{ALICE, ALICE_KEY, BOB, BOB_KEY, MAX_RSS_MB, MAX_SECONDS, NOW, OUTSIDE};
use pbem::config::{Config, INIT};
use pbem::game::PerSide;
use pbem::mailbox::Maildir;
use pbem::record::{self, Record};
use pbem::store::{Challenge, Secrets, Store};
use rustix::process::{Pid, Signal, kill_process};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one poll did.
pub(super) struct Outcome {
    pub(super) name: String,
    pub(super) class: String,
    pub(super) replies: usize,
    pub(super) fate: String,
    pub(super) seconds: f64,
    pub(super) rss_mb: u64,
    pub(super) problems: Vec<String>,
}

fn write_game(store: &Store) {
    let text = format!(
        "format = 1\nrules = \"boom-and-zoom\"\nid = \"bz-test1\"\ncreated = 2026-11-19T08:00:00Z\n\
         first = \"black\"\nresult = \"*\"\n\n[players]\nblack = \"{ALICE}\"\nred = \"{BOB}\"\n\n\
         [play]\nmoves = \"\"\"\n\
         1. black 6-13  2026-11-19T09:17:00Z <bz1.1@example.org>\n\
         2. red   61-34 2026-11-19T11:33:00Z <bz1.2@example.org>\n\"\"\"\n"
    );
    let rec = Record::parse("bz-test1.toml", &text).unwrap();
    store
        .write_game("bz-test1", &record::write::to_string(&rec))
        .unwrap();
    let s = Secrets {
        tokens: PerSide::new(Some(ALICE_KEY.into()), Some(BOB_KEY.into())),
        ..Secrets::default()
    };
    store.write_secrets("bz-test1", rec.rules, &s).unwrap();
    store
        .write_challenge(
            "bz-chal1",
            &Challenge {
                rules: pbem::rules::Rules::BoomAndZoom,
                challenger: ALICE.into(),
                opponent: "bob@example.org".into(),
                challenger_side: pbem::game::Side::A,
                first: pbem::game::Side::A,
                created: "2026-11-19T08:00:00Z".parse().unwrap(),
                clock: None,
                source: None,
                series: None,
                rated: true,
                after: None,
            },
        )
        .unwrap();
    let s = Secrets {
        tokens: PerSide::new(Some("alicechal234".into()), Some("bobchal23456".into())),
        ..Secrets::default()
    };
    store
        .write_secrets("bz-chal1", pbem::rules::Rules::BoomAndZoom, &s)
        .unwrap();
}

/// Every file under `dir`, recursively.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.filter_map(Result::ok) {
        let p = e.path();
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Runs `pbem poll` as a child, measured: exit code (or `None` when a
/// signal ended it), seconds of CPU, peak RSS in MB. A poll that runs
/// past a minute is killed.
///
/// The peak RSS is the child's `VmHWM` in `/proc`, read every
/// millisecond while it runs: `wait4`'s `ru_maxrss` would not do, as
/// Linux counts in it the memory of the test process that spawned the
/// child (the address space `exec` replaced). Its CPU time (user and
/// system, all its threads, from `/proc/PID/stat`) is read alike, to the
/// last reading before it is reaped: the wall clock would also count
/// what other processes took of the cores.
fn measured(cmd: &mut Command) -> (Option<i32>, f64, u64) {
    let start = Instant::now();
    let mut child = cmd.spawn().expect("pbem runs");
    let pid = Pid::from_child(&child);
    let (done, watch) = std::sync::mpsc::channel::<()>();
    let watcher = std::thread::spawn(move || {
        let status = format!("/proc/{}/status", pid.as_raw_nonzero());
        let stat = format!("/proc/{}/stat", pid.as_raw_nonzero());
        let mut peak_kb = 0u64;
        let mut cpu_ticks = 0u64;
        loop {
            if let Some(ticks) = fs::read_to_string(&stat).ok().and_then(|s| cpu_of(&s)) {
                cpu_ticks = cpu_ticks.max(ticks);
            }
            if let Some(kb) = fs::read_to_string(&status).ok().and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            }) {
                peak_kb = peak_kb.max(kb);
            }
            match watch.recv_timeout(Duration::from_millis(1)) {
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                _ => break,
            }
            if start.elapsed() > Duration::from_secs(60) {
                // Our own child, not yet reaped: its pid is not reused.
                let _ = kill_process(pid, Signal::KILL);
            }
        }
        (peak_kb, cpu_ticks)
    });
    let waited = child.wait().expect("waiting for pbem");
    let _ = done.send(());
    let (peak_kb, cpu_ticks) = watcher.join().unwrap();
    let seconds = cpu_ticks as f64 / rustix::param::clock_ticks_per_second() as f64;
    let code = waited.code();
    (code, seconds, peak_kb / 1024)
}

/// User plus system time, in clock ticks, of a process's `/proc/PID/stat`
/// (its 14th and 15th fields; the name before them, in parentheses, may
/// hold spaces).
fn cpu_of(stat: &str) -> Option<u64> {
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    Some(ticks(11)? + ticks(12)?)
}

/// The class of a fate, for EXPECTED.tsv.
fn class_of(fate: &str) -> String {
    if let Some(why) = fate.strip_prefix("dropped") {
        let kind = [
            ("unreadable mail", "unreadable"),
            ("automated mail", "automated"),
            ("no usable From", "no-from"),
            ("sent by pbem itself", "own-mail"),
            ("is not a player", "stranger"),
            ("names unknown game", "unknown-game"),
        ]
        .iter()
        .find(|(k, _)| why.contains(k))
        .map_or("other", |(_, v)| v);
        return format!("dropped:{kind}");
    }
    if fate.starts_with("refused") {
        return "refused".into();
    }
    if fate.contains(" played ") {
        return "played".into();
    }
    "answered".into()
}

/// A fresh pbem three folders down in a temporary folder, the case's mail
/// in its inbox.
struct Site {
    top: tempfile::TempDir,
    /// pbem's folder: its config, data and mail folders.
    root: PathBuf,
    /// Where the path cases aim: nothing may appear in it.
    outside: PathBuf,
    /// The poll's stdout and stderr.
    logs: PathBuf,
    config_path: PathBuf,
    config: Config,
    /// The mail as delivered (the path cases name the real `outside/`).
    raw: Vec<u8>,
    /// Every file before the poll.
    before: Vec<PathBuf>,
}

/// The Maildir name the case's mail is delivered under.
const MAIL_NAME: &str = "1763632800.M1P1.badmail";

impl Site {
    fn new(raw: &[u8]) -> Site {
        let top = tempfile::tempdir().unwrap();
        // pbem lives three folders down; the cases aim at `outside/`, beside
        // them, and pbem runs from `cwd/`: nothing may appear in either.
        let root = top.path().join("a/b/c/pbem");
        let cwd = top.path().join("cwd");
        let outside = top.path().join("outside");
        let logs = top.path().join("logs");
        for d in [&root, &cwd, &outside, &logs] {
            fs::create_dir_all(d).unwrap();
        }
        let config_path = root.join("pbem.toml");
        fs::write(
            &config_path,
            INIT.replace("pbem@localhost", "pbem@example.net"),
        )
        .unwrap();
        let config = Config::load(&config_path).unwrap();
        let store = Store::open(&config.data).unwrap();
        write_game(&store);
        // The path cases name the real `outside/`.
        let raw = replace_bytes(
            raw,
            OUTSIDE.as_bytes(),
            outside.to_string_lossy().as_bytes(),
        );
        let before: Vec<PathBuf> = {
            let mut v = Vec::new();
            files(top.path(), &mut v);
            v
        };
        let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
        inbox.deliver(MAIL_NAME, &raw).unwrap();
        Site {
            top,
            root,
            outside,
            logs,
            config_path,
            config,
            raw,
            before,
        }
    }

    /// Runs `pbem poll` from `cwd/`, measured (see [`measured`]).
    fn poll(&self) -> (Option<i32>, f64, u64) {
        measured(
            Command::new(env!("CARGO_BIN_EXE_pbem"))
                .args(["poll", "--config"])
                .arg(&self.config_path)
                .current_dir(self.top.path().join("cwd"))
                .env("PBEM_NOW", NOW)
                .env("PBEM_LOG", "info")
                .env_remove("PBEM_CONFIG")
                .env_remove("RUST_LOG")
                .stdin(Stdio::null())
                .stdout(fs::File::create(self.logs.join("stdout")).unwrap())
                .stderr(fs::File::create(self.logs.join("stderr")).unwrap()),
        )
    }
}

pub(super) fn run(name: &str, raw: &[u8]) -> Outcome {
    let site = Site::new(raw);
    let (code, seconds, rss_mb) = site.poll();
    let stderr = fs::read_to_string(site.logs.join("stderr")).unwrap_or_default();
    let mut problems = Vec::new();
    match code {
        Some(0) | Some(1) => {}
        other => problems.push(format!("exit status {other:?}")),
    }
    if stderr.contains("panicked") {
        problems.push("pbem panicked".into());
    }
    let (replies, fate) = the_mail_line(&stderr, &mut problems);
    let class = class_of(&fate);
    if replies == 0 && !class.starts_with("dropped") && problems.is_empty() {
        problems.push(format!("no reply and no reason to drop it: {fate}"));
    }
    if !site
        .config
        .inbox
        .maildir
        .as_ref()
        .unwrap()
        .join("cur")
        .join(format!("{MAIL_NAME}:2,S"))
        .exists()
    {
        problems.push("the mail is not marked done".into());
    }
    check_files(&site, &mut problems);
    let sent = check_replies(&site, &mut problems);
    if sent != replies {
        problems.push(format!("{replies} replies logged, {sent} delivered"));
    }
    let limit = if cfg!(debug_assertions) {
        MAX_SECONDS * 5.0
    } else {
        MAX_SECONDS
    };
    if seconds > limit {
        problems.push(format!("took {seconds:.2} s of CPU (at most {limit} s)"));
    }
    if rss_mb > MAX_RSS_MB {
        problems.push(format!("used {rss_mb} MB (at most {MAX_RSS_MB} MB)"));
    }
    let fate = fate.replace(&site.outside.to_string_lossy().to_string(), OUTSIDE);
    Outcome {
        name: name.to_string(),
        class,
        replies,
        fate,
        seconds,
        rss_mb,
        problems,
    }
}

/// The mail's one log line: its replies and fate (a problem when there is
/// not exactly one).
fn the_mail_line(stderr: &str, problems: &mut Vec<String>) -> (usize, String) {
    let mail_lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(" mail key="))
        .collect();
    match mail_lines.as_slice() {
        [line] => (
            field(line, "replies")
                .and_then(|r| r.parse().ok())
                .unwrap_or(0),
            field(line, "fate").unwrap_or_default(),
        ),
        _ => {
            problems.push(format!(
                "{} mail log lines; stderr:\n{}",
                mail_lines.len(),
                stderr.chars().take(2000).collect::<String>()
            ));
            (0, String::new())
        }
    }
}

/// Files: only in the data folder and the mail folders.
fn check_files(site: &Site, problems: &mut Vec<String>) {
    let mut after = Vec::new();
    files(site.top.path(), &mut after);
    for p in &after {
        let ok = p.starts_with(site.root.join("data"))
            || p.starts_with(site.root.join("mail"))
            || p.starts_with(&site.logs)
            || site.before.contains(p);
        if !ok {
            problems.push(format!("a file outside the data folder: {}", p.display()));
        }
    }
}

/// Replies: delivered, clean headers, to an address the mail named. The
/// number of replies delivered.
fn check_replies(site: &Site, problems: &mut Vec<String>) -> usize {
    let named = String::from_utf8_lossy(&site.raw).to_lowercase();
    let mut sent = 0;
    let Ok(dirs) = fs::read_dir(site.root.join("mail/sent")) else {
        return sent;
    };
    for d in dirs.filter_map(Result::ok) {
        for f in fs::read_dir(d.path().join("new"))
            .unwrap()
            .filter_map(Result::ok)
        {
            sent += 1;
            let mail = fs::read(f.path()).unwrap();
            let msg = mail_parser::MessageParser::default().parse(&mail);
            let to = msg
                .as_ref()
                .and_then(|m| m.to())
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or("")
                .to_lowercase();
            // The Maildir sink writes LF line ends; the
            // check reads the mail as it was built, with CRLF.
            let built = String::from_utf8_lossy(&mail).replace('\n', "\r\n");
            if let Err(e) = pbem::mail::outbound::check_headers(built.as_bytes(), &to) {
                problems.push(format!("reply to {to}: {e}"));
            }
            if !named.contains(&to) && to != "alice@example.org" && to != "bob@example.org" {
                problems.push(format!("a reply to {to}, an address the mail never named"));
            }
            if d.file_name().to_string_lossy() != pbem::transport::folder_name(&to) {
                problems.push(format!("a reply to {to} in folder {:?}", d.file_name()));
            }
        }
    }
    sent
}

fn replace_bytes(hay: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(hay.len());
    let mut i = 0;
    while i < hay.len() {
        if hay[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(hay[i]);
            i += 1;
        }
    }
    out
}

/// A logfmt field's value, unquoted.
fn field(line: &str, key: &str) -> Option<String> {
    let start = line.find(&format!(" {key}="))? + key.len() + 2;
    let rest = &line[start..];
    if let Some(q) = rest.strip_prefix('"') {
        let mut v = String::new();
        let mut chars = q.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some('n') => v.push('\n'),
                    Some(c) => v.push(c),
                    None => break,
                },
                '"' => break,
                c => v.push(c),
            }
        }
        Some(v)
    } else {
        Some(rest.split(' ').next().unwrap_or("").to_string())
    }
}
