//! Unit tests of the clocks: time controls, deadlines, weekends,
//! vacations, notices, zones and digests.

use super::*;

fn utc(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

#[test]
fn time_control_parses_and_round_trips() {
    for (input, canonical) in [
        ("3d", "3d"),
        ("1d", "1d"),
        ("365d", "365d"),
        ("3d+1d/10d", "3d+1d/10d"),
        ("3D + 1d / 10D", "3d+1d/10d"),
        ("3d weekends-free", "3d weekends-free"),
        ("3d+1d/10d,Weekends-Free", "3d+1d/10d weekends-free"),
        ("  5d+2d/5d   weekends-free ", "5d+2d/5d weekends-free"),
        ("3d weekends-free weekends-free", "3d weekends-free"),
    ] {
        let tc: TimeControl = input.parse().unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(tc.to_string(), canonical, "{input}");
        assert_eq!(canonical.parse::<TimeControl>().unwrap(), tc);
    }
    let tc: TimeControl = "3d+1d/10d weekends-free".parse().unwrap();
    assert_eq!(
        tc,
        TimeControl {
            days_per_move: 3,
            bank: Some(Bank {
                add_days: 1,
                cap_days: 10
            }),
            weekends_free: true
        }
    );
    // Every valid control round-trips through Display.
    for d in 1..=12 {
        for add in 1..=4 {
            for cap in d.max(add)..=d + 6 {
                for weekends_free in [false, true] {
                    let tc = TimeControl {
                        days_per_move: d,
                        bank: Some(Bank {
                            add_days: add,
                            cap_days: cap,
                        }),
                        weekends_free,
                    };
                    assert_eq!(tc.to_string().parse::<TimeControl>(), Ok(tc));
                }
            }
        }
    }
}

#[test]
fn time_control_errors_quote_the_input_and_hint() {
    use TimeControlErrorKind as K;
    for (input, kind) in [
        ("", K::Empty),
        ("   ", K::Empty),
        ("3", K::NotDays("3".into())),
        ("3h", K::NotDays("3h".into())),
        ("d", K::NotDays("d".into())),
        ("-3d", K::NotDays("-3d".into())),
        ("0d", K::ZeroDays),
        ("366d", K::TooMany(366)),
        ("99999999999999999999999d", K::TooMany(u64::MAX)),
        ("3d+", K::MissingCap),
        ("3d+1d", K::MissingCap),
        ("3d+1d/", K::MissingDays),
        ("+1d/10d", K::MissingDays),
        ("3d+0d/10d", K::ZeroAdd),
        ("3d+1d/2d", K::CapBelowStart { days: 3, cap: 2 }),
        ("3d+11d/10d", K::AddAboveCap { add: 11, cap: 10 }),
        ("3d+1d/10d/12d", K::NotDays("10d/12d".into())),
        ("3d weekends", K::UnknownOption("weekends".into())),
        ("weekends-free", K::NotDays("weekends-free".into())),
        ("3d+1w/10d", K::NotDays("1w".into())),
    ] {
        let err = input.parse::<TimeControl>().unwrap_err();
        assert_eq!(err.kind, kind, "{input:?}");
        let msg = err.to_string();
        assert!(
            msg.starts_with(&format!("bad time control `{}`", input.trim())),
            "{msg}"
        );
        assert!(msg.contains("hint: write days per move as `3d`"), "{msg}");
    }
    assert_eq!(
        "3d+1d/2d".parse::<TimeControl>().unwrap_err().to_string(),
        "bad time control `3d+1d/2d`: the cap 2d is below the 3d each side starts with; \
         hint: write days per move as `3d`, a bank as `3d+1d/10d` (3 days to start, \
         1 more after each move, at most 10), and add `weekends-free` to stop the clocks \
         at weekends"
    );
}

#[test]
fn reminder_points_parse_and_display() {
    for (input, permille, shown) in [
        ("50%", 500, "50%"),
        (" 80 % ", 800, "80%"),
        ("87.5%", 875, "87.5%"),
        ("0.1%", 1, "0.1%"),
        ("99.9%", 999, "99.9%"),
        ("050%", 500, "50%"),
    ] {
        let p: ReminderPoint = input.parse().unwrap();
        assert_eq!(p.permille(), permille);
        assert_eq!(p.to_string(), shown);
        assert_eq!(shown.parse::<ReminderPoint>(), Ok(p));
    }
    for bad in [
        "", "50", "0%", "100%", "150%", "1000%", "-5%", "5.25%", "x%", ".5%", "5.%",
    ] {
        let err = bad.parse::<ReminderPoint>().unwrap_err();
        assert_eq!(err.input, bad.trim());
        assert!(err.to_string().contains(&format!("`{}`", bad.trim())));
    }
}

#[test]
fn digest_modes_parse_and_round_trip() {
    for (input, mode, shown) in [
        ("off", DigestMode::Off, "off"),
        ("Per-Poll", DigestMode::PerPoll, "per-poll"),
        ("daily", DigestMode::Daily { hour: 8 }, "daily 08:00"),
        ("daily 18", DigestMode::Daily { hour: 18 }, "daily 18:00"),
        (
            "daily at 7:00",
            DigestMode::Daily { hour: 7 },
            "daily 07:00",
        ),
        ("daily 00:00", DigestMode::Daily { hour: 0 }, "daily 00:00"),
    ] {
        assert_eq!(input.parse::<DigestMode>(), Ok(mode), "{input}");
        assert_eq!(mode.to_string(), shown);
        assert_eq!(shown.parse::<DigestMode>(), Ok(mode));
    }
    for bad in [
        "",
        "weekly",
        "daily 24",
        "daily 7:30",
        "daily -1",
        "daily 123",
        "off now",
    ] {
        let err = bad.parse::<DigestMode>().unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("bad digest mode `{}`", bad.trim()))
        );
    }
}

