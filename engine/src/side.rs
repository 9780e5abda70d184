//! The two sides of a game, and [`PerSide`]: anything a game keeps once
//! per side (the bottom layer of the engine with [`crate::geom`]).

use std::collections::BTreeMap;
use std::fmt;

/// One of a game's two sides. `A` is the side the game's rules document lists first (the
/// one that sets up on the low-numbered rows), `B` the other; their names
/// come from the game's
/// [`RulesInfo::sides`](crate::descriptor::RulesInfo::sides).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Side {
    A,
    B,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::A, Side::B];
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// Both sides in the alphabetical order of their names (`sides`, in
    /// [`Side`] order): the order of a map keyed by side names, which
    /// what pbem wrote from such maps keeps (lists of a game's players).
    pub fn by_name(sides: [&str; 2]) -> [Side; 2] {
        if sides[1] < sides[0] {
            [Side::B, Side::A]
        } else {
            Side::BOTH
        }
    }
}

/// One `T` per side, indexed by [`Side`]: scores, supplies, bosses, the
/// players of a record. Iterates `(Side, &T)` with side A first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct PerSide<T>(pub [T; 2]);

impl<T> PerSide<T> {
    /// `a` for side A, `b` for side B.
    pub const fn new(a: T, b: T) -> PerSide<T> {
        PerSide([a, b])
    }
    /// `mine` for `side`, `other` for the other side: a pair seated.
    pub fn seat(side: Side, mine: T, other: T) -> PerSide<T> {
        match side {
            Side::A => PerSide([mine, other]),
            Side::B => PerSide([other, mine]),
        }
    }
    /// Each side's value from `f`.
    pub fn from_fn(mut f: impl FnMut(Side) -> T) -> PerSide<T> {
        PerSide([f(Side::A), f(Side::B)])
    }
    /// Both sides with their values, side A first.
    pub fn iter(&self) -> impl Iterator<Item = (Side, &T)> {
        Side::BOTH.into_iter().zip(self.0.iter())
    }
    /// The values, side A's first.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter()
    }
    /// The values changed by `f`, each with its side.
    pub fn map<U>(self, mut f: impl FnMut(Side, T) -> U) -> PerSide<U> {
        let [a, b] = self.0;
        PerSide([f(Side::A, a), f(Side::B, b)])
    }

    /// Reads a map keyed by the game's side names (`sides`, in
    /// [`Side`] order; case-insensitive, as players write them), as a
    /// record's `[players]` table is.
    ///
    /// # Errors
    /// A key that names no side of the game, or a side missing.
    pub fn from_named(
        map: impl IntoIterator<Item = (impl AsRef<str>, T)>,
        sides: [&str; 2],
    ) -> Result<PerSide<T>, UnknownSide> {
        let mut found: [Option<T>; 2] = [None, None];
        for (name, value) in map {
            let name = name.as_ref();
            let Some(i) = sides
                .iter()
                .position(|s| s.eq_ignore_ascii_case(name.trim()))
            else {
                return Err(UnknownSide::Unknown {
                    name: name.to_string(),
                    sides: sides.map(str::to_string),
                });
            };
            found[i] = Some(value);
        }
        match found {
            [Some(a), Some(b)] => Ok(PerSide([a, b])),
            [a, _] => Err(UnknownSide::Missing(
                sides[usize::from(a.is_some())].to_string(),
            )),
        }
    }

    /// The map keyed by the game's side names (`sides`, in [`Side`] order).
    pub fn into_named(self, sides: [&str; 2]) -> BTreeMap<String, T> {
        let [a, b] = self.0;
        BTreeMap::from([(sides[0].to_string(), a), (sides[1].to_string(), b)])
    }
}

impl<T> PerSide<Option<T>> {
    /// The sides that have a value, with it, side A first: a record's
    /// players, where a side may have none.
    pub fn given(&self) -> impl Iterator<Item = (Side, &T)> {
        self.iter()
            .filter_map(|(side, v)| Some((side, v.as_ref()?)))
    }
    /// The side whose value `pred` accepts, if one does (side A first).
    pub fn side_where(&self, mut pred: impl FnMut(&T) -> bool) -> Option<Side> {
        self.given().find(|(_, v)| pred(v)).map(|(side, _)| side)
    }
    /// Whether no side has a value.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }
}

impl<T> std::ops::Index<Side> for PerSide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        &self.0[side.index()]
    }
}

impl<T> std::ops::IndexMut<Side> for PerSide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        &mut self.0[side.index()]
    }
}

/// A map keyed by side names that is not one value per side of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownSide {
    /// A name that is no side of the game.
    Unknown { name: String, sides: [String; 2] },
    /// A side with no value.
    Missing(String),
}

impl fmt::Display for UnknownSide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnknownSide::Unknown { name, sides } => write!(
                f,
                "`{name}` is no side of this game: its sides are {} and {}",
                sides[0], sides[1]
            ),
            UnknownSide::Missing(side) => write!(f, "no entry for the side {side}"),
        }
    }
}

impl std::error::Error for UnknownSide {}

#[cfg(test)]
mod tests {
    use super::*;

    const SIDES: [&str; 2] = ["black", "red"];

    #[test]
    fn indexed_and_iterated_by_side() {
        let mut s = PerSide::new(1, 2);
        s[Side::B] += 10;
        assert_eq!((s[Side::A], s[Side::B]), (1, 12));
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            [(Side::A, &1), (Side::B, &12)]
        );
        assert_eq!(PerSide::from_fn(Side::index), PerSide::new(0, 1));
        assert_eq!(
            PerSide::seat(Side::A, "me", "you"),
            PerSide::new("me", "you")
        );
        assert_eq!(
            PerSide::seat(Side::B, "me", "you"),
            PerSide::new("you", "me")
        );
        assert_eq!(Side::by_name(SIDES), Side::BOTH);
        assert_eq!(Side::by_name(["guerrilla", "coin"]), [Side::B, Side::A]);
        assert_eq!(
            s.map(|side, v| (side, v * 2)).0,
            [(Side::A, 2), (Side::B, 24)]
        );
    }

    #[test]
    fn named_maps_round_trip_and_refuse_unknown_sides() {
        let s = PerSide::new("alice", "bob");
        let named = s.into_named(SIDES);
        assert_eq!(named["black"], "alice");
        assert_eq!(PerSide::from_named(named, SIDES), Ok(s));
        assert_eq!(
            PerSide::from_named([("Red", 1), ("BLACK", 2)], SIDES),
            Ok(PerSide::new(2, 1))
        );
        let e = PerSide::from_named([("white", 1), ("red", 2)], SIDES).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`white` is no side of this game: its sides are black and red"
        );
        let e = PerSide::from_named([("red", 2)], SIDES).unwrap_err();
        assert_eq!(e, UnknownSide::Missing("black".into()));
    }

    #[test]
    fn optional_values_per_side() {
        let s = PerSide::new(None, Some("bob"));
        assert_eq!(s.given().collect::<Vec<_>>(), [(Side::B, &"bob")]);
        assert_eq!(s.side_where(|p| p.starts_with('b')), Some(Side::B));
        assert_eq!(s.side_where(|p| p.is_empty()), None);
        assert!(!s.is_empty());
        assert!(PerSide::<Option<u8>>::default().is_empty());
        assert_eq!(s.values().collect::<Vec<_>>(), [&None, &Some("bob")]);
    }
}
