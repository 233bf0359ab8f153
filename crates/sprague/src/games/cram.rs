//! Cram: players take turns placing a domino on two empty adjacent cells, either way (the
//! impartial Domineering); the player who cannot place a domino loses.
//!
//! Positions are boards in the [grid](super::grid) syntax, `.` empty and `#` blocked:
//! `....|.#..|....`; `cram:RxC` is the empty R×C board. A move is written by its two cells,
//! 1-based `(row,column)`, as in Domineering: `(1,1)-(1,2)`.
//!
//! Components: cells that no domino can cover are dropped, and the rest splits into
//! 4-connected regions. A region's [key](Impartial::key) is its least image under the eight
//! symmetries of the rectangle (no negation: the game is impartial), so equal regions share
//! one value.

use super::grid::{board_text, canonical_key, Cells, Grid, GridError, Symmetry};
use crate::game::notation::ParseError;
use crate::game::{Game, Impartial, Notation};

/// The rules of Cram (the position is the set of empty cells).
#[derive(Clone, Copy, Debug, Default)]
pub struct Cram;

impl Cram {
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

    /// Every placement: the bit of its first (upper or left) cell and the step to the other.
    fn placements(position: &Cells) -> impl Iterator<Item = (u128, usize)> {
        let bits = |mut pairs: u128, step: usize| {
            std::iter::from_fn(move || {
                (pairs != 0).then(|| {
                    let low = pairs & pairs.wrapping_neg();
                    pairs &= pairs - 1;
                    (low, step)
                })
            })
        };
        bits(position.horizontal_pairs(), 1).chain(bits(position.vertical_pairs(), position.cols()))
    }
}

impl Game for Cram {
    type Position = Cells;
}

impl Impartial for Cram {
    fn options(&self, position: &Cells) -> Vec<Cells> {
        Cram::placements(position)
            .map(|(low, step)| position.with_bits(position.bits() & !(low | (low << step))))
            .collect()
    }

    fn components(&self, position: &Cells) -> Vec<Cells> {
        position.with_neighbours().components()
    }

    fn join(&self, parts: Vec<Cells>) -> Option<Cells> {
        let first = *parts.first()?;
        let same_board = parts
            .iter()
            .all(|p| (p.rows(), p.cols()) == (first.rows(), first.cols()));
        same_board.then(|| first.with_bits(parts.iter().fold(0, |b, p| b | p.bits())))
    }

    fn key(&self, component: &Cells) -> Cells {
        canonical_key([component.cropped()], &Symmetry::ALL).0[0]
    }
}

impl Notation for Cram {
    fn parse_position(&self, words: &[&str]) -> Result<Cells, ParseError> {
        let text = board_text(words, "...|...")?;
        Cram::parse(&text).map_err(|e| e.to_string().into())
    }

    fn write_position(&self, position: &Cells) -> String {
        position.to_string()
    }

    fn write_move(&self, from: &Cells, to: &Cells) -> String {
        let taken = from.bits() & !to.bits();
        let cols = from.cols();
        let cell = |i: u32| (i as usize / cols + 1, i as usize % cols + 1);
        let (r1, c1) = cell(taken.trailing_zeros());
        let (r2, c2) = cell(127 - taken.leading_zeros());
        format!("({r1},{c1})-({r2},{c2})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::{Code, HeapGame};
    use crate::solve::NimValues;
    use std::sync::Arc;

    fn value(solver: &mut NimValues<Cram>, board: &str) -> u64 {
        solver.nim_value(&Cram::parse(board).unwrap()).unwrap()
    }

    /// Cram without components or keys: the whole board searched as it is.
    #[derive(Clone)]
    struct Plain;
    impl Game for Plain {
        type Position = Cells;
    }
    impl Impartial for Plain {
        fn options(&self, position: &Cells) -> Vec<Cells> {
            Cram.options(position)
        }
    }

    #[test]
    fn small_boards() {
        let mut solver = NimValues::new(Cram);
        // A lone cell or a 2x2 block: no move, or a move to a lone domino's room (*1).
        assert_eq!(value(&mut solver, "."), 0);
        assert_eq!(value(&mut solver, ".."), 1);
        assert_eq!(value(&mut solver, "..."), 1);
        // Even by even boards are 0: the second player answers with the point reflection
        // (Winning Ways ch. 22, "Cram"; Gardner's symmetry strategy).
        for (r, c) in [(2, 2), (2, 4), (4, 4), (2, 6), (4, 2)] {
            let board = Cram::rectangle(r, c).unwrap();
            assert_eq!(solver.nim_value(&board).unwrap(), 0, "{r}x{c}");
        }
        // Odd by even boards are N positions (the first player takes the centre pair and
        // mirrors); 3x2 has value 1 by hand: every move leaves a 1x2 room plus a 2x2 block
        // or an L of four cells... checked against plain search below.
        assert_ne!(value(&mut solver, "..|..|.."), 0);
    }

    #[test]
    fn moves_are_written_by_their_cells() {
        let from = Cram::parse("..|.#").unwrap();
        let texts: Vec<String> = Cram
            .options(&from)
            .iter()
            .map(|to| format!("{} {}", Cram.write_move(&from, to), to))
            .collect();
        assert_eq!(texts, ["(1,1)-(1,2) ##|.#", "(1,1)-(2,1) #.|##"]);
    }

    #[test]
    fn strips_are_dawsons_kayles() {
        // A 1×n strip is octal 0.07 (Dawson's Kayles): a domino takes two adjacent cells,
        // anywhere in the row (Winning Ways ch. 4). The board encoding holds 128 cells.
        let dawson = HeapGame::new("dawson", Arc::new(Code::parse("0.07").unwrap()));
        let mut heap = NimValues::new(dawson);
        let mut solver = NimValues::new(Cram);
        for n in 1..=128 {
            let strip = Cram::rectangle(1, n).unwrap();
            assert_eq!(
                solver.nim_value(&strip).unwrap(),
                heap.nim_value(&vec![n as u64]).unwrap(),
                "1x{n}"
            );
        }
    }

    #[test]
    fn igsolve_published_values() {
        // The README of github.com/beling/impartial-games (igs and igsolve, by P. Beling),
        // "The results obtained so far", Cram table: every board of at most 30 cells.
        let mut solver = NimValues::new(Cram);
        for (r, c, v) in IGSOLVE {
            let board = Cram::rectangle(r, c).unwrap();
            assert_eq!(solver.nim_value(&board).unwrap(), v, "{r}x{c}");
        }
    }

    /// (rows, columns, nim value) from that table.
    const IGSOLVE: [(usize, usize, u64); 6] = [
        (4, 4, 0),
        (4, 5, 2),
        (4, 6, 0),
        (4, 7, 3),
        (5, 5, 0),
        (5, 6, 2),
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn regions_and_keys_agree_with_plain_search(
            rows in 1usize..=4, cols in 1usize..=4, blocked: u16,
        ) {
            let board = Cram::rectangle(rows, cols).unwrap().with_bits(!u128::from(blocked));
            let mut plain = NimValues::new(Plain);
            let mut solver = NimValues::new(Cram);
            proptest::prop_assert_eq!(solver.nim_value(&board).unwrap(), plain.nim_value(&board).unwrap());
            // The parsed text of the board is the same board.
            proptest::prop_assert_eq!(Cram.parse_position(&[&board.to_string()]).unwrap(), board);
        }
    }
}
