//! The bot's turns in a poll: after the poll's mail is
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
//! once ([`Report::bots_waiting`]). The think time is shared fairly
//! ([`turn_order`]): round robin over the players, the one the bot
//! served longest ago first, each player's games the longest waiting
//! first; however many games others keep due, a player gets a turn in
//! every poll that has time for one move per player.

use super::{BatchContext, PollError, Poller, Report, panic_message};
use crate::adjudicate::{BotStep, Fate};
use crate::outbox::Hold;
use crate::record::Record;
use crate::reply::mailbox_key;
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

impl Poller<'_> {
    /// Plays the bot's due moves, each game at most once, within the
    /// poll's think time; a game that fails (or panics) is reported and
    /// the others go on. A move of the bot's may begin a game (the next
    /// of a series, once its move ended the last): the games that are
    /// new since the list was read get their turn in the same poll, in
    /// [`turn_order`] too, so that a game whose first move is the bot's
    /// does not wait for the next poll.
    /// How long it thought.
    pub(super) fn play_bots(&self, cx: &BatchContext<'_>, report: &mut Report) -> Duration {
        let budget = Duration::from_millis(self.identity.bot.poll_ms);
        let started = Instant::now();
        let mut visited = BTreeSet::new();
        loop {
            let fresh: Vec<String> = match self.store.bot_game_ids() {
                Ok(ids) => ids.into_iter().filter(|id| !visited.contains(id)).collect(),
                Err(e) => {
                    report.errors.push(format!("bot games: {e}"));
                    return started.elapsed();
                }
            };
            if fresh.is_empty() {
                return started.elapsed();
            }
            let ids = turn_order(&self.waiting(fresh));
            for (n, id) in ids.iter().enumerate() {
                if started.elapsed() >= budget {
                    report.bots_waiting = ids.len() - n;
                    return started.elapsed();
                }
                visited.insert(id.clone());
                if let Stop::Now = self.bot_turn_logged(cx, id, report) {
                    // The data folder cannot be written: no analysis either.
                    return budget;
                }
            }
        }
    }

    /// [`Poller::bot_turn`] in game `id`, a panic in it caught, its fate
    /// in `report`; whether the poll's bot turns must stop (the data
    /// folder cannot be written).
    fn bot_turn_logged(&self, cx: &BatchContext<'_>, id: &str, report: &mut Report) -> Stop {
        let step = panic::catch_unwind(AssertUnwindSafe(|| self.bot_turn(cx, id)));
        match step {
            Ok(Ok(Some((key, replies, fate, think)))) => {
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
                    return Stop::Now;
                }
            }
            Err(payload) => report.errors.push(format!(
                "bot in {id}: pbem failed on it ({}); the other games go on",
                panic_message(payload.as_ref())
            )),
        }
        Stop::Go
    }

    /// Each bot game of `ids` with its player's mailbox, since when it
    /// waits (the time of its record's last line, else when it was made)
    /// and when the bot last moved in it. A game whose files do not read
    /// counts as waiting longest: its turn finds out what is wrong.
    fn waiting(&self, ids: Vec<String>) -> Vec<Waiting> {
        let never = DateTime::<Utc>::MIN_UTC;
        ids.into_iter()
            .map(|id| {
                let player = self
                    .store
                    .bot_game(&id)
                    .ok()
                    .flatten()
                    .map(|g| mailbox_key(&g.player))
                    .unwrap_or_default();
                let rec = self
                    .store
                    .read_game(&id)
                    .ok()
                    .flatten()
                    .and_then(|text| Record::parse(&id, &text).ok());
                let time = |l: &crate::record::MoveLine| l.time.map(|t| t.to_utc());
                let since = rec
                    .as_ref()
                    .and_then(|r| {
                        r.lines
                            .iter()
                            .rev()
                            .find_map(time)
                            .or(r.created.map(|t| t.to_utc()))
                    })
                    .unwrap_or(never);
                let bot = rec.as_ref().and_then(|r| {
                    r.players
                        .side_where(|p| self.identity.bot_level(p).is_some())
                });
                let served = rec
                    .as_ref()
                    .and_then(|r| {
                        r.lines
                            .iter()
                            .rev()
                            .filter(|l| l.side.is_some() && l.side == bot)
                            .find_map(time)
                    })
                    .unwrap_or(never);
                Waiting {
                    id,
                    player,
                    since,
                    served,
                }
            })
            .collect()
    }

    /// The bot's turn in game `id`: its move committed (key, how many
    /// mails, fate, think time in ms), or none (not its turn; the game
    /// over, its marker gone).
    fn bot_turn(
        &self,
        cx: &BatchContext<'_>,
        id: &str,
    ) -> Result<Option<(String, usize, Fate, u128)>, PollError> {
        let done = |key: &str| cx.processed.contains(key).unwrap_or(false);
        let (step, effects) = cx.adj.decide(|a| a.bot_step(id, &done))?;
        self.store.apply_effects(&effects)?;
        match step {
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
                let replies = self.limit_bot(cx, id, &key, replies)?;
                let hold = Hold::News { urgent: false };
                self.commit_as(&key, &replies, None, None, cx.now, hold)?;
                cx.processed.insert(&key);
                let think = think.map_or(0, |t| t.as_millis());
                Ok(Some((key, replies.len(), fate, think)))
            }
        }
    }
}

