//! pbem's bot as a player (issue 18): `challenge GAME bot [level N]`
//! begins a game against it at once, and [`Adjudicator::bot_step`] plays
//! its turn, for the poll, as if the bot had mailed its move: through the
//! same path as a player's mail (the record, the clock, the rating, the
//! series, the news), with a Message-ID of its own per move, so that a
//! move done again after a crash is found in the record and not played
//! twice. No mail goes to the bot ([`Adjudicator::compose`]).

use super::challenge::{Asked, challenger_side};
use super::play::GameMail;
use super::*;
use crate::reply::mailbox;
use crate::store::bots::BotGame;
use pbem_engine::bot::Level;

/// How many bot games one player may have in play at once: each costs
/// the poll think time, and anyone may ask for one.
pub const MAX_BOT_GAMES: usize = 3;

/// How many bot games may be in play in all: a stranger with many
/// addresses gets no more.
pub const MAX_BOT_GAMES_IN_ALL: usize = 100;

/// What the bot's turn in a game comes to ([`Adjudicator::bot_step`]).
#[derive(Debug)]
pub enum BotStep {
    /// Not the bot's turn: the player is to move.
    Waiting,
    /// The game is over (or gone): no more turns.
    Over,
    /// The bot's move, to commit under `key`: its mails and its fate; the
    /// record is written in the batch view already.
    Moved {
        key: String,
        replies: Vec<Reply>,
        fate: String,
        /// How long the bot thought (none: a move done again).
        think: Option<std::time::Duration>,
    },
}

