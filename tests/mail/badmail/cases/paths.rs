//! The bad-mail cases about names and paths (ids, plus-addresses and
//! addresses that name files), automated mail, and commands at their
//! limits.

use super::*;

/// Names and paths: ids, plus-addresses and addresses that name files (part 1 of 2).
pub(super) fn names_and_paths_1(add: &mut Add) {
    let m = M::new;
    add(
        "subject-id-dotdot",
        subject_mail("subject-id-dotdot", "[pbem ../../etc]"),
    );
    add(
        "subject-id-outside",
        subject_mail("subject-id-outside", "[pbem ../../../../outside/x]"),
    );
    add(
        "subject-id-absolute",
        subject_mail("subject-id-absolute", "[pbem /etc/passwd]"),
    );
    add(
        "subject-id-slash",
        subject_mail("subject-id-slash", "[pbem bz-test1/../bz-test1]"),
    );
    add(
        "subject-id-backslash",
        subject_mail("subject-id-backslash", "[pbem ..\\..\\outside]"),
    );
    add(
        "subject-id-nul",
        subject_mail("subject-id-nul", "[pbem bz-test1\0x]"),
    );
    add(
        "subject-id-encoded-path",
        subject_mail(
            "subject-id-encoded-path",
            "=?utf-8?q?[pbem_..=2F..=2Fetc]?=",
        ),
    );
    add(
        "subject-id-percent",
        subject_mail("subject-id-percent", "[pbem %2e%2e%2fetc]"),
    );
    add(
        "subject-id-fullwidth-dots",
        subject_mail("subject-id-fullwidth-dots", "[pbem ．．／etc]"),
    );
    add(
        "subject-id-1000",
        subject_mail("subject-id-1000", &format!("[pbem {}]", "a".repeat(1000))),
    );
    add("subject-id-dot", subject_mail("subject-id-dot", "[pbem .]"));
    add(
        "subject-id-unknown",
        subject_mail("subject-id-unknown", "[pbem zz-nope1]"),
    );
    add(
        "to-plus-dotdot",
        to_mail("to-plus-dotdot", "pbem+../../etc.k@example.net"),
    );
    add(
        "to-plus-slash",
        to_mail(
            "to-plus-slash",
            &format!("pbem+bz-test1/../../x.{ALICE_KEY}@example.net"),
        ),
    );
    add(
        "to-plus-absolute",
        to_mail("to-plus-absolute", "pbem+/etc/passwd.k@example.net"),
    );
    add(
        "to-plus-outside",
        to_mail(
            "to-plus-outside",
            &format!("pbem+{OUTSIDE}/x.k@example.net"),
        ),
    );
    add(
        "to-plus-percent",
        to_mail("to-plus-percent", "pbem+%2e%2e.k@example.net"),
    );
    add(
        "to-plus-token-path",
        to_mail("to-plus-token-path", "pbem+bz-test1.../../../x@example.net"),
    );
    add(
        "to-plus-quoted",
        to_mail("to-plus-quoted", "\"pbem+../../x.k\"@example.net"),
    );
    add(
        "delivered-to-path",
        m("delivered-to-path")
            .set("To", "pbem@example.net")
            .set("Subject", "x")
            .set("Delivered-To", "pbem+../../../outside.k@example.net")
            .bytes(),
    );
}

/// Names and paths: ids, plus-addresses and addresses that name files (part 2).
pub(super) fn names_and_paths_2(add: &mut Add) {
    let m = M::new;
    add(
        "in-reply-to-path",
        m("in-reply-to-path")
            .set("To", "pbem@example.net")
            .set("Subject", "x")
            .set("In-Reply-To", "<pbem.../../outside.1@example.net>")
            .bytes(),
    );
    add(
        "from-absolute-path",
        m("from-absolute-path")
            .set("From", format!("Mallory <{OUTSIDE}/mallory@example.org>"))
            .set("To", "pbem@example.net")
            .set("Subject", "help")
            .text("help\n")
            .bytes(),
    );
    add(
        "from-relative-path",
        m("from-relative-path")
            .set("From", "a/b/c@example.org")
            .set("To", "pbem@example.net")
            .set("Subject", "help")
            .text("help\n")
            .bytes(),
    );
    add(
        "from-dotdot",
        m("from-dotdot")
            .set("From", "../../outside@example.org")
            .set("To", "pbem@example.net")
            .text("help\n")
            .bytes(),
    );
    add(
        "from-dot-first",
        m("from-dot-first")
            .set("From", ".hidden@example.org")
            .set("To", "pbem@example.net")
            .text("help\n")
            .bytes(),
    );
    add(
        "from-quoted-dotdot",
        m("from-quoted-dotdot")
            .set("From", "\"../../outside\"@example.org")
            .set("To", "pbem@example.net")
            .text("help\n")
            .bytes(),
    );
    for (name, opp) in [
        (
            "challenge-opponent-absolute",
            format!("{OUTSIDE}/victim@example.org"),
        ),
        (
            "challenge-opponent-dotdot",
            "../../outside@example.org".to_string(),
        ),
        (
            "challenge-opponent-quoted-dotdot",
            "\"../../../outside\"@example.org".to_string(),
        ),
        ("challenge-opponent-slash", "a/b@example.org".to_string()),
    ] {
        add(
            name,
            m(name)
                .set("To", "pbem@example.net")
                .set("Subject", "new game")
                .text(&format!("challenge mad {opp}\n"))
                .bytes(),
        );
    }
}

