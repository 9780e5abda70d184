//! Game clocks in play: the
//! glue between the pure rules of [`crate::timecontrol`] and the records,
//! the players' settings and the mails.
//!
//! A game's clock is stored beside its record ([`GameClock`]) with the
//! number of record lines it has taken into account. Whenever a game is
//! touched, the clock first catches up with the record from the record's
//! own times ([`Adjudicator::sync_clock`]), so a crash between writing the
//! record and the clock loses nothing. The poll asks every running clock
//! what it owes ([`Adjudicator::clock_due`]): a reminder, the final notice,
//! or the loss on time, each exactly once (the poll commits the mails under
//! a key naming the turn and the notice, like a mail's Message-ID).

use super::damage::damaged_record;
use super::{AdjudicateError, Adjudicator, Facts, Result, TickFate, example_move};
use crate::game::{Game, Side};
use crate::record::{self, Entry, Event, MoveLine, Record};
use crate::reply::{Kind, Letter};
use crate::reply::{Reply, address_of};
use crate::store::{GameClock, Secrets, StoreError};
use crate::timecontrol::{ClockState, Notice, TimeControl, format_deadline};
use chrono::Utc;
use minijinja::context;

/// What a game's clock owes now, ready for the poll to commit.
#[derive(Debug)]
pub struct Tick {
    /// The key the mails are committed under: the same turn and notice
    /// always give the same key, so a notice goes out once.
    pub key: String,
    pub replies: Vec<Reply>,
    /// The record with its `timeout` line, to write after the mails are
    /// committed (a loss on time).
    pub record: Option<String>,
    /// The clock to store after that.
    pub clock: GameClock,
    /// What the clock did, for the log.
    pub fate: TickFate,
    /// A final notice or a loss on time: it goes out at once, even to a
    /// player who asked for a daily digest.
    pub urgent: bool,
}

