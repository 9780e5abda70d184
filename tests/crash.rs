//! Crash safety (issue 3, "Exactly once"): `pbem poll` processes run over a
//! mailbox holding a whole game's moves and are killed with SIGKILL at
//! random points, again and again; then a last poll runs to the end. Every
//! move must be in the record exactly once, every reply delivered exactly
//! once, every mail marked done, and no temporary file left behind.
//!
//! `PBEM_CRASH_KILLS=1000 cargo test --release --test crash` runs the long
//! version (the default is a short one for every test run).

use pbem::adjudicate::{Adjudicator, Identity};
use pbem::config::{Config, INIT};
use pbem::demo::example_moves;
use pbem::game::Side;
use pbem::mail::templates::Templates;
use pbem::mailbox::Maildir;
use pbem::record::{Entry, Record};
use pbem::rules::Rules;
use pbem::store::Store;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn kills() -> usize {
    std::env::var("PBEM_CRASH_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40)
}

fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(files(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// The games whose example records are played: short ones, every kind.
const RULES: [Rules; 6] = [
    Rules::DragonsTeeth,
    Rules::Embed,
    Rules::GuerrillaCheckers,
    Rules::MadBishops,
    Rules::MadRooks,
    Rules::ToroidalCheckers,
];

struct Game {
    id: String,
    moves: Vec<String>,
    move_ids: Vec<String>,
    players: [String; 2],
}

#[test]
fn killed_polls_lose_and_double_nothing() {
    let kills = kills();
    // Enough mail that every kill can land in the middle of a poll.
    let n_games = (kills / 8).max(4);
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("pbem.toml");
    std::fs::write(&config_path, INIT).unwrap();
    let config = Config::load(&config_path).unwrap();
    let store = Store::open(&config.data).unwrap();
    let identity = Identity {
        address: config.address.clone(),
        name: "pbem".into(),
        trusted_authserv: None,
        admin: None,
        clocks: Default::default(),
    };
    let templates = Templates::new(None);
    let adj = Adjudicator {
        store: &store,
        identity: &identity,
        templates: &templates,
        now: pbem::clock::now(),
    };
    let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
    let mut games = Vec::new();
    let mut mails = 0;
    for g in 0..n_games {
        let rules = RULES[g % RULES.len()];
        let id = format!("crash-{g}");
        let players = [format!("p{g}a@example.org"), format!("p{g}b@example.org")];
        let mut map = BTreeMap::new();
        map.insert(rules.side_name(Side::A).to_string(), players[0].clone());
        map.insert(rules.side_name(Side::B).to_string(), players[1].clone());
        adj.start_game(
            &id,
            rules,
            Some(rules.fixed_first().unwrap_or(Side::A)),
            map,
            None,
        )
        .unwrap();
        let secrets = store.secrets(&id).unwrap();
        let moves = example_moves(rules);
        let mut move_ids = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let side = if i % 2 == 0 { Side::A } else { Side::B };
            let who = &players[side.index()];
            let token = &secrets.tokens[rules.side_name(side)];
            let mid = format!("<{id}.move{}@example.org>", i + 1);
            let raw = format!(
                "From: {who}\r\nTo: pbem+{id}.{token}@localhost\r\nSubject: Re: [pbem {id}] move\r\nMessage-ID: {mid}\r\n\r\n#{} {m}\r\n",
                i + 1
            );
            // Named so that the games advance side by side.
            inbox
                .deliver(&format!("{:05}.{g:05}.m", i + 1), raw.as_bytes())
                .unwrap();
            move_ids.push(mid);
            mails += 1;
            // Noise: mail that must be dropped, not answered.
            if i % 10 == 5 {
                let junk = format!(
                    "From: MAILER-DAEMON@example.org\r\nTo: pbem@localhost\r\nSubject: failure\r\nMessage-ID: <bounce.{id}.{i}@example.org>\r\n\r\n22-15\r\n"
                );
                inbox
                    .deliver(&format!("{:05}.{g:05}.n", i + 1), junk.as_bytes())
                    .unwrap();
                mails += 1;
            }
        }
        games.push(Game {
            id,
            moves,
            move_ids,
            players,
        });
    }

    let pbem = env!("CARGO_BIN_EXE_pbem");
    let mut rng = fastrand::Rng::with_seed(20261121);
    let (mut interrupted, mut finished) = (0, 0);
    let started = Instant::now();
    // Kill until `kills` polls died mid-way, or the mailbox ran dry.
    while interrupted < kills && finished < 3 {
        let mut child = Command::new(pbem)
            .args(["poll", "--quiet", "--wait", "--config"])
            .arg(&config_path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(rng.u64(500..30_000)));
        if child.try_wait().unwrap().is_none() {
            interrupted += 1;
            let _ = child.kill(); // SIGKILL
        } else {
            finished += 1;
        }
        let _ = child.wait();
    }
    let last = Command::new(pbem)
        .args(["poll", "--config"])
        .arg(&config_path)
        .output()
        .unwrap();
    assert!(
        last.status.success(),
        "{}",
        String::from_utf8_lossy(&last.stderr)
    );
    eprintln!(
        "crash test: {interrupted} polls killed mid-way (SIGKILL), {n_games} games, {mails} mails, {:.1?}",
        started.elapsed()
    );
    assert!(
        interrupted >= kills.min(20),
        "kills must land mid-poll ({interrupted})"
    );

    let sent = dir.path().join("mail/sent");
    for g in &games {
        // Every move in the record exactly once, in order, and valid.
        let text = store.read_game(&g.id).unwrap().unwrap();
        let rec = Record::parse(&format!("{}.toml", g.id), &text).unwrap();
        let played: Vec<String> = rec
            .lines
            .iter()
            .filter_map(|l| match &l.entry {
                Entry::Move(m) => Some(m.clone()),
                Entry::Event(_) => None,
            })
            .collect();
        assert_eq!(played, g.moves, "{}: no move lost or doubled", g.id);
        let checked = pbem::cli::validate_record(&rec).unwrap();
        assert_ne!(checked.result, "*", "{}", g.id);
        // Every reply exactly once: one mail per move per player, each
        // answering a different move mail.
        for who in &g.players {
            let mut answered: HashMap<String, usize> = HashMap::new();
            let mut ids = HashSet::new();
            let got = files(&sent.join(who).join("new"));
            for f in &got {
                let raw = std::fs::read(f).unwrap();
                let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
                assert!(
                    ids.insert(m.message_id().unwrap().to_string()),
                    "duplicate Message-ID in {who}'s mail"
                );
                *answered
                    .entry(format!("<{}>", m.in_reply_to().as_text().unwrap()))
                    .or_default() += 1;
            }
            assert_eq!(got.len(), g.moves.len(), "{who}: one mail per move");
            for mid in &g.move_ids {
                assert_eq!(
                    answered.get(mid),
                    Some(&1),
                    "{who}: exactly one reply to {mid}"
                );
            }
        }
    }
    // Every mail done, nothing left half-way.
    assert!(
        files(&config.inbox.maildir.as_ref().unwrap().join("new")).is_empty(),
        "all mail left new/"
    );
    assert!(
        files(&config.inbox.maildir.as_ref().unwrap().join("cur"))
            .iter()
            .all(|p| p.to_string_lossy().ends_with(",S"))
    );
    assert!(
        files(&store.outbox_staging()).is_empty(),
        "no staged replies left"
    );
    assert!(
        files(&store.outbox_ready()).is_empty(),
        "the outbox is empty"
    );
    let leftovers: Vec<_> = files(&config.data)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".tmp"))
        })
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    let log = std::fs::read_to_string(config.data.join("processed.log")).unwrap();
    let keys: Vec<&str> = log.lines().filter(|l| l.ends_with(" .")).collect();
    let unique: HashSet<&&str> = keys.iter().collect();
    assert_eq!(keys.len(), unique.len(), "no mail committed twice");
    assert_eq!(keys.len(), mails, "every mail committed");
}
