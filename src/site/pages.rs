//! The site's pages: their data decided here, their wording and markup
//! in `templates/site/` (HTML-escaped by the template engine).

use super::game::shown;
use super::pager::{self, ROWS_PER_PAGE};
use super::{Options, SiteError, Summary};
use crate::store::Store;
use minijinja::value::Serde;
use minijinja::{Environment, Value, context};
use pbem_engine::rules::Rules;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const TEMPLATES: &[(&str, &str)] = &[
    (
        "layout.html",
        include_str!("../../templates/site/layout.html"),
    ),
    ("game.html", include_str!("../../templates/site/game.html")),
    (
        "graph.html",
        include_str!("../../templates/site/graph.html"),
    ),
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
    (
        "pager.html",
        include_str!("../../templates/site/pager.html"),
    ),
    (
        "setup.html",
        include_str!("../../templates/site/setup.html"),
    ),
    (
        "caption.txt",
        include_str!("../../templates/site/caption.txt"),
    ),
];

/// The templates of the pages.
pub(super) fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    // Text goes through the one HTML escaper pbem has (the mails' and the
    // boards'), not the template engine's own, which writes an apostrophe
    // another way: the same text reads the same in a page and in a mail.
    env.set_formatter(
        |out, state, value| match (state.auto_escape(), value.as_str()) {
            (minijinja::AutoEscape::Html, Some(text)) if !value.is_safe() => out
                .write_str(&pbem_engine::board::escape(text))
                .map_err(|e| {
                    minijinja::Error::new(minijinja::ErrorKind::WriteFailure, e.to_string())
                }),
            _ => minijinja::escape_formatter(out, state, value),
        },
    );
    for (name, text) in TEMPLATES {
        // Built in and tested: they parse.
        let _ = env.add_template(name, text);
    }
    env
}

/// A hash of the templates and of pbem's version: a new version of pbem
/// remakes the pages.
pub(super) fn templates_hash() -> u64 {
    let mut bytes = env!("CARGO_PKG_VERSION").as_bytes().to_vec();
    for (name, text) in TEMPLATES {
        bytes.extend(name.as_bytes());
        bytes.push(0);
        bytes.extend(text.as_bytes());
    }
    crate::store::stable_hash(&bytes)
}

/// The games in play and finished the index shows, the newest of each
/// (the others on `in-play_2.html`..., `finished_2.html`...): a site of
/// ten thousand games keeps an index that loads at once.
pub(crate) const INDEX_ROWS: usize = ROWS_PER_PAGE;

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
    pub(super) fn new(dir: &'a Path, old: &'a BTreeMap<String, u64>, templates: u64) -> Reuse<'a> {
        Reuse {
            dir,
            old,
            templates,
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

    /// The page at `path` is made at every build (it is not known by what
    /// it lists), but is one of the site's: kept from removal.
    fn made(&mut self, path: &str) {
        self.new.insert(path.to_string(), 0);
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
        out.push((
            PathBuf::from(format!("rules/{}.html", rules.slug())),
            super::rules::page(env, rules)?,
        ));
    }
    for name in &tournaments {
        if let Some(t) = store.tournament(name)? {
            out.extend(super::tournament::pages(env, store, &t, games, options)?);
        }
    }
    for (path, _) in &out {
        reuse.made(&path.to_string_lossy());
    }
    Ok(out)
}

fn render(env: &Environment<'_>, name: &str, ctx: Value) -> Result<String, SiteError> {
    Ok(env.get_template(name)?.render(ctx)?)
}

/// A list of games on pages of [`ROWS_PER_PAGE`]: `stem.html`,
/// `stem_2.html`... (page 1 at `first` instead, when given: the index
/// shows the first page of the games in play and finished). The pages
/// whose games changed, with their paths.
struct Listed<'a, 'b> {
    env: &'a Environment<'b>,
    /// From the site's folder to the pages' own.
    root: &'static str,
    stem: String,
    /// Where page 1 is, when not at `stem.html`.
    first: Option<String>,
    title: String,
    slug: Option<&'a str>,
}

impl Listed<'_, '_> {
    /// The row of links between the pages, seen from page `k`.
    fn pager(&self, k: usize, pages: usize) -> Vec<pager::Link> {
        // Links go between pages of one folder: by their file names.
        let base = |j: usize| {
            let path = pager::file(&self.stem, j);
            path.rsplit('/').next().unwrap_or_default().to_string()
        };
        let href = |j: usize| match (j, &self.first) {
            (1, Some(first)) => first.clone(),
            _ => base(j),
        };
        pager::links(k, pages, href, |j| j.to_string())
    }

    fn pages(&self, list: &[&Summary], reuse: &mut Reuse<'_>) -> Result<Vec<Page>, SiteError> {
        let pages = pager::count(list.len(), ROWS_PER_PAGE);
        let mut out = Vec::new();
        for (i, rows) in list.chunks(ROWS_PER_PAGE).enumerate() {
            let k = i + 1;
            if k == 1 && self.first.is_some() {
                continue;
            }
            let path = pager::file(&self.stem, k);
            let print = format!("{}\0{k}/{pages}", self.title);
            if reuse.needed(&path, &print, rows) {
                let ctx = context! {
                    root => self.root, title => &self.title, slug => self.slug,
                    games => Serde(rows), page => k, pages, pager => Serde(self.pager(k, pages)),
                };
                out.push((PathBuf::from(path), render(self.env, "list.html", ctx)?));
            }
        }
        Ok(out)
    }
}

