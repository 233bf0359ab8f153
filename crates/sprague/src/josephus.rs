//! The Josephus problem: people 1..=n stand in a circle; counting starts at person 1 and every
//! k-th person is eliminated, the count restarting after each elimination.
//!
//! - [`kth`]: who is eliminated i-th;
//! - [`when`]: at which step person j is eliminated;
//! - [`order`]: the whole elimination order (for moderate n).
//!
//! [`kth`] and [`when`] follow the recurrence g(m) = (g(m−1) + k) mod m, but merge the runs of
//! steps in which no wrap-around happens, so they take O(k log(n/k)) steps: n may be as large as
//! 2^64 − 1 when k is small. Past [`STEP_LIMIT`] steps they give up with [`Error::Limit`].
//!
//! ```
//! use sprague::josephus;
//! // n = 7, k = 3: the order is 3 6 2 7 5 1 4.
//! assert_eq!(josephus::kth(7, 3, 1)?, 3);
//! assert_eq!(josephus::kth(7, 3, 7)?, 4); // the survivor
//! assert_eq!(josephus::when(7, 3, 7)?, 4);
//! assert_eq!(josephus::order(7, 3)?, vec![3, 6, 2, 7, 5, 1, 4]);
//! assert_eq!(josephus::kth(1_000_000_000_000_000_000, 2, 1_000_000_000_000_000_000)?, 847_078_495_393_153_025);
//! # Ok::<(), sprague::Error>(())
//! ```

use crate::error::{Error, Result};

/// The most loop iterations [`kth`] and [`when`] perform before [`Error::Limit`].
pub const STEP_LIMIT: u64 = 200_000_000;

/// The largest n for which [`order`] lists the whole order.
pub const ORDER_LIMIT: u64 = 10_000_000;

fn bad(reason: String) -> Error {
    Error::position("josephus", reason)
}

fn check(n: u64, k: u64) -> Result<()> {
    if n == 0 {
        return Err(bad("the number of people N must be at least 1".into()));
    }
    if k == 0 {
        return Err(bad("the step K must be at least 1".into()));
    }
    Ok(())
}

fn too_long(limit: u64) -> Error {
    Error::Limit(format!(
        "the josephus recurrence needs more than {limit} steps for these N and K"
    ))
}

/// The person (1-based) eliminated at step `i` (1-based).
///
/// # Errors
/// [`Error::Position`] if `n` or `k` is 0 or `i` is not in 1..=n; [`Error::Limit`] if k is so
/// large and i so late that more than [`STEP_LIMIT`] steps would be needed.
pub fn kth(n: u64, k: u64, i: u64) -> Result<u64> {
    kth_within(n, k, i, STEP_LIMIT)
}

fn kth_within(n: u64, k: u64, i: u64, limit: u64) -> Result<u64> {
    check(n, k)?;
    if i == 0 || i > n {
        return Err(bad(format!("the step I must be in 1..={n}, got {i}")));
    }
    let (n, k) = (u128::from(n), u128::from(k));
    // g is the 0-based index (from where counting starts) of the i-th eliminated in a circle of
    // m people; the first elimination in a circle of m0 = n - i + 1 starts the recurrence.
    let mut m = n - u128::from(i) + 1;
    let mut g = (k - 1) % m;
    let mut steps = 0u64;
    while m < n {
        steps += 1;
        if steps > limit {
            return Err(too_long(limit));
        }
        // Steps without wrap-around: g + t(k-1) <= m - 1 keeps g + k < m + 1 at every step.
        let run = if k == 1 {
            n - m
        } else {
            ((m - 1 - g) / (k - 1)).min(n - m)
        };
        if run > 0 {
            g += run * k;
            m += run;
        } else {
            m += 1;
            g = (g + k) % m;
        }
    }
    Ok((g + 1) as u64)
}

/// The step (1-based) at which person `j` (1-based) is eliminated.
///
/// # Errors
/// As for [`kth`], with `j` in 1..=n.
pub fn when(n: u64, k: u64, j: u64) -> Result<u64> {
    when_within(n, k, j, STEP_LIMIT)
}

fn when_within(n: u64, k: u64, j: u64, limit: u64) -> Result<u64> {
    check(n, k)?;
    if j == 0 || j > n {
        return Err(bad(format!("the person J must be in 1..={n}, got {j}")));
    }
    let k = u128::from(k);
    let mut m = u128::from(n);
    let mut p = u128::from(j) - 1;
    let mut step = 1u128;
    let mut iterations = 0u64;
    loop {
        iterations += 1;
        if iterations > limit {
            return Err(too_long(limit));
        }
        let eliminated = (k - 1) % m;
        if p == eliminated {
            return Ok(step as u64);
        }
        if k <= m && p >= k {
            // Several rounds in which the person stays behind the eliminated one: each shifts
            // p down by k. Keep k <= m throughout so the eliminated index stays k - 1.
            let run = (p / k).min(m - k + 1);
            p -= run * k;
            m -= run;
            step += run;
        } else {
            // Renumber from the person after the eliminated one.
            p = (p + m - (eliminated + 1)) % m;
            m -= 1;
            step += 1;
        }
    }
}

