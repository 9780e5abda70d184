//! pbem wired to a real mail server the other ways an admin does it,
//! against the loopback Postfix and Dovecot
//! (`scripts/mailstack`): a whole game through an MTA pipe (Postfix's
//! alias into `pbem deliver`), a whole game read from the Maildir the
//! server writes, and `pbem check` against the real servers.

use crate::common;

use common::mailstack::{PbemSide, Stack, StackRoom, nonce, stack};
use common::play::play_game;
use pbem::mailbox::Maildir;
use pbem::rules::Rules;
use std::os::unix::fs::{PermissionsExt, chown};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// The uid and gid of `user` (from /etc/passwd).
fn ids_of(user: &str) -> (u32, u32) {
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap();
    passwd
        .lines()
        .map(|l| l.split(':').collect::<Vec<_>>())
        .find(|f| f.first() == Some(&user) && f.len() > 3)
        .map(|f| (f[2].parse().unwrap(), f[3].parse().unwrap()))
        .unwrap_or_else(|| panic!("no user {user} in /etc/passwd"))
}

fn chown_all(path: &Path, uid: u32, gid: u32) {
    chown(path, Some(uid), Some(gid)).unwrap();
    if path.is_dir() {
        for e in std::fs::read_dir(path).unwrap().flatten() {
            chown_all(&e.path(), uid, gid);
        }
    }
}

/// Postfix hands each mail for pbem@pipe.<domain> (and pbem+KEY@) to the
/// alias `"|.../pbem deliver --config .../pbem.toml"`, which runs as
/// nobody (docs/src/admin/mta.md); pbem replies over submission and the
/// players read the replies over IMAP.
#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack) and root to chown"]
fn a_whole_game_through_the_mta_pipe() {
    let _shared = crate::common::lock::shared();
    let started = Instant::now();
    let s = stack();
    let pipe = &s.pipe_dir;
    let (nobody, nogroup) = ids_of("nobody");
    // What the alias runs: this build of pbem, its settings, a data folder
    // and the SMTP password, all readable (and the data writable) by
    // nobody. A fresh data folder each run.
    let data = pipe.join("data");
    if data.exists() {
        std::fs::remove_dir_all(&data).unwrap();
    }
    std::fs::create_dir_all(&data).unwrap();
    chown(&data, Some(nobody), Some(nogroup)).unwrap();
    let binary = pipe.join("pbem");
    let tmp = pipe.join("pbem.new");
    std::fs::copy(env!("CARGO_BIN_EXE_pbem"), &tmp).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::rename(&tmp, &binary).unwrap();
    let password = pipe.join("password");
    std::fs::copy(&s.password_file, &password).unwrap();
    std::fs::set_permissions(&password, std::fs::Permissions::from_mode(0o600)).unwrap();
    chown(&password, Some(nobody), Some(nogroup)).unwrap();
    let address = format!("pbem@{}", s.pipe_domain);
    std::fs::write(
        pipe.join("pbem.toml"),
        s.pbem_toml(
            &address,
            &data,
            &format!("maildir = \"{}\"", pipe.join("unused-inbox").display()),
            &password,
        ),
    )
    .unwrap();

    let tag = nonce();
    let (mut room, mut players) =
        StackRoom::new(s, &tag, &address, PbemSide::Outside(data.clone()));
    let id = play_game(&mut room, &mut players, Rules::Embed);
    // Every mail went through the pipe, run as nobody.
    let log = std::fs::read_to_string(s.log_dir().join("postfix.log")).unwrap_or_default();
    assert!(
        log.contains(&format!(
            "delivered to command: {} deliver",
            binary.display()
        )),
        "Postfix's log shows deliveries to the command"
    );
    let record = data.join("games").join(format!("{id}.toml"));
    assert_eq!(
        std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(&record).unwrap()),
        nobody,
        "pbem deliver ran as nobody"
    );
    eprintln!(
        "embed through the MTA pipe in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// pbem's inbox is the Maildir Postfix and Dovecot write (LMTP), read
/// with the Maildir source; replies over submission, read over IMAP.
#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack) and root to chown"]
fn a_whole_game_from_the_maildir_the_server_writes() {
    let _shared = crate::common::lock::shared();
    let started = Instant::now();
    let s = stack();
    let tag = nonce();
    let local = format!("pbem.{tag}");
    let address = s.address(&local);
    let maildir = s.maildirs.join(&local);
    // Made before the first delivery, so it must be the mail user's
    // (uid 5000, like every Maildir of the stack) for Dovecot to write.
    let md = Maildir::open(&maildir).unwrap();
    chown_all(&maildir, 5000, 5000);
    let dir = tempfile::tempdir().unwrap();
    let server = StackRoom::server(
        s,
        dir.path(),
        &address,
        &format!("maildir = \"{}\"", maildir.display()),
    );
    let (mut room, mut players) = StackRoom::new(s, &tag, &address, PbemSide::Maildir(server, md));
    play_game(&mut room, &mut players, Rules::DragonsTeeth);
    // Everything was taken from new/ and flagged seen in cur/.
    assert_eq!(std::fs::read_dir(maildir.join("new")).unwrap().count(), 0);
    assert!(
        std::fs::read_dir(maildir.join("cur"))
            .unwrap()
            .flatten()
            .all(|e| e.file_name().to_string_lossy().ends_with(",S"))
    );
    eprintln!(
        "dragons-teeth from the server's Maildir in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

fn check(config: &Path) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["check", "--config"])
        .arg(config)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        !out.contains(&std::fs::read_to_string(&stack().password_file).unwrap()),
        "never the password"
    );
    (o.status.code().unwrap_or(-1), out)
}

