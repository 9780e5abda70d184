//! Play beyond one game, as a player asks for it by mail:
//! `ratings [GAME]`, `standings [NAME]`, `join NAME` and `leave NAME`.
//! Series, rematches and what follows a game's end are in
//! [`super::series`].
//!
//! What these answers show of other players: their display name from
//! the records, or the local part of their address (`bob`,
//! [`Adjudicator::name_of`]): anyone may ask, and a table is no list of addresses
//! to harvest. Times are in the reader's zone ([`Adjudicator::time_for`]).

use super::confirm::Action;
use super::names::nearest;
use super::*;
use crate::reply::{address_of, mailbox, mailbox_key};
use crate::store::league::TournamentFile;
use pbem_league::pairing::Format;
use pbem_league::standings::TieBreak;
use pbem_league::tournament::Tournament;
use pbem_league::{Game as Pairing, Round};

/// How many players may sign up for one tournament by mail.
pub const MAX_SIGNUPS: usize = 64;

/// How many players of one game the `ratings` answer lists (anyone may
/// ask: what a stranger can make pbem send is bounded).
pub const MAX_RATINGS_LISTED: usize = 50;

/// Why a `join NAME` or `leave NAME` is refused; its words are
/// [`Adjudicator::unenrolled_words`], which every refusal of these
/// commands is given.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Unenrolled {
    /// No tournament is called so.
    NoTournament,
    /// Its sign-up by mail is closed, or there is none; `begins`: when it
    /// begins, when it had one.
    SignupClosed { begins: Option<DateTime<Utc>> },
    /// It has [`MAX_SIGNUPS`] players.
    Full,
    /// `leave` from someone not among its players.
    NotIn,
    /// `leave` after it ended.
    Over,
}

impl Unenrolled {
    /// `join` when `t` takes no sign-ups.
    fn closed(t: &TournamentFile) -> Unenrolled {
        Unenrolled::SignupClosed {
            begins: t.signup.then_some(t.begins),
        }
    }
}

