//! Many games' move mails at once, and the checks that follow a run over
//! them: every move recorded once, every reply delivered once
//! (crash injection, outages, two processes at once).

use pbem::adjudicate::{Adjudicator, Desk};
use pbem::demo::example_moves;
use pbem::game::{PerSide, Side};
use pbem::mail::templates::Templates;
use pbem::poll::OsRandom;
use pbem::record::Record;
use pbem::reply::Identity;
use pbem::rules::Rules;
use pbem::store::Store;
use std::collections::HashMap;

/// The games whose example records are played: short ones, every kind of
/// board and move.
pub const RULES: [Rules; 6] = [
    Rules::DragonsTeeth,
    Rules::Embed,
    Rules::GuerrillaCheckers,
    Rules::MadBishops,
    Rules::MadRooks,
    Rules::ToroidalCheckers,
];

pub struct Game {
    pub id: String,
    /// The moves mailed, in order.
    pub moves: Vec<String>,
    /// Their Message-IDs, `<...>`.
    pub move_ids: Vec<String>,
    /// Their keys' hashes, as pbem's replies name them ([`super::key_hash`]).
    pub move_hashes: Vec<String>,
    /// The two players' addresses, side A first.
    pub players: [String; 2],
    /// Whether the moves mailed end the game.
    pub whole: bool,
}

/// One mail to put in pbem's inbox. Sorted by name, the mails come ply by
/// ply, the games side by side.
pub struct Mail {
    pub name: String,
    pub raw: Vec<u8>,
    pub ply: usize,
}

pub struct Workload {
    pub games: Vec<Game>,
    pub mails: Vec<Mail>,
}

/// Starts `n_games` games in `store` (players from `players(g)`) and
/// writes the mails of their moves (at most `plies` each), with a bounce
/// every tenth ply when `noise` is on (mail pbem must drop).
pub fn build(
    store: &Store,
    identity: &Identity,
    n_games: usize,
    plies: Option<usize>,
    players: &dyn Fn(usize) -> [String; 2],
    noise: bool,
) -> Workload {
    let templates = Templates::new(None);
    let adj = Adjudicator {
        desk: Desk::new(store),
        draw: &OsRandom,
        identity,
        templates: &templates,
        now: pbem::clock::now(),
        challenges: Default::default(),
    };
    let (local, domain) = identity.address.split_once('@').unwrap();
    let mut games = Vec::new();
    let mut mails = Vec::new();
    for g in 0..n_games {
        let rules = RULES[g % RULES.len()];
        let id = format!("load-{g}");
        let players = players(g);
        let ((), effects) = adj
            .decide(|a| {
                a.start_game(
                    &id,
                    rules,
                    Some(rules.fixed_first().unwrap_or(Side::A)),
                    PerSide::new(players[0].clone(), players[1].clone()),
                    None,
                    Default::default(),
                )
            })
            .unwrap();
        store.apply_effects(&effects).unwrap();
        let secrets = store.secrets(&id, rules).unwrap();
        let mut moves = example_moves(rules);
        let whole = plies.is_none_or(|p| p >= moves.len());
        moves.truncate(plies.unwrap_or(usize::MAX));
        let mut move_ids = Vec::new();
        let mut move_hashes = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let side = if i % 2 == 0 { Side::A } else { Side::B };
            let who = &players[side.index()];
            let token = secrets.tokens[side].as_ref().unwrap();
            let mid = format!("<{id}.move{}@example.org>", i + 1);
            let raw = format!(
                "From: {who}\r\nTo: {local}+{id}.{token}@{domain}\r\nSubject: Re: [pbem {id}] move\r\nMessage-ID: {mid}\r\n\r\n#{} {m}\r\n",
                i + 1
            );
            move_hashes.push(super::key_hash(raw.as_bytes()));
            mails.push(Mail {
                name: format!("{:05}.{g:05}.m", i + 1),
                raw: raw.into_bytes(),
                ply: i + 1,
            });
            move_ids.push(mid);
            if noise && i % 10 == 5 {
                let junk = format!(
                    "From: MAILER-DAEMON@example.org\r\nTo: {local}@{domain}\r\nSubject: failure\r\nMessage-ID: <bounce.{id}.{i}@example.org>\r\n\r\n22-15\r\n"
                );
                mails.push(Mail {
                    name: format!("{:05}.{g:05}.n", i + 1),
                    raw: junk.into_bytes(),
                    ply: i + 1,
                });
            }
        }
        games.push(Game {
            id,
            moves,
            move_ids,
            move_hashes,
            players,
            whole,
        });
    }
    mails.sort_by(|a, b| a.name.cmp(&b.name));
    Workload { games, mails }
}

