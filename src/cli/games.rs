//! The games: `pbem games`, the list of the data folder's games ([`List`]),
//! and how the CLI reads a game's name: every command that takes a game
//! takes it through [`Games`], so its help lists the games from the
//! engine's registry (`[possible values: boom-and-zoom, ...]`) and no list
//! of games is typed by hand.

use super::server::ConfigArg;
use crate::game;
use crate::rules::Rules;
use crate::store::index::{ClockSummary, GameFacts, GameSummary, Refresh};
use crate::store::{self, Store};
use clap::Args;
use clap::builder::{PossibleValue, TypedValueParser};
use std::ffi::OsStr;
use std::io::{BufWriter, StdoutLock, Write};
use std::time::Instant;

/// Reads a game's slug or name (`mad-rooks`, `Boom & Zoom`, `M.A.D.`, as
/// [`Rules`]'s `FromStr` accepts them) and names every game's slug as a
/// possible value, for the help, the man pages and the shell completions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Games;

impl TypedValueParser for Games {
    type Value = Rules;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Rules, clap::Error> {
        // clap's own reading of a `FromStr` value: the same error, which
        // quotes the value and lists the games.
        let from_str = |s: &str| s.parse::<Rules>();
        from_str.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Rules::ALL.into_iter().map(|r| PossibleValue::new(r.slug())),
        ))
    }
}

/// List the games in the data folder: id, game, players, state; then the
/// challenges not yet answered. Exits 1 when a record is damaged.
///
/// The games come from their index, DATA/index/games.idx, which pbem
/// keeps with the records: a record the index holds no summary of, or
/// one changed since its summary was written (a crash, an edit by hand),
/// is read and replayed, and the index mended. --rebuild reads and
/// replays every record (and reads every clock) and writes the indexes
/// anew; it waits for a running poll. Long work says how far it is on
/// standard error.
///
/// Examples:
///   pbem games
///   pbem games --json
///   pbem games --rebuild
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct List {
    #[command(flatten)]
    config: ConfigArg,
    /// One JSON object per line for each game and challenge (`kind`).
    #[arg(long)]
    json: bool,
    /// Read every record and clock again and write their indexes anew.
    #[arg(long)]
    rebuild: bool,
}

/// Files read before [`Progress`] says how far it is.
const LONG_WORK: usize = 2000;

/// How far the reading of files has come, on standard error, about once
/// a second, for long work only.
struct Progress {
    what: &'static str,
    /// Why they are read: every one (--rebuild), or those the index
    /// vouches for no longer.
    all: bool,
    last: Option<Instant>,
}

impl Progress {
    fn new(what: &'static str, all: bool) -> Progress {
        Progress {
            what,
            all,
            last: None,
        }
    }

    fn tell(&mut self, done: usize, total: usize) {
        if total < LONG_WORK {
            return;
        }
        let what = self.what;
        match self.last {
            None => {
                let why = if self.all {
                    "to write the index anew"
                } else {
                    "the index holds no summary of (a new or damaged index?)"
                };
                eprintln!("pbem games: reading {total} {what} {why}");
                self.last = Some(Instant::now());
            }
            Some(_) if done == total => eprintln!("pbem games: read {total} {what}"),
            Some(t) if t.elapsed().as_secs() >= 1 => {
                eprintln!("pbem games: {done} of {total} {what} read");
                self.last = Some(Instant::now());
            }
            Some(_) => {}
        }
    }
}

impl List {
    pub fn execute(self) -> anyhow::Result<i32> {
        let config = self.config.load()?;
        let store = Store::open(&config.data)?;
        let me = config.identity();
        let games = self.summaries(&store)?;
        for p in &games.problems {
            eprintln!("pbem games: {p}");
        }
        let challenges: Vec<_> = store
            .challenge_ids()?
            .into_iter()
            .map(|id| {
                let c = store.challenge(&id);
                (id, c)
            })
            .collect();
        // People by their names, as pbem names them in its mails, from a
        // view that lists the players' files once.
        let listing = store.listing()?;
        let named = |m: &str| crate::adjudicate::known_name(&listing, &me, m);
        // The id and game columns are as wide as their longest entry (an
        // id has no fixed length), so every line's columns line up.
        let game_of = |g: &GameSummary| match g {
            GameSummary::Game(f) => f.rules.name(),
            GameSummary::Damaged(_) => DAMAGED,
        };
        let width = |w: &mut (usize, usize), id: &str, game: &str| {
            *w = (w.0.max(id.chars().count()), w.1.max(game.chars().count()));
        };
        let mut widths = (0, 0);
        for (id, g) in &games.items {
            width(&mut widths, id, game_of(g));
        }
        for (id, c) in &challenges {
            let game = c
                .as_ref()
                .map_or(DAMAGED, |c| c.as_ref().map_or("", |c| c.rules.name()));
            width(&mut widths, id, game);
        }
        let mut out = Out {
            json: self.json,
            widths,
            to: BufWriter::new(std::io::stdout().lock()),
        };
        let mut bad = 0;
        for (id, game) in &games.items {
            match game {
                GameSummary::Game(f) => out.game(id, f, &named)?,
                GameSummary::Damaged(e) => {
                    bad += 1;
                    out.damaged(id, "game", e)?;
                }
            }
        }
        for (id, c) in &challenges {
            match c {
                Ok(Some(c)) => out.challenge(id, c, &named)?,
                Ok(None) => {}
                Err(e) => {
                    bad += 1;
                    out.damaged(id, "challenge", &e.to_string())?;
                }
            }
        }
        out.to.flush()?;
        Ok(if bad == 0 { 0 } else { 1 })
    }

