//! Tests of the store: ids, keys, the deadline index, batches, made
//! files, the lock and secrets.

use super::*;
use crate::game::{PerSide, Side};
use std::io::Write;

#[test]
fn ids_cannot_escape_the_folder() {
    for bad in [
        "../x",
        "a/b",
        "A1",
        "-x",
        "",
        "x",
        "a.b",
        "a\nb",
        &"x".repeat(41),
    ] {
        assert!(!valid_id(bad), "{bad:?}");
    }
    assert!(valid_id("bz-7k2q"));
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    assert!(s.read_game("../../etc/passwd").is_err());
}

#[test]
fn processed_keys_ignore_a_torn_last_line() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    s.mark_processed("<a@x>").unwrap();
    // A crash tore the last line of the journal "<b@x>" is committed to.
    let file = dir.path().join(format!(
        "processed/recent-{:x}.log",
        stable_hash("<b@x>".as_bytes()) >> 60
    ));
    fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&file)
        .unwrap()
        .write_all(b"<tor")
        .unwrap();
    assert_eq!(s.processed().unwrap().all().unwrap().len(), 1);
    s.mark_processed("<b@x>").unwrap();
    let p = s.processed().unwrap();
    for (key, is) in [("<a@x>", true), ("<b@x>", true), ("<tor", false)] {
        assert_eq!(p.contains(key).unwrap(), is, "{key}");
    }
    assert_eq!(p.all().unwrap().len(), 2);
    assert_eq!(fs::read_to_string(&file).unwrap(), "<tor\n<b@x> .\n");
}

#[test]
fn the_deadline_index_names_the_clocks_whose_time_has_come() {
    use crate::timecontrol::{ClockPolicy, ClockState, ReminderPoint};
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let at = |t: &str| t.parse::<chrono::DateTime<chrono::Utc>>().unwrap();
    let start = at("2026-11-02T10:00:00Z");
    let policy = ClockPolicy::default(); // reminders at 50% and 80%
    let clock = |days: u32| GameClock {
        lines: 0,
        state: ClockState::new(
            format!("{days}d").parse().unwrap(),
            crate::game::Side::A,
            start,
        ),
    };
    s.write_clock("g-10", &clock(10), &policy).unwrap();
    s.write_clock("g-2", &clock(2), &policy).unwrap();
    let ids = |now: &str, p: &ClockPolicy| -> Vec<String> {
        s.due_clocks(at(now), p)
            .unwrap()
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    };
    // The 50% point of the 2-day clock is a day in.
    assert!(ids("2026-11-03T09:59:59Z", &policy).is_empty());
    assert_eq!(ids("2026-11-03T10:00:00Z", &policy), ["g-2"]);
    assert_eq!(ids("2026-11-07T10:00:00Z", &policy), ["g-2", "g-10"]);
    // A clock written again moves its marker: once, to the next point.
    let mut c = clock(2);
    c.state.reminded = ReminderPoint::from_permille(500);
    s.write_clock("g-2", &c, &policy).unwrap();
    assert!(ids("2026-11-04T00:23:59Z", &policy).is_empty());
    assert_eq!(ids("2026-11-04T00:24:00Z", &policy), ["g-2"]);
    let markers = |p: &str| fs::read_dir(dir.path().join(p)).unwrap().count();
    assert_eq!(markers("due/20261104"), 1);
    assert!(
        !dir.path().join("due/20261103").exists(),
        "emptied, removed"
    );
    // Another policy (pbem.toml changed): the index is built again.
    let early = ClockPolicy {
        reminders: vec![ReminderPoint::from_permille(100).unwrap()],
        ..ClockPolicy::default()
    };
    assert_eq!(ids("2026-11-03T10:00:00Z", &early), ["g-10"]);
    // In a batch, the old marker stays until the sync.
    let b = s.batch().unwrap();
    c.state.final_sent = true;
    b.write_clock("g-2", &c, &early).unwrap();
    assert_eq!(ids("2026-11-04T09:00:00Z", &early), ["g-10", "g-2"]);
    b.sync().unwrap();
    assert_eq!(ids("2026-11-04T09:00:00Z", &early), ["g-10"]);
    assert_eq!(ids("2026-11-04T10:00:00Z", &early), ["g-10", "g-2"]);
}

