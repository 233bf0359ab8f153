//! Nim: take any positive number of tokens from one heap. G(n) = n.

use crate::game::{Game, Impartial};
use crate::heap::HeapRules;

/// The rules of Nim on one heap, as a plain game (the brute-force oracle of the tests).
#[derive(Clone, Copy, Debug, Default)]
pub struct Nim;

impl Game for Nim {
    type Position = u64;
}

impl Impartial for Nim {
    fn options(&self, heap: &u64) -> Vec<u64> {
        (0..*heap).collect()
    }
}

/// Nim as heap rules: every closed form, so heaps up to 2^64 − 1 answer at once, and misère
/// sums follow the SJ rule (Bouton).
///
/// ```
/// use sprague::games::nim::NimRules;
/// use sprague::heap::HeapRules;
/// assert_eq!(NimRules.closed_form(1 << 40), Some(1 << 40));
/// assert_eq!(NimRules.closed_form_options(5, 2), Some(vec![vec![2]]));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct NimRules;

impl HeapRules for NimRules {
    fn options(&self, n: u64) -> Vec<Vec<u64>> {
        (0..n).rev().map(|m| vec![m]).collect()
    }

    fn closed_form(&self, n: u64) -> Option<u64> {
        Some(n)
    }

    fn closed_form_options(&self, n: u64, target: u64) -> Option<Vec<Vec<u64>>> {
        Some(if target < n {
            vec![vec![target]]
        } else {
            Vec::new()
        })
    }

    fn option_count(&self, n: u64) -> Option<u64> {
        Some(n)
    }

    fn misere_sj(&self) -> Option<bool> {
        Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Sum;
    use crate::heap::HeapGame;
    use crate::solve::NimValues;
    use std::sync::Arc;

    #[test]
    fn closed_form_matches_brute_force() {
        let mut solver = NimValues::new(Nim);
        for n in 0..40 {
            assert_eq!(solver.nim_value(&n).unwrap(), n);
            assert_eq!(NimRules.closed_form(n), Some(n));
        }
    }

    #[test]
    fn closed_form_options_match_the_listed_options() {
        let game = HeapGame::new("nim", Arc::new(NimRules));
        let mut values = NimValues::new(game.clone());
        for n in 1..20u64 {
            for target in 0..25 {
                let fast = NimRules.closed_form_options(n, target).unwrap();
                let slow: Vec<Vec<u64>> = NimRules
                    .options(n)
                    .into_iter()
                    .filter(|o| {
                        let left: Vec<u64> = o.iter().copied().filter(|&h| h > 0).collect();
                        values.nim_value(&left).unwrap() == target
                    })
                    .collect();
                assert_eq!(fast, slow, "heap {n}, target {target}");
            }
        }
    }

    #[test]
    fn sums_of_small_heaps_match_the_generic_solver() {
        let mut solver = NimValues::new(Sum(Nim));
        for a in 0..6 {
            for b in 0..6 {
                assert_eq!(solver.nim_value(&vec![a, b, 3]).unwrap(), a ^ b ^ 3);
            }
        }
    }
}
