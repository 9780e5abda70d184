//! A record with takebacks (docs/src/formats/record.md, "Takebacks")
//! through `pbem validate`, `moves` and `show`, as text and JSON: the
//! moves that stand are the game's, those taken back are listed apart.

use super::{err, pbem, temp, text};

/// Black's move 3 taken back and played again otherwise; red's move 4
/// asked back and declined; black's move 5 asked back, still unanswered.
const RECORD: &str = "\
rules = \"boom-and-zoom\"
first = \"black\"
[play]
moves = \"\"\"
1.   black  6-13           2026-11-20T10:02:11Z  <a1@example.org>
2.   red    61-34          2026-11-20T11:40:02Z  <b1@example.org>
3.   black  13-21          2026-11-20T12:00:00Z  <a2@example.org>
     black  takeback asked  2026-11-20T12:01:00Z  <a3@example.org>
     red    takeback accepted  2026-11-20T13:00:00Z  <b2@example.org>
3.   black  5-12           2026-11-20T13:30:00Z  <a4@example.org>
4.   red    58-50          2026-11-20T14:00:00Z  <b3@example.org>
     red    takeback asked  2026-11-20T14:01:00Z  <b4@example.org>
     black  takeback declined  2026-11-20T14:30:00Z  <a5@example.org>
5.   black  12-20          2026-11-20T15:00:00Z  <a6@example.org>
     black  takeback asked  2026-11-20T15:01:00Z  <a7@example.org>
\"\"\"
";

fn json(args: &[&str]) -> serde_json::Value {
    let o = pbem(args, None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    serde_json::from_str(text(&o).trim()).unwrap()
}

#[test]
fn validate_moves_and_show_read_a_record_with_takebacks() {
    let (_d, file) = temp("tb.toml", RECORD);
    let o = pbem(&["validate", &file], None);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(text(&o), format!("{file}: ok (5 moves, *; 1 taken back)\n"));
    let v = json(&["validate", "--json", &file]);
    assert_eq!(
        (v["moves"].as_u64(), v["taken_back"].as_u64()),
        (Some(5), Some(1))
    );
    let v = json(&["moves", "--json", &file]);
    assert_eq!(v["ply"], 5);
    assert_eq!(v["turn"], "red");
    assert_eq!(
        v["taken_back"],
        serde_json::json!([{"ply": 3, "side": "black", "move": "13-21"}])
    );
    assert_eq!(v["takeback"], "black", "black's request waits");
    assert_eq!(
        v["takebacks_asked"],
        serde_json::json!({"black": 2, "red": 1})
    );
    assert!(v["moves"].as_array().is_some_and(|m| !m.is_empty()));
    // Move 3 is the one played again; the board after it shows it.
    let v = json(&["show", "--json", "--ply", "3", &file]);
    assert_eq!(
        (v["last_move"].as_str(), v["turn"].as_str()),
        (Some("5-12"), Some("red"))
    );
    assert_eq!(v["taken_back"][0]["move"], "13-21");
    let v = json(&["show", "--json", &file]);
    assert_eq!(v["last_move"], "12-20");
    let o = pbem(&["show", &file, "--ply", "6"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("has only 5 moves"), "{}", err(&o));
}

#[test]
fn a_takeback_out_of_place_fails_validation_at_its_line() {
    let bad = RECORD.replace(
        "     black  takeback declined",
        "     red    takeback declined",
    );
    let (_d, file) = temp("tb.toml", &bad);
    let o = pbem(&["validate", &file], None);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o),
        format!(
            "{file}:13: `red takeback declined`: red asked for this takeback; only the opponent answers it\n"
        )
    );
    // A bare move list reads takebacks too.
    let o = pbem(
        &[
            "validate",
            "--rules",
            "boom-and-zoom",
            "--first",
            "black",
            "-",
        ],
        Some("6-13\n61-34\ntakeback asked\ntakeback accepted\n58-50\n"),
    );
    assert_eq!(
        text(&o),
        "stdin: ok (2 moves, *; 1 taken back)\n",
        "{}",
        err(&o)
    );
}
