//! News of a game to its players (a move, a draw offered or declined,
//! the end), the answers to `board` and `moves`, and the move lists they
//! show.

use super::*;
use crate::reply::Reply;

impl Adjudicator<'_> {
    /// The answer to `board` or `moves [SQUARE]`.
    pub(super) fn board_reply<G: Game>(&self, t: &Turn<'_, G>, c: &Command) -> Result<Letter> {
        let rules = G::RULES;
        let (legal, from_sq) = match c {
            Command::Moves { from: f } => {
                // An origin that does not read lists nothing.
                let list: Vec<String> = match f {
                    None => all_moves(t.pos()),
                    Some(f) => match Origin::parse_for(f, rules) {
                        Err(_) => Vec::new(),
                        Ok(o) => game::listed_moves(t.pos())
                            .into_iter()
                            .filter(|(_, n)| o.starts(n, rules.geometry()))
                            .map(|(_, n)| n.canonical(rules.geometry()))
                            .collect(),
                    },
                };
                let legal = if list.is_empty() {
                    self.words("no_moves", context! {})?
                } else {
                    listing(self.templates, &list)?
                };
                (legal, f.clone())
            }
            _ => (String::new(), None),
        };
        let ply = t.ply();
        let mine = t.pos().turn() == t.side && t.replayed.end.is_none();
        Ok(Letter {
            to: t.player(t.side),
            kind: Kind::Answer,
            template: "board",
            context: context! {
                id => t.id, game => rules.name(), board => t.board(),
                legal, from => from_sq, next => mine.then_some(ply + 1), example => example_move(t.pos()),
                deadline => Self::deadline_for(t.clock.as_ref(), t.side), clock => t.clock.as_ref().map(|c| c.state.control.to_string()),
            },
            game: Some(t.id.to_string()),
            reply_to: t.reply_to(self, t.side),
        })
    }

    /// The mails telling both players of the last line of game `id`'s
    /// record (for the admin's `pbem move`).
    ///
    /// # Errors
    /// Store and template failures; a damaged record.
    pub fn news_of(&self, id: &str) -> Result<Vec<Reply>> {
        let rec = self
            .desk
            .record(id)?
            .ok_or_else(|| StoreError::NoGame { id: id.into() })?;
        let secrets = self.desk.secrets(id, rec.rules)?;
        crate::with_game!(rec.rules, G => {
            let replayed = record::replay::<G>(&rec).map_err(|source| StoreError::Record { source })?;
            let mover = replayed.positions.len().checked_sub(2).map(|i| replayed.positions[i].turn()).unwrap_or(Side::A);
            let clock = self.game_clock(id, &rec)?;
            if let Some(gc) = &clock {
                self.desk.write_clock(id, gc, &self.identity.clocks)?;
            }
            self.compose(&self.news::<G>(id, &rec, &replayed, mover, &secrets, clock.as_ref())?)
        })
    }

    /// Tells both players what just happened.
    pub(super) fn news<G: Game>(
        &self,
        id: &str,
        rec: &Record,
        replayed: &record::Replayed<G>,
        mover: Side,
        secrets: &Secrets,
        clock: Option<&GameClock>,
    ) -> Result<Vec<Letter>> {
        let what = match rec.lines.last().map(|l| &l.entry) {
            Some(Entry::Move(m)) => m.clone(),
            Some(Entry::Event(e)) => e.as_str().to_string(),
            None => String::new(),
        };
        // The match is shown when the game ends: read then, once.
        let shown = match replayed.end {
            Some(_) => Some(self.match_view(rec)?),
            None => None,
        };
        let ply = replayed.moves.len();
        let pos = replayed.position();
        let news = News {
            id,
            rec,
            replayed,
            mover,
            clock,
            what,
            shown,
            boards: crate::mail::board::seated(pos, |side| replayed.view(ply, Some(side))),
            example: example_move(pos),
            tournament: self.tournament_line(rec, replayed.end.as_ref().map(|e| &e.outcome)),
        };
        Side::BOTH
            .into_iter()
            .map(|side| self.news_to(&news, side, secrets))
            .collect()
    }

    /// The news to the player of `side`: the game's end, a draw offered
    /// or declined, or a move.
    fn news_to<G: Game>(&self, n: &News<'_, G>, side: Side, secrets: &Secrets) -> Result<Letter> {
        let to = n.rec.players[side].clone().unwrap_or_default();
        let board = n.boards[side].clone();
        let reply_to = secrets.tokens[side]
            .as_ref()
            .map(|t| self.identity.reply_to(n.id, t));
        let (template, context) = match (&n.replayed.end, n.rec.lines.last().map(|l| &l.entry)) {
            (Some(end), _) => {
                let o = super::over::OverFor {
                    id: n.id,
                    rec: n.rec,
                    end,
                    reader: Some(side),
                    to: &to,
                    shown: n.shown.as_ref(),
                    tournament: n.tournament.clone(),
                };
                ("over", self.over_context(&o, board)?)
            }
            (None, Some(Entry::Event(ev))) if is_takeback(*ev) => {
                ("takeback", self.takeback_news(n, side, *ev, board)?)
            }
            (None, Some(Entry::Event(ev))) => ("draw", self.draw_news(n, side, *ev, board)?),
            _ => ("moved", Self::move_news(n, side, board)),
        };
        Ok(Letter {
            kind: Kind::News,
            template,
            context,
            to,
            game: Some(n.id.to_string()),
            reply_to,
        })
    }

    /// The context of the news of a draw offered, declined or agreed
    /// (`ev`), to the player of `side`.
    fn draw_news<G: Game>(
        &self,
        n: &News<'_, G>,
        side: Side,
        ev: Event,
        board: minijinja::Value,
    ) -> Result<minijinja::Value> {
        let name = G::RULES.side_name(n.mover);
        let who = capitalized(name);
        let played = played_with(n.rec);
        let ply = n.replayed.moves.len();
        let words = context! {
            event => ev.as_str(), yours => side == n.mover, who, name, played, ply, what => &n.what,
        };
        let text = self.words("draw_text", words.clone())?;
        let what = self.words("draw_what", words)?;
        let offer_to_you = ev == Event::DrawOffered && side != n.mover;
        Ok(context! { offer_to_you, ..event_context(n, side, what, text, board) })
    }

    /// The context of the news of a move, to the player of `side`.
    fn move_news<G: Game>(
        n: &News<'_, G>,
        side: Side,
        board: minijinja::Value,
    ) -> minijinja::Value {
        let rules = G::RULES;
        let (pos, ply) = (n.replayed.position(), n.replayed.moves.len());
        context! {
            id => n.id, game => rules.name(), mover => rules.side_name(n.mover), move => n.what.clone(), ply, over => false,
            your_turn => pos.turn() == side, turn => rules.side_name(pos.turn()), next => ply + 1, board,
            example => &n.example, deadline => Self::deadline_for(n.clock, side), clock => n.control(),
            tournament => n.tournament.clone(),
        }
    }
}

