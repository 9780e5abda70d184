//! The command line as a newcomer meets it (tests/cli/cli.rs):
//! errors say their cause once with one hint, every option is described,
//! help examples run as printed, and mail and the command line read
//! characters alike.

use super::*;
use pbem::rules::Rules;

/// Each cause is said once, with one hint: a missing settings
/// file, and a data folder that cannot be made, whose OS error was said
/// twice ("... (os error 2): ... (os error 2)").
#[test]
fn an_error_says_its_cause_once_with_one_hint() {
    let once = |out: &str, what: &str| {
        assert_eq!(out.matches(what).count(), 1, "{what:?} once in: {out}");
    };
    for command in ["check", "poll", "games"] {
        let o = pbem(&[command, "--config", "/no/such/pbem.toml"], None);
        assert_eq!(o.status.code(), Some(1), "pbem {command}");
        let out = format!("{}{}", text(&o), err(&o));
        once(&out, "(os error 2)");
        once(&out, "pbem init");
        assert!(out.contains("/no/such/pbem.toml"), "{out}");
    }
    let (dir, config) = initialised();
    let config = config.as_str();
    // A data folder under a file cannot be made.
    std::fs::write(dir.path().join("plain-file"), "").unwrap();
    let set = "data=plain-file/data";
    for command in ["check", "poll", "games"] {
        let o = pbem(&[command, "--config", config, "--set", set], None);
        assert_eq!(o.status.code(), Some(1), "pbem {command}");
        let out = format!("{}{}", text(&o), err(&o));
        assert!(out.contains("plain-file/data"), "{out}");
        once(&out, "(os error 20)");
    }
    // A bad --set: its own hint, and not the file's as well.
    let o = pbem(&["check", "--config", config, "--set", "bogus=1"], None);
    let out = text(&o);
    once(&out, "mend the --set");
    assert!(!out.contains("pbem init"), "{out}");
}

/// No option in any `--help` goes without a description (`pbem
/// new --help` showed six), and `pbem help --help` works.
#[test]
fn every_option_is_described() {
    let o = pbem(&["help", "--help"], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(text(&o).contains("Usage: pbem help"), "{}", text(&o));
    let o = pbem(&["help", "moves"], None);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o).contains("Usage: pbem moves"), "{}", text(&o));
    assert_eq!(pbem(&["help", "nothere"], None).status.code(), Some(2));
    let top = text(&pbem(&["--help"], None));
    let subs: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    assert!(subs.len() >= 15, "{top}");
    for sub in &subs {
        let h = text(&pbem(&[sub, "--help"], None));
        let lines: Vec<&str> = h.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let t = l.trim_start();
            if t.starts_with("--") || (t.starts_with('-') && t.get(2..4) == Some(", ")) {
                let next = lines.get(i + 1).map_or("", |n| n.trim());
                assert!(
                    !next.is_empty(),
                    "pbem {sub} --help: {t} has no description:\n{h}"
                );
            }
        }
    }
    let h = text(&pbem(&["new", "--help"], None));
    assert!(h.contains("--player <SIDE=EMAIL>"), "{h}");
    assert!(!h.contains("--black"), "the old flags are not shown: {h}");
    // --first says which games need it.
    let first = h.split("--first <SIDE>").nth(1).unwrap_or("");
    for slug in ["boom-and-zoom", "dragons-teeth", "embed", "mad."] {
        assert!(first.contains(slug), "--first names {slug}: {h}");
    }
}

