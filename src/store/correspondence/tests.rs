use super::*;

#[test]
fn a_torn_newest_slot_reads_as_the_slot_before_it() {
    let mut c = Correspondence::new("alice@example.org");
    c.sent(
        Some("bz-1"),
        "s",
        "<p.1@x>",
        None,
        "first mail",
        "2026-11-20",
    );
    let old_state = c.clone();
    let old = c.body().unwrap();
    c.sent(
        Some("bz-1"),
        "s",
        "<p.2@x>",
        None,
        "second mail",
        "2026-11-21",
    );
    let new = slot_text(8, &c.body().unwrap());
    let before = slot_text(7, &old);
    // Whole, the newer one wins, in either slot.
    assert_eq!(newest([Some(&before), Some(&new)]).map(|n| n.1), Some(8));
    assert_eq!(newest([Some(&new), Some(&before)]).map(|n| n.1), Some(8));
    // Torn at every byte: cut short, or its tail zeroed.
    let expect = Some((0, 7, Some(old_state)));
    assert!(new.is_ascii());
    for at in 0..new.len() {
        let cut = &new[..at];
        assert_eq!(
            newest([Some(&before), Some(cut)]),
            expect.clone(),
            "cut at {at}"
        );
        let zeroed = format!("{}{}", cut, "\0".repeat(new.len() - cut.len()));
        assert_eq!(
            newest([Some(&before), Some(&zeroed)]),
            expect.clone(),
            "zeroed from {at}"
        );
    }
    // Old bytes left under new ones (a longer old state).
    let longer = format!("{new}{}", &before[new.len().min(before.len())..]);
    if longer != new {
        assert_eq!(newest([Some(&before), Some(&longer)]), expect.clone());
    }
    assert_eq!(newest([None, None]), None);
    assert_eq!(newest([Some("{}"), Some("")]), None);
}

#[test]
fn threads_follow_one_player_and_stay_short() {
    let mut c = Correspondence::new("alice@example.org");
    assert_eq!(c.headers("bz-1", None), (None, vec![]));
    c.sent(Some("bz-1"), "s", "<p.0@x>", None, "", "2026-11-20");
    let (irt, refs) = c.headers("bz-1", None);
    assert_eq!(irt.as_deref(), Some("<p.0@x>"));
    assert_eq!(refs, ["<p.0@x>"]);
    // Answering the player's own mail: it is In-Reply-To, and joins.
    let (irt, refs) = c.headers("bz-1", Some("<a.1@y>"));
    assert_eq!(irt.as_deref(), Some("<a.1@y>"));
    assert_eq!(refs, ["<p.0@x>", "<a.1@y>"]);
    for n in 1..30 {
        c.sent(
            Some("bz-1"),
            "t",
            &format!("<p.{n}@x>"),
            None,
            "",
            "2026-11-20",
        );
    }
    let (irt, refs) = c.headers("bz-1", None);
    assert_eq!(irt.as_deref(), Some("<p.29@x>"));
    assert_eq!(refs.len(), MAX_REFERENCES);
    assert_eq!(refs[0], "<p.0@x>");
    assert_eq!(refs.last().map(String::as_str), Some("<p.29@x>"));
    // The first subject stays the thread's.
    assert_eq!(c.subject("bz-1"), Some("s"));
    // Another game is another thread.
    assert_eq!(c.headers("bz-2", None), (None, vec![]));
}

/// [`line_key`] the general way, for any text.
fn line_key_by_chars(line: &str) -> Option<u64> {
    let line = line.trim_start_matches(['>', '|', '\t', ' ']);
    let mut joined = String::new();
    for word in line.split_whitespace() {
        if !joined.is_empty() {
            joined.push(' ');
        }
        joined.push_str(&word.to_lowercase());
    }
    let joined = joined.trim_end_matches(['.', '!', ',', ':', ';']);
    let alnum = joined.chars().filter(|c| c.is_alphanumeric()).count();
    if joined.chars().count() < 8 || alnum < 4 {
        return None;
    }
    Some(crate::store::stable_hash(joined.as_bytes()))
}

#[test]
fn an_ascii_line_keys_as_the_general_way_keys_it() {
    let mut rng = fastrand::Rng::with_seed(3);
    let bytes = b"aB1 \t\n\x0b\x0c\r>|.!,:;-#xyZ9\x1f\x7f";
    let mut keyed = 0;
    for _ in 0..20_000 {
        let line: String = (0..rng.usize(0..24))
            .map(|_| char::from(bytes[rng.usize(..bytes.len())]))
            .collect();
        keyed += usize::from(line_key(&line).is_some());
        assert_eq!(line_key(&line), line_key_by_chars(&line), "{line:?}");
    }
    assert!(keyed > 1000, "{keyed} lines keyed");
    // Lines pbem writes.
    for line in [
        "| B3 | B3 |  6 | B3 | B3 |  1-8",
        "The legal moves from 50: 50-51 50-52.",
        "  Line 1: if 34-25 then 4x25",
        "Ünïcode stays on the general way",
    ] {
        assert_eq!(line_key(line), line_key_by_chars(line), "{line}");
    }
}

