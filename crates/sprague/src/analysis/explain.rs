//! Why a position has its value, in words and numbers, for `sprague value --explain`: for an
//! impartial sum, each part's nim value, the XOR worked in binary and which part to change to
//! what; for parts decided by a closed form or a certified period, the form with its numbers;
//! in misère play, the rule that decides with its numbers (the SJ rule and its general form,
//! or the misère quotient: each heap's element, their product, the P-portion); for positions
//! solved whole (boards, scored and loopy games), the principal variation to the end with the
//! remoteness after each move.
//!
//! ```
//! use sprague::catalog::Catalog;
//! use sprague::game::Play;
//! let position = Catalog::default().parse_position(&["nim", "3", "5"])?;
//! let lines = sprague::analysis::explain::explain(&position, Play::Normal)?;
//! assert!(lines.iter().any(|l| l.contains("XOR = 110 = 6")));
//! # Ok::<(), sprague::Error>(())
//! ```

use super::{rate_single, MisereRule, Which};
use crate::erased::{Part, Position, Single};
use crate::error::Result;
use crate::game::{NimValue, Outcome, Play, Value};
use crate::solve::misere;

/// The explanation of `position`'s value under `play`, one line a step.
///
/// # Errors
/// As for [`super::value`]: a part past what its game can value.
pub fn explain(position: &Position, play: Play) -> Result<Vec<String>> {
    match position {
        Position::Single(s) => principal_variation(s, play),
        Position::Partizan(_) => Ok(vec![
            "a partizan sum is valued by its canonical form: its outcome class comes from comparing the form with 0 (Left wins whoever starts when it is > 0, Right when < 0, the player to move loses when = 0 and wins when confused with 0)".into(),
        ]),
        Position::Sum(_) => {
            let parts = position.parts();
            let mut lines = Vec::new();
            let mut values = Vec::with_capacity(parts.len());
            for part in &parts {
                if let Some(rule) = part.explain() {
                    lines.push(format!("{} {}: {rule}", part.game(), part));
                }
                values.push(part.nim_value());
            }
            // A lone part decided by its closed form alone needs no nim value.
            if parts.len() == 1 && values[0].is_err() && !lines.is_empty() {
                return Ok(lines);
            }
            let values = values.into_iter().collect::<Result<Vec<_>>>()?;
            let finite: Option<Vec<u64>> = values.iter().map(NimValue::finite).collect();
            let Some(finite) = finite else {
                lines.push(loopy(&parts, &values));
                return Ok(lines);
            };
            match play {
                Play::Normal => normal(&parts, &finite, &mut lines),
                Play::Misere => misere_lines(position, &parts, &finite, &mut lines)?,
            }
            Ok(lines)
        }
    }
}

/// The parts' values and their XOR in binary, aligned.
fn xor_table(parts: &[Part], values: &[u64], lines: &mut Vec<String>) -> u64 {
    let x = values.iter().fold(0, |x, g| x ^ g);
    let bits = values
        .iter()
        .chain([&x])
        .map(|&g| 64 - g.leading_zeros())
        .max()
        .unwrap_or(1)
        .max(1) as usize;
    let names: Vec<String> = parts.iter().map(|p| format!("{} {p}", p.game())).collect();
    let name_width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    // The value column is wide enough for "XOR" too, so that the bits stay aligned.
    let value_width = values
        .iter()
        .map(|g| g.to_string().len())
        .max()
        .unwrap_or(1)
        .max(3);
    lines.push(
        "the nim value of a sum is the XOR of its parts' nim values (Sprague–Grundy):".into(),
    );
    for (name, g) in names.iter().zip(values) {
        let pad = name_width - name.chars().count();
        lines.push(format!(
            "  {name}{:pad$}  {g:>value_width$} = {g:0bits$b}",
            ""
        ));
    }
    lines.push(format!(
        "  {:name_width$}  {:>value_width$}   {}",
        "",
        "",
        "-".repeat(bits)
    ));
    lines.push(format!(
        "  {:name_width$}  {:>value_width$} = {x:0bits$b} = {x}",
        "", "XOR"
    ));
    x
}

