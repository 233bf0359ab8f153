//! Grundy's game: split one heap into two nonempty heaps of different sizes.
//!
//! Its moves are not translation invariant (the two heaps must differ), so the Guy–Smith
//! argument does not apply and no period is ever reported; none is known.

use crate::analysis::GameDef;
use crate::error::Result;
use crate::heap::{Code, HeapGame};
use crate::spec::{CatalogEntry, Family};
use std::sync::Arc;

/// The `grundy` spec.
pub struct GrundyFamily;

impl Family for GrundyFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        vec![CatalogEntry {
            spec: "grundy",
            params: "",
            position: "heap sizes",
            summary: "Grundy's game: split one heap into two nonempty heaps of different sizes; no period is known or certified",
            example: "grundy 10",
        }]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        crate::spec::build_without_params(spec, name, params, "grundy", || {
            Arc::new(HeapGame::new("grundy", Arc::new(Code::grundy())))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::testing::assert_matches_brute_force;
    use crate::heap::PeriodSearch;
    use crate::spec::parse_game;

    #[test]
    fn grundy_matches_brute_force() {
        assert_matches_brute_force(&Code::grundy(), 60);
    }

    #[test]
    fn grundy_is_never_certified() {
        let game = parse_game("grundy").unwrap();
        assert_eq!(
            game.heap().unwrap().period(5000, &()).unwrap(),
            PeriodSearch::NotCertified { checked_to: 5000 }
        );
        let table = game.heap().unwrap().table(200, &()).unwrap();
        assert_eq!(table.period, None);
        assert_eq!(
            &table.values[..13],
            &[0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1]
        );
    }

    #[test]
    fn huge_grundy_heaps_are_a_limit_not_a_guess() {
        let position = crate::spec::parse_position(&["grundy", "1000000000000"]).unwrap();
        let err = crate::analysis::value(&position, crate::game::Play::Normal).unwrap_err();
        assert!(
            matches!(err, crate::Error::Limit(ref m) if m.contains("no period certificate")),
            "{err}"
        );
    }
}
