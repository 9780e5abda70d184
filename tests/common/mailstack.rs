//! The loopback mail stack (`scripts/mailstack`: Postfix and Dovecot), as
//! the tests see it: where it listens, mailboxes to read over IMAP, and a
//! [`StackRoom`] that carries a scripted game's mail through it.
//!
//! The stack is found through the variables `scripts/mailstack env` prints
//! (`eval "$(scripts/mailstack env)"`; `scripts/test` does it). The tests
//! that use it are `#[ignore = "needs the loopback mail stack
//! (scripts/mailstack)"]`, so a plain `cargo test` starts nothing; one
//! that runs was asked for, and fails when the stack is not there.

use super::play::Mailroom;
use super::wait::wait_until;
use pbem::config::Config;
use pbem::demo::{Player, Received};
use pbem::mail::inbound::{self, Inbound};
use pbem::mailbox::imap::{Imap, ImapConfig, Security};
use pbem::mailbox::{Maildir, Source};
use pbem::setup::Server;
use pbem::store::Store;
use pbem::transport::{self, SendConfig, Transport};
use std::collections::HashMap;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long a mail may take to arrive before a test gives up.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// The running stack, as `scripts/mailstack env` describes it.
pub struct Stack {
    pub host: String,
    pub domain: String,
    pub smtp_port: u16,
    pub submission_port: u16,
    pub smtps_port: u16,
    pub ca_file: PathBuf,
    pub user: String,
    pub password_file: PathBuf,
    /// The Maildir of `NAME@domain` (and `NAME+x@domain`) is `maildirs/NAME`.
    pub maildirs: PathBuf,
    pub imap_port: u16,
    pub imaps_port: u16,
    /// `$PBEM_MAILSTACK_DIR`: the stack's state.
    pub dir: PathBuf,
    /// Where the MTA pipe's pbem lives (binary, pbem.toml, data).
    pub pipe_dir: PathBuf,
    /// Mail for pbem@ this domain goes through the pipe.
    pub pipe_domain: String,
}

const HOW: &str = "run `scripts/mailstack start` and `eval \"$(scripts/mailstack env)\"` \
                   (as root), or `scripts/test`";

pub fn stack() -> &'static Stack {
    static STACK: OnceLock<Stack> = OnceLock::new();
    STACK.get_or_init(|| {
        let vars: HashMap<String, String> = std::env::vars()
            .filter(|(k, _)| k.starts_with("PBEM_MAILSTACK_"))
            .collect();
        assert!(
            vars.contains_key("PBEM_MAILSTACK_SUBMISSION_PORT"),
            "the mail tests need the loopback mail stack, and PBEM_MAILSTACK_* is not set: {HOW}"
        );
        let stack = Stack::from_vars(&vars);
        // A stack that is restarting (a test stopped part of it) answers
        // again within seconds: waited for, not failed on.
        for port in [
            stack.smtp_port,
            stack.submission_port,
            stack.smtps_port,
            stack.imap_port,
            stack.imaps_port,
        ] {
            let what = format!("the mail stack answering on {}:{port} ({HOW})", stack.host);
            wait_until(PATIENCE, &what, || {
                TcpStream::connect((stack.host.as_str(), port))
                    .map(drop)
                    .map_err(|e| e.to_string())
            });
        }
        stack
    })
}

impl Stack {
    fn from_vars(vars: &HashMap<String, String>) -> Stack {
        let get = |k: &str| -> String {
            vars.get(&format!("PBEM_MAILSTACK_{k}"))
                .unwrap_or_else(|| panic!("PBEM_MAILSTACK_{k} is not set: {HOW}"))
                .clone()
        };
        let port = |k: &str| -> u16 {
            get(k)
                .parse()
                .unwrap_or_else(|e| panic!("PBEM_MAILSTACK_{k}: {e}"))
        };
        Stack {
            host: get("HOST"),
            domain: get("DOMAIN"),
            smtp_port: port("SMTP_PORT"),
            submission_port: port("SUBMISSION_PORT"),
            smtps_port: port("SMTPS_PORT"),
            ca_file: get("CA_FILE").into(),
            user: get("USER"),
            password_file: get("PASSWORD_FILE").into(),
            maildirs: get("MAILDIRS").into(),
            imap_port: port("IMAP_PORT"),
            imaps_port: port("IMAPS_PORT"),
            dir: get("DIR").into(),
            pipe_dir: get("PIPE_DIR").into(),
            pipe_domain: get("PIPE_DOMAIN"),
        }
    }

