//! Moore's Nim_K: a move takes any positive number of tokens from each of 1 to K heaps.
//!
//! A position is P iff, in every bit position, the number of heaps with that bit set is a multiple
//! of K + 1 (seeds 002 and 004). The position is the whole list of heaps: Moore's Nim is not a
//! sum of heap games, so positions are [`Standalone`] and cannot be summed with other games.
//! Winning moves come from the constructive method of seed 004 ([`constructive_move`]); where the
//! position has at most [`OPTION_LIMIT`] options, every winning move is listed instead.

use crate::analysis::{Evaluation, GameDef, Parsed, Standalone, StandaloneMove, OPTION_LIMIT};
use crate::error::{Error, Result};
use crate::game::{Impartial, Outcome, Play};
use crate::solve::{MisereOutcomes, NimValues};
use crate::spec::{parse_heaps, parse_u64, CatalogEntry, Family};
use serde_json::Value as Json;
use std::fmt;
use std::sync::Arc;

/// The most positions (the product of heap sizes plus one) for which the nim value, and misère
/// play, are computed by direct search.
pub const SEARCH_LIMIT: u128 = 4096;

/// The rules of Moore's Nim_K, for the generic solvers: a position is the list of heaps.
#[derive(Clone, Copy, Debug)]
pub struct MooreNim {
    /// The most heaps a move may change.
    pub k: u64,
}

impl Impartial for MooreNim {
    type Position = Vec<u64>;

    fn options(&self, heaps: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        let mut current = heaps.clone();
        extend(heaps, self.k, 0, 0, &mut current, &mut out);
        out
    }
}

/// Every option: heaps from `index` on may be reduced, `changed` have been so far.
fn extend(
    heaps: &[u64],
    k: u64,
    index: usize,
    changed: u64,
    current: &mut Vec<u64>,
    out: &mut Vec<Vec<u64>>,
) {
    if index == heaps.len() {
        if changed > 0 {
            out.push(current.clone());
        }
        return;
    }
    extend(heaps, k, index + 1, changed, current, out);
    if changed < k {
        for smaller in 0..heaps[index] {
            current[index] = smaller;
            extend(heaps, k, index + 1, changed + 1, current, out);
        }
        current[index] = heaps[index];
    }
}

/// The number of options, saturating at `u128::MAX`.
fn option_count(heaps: &[u64], k: u64) -> u128 {
    // counts[c] = ways to reduce exactly c of the heaps seen so far (c <= k).
    let width = (k.min(heaps.len() as u64) as usize) + 1;
    let mut counts = vec![0u128; width];
    counts[0] = 1;
    for &h in heaps {
        for c in (1..width).rev() {
            counts[c] = counts[c].saturating_add(counts[c - 1].saturating_mul(u128::from(h)));
        }
    }
    counts[1..].iter().fold(0u128, |s, &c| s.saturating_add(c))
}

/// Whether the heaps are a P-position of Nim_K: every bit count is a multiple of K + 1.
///
/// ```
/// use sprague::games::moore::is_p_position;
/// assert!(is_p_position(&[1, 2, 3], 1)); // Nim
/// assert!(is_p_position(&[3, 3, 3], 2) && !is_p_position(&[3, 3, 3], 1));
/// ```
pub fn is_p_position(heaps: &[u64], k: u64) -> bool {
    let modulus = u128::from(k) + 1;
    (0..64).all(|bit| {
        let ones = heaps.iter().filter(|&&h| h >> bit & 1 == 1).count() as u128;
        ones.is_multiple_of(modulus)
    })
}

