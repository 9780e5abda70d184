//! `pbem tournament` and `pbem ratings`: tournaments made,
//! shown and listed by the admin; the ratings shown, and rebuilt from the
//! records alone.

use super::out;
use super::server::ConfigArg;
use crate::adjudicate::{MAX_TOURNAMENT_NAME, known_name, league_state, nearest, rebuild_ratings};
use crate::reply::{address_of, mailbox, mailbox_key, unmailable};
use crate::rules::Rules;
use crate::setup::Server;
use crate::store::league::TournamentFile;
use crate::store::{self, Store};
use crate::timecontrol::TimeControl;
use crate::timecontrol::format_deadline;
use chrono::{DateTime, Utc};
use clap::{Args, Subcommand};
use pbem_league::pairing::Format;
use pbem_league::standings::TieBreak;

/// Tournaments: make one (its players entered, or open to sign-up by
/// mail), show its standings, list them all.
///
/// Examples:
///   pbem tournament new spring-cup --game embed --player ann@x.org --player bob@y.org --player cy@z.org
///   pbem tournament new autumn --game mad --format swiss --rounds 4 --signup-until 7d --clock 3d
///   pbem tournament add autumn "Bob <bob@example.org>" cy@z.org
///   pbem tournament show spring-cup
///   pbem tournament list
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Tournament {
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand, Debug)]
enum Action {
    New(New),
    Add(Add),
    Show(Show),
    List(List),
}

/// Make a tournament. With players entered and no sign-up, round 1 is
/// paired, begun and mailed at once; with --signup-until, players send
/// `join NAME` until then, and the first poll after it begins round 1.
#[derive(Args, Debug)]
struct New {
    /// Its name: lower-case letters, digits and dashes (at most 30); the
    /// games are NAME-r1-1, NAME-r1-2...
    name: String,
    /// The game played.
    #[arg(long, value_parser = super::games::Games)]
    game: Rules,
    /// A player, `ann@example.org` or `"Ann <ann@example.org>"`
    /// (repeat; the order is the seeding).
    #[arg(long = "player", value_name = "ADDRESS")]
    players: Vec<String>,
    /// round-robin, double-round-robin or swiss.
    #[arg(long, default_value = "round-robin", value_parser = Format::parse)]
    format: Format,
    /// The rounds of a Swiss (default: enough for a winner, log2 of the
    /// players rounded up).
    #[arg(long)]
    rounds: Option<usize>,
    /// Every game's time control, as in `pbem new --clock`.
    #[arg(long, value_name = "CONTROL")]
    clock: Option<TimeControl>,
    /// Open sign-up by mail until then: a time (2026-12-01T18:00:00Z) or
    /// a while from now (7d, 12h).
    #[arg(long, value_name = "WHEN")]
    signup_until: Option<String>,
    /// A player who loses this many games on time drops out and forfeits
    /// the rest (0: never).
    #[arg(long, default_value_t = 2)]
    drop_after_timeouts: u32,
    /// Allow takebacks by agreement in its games (off by default; each
    /// player's requests per game as the settings' takebacks_per_game).
    #[arg(long)]
    takebacks: bool,
    /// Leave the ratings alone.
    #[arg(long)]
    unrated: bool,
    #[command(flatten)]
    config: ConfigArg,
}

/// Enter players into a tournament whose sign-up is open, as a `join`
/// by mail would: each keeps the name given here (`"Bob <bob@x.org>"`).
#[derive(Args, Debug)]
struct Add {
    /// The tournament.
    name: String,
    /// The players, `ann@example.org` or `"Ann <ann@example.org>"`.
    #[arg(value_name = "PLAYER", required = true)]
    players: Vec<String>,
    #[command(flatten)]
    config: ConfigArg,
}

/// A tournament's standings, rounds and games.
#[derive(Args, Debug)]
struct Show {
    name: String,
    /// One JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    config: ConfigArg,
}

