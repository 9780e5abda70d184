//! The process section of the pipeline bench (benches/pipeline/main.rs):
//! one mail as a whole process, the way an MTA pipe runs pbem (one
//! process per mail) and the way cron runs a poll that finds one mail,
//! beside `/bin/true` and `pbem --version` (what starting any process,
//! and starting pbem, costs) in a data folder of many running games.
//!
//! Wall time and CPU time (user + system) per run. The CPU time is each
//! child's own, read from `/proc/<pid>/schedstat` (the nanoseconds it
//! ran) once it has exited and before it is reaped; the times the kernel
//! charges a parent for its reaped children are in clock ticks (10 ms),
//! which made the mean of 20 runs good to 0.5 ms only. Where there is no
//! such file, the ticks' mean is given for every run.
//!
//! The poll is timed twice: on a quiet disk, and while another writer
//! fills the same file system ([`Ballast`]): a poll must wait for its own
//! files only, not for what others have yet to write (target: at most 2x
//! the quiet one).

use super::*;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// What one kind of run cost: wall and CPU times in ms, each sorted.
pub(super) struct Runs {
    pub(super) what: String,
    pub(super) wall_ms: Vec<f64>,
    pub(super) cpu_ms: Vec<f64>,
}

impl Runs {
    /// The mean CPU ms of a run.
    pub(super) fn cpu_mean(&self) -> f64 {
        self.cpu_ms.iter().sum::<f64>() / self.cpu_ms.len().max(1) as f64
    }
}

/// User + system CPU seconds of the children reaped so far (cutime and
/// cstime, in clock ticks).
fn children_cpu() -> f64 {
    let (user, system) = stat_seconds(16, 17);
    user + system
}

/// The CPU ms an exited child not yet reaped ran (`/proc/<pid>/schedstat`:
/// its first field, in nanoseconds).
fn exited_cpu_ms(child: &std::process::Child) -> Option<f64> {
    let pid = rustix::process::Pid::from_raw(i32::try_from(child.id()).ok()?)?;
    let options = rustix::process::WaitIdOptions::EXITED | rustix::process::WaitIdOptions::NOWAIT;
    rustix::process::waitid(rustix::process::WaitId::Pid(pid), options).ok()?;
    let stat = fs::read_to_string(format!("/proc/{pid}/schedstat")).ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    (ns > 0.0).then_some(ns / 1e6)
}

/// Runs `runs` processes made by `command(i)`, each given `stdin(i)` on
/// its standard input, and checks each exits well.
fn time_runs(
    what: &str,
    runs: usize,
    mut command: impl FnMut(usize) -> Command,
    mut stdin: impl FnMut(usize) -> Option<String>,
) -> Runs {
    let (mut wall_ms, mut cpu_ms) = (Vec::new(), Vec::new());
    let ticks0 = children_cpu();
    for i in 0..runs {
        let mut c = command(i);
        let input = stdin(i);
        // Standard error to a file, not a pipe: the child is waited for
        // before anything is read from it.
        let errors = tempfile::tempfile().unwrap();
        c.stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(errors.try_clone().unwrap());
        let t = Instant::now();
        let mut child = c.spawn().unwrap();
        if let Some(input) = input {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(input.as_bytes())
                .unwrap();
        }
        let cpu = exited_cpu_ms(&child);
        let status = child.wait().unwrap();
        wall_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        cpu_ms.push(cpu);
        assert!(status.success(), "{what}: {}", {
            let mut text = String::new();
            let mut errors = errors;
            std::io::Seek::rewind(&mut errors).unwrap();
            std::io::Read::read_to_string(&mut errors, &mut text).unwrap();
            text
        });
    }
    let ticks_ms = (children_cpu() - ticks0) * 1000.0 / runs as f64;
    let cpu_ms = cpu_ms.into_iter().map(|c| c.unwrap_or(ticks_ms)).collect();
    Runs {
        what: what.to_string(),
        wall_ms: sorted(wall_ms),
        cpu_ms: sorted(cpu_ms),
    }
}