fn normal(parts: &[Part], values: &[u64], lines: &mut Vec<String>) {
    let x = xor_table(parts, values, lines);
    if x == 0 {
        lines.push(
            "the XOR is 0: a P-position. Every move changes one part's value, which makes the XOR nonzero, so the player to move loses"
                .into(),
        );
        return;
    }
    lines.push(format!(
        "the XOR is {x}, not 0: an N-position. A winning move takes one part of value g to an option of value g XOR {x}, which makes the XOR 0; when g XOR {x} < g (g has the XOR's highest bit) such an option always exists (g is the mex of the options' values), and a larger one may exist too"
    ));
    for (i, (part, &g)) in parts.iter().zip(values).enumerate() {
        let target = g ^ x;
        let found = if target < g {
            Some(true)
        } else {
            part.options_with_value(target, 1)
                .ok()
                .map(|l| !l.items.is_empty())
        };
        let name = format!(
            "part {} ({} {part}): {g} XOR {x} = {target}",
            i + 1,
            part.game()
        );
        lines.push(match (target < g, found) {
            (true, _) => format!("  {name} < {g}: move it to a position of nim value {target}"),
            (false, Some(true)) => {
                format!("  {name} > {g}, and it has an option of value {target}: move there")
            }
            (false, Some(false)) => {
                format!(
                    "  {name} > {g}, and it has no option of value {target}: no winning move here"
                )
            }
            (false, None) => {
                format!("  {name} > {g}: its options are too many to check for value {target}")
            }
        });
    }
}

/// The misère rule `value` uses for this sum, with its numbers.
fn misere_lines(
    position: &Position,
    parts: &[Part],
    values: &[u64],
    lines: &mut Vec<String>,
) -> Result<()> {
    match MisereRule::for_sum(parts)? {
        MisereRule::Sj(_) => sj(
            parts,
            values,
            lines,
            "misère play, by the SJ (Anti-Nim) rule, proven for these parts",
        ),
        MisereRule::AntiSg(_) => {
            lines.push("misère play: in every part each position of nim value 0 has no move, so the game ends exactly when every part is 0. That is the ending rule of the SJ theorem in general form (Anti-SG), which then holds whatever the parts are".into());
            sj(
                parts,
                values,
                lines,
                "by the general SJ theorem",
            );
        }
        MisereRule::Quotient(q) => quotient(position, parts, &q, lines)?,
        MisereRule::Search(..) => lines.push("misère play: the SJ rule is not proven for every part here, and the parts are not heaps of one game with a misère quotient, so the outcome comes from direct search of the sum; nim values do not decide misère play".into()),
    }
    Ok(())
}

/// The explanation of `position` in Anti-SG play under the SJ ending rule (the game ends when
/// every summand's nim value is 0, and whoever moved last loses): the theorem with its numbers.
///
/// # Errors
/// As for [`super::anti_sg`].
pub fn anti_sg(position: &Position) -> Result<Vec<String>> {
    let parts = position.parts();
    let values = super::anti_sg_values(&parts, true)?.unwrap_or_default();
    let mut lines = vec!["Anti-SG play under the SJ ending rule: the game ends as soon as every summand has nim value 0, and the player who made the last move loses; each part below is one summand (its pieces after a split count together)".into()];
    sj(
        &parts,
        &values,
        &mut lines,
        "by the SJ theorem in general form (it needs no condition on the summands)",
    );
    Ok(lines)
}

/// The SJ rule's classes with the numbers of this sum.
fn sj(parts: &[Part], values: &[u64], lines: &mut Vec<String>, rule: &str) {
    let x = xor_table(parts, values, lines);
    let big = values.iter().filter(|&&g| g >= 2).count();
    let counted = if big == 1 {
        "1 part has".to_string()
    } else {
        format!("{big} parts have")
    };
    lines.push(format!(
        "{rule}: the player to move wins exactly when (some part has nim value 2 or more and the XOR is not 0) or (every part has value 0 or 1 and the XOR is 0); here {counted} a value of 2 or more, and the XOR is {x}"
    ));
    let wins = misere::outcome(values) == Outcome::N;
    lines.push(if wins {
        "so the player to move wins".into()
    } else {
        "so the player to move loses".into()
    });
    if wins && big >= 1 {
        lines.push(if big == 1 {
            "a winning move leaves an odd number of parts of value 1 and nothing larger: the part of value ≥ 2 goes to 0 or 1".into()
        } else {
            "a winning move leaves XOR 0 with a part of value ≥ 2 still there, as in normal play".into()
        });
    } else if wins && values.iter().any(|&g| g != 0) {
        lines.push(
            "a winning move leaves an odd number of parts of value 1 (take a part of value 1, or move a part of value 0 to 1 where that is possible)".into(),
        );
    } else if wins {
        lines.push("every part is 0: the game is over, and the player to move has won (the other made the last move)".into());
    }
}