/// The index, the lists by game and by player, the games in play and
/// finished beyond the index's.
fn game_lists(
    env: &Environment<'_>,
    games: &BTreeMap<String, Summary>,
    tournaments: &[String],
    rated: &[Value],
    reuse: &mut Reuse<'_>,
) -> Result<Vec<Page>, SiteError> {
    let grouped = Grouped::of(games);
    let mut out = index_pages(env, &grouped, tournaments, rated, reuse)?;
    for (slug, list) in &grouped.by_game {
        let l = Listed {
            env,
            root: "../",
            stem: format!("by-game/{slug}"),
            first: None,
            title: game_name(slug),
            slug: Some(*slug),
        };
        out.extend(l.pages(list, reuse)?);
    }
    for (page, (name, list)) in &grouped.by_player {
        let l = Listed {
            env,
            root: "../",
            stem: format!("players/{page}"),
            first: None,
            title: name.to_string(),
            slug: None,
        };
        out.extend(l.pages(list, reuse)?);
    }
    Ok(out)
}

/// The site's games, newest first, and the same grouped by game (its
/// slug) and by player (their page's name, to their name and games).
struct Grouped<'a> {
    all: Vec<&'a Summary>,
    by_game: BTreeMap<&'a str, Vec<&'a Summary>>,
    by_player: BTreeMap<&'a str, (&'a str, Vec<&'a Summary>)>,
}

impl<'a> Grouped<'a> {
    fn of(games: &'a BTreeMap<String, Summary>) -> Grouped<'a> {
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
        Grouped {
            all,
            by_game,
            by_player,
        }
    }
}

/// A game's name, from its slug (the slug itself when no game has it).
fn game_name(slug: &str) -> String {
    slug.parse::<Rules>()
        .map_or(slug.to_string(), |r| r.name().into())
}

/// The index, with the pages of the games in play and finished that it
/// shows the first of.
fn index_pages(
    env: &Environment<'_>,
    grouped: &Grouped<'_>,
    tournaments: &[String],
    rated: &[Value],
    reuse: &mut Reuse<'_>,
) -> Result<Vec<Page>, SiteError> {
    let kinds: Vec<Value> = grouped
        .by_game
        .iter()
        .map(
            |(slug, list)| context! { slug => *slug, name => game_name(slug), count => list.len() },
        )
        .collect();
    let (in_play, finished): (Vec<&Summary>, Vec<&Summary>) =
        grouped.all.iter().partition(|s| !s.over);
    let mut out = Vec::new();
    let in_play = index_part(env, "in-play", "Games in play", &in_play, reuse, &mut out)?;
    let finished = index_part(
        env,
        "finished",
        "Games finished",
        &finished,
        reuse,
        &mut out,
    )?;
    let index = context! {
        root => "", kinds, in_play, finished,
        rules => Rules::ALL.iter().map(|r| context! { slug => r.slug(), name => r.name() })
            .collect::<Vec<_>>(),
        tournaments => tournaments.to_vec(), rated => rated.to_vec(),
    };
    out.push((
        PathBuf::from("index.html"),
        render(env, "index.html", index)?,
    ));
    Ok(out)
}

/// One part of the index (`name`, its anchor): the first page of `list`
/// for the index to show, its other pages added to `out`. Every game is
/// on its game's list too.
fn index_part(
    env: &Environment<'_>,
    name: &str,
    title: &str,
    list: &[&Summary],
    reuse: &mut Reuse<'_>,
    out: &mut Vec<Page>,
) -> Result<Value, SiteError> {
    let l = Listed {
        env,
        root: "",
        stem: name.into(),
        first: Some(format!("index.html#{name}")),
        title: title.into(),
        slug: None,
    };
    let pages = pager::count(list.len(), ROWS_PER_PAGE);
    out.extend(l.pages(list, reuse)?);
    let first = &list[..list.len().min(INDEX_ROWS)];
    Ok(context! { games => Serde(first), count => list.len(), pager => Serde(l.pager(1, pages)) })
}

/// Each game's ratings pages (for the games with ratings), and the list
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
        let stem = format!("ratings/{}", rules.slug());
        let pages = pager::count(rows.len(), ROWS_PER_PAGE);
        for (i, chunk) in rows.chunks(ROWS_PER_PAGE).enumerate() {
            let k = i + 1;
            let rows: Vec<Value> = chunk
                .iter()
                .enumerate()
                .map(|(j, (who, r))| {
                    context! {
                        place => i * ROWS_PER_PAGE + j + 1, name => shown(store, who, options),
                        rating => r.shown(), deviation => r.deviation.round() as i64, games => r.games,
                    }
                })
                .collect();
            let href = |j: usize| pager::file(rules.slug(), j);
            let ctx = context! {
                root => "../", game => rules.name(), rows, page => k, pages,
                pager => Serde(pager::links(k, pages, href, |j| j.to_string())),
            };
            out.push((
                PathBuf::from(pager::file(&stem, k)),
                render(env, "ratings.html", ctx)?,
            ));
        }
    }
    Ok((out, rated))
}
