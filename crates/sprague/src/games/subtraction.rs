//! Subtraction games: `bash:M` (take 1..M, closed form n mod (M+1)), `sub:S` (take an amount in
//! the finite set S) and `allbut:S` (take any positive amount not in S).
//!
//! `sub:S` and `allbut:S` are [`Code`]s evaluated by the heap engine. A move must take at least
//! one token, so `sub:0` and `allbut:0` are rejected (0 would be a pass), as is an empty set.

use crate::game::notation::{parse_set, parse_u64};
use crate::heap::{certification_length, Code, HeapRules, MoveBounds, Periodicity, Run};

/// The subtraction code of `bash:M`: take 1 to M.
pub fn bash_code(m: u64) -> Code {
    Code::new(
        0,
        vec![Run {
            lo: 1,
            hi: m,
            digit: 3,
        }],
    )
    .expect("one run from 1 is a valid code")
}

/// A set written back in the shortest way: runs of three or more as ranges.
fn set_text(set: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < set.len() {
        let mut j = i;
        while j + 1 < set.len() && set[j + 1] == set[j] + 1 {
            j += 1;
        }
        match j - i {
            0 => parts.push(set[i].to_string()),
            1 => parts.push(format!("{},{}", set[i], set[j])),
            _ => parts.push(format!("{}-{}", set[i], set[j])),
        }
        i = j + 1;
    }
    parts.join(",")
}

/// `bash:M`: take 1 to M tokens. G(n) = n mod (M + 1), for any heap and any M.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BashRules {
    /// The most tokens a move takes.
    pub m: u64,
}

/// Reads `bash:M`'s parameter.
///
/// # Errors
/// When M is not a whole number of at least 1.
pub fn parse_bash(params: &str) -> Result<BashRules, String> {
    let m = parse_u64(params, "M")?;
    if m == 0 {
        return Err("M must be at least 1".into());
    }
    Ok(BashRules { m })
}

/// Reads `sub:S`'s set: the canonical spec and the code.
///
/// # Errors
/// For a malformed or empty set, or one with 0.
pub fn parse_sub(params: &str) -> Result<(String, Code), String> {
    let set = parse_set(params, "move")?;
    let code = Code::subtraction(&set)?;
    Ok((format!("sub:{}", set_text(&set)), code))
}

/// Reads `allbut:S`'s set: the canonical spec and the code.
///
/// # Errors
/// For a malformed or empty set, or one with 0.
pub fn parse_allbut(params: &str) -> Result<(String, Code), String> {
    let set = parse_set(params, "excluded move")?;
    let code = Code::all_but(&set)?;
    Ok((format!("allbut:{}", set_text(&set)), code))
}

impl HeapRules for BashRules {
    fn options(&self, n: u64) -> Vec<Vec<u64>> {
        (1..=self.m.min(n)).map(|t| vec![n - t]).collect()
    }

    fn closed_form(&self, n: u64) -> Option<u64> {
        Some(match self.m.checked_add(1) {
            Some(q) => n % q,
            None => n,
        })
    }

    /// The options are the heaps n − min(M, n) ..= n − 1, fewer than M + 1 of them, so at most
    /// one has each value: the largest m ≤ n − 1 with m ≡ target.
    fn closed_form_options(&self, n: u64, target: u64) -> Option<Vec<Vec<u64>>> {
        let lowest = n - self.m.min(n);
        let m = match self.m.checked_add(1) {
            Some(q) if target < q && target < n => target + (n - 1 - target) / q * q,
            None if target < n => target,
            _ => return Some(Vec::new()),
        };
        Some(if m >= lowest {
            vec![vec![m]]
        } else {
            Vec::new()
        })
    }

    fn option_count(&self, n: u64) -> Option<u64> {
        Some(self.m.min(n))
    }

    fn certificate(&self) -> Option<MoveBounds> {
        Some(MoveBounds {
            max_heaps: 1,
            max_removed: self.m,
        })
    }

