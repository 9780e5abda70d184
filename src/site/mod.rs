//! The web archive: a self-contained static site made from the
//! data folder, by `pbem site DIR` and, with `[site] dir` in pbem.toml,
//! by the daemon after each batch.
//!
//! What it writes under DIR: `index.html` (the newest games in play and
//! finished, the others on `in-play_2.html`..., `finished_2.html`...),
//! `games/ID.html` (one game: its board at every move as SVG, stepped
//! through with links and CSS `:target`, and with arrow keys and a slider
//! where JavaScript runs; its moves, players, result, series and
//! tournament; a long game goes on on `games/ID_2.html`...),
//! `by-game/SLUG.html`, `players/P.html` (a player's games),
//! `rules/SLUG.html`, `tournaments/NAME.html`, `ratings/SLUG.html`, and
//! `site.json`, what the pages were made from. No page grows with the
//! number of games or the length of one ([`pager`]).
//!
//! Players are shown by their display name or the local part of their
//! address (`bob`), never by address unless the admin allows it; a
//! player's page is named by a keyed hash of their address (the key from
//! the OS's random source, kept in the data folder: [`key`]), so its name
//! tells nothing; no file of the site has a key, an address or a record
//! (a record names the players' addresses).
//!
//! Pages are written atomically, and only when their text changed: an
//! update after one move rewrites that game's last page (and its first,
//! which says how the game stands) and the lists it is on. A game's page
//! is remade only when what it shows changed (`site.json` keeps each
//! record's hash and a fingerprint of each of its pages), and a list page
//! only when its games did (`pages::Reuse`), so a site of ten thousand
//! games is brought up to date by reading the records, not by drawing
//! them. The games to make are drawn on all cores (`spread`), gathered in
//! order; a long game is drawn one page at a time.

mod analysis;
mod game;
pub mod key;
mod pager;
mod pages;
mod rules;
mod spread;
#[cfg(test)]
mod tests;
mod tournament;

use crate::store::{self, Store, StoreError};
use pbem_engine::record::Record;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What the admin decides about the site.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Options {
    /// Show the players' addresses (by default, their names only).
    #[serde(default)]
    pub addresses: bool,
    /// pbem's own address and name (its settings' `address` and `name`):
    /// the bot is named as pbem's ([`crate::adjudicate::public_name`]).
    #[serde(default)]
    pub pbem: String,
    #[serde(default)]
    pub pbem_name: String,
}

impl Options {
    /// The site's options for the server of `config`, with the players'
    /// addresses shown when `addresses`.
    pub fn of(config: &crate::config::Config, addresses: bool) -> Options {
        Options {
            addresses,
            pbem: config.address.to_lowercase(),
            pbem_name: config.name.clone(),
        }
    }
}

/// What a build did.
#[derive(Debug, Default)]
pub struct Built {
    /// Games on the site.
    pub games: usize,
    /// Pages written because their text changed.
    pub written: usize,
    /// Pages left as they were.
    pub unchanged: usize,
    /// Games whose pages were remade (their records changed).
    pub remade: usize,
    /// Records that could not be read, with why: not on the site.
    pub skipped: Vec<String>,
    /// What the admin should know of the key of the players' page names
    /// (moved out of `site.json`, made anew).
    pub notes: Vec<String>,
}

/// Why the site could not be written.
#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("a page's template: {0}")]
    Template(#[from] minijinja::Error),
    #[error(
        "the key of the players' page names, {path}: {why}, and the site in `{dir}` named its \
         players' pages with it, so they cannot keep their names; put the key back from a \
         backup, or run `pbem site {dir} --new-key` to name them anew (links to the old names \
         then stop working)",
        path = .path.display(), dir = .dir.display()
    )]
    KeyLost {
        path: PathBuf,
        why: String,
        dir: PathBuf,
    },
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> SiteError + '_ {
    move |source| SiteError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// What the pages were made from (`site.json`, in the served folder:
/// record hashes and what the pages show, never a key or an address
/// that the pages do not show).
#[derive(Debug, Default, Serialize, Deserialize)]
struct Manifest {
    /// Where sites made before kept the key of the players' page names:
    /// read to move it into the data folder ([`key`]), never written.
    #[serde(default, rename = "key", skip_serializing)]
    legacy_key: String,
    /// The name a probe's page would have under the key the pages were
    /// named with (as public as any player's page name): another key
    /// renames every player's page, so every page is made again.
    #[serde(default)]
    names: String,
    options: Options,
    games: BTreeMap<String, Summary>,
    /// What each list page was made from (`pages::Reuse`).
    #[serde(default)]
    lists: BTreeMap<String, u64>,
}

