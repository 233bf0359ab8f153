//! Retrograde analysis of position graphs with cycles: win, lose, tie or draw for every position,
//! with remoteness as GamesmanOne defines it.
//!
//! The algorithm works backwards from the finished positions, one remoteness at a time:
//! 1. Positions with a terminal result, and positions with no options (a loss for the player to
//!    move), form the frontier of remoteness 0.
//! 2. Taking the frontier in order of remoteness r: a parent of a losing position is a win in
//!    r + 1 (the first losing option found has the least remoteness); a parent whose counter of
//!    undecided options drops to zero (all options winning) is a loss in r + 1 (the last winning
//!    option found has the greatest remoteness). A first-in first-out queue keeps the frontier in
//!    order of remoteness, so each value is final when it is set.
//! 3. Then ties spread the same way: a position still undecided with a tying option is a tie, its
//!    remoteness 1 + the least remoteness among its tying options (GamesmanOne's rule: among
//!    equal outcomes a player takes the shortest tie).
//! 4. Everything still undecided is a draw (infinite play); draws have no remoteness.
//!
//! So a perfect player wins as fast as possible, loses as slowly as possible, prefers a tie to a
//! draw, and both to a loss. Ties and draws are both outcome [`Outcome::D`].

use crate::error::Result;
use crate::game::{Outcome, Terminal, TwoPlayer, Value};
use crate::solve::graph::{explore, Explored, Graph};
use serde::Serialize;
use std::hash::Hash;

/// The most positions [`solve_game`] explores.
pub const DEFAULT_POSITION_LIMIT: usize = 20_000_000;

/// A solved position: its value and remoteness (the number of moves to the end under perfect
/// play; `None` for draws).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Solved {
    /// Win, lose, tie or draw.
    pub value: Value,
    /// Moves to the end with perfect play; `None` for a draw.
    pub remoteness: Option<u32>,
}

impl Solved {
    /// The outcome class of the value.
    pub const fn outcome(&self) -> Outcome {
        self.value.outcome()
    }
}

/// How many positions have each value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Positions won by the player to move.
    pub wins: u64,
    /// Positions lost by the player to move.
    pub losses: u64,
    /// Positions that end in a tie.
    pub ties: u64,
    /// Positions of infinite play.
    pub draws: u64,
}

/// The values of every vertex of a graph, from [`retrograde`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retrograde {
    value: Vec<Value>,
    remoteness: Vec<u32>,
}

impl Retrograde {
    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.value.len()
    }

    /// Whether the graph had no vertices.
    pub fn is_empty(&self) -> bool {
        self.value.is_empty()
    }

    /// The value and remoteness of vertex `v`.
    ///
    /// # Panics
    /// If `v` is not a vertex.
    pub fn get(&self, v: u32) -> Solved {
        let value = self.value[v as usize];
        Solved {
            value,
            remoteness: (value != Value::Draw).then(|| self.remoteness[v as usize]),
        }
    }

    /// The value of vertex `v`.
    pub fn value(&self, v: u32) -> Value {
        self.value[v as usize]
    }

    /// The outcome class of vertex `v`.
    pub fn outcome(&self, v: u32) -> Outcome {
        self.value[v as usize].outcome()
    }

    /// The remoteness of vertex `v` (`None` for a draw).
    pub fn remoteness(&self, v: u32) -> Option<u32> {
        self.get(v).remoteness
    }

    /// How many vertices have each value.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for v in &self.value {
            match v {
                Value::Win => c.wins += 1,
                Value::Lose => c.losses += 1,
                Value::Tie => c.ties += 1,
                Value::Draw => c.draws += 1,
            }
        }
        c
    }
}

