//! A folder listed a part at a time: what a running daemon does with
//! every file of a folder (its hourly look at the clocks, an index written
//! anew) holds the names of about [`PART_FILES`] files at once, however
//! many games there are. A folder of more is split by a hash of each id
//! into parts of about that many; each part is listed, and the index read
//! for its lines, one after the other. At 100,000 games a listing of the
//! whole folder took 1.4 MB, a tenth of the daemon's memory; a part takes
//! about 200 KB, and the index is read once per part (a line of another
//! part is passed over by its id, unparsed).

use super::hashpart::Part;
use super::scan::{Bits, Body, Files, Scanned, copy_vouched, read_untaken};
use super::{Reader, Summary};
use crate::store::{Store, StoreError};
use std::path::Path;

/// The most files of a folder listed at once (about 14 bytes each).
pub(super) const PART_FILES: usize = 16_384;

/// The files of folder `dir`, handed to `each` a part at a time: the
/// whole folder at once when it holds at most `most` files, else in
/// parts of about `most`.
///
/// # Errors
/// When the folder cannot be read, or `each` fails.
pub(super) fn each_part(
    dir: &Path,
    most: usize,
    each: &mut dyn FnMut(Part, &Files) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let (files, count) = Files::list_at_most(dir, Part::WHOLE, most)?;
    if count <= most {
        return each(Part::WHOLE, &files);
    }
    drop(files);
    let of = count.div_ceil(most.max(1)) as u64;
    for index in 0..of {
        let part = Part { index, of };
        each(part, &Files::list(dir, part)?)?;
    }
    Ok(())
}

impl Store {
    /// [`Store::scan_summaries`] for the poll (it holds the data folder's
    /// lock) in the memory of one part of the folder (see the module's
    /// notes), whatever its size: the order of the summaries is the
    /// parts' order. What was read is added to the index; the index is
    /// written anew, a part at a time, when it was damaged or mostly
    /// stale. A folder whose index is missing or another pbem's is
    /// scanned whole, and its index written anew.
    ///
    /// # Errors
    /// When the folder or a file cannot be read, or `each` fails.
    pub fn scan_summaries_in_parts<T: Summary>(
        &self,
        each: &mut dyn FnMut(&str, T) -> Result<(), StoreError>,
    ) -> Result<Scanned, StoreError> {
        self.scan_in_parts_of::<T>(PART_FILES, each)
    }

    /// [`Store::scan_summaries_in_parts`], in parts of about `most`.
    pub(super) fn scan_in_parts_of<T: Summary>(
        &self,
        most: usize,
        each: &mut dyn FnMut(&str, T) -> Result<(), StoreError>,
    ) -> Result<Scanned, StoreError> {
        let path = self.index_path(T::FOLDER);
        if !matches!(Reader::open(&path, T::FOLDER)?, Ok(Some((true, _)))) {
            return self.scan_summaries::<T>(super::Refresh::StaleLocked, &mut |_, _| {}, each);
        }
        let dir = self.root.join(T::FOLDER);
        let mut fresh = Body::new(0, &self.root.join("tmp"));
        let (mut problems, mut read, mut found) = (Vec::new(), 0, 0);
        each_part(&dir, most, &mut |part, files| {
            let mut taken = Bits::new(files.len());
            let old = self.take_from_index::<T>(files, part, &mut taken, each)?;
            problems.extend(old.problems);
            fresh.begin(files.len());
            let got = read_untaken(&dir, files, &taken, &mut fresh, &mut |_, _| {}, each)?;
            found += taken.count() + got;
            read += got;
            Ok(())
        })?;
        // As a whole scan does for a poll: the listing is right without
        // the index, which the next scan mends when it cannot be written.
        if !problems.is_empty() || 2 * read > found || fresh.in_memory().is_none() {
            let _ = self.rewrite_index::<T>(&path, Some(&mut fresh), true, most);
        } else if let Some(lines) = fresh.in_memory().filter(|l| !l.is_empty()) {
            let _ = self.add_lines::<T>(&path, lines);
        }
        Ok(Scanned { problems, read })
    }

    /// Writes the index of `T::FOLDER` at `path` anew, a part of the
    /// folder at a time (parts of about `most` files): for each file, the
    /// first line that vouches for it (its stamp is the file's) of `new`,
    /// then of the old index when `keep` (it is this pbem's). A file no
    /// line vouches for is left out, to be read by the next reader; so is
    /// a removed one.
    ///
    /// # Errors
    /// When the old index, `new` or a file cannot be read, or the index
    /// written.
    pub(super) fn rewrite_index<T: Summary>(
        &self,
        path: &Path,
        mut new: Option<&mut Body>,
        keep: bool,
        most: usize,
    ) -> Result<(), StoreError> {
        let mut body = Body::new(0, &self.root.join("tmp"));
        let dir = self.root.join(T::FOLDER);
        each_part(&dir, most, &mut |part, files| {
            body.begin(files.len());
            // The new lines first: they vouch for the files as they are now.
            if let Some(new) = new.as_deref_mut() {
                let lines = new.lines().map_err(crate::store::io_err(path))?;
                copy_vouched(
                    (&mut Reader::headless(lines), path),
                    (files, part),
                    &mut body,
                )?;
            }
            if keep && let Ok(Some((true, mut old))) = Reader::open(path, T::FOLDER)? {
                copy_vouched((&mut old, path), (files, part), &mut body)?;
            }
            Ok(())
        })?;
        self.persist_index(path, T::FOLDER, body)
    }
}