/// The whole elimination order, person numbers 1-based.
///
/// Uses a Fenwick tree: O(n log n).
///
/// # Errors
/// As for [`kth`]; [`Error::Limit`] if `n` exceeds [`ORDER_LIMIT`].
pub fn order(n: u64, k: u64) -> Result<Vec<u64>> {
    check(n, k)?;
    if n > ORDER_LIMIT {
        return Err(Error::Limit(format!(
            "the whole order is listed only for N up to {ORDER_LIMIT}; use --kth or --when"
        )));
    }
    let n = n as usize;
    // Fenwick tree over alive flags.
    let mut tree = vec![0u32; n + 1];
    for i in 1..=n {
        tree[i] += 1;
        let parent = i + (i & i.wrapping_neg());
        if parent <= n {
            tree[parent] += tree[i];
        }
    }
    let top = if n == 0 {
        0
    } else {
        1usize << (usize::BITS - 1 - n.leading_zeros())
    };
    let mut out = Vec::with_capacity(n);
    let mut index = 0u64; // 0-based rank among the living where counting starts
    for alive in (1..=n as u64).rev() {
        index = (index + (k - 1) % alive) % alive;
        // Find the (index+1)-th living person.
        let mut remaining = index as u32 + 1;
        let mut position = 0usize;
        let mut bit = top;
        while bit > 0 {
            let next = position + bit;
            if next <= n && tree[next] < remaining {
                position = next;
                remaining -= tree[next];
            }
            bit >>= 1;
        }
        let person = position + 1;
        out.push(person as u64);
        let mut i = person;
        while i <= n {
            tree[i] -= 1;
            i += i & i.wrapping_neg();
        }
        // The next count starts at the same rank among the survivors.
        if alive > 1 {
            index %= alive - 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn simulate(n: u64, k: u64) -> Vec<u64> {
        let mut circle: Vec<u64> = (1..=n).collect();
        let mut out = Vec::new();
        let mut index = 0usize;
        while !circle.is_empty() {
            index = (index + (k as usize - 1)) % circle.len();
            out.push(circle.remove(index));
        }
        out
    }

    #[test]
    fn small_circles_match_simulation() {
        for n in 1..=30u64 {
            for k in 1..=12u64 {
                let expected = simulate(n, k);
                assert_eq!(order(n, k).unwrap(), expected, "n={n} k={k}");
                for (step, &person) in expected.iter().enumerate() {
                    let step = step as u64 + 1;
                    assert_eq!(kth(n, k, step).unwrap(), person, "kth n={n} k={k} i={step}");
                    assert_eq!(
                        when(n, k, person).unwrap(),
                        step,
                        "when n={n} k={k} j={person}"
                    );
                }
            }
        }
    }

    #[test]
    fn survivor_for_k2_is_the_classic_formula() {
        // J(n) = 2(n - 2^floor(log2 n)) + 1.
        for n in [1u64, 2, 3, 5, 1000, 123_456_789_012, u64::MAX] {
            let top = 1u64 << (63 - n.leading_zeros());
            let expected = 2 * (n - top) + 1;
            assert_eq!(kth(n, 2, n).unwrap(), expected, "n={n}");
            assert_eq!(when(n, 2, expected).unwrap(), n, "n={n}");
        }
    }

    #[test]
    fn huge_k_works_when_the_answer_is_early() {
        assert_eq!(kth(u64::MAX, u64::MAX, 1).unwrap(), u64::MAX);
        assert_eq!(kth(10, u64::MAX, 1).unwrap(), (u64::MAX - 1) % 10 + 1);
        assert_eq!(when(10, u64::MAX, (u64::MAX - 1) % 10 + 1).unwrap(), 1);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(matches!(kth(10, 0, 1), Err(Error::Position { .. })));
        assert!(matches!(kth(0, 3, 1), Err(Error::Position { .. })));
        assert!(matches!(kth(10, 3, 0), Err(Error::Position { .. })));
        assert!(matches!(kth(10, 3, 11), Err(Error::Position { .. })));
        assert!(matches!(when(10, 3, 11), Err(Error::Position { .. })));
        assert!(matches!(when(10, 0, 1), Err(Error::Position { .. })));
        assert!(matches!(order(ORDER_LIMIT + 1, 2), Err(Error::Limit(_))));
        assert!(matches!(order(5, 0), Err(Error::Position { .. })));
        assert!(matches!(
            kth_within(u64::MAX, u64::MAX / 2, u64::MAX, 1000),
            Err(Error::Limit(_))
        ));
        assert!(matches!(
            when_within(u64::MAX, u64::MAX / 2, 5, 1000),
            Err(Error::Limit(_))
        ));
    }

    proptest! {
        #[test]
        fn kth_and_when_are_inverse(n in 1u64..400, k in 1u64..50, seed in any::<u64>()) {
            let i = seed % n + 1;
            let expected = simulate(n, k);
            let person = kth(n, k, i).unwrap();
            prop_assert_eq!(person, expected[i as usize - 1]);
            prop_assert_eq!(when(n, k, person).unwrap(), i);
        }

        #[test]
        fn large_n_kth_and_when_agree(n in 1u64..u64::MAX, k in 1u64..20, seed in any::<u64>()) {
            let i = n - seed % n.min(1000); // late steps: the expensive ones
            let person = kth(n, k, i).unwrap();
            prop_assert!(person >= 1 && person <= n);
            prop_assert_eq!(when(n, k, person).unwrap(), i);
        }
    }
}
