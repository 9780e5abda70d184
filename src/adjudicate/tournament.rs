//! Tournaments: a round begun (its games made, each player
//! mailed their game), a result entered, the standings mailed to every
//! player after each result, the next round paired when one ends, the
//! end announced.
//!
//! A game of round R, board B of tournament T has the id `T-rR-B`, so no
//! crash can make a round's games twice; the round's `closed_by` names
//! the game whose end finished it, so a mail handled again gives the same
//! letters without pairing again.
//!
//! Beginning a round is recoverable from either side of a crash. The
//! tournament file reaches the disk after the games its rounds name
//! ([`Store::write_tournament`]): a crash before its rename leaves the
//! round unpaired, and the mail (or clock) handled again pairs it the
//! same way (the pairing depends on the results alone) and finds the games
//! already made under their ids. A file that names games not on disk (a
//! data folder a crash left so before that order held) has them made from
//! its own pairing before their mails are built ([`Adjudicator::round_letters`]).
//! A game half made (its keys or clock without its record) is finished
//! with the keys it has: they were never mailed, as no mail goes out before
//! the whole batch is on disk.

use super::league::tournament_state;
use super::ratings::Finished;
use super::*;
use crate::record::MatchInfo;
use crate::reply::{address_of, mailbox_key};
use crate::store::league::{Pairing as Board, RoundFile, TournamentFile};
use pbem_league::tournament::Next;

/// The longest tournament name: its games' ids (`NAME-r12-34`) must stay
/// within the 40 characters of an id.
pub const MAX_NAME: usize = 30;

/// The id of the game on `board` (from 1) of `round` (from 1).
pub fn tournament_game_id(name: &str, round: usize, board: usize) -> String {
    format!("{name}-r{round}-{board}")
}

