//! Mail pipeline benchmarks, printed as one report beside the
//! disk's own limit, measured in the same run on the same file system:
//!
//! - **limit**: fsynced write+rename pairs per second, the way pbem writes
//!   a file (temporary file, write, fsync, rename, fsync of the folder);
//! - **throughput**: one poll (the real [`Poller`], in process) over a
//!   Maildir of move mails in running games (default 10,000 mails over
//!   1,000 games, half of them with a clock), processed durably; twice:
//!   the replies handed to a transport that takes them in memory (pbem's
//!   work up to the outbox, not a mail server's), then delivered into a
//!   Maildir per player (the embedded default transport);
//! - **latency**: `pbem daemon` (a process, the Maildir transport) fed
//!   move mails at a steady rate: from the rename of a mail into the
//!   inbox's `new/` to the rename of its first reply into the recipient's
//!   Maildir `new/` (the transport's delivery done), seen with inotify;
//! - **replay**: the cost of a record of 10, 100 and 1,000 moves: parse
//!   and replay, and one move mail in that game;
//! - **scale**: data folders of 1,000, 10,000 and 100,000 running games
//!   with clocks: the first poll, the time of `pbem games` (with its index
//!   and rebuilding it), the cost of one move mail (a poll of one mail, in
//!   process), and the daemon's peak RSS (VmHWM);
//! - **process**: one move mail as a whole process (`pbem deliver`, as an
//!   MTA pipe runs it, and `pbem poll` finding one mail, on a quiet disk
//!   and while another writer fills the same file system) at 1,000 and
//!   100,000 games, beside `/bin/true` and `pbem --version`.
//!
//! The engine's figures (perft, `pbem validate` and `pbem moves` as whole
//! processes) are in `engine/benches/engine.rs`; docs/src/performance.md runs both:
//! `cargo bench --bench engine --bench pipeline`.
//!
//! Sizes (environment): `PBEM_BENCH_MAILS`, `PBEM_BENCH_GAMES`,
//! `PBEM_BENCH_PAIRS` (the players from so many pairs; 1: as in the
//! example records, every game Alice's and Bob's),
//! `PBEM_BENCH_LATENCY_MAILS`, `PBEM_BENCH_RATE` (mails per second),
//! `PBEM_BENCH_SCALE` (comma-separated game counts), `PBEM_BENCH_DIR` (a
//! folder on the disk to measure; default: a temporary folder under
//! `target/`), `PBEM_BENCH_LIMIT_MS` (how long each limit run lasts),
//! `PBEM_BENCH_SAMPLES` (mails timed one by one), `PBEM_BENCH_PROCESS`
//! (comma-separated game counts), `PBEM_BENCH_RUNS` (processes timed per
//! kind of run), `PBEM_BENCH_KEEP=1` (keep the scale section's folders
//! and take them again next time, see benches/pipeline/scale.rs; keep the
//! process section's folder, as `pbem-process-<games>`, made anew each run,
//! to profile one mail in it).
//! `PBEM_BENCH_QUICK=1` runs small sizes to check the bench works;
//! `PBEM_BENCH_ANNOUNCE=1` says on standard error when a throughput poll
//! starts, for a profiler to attach to it alone. `PBEM_BENCH_ONLY=
//! throughput,latency,replay,scale,process` runs some sections;
//! `PBEM_BENCH_REPLIES=memory` or `maildir` one of the two throughput runs.

use pbem::adjudicate::{Adjudicator, Desk};
use pbem::config::{Config, INIT};
use pbem::game::{self, Game, PerSide, Side};
use pbem::mail::templates::Templates;
use pbem::mailbox::Maildir;
use pbem::poll::OsRandom;
use pbem::poll::Poller;
use pbem::record::{self, Entry, MoveLine, Record};
use pbem::reply::Identity;
use pbem::rules::Rules;
use pbem::store::{GameClock, Secrets, SecretsFile, Store};
use pbem::timecontrol::{ClockState, TimeControl};
use pbem::transport::maildir::MaildirSink;
use pbem::transport::{SendError, Transport};
use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

mod daemon;
mod limit;
mod process;
mod replay;
mod scale;

use daemon::*;
use limit::*;
use process::*;
use replay::*;
use scale::*;

const PBEM: &str = env!("CARGO_BIN_EXE_pbem");