/// `pbem new --player SIDE=EMAIL` names the players with the game's own
/// sides; the older `--black EMAIL` still works; a wrong side or a
/// missing one is a usage error that says what to write.
#[test]
fn new_names_players_with_player() {
    let (dir, config) = initialised();
    let config = config.as_str();
    let new = |args: &[&str]| {
        let mut a = vec!["new"];
        a.extend_from_slice(args);
        a.extend_from_slice(&["--config", config]);
        pbem(&a, None)
    };
    let o = new(&[
        "mad-rooks",
        "--player",
        "red=ann@example.org",
        "--player",
        "blue=Bob <bob@example.org>",
        "--id",
        "mr-one",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        text(&o).starts_with("started mr-one: Mad Rooks"),
        "{}",
        text(&o)
    );
    let record = std::fs::read_to_string(dir.path().join("data/games/mr-one.toml")).unwrap();
    assert!(record.contains("red = \"ann@example.org\""), "{record}");
    assert!(
        record.contains("blue = \"Bob <bob@example.org>\""),
        "{record}"
    );
    let o = new(&[
        "embed",
        "--black",
        "ann@example.org",
        "--red",
        "bob@example.org",
        "--first",
        "red",
        "--id",
        "em-old",
    ]);
    assert_eq!(o.status.code(), Some(0), "the older flags: {}", err(&o));
    for (args, says) in [
        (
            &["mad-rooks", "--player", "black=ann@example.org"][..],
            "Mad Rooks has no side \"black\"; its sides are red and blue",
        ),
        (
            &["mad-rooks", "--player", "ann@example.org"][..],
            "--player ann@example.org: write SIDE=EMAIL, like --player red=alice@example.org",
        ),
        (
            &["mad-rooks", "--player", "red=ann@example.org"][..],
            "who plays blue? add --player blue=EMAIL",
        ),
        (
            &[
                "mad-rooks",
                "--player",
                "red=a@example.org",
                "--player",
                "red=b@example.org",
            ][..],
            "red is named twice",
        ),
        (
            &[
                "mad-rooks",
                "--player",
                "red=nobody",
                "--player",
                "blue=b@example.org",
            ][..],
            "--player red=nobody: not a mail address",
        ),
    ] {
        let o = new(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(err(&o).contains(says), "{args:?}: {}", err(&o));
    }
}

/// How a game ended reads inside parentheses without nesting them (not
/// "(black moved off 6 strength points, red 0 (6 or more wins))"):
/// the reason of every bundled game's end has none of its own.
#[test]
fn end_reasons_have_no_parentheses_of_their_own() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files: Vec<String> = Rules::ALL
        .iter()
        .map(|r| format!("{root}/{}", r.example_path(false)))
        .collect();
    files.sort();
    assert_eq!(files.len(), 8, "{files:?}");
    let mut args = vec!["validate", "--json"];
    args.extend(files.iter().map(String::as_str));
    let o = pbem(&args, None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    for line in text(&o).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let reason = v["reason"].as_str().unwrap_or_else(|| panic!("{line}"));
        assert!(!reason.is_empty() && !reason.contains(['(', ')']), "{line}");
    }
}

/// The examples in the help of the offline commands, run as printed
/// from the project's folder (with pbem on the PATH): each works and
/// prints something (every bundled game was finished, so
/// `pbem moves`'s examples printed nothing).
#[test]
fn help_examples_run_as_printed() {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_pbem"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for sub in ["moves", "show", "validate"] {
        let h = text(&pbem(&[sub, "--help"], None));
        let examples: Vec<&str> = h
            .lines()
            .skip_while(|l| l.trim() != "Examples:")
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .map(str::trim)
            .collect();
        assert!(examples.len() >= 2, "pbem {sub} --help: {h}");
        for example in examples {
            assert!(example.contains(&format!("pbem {sub}")), "{example}");
            let o = Command::new("sh")
                .args(["-c", example])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .env("PATH", &path)
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(0), "{example}: {}", err(&o));
            assert!(!text(&o).trim().is_empty(), "{example} prints nothing");
            ran += 1;
        }
    }
    assert!(ran >= 7, "{ran}");
}