#[test]
fn a_batch_keeps_its_changes_until_the_sync_and_reads_them_back() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let c = Challenge {
        rules: crate::rules::Rules::Mad,
        challenger: "Ann <ann@example.org>".into(),
        opponent: "bob@example.org".into(),
        challenger_side: crate::game::Side::B,
        first: crate::game::Side::B,
        created: "2026-11-21T10:00:00Z".parse().unwrap(),
        clock: None,
        source: None,
        series: Some(3),
        rated: false,
        after: None,
    };
    s.write_challenge("ch-old", &c).unwrap();
    let on_disk = |sub: &str| -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir.path().join(sub))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let b = s.batch().unwrap();
    b.write_game("g-1", "one").unwrap();
    b.write_game("g-1", "two").unwrap();
    b.write_challenge("ch-new", &c).unwrap();
    b.remove_challenge("ch-new").unwrap();
    b.remove_challenge("ch-old").unwrap();
    // The batch reads what it did; the folder is untouched.
    assert_eq!(b.read_game("g-1").unwrap().as_deref(), Some("two"));
    assert_eq!(b.game_ids().unwrap(), ["g-1"]);
    assert!(b.challenge_ids().unwrap().is_empty());
    assert_eq!(b.challenge("ch-old").unwrap(), None);
    assert_eq!(s.read_game("g-1").unwrap(), None);
    assert_eq!(s.challenge_ids().unwrap(), ["ch-old"]);
    assert!(on_disk("games").is_empty() && on_disk("tmp").is_empty());
    b.sync().unwrap();
    assert_eq!(s.read_game("g-1").unwrap().as_deref(), Some("two"));
    assert!(s.challenge_ids().unwrap().is_empty());
    assert_eq!(on_disk("games"), ["g-1.toml"]);
    assert!(on_disk("tmp").is_empty());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(dir.path().join("games/g-1.toml"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // Dropped changes never reach the disk.
    b.write_game("g-2", "lost").unwrap();
    b.discard();
    assert_eq!(b.read_game("g-2").unwrap(), None);
    b.sync().unwrap();
    assert_eq!(on_disk("games"), ["g-1.toml"]);
    // A sync that cannot write names the file it was writing, leaves
    // the old files and no temporary one, and drops the changes.
    b.write_game("g-1", "three").unwrap();
    fs::remove_dir(dir.path().join("tmp")).unwrap();
    let e = b.sync().unwrap_err().to_string();
    assert!(e.contains("g-1.toml"), "{e}");
    fs::create_dir(dir.path().join("tmp")).unwrap();
    assert_eq!(s.read_game("g-1").unwrap().as_deref(), Some("two"));
    assert_eq!(b.read_game("g-1").unwrap().as_deref(), Some("two"));
}

#[test]
fn what_an_admin_command_made_is_told_by_its_record() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let folder = dir.path().join("outbox/staging/x");
    fs::create_dir_all(&folder).unwrap();
    assert_eq!(Made::read(&folder), None, "a poll's folder");
    let made = Made::new("bz-1", "the record");
    made.write(&folder).unwrap();
    assert_eq!(Made::read(&folder), Some(made.clone()));
    for bad in ["", "bz-1", "../x 00", "bz-1 xyz", "bz-1 1 2"] {
        fs::write(folder.join(Made::FILE), bad).unwrap();
        assert_eq!(Made::read(&folder), None, "{bad:?}");
    }

    // A `pbem new` cut short: secrets and a clock, no record.
    assert!(!s.made(&made).unwrap());
    s.write_secrets("bz-1", Rules::BoomAndZoom, &Secrets::default())
        .unwrap();
    fs::write(dir.path().join("clocks/bz-1.toml"), "").unwrap();
    assert!(s.id_taken("bz-1").unwrap());
    s.unmake(&made).unwrap();
    assert!(!s.id_taken("bz-1").unwrap(), "the id is free again");

    // A record, but another one (a `pbem move` cut short): not made,
    // and nothing is removed.
    s.write_secrets("bz-1", Rules::BoomAndZoom, &Secrets::default())
        .unwrap();
    s.write_game("bz-1", "the old record").unwrap();
    assert!(!s.made(&made).unwrap());
    s.unmake(&made).unwrap();
    assert!(s.read_game("bz-1").unwrap().is_some());
    assert!(dir.path().join("secrets/bz-1.toml").exists());
    s.write_game("bz-1", "the record").unwrap();
    assert!(s.made(&made).unwrap());

    // A challenge's secrets are not a half-made game's.
    let ch = Made::new("ch-1", "x");
    s.write_secrets("ch-1", Rules::BoomAndZoom, &Secrets::default())
        .unwrap();
    fs::write(dir.path().join("challenges/ch-1.toml"), "").unwrap();
    s.unmake(&ch).unwrap();
    assert!(dir.path().join("secrets/ch-1.toml").exists());
}

