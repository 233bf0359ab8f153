//! POI 2000 "Strips" (seed 002): a 1×p board; players in turn place a stripe of length C, Z or
//! N (red, green, blue; unlimited supply) on free cells; who cannot place a stripe loses.
//!
//! Placing a stripe of length L in a free segment of p cells leaves segments of i and p − L − i
//! cells, either possibly empty: the take-and-break digit 7 at L. So `strips:C,Z,N` is the code
//! with digit 7 at C, Z and N, and a position is the lengths of the free segments.

use crate::analysis::GameDef;
use crate::error::{Error, Result};
use crate::heap::{Code, HeapGame, Run};
use crate::spec::{parse_u64, CatalogEntry, Family};
use std::sync::Arc;

/// The code of Strips with stripe lengths `lengths` (each at least 1; repeats allowed).
///
/// # Errors
/// A message if a length is 0.
pub fn strips_code(lengths: &[u64]) -> std::result::Result<Code, String> {
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

/// The `strips:C,Z,N` spec.
pub struct StripsFamily;

impl Family for StripsFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        vec![CatalogEntry {
            spec: "strips:C,Z,N",
            params: "C,Z,N ≥ 1: the lengths of the red, green and blue stripes",
            position: "strip lengths (free segments of the board)",
            summary: "POI 2000 Strips: place a stripe of length C, Z or N on free cells of a 1×p strip; the player who cannot loses (code: digit 7 at C, Z, N)",
            example: "strips:1,5,1 6",
        }]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        if name != "strips" {
            return None;
        }
        let Some(params) = params else {
            return Some(Err(Error::spec(
                spec,
                "strips needs three stripe lengths, as in strips:1,5,1",
            )));
        };
        Some(build(spec, params))
    }
}

fn build(spec: &str, params: &str) -> Result<Arc<dyn GameDef>> {
    let bad = |reason: String| Error::spec(spec, reason);
    let items: Vec<&str> = params.split(',').collect();
    if items.len() != 3 {
        return Err(bad(format!(
            "strips needs exactly three lengths C,Z,N, got {}",
            items.len()
        )));
    }
    let lengths = items
        .iter()
        .map(|s| parse_u64(s, "stripe length"))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(bad)?;
    let code = strips_code(&lengths).map_err(bad)?;
    let canonical = format!("strips:{},{},{}", lengths[0], lengths[1], lengths[2]);
    Ok(Arc::new(HeapGame::new(canonical, Arc::new(code))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis;
    use crate::game::{Outcome, Play};
    use crate::heap::testing::assert_matches_brute_force;
    use crate::spec::{parse_game, parse_position};
    use proptest::prelude::*;

    #[test]
    fn the_poi_example_is_solved() {
        // C = 1, Z = 5, N = 1: G(1) = 1, G(2) = 0 (any stripe leaves one free cell), G(5) = 1.
        let outcome = |p: &str| {
            let position = parse_position(&["strips:1,5,1", p]).unwrap();
            analysis::value(&position, Play::Normal).unwrap().outcome
        };
        assert_eq!(outcome("1"), Outcome::N);
        assert_eq!(outcome("2"), Outcome::P);
        assert_eq!(outcome("5"), Outcome::N);
    }

    #[test]
    fn malformed_strips_are_spec_errors() {
        for bad in [
            "strips:0,1,2",
            "strips:1,2",
            "strips:1,2,3,4",
            "strips",
            "strips:a,b,c",
            "strips:1,2,99999999999999999999",
        ] {
            assert!(matches!(parse_game(bad), Err(Error::Spec { .. })), "{bad}");
        }
        assert_eq!(parse_game("strips:3,1,3").unwrap().spec(), "strips:3,1,3");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(8))]

        #[test]
        fn random_strips_match_brute_force(c in 1u64..8, z in 1u64..8, n in 1u64..8) {
            assert_matches_brute_force(&strips_code(&[c, z, n]).unwrap(), 60);
        }
    }
}
