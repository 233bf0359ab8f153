//! Certified periodicity of heap games.
//!
//! # The certificate (Guy–Smith, generalised to h heaps)
//!
//! Let every move remove at most k tokens and leave at most h ≥ 1 nonempty heaps, with moves
//! that are translation invariant (see [`super::MoveBounds`]). Write n0* = max(n0, 1).
//!
//! **Claim.** If G(n + p) = G(n) for all n0 ≤ n < B, where B = h·n0* + (h − 1)·p + k, then
//! G(n + p) = G(n) for every n ≥ n0.
//!
//! **Proof.** By induction on N ≥ B, assuming G(n + p) = G(n) for n0 ≤ n < N. As N > k, neither
//! N nor N + p can be taken whole, so every option of either leaves j ≥ 1 heaps after removing
//! some t ≤ k.
//! - An option of N + p leaves heaps a₁ + … + a_j = N + p − t. Its largest heap is at least
//!   (N + p − k)/h ≥ n0* + p. Shrinking it by p gives a legal option of N (same t and j, every
//!   heap still ≥ 1), and since n0 ≤ a_max − p < N (a_max ≤ N + p − t, and t = 0 only with j ≥ 2),
//!   G(a_max − p) = G(a_max): the option has the same value.
//! - An option of N leaves heaps b₁ + … + b_j = N − t; its largest is at least (N − k)/h ≥ n0*,
//!   and below N; growing it by p gives an option of N + p of the same value.
//!
//! So N and N + p have the same sets of option values and G(N + p) = G(N). ∎
//!
//! Checking the hypothesis needs the values G(0), …, G(B + p − 1): **h·n0* + h·p + k values**.
//! - h = 2 (octal codes): n0 ≤ n < 2·n0 + p + k, the Guy–Smith bound;
//! - h = 1 (subtraction games): n0 + p + k values, i.e. k consecutive repeats of the period;
//! - h = 3 (hexadecimal digits 8–F, or d0 = 8 / C): 3·n0 + 3·p + k values.
//!
//! CGSuite asks for h·n0 + h·p + k + h values, a little more than this.
//!
//! # The search
//! For a table of L values and each candidate p, the least preperiod the table allows is one
//! past the last mismatch G(n) ≠ G(n + p), found scanning down from the end; for a wrong p the
//! scan stops almost at once. Candidates are tried in increasing order and the first certified
//! one is returned. It is the least period: if p = m·P is certified for the true least period P,
//! P has the same least preperiod and a smaller bound, so it was certified first.

use super::{MoveBounds, Periodicity};

/// The number of values (G(0) … G(len − 1)) needed to certify `period` from `preperiod`:
/// h·max(n0, 1) + h·p + k, or `None` if it overflows u64.
///
/// ```
/// use sprague::heap::{certification_length, MoveBounds};
/// let octal = MoveBounds { max_heaps: 2, max_removed: 2 };
/// assert_eq!(certification_length(71, 12, octal), Some(2 * 71 + 2 * 12 + 2));
/// ```
pub fn certification_length(preperiod: u64, period: u64, bounds: MoveBounds) -> Option<u64> {
    let h = bounds.max_heaps.max(1) as u128;
    let len = h * preperiod.max(1) as u128 + h * period as u128 + bounds.max_removed as u128;
    u64::try_from(len).ok()
}

/// The least certified period of `values` (G(0), G(1), …) for a game with these bounds, or
/// `None` if the table is too short to certify any.
///
/// `certified_at` is the last heap whose value the certificate uses, which may be below the
/// table's end.
///
/// ```
/// use sprague::heap::{find_period, MoveBounds};
/// // sub:1,2: G(n) = n mod 3.
/// let values: Vec<u32> = (0..20).map(|n| n % 3).collect();
/// let p = find_period(&values, MoveBounds { max_heaps: 1, max_removed: 2 }).unwrap();
/// assert_eq!((p.preperiod, p.period, p.certified_at), (0, 3, 5));
/// ```
pub fn find_period<T: PartialEq>(values: &[T], bounds: MoveBounds) -> Option<Periodicity> {
    let len = values.len() as u64;
    let h = bounds.max_heaps.max(1);
    let shortest = certification_length(0, 1, bounds)?;
    if len < shortest {
        return None;
    }
    // h + h·p + k ≤ len
    let max_period = (len - bounds.max_removed - h) / h;
    for p in 1..=max_period {
        let pu = p as usize;
        let mut n = values.len() - pu; // scan n = len - p - 1 down to 0
        let preperiod = loop {
            if n == 0 {
                break 0;
            }
            if values[n - 1] != values[n - 1 + pu] {
                break n as u64;
            }
            n -= 1;
        };
        match certification_length(preperiod, p, bounds) {
            Some(needed) if needed <= len => {
                return Some(Periodicity {
                    preperiod,
                    period: p,
                    certified_at: needed - 1,
                })
            }
            _ => continue,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_mismatch_moves_the_preperiod() {
        let mut values: Vec<u8> = (0..100).map(|n| (n % 4) as u8).collect();
        values[10] = 9;
        let b = MoveBounds {
            max_heaps: 1,
            max_removed: 4,
        };
        let p = find_period(&values, b).unwrap();
        assert_eq!((p.preperiod, p.period), (11, 4));
        assert_eq!(p.certified_at, 11 + 4 + 4 - 1);
    }

    #[test]
    fn too_short_tables_certify_nothing() {
        let values: Vec<u8> = (0..10).map(|n| (n % 4) as u8).collect();
        let b = MoveBounds {
            max_heaps: 2,
            max_removed: 3,
        };
        // needs 2 + 8 + 3 = 13 values
        assert_eq!(find_period(&values, b), None);
        assert_eq!(
            certification_length(
                0,
                1,
                MoveBounds {
                    max_heaps: 3,
                    max_removed: u64::MAX
                }
            ),
            None
        );
    }
}