/// The misère quotient's numbers: each heap's element, their product, the P-portion.
fn quotient(
    position: &Position,
    parts: &[Part],
    q: &super::QuotientSum,
    lines: &mut Vec<String>,
) -> Result<()> {
    const SHOWN: usize = 12;
    let quotient = &q.quotient;
    let words = &quotient.presentation().words;
    let word = |x: u32| {
        words
            .get(x as usize)
            .cloned()
            .unwrap_or_else(|| x.to_string())
    };
    let p: Vec<String> = quotient.p_portion().into_iter().map(word).collect();
    lines.push(format!(
        "misère play of heaps of {}: nim values do not decide it, its misère quotient does (Plambeck–Siegel): {}; presentation {}, P-portion {{{}}}",
        position.game(),
        q.note(&position.game()),
        quotient.presentation(),
        p.join(", ")
    ));
    let mut each = Vec::new();
    let mut product = quotient.identity();
    for part in parts {
        if let Some((n, _)) = part.misere_heap() {
            let x = quotient.element(n)?;
            if each.len() < SHOWN {
                each.push(format!("{n} → {}", word(x)));
            }
            product = quotient.multiply(product, x);
        }
    }
    if parts.len() > SHOWN {
        each.push(format!("… ({} heaps in all)", parts.len()));
    }
    lines.push(format!(
        "each heap's element: {}; their product is {}",
        each.join(", "),
        word(product)
    ));
    lines.push(if quotient.is_p(product) {
        format!("{} is in the P-portion: the player to move loses", word(product))
    } else {
        format!(
            "{} is not in the P-portion: the player to move wins, by moving to a sum whose product is in it",
            word(product)
        )
    });
    Ok(())
}

/// The most moves of a principal variation shown.
pub const VARIATION_PLIES: usize = 60;

/// Perfect play from `start` to the end: each move, what it is worth to the player making it,
/// and the remoteness (or the game's value) after it.
fn principal_variation(start: &Single, play: Play) -> Result<Vec<String>> {
    let e = start.evaluate()?;
    let mut lines = vec![format!(
        "{} is solved by searching its positions (a strong solution where the game has one), not by a formula: perfect play from here ({}{}) goes",
        start.game(),
        match e.value() {
            Value::Win => "a win for the player to move",
            Value::Lose => "a loss for the player to move",
            Value::Tie => "a tie",
            Value::Draw => "a draw: neither can force a win",
        },
        match (e.remoteness, e.score) {
            (_, Some(v)) => format!(", value {v}"),
            (Some(r), None) => format!(" in {r} moves"),
            (None, None) => String::new(),
        }
    )];
    let mut seen = std::collections::HashSet::new();
    let mut position = start.clone();
    for ply in 1..=VARIATION_PLIES {
        seen.insert(position.to_string());
        let moves = rate_single(&position, play, Which::All)?.moves;
        let Some(&best) = super::best_moves(&moves).first() else {
            let played = ply - 1;
            lines.push(format!(
                "  the game is over after {played} move{}",
                if played == 1 { "" } else { "s" }
            ));
            return Ok(lines);
        };
        let m = &moves[best];
        let worth = match (m.score, m.remoteness) {
            // Scored games: the value of what is left, for the player then to move.
            (Some(v), _) => format!("value {v} left for the player then to move"),
            (None, Some(0)) => {
                format!("{} for the player making it; the game ends", m.value.name())
            }
            (None, Some(r)) => format!(
                "{} for the player making it; remoteness {r} after it",
                m.value.name()
            ),
            (None, None) => format!("{} for the player making it", m.value.name()),
        };
        lines.push(format!("  {ply}. {}  ({worth})", m.text));
        let crate::erased::Position::Single(next) = &m.position else {
            break;
        };
        if !seen.insert(next.to_string()) {
            lines.push(
                "  … and the position repeats: perfect play goes on for ever (a draw)".into(),
            );
            return Ok(lines);
        }
        position = next.clone();
    }
    lines.push(format!("  … (the first {VARIATION_PLIES} moves)"));
    Ok(lines)
}

