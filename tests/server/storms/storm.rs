//! The storm of tests/server/storms.rs ("a player who sends
//! 1,000 mails in a minute"): one poll answers the first of them up to
//! the hourly limits (of mails with no command, and of the player's
//! keyed mails with one in their own game), then one notice each, holds
//! back the rest, plays the one legal move once, and serves ten other
//! games in the same poll.

use super::*;

/// The storming player got the first `replies_per_hour` answers to their
/// mails with no command (every fourth: what any address's mails count
/// in) and the first `keyed_per_hour` answers to those with a command
/// (in their own game, with their key: a count of its own), then one
/// notice for each count (in their zone `berlin`); every later reply (the
/// news of their own move too) was held. Their legal move was played
/// once, and their opponent told.
fn check_the_storming_player(
    w: &mut World,
    r: &Report,
    storm_ids: &[String],
    berlin: chrono_tz::Tz,
) {
    let storm = "storm@example.org";
    let legal_at = STORM / 2;
    let limits = w.limits();
    let (cap, keyed_cap) = (
        limits.replies_per_hour as usize,
        limits.keyed_per_hour as usize,
    );
    let got = w.mails_to(storm);
    assert_eq!(got.len(), cap + keyed_cap + 2);
    // (One poll's mails go out in no particular order.)
    let (notices, answers): (Vec<_>, Vec<_>) =
        got.iter().map(|(_, m)| m).partition(|m| is_notice(m));
    assert_eq!(notices.len(), 2);
    let answered: HashSet<&String> = answers.iter().filter_map(|m| m.references.last()).collect();
    let others: Vec<(usize, &String)> = storm_ids
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != legal_at)
        .collect();
    let (junk, keyed): (Vec<_>, Vec<_>) = others.into_iter().partition(|(i, _)| i % 4 == 0);
    let first: HashSet<&String> = junk[..cap]
        .iter()
        .chain(&keyed[..keyed_cap])
        .map(|(_, m)| *m)
        .collect();
    assert_eq!(
        answered, first,
        "the answers go to the first {cap} mails without a command and the first {keyed_cap} with one"
    );
    for (notice, past) in notices.iter().zip([junk[cap].1, keyed[keyed_cap].1]) {
        assert!(
            notice
                .subject
                .ends_with(&format_deadline(w.now + Duration::hours(1), Some(berlin))),
            "{}",
            notice.subject
        );
        assert!(
            notices.iter().any(|n| n.references.contains(past)),
            "a notice goes with {past}: {:?}",
            notice.references
        );
    }
    let held = STORM - cap - keyed_cap;
    assert_eq!(r.limited, held);
    let limited_lines: Vec<&String> = r
        .log
        .iter()
        .filter(|l| l.starts_with("rate-limited "))
        .collect();
    assert_eq!(limited_lines.len(), held);
    assert_eq!(
        limited_lines
            .iter()
            .filter(|l| l.contains(" notice=sent"))
            .count(),
        2
    );
    let rec = w.record("bz-storm");
    assert_eq!(rec.lines.len(), 1);
    assert_eq!(rec.lines[0].message_id.as_ref(), Some(&storm_ids[legal_at]));
    let olga = w.mails_to("olga@example.org");
    assert_eq!(olga.len(), 1);
    assert!(olga[0].1.headline().contains("Black played 6-13"));
}

/// The mails of one storm: 1,000 within a minute.
const STORM: usize = 1000;

/// A game of the storm's bystanders: id, players, keys.
type OtherGame = (String, [String; 2], [String; 2]);
/// A bystander's mail: from, Message-ID, the mail.
type OtherMail = (String, String, String);

/// Ten games of others, and their players' mails, to be spread through
/// the storm: black moves, red asks for the board.
fn other_games(w: &World) -> (Vec<OtherGame>, Vec<OtherMail>) {
    let mut others = Vec::new();
    for g in 1..=10 {
        let id = format!("bz-other{g}");
        let players = [format!("p{g}a@example.org"), format!("p{g}b@example.org")];
        let keys = w.game(&id, [players[0].as_str(), players[1].as_str()]);
        others.push((id, players, keys));
    }
    let mut other_mails = Vec::new();
    for (id, players, keys) in &others {
        for (side, body) in [(0, "#1 6-13"), (1, "board")] {
            let mid = format!("<{id}.{side}@example.org>");
            other_mails.push((
                players[side].clone(),
                mid.clone(),
                mail(
                    &players[side],
                    &format!("pbem+{id}.{}@example.net", keys[side]),
                    &format!("Re: [pbem {id}] Boom & Zoom"),
                    &mid,
                    body,
                ),
            ));
        }
    }
    (others, other_mails)
}

