//! Tests of the reply's own lines: quotes, signatures, HTML, and
//! replies as real clients write them.

use super::*;

#[test]
fn normalizes_client_noise() {
    assert_eq!(
        normalize("22-15\r\n\u{00A0}\u{200B}board\r\n"),
        "22-15\n board\n\n"
    );
    assert_eq!(normalize("#12=2022-15\n"), "#12 22-15\n\n");
    assert_eq!(normalize("２２－１５\nｂｏａｒｄ"), "22-15\nboard\n");
    assert_eq!(normalize("\u{202E}22-15\u{200E}"), "22-15\n");
    assert_eq!(normalize("mo=\nve 22-15\n"), "move 22-15\n\n");
    // Quoted-printable a client left encoded: UTF-8 decoded whole, else
    // only the spaces and `=`.
    assert_eq!(
        normalize("Fr=C3=A5n: pbem\n=C3=84mne: drag=203\n"),
        "Från: pbem\nÄmne: drag 3\n\n"
    );
    assert_eq!(normalize("a=A0b=3Dc =FF\n"), "a b=c =FF\n\n");
    assert_eq!(normalize("x=3D\n"), "x=\n\n");
}

#[test]
fn strips_quotes_and_signatures() {
    let gmail = "22-15\n\nOn Tue, 3 Nov 2026 at 10:00, pbem <pbem@example.org>\nwrote:\n> 1. red 58-50\n> board\n";
    assert_eq!(strip_quotes(gmail).trim(), "22-15");
    let outlook = "resign\n\n-----Original Message-----\nFrom: pbem\nSent: Tuesday\n22-15\n";
    assert_eq!(strip_quotes(outlook).trim(), "resign");
    let outlook2 = "board\nFrom: pbem <pbem@example.org>\nSent: Tuesday, 3 November 2026 10:00\nTo: Bob\n\n22-15";
    assert_eq!(strip_quotes(outlook2).trim(), "board");
    let sig = "22-15\n-- \nBob\n23-30\n";
    assert_eq!(strip_quotes(sig).trim(), "22-15");
    let inline = "> old\n22-15\n> older\n";
    assert_eq!(strip_quotes(inline).trim(), "22-15");
    let german = "22-15\nAm 03.11.2026 um 10:00 schrieb pbem:\n> x\n";
    assert_eq!(strip_quotes(german).trim(), "22-15");
    // Bottom-posting (Thunderbird): the reply below the quote is kept.
    let bottom = "On 19/11/2026 12:33, pbem wrote:\n> 1. red 58-50\n>\n> #3 1-9. Other\n\n22-15\n";
    assert_eq!(strip_quotes(bottom).trim(), "22-15");
    // Above unmarked old mail (a converted HTML quote), nothing after counts.
    let unmarked = "22-15\nOn Tue, pbem wrote:\n#3 1-9\n";
    assert_eq!(strip_quotes(unmarked).trim(), "22-15");
    // A line starting "On" that is not a quote header stays.
    assert_eq!(
        strip_quotes("On reflection: resign\n").trim(),
        "On reflection: resign"
    );
}

#[test]
fn an_ampersand_before_non_ascii_text_is_kept() {
    // Found by fuzz/fuzz_targets/mail.rs: a str slice inside 'é'.
    assert_eq!(decode_entities("& Zéééééé"), "& Zéééééé");
    assert_eq!(decode_entities("&é;x"), "&é;x");
    assert_eq!(html_to_text("<p>&€€€€;</p>").trim(), "&€€€€;");
    assert_eq!(decode_entities("&amp;é"), "&é");
}

#[test]
fn every_html5_entity_is_decoded() {
    assert_eq!(
        decode_entities("22&ndash;15 &rarr; &eacute;t&eacute;&hellip; &#8212;&#x2014;"),
        "22–15 → été… ——"
    );
    assert_eq!(decode_entities("a&nbsp;b"), "a b");
    assert_eq!(decode_entities("&CounterClockwiseContourIntegral;"), "∳");
    assert_eq!(
        decode_entities("&unknownname; &amp &;"),
        "&unknownname; &amp &;"
    );
    assert_eq!(
        html_to_text("<p>22&ndash;15&nbsp;&hellip;</p>").trim(),
        "22–15 …"
    );
}

