//! Node Kayles on any graph: a move takes a vertex together with its neighbours; the player
//! who cannot move loses. On a path of n vertices it is Dawson's Chess (octal 0.137).
//!
//! A position is a graph in the syntax of Col and Snort, `N:u-v,u-v,...` (N vertices
//! numbered from 0, then the edges; at most [`MAX_VERTICES`]), optionally followed by `;`
//! and the vertices already taken (`5:0-1,1-2,2-3,3-4;1,2,3`). On the command line the word
//! may also name a file holding such a graph, or an edge list (a first line `n m`, then m
//! lines `u v`). A move is written `take V`.
//!
//! Components are the connected parts of the vertices left; a component's
//! [key](Impartial::key) renumbers its vertices by a breadth-first search from a vertex of
//! least degree (paths and cycles get one key per length), and small keys have a compact
//! [code](Impartial::code) for the search's tables.

use super::col_snort::{parse_edges, parse_vertex, GraphError};
use crate::budget::Budget;
use crate::error::Result;
use crate::game::notation::ParseError;
use crate::game::{Game, Impartial, Notation};
use crate::solve::nimsearch::{ComponentValues, Keyed, NimSearch, Settings};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

/// The most vertices a graph may have.
pub const MAX_VERTICES: usize = 256;

/// Graphs of at most this many vertices have a compact code.
const CODED_VERTICES: usize = 15;

/// A set of vertices.
type Set = [u64; 4];

const EMPTY: Set = [0; 4];

fn has(set: &Set, v: usize) -> bool {
    set[v >> 6] >> (v & 63) & 1 == 1
}

fn add(set: &mut Set, v: usize) {
    set[v >> 6] |= 1 << (v & 63);
}

fn and(a: &Set, b: &Set) -> Set {
    std::array::from_fn(|i| a[i] & b[i])
}

fn minus(a: &Set, b: &Set) -> Set {
    std::array::from_fn(|i| a[i] & !b[i])
}

fn members(set: &Set) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                64 * i + b
            })
        })
    })
}

fn count(set: &Set) -> usize {
    set.iter().map(|w| w.count_ones() as usize).sum()
}

/// A graph: the neighbours of each vertex.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Graph {
    neighbours: Vec<Set>,
    /// A hash of the edges, so that positions hash without reading the whole graph.
    fingerprint: u64,
}

impl Graph {
    /// The graph of `n` vertices with these edges.
    ///
    /// # Panics
    /// If `n` is more than [`MAX_VERTICES`] or an edge names a vertex out of range.
    pub fn new(n: usize, edges: &[(usize, usize)]) -> Graph {
        assert!(n <= MAX_VERTICES);
        let mut neighbours = vec![EMPTY; n];
        for &(u, v) in edges {
            add(&mut neighbours[u], v);
            add(&mut neighbours[v], u);
        }
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        neighbours.hash(&mut hasher);
        Graph {
            neighbours,
            fingerprint: hasher.finish(),
        }
    }

    /// The path of `n` vertices.
    pub fn path(n: usize) -> Graph {
        let edges: Vec<(usize, usize)> = (1..n).map(|v| (v - 1, v)).collect();
        Graph::new(n, &edges)
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.neighbours.len()
    }

    /// Whether the graph has no vertex.
    pub fn is_empty(&self) -> bool {
        self.neighbours.is_empty()
    }
}

/// A position: the vertices left of a graph.
#[derive(Clone, Debug)]
pub struct Vertices {
    graph: Arc<Graph>,
    left: Set,
}

impl PartialEq for Vertices {
    fn eq(&self, other: &Vertices) -> bool {
        self.left == other.left
            && (Arc::ptr_eq(&self.graph, &other.graph) || self.graph == other.graph)
    }
}

impl Eq for Vertices {}

impl Hash for Vertices {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.graph.fingerprint.hash(state);
        self.left.hash(state);
    }
}

impl Vertices {
    /// Every vertex of `graph`.
    pub fn all(graph: Graph) -> Vertices {
        let mut left = EMPTY;
        for v in 0..graph.len() {
            add(&mut left, v);
        }
        Vertices {
            graph: Arc::new(graph),
            left,
        }
    }

