//! The bot's evaluation of an Embed position: the two ways to
//! win (engine/src/games/embed/embed.md) are the boss's entry into the far row
//! and embedding the enemy boss, so it counts how far each boss has come, how
//! many of the squares around each boss the enemy holds (and how many are left
//! to fill), and the drones, which do the embedding and capturing.

use super::Embed;
use crate::bot::eval::{Evaluate, signed};
use crate::game::Side;

const DRONE: i32 = 30;
/// Per row a boss has come towards its entry row.
const BOSS_PROGRESS: i32 = 12;
/// Per square around a boss its enemy holds, scaled by how full it is.
const EMBEDDING: i32 = 60;

impl Evaluate for Embed {
    fn evaluate(&self) -> i32 {
        let mut v = 0;
        for &p in &self.board {
            if p.abs() == 1 {
                v += signed(if p > 0 { Side::A } else { Side::B }, DRONE);
            }
        }
        for side in Side::BOTH {
            let boss = self.boss(side);
            let row = i32::from(boss.0 / 8);
            let progress = match side {
                Side::A => row,
                Side::B => 7 - row,
            };
            let (held, around) = self.embedding(side);
            let (held, around) = (held as i32, around as i32);
            // Danger grows faster than linearly as the ring closes.
            let danger = EMBEDDING * held * held / around.max(1);
            v += signed(side, BOSS_PROGRESS * progress * progress / 3 - danger);
        }
        v
    }
}
