//! The adjudicator's ports on the data folder: the store answers its
//! reads ([`Facts`]), the OS's randomness its draws ([`Draw`]), and
//! [`Store::apply_effects`] carries out the changes it decided, in the
//! order it decided them.

use crate::adjudicate::{Draw, Effect, Facts};
use crate::store::analysis::QueuedAnalysis;
use crate::store::bots::BotGame;
use crate::store::confirm::Confirmation;
use crate::store::league::{RatingsFile, SeriesFile, TournamentFile};
use crate::store::{self, Challenge, GameClock, Player, SecretsFile, Store, StoreError};
use std::path::PathBuf;

type Result<T> = std::result::Result<T, StoreError>;

impl Facts for Store {
    fn read_game(&self, id: &str) -> Result<Option<String>> {
        Store::read_game(self, id)
    }
    fn game_ids(&self) -> Result<Vec<String>> {
        Store::game_ids(self)
    }
    fn game_path(&self, id: &str) -> Result<PathBuf> {
        Store::game_path(self, id)
    }
    fn secrets_file(&self, id: &str) -> Result<SecretsFile> {
        Store::secrets_file(self, id)
    }
    fn key_owner(&self, token: &str) -> Result<Option<String>> {
        Store::key_owner(self, token)
    }
    fn id_taken(&self, id: &str) -> Result<bool> {
        Store::id_taken(self, id)
    }
    fn challenge(&self, id: &str) -> Result<Option<Challenge>> {
        Store::challenge(self, id)
    }
    fn challenge_ids(&self) -> Result<Vec<String>> {
        Store::challenge_ids(self)
    }
    fn challenge_path(&self, id: &str) -> Result<PathBuf> {
        Store::challenge_path(self, id)
    }
    /// As on disk: the batch never holds a challenge that does not parse.
    fn challenge_text(&self, id: &str) -> Result<Option<String>> {
        let p = Store::challenge_path(self, id)?;
        match std::fs::read_to_string(&p) {
            Ok(text) => Ok(Some(text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(crate::store::io_err(&p)(e)),
        }
    }
    fn clock(&self, id: &str) -> Result<Option<GameClock>> {
        Store::clock(self, id)
    }
    fn clock_ids(&self) -> Result<Vec<String>> {
        Store::clock_ids(self)
    }
    fn player(&self, address: &str) -> Result<Player> {
        Store::player(self, address)
    }
    fn series(&self, id: &str) -> Result<Option<SeriesFile>> {
        Store::series(self, id)
    }
    fn tournament(&self, name: &str) -> Result<Option<TournamentFile>> {
        Store::tournament(self, name)
    }
    fn tournament_names(&self) -> Result<Vec<String>> {
        Store::tournament_names(self)
    }
    fn ratings(&self, slug: &str) -> Result<RatingsFile> {
        Store::ratings(self, slug)
    }
    fn bot_game(&self, id: &str) -> Result<Option<BotGame>> {
        Store::bot_game(self, id)
    }
    fn bot_game_ids(&self) -> Result<Vec<String>> {
        Store::bot_game_ids(self)
    }
    fn confirmation(&self, id: &str) -> Result<Option<Confirmation>> {
        Store::confirmation(self, id)
    }
    fn confirmation_ids(&self) -> Result<Vec<String>> {
        Store::confirmation_ids(self)
    }
    fn conditions(&self, id: &str) -> Result<Option<crate::store::conditions::Conditions>> {
        Store::conditions(self, id)
    }
    fn queued_analysis(&self, id: &str) -> Result<Option<QueuedAnalysis>> {
        Store::queued_analysis(self, id)
    }
    fn analysis_text(&self, id: &str) -> Result<Option<String>> {
        Store::analysis_text(self, id)
    }
}

/// Keys and game ids from the OS's randomness.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsRandom;

impl Draw for OsRandom {
    fn token(&self) -> Result<String> {
        store::new_token()
    }
    fn game_id(&self, prefix: &str) -> Result<String> {
        store::new_game_id(prefix)
    }
}

impl Store {
    /// Carries out the adjudicator's `effects`, in order. On a batch view
    /// they wait for [`Store::sync`] in the order of each file's first
    /// change, exactly as if the adjudicator had written them itself.
    ///
    /// # Errors
    /// A bad id or any I/O error; the effects before it are done.
    pub fn apply_effects(&self, effects: &[Effect]) -> Result<()> {
        for e in effects {
            match e {
                Effect::Game { id, text, known } => {
                    self.write_game_known(id, text, known.clone())?
                }
                Effect::Secrets { id, rules, secrets } => {
                    self.write_secrets(id, *rules, secrets)?
                }
                Effect::Clock { id, clock, policy } => self.write_clock(id, clock, policy)?,
                Effect::Challenge { id, challenge } => match challenge {
                    Some(c) => self.write_challenge(id, c)?,
                    None => self.remove_challenge(id)?,
                },
                Effect::Confirmation { id, confirmation } => match confirmation {
                    Some(c) => self.write_confirmation(id, c)?,
                    None => self.remove_confirmation(id)?,
                },
                Effect::Player(p) => self.write_player(p)?,
                Effect::Series { id, series } => self.write_series(id, series)?,
                Effect::Tournament(t) => self.write_tournament(t)?,
                Effect::Ratings { slug, ratings } => self.write_ratings(slug, ratings)?,
                Effect::BotGame { id, game } => match game {
                    Some(g) => self.write_bot_game(id, g)?,
                    None => self.remove_bot_game(id)?,
                },
                Effect::Conditions { id, conditions } => match conditions {
                    Some(c) => self.write_conditions(id, c)?,
                    None => self.remove_conditions(id)?,
                },
                Effect::AnalysisQueued { id, queued } => self.queue_analysis(id, queued)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adjudicate::Desk;
    use crate::game::PerSide;
    use crate::rules::Rules;
    use crate::store::{Secrets, parse_record};

    fn secrets(key: &str) -> Secrets {
        Secrets {
            tokens: PerSide::new(Some(key.into()), None),
            ..Secrets::default()
        }
    }

    #[test]
    fn the_desk_reads_its_own_changes_and_the_disk_sees_them_once_applied() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        store.write_game("bz-old", "old").unwrap();
        let bot = BotGame {
            level: 1,
            player: "vic@example.org".into(),
            source: None,
            nonce: "n".into(),
        };
        store.write_bot_game("bz-old", &bot).unwrap();
        let desk = Desk::new(&store);
        desk.write_game("bz-new", "new").unwrap();
        desk.write_game("bz-old", "changed").unwrap();
        desk.write_secrets("bz-new", Rules::BoomAndZoom, &secrets("k1"))
            .unwrap();
        let mut player = Facts::player(&desk, "Vic@Example.org").unwrap();
        player.name = Some("Vic".into());
        desk.write_player(&player).unwrap();

        // The desk's reads see its changes; the store has none of them.
        assert_eq!(
            Facts::read_game(&desk, "bz-old").unwrap().as_deref(),
            Some("changed")
        );
        assert_eq!(Facts::game_ids(&desk).unwrap(), ["bz-new", "bz-old"]);
        assert_eq!(
            Facts::key_owner(&desk, "k1").unwrap().as_deref(),
            Some("bz-new")
        );
        assert!(Facts::id_taken(&desk, "bz-new").unwrap());
        assert_eq!(
            Facts::player(&desk, "vic@example.org")
                .unwrap()
                .name
                .as_deref(),
            Some("Vic")
        );
        assert_eq!(store.read_game("bz-old").unwrap().as_deref(), Some("old"));
        assert_eq!(store.game_ids().unwrap(), ["bz-old"]);
        assert!(!store.id_taken("bz-new").unwrap());

        // Applied in order, the store holds what the desk read.
        let effects = desk.take();
        assert_eq!(effects.len(), 4);
        store.apply_effects(&effects).unwrap();
        assert_eq!(
            store.read_game("bz-old").unwrap().as_deref(),
            Some("changed")
        );
        assert_eq!(store.key_owner("k1").unwrap().as_deref(), Some("bz-new"));
        assert_eq!(
            store.player("vic@example.org").unwrap().name.as_deref(),
            Some("Vic")
        );
        assert_eq!(Facts::bot_game_ids(&desk).unwrap(), ["bz-old"]);
    }

    #[test]
    fn keys_the_desk_replaced_own_nothing_and_new_ones_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        store
            .write_secrets("bz-1", Rules::BoomAndZoom, &secrets("old"))
            .unwrap();
        let desk = Desk::new(&store);
        assert_eq!(
            Facts::key_owner(&desk, "old").unwrap().as_deref(),
            Some("bz-1")
        );
        desk.write_secrets("bz-1", Rules::BoomAndZoom, &secrets("new"))
            .unwrap();
        assert_eq!(Facts::key_owner(&desk, "old").unwrap(), None);
        assert_eq!(
            Facts::key_owner(&desk, "new").unwrap().as_deref(),
            Some("bz-1")
        );
    }

    /// A Boom & Zoom record of one move between `black` and `red`.
    fn record_of(black: &str, red: &str) -> String {
        format!(
            "rules = \"boom-and-zoom\"\nid = \"bz-1\"\nfirst = \"red\"\n\n\
             [players]\nblack = \"{black}\"\nred = \"{red}\"\n\n\
             [play]\nmoves = \"\"\"\n1. red 58-50 2026-11-19T10:00:00Z\n\"\"\"\n"
        )
    }

    #[test]
    fn a_game_head_is_the_record_as_it_reads_now() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        store
            .write_game(
                "bz-1",
                &record_of("Ann <ann@example.org>", "bob@example.org"),
            )
            .unwrap();
        let desk = Desk::new(&store);
        let head = |desk: &Desk| desk.game_head("bz-1").unwrap().unwrap();
        let on_disk = head(&desk);
        assert_eq!(
            on_disk,
            (
                Rules::BoomAndZoom,
                vec![
                    "Ann <ann@example.org>".to_string(),
                    "bob@example.org".to_string()
                ]
            )
        );
        // Written from a record: kept, and what the text reads.
        let rec =
            parse_record("bz-1", &record_of("Cy <cy@example.org>", "bob@example.org")).unwrap();
        desk.write_record("bz-1", &rec).unwrap();
        let written = head(&desk);
        assert_eq!(written.1[0], "Cy <cy@example.org>");
        let text = desk.read_game("bz-1").unwrap().unwrap();
        let read = parse_record("bz-1", &text).unwrap();
        assert_eq!(
            written.1,
            read.players
                .given()
                .map(|(_, m)| m.clone())
                .collect::<Vec<_>>()
        );
        // Written again as text: read from that text, not kept.
        desk.write_game(
            "bz-1",
            &record_of("Dee <dee@example.org>", "eve@example.org"),
        )
        .unwrap();
        assert_eq!(head(&desk).1, ["Dee <dee@example.org>", "eve@example.org"]);
        // The effects taken: the store's record again.
        desk.take();
        assert_eq!(head(&desk), on_disk);
    }
}
