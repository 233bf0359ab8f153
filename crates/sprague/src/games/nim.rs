//! Nim: take any positive number of tokens from one heap. G(n) = n.

use crate::analysis::{Component, ComponentMove, ComponentRef, GameDef, Parsed};
use crate::error::{Error, Result};
use crate::game::{Impartial, NimValue};
use crate::heap::{HeapValues, PeriodSearch, Table};
use crate::progress::Progress;
use crate::spec::{parse_heaps, CatalogEntry, Family};
use serde_json::Value as Json;
use std::fmt;
use std::sync::Arc;

/// The rules of Nim on one heap, for the generic solvers.
#[derive(Clone, Copy, Debug, Default)]
pub struct Nim;

impl Impartial for Nim {
    type Position = u64;

    fn options(&self, heap: &u64) -> Vec<u64> {
        (0..*heap).collect()
    }
}

/// One Nim heap as a summand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NimHeap(pub u64);

impl fmt::Display for NimHeap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl NimHeap {
    fn to(self, n: u64) -> ComponentMove {
        let parts: Vec<ComponentRef> = if n == 0 {
            Vec::new()
        } else {
            vec![Arc::new(NimHeap(n))]
        };
        ComponentMove {
            text: format!("{} -> {}", self.0, n),
            parts,
        }
    }
}

impl Component for NimHeap {
    fn game(&self) -> String {
        "nim".into()
    }

    fn to_json(&self) -> Json {
        Json::from(self.0)
    }

    fn nim_value(&self) -> Result<NimValue> {
        Ok(NimValue::Finite(self.0))
    }

    fn options(&self, limit: usize) -> Result<Vec<ComponentMove>> {
        if self.0 > limit as u64 {
            return Err(Error::Limit(format!(
                "a Nim heap of {} has more than {limit} options to list",
                self.0
            )));
        }
        Ok((0..self.0).rev().map(|n| self.to(n)).collect())
    }

    fn options_with_value(&self, target: u64, _limit: usize) -> Result<Vec<ComponentMove>> {
        Ok(if target < self.0 {
            vec![self.to(target)]
        } else {
            Vec::new()
        })
    }

    fn misere_sj(&self) -> Result<bool> {
        // A heap of value 0 is empty: the SJ conditions hold trivially.
        Ok(true)
    }
}

struct NimGame;

impl GameDef for NimGame {
    fn spec(&self) -> String {
        "nim".into()
    }

    fn parse_position(&self, args: &[String]) -> Result<Parsed> {
        let heaps = parse_heaps("nim", args)?;
        Ok(Parsed::Parts(
            heaps
                .into_iter()
                .filter(|&h| h > 0)
                .map(|h| Arc::new(NimHeap(h)) as ComponentRef)
                .collect(),
        ))
    }

    fn heap(&self) -> Option<Arc<dyn HeapValues>> {
        Some(Arc::new(NimValues))
    }
}

struct NimValues;

impl HeapValues for NimValues {
    fn table(&self, to: u64, _progress: &dyn Progress) -> Result<Table> {
        Ok(Table {
            values: (0..=to).collect(),
            period: None,
        })
    }

    fn period(&self, max: u64, _progress: &dyn Progress) -> Result<PeriodSearch> {
        // G(n) = n is never periodic; it is arithmetic-periodic instead.
        Ok(PeriodSearch::NotCertified { checked_to: max })
    }
}

/// The `nim` spec.
pub struct NimFamily;

impl Family for NimFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        vec![CatalogEntry {
            spec: "nim",
            params: "",
            position: "heap sizes",
            summary: "Nim: take any positive number from one heap; G(n) = n",
            example: "nim 3 4 5",
        }]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        crate::spec::build_without_params(spec, name, params, "nim", || Arc::new(NimGame))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Sum;
    use crate::solve::NimValues as Solver;

    #[test]
    fn closed_form_matches_brute_force() {
        let mut solver = Solver::new(Nim);
        for n in 0..40 {
            assert_eq!(solver.nim_value(&n).unwrap(), n);
            assert_eq!(NimHeap(n).nim_value().unwrap(), NimValue::Finite(n));
        }
    }

    #[test]
    fn options_with_value_match_the_listed_options() {
        for n in 0..20u64 {
            for target in 0..25 {
                let fast: Vec<String> = NimHeap(n)
                    .options_with_value(target, 1000)
                    .unwrap()
                    .into_iter()
                    .map(|m| m.text)
                    .collect();
                let slow: Vec<String> = NimHeap(n)
                    .options(1000)
                    .unwrap()
                    .into_iter()
                    .filter(|m| {
                        crate::analysis::parts_value(&m.parts).unwrap() == NimValue::Finite(target)
                    })
                    .map(|m| m.text)
                    .collect();
                assert_eq!(fast, slow, "heap {n}, target {target}");
            }
        }
    }

    #[test]
    fn sums_of_small_heaps_match_the_generic_solver() {
        let mut solver = Solver::new(Sum(Nim));
        for a in 0..6 {
            for b in 0..6 {
                assert_eq!(solver.nim_value(&vec![a, b, 3]).unwrap(), a ^ b ^ 3);
            }
        }
    }
}