fn settings(s: &Stack, dir: &Path, inbox: &str, password_file: &Path) -> std::path::PathBuf {
    let address = s.address(&format!("pbem.{}", nonce()));
    let path = dir.join("pbem.toml");
    std::fs::write(
        &path,
        s.pbem_toml(&address, &dir.join("data"), inbox, password_file),
    )
    .unwrap();
    path
}

#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack)"]
fn check_reaches_the_real_servers_and_names_what_fails() {
    let _shared = crate::common::lock::shared();
    let s = stack();
    let dir = tempfile::tempdir().unwrap();
    let user = s.address(&format!("pbem.{}", nonce()));
    let good = settings(s, dir.path(), &s.imap_inbox(&user), &s.password_file);
    let (code, out) = check(&good);
    assert_eq!(code, 0, "{out}");
    for what in ["config", "data", "inbox", "send"] {
        assert!(out.contains(&format!("OK    {what}")), "{out}");
    }
    assert!(out.contains("IDLE") && out.contains("AUTH"), "{out}");

    // A wrong password: both the IMAP login and SMTP AUTH fail, each
    // saying what to check.
    let wrong = dir.path().join("wrong-password");
    std::fs::write(&wrong, "not-the-password\n").unwrap();
    let inbox = s.imap_inbox(&user).replace(
        &s.password_file.display().to_string(),
        &wrong.display().to_string(),
    );
    let bad = settings(s, dir.path(), &inbox, &wrong);
    let (code, out) = check(&bad);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL  inbox") && out.contains("inbox.imap.user and the password"),
        "{out}"
    );
    assert!(
        out.contains("FAIL  send") && out.contains("send.password_file"),
        "{out}"
    );
    assert!(!out.contains("not-the-password"), "{out}");
}

/// Where the server has no IDLE (or `idle = false`), the daemon looks
/// every `poll_seconds`.
#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack)"]
fn the_daemon_polls_when_idle_is_off() {
    let _shared = crate::common::lock::shared();
    let s = stack();
    let tag = nonce();
    let address = s.address(&format!("pbem.{tag}"));
    let carol = format!("carol.{tag}");
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pbem.toml");
    let inbox = s
        .imap_inbox(&address)
        .replace(" }", ", idle = false, poll_seconds = 1 }");
    std::fs::write(
        &config,
        s.pbem_toml(&address, &dir.path().join("data"), &inbox, &s.password_file),
    )
    .unwrap();
    let daemon = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["daemon", "--config"])
        .arg(&config)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Past its first look: the mail must be found by a later one.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let mail = format!(
        "From: {}\r\nTo: {address}\r\nSubject: help\r\nMessage-ID: <help.{tag}@example.test>\r\n\r\nhelp\r\n",
        s.address(&carol)
    );
    let plain = pbem::transport::from_config(&s.plain_smtp()).unwrap();
    plain
        .send(
            &pbem::transport::envelope_of(mail.as_bytes()).unwrap(),
            mail.as_bytes(),
        )
        .unwrap();
    let got = s.wait_for(&carol, "the help", &|m| m.subject.contains("pbem"));
    assert!(!got.is_empty());
    Command::new("kill")
        .args(["-TERM", &daemon.id().to_string()])
        .status()
        .unwrap();
    let out = daemon.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("fate=help") && err.contains("INFO  daemon-stop"),
        "{err}"
    );
}