/// The runs at one size: `/bin/true`, `pbem --version`, `pbem deliver`
/// of one move mail, and `pbem poll` finding one move mail in the
/// Maildir, each `runs` times, in a data folder of `n` running games.
pub(super) fn process(dir: &Path, n: usize, runs: usize, keep: bool) -> Vec<Runs> {
    let (path, config, mut games) = scale_folder(dir, n);
    let inbox = config.inbox.maildir.clone().unwrap();
    // The first poll builds the deadline index, and `pbem games` the
    // games' (a poll that finds no mail reads no record): a running
    // server's folder has both; their making is not what is measured
    // here (the scale section times it).
    for args in [["poll", "--config"], ["games", "--config"]] {
        let first = Command::new(PBEM).args(args).arg(&path).output().unwrap();
        assert!(first.status.success(), "{first:?}");
    }
    let picks: Vec<usize> = (0..3 * runs).map(|i| (i * 7919) % n).collect();
    // The players of a game under way have had pbem's mail before: their
    // Maildirs are there (the folder was written, not played by mail). A
    // first mail to an address makes its Maildir, four folders more.
    if let pbem::transport::SendConfig::Maildir { folder } = &config.send {
        for i in 0..(3 * runs + 400).min(n) {
            for who in players_of((i * 7919) % n).1 {
                let dir = folder.join(pbem::transport::folder_name(&who));
                pbem::mailbox::Maildir::open(dir).unwrap();
            }
        }
    }
    let mut mails: Vec<String> = picks
        .iter()
        .map(|&g| games[g].next_mail().expect("a line long enough").1)
        .collect();
    if keep {
        // Move mails of other games, not played: to time or profile one
        // mail by hand (`pbem deliver --config pbem.toml < unplayed/N.eml`).
        let unplayed = dir.join("unplayed");
        fs::create_dir_all(&unplayed).unwrap();
        for i in 3 * runs..(3 * runs + 400).min(n) {
            let (_, raw) = games[(i * 7919) % n]
                .next_mail()
                .expect("a line long enough");
            fs::write(unplayed.join(format!("{i}.eml")), raw).unwrap();
        }
    }
    let loaded = mails.split_off(2 * runs);
    let polled = mails.split_off(runs);
    // What the set-up wrote (the records, the players' Maildirs) is not
    // for the first runs' syncs to write: a running server's folder is on
    // disk already.
    super::sync_disk();
    let pbem = |args: &[&str]| {
        let mut c = Command::new(PBEM);
        c.args(args);
        c
    };
    let config_arg = path.to_str().unwrap();
    let poll = |what: &str, first: usize, mails: &[String]| {
        time_runs(
            what,
            runs,
            |i| {
                drop_mail(&inbox, &format!("p{:04}", first + i), &mails[i]);
                pbem(&["poll", "--config", config_arg])
            },
            |_| None,
        )
    };
    let mut out = vec![
        time_runs("/bin/true", runs, |_| Command::new("/bin/true"), |_| None),
        time_runs("pbem --version", runs, |_| pbem(&["--version"]), |_| None),
        time_runs(
            "pbem deliver (1 move)",
            runs,
            |_| pbem(&["deliver", "--config", config_arg]),
            |i| Some(mails[i].clone()),
        ),
        poll("pbem poll (1 move)", 0, &polled),
    ];
    // Beside the data folder: the same file system.
    let ballast = Ballast::start(&dir.join("ballast"));
    let busy = poll("pbem poll (1 move), beside a writer", runs, &loaded);
    let written = ballast.stop();
    out.push(Runs {
        what: format!("{} ({:.2} GB)", busy.what, written as f64 / 1e9),
        ..busy
    });
    out
}

/// Another program writing to the data folder's file system, as a backup
/// or a build would: a thread that writes 1 GB (in 1 MB writes, not
/// synced), syncs it the way `dd conv=fsync` does, and starts over on the
/// same file, until stopped. Started once it has 256 MB in the page cache.
struct Ballast {
    file: PathBuf,
    stop: Arc<AtomicBool>,
    writer: std::thread::JoinHandle<u64>,
}

