//! The loops of tests/server/storms.rs: autoresponders answering every pbem
//! mail, fast and slow, a bouncing address, two pbems answering each
//! other through a relay that strips loop headers, and an answer made of
//! nothing but pbem's own text. Each ends, whatever its pace.

use super::*;

/// an autoresponder without RFC 3834 headers answering every
/// pbem mail, polled as fast as a daemon answers: the hourly limit
/// stops it.
#[test]
fn an_autoresponder_loop_dies_at_the_hourly_limit() {
    let _shared = crate::common::lock::shared();
    let limits = Limits::default();
    away_loop(Duration::minutes(1), 40, limits.replies_per_hour);
}

/// the same autoresponder, polled by cron every five minutes:
/// twelve rounds an hour never reach the hourly limit, and the daily one
/// stops it.
#[test]
fn a_slow_autoresponder_loop_dies_at_the_daily_limit() {
    let _shared = crate::common::lock::shared();
    let limits = Limits::default();
    assert!(
        12 < limits.replies_per_hour,
        "this case needs a loop slower than the hourly limit"
    );
    away_loop(
        Duration::minutes(5),
        limits.replies_per_day as usize + 20,
        limits.replies_per_day,
    );
}

/// A bounce of `got` (sent to `to`) of the given kind.
fn bounce(kind: &str, n: usize, to: &str, raw: &[u8], got: &Received) -> String {
    let original = String::from_utf8_lossy(raw).replace("\r\n", "\n");
    let crlf = |s: String| s.replace("\r\n", "\n").replace('\n', "\r\n");
    match kind {
        // A DSN as Postfix writes it: from MAILER-DAEMON, multipart/report
        // with the original attached.
        "dsn" => crlf(format!(
            "From: MAILER-DAEMON@mx.bouncing.example (Mail Delivery System)\n\
             To: {PBEM}\nSubject: Undelivered Mail Returned to Sender\n\
             Message-ID: <dsn.{n}@mx.bouncing.example>\n\
             MIME-Version: 1.0\n\
             Content-Type: multipart/report; report-type=delivery-status; boundary=\"b{n}\"\n\n\
             --b{n}\nContent-Type: text/plain\n\n\
             I'm sorry to have to inform you that your message could not be delivered.\n\n\
             <{to}>: host mx.bouncing.example said: 550 5.1.1 User unknown\n\n\
             --b{n}\nContent-Type: message/delivery-status\n\n\
             Reporting-MTA: dns; mx.bouncing.example\n\n\
             Final-Recipient: rfc822; {to}\nAction: failed\nStatus: 5.1.1\n\n\
             --b{n}\nContent-Type: message/rfc822\n\n{original}\n--b{n}--\n"
        )),
        // A delivery report from an address that does not look like a mail
        // system's.
        "report" => crlf(format!(
            "From: Mail Delivery Subsystem <delivery@mx.bouncing.example>\n\
             To: {PBEM}\nSubject: Delivery Status Notification (Failure)\n\
             Message-ID: <report.{n}@mx.bouncing.example>\n\
             MIME-Version: 1.0\n\
             Content-Type: multipart/report; report-type=delivery-status; boundary=\"r{n}\"\n\n\
             --r{n}\nContent-Type: text/plain\n\nAddress not found: {to}\n\n\
             --r{n}\nContent-Type: message/delivery-status\n\n\
             Final-Recipient: rfc822; {to}\nAction: failed\nStatus: 5.1.1\n\n\
             --r{n}\nContent-Type: message/rfc822\n\n{original}\n--r{n}--\n"
        )),
        // A naive bounce: plain text, no header saying what it is, the
        // original pasted in below.
        "naive" => crlf(format!(
            "From: Mail System <noreply@mx.bouncing.example>\n\
             To: {PBEM}\nSubject: failure notice\n\
             Message-ID: <naive.{n}@mx.bouncing.example>\n\n\
             Hi. This is the mail program at mx.bouncing.example.\n\
             I'm afraid I wasn't able to deliver your message to {to}.\n\n\
             --- Below this line is a copy of the message.\n\n{original}"
        )),
        // A naive bounce with the original's text only, no headers.
        "text-only" => crlf(format!(
            "From: Mail System <noreply@mx.bouncing.example>\n\
             To: {PBEM}\nSubject: Undeliverable: {}\n\
             Message-ID: <text.{n}@mx.bouncing.example>\n\n\
             Your message to {to} could not be delivered.\n\n{}",
            got.subject, got.text
        )),
        other => panic!("no bounce kind {other}"),
    }
}