/// What the news of a game's last line tells both its players alike.
pub(super) struct News<'a, G: Game> {
    pub(super) id: &'a str,
    pub(super) rec: &'a Record,
    pub(super) replayed: &'a record::Replayed<G>,
    /// The side whose line it is.
    pub(super) mover: Side,
    pub(super) clock: Option<&'a GameClock>,
    /// The line's move, or its event's word.
    pub(super) what: String,
    /// The match as the game's end shows it.
    pub(super) shown: Option<super::series::MatchView>,
    pub(super) tournament: Option<minijinja::Value>,
    /// The board from each player's seat.
    pub(super) boards: PerSide<minijinja::Value>,
    /// A legal move in the position, to show the notation.
    pub(super) example: String,
}

impl<G: Game> News<'_, G> {
    /// The game's time control as its mails name it.
    pub(super) fn control(&self) -> Option<String> {
        self.clock.map(|c| c.state.control.to_string())
    }
}

impl Adjudicator<'_> {
    /// What a game's mails say of its tournament, for a game of one: its
    /// name and round, and once `end` is known its result with the
    /// players' names (`won by Bob`, `drawn`), as the standings word it.
    pub(super) fn tournament_line(
        &self,
        rec: &Record,
        end: Option<&game::Outcome>,
    ) -> Option<minijinja::Value> {
        let name = rec.match_info.tournament.as_deref()?;
        let first = rec.first_side();
        let named = |s: Side| {
            rec.players[s]
                .as_deref()
                .map_or_else(String::new, |p| self.name_of(p))
        };
        let result = end.map(|o| {
            super::tournament::league_outcome(rec, o).words(&named(first), &named(first.other()))
        });
        Some(context! { name, round => rec.match_info.round, result })
    }
}

