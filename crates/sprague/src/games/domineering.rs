//! Domineering: players take turns placing a domino on two empty adjacent cells; Left
//! (CGSuite's convention, as in Winning Ways) places them **vertically**, Right horizontally.
//! The player who cannot place a domino loses.
//!
//! Positions are boards in the [grid](super::grid) syntax, `.` empty and `#` blocked:
//! `....|.#..|....`; `domineering:RxC` is the empty R×C board. A move is written by its two
//! cells, 1-based `(row,column)`: `(1,2)-(2,2)` is a vertical domino.
//!
//! Regions: cells that no domino can cover are dropped, and the rest splits into 4-connected
//! components. A region's key is its least image under the symmetries of the rectangle; the
//! four that swap rows and columns swap the players, so they negate the value.

use super::grid::{canonical_key, Cells, Grid, GridError, Symmetry};
use crate::game::notation::ParseError;
use crate::game::{Game, Notation};
use crate::partizan::game::move_text;
use crate::partizan::{Keyed, Partizan, Side};

/// The rules of Domineering (the position is the set of empty cells).
#[derive(Clone, Copy, Debug, Default)]
pub struct Domineering;

impl Domineering {
    /// Parses a board: rows joined by `|` or `/`, `.` empty, `#` blocked.
    ///
    /// # Errors
    /// A [`GridError`] naming the problem.
    pub fn parse(text: &str) -> Result<Cells, GridError> {
        Ok(Grid::parse(text, "")?.cells_of(b'.'))
    }

    /// The empty `rows × cols` board.
    ///
    /// # Errors
    /// [`GridError::Empty`] or [`GridError::TooLarge`].
    pub fn rectangle(rows: usize, cols: usize) -> Result<Cells, GridError> {
        Grid::empty(rows, cols)?;
        Ok(Cells::full(rows, cols))
    }

    /// The board as text (`.` empty, `#` blocked or covered).
    pub fn to_text(position: &Cells) -> String {
        position.to_string()
    }

    /// The domino placements of `side`: each as the bit of its first (upper or left) cell.
    fn placements(position: &Cells, side: Side) -> (u128, usize) {
        match side {
            Side::Left => (position.vertical_pairs(), position.cols()),
            Side::Right => (position.horizontal_pairs(), 1),
        }
    }
}

impl Game for Domineering {
    type Position = Cells;
}

impl Partizan for Domineering {
    fn options(&self, position: &Cells, side: Side) -> Vec<Cells> {
        let (mut pairs, step) = Domineering::placements(position, side);
        let mut options = Vec::with_capacity(pairs.count_ones() as usize);
        while pairs != 0 {
            let low = pairs & pairs.wrapping_neg();
            pairs &= pairs - 1;
            options.push(position.with_bits(position.bits() & !(low | (low << step))));
        }
        options
    }

    fn moves(&self, position: &Cells, side: Side) -> Vec<(String, Cells)> {
        let (mut pairs, step) = Domineering::placements(position, side);
        let mut moves = Vec::new();
        while pairs != 0 {
            let i = pairs.trailing_zeros() as usize;
            let low = pairs & pairs.wrapping_neg();
            pairs &= pairs - 1;
            let (r, c) = (i / position.cols(), i % position.cols());
            let (r2, c2) = if step == 1 { (r, c + 1) } else { (r + 1, c) };
            let text = format!("({},{})-({},{})", r + 1, c + 1, r2 + 1, c2 + 1);
            moves.push((
                text,
                position.with_bits(position.bits() & !(low | (low << step))),
            ));
        }
        moves
    }

    fn components(&self, position: &Cells) -> Vec<Cells> {
        position.with_neighbours().components()
    }

    fn key(&self, region: &Cells) -> Keyed<Cells> {
        let ([key], symmetry) = canonical_key([region.cropped()], &Symmetry::ALL);
        Keyed {
            key,
            negated: symmetry.transpose,
        }
    }
}

impl Notation for Domineering {
    fn parse_position(&self, words: &[&str]) -> Result<Cells, ParseError> {
        let text = super::grid::board_text(words, "...|...")?;
        Domineering::parse(&text).map_err(|e| e.to_string().into())
    }

    fn write_position(&self, position: &Cells) -> String {
        Domineering::to_text(position)
    }

    fn write_move(&self, from: &Cells, to: &Cells) -> String {
        move_text(self, from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partizan::solve::canonical_form;

    fn value(board: &str) -> String {
        let position = Domineering::parse(board).unwrap();
        canonical_form(&Domineering, &position).unwrap()
    }

    #[test]
    fn known_values() {
        // Winning Ways ch. 2 and Lessons in Play §1.1: a vertical domino's room is 1 for Left,
        // a horizontal one -1 for Right; 2x2 is ±1.
        assert_eq!(value(".|."), "1");
        assert_eq!(value(".."), "-1");
        assert_eq!(value("..|.."), "±1");
        // Lessons in Play, Domineering examples: the 3-cell vertical strip is 1, four is 2.
        assert_eq!(value(".|.|."), "1");
        assert_eq!(value(".|.|.|."), "2");
        // Winning Ways ch. 2 ("Domineering"): the L-tromino is *, the 3x3 board is ±1.
        assert_eq!(value(".#|.."), "*");
        assert_eq!(value("...|...|..."), "±1");
        // Values printed by cgt-py 0.11 for the same boards (2 rows by 3 columns, its
        // transpose, 2 by 4, and a 3x3 board with three cells blocked).
        assert_eq!(value("...|..."), "{2|-1/2}");
        assert_eq!(value("..|..|.."), "{1/2|-2}");
        assert_eq!(value("....|...."), "{2|0||0}");
        assert_eq!(value(".##|...|#.."), "{2|-1/2}");
        // Transposing negates.
        assert_eq!(value(".|.|.|.|."), "2");
        assert_eq!(value("....."), "-2");
    }

    #[test]
    fn moves_have_text() {
        let position = Domineering::parse("..|.#").unwrap();
        let moves: Vec<String> = Domineering
            .moves(&position, Side::Left)
            .into_iter()
            .map(|(t, p)| format!("{t} {p}"))
            .collect();
        assert_eq!(moves, ["(1,1)-(2,1) #.|##"]);
    }
}