impl Adjudicator<'_> {
    /// `challenge GAME bot`: the game against the bot at `level` begun at
    /// once, its "game begins" mail to the challenger (none to the bot);
    /// the same again for a mail handled again (found by `source`).
    pub(super) fn challenge_bot(
        &self,
        from: &str,
        mail: &Inbound,
        c: &Asked<'_>,
        level: Level,
        source: String,
    ) -> Result<(Vec<Letter>, bool)> {
        let rules = c.rules;
        let mut mine = Vec::new();
        let all = self.store.bot_game_ids()?;
        for id in &all {
            if let Some(g) = self.store.bot_game(id)? {
                if g.source.as_deref() == Some(source.as_str()) {
                    return Ok((self.started_letters(id)?, false));
                }
                if g.player == from {
                    mine.push(id.clone());
                }
            }
        }
        let command = format!("challenge {} bot", rules.slug());
        if all.len() >= MAX_BOT_GAMES_IN_ALL {
            let reason = self.words("bot_busy", context! { count => all.len() })?;
            return Ok((
                vec![self.reject(from, None, Refusal::new(command, reason))?],
                true,
            ));
        }
        if mine.len() >= MAX_BOT_GAMES {
            let reason = self.words(
                "too_many_bot_games",
                context! { count => mine.len(), ids => mine.join(", ") },
            )?;
            return Ok((
                vec![self.reject(from, None, Refusal::new(command, reason))?],
                true,
            ));
        }
        let id = self.fresh_id(rules)?;
        let side = challenger_side(rules, c.order, &source);
        let me = mailbox(mail.from_name.as_deref(), from);
        let players = PerSide::seat(side, me.clone(), self.identity.bot_mailbox(level));
        let ch = Challenge {
            rules: rules.slug().into(),
            challenger: me,
            opponent: self.identity.bot_address(level),
            challenger_side: rules.side_name(side).into(),
            first: rules
                .side_name(rules.fixed_first().unwrap_or(Side::A))
                .into(),
            created: self.now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            clock: c.clock,
            source: None,
            series: c.series,
            rated: c.rated,
            after: None,
        };
        let info = self.match_of_challenge(&id, &ch, rules, &players)?;
        let game = BotGame {
            level: level.number(),
            player: from.to_string(),
            source: Some(source),
        };
        self.store.write_bot_game(&id, &game)?;
        let first = rules.fixed_first().unwrap_or(Side::A);
        self.start_game(&id, rules, Some(first), players, c.clock, info)?;
        Ok((self.started_letters(&id)?, false))
    }

    /// Marks game `id` a bot game when one of `players` is the bot (a
    /// series' next game, a rematch), so the poll plays its turns.
    pub(super) fn mark_bot_game(&self, id: &str, players: &PerSide<String>) -> Result<()> {
        let bot = players
            .iter()
            .find_map(|(side, p)| Some((side, self.identity.bot_level(p)?)));
        if let Some((side, level)) = bot
            && self.store.bot_game(id)?.is_none()
        {
            let game = BotGame {
                level: level.number(),
                player: crate::reply::address_of(&players[side.other()]),
                source: None,
            };
            self.store.write_bot_game(id, &game)?;
        }
        Ok(())
    }

    /// The bot's turn in bot game `id`: its move chosen (within the
    /// think time of `[bot]`, seeded by the game and the move, so a node
    /// budget always gives the same move) and played as a mail of the
    /// bot's would be; or, when its last move is in the record but its
    /// mails were not committed (`done` says which keys were), that move
    /// again, without thinking.
    ///
    /// # Errors
    /// Store and template failures.
    pub fn bot_step(&self, id: &str, done: &dyn Fn(&str) -> bool) -> Result<BotStep> {
        let Some(game) = self.store.bot_game(id)? else {
            return Ok(BotStep::Over);
        };
        let Some(level) = Level::new(game.level) else {
            return Ok(BotStep::Over);
        };
        let Some(Table::Game { record, secrets }) = self.table(id)? else {
            return Ok(BotStep::Over);
        };
        let Some(side) = record
            .players
            .side_where(|p| self.identity.bot_level(p).is_some())
        else {
            return Ok(BotStep::Over);
        };
        let address = self.identity.bot_address(level);
        let plies = record
            .lines
            .iter()
            .filter(|l| matches!(l.entry, Entry::Move(_)))
            .count();
        // Its last move again, its mails lost to a crash.
        if let Some(last) = record.lines.last()
            && let Entry::Move(text) = &last.entry
            && let Some(ply) = plies.checked_sub(1)
            && last.message_id.as_deref() == Some(&record::message_id_form(&self.bot_mid(id, ply)))
            && !done(&bot_key(id, ply))
        {
            let text = text.clone();
            let table = Table::Game { record, secrets };
            return self.bot_moves(id, side, &address, ply, text, table, None);
        }
        // One replay: whose turn it is, and the bot's move when it is its.
        enum Due {
            Player,
            Over,
            Bot(String, std::time::Duration),
        }
        let seed = self.identity.bot.seed(id, plies);
        let limits = self.identity.bot.limits(level);
        let due = crate::with_game!(record.rules, G => {
            match record::replay::<G>(&record) {
                // Damaged: the players' mail finds it and tells them.
                Err(_) => Due::Player,
                Ok(r) if r.end.is_some() => Due::Over,
                Ok(r) if r.position().turn() != side => Due::Player,
                Ok(r) => {
                    let pos = r.position();
                    match pbem_engine::bot::choose(pos, &limits, seed) {
                        Some(c) => Due::Bot(game::canonical(pos, c.mv), c.think),
                        None => Due::Over,
                    }
                }
            }
        });
        match due {
            Due::Player => Ok(BotStep::Waiting),
            Due::Over => Ok(BotStep::Over),
            Due::Bot(text, think) => {
                let table = Table::Game { record, secrets };
                self.bot_moves(id, side, &address, plies, text, table, Some(think))
            }
        }
    }

    /// The bot's move `text`, its `ply`th, played in game `id`.
    #[allow(clippy::too_many_arguments)]
    fn bot_moves(
        &self,
        id: &str,
        side: Side,
        address: &str,
        ply: usize,
        text: String,
        table: Table,
        think: Option<std::time::Duration>,
    ) -> Result<BotStep> {
        let mail = Inbound {
            from: Some(address.to_string()),
            message_id: Some(self.bot_mid(id, ply)),
            text: text.clone(),
            body: text.clone(),
            ..Inbound::default()
        };
        let commands = [Command::Move { number: None, text }];
        let m = GameMail {
            from: address,
            mail: &mail,
            id,
            side,
            commands: &commands,
        };
        let handled = self.in_game(&m, table)?;
        Ok(BotStep::Moved {
            key: bot_key(id, ply),
            replies: self.compose(&handled.letters)?,
            fate: handled.fate,
            think,
        })
    }

    /// The Message-ID of the bot's `ply`th move in game `id`.
    fn bot_mid(&self, id: &str, ply: usize) -> String {
        format!("<bot.{id}.{ply}@{}>", self.identity.domain())
    }
}

/// The key the bot's `ply`th move in game `id` is committed under.
pub fn bot_key(id: &str, ply: usize) -> String {
    format!("bot:{id}:{ply}")
}
