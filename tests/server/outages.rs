//! Outages: the mail servers go away in the
//! middle of a run, and nothing is lost or sent twice.
//!
//! - Postfix stops while `pbem poll` is sending a few hundred replies: the
//!   outbox keeps what was not sent, a poll while it is down gives up at
//!   once instead of waiting out a time-out per mail, and when Postfix is
//!   back every reply goes out, once.
//! - The IMAP connection breaks in the middle of a fetch, and in the
//!   middle of marking mail done (a byte-exact cut by a loopback proxy in
//!   front of the real Dovecot), and Dovecot itself stops during a poll:
//!   every move is recorded once and every reply arrives once.
//!
//! Each test runs alone in its binary ([`crate::common::lock::alone`]):
//! they stop the shared servers, which no other test may see.

use crate::common;

use common::files;
use common::mailstack::{Stack, nonce, stack};
use common::wait::{PATIENCE, wait_until};
use common::workload::{self, Workload};
use pbem::config::Config;
use pbem::reply::Identity;
use pbem::store::Store;
use pbem::transport;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// Starts whatever of the stack is down when dropped, so a failing test
/// leaves the servers up for the next test.
struct Restart(&'static Stack);

impl Drop for Restart {
    fn drop(&mut self) {
        self.0.script(&["start"]);
    }
}

fn pbem(config: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .arg("--config")
        .arg(config)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The files under `dir` whose names end in `ext`.
fn count(dir: &Path, ext: &str) -> usize {
    files(dir)
        .iter()
        .filter(|p| p.to_string_lossy().ends_with(ext))
        .count()
}

/// A site: pbem at `pbem.TAG@` the stack's domain, data in `dir/data`,
/// replying through submission; `inbox` is the `[inbox]` line.
struct Site {
    dir: tempfile::TempDir,
    config: PathBuf,
    tag: String,
    address: String,
}

impl Site {
    fn new(s: &Stack, inbox: &dyn Fn(&Path, &str) -> String) -> Site {
        let tag = nonce();
        let address = s.address(&format!("pbem.{tag}"));
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("pbem.toml");
        std::fs::write(
            &config,
            s.pbem_toml(
                &address,
                &dir.path().join("data"),
                &inbox(dir.path(), &address),
                &s.password_file,
            ),
        )
        .unwrap();
        Site {
            dir,
            config,
            tag,
            address,
        }
    }

    fn store(&self) -> Store {
        Store::open(&Config::load(&self.config).unwrap().data).unwrap()
    }

    /// `n_games` games of `plies` moves between fresh players at the
    /// stack's domain.
    fn workload(&self, s: &Stack, n_games: usize, plies: usize) -> Workload {
        let identity = Identity::at(self.address.clone());
        let tag = self.tag.clone();
        workload::build(
            &self.store(),
            &identity,
            n_games,
            Some(plies),
            &|g| {
                [
                    s.address(&format!("a{g}.{tag}")),
                    s.address(&format!("b{g}.{tag}")),
                ]
            },
            true,
        )
    }

    fn outbox(&self) -> usize {
        pbem::outbox::queued(&self.dir.path().join("data/outbox/ready"))
    }
}

/// The mails a player at the stack's domain received.
fn mailbox(s: &Stack, address: &str) -> Vec<Vec<u8>> {
    s.mails(address.split('@').next().unwrap(), &|_| true)
}

/// Waits until every player of `load` holds `expected` mails in all, then
/// a moment more for any that would come twice.
fn wait_for_replies(s: &Stack, load: &Workload, expected: usize) {
    let players: Vec<&String> = load.games.iter().flat_map(|g| &g.players).collect();
    let start = Instant::now();
    loop {
        let got: usize = players.iter().map(|p| mailbox(s, p).len()).sum();
        if got >= expected {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "{got} of {expected} replies delivered after 90 s; see {}",
            s.log_dir().display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_secs(1));
}

#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack)"]
fn postfix_stops_mid_flush_and_every_reply_goes_out_once() {
    let _alone = crate::common::lock::alone();
    let s = stack();
    let _restart = Restart(s);
    let site = Site::new(s, &|dir, _| {
        format!("maildir = \"{}\"", dir.join("inbox").display())
    });
    let load = site.workload(s, 20, 8);
    let inbox = pbem::mailbox::Maildir::open(site.dir.path().join("inbox")).unwrap();
    for m in &load.mails {
        inbox.deliver(&m.name, &m.raw).unwrap();
    }
    let replies = load.replies();

    // Postfix goes down once a third of the replies are out: pbem sends
    // over plain SMTP through the proxy, which holds the next reply's
    // MAIL FROM until Postfix has stopped, so exactly that many went out
    // before, however fast or slow the machine is.
    let sent_before = replies / 3;
    let proxy = Proxy::start((s.host.clone(), s.smtp_port));
    let settings = std::fs::read_to_string(&site.config).unwrap();
    let send_at = settings.find("[send]").expect("a [send] table");
    let plain = format!(
        "{}[send]\ntransport = \"smtp\"\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"none\"\n",
        &settings[..send_at],
        proxy.port
    );
    std::fs::write(&site.config, plain).unwrap();
    let (release, hold) = mpsc::channel();
    proxy.hold("MAIL FROM", sent_before + 1, hold);
    let config = site.config.clone();
    let poll = std::thread::spawn(move || pbem(&config, &["poll"]));
    proxy
        .fired
        .recv_timeout(PATIENCE)
        .expect("the flush reaches the reply the proxy holds");
    s.script(&["stop-smtp"]);
    release.send(()).unwrap();
    let first = poll.join().unwrap();
    assert_eq!(first.status.code(), Some(1), "{}", text(&first));
    let left = site.outbox();
    assert_eq!(
        left,
        replies - sent_before,
        "the outage came mid-flush: {sent_before} sent when Postfix stopped"
    );
    assert!(text(&first).contains("SMTP"), "{}", text(&first));

    // While it is down: one failed try, not one time-out per mail.
    let started = Instant::now();
    let down = pbem(&site.config, &["poll"]);
    let took = started.elapsed();
    assert_eq!(down.status.code(), Some(1), "{}", text(&down));
    assert!(
        text(&down).contains("more queued mails not tried"),
        "{}",
        text(&down)
    );
    assert_eq!(site.outbox(), left, "nothing lost while the server is down");
    assert!(took < Duration::from_secs(10), "{took:?}");

    s.script(&["start"]);
    let back = pbem(&site.config, &["poll"]);
    assert_eq!(back.status.code(), Some(0), "{}", text(&back));
    assert_eq!(site.outbox(), 0, "the outbox is empty");

    wait_for_replies(s, &load, replies);
    // The one mail on the wire when Postfix died may have been queued by
    // Postfix without pbem hearing so: sent again, it comes twice, with
    // one Message-ID (RFC 1047; no client can tell). Any other is a bug.
    let twice = load.check_replies_but(&|who| mailbox(s, who), 1);
    load.check_records(&site.store());
    eprintln!(
        "smtp outage: {replies} replies, {sent_before} out before Postfix stopped, \
         {left} kept in the outbox and sent after, {twice} in flight at the stop came twice; \
         a poll while down took {took:.2?}"
    );
}

/// What the proxy does to the connections it carries.
#[derive(Default)]
struct Plan {
    /// Act when the client sends the `n`th command (over all connections)
    /// holding this text.
    trigger: Option<(String, usize)>,
    seen: usize,
    /// Then let this many more bytes of the server's answer through and
    /// cut the connection (0: the command itself is not passed on);
    /// `None`: only tell the test.
    cut_after: Option<u64>,
    /// Pass the command on only once this says so (or is dropped).
    hold: Option<mpsc::Receiver<()>>,
}

/// A loopback TCP proxy in front of the IMAP or SMTP server that can cut
/// or hold a connection at an exact point (plain IMAP or SMTP, so it can
/// read commands).
struct Proxy {
    port: u16,
    plan: Arc<Mutex<Plan>>,
    /// Told when the trigger fires.
    fired: mpsc::Receiver<()>,
}

impl Proxy {
    fn start(upstream: (String, u16)) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let plan: Arc<Mutex<Plan>> = Arc::default();
        let (tx, fired) = mpsc::channel();
        let p = Arc::clone(&plan);
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                // The server down: the client's connection is dropped.
                if let Ok(server) = TcpStream::connect((upstream.0.as_str(), upstream.1)) {
                    carry(client, server, Arc::clone(&p), tx.clone());
                }
            }
        });
        Proxy { port, plan, fired }
    }

    fn arm(&self, trigger: &str, n: usize, cut_after: Option<u64>) {
        *self.plan.lock().unwrap() = Plan {
            trigger: Some((trigger.to_string(), n)),
            seen: 0,
            cut_after,
            hold: None,
        };
        while self.fired.try_recv().is_ok() {}
    }

    /// Holds the `n`th command holding `trigger` until `release` says so
    /// (telling the test through `fired`), then passes it on.
    fn hold(&self, trigger: &str, n: usize, release: mpsc::Receiver<()>) {
        self.arm(trigger, n, None);
        self.plan.lock().unwrap().hold = Some(release);
    }
}