impl Poller<'_> {
    /// The bot's mails of its move `key` in game `id` through the reply
    /// limits, as answers to its player's own mail (the bot answers the
    /// player's move at once): news, which the limits do not count, but
    /// which waits out a pause of the player's replies like the news of
    /// their own move.
    fn limit_bot(
        &self,
        cx: &BatchContext<'_>,
        id: &str,
        key: &str,
        replies: Vec<crate::reply::Reply>,
    ) -> Result<Vec<crate::reply::Reply>, PollError> {
        let Some(game) = self.store.bot_game(id)? else {
            return Ok(replies);
        };
        let player = crate::mail::inbound::Inbound {
            from: Some(game.player),
            ..Default::default()
        };
        let mut handled = crate::adjudicate::Handled {
            replies,
            progress: true,
            own_game: true,
            ..Default::default()
        };
        let committed = |k: &str| cx.processed.contains(k).unwrap_or(false);
        self.limit(key, Some(&player), &mut handled, &committed, cx.now)?;
        Ok(handled.replies)
    }
}

/// Whether the bot's turns of a poll go on.
enum Stop {
    Go,
    Now,
}

/// A bot game as [`turn_order`] weighs it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Waiting {
    id: String,
    /// Its player's mailbox ([`mailbox_key`]).
    player: String,
    /// Since when it waits for the bot.
    since: DateTime<Utc>,
    /// When the bot last moved in it.
    served: DateTime<Utc>,
}

/// The order the bot takes its turns in: round robin over the players
/// (by mailbox), the player the bot served longest ago first (then the
/// one whose game waited longest), each player's games the longest
/// waiting first. A player with many games due gets one turn per round
/// like everyone else, and one served last poll goes behind those who
/// were not.
fn turn_order(games: &[Waiting]) -> Vec<String> {
    let mut by_player: BTreeMap<&str, Vec<&Waiting>> = BTreeMap::new();
    for g in games {
        by_player.entry(g.player.as_str()).or_default().push(g);
    }
    let mut queues: Vec<(DateTime<Utc>, Vec<&Waiting>)> = by_player
        .into_values()
        .map(|mut q| {
            q.sort_by(|a, b| (a.since, &a.id).cmp(&(b.since, &b.id)));
            (q.iter().map(|g| g.served).max().unwrap_or_default(), q)
        })
        .collect();
    queues.sort_by(|(a_served, a), (b_served, b)| {
        (a_served, a[0].since, &a[0].id).cmp(&(b_served, b[0].since, &b[0].id))
    });
    let queues: Vec<Vec<&Waiting>> = queues.into_iter().map(|(_, q)| q).collect();
    let mut order = Vec::with_capacity(games.len());
    for round in 0.. {
        let before = order.len();
        order.extend(
            queues
                .iter()
                .filter_map(|q| q.get(round))
                .map(|g| g.id.clone()),
        );
        if order.len() == before {
            break;
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(minute: i64) -> DateTime<Utc> {
        DateTime::<Utc>::UNIX_EPOCH + chrono::Duration::minutes(minute)
    }

    fn game(id: &str, player: &str, minute: i64) -> Waiting {
        Waiting {
            id: id.into(),
            player: player.into(),
            since: at(minute),
            served: at(0),
        }
    }

    #[test]
    fn each_player_gets_a_turn_before_anyone_gets_a_second() {
        let games = [
            game("a1", "a@x", 1),
            game("a2", "a@x", 2),
            game("a3", "a@x", 3),
            game("b1", "b@x", 4),
            game("b2", "b@x", 5),
            game("h", "honest@x", 50),
        ];
        assert_eq!(turn_order(&games), ["a1", "b1", "h", "a2", "b2", "a3"]);
    }

    #[test]
    fn the_longest_waiting_player_goes_first() {
        let games = [
            game("new", "a@x", 9),
            game("old", "h@x", 1),
            game("older-of-a", "a@x", 3),
        ];
        assert_eq!(turn_order(&games), ["old", "older-of-a", "new"]);
        assert!(turn_order(&[]).is_empty());
    }

    #[test]
    fn a_player_the_bot_served_lately_goes_behind_the_others() {
        let mut a = game("a1", "a@x", 1);
        a.served = at(30);
        let games = [a, game("a2", "a@x", 2), game("h", "h@x", 40)];
        assert_eq!(turn_order(&games), ["h", "a1", "a2"]);
    }
}
