//! Board geometry shared by all eight games: squares, directions, rays and
//! the interior grid points of Guerrilla Checkers.
//!
//! Squares are numbered in the notation from 1, row by row from the top-left
//! (docs/src/rules/common.md, "Board numbering"); inside the engine a [`Sq`] holds the
//! 0-based index, so `Sq(0)` is written `1`.

use std::fmt;

/// A square, 0-based inside the engine; [`fmt::Display`] writes the
/// rulebook's 1-based number.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Sq(pub u8);

impl Sq {
    /// The square with the rulebook's number `n` (1-based).
    pub const fn from_number(n: u8) -> Sq {
        Sq(n - 1)
    }
    /// The rulebook's number of this square.
    pub const fn number(self) -> u16 {
        self.0 as u16 + 1
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A direction as a (row, column) step.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Dir {
    pub dr: i8,
    pub dc: i8,
}

impl Dir {
    pub const fn new(dr: i8, dc: i8) -> Dir {
        Dir { dr, dc }
    }
    pub const fn reverse(self) -> Dir {
        Dir {
            dr: -self.dr,
            dc: -self.dc,
        }
    }
}

/// Along rows and columns.
pub const ORTHOGONAL: [Dir; 4] = [
    Dir::new(-1, 0),
    Dir::new(0, -1),
    Dir::new(0, 1),
    Dir::new(1, 0),
];
/// Along the diagonals.
pub const DIAGONAL: [Dir; 4] = [
    Dir::new(-1, -1),
    Dir::new(-1, 1),
    Dir::new(1, -1),
    Dir::new(1, 1),
];
/// "In line" (docs/src/rules/common.md, "Common ground"): rows, columns and diagonals.
pub const ALL: [Dir; 8] = [
    Dir::new(-1, -1),
    Dir::new(-1, 0),
    Dir::new(-1, 1),
    Dir::new(0, -1),
    Dir::new(0, 1),
    Dir::new(1, -1),
    Dir::new(1, 0),
    Dir::new(1, 1),
];

/// A rectangular board. Rows and columns are 0-based here.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Geometry {
    pub width: u8,
    pub height: u8,
}

impl Geometry {
    pub const EIGHT: Geometry = Geometry {
        width: 8,
        height: 8,
    };
    pub const TEN: Geometry = Geometry {
        width: 10,
        height: 10,
    };

