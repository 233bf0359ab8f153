//! POI 2000 "Strips" (seed 002): a 1×p board; players in turn place a stripe of length C, Z or
//! N (red, green, blue; unlimited supply) on free cells; who cannot place a stripe loses.
//!
//! Placing a stripe of length L in a free segment of p cells leaves segments of i and p − L − i
//! cells, either possibly empty: the take-and-break digit 7 at L. So `strips:C,Z,N` is the code
//! with digit 7 at C, Z and N, and a position is the lengths of the free segments.

use crate::game::notation::parse_u64;
use crate::heap::{Code, Run};

/// The code of Strips with stripe lengths `lengths` (each at least 1; repeats allowed).
///
/// # Errors
/// A message if a length is 0.
pub fn strips_code(lengths: &[u64]) -> Result<Code, String> {
    let mut set = lengths.to_vec();
    set.sort_unstable();
    set.dedup();
    if set.first() == Some(&0) {
        return Err("stripe lengths must be at least 1".into());
    }
    if set.last() == Some(&u64::MAX) {
        return Err("stripe lengths must be below 2^64-1".into());
    }
    let runs = set
        .iter()
        .map(|&t| Run {
            lo: t,
            hi: t,
            digit: 7,
        })
        .collect();
    Code::new(0, runs)
}

/// Reads `strips:C,Z,N`'s parameters: the canonical spec and the code.
///
/// # Errors
/// Unless there are exactly three lengths, each at least 1.
pub fn parse_strips(params: &str) -> Result<(String, Code), String> {
    let items: Vec<&str> = params.split(',').collect();
    if items.len() != 3 {
        return Err(format!(
            "strips needs exactly three lengths C,Z,N, got {}",
            items.len()
        ));
    }
    let lengths = items
        .iter()
        .map(|s| parse_u64(s, "stripe length"))
        .collect::<Result<Vec<_>, _>>()?;
    let code = strips_code(&lengths)?;
    Ok((
        format!("strips:{},{},{}", lengths[0], lengths[1], lengths[2]),
        code,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::testing::assert_matches_brute_force;
    use crate::heap::HeapSolver;
    use proptest::prelude::*;
    use std::sync::Arc;

    #[test]
    fn the_poi_example_is_solved() {
        // C = 1, Z = 5, N = 1: G(1) = 1, G(2) = 0 (any stripe leaves one free cell), G(5) = 1.
        let (spec, code) = parse_strips("1,5,1").unwrap();
        assert_eq!(spec, "strips:1,5,1");
        let solver = HeapSolver::new(spec, Arc::new(code));
        assert_eq!(solver.nim_value(1).unwrap(), 1);
        assert_eq!(solver.nim_value(2).unwrap(), 0);
        assert_eq!(solver.nim_value(5).unwrap(), 1);
    }

    #[test]
    fn malformed_strips_are_errors() {
        for bad in [
            "0,1,2",
            "1,2",
            "1,2,3,4",
            "",
            "a,b,c",
            "1,2,99999999999999999999",
        ] {
            assert!(parse_strips(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_strips("3,1,3").unwrap().0, "strips:3,1,3");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(8))]

        #[test]
        fn random_strips_match_brute_force(c in 1u64..8, z in 1u64..8, n in 1u64..8) {
            assert_matches_brute_force(&strips_code(&[c, z, n]).unwrap(), 60);
        }
    }
}
