//! Conditional moves: `DATA/conditions/ID.toml`, the moves one player
//! of game `ID` has said to play at once if the opponent answers so.
//! Private (mode 0600, like every file of the store): never in the
//! record, the web archive or the git history. One file a game at most:
//! only the player waiting for the opponent's move holds any.

use super::{Store, StoreError};
use serde::{Deserialize, Serialize};

/// One player's conditional moves in a game, and the position they
/// answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conditions {
    /// The side that set them, by its name in the game's rules.
    pub side: String,
    /// How many moves the game had when they were set: the opponent's
    /// next move, number `after + 1`, is the one they answer.
    pub after: u32,
    /// The game's last move then, as the record writes it (empty before
    /// the first): with `after`, the position they answer, so that a
    /// set the record has moved past is never played.
    #[serde(default)]
    pub last: String,
    /// A secret from the OS's random source in the Message-IDs of the
    /// moves they play (`<if.NONCE.PLY@...>`).
    pub nonce: String,
    /// The lines, `if THEIRS then MINE [if ... then ...]`, moves as the
    /// record writes them; one per answer of the opponent.
    pub lines: Vec<String>,
}

impl Store {
    /// Game `id`'s conditional moves, `None` when nobody set any.
    ///
    /// # Errors
    /// A bad id, I/O errors or a damaged file.
    pub fn conditions(&self, id: &str) -> Result<Option<Conditions>, StoreError> {
        self.read_toml(&self.checked("conditions", id)?)
    }

    /// # Errors
    /// A bad id or any I/O error.
    pub fn write_conditions(&self, id: &str, c: &Conditions) -> Result<(), StoreError> {
        self.write_toml(&self.checked("conditions", id)?, c)
    }

    /// # Errors
    /// A bad id or any I/O error.
    pub fn remove_conditions(&self, id: &str) -> Result<(), StoreError> {
        self.remove_file(&self.checked("conditions", id)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_read_back_and_go() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let c = Conditions {
            side: "white".into(),
            after: 12,
            last: "22-15".into(),
            nonce: "k2x7".into(),
            lines: vec![
                "if 50-42 then 15-8 if 42-35 then 8-1".into(),
                "if 27/36,28/37 then 22x31".into(),
            ],
        };
        store.write_conditions("mad-k2", &c).unwrap();
        assert_eq!(store.conditions("mad-k2").unwrap(), Some(c));
        let text = std::fs::read_to_string(dir.path().join("conditions/mad-k2.toml")).unwrap();
        assert!(text.contains("if 50-42 then 15-8"), "{text}");
        store.remove_conditions("mad-k2").unwrap();
        assert_eq!(store.conditions("mad-k2").unwrap(), None);
        assert!(store.conditions("../x").is_err());
    }
}
