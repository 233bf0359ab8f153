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
//! For a table of L values and a candidate p, the least preperiod the table allows is one past
//! the last mismatch G(n) ≠ G(n + p). Read backwards, R(j) = G(L − 1 − j), the matches at the
//! end of the table are the longest common prefix of R and R shifted by p: its length is z(p),
//! the Z-function of R, and the preperiod is L − p − z(p). The Z-function of every shift costs
//! one pass over the table (each comparison either fails or extends the rightmost match found
//! so far), so the whole search is linear. Candidates are tried in increasing order and the
//! first certified one is returned. It is the least period: if p = m·P is certified for the
//! true least period P, P has the same least preperiod and a smaller bound, so it was certified
//! first.

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
    find_period_below(values, bounds, u64::MAX)
}

/// [`find_period`] among the periods up to `max_period` only: the search then needs memory for
/// `max_period` match lengths instead of half the table (4 bytes each), which matters for
/// tables of billions of values.
///
/// ```
/// use sprague::heap::{find_period_below, MoveBounds};
/// let values: Vec<u32> = (0..100).map(|n| n % 7).collect();
/// let bounds = MoveBounds { max_heaps: 1, max_removed: 3 };
/// assert_eq!(find_period_below(&values, bounds, 6), None);
/// assert_eq!(find_period_below(&values, bounds, 7).map(|p| p.period), Some(7));
/// ```
pub fn find_period_below<T: PartialEq>(
    values: &[T],
    bounds: MoveBounds,
    max_period: u64,
) -> Option<Periodicity> {
    find_period_of(values.len(), |x| &values[x], bounds, max_period)
}

/// [`find_period_below`] of the `len` values `get(0)`, `get(1)`, … (a packed table).
pub(crate) fn find_period_of<T: PartialEq>(
    len: usize,
    get: impl Fn(usize) -> T,
    bounds: MoveBounds,
    max_period: u64,
) -> Option<Periodicity> {
    if u32::try_from(len).is_ok() {
        search::<T, u32>(len, get, bounds, max_period)
    } else {
        search::<T, u64>(len, get, bounds, max_period)
    }
}