/// Every tournament: name, game, format, players, state.
#[derive(Args, Debug)]
struct List {
    /// One JSON object per line.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    config: ConfigArg,
}

impl Tournament {
    pub fn execute(self) -> anyhow::Result<i32> {
        match self.action {
            Action::New(c) => c.execute(),
            Action::Add(c) => c.execute(),
            Action::Show(c) => c.execute(),
            Action::List(c) => c.execute(),
        }
    }
}

/// Player `p` ("Name <address>" or an address) as `pbem tournament
/// COMMAND` enters them beside `players`: their mailbox, the name given
/// kept; or why not (no address, one pbem cannot write to, one entered).
fn entrant(command: &str, players: &[String], p: &str) -> anyhow::Result<String> {
    let addr = address_of(p);
    if addr.parse::<lettre::Address>().is_err() {
        anyhow::bail!("pbem tournament {command}: {p}: not a mail address");
    }
    if let Some(why) = unmailable(&addr) {
        anyhow::bail!("pbem tournament {command}: {p}: pbem cannot write to it: {why}");
    }
    let key = mailbox_key(&addr);
    if players.iter().any(|q| mailbox_key(&address_of(q)) == key) {
        anyhow::bail!("pbem tournament {command}: {addr} is entered already");
    }
    let display = p
        .split('<')
        .next()
        .map(str::trim)
        .filter(|n| !n.is_empty() && p.contains('<'));
    Ok(mailbox(display, &addr))
}

impl Add {
    fn execute(self) -> anyhow::Result<i32> {
        let config = self.config.load()?;
        let store = Store::open(&config.data)?;
        let _lock = store.lock(true)?;
        let Some(mut t) = store.tournament(&self.name)? else {
            eprintln!(
                "pbem tournament add: {}",
                no_tournament(&store, &self.name)?
            );
            return Ok(2);
        };
        if t.over || !t.played.is_empty() {
            eprintln!(
                "pbem tournament add: {} has begun; players are entered before its first round",
                t.name
            );
            return Ok(2);
        }
        for p in &self.players {
            match entrant("add", &t.players, p) {
                Ok(m) => t.players.push(m),
                Err(usage) => {
                    eprintln!("{usage}; nothing done");
                    return Ok(2);
                }
            }
        }
        store.write_tournament(&t)?;
        let me = config.identity();
        let names: Vec<String> = t
            .players
            .iter()
            .map(|p| known_name(&store, &me, p))
            .collect();
        out!(
            "{}: {} players ({}); round 1 is paired at the first poll after {}",
            t.name,
            t.players.len(),
            names.join(", "),
            format_deadline(t.begins, None)
        );
        Ok(0)
    }
}

/// `7d`, `12h`, `30m`, `90s` from `now`, or an RFC 3339 time.
fn when(text: &str, now: DateTime<Utc>) -> anyhow::Result<DateTime<Utc>> {
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Ok(t.to_utc());
    }
    let (n, unit) = text.split_at(text.len().saturating_sub(1));
    let seconds = match unit {
        "d" => 24 * 3600,
        "h" => 3600,
        "m" => 60,
        "s" => 1,
        _ => 0,
    };
    match n.parse::<i64>() {
        Ok(n) if seconds > 0 && (0..=3650 * 24 * 3600).contains(&(n * seconds)) => {
            Ok(now + chrono::Duration::seconds(n * seconds))
        }
        _ => Err(anyhow::anyhow!(
            "`{text}` is no time: write one like 2026-12-01T18:00:00Z, or a while from now like 7d or 12h"
        )),
    }
}

