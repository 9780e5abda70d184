use super::out;
use crate::config::{Config, INIT};
use crate::demo::{Player, example_moves};
use crate::mailbox::Maildir;
use crate::rules::Rules;
use crate::setup::Server;
use clap::Args;
use std::path::{Path, PathBuf};

/// How long a mail's one-line summary may grow before it stops at an
/// earlier sentence end.
const SUMMARY_WIDTH: usize = 100;

/// Play a whole scripted game by mail on the embedded default (a local
/// Maildir in, Maildirs out; no mail server needed) and show the mails.
///
/// Alice challenges Bob, Bob accepts, and they play the bundled example
/// game move by move, each answering pbem's last mail as a mail client's
/// Reply would. Afterwards the folder is a working pbem setup: drop your
/// own mail into its inbox and run `pbem poll --config DIR/pbem.toml`.
///
/// Examples:
///   pbem demo
///   pbem demo --game embed --dir /tmp/pbem-demo
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Demo {
    /// The folder to set up (it must not hold a pbem.toml yet).
    #[arg(long, default_value = "pbem-demo", value_name = "DIR")]
    dir: PathBuf,
    /// The game to play.
    #[arg(long, default_value = "dragons-teeth", value_name = "GAME", value_parser = super::games::Games)]
    game: Rules,
    /// Print every mail in full, not only the first lines.
    #[arg(long)]
    full: bool,
}

impl Demo {
    pub fn execute(self) -> anyhow::Result<i32> {
        let config_path = self.dir.join("pbem.toml");
        if config_path.exists() {
            eprintln!(
                "pbem demo: {} exists; choose another --dir (or remove that folder)",
                config_path.display()
            );
            return Ok(1);
        }
        let mut game = DemoGame::set_up(&self.dir, &config_path, self.full)?;
        out!(
            "Setting up {} (the embedded default: Maildir in, Maildirs out).\n",
            self.dir.display()
        );
        let id = game.challenge(self.game)?;
        out!("  Bob -> pbem: accept");
        game.bob.reply(&game.inbox, &id, "accept")?;
        game.poll_and_show()?;
        game.play(&format!("[pbem {id}]"), &example_moves(self.game))?;
        if let Some(last) = game.alice.received.last() {
            out!("\nThe last mail, as Alice got it:\n");
            out!("Subject: {}\n\n{}", last.subject, last.text);
        }
        self.next_steps(&id)?;
        Ok(0)
    }

    /// Where everything is, and how to go on by hand: printed at the end.
    fn next_steps(&self, id: &str) -> anyhow::Result<()> {
        // Runnable as printed: `pbem` only where that is this
        // program, else the path to it; the mail as a shell command.
        let pbem = invocation();
        let dir = self.dir.display();
        out!(
            "Everything is in {dir}: the record in {dir}/data/games/{id}.toml,\n\
             every mail pbem sent in {dir}/mail/sent/<address>/new/.\n\n\
             Try a game of your own by hand (the README's \"Your first game by hand\"\n\
             goes on from here): write a mail into the inbox,\n\n\
             cat > {dir}/mail/inbox/new/first.eml <<'EOF'\n\
             {mail}EOF\n\n\
             and let pbem answer it:\n\n\
             {pbem} poll --config {dir}/pbem.toml\n\n\
             pbem's answers are in {dir}/mail/sent/you@example.org/new/ and\n\
             {dir}/mail/sent/carol@example.org/new/; reply to the pbem+... address\n\
             in their Reply-To, as a mail client would.",
            mail = crate::demo::FIRST_MAIL,
        );
        Ok(())
    }
}

/// The demo's game under way: pbem's server, its inbox, and Alice and
/// Bob, who read what it sent them.
struct DemoGame {
    server: Server,
    inbox: Maildir,
    alice: Player,
    bob: Player,
    /// Every mail is shown in full, not only its first sentences.
    full: bool,
}

