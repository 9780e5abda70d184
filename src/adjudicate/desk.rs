//! The adjudicator's desk: what it reads and what it decides to change.
//!
//! It reads the data folder through [`Facts`], a read-only port, and
//! writes nothing: each change it decides is an [`Effect`], kept in order
//! on the [`Desk`] and handed to its caller, who applies them
//! (`Store::apply_effects`, in the poll's batch: the same files in the
//! same order as if they had been written one by one). The desk's reads
//! see its own effects first, so a later step of one mail reads what an
//! earlier one decided. Fresh keys and game ids come from a [`Draw`].

use crate::rules::Rules;
use crate::store::analysis::QueuedAnalysis;
use crate::store::bots::BotGame;
use crate::store::conditions::Conditions;
use crate::store::confirm::Confirmation;
use crate::store::league::{RatingsFile, SeriesFile, TournamentFile};
use crate::store::{Challenge, GameClock, Player, Secrets, SecretsFile, StoreError};
use crate::timecontrol::ClockPolicy;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;

type Result<T> = std::result::Result<T, StoreError>;

/// Every read of the data folder the adjudicator needs, as the store's
/// own data types.
pub trait Facts {
    /// The record's text of game `id`, `None` when there is no such game.
    fn read_game(&self, id: &str) -> Result<Option<String>>;
    /// The record of game `id`, read and parsed (syntax only, not
    /// replayed); `None` when there is no such game.
    fn record(&self, id: &str) -> Result<Option<crate::record::Record>> {
        let Some(text) = self.read_game(id)? else {
            return Ok(None);
        };
        crate::store::parse_record(id, &text).map(Some)
    }
    /// The ids of all games, sorted.
    fn game_ids(&self) -> Result<Vec<String>>;
    /// Where game `id`'s record is (named in a damaged game's notice).
    fn game_path(&self, id: &str) -> Result<PathBuf>;
    /// The secrets file of `id` (the default when it has none).
    fn secrets_file(&self, id: &str) -> Result<SecretsFile>;
    /// The game or challenge whose secrets hold `token`.
    fn key_owner(&self, token: &str) -> Result<Option<String>>;
    /// Whether a game, challenge, secrets, clock or request has id `id`.
    fn id_taken(&self, id: &str) -> Result<bool>;
    fn challenge(&self, id: &str) -> Result<Option<Challenge>>;
    fn challenge_ids(&self) -> Result<Vec<String>>;
    /// Where challenge `id`'s file is (named in a damaged one's notice).
    fn challenge_path(&self, id: &str) -> Result<PathBuf>;
    /// The text of challenge `id`'s file as it is, for the addresses in a
    /// file that does not parse.
    fn challenge_text(&self, id: &str) -> Result<Option<String>>;
    fn clock(&self, id: &str) -> Result<Option<GameClock>>;
    fn clock_ids(&self) -> Result<Vec<String>>;
    /// A player's settings (the defaults when they set none).
    fn player(&self, address: &str) -> Result<Player>;
    fn series(&self, id: &str) -> Result<Option<SeriesFile>>;
    fn tournament(&self, name: &str) -> Result<Option<TournamentFile>>;
    fn tournament_names(&self) -> Result<Vec<String>>;
    /// A game's ratings (empty when none was rated yet).
    fn ratings(&self, slug: &str) -> Result<RatingsFile>;
    fn bot_game(&self, id: &str) -> Result<Option<BotGame>>;
    fn bot_game_ids(&self) -> Result<Vec<String>>;
    fn confirmation(&self, id: &str) -> Result<Option<Confirmation>>;
    fn confirmation_ids(&self) -> Result<Vec<String>>;
    /// Game `id`'s conditional moves, `None` when nobody set any.
    fn conditions(&self, id: &str) -> Result<Option<Conditions>>;
    /// Game `id` in the queue of the bot's analyses, if it is.
    fn queued_analysis(&self, id: &str) -> Result<Option<QueuedAnalysis>>;
    /// The text of game `id`'s analysis file, if it has one.
    fn analysis_text(&self, id: &str) -> Result<Option<String>>;

