//! Every one of the eight games played whole through the mail path, from
//! challenge to result (issue 3): two scripted players answer pbem's mails
//! from their Maildirs as a mail client's Reply would, pbem polls its
//! Maildir, and at the end the record is the example game, move for move
//! (the script: `common::play`; `imap_games.rs` plays it through real
//! mail servers).

mod common;

use common::play::{Mailroom, play_game};
use pbem::cli::Server;
use pbem::config::{Config, INIT};
use pbem::demo::{Player, Received};
use pbem::mailbox::Maildir;
use pbem::rules::Rules;
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
    play_game(&mut room, &mut players, rules);
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
