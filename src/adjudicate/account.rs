//! What is not about one game (issue 3, "Commands"; issue 4): `help`,
//! `rules`, `games` (the sender's games), the refusal of a game command
//! that names no game (which game?), and a player's settings for all
//! their games: `timezone`, `vacation`, `digest`.

use super::*;

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

    /// Commands outside a game: challenge, games, rules, help; and whether
    /// the command was refused.
    pub(super) fn gameless(
        &self,
        from: &str,
        mail: &Inbound,
        c: &Command,
        n: usize,
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
                    let (title, text) = match game {
                        Some(r) => (format!("rules of {}", r.name()), r.rules_text()),
                        None => ("rules".to_string(), crate::rules::listing()),
                    };
                    vec![self.info(from, &title, &text, None)?]
                }
                Command::Games => {
                    vec![self.info(from, "your games", &self.games_of(from)?, None)?]
                }
                Command::Challenge {
                    rules,
                    opponent,
                    order,
                    clock,
                } => return self.challenge(from, mail, n, *rules, opponent, *order, *clock),
                Command::Timezone(_) | Command::Vacation(_) | Command::Digest(_) => {
                    return refuse(
                        c.to_string(),
                        "pbem cannot tell it is you: send it in a reply to a mail from pbem about one of your games (the reply address carries your key); it then applies to all your games",
                    );
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
        for id in self.store.game_ids()? {
            let Some(Table::Game { record, secrets }) = self.table(&id)? else {
                continue;
            };
            let playing = record.players.iter().find(|(_, m)| address_of(m) == who);
            if let Some((side, _)) = playing
                && record.result.as_ref().is_none_or(|(r, _)| r == "*")
                && let Some(key) = secrets.tokens.get(side)
            {
                running.push(format!(
                    "{id} ({}, you play {side}): write to {}",
                    record.rules.name(),
                    self.identity.reply_to(&id, key)
                ));
            }
        }
        let how = "which game? Letter to the last mail pbem sent you about the game: its reply address carries your key";
        Ok(if running.is_empty() {
            format!("{how}. You play no game with pbem now; `challenge GAME ADDRESS` starts one")
        } else {
            format!(
                "{how}. Or write to the game's own address:\n{}",
                running.join("\n")
            )
        })
    }

    pub(super) fn games_of(&self, who: &str) -> Result<String> {
        let mut lines = Vec::new();
        for id in self.store.game_ids()? {
            // A record that is not text is damaged: left out like one
            // that does not parse.
            let text = match self.store.read_game(&id) {
                Ok(Some(text)) => text,
                Ok(None) | Err(StoreError::NotText { .. }) => continue,
                Err(e) => return Err(e.into()),
            };
            let Ok(rec) = Record::parse(&id, &text) else {
                continue;
            };
            if let Some((side, _)) = rec.players.iter().find(|(_, m)| address_of(m) == who) {
                let result = rec.result.as_ref().map(|(r, _)| r.as_str()).unwrap_or("*");
                lines.push(format!(
                    "{id:<16} {:<20} you play {side:<10} {}",
                    rec.rules.name(),
                    match result {
                        "*" => "in play".to_string(),
                        "draw" => "over: drawn".to_string(),
                        r if r == side => "over: you won".to_string(),
                        r => format!("over: {r} won"),
                    }
                ));
                // The way back into the game: its reply address, with the
                // key. It goes to `who` alone, whose key it is (issue 12).
                if result == "*"
                    && let Some(key) = self.store.secrets(&id)?.tokens.get(side.as_str())
                {
                    lines.push(format!(
                        "{:<16} to play, write to {}",
                        "",
                        self.identity.reply_to(&id, key)
                    ));
                }
            }
        }
        for id in self.store.challenge_ids()? {
            if let Some(c) = self.store.challenge(&id)?
                && (address_of(&c.challenger) == who || c.opponent == who)
            {
                let name = c
                    .rules
                    .parse::<Rules>()
                    .map_or(c.rules.clone(), |r| r.name().to_string());
                let state = if c.opponent == who {
                    format!(
                        "{} challenges you: answer accept or decline",
                        address_of(&c.challenger)
                    )
                } else {
                    format!("challenge waiting for {}", c.opponent)
                };
                lines.push(format!("{id:<16} {name:<20} {state}"));
            }
        }
        Ok(if lines.is_empty() {
            "You have no games with pbem yet. Start one with: challenge GAME ADDRESS".into()
        } else {
            lines.join("\n")
        })
    }

    /// `vacation DAYS` (or `vacation off`, `None`) for every running game
    /// with a clock that `who` plays; what became of each, for the reply.
    pub(super) fn vacation(&self, who: &str, days: Option<u32>) -> Result<String> {
        use crate::timecontrol::{Allowance, format_deadline};
        use chrono::Datelike;
        let mut player = self.store.player(who)?;
        let year = self
            .now
            .with_timezone(&player.zone.unwrap_or(chrono_tz::Tz::UTC))
            .year();
        let per_year = self.identity.clocks.vacation_days_per_year;
        let used = player.vacation.used_in(year);
        if let Some(d) = days
            && used + d > per_year
        {
            return Ok(format!(
                "`vacation {d}`: you have {} vacation day{} left in {year} ({per_year} a year); nothing was paused. Hint: book fewer days.",
                per_year - used,
                if per_year - used == 1 { "" } else { "s" }
            ));
        }
        let mut lines = Vec::new();
        let mut paused = false;
        let mut given_back = 0;
        for id in self.store.clock_ids()? {
            // A record that is not text is damaged: left out like one
            // that does not parse.
            let text = match self.store.read_game(&id) {
                Ok(Some(text)) => text,
                Ok(None) | Err(StoreError::NotText { .. }) => continue,
                Err(e) => return Err(e.into()),
            };
            let Ok(rec) = Record::parse(&format!("{id}.toml"), &text) else {
                continue;
            };
            if rec.result.as_ref().is_some_and(|(r, _)| r != "*") {
                continue;
            }
            let Some(side) = rec
                .players
                .iter()
                .find(|(_, m)| address_of(m) == who)
                .and_then(|(n, _)| rec.rules.side_named(n))
            else {
                continue;
            };
            let Some(mut gc) = self.game_clock(&id, &rec)? else {
                continue;
            };
            let zone = gc.state.side(side).zone;
            let line = match days {
                Some(d) => match gc
                    .state
                    .start_vacation(side, d, self.now, &self.identity.clocks)
                {
                    Ok(v) => {
                        paused = true;
                        format!(
                            "{id}: your clock is paused until {}",
                            format_deadline(v.end, zone)
                        )
                    }
                    Err(e) => format!("{id}: {e}"),
                },
                None => match gc.state.end_vacation(side, self.now) {
                    Ok(back) => {
                        given_back = given_back.max(back);
                        format!("{id}: your clock runs again")
                    }
                    Err(e) => format!("{id}: {e}"),
                },
            };
            self.store.write_clock(&id, &gc, &self.identity.clocks)?;
            lines.push(line);
        }
        if lines.is_empty() {
            return Ok("You have no running game with a clock: nothing to pause.".into());
        }
        let now_used = match days {
            Some(d) if paused => used + d,
            None => used.saturating_sub(given_back),
            _ => used,
        };
        if now_used != used {
            player.vacation = Allowance {
                year,
                used_days: now_used,
            };
            self.store.write_player(&player)?;
        }
        let left = per_year.saturating_sub(now_used);
        lines.push(String::new());
        lines.push(format!(
            "You have {left} vacation day{} left in {year} ({per_year} a year, for all your games together).",
            if left == 1 { "" } else { "s" }
        ));
        Ok(lines.join("\n"))
    }

    /// An answer to the sender of a game's mail, with their key.
    pub(super) fn note<G: Game>(&self, t: &Turn<'_, G>, title: &str, text: &str) -> Result<Letter> {
        Ok(Letter {
            reply_to: t.reply_to(self, t.side),
            ..self.info(&t.player(t.side), title, text, Some(t.id))?
        })
    }
}
