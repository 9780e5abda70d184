//! Every one of the eight games played whole through the mail path, from
//! challenge to result (issue 3): two scripted players answer pbem's mails
//! from their Maildirs as a mail client's Reply would, pbem polls its
//! Maildir, and at the end the record is the example game, move for move.

use pbem::cli::Server;
use pbem::config::{Config, INIT};
use pbem::demo::{Player, example_moves};
use pbem::mailbox::Maildir;
use pbem::record::{self, Entry, Record};
use pbem::rules::Rules;

struct World {
    _dir: tempfile::TempDir,
    server: Server,
    inbox: Maildir,
    alice: Player,
    bob: Player,
}

fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pbem.toml");
    std::fs::write(&path, INIT).unwrap();
    let config = Config::load(&path).unwrap();
    let sent = dir.path().join("mail/sent");
    let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
    World {
        server: Server::new(config).unwrap(),
        inbox,
        alice: Player::new("Alice", "alice@example.org", &sent),
        bob: Player::new("Bob", "bob@example.org", &sent),
        _dir: dir,
    }
}

impl World {
    fn poll(&mut self) -> pbem::poll::Report {
        let mut md = self.inbox.clone();
        let r = self.server.poll(&mut md, true).unwrap();
        assert!(!r.failed(), "{r:?}");
        r
    }
}

fn play_by_mail(rules: Rules) {
    let mut w = world();
    let inbox = w.inbox.clone();
    w.alice
        .send(
            &inbox,
            "pbem@localhost",
            "a game?",
            &format!(
                "Hi Bob!\n\nchallenge {} bob@example.org first\n",
                rules.slug()
            ),
            None,
        )
        .unwrap();
    w.poll();
    let challenge = w.bob.check();
    assert_eq!(challenge.len(), 1, "bob gets the challenge");
    let subject = &challenge[0].subject;
    assert!(subject.contains("challenges you"), "{subject}");
    let id: String = subject["[pbem ".len()..]
        .chars()
        .take_while(|c| *c != ']')
        .collect();
    let ack = w.alice.check();
    assert!(
        ack[0].subject.contains("challenge sent"),
        "{}",
        ack[0].subject
    );
    w.bob.reply(&inbox, &id, "accept").unwrap();
    w.poll();
    let tag = format!("[pbem {id}]");
    for p in [&mut w.alice, &mut w.bob] {
        let got = p.check();
        assert_eq!(got.len(), 1, "{} hears the game begins", p.name);
        assert!(
            got[0].subject.contains("the game begins"),
            "{}",
            got[0].subject
        );
    }
    let moves = example_moves(rules);
    assert!(moves.len() >= 10);
    for (i, m) in moves.iter().enumerate() {
        let body = format!("#{} {m}", i + 1);
        let (mover, other) = if i % 2 == 0 {
            (&mut w.alice, &mut w.bob)
        } else {
            (&mut w.bob, &mut w.alice)
        };
        mover.reply(&inbox, &tag, &body).unwrap();
        let _ = other;
        w.poll();
        let a = w.alice.check();
        let b = w.bob.check();
        assert_eq!(
            (a.len(), b.len()),
            (1, 1),
            "{rules}: both players hear of move {} {m}",
            i + 1
        );
        assert!(
            a[0].subject.contains(m.as_str()) || a[0].subject.contains("game over"),
            "{}",
            a[0].subject
        );
    }
    let last = w.alice.received.last().unwrap();
    assert!(last.subject.contains("game over"), "{}", last.subject);
    assert!(last.text.contains("The game is over"), "{}", last.text);
    // The record on disk is the example game, and validates.
    let text = w.server.store.read_game(&id).unwrap().unwrap();
    let rec = Record::parse(&format!("{id}.toml"), &text).unwrap();
    let played: Vec<String> = rec
        .lines
        .iter()
        .filter_map(|l| match &l.entry {
            Entry::Move(m) => Some(m.clone()),
            Entry::Event(_) => None,
        })
        .collect();
    assert_eq!(played, moves);
    assert!(
        rec.lines
            .iter()
            .all(|l| l.time.is_some() && l.message_id.is_some()),
        "every line has its time and Message-ID"
    );
    let checked = pbem::cli::validate_record(&rec).unwrap();
    assert_ne!(checked.result, "*");
    let example = Record::parse(
        "example",
        &std::fs::read_to_string(format!(
            "{}/games/{}.toml",
            env!("CARGO_MANIFEST_DIR"),
            rules.slug()
        ))
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        Some(checked.result),
        example.result.as_ref().map(|(r, _)| r.as_str())
    );
    assert_eq!(
        record::write::to_string(&rec),
        text,
        "the record is in the writer's full form"
    );
    // Keys never reach the published record.
    let secrets = w.server.store.secrets(&id).unwrap();
    for t in secrets.tokens.values() {
        assert!(!text.contains(t.as_str()));
    }
}

macro_rules! games {
    ($($name:ident => $rules:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            play_by_mail(Rules::$rules);
        }
    )*};
}

games! {
    boom_and_zoom => BoomAndZoom,
    dragons_teeth => DragonsTeeth,
    embed => Embed,
    mad => Mad,
    mad_rooks => MadRooks,
    mad_bishops => MadBishops,
    guerrilla_checkers => GuerrillaCheckers,
    toroidal_checkers => ToroidalCheckers,
}
