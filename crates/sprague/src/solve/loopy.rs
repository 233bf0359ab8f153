//! Generalized Sprague–Grundy values of loopy impartial games (Smith 1966; Fraenkel–Yesha 1986).
//!
//! Under normal play every position of a finite loopy impartial game gets either a finite value g
//! or ∞(K), where K is the set of finite values among its options. The values decide sums by
//! Smith's rule ([`crate::solve::sum::outcome`]).
//!
//! The labelling goes by stages m = 0, 1, 2, …. At the start of stage m every still unlabelled
//! vertex has options of all values below m. During the stage a vertex u is labelled m when
//! - no option of u is labelled m, and
//! - every option of u that is not labelled with a value below m (so unlabelled, or ∞) already has
//!   an option labelled m: a move there can be answered by a move back to value m.
//!
//! Labels m spread backwards: labelling u makes each parent p of u (that is not finite) "answered",
//! which lowers the count of blocking options of every parent of p; a count that reaches zero
//! labels that vertex. At the end of the stage an unlabelled vertex with no option labelled m can
//! never be finite: it is ∞. The work per stage is linear in the edges around the vertices still
//! in play, so the total is about the sum over vertices of degree × value.

use crate::error::Result;
use crate::game::{Impartial, NimValue, Outcome, Terminal, TwoPlayer};
use crate::solve::graph::{explore, Explored, Graph};
use crate::solve::retrograde::DEFAULT_POSITION_LIMIT;
use std::hash::Hash;

const UNLABELLED: u32 = u32::MAX - 1;
const INFINITE: u32 = u32::MAX;

/// The generalized Sprague–Grundy values of every vertex of a graph, from [`loopy_values`].
///
/// Stored compactly (one `u32` a vertex); the escape sets K of ∞ values are computed on demand
/// from the graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopyValues {
    label: Vec<u32>,
}

impl LoopyValues {
    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.label.len()
    }

    /// Whether the graph had no vertices.
    pub fn is_empty(&self) -> bool {
        self.label.is_empty()
    }

    /// The finite value of vertex `v`, or `None` if it is ∞.
    pub fn finite(&self, v: u32) -> Option<u64> {
        let label = self.label[v as usize];
        (label != INFINITE).then_some(u64::from(label))
    }

    /// The escapes K of vertex `v` (the sorted finite values of its options) if `v` is ∞.
    pub fn escapes(&self, graph: &Graph, v: u32) -> Option<Vec<u64>> {
        if self.label[v as usize] != INFINITE {
            return None;
        }
        let mut k: Vec<u64> = graph
            .successors(v)
            .iter()
            .filter_map(|&c| self.finite(c))
            .collect();
        k.sort_unstable();
        k.dedup();
        Some(k)
    }

    /// The value of vertex `v`: finite, or ∞(K). `graph` must be the graph the values were
    /// computed for.
    pub fn nim_value(&self, graph: &Graph, v: u32) -> NimValue {
        match self.escapes(graph, v) {
            Some(k) => NimValue::Infinite(k),
            None => NimValue::Finite(u64::from(self.label[v as usize])),
        }
    }

    /// The outcome of vertex `v` alone: `P` for value 0, `N` for other finite values and for
    /// ∞(K) with 0 in K, `D` otherwise.
    pub fn outcome(&self, graph: &Graph, v: u32) -> Outcome {
        match self.finite(v) {
            Some(0) => Outcome::P,
            Some(_) => Outcome::N,
            None if graph
                .successors(v)
                .iter()
                .any(|&c| self.finite(c) == Some(0)) =>
            {
                Outcome::N
            }
            None => Outcome::D,
        }
    }
}

