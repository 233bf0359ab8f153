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

use crate::analysis::{Evaluation, GameDef, Parsed, Standalone, StandaloneMove};
use crate::error::{Error, Result};
use crate::game::{Outcome, Play};
use crate::games::ends::parse_numbers;
use crate::spec::{CatalogEntry, Family};
use serde_json::Value as Json;
use std::fmt;
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// [`Error::Position`] for an empty row.
    pub fn new(numbers: Vec<i64>, to_move: Goal) -> Result<Self> {
        if numbers.is_empty() {
            return Err(Error::position(
                "median",
                "the row needs at least one number",
            ));
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

    fn remove(&self, first: bool) -> StandaloneMove {
        let (start, end) = if first {
            (self.start + 1, self.end)
        } else {
            (self.start, self.end - 1)
        };
        let next = MedianPosition {
            numbers: self.numbers.clone(),
            start,
            end,
            to_move: self.to_move.other(),
        };
        let text = if first { "left" } else { "right" };
        (text.to_string(), Arc::new(next))
    }

    fn value(&self) -> i64 {
        result(self.row(), self.to_move).expect("rows are never empty")
    }
}

fn normal_only(play: Play) -> Result<()> {
    match play {
        Play::Normal => Ok(()),
        Play::Misere => Err(Error::Unsupported(
            "median is a scored game; misère play does not apply".into(),
        )),
    }
}

impl fmt::Display for MedianPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words = vec![self.to_move.word().to_string()];
        words.extend(self.row().iter().map(i64::to_string));
        f.write_str(&words.join(" "))
    }
}

impl Standalone for MedianPosition {
    fn game(&self) -> String {
        "median".into()
    }

    fn to_json(&self) -> Json {
        serde_json::json!({ "numbers": self.row(), "to_move": self.to_move.word() })
    }

    /// The value is the number left; the game has no winner, so the outcome is `D`.
    fn evaluate(&self, play: Play) -> Result<Evaluation> {
        normal_only(play)?;
        Ok(Evaluation {
            outcome: Outcome::D,
            nim_value: None,
            value: Some(self.value()),
            remoteness: Some(self.row().len() as u64 - 1),
        })
    }

    fn moves(&self, play: Play) -> Result<Vec<StandaloneMove>> {
        normal_only(play)?;
        Ok(match self.row().len() {
            1 => Vec::new(),
            _ => vec![self.remove(true), self.remove(false)],
        })
    }

    /// The optimal moves: those after which the value is still the position's value.
    fn winning_moves(&self, play: Play) -> Result<Vec<StandaloneMove>> {
        let best = self.value();
        let mut out = Vec::new();
        for (text, next) in self.moves(play)? {
            if next.evaluate(play)?.value == Some(best) {
                out.push((text, next));
            }
        }
        Ok(out)
    }
}

struct MedianGame;

impl GameDef for MedianGame {
    fn spec(&self) -> String {
        "median".into()
    }

    fn parse_position(&self, args: &[String]) -> Result<Parsed> {
        let (goal, numbers) = match args.first().map(|w| w.trim()) {
            Some("max") => (Goal::Max, &args[1..]),
            Some("min") => (Goal::Min, &args[1..]),
            _ => (Goal::Max, args),
        };
        let numbers = parse_numbers("median", numbers)?;
        Ok(Parsed::Single(Arc::new(MedianPosition::new(
            numbers, goal,
        )?)))
    }
}

/// The `median` spec.
pub struct MedianFamily;

impl Family for MedianFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        vec![CatalogEntry {
            spec: "median",
            params: "",
            position: "the numbers, optionally after 'max' (the default) or 'min': the goal of \
                       the player to move",
            summary: "remove the first or last number until one is left; max wants it large, min \
                      small; value: the number left (O(1), seed 004's formula); outcome D (no \
                      winner); the winning moves are the optimal ones",
            example: "median 1 5 2 9",
        }]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        crate::spec::build_without_params(spec, name, params, "median", || Arc::new(MedianGame))
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
        assert_eq!(p.evaluate(Play::Normal).unwrap().value, Some(2));
        let moves = p.winning_moves(Play::Normal).unwrap();
        for (_, next) in &moves {
            assert_eq!(next.evaluate(Play::Normal).unwrap().value, Some(2));
        }
        assert_eq!(p.moves(Play::Normal).unwrap().len(), 2);
        let single = MedianPosition::new(vec![4], Goal::Min).unwrap();
        assert!(single.moves(Play::Normal).unwrap().is_empty());
        assert_eq!(single.evaluate(Play::Normal).unwrap().value, Some(4));
    }

    #[test]
    fn positions_parse_and_print() {
        use crate::spec::parse_position;
        let p = parse_position(&["median", "min", "1", "5", "2", "9"]).unwrap();
        let r = crate::analysis::value(&p, Play::Normal).unwrap();
        assert_eq!(r.value, Some(2));
        assert_eq!(r.winning_moves[0].position["to_move"], "max");
        assert!(parse_position(&["median"]).is_err());
        assert!(parse_position(&["median", "max"]).is_err());
        assert!(parse_position(&["median", "1", "x"]).is_err());
        assert!(parse_position(&["median:3", "1"]).is_err());
        assert!(crate::analysis::value(&p, Play::Misere).is_err());
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
