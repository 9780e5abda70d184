//! The site's pages: their data decided here, their wording and markup
//! in `templates/site/` (HTML-escaped by the template engine).

use super::{Manifest, Options, Player, SiteError, Summary, player_page};
use crate::adjudicate::{league_state, public_name};
use crate::store::Store;
use minijinja::{Environment, Value, context};
use pbem_engine::game::{self, Game};
use pbem_engine::record::{self, Record};
use pbem_engine::rules::Rules;
use pbem_engine::side::Side;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const TEMPLATES: &[(&str, &str)] = &[
    (
        "layout.html",
        include_str!("../../templates/site/layout.html"),
    ),
    ("game.html", include_str!("../../templates/site/game.html")),
    (
        "index.html",
        include_str!("../../templates/site/index.html"),
    ),
    ("list.html", include_str!("../../templates/site/list.html")),
    (
        "games_table.html",
        include_str!("../../templates/site/games_table.html"),
    ),
    ("more.html", include_str!("../../templates/site/more.html")),
    (
        "rules.html",
        include_str!("../../templates/site/rules.html"),
    ),
    (
        "tournament.html",
        include_str!("../../templates/site/tournament.html"),
    ),
    (
        "ratings.html",
        include_str!("../../templates/site/ratings.html"),
    ),
];

/// The templates of the pages.
pub(super) fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    for (name, text) in TEMPLATES {
        // Built in and tested: they parse.
        let _ = env.add_template(name, text);
    }
    env
}

/// A game's page and its line in the lists.
pub(super) struct GamePage {
    pub html: String,
    pub summary: Summary,
}

/// Why a game has no page: its record does not replay, or a template.
pub(super) enum GameError {
    Record(String),
    Template(minijinja::Error),
}

/// The page of game `id`.
pub(super) fn game(
    env: &Environment<'_>,
    id: &str,
    rec: &Record,
    manifest: &Manifest,
    options: &Options,
) -> Result<GamePage, GameError> {
    pbem_engine::with_game!(rec.rules, G => game_of::<G>(env, id, rec, manifest, options))
}

fn game_of<G: Game>(
    env: &Environment<'_>,
    id: &str,
    rec: &Record,
    manifest: &Manifest,
    options: &Options,
) -> Result<GamePage, GameError> {
    let rules = G::RULES;
    let replayed = record::replay::<G>(rec).map_err(|e| GameError::Record(e.to_string()))?;
    let total = replayed.moves.len();
    let boards: Vec<_> = replayed
        .positions
        .iter()
        .enumerate()
        .map(|(ply, pos)| pos.board(&replayed.view(ply, None)))
        .collect();
    let frames = pbem_engine::board::svg_frames(&boards, "p");
    let geometry = rules.geometry();
    let first = rec.first_side();
    let moves: Vec<Value> = replayed
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let side = if i % 2 == 0 { first } else { first.other() };
            context! { ply => i + 1, side => rules.side_name(side), text => m.canonical(geometry) }
        })
        .collect();
    let players = players_of(rec, manifest, options);
    let (over, state) = match &replayed.end {
        Some(end) => (
            true,
            match end.outcome {
                game::Outcome::Win(s) => format!("{} won: {}", rules.side_name(s), end.reason),
                game::Outcome::Draw => format!("drawn: {}", end.reason),
            },
        ),
        None => (
            false,
            format!("{} to play", rules.side_name(replayed.position().turn())),
        ),
    };
    let when = rec
        .lines
        .iter()
        .rev()
        .find_map(|l| l.time)
        .or(rec.created)
        .map(|t| t.to_rfc3339())
        .unwrap_or_default();
    let summary = Summary {
        hash: 0,
        id: id.to_string(),
        slug: rules.slug().to_string(),
        game: rules.name().to_string(),
        players,
        over,
        state,
        moves: total,
        when,
        series: rec.match_info.series.clone(),
        tournament: rec.match_info.tournament.clone(),
        round: rec.match_info.round,
    };
    let html = env
        .get_template("game.html")
        .and_then(|t| {
            t.render(context! {
                root => "../", summary => minijinja::value::Serde(&summary),
                board => Value::from_safe_string(frames), moves, plies => total,
                series_game => rec.match_info.game, series_of => rec.match_info.of,
                rated => rec.match_info.rated,
            })
        })
        .map_err(GameError::Template)?;
    Ok(GamePage { html, summary })
}

/// The players of `rec`, as the site shows them, side A's first.
fn players_of(rec: &Record, manifest: &Manifest, options: &Options) -> Vec<Player> {
    Side::BOTH
        .into_iter()
        .filter_map(|side| {
            let mailbox = rec.players[side].as_deref()?;
            Some(Player {
                name: shown(mailbox, options),
                page: player_page(&manifest.key, mailbox),
                side: rec.rules.side_name(side).to_string(),
            })
        })
        .collect()
}

