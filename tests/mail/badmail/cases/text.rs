//! The bad-mail cases about what a mail's text says: charsets, HTML,
//! header injection and Unicode look-alikes of a move.

use super::*;

/// Charsets: unknown, wrong, absurd (part 1 of 2).
pub(super) fn charsets_1(add: &mut Add) {
    let m = M::new;
    add(
        "charset-unknown",
        charset_mail("charset-unknown", "x-klingon", b"board\r\n"),
    );
    add(
        "charset-empty",
        charset_mail("charset-empty", "\"\"", b"board\r\n"),
    );
    add(
        "charset-10k-name",
        charset_mail("charset-10k-name", &"u".repeat(10_000), b"board\r\n"),
    );
    add(
        "charset-path",
        charset_mail("charset-path", "\"../../../etc/passwd\"", b"board\r\n"),
    );
    add(
        "charset-utf8-with-latin1",
        charset_mail("charset-utf8-with-latin1", "utf-8", b"caf\xe9\r\nboard\r\n"),
    );
    add(
        "charset-latin1-with-utf8",
        charset_mail(
            "charset-latin1-with-utf8",
            "iso-8859-1",
            "café 13–21\r\n".as_bytes(),
        ),
    );
    add(
        "charset-utf16-no-bom",
        charset_mail(
            "charset-utf16-no-bom",
            "utf-16",
            &"board\r\n"
                .encode_utf16()
                .flat_map(|u| u.to_le_bytes())
                .collect::<Vec<_>>(),
        ),
    );
    add(
        "charset-utf16le-odd-bytes",
        charset_mail("charset-utf16le-odd-bytes", "utf-16le", b"b\0o\0a\0r\0d"),
    );
    add(
        "charset-utf16be-move",
        charset_mail(
            "charset-utf16be-move",
            "utf-16be",
            &"13-21\r\n"
                .encode_utf16()
                .flat_map(|u| u.to_be_bytes())
                .collect::<Vec<_>>(),
        ),
    );
    add(
        "charset-utf7",
        charset_mail("charset-utf7", "utf-7", b"+ADEAMw--21\r\n"),
    );
    add(
        "charset-iso2022jp-garbage",
        charset_mail(
            "charset-iso2022jp-garbage",
            "iso-2022-jp",
            b"\x1b$B\x1b(\x1b$)board\r\n",
        ),
    );
    add(
        "charset-shift-jis-invalid",
        charset_mail(
            "charset-shift-jis-invalid",
            "shift_jis",
            b"\x81\xff\xa0\xfd13-21\r\n",
        ),
    );
    add(
        "charset-gb18030-garbage",
        charset_mail("charset-gb18030-garbage", "gb18030", &garbage(18, 300)),
    );
    add(
        "charset-koi8r-move",
        charset_mail("charset-koi8r-move", "koi8-r", b"13\xd821\r\n"),
    );
    add(
        "charset-windows1252-dash",
        charset_mail("charset-windows1252-dash", "windows-1252", b"13\x9621\r\n"),
    );
    add(
        "subject-encoded-unknown-charset",
        m("subject-encoded-unknown-charset")
            .set("Subject", "=?x-klingon?q?abc?= [pbem bz-test1]")
            .bytes(),
    );
}

/// Charsets: unknown, wrong, absurd (part 2).
pub(super) fn charsets_2(add: &mut Add) {
    let m = M::new;
    add(
        "subject-encoded-bad-base64",
        m("subject-encoded-bad-base64")
            .set("Subject", "=?utf-8?b?!!!?= [pbem bz-test1]")
            .bytes(),
    );
    add(
        "subject-encoded-unterminated",
        m("subject-encoded-unterminated")
            .set("Subject", "[pbem bz-test1] =?utf-8?q?abc")
            .bytes(),
    );
    add(
        "from-encoded-local-part",
        m("from-encoded-local-part")
            .set("From", "=?utf-8?q?alice?=@example.org")
            .bytes(),
    );
}