/// Retrograde analysis of `graph`, where `terminal(v)` gives the result of a finished position
/// (its out-edges are then ignored). A vertex with no out-edges and no terminal result is a loss
/// for the player to move. Time and memory are linear in the size of the graph.
///
/// # Examples
///
/// ```
/// use sprague::game::Value;
/// use sprague::solve::{retrograde, Graph};
/// // 0 -> 1 -> 2 (no moves), and 3 <-> 4 forever.
/// let g = Graph::from_edges(5, &[(0, 1), (1, 2), (3, 4), (4, 3), (3, 0)]);
/// let r = retrograde(&g, |_| None);
/// assert_eq!(r.get(2).value, Value::Lose);
/// assert_eq!(r.get(1).remoteness, Some(1));
/// assert_eq!(r.get(0).value, Value::Lose);
/// assert_eq!(r.get(3).value, Value::Win); // move to 0
/// assert_eq!(r.get(3).remoteness, Some(3));
/// assert_eq!(r.get(4).value, Value::Lose);
/// assert_eq!(r.get(4).remoteness, Some(4));
/// ```
pub fn retrograde(graph: &Graph, terminal: impl Fn(u32) -> Option<Terminal>) -> Retrograde {
    const UNDECIDED: u8 = 0;
    let n = graph.vertex_count();
    // `state` is UNDECIDED, or 1 + the value's index, while solving.
    let mut state = vec![UNDECIDED; n];
    let mut remoteness = vec![0u32; n];
    let mut undecided = vec![0u32; n];
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    let mut ties: Vec<u32> = Vec::new();
    const WIN: u8 = 1;
    const LOSE: u8 = 2;
    const TIE: u8 = 3;
    for v in 0..n as u32 {
        match terminal(v) {
            Some(Terminal::Win) => {
                state[v as usize] = WIN;
                queue.push(v);
            }
            Some(Terminal::Loss) => {
                state[v as usize] = LOSE;
                queue.push(v);
            }
            Some(Terminal::Tie) => {
                state[v as usize] = TIE;
                ties.push(v);
            }
            None => {
                let degree = graph.out_degree(v) as u32;
                undecided[v as usize] = degree;
                if degree == 0 {
                    state[v as usize] = LOSE;
                    queue.push(v);
                }
            }
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let child = queue[head];
        head += 1;
        let r = remoteness[child as usize] + 1;
        if state[child as usize] == LOSE {
            for &parent in graph.predecessors(child) {
                let p = parent as usize;
                if state[p] == UNDECIDED {
                    state[p] = WIN;
                    remoteness[p] = r;
                    queue.push(parent);
                }
            }
        } else {
            for &parent in graph.predecessors(child) {
                let p = parent as usize;
                if state[p] == UNDECIDED {
                    undecided[p] -= 1;
                    if undecided[p] == 0 {
                        state[p] = LOSE;
                        remoteness[p] = r;
                        queue.push(parent);
                    }
                }
            }
        }
    }
    let mut head = 0;
    while head < ties.len() {
        let child = ties[head];
        head += 1;
        let r = remoteness[child as usize] + 1;
        for &parent in graph.predecessors(child) {
            let p = parent as usize;
            if state[p] == UNDECIDED {
                state[p] = TIE;
                remoteness[p] = r;
                ties.push(parent);
            }
        }
    }
    let value = state
        .into_iter()
        .map(|s| match s {
            WIN => Value::Win,
            LOSE => Value::Lose,
            TIE => Value::Tie,
            _ => Value::Draw,
        })
        .collect();
    Retrograde { value, remoteness }
}

/// A game solved on every position reachable from its start(s): [`solve_game`].
#[derive(Clone, Debug)]
pub struct Solution<P> {
    /// The reachable positions and the moves between them.
    pub explored: Explored<P>,
    /// The value of each vertex of `explored.graph`.
    pub values: Retrograde,
}

impl<P: Clone + Eq + Hash> Solution<P> {
    /// The value of `position`, if it was reachable.
    pub fn get(&self, position: &P) -> Option<Solved> {
        self.explored.vertex(position).map(|v| self.values.get(v))
    }

    /// The value of the first start position.
    ///
    /// # Panics
    /// If the solution was built from no start.
    pub fn start(&self) -> Solved {
        self.values.get(0)
    }

    /// The number of positions solved.
    pub fn positions(&self) -> usize {
        self.values.len()
    }

    /// How many positions have each value.
    pub fn counts(&self) -> Counts {
        self.values.counts()
    }
}

/// Solves every position reachable from `start` by retrograde analysis.
///
/// # Errors
/// [`crate::Error::Limit`] past [`DEFAULT_POSITION_LIMIT`] reachable positions.
///
/// ```
/// use sprague::game::{Game, Outcome, Terminal, TwoPlayer};
/// // A counter from 0 to 3 where each move adds 1 or 2; whoever reaches 3 wins, so the player
/// // to move at 3 has lost.
/// struct Race;
/// impl Game for Race {
///     type Position = u8;
/// }
/// impl TwoPlayer for Race {
///     fn terminal(&self, p: &u8) -> Option<Terminal> { (*p >= 3).then_some(Terminal::Loss) }
///     fn options(&self, p: &u8) -> Vec<u8> { vec![p + 1, p + 2] }
/// }
/// let solution = sprague::solve::solve_game(&Race, 0)?;
/// assert_eq!(solution.start().outcome(), Outcome::P);
/// assert_eq!(solution.start().remoteness, Some(2));
/// assert_eq!(solution.positions(), 5);
/// # Ok::<(), sprague::Error>(())
/// ```
pub fn solve_game<G: TwoPlayer>(game: &G, start: G::Position) -> Result<Solution<G::Position>> {
    solve_game_from(game, [start], DEFAULT_POSITION_LIMIT)
}

/// Solves every position reachable from any of `starts`, exploring at most `limit` positions.
///
/// # Errors
/// [`crate::Error::Limit`] past `limit` reachable positions.
pub fn solve_game_from<G: TwoPlayer>(
    game: &G,
    starts: impl IntoIterator<Item = G::Position>,
    limit: usize,
) -> Result<Solution<G::Position>> {
    let explored = explore(game, starts, limit)?;
    let values = retrograde(&explored.graph, |v| explored.terminal[v as usize]);
    Ok(Solution { explored, values })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The slow oracle: fixpoint iteration with no frontier ordering.
    ///
    /// Win/lose sets grow to their least fixpoint; remoteness is then found by value iteration
    /// from zero (monotone, so it reaches the least fixpoint, which is the true remoteness); ties
    /// by Bellman–Ford relaxation from the terminal ties.
    pub(crate) fn naive(graph: &Graph, terminal: &[Option<Terminal>]) -> Vec<Solved> {
        let n = graph.vertex_count();
        let mut value: Vec<Option<Value>> = (0..n)
            .map(|v| match terminal[v] {
                Some(Terminal::Win) => Some(Value::Win),
                Some(Terminal::Loss) => Some(Value::Lose),
                Some(Terminal::Tie) => None,
                None => None,
            })
            .collect();
        let open = |v: usize| terminal[v].is_none();
        loop {
            let mut changed = false;
            for v in 0..n {
                if value[v].is_some() || !open(v) {
                    continue;
                }
                let options = graph.successors(v as u32);
                if options
                    .iter()
                    .any(|&c| value[c as usize] == Some(Value::Lose))
                {
                    value[v] = Some(Value::Win);
                    changed = true;
                } else if options
                    .iter()
                    .all(|&c| value[c as usize] == Some(Value::Win))
                {
                    value[v] = Some(Value::Lose);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut rem = vec![0u32; n];
        loop {
            let mut changed = false;
            for v in 0..n {
                if !open(v) || value[v].is_none() {
                    continue;
                }
                let options = graph.successors(v as u32);
                let new = match value[v] {
                    Some(Value::Win) => options
                        .iter()
                        .filter(|&&c| value[c as usize] == Some(Value::Lose))
                        .map(|&c| rem[c as usize] + 1)
                        .min()
                        .unwrap(),
                    _ => options
                        .iter()
                        .map(|&c| rem[c as usize] + 1)
                        .max()
                        .unwrap_or(0),
                };
                if new != rem[v] {
                    rem[v] = new;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut tie: Vec<Option<u32>> = (0..n)
            .map(|v| (terminal[v] == Some(Terminal::Tie)).then_some(0))
            .collect();
        loop {
            let mut changed = false;
            for v in 0..n {
                if !open(v) || value[v].is_some() {
                    continue;
                }
                let best = graph
                    .successors(v as u32)
                    .iter()
                    .filter_map(|&c| tie[c as usize].map(|r| r + 1))
                    .min();
                if best.is_some() && best != tie[v] {
                    tie[v] = best;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        (0..n)
            .map(|v| match (value[v], tie[v]) {
                (Some(value), _) => Solved {
                    value,
                    remoteness: Some(rem[v]),
                },
                (None, Some(r)) => Solved {
                    value: Value::Tie,
                    remoteness: Some(r),
                },
                (None, None) => Solved {
                    value: Value::Draw,
                    remoteness: None,
                },
            })
            .collect()
    }

    pub(crate) fn random_graph(max_vertices: usize) -> impl Strategy<Value = Graph> {
        (1..=max_vertices).prop_flat_map(|n| {
            proptest::collection::vec((0..n as u32, 0..n as u32), 0..3 * n)
                .prop_map(move |edges| Graph::from_edges(n, &edges))
        })
    }

    fn terminal_strategy() -> impl Strategy<Value = Option<Terminal>> {
        prop_oneof![
            6 => Just(None),
            1 => Just(Some(Terminal::Win)),
            1 => Just(Some(Terminal::Loss)),
            1 => Just(Some(Terminal::Tie)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn agrees_with_the_naive_fixpoint_solver(
            graph in random_graph(12),
            terminals in proptest::collection::vec(terminal_strategy(), 12),
        ) {
            let terminal = &terminals[..graph.vertex_count()];
            let fast = retrograde(&graph, |v| terminal[v as usize]);
            let slow = naive(&graph, terminal);
            for v in 0..graph.vertex_count() as u32 {
                prop_assert_eq!(fast.get(v), slow[v as usize], "vertex {}", v);
            }
        }

        #[test]
        fn normal_play_agrees_with_the_naive_fixpoint_solver(graph in random_graph(12)) {
            let none = vec![None; graph.vertex_count()];
            let fast = retrograde(&graph, |_| None);
            let slow = naive(&graph, &none);
            for v in 0..graph.vertex_count() as u32 {
                prop_assert_eq!(fast.get(v), slow[v as usize], "vertex {}", v);
            }
        }
    }

    #[test]
    fn ties_take_the_shortest_path_and_beat_draws() {
        // 0 -> 1 -> 2 (tie), 0 -> 3 (tie), 0 -> 4 <-> 5 (draw), 6 -> 0 and 6 -> 7 (loss).
        let g = Graph::from_edges(
            8,
            &[
                (0, 1),
                (1, 2),
                (0, 3),
                (0, 4),
                (4, 5),
                (5, 4),
                (6, 0),
                (6, 7),
            ],
        );
        let terminal = |v: u32| match v {
            2 | 3 => Some(Terminal::Tie),
            _ => None,
        };
        let r = retrograde(&g, terminal);
        assert_eq!(
            r.get(0),
            Solved {
                value: Value::Tie,
                remoteness: Some(1)
            }
        );
        assert_eq!(
            r.get(1),
            Solved {
                value: Value::Tie,
                remoteness: Some(1)
            }
        );
        assert_eq!(
            r.get(4),
            Solved {
                value: Value::Draw,
                remoteness: None
            }
        );
        assert_eq!(
            r.get(6),
            Solved {
                value: Value::Win,
                remoteness: Some(1)
            }
        );
        assert_eq!(r.get(7).outcome(), Outcome::P);
        assert_eq!(
            r.counts(),
            Counts {
                wins: 1,
                losses: 1,
                ties: 4,
                draws: 2
            }
        );
    }

    #[test]
    fn terminal_results_override_options() {
        let g = Graph::from_edges(2, &[(0, 1)]);
        let r = retrograde(&g, |v| (v == 0).then_some(Terminal::Win));
        assert_eq!(
            r.get(0),
            Solved {
                value: Value::Win,
                remoteness: Some(0)
            }
        );
        assert_eq!(
            r.get(1),
            Solved {
                value: Value::Lose,
                remoteness: Some(0)
            }
        );
    }
}
