//! The git history of the game records (issue 17): with `[git]` in
//! `pbem.toml`, the games folder (`DATA/games/`) is a git repository and
//! each change of the records is a commit, one per batch of the poll (and
//! one per admin's command), whose message lists each game's new lines
//! (`bz-7k2q: 12. red 22-15`); pushed to a remote when one is set.
//!
//! Git runs as a program ([`git`]), not a library: the `git` on the
//! machine is the one the admin and the remote already trust, and nothing
//! of it runs inside pbem (README, "Git history of the records").
//!
//! What is committed is whatever the record files hold that HEAD does
//! not: the history follows the disk, never the other way. So a crash
//! between a batch's sync and its commit loses nothing: the next call
//! (each poll and each admin's command starts with one) commits it, its
//! message read from the difference. A git that fails is logged and
//! tried again at the next call; it never holds up a move or a mail.
//!
//! Only the records go in: the secrets, keys and everything else of the
//! data folder live outside the games folder, the repository's
//! `.gitignore` (written by pbem) ignores every file but `<id>.toml`, and
//! every `git add` names the record files alone.

mod config;
pub mod git;
pub mod message;

use chrono::{DateTime, Utc};
pub use config::GitConfig;
use git::Git;
use std::path::{Path, PathBuf};

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
}

/// The history of one data folder's records.
#[derive(Clone, Debug)]
pub struct History {
    git: Git,
    branch: String,
    remote: Option<String>,
    name: String,
    email: String,
}

/// What one [`History::record`] did.
#[derive(Debug, Default)]
pub struct Recorded {
    /// The commit made, and its lines; `None`: nothing had changed.
    pub commit: Option<(String, Vec<String>)>,
    /// The push, when one was due.
    pub pushed: Option<Result<(), HistoryError>>,
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
        })
    }

    /// The games folder.
    pub fn dir(&self) -> &Path {
        &self.git.dir
    }

    /// Commits whatever the records hold that HEAD does not, dated `now`,
    /// then pushes when a remote is set and HEAD is not there yet (a
    /// failed push is tried again with the next commit, or with
    /// `retry_push`). Call with the data folder's lock held.
    ///
    /// # Errors
    /// The commit could not be made (nothing is lost: the next call
    /// commits it). A push that fails is in [`Recorded::pushed`].
    pub fn record(&self, now: DateTime<Utc>, retry_push: bool) -> Result<Recorded, HistoryError> {
        self.init()?;
        self.git.clear_locks(&self.branch)?;
        let mut done = Recorded {
            commit: self.commit(now)?,
            pushed: None,
        };
        if self.remote.is_some() && (retry_push || done.commit.is_some()) {
            done.pushed = self.push();
        }
        Ok(done)
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
            None,
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
        let out = self
            .git
            .run(&["cat-file", "--batch"], Some(ask.as_bytes()), &[], None)?;
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
    /// the last commit pushed). `None`: nothing to push.
    fn push(&self) -> Option<Result<(), HistoryError>> {
        let remote = self.remote.as_deref()?;
        let head = match self.head() {
            Ok(Some(h)) => h,
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        let mark = format!(
            "refs/pbem/pushed/{:016x}",
            crate::store::stable_hash(remote.as_bytes())
        );
        let pushed = self.git.text(&["rev-parse", "-q", "--verify", &mark]).ok();
        if pushed.as_deref().map(str::trim) == Some(head.as_str()) {
            return None;
        }
        let target = format!("{head}:refs/heads/{}", self.branch);
        Some(
            self.git
                .run(
                    &["push", "-q", "--", remote, &target],
                    None,
                    &[],
                    Some(git::PUSH_TIME),
                )
                .and_then(|_| self.git.text(&["update-ref", &mark, &head]).map(|_| ())),
        )
    }
}

#[cfg(test)]
mod tests;