fn env_usize(name: &str, default: usize) -> usize {
    let value = std::env::var(name).ok();
    (value.and_then(|v| v.trim().replace('_', "").parse().ok())).unwrap_or(default)
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
    /// The data folder sizes of the process section, and its runs.
    process: Vec<usize>,
    runs: usize,
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
        let process = if quick { "1000" } else { "1000,100000" };
        let process = std::env::var("PBEM_BENCH_PROCESS").unwrap_or_else(|_| process.into());
        let counts = |list: &str| -> Vec<usize> {
            list.split(',')
                .filter_map(|s| s.trim().replace('_', "").parse().ok())
                .filter(|&n: &usize| n > 0)
                .collect()
        };
        Sizes {
            quick,
            mails: env_usize("PBEM_BENCH_MAILS", mails),
            games: env_usize("PBEM_BENCH_GAMES", games).max(1),
            latency_mails: env_usize("PBEM_BENCH_LATENCY_MAILS", latency),
            rate: env_usize("PBEM_BENCH_RATE", rate).max(1) as f64,
            scale: counts(&scale),
            process: counts(&process),
            runs: env_usize("PBEM_BENCH_RUNS", if quick { 10 } else { 40 }).max(1),
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
    rustix::fs::sync();
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

fn players_of(g: usize) -> (PerSide<String>, [String; 2]) {
    let g = g % env_usize("PBEM_BENCH_PAIRS", usize::MAX);
    let who = [format!("p{g}a@example.org"), format!("p{g}b@example.org")];
    (PerSide(who.clone()), who)
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
/// Maildirs out; no analysis) in `dir`.
fn data_folder(dir: &Path) -> (PathBuf, Config) {
    fs::create_dir_all(dir).unwrap();
    let path = dir.join("pbem.toml");
    // The mail path alone: no analysis of the games that end (it runs
    // after the mail, in the bot's think time, not on the mail path).
    fs::write(&path, format!("{INIT}\n[bot]\nanalysis_nodes = 0\n")).unwrap();
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
        bot: Default::default(),
        takebacks: config.takebacks_per_game,
    }
}

/// The transport of the throughput run: takes each mail in memory.
#[derive(Default)]
struct Taken(AtomicUsize);

impl Transport for Taken {
    fn shared(&self) -> Option<&(dyn Transport + Sync)> {
        Some(self)
    }

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
        desk: Desk::new(store),
        draw: &OsRandom,
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
            let (map, who) = players_of(g);
            let clock = (g % 2 == 0).then(|| "10d".parse::<TimeControl>().unwrap());
            let ((), effects) = adj
                .decide(|a| {
                    a.start_game(
                        &id,
                        rules,
                        Some(first_of(rules)),
                        map,
                        clock,
                        Default::default(),
                    )
                })
                .unwrap();
            store.apply_effects(&effects).unwrap();
            let secrets = store.secrets(&id, rules).unwrap();
            let tokens = Side::BOTH.map(|s| secrets.tokens[s].clone().unwrap());
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

/// Two times of /proc/self/stat, fields `a` and `b` (numbered from 1 as
/// proc(5) does), in seconds: the fields after the command's name in
/// parentheses (which may hold spaces) are in clock ticks.
fn stat_seconds(a: usize, b: usize) -> (f64, f64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    // `after` starts at field 3 (the state).
    let field = |n: usize| {
        after
            .split_whitespace()
            .nth(n - 3)
            .and_then(|t| t.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let tick = rustix::param::clock_ticks_per_second() as f64;
    (field(a) / tick, field(b) / tick)
}

/// This process's user and system CPU time so far, in seconds (utime
/// and stime).
pub(crate) fn cpu_time() -> (f64, f64) {
    stat_seconds(14, 15)
}

/// What an in-process poll of the bench needs: the data folder's store,
/// pbem's identity, the built-in templates, and a transport that takes
/// each reply in memory.
struct InProcess {
    store: Store,
    identity: Identity,
    templates: Templates,
    taken: Taken,
    /// When set, replies are delivered into Maildirs under this folder
    /// (the embedded default transport) instead of taken in memory.
    sink: Option<MaildirSink>,
}

impl InProcess {
    fn new(config: &Config) -> InProcess {
        InProcess {
            store: Store::open(&config.data).unwrap(),
            identity: identity(config),
            templates: Templates::new(None),
            taken: Taken::default(),
            sink: None,
        }
    }

    fn poller(&self) -> Poller<'_> {
        Poller {
            store: &self.store,
            identity: &self.identity,
            templates: &self.templates,
            transport: match &self.sink {
                Some(sink) => sink,
                None => &self.taken,
            },
            limits: Default::default(),
            history: None,
        }
    }
}

/// The mails delivered into the Maildirs under `folder`.
fn delivered(folder: &Path) -> usize {
    fs::read_dir(folder).map_or(0, |boxes| {
        boxes
            .flatten()
            .filter_map(|b| fs::read_dir(b.path().join("new")).ok())
            .map(Iterator::count)
            .sum()
    })
}

/// One poll over `mails` move mails of `games`; replies delivered into
/// Maildirs under `sink`, or taken in memory.
fn throughput(
    config: &Config,
    games: &mut [Played],
    mails: usize,
    sink: Option<&Path>,
) -> Throughput {
    let mut run = InProcess::new(config);
    run.sink = sink.map(MaildirSink::new);
    let store = &run.store;
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
    let poller = run.poller();
    if std::env::var_os("PBEM_BENCH_ANNOUNCE").is_some() {
        // For a profiler to attach to the poll alone (`perf record -p`),
        // and to stop when it ends.
        eprintln!("throughput: the poll starts (pid {})", std::process::id());
    }
    let (cpu, t) = (cpu_time(), Instant::now());
    let report = poller.poll(&mut inbox, pbem::clock::now(), true).unwrap();
    let seconds = t.elapsed().as_secs_f64();
    let cpu = (cpu_time().0 - cpu.0, cpu_time().1 - cpu.1);
    if std::env::var_os("PBEM_BENCH_ANNOUNCE").is_some() {
        eprintln!("throughput: the poll ends");
        // Time for the profiler to let go before the checks that follow.
        std::thread::sleep(Duration::from_secs(2));
    }
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
        replies: sink.map_or(run.taken.0.load(Ordering::Relaxed), delivered),
        seconds,
        cpu,
    }
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

/// The games of the throughput and latency sections, started through
/// the adjudicator (half with a 10d clock).
fn setup(sizes: &Sizes, tp_config: &Config) -> Vec<Played> {
    // Two runs of the throughput section: replies taken in memory, then
    // delivered into Maildirs.
    let per_game = 2 * sizes.mails.div_ceil(sizes.games);
    let later = sizes.latency_mails.div_ceil(sizes.games) + 2;
    let t = Instant::now();
    let store = Store::open(&tp_config.data).unwrap();
    let games = start_games(
        &store,
        &identity(tp_config),
        sizes.games,
        per_game + later,
        per_game,
    );
    println!(
        "\nsetup      {} games started through the adjudicator (half with a 10d clock) in {:.1} s",
        sizes.games,
        t.elapsed().as_secs_f64()
    );
    games
}

/// The throughput targets: the share of the disk's limit, and the CPU
/// time of one move mail (two replies rendered).
const TARGET_SHARE: f64 = 0.7;
const TARGET_CPU_MS: f64 = 0.5;

/// Throughput: one poll over the Maildir with the replies taken in
/// memory, then one with them delivered into Maildirs; each against the
/// disk's limit measured before it (the last of `limits`) and after.
fn report_throughput(
    sizes: &Sizes,
    tp_config: &Config,
    tp_games: &mut [Played],
    limits: &mut Vec<Limit>,
    misses: &mut Vec<String>,
) {
    // The data folder's own transport, the embedded default: a Maildir
    // per player under the folder pbem.toml names.
    let sent = match &tp_config.send {
        pbem::transport::SendConfig::Maildir { folder } => folder.clone(),
        _ => tp_config.data.join("bench-sent"),
    };
    let runs = [("in memory", None), ("into Maildirs", Some(sent.as_path()))];
    // `PBEM_BENCH_REPLIES=memory` or `maildir`: one of the two runs.
    let only = std::env::var("PBEM_BENCH_REPLIES").unwrap_or_default();
    for (label, sink) in runs.into_iter().filter(|(_, sink)| match only.as_str() {
        "memory" => sink.is_none(),
        "maildir" => sink.is_some(),
        _ => true,
    }) {
        let tp = throughput(tp_config, tp_games, sizes.mails, sink);
        let rate = tp.mails as f64 / tp.seconds;
        // The limit again, after; the ratio is taken to the mean of the
        // limits before and after this run.
        let measured = disk_limit(&tp_config.data, sizes.limit_time);
        let after = measured.rate;
        let (before, pair_ms) = limits.last().map_or((after, measured.cpu_ms), |l| {
            (l.rate, (l.cpu_ms + measured.cpu_ms) / 2.0)
        });
        limits.push(measured);
        let limit = (before + after) / 2.0;
        let cpu_ms = 1000.0 * (tp.cpu.0 + tp.cpu.1) / tp.mails.max(1) as f64;
        println!(
            "throughput {rate:>8.0} mails/s, replies {label}: {} move mails in {} games, one poll of {:.2} s ({:.2} s user + {:.2} s system CPU), {} replies",
            tp.mails, sizes.games, tp.seconds, tp.cpu.0, tp.cpu.1, tp.replies
        );
        println!(
            "           = {:.2} x the limit ({limit:.0} pairs/s: the mean of {before:.0} before and {after:.0} after); target >= {TARGET_SHARE}",
            rate / limit,
        );
        println!(
            "           CPU per move mail {cpu_ms:.2} ms; target <= {TARGET_CPU_MS} ms (one fsynced 1 KB pair of the limit took {pair_ms:.2} ms)"
        );
        if before.max(after) > 1.5 * before.min(after) {
            println!(
                "           WARNING: the disk's limit changed by {:.1}x during the run (other load on the machine): the ratio is unreliable",
                before.max(after) / before.min(after)
            );
        }
        if rate / limit < TARGET_SHARE {
            misses.push(format!(
                "throughput, replies {label}: {:.2} x the limit < {TARGET_SHARE}",
                rate / limit
            ));
        }
        if cpu_ms > TARGET_CPU_MS {
            misses.push(format!(
                "CPU per move mail, replies {label}: {cpu_ms:.2} ms > {TARGET_CPU_MS} ms"
            ));
        }
    }
}

/// Latency: `pbem daemon` fed move mails at a steady rate; a miss at a
/// p99 of a second or a mail unanswered.
fn report_latency(
    sizes: &Sizes,
    tp_config_path: &Path,
    tp_config: &Config,
    tp_games: &mut [Played],
    misses: &mut Vec<String>,
) {
    let lat = latency(
        tp_config_path,
        tp_config,
        tp_games,
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

/// Replay: one game at three lengths.
fn report_replay(dir: &Path, sizes: &Sizes) {
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
        "pbem pipeline bench{}: data folders under {} ({})",
        if sizes.quick { ", QUICK sizes" } else { "" },
        dir.display(),
        fs_type(dir)
    );
    let mut misses = Vec::new();

    let tp_dir = dir.join("throughput");
    let (tp_config_path, tp_config) = data_folder(&tp_dir);
    let mut tp_games = Vec::new();
    if wanted("throughput") || wanted("latency") {
        tp_games = setup(&sizes, &tp_config);
    }
    let mut limits = Vec::new();
    if wanted("limit") || wanted("throughput") {
        sync_disk();
        let l = disk_limit(&tp_config.data, sizes.limit_time);
        println!(
            "limit      {:>8.0} fsynced write+rename pairs/s ({} pairs in the data folder: temp file in DATA/tmp, write 1 KB, fsync, rename, fsync folder; {:.2} ms of CPU a pair)",
            l.rate, l.pairs, l.cpu_ms
        );
        limits.push(l);
    }
    if wanted("throughput") {
        report_throughput(&sizes, &tp_config, &mut tp_games, &mut limits, &mut misses);
    }
    if wanted("latency") {
        report_latency(
            &sizes,
            &tp_config_path,
            &tp_config,
            &mut tp_games,
            &mut misses,
        );
    }
    drop(tp_games);
    let _ = fs::remove_dir_all(&tp_dir);

    if wanted("replay") {
        report_replay(dir, &sizes);
    }

    if wanted("scale") && !sizes.scale.is_empty() {
        report_scale(dir, &sizes, &mut misses);
    }

    if wanted("process") && !sizes.process.is_empty() {
        report_process(dir, &sizes, &mut misses);
    }

    println!(
        "\ntargets: throughput >= {TARGET_SHARE} x the limit and <= {TARGET_CPU_MS} ms CPU per move mail (replies in memory and into Maildirs); one mail as a process <= 10 ms wall, 5 ms CPU; a poll beside a writer <= 2 x a quiet one; daemon p99 < 1 s; engine: `cargo bench --bench engine`"
    );
    if misses.is_empty() {
        println!("all targets met");
    } else {
        for m in misses {
            println!("MISSED {m}");
        }
    }
}
