//! The admin's commands: start a game, play a move (`pbem games`, the
//! list, is in `games.rs`).
//!
//! `pbem new` and `pbem move` write through a [`store::Store::batch`] view
//! and put it on disk together with their mails
//! ([`crate::poll::Poller::commit_made`]), after the recovery of what a
//! command or a poll cut short left: a kill or Ctrl-C at any point leaves
//! the game or move with its mails, or neither.

mod play;

use super::out;
use super::server::ConfigArg;
use crate::adjudicate::{Adjudicator, Desk};
use crate::game::{PerSide, Side};
use crate::poll::OsRandom;
use crate::record;
use crate::reply::mailbox;
use crate::rules::Rules;
use crate::setup::Server;
use crate::store::{self, Made};
use clap::Args;
use play::{Played, play_admin};
use std::path::Path;

/// Start a game between two players and mail them both the board.
///
/// Name each side's player with --player SIDE=EMAIL, once per side (the
/// sides are the game's own: `pbem rules GAME` names them).
///
/// Examples:
///   pbem new mad-rooks --player red=ann@example.org --player blue=bob@example.org
///   pbem new embed --first red --player black=ann@example.org --player red=bob@example.org
///   pbem new mad --first black --player "black=Ann <ann@example.org>" --player red=bob@example.org
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct New {
    /// The game.
    #[arg(value_name = "GAME", value_parser = super::games::Games)]
    game: Rules,
    #[arg(long, value_name = "SIDE=EMAIL", help = player_help())]
    player: Vec<String>,
    // The older spelling, `--black EMAIL` and so on: still read, no longer
    // shown (six options with no description).
    #[arg(long, value_name = "EMAIL", hide = true)]
    black: Option<String>,
    #[arg(long, value_name = "EMAIL", hide = true)]
    red: Option<String>,
    #[arg(long, value_name = "EMAIL", hide = true)]
    blue: Option<String>,
    #[arg(long, value_name = "EMAIL", hide = true)]
    white: Option<String>,
    #[arg(long, value_name = "EMAIL", hide = true)]
    guerrilla: Option<String>,
    #[arg(long, value_name = "EMAIL", hide = true)]
    coin: Option<String>,
    #[arg(long, value_name = "SIDE", help = first_help())]
    first: Option<String>,
    /// The game's id (default: made up, like bz-7k2qa).
    #[arg(long, value_name = "ID")]
    id: Option<String>,
    /// A time control: `3d` (days per move), `3d+1d/10d` (a bank: add a
    /// day per move, at most 10), `weekends-free` after it; none: no clock.
    #[arg(long, value_name = "CONTROL")]
    clock: Option<crate::timecontrol::TimeControl>,
    #[command(flatten)]
    config: ConfigArg,
}

/// Options of `pbem new` that start no game (it exits 2); `typed`, an
/// option as typed (`--player red=...`, `--red ...`).
#[derive(Debug, thiserror::Error)]
enum NewUsage {
    /// A `--player` without `=`.
    #[error(
        "pbem new: --player {given}: write SIDE=EMAIL, like --player {}=alice@example.org",
        .rules.side_name(Side::A)
    )]
    NoEquals { given: String, rules: Rules },
    /// A side the game has not.
    #[error(
        "pbem new: {} has no side {side:?}; its sides are {} and {}",
        .rules.name(), .rules.side_name(Side::A), .rules.side_name(Side::B)
    )]
    NoSide { side: String, rules: Rules },
    /// A side given two players.
    #[error("pbem new: {} is named twice; give each side one player", .rules.side_name(*.side))]
    Twice { side: Side, rules: Rules },
    #[error("pbem new: {typed}: not a mail address")]
    NotAnAddress { typed: String },
    /// An address pbem would not send to, and why.
    #[error("pbem new: {typed}: pbem cannot write to it: {why}")]
    Unmailable { typed: String, why: String },
    /// A side (its name) with no player.
    #[error("pbem new: who plays {0}? add --player {0}=EMAIL")]
    NoPlayer(&'static str),
    /// No `--first` in a game whose players choose.
    #[error(
        "pbem new: in {} the players choose who moves first: add --first {} or --first {}",
        .0.name(), .0.side_name(Side::A), .0.side_name(Side::B)
    )]
    ChooseFirst(Rules),
    /// `--first` naming the other side of a game whose rules say `side`.
    #[error(
        "pbem new: in {} {} moves first ({})",
        .rules.name(), .rules.side_name(*.side), .rules.cite(crate::rules::SETUP)
    )]
    FixedFirst { side: Side, rules: Rules },
    #[error("pbem new: --first {given}: not a side of {}", .rules.name())]
    NotASide { given: String, rules: Rules },
}