impl New {
    /// The tournament asked for, or a usage error's message.
    fn tournament(&self, now: DateTime<Utc>) -> anyhow::Result<TournamentFile> {
        let name = &self.name;
        if !store::valid_id(name) || name.len() > MAX_TOURNAMENT_NAME {
            anyhow::bail!(
                "pbem tournament new: `{name}`: a name is 2 to {MAX_TOURNAMENT_NAME} lower-case letters, digits and dashes"
            );
        }
        let mut players: Vec<String> = Vec::new();
        for p in &self.players {
            players.push(entrant("new", &players, p)?);
        }
        let signup = match &self.signup_until {
            Some(w) => Some(
                when(w, now)
                    .map_err(|e| anyhow::anyhow!("pbem tournament new: --signup-until: {e}"))?,
            ),
            None => None,
        };
        if signup.is_none() && players.len() < 2 {
            anyhow::bail!(
                "pbem tournament new: enter at least 2 players (--player ADDRESS), or open sign-up with --signup-until"
            );
        }
        if self.rounds.is_some() && self.format != Format::Swiss {
            anyhow::bail!(
                "pbem tournament new: --rounds is for a Swiss; a {} has its own",
                self.format
            );
        }
        if self.rounds == Some(0) {
            anyhow::bail!("pbem tournament new: --rounds 0: a Swiss needs at least one round");
        }
        Ok(TournamentFile {
            name: name.clone(),
            rules: self.game,
            format: self.format,
            rounds: self.rounds.unwrap_or(0),
            clock: self.clock,
            rated: !self.unrated,
            created: now,
            begins: signup.unwrap_or(now),
            signup: signup.is_some(),
            drop_after_timeouts: self.drop_after_timeouts,
            takebacks: self.takebacks,
            players,
            dropped: Vec::new(),
            timeouts: Vec::new(),
            played: Vec::new(),
            over: false,
        })
    }

    fn execute(self) -> anyhow::Result<i32> {
        let now = crate::clock::now();
        let t = match self.tournament(now) {
            Ok(t) => t,
            Err(usage) => {
                eprintln!("{usage}");
                return Ok(2);
            }
        };
        let server = Server::new(self.config.load()?)?;
        {
            let _lock = server.store.lock(true)?;
            server.recover(now)?;
            if server.store.tournament(&t.name)?.is_some() {
                eprintln!(
                    "pbem tournament new: a tournament {} exists already; choose another name",
                    t.name
                );
                return Ok(2);
            }
            server.store.write_tournament(&t)?;
        }
        if t.signup {
            out!(
                "made {}: {}, {}; sign-up by mail (`join {}`) until {}; round 1 is paired at the first poll after it",
                t.name,
                self.game.name(),
                t.format,
                t.name,
                format_deadline(t.begins, None)
            );
            return Ok(0);
        }
        // Round 1 now: a poll with no mail pairs it, begins its games and
        // mails them (a crash before its mails leaves them to the next
        // poll).
        let report = server.poll(&mut crate::mailbox::NoMail, true)?;
        let t = server.store.tournament(&t.name)?.unwrap_or(t);
        let games = t.played.first().map_or(0, |r| r.games.len());
        out!(
            "made {}: {}, {}, {} players; round 1 begun: {games} game{}",
            t.name,
            self.game.name(),
            t.format,
            t.players.len(),
            if games == 1 { "" } else { "s" }
        );
        for e in &report.errors {
            eprintln!("pbem tournament new: {e}");
        }
        Ok(
            if report.errors.is_empty() && report.send_errors.is_empty() {
                0
            } else {
                1
            },
        )
    }
}

