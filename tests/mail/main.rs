//! The mail tests: pbem reading and writing mail, with no mail server.
//! Golden mails (a mail in, the replies out, byte for byte), the broken
//! mail of every kind, real clients' replies and quoting, the lines of a
//! mail left out beside its good commands, the names
//! and paths pbem derives from a mail, and the board in the HTML part
//! (webmail limits, headless Chromium). Each former test file is a module;
//! every test holds [`common::lock`]'s `shared`, or `alone` when it times
//! pbem (badmail):
//!
//! ```text
//! cargo test --test mail                     every mail test
//! cargo test --test mail golden_mail::       one module
//! ```

#[path = "../common/mod.rs"]
mod common;

mod badmail;
mod golden_mail;
mod html_board;
mod left_out;
mod names_and_paths;
mod phone;
mod quote_shapes;
mod quoting;
mod replies;
mod shaped_wording;
mod wordings;
