//! The admin's commands: start a game, list games, play a move.

use super::out;
use super::server::{ConfigArg, Server};
use crate::adjudicate::{Adjudicator, mailbox};
use crate::game::{self, Game, Side, View};
use crate::record::{self, Entry, MoveLine, Record};
use crate::rules::Rules;
use crate::store;
use clap::Args;
use std::collections::BTreeMap;
use std::path::Path;

/// Start a game between two players and mail them both the board.
///
/// Name each side's player with the side's option (the options that exist
/// depend on the game: `pbem rules GAME` names its sides).
///
/// Examples:
///   pbem new boom-and-zoom --black alice@example.org --red "Bob <bob@example.org>" --first red
///   pbem new mad-rooks --red alice@example.org --blue bob@example.org
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct New {
    /// The game.
    #[arg(value_name = "GAME")]
    game: Rules,
    #[arg(long, value_name = "EMAIL")]
    black: Option<String>,
    #[arg(long, value_name = "EMAIL")]
    red: Option<String>,
    #[arg(long, value_name = "EMAIL")]
    blue: Option<String>,
    #[arg(long, value_name = "EMAIL")]
    white: Option<String>,
    #[arg(long, value_name = "EMAIL")]
    guerrilla: Option<String>,
    #[arg(long, value_name = "EMAIL")]
    coin: Option<String>,
    /// The side that moves first (for games where the players choose).
    #[arg(long, value_name = "SIDE")]
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

impl New {
    pub fn execute(self) -> anyhow::Result<i32> {
        let rules = self.game;
        let given = [
            ("black", &self.black),
            ("red", &self.red),
            ("blue", &self.blue),
            ("white", &self.white),
            ("guerrilla", &self.guerrilla),
            ("coin", &self.coin),
        ];
        let mut players = BTreeMap::new();
        for (side, email) in given {
            let Some(email) = email else { continue };
            if rules.side_named(side).is_none() {
                eprintln!(
                    "pbem new: {} has no side {side}; its sides are {} and {}",
                    rules.name(),
                    rules.side_name(Side::A),
                    rules.side_name(Side::B)
                );
                return Ok(2);
            }
            let addr = crate::adjudicate::address_of(email);
            if addr.parse::<lettre::Address>().is_err() {
                eprintln!("pbem new: --{side} {email}: not a mail address");
                return Ok(2);
            }
            if let Some(why) = crate::adjudicate::unmailable(&addr) {
                eprintln!("pbem new: --{side} {email}: pbem cannot write to it: {why}");
                return Ok(2);
            }
            let name = email
                .split('<')
                .next()
                .map(str::trim)
                .filter(|n| !n.is_empty() && email.contains('<'));
            players.insert(side.to_string(), mailbox(name, &addr));
        }
        for s in Side::BOTH {
            if !players.contains_key(rules.side_name(s)) {
                eprintln!(
                    "pbem new: who plays {}? add --{} EMAIL",
                    rules.side_name(s),
                    rules.side_name(s)
                );
                return Ok(2);
            }
        }
        let first = match (&self.first, rules.fixed_first()) {
            (None, None) => {
                eprintln!(
                    "pbem new: in {} the players choose who moves first: add --first {} or --first {}",
                    rules.name(),
                    rules.side_name(Side::A),
                    rules.side_name(Side::B)
                );
                return Ok(2);
            }
            (None, fixed) => fixed,
            (Some(f), fixed) => match rules.side_named(f) {
                Some(s) if fixed.is_none_or(|x| x == s) => Some(s),
                Some(_) => {
                    eprintln!(
                        "pbem new: in {} {} moves first",
                        rules.name(),
                        rules.side_name(fixed.unwrap_or(Side::A))
                    );
                    return Ok(2);
                }
                None => {
                    eprintln!("pbem new: --first {f}: not a side of {}", rules.name());
                    return Ok(2);
                }
            },
        };
        let id = match &self.id {
            Some(id) if store::valid_id(id) => id.clone(),
            Some(id) => {
                eprintln!("pbem new: --id {id}: use lower-case letters, digits and dashes (2-40)");
                return Ok(2);
            }
            None => store::new_game_id(crate::adjudicate::id_prefix(rules))?,
        };
        let server = Server::new(self.config.load()?)?;
        let _lock = server.store.lock(true)?;
        if server.store.id_taken(&id)? {
            // A usage error like the others: nothing is touched.
            eprintln!("pbem new: a game {id} exists already; choose another --id");
            return Ok(2);
        }
        let now = crate::clock::now();
        let adj = Adjudicator {
            store: &server.store,
            identity: &server.identity,
            templates: &server.templates,
            now,
        };
        adj.start_game(&id, rules, first, players, self.clock)?;
        let replies = adj.started(&id)?;
        drop(_lock);
        let report = server.queue(&format!("new:{id}"), &replies, now)?;
        out!(
            "started {id}: {} ({})",
            rules.name(),
            server.store.game_path(&id)?.display()
        );
        Ok(if report.send_errors.is_empty() { 0 } else { 1 })
    }
}

/// List the games in the data folder: id, game, players, state; then the
/// challenges not yet answered. Exits 1 when a record is damaged.
///
/// Examples:
///   pbem games
///   pbem games --json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Games {
    #[command(flatten)]
    config: ConfigArg,
    /// One JSON object per line for each game and challenge (`kind`).
    #[arg(long)]
    json: bool,
}

