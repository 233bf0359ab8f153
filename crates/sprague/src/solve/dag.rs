//! Memoised, iterative evaluation of acyclic impartial games: a position's value is a function
//! of its options' values. An explicit stack replaces recursion, so deep games (a subtraction
//! game at heap 10^6) cannot overflow the call stack.
//!
//! - [`NimValues`]: nim values under normal play, through the game's
//!   [`components`](Impartial::components) and its [`known_nim_value`](Impartial::known_nim_value)
//!   hook, so each independent part is valued once;
//! - [`Search`]: win or loss with remoteness, under normal or misère play, by search over whole
//!   positions (neither remoteness nor misère outcomes split over a sum);
//! - [`mex`], the one minimum excludant.

use crate::budget::{Budget, Checker};
use crate::error::{Error, Result};
use crate::game::{Impartial, NimValue, Outcome, Play, Value};
use crate::solve::retrograde::Solved;
use std::collections::{HashMap, HashSet};

/// The default cap on memoised positions: about a few GiB for small positions.
pub const DEFAULT_POSITION_LIMIT: usize = 50_000_000;

/// The minimum excludant: the least value not in `values`.
///
/// ```
/// assert_eq!(sprague::solve::mex(&[0, 1, 3]), 2);
/// assert_eq!(sprague::solve::mex(&[]), 0);
/// ```
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

fn limit_error(limit: usize) -> Error {
    Error::Limit(format!(
        "more than {limit} positions; the game is too large for direct search"
    ))
}

/// Looks at the budget every 1024 positions and options listed (so that memory is looked at
/// every few MiB at most).
fn budget_checker(budget: Budget) -> Checker {
    Checker::new(budget, 1024)
}

fn cycle_error() -> Error {
    Error::Cycle("a repeated position".into())
}

/// Nim values (Grundy values) of an acyclic impartial game under normal play, memoised.
///
/// A position's value is the XOR of its components' values; a component's value comes from the
/// game's [`Impartial::known_nim_value`] when it gives one, else from the mex of its options'.
/// The search is iterative, so the depth of the game does not matter. A cycle is reported as
/// [`Error::Cycle`]; use the loopy solvers for such games.
///
/// ```
/// use sprague::game::{Game, Impartial};
/// use sprague::solve::NimValues;
///
/// struct Bash3; // take 1..=3
/// impl Game for Bash3 {
///     type Position = u64;
/// }
/// impl Impartial for Bash3 {
///     fn options(&self, n: &u64) -> Vec<u64> { (1..=3).filter(|t| t <= n).map(|t| n - t).collect() }
/// }
/// let mut solver = NimValues::new(Bash3);
/// assert_eq!(solver.nim_value(&1_000_000)?, 1_000_000 % 4);
/// # Ok::<(), sprague::Error>(())
/// ```
pub struct NimValues<G: Impartial> {
    game: G,
    memo: HashMap<G::Position, u64>,
    limit: usize,
    budget: Checker,
}

/// A component being valued: its options, each split into components, and how far the scan
/// of them has got.
struct Frame<P> {
    component: P,
    options: Vec<Vec<P>>,
    option: usize,
    part: usize,
}

impl<G: Impartial> NimValues<G> {
    /// A solver for `game` with an empty memo.
    pub fn new(game: G) -> Self {
        NimValues {
            game,
            memo: HashMap::new(),
            limit: DEFAULT_POSITION_LIMIT,
            budget: budget_checker(Budget::unlimited()),
        }
    }

