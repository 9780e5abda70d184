//! pbem's engine (overview written below).

pub mod descriptor;
pub mod diagram;
pub mod game;
pub mod games;
pub mod geom;
pub mod glyph;
pub mod notation;
pub mod play;
pub mod record;
pub mod rules;
pub mod side;
