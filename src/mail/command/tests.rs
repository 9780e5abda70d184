//! Tests of command parsing.

use super::*;

fn one(line: &str) -> Command {
    parse_line(line)
        .unwrap()
        .unwrap_or_else(|| panic!("chatter: {line}"))
}

#[test]
fn moves_in_every_form() {
    let mv = |n: Option<u32>, t: &str| Command::Move {
        number: n,
        text: t.into(),
    };
    assert_eq!(one("22-15"), mv(None, "22-15"));
    assert_eq!(one("MOVE 22x15"), mv(None, "22x15"));
    assert_eq!(one("#12 22-15"), mv(Some(12), "22-15"));
    assert_eq!(one("#12 move 22-15"), mv(Some(12), "22-15"));
    assert_eq!(one("27/36, 28/37"), mv(None, "27/36, 28/37"));
    assert_eq!(one("L12-28"), mv(None, "L12-28"));
    assert_eq!(one("12-20:2"), mv(None, "12-20:2"));
    assert_eq!(one("22 - off"), mv(None, "22 - off"));
    assert_eq!(one("22–15"), mv(None, "22–15"));
}

#[test]
fn other_commands() {
    assert_eq!(
        one("Challenge Boom & Zoom <bob@example.org> first"),
        Command::Challenge {
            rules: Rules::BoomAndZoom,
            opponent: Opponent::Player("bob@example.org".into()),
            order: Order::First,
            clock: None,
            series: None,
            rated: true,
        }
    );
    assert_eq!(
        one("challenge mad bob@example.org second 3d+1d/10D Weekends-Free"),
        Command::Challenge {
            rules: Rules::Mad,
            opponent: Opponent::Player("bob@example.org".into()),
            order: Order::Second,
            clock: Some("3d+1d/10d weekends-free".parse().unwrap()),
            series: None,
            rated: true,
        }
    );
    assert!(
        parse_line("challenge mad bob@example.org 0d")
            .unwrap_err()
            .to_string()
            .contains("0d"),
    );
    assert_eq!(
        one("timezone europe/berlin"),
        Command::Timezone(Some(chrono_tz::Europe::Berlin))
    );
    assert_eq!(one("timezone UTC"), Command::Timezone(None));
    assert!(
        parse_line("timezone Berlin")
            .unwrap_err()
            .to_string()
            .contains("Europe/Berlin")
    );
    assert_eq!(one("vacation 7"), Command::Vacation(Some(7)));
    assert_eq!(one("vacation 7 days"), Command::Vacation(Some(7)));
    assert_eq!(one("Vacation off"), Command::Vacation(None));
    assert!(
        parse_line("vacation soon")
            .unwrap_err()
            .to_string()
            .contains("vacation 7")
    );
    assert!(
        parse_line("vacation 0")
            .unwrap_err()
            .to_string()
            .contains("not a number of days")
    );
    assert_eq!(one("accept"), Command::Accept);
    assert_eq!(one("Accept draw"), Command::AcceptDraw);
    assert_eq!(one("decline draw"), Command::DeclineDraw);
    assert_eq!(one("RESIGN"), Command::Resign);
    for (line, c) in [
        ("takeback", Command::Takeback),
        ("Take back", Command::Takeback),
        ("take-back", Command::Takeback),
        ("undo", Command::Takeback),
        ("accept takeback", Command::AcceptTakeback),
        ("Accept take back", Command::AcceptTakeback),
        ("decline takeback", Command::DeclineTakeback),
        ("refuse take-back", Command::DeclineTakeback),
    ] {
        assert_eq!(one(line), c, "{line}");
        assert_eq!(one(&c.to_string()), c, "{c} reads back");
        assert!(c.changes_game(), "{c}");
    }
    // A sentence that starts with the words is chatter.
    assert_eq!(parse_line("take back what you said"), Ok(None));
    assert_eq!(one("draw"), Command::OfferDraw);
    assert_eq!(one("offer draw"), Command::OfferDraw);
    assert_eq!(one("board"), Command::Board);
    assert_eq!(
        one("moves 22"),
        Command::Moves {
            from: Some("22".into())
        }
    );
    assert_eq!(one("games"), Command::Games);
    assert_eq!(
        one("rules mad"),
        Command::Rules {
            game: Some(Rules::Mad)
        }
    );
    assert_eq!(one("help"), Command::Help);
    assert_eq!(one("token k3y"), Command::Token("k3y".into()));
}