/// An id a stranger could make collide once let a
/// challenge replace a running game. Ids are random, never repeat in
/// 10,000 draws, and an id that anything has is taken.
#[test]
fn ids_are_random_and_nothing_is_made_over_what_exists() {
    let ids: HashSet<String> = (0..10_000).map(|_| new_game_id("bz").unwrap()).collect();
    assert_eq!(ids.len(), 10_000);
    for id in &ids {
        let tail = id.strip_prefix("bz-").unwrap();
        assert_eq!(tail.len(), 12, "{id}");
        assert!(valid_id(id), "{id}");
    }
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    for (n, folder) in ["games", "challenges", "secrets", "clocks"]
        .iter()
        .enumerate()
    {
        let id = format!("bz-taken{n}");
        assert!(!s.id_taken(&id).unwrap());
        fs::write(s.checked(folder, &id).unwrap(), "x = 1\n").unwrap();
        assert!(s.id_taken(&id).unwrap(), "{folder}");
    }
}

#[test]
fn one_lock_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let held = s.lock(false).unwrap();
    assert!(matches!(s.lock(false), Err(StoreError::Busy(_))));
    drop(held);
    assert!(s.lock(false).is_ok());
}

#[test]
fn tokens_are_random_and_secrets_private() {
    let a = new_token().unwrap();
    assert_eq!(a.len(), 12);
    assert_ne!(a, new_token().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let mut sec = Secrets::default();
    sec.tokens[Side::A] = Some(a.clone());
    s.write_secrets("bz-1", Rules::BoomAndZoom, &sec).unwrap();
    assert_eq!(s.secrets("bz-1", Rules::BoomAndZoom).unwrap(), sec);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(dir.path().join("secrets/bz-1.toml"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

/// Secrets side by side are written keyed by the side names, in the
/// names' order (as the maps of before wrote them: deployments read the
/// files back), and read back side by side.
#[test]
fn secrets_files_round_trip_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let rules = Rules::GuerrillaCheckers;
    assert_eq!(rules.side_name(Side::A), "guerrilla");
    let sec = Secrets {
        tokens: PerSide::new(Some("gkey".into()), Some("ckey".into())),
        players: PerSide::new(Some("g@x.org".into()), Some("c@x.org".into())),
    };
    s.write_secrets("gc-1", rules, &sec).unwrap();
    let text = fs::read_to_string(dir.path().join("secrets/gc-1.toml")).unwrap();
    assert_eq!(
        text,
        "[tokens]\ncoin = \"ckey\"\nguerrilla = \"gkey\"\n\n\
         [players]\ncoin = \"c@x.org\"\nguerrilla = \"g@x.org\"\n"
    );
    assert_eq!(s.secrets("gc-1", rules).unwrap(), sec);
    let file = s.secrets_file("gc-1").unwrap();
    assert!(file.holds("ckey") && !file.holds("g@x.org"));
    assert!(file.registered(" G@X.org") && !file.registered("gkey"));
    // No players registered (a game made before): no table, as before.
    let old = Secrets {
        players: PerSide::default(),
        ..sec
    };
    s.write_secrets("gc-2", rules, &old).unwrap();
    let text = fs::read_to_string(dir.path().join("secrets/gc-2.toml")).unwrap();
    assert_eq!(text, "[tokens]\ncoin = \"ckey\"\nguerrilla = \"gkey\"\n");
    assert_eq!(s.secrets("gc-2", rules).unwrap(), old);
    assert_eq!(s.secrets("gc-3", rules).unwrap(), Secrets::default());
}

/// `address`'s memory after one more mail, `mail`, in game `g`.
fn one_more(s: &Store, address: &str, mail: &str) -> Correspondence {
    let mut c = s.correspondence(address).unwrap();
    c.sent(
        Some("g"),
        "s",
        mail,
        None,
        &format!("the text of {mail}"),
        "2026-11-20",
    );
    s.write_correspondence(c).unwrap();
    s.correspondence(address).unwrap()
}

/// The slot file of `address` that holds `mail`'s line, and the other.
fn slots_of(dir: &Path, address: &str, mail: &str) -> (PathBuf, PathBuf) {
    let slot = |n: u8| dir.join(format!("sent/{:016x}.{n}", stable_hash(address.as_bytes())));
    let holds = |p: &PathBuf| fs::read_to_string(p).is_ok_and(|t| t.contains(mail));
    match (holds(&slot(0)), holds(&slot(1))) {
        (true, false) => (slot(0), slot(1)),
        (false, true) => (slot(1), slot(0)),
        both => panic!("{mail} in slots {both:?}"),
    }
}

#[test]
fn a_torn_write_of_what_was_sent_an_address_reads_back_the_write_before() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let a = "alice@example.org";
    one_more(&s, a, "<m.1@x>");
    let second = one_more(&s, a, "<m.2@x>");
    let third = one_more(&s, a, "<m.3@x>");
    assert!(third.knows("the text of <m.3@x>") && third.threads["g"].seen.len() == 3);
    let (newest, _) = slots_of(dir.path(), a, "<m.3@x>");
    let whole = fs::read(&newest).unwrap();
    for torn in [
        whole[..whole.len() / 2].to_vec(),
        whole[..10].to_vec(),
        Vec::new(),
        [&whole[..whole.len() - 40], &[0u8; 40][..]].concat(),
        [&whole[..whole.len() - 3], &[0xff, 0xfe, 0x00][..]].concat(),
    ] {
        fs::write(&newest, &torn).unwrap();
        let read = s.correspondence(a).unwrap();
        assert_eq!(read.threads, second.threads, "{} bytes", torn.len());
        assert_eq!(read.lines, second.lines);
        assert!(!read.knows("the text of <m.3@x>"));
    }
    // The next write goes over the torn slot, and the second state stays.
    let fourth = one_more(&s, a, "<m.4@x>");
    assert!(fourth.knows("the text of <m.2@x>") && fourth.knows("the text of <m.4@x>"));
    let (slot, other) = slots_of(dir.path(), a, "<m.4@x>");
    assert_eq!(slot, newest);
    assert!(fs::read_to_string(other).unwrap().contains("<m.2@x>"));
}

#[test]
fn in_a_batch_every_write_of_an_address_goes_to_one_slot() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let a = "bob@example.org";
    one_more(&s, a, "<m.1@x>");
    let (durable, free) = slots_of(dir.path(), a, "<m.1@x>");
    let before = fs::read(&durable).unwrap();
    let b = s.batch().unwrap();
    for n in 2..6 {
        let c = one_more(&b, a, &format!("<m.{n}@x>"));
        assert!(c.knows("the text of <m.1@x>") && c.knows(&format!("the text of <m.{n}@x>")));
    }
    // The slot of the state on disk is left alone until the sync is done.
    b.sync().unwrap();
    assert_eq!(fs::read(&durable).unwrap(), before);
    assert!(fs::read_to_string(&free).unwrap().contains("<m.5@x>"));
    assert!(s.correspondence(a).unwrap().knows("the text of <m.5@x>"));
}

#[test]
fn a_file_of_the_single_file_form_is_read_then_replaced_by_a_slot() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let a = "carol@example.org";
    let mut old = Correspondence::new(a);
    old.sent(
        Some("g"),
        "s",
        "<old@x>",
        None,
        "an old line of text",
        "2026-11-19",
    );
    let legacy = dir
        .path()
        .join(format!("sent/{:016x}.json", stable_hash(a.as_bytes())));
    // The single file was the JSON alone, its lines hex hashes and days.
    let key = crate::store::correspondence::line_key("an old line of text").unwrap();
    let json = serde_json::json!({
        "address": a,
        "threads": old.threads,
        "lines": { format!("{key:016x}"): "2026-11-19" },
    });
    fs::write(&legacy, json.to_string()).unwrap();
    let read = s.correspondence(a).unwrap();
    assert_eq!(
        (read.threads.clone(), read.lines.clone()),
        (old.threads, old.lines)
    );
    let b = s.batch().unwrap();
    let c = one_more(&b, a, "<new@x>");
    assert!(c.knows("an old line of text") && c.knows("the text of <new@x>"));
    assert!(legacy.exists(), "removed only at the sync");
    b.sync().unwrap();
    assert!(!legacy.exists());
    let c = s.correspondence(a).unwrap();
    assert!(c.knows("an old line of text") && c.knows("the text of <new@x>"));
    // A torn file of that form reads as missing, as it did.
    let d = "dave@example.org";
    let legacy_d = dir
        .path()
        .join(format!("sent/{:016x}.json", stable_hash(d.as_bytes())));
    fs::write(&legacy_d, b"{\"address\":\"dave@exa").unwrap();
    assert!(s.correspondence(d).unwrap().lines.is_empty());
}

