//! Mail pipeline benchmarks (issue 6), printed as one report beside the
//! disk's own limit, measured in the same run on the same file system:
//!
//! - **limit**: fsynced write+rename pairs per second, the way pbem writes
//!   a file (temporary file, write, fsync, rename, fsync of the folder);
//! - **throughput**: one poll (the real [`Poller`], in process) over a
//!   Maildir of move mails in running games (default 10,000 mails over
//!   1,000 games, half of them with a clock), processed durably; the
//!   replies are handed to a transport that takes them in memory, so what
//!   is measured is pbem's work up to the outbox, not a mail server's;
//! - **latency**: `pbem daemon` (a process, the Maildir transport) fed
//!   move mails at a steady rate: from the rename of a mail into the
//!   inbox's `new/` to the rename of its first reply into the recipient's
//!   Maildir `new/` (the transport's delivery done), seen with inotify;
//! - **replay**: the cost of a record of 10, 100 and 1,000 moves: parse
//!   and replay, and one move mail in that game;
//! - **scale**: data folders of 1,000, 10,000 and 100,000 running games
//!   with clocks: the time of `pbem games`, the cost of one move mail (a
//!   poll of one mail, in process), and the daemon's peak RSS (VmHWM).
//!
//! The engine's figures (perft, `pbem validate` and `pbem moves` as whole
//! processes) are in `benches/engine.rs`; the README's command runs both:
//! `cargo bench --bench engine --bench pipeline`.
//!
//! Sizes (environment): `PBEM_BENCH_MAILS`, `PBEM_BENCH_GAMES`,
//! `PBEM_BENCH_LATENCY_MAILS`, `PBEM_BENCH_RATE` (mails per second),
//! `PBEM_BENCH_SCALE` (comma-separated game counts), `PBEM_BENCH_DIR` (a
//! folder on the disk to measure; default: a temporary folder under
//! `target/`), `PBEM_BENCH_LIMIT_MS` (how long each limit run lasts),
//! `PBEM_BENCH_SAMPLES` (mails timed one by one). `PBEM_BENCH_QUICK=1`
//! runs small sizes to check the bench works;
//! `PBEM_BENCH_ONLY=throughput,latency,replay,scale` runs some sections.

use pbem::adjudicate::{Adjudicator, Identity};
use pbem::config::{Config, INIT};
use pbem::game::{self, Game, Side};
use pbem::mail::templates::Templates;
use pbem::mailbox::Maildir;
use pbem::poll::Poller;
use pbem::record::{self, Entry, MoveLine, Record};
use pbem::rules::Rules;
use pbem::store::{GameClock, Secrets, Store};
use pbem::timecontrol::{ClockState, TimeControl};
use pbem::transport::{SendError, Transport};
use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const PBEM: &str = env!("CARGO_BIN_EXE_pbem");

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().replace('_', "").parse().ok())
        .unwrap_or(default)
}

struct Sizes {
    quick: bool,
    mails: usize,
    games: usize,
    latency_mails: usize,
    rate: f64,
    scale: Vec<usize>,
    /// Move mails timed one by one at each scale and record length.
    samples: usize,
    limit_time: Duration,
}

impl Sizes {
    fn from_env() -> Sizes {
        let quick = std::env::var("PBEM_BENCH_QUICK").is_ok_and(|v| v != "0");
        let (mails, games, latency, rate, scale, samples) = if quick {
            (400, 40, 60, 40, "1000,3000", 5)
        } else {
            (10_000, 1_000, 1_000, 20, "1000,10000,100000", 15)
        };
        let scale = std::env::var("PBEM_BENCH_SCALE").unwrap_or_else(|_| scale.into());
        Sizes {
            quick,
            mails: env_usize("PBEM_BENCH_MAILS", mails),
            games: env_usize("PBEM_BENCH_GAMES", games).max(1),
            latency_mails: env_usize("PBEM_BENCH_LATENCY_MAILS", latency),
            rate: env_usize("PBEM_BENCH_RATE", rate).max(1) as f64,
            scale: scale
                .split(',')
                .filter_map(|s| s.trim().replace('_', "").parse().ok())
                .filter(|&n: &usize| n > 0)
                .collect(),
            samples: env_usize("PBEM_BENCH_SAMPLES", samples).max(1),
            limit_time: Duration::from_millis(env_usize(
                "PBEM_BENCH_LIMIT_MS",
                if quick { 1000 } else { 3000 },
            ) as u64),
        }
    }
}

fn wanted(section: &str) -> bool {
    match std::env::var("PBEM_BENCH_ONLY") {
        Ok(only) => only.split(',').any(|s| s.trim() == section),
        Err(_) => true,
    }
}

