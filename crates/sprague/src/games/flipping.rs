//! The flipping game of seed 004 (取反游戏): a row of counts a_1, …, a_n; a move takes one from
//! some a_i > 0 and adds one to each of any set of later counts (possibly none). The player
//! who cannot move loses.
//!
//! Reduction to Nim: each unit of a_i is a token, and a move removes one token and creates
//! tokens at distinct later indices, so the game is the sum of its tokens. A token at i has
//! value T(i) = mex{XOR of T(j) over sets of later j} = 2^(n−i). Two tokens at one index cancel,
//! so the position is the Nim heap Σ 2^(n−i) over the odd a_i (one Nim heap of 2^(n−i) per odd
//! count): it is P exactly when every count is even. The unique winning move takes one from the
//! first odd count and adds one to every later odd count.
//!
//! The seed recasts the move as flipping the parities of an interval and gets heaps n + 1 − i
//! at the changes of parity; that is a different game (intervals only): with any set of later
//! indices, (1, 0, 1) is an N-position (take from a_1, add to a_3), where the seed's rule
//! would say P. The brute-force tests below settle it for this rule.

use crate::analysis::{Evaluation, GameDef, Parsed, Standalone, StandaloneMove, OPTION_LIMIT};
use crate::error::{Error, Result};
use crate::game::{Impartial, Outcome, Play};
use crate::spec::{parse_u64, CatalogEntry, Family};
use serde_json::Value as Json;
use std::fmt;
use std::sync::Arc;

/// A position of the flipping game: the counts a_1, …, a_n.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FlipPosition(pub Vec<u64>);

impl FlipPosition {
    /// The nim value Σ 2^(n−i) over the odd counts (1-based i), or `None` when it does not fit
    /// in 64 bits (an odd count 64 or more places from the end).
    pub fn nim_value(&self) -> Option<u64> {
        let n = self.0.len();
        let mut value = 0u64;
        for (i, &a) in self.0.iter().enumerate() {
            if a % 2 == 1 {
                let shift = n - 1 - i;
                if shift >= 64 {
                    return None;
                }
                value |= 1 << shift;
            }
        }
        Some(value)
    }

    /// Who wins: `P` exactly when every count is even.
    pub fn outcome(&self) -> Outcome {
        if self.0.iter().all(|a| a % 2 == 0) {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    /// The position after taking one from index `i` (0-based) and adding one at each of `later`.
    ///
    /// # Errors
    /// [`Error::Position`] if a_i is 0, an index is not after `i` or repeats, or a count would
    /// pass 2^64 − 1.
    pub fn play(&self, i: usize, later: &[usize]) -> Result<FlipPosition> {
        let bad = |r: String| Error::position("flip", r);
        let mut next = self.0.clone();
        match next.get_mut(i) {
            Some(a) if *a > 0 => *a -= 1,
            Some(_) => return Err(bad(format!("a{} is 0", i + 1))),
            None => return Err(bad(format!("there is no a{}", i + 1))),
        }
        let mut previous = i;
        for &j in later {
            if j <= previous || j >= next.len() {
                return Err(bad(format!(
                    "the indices to add to must be increasing, after {}, and at most {}",
                    i + 1,
                    next.len()
                )));
            }
            previous = j;
            next[j] = next[j]
                .checked_add(1)
                .ok_or_else(|| bad(format!("a{} would pass 2^64-1", j + 1)))?;
        }
        Ok(FlipPosition(next))
    }

    fn move_text(i: usize, later: &[usize]) -> String {
        if later.is_empty() {
            format!("take from a{}", i + 1)
        } else {
            let list: Vec<String> = later.iter().map(|j| format!("a{}", j + 1)).collect();
            format!("take from a{}, add to {}", i + 1, list.join(","))
        }
    }

    /// The unique winning move (as the index and the later indices), if the position is `N`.
    pub fn winning_move(&self) -> Option<(usize, Vec<usize>)> {
        let first = self.0.iter().position(|a| a % 2 == 1)?;
        let later = (first + 1..self.0.len())
            .filter(|&j| self.0[j] % 2 == 1)
            .collect();
        Some((first, later))
    }
}

impl fmt::Display for FlipPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.0.iter().map(u64::to_string).collect();
        f.write_str(&words.join(" "))
    }
}

