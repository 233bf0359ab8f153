//! Playing against a perfect opponent: every move with its value (for hints), the engine's
//! choice, and a small seeded random generator. Works for every game of the catalog through
//! [`crate::analysis::Position`]: standalone games by their evaluation, impartial sums by
//! nim values.
//!
//! ```
//! use sprague::play::{best_moves, rated_moves, MoveValue, XorShift};
//! let position = sprague::spec::parse_position(&["nim", "3", "4", "5"])?;
//! let moves = rated_moves(&position, sprague::game::Play::Normal)?;
//! let best = best_moves(&moves);
//! assert_eq!(best.len(), 1);
//! assert_eq!(moves[best[0]].value, MoveValue::Win);
//! assert_eq!(moves[best[0]].text, "3 -> 1");
//! let mut rng = XorShift::new(7);
//! assert!(sprague::play::choose(&moves, &mut rng).is_some());
//! # Ok::<(), sprague::Error>(())
//! ```

use crate::analysis::{self, ComponentRef, Position, OPTION_LIMIT};
use crate::error::{Error, Result};
use crate::game::{NimValue, Outcome, Play};
use crate::solve::sum;
use std::cmp::Reverse;

/// What a move is worth to the player who makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveValue {
    /// The mover loses against perfect play.
    Lose,
    /// Neither side can force a win: a tie or a draw.
    Draw,
    /// The mover wins.
    Win,
}

impl MoveValue {
    /// The value of moving to a position of outcome `next` (for the player then to move).
    pub const fn after(next: Outcome) -> MoveValue {
        match next {
            Outcome::P => MoveValue::Win,
            Outcome::N => MoveValue::Lose,
            Outcome::D => MoveValue::Draw,
        }
    }

    /// `win`, `draw` or `lose`.
    pub const fn name(self) -> &'static str {
        match self {
            MoveValue::Win => "win",
            MoveValue::Draw => "draw",
            MoveValue::Lose => "lose",
        }
    }
}

/// A legal move with its value.
#[derive(Clone)]
pub struct RatedMove {
    /// The move's text, e.g. `b2` or `3 -> 1`.
    pub text: String,
    /// Which summand it moves in (0-based), for sums of several parts.
    pub component: Option<usize>,
    /// The position after the move.
    pub position: Position,
    /// What the move is worth to the mover.
    pub value: MoveValue,
    /// The remoteness of the position after the move, where the game defines it.
    pub remoteness: Option<u64>,
}

impl RatedMove {
    /// The move as the player types it: `text`, prefixed with `N:` (1-based summand) when the
    /// sum has several parts.
    pub fn label(&self) -> String {
        match self.component {
            Some(i) => format!("{}:{}", i + 1, self.text),
            None => self.text.clone(),
        }
    }
}

/// The summands of a sum, flattened, each with its segment.
fn flat_parts(segments: &[analysis::Segment]) -> Vec<ComponentRef> {
    segments
        .iter()
        .flat_map(|s| s.parts.iter().cloned())
        .collect()
}

/// Every legal move of `position` with its value.
///
/// # Errors
/// Whatever evaluating the positions returns ([`Error::Limit`] for too many options or too
/// large a game to solve).
pub fn rated_moves(position: &Position, play: Play) -> Result<Vec<RatedMove>> {
    match position {
        Position::Single(s) => s
            .moves(play)?
            .into_iter()
            .map(|(text, next)| {
                let e = next.evaluate(play)?;
                Ok(RatedMove {
                    text,
                    component: None,
                    position: Position::Single(next),
                    value: MoveValue::after(e.outcome),
                    remoteness: e.remoteness,
                })
            })
            .collect(),
        Position::Sum(segments) => {
            let parts = flat_parts(segments);
            let values = if play == Play::Normal {
                parts
                    .iter()
                    .map(|p| p.nim_value())
                    .collect::<Result<Vec<NimValue>>>()?
            } else {
                Vec::new()
            };
            let mut out = Vec::new();
            for (index, part) in parts.iter().enumerate() {
                for option in part.options(OPTION_LIMIT)? {
                    // Through `Position::replace`, so each game's normalisation applies (coin
                    // games sort their heads and cancel two heads on one coin).
                    let next = position.replace(index, &option.parts);
                    let outcome = if play == Play::Normal {
                        let mut after = values.clone();
                        after.remove(index);
                        for p in &option.parts {
                            after.push(p.nim_value()?);
                        }
                        sum::outcome(&after)
                    } else {
                        analysis::value(&next, play)?.outcome
                    };
                    out.push(RatedMove {
                        text: option.text,
                        component: (parts.len() > 1).then_some(index),
                        position: next,
                        value: MoveValue::after(outcome),
                        remoteness: None,
                    });
                    if out.len() > OPTION_LIMIT {
                        return Err(Error::Limit(format!(
                            "more than {OPTION_LIMIT} moves to rate"
                        )));
                    }
                }
            }
            Ok(out)
        }
    }
}