#[test]
fn long_lines_and_many_commands_are_refused_not_carried_out() {
    // A megabyte move: refused with its first 60 characters quoted.
    let long = "1-2-".repeat(250_000);
    let c = parse(&format!("{long}\n"));
    assert!(c.commands.is_empty());
    assert_eq!(c.errors.len(), 1);
    assert!(c.errors[0].line.len() < 70, "{}", c.errors[0].line);
    assert!(c.errors[0].message.contains("too long"));
    let c = parse(&format!("move {}\n", "1x".repeat(150)));
    assert!(c.errors[0].message.contains("too long"));
    // A long line of chatter is chatter.
    let c = parse(&format!("{}\nboard\n", "blah ".repeat(100)));
    assert_eq!(c.commands, [Command::Board]);
    assert!(c.errors.is_empty());
    // A storm in one mail: 10,000 `help` lines would be 10,000 replies.
    let c = parse(&"help\n".repeat(10_000));
    assert!(
        c.errors
            .iter()
            .any(|e| e.message.contains("at most 20 commands"))
    );
    let c = parse(&"board\n".repeat(MAX_COMMANDS));
    assert!(c.errors.is_empty());
    // A near miss in a long word is not quoted back.
    let c = parse(&format!("hi {}\n", "1-".repeat(10_000)));
    assert!(c.errors.is_empty());
}

#[test]
fn lookalikes_are_named() {
    for (text, c) in [
        ("13х21", 'х'),
        ("13Х21", 'Х'),
        ("13χ21", 'χ'),
        ("¹³-²¹", '¹'),
        ("⑬-㉑", '⑬'),
        ("13-оff", 'о'),
        ("1\u{0335}3-21", '\u{0335}'),
    ] {
        let p = parse(&format!("{text}\n"));
        assert!(!p.errors.is_empty(), "{text}: {p:?}");
        assert!(p.commands.is_empty(), "{text}");
        assert!(
            p.errors[0]
                .message
                .contains(&format!("{c:?} (U+{:04X})", c as u32)),
            "{text}: {:?}",
            p.errors
        );
    }
    // Dashes pbem reads are moves; words and chatter are not named.
    for dash in ['‐', '‑', '‒', '―', '﹣'] {
        assert!(matches!(one(&format!("13{dash}21")), Command::Move { .. }));
    }
    for chatter in ["Привет", "café at 10", "XIII-XXI", "rеsign"] {
        assert!(parse(chatter).errors.is_empty(), "{chatter}");
    }
}

#[test]
fn times_dates_and_foreign_words_are_chatter() {
    for line in [
        "12:33",
        "09:58:12",
        "20/11/26",
        "Am 19.11.2026 um 12:33 schrieb pbem:",
        "Le jeu. 19 nov. 2026 à 12:33, pbem <pbem@example.net> a écrit :",
        "pbem <pbem@example.net> 于2026年11月20日周五 10:00写道：",
        "On 20/11/26 12:33, pbem wrote:",
    ] {
        let c = parse(&format!("{line}\n"));
        assert!(
            c.commands.is_empty() && c.errors.is_empty(),
            "{line}: {c:?}"
        );
    }
    // A move is still a move, and a look-alike still named.
    assert!(matches!(one("12-20:2"), Command::Move { .. }));
    assert!(matches!(one("27/36"), Command::Move { .. }));
    assert!(!parse("13х21\n").errors.is_empty());
}

