//! Helpers shared by the test binaries (`tests/mail`, `tests/server`,
//! `tests/cli`; each has `#[path = "../common/mod.rs"] mod common;`): the
//! scripted whole game ([`play`]), the loopback mail stack ([`mailstack`]),
//! many games' mail at once ([`workload`]), a pbem of its own with a pinned
//! clock ([`pbem_setup`]) and players around it for series and
//! tournaments ([`club`]), a real mail client writing a player's mail
//! ([`snail`]), headless Chromium ([`browser`]), and who may run beside
//! whom ([`lock`]). Each binary uses
//! a part, hence `dead_code`.
#![allow(dead_code)]

pub mod browser;
pub mod club;
pub mod lock;
pub mod mailstack;
pub mod pbem_setup;
pub mod play;
pub mod snail;
pub mod sweep;
pub mod wait;
pub mod workload;

use std::path::{Path, PathBuf};

/// The key pbem commits for the raw mail `raw` once it is processed: its
/// From and Message-ID read as the poll reads them.
pub fn mail_key(raw: &[u8]) -> String {
    let m = pbem::mail::inbound::parse(raw).ok();
    pbem::poll::mail_key(
        raw,
        m.as_ref().and_then(|m| m.from.as_deref()),
        m.as_ref().and_then(|m| m.message_id.as_deref()),
    )
}

/// The part of pbem's Message-IDs (`<pbem.GAME.HASH.N@host>`) that names
/// the mail `raw` a reply comes from: the hash of its key. A reply to the
/// other player is In-Reply-To pbem's last mail to them, not the mover's
/// mail, so tests tell which mail a reply is about by this.
pub fn key_hash(raw: &[u8]) -> String {
    format!(
        "{:016x}",
        pbem::store::stable_hash(mail_key(raw).as_bytes())
    )
}

/// The key hash in one of pbem's Message-IDs (see [`key_hash`]).
pub fn hash_of_reply(message_id: &str) -> String {
    let local = message_id.trim_matches(['<', '>']);
    let local = local.split_once('@').map_or(local, |(l, _)| l);
    let parts: Vec<&str> = local.split('.').collect();
    parts
        .len()
        .checked_sub(2)
        .map(|i| parts[i].to_string())
        .unwrap_or_default()
}

/// Runs `pbem ARGS` (without a `PBEM_CONFIG` from the environment),
/// which must succeed; its standard output.
pub fn pbem_ok<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .env_remove("PBEM_CONFIG")
        .output()
        .unwrap();
    let shown: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy()).collect();
    assert!(
        out.status.success(),
        "pbem {shown:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The keys committed in the data folder `data` (`DATA/processed/`), one
/// entry per line that commits one: a key twice is a mail committed twice.
pub fn committed_keys(data: &Path) -> Vec<String> {
    let mut keys = Vec::new();
    for f in files(&data.join("processed")) {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        keys.extend(
            text.lines()
                .filter_map(|l| l.strip_suffix(" ."))
                .map(str::to_string),
        );
    }
    keys.sort();
    keys
}

/// The temporary files under `dir` (`.tmp`): left behind by a write that
/// did not finish.
#[allow(dead_code)]
pub fn temp_files(dir: &Path) -> Vec<PathBuf> {
    files(dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect()
}

/// Nothing left half-way in data folder `data` of `store` after polls
/// were killed and recovered: no staged or queued reply, no temporary
/// file.
#[allow(dead_code)]
pub fn assert_nothing_left(store: &pbem::store::Store, data: &Path) {
    assert!(
        files(&store.outbox_staging()).is_empty(),
        "no staged replies left"
    );
    assert!(
        files(&store.outbox_ready()).is_empty(),
        "the outbox is empty"
    );
    let leftovers = temp_files(data);
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

/// A tournament "cup" of Embed for ann, bob and cy, made by `pbem
/// tournament new` in the setup of `config`: a tournament's pages to
/// look at.
pub fn new_cup(config: &str) {
    pbem_ok(&[
        "tournament",
        "new",
        "cup",
        "--game",
        "embed",
        "--player",
        "ann@example.org",
        "--player",
        "bob@example.org",
        "--player",
        "cy@example.org",
        "--config",
        config,
    ]);
}

/// Every file under `dir`, at any depth (none when it is missing).
pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(files(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// The mails pbem's maildir transport delivered to `who` under `sent`
/// (its `new/` and `cur/`), as the player reads them.
pub fn received_by(sent: &Path, who: &str) -> Vec<pbem::demo::Received> {
    let folder = sent.join(who.to_lowercase());
    let mut raws = files(&folder.join("new"));
    raws.extend(files(&folder.join("cur")));
    raws.iter()
        .filter_map(|f| pbem::demo::Received::parse(&std::fs::read(f).unwrap()))
        .collect()
}

/// Copies the folder `from` and all it holds to `to` (made if missing):
/// a prepared pbem (settings, data folder, Maildirs) to run again and
/// again from the same state.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Stores the bot's analysis (at `nodes` positions a move) of every
/// finished game of the data folder `data`, as the poll would; the ids of
/// the games analysed.
pub fn analyse_finished(data: &Path, nodes: u64) -> Vec<String> {
    use pbem::store::analysis::{StoredAnalysis, StoredPly, moves_hash};
    let store = pbem::store::Store::open(data).unwrap();
    let limits = pbem_engine::bot::Limits {
        think: pbem_engine::bot::Budget::Nodes(nodes),
        level: pbem_engine::bot::Level::MAX,
    };
    let mut done = Vec::new();
    for id in store.game_ids().unwrap() {
        let Ok(Some(rec)) = store.record(&id) else {
            continue;
        };
        let over = pbem_engine::with_game!(rec.rules, G => {
            pbem_engine::record::replay::<G>(&rec).is_ok_and(|r| r.end.is_some())
        });
        if !over {
            continue;
        }
        let a = pbem_engine::bot::analyse::analyse(&rec, &limits, 0, &mut |_, _| {}).unwrap();
        let stored = StoredAnalysis {
            id: id.clone(),
            moves: moves_hash(&rec),
            nodes,
            seed: 0,
            total: a.plies.len(),
            plies: a.plies.iter().map(StoredPly::from).collect(),
        };
        store.write_analysis(&id, &stored).unwrap();
        done.push(id);
    }
    done
}