#[test]
fn many_tags_take_linear_time() {
    let html = format!(
        "{}<p>22-15</p>{}",
        "<SCRIPT>x</script><blockquote>q</blockquote>".repeat(100_000),
        "<style>".repeat(1000)
    );
    let t = std::time::Instant::now();
    let text = html_to_text(&html);
    assert!(t.elapsed().as_secs() < 5, "{:?}", t.elapsed());
    assert!(text.contains("22-15"));
    assert!(!text.contains('x') && !text.contains('q'));
}

#[test]
fn html_becomes_lines() {
    let html = "<html><head><style>p{}</style></head><body><div>22&ndash;15</div><div>board<br>moves&nbsp;22</div><blockquote>old 1-2</blockquote><script>alert(1)</script></body></html>";
    let t = html_to_text(html);
    let lines: Vec<&str> = t.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    assert_eq!(lines, ["22–15", "board", "moves 22", ">"]);
}

/// The commands pbem's own mail holds; none may survive quoting.
const OLD: &str = "board\nresign\n#3 1-9";

fn kept(text: &str) -> String {
    strip_quotes(text).trim().to_string()
}

/// Every row of the table in a realistic reply: recognised with a move
/// above it (top-posting) that survives and commands below it that do
/// not; attributions also above `>`, `|`, TAB and indented quotes with
/// the move below (bottom-posting).
#[test]
fn every_table_row_in_a_reply() {
    use quotes::Kind;
    for row in quotes::TABLE {
        for ex in row.examples {
            let name = format!("{} {ex:?}", row.name);
            let top = format!("22-15\n\n{ex}\n{OLD}\n");
            assert_eq!(kept(&top), "22-15", "{name}: top-posted");
            let top_tight = format!("22-15\n{ex}\n{OLD}\n");
            assert_eq!(kept(&top_tight), "22-15", "{name}: no blank line");
            match row.kind {
                Kind::Attribution => {
                    for prefix in ["> ", ">", "| ", "\t", "    "] {
                        let quoted: String =
                            OLD.lines().map(|l| format!("{prefix}{l}\n")).collect();
                        let bottom = format!("{ex}\n{quoted}\n22-15\n");
                        assert_eq!(kept(&bottom), "22-15", "{name}: bottom {prefix:?}");
                        let top = format!("22-15\n\n{ex}\n{quoted}");
                        assert_eq!(kept(&top), "22-15", "{name}: top {prefix:?}");
                    }
                }
                Kind::Signature => {
                    // Not alone on its line: no signature.
                    let inline = format!("Note: {ex}: 22-15\n");
                    assert_eq!(kept(&inline), inline.trim(), "{name}: inline");
                }
                Kind::Separator | Kind::Header => {
                    let bold = format!("22-15\n\n*{}\n{OLD}\n", ex.replacen(':', ":*", 1));
                    assert_eq!(kept(&bold), "22-15", "{name}: bold");
                }
            }
        }
    }
}

#[test]
fn header_labels_bold_spaced_and_fullwidth() {
    for block in [
        "*From:* pbem <pbem@example.net>\n*Sent:* Friday\n*To:* Bob",
        "**Von:** pbem\n**Gesendet:** Freitag\n**An:** Bob",
        "De : pbem\nEnvoyé : vendredi\nÀ : Bob",
        "差出人： pbem\n送信日時： 2026年11月20日\n件名： RE",
        "From: pbem\n\nSent: Friday",
    ] {
        assert_eq!(
            kept(&format!("22-15\n{block}\n{OLD}\n")),
            "22-15",
            "{block}"
        );
    }
}

#[test]
fn bottom_posted_and_interleaved_replies_keep_the_move() {
    let interleaved = "> 1. red 58-50\n22-15\n> board\n>> older\nresign\n> #3 1-9\n";
    assert_eq!(kept(interleaved), "22-15\nresign");
    let nested = "On Fri, pbem wrote:\n> > On Thu, Bob wrote:\n> > > board\n> resign\n\n22-15\n";
    assert_eq!(kept(nested), "22-15");
    // The reply below a quote goes on until a separator or signature.
    let below =
        "Le ven. 20 nov. 2026, pbem a écrit :\n> board\n\n22-15\n\nSent from my iPhone\nresign\n";
    assert_eq!(kept(below), "22-15");
    // A bare `>` (a dropped HTML quote) after an attribution is a quote.
    assert_eq!(kept("On Fri, pbem wrote:\n>\n\n22-15\n"), "22-15");
}

