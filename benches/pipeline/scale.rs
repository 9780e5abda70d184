//! The scale section of the pipeline bench (benches/pipeline/main.rs):
//! data folders of many running games with clocks, the first poll, the
//! time of `pbem games` (and of rebuilding its index), one move mail's
//! poll, and the daemon's start and peak RSS (VmHWM) over its whole
//! life: its start, move mails, and a poll that scans the clocks for the
//! deadline index, as the first poll past the hour the index was built
//! for does.
//!
//! Writing a folder of 100,000 games takes minutes: with
//! `PBEM_BENCH_KEEP=1` each folder is kept, as `pbem-scale-<games>` under
//! `PBEM_BENCH_DIR` (default `target/tmp/`), and the next run with the
//! variable takes it instead (without its indexes, so that the first poll
//! is as cold as in a new folder). Remove the folder to write it anew.

use super::*;
use pbem::store::index::{GameSummary, Refresh};

pub(super) const SCALE_PLIES: usize = 10;

pub(super) struct Scale {
    pub(super) games: usize,
    pub(super) build_s: f64,
    /// The first poll of a folder without indexes: it reads every clock.
    pub(super) cold_poll_s: f64,
    /// The first poll with the clocks' index, the deadline index to build.
    pub(super) first_poll_s: f64,
    /// `pbem games --rebuild`: every record read and replayed.
    pub(super) rebuild_s: f64,
    /// `pbem games` from its index: the process, and the store's call.
    pub(super) list_s: f64,
    pub(super) summaries_ms: f64,
    pub(super) listed: usize,
    pub(super) move_ms: Vec<f64>,
    pub(super) daemon_first_s: f64,
    pub(super) daemon_move_ms: Vec<f64>,
    /// A mail answered by a poll that scans the clocks for the deadline
    /// index (the hour it was built for past).
    pub(super) daemon_scan_s: f64,
    pub(super) rss: Rss,
}

/// The daemon's memory in a scale run.
pub(super) struct Rss {
    /// Its peak RSS (VmHWM) over its whole life.
    pub(super) peak_mb: f64,
    /// That peak before the poll that scanned the clocks.
    pub(super) unscanned_mb: f64,
    /// Of its RSS at the end, the pages mapped from files (RssFile).
    pub(super) file_mb: f64,
}

/// The made-up moves, players and keys of the scale folders: one line
/// of moves per kind of game, shared by its games.
fn scale_lines() -> Vec<(Rules, Vec<String>)> {
    Rules::ALL
        .iter()
        .map(|&r| (r, line(r, 7, SCALE_PLIES + 40).unwrap()))
        .collect()
}

/// Game `g` of a scale folder as the bench plays it, with
/// [`SCALE_PLIES`] moves played.
fn scale_game(g: usize, lines: &[(Rules, Vec<String>)]) -> Played {
    let (rules, line) = &lines[g % lines.len()];
    Played {
        id: format!("sc-{g:06}"),
        rules: *rules,
        who: players_of(g).1,
        tokens: [format!("ka{g}"), format!("kb{g}")],
        line: line.clone(),
        next: SCALE_PLIES,
    }
}

/// A data folder of `n` running games with 30-day clocks, each with
/// [`SCALE_PLIES`] moves played, written straight to disk (one record,
/// secrets and clock file per game, and the keys of the mails that played
/// the moves committed, as a server that saw them would have; the setup,
/// not measured).
pub(super) fn scale_folder(dir: &Path, n: usize) -> (PathBuf, Config, Vec<Played>) {
    let (path, config) = data_folder(dir);
    let store = Store::open(&config.data).unwrap();
    let now = pbem::clock::now();
    let t0 = now - chrono::Duration::days(1);
    let control: TimeControl = "30d".parse().unwrap();
    let protos = scale_lines();
    let mut played = Vec::new();
    let mut keys = Vec::new();
    for g in 0..n {
        let game = scale_game(g, &protos);
        let (rules, id) = (game.rules, game.id.clone());
        let first = first_of(rules);
        let mut state = ClockState::new(control, first, t0);
        let lines: Vec<MoveLine> = game.line[..SCALE_PLIES]
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
            result: Some((pbem::record::Verdict::Unfinished, 0)),
            players: players_of(g).0.map(|_, p| Some(p)),
            match_info: Default::default(),
            lines,
        };
        let secrets = Secrets {
            tokens: PerSide(game.tokens.clone().map(Some)),
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
            toml::to_string(&SecretsFile::new(&secrets, rules)).unwrap(),
        )
        .unwrap();
        fs::write(
            root.join("clocks").join(format!("{id}.toml")),
            toml::to_string(&clock).unwrap(),
        )
        .unwrap();
        played.push(game);
    }
    let batch = store.batch().unwrap();
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    batch.mark_processed_all(&keys).unwrap();
    sync_disk();
    (path, config, played)
}

