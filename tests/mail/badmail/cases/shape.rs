//! The bad-mail cases about a mail's structure: missing and broken
//! headers, MIME that does not hold together, and the size and shape of
//! the text.

use super::*;

/// Structure: not a mail, or a mail missing what it needs (part 1 of 3).
pub(super) fn structure_1(add: &mut Add) {
    let m = M::new;
    add("empty", Vec::new());
    add("blank-lines", b"\r\n\r\n\r\n".to_vec());
    add("body-only", b"13-21\r\n".to_vec());
    add("headers-without-body", {
        let mut b = m("headers-without-body").bytes();
        b.truncate(b.len() - 2 - "board\r\n".len());
        b
    });
    add("no-from", m("no-from").without("From").bytes());
    add("from-empty", m("from-empty").set("From", "").bytes());
    add("from-no-at", m("from-no-at").set("From", "alice").bytes());
    add(
        "from-group",
        m("from-group")
            .set("From", "undisclosed-recipients:;")
            .bytes(),
    );
    add(
        "from-two-addresses",
        m("from-two-addresses")
            .set("From", "evil@example.com, alice@example.org")
            .bytes(),
    );
    add(
        "from-comment-only",
        m("from-comment-only").set("From", "(nobody)").bytes(),
    );
    add(
        "from-angle-empty",
        m("from-angle-empty").set("From", "<>").bytes(),
    );
    add("from-at-only", m("from-at-only").set("From", "@").bytes());
    add(
        "from-domain-only",
        m("from-domain-only").set("From", "@example.org").bytes(),
    );
    add(
        "from-quoted-spaces",
        m("from-quoted-spaces")
            .set("From", "\"al ice\"@example.org")
            .bytes(),
    );
    add(
        "from-unterminated-angle",
        m("from-unterminated-angle")
            .set("From", "Alice <alice@example.org")
            .bytes(),
    );
    add(
        "from-twice",
        m("from-twice").add("From", "evil@example.com").bytes(),
    );
    add(
        "header-without-colon",
        with_raw_first(m("header-without-colon"), b"This is not a header\r\n"),
    );
    add(
        "header-name-control-bytes",
        with_raw_first(m("header-name-control-bytes"), b"\x01\x02\x7f: x\r\n"),
    );
    add(
        "continuation-first",
        with_raw_first(m("continuation-first"), b" folded before any header\r\n"),
    );
    add("headers-10000", {
        let mut x = m("headers-10000");
        for i in 0..10_000 {
            x = x.add(&format!("X-Junk-{i}"), "junk");
        }
        x.bytes()
    });
    add(
        "header-1mb",
        m("header-1mb").set("X-Long", "y".repeat(1 << 20)).bytes(),
    );
    add(
        "subject-folded-10000",
        m("subject-folded-10000")
            .set(
                "Subject",
                format!("[pbem bz-test1]{}", "\r\n x".repeat(10_000)),
            )
            .bytes(),
    );
    add(
        "subject-100k",
        m("subject-100k")
            .set(
                "Subject",
                format!("[pbem bz-test1] {}", "s".repeat(100_000)),
            )
            .bytes(),
    );
}