/// Carries one connection both ways, applying the plan.
fn carry(client: TcpStream, server: TcpStream, plan: Arc<Mutex<Plan>>, fired: mpsc::Sender<()>) {
    // Server bytes still allowed; -1: no limit.
    let budget = Arc::new(AtomicI64::new(-1));
    let cut = {
        let (c, s) = (
            Arc::new(client.try_clone().unwrap()),
            Arc::new(server.try_clone().unwrap()),
        );
        move || {
            let _ = c.shutdown(Shutdown::Both);
            let _ = s.shutdown(Shutdown::Both);
        }
    };
    let (mut to_server, from_client) = (server.try_clone().unwrap(), client.try_clone().unwrap());
    let (b, cut_up) = (Arc::clone(&budget), cut.clone());
    std::thread::spawn(move || {
        let mut lines = BufReader::new(from_client);
        let mut line = Vec::new();
        while lines.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
            let mut p = plan.lock().unwrap();
            let hit = p
                .trigger
                .as_ref()
                .is_some_and(|(t, _)| String::from_utf8_lossy(&line).contains(t.as_str()));
            if hit {
                p.seen += 1;
                if p.seen == p.trigger.as_ref().unwrap().1 {
                    p.trigger = None;
                    let _ = fired.send(());
                    if let Some(release) = p.hold.take() {
                        drop(p);
                        let _ = release.recv();
                        p = plan.lock().unwrap();
                    }
                    match p.cut_after {
                        Some(0) => return cut_up(),
                        Some(n) => b.store(i64::try_from(n).unwrap(), Ordering::SeqCst),
                        None => {}
                    }
                }
            }
            drop(p);
            if to_server.write_all(&line).is_err() {
                return cut_up();
            }
            line.clear();
        }
        cut_up();
    });
    let (mut from_server, mut to_client) = (server, client);
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        loop {
            let n = match from_server.read(&mut buf) {
                Ok(0) | Err(_) => return cut(),
                Ok(n) => n,
            };
            let left = budget.load(Ordering::SeqCst);
            let pass = if left < 0 {
                n
            } else {
                n.min(usize::try_from(left).unwrap())
            };
            if to_client.write_all(&buf[..pass]).is_err() {
                return cut();
            }
            if left >= 0 {
                let rest = left - i64::try_from(pass).unwrap();
                budget.store(rest, Ordering::SeqCst);
                if rest == 0 {
                    return cut();
                }
            }
        }
    });
}