#[test]
fn chatter_is_not_a_quote_start() {
    for text in [
        "On reflection: resign",
        "From 22 I go to 15:\n22-15",
        "Den här gången: 22-15",
        "Den här gången skrev jag:\n22-15",
        "Here is what I wrote:\n22-15",
        "Sent from my phone: 22-15",
        "From: 22\nTo: 15",
        "Am I late? 22-15",
        "  22-15\n  board",
        "| 22-15\n| board",
        "\t22-15",
    ] {
        assert_eq!(kept(text), text.replace('\t', " ").trim(), "{text:?}");
    }
}

/// pbem's own lines (the `known` layer) in quotes of every prefix.
#[test]
fn known_lines_drop_their_block() {
    let ours = |l: &str| ["1. red 58-50", "Your move, Bob.", "board"].contains(&l);
    for prefix in ["| ", "|", "\t", "  ", "    ", "> "] {
        let quote =
            format!("{prefix}Your move, Bob.\n{prefix}\n{prefix}resign\n\n{prefix}#3 1-9\n");
        let text = format!("22-15\n\n{quote}\nboard please\n");
        let left = strip_quotes_with(&text, &ours);
        let left: Vec<&str> = left.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(left, ["22-15", "board please"], "{prefix:?}");
        // Nothing known in the block: only `>` drops it.
        let unknown = format!("22-15\n{prefix}resign\n");
        let want = if prefix.contains('>') {
            "22-15"
        } else {
            unknown.trim_end()
        };
        assert_eq!(
            strip_quotes_with(&unknown, &ours).trim_end(),
            want.replace('\t', " "),
            "{prefix:?}"
        );
    }
}

#[test]
fn known_unprefixed_span_drops_with_its_header() {
    let ours = |l: &str| ["1. red 58-50", "Your move, Bob."].contains(&l);
    // An attribution no row knows, above an unmarked quote.
    let text = "22-15\n\nQuoth the pbem, Friday:\nYour move, Bob.\nresign\n1. red 58-50\nboard\n\nalso: draw offer\n";
    // pbem writes no line that reads as a command: those in its
    // paragraph are the player's, interleaved without quote marks.
    assert_eq!(
        strip_quotes_with(text, &ours).trim(),
        "22-15\n\nresign\nboard\n\nalso: draw offer"
    );
    // Nothing known, nothing marked: nothing dropped.
    let plain = "22-15\n\nQuoth the pbem, Friday:\nresign\n";
    assert_eq!(strip_quotes_with(plain, &ours), plain);
    assert_eq!(strip_quotes_with(plain, &|_| false), plain);
    // `known` is never asked about blank lines.
    let asked = std::cell::RefCell::new(Vec::new());
    strip_quotes_with("a\n\n  \n> b\n", &|l: &str| {
        asked.borrow_mut().push(l.to_string());
        false
    });
    assert_eq!(*asked.borrow(), ["a"]);
}

/// Every HTML row: the quote dropped (a `>` left where it stood), the
/// reply above kept, nested elements of the same name matched; after
/// an element, the reply goes on; after a `Rest` marker, nothing does.
#[test]
fn every_html_row_drops_its_quote() {
    let words = |t: &str| -> Vec<String> {
        t.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect()
    };
    for q in quotes::HTML {
        let name = if q.tag.is_empty() { "div" } else { q.tag };
        let (html, want, reply): (String, &[&str], &[&str]) = match q.cut {
            quotes::Cut::Element => (
                format!(
                    "<div>22-15</div>{}<div>#3 1-9</div><{name}>board</{name}>resign</{name}><p>after</p>",
                    q.example
                ),
                &["22-15", ">", "after"],
                &["22-15", "after"],
            ),
            quotes::Cut::Rest => (
                format!(
                    "<div>22-15</div>{}<div>board</div></div><p>resign</p>",
                    q.example
                ),
                &["22-15", ">"],
                &["22-15"],
            ),
        };
        let text = html_to_text(&html);
        assert_eq!(words(&text), want, "{}", q.example);
        assert_eq!(
            words(&strip_quotes(&normalize(&text))),
            reply,
            "{}",
            q.example
        );
    }
}

