//! `pbem check`: tries the settings the way a poll will use them, and
//! says in one line per check what works and what to fix.

use super::out;
use super::server::ConfigArg;
use crate::config::{Config, InboxKind};
use crate::history::{GitConfig, git::Git};
use crate::mailbox::imap::Imap;
use crate::store::Store;
use crate::transport;
use clap::Args;
use std::fmt;
use std::path::Path;

/// Test the settings a poll would run with (the file, and every --set):
/// the settings read (an unknown key fails, naming it), the data folder is
/// writable, the mailbox can be reached (the Maildir's folders are there
/// and writable, or the IMAP login and folder selection work), and mail
/// can be sent (SMTP: connect, EHLO, STARTTLS or TLS, AUTH; sendmail: the
/// command is there; Maildirs: the folder is writable). With [git]: git
/// runs and the games folder is a repository it reads (or may become
/// one); the remote is named, never reached. With [site]: the archive's
/// folder is writable. Nothing is sent or changed.
///
/// Prints one line per check, `OK` or `FAIL` and what to do about it.
/// Exits 0 when every check passes, 1 otherwise.
///
/// Examples:
///   pbem check
///   pbem check --config /srv/pbem/pbem.toml
///   pbem check --set send.port=2587
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Check {
    #[command(flatten)]
    config: ConfigArg,
}

/// One check's outcome: what works, or what failed.
struct Line {
    what: &'static str,
    result: Result<String, Failure>,
}

/// A check that failed: the problem, naming the file, folder or server,
/// and what to do about it where the problem's own words do not say.
#[derive(Debug)]
struct Failure {
    problem: String,
    hint: Option<String>,
}

impl Failure {
    /// A failure whose words say what to do already (an error of the
    /// settings, the store, the mailbox or the transport carries its
    /// hint).
    fn said(problem: impl fmt::Display) -> Failure {
        Failure {
            problem: problem.to_string(),
            hint: None,
        }
    }