    /// Parses `N:u-v,...` with an optional `;V,V,...` of vertices taken.
    ///
    /// # Errors
    /// A [`GraphError`] naming the problem.
    pub fn parse(text: &str) -> std::result::Result<Vertices, GraphError> {
        let text = text.trim();
        let (graph, taken) = text.split_once(';').unwrap_or((text, ""));
        let (n, edges) = parse_edges(graph, text, MAX_VERTICES)?;
        let mut position = Vertices::all(Graph::new(n, &edges));
        for v in taken.split(',').map(str::trim).filter(|v| !v.is_empty()) {
            let v = parse_vertex(v, n, text)?;
            position.left[v >> 6] &= !(1 << (v & 63));
        }
        Ok(position)
    }

    /// Parses an edge list: a first line `n m`, then m lines `u v`.
    ///
    /// # Errors
    /// A [`GraphError`] naming the problem.
    pub fn parse_edge_list(text: &str) -> std::result::Result<Vertices, GraphError> {
        let error = |reason: String| GraphError {
            text: text.lines().next().unwrap_or("").to_string(),
            reason,
        };
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        let header = lines
            .next()
            .ok_or_else(|| error("the file is empty".into()))?;
        let numbers: Vec<&str> = header.split_whitespace().collect();
        let [n, m] = numbers[..] else {
            return Err(error("the first line must be 'n m'".into()));
        };
        let (n, m): (usize, usize) = match (n.parse(), m.parse()) {
            (Ok(n), Ok(m)) => (n, m),
            _ => return Err(error("the first line must be 'n m'".into())),
        };
        if n > MAX_VERTICES {
            return Err(error(format!(
                "at most {MAX_VERTICES} vertices are supported"
            )));
        }
        let mut edges = Vec::new();
        for (i, line) in lines.enumerate() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let [u, v] = words[..] else {
                return Err(error(format!("line {} is not 'u v'", i + 2)));
            };
            let (u, v) = (parse_vertex(u, n, line)?, parse_vertex(v, n, line)?);
            if u == v {
                return Err(error(format!("line {} is a loop", i + 2)));
            }
            edges.push((u, v));
        }
        if edges.len() != m {
            return Err(error(format!(
                "the first line announces {m} edges, the file has {}",
                edges.len()
            )));
        }
        Ok(Vertices::all(Graph::new(n, &edges)))
    }

    /// The number of vertices left.
    pub fn len(&self) -> usize {
        count(&self.left)
    }

    /// Whether no vertex is left.
    pub fn is_empty(&self) -> bool {
        self.left == EMPTY
    }

    /// The vertices left next to `v` (itself excluded).
    fn around(&self, v: usize) -> Set {
        and(&self.graph.neighbours[v], &self.left)
    }
}

impl fmt::Display for Vertices {
    /// `N:u-v,...` with the edges between vertices left, then `;` and the vertices taken.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.graph.len();
        let mut edges = Vec::new();
        for u in members(&self.left) {
            for v in members(&self.around(u)) {
                if u < v {
                    edges.push(format!("{u}-{v}"));
                }
            }
        }
        write!(f, "{n}:{}", edges.join(","))?;
        let taken: Vec<String> = (0..n)
            .filter(|&v| !has(&self.left, v))
            .map(|v| v.to_string())
            .collect();
        if !taken.is_empty() {
            write!(f, ";{}", taken.join(","))?;
        }
        Ok(())
    }
}

/// The rules of Node Kayles. `files`: whether a position may name a graph file (the command
/// line), or only be written out (a server).
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeKayles {
    /// Whether positions may be read from files.
    pub files: bool,
}

impl Game for NodeKayles {
    type Position = Vertices;
}

impl Impartial for NodeKayles {
    /// Each position once: two vertices with the same closed neighbourhood (the ends of a
    /// lone edge) lead to the same position, which is one option.
    fn options(&self, position: &Vertices) -> Vec<Vertices> {
        let mut seen = std::collections::HashSet::new();
        members(&position.left)
            .map(|v| {
                let mut gone = position.around(v);
                add(&mut gone, v);
                minus(&position.left, &gone)
            })
            .filter(|left| seen.insert(*left))
            .map(|left| Vertices {
                graph: position.graph.clone(),
                left,
            })
            .collect()
    }

