//! Memoised, iterative evaluation of acyclic games: a value of a position is a function of its
//! options' values. An explicit stack replaces recursion, so deep games (a subtraction game at
//! heap 10^6) cannot overflow the call stack.

use crate::error::{Error, Result};
use crate::game::{Impartial, Outcome};
use std::collections::{HashMap, HashSet};

/// The default cap on memoised positions: about a few GiB for small positions.
pub const DEFAULT_POSITION_LIMIT: usize = 50_000_000;

/// A memo table plus the rules, shared by the solvers below.
struct Dag<G: Impartial, T> {
    game: G,
    memo: HashMap<G::Position, T>,
    limit: usize,
}

struct Frame<P> {
    position: P,
    options: Vec<P>,
    next: usize,
}

impl<G: Impartial, T: Copy> Dag<G, T> {
    fn new(game: G) -> Self {
        Dag {
            game,
            memo: HashMap::new(),
            limit: DEFAULT_POSITION_LIMIT,
        }
    }

    /// Evaluates `start`, where `combine` maps the options' values to the position's value.
    fn evaluate(&mut self, start: &G::Position, combine: impl Fn(&[T]) -> T) -> Result<T> {
        if let Some(&v) = self.memo.get(start) {
            return Ok(v);
        }
        let mut on_stack: HashSet<G::Position> = HashSet::new();
        let mut stack = vec![self.frame(start.clone())];
        on_stack.insert(start.clone());
        let mut values = Vec::new();
        while let Some(top) = stack.last_mut() {
            // Descend into the first option that is not known yet.
            let mut child = None;
            while top.next < top.options.len() {
                let option = &top.options[top.next];
                if self.memo.contains_key(option) {
                    top.next += 1;
                } else if on_stack.contains(option) {
                    return Err(Error::Cycle(String::from("a repeated position")));
                } else {
                    child = Some(option.clone());
                    break;
                }
            }
            if let Some(child) = child {
                if self.memo.len() + stack.len() >= self.limit {
                    return Err(self.limit_error());
                }
                on_stack.insert(child.clone());
                let frame = self.frame(child);
                stack.push(frame);
                continue;
            }
            let done = stack.pop().expect("stack is non-empty");
            values.clear();
            values.extend(done.options.iter().map(|o| self.memo[o]));
            let value = combine(&values);
            if self.memo.len() >= self.limit {
                return Err(self.limit_error());
            }
            on_stack.remove(&done.position);
            self.memo.insert(done.position, value);
        }
        Ok(self.memo[start])
    }

    fn limit_error(&self) -> Error {
        Error::Limit(format!(
            "more than {} positions; the game is too large for direct search",
            self.limit
        ))
    }

    fn frame(&self, position: G::Position) -> Frame<G::Position> {
        let options = self.game.options(&position);
        Frame {
            position,
            options,
            next: 0,
        }
    }
}

/// The minimum excludant: the least value not in `values`.
pub fn mex(values: &[u64]) -> u64 {
    let mut seen = vec![false; values.len() + 1];
    for &v in values {
        if let Ok(i) = usize::try_from(v) {
            if i < seen.len() {
                seen[i] = true;
            }
        }
    }
    seen.iter().position(|&s| !s).unwrap_or(values.len()) as u64
}

/// Nim values (Grundy values) of an acyclic impartial game under normal play, memoised.
///
/// The search is iterative, so the depth of the game does not matter. A cycle is reported as
/// [`Error::Cycle`]; use the loopy solvers for such games.
///
/// ```
/// use sprague::game::Impartial;
/// use sprague::solve::NimValues;
///
/// struct Bash3; // take 1..=3
/// impl Impartial for Bash3 {
///     type Position = u64;
///     fn options(&self, n: &u64) -> Vec<u64> { (1..=3).filter(|t| t <= n).map(|t| n - t).collect() }
/// }
/// let mut solver = NimValues::new(Bash3);
/// assert_eq!(solver.nim_value(&1_000_000)?, 1_000_000 % 4);
/// # Ok::<(), sprague::Error>(())
/// ```
pub struct NimValues<G: Impartial> {
    dag: Dag<G, u64>,
}

impl<G: Impartial> NimValues<G> {
    /// A solver for `game` with an empty memo.
    pub fn new(game: G) -> Self {
        NimValues {
            dag: Dag::new(game),
        }
    }

    /// Caps the number of memoised positions; past it, [`Error::Limit`].
    pub fn with_position_limit(mut self, limit: usize) -> Self {
        self.dag.limit = limit;
        self
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.dag.game
    }

    /// The nim value of `position`.
    ///
    /// # Errors
    /// [`Error::Cycle`] if the game is loopy, [`Error::Limit`] past the position limit.
    pub fn nim_value(&mut self, position: &G::Position) -> Result<u64> {
        self.dag.evaluate(position, mex)
    }