/// A batch keeps what it read, and what it found missing, only until
/// this process changes a file of the data folder: a change through
/// another view, or by the batch's own sync, is seen by its next read.
/// (That it reads a file once otherwise is seen in the benchmark's
/// system calls: the tests of this process change files all the time.)
#[test]
fn a_batch_sees_every_change_this_process_makes_to_a_file_it_read() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let b = s.batch().unwrap();
    let path = dir.path().join("games/g-1.toml");
    assert_eq!(b.read_game("g-1").unwrap(), None);
    s.write_game("g-1", "one").unwrap();
    assert_eq!(b.read_game("g-1").unwrap().as_deref(), Some("one"));
    assert_eq!(b.read_game("g-1").unwrap().as_deref(), Some("one"));
    // The batch's own change first, then what its sync put on disk.
    b.write_game("g-1", "two").unwrap();
    assert_eq!(b.read_game("g-1").unwrap().as_deref(), Some("two"));
    b.sync().unwrap();
    assert_eq!(b.read_game("g-1").unwrap().as_deref(), Some("two"));
    assert_eq!(fs::read_to_string(&path).unwrap(), "two");
    // A long text is never kept: read from the disk each time.
    let long = "x".repeat(40 * 1024);
    s.write_game("g-1", &long).unwrap();
    assert_eq!(b.read_game("g-1").unwrap().as_deref(), Some(long.as_str()));
    fs::write(&path, "short").unwrap();
    assert_eq!(b.read_game("g-1").unwrap().as_deref(), Some("short"));
}

