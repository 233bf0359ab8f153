//! Coin-turning games as one family: a row of coins numbered from 1, some heads; a move flips a
//! set of coins whose rightmost coin is heads (it goes to tails), and the rule of the game says
//! which sets are allowed. The value of a position is the XOR of the values of its heads, so
//! each head is one [`Component`].
//!
//! | spec | a move from head n flips | G(n) |
//! |---|---|---|
//! | `ruler` | a run m..=n of consecutive coins | the largest power of 2 dividing n |
//! | `ruler:K` | a run of at most K coins | lowbit(((n − 1) mod h) + 1), h = the largest power of 2 ≤ K |
//! | `turtles` | n, and at most one other coin | n |
//! | `mock-turtles` | n, and at most two other coins | the (n−1)-th odious number (odd popcount) |
//!
//! The XOR of the values of the run m..n−1 in the ruler game is gray(n−1) ⊕ gray(m−1) (the
//! XOR of lowbit(1), …, lowbit(j) is the Gray code j ⊕ (j >> 1)), so the run with a given value is
//! found by inverting the Gray code.
//!
//! Flipping a coin that is already heads makes it tails. As components, a move replaces head n
//! by heads at the other flipped coins; two heads on one coin cancel (their values are equal,
//! so the XOR is unchanged), and [`CoinGame`]'s positions drop such pairs when they are shown.

use crate::analysis::{Component, ComponentMove, ComponentRef, GameDef, Parsed};
use crate::error::{Error, Result};
use crate::game::{Impartial, NimValue};
use crate::spec::{parse_u64, CatalogEntry, Family};
use serde_json::Value as Json;
use std::fmt;
use std::sync::Arc;

/// Which sets of coins a move may flip, besides the head it turns to tails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CoinRule {
    /// Any run of consecutive coins ending at the head.
    Ruler,
    /// A run of at most this many coins (at least 1).
    RulerBounded(u64),
    /// The head alone, or the head and one coin to its left.
    Turtles,
    /// The head and at most two coins to its left.
    MockTurtles,
    /// The head and exactly one coin to its left, less than this many places away if bounded.
    /// G(n) = n − 1 (or (n − 1) mod W): one side of the corner-flipping game.
    Twins(Option<u64>),
}

/// The Gray code of `j`: also the XOR of lowbit(1), …, lowbit(j).
const fn gray(j: u64) -> u64 {
    j ^ (j >> 1)
}

/// The inverse of [`gray`].
const fn gray_inverse(mut g: u64) -> u64 {
    let mut shift = 1;
    while shift < 64 {
        g ^= g >> shift;
        shift <<= 1;
    }
    g
}

/// The period h of `ruler:K`: the largest power of 2 at most K.
fn bounded_period(k: u64) -> u128 {
    1u128 << (63 - k.max(1).leading_zeros())
}

/// gray(h) for a power of two h ≤ 2^63: the XOR of one period of `ruler:K` values.
fn gray_h(h: u128) -> u64 {
    (h ^ (h >> 1)) as u64
}

/// The XOR of the `ruler:K` values of coins 1..=j, with period h.
fn bounded_prefix(h: u128, j: u64) -> u64 {
    let j = u128::from(j);
    let periods = if (j / h) % 2 == 1 { gray_h(h) } else { 0 };
    periods ^ gray((j % h) as u64)
}

/// The `k`-th odious number (0-based): 1, 2, 4, 7, 8, 11, …
const fn odious(k: u64) -> u64 {
    2 * k + (k.count_ones() as u64 + 1) % 2
}

impl CoinRule {
    /// The spec of the game, e.g. `ruler:3`.
    pub fn spec(self) -> String {
        match self {
            CoinRule::Ruler => "ruler".into(),
            CoinRule::RulerBounded(k) => format!("ruler:{k}"),
            CoinRule::Turtles => "turtles".into(),
            CoinRule::MockTurtles => "mock-turtles".into(),
            CoinRule::Twins(None) => "twins".into(),
            CoinRule::Twins(Some(w)) => format!("twins:{w}"),
        }
    }

