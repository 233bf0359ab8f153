//! Misère play of sums (the player who cannot move wins) through the SJ theorem (Anti-SG).
//!
//! Let X be the XOR of the parts' nim values and B the number of parts of value at least 2. The
//! SJ rule (seed 004, "Anti-Nim"): the player to move wins iff
//! - B = 0 and X = 0, or
//! - B ≥ 1 and X ≠ 0.
//!
//! This is exact for Nim heaps. For other games it holds whenever every position reachable
//! within each part, of nim value g, meets these conditions ("small" means: the move leaves only
//! parts of value 0 or 1):
//! - (a) g = 0 and some move exists: some small move leaves XOR 1;
//! - (b) g ≥ 2: small moves leaving XOR 0 and XOR 1 both exist;
//! - (c) g ≤ 1: a move that leaves a part of value ≥ 2 leaves an XOR of at least 2;
//! - (d) g = 1: some small move leaves XOR 0.
//!
//! Proof sketch, by induction on the game: a sum with no move has B = 0, X = 0 and is a misère
//! win. From a losing class ((B = 0, X = 1) or (B ≥ 2, X = 0)) every move reaches a winning class
//! (by (c), and since a move changes one part's value). From a winning class, a move to a losing
//! class exists: (B = 0, X = 0) by (d), or by (a) when every part is 0; (B = 1) by (b); (B ≥ 2)
//! by the normal Nim move, which leaves at least one other part of value ≥ 2, hence two.
//! For games whose moves never split a part, (b)–(d) follow from the definition of mex and only
//! (a) is a real condition; Kayles, for instance, fails (b).
//!
//! [`conditions_hold`] checks the conditions by a bounded search (the default of
//! [`Component::misere_sj`]); where they do not hold, or the check is too large,
//! [`crate::analysis::value`] falls back to direct search.

use crate::analysis::{
    Component, ComponentMove, ComponentRef, MoveReport, Position, ValueReport, OPTION_LIMIT,
};
use crate::error::Result;
use crate::game::{NimValue, Outcome};
use std::collections::{HashMap, HashSet};

/// The most positions and options [`conditions_hold`] examines before answering `false`.
pub const CHECK_LIMIT: usize = 50_000;

/// The misère outcome of a sum with these nim values, by the SJ rule (valid where the conditions
/// of this module hold, e.g. for Nim heaps).
///
/// ```
/// use sprague::{game::Outcome, misere::outcome};
/// assert_eq!(outcome(&[1, 1]), Outcome::N); // take one heap, leave the last to the opponent
/// assert_eq!(outcome(&[1, 1, 1]), Outcome::P);
/// assert_eq!(outcome(&[2, 2]), Outcome::P);
/// assert_eq!(outcome(&[5]), Outcome::N);
/// assert_eq!(outcome(&[]), Outcome::N); // no move: the player to move has won
/// ```
pub fn outcome(values: &[u64]) -> Outcome {
    let big = values.iter().filter(|&&g| g >= 2).count();
    let xor = values.iter().fold(0, |x, g| x ^ g);
    if (big == 0 && xor == 0) || (big >= 1 && xor != 0) {
        Outcome::N
    } else {
        Outcome::P
    }
}

/// Whether one position meets conditions (a)–(d), given its value and options.
fn position_ok(value: &NimValue, options: &[ComponentMove]) -> Result<bool> {
    let NimValue::Finite(g) = *value else {
        return Ok(false);
    };
    let (mut small_zero, mut small_one, mut big_low) = (false, false, false);
    for option in options {
        let mut xor = 0;
        let mut small = true;
        for part in &option.parts {
            let NimValue::Finite(v) = part.nim_value()? else {
                return Ok(false);
            };
            xor ^= v;
            small &= v <= 1;
        }
        small_zero |= small && xor == 0;
        small_one |= small && xor == 1;
        big_low |= !small && xor <= 1;
    }
    Ok(match g {
        0 => (options.is_empty() || small_one) && !big_low,
        1 => small_zero && !big_low,
        _ => small_zero && small_one,
    })
}

fn key(part: &dyn Component) -> String {
    format!("{} {}", part.game(), part)
}

