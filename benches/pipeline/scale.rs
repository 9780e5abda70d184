//! The scale section of the pipeline bench (benches/pipeline/main.rs):
//! data folders of many running games with clocks, the first poll, the
//! time of `pbem games` (and of rebuilding its index), one move mail's
//! poll, and the daemon's start and peak RSS.

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
    pub(super) rss_mb: f64,
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
        let (players, who) = players_of(g);
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
            result: Some((pbem::record::Verdict::Unfinished, 0)),
            players: players.map(|_, p| Some(p)),
            match_info: Default::default(),
            lines,
        };
        let tokens = [format!("ka{g}"), format!("kb{g}")];
        let secrets = Secrets {
            tokens: PerSide(tokens.clone().map(Some)),
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

pub(super) fn scale(dir: &Path, n: usize, samples: usize) -> Scale {
    let t = Instant::now();
    let (path, config, mut games) = scale_folder(dir, n);
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
        cold_poll_s,
        first_poll_s,
        rebuild_s,
        list_s,
        summaries_ms,
        listed,
        move_ms,
        daemon_first_s,
        daemon_move_ms: sorted(daemon_move_ms),
        rss_mb,
    }
}

/// Scale: running games on disk, one folder per size.
pub(super) fn report_scale(dir: &Path, sizes: &Sizes) {
    println!(
        "\nscale: running games on disk ({SCALE_PLIES} moves each, all with a 30d clock)\n{:>8} {:>8} {:>13} {:>8} {:>10} {:>13} {:>12} {:>18} {:>8} {:>18} {:>8}",
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
        "VmHWM MB"
    );
    for &n in &sizes.scale {
        let sdir = dir.join(format!("scale-{n}"));
        let s = scale(&sdir, n, sizes.samples);
        assert_eq!(s.listed, s.games, "`pbem games` lists every game");
        println!(
            "{:>8} {:>8.1} {:>13.2} {:>8.2} {:>10.2} {:>13.2} {:>12.0} {:>9.1} (p90 {:>5.1}) {:>8.2} {:>9.1} (max {:>5.1}) {:>8.1}",
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
            s.rss_mb
        );
        let _ = fs::remove_dir_all(&sdir);
    }
    println!(
        "(cold poll: the first poll of a folder without indexes, no mail: reads every clock, makes the deadline index's\n \
         markers of the next hour; poll: the same with the clocks' index (the deadline index built again, as after a\n \
         change of [clock]); rebuild: `pbem games --rebuild`, a process, every record read and replayed; `games`: `pbem\n \
         games`, a process, from its index; index: the store's call under it (Store::summaries); 1 move/poll: one move\n \
         mail alone in a poll, in process, durable; daemon: its start, to the answer of a first mail; daemon move: as\n \
         latency above, one mail at a time)"
    );
}