impl New {
    pub fn execute(self) -> anyhow::Result<i32> {
        let rules = self.game;
        let (players, first) = match self
            .players(rules)
            .and_then(|p| Ok((p, self.first(rules)?)))
        {
            Ok(chosen) => chosen,
            Err(usage) => {
                eprintln!("{usage}");
                return Ok(2);
            }
        };
        let id = match &self.id {
            Some(id) if store::valid_id(id) => id.clone(),
            Some(id) => {
                eprintln!("pbem new: --id {id}: use lower-case letters, digits and dashes (2-40)");
                return Ok(2);
            }
            None => store::new_game_id(rules.id_prefix())?,
        };
        let server = Server::new(self.config.load()?)?;
        let now = crate::clock::now();
        // Held until the mails are out (see `Server::commit_command`).
        let _lock = server.store.lock(true)?;
        // What a command or a poll cut short left: its mails released, or
        // a game never made removed, which frees its id again.
        server.recover(now)?;
        if server.store.id_taken(&id)? {
            if self.id.is_some()
                && started_already(&server.store, &id, rules, first, &players, self.clock)?
            {
                // An earlier `pbem new` got this far (and was cut short,
                // or its exit status lost): its mails are in the outbox
                // or sent; what is left goes now.
                let report = server.flush();
                out!(
                    "{id} is started already, between these players ({}); nothing done",
                    server.store.game_path(&id)?.display()
                );
                return Ok(if report.send_errors.is_empty() { 0 } else { 1 });
            }
            // A usage error like the others: nothing is touched.
            eprintln!("pbem new: a game {id} exists already; choose another --id");
            return Ok(2);
        }
        // Everything in one batch, put on disk with the mails: a crash leaves the game with its mails, or neither.
        let batch = server.store.batch()?;
        let adj = Adjudicator {
            desk: Desk::new(&batch),
            draw: &OsRandom,
            identity: &server.identity,
            templates: &server.templates,
            now,
            challenges: server.config.limits.challenges(),
        };
        let info = crate::record::MatchInfo::default();
        let (replies, effects) = adj.decide(|a| {
            a.start_game(&id, rules, first, players, self.clock, info)?;
            a.started(&id)
        })?;
        batch.apply_effects(&effects)?;
        let made = Made::new(&id, &batch.read_game(&id)?.unwrap_or_default());
        let report = match server.commit_command(&batch, &format!("new:{id}"), &replies, &made, now)
        {
            Ok(r) => r,
            Err(e) => return Ok(cut_short("new", &server, &made, &e, "the game is started")),
        };
        out!(
            "started {id}: {} ({})",
            rules.name(),
            server.store.game_path(&id)?.display()
        );
        Ok(if report.send_errors.is_empty() { 0 } else { 1 })
    }
}

impl New {
    /// Each side's player, as the options name them (`--player SIDE=EMAIL`
    /// or the older `--black EMAIL`): each side's mailbox.
    ///
    /// # Errors
    /// A usage error: a side named twice or not at all, an address pbem
    /// cannot write to.
    fn players(&self, rules: Rules) -> Result<PerSide<String>, NewUsage> {
        // Each player as named: the side, the address, and the option as
        // typed, which errors quote.
        let mut given: Vec<(String, &str, String)> = Vec::new();
        for p in &self.player {
            let Some((side, email)) = p.split_once('=') else {
                return Err(NewUsage::NoEquals {
                    given: p.clone(),
                    rules,
                });
            };
            given.push((side.to_string(), email, format!("--player {p}")));
        }
        let old = [
            ("black", &self.black),
            ("red", &self.red),
            ("blue", &self.blue),
            ("white", &self.white),
            ("guerrilla", &self.guerrilla),
            ("coin", &self.coin),
        ];
        for (side, email) in old {
            if let Some(email) = email {
                given.push((
                    side.to_string(),
                    email.as_str(),
                    format!("--{side} {email}"),
                ));
            }
        }
        let mut players = PerSide::<Option<String>>::default();
        for (side, email, typed) in given {
            let email = email.trim();
            let Some(named) = rules.side_named(&side) else {
                return Err(NewUsage::NoSide { side, rules });
            };
            if players[named].is_some() {
                return Err(NewUsage::Twice { side: named, rules });
            }
            let addr = crate::reply::address_of(email);
            if addr.parse::<lettre::Address>().is_err() {
                return Err(NewUsage::NotAnAddress { typed });
            }
            if let Some(why) = crate::reply::unmailable(&addr) {
                return Err(NewUsage::Unmailable { typed, why });
            }
            let name = email
                .split('<')
                .next()
                .map(str::trim)
                .filter(|n| !n.is_empty() && email.contains('<'));
            players[named] = Some(mailbox(name, &addr));
        }
        match players.0 {
            [Some(a), Some(b)] => Ok(PerSide::new(a, b)),
            [a, _] => Err(NewUsage::NoPlayer(rules.side_name(if a.is_none() {
                Side::A
            } else {
                Side::B
            }))),
        }
    }

