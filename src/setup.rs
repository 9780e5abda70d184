//! The composition root: the parts of a pbem server built from its
//! settings (`pbem.toml`): the store, the identity, the templates, the
//! transport and the mailbox ([`Server`]), and the few things done with
//! them as a whole: a poll, a flush, recovery, an admin's command
//! committed. The CLI (`crate::cli::server`) and the daemon
//! ([`crate::daemon`]) build one and call it; the mail path itself runs in
//! [`crate::poll`].

use crate::config::{Config, InboxKind};
use crate::mail::outbound;
use crate::mail::templates::Templates;
use crate::mailbox::imap::Imap;
use crate::mailbox::{Maildir, Source};
use crate::outbox::{self, dead};
use crate::poll::{PollError, Poller, Report};
use crate::reply::Identity;
use crate::store::{Store, StoreError};
use crate::transport;

/// Everything a poll needs, built from the settings.
pub struct Server {
    pub config: Config,
    pub store: Store,
    pub identity: Identity,
    pub templates: Templates,
    pub transport: Box<dyn transport::Transport>,
    /// The records' git history (`[git]`), when kept.
    pub history: Option<crate::history::History>,
}

impl Server {
    pub fn new(config: Config) -> anyhow::Result<Server> {
        let store = Store::open(&config.data)?;
        let identity = config.identity();
        let templates = Templates::new(config.templates.clone());
        let transport = transport::from_config(&config.send)?;
        let history = config.git.as_ref().and_then(|g| {
            let games = store.root().join("games");
            crate::history::History::new(g, games, &config.name, &config.address)
        });
        Ok(Server {
            config,
            store,
            identity,
            templates,
            transport,
            history,
        })
    }

    /// A poller over this server's parts: what [`Server::poll`] polls
    /// with, for a caller who gives the poll its time.
    pub fn poller(&self) -> Poller<'_> {
        Poller {
            store: &self.store,
            identity: &self.identity,
            templates: &self.templates,
            transport: self.transport.as_ref(),
            limits: self.config.limits,
            history: self.history.as_ref(),
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
    /// point), then sends the outbox, then commits the change to the
    /// records' history (its push is left to the next poll or the
    /// daemon: the lock is held). Call with the lock held, and hold it
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
        replies: &[crate::reply::Reply],
        made: &crate::store::Made,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Report, StoreError> {
        let poller = Poller {
            store: batch,
            ..self.poller()
        };
        poller.commit_made(key, replies, made, now)?;
        let mut report = self.flush();
        poller.record_history(now, false);
        // The command changed a game: the archive shows it now, not at
        // the next poll that happens to change something.
        self.update_site(&mut report, true);
        Ok(report)
    }

    /// Sends the outbox. Call with the lock held.
    pub fn flush(&self) -> Report {
        let flushed = outbox::flush(&self.store.outbox_ready(), self.transport.as_ref());
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
    /// dead letters) once: a notice mailed at once through the
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
    ) -> Result<Option<outbound::Built>, dead::NoticeError> {
        let Some(admin) = &self.identity.admin else {
            return Ok(None);
        };
        let n = &letter.note;
        let rendered = self.templates.render(
            "dead_letter",
            minijinja::context! {
                to => &n.to, subject => &n.subject, error => &n.error,
                at => crate::timecontrol::format_deadline(n.at, None),
                mail => letter.mail.display().to_string(),
            },
        )?;
        let reply = crate::reply::Reply {
            kind: crate::reply::Kind::Notice,
            to: admin.clone(),
            rendered,
            game: None,
            reply_to: None,
            head: None,
        };
        let message_id = format!(
            "<pbem.dead.{:016x}@{}>",
            crate::store::stable_hash(letter.name.as_bytes()),
            self.identity.domain()
        );
        Ok(Some(outbound::build(
            &self.identity,
            &reply,
            &message_id,
            None,
            &[],
            now,
        )?))
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

    /// [`Server::poll_unpushed`], then, the lock let go, a push of the
    /// records' history, cut short after
    /// [`ONE_SHOT_PUSH`](crate::poll::history::ONE_SHOT_PUSH): for a
    /// command that ends after one poll (`pbem poll`, `pbem deliver`).
    ///
    /// # Errors
    /// As [`Poller::poll`].
    pub fn poll(&self, source: &mut dyn Source, wait: bool) -> Result<Report, PollError> {
        let report = self.poll_unpushed(source, wait)?;
        if let Some(history) = &self.history {
            crate::poll::history::push_once(history);
        }
        Ok(report)
    }

    /// Processes the mailbox and sends the outbox ([`Poller::poll`]), then
    /// tells the admin of the replies the server refused for good. The
    /// records' history is committed, not pushed (the daemon pushes from
    /// a thread of its own).
    ///
    /// # Errors
    /// As [`Poller::poll`].
    pub fn poll_unpushed(&self, source: &mut dyn Source, wait: bool) -> Result<Report, PollError> {
        let mut report = self.poller().poll(source, crate::clock::now(), wait)?;
        // When another pbem has the lock now, that one tells.
        if let Ok(_lock) = self.store.lock(false) {
            self.tell_admin(&mut report);
            let changed = !report.log.is_empty();
            self.update_site(&mut report, changed);
        }
        Ok(report)
    }

    /// With `[site]`: the web archive brought up to date after a poll or
    /// an admin's command that `changed` something (only the pages of
    /// changed games, and the lists, are rewritten; a site not made yet is
    /// made). A failure is reported and loses nothing: the next poll tries
    /// again.
    fn update_site(&self, report: &mut Report, changed: bool) {
        let Some(site) = &self.config.site else {
            return;
        };
        if !changed && site.dir.join("site.json").exists() {
            return;
        }
        let options = crate::site::Options::of(&self.config, site.addresses);
        match crate::site::build(&self.store, &site.dir, &options, &mut |_, _| {}) {
            Ok(built) => report.log.push(crate::logging::line(
                "site",
                &[
                    ("games", &built.games),
                    ("remade", &built.remade),
                    ("written", &built.written),
                ],
            )),
            Err(e) => report.errors.push(format!("the web archive: {e}")),
        }
    }
}
