//! Game ids: fresh random ids that nothing has, after the
//! game's prefix (its descriptor's `id_prefix`, `bz-...`).

use super::*;

impl Adjudicator<'_> {
    /// A new id for a game of `rules` that nothing has (random,
    /// and never one in use: a challenge must not replace a game).
    pub(super) fn fresh_id(&self, rules: Rules) -> Result<String> {
        for _ in 0..16 {
            let id = self.draw.game_id(rules.id_prefix())?;
            if !self.desk.id_taken(&id)? {
                return Ok(id);
            }
        }
        Err(StoreError::NoFreeId {
            what: "games",
            tries: 16,
        }
        .into())
    }
}
