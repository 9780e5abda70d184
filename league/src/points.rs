//! Points, exactly: counted in quarters, written as players write them
//! (`2½`, `¾`, `0`).

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

/// A score in quarter points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(u32);

impl Points {
    pub const ZERO: Points = Points(0);
    pub const HALF: Points = Points(2);
    pub const ONE: Points = Points(4);

    /// `quarters` quarter points.
    pub const fn quarters(quarters: u32) -> Points {
        Points(quarters)
    }

    /// The number of quarter points.
    pub const fn in_quarters(self) -> u32 {
        self.0
    }

    /// Half of it (a drawn opponent's score counts half in
    /// Sonneborn-Berger). Exact for any sum of half points.
    pub const fn half(self) -> Points {
        Points(self.0 / 2)
    }

    /// The value as a float, for JSON.
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 4.0
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0 + other.0)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, other: Points) {
        self.0 += other.0;
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, part) = (self.0 / 4, self.0 % 4);
        let part = ["", "¼", "½", "¾"][part as usize];
        match (whole, part) {
            (0, "") => f.write_str("0"),
            (0, p) => f.write_str(p),
            (w, p) => write!(f, "{w}{p}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Points;

    #[test]
    fn written_as_players_write_them() {
        let shown: Vec<String> = [0, 1, 2, 3, 4, 6, 9, 40]
            .into_iter()
            .map(|q| Points::quarters(q).to_string())
            .collect();
        assert_eq!(shown, ["0", "¼", "½", "¾", "1", "1½", "2¼", "10"]);
    }

    #[test]
    fn halves_are_exact() {
        assert_eq!(Points::quarters(6).half(), Points::quarters(3));
        assert_eq!((Points::ONE + Points::HALF).as_f64(), 1.5);
        let total: Points = [Points::ONE, Points::HALF, Points::ZERO].into_iter().sum();
        assert_eq!(total, Points::quarters(6));
    }
}
