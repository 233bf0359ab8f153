//! Toads and Frogs (Winning Ways ch. 1): on a strip, Left's **toads** `T` move right and
//! Right's **frogs** `F` move left, one step into an empty square `.` or one jump over a
//! single piece of the other kind into the empty square beyond. CGSuite's convention: toads
//! are Left.
//!
//! Positions are strips such as `TT..FF` (at most [`MAX_LENGTH`] squares). A move is written
//! by its squares, 1-based: `T 2-3` (a toad steps from square 2 to 3), `F 5-3` (a frog jumps).
//!
//! Regions: toads at the right end and frogs at the left end can never move or be jumped,
//! so they are trimmed. Reversing the strip and swapping toads and frogs negates the value.

use crate::game::notation::ParseError;
use crate::game::{Game, Notation};
use crate::partizan::game::move_text;
use crate::partizan::game::positions;
use crate::partizan::{Keyed, Partizan, Side};
use std::fmt;

/// The longest strip.
pub const MAX_LENGTH: usize = 256;

/// A strip of toads, frogs and empty squares (checked).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Strip(Vec<u8>);

/// A strip that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StripError {
    /// A character other than `T`, `F`, `.`.
    #[error(
        "unexpected '{}' at square {square} (expected 'T', 'F' or '.')",
        super::grid::printable(.found)
    )]
    Stray {
        /// The character.
        found: char,
        /// The 1-based square.
        square: usize,
    },
    /// More than [`MAX_LENGTH`] squares.
    #[error("the strip has {0} squares; at most {MAX_LENGTH} are supported")]
    TooLong(usize),
}

impl std::str::FromStr for Strip {
    type Err = StripError;
    fn from_str(text: &str) -> Result<Strip, StripError> {
        let text = text.trim();
        let mut squares = Vec::new();
        for (i, ch) in text.chars().enumerate() {
            match ch {
                'T' | 't' => squares.push(b'T'),
                'F' | 'f' => squares.push(b'F'),
                '.' | '_' => squares.push(b'.'),
                found => {
                    return Err(StripError::Stray {
                        found,
                        square: i + 1,
                    })
                }
            }
        }
        if squares.len() > MAX_LENGTH {
            return Err(StripError::TooLong(squares.len()));
        }
        Ok(Strip(squares))
    }
}

impl fmt::Display for Strip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.0).expect("ASCII squares"))
    }
}

/// The rules of Toads and Frogs.
#[derive(Clone, Copy, Debug, Default)]
pub struct ToadsFrogs;

impl Game for ToadsFrogs {
    type Position = Strip;
}

impl Partizan for ToadsFrogs {
    fn options(&self, position: &Strip, side: Side) -> Vec<Strip> {
        positions(self.moves(position, side))
    }

    fn moves(&self, position: &Strip, side: Side) -> Vec<(String, Strip)> {
        let s = &position.0;
        let n = s.len() as isize;
        let (piece, other, step) = match side {
            Side::Left => (b'T', b'F', 1isize),
            Side::Right => (b'F', b'T', -1isize),
        };
        let at = |i: isize| (0..n).contains(&i).then(|| s[i as usize]);
        let mut moves = Vec::new();
        for i in 0..n {
            if s[i as usize] != piece {
                continue;
            }
            let target = if at(i + step) == Some(b'.') {
                Some(i + step)
            } else if at(i + step) == Some(other) && at(i + 2 * step) == Some(b'.') {
                Some(i + 2 * step)
            } else {
                None
            };
            if let Some(t) = target {
                let mut next = s.clone();
                next[i as usize] = b'.';
                next[t as usize] = piece;
                moves.push((
                    format!("{} {}-{}", piece as char, i + 1, t + 1),
                    Strip(next),
                ));
            }
        }
        moves
    }

    fn components(&self, position: &Strip) -> Vec<Strip> {
        let s = &position.0;
        let start = s.iter().take_while(|&&c| c == b'F').count();
        let end = s.len() - s[start..].iter().rev().take_while(|&&c| c == b'T').count();
        let trimmed = &s[start..end];
        if trimmed.iter().all(|&c| c == b'.') {
            return Vec::new();
        }
        vec![Strip(trimmed.to_vec())]
    }

    fn key(&self, region: &Strip) -> Keyed<Strip> {
        let mirrored: Vec<u8> = region
            .0
            .iter()
            .rev()
            .map(|&c| match c {
                b'T' => b'F',
                b'F' => b'T',
                c => c,
            })
            .collect();
        if mirrored < region.0 {
            Keyed {
                key: Strip(mirrored),
                negated: true,
            }
        } else {
            Keyed {
                key: region.clone(),
                negated: false,
            }
        }
    }
}

impl Notation for ToadsFrogs {
    fn parse_position(&self, words: &[&str]) -> Result<Strip, ParseError> {
        match words {
            [strip] => strip.parse().map_err(|e: StripError| e.to_string().into()),
            _ => Err("a position is one strip of 'T', 'F' and '.', such as TT..FF".into()),
        }
    }

    fn write_position(&self, position: &Strip) -> String {
        position.to_string()
    }

    fn write_move(&self, from: &Strip, to: &Strip) -> String {
        move_text(self, from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partizan::solve::canonical_form;

    fn value(strip: &str) -> String {
        let position: Strip = strip.parse().unwrap();
        canonical_form(&ToadsFrogs, &position).unwrap()
    }

    #[test]
    fn known_values() {
        // Winning Ways ch. 1 ("Toads and Frogs"): T. = 1, .F = -1, T.F = *, TF = 0, T..F = 0,
        // and TT.FF = * (cgt-py 0.11 gives the same when the strip's value is built from its
        // options, as scripts/partizan-crosscheck.sh does).
        assert_eq!(value("T."), "1");
        assert_eq!(value(".F"), "-1");
        assert_eq!(value("T.F"), "*");
        assert_eq!(value("TF"), "0");
        assert_eq!(value("FT"), "0");
        assert_eq!(value("T..F"), "0");
        assert_eq!(value("T.."), "2");
        assert_eq!(value("TT.FF"), "*");
        // In TT.F Left's only move gives T.TF = 1/2 and Right's gives TTF. = 0, so the value
        // is {1/2|0}; cgt-py agrees, and gives {1/2|0} for TTT..FF too.
        assert_eq!(value("TT.F"), "{1/2|0}");
        assert_eq!(value("TTT..FF"), "{1/2|0}");
    }

    #[test]
    fn moves_and_errors() {
        let position: Strip = "TF.".parse().unwrap();
        let moves: Vec<String> = ToadsFrogs
            .moves(&position, Side::Left)
            .into_iter()
            .map(|(t, p)| format!("{t} {p}"))
            .collect();
        assert_eq!(moves, ["T 1-3 .FT"]);
        assert_eq!(
            "TXF".parse::<Strip>().unwrap_err().to_string(),
            "unexpected 'X' at square 2 (expected 'T', 'F' or '.')"
        );
    }
}