/// The mails in `user`'s Maildir: INBOX and the folder "done".
fn delivered(s: &Stack, user: &str) -> usize {
    ["new", "cur", ".done/new", ".done/cur"]
        .iter()
        .map(|sub| count(&s.maildirs.join(user).join(sub), ""))
        .sum()
}

/// Sends the mails of plies `plies` through Postfix's SMTP port into
/// pbem's mailbox, a ply at a time (so that the server numbers them in
/// play order), and waits for each ply to be delivered.
fn post(s: &Stack, site: &Site, load: &Workload, plies: std::ops::RangeInclusive<usize>) {
    let smtp = transport::from_config(&s.plain_smtp()).unwrap();
    let user = format!("pbem.{}", site.tag);
    for ply in plies {
        let before = delivered(s, &user);
        let mails: Vec<_> = load.mails.iter().filter(|m| m.ply == ply).collect();
        for m in &mails {
            let envelope = transport::envelope_of(&m.raw).unwrap();
            smtp.send(&envelope, &m.raw).unwrap();
        }
        let start = Instant::now();
        while delivered(s, &user) < before + mails.len() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "ply {ply} not delivered"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Polls until a poll succeeds and every game of `load` has `plies` plies
/// (`played` counts them), for as long as a loaded machine may need; the
/// number of polls.
fn poll_until_played(
    site: &Site,
    load: &Workload,
    plies: usize,
    played: &dyn Fn(&workload::Game) -> usize,
) -> usize {
    let mut polls = 0;
    wait_until(PATIENCE, &format!("every game at ply {plies}"), || {
        let o = pbem(&site.config, &["poll"]);
        polls += 1;
        if o.status.code() == Some(0) && load.games.iter().all(|g| played(g) == plies) {
            Ok(())
        } else {
            Err(format!("poll {polls}: {}", text(&o)))
        }
    });
    polls
}

#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack)"]
fn the_imap_server_goes_away_mid_fetch_and_nothing_is_lost() {
    let _alone = crate::common::lock::alone();
    let s = stack();
    let _restart = Restart(s);
    let proxy = Proxy::start((s.host.clone(), s.imap_port));
    let port = proxy.port;
    let site = Site::new(s, &|_, address| {
        format!(
            "imap = {{ host = \"127.0.0.1\", port = {port}, security = \"plain\", user = \"{address}\", \
             password_file = \"{}\", processed_folder = \"done\" }}",
            s.password_file.display()
        )
    });
    let load = site.workload(s, 20, 8);
    let store = site.store();
    let played = |g: &workload::Game| {
        pbem::record::Record::parse("x.toml", &store.read_game(&g.id).unwrap().unwrap())
            .unwrap()
            .lines
            .len()
    };
    post(s, &site, &load, 1..=4);

    // 1. Cut half-way through the first batch of bodies: the poll fails,
    // nothing is processed, nothing is marked.
    let first_half: u64 = load
        .mails
        .iter()
        .filter(|m| m.ply <= 4)
        .take(25)
        .map(|m| m.raw.len() as u64)
        .sum();
    proxy.arm("BODY.PEEK[]", 1, Some(first_half));
    let cut = pbem(&site.config, &["poll"]);
    assert_ne!(cut.status.code(), Some(0), "{}", text(&cut));
    assert!(
        text(&cut).contains("cannot read the mailbox"),
        "{}",
        text(&cut)
    );
    assert!(load.games.iter().all(|g| played(g) == 0), "nothing played");
    assert_eq!(site.outbox(), 0);

    // 2. Cut at the 30th mail marked done: every mail is processed, the
    // rest are marked by the next poll, none twice.
    proxy.arm("UID MOVE", 30, Some(0));
    let marking = pbem(&site.config, &["poll"]);
    assert!(
        text(&marking).contains("cannot mark as done") || marking.status.code() == Some(0),
        "{}",
        text(&marking)
    );
    let plies: Vec<usize> = load.games.iter().map(played).collect();
    assert!(
        plies.iter().all(|&p| p == 4),
        "plies 1-4 played: {plies:?}; the poll said: {}",
        text(&marking)
    );
    let again = pbem(&site.config, &["poll"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again));

    // 3. Dovecot itself stops as a poll starts fetching plies 5-8; replies
    // cannot be sent meanwhile (no AUTH without Dovecot).
    post(s, &site, &load, 5..=8);
    proxy.arm("BODY.PEEK[]", 1, None);
    let config = site.config.clone();
    let poll = std::thread::spawn(move || pbem(&config, &["poll"]));
    proxy
        .fired
        .recv_timeout(Duration::from_secs(30))
        .expect("the poll fetches");
    s.script(&["stop-imap"]);
    let during = poll.join().unwrap();
    s.script(&["start"]);
    let polls = poll_until_played(&site, &load, 8, &played);
    assert_eq!(site.outbox(), 0, "every reply sent");

    wait_for_replies(s, &load, load.replies());
    load.check_replies(&|who| mailbox(s, who));
    load.check_records(&store);
    // Nothing left unread: a last poll finds no mail at all.
    let last = pbem(&site.config, &["poll"]);
    assert!(
        text(&last).contains("handled=0 refused=0 already=0 failed=0 sent=0 waiting=0"),
        "{}",
        text(&last)
    );
    eprintln!(
        "imap outage: {} mails; cut mid-fetch after {first_half} bytes, cut at the 30th \
         UID MOVE, Dovecot stopped mid-poll (that poll: exit {:?}); {polls} polls after",
        load.mails.len(),
        during.status.code()
    );
}
