//! `pbem suggest` and `pbem match`: the bot from the command
//! line, on top of [`pbem_engine::bot`].

use super::{Source, out};
use crate::rules::Rules;
use clap::Args;
use pbem_engine::bot::arena::{self, MatchSpec, Player, Score, Spent};
use pbem_engine::bot::{self, Budget, Level, Limits, SuggestError};
use serde_json::json;
use std::time::Duration;

/// Exit code of `suggest` when the game is over: there is no move.
const GAME_OVER: i32 = 3;

/// Print the move the bot would play at the end of a record.
///
/// The move is printed alone on a line, in the game's canonical
/// notation (as `pbem moves` lists it). With --nodes the search is
/// bounded by positions visited instead of time, and the same --seed
/// gives the same move every time.
///
/// Exit status: 0 a move printed; 1 a bad record; 2 bad arguments; 3 the
/// game is over (nothing printed on standard output, the reason on
/// standard error; with --json, "move": null and the reason).
///
/// Examples:
///   pbem suggest engine/src/games/mad/mad-in-play.toml
///   pbem suggest engine/src/games/embed/embed-in-play.toml --think-ms 3000 --json
///   pbem suggest engine/src/games/mad/mad-in-play.toml --nodes 20000 --seed 7
///   printf '34/43,33/42\n20-11\n' | pbem suggest --rules guerrilla-checkers -
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Suggest {
    /// The record (`-` reads standard input).
    #[arg(value_name = "FILE")]
    file: String,
    #[command(flatten)]
    source: Source,
    #[command(flatten)]
    think: Think,
    /// Seeds the order in which equally good moves are tried.
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
    /// Print JSON: the move, think_ms, nodes, depth, score, ...
    #[arg(long)]
    json: bool,
}

/// How long the bot thinks for a move.
#[derive(Args, Debug, Clone)]
pub struct Think {
    /// Think this many milliseconds for a move.
    #[arg(long, value_name = "MS", default_value_t = 250)]
    think_ms: u64,
    /// Search this many positions for a move instead of a time:
    /// deterministic (with --seed).
    #[arg(long, value_name = "N", conflicts_with = "think_ms")]
    nodes: Option<u64>,
    /// The bot's level, 1 to 3: the share of the budget it uses (1/9,
    /// 1/3, all).
    #[arg(long, value_name = "N", default_value_t = Level::MAX)]
    level: Level,
}

impl Think {
    fn budget(&self) -> Budget {
        match self.nodes {
            Some(n) => Budget::Nodes(n.max(1)),
            None => Budget::Time(Duration::from_millis(self.think_ms)),
        }
    }
}

fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e4).round() / 10.0
}

impl Suggest {
    pub fn execute(self) -> anyhow::Result<i32> {
        let Some(rec) = self.source.load_reported(&self.file) else {
            return Ok(1);
        };
        let limits = Limits {
            think: self.think.budget(),
            level: self.think.level,
        };
        match bot::suggest(&rec, &limits, self.seed) {
            Ok(s) => {
                let c = &s.choice;
                if self.json {
                    out!(
                        "{}",
                        json!({
                            "file": self.file,
                            "rules": rec.rules.slug(),
                            "turn": s.side,
                            "move": s.text,
                            "legal_moves": s.legal,
                            "think_ms": ms(c.think),
                            "nodes": c.nodes,
                            "depth": c.depth,
                            "score": c.score,
                            "proven": c.proven(),
                            "level": self.think.level.number(),
                            "seed": self.seed,
                        })
                    );
                } else {
                    out!("{}", s.text);
                }
                Ok(0)
            }
            Err(SuggestError::Record(e)) => {
                eprintln!("{e}");
                Ok(1)
            }
            Err(SuggestError::Over(end)) => {
                if self.json {
                    out!(
                        "{}",
                        json!({
                            "file": self.file,
                            "rules": rec.rules.slug(),
                            "move": null,
                            "over": end.reason,
                        })
                    );
                }
                eprintln!("{}: {}", self.file, SuggestError::Over(end));
                Ok(GAME_OVER)
            }
        }
    }
}

/// Play bots against each other and print the score.
///
/// Each player is the bot at a level (1, 2, 3; `bot` is 3), plain UCT
/// with random playouts (`uct`, the baseline the bot is measured
/// against) or a uniformly random player (`random`). The players swap
/// sides every game; where the players choose who moves first, both
/// sides move first in turn. A game still going after --max-plies moves
/// stops and counts as a draw.
///
/// Examples:
///   pbem match mad --bot 3 --bot uct --games 20 --think-ms 50
///   pbem match embed --bot 1 --bot 3 --games 10 --nodes 5000 --json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Match {
    /// The game.
    #[arg(value_name = "GAME", value_parser = super::games::Games)]
    game: Rules,
    /// A player, twice: 1, 2, 3 (the bot's level), uct, random.
    #[arg(long = "bot", value_name = "PLAYER", num_args = 1, required = true)]
    bots: Vec<Player>,
    /// How many games.
    #[arg(long, value_name = "N", default_value_t = 10)]
    games: u32,
    #[command(flatten)]
    think: MatchThink,
    /// Seeds the games (the same seed and --nodes: the same games).
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Stop a game after this many moves, as a draw.
    #[arg(long, value_name = "N", default_value_t = arena::MAX_PLIES)]
    max_plies: usize,
    /// Games played at once (each on one thread); no more than the games
    /// nor the machine's cores.
    #[arg(long, value_name = "N", default_value_t = 2)]
    threads: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// How long each player thinks for a move.