#[test]
fn html_quote_nesting_and_attribution() {
    let gmail = r#"<div dir="ltr">22-15</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Fri, pbem wrote:<br></div><div><div>board</div></div><blockquote class="gmail_quote">resign</blockquote></div><div>draw</div>"#;
    let t = html_to_text(gmail);
    assert!(!t.contains("board") && !t.contains("resign"), "{t:?}");
    assert!(t.contains("draw"));
    let thunderbird = r#"<p>22-15</p><div class="moz-cite-prefix">On 20/11/2026 10:00, pbem wrote:<br></div><blockquote type="cite" cite="mid:x@y"><blockquote>board</blockquote>resign</blockquote><p>draw</p>"#;
    let t = html_to_text(thunderbird);
    assert_eq!(
        strip_quotes(&normalize(&t))
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["22-15", "draw"]
    );
    // A quote never closed runs to the end; a comment is no element.
    assert!(!html_to_text("22-15<blockquote><div>board").contains("board"));
    assert!(html_to_text("<!-- <div class=\"gmail_quote\"> -->22-15").contains("22-15"));
    // Deep nesting stays linear.
    let deep = format!(
        "<p>22-15</p><div class=\"gmail_quote\">{}x{}</div><p>draw</p>",
        "<div>".repeat(100_000),
        "</div>".repeat(100_000)
    );
    let t = std::time::Instant::now();
    let text = html_to_text(&deep);
    assert!(t.elapsed().as_secs() < 5);
    assert!(text.contains("draw") && !text.contains('x'));
}

#[test]
fn hostile_input_never_panics_and_stays_linear() {
    let long = format!("{}\n", "a:".repeat(100_000));
    let many = "On x\nwrote\n".repeat(50_000) + &"From: a\n".repeat(50_000);
    let tabs = "\t|>\t \u{3000}：\n".repeat(50_000);
    let t = std::time::Instant::now();
    for text in [
        long.as_str(),
        many.as_str(),
        tabs.as_str(),
        "",
        "\n",
        ">",
        "-- ",
    ] {
        strip_quotes_with(text, &|l| l.len() % 3 == 0);
        strip_quotes(text);
    }
    assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
}

