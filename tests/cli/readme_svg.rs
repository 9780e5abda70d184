//! The SVG examples of the README and the book write their image outside
//! the checkout, and none is committed at the repository's root.

const README: &str = include_str!("../../README.md");
const BOOK_BOARDS: &str = include_str!("../../docs/src/players/boards.md");

#[test]
fn readme_svg_example_writes_to_a_path_outside_the_checkout() {
    let examples: Vec<&str> = README
        .lines()
        .chain(BOOK_BOARDS.lines())
        .filter(|l| l.starts_with("pbem ") && l.contains("--svg") && l.contains('>'))
        .collect();
    assert!(
        !examples.is_empty(),
        "the README or the book shows `pbem show ... --svg > FILE`"
    );
    for l in examples {
        let target = l.rsplit_once('>').unwrap().1.trim();
        assert!(
            target.starts_with('/'),
            "{l}: written into the current folder"
        );
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(
        !root.join("board.svg").exists(),
        "a stray board.svg at the root"
    );
}
