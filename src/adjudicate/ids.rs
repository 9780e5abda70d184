//! Game ids: the short prefix of each game and fresh random ids that
//! nothing has (issue 13).

use super::*;

impl Adjudicator<'_> {
    /// A new id for a game of `rules` that nothing has (issue 13: random,
    /// and never one in use: a challenge must not replace a game).
    pub(super) fn fresh_id(&self, rules: Rules) -> Result<String> {
        for _ in 0..16 {
            let id = store::new_game_id(id_prefix(rules))?;
            if !self.store.id_taken(&id)? {
                return Ok(id);
            }
        }
        Err(StoreError::Invalid("no free game id after 16 random tries".into()).into())
    }
}

/// Short game-id prefixes.
pub fn id_prefix(r: Rules) -> &'static str {
    match r {
        Rules::BoomAndZoom => "bz",
        Rules::DragonsTeeth => "dt",
        Rules::Embed => "em",
        Rules::Mad => "mad",
        Rules::MadRooks => "mr",
        Rules::MadBishops => "mb",
        Rules::GuerrillaCheckers => "gc",
        Rules::ToroidalCheckers => "tc",
    }
}
