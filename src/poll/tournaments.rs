//! Tournaments in a poll: a tournament whose first round is
//! due (sign-up closed, or the admin's players entered) is paired and
//! begun, its mails committed under the key `tournament:NAME:begin`.
//! Mail path: no mail comes in; the adjudicator pairs and begins the
//! games, and their mails go through the outbox like any reply.
//!
//! Crash safety: the games and the tournament are put on disk before the
//! key is committed; a crash in between leaves the round begun with its
//! mails not sent, and the next poll sends them (the adjudicator gives
//! the same mails for a round begun before).

use super::{BatchContext, Poller, Report, panic_message};
use crate::adjudicate::AdjudicateError;
use crate::outbox::Hold;
use crate::store::StoreError;
use std::panic::{self, AssertUnwindSafe};

impl Poller<'_> {
    /// Begins every tournament whose first round is due. One that fails
    /// (or panics) is reported and the others go on.
    ///
    /// # Errors
    /// Only when the tournaments folder cannot be read.
    pub(super) fn tick_tournaments(
        &self,
        cx: &BatchContext<'_>,
        report: &mut Report,
    ) -> Result<(), StoreError> {
        for name in self.store.tournament_names()? {
            let step = panic::catch_unwind(AssertUnwindSafe(|| self.begin_tournament(cx, &name)));
            match step {
                Ok(Ok(None)) => {}
                Ok(Ok(Some(replies))) => report.log.push(crate::logging::line(
                    "tournament",
                    &[
                        ("name", &name),
                        ("replies", &replies),
                        ("fate", &"round 1 begun"),
                    ],
                )),
                Ok(Err(e)) => {
                    report.errors.push(format!("tournament {name}: {e}"));
                    if e.is_unwritable() {
                        break;
                    }
                }
                Err(payload) => report.errors.push(format!(
                    "tournament {name}: pbem failed on it ({}); the others go on",
                    panic_message(payload.as_ref())
                )),
            }
        }
        Ok(())
    }

    /// Tournament `name`'s first round, if it is due and its mails are
    /// not committed yet: how many mails went out.
    fn begin_tournament(
        &self,
        cx: &BatchContext<'_>,
        name: &str,
    ) -> Result<Option<usize>, AdjudicateError> {
        let Some(mut t) = self.store.tournament(name)? else {
            return Ok(None);
        };
        let key = format!("tournament:{name}:begin");
        if t.begins > cx.now || cx.processed.contains(&key)? {
            return Ok(None);
        }
        let (replies, effects) = cx.adj.decide(|a| a.tournament_begin(&mut t))?;
        self.store.apply_effects(&effects)?;
        // The round's games (their keys, which the mails carry) on disk
        // before the key: a crash in between leaves the round begun and
        // its mails unsent, which the next poll sends again.
        self.store.sync()?;
        self.commit_as(
            &key,
            &replies,
            None,
            None,
            cx.now,
            Hold::News { urgent: false },
        )?;
        cx.processed.insert(&key);
        Ok(Some(replies.len()))
    }
}