    /// The secrets of `id` side by side, as `rules` names the sides.
    fn secrets(&self, id: &str, rules: Rules) -> Result<Secrets> {
        Ok(self.secrets_file(id)?.by_side(rules))
    }
}

/// Where fresh keys and game ids come from: the OS's randomness for the
/// poll, a seeded source in tests.
pub trait Draw {
    /// A fresh secret key.
    fn token(&self) -> Result<String>;
    /// A fresh random game id after `prefix`.
    fn game_id(&self, prefix: &str) -> Result<String>;
}

/// One change to the data folder the adjudicator decided, applied by its
/// caller in order (`None`: the file is removed).
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    Game {
        id: String,
        text: String,
        /// What the record says of its game, when it was made from one
        /// in hand ([`Desk::write_record`]): the index takes it as it is.
        known: Option<crate::store::index::GameFacts>,
    },
    Secrets {
        id: String,
        rules: Rules,
        secrets: Secrets,
    },
    /// A clock, and with it the deadline index under `policy`.
    Clock {
        id: String,
        clock: GameClock,
        policy: ClockPolicy,
    },
    Challenge {
        id: String,
        challenge: Option<Challenge>,
    },
    Confirmation {
        id: String,
        confirmation: Option<Confirmation>,
    },
    Player(Player),
    Series {
        id: String,
        series: SeriesFile,
    },
    /// Goes to disk after every file changed before it (its rounds name
    /// games).
    Tournament(TournamentFile),
    Ratings {
        slug: String,
        ratings: RatingsFile,
    },
    BotGame {
        id: String,
        game: Option<BotGame>,
    },
    Conditions {
        id: String,
        conditions: Option<Conditions>,
    },
    /// A finished game put in the queue of the bot's analyses.
    AnalysisQueued {
        id: String,
        queued: QueuedAnalysis,
    },
}

impl Effect {
    /// The game id this effect writes (`true`) or removes (`false`) a
    /// file of, among those that keep an id taken.
    fn holds_id(&self) -> Option<(&str, bool)> {
        match self {
            Effect::Game { id, .. } | Effect::Secrets { id, .. } | Effect::Clock { id, .. } => {
                Some((id, true))
            }
            Effect::Challenge { id, challenge } => Some((id, challenge.is_some())),
            Effect::Confirmation { id, confirmation } => Some((id, confirmation.is_some())),
            _ => None,
        }
    }
}

/// The facts as the adjudicator's effects so far leave them, and those
/// effects.
pub struct Desk<'a> {
    facts: &'a dyn Facts,
    effects: RefCell<Vec<Effect>>,
    /// The rules and players of each record written from a [`Record`]
    /// ([`Desk::write_record`]), by the place of its effect among
    /// `effects`: what the thread of a game's mails is headed with,
    /// without parsing the text written again.
    ///
    /// [`Record`]: crate::record::Record
    heads: RefCell<Vec<(usize, GameHead)>>,
}

/// A game's rules and its players' mailboxes, by side.
pub type GameHead = (Rules, Vec<String>);

/// `rec`'s [`GameHead`].
fn head_of(rec: &crate::record::Record) -> GameHead {
    let players = rec.players.given().map(|(_, m)| m.clone()).collect();
    (rec.rules, players)
}