/// The storm: [`STORM`] mails from `storm@` in a minute (the legal move
/// at the middle), `other_mails` spread through it; its Message-IDs and
/// mail keys.
fn storm_mails(
    w: &mut World,
    storm_key: &str,
    other_mails: &[OtherMail],
) -> (Vec<String>, Vec<String>) {
    let storm = "storm@example.org";
    let legal_at = STORM / 2;
    let mut storm_ids = Vec::new();
    let mut storm_keys = Vec::new();
    let mut next_other = other_mails.iter();
    for i in 0..STORM {
        let body = match i {
            _ if i == legal_at => "#1 6-13".to_string(),
            _ => match i % 4 {
                0 => format!("asdf qwerty {i}"),
                1 => "1-64".into(),
                2 => "help".into(),
                _ => "board".into(),
            },
        };
        let mid = format!("<storm.{i}@example.org>");
        // Sent within one minute.
        let date = w.now + Duration::milliseconds((i * 59_000 / STORM) as i64);
        let raw = mail(
            storm,
            &format!("pbem+bz-storm.{storm_key}@example.net"),
            "Re: [pbem bz-storm] Boom & Zoom",
            &mid,
            &body,
        )
        .replace("Fri, 20 Nov 2026 10:00:00 +0000", &date.to_rfc2822());
        w.deliver(&raw);
        storm_keys.push(common::mail_key(raw.as_bytes()));
        storm_ids.push(mid);
        if i % (STORM / other_mails.len()) == 7
            && let Some((_, _, raw)) = next_other.next()
        {
            w.deliver(raw);
        }
    }
    assert!(next_other.next().is_none(), "every other mail delivered");
    (storm_ids, storm_keys)
}

/// one player sends 1,000 mails within a minute (junk, illegal
/// moves, `help`, `board`, one legal move in the middle) while ten other
/// games go on in the same mailbox. One poll answers every other player,
/// caps the storming player's replies at the limits (a notice each),
/// plays their legal move once, and records every mail once.
#[test]
fn a_storm_of_1000_mails_is_capped_and_others_are_served() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let storm = "storm@example.org";
    let [storm_key, _] = w.game("bz-storm", [storm, "Olga <olga@example.org>"]);
    let (others, other_mails) = other_games(&w);
    let (storm_ids, storm_keys) = storm_mails(&mut w, &storm_key, &other_mails);
    let total = STORM + other_mails.len();

    // The notice shows the time in the player's zone.
    let berlin: chrono_tz::Tz = "Europe/Berlin".parse().unwrap();
    let mut player = w.server.store.player(storm).unwrap();
    player.zone = Some(berlin);
    w.server.store.write_player(&player).unwrap();

    w.now += Duration::minutes(1);
    let started = Instant::now();
    let cpu_at_start = crate::common::wait::thread_cpu_time();
    let r = w.poll();
    let cpu = crate::common::wait::thread_cpu_time() - cpu_at_start;
    let wall = started.elapsed();
    println!(
        "storm: one poll of {total} mails ({STORM} from one player, {} from 20 others) took {:.2} s ({} build): {} sent, {} held back",
        other_mails.len(),
        wall.as_secs_f64(),
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        r.sent,
        r.limited
    );
    assert_eq!((r.handled, r.skipped), (total, 0), "{:?}", r.errors);

    // Every other player was answered in this poll, in reply to their mail.
    for (who, mid, _) in &other_mails {
        let got = w.mails_to(who);
        assert!(
            got.iter().any(|(_, m)| m.references.contains(mid)),
            "{who} got no answer to {mid}: {:?}",
            got.iter().map(|m| &m.1.subject).collect::<Vec<_>>()
        );
    }
    for (id, _, _) in &others {
        assert_eq!(w.moves(id), ["6-13"], "{id}");
    }
    check_the_storming_player(&mut w, &r, &storm_ids, berlin);

    // Recorded exactly once: every key committed once, the mailbox
    // empty, and a second poll does nothing.
    let keys = common::committed_keys(w.server.store.root());
    let unique: HashSet<&str> = keys.iter().map(String::as_str).collect();
    assert_eq!((keys.len(), unique.len()), (total, total));
    assert!(storm_keys.iter().all(|k| unique.contains(k.as_str())));
    assert_eq!(w.pending(), 0);
    let again = w.poll();
    assert_eq!((again.handled, again.skipped, again.sent), (0, 0, 0));
    assert!(
        fs::read_dir(w.server.store.outbox_ready())
            .unwrap()
            .next()
            .is_none(),
        "the outbox is empty"
    );
    // The debug build on the 2-core development machine takes a few
    // seconds; a minute means something went quadratic. Its CPU time, as
    // the wall clock also counts what other processes took of the cores
    // and the waits on a busy disk.
    assert!(
        cpu.as_secs() < 60,
        "{cpu:?} of CPU ({wall:?} on the wall clock)"
    );
}
