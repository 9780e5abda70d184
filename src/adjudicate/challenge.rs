//! Challenges: a
//! `challenge` made, answered (`accept`, `decline`) or withdrawn by its
//! challenger, and the game it starts (also for the admin's `pbem new`).

use super::names::public_name;
use super::*;
use crate::reply::{Reply, address_of, mailbox, mailbox_key, unmailable};

/// The bounds on challenges (one mail with 20 `challenge`
/// lines made pbem mail 20 strangers): `[limits]` in pbem.toml; 0 turns a
/// bound off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChallengeLimits {
    /// Challenges one mail may make; the rest are refused.
    pub per_mail: u32,
    /// Challenges from one mailbox waiting for an answer at once.
    pub open: u32,
}

impl Default for ChallengeLimits {
    fn default() -> ChallengeLimits {
        ChallengeLimits {
            per_mail: 2,
            open: 3,
        }
    }
}

/// How long a challenge counts as waiting for an answer.
pub(super) const CHALLENGE_OPEN_DAYS: i64 = 30;

/// A `challenge` command: the game, the opponent as written, who moves
/// first, the clock.
pub(super) struct Asked<'a> {
    pub(super) rules: Rules,
    pub(super) opponent: &'a str,
    pub(super) order: Order,
    pub(super) clock: Option<TimeControl>,
    /// Best of how many games; none, one game.
    pub(super) series: Option<u32>,
    pub(super) rated: bool,
    /// A rematch: the game it follows. One rematch of a game by one
    /// player is one challenge, however often asked.
    pub(super) after: Option<&'a str>,
    /// The mail proved its sender's address (their key, or a DMARC pass
    /// the admin trusts): a game against the bot begins at once, else
    /// once the challenger confirms from their mailbox.
    pub(super) proven: bool,
}

