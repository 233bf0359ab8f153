//! Clobber and Konane on grids. Left owns the stones `x` (blue in CGSuite's Clobber),
//! Right the stones `o`; `.` is an empty cell and `#` a cell off the board.
//!
//! - **Clobber** (Albert, Grossman, Nowakowski, Wolfe 2005): a player moves one of their
//!   stones onto an orthogonally adjacent stone of the opponent, which is removed.
//! - **Konane** (Lessons in Play §1.5; Ernst 1995): a player jumps one of their stones over an
//!   orthogonally adjacent stone of the opponent into the empty cell beyond, removing it, and
//!   may continue jumping in the same direction.
//!
//! Positions use the [grid](super::grid) syntax: `xo.|.ox`. A move is written by its cells,
//! 1-based `(row,column)`: `(1,1)-(1,2)`.
//!
//! Regions: 4-connected components of the stones (Clobber) or of stones and empty cells
//! (Konane) that hold stones of both players; one-coloured regions are 0. A region's key is
//! its least image under the rectangle's symmetries, with and without swapping the colours
//! (which negates).

use super::grid::{canonical_key, Cells, Grid, GridError, Symmetry};
use crate::game::notation::ParseError;
use crate::game::{Game, Notation};
use crate::partizan::game::move_text;
use crate::partizan::game::positions;
use crate::partizan::{Keyed, Partizan, Side};
use std::fmt;

/// A position: Left's stones, Right's stones and the empty cells of one board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Stones {
    left: Cells,
    right: Cells,
    empty: Cells,
}

impl Stones {
    /// Parses a board of `x`, `o`, `.` and `#`.
    ///
    /// # Errors
    /// A [`GridError`] naming the problem.
    pub fn parse(text: &str) -> Result<Stones, GridError> {
        let grid = Grid::parse(text, "xo")?;
        Ok(Stones {
            left: grid.cells_of(b'x'),
            right: grid.cells_of(b'o'),
            empty: grid.cells_of(b'.'),
        })
    }

    /// Left's stones, Right's stones and the empty cells.
    pub fn layers(self) -> [Cells; 3] {
        [self.left, self.right, self.empty]
    }

    /// The position with these stones and empty cells (on one board; cells in none of them
    /// are off the board).
    pub fn from_layers([left, right, empty]: [Cells; 3]) -> Stones {
        Stones { left, right, empty }
    }

    fn mine(self, side: Side) -> (Cells, Cells) {
        match side {
            Side::Left => (self.left, self.right),
            Side::Right => (self.right, self.left),
        }
    }

    fn with(self, side: Side, mine: u128, theirs: u128, empty: u128) -> Stones {
        let (a, b) = match side {
            Side::Left => (mine, theirs),
            Side::Right => (theirs, mine),
        };
        Stones {
            left: self.left.with_bits(a),
            right: self.right.with_bits(b),
            empty: self.empty.with_bits(empty),
        }
    }

    /// The same stones on the board of the rectangle `(top, left, rows, cols)`.
    pub(super) fn window(self, top: usize, left: usize, rows: usize, cols: usize) -> Stones {
        Stones::from_layers(self.layers().map(|l| l.window(top, left, rows, cols)))
    }
}

impl fmt::Display for Stones {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.left.rows() {
            if r > 0 {
                f.write_str("|")?;
            }
            for c in 0..self.left.cols() {
                let ch = if self.left.contains(r, c) {
                    'x'
                } else if self.right.contains(r, c) {
                    'o'
                } else if self.empty.contains(r, c) {
                    '.'
                } else {
                    '#'
                };
                write!(f, "{ch}")?;
            }
        }
        Ok(())
    }
}

/// Which of the two games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// Clobber: move onto an adjacent opponent's stone.
    Clobber,
    /// Konane: jump over adjacent opponent's stones into empty cells, in one direction.
    Konane,
}

/// Clobber or Konane.
#[derive(Clone, Copy, Debug)]
pub struct Clobber(pub Rules);

const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

impl Clobber {
    fn generate(&self, position: &Stones, side: Side) -> Vec<(String, Stones)> {
        let (mine, theirs) = position.mine(side);
        let (rows, cols) = (mine.rows() as isize, mine.cols() as isize);
        let inside = |r: isize, c: isize| (0..rows).contains(&r) && (0..cols).contains(&c);
        let mut moves = Vec::new();
        for (r, c) in mine.iter() {
            let (r, c) = (r as isize, c as isize);
            for (dr, dc) in DIRECTIONS {
                let bit = |r: isize, c: isize| mine.bit(r as usize, c as usize);
                let (mut m, mut t, mut e) = (mine.bits(), theirs.bits(), position.empty.bits());
                match self.0 {
                    Rules::Clobber => {
                        let (r2, c2) = (r + dr, c + dc);
                        if inside(r2, c2) && theirs.contains(r2 as usize, c2 as usize) {
                            m = (m & !bit(r, c)) | bit(r2, c2);
                            t &= !bit(r2, c2);
                            e |= bit(r, c);
                            let text = format!("({},{})-({},{})", r + 1, c + 1, r2 + 1, c2 + 1);
                            moves.push((text, position.with(side, m, t, e)));
                        }
                    }
                    Rules::Konane => {
                        let (mut r2, mut c2) = (r, c);
                        loop {
                            let (over_r, over_c) = (r2 + dr, c2 + dc);
                            let (land_r, land_c) = (r2 + 2 * dr, c2 + 2 * dc);
                            if !inside(land_r, land_c)
                                || !theirs.contains(over_r as usize, over_c as usize)
                                || !position.empty.contains(land_r as usize, land_c as usize)
                                || t & bit(over_r, over_c) == 0
                            {
                                break;
                            }
                            m = (m & !bit(r2, c2)) | bit(land_r, land_c);
                            t &= !bit(over_r, over_c);
                            e = (e | bit(r2, c2) | bit(over_r, over_c)) & !bit(land_r, land_c);
                            r2 = land_r;
                            c2 = land_c;
                            let text = format!("({},{})-({},{})", r + 1, c + 1, r2 + 1, c2 + 1);
                            moves.push((text, position.with(side, m, t, e)));
                        }
                    }
                }
            }
        }
        moves
    }
}