    /// The normal-play outcome of `position` (`N` or `P`).
    pub fn outcome(&mut self, position: &G::Position) -> Result<Outcome> {
        Ok(if self.nim_value(position)? == 0 {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    /// Every option of `position` with value 0: the winning moves.
    pub fn winning_moves(&mut self, position: &G::Position) -> Result<Vec<G::Position>> {
        let mut out = Vec::new();
        for option in self.dag.game.options(position) {
            if self.nim_value(&option)? == 0 {
                out.push(option);
            }
        }
        Ok(out)
    }

    /// The number of positions memoised so far.
    pub fn positions(&self) -> usize {
        self.dag.memo.len()
    }
}

/// Misère outcomes (the player unable to move wins) of an acyclic impartial game, by direct
/// memoised search. Exponential in general: the oracle for misère theory on small games.
///
/// ```
/// use sprague::game::{Impartial, Outcome, Sum};
/// use sprague::solve::MisereOutcomes;
///
/// struct Nim;
/// impl Impartial for Nim {
///     type Position = u64;
///     fn options(&self, n: &u64) -> Vec<u64> { (0..*n).collect() }
/// }
/// let mut misere = MisereOutcomes::new(Sum(Nim));
/// assert_eq!(misere.outcome(&vec![1, 1])?, Outcome::N); // take one, leave the last to the opponent
/// assert_eq!(misere.outcome(&vec![1, 1, 1])?, Outcome::P);
/// # Ok::<(), sprague::Error>(())
/// ```
pub struct MisereOutcomes<G: Impartial> {
    dag: Dag<G, bool>,
}

impl<G: Impartial> MisereOutcomes<G> {
    /// A solver for `game` with an empty memo.
    pub fn new(game: G) -> Self {
        MisereOutcomes {
            dag: Dag::new(game),
        }
    }

    /// Caps the number of memoised positions; past it, [`Error::Limit`].
    pub fn with_position_limit(mut self, limit: usize) -> Self {
        self.dag.limit = limit;
        self
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.dag.game
    }

    /// The misère outcome of `position`: `N` if the player to move wins.
    pub fn outcome(&mut self, position: &G::Position) -> Result<Outcome> {
        let wins = self.dag.evaluate(position, |options| {
            options.is_empty() || options.iter().any(|&w| !w)
        })?;
        Ok(if wins { Outcome::N } else { Outcome::P })
    }

    /// Every option of `position` that wins under misère play.
    pub fn winning_moves(&mut self, position: &G::Position) -> Result<Vec<G::Position>> {
        let mut out = Vec::new();
        for option in self.dag.game.options(position) {
            if self.outcome(&option)? == Outcome::P {
                out.push(option);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Sum;

    struct Subtraction(Vec<u64>);
    impl Impartial for Subtraction {
        type Position = u64;
        fn options(&self, n: &u64) -> Vec<u64> {
            self.0.iter().filter(|&&t| t <= *n).map(|t| n - t).collect()
        }
    }

    struct Loop;
    impl Impartial for Loop {
        type Position = u8;
        fn options(&self, p: &u8) -> Vec<u8> {
            vec![(p + 1) % 3]
        }
    }

    #[test]
    fn mex_of_values() {
        assert_eq!(mex(&[]), 0);
        assert_eq!(mex(&[0, 1, 3]), 2);
        assert_eq!(mex(&[1, 2]), 0);
        assert_eq!(mex(&[2, 0, 1, u64::MAX]), 3);
    }

    #[test]
    fn subtraction_134_values_are_periodic_with_period_7() {
        let mut solver = NimValues::new(Subtraction(vec![1, 3, 4]));
        let expected = [0, 1, 0, 1, 2, 3, 2];
        for n in 0..70u64 {
            assert_eq!(
                solver.nim_value(&n).unwrap(),
                expected[(n % 7) as usize],
                "n = {n}"
            );
        }
    }

    #[test]
    fn deep_game_does_not_overflow_the_stack() {
        let mut solver = NimValues::new(Subtraction(vec![1, 3, 4]));
        assert_eq!(
            solver.nim_value(&1_000_000).unwrap(),
            [0, 1, 0, 1, 2, 3, 2][1_000_000 % 7]
        );
    }

    #[test]
    fn cycles_are_reported() {
        let mut solver = NimValues::new(Loop);
        assert!(matches!(solver.nim_value(&0), Err(Error::Cycle(_))));
    }

    #[test]
    fn position_limit_is_enforced() {
        let mut solver = NimValues::new(Subtraction(vec![1])).with_position_limit(10);
        assert!(matches!(solver.nim_value(&100), Err(Error::Limit(_))));
    }

    #[test]
    fn misere_nim_follows_the_known_rule() {
        // Misère Nim: with all heaps ≤ 1 the player to move wins iff the XOR is 0, else iff it is not.
        let mut misere = MisereOutcomes::new(Sum(Subtraction((1..=6).collect())));
        for a in 0..5u64 {
            for b in 0..5u64 {
                for c in 0..4u64 {
                    let heaps = vec![a, b, c];
                    let x = a ^ b ^ c;
                    let small = heaps.iter().all(|&h| h <= 1);
                    let wins = if small { x == 0 } else { x != 0 };
                    let expected = if wins { Outcome::N } else { Outcome::P };
                    assert_eq!(misere.outcome(&heaps).unwrap(), expected, "{heaps:?}");
                }
            }
        }
    }
}
