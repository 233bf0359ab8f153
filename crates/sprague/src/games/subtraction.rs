//! Subtraction games: `bash:M` (take 1..M, closed form n mod (M+1)), `sub:S` (take an amount in
//! the finite set S) and `allbut:S` (take any positive amount not in S).
//!
//! `sub:S` and `allbut:S` are [`Code`]s evaluated by the heap engine. A move must take at least
//! one token, so `sub:0` and `allbut:0` are rejected (0 would be a pass), as is an empty set.

use crate::analysis::{Component, ComponentMove, ComponentRef, GameDef, Parsed};
use crate::error::{Error, Result};
use crate::game::NimValue;
use crate::heap::{
    certification_length, Code, HeapGame, HeapValues, MoveBounds, PeriodSearch, Periodicity, Run,
    Table,
};
use crate::progress::Progress;
use crate::spec::{parse_heaps, parse_set, parse_u64, CatalogEntry, Family};
use serde_json::Value as Json;
use std::fmt;
use std::sync::Arc;

/// The code of Bash with parameter `m`: digit 3 for every amount 1..=m.
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

/// Writes a sorted set compactly: runs of three or more as `a-b`.
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

/// Bash: take 1 to M tokens from one heap; G(n) = n mod (M + 1).
struct Bash {
    m: u64,
}

impl Bash {
    fn spec(&self) -> String {
        format!("bash:{}", self.m)
    }

    fn value(&self, n: u64) -> u64 {
        match self.m.checked_add(1) {
            Some(q) => n % q,
            None => n,
        }
    }

    /// The period certificate of the closed form, as the engine would find it.
    fn periodicity(&self) -> Option<Periodicity> {
        let period = self.m.checked_add(1)?;
        let bounds = MoveBounds {
            max_heaps: 1,
            max_removed: self.m,
        };
        let len = certification_length(0, period, bounds)?;
        Some(Periodicity {
            preperiod: 0,
            period,
            certified_at: len - 1,
        })
    }
}

impl HeapValues for Bash {
    fn table(&self, to: u64, _progress: &dyn Progress) -> Result<Table> {
        if to >= crate::heap::MAX_TABLE_LEN {
            return Err(Error::Limit(format!(
                "heap {to} is past the largest table ({} heaps)",
                crate::heap::MAX_TABLE_LEN
            )));
        }
        Ok(Table {
            values: (0..=to).map(|n| self.value(n)).collect(),
            period: self.periodicity().filter(|p| p.certified_at <= to),
        })
    }

    fn period(&self, max: u64, _progress: &dyn Progress) -> Result<PeriodSearch> {
        // The closed form is a theorem; report the certificate the engine would reach.
        Ok(match self.periodicity() {
            Some(p) if p.certified_at <= max => PeriodSearch::Certified(p),
            _ => PeriodSearch::NotCertified { checked_to: max },
        })
    }
}

struct BashGame(Arc<Bash>);

impl GameDef for BashGame {
    fn spec(&self) -> String {
        self.0.spec()
    }

    fn parse_position(&self, args: &[String]) -> Result<Parsed> {
        let heaps = parse_heaps(&self.0.spec(), args)?;
        Ok(Parsed::Parts(
            heaps
                .into_iter()
                .filter(|&h| h > 0)
                .map(|heap| {
                    Arc::new(BashHeap {
                        game: self.0.clone(),
                        heap,
                    }) as ComponentRef
                })
                .collect(),
        ))
    }

    fn heap(&self) -> Option<Arc<dyn HeapValues>> {
        Some(self.0.clone())
    }
}

/// One Bash heap, with the closed form.
struct BashHeap {
    game: Arc<Bash>,
    heap: u64,
}

impl BashHeap {
    fn to(&self, m: u64) -> ComponentMove {
        let parts: Vec<ComponentRef> = if m == 0 {
            Vec::new()
        } else {
            vec![Arc::new(BashHeap {
                game: self.game.clone(),
                heap: m,
            })]
        };
        ComponentMove {
            text: format!("{} -> {}", self.heap, m),
            parts,
        }
    }
}

impl fmt::Display for BashHeap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.heap)
    }
}

impl Component for BashHeap {
    fn game(&self) -> String {
        self.game.spec()
    }

    fn to_json(&self) -> Json {
        Json::from(self.heap)
    }

    fn nim_value(&self) -> Result<NimValue> {
        Ok(NimValue::Finite(self.game.value(self.heap)))
    }

    fn options(&self, limit: usize) -> Result<Vec<ComponentMove>> {
        let most = self.game.m.min(self.heap);
        if most > limit as u64 {
            return Err(Error::Limit(format!(
                "a heap of {} in {} has more than {limit} options to list",
                self.heap,
                self.game.spec()
            )));
        }
        Ok((1..=most).map(|t| self.to(self.heap - t)).collect())
    }

    fn options_with_value(&self, target: u64, _limit: usize) -> Result<Vec<ComponentMove>> {
        // The options are the heaps n − min(M, n) ..= n − 1, fewer than M + 1 of them, so at
        // most one has each value: the largest m ≤ n − 1 with m ≡ target.
        let n = self.heap;
        let lowest = n - self.game.m.min(n);
        let m = match self.game.m.checked_add(1) {
            Some(q) if target < q && target < n => target + (n - 1 - target) / q * q,
            None if target < n => target,
            _ => return Ok(Vec::new()),
        };
        Ok(if m >= lowest {
            vec![self.to(m)]
        } else {
            Vec::new()
        })
    }
}

/// The `bash:M`, `sub:S` and `allbut:S` specs.
pub struct SubtractionFamily;