impl Ballast {
    fn start(file: &Path) -> Ballast {
        const MB: usize = 1 << 20;
        let stop = Arc::new(AtomicBool::new(false));
        let written = Arc::new(AtomicUsize::new(0));
        let (path, done, count) = (file.to_path_buf(), stop.clone(), written.clone());
        let writer = std::thread::spawn(move || {
            let chunk = vec![0u8; MB];
            let mut f = fs::File::create(&path).unwrap();
            let mut total = 0u64;
            while !done.load(Ordering::Relaxed) {
                use std::io::Seek;
                f.seek(std::io::SeekFrom::Start(0)).unwrap();
                for _ in 0..1024 {
                    if done.load(Ordering::Relaxed) {
                        break;
                    }
                    f.write_all(&chunk).unwrap();
                    total += MB as u64;
                    count.fetch_add(1, Ordering::Relaxed);
                }
                f.sync_data().unwrap();
            }
            total
        });
        while written.load(Ordering::Relaxed) < 256 {
            std::thread::sleep(Duration::from_millis(10));
        }
        Ballast {
            file: file.to_path_buf(),
            stop,
            writer,
        }
    }

    /// Stops the writer, removes its file: how many bytes it wrote.
    fn stop(self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        let written = self.writer.join().unwrap();
        fs::remove_file(&self.file).unwrap();
        written
    }
}

/// Process: one mail as a whole process, per size.
/// The targets of one move mail as a process (`pbem deliver`, `pbem
/// poll`): wall time (p50) and CPU time, in ms.
const TARGET_WALL_MS: f64 = 10.0;
const TARGET_CPU_MS: f64 = 5.0;

pub(super) fn report_process(dir: &Path, sizes: &Sizes, misses: &mut Vec<String>) {
    println!(
        "\nprocess: one mail per process, in a data folder of running games ({} runs each; CPU = user + system of each run)\n{:>8}  {:<44} {:>9} {:>9} {:>9} {:>9}",
        sizes.runs, "games", "run", "wall p50", "wall p90", "CPU p50", "CPU mean"
    );
    // With KEEP, beside the run's temporary folder (which goes), made anew.
    let keep = std::env::var(super::scale::KEEP).is_ok_and(|v| !v.is_empty() && v != "0");
    for &n in &sizes.process {
        let pdir = match dir.parent().filter(|_| keep) {
            Some(base) => base.join(format!("pbem-process-{n}")),
            None => dir.join(format!("process-{n}")),
        };
        let _ = fs::remove_dir_all(&pdir);
        let runs = process(&pdir, n, sizes.runs, keep);
        for r in &runs {
            println!(
                "{:>8}  {:<44} {:>9.1} {:>9.1} {:>9.2} {:>9.2}",
                n,
                r.what,
                quantile(&r.wall_ms, 0.5),
                quantile(&r.wall_ms, 0.9),
                quantile(&r.cpu_ms, 0.5),
                r.cpu_mean()
            );
            let wall = quantile(&r.wall_ms, 0.5);
            // The poll beside a writer is held to its own target below
            // (at most twice the quiet poll's time), not to the quiet one's.
            let one_mail = (r.what.starts_with("pbem deliver") || r.what.starts_with("pbem poll"))
                && !r.what.contains("beside a writer");
            if one_mail && (wall > TARGET_WALL_MS || r.cpu_mean() > TARGET_CPU_MS) {
                misses.push(format!(
                    "{} at {n} games: {wall:.1} ms wall (p50), {:.2} ms CPU (mean) > {TARGET_WALL_MS} / {TARGET_CPU_MS} ms",
                    r.what,
                    r.cpu_mean()
                ));
            }
        }
        if let [.., quiet, busy] = &runs[..] {
            let ratio = quantile(&busy.wall_ms, 0.5) / quantile(&quiet.wall_ms, 0.5);
            println!("{n:>8}  poll beside a writer / quiet poll, p50: {ratio:.2}x");
            if ratio > 2.0 {
                misses.push(format!(
                    "process, {n} games: a poll beside a writer takes {ratio:.2}x the quiet one (target: at most 2x)"
                ));
            }
        }
        if keep {
            println!("{n:>8}  (kept for profiling: {})", pdir.display());
        } else {
            let _ = fs::remove_dir_all(&pdir);
        }
    }
    println!(
        "(deliver: the mail on standard input, as an MTA pipe gives it; poll: one mail in the Maildir; both durable, replies delivered into the players' Maildirs, there from earlier mail; beside a writer: another thread fills the same file system meanwhile, 1 GB at a time synced at each GB, what it wrote in all in brackets; targets: at most {TARGET_WALL_MS} ms wall, the p50, and {TARGET_CPU_MS} ms CPU, the mean, quiet; beside a writer, at most twice the quiet poll's wall)"
    );
}