/// The generalized Sprague–Grundy value of every vertex of `graph` under normal play (a vertex
/// with no options has value 0).
///
/// # Examples
///
/// ```
/// use sprague::game::NimValue::{Finite, Infinite};
/// use sprague::solve::{loopy_values, Graph};
/// // 0 has no move; 1 -> 0; 2 <-> 3, and 3 -> 0.
/// let g = Graph::from_edges(4, &[(1, 0), (2, 3), (3, 2), (3, 0)]);
/// let values = loopy_values(&g);
/// assert_eq!(values.nim_value(&g, 0), Finite(0));
/// assert_eq!(values.nim_value(&g, 1), Finite(1));
/// assert_eq!(values.nim_value(&g, 2), Finite(0)); // its only option 3 can move back to 0
/// assert_eq!(values.nim_value(&g, 3), Finite(1));
/// let cycle = Graph::from_edges(2, &[(0, 1), (1, 0)]);
/// assert_eq!(loopy_values(&cycle).nim_value(&cycle, 0), Infinite(vec![]));
/// ```
pub fn loopy_values(graph: &Graph) -> LoopyValues {
    let n = graph.vertex_count();
    let mut label = vec![UNLABELLED; n];
    // Options of each vertex that are not (yet) finite.
    let mut nonfinite: Vec<u32> = (0..n as u32).map(|v| graph.out_degree(v) as u32).collect();
    // Options that block a label in the current stage.
    let mut blocking = vec![0u32; n];
    // The stage (plus one) in which the vertex was last found to have an option labelled with the
    // stage's value; saves clearing a flag array every stage.
    let mut answered = vec![0u32; n];
    let mut active: Vec<u32> = (0..n as u32).collect();
    let mut queue: Vec<u32> = Vec::new();
    let mut stage: u32 = 0;
    while !active.is_empty() {
        let stamp = stage + 1;
        queue.clear();
        for &u in &active {
            blocking[u as usize] = nonfinite[u as usize];
            if nonfinite[u as usize] == 0 {
                label[u as usize] = stage;
                queue.push(u);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let u = queue[head];
            head += 1;
            for &p in graph.predecessors(u) {
                let pl = label[p as usize];
                if (pl != UNLABELLED && pl != INFINITE) || answered[p as usize] == stamp {
                    continue;
                }
                answered[p as usize] = stamp;
                for &q in graph.predecessors(p) {
                    let q = q as usize;
                    if label[q] != UNLABELLED || answered[q] == stamp {
                        continue;
                    }
                    blocking[q] -= 1;
                    if blocking[q] == 0 {
                        label[q] = stage;
                        queue.push(q as u32);
                    }
                }
            }
        }
        for &u in &queue {
            for &p in graph.predecessors(u) {
                nonfinite[p as usize] -= 1;
            }
        }
        active.retain(|&u| {
            let u = u as usize;
            if label[u] != UNLABELLED {
                return false;
            }
            if answered[u] != stamp {
                label[u] = INFINITE;
                return false;
            }
            true
        });
        stage += 1;
    }
    LoopyValues { label }
}

/// The loopy values of every position reachable from a start: [`loopy_nim_values`].
#[derive(Clone, Debug)]
pub struct LoopySolution<P> {
    /// The reachable positions and the moves between them.
    pub explored: Explored<P>,
    /// The value of each vertex of `explored.graph`.
    pub values: LoopyValues,
}

impl<P: Clone + Eq + Hash> LoopySolution<P> {
    /// The value of `position`, if it was reachable.
    pub fn nim_value(&self, position: &P) -> Option<NimValue> {
        self.explored
            .vertex(position)
            .map(|v| self.values.nim_value(&self.explored.graph, v))
    }
}

/// Views an impartial game by reference as a [`TwoPlayer`] game under normal play.
struct ByRef<'a, G>(&'a G);

impl<G: Impartial> crate::game::Game for ByRef<'_, G> {
    type Position = G::Position;
}

impl<G: Impartial> TwoPlayer for ByRef<'_, G> {
    fn terminal(&self, _position: &G::Position) -> Option<Terminal> {
        None
    }

    fn options(&self, position: &G::Position) -> Vec<G::Position> {
        self.0.options(position)
    }
}

/// The generalized Sprague–Grundy values of every position reachable from `start` of an
/// impartial game that may have cycles.
///
/// # Errors
/// [`crate::Error::Limit`] past [`DEFAULT_POSITION_LIMIT`] reachable positions.
///
/// ```
/// use sprague::game::{Game, Impartial, NimValue};
/// // A heap where a move takes one token, or puts one back while below 3.
/// struct UpDown;
/// impl Game for UpDown {
///     type Position = u8;
/// }
/// impl Impartial for UpDown {
///     fn options(&self, &n: &u8) -> Vec<u8> {
///         let mut out = Vec::new();
///         if n > 0 { out.push(n - 1) }
///         if n < 3 { out.push(n + 1) }
///         out
///     }
/// }
/// let solution = sprague::solve::loopy_nim_values(&UpDown, 3)?;
/// assert_eq!(solution.nim_value(&0), Some(NimValue::Infinite(vec![])));
/// assert_eq!(solution.nim_value(&3), Some(NimValue::Infinite(vec![])));
/// # Ok::<(), sprague::Error>(())
/// ```
pub fn loopy_nim_values<G: Impartial>(
    game: &G,
    start: G::Position,
) -> Result<LoopySolution<G::Position>> {
    loopy_nim_values_from(game, [start], DEFAULT_POSITION_LIMIT)
}