    /// pbem's transport config: `security` on `port`, with AUTH and the
    /// test CA.
    pub fn smtp(&self, host: &str, port: u16, security: &str) -> SendConfig {
        SendConfig::Smtp {
            host: host.to_string(),
            port,
            security: security.to_string(),
            user: Some(self.user.clone()),
            password_file: Some(self.password_file.clone()),
            ca_file: Some(self.ca_file.clone()),
        }
    }

    /// The submission port: STARTTLS, then AUTH (what pbem's default is).
    pub fn submission(&self) -> SendConfig {
        self.smtp(&self.host, self.submission_port, "starttls")
    }

    pub fn address(&self, local: &str) -> String {
        format!("{local}@{}", self.domain)
    }

    /// The mails in `user`'s Maildir (new/ and cur/; an IMAP client may
    /// have moved them) that `pick` picks.
    pub fn mails(&self, user: &str, pick: &dyn Fn(&Inbound) -> bool) -> Vec<Vec<u8>> {
        let mut found = Vec::new();
        for sub in ["new", "cur"] {
            let Ok(entries) = std::fs::read_dir(self.maildirs.join(user).join(sub)) else {
                continue;
            };
            for e in entries.flatten() {
                if let Ok(raw) = std::fs::read(e.path())
                    && inbound::parse(&raw).is_ok_and(|m| pick(&m))
                {
                    found.push(raw);
                }
            }
        }
        found
    }