impl DemoGame {
    /// Writes the embedded default to `config_path` in the folder `dir`
    /// and opens its server, its inbox and the players' mailboxes.
    fn set_up(dir: &Path, config_path: &Path, full: bool) -> anyhow::Result<DemoGame> {
        std::fs::create_dir_all(dir)?;
        std::fs::write(config_path, INIT)?;
        let config = Config::load(config_path)?;
        let sent = match &config.send {
            crate::transport::SendConfig::Maildir { folder } => folder.clone(),
            _ => unreachable!("the embedded default sends to Maildirs"),
        };
        let inbox = Maildir::open(
            config
                .inbox
                .maildir
                .as_deref()
                .ok_or_else(|| anyhow::anyhow!("the embedded default reads a Maildir"))?,
        )?;
        Ok(DemoGame {
            server: Server::new(config)?,
            inbox,
            alice: Player::new("Alice", "alice@example.org", &sent),
            bob: Player::new("Bob", "bob@example.org", &sent),
            full,
        })
    }

    /// Alice challenges Bob to a game of `rules`; the game's id, read
    /// from the subject of the challenge that reached Bob.
    fn challenge(&mut self, rules: Rules) -> anyhow::Result<String> {
        let body = format!("challenge {} bob@example.org first", rules.slug());
        out!("  Alice -> pbem: {body}");
        self.alice
            .send(&self.inbox, "pbem@localhost", "a game?", &body, None)?;
        self.poll()?;
        show("Alice", &self.alice.check(), self.full)?;
        let got = self.bob.check();
        show("Bob", &got, self.full)?;
        let subject = got.first().map(|m| m.subject.clone()).unwrap_or_default();
        let id: String = subject
            .strip_prefix("[pbem ")
            .unwrap_or("")
            .chars()
            .take_while(|c| *c != ']')
            .collect();
        anyhow::ensure!(!id.is_empty(), "no challenge reached Bob");
        Ok(id)
    }

    /// Alice and Bob play `moves` in turn, numbered, each a reply in the
    /// game's thread (`tag`) answered by a poll.
    fn play(&mut self, tag: &str, moves: &[String]) -> anyhow::Result<()> {
        for (i, m) in moves.iter().enumerate() {
            let body = format!("#{} {m}", i + 1);
            let p = if i % 2 == 0 {
                &mut self.alice
            } else {
                &mut self.bob
            };
            out!("  {} -> pbem: {body}", p.name);
            p.reply(&self.inbox, tag, &body)?;
            self.poll_and_show()?;
        }
        Ok(())
    }

    /// A poll, then the mails it sent Alice and Bob.
    fn poll_and_show(&mut self) -> anyhow::Result<()> {
        self.poll()?;
        show("Alice", &self.alice.check(), self.full)?;
        show("Bob", &self.bob.check(), self.full)
    }

    /// One poll of the inbox, which must not fail.
    fn poll(&self) -> anyhow::Result<()> {
        let mut md = self.inbox.clone();
        let r = self.server.poll(&mut md, true)?;
        anyhow::ensure!(
            !r.failed(),
            "the poll failed: {:?} {:?}",
            r.errors,
            r.send_errors
        );
        Ok(())
    }
}

/// The mails `who` received: each one's summary, or all its lines when
/// `full`.
fn show(who: &str, mails: &[crate::demo::Received], full: bool) -> anyhow::Result<()> {
    for m in mails {
        // What happened is each mail's first sentences (the subject
        // is the game's, the same in every mail of it); whole ones,
        // as the mail's text is wrapped mid-sentence.
        out!("  pbem -> {who}: {}", m.summary(SUMMARY_WIDTH));
        if full {
            for l in m.text.lines() {
                out!("      | {l}");
            }
        }
    }
    Ok(())
}

/// How to run this program from the current folder: `pbem` where that
/// name on the PATH is this program, else its path (relative to here when
/// it lies below, like `target/release/pbem` after `cargo run`).
fn invocation() -> String {
    let Ok(exe) = std::env::current_exe().and_then(std::fs::canonicalize) else {
        return "pbem".into();
    };
    let on_path = std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path)
            .any(|d| std::fs::canonicalize(d.join("pbem")).is_ok_and(|p| p == exe))
    });
    if on_path {
        return "pbem".into();
    }
    let here = std::env::current_dir().and_then(std::fs::canonicalize);
    match here
        .ok()
        .and_then(|h| exe.strip_prefix(h).ok().map(Path::to_path_buf))
    {
        Some(rel) => rel.display().to_string(),
        None => exe.display().to_string(),
    }
}
