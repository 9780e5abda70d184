//! Ratings: a rated game is rated when it ends, and the
//! ratings can be rebuilt from the records alone with the same numbers.
//!
//! Games are rated in the order they ended (the time of the record's
//! last line), then by id. A game that ends while one that sorts after it
//! is rated already (two games ending in the same second, processed in
//! another order) makes the ratings be rebuilt from the records, so the
//! order, and with it every number, is always that one.

use super::desk::Facts;
use crate::game::Outcome as GameOutcome;
use crate::record::{MatchInfo, Record};
use crate::reply::{Identity, address_of, mailbox_key};
use crate::rules::Rules;
use crate::store::StoreError;
use crate::store::league::{RatedGame, RatingsFile};
use chrono::{DateTime, SubsecRound, Utc};
use pbem_league::Outcome;

/// A game that has ended, as series, tournaments and ratings count it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    pub id: String,
    pub rules: Rules,
    /// Who moved first and who second, "Name <address>".
    pub first: String,
    pub second: String,
    pub outcome: Outcome,
    /// The time of its last line (else when it was made).
    pub ended: DateTime<Utc>,
    pub match_info: MatchInfo,
    /// Each side wrote at least one line of the record from a mail of its
    /// own (a move, a draw, a resignation: a mail that proved its sender
    /// with their key, or a DMARC pass the admin trusts; the bot's moves
    /// count as its own). A side that never wrote may be an address a
    /// stranger put on a forged challenge or sign-up.
    pub proven: bool,
}

impl Finished {
    /// Game `id` as it ended; `None` while it is in play, or when its
    /// record lacks a player or does not replay.
    pub fn of(id: &str, rec: &Record) -> Option<Finished> {
        let end = crate::with_game!(rec.rules, G => crate::record::replay::<G>(rec).ok()?.end)?;
        let first_side = rec.first_side();
        let player = |s: crate::game::Side| rec.players[s].clone();
        let outcome = match end.outcome {
            GameOutcome::Draw => Outcome::Draw,
            GameOutcome::Win(s) if s == first_side => Outcome::FirstWins,
            GameOutcome::Win(_) => Outcome::SecondWins,
        };
        let ended = rec
            .lines
            .iter()
            .rev()
            .find_map(|l| l.time)
            .or(rec.created)
            // To the second, as the record writes it: a game read back
            // from its file counts the same.
            .map(|t| t.to_utc().trunc_subsecs(0))
            .unwrap_or_default();
        Some(Finished {
            id: id.to_string(),
            rules: rec.rules,
            first: player(first_side)?,
            second: player(first_side.other())?,
            outcome,
            ended,
            match_info: rec.match_info.clone(),
            proven: crate::game::Side::BOTH.iter().all(|s| {
                rec.lines
                    .iter()
                    .any(|l| l.side == Some(*s) && l.message_id.is_some())
            }),
        })
    }

    /// Whether the game counts for the ratings: it was played rated, both
    /// its players proved their addresses in it ([`Finished::proven`]),
    /// and they are two players, not one mailbox under two `+tags`.
    pub fn ratable(&self, me: &Identity) -> bool {
        self.match_info.rated
            && self.proven
            && rated_as(me, &self.first) != rated_as(me, &self.second)
    }

    fn key(&self) -> (DateTime<Utc>, &str) {
        (self.ended, &self.id)
    }
}

/// Rates `f` (a rated game that ended) in `file`, unless it is rated
/// already: what the game did to its players' ratings. Rebuilds `file`
/// from the records of `facts` when a game that ended after `f` is rated.
///
/// # Errors
/// Store failures while rebuilding.
pub fn rate(
    facts: &dyn Facts,
    me: &Identity,
    file: &mut RatingsFile,
    f: &Finished,
) -> Result<RatedGame, StoreError> {
    if let Some(done) = file.game(&f.id) {
        return Ok(done.clone());
    }
    let in_order = file
        .games
        .last()
        .is_none_or(|last| (last.ended, last.id.as_str()) < f.key());
    if in_order {
        apply(me, file, f);
    } else {
        *file = rebuild_with(facts, me, f.rules, Some(f))?;
    }
    file.game(&f.id)
        .cloned()
        .ok_or_else(|| StoreError::Unrated { id: f.id.clone() })
}

/// One mailbox is one player of the ratings, whatever its `+tag` or case
/// ([`rated_as`]).
fn apply(me: &Identity, file: &mut RatingsFile, f: &Finished) {
    let players = [rated_as(me, &f.first), rated_as(me, &f.second)];
    let change = file.table.rate(&players[0], &players[1], f.outcome);
    file.games.push(RatedGame {
        id: f.id.clone(),
        ended: f.ended,
        players,
        outcome: f.outcome,
        before: change.before.map(|r| r.shown()),
        after: change.after.map(|r| r.shown()),
    });
}

/// The ratings of `rules` from the records alone: every rated game that
/// ended, in order. A record that cannot be read is left out.
///
/// # Errors
/// When the games folder cannot be read.
pub fn rebuild(facts: &dyn Facts, me: &Identity, rules: Rules) -> Result<RatingsFile, StoreError> {
    rebuild_with(facts, me, rules, None)
}

/// [`rebuild`], with `current` standing for its game's record (a game
/// lost on time, whose record is written after its mails).
fn rebuild_with(
    facts: &dyn Facts,
    me: &Identity,
    rules: Rules,
    current: Option<&Finished>,
) -> Result<RatingsFile, StoreError> {
    let mut finished: Vec<Finished> = current.into_iter().cloned().collect();
    for id in facts.game_ids()? {
        if current.is_some_and(|c| c.id == id) {
            continue;
        }
        // A game that cannot be read counts for nothing: the ratings are
        // rebuilt from the games that read.
        let Ok(Some(rec)) = facts.record(&id) else {
            continue;
        };
        if rec.rules != rules || !rec.match_info.rated {
            continue;
        }
        if let Some(f) = Finished::of(&id, &rec).filter(|f| f.ratable(me)) {
            finished.push(f);
        }
    }
    finished.sort_by(|a, b| a.key().cmp(&b.key()));
    let mut file = RatingsFile::default();
    for f in &finished {
        apply(me, &mut file, f);
    }
    Ok(file)
}

/// The name player `mailbox` ("Name <address>") has in the ratings: their
/// mailbox ([`mailbox_key`]: one mailbox is one player, whatever its
/// `+tag` or case), but for pbem's bot, whose levels are players of their
/// own (`pbem+bot2@...`).
pub fn rated_as(me: &Identity, mailbox: &str) -> String {
    let address = address_of(mailbox);
    if me.bot_level(&address).is_some() {
        address.to_lowercase()
    } else {
        mailbox_key(&address)
    }
}
