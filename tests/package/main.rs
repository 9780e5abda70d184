//! The Debian package, installed for real: `scripts/deb` builds it and
//! `$PBEM_DEB` names it (`scripts/test` does both). dpkg installs it;
//! `pbem check` passes as the user pbem on the installed settings; the
//! daemon runs as the unit's ExecStart says, on the settings as installed
//! and as an admin edits them for this machine; a challenge goes through the
//! loopback Postfix's pipe service, hooked up as README.Debian says
//! (`scripts/mailstack`), its answers arrive, and the daemon answers the
//! reply it finds in its Maildir; `dpkg -r` keeps the games and the
//! settings, `dpkg -P` deletes them.
//!
//! The tests need root and the package, so they are ignored by a plain
//! `cargo test`; asked for (`--include-ignored`, as `scripts/test` does),
//! they fail when either is missing.
//!
//! ```text
//! scripts/mailstack start && eval "$(scripts/mailstack env)"
//! PBEM_DEB=$(scripts/deb) cargo test --test package -- --include-ignored
//! ```

#[path = "../common/mod.rs"]
mod common;

mod system;
mod unit;

use common::mailstack::{Stack, nonce, stack};
use pbem::demo::{Player, Received};
use pbem::transport;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use system::{dpkg_status, ids_of, run, runs};

/// How long mail may take through Postfix, the pipe and the daemon on a
/// loaded machine before the test gives up.
const DEADLINE: Duration = Duration::from_secs(120);
const CONFIG: &str = "/etc/pbem/pbem.toml";
const STATE: &str = "/var/lib/pbem";

/// The package file scripts/deb built; fails loudly without it, or
/// without root.
fn deb() -> PathBuf {
    assert!(
        rustix::process::geteuid().is_root(),
        "the package tests install a package (dpkg -i) and run pbem as the user pbem: \
         run them as root (scripts/test does)"
    );
    let deb = std::env::var_os("PBEM_DEB").map(PathBuf::from).expect(
        "PBEM_DEB is not set: build the package with scripts/deb and set PBEM_DEB to the \
         path it prints (scripts/test does both)",
    );
    assert!(
        deb.is_file(),
        "PBEM_DEB={}: no such file; build it with scripts/deb",
        deb.display()
    );
    deb
}

/// The package as it is installed during the test: purged at the end,
/// also when the test fails, so that the next run starts clean; the
/// daemon it started, stopped.
struct Installed {
    daemon: Option<Child>,
    log: PathBuf,
}

impl Drop for Installed {
    fn drop(&mut self) {
        if let Some(mut d) = self.daemon.take() {
            let _ = d.kill();
            let _ = d.wait();
        }
        if dpkg_status().is_some() {
            let _ = Command::new("dpkg").args(["-P", "pbem"]).output();
        }
    }
}

