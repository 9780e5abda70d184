//! Helpers shared by the test files that include them (`mod common;`):
//! the scripted whole game ([`play`]) and the loopback mail stack
//! ([`mailstack`]), and many games' mail at once ([`workload`]). Each
//! test file uses a part, hence `dead_code`.
#![allow(dead_code)]

pub mod mailstack;
pub mod play;
pub mod workload;
