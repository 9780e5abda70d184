//! The bot's analysis of a finished game, to its players: the game that
//! ends goes into the queue of analyses ([`Adjudicator::queue_analysis`],
//! in the batch that ends it); the poll analyses it later, within the
//! bot's think time, and mails each player their three largest swings
//! ([`Adjudicator::analysis_mails`]); `analysis` in a finished game's
//! thread answers with the whole analysis, move by move, or says it is
//! on its way. No analysis while the game is on: it would help a player.
//! How a move is weighed: docs/src/players/analysis.md.

use super::play::{Refused, Turn};
use super::*;
use crate::store::analysis::{QueuedAnalysis, StoredAnalysis, StoredPly};
use pbem_engine::bot::analyse::Mark;
use pbem_engine::bot::{EVAL_LIMIT, WIN};

/// The swings each player's mail shows.
pub const SWINGS: usize = 3;

/// The most moves the answer to `analysis` lists: the mail fits a phone's
/// mail size, and the web archive shows the rest.
pub const MAX_ROWS: usize = 200;

/// Where a finished game's analysis stands.
pub(super) enum AnalysisState {
    /// Done, of the game's moves as they are.
    Ready(StoredAnalysis),
    /// In the queue (or in part done).
    Queued,
    /// Neither: never asked for, off, stale or damaged.
    Missing,
}