/// Whether every position reachable from `part` meets the conditions of this module, checked by
/// search over at most [`CHECK_LIMIT`] positions and options (`false` past it, and when a part
/// cannot list its options or values).
pub fn conditions_hold<C: Component + ?Sized>(part: &C) -> Result<bool> {
    let check = || -> Result<bool> {
        let options = part.options(CHECK_LIMIT)?;
        if !position_ok(&part.nim_value()?, &options)? {
            return Ok(false);
        }
        let mut work = 1 + options.len();
        let mut seen: HashSet<String> = HashSet::new();
        let mut stack: Vec<ComponentRef> = Vec::new();
        let push = |options: Vec<ComponentMove>,
                    seen: &mut HashSet<String>,
                    stack: &mut Vec<ComponentRef>| {
            for p in options.into_iter().flat_map(|o| o.parts) {
                if seen.insert(key(p.as_ref())) {
                    stack.push(p);
                }
            }
        };
        push(options, &mut seen, &mut stack);
        while let Some(next) = stack.pop() {
            let options = next.options(CHECK_LIMIT)?;
            work += 1 + options.len();
            if work > CHECK_LIMIT {
                return Ok(false);
            }
            if !position_ok(&next.nim_value()?, &options)? {
                return Ok(false);
            }
            push(options, &mut seen, &mut stack);
        }
        Ok(true)
    };
    // Any failure (too many options, no computable value) only means "not proven".
    Ok(check().unwrap_or(false))
}

/// The parts' nim values, if every part meets the SJ conditions.
fn sj_values(parts: &[(usize, ComponentRef)]) -> Result<Option<Vec<u64>>> {
    let mut checked: HashMap<String, bool> = HashMap::new();
    let mut values = Vec::with_capacity(parts.len());
    for (_, part) in parts {
        let k = key(part.as_ref());
        let ok = match checked.get(&k) {
            Some(&ok) => ok,
            None => {
                let ok = part.misere_sj()?;
                checked.insert(k, ok);
                ok
            }
        };
        match (ok, part.nim_value()?) {
            (true, NimValue::Finite(g)) => values.push(g),
            _ => return Ok(None),
        }
    }
    Ok(Some(values))
}

/// The misère outcome of a sum by the SJ rule, or `None` where it is not proven to apply.
pub(crate) fn sj_outcome(position: &Position) -> Result<Option<Outcome>> {
    let Position::Sum(_) = position else {
        return Ok(None);
    };
    Ok(sj_values(&position.parts())?.map(|values| outcome(&values)))
}

