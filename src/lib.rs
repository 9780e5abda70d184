//! pbem: a play-by-email adjudicator for eight board games.
//!
//! # Architecture
//!
//! ```text
//! mail -> command -> record -> rules -> reply
//! ```
//!
//! - [`geom`], [`notation`]: squares, directions, points; the syntax of
//!   moves (parsed without a position, RULES.md "Canonical notation").
//! - [`game`]: the [`game::Game`] trait every game implements, and the
//!   generic code on it: resolving notation against a position, checked
//!   play, the errors players see, perft.
//! - [`rules`]: the closed [`rules::Rules`] enum of the eight games and
//!   [`with_game!`], the one place where a runtime game meets generic code.
//! - [`games`]: one module per game (RULES.md sections 1-8).
//! - [`diagram`]: the ASCII board shared by all games.
//! - [`record`]: the game record (RECORD.md): reading with line numbers
//!   (syntax only), replay (legality), writing (canonical, atomic).
//! - [`timecontrol`]: clocks (issue 4): time controls, deadlines,
//!   reminders, loss on time, vacations, weekends, digests; pure, the
//!   time passed in.
//! - [`cli`]: the subcommands.
//!
//! Layers do not leak: the rules never see text or files, and the record
//! reader never checks legality; replay joins them.

#![forbid(unsafe_code)]

pub mod adjudicate;
// The engine's modules at their old paths (`pbem::game`, `crate::rules`...).
pub use pbem_engine::{diagram, games, geom, glyph, notation, record, rules};
pub use pbem_engine::{sections, with_game};
/// The engine's [`pbem_engine::game`] and [`pbem_engine::play`] at the
/// old path `pbem::game` (checked play moved above the rules).
pub mod game {
    pub use pbem_engine::game::*;
    pub use pbem_engine::play::*;
}
pub mod cli;
pub mod clock;
pub mod config;
pub mod daemon;
pub mod demo;
pub mod logging;
pub mod mail;
pub mod mailbox;
pub mod outbox;
pub mod poll;

pub mod reply;
pub mod setup;
pub mod store;
pub mod timecontrol;
pub mod transport;
