//! Crash safety: pbem
//! processes are killed at random points, again and again, then run to
//! the end, and nothing may be lost or doubled.
//!
//! - `pbem poll` over a mailbox holding many games' moves: every move in
//!   its record exactly once, every reply delivered once, every mail
//!   marked done, no temporary file left;
//! - the admin's `pbem new` and `pbem move`, each run again after a kill
//!   as an admin would, until it says what it did: every game that exists
//!   was asked for and its players got their keys once, every move in the
//!   records was played once and mailed once, no game half made; a kill
//!   is SIGKILL or, one in four, SIGINT (Ctrl-C);
//! - the flush of a full outbox into the Maildirs of the players, while a
//!   reader moves what arrives from `new/` to `cur/` as a mail client does:
//!   every reply in one of the two, once.
//!
//! `PBEM_CRASH_KILLS=1000 cargo test --release --test server crash::` runs the long
//! version (the default is a short one for every test run); each test
//! prints its figures (`-- --nocapture`).

use crate::common;

use common::files;
use common::workload::{self, Workload};
use pbem::config::{Config, INIT};
use pbem::mailbox::Maildir;
use pbem::reply::Identity;
use pbem::rules::Rules;
use pbem::store::{Store, stable_hash};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

pub(super) fn kills() -> usize {
    std::env::var("PBEM_CRASH_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40)
}

/// Starts `pbem poll` and kills it (SIGKILL) after a random moment, until
/// `kills` polls died mid-way or three finished (the mailbox ran dry):
/// how many were killed mid-way, and how many finished.
pub(super) fn kill_polls(config_path: &Path, kills: usize) -> (usize, usize) {
    let pbem = env!("CARGO_BIN_EXE_pbem");
    let mut rng = fastrand::Rng::with_seed(20261121);
    let (mut interrupted, mut finished) = (0, 0);
    // Kill until `kills` polls died mid-way, or the mailbox ran dry.
    while interrupted < kills && finished < 3 {
        let mut child = Command::new(pbem)
            .args(["poll", "--quiet", "--wait", "--config"])
            .arg(config_path)
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
    (interrupted, finished)
}

/// No analysis of the games that end: the workload counts one mail a
/// move (the analysis's own crash sweep is in tests/server/analysis.rs).
const NO_ANALYSIS: &str = "[bot]\nanalysis_nodes = 0\n";

#[test]
fn killed_polls_lose_and_double_nothing() {
    let _shared = crate::common::lock::shared();
    let kills = kills();
    // Enough mail that every kill can land in the middle of a poll.
    let n_games = (kills / 8).max(4);
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("pbem.toml");
    std::fs::write(&config_path, format!("{INIT}\n{NO_ANALYSIS}")).unwrap();
    let config = Config::load(&config_path).unwrap();
    let store = Store::open(&config.data).unwrap();
    let identity = Identity::at(config.address.clone());
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
    let started = Instant::now();
    let (interrupted, _finished) = kill_polls(&config_path, kills);
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
    common::assert_nothing_left(&store, &config.data);
    let keys = common::committed_keys(&config.data);
    let unique: HashSet<&String> = keys.iter().collect();
    assert_eq!(keys.len(), unique.len(), "no mail committed twice");
    assert_eq!(keys.len(), mails, "every mail committed");
}

/// A pbem installation from `pbem init`'s settings in a temporary folder
/// (a Maildir in, the players' Maildirs out, under `mail/sent/`).
struct Site {
    dir: tempfile::TempDir,
    config_path: PathBuf,
    config: Config,
    store: Store,
}

impl Site {
    fn new() -> Site {
        Site::with_settings("")
    }

    /// With `more` after `pbem init`'s settings.
    fn with_settings(more: &str) -> Site {
        let dir = tempfile::tempdir().unwrap();
        let config_path = dir.path().join("pbem.toml");
        std::fs::write(&config_path, format!("{INIT}\n{NO_ANALYSIS}\n{more}")).unwrap();
        let config = Config::load(&config_path).unwrap();
        let store = Store::open(&config.data).unwrap();
        Site {
            dir,
            config_path,
            config,
            store,
        }
    }

    fn sent(&self) -> PathBuf {
        self.dir.path().join("mail/sent")
    }

    /// The mails `who` received, wherever their reader put them: `new/`
    /// and `cur/` of their Maildir.
    fn mails_of(&self, who: &str) -> Vec<Vec<u8>> {
        let maildir = self.sent().join(who);
        ["new", "cur"]
            .iter()
            .flat_map(|sub| files(&maildir.join(sub)))
            .map(|f| std::fs::read(f).unwrap())
            .collect()
    }

    /// Runs `pbem ARGS --config FILE`. `kill`: after how long to kill it if
    /// it still runs, and whether with SIGINT (as Ctrl-C does) rather than
    /// SIGKILL. `None` when a signal ended it.
    fn run(&self, args: &[&str], kill: Option<(Duration, bool)>) -> Option<Output> {
        // SIGINT as at a terminal, even when the tests run in the
        // background (a shell's `&` makes its jobs ignore it, and they
        // pass that on): env(1) sets it back to the default, then runs
        // pbem in its place (the same process).
        let mut command = Command::new("env");
        command
            .arg("--default-signal=INT")
            .arg(env!("CARGO_BIN_EXE_pbem"))
            .args(args)
            .arg("--config")
            .arg(&self.config_path)
            .env_remove("PBEM_CONFIG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child: Child = command.spawn().unwrap();
        if let Some((after, sigint)) = kill {
            std::thread::sleep(after);
            if child.try_wait().unwrap().is_none() {
                if sigint {
                    // Our own child, not yet waited for: its pid is not
                    // reused.
                    let pid = rustix::process::Pid::from_child(&child);
                    let _ = rustix::process::kill_process(pid, rustix::process::Signal::INT);
                } else {
                    let _ = child.kill(); // SIGKILL
                }
            }
        }
        let out = child.wait_with_output().unwrap();
        out.status.signal().is_none().then_some(out)
    }

    /// Nothing left half-way: no staged or queued reply, no temporary
    /// file in the data folder.
    fn nothing_left(&self) {
        common::assert_nothing_left(&self.store, &self.config.data);
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A game the admin starts with `pbem new` and plays with `pbem move`.
struct Planned {
    id: String,
    rules: Rules,
    /// Side A's player, side B's.
    players: [String; 2],
    moves: Vec<String>,
    clock: bool,
}

impl Planned {
    /// The command of step `step`: 0 starts the game, `n` plays move `n`.
    fn command(&self, step: usize) -> Vec<String> {
        if step > 0 {
            return vec!["move".into(), self.id.clone(), self.moves[step - 1].clone()];
        }
        let r = self.rules;
        let mut args = vec!["new".to_string(), r.slug().to_string()];
        for (side, who) in pbem::game::Side::BOTH.iter().zip(&self.players) {
            args.push(format!("--{}", r.side_name(*side)));
            args.push(who.clone());
        }
        if r.fixed_first().is_none() {
            args.push("--first".into());
            args.push(r.side_name(pbem::game::Side::A).into());
        }
        if self.clock {
            args.push("--clock".into());
            args.push("3d".into());
        }
        args.extend(["--id".to_string(), self.id.clone()]);
        args
    }

    /// The keys of its commands, which name their replies (a reply's
    /// Message-ID carries the key's hash): `new:<id>`, `move:<id>:<n>`.
    fn keys(&self) -> Vec<String> {
        std::iter::once(format!("new:{}", self.id))
            .chain((1..=self.moves.len()).map(|n| format!("move:{}:{n}", self.id)))
            .collect()
    }
}

/// Game `g` of the admin's plan: the first moves of a short game, every
/// other one with a clock.
fn planned(g: usize) -> Planned {
    let rules = workload::RULES[g % workload::RULES.len()];
    let mut moves = pbem::demo::example_moves(rules);
    moves.truncate(10);
    Planned {
        id: format!("adm-{g}"),
        rules,
        players: [format!("p{g}a@example.org"), format!("p{g}b@example.org")],
        moves,
        clock: g % 2 == 1,
    }
}

/// Every game asked for, its moves once and in order; no other game,
/// and nothing of one half made.
fn check_games(site: &Site, games: &[Planned]) {
    let ids: Vec<String> = games.iter().map(|g| g.id.clone()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(site.store.game_ids().unwrap(), sorted);
    for g in games {
        let text = site.store.read_game(&g.id).unwrap().unwrap();
        let rec = pbem::record::Record::parse(&format!("{}.toml", g.id), &text).unwrap();
        assert_eq!(rec.moves(), g.moves, "{}: each move once", g.id);
        pbem::cli::validate_record(&rec).unwrap();
    }
    let names = |sub: &str| -> Vec<String> {
        let mut v: Vec<String> = files(&site.config.data.join(sub))
            .iter()
            .filter_map(|p| Some(p.file_stem()?.to_str()?.to_string()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(names("secrets"), sorted, "keys of the games only");
    let with_clock: Vec<String> = sorted
        .iter()
        .filter(|id| games.iter().any(|g| &g.id == *id && g.clock))
        .cloned()
        .collect();
    assert_eq!(names("clocks"), with_clock, "clocks of the games only");
}

/// Every reply of every command once, to each player: the start with
/// the key the player holds now, then each move. How many mails, how
/// many replies lost, how many doubled.
fn count_replies(site: &Site, games: &[Planned]) -> (usize, usize, usize) {
    let (mut mails, mut lost, mut doubled) = (0, 0, 0);
    for g in games {
        let tokens = site.store.secrets(&g.id, g.rules).unwrap().tokens;
        let expected: HashMap<String, String> = g
            .keys()
            .into_iter()
            .map(|k| (format!("{:016x}", stable_hash(k.as_bytes())), k))
            .collect();
        for (side, who) in pbem::game::Side::BOTH.iter().zip(&g.players) {
            let mut got: BTreeMap<&str, usize> = BTreeMap::new();
            for raw in site.mails_of(who) {
                mails += 1;
                let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
                let hash = common::hash_of_reply(m.message_id().unwrap());
                let Some(key) = expected.get(&hash) else {
                    panic!("{who}: a mail of no command:\n{}", text(&raw));
                };
                *got.entry(key).or_default() += 1;
                if key.starts_with("new:") {
                    let token = tokens[*side].as_ref().unwrap();
                    assert!(
                        text(&raw).contains(&format!("+{}.{token}@", g.id)),
                        "{who}: the key the game has"
                    );
                }
            }
            for key in expected.values() {
                match got.get(key.as_str()) {
                    None => lost += 1,
                    Some(n) => doubled += n - 1,
                }
            }
        }
    }
    (mails, lost, doubled)
}

#[test]
fn killed_admin_commands_lose_and_double_nothing() {
    let _shared = crate::common::lock::shared();
    let kills = kills();
    // With the records' git history: every command in it too.
    let site = Site::with_settings("[git]\n");
    let mut games: Vec<Planned> = Vec::new();
    let mut commands = 0;
    let mut rng = fastrand::Rng::with_seed(20261122);
    let mut k = Kills {
        left: kills,
        ..Kills::default()
    };
    let mut found_done = 0;
    let started = Instant::now();
    // Rounds of six games side by side (every game started, then every
    // first move...), until the kills are spent.
    while k.left > 0 {
        let round: Vec<usize> = (games.len()..games.len() + workload::RULES.len()).collect();
        games.extend(round.iter().map(|&g| planned(g)));
        for step in 0..=10 {
            for &g in &round {
                if step > games[g].moves.len() {
                    continue;
                }
                commands += 1;
                let (out, args) = run_as_admin(&site, &games[g], step, &mut rng, &mut k);
                let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
                let code = out.status.code();
                let id = &games[g].id;
                // What the admin sees: it was done now, or a run before
                // was killed after it got in.
                let now = match step {
                    0 => code == Some(0) && stdout.starts_with(&format!("started {id}: ")),
                    _ => code == Some(0),
                };
                let before = match step {
                    0 => code == Some(0) && stdout.starts_with(&format!("{id} is started already")),
                    _ => code == Some(1) && stderr.contains("is the game's last move already"),
                };
                assert!(now || before, "{args:?}: exit {code:?}\n{stdout}\n{stderr}");
                found_done += usize::from(before);
            }
        }
    }
    let n_games = games.len();
    // The admin's next poll sends whatever waits (nothing should).
    let last = site.run(&["poll"], None).unwrap();
    assert!(last.status.success(), "{}", text(&last.stderr));
    let elapsed = started.elapsed();

    check_games(&site, &games);
    let ids: Vec<String> = games.iter().map(|g| g.id.clone()).collect();
    crate::git_history::every_change_in_the_history(&site.config.data.join("games"), &ids);
    let (mails, lost, doubled) = count_replies(&site, &games);
    let n_moves: usize = games.iter().map(|g| g.moves.len()).sum();
    let Kills {
        interrupted,
        by_sigint,
        ..
    } = k;
    eprintln!(
        "crash test (admin): {interrupted} commands killed mid-way ({by_sigint} by SIGINT) \
         in {} commands ({found_done} found done by the run after a kill), {n_games} games, \
         {n_moves} moves, {mails} mails: {lost} lost, {doubled} doubled, {elapsed:.1?}",
        commands
    );
    assert_eq!((lost, doubled), (0, 0), "no mail lost or doubled");
    assert!(
        interrupted >= kills.min(20),
        "kills must land mid-command ({interrupted})"
    );
    assert!(found_done > 0, "some kills must land after a commit");

    // Each command committed once.
    let keys = common::committed_keys(&site.config.data);
    let mut planned: Vec<String> = games.iter().flat_map(Planned::keys).collect();
    planned.sort();
    assert_eq!(keys, planned, "every command committed, once");
    site.nothing_left();
}

#[test]
fn killed_flushes_with_a_reader_deliver_each_reply_once() {
    let _shared = crate::common::lock::shared();
    let kills = kills();
    let n_games = (kills / 8).max(4);
    let site = Site::new();
    let identity = Identity::at(site.config.address.clone());
    let inbox = Maildir::open(site.config.inbox.maildir.as_ref().unwrap()).unwrap();
    let load: Workload = workload::build(
        &site.store,
        &identity,
        n_games,
        None,
        &|g| [format!("p{g}a@example.org"), format!("p{g}b@example.org")],
        false,
    );
    for m in &load.mails {
        inbox.deliver(&m.name, &m.raw).unwrap();
    }
    // Every mail handled and no reply sent: where the players' Maildirs
    // go is a file. The outbox is full.
    std::fs::write(site.dir.path().join("blocked"), "").unwrap();
    site.run(&["poll", "--quiet", "--set", "send.folder=blocked"], None)
        .unwrap();
    let queued = pbem::outbox::queued(&site.store.outbox_ready());
    assert_eq!(queued, load.replies());

    // A reader: what arrives in a player's new/ is moved to cur/, seen.
    let stop = Arc::new(AtomicBool::new(false));
    let moved = Arc::new(AtomicUsize::new(0));
    let reader = {
        let (stop, moved, sent) = (Arc::clone(&stop), Arc::clone(&moved), site.sent());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                for maildir in std::fs::read_dir(&sent).into_iter().flatten().flatten() {
                    read_mail(&maildir.path(), &moved);
                }
                std::thread::sleep(Duration::from_micros(300));
            }
        })
    };

    let mut rng = fastrand::Rng::with_seed(20261123);
    let (mut interrupted, mut finished) = (0, 0);
    let started = Instant::now();
    while interrupted < kills && finished < 3 {
        let after = Duration::from_micros(rng.u64(500..20_000));
        match site.run(&["poll", "--quiet", "--wait"], Some((after, false))) {
            None => interrupted += 1,
            Some(_) => finished += 1,
        }
    }
    let last = site.run(&["poll"], None).unwrap();
    assert!(last.status.success(), "{}", text(&last.stderr));
    let elapsed = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    reader.join().unwrap();

    let doubled = load.check_replies_but(&|who| site.mails_of(who), usize::MAX);
    let read = moved.load(Ordering::Relaxed);
    eprintln!(
        "crash test (flush): {interrupted} flushes killed mid-way (SIGKILL), {queued} replies \
         ({read} moved to cur/ by the reader while the flushes ran), 0 lost, {doubled} \
         doubled, {elapsed:.1?}"
    );
    assert_eq!(doubled, 0, "no reply delivered twice");
    assert!(
        interrupted >= kills.min(20),
        "kills must land mid-flush ({interrupted})"
    );
    assert!(read > 0, "the reader must have read some mail");
    site.nothing_left();
}

/// The kills of the admin's commands: how many are left to make, how
/// many ended a run (by SIGINT), and how long a run not killed takes.
#[derive(Default)]
struct Kills {
    left: usize,
    interrupted: usize,
    by_sigint: usize,
    typical: Duration,
}

/// Runs step `step` of `game` ([`Planned::command`]) as an admin would:
/// again after each kill, until it answers. While kills are left, a run is
/// killed with a chance of 7 in 10, at a random point of 1.5 times a
/// typical run (SIGINT one time in four).
fn run_as_admin(
    site: &Site,
    game: &Planned,
    step: usize,
    rng: &mut fastrand::Rng,
    k: &mut Kills,
) -> (Output, Vec<String>) {
    let args = game.command(step);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    loop {
        let typical = k.typical.max(Duration::from_millis(5));
        let at = (k.left > 0 && rng.u8(0..10) < 7).then(|| {
            let max = typical.as_micros() as u64 * 3 / 2;
            (Duration::from_micros(rng.u64(0..max)), rng.u8(0..4) == 0)
        });
        let t = Instant::now();
        match site.run(&argv, at) {
            Some(out) => {
                if at.is_none() {
                    k.typical = (typical * 3 + t.elapsed()) / 4;
                }
                return (out, args);
            }
            None => {
                k.left -= 1;
                k.interrupted += 1;
                k.by_sigint += usize::from(at.is_some_and(|(_, int)| int));
            }
        }
    }
}

/// What a mail client does on opening a Maildir: each mail in `new/` moved
/// to `cur/`, flagged seen (`:2,S`). A mail delivered again, under the
/// name of one already read, is kept beside it (the sink names a mail by
/// its contents): the client shows it twice.
fn read_mail(maildir: &Path, moved: &AtomicUsize) {
    for f in files(&maildir.join("new")) {
        let Some(name) = f.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let cur = maildir.join("cur");
        let mut to = cur.join(format!("{name}:2,S"));
        for again in 1.. {
            if !to.exists() {
                break;
            }
            to = cur.join(format!("{name}.again{again}:2,S"));
        }
        if std::fs::rename(&f, &to).is_ok() {
            moved.fetch_add(1, Ordering::Relaxed);
        }
    }
}
