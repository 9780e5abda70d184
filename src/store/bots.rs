//! The games pbem's bot plays: `DATA/bots/ID.toml`, one per
//! bot game in play, which the poll looks through for the bot's turns;
//! removed when the game is over.

use super::{Store, StoreError};
use serde::{Deserialize, Serialize};

/// A bot game: the bot's level, the player it plays, and the command
/// that began it (a mail handled again finds the game it began).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotGame {
    pub level: u8,
    /// The player's address.
    pub player: String,
    /// The hash of the `challenge ... bot` command that began it; none
    /// for a series' next game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// A secret from the OS's random source in the Message-IDs of the
    /// bot's moves (`<bot.ID.PLY.NONCE@...>`): nobody can send a mail
    /// with the id of a move the bot has yet to make. Empty in a game
    /// begun before it was kept: drawn at the bot's next turn.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub nonce: String,
}

impl Store {
    /// Bot game `id`, `None` when it is not one (or is over).
    ///
    /// # Errors
    /// A bad id, I/O errors or a damaged file.
    pub fn bot_game(&self, id: &str) -> Result<Option<BotGame>, StoreError> {
        self.read_toml(&self.checked("bots", id)?)
    }

    /// # Errors
    /// A bad id or any I/O error.
    pub fn write_bot_game(&self, id: &str, g: &BotGame) -> Result<(), StoreError> {
        self.write_toml(&self.checked("bots", id)?, g)
    }

    /// # Errors
    /// A bad id or any I/O error.
    pub fn remove_bot_game(&self, id: &str) -> Result<(), StoreError> {
        self.remove_file(&self.checked("bots", id)?)
    }

    /// The ids of the bot games in play, sorted.
    ///
    /// # Errors
    /// When the folder cannot be read.
    pub fn bot_game_ids(&self) -> Result<Vec<String>, StoreError> {
        self.ids_in("bots")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_game_reads_back_and_goes() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let g = BotGame {
            level: 2,
            player: "ann@example.org".into(),
            source: Some("ab12".into()),
            nonce: "x7k2".into(),
        };
        store.write_bot_game("mad-k2", &g).unwrap();
        assert_eq!(store.bot_game("mad-k2").unwrap(), Some(g));
        assert_eq!(store.bot_game_ids().unwrap(), ["mad-k2"]);
        store.remove_bot_game("mad-k2").unwrap();
        assert_eq!(store.bot_game("mad-k2").unwrap(), None);
        assert!(store.bot_game("../x").is_err());
    }
}
