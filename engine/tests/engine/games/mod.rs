//! One module per game (each game's `engine/src/games/<game>/<slug>.md`): each
//! ruling pinned by a position written as a picture or a move list from the
//! start, and the engine's moves compared with a naive move list written
//! straight from the rule text, on random games and by perft.

mod boom_and_zoom;
mod dragons_teeth;
mod embed;
mod guerrilla_checkers;
mod mad;
mod mad_rooks;
mod toroidal_checkers;
