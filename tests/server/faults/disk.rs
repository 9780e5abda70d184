//! A full disk and a read-only data folder (tests/server/faults.rs):
//! the mail stays in the mailbox, pbem says why, and the next
//! poll processes it exactly once. The tests mount a small tmpfs and a
//! read-only bind mount, so they need root: a plain `cargo test` lists
//! them as ignored, and run with `--include-ignored` they fail without it.

use super::*;

/// A mount made for a test, taken down when dropped (before the
/// temporary folder it sits in).
struct Mounted(PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let ok = Command::new("umount")
            .arg(&self.0)
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            let _ = Command::new("umount").arg("-l").arg(&self.0).status();
        }
    }
}

/// Runs `mount ARGS`; panics when mounting is impossible here (not
/// root, no CAP_SYS_ADMIN): the test asking for it was run on purpose.
fn mount(args: &[&str]) {
    let o = Command::new("mount").args(args).output();
    let why = match &o {
        Ok(o) if o.status.success() => return,
        Ok(o) => stderr(o),
        Err(e) => e.to_string(),
    };
    panic!("mount {args:?} failed ({why}): the disk fault tests need root (mount)");
}

/// The data folder's files, but the lock (and `skip`), for "nothing
/// changed".
fn snapshot(data: &Path, skip: &str) -> Vec<(PathBuf, Vec<u8>)> {
    files(data)
        .into_iter()
        .filter(|p| !p.ends_with("pbem.lock") && !p.ends_with(skip))
        .map(|p| {
            let bytes = fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect()
}

/// One game and mails for it: two moves, a `board` request, and a
/// `help` that needs no game. What each mail should bring once it is
/// processed is checked by [`check_processed_once`].
fn fault_setup(site: &mut Site) -> Game {
    let g = site
        .start(&["fault-game"], &[Rules::BoomAndZoom], None)
        .remove(0);
    // The game's first poll: the lock file and the processed keys exist,
    // as on any running installation.
    let o = site.poll(at(0));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for raw in fault_mails(site, &g) {
        site.deliver(&raw);
    }
    g
}

/// The mails of [`fault_setup`]: two moves, a `board` request, a `help`.
fn fault_mails(site: &Site, g: &Game) -> [Vec<u8>; 4] {
    [
        site.move_mail(g, 0, "<fault.0@example.org>"),
        site.move_mail(g, 1, "<fault.1@example.org>"),
        site.mail(g, 0, "<fault.board@example.org>", "board"),
        b"From: carol@example.org\r\nTo: pbem@localhost\r\nSubject: hi\r\n\
          Message-ID: <fault.help@example.org>\r\n\r\nhelp\r\n"
            .to_vec(),
    ]
}

/// After the fault is gone: every mail of [`fault_setup`] processed and
/// answered exactly once, and a further poll does nothing more.
fn check_processed_once(site: &Site, g: &Game) {
    let o = site.poll(at(1));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(site.waiting().is_empty());
    assert_eq!(site.played(&g.id), g.moves[..2]);
    let ids = [
        "<fault.0@example.org>",
        "<fault.1@example.org>",
        "<fault.board@example.org>",
        "<fault.help@example.org>",
    ];
    let mails = fault_mails(site, g);
    let committed = site.committed();
    for (id, raw) in ids.iter().zip(&mails) {
        let key = common::mail_key(raw);
        assert_eq!(
            committed.iter().filter(|k| **k == key).count(),
            1,
            "{id}: {committed:?}"
        );
    }
    // Which mail each reply is about: its Message-ID names it.
    let about = |m: &Sent| -> String {
        ids.iter()
            .zip(&mails)
            .find(|(_, raw)| common::key_hash(raw) == common::hash_of_reply(&m.message_id))
            .map_or_else(|| m.message_id.clone(), |(id, _)| id.to_string())
    };
    let answers = |who: &str| -> HashMap<String, usize> {
        let mut n = HashMap::new();
        for m in site.mails_to(who) {
            *n.entry(about(&m)).or_default() += 1;
        }
        n
    };
    let (a, b) = (answers(&g.players[0]), answers(&g.players[1]));
    // Both players hear of each move; the board goes to who asked.
    for (id, to_a, to_b) in [(ids[0], 1, 1), (ids[1], 1, 1), (ids[2], 1, 0)] {
        assert_eq!(a.get(id).copied().unwrap_or(0), to_a, "{id}: {a:?}");
        assert_eq!(b.get(id).copied().unwrap_or(0), to_b, "{id}: {b:?}");
    }
    assert_eq!(answers("carol@example.org").get(ids[3]), Some(&1));
    let before = files(&site.dir.path().join("mail/sent")).len();
    let o = site.poll(at(2));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(files(&site.dir.path().join("mail/sent")).len(), before);
    assert!(leftovers(&site.data()).is_empty());
}

/// "Disk full / read-only data folder: the mail stays
/// unprocessed (not lost) and the error is clear." The data folder is a
/// small tmpfs, filled up.
#[test]
#[ignore = "needs root for a tmpfs"]
fn a_full_disk_keeps_the_mail_and_says_so() {
    let _shared = crate::common::lock::shared();
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    fs::create_dir_all(&data).unwrap();
    mount(&[
        "-t",
        "tmpfs",
        "-o",
        "size=1m",
        "tmpfs",
        data.to_str().unwrap(),
    ]);
    let _mounted = Mounted(data.clone());
    let mut site = Site::in_dir(dir, INIT);
    let g = fault_setup(&mut site);
    // Fill the disk to the last byte.
    let filler = data.join("filler");
    let mut f = fs::File::create(&filler).unwrap();
    let chunk = vec![0u8; 4096];
    while f.write_all(&chunk).is_ok() {}
    while f.write_all(&[0]).is_ok() {}
    let before = snapshot(&data, "filler");
    let waiting = site.waiting();

    let o = site.poll(at(1));
    let log = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{log}");
    assert!(
        log.contains(&data.display().to_string())
            && log.contains("No space left on device")
            && log.contains("the disk is full: free some space")
            && log.contains("left in the mailbox"),
        "the path, the cause and what to do: {log}"
    );
    assert_eq!(site.waiting(), waiting, "the mail stays in new/");
    assert_eq!(snapshot(&data, "filler"), before, "nothing changed");
    assert!(leftovers(&data).is_empty(), "{:?}", leftovers(&data));
    // The MTA's way in keeps its mail too.
    let raw = site.mail(&g, 1, "<fault.board2@example.org>", "board");
    let mut child = site
        .command(at(1), &["deliver"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&raw).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(EX_TEMPFAIL), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("No space left on device"),
        "{}",
        stderr(&o)
    );
    assert_eq!(snapshot(&data, "filler"), before);

    drop(f);
    fs::remove_file(&filler).unwrap();
    check_processed_once(&site, &g);
}

/// "Disk full / read-only data folder". The data folder is a
/// read-only bind mount; then only its games/ folder is.
#[test]
#[ignore = "needs root for a read-only bind mount"]
fn a_read_only_data_folder_keeps_the_mail_and_says_so() {
    let _shared = crate::common::lock::shared();
    let mut site = Site::new(INIT);
    let data = site.data();
    let g = fault_setup(&mut site);
    let waiting = site.waiting();
    let before = snapshot(&data, "");
    {
        let p = data.to_str().unwrap();
        mount(&["--bind", p, p]);
        let _mounted = Mounted(data.clone());
        mount(&["-o", "remount,ro,bind", p]);
        let o = site.poll(at(1));
        let log = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{log}");
        assert!(
            log.contains(&data.join("pbem.lock").display().to_string())
                && log.contains("Read-only file system")
                && log.contains("remount it read-write"),
            "the path, the cause and what to do: {log}"
        );
        assert_eq!(site.waiting(), waiting);
    }
    assert_eq!(snapshot(&data, ""), before);
    // Only the records read-only: the poll gets as far as the first
    // record it writes, and stops there.
    {
        let games = data.join("games");
        let p = games.to_str().unwrap();
        mount(&["--bind", p, p]);
        let _mounted = Mounted(games.clone());
        mount(&["-o", "remount,ro,bind", p]);
        let o = site.poll(at(1));
        let log = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{log}");
        let record = games.join("fault-game.toml").display().to_string();
        assert!(
            log.contains(&format!("{record}: Read-only file system"))
                && log.contains("remount it read-write")
                && log.contains("left in the mailbox"),
            "{log}"
        );
        assert_eq!(site.waiting(), waiting, "{log}");
    }
    assert_eq!(
        site.played(&g.id),
        Vec::<String>::new(),
        "no move was played"
    );
    assert!(leftovers(&data).is_empty(), "{:?}", leftovers(&data));
    check_processed_once(&site, &g);
}
