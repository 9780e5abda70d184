//! pbem's bot as a player: `challenge GAME bot [level N]`
//! begins a game against it at once, and [`Adjudicator::bot_step`] plays
//! its turn, for the poll, as if the bot had mailed its move: through the
//! same path as a player's mail (the record, the clock, the rating, the
//! series, the news), with a Message-ID of its own per move, so that a
//! move done again after a crash is found in the record and not played
//! twice. No mail goes to the bot ([`Adjudicator::compose`]).

use super::challenge::{Asked, challenger_side};
use super::play::GameMail;
use super::*;
use crate::reply::{mailbox, mailbox_key};
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
    /// record is among the effects [`Adjudicator::decide`] hands back.
    Moved {
        key: String,
        replies: Vec<Reply>,
        fate: Fate,
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
        for id in self.desk.bot_game_ids()? {
            if let Some(g) = self.desk.bot_game(&id)?
                && g.source.as_deref() == Some(source.as_str())
            {
                return Ok((self.started_letters(&id)?, false));
            }
        }
        if let Some((id, ch)) = self.challenge_from(&source)? {
            return Ok((vec![self.bot_confirmation(&id, &ch, rules)?], false));
        }
        if let Some(refusal) = self.bot_refusal(from, rules)? {
            return Ok((vec![refusal], true));
        }
        if !c.proven {
            // A From anyone can forge: the game begins once its challenger
            // confirms with the key mailed to that address.
            let open = self.open_challenges_of(from)?;
            if self.challenges.open > 0 && open.len() >= self.challenges.open as usize {
                let reason = self.words(
                    "too_many_open",
                    context! { count => open.len(), ids => open.join(", "), days => super::challenge::CHALLENGE_OPEN_DAYS },
                )?;
                let command = format!("challenge {} bot", rules.slug());
                return Ok((
                    vec![self.reject(from, None, Refusal::new(command, reason))?],
                    true,
                ));
            }
            let bot = self.identity.bot_address(level);
            let (id, ch) = self.make_challenge(from, mail, c, &bot, source)?;
            return Ok((vec![self.bot_confirmation(&id, &ch, rules)?], false));
        }
        let id = self.fresh_id(rules)?;
        let side = challenger_side(rules, c.order, &source);
        let me = mailbox(mail.from_name.as_deref(), from);
        let players = PerSide::seat(side, me.clone(), self.identity.bot_mailbox(level));
        let ch = Challenge {
            rules,
            challenger: me,
            opponent: self.identity.bot_address(level),
            challenger_side: side,
            first: rules.fixed_first().unwrap_or(Side::A),
            created: chrono::SubsecRound::trunc_subsecs(self.now, 0),
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
            nonce: self.draw.token()?,
        };
        self.desk.write_bot_game(&id, &game)?;
        let first = rules.fixed_first().unwrap_or(Side::A);
        self.start_game(&id, rules, Some(first), players, c.clock, info)?;
        Ok((self.started_letters(&id)?, false))
    }

    /// Why `from` may not begin another game against the bot now, if it
    /// may not: the bot plays as many games as it takes on, or `from`'s
    /// mailbox (any `+tag`, any case) as many as one player may.
    fn bot_refusal(&self, from: &str, rules: Rules) -> Result<Option<Letter>> {
        let all = self.desk.bot_game_ids()?;
        let me = mailbox_key(from);
        let mut mine = Vec::new();
        for id in &all {
            if let Some(g) = self.desk.bot_game(id)?
                && mailbox_key(&g.player) == me
            {
                mine.push(id.clone());
            }
        }
        let command = format!("challenge {} bot", rules.slug());
        let reason = if all.len() >= MAX_BOT_GAMES_IN_ALL {
            self.words("bot_busy", context! { count => all.len() })?
        } else if mine.len() >= MAX_BOT_GAMES {
            self.words(
                "too_many_bot_games",
                context! { count => mine.len(), ids => mine.join(", ") },
            )?
        } else {
            return Ok(None);
        };
        Ok(Some(self.reject(
            from,
            None,
            Refusal::new(command, reason),
        )?))
    }

    /// The mail that asks the challenger of bot challenge `id` to confirm
    /// it: its reply address carries their key.
    fn bot_confirmation(&self, id: &str, ch: &Challenge, rules: Rules) -> Result<Letter> {
        let side = ch.challenger_side;
        let key = self.desk.secrets(id, rules)?.tokens[side]
            .clone()
            .unwrap_or_default();
        let name = rules.name();
        let text = self.words("confirm_what", context! { action => "bot", name })?;
        let title = self.words("title", context! { of => "confirm", action => "bot", name })?;
        Ok(Letter {
            to: ch.challenger.clone(),
            kind: Kind::Answer,
            template: "confirm",
            context: context! { id, title, text, days => super::challenge::CHALLENGE_OPEN_DAYS },
            // Its own subject (a question), not the game's thread.
            game: None,
            reply_to: Some(self.identity.reply_to(id, &key)),
        })
    }

    /// The challenger's `accept` of bot challenge `id` (`ch`), with their
    /// key: the game begins, unless the bounds on bot games forbid it now.
    pub(super) fn confirm_bot(
        &self,
        from: &str,
        id: &str,
        ch: &Challenge,
        rules: Rules,
        level: Level,
    ) -> Result<Handled> {
        if let Some(refusal) = self.bot_refusal(from, rules)? {
            return Ok(failed(
                vec![refusal],
                refused(from, format!("bot challenge {id} past the bounds")),
            ));
        }
        let side = ch.challenger_side;
        let players = PerSide::seat(
            side,
            ch.challenger.clone(),
            self.identity.bot_mailbox(level),
        );
        let info = self.match_of_challenge(id, ch, rules, &players)?;
        let first = Some(ch.first);
        self.desk.remove_challenge_after(id, || {
            self.start_game(id, rules, first, players.clone(), ch.clock, info.clone())
        })?;
        Ok(Handled {
            letters: self.started_letters(id)?,
            fate: Fate::BotChallengeConfirmed { id: id.to_string() },
            progress: true,
            ..Handled::default()
        })
    }

    /// Marks game `id` a bot game when one of `players` is the bot (a
    /// series' next game, a rematch), so the poll plays its turns.
    pub(super) fn mark_bot_game(&self, id: &str, players: &PerSide<String>) -> Result<()> {
        let bot = players
            .iter()
            .find_map(|(side, p)| Some((side, self.identity.bot_level(p)?)));
        if let Some((side, level)) = bot
            && self.desk.bot_game(id)?.is_none()
        {
            let game = BotGame {
                level: level.number(),
                player: crate::reply::address_of(&players[side.other()]),
                source: None,
                nonce: self.draw.token()?,
            };
            self.desk.write_bot_game(id, &game)?;
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
        let Some(mut seat) = self.bot_seat(id)? else {
            return Ok(BotStep::Over);
        };
        let plies = record::plies(&seat.record.lines);
        if let Some((ply, text)) = self.lost_bot_move(id, &seat, plies, done) {
            return self.bot_moves(id, seat, ply, text, None);
        }
        if seat.game.nonce.is_empty() {
            seat.game.nonce = self.draw.token()?;
            self.desk.write_bot_game(id, &seat.game)?;
        }
        match self.bot_due(id, &seat, plies) {
            BotDue::Player => Ok(BotStep::Waiting),
            BotDue::Over => Ok(BotStep::Over),
            BotDue::Bot(text, think) => self.bot_moves(id, seat, plies, text, Some(think)),
        }
    }

    /// The bot's place in bot game `id`; `None` when the game is over or
    /// gone, or is no bot game (any more).
    fn bot_seat(&self, id: &str) -> Result<Option<BotSeat>> {
        let Some(game) = self.desk.bot_game(id)? else {
            return Ok(None);
        };
        let Some(level) = Level::new(game.level) else {
            return Ok(None);
        };
        let Some(Table::Game { record, secrets }) = self.table(id)? else {
            return Ok(None);
        };
        let side = record
            .players
            .side_where(|p| self.identity.bot_level(p).is_some());
        Ok(side.map(|side| BotSeat {
            game,
            level,
            side,
            record,
            secrets,
        }))
    }

    /// The bot's last move again, its mails lost to a crash: the bot's
    /// side's line, under the id the bot gave it (before the game kept a
    /// nonce, the id had none), whose key `done` does not hold; its ply
    /// and text.
    fn lost_bot_move(
        &self,
        id: &str,
        seat: &BotSeat,
        plies: usize,
        done: &dyn Fn(&str) -> bool,
    ) -> Option<(usize, String)> {
        // The player's conditional moves that answered it come after it.
        let answers = seat
            .record
            .lines
            .iter()
            .rev()
            .take_while(|l| super::conditions::is_conditional(l))
            .count();
        let last = seat.record.lines.iter().rev().nth(answers)?;
        if let Entry::Move(text) = &last.entry
            && last.side == Some(seat.side)
            && let Some(ply) = plies.checked_sub(1 + answers)
            && [
                self.bot_mid(id, ply, &seat.game.nonce),
                self.bot_mid(id, ply, ""),
            ]
            .iter()
            .any(|mid| last.message_id.as_deref() == Some(&record::message_id_form(mid)))
            && !done(&bot_key(id, ply))
        {
            return Some((ply, text.clone()));
        }
        None
    }

    /// One replay of game `id`, `plies` moves in: whose turn it is, and
    /// the bot's move when it is its.
    fn bot_due(&self, id: &str, seat: &BotSeat, plies: usize) -> BotDue {
        let seed = self.identity.bot.seed(id, plies);
        let limits = self.identity.bot.limits(seat.level);
        crate::with_game!(seat.record.rules, G => {
            match record::replay::<G>(&seat.record) {
                // Damaged: the players' mail finds it and tells them.
                Err(_) => BotDue::Player,
                Ok(r) if r.end.is_some() => BotDue::Over,
                Ok(r) if r.position().turn() != seat.side => BotDue::Player,
                Ok(r) => {
                    let pos = r.position();
                    match pbem_engine::bot::choose(pos, &limits, seed) {
                        Some(c) => BotDue::Bot(game::canonical(pos, c.mv), c.think),
                        None => BotDue::Over,
                    }
                }
            }
        })
    }

    /// The bot's move `text`, its `ply`th, played in its game `id`.
    fn bot_moves(
        &self,
        id: &str,
        seat: BotSeat,
        ply: usize,
        text: String,
        think: Option<std::time::Duration>,
    ) -> Result<BotStep> {
        let address = self.identity.bot_address(seat.level);
        let mail = Inbound {
            from: Some(address.clone()),
            message_id: Some(self.bot_mid(id, ply, &seat.game.nonce)),
            text: text.clone(),
            body: text.clone(),
            ..Inbound::default()
        };
        let commands = [Command::Move { number: None, text }];
        let m = GameMail {
            from: &address,
            mail: &mail,
            id,
            side: seat.side,
            commands: &commands,
        };
        let table = Table::Game {
            record: seat.record,
            secrets: seat.secrets,
        };
        let handled = self.in_game(&m, table)?;
        Ok(BotStep::Moved {
            key: bot_key(id, ply),
            replies: self.compose(&handled.letters)?,
            fate: handled.fate,
            think,
        })
    }

    /// The Message-ID of the bot's `ply`th move in game `id` whose
    /// [`BotGame::nonce`] is `nonce`.
    fn bot_mid(&self, id: &str, ply: usize, nonce: &str) -> String {
        let domain = self.identity.domain();
        if nonce.is_empty() {
            format!("<bot.{id}.{ply}@{domain}>")
        } else {
            format!("<bot.{id}.{ply}.{nonce}@{domain}>")
        }
    }
}

/// The bot's place in one of its games, as its turn reads it.
struct BotSeat {
    /// The bot game's file: the level asked for and the nonce of the
    /// bot's Message-IDs.
    game: BotGame,
    level: Level,
    /// The side the bot plays.
    side: Side,
    record: Record,
    secrets: Secrets,
}

/// What the replay of a bot game says is due.
enum BotDue {
    /// The player is to move (or the record is damaged).
    Player,
    Over,
    /// The bot's move, and how long it thought.
    Bot(String, std::time::Duration),
}

/// The key the bot's `ply`th move in game `id` is committed under.
pub fn bot_key(id: &str, ply: usize) -> String {
    format!("bot:{id}:{ply}")
}
