//! Vacations (tests/server/timecontrol.rs): a vacation pauses the player's
//! clock, also when booked during the opponent's turn, is not counted
//! twice with weekends free, and has a yearly allowance.

use super::*;

// --- vacations ---------------------------------------------------------------

#[test]
fn a_vacation_pauses_the_players_clock() {
    let _shared = crate::common::lock::shared();
    let policy = ClockPolicy::default();
    let start = t("2026-11-02T09:00:00Z"); // Monday
    let mut s = ClockState::new(tc("3d"), Side::A, start);
    assert_eq!(s.deadline(), Some(t("2026-11-05T09:00:00Z")));
    // Tuesday 09:00, 24 h used: five days off.
    let v = s
        .start_vacation(Side::A, 5, t("2026-11-03T09:00:00Z"), &policy)
        .unwrap();
    assert_eq!(v.end, t("2026-11-08T09:00:00Z"));
    assert_eq!(s.deadline(), Some(t("2026-11-10T09:00:00Z")));
    assert_eq!(s.vacation_days_left(Side::A, start, &policy), 25);
    // The 50% reminder (36 h) comes 12 h after the vacation, not on Tuesday.
    assert_eq!(s.due(t("2026-11-03T21:00:00Z"), &policy), None);
    assert_eq!(s.due(t("2026-11-08T20:59:00Z"), &policy), None);
    assert!(matches!(
        s.due(t("2026-11-08T21:00:00Z"), &policy),
        Some(Notice::Reminder { point, .. }) if point == pct("50%")
    ));

    // Back early on Thursday 10:00: three days begun, two given back, and
    // the clock runs again from there with 48 h left.
    let mut back = s.clone();
    assert_eq!(back.end_vacation(Side::A, t("2026-11-05T10:00:00Z")), Ok(2));
    assert_eq!(back.vacation_days_left(Side::A, start, &policy), 27);
    assert_eq!(back.deadline(), Some(t("2026-11-07T10:00:00Z")));
    assert_eq!(
        back.end_vacation(Side::A, t("2026-11-05T11:00:00Z")),
        Err(VacationError::NotOnVacation)
    );

    // Moving does not end it: A moves from the beach on Wednesday, B
    // answers an hour later, and A's new turn starts paused until Sunday.
    s.on_move(t("2026-11-04T09:00:00Z")).unwrap();
    assert_eq!(s.deadline(), Some(t("2026-11-07T09:00:00Z"))); // B's: no pause
    s.on_move(t("2026-11-04T10:00:00Z")).unwrap();
    assert_eq!(s.deadline(), Some(t("2026-11-11T09:00:00Z")));
    assert!(s.on_vacation(Side::A, t("2026-11-04T10:00:00Z")).is_some());
}

#[test]
fn a_vacation_booked_during_the_opponents_turn() {
    let _shared = crate::common::lock::shared();
    let policy = ClockPolicy::default();
    let start = t("2026-11-02T09:00:00Z");
    let mut s = ClockState::new(tc("3d"), Side::A, start);
    s.start_vacation(Side::B, 4, start, &policy).unwrap();
    // A's clock runs as usual.
    assert_eq!(s.deadline(), Some(t("2026-11-05T09:00:00Z")));
    s.on_move(t("2026-11-03T09:00:00Z")).unwrap();
    // B's turn starts paused until Friday 09:00.
    assert_eq!(s.deadline(), Some(t("2026-11-09T09:00:00Z")));
    assert_eq!(s.time_left(Side::B, t("2026-11-06T09:00:00Z")), h(72));
}

#[test]
fn vacations_with_weekends_free_are_not_counted_twice() {
    let _shared = crate::common::lock::shared();
    let policy = ClockPolicy::default();
    let start = t("2026-11-05T12:00:00Z"); // Thursday
    let mut s = ClockState::new(tc("3d weekends-free"), Side::A, start);
    // Off from Friday noon to Tuesday noon: Friday 12 h, the weekend and
    // Monday are all paused; 24 h before, 48 h after.
    s.start_vacation(Side::A, 4, t("2026-11-06T12:00:00Z"), &policy)
        .unwrap();
    assert_eq!(s.deadline(), Some(t("2026-11-12T12:00:00Z")));
}

#[test]
fn the_vacation_allowance_and_the_year_boundary() {
    let _shared = crate::common::lock::shared();
    let policy = ClockPolicy::default(); // 30 days a year
    let mut s = ClockState::new(tc("3d"), Side::A, t("2026-06-01T09:00:00Z"));
    assert_eq!(
        s.start_vacation(Side::A, 0, t("2026-06-01T09:00:00Z"), &policy),
        Err(VacationError::ZeroDays)
    );
    s.start_vacation(Side::A, 20, t("2026-06-01T09:00:00Z"), &policy)
        .unwrap();
    s.set_zone(Side::A, Some(Tz::Europe__Berlin));
    let err = s
        .start_vacation(Side::A, 3, t("2026-06-10T09:00:00Z"), &policy)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "`vacation 3`: you are already on vacation until Sun 21 Jun 2026, 11:00 CEST; \
         hint: end it first (`vacation off`), then book again"
    );
    let err = s
        .start_vacation(Side::A, 11, t("2026-07-01T09:00:00Z"), &policy)
        .unwrap_err();
    assert_eq!(
        err,
        VacationError::AllowanceExceeded {
            days: 11,
            left: 10,
            per_year: 30,
            year: 2026
        }
    );
    assert_eq!(
        err.to_string(),
        "`vacation 11`: only 10 of your 30 vacation days for 2026 are left; \
         hint: ask for 10 days or fewer"
    );
    // The last ten, charged to 2026 though they run into 2027.
    let v = s
        .start_vacation(Side::A, 10, t("2026-12-28T09:00:00Z"), &policy)
        .unwrap();
    assert_eq!((v.year, v.end), (2026, t("2027-01-07T09:00:00Z")));
    let err = s
        .start_vacation(Side::A, 1, t("2027-01-07T09:00:00Z") - m(1), &policy)
        .unwrap_err();
    assert!(matches!(err, VacationError::AlreadyOnVacation { .. }));
    // After it ends, 2027's thirty days are all there.
    assert_eq!(
        s.vacation_days_left(Side::A, t("2027-01-07T09:00:00Z"), &policy),
        30
    );
    s.start_vacation(Side::A, 30, t("2027-01-07T09:00:00Z"), &policy)
        .unwrap();
    s.end_vacation(Side::A, t("2027-02-06T08:00:00Z")).unwrap();
    let err = s
        .start_vacation(Side::A, 1, t("2027-02-07T00:00:00Z"), &policy)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "`vacation 1`: none of your 30 vacation days for 2027 is left; \
         hint: the allowance starts again on 1 January 2028"
    );

    // The year is the player's: 31 Dec 23:30 UTC is already 2027 in Berlin.
    let new_year = t("2026-12-31T23:30:00Z");
    let mut s = ClockState::new(tc("3d"), Side::A, new_year);
    let v = s.start_vacation(Side::A, 2, new_year, &policy).unwrap();
    assert_eq!(v.year, 2026);
    s.set_zone(Side::B, Some(Tz::Europe__Berlin));
    let v = s.start_vacation(Side::B, 2, new_year, &policy).unwrap();
    assert_eq!(v.year, 2027);
}
