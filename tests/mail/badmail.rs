//! The bad-mail corpus: a few
//! hundred broken, hostile and absurd mails, each delivered alone to a
//! fresh pbem (a started game `bz-test1` between Alice and Bob, and a
//! challenge `bz-chal1` waiting for Bob) and read by the real `pbem poll`
//! with the clock pinned. Most cases are made by [`generated`] (so the
//! 20 MB ones need not be stored); hand-written ones are the files
//! `tests/badmail/*.eml`, delivered byte for byte.
//!
//! For every mail it checks that:
//! - pbem neither panics nor dies: exit status 0 or 1;
//! - the mail was handled: one `mail ... replies=N fate="..."` log line,
//!   with a reply or a stated reason for dropping it;
//! - every reply was delivered, has pbem's headers only (no header
//!   injection; [`pbem::mail::outbound::check_headers`]) and goes to an
//!   address the mail named or to a player;
//! - nothing was written outside the data folder and the mail folders
//!   (the cases aim at a folder beside them, and pbem runs from another);
//! - it took at most [`MAX_SECONDS`] of CPU (release build) and at most
//!   [`MAX_RSS_MB`] of memory (the child's peak RSS).
//!
//! How each case was handled is kept in `tests/badmail/EXPECTED.tsv`
//! (case, class, replies; the fate is there for reading and not
//! compared), so a change of behaviour shows in a diff:
//!
//! ```text
//! cargo test --release --test mail badmail:: -- --nocapture   run, print the times
//! BADMAIL_CASE=html cargo test --test mail badmail::          only names containing "html"
//! PBEM_BLESS=1 cargo test --test mail badmail::               rewrite EXPECTED.tsv
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

/// The pinned clock of every poll.
const NOW: &str = "2026-11-20T10:00:00Z";
/// The bound on the CPU time of one mail's poll in a release build (a
/// debug build gets five times as much).
const MAX_SECONDS: f64 = 2.0;
/// The bound on the poll's peak memory (the largest mail pbem reads whole
/// is 25 MB, `pbem::mailbox::MAX_MAIL`; a 20 MB text peaks near 115 MB).
const MAX_RSS_MB: u64 = 256;

const ALICE: &str = "Alice Example <alice@example.org>";
const BOB: &str = "Bob Example <bob@example.org>";
const ALICE_KEY: &str = "alicekey2345";
const BOB_KEY: &str = "bobkey234567";

/// Where the path cases aim: a folder beside pbem's, replaced by the real
/// path when a case is run.
const OUTSIDE: &str = "@OUTSIDE@";

mod cases;
mod run;

use cases::{fixtures, generated};
use run::{Outcome, run};

// --- the test ---------------------------------------------------------------

#[test]
fn every_bad_mail_is_answered_or_dropped_for_a_reason() {
    // Timed and measured: alone in its binary.
    let _alone = crate::common::lock::alone();
    let filter = std::env::var("BADMAIL_CASE").ok();
    let mut cases = generated();
    cases.extend(fixtures());
    let mut names: Vec<&String> = cases.iter().map(|(n, _)| n).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), cases.len(), "two cases share a name");
    assert!(cases.len() >= 200, "only {} cases", cases.len());
    let cases: Vec<_> = cases
        .into_iter()
        .filter(|(n, _)| filter.as_ref().is_none_or(|f| n.contains(f.as_str())))
        .collect();

    let start = Instant::now();
    let outcomes: Vec<Outcome> = cases.iter().map(|(n, raw)| run(n, raw)).collect();
    let total = start.elapsed();

    let mut failures = String::new();
    for o in &outcomes {
        for p in &o.problems {
            let _ = writeln!(failures, "{}: {p}", o.name);
        }
    }
    compare_with_expected(&outcomes, filter.as_deref(), &mut failures);
    print_figures(&outcomes, total);
    assert!(failures.is_empty(), "bad mails mishandled:\n{failures}");
}

/// The record of how each case was handled, as `EXPECTED.tsv` holds it.
fn table(outcomes: &[Outcome]) -> String {
    let mut table = String::from(
        "# How pbem handles each bad mail (tests/mail/badmail.rs); PBEM_BLESS=1 rewrites it.\n\
         # case\tclass\treplies\tfate (for reading; not compared)\n",
    );
    for o in outcomes {
        let fate: String = o
            .fate
            .replace(['\t', '\n'], " ")
            .chars()
            .take(160)
            .collect();
        let _ = writeln!(table, "{}\t{}\t{}\t{fate}", o.name, o.class, o.replies);
    }
    table
}

/// Compares each case's class and replies with `tests/badmail/EXPECTED.tsv`
/// (PBEM_BLESS=1 rewrites it instead), adding each difference to
/// `failures`. `filter` is BADMAIL_CASE: with it, the cases left out are
/// not missed.
fn compare_with_expected(outcomes: &[Outcome], filter: Option<&str>, failures: &mut String) {
    let expected_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/badmail/EXPECTED.tsv");
    let table = table(outcomes);
    let expected: BTreeMap<String, (String, String)> = fs::read_to_string(&expected_path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((
                f.next()?.to_string(),
                (f.next()?.to_string(), f.next()?.to_string()),
            ))
        })
        .collect();
    if std::env::var_os("PBEM_BLESS").is_some() && filter.is_none() {
        fs::write(&expected_path, &table).unwrap();
        return;
    }
    for o in outcomes {
        match expected.get(&o.name) {
            Some((class, replies)) if *class == o.class && *replies == o.replies.to_string() => {}
            Some((class, replies)) => {
                let _ = writeln!(
                    failures,
                    "{}: handled as {} with {} replies, EXPECTED.tsv says {class} with {replies} ({})",
                    o.name, o.class, o.replies, o.fate
                );
            }
            None => {
                let _ = writeln!(
                    failures,
                    "{}: not in EXPECTED.tsv (PBEM_BLESS=1 adds it): {} {} {}",
                    o.name, o.class, o.replies, o.fate
                );
            }
        }
    }
    if filter.is_none() {
        for name in expected.keys() {
            if !outcomes.iter().any(|o| &o.name == name) {
                let _ = writeln!(failures, "{name}: in EXPECTED.tsv but no such case");
            }
        }
    }
}

/// The figures for the issue's closing note: cases by class, the slowest
/// and the largest.
fn print_figures(outcomes: &[Outcome], total: Duration) {
    let mut classes: BTreeMap<&str, usize> = BTreeMap::new();
    for o in outcomes {
        *classes.entry(o.class.as_str()).or_default() += 1;
    }
    let slowest = outcomes
        .iter()
        .max_by(|a, b| a.seconds.total_cmp(&b.seconds));
    let biggest = outcomes.iter().max_by_key(|o| o.rss_mb);
    println!(
        "badmail: {} cases in {:.1} s ({} build); {classes:?}",
        outcomes.len(),
        total.as_secs_f64(),
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );
    if let (Some(s), Some(b)) = (slowest, biggest) {
        println!(
            "badmail: slowest {} {:.3} s; most memory {} {} MB",
            s.name, s.seconds, b.name, b.rss_mb
        );
    }
    let mut by_time: Vec<&Outcome> = outcomes.iter().collect();
    by_time.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
    for o in by_time.iter().take(8) {
        println!("  {:<40} {:>7.3} s {:>5} MB", o.name, o.seconds, o.rss_mb);
    }
}