    /// A failure, and what to do about it.
    fn hinted(problem: impl fmt::Display, hint: impl Into<String>) -> Failure {
        Failure {
            problem: problem.to_string(),
            hint: Some(hint.into()),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.hint {
            None => write!(f, "{}", self.problem),
            Some(hint) => write!(f, "{} ({hint})", self.problem),
        }
    }
}

impl Check {
    pub fn execute(self) -> anyhow::Result<i32> {
        let path = self.config.path();
        // As `pbem poll` reads them: the file, then the overrides.
        let config = match Config::load_with(&path, &self.config.set) {
            Ok(c) => c,
            Err(e) => {
                print(&[Line {
                    what: "config",
                    // The error carries its one hint.
                    result: Err(Failure::said(e)),
                }])?;
                return Ok(1);
            }
        };
        let lines = [
            Line {
                what: "config",
                result: Ok(format!(
                    "{} reads well{}; {}",
                    path.display(),
                    match self.config.set.as_slice() {
                        [] => String::new(),
                        set => format!(" with --set {}", set.join(", --set ")),
                    },
                    match &config.admin {
                        Some(a) => format!(
                            "damaged game records and replies the mail server refuses are \
                             reported to the admin, {a}"
                        ),
                        None => "no admin address: damaged game records are reported to their \
                                 players only, replies the mail server refuses to the log only \
                                 (set admin = \"Name <address>\")"
                            .into(),
                    }
                )),
            },
            Line {
                what: "data",
                result: writable(&config.data, "data"),
            },
            Line {
                what: "inbox",
                result: inbox(&config),
            },
            Line {
                what: "send",
                result: transport::check(&config.send).map_err(Failure::said),
            },
        ];
        // The optional parts, each checked only when pbem.toml has it.
        let optional = [
            config.git.as_ref().map(|g| Line {
                what: "git",
                result: git(g, &config.data.join("games")),
            }),
            config.site.as_ref().map(|s| Line {
                what: "site",
                result: site(&s.dir),
            }),
        ];
        let lines: Vec<Line> = lines
            .into_iter()
            .chain(optional.into_iter().flatten())
            .collect();
        print(&lines)?;
        Ok(if lines.iter().all(|l| l.result.is_ok()) {
            0
        } else {
            1
        })
    }
}

fn print(lines: &[Line]) -> anyhow::Result<()> {
    for l in lines {
        match &l.result {
            Ok(m) => out!("OK    {:<7} {m}", l.what),
            Err(m) => out!("FAIL  {:<7} {m}", l.what),
        }
    }
    Ok(())
}

/// The data folder: opened (made when missing) and written to.
fn writable(dir: &Path, key: &str) -> Result<String, Failure> {
    let hint =
        format!("check `{key}` in pbem.toml, and that the user pbem runs as may write there");
    // The store's error names the path, and may say what to do itself.
    Store::open(dir).map_err(|e| {
        if e.has_hint() {
            Failure::said(e)
        } else {
            Failure::hinted(e, hint.as_str())
        }
    })?;
    probe(dir).map_err(|e| Failure::hinted(format!("{}: {e}", dir.display()), hint.as_str()))?;
    Ok(format!("{} is writable", dir.display()))
}

/// Writes and removes a file in `dir`.
fn probe(dir: &Path) -> std::io::Result<()> {
    let p = dir.join(format!(".pbem-check.{}", std::process::id()));
    std::fs::write(&p, b"x")?;
    std::fs::remove_file(&p)
}

fn inbox(config: &Config) -> Result<String, Failure> {
    match config.inbox.kind().map_err(Failure::said)? {
        InboxKind::Maildir(m) => {
            for sub in ["new", "cur", "tmp"] {
                let d = m.join(sub);
                if !d.is_dir() {
                    return Err(Failure::hinted(
                        format!("Maildir {}: no {sub}/ folder", m.display()),
                        format!(
                            "`pbem init` makes one, or mkdir -p {}/{{new,cur,tmp}}; check \
                             inbox.maildir",
                            m.display()
                        ),
                    ));
                }
            }
            probe(&m.join("tmp")).map_err(|e| {
                Failure::hinted(
                    format!("Maildir {}: {e}", m.display()),
                    "pbem moves mail from new/ to cur/, so its user must be able to write there",
                )
            })?;
            Ok(format!("Maildir {} is there and writable", m.display()))
        }
        InboxKind::Imap(i) => {
            let mut imap = Imap::new(i.clone());
            let state = imap
                .select()
                .map_err(|e| Failure::said(format!("{}: {e}", i.describe())))?;
            imap.logout();
            Ok(format!(
                "{}: login and SELECT work ({} mail{}, {} unseen); {}{}",
                i.describe(),
                state.messages,
                if state.messages == 1 { "" } else { "s" },
                state.unseen,
                if state.caps.idle && i.idle {
                    "the daemon waits with IDLE".to_string()
                } else {
                    format!("the daemon looks every {} s", i.poll_seconds)
                },
                match &i.processed_folder {
                    Some(p) => format!("; done mail goes to \"{p}\""),
                    None => String::new(),
                }
            ))
        }
    }
}

/// `[git]`: git runs, and the games folder is a repository git reads (or
/// one pbem can make at its first commit). The remote is only named:
/// reaching it would be a network connection, and a push changes it.
fn git(config: &GitConfig, games: &Path) -> Result<String, Failure> {
    if !config.enabled {
        return Ok("[git] enabled = false: no history of the records is kept".into());
    }
    let repo = Git {
        dir: games.to_path_buf(),
    };
    let version = repo
        .text(&["--version"])
        .map_err(|e| Failure::said(format!("{}: {e}", games.display())))?;
    let history = if games.join(".git").exists() {
        repo.text(&["rev-parse", "--git-dir"]).map_err(|e| {
            Failure::hinted(
                format!("{} is no repository git can read: {e}", games.display()),
                "move its .git away, and pbem makes a new one at its next commit",
            )
        })?;
        format!("{}, a repository git reads", games.display())
    } else {
        probe(games).map_err(|e| {
            Failure::hinted(
                format!("{}: {e}", games.display()),
                "pbem makes the repository there at its first commit: the user pbem runs as \
                 must be able to write there",
            )
        })?;
        format!(
            "{}, writable: pbem makes the repository at its first commit",
            games.display()
        )
    };
    let remote = match &config.remote {
        Some(url) => format!("pushes to {url} (not tried: check connects to no remote)"),
        None => "no remote: the history stays here".into(),
    };
    Ok(format!(
        "{}; the history on branch {} in {history}; {remote}",
        version.trim(),
        config.branch
    ))
}

/// `[site]`: the web archive's folder is writable, or, while missing, the
/// nearest folder above it that is there (the daemon makes the rest).
fn site(dir: &Path) -> Result<String, Failure> {
    let hint = "check [site] dir in pbem.toml, and that the user pbem runs as may write there";
    if dir.is_dir() {
        probe(dir).map_err(|e| Failure::hinted(format!("{}: {e}", dir.display()), hint))?;
        return Ok(format!("{} is writable", dir.display()));
    }
    if dir.exists() {
        return Err(Failure::hinted(
            format!("{} is not a folder", dir.display()),
            hint,
        ));
    }
    // A relative folder's last ancestor is "": the current folder.
    fn here(a: &Path) -> &Path {
        if a.as_os_str().is_empty() {
            Path::new(".")
        } else {
            a
        }
    }
    let Some(above) = dir.ancestors().skip(1).map(here).find(|a| a.is_dir()) else {
        return Err(Failure::hinted(
            format!("{}: no folder above it is there", dir.display()),
            hint,
        ));
    };
    probe(above).map_err(|e| Failure::hinted(format!("{}: {e}", above.display()), hint))?;
    Ok(format!(
        "{} is not there yet; it is made in {}, which is writable",
        dir.display(),
        above.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_says_its_problem_then_what_to_do() {
        assert_eq!(
            Failure::hinted("/srv/site is not a folder", "check [site] dir").to_string(),
            "/srv/site is not a folder (check [site] dir)"
        );
        assert_eq!(
            Failure::said("no such host; check send.host").to_string(),
            "no such host; check send.host"
        );
    }

    #[test]
    fn a_site_folder_that_is_a_file_fails_with_the_settings_hint() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("site");
        std::fs::write(&file, "x").unwrap();
        let failure = site(&file).unwrap_err();
        assert_eq!(
            failure.problem,
            format!("{} is not a folder", file.display())
        );
        assert!(
            failure
                .hint
                .as_deref()
                .is_some_and(|h| h.starts_with("check [site] dir in pbem.toml")),
            "{failure}"
        );
        assert!(site(dir.path()).is_ok());
    }
}
