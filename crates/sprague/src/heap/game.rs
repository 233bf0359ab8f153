//! A row of heaps under any [`HeapRules`], as a typed impartial game with its notation: every
//! heap family (Nim, subtraction games, take-and-break codes, Grundy's game, scripted heap
//! rules) is this one game over its own rules.

use super::{HeapRules, HeapSolver};
use crate::error::Result;
use crate::game::notation::ParseError;
use crate::game::notation::{parse_numbers, write_numbers};
use crate::game::{Game, Impartial, Layout, Listing, NimValue, Notation};
use serde_json::Value as Json;
use std::sync::Arc;

/// The most options of one heap that [`Impartial::try_options`] lists before it answers
/// [`crate::Error::Limit`].
pub const OPTION_LIMIT: usize = 100_000;

/// A heap game: positions are rows of nonempty heaps, a move changes one heap into the heaps
/// its rules leave, and each heap is an independent component.
///
/// ```
/// use sprague::game::{Impartial, Notation};
/// use sprague::heap::{Code, HeapGame};
/// use sprague::solve::NimValues;
/// use std::sync::Arc;
///
/// let kayles = HeapGame::new("kayles", Arc::new(Code::parse("0.77").unwrap()));
/// let row = kayles.parse_position(&["3", "4"]).unwrap();
/// assert_eq!(NimValues::new(kayles.clone()).nim_value(&row)?, 3 ^ 1);
/// assert_eq!(kayles.write_move(&vec![3], &vec![1, 1]), "3 -> 1+1");
/// # Ok::<(), sprague::Error>(())
/// ```
#[derive(Clone)]
pub struct HeapGame {
    solver: Arc<HeapSolver>,
}

impl HeapGame {
    /// The game `spec` with these rules.
    pub fn new(spec: impl Into<String>, rules: Arc<dyn HeapRules>) -> Self {
        HeapGame {
            solver: Arc::new(HeapSolver::new(spec, rules)),
        }
    }

    /// The same game, whose solver stops its computations when `budget` is spent.
    pub fn with_budget(self, budget: crate::budget::Budget) -> Self {
        let solver = HeapSolver::new(self.solver.spec(), self.solver.rules().clone());
        HeapGame {
            solver: Arc::new(solver.with_budget(budget)),
        }
    }

    /// The shared solver: the table, the period, and the values of single heaps.
    pub fn solver(&self) -> &Arc<HeapSolver> {
        &self.solver
    }

    /// The options of one heap, checked against [`OPTION_LIMIT`].
    fn heap_options(&self, n: u64) -> Result<Vec<Vec<u64>>> {
        self.solver.check_option_count(n, OPTION_LIMIT)?;
        let options = self.solver.rules().try_options(n)?;
        if options.len() > OPTION_LIMIT {
            return Err(crate::Error::Limit(format!(
                "a heap of {n} in {} has more than {OPTION_LIMIT} options to list",
                self.solver.spec()
            )));
        }
        Ok(options
            .into_iter()
            .map(|o| o.into_iter().filter(|&h| h > 0).collect())
            .collect())
    }
}

impl Game for HeapGame {
    /// The sizes of the heaps, none of them 0.
    type Position = Vec<u64>;
}

impl Impartial for HeapGame {
    /// Every option (empty when listing fails; see [`Impartial::try_options`]).
    fn options(&self, heaps: &Vec<u64>) -> Vec<Vec<u64>> {
        self.try_options(heaps).unwrap_or_default()
    }

    fn try_options(&self, heaps: &Vec<u64>) -> Result<Vec<Vec<u64>>> {
        let mut out = Vec::new();
        for (i, &n) in heaps.iter().enumerate() {
            for left in self.heap_options(n)? {
                let mut next = heaps[..i].to_vec();
                next.extend(left);
                next.extend_from_slice(&heaps[i + 1..]);
                out.push(next);
            }
        }
        Ok(out)
    }

    fn components(&self, heaps: &Vec<u64>) -> Vec<Vec<u64>> {
        heaps.iter().filter(|&&h| h > 0).map(|&h| vec![h]).collect()
    }

    fn join(&self, parts: Vec<Vec<u64>>) -> Option<Vec<u64>> {
        Some(parts.concat())
    }

    fn known_nim_value(&self, heaps: &Vec<u64>) -> Result<Option<NimValue>> {
        let mut x = 0;
        for &h in heaps {
            x ^= self.solver.nim_value(h)?;
        }
        Ok(Some(NimValue::Finite(x)))
    }

    fn options_with_nim_value(
        &self,
        heaps: &Vec<u64>,
        target: u64,
        limit: usize,
    ) -> Result<Option<Listing<Vec<u64>>>> {
        match heaps[..] {
            [n] => Ok(Some(
                self.solver
                    .options_with_value(n, target, limit)?
                    .map(|left| left.into_iter().filter(|&h| h > 0).collect()),
            )),
            _ => Ok(None),
        }
    }

    fn misere_sj(&self, _heaps: &Vec<u64>) -> Option<bool> {
        self.solver.rules().misere_sj()
    }

    fn heap_size(&self, heaps: &Vec<u64>) -> Option<u64> {
        match heaps[..] {
            [n] => Some(n),
            _ => None,
        }
    }
}

impl Notation for HeapGame {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<Vec<u64>, ParseError> {
        let mut heaps = parse_numbers(words, "heap size")?;
        heaps.retain(|&h| h > 0);
        Ok(heaps)
    }

    fn write_position(&self, heaps: &Vec<u64>) -> String {
        write_numbers(heaps)
    }

    fn position_json(&self, heaps: &Vec<u64>) -> Json {
        Json::from(heaps.clone())
    }

    /// `7 -> 2+3` (one heap left in two), `7 -> 0` (nothing left).
    fn write_move(&self, from: &Vec<u64>, to: &Vec<u64>) -> String {
        let left: Vec<String> = to.iter().map(u64::to_string).collect();
        let left = if left.is_empty() {
            "0".to_string()
        } else {
            left.join("+")
        };
        format!("{} -> {left}", write_numbers(from))
    }

    fn layout(&self) -> Layout {
        Layout::Heaps
    }
}