    /// The closed form is a theorem; this is the certificate the engine would reach.
    fn known_period(&self) -> Option<Periodicity> {
        let period = self.m.checked_add(1)?;
        let bounds = self.certificate()?;
        let len = certification_length(0, period, bounds)?;
        Some(Periodicity {
            preperiod: 0,
            period,
            certified_at: len - 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::testing::{assert_matches_brute_force, brute_force_values, values_of};
    use crate::heap::{HeapGame, HeapValues, PeriodSearch};
    use proptest::prelude::*;
    use std::sync::Arc;

    #[test]
    fn bash_closed_form_matches_the_engine_and_brute_force() {
        for m in 1..6 {
            let code = bash_code(m);
            let engine = values_of(&code, 60);
            let brute = brute_force_values(&code, 60);
            let bash = BashRules { m };
            for n in 0..=60 {
                assert_eq!(
                    Some(engine[n as usize]),
                    bash.closed_form(n),
                    "bash:{m} heap {n}"
                );
                assert_eq!(Some(brute[n as usize]), bash.closed_form(n));
            }
            assert_eq!(
                bash.known_period().map(|p| (p.preperiod, p.period)),
                Some((0, m + 1))
            );
            // The engine certifies the same period at the same heap.
            let game = HeapGame::new("x", Arc::new(code));
            match game.solver().period(1000, &()).unwrap() {
                PeriodSearch::Certified(p) => assert_eq!(Some(p), bash.known_period()),
                other => panic!("bash:{m} not certified: {other:?}"),
            }
        }
    }

    #[test]
    fn bash_winning_moves_match_the_listed_options() {
        for m in 1..5 {
            let bash = BashRules { m };
            let game = HeapGame::new("bash", Arc::new(bash));
            for heap in 1..25 {
                for target in 0..8 {
                    let fast = bash.closed_form_options(heap, target).unwrap();
                    let slow: Vec<Vec<u64>> = bash
                        .options(heap)
                        .into_iter()
                        .filter(|o| {
                            o.iter().fold(0, |x, &h| x ^ bash.closed_form(h).unwrap()) == target
                        })
                        .collect();
                    assert_eq!(fast, slow, "bash:{m} heap {heap} target {target}");
                    let listed = game.solver().options_with_value(heap, target, 100).unwrap();
                    assert_eq!(listed.items, slow);
                }
            }
        }
        let huge = BashRules { m: u64::MAX };
        assert_eq!(huge.closed_form(u64::MAX), Some(u64::MAX));
        assert_eq!(huge.closed_form_options(u64::MAX, 5), Some(vec![vec![5]]));
    }

    #[test]
    fn parameters_give_canonical_specs_and_malformed_ones_are_errors() {
        assert_eq!(parse_sub("4,1,3").unwrap().0, "sub:1,3,4");
        assert_eq!(parse_sub("1-3,7,8").unwrap().0, "sub:1-3,7,8");
        assert_eq!(parse_allbut("2").unwrap().0, "allbut:2");
        assert_eq!(parse_bash("3").unwrap().m, 3);
        for bad in [
            "",
            "0",
            "0,1",
            "x",
            "1-99999999999",
            "99999999999999999999",
            "18446744073709551615",
        ] {
            assert!(parse_sub(bad).is_err(), "sub:{bad}");
        }
        for bad in ["0", ""] {
            assert!(parse_allbut(bad).is_err(), "allbut:{bad}");
        }
        for bad in ["0", "", "99999999999999999999", "-1"] {
            assert!(parse_bash(bad).is_err(), "bash:{bad}");
        }
    }

    #[test]
    fn subtraction_periods_are_certified_with_the_window_bound() {
        // sub:1,3,4 (seed 001): period 7 from 0, k = 4: 0 + 7 + 4 values (n0* = 1 gives 12).
        let game = HeapGame::new(
            "sub:1,3,4",
            Arc::new(Code::subtraction(&[1, 3, 4]).unwrap()),
        );
        let PeriodSearch::Certified(p) = game.solver().period(100, &()).unwrap() else {
            panic!("not certified");
        };
        assert_eq!(
            (p.preperiod, p.period, p.certified_at),
            (0, 7, 1 + 7 + 4 - 1)
        );
    }

    #[test]
    fn a_large_subtraction_set_tabulates() {
        // |S| = 300 spread up to 10^5, plus a long range: exercises direct marks and windows.
        let mut set: Vec<u64> = (0..300).map(|i| 1 + i * i % 99_991 + i).collect();
        set.extend(2000..2100);
        let code = Code::subtraction(&set).unwrap();
        let values = values_of(&code, 200_000);
        // spot-check against a direct mex
        let mut sorted = set.clone();
        sorted.sort_unstable();
        sorted.dedup();
        for n in [0u64, 1, 5000, 123_456, 199_999] {
            let mut seen: Vec<u64> = sorted
                .iter()
                .filter(|&&t| t <= n)
                .map(|&t| values[(n - t) as usize])
                .collect();
            seen.sort_unstable();
            seen.dedup();
            let mex = seen
                .iter()
                .enumerate()
                .find(|&(i, &v)| v != i as u64)
                .map_or(seen.len(), |(i, _)| i);
            assert_eq!(values[n as usize], mex as u64, "heap {n}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn random_subtraction_sets_match_brute_force(set in prop::collection::btree_set(1u64..20, 1..6)) {
            let set: Vec<u64> = set.into_iter().collect();
            assert_matches_brute_force(&Code::subtraction(&set).unwrap(), 60);
        }

        #[test]
        fn random_allbut_sets_match_brute_force(set in prop::collection::btree_set(1u64..12, 0..5)) {
            let set: Vec<u64> = set.into_iter().collect();
            let code = Code::all_but(&set).unwrap();
            prop_assert!(code.certificate().is_none());
            assert_matches_brute_force(&code, 60);
        }

        #[test]
        fn long_runs_use_windows_correctly(lo in 1u64..10, len in 30u64..70, extra in 1u64..150) {
            let mut set: Vec<u64> = (lo..lo + len).collect();
            set.push(lo + len + extra);
            assert_matches_brute_force(&Code::subtraction(&set).unwrap(), 250);
        }
    }
}
