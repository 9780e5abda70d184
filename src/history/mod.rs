//! The git history of the game records: with `[git]` in `pbem.toml`, the
//! games folder (`DATA/games/`) is a git repository and each change of
//! the records is a commit, one per poll (made once its replies are sent)
//! and one per admin's command, whose message lists each game's new lines
//! (`bz-7k2q: 12. red 22-15`); pushed to a remote when one is set.
//!
//! Git runs as a program ([`git`]), not a library: the `git` on the
//! machine is the one the admin and the remote already trust, and nothing
//! of it runs inside pbem (docs/src/admin/git.md).
//!
//! What is committed is whatever the record files hold that HEAD does
//! not: the history follows the disk, never the other way. So a crash
//! between a batch's sync and its commit loses nothing: the next call
//! (each poll and each admin's command starts with one) commits it, its
//! message read from the difference. A git that fails is logged and
//! tried again at the next call; it never holds up a move or a mail.
//!
//! Committing and pushing are apart ([`History::record`],
//! [`History::push`]): a commit is made with the data folder's lock held
//! (it reads the records), a push never is (it may wait on the network
//! for [`GitConfig::push_seconds`]). A push reads only refs and objects
//! that are there for good, and writes only `refs/pbem/pushed/...`: a
//! commit beside it changes nothing it reads. Two pushes of one repository
//! never run at once: each holds `.git/pbem-push.lock` (a `flock`, which
//! the system lets go when its pbem ends, however it ends; only a pbem
//! killed by SIGKILL mid-push leaves its git to end on its own).
//!
//! Only the records go in: the secrets, keys and everything else of the
//! data folder live outside the games folder, the repository's
//! `.gitignore` (written by pbem) ignores every file but `<id>.toml`, and
//! every `git add` names the record files alone.

mod config;
pub mod git;
pub mod message;

use chrono::{DateTime, Utc};
pub use config::{GitConfig, GitSettingError};
use git::Git;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What pbem writes as the repository's `.gitignore`.
pub const GITIGNORE: &str = "# Written by pbem: only the game records (<id>.toml) are kept in this history.\n\
    /*\n!/*.toml\n!/.gitignore\n";

/// The only files ever added: the records at the top of the folder, and
/// the `.gitignore`.
const PATHSPEC: [&str; 2] = [":(glob)*.toml", ".gitignore"];

/// Why the history could not be written now (tried again at the next call).
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("cannot run git ({0}): install git, or take [git] out of pbem.toml")]
    NoGit(String),
    #[error("`{0}` failed: {1}")]
    Failed(String, String),
    #[error("{0}: another git works on the records' history; tried again at the next poll")]
    Busy(String),
    #[error("{0}: {1}")]
    Io(String, String),
    #[error(
        "`{0}` ran past its {1} s and was killed, with every process it started: is the \
         remote (or the disk) answering? tried again later (a push's time is [git] push_seconds)"
    )]
    TimedOut(String, u64),
    #[error("`{0}` was cut short: pbem is stopping; tried again at its next start")]
    Stopped(String),
}

/// The history of one data folder's records.
#[derive(Clone, Debug)]
pub struct History {
    git: Git,
    branch: String,
    remote: Option<String>,
    name: String,
    email: String,
    /// How long a push may take.
    push_time: Duration,
}

/// A commit made: its id, and its message's lines.
pub type Commit = (String, Vec<String>);

/// What one [`History::push`] did (when it did not fail).
#[derive(Debug, PartialEq, Eq)]
pub enum Pushed {
    /// No remote, no commit yet, or the remote has HEAD already.
    Nothing,
    /// HEAD, this commit, is on the remote now.
    Sent(String),
    /// Another push of this repository is under way (it may push an
    /// older commit: this one waits for the next try).
    Busy,
}

impl History {
    /// The history of the records in `games` (the data folder's `games/`),
    /// committed as `name <email>` (pbem's own, unless `config` names
    /// another); `None` when `config` turns it off.
    pub fn new(config: &GitConfig, games: PathBuf, name: &str, email: &str) -> Option<History> {
        config.enabled.then(|| History {
            git: Git { dir: games },
            branch: config.branch.clone(),
            remote: config.remote.clone(),
            name: config.author_name.clone().unwrap_or_else(|| name.into()),
            email: config
                .author_email
                .clone()
                .unwrap_or_else(|| email.into())
                .to_lowercase(),
            push_time: Duration::from_secs(config.push_seconds),
        })
    }

