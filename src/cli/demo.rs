use super::out;
use super::server::Server;
use crate::config::{Config, INIT};
use crate::demo::{Player, example_moves};
use crate::mailbox::Maildir;
use crate::rules::Rules;
use clap::Args;
use std::path::PathBuf;

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
    #[arg(long, default_value = "dragons-teeth", value_name = "GAME")]
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
        std::fs::create_dir_all(&self.dir)?;
        std::fs::write(&config_path, INIT)?;
        let config = Config::load(&config_path)?;
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
        let server = Server::new(config)?;
        let mut alice = Player::new("Alice", "alice@example.org", &sent);
        let mut bob = Player::new("Bob", "bob@example.org", &sent);
        let poll = |server: &Server| -> anyhow::Result<()> {
            let mut md = inbox.clone();
            let r = server.poll(&mut md, true)?;
            anyhow::ensure!(
                !r.failed(),
                "the poll failed: {:?} {:?}",
                r.errors,
                r.send_errors
            );
            Ok(())
        };
        let show = |who: &str, mails: &[crate::demo::Received], full: bool| -> anyhow::Result<()> {
            for m in mails {
                // What happened is each mail's first line; the subject is
                // the game's, the same in every mail of it (issue 12).
                out!("  pbem -> {who}: {}", m.text.lines().next().unwrap_or(""));
                if full {
                    for l in m.text.lines() {
                        out!("      | {l}");
                    }
                }
            }
            Ok(())
        };
        out!(
            "Setting up {} (the embedded default: Maildir in, Maildirs out).\n",
            self.dir.display()
        );
        let body = format!("challenge {} bob@example.org first", self.game.slug());
        out!("  Alice -> pbem: {body}");
        alice.send(&inbox, "pbem@localhost", "a game?", &body, None)?;
        poll(&server)?;
        show("Alice", &alice.check(), self.full)?;
        let got = bob.check();
        show("Bob", &got, self.full)?;
        let subject = got.first().map(|m| m.subject.clone()).unwrap_or_default();
        let id: String = subject
            .strip_prefix("[pbem ")
            .unwrap_or("")
            .chars()
            .take_while(|c| *c != ']')
            .collect();
        anyhow::ensure!(!id.is_empty(), "no challenge reached Bob");
        out!("  Bob -> pbem: accept");
        bob.reply(&inbox, &id, "accept")?;
        poll(&server)?;
        show("Alice", &alice.check(), self.full)?;
        show("Bob", &bob.check(), self.full)?;
        let tag = format!("[pbem {id}]");
        let moves = example_moves(self.game);
        for (i, m) in moves.iter().enumerate() {
            let body = format!("#{} {m}", i + 1);
            let p = if i % 2 == 0 { &mut alice } else { &mut bob };
            out!("  {} -> pbem: {body}", p.name);
            p.reply(&inbox, &tag, &body)?;
            poll(&server)?;
            show("Alice", &alice.check(), self.full)?;
            show("Bob", &bob.check(), self.full)?;
        }
        if let Some(last) = alice.received.last() {
            out!("\nThe last mail, as Alice got it:\n");
            out!("Subject: {}\n\n{}", last.subject, last.text);
        }
        out!(
            "Everything is in {dir}: the record in {dir}/data/games/{id}.toml,\n\
             every mail pbem sent in {dir}/mail/sent/<address>/new/.\n\
             Try your own: put a mail into {dir}/mail/inbox/new/ and run\n  \
             pbem poll --config {dir}/pbem.toml\n\
             e.g. a mail from you@example.org saying: challenge embed alice@example.org",
            dir = self.dir.display()
        );
        Ok(0)
    }
}