/// The rules as an [`Impartial`] game, for the brute-force cross-check (small counts only:
/// the number of options grows as 2^n).
#[derive(Clone, Copy, Debug, Default)]
pub struct Flipping;

impl Impartial for Flipping {
    type Position = Vec<u64>;

    fn options(&self, counts: &Vec<u64>) -> Vec<Vec<u64>> {
        let n = counts.len();
        let mut out = Vec::new();
        for i in 0..n {
            if counts[i] == 0 {
                continue;
            }
            let later = n - 1 - i;
            for mask in 0u64..1 << later {
                let mut next = counts.clone();
                next[i] -= 1;
                for k in 0..later {
                    if mask >> k & 1 == 1 {
                        next[i + 1 + k] += 1;
                    }
                }
                out.push(next);
            }
        }
        out
    }
}

fn unsupported_misere() -> Error {
    Error::Unsupported("misère play is not supported for flip".into())
}

impl Standalone for FlipPosition {
    fn game(&self) -> String {
        "flip".into()
    }

    fn to_json(&self) -> Json {
        Json::from(self.0.clone())
    }

    fn evaluate(&self, play: Play) -> Result<Evaluation> {
        if play == Play::Misere {
            return Err(unsupported_misere());
        }
        Ok(Evaluation {
            outcome: self.outcome(),
            nim_value: self.nim_value(),
            value: None,
            remoteness: None,
        })
    }

    fn moves(&self, play: Play) -> Result<Vec<StandaloneMove>> {
        if play == Play::Misere {
            return Err(unsupported_misere());
        }
        let n = self.0.len();
        let mut count: u64 = 0;
        for (i, &a) in self.0.iter().enumerate() {
            if a > 0 {
                let later = (n - 1 - i) as u32;
                count = count.saturating_add(1u64.checked_shl(later).unwrap_or(u64::MAX));
            }
        }
        if count > OPTION_LIMIT as u64 {
            return Err(Error::Limit(format!(
                "this flip position has more than {OPTION_LIMIT} moves to list"
            )));
        }
        let mut out = Vec::new();
        for i in 0..n {
            if self.0[i] == 0 {
                continue;
            }
            let later_count = n - 1 - i;
            for mask in 0u64..1 << later_count {
                let later: Vec<usize> = (0..later_count)
                    .filter(|k| mask >> k & 1 == 1)
                    .map(|k| i + 1 + k)
                    .collect();
                let next = self.play(i, &later)?;
                out.push((
                    FlipPosition::move_text(i, &later),
                    Arc::new(next) as Arc<dyn Standalone>,
                ));
            }
        }
        Ok(out)
    }

    fn winning_moves(&self, play: Play) -> Result<Vec<StandaloneMove>> {
        if play == Play::Misere {
            return Err(unsupported_misere());
        }
        Ok(match self.winning_move() {
            Some((i, later)) => vec![(
                FlipPosition::move_text(i, &later),
                Arc::new(self.play(i, &later)?) as Arc<dyn Standalone>,
            )],
            None => Vec::new(),
        })
    }
}

struct FlipGame;

impl GameDef for FlipGame {
    fn spec(&self) -> String {
        "flip".into()
    }

    fn parse_position(&self, args: &[String]) -> Result<Parsed> {
        let counts = args
            .iter()
            .map(|a| parse_u64(a, "count").map_err(|r| Error::position("flip", r)))
            .collect::<Result<Vec<u64>>>()?;
        Ok(Parsed::Single(Arc::new(FlipPosition(counts))))
    }
}

/// The `flip` spec.
pub struct FlipFamily;