/// The misère report of a sum by the SJ rule, or `None` where it is not proven to apply.
///
/// A winning move leaves X' ∈ {0, 1}, so the part it changes (of value g) goes to an option of
/// value X ⊕ g or X ⊕ g ⊕ 1: only those options are examined.
pub(crate) fn sj_value(position: &Position) -> Result<Option<ValueReport>> {
    let Position::Sum(_) = position else {
        return Ok(None);
    };
    let parts = position.parts();
    let Some(values) = sj_values(&parts)? else {
        return Ok(None);
    };
    let result = outcome(&values);
    let xor = values.iter().fold(0, |x, g| x ^ g);
    let mut winning_moves = Vec::new();
    if result == Outcome::N {
        for (index, (_, part)) in parts.iter().enumerate() {
            let g = values[index];
            for target in [xor ^ g, xor ^ g ^ 1] {
                for option in part.options_with_value(target, OPTION_LIMIT)? {
                    let mut after: Vec<u64> = values.clone();
                    after.remove(index);
                    for p in &option.parts {
                        match p.nim_value()? {
                            NimValue::Finite(v) => after.push(v),
                            NimValue::Infinite(_) => return Ok(None),
                        }
                    }
                    if outcome(&after) == Outcome::P {
                        let next = position.replace(index, &option.parts);
                        winning_moves.push(MoveReport {
                            text: option.text,
                            position: next.to_json(),
                            component: Some(index),
                            display: next.to_string(),
                        });
                    }
                }
            }
        }
    }
    Ok(Some(ValueReport {
        game: position.game(),
        position: position.to_json(),
        outcome: result,
        nim_value: None,
        loopy_value: None,
        value: None,
        remoteness: None,
        winning_moves,
        winning_moves_omitted: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{moves, value};
    use crate::game::{Play, Sum};
    use crate::games::circle::{CircleTake, Coins, Line};
    use crate::games::nim::{Nim, NimHeap};
    use crate::games::wythoff::Wythoff;
    use crate::solve::MisereOutcomes;
    use crate::spec::parse_position;
    use proptest::prelude::*;

    fn words(spec: &str, heaps: &[u64]) -> Vec<String> {
        std::iter::once(spec.to_string())
            .chain(heaps.iter().map(u64::to_string))
            .collect()
    }

    #[test]
    fn nim_sums_match_direct_search_with_every_winning_move() {
        let mut solver = MisereOutcomes::new(Sum(Nim));
        for a in 0..5u64 {
            for b in 0..5u64 {
                for c in 0..4u64 {
                    let heaps = vec![a, b, c];
                    let report = value(
                        &parse_position(&words("nim", &heaps)).unwrap(),
                        Play::Misere,
                    )
                    .unwrap();
                    let nonzero: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
                    assert_eq!(
                        report.outcome,
                        solver.outcome(&nonzero).unwrap(),
                        "{heaps:?}"
                    );
                    let mut expected: Vec<Vec<u64>> = solver
                        .winning_moves(&nonzero)
                        .unwrap()
                        .into_iter()
                        .map(|mut h| {
                            h.retain(|&x| x > 0);
                            h.sort();
                            h
                        })
                        .collect();
                    let mut reported: Vec<Vec<u64>> = report
                        .winning_moves
                        .iter()
                        .map(|m| {
                            let mut h: Vec<u64> =
                                serde_json::from_value(m.position.clone()).unwrap();
                            h.sort();
                            h
                        })
                        .collect();
                    expected.sort();
                    reported.sort();
                    assert_eq!(reported, expected, "{heaps:?}");
                }
            }
        }
    }

    #[test]
    fn huge_nim_heaps_are_instant() {
        let p = parse_position(&["nim", "1000000000000", "1000000000000", "1"]).unwrap();
        let r = value(&p, Play::Misere).unwrap();
        assert_eq!(r.outcome, Outcome::N);
        assert_eq!(r.winning_moves.len(), 1); // 1 -> 0, leaving two equal big heaps
        let p = parse_position(&["nim", "18446744073709551615", "18446744073709551615"]).unwrap();
        assert_eq!(value(&p, Play::Misere).unwrap().outcome, Outcome::P);
        assert!(NimHeap(u64::MAX).misere_sj().unwrap());
    }

    #[test]
    fn the_check_accepts_parity_rows_and_rejects_kayles() {
        // Rows with K = 1 only change parity: the conditions hold.
        assert!(conditions_hold(&Line { k: 1, n: 9 }).unwrap());
        // Kayles: the row of 5 (value 4) has no small move to XOR 0.
        assert!(!conditions_hold(&Line { k: 2, n: 5 }).unwrap());
        assert!(conditions_hold(&NimHeap(7)).unwrap());
        // Too large to check: not proven.
        assert!(!conditions_hold(&NimHeap(1_000_000)).unwrap());
    }

    #[test]
    fn rows_and_circles_match_direct_search() {
        for k in 1..=3u64 {
            let mut solver = MisereOutcomes::new(CircleTake { k });
            for a in 1..=7u64 {
                for b in 0..=5u64 {
                    let mut start = vec![Coins::Line(a)];
                    let mut args = vec![format!("circle:{k}"), format!("line:{a}")];
                    if b > 0 {
                        start.push(Coins::Circle(b));
                        args.push(b.to_string());
                    }
                    start.sort_unstable_by_key(|c| match *c {
                        Coins::Circle(n) => (false, n),
                        Coins::Line(n) => (true, n),
                    });
                    let p = parse_position(&args).unwrap();
                    let r = value(&p, Play::Misere).unwrap();
                    let expected = solver.outcome(&start).unwrap();
                    assert_eq!(r.outcome, expected, "k={k} {args:?}");
                    let sj = sj_outcome(&p).unwrap();
                    if let Some(o) = sj {
                        assert_eq!(o, expected, "SJ rule used for k={k} {args:?}");
                    }
                    assert_eq!(r.winning_moves.is_empty(), expected == Outcome::P);
                    let m = moves(&p, Play::Misere).unwrap();
                    let wins = m.moves.iter().filter(|o| o.outcome == Outcome::P).count();
                    assert_eq!(wins, r.winning_moves.len(), "k={k} {args:?}");
                }
            }
        }
    }

    /// Wythoff pairs through the generic check, against direct search of the typed sum.
    #[test]
    fn wythoff_sums_match_direct_search() {
        let mut solver = MisereOutcomes::new(Sum(Wythoff));
        for a in 0..4u64 {
            for b in 0..4u64 {
                for c in 0..3u64 {
                    let args: Vec<String> = [
                        "wythoff",
                        &a.to_string(),
                        &b.to_string(),
                        "+",
                        "wythoff",
                        &c.to_string(),
                        "2",
                    ]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                    let p = parse_position(&args).unwrap();
                    let r = value(&p, Play::Misere).unwrap();
                    let expected = solver.outcome(&vec![(a, b), (c, 2)]).unwrap();
                    assert_eq!(r.outcome, expected, "{args:?}");
                    let direct = solver.winning_moves(&vec![(a, b), (c, 2)]).unwrap();
                    assert_eq!(r.winning_moves.len(), direct.len(), "{args:?}");
                }
            }
        }
    }

    proptest! {
        #[test]
        fn sj_rule_matches_direct_search_on_nim(heaps in proptest::collection::vec(0u64..7, 0..5)) {
            let mut solver = MisereOutcomes::new(Sum(Nim));
            prop_assert_eq!(outcome(&heaps), solver.outcome(&heaps).unwrap());
        }
    }
}