/// [`find_period`] with match lengths stored as `Z` (u32 halves the memory of short tables).
fn search<T: PartialEq, Z: Copy + Default + Into<u64> + TryFrom<u64>>(
    l: usize,
    get: impl Fn(usize) -> T,
    bounds: MoveBounds,
    max_period: u64,
) -> Option<Periodicity> {
    let len = l as u64;
    let h = bounds.max_heaps.max(1);
    let shortest = certification_length(0, 1, bounds)?;
    if len < shortest {
        return None;
    }
    // h + h·p + k ≤ len
    let max_period = ((len - bounds.max_removed - h) / h).min(max_period) as usize;
    // R(j) = G(L − 1 − j)
    let r = |j: usize| get(l - 1 - j);
    let mut z: Vec<Z> = vec![Z::default(); max_period + 1];
    let (mut left, mut right) = (0usize, 0usize); // the match R[left..right) = R[0..right − left)
    for p in 1..=max_period {
        let mut k = if p < right {
            let inside: u64 = z[p - left].into();
            (right - p).min(inside as usize)
        } else {
            0
        };
        while p + k < l && r(k) == r(p + k) {
            k += 1;
        }
        if p + k > right {
            (left, right) = (p, p + k);
        }
        z[p] = Z::try_from(k as u64).ok()?;
        let preperiod = len - p as u64 - k as u64;
        if let Some(needed) = certification_length(preperiod, p as u64, bounds) {
            if needed <= len {
                return Some(Periodicity {
                    preperiod,
                    period: p as u64,
                    certified_at: needed - 1,
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::{Code, HeapRules};
    use proptest::prelude::*;

    /// The quadratic search this module replaced, kept as the test oracle: for each p, scan
    /// down from the end for the last mismatch.
    fn find_period_quadratic<T: PartialEq>(
        values: &[T],
        bounds: MoveBounds,
    ) -> Option<Periodicity> {
        let len = values.len() as u64;
        let h = bounds.max_heaps.max(1);
        let shortest = certification_length(0, 1, bounds)?;
        if len < shortest {
            return None;
        }
        let max_period = (len - bounds.max_removed - h) / h;
        for p in 1..=max_period {
            let pu = p as usize;
            let mut n = values.len() - pu;
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

    fn octal(text: &str) -> MoveBounds {
        Code::parse(text)
            .unwrap()
            .certificate()
            .expect("octal codes have a certificate")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Random tables with a periodic tail after a random head agree with the quadratic
        /// search, including tables too short to certify anything.
        #[test]
        fn agrees_with_the_quadratic_search(
            head in prop::collection::vec(0u8..4, 0..60),
            pattern in prop::collection::vec(0u8..3, 1..12),
            repeats in 0usize..30,
            noise in prop::collection::vec((0usize..400, 0u8..4), 0..3),
            max_heaps in 1u64..=3,
            max_removed in 0u64..6,
        ) {
            let mut values = head;
            for _ in 0..repeats {
                values.extend(&pattern);
            }
            for (at, v) in noise {
                if let Some(x) = values.get_mut(at) {
                    *x = v;
                }
            }
            let bounds = MoveBounds { max_heaps, max_removed };
            prop_assert_eq!(find_period(&values, bounds), find_period_quadratic(&values, bounds));
        }
    }

    /// Every octal code of up to three digits (d0 = 0 or 4) at several table lengths up to
    /// `to`: the linear search agrees with the quadratic one.
    fn sweep_agrees(to: usize) {
        for d0 in ["0", "4"] {
            for digits in 1..512u32 {
                let text = format!("{d0}.{:03o}", digits);
                let code = Code::parse(&text).unwrap();
                let Some(bounds) = code.certificate() else {
                    continue;
                };
                let values = crate::heap::testing::values_of(&code, to as u64);
                for len in [to / 8, to / 3 + 1, to + 1] {
                    assert_eq!(
                        find_period(&values[..len], bounds),
                        find_period_quadratic(&values[..len], bounds),
                        "{text} with {len} values"
                    );
                }
            }
        }
    }

    #[test]
    fn every_short_octal_code_agrees_with_the_quadratic_search() {
        sweep_agrees(1 << 9);
    }

    /// The same to 2^14. Run with `cargo test --release -p sprague --lib heap::period --
    /// --ignored`.
    #[test]
    #[ignore]
    fn every_short_octal_code_agrees_to_2_14() {
        sweep_agrees(1 << 14);
    }

    /// Published periods: Kayles, Dawson's Kayles (0.07) and Dawson's Chess (0.137) from Winning
    /// Ways; 0.1377, 0.177, 0.117 and 0.11377 from Flammenkamp's table of octal games (as quoted
    /// by OEIS A071434, A071435, A071453, A071452: "last exception at n = e" is preperiod e + 1).
    #[test]
    fn published_periods() {
        for (text, preperiod, period) in [
            ("0.77", 71, 12),
            ("0.07", 53, 34),
            ("0.137", 52, 34),
            ("0.1377", 141, 24),
            ("0.177", 497, 20),
            ("0.117", 47, 48),
            ("0.11377", 187, 32),
        ] {
            let bounds = octal(text);
            let code = Code::parse(text).unwrap();
            let needed = certification_length(preperiod, period, bounds).unwrap();
            let values = crate::heap::testing::values_of(&code, needed + 100);
            let found = find_period(&values, bounds).unwrap();
            assert_eq!(
                (found.preperiod, found.period, found.certified_at),
                (preperiod, period, needed - 1),
                "{text}"
            );
            // One value short of the bound certifies nothing (the least period needs it all).
            assert_eq!(
                find_period(&values[..needed as usize - 1], bounds),
                None,
                "{text}"
            );
        }
    }
}