    fn components(&self, position: &Vertices) -> Vec<Vertices> {
        let mut rest = position.left;
        let mut parts = Vec::new();
        loop {
            let Some(start) = members(&rest).next() else {
                break;
            };
            let mut part = EMPTY;
            add(&mut part, start);
            let mut frontier = part;
            while frontier != EMPTY {
                let mut next = EMPTY;
                for v in members(&frontier) {
                    let new = minus(&and(&position.graph.neighbours[v], &rest), &part);
                    for (i, w) in new.iter().enumerate() {
                        next[i] |= w;
                        part[i] |= w;
                    }
                }
                frontier = next;
            }
            rest = minus(&rest, &part);
            parts.push(Vertices {
                graph: position.graph.clone(),
                left: part,
            });
        }
        if parts.is_empty() {
            // No vertex left: the position itself, so that it is still written (and read back).
            parts.push(position.clone());
        }
        parts
    }

    fn join(&self, parts: Vec<Vertices>) -> Option<Vertices> {
        let first = parts.first()?.clone();
        let mut left = EMPTY;
        for p in &parts {
            if !(Arc::ptr_eq(&p.graph, &first.graph) || p.graph == first.graph) {
                return None;
            }
            for (word, part) in left.iter_mut().zip(&p.left) {
                *word |= part;
            }
        }
        Some(Vertices { left, ..first })
    }

    /// The component renumbered breadth first from a vertex of least degree, neighbours in
    /// order of degree.
    fn key(&self, component: &Vertices) -> Vertices {
        let degree = |v: usize| count(&component.around(v));
        let Some(start) = members(&component.left).min_by_key(|&v| (degree(v), v)) else {
            return Vertices::all(Graph::new(0, &[]));
        };
        let mut order = vec![start];
        let mut seen = EMPTY;
        add(&mut seen, start);
        let mut i = 0;
        while i < order.len() {
            let mut next: Vec<usize> =
                members(&minus(&component.around(order[i]), &seen)).collect();
            next.sort_by_key(|&w| (degree(w), w));
            for w in next {
                add(&mut seen, w);
                order.push(w);
            }
            i += 1;
        }
        // Vertices of other components (none for a component) are left out.
        let mut index = vec![usize::MAX; component.graph.len()];
        for (k, &v) in order.iter().enumerate() {
            index[v] = k;
        }
        let mut edges = Vec::new();
        for &u in &order {
            for w in members(&component.around(u)) {
                if index[u] < index[w] {
                    edges.push((index[u], index[w]));
                }
            }
        }
        Vertices::all(Graph::new(order.len(), &edges))
    }

    /// For keys of at most 15 vertices: the upper triangle of the adjacency matrix, and the
    /// vertex count in the low four bits.
    fn code(&self, key: &Vertices) -> Option<u128> {
        let n = key.graph.len();
        if n > CODED_VERTICES || key.len() != n {
            return None;
        }
        let mut code = 0u128;
        let mut bit = 4;
        for u in 0..n {
            for v in u + 1..n {
                if has(&key.graph.neighbours[u], v) {
                    code |= 1 << bit;
                }
                bit += 1;
            }
        }
        Some(code | n as u128)
    }
}

impl Notation for NodeKayles {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<Vertices, ParseError> {
        let [word] = words else {
            return Err("give one graph, such as '4:0-1,1-2,2-3'".into());
        };
        let inline = word.contains(':') || word.chars().all(|c| c.is_ascii_digit());
        if inline || !self.files {
            return Vertices::parse(word).map_err(|e| e.to_string().into());
        }
        let text = std::fs::read_to_string(word).map_err(|e| {
            ParseError::from(format!(
                "cannot read the graph file '{}': {e}",
                super::grid::printable(word)
            ))
        })?;
        let graph = text.trim();
        let parsed = if graph.contains(':') {
            Vertices::parse(&graph.split_whitespace().collect::<String>())
        } else {
            Vertices::parse_edge_list(graph)
        };
        parsed.map_err(|e| format!("{}: {e}", super::grid::printable(word)).into())
    }

    fn write_position(&self, position: &Vertices) -> String {
        position.to_string()
    }

    fn write_move(&self, from: &Vertices, to: &Vertices) -> String {
        let gone = minus(&from.left, &to.left);
        let taken = members(&gone).find(|&v| {
            let mut closed = from.around(v);
            add(&mut closed, v);
            closed == gone
        });
        match taken {
            Some(v) => format!("take {v}"),
            None => format!("-> {to}"),
        }
    }
}

/// The catalog's Node Kayles values: components by the nim-value search, keyed as
/// [`Impartial::key`] says.
pub struct NodeKaylesValues {
    settings: Settings,
    search: OnceLock<Result<NimSearch<Keyed<NodeKayles>>>>,
}

