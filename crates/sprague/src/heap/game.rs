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
/// assert_eq!(kayles.describe_move(&vec![3], &vec![1, 1]), "3 → 1 + 1");
/// let pins = kayles.as_pins();
/// assert_eq!(pins.describe_move(&vec![7], &vec![2, 3]), "knock down pins 3–4 (7 → 2 + 3)");
/// assert_eq!(pins.describe_move(&vec![3], &vec![1, 1]), "knock down pin 2 (3 → 1 + 1)");
/// # Ok::<(), sprague::Error>(())
/// ```
#[derive(Clone)]
pub struct HeapGame {
    solver: Arc<HeapSolver>,
    pins: bool,
}

impl HeapGame {
    /// The game `spec` with these rules.
    pub fn new(spec: impl Into<String>, rules: Arc<dyn HeapRules>) -> Self {
        HeapGame {
            solver: Arc::new(HeapSolver::new(spec, rules)),
            pins: false,
        }
    }

    /// The same game, whose solver stops its computations when `budget` is spent.
    pub fn with_budget(self, budget: crate::budget::Budget) -> Self {
        let solver = HeapSolver::new(self.solver.spec(), self.solver.rules().clone());
        HeapGame {
            solver: Arc::new(solver.with_budget(budget)),
            pins: self.pins,
        }
    }

    /// The same game read as rows of pins (Kayles): a move knocks down pins, and
    /// [`Notation::describe_move`] says which (`knock down pins 3–4 (7 → 2 + 3)`).
    pub fn as_pins(mut self) -> Self {
        self.pins = true;
        self
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

    /// For a heap past its game's certified preperiod, the period that gives its value: `n ≡
    /// m (mod p)` with m in the first period, so G(n) = G(m).
    fn explain(&self, heaps: &Vec<u64>) -> Option<String> {
        let [n] = heaps[..] else {
            return None;
        };
        let rules = self.solver.rules();
        if rules.closed_form(n).is_some() {
            return None;
        }
        let g = self.solver.nim_value(n).ok()?;
        let p = self.solver.periodicity()?;
        if n < p.preperiod + p.period {
            return None;
        }
        let m = p.preperiod + (n - p.preperiod) % p.period;
        Some(format!(
            "its values are periodic, G(n + {}) = G(n) for every n ≥ {} (certified with the values up to heap {}); {n} = {m} + {}·{}, so G({n}) = G({m}) = {g}",
            p.period,
            p.preperiod,
            p.certified_at,
            (n - m) / p.period,
            p.period
        ))
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

    /// `7 → 3`, `7 → 2 + 3`, `7 → 0`; for rows of pins, the pins knocked down, counted from
    /// the left: `knock down pins 3–4 (7 → 2 + 3)`.
    fn describe_move(&self, from: &Vec<u64>, to: &Vec<u64>) -> String {
        let arrow = format!("{} → {}", write_numbers(from).replace(' ', " + "), {
            let left: Vec<String> = to.iter().map(u64::to_string).collect();
            if left.is_empty() {
                "0".to_string()
            } else {
                left.join(" + ")
            }
        });
        match (self.pins, &from[..], &to[..]) {
            (true, [n], left) if left.len() <= 2 && left.iter().sum::<u64>() < *n => {
                // The pins left of the gap stay as the first row, those right of it as the
                // second; a single row left is the pins before the gap.
                let first = left.first().copied().unwrap_or(0);
                let down = n - left.iter().sum::<u64>();
                let pins = if down == 1 {
                    format!("pin {}", first + 1)
                } else {
                    format!("pins {}–{}", first + 1, first + down)
                };
                format!("knock down {pins} ({arrow})")
            }
            _ => arrow,
        }
    }

    fn part_noun(&self) -> &'static str {
        if self.pins {
            "row"
        } else {
            "heap"
        }
    }

    fn layout(&self) -> Layout {
        Layout::Heaps
    }
}