/// [`loopy_nim_values`] from several starts, exploring at most `limit` positions.
///
/// # Errors
/// [`crate::Error::Limit`] past `limit` reachable positions.
pub fn loopy_nim_values_from<G: Impartial>(
    game: &G,
    starts: impl IntoIterator<Item = G::Position>,
    limit: usize,
) -> Result<LoopySolution<G::Position>> {
    let explored = explore(&ByRef(game), starts, limit)?;
    let values = loopy_values(&explored.graph);
    Ok(LoopySolution { explored, values })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Value;
    use crate::solve::dag::mex;
    use crate::solve::retrograde::retrograde;
    use crate::solve::retrograde::tests::random_graph;
    use crate::solve::sum;
    use proptest::prelude::*;

    /// Smith's algorithm as stated, by repeated scans: the slow oracle.
    fn naive(graph: &Graph) -> Vec<NimValue> {
        let n = graph.vertex_count();
        let mut label: Vec<Option<Option<u64>>> = vec![None; n]; // None: unlabelled; Some(None): ∞
        let mut m = 0u64;
        while label.iter().any(Option::is_none) {
            loop {
                let mut changed = false;
                for u in 0..n {
                    if label[u].is_some() {
                        continue;
                    }
                    let options = graph.successors(u as u32);
                    let has_m = |v: u32| {
                        graph
                            .successors(v)
                            .iter()
                            .any(|&w| label[w as usize] == Some(Some(m)))
                    };
                    let ok = !options.iter().any(|&v| label[v as usize] == Some(Some(m)))
                        && options.iter().all(|&v| match label[v as usize] {
                            Some(Some(g)) if g < m => true,
                            _ => has_m(v),
                        });
                    if ok {
                        label[u] = Some(Some(m));
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            for u in 0..n {
                if label[u].is_none()
                    && !graph
                        .successors(u as u32)
                        .iter()
                        .any(|&v| label[v as usize] == Some(Some(m)))
                {
                    label[u] = Some(None);
                }
            }
            m += 1;
        }
        (0..n)
            .map(|u| match label[u].unwrap() {
                Some(g) => NimValue::Finite(g),
                None => {
                    let mut k: Vec<u64> = graph
                        .successors(u as u32)
                        .iter()
                        .filter_map(|&v| label[v as usize].unwrap())
                        .collect();
                    k.sort_unstable();
                    k.dedup();
                    NimValue::Infinite(k)
                }
            })
            .collect()
    }

    fn values(graph: &Graph) -> Vec<NimValue> {
        let v = loopy_values(graph);
        (0..graph.vertex_count() as u32)
            .map(|u| v.nim_value(graph, u))
            .collect()
    }

    /// The product graph of a sum G + H: vertex g * |H| + h.
    fn sum_graph(g: &Graph, h: &Graph) -> Graph {
        let (ng, nh) = (g.vertex_count() as u32, h.vertex_count() as u32);
        let mut edges = Vec::new();
        for a in 0..ng {
            for b in 0..nh {
                for &a2 in g.successors(a) {
                    edges.push((a * nh + b, a2 * nh + b));
                }
                for &b2 in h.successors(b) {
                    edges.push((a * nh + b, a * nh + b2));
                }
            }
        }
        Graph::from_edges((ng * nh) as usize, &edges)
    }

    /// A Nim heap of size below `n` as a graph: i -> j for every j < i.
    fn nim_heap(n: u32) -> Graph {
        let edges: Vec<(u32, u32)> = (0..n).flat_map(|i| (0..i).map(move |j| (i, j))).collect();
        Graph::from_edges(n as usize, &edges)
    }

    fn random_dag(max: usize) -> impl Strategy<Value = Graph> {
        (1..=max).prop_flat_map(|n| {
            proptest::collection::vec((0..n as u32, 0..n as u32), 0..3 * n).prop_map(move |e| {
                let edges: Vec<(u32, u32)> = e
                    .into_iter()
                    .filter(|(u, v)| u != v)
                    .map(|(u, v)| (u.max(v), u.min(v)))
                    .collect();
                Graph::from_edges(n, &edges)
            })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn values_satisfy_the_defining_properties(graph in random_graph(12)) {
            let vals = values(&graph);
            for u in 0..graph.vertex_count() {
                let options = graph.successors(u as u32);
                let finite: Vec<u64> = options.iter().filter_map(|&v| vals[v as usize].finite()).collect();
                match &vals[u] {
                    NimValue::Finite(g) => {
                        // A: g is the mex of the finite values of the options.
                        prop_assert_eq!(*g, mex(&finite));
                        // B: an option of greater or infinite value can be reversed back to g.
                        for &v in options {
                            if vals[v as usize].finite().is_none_or(|h| h > *g) {
                                let reversible = graph.successors(v).iter().any(|&w| vals[w as usize] == NimValue::Finite(*g));
                                prop_assert!(reversible, "option {} of {} is not reversible", v, u);
                            }
                        }
                    }
                    NimValue::Infinite(k) => {
                        let mut sorted = finite.clone();
                        sorted.sort_unstable();
                        sorted.dedup();
                        prop_assert_eq!(k, &sorted);
                        // C: some ∞ option has no option of value mex(K).
                        let m = mex(&finite);
                        let witness = options.iter().any(|&v| {
                            matches!(&vals[v as usize], NimValue::Infinite(k2) if !k2.contains(&m))
                        });
                        prop_assert!(witness, "vertex {} is infinite without a witness", u);
                    }
                }
            }
        }

        #[test]
        fn agrees_with_smiths_algorithm_by_scans(graph in random_graph(12)) {
            prop_assert_eq!(values(&graph), naive(&graph));
        }

        #[test]
        fn single_outcomes_agree_with_retrograde_analysis(graph in random_graph(12)) {
            let vals = loopy_values(&graph);
            let r = retrograde(&graph, |_| None);
            for u in 0..graph.vertex_count() as u32 {
                prop_assert_eq!(vals.outcome(&graph, u), r.outcome(u));
                prop_assert_eq!(sum::outcome(&[vals.nim_value(&graph, u)]), r.outcome(u));
            }
        }

        #[test]
        fn acyclic_graphs_get_their_sprague_grundy_values(graph in random_dag(14)) {
            let vals = values(&graph);
            let mut g = vec![0u64; graph.vertex_count()];
            // Edges go from higher to lower vertices, so ascending order is topological.
            for u in 0..graph.vertex_count() {
                let options: Vec<u64> = graph.successors(u as u32).iter().map(|&v| g[v as usize]).collect();
                g[u] = mex(&options);
                prop_assert_eq!(&vals[u], &NimValue::Finite(g[u]));
            }
        }

        /// The key test: Smith's rule on the values of G and H predicts the outcome of G + H,
        /// found by retrograde analysis of the product graph. A Nim heap *k is added as a third
        /// part, so that exact finite values matter, not only which parts are ∞.
        #[test]
        fn sums_follow_smiths_rule(g in random_graph(6), h in random_graph(6)) {
            let (vg, vh) = (values(&g), values(&h));
            let heap = nim_heap(4);
            let product = sum_graph(&sum_graph(&g, &h), &heap);
            let r = retrograde(&product, |_| None);
            let nh = h.vertex_count();
            for (a, ga) in vg.iter().enumerate() {
                for (b, hb) in vh.iter().enumerate() {
                    for k in 0..4 {
                        let parts = [ga.clone(), hb.clone(), NimValue::Finite(k as u64)];
                        let predicted = sum::outcome(&parts);
                        let vertex = ((a * nh + b) * 4 + k) as u32;
                        let actual = r.outcome(vertex);
                        prop_assert_eq!(predicted, actual, "G at {} = {}, H at {} = {}, *{}", a, ga, b, hb, k);
                        if actual == Outcome::D {
                            prop_assert_eq!(r.value(vertex), Value::Draw);
                        }
                    }
                }
            }
        }

        #[test]
        fn sums_of_three_follow_smiths_rule(g in random_graph(4), h in random_graph(4), k in random_graph(3)) {
            let gh = sum_graph(&g, &h);
            let ghk = sum_graph(&gh, &k);
            let (vg, vh, vk) = (values(&g), values(&h), values(&k));
            let r = retrograde(&ghk, |_| None);
            let (nh, nk) = (h.vertex_count(), k.vertex_count());
            for (a, ga) in vg.iter().enumerate() {
                for (b, hb) in vh.iter().enumerate() {
                    for (c, kc) in vk.iter().enumerate() {
                        let predicted = sum::outcome(&[ga.clone(), hb.clone(), kc.clone()]);
                        prop_assert_eq!(predicted, r.outcome(((a * nh + b) * nk + c) as u32));
                    }
                }
            }
        }
    }

    #[test]
    fn generic_front_door_explores_reachable_positions() {
        // 4 -> {0, 3}; 0 <-> 1 -> 2 (no move); 3 -> 3.
        struct Small;
        impl crate::game::Game for Small {
            type Position = u8;
        }

        impl Impartial for Small {
            fn options(&self, &n: &u8) -> Vec<u8> {
                match n {
                    0 => vec![1],
                    1 => vec![0, 2],
                    3 => vec![3],
                    4 => vec![0, 3],
                    _ => vec![],
                }
            }
        }
        let s = loopy_nim_values(&Small, 4).unwrap();
        assert_eq!(s.explored.positions.len(), 5);
        assert_eq!(s.nim_value(&2), Some(NimValue::Finite(0)));
        assert_eq!(s.nim_value(&0), Some(NimValue::Finite(0)));
        assert_eq!(s.nim_value(&1), Some(NimValue::Finite(1)));
        assert_eq!(s.nim_value(&3), Some(NimValue::Infinite(vec![])));
        assert_eq!(s.nim_value(&4), Some(NimValue::Infinite(vec![0])));
        assert_eq!(s.nim_value(&9), None);
    }
}