/// Structure: not a mail, or a mail missing what it needs (part 2).
pub(super) fn structure_2(add: &mut Add) {
    let m = M::new;
    add(
        "display-name-100k",
        m("display-name-100k")
            .set(
                "From",
                format!("{} <alice@example.org>", "A".repeat(100_000)),
            )
            .bytes(),
    );
    add(
        "nul-in-headers",
        m("nul-in-headers")
            .set("Subject", "[pbem bz-test1]\0 x")
            .set("From", "Ali\0ce <alice@example.org>")
            .bytes(),
    );
    add(
        "nul-in-body",
        m("nul-in-body").body("13-21\0\r\nboard\r\n").bytes(),
    );
    add("nul-everywhere", {
        let b = m("nul-everywhere").bytes();
        b.iter().flat_map(|c| [*c, 0]).collect()
    });
    add("cr-only-line-ends", {
        let b = m("cr-only-line-ends").bytes();
        b.into_iter().filter(|c| *c != b'\n').collect()
    });
    add("lf-only-line-ends", {
        let b = m("lf-only-line-ends").bytes();
        b.into_iter().filter(|c| *c != b'\r').collect()
    });
    add(
        "mixed-line-ends",
        b"From: Alice Example <alice@example.org>\nTo: pbem+bz-test1.alicekey2345@example.net\r\nSubject: Re: [pbem bz-test1] x\rMessage-ID: <mixed-line-ends@badmail.example.org>\n\r\nboard\r\r\n".to_vec(),
    );
    for (i, len) in [1, 2, 17, 100, 1000, 4096, 65_536, 1 << 20]
        .into_iter()
        .enumerate()
    {
        add(&format!("garbage-{len}"), garbage(i as u64 + 1, len));
    }
    add("garbage-after-headers", {
        let mut b = m("garbage-after-headers").body("").bytes();
        b.extend(garbage(99, 100_000));
        b
    });
    add(
        "garbage-headers",
        [garbage(7, 2000), b"\r\n\r\nboard\r\n".to_vec()].concat(),
    );
    add("latin1-raw-headers", {
        let mut b =
            b"From: Ren\xe9 <alice@example.org>\r\nSubject: Re: [pbem bz-test1] caf\xe9\r\n"
                .to_vec();
        b.extend(
            m("latin1-raw-headers")
                .without("From")
                .without("Subject")
                .bytes(),
        );
        b
    });
    add(
        "mbox-from-line",
        with_raw_first(
            m("mbox-from-line"),
            b"From alice@example.org Fri Nov 20 09:59:00 2026\r\n",
        ),
    );
    add("two-mails-concatenated", {
        let mut b = m("two-mails-a").bytes();
        b.extend(m("two-mails-b").text("resign\r\n").bytes());
        b
    });
    add(
        "message-id-100k",
        m("message-id-100k")
            .set("Message-ID", format!("<{}@x>", "i".repeat(100_000)))
            .bytes(),
    );
    add(
        "message-id-empty",
        m("message-id-empty").set("Message-ID", "<>").bytes(),
    );
    add(
        "message-id-spaces",
        m("message-id-spaces")
            .set("Message-ID", "<a b c@example.org>")
            .bytes(),
    );
}

/// Structure: not a mail, or a mail missing what it needs (part 3).
pub(super) fn structure_3(add: &mut Add) {
    let m = M::new;
    add(
        "message-id-garbage",
        m("message-id-garbage")
            .set("Message-ID", "<<<>>>\"\\;:@@@")
            .bytes(),
    );
    add(
        "message-id-missing",
        m("message-id-missing").without("Message-ID").bytes(),
    );
    add(
        "references-10000",
        m("references-10000")
            .set(
                "References",
                (0..10_000)
                    .map(|i| format!("<r{i}@example.org>"))
                    .collect::<Vec<_>>()
                    .join(" "),
            )
            .bytes(),
    );
    add(
        "in-reply-to-garbage",
        m("in-reply-to-garbage")
            .set("In-Reply-To", "<<<\0 >> ;;")
            .bytes(),
    );
    add(
        "date-garbage",
        m("date-garbage")
            .set("Date", "yesterday at teatime")
            .bytes(),
    );
    add(
        "to-10000-addresses",
        m("to-10000-addresses")
            .set(
                "To",
                (0..10_000)
                    .map(|i| format!("user{i}@example.com"))
                    .chain([format!("pbem+bz-test1.{ALICE_KEY}@example.net")])
                    .collect::<Vec<_>>()
                    .join(", "),
            )
            .bytes(),
    );
}