#[test]
fn opening_makes_whatever_folder_is_missing_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("data");
    Store::open(&root).unwrap();
    fs::write(root.join("games/kept.toml"), "kept").unwrap();
    // Gone by hand, or never there: a folder, an `outbox/` one, and a
    // file where a folder belongs (the open fails, naming it).
    fs::remove_dir_all(root.join("due")).unwrap();
    fs::remove_dir_all(root.join("outbox/digest")).unwrap();
    Store::open(&root).unwrap();
    assert!(root.join("due").is_dir() && root.join("outbox/digest").is_dir());
    assert_eq!(
        fs::read_to_string(root.join("games/kept.toml")).unwrap(),
        "kept"
    );
    // A link to a folder elsewhere is taken as the folder.
    let elsewhere = dir.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    fs::remove_dir_all(root.join("sent")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, root.join("sent")).unwrap();
    Store::open(&root).unwrap();
    assert!(root.join("sent").is_symlink());
    fs::remove_dir_all(root.join("index")).unwrap();
    fs::write(root.join("index"), "not a folder").unwrap();
    let e = Store::open(&root).unwrap_err().to_string();
    assert!(e.contains("index"), "{e}");
}

#[test]
fn a_hashed_name_is_the_hash_in_sixteen_hex_digits() {
    let mut rng = fastrand::Rng::with_seed(7);
    for h in [0, 1, 0xf, 0x10, u64::MAX, 0x0123_4567_89ab_cdef]
        .into_iter()
        .chain(std::iter::repeat_with(|| rng.u64(..)).take(10_000))
    {
        assert_eq!(super::ids::hex_name(h, "toml"), format!("{h:016x}.toml"));
        let hex = super::ids::hex16(h);
        assert_eq!(hex, *format!("{h:016x}").as_bytes());
        assert_eq!(super::ids::parse_hex16(&hex), Some(h));
        assert_eq!(
            super::ids::parse_hex16(format!("{h:016X}").as_bytes()),
            Some(h)
        );
    }
    // Any other text reads as none, as `from_str_radix` reads 16 hex
    // digits and nothing else: one byte changed anywhere to anything.
    for _ in 0..20_000 {
        let mut text = super::ids::hex16(rng.u64(..)).to_vec();
        text[rng.usize(..16)] = rng.u8(..);
        let radix = std::str::from_utf8(&text)
            .ok()
            .filter(|t| !t.starts_with('+'))
            .and_then(|t| u64::from_str_radix(t, 16).ok());
        assert_eq!(super::ids::parse_hex16(&text), radix, "{text:?}");
    }
    for short in ["", "0", "0123456789abcde", "0123456789abcdef0"] {
        assert_eq!(super::ids::parse_hex16(short.as_bytes()), None, "{short}");
    }
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let a = "bob@example.org";
    let h = stable_hash(a.as_bytes());
    assert_eq!(
        s.correspondence_file(a, "0"),
        dir.path().join("sent").join(format!("{h:016x}.0"))
    );
    assert_eq!(
        s.player_path(" Bob@Example.org "),
        dir.path().join("players").join(format!("{h:016x}.toml"))
    );
}

