//! Scripted players: two people who play a whole game with pbem by mail,
//! reading pbem's replies and answering them the way a mail client's Reply
//! does (To: the Reply-To address, In-Reply-To, References, "Re:"
//! subject). `pbem demo` shows it with local Maildirs; the tests use it to
//! play every game through the mail path, and through a real mail server
//! (the player's mail then comes over IMAP: [`Player::take`], and goes out
//! over SMTP: [`Player::compose`], [`Player::answer`]).

use crate::mailbox::Maildir;
use crate::rules::Rules;
use mail_parser::MessageParser;
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The mail a newcomer writes to start a game by hand in the demo's
/// folder: what `pbem demo` prints at its end and the README shows (a
/// test holds them to this text). A file of these lines in
/// `pbem-demo/mail/inbox/new/` is a mail pbem reads.
pub const FIRST_MAIL: &str = "\
From: You <you@example.org>
To: pbem@localhost
Subject: a game?
Message-ID: <first-game.1@example.org>

challenge embed carol@example.org first
";

/// A mail a player received from pbem.
#[derive(Clone, Debug)]
pub struct Received {
    pub subject: String,
    pub message_id: String,
    pub reply_to: Option<String>,
    pub references: Vec<String>,
    pub text: String,
}

impl Received {
    /// The mail's first line: what happened (the subject is the
    /// game's, the same in every mail of it).
    pub fn headline(&self) -> &str {
        self.text.lines().next().unwrap_or("")
    }

    /// What happened in one line of at most about `width` characters:
    /// the mail's first paragraph, unwrapped, up to the last sentence end
    /// that fits (the first sentence whole when none does). Its first line
    /// would do only when it is a sentence, and the text is wrapped.
    pub fn summary(&self, width: usize) -> String {
        let para = self
            .text
            .lines()
            .map(str::trim)
            .skip_while(|l| l.is_empty())
            .take_while(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let mut ends = para.char_indices().filter_map(|(i, c)| {
            let end = i + c.len_utf8();
            let at_end = para[end..].chars().next().is_none_or(char::is_whitespace);
            (matches!(c, '.' | '!' | '?') && at_end).then_some(end)
        });
        let Some(first) = ends.next() else {
            return para;
        };
        let fits = |end: &usize| para[..*end].chars().count() <= width;
        let end = std::iter::once(first)
            .chain(ends)
            .take_while(fits)
            .last()
            .unwrap_or(first);
        para[..end].to_string()
    }

    /// Reads a mail from pbem; `None` when it is not a mail.
    pub fn parse(raw: &[u8]) -> Option<Received> {
        let m = MessageParser::default().parse(raw)?;
        Some(Received {
            subject: m.subject().unwrap_or("").to_string(),
            message_id: format!("<{}>", m.message_id().unwrap_or("")),
            reply_to: m
                .reply_to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .map(str::to_string),
            references: m
                .references()
                .as_text_list()
                .map(|l| l.iter().map(|s| format!("<{s}>")).collect())
                .or_else(|| m.references().as_text().map(|s| vec![format!("<{s}>")]))
                .unwrap_or_default(),
            text: m.body_text(0).unwrap_or_default().to_string(),
        })
    }
}

/// A scripted player. With a mailbox folder (the maildir transport's),
/// [`Player::check`] reads it; else the mail is handed in with
/// [`Player::take`].
pub struct Player {
    pub name: String,
    pub address: String,
    mailbox: Option<PathBuf>,
    seen: HashSet<String>,
    /// What the player received, in order.
    pub received: Vec<Received>,
    sent: usize,
}

impl Player {
    /// `sent_folder` is the maildir transport's folder.
    pub fn new(name: &str, address: &str, sent_folder: &Path) -> Player {
        Player {
            mailbox: Some(sent_folder.join(address.to_lowercase()).join("new")),
            ..Player::elsewhere(name, address)
        }
    }

    /// A player whose mail is read elsewhere (over IMAP) and handed in
    /// with [`Player::take`].
    pub fn elsewhere(name: &str, address: &str) -> Player {
        Player {
            name: name.into(),
            address: address.into(),
            mailbox: None,
            seen: HashSet::new(),
            received: Vec::new(),
            sent: 0,
        }
    }

    /// Takes in a mail that reached the player.
    pub fn take(&mut self, raw: &[u8]) -> Option<Received> {
        let r = Received::parse(raw)?;
        self.received.push(r.clone());
        Some(r)
    }