impl Adjudicator<'_> {
    /// Starts the clock of a new game.
    pub(super) fn start_clock(
        &self,
        id: &str,
        control: TimeControl,
        first: Side,
        rec: &Record,
    ) -> Result<()> {
        let mut gc = GameClock {
            lines: 0,
            state: ClockState::new(control, first, self.now),
        };
        self.sync_clock(&mut gc, rec)?;
        self.desk.write_clock(id, &gc, &self.identity.clocks)?;
        Ok(())
    }

    /// The clock of game `id`, caught up with `rec`; none if it has none.
    pub(super) fn game_clock(&self, id: &str, rec: &Record) -> Result<Option<GameClock>> {
        let Some(mut gc) = self.desk.clock(id)? else {
            return Ok(None);
        };
        self.sync_clock(&mut gc, rec)?;
        Ok(Some(gc))
    }

    /// Brings `gc` up to date: the players' time zones, and the record's
    /// lines it has not seen, at the times the record gives them.
    pub(super) fn sync_clock(&self, gc: &mut GameClock, rec: &Record) -> Result<()> {
        for (side, m) in rec.players.given() {
            let zone = self.desk.player(&address_of(m))?.zone;
            if gc.state.side(side).zone != zone {
                gc.state.set_zone(side, zone);
            }
        }
        for line in rec.lines.iter().skip(gc.lines) {
            let at = line.time.map_or(self.now, |t| t.with_timezone(&Utc));
            // A takeback accepted passes the turn back as a move does.
            let passed = match &line.entry {
                Entry::Move(_) => Some(gc.state.on_move(at)),
                Entry::Event(Event::TakebackAccepted) => Some(gc.state.on_takeback(at)),
                Entry::Event(Event::Resign | Event::DrawAgreed | Event::Timeout) => {
                    gc.state.stop();
                    None
                }
                Entry::Event(_) => None,
            };
            if let Some(Err(e)) = passed {
                // Only a record edited by hand gets here: the move is in
                // the record, so the clock gives way.
                log::warn!(
                    "{}",
                    crate::logging::line(
                        "clock-stopped",
                        &[("game", &rec.id.clone().unwrap_or_default()), ("error", &e)]
                    )
                );
                gc.state.stop();
            }
        }
        gc.lines = rec.lines.len();
        if rec.verdict().is_over() {
            gc.state.stop();
        }
        Ok(())
    }

    /// The deadline of the side to move, shown in `reader`'s zone.
    pub(super) fn deadline_for(gc: Option<&GameClock>, reader: Side) -> Option<String> {
        let gc = gc?;
        let d = gc.state.deadline()?;
        Some(format_deadline(d, gc.state.side(reader).zone))
    }

    /// What game `id`'s clock owes at this poll, if anything.
    ///
    /// # Errors
    /// Store and template failures; [`AdjudicateError::Damaged`] when the
    /// clock owes something and the record does not read or replay (the
    /// poll tells the admin and the players).
    pub fn clock_due(&self, id: &str) -> Result<Option<Tick>> {
        // Cheap first: most clocks owe nothing, and need no record.
        let Some(stored) = self.desk.clock(id)? else {
            return Ok(None);
        };
        if stored.state.due(self.now, &self.identity.clocks).is_none() {
            return Ok(None);
        }
        let rec = match self.desk.record(id) {
            Ok(Some(rec)) => rec,
            Ok(None) => return Ok(None),
            Err(e) if damaged_record(&e) => {
                return Err(AdjudicateError::Damaged(self.damage(id, &e)));
            }
            Err(e) => return Err(e.into()),
        };
        crate::with_game!(rec.rules, G => self.tick::<G>(id, rec, stored))
    }

    fn tick<G: Game>(&self, id: &str, mut rec: Record, mut gc: GameClock) -> Result<Option<Tick>> {
        let rules = G::RULES;
        // A record that does not replay (a bad move, a result that does
        // not match) stops the clock's mails until it is mended.
        record::replay::<G>(&rec).map_err(|e| AdjudicateError::Damaged(self.damage(id, &e)))?;
        self.sync_clock(&mut gc, &rec)?;
        let Some(notice) = gc.state.due(self.now, &self.identity.clocks) else {
            // The record had moved on (a crash between writing the record
            // and the clock): keep the clock that caught up.
            self.desk.write_clock(id, &gc, &self.identity.clocks)?;
            return Ok(None);
        };
        let turn = gc.state.turn_start.format("%Y%m%dT%H%M%SZ");
        let side = notice.side();
        let secrets = self.desk.secrets(id, rules)?;
        let (kind, replies, record) = match notice {
            Notice::Timeout { deadline, .. } => {
                rec.lines.push(MoveLine {
                    line: 0,
                    number: None,
                    side: Some(side),
                    entry: Entry::Event(Event::Timeout),
                    time: Some(deadline.fixed_offset()),
                    message_id: None,
                });
                let after = record::replay::<G>(&Record {
                    result: None,
                    ..rec.clone()
                })
                .map_err(|source| StoreError::Record { source })?;
                rec.result = Some((after.result(), 0));
                // The poll writes the record once the mails are committed;
                // the rating and the series read the game from `rec`.
                let text = record::write::to_string(&rec);
                let settled = self.settle(id, &rec)?;
                // The game is over: conditional moves go with it.
                if self.desk.conditions(id)?.is_some() {
                    self.desk.set_conditions(id, None)?;
                }
                let mut letters = self.news::<G>(id, &rec, &after, side, &secrets, None)?;
                letters.extend(settled);
                ("timeout".to_string(), self.compose(&letters)?, Some(text))
            }
            Notice::Reminder { point, .. } => (
                format!("reminder-{}", point.permille()),
                self.compose(&[self.reminder::<G>(id, &rec, &gc, &secrets, &notice)?])?,
                None,
            ),
            Notice::Final { .. } => (
                "final".to_string(),
                self.compose(&[self.reminder::<G>(id, &rec, &gc, &secrets, &notice)?])?,
                None,
            ),
        };
        gc.state.mark_sent(&notice);
        gc.lines = rec.lines.len();
        Ok(Some(Tick {
            urgent: !matches!(notice, Notice::Reminder { .. }),
            key: format!("clock:{id}:{turn}:{kind}"),
            replies,
            record,
            clock: gc,
            fate: TickFate::of(id, rules, &notice),
        }))
    }

    /// The mail of a reminder or of the final notice, to the side to move.
    fn reminder<G: Game>(
        &self,
        id: &str,
        rec: &Record,
        gc: &GameClock,
        secrets: &Secrets,
        notice: &Notice,
    ) -> Result<Letter> {
        let rules = G::RULES;
        let (side, deadline) = (notice.side(), notice.deadline());
        // The share of the turn's time used; none for the final notice.
        let used = match notice {
            Notice::Reminder { point, .. } => Some(point.to_string()),
            _ => None,
        };
        let replayed = record::replay::<G>(rec).map_err(|source| StoreError::Record { source })?;
        let pos = replayed.position();
        let ply = replayed.moves.len();
        // A clock runs only while the game is in play: no end to show.
        let board = crate::mail::board::board(pos, &replayed.view(ply, Some(side)));
        Ok(Letter {
            to: rec.players[side].clone().unwrap_or_default(),
            kind: Kind::Reminder,
            template: "reminder",
            context: context! {
                id, game => rules.name(), next => ply + 1, board, is_final => used.is_none(), used,
                deadline => format_deadline(deadline, gc.state.side(side).zone),
                clock => gc.state.control.to_string(), example => example_move(pos),
            },
            game: Some(id.to_string()),
            reply_to: secrets.tokens[side]
                .as_ref()
                .map(|k| self.identity.reply_to(id, k)),
        })
    }
}