impl<'a> Desk<'a> {
    pub fn new(facts: &'a dyn Facts) -> Desk<'a> {
        Desk {
            facts,
            effects: RefCell::new(Vec::new()),
            heads: RefCell::new(Vec::new()),
        }
    }

    /// The effects decided so far, in order; the desk starts afresh.
    pub fn take(&self) -> Vec<Effect> {
        self.heads.borrow_mut().clear();
        std::mem::take(&mut *self.effects.borrow_mut())
    }

    fn push(&self, e: Effect) -> Result<()> {
        self.effects.borrow_mut().push(e);
        Ok(())
    }

    /// What the newest effect `f` recognises says, if one does.
    fn newest<T>(&self, f: impl Fn(&Effect) -> Option<T>) -> Option<T> {
        self.effects.borrow().iter().rev().find_map(f)
    }

    /// `on_disk` as the effects leave it: the ids `f` finds written are in
    /// it, those it finds removed not; sorted.
    fn ids(
        &self,
        on_disk: Vec<String>,
        f: impl Fn(&Effect) -> Option<(&str, bool)>,
    ) -> Vec<String> {
        let mut ids: BTreeSet<String> = on_disk.into_iter().collect();
        for e in self.effects.borrow().iter() {
            match f(e) {
                Some((id, true)) => ids.insert(id.to_string()),
                Some((id, false)) => ids.remove(id),
                None => false,
            };
        }
        ids.into_iter().collect()
    }

    pub fn write_game(&self, id: &str, text: &str) -> Result<()> {
        self.write_game_known(id, text, None)
    }

    fn write_game_known(
        &self,
        id: &str,
        text: &str,
        known: Option<crate::store::index::GameFacts>,
    ) -> Result<()> {
        self.push(Effect::Game {
            id: id.into(),
            text: text.into(),
            known,
        })
    }

    /// Writes `rec` as game `id`'s record, and keeps its rules and players
    /// for [`Desk::game_head`].
    pub fn write_record(&self, id: &str, rec: &crate::record::Record) -> Result<()> {
        let text = crate::record::write::to_string(rec);
        let head = head_of(rec);
        debug_assert_eq!(
            crate::store::parse_record(id, &text)
                .ok()
                .map(|r| head_of(&r)),
            Some(head.clone()),
            "a record's rules and players read back as written"
        );
        let at = self.effects.borrow().len();
        let known = crate::store::index::GameFacts::of_written(rec).ok();
        self.write_game_known(id, &text, known)?;
        self.heads.borrow_mut().push((at, head));
        Ok(())
    }

    /// Game `id`'s rules and players, as its record reads now; `None` when
    /// there is no such game. A record this desk wrote from a [`Record`]
    /// (and not since) is not parsed again.
    ///
    /// [`Record`]: crate::record::Record
    ///
    /// # Errors
    /// As [`Facts::record`].
    pub fn game_head(&self, id: &str) -> Result<Option<GameHead>> {
        let newest = self
            .effects
            .borrow()
            .iter()
            .rposition(|e| matches!(e, Effect::Game { id: i, .. } if i == id));
        if let Some(at) = newest
            && let Some((_, head)) = self.heads.borrow().iter().find(|(w, _)| *w == at)
        {
            return Ok(Some(head.clone()));
        }
        Ok(self.record(id)?.as_ref().map(head_of))
    }

    pub fn write_secrets(&self, id: &str, rules: Rules, secrets: &Secrets) -> Result<()> {
        self.push(Effect::Secrets {
            id: id.into(),
            rules,
            secrets: secrets.clone(),
        })
    }

    pub fn write_clock(&self, id: &str, clock: &GameClock, policy: &ClockPolicy) -> Result<()> {
        self.push(Effect::Clock {
            id: id.into(),
            clock: clock.clone(),
            policy: policy.clone(),
        })
    }

    pub fn write_challenge(&self, id: &str, c: &Challenge) -> Result<()> {
        self.push(Effect::Challenge {
            id: id.into(),
            challenge: Some(c.clone()),
        })
    }

    pub fn remove_challenge(&self, id: &str) -> Result<()> {
        self.push(Effect::Challenge {
            id: id.into(),
            challenge: None,
        })
    }

    /// Runs `start` (which creates the game), then removes the challenge:
    /// applied in that order, a crash in between leaves the challenge to
    /// be accepted again rather than lost.
    pub fn remove_challenge_after<E: From<StoreError>>(
        &self,
        id: &str,
        start: impl FnOnce() -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        start()?;
        self.remove_challenge(id)?;
        Ok(())
    }

    pub fn write_confirmation(&self, id: &str, c: &Confirmation) -> Result<()> {
        self.push(Effect::Confirmation {
            id: id.into(),
            confirmation: Some(c.clone()),
        })
    }

    pub fn remove_confirmation(&self, id: &str) -> Result<()> {
        self.push(Effect::Confirmation {
            id: id.into(),
            confirmation: None,
        })
    }

    pub fn write_player(&self, player: &Player) -> Result<()> {
        self.push(Effect::Player(player.clone()))
    }

    pub fn write_series(&self, id: &str, s: &SeriesFile) -> Result<()> {
        self.push(Effect::Series {
            id: id.into(),
            series: s.clone(),
        })
    }

    pub fn write_tournament(&self, t: &TournamentFile) -> Result<()> {
        self.push(Effect::Tournament(t.clone()))
    }

    pub fn write_ratings(&self, slug: &str, r: &RatingsFile) -> Result<()> {
        self.push(Effect::Ratings {
            slug: slug.into(),
            ratings: r.clone(),
        })
    }

    /// Game `id`'s conditional moves set (`Some`) or dropped (`None`).
    pub fn set_conditions(&self, id: &str, conditions: Option<Conditions>) -> Result<()> {
        self.push(Effect::Conditions {
            id: id.into(),
            conditions,
        })
    }

    pub fn queue_analysis(&self, id: &str, queued: &QueuedAnalysis) -> Result<()> {
        self.push(Effect::AnalysisQueued {
            id: id.into(),
            queued: queued.clone(),
        })
    }

    pub fn write_bot_game(&self, id: &str, g: &BotGame) -> Result<()> {
        self.push(Effect::BotGame {
            id: id.into(),
            game: Some(g.clone()),
        })
    }
}

impl Facts for Desk<'_> {
    fn read_game(&self, id: &str) -> Result<Option<String>> {
        match self.newest(|e| match e {
            Effect::Game { id: i, text, .. } if i == id => Some(text.clone()),
            _ => None,
        }) {
            Some(text) => Ok(Some(text)),
            None => self.facts.read_game(id),
        }
    }

