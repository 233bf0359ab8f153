//! Wythoff's game: two heaps; take any positive number from one heap, or the same positive
//! number from both.
//!
//! The P-positions are the pairs (⌊kφ⌋, ⌊kφ⌋ + k), k ≥ 0, in either order (seed 004). We compute
//! ⌊kφ⌋ exactly in integers (see [`lower`]), so any pair of 64-bit heaps gets its outcome and its
//! winning moves at once. Nim values have no closed form; they come from a table for heaps up to
//! [`VALUE_LIMIT`], and only such positions can be summed with other games.

use crate::analysis::{
    Component, ComponentMove, ComponentRef, Evaluation, GameDef, Parsed, Standalone,
    StandaloneMove, OPTION_LIMIT,
};
use crate::error::{Error, Result};
use crate::game::{Impartial, NimValue, Outcome, Play};
use crate::spec::{parse_heaps, CatalogEntry, Family};
use serde_json::Value as Json;
use std::fmt;
use std::sync::{Arc, Mutex};

/// The largest heap for which nim values are computed (from a table of side `VALUE_LIMIT + 1`).
pub const VALUE_LIMIT: u64 = 512;

/// The rules of Wythoff's game, for the generic solvers.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wythoff;

impl Impartial for Wythoff {
    type Position = (u64, u64);

    fn options(&self, &(a, b): &(u64, u64)) -> Vec<(u64, u64)> {
        let mut out: Vec<(u64, u64)> = (0..a).map(|x| (x, b)).collect();
        out.extend((0..b).map(|y| (a, y)));
        out.extend((1..=a.min(b)).map(|t| (a - t, b - t)));
        out
    }
}

