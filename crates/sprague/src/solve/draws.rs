//! Draw levels (GamesmanUni's `drawLevel` and `drawRemoteness`, from GamesCrafters' pure draw
//! analysis): which side of a drawn game is under pressure.
//!
//! In a draw neither player can force a win, but one may be able to force the other into a
//! position where a slip loses. Within the drawn positions (value [`Value::Draw`]):
//!
//! - the *fringe* of level 0 is every draw where the player to move has a losing move (a move to
//!   a position the opponent wins): that player must take care, so the position counts as lost
//!   in the game "reach the fringe", which ends there (its other moves do not matter);
//! - moving within the draws, a position is *draw-won* (draw remoteness odd) when some move
//!   reaches a draw-lost one, *draw-lost* (remoteness even) when every move goes to a won
//!   position or a draw-won one (the fringe has remoteness 0); remoteness counts the moves to
//!   the fringe, fastest for the winner, slowest for the loser, as for wins and losses;
//! - the draws not settled at level k form level k + 1, whose fringe is every remaining draw
//!   with a move to a position settled so far as won (draw-won at a lower level included).
//!
//! A draw that never settles (neither side can force the other to any fringe) has no level.
//! The results satisfy: a draw-won position has a draw-lost move of its level, one step nearer
//! the fringe; a draw-lost one off the fringe has only won or draw-won moves.
//!
//! GamesCrafters' pure draw analysis (GamesmanClassic's `solveloopypd.c`) also calls a draw
//! *impure* when a fringe position can move to another fringe position; here the fringe ends the
//! level game, so such moves do not matter and such draws still get their level. (In
//! `cards:2,10` every draw would be impure by that stricter rule.)

pub use crate::game::DrawLevel;
use crate::game::Value;
use crate::solve::graph::Graph;
use crate::solve::retrograde::Retrograde;

const UNSET: u32 = u32::MAX;