/// A batch keeps the memories of sent lines it reads and writes: each
/// read of one is what its slots, as the batch left them, hold: through
/// writes, a sync, dropped changes, a file of the single-file form, and a
/// file that is another address's (two addresses with one hash).
#[test]
fn a_batch_reads_a_memory_of_sent_lines_as_its_slots_hold_it() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let (alice, bob, carol) = ("alice@example.org", "bob@example.org", "carol@example.org");
    // Alice's in the single-file form; Bob's file holds Carol's state.
    let mut old = Correspondence::new(alice);
    old.sent(None, "s", "<o@x>", None, "an old line", "2026-11-20");
    let json = serde_json::json!({ "address": alice, "threads": {}, "lines": {} });
    fs::write(s.correspondence_file(alice, "json"), json.to_string()).unwrap();
    let mut theirs = Correspondence::new(carol);
    theirs.sent(
        Some("bz-9"),
        "s",
        "<c@x>",
        None,
        "carol's line",
        "2026-11-20",
    );
    fs::write(s.correspondence_file(bob, "0"), theirs.slot(4).unwrap()).unwrap();
    let b = s.batch().unwrap();
    let uncached = |a: &str| {
        let read = b.read_sent(a).unwrap();
        match read.address == a {
            true => read,
            false => correspondence::for_address(&read, a),
        }
    };
    for round in 0..40 {
        for a in [alice, bob, carol] {
            let seen = b.sent_memory(a).unwrap();
            assert_eq!(*seen, uncached(a), "{a}, round {round}");
            assert_eq!(*b.sent_memory(a).unwrap(), *seen, "read twice");
            let mut c = b.correspondence(a).unwrap();
            assert_eq!(c, *seen, "taken to change");
            drop(seen);
            c.sent(
                Some("bz-1"),
                "s",
                &format!("<m{round}@x>"),
                None,
                &format!("line {round} of {a}\nand {}", round * 7),
                &format!("2026-11-{:02}", 1 + round % 28),
            );
            if round % 3 != 1 {
                b.write_correspondence(c).unwrap();
            }
        }
        match round % 9 {
            4 => b.sync().unwrap(),
            7 => b.discard(),
            _ => {}
        }
    }
    b.sync().unwrap();
    for a in [alice, bob, carol] {
        assert_eq!(
            *b.sent_memory(a).unwrap(),
            s.correspondence(a).unwrap(),
            "{a}"
        );
    }
}