/// HTML (part 1 of 2).
pub(super) fn html_1(add: &mut Add) {
    add(
        "html-script",
        html_mail(
            "html-script",
            "<p>board</p><script>document.write('13-21')</script>",
        ),
    );
    add(
        "html-script-unclosed",
        html_mail("html-script-unclosed", "<p>board</p><script>13-21"),
    );
    add(
        "html-style-unclosed",
        html_mail("html-style-unclosed", "<style>p{}<p>13-21</p>"),
    );
    add(
        "html-only-script",
        html_mail("html-only-script", "<script>alert(1)</script>"),
    );
    add(
        "html-100k-scripts",
        html_mail(
            "html-100k-scripts",
            &format!("{}<p>board</p>", "<script>x</script>".repeat(100_000)),
        ),
    );
    add(
        "html-100k-blockquotes",
        html_mail(
            "html-100k-blockquotes",
            &format!(
                "<p>board</p>{}",
                "<blockquote>13-21</blockquote>".repeat(100_000)
            ),
        ),
    );
    add(
        "html-100k-open-tags",
        html_mail(
            "html-100k-open-tags",
            &format!("{}board", "<".repeat(100_000)),
        ),
    );
    add(
        "html-deep-divs",
        html_mail(
            "html-deep-divs",
            &format!(
                "{}board{}",
                "<div>".repeat(100_000),
                "</div>".repeat(100_000)
            ),
        ),
    );
    add(
        "html-entities-move",
        html_mail("html-entities-move", "<p>&#49;&#51;&#x2d;&#50;&#49;</p>"),
    );
    add(
        "html-entities-garbage",
        html_mail(
            "html-entities-garbage",
            "<p>&#xFFFFFFFF;&#0;&#55296;&#x110000;&;&#;&#x;&amp board</p>",
        ),
    );
    add(
        "html-ampersand-non-ascii",
        html_mail("html-ampersand-non-ascii", "<p>& Zéééééé</p><p>board</p>"),
    );
    add(
        "html-comment-move",
        html_mail("html-comment-move", "<!-- 13-21 --><p>board</p>"),
    );
    add(
        "html-javascript-links",
        html_mail(
            "html-javascript-links",
            "<a href=\"javascript:alert(1)\" onclick=\"x()\">board</a><iframe src=\"http://example.com/\"></iframe>",
        ),
    );
    add(
        "html-tracking-image",
        html_mail(
            "html-tracking-image",
            "<img src=\"http://tracker.example.com/pixel.gif\"><p>board</p>",
        ),
    );
    add(
        "html-10mb",
        html_mail("html-10mb", &"<b>chatter</b> ".repeat(10 << 20 >> 4)),
    );
}

/// HTML (part 2).
pub(super) fn html_2(add: &mut Add) {
    let m = M::new;
    add(
        "html-declared-text",
        m("html-declared-text")
            .text("<html><script>x</script><p>board</p></html>")
            .bytes(),
    );
}

/// Header injection in names, subjects and ids: replies must carry (part 1 of 2).
/// pbem's headers only.
pub(super) fn injection_1(add: &mut Add) {
    add(
        "name-raw-crlf",
        inject_mail(
            "name-raw-crlf",
            "From",
            "Alice\r\nBcc: evil@example.com <alice@example.org>",
        ),
    );
    add(
        "name-encoded-crlf-q",
        inject_mail(
            "name-encoded-crlf-q",
            "From",
            "=?utf-8?q?Alice=0D=0ABcc:_evil@example.com?= <alice@example.org>",
        ),
    );
    add(
        "name-encoded-crlf-b",
        inject_mail(
            "name-encoded-crlf-b",
            "From",
            "=?utf-8?b?QWxpY2UNCkJjYzogZXZpbEBleGFtcGxlLmNvbQ==?= <alice@example.org>",
        ),
    );
    add(
        "name-encoded-lf",
        inject_mail(
            "name-encoded-lf",
            "From",
            "=?utf-8?q?Alice=0ABcc:_evil@example.com?= <alice@example.org>",
        ),
    );
    add(
        "name-encoded-cr",
        inject_mail(
            "name-encoded-cr",
            "From",
            "=?utf-8?q?Alice=0DBcc:_evil@example.com?= <alice@example.org>",
        ),
    );
    add(
        "name-encoded-nul",
        inject_mail(
            "name-encoded-nul",
            "From",
            "=?utf-8?q?Alice=00Bcc:_evil@example.com?= <alice@example.org>",
        ),
    );
    add(
        "name-with-an-address",
        inject_mail(
            "name-with-an-address",
            "From",
            "\"Alice <evil@example.com>\" <alice@example.org>",
        ),
    );
    add(
        "name-quotes-and-backslashes",
        inject_mail(
            "name-quotes-and-backslashes",
            "From",
            "\"A\\\"l\\\\i\\\"ce\" <alice@example.org>",
        ),
    );
    add(
        "name-bidi",
        inject_mail(
            "name-bidi",
            "From",
            "=?utf-8?q?=E2=80=AEecilA?= <alice@example.org>",
        ),
    );
    add(
        "subject-encoded-crlf-q",
        inject_mail(
            "subject-encoded-crlf-q",
            "Subject",
            "=?utf-8?q?x=0D=0ABcc:_evil@example.com?= [pbem bz-test1]",
        ),
    );
    add(
        "subject-encoded-crlf-b",
        inject_mail(
            "subject-encoded-crlf-b",
            "Subject",
            "=?utf-8?b?eA0KQmNjOiBldmlsQGV4YW1wbGUuY29t?= [pbem bz-test1]",
        ),
    );
    add(
        "subject-bare-cr",
        inject_mail(
            "subject-bare-cr",
            "Subject",
            "[pbem bz-test1] x\rBcc: evil@example.com",
        ),
    );
}