    /// Reads the mail that arrived in the mailbox folder since the last
    /// look.
    pub fn check(&mut self) -> Vec<Received> {
        let mut new = Vec::new();
        let Some(Ok(entries)) = self.mailbox.as_ref().map(fs::read_dir) else {
            return new;
        };
        let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
            .filter_map(|e| e.ok())
            .filter(|e| {
                !self
                    .seen
                    .contains(&e.file_name().to_string_lossy().to_string())
            })
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .collect();
        files.sort();
        for (_, f) in files {
            self.seen.insert(
                f.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .to_string(),
            );
            let Ok(raw) = fs::read(&f) else { continue };
            if let Some(r) = self.take(&raw) {
                new.push(r);
            }
        }
        new
    }

    /// Writes a mail from this player to `to`. With `reply_to`, it
    /// answers that mail as a mail client's Reply would.
    pub fn compose(
        &mut self,
        to: &str,
        subject: &str,
        body: &str,
        reply_to: Option<&Received>,
    ) -> Vec<u8> {
        self.sent += 1;
        let (local, domain) = self
            .address
            .split_once('@')
            .unwrap_or((self.address.as_str(), "example.org"));
        let id = format!("<{}.{}@{domain}>", self.sent, local.to_lowercase());
        let mut raw = format!(
            "From: {} <{}>\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: {id}\r\nDate: Sat, 21 Nov 2026 10:00:00 +0000\r\n",
            self.name, self.address
        );
        if let Some(r) = reply_to {
            let mut refs = r.references.clone();
            refs.push(r.message_id.clone());
            raw.push_str(&format!(
                "In-Reply-To: {}\r\nReferences: {}\r\n",
                r.message_id,
                refs.join(" ")
            ));
        }
        raw.push_str("Content-Type: text/plain; charset=utf-8\r\n\r\n");
        raw.push_str(&body.replace('\n', "\r\n"));
        if let Some(r) = reply_to {
            // Quote the mail being answered, as clients do.
            raw.push_str("\r\n\r\nOn Sat, 21 Nov 2026, pbem wrote:\r\n");
            for l in r.text.lines().take(12) {
                raw.push_str(&format!("> {l}\r\n"));
            }
        }
        raw.into_bytes()
    }

    /// Writes a mail from this player into pbem's inbox (see
    /// [`Player::compose`]).
    pub fn send(
        &mut self,
        inbox: &Maildir,
        to: &str,
        subject: &str,
        body: &str,
        reply_to: Option<&Received>,
    ) -> std::io::Result<()> {
        let raw = self.compose(to, subject, body, reply_to);
        self.deliver(inbox, &raw)
    }

    /// Answers the newest mail from pbem whose subject or first line (what
    /// happened) contains `tag`, as
    /// a mail client's Reply would: the mail, and the address it goes to
    /// (the Reply-To).
    ///
    /// # Errors
    /// When no mail about `tag` came.
    pub fn answer(&mut self, tag: &str, body: &str) -> std::io::Result<(String, Vec<u8>)> {
        let last = self
            .received
            .iter()
            .rev()
            .find(|r| r.subject.contains(tag) || r.headline().contains(tag))
            .cloned()
            .ok_or_else(|| {
                std::io::Error::other(format!("{} has no mail about {tag} to answer", self.name))
            })?;
        let to = last
            .reply_to
            .clone()
            .unwrap_or_else(|| "pbem@localhost".into());
        let subject = format!("Re: {}", last.subject);
        let raw = self.compose(&to, &subject, body, Some(&last));
        Ok((to, raw))
    }

    /// Puts a mail of this player's into pbem's Maildir, named the Maildir
    /// way.
    fn deliver(&self, inbox: &Maildir, raw: &[u8]) -> std::io::Result<()> {
        let name = format!(
            "{}.{}.{}",
            1_700_000_000 + self.sent,
            self.name.to_lowercase(),
            self.sent
        );
        inbox.deliver(&name, raw).map(|_| ())
    }

    /// Answers the newest mail about `tag` into pbem's inbox.
    pub fn reply(&mut self, inbox: &Maildir, tag: &str, body: &str) -> std::io::Result<()> {
        let (_, raw) = self.answer(tag, body)?;
        self.deliver(inbox, &raw)
    }
}

/// The moves of the bundled example game of `rules` (its
/// [`RulesInfo::example`](crate::rules::RulesInfo::example)).
pub fn example_moves(rules: Rules) -> Vec<String> {
    let text = rules.info().example;
    crate::record::Record::parse("example", text)
        .map(|r| r.moves())
        .unwrap_or_default()
}