impl NodeKaylesValues {
    /// Values searched with these settings.
    pub fn new(settings: Settings) -> Self {
        NodeKaylesValues {
            settings,
            search: OnceLock::new(),
        }
    }

    fn search(&self) -> Result<&NimSearch<Keyed<NodeKayles>>> {
        self.search
            .get_or_init(|| NimSearch::new(Keyed(NodeKayles::default()), self.settings.clone()))
            .as_ref()
            .map_err(Clone::clone)
    }

    fn keys(&self, position: &Vertices) -> Vec<Vertices> {
        let game = NodeKayles::default();
        game.components(position)
            .iter()
            .map(|c| game.key(c))
            .collect()
    }
}

impl ComponentValues<Vertices> for NodeKaylesValues {
    fn value(&self, component: &Vertices, budget: &Budget) -> Result<u64> {
        self.search()?.nim_value(&self.keys(component), budget)
    }

    fn has_value(&self, position: &Vertices, target: u64, budget: &Budget) -> Result<bool> {
        self.search()?
            .has_value(&self.keys(position), target, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::{Code, HeapGame};
    use crate::play::XorShift;
    use crate::solve::NimValues;

    /// Node Kayles on the whole graph, no components, no keys.
    #[derive(Clone)]
    struct Plain;
    impl Game for Plain {
        type Position = Vertices;
    }
    impl Impartial for Plain {
        fn options(&self, position: &Vertices) -> Vec<Vertices> {
            NodeKayles::default().options(position)
        }
    }

    fn random_graph(rng: &mut XorShift, n: usize) -> Vertices {
        let density = rng.below(4) + 1;
        let mut edges = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                if rng.below(8) < density {
                    edges.push((u, v));
                }
            }
        }
        Vertices::all(Graph::new(n, &edges))
    }

    #[test]
    fn parses_and_writes() {
        let p = Vertices::parse("5:0-1,1-2,2-3,3-4;1,2,3").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p.to_string(), "5:;1,2,3");
        let q = Vertices::parse("4:0-1,1-2,2-3").unwrap();
        let options = NodeKayles::default().options(&q);
        assert_eq!(NodeKayles::default().write_move(&q, &options[1]), "take 1");
        assert_eq!(options[1].to_string(), "4:;0,1,2");
        assert!(Vertices::parse("3:0-3")
            .unwrap_err()
            .to_string()
            .contains("'3' is not a vertex of 0..3"));
        let e = Vertices::parse_edge_list("3 2\n0 1\n1 2\n").unwrap();
        assert_eq!(e.to_string(), "3:0-1,1-2");
        assert!(Vertices::parse_edge_list("3 2\n0 1\n").is_err());
    }

    #[test]
    fn paths_are_dawsons_chess() {
        // Node Kayles on a path of n vertices is octal 0.137 (Dawson's Chess): taking a
        // vertex takes its neighbours (Winning Ways ch. 4).
        let mut heap = NimValues::new(HeapGame::new(
            "dawson-chess",
            Arc::new(Code::parse("0.137").unwrap()),
        ));
        let values = NodeKaylesValues::new(Settings::default());
        for n in 1..=200 {
            let path = Vertices::all(Graph::path(n));
            assert_eq!(
                values.value(&path, &Budget::unlimited()).unwrap(),
                heap.nim_value(&vec![n as u64]).unwrap(),
                "path of {n}"
            );
        }
    }

    #[test]
    fn the_search_agrees_with_plain_search_on_random_graphs() {
        let mut rng = XorShift::new(24);
        let values = NodeKaylesValues::new(Settings::default());
        for round in 0..300 {
            let n = 1 + rng.below(12) as usize;
            let graph = random_graph(&mut rng, n);
            let mut plain = NimValues::new(Plain);
            let budget = Budget::unlimited();
            assert_eq!(
                values.value(&graph, &budget).unwrap(),
                plain.nim_value(&graph).unwrap(),
                "round {round}: {graph}"
            );
            // Every winning move, by both.
            for option in NodeKayles::default().options(&graph) {
                assert_eq!(
                    values.has_value(&option, 0, &budget).unwrap(),
                    plain.nim_value(&option).unwrap() == 0,
                    "round {round}: {graph} -> {option}"
                );
            }
        }
    }
}
