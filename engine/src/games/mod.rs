//! The eight games, one module each, all behind [`crate::game::Game`].
//! Every module has the same files: `mod.rs` (position, setup, play, end),
//! `movegen.rs`, `explain.rs` (why a move is illegal), `diagram.rs`.

pub mod boom_and_zoom;
pub mod dragons_teeth;
pub mod embed;
pub mod guerrilla;
pub mod mad;
pub mod mad_rooks;
pub mod toroidal;

/// "Embed moves are written with square numbers, like 37-29 or 37x29":
/// the answer to stones (`27/36`) in a game of squares, quoting the
/// game's own example moves ([`crate::rules::RulesInfo::examples`]).
pub(crate) fn square_moves_hint(rules: &crate::descriptor::RulesInfo) -> String {
    format!(
        "{} moves are written with square numbers, {}",
        rules.name,
        rules.write_like()
    )
}
