//! The game clocks' ticks in a poll: what the clocks owe (reminders,
//! final notices, losses on time), sent before the poll's mails are
//! handled. Mail path: no mail comes in; the adjudicator's clock step
//! decides, and its mails go through the outbox like any reply.
//!
//! Crash safety: a tick's mails are committed under the notice's key
//! before the record and the clock are written, so a crash in between
//! sends nothing twice and the next poll finishes the rest.

use super::{BatchContext, Poller, Report, panic_message};
use crate::adjudicate::{AdjudicateError, Tick};
use crate::outbox::Hold;
use crate::store::StoreError;
use std::collections::HashSet;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

/// One marker of the deadline index met by [`Poller::tick_clock`].
struct DueClock<'d> {
    /// The game.
    id: &'d str,
    /// The index's marker that named it.
    marker: &'d Path,
    /// Whether this is the first of its markers this poll.
    first: bool,
}

impl Poller<'_> {
    /// Sends what the game clocks owe (reminders, final notices, losses
    /// on time), each once: its mails are committed under the notice's
    /// key before the record and the clock are written, so a crash in
    /// between sends nothing twice and the next poll finishes the rest.
    /// A game whose clock fails (or panics) is reported and the others go
    /// on.
    ///
    /// Only the clocks the deadline index names are read
    /// ([`crate::store::Store::due_clocks`]); one that owes nothing has its
    /// marker moved on.
    ///
    /// # Errors
    /// Only when the deadline index cannot be read.
    pub(super) fn tick_clocks(
        &self,
        cx: &BatchContext<'_>,
        report: &mut Report,
    ) -> Result<(), StoreError> {
        let mut seen = HashSet::new();
        for (id, marker) in self.store.due_clocks(cx.now, &self.identity.clocks)? {
            let due = DueClock {
                first: seen.insert(id.clone()),
                id: &id,
                marker: &marker,
            };
            let step = panic::catch_unwind(AssertUnwindSafe(|| self.tick_clock(cx, &due, report)));
            match step {
                Ok(Ok(None)) => {}
                Ok(Ok(Some(tick))) => {
                    report.log.push(crate::logging::line(
                        "clock",
                        &[
                            ("key", &tick.key),
                            ("replies", &tick.replies.len()),
                            ("fate", &tick.fate),
                        ],
                    ));
                    report.ticks.push(tick.fate);
                }
                Ok(Err(e)) => {
                    report.errors.push(format!("clock of {id}: {e}"));
                    if e.is_unwritable() {
                        break;
                    }
                }
                Err(payload) => report.errors.push(format!(
                    "clock of {id}: pbem failed on it ({}); the other games go on",
                    panic_message(payload.as_ref())
                )),
            }
        }
        Ok(())
    }

    /// One game's clock, met through the index's marker: what it owes
    /// committed, then the record and the clock written; owing nothing,
    /// the marker is moved on. A damaged record is reported to the admin
    /// and the players ([`Poller::damage_met`]) and is no error of the
    /// poll.
    fn tick_clock(
        &self,
        cx: &BatchContext<'_>,
        due: &DueClock<'_>,
        report: &mut Report,
    ) -> Result<Option<Tick>, AdjudicateError> {
        let (id, adj) = (due.id, &cx.adj);
        let owed = if due.first {
            match adj.decide(|a| a.clock_due(id)) {
                Ok((owed, effects)) => {
                    self.store.apply_effects(&effects)?;
                    owed
                }
                Err(AdjudicateError::Damaged(d)) => {
                    self.damage_met(cx, &d, report)?;
                    return Ok(None);
                }
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        let Some(tick) = owed else {
            // Through the batch view: the marker goes once the clock that
            // replaced it is durable.
            self.store
                .recheck_due(id, due.marker, &self.identity.clocks)?;
            return Ok(None);
        };
        if !cx.processed.contains(&tick.key)? {
            // What a loss on time began (a series' next game, a
            // tournament's next round: their keys, which the mails carry)
            // on disk before the key; done again, it is found, not made
            // anew. A reminder began nothing.
            if tick.record.is_some() {
                self.store.sync()?;
            }
            let hold = Hold::News {
                urgent: tick.urgent,
            };
            self.commit_as(&tick.key, &tick.replies, None, None, cx.now, hold)?;
            cx.processed.insert(&tick.key);
        }
        if let Some(text) = &tick.record {
            self.store.write_game(id, text)?;
        }
        self.store
            .write_clock(id, &tick.clock, &self.identity.clocks)?;
        Ok(Some(tick))
    }
}