impl Show {
    fn execute(self) -> anyhow::Result<i32> {
        let config = self.config.load()?;
        let store = Store::open(&config.data)?;
        let me = config.identity();
        let Some(t) = store.tournament(&self.name)? else {
            eprintln!(
                "pbem tournament show: {}",
                no_tournament(&store, &self.name)?
            );
            return Ok(2);
        };
        let name = |seat: usize| known_name(&store, &me, &t.players[seat]);
        let state = league_state(&t);
        let lines = state.standings();
        let tie_break = TieBreak::of(t.format).name();
        if self.json {
            out!("{}", show_json(&t));
            return Ok(0);
        }
        let game = t.rules.name();
        let state_words = if t.over {
            format!("over after {} rounds", t.played.len())
        } else if t.played.is_empty() {
            format!("begins {}", format_deadline(t.begins, None))
        } else {
            format!("round {} of {}", t.played.len(), state.last_round())
        };
        out!(
            "{}: {game}, {}, {} players, {state_words}",
            t.name,
            t.format,
            t.players.len()
        );
        out!(
            "{:>5}  {:<40} {:>6} {:>8}  played",
            "place",
            "player",
            "points",
            tie_break_short(tie_break)
        );
        for l in &lines {
            let dropped = if t.dropped.contains(&l.seat) {
                "  dropped out"
            } else {
                ""
            };
            out!(
                "{:>5}  {:<40} {:>6} {:>8}  {}{dropped}",
                l.place,
                name(l.seat),
                l.points.to_string(),
                l.tie_break.to_string(),
                l.played()
            );
        }
        for (i, r) in t.played.iter().enumerate() {
            out!("round {}:", i + 1);
            for g in &r.games {
                let (first, second) = (name(g.first), name(g.second));
                let result = match g.outcome {
                    Some(o) => o.words(&first, &second),
                    None => "in play".to_string(),
                };
                out!(
                    "  {:<24} {first} - {second}  [{result}]",
                    g.game.as_deref().unwrap_or("(forfeit)"),
                );
            }
            if let Some(b) = r.bye {
                out!("  bye: {}", name(b));
            }
        }
        Ok(0)
    }
}