/// The draw level of every vertex of `graph` (solved by `values`): `None` for wins, losses,
/// ties and draws that never settle.
///
/// ```
/// use sprague::solve::{draws::draw_levels, retrograde, Graph};
/// // 0 <-> 1 <-> 2 for ever, and 2 may also step to 3, which wins at once (3 -> 4, 4 lost).
/// let g = Graph::from_edges(5, &[(0, 1), (1, 0), (1, 2), (2, 1), (2, 3), (3, 4)]);
/// let values = retrograde(&g, |_| None);
/// let levels = draw_levels(&g, &values);
/// // 2 has a losing move (to 3): the fringe. 1 moves to it: draw-won in 1. 0 must go to 1.
/// assert_eq!(levels[2].map(|d| (d.level, d.remoteness)), Some((0, 0)));
/// assert_eq!(levels[1].map(|d| (d.level, d.remoteness)), Some((0, 1)));
/// assert_eq!(levels[0].map(|d| (d.level, d.remoteness)), Some((0, 2)));
/// assert_eq!(levels[3], None);
/// ```
pub fn draw_levels(graph: &Graph, values: &Retrograde) -> Vec<Option<DrawLevel>> {
    let n = graph.vertex_count();
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum State {
        Settled,
        Open,
        DrawWin,
        DrawLose,
    }
    let mut state: Vec<State> = (0..n as u32)
        .map(|v| {
            if values.value(v) == Value::Draw {
                State::Open
            } else {
                State::Settled
            }
        })
        .collect();
    let mut level = vec![UNSET; n];
    let mut remoteness = vec![UNSET; n];
    // Moves of each open draw not yet known to go to a won or draw-won position.
    let mut open_moves: Vec<u32> = (0..n as u32)
        .map(|v| {
            graph
                .successors(v)
                .iter()
                .filter(|&&c| values.value(c) != Value::Win)
                .count() as u32
        })
        .collect();
    // Won positions whose predecessors have not yet been looked at as a fringe.
    let mut seeds: Vec<u32> = (0..n as u32)
        .filter(|&v| values.value(v) == Value::Win)
        .collect();
    let mut k = 0u32;
    while !seeds.is_empty() {
        // The fringe of level k: open draws with a move to a seed.
        let mut queue: std::collections::VecDeque<u32> = Default::default();
        for &s in &seeds {
            for &p in graph.predecessors(s) {
                if state[p as usize] == State::Open {
                    state[p as usize] = State::DrawLose;
                    level[p as usize] = k;
                    remoteness[p as usize] = 0;
                    queue.push_back(p);
                }
            }
        }
        seeds.clear();
        // Retrograde within the open draws, in order of remoteness.
        while let Some(c) = queue.pop_front() {
            let r = remoteness[c as usize];
            for &p in graph.predecessors(c) {
                let pi = p as usize;
                match (state[c as usize], state[pi]) {
                    (State::DrawLose, State::Open) => {
                        state[pi] = State::DrawWin;
                        level[pi] = k;
                        remoteness[pi] = r + 1;
                        queue.push_back(p);
                        seeds.push(p);
                    }
                    (State::DrawWin, State::Open) => {
                        open_moves[pi] -= 1;
                        if open_moves[pi] == 0 {
                            state[pi] = State::DrawLose;
                            level[pi] = k;
                            remoteness[pi] = r + 1;
                            queue.push_back(p);
                        }
                    }
                    _ => {}
                }
            }
        }
        k += 1;
    }
    (0..n)
        .map(|v| match state[v] {
            State::DrawWin | State::DrawLose => Some(DrawLevel {
                level: level[v],
                remoteness: remoteness[v],
            }),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::retrograde::retrograde;
    use proptest::prelude::*;

    /// Random graphs: every level found satisfies its definition.
    fn graph() -> impl Strategy<Value = Graph> {
        (2usize..14).prop_flat_map(|n| {
            proptest::collection::vec((0..n as u32, 0..n as u32), 0..n * 3)
                .prop_map(move |edges| Graph::from_edges(n, &edges))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn levels_satisfy_their_definition(g in graph()) {
            let values = retrograde(&g, |_| None);
            let levels = draw_levels(&g, &values);
            for v in 0..g.vertex_count() as u32 {
                let Some(d) = levels[v as usize] else { continue };
                prop_assert_eq!(values.value(v), Value::Draw);
                let moves = g.successors(v);
                let won = |c: u32| values.value(c) == Value::Win;
                if d.remoteness == 0 {
                    // The fringe: a move to a won position, or (above level 0) to a position
                    // draw-won at a lower level.
                    let to_fringe_seed = moves.iter().any(|&c| {
                        won(c) || levels[c as usize].is_some_and(|e| !e.pressed() && e.level < d.level)
                    });
                    prop_assert!(to_fringe_seed, "{} at the fringe without a seed", v);
                    if d.level == 0 {
                        prop_assert!(moves.iter().any(|&c| won(c)));
                    }
                } else if d.pressed() {
                    // Draw-lost: every move is won or draw-won (at this level or below), one
                    // of its level at remoteness - 1.
                    for &c in moves {
                        let ok = won(c)
                            || levels[c as usize].is_some_and(|e| !e.pressed() && e.level <= d.level);
                        prop_assert!(ok, "{} -> {}", v, c);
                    }
                    let nearer = Some(DrawLevel { level: d.level, remoteness: d.remoteness - 1 });
                    prop_assert!(moves.iter().any(|&c| levels[c as usize] == nearer));
                } else {
                    // Draw-won: a draw-lost move of its level at remoteness - 1.
                    let nearer = Some(DrawLevel { level: d.level, remoteness: d.remoteness - 1 });
                    prop_assert!(moves.iter().any(|&c| levels[c as usize] == nearer));
                }
            }
        }
    }

    #[test]
    fn a_second_level_starts_where_the_first_stops() {
        // 0 <-> 1 for ever, and 1 may step to 2, which is draw-won at level 0:
        // 2 <-> 3 with 3 -> 4 -> 5 (4 wins). 3 is the level-0 fringe, 2 draw-won in 1;
        // 1 moves to 2 (a draw-won position): level 1's fringe; 0 is draw-won at level 1.
        let g = Graph::from_edges(6, &[(0, 1), (1, 0), (1, 2), (2, 3), (3, 2), (3, 4), (4, 5)]);
        let values = retrograde(&g, |_| None);
        let levels = draw_levels(&g, &values);
        let at = |v: usize| levels[v].map(|d| (d.level, d.remoteness));
        assert_eq!(at(3), Some((0, 0)));
        assert_eq!(at(2), Some((0, 1)));
        assert_eq!(at(1), Some((1, 0)));
        assert_eq!(at(0), Some((1, 1)));
        // A pure cycle with no way out has no fringe: no level.
        let g = Graph::from_edges(2, &[(0, 1), (1, 0)]);
        let values = retrograde(&g, |_| None);
        assert_eq!(draw_levels(&g, &values), vec![None, None]);
    }
}