impl Game for Clobber {
    type Position = Stones;
}

impl Partizan for Clobber {
    fn options(&self, position: &Stones, side: Side) -> Vec<Stones> {
        positions(self.generate(position, side))
    }

    fn moves(&self, position: &Stones, side: Side) -> Vec<(String, Stones)> {
        self.generate(position, side)
    }

    fn components(&self, position: &Stones) -> Vec<Stones> {
        let stones = position
            .left
            .with_bits(position.left.bits() | position.right.bits());
        let area = match self.0 {
            Rules::Clobber => stones,
            Rules::Konane => stones.with_bits(stones.bits() | position.empty.bits()),
        };
        area.components()
            .into_iter()
            .filter_map(|part| {
                let p = part.bits();
                let both = position.left.bits() & p != 0 && position.right.bits() & p != 0;
                if !both {
                    return None;
                }
                let masked = Stones {
                    left: position.left.with_bits(position.left.bits() & p),
                    right: position.right.with_bits(position.right.bits() & p),
                    empty: position.empty.with_bits(position.empty.bits() & p),
                };
                let (top, left, rows, cols) = part.bounding_box();
                Some(masked.window(top, left, rows, cols))
            })
            .collect()
    }

    fn key(&self, region: &Stones) -> Keyed<Stones> {
        colour_symmetric_key(region)
    }
}

/// The least image of a region under the rectangle's symmetries, with and without swapping
/// the players' stones (which negates the value).
pub(super) fn colour_symmetric_key(region: &Stones) -> Keyed<Stones> {
    {
        let (plain, _) = canonical_key(region.layers(), &Symmetry::ALL);
        let swapped = [region.right, region.left, region.empty];
        let (negative, _) = canonical_key(swapped, &Symmetry::ALL);
        if negative < plain {
            Keyed {
                key: Stones::from_layers(negative),
                negated: true,
            }
        } else {
            Keyed {
                key: Stones::from_layers(plain),
                negated: false,
            }
        }
    }
}

impl Notation for Clobber {
    fn parse_position(&self, words: &[&str]) -> Result<Stones, ParseError> {
        let text = super::grid::board_text(words, "xox|oxo")?;
        Stones::parse(&text).map_err(|e| e.to_string().into())
    }

    fn write_position(&self, position: &Stones) -> String {
        position.to_string()
    }

    fn write_move(&self, from: &Stones, to: &Stones) -> String {
        move_text(self, from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partizan::solve::canonical_form;

    fn value(rules: Rules, board: &str) -> String {
        let position = Stones::parse(board).unwrap();
        canonical_form(&Clobber(rules), &position).unwrap()
    }

    #[test]
    fn clobber_values() {
        // Albert, Grossman, Nowakowski, Wolfe, "An introduction to Clobber" (Integers 5,
        // 2005): xo = *; xxo = {0 | xo} = {0|*} = ^; xoo = {*|0} = v.
        assert_eq!(value(Rules::Clobber, "xo"), "*");
        assert_eq!(value(Rules::Clobber, "xxxx"), "0");
        // The 2x2 checkerboard is * (cgt-py 0.11 agrees, built from the options).
        assert_eq!(value(Rules::Clobber, "xo|ox"), "*");
        assert_eq!(value(Rules::Clobber, "xoo"), "v");
        assert_eq!(value(Rules::Clobber, "xxo"), "^");
    }

    #[test]
    fn konane_values() {
        // Lessons in Play §1.5: a Left stone that can jump a Right stone into an empty cell
        // is worth 1 when Right has no move.
        assert_eq!(value(Rules::Konane, "xo."), "1");
        // A double jump is one move: {0, 0 | } = 1.
        assert_eq!(value(Rules::Konane, "xo.o."), "1");
        // Either player jumps once: {0|0} = *.
        assert_eq!(value(Rules::Konane, ".xo."), "*");
        assert_eq!(value(Rules::Konane, "xx"), "0");
    }

    #[test]
    fn stray_characters_are_named() {
        assert!(matches!(
            Stones::parse("xoz").unwrap_err(),
            GridError::Stray { found: 'z', .. }
        ));
    }
}