impl Adjudicator<'_> {
    /// Round 1 of `t`, due now: paired and begun, its mails (each game's
    /// start, the pairings to every player); when it was begun already
    /// (its mails not yet committed: a crash), the same mails again. A
    /// tournament fewer than 2 signed up for is called off.
    ///
    /// # Errors
    /// Store and template failures.
    pub fn tournament_begin(&self, t: &mut TournamentFile) -> Result<Vec<Reply>> {
        let letters = if !t.played.is_empty() {
            self.round_letters(t, first_to_play(t, 0))?
        } else if t.players.len() < 2 {
            if !t.over {
                t.over = true;
                self.desk.write_tournament(t)?;
            }
            let text = self.words(
                "tournament_cancelled",
                context! { name => &t.name, count => t.players.len() },
            )?;
            let title = self.words("title", context! { of => "standings", name => &t.name })?;
            t.players
                .iter()
                .map(|to| self.info(to, &title, &text, None))
                .collect::<Result<Vec<_>>>()?
        } else {
            self.tournament_step(t)?
        };
        self.compose(&letters)
    }

    /// Begins the next round of `t` if it is due (the one before has
    /// ended), or ends `t`: writes its games and `t`, and returns the
    /// games' mails and the standings with the new pairings. Nothing when
    /// a round is in play.
    ///
    /// # Errors
    /// Store and template failures; a tournament with fewer than 2 players.
    pub(super) fn tournament_step(&self, t: &mut TournamentFile) -> Result<Vec<Letter>> {
        if t.over {
            return Ok(Vec::new());
        }
        let next = tournament_state(t)
            .next()
            .map_err(|source| StoreError::Tournament {
                name: t.name.clone(),
                source,
            })?;
        let round = match next {
            Next::Wait => return Ok(Vec::new()),
            Next::Over => {
                t.over = true;
                self.desk.write_tournament(t)?;
                return self.standings_letters(t);
            }
            Next::Start(round) => round,
        };
        let number = t.played.len() + 1;
        let mut file = RoundFile {
            games: Vec::new(),
            bye: round.bye,
            closed_by: None,
        };
        for (board, g) in round.games.iter().enumerate() {
            let mut pairing = Board {
                first: g.first,
                second: g.second,
                game: None,
                outcome: g.outcome,
            };
            if g.outcome.is_none() {
                let id = tournament_game_id(&t.name, number, board + 1);
                self.make_game(t, number, &id, &pairing)?;
                pairing.game = Some(id);
            }
            file.games.push(pairing);
        }
        t.played.push(file);
        // After the games it names: the batch puts it on disk after them.
        self.desk.write_tournament(t)?;
        // A round of forfeits only ends as it begins: the next one at once.
        if no_game_to_play(&t.played[number - 1]) {
            t.played[number - 1].closed_by = Some(format!("round-{number}"));
            return self.tournament_step(t);
        }
        self.round_letters(t, number - 1)
    }

    /// Game `id` of round `number` of `t`, between the seats of `pairing`,
    /// made unless its record exists ([`Adjudicator::start_game`], which
    /// keeps the keys of a game a crash left half made).
    fn make_game(
        &self,
        t: &TournamentFile,
        number: usize,
        id: &str,
        pairing: &Board,
    ) -> Result<()> {
        let rules = t.rules;
        let seat = |s: usize| {
            t.players.get(s).cloned().ok_or_else(|| StoreError::NoSeat {
                name: t.name.clone(),
                round: number,
                seat: s,
            })
        };
        let first = rules.fixed_first().unwrap_or(Side::A);
        let players = PerSide::seat(first, seat(pairing.first)?, seat(pairing.second)?);
        let info = MatchInfo {
            tournament: Some(t.name.clone()),
            round: u32::try_from(number).ok(),
            rated: t.rated,
            ..MatchInfo::default()
        };
        self.start_game(id, rules, Some(first), players, t.clock, info)
    }

    /// The mails of round `r` (from 0) of `t` begun: each of its games'
    /// start, then the standings with its pairings to every player (only
    /// the standings when `r` is past the last round: `t` is over). A game
    /// the round names whose record is missing is made first, from the
    /// round's pairing: the tournament file of a batch cut short may have
    /// reached the disk before its games.
    fn round_letters(&self, t: &TournamentFile, r: usize) -> Result<Vec<Letter>> {
        let mut out = Vec::new();
        let games = t.played.get(r).map_or(&[][..], |round| &round.games);
        for g in games {
            let Some(id) = g.game.as_deref() else {
                continue;
            };
            if g.outcome.is_none() && self.desk.read_game(id)?.is_none() {
                self.make_game(t, r + 1, id, g)?;
            }
            out.extend(self.started_letters(id)?);
        }
        out.extend(self.standings_letters(t)?);
        Ok(out)
    }

    /// After `f`, a game of tournament `name`: its result entered (a
    /// player who lost on time too often dropped out), and the standings
    /// to every player, with the next round's pairings and games when
    /// this game finished a round.
    pub(super) fn tournament_after(
        &self,
        name: &str,
        f: &Finished,
        rec: &Record,
    ) -> Result<Vec<Letter>> {
        let Some(mut t) = self.desk.tournament(name)? else {
            return Ok(Vec::new());
        };
        let Some((r, b)) = t.played.iter().enumerate().find_map(|(r, round)| {
            round
                .games
                .iter()
                .position(|g| g.game.as_deref() == Some(f.id.as_str()))
                .map(|b| (r, b))
        }) else {
            return Ok(Vec::new());
        };
        let mut changed = false;
        if t.played[r].games[b].outcome.is_none() {
            t.played[r].games[b].outcome = Some(f.outcome);
            if matches!(
                rec.lines.last().map(|l| &l.entry),
                Some(Entry::Event(Event::Timeout))
            ) {
                lost_on_time(&mut t, r, b, f.outcome);
            }
            changed = true;
        }
        if t.played[r].games.iter().all(|g| g.outcome.is_some()) && t.played[r].closed_by.is_none()
        {
            t.played[r].closed_by = Some(f.id.clone());
            changed = true;
        }
        if changed {
            self.desk.write_tournament(&t)?;
        }
        if t.played[r].closed_by.as_deref() != Some(f.id.as_str()) {
            // The game's two players read the standings in the mail of
            // its end ([`Adjudicator::standings_after`]).
            let mut letters = self.standings_letters(&t)?;
            let played = [address_of(&f.first), address_of(&f.second)].map(|a| mailbox_key(&a));
            letters.retain(|l| !played.contains(&mailbox_key(&address_of(&l.to))));
            return Ok(letters);
        }
        if r + 1 == t.played.len() && !t.over {
            return self.tournament_step(&mut t);
        }
        // Handled again: the round this game began (past any round of
        // forfeits only it began on the way), or the final standings,
        // its mails again.
        self.round_letters(&t, first_to_play(&t, r + 1))
    }

    /// The standings of tournament `name` once its game `id` has ended
    /// in `outcome`, as `reader` reads them, unless that game ends its
    /// round; the tournament file may not hold that result yet when the
    /// game's end is worded.
    pub(super) fn standings_after(
        &self,
        name: &str,
        id: &str,
        outcome: pbem_league::Outcome,
        reader: &str,
    ) -> Result<Option<String>> {
        let Some(mut t) = self.desk.tournament(name)? else {
            return Ok(None);
        };
        let Some(round) = t
            .played
            .iter_mut()
            .find(|round| round.games.iter().any(|g| g.game.as_deref() == Some(id)))
        else {
            return Ok(None);
        };
        for g in &mut round.games {
            if g.game.as_deref() == Some(id) {
                g.outcome.get_or_insert(outcome);
            }
        }
        // The game that ends its round is followed by the round's own
        // mail to everyone: the next pairings, or the final standings.
        // The round's file may be ahead of this letter (a later game of
        // the same batch entered), so which game closed it decides.
        let closes = match round.closed_by.as_deref() {
            Some(closer) => closer == id,
            None => round.games.iter().all(|g| g.outcome.is_some()),
        };
        if closes {
            return Ok(None);
        }
        self.standings_text(&t, reader).map(Some)
    }

    /// The standings, one mail to each player (those who dropped out too).
    pub(super) fn standings_letters(&self, t: &TournamentFile) -> Result<Vec<Letter>> {
        let title = self.words("title", context! { of => "standings", name => &t.name })?;
        let mut out = Vec::new();
        for to in &t.players {
            let text = self.standings_text(t, to)?;
            let mut l = self.info(to, &title, &text, None)?;
            l.kind = Kind::News;
            out.push(l);
        }
        Ok(out)
    }
}