/// the opponent's address bounces every pbem mail, in four
/// ways. No loop: every bounce is dropped with its reason, nothing is
/// sent because of it, and the game goes on for the player whose mail
/// works.
#[test]
fn a_bouncing_address_makes_no_loop() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let bob = "bob@bouncing.example";
    let [alice_key, _] = w.game("bz-bounce", ["Alice <alice@example.org>", bob]);
    let alice_to = format!("pbem+bz-bounce.{alice_key}@example.net");
    // Each of Alice's mails makes pbem write to Bob: her move, a draw
    // offer, `board` (to her only), her resignation.
    let alice_mails = ["#1 6-13", "draw", "board", "resign"];
    let kinds = ["dsn", "report", "naive", "text-only"];
    let reasons = [
        "dropped, automated mail: sent by mailer-daemon@mx.bouncing.example (a bounce)",
        "dropped, automated mail: a delivery-status report (multipart/report)",
        "dropped, automated mail: it carries a mail pbem sent, with its X-Pbem-Loop header",
        "dropped: noreply@mx.bouncing.example is not a player of bz-bounce",
    ];
    let mut bounced = 0;
    let mut to_bob = Vec::new();
    for (i, body) in alice_mails.iter().enumerate() {
        w.now += Duration::minutes(10);
        w.deliver(&mail(
            "Alice <alice@example.org>",
            &alice_to,
            "Re: [pbem bz-bounce] Boom & Zoom",
            &format!("<alice.{i}@example.org>"),
            body,
        ));
        w.poll();
        // Bob's mail system bounces what pbem sent him, in turn in each
        // of the first three ways, for as long as pbem sends him mail.
        for _round in 0..5 {
            let new = w.mails_to(bob);
            if new.is_empty() {
                break;
            }
            for (raw, got) in new {
                let k = bounced % 3;
                bounced += 1;
                w.deliver(&bounce(kinds[k], bounced, bob, &raw, &got));
                w.now += Duration::minutes(1);
                let r = w.poll();
                assert_eq!(
                    (r.handled, r.refused, r.sent),
                    (1, 0, 0),
                    "{}: {r:?}",
                    kinds[k]
                );
                let fate = &fates(&r)[0];
                assert!(fate.contains(reasons[k]), "{}: {fate}", kinds[k]);
                to_bob.push((raw, got));
            }
        }
        // Alice got her one answer, and nothing because of the bounces.
        assert_eq!(w.mails_to("alice@example.org").len(), 1, "{body}");
    }
    // One mail to Bob for each of Alice's mails but `board`, each bounced
    // once, each bounce answered by nothing.
    assert_eq!((to_bob.len(), bounced), (3, 3));
    // The fourth way, a bounce with the text of pbem's last mail to Bob
    // and none of its headers: it names the game, and is not from a
    // player of it.
    let (raw, got) = &to_bob[2];
    assert!(got.subject.contains("[pbem bz-bounce]"), "{}", got.subject);
    w.deliver(&bounce(kinds[3], 4, bob, raw, got));
    let r = w.poll();
    assert_eq!((r.handled, r.sent), (1, 0), "{r:?}");
    assert!(fates(&r)[0].contains(reasons[3]), "{:?}", fates(&r));
    let rec = w.record("bz-bounce");
    assert_eq!(rec.verdict().word(rec.rules), "red");
    assert_eq!(w.pending(), 0);
    for dir in fs::read_dir(w.dir.path().join("mail/sent")).unwrap() {
        let name = dir.unwrap().file_name().to_string_lossy().to_string();
        assert!(
            name == "alice@example.org" || name == bob,
            "pbem wrote to {name}"
        );
    }
}

