//! The `pbem` binary as a user runs it: output formats, exit codes, stdin,
//! JSON, and a useful `--help` for every subcommand.

use std::io::Write;
use std::process::{Command, Output, Stdio};

mod init;
mod newcomer;
mod takebacks;

fn pbem(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pbem");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A folder with the settings `pbem init` writes, and the settings
/// file's path.
fn initialised() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pbem.toml").to_str().unwrap().to_string();
    let o = pbem(&["init", "--config", &config], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    (dir, config)
}

fn temp(name: &str, contents: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, contents).unwrap();
    let p = path.to_str().unwrap().to_string();
    (dir, p)
}

const GOOD: &str = "rules = \"boom-and-zoom\"\nfirst = \"red\"\nresult = \"*\"\nmoves = \"\"\"\n58-50\n2-10\n\"\"\"\n";

/// A syntax error's hint quotes moves of the record's own game: Mad Rooks
/// has no `22-off`, Guerrilla Checkers places stones.
#[test]
fn validate_hints_at_the_games_own_moves() {
    for (rules, first, hint) in [
        ("mad-rooks", "red", "write a move like 18-42 or 18x22"),
        (
            "guerrilla-checkers",
            "guerrilla",
            "write a move like 27/36,28/37, 27-36 or 27x36x45",
        ),
        (
            "mad",
            "black",
            "write a move like 12-20, 12-20:2, 12x20 or L12-28",
        ),
    ] {
        let o = pbem(
            &["validate", "--rules", rules, "--first", first, "-"],
            Some("13-x21\n"),
        );
        assert_eq!(o.status.code(), Some(1));
        let out = text(&o);
        assert!(
            out.contains(&format!("`13-x21` is not a move: unexpected 'x'; {hint}")),
            "{out}"
        );
        assert!(!out.contains("-off"), "{out}");
    }
    // And `pbem moves --from` reads only the game's own origins.
    let o = pbem(
        &["moves", "--rules", "mad-rooks", "--from", "27/36", "-"],
        Some(""),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("give a square number, like 22"),
        "{}",
        err(&o)
    );
}

#[test]
fn validate_reports_each_file_and_keeps_going() {
    let (_d1, good) = temp("good.toml", GOOD);
    let (_d2, bad) = temp("bad.toml", &GOOD.replace("2-10", "2-11x"));
    let (_d3, illegal) = temp("illegal.toml", &GOOD.replace("2-10", "2-34"));
    let o = pbem(&["validate", &illegal], None);
    assert_eq!(
        text(&o),
        format!(
            "{illegal}:6: 2-34 is not a legal move for black: a 3-high tower zooms and booms at most 3 squares; 2 to 34 is 4 (see `pbem rules boom-and-zoom`, section Zooming); legal moves from 2: 2-9, 2-10, 2-11, 2-18, 2-20, 2-26, 2-29\n"
        )
    );
    let o = pbem(&["validate", &bad, &good, "/no/such/file.toml"], None);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(
        lines[0],
        format!(
            "{bad}:6: `2-11x` is not a move: a square after `x` is missing; write a move like 22-15, 22x15 or 22-off (see `pbem rules boom-and-zoom`, section Notation)"
        )
    );
    assert_eq!(lines[1], format!("{good}: ok (2 moves, *)"));
    assert!(
        lines[2].starts_with("/no/such/file.toml: cannot read it"),
        "{out}"
    );
    let o = pbem(&["validate", &good], None);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn validate_a_bare_move_list_from_stdin() {
    let o = pbem(
        &[
            "validate",
            "--rules",
            "boom-and-zoom",
            "--first",
            "red",
            "-",
        ],
        Some("58-50\n2-10\n"),
    );
    assert_eq!(text(&o), "stdin: ok (2 moves, *)\n");
    assert_eq!(o.status.code(), Some(0));
    let o = pbem(
        &["validate", "--rules", "boom-and-zoom", "-"],
        Some("58-50\n"),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("needs the first side: add --first black or --first red"),
        "{}",
        text(&o)
    );
    let o = pbem(&["validate", "--rules", "chess", "-"], Some(""));
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("unknown game `chess`"), "{}", err(&o));
}

#[test]
fn validate_json() {
    let (_d, good) = temp("good.toml", GOOD);
    let o = pbem(&["validate", "--json", &good], None);
    let v: serde_json::Value = serde_json::from_str(text(&o).trim()).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["moves"], 2);
    assert_eq!(v["result"], "*");
}

