//! Test helpers: the engine's table, and an independent brute-force oracle built on the
//! generic solver [`NimValues`].

use super::code::{Code, LEAVE_NONE, LEAVE_ONE, LEAVE_THREE, LEAVE_TWO};
use super::{HeapRules, Tabulation};
use crate::game::Impartial;
use crate::solve::NimValues;
use std::sync::Arc;

/// The engine's values G(0..=to).
pub(crate) fn values_of<R: HeapRules + Clone + 'static>(rules: &R, to: u64) -> Vec<u64> {
    let mut t = Tabulation::new(Arc::new(rules.clone()));
    t.extend_to(to, &()).unwrap();
    t.values().iter().map(|&g| g as u64).collect()
}

/// A sum of heaps under a code, with moves generated straight from the digits (not through
/// [`Code`]'s own option lists). A position is the set of heap sizes that occur an odd number of
/// times, as bits of a u64: equal pairs cancel (H + H = 0, an identity of games, not of the
/// engine), so adding or removing a heap is toggling its bit. Heaps must be below 64.
struct Brute<'a>(&'a Code);

impl crate::game::Game for Brute<'_> {
    type Position = u64;
}

impl Impartial for Brute<'_> {
    fn options(&self, &position: &u64) -> Vec<u64> {
        let code = self.0;
        let bit = |h: u64| if h == 0 { 0 } else { 1u64 << h };
        let mut out = Vec::new();
        let mut heaps = position;
        while heaps != 0 {
            let h = heaps.trailing_zeros() as u64;
            heaps &= heaps - 1;
            let without = position ^ bit(h);
            for t in 0..=h {
                let d = code.digit(t);
                let r = h - t;
                if d & LEAVE_NONE != 0 && r == 0 {
                    out.push(without);
                }
                if d & LEAVE_ONE != 0 && t >= 1 && r >= 1 {
                    out.push(without ^ bit(r));
                }
                if d & LEAVE_TWO != 0 {
                    for a in 1..r {
                        if !(code.unequal_splits() && 2 * a == r) {
                            out.push(without ^ bit(a) ^ bit(r - a));
                        }
                    }
                }
                if d & LEAVE_THREE != 0 {
                    for a in 1..r {
                        for b in 1..r - a {
                            out.push(without ^ bit(a) ^ bit(b) ^ bit(r - a - b));
                        }
                    }
                }
            }
        }
        out
    }
}

/// One heap of a code that never splits, with options straight from the digits.
struct BruteHeap<'a>(&'a Code);

impl crate::game::Game for BruteHeap<'_> {
    type Position = u64;
}

impl Impartial for BruteHeap<'_> {
    fn options(&self, &n: &u64) -> Vec<u64> {
        (1..=n)
            .filter_map(|t| {
                let d = self.0.digit(t);
                let leave_none = d & LEAVE_NONE != 0 && t == n;
                let leave_one = d & LEAVE_ONE != 0 && t < n;
                (leave_none || leave_one).then_some(n - t)
            })
            .collect()
    }
}

/// Brute-force G(0..=to) of a code; `to` < 64 when the code splits heaps.
pub(crate) fn brute_force_values(code: &Code, to: u64) -> Vec<u64> {
    if !code.splits() {
        let mut solver = NimValues::new(BruteHeap(code));
        return (0..=to).map(|n| solver.nim_value(&n).unwrap()).collect();
    }
    assert!(to < 64, "the split brute force handles heaps below 64");
    let mut solver = NimValues::new(Brute(code));
    (0..=to)
        .map(|n| {
            solver
                .nim_value(&if n == 0 { 0 } else { 1u64 << n })
                .unwrap()
        })
        .collect()
}

/// Asserts the engine and the brute force agree on heaps 0..=to.
pub(crate) fn assert_matches_brute_force(code: &Code, to: u64) {
    let engine = values_of(code, to);
    let brute = brute_force_values(code, to);
    assert_eq!(engine, brute, "code {code:?}");
}
