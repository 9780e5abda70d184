//! Running the `git` binary on the games folder: the user's `GIT_*`
//! variables dropped, hooks and signing off, never a prompt, and a time
//! limit on every command.
//!
//! Each git runs in a process group of its own, and its output goes to
//! unnamed temporary files, not pipes: a helper git starts (`git
//! remote-http`, `ssh`) inherits its standard error, and a pipe would
//! keep pbem reading for as long as the helper lives. When git ends, or
//! its time is up, the whole group is killed, so nothing git started
//! outlives the command, and nothing pbem waits on can be held open by a
//! process it does not know.

use super::HistoryError;
use rustix::process::{Pid, Signal, WaitId, WaitIdOptions, kill_process_group, waitid};
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The options every git command runs with: no hook may run (the folder's
/// `.git/hooks` are nobody's to fill), no commit asks for a key, no line
/// ending or file-system monitor rewrites a record, and git's own upkeep
/// (`gc --auto`) runs in the command, not in a process left behind.
const SAFE: [&str; 12] = [
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "commit.gpgSign=false",
    "-c",
    "core.autocrlf=false",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "gc.autoDetach=false",
    "-c",
    "core.sshCommand=ssh -o BatchMode=yes",
];

/// How long a command that stays on this machine (`add`, `commit`,
/// `rev-parse`, `cat-file`) may take: far more than it ever needs, so
/// that only a git that hangs (a stalled disk) is stopped, and the data
/// folder's lock, held meanwhile, is not held for ever.
pub const LOCAL_TIME: Duration = Duration::from_secs(60);

/// How long to wait for a lock git holds in the repository (a pbem killed
/// while its git ran leaves that git running a moment longer), and how
/// old a lock must be to be taken as left by a git that died.
const LOCK_WAIT: Duration = Duration::from_secs(3);
const LOCK_STALE: Duration = Duration::from_secs(30);

/// A git repository worked on by `git -C dir`.
#[derive(Clone, Debug)]
pub struct Git {
    pub dir: PathBuf,
}

/// How long one git command may run, and what else may stop it.
#[derive(Clone, Copy, Debug)]
pub struct Limit<'a> {
    pub time: Duration,
    /// Raised: the command is stopped at once (pbem is stopping).
    pub stop: Option<&'a AtomicBool>,
}

impl Limit<'_> {
    /// [`LOCAL_TIME`], nothing else.
    pub fn local() -> Limit<'static> {
        Limit {
            time: LOCAL_TIME,
            stop: None,
        }
    }
}

/// How a git command ended.
enum Ended {
    Exited(ExitStatus),
    TimedOut,
    Stopped,
}

impl Git {
    /// Runs `git ARGS` with `stdin` fed to it and `env` set, for at most
    /// `limit`; its output.
    ///
    /// # Errors
    /// [`HistoryError::NoGit`] when git cannot be run;
    /// [`HistoryError::Failed`] with git's words when it fails;
    /// [`HistoryError::TimedOut`] or [`HistoryError::Stopped`] when it
    /// was killed.
    pub fn run(
        &self,
        args: &[&str],
        stdin: Option<&[u8]>,
        env: &[(&str, String)],
        limit: Limit<'_>,
    ) -> Result<Vec<u8>, HistoryError> {
        let what = || format!("git {}", args.join(" "));
        let io = |e: std::io::Error| HistoryError::Failed(what(), e.to_string());
        let mut cmd = Command::new("git");
        cmd.arg("-C").arg(&self.dir).args(SAFE).args(args);
        for (k, _) in std::env::vars_os() {
            if k.to_string_lossy().starts_with("GIT_") {
                cmd.env_remove(k);
            }
        }
        let (out, err) = (scratch(None).map_err(io)?, scratch(None).map_err(io)?);
        cmd.env("GIT_TERMINAL_PROMPT", "0")
            .env("LC_ALL", "C")
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(match stdin {
                Some(bytes) => Stdio::from(scratch(Some(bytes)).map_err(io)?),
                None => Stdio::null(),
            })
            .stdout(out.try_clone().map_err(io)?)
            .stderr(err.try_clone().map_err(io)?)
            .process_group(0);
        let mut child = cmd
            .spawn()
            .map_err(|e| HistoryError::NoGit(e.to_string()))?;
        let status = match wait_for(&mut child, limit).map_err(io)? {
            Ended::Exited(status) => status,
            Ended::TimedOut => return Err(HistoryError::TimedOut(what(), limit.time.as_secs())),
            Ended::Stopped => return Err(HistoryError::Stopped(what())),
        };
        let out = read_all(out).map_err(io)?;
        if status.success() {
            return Ok(out);
        }
        let said = read_all(err).map_err(io)?;
        let said = String::from_utf8_lossy(&said).trim().to_string();
        Err(HistoryError::Failed(
            what(),
            if said.is_empty() {
                status.to_string()
            } else {
                said
            },
        ))
    }

    /// [`Git::run`] without input, at most [`LOCAL_TIME`]; its output as
    /// text.
    ///
    /// # Errors
    /// As [`Git::run`].
    pub fn text(&self, args: &[&str]) -> Result<String, HistoryError> {
        self.run(args, None, &[], Limit::local())
            .map(|o| String::from_utf8_lossy(&o).into_owned())
    }

