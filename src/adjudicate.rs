//! The adjudicator: one parsed mail in, the game's new state on disk and
//! the replies out (issue 3, steps "Commands", "Who may move", "Records",
//! "Replies"). It writes records itself; queueing and sending the replies
//! is [`crate::poll`]'s job.
//!
//! Handling is idempotent: a mail whose Message-ID already stands in the
//! record (a crash after the record was written) changes nothing again but
//! yields the same replies, so a re-run finishes the job.

use crate::game::{self, Game, Origin, Side, View};
use crate::mail::command::{self, Command, Order};
use crate::mail::inbound::Inbound;
use crate::mail::templates::{Rendered, TemplateError, Templates};
use crate::record::{self, Entry, Event, MoveLine, Record};
use crate::rules::Rules;
use crate::store::{self, Challenge, Secrets, Store, StoreError};
use chrono::{DateTime, Utc};
use minijinja::context;
use std::collections::BTreeMap;

/// What the adjudicator needs to know about its own address.
#[derive(Clone, Debug)]
pub struct Identity {
    /// pbem's address, `pbem@example.net`: replies come from it, and
    /// players reply to `pbem+<id>.<token>@example.net`.
    pub address: String,
    /// The display name on pbem's mail.
    pub name: String,
    /// Trust `Authentication-Results: <this id>; dmarc=pass` from the
    /// admin's own MTA instead of a token (issue 3, "Who may move").
    pub trusted_authserv: Option<String>,
}

impl Identity {
    fn local_domain(&self) -> (&str, &str) {
        self.address
            .split_once('@')
            .unwrap_or((&self.address, "localhost"))
    }
    /// The reply address that carries a player's key.
    pub fn reply_to(&self, id: &str, token: &str) -> String {
        let (local, domain) = self.local_domain();
        format!("{local}+{id}.{token}@{domain}")
    }
    pub fn domain(&self) -> &str {
        self.local_domain().1
    }
}

/// One mail to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// "Name <address>" or a bare address.
    pub to: String,
    pub rendered: Rendered,
    /// The game it is about, for threading and the Message-ID.
    pub game: Option<String>,
    /// The Reply-To carrying the recipient's key, when they play the game.
    pub reply_to: Option<String>,
}

/// What became of a mail.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Handled {
    pub replies: Vec<Reply>,
    /// One line for the log: the mail's fate.
    pub fate: String,
    /// The mail was refused or could not be used (for the exit status).
    pub failed: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum AdjudicateError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Template(#[from] TemplateError),
}

type Result<T> = std::result::Result<T, AdjudicateError>;

/// The address inside "Name <address>", lower case.
pub fn address_of(mailbox: &str) -> String {
    let m = mailbox.trim();
    match (m.rfind('<'), m.rfind('>')) {
        (Some(a), Some(b)) if a < b => m[a + 1..b].trim().to_lowercase(),
        _ => m.to_lowercase(),
    }
}

/// "Name <address>" for a sender, quoting the name when it needs it.
pub fn mailbox(name: Option<&str>, address: &str) -> String {
    match name {
        Some(n) if !n.trim().is_empty() => {
            let n: String = n
                .chars()
                .filter(|c| !c.is_control() && *c != '"' && *c != '\\')
                .collect();
            let n = n.trim();
            if n.chars().any(|c| "()<>[]:;@,.".contains(c)) {
                format!("\"{n}\" <{address}>")
            } else {
                format!("{n} <{address}>")
            }
        }
        _ => address.to_string(),
    }
}

/// The adjudicator for one poll.
pub struct Adjudicator<'a> {
    pub store: &'a Store,
    pub identity: &'a Identity,
    pub templates: &'a Templates,
    /// The one clock (STYLE.md habit 8): the poll's time.
    pub now: DateTime<Utc>,
}

/// Where the game of a mail was named.
struct Target {
    id: String,
    token: Option<String>,
}

