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
//! assert_eq!(moves[best[0]].describe_in(3), "heap 1: 3 → 1");
//! let mut rng = XorShift::new(7);
//! assert!(choose(&moves, &mut rng).is_some());
//! # Ok::<(), sprague::Error>(())
//! ```

use crate::analysis::Rated;
use crate::erased::Position;
use crate::error::Result;
use crate::game::{Outcome, Play};

pub use crate::analysis::best_moves;

/// The engine's move: one of the [`best_moves`], at random; `None` when there is no move.
pub fn choose(moves: &[Rated], rng: &mut XorShift) -> Option<usize> {
    let best = best_moves(moves);
    (!best.is_empty()).then(|| best[rng.below(best.len() as u64) as usize])
}

/// Stable numbers for the summands of a game played: a summand keeps its number for the whole
/// game, whatever happens to the others. A summand that vanishes takes its number with it, so
/// the others do not shift (`heap 3` stays heap 3 after heap 1 is emptied); a split keeps the
/// number for the first summand it leaves and gives the others new ones.
///
/// ```
/// use sprague::analysis::{rate, Which};
/// use sprague::game::Play;
/// use sprague::play::Numbering;
/// let position = sprague::catalog::Catalog::default().parse_position(&["nim", "3", "4", "5"])?;
/// let moves = rate(&position, Play::Normal, Which::All)?.moves;
/// let numbers = Numbering::new(3);
/// let empty_first = moves.iter().find(|m| m.text == "3 -> 0").unwrap();
/// assert_eq!(numbers.describe(empty_first), "heap 1: 3 → 0");
/// let after = numbers.after(empty_first);
/// assert_eq!(after.numbers(), &[2, 3]);
/// let next = rate(&empty_first.position, Play::Normal, Which::All)?.moves;
/// assert_eq!(after.describe(&next[0]), "heap 2: 4 → 3");
/// # Ok::<(), sprague::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Numbering {
    numbers: Vec<u64>,
    next: u64,
}

impl Numbering {
    /// Summands numbered 1..=`parts`, in order.
    pub fn new(parts: usize) -> Numbering {
        Numbering {
            numbers: (1..=parts as u64).collect(),
            next: parts as u64 + 1,
        }
    }

    /// Numbers a front end kept (one per summand, in order, all different and positive).
    ///
    /// # Errors
    /// A message when there are not `parts` of them or two are equal or one is 0.
    pub fn from_numbers(numbers: Vec<u64>, parts: usize) -> std::result::Result<Numbering, String> {
        if numbers.len() != parts {
            return Err(format!(
                "{} summand numbers for a position of {parts} summands",
                numbers.len()
            ));
        }
        let mut sorted = numbers.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != numbers.len() || sorted.first() == Some(&0) {
            return Err("summand numbers must be positive and all different".into());
        }
        let next = sorted.last().map_or(1, |&n| n.saturating_add(1));
        Ok(Numbering { numbers, next })
    }

    /// The number of each summand, in order.
    pub fn numbers(&self) -> &[u64] {
        &self.numbers
    }

    /// The number of summand `index`, when the position has several (a lone summand needs
    /// none).
    pub fn number(&self, index: Option<usize>) -> Option<u64> {
        index
            .filter(|_| self.numbers.len() > 1)
            .and_then(|i| self.numbers.get(i).copied())
    }

    /// The move `m` in words with its summand's number: `heap 2: 7 → 3`.
    pub fn describe(&self, m: &Rated) -> String {
        m.describe(self.number(m.component))
    }

    /// The move as typed, `N:TEXT` with the summand's number (the text alone for a lone
    /// summand or a position that is not a sum).
    pub fn label(&self, m: &Rated) -> String {
        match self.number(m.component) {
            Some(n) => format!("{n}:{}", m.text),
            None => m.text.clone(),
        }
    }

    /// The numbering after the move `m`: its summand's pieces take its place (the first keeps
    /// its number, the others get new ones), one that vanishes takes its number away.
    pub fn after(&self, m: &Rated) -> Numbering {
        let Some(i) = m.component.filter(|&i| i < self.numbers.len()) else {
            return self.clone();
        };
        let pieces = (m.position.parts().len() + 1).saturating_sub(self.numbers.len());
        let mut numbers = self.numbers[..i].to_vec();
        let mut next = self.next;
        for k in 0..pieces {
            if k == 0 {
                numbers.push(self.numbers[i]);
            } else {
                numbers.push(next);
                next += 1;
            }
        }
        numbers.extend_from_slice(&self.numbers[i + 1..]);
        Numbering { numbers, next }
    }
}

