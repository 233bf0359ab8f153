//! Grundy's game: split one heap into two nonempty heaps of different sizes.
//!
//! Its moves are not translation invariant (the two heaps must differ), so the Guy–Smith
//! argument does not apply and no period is ever reported; none is known. The rules are
//! [`crate::heap::Code::grundy`].

#[cfg(test)]
mod tests {
    use crate::heap::testing::assert_matches_brute_force;
    use crate::heap::{Code, HeapSolver, HeapValues, PeriodSearch};
    use std::sync::Arc;

    #[test]
    fn grundy_matches_brute_force() {
        assert_matches_brute_force(&Code::grundy(), 60);
    }

    #[test]
    fn grundy_is_never_certified_and_huge_heaps_are_a_limit() {
        let solver = HeapSolver::new("grundy", Arc::new(Code::grundy()));
        // No bound on its moves: nothing can prove a period, and nothing is computed.
        assert!(matches!(
            solver.period(5000, &()).unwrap(),
            PeriodSearch::NoCertificate { .. }
        ));
        let table = solver.table(200, &()).unwrap();
        assert_eq!(table.period, None);
        assert_eq!(
            &table.values.to_vec()[..13],
            &[0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1]
        );
        let err = solver.nim_value(1_000_000_000_000).unwrap_err();
        assert!(
            matches!(err, crate::Error::Limit(ref m) if m.contains("no period certificate")),
            "{err}"
        );
    }
}
