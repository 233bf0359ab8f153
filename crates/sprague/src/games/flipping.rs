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

use crate::error::{Error, Result};
use crate::game::notation::{parse_numbers, write_numbers};
use crate::game::ParseError;
use crate::game::{Game, Impartial, Listing, NimValue, Notation, Outcome};
use serde_json::Value as Json;

/// The most options listed before [`Impartial::try_options`] answers [`Error::Limit`].
pub const OPTION_LIMIT: u64 = 100_000;

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

    /// The unique winning move (as the index and the later indices), if the position is `N`.
    pub fn winning_move(&self) -> Option<(usize, Vec<usize>)> {
        let first = self.0.iter().position(|a| a % 2 == 1)?;
        let later = (first + 1..self.0.len())
            .filter(|&j| self.0[j] % 2 == 1)
            .collect();
        Some((first, later))
    }
}

/// The flipping game on its counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct Flipping;

impl Game for Flipping {
    type Position = Vec<u64>;
}

impl Impartial for Flipping {
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
                        next[i + 1 + k] = next[i + 1 + k].saturating_add(1);
                    }
                }
                out.push(next);
            }
        }
        out
    }

    fn try_options(&self, counts: &Vec<u64>) -> Result<Vec<Vec<u64>>> {
        let n = counts.len();
        let mut count: u64 = 0;
        for (i, &a) in counts.iter().enumerate() {
            if a > 0 {
                let later = (n - 1 - i) as u32;
                count = count.saturating_add(1u64.checked_shl(later).unwrap_or(u64::MAX));
            }
        }
        if count > OPTION_LIMIT || counts.contains(&u64::MAX) {
            return Err(Error::Limit(format!(
                "this flip position has more than {OPTION_LIMIT} moves to list"
            )));
        }
        Ok(self.options(counts))
    }

    fn known_nim_value(&self, counts: &Vec<u64>) -> Result<Option<NimValue>> {
        match FlipPosition(counts.clone()).nim_value() {
            Some(g) => Ok(Some(NimValue::Finite(g))),
            None => Err(Error::Limit(
                "the nim value of this flip position (an odd count 64 or more places from the end) exceeds 2^64-1; its outcome and winning move are known, so it can be played alone, not summed".into(),
            )),
        }
    }

    fn known_outcome(&self, counts: &Vec<u64>) -> Option<Outcome> {
        Some(FlipPosition(counts.clone()).outcome())
    }

    fn options_with_nim_value(
        &self,
        counts: &Vec<u64>,
        target: u64,
        _limit: usize,
    ) -> Result<Option<Listing<Vec<u64>>>> {
        if target != 0 {
            return Ok(None);
        }
        let position = FlipPosition(counts.clone());
        Ok(Some(Listing::all(match position.winning_move() {
            Some((i, later)) => vec![position.play(i, &later)?.0],
            None => Vec::new(),
        })))
    }
}

impl Notation for Flipping {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<Vec<u64>, ParseError> {
        Ok(parse_numbers(words, "count")?)
    }

    fn write_position(&self, counts: &Vec<u64>) -> String {
        write_numbers(counts)
    }

    fn position_json(&self, counts: &Vec<u64>) -> Json {
        Json::from(counts.clone())
    }

    /// `take from a1, add to a3`.
    fn write_move(&self, from: &Vec<u64>, to: &Vec<u64>) -> String {
        let i = from.iter().zip(to).position(|(a, b)| b < a).unwrap_or(0);
        let later: Vec<String> = (i + 1..from.len().min(to.len()))
            .filter(|&j| to[j] > from[j])
            .map(|j| format!("a{}", j + 1))
            .collect();
        if later.is_empty() {
            format!("take from a{}", i + 1)
        } else {
            format!("take from a{}, add to {}", i + 1, later.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::NimValues;

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

    /// The rules without their closed forms: the oracle.
    struct Plain;
    impl Game for Plain {
        type Position = Vec<u64>;
    }
    impl Impartial for Plain {
        fn options(&self, counts: &Vec<u64>) -> Vec<Vec<u64>> {
            Flipping.options(counts)
        }
    }

    #[test]
    fn the_reduction_to_nim_matches_brute_force() {
        let mut solver = NimValues::new(Plain);
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
        let mut solver = NimValues::new(Plain);
        for counts in all_positions(4, 2) {
            let mut expected = solver.winning_moves(&counts).unwrap();
            expected.dedup();
            let found = Flipping
                .options_with_nim_value(&counts, 0, 10)
                .unwrap()
                .unwrap()
                .items;
            assert_eq!(found, expected, "{counts:?}");
        }
    }

    #[test]
    fn the_seeds_interval_reading_differs() {
        let counts = vec![1, 0, 1];
        assert_eq!(Flipping.known_outcome(&counts), Some(Outcome::N));
        assert_eq!(
            Flipping.known_nim_value(&counts).unwrap(),
            Some(NimValue::Finite(5))
        );
        let win = &Flipping
            .options_with_nim_value(&counts, 0, 10)
            .unwrap()
            .unwrap()
            .items[0];
        assert_eq!(Flipping.write_move(&counts, win), "take from a1, add to a3");
        assert_eq!(win, &vec![0, 0, 2]);
    }

    #[test]
    fn long_and_huge_positions() {
        let counts: Vec<u64> = (0..100).map(|i| i % 3).collect();
        assert_eq!(Flipping.known_outcome(&counts), Some(Outcome::N));
        assert!(Flipping.known_nim_value(&counts).is_err()); // 2^99 does not fit
        let wins = Flipping
            .options_with_nim_value(&counts, 0, 10)
            .unwrap()
            .unwrap();
        assert_eq!(wins.items.len(), 1);
        assert!(Flipping.try_options(&counts).is_err());
        let p = FlipPosition(vec![u64::MAX, u64::MAX]);
        assert_eq!(p.nim_value(), Some(3));
        assert!(p.play(0, &[1]).is_err());
        assert!(p.play(1, &[0]).is_err());
        assert!(FlipPosition(vec![0, 1]).play(0, &[]).is_err());
        assert!(Flipping.parse_position(&["-1"]).is_err());
        assert_eq!(Flipping.options(&vec![1, 0, 1]).len(), 4 + 1);
    }
}