impl Installed {
    fn said(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

#[test]
#[ignore = "needs root and the .deb built by scripts/deb"]
fn the_package_installs_answers_mail_and_goes_away() {
    let deb = deb();
    let s = stack();
    if let Some(status) = dpkg_status() {
        panic!(
            "pbem is on this machine already (dpkg: {status}): this test installs and purges \
             it; purge it first (dpkg -P pbem)"
        );
    }
    assert!(
        !Path::new(STATE).exists(),
        "{STATE} is there with no package: left from an earlier pbem; move it away first"
    );
    let logs = tempfile::tempdir().unwrap();
    let mut installed = Installed {
        daemon: None,
        log: logs.path().join("daemon.log"),
    };
    install(&deb);
    check_the_layout();
    check_the_fresh_settings();
    // The service starts on the settings as installed (the postinst
    // enables it, and starts it where systemd runs), and waits for mail.
    installed.daemon = Some(start_the_daemon(&installed.log));
    stop_the_daemon(&mut installed);
    let address = std::env::var("PBEM_MAILSTACK_DEB_ADDRESS")
        .expect("PBEM_MAILSTACK_DEB_ADDRESS: eval \"$(scripts/mailstack env)\" again");
    configure(&address, s);
    installed.log = logs.path().join("daemon-configured.log");
    installed.daemon = Some(start_the_daemon(&installed.log));
    let id = play_the_opening(s, &address, &installed);
    stop_the_daemon(&mut installed);
    remove_and_purge(&id, &address);
}

/// `dpkg -i` (apt-get where a dependency is missing), and what dpkg says
/// is there.
fn install(deb: &Path) {
    let o = Command::new("dpkg")
        .arg("-i")
        .arg(deb)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .output()
        .unwrap();
    if !o.status.success() {
        let said = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(
            said.contains("dependency problems"),
            "dpkg -i {}: {said}",
            deb.display()
        );
        run(Command::new("apt-get")
            .args(["install", "-y", "--no-install-recommends"])
            .arg(deb)
            .env("DEBIAN_FRONTEND", "noninteractive"));
    }
    assert_eq!(dpkg_status().as_deref(), Some("install ok installed"));
    eprintln!(
        "dpkg -L pbem:\n{}",
        run(Command::new("dpkg").args(["-L", "pbem"]))
    );
}

/// The files, the user and the folders the package sets up.
fn check_the_layout() {
    let listed = run(Command::new("dpkg").args(["-L", "pbem"]));
    for file in [
        "/usr/bin/pbem",
        "/usr/share/man/man1/pbem.1.gz",
        "/usr/share/man/man1/pbem-daemon.1.gz",
        "/usr/share/bash-completion/completions/pbem",
        "/usr/share/zsh/vendor-completions/_pbem",
        "/usr/share/fish/vendor_completions.d/pbem.fish",
        "/usr/share/doc/pbem/README.Debian",
        "/usr/share/doc/pbem/copyright",
        CONFIG,
    ] {
        assert!(listed.lines().any(|l| l == file), "dpkg -L: no {file}");
        assert!(Path::new(file).is_file(), "{file}");
    }
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap();
    let entry = passwd
        .lines()
        .find(|l| l.starts_with("pbem:"))
        .expect("the postinst made the user pbem");
    assert!(
        entry.ends_with(&format!(":{STATE}:/usr/sbin/nologin")),
        "{entry}"
    );
    let (uid, _) = ids_of("pbem");
    for dir in ["", "/data", "/mail", "/mail/inbox", "/mail/inbox/new"] {
        let meta = std::fs::metadata(format!("{STATE}{dir}")).unwrap();
        assert_eq!(meta.uid(), uid, "{STATE}{dir} is pbem's");
        assert_eq!(meta.mode() & 0o007, 0, "{STATE}{dir} is closed to others");
    }
    // The settings are what the installed pbem's `init` writes for
    // Debian's folders: made from pbem, not copied.
    let made = run(Command::new("/usr/bin/pbem").args([
        "init",
        "--data-root",
        STATE,
        "--send",
        "localhost",
        "--stdout",
    ]));
    assert_eq!(std::fs::read_to_string(CONFIG).unwrap(), made);
    // It may hold a mail password: root's and pbem's only.
    let meta = std::fs::metadata(CONFIG).unwrap();
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    assert_eq!(meta.permissions().mode() & 0o777, 0o640, "{CONFIG}'s mode");
    let group = run(Command::new("stat").args(["-c", "%U:%G", CONFIG]));
    assert_eq!(group.trim(), "root:pbem", "{CONFIG}'s owner");
    assert_eq!(meta.uid(), 0);
    let unit = unit::installed();
    for line in [
        "ProtectSystem=strict",
        "ReadWritePaths=/var/lib/pbem",
        "NoNewPrivileges=true",
        "PrivateTmp=true",
    ] {
        assert!(unit.text.lines().any(|l| l == line), "the unit has {line}");
    }
    assert!(
        Path::new("/etc/systemd/system/multi-user.target.wants/pbem.service").is_symlink(),
        "the postinst enabled the unit"
    );
}

/// `pbem check` as pbem on the settings as installed: everything but
/// sending passes here, where no mail server listens on port 25 (a
/// Debian machine's Postfix or Exim does).
fn check_the_fresh_settings() {
    let o = as_pbem(&["check", "--config", CONFIG]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    for what in ["config", "data", "inbox"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with("OK") && l.split_whitespace().nth(1) == Some(what)),
            "{what} is OK: {out}"
        );
    }
    let send = out
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("send"))
        .unwrap_or_else(|| panic!("a send line: {out}"));
    assert!(send.contains("smtp 127.0.0.1:25 (none)"), "{send}");
    let port_25 = std::net::TcpStream::connect(("127.0.0.1", 25)).is_ok();
    assert_eq!(o.status.success(), port_25, "{out}");
}

