//! Counting problems about Nim positions.
//!
//! [`forced_start_losses`] solves GZOI 2017 "取石子游戏" (seed 003): among the heaps 1..=N, count
//! the pairs (a subset of heaps, a designated heap in it) such that the first player, forced to
//! make the first move on the designated heap, cannot win the Nim game on the subset.

use crate::error::Result;

/// The modulus of [`forced_start_losses`].
pub const MODULUS: u64 = 1_000_000_007;

/// A linear basis over GF(2) of 64-bit words, kept in reduced row echelon form: `rows[b]` is the
/// basis vector whose leading bit is b (0 if none), and no other vector has bit b set.
#[derive(Clone, Copy)]
struct Basis {
    rows: [u64; 64],
    rank: u32,
}

impl Basis {
    const fn new() -> Self {
        Basis {
            rows: [0; 64],
            rank: 0,
        }
    }

    /// Inserts `x`; returns whether it was independent.
    fn insert(&mut self, mut x: u64) -> bool {
        for bit in (0..64).rev() {
            if x >> bit & 1 == 0 {
                continue;
            }
            if self.rows[bit] == 0 {
                // Clear bit from the other rows and lower bits of x, to stay reduced.
                for lower in (0..bit).rev() {
                    if x >> lower & 1 == 1 && self.rows[lower] != 0 {
                        x ^= self.rows[lower];
                    }
                }
                for row in self.rows.iter_mut().skip(bit + 1) {
                    if *row >> bit & 1 == 1 {
                        *row ^= x;
                    }
                }
                self.rows[bit] = x;
                self.rank += 1;
                return true;
            }
            x ^= self.rows[bit];
        }
        false
    }