fn loopy(parts: &[Part], values: &[NimValue]) -> String {
    let shown: Vec<String> = parts
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{} {p}: {v}", p.game()))
        .collect();
    format!(
        "{}; a part of value ∞(K) (Smith's generalized Sprague–Grundy value) can be moved to any finite value in K or kept in play for ever: with one such part and finite parts of XOR x, the player to move wins when x is in K, else neither can force a win",
        shown.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;

    fn lines(words: &[&str], play: Play) -> Vec<String> {
        let position = Catalog::default().parse_position(words).unwrap();
        explain(&position, play).unwrap()
    }

    #[test]
    fn a_sum_shows_its_xor_in_binary_and_the_parts_to_change() {
        let l = lines(&["kayles", "10", "+", "nim", "3"], Play::Normal);
        // Kayles' table: G(10) = 2.
        assert!(l.iter().any(|s| s.ends_with(" 2 = 10")), "{l:#?}");
        assert!(l.iter().any(|s| s.ends_with(" 3 = 11")), "{l:#?}");
        assert!(l.iter().any(|s| s.contains("XOR = 01 = 1")), "{l:#?}");
        // 2 XOR 1 = 3 > 2, yet kayles 10 -> 1 + 7 reaches 1 XOR 2 = 3; nim 3 goes to 2.
        assert!(
            l.iter().any(|s| s
                .contains("part 1 (kayles 10): 2 XOR 1 = 3 > 2, and it has an option of value 3")),
            "{l:#?}"
        );
        assert!(
            l.iter()
                .any(|s| s.contains("part 2 (nim 3): 3 XOR 1 = 2 < 3")),
            "{l:#?}"
        );
        let l = lines(&["nim", "4", "1"], Play::Normal);
        assert!(
            l.iter()
                .any(|s| s
                    .contains("part 2 (nim 1): 1 XOR 5 = 4 > 1, and it has no option of value 4")),
            "{l:#?}"
        );
        let l = lines(&["nim", "1", "2", "3"], Play::Normal);
        assert!(l.iter().any(|s| s.contains("XOR = 00 = 0")), "{l:#?}");
        assert!(l.iter().any(|s| s.contains("a P-position")), "{l:#?}");
    }

    /// The parts the explanation says to move are exactly the parts with winning moves, and it
    /// calls a position P exactly when `value` does, on every sum of two Kayles heaps and a Nim
    /// heap up to 9.
    #[test]
    fn the_parts_to_change_are_the_parts_with_winning_moves() {
        let catalog = Catalog::default();
        for a in 0..=9u64 {
            for b in 0..=9u64 {
                for c in 0..=9u64 {
                    let words = [
                        "kayles".to_string(),
                        a.to_string(),
                        b.to_string(),
                        "+".into(),
                        "nim".into(),
                        c.to_string(),
                    ];
                    let position = catalog.parse_position(&words).unwrap();
                    let report = super::super::value(&position, Play::Normal).unwrap();
                    let l = explain(&position, Play::Normal).unwrap();
                    let said: std::collections::BTreeSet<usize> = l
                        .iter()
                        .filter(|s| s.contains("move it to") || s.contains("move there"))
                        .map(|s| {
                            let n = s.trim_start().strip_prefix("part ").unwrap();
                            n[..n.find(' ').unwrap()].parse::<usize>().unwrap() - 1
                        })
                        .collect();
                    let moved: std::collections::BTreeSet<usize> = report
                        .winning_moves
                        .iter()
                        .map(|m| m.component.unwrap())
                        .collect();
                    assert_eq!(said, moved, "{words:?}: {l:#?}");
                    let p = l.iter().any(|s| s.contains("a P-position"));
                    assert_eq!(p, report.outcome == crate::game::Outcome::P, "{words:?}");
                }
            }
        }
    }

    #[test]
    fn closed_forms_fill_in_their_numbers() {
        let l = lines(&["wythoff", "3", "5"], Play::Normal);
        assert!(l[0].contains("k = 5 − 3 = 2 and ⌊2φ⌋ = 3"), "{l:#?}");
        assert!(l[0].contains("a P-position"), "{l:#?}");
        let l = lines(&["fib", "10"], Play::Normal);
        assert!(l[0].contains("10 = 8 + 2"), "{l:#?}");
        assert!(l[0].contains("2 ≤ 9: taking 2 wins"), "{l:#?}");
        // The Tartan theorem: 2 ⊗ 3 = 1 in the nim field, and 1 XOR 1 = 0.
        let l = lines(&["corners", "1,1", "2,3"], Play::Normal);
        assert!(
            l[0].contains(
                "1,1: twins(1+1) ⊗ twins(1+1) = 1 ⊗ 1 = 1, 2,3: twins(2+1) ⊗ twins(3+1) = 2 ⊗ 3 = 1; XOR 0"
            ),
            "{l:#?}"
        );
        let l = lines(&["ruler", "5", "8"], Play::Normal);
        assert!(
            l[0].contains("8: the largest power of 2 dividing 8 = 8; XOR 9"),
            "{l:#?}"
        );
        let l = lines(&["moore:2", "3", "3", "3"], Play::Normal);
        assert!(l[0].contains("2^1: 3, 2^0: 3"), "{l:#?}");
        assert!(l[0].contains("a P-position"), "{l:#?}");
    }

    #[test]
    fn misere_sums_of_nim_follow_the_sj_rule() {
        let l = lines(&["nim", "1", "1", "1"], Play::Misere);
        assert!(
            l.iter()
                .any(|s| s.contains("0 parts have a value of 2 or more, and the XOR is 1")),
            "{l:#?}"
        );
        assert!(
            l.iter().any(|s| s == "so the player to move loses"),
            "{l:#?}"
        );
        let l = lines(&["nim", "1", "2"], Play::Misere);
        assert!(
            l.iter().any(|s| s == "so the player to move wins"),
            "{l:#?}"
        );
    }
}
