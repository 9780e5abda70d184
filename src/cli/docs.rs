//! Shell completions and manual pages, generated from the same clap
//! definitions as `--help`.

use super::out;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Print a shell completion script for pbem.
///
/// Examples:
///   pbem completions bash > /etc/bash_completion.d/pbem
///   pbem completions zsh > "${fpath[1]}/_pbem"
///   pbem completions fish > ~/.config/fish/completions/pbem.fish
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Completions {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

impl Completions {
    pub fn execute(self) -> anyhow::Result<i32> {
        let mut cmd = super::whole();
        let mut out = Vec::new();
        clap_complete::generate(self.shell, &mut cmd, "pbem", &mut out);
        std::io::stdout().lock().write_all(&out)?;
        Ok(0)
    }
}

/// Write pbem's manual pages: pbem(1) and one page per subcommand
/// (pbem-poll(1), ...).
///
/// Without --dir, pbem(1) goes to standard output.
///
/// Examples:
///   pbem manpage | man -l -
///   pbem manpage --dir /usr/local/share/man/man1
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Manpage {
    /// Write every page into this folder (made if missing).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

impl Manpage {
    pub fn execute(self) -> anyhow::Result<i32> {
        let cmd = super::whole();
        let Some(dir) = self.dir else {
            let mut out = Vec::new();
            clap_mangen::Man::new(cmd).render(&mut out)?;
            std::io::stdout().lock().write_all(&out)?;
            return Ok(0);
        };
        std::fs::create_dir_all(&dir)
            .map_err(|e| anyhow::anyhow!("pbem manpage: cannot make {}: {e}", dir.display()))?;
        let mut written = Vec::new();
        pages(&dir, ("pbem", "pbem"), cmd, &mut written)?;
        for p in &written {
            out!("wrote {}", p.display());
        }
        Ok(0)
    }
}

/// Writes `name`'s page and, first, one per subcommand at every depth
/// (`pbem-tournament-new`): a page lists its subcommands as
/// `NAME-SUB(1)`, so each of those must be there too. Hidden commands are
/// neither listed nor written; clap's own `help` subcommand, which a built
/// command gains, is turned off, as it would be listed with no page.
fn pages(
    dir: &Path,
    (name, typed): (&str, &str),
    cmd: clap::Command,
    written: &mut Vec<PathBuf>,
) -> anyhow::Result<()> {
    let cmd = cmd.disable_help_subcommand(true);
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let sub_name = sub.get_name();
        pages(
            dir,
            (
                &format!("{name}-{sub_name}"),
                &format!("{typed} {sub_name}"),
            ),
            sub.clone(),
            written,
        )?;
    }
    let mut out = Vec::new();
    // The synopsis reads as typed (`pbem tournament new`); the page's
    // name and its references are hyphenated.
    clap_mangen::Man::new(cmd.name(name.to_string()).bin_name(typed.to_string()))
        .render(&mut out)?;
    let path = dir.join(format!("{name}.1"));
    crate::store::files::write_atomic(&path, &String::from_utf8_lossy(&out))?;
    written.push(path);
    Ok(())
}

/// Print pbem's help, or the help of a subcommand.
///
/// The same text as `pbem --help` and `pbem COMMAND --help`.
///
/// Examples:
///   pbem help
///   pbem help moves
// pbem's own rather than clap's, which takes no options: `pbem help
// --help` failed.
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Help {
    /// The subcommand to explain (none: pbem itself).
    #[arg(value_name = "COMMAND")]
    command: Option<String>,
}

impl Help {
    pub fn execute(self) -> anyhow::Result<i32> {
        let mut cmd = super::whole();
        cmd.build();
        let help = match &self.command {
            None => cmd.render_long_help(),
            Some(name) => match cmd.find_subcommand_mut(name) {
                Some(sub) => sub.render_long_help(),
                None => {
                    let names: Vec<&str> =
                        cmd.get_subcommands().map(clap::Command::get_name).collect();
                    eprintln!(
                        "pbem help: {name:?} is no command of pbem; the commands are {}",
                        names.join(", ")
                    );
                    return Ok(2);
                }
            },
        };
        out!("{}", help.to_string().trim_end());
        Ok(0)
    }
}
