//! Cutcake (Winning Ways ch. 2): rectangular pieces of cake scored in unit squares; Left cuts
//! a piece **vertically** (splitting its columns: an R×C piece becomes R×a and R×(C−a)),
//! Right cuts horizontally (splitting its rows). CGSuite's convention: Left cuts vertically.
//!
//! A position is a list of pieces `RxC` (R rows, C columns), each at most [`MAX_SIDE`] on a
//! side: `2x3 1x4`. A move is written `cut RxC at a` (after `a` columns for Left, rows for
//! Right). Every piece is its own region; pieces are integers (Winning Ways).

use crate::game::notation::ParseError;
use crate::game::{Game, Notation};
use crate::partizan::game::move_text;
use crate::partizan::game::positions;
use crate::partizan::{Partizan, Side};
use std::fmt;

/// The longest side of a piece.
pub const MAX_SIDE: u32 = 64;

/// A list of pieces `(rows, cols)`, sorted.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Pieces(Vec<(u32, u32)>);

/// Pieces that do not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PiecesError {
    /// A piece that is not `RxC` with positive sides.
    #[error("invalid piece '{}' (expected RxC, such as 2x3)", super::grid::printable(.0))]
    Piece(String),
    /// A side above [`MAX_SIDE`].
    #[error("piece '{}' is too large: sides up to {MAX_SIDE} are supported", super::grid::printable(.0))]
    TooLarge(String),
}

impl Pieces {
    /// Parses pieces `RxC`.
    ///
    /// # Errors
    /// A [`PiecesError`] naming the piece.
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<Pieces, PiecesError> {
        let mut pieces = Vec::new();
        for word in words {
            let word = word.as_ref();
            let bad = || PiecesError::Piece(word.to_string());
            let (r, c) = word.split_once(['x', 'X']).ok_or_else(bad)?;
            let (r, c): (u32, u32) = (r.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?);
            if r == 0 || c == 0 {
                return Err(bad());
            }
            if r > MAX_SIDE || c > MAX_SIDE {
                return Err(PiecesError::TooLarge(word.to_string()));
            }
            pieces.push((r, c));
        }
        Ok(Pieces::new(pieces))
    }

    fn new(mut pieces: Vec<(u32, u32)>) -> Pieces {
        pieces.sort_unstable();
        Pieces(pieces)
    }
}

impl fmt::Display for Pieces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.0.iter().map(|(r, c)| format!("{r}x{c}")).collect();
        f.write_str(&words.join(" "))
    }
}

/// The rules of Cutcake.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cutcake;

impl Game for Cutcake {
    type Position = Pieces;
}

impl Partizan for Cutcake {
    fn options(&self, position: &Pieces, side: Side) -> Vec<Pieces> {
        positions(self.moves(position, side))
    }

    fn moves(&self, position: &Pieces, side: Side) -> Vec<(String, Pieces)> {
        let mut moves = Vec::new();
        for (i, &(r, c)) in position.0.iter().enumerate() {
            if i > 0 && position.0[i - 1] == (r, c) {
                continue;
            }
            let length = if side == Side::Left { c } else { r };
            // Cuts at a and length - a give the same pieces.
            for a in 1..=length / 2 {
                let mut rest = position.0.clone();
                rest.remove(i);
                if side == Side::Left {
                    rest.extend([(r, a), (r, c - a)]);
                } else {
                    rest.extend([(a, c), (r - a, c)]);
                }
                moves.push((format!("cut {r}x{c} at {a}"), Pieces::new(rest)));
            }
        }
        moves
    }

    fn components(&self, position: &Pieces) -> Vec<Pieces> {
        position.0.iter().map(|&p| Pieces(vec![p])).collect()
    }
}

impl Notation for Cutcake {
    fn parse_position(&self, words: &[&str]) -> Result<Pieces, ParseError> {
        if words.is_empty() {
            return Err("give pieces RxC, such as 2x3 1x4".into());
        }
        Pieces::parse(words).map_err(|e| e.to_string().into())
    }

    fn write_position(&self, position: &Pieces) -> String {
        position.to_string()
    }

    fn write_move(&self, from: &Pieces, to: &Pieces) -> String {
        move_text(self, from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partizan::solve::canonical_form;

    fn value(pieces: &str) -> String {
        let words: Vec<&str> = pieces.split_whitespace().collect();
        let position = Pieces::parse(&words).unwrap();
        canonical_form(&Cutcake, &position).unwrap()
    }

    #[test]
    fn known_values() {
        // Winning Ways ch. 2, Cutcake: a 1xC strip is C-1 (only Left can cut it); 2x2 =
        // {2x1 + 2x1 | 1x2 + 1x2} = {-2|2} = 0; 2x3 = {-1|4} = 0; 2x4 = {0|6} = 1.
        assert_eq!(value("1x1"), "0");
        assert_eq!(value("1x4"), "3");
        assert_eq!(value("4x1"), "-3");
        assert_eq!(value("2x2"), "0");
        assert_eq!(value("2x3"), "0");
        assert_eq!(value("2x4"), "1");
        assert_eq!(value("4x2"), "-1");
        assert_eq!(value("1x4 4x1"), "0");
        assert!(Pieces::parse(&["2y3"]).is_err());
        assert_eq!(
            Pieces::parse(&["2x100"]).unwrap_err().to_string(),
            "piece '2x100' is too large: sides up to 64 are supported"
        );
    }
}
