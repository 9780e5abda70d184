//! Every one of the eight games played whole through the mail path, from
//! challenge to result: two scripted players answer pbem's mails
//! from their Maildirs as a mail client's Reply would, pbem polls its
//! Maildir, and at the end the record is the example game, move for move
//! (the script: `common::play`; `imap_games.rs` plays it through real
//! mail servers).

use crate::common;

use common::play::{Mailroom, play_game};
use pbem::config::{Config, INIT};
use pbem::demo::{Player, Received};
use pbem::mailbox::Maildir;
use pbem::rules::Rules;
use pbem::setup::Server;
use pbem::store::Store;

/// The embedded default: a local Maildir in, Maildirs out.
struct Local {
    _dir: tempfile::TempDir,
    server: Server,
    inbox: Maildir,
    posted: usize,
}

impl Mailroom for Local {
    fn pbem_address(&self) -> String {
        "pbem@localhost".into()
    }
    fn post(&mut self, who: usize, _to: &str, raw: &[u8]) {
        self.posted += 1;
        self.inbox
            .deliver(&format!("{:010}.player{who}", self.posted), raw)
            .unwrap();
    }
    fn run_pbem(&mut self, n: usize) {
        let r = self.server.poll(&mut self.inbox.clone(), true).unwrap();
        assert!(!r.failed(), "{r:?}");
        assert_eq!(r.handled, n, "{r:?}");
    }
    fn receive(&mut self, _who: usize, player: &mut Player, _n: usize) -> Vec<Received> {
        player.check()
    }
    fn store(&self) -> Store {
        Store::open(self.server.store.root()).unwrap()
    }
}

fn play_by_mail(rules: Rules) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pbem.toml");
    std::fs::write(&path, INIT).unwrap();
    let config = Config::load(&path).unwrap();
    let sent = dir.path().join("mail/sent");
    let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
    let mut room = Local {
        server: Server::new(config).unwrap(),
        inbox,
        posted: 0,
        _dir: dir,
    };
    let mut players = [
        Player::new("Alice", "alice@example.org", &sent),
        Player::new("Bob", "bob@example.org", &sent),
    ];
    let id = play_game(&mut room, &mut players, rules);
    check_threads(&sent, &id, &players);
}

/// The threading headers of a whole game, for both players:
/// every mail of the game to a player has one subject; each is In-Reply-To
/// the previous mail pbem sent that player, or the player's own mail it
/// answers; References hold only what that player has seen (pbem's mails
/// to them and their own), at most 8, never the other player's.
fn check_threads(sent: &std::path::Path, id: &str, players: &[Player; 2]) {
    let mut heads = std::collections::HashMap::new();
    for p in players {
        let dir = sent.join(&p.address).join("new");
        for f in std::fs::read_dir(&dir).unwrap().flatten() {
            let raw = std::fs::read(f.path()).unwrap();
            assert!(
                !raw.contains(&b'\r'),
                "a Maildir mail with CRLF: {:?}",
                f.path()
            );
            let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
            let ids = |v: &mail_parser::HeaderValue| -> Vec<String> {
                v.as_text_list()
                    .map(|l| l.iter().map(|s| format!("<{s}>")).collect())
                    .or_else(|| v.as_text().map(|s| vec![format!("<{s}>")]))
                    .unwrap_or_default()
            };
            heads.insert(
                format!("<{}>", m.message_id().unwrap()),
                (ids(m.in_reply_to()), ids(m.references())),
            );
        }
    }
    for (me, p) in players.iter().enumerate() {
        let other = &players[1 - me];
        let own = |r: &str, who: &Player| r.ends_with(&format!(".{}>", who.address));
        let mine: Vec<&pbem::demo::Received> = p
            .received
            .iter()
            .filter(|r| r.subject.contains(&format!("[pbem {id}]")))
            .collect();
        assert!(mine.len() > 10, "{}: {} mails", p.name, mine.len());
        for (k, r) in mine.iter().enumerate() {
            assert_eq!(r.subject, mine[0].subject, "{}: one subject", p.name);
            let (irt, refs) = &heads[&r.message_id];
            if k > 0 {
                let prev = &mine[k - 1].message_id;
                assert!(
                    irt.len() == 1 && (irt[0] == *prev || own(&irt[0], p)),
                    "{}'s mail {k} answers {irt:?}, not {prev} nor one of theirs",
                    p.name
                );
            }
            assert!(refs.len() <= 8, "{}: {} references", p.name, refs.len());
            for reference in refs {
                assert!(
                    !own(reference, other),
                    "{} sees {}'s Message-ID {reference}",
                    p.name,
                    other.name
                );
                assert!(
                    own(reference, p) || mine[..=k].iter().any(|m| m.message_id == *reference),
                    "{}: a reference never seen: {reference}",
                    p.name
                );
            }
        }
    }
}

pbem_engine::game_tests!(rules, _G => {
    let _shared = crate::common::lock::shared();
    play_by_mail(rules);
});
