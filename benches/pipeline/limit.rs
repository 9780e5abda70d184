//! The disk's limit: fsynced write+rename pairs a second, and what one
//! costs in CPU.

use super::*;

/// What [`disk_limit`] measured.
pub(super) struct Limit {
    /// Pairs a second.
    pub(super) rate: f64,
    pub(super) pairs: usize,
    /// This process's CPU (user and system) a pair, in ms: the least a
    /// durable file costs on this disk, to set a mail's CPU against.
    pub(super) cpu_ms: f64,
}

/// Fsynced write+rename pairs per second in the data folder `data`, the
/// way pbem writes a record: a temporary file in `DATA/tmp/`, write 1 KB
/// (a record's size), fsync, rename over one of 100 files in a folder of
/// `DATA`, fsync that folder; for `time`. In the data folder itself, not
/// a fresh one: on some file systems what was made and removed there
/// lately changes what a file costs (ext4 without a journal skips inodes
/// freed in the last minutes one by one), and the limit must be the one
/// pbem's writes meet.
pub(super) fn disk_limit(data: &Path, time: Duration) -> Limit {
    let tmp = data.join("tmp");
    let dir = data.join("limit");
    fs::create_dir_all(&tmp).unwrap();
    fs::create_dir_all(&dir).unwrap();
    let body = vec![b'x'; 1024];
    let folder = fs::File::open(&dir).unwrap();
    let (cpu, t) = (cpu_time(), Instant::now());
    let mut n = 0;
    while t.elapsed() < time {
        let temp = tmp.join(format!(".limit-{n}.tmp"));
        let mut f = fs::File::create(&temp).unwrap();
        f.write_all(&body).unwrap();
        f.sync_all().unwrap();
        fs::rename(&temp, dir.join(format!("r{}.toml", n % 100))).unwrap();
        folder.sync_all().unwrap();
        n += 1;
    }
    let rate = n as f64 / t.elapsed().as_secs_f64();
    let spent = cpu_time();
    let cpu_ms = 1000.0 * (spent.0 - cpu.0 + spent.1 - cpu.1) / n.max(1) as f64;
    fs::remove_dir_all(&dir).unwrap();
    Limit {
        rate,
        pairs: n,
        cpu_ms,
    }
}
