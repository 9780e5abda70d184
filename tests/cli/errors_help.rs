//! Errors a new user meets, through the binary: each names what was
//! meant and how to write it.

use std::process::{Command, Output};

fn pbem(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .output()
        .expect("run pbem")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn file(dir: &tempfile::TempDir, name: &str, contents: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_str().unwrap().to_string()
}

const GAMES: &str = "boom-and-zoom, dragons-teeth, embed, mad, mad-rooks, mad-bishops, guerrilla-checkers, toroidal-checkers";

#[test]
fn validate_of_a_bare_move_list_without_rules_suggests_rules_game() {
    let dir = tempfile::tempdir().unwrap();
    let moves = file(&dir, "moves.txt", "58-50\n# a comment\n2-10\n\n50-42\n");
    let o = pbem(&["validate", &moves]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert_eq!(
        out(&o),
        format!(
            "{moves}: not a record but a bare move list: name its game, pbem validate --rules GAME {moves} (GAME is one of {GAMES}; the four New Millennium games need --first SIDE too)\n"
        )
    );
    assert_eq!(err(&o), "");
    // As suggested, it reads.
    let o = pbem(&[
        "validate",
        "--rules",
        "boom-and-zoom",
        "--first",
        "red",
        &moves,
    ]);
    assert_eq!(
        out(&o),
        format!("{moves}: ok (3 moves, *)\n"),
        "{}",
        err(&o)
    );
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn validate_of_a_broken_record_is_not_called_a_move_list() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("typo.toml", "rules = \"mad\"\nfoo\n"),
        ("prose.txt", "my moves:\n58-50\n"),
    ] {
        let path = file(&dir, name, text);
        let o = pbem(&["validate", &path]);
        assert_eq!(o.status.code(), Some(1));
        assert!(out(&o).contains("not a valid record"), "{}", out(&o));
        assert!(!out(&o).contains("--rules"), "{}", out(&o));
    }
}

#[test]
fn check_names_the_transport_a_stray_send_key_belongs_to() {
    let dir = tempfile::tempdir().unwrap();
    let config = file(&dir, "pbem.toml", pbem::config::INIT);
    let o = pbem(&["check", "--config", &config, "--set", "send.transport=smtp"]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert_eq!(
        out(&o),
        format!(
            "FAIL  config  {config}: --set send.transport=smtp: `folder` is a key of the maildir transport, not of smtp; smtp needs `host` and may take `port`, `security`, `user`, `password_file`, `ca_file`; remove the other transport's keys from [send], or replace the section whole, like --set 'send={{transport=\"smtp\", ...}}' (mend the --set, or leave it out)\n"
        )
    );
    assert_eq!(err(&o), "");
    // In the file itself, the same words, with the line.
    let smtp = pbem::config::INIT.replace("transport = \"maildir\"", "transport = \"sendmail\"");
    let config = file(&dir, "sendmail.toml", &smtp);
    let o = pbem(&["check", "--config", &config]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out(&o).contains(": `folder` is a key of the maildir transport, not of sendmail; sendmail needs no other key and may take `command`;"),
        "{}",
        out(&o)
    );
}