/// One game as the lists show it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct Summary {
    /// The hash of its record (and of the pages' templates), to tell
    /// when it changed.
    hash: u64,
    pub(crate) id: String,
    pub(crate) slug: String,
    pub(crate) game: String,
    pub(crate) players: Vec<Player>,
    /// Over: its result in words; in play: who is to move.
    pub(crate) over: bool,
    pub(crate) state: String,
    pub(crate) moves: usize,
    /// The time of its last line, or its creation, RFC 3339 (the lists'
    /// order).
    pub(crate) when: String,
    /// That time as people read it, in the server's zone.
    #[serde(default)]
    pub(crate) at: String,
    pub(crate) series: Option<String>,
    pub(crate) tournament: Option<String>,
    pub(crate) round: Option<u32>,
    /// A fingerprint of what each of its pages shows (`game::page`): a
    /// page whose fingerprint did not change is not drawn again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) prints: Vec<u64>,
}

/// A player as the site shows them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Player {
    pub(crate) name: String,
    /// Their page, `players/{page}.html`.
    pub(crate) page: String,
    /// Their side in the game.
    pub(crate) side: String,
}

/// What the pages of one build are made with.
struct Making<'a> {
    store: &'a Store,
    dir: &'a Path,
    env: minijinja::Environment<'static>,
    /// A hash of the templates: a new version of pbem remakes the pages.
    templates: u64,
    key: String,
    options: &'a Options,
    /// The last build's.
    old: &'a Manifest,
}

/// Builds or brings up to date the site in `dir` from `store`; calls
/// `progress(done, of)` after each game.
///
/// # Errors
/// A page that cannot be written, a data folder that cannot be read, the
/// key of the players' page names lost when pages were named with it.
pub fn build(
    store: &Store,
    dir: &Path,
    options: &Options,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Built, SiteError> {
    for sub in [
        "games",
        "by-game",
        "players",
        "rules",
        "tournaments",
        "ratings",
    ] {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).map_err(io(&d))?;
    }
    let manifest_path = dir.join("site.json");
    let old = read_manifest(&manifest_path);
    let mut built = Built::default();
    let legacy = Some(old.legacy_key.as_str()).filter(|k| !k.is_empty());
    let made = !old.games.is_empty() || has_files(&dir.join("players"));
    let key = key::for_site(store, dir, legacy, made)?;
    built.notes.extend(key.note);
    let names = player_page(&key.key, NAMES_PROBE);
    let same_key = old.names == names || (old.names.is_empty() && legacy == Some(&*key.key));
    // Other options or another key change every page: none is kept.
    let none = Manifest::default();
    let reusable = if old.options == *options && same_key {
        &old
    } else {
        &none
    };
    let making = Making {
        store,
        dir,
        env: pages::environment(),
        templates: pages::templates_hash(),
        key: key.key,
        options,
        old: reusable,
    };
    let games = game_pages(&making, &mut built, progress)?;
    // Pages of games no longer in the data folder, or no longer as long,
    // go.
    for (id, was) in &old.games {
        let now = games.get(id).map_or(0, |s| s.prints.len().max(1));
        for k in now + 1..=was.prints.len().max(1) {
            remove_page(&dir.join("games").join(pager::file(id, k)));
        }
    }
    let mut reuse = pages::Reuse::new(dir, &reusable.lists, making.templates);
    let lists = pages::lists(&making.env, store, &games, options, &mut reuse)?;
    built.unchanged += reuse.kept;
    let lists_made = std::mem::take(&mut reuse.new);
    // List pages no longer made (a player with no game left, a list
    // grown shorter, a page named with another key) go.
    for gone in old.lists.keys().filter(|p| !lists_made.contains_key(*p)) {
        remove_page(&dir.join(gone));
    }
    for (path, html) in lists {
        if write_page(&dir.join(path), &html)? {
            built.written += 1;
        } else {
            built.unchanged += 1;
        }
    }
    built.games = games.len();
    let manifest = Manifest {
        legacy_key: String::new(),
        names,
        options: options.clone(),
        games,
        lists: lists_made,
    };
    let json = serde_json::to_string_pretty(&manifest).unwrap_or_default();
    write_file(&manifest_path, json.as_bytes())?;
    Ok(built)
}

