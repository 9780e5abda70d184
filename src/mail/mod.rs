//! Mail: what players send (parsed into commands) and what pbem sends back.
//!
//! `source -> parse -> command -> record -> reply -> outbox -> transport`.
//! This module holds the pure parts. An incoming mail is read
//! in this order:
//!
//! 1. [`inbound`]: the MIME message (headers, the text part, HTML turned
//!    into text), with [`authres`] judging its Authentication-Results;
//! 2. [`text`]: the reply's own lines, the quoted mail and signatures
//!    dropped;
//! 3. [`quotes`]: what mail clients write around quoted mail (the table
//!    [`text`] consults to say what a line is);
//! 4. [`command`]: the commands in those lines.
//!
//! On the way out, [`templates`] words the replies (a [`board`] in the
//! plain text as ASCII, in the HTML part as a table) and [`outbound`]
//! builds the MIME message.

pub mod authres;
pub mod board;
pub mod command;
pub mod html;
pub mod inbound;
pub mod mime;
pub mod outbound;
mod quick;
pub mod quotes;
#[cfg(test)]
mod random_lines;
pub mod templates;
pub mod text;
pub mod twin;
