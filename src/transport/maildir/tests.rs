//! The Maildir transport's tests: deliveries at once and held, and
//! what a reader or a crash may have done to the Maildirs.

use super::*;
use crate::mailbox::Source;
use crate::transport::envelope_of;
use lettre::Address;
use std::fs;

/// A reply to `to`, numbered `n` in an `X-N` header.
fn reply(to: &str, n: &str) -> Vec<u8> {
    format!("From: pbem@example.net\r\nTo: {to}\r\nX-N: {n}\r\nSubject: x\r\n\r\nx\r\n")
        .into_bytes()
}

#[test]
fn the_folder_of_maildirs_is_marked_to_spread_them_where_the_file_system_can() {
    let dir = tempfile::tempdir().unwrap();
    let can = crate::store::files::spread_probe(dir.path());
    // A folder the first delivery makes, and one that was there.
    for (folder, before) in [("made/sent", false), ("there", true)] {
        let folder = dir.path().join(folder);
        if before {
            fs::create_dir(&folder).unwrap();
        }
        let sink = MaildirSink::new(&folder);
        for to in ["ann@example.org", "bob@example.org"] {
            let raw = reply(to, "1");
            sink.send(&envelope_of(&raw).unwrap(), &raw).unwrap();
        }
        assert_eq!(
            crate::store::files::is_spread(&folder),
            can,
            "{}",
            folder.display()
        );
        assert_eq!(
            Maildir::open(folder.join("bob@example.org"))
                .unwrap()
                .pending()
                .unwrap()
                .len(),
            1
        );
        // Marked already: a new sink delivers as well.
        let raw = reply("cyd@example.org", "1");
        MaildirSink::new(&folder)
            .send(&envelope_of(&raw).unwrap(), &raw)
            .unwrap();
        assert!(folder.join("cyd@example.org/new").is_dir());
    }
}

#[test]
fn maildir_delivery_writes_lf_line_ends() {
    let dir = tempfile::tempdir().unwrap();
    let sink = MaildirSink::new(dir.path());
    let raw = reply("bob@example.org", "1");
    assert!(raw.windows(2).any(|w| w == b"\r\n"));
    sink.send(&envelope_of(&raw).unwrap(), &raw).unwrap();
    let new = dir.path().join("bob@example.org/new");
    let files: Vec<_> = std::fs::read_dir(&new).unwrap().flatten().collect();
    assert_eq!(files.len(), 1);
    let written = std::fs::read(files[0].path()).unwrap();
    assert!(
        !written.contains(&b'\r'),
        "{}",
        String::from_utf8_lossy(&written)
    );
    assert_eq!(written, lf_lines(&raw));
    // The same mail again is not delivered twice, even once a reader
    // has moved it to cur/ and flagged it.
    sink.send(&envelope_of(&raw).unwrap(), &raw).unwrap();
    assert_eq!(std::fs::read_dir(&new).unwrap().count(), 1);
    let cur = dir.path().join("bob@example.org/cur");
    let read = cur.join(format!("{}:2,S", files[0].file_name().to_string_lossy()));
    std::fs::rename(files[0].path(), &read).unwrap();
    sink.send(&envelope_of(&raw).unwrap(), &raw).unwrap();
    assert_eq!(std::fs::read_dir(&new).unwrap().count(), 0);
    assert_eq!(std::fs::read_dir(&cur).unwrap().count(), 1);
    assert_eq!(lf_lines(b"a\r\nb\rc\n\r\n"), b"a\nb\rc\n\n");
}