impl Family for SubtractionFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        vec![
            CatalogEntry {
                spec: "bash:M",
                params: "M ≥ 1: the most tokens a move takes",
                position: "heap sizes",
                summary: "Bash: take 1 to M tokens from one heap; G(n) = n mod (M+1)",
                example: "bash:3 10 7",
            },
            CatalogEntry {
                spec: "sub:S",
                params: "S: the amounts a move may take, numbers and ranges (1-3,7); 0 is not allowed",
                position: "heap sizes",
                summary: "subtraction game: take exactly s tokens for some s in S; periods certified after n0+p+max(S) values",
                example: "sub:1,3,4 10 12",
            },
            CatalogEntry {
                spec: "allbut:S",
                params: "S: the amounts a move may not take, numbers and ranges; 0 is not allowed",
                position: "heap sizes",
                summary: "take any positive number of tokens except those in S; periods are never certified",
                example: "allbut:1,2 10",
            },
        ]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        if !matches!(name, "bash" | "sub" | "allbut") {
            return None;
        }
        let Some(params) = params else {
            return Some(Err(Error::spec(
                spec,
                format!("{name} needs parameters, as in {name}:3"),
            )));
        };
        Some(build(spec, name, params))
    }
}

fn build(spec: &str, name: &str, params: &str) -> Result<Arc<dyn GameDef>> {
    let bad = |reason: String| Error::spec(spec, reason);
    match name {
        "bash" => {
            let m = parse_u64(params, "M").map_err(bad)?;
            if m == 0 {
                return Err(bad("M must be at least 1".into()));
            }
            Ok(Arc::new(BashGame(Arc::new(Bash { m }))))
        }
        "sub" => {
            let set = parse_set(params, "move").map_err(bad)?;
            let code = Code::subtraction(&set).map_err(bad)?;
            Ok(Arc::new(HeapGame::new(
                format!("sub:{}", set_text(&set)),
                Arc::new(code),
            )))
        }
        _ => {
            let set = parse_set(params, "excluded move").map_err(bad)?;
            let code = Code::all_but(&set).map_err(bad)?;
            Ok(Arc::new(HeapGame::new(
                format!("allbut:{}", set_text(&set)),
                Arc::new(code),
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::testing::{assert_matches_brute_force, brute_force_values, values_of};
    use crate::heap::HeapRules;
    use crate::spec::parse_game;
    use proptest::prelude::*;

    #[test]
    fn bash_closed_form_matches_the_engine_and_brute_force() {
        for m in 1..6 {
            let code = bash_code(m);
            let engine = values_of(&code, 60);
            let brute = brute_force_values(&code, 60);
            let bash = Bash { m };
            for n in 0..=60 {
                assert_eq!(engine[n as usize], bash.value(n), "bash:{m} heap {n}");
                assert_eq!(brute[n as usize], bash.value(n));
            }
            assert_eq!(
                bash.periodicity().map(|p| (p.preperiod, p.period)),
                Some((0, m + 1))
            );
            // The engine certifies the same period at the same heap.
            let game = HeapGame::new("x", Arc::new(code));
            match game.solver().period(1000, &()).unwrap() {
                PeriodSearch::Certified(p) => assert_eq!(Some(p), bash.periodicity()),
                other => panic!("bash:{m} not certified: {other:?}"),
            }
        }
    }

    #[test]
    fn bash_winning_moves_match_the_listed_options() {
        for m in 1..5 {
            let bash = Arc::new(Bash { m });
            for heap in 1..25 {
                let h = BashHeap {
                    game: bash.clone(),
                    heap,
                };
                for target in 0..8 {
                    let fast: Vec<String> = h
                        .options_with_value(target, 100)
                        .unwrap()
                        .into_iter()
                        .map(|o| o.text)
                        .collect();
                    let slow: Vec<String> = h
                        .options(100)
                        .unwrap()
                        .into_iter()
                        .filter(|o| {
                            crate::analysis::parts_value(&o.parts).unwrap()
                                == NimValue::Finite(target)
                        })
                        .map(|o| o.text)
                        .collect();
                    assert_eq!(fast, slow, "bash:{m} heap {heap} target {target}");
                }
            }
        }
        let huge = BashHeap {
            game: Arc::new(Bash { m: u64::MAX }),
            heap: u64::MAX,
        };
        assert_eq!(huge.nim_value().unwrap(), NimValue::Finite(u64::MAX));
        assert_eq!(
            huge.options_with_value(5, 10).unwrap()[0].text,
            format!("{} -> 5", u64::MAX)
        );
    }

    #[test]
    fn specs_are_canonical_and_malformed_ones_are_errors() {
        assert_eq!(parse_game("sub:4,1,3").unwrap().spec(), "sub:1,3,4");
        assert_eq!(parse_game("sub:1-3,7,8").unwrap().spec(), "sub:1-3,7,8");
        assert_eq!(parse_game("allbut:2").unwrap().spec(), "allbut:2");
        assert_eq!(parse_game("bash:3").unwrap().spec(), "bash:3");
        for bad in [
            "sub:",
            "sub:0",
            "sub:0,1",
            "sub",
            "sub:x",
            "sub:1-99999999999",
            "allbut:0",
            "allbut:",
            "bash:0",
            "bash:",
            "bash",
            "bash:99999999999999999999",
            "bash:-1",
            "sub:99999999999999999999",
            "sub:18446744073709551615",
        ] {
            assert!(
                matches!(parse_game(bad), Err(Error::Spec { .. })),
                "{bad} should be a spec error"
            );
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