/// Whole replies as the clients write them (plain text), each with the
/// move on top or below and pbem's commands in the quote: (client, reply).
const CLIENT_REPLIES: &[(&str, &str)] = &[
    (
        "gmail",
        "22-15\n\nOn Fri, Nov 20, 2026 at 10:00 AM pbem <pbem@example.net> wrote:\n\n> Your move.\n> board\n>\n",
    ),
    (
        "gmail-ru",
        "22-15\n\nпт, 20 нояб. 2026 г. в 10:00, pbem <pbem@example.net>:\n\n> board\n",
    ),
    (
        "gmail-ja",
        "22-15\n\n2026年11月20日(金) 10:00 pbem <pbem@example.net>:\n\n> board\n",
    ),
    (
        "outlook-desktop",
        "22-15\n\n-----Original Message-----\nFrom: pbem <pbem@example.net> \nSent: Friday, November 20, 2026 10:00 AM\nTo: Bob <bob@example.org>\nSubject: bz-test1\n\nboard\n",
    ),
    (
        "outlook-web",
        "22-15\n\n________________________________\nFrom: pbem <pbem@example.net>\nSent: Friday, November 20, 2026 10:00\nTo: Bob\nSubject: bz-test1\n\nboard\n",
    ),
    (
        "outlook-ios",
        "22-15\n\nGet Outlook for iOS\n________________________________\nFrom: pbem <pbem@example.net>\nSent: Friday, November 20, 2026 10:00:00 AM\nTo: Bob\nSubject: bz-test1\n\nboard\n",
    ),
    (
        "outlook-mac-de",
        "22-15\n\nVon: pbem <pbem@example.net>\nDatum: Freitag, 20. November 2026 um 10:00\nAn: Bob\nBetreff: bz-test1\n\nboard\n",
    ),
    (
        "iphone",
        "22-15\n\nSent from my iPhone\n\n> On 20 Nov 2026, at 10:00, pbem <pbem@example.net> wrote:\n>\n> board\n",
    ),
    (
        "apple-mail-fr",
        "22-15\n\n> Le 20 nov. 2026 à 10:00, pbem <pbem@example.net> a écrit :\n>\n> board\n",
    ),
    (
        "thunderbird-bottom",
        "On 20/11/2026 10:00, pbem wrote:\n> Your move.\n> board\n\n22-15\n",
    ),
    (
        "yahoo-indented",
        "22-15\n\n    On Friday, November 20, 2026, 10:00:00 AM GMT, pbem <pbem@example.net> wrote:\n\n    board\n",
    ),
    (
        "aol",
        "22-15\n\n-----Original Message-----\nFrom: pbem <pbem@example.net>\nTo: bob@example.org\nSent: Fri, Nov 20, 2026 10:00 am\nSubject: bz-test1\n\nboard\n",
    ),
    (
        "zimbra",
        "22-15\n\n----- Original Message -----\nFrom: \"pbem\" <pbem@example.net>\nTo: \"Bob\" <bob@example.org>\nSent: Friday, November 20, 2026 10:00:00 AM\nSubject: bz-test1\n\nboard\n",
    ),
    (
        "zoho",
        "22-15\n\n---- On Fri, 20 Nov 2026 10:00:00 +0000 pbem <pbem@example.net> wrote ----\n\nboard\n",
    ),
    (
        "samsung",
        "22-15\n\n\nSent from my Galaxy\n\n\n-------- Original message --------\nFrom: pbem <pbem@example.net>\nDate: 20/11/2026 10:00 (GMT+00:00)\nTo: Bob\nSubject: bz-test1\n\nboard\n",
    ),
    (
        "samsung-da",
        "22-15\n\n-------- Oprindelig besked --------\nFra: pbem <pbem@example.net>\nDato: 20.11.2026 10.00 (GMT+01:00)\nTil: Bob\nEmne: bz-test1\n\nboard\n",
    ),
    (
        "k9",
        "22-15\n\nOn November 20, 2026 10:00:00 AM UTC, pbem <pbem@example.net> wrote:\n>board\n",
    ),
    (
        "windows-mail",
        "22-15\n\nSent from Mail for Windows\n\nFrom: pbem\nSent: Friday, November 20, 2026 10:00\nTo: Bob\nSubject: bz-test1\n\nboard\n",
    ),
    (
        "roundcube",
        "On 2026-11-20 10:00, pbem wrote:\n> board\n\n22-15\n",
    ),
    (
        "open-xchange-de",
        "22-15\n\n> pbem <pbem@example.net> hat am 20. November 2026 um 10:00 geschrieben:\n>\n> board\n",
    ),
    (
        "mail-ru",
        "22-15\n\n\nПятница, 20 ноября 2026, 10:00 +03:00 от pbem <pbem@example.net>:\n\n>board\n",
    ),
    (
        "yandex",
        "22-15\n\n20.11.2026, 10:00, \"pbem\" <pbem@example.net>:\n\nboard\n",
    ),
    (
        "mutt",
        "* pbem <pbem@example.net> [2026-11-20 10:00]:\n> board\n\n22-15\n",
    ),
    (
        "alpine",
        "On Fri, 20 Nov 2026, pbem wrote:\n\n> board\n\n22-15\n",
    ),
    (
        "s-nail",
        "pbem <pbem@example.net> wrote:\n |board\n\n22-15\n",
    ),
    (
        "qq",
        "22-15\n\n------------------ 原始邮件 ------------------\n发件人: \"pbem\"<pbem@example.net>;\n发送时间: 2026年11月20日(星期五) 上午10:00\n收件人: \"Bob\"<bob@example.org>;\n主题: bz-test1\n\nboard\n",
    ),
    (
        "gmail-zh",
        "22-15\n\npbem <pbem@example.net> 于2026年11月20日周五 10:00写道：\n\n> board\n",
    ),
    (
        "forward",
        "22-15\n\n---------- Forwarded message ---------\nFrom: pbem <pbem@example.net>\nDate: Fri, Nov 20, 2026 at 10:00 AM\nSubject: bz-test1\nTo: Bob\n\nboard\n",
    ),
];

#[test]
fn client_replies() {
    for (client, text) in CLIENT_REPLIES {
        assert_eq!(kept(text), "22-15", "{client}");
    }
}