#[test]
fn held_deliveries_reach_new_only_when_settled_and_once() {
    let dir = tempfile::tempdir().unwrap();
    let sink = MaildirSink::new(dir.path());
    let (one, two) = (reply("bob@example.org", "1"), reply("bob@example.org", "2"));
    assert!(sink.hold());
    for raw in [&one, &two, &one] {
        sink.send(&envelope_of(raw).unwrap(), raw).unwrap();
    }
    let count = |sub: &str| {
        fs::read_dir(dir.path().join("bob@example.org").join(sub))
            .unwrap()
            .count()
    };
    // Unnamed where the file system has such files, else under tmp/.
    let named = if unnamed_here(dir.path()) { 0 } else { 2 };
    assert_eq!(
        (count("new"), count("tmp")),
        (0, named),
        "held, the same mail once"
    );
    sink.settle().unwrap();
    assert_eq!((count("new"), count("tmp")), (2, 0));
    // Not holding any more: a send delivers at once.
    let three = reply("bob@example.org", "3");
    sink.send(&envelope_of(&three).unwrap(), &three).unwrap();
    assert_eq!(count("new"), 3);
    // A settle that cannot finish is an error; the mail sent again
    // is delivered once.
    let four = reply("bob@example.org", "4");
    assert!(sink.hold());
    sink.send(&envelope_of(&four).unwrap(), &four).unwrap();
    let new = dir.path().join("bob@example.org/new");
    fs::rename(&new, dir.path().join("moved")).unwrap();
    assert!(sink.settle().is_err());
    fs::rename(dir.path().join("moved"), &new).unwrap();
    sink.send(&envelope_of(&four).unwrap(), &four).unwrap();
    sink.send(&envelope_of(&four).unwrap(), &four).unwrap();
    assert_eq!(count("new"), 4);
}

/// Whether the file system at `dir` makes files with no name.
fn unnamed_here(dir: &Path) -> bool {
    let md = Maildir::open(dir.join(".probe")).unwrap();
    let made = md.write_unnamed("x", b"x").is_ok();
    fs::remove_dir_all(md.root()).unwrap();
    made
}

/// The files of folder `sub` of `bob@example.org`'s Maildir in `dir`.
fn bobs(dir: &Path, sub: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir.join("bob@example.org").join(sub))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn held_mails_wait_unnamed_and_are_copied_in_where_they_cannot_be_named() {
    let dir = tempfile::tempdir().unwrap();
    if !unnamed_here(dir.path()) {
        // Nothing to name: held under tmp/ (the test above).
        return;
    }
    // Named through a folder that is not there: copied in instead,
    // with its bytes and its time, and nothing more is kept open.
    let sink = MaildirSink {
        fd_folder: dir.path().join("no-proc"),
        ..MaildirSink::new(dir.path())
    };
    let (one, two) = (reply("bob@example.org", "1"), reply("bob@example.org", "2"));
    assert!(sink.hold());
    sink.send(&envelope_of(&one).unwrap(), &one).unwrap();
    assert_eq!(
        (bobs(dir.path(), "new").len(), bobs(dir.path(), "tmp").len()),
        (0, 0)
    );
    sink.settle().unwrap();
    let new = bobs(dir.path(), "new");
    assert_eq!(new.len(), 1);
    assert_eq!(fs::read(&new[0]).unwrap(), lf_lines(&one));
    assert!(bobs(dir.path(), "tmp").is_empty());
    assert!(sink.hold());
    sink.send(&envelope_of(&two).unwrap(), &two).unwrap();
    assert_eq!(bobs(dir.path(), "tmp").len(), 1, "held under tmp/ now");
    sink.settle().unwrap();
    assert_eq!(bobs(dir.path(), "new").len(), 2);
}

#[test]
fn a_sink_keeps_open_no_more_held_mails_than_it_may() {
    let dir = tempfile::tempdir().unwrap();
    let unnamed = unnamed_here(dir.path());
    let sink = MaildirSink {
        max_unnamed: OnceLock::from(AtomicUsize::new(2)),
        ..MaildirSink::new(dir.path())
    };
    assert!(sink.hold());
    let mails: Vec<Vec<u8>> = (0..5)
        .map(|n| reply("bob@example.org", &n.to_string()))
        .collect();
    for raw in &mails {
        sink.send(&envelope_of(raw).unwrap(), raw).unwrap();
    }
    let under_tmp = if unnamed { 3 } else { 5 };
    assert_eq!(bobs(dir.path(), "tmp").len(), under_tmp);
    sink.settle().unwrap();
    let got: HashSet<Vec<u8>> = (bobs(dir.path(), "new").iter())
        .map(|p| fs::read(p).unwrap())
        .collect();
    let sent: HashSet<Vec<u8>> = mails.iter().map(|m| lf_lines(m)).collect();
    assert_eq!(got, sent);
    assert!(bobs(dir.path(), "tmp").is_empty());
}

