//! The subcommands that run pbem against a mailbox: init, poll, deliver,
//! daemon.

use super::out;
use crate::config::{self, Config};
use crate::daemon::log_report;
use crate::mailbox::{Maildir, Stdin};
use crate::poll::Report;
use crate::store::Store;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

use crate::setup::Server;

/// Where the settings are: --config, else $PBEM_CONFIG, else ./pbem.toml.
#[derive(Args, Debug, Clone)]
pub struct ConfigArg {
    /// The settings file (default: $PBEM_CONFIG, else ./pbem.toml).
    #[arg(long, short = 'c', value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
    /// Override one setting of the file, like `--set send.port=2587` or
    /// `--set inbox.maildir=/var/mail/pbem` (repeatable; paths are taken
    /// from the file's folder, as in the file; a key that is no setting is
    /// an error naming it).
    #[arg(long = "set", value_name = "KEY=VALUE", global = true)]
    pub set: Vec<String>,
}

impl ConfigArg {
    pub fn path(&self) -> PathBuf {
        self.config
            .clone()
            .or_else(|| std::env::var_os("PBEM_CONFIG").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("pbem.toml"))
    }
    /// The settings; the server's time zone set from them, for every
    /// time the command prints or mails.
    pub fn load(&self) -> anyhow::Result<Config> {
        let config = Config::load_with(&self.path(), &self.set)?;
        if let Ok(Some(zone)) = config.zone() {
            crate::timecontrol::set_server_zone(zone);
        }
        Ok(config)
    }
}

/// Write a commented pbem.toml: the embedded default (a local Maildir in,
/// Maildirs out), ready for `pbem poll`, and make its data folder and
/// inbox Maildir. It writes the defaults as they are: --set is refused
/// here (edit the file instead). --data-root and --send write the same
/// file with pbem's folders under one folder (absolute paths) and the
/// replies going to the mail server on this machine; --stdout prints the
/// file and makes nothing (the Debian package's /etc/pbem/pbem.toml is
/// `pbem init --data-root /var/lib/pbem --send localhost --stdout`).
///
/// Examples:
///   pbem init
///   pbem init --config /srv/pbem/pbem.toml
///   pbem init --config /etc/pbem/pbem.toml --data-root /var/lib/pbem --send localhost
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Init {
    #[command(flatten)]
    config: ConfigArg,
    /// Replace an existing file.
    #[arg(long, conflicts_with = "stdout")]
    force: bool,
    /// Put pbem's folders under DIR, written as absolute paths: the data
    /// folder DIR/data, the inbox Maildir DIR/mail/inbox, the sent
    /// Maildirs DIR/mail/sent (default: data, mail/inbox and mail/sent
    /// beside the file).
    #[arg(long, value_name = "DIR")]
    data_root: Option<PathBuf>,
    /// Where the replies go.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = Send::Maildir)]
    send: Send,
    /// Print the file on standard output instead: no file, no folder is
    /// made.
    #[arg(long)]
    stdout: bool,
}

/// `pbem init --send`: where the file sends the replies.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum Send {
    /// One Maildir per recipient under mail/sent: no mail server needed.
    Maildir,
    /// SMTP to the mail server on this machine (Postfix, Exim): 127.0.0.1
    /// port 25, no TLS, no password.
    Localhost,
}

impl Init {
    pub fn execute(self) -> anyhow::Result<i32> {
        let path = self.config.path();
        // Silently ignored, an override would leave the file other than
        // asked; every command that reads the file applies them instead.
        if let Some(o) = self.config.set.first() {
            eprintln!(
                "pbem init: --set {o}: init writes the default settings; edit {} after, or \
                 give --set to the commands that read it",
                path.display()
            );
            return Ok(1);
        }
        let send = match self.send {
            Send::Maildir => config::InitSend::Maildir,
            Send::Localhost => config::InitSend::Localhost,
        };
        let text = match config::init_text(self.data_root.as_deref(), send) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("pbem init: {e}");
                return Ok(2);
            }
        };
        if self.stdout {
            out!("{}", text.trim_end());
            return Ok(0);
        }
        if path.exists() && !self.force {
            eprintln!(
                "pbem init: {} exists; add --force to replace it",
                path.display()
            );
            return Ok(1);
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        crate::store::files::write_atomic(&path, &text)?;
        let c = Config::load(&path)?;
        Store::open(&c.data)?;
        let maildir = c.inbox.maildir.clone().unwrap_or_default();
        Maildir::open(&maildir)?;
        out!(
            "wrote {}\nmail for pbem goes into {}/new; run `pbem poll` to answer it \
             (`pbem check` tests the settings)",
            path.display(),
            maildir.display()
        );
        Ok(0)
    }
}