impl Workload {
    /// Every move in its record exactly once, in order, and the record
    /// valid; a game whose whole record was mailed is over.
    pub fn check_records(&self, store: &Store) {
        for g in &self.games {
            let text = store.read_game(&g.id).unwrap().unwrap();
            let rec = Record::parse(&format!("{}.toml", g.id), &text).unwrap();
            assert_eq!(rec.moves(), g.moves, "{}: no move lost or doubled", g.id);
            let checked = pbem::cli::validate_record(&rec).unwrap();
            assert_eq!(
                checked.result.is_over(),
                g.whole,
                "{}: {}",
                g.id,
                checked.word
            );
        }
    }

    /// Every reply exactly once: each player has one mail per move, each
    /// answering a different move mail, no Message-ID twice. `mails_of`
    /// gives the raw mails a player received.
    pub fn check_replies(&self, mails_of: &dyn Fn(&str) -> Vec<Vec<u8>>) {
        self.check_replies_but(mails_of, 0);
    }

    /// As [`Workload::check_replies`], but up to `twice` mails may have
    /// come a second time, the same mail with the same Message-ID (what
    /// SMTP does when the server dies between taking a mail and saying so,
    /// RFC 1047). Returns how many came twice.
    pub fn check_replies_but(
        &self,
        mails_of: &dyn Fn(&str) -> Vec<Vec<u8>>,
        twice: usize,
    ) -> usize {
        let mut doubled = 0;
        for g in &self.games {
            for who in &g.players {
                let mut answered: HashMap<String, usize> = HashMap::new();
                let mut ids = HashMap::new();
                for raw in mails_of(who) {
                    let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
                    let id = m.message_id().unwrap().to_string();
                    // The same mail but for what the servers on the way
                    // added at the top (Received: ...).
                    let content = (m.subject().map(str::to_string), m.body_text(0));
                    let content = format!("{content:?}");
                    if let Some(first) = ids.get(&id) {
                        assert_eq!(first, &content, "{who}: two different mails named {id}");
                        doubled += 1;
                        continue;
                    }
                    // The move a reply is about: its Message-ID carries the
                    // hash of the move mail's key (the opponent's copy is
                    // In-Reply-To pbem's last mail to them).
                    let about = g
                        .move_ids
                        .iter()
                        .zip(&g.move_hashes)
                        .find(|(_, h)| **h == super::hash_of_reply(&id))
                        .map(|(mid, _)| mid);
                    *answered
                        .entry(about.cloned().unwrap_or_else(|| id.clone()))
                        .or_default() += 1;
                    ids.insert(id, content);
                }
                assert_eq!(ids.len(), g.moves.len(), "{who}: one mail per move");
                for mid in &g.move_ids {
                    assert_eq!(
                        answered.get(mid),
                        Some(&1),
                        "{who}: exactly one reply to {mid}"
                    );
                }
            }
        }
        assert!(doubled <= twice, "{doubled} mails came twice");
        doubled
    }

    /// How many replies a whole run sends: one per move per player.
    pub fn replies(&self) -> usize {
        self.games.iter().map(|g| 2 * g.moves.len()).sum()
    }
}
