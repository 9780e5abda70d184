//! The bot's turns in a poll (issue 18): after the poll's mail is
//! committed, the bot plays its move in each bot game where it is to
//! move, as a mail of its own would be handled; its mails (the news to
//! the player) go through the outbox like any reply.
//!
//! Crash safety: the move's record reaches the disk before its key is
//! committed with its mails; a crash in between leaves the move in the
//! record under its own Message-ID, and the next poll finds it there
//! (its key not committed) and commits its mails without thinking again.
//!
//! A poll thinks at most `[bot] poll_ms` (and one move past it): the
//! bot games still due wait for the next poll, which the daemon runs at
//! once ([`Report::bots_waiting`]).

use super::{BatchContext, Poller, Report, panic_message};
use crate::adjudicate::{AdjudicateError, BotStep};
use crate::outbox::Hold;
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

impl Poller<'_> {
    /// Plays the bot's due moves, each game at most once, within the
    /// poll's think time; a game that fails (or panics) is reported and
    /// the others go on. Whether the bot moved.
    pub(super) fn play_bots(&self, cx: &BatchContext<'_>, report: &mut Report) -> bool {
        let ids = match self.store.bot_game_ids() {
            Ok(ids) => ids,
            Err(e) => {
                report.errors.push(format!("bot games: {e}"));
                return false;
            }
        };
        let budget = Duration::from_millis(self.identity.bot.poll_ms);
        let started = Instant::now();
        let mut moved = false;
        for (n, id) in ids.iter().enumerate() {
            if started.elapsed() >= budget {
                report.bots_waiting = ids.len() - n;
                break;
            }
            let step = panic::catch_unwind(AssertUnwindSafe(|| self.bot_turn(cx, id)));
            match step {
                Ok(Ok(Some((key, replies, fate, think)))) => {
                    moved = true;
                    report.log.push(crate::logging::line(
                        "bot",
                        &[
                            ("key", &key),
                            ("replies", &replies),
                            ("think_ms", &think),
                            ("fate", &fate),
                        ],
                    ));
                }
                Ok(Ok(None)) => {}
                Ok(Err(e)) => {
                    report.errors.push(format!("bot in {id}: {e}"));
                    if e.is_unwritable() {
                        break;
                    }
                }
                Err(payload) => report.errors.push(format!(
                    "bot in {id}: pbem failed on it ({}); the other games go on",
                    panic_message(payload.as_ref())
                )),
            }
        }
        moved
    }

    /// The bot's turn in game `id`: its move committed (key, how many
    /// mails, fate, think time in ms), or none (not its turn; the game
    /// over, its marker gone).
    fn bot_turn(
        &self,
        cx: &BatchContext<'_>,
        id: &str,
    ) -> Result<Option<(String, usize, String, u128)>, AdjudicateError> {
        let done = |key: &str| cx.processed.contains(key).unwrap_or(false);
        match cx.adj.bot_step(id, &done)? {
            BotStep::Waiting => Ok(None),
            BotStep::Over => {
                self.store.remove_bot_game(id)?;
                self.store.sync()?;
                Ok(None)
            }
            BotStep::Moved {
                key,
                replies,
                fate,
                think,
            } => {
                // The record first: done again, the move is found in it.
                self.store.sync()?;
                let hold = Hold::News { urgent: false };
                self.commit_as(&key, &replies, None, None, cx.now, hold)?;
                cx.processed.insert(&key);
                let think = think.map_or(0, |t| t.as_millis());
                Ok(Some((key, replies.len(), fate, think)))
            }
        }
    }
}