/// A memory of sent lines changed by many replies of a batch is written
/// once, at the sync, to one slot, as the last change left it; the
/// batch's reads see every change before that, and dropped changes
/// write nothing.
#[test]
fn a_batch_writes_a_memory_changed_many_times_once_at_the_sync() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let a = "alice@example.org";
    one_more(&s, a, "<m.0@x>");
    let (durable, free) = slots_of(dir.path(), a, "<m.0@x>");
    let (before, seq) = (
        fs::read(&durable).unwrap(),
        s.correspondence(a).unwrap().stored.seq,
    );
    let line = |n: usize| format!("the reply of game {n} to alice");
    let change = |b: &Store, n: usize| {
        b.change_sent(a, |c| {
            c.sent(
                Some("g"),
                "s",
                &format!("<r.{n}@x>"),
                None,
                &line(n),
                "2026-11-20",
            )
        })
        .unwrap()
    };
    let b = s.batch().unwrap();
    for n in 1..=50 {
        change(&b, n);
        assert!(b.sent_memory(a).unwrap().knows(&line(n)), "seen at once");
    }
    assert_eq!(fs::read(&durable).unwrap(), before, "nothing written yet");
    assert!(
        !fs::read_to_string(&free)
            .unwrap_or_default()
            .contains("<r.1@x>")
    );
    b.sync().unwrap();
    assert_eq!(
        fs::read(&durable).unwrap(),
        before,
        "the durable slot left alone"
    );
    let read = s.correspondence(a).unwrap();
    assert!((1..=50).all(|n| read.knows(&line(n))) && read.knows("the text of <m.0@x>"));
    assert_eq!(read.stored.seq, seq + 50, "{:?}", read.stored);
    // Dropped changes write nothing.
    let on_disk = fs::read(&free).unwrap();
    let b = s.batch().unwrap();
    change(&b, 51);
    b.discard();
    b.sync().unwrap();
    assert_eq!(fs::read(&free).unwrap(), on_disk);
    assert!(!s.correspondence(a).unwrap().knows(&line(51)));
}

