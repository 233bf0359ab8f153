//! Misère play of sums (the player who cannot move wins) through the SJ theorem (Anti-SG).
//!
//! Let X be the XOR of the parts' nim values and B the number of parts of value at least 2. The
//! SJ rule (seed 004, "Anti-Nim"): the player to move wins iff
//! - B = 0 and X = 0, or
//! - B ≥ 1 and X ≠ 0.
//!
//! This is exact for Nim heaps. For other games it holds whenever every position reachable
//! within each part, of nim value g, meets these conditions ("small" means: the move leaves only
//! parts of value 0 or 1):
//! - (a) g = 0 and some move exists: some small move leaves XOR 1;
//! - (b) g ≥ 2: small moves leaving XOR 0 and XOR 1 both exist;
//! - (c) g ≤ 1: a move that leaves a part of value ≥ 2 leaves an XOR of at least 2;
//! - (d) g = 1: some small move leaves XOR 0.
//!
//! Proof sketch, by induction on the game: a sum with no move has B = 0, X = 0 and is a misère
//! win. From a losing class ((B = 0, X = 1) or (B ≥ 2, X = 0)) every move reaches a winning class
//! (by (c), and since a move changes one part's value). From a winning class, a move to a losing
//! class exists: (B = 0, X = 0) by (d), or by (a) when every part is 0; (B = 1) by (b); (B ≥ 2)
//! by the normal Nim move, which leaves at least one other part of value ≥ 2, hence two.
//! For games whose moves never split a part, (b)–(d) follow from the definition of mex and only
//! (a) is a real condition; Kayles, for instance, fails (b).
//!
//! The proof needs the parts to be true disjunctive components: a move changes exactly one of
//! them. (A row of coins is one component, not a sum of its heads: two heads on one coin cancel,
//! which no sum of independent heads does.)
//!
//! [`conditions_hold`] checks the conditions by a bounded search; where they do not hold, or the
//! check is too large, callers fall back to direct search ([`crate::solve::Search`]).

use crate::error::Result;
use crate::game::{Impartial, Outcome};
use crate::solve::NimValues;
use std::collections::HashSet;

/// The most positions and options [`conditions_hold`] examines before answering `false`.
pub const CHECK_LIMIT: usize = 50_000;

/// The misère outcome of a sum with these nim values, by the SJ rule (valid where the conditions
/// of this module hold, e.g. for Nim heaps).
///
/// ```
/// use sprague::{game::Outcome, solve::misere::outcome};
/// assert_eq!(outcome(&[1, 1]), Outcome::N); // take one heap, leave the last to the opponent
/// assert_eq!(outcome(&[1, 1, 1]), Outcome::P);
/// assert_eq!(outcome(&[2, 2]), Outcome::P);
/// assert_eq!(outcome(&[5]), Outcome::N);
/// assert_eq!(outcome(&[]), Outcome::N); // no move: the player to move has won
/// ```
pub fn outcome(values: &[u64]) -> Outcome {
    let big = values.iter().filter(|&&g| g >= 2).count();
    let xor = values.iter().fold(0, |x, g| x ^ g);
    if (big == 0 && xor == 0) || (big >= 1 && xor != 0) {
        Outcome::N
    } else {
        Outcome::P
    }
}

/// Whether one component of value `g` meets conditions (a)–(d), given the nim values of the
/// parts each of its options leaves.
fn position_ok(g: u64, options: &[Vec<u64>]) -> bool {
    let (mut small_zero, mut small_one, mut big_low) = (false, false, false);
    for parts in options {
        let xor = parts.iter().fold(0, |x, v| x ^ v);
        let small = parts.iter().all(|&v| v <= 1);
        small_zero |= small && xor == 0;
        small_one |= small && xor == 1;
        big_low |= !small && xor <= 1;
    }
    match g {
        0 => (options.is_empty() || small_one) && !big_low,
        1 => small_zero && !big_low,
        _ => small_zero && small_one,
    }
}