#[test]
fn a_remembered_key_is_the_key_however_often_and_many_lines_are_keyed() {
    let mut rng = fastrand::Rng::with_seed(5);
    let words = ["Black", "to move", "| B3 |", "  ", "12-16", "Ünï", ".", ""];
    // Over the memory's size three times, each line seen several times.
    let lines: Vec<String> = (0..3 * REMEMBERED_KEYS)
        .map(|n| format!("{} {n} {}", words[n % 8], words[(n / 8) % 8]))
        .collect();
    for _ in 0..20_000 {
        let line = &lines[rng.usize(..lines.len())];
        assert_eq!(remembered_line_key(line), line_key(line), "{line:?}");
    }
    for line in ["", "short", "a line long enough to key"] {
        assert_eq!(remembered_line_key(line), line_key(line), "{line:?}");
    }
}

#[test]
fn lines_are_known_whatever_their_case_spacing_and_end() {
    let mut c = Correspondence::new("a@x");
    c.sent(
        None,
        "s",
        "<p@x>",
        None,
        "The legal moves from 50: 50-51 50-52\n--\n+----+----+\nBob\n",
        "2026-11-20",
    );
    assert!(c.knows("the  legal moves FROM 50: 50-51 50-52."));
    assert!(!c.knows("--"));
    assert!(!c.knows("Bob"));
    assert!(!c.knows("+----+----+"));
    // A board's row, as a quote reader sees it.
    assert!(!c.knows("| B3 | B3 |  6 | B3 | B3 |  1-8"));
    c.sent(
        None,
        "s",
        "<q@x>",
        None,
        "| B3 | B3 |  6 | B3 | B3 |  1-8\n",
        "2026-11-20",
    );
    assert!(c.knows("B3 | B3 |  6 | B3 | B3 |  1-8"));
    assert!(!c.knows("13-21"));
}

#[test]
fn old_lines_and_threads_are_forgotten() {
    let mut c = Correspondence::new("a@x");
    c.sent(
        Some("g"),
        "s",
        "<1@x>",
        None,
        "an old line of text",
        "2026-01-01",
    );
    c.sent(
        Some("h"),
        "s",
        "<2@x>",
        None,
        "a new line of text",
        "2026-11-20",
    );
    assert!(!c.knows("an old line of text"));
    assert!(c.knows("a new line of text"));
    assert!(!c.threads.contains_key("g"));
    let text: String = (0..MAX_LINES + 50)
        .map(|i| format!("line number {i}\n"))
        .collect();
    c.sent(None, "s", "<3@x>", None, &text, "2026-11-21");
    assert_eq!(c.lines.len(), PRUNED_LINES);
    // Over the bound again, the oldest day's lines go first, and all
    // of today's stay.
    let today: Vec<String> = (0..MAX_LINES / 4)
        .map(|i| format!("another line, number {i}"))
        .collect();
    c.sent(None, "s", "<4@x>", None, &today.join("\n"), "2026-11-22");
    assert_eq!(c.lines.len(), PRUNED_LINES);
    assert!(today.iter().all(|l| c.knows(l)));
    let (d21, d22) = (day_of("2026-11-21").unwrap(), day_of("2026-11-22").unwrap());
    assert_eq!(
        c.lines.values().filter(|&&d| d == d22).count(),
        MAX_LINES / 4
    );
    assert_eq!(
        c.lines.values().filter(|&&d| d == d21).count(),
        PRUNED_LINES - MAX_LINES / 4
    );
    // Pruned again only when a day has gone by: a line of a day past
    // the cutoff, put back by hand, stays until then.
    c.lines.insert(1, d21 - KEEP_DAYS as Day - 1);
    c.sent(
        None,
        "s",
        "<5@x>",
        None,
        "one more line of text",
        "2026-11-22",
    );
    assert!(c.lines.contains_key(&1));
    c.sent(
        None,
        "s",
        "<6@x>",
        None,
        "one more line of text",
        "2026-11-23",
    );
    assert!(!c.lines.contains_key(&1));
}