impl Adjudicator<'_> {
    /// `ratings`, `standings`, `join`, `leave`; `game`, the game the mail
    /// answers (for `ratings` and `standings` without a name). The
    /// letters, and whether the command was refused.
    pub(super) fn league_command(
        &self,
        from: &str,
        mail: &Inbound,
        c: &Command,
        game: Option<&str>,
    ) -> Result<(Vec<Letter>, bool)> {
        let record = match game {
            Some(id) => match self.table(id)? {
                Some(Table::Game { record, .. }) => Some(record),
                _ => None,
            },
            None => None,
        };
        let answer = |title: String, text: String| -> Result<(Vec<Letter>, bool)> {
            Ok((vec![self.info(from, &title, &text, None)?], false))
        };
        let refuse = |reason: String| -> Result<(Vec<Letter>, bool)> {
            Ok((
                vec![self.reject(from, None, Refusal::new(c.to_string(), reason))?],
                true,
            ))
        };
        match c {
            Command::Ratings(rules) => {
                let rules = rules.or(record.as_ref().map(|r| r.rules));
                let title = self.words(
                    "title",
                    context! { of => "ratings", game => rules.map(Rules::name) },
                )?;
                answer(title, self.ratings_text(rules)?)
            }
            Command::Standings(name) => {
                let name = name.clone().or_else(|| {
                    record
                        .as_ref()
                        .and_then(|r| r.match_info.tournament.clone())
                });
                let Some(name) = name else {
                    let open = self.open_tournaments(from)?;
                    return refuse(self.words(
                        "which_tournament",
                        context! { command => "standings", open },
                    )?);
                };
                match self.desk.tournament(&name)? {
                    Some(t) => {
                        let title =
                            self.words("title", context! { of => "standings", name => &name })?;
                        answer(title, self.standings_text(&t, from)?)
                    }
                    None => refuse(self.no_tournament(from, &name)?),
                }
            }
            Command::Join(name) if self.entered(from, name)? => {
                let title = self.words("title", context! { of => "join", name })?;
                answer(title, self.already_entered(from, name)?)
            }
            Command::Join(name) | Command::Leave(name) if !self.proven(mail, game) => {
                // What would be refused anyway is refused now, without a
                // request to confirm.
                if let Some(why) = self.enrolment(from, c)? {
                    return refuse(self.unenrolled_words(from, name, &why)?);
                }
                match Action::of(c) {
                    Some(action) => self.ask_confirmation(from, mail, action),
                    None => Ok((Vec::new(), false)),
                }
            }
            Command::Join(_) | Command::Leave(_) => {
                let who = mailbox(mail.from_name.as_deref(), from);
                self.enrol(&who, c, record.as_ref())
            }
            _ => refuse(self.which_game(from)?),
        }
    }

    /// `join NAME` or `leave NAME` (`c`) from `who` ("Name <address>"),
    /// whose mail proved the address (`thread`: the game it answers, if
    /// it does): carried out, or refused. The letters, and whether it was
    /// refused.
    pub(super) fn enrol(
        &self,
        who: &str,
        c: &Command,
        thread: Option<&Record>,
    ) -> Result<(Vec<Letter>, bool)> {
        let from = address_of(who);
        let (name, done) = match c {
            Command::Join(name) => (name, self.join(who, name)?),
            Command::Leave(name) => (name, self.leave(&from, name, thread)?),
            _ => return Ok((Vec::new(), false)),
        };
        match done {
            Ok(text) => {
                let of = if matches!(c, Command::Join(_)) {
                    "join"
                } else {
                    "leave"
                };
                let title = self.words("title", context! { of, name })?;
                Ok((vec![self.info(&from, &title, &text, None)?], false))
            }
            Err(why) => {
                let reason = self.unenrolled_words(&from, name, &why)?;
                let r = self.reject(&from, None, Refusal::new(c.to_string(), reason))?;
                Ok((vec![r], true))
            }
        }
    }

    /// The answer [`Adjudicator::enrol`] gave `who`'s `join NAME` or
    /// `leave NAME` (`c`), carried out before: the same words, read from
    /// the tournament as it now stands.
    pub(super) fn enrolled_again(&self, who: &str, c: &Command) -> Result<(Vec<Letter>, bool)> {
        let from = address_of(who);
        let (Command::Join(name) | Command::Leave(name)) = c else {
            return Ok((Vec::new(), false));
        };
        let t = self.desk.tournament(name)?;
        let seat = t.as_ref().and_then(|t| seat_of(t, &from));
        let (of, text) = match (c, &t, seat) {
            (Command::Join(_), Some(t), Some(seat)) => {
                let until = self.time_for(&from, t.begins)?;
                let count = seat + 1;
                let text = self.words("joined", context! { name, until, again => false, count })?;
                ("join", text)
            }
            (Command::Leave(_), Some(t), seat) if seat.is_none_or(|s| t.dropped.contains(&s)) => {
                let begun = seat.is_some();
                let text = self.words("left", context! { name, begun, resigned => false })?;
                ("leave", text)
            }
            _ => return self.enrol(who, c, None),
        };
        let title = self.words("title", context! { of, name })?;
        Ok((vec![self.info(&from, &title, &text, None)?], false))
    }

    /// What `join NAME` or `leave NAME` (`c`) from `from` would be
    /// refused for before anything is done: the tournament missing, its
    /// sign-up closed or full, the sender not in it or in it already.
    fn enrolment(&self, from: &str, c: &Command) -> Result<Option<Unenrolled>> {
        let (Command::Join(name) | Command::Leave(name)) = c else {
            return Ok(None);
        };
        let Some(t) = self.desk.tournament(name)? else {
            return Ok(Some(Unenrolled::NoTournament));
        };
        let seat = seat_of(&t, from);
        Ok(match c {
            Command::Join(_) if !self.signup_open(&t) => Some(Unenrolled::closed(&t)),
            Command::Join(_) if seat.is_none() && t.players.len() >= MAX_SIGNUPS => {
                Some(Unenrolled::Full)
            }
            Command::Leave(_) if seat.is_none() => Some(Unenrolled::NotIn),
            Command::Leave(_) if t.over => Some(Unenrolled::Over),
            _ => None,
        })
    }

    /// Whether `t` takes sign-ups now: by mail, before its first round,
    /// before it begins.
    fn signup_open(&self, t: &TournamentFile) -> bool {
        t.signup && t.played.is_empty() && t.begins > self.now
    }

    /// The words of a `join NAME` or `leave NAME` refused for `why`, as
    /// `reader` gets them (times in their zone).
    fn unenrolled_words(&self, reader: &str, name: &str, why: &Unenrolled) -> Result<String> {
        match why {
            Unenrolled::NoTournament => self.no_tournament(reader, name),
            Unenrolled::SignupClosed { begins } => {
                let until = match begins {
                    Some(b) => Some(self.time_for(reader, *b)?),
                    None => None,
                };
                self.words("signup_closed", context! { name, until })
            }
            Unenrolled::Full => {
                self.words("tournament_full", context! { name, max => MAX_SIGNUPS })
            }
            Unenrolled::NotIn => self.words("not_in_tournament", context! { name }),
            Unenrolled::Over => self.words("tournament_over", context! { name }),
        }
    }

    /// The ratings of `rules` (every rated game's when none), best first.
    pub(super) fn ratings_text(&self, rules: Option<Rules>) -> Result<String> {
        let mut games = Vec::new();
        for r in rules.map_or_else(|| Rules::ALL.to_vec(), |r| vec![r]) {
            let file = self.desk.ratings(r.slug())?;
            let ranked = file.table.ranked();
            let more = ranked.len().saturating_sub(MAX_RATINGS_LISTED);
            let rows: Vec<minijinja::Value> = ranked
                .iter()
                .take(MAX_RATINGS_LISTED)
                .enumerate()
                .map(|(i, (player, rating))| {
                    context! {
                        place => i + 1, player => self.name_of(player), rating => rating.shown(),
                        deviation => rating.deviation.round() as i64, games => rating.games,
                    }
                })
                .collect();
            if !rows.is_empty() || rules.is_some() {
                games.push(context! { game => r.name(), rows, more });
            }
        }
        self.words("ratings_table", context! { games })
    }

    /// A tournament's standings, for a mail to `reader` (its times in
    /// their zone).
    pub(super) fn standings_text(&self, t: &TournamentFile, reader: &str) -> Result<String> {
        let state = tournament_state(t);
        let tie_break = TieBreak::of(t.format).name();
        let lines = state.standings();
        let rows: Vec<minijinja::Value> = lines
            .iter()
            .map(|l| {
                context! {
                    place => l.place, player => self.name_of(&t.players[l.seat]),
                    points => l.points.to_string(), tie_break => l.tie_break.to_string(),
                    played => l.played(), dropped => t.dropped.contains(&l.seat),
                }
            })
            .collect();
        let rules = Some(t.rules);
        let signup = match t.signup && t.played.is_empty() {
            true => Some(self.time_for(reader, t.begins)?),
            false => None,
        };
        self.words(
            "standings_table",
            context! {
                name => &t.name, game => rules.map(Rules::name), format => t.format.name(),
                round => t.played.len(), rounds => state.last_round(), over => t.over,
                signup,
                players => t.players.len(), tie_break, rows, pairings => self.pairings(t),
            },
        )
    }

    /// The current round's games and bye, for the standings.
    fn pairings(&self, t: &TournamentFile) -> Vec<minijinja::Value> {
        let Some(round) = t.played.last() else {
            return Vec::new();
        };
        let name = |seat: usize| self.name_of(&t.players[seat]);
        let mut out: Vec<minijinja::Value> = round
            .games
            .iter()
            .map(|g| {
                context! {
                    first => name(g.first), second => name(g.second),
                    game => g.game.clone(), forfeit => g.game.is_none(), outcome => g.outcome.map(pbem_league::Outcome::name),
                }
            })
            .collect();
        if let Some(b) = round.bye {
            out.push(context! { bye => name(b) });
        }
        out
    }

    /// `join NAME` from `who` ("Name <address>"), who proved the
    /// address: the words of the answer, or why not. One mailbox (any
    /// `+tag`, any case) is one player.
    fn join(&self, who: &str, name: &str) -> Result<std::result::Result<String, Unenrolled>> {
        let from = address_of(who);
        let Some(mut t) = self.desk.tournament(name)? else {
            return Ok(Err(Unenrolled::NoTournament));
        };
        if seat_of(&t, &from).is_some() {
            return Ok(Ok(self.already_entered(&from, name)?));
        }
        if !self.signup_open(&t) {
            return Ok(Err(Unenrolled::closed(&t)));
        }
        let until = self.time_for(&from, t.begins)?;
        if t.players.len() >= MAX_SIGNUPS {
            return Ok(Err(Unenrolled::Full));
        }
        t.players.push(who.to_string());
        self.desk.write_tournament(&t)?;
        Ok(Ok(self.words(
            "joined",
            context! { name, until, again => false, count => t.players.len() },
        )?))
    }

    /// `leave NAME` from `from`, who proved the address: off the list
    /// before the tournament begins; after, the player drops out and
    /// forfeits the games still to come (`thread`, the game the mail
    /// answers, given up too when it is theirs in this tournament: see
    /// `leaving_resigns`).
    fn leave(
        &self,
        from: &str,
        name: &str,
        thread: Option<&Record>,
    ) -> Result<std::result::Result<String, Unenrolled>> {
        let Some(mut t) = self.desk.tournament(name)? else {
            return Ok(Err(Unenrolled::NoTournament));
        };
        let Some(seat) = seat_of(&t, from) else {
            return Ok(Err(Unenrolled::NotIn));
        };
        if t.over {
            return Ok(Err(Unenrolled::Over));
        }
        if t.played.is_empty() {
            t.players.remove(seat);
            self.desk.write_tournament(&t)?;
            return Ok(Ok(self.words("left", context! { name, begun => false })?));
        }
        if !t.dropped.contains(&seat) {
            t.dropped.push(seat);
            self.desk.write_tournament(&t)?;
        }
        let resigned = thread.is_some_and(|r| r.match_info.tournament.as_deref() == Some(name));
        Ok(Ok(self.words(
            "left",
            context! { name, begun => true, resigned },
        )?))
    }
}