impl Family for FlipFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        vec![CatalogEntry {
            spec: "flip",
            params: "",
            position: "the counts a1 … an (the nim value needs n ≤ 64 when a1 is odd)",
            summary: "seed 004's flipping game: take one from some a_i > 0 and add one to any set of later counts; it is Nim with a heap of 2^(n-i) per odd a_i, so P iff every count is even",
            example: "flip 3 0 2 1",
        }]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        crate::spec::build_without_params(spec, name, params, "flip", || Arc::new(FlipGame))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis;
    use crate::solve::NimValues;
    use crate::spec::parse_position;

    fn all_positions(n: usize, max: u64) -> Vec<Vec<u64>> {
        let mut out = vec![Vec::new()];
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|p| {
                    (0..=max).map(move |a| {
                        let mut q = p.clone();
                        q.push(a);
                        q
                    })
                })
                .collect();
        }
        out
    }

    #[test]
    fn the_reduction_to_nim_matches_brute_force() {
        let mut solver = NimValues::new(Flipping);
        for n in 1..=4 {
            for counts in all_positions(n, 2) {
                let position = FlipPosition(counts.clone());
                assert_eq!(
                    Some(solver.nim_value(&counts).unwrap()),
                    position.nim_value(),
                    "{counts:?}"
                );
            }
        }
    }

    #[test]
    fn the_winning_move_is_the_only_one() {
        let mut solver = NimValues::new(Flipping);
        for counts in all_positions(4, 2) {
            let position = FlipPosition(counts.clone());
            let mut expected = solver.winning_moves(&counts).unwrap();
            expected.dedup();
            let found: Vec<Vec<u64>> = position
                .winning_moves(Play::Normal)
                .unwrap()
                .into_iter()
                .map(|(_, next)| serde_json::from_value(next.to_json()).unwrap())
                .collect();
            assert_eq!(found, expected, "{counts:?}");
        }
    }

    #[test]
    fn the_seeds_interval_reading_differs() {
        let report = analysis::value(
            &parse_position(&["flip", "1", "0", "1"]).unwrap(),
            Play::Normal,
        )
        .unwrap();
        assert_eq!(report.outcome, Outcome::N);
        assert_eq!(report.nim_value, Some(5));
        assert_eq!(report.winning_moves[0].text, "take from a1, add to a3");
        assert_eq!(
            report.winning_moves[0].position,
            serde_json::json!([0, 0, 2])
        );
    }

    #[test]
    fn long_and_huge_positions() {
        let mut words = vec!["flip".to_string()];
        words.extend((0..100).map(|i| (i % 3).to_string()));
        let report = analysis::value(&parse_position(&words).unwrap(), Play::Normal).unwrap();
        assert_eq!(report.outcome, Outcome::N);
        assert_eq!(report.nim_value, None); // 2^99 does not fit
        assert_eq!(report.winning_moves.len(), 1);
        assert!(analysis::moves(&parse_position(&words).unwrap(), Play::Normal).is_err());
        let p = FlipPosition(vec![u64::MAX, u64::MAX]);
        assert_eq!(p.nim_value(), Some(3));
        assert!(p.play(0, &[1]).is_err());
        assert!(p.play(1, &[0]).is_err());
        assert!(FlipPosition(vec![0, 1]).play(0, &[]).is_err());
    }

    #[test]
    fn misere_and_bad_input_are_errors() {
        let p = parse_position(&["flip", "1", "2"]).unwrap();
        assert!(matches!(
            analysis::value(&p, Play::Misere),
            Err(Error::Unsupported(_))
        ));
        assert!(parse_position(&["flip", "-1"]).is_err());
        assert!(parse_position(&["flip:3", "1"]).is_err());
        let moves = analysis::moves(
            &parse_position(&["flip", "1", "0", "1"]).unwrap(),
            Play::Normal,
        )
        .unwrap();
        assert_eq!(moves.moves.len(), 4 + 1);
    }
}