/// The value at `q` (0..=1) of sorted `v`.
fn quantile(v: &[f64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let i = ((v.len() - 1) as f64 * q).round() as usize;
    v[i.min(v.len() - 1)]
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

/// Flushes everything written so far, so that one section's dirty pages
/// are not paid for by the next one's fsyncs.
fn sync_disk() {
    // SAFETY: sync(2) takes no arguments and cannot fail.
    unsafe { libc::sync() };
}

// ---------------------------------------------------------------------------
// The disk's limit
// ---------------------------------------------------------------------------

/// Fsynced write+rename pairs per second in the data folder `data`, the
/// way pbem writes a record: a temporary file in `DATA/tmp/`, write 1 KB
/// (a record's size), fsync, rename over one of 100 files in a folder of
/// `DATA`, fsync that folder; for `time`. In the data folder itself, not
/// a fresh one: on some file systems what was made and removed there
/// lately changes what a file costs (ext4 without a journal skips inodes
/// freed in the last minutes one by one), and the limit must be the one
/// pbem's writes meet.
fn disk_limit(data: &Path, time: Duration) -> (f64, usize) {
    let tmp = data.join("tmp");
    let dir = data.join("limit");
    fs::create_dir_all(&tmp).unwrap();
    fs::create_dir_all(&dir).unwrap();
    let body = vec![b'x'; 1024];
    let folder = fs::File::open(&dir).unwrap();
    let t = Instant::now();
    let mut n = 0;
    while t.elapsed() < time {
        let temp = tmp.join(format!(".limit-{n}.tmp"));
        let mut f = fs::File::create(&temp).unwrap();
        f.write_all(&body).unwrap();
        f.sync_all().unwrap();
        fs::rename(&temp, dir.join(format!("r{}.toml", n % 100))).unwrap();
        folder.sync_all().unwrap();
        n += 1;
    }
    let rate = n as f64 / t.elapsed().as_secs_f64();
    fs::remove_dir_all(&dir).unwrap();
    (rate, n)
}

// ---------------------------------------------------------------------------
// Games and mails
// ---------------------------------------------------------------------------

fn first_of(rules: Rules) -> Side {
    rules.fixed_first().unwrap_or(Side::A)
}

/// A line of `plies` random legal moves, avoiding moves that end the game
/// while others exist; `None` when the game still ends sooner.
fn line_of<G: Game>(seed: u64, plies: usize) -> Option<Vec<String>> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = G::start(first_of(G::RULES));
    let mut out = Vec::with_capacity(plies);
    let mut moves = Vec::new();
    while out.len() < plies {
        moves.clear();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        rng.shuffle(&mut moves);
        let pick = moves
            .iter()
            .copied()
            .find(|&m| {
                let mut p = pos.clone();
                p.play_unchecked(m);
                game::outcome(&p).is_none()
            })
            .unwrap_or(moves[0]);
        out.push(game::canonical(&pos, pick));
        pos.play_unchecked(pick);
    }
    Some(out)
}

/// A line of `plies` moves of `rules`, trying seeds from `seed` on.
fn line(rules: Rules, seed: u64, plies: usize) -> Option<Vec<String>> {
    (seed..seed + 200).find_map(|s| pbem::with_game!(rules, G => line_of::<G>(s, plies)))
}

/// A line of `plies` moves of `rules`, or if none is found, of as many as
/// the game lasts (at least `least`).
fn line_upto(rules: Rules, seed: u64, plies: usize, least: usize) -> Vec<String> {
    line(rules, seed, plies)
        .or_else(|| {
            (least..plies)
                .rev()
                .step_by(10)
                .find_map(|p| line(rules, seed, p))
        })
        .or_else(|| line(rules, seed, least))
        .expect("a line long enough for the throughput mails")
}

fn players_of(rules: Rules, g: usize) -> (BTreeMap<String, String>, [String; 2]) {
    let who = [format!("p{g}a@example.org"), format!("p{g}b@example.org")];
    let mut map = BTreeMap::new();
    for s in Side::BOTH {
        map.insert(rules.side_name(s).to_string(), who[s.index()].clone());
    }
    (map, who)
}

/// A player's move mail, as a reply to pbem's last mail: the key in the
/// plus-address, `#N` before the move.
fn move_mail(id: &str, token: &str, who: &str, n: usize, mv: &str) -> (String, String) {
    let mid = format!("<{id}.move{n}@example.org>");
    let raw = format!(
        "From: {who}\r\nTo: pbem+{id}.{token}@localhost\r\nSubject: Re: [pbem {id}] move\r\n\
         Message-ID: {mid}\r\nDate: Sat, 21 Nov 2026 10:00:00 +0000\r\n\r\n#{n} {mv}\r\n"
    );
    (mid, raw)
}

/// A data folder with pbem.toml (the embedded default: a Maildir in,
/// Maildirs out) in `dir`.
fn data_folder(dir: &Path) -> (PathBuf, Config) {
    fs::create_dir_all(dir).unwrap();
    let path = dir.join("pbem.toml");
    fs::write(&path, INIT).unwrap();
    let config = Config::load(&path).unwrap();
    (path, config)
}

fn identity(config: &Config) -> Identity {
    Identity {
        address: config.address.clone(),
        name: config.name.clone(),
        trusted_authserv: None,
        admin: None,
        clocks: config.clock.clone(),
    }
}

/// The transport of the throughput run: takes each mail in memory.
#[derive(Default)]
struct Taken(AtomicUsize);

impl Transport for Taken {
    fn send(&self, _: &lettre::address::Envelope, _: &[u8]) -> Result<(), SendError> {
        self.0.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

/// One game the bench plays: its id, players, keys and line.
struct Played {
    id: String,
    rules: Rules,
    who: [String; 2],
    tokens: [String; 2],
    line: Vec<String>,
    /// Plies already sent.
    next: usize,
}

impl Played {
    /// The next move mail of this game, or `None` when its line is done.
    fn next_mail(&mut self) -> Option<(String, String)> {
        let mv = self.line.get(self.next)?;
        let side = if self.next.is_multiple_of(2) {
            first_of(self.rules)
        } else {
            first_of(self.rules).other()
        };
        self.next += 1;
        Some(move_mail(
            &self.id,
            &self.tokens[side.index()],
            &self.who[side.index()],
            self.next,
            mv,
        ))
    }
}

/// Writes a mail into `new/` without syncing (the setup, not measured).
fn drop_mail(inbox: &Path, name: &str, raw: &str) {
    fs::write(inbox.join("new").join(name), raw).unwrap();
}

/// Starts `games` games through the adjudicator (half with a 10-day
/// clock), each with a line of `plies` moves (at least `least` where the
/// game cannot last that long).
fn start_games(
    store: &Store,
    identity: &Identity,
    games: usize,
    plies: usize,
    least: usize,
) -> Vec<Played> {
    let templates = Templates::new(None);
    let adj = Adjudicator {
        store,
        identity,
        templates: &templates,
        now: pbem::clock::now(),
        challenges: Default::default(),
    };
    let mut lines: HashMap<Rules, Vec<Vec<String>>> = HashMap::new();
    (0..games)
        .map(|g| {
            let rules = Rules::ALL[g % Rules::ALL.len()];
            let id = format!("tp-{g:05}");
            let (map, who) = players_of(rules, g);
            let clock = (g % 2 == 0).then(|| "10d".parse::<TimeControl>().unwrap());
            adj.start_game(&id, rules, Some(first_of(rules)), map, clock)
                .unwrap();
            let secrets = store.secrets(&id).unwrap();
            let tokens = Side::BOTH.map(|s| secrets.tokens[rules.side_name(s)].clone());
            // A handful of lines per game kind, shared round-robin.
            let pool = lines.entry(rules).or_default();
            if pool.len() < 8 {
                pool.push(line_upto(
                    rules,
                    1000 + pool.len() as u64 * 977,
                    plies,
                    least,
                ));
            }
            let line = pool[g / Rules::ALL.len() % pool.len()].clone();
            Played {
                id,
                rules,
                who,
                tokens,
                line,
                next: 0,
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Throughput
// ---------------------------------------------------------------------------

struct Throughput {
    mails: usize,
    replies: usize,
    seconds: f64,
    /// User and system CPU time of the poll.
    cpu: (f64, f64),
}

/// This process's user and system CPU time so far, in seconds.
fn cpu_time() -> (f64, f64) {
    // SAFETY: getrusage(2) fills the struct we hand it.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    (secs(u.ru_utime), secs(u.ru_stime))
}

fn throughput(config: &Config, games: &mut [Played], mails: usize) -> Throughput {
    let store = Store::open(&config.data).unwrap();
    let identity = identity(config);
    let templates = Templates::new(None);
    let inbox_dir = config.inbox.maildir.clone().unwrap();
    let mut inbox = Maildir::open(&inbox_dir).unwrap();
    // Ply by ply, so that the games advance side by side (names sort
    // as the mails were written).
    let mut n = 0;
    'fill: for ply in 0.. {
        let mut any = false;
        for (g, p) in games.iter_mut().enumerate() {
            if n == mails {
                break 'fill;
            }
            if let Some((_, raw)) = p.next_mail() {
                drop_mail(&inbox_dir, &format!("{:05}.{g:05}.m", ply + 1), &raw);
                n += 1;
                any = true;
            }
        }
        if !any {
            break;
        }
    }
    sync_disk();
    let taken = Taken::default();
    let poller = Poller {
        store: &store,
        identity: &identity,
        templates: &templates,
        transport: &taken,
        limits: Default::default(),
    };
    let (cpu, t) = (cpu_time(), Instant::now());
    let report = poller.poll(&mut inbox, pbem::clock::now(), true).unwrap();
    let seconds = t.elapsed().as_secs_f64();
    let cpu = (cpu_time().0 - cpu.0, cpu_time().1 - cpu.1);
    assert!(
        report.errors.is_empty() && report.send_errors.is_empty(),
        "{:?} {:?}",
        &report.errors[..report.errors.len().min(3)],
        &report.send_errors[..report.send_errors.len().min(3)]
    );
    assert_eq!(report.handled, n, "every mail handled");
    assert_eq!(report.refused, 0, "no move refused: {:?}", &report.log[..3]);
    // Every move in its record.
    for p in games.iter() {
        let text = store.read_game(&p.id).unwrap().unwrap();
        let rec = Record::parse("x.toml", &text).unwrap();
        assert_eq!(rec.lines.len(), p.next, "{}", p.id);
    }
    Throughput {
        mails: n,
        replies: taken.0.load(Ordering::Relaxed),
        seconds,
        cpu,
    }
}

// ---------------------------------------------------------------------------
// The daemon
// ---------------------------------------------------------------------------

/// A running `pbem daemon`, stopped with SIGTERM when dropped.
struct Daemon {
    child: Child,
}

impl Daemon {
    fn start(config: &Path, log: &Path) -> Daemon {
        let child = Command::new(PBEM)
            .args(["daemon", "--config"])
            .arg(config)
            .env("PBEM_LOG", "info")
            .stdout(Stdio::null())
            .stderr(fs::File::create(log).unwrap())
            .spawn()
            .unwrap();
        Daemon { child }
    }

    /// Peak resident set size so far (VmHWM), in MB.
    fn peak_rss_mb(&self) -> f64 {
        let status = fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map(|kb| kb / 1024.0)
            .unwrap_or(f64::NAN)
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let _ = self.child.wait();
    }
}

/// Replies as the Maildir transport delivers them: inotify on the `new/`
/// of each recipient's Maildir, each reply known by its In-Reply-To.
struct Replies {
    inotify: inotify::Inotify,
    dirs: HashMap<inotify::WatchDescriptor, PathBuf>,
    buffer: Vec<u8>,
}

impl Replies {
    fn watch(sent: &Path, addresses: impl IntoIterator<Item = String>) -> Replies {
        let inotify = inotify::Inotify::init().unwrap();
        let mut dirs = HashMap::new();
        for a in addresses {
            let md = Maildir::open(sent.join(pbem::transport::folder_name(&a))).unwrap();
            let new = md.root().join("new");
            let wd = inotify
                .watches()
                .add(&new, inotify::WatchMask::MOVED_TO)
                .unwrap();
            dirs.insert(wd, new);
        }
        Replies {
            inotify,
            dirs,
            buffer: vec![0; 64 * 1024],
        }
    }

    /// The In-Reply-To of every reply delivered since the last call, with
    /// the time it was seen.
    fn arrived(&mut self) -> Vec<(String, Instant)> {
        let mut out = Vec::new();
        let Ok(events) = self.inotify.read_events(&mut self.buffer) else {
            return out;
        };
        let now = Instant::now();
        let paths: Vec<PathBuf> = events
            .filter_map(|e| Some(self.dirs.get(&e.wd)?.join(e.name?)))
            .collect();
        for p in paths {
            let Ok(raw) = fs::read_to_string(&p) else {
                continue;
            };
            let irt = raw
                .lines()
                .take_while(|l| !l.is_empty())
                .find_map(|l| l.strip_prefix("In-Reply-To: "))
                .map(|s| s.trim().to_string())
                .unwrap_or_default();
            out.push((irt, now));
        }
        out
    }

    /// Waits for the replies to `ids`, at most `limit`; the time of the
    /// first reply to each.
    fn wait_for(&mut self, ids: &[String], limit: Duration) -> HashMap<String, Instant> {
        let mut got = HashMap::new();
        let t = Instant::now();
        while got.len() < ids.len() && t.elapsed() < limit {
            for (irt, at) in self.arrived() {
                if ids.contains(&irt) {
                    got.entry(irt).or_insert(at);
                }
            }
            std::thread::sleep(Duration::from_micros(500));
        }
        got
    }
}

/// Delivers a mail the way an MTA does: written and synced in `tmp/`,
/// then renamed into `new/`; returns the time of the rename.
fn land(inbox: &Path, name: &str, raw: &str) -> Instant {
    let tmp = inbox.join("tmp").join(name);
    let mut f = fs::File::create(&tmp).unwrap();
    f.write_all(raw.as_bytes()).unwrap();
    f.sync_all().unwrap();
    let at = Instant::now();
    fs::rename(&tmp, inbox.join("new").join(name)).unwrap();
    at
}

/// Starts the daemon and waits for its first sweep: a `help` mail from
/// a stranger answered. Returns the daemon and the time to that answer.
fn start_daemon(config_path: &Path, config: &Config, replies: &mut Replies) -> (Daemon, f64) {
    let inbox = config.inbox.maildir.clone().unwrap();
    let log = config_path.with_file_name("daemon.log");
    let t = Instant::now();
    let daemon = Daemon::start(config_path, &log);
    let mid = format!("<warmup.{}@example.org>", t.elapsed().as_nanos());
    let raw = format!(
        "From: warmup@example.org\r\nTo: pbem@localhost\r\nSubject: help\r\nMessage-ID: {mid}\r\n\r\nhelp\r\n"
    );
    land(
        &inbox,
        &format!("warmup.{}", mid.len() + daemon.child.id() as usize),
        &raw,
    );
    let got = replies.wait_for(std::slice::from_ref(&mid), Duration::from_secs(600));
    assert!(
        got.contains_key(&mid),
        "the daemon did not answer (see {})",
        log.display()
    );
    (daemon, t.elapsed().as_secs_f64())
}

struct Latency {
    ms: Vec<f64>,
    lost: usize,
    rss_mb: f64,
}

/// Feeds the daemon `n` move mails at `rate` per second, round-robin over
/// the games, and times each one's first reply.
fn latency(
    config_path: &Path,
    config: &Config,
    games: &mut [Played],
    n: usize,
    rate: f64,
) -> Latency {
    let inbox = config.inbox.maildir.clone().unwrap();
    let sent = match &config.send {
        pbem::transport::SendConfig::Maildir { folder } => folder.clone(),
        other => panic!("the bench needs the Maildir transport, not {other:?}"),
    };
    let mut addresses: Vec<String> = games.iter().flat_map(|p| p.who.clone()).collect();
    addresses.push("warmup@example.org".into());
    let mut replies = Replies::watch(&sent, addresses);
    let (daemon, _) = start_daemon(config_path, config, &mut replies);
    // The mails, made before the clock starts.
    let mut mails = Vec::with_capacity(n);
    let mut g = 0;
    while mails.len() < n {
        let k = games.len();
        if let Some(m) = games[g % k].next_mail() {
            mails.push((format!("lat{:06}.{}", mails.len(), g % k), m));
        }
        g += 1;
        assert!(g < n * 2 + k * 1000, "the games' lines are too short");
    }
    let ids: Vec<String> = mails.iter().map(|(_, (mid, _))| mid.clone()).collect();
    let gap = Duration::from_secs_f64(1.0 / rate);
    let sender = {
        let inbox = inbox.clone();
        std::thread::spawn(move || {
            let start = Instant::now();
            let mut landed = HashMap::new();
            for (i, (name, (mid, raw))) in mails.into_iter().enumerate() {
                let due = start + gap * i as u32;
                if let Some(wait) = due.checked_duration_since(Instant::now()) {
                    std::thread::sleep(wait);
                }
                landed.insert(mid, land(&inbox, &name, &raw));
            }
            landed
        })
    };
    let mut got = HashMap::new();
    let deadline = Duration::from_secs_f64(n as f64 / rate + 60.0);
    let t = Instant::now();
    while got.len() < ids.len() && t.elapsed() < deadline {
        for (irt, at) in replies.arrived() {
            got.entry(irt).or_insert(at);
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    let landed = sender.join().unwrap();
    let ms: Vec<f64> = ids
        .iter()
        .filter_map(|id| Some(got.get(id)?.duration_since(landed[id]).as_secs_f64() * 1000.0))
        .collect();
    Latency {
        lost: ids.len() - ms.len(),
        ms: sorted(ms),
        rss_mb: daemon.peak_rss_mb(),
    }
}

// ---------------------------------------------------------------------------
// Scale: many games on disk
// ---------------------------------------------------------------------------

/// Plies in each game of a scale folder.
const SCALE_PLIES: usize = 10;

struct Scale {
    games: usize,
    build_s: f64,
    first_poll_s: f64,
    list_s: f64,
    listed: usize,
    move_ms: Vec<f64>,
    daemon_first_s: f64,
    daemon_move_ms: Vec<f64>,
    rss_mb: f64,
}

/// A data folder of `n` running games with 30-day clocks, each with
/// [`SCALE_PLIES`] moves played, written straight to disk (one record,
/// secrets and clock file per game, and the keys of the mails that played
/// the moves committed, as a server that saw them would have; the setup,
/// not measured).
fn scale_folder(dir: &Path, n: usize) -> (PathBuf, Config, Vec<Played>) {
    let (path, config) = data_folder(dir);
    let store = Store::open(&config.data).unwrap();
    let now = pbem::clock::now();
    let t0 = now - chrono::Duration::days(1);
    let control: TimeControl = "30d".parse().unwrap();
    let protos: Vec<(Rules, Vec<String>)> = Rules::ALL
        .iter()
        .map(|&r| (r, line(r, 7, SCALE_PLIES + 40).unwrap()))
        .collect();
    let mut played = Vec::new();
    let mut keys = Vec::new();
    for g in 0..n {
        let (rules, line) = &protos[g % protos.len()];
        let rules = *rules;
        let id = format!("sc-{g:06}");
        let (players, who) = players_of(rules, g);
        let first = first_of(rules);
        let mut state = ClockState::new(control, first, t0);
        let lines: Vec<MoveLine> = line[..SCALE_PLIES]
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let at = t0 + chrono::Duration::minutes(i as i64 + 1);
                state.on_move(at).unwrap();
                MoveLine {
                    line: 0,
                    number: Some(i as u32 + 1),
                    side: Some(if i % 2 == 0 { first } else { first.other() }),
                    entry: Entry::Move(m.clone()),
                    time: Some(at.fixed_offset()),
                    message_id: Some(format!("<{id}.move{}@example.org>", i + 1)),
                }
            })
            .collect();
        keys.extend(lines.iter().filter_map(|l| l.message_id.clone()));
        let rec = Record {
            file: format!("{id}.toml"),
            format: Some(1),
            rules,
            id: Some(id.clone()),
            created: Some(t0.fixed_offset()),
            first: Some(first),
            result: Some(("*".into(), 0)),
            players,
            lines,
        };
        let tokens = [format!("ka{g}"), format!("kb{g}")];
        let secrets = Secrets {
            tokens: Side::BOTH
                .iter()
                .map(|&s| (rules.side_name(s).to_string(), tokens[s.index()].clone()))
                .collect(),
            ..Secrets::default()
        };
        let clock = GameClock {
            lines: SCALE_PLIES,
            state: state.clone(),
        };
        let root = store.root();
        fs::write(
            root.join("games").join(format!("{id}.toml")),
            record::write::to_string(&rec),
        )
        .unwrap();
        fs::write(
            root.join("secrets").join(format!("{id}.toml")),
            toml::to_string(&secrets).unwrap(),
        )
        .unwrap();
        fs::write(
            root.join("clocks").join(format!("{id}.toml")),
            toml::to_string(&clock).unwrap(),
        )
        .unwrap();
        played.push(Played {
            id,
            rules,
            who,
            tokens,
            line: line.clone(),
            next: SCALE_PLIES,
        });
    }
    let batch = store.batch().unwrap();
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    batch.mark_processed_all(&keys).unwrap();
    sync_disk();
    (path, config, played)
}

/// Times `samples` move mails, each alone in a poll (in process, durable),
/// in games spread over `games`; returns the poll times in ms.
fn one_move_polls(config: &Config, games: &mut [Played], picks: &[usize]) -> Vec<f64> {
    let store = Store::open(&config.data).unwrap();
    let identity = identity(config);
    let templates = Templates::new(None);
    let inbox_dir = config.inbox.maildir.clone().unwrap();
    let mut inbox = Maildir::open(&inbox_dir).unwrap();
    let taken = Taken::default();
    let poller = Poller {
        store: &store,
        identity: &identity,
        templates: &templates,
        transport: &taken,
        limits: Default::default(),
    };
    let mut out = Vec::new();
    for (i, &g) in picks.iter().enumerate() {
        let (_, raw) = games[g].next_mail().expect("a line long enough");
        drop_mail(&inbox_dir, &format!("one{i:04}.{g}"), &raw);
        let t = Instant::now();
        let report = poller.poll(&mut inbox, pbem::clock::now(), true).unwrap();
        out.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(
            report.handled == 1 && report.refused == 0 && report.errors.is_empty(),
            "{report:?}"
        );
    }
    out
}

fn scale(dir: &Path, n: usize, samples: usize) -> Scale {
    let t = Instant::now();
    let (path, config, mut games) = scale_folder(dir, n);
    let build_s = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let out = Command::new(PBEM)
        .args(["games", "--config"])
        .arg(&path)
        .stderr(Stdio::null())
        .output()
        .unwrap();
    let list_s = t.elapsed().as_secs_f64();
    assert!(out.status.success());
    let listed = out.stdout.iter().filter(|&&b| b == b'\n').count();

    // The first poll of a data folder (an upgrade: it builds the deadline
    // index from every clock), with no mail.
    let first_poll_s = {
        let store = Store::open(&config.data).unwrap();
        let identity = identity(&config);
        let templates = Templates::new(None);
        let mut inbox = Maildir::open(config.inbox.maildir.clone().unwrap()).unwrap();
        let taken = Taken::default();
        let poller = Poller {
            store: &store,
            identity: &identity,
            templates: &templates,
            transport: &taken,
            limits: Default::default(),
        };
        let t = Instant::now();
        let r = poller.poll(&mut inbox, pbem::clock::now(), true).unwrap();
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        t.elapsed().as_secs_f64()
    };

    let picks: Vec<usize> = (0..samples).map(|i| i * n / samples).collect();
    let move_ms = sorted(one_move_polls(&config, &mut games, &picks));

    let sent = match &config.send {
        pbem::transport::SendConfig::Maildir { folder } => folder.clone(),
        _ => unreachable!(),
    };
    let daemon_picks: Vec<usize> = (0..samples.min(5)).map(|i| (i * n / 5 + 1) % n).collect();
    let addresses = daemon_picks
        .iter()
        .flat_map(|&g| games[g].who.clone())
        .chain(["warmup@example.org".to_string()]);
    let mut replies = Replies::watch(&sent, addresses);
    let (daemon, daemon_first_s) = start_daemon(&path, &config, &mut replies);
    let inbox = config.inbox.maildir.clone().unwrap();
    let mut daemon_move_ms = Vec::new();
    for (i, &g) in daemon_picks.iter().enumerate() {
        let (mid, raw) = games[g].next_mail().unwrap();
        let at = land(&inbox, &format!("d{i:03}.{g}"), &raw);
        let got = replies.wait_for(std::slice::from_ref(&mid), Duration::from_secs(600));
        daemon_move_ms.push(got[&mid].duration_since(at).as_secs_f64() * 1000.0);
    }
    let rss_mb = daemon.peak_rss_mb();
    drop(daemon);
    Scale {
        games: n,
        build_s,
        first_poll_s,
        list_s,
        listed,
        move_ms,
        daemon_first_s,
        daemon_move_ms: sorted(daemon_move_ms),
        rss_mb,
    }
}

// ---------------------------------------------------------------------------
// Replay: records of 10, 100, 1,000 moves
// ---------------------------------------------------------------------------

struct ReplayRow {
    plies: usize,
    replay_us: f64,
    move_ms: Vec<f64>,
}

/// A game kind whose random lines reach 1,000 moves (most games end
/// sooner), with the line.
fn long_line(plies: usize) -> Option<(Rules, Vec<String>)> {
    Rules::ALL.iter().find_map(|&r| {
        (0..40)
            .find_map(|s| pbem::with_game!(r, G => line_of::<G>(s, plies)))
            .map(|l| (r, l))
    })
}

fn replay_rows(dir: &Path, samples: usize) -> (Rules, Vec<ReplayRow>) {
    let lengths = [10, 100, 1000];
    let (rules, long) = long_line(1000 + samples).expect("a game that lasts 1,000 moves");
    let (_, config) = data_folder(dir);
    let store = Store::open(&config.data).unwrap();
    let now = pbem::clock::now();
    let t0 = now - chrono::Duration::days(30);
    let mut games = Vec::new();
    let mut texts = Vec::new();
    for (k, &plies) in lengths.iter().enumerate() {
        let id = format!("rp-{plies}");
        let (players, who) = players_of(rules, k);
        let first = first_of(rules);
        let lines = long[..plies]
            .iter()
            .enumerate()
            .map(|(i, m)| MoveLine {
                line: 0,
                number: Some(i as u32 + 1),
                side: Some(if i % 2 == 0 { first } else { first.other() }),
                entry: Entry::Move(m.clone()),
                time: Some((t0 + chrono::Duration::minutes(i as i64)).fixed_offset()),
                message_id: Some(format!("<{id}.move{}@example.org>", i + 1)),
            })
            .collect();
        let rec = Record {
            file: format!("{id}.toml"),
            format: Some(1),
            rules,
            id: Some(id.clone()),
            created: Some(t0.fixed_offset()),
            first: Some(first),
            result: Some(("*".into(), 0)),
            players,
            lines,
        };
        let text = record::write::to_string(&rec);
        store.write_game(&id, &text).unwrap();
        let tokens = [format!("ka{k}"), format!("kb{k}")];
        let mut secrets = Secrets::default();
        for s in Side::BOTH {
            secrets
                .tokens
                .insert(rules.side_name(s).to_string(), tokens[s.index()].clone());
        }
        store.write_secrets(&id, &secrets).unwrap();
        games.push(Played {
            id,
            rules,
            who,
            tokens,
            line: long.clone(),
            next: plies,
        });
        texts.push(text);
    }
    let rows = lengths
        .iter()
        .enumerate()
        .map(|(k, &plies)| {
            let t = Instant::now();
            let mut runs = 0u32;
            while t.elapsed() < Duration::from_millis(300) {
                let rec = Record::parse("x.toml", &texts[k]).unwrap();
                let n =
                    pbem::with_game!(rules, G => record::replay::<G>(&rec).unwrap().moves.len());
                assert_eq!(n, plies);
                runs += 1;
            }
            let replay_us = t.elapsed().as_secs_f64() * 1e6 / f64::from(runs);
            let move_ms = sorted(one_move_polls(&config, &mut games, &vec![k; samples]));
            ReplayRow {
                plies,
                replay_us,
                move_ms,
            }
        })
        .collect();
    (rules, rows)
}

// ---------------------------------------------------------------------------

fn fs_type(dir: &Path) -> String {
    Command::new("findmnt")
        .args(["-n", "-o", "FSTYPE,SOURCE", "-T"])
        .arg(dir)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

fn main() {
    let sizes = Sizes::from_env();
    let base = std::env::var_os("PBEM_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")));
    fs::create_dir_all(&base).unwrap();
    let root = tempfile::Builder::new()
        .prefix("pbem-pipeline-")
        .tempdir_in(&base)
        .unwrap();
    let dir = root.path();
    println!(
        "pbem pipeline bench (issue 6){}: data folders under {} ({})",
        if sizes.quick { ", QUICK sizes" } else { "" },
        dir.display(),
        fs_type(dir)
    );
    let mut misses = Vec::new();

    let tp_dir = dir.join("throughput");
    let (tp_config_path, tp_config) = data_folder(&tp_dir);
    let per_game = sizes.mails.div_ceil(sizes.games);
    let later = sizes.latency_mails.div_ceil(sizes.games) + 2;
    let mut tp_games = Vec::new();
    if wanted("throughput") || wanted("latency") {
        let t = Instant::now();
        let store = Store::open(&tp_config.data).unwrap();
        tp_games = start_games(
            &store,
            &identity(&tp_config),
            sizes.games,
            per_game + later,
            per_game,
        );
        println!(
            "\nsetup      {} games started through the adjudicator (half with a 10d clock) in {:.1} s",
            sizes.games,
            t.elapsed().as_secs_f64()
        );
    }
    let mut limits = Vec::new();
    if wanted("limit") || wanted("throughput") {
        sync_disk();
        let (rate, n) = disk_limit(&tp_config.data, sizes.limit_time);
        println!(
            "limit      {rate:>8.0} fsynced write+rename pairs/s ({n} pairs in the data folder: temp file in DATA/tmp, write 1 KB, fsync, rename, fsync folder)"
        );
        limits.push(rate);
    }
    if wanted("throughput") {
        let tp = throughput(&tp_config, &mut tp_games, sizes.mails);
        let rate = tp.mails as f64 / tp.seconds;
        // The limit again, after; the ratio is taken to their mean.
        let (after, _) = disk_limit(&tp_config.data, sizes.limit_time);
        limits.push(after);
        let limit = limits.iter().sum::<f64>() / limits.len() as f64;
        println!(
            "throughput {rate:>8.0} mails/s: {} move mails in {} games, one poll of {:.2} s ({:.2} s user + {:.2} s system CPU), {} replies handed to the transport",
            tp.mails, sizes.games, tp.seconds, tp.cpu.0, tp.cpu.1, tp.replies
        );
        println!(
            "           = {:.2} x the limit ({limit:.0} pairs/s: the mean of before and after, {}); target >= 0.5",
            rate / limit,
            limits
                .iter()
                .map(|l| format!("{l:.0}"))
                .collect::<Vec<_>>()
                .join(" and ")
        );
        let (lo, hi) = (
            limits.iter().copied().fold(f64::MAX, f64::min),
            limits.iter().copied().fold(0.0, f64::max),
        );
        if hi > 1.5 * lo {
            println!(
                "           WARNING: the disk's limit changed by {:.1}x during the run (other load on the machine): the ratio is unreliable",
                hi / lo
            );
        }
        if rate / limit < 0.5 {
            misses.push(format!("throughput {:.2} x the limit < 0.5", rate / limit));
        }
    }
    if wanted("latency") {
        let lat = latency(
            &tp_config_path,
            &tp_config,
            &mut tp_games,
            sizes.latency_mails,
            sizes.rate,
        );
        let p99 = quantile(&lat.ms, 0.99);
        println!(
            "latency    p50 {:.1} ms, p90 {:.1} ms, p99 {p99:.1} ms, max {:.1} ms over {} mails at {}/s into `pbem daemon` ({} games; {} unanswered; daemon VmHWM {:.1} MB); target p99 < 1000 ms",
            quantile(&lat.ms, 0.5),
            quantile(&lat.ms, 0.9),
            lat.ms.last().copied().unwrap_or(f64::NAN),
            lat.ms.len(),
            sizes.rate,
            sizes.games,
            lat.lost,
            lat.rss_mb
        );
        println!(
            "           (mail renamed into the inbox's new/ -> first reply renamed into the player's Maildir new/ by the Maildir transport)"
        );
        if p99.is_nan() || p99 >= 1000.0 || lat.lost > 0 {
            misses.push(format!("latency p99 {p99:.0} ms, {} unanswered", lat.lost));
        }
    }
    drop(tp_games);
    let _ = fs::remove_dir_all(&tp_dir);

    if wanted("replay") {
        let (rules, rows) = replay_rows(&dir.join("replay"), sizes.samples);
        println!(
            "\nreplay: one {} game at three lengths\n{:>6} {:>16} {:>22}",
            rules.slug(),
            "moves",
            "parse+replay us",
            "1 move/poll ms p50"
        );
        for r in &rows {
            println!(
                "{:>6} {:>16.0} {:>13.2} (p90 {:.2})",
                r.plies,
                r.replay_us,
                quantile(&r.move_ms, 0.5),
                quantile(&r.move_ms, 0.9)
            );
        }
    }

    if wanted("scale") && !sizes.scale.is_empty() {
        println!(
            "\nscale: running games on disk ({SCALE_PLIES} moves each, all with a 30d clock)\n{:>8} {:>9} {:>13} {:>12} {:>18} {:>16} {:>18} {:>10}",
            "games",
            "build s",
            "first poll s",
            "`games` s",
            "1 move/poll ms",
            "daemon start s",
            "daemon move ms",
            "VmHWM MB"
        );
        for &n in &sizes.scale {
            let sdir = dir.join(format!("scale-{n}"));
            let s = scale(&sdir, n, sizes.samples);
            assert_eq!(s.listed, s.games, "`pbem games` lists every game");
            println!(
                "{:>8} {:>9.1} {:>13.2} {:>12.2} {:>9.1} (p90 {:>5.1}) {:>16.2} {:>9.1} (max {:>5.1}) {:>10.1}",
                s.games,
                s.build_s,
                s.first_poll_s,
                s.list_s,
                quantile(&s.move_ms, 0.5),
                quantile(&s.move_ms, 0.9),
                s.daemon_first_s,
                quantile(&s.daemon_move_ms, 0.5),
                s.daemon_move_ms.last().copied().unwrap_or(f64::NAN),
                s.rss_mb
            );
            let _ = fs::remove_dir_all(&sdir);
        }
        println!(
            "(first poll: no mail, builds the deadline index from every clock once; 1 move/poll: one move mail alone in a poll,\n in process, durable; daemon start: to the answer of a first mail; daemon move: as latency above, one mail at a time)"
        );
    }

    println!(
        "\ntargets: throughput >= 0.5 x the limit; daemon p99 < 1 s; engine: `cargo bench --bench engine`"
    );
    if misses.is_empty() {
        println!("all targets met");
    } else {
        for m in misses {
            println!("MISSED {m}");
        }
    }
}
