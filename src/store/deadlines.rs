//! The clocks' files and the deadline index, `DATA/due/`: which games
//! may owe a clock's notice at a given time, so that a poll looks at
//! those only.

use super::batch::{lock, toml_text};
use super::files::{SyncSet, remove_if_there, write_atomic_via};
use super::ids::PathHasher;
use super::index::ClockSummary;
use super::{GameClock, Store, StoreError, io_err, read_opt, valid_id};
use crate::timecontrol::ClockPolicy;
use std::fs::{self, File};
use std::path::{Path, PathBuf};

/// How far ahead of the poll that builds the deadline index it makes
/// markers (see [`Store::due_clocks`]).
pub const HORIZON: chrono::TimeDelta = chrono::TimeDelta::hours(1);

/// How many clock files' texts [`parsed_clock`] remembers: two batches'
/// worth of games, some 200 KB.
const PARSED_CLOCKS: usize = 256;

thread_local! {
    /// Clock files' texts and what they parse as ([`parsed_clock`]).
    static PARSED: std::cell::RefCell<
        std::collections::HashMap<String, GameClock, std::hash::BuildHasherDefault<PathHasher>>,
    > = std::cell::RefCell::default();
}

/// What the text of a clock file parses as, remembered: a mail reads its
/// game's clock twice (the adjudicator, then the write that replaces it,
/// for the marker of the deadline index it leaves) and the index sums up
/// the clock it wrote; TOML's parser takes some 15,000 instructions a
/// clock. A text parses the same however often; only pbem's reads and
/// writes are kept (`remember`), at most [`PARSED_CLOCKS`], then all are
/// forgotten at once; a folder's scan looks them up and keeps none.
pub(super) fn parsed_clock(text: &str, remember: bool) -> Result<GameClock, toml::de::Error> {
    if let Some(c) = PARSED.with_borrow(|parsed| parsed.get(text).cloned()) {
        return Ok(c);
    }
    let c: GameClock = toml::from_str(text)?;
    if remember {
        remember_clock(text, &c);
    }
    Ok(c)
}

/// Notes that `text` parses as `clock` (pbem wrote it so: a debug build
/// parses it to make sure), for [`parsed_clock`].
fn remember_clock(text: &str, clock: &GameClock) {
    debug_assert_eq!(
        toml::from_str::<GameClock>(text).ok().as_ref(),
        Some(clock),
        "a clock as written and as read back"
    );
    PARSED.with_borrow_mut(|parsed| {
        if parsed.len() >= PARSED_CLOCKS {
            parsed.clear();
        }
        parsed.insert(text.to_string(), clock.clone());
    });
}

/// The time the first line of `DATA/due/policy` says the markers were
/// made until: `until = "<RFC 3339>"`.
fn built_until(line: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    let t = line.strip_prefix("until = ")?.trim().trim_matches('"');
    chrono::DateTime::parse_from_rfc3339(t)
        .ok()
        .map(|t| t.to_utc())
}

impl Store {
    /// The clock of game `id`, if it has one.
    ///
    /// # Errors
    /// I/O errors or a damaged file.
    pub fn clock(&self, id: &str) -> Result<Option<GameClock>, StoreError> {
        self.read_parsed(&self.checked("clocks", id)?, |t| parsed_clock(t, true))
    }

    /// Writes game `id`'s clock and keeps the deadline index up to date:
    /// the marker of the new [`ClockState::next_due`] is made before the
    /// clock is written, the old one removed after (see [`Store::due_clocks`]).
    ///
    /// [`ClockState::next_due`]: crate::timecontrol::ClockState::next_due
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write_clock(
        &self,
        id: &str,
        c: &GameClock,
        policy: &ClockPolicy,
    ) -> Result<(), StoreError> {
        let p = self.checked("clocks", id)?;
        let old = self
            .read_parsed(&p, |t| parsed_clock(t, true))
            .ok()
            .flatten()
            .and_then(|o| self.due_marker(id, &o, policy));
        let new = self.due_marker(id, c, policy);
        if let Some(m) = &new {
            self.add_marker(m)?;
        }
        let text = toml_text(&p, c)?;
        remember_clock(&text, c);
        self.write_file(&p, &text)?;
        if let Some(m) = old.filter(|m| Some(m) != new.as_ref()) {
            self.drop_marker(m);
        }
        Ok(())
    }