/// Process the mailbox once and send the outbox (for cron). Exits 1 when
/// a mail could not be processed or a reply could not be sent now (they
/// are kept and tried again next time), 0 otherwise. A reply the mail
/// server refuses for good (SMTP 5xx to its recipient or its text,
/// sendmail EX_NOUSER) is not retried: it moves to DATA/outbox/dead/, the
/// admin is told once (by mail, or without an admin address in an error
/// log line), and neither this poll nor later ones exit 1 for it. Exits
/// 75 (EX_TEMPFAIL), having done nothing, when another pbem (a daemon, an
/// earlier poll) holds the data folder's lock; with --wait it waits for
/// it instead. With [git] in pbem.toml, each batch's record changes are
/// committed in DATA/games/ (a git repository) and pushed to its remote;
/// a git that fails is logged and tried again at the next poll, and
/// changes no exit status.
///
/// Examples:
///   pbem poll
///   */5 * * * *  pbem poll --config /srv/pbem/pbem.toml --quiet
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Poll {
    #[command(flatten)]
    config: ConfigArg,
    /// Wait for another running pbem instead of exiting at once.
    #[arg(long)]
    wait: bool,
    /// Print only problems.
    #[arg(long, short)]
    quiet: bool,
}

impl Poll {
    pub fn execute(self) -> anyhow::Result<i32> {
        let server = Server::new(self.config.load()?)?;
        let mut inbox = server.inbox()?;
        match server.poll(inbox.as_mut(), self.wait) {
            Ok(r) => {
                log_report(&r, self.quiet);
                Ok(if r.failed() { 1 } else { 0 })
            }
            Err(e) if e.is_busy() => {
                log::warn!(
                    "{}",
                    crate::logging::line("busy", &[("exit", &BUSY), ("error", &e)])
                );
                Ok(BUSY)
            }
            // The data folder cannot be used (read-only, full): one log
            // line with the path, the cause and the cure; the mail waits.
            Err(e) => {
                log::error!("{}", crate::logging::line("poll-failed", &[("error", &e)]));
                Ok(1)
            }
        }
    }
}

/// The exit status of a `pbem poll` that found the lock held: EX_TEMPFAIL
/// (sysexits.h), "try again later".
pub const BUSY: i32 = 75;

/// Read one mail on standard input and process it (for an MTA pipe,.
/// forward or procmail). Exits 75 (EX_TEMPFAIL) when the mail could not
/// be processed now, so the MTA keeps it and retries.
///
/// Examples:
///   pbem: "|/usr/local/bin/pbem deliver --config /srv/pbem/pbem.toml"
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Deliver {
    #[command(flatten)]
    config: ConfigArg,
}

impl Deliver {
    pub fn execute(self) -> anyhow::Result<i32> {
        const TEMPFAIL: i32 = 75;
        let run = || -> anyhow::Result<Report> {
            let server = Server::new(self.config.load()?)?;
            let mut src = Stdin::read()?;
            Ok(server.poll(&mut src, true)?)
        };
        match run() {
            Ok(r) => {
                log_report(&r, true);
                // Processed: sending may fail and retry later from the outbox.
                Ok(if r.errors.is_empty() { 0 } else { TEMPFAIL })
            }
            Err(e) => {
                log::error!(
                    "{}",
                    crate::logging::line(
                        "deliver-failed",
                        &[("exit", &TEMPFAIL), ("error", &super::error_words(&e))]
                    )
                );
                Ok(TEMPFAIL)
            }
        }
    }
}

/// Keep running: answer new mail as it arrives, and stop cleanly on
/// SIGTERM or SIGINT (a poll under way is finished first).
///
/// With a Maildir inbox: inotify on new/, and a sweep of the mailbox and
/// the outbox every 30 seconds. With an IMAP inbox: IMAP IDLE (or, where
/// the server lacks it or `idle = false`, a look every `poll_seconds`),
/// and a sweep every 30 seconds; a lost connection is logged and tried
/// again after 1, 2, 4 ... seconds (at most a minute).
///
/// Examples:
///   pbem daemon --config /srv/pbem/pbem.toml
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Daemon {
    #[command(flatten)]
    config: ConfigArg,
    /// How often to look at the Maildir where inotify is not available, in
    /// milliseconds.
    #[arg(long, default_value_t = 500, value_name = "MS")]
    interval: u64,
}

/// The sweep: mail that came unannounced, replies waiting in the outbox.
impl Daemon {
    pub fn execute(self) -> anyhow::Result<i32> {
        let server = Server::new(self.config.load()?)?;
        crate::daemon::run(&server, Duration::from_millis(self.interval))?;
        Ok(0)
    }
}
