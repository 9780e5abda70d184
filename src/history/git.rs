//! Running the `git` binary on the games folder: the user's `GIT_*`
//! variables dropped, hooks and signing off, never a prompt, and a time
//! limit on what goes over the network.

use super::HistoryError;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
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

/// How long a push may take.
pub const PUSH_TIME: Duration = Duration::from_secs(60);

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

impl Git {
    /// Runs `git ARGS` with `stdin` fed to it and `env` set; its output.
    ///
    /// # Errors
    /// [`HistoryError::NoGit`] when git cannot be run;
    /// [`HistoryError::Failed`] with git's words when it fails or runs
    /// past `limit`.
    pub fn run(
        &self,
        args: &[&str],
        stdin: Option<&[u8]>,
        env: &[(&str, String)],
        limit: Option<Duration>,
    ) -> Result<Vec<u8>, HistoryError> {
        let mut cmd = Command::new("git");
        cmd.arg("-C").arg(&self.dir).args(SAFE).args(args);
        for (k, _) in std::env::vars_os() {
            if k.to_string_lossy().starts_with("GIT_") {
                cmd.env_remove(k);
            }
        }
        cmd.env("GIT_TERMINAL_PROMPT", "0")
            .env("LC_ALL", "C")
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let what = || format!("git {}", args.join(" "));
        let mut child = cmd
            .spawn()
            .map_err(|e| HistoryError::NoGit(e.to_string()))?;
        let feeder = stdin.map(|bytes| {
            let mut pipe = child.stdin.take();
            let bytes = bytes.to_vec();
            // Fed from a thread: git may answer before it has read all.
            std::thread::spawn(move || {
                if let Some(p) = &mut pipe {
                    let _ = p.write_all(&bytes);
                }
            })
        });
        let (out, err) = (child.stdout.take(), child.stderr.take());
        let reader = |pipe: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                if let Some(mut p) = pipe {
                    let _ = p.read_to_end(&mut buf);
                }
                buf
            })
        };
        let out = reader(out.map(|p| Box::new(p) as Box<dyn Read + Send>));
        let err = reader(err.map(|p| Box::new(p) as Box<dyn Read + Send>));
        let status = match limit {
            None => child.wait(),
            Some(limit) => wait_for(&mut child, limit),
        }
        .map_err(|e| HistoryError::Failed(what(), e.to_string()))?;
        if let Some(f) = feeder {
            let _ = f.join();
        }
        let out = out.join().unwrap_or_default();
        let err = err.join().unwrap_or_default();
        if status.success() {
            Ok(out)
        } else {
            let said = String::from_utf8_lossy(&err).trim().to_string();
            Err(HistoryError::Failed(
                what(),
                if said.is_empty() {
                    status.to_string()
                } else {
                    said
                },
            ))
        }
    }

    /// [`Git::run`] without input, its output as text.
    ///
    /// # Errors
    /// As [`Git::run`].
    pub fn text(&self, args: &[&str]) -> Result<String, HistoryError> {
        self.run(args, None, &[], None)
            .map(|o| String::from_utf8_lossy(&o).into_owned())
    }

    /// Waits until git's locks in the repository are gone: a lock is
    /// waited for a moment (a git a killed pbem started may still run),
    /// then, when old, taken as left by a git that died and removed. Call
    /// with the data folder's lock held: no other pbem works here.
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

/// Waits for `child` at most `limit`, then kills it.
fn wait_for(
    child: &mut std::process::Child,
    limit: Duration,
) -> std::io::Result<std::process::ExitStatus> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        if start.elapsed() >= limit {
            let _ = child.kill();
            return child.wait();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
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