    /// The nim value of one head at coin `n` (1-based), by the closed form.
    ///
    /// ```
    /// use sprague::games::coins::CoinRule;
    /// assert_eq!(CoinRule::Ruler.value(12), 4);
    /// assert_eq!(CoinRule::RulerBounded(5).value(12), 4); // h = 4: lowbit(3 + 1)
    /// assert_eq!(CoinRule::MockTurtles.value(4), 7);
    /// ```
    pub fn value(self, n: u64) -> u64 {
        debug_assert!(n >= 1, "coins are numbered from 1");
        match self {
            CoinRule::Ruler => 1 << n.trailing_zeros(),
            CoinRule::RulerBounded(k) => {
                let m = (u128::from(n) - 1) % bounded_period(k) + 1;
                1 << m.trailing_zeros()
            }
            CoinRule::Turtles => n,
            CoinRule::MockTurtles => odious(n - 1),
            CoinRule::Twins(None) => n - 1,
            CoinRule::Twins(Some(w)) => (n - 1) % w,
        }
    }

    /// How many options a head at coin `n` has (saturating).
    pub fn option_count(self, n: u64) -> u64 {
        match self {
            CoinRule::Ruler => n,
            CoinRule::RulerBounded(k) => n.min(k),
            CoinRule::Turtles => n,
            CoinRule::MockTurtles => {
                let m = n - 1;
                1 + m + m.saturating_mul(m.saturating_sub(1)) / 2
            }
            CoinRule::Twins(None) => n - 1,
            CoinRule::Twins(Some(w)) => (n - 1).min(w - 1),
        }
    }

    /// Every set of other coins (left of `n`, ascending) that a move from head `n` may flip.
    /// Brute force: the caller bounds `n` (see [`CoinRule::option_count`]).
    pub fn flip_sets(self, n: u64) -> Vec<Vec<u64>> {
        match self {
            CoinRule::Ruler => (1..=n).map(|m| (m..n).collect()).collect(),
            CoinRule::RulerBounded(k) => (n.saturating_sub(k - 1).max(1)..=n)
                .map(|m| (m..n).collect())
                .collect(),
            CoinRule::Turtles => std::iter::once(Vec::new())
                .chain((1..n).map(|m| vec![m]))
                .collect(),
            CoinRule::MockTurtles => {
                let mut out = vec![Vec::new()];
                for a in 1..n {
                    out.push(vec![a]);
                    for b in a + 1..n {
                        out.push(vec![a, b]);
                    }
                }
                out
            }
            CoinRule::Twins(bound) => {
                let lo = bound.map_or(1, |w| n.saturating_sub(w - 1).max(1));
                (lo..n).map(|m| vec![m]).collect()
            }
        }
    }

