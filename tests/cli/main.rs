//! The command-line tests: `pbem` run as a user runs it. Its commands and
//! their output, the bot's (suggest, match), the admin commands (new,
//! move, games, ...), the README's commands run as printed, the example
//! games and records as the commands read and write them, the rules texts
//! as `pbem rules` prints them, and the house rules read from the code
//! (layout: module circles, file and function sizes, no unsafe). Each
//! former test file is a module:
//!
//! ```text
//! cargo test --test cli                      every command-line test
//! cargo test --test cli admin::              one module
//! ```

#[path = "../common/mod.rs"]
mod common;

mod admin;
mod analyse;
mod bot;
mod check_optional;
mod citations;
mod cli;
mod demo_summaries;
mod errors_help;
mod examples;
mod games_listing;
mod hot_code;
mod layout;
mod manpages;
mod match_threads;
mod purity;
mod readme;
mod readme_svg;
mod records;
mod rules_docs;
mod site;
mod site_browser;
mod site_html;
mod site_long;
mod site_phone;