impl Adjudicator<'_> {
    /// Whether `from` is among the players of tournament `name`.
    fn entered(&self, from: &str, name: &str) -> Result<bool> {
        Ok(self
            .desk
            .tournament(name)?
            .is_some_and(|t| seat_of(&t, from).is_some()))
    }

    /// The answer to `join NAME` from `from`, who is among its players
    /// already: where the tournament stands for them.
    fn already_entered(&self, from: &str, name: &str) -> Result<String> {
        let Some(t) = self.desk.tournament(name)? else {
            return self.no_tournament(from, name);
        };
        let begun = !t.played.is_empty();
        let until = self.time_for(from, t.begins)?;
        let dropped = seat_of(&t, from).is_some_and(|s| t.dropped.contains(&s));
        self.words(
            "joined",
            context! {
                name, until, again => true, count => t.players.len(), begun,
                round => t.played.len(), over => t.over, dropped,
            },
        )
    }

    /// Why a tournament called `name` cannot be used: there is none; with
    /// the name nearest to it and the tournaments one can join or follow.
    pub(super) fn no_tournament(&self, reader: &str, name: &str) -> Result<String> {
        let names = self.desk.tournament_names()?;
        let suggestion = nearest(name, names.iter().map(String::as_str));
        let open = self.open_tournaments(reader)?;
        self.words("no_tournament", context! { name, suggestion, open })
    }

    /// The tournaments not over, with what a player can do in each: join
    /// (sign-up open, until when) or follow (`standings`).
    fn open_tournaments(&self, reader: &str) -> Result<Vec<minijinja::Value>> {
        let mut open = Vec::new();
        for name in self.desk.tournament_names()? {
            // A file that does not read is left out of the list.
            let Ok(Some(t)) = self.desk.tournament(&name) else {
                continue;
            };
            if t.over {
                continue;
            }
            let signup = self.signup_open(&t);
            let until = self.time_for(reader, t.begins)?;
            let game = t.rules.name();
            open.push(context! { name, game, signup, until, round => t.played.len() });
        }
        Ok(open)
    }
}

