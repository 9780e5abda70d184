//! The web archive (issue 17): a self-contained static site made from the
//! data folder, by `pbem site DIR` and, with `[site] dir` in pbem.toml,
//! by the daemon after each batch.
//!
//! What it writes under DIR: `index.html` (the newest games in play and
//! finished, and links to the rest), `games/ID.html` (one game: its board
//! at every move as SVG, stepped through with links and CSS `:target`,
//! and with arrow keys and a slider where JavaScript runs; its moves,
//! players, result, series and tournament), `by-game/SLUG.html`,
//! `players/P.html` (a player's games), `rules/SLUG.html`,
//! `tournaments/NAME.html`, `ratings/SLUG.html`, and `site.json`, what
//! the pages were made from.
//!
//! Players are shown by their display name or their address cut short
//! (`bob@e…`), never by address unless the admin allows it; a player's
//! page is named by a keyed hash of their address (the key from the OS's
//! random source, kept in `site.json`), so its name tells nothing; no
//! page has a key or a record (a record names the players' addresses).
//!
//! Pages are written atomically, and only when their text changed: an
//! update after one move rewrites that game's page and the lists it is
//! on. A game page is remade only when its record changed (`site.json`
//! keeps each record's hash), and a list page only when its games did
//! (`pages::Reuse`), so a site of ten thousand games is brought up to
//! date by reading the records, not by drawing them. The game pages to
//! make are drawn on all cores (`spread`), gathered in order.

mod pages;
mod spread;
#[cfg(test)]
mod tests;

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
    /// Game pages remade (their records changed).
    pub remade: usize,
    /// Records that could not be read, with why: not on the site.
    pub skipped: Vec<String>,
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
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> SiteError + '_ {
    move |source| SiteError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// What the pages were made from (`site.json`).
#[derive(Debug, Default, Serialize, Deserialize)]
struct Manifest {
    /// The key of the players' page names.
    key: String,
    options: Options,
    games: BTreeMap<String, Summary>,
    /// What each list page was made from (`pages::Reuse`).
    #[serde(default)]
    lists: BTreeMap<String, u64>,
}

/// One game as the lists show it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct Summary {
    /// The hash of its record, to tell when it changed.
    hash: u64,
    pub(crate) id: String,
    pub(crate) slug: String,
    pub(crate) game: String,
    pub(crate) players: Vec<Player>,
    /// Over: its result in words; in play: who is to move.
    pub(crate) over: bool,
    pub(crate) state: String,
    pub(crate) moves: usize,
    /// The time of its last line, or its creation, RFC 3339.
    pub(crate) when: String,
    pub(crate) series: Option<String>,
    pub(crate) tournament: Option<String>,
    pub(crate) round: Option<u32>,
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

/// Builds or brings up to date the site in `dir` from `store`; calls
/// `progress(done, of)` after each game.
///
/// # Errors
/// A page that cannot be written, a data folder that cannot be read.
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
    let mut manifest = read_manifest(&manifest_path);
    if manifest.key.is_empty() {
        manifest.key = store::new_token()?;
    }
    // Other options change every page.
    if manifest.options != *options {
        manifest.games.clear();
        manifest.lists.clear();
        manifest.options = options.clone();
    }
    let env = pages::environment();
    let mut built = Built::default();
    let ids = store.game_ids()?;
    let done = spread::each(
        ids.len(),
        |i| one_game(store, dir, &env, &manifest, options, &ids[i]),
        progress,
    );
    let mut games = BTreeMap::new();
    for (id, done) in ids.iter().zip(done) {
        match done? {
            Done::Kept(summary) => {
                built.unchanged += 1;
                games.insert(id.clone(), summary);
            }
            Done::Made(summary, written) => {
                built.remade += 1;
                if written {
                    built.written += 1;
                } else {
                    built.unchanged += 1;
                }
                games.insert(id.clone(), summary);
            }
            Done::Skipped(why) => built.skipped.push(why),
            Done::Gone => {}
        }
    }
    // Pages of games no longer in the data folder go.
    for gone in manifest.games.keys().filter(|id| !games.contains_key(*id)) {
        let _ = std::fs::remove_file(dir.join("games").join(format!("{gone}.html")));
    }
    manifest.games = games;
    built.games = manifest.games.len();
    let mut reuse = pages::Reuse::new(dir, &manifest.lists);
    let lists = pages::lists(&env, store, &manifest.games, options, &mut reuse)?;
    built.unchanged += reuse.kept;
    manifest.lists = reuse.new;
    for (path, html) in lists {
        if write_page(&dir.join(path), &html)? {
            built.written += 1;
        } else {
            built.unchanged += 1;
        }
    }
    let json = serde_json::to_string_pretty(&manifest).unwrap_or_default();
    write_file(&manifest_path, json.as_bytes())?;
    Ok(built)
}

/// What became of one game's page.
enum Done {
    /// Left as it was: its record did not change.
    Kept(Summary),
    /// Made from its record; whether its text changed.
    Made(Summary, bool),
    /// Not on the site: why.
    Skipped(String),
    /// Its record went while the site was being made.
    Gone,
}

/// Game `id`'s page: kept when its record is what it was made from,
/// else made anew (read, replayed, drawn) and written if it changed.
fn one_game(
    store: &Store,
    dir: &Path,
    env: &minijinja::Environment<'_>,
    manifest: &Manifest,
    options: &Options,
    id: &str,
) -> Result<Done, SiteError> {
    let Some(text) = store.read_game(id)? else {
        return Ok(Done::Gone);
    };
    let hash = store::stable_hash(text.as_bytes());
    let page = dir.join("games").join(format!("{id}.html"));
    if let Some(old) = manifest.games.get(id)
        && old.hash == hash
        && page.exists()
    {
        return Ok(Done::Kept(old.clone()));
    }
    let record = match Record::parse(&format!("{id}.toml"), &text) {
        Ok(r) => r,
        Err(e) => return Ok(Done::Skipped(e.to_string())),
    };
    let game = match pages::game(env, id, &record, manifest, options) {
        Ok(g) => g,
        Err(pages::GameError::Record(e)) => return Ok(Done::Skipped(e)),
        Err(pages::GameError::Template(e)) => return Err(e.into()),
    };
    let written = write_page(&page, &game.html)?;
    Ok(Done::Made(
        Summary {
            hash,
            ..game.summary
        },
        written,
    ))
}

/// The name of the page of the player at `address`: HMAC-SHA256 of the
/// address under the site's key (from the OS's random source, kept in
/// `site.json`), cut to 96 bits: without the key, nobody can tell from
/// the names whether an address plays here (an unkeyed or merely
/// salted fast hash could be inverted from one known address).
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
