//! Take-and-break games in Guy–Smith / CGSuite code notation: `0.D1D2…`, `octal:CODE`,
//! `D0.D1…` with octal or hexadecimal digits, and the named games `kayles` (0.77), `dawson`
//! (0.07), `dawson-chess` (0.137), `officers` (0.6) and `treblecross` (0.007).

use crate::heap::Code;

/// The named take-and-break games and their codes.
pub const NAMED: [(&str, &str); 5] = [
    ("kayles", "0.77"),
    ("dawson", "0.07"),
    ("dawson-chess", "0.137"),
    ("officers", "0.6"),
    ("treblecross", "0.007"),
];

/// The named take-and-break game `name`, or a code written as its spec name: the canonical spec
/// and the code. `None` when `name` is neither.
///
/// # Errors
/// The bad digit or the missing point, for a name that looks like a code.
pub fn parse_code_name(name: &str) -> Option<Result<(String, Code), String>> {
    if let Some(&(named, code)) = NAMED.iter().find(|(n, _)| *n == name) {
        return Some(Code::parse(code).map(|c| (named.to_string(), c)));
    }
    looks_like_code(name).then(|| parse_code(name))
}

/// A code given as text (`octal:CODE`), with its canonical text as the spec.
///
/// # Errors
/// The bad digit or the missing point.
pub fn parse_code(text: &str) -> Result<(String, Code), String> {
    let code = Code::parse(text)?;
    let canonical = code
        .to_text()
        .ok_or_else(|| "the code is too long to name".to_string())?;
    Ok((canonical, code))
}