    /// The side that moves first: the game's own, or the one `--first`
    /// names where the players choose.
    ///
    /// # Errors
    /// A usage error.
    fn first(&self, rules: Rules) -> Result<Option<Side>, NewUsage> {
        Ok(match (&self.first, rules.fixed_first()) {
            (None, None) => return Err(NewUsage::ChooseFirst(rules)),
            (None, fixed) => fixed,
            (Some(f), fixed) => match rules.side_named(f) {
                Some(s) if fixed.is_none_or(|x| x == s) => Some(s),
                Some(_) => {
                    let side = fixed.unwrap_or(Side::A);
                    return Err(NewUsage::FixedFirst { side, rules });
                }
                None => {
                    return Err(NewUsage::NotASide {
                        given: f.clone(),
                        rules,
                    });
                }
            },
        })
    }
}

/// `pbem new --player`'s description, with every game's sides.
fn player_help() -> String {
    let mut sides: Vec<(String, Vec<&str>)> = Vec::new();
    for r in Rules::ALL {
        let pair = format!("{} and {}", r.side_name(Side::A), r.side_name(Side::B));
        match sides.iter_mut().find(|(p, _)| *p == pair) {
            Some((_, games)) => games.push(r.slug()),
            None => sides.push((pair, vec![r.slug()])),
        }
    }
    let sides: Vec<String> = sides
        .iter()
        .map(|(pair, games)| format!("{pair} in {}", games.join(", ")))
        .collect();
    format!(
        "A player: the side, `=`, and a mail address (`black=alice@example.org`, \
         `red=Bob <bob@example.org>`). Give it once for each side: {}",
        sides.join("; ")
    )
}

/// `pbem new --first`'s description: which games need it.
fn first_help() -> String {
    let (choose, fixed): (Vec<Rules>, Vec<Rules>) =
        Rules::ALL.iter().partition(|r| r.fixed_first().is_none());
    let fixed: Vec<String> = fixed
        .iter()
        .filter_map(|r| {
            r.fixed_first()
                .map(|s| format!("{} in {}", r.side_name(s), r.slug()))
        })
        .collect();
    format!(
        "The side that moves first. Needed where the players choose: {}. \
         Elsewhere the rules say, and --first may only repeat it: {}",
        choose
            .iter()
            .map(|r| r.slug())
            .collect::<Vec<_>>()
            .join(", "),
        fixed.join(", ")
    )
}

/// What an admin's command whose commit failed with `e` says: whether
/// its record got in (`done` says what that means), and with it the
/// mails, which then wait in the outbox for the next `pbem poll`; or
/// nothing was done. Exit status 1.
fn cut_short(
    command: &str,
    server: &Server,
    made: &Made,
    e: &store::StoreError,
    done: &str,
) -> i32 {
    match server.store.made(made) {
        Ok(true) => eprintln!(
            "pbem {command}: {e}; {done}, and its mails wait in the outbox: the next `pbem poll` \
             sends them"
        ),
        Ok(false) => eprintln!("pbem {command}: {e}; nothing was done"),
        Err(e2) => eprintln!(
            "pbem {command}: {e}; whether it got in is not known ({e2}): `pbem games` says, and \
             the next `pbem poll` sends its mails if it did"
        ),
    }
    1
}

/// Whether game `id` is the one `pbem new` was asked to start: the same
/// game, players, first side and clock.
fn started_already(
    store: &store::Store,
    id: &str,
    rules: Rules,
    first: Option<Side>,
    players: &PerSide<String>,
    clock: Option<crate::timecontrol::TimeControl>,
) -> anyhow::Result<bool> {
    let Ok(Some(rec)) = store.record(id) else {
        return Ok(false);
    };
    let stored_clock = store.clock(id).ok().flatten().map(|c| c.state.control);
    Ok(rec.rules == rules
        && rec.first == first
        && rec.players == players.clone().map(|_, p| Some(p))
        && stored_clock == clock)
}

