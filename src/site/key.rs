//! The key that names the players' pages (`players/P.html`, P a keyed
//! hash of the address: [`super::player_page`]). Whoever holds it can
//! test any address against the page names, so it is kept with the
//! players' other secrets, `DATA/secrets/site-key` (mode 0600, replaced
//! atomically), never in the folder the web server serves.
//!
//! A site made before kept it in its `site.json`: the first build moves it
//! into the data folder (so the page names stay what they were) and
//! writes `site.json` without it. A key that is missing or damaged is made
//! anew only when no site was made with it; else the build stops and says
//! how to get the page names back, or to name the pages anew
//! (`pbem site DIR --new-key`).

use super::{SiteError, io};
use crate::store::{self, Store};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Where the key is kept.
pub(crate) fn path(store: &Store) -> PathBuf {
    store.root().join("secrets").join("site-key")
}

/// The key a build names the players' pages with, and what became of it.
pub(super) struct Key {
    pub key: String,
    /// What the admin should know: the key was moved, made anew, or the
    /// page names changed.
    pub note: Option<String>,
}

/// What is in the key's file.
enum Kept {
    Key(String),
    Missing,
    Damaged(String),
}

/// Whether `text` is a key as [`store::new_token`] makes them.
fn valid(text: &str) -> bool {
    text.len() >= 12
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

fn read(path: &Path) -> Result<Kept, SiteError> {
    match std::fs::read(path) {
        Ok(bytes) => match std::str::from_utf8(&bytes).map(str::trim) {
            Ok(k) if valid(k) => Ok(Kept::Key(k.to_string())),
            _ => Ok(Kept::Damaged(format!(
                "it holds {} bytes that are no key",
                bytes.len()
            ))),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Kept::Missing),
        Err(e) => Err(io(path)(e)),
    }
}

/// Writes `key` to `path` atomically with mode 0600; over what is there
/// only when `replace`, else only if nothing is: when two builds make a
/// key at once, both then use the one that got there first (the key read
/// back).
fn write(path: &Path, key: &str, replace: bool) -> Result<String, SiteError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".pbem-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(io(dir))?;
    tmp.write_all(format!("{key}\n").as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(io(path))?;
    let persisted = if replace {
        tmp.persist(path)
    } else {
        tmp.persist_noclobber(path)
    };
    match persisted {
        Ok(_) => {}
        Err(e) if !replace && e.error.kind() == std::io::ErrorKind::AlreadyExists => {
            if let Kept::Key(theirs) = read(path)? {
                return Ok(theirs);
            }
            return Err(io(path)(e.error));
        }
        Err(e) => return Err(io(path)(e.error)),
    }
    let _ = std::fs::File::open(dir).and_then(|d| d.sync_all());
    Ok(key.to_string())
}

/// Replaces the key with a new one from the OS's random source: every
/// player's page is named anew (the old names are removed at the next
/// build).
///
/// # Errors
/// No randomness, or the key cannot be written.
pub fn renew(store: &Store) -> Result<(), SiteError> {
    write(&path(store), &store::new_token()?, true)?;
    Ok(())
}

/// The key for the site in `dir`: the data folder's; else the one its
/// `site.json` held (`legacy`, moved into the data folder); else a new
/// one when no site was made in `dir` (`made`: pages named with a key
/// are there).
pub(super) fn for_site(
    store: &Store,
    dir: &Path,
    legacy: Option<&str>,
    made: bool,
) -> Result<Key, SiteError> {
    let path = path(store);
    let legacy = legacy.filter(|k| valid(k));
    let kept = read(&path)?;
    if let Kept::Key(key) = kept {
        let note = legacy.filter(|l| *l != key && made).map(|_| {
            format!(
                "{}/site.json held a key other than the data folder's ({}): the players' pages \
                 are named anew with the data folder's, and the old names removed",
                dir.display(),
                path.display()
            )
        });
        return Ok(Key { key, note });
    }
    let (replace, why) = match kept {
        Kept::Damaged(why) => (true, why),
        _ => (false, "it is missing".to_string()),
    };
    if let Some(old) = legacy {
        let key = write(&path, old, replace)?;
        let note = format!(
            "the key of the players' page names moved from {}/site.json, which the web server \
             may serve, to {}",
            dir.display(),
            path.display()
        );
        return Ok(Key {
            key,
            note: Some(note),
        });
    }
    if made {
        return Err(SiteError::KeyLost {
            path,
            why,
            dir: dir.to_path_buf(),
        });
    }
    let key = write(&path, &store::new_token()?, replace)?;
    let note = replace.then(|| format!("{}: {why}; made anew", path.display()));
    Ok(Key { key, note })
}

#[cfg(test)]
mod tests {
    use super::super::{Options, build};
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    /// A data folder with one game between two players, and a site of it.
    fn site() -> (tempfile::TempDir, Store, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("data")).unwrap();
        let text = "format = 1\nrules = \"mad\"\nfirst = \"black\"\n\n[players]\n\
                    black = \"Ann <ann@example.org>\"\nred = \"Bob <bob@example.org>\"\n";
        store.write_game("mad-k1", text).unwrap();
        let www = dir.path().join("www");
        (dir, store, www)
    }

    fn make(store: &Store, www: &Path) -> Result<super::super::Built, SiteError> {
        build(store, www, &Options::default(), &mut |_, _| {})
    }

    fn players(www: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(www.join("players"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// Whether any file under `dir` holds `text`.
    fn anywhere(dir: &Path, text: &str) -> Option<PathBuf> {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            let found = if p.is_dir() {
                anywhere(&p, text)
            } else {
                let bytes = std::fs::read(&p).unwrap();
                String::from_utf8_lossy(&bytes).contains(text).then_some(p)
            };
            if found.is_some() {
                return found;
            }
        }
        None
    }

    #[test]
    fn the_key_is_kept_in_the_data_folder_and_no_served_file_holds_it() {
        let (_dir, store, www) = site();
        let built = make(&store, &www).unwrap();
        assert!(built.notes.is_empty(), "{:?}", built.notes);
        let file = path(&store);
        let key = std::fs::read_to_string(&file).unwrap().trim().to_string();
        assert!(valid(&key), "{key}");
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(anywhere(&www, &key), None);
        assert_eq!(players(&www).len(), 2);
        // Read back: the same names the next time.
        let names = players(&www);
        make(&store, &www).unwrap();
        assert_eq!(players(&www), names);
        assert_eq!(std::fs::read_to_string(&file).unwrap().trim(), key);
    }

    #[test]
    fn a_key_in_an_old_sites_manifest_moves_out_and_its_page_names_stay() {
        let (_dir, store, www) = site();
        make(&store, &www).unwrap();
        let names = players(&www);
        assert_eq!(names.len(), 2);
        // The site as pbem made it before: the key in its site.json, none
        // in the data folder.
        let key = std::fs::read_to_string(path(&store))
            .unwrap()
            .trim()
            .to_string();
        std::fs::remove_file(path(&store)).unwrap();
        let json = std::fs::read_to_string(www.join("site.json")).unwrap();
        let mut manifest: serde_json::Value = serde_json::from_str(&json).unwrap();
        manifest["key"] = key.clone().into();
        manifest.as_object_mut().unwrap().remove("names");
        std::fs::write(www.join("site.json"), manifest.to_string()).unwrap();

        let built = make(&store, &www).unwrap();
        assert!(built.notes[0].contains("moved from"), "{:?}", built.notes);
        assert_eq!(std::fs::read_to_string(path(&store)).unwrap().trim(), key);
        assert_eq!(players(&www), names, "the page names are what they were");
        assert_eq!(
            anywhere(&www, &key),
            None,
            "no file of the site holds the key"
        );
        assert!(
            built.remade == 0,
            "nothing but the manifest changed: {built:?}"
        );
    }

    #[test]
    fn a_lost_key_stops_the_build_until_the_pages_are_named_anew() {
        let (_dir, store, www) = site();
        make(&store, &www).unwrap();
        let names = players(&www);
        for damage in [None, Some("not a key!")] {
            match damage {
                None => std::fs::remove_file(path(&store)).unwrap(),
                Some(text) => std::fs::write(path(&store), text).unwrap(),
            }
            let e = make(&store, &www).unwrap_err();
            assert!(matches!(e, SiteError::KeyLost { .. }), "{e}");
            let said = e.to_string();
            assert!(
                said.contains("--new-key") && said.contains("site-key"),
                "{said}"
            );
            assert_eq!(players(&www), names, "nothing renamed");
        }
        renew(&store).unwrap();
        make(&store, &www).unwrap();
        let renamed = players(&www);
        assert_eq!(renamed.len(), 2);
        assert!(
            renamed.iter().all(|n| !names.contains(n)),
            "the old names go"
        );
        // A new site, with no page named yet, makes its key itself.
        let (_dir, store, www) = site();
        std::fs::write(path(&store), "damaged").unwrap();
        let built = make(&store, &www).unwrap();
        assert!(built.notes[0].contains("made anew"), "{:?}", built.notes);
    }
}