/// Automated mail, with bulk.
pub(super) fn automated(add: &mut Add) {
    let m = M::new;
    add(
        "auto-bounce-huge",
        m("auto-bounce-huge")
            .set("From", "MAILER-DAEMON@example.org")
            .set("Content-Type", "multipart/report; report-type=delivery-status; boundary=b")
            .text(&format!(
                "--b\nContent-Type: text/plain\n\nDelivery failed.\n--b\nContent-Type: message/rfc822\n\n{}\n--b--\n",
                "Received: x\n".repeat(100_000)
            ))
            .bytes(),
    );
    add(
        "auto-submitted-nul",
        m("auto-submitted-nul")
            .set("Auto-Submitted", "auto-replied\0")
            .bytes(),
    );
    add(
        "auto-precedence-upper",
        m("auto-precedence-upper").set("Precedence", "BULK").bytes(),
    );
    add(
        "auto-list-id-1mb",
        m("auto-list-id-1mb")
            .set("List-Id", "l".repeat(1 << 20))
            .bytes(),
    );
    add(
        "auto-loop-header-forged",
        m("auto-loop-header-forged")
            .set("X-Pbem-Loop", "example.net")
            .bytes(),
    );
    add(
        "auto-empty-return-path-spaces",
        m("auto-empty-return-path-spaces")
            .set("Return-Path", "<   >")
            .bytes(),
    );
    add(
        "from-pbem-itself",
        m("from-pbem-itself")
            .set("From", "pbem@example.net")
            .bytes(),
    );
    add(
        "from-pbem-plus",
        m("from-pbem-plus")
            .set("From", "pbem+bz-test1.x@example.net")
            .bytes(),
    );
}

/// Commands at their limits.
pub(super) fn commands(add: &mut Add) {
    add(
        "token-10k",
        text_mail(
            "token-10k",
            &format!("token {}\nboard\n", "k".repeat(10_000)),
        ),
    );
    add(
        "token-spaces",
        text_mail("token-spaces", "token a b c\nboard\n"),
    );
    add(
        "move-number-overflow",
        text_mail("move-number-overflow", "#99999999999999 13-21\n"),
    );
    add(
        "move-number-negative",
        text_mail("move-number-negative", "#-1 13-21\n"),
    );
    add(
        "move-number-zero",
        text_mail("move-number-zero", "#0 13-21\n"),
    );
    add(
        "moves-square-huge",
        text_mail("moves-square-huge", "moves 99999999999999999999\n"),
    );
    add(
        "moves-square-path",
        text_mail("moves-square-path", "moves ../../etc\n"),
    );
    add(
        "rules-long",
        text_mail("rules-long", &format!("rules {}\n", "mad ".repeat(3000))),
    );
    add(
        "challenge-long-line",
        text_mail(
            "challenge-long-line",
            &format!(
                "challenge mad {}\n",
                (0..1000)
                    .map(|i| format!("v{i}@example.com "))
                    .collect::<String>()
            ),
        ),
    );
    add("square-zero", text_mail("square-zero", "0-8\n"));
    add(
        "square-huge",
        text_mail("square-huge", "99999999999999999999-1\n"),
    );
    add(
        "chain-1000",
        text_mail("chain-1000", &format!("13{}\n", "x22x13".repeat(30))),
    );
    add("count-huge", text_mail("count-huge", "12-20:99999999999\n"));
    add(
        "stones-many",
        text_mail("stones-many", &format!("{}\n", "27/36,".repeat(30))),
    );
    add(
        "only-punctuation",
        text_mail("only-punctuation", "-x-x-x:/,;+&\n"),
    );
}
