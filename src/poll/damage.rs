//! A damaged game met by the poll. Mail
//! path: beside adjudicate, for a mail or a clock whose game's record
//! does not read or replay; its notices go through the outbox like any
//! reply.
//!
//! Crash safety: the notices are committed under the damage's own key
//! ([`Damage::key`]) before the mail that met it, so a crash in between
//! sends them once all the same.

use super::{BatchContext, Poller, Report};
use crate::adjudicate::{AdjudicateError, Damage};
use crate::outbox::Hold;

impl Poller<'_> {
    /// A game whose record does not read or replay, met by a mail or by
    /// the clock sweep: logged at warn level every time; the admin and the
    /// game's players are told once per distinct damage, their mails
    /// committed under [`Damage::key`] like any reply. Nothing else is
    /// done with the game.
    ///
    /// # Errors
    /// Template and store failures: the notice is then tried again.
    pub(super) fn damage_met(
        &self,
        cx: &BatchContext<'_>,
        damage: &Damage,
        report: &mut Report,
    ) -> Result<(), AdjudicateError> {
        log::warn!(
            "{}",
            crate::logging::line(
                "damaged-record",
                &[
                    ("game", &damage.id),
                    ("error", &damage.error),
                    ("file", &damage.file.display()),
                ]
            )
        );
        let key = damage.key();
        if cx.processed.contains(&key)? {
            return Ok(());
        }
        let (replies, effects) = cx.adj.decide(|a| a.damage_notice(damage))?;
        self.store.apply_effects(&effects)?;
        // Not held for a digest: the game is stopped until someone acts.
        self.commit_as(&key, &replies, None, None, cx.now, Hold::Never)?;
        cx.processed.insert(&key);
        report.log.push(crate::logging::line(
            "damage-notice",
            &[
                ("key", &key),
                ("replies", &replies.len()),
                (
                    "to",
                    &replies
                        .iter()
                        .map(|r| r.to.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
            ],
        ));
        Ok(())
    }
}