impl Games {
    pub fn execute(self) -> anyhow::Result<i32> {
        let config = self.config.load()?;
        let store = store::Store::open(&config.data)?;
        let mut bad = 0;
        for id in store.game_ids()? {
            let Some(text) = store.read_game(&id)? else {
                continue;
            };
            let name = format!("{id}.toml");
            let checked = Record::parse(&name, &text)
                .and_then(|r| super::validate_record(&r).map(|c| (r, c)));
            let (rec, c) = match checked {
                Ok(x) => x,
                Err(e) => {
                    bad += 1;
                    if self.json {
                        out!(
                            "{}",
                            serde_json::json!({"id": id, "kind": "game", "state": "damaged", "error": e.to_string()})
                        );
                    } else {
                        out!("{id:<16} DAMAGED  [{e}]");
                    }
                    continue;
                }
            };
            let plural = if c.moves == 1 { "" } else { "s" };
            if self.json {
                out!(
                    "{}",
                    serde_json::json!({
                        "id": id, "kind": "game", "rules": rec.rules.slug(), "game": rec.rules.name(),
                        "players": rec.players, "first": rec.rules.side_name(rec.first_side()),
                        "state": if c.result == "*" { "in play" } else { "over" },
                        "result": c.result, "moves": c.moves,
                    })
                );
            } else {
                let players = rec
                    .players
                    .iter()
                    .map(|(s, p)| format!("{s}: {p}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let state = if c.result == "*" {
                    format!("in play, {} move{plural}", c.moves)
                } else {
                    format!("{} ({} move{plural})", c.result, c.moves)
                };
                out!("{id:<16} {:<20} {players}  [{state}]", rec.rules.name());
            }
        }
        for id in store.challenge_ids()? {
            let c = match store.challenge(&id) {
                Ok(Some(c)) => c,
                Ok(None) => continue,
                Err(e) => {
                    bad += 1;
                    if self.json {
                        out!(
                            "{}",
                            serde_json::json!({"id": id, "kind": "challenge", "state": "damaged", "error": e.to_string()})
                        );
                    } else {
                        out!("{id:<16} DAMAGED  [{e}]");
                    }
                    continue;
                }
            };
            let game = c
                .rules
                .parse::<Rules>()
                .map(Rules::name)
                .unwrap_or(c.rules.as_str());
            if self.json {
                out!(
                    "{}",
                    serde_json::json!({
                        "id": id, "kind": "challenge", "rules": c.rules, "game": game,
                        "challenger": c.challenger, "challenger_side": c.challenger_side,
                        "opponent": c.opponent, "first": c.first, "state": "not answered",
                    })
                );
            } else {
                out!(
                    "{id:<16} {game:<20} challenge from {} to {}, not answered",
                    c.challenger,
                    c.opponent
                );
            }
        }
        Ok(if bad == 0 { 0 } else { 1 })
    }
}

/// Play a move in a game as the admin (for the side to move), write the
/// record, and mail both players. GAME is a game id in the data folder,
/// or the path of its record there (`DATA/games/<id>.toml`).
///
/// Examples:
///   pbem move bz-7k2qa 22-15
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Move {
    /// The game's id (or the path of its record in the data folder).
    #[arg(value_name = "GAME")]
    game: String,
    /// The move, in any accepted notation.
    #[arg(value_name = "MOVE")]
    mv: String,
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
        let lock = server.store.lock(true)?;
        let Some(text) = server.store.read_game(&id)? else {
            eprintln!(
                "pbem move: no game {id} in {}",
                server.store.root().display()
            );
            return Ok(2);
        };
        let mut rec = match Record::parse(&format!("{id}.toml"), &text) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                return Ok(1);
            }
        };
        let now = crate::clock::now();
        let played = crate::with_game!(rec.rules, G => play_admin::<G>(&mut rec, &self.mv, now));
        let board = match played {
            Ok(b) => b,
            Err(e) => {
                eprintln!("pbem move: {e}");
                return Ok(1);
            }
        };
        server
            .store
            .write_game(&id, &record::write::to_string(&rec))?;
        let adj = Adjudicator {
            store: &server.store,
            identity: &server.identity,
            templates: &server.templates,
            now,
        };
        let replies = adj.news_of(&id)?;
        drop(lock);
        let report = server.queue(&format!("move:{id}:{}", rec.lines.len()), &replies, now)?;
        out!("{board}");
        Ok(if report.send_errors.is_empty() { 0 } else { 1 })
    }
}