/// Play a move in a game as the admin (for the side to move), write the
/// record, and mail both players. GAME is a game id in the data folder,
/// or the path of its record there (`DATA/games/<id>.toml`).
///
/// A move that is the game's last move already, played by the admin, is
/// refused: an earlier `pbem move` got it in (and was cut short, or its
/// output lost), and its mails are sent. `--ply N` plays it again all the
/// same as move N, and makes a command that can be run twice: when move N
/// is this move already, nothing is done (exit 0).
///
/// Examples:
///   pbem move bz-7k2qa 22-15
///   pbem move bz-7k2qa 22-15 --ply 7
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Move {
    /// The game's id (or the path of its record in the data folder).
    #[arg(value_name = "GAME")]
    game: String,
    /// The move, in any accepted notation.
    #[arg(value_name = "MOVE")]
    mv: String,
    /// Play the move only as move number N (the moves in the record + 1);
    /// when move N is this move already, do nothing.
    #[arg(long, value_name = "N")]
    ply: Option<u32>,
    #[command(flatten)]
    config: ConfigArg,
}

impl Move {
    pub fn execute(self) -> anyhow::Result<i32> {
        let server = Server::new(self.config.load()?)?;
        let id = match game_id(&self.game, &server.store) {
            Ok(id) => id,
            Err(e) => {
                eprintln!("pbem move: {e}");
                return Ok(2);
            }
        };
        let now = crate::clock::now();
        // Held until the mails are out (see `Server::commit_command`).
        let _lock = server.store.lock(true)?;
        // What a command or a poll cut short left: its mails released
        // (a move that got in is in the record, which the check of
        // `played` below sees) or thrown away.
        server.recover(now)?;
        let mut rec = match server.store.record(&id) {
            Ok(Some(r)) => r,
            Ok(None) => {
                eprintln!(
                    "pbem move: no game {id} in {}",
                    server.store.root().display()
                );
                return Ok(2);
            }
            Err(e @ store::StoreError::Record { .. }) => {
                eprintln!("{e}");
                return Ok(1);
            }
            Err(e) => return Err(e.into()),
        };
        let played =
            crate::with_game!(rec.rules, G => play_admin::<G>(&mut rec, &self.mv, self.ply, now));
        let board = match played {
            Ok(Played::Now(b)) => b,
            Ok(Played::Already(what)) => {
                let report = server.flush();
                out!("{id}: {what}; nothing done");
                return Ok(if report.send_errors.is_empty() { 0 } else { 1 });
            }
            Ok(Played::Again(why)) => {
                // Its mails go now, if the run that played it could not
                // send them.
                server.flush();
                eprintln!("pbem move: {why}");
                return Ok(1);
            }
            Err(e) => {
                eprintln!("pbem move: {e}");
                return Ok(1);
            }
        };
        // The record and the clock in one batch, put on disk with the
        // mails: a crash leaves the move with its mails,
        // or neither.
        let batch = server.store.batch()?;
        let record = record::write::to_string(&rec);
        batch.write_game(&id, &record)?;
        let adj = Adjudicator {
            desk: Desk::new(&batch),
            draw: &OsRandom,
            identity: &server.identity,
            templates: &server.templates,
            now,
            challenges: server.config.limits.challenges(),
        };
        let (replies, effects) = adj.decide(|a| a.news_of(&id))?;
        batch.apply_effects(&effects)?;
        let key = format!("move:{id}:{}", rec.lines.len());
        let made = Made::new(&id, &record);
        let report = match server.commit_command(&batch, &key, &replies, &made, now) {
            Ok(r) => r,
            Err(e) => return Ok(cut_short("move", &server, &made, &e, "the move is played")),
        };
        out!("{board}");
        Ok(if report.send_errors.is_empty() { 0 } else { 1 })
    }
}

/// The id of the game `arg` names: an id, or the path of a record in the
/// data folder's `games/`. A record anywhere else is refused rather than
/// taken for the data folder's game of the same name: the admin would
/// think they had changed the file they named.
fn game_id(arg: &str, store: &store::Store) -> anyhow::Result<String> {
    if !arg.contains('/') && !arg.ends_with(".toml") {
        return if store::valid_id(arg) {
            Ok(arg.to_string())
        } else {
            Err(anyhow::anyhow!(
                "`{arg}` is not a game id (lower-case letters, digits and dashes)"
            ))
        };
    }
    let path = Path::new(arg);
    let games = store.root().join("games");
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let in_games = matches!(
        (folder.canonicalize(), games.canonicalize()),
        (Ok(a), Ok(b)) if a == b
    );
    match path.file_stem().and_then(|s| s.to_str()) {
        Some(id)
            if in_games && path.extension().is_some_and(|x| x == "toml") && store::valid_id(id) =>
        {
            Ok(id.to_string())
        }
        _ => Err(anyhow::anyhow!(
            "{arg} is not a record in the data folder ({}); name the game by its id",
            games.display()
        )),
    }
}