/// HTML-only replies as Outlook desktop and Apple Mail send them.
#[test]
fn html_client_replies() {
    let outlook = r#"<html><head><style><!-- p.MsoNormal {margin:0cm} --></style></head><body lang="EN-GB"><div class="WordSection1"><p class="MsoNormal">22-15<o:p></o:p></p><p class="MsoNormal"><o:p>&nbsp;</o:p></p><div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal"><b>From:</b> pbem &lt;pbem@example.net&gt;<br><b>Sent:</b> Friday, November 20, 2026 10:00 AM<br><b>To:</b> Bob<br><b>Subject:</b> bz-test1</p></div></div><p class="MsoNormal">board</p></div></body></html>"#;
    let apple = r#"<html><body dir="auto"><div>22-15</div><div><br><blockquote type="cite">On 20 Nov 2026, at 10:00, pbem &lt;pbem@example.net&gt; wrote:<br><br></blockquote></div><blockquote type="cite"><div>board<blockquote type="cite">resign</blockquote></div></blockquote></body></html>"#;
    let outlook_web = r#"<div dir="ltr">22-15</div><hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><b>From:</b> pbem</div><div>board</div>"#;
    for html in [outlook, apple, outlook_web] {
        let text = strip_quotes(&normalize(&html_to_text(html)));
        assert_eq!(
            text.split_whitespace().collect::<Vec<_>>(),
            ["22-15"],
            "{html}"
        );
    }
}

/// Random text of the characters quote recognition looks at: no
/// panic, whatever the shape.
#[test]
fn random_text_never_panics() {
    let alphabet: Vec<char> = "> |\t\n:：<>/=\"-_@*2015.aé年ivdblockquote写道Onwrote"
        .chars()
        .collect();
    let mut rng = fastrand::Rng::with_seed(5);
    for _ in 0..3000 {
        let len = rng.usize(0..200);
        let text: String = (0..len)
            .map(|_| alphabet[rng.usize(0..alphabet.len())])
            .collect();
        strip_quotes_with(&text, &|l| l.len() % 2 == 0);
        html_to_text(&text);
        normalize(&text);
    }
}

/// A mail of pbem's in a wording it no longer sends: a line that reads
/// as a command (`#5 22-15. Other ...` starts like a move), a list of
/// moves, a board's rows, a signature line.
const OLD_WORDING: &str = "Bob played 50-26 (move 4). It is your move: move #5.\n\n\
    | 1 | 2 | 3 |\n| 4 | 5 | 6 |\n\nLegal moves: 50-26, 50-29, 50-33\n\
    To play, reply with your move on a line of its own, as in\n#5 22-15. Other commands: \
    board, moves, draw,\nresign, help.\n--\nYour reply address carries your key.\n";

/// Replies in shapes no row of the table names, quoting a mail of an
/// earlier wording, with no memory of it: the player's move, and nothing
/// of the quote.
#[test]
fn replies_found_by_their_shape_alone() {
    for (name, text) in shape_cases() {
        let got = kept(&normalize(&text));
        assert_eq!(got, "22-15", "{name}:\n{text}");
        // With a memory of other lines, the same.
        let other = |l: &str| l == "Your move, Bob.";
        assert_eq!(
            strip_quotes_with(&normalize(&text), &other).trim(),
            "22-15",
            "{name} with a memory"
        );
    }
}

