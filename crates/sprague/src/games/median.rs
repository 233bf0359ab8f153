//! The median game (seed 004, problem 2): players alternately remove the first or the last
//! number of a row until one number is left. One player (max) wants it large, the other (min)
//! small. The value of a position is the number that is left under optimal play.
//!
//! Seed 004's O(1) formula ([`result`]), with x the row (1-based) and m its length:
//! - m even: the mover gets the better of the two central numbers x_{m/2}, x_{m/2+1}: the mover
//!   can always keep one of them, and the opponent, by answering at the other end, keeps the game
//!   to those two;
//! - m odd: the mover chooses the end, and then faces the even case from the other side:
//!   max(min(x_{(m+1)/2}, x_{(m+3)/2}), min(x_{(m−1)/2}, x_{(m+1)/2})) for max, and symmetrically
//!   for min.

use crate::error::Result;
use crate::game::ParseError;
use crate::game::{Evaluated, Evaluation, Game, Notation, Outcome};
use crate::games::ends::{parse_integers, write_integers};
use serde_json::Value as Json;
use std::sync::Arc;

/// Which player is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// The player who wants the last number large.
    Max,
    /// The player who wants it small.
    Min,
}

impl Goal {
    fn other(self) -> Goal {
        match self {
            Goal::Max => Goal::Min,
            Goal::Min => Goal::Max,
        }
    }

    fn better(self, a: i64, b: i64) -> i64 {
        match self {
            Goal::Max => a.max(b),
            Goal::Min => a.min(b),
        }
    }

    fn word(self) -> &'static str {
        match self {
            Goal::Max => "max",
            Goal::Min => "min",
        }
    }
}

/// The number left under optimal play, `goal` moving first; `None` for an empty row.
///
/// ```
/// use sprague::games::median::{result, Goal};
/// assert_eq!(result(&[1, 5, 2, 9], Goal::Max), Some(5));
/// assert_eq!(result(&[1, 5, 2, 9], Goal::Min), Some(2));
/// assert_eq!(result(&[7, 1, 8, 2, 6], Goal::Max), Some(2));
/// ```
pub fn result(x: &[i64], goal: Goal) -> Option<i64> {
    let m = x.len();
    match m {
        0 => None,
        1 => Some(x[0]),
        _ if m.is_multiple_of(2) => Some(goal.better(x[m / 2 - 1], x[m / 2])),
        _ => {
            let opponent = goal.other();
            // Removing the first number leaves x[1..]; removing the last leaves x[..m-1].
            let after_first = opponent.better(x[m / 2], x[m / 2 + 1]);
            let after_last = opponent.better(x[m / 2 - 1], x[m / 2]);
            Some(goal.better(after_first, after_last))
        }
    }
}

/// A median-game position: the row and the player to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MedianPosition {
    numbers: Arc<[i64]>,
    start: usize,
    end: usize,
    to_move: Goal,
}

impl MedianPosition {
    /// The row `numbers` with `to_move` to move.
    ///
    /// # Errors
    /// For an empty row.
    pub fn new(numbers: Vec<i64>, to_move: Goal) -> std::result::Result<Self, String> {
        if numbers.is_empty() {
            return Err("the row needs at least one number".into());
        }
        let end = numbers.len();
        Ok(MedianPosition {
            numbers: numbers.into(),
            start: 0,
            end,
            to_move,
        })
    }

    fn row(&self) -> &[i64] {
        &self.numbers[self.start..self.end]
    }

    fn remove(&self, first: bool) -> MedianPosition {
        let (start, end) = if first {
            (self.start + 1, self.end)
        } else {
            (self.start, self.end - 1)
        };
        MedianPosition {
            numbers: self.numbers.clone(),
            start,
            end,
            to_move: self.to_move.other(),
        }
    }

    fn value(&self) -> i64 {
        result(self.row(), self.to_move).expect("rows are never empty")
    }
}

/// The median game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Median;

impl Game for Median {
    type Position = MedianPosition;
}