impl Adjudicator<'_> {
    /// A `challenge` (`c`, the `n`th command of `mail` from `from`): the
    /// challenge made (or found again, for a mail handled again) and its
    /// mails to both; or its refusal. Also whether it was refused.
    pub(super) fn challenge(
        &self,
        from: &str,
        mail: &Inbound,
        n: usize,
        c: &Asked<'_>,
    ) -> Result<(Vec<Letter>, bool)> {
        let rules = c.rules;
        let source = challenge_source(from, mail, n, c);
        if let Some(level) = self.identity.bot_level(c.opponent) {
            return self.challenge_bot(from, mail, c, level, source);
        }
        let opponent = match self.opponent(from, c)? {
            Ok(opponent) => opponent,
            Err(refusal) => return Ok((vec![self.reject(from, None, refusal)?], true)),
        };
        let (id, challenge) = match self.challenge_from(&source)? {
            Some(found) => found,
            None => {
                let open = self.open_challenges_of(from)?;
                if self.challenges.open > 0 && open.len() >= self.challenges.open as usize {
                    let reason = self.words(
                        "too_many_open",
                        context! { count => open.len(), ids => open.join(", "), days => CHALLENGE_OPEN_DAYS },
                    )?;
                    let command = format!("challenge {} {opponent}", rules.slug());
                    return Ok((
                        vec![self.reject(from, None, Refusal::new(command, reason))?],
                        true,
                    ));
                }
                self.make_challenge(from, mail, c, &opponent, source)?
            }
        };
        self.challenge_letters(&id, &challenge, rules, &opponent)
    }

    /// The one address a challenge goes to, as pbem will write it, or the
    /// refusal of the challenge (a list or a broken address made
    /// a challenge whose mail to the opponent was never sent, while the
    /// challenger was told it was).
    fn opponent(&self, from: &str, c: &Asked<'_>) -> Result<std::result::Result<String, Refusal>> {
        let command = |opponent: &str| format!("challenge {} {opponent}", c.rules.slug());
        let Ok(opponent) = c
            .opponent
            .parse::<lettre::message::Mailbox>()
            .map(|m| m.email.to_string().to_lowercase())
        else {
            let opponent = c.opponent.to_lowercase();
            let reason = self.words("not_an_address", context! { opponent => &opponent })?;
            return Ok(Err(Refusal::new(command(&opponent), reason)));
        };
        if let Some(why) = unmailable(&opponent) {
            let reason = self.words("unmailable", context! { opponent => &opponent, why })?;
            return Ok(Err(Refusal::new(command(&opponent), reason)));
        }
        // One mailbox is one player, whatever its `+tag` or case: a game
        // against oneself would only feed the ratings.
        if mailbox_key(&opponent) == mailbox_key(from) || !opponent.contains('@') {
            let reason = self.words("yourself", context! {})?;
            return Ok(Err(Refusal::new("challenge", reason)));
        }
        Ok(Ok(opponent))
    }

    /// A new challenge from `from` to `opponent`, with its keys, written;
    /// `source` names the command that made it.
    pub(super) fn make_challenge(
        &self,
        from: &str,
        mail: &Inbound,
        asked: &Asked<'_>,
        opponent: &str,
        source: String,
    ) -> Result<(String, Challenge)> {
        let (rules, order, clock) = (asked.rules, asked.order, asked.clock);
        let opponent = opponent.to_string();
        let id = self.fresh_id(rules)?;
        let first = rules.fixed_first().unwrap_or(Side::A);
        let challenger_side = challenger_side(rules, order, &source);
        let c = Challenge {
            rules,
            challenger: mailbox(mail.from_name.as_deref(), from),
            opponent: opponent.clone(),
            challenger_side,
            first,
            created: chrono::SubsecRound::trunc_subsecs(self.now, 0),
            clock,
            source: Some(source),
            series: asked.series,
            rated: asked.rated,
            after: asked.after.map(str::to_string),
        };
        let mut secrets = Secrets {
            tokens: PerSide::new(Some(self.draw.token()?), Some(self.draw.token()?)),
            players: PerSide::default(),
        };
        secrets.players[challenger_side] = Some(from.to_lowercase());
        secrets.players[challenger_side.other()] = Some(opponent.clone());
        self.desk.write_secrets(&id, rules, &secrets)?;
        self.desk.write_challenge(&id, &c)?;
        Ok((id, c))
    }

    /// The mails of a challenge: to the opponent, and to the challenger.
    fn challenge_letters(
        &self,
        id: &str,
        challenge: &Challenge,
        rules: Rules,
        opponent: &str,
    ) -> Result<(Vec<Letter>, bool)> {
        let id = id.to_string();
        let opponent = opponent.to_string();
        let first = challenge.first;
        let secrets = self.desk.secrets(&id, rules)?;
        let opp_side = challenge.challenger_side.other();
        let board = crate::with_game!(rules, G => crate::mail::board::board(&G::start(first), &View { seat: Some(opp_side), ..View::default() }));
        let i = rules.info();
        let token = |s: Side| secrets.tokens[s].clone().unwrap_or_default();
        Ok((
            vec![
                Letter {
                    to: opponent.clone(),
                    kind: Kind::Challenge,
                    template: "challenge",
                    context: context! { id => id.clone(), game => i.name, slug => i.slug, byline => i.credit.to_string(), challenger => public_name(self.identity, &address_of(&challenge.challenger)), challenger_address => address_of(&challenge.challenger),
                    your_side => rules.side_name(opp_side), first => rules.side_name(first),
                    summary => i.summary, notation => i.notation, board, clock => challenge.clock.map(|c| c.to_string()), clock_words => challenge.clock.map(|c| c.in_words()),
                    series => challenge.series, unrated => !challenge.rated },
                    game: Some(id.clone()),
                    reply_to: Some(self.identity.reply_to(&id, &token(opp_side))),
                },
                Letter {
                    to: challenge.challenger.clone(),
                    kind: Kind::Answer,
                    template: "challenged",
                    context: context! { id => id.clone(), game => i.name, opponent => public_name(self.identity, &opponent), opponent_address => opponent.clone(), your_side => rules.side_name(challenge.challenger_side), first => rules.side_name(first), clock => challenge.clock.map(|c| c.to_string()), clock_words => challenge.clock.map(|c| c.in_words()), series => challenge.series, unrated => !challenge.rated },
                    game: Some(id.clone()),
                    reply_to: Some(self.identity.reply_to(&id, &token(opp_side.other()))),
                },
            ],
            false,
        ))
    }

    /// The ids of the challenges from `from`'s mailbox (any `+tag`) that
    /// wait for an answer, younger than [`CHALLENGE_OPEN_DAYS`].
    pub(super) fn open_challenges_of(&self, from: &str) -> Result<Vec<String>> {
        let who = mailbox_key(from);
        let since = self.now - chrono::Duration::days(CHALLENGE_OPEN_DAYS);
        let mut open = Vec::new();
        for id in self.desk.challenge_ids()? {
            if let Some(c) = self.desk.challenge(&id)?
                && mailbox_key(&address_of(&c.challenger)) == who
                && c.created > since
            {
                open.push(id);
            }
        }
        Ok(open)
    }

    /// The challenge a command made before (its `source`), if any.
    pub(super) fn challenge_from(&self, source: &str) -> Result<Option<(String, Challenge)>> {
        for id in self.desk.challenge_ids()? {
            if let Some(c) = self.desk.challenge(&id)?
                && c.source.as_deref() == Some(source)
            {
                return Ok(Some((id, c)));
            }
        }
        Ok(None)
    }

    /// A mail about a challenge waiting for its answer.
    pub(super) fn answer(&self, m: &GameMail<'_>, rules: Rules, ch: &Challenge) -> Result<Handled> {
        let (from, mail, id, commands) = (m.from, m.mail, m.id, m.commands);
        // The challenger waits for the answer (`wait`); the opponent is to
        // answer.
        let not_yet = |wait: bool| -> Result<Handled> {
            let reason = self.words(
                "challenge_not_answered",
                context! { wait, opponent => public_name(self.identity, &ch.opponent) },
            )?;
            let refusal = Refusal {
                wait,
                ..Refusal::new(summary(commands), reason)
            };
            let r = self.reject(from, Some(id), refusal)?;
            let why = if wait {
                "not answered yet"
            } else {
                "not answered"
            };
            Ok(failed(
                vec![r],
                refused(from, format!("challenge {id} {why}")),
            ))
        };
        if ch.challenger_side == m.side {
            // The challenger, with their key: `decline` withdraws the
            // challenge (so that the bound on open challenges never locks
            // a player out); anything else confirms a challenge to the
            // bot (the key proves the address), and is too early for
            // another.
            match (commands.first(), self.identity.bot_level(&ch.opponent)) {
                (Some(Command::Decline), _) => return self.withdraw(from, id, rules, ch),
                (_, Some(level)) => return self.confirm_bot(from, id, ch, rules, level),
                _ => return not_yet(true),
            }
        }
        match commands.first() {
            Some(Command::Accept) => self.accept(id, ch, rules, mail),
            Some(Command::Decline) => {
                self.desk.remove_challenge(id)?;
                let r = Letter {
                    to: ch.challenger.clone(),
                    kind: Kind::News,
                    template: "declined",
                    context: context! { id, game => rules.name(), opponent => public_name(self.identity, &ch.opponent) },
                    game: Some(id.to_string()),
                    reply_to: None,
                };
                Ok(Handled {
                    letters: vec![r],
                    fate: Fate::ChallengeDeclined {
                        id: id.to_string(),
                        by: from.to_string(),
                    },
                    progress: true,
                    ..Handled::default()
                })
            }
            _ => not_yet(false),
        }
    }

    /// The challenger's `decline`: the challenge is withdrawn, and both
    /// are told (the opponent in a word: pbem's own, none of the
    /// challenger's).
    pub(super) fn withdraw(
        &self,
        from: &str,
        id: &str,
        rules: Rules,
        ch: &Challenge,
    ) -> Result<Handled> {
        self.desk.remove_challenge(id)?;
        let challenger = public_name(self.identity, &address_of(&ch.challenger));
        let opponent = public_name(self.identity, &ch.opponent);
        let replies = [(ch.challenger.clone(), true), (ch.opponent.clone(), false)]
            .into_iter()
            .map(|(to, yours)| {
                Ok(Letter {
                    to,
                    kind: Kind::News,
 template: "withdrawn",
 context: context! { id, game => rules.name(), challenger => challenger.clone(), opponent => opponent.clone(), yours },
                    game: Some(id.to_string()),
                    reply_to: None,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Handled {
            letters: replies,
            fate: Fate::ChallengeWithdrawn {
                id: id.to_string(),
                by: from.to_string(),
            },
            failed: false,
            progress: true,
            ..Handled::default()
        })
    }

    /// Creates game `id` (record and keys) unless it exists; `players`
    /// are each side's "Name <address>"; `match_info`, its series or
    /// tournament. Used by `accept`, a series' next game, a tournament's
    /// rounds and the admin's `pbem new`.
    ///
    /// # Errors
    /// Store failures.
    pub fn start_game(
        &self,
        id: &str,
        rules: Rules,
        first: Option<Side>,
        players: PerSide<String>,
        clock: Option<TimeControl>,
        match_info: record::MatchInfo,
    ) -> Result<()> {
        if self.desk.read_game(id)?.is_some() {
            return Ok(());
        }
        let mut secrets = self.desk.secrets(id, rules)?;
        for token in &mut secrets.tokens.0 {
            if token.is_none() {
                *token = Some(self.draw.token()?);
            }
        }
        secrets.players = players
            .clone()
            .map(|_, m| Some(address_of(&m).to_lowercase()));
        self.desk.write_secrets(id, rules, &secrets)?;
        self.mark_bot_game(id, &players)?;
        let rec = Record {
            file: format!("{id}.toml"),
            format: Some(1),
            rules,
            id: Some(id.to_string()),
            created: Some(self.now.fixed_offset()),
            first,
            result: Some((record::Verdict::Unfinished, 0)),
            players: players.map(|_, m| Some(m)),
            match_info,
            lines: Vec::new(),
        };
        // The clock first: a crash before the record leaves no game, and
        // the next try writes both.
        if let Some(control) = clock {
            self.start_clock(id, control, rec.first_side(), &rec)?;
        }
        self.desk.write_record(id, &rec)?;
        Ok(())
    }

    /// The "game begins" mails of game `id`, one per player.
    ///
    /// # Errors
    /// Store and template failures; a game that does not exist.
    pub fn started(&self, id: &str) -> Result<Vec<Reply>> {
        self.compose(&self.started_letters(id)?)
    }

    /// The letters of [`Adjudicator::started`].
    pub(super) fn started_letters(&self, id: &str) -> Result<Vec<Letter>> {
        let rec = self
            .desk
            .record(id)?
            .ok_or_else(|| StoreError::NoGame { id: id.into() })?;
        let rules = rec.rules;
        let secrets = self.desk.secrets(id, rules)?;
        let clock = self.game_clock(id, &rec)?;
        let shown = self.match_view(&rec)?;
        let tournament = self.tournament_line(&rec, None);
        Ok(crate::with_game!(rules, G => {
                   let pos = G::start(rec.first_side());
                   let mut out = Vec::new();
                   for side in Side::BOTH {
                       let to = rec.players[side].clone().unwrap_or_default();
                       let board = crate::mail::board::board(&pos, &View { seat: Some(side), ..View::default() });
                       let ratings = shown.ratings_before(&to);
                       let series = shown.series(&to);
                       out.push(Letter {
                           to,
                           kind: Kind::News,
        template: "started",
        context: context! {
                               id, game => rules.name(), players => rec.players_by_name().map(|(_, p)| self.name_of(p)).collect::<Vec<_>>().join(" and "),
                               tournament => tournament.clone(),
                               your_side => rules.side_name(side), your_turn => pos.turn() == side,
                               turn => rules.side_name(pos.turn()), board, next => 1, example => example_move::<G>(&pos),
                               deadline => Self::deadline_for(clock.as_ref(), side), clock => clock.as_ref().map(|c| c.state.control.to_string()),
                               ratings, series,
                           },
                           game: Some(id.to_string()),
                           reply_to: secrets.tokens[side].as_ref().map(|t| self.identity.reply_to(id, t)),
                       });
                   }
                   out
               }))
    }

    /// The `[match]` of the game a challenge starts: a series (its file
    /// written, named after its first game) for `series N`; rated or not.
    pub(super) fn match_of_challenge(
        &self,
        id: &str,
        ch: &Challenge,
        rules: Rules,
        players: &PerSide<String>,
    ) -> Result<record::MatchInfo> {
        let mut info = record::MatchInfo {
            rated: ch.rated,
            ..record::MatchInfo::default()
        };
        if let Some(length) = ch.series {
            let opponent = players
                .iter()
                .map(|(_, p)| p)
                .find(|p| address_of(p) != address_of(&ch.challenger))
                .cloned()
                .unwrap_or_else(|| ch.opponent.clone());
            let file = crate::store::league::SeriesFile {
                rules,
                players: [ch.challenger.clone(), opponent],
                length,
                clock: ch.clock,
                rated: ch.rated,
                games: vec![id.to_string()],
            };
            if self.desk.series(id)?.is_none() {
                self.desk.write_series(id, &file)?;
            }
            info.series = Some(id.to_string());
            info.game = Some(1);
            info.of = Some(length);
        }
        Ok(info)
    }

    pub(super) fn accept(
        &self,
        id: &str,
        ch: &Challenge,
        rules: Rules,
        mail: &Inbound,
    ) -> Result<Handled> {
        let first = Some(ch.first);
        let challenger_side = ch.challenger_side;
        let challenger = ch.challenger.clone();
        let opponent = mailbox(mail.from_name.as_deref(), &ch.opponent);
        let players = PerSide::seat(challenger_side, challenger, opponent);
        let info = self.match_of_challenge(id, ch, rules, &players)?;
        self.desk.remove_challenge_after(id, || {
            self.start_game(id, rules, first, players.clone(), ch.clock, info.clone())
        })?;
        let replies = self.started_letters(id)?;
        Ok(Handled {
            letters: replies,
            fate: Fate::ChallengeAccepted { id: id.to_string() },
            failed: false,
            progress: true,
            ..Handled::default()
        })
    }
}

/// What names the `n`th command of `mail`, challenge `c`: a mail handled
/// again after a crash finds the challenge (or bot game) it made by it
/// (a hash of its sender, Message-ID and text, and the command's place
/// in it, as the poll knows a mail again: a stranger's mail with the same
/// Message-ID is another mail); each challenge of a mail is its own. One
/// rematch of a game by one player is one challenge, however often asked.
pub(super) fn challenge_source(from: &str, mail: &Inbound, n: usize, c: &Asked<'_>) -> String {
    match c.after {
        Some(game) => store::strong_hash(&[b"rematch", game.as_bytes(), from.as_bytes()]),
        None => store::strong_hash(&[
            from.as_bytes(),
            mail.message_id.as_deref().unwrap_or_default().as_bytes(),
            mail.body.as_bytes(),
            n.to_string().as_bytes(),
        ]),
    }
}

/// The challenger's side in `rules` by `order`: who moves first is no
/// secret, and the challenger may choose it outright, so for `random` a
/// bit of the command's `source` will do (a mail handled again decides
/// the same).
pub(super) fn challenger_side(rules: Rules, order: Order, source: &str) -> Side {
    let challenger_first = match order {
        Order::First => true,
        Order::Second => false,
        Order::Random => source.starts_with(['8', '9', 'a', 'b', 'c', 'd', 'e', 'f']),
    };
    let first = rules.fixed_first().unwrap_or(Side::A);
    if challenger_first {
        first
    } else {
        first.other()
    }
}