/// Every game's pages, made or kept: the games on the site.
fn game_pages(
    making: &Making<'_>,
    built: &mut Built,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<BTreeMap<String, Summary>, SiteError> {
    let ids = making.store.game_ids()?;
    let done = spread::each(ids.len(), |i| one_game(making, &ids[i]), progress);
    let mut games = BTreeMap::new();
    for (id, done) in ids.iter().zip(done) {
        match done? {
            Done::Kept(summary) => {
                built.unchanged += summary.prints.len().max(1);
                games.insert(id.clone(), summary);
            }
            Done::Made(summary, game::Wrote { written, unchanged }) => {
                built.remade += 1;
                built.written += written;
                built.unchanged += unchanged;
                games.insert(id.clone(), summary);
            }
            Done::Skipped(why) => built.skipped.push(why),
            Done::Gone => {}
        }
    }
    Ok(games)
}

/// What [`Manifest::names`] names: no address (it has no `@`).
const NAMES_PROBE: &str = "the key of the players' page names";

fn has_files(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some())
}

fn remove_page(path: &Path) {
    // A page already gone is what was wanted.
    let _ = std::fs::remove_file(path);
}

/// What became of one game's pages.
enum Done {
    /// Left as they were: its record did not change.
    Kept(Summary),
    /// Made from its record; the pages written and left.
    Made(Summary, game::Wrote),
    /// Not on the site: why.
    Skipped(String),
    /// Its record went while the site was being made.
    Gone,
}

/// Game `id`'s pages: kept when its record is what they were made from,
/// else made anew (read, replayed, drawn a page at a time) and those
/// whose text changed written.
fn one_game(m: &Making<'_>, id: &str) -> Result<Done, SiteError> {
    let Some(text) = m.store.read_game(id)? else {
        return Ok(Done::Gone);
    };
    // The bot's analysis, when it comes, remakes the game's pages.
    let analysis = m
        .store
        .analysis_text(id)
        .ok()
        .flatten()
        .map_or(0, |a| store::stable_hash(a.as_bytes()));
    let hash = store::stable_hash(text.as_bytes()) ^ m.templates ^ analysis.rotate_left(17);
    let old = m.old.games.get(id);
    if let Some(old) = old
        && old.hash == hash
        && (1..=old.prints.len().max(1))
            .all(|k| m.dir.join("games").join(pager::file(id, k)).exists())
    {
        return Ok(Done::Kept(old.clone()));
    }
    let record = match Record::parse(&format!("{id}.toml"), &text) {
        Ok(r) => r,
        Err(e) => return Ok(Done::Skipped(e.to_string())),
    };
    drop(text);
    match game::pages(m, id, &record, old) {
        Ok((summary, wrote)) => Ok(Done::Made(Summary { hash, ..summary }, wrote)),
        Err(game::GameError::Record(e)) => Ok(Done::Skipped(e)),
        Err(game::GameError::Site(e)) => Err(e),
    }
}

/// The name of the page of the player at `address`: HMAC-SHA256 of the
/// address under the site's key (from the OS's random source, kept in
/// the data folder: [`key`]), cut to 96 bits: without the key, nobody
/// can tell from the names whether an address plays here (an unkeyed or
/// merely salted fast hash could be inverted from one known address).
pub(crate) fn player_page(key: &str, address: &str) -> String {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, key.as_bytes());
    let tag = ring::hmac::sign(&key, crate::reply::address_of(address).as_bytes());
    tag.as_ref()[..12]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn read_manifest(path: &Path) -> Manifest {
    // A manifest that does not read back is made anew: every page is
    // then remade, nothing is lost.
    std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Writes `html` to `path` when it differs from what is there; whether
/// it did.
fn write_page(path: &Path, html: &str) -> Result<bool, SiteError> {
    if std::fs::read(path).is_ok_and(|old| old == html.as_bytes()) {
        return Ok(false);
    }
    write_file(path, html.as_bytes())?;
    Ok(true)
}

/// Writes `bytes` to `path` atomically: a reader sees the old file or the
/// new one, never part of one.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), SiteError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io(dir))?;
    std::io::Write::write_all(&mut tmp, bytes).map_err(io(path))?;
    // For a web server to read.
    let readable = std::os::unix::fs::PermissionsExt::from_mode(0o644);
    tmp.as_file().set_permissions(readable).map_err(io(path))?;
    tmp.persist(path).map_err(|e| SiteError::Io {
        path: path.to_path_buf(),
        source: e.error,
    })?;
    Ok(())
}
