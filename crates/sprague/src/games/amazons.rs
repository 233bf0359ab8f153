//! Amazons on small boards (Berlekamp, "Sums of N×2 Amazons", 2000; Lessons in Play §2.6):
//! a player moves one of their amazons like a chess queen through empty cells, then shoots
//! an arrow from where it lands, again like a queen; the arrow's cell is burnt for good. Left
//! owns the amazons `x`, Right the amazons `o` (cgt-py's letters); `.` is empty, `#` burnt.
//!
//! Positions use the [grid](super::grid) syntax, `x..|.#o`. A move is written
//! `(r,c)-(r,c)/(r,c)`: from, to, arrow (1-based).
//!
//! Regions: 8-connected components of amazons and empty cells that hold an amazon. A region's
//! key is its least image under the rectangle's symmetries, with and without swapping the
//! players (which negates).

use super::clobber::{colour_symmetric_key, Stones};
use super::grid::{Cells, GridError};
use crate::game::notation::ParseError;
use crate::game::{Game, Notation};
use crate::partizan::game::move_text;
use crate::partizan::game::positions;
use crate::partizan::{Keyed, Partizan, Side};

/// The rules of Amazons.
#[derive(Clone, Copy, Debug, Default)]
pub struct Amazons;

const QUEEN: [(isize, isize); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

impl Amazons {
    /// Parses a board of `x`, `o`, `.` and `#`.
    ///
    /// # Errors
    /// A [`GridError`] naming the problem.
    pub fn parse(text: &str) -> Result<Stones, GridError> {
        Stones::parse(text)
    }

    /// The empty cells reached from `(r, c)` by a queen over `empty`.
    fn reach(empty: Cells, r: usize, c: usize) -> Vec<(usize, usize)> {
        let (rows, cols) = (empty.rows() as isize, empty.cols() as isize);
        let mut cells = Vec::new();
        for (dr, dc) in QUEEN {
            let (mut r2, mut c2) = (r as isize + dr, c as isize + dc);
            while (0..rows).contains(&r2)
                && (0..cols).contains(&c2)
                && empty.contains(r2 as usize, c2 as usize)
            {
                cells.push((r2 as usize, c2 as usize));
                r2 += dr;
                c2 += dc;
            }
        }
        cells
    }
}

impl Game for Amazons {
    type Position = Stones;
}

impl Partizan for Amazons {
    fn options(&self, position: &Stones, side: Side) -> Vec<Stones> {
        let mut options: Vec<Stones> = positions(self.moves(position, side));
        options.sort_unstable();
        options.dedup();
        options
    }

    fn moves(&self, position: &Stones, side: Side) -> Vec<(String, Stones)> {
        let [left, right, empty] = position.layers();
        let (mine, theirs) = if side == Side::Left {
            (left, right)
        } else {
            (right, left)
        };
        let mut moves = Vec::new();
        for (r, c) in mine.iter() {
            let from = mine.bit(r, c);
            for (r2, c2) in Amazons::reach(empty, r, c) {
                let to = mine.bit(r2, c2);
                let empty_after = empty.with_bits((empty.bits() | from) & !to);
                for (r3, c3) in Amazons::reach(empty_after, r2, c2) {
                    let arrow = mine.bit(r3, c3);
                    let moved = mine.with_bits((mine.bits() & !from) | to);
                    let empty_final = empty_after.with_bits(empty_after.bits() & !arrow);
                    let layers = if side == Side::Left {
                        [moved, theirs, empty_final]
                    } else {
                        [theirs, moved, empty_final]
                    };
                    let text = format!(
                        "({},{})-({},{})/({},{})",
                        r + 1,
                        c + 1,
                        r2 + 1,
                        c2 + 1,
                        r3 + 1,
                        c3 + 1
                    );
                    moves.push((text, Stones::from_layers(layers)));
                }
            }
        }
        moves
    }

    fn components(&self, position: &Stones) -> Vec<Stones> {
        let [left, right, empty] = position.layers();
        let area = empty.with_bits(left.bits() | right.bits() | empty.bits());
        area.components_diagonal()
            .into_iter()
            .filter(|part| (left.bits() | right.bits()) & part.bits() != 0)
            .map(|part| {
                let p = part.bits();
                let masked = Stones::from_layers([
                    left.with_bits(left.bits() & p),
                    right.with_bits(right.bits() & p),
                    empty.with_bits(empty.bits() & p),
                ]);
                let (top, l, rows, cols) = part.bounding_box();
                masked.window(top, l, rows, cols)
            })
            .collect()
    }

    fn key(&self, region: &Stones) -> Keyed<Stones> {
        colour_symmetric_key(region)
    }
}

impl Notation for Amazons {
    fn parse_position(&self, words: &[&str]) -> Result<Stones, ParseError> {
        let text = super::grid::board_text(words, "x...|...o")?;
        Amazons::parse(&text).map_err(|e| e.to_string().into())
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

    fn value(board: &str) -> String {
        let position = Amazons::parse(board).unwrap();
        canonical_form(&Amazons, &position).unwrap()
    }

    #[test]
    fn small_boards() {
        // An amazon with two empty cells beside it can move twice at most (to the middle
        // shooting the far cell, then back shooting the middle): {0, 1 | } = 2.
        assert_eq!(value("x.."), "2");
        assert_eq!(value("o.."), "-2");
        // With one empty cell between two amazons, the mover steps in and shoots back into
        // the cell it left; then nobody can move: {0|0} = *. Behind a burnt cell, no move.
        // cgt-py 0.11 gives the same, and 0 for the symmetric x.|.o.
        assert_eq!(value("x.o"), "*");
        assert_eq!(value("x.|.o"), "0");
        assert_eq!(value("x#o"), "0");
    }
}
