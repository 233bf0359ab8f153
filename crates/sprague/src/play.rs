//! Playing against a perfect opponent: the engine's choice among the rated moves of
//! [`crate::analysis::rate`], finding the move a player typed, and a small seeded random
//! generator. Works for every game of the catalog.
//!
//! ```
//! use sprague::analysis::{rate, Which};
//! use sprague::game::{Play, Value};
//! use sprague::play::{best_moves, choose, XorShift};
//! let position = sprague::catalog::Catalog::default().parse_position(&["nim", "3", "4", "5"])?;
//! let moves = rate(&position, Play::Normal, Which::All)?.moves;
//! let best = best_moves(&moves);
//! assert_eq!(best.len(), 1);
//! assert_eq!(moves[best[0]].value, Value::Win);
//! assert_eq!(moves[best[0]].text, "3 -> 1");
//! let mut rng = XorShift::new(7);
//! assert!(choose(&moves, &mut rng).is_some());
//! # Ok::<(), sprague::Error>(())
//! ```

use crate::analysis::Rated;
use crate::erased::Position;
use crate::error::Result;
use crate::game::{Outcome, Play, Value};
use std::cmp::Reverse;

/// How a perfect player ranks a move: the best value first, then a win (or tie) as fast as
/// possible, a loss as slow as possible.
fn preference(m: &Rated) -> (Value, Reverse<u64>) {
    let r = m.remoteness.unwrap_or(u64::MAX);
    match m.value {
        Value::Lose => (m.value, Reverse(u64::MAX - r)),
        _ => (m.value, Reverse(r)),
    }
}

/// The indices of the moves a perfect player may choose (all equally good).
pub fn best_moves(moves: &[Rated]) -> Vec<usize> {
    let Some(best) = moves.iter().map(preference).max() else {
        return Vec::new();
    };
    (0..moves.len())
        .filter(|&i| preference(&moves[i]) == best)
        .collect()
}

/// The engine's move: one of the [`best_moves`], at random; `None` when there is no move.
pub fn choose(moves: &[Rated], rng: &mut XorShift) -> Option<usize> {
    let best = best_moves(moves);
    (!best.is_empty()).then(|| best[rng.below(best.len() as u64) as usize])
}

/// Finds the move the player typed: a move's text or its label (`2:7 -> 3` in sums of
/// `parts` parts), ignoring case and spaces.
///
/// # Errors
/// A message that names the input and lists the legal moves.
pub fn find_move(moves: &[Rated], parts: usize, input: &str) -> std::result::Result<usize, String> {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase()
    };
    let wanted = norm(input);
    if let Some(i) = moves.iter().position(|m| norm(&m.label(parts)) == wanted) {
        return Ok(i);
    }
    if let Some(i) = moves.iter().position(|m| norm(&m.text) == wanted) {
        return Ok(i);
    }
    let mut legal: Vec<String> = moves.iter().map(|m| m.label(parts)).collect();
    if legal.len() > 24 {
        legal.truncate(24);
        legal.push("…".into());
    }
    Err(format!(
        "'{}' is not a legal move; legal moves: {}",
        input.trim(),
        legal.join(", ")
    ))
}

/// Who has won a finished game (no legal move left), seen by the player to move.
///
/// # Errors
/// Whatever evaluating the position returns.
pub fn final_outcome(position: &Position, play: Play) -> Result<Outcome> {
    Ok(match position {
        Position::Single(s) => s.evaluate()?.outcome,
        Position::Sum(_) | Position::Partizan(_) => match play {
            Play::Normal => Outcome::P,
            Play::Misere => Outcome::N,
        },
    })
}

/// A tiny xorshift64* generator, for the engine's random choice among equal moves.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from `seed` (any value, 0 included).
    pub fn new(seed: u64) -> XorShift {
        // SplitMix64 scrambles the seed so that nearby seeds give unrelated streams.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        XorShift(if z == 0 { 1 } else { z })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// An index into `len` items (`len` > 0).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// One of `items`, or `None` when there are none.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.index(items.len())])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{moves as moves_report, rate, Which};
    use crate::catalog::Catalog;

    fn rated(words: &[&str]) -> Vec<Rated> {
        let p = Catalog::default().parse_position(words).unwrap();
        rate(&p, Play::Normal, Which::All).unwrap().moves
    }

    #[test]
    fn the_engine_wins_fastest_and_loses_slowest() {
        // x to move can win at once in c3 (row 3 is the top row).
        let moves = rated(&["mnk:3,3,3", "xx.oo...."]);
        let best = best_moves(&moves);
        assert_eq!(best.len(), 1);
        assert_eq!(moves[best[0]].text, "c3");
        assert_eq!(moves[best[0]].remoteness, Some(0));
        // o to move must block at c3 or lose; every move loses, the slowest is chosen.
        let moves = rated(&["mnk:3,3,3", "xx.o....."]);
        let best = best_moves(&moves);
        assert!(best.iter().all(|&i| moves[i].text == "c3"), "{:?}", best);
    }

    #[test]
    fn heap_games_are_played_by_nim_values() {
        let moves = rated(&["nim", "1", "2"]);
        let labels: Vec<String> = moves.iter().map(|m| m.label(2)).collect();
        assert_eq!(labels, vec!["1:1 -> 0", "2:2 -> 1", "2:2 -> 0"]);
        let best = best_moves(&moves);
        assert_eq!(best, vec![1]);
        assert_eq!(find_move(&moves, 2, "2: 2->1"), Ok(1));
        assert_eq!(find_move(&moves, 2, "1 -> 0"), Ok(0));
        assert!(find_move(&moves, 2, "5 -> 0")
            .unwrap_err()
            .contains("legal moves"));
        let p = Catalog::default().parse_position(&["nim"]).unwrap();
        assert_eq!(final_outcome(&p, Play::Normal).unwrap(), Outcome::P);
    }

    #[test]
    fn moves_of_coin_games_lead_to_normalised_positions() {
        // Flipping 1-5 from heads 3 5 turns coin 3 back to tails.
        let moves = rated(&["ruler", "3", "5"]);
        let flip = moves.iter().find(|m| m.text == "flip 1-5").unwrap();
        assert_eq!(flip.position.to_string(), "ruler 1 2 4");
        let p = Catalog::default()
            .parse_position(&["ruler", "3", "5"])
            .unwrap();
        let report = moves_report(&p, Play::Normal).unwrap();
        let shown: Vec<String> = rated(&["ruler", "3", "5"])
            .iter()
            .map(|m| m.position.to_string())
            .collect();
        let listed: Vec<String> = report.moves.iter().map(|m| m.display.clone()).collect();
        assert_eq!(shown, listed);
    }

    #[test]
    fn random_choice_is_uniform_enough_and_seeded() {
        let mut a = XorShift::new(1);
        let mut b = XorShift::new(1);
        let mut counts = [0u32; 3];
        for _ in 0..3000 {
            let x = a.below(3);
            assert_eq!(x, b.below(3));
            counts[x as usize] += 1;
        }
        assert!(counts.iter().all(|&c| c > 800), "{counts:?}");
    }
}