#[test]
fn moves_lists_canonical_moves_and_filters() {
    let (_d, good) = temp("good.toml", GOOD);
    let o = pbem(&["moves", &good, "--from", "50"], None);
    assert_eq!(o.status.code(), Some(0));
    let owned = text(&o);
    let moves: Vec<&str> = owned.lines().collect();
    assert!(
        moves.contains(&"50-42") && moves.iter().all(|m| m.starts_with("50")),
        "{moves:?}"
    );
    let all = text(&pbem(&["moves", &good], None));
    assert!(all.lines().count() > moves.len());
    let o = pbem(&["moves", &good, "--from", "65"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("there is no square 65"));
    let o = pbem(&["moves", "--json", &good], None);
    let v: serde_json::Value = serde_json::from_str(text(&o).trim()).unwrap();
    assert_eq!(v["turn"], "red");
    assert!(v["moves"].as_array().unwrap().len() > 10);
}

#[test]
fn a_finished_game_has_no_moves() {
    let o = pbem(
        &["moves", "--rules", "boom-and-zoom", "--first", "red", "-"],
        Some("58-50\nblack resign\n"),
    );
    assert_eq!((o.status.code(), text(&o)), (Some(0), String::new()));
}

#[test]
fn show_draws_the_board_at_any_ply() {
    let (_d, good) = temp("good.toml", GOOD);
    let o = pbem(&["show", &good], None);
    let board = text(&o);
    assert!(board.contains("move 3, red to play"), "{board}");
    assert!(
        board.contains("[ 2]") && board.contains("[B3]"),
        "last move 2-10 marked: {board}"
    );
    assert!(board.lines().all(|l| l.chars().count() <= 72));
    let o = pbem(&["show", &good, "--ply", "0"], None);
    assert!(text(&o).contains("move 1, red to play"), "{}", text(&o));
    let o = pbem(&["show", &good, "--ply", "3"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("has only 2 moves"));
    let o = pbem(&["show", "--json", &good], None);
    let v: serde_json::Value = serde_json::from_str(text(&o).trim()).unwrap();
    assert_eq!(v["last_move"], "2-10");
    assert!(v["diagram"].as_str().unwrap().contains("B3"));
}

/// `pbem show --svg`: the board as one self-contained SVG,
/// turned for --seat as the ASCII board is; `--json --svg` carries it.
#[test]
fn show_svg_draws_the_board_as_svg() {
    let (_d, good) = temp("good.toml", GOOD);
    let o = pbem(&["show", &good, "--svg"], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let svg = text(&o);
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    assert!(svg.trim_end().ends_with("</svg>"), "{svg}");
    assert_eq!(svg.matches("<rect x=").count(), 64, "{svg}");
    assert!(
        svg.contains("<title>10: black tower of 3, last move</title>"),
        "{svg}"
    );
    assert!(svg.contains("<title>2, last move</title>"), "{svg}");
    assert!(!svg.contains("href") && !svg.contains("<image"), "{svg}");
    // Square 1 at the top left; from black's seat, square 64.
    let first = |s: &str| {
        s.split("<title>")
            .nth(1)
            .unwrap()
            .split(['<', ':', ','])
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(first(&svg), "1");
    let turned = text(&pbem(&["show", &good, "--svg", "--seat", "black"], None));
    assert_eq!(first(&turned), "64");
    let o = pbem(&["show", "--json", "--svg", &good, "--ply", "1"], None);
    let v: serde_json::Value = serde_json::from_str(text(&o).trim()).unwrap();
    assert!(v["svg"].as_str().unwrap().starts_with("<svg"), "{v}");
    let o = pbem(&["show", "--json", &good], None);
    let v: serde_json::Value = serde_json::from_str(text(&o).trim()).unwrap();
    assert!(v["svg"].is_null(), "{v}");
}

#[test]
fn rules_lists_and_explains_games() {
    let all = text(&pbem(&["rules"], None));
    for slug in [
        "boom-and-zoom",
        "dragons-teeth",
        "embed",
        "mad",
        "mad-rooks",
        "mad-bishops",
        "guerrilla-checkers",
        "toroidal-checkers",
    ] {
        assert!(all.contains(slug), "{slug} missing: {all}");
    }
    // One line a game, its name and byline from the game's facts.
    assert!(
        all.contains("Toroidal Checkers after T. Robison (black and white)"),
        "{all}"
    );
    assert!(all.contains("Embed by Ty Bomba (black and red)"), "{all}");
    assert!(!all.contains("by after"), "{all}");
}

/// `pbem rules GAME`: the complete rules with every ruling, the notation
/// and the setup board; `--short`: the summary.
#[test]
fn rules_prints_the_complete_rules_or_with_short_the_summary() {
    for r in pbem::rules::Rules::ALL {
        let i = r.info();
        let full = pbem(&["rules", r.name()], None);
        assert_eq!(full.status.code(), Some(0), "{}", err(&full));
        let full = text(&full);
        assert_eq!(full, r.rules_text(), "{r}");
        let title = format!("{} {}", i.name, i.credit);
        assert!(
            full.starts_with(&format!("{title}\n{}\n", "=".repeat(title.len()))),
            "{full}"
        );
        for section in i.sections {
            let under = if section.starts_with("Ruling:") {
                "~"
            } else {
                "-"
            };
            let heading = format!("\n{section}\n{}\n", under.repeat(section.len()));
            assert!(full.contains(&heading), "{r}: no {section}");
        }
        // The setup board as pbem draws it, square numbers and all.
        let board = pbem::with_game!(r, G => {
            use pbem::game::Game;
            G::start(pbem::game::first_sides::<G>()[0]).diagram(&pbem::game::View::default())
        });
        assert!(full.contains(&board), "{r}: {full}");
        for example in i.examples {
            assert!(
                full.contains(&format!("`{example}`")),
                "{r}: {example} missing"
            );
        }

        let short = text(&pbem(&["rules", r.slug(), "--short"], None));
        assert!(
            short.starts_with(&format!("{} {} ({})\n", i.name, i.credit, i.slug)),
            "{short}"
        );
        assert!(short.contains(i.summary), "{r}: {short}");
        assert!(
            short.contains(&format!("Notation: {}.", i.notation)),
            "{short}"
        );
        assert!(
            short.contains("The setup:") && short.contains(&board),
            "{short}"
        );
        assert!(short.len() < full.len(), "{r}");
    }
    let one = text(&pbem(&["rules", "Boom & Zoom", "--short"], None));
    assert!(one.contains("Notation: zoom 22-15"), "{one}");
    // --short needs a game.
    let o = pbem(&["rules", "--short"], None);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn every_subcommand_has_help() {
    for sub in [
        "validate", "moves", "show", "rules", "check", "poll", "daemon",
    ] {
        let o = pbem(&[sub, "--help"], None);
        assert_eq!(o.status.code(), Some(0));
        let h = text(&o);
        assert!(
            h.contains("Usage: pbem") && h.contains("Examples:"),
            "{sub}: {h}"
        );
    }
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let (_d, good) = temp("good.toml", GOOD);
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["moves", &good])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(!err(&o).contains("panicked"), "{}", err(&o));
}

#[test]
fn completions_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish"] {
        let o = pbem(&["completions", shell], None);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", err(&o));
        let script = text(&o);
        for sub in [
            "validate", "moves", "poll", "daemon", "deliver", "new", "manpage",
        ] {
            assert!(script.contains(sub), "{shell} completion lacks {sub}");
        }
    }
    let o = pbem(&["completions", "tcsh"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("possible values"), "{}", err(&o));
}

#[test]
fn manual_pages_for_pbem_and_each_subcommand() {
    let o = pbem(&["manpage"], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let page = text(&o);
    assert!(
        page.starts_with(".ie") || page.contains(".TH pbem"),
        "{page}"
    );
    assert!(page.contains("poll"), "the main page names the subcommands");

    let dir = tempfile::tempdir().unwrap();
    let man = dir.path().join("man1");
    let o = pbem(&["manpage", "--dir", man.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    for sub in [
        "pbem",
        "pbem-poll",
        "pbem-deliver",
        "pbem-validate",
        "pbem-new",
    ] {
        let p = man.join(format!("{sub}.1"));
        let t = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(t.contains(&format!(".TH {sub}")), "{sub}: {t}");
    }
    // The examples keep their lines (verbatim doc comments).
    let poll = std::fs::read_to_string(man.join("pbem-poll.1")).unwrap();
    assert!(
        poll.contains("Examples:\n  pbem poll\n  */5 * * * *"),
        "{poll}"
    );
}

#[test]
fn subcommand_help_keeps_example_lines() {
    let o = pbem(&["poll", "--help"], None);
    let help = text(&o);
    assert!(help.contains("Examples:\n  pbem poll\n"), "{help}");
}

/// `pbem poll` in a fresh `pbem init` folder with the log filter `filter`
/// (None: the default), one chatty mail in the inbox; its stderr.
fn poll_log(filter: Option<(&str, &str)>) -> String {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pbem.toml");
    let o = pbem(&["init", "--config", config.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let inbox = dir.path().join("mail/inbox/new");
    std::fs::write(
        inbox.join("1.m"),
        "From: Carol <carol@example.org>\r\nTo: pbem@localhost\r\nSubject: hi\r\n\
         Message-ID: <log.1@example.org>\r\n\r\nhello there\r\n",
    )
    .unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pbem"));
    cmd.args(["poll", "--config", config.to_str().unwrap()])
        .env_remove("RUST_LOG")
        .env_remove("PBEM_LOG")
        .env("PBEM_NOW", "2026-11-20T10:00:00Z");
    if let Some((k, v)) = filter {
        cmd.env(k, v);
    }
    let o = cmd.output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    err(&o)
}

#[test]
fn logs_one_line_per_mail_with_levels_from_the_environment() {
    let log = poll_log(None);
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2, "{log}");
    // The key is 128 bits of a hash of the sender, the id and the body.
    let (head, tail) = lines[0].split_once("key=mail:").expect(lines[0]);
    let (hash, tail) = tail.split_at(32);
    assert!(hash.chars().all(|c| c.is_ascii_hexdigit()), "{log}");
    assert_eq!(
        format!("{head}key=mail:KEY{tail}"),
        "2026-11-20T10:00:00Z INFO  mail key=mail:KEY id=<log.1@example.org> from=carol@example.org replies=1 fate=\"refused from carol@example.org: no command\""
    );
    assert!(
        lines[1].starts_with("2026-11-20T10:00:00Z INFO  poll handled=1 refused=1"),
        "{log}"
    );
    assert_eq!(poll_log(Some(("PBEM_LOG", "warn"))), "", "warn hides info");
    assert_eq!(
        poll_log(Some(("RUST_LOG", "error"))),
        "",
        "RUST_LOG is read too"
    );
    let debug = poll_log(Some(("PBEM_LOG", "pbem=debug")));
    assert!(debug.contains("INFO  mail key="), "{debug}");
}

#[test]
fn check_passes_on_the_init_file_and_names_what_fails() {
    let (dir, config) = initialised();
    let config = config.as_str();
    let o = pbem(&["check", "--config", config], None);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", err(&o));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    for (line, what) in lines.iter().zip(["config", "data", "inbox", "send"]) {
        assert!(line.starts_with(&format!("OK    {what}")), "{out}");
    }

    // A Maildir without its folders, and a sendmail that is not there.
    std::fs::remove_dir_all(dir.path().join("mail/inbox")).unwrap();
    let text_of = std::fs::read_to_string(config).unwrap().replace(
        "transport = \"maildir\"\nfolder = \"mail/sent\"",
        "transport = \"sendmail\"\ncommand = \"/no/such/sendmail\"",
    );
    std::fs::write(config, text_of).unwrap();
    let o = pbem(&["check", "--config", config], None);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("FAIL  inbox") && out.contains("pbem init") && out.contains("inbox.maildir"),
        "{out}"
    );
    assert!(
        out.contains("FAIL  send") && out.contains("/no/such/sendmail"),
        "{out}"
    );

    // A file that does not parse: one line, and the hint.
    let o = pbem(&["check", "--config", "/no/such/pbem.toml"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).starts_with("FAIL  config") && text(&o).contains("pbem init"),
        "{}",
        text(&o)
    );
}

/// A one-connection SMTP server on loopback that greets, answers EHLO
/// and NOOP, and says goodbye: enough for `pbem check`. Returns its port.
fn fake_smtp() -> u16 {
    use std::io::{BufRead, BufReader};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return;
        };
        let mut out = stream.try_clone().unwrap();
        let _ = out.write_all(b"220 fake ESMTP\r\n");
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { return };
            let answer: &[u8] = match line.get(..4).map(str::to_ascii_uppercase).as_deref() {
                Some("EHLO") => b"250-fake\r\n250 8BITMIME\r\n",
                Some("QUIT") => b"221 bye\r\n",
                _ => b"250 ok\r\n",
            };
            let _ = out.write_all(answer);
            if answer.starts_with(b"221") {
                return;
            }
        }
    });
    port
}

/// `pbem check` tests the settings a poll runs with: every --set applied,
/// an unknown key an error that names it, as for every other command.
#[test]
fn check_tests_the_settings_with_every_set() {
    let (_dir, config) = initialised();
    let config = config.as_str();
    for bad in ["bogus.key=1", "send.smtp.port=1", "inbox.maildri=x"] {
        let o = pbem(&["check", "--config", config, "--set", bad], None);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "--set {bad}: {out}");
        assert!(
            out.starts_with("FAIL  config") && out.contains(&format!("--set {bad}: unknown field")),
            "{out}"
        );
        assert_eq!(out.lines().count(), 1, "{out}");
        // The same words from the commands that run with them.
        for cmd in ["poll", "games"] {
            let o = pbem(&[cmd, "--config", config, "--set", bad], None);
            assert_eq!(o.status.code(), Some(1), "{cmd} --set {bad}");
            assert!(
                err(&o).contains(&format!("--set {bad}: unknown field")),
                "{cmd}: {}",
                err(&o)
            );
        }
    }
    let o = pbem(
        &["init", "--config", config, "--force", "--set", "data=x"],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("--set data=x: init writes the default"),
        "{}",
        err(&o)
    );

    // The file sends over SMTP to a port nobody listens on: the check
    // fails; --set sends it to a server that answers, and it passes.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let smtp = std::fs::read_to_string(config).unwrap().replace(
        "transport = \"maildir\"\nfolder = \"mail/sent\"",
        &format!(
            "transport = \"smtp\"\nhost = \"127.0.0.1\"\nport = {closed}\nsecurity = \"none\""
        ),
    );
    std::fs::write(config, smtp).unwrap();
    let o = pbem(&["check", "--config", config], None);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(&format!(
            "FAIL  send    smtp 127.0.0.1:{closed} (none): SMTP connect:"
        )) && out.contains("check send.host, send.port"),
        "{out}"
    );
    let port = fake_smtp();
    let set = format!("send.port={port}");
    let o = pbem(&["check", "--config", config, "--set", &set], None);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains(&format!("reads well with --set {set};")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "OK    send    smtp 127.0.0.1:{port} (none): connect, EHLO work"
        )),
        "{out}"
    );
    // And back: the override, not the file, fails.
    let o = pbem(&["check", "--config", config, "--set", "send.port=1"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("FAIL  send    smtp 127.0.0.1:1 (none)"),
        "{}",
        text(&o)
    );
}