/// A winning move from an N-position (None from a P-position): the method of seed 004.
///
/// Bits are fixed from the top. A set C of changed heaps is kept; each heap enters C when one of
/// its 1 bits is cleared, which makes it smaller whatever happens below, so its lower bits are
/// free. At a bit whose count r = ones mod (K+1) is not 0, with a ones and b zeros among C:
/// clear r ones of C if r ≤ a; else set K+1−r zeros of C if K+1−r ≤ b; else add r−a heaps with
/// that bit set to C and clear the bit in all r. Then |C| = r + b ≤ K, since K+1−r > b.
///
/// ```
/// use sprague::games::moore::{constructive_move, is_p_position};
/// let next = constructive_move(&[5, 6, 7, 1], 2).unwrap();
/// assert!(is_p_position(&next, 2));
/// ```
pub fn constructive_move(heaps: &[u64], k: u64) -> Option<Vec<u64>> {
    if is_p_position(heaps, k) {
        return None;
    }
    let modulus = u128::from(k) + 1;
    let mut next = heaps.to_vec();
    let mut changed = vec![false; heaps.len()];
    for bit in (0..64).rev() {
        let ones = next.iter().filter(|&&h| h >> bit & 1 == 1).count() as u128;
        let r = (ones % modulus) as usize;
        if r == 0 {
            continue;
        }
        let (in_ones, in_zeros): (Vec<usize>, Vec<usize>) = (0..next.len())
            .filter(|&i| changed[i])
            .partition(|&i| next[i] >> bit & 1 == 1);
        let needed_zeros = modulus - r as u128;
        if r <= in_ones.len() {
            for &i in &in_ones[..r] {
                next[i] &= !(1 << bit);
            }
        } else if needed_zeros <= in_zeros.len() as u128 {
            for &i in &in_zeros[..needed_zeros as usize] {
                next[i] |= 1 << bit;
            }
        } else {
            let fresh: Vec<usize> = (0..next.len())
                .filter(|&i| !changed[i] && next[i] >> bit & 1 == 1)
                .take(r - in_ones.len())
                .collect();
            for &i in in_ones.iter().chain(&fresh) {
                next[i] &= !(1 << bit);
                changed[i] = true;
            }
        }
    }
    debug_assert!(is_p_position(&next, k));
    Some(next)
}

/// A position of Moore's Nim_K.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoorePosition {
    k: u64,
    heaps: Vec<u64>,
}

impl MoorePosition {
    /// The position with these heaps, where a move changes at most `k` heaps.
    ///
    /// # Errors
    /// [`Error::Spec`] if k is 0.
    pub fn new(k: u64, heaps: Vec<u64>) -> Result<Self> {
        if k == 0 {
            return Err(Error::spec("moore:0", "K must be at least 1"));
        }
        Ok(MoorePosition { k, heaps })
    }

    fn spec(&self) -> String {
        format!("moore:{}", self.k)
    }

    fn step(&self, next: Vec<u64>) -> StandaloneMove {
        let text = format!("{} -> {}", words(&self.heaps), words(&next));
        (
            text,
            Arc::new(MoorePosition {
                k: self.k,
                heaps: next,
            }),
        )
    }

    fn small(&self) -> bool {
        let states = self
            .heaps
            .iter()
            .fold(1u128, |p, &h| p.saturating_mul(u128::from(h) + 1));
        states <= SEARCH_LIMIT
    }

    fn rules(&self) -> MooreNim {
        MooreNim { k: self.k }
    }
}

fn words(heaps: &[u64]) -> String {
    let w: Vec<String> = heaps.iter().map(u64::to_string).collect();
    w.join(" ")
}

impl fmt::Display for MoorePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&words(&self.heaps))
    }
}

impl Standalone for MoorePosition {
    fn game(&self) -> String {
        self.spec()
    }

    fn to_json(&self) -> Json {
        Json::from(self.heaps.clone())
    }

    fn evaluate(&self, play: Play) -> Result<Evaluation> {
        let (outcome, nim_value) = match play {
            Play::Normal => {
                let outcome = if is_p_position(&self.heaps, self.k) {
                    Outcome::P
                } else {
                    Outcome::N
                };
                let nim_value = if self.small() {
                    Some(NimValues::new(self.rules()).nim_value(&self.heaps)?)
                } else {
                    None
                };
                (outcome, nim_value)
            }
            Play::Misere if self.small() => (
                MisereOutcomes::new(self.rules()).outcome(&self.heaps)?,
                None,
            ),
            Play::Misere => return Err(misere_too_large()),
        };
        Ok(Evaluation {
            outcome,
            nim_value,
            value: None,
            remoteness: None,
        })
    }

    fn moves(&self, _play: Play) -> Result<Vec<StandaloneMove>> {
        if option_count(&self.heaps, self.k) > OPTION_LIMIT as u128 {
            return Err(Error::Limit(format!(
                "{} {self} has more than {OPTION_LIMIT} options to list",
                self.spec()
            )));
        }
        Ok(self
            .rules()
            .options(&self.heaps)
            .into_iter()
            .map(|next| self.step(next))
            .collect())
    }

