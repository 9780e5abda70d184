//! What follows a game's end: its rating, the next game of its
//! series or the series' end, and `rematch`.
//!
//! [`Adjudicator::settle`] runs after the record of a game that ended is
//! written, in the same batch. It is idempotent, like all handling: run
//! again (a mail handled again after a crash) it changes nothing more and
//! gives the same letters. The next game of a series has an id made from
//! the series' (its first game's id and its number), so no crash can
//! start it twice.

use super::challenge::Asked;
use super::play;
use super::ratings::{self, Finished};
use super::*;
use crate::record::MatchInfo;
use crate::reply::address_of;
use crate::store::league::SeriesFile;
use pbem_league::Game as Pairing;
use pbem_league::series::{NextFirst, Series, SeriesEnd};

/// Who moves first in a series' next game in `rules` (each game's rules
/// text, "Playing a series"): the loser where the players choose who
/// starts, else the players swap sides.
pub fn next_first_rule(rules: Rules) -> NextFirst {
    if rules.fixed_first().is_some() {
        NextFirst::Swap
    } else {
        NextFirst::Loser
    }
}

/// The id of game `number` (from 1) of the series whose first game is
/// `first`: `first` itself, then `first-2`, `first-3`...
pub fn series_game_id(first: &str, number: usize) -> String {
    if number <= 1 {
        first.to_string()
    } else {
        format!("{first}-{number}")
    }
}