    /// The games whose clocks may owe a notice at `now`, with the marker
    /// of the deadline index that named each: a poll looks at these only,
    /// not at every clock (with 100,000 games, reading every
    /// clock file made each poll take seconds).
    ///
    /// The index, `DATA/due/<YYYYMMDD>/<HHMMSS>.<id>`, holds one empty
    /// file per running clock, named by its [`ClockState::next_due`]
    /// (rounded down to the second) under `policy`, for every clock due
    /// before the time `DATA/due/policy` says it was built until: a
    /// clock's write makes its marker, and a build makes those of the
    /// clocks due before an hour from now ([`HORIZON`]), so that it makes
    /// few whatever the number of games. Once `now` reaches that time, the
    /// markers of the next hour are made (from the clocks' index,
    /// `DATA/index/clocks.idx`: one file read, not every clock). When
    /// `DATA/due/policy` is missing (an older data folder, a crash while
    /// building) or names another policy (pbem.toml's `[clock]` changed),
    /// the markers are all made again.
    ///
    /// [`ClockState::next_due`]: crate::timecontrol::ClockState::next_due
    ///
    /// # Errors
    /// When the index or the clocks cannot be read or the index written.
    pub fn due_clocks(
        &self,
        now: chrono::DateTime<chrono::Utc>,
        policy: &ClockPolicy,
    ) -> Result<Vec<(String, PathBuf)>, StoreError> {
        let due = self.root.join("due");
        let stamp = toml::to_string(policy).map_err(|source| StoreError::Encode {
            path: due.join("policy").display().to_string(),
            source,
        })?;
        let built = read_opt(&due.join("policy"))?;
        let (until, same) = match built.as_deref().and_then(|t| t.split_once('\n')) {
            Some((first, rest)) => (built_until(first), rest == stamp),
            None => (None, false),
        };
        if !same || until.is_none_or(|u| now >= u) {
            if !self.any_clock()? {
                // No clock, nothing to index (nor a file to write).
                return Ok(Vec::new());
            }
            self.build_due(policy, &stamp, now + HORIZON, same)?;
        }
        let (today, time) = (
            now.format("%Y%m%d").to_string(),
            now.format("%H%M%S").to_string(),
        );
        let mut days: Vec<(String, PathBuf)> = fs::read_dir(&due)
            .map_err(io_err(&due))?
            .filter_map(|e| e.ok())
            .filter_map(|e| Some((e.file_name().to_str()?.to_string(), e.path())))
            .filter(|(day, _)| day.len() == 8 && day.bytes().all(|b| b.is_ascii_digit()))
            .filter(|(day, _)| *day <= today)
            .collect();
        days.sort();
        let mut out = Vec::new();
        for (day, dir) in days {
            let mut names: Vec<String> = fs::read_dir(&dir)
                .map_err(io_err(&dir))?
                .filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .collect();
            if names.is_empty() && day < today {
                let _ = fs::remove_dir(&dir);
            }
            names.sort();
            for name in names {
                let Some((at, id)) = name.split_once('.') else {
                    continue;
                };
                if (day < today || at <= time.as_str()) && valid_id(id) {
                    out.push((id.to_string(), dir.join(&name)));
                }
            }
        }
        Ok(out)
    }

    /// After a look at game `id`'s clock found nothing due: the index's
    /// `marker` is moved to the clock's [`ClockState::next_due`] (it was
    /// early: a clock changed behind the index, or rounding), or removed
    /// when the clock has stopped or is gone.
    ///
    /// [`ClockState::next_due`]: crate::timecontrol::ClockState::next_due
    ///
    /// # Errors
    /// I/O errors; a damaged clock file.
    pub fn recheck_due(
        &self,
        id: &str,
        marker: &Path,
        policy: &ClockPolicy,
    ) -> Result<(), StoreError> {
        let next = self
            .clock(id)?
            .and_then(|c| self.due_marker(id, &c, policy));
        if next.as_deref() == Some(marker) {
            return Ok(());
        }
        if let Some(m) = &next {
            self.add_marker(m)?;
        }
        self.drop_marker(marker.to_path_buf());
        Ok(())
    }