    fn winning_moves(&self, play: Play) -> Result<Vec<StandaloneMove>> {
        match play {
            Play::Misere if self.small() => {
                let mut solver = MisereOutcomes::new(self.rules());
                Ok(solver
                    .winning_moves(&self.heaps)?
                    .into_iter()
                    .map(|next| self.step(next))
                    .collect())
            }
            Play::Misere => Err(misere_too_large()),
            Play::Normal if option_count(&self.heaps, self.k) <= OPTION_LIMIT as u128 => Ok(self
                .rules()
                .options(&self.heaps)
                .into_iter()
                .filter(|next| is_p_position(next, self.k))
                .map(|next| self.step(next))
                .collect()),
            Play::Normal => Ok(constructive_move(&self.heaps, self.k)
                .into_iter()
                .map(|next| self.step(next))
                .collect()),
        }
    }
}

fn misere_too_large() -> Error {
    Error::Limit(format!(
        "misère Moore's Nim is solved by direct search only, for positions with at most \
         {SEARCH_LIMIT} sub-positions"
    ))
}

struct MooreGame {
    k: u64,
}

impl GameDef for MooreGame {
    fn spec(&self) -> String {
        format!("moore:{}", self.k)
    }

    fn parse_position(&self, args: &[String]) -> Result<Parsed> {
        let heaps = parse_heaps(&self.spec(), args)?;
        Ok(Parsed::Single(Arc::new(MoorePosition::new(self.k, heaps)?)))
    }
}

/// The `moore:K` spec.
pub struct MooreFamily;

