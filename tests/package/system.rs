//! The commands the package test runs around pbem: dpkg, getent.

use std::process::Command;

/// Runs `cmd`, which must succeed; its standard output.
pub fn run(cmd: &mut Command) -> String {
    let o = cmd
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?} does not start: {e}"));
    assert!(
        o.status.success(),
        "{cmd:?}: {}\n{}{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Whether `program ARGS` exits 0.
pub fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What dpkg knows of the package pbem ("install ok installed",
/// "deinstall ok config-files"), or `None` when nothing.
pub fn dpkg_status() -> Option<String> {
    let o = Command::new("dpkg-query")
        .args(["-W", "-f=${Status}", "pbem"])
        .output()
        .expect("dpkg-query runs: this is a Debian system");
    let status = String::from_utf8_lossy(&o.stdout).trim().to_string();
    (o.status.success() && !status.ends_with("not-installed") && !status.is_empty())
        .then_some(status)
}

/// The uid and gid of `user` (getent, from /etc/passwd).
pub fn ids_of(user: &str) -> (u32, u32) {
    let entry = run(Command::new("getent").args(["passwd", user]));
    let f: Vec<&str> = entry.trim().split(':').collect();
    assert!(f.len() > 3, "getent passwd {user}: {entry}");
    (f[2].parse().unwrap(), f[3].parse().unwrap())
}