/// Whether every component reachable from `component` meets the conditions of this module,
/// checked by search over at most [`CHECK_LIMIT`] components and options; `false` past it, and
/// when a value or an option list cannot be had. `values` supplies (and memoises) nim values.
pub fn conditions_hold<G: Impartial>(values: &mut NimValues<G>, component: &G::Position) -> bool {
    let mut check = || -> Result<bool> {
        let mut seen: HashSet<G::Position> = HashSet::new();
        let mut stack = vec![component.clone()];
        seen.insert(component.clone());
        let mut work = 0;
        while let Some(next) = stack.pop() {
            // Count the work before any value is computed: a value may cost far more than
            // its options (Nim's heap n needs every smaller heap).
            let options = values.game().try_options(&next)?;
            work += 1 + options.len();
            if work > CHECK_LIMIT {
                return Ok(false);
            }
            let g = values.component_value(&next)?;
            let mut option_values = Vec::with_capacity(options.len());
            for option in &options {
                let parts = values.game().components(option);
                let mut part_values = Vec::with_capacity(parts.len());
                for part in parts {
                    part_values.push(values.component_value(&part)?);
                    if seen.insert(part.clone()) {
                        stack.push(part);
                    }
                }
                option_values.push(part_values);
            }
            if !position_ok(g, &option_values) {
                return Ok(false);
            }
        }
        Ok(true)
    };
    // Any failure (too many options, no computable value) only means "not proven".
    check().unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Play, Sum};
    use crate::solve::Search;
    use proptest::prelude::*;

    struct Nim;
    impl Game for Nim {
        type Position = u64;
    }
    impl Impartial for Nim {
        fn options(&self, n: &u64) -> Vec<u64> {
            (0..*n).collect()
        }
    }

    /// Rows of pins where a move knocks down one or two adjacent pins (K = 2, Kayles) or one
    /// pin (K = 1), leaving the rest as up to two rows.
    struct Rows(u64);
    impl Game for Rows {
        type Position = Vec<u64>;
    }
    impl Impartial for Rows {
        fn options(&self, rows: &Vec<u64>) -> Vec<Vec<u64>> {
            let mut out = Vec::new();
            for (i, &n) in rows.iter().enumerate() {
                for take in 1..=self.0.min(n) {
                    for left in 0..=n - take {
                        let mut next = rows.clone();
                        next.remove(i);
                        next.extend([left, n - take - left].into_iter().filter(|&r| r > 0));
                        next.sort_unstable();
                        out.push(next);
                    }
                }
            }
            out
        }
        fn components(&self, rows: &Vec<u64>) -> Vec<Vec<u64>> {
            rows.iter().map(|&r| vec![r]).collect()
        }
    }

    #[test]
    fn the_check_accepts_parity_rows_and_nim_and_rejects_kayles() {
        // Rows with K = 1 only change parity: the conditions hold.
        assert!(conditions_hold(&mut NimValues::new(Rows(1)), &vec![9]));
        // Kayles: the row of 5 (value 4) has no small move to XOR 0.
        assert!(!conditions_hold(&mut NimValues::new(Rows(2)), &vec![5]));
        assert!(conditions_hold(&mut NimValues::new(Nim), &7));
        // Too large to check: not proven.
        assert!(!conditions_hold(&mut NimValues::new(Nim), &1_000_000));
    }

    #[test]
    fn where_the_check_passes_the_rule_matches_direct_search() {
        for k in 1..=2 {
            let mut values = NimValues::new(Rows(k));
            let mut search = Search::new(Rows(k), Play::Misere);
            for a in 0..8u64 {
                for b in 0..6u64 {
                    let rows: Vec<u64> = [a, b].into_iter().filter(|&r| r > 0).collect();
                    let proven = rows.iter().all(|&r| conditions_hold(&mut values, &vec![r]));
                    if proven {
                        let g: Vec<u64> = rows
                            .iter()
                            .map(|&r| values.component_value(&vec![r]).unwrap())
                            .collect();
                        assert_eq!(outcome(&g), search.outcome(&rows).unwrap(), "{rows:?}");
                    }
                }
            }
        }
    }

    proptest! {
        #[test]
        fn sj_rule_matches_direct_search_on_nim(heaps in proptest::collection::vec(0u64..7, 0..5)) {
            let mut solver = Search::new(Sum(Nim), Play::Misere);
            prop_assert_eq!(outcome(&heaps), solver.outcome(&heaps).unwrap());
        }
    }
}