    pub const fn squares(self) -> u8 {
        self.width * self.height
    }
    #[inline]
    pub const fn row(self, s: Sq) -> u8 {
        s.0 / self.width
    }
    #[inline]
    pub const fn col(self, s: Sq) -> u8 {
        s.0 % self.width
    }
    #[inline]
    pub const fn at(self, row: u8, col: u8) -> Sq {
        Sq(row * self.width + col)
    }
    /// Whether a rulebook square number is on this board.
    pub const fn contains_number(self, n: u32) -> bool {
        n >= 1 && n <= self.squares() as u32
    }
    /// The dark squares: `row + column` odd with 1-based rows and columns
    /// (docs/src/rules/common.md, "Colour of squares"); the parity is the same 0-based.
    pub const fn is_dark(self, s: Sq) -> bool {
        (self.row(s) + self.col(s)) % 2 == 1
    }
    /// One step from `s` in direction `d`, or `None` off the board.
    #[inline]
    pub fn step(self, s: Sq, d: Dir) -> Option<Sq> {
        let r = self.row(s) as i8 + d.dr;
        let c = self.col(s) as i8 + d.dc;
        if r < 0 || c < 0 || r >= self.height as i8 || c >= self.width as i8 {
            None
        } else {
            Some(self.at(r as u8, c as u8))
        }
    }
    /// One step on the torus: rows and columns wrap (Toroidal Checkers).
    #[inline]
    pub fn step_wrapping(self, s: Sq, d: Dir) -> Sq {
        let h = self.height as i8;
        let w = self.width as i8;
        let r = (self.row(s) as i8 + d.dr).rem_euclid(h);
        let c = (self.col(s) as i8 + d.dc).rem_euclid(w);
        self.at(r as u8, c as u8)
    }
    /// The squares from `s` (exclusive) in direction `d` to the board's edge.
    pub fn ray(self, s: Sq, d: Dir) -> Ray {
        Ray {
            geometry: self,
            at: s,
            dir: d,
        }
    }
    /// The direction and distance from `a` to `b` when they are in line
    /// along `dirs`, with `b != a`.
    pub fn line_between(self, a: Sq, b: Sq, dirs: &[Dir]) -> Option<(Dir, u8)> {
        let dr = self.row(b) as i8 - self.row(a) as i8;
        let dc = self.col(b) as i8 - self.col(a) as i8;
        if dr == 0 && dc == 0 {
            return None;
        }
        if dr != 0 && dc != 0 && dr.abs() != dc.abs() {
            return None;
        }
        let d = Dir::new(dr.signum(), dc.signum());
        if !dirs.contains(&d) {
            return None;
        }
        Some((d, dr.abs().max(dc.abs()) as u8))
    }
    /// The interior grid points: the corners shared by four squares
    /// (Guerrilla Checkers). `(width-1) * (height-1)` of them.
    pub const fn points(self) -> u8 {
        (self.width - 1) * (self.height - 1)
    }
    /// The point at the bottom-right corner of square `s`, if interior.
    pub fn point_below_right(self, s: Sq) -> Option<Point> {
        let (r, c) = (self.row(s), self.col(s));
        if r + 1 < self.height && c + 1 < self.width {
            Some(Point(r * (self.width - 1) + c))
        } else {
            None
        }
    }
    /// The square whose bottom-right corner is point `p`: the first of the
    /// two squares in the point's canonical name
    /// (`engine/src/games/guerrilla/guerrilla-checkers.md`, "The board and the
    /// points").
    pub const fn point_square(self, p: Point) -> Sq {
        let r = p.0 / (self.width - 1);
        let c = p.0 % (self.width - 1);
        self.at(r, c)
    }
    /// The point's canonical name, `27/36`.
    pub fn point_name(self, p: Point) -> String {
        let s = self.point_square(p);
        format!("{}/{}", s.number(), s.number() + self.width as u16 + 1)
    }
    /// The point shared by two diagonally touching squares, in either
    /// diagonal and either order (`27/36`, `36/27`, `28/35`, `35/28`).
    pub fn point_between(self, a: Sq, b: Sq) -> Option<Point> {
        let (ra, ca) = (self.row(a) as i8, self.col(a) as i8);
        let (rb, cb) = (self.row(b) as i8, self.col(b) as i8);
        if (ra - rb).abs() != 1 || (ca - cb).abs() != 1 {
            return None;
        }
        let top_left = self.at(ra.min(rb) as u8, ca.min(cb) as u8);
        self.point_below_right(top_left)
    }
    /// The four corner points of square `s`, `None` where the corner lies on
    /// the board's outer edge. Order: top-left, top-right, bottom-left,
    /// bottom-right.
    pub fn corners(self, s: Sq) -> [Option<Point>; 4] {
        let (r, c) = (self.row(s) as i8, self.col(s) as i8);
        let corner = |pr: i8, pc: i8| -> Option<Point> {
            // Grid line pr (0..=height) and pc (0..=width); interior ones
            // are 1..height-1 and 1..width-1.
            if pr >= 1 && pc >= 1 && pr < self.height as i8 && pc < self.width as i8 {
                Some(Point((pr as u8 - 1) * (self.width - 1) + (pc as u8 - 1)))
            } else {
                None
            }
        };
        [
            corner(r, c),
            corner(r, c + 1),
            corner(r + 1, c),
            corner(r + 1, c + 1),
        ]
    }
    /// The points one grid step away from `p` horizontally or vertically,
    /// interior ones only.
    pub fn point_neighbours(self, p: Point) -> impl Iterator<Item = Point> {
        let w = self.width - 1;
        let h = self.height - 1;
        let (r, c) = ((p.0 / w) as i8, (p.0 % w) as i8);
        ORTHOGONAL.into_iter().filter_map(move |d| {
            let (nr, nc) = (r + d.dr, c + d.dc);
            if nr < 0 || nc < 0 || nr >= h as i8 || nc >= w as i8 {
                None
            } else {
                Some(Point(nr as u8 * w + nc as u8))
            }
        })
    }
}

/// Squares along every ray and around every square, computed once: move
/// generation reads them instead of stepping row and column.
pub struct RayTables {
    /// `ray[s][d][..ray_len[s][d]]`: the squares from `s` (exclusive) in
    /// direction `ALL[d]` to the edge, nearest first.
    ray: [[[u8; 7]; 8]; 64],
    ray_len: [[u8; 8]; 64],
    /// `neighbours[s][..neighbour_count[s]]`: the board squares adjacent to
    /// `s` (8 neighbours, diagonals included), in increasing order.
    neighbours: [[u8; 8]; 64],
    neighbour_count: [u8; 64],
}

const fn build_rays_8x8() -> RayTables {
    let mut t = RayTables {
        ray: [[[0; 7]; 8]; 64],
        ray_len: [[0; 8]; 64],
        neighbours: [[0; 8]; 64],
        neighbour_count: [0; 64],
    };
    let mut s = 0;
    while s < 64 {
        let (r, c) = ((s / 8) as i8, (s % 8) as i8);
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = (ALL[d].dr, ALL[d].dc);
            let (mut rr, mut cc) = (r + dr, c + dc);
            let mut n = 0;
            while rr >= 0 && rr < 8 && cc >= 0 && cc < 8 {
                t.ray[s][d][n] = (rr * 8 + cc) as u8;
                n += 1;
                rr += dr;
                cc += dc;
            }
            t.ray_len[s][d] = n as u8;
            if n > 0 {
                // ALL is ordered by square offset, so neighbours come out
                // in increasing order.
                t.neighbours[s][t.neighbour_count[s] as usize] = t.ray[s][d][0];
                t.neighbour_count[s] += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// The 8x8 board's rays and neighbourhoods (directions in [`ALL`] order).
pub static RAYS_8X8: RayTables = build_rays_8x8();

impl RayTables {
    #[inline]
    pub fn ray(&self, s: Sq, d: usize) -> &[u8] {
        &self.ray[s.index() & 63][d][..self.ray_len[s.index() & 63][d] as usize]
    }
    #[inline]
    pub fn neighbours(&self, s: Sq) -> &[u8] {
        &self.neighbours[s.index() & 63][..self.neighbour_count[s.index() & 63] as usize]
    }
}

/// Iterator over the squares of a ray, nearest first.
#[derive(Clone, Debug)]
pub struct Ray {
    geometry: Geometry,
    at: Sq,
    dir: Dir,
}

impl Iterator for Ray {
    type Item = Sq;
    #[inline]
    fn next(&mut self) -> Option<Sq> {
        let n = self.geometry.step(self.at, self.dir)?;
        self.at = n;
        Some(n)
    }
}

/// An interior grid point (Guerrilla Checkers), 0-based row-major over the
/// `(width-1) x (height-1)` interior points.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Point(pub u8);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_follows_rules_md() {
        // docs/src/rules/common.md, "Board numbering": square s is row
        // (s-1)/8+1, column (s-1)%8+1.
        let g = Geometry::EIGHT;
        let s = Sq::from_number(27);
        assert_eq!((g.row(s) + 1, g.col(s) + 1), (4, 3));
        assert!(!g.is_dark(Sq::from_number(1)), "square 1 is light");
        assert!(g.is_dark(Sq::from_number(2)));
    }

    #[test]
    fn point_names() {
        let g = Geometry::EIGHT;
        let p = g
            .point_between(Sq::from_number(27), Sq::from_number(36))
            .unwrap();
        assert_eq!(g.point_name(p), "27/36");
        let q = g
            .point_between(Sq::from_number(35), Sq::from_number(28))
            .unwrap();
        assert_eq!(p, q, "28/35 names the same point as 27/36");
        assert_eq!(g.points(), 49);
        // Square 1's only interior corner is 1/10.
        let corners = g.corners(Sq::from_number(1));
        assert_eq!(corners.iter().flatten().count(), 1);
        assert_eq!(g.point_name(corners[3].unwrap()), "1/10");
        assert_eq!(g.point_neighbours(Point(0)).count(), 2);
        assert_eq!(g.point_neighbours(Point(24)).count(), 4);
    }

    #[test]
    fn torus_wraps() {
        let g = Geometry::EIGHT;
        assert_eq!(
            g.step_wrapping(Sq::from_number(24), Dir::new(1, 1)),
            Sq::from_number(25)
        );
        assert_eq!(
            g.step_wrapping(Sq::from_number(57), Dir::new(1, -1)),
            Sq::from_number(8)
        );
    }
}
