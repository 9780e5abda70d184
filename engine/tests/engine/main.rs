//! The engine's tests, one binary (`cargo test -p pbem-engine`). The
//! modules are the groups:
//!
//! - [`games`]: one module per game, its rulings pinned by positions
//!   drawn as pictures, and its move generator checked against a naive
//!   one written straight from the rule text;
//! - [`bot`]: the bot in every game;
//! - [`conformance`]: the suite every game passes (docs/src/contributing.md,
//!   "One trait, one conformance suite");
//! - [`perft`]: the perft tables of `tests/perft/`, one driver;
//! - [`records`]: the record format (docs/src/formats/record.md);
//! - [`takebacks`]: takebacks in the record, in every game;
//! - [`rules_docs`]: the rules texts against the engine.
//!
//! [`support`] holds what the groups share. The deep cross-checks run
//! with `PBEM_DEEP=1 cargo test -p pbem-engine -- --include-ignored`.

mod bot;
mod conformance;
mod games;
mod perft;
mod records;
mod rules_docs;
mod support;
mod takebacks;