/// What the news of an event (a draw or a takeback offered, answered)
/// says to the player of `side` besides its words (`what`, the subject's,
/// and `text`) and `board`: the game, whose move is next and by when.
pub(super) fn event_context<G: Game>(
    n: &News<'_, G>,
    side: Side,
    what: String,
    text: String,
    board: minijinja::Value,
) -> minijinja::Value {
    let (pos, ply) = (n.replayed.position(), n.replayed.moves.len());
    context! {
        id => n.id, game => G::RULES.name(), what, text, board,
        next => (pos.turn() == side).then_some(ply + 1), example => &n.example,
        deadline => Adjudicator::deadline_for(n.clock, side), clock => n.control(), tournament => n.tournament.clone(),
    }
}

/// `name` with its first letter in upper case: `Black`.
pub(super) fn capitalized(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The move sent in the same mail as the record's last line, an event
/// (`22-15` and `draw`), if there was one.
fn played_with(rec: &Record) -> Option<String> {
    let mut lines = rec.lines.iter().rev();
    let (last, prev) = (lines.next()?, lines.next()?);
    match &prev.entry {
        Entry::Move(m) if prev.message_id.is_some() && prev.message_id == last.message_id => {
            Some(m.clone())
        }
        _ => None,
    }
}

/// The most moves a mail lists; Guerrilla Checkers can have hundreds of
/// thousands of legal capture chains.
pub const MAX_LISTED: usize = 80;

/// Moves a mail lists on one line.
pub(super) const PER_LINE: usize = 10;

/// A list of moves as a mail shows it: one line per square the moves start
/// from (`  from 50: 50-51 50-52 50-53`), at most [`PER_LINE`] moves a line,
/// past [`MAX_LISTED`] the first ones and how many more. Every line starts
/// with a word, so that no line of a list, quoted back in a reply however
/// it is quoted, reads as a move or as several; `""` for none.
pub(super) fn listing(
    templates: &Templates,
    list: &[String],
) -> std::result::Result<String, TemplateError> {
    let mut lines: Vec<minijinja::Value> = Vec::new();
    let mut group: Option<(String, Vec<&str>)> = None;
    let flush = |g: Option<(String, Vec<&str>)>, lines: &mut Vec<minijinja::Value>| {
        if let Some((from, moves)) = g {
            for chunk in moves.chunks(PER_LINE) {
                lines.push(context! { from => &from, moves => chunk.join(" ") });
            }
        }
    };
    for m in list.iter().take(MAX_LISTED) {
        let from = origin_of(m);
        match &mut group {
            Some((f, moves)) if *f == from => moves.push(m),
            _ => {
                flush(group.take(), &mut lines);
                group = Some((from, vec![m]));
            }
        }
    }
    flush(group, &mut lines);
    let more = list.len().saturating_sub(MAX_LISTED);
    templates.words("move_list", context! { lines, more })
}

/// The square (or point) a canonical move starts from: `22` of `22x36x50`,
/// `12` of `L12-28` and `12-20:2`, `27/36` of `27/36,28/37`.
pub(super) fn origin_of(m: &str) -> String {
    m.trim_start_matches(['L', 'l'])
        .split(['-', 'x', ','])
        .next()
        .unwrap_or(m)
        .to_string()
}

/// A legal move to show as an example of the notation.
pub(super) fn example_move<G: Game>(pos: &G) -> String {
    game::first_listed(pos)
        .map(|n| n.canonical(G::RULES.geometry()))
        .unwrap_or_else(|| "22-15".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_move_lists_are_capped_and_grouped() {
        let list: Vec<String> = (0..500).map(|i| format!("{}-{}", i / 20, i)).collect();
        let t = Templates::new(None);
        let s = listing(&t, &list).unwrap();
        assert!(
            s.ends_with("  and 420 more (the command `moves SQUARE` lists those from one square)"),
            "{s}"
        );
        assert!(s.starts_with("  from 0: 0-0 0-1 0-2"), "{s}");
        assert_eq!(s.lines().count(), 9);
        let few: Vec<String> = ["2-9", "2-10", "L3-19", "27/36,28/37", "27/36,29/38"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            listing(&t, &few).unwrap(),
            "  from 2: 2-9 2-10\n  from 3: L3-19\n  from 27/36: 27/36,28/37 27/36,29/38"
        );
    }
}