/// The environment variable that keeps the scale folders between runs.
pub(super) const KEEP: &str = "PBEM_BENCH_KEEP";

/// The file a kept scale folder has once it is whole, with the number of
/// runs that used it.
const RUNS: &str = "bench-runs";

/// The scale folder of `n` games for one run, and the run's number (0
/// for a fresh folder): built in `dir` (removed after the run), or with
/// [`KEEP`], `kept`: taken as it is when a run made it whole, else built
/// there. A kept folder loses its indexes (`DATA/index/`, `DATA/due/`)
/// before each run, so that the first poll is the cold one it measures,
/// and its reply limits' counts; its games' moves played by earlier runs
/// are read back from their records when the run picks them.
fn scale_data(dir: &Path, n: usize, kept: Option<&Path>) -> (PathBuf, Config, Vec<Played>, usize) {
    let Some(kept) = kept else {
        let (path, config, games) = scale_folder(dir, n);
        return (path, config, games, 0);
    };
    let runs_file = kept.join(RUNS);
    let Some(runs) = fs::read_to_string(&runs_file)
        .ok()
        .and_then(|t| t.trim().parse::<usize>().ok())
    else {
        let _ = fs::remove_dir_all(kept);
        let (path, config, games) = scale_folder(kept, n);
        fs::write(&runs_file, "1\n").unwrap();
        return (path, config, games, 0);
    };
    fs::write(&runs_file, format!("{}\n", runs + 1)).unwrap();
    let path = kept.join("pbem.toml");
    let config = Config::load(&path).unwrap();
    // The reply limits' counts go too: each run's warm-up mails come
    // from one address.
    for sub in ["index", "due", "ratelimit"] {
        let _ = fs::remove_dir_all(config.data.join(sub));
    }
    let lines = scale_lines();
    let games = (0..n).map(|g| scale_game(g, &lines)).collect();
    sync_disk();
    (path, config, games, runs)
}

/// Sets `game`'s next move from its record: earlier runs in a kept
/// folder may have played some.
fn catch_up(store: &Store, game: &mut Played) {
    let text = store.read_game(&game.id).unwrap().unwrap();
    let rec = Record::parse("x.toml", &text).unwrap();
    game.next = rec
        .lines
        .iter()
        .filter(|l| matches!(l.entry, Entry::Move(_)))
        .count();
}