#[test]
fn a_settle_on_the_way_that_failed_fails_the_settle_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let sink = MaildirSink {
        max_held: 2,
        ..MaildirSink::new(dir.path())
    };
    // The second to another: bob's Maildir is not made again by it.
    let mails: Vec<Vec<u8>> = ["bob", "cyd", "bob"]
        .iter()
        .enumerate()
        .map(|(n, who)| reply(&format!("{who}@example.org"), &n.to_string()))
        .collect();
    let send = |raw: &Vec<u8>| sink.send(&envelope_of(raw).unwrap(), raw);
    assert!(sink.hold());
    send(&mails[0]).unwrap();
    let new = dir.path().join("bob@example.org/new");
    fs::rename(&new, dir.path().join("moved")).unwrap();
    assert!(send(&mails[1]).is_err(), "the settle on the way fails");
    fs::rename(dir.path().join("moved"), &new).unwrap();
    send(&mails[2]).unwrap();
    // The first two may not be taken as sent: the settle says so,
    // though what it held since went.
    assert!(sink.settle().is_err());
    assert!(sink.hold());
    for raw in &mails {
        send(raw).unwrap();
    }
    sink.settle().unwrap();
    let cyds = dir.path().join("cyd@example.org/new");
    let counts = [&new, &cyds].map(|d| fs::read_dir(d).unwrap().count());
    assert_eq!(counts, [2, 1], "each once");
}

#[test]
fn a_maildir_removed_after_a_delivery_is_made_again_by_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let sink = MaildirSink::new(dir.path());
    let bob = dir.path().join("bob@example.org");
    let count = || fs::read_dir(bob.join("new")).unwrap().count();
    let held_in = if unnamed_here(dir.path()) {
        "new"
    } else {
        "tmp"
    };
    for holding in [false, true] {
        let (one, two) = (reply("bob@example.org", "1"), reply("bob@example.org", "2"));
        if holding {
            assert!(sink.hold());
        }
        sink.send(&envelope_of(&one).unwrap(), &one).unwrap();
        sink.settle().unwrap();
        assert_eq!(count(), 1);
        // Known whole now; a reader (or an admin) removes it, or
        // only the folder a held mail is written in (new/ for one
        // with no name yet, else tmp/).
        match holding {
            false => fs::remove_dir_all(&bob).unwrap(),
            true => fs::remove_dir_all(bob.join(held_in)).unwrap(),
        }
        if holding {
            assert!(sink.hold());
        }
        sink.send_first(&envelope_of(&two).unwrap(), &two).unwrap();
        sink.settle().unwrap();
        let kept = usize::from(holding && held_in == "tmp");
        assert_eq!(count(), 1 + kept, "holding: {holding}");
        assert!(["new", "cur", "tmp"].iter().all(|d| bob.join(d).is_dir()));
        fs::remove_dir_all(&bob).unwrap();
    }
}

#[test]
fn the_files_times_follow_the_order_the_mails_were_sent_in() {
    let dir = tempfile::tempdir().unwrap();
    let sink = MaildirSink::new(dir.path());
    let mails: Vec<Vec<u8>> = (0..40)
        .map(|n| reply("bob@example.org", &n.to_string()))
        .collect();
    for (i, raw) in mails.iter().enumerate() {
        // Held and at once, as a flush and a lone send deliver.
        if i % 10 == 0 {
            sink.settle().unwrap();
            if i % 20 == 0 {
                assert!(sink.hold());
            }
        }
        sink.send(&envelope_of(raw).unwrap(), raw).unwrap();
    }
    sink.settle().unwrap();
    let new = dir.path().join("bob@example.org/new");
    let mut files: Vec<(SystemTime, Vec<u8>)> = fs::read_dir(&new)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                fs::metadata(&p).unwrap().modified().unwrap(),
                fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    let times: Vec<SystemTime> = files.iter().map(|f| f.0).collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    let read: Vec<Vec<u8>> = files.into_iter().map(|f| f.1).collect();
    let sent: Vec<Vec<u8>> = mails.iter().map(|m| lf_lines(m)).collect();
    assert_eq!(read, sent);
}