impl Evaluated for Median {
    fn moves(&self, p: &MedianPosition) -> Result<Vec<MedianPosition>> {
        Ok(match p.row().len() {
            1 => Vec::new(),
            _ => vec![p.remove(true), p.remove(false)],
        })
    }

    /// The value is the number left; the game has no winner, so the outcome is `D`.
    fn evaluate(&self, p: &MedianPosition) -> Result<Evaluation> {
        Ok(Evaluation {
            score: Some(p.value()),
            remoteness: Some(p.row().len() as u64 - 1),
            ..Evaluation::outcome(Outcome::D)
        })
    }

    /// The optimal moves: those after which the value is still the position's value.
    fn winning_moves(&self, p: &MedianPosition) -> Result<Option<Vec<MedianPosition>>> {
        let best = p.value();
        Ok(Some(
            self.moves(p)?
                .into_iter()
                .filter(|next| next.value() == best)
                .collect(),
        ))
    }
}

impl Notation for Median {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<MedianPosition, ParseError> {
        let (goal, numbers) = match words.first().map(|w| w.trim()) {
            Some("max") => (Goal::Max, &words[1..]),
            Some("min") => (Goal::Min, &words[1..]),
            _ => (Goal::Max, words),
        };
        Ok(MedianPosition::new(parse_integers(numbers)?, goal)?)
    }

    fn write_position(&self, p: &MedianPosition) -> String {
        format!("{} {}", p.to_move.word(), write_integers(p.row()))
    }

    fn position_json(&self, p: &MedianPosition) -> Json {
        serde_json::json!({ "numbers": p.row(), "to_move": p.to_move.word() })
    }

    fn write_move(&self, from: &MedianPosition, to: &MedianPosition) -> String {
        if to.start > from.start {
            "left"
        } else {
            "right"
        }
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn minimax(x: &[i64], goal: Goal) -> i64 {
        if x.len() == 1 {
            return x[0];
        }
        let a = minimax(&x[1..], goal.other());
        let b = minimax(&x[..x.len() - 1], goal.other());
        goal.better(a, b)
    }

    #[test]
    fn optimal_moves_keep_the_value() {
        let p = MedianPosition::new(vec![7, 1, 8, 2, 6], Goal::Max).unwrap();
        assert_eq!(Median.evaluate(&p).unwrap().score, Some(2));
        for next in Median.winning_moves(&p).unwrap().unwrap() {
            assert_eq!(Median.evaluate(&next).unwrap().score, Some(2));
        }
        assert_eq!(Median.moves(&p).unwrap().len(), 2);
        let single = MedianPosition::new(vec![4], Goal::Min).unwrap();
        assert!(Median.moves(&single).unwrap().is_empty());
        assert_eq!(Median.evaluate(&single).unwrap().score, Some(4));
    }

    #[test]
    fn positions_parse_and_print() {
        let p = Median.parse_position(&["min", "1", "5", "2", "9"]).unwrap();
        assert_eq!(Median.evaluate(&p).unwrap().score, Some(2));
        let best = &Median.winning_moves(&p).unwrap().unwrap()[0];
        assert_eq!(Median.position_json(best)["to_move"], "max");
        assert!(Median.parse_position(&[]).is_err());
        assert!(Median.parse_position(&["max"]).is_err());
        assert!(Median.parse_position(&["1", "x"]).is_err());
        assert_eq!(Median.write_position(&p), "min 1 5 2 9");
    }

    proptest! {
        #[test]
        fn formula_matches_search(
            x in proptest::collection::vec(-20i64..20, 1..15),
            max_first in any::<bool>(),
        ) {
            let goal = if max_first { Goal::Max } else { Goal::Min };
            prop_assert_eq!(result(&x, goal), Some(minimax(&x, goal)));
        }

        #[test]
        fn extreme_values_do_not_overflow(x in proptest::collection::vec(any::<i64>(), 1..12)) {
            prop_assert_eq!(result(&x, Goal::Max), Some(minimax(&x, Goal::Max)));
        }
    }
}