#[test]
fn a_folder_made_apart_is_made_whole_and_leaves_nothing_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let names = |d: &Path| -> Vec<String> {
        let mut n: Vec<_> = fs::read_dir(d)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    };
    let path = dir.path().join("box");
    assert!(files::make_apart(&path, &["new", "cur", "tmp"]).unwrap());
    assert_eq!(names(&path), ["cur", "new", "tmp"]);
    assert_eq!(names(dir.path()), ["box"]);
    // There already: left as it is, contents and all, and nothing made.
    fs::write(path.join("new/m"), "kept").unwrap();
    assert!(!files::make_apart(&path, &["new", "other"]).unwrap());
    assert_eq!(fs::read_to_string(path.join("new/m")).unwrap(), "kept");
    assert_eq!(names(&path), ["cur", "new", "tmp"]);
    assert_eq!(names(dir.path()), ["box"]);
    // A file under the name: not replaced.
    fs::write(dir.path().join("file"), "a file").unwrap();
    assert!(!files::make_apart(&dir.path().join("file"), &[]).unwrap());
    assert_eq!(
        fs::read_to_string(dir.path().join("file")).unwrap(),
        "a file"
    );
    // No parent: the error, nothing made.
    assert!(files::make_apart(&dir.path().join("no/such"), &[]).is_err());
    assert_eq!(names(dir.path()), ["box", "file"]);
    // A data folder's own folders are made so: none of pbem's names left;
    // and one that a killed process left is cleared at the next open.
    let root = dir.path().join("data");
    Store::open(&root).unwrap();
    assert!(
        names(&root).iter().all(|n| !n.starts_with('.')),
        "{:?}",
        names(&root)
    );
    let left = root.join(".pbem-0123456789abcdef.tmp");
    fs::create_dir(&left).unwrap();
    Store::open(&root).unwrap();
    assert!(!left.exists());
}

#[test]
fn a_data_folder_made_by_open_is_marked_to_spread_its_folders_where_the_file_system_can() {
    let dir = tempfile::tempdir().unwrap();
    let can = files::spread_probe(dir.path());
    // A new data folder, and one whose folders were all there (made
    // by hand): only a folder open makes is marked.
    let made = dir.path().join("new");
    Store::open(&made).unwrap();
    assert_eq!(crate::store::files::is_spread(&made), can);
    assert!(made.join("games").is_dir() && made.join("outbox/ready").is_dir());
    let by_hand = dir.path().join("by-hand");
    for sub in fs::read_dir(&made).unwrap().flatten() {
        fs::create_dir_all(by_hand.join(sub.file_name())).unwrap();
    }
    for sub in ["staging", "ready", "digest"] {
        fs::create_dir_all(by_hand.join("outbox").join(sub)).unwrap();
    }
    Store::open(&by_hand).unwrap();
    assert!(!crate::store::files::is_spread(&by_hand), "left as it was");
}

#[test]
fn a_clock_reads_as_its_file_says_whatever_was_remembered() {
    use crate::timecontrol::{ClockPolicy, ClockState};
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let start = "2026-11-02T10:00:00Z"
        .parse::<chrono::DateTime<chrono::Utc>>()
        .unwrap();
    let clock = |days: u32, lines: usize| GameClock {
        lines,
        state: ClockState::new(
            format!("{days}d").parse().unwrap(),
            crate::game::Side::A,
            start,
        ),
    };
    let policy = ClockPolicy::default();
    // More clocks than are remembered, each read back as written.
    for n in 0..600 {
        let id = format!("g-{n}");
        s.write_clock(&id, &clock(1 + n % 9, n as usize), &policy)
            .unwrap();
        assert_eq!(s.clock(&id).unwrap(), Some(clock(1 + n % 9, n as usize)));
    }
    // A file changed behind pbem's back reads as it now is, and one that
    // does not parse is an error that names it.
    let path = dir.path().join("clocks/g-3.toml");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace("lines = 3", "lines = 4")).unwrap();
    assert_eq!(s.clock("g-3").unwrap(), Some(clock(4, 4)));
    fs::write(&path, "lines = [").unwrap();
    let e = s.clock("g-3").unwrap_err().to_string();
    assert!(e.contains("g-3.toml"), "{e}");
}