    fn game_ids(&self) -> Result<Vec<String>> {
        Ok(self.ids(self.facts.game_ids()?, |e| match e {
            Effect::Game { id, .. } => Some((id, true)),
            _ => None,
        }))
    }

    fn game_path(&self, id: &str) -> Result<PathBuf> {
        self.facts.game_path(id)
    }

    fn secrets_file(&self, id: &str) -> Result<SecretsFile> {
        match self.newest(|e| match e {
            Effect::Secrets {
                id: i,
                rules,
                secrets,
            } if i == id => Some(SecretsFile::new(secrets, *rules)),
            _ => None,
        }) {
            Some(file) => Ok(file),
            None => self.facts.secrets_file(id),
        }
    }

    /// The newest secrets of each id this desk wrote first; an id whose
    /// keys it replaced owns none of its old ones.
    fn key_owner(&self, token: &str) -> Result<Option<String>> {
        let mut replaced = HashSet::new();
        for e in self.effects.borrow().iter().rev() {
            if let Effect::Secrets { id, rules, secrets } = e
                && replaced.insert(id.clone())
                && SecretsFile::new(secrets, *rules).holds(token)
            {
                return Ok(Some(id.clone()));
            }
        }
        Ok(self
            .facts
            .key_owner(token)?
            .filter(|id| !replaced.contains(id)))
    }

    fn id_taken(&self, id: &str) -> Result<bool> {
        let written = self
            .effects
            .borrow()
            .iter()
            .any(|e| e.holds_id() == Some((id, true)));
        Ok(written || self.facts.id_taken(id)?)
    }

    fn challenge(&self, id: &str) -> Result<Option<Challenge>> {
        match self.newest(|e| match e {
            Effect::Challenge { id: i, challenge } if i == id => Some(challenge.clone()),
            _ => None,
        }) {
            Some(c) => Ok(c),
            None => self.facts.challenge(id),
        }
    }

    fn challenge_ids(&self) -> Result<Vec<String>> {
        Ok(self.ids(self.facts.challenge_ids()?, |e| match e {
            Effect::Challenge { id, challenge } => Some((id, challenge.is_some())),
            _ => None,
        }))
    }

    fn challenge_path(&self, id: &str) -> Result<PathBuf> {
        self.facts.challenge_path(id)
    }

    fn challenge_text(&self, id: &str) -> Result<Option<String>> {
        self.facts.challenge_text(id)
    }