/// ⌊k(√5 − 2)⌋ for k < 2^64: the largest m with (m + 2k)² ≤ 5k², i.e. m(m + 4k) ≤ k².
fn sqrt5_fraction(k: u128) -> u128 {
    let square = k * k;
    let (mut lo, mut hi) = (0u128, k / 4);
    while lo < hi {
        let mid = hi - (hi - lo) / 2;
        let fits = mid
            .checked_add(4 * k)
            .and_then(|s| s.checked_mul(mid))
            .is_some_and(|p| p <= square);
        if fits {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// ⌊kφ⌋ with φ = (1 + √5)/2, exactly, for any `k` below 2^64.
///
/// ⌊kφ⌋ = ⌊(k + ⌊k√5⌋)/2⌋ and ⌊k√5⌋ = 2k + ⌊k(√5 − 2)⌋, an integer square root taken by
/// bisection on m(m + 4k) ≤ k², which fits in u128. No floating point is involved.
///
/// ```
/// use sprague::games::wythoff::lower;
/// assert_eq!((1..=8).map(lower).collect::<Vec<_>>(), vec![1, 3, 4, 6, 8, 9, 11, 12]);
/// assert_eq!(lower(u64::MAX as u128), 29_847_458_893_032_750_100);
/// ```
pub fn lower(k: u128) -> u128 {
    assert!(k <= u128::from(u64::MAX), "k must be below 2^64");
    (3 * k + sqrt5_fraction(k)) / 2
}

/// Whether (a, b) is a P-position: the player to move loses.
///
/// ```
/// use sprague::games::wythoff::is_p_position;
/// assert!(is_p_position(3, 5) && is_p_position(5, 3) && !is_p_position(4, 5));
/// ```
pub fn is_p_position(a: u64, b: u64) -> bool {
    let (small, large) = (a.min(b), a.max(b));
    lower(u128::from(large - small)) == u128::from(small)
}

/// The heap h' such that (h, h') is a P-position; every h has exactly one (it may exceed 2^64).
pub fn partner(h: u64) -> u128 {
    let h = u128::from(h);
    // The largest k with lower(k) <= h; lower(k) >= k so k <= h.
    let last_at_most = |f: &dyn Fn(u128) -> u128| {
        let (mut lo, mut hi) = (0u128, h);
        while lo < hi {
            let mid = hi - (hi - lo) / 2;
            if f(mid) <= h {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    };
    let k = last_at_most(&lower);
    if lower(k) == h {
        return h + k;
    }
    // Beatty complementarity: h is ⌊kφ²⌋ = lower(k) + k for exactly one k.
    let k = last_at_most(&|k| lower(k) + k);
    debug_assert_eq!(lower(k) + k, h);
    h - k
}

/// Every winning move from (a, b): the options that are P-positions (at most three: one per
/// heap, and one taking from both).
///
/// ```
/// use sprague::games::wythoff::winning_moves;
/// assert_eq!(winning_moves(4, 5), vec![(3, 5), (1, 2)]);
/// assert_eq!(winning_moves(3, 5), vec![]);
/// ```
pub fn winning_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    if is_p_position(a, b) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let pb = partner(b);
    if pb < u128::from(a) {
        out.push((pb as u64, b));
    }
    let pa = partner(a);
    if pa < u128::from(b) {
        out.push((a, pa as u64));
    }
    let d = a.abs_diff(b);
    let base = lower(u128::from(d));
    let small = u128::from(a.min(b));
    if base < small {
        let t = (small - base) as u64;
        out.push((a - t, b - t));
    }
    out
}

/// Nim values of Wythoff positions up to a side, grown on demand and shared.
static TABLE: Mutex<(usize, Vec<u16>)> = Mutex::new((0, Vec::new()));

/// The nim value of (a, b) from the table, or `None` past [`VALUE_LIMIT`].
pub fn nim_value(a: u64, b: u64) -> Option<u64> {
    if a.max(b) > VALUE_LIMIT {
        return None;
    }
    let need = a.max(b) as usize + 1;
    let mut table = TABLE.lock().unwrap_or_else(|e| e.into_inner());
    if table.0 < need {
        let side = need
            .next_power_of_two()
            .clamp(32, VALUE_LIMIT as usize + 1)
            .max(need);
        *table = (side, compute_table(side));
    }
    let side = table.0;
    Some(u64::from(table.1[a as usize * side + b as usize]))
}

/// G(a, b) for a, b < side: each value is the mex of its row, column and diagonal before it.
fn compute_table(side: usize) -> Vec<u16> {
    let width = 3 * side + 1;
    let mut row = vec![false; side * width];
    let mut column = vec![false; side * width];
    let mut diagonal = vec![false; 2 * side * width];
    let mut values = vec![0u16; side * side];
    for a in 0..side {
        for b in 0..side {
            let d = a + side - b;
            let mut g = 0;
            while row[a * width + g] || column[b * width + g] || diagonal[d * width + g] {
                g += 1;
            }
            values[a * side + b] = g as u16;
            row[a * width + g] = true;
            column[b * width + g] = true;
            diagonal[d * width + g] = true;
        }
    }
    values
}

fn move_text(from: (u64, u64), to: (u64, u64)) -> String {
    format!("{} {} -> {} {}", from.0, from.1, to.0, to.1)
}

fn pair_json(a: u64, b: u64) -> Json {
    Json::from(vec![a, b])
}

/// A Wythoff position with heaps up to [`VALUE_LIMIT`], as a summand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WythoffPair(pub u64, pub u64);

impl fmt::Display for WythoffPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.0, self.1)
    }
}

impl WythoffPair {
    fn to(self, next: (u64, u64)) -> ComponentMove {
        ComponentMove {
            text: move_text((self.0, self.1), next),
            parts: vec![Arc::new(WythoffPair(next.0, next.1))],
        }
    }
}

impl Component for WythoffPair {
    fn game(&self) -> String {
        "wythoff".into()
    }

    fn to_json(&self) -> Json {
        pair_json(self.0, self.1)
    }

    fn nim_value(&self) -> Result<NimValue> {
        nim_value(self.0, self.1)
            .map(NimValue::Finite)
            .ok_or_else(|| too_large(self.0, self.1))
    }

    fn options(&self, limit: usize) -> Result<Vec<ComponentMove>> {
        let count = self.0 + self.1 + self.0.min(self.1);
        if count > limit as u64 {
            return Err(Error::Limit(format!(
                "wythoff {self} has more than {limit} options to list"
            )));
        }
        Ok(Wythoff
            .options(&(self.0, self.1))
            .into_iter()
            .map(|next| self.to(next))
            .collect())
    }

    fn options_with_value(&self, target: u64, limit: usize) -> Result<Vec<ComponentMove>> {
        if target == 0 {
            return Ok(winning_moves(self.0, self.1)
                .into_iter()
                .map(|next| self.to(next))
                .collect());
        }
        let mut out = Vec::new();
        for option in self.options(limit)? {
            if crate::analysis::parts_value(&option.parts)? == NimValue::Finite(target) {
                out.push(option);
            }
        }
        Ok(out)
    }
}

fn too_large(a: u64, b: u64) -> Error {
    Error::Limit(format!(
        "the nim value of wythoff {a} {b} is only computed for heaps up to {VALUE_LIMIT}; \
         larger positions have an outcome and winning moves but cannot be summed"
    ))
}

/// A Wythoff position of any size, not summed: outcome and winning moves by the closed form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WythoffPosition(pub u64, pub u64);

impl fmt::Display for WythoffPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.0, self.1)
    }
}

