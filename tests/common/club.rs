//! Players and a pbem at one table, for what takes several games by mail
//! (series, rematches, tournaments): scripted players answer
//! pbem's mails as a mail client's Reply would, pbem runs as `pbem poll`
//! over a Maildir, its clock pinned and moved on a minute a poll.

use super::pbem_setup::{PBEM, Pbem};
use pbem::demo::Player;
use pbem::mailbox::Maildir;
use pbem::record::Record;
use pbem::reply::address_of;
use pbem::store::league::TournamentFile;

pub struct Club {
    pub pbem: Pbem,
    pub inbox: Maildir,
    /// In seat order.
    pub players: Vec<Player>,
    /// Minutes since 2026-11-25 10:00 UTC: pbem's clock.
    pub minute: u32,
}

impl Club {
    /// A pbem of its own and the players `(name, address)`.
    pub fn new(players: &[(&str, &str)]) -> Club {
        Club::with_pbem(Pbem::new(), players)
    }

    /// [`Club::new`] with pbem's settings changed by `edit`.
    pub fn with_settings(players: &[(&str, &str)], edit: impl FnOnce(String) -> String) -> Club {
        Club::with_pbem(Pbem::with_settings(edit), players)
    }

    fn with_pbem(pbem: Pbem, players: &[(&str, &str)]) -> Club {
        let inbox = Maildir::open(pbem.config.inbox.maildir.as_ref().unwrap()).unwrap();
        let sent = pbem.sent_folder();
        Club {
            players: players
                .iter()
                .map(|(n, a)| Player::new(n, a, &sent))
                .collect(),
            pbem,
            inbox,
            minute: 0,
        }
    }

    /// `n` players `p0@example.org`...
    pub fn numbered(n: usize) -> Club {
        let addresses: Vec<(String, String)> = (0..n)
            .map(|i| (format!("P{i}"), format!("p{i}@example.org")))
            .collect();
        let refs: Vec<(&str, &str)> = addresses
            .iter()
            .map(|(n, a)| (n.as_str(), a.as_str()))
            .collect();
        Club::new(&refs)
    }

    /// pbem's clock now.
    pub fn now(&self) -> String {
        let start: chrono::DateTime<chrono::Utc> = "2026-11-25T10:00:00Z".parse().unwrap();
        (start + chrono::Duration::minutes(i64::from(self.minute)))
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    }

    /// Runs a poll a minute on; every player reads their new mail.
    pub fn poll(&mut self) -> String {
        self.minute += 1;
        let log = self.pbem.poll(&self.now());
        self.read();
        log
    }

    fn read(&mut self) {
        for p in &mut self.players {
            p.check();
        }
    }

    /// Runs a pbem command at the clock's time; every player reads.
    pub fn run(&mut self, args: &[&str]) -> String {
        let out = self.pbem.run(args, &self.now());
        self.read();
        out
    }

    /// Player `who` writes `body` to pbem's own address (no game).
    pub fn send(&mut self, who: usize, body: &str) {
        self.players[who]
            .send(&self.inbox, PBEM, "hello", body, None)
            .unwrap();
    }

    /// Player `who` answers the newest mail about game `id` with `body`;
    /// pbem polls.
    pub fn say(&mut self, who: usize, id: &str, body: &str) -> String {
        self.players[who]
            .reply(&self.inbox, &format!("[pbem {id}]"), body)
            .unwrap();
        self.poll()
    }

    /// A game of `rules` begun: seat 0 challenges seat 1, moving first,
    /// with `more` words after (a time control, say); seat 1 accepts. Its
    /// id.
    pub fn begin(&mut self, rules: pbem::rules::Rules, more: &str) -> String {
        let to = self.players[1].address.clone();
        self.send(
            0,
            &format!("challenge {} {to} first {more}\n", rules.slug()),
        );
        self.poll();
        let id = self.last_game(1);
        self.say(1, &id, "accept");
        id
    }

    /// Player `who` confirms, from their mailbox, what pbem last asked
    /// them to (a sign-up, a leave, a game against the bot): a Reply of
    /// `accept` to pbem's question; pbem polls.
    pub fn confirm(&mut self, who: usize) -> String {
        self.players[who]
            .reply(&self.inbox, "confirm:", "accept")
            .unwrap();
        self.poll()
    }

    /// Player `who` answers every question pbem has asked them (a Reply of
    /// `accept` to each, the ones answered before too); pbem polls.
    pub fn confirm_all(&mut self, who: usize) -> String {
        let asked: Vec<String> = self.players[who]
            .received
            .iter()
            .filter(|r| r.subject.contains("] confirm:"))
            .map(|r| r.subject.split(']').next().unwrap_or_default().to_string() + "]")
            .collect();
        for tag in asked {
            self.players[who]
                .reply(&self.inbox, &tag, "accept")
                .unwrap();
        }
        self.poll()
    }

    /// The admin makes tournament `cup` (Embed) with `p0@example.org`
    /// entered and sign-up by mail open for an hour.
    pub fn open_cup(&mut self) -> String {
        self.run(&[
            "tournament",
            "new",
            "cup",
            "--game",
            "embed",
            "--player",
            "p0@example.org",
            "--signup-until",
            "60m",
        ])
    }

    pub fn record(&self, id: &str) -> Record {
        Record::parse(id, &self.pbem.record(id)).unwrap()
    }

    /// The address of who moves first in game `id`.
    pub fn first_mover(&self, id: &str) -> String {
        let rec = self.record(id);
        address_of(rec.players[rec.first_side()].as_deref().unwrap())
    }

    pub fn tournament(&self, name: &str) -> TournamentFile {
        self.pbem
            .store
            .tournament(name)
            .unwrap()
            .expect("the tournament")
    }

    /// The id of the game the newest mail of player `who` is about.
    pub fn last_game(&self, who: usize) -> String {
        let subject = &self.players[who].received.last().expect("a mail").subject;
        subject
            .trim_start_matches("[pbem ")
            .chars()
            .take_while(|c| *c != ']')
            .collect()
    }

    /// The text of the newest mail of player `who` whose subject or text
    /// holds `what` (a game's mails share its thread's subject), its lines joined with single spaces (the text is wrapped).
    pub fn last_about(&self, who: usize, what: &str) -> String {
        let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        self.players[who]
            .received
            .iter()
            .rev()
            .map(|r| (r.subject.clone(), flat(&r.text)))
            .find(|(subject, text)| subject.contains(what) || text.contains(what))
            .unwrap_or_else(|| panic!("{} got no mail about {what}", self.players[who].name))
            .1
    }
}