    /// Every game's summary, from the index (every record read again
    /// with --rebuild, and the clocks too, under the lock).
    fn summaries(&self, store: &Store) -> anyhow::Result<store::index::Listing<GameSummary>> {
        let mut progress = Progress::new("records", self.rebuild);
        let mut tell = |done, total| progress.tell(done, total);
        if !self.rebuild {
            return Ok(store.summaries(Refresh::Stale, &mut tell)?);
        }
        let _lock = store.lock(true)?;
        let mut clocks = Progress::new("clocks", true);
        store.summaries::<ClockSummary>(Refresh::All, &mut |d, t| clocks.tell(d, t))?;
        Ok(store.summaries(Refresh::All, &mut tell)?)
    }
}

/// The game column of a record or challenge that does not read.
const DAMAGED: &str = "DAMAGED";

/// `pbem games`'s output, a line at a time: JSON, or text whose id and
/// game columns are `widths` wide.
struct Out<'a> {
    json: bool,
    widths: (usize, usize),
    /// Buffered: a line at a time, 100,000 games took a write each.
    to: BufWriter<StdoutLock<'a>>,
}

impl Out<'_> {
    /// The id and game columns of a line of text.
    fn columns(&mut self, id: &str, game: &str) -> std::io::Result<()> {
        let (id_w, game_w) = self.widths;
        write!(self.to, "{id:<id_w$}  {game:<game_w$}  ")
    }

    fn damaged(&mut self, id: &str, kind: &str, e: &str) -> anyhow::Result<()> {
        if self.json {
            let line = serde_json::json!({"id": id, "kind": kind, "state": "damaged", "error": e});
            writeln!(self.to, "{line}")?;
        } else {
            self.columns(id, DAMAGED)?;
            writeln!(self.to, "[{e}]")?;
        }
        Ok(())
    }

    fn game(
        &mut self,
        id: &str,
        f: &GameFacts,
        name: &dyn Fn(&str) -> String,
    ) -> anyhow::Result<()> {
        let rules = f.rules;
        if self.json {
            let line = serde_json::json!({
                "id": id, "kind": "game", "rules": rules.slug(), "game": rules.name(),
                "players": f.named_players(), "first": rules.side_name(f.first),
                "state": if f.result.is_over() { "over" } else { "in play" },
                "result": f.result.word(rules), "moves": f.moves,
            });
            writeln!(self.to, "{line}")?;
            return Ok(());
        }
        self.columns(id, rules.name())?;
        for (i, (side, p)) in f.named_players().into_iter().enumerate() {
            let comma = if i == 0 { "" } else { ", " };
            write!(self.to, "{comma}{side}: {}", name(p))?;
        }
        let (n, s) = (f.moves, if f.moves == 1 { "" } else { "s" });
        // The result in words: the winner by their side's name.
        match f.result.outcome() {
            None => writeln!(self.to, "  [in play, {n} move{s}]"),
            Some(game::Outcome::Draw) => writeln!(self.to, "  [drawn ({n} move{s})]"),
            Some(game::Outcome::Win(side)) => {
                let winner = rules.side_name(side);
                writeln!(self.to, "  [{winner} won ({n} move{s})]")
            }
        }?;
        Ok(())
    }

    fn challenge(
        &mut self,
        id: &str,
        c: &store::Challenge,
        name: &dyn Fn(&str) -> String,
    ) -> anyhow::Result<()> {
        let game = c.rules.name();
        if self.json {
            let line = serde_json::json!({
                "id": id, "kind": "challenge", "rules": c.rules.slug(), "game": game,
                "challenger": c.challenger, "challenger_side": c.rules.side_name(c.challenger_side),
                "opponent": c.opponent, "first": c.rules.side_name(c.first), "state": "not answered",
            });
            writeln!(self.to, "{line}")?;
        } else {
            self.columns(id, game)?;
            let (from, to) = (name(&c.challenger), name(&c.opponent));
            writeln!(self.to, "challenge from {from} to {to}, not answered")?;
        }
        Ok(())
    }
}