impl Family for MooreFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        vec![CatalogEntry {
            spec: "moore:K",
            params: "K ≥ 1: the most heaps one move may take from",
            position: "heap sizes (the whole list is one position; it cannot be summed)",
            summary: "Moore's Nim_K: take from 1 to K heaps, any positive amount from each; P iff \
                      every bit count is a multiple of K+1; winning moves: all of them when there \
                      are at most 100000 options, else the constructive move of seed 004; nim \
                      value and misère play by search for small positions",
            example: "moore:2 5 6 7 1",
        }]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        if name != "moore" {
            return None;
        }
        let Some(params) = params else {
            return Some(Err(Error::spec(spec, "moore needs K, e.g. moore:2")));
        };
        Some(match parse_u64(params, "K") {
            Ok(0) => Err(Error::spec(spec, "K must be at least 1")),
            Ok(k) => Ok(Arc::new(MooreGame { k })),
            Err(reason) => Err(Error::spec(spec, reason)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Outcomes of every position of `heaps` heaps below `bound`, by definition: a position is P
    /// iff no option is P. Positions are visited in lexicographic order (every option of x is
    /// lexicographically smaller); each P-position marks all positions it is an option of.
    fn brute_force(heaps: usize, bound: u64, k: u64) -> Vec<bool> {
        let size = (bound as usize).pow(heaps as u32);
        let mut is_n = vec![false; size];
        let mut p_positions = vec![false; size];
        let decode = |mut index: usize| -> Vec<u64> {
            let mut h = vec![0; heaps];
            for slot in h.iter_mut().rev() {
                *slot = (index % bound as usize) as u64;
                index /= bound as usize;
            }
            h
        };
        let encode = |h: &[u64]| {
            h.iter()
                .fold(0usize, |i, &x| i * bound as usize + x as usize)
        };
        for index in 0..size {
            if is_n[index] {
                continue;
            }
            p_positions[index] = true;
            // Mark every position that has this one as an option: raise 1..=k heaps.
            let base = decode(index);
            let mut stack = vec![(0usize, 0u64, base.clone())];
            while let Some((i, raised, h)) = stack.pop() {
                if i == heaps {
                    if raised > 0 {
                        is_n[encode(&h)] = true;
                    }
                    continue;
                }
                stack.push((i + 1, raised, h.clone()));
                if raised < k {
                    for v in base[i] + 1..bound {
                        let mut g = h.clone();
                        g[i] = v;
                        stack.push((i + 1, raised + 1, g));
                    }
                }
            }
        }
        p_positions
    }

    #[test]
    fn p_test_matches_brute_force_on_four_heaps_below_16() {
        for k in 1..=3u64 {
            let p = brute_force(4, 16, k);
            for (index, &is_p) in p.iter().enumerate() {
                let heaps: Vec<u64> = (0..4)
                    .rev()
                    .map(|s| (index >> (4 * s) & 15) as u64)
                    .collect();
                assert_eq!(is_p_position(&heaps, k), is_p, "k={k} heaps={heaps:?}");
                if !is_p {
                    let next = constructive_move(&heaps, k).unwrap();
                    let changed = heaps.iter().zip(&next).filter(|(a, b)| a != b).count();
                    assert!(changed >= 1 && changed as u64 <= k);
                    assert!(heaps.iter().zip(&next).all(|(a, b)| b <= a));
                    assert!(p[next.iter().fold(0, |i, &x| i * 16 + x as usize)]);
                } else {
                    assert_eq!(constructive_move(&heaps, k), None);
                }
            }
        }
    }

    #[test]
    fn nim_values_and_misere_match_the_generic_solvers() {
        for k in 1..=3u64 {
            let mut solver = NimValues::new(MooreNim { k });
            for a in 0..5u64 {
                for b in 0..5u64 {
                    for c in 0..4u64 {
                        let heaps = vec![a, b, c];
                        let position = MoorePosition::new(k, heaps.clone()).unwrap();
                        let e = position.evaluate(Play::Normal).unwrap();
                        let g = solver.nim_value(&heaps).unwrap();
                        assert_eq!(e.nim_value, Some(g));
                        assert_eq!(e.outcome == Outcome::P, g == 0);
                        let fast: Vec<Vec<u64>> = position
                            .winning_moves(Play::Normal)
                            .unwrap()
                            .into_iter()
                            .map(|(_, p)| serde_json::from_value(p.to_json()).unwrap())
                            .collect();
                        assert_eq!(fast, solver.winning_moves(&heaps).unwrap());
                        let mut misere = MisereOutcomes::new(MooreNim { k });
                        assert_eq!(
                            position.evaluate(Play::Misere).unwrap().outcome,
                            misere.outcome(&heaps).unwrap()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn option_count_is_exact() {
        for k in 1..=3 {
            for heaps in [vec![3, 4, 5], vec![0, 7], vec![2, 2, 2, 2], vec![]] {
                let listed = MooreNim { k }.options(&heaps).len() as u128;
                assert_eq!(option_count(&heaps, k), listed, "{heaps:?} k={k}");
            }
        }
        assert_eq!(option_count(&[u64::MAX; 5], 3), u128::MAX);
    }

    #[test]
    fn huge_heaps_use_the_constructive_move() {
        let position = MoorePosition::new(2, vec![u64::MAX, u64::MAX, 5, 1 << 40]).unwrap();
        let e = position.evaluate(Play::Normal).unwrap();
        assert_eq!(e.outcome, Outcome::N);
        assert_eq!(e.nim_value, None);
        let moves = position.winning_moves(Play::Normal).unwrap();
        assert_eq!(moves.len(), 1);
        let next: Vec<u64> = serde_json::from_value(moves[0].1.to_json()).unwrap();
        assert!(is_p_position(&next, 2));
        assert!(position.moves(Play::Normal).is_err());
        assert!(matches!(
            position.evaluate(Play::Misere),
            Err(Error::Limit(_))
        ));
        // Three equal maximal heaps are P for K = 2, and K = u64::MAX means "any number of heaps".
        assert!(is_p_position(&[u64::MAX; 3], 2));
        assert!(!is_p_position(&[u64::MAX; 3], u64::MAX));
        assert_eq!(
            constructive_move(&[u64::MAX; 3], u64::MAX),
            Some(vec![0, 0, 0])
        );
    }

    #[test]
    fn specs_and_positions_report_errors() {
        use crate::spec::{parse_game, parse_position};
        assert!(parse_game("moore").is_err());
        assert!(parse_game("moore:0").is_err());
        assert!(parse_game("moore:x").is_err());
        assert!(parse_position(&["moore:2", "1", "-2"]).is_err());
        assert!(parse_position(&["moore:2", "1", "+", "nim", "2"]).is_err());
        let p = parse_position(&["moore:2", "5", "6", "7", "1"]).unwrap();
        let r = crate::analysis::value(&p, Play::Normal).unwrap();
        assert_eq!(r.outcome, Outcome::N);
        assert!(!r.winning_moves.is_empty());
    }

    proptest! {
        #[test]
        fn constructive_move_is_legal_and_winning(
            heaps in proptest::collection::vec(any::<u64>(), 0..8),
            k in 1u64..5,
        ) {
            match constructive_move(&heaps, k) {
                None => prop_assert!(is_p_position(&heaps, k)),
                Some(next) => {
                    prop_assert!(is_p_position(&next, k));
                    let changed = heaps.iter().zip(&next).filter(|(a, b)| a != b).count() as u64;
                    prop_assert!(changed >= 1 && changed <= k);
                    prop_assert!(heaps.iter().zip(&next).all(|(a, b)| b <= a));
                }
            }
        }
    }
}