/// The seat of `address`'s mailbox (any `+tag`, any case) in `t`.
fn seat_of(t: &TournamentFile, address: &str) -> Option<usize> {
    let me = mailbox_key(address);
    t.players
        .iter()
        .position(|p| mailbox_key(&address_of(p)) == me)
}

/// The rounds of a Swiss the admin left to pbem: enough for one winner,
/// log2 of the players rounded up (at least 1).
pub fn swiss_rounds(players: usize) -> usize {
    (usize::BITS - players.saturating_sub(1).leading_zeros()).max(1) as usize
}

/// A tournament file as [`pbem_league`] computes with it.
pub fn tournament_state(t: &TournamentFile) -> Tournament {
    Tournament {
        format: t.format,
        players: t.players.len(),
        swiss_rounds: match (t.format, t.rounds) {
            (Format::Swiss, 0) => swiss_rounds(t.players.len()),
            (Format::Swiss, n) => n,
            _ => 0,
        },
        rounds: t
            .played
            .iter()
            .map(|r| Round {
                games: r
                    .games
                    .iter()
                    .map(|g| Pairing {
                        first: g.first,
                        second: g.second,
                        outcome: g.outcome,
                    })
                    .collect(),
                bye: r.bye,
            })
            .collect(),
        dropped: t.dropped.clone(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_swiss_has_enough_rounds_for_one_winner() {
        let rounds: Vec<usize> = [2, 3, 4, 5, 8, 9, 16, 17].map(super::swiss_rounds).to_vec();
        assert_eq!(rounds, [1, 2, 2, 3, 3, 4, 4, 5]);
    }
}