/// `runuser -u pbem -- /usr/bin/pbem ARGS`.
fn as_pbem(args: &[&str]) -> std::process::Output {
    Command::new("runuser")
        .args(["-u", "pbem", "--", "/usr/bin/pbem"])
        .args(args)
        .current_dir("/")
        .output()
        .unwrap()
}

/// What an admin changes for this machine: pbem's address, and the port
/// of the mail stack's SMTP (its Postfix is not on 25). Then `pbem check`
/// passes.
fn configure(address: &str, s: &Stack) {
    let text = std::fs::read_to_string(CONFIG).unwrap();
    let edits = [
        (
            "address = \"pbem@localhost\"\n",
            format!("address = \"{address}\"\n"),
        ),
        ("port = 25\n", format!("port = {}\n", s.smtp_port)),
    ];
    let mut edited = text.clone();
    for (from, to) in &edits {
        assert_eq!(edited.matches(from).count(), 1, "{CONFIG} has one {from:?}");
        edited = edited.replace(from, to);
    }
    std::fs::write(CONFIG, edited).unwrap();
    let o = as_pbem(&["check", "--config", CONFIG]);
    assert!(
        o.status.success(),
        "pbem check on the edited settings: {}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// The daemon, started as the installed unit says (its User=, Group=,
/// Environment= and ExecStart=, NoNewPrivileges too; systemd itself does
/// not run here), its standard error in `log` as the journal would hold
/// it. Returns once it says it runs.
fn start_the_daemon(log: &Path) -> Child {
    let unit = unit::installed();
    let argv = unit.exec_start();
    let user = unit.service("User").expect("the unit names its User=");
    let group = unit.service("Group").unwrap_or(user);
    let mut cmd = Command::new("setpriv");
    cmd.arg(format!("--reuid={user}"))
        .arg(format!("--regid={group}"))
        .arg("--init-groups");
    if unit.service("NoNewPrivileges") == Some("true") {
        cmd.arg("--no-new-privs");
    }
    let out = std::fs::File::create(log).unwrap();
    cmd.arg("--")
        .args(&argv)
        .env_clear()
        .env("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin")
        .env("HOME", STATE)
        .env("USER", user)
        .env("LOGNAME", user)
        .envs(unit.environment())
        .current_dir("/")
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(out);
    let mut daemon = cmd.spawn().unwrap();
    let start = Instant::now();
    loop {
        let said = std::fs::read_to_string(log).unwrap_or_default();
        if said.contains("daemon-start") {
            return daemon;
        }
        if let Some(status) = daemon.try_wait().unwrap() {
            panic!("{argv:?} as {user} exited {status}: {said}");
        }
        assert!(
            start.elapsed() < DEADLINE,
            "{argv:?}: no daemon-start after {} s: {said}",
            DEADLINE.as_secs()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Alice challenges Bob by mail to pbem's address: the loopback Postfix
/// hands it to the pipe service, which runs `pbem deliver` as pbem, and
/// the answers reach both. Bob's acceptance then comes into the daemon's
/// Maildir, as a delivery there would put it, and the daemon tells both
/// that the game begins. Returns the game's id.
fn play_the_opening(s: &Stack, address: &str, installed: &Installed) -> String {
    let tag = nonce();
    let (alice_box, bob_box) = (format!("alice.{tag}"), format!("bob.{tag}"));
    let mut alice = Player::elsewhere("Alice", &s.address(&alice_box));
    let mut bob = Player::elsewhere("Bob", &s.address(&bob_box));
    let challenge = alice.compose(
        address,
        "a game?",
        &format!("Hi Bob!\n\nchallenge mad {}\n", bob.address),
        None,
    );
    let smtp = transport::from_config(&s.plain_smtp()).unwrap();
    smtp.send(&transport::envelope_of(&challenge).unwrap(), &challenge)
        .unwrap_or_else(|e| panic!("the loopback Postfix takes the challenge: {e}"));
    let why = || postfix_lines(s, &tag);
    let invitation = wait_mail(s, &bob_box, "the challenge", &why, |r| {
        r.text.contains("challenges you")
    });
    let invitation = bob.take(&invitation).unwrap();
    let id: String = invitation
        .subject
        .strip_prefix("[pbem ")
        .unwrap_or_else(|| panic!("a pbem subject: {}", invitation.subject))
        .chars()
        .take_while(|c| *c != ']')
        .collect();
    wait_mail(s, &alice_box, "the challenge's receipt", &why, |r| {
        r.text.starts_with("Your challenge to")
    });
    let log = std::fs::read_to_string(s.log_dir().join("postfix.log")).unwrap_or_default();
    assert!(
        log.lines()
            .any(|l| l.contains(&format!("to=<{address}>, relay=pbem,"))
                && l.contains("status=sent")),
        "the pipe service pbem took the challenge: {}",
        why()
    );

    let (_, accept) = bob.answer(&id, "accept").unwrap();
    into_the_inbox(&format!("{tag}.accept"), &accept);
    let why = || installed.said();
    for mailbox in [&alice_box, &bob_box] {
        wait_mail(s, mailbox, "the game's start", &why, |r| {
            r.text.contains("begins")
        });
    }
    // The daemon, not a pipe, took it: it logged the mail and moved it on.
    // Its poll's log is written once the poll ends, after its replies
    // went out: waited for.
    let bobs = format!("from={}", bob.address);
    common::wait::wait_until(DEADLINE, "the daemon logs Bob's mail", || {
        let said = installed.said();
        match said
            .lines()
            .any(|l| l.contains(" mail key=") && l.contains(&bobs))
        {
            true => Ok(()),
            false => Err(said),
        }
    });
    let new = std::fs::read_dir(format!("{STATE}/mail/inbox/new")).unwrap();
    assert_eq!(new.count(), 0, "the daemon took the mail from new/");
    let record = PathBuf::from(format!("{STATE}/data/games/{id}.toml"));
    let meta = std::fs::metadata(&record).unwrap();
    assert_eq!(
        meta.uid(),
        ids_of("pbem").0,
        "pbem wrote {}",
        record.display()
    );
    id
}

/// Puts `raw` into the daemon's Maildir the Maildir way (written in tmp/,
/// then moved into new/), owned by pbem as a delivery there would be.
fn into_the_inbox(name: &str, raw: &[u8]) {
    let (uid, gid) = ids_of("pbem");
    let tmp = PathBuf::from(format!("{STATE}/mail/inbox/tmp/{name}"));
    std::fs::write(&tmp, raw).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::chown(&tmp, Some(uid), Some(gid)).unwrap();
    std::fs::rename(&tmp, format!("{STATE}/mail/inbox/new/{name}")).unwrap();
}

/// Waits for the mail in `mailbox` (a Maildir of the stack) that `pick`
/// picks (its text on one line); past the deadline, fails with `what` and what `why` tells.
fn wait_mail(
    s: &Stack,
    mailbox: &str,
    what: &str,
    why: &dyn Fn() -> String,
    pick: impl Fn(&Received) -> bool,
) -> Vec<u8> {
    // The text as one line: pbem wraps its sentences.
    let flat = |mut r: Received| {
        r.text = r.text.split_whitespace().collect::<Vec<_>>().join(" ");
        r
    };
    let start = Instant::now();
    loop {
        let found = s
            .mails(mailbox, &|_| true)
            .into_iter()
            .find(|raw| Received::parse(raw).is_some_and(|r| pick(&flat(r))));
        if let Some(raw) = found {
            return raw;
        }
        assert!(
            start.elapsed() < DEADLINE,
            "no {what} in {mailbox}'s Maildir after {} s:\n{}",
            DEADLINE.as_secs(),
            why()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Postfix's log lines about this test's mail (its nonce), for a failure.
fn postfix_lines(s: &Stack, tag: &str) -> String {
    let log = std::fs::read_to_string(s.log_dir().join("postfix.log")).unwrap_or_default();
    let ids: Vec<&str> = log
        .lines()
        .filter(|l| l.contains(tag))
        .filter_map(|l| l.split_whitespace().nth(5))
        .collect();
    log.lines()
        .filter(|l| l.contains(tag) || ids.iter().any(|id| l.contains(id)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// SIGTERM, as `systemctl stop` sends: the daemon finishes and exits 0.
fn stop_the_daemon(installed: &mut Installed) {
    let mut daemon = installed.daemon.take().expect("the daemon runs");
    let pid = rustix::process::Pid::from_child(&daemon);
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = daemon.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < DEADLINE,
            "the daemon still runs {} s after SIGTERM: {}",
            DEADLINE.as_secs(),
            installed.said()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let said = installed.said();
    assert!(
        status.success(),
        "the daemon exits 0 on SIGTERM: {status}; {said}"
    );
    assert!(said.contains("daemon-stop"), "{said}");
    assert!(!said.contains("ERROR"), "{said}");
}

/// `dpkg -r` keeps the games and the edited settings and removes the
/// program; `dpkg -P` deletes the games and the settings.
fn remove_and_purge(id: &str, address: &str) {
    run(Command::new("dpkg").args(["-r", "pbem"]));
    assert_eq!(dpkg_status().as_deref(), Some("deinstall ok config-files"));
    assert!(!Path::new("/usr/bin/pbem").exists(), "the program is gone");
    let record = format!("{STATE}/data/games/{id}.toml");
    assert!(Path::new(&record).is_file(), "remove keeps {record}");
    let settings = std::fs::read_to_string(CONFIG).expect("remove keeps the conffile");
    assert!(settings.contains(address), "and the admin's changes to it");

    run(Command::new("dpkg").args(["-P", "pbem"]));
    assert_eq!(dpkg_status(), None);
    for gone in [STATE, "/etc/pbem"] {
        assert!(!Path::new(gone).exists(), "purge deletes {gone}");
    }
    assert!(
        runs("getent", &["passwd", "pbem"]),
        "the user pbem stays, as README.Debian says"
    );
}

/// The mail stack's Postfix is hooked to the package as README.Debian
/// tells an admin to: the same master.cf service, the same main.cf
/// settings, and a transport table entry for the test's address.
#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack)"]
fn the_mail_stack_hooks_postfix_up_as_readme_debian_says() {
    let s = stack();
    let readme = include_str!("../../debian/README.Debian");
    let conf = s.dir.join("postfix");
    let postconf = |args: &[&str]| run(Command::new("postconf").arg("-c").arg(&conf).args(args));
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let service = readme
        .split("# /etc/postfix/master.cf")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .and_then(|block| block.split_once('\n'))
        .map(|(_, lines)| words(lines))
        .expect("README.Debian shows the master.cf service");
    assert_eq!(words(&postconf(&["-M", "pbem/unix"])), service);
    let main = readme
        .split("# /etc/postfix/main.cf")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .expect("README.Debian shows main.cf's lines");
    for line in main.lines().skip(1) {
        let (key, value) = line.split_once(" = ").unwrap();
        let key = key.trim();
        if key == "transport_maps" {
            // The stack's table is in its own folder.
            assert!(postconf(&["-h", key]).starts_with("hash:"), "{key}");
        } else {
            assert_eq!(postconf(&["-h", key]).trim(), value, "{key}");
        }
    }
    let address = std::env::var("PBEM_MAILSTACK_DEB_ADDRESS").unwrap();
    let table = format!("hash:{}", conf.join("transport").display());
    let found = run(Command::new("postmap")
        .arg("-c")
        .arg(&conf)
        .args(["-q", &address, &table]));
    assert_eq!(found.trim(), "pbem:", "{address} goes to the pipe service");
}