    /// Waits up to 10 s for the mail `pick` picks in `user`'s Maildir,
    /// then a moment more to see that it came only once.
    pub fn wait_for(&self, user: &str, what: &str, pick: &dyn Fn(&Inbound) -> bool) -> Vec<u8> {
        let start = Instant::now();
        loop {
            if !self.mails(user, pick).is_empty() {
                std::thread::sleep(Duration::from_millis(300));
                let mut found = self.mails(user, pick);
                assert_eq!(found.len(), 1, "{what} arrives once in {user}'s Maildir");
                return found.remove(0);
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "no {what} in {} after 120 s; see the logs in {}",
                self.maildirs.join(user).display(),
                self.log_dir().display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for the mail whose subject holds `tag`.
    pub fn wait_for_tag(&self, user: &str, tag: &str) -> Vec<u8> {
        self.wait_for(user, &format!("mail tagged {tag}"), &|m| {
            m.subject.contains(tag)
        })
    }

    pub fn log_dir(&self) -> PathBuf {
        // $PBEM_MAILSTACK_DIR/mail/<domain> -> $PBEM_MAILSTACK_DIR/log
        self.maildirs
            .parent()
            .and_then(Path::parent)
            .unwrap_or(Path::new("/"))
            .join("log")
    }
}

/// A tag no other run has used, to find this test's mail.
pub fn nonce() -> String {
    format!("{:016x}", fastrand::u64(..))
}

impl Stack {
    /// Postfix's plain port, no AUTH: how mail from outside comes in.
    pub fn plain_smtp(&self) -> SendConfig {
        SendConfig::Smtp {
            host: self.host.clone(),
            port: self.smtp_port,
            security: "none".into(),
            user: None,
            password_file: None,
            ca_file: None,
        }
    }

    /// Submission (STARTTLS, AUTH) as `user`: how players and pbem send.
    pub fn submission_as(&self, user: &str) -> SendConfig {
        SendConfig::Smtp {
            host: self.host.clone(),
            port: self.submission_port,
            security: "starttls".into(),
            user: Some(user.to_string()),
            password_file: Some(self.password_file.clone()),
            ca_file: Some(self.ca_file.clone()),
        }
    }

    /// `user`'s INBOX over IMAP: STARTTLS on the IMAP port, or TLS on the
    /// IMAPS port.
    pub fn imap(&self, user: &str, security: Security) -> ImapConfig {
        ImapConfig {
            host: self.host.clone(),
            port: Some(match security {
                Security::Tls => self.imaps_port,
                _ => self.imap_port,
            }),
            security,
            user: user.to_string(),
            password: None,
            password_file: Some(self.password_file.clone()),
            folder: "INBOX".into(),
            processed_folder: None,
            ca_file: Some(self.ca_file.clone()),
            idle: true,
            poll_seconds: 1,
        }
    }

    /// A pbem.toml: pbem at `address`, its data in `data`, reading what
    /// `inbox` says (lines of the `[inbox]` table), replying through
    /// submission (STARTTLS, AUTH as `address`) with `password_file`.
    pub fn pbem_toml(
        &self,
        address: &str,
        data: &Path,
        inbox: &str,
        password_file: &Path,
    ) -> String {
        format!(
            "address = \"{address}\"\n\
             data = \"{}\"\n\
             [inbox]\n{inbox}\n\
             [send]\n\
             transport = \"smtp\"\n\
             host = \"{}\"\n\
             port = {}\n\
             security = \"starttls\"\n\
             user = \"{address}\"\n\
             password_file = \"{}\"\n\
             ca_file = \"{}\"\n",
            data.display(),
            self.host,
            self.submission_port,
            password_file.display(),
            self.ca_file.display()
        )
    }

    /// The `[inbox]` lines for pbem reading `user`'s INBOX over IMAP
    /// (STARTTLS), moving what it has done to a folder "done".
    pub fn imap_inbox(&self, user: &str) -> String {
        format!(
            "imap = {{ host = \"{}\", port = {}, user = \"{user}\", password_file = \"{}\", \
             ca_file = \"{}\", processed_folder = \"done\" }}",
            self.host,
            self.imap_port,
            self.password_file.display(),
            self.ca_file.display()
        )
    }

    /// Runs `scripts/mailstack ARGS` (the stack's variables are in our
    /// environment); panics with its output when it fails.
    pub fn script(&self, args: &[&str]) {
        let out = Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/mailstack"))
            .args(args)
            .output()
            .expect("run scripts/mailstack");
        assert!(
            out.status.success(),
            "scripts/mailstack {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A mail client on a real mailbox: reads the unseen mail over IMAP and
/// marks it seen (pbem's own IMAP source, used as a client).
pub struct MailClient {
    pub who: String,
    imap: Imap,
}

impl MailClient {
    pub fn new(stack: &Stack, user: &str, security: Security) -> MailClient {
        MailClient {
            who: user.to_string(),
            imap: Imap::new(stack.imap(user, security)),
        }
    }

    /// Waits until at least `n` unseen mails are there (`n = 0`: looks
    /// once), marks them seen, and returns them in the order they came.
    /// Like a mail client, tries again while the server is away.
    pub fn wait(&mut self, n: usize) -> Vec<Vec<u8>> {
        let start = Instant::now();
        loop {
            let last = match self.imap.pending() {
                Ok(pending) if pending.len() >= n => {
                    let marked: Result<Vec<()>, _> =
                        pending.iter().map(|p| self.imap.done(p)).collect();
                    match marked {
                        Ok(_) => return pending.into_iter().map(|p| p.raw).collect(),
                        Err(e) => format!("cannot mark as seen: {e}"),
                    }
                }
                Ok(pending) => format!("{} of {n} mails", pending.len()),
                Err(e) => format!("IMAP: {e}"),
            };
            assert!(
                start.elapsed() < PATIENCE,
                "{}: after {} s, {last}; Postfix's last lines about this test:\n{}",
                self.who,
                PATIENCE.as_secs(),
                postfix_lines_about(&self.who)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// How pbem takes its mail in a [`StackRoom`].
pub enum PbemSide {
    /// `Server::poll` in this process, on an IMAP source.
    Imap(Server, Box<Imap>),
    /// `Server::poll` in this process, on the Maildir the server writes.
    Maildir(Server, Maildir),
    /// pbem runs by itself (a daemon, an MTA pipe); its data folder.
    Outside(PathBuf),
}

/// Players with real mailboxes (alice.NONCE, bob.NONCE at the test
/// domain): they send over submission (STARTTLS, AUTH), Postfix delivers
/// into Dovecot, they read over IMAP (Alice with STARTTLS, Bob over
/// IMAPS).
pub struct StackRoom {
    pub stack: &'static Stack,
    pub pbem_address: String,
    pub pbem: PbemSide,
    clients: [MailClient; 2],
    /// How the players send (submission as themselves, unless a test
    /// changes it).
    pub senders: [Box<dyn Transport>; 2],
    /// Called after each answered move.
    pub hook: Option<Box<dyn FnMut(usize) + Send>>,
}

impl StackRoom {
    /// The room and its two players.
    pub fn new(
        stack: &'static Stack,
        tag: &str,
        pbem_address: &str,
        pbem: PbemSide,
    ) -> (StackRoom, [Player; 2]) {
        let alice = stack.address(&format!("alice.{tag}"));
        let bob = stack.address(&format!("bob.{tag}"));
        let sender = |a: &str| {
            transport::from_config(&stack.submission_as(a)).expect("the players' transport builds")
        };
        let room = StackRoom {
            stack,
            pbem_address: pbem_address.to_string(),
            pbem,
            clients: [
                MailClient::new(stack, &alice, Security::Starttls),
                MailClient::new(stack, &bob, Security::Tls),
            ],
            senders: [sender(&alice), sender(&bob)],
            hook: None,
        };
        let players = [
            Player::elsewhere("Alice", &alice),
            Player::elsewhere("Bob", &bob),
        ];
        (room, players)
    }

    /// A pbem server in this process for `address`, data in `dir/data`,
    /// reading `inbox` (lines of `[inbox]`): the settings go through a
    /// real pbem.toml.
    pub fn server(stack: &Stack, dir: &Path, address: &str, inbox: &str) -> Server {
        StackRoom::server_with(stack, dir, address, inbox, "")
    }

    /// [`StackRoom::server`] with `more` settings after the others (a
    /// `[bot]` table, say).
    pub fn server_with(
        stack: &Stack,
        dir: &Path,
        address: &str,
        inbox: &str,
        more: &str,
    ) -> Server {
        let path = dir.join("pbem.toml");
        let settings = stack.pbem_toml(address, &dir.join("data"), inbox, &stack.password_file);
        std::fs::write(&path, format!("{settings}{more}")).unwrap();
        Server::new(Config::load(&path).unwrap()).unwrap()
    }
}

impl StackRoom {
    /// [`Mailroom::receive`], with each mail as it came too (for a real
    /// mail client to answer it).
    pub fn receive_raw(
        &mut self,
        who: usize,
        player: &mut Player,
        n: usize,
    ) -> Vec<(Vec<u8>, Received)> {
        self.clients[who]
            .wait(n)
            .into_iter()
            .map(|raw| {
                let r = player.take(&raw).expect("a mail");
                (raw, r)
            })
            .collect()
    }
}

impl Mailroom for StackRoom {
    fn pbem_address(&self) -> String {
        self.pbem_address.clone()
    }

    fn post(&mut self, who: usize, _to: &str, raw: &[u8]) {
        let envelope = transport::envelope_of(raw).unwrap();
        // Like a mail client, tries again while the server is away (a
        // mail sent twice is still one move: pbem knows its Message-ID).
        let start = Instant::now();
        while let Err(e) = self.senders[who].send(&envelope, raw) {
            assert!(
                start.elapsed() < PATIENCE,
                "{} cannot send: {e}",
                self.clients[who].who
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn run_pbem(&mut self, n: usize) {
        let start = Instant::now();
        let mut handled = 0;
        loop {
            let r = match &mut self.pbem {
                PbemSide::Imap(server, imap) => server.poll(imap.as_mut(), true),
                PbemSide::Maildir(server, md) => server.poll(md, true),
                PbemSide::Outside(_) => return,
            }
            .unwrap_or_else(|e| panic!("pbem cannot poll: {e}"));
            assert!(!r.failed(), "{r:?}");
            handled += r.handled;
            if handled >= n {
                assert_eq!(handled, n, "pbem handled more than came: {r:?}");
                return;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "pbem got {handled} of {n} mails in {} s",
                PATIENCE.as_secs()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn receive(&mut self, who: usize, player: &mut Player, n: usize) -> Vec<Received> {
        self.receive_raw(who, player, n)
            .into_iter()
            .map(|(_, r)| r)
            .collect()
    }

    fn store(&self) -> Store {
        match &self.pbem {
            PbemSide::Imap(server, _) | PbemSide::Maildir(server, _) => {
                Store::open(server.store.root()).unwrap()
            }
            PbemSide::Outside(data) => Store::open(data).unwrap(),
        }
    }

    fn after_ply(&mut self, ply: usize) {
        if let Some(h) = &mut self.hook {
            h(ply);
        }
    }
}

/// Mails `pick` picks in `user`'s Maildir, parsed.
pub fn parsed(stack: &Stack, user: &str, pick: &dyn Fn(&Inbound) -> bool) -> Vec<Inbound> {
    stack
        .mails(user, pick)
        .iter()
        .filter_map(|raw| inbound::parse(raw).ok())
        .collect()
}

/// The last lines of Postfix's log that name this test's nonce (the part of
/// `who`, `user.NONCE@domain`, after the first dot): where each of its mails
/// went, for a failure's message.
fn postfix_lines_about(who: &str) -> String {
    let local = who.split('@').next().unwrap_or(who);
    let nonce = local.split_once('.').map_or(local, |(_, n)| n);
    let log = stack().log_dir().join("postfix.log");
    let text = std::fs::read(&log).unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(nonce)).collect();
    let tail = &lines[lines.len().saturating_sub(12)..];
    format!("({})\n{}", log.display(), tail.join("\n"))
}