/// item 5: an autoresponder answering every pbem mail (no RFC
/// 3834 headers, pbem's text quoted under its own), with a round trip of
/// half an hour and of six hours: too slow for the hourly and daily
/// limits, it still ends, after `fruitless_in_a_row` refused mails in a
/// row (the last answer replaced by a notice), over 200 simulated hours.
/// Bob's own move later is played and answered, and so is his `board`.
#[test]
fn a_slow_autoresponder_loop_ends_whatever_its_pace() {
    let _shared = crate::common::lock::shared();
    for step in [Duration::minutes(30), Duration::hours(6)] {
        let mut w = World::new();
        let cap = w.limits().fruitless_in_a_row as usize;
        assert!(cap > 0);
        let bob = "bob@example.org";
        let [alice_key, bob_key] = w.game(
            "bz-away",
            ["Alice <alice@example.org>", "Bob <bob@example.org>"],
        );
        w.deliver(&mail(
            "Alice <alice@example.org>",
            &format!("pbem+bz-away.{alice_key}@example.net"),
            "Re: [pbem bz-away] the game begins",
            "<alice.1@example.org>",
            "#1 6-13",
        ));
        w.poll();
        let rounds = (Duration::hours(200).num_minutes() / step.num_minutes()) as usize;
        let mut got: Vec<Received> = Vec::new();
        let mut last_mail_round = 0;
        for round in 1..=rounds {
            let new = w.mails_to(bob);
            if !new.is_empty() {
                last_mail_round = round;
            }
            for (_, r) in new {
                w.deliver(&away_answer(got.len() + 1, "Bob <bob@example.org>", &r));
                got.push(r);
            }
            w.now += step;
            w.poll();
        }
        let subjects: Vec<&str> = got.iter().map(|r| r.subject.as_str()).collect();
        // The news, cap - 1 refusals, the notice; then nothing.
        assert_eq!(got.len(), 1 + cap, "every {step}: {subjects:#?}");
        for r in &got[1..cap] {
            assert!(
                r.headline().contains("Your mail was not accepted"),
                "{}",
                r.text
            );
        }
        let notice = got.last().unwrap();
        assert!(
            notice
                .subject
                .contains("no longer answers mails it cannot act on"),
            "{subjects:#?}"
        );
        assert!(
            notice.text.contains(&format!("last {cap} mails")),
            "{}",
            notice.text
        );
        assert!(
            last_mail_round <= cap + 1,
            "mail for Bob until round {last_mail_round}"
        );
        assert_eq!(w.pending(), 0);
        println!(
            "autoresponder every {} min: {} mails to it in 200 hours, the last in round {last_mail_round} of {rounds}",
            step.num_minutes(),
            got.len()
        );
        // Bob himself: his move is played and he hears of it; his `board`
        // is answered.
        w.deliver(&mail(
            "Bob <bob@example.org>",
            &format!("pbem+bz-away.{bob_key}@example.net"),
            "Re: [pbem bz-away] Boom & Zoom",
            "<bob.back@example.org>",
            "#2 61-34\nboard",
        ));
        w.poll();
        let back = w.mails_to(bob);
        assert_eq!(w.moves("bz-away"), ["6-13", "61-34"]);
        assert!(
            back.iter()
                .any(|m| m.1.headline().contains("Red played 61-34")),
            "{:?}",
            back.iter()
                .map(|m| m.1.headline().to_string())
                .collect::<Vec<_>>()
        );
    }
}