/// The replies of [`replies_found_by_their_shape_alone`].
fn shape_cases() -> Vec<(&'static str, String)> {
    let quoted = |prefix: &str| -> String {
        OLD_WORDING
            .lines()
            .map(|l| format!("{prefix}{l}\n"))
            .collect()
    };
    let cases = [
        (
            "outlook-sv",
            format!(
                "22-15\n\nFrån: pbem <pbem@example.net>\nSkickat: den 20 november 2026 10:00\n\
                 Till: Alice\nÄmne: SV: [pbem bz-test1]\n\n{OLD_WORDING}"
            ),
        ),
        (
            "windows-phone-es",
            format!(
                "22-15\n\nDe: pbem\nEnviado: 20/11/2026 10:00\nPara: Alice\nAsunto: RE: partida\n\n{OLD_WORDING}"
            ),
        ),
        (
            "google-apps-sync-bold",
            format!(
                "22-15\n\n*From:* pbem [mailto:pbem@example.net]\n*Sent:* Friday, November 20, 2026 \
                 10:00 AM\n*To:* Alice\n*Subject:* RE: game\n\n{OLD_WORDING}"
            ),
        ),
        (
            "outlook-quoting-iphone",
            format!(
                "22-15\n\nFrom: Alice <alice@example.org>\nSent: Friday, November 20, 2026 11:00\n\
                 To: pbem\nSubject: Re: game\n\nboard\n\nSent from my iPhone\n\n\
                 On 20 Nov 2026, at 10:00, pbem <pbem@example.net> wrote:\n\n{OLD_WORDING}"
            ),
        ),
        (
            "hungarian-unmarked",
            format!(
                "22-15\n\npbem <pbem@example.net> ezt írta (időpont: 2026. nov. 20., P 10:00):\n\n{OLD_WORDING}"
            ),
        ),
        (
            "pt-pt-gmail",
            format!(
                "22-15\n\npbem <pbem@example.net> escreveu no dia sexta, 20/11/2026 à(s) 10:00:\n\n{}",
                quoted("> ")
            ),
        ),
        (
            "french-four-lines",
            format!(
                "22-15\n\nLe ven. 20 nov. 2026 à 10:00, Alexandra Zoë Konstantinopoulou-Smythe\n<\n\
                 alexandra.konstantinopoulou@example.org>\na écrit :\n\n{OLD_WORDING}"
            ),
        ),
        (
            "mailx-tilde-m",
            format!(
                "22-15\n\n{}",
                quoted("\t").replace(
                    "\tBob played",
                    "\tFrom: pbem <pbem@example.net>\n\tDate: Fri, 20 Nov 2026 10:00:00 +0000\n\t\
                     Subject: [pbem bz-test1]\n\tX-Pbem-Loop: example.net\n\t\n\tBob played"
                )
            ),
        ),
        (
            "mailx-tilde-m-below",
            format!(
                "{}\n22-15\n",
                quoted("\t").replace(
                    "\tBob played",
                    "\tFrom: pbem <pbem@example.net>\n\tTo: alice@example.org\n\t\
                     Date: Fri, 20 Nov 2026 10:00:00 +0000\n\t\n\tBob played"
                )
            ),
        ),
        (
            "bottom-posted-unmarked",
            format!(
                "On Fri, 20 Nov 2026 at 10:00, pbem <pbem@example.net> wrote:\n\n{OLD_WORDING}\n22-15\n"
            ),
        ),
        (
            "interleaved-unmarked",
            format!(
                "Am 20.11.2026 um 10:00 schrieb pbem:\n{}\n22-15\n\n{}",
                &OLD_WORDING[..60],
                &OLD_WORDING[60..]
            ),
        ),
    ];
    cases.into()
}

/// A command the player wrote above the quote wins: commands inside
/// unmarked old mail then stay old mail.
#[test]
fn a_command_above_the_quote_keeps_the_old_mail_old() {
    let text = "board\n\nFrom: pbem <pbem@example.net>\nSent: Friday, 20 November 2026\n\
        To: Alice\n\n22-15\n";
    assert_eq!(kept(text), "board");
    // Below a separator is another's mail: never read.
    let forward = "Have a look:\n\n---------- Forwarded message ---------\nFrom: Bob\n\nresign\n";
    assert_eq!(kept(forward), "Have a look:");
}

/// The player's own old mail quoted back (Outlook over their iPhone
/// reply) holds none of their new commands; pbem's mail to them, named
/// in its `To:` line, may hold their interleaved ones.
#[test]
fn the_senders_own_old_mail_holds_no_new_command() {
    let sender = ["alice@example.org", "Alice Example"];
    let own_old = "Thanks!\n\nFrom: Alice Example <alice@example.org>\nSent: Friday, 20 November 2026 11:00\n\
        To: pbem\nSubject: Re: game\n\nmoves 13\n\nSent from my iPhone\n";
    assert_eq!(strip_reply(own_old, &sender, &|_| false).trim(), "Thanks!");
    let attributed = "Thanks!\n\nOn Fri, 20 Nov 2026, Alice Example wrote:\n\nmoves 13\n";
    assert_eq!(
        strip_reply(attributed, &sender, &|_| false).trim(),
        "Thanks!"
    );
    let pbems = "Thanks!\n\nFrom: pbem <pbem@example.net>\nSent: Friday, 20 November 2026 11:00\n\
        To: Alice Example <alice@example.org>\nSubject: game\n\nYour move.\n\n13-21\n\nMore of pbem's words.\n";
    assert_eq!(
        strip_reply(pbems, &sender, &|_| false).trim(),
        "Thanks!\n\n13-21"
    );
    // A line ending a paragraph of old mail is no reply.
    let wrapped = "Thanks!\n\nOn Fri, 20 Nov 2026 at 10:00, pbem <pbem@example.net> wrote:\n\n\
        Black wins by reaching the far row, red beyond\n1-8.\n";
    assert_eq!(strip_reply(wrapped, &sender, &|_| false).trim(), "Thanks!");
}