/// Header injection in names, subjects and ids: replies must carry (part 2).
pub(super) fn injection_2(add: &mut Add) {
    let m = M::new;
    add(
        "subject-bare-lf",
        inject_mail(
            "subject-bare-lf",
            "Subject",
            "[pbem bz-test1] x\nBcc: evil@example.com",
        ),
    );
    add(
        "subject-header-lookalike",
        inject_mail(
            "subject-header-lookalike",
            "Subject",
            "[pbem bz-test1] Bcc: evil@example.com",
        ),
    );
    add(
        "message-id-encoded-crlf",
        inject_mail(
            "message-id-encoded-crlf",
            "Message-ID",
            "<=?utf-8?q?a=0D=0ABcc:_evil@example.com?=@example.org>",
        ),
    );
    add(
        "message-id-bare-lf",
        inject_mail(
            "message-id-bare-lf",
            "Message-ID",
            "<a@example.org>\nBcc: evil@example.com",
        ),
    );
    add(
        "references-crlf",
        inject_mail(
            "references-crlf",
            "References",
            "<a@example.org>\r\nBcc: evil@example.com",
        ),
    );
    add(
        "reply-to-elsewhere",
        inject_mail("reply-to-elsewhere", "Reply-To", "evil@example.com"),
    );
    add(
        "to-encoded-crlf",
        inject_mail(
            "to-encoded-crlf",
            "To",
            "=?utf-8?q?x=0D=0ABcc:_evil@example.com?= <pbem+bz-test1.alicekey2345@example.net>",
        ),
    );
    add(
        "challenge-opponent-list",
        m("challenge-opponent-list")
            .set("To", "pbem@example.net")
            .set("Subject", "new game")
            .text("challenge mad bob@example.org,evil@example.com\n")
            .bytes(),
    );
    add(
        "challenge-opponent-angle-trick",
        m("challenge-opponent-angle-trick")
            .set("To", "pbem@example.net")
            .set("Subject", "new game")
            .text("challenge mad <bob@example.org>evil@example.com\n")
            .bytes(),
    );
    add(
        "challenge-opponent-not-an-address",
        m("challenge-opponent-not-an-address")
            .set("To", "pbem@example.net")
            .set("Subject", "new game")
            .text("challenge mad bob@@@\n")
            .bytes(),
    );
}

/// Unicode look-alikes, in plain text and in HTML.
pub(super) fn lookalikes(add: &mut Add) {
    let m = M::new;
    for (name, text) in LOOKALIKES {
        let n = format!("lookalike-{name}");
        add(&n, m(&n).text(&format!("{text}\n")).bytes());
        let n = format!("lookalike-html-{name}");
        add(&n, m(&n).html(&format!("<div>{text}</div>")).bytes());
    }
}
