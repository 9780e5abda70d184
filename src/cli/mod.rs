//! The command line: one file per subcommand, each a clap struct whose doc
//! comment is its `--help` and an `execute` method returning the exit code.

mod admin;
mod analyse;
mod bot;
mod check;
mod demo;
mod docs;
mod games;
mod league;
mod moves;
mod rules;
mod server;
mod show;
mod site;
mod validate;

pub use validate::{Checked, check as validate_record};

use crate::game::Side;
use crate::record::{Record, RecordError};
use crate::rules::Rules;
use clap::{Args, Parser, Subcommand};
use std::io::Read;

/// The whole command tree, every subcommand built (for help, completions,
/// the manual page).
pub(crate) fn whole() -> clap::Command {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    cmd.build();
    cmd
}

/// pbem: a play-by-email adjudicator for eight board games.
///
/// pbem checks moves written in the rulebooks' square numbers (1-64, row
/// by row from the top-left; 1-100 on Mad Bishops' 10x10 board), keeps
/// each game as a plain-text record, and draws the board as ASCII.
#[derive(Parser, Debug)]
#[command(
    name = "pbem",
    version,
    propagate_version = true,
    disable_help_subcommand = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
// Each subcommand's arguments are built only when it is the one run (see
// `Cli::from_args`).
#[command(defer = true)]
pub enum Command {
    Validate(validate::Validate),
    Moves(moves::Moves),
    Show(show::Show),
    Rules(rules::RulesCmd),
    Demo(demo::Demo),
    New(admin::New),
    Games(games::List),
    Move(admin::Move),
    Init(server::Init),
    Poll(server::Poll),
    Deliver(server::Deliver),
    Daemon(server::Daemon),
    Completions(docs::Completions),
    Manpage(docs::Manpage),
    Check(check::Check),
    Tournament(league::Tournament),
    Ratings(league::Ratings),
    Site(site::Site),
    Suggest(bot::Suggest),
    Match(bot::Match),
    Analyse(analyse::Analyse),
    Help(docs::Help),
}

impl Cli {
    /// This process's arguments. Only the subcommand run is built: the
    /// whole tree took a tenth of a one-mail `pbem deliver`. Help,
    /// `--version` and every usage error are printed from the whole tree
    /// ([`whole`]), whose list of subcommands says what each does.
    pub fn from_args() -> Cli {
        use clap::FromArgMatches;
        Cli::try_parse().unwrap_or_else(|_| {
            let matches = whole().get_matches();
            Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
        })
    }

    /// Runs the command; returns the process exit code.
    ///
    /// # Errors
    /// Only failures to write to standard output.
    pub fn execute(self) -> anyhow::Result<i32> {
        match self.command {
            Command::Validate(c) => c.execute(),
            Command::Moves(c) => c.execute(),
            Command::Show(c) => c.execute(),
            Command::Rules(c) => c.execute(),
            Command::Demo(c) => c.execute(),
            Command::Completions(c) => c.execute(),
            Command::Manpage(c) => c.execute(),
            Command::New(c) => c.execute(),
            Command::Games(c) => c.execute(),
            Command::Move(c) => c.execute(),
            Command::Init(c) => c.execute(),
            Command::Poll(c) => c.execute(),
            Command::Deliver(c) => c.execute(),
            Command::Daemon(c) => c.execute(),
            Command::Check(c) => c.execute(),
            Command::Tournament(c) => c.execute(),
            Command::Ratings(c) => c.execute(),
            Command::Site(c) => c.execute(),
            Command::Suggest(c) => c.execute(),
            Command::Match(c) => c.execute(),
            Command::Analyse(c) => c.execute(),
            Command::Help(c) => c.execute(),
        }
    }
}

/// How to read a game: a record, or with `--rules` a bare move list.
#[derive(Args, Debug, Clone)]
pub struct Source {
    /// Read a bare move list (one move per line) for this game instead of
    /// a record.
    #[arg(long, value_name = "GAME", value_parser = games::Games)]
    pub rules: Option<Rules>,
    /// With --rules: the side that moves first (needed for the four New
    /// Millennium games, whose players choose).
    #[arg(long, value_name = "SIDE", requires = "rules")]
    pub first: Option<String>,
}

impl Source {
    /// [`Source::load`], its error printed on standard error (the
    /// command then exits 1).
    pub fn load_reported(&self, file: &str) -> Option<Record> {
        self.load(file).map_err(|e| eprintln!("{e}")).ok()
    }

    /// Reads `file` (`-`: standard input) as a record or a move list.
    ///
    /// # Errors
    /// A [`RecordError`] naming the file and, where it applies, the line.
    pub fn load(&self, file: &str) -> Result<Record, RecordError> {
        let name = if file == "-" { "stdin" } else { file };
        let fail = |line, message: String| RecordError {
            file: name.to_string(),
            line,
            message,
        };
        let mut text = String::new();
        let read = if file == "-" {
            std::io::stdin().read_to_string(&mut text).map(|_| ())
        } else {
            std::fs::read(file).and_then(|bytes| {
                text = String::from_utf8(bytes).map_err(|e| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!(
                            "not UTF-8 text (bad byte at offset {})",
                            e.utf8_error().valid_up_to()
                        ),
                    )
                })?;
                Ok(())
            })
        };
        read.map_err(|e| fail(0, format!("cannot read it: {e}")))?;
        match self.rules {
            None => Record::parse(name, &text)
                .map_err(|e| validate::with_move_list_hint(e, file, &text)),
            Some(rules) => {
                let first = match &self.first {
                    None => None,
                    Some(f) => Some(rules.side_named(f).ok_or_else(|| {
                        fail(
                            0,
                            format!(
                                "--first {f}: {} has the sides {} and {}",
                                rules.name(),
                                rules.side_name(Side::A),
                                rules.side_name(Side::B)
                            ),
                        )
                    })?),
                };
                Record::from_move_list(name, rules, first, &text)
            }
        }
    }
}

/// Prints a line to standard output, returning an error when the reader
/// has gone away (a closed pipe ends the command quietly in `main`).
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($t)*)?;
    }};
}
pub(crate) use out;

/// `e` and its causes in one line, `outer: inner`, each cause said once:
/// an error whose message already quotes its source (a file's path and
/// the parser's words) does not have the source said again.
pub fn error_words(e: &anyhow::Error) -> String {
    let mut words = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if words.contains(&text) {
            continue;
        }
        if !words.is_empty() {
            words.push_str(": ");
        }
        words.push_str(&text);
    }
    words
}

#[cfg(test)]
mod error_words_tests {
    use super::error_words;

    #[derive(Debug, thiserror::Error)]
    #[error("data/x.toml: {source}")]
    struct Quoting {
        #[source]
        source: std::io::Error,
    }

    #[test]
    fn a_cause_the_message_quotes_is_said_once() {
        let e = anyhow::Error::new(Quoting {
            source: std::io::Error::other("bad value"),
        });
        assert_eq!(error_words(&e), "data/x.toml: bad value");
        let e = anyhow::Error::new(std::io::Error::other("disk")).context("cannot save");
        assert_eq!(error_words(&e), "cannot save: disk");
    }
}