/// A mail made only of lines pbem sent its sender, however quoted (an
/// autoresponder that answers with the mail it got): an answer to pbem's
/// own mail by its content, never answered.
#[test]
fn an_answer_of_nothing_but_pbems_own_text_is_not_answered() {
    let _shared = crate::common::lock::shared();
    let mut w = World::new();
    let carol = "carol@example.org";
    w.deliver(&mail(carol, PBEM, "hi", "<c.1@example.org>", "hello"));
    w.poll();
    let got = w.mails_to(carol);
    assert_eq!(got.len(), 1);
    // Her "autoresponder" sends pbem's text back, quoted one way or
    // another, and nothing else.
    for (n, quote) in ["> ", ">> ", "| "].iter().enumerate() {
        let echo: String = got[0]
            .1
            .text
            .lines()
            .map(|l| format!("{quote}{l}\n"))
            .collect();
        w.deliver(&mail(
            carol,
            PBEM,
            "Re: hi",
            &format!("<c.echo{n}@example.org>"),
            &echo,
        ));
        let r = w.poll();
        assert!(
            fates(&r)
                .iter()
                .all(|f| f.contains("an answer to pbem's own mail")),
            "{:?}",
            fates(&r)
        );
        assert!(w.mails_to(carol).is_empty(), "no answer to an echo");
    }
}

/// What a relay that strips loop headers leaves of a mail: no
/// Auto-Submitted, no Precedence, no X-Pbem-Loop.
fn stripped(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw).replace("\r\n", "\n");
    let (head, body) = text.split_once("\n\n").unwrap();
    let mut kept = Vec::new();
    for line in head.split('\n') {
        let name = line.split(':').next().unwrap_or("").to_ascii_lowercase();
        let cont = line.starts_with([' ', '\t']);
        if cont && kept.last().is_none_or(|l: &String| l.is_empty()) {
            continue;
        }
        if !cont && ["auto-submitted", "precedence", "x-pbem-loop"].contains(&name.as_str()) {
            kept.push(String::new());
            continue;
        }
        kept.push(line.to_string());
    }
    let head: Vec<String> = kept.into_iter().filter(|l| !l.is_empty()).collect();
    format!("{}\n\n{body}", head.join("\n")).replace('\n', "\r\n")
}

/// item 5: two pbems, each answering the other's mail, through
/// a relay that strips loop headers, with 25 minutes each way: the loop
/// ends, within a few rounds, from either side.
#[test]
fn two_pbems_without_loop_headers_stop_answering_each_other() {
    let _shared = crate::common::lock::shared();
    let (a_addr, b_addr) = ("pbem-a@example.net", "pbem-b@example.org");
    let mut a = World::at(a_addr);
    let mut b = World::at(b_addr);
    // Someone writes to A in B's name: the first mail of the loop.
    a.deliver(&mail(
        b_addr,
        a_addr,
        "hello",
        "<start@example.org>",
        "hello there",
    ));
    a.poll();
    let step = Duration::minutes(25);
    let (mut a_to_b, mut b_to_a, mut last) = (0, 0, 0);
    for round in 1..=400 {
        let mut moved = false;
        for (raw, _) in a.mails_to(b_addr) {
            b.deliver(&stripped(&raw));
            a_to_b += 1;
            moved = true;
        }
        b.now += step;
        b.poll();
        for (raw, _) in b.mails_to(a_addr) {
            a.deliver(&stripped(&raw));
            b_to_a += 1;
            moved = true;
        }
        a.now += step;
        a.poll();
        if moved {
            last = round;
        }
    }
    let cap = a.limits().fruitless_in_a_row as usize;
    println!(
        "two pbems, 25 minutes each way: {a_to_b} mails A to B, {b_to_a} B to A, the last in round {last} of 400"
    );
    assert!(
        a_to_b <= cap && b_to_a <= cap,
        "{a_to_b} and {b_to_a} mails"
    );
    assert!(last <= cap + 1, "the loop went on to round {last}");
    assert_eq!((a.pending(), b.pending()), (0, 0));
}
