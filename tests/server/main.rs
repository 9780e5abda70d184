//! The server tests: the mail path with its store, sources and transports.
//! Delivery and crash safety, storms and loops, damaged records and full
//! disks, clocks and time control, the daemon, and whole games through a
//! Maildir or the loopback Postfix and Dovecot (`scripts/mailstack`; the
//! tests that need them, or root, are ignored unless asked for with
//! `--include-ignored`, as `scripts/test` does). Each former test file is
//! a module; every
//! test holds [`common::lock`]'s `shared` or, when it restarts the mail
//! servers or times pbem, `alone`:
//!
//! ```text
//! cargo test --test server                   every server test that needs nothing
//! cargo test --test server -- --include-ignored   and those that do
//! cargo test --test server storms::          one module
//! ```

#[path = "../common/mod.rs"]
mod common;

mod analysis;
mod bot;
mod clocks;
mod conditions;
mod crash;
mod crash_bot;
mod crash_index;
mod crash_league;
mod crash_proof;
mod crash_rounds;
mod crash_takeback;
mod daemon;
mod deliver;
mod durable;
mod faults;
mod git_history;
mod git_remote;
mod imap_games;
mod imap_reconnect;
mod league_by_mail;
mod mail_games;
mod mail_server;
mod outages;
mod people;
mod phone_mails;
mod proof;
mod series;
mod site_updates;
mod smtp_postfix;
mod storms;
mod takeback;
mod timecontrol;
mod tournament;