#[test]
fn a_first_send_does_not_look_for_an_earlier_delivery_and_a_send_does() {
    let dir = tempfile::tempdir().unwrap();
    let sink = MaildirSink::new(dir.path());
    let raw = reply("bob@example.org", "1");
    let env = envelope_of(&raw).unwrap();
    sink.send_first(&env, &raw).unwrap();
    let new = dir.path().join("bob@example.org/new");
    let name = fs::read_dir(&new)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .file_name();
    let cur = dir.path().join("bob@example.org/cur");
    fs::rename(
        new.join(&name),
        cur.join(format!("{}:2,S", name.to_string_lossy())),
    )
    .unwrap();
    sink.send(&env, &raw).unwrap();
    assert_eq!(fs::read_dir(&new).unwrap().count(), 0, "found in cur/");
    // Only a mail no transport had can come as a first send (the
    // outbox's untried batches): it is not looked for.
    sink.send_first(&env, &raw).unwrap();
    assert_eq!(fs::read_dir(&new).unwrap().count(), 1);
    // Delivered by an earlier pbem, under the name it gave: found too.
    let raw = reply("bob@example.org", "2");
    let earlier = crate::store::ids::hex_name(crate::store::stable_hash(&raw), "pbem");
    fs::write(new.join(&earlier), lf_lines(&raw)).unwrap();
    sink.send(&envelope_of(&raw).unwrap(), &raw).unwrap();
    assert_eq!(
        fs::read_dir(&new).unwrap().count(),
        2,
        "not delivered twice"
    );
}

#[test]
fn a_recipient_folder_never_leaves_the_sent_folder() {
    let outside = tempfile::tempdir().unwrap();
    let sent = tempfile::tempdir().unwrap();
    let sink = MaildirSink::new(sent.path());
    // Valid addresses, all: `/` is an atext character (RFC 5322 3.2.3).
    let abs = format!("{}/x@example.org", outside.path().display());
    for a in [abs.as_str(), "a/b@example.org", "Bob@Example.org"] {
        let to: Address = a.parse().unwrap();
        let env = Envelope::new(Some("pbem@example.net".parse().unwrap()), vec![to]).unwrap();
        sink.send(&env, b"Subject: x\r\n\r\nx\r\n").unwrap();
    }
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
    let mut names: Vec<String> = fs::read_dir(sent.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names.contains(&"a%2fb@example.org".to_string()));
    assert!(names.contains(&"bob@example.org".to_string()));
    assert!(
        names
            .iter()
            .all(|n| !n.contains('/') && !n.starts_with('.'))
    );
    assert_eq!(folder_name(".x@y"), "%2ex@y");
    assert_eq!(folder_name("a%2fb@y"), "a%252fb@y");
}

#[test]
fn lf_lines_drops_each_cr_before_a_lf_and_nothing_else() {
    let mut rng = fastrand::Rng::with_seed(9);
    for _ in 0..5000 {
        let raw: Vec<u8> = (0..rng.usize(0..40))
            .map(|_| b"\r\nab"[rng.usize(..4)])
            .collect();
        let want: Vec<u8> = (0..raw.len())
            .filter(|&i| !(raw[i] == b'\r' && raw.get(i + 1) == Some(&b'\n')))
            .map(|i| raw[i])
            .collect();
        assert_eq!(lf_lines(&raw), want, "{raw:?}");
    }
}