/// MIME that does not hold together (part 1 of 2).
pub(super) fn mime_1(add: &mut Add) {
    let m = M::new;
    add(
        "multipart-no-boundary",
        mime_mail(
            "multipart-no-boundary",
            "multipart/mixed",
            "--x\nboard\n--x--\n",
        ),
    );
    add(
        "multipart-empty-boundary",
        mime_mail(
            "multipart-empty-boundary",
            "multipart/mixed; boundary=\"\"",
            "--\n\nboard\n----\n",
        ),
    );
    add(
        "multipart-never-closed",
        mime_mail(
            "multipart-never-closed",
            "multipart/mixed; boundary=b",
            "--b\nContent-Type: text/plain\n\nboard\n",
        ),
    );
    add(
        "multipart-boundary-absent",
        mime_mail(
            "multipart-boundary-absent",
            "multipart/alternative; boundary=nowhere",
            "board\n",
        ),
    );
    add(
        "multipart-only-attachments",
        mime_mail(
            "multipart-only-attachments",
            "multipart/mixed; boundary=b",
            "--b\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n--b--\n",
        ),
    );
    add("multipart-10000-parts", {
        let mut body = String::new();
        for _ in 0..10_000 {
            body.push_str("--b\nContent-Type: text/plain\n\nhi\n");
        }
        body.push_str("--b--\n");
        mime_mail(
            "multipart-10000-parts",
            "multipart/mixed; boundary=b",
            &body,
        )
    });
    add(
        "multipart-boundary-10k",
        mime_mail(
            "multipart-boundary-10k",
            &format!("multipart/mixed; boundary=\"{}\"", "b".repeat(10_000)),
            &format!(
                "--{0}\nContent-Type: text/plain\n\nboard\n--{0}--\n",
                "b".repeat(10_000)
            ),
        ),
    );
    for depth in [10, 100, 1000, 5000] {
        let name = format!("nested-multipart-{depth}");
        add(&name, nested(m(&name), depth, "board").bytes());
    }
    for depth in [100, 1000] {
        let name = format!("nested-rfc822-{depth}");
        add(&name, forwarded(m(&name), depth, "board").bytes());
    }
    add(
        "content-type-garbage",
        mime_mail("content-type-garbage", ";;;==\"", "board\n"),
    );
    add(
        "content-type-text-slash",
        mime_mail("content-type-text-slash", "text/", "board\n"),
    );
    add(
        "content-type-10000-params",
        mime_mail(
            "content-type-10000-params",
            &format!(
                "text/plain{}",
                (0..10_000).map(|i| format!("; p{i}=v")).collect::<String>()
            ),
            "board\n",
        ),
    );
}

/// MIME that does not hold together (part 2).
pub(super) fn mime_2(add: &mut Add) {
    let m = M::new;
    add(
        "content-type-application",
        mime_mail("content-type-application", "application/x-evil", "board\n"),
    );
    add(
        "base64-garbage",
        cte_mail("base64-garbage", "base64", b"!!!!****@@@@\r\n"),
    );
    add(
        "base64-truncated",
        cte_mail("base64-truncated", "base64", b"Ym9hcm\r\n"),
    );
    add(
        "base64-binary",
        cte_mail(
            "base64-binary",
            "base64",
            base64(&garbage(5, 3000)).as_bytes(),
        ),
    );
    add(
        "base64-of-nuls",
        cte_mail("base64-of-nuls", "base64", base64(&[0u8; 5000]).as_bytes()),
    );
    add(
        "qp-garbage",
        cte_mail(
            "qp-garbage",
            "quoted-printable",
            b"=ZZ=\r\nbo=\r\nard=\r\n=",
        ),
    );
    add(
        "qp-soft-breaks-everywhere",
        cte_mail(
            "qp-soft-breaks-everywhere",
            "quoted-printable",
            "b=\r\n".repeat(10_000).as_bytes(),
        ),
    );
    add(
        "cte-unknown",
        cte_mail("cte-unknown", "x-uuencode", b"board\r\n"),
    );
    add(
        "cte-7bit-with-8bit",
        cte_mail("cte-7bit-with-8bit", "7bit", b"board \xff\xfe\r\n"),
    );
    add(
        "attachment-filename-path",
        with_attachment(
            m("attachment-filename-path"),
            "board",
            "../../../../etc/passwd",
            b"root:x:0:0",
        )
        .bytes(),
    );
    add(
        "attachment-20mb",
        with_attachment(
            m("attachment-20mb"),
            "board",
            "big.bin",
            &garbage(20, 15 << 20),
        )
        .bytes(),
    );
    add(
        "text-20mb",
        m("text-20mb")
            .body("Lots of chatter here.\r\n".repeat((20 << 20) / 23))
            .bytes(),
    );

    add(
        "text-30mb-over-the-limit",
        m("text-30mb-over-the-limit")
            .body(format!(
                "board\r\n{}",
                "Lots of chatter here.\r\n".repeat((30 << 20) / 23)
            ))
            .bytes(),
    );
}