    /// Makes the markers of the deadline index (see [`Store::due_clocks`])
    /// of every clock due before `until`, after removing every marker
    /// unless `extend`; then notes `until` and the policy.
    fn build_due(
        &self,
        policy: &ClockPolicy,
        stamp: &str,
        until: chrono::DateTime<chrono::Utc>,
        extend: bool,
    ) -> Result<(), StoreError> {
        let due = self.root.join("due");
        let stamp_file = due.join("policy");
        if !extend {
            remove_if_there(&stamp_file)?;
            for e in fs::read_dir(&due).map_err(io_err(&due))?.flatten() {
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    fs::remove_dir_all(e.path()).map_err(io_err(&e.path()))?;
                }
            }
        }
        let mut made = SyncSet::default();
        // The poll holds the lock; what the index lacks is read from the
        // clocks' files and added to it. One clock at a time: none is
        // kept (100,000 of them held at once were the daemon's peak), and
        // their names listed a part of the folder at a time.
        let mut mark = |id: &str, c: ClockSummary| -> Result<(), StoreError> {
            // A damaged clock is left to the poll, which reports it.
            let ClockSummary::Clock(c) = c else {
                return Ok(());
            };
            if c.state.next_due(policy).is_some_and(|at| at < until)
                && let Some(m) = self.due_marker(id, &c, policy)
                && !m.exists()
            {
                let dir = m.parent().unwrap_or(&due);
                if !dir.is_dir() {
                    made.folder(&due);
                }
                fs::create_dir_all(dir).map_err(io_err(dir))?;
                File::create(&m).map_err(io_err(&m))?;
                made.made(&m);
            }
            Ok(())
        };
        self.scan_summaries_in_parts::<ClockSummary>(&mut mark)?;
        // Every marker on disk before the index says it is whole; the
        // stamp at once, also from a batch view (the index is not the
        // batch's: it only names clocks to look at).
        made.sync()?;
        let text = format!("until = \"{}\"\n{stamp}", until.to_rfc3339());
        write_atomic_via(&stamp_file, text, &self.root.join("tmp"), true)
            .map_err(io_err(&stamp_file))
    }

    /// The marker of game `id` whose clock is `c`: named by the clock's
    /// [`ClockState::next_due`] under `policy`; none when it owes nothing.
    ///
    /// [`ClockState::next_due`]: crate::timecontrol::ClockState::next_due
    fn due_marker(&self, id: &str, c: &GameClock, policy: &ClockPolicy) -> Option<PathBuf> {
        let at = c.state.next_due(policy)?;
        Some(
            self.root
                .join("due")
                .join(at.format("%Y%m%d").to_string())
                .join(format!("{}.{id}", at.format("%H%M%S"))),
        )
    }

    /// Creates a marker (again: a crash may have lost it while the clock
    /// it names was kept). On a plain store it is durable when this
    /// returns; in a batch, at its next sync, before the clock that names
    /// it is renamed into place.
    fn add_marker(&self, m: &Path) -> Result<(), StoreError> {
        if m.exists() {
            return Ok(());
        }
        let dir = m.parent().unwrap_or(&self.root);
        let new_dir = !dir.exists();
        fs::create_dir_all(dir).map_err(io_err(dir))?;
        let own = self.make_marker(m)?;
        let due = self.root.join("due");
        self.note(|set| {
            // A link: its entry (the shared file holds no data, and the
            // count of its links goes with the entry: in one transaction
            // on a file system with a journal, mended by the check after
            // a crash on one without). A file of its own: its inode too.
            match own {
                true => set.made(m),
                false => set.folder(dir),
            }
            if new_dir {
                set.folder(&due);
            }
        })
    }

    /// Makes the empty file `m`: a link to one empty file of the data
    /// folder (`DATA/tmp/.marker`), so that markers made and removed for
    /// every move of a game with a clock make and free no inode (each
    /// costs on ext4 without a journal: see [`super::spares`]); a file of
    /// its own when there is no such link to make (too many links, a
    /// folder mounted apart): whether it is a file of its own.
    fn make_marker(&self, m: &Path) -> Result<bool, StoreError> {
        let shared = self.root.join("tmp").join(".marker");
        let mut made_shared = false;
        let linked = fs::hard_link(&shared, m).or_else(|e| {
            if e.kind() != std::io::ErrorKind::NotFound {
                return Err(e);
            }
            File::create(&shared)?;
            made_shared = true;
            fs::hard_link(&shared, m)
        });
        // The shared file, when made now: its inode and its entry in
        // `tmp/`.
        if linked.is_ok() && made_shared {
            self.note(|set| set.made(&shared))?;
        }
        match linked {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(_) => File::create(m).map(|_| true).map_err(io_err(m)),
            Ok(()) => Ok(false),
        }
    }

    /// Removes a marker replaced by another: now on a plain store (the new
    /// one is durable), after [`Store::sync`] in a batch.
    fn drop_marker(&self, m: PathBuf) {
        match &self.batch {
            Some(b) => lock(&b.stale).push(m),
            None => {
                let _ = fs::remove_file(m);
            }
        }
    }

    /// Whether a game has a clock: the first of the folder's files read,
    /// not all of them.
    fn any_clock(&self) -> Result<bool, StoreError> {
        let dir = self.root.join("clocks");
        let on_disk = fs::read_dir(&dir)
            .map_err(io_err(&dir))?
            .flatten()
            .any(|e| {
                e.file_name()
                    .to_str()
                    .and_then(|n| n.strip_suffix(".toml"))
                    .is_some_and(valid_id)
            });
        Ok(on_disk
            || self.batch.as_ref().is_some_and(|b| {
                lock(&b.pending)
                    .files
                    .iter()
                    .any(|(p, text)| text.is_some() && Path::new(p).parent() == Some(dir.as_path()))
            }))
    }

    /// The ids of games with a clock.
    ///
    /// # Errors
    /// When the folder cannot be read.
    pub fn clock_ids(&self) -> Result<Vec<String>, StoreError> {
        self.ids_in("clocks")
    }
}