#[test]
fn a_body_reads_back_as_the_state_it_was_written_from() {
    let mut rng = fastrand::Rng::with_seed(7);
    for round in 0..200 {
        let mut c = Correspondence::new(&format!("p{round}@example.org"));
        for n in 0..rng.usize(0..5) {
            c.sent(
                Some(&format!("g-{n}")),
                "Re: \"quoted\" \u{e9}",
                &format!("<m.{n}@x>"),
                None,
                "",
                "2026-11-20",
            );
        }
        for _ in 0..rng.usize(0..300) {
            // Any hash (leading zeros, the top bit), any day chrono has.
            let day = rng.i32(1..3_000_000);
            c.lines.insert(rng.u64(..) >> rng.u32(0..64), day);
        }
        let body = c.body().unwrap();
        assert_eq!(Correspondence::from_body(&body), Some(c.clone()), "{body}");
        // A line a day, the days in order, each day's keys in order:
        // the same state always writes the same text.
        let days: Vec<Vec<&str>> = body
            .lines()
            .skip(1)
            .map(|l| l.split(' ').collect())
            .collect();
        assert!(days.windows(2).all(|w| w[0][0] < w[1][0]), "{body}");
        assert!(
            days.iter().all(|d| d.len() > 1 && d[1..].is_sorted()),
            "{body}"
        );
        // Whole again through a slot.
        let slot = slot_text(3, &body);
        assert_eq!(newest([None, Some(&slot)]), Some((1, 3, Some(c))));
    }
}

#[test]
fn a_slot_of_the_all_json_form_still_reads() {
    let json = r#"{"address":"a@x","threads":{"g":{"last":"<p.1@x>","seen":["<p.1@x>"],"used":"2026-11-20","subject":"s"}},"lines":{"00000000000000ff":"2026-11-20","a000000000000001":"2026-11-19","zz":"2026-11-19","0000000000000002":"soon"}}"#;
    let (slot, seq, state) = newest([
        Some(&format!(
            "pbem-sent 1 5 {} {:016x}\n{json}",
            json.len(),
            checksum(json.as_bytes())
        )),
        None,
    ])
    .unwrap();
    let c = state.unwrap();
    assert_eq!((slot, seq, c.address.as_str()), (0, 5, "a@x"));
    assert_eq!(c.threads["g"].last.as_deref(), Some("<p.1@x>"));
    // The lines that read; a hash or a day that does not is left out.
    let day = |d| day_of(d).unwrap();
    assert_eq!(
        c.lines.into_iter().collect::<Vec<_>>(),
        [
            (0xff, day("2026-11-20")),
            (0xa000_0000_0000_0001, day("2026-11-19"))
        ]
    );
}

#[test]
fn a_whole_slot_whose_body_does_not_read_is_no_state() {
    for body in [
        "not json\n",
        "{\"address\":\"a@x\"}\n2026-11-20 00ff\n",
        "{\"address\":\"a@x\"}\n2026-13-20 00000000000000ff\n",
        "{\"address\":\"a@x\"}\n2026-11-20 00000000000000fg\n",
        "{\"address\":\"a@x\"}",
    ] {
        let slot = slot_text(1, body);
        assert_eq!(newest([Some(&slot), None]), Some((0, 1, None)), "{body}");
    }
    let fine = "{\"address\":\"a@x\"}\n";
    assert!(
        newest([Some(&slot_text(1, fine)), None])
            .unwrap()
            .2
            .is_some()
    );
}

#[test]
fn a_day_is_written_and_read_as_chrono_writes_and_reads_it() {
    use chrono::NaiveDate;
    let mut rng = fastrand::Rng::with_seed(41);
    let far = [
        NaiveDate::MIN,
        NaiveDate::MAX,
        NaiveDate::from_ymd_opt(-1, 12, 31).unwrap(),
        NaiveDate::from_ymd_opt(0, 1, 1).unwrap(),
        NaiveDate::from_ymd_opt(9999, 12, 31).unwrap(),
        NaiveDate::from_ymd_opt(10000, 1, 1).unwrap(),
    ];
    let days: Vec<NaiveDate> = (0..20_000)
        .map(|_| NaiveDate::from_num_days_from_ce_opt(rng.i32(-1000..4_000_000)).unwrap())
        .collect();
    for date in far.into_iter().chain(days) {
        let text = iso_day(date);
        assert_eq!(text, date.format("%Y-%m-%d").to_string());
        let day = chrono::Datelike::num_days_from_ce(&date);
        assert_eq!(day_of(&text), Some(day), "{text}");
        assert_eq!(day_text(day), text);
        // One byte changed: read as chrono reads it, or not at all.
        let mut bytes = text.clone().into_bytes();
        let at = rng.usize(..bytes.len());
        bytes[at] = b"0123456789-+x/ "[rng.usize(..15)];
        if let Ok(changed) = String::from_utf8(bytes) {
            let chrono = NaiveDate::parse_from_str(&changed, "%Y-%m-%d")
                .ok()
                .map(|d| chrono::Datelike::num_days_from_ce(&d));
            assert_eq!(day_of(&changed), chrono, "{changed}");
        }
    }
    for odd in [
        "",
        "2026-12-3",
        "2026-02-30",
        "2026-13-01",
        "abcd-ef-gh",
        "2026-12-03x",
    ] {
        let chrono = NaiveDate::parse_from_str(odd, "%Y-%m-%d")
            .ok()
            .map(|d| chrono::Datelike::num_days_from_ce(&d));
        assert_eq!(day_of(odd), chrono, "{odd}");
    }
}