/// Size and shape of the text (part 1 of 2).
pub(super) fn size_1(add: &mut Add) {
    let m = M::new;
    add(
        "lines-10000-chatter",
        m("lines-10000-chatter")
            .text(&"Nice weather today, isn't it?\n".repeat(10_000))
            .bytes(),
    );
    add(
        "lines-10000-moves",
        m("lines-10000-moves")
            .text(&"13-21\n".repeat(10_000))
            .bytes(),
    );
    add(
        "lines-10000-board",
        m("lines-10000-board")
            .text(&"board\n".repeat(10_000))
            .bytes(),
    );
    add(
        "lines-10000-help",
        m("lines-10000-help")
            .set("To", "pbem@example.net")
            .set("Subject", "help")
            .text(&"help\n".repeat(10_000))
            .bytes(),
    );
    add(
        "lines-21-board",
        m("lines-21-board").text(&"board\n".repeat(21)).bytes(),
    );
    add(
        "lines-20-board",
        m("lines-20-board").text(&"board\n".repeat(20)).bytes(),
    );
    add(
        "challenges-1000",
        m("challenges-1000")
            .set("To", "pbem@example.net")
            .set("Subject", "games")
            .text(
                &(0..1000)
                    .map(|i| format!("challenge mad victim{i}@example.com\n"))
                    .collect::<String>(),
            )
            .bytes(),
    );
    add(
        "line-1mb-chatter",
        m("line-1mb-chatter")
            .text(&format!("{}\nboard\n", "blah ".repeat(200_000)))
            .bytes(),
    );
    add(
        "line-1mb-move",
        m("line-1mb-move")
            .text(&format!("1{}\n", "-2-1".repeat(250_000)))
            .bytes(),
    );
    add(
        "line-100k-digits",
        m("line-100k-digits").text(&"1".repeat(100_000)).bytes(),
    );
    add(
        "line-10mb-no-newline",
        m("line-10mb-no-newline").body("x".repeat(10 << 20)).bytes(),
    );
    add(
        "line-long-move-command",
        m("line-long-move-command")
            .text(&format!("move {}\n", "13-21 ".repeat(1000)))
            .bytes(),
    );
    add(
        "line-long-near-miss",
        m("line-long-near-miss")
            .text(&format!("please play {} thanks\n", "13-".repeat(100_000)))
            .bytes(),
    );
    add(
        "quote-markers-100k",
        m("quote-markers-100k")
            .text(&format!("{}\n13-21\n", ">".repeat(100_000)))
            .bytes(),
    );
    add(
        "attribution-lines-10000",
        m("attribution-lines-10000")
            .text(&"On Tue, Alice wrote:\n".repeat(10_000))
            .bytes(),
    );
}

/// Size and shape of the text (part 2).
pub(super) fn size_2(add: &mut Add) {
    let m = M::new;
    add(
        "outlook-headers-10000",
        m("outlook-headers-10000")
            .text(&"From: x\nboard\n".repeat(10_000))
            .bytes(),
    );
}
