//! Outcomes and winning moves of sums, computed from the parts' values alone.
//!
//! For finite values this is the XOR rule of Sprague–Grundy theory. For loopy parts it is Smith's
//! rule for generalized Sprague–Grundy values: a sum is `P` iff every part is finite with XOR 0,
//! and `D` iff some part is ∞ and (when exactly one part is ∞(K)) the XOR of the finite parts is
//! not in K.

use crate::game::{NimValue, Outcome};

/// The nim value of a sum: the XOR of its parts, or `None` if a part is ∞.
///
/// ```
/// use sprague::game::NimValue::Finite;
/// assert_eq!(sprague::solve::sum::nim_value(&[Finite(3), Finite(4), Finite(5)]), Some(2));
/// ```
pub fn nim_value(parts: &[NimValue]) -> Option<u64> {
    parts.iter().try_fold(0, |x, v| v.finite().map(|g| x ^ g))
}

/// The outcome of a sum of positions with these values (Smith's rule).
///
/// ```
/// use sprague::game::{NimValue::{Finite, Infinite}, Outcome};
/// use sprague::solve::sum::outcome;
/// assert_eq!(outcome(&[Finite(1), Finite(1)]), Outcome::P);
/// assert_eq!(outcome(&[Infinite(vec![0, 2]), Finite(2)]), Outcome::N);
/// assert_eq!(outcome(&[Infinite(vec![0, 2]), Finite(1)]), Outcome::D);
/// ```
pub fn outcome(parts: &[NimValue]) -> Outcome {
    let finite_xor = parts
        .iter()
        .filter_map(NimValue::finite)
        .fold(0, |x, g| x ^ g);
    let mut infinite = parts.iter().filter_map(|v| match v {
        NimValue::Infinite(k) => Some(k),
        NimValue::Finite(_) => None,
    });
    match (infinite.next(), infinite.next()) {
        (None, _) if finite_xor == 0 => Outcome::P,
        (None, _) => Outcome::N,
        (Some(k), None) if k.contains(&finite_xor) => Outcome::N,
        _ => Outcome::D,
    }
}

/// Where the winning moves of a sum are: pairs `(part, target)` such that moving part `part` to
/// an option of finite value `target` leaves a `P` sum. Every winning move is of this form.
///
/// With finite parts and XOR s ≠ 0, each part of value g gets target g ⊕ s (an option of that
/// value may exist even when g ⊕ s > g). With exactly one part ∞(K) and x, the XOR of the rest,
/// in K, that part gets target x. Otherwise there is no winning move.
///
/// ```
/// use sprague::game::NimValue::Finite;
/// use sprague::solve::sum::winning_targets;
/// assert_eq!(winning_targets(&[Finite(3), Finite(4), Finite(5)]), vec![(0, 1), (1, 6), (2, 7)]);
/// ```
pub fn winning_targets(parts: &[NimValue]) -> Vec<(usize, u64)> {
    let finite_xor = parts
        .iter()
        .filter_map(NimValue::finite)
        .fold(0, |x, g| x ^ g);
    let infinite: Vec<usize> = (0..parts.len())
        .filter(|&i| parts[i].finite().is_none())
        .collect();
    match infinite.as_slice() {
        [] if finite_xor != 0 => parts
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.finite().map(|g| (i, g ^ finite_xor)))
            .collect(),
        [i] => match &parts[*i] {
            NimValue::Infinite(k) if k.contains(&finite_xor) => vec![(*i, finite_xor)],
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use NimValue::{Finite, Infinite};

    #[test]
    fn finite_sums_follow_the_xor_rule() {
        assert_eq!(outcome(&[]), Outcome::P);
        assert_eq!(outcome(&[Finite(0)]), Outcome::P);
        assert_eq!(outcome(&[Finite(5), Finite(5)]), Outcome::P);
        assert_eq!(outcome(&[Finite(5), Finite(4)]), Outcome::N);
        assert_eq!(nim_value(&[Finite(5), Finite(4)]), Some(1));
        assert_eq!(winning_targets(&[Finite(5), Finite(5)]), vec![]);
    }

    #[test]
    fn loopy_sums_follow_smiths_rule() {
        assert_eq!(outcome(&[Infinite(vec![])]), Outcome::D);
        assert_eq!(outcome(&[Infinite(vec![0])]), Outcome::N);
        assert_eq!(winning_targets(&[Infinite(vec![0])]), vec![(0, 0)]);
        assert_eq!(outcome(&[Infinite(vec![0]), Infinite(vec![0])]), Outcome::D);
        assert_eq!(
            winning_targets(&[Infinite(vec![0]), Infinite(vec![0])]),
            vec![]
        );
        assert_eq!(
            outcome(&[Infinite(vec![1, 3]), Finite(2), Finite(1)]),
            Outcome::N
        );
        assert_eq!(
            winning_targets(&[Infinite(vec![1, 3]), Finite(2), Finite(1)]),
            vec![(0, 3)]
        );
        assert_eq!(nim_value(&[Infinite(vec![1]), Finite(1)]), None);
    }
}