/// A player's name on the site: their address only if the admin allows.
fn shown(mailbox: &str, options: &Options) -> String {
    if options.addresses {
        mailbox.to_string()
    } else {
        public_name(mailbox)
    }
}

/// The games in play and finished the index shows, the newest of each
/// (the lists by game have them all): a site of ten thousand games keeps
/// an index that loads at once.
pub(crate) const INDEX_ROWS: usize = 200;

/// The list pages (by game, by player) whose games did not change since
/// they were made are not made again: on an update after one move, a
/// site of ten thousand games renders the few lists that game is on, not
/// a thousand players' pages. Each list is known by a fingerprint of what
/// it is made from (`site.json` keeps them).
pub(super) struct Reuse<'a> {
    /// The site's folder, to see that a page is still there.
    dir: &'a Path,
    /// The fingerprints of the last build, by page.
    old: &'a BTreeMap<String, u64>,
    /// A hash of the templates: a new version of pbem remakes the lists.
    templates: u64,
    /// This build's fingerprints.
    pub new: BTreeMap<String, u64>,
    /// Pages not made again.
    pub kept: usize,
}

impl<'a> Reuse<'a> {
    pub(super) fn new(dir: &'a Path, old: &'a BTreeMap<String, u64>) -> Reuse<'a> {
        let mut bytes = Vec::new();
        for (name, text) in TEMPLATES {
            bytes.extend(name.as_bytes());
            bytes.push(0);
            bytes.extend(text.as_bytes());
        }
        Reuse {
            dir,
            old,
            templates: crate::store::stable_hash(&bytes),
            new: BTreeMap::new(),
            kept: 0,
        }
    }

    /// Whether the page at `path`, titled `title`, listing `list`, must be
    /// made: what it is made from changed, or it is not there.
    fn needed(&mut self, path: &str, title: &str, list: &[&Summary]) -> bool {
        let mut bytes = Vec::with_capacity(title.len() + 24 * list.len() + 8);
        bytes.extend(self.templates.to_le_bytes());
        bytes.extend(title.as_bytes());
        for s in list {
            bytes.push(0);
            bytes.extend(s.id.as_bytes());
            bytes.extend(s.hash.to_le_bytes());
        }
        let print = crate::store::stable_hash(&bytes);
        self.new.insert(path.to_string(), print);
        if self.old.get(path) == Some(&print) && self.dir.join(path).exists() {
            self.kept += 1;
            return false;
        }
        true
    }
}

/// A page: its path under the site's folder and its text.
type Page = (PathBuf, String);

/// Every page but the games' own.
pub(super) fn lists(
    env: &Environment<'_>,
    store: &Store,
    games: &BTreeMap<String, Summary>,
    options: &Options,
    reuse: &mut Reuse<'_>,
) -> Result<Vec<Page>, SiteError> {
    let tournaments = store.tournament_names()?;
    let (mut out, rated) = ratings_pages(env, store, options)?;
    out.extend(game_lists(env, games, &tournaments, &rated, reuse)?);
    for rules in Rules::ALL {
        let mut html = String::new();
        let text = rules.rules_text();
        pulldown_cmark::html::push_html(&mut html, pulldown_cmark::Parser::new(&text));
        let ctx = context! {
            root => "../", name => rules.name(), text => Value::from_safe_string(html),
        };
        out.push((
            PathBuf::from(format!("rules/{}.html", rules.slug())),
            render(env, "rules.html", ctx)?,
        ));
    }
    for name in &tournaments {
        if let Some(t) = store.tournament(name)? {
            out.push(tournament_page(env, &t, games, options)?);
        }
    }
    Ok(out)
}

fn render(env: &Environment<'_>, name: &str, ctx: Value) -> Result<String, SiteError> {
    Ok(env.get_template(name)?.render(ctx)?)
}

