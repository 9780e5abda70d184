//! Mail: what players send (parsed into commands) and what pbem sends back.
//!
//! `source -> parse -> command -> record -> reply -> outbox -> transport`
//! (issue 3). This module holds the pure parts: [`text`] cleans a body,
//! [`command`] reads the commands in it.

pub mod authres;
pub mod command;
pub mod inbound;
pub mod outbound;
pub mod quotes;
pub mod templates;
pub mod text;
