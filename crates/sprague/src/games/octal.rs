//! Take-and-break games in Guy–Smith / CGSuite code notation: `0.D1D2…`, `octal:CODE`,
//! `D0.D1…` with octal or hexadecimal digits, and the named games `kayles` (0.77), `dawson`
//! (0.07), `dawson-chess` (0.137), `officers` (0.6) and `treblecross` (0.007).

use crate::analysis::GameDef;
use crate::error::{Error, Result};
use crate::heap::{Code, HeapGame};
use crate::spec::{CatalogEntry, Family};
use std::sync::Arc;

/// The named take-and-break games and their codes.
pub const NAMED: [(&str, &str); 5] = [
    ("kayles", "0.77"),
    ("dawson", "0.07"),
    ("dawson-chess", "0.137"),
    ("officers", "0.6"),
    ("treblecross", "0.007"),
];

/// The game of a code given as text, with the code's canonical text as its spec.
///
/// # Errors
/// [`Error::Spec`] naming the bad digit or the missing point.
pub fn code_game(spec: &str, text: &str) -> Result<Arc<dyn GameDef>> {
    let code = Code::parse(text).map_err(|reason| Error::spec(spec, reason))?;
    let canonical = code
        .to_text()
        .ok_or_else(|| Error::spec(spec, "the code is too long to name"))?;
    Ok(Arc::new(HeapGame::new(canonical, Arc::new(code))))
}

/// Whether `name` looks like a code: a point, and at most one character before it.
fn looks_like_code(name: &str) -> bool {
    match name.split_once('.') {
        Some((before, _)) => {
            before.chars().count() <= 1 && before.chars().all(|c| c.is_ascii_alphanumeric())
        }
        None => false,
    }
}

/// The take-and-break specs.
pub struct OctalFamily;