/// Whether `name` looks like a code: a point, and at most one character before it.
pub fn looks_like_code(name: &str) -> bool {
    match name.split_once('.') {
        Some((before, _)) => {
            before.chars().count() <= 1 && before.chars().all(|c| c.is_ascii_alphanumeric())
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::testing::{assert_matches_brute_force, values_of};
    use crate::heap::{HeapGame, HeapSolver, HeapValues, PeriodSearch, Run};
    use proptest::prelude::*;
    use std::sync::Arc;

    fn solver(name: &str) -> HeapSolver {
        let (spec, code) = parse_code_name(name).expect("a code").expect("valid");
        HeapSolver::new(spec, Arc::new(code))
    }

    fn certified(name: &str, max: u64) -> (u64, u64) {
        match solver(name).period(max, &()).unwrap() {
            PeriodSearch::Certified(p) => (p.period, p.preperiod),
            other => panic!("{name}: {other:?}"),
        }
    }

    #[test]
    fn kayles_is_certified_with_period_12_from_71() {
        assert_eq!(certified("kayles", 10_000), (12, 71));
        assert_eq!(certified("0.77", 10_000), (12, 71));
    }

    #[test]
    fn dawson_is_certified_with_period_34_from_53() {
        assert_eq!(certified("0.07", 10_000), (34, 53));
        assert_eq!(certified("dawson", 10_000), (34, 53));
    }

    #[test]
    fn dawson_chess_is_certified_with_period_34_from_52() {
        assert_eq!(certified("0.137", 10_000), (34, 52));
        // Dawson's Chess is Dawson's Kayles shifted by one.
        let chess = values_of(&Code::parse("0.137").unwrap(), 300);
        let dawson = values_of(&Code::parse("0.07").unwrap(), 301);
        assert_eq!(chess[..], dawson[1..]);
    }

    #[test]
    fn certified_at_follows_the_guy_smith_bound() {
        let PeriodSearch::Certified(p) = solver("kayles").period(10_000, &()).unwrap() else {
            panic!()
        };
        assert_eq!(p.certified_at, 2 * 71 + 2 * 12 + 2 - 1);
        // Asking for less than the bound is not enough.
        assert_eq!(
            solver("kayles").period(p.certified_at - 1, &()).unwrap(),
            PeriodSearch::NotCertified {
                checked_to: p.certified_at - 1
            }
        );
    }

    /// 0.16: period 149459 from 105351, certified after 2·105351 + 2·149459 + 2 values.
    /// Slow in debug builds; run with `cargo test --release -p sprague -- --ignored`.
    #[test]
    #[ignore]
    fn octal_016_is_certified_with_period_149459_from_105351() {
        assert_eq!(certified("0.16", 600_000), (149_459, 105_351));
    }

    #[test]
    fn officers_and_treblecross_are_not_certified_up_to_a_max() {
        for spec in ["officers", "treblecross"] {
            assert_eq!(
                solver(spec).period(3000, &()).unwrap(),
                PeriodSearch::NotCertified { checked_to: 3000 }
            );
        }
    }

    #[test]
    fn winning_moves_of_periodic_heaps_match_listing() {
        // Heaps past the table: the residue method must agree with a direct scan.
        let solver = solver("0.07");
        let code = Code::parse("0.07").unwrap();
        for n in [5000u64, 3001] {
            let all: Vec<Vec<u64>> = crate::heap::HeapRules::options(&code, n)
                .into_iter()
                .map(|o| o.into_iter().filter(|&h| h > 0).collect())
                .collect();
            for target in 0..8 {
                let listing = solver.options_with_value(n, target, 100_000).unwrap();
                assert!(listing.is_complete());
                let mut fast: Vec<Vec<u64>> = listing
                    .items
                    .into_iter()
                    .map(|o| o.into_iter().filter(|&h| h > 0).collect())
                    .collect();
                let mut slow: Vec<Vec<u64>> = all
                    .iter()
                    .filter(|o| {
                        o.iter().fold(0, |x, &h| x ^ solver.nim_value(h).unwrap()) == target
                    })
                    .cloned()
                    .collect();
                fast.sort();
                slow.sort();
                assert_eq!(fast, slow, "heap {n} target {target}");
            }
        }
    }

    #[test]
    fn huge_heaps_count_their_winning_moves_from_the_period() {
        // Kayles at 10^18: the splits into two heaps of equal value are counted, a few listed.
        let solver = solver("kayles");
        let n = 1_000_000_000_000_000_000u64;
        let g = solver.nim_value(n).unwrap();
        let listing = solver.options_with_value(n, 0, 5).unwrap();
        assert_eq!(listing.items.len(), 5);
        let total = listing.total.unwrap();
        assert!(total > 1_000_000_000_000, "{total}");
        for option in &listing.items {
            let x = option
                .iter()
                .fold(0, |x, &h| x ^ solver.nim_value(h).unwrap());
            assert_eq!(x, 0, "{option:?} from a heap of value {g}");
        }
        // The counts agree with a direct scan where one is possible.
        let small = 30_000u64;
        let listing = solver.options_with_value(small, 0, 3).unwrap();
        let code = Code::parse("0.77").unwrap();
        let direct = crate::heap::HeapRules::options(&code, small)
            .into_iter()
            .filter(|o| o.iter().fold(0, |x, &h| x ^ solver.nim_value(h).unwrap()) == 0)
            .count() as u64;
        assert_eq!(listing.total, Some(direct));
    }

    #[test]
    fn names_and_codes_parse_and_malformed_codes_are_errors() {
        for bad in ["0.8x", "0.", "1.7", "0.77777777777777777777777g"] {
            assert!(matches!(parse_code_name(bad), Some(Err(_))), "{bad}");
        }
        assert!(parse_code("77").is_err());
        assert!(parse_code_name("wythoff").is_none());
        assert_eq!(parse_code("0.70").unwrap().0, "0.7");
        assert_eq!(parse_code_name("4.0f").unwrap().unwrap().0, "4.0F");
        assert_eq!(parse_code_name("kayles").unwrap().unwrap().0, "kayles");
        let game = HeapGame::new("kayles", Arc::new(Code::parse("0.77").unwrap()));
        use crate::game::Notation;
        assert_eq!(game.write_move(&vec![3], &vec![1, 1]), "3 -> 1+1");
        assert_eq!(game.write_move(&vec![1], &vec![]), "1 -> 0");
    }

    fn code_strategy(hex: bool) -> impl Strategy<Value = Code> {
        let top = if hex { 16u8 } else { 8 };
        let d0 = if hex {
            prop_oneof![Just(0u8), Just(4), Just(8), Just(12)].boxed()
        } else {
            prop_oneof![Just(0u8), Just(4)].boxed()
        };
        (d0, prop::collection::vec(0..top, 1..=4)).prop_map(|(d0, digits)| {
            let runs = digits
                .iter()
                .enumerate()
                .map(|(i, &d)| Run {
                    lo: i as u64 + 1,
                    hi: i as u64 + 1,
                    digit: d,
                })
                .collect();
            Code::new(d0, runs).unwrap()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn random_octal_codes_match_brute_force_to_30(code in code_strategy(false)) {
            assert_matches_brute_force(&code, 30);
        }

        #[test]
        fn random_hexadecimal_codes_match_brute_force_to_24(code in code_strategy(true)) {
            assert_matches_brute_force(&code, 24);
        }

        #[test]
        fn periodic_values_agree_with_the_table(code in code_strategy(false), n in 0u64..5000) {
            // Whatever is certified must predict the tabulated values.
            let solver = HeapSolver::new("x", Arc::new(code.clone()));
            if let PeriodSearch::Certified(p) = solver.period(3000, &()).unwrap() {
                let values = values_of(&code, 5000);
                let i = if n < p.preperiod { n } else { p.preperiod + (n - p.preperiod) % p.period };
                prop_assert_eq!(values[n as usize], values[i as usize]);
            }
        }
    }

    // The brute force up to heap 60 explores every set of distinct heaps with sum ≤ 60 (about a
    // second per octal code in debug builds, ten for hexadecimal ones), so fewer codes go there.
    proptest! {
        #![proptest_config(ProptestConfig::with_cases(6))]

        #[test]
        fn random_octal_codes_match_brute_force_to_60(code in code_strategy(false)) {
            assert_matches_brute_force(&code, 60);
        }

        #[test]
        fn random_hexadecimal_codes_match_brute_force_to_40(code in code_strategy(true)) {
            assert_matches_brute_force(&code, 40);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]

        /// Slow (minutes in debug); run with `cargo test --release -p sprague -- --ignored`.
        #[test]
        #[ignore]
        fn random_hexadecimal_codes_match_brute_force_to_60(code in code_strategy(true)) {
            assert_matches_brute_force(&code, 60);
        }
    }
}