#[test]
fn chatter_is_ignored_and_near_misses_are_errors() {
    assert_eq!(parse_line("Hi Bob, good move!").unwrap(), None);
    assert_eq!(parse_line("I resign from my job").unwrap(), None);
    assert!(
        parse_line("challenge chess bob@x.org")
            .unwrap_err()
            .to_string()
            .contains("unknown game")
    );
    assert!(
        parse_line("challenge mad")
            .unwrap_err()
            .to_string()
            .contains("whom")
    );
    assert!(
        parse_line("#x 22-15")
            .unwrap_err()
            .to_string()
            .contains("not a move number")
    );
    let c = parse("Hi!\n22-15.\nthanks\n");
    assert_eq!(c.commands.len(), 1);
    assert!(c.errors.is_empty());
    // With no command at all, a line holding a move is a near miss.
    let c = parse("Hi!\nmvoe 13-21\n");
    assert_eq!(c.errors[0].line, "mvoe 13-21");
    assert!(c.errors[0].message.contains("`move 13-21`"));
    // Beside a command it is chatter.
    assert!(parse("Nice 13x34!\n22-15\n").errors.is_empty());
    assert!(parse("See you on Monday\n").errors.is_empty());
}
#[test]
fn moves_takes_a_square_or_nothing() {
    assert_eq!(one("moves"), Command::Moves { from: None });
    assert_eq!(one("legal"), Command::Moves { from: None });
    assert_eq!(
        one("Moves 22"),
        Command::Moves {
            from: Some("22".into())
        }
    );
    // The square's form only: whether it is on the board is the
    // game's to say.
    assert_eq!(
        one("legal 100"),
        Command::Moves {
            from: Some("100".into())
        }
    );
    for (line, word) in [
        ("moves moves", "moves"),
        ("legal moves 50-51", "moves"),
        ("moves 1000", "1000"),
        ("moves 27/36", "27/36"),
        ("moves twenty-two", "twenty-two"),
        ("moves 22 please", "please"),
    ] {
        let e = parse_line(line).unwrap_err().to_string();
        assert!(
            e.contains(&format!("`{word}` is not a square number")),
            "{line}: {e}"
        );
        assert!(e.contains("takes a square number, like"), "{line}: {e}");
        assert!(e.contains("or nothing"), "{line}: {e}");
    }
    assert_eq!(
        parse_line("moves moves").unwrap_err().to_string(),
        "`moves` is not a square number: `moves` takes a square number, like moves 22, or nothing"
    );
    assert!(
        parse_line("moves 22 23")
            .unwrap_err()
            .to_string()
            .contains("one square at a time")
    );
    // A hostile word is quoted short.
    let e = parse_line(&format!("moves {}", "y".repeat(150)))
        .unwrap_err()
        .to_string();
    assert!(e.len() < 120, "{e}");
}