/// How a perfect player ranks a move: the best value first, then a win as fast as possible,
/// a loss as slow as possible, a tie as fast as possible.
fn preference(m: &RatedMove) -> (MoveValue, Reverse<u64>) {
    let r = m.remoteness.unwrap_or(u64::MAX);
    match m.value {
        MoveValue::Lose => (m.value, Reverse(u64::MAX - r)),
        _ => (m.value, Reverse(r)),
    }
}

/// The indices of the moves a perfect player may choose (all equally good).
pub fn best_moves(moves: &[RatedMove]) -> Vec<usize> {
    let Some(best) = moves.iter().map(preference).max() else {
        return Vec::new();
    };
    (0..moves.len())
        .filter(|&i| preference(&moves[i]) == best)
        .collect()
}

/// The engine's move: one of the [`best_moves`], at random; `None` when there is no move.
pub fn choose(moves: &[RatedMove], rng: &mut XorShift) -> Option<usize> {
    let best = best_moves(moves);
    (!best.is_empty()).then(|| best[rng.below(best.len() as u64) as usize])
}

/// Finds the move the player typed: a move's text or label, ignoring case and spaces.
///
/// # Errors
/// A message that names the input and lists the legal moves.
pub fn find_move(moves: &[RatedMove], input: &str) -> std::result::Result<usize, String> {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase()
    };
    let wanted = norm(input);
    if let Some(i) = moves.iter().position(|m| norm(&m.label()) == wanted) {
        return Ok(i);
    }
    if let Some(i) = moves.iter().position(|m| norm(&m.text) == wanted) {
        return Ok(i);
    }
    let mut legal: Vec<String> = moves.iter().map(RatedMove::label).collect();
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
        Position::Single(s) => s.evaluate(play)?.outcome,
        Position::Sum(_) => match play {
            Play::Normal => Outcome::P,
            Play::Misere => Outcome::N,
        },
    })
}

/// The position drawn for a terminal.
pub fn render(position: &Position) -> String {
    match position {
        Position::Single(s) => s.render(),
        Position::Sum(_) => position.to_string(),
    }
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::parse_position;

    #[test]
    fn the_engine_wins_fastest_and_loses_slowest() {
        // x to move can win at once in c3 (row 3 is the top row).
        let p = parse_position(&["mnk:3,3,3", "xx.oo...."]).unwrap();
        let moves = rated_moves(&p, Play::Normal).unwrap();
        let best = best_moves(&moves);
        assert_eq!(best.len(), 1);
        assert_eq!(moves[best[0]].text, "c3");
        assert_eq!(moves[best[0]].remoteness, Some(0));
        // o to move must block at c3 or lose; every move loses, the slowest is chosen.
        let p = parse_position(&["mnk:3,3,3", "xx.o....."]).unwrap();
        let moves = rated_moves(&p, Play::Normal).unwrap();
        let best = best_moves(&moves);
        assert!(best.iter().all(|&i| moves[i].text == "c3"), "{:?}", best);
    }

    #[test]
    fn heap_games_are_played_by_nim_values() {
        let p = parse_position(&["nim", "1", "2"]).unwrap();
        let moves = rated_moves(&p, Play::Normal).unwrap();
        let labels: Vec<String> = moves.iter().map(RatedMove::label).collect();
        assert_eq!(labels, vec!["1:1 -> 0", "2:2 -> 1", "2:2 -> 0"]);
        let best = best_moves(&moves);
        assert_eq!(best, vec![1]);
        assert_eq!(find_move(&moves, "2: 2->1"), Ok(1));
        assert_eq!(find_move(&moves, "1 -> 0"), Ok(0));
        assert!(find_move(&moves, "5 -> 0")
            .unwrap_err()
            .contains("legal moves"));
        let p = parse_position(&["nim"]).unwrap();
        assert_eq!(final_outcome(&p, Play::Normal).unwrap(), Outcome::P);
    }

    #[test]
    fn moves_of_coin_games_lead_to_normalised_positions() {
        // Flipping 1-5 from heads 3 5 turns coin 3 back to tails.
        let p = parse_position(&["ruler", "3", "5"]).unwrap();
        let moves = rated_moves(&p, Play::Normal).unwrap();
        let flip = moves.iter().find(|m| m.text == "flip 1-5").unwrap();
        assert_eq!(flip.position.to_string(), "ruler 1 2 4");
        let report = analysis::moves(&p, Play::Normal).unwrap();
        let shown: Vec<String> = moves.iter().map(|m| m.position.to_string()).collect();
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
