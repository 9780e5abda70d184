//! The README's commands, run as printed: the demo's closing
//! lines, and the walk-through of a first game by hand, whose answers are
//! the ones the README quotes.

use std::path::{Path, PathBuf};
use std::process::Command;

const README: &str = include_str!("../../README.md");

/// The `sh` blocks of the README's section `heading`, in order.
fn sh_blocks(heading: &str) -> Vec<String> {
    let start = README
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("README: no {heading}"));
    let section = &README[start + heading.len() + 2..];
    let end = section
        .find("\n## ")
        .into_iter()
        .chain(section.find("\n### "))
        .min();
    let section = &section[..end.unwrap_or(section.len())];
    let mut blocks = Vec::new();
    let mut rest = section;
    while let Some(at) = rest.find("```sh\n") {
        let body = &rest[at + 6..];
        let close = body.find("\n```").expect("a closed block");
        blocks.push(format!("{}\n", &body[..close]));
        rest = &body[close + 4..];
    }
    blocks
}

/// The folder of the pbem under test, to put first on the PATH.
fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_pbem"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Runs `script` with `sh -e` in `dir`, pbem on the PATH.
fn sh(dir: &Path, script: &str) -> String {
    let path = format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new("sh")
        .args(["-e", "-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("PBEM_CONFIG")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{script}\n{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// The first line of the text of every mail pbem wrote to `address` in
/// the Embed game (the demo's own game is Dragons Teeth).
fn headlines(dir: &Path, address: &str) -> Vec<String> {
    let folder = dir.join(format!("pbem-demo/mail/sent/{address}/new"));
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let mail = mail_parser::MessageParser::default().parse(&bytes).unwrap();
        if mail.subject().is_some_and(|s| s.contains("[pbem em-")) {
            let text = mail.body_text(0).unwrap();
            lines.push(text.lines().next().unwrap_or("").to_string());
        }
    }
    lines.sort();
    lines
}

/// The README in one line per paragraph's words: quotes wrapped over
/// lines are found whole.
fn readme_words() -> String {
    README.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_first_game_by_hand_runs_as_the_readme_says() {
    let blocks = sh_blocks("### Your first game by hand");
    assert_eq!(blocks.len(), 3, "{blocks:?}");
    // The mail the README shows is the one `pbem demo` prints.
    let first = blocks[0]
        .split_once("<<'EOF'\n")
        .and_then(|(_, b)| b.split_once("EOF\n"))
        .map(|(mail, _)| mail)
        .expect("the first block writes a mail");
    assert_eq!(first, pbem::demo::FIRST_MAIL);
    let dir = tempfile::tempdir().unwrap();
    sh(dir.path(), "pbem demo --dir pbem-demo > /dev/null");
    for block in &blocks {
        sh(dir.path(), block);
    }
    let you = headlines(dir.path(), "you@example.org");
    let carol = headlines(dir.path(), "carol@example.org");
    assert_eq!((you.len(), carol.len()), (3, 3), "{you:?} {carol:?}");
    // Each answer starts as the README says.
    let words = readme_words();
    for line in you.iter().chain(&carol) {
        let said = line.split([':', '.']).next().unwrap();
        assert!(words.contains(said), "the README does not say {said:?}");
    }
    assert!(
        you.iter().any(|l| l.contains("It is red's move")),
        "{you:?}"
    );
    assert!(
        carol.iter().any(|l| l.contains("It is your move")),
        "{carol:?}"
    );
    let games = sh(dir.path(), "pbem games --config pbem-demo/pbem.toml");
    assert!(games.lines().any(|l| l.starts_with("em-")), "{games}");
}

/// What `pbem demo` prints at its end runs as printed: the mail written
/// into the inbox, then the poll, with the program as it was started.
#[test]
fn the_demos_closing_lines_run_as_printed() {
    let dir = tempfile::tempdir().unwrap();
    let out = sh(dir.path(), "pbem demo --dir pbem-demo");
    let tail = out
        .split("Try a game of your own")
        .nth(1)
        .expect("the demo ends with a game of your own");
    let write = tail
        .find("cat > ")
        .and_then(|at| {
            tail[at..]
                .find("\nEOF\n")
                .map(|end| &tail[at..at + end + 5])
        })
        .expect("a command that writes the mail");
    assert!(write.contains(pbem::demo::FIRST_MAIL), "{write}");
    let poll = tail
        .lines()
        .find(|l| l.contains(" poll --config "))
        .expect("the poll command");
    // Started by its name from the PATH, it names itself so.
    assert!(poll.starts_with("pbem poll"), "{poll}");
    sh(dir.path(), &format!("{write}{poll}\n"));
    let you = headlines(dir.path(), "you@example.org");
    assert_eq!(you.len(), 1, "{you:?}");
    assert!(
        you[0].starts_with("Your challenge to carol (carol@example.org)"),
        "{you:?}"
    );
    // Started by its path, it names its path.
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["demo", "--dir", "pbem-demo"])
        .current_dir(dir.path())
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let poll = out.lines().find(|l| l.contains(" poll --config ")).unwrap();
    assert!(
        poll.starts_with(&format!("{} poll", env!("CARGO_BIN_EXE_pbem"))),
        "{poll}"
    );
}

/// The README's offline commands on the bundled games, run as written
/// from the project's folder: each works and prints something.
#[test]
fn the_readmes_commands_on_the_bundled_games_run() {
    let words = readme_words();
    let commands: Vec<&str> = words
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            ["pbem validate ", "pbem moves ", "pbem show "]
                .iter()
                .any(|c| span.starts_with(c))
                && span.contains("games/")
        })
        .collect();
    assert!(commands.len() >= 3, "{commands:?}");
    for command in commands {
        let out = sh(Path::new(env!("CARGO_MANIFEST_DIR")), command);
        assert!(!out.trim().is_empty(), "{command} prints nothing");
    }
}

/// The book's `sh` blocks (its runnable commands; `text` blocks are
/// read, not run), each in a fresh folder that holds the bundled games
/// as the repository does, with pbem on the PATH.
#[test]
fn the_books_sh_blocks_run_as_printed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("docs/src")];
    let mut run = 0;
    while let Some(dir) = pages.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pages.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "md") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for block in blocks_of(&text, "```sh\n") {
                let dir = tempfile::tempdir().unwrap();
                std::os::unix::fs::symlink(root.join("engine"), dir.path().join("engine")).unwrap();
                sh(dir.path(), &block);
                run += 1;
            }
        }
    }
    assert!(run >= 2, "only {run} runnable blocks in the book");
}

/// The bodies of the blocks that open with `fence` in `text`.
fn blocks_of(text: &str, fence: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(fence) {
        let body = &rest[at + fence.len()..];
        let close = body.find("\n```").expect("a closed block");
        blocks.push(format!("{}\n", &body[..close]));
        rest = &body[close + 4..];
    }
    blocks
}