#[test]
fn a_line_of_several_moves_is_refused_in_every_games_shape() {
    for (line, quoted) in [
        ("50-51, 50-52, 50-53", "50-51, 50-52, ..."),
        ("22-15 23-16", "22-15, 23-16"),
        ("22-15; 23-16", "22-15, 23-16"),
        ("22 - 15  23 - 16", "22-15, 23-16"),
        ("22-off 23-off", "22-off, 23-off"),
        ("17-33 33x41 49-off", "17-33, 33x41, ..."),
        ("12-20:2 L12-28", "12-20:2, L12-28"),
        ("L12x28, 12x20:3", "L12x28, 12x20:3"),
        ("18-42 18x22", "18-42, 18x22"),
        ("22x36x50 22-29", "22x36x50, 22-29"),
        ("27/36,28/37 29/38,30/39", "27/36,28/37, 29/38,30/39"),
        ("27/36,28/37 27-36", "27/36,28/37, 27-36"),
        ("#12 22-15 23-16", "22-15, 23-16"),
        ("move 22-15, 23-16", "22-15, 23-16"),
    ] {
        let e = parse_line(line).unwrap_err().to_string();
        assert!(
            e.starts_with("one move per mail: this line holds several moves"),
            "{line}: {e}"
        );
        assert!(e.contains(&format!("({quoted})")), "{line}: {e}");
        let c = parse(&format!("{line}\n"));
        assert!(c.commands.is_empty(), "{line}");
        assert_eq!(c.errors[0].line, quoted, "{line}");
    }
    // A pasted list is quoted by its first two moves, never whole.
    let list = |n: u32| {
        (1..=n)
            .map(|n| format!("{n}-{}", n + 8))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let c = parse(&format!("{}\n", list(25)));
    assert_eq!(c.errors[0].line, "1-9, 2-10, ...");
    assert!(c.errors[0].message.len() < 120, "{}", c.errors[0].message);
    // Past MAX_LINE it is a line too long, quoted cut.
    let c = parse(&format!("{}\n", list(40)));
    assert!(c.errors[0].message.contains("too long"));
    assert!(c.errors[0].line.len() < 70);
}

#[test]
fn one_move_in_any_form_is_still_one_move() {
    let mv = |t: &str| Command::Move {
        number: None,
        text: t.into(),
    };
    // A Guerrilla placement is one move of two points, however the
    // points are separated.
    for line in [
        "27/36,28/37",
        "27/36, 28/37",
        "27/36 28/37",
        "27/36 ; 28/37",
        "27 / 36 , 28 / 37",
        "27/36",
    ] {
        assert_eq!(one(line), mv(line), "{line}");
    }
    for line in [
        "22x36x50",
        "22 x 36 x 50",
        "22-36-50",
        "12-20:2",
        "L12-28",
        "l12x28",
        "22-off",
        "22 - off",
        "13-x21",
        "22-",
    ] {
        assert_eq!(one(line), mv(line), "{line}");
    }
    assert_eq!(
        one("#12 27/36 28/37"),
        Command::Move {
            number: Some(12),
            text: "27/36 28/37".into()
        }
    );
    assert_eq!(one("move 22-15"), mv("22-15"));
    // Three points are one (bad) placement for the game to refuse.
    let c = parse("27/36,28/37,29/38\n");
    assert!(c.errors.is_empty() || c.errors[0].message.contains("one move per mail"));
}

#[test]
fn a_mail_of_two_move_lines_is_refused_naming_both() {
    let c = parse("64-63\n63-62\n");
    assert_eq!(c.errors.len(), 1, "{c:?}");
    let e = &c.errors[0];
    assert!(e.message.starts_with("one move per mail"), "{e}");
    assert!(e.message.contains("(64-63, 63-62)"), "{e}");
    assert_eq!(e.line, "64-63, 63-62");
    let c = parse("#3 13-21\nthanks!\nmove 14-22\nboard\n#5 15-23\n");
    assert!(
        c.errors[0]
            .message
            .contains("3 moves (#3 13-21, 14-22, ...)"),
        "{c:?}"
    );
    // A move and other commands are not several moves.
    assert!(parse("22-15\ndraw\nboard\n").errors.is_empty());
    assert!(parse("27/36 28/37\n").errors.is_empty());
}

#[test]
fn hints_before_any_game_name_only_the_form_every_game_has() {
    // `A-B` is in every game; `off`, `:2`, `L`, points are not.
    let foreign = regex::Regex::new(r"(?i)-off|:\d|\d/\d|\bl\d|\dx\d+x").unwrap();
    for e in [
        parse_line("move").unwrap_err().to_string(),
        parse_line("#12").unwrap_err().to_string(),
        parse_line("#x 22-15").unwrap_err().to_string(),
        parse("13х21\n").errors[0].message.clone(),
    ] {
        assert!(!foreign.is_match(&e), "{e}");
        assert!(e.contains("22-15"), "{e}");
    }
}

#[test]
fn series_tournament_and_rating_commands() {
    assert_eq!(
        one("challenge toroidal-checkers bob@example.org 3d series 3 unrated"),
        Command::Challenge {
            rules: Rules::ToroidalCheckers,
            opponent: Opponent::Player("bob@example.org".into()),
            order: Order::Random,
            clock: Some("3d".parse().unwrap()),
            series: Some(3),
            rated: false,
        }
    );
    let c = one("Challenge embed bob@example.org Series 5 first");
    assert_eq!(
        c.to_string(),
        "challenge embed bob@example.org first series 5"
    );
    assert_eq!(one(&c.to_string()), c);
    for bad in ["series 1", "series 26", "series three", "series"] {
        let e = parse_line(&format!("challenge mad bob@x.org {bad}"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("from 2 to 25"), "{bad}: {e}");
    }
    assert_eq!(one("Rematch"), Command::Rematch);
    assert_eq!(one("rematch?"), Command::Rematch);
    assert_eq!(parse_line("rematch after lunch"), Ok(None));
    assert_eq!(one("join Spring-Cup"), Command::Join("spring-cup".into()));
    assert_eq!(one("leave spring-cup"), Command::Leave("spring-cup".into()));
    assert_eq!(one("standings"), Command::Standings(None));
    assert_eq!(
        one("standings spring-cup"),
        Command::Standings(Some("spring-cup".into()))
    );
    assert_eq!(parse_line("leave it to me"), Ok(None));
    assert!(
        parse_line("join")
            .unwrap_err()
            .to_string()
            .contains("join spring-cup")
    );
    assert!(
        parse_line("join spring_cup!")
            .unwrap_err()
            .to_string()
            .contains("not a tournament's name")
    );
    assert_eq!(one("ratings"), Command::Ratings(None));
    assert_eq!(
        one("ratings mad rooks"),
        Command::Ratings(Some(Rules::MadRooks))
    );
    assert!(matches!(
        parse_line("ratings chess"),
        Err(LineError::Rules(_))
    ));
    assert_eq!(parse_line("accept drwa"), Err(LineError::Accept));
    assert_eq!(parse_line("decline takebak"), Err(LineError::Decline));
    assert_eq!(
        parse_line("#12"),
        Err(LineError::Move(MoveLineError::Numbered(12)))
    );
    assert!(matches!(
        parse_line("challenge mad bob@x.org series 99"),
        Err(LineError::Challenge(ChallengeError::Series(Some(_))))
    ));
    assert_eq!(one("analysis"), Command::Analysis);
    assert_eq!(one("Analyse"), Command::Analysis);
    assert_eq!(parse_line("analysis of the opening").ok().flatten(), None);
    for c in [
        Command::Analysis,
        Command::Rematch,
        Command::Join("x1".into()),
        Command::Leave("x1".into()),
        Command::Standings(Some("x1".into())),
        Command::Ratings(Some(Rules::Embed)),
    ] {
        assert_eq!(one(&c.to_string()), c, "round trip");
    }
}

#[test]
fn a_caption_is_never_a_command_nor_an_error() {
    for line in [
        "Legal moves: 50-26, 50-29, 50-33, ...",
        "legal moves: 50-51",
        "moves: 50-26",
        "From 50: 50-26, 50-29",
        "Your move: 13-21",
        "Your move: #13 13-21",
        "Zug: 13-21",
        "Coups légaux : 50-26, 50-29",
        "合法着法：50-26",
        "Legal moves:",
        "P.S.: resign",
        "Rules: chess",
    ] {
        assert_eq!(parse_line(line), Ok(None), "{line}");
        assert!(!reads_as_command(line), "{line}");
        assert!(!reads_as_command(&format!("> {line}")), "{line}");
        // Beside a move it is chatter: the move alone is read.
        let c = parse(&format!("22-15\n{line}\n"));
        assert_eq!(c.commands, [one("22-15")], "{line}");
        assert!(c.errors.is_empty(), "{line}: {:?}", c.errors);
    }
    // A colon inside a word, or after no word, is no caption's.
    assert!(matches!(one("12-20:2"), Command::Move { .. }));
    assert!(matches!(one("12-20: 2"), Command::Move { .. }));
    assert!(matches!(one("#12 12-20:2"), Command::Move { .. }));
    assert!(matches!(one("digest daily 08:00"), Command::Digest(_)));
    assert!(parse_line("#12: 22-15").is_err());
    // A chess move joined by a colon is still a move in another notation.
    assert!(reads_as_command("e2: e4"));
    // A move with a stray colon is read as written, with `move` or `play`
    // before it or not: no caption starts with the word that says move.
    for line in ["22-1:", "move 22-1:", "play 22-1:", "MOVE 22-1 :"] {
        let Command::Move { number: None, text } = one(line) else {
            panic!("{line}");
        };
        assert_eq!(
            text.split_whitespace().collect::<String>(),
            "22-1:",
            "{line}"
        );
    }
    assert_eq!(parse_line("Move 22-15: a good one"), Ok(None));
}

#[test]
fn each_error_is_typed_by_what_it_tried_to_be() {
    let long_list = (1..=40)
        .map(|n| format!("{n}-{}", n + 8))
        .collect::<Vec<_>>()
        .join(", ");
    for (line, kind) in [
        ("e2-e4", ErrorKind::Move),
        ("50 to 42", ErrorKind::Move),
        ("#12", ErrorKind::Move),
        ("#x 22-15", ErrorKind::Move),
        ("move", ErrorKind::Move),
        ("22-15 23-16", ErrorKind::Move),
        ("move 22-15, 23-16", ErrorKind::Move),
        ("#12 50-51, 50-52, 50-53", ErrorKind::Move),
        ("13х21", ErrorKind::Move),
        ("mvoe 13-21", ErrorKind::Move),
        ("50-26, 50-29, 50-33", ErrorKind::MoveList),
        ("17-33 33x41 49-off", ErrorKind::MoveList),
        (&long_list, ErrorKind::MoveList),
        ("accept drwa", ErrorKind::Command),
        ("rules chess", ErrorKind::Command),
        ("timezone Mars/Base", ErrorKind::Command),
        ("moves 22 23", ErrorKind::Command),
        ("vacation soon", ErrorKind::Command),
        ("challenge mad", ErrorKind::Command),
    ] {
        let c = parse(&format!("{line}\n"));
        assert_eq!(c.errors.len(), 1, "{line}: {:?}", c.errors);
        assert_eq!(c.errors[0].kind, kind, "{line}: {:?}", c.errors);
        assert!(!kind.refuses_mail(), "{line}");
    }
    // Beside a move, a line that is no move is left to the adjudicator
    // to leave out: nothing refuses the mail.
    for other in ["accept drwa", "rules chess", "50-26, 50-29, 50-33", "draw"] {
        let c = parse(&format!("13-21\n{other}\n"));
        assert!(c.commands.contains(&one("13-21")), "{other}");
        assert!(
            c.errors.iter().all(|e| !e.kind.refuses_mail()),
            "{other}: {:?}",
            c.errors
        );
    }
}

#[test]
fn two_attempts_at_a_move_or_a_move_and_resign_refuse_the_mail() {
    for (body, named) in [
        ("64-63\n63-62\n", "(64-63, 63-62)"),
        ("13-21\n#13 23-x1x\n", "(13-21, #13 23-x1x)"),
        ("13-21\ne2-e4\n", "(13-21, e2-e4)"),
        ("13-21\n22-15 23-16\n", "(13-21, 22-15 23-16)"),
        ("#x 13-21\nmove\n", "(#x 13-21, move)"),
    ] {
        let c = parse(body);
        let e = c.errors.iter().find(|e| e.kind.refuses_mail());
        let e = e.unwrap_or_else(|| panic!("{body:?}: {:?}", c.errors));
        assert_eq!(e.kind, ErrorKind::Ambiguous, "{body:?}");
        assert!(e.message.starts_with("one move per mail"), "{}", e.message);
        assert!(e.message.contains(named), "{body:?}: {}", e.message);
    }
    for body in ["13-21\nresign\n", "resign\n#x 13-21\n"] {
        let c = parse(body);
        let e = c.errors.iter().find(|e| e.kind == ErrorKind::Ambiguous);
        let e = e.unwrap_or_else(|| panic!("{body:?}: {:?}", c.errors));
        assert!(e.message.contains("`resign`"), "{}", e.message);
        assert!(e.message.contains("play on or give up"), "{}", e.message);
    }
    // A move and a draw offer are both meant; a resignation alone too.
    for body in ["13-21\ndraw\n", "resign\nthanks for the game\n"] {
        assert!(parse(body).errors.is_empty(), "{body:?}");
    }
    let many = parse(&"board\n".repeat(MAX_COMMANDS + 1));
    assert_eq!(many.errors.len(), 1);
    assert_eq!(many.errors[0].kind, ErrorKind::TooMany);
    assert!(many.errors[0].kind.refuses_mail());
}

/// A sentence that starts like a command is chatter, never a command nor
/// an error: old wordings of pbem's mail, quoted back, are full of them.
#[test]
fn a_sentence_that_starts_like_a_command_is_chatter() {
    for line in [
        "#5 22-15. Other commands: board, moves [square], draw,",
        "#12 22-15 a move, saying it answers move 12 (safer: a stale",
        "moves 41-32 lists the moves from one square; 41-32 and 41-32 are",
        "accept draw; to play on, send your move, like 22-15",
        "legal now, resign ends the game",
        "Moves are written as two square numbers joined by a dash, like 22-15",
        "Legal moves from 13: 13-21, 13-22",
        "play black.",
        "move on",
    ] {
        assert_eq!(parse_line(line), Ok(None), "{line}");
        assert!(!reads_as_command(line), "{line}");
    }
    // Commands of a few words, their move's marks glued, stay commands.
    for line in ["#12 22 - 15 - 8", "move 22 - 15", "digest daily 08:00"] {
        assert!(matches!(parse_line(line), Ok(Some(_))), "{line}");
    }
}

/// A bare move of as many words as a command may take reads the same after
/// `move` or `play`: the word that says so is not one of the move's.
#[test]
fn a_move_reads_the_same_after_move_or_play() {
    for bare in [
        "22-15",
        "22 - 15 - 8",
        // Found by fuzzing: words split by vertical tabs.
        "4\u{b};44\u{b}\u{b};44\u{b};-",
    ] {
        let Ok(Some(Command::Move { number: None, text })) = parse_line(bare) else {
            panic!("{bare:?} alone is no move");
        };
        for head in ["move", "play", "Move"] {
            let said = format!("{head} {bare}");
            match parse_line(&said) {
                Ok(Some(Command::Move {
                    number: None,
                    text: t,
                })) => assert_eq!(
                    t.split_whitespace().collect::<Vec<_>>(),
                    text.split_whitespace().collect::<Vec<_>>(),
                    "{said:?}"
                ),
                other => panic!("{said:?} reads {other:?}"),
            }
        }
    }
}

/// In a mail of chatter, a caption, a list, a record's numbered line or
/// the end of a wrapped paragraph is no near miss of a move.
#[test]
fn near_misses_are_the_players_short_lines_only() {
    for body in [
        "Thanks\nFrom 16: 16-14, 16-1, 16-33\n",
        "Thanks\n1.   93x84\n",
        "Thanks\nBlack wins by reaching red's home row (57-64), red by going\nbeyond 1-8\n",
    ] {
        let read = parse(body);
        assert!(read.errors.is_empty(), "{body:?}: {:?}", read.errors);
    }
    let read = parse("Thanks\nmy move 13-21\n");
    assert_eq!(read.errors.len(), 1, "{:?}", read.errors);
}

/// [`glue_marks`] gives what the regex it replaces gave: spaces (any of
/// Unicode's) next to move punctuation dropped, over hand-picked lines
/// and many random ones of spaces, marks, digits and letters.
#[test]
fn glued_marks_are_what_the_regex_gave() {
    let regex = regex::Regex::new(r"(?i)\s*([-x×–—−‐‑‒―﹣:/])\s*").unwrap();
    let mut lines: Vec<String> = [
        "22 - 15",
        "22 -  off",
        "27 / 36 , 28/37",
        "a - - b",
        " x ",
        "box x 12",
        "12 \u{a0}–\u{2003}15",
        "",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let pieces = [
        " ", "\t", "\u{a0}", "\u{2003}", "-", "x", "X", "×", "–", "—", ":", "/", "﹣", "1", "a",
        ",", "o", "f", "off",
    ];
    lines.extend(crate::mail::random_lines::random_lines(
        &pieces,
        5000,
        12,
        0x9e37_79b9_7f4a_7c15,
    ));
    for line in &lines {
        assert_eq!(glue_marks(line), regex.replace_all(line, "$1"), "{line:?}");
    }
}
