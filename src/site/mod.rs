//! The web archive (issue 17): a self-contained static site made from the
//! data folder, by `pbem site DIR` and, with `[site] dir` in pbem.toml,
//! by the daemon after each batch.
//!
//! What it writes under DIR: `index.html` (the games in play and
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
//! keeps each record's hash), so a site of ten thousand games is brought
//! up to date by reading the records, not by drawing them.

mod pages;

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
        manifest.options = options.clone();
    }
    let env = pages::environment();
    let mut built = Built::default();
    let ids = store.game_ids()?;
    let mut games = BTreeMap::new();
    for (n, id) in ids.iter().enumerate() {
        progress(n, ids.len());
        let Some(text) = store.read_game(id)? else {
            continue;
        };
        let hash = store::stable_hash(text.as_bytes());
        let page = dir.join("games").join(format!("{id}.html"));
        if let Some(old) = manifest.games.remove(id)
            && old.hash == hash
            && page.exists()
        {
            games.insert(id.clone(), old);
            continue;
        }
        let record = match Record::parse(&format!("{id}.toml"), &text) {
            Ok(r) => r,
            Err(e) => {
                built.skipped.push(e.to_string());
                continue;
            }
        };
        let game = match pages::game(&env, id, &record, &manifest, options) {
            Ok(g) => g,
            Err(pages::GameError::Record(e)) => {
                built.skipped.push(e);
                continue;
            }
            Err(pages::GameError::Template(e)) => return Err(e.into()),
        };
        let summary = Summary {
            hash,
            ..game.summary
        };
        write_page(&page, &game.html, &mut built)?;
        built.remade += 1;
        games.insert(id.clone(), summary);
    }
    progress(ids.len(), ids.len());
    // Pages of games no longer in the data folder go.
    for gone in manifest.games.keys() {
        let _ = std::fs::remove_file(dir.join("games").join(format!("{gone}.html")));
    }
    manifest.games = games;
    built.games = manifest.games.len();
    for (path, html) in pages::lists(&env, store, &manifest.games, options)? {
        write_page(&dir.join(path), &html, &mut built)?;
    }
    let json = serde_json::to_string_pretty(&manifest).unwrap_or_default();
    write_file(&manifest_path, json.as_bytes())?;
    Ok(built)
}

/// The name of the page of the player at `address`: a keyed hash, so it
/// tells nothing of the address.
pub(crate) fn player_page(key: &str, address: &str) -> String {
    let mut bytes = key.as_bytes().to_vec();
    bytes.push(0);
    bytes.extend(crate::reply::address_of(address).as_bytes());
    let h = store::stable_hash(&bytes);
    let mut again = h.to_le_bytes().to_vec();
    again.extend(key.as_bytes());
    format!("{h:016x}{:08x}", store::stable_hash(&again) as u32)
}

fn read_manifest(path: &Path) -> Manifest {
    // A manifest that does not read back is made anew: every page is
    // then remade, nothing is lost.
    std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Writes `html` to `path` when it differs from what is there.
fn write_page(path: &Path, html: &str, built: &mut Built) -> Result<(), SiteError> {
    if std::fs::read(path).is_ok_and(|old| old == html.as_bytes()) {
        built.unchanged += 1;
        return Ok(());
    }
    write_file(path, html.as_bytes())?;
    built.written += 1;
    Ok(())
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