impl Adjudicator<'_> {
    /// After game `id`'s record `rec` is written: rate it if it ended and
    /// is rated, and go on with its series. The letters beyond the game's
    /// own news (a series' end, its next game's start).
    pub(super) fn settle(&self, id: &str, rec: &Record) -> Result<Vec<Letter>> {
        let Some(f) = Finished::of(id, rec) else {
            return Ok(Vec::new());
        };
        // The bot's analysis follows the game's news, in a later poll.
        self.queue_analysis(id, rec)?;
        if f.ratable(self.identity) {
            let slug = f.rules.slug();
            let mut file = self.desk.ratings(slug)?;
            if file.game(id).is_none() {
                ratings::rate(&self.desk, self.identity, &mut file, &f)?;
                self.desk.write_ratings(slug, &file)?;
            }
        }
        let mut letters = match &f.match_info.series {
            Some(series) => self.series_after(series, &f)?,
            None => Vec::new(),
        };
        if let Some(name) = &f.match_info.tournament {
            letters.extend(self.tournament_after(name, &f, rec)?);
        }
        Ok(letters)
    }

    /// A series as the league counts it: its games so far from their
    /// records (a game in play, or one whose record is missing, without
    /// an outcome); `current`, a game that ended, stands for its record
    /// (a game lost on time, whose record is written after its mails).
    pub(super) fn series_state(
        &self,
        s: &SeriesFile,
        current: Option<&Finished>,
    ) -> Result<Series> {
        let seat = |mailbox: &str| usize::from(address_of(mailbox) != address_of(&s.players[0]));
        let mut games = Vec::new();
        for id in &s.games {
            let (first, outcome) = match current.filter(|c| c.id == *id) {
                Some(c) => (seat(&c.first), Some(c.outcome)),
                None => {
                    let rec = match self.table(id)? {
                        Some(Table::Game { record, .. }) => record,
                        _ => continue,
                    };
                    let first = rec.players[rec.first_side()]
                        .as_ref()
                        .map_or(0, |p| seat(p));
                    (first, Finished::of(id, &rec).map(|f| f.outcome))
                }
            };
            games.push(Pairing {
                first,
                second: 1 - first,
                outcome,
            });
        }
        Ok(Series {
            length: s.length,
            games,
        })
    }

    /// After `f`, a game of series `series_id`: the series' end, or its
    /// next game begun.
    fn series_after(&self, series_id: &str, f: &Finished) -> Result<Vec<Letter>> {
        let Some(mut s) = self.desk.series(series_id)? else {
            return Ok(Vec::new());
        };
        let Some(at) = s.games.iter().position(|g| *g == f.id) else {
            return Ok(Vec::new());
        };
        let state = self.series_state(&s, Some(f))?;
        if let Some(end) = state.decided() {
            return self.series_over(series_id, &s, &state, end);
        }
        let number = at + 2;
        let next_id = series_game_id(&s.games[0], number);
        if s.games.get(at + 1).is_none() {
            let Some(next) = state.next_game(next_first_rule(f.rules)) else {
                return Ok(Vec::new());
            };
            let rules = f.rules;
            let first = rules.fixed_first().unwrap_or(Side::A);
            let players = PerSide::seat(
                first,
                s.players[next.first].clone(),
                s.players[next.second].clone(),
            );
            let info = MatchInfo {
                series: Some(series_id.to_string()),
                game: u32::try_from(number).ok(),
                of: Some(s.length),
                rated: s.rated,
                ..MatchInfo::default()
            };
            self.start_game(&next_id, rules, Some(first), players, s.clock, info)?;
            s.games.push(next_id.clone());
            self.desk.write_series(series_id, &s)?;
        }
        if s.games.get(at + 1) == Some(&next_id) {
            return self.started_letters(&next_id);
        }
        Ok(Vec::new())
    }

    /// The mails announcing a series' end, one to each player.
    fn series_over(
        &self,
        series_id: &str,
        s: &SeriesFile,
        state: &Series,
        end: SeriesEnd,
    ) -> Result<Vec<Letter>> {
        let rules = s.rules;
        let score = state.score();
        let winner = match end {
            SeriesEnd::Won(seat) => Some(address_of(&s.players[seat])),
            SeriesEnd::Drawn => None,
        };
        let name = |seat: usize| self.name_of(&s.players[seat]);
        // In the last game's thread, with each player's key for it: a
        // `rematch` in reply is theirs.
        let last = s.games.last().cloned().unwrap_or_default();
        let keys = match self.table(&last)? {
            Some(Table::Game { record, secrets }) => Some((record, secrets)),
            _ => None,
        };
        let reply_to = |to: &str| {
            let (record, secrets) = keys.as_ref()?;
            let side = record
                .players
                .side_where(|p| address_of(p) == address_of(to))?;
            secrets.tokens[side]
                .as_ref()
                .map(|k| self.identity.reply_to(&last, k))
        };
        let mut out = Vec::new();
        for (seat, to) in s.players.iter().enumerate() {
            out.push(Letter {
                to: to.clone(),
                kind: Kind::News,
                template: "series_over",
                context: context! {
                    id => series_id, game => rules.name(), length => s.length, played => state.finished(),
                    yours => score[seat].to_string(), theirs => score[1 - seat].to_string(),
                    opponent => name(1 - seat), won => winner.as_deref() == Some(address_of(to).as_str()),
                    drawn => winner.is_none(), games => s.games.clone(),
                },
                game: Some(last.clone()),
                reply_to: reply_to(to),
            });
        }
        Ok(out)
    }

    /// What the mails of game `rec` show of its match (its series and the
    /// ratings of its game), read once for both readers.
    pub(super) fn match_view(&self, rec: &Record) -> Result<MatchView> {
        let ratings = if rec.match_info.rated {
            Some(self.desk.ratings(rec.rules.slug())?)
        } else {
            None
        };
        let mut series = None;
        if let Some(series_id) = &rec.match_info.series
            && let Some(s) = self.desk.series(series_id)?
        {
            let current = Finished::of(rec.id.as_deref().unwrap_or_default(), rec);
            let state = self.series_state(&s, current.as_ref())?;
            series = Some((s, state));
        }
        let rated = rec
            .players
            .given()
            .map(|(_, p)| (address_of(p), ratings::rated_as(self.identity, p)))
            .collect();
        Ok(MatchView {
            number: rec.match_info.game,
            players: rec.players.clone(),
            rated,
            ratings,
            series,
        })
    }
}