#[test]
fn imap_settings_are_checked_and_name_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pbem.toml");
    let config = config.to_str().unwrap();
    let base = pbem::config::INIT.replace("maildir = \"mail/inbox\"\n", "");
    let with = |imap: &str| {
        std::fs::write(config, base.replace("[send]", &format!("{imap}\n[send]"))).unwrap();
        pbem(&["check", "--config", config], None)
    };
    // Plain IMAP to another machine would send the password in clear.
    let o = with(
        "[inbox.imap]\nhost = \"imap.example.org\"\nsecurity = \"plain\"\nuser = \"pbem\"\npassword = \"hunter2\"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("inbox.imap.security") && text(&o).contains("starttls"),
        "{}",
        text(&o)
    );
    assert!(!text(&o).contains("hunter2"), "never the password");
    let o = with("[inbox.imap]\nhost = \"localhost\"\nuser = \"pbem\"");
    assert!(text(&o).contains("password_file"), "{}", text(&o));
    let o = with(
        "[inbox.imap]\nhost = \"localhost\"\nuser = \"pbem\"\npassword = \"x\"\nsecurity = \"ssl\"",
    );
    assert!(
        text(&o).contains("line") && text(&o).contains("`starttls`"),
        "{}",
        text(&o)
    );
    // Both a Maildir and IMAP.
    std::fs::write(
        config,
        pbem::config::INIT.replace(
            "[send]",
            "[inbox.imap]\nhost = \"localhost\"\nuser = \"pbem\"\npassword = \"x\"\n[send]",
        ),
    )
    .unwrap();
    let o = pbem(&["check", "--config", config], None);
    assert!(
        text(&o).contains("both `maildir` and `imap`"),
        "{}",
        text(&o)
    );
    // A server that is not there: the check fails, naming the setting.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let o = with(&format!(
        "[inbox.imap]\nhost = \"127.0.0.1\"\nport = {port}\nsecurity = \"plain\"\nuser = \"pbem\"\npassword = \"hunter2\""
    ));
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o);
    assert!(
        out.contains("OK    config")
            && out.contains("FAIL  inbox")
            && out.contains("inbox.imap.port"),
        "{out}"
    );
    assert!(!out.contains("hunter2") && !err(&o).contains("hunter2"));
}