/// `pbem moves --ply N`: the moves after N moves; a finished game lists
/// none and its JSON names no side to move.
#[test]
fn moves_at_a_ply_and_no_turn_when_over() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mad = format!("{root}/{}", Rules::Mad.example_path(false));
    let at = |ply: &str| pbem(&["moves", &mad, "--ply", ply, "--json"], None);
    let v: serde_json::Value = serde_json::from_str(&text(&at("0"))).unwrap();
    assert_eq!(v["ply"], 0);
    assert_eq!(v["turn"], "black");
    assert_eq!(v["result"], "*");
    assert!(
        v["moves"].as_array().unwrap().iter().any(|m| m == "12-20"),
        "{v}"
    );
    // The same as the game in play with those moves.
    let in_play = text(&pbem(
        &[
            "moves",
            &format!("{root}/{}", Rules::Mad.example_path(true)),
        ],
        None,
    ));
    assert!(!in_play.is_empty());
    assert_eq!(text(&pbem(&["moves", &mad, "--ply", "12"], None)), in_play);
    let v: serde_json::Value =
        serde_json::from_str(&text(&pbem(&["moves", &mad, "--json"], None))).unwrap();
    assert_eq!(v["turn"], serde_json::Value::Null, "{v}");
    assert_eq!(v["result"], "black");
    assert_eq!(v["moves"], serde_json::json!([]));
    let v: serde_json::Value =
        serde_json::from_str(&text(&pbem(&["show", &mad, "--json"], None))).unwrap();
    assert_eq!(v["turn"], serde_json::Value::Null, "{v}");
    let o = at("9999");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("--ply 9999") && err(&o).contains("only 365 moves"),
        "{}",
        err(&o)
    );
}

/// One reader of typed characters: the same inputs are read,
/// or refused in the same words, in mail and on the command line.
#[test]
fn mail_and_command_line_read_characters_alike() {
    use pbem::mail::command::{Command as MailCommand, parse};
    use pbem::mail::text::normalize;
    let geometry = pbem::rules::Rules::BoomAndZoom.geometry();
    let six_thirteen = pbem::notation::parse("6-13", geometry).unwrap();
    // Black's first move in Boom & Zoom, typed in several ways.
    for (typed, refused) in [
        ("6-13", None),
        ("６－１３", None),
        ("6—13", None),
        ("6\u{200B}-13", None),
        (
            "6х13",
            Some("'х' (U+0445) is not a character of moves, though it looks like one"),
        ),
        (
            "6χ13",
            Some("'χ' (U+03C7) is not a character of moves, though it looks like one"),
        ),
        (
            "⁶-13",
            Some("'⁶' (U+2076) is not a character of moves, though it looks like one"),
        ),
    ] {
        // In mail: a move, or the character named.
        let mail = parse(&normalize(&format!("{typed}\n")));
        // On the command line: a move list `pbem validate` reads.
        let o = pbem(
            &[
                "validate",
                "--rules",
                "boom-and-zoom",
                "--first",
                "black",
                "-",
            ],
            Some(&format!("{typed}\n")),
        );
        let cli = format!("{}{}", text(&o), err(&o));
        match refused {
            None => {
                let Some(MailCommand::Move { text: m, .. }) = mail.commands.first() else {
                    panic!("{typed}: mail read {mail:?}");
                };
                assert_eq!(
                    pbem::notation::parse(m, geometry).as_ref(),
                    Ok(&six_thirteen),
                    "{typed}"
                );
                assert_eq!(o.status.code(), Some(0), "{typed}: {cli}");
            }
            Some(says) => {
                assert!(mail.commands.is_empty(), "{typed}: {mail:?}");
                assert!(
                    mail.errors
                        .first()
                        .is_some_and(|e| e.message.contains(says)),
                    "{typed}: mail says {mail:?}"
                );
                assert_eq!(o.status.code(), Some(1), "{typed}: {cli}");
                assert!(cli.contains(says), "{typed}: pbem validate says {cli}");
            }
        }
    }
}

/// `pbem moves --from` reads a square as mail reads `moves 12`.
#[test]
fn from_reads_fullwidth_digits() {
    let mad = format!(
        "{}/{}",
        env!("CARGO_MANIFEST_DIR"),
        Rules::Mad.example_path(true)
    );
    let ascii = pbem(&["moves", &mad, "--from", "12"], None);
    let wide = pbem(&["moves", &mad, "--from", "１２"], None);
    assert_eq!(wide.status.code(), Some(0), "{}", err(&wide));
    assert!(!text(&ascii).is_empty());
    assert_eq!(text(&wide), text(&ascii));
}