/// The id of the game `arg` names: an id, or the path of a record in the
/// data folder's `games/`. A record anywhere else is refused rather than
/// taken for the data folder's game of the same name: the admin would
/// think they had changed the file they named.
fn game_id(arg: &str, store: &store::Store) -> Result<String, String> {
    if !arg.contains('/') && !arg.ends_with(".toml") {
        return if store::valid_id(arg) {
            Ok(arg.to_string())
        } else {
            Err(format!(
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
        _ => Err(format!(
            "{arg} is not a record in the data folder ({}); name the game by its id",
            games.display()
        )),
    }
}

fn play_admin<G: Game>(
    rec: &mut Record,
    text: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<String, String> {
    let replayed = record::replay::<G>(rec).map_err(|e| e.to_string())?;
    if let Some(end) = &replayed.end {
        return Err(format!("the game is over ({})", end.reason));
    }
    let pos = replayed.position();
    let m = game::parse_move(pos, text).map_err(|e| e.to_string())?;
    let ply = replayed.moves.len() as u32 + 1;
    rec.lines.push(MoveLine {
        line: 0,
        number: Some(ply),
        side: Some(pos.turn()),
        entry: Entry::Move(game::canonical(pos, m)),
        time: Some(now.fixed_offset()),
        message_id: None,
    });
    // Replayed without the old `result` ("*"), which a move that ends the
    // game makes wrong; the new one is set from the replay.
    let after = record::replay::<G>(&Record {
        result: None,
        ..rec.clone()
    })
    .map_err(|e| e.to_string())?;
    rec.result = Some((after.result().to_string(), 0));
    Ok(after.position().diagram(&View {
        last: after.moves.last().cloned(),
        seat: None,
        ply: after.moves.len(),
        ..View::default()
    }))
}
