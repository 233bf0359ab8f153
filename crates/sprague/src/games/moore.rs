//! Moore's Nim_K: a move takes any positive number of tokens from each of 1 to K heaps.
//!
//! A position is P iff, in every bit position, the number of heaps with that bit set is a multiple
//! of K + 1 (seeds 002 and 004), so a lone position of any size has its outcome and winning
//! moves at once. The position is the whole list of heaps: Moore's Nim is not a sum of heap
//! games, so its nim value (needed when it is summed with other games) comes from search over its
//! sub-positions, as far as memory allows. Winning moves come from the constructive method of
//! seed 004 ([`constructive_move`]); where the position has at most [`OPTION_LIMIT`] options,
//! every winning move is listed instead.

use crate::error::{Error, Result};
use crate::game::notation::{parse_numbers, parse_u64, write_numbers};
use crate::game::ParseError;
use crate::game::{Game, Impartial, Listing, Notation, Outcome};
use serde_json::Value as Json;

/// The most options listed before [`Impartial::try_options`] answers [`Error::Limit`].
pub const OPTION_LIMIT: u128 = 100_000;

/// The rules of Moore's Nim_K: a position is the list of heaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MooreNim {
    /// The most heaps one move may take from (at least 1).
    pub k: u64,
}

/// Reads `moore:K`'s parameter.
///
/// # Errors
/// When K is not a whole number of at least 1.
pub fn parse_moore(params: &str) -> std::result::Result<MooreNim, String> {
    match parse_u64(params, "K")? {
        0 => Err("K must be at least 1".into()),
        k => Ok(MooreNim { k }),
    }
}

impl Game for MooreNim {
    type Position = Vec<u64>;
}

impl Impartial for MooreNim {
    fn options(&self, heaps: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        let mut current = heaps.clone();
        extend(heaps, self.k, 0, 0, &mut current, &mut out);
        out
    }

    fn try_options(&self, heaps: &Vec<u64>) -> Result<Vec<Vec<u64>>> {
        if option_count(heaps, self.k) > OPTION_LIMIT {
            return Err(Error::Limit(format!(
                "moore:{} {} has more than {OPTION_LIMIT} options to list",
                self.k,
                write_numbers(heaps)
            )));
        }
        Ok(self.options(heaps))
    }

    fn explain(&self, heaps: &Vec<u64>) -> Option<String> {
        let modulus = u128::from(self.k) + 1;
        let top = heaps.iter().max().map_or(0, |&h| 64 - h.leading_zeros());
        let counts: Vec<String> = (0..top.max(1))
            .rev()
            .map(|bit| {
                let ones = heaps.iter().filter(|&&h| h >> bit & 1 == 1).count();
                format!("2^{bit}: {ones}")
            })
            .collect();
        let verdict = if is_p_position(heaps, self.k) {
            format!("every count is a multiple of {modulus}: a P-position")
        } else {
            format!("some count is not a multiple of {modulus}: the player to move wins")
        };
        Some(format!(
            "Moore's Nim_{}: a P-position has, in every binary place, a count of heaps with that bit set divisible by K + 1 = {modulus}; the counts (place: heaps with the bit) are {}; {verdict}",
            self.k,
            counts.join(", ")
        ))
    }

    fn known_outcome(&self, heaps: &Vec<u64>) -> Option<Outcome> {
        Some(if is_p_position(heaps, self.k) {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    /// The winning moves (options of value 0): all of them where the options can be listed,
    /// else the constructive move.
    fn options_with_nim_value(
        &self,
        heaps: &Vec<u64>,
        target: u64,
        _limit: usize,
    ) -> Result<Option<Listing<Vec<u64>>>> {
        if target != 0 {
            return Ok(None);
        }
        if option_count(heaps, self.k) <= OPTION_LIMIT {
            let moves = self
                .options(heaps)
                .into_iter()
                .filter(|next| is_p_position(next, self.k))
                .collect();
            return Ok(Some(Listing::all(moves)));
        }
        Ok(Some(match constructive_move(heaps, self.k) {
            Some(next) => Listing {
                items: vec![next],
                total: None,
            },
            None => Listing::all(Vec::new()),
        }))
    }
}

impl Notation for MooreNim {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<Vec<u64>, ParseError> {
        Ok(parse_numbers(words, "heap size")?)
    }

    fn write_position(&self, heaps: &Vec<u64>) -> String {
        write_numbers(heaps)
    }

    fn position_json(&self, heaps: &Vec<u64>) -> Json {
        Json::from(heaps.clone())
    }

    fn write_move(&self, from: &Vec<u64>, to: &Vec<u64>) -> String {
        format!("{} -> {}", write_numbers(from), write_numbers(to))
    }
}

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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::NimValues;
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
    fn winning_moves_match_the_generic_solver() {
        for k in 1..=3u64 {
            let game = MooreNim { k };
            let mut solver = NimValues::new(game);
            for a in 0..5u64 {
                for b in 0..5u64 {
                    for c in 0..4u64 {
                        let heaps = vec![a, b, c];
                        let g = solver.nim_value(&heaps).unwrap();
                        assert_eq!(game.known_outcome(&heaps) == Some(Outcome::P), g == 0);
                        let fast = game
                            .options_with_nim_value(&heaps, 0, 100)
                            .unwrap()
                            .unwrap();
                        assert!(fast.is_complete());
                        assert_eq!(fast.items, solver.winning_moves(&heaps).unwrap());
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
        let game = MooreNim { k: 2 };
        let heaps = vec![u64::MAX, u64::MAX, 5, 1 << 40];
        assert_eq!(game.known_outcome(&heaps), Some(Outcome::N));
        let moves = game.options_with_nim_value(&heaps, 0, 10).unwrap().unwrap();
        assert_eq!(moves.items.len(), 1);
        assert_eq!(moves.total, None);
        assert!(is_p_position(&moves.items[0], 2));
        assert!(matches!(game.try_options(&heaps), Err(Error::Limit(_))));
        // Three equal maximal heaps are P for K = 2, and K = u64::MAX means "any number of heaps".
        assert!(is_p_position(&[u64::MAX; 3], 2));
        assert!(!is_p_position(&[u64::MAX; 3], u64::MAX));
        assert_eq!(
            constructive_move(&[u64::MAX; 3], u64::MAX),
            Some(vec![0, 0, 0])
        );
    }

    #[test]
    fn parameters_and_positions_report_errors() {
        assert!(parse_moore("0").is_err());
        assert!(parse_moore("x").is_err());
        assert_eq!(parse_moore("2"), Ok(MooreNim { k: 2 }));
        assert!(MooreNim { k: 2 }.parse_position(&["1", "-2"]).is_err());
        assert_eq!(
            MooreNim { k: 2 }.parse_position(&["5", "6"]),
            Ok(vec![5, 6])
        );
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
