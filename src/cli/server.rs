//! The subcommands that run pbem against a mailbox: init, poll, deliver,
//! daemon.

use super::out;
use crate::adjudicate::Identity;
use crate::config::{self, Config, InboxKind};
use crate::mail::outbound;
use crate::mail::templates::Templates;
use crate::mailbox::imap::{Imap, Wake, nap_unless};
use crate::mailbox::{Maildir, Source, Stdin};
use crate::poll::{Poller, Report};
use crate::store::{Store, StoreError};
use crate::transport::{self, dead};
use clap::Args;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

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
    pub fn load(&self) -> anyhow::Result<Config> {
        Ok(Config::load_with(&self.path(), &self.set)?)
    }
}

/// Everything a poll needs, built from the settings.
pub struct Server {
    pub config: Config,
    pub store: Store,
    pub identity: Identity,
    pub templates: Templates,
    pub transport: Box<dyn transport::Transport>,
}

impl Server {
    pub fn new(config: Config) -> anyhow::Result<Server> {
        let store = Store::open(&config.data)?;
        let identity = Identity {
            address: config.address.to_lowercase(),
            name: config.name.clone(),
            trusted_authserv: config.trusted_authserv.clone(),
            admin: config.admin.clone(),
            clocks: config.clock.clone(),
        };
        let templates = Templates::new(config.templates.clone());
        let transport = transport::from_config(&config.send)?;
        Ok(Server {
            config,
            store,
            identity,
            templates,
            transport,
        })
    }