/// Finds the move the player typed: its description (`heap 2: 7 → 3`, `->` for `→`
/// accepted), its label (`2:7 -> 3`) or its text, with the summands numbered by `numbering`,
/// ignoring case and spaces.
///
/// # Errors
/// A message that names the input and lists the legal moves.
pub fn find_move(
    moves: &[Rated],
    numbering: &Numbering,
    input: &str,
) -> std::result::Result<usize, String> {
    let norm = |s: &str| -> String {
        s.replace('→', "->")
            .replace('–', "-")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase()
    };
    let wanted = norm(input);
    let forms: [&dyn Fn(&Rated) -> String; 3] =
        [&|m| numbering.label(m), &|m| numbering.describe(m), &|m| {
            m.text.clone()
        }];
    for form in forms {
        if let Some(i) = moves.iter().position(|m| norm(&form(m)) == wanted) {
            return Ok(i);
        }
    }
    let mut legal: Vec<String> = moves.iter().map(|m| numbering.label(m)).collect();
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
        let numbering = Numbering::new(2);
        assert_eq!(find_move(&moves, &numbering, "2: 2->1"), Ok(1));
        assert_eq!(find_move(&moves, &numbering, "1 -> 0"), Ok(0));
        assert_eq!(find_move(&moves, &numbering, "Heap 2: 2 → 0"), Ok(2));
        assert_eq!(find_move(&moves, &numbering, "heap 2: 2 -> 0"), Ok(2));
        assert!(find_move(&moves, &numbering, "5 -> 0")
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

    /// Heap numbers stay put when a heap vanishes or splits, through a whole game of Kayles.
    #[test]
    fn summand_numbers_are_stable_through_a_game() {
        let catalog = Catalog::default();
        let mut position = catalog.parse_position(&["kayles", "3", "7", "2"]).unwrap();
        let mut numbering = Numbering::new(3);
        // Row 1 (3 pins) knocked down entirely is impossible in Kayles; knock down its middle
        // pin, leaving 1 + 1: row 1 and a new row 4.
        let moves = rate(&position, Play::Normal, Which::All).unwrap().moves;
        let m = moves.iter().find(|m| m.text == "3 -> 1+1").unwrap();
        assert_eq!(numbering.describe(m), "row 1: knock down pin 2 (3 → 1 + 1)");
        numbering = numbering.after(m);
        position = m.position.clone();
        assert_eq!(position.to_string(), "kayles 1 1 7 2");
        assert_eq!(numbering.numbers(), &[1, 4, 2, 3]);
        // Emptying the 2 (row 3) leaves rows 1, 4, 2 with their numbers.
        let moves = rate(&position, Play::Normal, Which::All).unwrap().moves;
        let m = moves.iter().find(|m| m.text == "2 -> 0").unwrap();
        assert_eq!(numbering.describe(m), "row 3: knock down pins 1–2 (2 → 0)");
        numbering = numbering.after(m);
        assert_eq!(numbering.numbers(), &[1, 4, 2]);
        let moves = rate(&m.position, Play::Normal, Which::All).unwrap().moves;
        let m = moves.iter().find(|m| m.text == "7 -> 3+3").unwrap();
        assert_eq!(numbering.describe(m), "row 2: knock down pin 4 (7 → 3 + 3)");
        assert_eq!(numbering.label(m), "2:7 -> 3+3");
        assert_eq!(
            find_move(&moves, &numbering, "row 2: knock down pin 4 (7 -> 3 + 3)")
                .map(|i| &moves[i].text),
            Ok(&m.text)
        );
        assert_eq!(numbering.after(m).numbers(), &[1, 4, 2, 5]);
        assert!(Numbering::from_numbers(vec![1, 1], 2).is_err());
        assert!(Numbering::from_numbers(vec![1, 2], 3).is_err());
        assert_eq!(
            Numbering::from_numbers(vec![4, 2], 2)
                .unwrap()
                .after(m)
                .numbers()
                .len(),
            2
        );
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
