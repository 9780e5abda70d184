//! `pbem match --threads N`: no more threads than games or cores, and a
//! thread the OS refuses is done without: the match is played, never a
//! panic.

use std::process::{Command, Output};

fn pbem() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pbem"));
    c.env_remove("PBEM_CONFIG");
    c
}

const MATCH: &[&str] = &[
    "match",
    "mad",
    "--bot",
    "random",
    "--bot",
    "random",
    "--max-plies",
    "40",
    "--json",
];

/// The games the match's JSON says were played; the run must succeed.
fn games_played(out: &Output) -> u64 {
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {said}", out.status);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["games"].as_u64().unwrap()
}

#[test]
fn a_match_asked_for_more_threads_than_games_plays_them() {
    let out = pbem()
        .args(MATCH)
        .args(["--games", "2", "--threads", "100000"])
        .output()
        .unwrap();
    assert_eq!(games_played(&out), 2);
}

fn uid() -> String {
    let out = Command::new("id").arg("-u").output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn a_match_whose_threads_the_os_refuses_is_played_on_one() {
    // One process for the user and no more: every thread is refused
    // (RLIMIT_NPROC counts threads). Root is never refused, so as root
    // the match runs as `nobody`, from a copy of pbem it may run.
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = if uid() == "0" {
        use std::os::unix::fs::PermissionsExt as _;
        let open = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(dir.path(), open.clone()).unwrap();
        let bin = dir.path().join("pbem");
        if std::fs::hard_link(env!("CARGO_BIN_EXE_pbem"), &bin).is_err() {
            std::fs::copy(env!("CARGO_BIN_EXE_pbem"), &bin).unwrap();
            std::fs::set_permissions(&bin, open).unwrap();
        }
        let mut c = Command::new("setpriv");
        c.args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "prlimit",
        ])
        .arg("--nproc=1")
        .arg(bin);
        c
    } else {
        let mut c = Command::new("prlimit");
        c.arg("--nproc=1").arg(env!("CARGO_BIN_EXE_pbem"));
        c
    };
    let out = cmd
        .args(MATCH)
        .args(["--games", "4", "--threads", "4"])
        .current_dir(dir.path())
        .env_remove("PBEM_CONFIG")
        .output()
        .expect("setpriv and prlimit (util-linux) run the match");
    assert_eq!(games_played(&out), 4);
}