    /// The games folder.
    pub fn dir(&self) -> &Path {
        &self.git.dir
    }

    /// Whether commits are pushed somewhere.
    pub fn has_remote(&self) -> bool {
        self.remote.is_some()
    }

    /// How long a push may take (`[git] push_seconds`).
    pub fn push_time(&self) -> Duration {
        self.push_time
    }

    /// Commits whatever the records hold that HEAD does not, dated `now`;
    /// the commit, `None` when nothing had changed. Never pushes
    /// ([`History::push`]). Call with the data folder's lock held.
    ///
    /// # Errors
    /// The commit could not be made (nothing is lost: the next call
    /// commits it).
    pub fn record(&self, now: DateTime<Utc>) -> Result<Option<Commit>, HistoryError> {
        self.init()?;
        self.git.clear_locks(&self.branch)?;
        self.commit(now)
    }

    /// Makes the repository when there is none (or a `git init` was cut
    /// short), on `branch`, with pbem's `.gitignore` (written when missing).
    fn init(&self) -> Result<(), HistoryError> {
        let dir = &self.git.dir;
        // Marked once whole: a `git init` cut short is run again (it
        // mends what it finds).
        let made = dir.join(".git/pbem-initialized");
        if !made.exists() {
            self.git.text(&["init", "-q", "-b", &self.branch])?;
            std::fs::write(&made, "")
                .map_err(|e| HistoryError::Io(made.display().to_string(), e.to_string()))?;
        }
        let ignore = dir.join(".gitignore");
        if !ignore.exists() {
            std::fs::write(&ignore, GITIGNORE)
                .map_err(|e| HistoryError::Io(ignore.display().to_string(), e.to_string()))?;
        }
        Ok(())
    }

    /// Stages the record files and commits them with a message of their
    /// new lines; the commit's id and lines, `None` when nothing changed.
    fn commit(&self, now: DateTime<Utc>) -> Result<Option<(String, Vec<String>)>, HistoryError> {
        let mut add = vec!["add", "-A", "--"];
        add.extend(PATHSPEC);
        match self.git.text(&add) {
            // No record yet, on disk or in the history.
            Err(HistoryError::Failed(_, said)) if said.contains("did not match any files") => {
                self.git.text(&["add", "-A", "--", ".gitignore"])?;
            }
            other => {
                other?;
            }
        }
        let head = self.head()?;
        let mut diff = vec!["diff", "--cached", "--no-renames", "--name-only", "-z"];
        diff.extend(head.as_deref());
        diff.push("--");
        diff.extend(PATHSPEC);
        let changed: Vec<String> = self
            .git
            .text(&diff)?
            .split('\0')
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect();
        if changed.is_empty() {
            return Ok(None);
        }
        let lines = self.lines(&changed, head.is_some())?;
        let date = format!("@{} +0000", now.timestamp());
        let env = [
            ("GIT_AUTHOR_NAME", self.name.clone()),
            ("GIT_AUTHOR_EMAIL", self.email.clone()),
            ("GIT_AUTHOR_DATE", date.clone()),
            ("GIT_COMMITTER_NAME", self.name.clone()),
            ("GIT_COMMITTER_EMAIL", self.email.clone()),
            ("GIT_COMMITTER_DATE", date),
        ];
        let text = message::commit_message(&lines);
        // The changed records alone, by name: whatever else someone staged
        // by hand stays out (a list in a file: there may be thousands).
        let paths = self.git.dir.join(".git/pbem-paths");
        let list: String = changed.iter().map(|n| format!("{n}\0")).collect();
        std::fs::write(&paths, list)
            .map_err(|e| HistoryError::Io(paths.display().to_string(), e.to_string()))?;
        self.git.run(
            &[
                "commit",
                "-q",
                "--no-verify",
                "--cleanup=verbatim",
                "-F",
                "-",
                "--pathspec-from-file=.git/pbem-paths",
                "--pathspec-file-nul",
            ],
            Some(text.as_bytes()),
            &env,
            git::Limit::local(),
        )?;
        let id = self.head()?.unwrap_or_default();
        Ok(Some((id, lines)))
    }