impl Adjudicator<'_> {
    /// Puts game `id`, which `rec` ends, in the queue of analyses, unless
    /// the analysis is off, the game has no move, no player is a person,
    /// or it is queued or done already. Whether an analysis is to come.
    pub(super) fn queue_analysis(&self, id: &str, rec: &Record) -> Result<bool> {
        let moves = rec.lines.iter().any(|l| matches!(l.entry, Entry::Move(_)));
        let person = rec
            .players
            .given()
            .any(|(_, p)| self.identity.bot_level(p).is_none());
        if self.identity.bot.analysis().is_none() || !moves || !person {
            return Ok(false);
        }
        match self.analysis_state(id, rec)? {
            AnalysisState::Ready(_) => Ok(false),
            AnalysisState::Queued => Ok(true),
            AnalysisState::Missing => {
                let queued = QueuedAnalysis {
                    queued: chrono::SubsecRound::trunc_subsecs(self.now, 0),
                };
                self.desk.queue_analysis(id, &queued)?;
                Ok(true)
            }
        }
    }

    /// Where game `id`'s analysis stands (`rec`, its record). A file that
    /// does not read counts as none: the poll that analyses the game
    /// again says what was wrong with it.
    pub(super) fn analysis_state(&self, id: &str, rec: &Record) -> Result<AnalysisState> {
        if self.desk.queued_analysis(id)?.is_some() {
            return Ok(AnalysisState::Queued);
        }
        let stored = self
            .desk
            .analysis_text(id)?
            .and_then(|text| StoredAnalysis::parse(&text).ok());
        Ok(match stored {
            Some(a) if a.complete() && a.of(rec) => AnalysisState::Ready(a),
            _ => AnalysisState::Missing,
        })
    }

    /// The mails of game `id`'s analysis `a` (of `rec`), one to each
    /// player who is a person: their largest swings.
    ///
    /// # Errors
    /// Store and template failures.
    pub fn analysis_mails(
        &self,
        id: &str,
        rec: &Record,
        a: &StoredAnalysis,
    ) -> Result<Vec<crate::reply::Reply>> {
        let secrets = self.desk.secrets(id, rec.rules)?;
        let mut letters = Vec::new();
        for (side, player) in rec.players.given() {
            if self.identity.bot_level(player).is_some() {
                continue;
            }
            let side_name = rec.rules.side_name(side);
            let mut mine: Vec<&StoredPly> = a
                .plies
                .iter()
                .filter(|p| p.side == side_name && p.lost() > 0)
                .collect();
            mine.sort_by_key(|p| (std::cmp::Reverse(p.lost()), p.ply));
            let swings = mine
                .iter()
                .take(SWINGS)
                .map(|p| self.swing(p))
                .collect::<Result<Vec<_>>>()?;
            let opponent = rec.players[side.other()]
                .as_deref()
                .map(|p| self.name_of(p));
            letters.push(Letter {
                to: player.clone(),
                kind: Kind::News,
                template: "analysis",
                context: context! {
                    id, game => rec.rules.name(), side => side_name, opponent,
                    swings, tally => tally(a, side_name),
                },
                game: Some(id.to_string()),
                reply_to: secrets.tokens[side]
                    .as_ref()
                    .map(|k| self.identity.reply_to(id, k)),
            });
        }
        self.compose(&letters)
    }

    /// One swing as the analysis mail shows it.
    fn swing(&self, p: &StoredPly) -> Result<minijinja::Value> {
        Ok(context! {
            ply => p.ply, played => &p.played, best => &p.best,
            before => self.eval_text(p.before)?, after => self.eval_text(p.after)?,
            mark => p.mark.map(Mark::symbol),
        })
    }

    /// An evaluation for people: `+1.25`, or a proven result in words.
    fn eval_text(&self, score: i32) -> Result<String> {
        if score.abs() <= EVAL_LIMIT {
            return Ok(format!("{:+.2}", f64::from(score) / 100.0));
        }
        let (wins, loses) = if score > 0 {
            (Some(WIN - score), None)
        } else {
            (None, Some(WIN + score))
        };
        self.words("eval", context! { wins, loses })
    }

    /// `analysis` in game `t.id`: refused while the game is on; once it
    /// is over, the whole analysis, or word that it is on its way (put in
    /// the queue now if it was not).
    pub(super) fn analysis_command<G: Game>(
        &self,
        t: &mut Turn<'_, G>,
        c: &Command,
    ) -> Result<std::result::Result<(), Refused>> {
        if t.replayed.end.is_none() {
            let reason = self.words("analysis_in_play", context! {})?;
            return Ok(Err(t.refused(c, reason, "analysis in play")));
        }
        let me = G::RULES.side_name(t.side);
        let state = match self.analysis_state(t.id, &t.rec)? {
            AnalysisState::Missing if self.queue_analysis(t.id, &t.rec)? => AnalysisState::Queued,
            state => state,
        };
        let (context, fate) = match state {
            AnalysisState::Ready(a) => (self.analysis_table(t, &a)?, "was sent the analysis"),
            AnalysisState::Queued => (
                context! { id => t.id, game => G::RULES.name() },
                "was told the analysis is on its way",
            ),
            AnalysisState::Missing => {
                let reason = self.words("analysis_none", context! {})?;
                return Ok(Err(t.refused(c, reason, "no analysis")));
            }
        };
        t.replies.push(Letter {
            to: t.player(t.side),
            kind: Kind::Answer,
            template: "analysis_table",
            context,
            game: Some(t.id.to_string()),
            reply_to: t.reply_to(self, t.side),
        });
        t.fates.push(format!("{me} {fate}"));
        Ok(Ok(()))
    }

    /// The context of the answer to `analysis`: a row a move (at most
    /// [`MAX_ROWS`]), the columns' widths, each side's tally.
    fn analysis_table<G: Game>(
        &self,
        t: &Turn<'_, G>,
        a: &StoredAnalysis,
    ) -> Result<minijinja::Value> {
        let shown = &a.plies[..a.plies.len().min(MAX_ROWS)];
        let rows = shown
            .iter()
            .map(|p| {
                Ok(context! {
                    ply => p.ply, played => &p.played, eval => self.eval_text(p.after)?,
                    best => (p.best != p.played).then_some(&p.best),
                    mark => p.mark.map(Mark::symbol),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let wide = |f: &dyn Fn(&StoredPly) -> usize| shown.iter().map(f).max().unwrap_or(0);
        let widths = context! {
            ply => wide(&|p| p.ply.to_string().len()).max(3),
            played => wide(&|p| p.played.chars().count()).max(4),
            best => wide(&|p| p.best.chars().count()).max(4),
        };
        let mover = |parity: usize| {
            G::RULES.side_name(if parity == 1 {
                t.rec.first_side()
            } else {
                t.rec.first_side().other()
            })
        };
        let sides: Vec<minijinja::Value> = [1, 0]
            .into_iter()
            .map(|parity| {
                let side = mover(parity);
                context! { side, first => parity == 1, tally => tally(a, side) }
            })
            .collect();
        Ok(context! {
            id => t.id, game => G::RULES.name(), side => G::RULES.side_name(t.side),
            rows, widths, sides, more => a.plies.len() - shown.len(), total => a.plies.len(),
        })
    }
}

/// How many of `side`'s moves got each mark in `a`.
fn tally(a: &StoredAnalysis, side: &str) -> minijinja::Value {
    let count = |m: Mark| {
        a.plies
            .iter()
            .filter(|p| p.side == side && p.mark == Some(m))
            .count()
    };
    context! {
        inaccuracies => count(Mark::Inaccuracy),
        mistakes => count(Mark::Mistake),
        blunders => count(Mark::Blunder),
    }
}