impl Adjudicator<'_> {
    /// Handles one mail.
    ///
    /// # Errors
    /// Only store and template failures: the mail then stays unprocessed.
    pub fn handle(&self, mail: &Inbound) -> Result<Handled> {
        if let Some(why) = &mail.automated {
            return Ok(fate(format!("dropped, automated mail: {why}")));
        }
        let Some(from) = mail.from.clone() else {
            return Ok(failed(Vec::new(), "dropped: no usable From address".into()));
        };
        if from == self.identity.address.to_lowercase()
            || from.starts_with(&format!("{}+", self.identity.local_domain().0))
                && from.ends_with(self.identity.domain())
        {
            return Ok(fate("dropped: sent by pbem itself".into()));
        }
        let parsed = command::parse(&mail.body);
        let target = self.target(mail);
        let mut commands = parsed.commands.clone();
        let token = target.as_ref().and_then(|t| t.token.clone()).or_else(|| {
            commands.iter().find_map(|c| match c {
                Command::Token(t) => Some(t.clone()),
                _ => None,
            })
        });
        commands.retain(|c| !matches!(c, Command::Token(_)));
        if let Some(e) = parsed.errors.first() {
            let r = self.reject(
                &from,
                target.as_ref().map(|t| t.id.as_str()),
                &e.line,
                &e.message,
                None,
                Vec::new(),
            )?;
            return Ok(failed(vec![r], format!("refused from {from}: {e}")));
        }
        if commands.is_empty() {
            // Show what was read: a player can then see whether pbem
            // missed their text (a quote or signature it cut too early).
            let read: Vec<&str> = mail
                .body
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let how = "write your move alone on a line, like 22-15, or `help` for the commands";
            let reason = if read.is_empty() {
                format!(
                    "{how}. pbem read no text of yours: it reads what you write outside the quoted mail, up to your signature, and not the subject."
                )
            } else {
                let mut shown: Vec<String> =
                    read.iter().take(6).map(|l| format!("| {l}")).collect();
                if read.len() > 6 {
                    shown.push("| ...".into());
                }
                format!(
                    "{how}. This is what pbem read in your mail (quotes and signature left out):\n\n{}",
                    shown.join("\n")
                )
            };
            let r = self.reject(
                &from,
                target.as_ref().map(|t| t.id.as_str()),
                "",
                &reason,
                None,
                Vec::new(),
            )?;
            return Ok(failed(vec![r], format!("refused from {from}: no command")));
        }
        // Commands that need no game.
        let needs_game = |c: &Command| {
            !matches!(
                c,
                Command::Challenge { .. } | Command::Games | Command::Rules { .. } | Command::Help
            )
        };
        let Some(target) = target.filter(|_| commands.iter().any(needs_game)) else {
            let mut replies = Vec::new();
            for c in &commands {
                replies.extend(self.gameless(&from, mail, c)?);
            }
            let failed_any = replies
                .iter()
                .any(|r| r.rendered.subject.contains("was not accepted"));
            return Ok(Handled {
                fate: summary(&commands),
                replies,
                failed: failed_any,
            });
        };
        self.in_game(&from, mail, &target.id, token.as_deref(), &commands)
    }

    /// Finds the game a mail is about: the plus-address, the subject tag
    /// `[pbem <id>]`, or a Message-ID of pbem's in its thread.
    fn target(&self, mail: &Inbound) -> Option<Target> {
        let (local, domain) = self.identity.local_domain();
        let prefix = format!("{}+", local.to_lowercase());
        for r in &mail.recipients {
            if let Some(rest) = r.strip_prefix(&prefix)
                && let Some((tag, d)) = rest.split_once('@')
                && d.eq_ignore_ascii_case(domain)
            {
                let (id, token) = match tag.split_once('.') {
                    Some((i, t)) => (i, Some(t.to_string())),
                    None => (tag, None),
                };
                if store::valid_id(id) {
                    return Some(Target {
                        id: id.to_string(),
                        token,
                    });
                }
            }
        }
        let subj = mail.subject.to_lowercase();
        if let Some(i) = subj.find("[pbem ") {
            let id: String = subj[i + 6..].chars().take_while(|c| *c != ']').collect();
            let id = id.trim();
            if store::valid_id(id) {
                return Some(Target {
                    id: id.to_string(),
                    token: None,
                });
            }
        }
        for t in &mail.thread {
            if let Some(rest) = t.strip_prefix("<pbem.")
                && let Some((id, _)) = rest.split_once('.')
                && store::valid_id(id)
            {
                return Some(Target {
                    id: id.to_string(),
                    token: None,
                });
            }
        }
        None
    }

    fn info(&self, to: &str, title: &str, text: &str, game: Option<&str>) -> Result<Reply> {
        Ok(Reply {
            to: to.to_string(),
            rendered: self
                .templates
                .render("info", context! { id => game, title, text })?,
            game: game.map(str::to_string),
            reply_to: None,
        })
    }

    fn reject(
        &self,
        to: &str,
        game: Option<&str>,
        command: &str,
        reason: &str,
        board: Option<String>,
        legal: Vec<String>,
    ) -> Result<Reply> {
        let what = if command.is_empty() {
            "your mail".to_string()
        } else if command.starts_with(|c: char| c.is_ascii_digit() || c == '#') {
            format!("your move {command}")
        } else {
            "your command".to_string()
        };
        let record = game
            .and_then(|id| self.store.read_game(id).ok().flatten())
            .and_then(|t| Record::parse("x", &t).ok());
        let name = record.as_ref().map(|r| r.rules.name().to_string());
        // "Send the corrected command in a reply": the reply must carry
        // the key, so a player gets their own (at their own address).
        let reply_to = game.and_then(|id| {
            let side = match &record {
                Some(r) => r
                    .players
                    .iter()
                    .find(|(_, m)| address_of(m) == address_of(to))
                    .map(|(s, _)| s.clone()),
                None => self.store.challenge(id).ok().flatten().and_then(|c| {
                    let rules: Rules = c.rules.parse().ok()?;
                    let theirs = rules.side_named(&c.challenger_side)?;
                    if address_of(&c.challenger) == address_of(to) {
                        Some(c.challenger_side.clone())
                    } else if c.opponent == address_of(to) {
                        Some(rules.side_name(theirs.other()).to_string())
                    } else {
                        None
                    }
                }),
            }?;
            let secrets = self.store.secrets(id).ok()?;
            secrets
                .tokens
                .get(&side)
                .map(|t| self.identity.reply_to(id, t))
        });
        Ok(Reply {
            to: to.to_string(),
            rendered: self.templates.render(
                "rejected",
                context! { id => game, game => name, what, command, reason, board, legal => capped(&legal) },
            )?,
            game: game.map(str::to_string),
            reply_to,
        })
    }

    /// Commands outside a game: challenge, games, rules, help.
    fn gameless(&self, from: &str, mail: &Inbound, c: &Command) -> Result<Vec<Reply>> {
        Ok(match c {
            Command::Help => vec![Reply {
                to: from.to_string(),
                rendered: self.templates.render(
                    "help",
                    context! { games => Rules::ALL.map(|r| r.slug()).join(", ") },
                )?,
                game: None,
                reply_to: None,
            }],
            Command::Rules { game } => {
                let text = match game {
                    Some(r) => {
                        let i = r.info();
                        format!("{} {}\n\n{}\n\nNotation: {}.", i.name, byline(i.author), i.summary, i.notation)
                    }
                    None => Rules::ALL
                        .map(|r| format!("{:<20} {} {}", r.slug(), r.name(), byline(r.info().author)))
                        .join("\n"),
                };
                vec![self.info(from, "rules", &text, None)?]
            }
            Command::Games => vec![self.info(from, "your games", &self.games_of(from)?, None)?],
            Command::Challenge {
                rules,
                opponent,
                order,
            } => self.challenge(from, mail, *rules, opponent, *order)?,
            other => vec![self.reject(
                from,
                None,
                &other.to_string(),
                "which game? Reply to a mail from pbem about the game, or put its id in the subject like [pbem bz-7k2q]",
                None,
                Vec::new(),
            )?],
        })
    }

    fn games_of(&self, who: &str) -> Result<String> {
        let mut lines = Vec::new();
        for id in self.store.game_ids()? {
            let Some(text) = self.store.read_game(&id)? else {
                continue;
            };
            let Ok(rec) = Record::parse(&id, &text) else {
                continue;
            };
            if let Some((side, _)) = rec.players.iter().find(|(_, m)| address_of(m) == who) {
                let result = rec.result.as_ref().map(|(r, _)| r.as_str()).unwrap_or("*");
                lines.push(format!(
                    "{id:<16} {:<20} you play {side:<10} {}",
                    rec.rules.name(),
                    match result {
                        "*" => "in play".to_string(),
                        "draw" => "over: drawn".to_string(),
                        r if r == side => "over: you won".to_string(),
                        r => format!("over: {r} won"),
                    }
                ));
            }
        }
        for id in self.store.challenge_ids()? {
            if let Some(c) = self.store.challenge(&id)?
                && (address_of(&c.challenger) == who || c.opponent == who)
            {
                let name = c
                    .rules
                    .parse::<Rules>()
                    .map_or(c.rules.clone(), |r| r.name().to_string());
                let state = if c.opponent == who {
                    format!(
                        "{} challenges you: answer accept or decline",
                        address_of(&c.challenger)
                    )
                } else {
                    format!("challenge waiting for {}", c.opponent)
                };
                lines.push(format!("{id:<16} {name:<20} {state}"));
            }
        }
        Ok(if lines.is_empty() {
            "You have no games with pbem yet. Start one with: challenge GAME ADDRESS".into()
        } else {
            lines.join("\n")
        })
    }

    fn challenge(
        &self,
        from: &str,
        mail: &Inbound,
        rules: Rules,
        opponent: &str,
        order: Order,
    ) -> Result<Vec<Reply>> {
        let opponent = opponent.to_lowercase();
        if opponent == from || !opponent.contains('@') {
            return Ok(vec![self.reject(
                from,
                None,
                "challenge",
                "challenge another player's address, not your own",
                None,
                Vec::new(),
            )?]);
        }
        // The id comes from the challenge's Message-ID: a re-run after a
        // crash finds the same challenge instead of making a second one.
        let seed = mail
            .message_id
            .clone()
            .unwrap_or_else(|| format!("{from}{}", mail.body));
        let h = store::stable_hash(seed.as_bytes());
        let id = format!("{}-{}", id_prefix(rules), base32(h, 5));
        let challenger_first = match order {
            Order::First => true,
            Order::Second => false,
            Order::Random => h >> 63 == 1,
        };
        let first = rules.fixed_first().unwrap_or(Side::A);
        let challenger_side = if challenger_first {
            first
        } else {
            first.other()
        };
        let challenge = match self.store.challenge(&id)? {
            Some(c) => c,
            None => {
                let c = Challenge {
                    rules: rules.slug().into(),
                    challenger: mailbox(mail.from_name.as_deref(), from),
                    opponent: opponent.clone(),
                    challenger_side: rules.side_name(challenger_side).into(),
                    first: rules.side_name(first).into(),
                    created: self.now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                };
                let mut secrets = Secrets::default();
                for s in Side::BOTH {
                    secrets
                        .tokens
                        .insert(rules.side_name(s).into(), store::new_token()?);
                }
                self.store.write_secrets(&id, &secrets)?;
                self.store.write_challenge(&id, &c)?;
                c
            }
        };
        let secrets = self.store.secrets(&id)?;
        let opp_side = rules
            .side_named(&challenge.challenger_side)
            .unwrap_or(Side::A)
            .other();
        let board = crate::with_game!(rules, G => G::start(first).diagram(&View { seat: Some(opp_side), ..View::default() }));
        let i = rules.info();
        let token = |s: Side| {
            secrets
                .tokens
                .get(rules.side_name(s))
                .cloned()
                .unwrap_or_default()
        };
        Ok(vec![
            Reply {
                to: opponent.clone(),
                rendered: self.templates.render(
                    "challenge",
                    context! { id => id.clone(), game => i.name, author => i.author, challenger => challenge.challenger.clone(),
                        your_side => rules.side_name(opp_side), first => rules.side_name(first),
                        summary => i.summary, notation => i.notation, board },
                )?,
                game: Some(id.clone()),
                reply_to: Some(self.identity.reply_to(&id, &token(opp_side))),
            },
            Reply {
                to: challenge.challenger.clone(),
                rendered: self.templates.render(
                    "challenged",
                    context! { id => id.clone(), game => i.name, opponent => opponent.clone(), your_side => challenge.challenger_side.clone(), first => rules.side_name(first) },
                )?,
                game: Some(id.clone()),
                reply_to: Some(self.identity.reply_to(&id, &token(opp_side.other()))),
            },
        ])
    }

    /// Commands about one game, from an authenticated player.
    fn in_game(
        &self,
        from: &str,
        mail: &Inbound,
        id: &str,
        token: Option<&str>,
        commands: &[Command],
    ) -> Result<Handled> {
        let secrets = self.store.secrets(id)?;
        // A challenge waiting for an answer.
        if let Some(ch) = self.store.challenge(id)? {
            let rules: Rules = match ch.rules.parse() {
                Ok(r) => r,
                Err(_) => {
                    return Ok(fate(format!(
                        "dropped: challenge {id} names an unknown game"
                    )));
                }
            };
            let opp_side = rules
                .side_named(&ch.challenger_side)
                .unwrap_or(Side::A)
                .other();
            let opp_token = secrets.tokens.get(rules.side_name(opp_side));
            let authentic = from == ch.opponent
                && (token.is_some() && token == opp_token.map(String::as_str)
                    || self.dmarc_pass(mail));
            // The challenger, with their key: too early, not a stranger.
            let own_token = secrets.tokens.get(rules.side_name(opp_side.other()));
            if from == address_of(&ch.challenger)
                && token.is_some()
                && token == own_token.map(String::as_str)
            {
                let r = self.reject(
                    from,
                    Some(id),
                    &summary(commands),
                    &format!(
                        "the game has not begun: {} has not answered your challenge yet; pbem will write to you when they do",
                        ch.opponent
                    ),
                    None,
                    Vec::new(),
                )?;
                return Ok(failed(
                    vec![r],
                    format!("refused from {from}: challenge {id} not answered yet"),
                ));
            }
            if !authentic {
                return self.spoof_or_stranger(
                    from,
                    mail,
                    id,
                    &[ch.opponent.clone(), ch.challenger.clone()],
                    rules.name(),
                );
            }
            return match commands.first() {
                Some(Command::Accept) => self.accept(id, &ch, rules, mail),
                Some(Command::Decline) => {
                    self.store.remove_challenge(id)?;
                    let r = Reply {
                        to: ch.challenger.clone(),
                        rendered: self.templates.render(
                            "declined",
                            context! { id, game => rules.name(), opponent => ch.opponent.clone() },
                        )?,
                        game: Some(id.to_string()),
                        reply_to: None,
                    };
                    Ok(Handled {
                        replies: vec![r],
                        fate: format!("challenge {id} declined by {from}"),
                        failed: false,
                    })
                }
                _ => {
                    let r = self.reject(
                        from,
                        Some(id),
                        &summary(commands),
                        "the game has not begun: reply `accept` to play, or `decline`",
                        None,
                        Vec::new(),
                    )?;
                    Ok(failed(
                        vec![r],
                        format!("refused from {from}: challenge {id} not answered"),
                    ))
                }
            };
        }
        let Some(text) = self.store.read_game(id)? else {
            // An unknown id: say nothing that helps a stranger guess.
            return Ok(fate(format!(
                "dropped: mail from {from} names unknown game {id}"
            )));
        };
        let rec = match Record::parse(&format!("{id}.toml"), &text) {
            Ok(r) => r,
            Err(e) => return self.damaged(from, id, &e.to_string()),
        };
        crate::with_game!(rec.rules, G => self.play::<G>(from, mail, id, token, &secrets, rec, commands))
    }

    fn dmarc_pass(&self, mail: &Inbound) -> bool {
        let Some(trusted) = &self.identity.trusted_authserv else {
            return false;
        };
        mail.authentication_results.iter().any(|h| {
            let mut parts = h.split(';');
            let server = parts
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next()
                .unwrap_or("");
            server.eq_ignore_ascii_case(trusted)
                && parts.any(|p| p.trim().to_lowercase().starts_with("dmarc=pass"))
        })
    }

    /// A mail for a game from someone who could not prove who they are.
    fn spoof_or_stranger(
        &self,
        from: &str,
        mail: &Inbound,
        id: &str,
        players: &[String],
        game: &str,
    ) -> Result<Handled> {
        if !players.iter().any(|p| address_of(p) == from) {
            return Ok(failed(
                Vec::new(),
                format!("dropped: {from} is not a player of {id}"),
            ));
        }
        let r = Reply {
            to: from.to_string(),
            rendered: self.templates.render(
                "spoofed",
                context! { id, game, subject => mail.subject.clone(), message_id => mail.message_id.clone().unwrap_or_default() },
            )?,
            game: Some(id.to_string()),
            reply_to: None,
        };
        Ok(failed(
            vec![r],
            format!(
                "refused: mail for {id} from {from} without a valid key; the registered address was told"
            ),
        ))
    }

    fn damaged(&self, from: &str, id: &str, error: &str) -> Result<Handled> {
        let r = self.info(
            from,
            "the game record is damaged",
            &format!("pbem cannot use game {id} until its record is mended:\n\n  {error}\n\nNothing was done with your mail; the admin can see the same error with `pbem validate`."),
            Some(id),
        )?;
        Ok(failed(
            vec![r],
            format!("refused: record of {id} is damaged: {error}"),
        ))
    }

    /// Creates game `id` (record and keys) unless it exists; `players`
    /// maps side names to "Name <address>". Used by `accept` and by the
    /// admin's `pbem new`.
    ///
    /// # Errors
    /// Store failures.
    pub fn start_game(
        &self,
        id: &str,
        rules: Rules,
        first: Option<Side>,
        players: BTreeMap<String, String>,
    ) -> Result<()> {
        if self.store.read_game(id)?.is_some() {
            return Ok(());
        }
        let mut secrets = self.store.secrets(id)?;
        for s in Side::BOTH {
            if !secrets.tokens.contains_key(rules.side_name(s)) {
                secrets
                    .tokens
                    .insert(rules.side_name(s).into(), store::new_token()?);
            }
        }
        self.store.write_secrets(id, &secrets)?;
        let rec = Record {
            file: format!("{id}.toml"),
            format: Some(1),
            rules,
            id: Some(id.to_string()),
            created: Some(self.now.fixed_offset()),
            first,
            result: Some(("*".into(), 0)),
            players,
            lines: Vec::new(),
        };
        self.store.write_game(id, &record::write::to_string(&rec))?;
        Ok(())
    }

    /// The "game begins" mails of game `id`, one per player.
    ///
    /// # Errors
    /// Store and template failures; a game that does not exist.
    pub fn started(&self, id: &str) -> Result<Vec<Reply>> {
        let text = self
            .store
            .read_game(id)?
            .ok_or_else(|| StoreError::Invalid(format!("no game {id}")))?;
        let rec = Record::parse(&format!("{id}.toml"), &text)
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        let rules = rec.rules;
        let secrets = self.store.secrets(id)?;
        Ok(crate::with_game!(rules, G => {
            let pos = G::start(rec.first_side());
            let mut out = Vec::new();
            for side in Side::BOTH {
                let to = rec.players.get(rules.side_name(side)).cloned().unwrap_or_default();
                let board = pos.diagram(&View { seat: Some(side), ..View::default() });
                out.push(Reply {
                    to,
                    rendered: self.templates.render("started", context! {
                        id, game => rules.name(), players => rec.players.values().cloned().collect::<Vec<_>>().join(" and "),
                        your_side => rules.side_name(side), your_turn => pos.turn() == side,
                        turn => rules.side_name(pos.turn()), board, next => 1, example => example_move::<G>(&pos),
                    })?,
                    game: Some(id.to_string()),
                    reply_to: secrets.tokens.get(rules.side_name(side)).map(|t| self.identity.reply_to(id, t)),
                });
            }
            out
        }))
    }

    fn accept(&self, id: &str, ch: &Challenge, rules: Rules, mail: &Inbound) -> Result<Handled> {
        let first = rules.side_named(&ch.first);
        let challenger_side = rules.side_named(&ch.challenger_side).unwrap_or(Side::A);
        let mut players = BTreeMap::new();
        players.insert(
            rules.side_name(challenger_side).to_string(),
            ch.challenger.clone(),
        );
        players.insert(
            rules.side_name(challenger_side.other()).to_string(),
            mailbox(mail.from_name.as_deref(), &ch.opponent),
        );
        self.store
            .remove_challenge_after(id, || self.start_game(id, rules, first, players.clone()))?;
        let replies = self.started(id)?;
        Ok(Handled {
            replies,
            fate: format!("challenge {id} accepted: game begins"),
            failed: false,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn play<G: Game>(
        &self,
        from: &str,
        mail: &Inbound,
        id: &str,
        token: Option<&str>,
        secrets: &Secrets,
        mut rec: Record,
        commands: &[Command],
    ) -> Result<Handled> {
        let rules = G::RULES;
        let addr = |s: Side| {
            rec.players
                .get(rules.side_name(s))
                .map(|m| address_of(m))
                .unwrap_or_default()
        };
        let token_of = |s: Side| secrets.tokens.get(rules.side_name(s)).map(String::as_str);
        // Who is writing: the side whose address sent it and whose key it
        // carries (or, if trusted, whose DMARC-checked address sent it).
        let side = Side::BOTH
            .into_iter()
            .find(|&s| addr(s) == from && token.is_some() && token == token_of(s))
            .or_else(|| {
                let by_addr: Vec<Side> = Side::BOTH
                    .into_iter()
                    .filter(|&s| addr(s) == from)
                    .collect();
                (by_addr.len() == 1 && self.dmarc_pass(mail)).then(|| by_addr[0])
            });
        let Some(side) = side else {
            let players: Vec<String> = rec.players.values().cloned().collect();
            return self.spoof_or_stranger(from, mail, id, &players, rules.name());
        };
        let mut replayed = match record::replay::<G>(&rec) {
            Ok(r) => r,
            Err(e) => return self.damaged(from, id, &e.to_string()),
        };
        let me = rules.side_name(side);
        let reply_to = |s: Side| token_of(s).map(|t| self.identity.reply_to(id, t));
        let mailbox_of = |s: Side| {
            rec.players
                .get(rules.side_name(s))
                .cloned()
                .unwrap_or_default()
        };
        let already = mail
            .message_id
            .as_ref()
            .is_some_and(|m| rec.lines.iter().any(|l| l.message_id.as_ref() == Some(m)));
        let mut replies = Vec::new();
        let mut changed = false;
        let mut fates = Vec::new();
        for c in commands {
            let pos = replayed.position().clone();
            let board_for =
                |p: &G, s: Side, last: Option<crate::notation::Notation>, ply: usize| {
                    p.diagram(&View {
                        last,
                        seat: Some(s),
                        ply,
                    })
                };
            let ply = replayed.moves.len();
            let refuse = |this: &Self, reason: String, legal: Vec<String>| -> Result<Reply> {
                this.reject(
                    from,
                    Some(id),
                    &c.to_string(),
                    &reason,
                    Some(board_for(&pos, side, replayed.moves.last().cloned(), ply)),
                    legal,
                )
            };
            if let Some(end) = &replayed.end
                && !matches!(
                    c,
                    Command::Board
                        | Command::Moves { .. }
                        | Command::Games
                        | Command::Rules { .. }
                        | Command::Help
                )
                && !already
            {
                // No board: its caption would still name a side to play.
                let result = match end.outcome {
                    game::Outcome::Win(s) => format!("{} won", rules.side_name(s)),
                    game::Outcome::Draw => "drawn".into(),
                };
                replies.push(self.reject(
                    from,
                    Some(id),
                    &c.to_string(),
                    &format!(
                        "the game is over ({result}: {}); nothing more can be played in it",
                        end.reason
                    ),
                    None,
                    Vec::new(),
                )?);
                return Ok(failed(
                    replies,
                    format!("refused {c} from {from} in {id}: game over"),
                ));
            }
            let event = |ev: Event| MoveLine {
                line: 0,
                number: None,
                side: Some(side),
                entry: Entry::Event(ev),
                time: Some(self.now.fixed_offset()),
                message_id: mail.message_id.clone(),
            };
            match c {
                Command::Move { number, text } => {
                    if !already {
                        if pos.turn() != side {
                            replies.push(refuse(self, format!("it is {}'s move, not yours (you play {me}); wait for their move", rules.side_name(pos.turn())), Vec::new())?);
                            return Ok(failed(
                                replies,
                                format!("refused {c} from {from} in {id}: not their turn"),
                            ));
                        }
                        if let Some(n) = number
                            && *n as usize != ply + 1
                        {
                            replies.push(refuse(self, format!("#{n} does not fit: the game is at move #{}; {text} was not played. If you meant it for this move, send #{} {text}", ply + 1, ply + 1), Vec::new())?);
                            return Ok(failed(
                                replies,
                                format!("refused {c} from {from} in {id}: stale move number"),
                            ));
                        }
                        let m = match game::parse_move(&pos, text) {
                            Ok(m) => m,
                            Err(rej) => {
                                let legal = match &rej.error {
                                    game::MoveError::Illegal { alternatives, .. }
                                        if !alternatives.is_empty() =>
                                    {
                                        alternatives.clone()
                                    }
                                    _ => game::listed_moves(&pos)
                                        .into_iter()
                                        .map(|(_, n)| n.canonical(rules.geometry()))
                                        .collect(),
                                };
                                replies.push(refuse(self, rej.to_string(), legal)?);
                                return Ok(failed(
                                    replies,
                                    format!("refused {c} from {from} in {id}: {rej}"),
                                ));
                            }
                        };
                        rec.lines.push(MoveLine {
                            line: 0,
                            number: Some(ply as u32 + 1),
                            side: Some(side),
                            entry: Entry::Move(game::canonical(&pos, m)),
                            time: Some(self.now.fixed_offset()),
                            message_id: mail.message_id.clone(),
                        });
                        changed = true;
                    }
                    fates.push(format!("{me} played {text}"));
                }
                Command::Resign => {
                    if !already {
                        rec.lines.push(event(Event::Resign));
                        changed = true;
                    }
                    fates.push(format!("{me} resigned"));
                }
                Command::OfferDraw => {
                    if !already {
                        rec.lines.push(event(Event::DrawOffered));
                        changed = true;
                    }
                    fates.push(format!("{me} offered a draw"));
                }
                Command::AcceptDraw | Command::DeclineDraw => {
                    if !already {
                        if replayed.draw_offer != Some(side.other()) {
                            replies.push(refuse(self, "there is no draw offer from your opponent to answer; `draw` offers one".into(), Vec::new())?);
                            return Ok(failed(
                                replies,
                                format!("refused {c} from {from} in {id}: no offer"),
                            ));
                        }
                        rec.lines.push(event(if *c == Command::AcceptDraw {
                            Event::DrawAgreed
                        } else {
                            Event::DrawDeclined
                        }));
                        changed = true;
                    }
                    fates.push(format!(
                        "{me} {}",
                        if *c == Command::AcceptDraw {
                            "agreed a draw"
                        } else {
                            "declined a draw"
                        }
                    ));
                }
                Command::Board | Command::Moves { .. } => {
                    let (legal, from_sq) = match c {
                        Command::Moves { from: f } => {
                            // An origin that does not read lists nothing.
                            let origin = match f {
                                Some(f) => Origin::parse(f, rules.geometry()).ok().map(Some),
                                None => Some(None),
                            };
                            let list: Vec<String> = match origin {
                                None => Vec::new(),
                                Some(o) => game::listed_moves(&pos)
                                    .into_iter()
                                    .filter(|(_, n)| {
                                        o.is_none_or(|o| o.starts(n, rules.geometry()))
                                    })
                                    .map(|(_, n)| n.canonical(rules.geometry()))
                                    .collect(),
                            };
                            (
                                if list.is_empty() {
                                    "none".to_string()
                                } else {
                                    capped(&list)
                                },
                                f.clone(),
                            )
                        }
                        _ => (String::new(), None),
                    };
                    replies.push(Reply {
                        to: mailbox_of(side),
                        rendered: self.templates.render("board", context! {
                            id, game => rules.name(), board => board_for(&pos, side, replayed.moves.last().cloned(), ply),
                            legal, from => from_sq, next => (pos.turn() == side && replayed.end.is_none()).then_some(ply + 1), example => example_move::<G>(&pos),
                        })?,
                        game: Some(id.to_string()),
                        reply_to: reply_to(side),
                    });
                    fates.push(format!("{me} asked for {c}"));
                }
                // An accept handled again after a crash: the game exists
                // but nothing is played yet; send the opening mails.
                Command::Accept if rec.lines.is_empty() && already_accepted(mail, &rec) => {
                    replies.extend(self.started(id)?);
                    fates.push(format!("{me} accepted (again)"));
                }
                Command::Accept | Command::Decline => {
                    replies.push(refuse(
                        self,
                        "the game has already begun".into(),
                        Vec::new(),
                    )?);
                    return Ok(failed(replies, format!("refused {c} from {from} in {id}")));
                }
                other => {
                    for r in self.gameless(from, mail, other)? {
                        replies.push(r);
                    }
                }
            }
            if changed {
                // Replay what was added, so later commands see it.
                match record::replay::<G>(&Record {
                    result: None,
                    ..rec.clone()
                }) {
                    Ok(r) => replayed = r,
                    Err(e) => return self.damaged(from, id, &e.to_string()),
                }
            }
        }
        if changed || already {
            let result = replayed.result();
            rec.result = Some((result.to_string(), 0));
            if changed {
                self.store.write_game(id, &record::write::to_string(&rec))?;
            }
            replies.extend(self.news::<G>(id, &rec, &replayed, side, secrets)?);
        }
        Ok(Handled {
            replies,
            fate: format!("{id}: {}", fates.join("; ")),
            failed: false,
        })
    }

    /// The mails telling both players of the last line of game `id`'s
    /// record (for the admin's `pbem move`).
    ///
    /// # Errors
    /// Store and template failures; a damaged record.
    pub fn news_of(&self, id: &str) -> Result<Vec<Reply>> {
        let text = self
            .store
            .read_game(id)?
            .ok_or_else(|| StoreError::Invalid(format!("no game {id}")))?;
        let rec = Record::parse(&format!("{id}.toml"), &text)
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        let secrets = self.store.secrets(id)?;
        crate::with_game!(rec.rules, G => {
            let replayed = record::replay::<G>(&rec).map_err(|e| StoreError::Invalid(e.to_string()))?;
            let mover = replayed.positions.len().checked_sub(2).map(|i| replayed.positions[i].turn()).unwrap_or(Side::A);
            self.news::<G>(id, &rec, &replayed, mover, &secrets)
        })
    }

    /// Tells both players what just happened.
    fn news<G: Game>(
        &self,
        id: &str,
        rec: &Record,
        replayed: &record::Replayed<G>,
        mover: Side,
        secrets: &Secrets,
    ) -> Result<Vec<Reply>> {
        let rules = G::RULES;
        let pos = replayed.position();
        let ply = replayed.moves.len();
        let last_line = rec.lines.last();
        let what = match last_line.map(|l| &l.entry) {
            Some(Entry::Move(m)) => m.clone(),
            Some(Entry::Event(e)) => e.as_str().to_string(),
            None => String::new(),
        };
        let mut out = Vec::new();
        for side in Side::BOTH {
            let to = rec
                .players
                .get(rules.side_name(side))
                .cloned()
                .unwrap_or_default();
            let board = pos.diagram(&View {
                last: replayed.moves.last().cloned(),
                seat: Some(side),
                ply,
            });
            let reply_to = secrets
                .tokens
                .get(rules.side_name(side))
                .map(|t| self.identity.reply_to(id, t));
            let rendered = match (&replayed.end, last_line.map(|l| &l.entry)) {
                (Some(end), _) => {
                    let result = match end.outcome {
                        game::Outcome::Win(s) => format!("{} wins", rules.side_name(s)),
                        game::Outcome::Draw => "drawn".into(),
                    };
                    self.templates.render("over", context! { id, game => rules.name(), result, reason => end.reason.clone(), board, record => record::write::to_string(rec) })?
                }
                (None, Some(Entry::Event(ev))) => {
                    let name = rules.side_name(mover);
                    let mut chars = name.chars();
                    let who: String = chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default();
                    let mut text = match ev {
                        Event::DrawOffered if side == mover => "You offered a draw; your opponent has been asked.".to_string(),
                        Event::DrawOffered => format!("{who} offers a draw."),
                        Event::DrawDeclined => format!("{who} declined the draw offer; play goes on."),
                        other => other.as_str().to_string(),
                    };
                    let mut what = what.clone();
                    // A move sent in the same mail (`22-15` and `draw`).
                    let prev = rec.lines.iter().rev().nth(1);
                    if let (Some(prev), Some(last)) = (prev, last_line)
                        && prev.message_id.is_some()
                        && prev.message_id == last.message_id
                        && let Entry::Move(m) = &prev.entry
                    {
                        text = format!("{who} played {m} (move {ply}). {text}");
                        what = format!("{name} played {m}, {what}");
                    }
                    self.templates.render("draw", context! {
                        id, game => rules.name(), what, text, board, offer_to_you => *ev == Event::DrawOffered && side != mover,
                        next => (pos.turn() == side).then_some(ply + 1), example => example_move::<G>(pos),
                    })?
                }
                _ => self.templates.render("moved", context! {
                    id, game => rules.name(), mover => rules.side_name(mover), move => what.clone(), ply, over => false,
                    your_turn => pos.turn() == side, turn => rules.side_name(pos.turn()), next => ply + 1, board,
                    example => example_move::<G>(pos),
                })?,
            };
            out.push(Reply {
                to,
                rendered,
                game: Some(id.to_string()),
                reply_to,
            });
        }
        Ok(out)
    }
}

/// Whether `mail` can be the accept that created `rec`: the sender plays
/// in it (the caller checked that no move is played yet).
fn already_accepted(mail: &Inbound, rec: &Record) -> bool {
    mail.from
        .as_ref()
        .is_some_and(|f| rec.players.values().any(|p| address_of(p) == *f))
}

/// The most moves a mail lists; Guerrilla Checkers can have hundreds of
/// thousands of legal capture chains.
pub const MAX_LISTED: usize = 80;

/// "a, b, c" or, past [`MAX_LISTED`], the first ones and how many more.
fn capped(list: &[String]) -> String {
    if list.len() <= MAX_LISTED {
        return list.join(", ");
    }
    format!(
        "{}, ... and {} more (`moves SQUARE` lists the moves from one square)",
        list[..MAX_LISTED].join(", "),
        list.len() - MAX_LISTED
    )
}

/// "by Ty Bomba", but "after T. Robison" (not "by after ...").
fn byline(author: &str) -> String {
    if author.starts_with("after ") {
        author.to_string()
    } else {
        format!("by {author}")
    }
}

/// A legal move to show as an example of the notation.
fn example_move<G: Game>(pos: &G) -> String {
    game::listed_moves(pos)
        .first()
        .map(|(_, n)| n.canonical(G::RULES.geometry()))
        .unwrap_or_else(|| "22-15".into())
}

fn summary(commands: &[Command]) -> String {
    commands
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn fate(s: String) -> Handled {
    Handled {
        replies: Vec::new(),
        fate: s,
        failed: false,
    }
}

fn failed(replies: Vec<Reply>, s: String) -> Handled {
    Handled {
        replies,
        fate: s,
        failed: true,
    }
}

/// Short game-id prefixes.
pub fn id_prefix(r: Rules) -> &'static str {
    match r {
        Rules::BoomAndZoom => "bz",
        Rules::DragonsTeeth => "dt",
        Rules::Embed => "em",
        Rules::Mad => "mad",
        Rules::MadRooks => "mr",
        Rules::MadBishops => "mb",
        Rules::GuerrillaCheckers => "gc",
        Rules::ToroidalCheckers => "tc",
    }
}

fn base32(mut h: u64, n: usize) -> String {
    const A: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    (0..n)
        .map(|_| {
            let c = A[(h % 32) as usize] as char;
            h /= 32;
            c
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_move_lists_are_capped() {
        let list: Vec<String> = (0..500).map(|i| format!("{i}-{}", i + 1)).collect();
        let s = capped(&list);
        assert!(
            s.ends_with("... and 420 more (`moves SQUARE` lists the moves from one square)"),
            "{s}"
        );
        assert_eq!(capped(&list[..3]), "0-1, 1-2, 2-3");
    }

    #[test]
    fn mailboxes_quote_only_when_needed() {
        assert_eq!(mailbox(Some("Bob"), "bob@x.org"), "Bob <bob@x.org>");
        assert_eq!(
            mailbox(Some("Smith, Bob"), "bob@x.org"),
            "\"Smith, Bob\" <bob@x.org>"
        );
        assert_eq!(
            mailbox(Some("Evil\"\r\nBcc: x"), "bob@x.org"),
            "EvilBcc: x <bob@x.org>".replace("EvilBcc: x", "\"EvilBcc: x\"")
        );
        assert_eq!(address_of("Bob <Bob@X.org>"), "bob@x.org");
    }
}