    /// The sets of other coins that a move from head `n` may flip so that they have XOR value
    /// `target`, from the closed form (no listing of the options).
    ///
    /// # Errors
    /// [`Error::Limit`] when a set or the list would exceed `limit`.
    pub fn flip_sets_with_value(self, n: u64, target: u64, limit: usize) -> Result<Vec<Vec<u64>>> {
        let too_many = |what: &str| {
            Error::Limit(format!(
                "the {what} from coin {n} to value {target} has more than {limit} coins; too large to list"
            ))
        };
        let run = |j: u64| -> Result<Vec<Vec<u64>>> {
            // Flip coins j+1..n: the others are j+1..n-1.
            if n - 1 - j > limit as u64 {
                return Err(too_many("run"));
            }
            Ok(vec![(j + 1..n).collect()])
        };
        match self {
            CoinRule::Ruler => {
                let j = gray_inverse(gray(n - 1) ^ target);
                if j < n {
                    run(j)
                } else {
                    Ok(Vec::new())
                }
            }
            CoinRule::RulerBounded(k) => {
                // The others flipped are j+1..n-1 with n - k ≤ j < n, of XOR P(n-1) ⊕ P(j).
                let h = bounded_period(k);
                let wanted = bounded_prefix(h, n - 1) ^ target;
                // Within one period P takes the values gray(r) ⊕ (gray(h) if the period's index
                // is odd): [0, h) for even periods, [0, h) ⊕ gray(h) for odd ones.
                let (r, odd) = if u128::from(wanted) < h {
                    (gray_inverse(wanted), 0)
                } else if u128::from(wanted ^ gray_h(h)) < h {
                    (gray_inverse(wanted ^ gray_h(h)), 1)
                } else {
                    return Ok(Vec::new());
                };
                // The largest j ≤ n - 1 with j ≡ r + odd·h (mod 2h); the window is shorter than 2h.
                let residue = u128::from(r) + odd * h;
                let top = u128::from(n - 1);
                let back = (top + 2 * h - residue) % (2 * h);
                if back > top {
                    return Ok(Vec::new());
                }
                let j = (top - back) as u64;
                if j >= n.saturating_sub(k) {
                    run(j)
                } else {
                    Ok(Vec::new())
                }
            }
            CoinRule::Turtles => Ok(match target {
                0 => vec![Vec::new()],
                t if t < n => vec![vec![t]],
                _ => Vec::new(),
            }),
            CoinRule::MockTurtles => {
                let coin_of = |v: u64| (v >> 1) + 1; // the coin of odious value v
                if target == 0 {
                    return Ok(vec![Vec::new()]);
                }
                if target.count_ones() % 2 == 1 {
                    let m = coin_of(target);
                    return Ok(if m < n { vec![vec![m]] } else { Vec::new() });
                }
                // An evil target is the XOR of two odious values.
                if n > limit as u64 {
                    return Err(Error::Limit(format!(
                        "listing the pairs of coins below {n} with value {target} needs more than {limit} steps"
                    )));
                }
                let mut out = Vec::new();
                for a in 1..n {
                    let b = coin_of(odious(a - 1) ^ target);
                    if a < b && b < n {
                        out.push(vec![a, b]);
                    }
                }
                Ok(out)
            }
            CoinRule::Twins(None) => Ok(if target + 1 < n {
                vec![vec![target + 1]]
            } else {
                Vec::new()
            }),
            CoinRule::Twins(Some(w)) => {
                if target >= w {
                    return Ok(Vec::new());
                }
                // The coin m < n, at most w − 1 places away, with (m − 1) mod w = target.
                let d = ((n - 1) % w + w - target) % w;
                Ok(if d != 0 && d < n {
                    vec![vec![n - d]]
                } else {
                    Vec::new()
                })
            }
        }
    }
}

/// Writes coins as ascending runs, e.g. `1-3,7`.
pub(crate) fn runs_text(coins: &[u64]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < coins.len() {
        let mut j = i;
        while j + 1 < coins.len() && coins[j + 1] == coins[j] + 1 {
            j += 1;
        }
        out.push(if j > i + 1 {
            format!("{}-{}", coins[i], coins[j])
        } else if j == i + 1 {
            format!("{},{}", coins[i], coins[j])
        } else {
            coins[i].to_string()
        });
        i = j + 1;
    }
    out.join(",")
}

/// Keeps the values that occur an odd number of times, sorted: heads on one coin cancel.
pub(crate) fn cancel_pairs<T: Ord>(mut items: Vec<T>) -> Vec<T> {
    items.sort();
    let mut out: Vec<T> = Vec::with_capacity(items.len());
    for item in items {
        if out.last() == Some(&item) {
            out.pop();
        } else {
            out.push(item);
        }
    }
    out
}

/// One head of a coin-turning game, at coin `n` (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coin {
    /// The rule.
    pub rule: CoinRule,
    /// The coin, from 1.
    pub n: u64,
}

impl Coin {
    fn flip(&self, others: Vec<u64>) -> ComponentMove {
        let mut all = others.clone();
        all.push(self.n);
        ComponentMove {
            text: format!("flip {}", runs_text(&all)),
            parts: others
                .into_iter()
                .map(|m| {
                    Arc::new(Coin {
                        rule: self.rule,
                        n: m,
                    }) as ComponentRef
                })
                .collect(),
        }
    }
}

impl fmt::Display for Coin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.n)
    }
}

impl Component for Coin {
    fn game(&self) -> String {
        self.rule.spec()
    }

    fn to_json(&self) -> Json {
        Json::from(self.n)
    }