#[test]
fn zones_parse_in_any_case_with_a_suggestion() {
    assert_eq!(parse_zone("Europe/Berlin"), Ok(Tz::Europe__Berlin));
    assert_eq!(parse_zone(" america/new_york "), Ok(Tz::America__New_York));
    assert_eq!(parse_zone("utc"), Ok(Tz::UTC));
    let err = parse_zone("Berlin").unwrap_err();
    assert_eq!(err.suggestion, Some("Europe/Berlin"));
    assert_eq!(
        err.to_string(),
        "unknown time zone `Berlin`; hint: did you mean `Europe/Berlin`?"
    );
    let err = parse_zone("new york").unwrap_err();
    assert_eq!(err.suggestion, Some("America/New_York"));
    let err = parse_zone("Mars/Olympus").unwrap_err();
    assert!(err.to_string().contains("`Europe/Berlin`"), "{err}");
    assert!(parse_zone("").is_err());
}

/// Every day's first instant is on that day, and the second before it
/// is not, in zones that change at midnight (Havana falls back from
/// 01:00 to 00:00 on 1 Nov 2026, Santiago springs forward from 00:00
/// on 6 Sep 2026, Beirut on 29 Mar 2026) and the usual ones.
#[test]
fn local_midnight_is_the_first_instant_of_the_day() {
    let zones = [
        Tz::UTC,
        Tz::Europe__Berlin,
        Tz::America__New_York,
        Tz::America__Havana,
        Tz::America__Santiago,
        Tz::Asia__Beirut,
        Tz::Australia__Lord_Howe,
        Tz::Pacific__Kiritimati,
        Tz::Pacific__Pago_Pago,
    ];
    for zone in zones {
        let mut day = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
        while day.year() == 2026 {
            let t = local_instant(zone, day, NaiveTime::MIN).unwrap();
            assert_eq!(t.with_timezone(&zone).date_naive(), day, "{zone} {day}");
            let before = (t - TimeDelta::seconds(1)).with_timezone(&zone);
            assert!(before.date_naive() < day, "{zone} {day}");
            day = day.succ_opt().unwrap();
        }
    }
    // The gap in Santiago: the day starts at 01:00 local.
    let t = local_instant(
        Tz::America__Santiago,
        NaiveDate::from_ymd_opt(2026, 9, 6).unwrap(),
        NaiveTime::MIN,
    )
    .unwrap();
    assert_eq!(t, utc("2026-09-06T04:00:00Z"));
    // Samoa skipped 30 Dec 2011: it "starts" when 31 Dec does.
    let t = local_instant(
        Tz::Pacific__Apia,
        NaiveDate::from_ymd_opt(2011, 12, 30).unwrap(),
        NaiveTime::MIN,
    )
    .unwrap();
    assert_eq!(
        t.with_timezone(&Tz::Pacific__Apia).to_rfc3339(),
        "2011-12-31T00:00:00+14:00"
    );
}

#[test]
fn weekends_are_saturday_and_sunday_in_the_zone() {
    // Wed 4 Nov 2026, 12:00 UTC.
    let wed = utc("2026-11-04T12:00:00Z");
    assert_eq!(
        weekend_from(Tz::UTC, wed),
        Some((utc("2026-11-07T00:00:00Z"), utc("2026-11-09T00:00:00Z")))
    );
    assert_eq!(
        weekend_from(Tz::Europe__Berlin, wed),
        Some((utc("2026-11-06T23:00:00Z"), utc("2026-11-08T23:00:00Z")))
    );
    // Inside a weekend: that weekend.
    let sun = utc("2026-11-08T22:59:59Z");
    assert_eq!(
        weekend_from(Tz::Europe__Berlin, sun).unwrap().1,
        utc("2026-11-08T23:00:00Z")
    );
    // At its end: the next one.
    let mon = utc("2026-11-08T23:00:00Z");
    assert_eq!(
        weekend_from(Tz::Europe__Berlin, mon).unwrap().0,
        utc("2026-11-13T23:00:00Z")
    );
    // Sunday evening in New York is already Monday in UTC.
    let sun_ny = utc("2026-11-09T02:00:00Z");
    assert_eq!(
        weekend_from(Tz::America__New_York, sun_ny),
        Some((utc("2026-11-07T05:00:00Z"), utc("2026-11-09T05:00:00Z")))
    );
}