/// `pbem tournament show --json`: one object.
fn show_json(t: &TournamentFile) -> serde_json::Value {
    let state = league_state(t);
    let tie_break = TieBreak::of(t.format).name();
    let standings: Vec<serde_json::Value> = state
        .standings()
        .iter()
        .map(|l| {
            serde_json::json!({
                "place": l.place, "player": t.players[l.seat], "points": l.points.as_f64(),
                "tie_break": l.tie_break.as_f64(), "won": l.won, "drawn": l.drawn, "lost": l.lost,
                "byes": l.byes, "dropped": t.dropped.contains(&l.seat),
            })
        })
        .collect();
    let rounds: Vec<serde_json::Value> = t
        .played
        .iter()
        .map(|r| {
            serde_json::json!({
                "bye": r.bye.map(|b| &t.players[b]),
                "games": r.games.iter().map(|g| serde_json::json!({
                    "first": t.players[g.first], "second": t.players[g.second], "game": g.game,
                    "outcome": g.outcome.map(pbem_league::Outcome::name),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "name": t.name, "rules": t.rules.slug(), "format": t.format.name(), "rounds": state.last_round(),
        "round": t.played.len(), "over": t.over, "signup": t.signup && t.played.is_empty(),
        "begins": t.begins.to_rfc3339(), "tie_break": tie_break, "standings": standings, "played": rounds,
    })
}

/// Why `pbem tournament show NAME` has nothing to show: no tournament
/// `name`; the nearest name, and the tournaments there are.
fn no_tournament(store: &Store, name: &str) -> anyhow::Result<String> {
    let names = store.tournament_names()?;
    let mut text = format!("no tournament {name}");
    if let Some(near) = nearest(name, names.iter().map(String::as_str)) {
        text.push_str(&format!("; did you mean {near}?"));
    }
    if names.is_empty() {
        text.push_str("; there is none yet (`pbem tournament new` makes one)");
    } else {
        let open: Vec<&str> = names
            .iter()
            .filter(|n| store.tournament(n).ok().flatten().is_some_and(|t| !t.over))
            .map(String::as_str)
            .collect();
        match open.is_empty() {
            true => text.push_str("; none is open or in play (`pbem tournament list` lists all)"),
            false => text.push_str(&format!("; open or in play: {}", open.join(", "))),
        }
    }
    Ok(text)
}

fn tie_break_short(name: &str) -> &str {
    if name.starts_with("Sonneborn") {
        "S-B"
    } else {
        name
    }
}

impl List {
    fn execute(self) -> anyhow::Result<i32> {
        let config = self.config.load()?;
        let store = Store::open(&config.data)?;
        let mut bad = 0;
        for name in store.tournament_names()? {
            let t = match store.tournament(&name) {
                Ok(Some(t)) => t,
                Ok(None) => continue,
                Err(e) => {
                    bad += 1;
                    eprintln!("pbem tournament list: {name}: {e}");
                    continue;
                }
            };
            let state = if t.over {
                "over".to_string()
            } else if t.played.is_empty() {
                // JSON keeps the time as machines read it.
                let begins = match self.json {
                    true => t.begins.to_rfc3339(),
                    false => format_deadline(t.begins, None),
                };
                format!("begins {begins}")
            } else {
                format!("round {}", t.played.len())
            };
            if self.json {
                out!(
                    "{}",
                    serde_json::json!({"name": name, "rules": t.rules.slug(), "format": t.format.name(), "players": t.players.len(), "state": state})
                );
            } else {
                out!(
                    "{name:<30} {:<20} {:<20} {:>3} players  {state}",
                    t.rules,
                    t.format.name(),
                    t.players.len()
                );
            }
        }
        Ok(if bad == 0 { 0 } else { 1 })
    }
}

/// The ratings: each game's players by rating, with their deviation and
/// games; or rebuilt from the records alone (--rebuild), which must give
/// the numbers pbem keeps.
///
/// Examples:
///   pbem ratings
///   pbem ratings mad --json
///   pbem ratings --rebuild
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Ratings {
    /// One game (default: every game).
    #[arg(value_parser = super::games::Games)]
    game: Option<Rules>,
    /// One JSON object per line, per player.
    #[arg(long)]
    json: bool,
    /// Recompute the ratings from the records and store them; says
    /// whether they differ from the ones kept (exit 1 if so).
    #[arg(long)]
    rebuild: bool,
    #[command(flatten)]
    config: ConfigArg,
}

impl Ratings {
    pub fn execute(self) -> anyhow::Result<i32> {
        let config = self.config.load()?;
        let store = Store::open(&config.data)?;
        let games = self.game.map_or_else(|| Rules::ALL.to_vec(), |g| vec![g]);
        let mut differ = 0;
        for rules in games {
            let mut file = store.ratings(rules.slug())?;
            if self.rebuild {
                let _lock = store.lock(true)?;
                let me = config.identity();
                let built = rebuild_ratings(&store, &me, rules)?;
                let same = built == file;
                if !same {
                    differ += 1;
                    store.write_ratings(rules.slug(), &built)?;
                }
                out!(
                    "{}: {} rated game{} rebuilt from the records; {}",
                    rules.slug(),
                    built.games.len(),
                    if built.games.len() == 1 { "" } else { "s" },
                    if same {
                        "the same as kept"
                    } else {
                        "DIFFERENT from the ratings kept, which are replaced"
                    }
                );
                file = built;
            }
            for (i, (player, r)) in file.table.ranked().iter().enumerate() {
                if self.json {
                    out!(
                        "{}",
                        serde_json::json!({"rules": rules.slug(), "place": i + 1, "player": player,
                        "rating": r.rating, "deviation": r.deviation, "volatility": r.volatility, "games": r.games})
                    );
                } else {
                    if i == 0 {
                        out!("{}:", rules.name());
                    }
                    out!(
                        "  {:>3}. {:<40} {:>5} (deviation {:>3}, {} game{})",
                        i + 1,
                        player,
                        r.shown(),
                        r.deviation.round(),
                        r.games,
                        if r.games == 1 { "" } else { "s" }
                    );
                }
            }
        }
        Ok(if differ == 0 { 0 } else { 1 })
    }
}