    fn nim_value(&self) -> Result<NimValue> {
        Ok(NimValue::Finite(self.rule.value(self.n)))
    }

    fn options(&self, limit: usize) -> Result<Vec<ComponentMove>> {
        if self.rule.option_count(self.n) > limit as u64 || self.n > limit as u64 {
            return Err(Error::Limit(format!(
                "a head at coin {} of {} has more than {limit} options to list",
                self.n,
                self.rule.spec()
            )));
        }
        Ok(self
            .rule
            .flip_sets(self.n)
            .into_iter()
            .map(|s| self.flip(s))
            .collect())
    }

    fn options_with_value(&self, target: u64, limit: usize) -> Result<Vec<ComponentMove>> {
        Ok(self
            .rule
            .flip_sets_with_value(self.n, target, limit)?
            .into_iter()
            .map(|s| self.flip(s))
            .collect())
    }
}

/// A coin-turning game chosen by its rule.
pub struct CoinGame {
    rule: CoinRule,
}

impl CoinGame {
    /// The game with this rule.
    pub fn new(rule: CoinRule) -> Self {
        CoinGame { rule }
    }
}

impl GameDef for CoinGame {
    fn spec(&self) -> String {
        self.rule.spec()
    }

    fn parse_position(&self, args: &[String]) -> Result<Parsed> {
        let spec = self.spec();
        let mut coins = Vec::with_capacity(args.len());
        for arg in args {
            let n = parse_u64(arg, "coin").map_err(|r| Error::position(&spec, r))?;
            if n == 0 {
                return Err(Error::position(&spec, "coins are numbered from 1"));
            }
            coins.push(n);
        }
        Ok(Parsed::Parts(
            cancel_pairs(coins)
                .into_iter()
                .map(|n| Arc::new(Coin { rule: self.rule, n }) as ComponentRef)
                .collect(),
        ))
    }

    /// Sorts the heads and cancels two heads on one coin.
    fn normalize(&self, parts: Vec<ComponentRef>) -> Vec<ComponentRef> {
        let coins: Vec<u64> = parts.iter().filter_map(|p| p.to_json().as_u64()).collect();
        cancel_pairs(coins)
            .into_iter()
            .map(|n| Arc::new(Coin { rule: self.rule, n }) as ComponentRef)
            .collect()
    }

    /// The heads, ascending, with pairs on one coin cancelled.
    fn position_json(&self, parts: &[ComponentRef]) -> Json {
        let coins: Vec<u64> = parts.iter().filter_map(|p| p.to_json().as_u64()).collect();
        Json::from(cancel_pairs(coins))
    }
}

/// The row of coins of one rule as an [`Impartial`] game on bitmasks (bit n − 1 = coin n is
/// heads): the brute-force oracle for the closed forms. Rows of up to 63 coins.
#[derive(Clone, Copy, Debug)]
pub struct CoinRow(pub CoinRule);

impl Impartial for CoinRow {
    type Position = u64;

    fn options(&self, row: &u64) -> Vec<u64> {
        let mut out = Vec::new();
        for n in 1..=64 - row.leading_zeros() as u64 {
            if row >> (n - 1) & 1 == 1 {
                for set in self.0.flip_sets(n) {
                    let mask = set.iter().fold(1u64 << (n - 1), |m, c| m | 1 << (c - 1));
                    out.push(row ^ mask);
                }
            }
        }
        out
    }
}

/// The `ruler`, `ruler:K`, `turtles` and `mock-turtles` specs.
pub struct CoinFamily;