    fn clock(&self, id: &str) -> Result<Option<GameClock>> {
        match self.newest(|e| match e {
            Effect::Clock { id: i, clock, .. } if i == id => Some(clock.clone()),
            _ => None,
        }) {
            Some(c) => Ok(Some(c)),
            None => self.facts.clock(id),
        }
    }

    fn clock_ids(&self) -> Result<Vec<String>> {
        Ok(self.ids(self.facts.clock_ids()?, |e| match e {
            Effect::Clock { id, .. } => Some((id, true)),
            _ => None,
        }))
    }

    fn player(&self, address: &str) -> Result<Player> {
        let address = address.trim().to_lowercase();
        match self.newest(|e| match e {
            Effect::Player(p) if p.address == address => Some(p.clone()),
            _ => None,
        }) {
            Some(p) => Ok(p),
            None => self.facts.player(&address),
        }
    }

    fn series(&self, id: &str) -> Result<Option<SeriesFile>> {
        match self.newest(|e| match e {
            Effect::Series { id: i, series } if i == id => Some(series.clone()),
            _ => None,
        }) {
            Some(s) => Ok(Some(s)),
            None => self.facts.series(id),
        }
    }

    fn tournament(&self, name: &str) -> Result<Option<TournamentFile>> {
        match self.newest(|e| match e {
            Effect::Tournament(t) if t.name == name => Some(t.clone()),
            _ => None,
        }) {
            Some(t) => Ok(Some(t)),
            None => self.facts.tournament(name),
        }
    }

    fn tournament_names(&self) -> Result<Vec<String>> {
        Ok(self.ids(self.facts.tournament_names()?, |e| match e {
            Effect::Tournament(t) => Some((&t.name, true)),
            _ => None,
        }))
    }

    fn ratings(&self, slug: &str) -> Result<RatingsFile> {
        match self.newest(|e| match e {
            Effect::Ratings { slug: s, ratings } if s == slug => Some(ratings.clone()),
            _ => None,
        }) {
            Some(r) => Ok(r),
            None => self.facts.ratings(slug),
        }
    }

    fn bot_game(&self, id: &str) -> Result<Option<BotGame>> {
        match self.newest(|e| match e {
            Effect::BotGame { id: i, game } if i == id => Some(game.clone()),
            _ => None,
        }) {
            Some(g) => Ok(g),
            None => self.facts.bot_game(id),
        }
    }

    fn bot_game_ids(&self) -> Result<Vec<String>> {
        Ok(self.ids(self.facts.bot_game_ids()?, |e| match e {
            Effect::BotGame { id, game } => Some((id, game.is_some())),
            _ => None,
        }))
    }

    fn confirmation(&self, id: &str) -> Result<Option<Confirmation>> {
        match self.newest(|e| match e {
            Effect::Confirmation {
                id: i,
                confirmation,
            } if i == id => Some(confirmation.clone()),
            _ => None,
        }) {
            Some(c) => Ok(c),
            None => self.facts.confirmation(id),
        }
    }

    fn confirmation_ids(&self) -> Result<Vec<String>> {
        Ok(self.ids(self.facts.confirmation_ids()?, |e| match e {
            Effect::Confirmation { id, confirmation } => Some((id, confirmation.is_some())),
            _ => None,
        }))
    }
    fn conditions(&self, id: &str) -> Result<Option<Conditions>> {
        match self.newest(|e| match e {
            Effect::Conditions { id: i, conditions } if i == id => Some(conditions.clone()),
            _ => None,
        }) {
            Some(c) => Ok(c),
            None => self.facts.conditions(id),
        }
    }

    fn queued_analysis(&self, id: &str) -> Result<Option<QueuedAnalysis>> {
        match self.newest(|e| match e {
            Effect::AnalysisQueued { id: i, queued } if i == id => Some(queued.clone()),
            _ => None,
        }) {
            Some(q) => Ok(Some(q)),
            None => self.facts.queued_analysis(id),
        }
    }

    fn analysis_text(&self, id: &str) -> Result<Option<String>> {
        self.facts.analysis_text(id)
    }
}