    fn poller(&self) -> Poller<'_> {
        Poller {
            store: &self.store,
            identity: &self.identity,
            templates: &self.templates,
            transport: self.transport.as_ref(),
            limits: self.config.limits,
        }
    }

    /// Finishes what a crash left in the outbox: the replies of committed
    /// mails and commands released, the others' thrown away
    /// ([`Poller::recover`]). Call with the lock held, before anything
    /// else.
    ///
    /// # Errors
    /// Store failures.
    pub fn recover(&self, now: chrono::DateTime<chrono::Utc>) -> Result<(), StoreError> {
        self.poller().recover(now)
    }

    /// Commits an admin's command, whose changes wait in `batch` (a
    /// [`Store::batch`] view), together with its replies, under `key`
    /// ([`Poller::commit_made`]: the record named by `made` is the commit
    /// point), then sends the outbox. Call with the lock held, and hold it
    /// until this returns: a poll's flush at the same time would send the
    /// same mails.
    ///
    /// # Errors
    /// Store failures: the command is then on disk with its replies, or
    /// neither is.
    pub fn commit_command(
        &self,
        batch: &Store,
        key: &str,
        replies: &[crate::adjudicate::Reply],
        made: &crate::store::Made,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Report, StoreError> {
        Poller {
            store: batch,
            ..self.poller()
        }
        .commit_made(key, replies, made, now)?;
        Ok(self.flush())
    }

    /// Sends the outbox. Call with the lock held.
    pub fn flush(&self) -> Report {
        let flushed = transport::flush(&self.store.outbox_ready(), self.transport.as_ref());
        let mut report = Report {
            sent: flushed.sent,
            unsent: flushed.failed + flushed.waiting,
            send_errors: flushed.errors,
            ..Report::default()
        };
        self.tell_admin(&mut report);
        report
    }

    /// Tells the admin of each reply the server refused for good (the
    /// dead letters, issue 13) once: a notice mailed at once through the
    /// transport, or, without an admin address, a line logged at error
    /// level. A notice that cannot go now is counted unsent in `report`
    /// and tried at the next flush. Call with the data folder's lock held.
    fn tell_admin(&self, report: &mut Report) {
        let dir = dead::folder_of(&self.store.outbox_ready());
        if !dir.is_dir() {
            return;
        }
        let now = crate::clock::now();
        let told = dead::tell(&dir, self.transport.as_ref(), now, &|letter| {
            self.dead_letter_notice(letter, now)
        });
        report.sent += told.sent;
        report.unsent += told.waiting;
        report.send_errors.extend(told.errors);
    }

    /// The admin's notice of one dead letter (`templates/dead_letter.txt`):
    /// the recipient, the subject (cut short) and the server's answer,
    /// never the reply's text. `None` without an admin address.
    fn dead_letter_notice(
        &self,
        letter: &dead::Letter,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Option<Vec<u8>>, String> {
        let Some(admin) = &self.identity.admin else {
            return Ok(None);
        };
        let n = &letter.note;
        let rendered = self
            .templates
            .render(
                "dead_letter",
                minijinja::context! {
                    to => &n.to, subject => &n.subject, error => &n.error,
                    at => n.at.format("%Y-%m-%d %H:%M UTC").to_string(),
                    mail => letter.mail.display().to_string(),
                },
            )
            .map_err(|e| e.to_string())?;
        let reply = crate::adjudicate::Reply {
            to: admin.clone(),
            rendered,
            game: None,
            reply_to: None,
        };
        let message_id = format!(
            "<pbem.dead.{:016x}@{}>",
            crate::store::stable_hash(letter.name.as_bytes()),
            self.identity.domain()
        );
        outbound::build(&self.identity, &reply, &message_id, None, &[], now)
            .map(Some)
            .map_err(|e| e.to_string())
    }

    /// The configured mailbox, opened (a Maildir's folders are made; an
    /// IMAP server is reached at the first use).
    ///
    /// # Errors
    /// A Maildir whose folders cannot be made.
    pub fn inbox(&self) -> anyhow::Result<Box<dyn Source>> {
        Ok(
            match self.config.inbox.kind().map_err(anyhow::Error::msg)? {
                InboxKind::Maildir(m) => Box::new(Maildir::open(m)?),
                InboxKind::Imap(i) => Box::new(Imap::new(i.clone())),
            },
        )
    }

    /// Processes the mailbox and sends the outbox ([`Poller::poll`]), then
    /// tells the admin of the replies the server refused for good.
    ///
    /// # Errors
    /// As [`Poller::poll`].
    pub fn poll(&self, source: &mut dyn Source, wait: bool) -> Result<Report, StoreError> {
        let mut report = self.poller().poll(source, crate::clock::now(), wait)?;
        // When another pbem has the lock now, that one tells.
        if let Ok(_lock) = self.store.lock(false) {
            self.tell_admin(&mut report);
        }
        Ok(report)
    }
}

fn print_report(r: &Report, quiet: bool) {
    use crate::logging::line;
    for l in &r.log {
        log::info!("{l}");
    }
    for e in &r.errors {
        log::error!("{}", line("not-processed", &[("error", e)]));
    }
    for e in &r.send_errors {
        log::warn!("{}", line("not-sent", &[("error", e)]));
    }
    let failed = r.errors.len();
    let mut fields: Vec<(&str, &dyn std::fmt::Display)> = vec![
        ("handled", &r.handled),
        ("refused", &r.refused),
        ("already", &r.skipped),
        ("failed", &failed),
        ("sent", &r.sent),
        ("waiting", &r.unsent),
    ];
    // Replies the reply limits held back (issue 5), only when there are
    // some: the usual line stays as it was.
    if r.limited > 0 {
        fields.push(("limited", &r.limited));
    }
    let summary = line("poll", &fields);
    if r.failed() {
        log::warn!("{summary}");
    } else if quiet {
        log::debug!("{summary}");
    } else {
        log::info!("{summary}");
    }
}

/// Write a commented pbem.toml: the embedded default (a local Maildir in,
/// Maildirs out), ready for `pbem poll`. It writes the defaults as they
/// are: --set is refused here (edit the file instead).
///
/// Examples:
///   pbem init
///   pbem init --config /srv/pbem/pbem.toml
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Init {
    #[command(flatten)]
    config: ConfigArg,
    /// Replace an existing file.
    #[arg(long)]
    force: bool,
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
        crate::record::write::write_atomic(&path, config::INIT)?;
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
/// it instead.
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
                print_report(&r, self.quiet);
                Ok(if r.failed() { 1 } else { 0 })
            }
            Err(e @ StoreError::Busy(_)) => {
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
/// (sysexits.h), "try again later" (issue 5, "Two pbem processes at once").
pub const BUSY: i32 = 75;

/// Read one mail on standard input and process it (for an MTA pipe,
/// .forward or procmail). Exits 75 (EX_TEMPFAIL) when the mail could not
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
                print_report(&r, true);
                // Processed: sending may fail and retry later from the outbox.
                Ok(if r.errors.is_empty() { 0 } else { TEMPFAIL })
            }
            Err(e) => {
                log::error!(
                    "{}",
                    crate::logging::line(
                        "deliver-failed",
                        &[("exit", &TEMPFAIL), ("error", &format!("{e:#}"))]
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
const SWEEP: Duration = Duration::from_secs(30);

/// The wait before reconnecting after `failures` failures in a row: 1, 2,
/// 4 ... seconds, at most 60.
pub fn backoff(failures: u32) -> Duration {
    Duration::from_secs(1u64 << failures.saturating_sub(1).min(6)).min(Duration::from_secs(60))
}

impl Daemon {
    pub fn execute(self) -> anyhow::Result<i32> {
        let server = Server::new(self.config.load()?)?;
        let stop = Arc::new(AtomicBool::new(false));
        signal_hook::flag::register(signal_hook::consts::SIGTERM, Arc::clone(&stop))?;
        signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(&stop))?;
        match server.config.inbox.kind().map_err(anyhow::Error::msg)? {
            InboxKind::Maildir(m) => {
                let m = m.to_path_buf();
                self.watch_maildir(&server, &m, &stop)?;
            }
            InboxKind::Imap(i) => {
                let imap = Imap::new(i.clone());
                watch_imap(&server, imap, &stop);
            }
        }
        log::info!("daemon-stop");
        Ok(0)
    }

    fn watch_maildir(
        &self,
        server: &Server,
        maildir: &std::path::Path,
        stop: &AtomicBool,
    ) -> anyhow::Result<()> {
        let mut md = Maildir::open(maildir)?;
        log::info!(
            "{}",
            crate::logging::line("daemon-start", &[("maildir", &maildir.display())])
        );
        // inotify tells of mail arriving in new/ (delivered there, or
        // renamed in from tmp/); a sweep every 30 s catches the rest: mail
        // an IMAP server moved to cur/, replies waiting in the outbox.
        let new_dir = maildir.join("new");
        let mut watch = inotify::Inotify::init().ok();
        if let Some(w) = &mut watch
            && let Err(e) = w.watches().add(
                &new_dir,
                inotify::WatchMask::CREATE | inotify::WatchMask::MOVED_TO,
            )
        {
            log::warn!(
                "{}",
                crate::logging::line(
                    "no-inotify",
                    &[("error", &e), ("interval_ms", &self.interval)]
                )
            );
            watch = None;
        }
        let mut buffer = [0u8; 4096];
        let mut last_poll: Option<std::time::Instant> = None;
        let mut last_mtime = None;
        while !stop.load(Ordering::Relaxed) {
            let arrived = match &mut watch {
                Some(w) => w
                    .read_events(&mut buffer)
                    .map(|ev| ev.count() > 0)
                    .unwrap_or(false),
                None => {
                    let m = std::fs::metadata(&new_dir).and_then(|m| m.modified()).ok();
                    let changed = m != last_mtime;
                    last_mtime = m;
                    changed
                }
            };
            if arrived || last_poll.is_none_or(|t| t.elapsed() >= SWEEP) {
                last_poll = Some(std::time::Instant::now());
                match server.poll(&mut md, true) {
                    Ok(r) => print_report(&r, true),
                    Err(e) => {
                        log::error!("{}", crate::logging::line("poll-failed", &[("error", &e)]))
                    }
                }
                continue;
            }
            match &watch {
                // Until a mail arrives (at once, not at the next look: issue
                // 6), a signal, or a look at `stop` and the sweep.
                Some(w) => {
                    let sweep =
                        last_poll.map_or(Duration::ZERO, |t| SWEEP.saturating_sub(t.elapsed()));
                    wait_readable(w, sweep.min(Duration::from_millis(250)));
                }
                None => std::thread::sleep(Duration::from_millis(self.interval)),
            }
        }
        Ok(())
    }
}

/// Waits until `fd` can be read, at most `timeout` (or until a signal).
fn wait_readable(fd: &impl std::os::fd::AsFd, timeout: Duration) {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let mut fds = [PollFd::new(fd, PollFlags::IN)];
    let timeout = Timespec::try_from(timeout).unwrap_or(Timespec {
        tv_sec: i64::MAX,
        tv_nsec: 0,
    });
    // An error or a signal only ends the wait early.
    let _ = poll(&mut fds, Some(&timeout));
}

/// The IMAP loop: poll, then wait (IDLE or a nap); on a failure, log it
/// and wait 1, 2, 4 ... s before the next try. Never gives up, never
/// panics; returns when `stop` is raised.
fn watch_imap(server: &Server, mut imap: Imap, stop: &AtomicBool) {
    let what = imap.config().describe();
    log::info!(
        "{}",
        crate::logging::line("daemon-start", &[("imap", &what)])
    );
    let mut failures = 0u32;
    let retry = |failures: u32, e: &dyn std::fmt::Display| {
        let d = backoff(failures);
        log::warn!(
            "{}",
            crate::logging::line(
                "inbox-failed",
                &[
                    ("error", e),
                    ("retry_s", &d.as_secs()),
                    ("failures", &failures)
                ]
            )
        );
        nap_unless(stop, d)
    };
    while !stop.load(Ordering::Relaxed) {
        match server.poll(&mut imap, true) {
            Ok(r) => {
                if failures > 0 {
                    log::info!("{}", crate::logging::line("inbox-back", &[("imap", &what)]));
                }
                failures = 0;
                print_report(&r, true);
            }
            Err(e) => {
                failures += 1;
                if retry(failures, &e) {
                    break;
                }
                continue;
            }
        }
        match imap.wait(SWEEP, stop) {
            Ok(Wake::Stopped) => break,
            Ok(Wake::Changed | Wake::TimedOut) => {}
            Err(e) => {
                failures += 1;
                if retry(failures, &format!("IMAP connection lost: {e}")) {
                    break;
                }
            }
        }
    }
    imap.logout();
}

#[cfg(test)]
mod tests {
    #[test]
    fn backoff_doubles_up_to_a_minute() {
        let secs: Vec<u64> = (1..=9).map(|n| super::backoff(n).as_secs()).collect();
        assert_eq!(secs, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        assert_eq!(super::backoff(u32::MAX).as_secs(), 60);
    }
}