impl WythoffPosition {
    fn step(&self, next: (u64, u64)) -> StandaloneMove {
        (
            move_text((self.0, self.1), next),
            Arc::new(WythoffPosition(next.0, next.1)),
        )
    }

    fn normal_only(play: Play) -> Result<()> {
        match play {
            Play::Normal => Ok(()),
            Play::Misere => Err(Error::Unsupported(format!(
                "misère wythoff is solved by direct search only, for heaps up to {VALUE_LIMIT}"
            ))),
        }
    }
}

impl Standalone for WythoffPosition {
    fn game(&self) -> String {
        "wythoff".into()
    }

    fn to_json(&self) -> Json {
        pair_json(self.0, self.1)
    }

    fn evaluate(&self, play: Play) -> Result<Evaluation> {
        Self::normal_only(play)?;
        Ok(Evaluation {
            outcome: if is_p_position(self.0, self.1) {
                Outcome::P
            } else {
                Outcome::N
            },
            nim_value: nim_value(self.0, self.1),
            value: None,
            remoteness: None,
        })
    }

    fn moves(&self, play: Play) -> Result<Vec<StandaloneMove>> {
        Self::normal_only(play)?;
        let count = u128::from(self.0) + u128::from(self.1) + u128::from(self.0.min(self.1));
        if count > OPTION_LIMIT as u128 {
            return Err(Error::Limit(format!(
                "wythoff {self} has more than {OPTION_LIMIT} options to list"
            )));
        }
        Ok(Wythoff
            .options(&(self.0, self.1))
            .into_iter()
            .map(|next| self.step(next))
            .collect())
    }

    fn winning_moves(&self, play: Play) -> Result<Vec<StandaloneMove>> {
        Self::normal_only(play)?;
        Ok(winning_moves(self.0, self.1)
            .into_iter()
            .map(|next| self.step(next))
            .collect())
    }
}

struct WythoffGame;

impl GameDef for WythoffGame {
    fn spec(&self) -> String {
        "wythoff".into()
    }

    fn parse_position(&self, args: &[String]) -> Result<Parsed> {
        let heaps = parse_heaps("wythoff", args)?;
        let [a, b] = heaps[..] else {
            return Err(Error::position(
                "wythoff",
                format!("a position is two heap sizes, got {} numbers", heaps.len()),
            ));
        };
        Ok(if a.max(b) <= VALUE_LIMIT {
            Parsed::Parts(vec![Arc::new(WythoffPair(a, b)) as ComponentRef])
        } else {
            Parsed::Single(Arc::new(WythoffPosition(a, b)))
        })
    }

    fn position_json(&self, parts: &[ComponentRef]) -> Json {
        match parts {
            [one] => one.to_json(),
            _ => Json::Array(parts.iter().map(|p| p.to_json()).collect()),
        }
    }
}

/// The `wythoff` spec.
pub struct WythoffFamily;