/// The index, the lists by game and by player.
fn game_lists(
    env: &Environment<'_>,
    games: &BTreeMap<String, Summary>,
    tournaments: &[String],
    rated: &[Value],
    reuse: &mut Reuse<'_>,
) -> Result<Vec<Page>, SiteError> {
    use minijinja::value::Serde;
    // Newest first.
    let mut all: Vec<&Summary> = games.values().collect();
    all.sort_by(|a, b| b.when.cmp(&a.when).then(a.id.cmp(&b.id)));
    let mut by_game: BTreeMap<&str, Vec<&Summary>> = BTreeMap::new();
    let mut by_player: BTreeMap<&str, (&str, Vec<&Summary>)> = BTreeMap::new();
    for s in &all {
        by_game.entry(&s.slug).or_default().push(s);
        for p in &s.players {
            by_player
                .entry(&p.page)
                .or_insert_with(|| (&p.name, Vec::new()))
                .1
                .push(s);
        }
    }
    let name_of = |slug: &str| {
        slug.parse::<Rules>()
            .map_or(slug.to_string(), |r| r.name().into())
    };
    let kinds: Vec<Value> = by_game
        .iter()
        .map(|(slug, list)| context! { slug => *slug, name => name_of(slug), count => list.len() })
        .collect();
    // The index shows the newest of each; every game is on its game's
    // list.
    let in_play: Vec<&Summary> = all.iter().copied().filter(|s| !s.over).collect();
    let finished: Vec<&Summary> = all.iter().copied().filter(|s| s.over).collect();
    let newest = |list: &Vec<&Summary>| list.len().min(INDEX_ROWS);
    let rules_list: Vec<Value> = Rules::ALL
        .iter()
        .map(|r| context! { slug => r.slug(), name => r.name() })
        .collect();
    let index = context! {
        root => "", in_play => Serde(&in_play[..newest(&in_play)]),
        finished => Serde(&finished[..newest(&finished)]),
        in_play_count => in_play.len(), finished_count => finished.len(),
        kinds, rules => rules_list, tournaments => tournaments.to_vec(), rated => rated.to_vec(),
    };
    let mut out = vec![(
        PathBuf::from("index.html"),
        render(env, "index.html", index)?,
    )];
    for (slug, list) in &by_game {
        let (path, title) = (format!("by-game/{slug}.html"), name_of(slug));
        if reuse.needed(&path, &title, list) {
            let ctx = context! { root => "../", title, games => Serde(list), slug => *slug };
            out.push((PathBuf::from(path), render(env, "list.html", ctx)?));
        }
    }
    for (page, (name, list)) in &by_player {
        let path = format!("players/{page}.html");
        if reuse.needed(&path, name, list) {
            let ctx = context! { root => "../", title => *name, games => Serde(list) };
            out.push((PathBuf::from(path), render(env, "list.html", ctx)?));
        }
    }
    Ok(out)
}

/// Each game's ratings page (for the games with ratings), and the list
/// of those games for the index.
fn ratings_pages(
    env: &Environment<'_>,
    store: &Store,
    options: &Options,
) -> Result<(Vec<Page>, Vec<Value>), SiteError> {
    let mut out = Vec::new();
    let mut rated = Vec::new();
    for rules in Rules::ALL {
        let file = store.ratings(rules.slug())?;
        if file.table.players.is_empty() {
            continue;
        }
        rated.push(context! { slug => rules.slug(), name => rules.name() });
        let mut rows: Vec<_> = file.table.players.iter().collect();
        rows.sort_by_key(|(_, r)| std::cmp::Reverse(r.shown()));
        let rows: Vec<Value> = rows
            .iter()
            .enumerate()
            .map(|(i, (who, r))| {
                context! {
                    place => i + 1, name => shown(who, options), rating => r.shown(),
                    deviation => r.deviation.round() as i64, games => r.games,
                }
            })
            .collect();
        let ctx = context! { root => "../", game => rules.name(), rows };
        out.push((
            PathBuf::from(format!("ratings/{}.html", rules.slug())),
            render(env, "ratings.html", ctx)?,
        ));
    }
    Ok((out, rated))
}

/// A tournament's page: its standings and rounds, each game linked when
/// it is on the site.
fn tournament_page(
    env: &Environment<'_>,
    t: &crate::store::league::TournamentFile,
    games: &BTreeMap<String, Summary>,
    options: &Options,
) -> Result<Page, SiteError> {
    let name = |seat: usize| t.players.get(seat).map(|p| shown(p, options));
    let state = league_state(t);
    let standings: Vec<Value> = state
        .standings()
        .iter()
        .map(|l| {
            context! {
                place => l.place, name => name(l.seat),
                points => l.points.to_string(), tie_break => l.tie_break.to_string(),
                won => l.won, drawn => l.drawn, lost => l.lost,
                dropped => t.dropped.contains(&l.seat),
            }
        })
        .collect();
    let rounds: Vec<Value> = t
        .played
        .iter()
        .map(|r| {
            let games: Vec<Value> = r
                .games
                .iter()
                .map(|g| {
                    context! {
                        first => name(g.first), second => name(g.second),
                        game => g.game.as_ref().filter(|id| games.contains_key(*id)),
                        outcome => g.outcome.map(pbem_league::Outcome::name),
                    }
                })
                .collect();
            context! { games, bye => r.bye.and_then(name) }
        })
        .collect();
    let game = t
        .rules
        .parse::<Rules>()
        .map_or(t.rules.clone(), |r| r.name().into());
    let ctx = context! {
        root => "../", name => &t.name, game, format => t.format.name(), over => t.over,
        tie_break => pbem_league::standings::TieBreak::of(t.format).name(),
        standings, rounds,
    };
    Ok((
        PathBuf::from(format!("tournaments/{}.html", t.name)),
        render(env, "tournament.html", ctx)?,
    ))
}
