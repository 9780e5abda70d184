//! The end of a game as each reader is told it (the `over` template):
//! whether they won, lost or drew, and how (the reason the rules or the
//! record give: a resignation, a loss on time, a position won); what it
//! did to their rating; and what comes next: the series' next game, the
//! tournament's next round, or how to ask for a `rematch`.

use super::series::MatchView;
use super::*;

/// The reader's result, as the `over` template words it.
fn outcome_for(end: &game::End, reader: Option<Side>) -> Option<&'static str> {
    let reader = reader?;
    Some(match end.outcome {
        game::Outcome::Draw => "drawn",
        game::Outcome::Win(s) if s == reader => "won",
        game::Outcome::Win(_) => "lost",
    })
}

/// One reader's letter of a game's end, before its board and record.
pub(super) struct OverFor<'a> {
    /// The game's id and its record.
    pub(super) id: &'a str,
    pub(super) rec: &'a Record,
    pub(super) end: &'a game::End,
    /// The reader's side; `None` for a reader who does not play (the
    /// neutral form: the result, not "you won").
    pub(super) reader: Option<Side>,
    /// The reader's "Name <address>".
    pub(super) to: &'a str,
    /// The match as its mails show it, read once for both players.
    pub(super) shown: Option<&'a MatchView>,
    /// The game's tournament as its mails name it (name, round, result),
    /// for a game of one.
    pub(super) tournament: Option<minijinja::Value>,
}

impl Adjudicator<'_> {
    /// The context of the `over` template for one reader of game `o.id`
    /// that has ended, its `board` shown from their seat.
    pub(super) fn over_context(
        &self,
        o: &OverFor<'_>,
        board: minijinja::Value,
    ) -> Result<minijinja::Value> {
        let rules = o.rec.rules;
        let winner = match o.end.outcome {
            game::Outcome::Win(s) => Some(rules.side_name(s)),
            game::Outcome::Draw => None,
        };
        let result = self.words("result", context! { winner })?;
        let (rating, series) = o.shown.map_or((None, None), |m| {
            (m.rating_change(o.id, o.to), m.series(o.to))
        });
        let opponent_of = |s: Side| o.rec.players[s.other()].clone();
        let opponent = o.reader.and_then(opponent_of);
        let bot = opponent
            .as_deref()
            .is_some_and(|p| self.identity.bot_level(p).is_some());
        let info = &o.rec.match_info;
        // A series that goes on begins its next game at once, and a
        // tournament pairs its next round itself: a rematch is offered
        // only where nothing follows by itself.
        let series_goes_on = o
            .shown
            .and_then(|m| m.series(o.to))
            .is_some_and(|s| s.get_attr("decided").is_ok_and(|d| !d.is_true()));
        let rematch = o.reader.is_some() && info.tournament.is_none() && !series_goes_on;
        // A player of a tournament game reads the standings it leaves
        // here; the other entrants get them in a mail of their own.
        let standings = match (&info.tournament, o.reader) {
            (Some(name), Some(_)) => {
                let outcome = super::tournament::league_outcome(o.rec, &o.end.outcome);
                self.standings_after(name, o.id, outcome, o.to)?
            }
            _ => None,
        };
        // Queued by the game's end, before its news: a player's mail follows.
        let analysis = o.reader.is_some() && self.desk.queued_analysis(o.id)?.is_some();
        Ok(context! {
            id => o.id, game => rules.name(), result, reason => o.end.reason.clone(), analysis,
            outcome => outcome_for(o.end, o.reader),
            side => o.reader.map(|s| rules.side_name(s)),
            their_side => o.reader.map(|s| rules.side_name(s.other())),
            opponent => opponent.as_deref().map(|p| self.name_of(p)), bot,
            rating, series, rematch,
            tournament => o.tournament.clone(),
            standings,
            board, record => record::write::moves_only(o.rec),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_player_reads_their_own_result() {
        let won = game::End::win(Side::A, "red resigned");
        assert_eq!(outcome_for(&won, Some(Side::A)), Some("won"));
        assert_eq!(outcome_for(&won, Some(Side::B)), Some("lost"));
        assert_eq!(outcome_for(&won, None), None);
        let drawn = game::End::draw("drawn by agreement");
        assert_eq!(outcome_for(&drawn, Some(Side::B)), Some("drawn"));
    }
}