#[test]
fn times_are_shown_to_the_minute_in_the_readers_zone() {
    let t = utc("2026-11-03T17:00:00Z");
    assert_eq!(
        format_deadline(t, Some(Tz::UTC)),
        "Tue 3 Nov 2026, 17:00 UTC"
    );
    assert_eq!(
        format_deadline(t, Some(Tz::Europe__Berlin)),
        "Tue 3 Nov 2026, 18:00 CET"
    );
    assert_eq!(
        format_deadline(
            utc("2026-10-20T17:00:59.009484608Z"),
            Some(Tz::Europe__Berlin)
        ),
        "Tue 20 Oct 2026, 19:00 CEST"
    );
    assert_eq!(
        format_deadline(utc("2026-11-03T23:30:00Z"), Some(Tz::Europe__Berlin)),
        "Wed 4 Nov 2026, 00:30 CET"
    );
    assert_eq!(
        format_deadline(utc("2026-11-03T02:00:00Z"), Some(Tz::America__New_York)),
        "Mon 2 Nov 2026, 21:00 EST"
    );
    // A reader without a zone reads the server's.
    assert_eq!(
        format_deadline(t, None),
        format_deadline(t, Some(server_zone()))
    );
}

#[test]
fn the_system_zone_is_read_from_tz() {
    // The value alone: the process's TZ is shared by every test.
    for (tz, zone) in [
        ("Europe/Berlin", Tz::Europe__Berlin),
        (":America/New_York", Tz::America__New_York),
        ("/usr/share/zoneinfo/Asia/Tokyo", Tz::Asia__Tokyo),
    ] {
        assert_eq!(zones::zone_of_tz(tz), Some(zone), "{tz}");
    }
    assert_eq!(zones::zone_of_tz("CET-1CEST,M3.5.0,M10.5.0/3"), None);
}

#[test]
fn extreme_stored_states_do_not_panic() {
    let policy = ClockPolicy::default();
    for left in [i64::MIN, -1, 0, 1, i64::MAX] {
        for start in [
            DateTime::<Utc>::MIN_UTC,
            utc("2026-11-02T09:00:00Z"),
            DateTime::<Utc>::MAX_UTC,
        ] {
            let mut s = ClockState::new("3d+1d/10d weekends-free".parse().unwrap(), Side::A, start);
            s.a.left_seconds = left;
            s.a.zone = Some(Tz::Pacific__Kiritimati);
            for now in [DateTime::<Utc>::MIN_UTC, start, DateTime::<Utc>::MAX_UTC] {
                let _ = s.deadline();
                let _ = s.time_left(Side::A, now);
                let _ = s.due(now, &policy);
                let _ = s.clone().on_move(now);
                let _ = s.clone().start_vacation(Side::A, 5, now, &policy);
                let _ = s.clone().end_vacation(Side::A, now);
                let _ = format_deadline(now, Some(Tz::Pacific__Kiritimati));
                let _ = format_deadline(now, Some(Tz::Pacific__Pago_Pago));
                let _ = daily_slot(Tz::Pacific__Kiritimati, 23, now);
            }
        }
    }
}

/// A clock of a random control (1-7 days a move, weekends free or
/// not) started at a random minute of 2026 for a side in one of
/// `zones`; and its start.
fn random_clock(rng: &mut fastrand::Rng, zones: &[Tz]) -> (ClockState, DateTime<Utc>) {
    let control = TimeControl {
        days_per_move: rng.u32(1..8),
        bank: None,
        weekends_free: rng.bool(),
    };
    let start = utc("2026-01-01T00:00:00Z") + TimeDelta::minutes(rng.i64(0..525_600));
    let mut s = ClockState::new(control, Side::A, start);
    s.a.zone = Some(zones[rng.usize(..zones.len())]);
    (s, start)
}