    /// How many elements of the span are at least `threshold`.
    ///
    /// In reduced form the span's elements, sorted, are the XORs of the basis vectors chosen by
    /// the binary digits of 0, 1, 2, …, so the count below `threshold` is found by bisection.
    fn count_at_least(&self, threshold: u64) -> u128 {
        let vectors: Vec<u64> = self
            .rows
            .iter()
            .rev()
            .copied()
            .filter(|&r| r != 0)
            .collect();
        let element = |index: u128| -> u64 {
            let r = vectors.len();
            (0..r)
                .filter(|&i| index >> (r - 1 - i) & 1 == 1)
                .fold(0, |x, i| x ^ vectors[i])
        };
        let size = 1u128 << vectors.len();
        // The least index whose element is >= threshold.
        let (mut lo, mut hi) = (0u128, size);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if element(mid) >= threshold {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        size - lo
    }
}

fn pow2_mod(exponent: u64) -> u64 {
    let (mut result, mut base, mut e) = (1u64, 2u64, exponent);
    while e > 0 {
        if e & 1 == 1 {
            result = result * base % MODULUS;
        }
        base = base * base % MODULUS;
        e >>= 1;
    }
    result
}

/// GZOI 2017: the number of pairs (S, d), S a subset of the heaps and d ∈ S the designated heap,
/// such that the first player, forced to move first on heap d, loses Nim on S; modulo
/// [`MODULUS`].
///
/// The first player wins iff she can reduce heap d to the XOR x of the other heaps of S, that is
/// iff x < a_d. So the answer is Σ_d #{T ⊆ others : XOR(T) ≥ a_d}. The subsets of the other heaps
/// hit each element of their span equally often, 2^(N−1−rank) times each, so everything reduces
/// to spans over GF(2). Removing heap d changes the span only when a_d is independent of the other
/// heaps, which happens for at most 64 heaps; those are found by tracking which basis vectors each
/// dependent heap uses. O(64·N + 64³) in all, for any N and any 64-bit heap sizes.
///
/// Heaps of size 0 are allowed (a designated empty heap is always a loss).
///
/// ```
/// // Heaps 1 and 2: ({1}, 1) and ({2}, 2) win; ({1,2}, 1): 1 <= 2, a loss; ({1,2}, 2): 2 > 1, a win.
/// assert_eq!(sprague::counting::forced_start_losses(&[1, 2])?, 1);
/// # Ok::<(), sprague::Error>(())
/// ```
///
/// # Errors
/// None at present; the `Result` leaves room for limits.
pub fn forced_start_losses(heaps: &[u64]) -> Result<u64> {
    let n = heaps.len() as u64;
    if n == 0 {
        return Ok(0);
    }
    // Greedy basis over all heaps, remembering for each basis vector which chosen heaps
    // (bit positions in `chosen`) compose it.
    let mut rows = [0u64; 64];
    let mut composition = [0u64; 64];
    let mut chosen: Vec<usize> = Vec::new();
    let mut used_by_dependents = 0u64;
    for (index, &a) in heaps.iter().enumerate() {
        let (mut x, mut mask) = (a, 0u64);
        for bit in (0..64).rev() {
            if x >> bit & 1 == 1 && rows[bit] != 0 {
                x ^= rows[bit];
                mask ^= composition[bit];
            }
        }
        if x == 0 {
            used_by_dependents |= mask;
        } else {
            let lead = 63 - x.leading_zeros() as usize;
            rows[lead] = x;
            composition[lead] = mask | 1 << chosen.len();
            chosen.push(index);
        }
    }
    let mut full = Basis::new();
    for &index in &chosen {
        full.insert(heaps[index]);
    }
    let mut total = 0u64;
    for (index, &a) in heaps.iter().enumerate() {
        let essential = chosen
            .iter()
            .position(|&c| c == index)
            .filter(|&slot| used_by_dependents >> slot & 1 == 0);
        let span = match essential {
            None => full,
            Some(_) => {
                let mut basis = Basis::new();
                for &other in chosen.iter().filter(|&&c| c != index) {
                    basis.insert(heaps[other]);
                }
                basis
            }
        };
        let at_least = (span.count_at_least(a) % u128::from(MODULUS)) as u64;
        let multiplicity = pow2_mod(n - 1 - u64::from(span.rank));
        total = (total + at_least * multiplicity) % MODULUS;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute_force(heaps: &[u64]) -> u64 {
        let n = heaps.len();
        let mut count = 0u64;
        for subset in 0u32..1 << n {
            for d in (0..n).filter(|&d| subset >> d & 1 == 1) {
                let others = (0..n)
                    .filter(|&i| i != d && subset >> i & 1 == 1)
                    .fold(0, |x, i| x ^ heaps[i]);
                // Brute force over the first move itself.
                let wins = (0..heaps[d]).any(|left| left ^ others == 0);
                if !wins {
                    count += 1;
                }
            }
        }
        count % MODULUS
    }

    /// The seed's O(N² · V) dynamic programme, as a second reference.
    fn seed_dp(heaps: &[u64]) -> u64 {
        let n = heaps.len();
        let mut answer = 0u64;
        for k in 0..n {
            let mut dp = vec![0u64; 256];
            dp[0] = 1;
            for (i, &a) in heaps.iter().enumerate() {
                if i == k {
                    continue;
                }
                let mut next = vec![0u64; 256];
                for x in 0..256 {
                    next[x] = (dp[x] + dp[x ^ a as usize]) % MODULUS;
                }
                dp = next;
            }
            for count in &dp[heaps[k] as usize..] {
                answer = (answer + count) % MODULUS;
            }
        }
        answer
    }

    #[test]
    fn small_cases() {
        assert_eq!(forced_start_losses(&[]).unwrap(), 0);
        assert_eq!(forced_start_losses(&[0]).unwrap(), 1);
        assert_eq!(forced_start_losses(&[5]).unwrap(), 0);
        assert_eq!(forced_start_losses(&[3, 3]).unwrap(), brute_force(&[3, 3]));
    }

    #[test]
    fn large_inputs_reduce_modulo() {
        // 200 heaps of 1: each designated heap loses iff an odd number of other ones join it.
        let heaps = vec![1u64; 200];
        let expected = 200 * pow2_mod(198) % MODULUS;
        assert_eq!(forced_start_losses(&heaps).unwrap(), expected);
        assert_eq!(
            forced_start_losses(&heaps[..150]).unwrap(),
            seed_dp(&heaps[..150])
        );
        let big = [u64::MAX, u64::MAX - 1, 1 << 63, 12345];
        assert_eq!(
            forced_start_losses(&big).unwrap(),
            brute_force_outcomes(&big)
        );
    }

    /// Brute force that does not enumerate moves (for huge heaps): win iff others < a_d.
    fn brute_force_outcomes(heaps: &[u64]) -> u64 {
        let n = heaps.len();
        let mut count = 0u64;
        for subset in 0u32..1 << n {
            for d in (0..n).filter(|&d| subset >> d & 1 == 1) {
                let others = (0..n)
                    .filter(|&i| i != d && subset >> i & 1 == 1)
                    .fold(0, |x, i| x ^ heaps[i]);
                if others >= heaps[d] {
                    count += 1;
                }
            }
        }
        count
    }

    proptest! {
        #[test]
        fn matches_brute_force(heaps in proptest::collection::vec(0u64..20, 0..9)) {
            prop_assert_eq!(forced_start_losses(&heaps).unwrap(), brute_force(&heaps));
        }

        #[test]
        fn matches_the_seed_dp(heaps in proptest::collection::vec(1u64..256, 1..40)) {
            prop_assert_eq!(forced_start_losses(&heaps).unwrap(), seed_dp(&heaps));
        }

        #[test]
        fn matches_brute_force_on_wide_words(heaps in proptest::collection::vec(any::<u64>(), 0..8)) {
            prop_assert_eq!(forced_start_losses(&heaps).unwrap(), brute_force_outcomes(&heaps));
        }
    }
}
