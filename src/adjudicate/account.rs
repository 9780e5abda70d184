//! What is not about one game: `help`,
//! `rules`, `games` (the sender's games), the refusal of a game command
//! that names no game (which game?), and a player's settings for all
//! their games: `timezone`, `vacation`, `digest`.

use super::damage::damaged_record;
use super::*;
use crate::record::Verdict;
use crate::reply::address_of;

impl Adjudicator<'_> {
    pub(super) fn info(
        &self,
        to: &str,
        title: &str,
        text: &str,
        game: Option<&str>,
    ) -> Result<Letter> {
        Ok(Letter {
            to: to.to_string(),
            kind: Kind::Answer,
            template: "info",
            context: context! { id => game, title, text },
            game: game.map(str::to_string),
            reply_to: None,
        })
    }

    /// Commands outside a game: challenge, games, rules, help, ratings,
    /// standings, join, leave; and whether the command was refused.
    /// `thread`: the game whose thread the mail is in, if its sender plays
    /// it.
    pub(super) fn gameless(
        &self,
        from: &str,
        mail: &Inbound,
        c: &Command,
        n: usize,
        thread: Option<&str>,
    ) -> Result<(Vec<Letter>, bool)> {
        let refuse = |command: String, reason: &str| -> Result<(Vec<Letter>, bool)> {
            Ok((
                vec![self.reject(from, None, Refusal::new(command, reason))?],
                true,
            ))
        };
        Ok((
            match c {
                Command::Help => vec![Letter {
                    to: from.to_string(),
                    kind: Kind::Answer,
                    template: "help",
                    context: context! { games => Rules::ALL.map(|r| r.slug()).join(", ") },
                    game: None,
                    reply_to: None,
                }],
                Command::Rules { game } => {
                    let title = self.words(
                        "title",
                        context! { of => "rules", game => game.map(Rules::name) },
                    )?;
                    let text = game.map_or_else(crate::rules::listing, Rules::rules_text);
                    vec![self.info(from, &title, &text, None)?]
                }
                Command::Games => {
                    let title = self.words("title", context! { of => "games" })?;
                    vec![self.info(from, &title, &self.games_of(from)?, None)?]
                }
                Command::Challenge {
                    rules,
                    opponent,
                    order,
                    clock,
                    series,
                    rated,
                } => {
                    let opponent = match opponent {
                        Opponent::Player(address) => address.clone(),
                        Opponent::Bot(level) => self.identity.bot_address(*level),
                    };
                    let asked = Asked {
                        rules: *rules,
                        opponent: &opponent,
                        order: *order,
                        clock: *clock,
                        series: *series,
                        rated: *rated,
                        after: None,
                        proven: self.proven(mail, thread),
                    };
                    return self.challenge(from, mail, n, &asked);
                }
                Command::Ratings(_)
                | Command::Standings(_)
                | Command::Join(_)
                | Command::Leave(_) => {
                    return self.league_command(from, mail, c, thread);
                }
                Command::Timezone(_) | Command::Vacation(_) | Command::Digest(_) => {
                    let reason = self.words("setting_without_key", context! {})?;
                    return refuse(c.to_string(), &reason);
                }
                other => return refuse(other.to_string(), &self.which_game(from)?),
            },
            false,
        ))
    }

    /// The refusal of a game command that names no game: the sender's
    /// running games, each with the address that reaches it (their key in
    /// it: this mail goes to the sender's address alone).
    pub(super) fn which_game(&self, who: &str) -> Result<String> {
        let mut running = Vec::new();
        for id in self.desk.game_ids()? {
            let Some(Table::Game { record, secrets }) = self.table(&id)? else {
                continue;
            };
            let playing = record.side_of_player(|m| address_of(m) == who);
            if let Some(side) = playing
                && !record.verdict().is_over()
                && let Some(key) = &secrets.tokens[side]
            {
                running.push(context! {
                    address => self.identity.reply_to(&id, key), id, game => record.rules.name(),
                    side => record.rules.side_name(side),
                });
            }
        }
        self.words("which_game", context! { running })
    }

    /// Game `id`'s record, `None` when there is none or it is damaged:
    /// the lists of a player's games leave a damaged one out.
    fn sound_record(&self, id: &str) -> Result<Option<Record>> {
        match self.desk.record(id) {
            Err(e) if damaged_record(&e) => Ok(None),
            read => Ok(read?),
        }
    }

    /// The answer to `games`: the sender's games and challenges, each
    /// with its state, and the address to play a running game at.
    pub(super) fn games_of(&self, who: &str) -> Result<String> {
        let mut rows = Vec::new();
        for id in self.desk.game_ids()? {
            let Some(rec) = self.sound_record(&id)? else {
                continue;
            };
            if let Some(side) = rec.side_of_player(|m| address_of(m) == who) {
                let side_name = rec.rules.side_name(side);
                let result = rec.verdict();
                let outcome = match result {
                    Verdict::Unfinished => "in_play",
                    Verdict::Drawn => "drawn",
                    Verdict::Won(w) if w == side => "you_won",
                    Verdict::Won(_) => "you_lost",
                };
                // Whose move it is in a running game: the reader's, or
                // their opponent's, by name.
                let turn = (!result.is_over())
                    .then(|| {
                        crate::with_game!(rec.rules, G => record::replay::<G>(&rec)
                            .ok()
                            .filter(|r| r.end.is_none())
                            .map(|r| if r.position().turn() == side { "yours" } else { "theirs" }))
                    })
                    .flatten();
                let opponent = rec.players[side.other()]
                    .as_deref()
                    .map(|p| self.name_of(p));
                // The way back into the game: its reply address, with the
                // key. It goes to `who` alone, whose key it is.
                let address = match result {
                    Verdict::Unfinished => self.desk.secrets(&id, rec.rules)?.tokens[side]
                        .as_ref()
                        .map(|key| self.identity.reply_to(&id, key)),
                    _ => None,
                };
                rows.push(context! {
                    id => format!("{id:<16}"), game => format!("{:<20}", rec.rules.name()),
                    side => format!("{side_name:<10}"), outcome, turn, opponent, address,
                    blank => format!("{:<16}", ""),
                });
            }
        }
        for id in self.desk.challenge_ids()? {
            if let Some(c) = self.desk.challenge(&id)?
                && (address_of(&c.challenger) == who || c.opponent == who)
            {
                let name = c.rules.name();
                rows.push(context! {
                    id => format!("{id:<16}"), game => format!("{name:<20}"), challenge => true,
                    to_you => c.opponent == who, challenger => super::public_name(self.identity, &address_of(&c.challenger)),
                    opponent => super::public_name(self.identity, &c.opponent),
                });
            }
        }
        self.words("games_list", context! { rows })
    }

    /// `vacation DAYS` (or `vacation off`, `None`) for every running game
    /// with a clock that `who` plays; what became of each, for the reply.
    pub(super) fn vacation(&self, who: &str, days: Option<u32>) -> Result<String> {
        use crate::timecontrol::Allowance;
        use chrono::Datelike;
        let mut player = self.desk.player(who)?;
        let year = self
            .now
            .with_timezone(&player.zone.unwrap_or(chrono_tz::Tz::UTC))
            .year();
        let per_year = self.identity.clocks.vacation_days_per_year;
        let used = player.vacation.used_in(year);
        if let Some(d) = days
            && used + d > per_year
        {
            return self.words(
                "vacation_too_long",
                context! { days => d, left => per_year - used, year, per_year },
            );
        }
        let tally = self.vacation_in_games(who, days)?;
        let lines = &tally.lines;
        if lines.is_empty() {
            return self.words("vacation_done", context! { lines });
        }
        let now_used = tally.days_used(used, days);
        if now_used != used {
            player.vacation = Allowance {
                year,
                used_days: now_used,
            };
            self.desk.write_player(&player)?;
        }
        let left = per_year.saturating_sub(now_used);
        self.words("vacation_done", context! { lines, left, year, per_year })
    }

    /// Starts (or ends, `days` being `None`) the vacation of `who` in each
    /// running game with a clock they play, writing each clock.
    fn vacation_in_games(&self, who: &str, days: Option<u32>) -> Result<VacationTally> {
        let mut tally = VacationTally::default();
        for id in self.desk.clock_ids()? {
            let Some(rec) = self.sound_record(&id)? else {
                continue;
            };
            if rec.verdict().is_over() {
                continue;
            }
            let Some(side) = rec.side_of_player(|m| address_of(m) == who) else {
                continue;
            };
            let Some(mut gc) = self.game_clock(&id, &rec)? else {
                continue;
            };
            let line = self.vacation_in_game(&id, side, &mut gc, days, &mut tally);
            self.desk.write_clock(&id, &gc, &self.identity.clocks)?;
            tally.lines.push(line);
        }
        Ok(tally)
    }

    /// Pauses `side`'s clock `gc` of game `id` for `days` (or resumes
    /// it), counting what that did in `tally`; the game's line of the
    /// answer.
    fn vacation_in_game(
        &self,
        id: &str,
        side: Side,
        gc: &mut GameClock,
        days: Option<u32>,
        tally: &mut VacationTally,
    ) -> minijinja::Value {
        let zone = gc.state.side(side).zone;
        match days {
            Some(d) => match gc
                .state
                .start_vacation(side, d, self.now, &self.identity.clocks)
            {
                Ok(v) => {
                    tally.paused = true;
                    let until = crate::timecontrol::format_deadline(v.end, zone);
                    context! { id, until }
                }
                Err(e) => context! { id, error => e.to_string() },
            },
            None => match gc.state.end_vacation(side, self.now) {
                Ok(back) => {
                    tally.given_back = tally.given_back.max(back);
                    context! { id, again => true }
                }
                Err(e) => context! { id, error => e.to_string() },
            },
        }
    }

    /// An answer to the sender of a game's mail, with their key: `text`
    /// under the title `of` names (a block `title` of `_words.txt`).
    pub(super) fn note<G: Game>(&self, t: &Turn<'_, G>, of: &str, text: &str) -> Result<Letter> {
        let title = self.words("title", context! { of })?;
        Ok(Letter {
            reply_to: t.reply_to(self, t.side),
            ..self.info(&t.player(t.side), &title, text, Some(t.id))?
        })
    }

    /// A player's setting for all their games, sent in a game's mail:
    /// `timezone`, `vacation` or `digest`; the answer goes to `t`.
    pub(super) fn setting<G: Game>(&self, t: &mut Turn<'_, G>, c: &Command) -> Result<()> {
        let me = G::RULES.side_name(t.side);
        let zone_name =
            |z: Option<chrono_tz::Tz>| z.map_or("UTC".to_string(), |z| z.name().to_string());
        let (of, text) = match c {
            Command::Timezone(zone) => {
                let mut p = self.desk.player(t.from)?;
                p.zone = *zone;
                self.desk.write_player(&p)?;
                if let Some(gc) = &mut t.clock {
                    gc.state.set_zone(t.side, *zone);
                }
                let weekends = t
                    .clock
                    .as_ref()
                    .is_some_and(|c| c.state.control.weekends_free);
                let now = crate::timecontrol::format_deadline(self.now, *zone);
                let text = self.words(
                    "timezone_set",
                    context! { zone => zone_name(*zone), weekends, now },
                )?;
                t.fates.push(format!("{me} set the time zone"));
                ("timezone", text)
            }
            Command::Vacation(days) => {
                let text = self.vacation(t.from, *days)?;
                // The vacation was written to this game's clock too.
                t.clock = self.game_clock(t.id, &t.rec)?;
                t.fates.push(format!("{me}: {c}"));
                ("vacation", text)
            }
            Command::Digest(mode) => {
                use crate::timecontrol::DigestMode;
                let mut p = self.desk.player(t.from)?;
                p.digest = *mode;
                self.desk.write_player(&p)?;
                let (mode, hour) = match mode {
                    DigestMode::Off => ("off", None),
                    DigestMode::PerPoll => ("per_poll", None),
                    DigestMode::Daily { hour } => ("daily", Some(format!("{hour:02}"))),
                };
                let text = self.words(
                    "digest_set",
                    context! { mode, hour, zone => zone_name(p.zone) },
                )?;
                t.fates.push(format!("{me}: {c}"));
                ("digest", text)
            }
            _ => return Ok(()),
        };
        let reply = self.note(t, of, &text)?;
        t.replies.push(reply);
        Ok(())
    }
}

/// What `vacation` did across a player's games: each game's line of the
/// answer, whether any clock paused, and the most days a game gave back.
#[derive(Default)]
struct VacationTally {
    lines: Vec<minijinja::Value>,
    paused: bool,
    given_back: u32,
}

impl VacationTally {
    /// The player's vacation days used this year after `days` (`None`:
    /// back from vacation), having used `used` before: days asked count
    /// only when a clock paused for them; the days a return gave back are
    /// the most any one game gave (a vacation is one stretch of time in
    /// all its games).
    fn days_used(&self, used: u32, days: Option<u32>) -> u32 {
        match days {
            Some(d) if self.paused => used + d,
            None => used.saturating_sub(self.given_back),
            _ => used,
        }
    }
}