/// The deadline index may look too early, never too late:
/// for random policies, controls, zones and vacations, nothing is due
/// just before `next_due`, and something is just after it.
#[test]
fn next_due_is_never_after_the_first_notice() {
    let zones = [Tz::UTC, Tz::Europe__Berlin, Tz::Pacific__Kiritimati];
    let mut rng = fastrand::Rng::with_seed(66);
    let mut notices = 0;
    for _ in 0..1000 {
        let policy = ClockPolicy {
            reminders: (0..rng.usize(0..3))
                .filter_map(|_| ReminderPoint::from_permille(rng.u16(1..1000)))
                .collect(),
            final_notice_hours: rng.u32(0..30),
            vacation_days_per_year: 30,
        };
        let (mut s, start) = random_clock(&mut rng, &zones);
        if rng.bool() {
            let _ = s.start_vacation(Side::A, rng.u32(1..4), start, &policy);
        }
        // Walk the turn: before the index's instant nothing is due;
        // a little after it, something is.
        for _ in 0..5 {
            let Some(at) = s.next_due(&policy) else {
                break;
            };
            let before = at - TimeDelta::milliseconds(2);
            if before >= start {
                assert_eq!(s.due(before, &policy), None, "{s:?} {policy:?}");
            }
            let Some(n) = s.due(at + TimeDelta::milliseconds(2), &policy) else {
                panic!("nothing due just after {at}: {s:?} {policy:?}");
            };
            s.mark_sent(&n);
            notices += 1;
        }
    }
    assert!(notices > 2000, "{notices}");
}

/// Counted time and deadlines agree, for random zones, starts,
/// vacations and amounts: the counted time up to `instant_after(d)` is
/// `d`, counted time never exceeds the span, and it never goes back.
#[test]
fn counted_time_and_deadlines_agree() {
    let zones = [
        Tz::UTC,
        Tz::Europe__Berlin,
        Tz::America__New_York,
        Tz::America__Santiago,
        Tz::Australia__Lord_Howe,
        Tz::Pacific__Kiritimati,
    ];
    let policy = ClockPolicy::default();
    let mut rng = fastrand::Rng::with_seed(44);
    for _ in 0..2000 {
        let (mut s, start) = random_clock(&mut rng, &zones);
        for _ in 0..rng.usize(0..3) {
            let at = start + TimeDelta::minutes(rng.i64(-5_000..20_000));
            let _ = s.start_vacation(Side::A, rng.u32(1..6), at, &policy);
            if rng.bool() {
                let _ = s.end_vacation(Side::A, at + TimeDelta::minutes(rng.i64(0..5000)));
            }
        }
        let amount = TimeDelta::minutes(rng.i64(0..15_000));
        let end = s.instant_after(Side::A, start, amount);
        let big = TimeDelta::days(1000);
        assert!(end >= start + amount, "{s:?}");
        assert_eq!(s.counted(Side::A, start, end, big), amount, "{s:?}");
        let mut last = TimeDelta::zero();
        for k in 0..30 {
            let to = start + TimeDelta::minutes(k * 997);
            let c = s.counted(Side::A, start, to, big);
            assert!(c >= last && c <= to - start, "{s:?} {to}");
            last = c;
        }
    }
}

/// An accepted takeback passes the turn back as a move would, but the
/// side that agreed gets no increment: it made no move.
#[test]
fn a_takeback_gives_the_turn_back_without_an_increment() {
    let tc: TimeControl = "3d+1d/10d".parse().unwrap();
    let start = utc("2026-11-04T09:00:00Z");
    let mut s = ClockState::new(tc, Side::A, start);
    // A moves after a day: 3 - 1 + 1 = 3 days for its next turn.
    s.on_move(start + TimeDelta::days(1)).unwrap();
    assert_eq!(
        s.side(Side::A).left_seconds,
        TimeDelta::days(3).num_seconds()
    );
    // B agrees, half a day on, to take A's move back: B is charged the
    // half day, A's clock runs from then with its 3 days.
    let accepted = start + TimeDelta::hours(36);
    let passed = s.on_takeback(accepted).unwrap();
    assert_eq!((passed.side, s.to_move), (Side::B, Some(Side::A)));
    assert_eq!(
        s.side(Side::B).left_seconds,
        TimeDelta::hours(60).num_seconds(),
        "3 days less 12 hours, no day added"
    );
    assert_eq!(s.turn_start, accepted);
    assert_eq!(s.deadline(), Some(accepted + TimeDelta::days(3)));
    // Without a bank every turn has its days per move.
    let mut s = ClockState::new("2d".parse().unwrap(), Side::A, start);
    s.on_move(start + TimeDelta::hours(5)).unwrap();
    s.on_takeback(start + TimeDelta::hours(7)).unwrap();
    assert_eq!(
        s.deadline(),
        Some(start + TimeDelta::hours(7) + TimeDelta::days(2))
    );
    // Too late: B's time ran out before it agreed.
    let mut s = ClockState::new("2d".parse().unwrap(), Side::A, start);
    s.on_move(start).unwrap();
    assert!(matches!(
        s.on_takeback(start + TimeDelta::days(3)),
        Err(ClockError::OutOfTime { side: Side::B, .. })
    ));
}