impl Family for OctalFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        vec![
            CatalogEntry {
                spec: "0.D1D2...",
                params: "digits d_t (octal, or hexadecimal 8-F) for removing t tokens: +1 take the whole heap, +2 leave one heap, +4 leave two, +8 leave three; also written octal:CODE",
                position: "heap sizes",
                summary: "take-and-break game in Guy-Smith code; periods certified by the Guy-Smith bound (h·n0 + h·p + k values for moves leaving up to h heaps)",
                example: "0.137 8 9",
            },
            CatalogEntry {
                spec: "D0.D1D2...",
                params: "a digit before the point splits without removing: 4 into two heaps, 8 into three, C either",
                position: "heap sizes",
                summary: "take-and-break game whose moves may split a heap without taking from it",
                example: "4.07 10",
            },
            CatalogEntry {
                spec: "kayles",
                params: "",
                position: "heap sizes",
                summary: "Kayles (0.77): knock down one pin or two adjacent pins of a row; period 12 from 71",
                example: "kayles 5 9",
            },
            CatalogEntry {
                spec: "dawson",
                params: "",
                position: "heap sizes",
                summary: "Dawson's Kayles (0.07): knock down two adjacent pins; period 34 from 53",
                example: "dawson 10",
            },
            CatalogEntry {
                spec: "dawson-chess",
                params: "",
                position: "heap sizes",
                summary: "Dawson's Chess (0.137); period 34 from 52",
                example: "dawson-chess 10",
            },
            CatalogEntry {
                spec: "officers",
                params: "",
                position: "heap sizes",
                summary: "Officers (0.6): take one token, leaving the rest as one heap or two; no period known",
                example: "officers 20",
            },
            CatalogEntry {
                spec: "treblecross",
                params: "",
                position: "heap sizes",
                summary: "Treblecross (0.007), one-dimensional tic-tac-toe as a take-and-break game; no period known",
                example: "treblecross 20",
            },
        ]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        if let Some(&(named, code)) = NAMED.iter().find(|(n, _)| *n == name) {
            return Some(match params {
                Some(_) => Err(Error::spec(spec, format!("{named} takes no parameters"))),
                None => Code::parse(code)
                    .map(|c| Arc::new(HeapGame::new(named, Arc::new(c))) as Arc<dyn GameDef>)
                    .map_err(|r| Error::spec(spec, r)),
            });
        }
        if name == "octal" {
            return Some(match params {
                Some(text) => code_game(spec, text),
                None => Err(Error::spec(spec, "octal needs a code, as in octal:0.77")),
            });
        }
        if looks_like_code(name) {
            return Some(match params {
                Some(_) => Err(Error::spec(spec, "a code takes no parameters")),
                None => code_game(spec, name),
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{self, Position};
    use crate::game::{Outcome, Play};
    use crate::heap::testing::{assert_matches_brute_force, values_of};
    use crate::heap::{HeapValues, PeriodSearch, Run};
    use crate::spec::{parse_game, parse_position};
    use proptest::prelude::*;

    fn certified(spec: &str, max: u64) -> (u64, u64) {
        let game = parse_game(spec).unwrap();
        match game.heap().unwrap().period(max, &()).unwrap() {
            PeriodSearch::Certified(p) => (p.period, p.preperiod),
            other => panic!("{spec}: {other:?}"),
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
        let game = parse_game("kayles").unwrap();
        let PeriodSearch::Certified(p) = game.heap().unwrap().period(10_000, &()).unwrap() else {
            panic!()
        };
        assert_eq!(p.certified_at, 2 * 71 + 2 * 12 + 2 - 1);
        // Asking for less than the bound is not enough.
        assert_eq!(
            game.heap()
                .unwrap()
                .period(p.certified_at - 1, &())
                .unwrap(),
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
            let game = parse_game(spec).unwrap();
            assert_eq!(
                game.heap().unwrap().period(3000, &()).unwrap(),
                PeriodSearch::NotCertified { checked_to: 3000 }
            );
        }
    }

    #[test]
    fn kayles_at_the_largest_heap_answers_from_the_period() {
        let position = parse_position(&["kayles", "18446744073709551615"]).unwrap();
        let report = analysis::value(&position, Play::Normal).unwrap();
        // 2^64 − 1 ≡ 3 (mod 12), and G(n) = 8 for n ≡ 3 past the preperiod.
        assert_eq!(report.nim_value, Some(8));
        assert_eq!(report.outcome, Outcome::N);
        // The winning moves (splits into two heaps of equal value) are far too many to list.
        assert!(report.winning_moves_omitted.is_some());
        assert!(report.winning_moves.is_empty());
        // A P-position among huge heaps: moves are found from the period, not by listing.
        let position = parse_position(&["kayles", "18446744073709551615", "75"]).unwrap();
        let report = analysis::value(&position, Play::Normal).unwrap();
        assert_eq!(report.outcome, Outcome::P);
        let position = parse_position(&["kayles", "1000000000000", "9"]).unwrap();
        let report = analysis::value(&position, Play::Normal).unwrap();
        assert_eq!(report.nim_value, Some(1 ^ 4));
        assert!(report.winning_moves.iter().any(|m| m.text == "9 -> 8"));
        for m in &report.winning_moves {
            let Position::Sum(_) = &position else {
                panic!()
            };
            let words: Vec<String> = std::iter::once("kayles".to_string())
                .chain(m.position.as_array().unwrap().iter().map(|v| v.to_string()))
                .collect();
            let after = analysis::value(&parse_position(&words).unwrap(), Play::Normal).unwrap();
            assert_eq!(after.outcome, Outcome::P, "{} leaves an N position", m.text);
        }
    }

    #[test]
    fn winning_moves_of_periodic_heaps_match_listing() {
        // Heaps past the table: the residue method must agree with a direct scan.
        let game = parse_game("0.07").unwrap();
        let crate::analysis::Parsed::Parts(parts) = game
            .parse_position(&["5000".into(), "3001".into()])
            .unwrap()
        else {
            panic!()
        };
        for part in &parts {
            let all = part.options(100_000).unwrap();
            for target in 0..8 {
                let fast: Vec<String> = part
                    .options_with_value(target, 100_000)
                    .unwrap()
                    .into_iter()
                    .map(|o| o.text)
                    .collect();
                let mut slow: Vec<String> = all
                    .iter()
                    .filter(|o| {
                        analysis::parts_value(&o.parts).unwrap()
                            == crate::game::NimValue::Finite(target)
                    })
                    .map(|o| o.text.clone())
                    .collect();
                let mut fast_sorted = fast.clone();
                fast_sorted.sort();
                slow.sort();
                assert_eq!(fast_sorted, slow, "heap {part} target {target}");
            }
        }
    }

    #[test]
    fn malformed_codes_are_spec_errors() {
        for bad in [
            "0.8x",
            "octal:",
            "octal:77",
            "0.",
            "1.7",
            "kayles:3",
            "0.7:1",
            "0.77777777777777777777777g",
        ] {
            assert!(matches!(parse_game(bad), Err(Error::Spec { .. })), "{bad}");
        }
        assert_eq!(parse_game("octal:0.70").unwrap().spec(), "0.7");
        assert_eq!(parse_game("4.0f").unwrap().spec(), "4.0F");
    }

    #[test]
    fn split_moves_are_written_with_plus_signs() {
        let position = parse_position(&["kayles", "3"]).unwrap();
        let report = analysis::moves(&position, Play::Normal).unwrap();
        let texts: Vec<&str> = report.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["3 -> 2", "3 -> 1+1", "3 -> 1"]);
        let position = parse_position(&["0.1", "1"]).unwrap();
        let report = analysis::moves(&position, Play::Normal).unwrap();
        assert_eq!(report.moves[0].text, "1 -> 0");
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
            let game = HeapGame::new("x", Arc::new(code.clone()));
            if let PeriodSearch::Certified(p) = game.solver().period(3000, &()).unwrap() {
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