    /// Caps the number of memoised positions; past it, [`Error::Limit`].
    pub fn with_position_limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// Stops with [`Error::Limit`] once `budget` is spent.
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget_checker(budget);
        self
    }

    /// [`NimValues::with_budget`] on a solver in place (its memo is kept).
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget_checker(budget);
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The number of components memoised so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// The nim value of `position`: the XOR of its components' values.
    ///
    /// # Errors
    /// [`Error::Cycle`] if the game is loopy, [`Error::Limit`] past the position limit, and
    /// whatever the game's hooks return.
    pub fn nim_value(&mut self, position: &G::Position) -> Result<u64> {
        let mut x = 0;
        for component in self.game.components(position) {
            x ^= self.component_value(&component)?;
        }
        Ok(x)
    }

    /// The value of a component that is already known: memoised, or given by the game.
    fn known(&mut self, component: &G::Position) -> Result<Option<u64>> {
        if let Some(&g) = self.memo.get(component) {
            return Ok(Some(g));
        }
        match self.game.known_nim_value(component)? {
            None => Ok(None),
            Some(NimValue::Finite(g)) => Ok(Some(g)),
            Some(NimValue::Infinite(_)) => Err(cycle_error()),
        }
    }

    fn frame(&self, component: G::Position) -> Result<Frame<G::Position>> {
        let options = self
            .game
            .try_options(&component)?
            .iter()
            .map(|o| {
                let parts = self.game.components(o);
                parts.iter().map(|c| self.game.key(c)).collect()
            })
            .collect();
        Ok(Frame {
            component,
            options,
            option: 0,
            part: 0,
        })
    }

    /// The nim value of one component (not split further).
    ///
    /// # Errors
    /// As for [`NimValues::nim_value`].
    pub fn component_value(&mut self, start: &G::Position) -> Result<u64> {
        let start = &self.game.key(start);
        if let Some(g) = self.known(start)? {
            return Ok(g);
        }
        let mut on_stack: HashSet<G::Position> = HashSet::new();
        on_stack.insert(start.clone());
        let mut stack = vec![self.frame(start.clone())?];
        let mut values = Vec::new();
        while let Some(top) = stack.last_mut() {
            // Find the next component of an option whose value is unknown.
            let mut child = None;
            while top.option < top.options.len() {
                let parts = &top.options[top.option];
                if top.part == parts.len() {
                    top.option += 1;
                    top.part = 0;
                    continue;
                }
                let part = parts[top.part].clone();
                top.part += 1;
                // Long option lists of known values are work too (a closed form per part).
                self.budget.tick()?;
                if self.memo.contains_key(&part) {
                    continue;
                }
                if on_stack.contains(&part) {
                    return Err(cycle_error());
                }
                match self.game.known_nim_value(&part)? {
                    Some(NimValue::Finite(g)) => {
                        self.memo.insert(part, g);
                    }
                    Some(NimValue::Infinite(_)) => return Err(cycle_error()),
                    None => {
                        child = Some(part);
                        break;
                    }
                }
            }
            if let Some(child) = child {
                if self.memo.len() + stack.len() >= self.limit {
                    return Err(limit_error(self.limit));
                }
                on_stack.insert(child.clone());
                let frame = self.frame(child)?;
                // Positions with many options hold more: they count for more.
                self.budget.tick_by(frame.options.len() + 1)?;
                stack.push(frame);
                continue;
            }
            let done = stack.pop().expect("the stack is not empty");
            values.clear();
            values.extend(
                done.options
                    .iter()
                    .map(|parts| parts.iter().fold(0, |x, p| x ^ self.memo[p])),
            );
            if self.memo.len() >= self.limit {
                return Err(limit_error(self.limit));
            }
            on_stack.remove(&done.component);
            self.memo.insert(done.component, mex(&values));
        }
        Ok(self.memo[start])
    }

    /// The normal-play outcome of `position` (`N` or `P`).
    ///
    /// # Errors
    /// As for [`NimValues::nim_value`].
    pub fn outcome(&mut self, position: &G::Position) -> Result<Outcome> {
        Ok(if self.nim_value(position)? == 0 {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    /// Every option of `position` with value 0: the winning moves.
    ///
    /// # Errors
    /// As for [`NimValues::nim_value`].
    pub fn winning_moves(&mut self, position: &G::Position) -> Result<Vec<G::Position>> {
        let mut out = Vec::new();
        for option in self.game.try_options(position)? {
            if self.nim_value(&option)? == 0 {
                out.push(option);
            }
        }
        Ok(out)
    }
}

/// The value of a position from its options' values under `play`: a win is 1 + the least
/// remoteness of a losing option, a loss 1 + the greatest remoteness of all.
fn from_options(play: Play, options: &[Solved]) -> Solved {
    if options.is_empty() {
        let value = match play {
            Play::Normal => Value::Lose,
            Play::Misere => Value::Win,
        };
        return Solved {
            value,
            remoteness: Some(0),
        };
    }
    let remoteness = |o: &Solved| o.remoteness.unwrap_or(0);
    let fastest_win = options
        .iter()
        .filter(|o| o.value == Value::Lose)
        .map(remoteness)
        .min();
    match fastest_win {
        Some(r) => Solved {
            value: Value::Win,
            remoteness: Some(r + 1),
        },
        None => Solved {
            value: Value::Lose,
            remoteness: Some(1 + options.iter().map(remoteness).max().unwrap_or(0)),
        },
    }
}

/// Outcomes and remoteness of an acyclic impartial game by direct memoised search over whole
/// positions, under normal or misère play (the player unable to move wins). Exponential in
/// general: the oracle for misère theory on small games, and the remoteness of small sums.
///
/// ```
/// use sprague::game::{Game, Impartial, Outcome, Play, Sum};
/// use sprague::solve::Search;
///
/// struct Nim;
/// impl Game for Nim {
///     type Position = u64;
/// }
/// impl Impartial for Nim {
///     fn options(&self, n: &u64) -> Vec<u64> { (0..*n).collect() }
/// }
/// let mut misere = Search::new(Sum(Nim), Play::Misere);
/// assert_eq!(misere.outcome(&vec![1, 1])?, Outcome::N); // take one, leave the last to the opponent
/// assert_eq!(misere.outcome(&vec![1, 1, 1])?, Outcome::P);
/// let mut normal = Search::new(Sum(Nim), Play::Normal);
/// assert_eq!(normal.solve(&vec![2, 2])?.remoteness, Some(4));
/// # Ok::<(), sprague::Error>(())
/// ```
pub struct Search<G: Impartial> {
    game: G,
    play: Play,
    memo: HashMap<G::Position, Solved>,
    limit: usize,
    work: u64,
    work_limit: u64,
    budget: Checker,
}

struct SearchFrame<P> {
    position: P,
    options: Vec<P>,
    next: usize,
}

impl<G: Impartial> Search<G> {
    /// A solver for `game` under `play`, with an empty memo.
    pub fn new(game: G, play: Play) -> Self {
        Search {
            game,
            play,
            memo: HashMap::new(),
            limit: DEFAULT_POSITION_LIMIT,
            work: 0,
            work_limit: u64::MAX,
            budget: budget_checker(Budget::unlimited()),
        }
    }

    /// Stops with [`Error::Limit`] once `budget` is spent.
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget_checker(budget);
        self
    }

    /// Caps the options listed in all (a search of few positions with huge option lists is
    /// slow too); past it, [`Error::Limit`].
    pub fn with_work_limit(mut self, options: u64) -> Self {
        self.work_limit = options;
        self
    }

    /// Caps the number of memoised positions; past it, [`Error::Limit`].
    pub fn with_position_limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The play convention.
    pub fn play(&self) -> Play {
        self.play
    }

    /// The number of positions memoised so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    fn frame(&mut self, position: G::Position) -> Result<SearchFrame<G::Position>> {
        let options = self.game.try_options(&position)?;
        self.work = self.work.saturating_add(options.len() as u64 + 1);
        if self.work > self.work_limit {
            return Err(Error::Limit(format!(
                "more than {} options; the game is too large for direct search",
                self.work_limit
            )));
        }
        Ok(SearchFrame {
            position,
            options,
            next: 0,
        })
    }

    /// Win or loss, with remoteness (always `Some`), of `start`.
    ///
    /// # Errors
    /// [`Error::Cycle`] if the game is loopy, [`Error::Limit`] past the position limit, and
    /// whatever listing the options returns.
    pub fn solve(&mut self, start: &G::Position) -> Result<Solved> {
        if let Some(&s) = self.memo.get(start) {
            return Ok(s);
        }
        let mut on_stack: HashSet<G::Position> = HashSet::new();
        on_stack.insert(start.clone());
        let mut stack = vec![self.frame(start.clone())?];
        let mut values = Vec::new();
        while let Some(top) = stack.last_mut() {
            let mut child = None;
            while top.next < top.options.len() {
                let option = &top.options[top.next];
                if self.memo.contains_key(option) {
                    top.next += 1;
                } else if on_stack.contains(option) {
                    return Err(cycle_error());
                } else {
                    child = Some(option.clone());
                    break;
                }
            }
            if let Some(child) = child {
                if self.memo.len() + stack.len() >= self.limit {
                    return Err(limit_error(self.limit));
                }
                on_stack.insert(child.clone());
                let frame = self.frame(child)?;
                // Positions with many options hold more: they count for more.
                self.budget.tick_by(frame.options.len() + 1)?;
                stack.push(frame);
                continue;
            }
            let done = stack.pop().expect("the stack is not empty");
            values.clear();
            values.extend(done.options.iter().map(|o| self.memo[o]));
            if self.memo.len() >= self.limit {
                return Err(limit_error(self.limit));
            }
            on_stack.remove(&done.position);
            self.memo
                .insert(done.position, from_options(self.play, &values));
        }
        Ok(self.memo[start])
    }

    /// The outcome of `position`: `N` if the player to move wins.
    ///
    /// # Errors
    /// As for [`Search::solve`].
    pub fn outcome(&mut self, position: &G::Position) -> Result<Outcome> {
        Ok(self.solve(position)?.outcome())
    }

    /// Every option of `position` that wins.
    ///
    /// # Errors
    /// As for [`Search::solve`].
    pub fn winning_moves(&mut self, position: &G::Position) -> Result<Vec<G::Position>> {
        let mut out = Vec::new();
        for option in self.game.try_options(position)? {
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
    use crate::game::{Game, Sum};

    struct Subtraction(Vec<u64>);
    impl Game for Subtraction {
        type Position = u64;
    }
    impl Impartial for Subtraction {
        fn options(&self, n: &u64) -> Vec<u64> {
            self.0.iter().filter(|&&t| t <= *n).map(|t| n - t).collect()
        }
    }

    struct Loop;
    impl Game for Loop {
        type Position = u8;
    }
    impl Impartial for Loop {
        fn options(&self, p: &u8) -> Vec<u8> {
            vec![(p + 1) % 3]
        }
    }

    /// Kayles on rows of pins, where a position is the multiset of rows and each row is a
    /// component.
    struct Kayles;
    impl Game for Kayles {
        type Position = Vec<u64>;
    }
    impl Impartial for Kayles {
        fn options(&self, rows: &Vec<u64>) -> Vec<Vec<u64>> {
            let mut out = Vec::new();
            for (i, &n) in rows.iter().enumerate() {
                for take in 1..=2.min(n) {
                    for left in 0..=n - take {
                        let right = n - take - left;
                        let mut next: Vec<u64> = rows.clone();
                        next.remove(i);
                        next.extend([left, right].into_iter().filter(|&r| r > 0));
                        next.sort_unstable();
                        out.push(next);
                    }
                }
            }
            out
        }
        fn components(&self, rows: &Vec<u64>) -> Vec<Vec<u64>> {
            rows.iter().map(|&r| vec![r]).collect()
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
    fn components_are_valued_once_and_xored() {
        // Kayles values 0..12: 0 1 2 3 1 4 3 2 1 4 2 6 4.
        let expected = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4];
        let mut solver = NimValues::new(Kayles);
        for (n, &g) in expected.iter().enumerate() {
            assert_eq!(solver.nim_value(&vec![n as u64]).unwrap(), g, "row {n}");
        }
        assert_eq!(solver.nim_value(&vec![5, 11, 3]).unwrap(), 4 ^ 6 ^ 3);
        // Only single rows were memoised, never sums of rows.
        assert!(solver.positions() <= expected.len());
        // The same values by search over whole positions, without splitting.
        let mut whole = Search::new(Kayles, Play::Normal);
        for rows in [vec![5, 11], vec![1, 2, 3], vec![4, 8]] {
            let split = solver.nim_value(&rows).unwrap();
            assert_eq!(
                whole.outcome(&rows).unwrap() == Outcome::P,
                split == 0,
                "{rows:?}"
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
        let mut search = Search::new(Loop, Play::Normal);
        assert!(matches!(search.solve(&0), Err(Error::Cycle(_))));
    }

    #[test]
    fn position_limit_is_enforced() {
        let mut solver = NimValues::new(Subtraction(vec![1])).with_position_limit(10);
        assert!(matches!(solver.nim_value(&100), Err(Error::Limit(_))));
        let mut search = Search::new(Subtraction(vec![1]), Play::Normal).with_position_limit(10);
        assert!(matches!(search.solve(&100), Err(Error::Limit(_))));
    }

    #[test]
    fn a_spent_budget_stops_both_searches() {
        let budget = Budget::stoppable();
        let mut solver = NimValues::new(Subtraction(vec![1])).with_budget(budget.clone());
        let mut search =
            Search::new(Subtraction(vec![1]), Play::Normal).with_budget(budget.clone());
        assert_eq!(solver.nim_value(&100).unwrap(), 0);
        budget.stop();
        // Small searches finish before the first look; large ones stop.
        assert!(matches!(
            solver.nim_value(&1_000_000),
            Err(Error::Stopped(_))
        ));
        assert!(matches!(search.solve(&1_000_000), Err(Error::Stopped(_))));
    }

    #[test]
    fn misere_nim_follows_the_known_rule() {
        // Misère Nim: with all heaps ≤ 1 the player to move wins iff the XOR is 0, else iff it is not.
        let mut misere = Search::new(Sum(Subtraction((1..=6).collect())), Play::Misere);
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

    #[test]
    fn remoteness_wins_fastest_and_loses_slowest() {
        // Subtraction {1, 2}: P-positions are multiples of 3; from 3k + r the winner takes r,
        // then answers every move to reach the next multiple of 3: 2k + 1 moves. From 3k the
        // loser takes 1 each time: 2k moves.
        let mut search = Search::new(Subtraction(vec![1, 2]), Play::Normal);
        for n in 0..30u64 {
            let s = search.solve(&n).unwrap();
            let (k, r) = (n / 3, n % 3);
            if r == 0 {
                assert_eq!(
                    (s.value, s.remoteness),
                    (Value::Lose, Some(2 * k as u32)),
                    "{n}"
                );
            } else {
                assert_eq!(
                    (s.value, s.remoteness),
                    (Value::Win, Some(2 * k as u32 + 1)),
                    "{n}"
                );
            }
        }
    }
}