/// Times `samples` move mails, each alone in a poll (in process, durable),
/// in games spread over `games`; returns the poll times in ms.
pub(super) fn one_move_polls(config: &Config, games: &mut [Played], picks: &[usize]) -> Vec<f64> {
    let run = InProcess::new(config);
    let poller = run.poller();
    let inbox_dir = config.inbox.maildir.clone().unwrap();
    let mut inbox = Maildir::open(&inbox_dir).unwrap();
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

/// The time of `pbem ARGS --config PATH`, a process, and its output's
/// lines.
fn timed_pbem(args: &[&str], path: &Path) -> (f64, usize) {
    let t = Instant::now();
    let out = Command::new(PBEM)
        .args(args)
        .arg("--config")
        .arg(path)
        .stderr(Stdio::null())
        .output()
        .unwrap();
    let s = t.elapsed().as_secs_f64();
    assert!(out.status.success(), "pbem {args:?}");
    (s, out.stdout.iter().filter(|&&b| b == b'\n').count())
}

/// The time of a poll with no mail, in process.
fn empty_poll(config: &Config) -> f64 {
    let run = InProcess::new(config);
    let poller = run.poller();
    let mut inbox = Maildir::open(config.inbox.maildir.clone().unwrap()).unwrap();
    let t = Instant::now();
    let r = poller.poll(&mut inbox, pbem::clock::now(), true).unwrap();
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    t.elapsed().as_secs_f64()
}

/// Makes the daemon's next poll scan the clocks for the deadline index,
/// as every poll does once the hour the index was built for is past:
/// `DATA/due/policy`'s first line, the time it was built until, set to
/// now, under the data folder's lock (no poll under way).
fn end_deadline_hour(config: &Config) {
    let store = Store::open(&config.data).unwrap();
    let _lock = store.lock(true).unwrap();
    let policy = config.data.join("due/policy");
    let text = fs::read_to_string(&policy).unwrap();
    let (_, stamp) = text.split_once('\n').unwrap();
    let until = pbem::clock::now().to_rfc3339();
    let tmp = config.data.join("tmp/bench-policy");
    fs::write(&tmp, format!("until = \"{until}\"\n{stamp}")).unwrap();
    fs::rename(&tmp, &policy).unwrap();
}

/// The time `DATA/due/policy` says the deadline index was built until.
fn deadline_hour(config: &Config) -> String {
    let text = fs::read_to_string(config.data.join("due/policy")).unwrap();
    text.lines().next().unwrap_or_default().to_string()
}

/// The daemon at `n` games: its start (to the answer of a first mail),
/// one move mail at a time in games `picks`, then a poll that scans the
/// clocks for the deadline index (a mail answered); the daemon's peak
/// RSS over all of it.
fn daemon_run(
    path: &Path,
    config: &Config,
    games: &mut [Played],
    picks: &[usize],
) -> (f64, Vec<f64>, f64, Rss) {
    let sent = match &config.send {
        pbem::transport::SendConfig::Maildir { folder } => folder.clone(),
        _ => unreachable!(),
    };
    let addresses = picks
        .iter()
        .flat_map(|&g| games[g].who.clone())
        .chain(["warmup@example.org".to_string()]);
    let mut replies = Replies::watch(&sent, addresses);
    let (daemon, first_s) = start_daemon(path, config, &mut replies);
    let inbox = config.inbox.maildir.clone().unwrap();
    let mut move_ms = Vec::new();
    for (i, &g) in picks.iter().enumerate() {
        let (mid, raw) = games[g].next_mail().unwrap();
        let at = land(&inbox, &format!("d{i:03}.{g}"), &raw);
        let got = replies.wait_for(std::slice::from_ref(&mid), Duration::from_secs(600));
        move_ms.push(got[&mid].duration_since(at).as_secs_f64() * 1000.0);
    }
    let unscanned_mb = daemon.peak_rss_mb();
    end_deadline_hour(config);
    let before = deadline_hour(config);
    let log = path.with_file_name("daemon.log");
    let scan_s = help_answered(&inbox, &mut replies, "scan", &log);
    assert_ne!(deadline_hour(config), before, "the poll scanned the clocks");
    if std::env::var_os("PBEM_BENCH_ANNOUNCE").is_some() {
        // For a look at its memory (`/proc/PID/smaps`) before it goes.
        eprintln!("scale: the daemon (pid {}) stops in 5 s", daemon.child.id());
        std::thread::sleep(Duration::from_secs(5));
    }
    let rss = Rss {
        peak_mb: daemon.peak_rss_mb(),
        unscanned_mb,
        file_mb: daemon.file_rss_mb(),
    };
    drop(daemon);
    (first_s, move_ms, scan_s, rss)
}

pub(super) fn scale(dir: &Path, n: usize, samples: usize, kept: Option<&Path>) -> Scale {
    let t = Instant::now();
    let (path, config, mut games, run) = scale_data(dir, n, kept);
    let build_s = t.elapsed().as_secs_f64();

    // The first poll of a folder an older pbem wrote: no index of the
    // clocks, whose every file it reads (and indexes), nor a deadline index.
    let cold_poll_s = empty_poll(&config);
    // The deadline index built again, as after a change of `[clock]` or
    // an hour without a poll: from the clocks' index.
    fs::remove_file(config.data.join("due/policy")).unwrap();
    let first_poll_s = empty_poll(&config);
    // The records' index, as pbem writes it with each record.
    let (rebuild_s, _) = timed_pbem(&["games", "--rebuild"], &path);
    let (list_s, listed) = timed_pbem(&["games"], &path);
    // The best of three: the machine is shared.
    let summaries_ms = (0..3)
        .map(|_| {
            let store = Store::open(&config.data).unwrap();
            let t = Instant::now();
            let l = store
                .summaries::<GameSummary>(Refresh::Stale, &mut |_, _| {})
                .unwrap();
            assert_eq!((l.items.len(), l.read), (n, 0), "every game from the index");
            t.elapsed().as_secs_f64() * 1000.0
        })
        .fold(f64::INFINITY, f64::min);

    // Other games at each run of a kept folder, so that none runs out of
    // moves; the daemon's beside those polled in process.
    let picks: Vec<usize> = (0..samples).map(|i| (i * n / samples + run) % n).collect();
    let daemon_picks: Vec<usize> = (0..samples.min(5))
        .map(|i| (i * n / 5 + 1 + run) % n)
        .collect();
    let store = Store::open(&config.data).unwrap();
    for &g in picks.iter().chain(&daemon_picks) {
        catch_up(&store, &mut games[g]);
    }
    let move_ms = sorted(one_move_polls(&config, &mut games, &picks));
    let (daemon_first_s, daemon_move_ms, daemon_scan_s, rss) =
        daemon_run(&path, &config, &mut games, &daemon_picks);
    Scale {
        games: n,
        build_s,
        cold_poll_s,
        first_poll_s,
        rebuild_s,
        list_s,
        summaries_ms,
        listed,
        move_ms,
        daemon_first_s,
        daemon_move_ms: sorted(daemon_move_ms),
        daemon_scan_s,
        rss,
    }
}

/// The scale targets, at [`TARGET_GAMES`] games and more: `pbem games`
/// and the first poll of a folder with its indexes under a second, the
/// daemon's peak RSS at most [`TARGET_RSS_MB`].
const TARGET_GAMES: usize = 100_000;
const TARGET_LIST_S: f64 = 1.0;
const TARGET_RSS_MB: f64 = 12.0;

/// Scale: running games on disk, one folder per size.
pub(super) fn report_scale(dir: &Path, sizes: &Sizes, misses: &mut Vec<String>) {
    println!(
        "\nscale: running games on disk ({SCALE_PLIES} moves each, all with a 30d clock)\n{:>8} {:>8} {:>13} {:>8} {:>10} {:>13} {:>12} {:>18} {:>8} {:>18} {:>8} {:>8} {:>8} {:>8}",
        "games",
        "build s",
        "cold poll s",
        "poll s",
        "rebuild s",
        "`games` s",
        "index ms",
        "1 move/poll ms",
        "daemon s",
        "daemon move ms",
        "scan s",
        "VmHWM MB",
        "unscan.",
        "file MB"
    );
    for &n in &sizes.scale {
        let sdir = dir.join(format!("scale-{n}"));
        // Beside the run's temporary folder, which goes.
        let keep = std::env::var(KEEP).is_ok_and(|v| !v.is_empty() && v != "0");
        let kept = dir
            .parent()
            .filter(|_| keep)
            .map(|base| base.join(format!("pbem-scale-{n}")));
        let s = scale(&sdir, n, sizes.samples, kept.as_deref());
        assert_eq!(s.listed, s.games, "`pbem games` lists every game");
        println!(
            "{:>8} {:>8.1} {:>13.2} {:>8.2} {:>10.2} {:>13.2} {:>12.0} {:>9.1} (p90 {:>5.1}) {:>8.2} {:>9.1} (max {:>5.1}) {:>8.2} {:>8.1} {:>8.1} {:>8.1}",
            s.games,
            s.build_s,
            s.cold_poll_s,
            s.first_poll_s,
            s.rebuild_s,
            s.list_s,
            s.summaries_ms,
            quantile(&s.move_ms, 0.5),
            quantile(&s.move_ms, 0.9),
            s.daemon_first_s,
            quantile(&s.daemon_move_ms, 0.5),
            s.daemon_move_ms.last().copied().unwrap_or(f64::NAN),
            s.daemon_scan_s,
            s.rss.peak_mb,
            s.rss.unscanned_mb,
            s.rss.file_mb
        );
        if s.games >= TARGET_GAMES {
            if s.list_s >= TARGET_LIST_S || s.first_poll_s >= TARGET_LIST_S {
                misses.push(format!(
                    "scale, {} games: `pbem games` {:.2} s, first poll {:.2} s; target < {TARGET_LIST_S} s",
                    s.games, s.list_s, s.first_poll_s
                ));
            }
            if s.rss.peak_mb > TARGET_RSS_MB {
                misses.push(format!(
                    "scale, {} games: daemon peak RSS {:.1} MB ({:.1} MB of it mapped from files) > {TARGET_RSS_MB} MB",
                    s.games, s.rss.peak_mb, s.rss.file_mb
                ));
            }
        }
        // A kept folder is elsewhere: this one is the run's own.
        let _ = fs::remove_dir_all(&sdir);
    }
    println!(
        "(build: writing the folder, or taking a kept one ({KEEP}=1); cold poll: the first poll of a folder without indexes, no mail: reads every clock, makes the deadline index's\n \
         markers of the next hour; poll: the same with the clocks' index (the deadline index built again, as after a\n \
         change of [clock]); rebuild: `pbem games --rebuild`, a process, every record read and replayed; `games`: `pbem\n \
         games`, a process, from its index; index: the store's call under it (Store::summaries); 1 move/poll: one move\n \
         mail alone in a poll, in process, durable; daemon: its start, to the answer of a first mail; daemon move: as\n \
         latency above, one mail at a time; scan: then a mail answered by the poll that finds the deadline index's hour\n \
         past and scans the clocks' index for the next one; VmHWM: the daemon's peak RSS over all\n \
         of it; unscan.: that peak before the scan; file: of its RSS at the end, the pages mapped from files, its own\n \
         code among them)"
    );
}
