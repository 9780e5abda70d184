//! pbem's engine: the rules of the eight games, their notation and
//! diagrams, and the game record (docs/src/formats/record.md). No I/O, no `unsafe`, no
//! clock: the server (the `pbem` package) reads mail and files and calls
//! in here.
//!
//! # Layers, bottom up
//!
//! Each module uses only those before it:
//!
//! ```text
//! geom, side        squares, points, directions; Side and PerSide
//! glyph, notation   characters as players type them; move syntax
//! lines             a text's lines, found fast
//! descriptor        a game's identity (Rules) and facts (RulesInfo)
//! board             a board as data (Board); its HTML table and SVG
//! game              the Game trait and the generic code on it
//! diagram           the ASCII board shared by all games
//! games/<game>/     the eight games, one folder each
//! rules             Rules::info, Cite, with_game!: runtime game -> type
//! play              parse then resolve a player's text; Rejected
//! record            read (syntax, line numbers), replay, write to text
//! bot               the bot: alpha-beta search, matches (each game's
//!                   evaluation is games/<game>/eval.rs)
//! ```
//!
//! # Where a game's facts live
//!
//! In its folder, [`games`]`/<game>/`: the descriptor (`facts.rs`: names,
//! sides, notation forms, id prefix, summary, its example record from
//! `games/<slug>.toml`), the complete rules text (`<slug>.md`), and the code:
//! position and play (`mod.rs`), moves (`movegen.rs`), refusals
//! (`explain.rs`), board (`diagram.rs`).
//!
//! # How a move is parsed, then resolved
//!
//! 1. [`notation::parse`] reads the text without a position (syntax only:
//!    `22-15`, `L12-28`, `27/36,28/37`), or says why it is no move.
//! 2. [`game::resolve`] matches the [`notation::Notation`] against the
//!    position's legal moves (from [`game::Game::each_move`]); a move
//!    written with the wrong capture mark is accepted when only one move
//!    matches.
//! 3. Failing that, the game's [`game::Game::explain`] says why, citing
//!    the section of its rules text; [`play::parse_move`] wraps both
//!    steps and words the refusal ([`play::Rejected`]).
//!
//! A record is read the same way: [`record::Record::parse`] checks only
//! syntax (with line numbers), [`record::replay`] plays the lines.

#![forbid(unsafe_code)]

pub mod board;
pub mod bot;
pub mod descriptor;
pub mod diagram;
pub mod game;
pub mod games;
pub mod geom;
pub mod glyph;
pub mod lines;
pub mod notation;
pub mod play;
pub mod record;
pub mod rules;
pub mod side;
#[doc(hidden)]
pub mod testing;
