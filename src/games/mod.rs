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