impl Family for CoinFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        let position = "1-based positions of the heads (a coin given twice is tails)";
        vec![
            CatalogEntry {
                spec: "ruler",
                params: "",
                position,
                summary: "Ruler: flip any run of consecutive coins whose rightmost coin is heads; G(n) = the largest power of 2 dividing n",
                example: "ruler 5 8 10 11 13",
            },
            CatalogEntry {
                spec: "ruler:K",
                params: "K ≥ 1: the longest run a move may flip",
                position,
                summary: "Ruler with runs of at most K coins; G(n) = lowbit(((n-1) mod h) + 1), h the largest power of 2 ≤ K",
                example: "ruler:3 1 4 6",
            },
            CatalogEntry {
                spec: "turtles",
                params: "",
                position,
                summary: "Turning Turtles: flip a head, and optionally one coin to its left; G(n) = n (it is Nim)",
                example: "turtles 3 5 6",
            },
            CatalogEntry {
                spec: "mock-turtles",
                params: "",
                position,
                summary: "Mock Turtles: flip a head and up to two coins to its left; G(n) = the (n-1)-th odious number 1, 2, 4, 7, 8, …",
                example: "mock-turtles 2 5 9",
            },
        ]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        let rule = match (name, params) {
            ("ruler", None) => Ok(CoinRule::Ruler),
            ("ruler", Some(p)) => match parse_u64(p, "the run bound K") {
                Ok(0) => Err(Error::spec(spec, "the run bound K must be at least 1")),
                Ok(k) => Ok(CoinRule::RulerBounded(k)),
                Err(r) => Err(Error::spec(spec, r)),
            },
            ("turtles", None) => Ok(CoinRule::Turtles),
            ("mock-turtles", None) => Ok(CoinRule::MockTurtles),
            ("turtles" | "mock-turtles", Some(_)) => {
                Err(Error::spec(spec, format!("{name} takes no parameters")))
            }
            _ => return None,
        };
        Some(rule.map(|r| Arc::new(CoinGame::new(r)) as Arc<dyn GameDef>))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{self, parts_value};
    use crate::game::Play;
    use crate::solve::NimValues;
    use crate::spec::parse_position;
    use proptest::prelude::*;

    const RULES: [CoinRule; 9] = [
        CoinRule::Ruler,
        CoinRule::RulerBounded(1),
        CoinRule::RulerBounded(2),
        CoinRule::RulerBounded(3),
        CoinRule::RulerBounded(6),
        CoinRule::Turtles,
        CoinRule::MockTurtles,
        CoinRule::Twins(None),
        CoinRule::Twins(Some(3)),
    ];

    #[test]
    fn closed_forms_match_brute_force_on_single_coins() {
        for rule in RULES {
            let mut solver = NimValues::new(CoinRow(rule));
            for n in 1..=13u64 {
                assert_eq!(
                    solver.nim_value(&(1 << (n - 1))).unwrap(),
                    rule.value(n),
                    "{rule:?} coin {n}"
                );
            }
        }
    }

    #[test]
    fn gray_codes_give_the_xor_of_ruler_values() {
        let mut xor = 0;
        for j in 1..200u64 {
            xor ^= CoinRule::Ruler.value(j);
            assert_eq!(gray(j), xor);
            assert_eq!(gray_inverse(gray(j)), j);
        }
        assert_eq!(gray_inverse(gray(u64::MAX - 5)), u64::MAX - 5);
        for k in [1, 2, 3, 5, 8, 13] {
            let h = bounded_period(k);
            let mut xor = 0;
            for j in 1..100u64 {
                xor ^= CoinRule::RulerBounded(k).value(j);
                assert_eq!(bounded_prefix(h, j), xor, "ruler:{k} prefix {j}");
            }
        }
    }

    #[test]
    fn options_with_value_match_the_listed_options() {
        for rule in RULES {
            for n in 1..=20u64 {
                let coin = Coin { rule, n };
                let options = coin.options(10_000).unwrap();
                assert_eq!(options.len() as u64, rule.option_count(n), "{rule:?} {n}");
                for target in 0..40 {
                    let mut fast: Vec<String> = coin
                        .options_with_value(target, 10_000)
                        .unwrap()
                        .into_iter()
                        .map(|m| m.text)
                        .collect();
                    let mut slow: Vec<String> = options
                        .iter()
                        .filter(|m| parts_value(&m.parts).unwrap() == NimValue::Finite(target))
                        .map(|m| m.text.clone())
                        .collect();
                    fast.sort();
                    slow.sort();
                    assert_eq!(fast, slow, "{rule:?} coin {n} target {target}");
                }
            }
        }
    }

    fn row_of(coins: &[u64]) -> u64 {
        coins.iter().fold(0, |m, c| m ^ 1 << (c - 1))
    }

    #[test]
    fn value_ruler_5_8_10_11_13_finds_every_winning_move() {
        let position = parse_position(&["ruler", "5", "8", "10", "11", "13"]).unwrap();
        let report = analysis::value(&position, Play::Normal).unwrap();
        assert_eq!(report.nim_value, Some(1 ^ 8 ^ 2 ^ 1 ^ 1));
        let mut found: Vec<u64> = report
            .winning_moves
            .iter()
            .map(|m| {
                let heads: Vec<u64> = serde_json::from_value(m.position.clone()).unwrap();
                row_of(&heads)
            })
            .collect();
        found.sort();
        // Brute force over the whole row of 13 coins.
        let mut solver = NimValues::new(CoinRow(CoinRule::Ruler));
        let mut expected = solver.winning_moves(&row_of(&[5, 8, 10, 11, 13])).unwrap();
        expected.sort();
        assert_eq!(found, expected);
        let texts: Vec<&str> = report
            .winning_moves
            .iter()
            .map(|m| m.text.as_str())
            .collect();
        assert_eq!(texts, ["flip 6-8", "flip 8-10", "flip 7-11", "flip 1-13"]);
        assert_eq!(
            report.winning_moves[1].position,
            serde_json::json!([5, 9, 11, 13]),
            "flipping head 8 again turns it to tails"
        );
    }

    #[test]
    fn huge_coins_answer_from_the_closed_form() {
        let big = (1u64 << 60) + 3 * (1 << 20);
        let position = parse_position(&["ruler".to_string(), big.to_string(), "1".into()]).unwrap();
        let report = analysis::value(&position, Play::Normal).unwrap();
        assert_eq!(report.nim_value, Some((1 << 20) ^ 1));
        assert_eq!(report.winning_moves.len(), 1);
        let position = parse_position(&["turtles", "18446744073709551615", "7"]).unwrap();
        let report = analysis::value(&position, Play::Normal).unwrap();
        assert_eq!(report.winning_moves[0].text, "flip 7,18446744073709551615");
    }

    #[test]
    fn bad_positions_and_specs_are_errors() {
        assert!(parse_position(&["ruler", "0"]).is_err());
        assert!(parse_position(&["ruler", "x"]).is_err());
        assert!(parse_position(&["ruler:0", "1"]).is_err());
        assert!(parse_position(&["turtles:3", "1"]).is_err());
        let p = parse_position(&["ruler", "4", "4", "2"]).unwrap();
        assert_eq!(p.to_json(), serde_json::json!([2]));
    }

    proptest! {
        #[test]
        fn rows_are_the_xor_of_their_coins(rule_index in 0..RULES.len(), row in 0u64..1 << 11) {
            let rule = RULES[rule_index];
            let mut solver = NimValues::new(CoinRow(rule));
            let xor = (1..=11).filter(|n| row >> (n - 1) & 1 == 1).fold(0, |x, n| x ^ rule.value(n));
            prop_assert_eq!(solver.nim_value(&row).unwrap(), xor);
        }

        #[test]
        fn winning_moves_reach_p_positions(rule_index in 0..RULES.len(), row in 1u64..1 << 12) {
            let rule = RULES[rule_index];
            let heads: Vec<String> = (1..=12u64).filter(|n| row >> (n - 1) & 1 == 1).map(|n| n.to_string()).collect();
            let mut words = vec![rule.spec()];
            words.extend(heads);
            if matches!(rule, CoinRule::Twins(_)) {
                return Ok(()); // not a spec of its own
            }
            let report = analysis::value(&parse_position(&words).unwrap(), Play::Normal).unwrap();
            let mut solver = NimValues::new(CoinRow(rule));
            let mut found: Vec<u64> = report.winning_moves.iter().map(|m| {
                let heads: Vec<u64> = serde_json::from_value(m.position.clone()).unwrap();
                row_of(&heads)
            }).collect();
            found.sort();
            let mut expected = solver.winning_moves(&row).unwrap();
            expected.sort();
            prop_assert_eq!(found, expected);
        }
    }
}