    /// The commit HEAD names, `None` before the first.
    fn head(&self) -> Result<Option<String>, HistoryError> {
        match self
            .git
            .text(&["rev-parse", "-q", "--verify", "HEAD^{commit}"])
        {
            Ok(id) => Ok(Some(id.trim().to_string())),
            Err(HistoryError::Failed(..)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The message lines of the changed files `changed`: each record's
    /// new lines, from its text in HEAD and in the index (read in one
    /// `git cat-file`).
    fn lines(&self, changed: &[String], has_head: bool) -> Result<Vec<String>, HistoryError> {
        let records: Vec<(&str, &str)> = changed
            .iter()
            .filter_map(|n| Some((n.as_str(), n.strip_suffix(".toml")?)))
            .filter(|(_, id)| crate::store::valid_id(id))
            .collect();
        let mut ask = String::new();
        for (name, _) in &records {
            if has_head {
                ask.push_str(&format!("HEAD:{name}\n"));
            }
            ask.push_str(&format!(":{name}\n"));
        }
        let per = if has_head { 2 } else { 1 };
        let out = self.git.run(
            &["cat-file", "--batch"],
            Some(ask.as_bytes()),
            &[],
            git::Limit::local(),
        )?;
        let objects = git::batch_objects(&out, records.len() * per);
        let text =
            |o: &Option<Vec<u8>>| o.as_ref().map(|b| String::from_utf8_lossy(b).into_owned());
        let mut lines = Vec::new();
        for ((_, id), pair) in records.iter().zip(objects.chunks(per)) {
            let (old, new) = match pair {
                [old, new] => (text(old), text(new)),
                [new] => (None, text(new)),
                _ => (None, None),
            };
            lines.extend(message::game_lines(id, old.as_deref(), new.as_deref()));
        }
        for other in changed
            .iter()
            .filter(|n| !records.iter().any(|(r, _)| r == n))
        {
            lines.push(if other == ".gitignore" {
                ".gitignore: only the game records are kept here".to_string()
            } else {
                format!("{other}: changed")
            });
        }
        Ok(lines)
    }

    /// Pushes HEAD to the remote's branch when it is not there yet (as
    /// far as pbem knows: `refs/pbem/pushed/<remote's hash>` remembers
    /// the last commit pushed), for at most `limit`. Needs no data
    /// folder's lock, and should not be called with it held: it may wait
    /// on the network.
    ///
    /// # Errors
    /// The push failed, ran past its time or was stopped: tried again
    /// at the next call.
    pub fn push(&self, limit: git::Limit<'_>) -> Result<Pushed, HistoryError> {
        let Some(remote) = self.remote.as_deref() else {
            return Ok(Pushed::Nothing);
        };
        if !self.git.dir.join(".git/pbem-initialized").exists() {
            return Ok(Pushed::Nothing);
        }
        let lock_path = self.git.dir.join(".git/pbem-push.lock");
        let io =
            |e: std::io::Error| HistoryError::Io(lock_path.display().to_string(), e.to_string());
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io)?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Ok(Pushed::Busy),
            Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
        }
        let Some(head) = self.head()? else {
            return Ok(Pushed::Nothing);
        };
        let mark = format!(
            "refs/pbem/pushed/{:016x}",
            crate::store::stable_hash(remote.as_bytes())
        );
        let pushed = self.git.text(&["rev-parse", "-q", "--verify", &mark]).ok();
        if pushed.as_deref().map(str::trim) == Some(head.as_str()) {
            return Ok(Pushed::Nothing);
        }
        let target = format!("{head}:refs/heads/{}", self.branch);
        self.git
            .run(&["push", "-q", "--", remote, &target], None, &[], limit)?;
        self.git.text(&["update-ref", &mark, &head])?;
        // Let go after the mark, which the next push reads.
        drop(lock);
        Ok(Pushed::Sent(head))
    }
}

#[cfg(test)]
mod tests;