#[derive(Args, Debug, Clone)]
pub struct MatchThink {
    /// Think this many milliseconds for a move.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    think_ms: u64,
    /// Search this many positions (UCT: playouts) for a move instead.
    #[arg(long, value_name = "N", conflicts_with = "think_ms")]
    nodes: Option<u64>,
}

/// The threads a match is played on: as many as asked, but no more than
/// it has games (one more would have nothing to play) nor than the
/// machine has cores (the games are bound by CPU: more threads only share
/// them, and each costs a stack), and at least one.
fn match_threads(asked: usize, games: u32, cores: usize) -> usize {
    let games = usize::try_from(games).unwrap_or(usize::MAX);
    asked.min(games).min(cores).max(1)
}

/// The cores this process may use (one when the OS does not say).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

impl Match {
    pub fn execute(self) -> anyhow::Result<i32> {
        let [a, b] = self.bots[..] else {
            eprintln!(
                "--bot is given {} time{}: name exactly two players, like --bot 3 --bot uct",
                self.bots.len(),
                if self.bots.len() == 1 { "" } else { "s" }
            );
            return Ok(2);
        };
        let think = match self.think.nodes {
            Some(n) => Budget::Nodes(n.max(1)),
            None => Budget::Time(Duration::from_millis(self.think.think_ms)),
        };
        let spec = MatchSpec {
            players: [a, b],
            games: self.games,
            think,
            seed: self.seed,
            max_plies: self.max_plies,
            threads: match_threads(self.threads, self.games, cores()),
        };
        let score = crate::with_game!(self.game, G => arena::play_match::<G>(&spec, &|_, _| {}));
        self.print(&spec, &score)?;
        Ok(0)
    }

    fn print(&self, spec: &MatchSpec, s: &Score) -> anyhow::Result<()> {
        let [a, b] = spec.players;
        let (pa, pb) = (
            s.wins as f64 + s.draws as f64 / 2.0,
            s.losses as f64 + s.draws as f64 / 2.0,
        );
        let speed = |sp: &Spent| {
            let secs = sp.think.as_secs_f64();
            (
                sp.nodes as f64 / secs.max(1e-9),
                1000.0 * secs / sp.moves.max(1) as f64,
            )
        };
        if self.json {
            let player = |p: Player, w, d, l, points, sp: &Spent| {
                let (nps, msm) = speed(sp);
                json!({"player": p.to_string(), "wins": w, "draws": d, "losses": l,
                       "points": points, "moves": sp.moves, "nodes_per_s": nps.round(),
                       "ms_per_move": (msm * 10.0).round() / 10.0})
            };
            out!(
                "{}",
                json!({
                    "game": self.game.slug(),
                    "games": s.games(),
                    "capped": s.capped,
                    "max_plies": spec.max_plies,
                    "players": [
                        player(a, s.wins, s.draws, s.losses, pa, &s.spent[0]),
                        player(b, s.losses, s.draws, s.wins, pb, &s.spent[1]),
                    ],
                })
            );
            return Ok(());
        }
        let budget = match spec.think {
            Budget::Time(t) => format!("{} ms a move", t.as_millis()),
            Budget::Nodes(n) => format!("{n} nodes a move"),
        };
        out!(
            "{}: {a} against {b}, {} games, {budget}",
            self.game.slug(),
            s.games()
        );
        let games = s.games().max(1) as f64;
        for (p, w, l, points, sp) in [
            (a, s.wins, s.losses, pa, &s.spent[0]),
            (b, s.losses, s.wins, pb, &s.spent[1]),
        ] {
            let (nps, msm) = speed(sp);
            out!(
                "{p:<7} {points:>5}  ({w} won, {} drawn, {l} lost: {:.1}%)  {nps:.0} nodes/s, {msm:.1} ms a move",
                s.draws,
                100.0 * points / games
            );
        }
        if s.capped > 0 {
            out!(
                "{} game{} stopped at {} moves, counted as drawn",
                s.capped,
                if s.capped == 1 { "" } else { "s" },
                spec.max_plies
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::match_threads;

    #[test]
    fn a_match_has_no_more_threads_than_games_or_cores() {
        assert_eq!(match_threads(100_000, 2, 8), 2, "the games");
        assert_eq!(match_threads(100_000, 1_000, 8), 8, "the cores");
        assert_eq!(match_threads(3, 1_000, 8), 3, "as asked");
        assert_eq!(match_threads(0, 10, 8), 1, "at least one");
        assert_eq!(
            match_threads(4, 0, 8),
            1,
            "no games: one, which ends at once"
        );
        assert_eq!(match_threads(usize::MAX, u32::MAX, 2), 2);
    }
}