/// A round with no game to play: every board a forfeit (or none at all).
/// Such a round ends as it begins, and the next one begins with it.
fn no_game_to_play(round: &RoundFile) -> bool {
    round.games.iter().all(|g| g.game.is_none())
}

/// The round (from 0) whose games were begun when round `r` was: `r`,
/// or past the rounds of forfeits only begun with it, the one after them.
/// The last round when all are such (the tournament ended with them).
fn first_to_play(t: &TournamentFile, r: usize) -> usize {
    let mut k = r;
    while k + 1 < t.played.len() && no_game_to_play(&t.played[k]) {
        k += 1;
    }
    k
}

/// The loser of game `b` of round `r` lost on time: counted, and dropped
/// out when the tournament allows no more.
fn lost_on_time(t: &mut TournamentFile, r: usize, b: usize, outcome: pbem_league::Outcome) {
    let g = &t.played[r].games[b];
    let loser = match outcome {
        pbem_league::Outcome::FirstWins => g.second,
        _ => g.first,
    };
    t.timeouts.resize(t.players.len(), 0);
    t.timeouts[loser] += 1;
    if t.drop_after_timeouts > 0
        && t.timeouts[loser] >= t.drop_after_timeouts
        && !t.dropped.contains(&loser)
    {
        t.dropped.push(loser);
    }
}

/// A game's end as a tournament counts it: a win of the side that moved
/// first or of the other, or a draw.
pub(super) fn league_outcome(rec: &Record, o: &game::Outcome) -> pbem_league::Outcome {
    match o {
        game::Outcome::Win(s) if *s == rec.first_side() => pbem_league::Outcome::FirstWins,
        game::Outcome::Win(_) => pbem_league::Outcome::SecondWins,
        game::Outcome::Draw => pbem_league::Outcome::Draw,
    }
}