/// A game's match as its mails show it ([`Adjudicator::match_view`]):
/// the files read once, worded for each reader.
pub(super) struct MatchView {
    /// Which game of its series it is.
    number: Option<u32>,
    players: PerSide<Option<String>>,
    /// Each player's address and their name in the ratings.
    rated: Vec<(String, String)>,
    /// The ratings of its game, when it is rated.
    ratings: Option<crate::store::league::RatingsFile>,
    /// Its series and the score so far.
    series: Option<(SeriesFile, Series)>,
}

impl MatchView {
    /// `who`'s name in the ratings ([`ratings::rated_as`]).
    fn rated_as(&self, who: &str) -> String {
        let address = address_of(who);
        self.rated
            .iter()
            .find(|(a, _)| *a == address)
            .map_or_else(|| crate::reply::mailbox_key(&address), |(_, r)| r.clone())
    }

    /// The series line: which game of how many, and the score before it
    /// (none for a game on its own).
    pub(super) fn series(&self, reader: &str) -> Option<minijinja::Value> {
        let (s, state) = self.series.as_ref()?;
        let seat = usize::from(address_of(reader) != address_of(&s.players[0]));
        let score = state.score();
        Some(context! {
            number => self.number, length => s.length,
            yours => score[seat].to_string(), theirs => score[1 - seat].to_string(),
            decided => state.decided().is_some(),
        })
    }

    /// What rated game `id` did to the ratings, as `reader` sees it (their
    /// own first); none for an unrated game or one not rated yet.
    pub(super) fn rating_change(&self, id: &str, reader: &str) -> Option<minijinja::Value> {
        let g = self.ratings.as_ref()?.game(id)?;
        let me = usize::from(g.players[0] != self.rated_as(reader));
        let signed = |n: i64| {
            if n >= 0 {
                format!("+{n}")
            } else {
                n.to_string()
            }
        };
        Some(context! {
            before => g.before[me], after => g.after[me], change => signed(g.after[me] - g.before[me]),
            theirs_before => g.before[1 - me], theirs_after => g.after[1 - me],
            theirs_change => signed(g.after[1 - me] - g.before[1 - me]),
        })
    }

    /// Both players' ratings before a rated game, `reader`'s first; none
    /// for an unrated game.
    pub(super) fn ratings_before(&self, reader: &str) -> Option<minijinja::Value> {
        let file = self.ratings.as_ref()?;
        let opponent = self
            .players
            .values()
            .flatten()
            .find(|p| address_of(p) != address_of(reader))
            .cloned()
            .unwrap_or_default();
        let shown = |who: &str| {
            let r = file.table.get(&self.rated_as(who));
            context! { rating => r.shown(), deviation => r.deviation.round() as i64, games => r.games }
        };
        Some(context! { yours => shown(reader), theirs => shown(&opponent) })
    }
}

impl Adjudicator<'_> {
    /// `rematch` in game `t`, which has ended: a challenge to the same
    /// opponent, in the same game with the same clock, who moves first by
    /// the series rule. The letters, and whether it was refused.
    pub(super) fn rematch<G: Game>(&self, t: &play::Turn<'_, G>) -> Result<(Vec<Letter>, bool)> {
        let rules = G::RULES;
        let opponent = address_of(&t.player(t.side.other()));
        let first_mover = match Finished::of(t.id, &t.rec) {
            Some(f) => {
                let last = Series {
                    length: 2,
                    games: vec![Pairing {
                        first: 0,
                        second: 1,
                        outcome: Some(f.outcome),
                    }],
                };
                let next = last
                    .next_game(next_first_rule(rules))
                    .map_or(1, |g| g.first);
                // Seat 0 moved first in the game that ended.
                if next == 0 { f.first } else { f.second }
            }
            None => t.player(t.side),
        };
        let order = if address_of(&first_mover) == t.from {
            Order::First
        } else {
            Order::Second
        };
        let asked = Asked {
            rules,
            opponent: &opponent,
            order,
            clock: t.clock.as_ref().map(|c| c.state.control),
            series: None,
            rated: t.rec.match_info.rated,
            after: Some(t.id),
            // Asked in the game, by its player with their key.
            proven: true,
        };
        self.challenge(t.from, t.mail, t.index, &asked)
    }
}
