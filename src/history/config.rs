//! `[git]` in `pbem.toml`: whether the records' history is kept in git,
//! where it is pushed, and under whose name.

use serde::{Deserialize, Serialize};
use std::path::Path;

/// The `[git]` table. Its presence turns the history on (`enabled = false`
/// keeps the table and turns it off).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GitConfig {
    #[serde(default = "yes")]
    pub enabled: bool,
    /// Where to push after each commit: a URL git knows
    /// (`ssh://host/path.git`, `host:path.git`, `https://...`) or a path
    /// (relative ones are taken from the settings file's folder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote: Option<String>,
    /// The branch the history is kept on, and pushed to.
    #[serde(default = "default_branch")]
    pub branch: String,
    /// The commits' author and committer; default: pbem's `name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author_name: Option<String>,
    /// Default: pbem's `address`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author_email: Option<String>,
    /// How long a push may take before it is killed (with whatever it
    /// started) and tried again later.
    #[serde(default = "default_push_seconds")]
    pub push_seconds: u64,
}

fn yes() -> bool {
    true
}

fn default_push_seconds() -> u64 {
    60
}

/// The longest `push_seconds` taken: an hour.
const MAX_PUSH_SECONDS: u64 = 3600;

fn default_branch() -> String {
    "main".into()
}

impl Default for GitConfig {
    fn default() -> GitConfig {
        GitConfig {
            enabled: true,
            remote: None,
            branch: default_branch(),
            author_name: None,
            author_email: None,
            push_seconds: default_push_seconds(),
        }
    }
}

/// A `[git]` setting that cannot be used: each names its key, quotes the
/// value and says what to write instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GitSettingError {
    #[error(
        "[git] branch = \"{0}\" is not a branch name git takes (letters, digits, \
         `-`, `_`, `.` and `/`, like \"main\" or \"pbem/history\")"
    )]
    Branch(String),
    #[error(
        "[git] remote = \"{0}\" is not a repository: write a URL \
         (\"ssh://host/pbem.git\") or a path (\"/srv/pbem-history.git\")"
    )]
    Remote(String),
    #[error(
        "[git] push_seconds = {0} is not a push's time: a number of seconds from 1 \
         to {MAX_PUSH_SECONDS}, like 60"
    )]
    PushSeconds(u64),
    #[error(
        "[git] author_name = \"{0}\" cannot be a commit's author: a name \
         without `<`, `>` or line breaks, like \"pbem\""
    )]
    AuthorName(String),
    #[error("[git] author_email = \"{0}\" is not a mail address, like \"pbem@example.org\"")]
    AuthorEmail(String),
}

impl GitConfig {
    /// Checks the settings and takes a relative `remote` path from `base`
    /// (the settings file's folder).
    ///
    /// # Errors
    /// A [`GitSettingError`] naming the key: a branch git would refuse, a remote that
    /// is empty or would read as an option, a push's time out of bounds,
    /// an author git cannot write.
    pub fn resolve(&mut self, base: &Path) -> Result<(), GitSettingError> {
        if !valid_branch(&self.branch) {
            return Err(GitSettingError::Branch(self.branch.clone()));
        }
        if let Some(remote) = &mut self.remote {
            if remote.trim().is_empty() || remote.starts_with('-') || has_control(remote) {
                return Err(GitSettingError::Remote(remote.clone()));
            }
            if !is_url(remote) && Path::new(remote.as_str()).is_relative() {
                *remote = base.join(remote.as_str()).display().to_string();
            }
        }
        if !(1..=MAX_PUSH_SECONDS).contains(&self.push_seconds) {
            return Err(GitSettingError::PushSeconds(self.push_seconds));
        }
        if let Some(name) = &self.author_name
            && (name.trim().is_empty() || name.contains(['<', '>']) || has_control(name))
        {
            return Err(GitSettingError::AuthorName(name.clone()));
        }
        if let Some(email) = &self.author_email
            && email.parse::<lettre::Address>().is_err()
        {
            return Err(GitSettingError::AuthorEmail(email.clone()));
        }
        Ok(())
    }
}

fn has_control(s: &str) -> bool {
    s.chars().any(char::is_control)
}

/// A URL (`scheme://...`) or git's short ssh form (`[user@]host:path`,
/// a `:` before any `/`), rather than a path on this machine.
fn is_url(remote: &str) -> bool {
    remote.contains("://")
        || remote
            .split_once(':')
            .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
}

/// A branch name `git check-ref-format --branch` takes, in a safe subset.
fn valid_branch(b: &str) -> bool {
    !b.is_empty()
        && b.len() <= 100
        && b.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"-_./".contains(&c))
        && !b.starts_with(['-', '.', '/'])
        && !b.ends_with(['.', '/'])
        && !b.ends_with(".lock")
        && !b.contains("..")
        && !b.contains("//")
        && !b.contains("/.")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(c: GitConfig) -> Result<GitConfig, GitSettingError> {
        let mut c = c;
        c.resolve(Path::new("/etc/pbem")).map(|()| c)
    }

    #[test]
    fn remotes_paths_and_urls() {
        let with = |r: &str| {
            resolved(GitConfig {
                remote: Some(r.into()),
                ..GitConfig::default()
            })
        };
        for (given, taken) in [
            ("backup.git", "/etc/pbem/backup.git"),
            ("/srv/h.git", "/srv/h.git"),
            ("ssh://host/h.git", "ssh://host/h.git"),
            ("git@host:h.git", "git@host:h.git"),
            ("https://example.org/h.git", "https://example.org/h.git"),
        ] {
            assert_eq!(with(given).unwrap().remote.as_deref(), Some(taken));
        }
        for bad in ["", "  ", "--upload-pack=x", "a\nb"] {
            let e = with(bad).unwrap_err();
            assert_eq!(e, GitSettingError::Remote(bad.into()));
            let e = e.to_string();
            assert!(e.contains("[git] remote") && e.contains("a URL"), "{e}");
        }
    }

    #[test]
    fn branches_and_authors() {
        for good in ["main", "pbem/history", "v1.2", "a_b-c"] {
            let c = GitConfig {
                branch: good.into(),
                ..GitConfig::default()
            };
            assert!(resolved(c).is_ok(), "{good}");
        }
        for bad in [
            "", "-x", ".x", "x.", "x/", "a..b", "a b", "x.lock", "a//b", "a/.b", "ü",
        ] {
            let c = GitConfig {
                branch: bad.into(),
                ..GitConfig::default()
            };
            let e = resolved(c).unwrap_err().to_string();
            assert!(e.contains(&format!("branch = \"{bad}\"")), "{e}");
        }
        let c = GitConfig {
            author_name: Some("Eve <x>".into()),
            ..GitConfig::default()
        };
        assert!(matches!(
            resolved(c).unwrap_err(),
            GitSettingError::AuthorName(_)
        ));
        let c = GitConfig {
            author_email: Some("nobody".into()),
            ..GitConfig::default()
        };
        assert!(
            resolved(c)
                .unwrap_err()
                .to_string()
                .contains("not a mail address")
        );
        for (secs, ok) in [
            (0, false),
            (1, true),
            (60, true),
            (3600, true),
            (3601, false),
        ] {
            let c = GitConfig {
                push_seconds: secs,
                ..GitConfig::default()
            };
            match resolved(c) {
                Ok(c) => assert!(ok && c.push_seconds == secs, "{secs}"),
                Err(e) => assert!(
                    !ok && e.to_string().contains(&format!("push_seconds = {secs}")),
                    "{e}"
                ),
            }
        }
    }
}