    /// Waits until git's locks in the repository are gone: a lock is
    /// waited for a moment (a git a killed pbem started may still run),
    /// then, when old, taken as left by a git that died and removed. Call
    /// with the data folder's lock held: no other pbem commits here (a
    /// push, which may run beside, takes none of these locks).
    ///
    /// # Errors
    /// [`HistoryError::Busy`] when a recent lock stays.
    pub fn clear_locks(&self, branch: &str) -> Result<(), HistoryError> {
        let git = self.dir.join(".git");
        let locks = [
            git.join("index.lock"),
            git.join("HEAD.lock"),
            git.join("refs/heads").join(format!("{branch}.lock")),
        ];
        let start = Instant::now();
        loop {
            let mut held = locks.iter().filter(|p| p.exists());
            let Some(recent) = held.find(|p| {
                let dead = age(p, &git).is_some_and(|a| a >= LOCK_STALE);
                !(dead && std::fs::remove_file(p).is_ok())
            }) else {
                return Ok(());
            };
            if start.elapsed() >= LOCK_WAIT {
                return Err(HistoryError::Busy(recent.display().to_string()));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// An unnamed temporary file (gone with its last descriptor), holding
/// `bytes` and read from its start.
fn scratch(bytes: Option<&[u8]>) -> std::io::Result<File> {
    let mut f = tempfile::tempfile()?;
    if let Some(bytes) = bytes {
        f.write_all(bytes)?;
        f.rewind()?;
    }
    Ok(f)
}

/// What git wrote to `f`.
fn read_all(mut f: File) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    f.rewind()?;
    f.read_to_end(&mut buf)?;
    Ok(buf)
}

/// How long ago `p` was last changed, by the file system's clock (the
/// one that stamped it, not pbem's, which tests pin): against a file
/// touched now beside it.
fn age(p: &Path, git: &Path) -> Option<Duration> {
    // In `.git` itself: beside a lock in `refs/heads/` it would be a branch.
    let probe = git.join("pbem-clock-probe");
    std::fs::write(&probe, b"").ok()?;
    let now = std::fs::metadata(&probe).ok()?.modified().ok()?;
    let then = std::fs::metadata(p).ok()?.modified().ok()?;
    Some(now.duration_since(then).unwrap_or_default())
}

/// Waits for `child` (the leader of its own process group) to end, at
/// most `limit`; then kills its group, which takes git past its time
/// and whatever it left behind, and reaps it.
fn wait_for(child: &mut Child, limit: Limit<'_>) -> std::io::Result<Ended> {
    let pid = Pid::from_child(child);
    let start = Instant::now();
    // Short naps first: most git commands end within milliseconds.
    let mut nap = Duration::from_millis(1);
    // Not reaped (WNOWAIT): while git is a zombie, its id, the group's,
    // cannot be given to another process, so the kill below reaches only
    // what git started.
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    let ended = loop {
        match waitid(WaitId::Pid(pid), options) {
            Ok(Some(_)) => break Ok(None),
            Ok(None) | Err(rustix::io::Errno::INTR) => {}
            // Cannot be watched: killed rather than left running.
            Err(e) => break Err(std::io::Error::from(e)),
        }
        if start.elapsed() >= limit.time {
            break Ok(Some(Ended::TimedOut));
        }
        if limit.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            break Ok(Some(Ended::Stopped));
        }
        std::thread::sleep(nap.min(limit.time.saturating_sub(start.elapsed())));
        nap = (nap * 2).min(Duration::from_millis(25));
    };
    // An empty group (nothing left) is no error.
    let _ = kill_process_group(pid, Signal::KILL);
    let status = child.wait()?;
    Ok(ended?.unwrap_or(Ended::Exited(status)))
}

/// The objects `cat-file --batch` printed for its input lines, in order:
/// each object's bytes, or `None` when it is missing.
pub fn batch_objects(mut out: &[u8], n: usize) -> Vec<Option<Vec<u8>>> {
    let mut objects = Vec::with_capacity(n);
    while objects.len() < n {
        let Some(end) = out.iter().position(|&b| b == b'\n') else {
            break;
        };
        let header = String::from_utf8_lossy(&out[..end]).into_owned();
        out = &out[end + 1..];
        let size = header
            .rsplit(' ')
            .next()
            .and_then(|s| s.parse::<usize>().ok())
            .filter(|_| !header.ends_with(" missing") && header.split(' ').count() == 3);
        match size {
            Some(size) if size <= out.len() => {
                objects.push(Some(out[..size].to_vec()));
                out = out.get(size + 1..).unwrap_or_default();
            }
            _ => objects.push(None),
        }
    }
    objects.resize(n, None);
    objects
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_output_is_read_object_by_object() {
        let out = b"abc blob 3\nx\ny\nHEAD:b.toml missing\ndef blob 0\n\n";
        assert_eq!(
            batch_objects(out, 3),
            [Some(b"x\ny".to_vec()), None, Some(Vec::new())]
        );
        assert_eq!(batch_objects(b"", 2), [None, None]);
    }
}
