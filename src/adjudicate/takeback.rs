//! Takebacks by agreement: `takeback` from the player who made the last
//! move, before the opponent moves, asks the opponent, who answers
//! `accept takeback` or `decline takeback`, or moves, which declines. The
//! record keeps the move and appends the lines that take it back
//! (docs/src/formats/record.md, "Takebacks"); a takeback is no end of
//! the game, so no rating changes. At most `takebacks_per_game` requests
//! per player and game, none in a tournament that does not allow them,
//! nor in a game against the bot, nor once the deadline of the side to
//! move has passed.

use super::*;

/// Why a takeback command is refused: the reason's words, and a word for
/// the log.
type Why = Option<(String, &'static str)>;

impl Adjudicator<'_> {
    /// `takeback`, `accept takeback` or `decline takeback`, which write
    /// event `ev`, or why not.
    pub(super) fn takeback_command<G: Game>(
        &self,
        t: &mut Turn<'_, G>,
        c: &Command,
        ev: Event,
    ) -> Result<std::result::Result<(), Refused>> {
        if !t.already {
            let why = match ev {
                Event::TakebackAsked => self.ask_refusal(t)?,
                _ => self.answer_refusal(t, ev)?,
            };
            if let Some((reason, why)) = why {
                return Ok(Err(t.refused(c, reason, why)));
            }
            t.push(None, Entry::Event(ev), self.now);
        }
        let me = G::RULES.side_name(t.side);
        t.fates.push(format!("{me} {}", done_phrase(c)));
        Ok(Ok(()))
    }

    /// Why the sender may not ask to take back the last move, if so.
    fn ask_refusal<G: Game>(&self, t: &Turn<'_, G>) -> Result<Why> {
        let r = &t.replayed;
        if let Some(name) = &t.rec.match_info.tournament {
            let allowed = self.desk.tournament(name)?.is_some_and(|f| f.takebacks);
            if !allowed {
                let reason = self.words("takeback_tournament", context! { name })?;
                return Ok(Some((reason, "no takebacks in the tournament")));
            }
        }
        let limit = self.identity.takebacks;
        if limit == 0 {
            return Ok(Some((
                self.words("takeback_off", context! {})?,
                "no takebacks",
            )));
        }
        let opponent = t.rec.players[t.side.other()].as_deref().unwrap_or("");
        if self.identity.bot_level(opponent).is_some() {
            return Ok(Some((self.words("takeback_bot", context! {})?, "bot game")));
        }
        let Some(last) = r.moves.last() else {
            let reason = self.words("takeback_nothing", context! {})?;
            return Ok(Some((reason, "no move to take back")));
        };
        let ply = r.moves.len();
        let text = last.canonical(G::RULES.geometry());
        let mover = r.positions[ply - 1].turn();
        if mover != t.side {
            let reason = self.words("takeback_not_yours", context! { ply, text })?;
            return Ok(Some((reason, "not their move")));
        }
        if r.takeback == Some(t.side) {
            let reason = self.words("takeback_pending", context! { ply, text })?;
            return Ok(Some((reason, "takeback asked already")));
        }
        let used = r.takebacks_asked[t.side];
        if used >= limit {
            let reason = self.words("takeback_limit", context! { used, limit })?;
            return Ok(Some((reason, "no takeback left")));
        }
        self.late_refusal(t)
    }

    /// Why the sender may not answer a takeback (`ev`), if so: none asked
    /// by their opponent, or (to accept one) the deadline passed.
    fn answer_refusal<G: Game>(&self, t: &Turn<'_, G>, ev: Event) -> Result<Why> {
        if t.replayed.takeback != Some(t.side.other()) {
            let reason = self.words("no_takeback", context! {})?;
            return Ok(Some((reason, "no takeback asked")));
        }
        if ev == Event::TakebackAccepted {
            return self.late_refusal(t);
        }
        Ok(None)
    }

    /// A takeback refused because the deadline of the side to move has
    /// passed: the game is lost on time, even before the poll says so.
    fn late_refusal<G: Game>(&self, t: &Turn<'_, G>) -> Result<Why> {
        Ok(match self.deadline_passed(t) {
            Some(deadline) => Some((
                self.words("takeback_late", context! { deadline })?,
                "out of time",
            )),
            None => None,
        })
    }

    /// The deadline of the side to move, in the sender's zone, if it has
    /// passed.
    pub(super) fn deadline_passed<G: Game>(&self, t: &Turn<'_, G>) -> Option<String> {
        let gc = t.clock.as_ref()?;
        let deadline = gc.state.deadline()?;
        (self.now >= deadline)
            .then(|| crate::timecontrol::format_deadline(deadline, gc.state.side(t.side).zone))
    }

    /// The context of the news of a takeback asked, accepted or declined
    /// (`ev`, written by `n.mover`), to the player of `side`: the move it
    /// is about, and after an accepted one the board without it.
    pub(super) fn takeback_news<G: Game>(
        &self,
        n: &News<'_, G>,
        side: Side,
        ev: Event,
        board: minijinja::Value,
    ) -> Result<minijinja::Value> {
        let rules = G::RULES;
        let r = n.replayed;
        let (pos, ply) = (r.position(), r.moves.len());
        let asker = match ev {
            Event::TakebackAsked => n.mover,
            _ => n.mover.other(),
        };
        // The move asked about: the last one, or the one taken back.
        let (number, text) = match ev {
            Event::TakebackAccepted => r.taken_back.last().map(|b| (b.ply, &b.notation)),
            _ => r.moves.last().map(|m| (ply, m)),
        }
        .map(|(n, m)| (n, m.canonical(rules.geometry())))
        .unwrap_or_default();
        let name = rules.side_name(n.mover);
        let words = context! {
            event => ev.as_str(), yours => side == n.mover, who => capitalized(name), name,
            asker => rules.side_name(asker), ply => number, move => text,
            used => r.takebacks_asked[asker], limit => self.identity.takebacks,
            your_turn => pos.turn() == side, turn => rules.side_name(pos.turn()), next => ply + 1,
        };
        let text = self.words("takeback_text", words.clone())?;
        let what = self.words("takeback_what", words)?;
        Ok(super::news::event_context(n, side, what, text, board))
    }
}

/// Whether `ev` is one of the takeback events.
pub(super) fn is_takeback(ev: Event) -> bool {
    matches!(
        ev,
        Event::TakebackAsked | Event::TakebackAccepted | Event::TakebackDeclined
    )
}