impl Family for WythoffFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        vec![CatalogEntry {
            spec: "wythoff",
            params: "",
            position: "two heap sizes",
            summary: "Wythoff's game: take any number from one heap or the same number from both; \
                      P-positions (⌊kφ⌋, ⌊kφ⌋+k) in exact integer arithmetic for any 64-bit heaps; \
                      nim values (and sums with other games) for heaps up to 512, outcome and \
                      winning moves beyond",
            example: "wythoff 4 5",
        }]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        crate::spec::build_without_params(spec, name, params, "wythoff", || Arc::new(WythoffGame))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::NimValues;
    use proptest::prelude::*;

    #[test]
    fn lower_matches_a_slow_exact_reference() {
        // ⌊kφ⌋ is the least n with n > kφ - 1: check n² - nk - k² sign conditions directly.
        // n <= kφ  <=>  n <= k/2 + k√5/2  <=>  (2n - k)² <= 5k² (for 2n >= k).
        for k in 0u128..5000 {
            let n = lower(k);
            assert!((2 * n - k) * (2 * n - k) <= 5 * k * k, "k={k}");
            assert!((2 * n + 2 - k) * (2 * n + 2 - k) > 5 * k * k, "k={k}");
        }
    }

    #[test]
    fn lower_is_exact_near_two_to_the_64() {
        // Reference values: (k + isqrt(5k²)) / 2 in arbitrary precision.
        let cases: [(u128, u128); 5] = [
            (18446744073709551615, 29847458893032750100),
            (18446744073709551614, 29847458893032750098),
            (9223372036854775808, 14923729446516375050),
            (9223372036854775809, 14923729446516375052),
            (6148914691236517205, 9949152964344250033),
        ];
        for (k, expected) in cases {
            assert_eq!(lower(k), expected, "k={k}");
        }
    }

    #[test]
    fn p_positions_match_brute_force() {
        let mut solver = NimValues::new(Wythoff);
        for a in 0..40u64 {
            for b in 0..40u64 {
                let g = solver.nim_value(&(a, b)).unwrap();
                assert_eq!(is_p_position(a, b), g == 0, "({a}, {b})");
                assert_eq!(nim_value(a, b), Some(g), "({a}, {b})");
                let mut expected: Vec<(u64, u64)> = solver.winning_moves(&(a, b)).unwrap();
                let mut fast = winning_moves(a, b);
                expected.sort();
                fast.sort();
                assert_eq!(fast, expected, "({a}, {b})");
            }
        }
    }

    #[test]
    fn partner_is_an_involution_on_complementary_sequences() {
        let mut seen = std::collections::HashSet::new();
        for k in 0..2000u128 {
            let (l, u) = (lower(k), lower(k) + k);
            assert_eq!(partner(l as u64), u);
            assert_eq!(partner(u as u64), l);
            seen.insert(l);
            seen.insert(u);
        }
        // Every number below lower(2000) occurs exactly once (Beatty).
        assert!((0..lower(2000)).all(|n| seen.contains(&n)));
    }

    #[test]
    fn huge_heaps() {
        let max = u64::MAX;
        let k = (max as u128) / 3;
        let (l, u) = (lower(k), lower(k) + k);
        assert!(u <= max as u128);
        assert!(is_p_position(l as u64, u as u64));
        assert!(!is_p_position(l as u64, u as u64 - 1));
        for (a, b) in [
            (max, max),
            (max, 0),
            (0, max),
            (max, max - 1),
            (l as u64 + 5, u as u64 + 5),
        ] {
            let moves = winning_moves(a, b);
            assert!(!moves.is_empty(), "({a}, {b})");
            for (x, y) in moves {
                assert!(is_p_position(x, y));
                assert!((x <= a && y <= b) && (x < a || y < b));
                assert!(x == a || y == b || a - x == b - y);
            }
        }
        // (max, max): take all from both.
        assert!(winning_moves(max, max).contains(&(0, 0)));
        // The partner of u64::MAX may exceed 64 bits.
        assert!(partner(max) > 0);
    }

    #[test]
    fn positions_parse_into_parts_or_a_standalone() {
        let game = WythoffGame;
        let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert!(matches!(game.parse_position(&words("4 5")), Ok(Parsed::Parts(p)) if p.len() == 1));
        assert!(matches!(
            game.parse_position(&words("18446744073709551615 3")),
            Ok(Parsed::Single(_))
        ));
        assert!(game.parse_position(&words("4")).is_err());
        assert!(game.parse_position(&words("4 5 6")).is_err());
        assert!(game.parse_position(&words("4 -5")).is_err());
        assert!(game
            .parse_position(&words("4 18446744073709551616"))
            .is_err());
    }

    #[test]
    fn analysis_reports_values_and_moves() {
        use crate::analysis::value;
        let p = crate::spec::parse_position(&["wythoff", "4", "5"]).unwrap();
        let r = value(&p, Play::Normal).unwrap();
        assert_eq!(r.outcome, Outcome::N);
        assert_eq!(r.nim_value, nim_value(4, 5));
        let texts: Vec<_> = r.winning_moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, vec!["4 5 -> 3 5", "4 5 -> 1 2"]);
        let p = crate::spec::parse_position(&["wythoff", "2", "1", "+", "nim", "3"]).unwrap();
        let r = value(&p, Play::Normal).unwrap();
        assert_eq!(r.nim_value, Some(nim_value(2, 1).unwrap() ^ 3));
        let p = crate::spec::parse_position(&["wythoff", "18446744073709551615", "0"]).unwrap();
        let r = value(&p, Play::Normal).unwrap();
        assert_eq!(r.outcome, Outcome::N);
        assert_eq!(r.winning_moves.len(), 1);
        assert_eq!(r.winning_moves[0].position, serde_json::json!([0, 0]));
    }

    proptest! {
        #[test]
        fn winning_moves_lead_to_p_positions(a in any::<u64>(), b in any::<u64>()) {
            let moves = winning_moves(a, b);
            prop_assert_eq!(moves.is_empty(), is_p_position(a, b));
            for (x, y) in moves {
                prop_assert!(is_p_position(x, y));
            }
        }

        #[test]
        fn table_values_match_brute_force(a in 0u64..60, b in 0u64..60) {
            let mut solver = NimValues::new(Wythoff);
            prop_assert_eq!(nim_value(a, b), Some(solver.nim_value(&(a, b)).unwrap()));
        }
    }
}
