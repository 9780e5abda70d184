//! pbem: a play-by-email adjudicator for eight board games: the server and
//! the command line around the engine ([`pbem_engine`], re-exported here
//! as [`game`], [`games`], [`rules`], [`record`]...).
//!
//! # One mail, top to bottom
//!
//! ```text
//! source -> parse -> command -> adjudicate -> compose -> outbox -> transport
//! ```
//!
//! 1. [`mailbox`]: the sources (Maildir, stdin, IMAP), each handing the
//!    poll an [`mailbox::InboxMail`].
//! 2. [`poll`]: one poll, batch by batch: [`poll::Poller`] reads each
//!    mail, keys it, skips what was processed, and hands the rest on;
//!    the reply limits ([`poll::limit`]) and digests come after.
//! 3. [`mail`]: parsing ([`mail::inbound`] the MIME and the sender,
//!    [`mail::text`] the reply's own lines, [`mail::quotes`] what is quoted
//!    back, [`mail::command`] the commands and moves).
//! 4. [`adjudicate`]: the [`adjudicate::Adjudicator`] routes the mail to
//!    the concern that answers it (auth, challenge, play, account, news,
//!    damage, clocks; series, tournaments and ratings, computed by
//!    [`pbem_league`]) and returns what to send as data:
//!    [`reply::Letter`]s of a [`reply::Kind`], a template and its context.
//! 5. Compose: [`mail::templates::Templates::compose`] words each letter
//!    from `templates/`; [`mail::outbound`] builds the message.
//! 6. [`outbox`]: stage, commit (the exactly-once point), recover after a
//!    crash, flush in order, held news, dead letters.
//! 7. [`transport`]: the [`transport::Transport`] trait; SMTP, sendmail,
//!    Maildir, one file each.
//!
//! Beneath them: [`store`] (the data folder), [`timecontrol`] (the clock
//! rules, pure) and [`clock`] (the one clock), [`logging`], [`config`],
//! [`history`] (the records' git history).
//! Above them: [`setup`] (the composition root), [`daemon`] (the event
//! loops), [`cli`] (the subcommands). No module imports one that imports
//! it back (`cargo test --test cli layout` checks it).

#![forbid(unsafe_code)]

pub mod adjudicate;
pub mod bot;
// The engine's modules, as `pbem::game`, `crate::rules`...
pub use pbem_engine::{diagram, game, games, geom, glyph, lines, notation, play, record, rules};
pub use pbem_engine::{sections, with_game};
pub mod cli;
pub mod clock;
pub mod config;
pub mod daemon;
pub mod demo;
pub mod history;
pub mod logging;
pub mod mail;
pub mod mailbox;
pub mod outbox;
pub mod poll;

pub mod reply;
pub mod setup;
pub mod site;
pub mod store;
pub mod timecontrol;
pub mod transport;
