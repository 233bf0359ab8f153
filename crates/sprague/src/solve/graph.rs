//! Explicit game graphs: a compact directed graph (compressed sparse rows, both directions), the
//! file format of `sprague solve FILE`, and the exploration of a game's reachable positions into
//! a graph.

use crate::error::{Error, Result};
use crate::game::{Terminal, TwoPlayer};
use std::collections::HashMap;
use std::path::Path;

/// The most vertices a graph file may declare.
pub const MAX_VERTICES: u64 = 50_000_000;

/// The most edges a graph file may declare.
pub const MAX_EDGES: u64 = 200_000_000;

/// A directed graph on vertices `0..n`, stored as compressed sparse rows in both directions, so
/// that both the options (successors) and the parents (predecessors) of a vertex are slices.
///
/// Parallel edges and self-loops are kept as given.
///
/// # Examples
///
/// ```
/// use sprague::solve::Graph;
/// let g = Graph::parse("3 3\n0 1\n1 2\n2 0\n")?;
/// assert_eq!(g.successors(0), &[1]);
/// assert_eq!(g.predecessors(0), &[2]);
/// # Ok::<(), sprague::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    out_offsets: Vec<u32>,
    out_targets: Vec<u32>,
    in_offsets: Vec<u32>,
    in_sources: Vec<u32>,
}

impl Graph {
    /// A graph on `n` vertices with these edges `(u, v)` (a move from `u` to `v`).
    ///
    /// # Panics
    /// If an endpoint is not below `n`, or if `n` or the edge count does not fit in `u32`. Use
    /// [`Graph::parse`] for untrusted input.
    ///
    /// ```
    /// let g = sprague::solve::Graph::from_edges(2, &[(0, 1), (0, 1)]);
    /// assert_eq!(g.successors(0), &[1, 1]);
    /// ```
    pub fn from_edges(n: usize, edges: &[(u32, u32)]) -> Graph {
        let (sources, targets): (Vec<u32>, Vec<u32>) = edges.iter().copied().unzip();
        Graph::from_columns(n, &sources, &targets)
    }

    /// Builds the graph from parallel columns of edge sources and targets.
    fn from_columns(n: usize, sources: &[u32], targets: &[u32]) -> Graph {
        assert!(u32::try_from(n).is_ok(), "too many vertices for a Graph");
        assert!(
            u32::try_from(sources.len()).is_ok(),
            "too many edges for a Graph"
        );
        assert_eq!(sources.len(), targets.len());
        let (out_offsets, out_targets) = rows(n, sources, targets);
        let (in_offsets, in_sources) = rows(n, targets, sources);
        Graph {
            out_offsets,
            out_targets,
            in_offsets,
            in_sources,
        }
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.out_offsets.len() - 1
    }

    /// The number of edges.
    pub fn edge_count(&self) -> usize {
        self.out_targets.len()
    }

    /// The options of `v`: the heads of its out-edges, in input order.
    ///
    /// # Panics
    /// If `v` is not a vertex.
    pub fn successors(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.out_targets[self.out_offsets[v] as usize..self.out_offsets[v + 1] as usize]
    }

    /// The vertices with an edge into `v`, once per edge.
    ///
    /// # Panics
    /// If `v` is not a vertex.
    pub fn predecessors(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.in_sources[self.in_offsets[v] as usize..self.in_offsets[v + 1] as usize]
    }

    /// The number of out-edges of `v`.
    pub fn out_degree(&self, v: u32) -> usize {
        let v = v as usize;
        (self.out_offsets[v + 1] - self.out_offsets[v]) as usize
    }

    /// Parses the file format of `sprague solve FILE`: a first line `n m`, then `m` lines `u v`,
    /// each a move from vertex `u` to vertex `v` (vertices `0..n`). Blank lines are ignored.
    ///
    /// # Errors
    /// [`Error::Position`] naming the line and the problem (a missing or extra number, a vertex
    /// out of range, a wrong edge count, a negative or malformed number), or [`Error::Limit`]
    /// when the file declares more than [`MAX_VERTICES`] vertices or [`MAX_EDGES`] edges.
    ///
    /// ```
    /// use sprague::solve::Graph;
    /// assert_eq!(Graph::parse("2 1\n0 1\n")?.edge_count(), 1);
    /// let e = Graph::parse("2 1\n0 2\n").unwrap_err();
    /// assert!(e.to_string().contains("line 2: vertex 2 is out of range"));
    /// # Ok::<(), sprague::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Graph> {
        Graph::parse_bytes(text.as_bytes())
    }

    /// [`Graph::parse`] on raw bytes (a file need not be valid UTF-8 to be rejected clearly).
    pub fn parse_bytes(bytes: &[u8]) -> Result<Graph> {
        parse_graph(bytes, true).map_err(|reason| match reason {
            Problem::Malformed(r) => Error::position("graph file", r),
            Problem::Limit(r) => Error::Limit(r),
        })
    }

    /// Reads and parses a graph file.
    ///
    /// # Errors
    /// [`Error::Io`] if the file cannot be read; otherwise as [`Graph::parse`], with the path in
    /// the message.
    pub fn read(path: impl AsRef<Path>) -> Result<Graph> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| Error::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        parse_graph(&bytes, true).map_err(|reason| match reason {
            Problem::Malformed(r) => Error::position(format!("graph file {}", path.display()), r),
            Problem::Limit(r) => Error::Limit(format!("{}: {r}", path.display())),
        })
    }
}

/// Counting sort of the edges by `keys` into offsets and values.
fn rows(n: usize, keys: &[u32], values: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut offsets = vec![0u32; n + 1];
    for &k in keys {
        offsets[k as usize + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut cursor = offsets[..n].to_vec();
    let mut out = vec![0u32; keys.len()];
    for (&k, &v) in keys.iter().zip(values) {
        let c = &mut cursor[k as usize];
        out[*c as usize] = v;
        *c += 1;
    }
    (offsets, out)
}

enum Problem {
    Malformed(String),
    Limit(String),
}

fn malformed(line: usize, what: impl std::fmt::Display) -> Problem {
    Problem::Malformed(format!("line {line}: {what}"))
}

/// A token as an error quotes it: bytes outside printable ASCII escaped (`\x00`, `\xff`), so
/// that a binary file never writes raw bytes to a terminal, and at most 24 characters.
fn shown(token: &[u8]) -> String {
    let text = token.escape_ascii().to_string();
    if text.chars().count() > 24 {
        let short: String = text.chars().take(24).collect();
        format!("{short}...")
    } else {
        text
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// The whitespace-separated numbers of one line, parsed without allocating.
struct Numbers<'a> {
    line: &'a [u8],
    at: usize,
    number: usize,
}

impl<'a> Numbers<'a> {
    fn new(line: &'a [u8], number: usize) -> Self {
        Numbers {
            line,
            at: 0,
            number,
        }
    }

    /// The next token, or `None` at the end of the line.
    fn token(&mut self) -> Option<&'a [u8]> {
        while self.at < self.line.len() && is_space(self.line[self.at]) {
            self.at += 1;
        }
        if self.at == self.line.len() {
            return None;
        }
        let start = self.at;
        while self.at < self.line.len() && !is_space(self.line[self.at]) {
            self.at += 1;
        }
        Some(&self.line[start..self.at])
    }

    /// The next number, named `what` in errors.
    fn number(&mut self, what: &str) -> Result<u64, Problem> {
        let Some(token) = self.token() else {
            return Err(malformed(self.number, format!("{what} is missing")));
        };
        let mut value: u64 = 0;
        for &b in token {
            if !b.is_ascii_digit() {
                let reason = if token[0] == b'-' {
                    format!("{what} must be non-negative, got '{}'", shown(token))
                } else {
                    format!("{what} must be a whole number, got '{}'", shown(token))
                };
                return Err(malformed(self.number, reason));
            }
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(b - b'0')))
                .ok_or_else(|| {
                    malformed(
                        self.number,
                        format!("{what} '{}' is too large", shown(token)),
                    )
                })?;
        }
        Ok(value)
    }

    /// Fails if anything but whitespace is left on the line.
    fn end(&mut self, expected: &str) -> Result<(), Problem> {
        match self.token() {
            None => Ok(()),
            Some(extra) => Err(malformed(
                self.number,
                format!(
                    "expected only {expected}, found an extra '{}'",
                    shown(extra)
                ),
            )),
        }
    }
}

/// The non-blank lines of a file with their 1-based numbers.
struct Lines<'a> {
    bytes: &'a [u8],
    at: usize,
    number: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        while self.at < self.bytes.len() {
            let rest = &self.bytes[self.at..];
            let len = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            let line = &rest[..len];
            self.at += len + 1;
            self.number += 1;
            if !line.iter().all(|&b| is_space(b)) {
                return Some((self.number, line));
            }
        }
        None
    }
}

/// Reads the edge lines in one pass, for well-formed files. Returns `false` at anything unusual
/// (the careful line-by-line reader then finds and names the problem).
fn fast_edges(
    bytes: &[u8],
    n: u64,
    m: u64,
    sources: &mut Vec<u32>,
    targets: &mut Vec<u32>,
) -> bool {
    let len = bytes.len();
    let mut at = 0;
    // A number of at most 18 digits, which cannot overflow.
    let number = |at: &mut usize| -> Option<u64> {
        let start = *at;
        let mut value: u64 = 0;
        while *at < len && bytes[*at].is_ascii_digit() {
            value = value * 10 + u64::from(bytes[*at] - b'0');
            *at += 1;
            if *at - start > 18 {
                return None;
            }
        }
        (*at > start).then_some(value)
    };
    loop {
        while at < len && (is_space(bytes[at]) || bytes[at] == b'\n') {
            at += 1;
        }
        if at == len {
            return sources.len() as u64 == m;
        }
        if sources.len() as u64 == m {
            return false;
        }
        let Some(u) = number(&mut at) else {
            return false;
        };
        if at == len || !is_space(bytes[at]) {
            return false;
        }
        while at < len && is_space(bytes[at]) {
            at += 1;
        }
        let Some(v) = number(&mut at) else {
            return false;
        };
        while at < len && is_space(bytes[at]) {
            at += 1;
        }
        if (at < len && bytes[at] != b'\n') || u >= n || v >= n {
            return false;
        }
        sources.push(u as u32);
        targets.push(v as u32);
    }
}

fn parse_graph(bytes: &[u8], fast: bool) -> Result<Graph, Problem> {
    let mut lines = Lines {
        bytes,
        at: 0,
        number: 0,
    };
    let Some((header_line, header)) = lines.next() else {
        return Err(Problem::Malformed(
            "the file is empty; expected a first line 'n m'".into(),
        ));
    };
    let mut header = Numbers::new(header, header_line);
    let n = header.number("the vertex count n")?;
    let m = header.number("the edge count m")?;
    header.end("'n m' on the first line")?;
    if n > MAX_VERTICES {
        return Err(Problem::Limit(format!(
            "line {header_line}: {n} vertices is more than the limit of {MAX_VERTICES}"
        )));
    }
    if m > MAX_EDGES {
        return Err(Problem::Limit(format!(
            "line {header_line}: {m} edges is more than the limit of {MAX_EDGES}"
        )));
    }
    // Every edge line takes at least four bytes ("u v\n"), so a short file cannot make us
    // reserve much memory whatever m it declares.
    let reserve = (m as usize).min(bytes.len() / 4 + 1);
    let mut sources = Vec::with_capacity(reserve);
    let mut targets = Vec::with_capacity(reserve);
    let rest = &bytes[lines.at.min(bytes.len())..];
    if fast && fast_edges(rest, n, m, &mut sources, &mut targets) {
        return Ok(Graph::from_columns(n as usize, &sources, &targets));
    }
    sources.clear();
    targets.clear();
    let mut last_line = header_line;
    for (number, line) in lines {
        if sources.len() as u64 == m {
            return Err(malformed(
                number,
                format!("more edge lines than the {m} declared on line {header_line}"),
            ));
        }
        let mut words = Numbers::new(line, number);
        let u = words.number("the edge's first vertex")?;
        let v = words.number("the edge's second vertex")?;
        words.end("two vertices 'u v'")?;
        for w in [u, v] {
            if w >= n {
                return Err(malformed(
                    number,
                    format!("vertex {w} is out of range 0..{n}"),
                ));
            }
        }
        // n ≤ MAX_VERTICES < 2^32, so these fit.
        sources.push(u as u32);
        targets.push(v as u32);
        last_line = number;
    }
    if (sources.len() as u64) < m {
        return Err(malformed(
            last_line,
            format!(
                "the file ends after {} edge lines, but line {header_line} declares m = {m}",
                sources.len()
            ),
        ));
    }
    Ok(Graph::from_columns(n as usize, &sources, &targets))
}

/// The positions reachable from some start positions of a game, numbered, as a [`Graph`].
///
/// Vertex `i` is `positions[i]`; positions with a terminal result are not expanded (they have no
/// out-edges). Built by [`explore`].
#[derive(Clone, Debug)]
pub struct Explored<P> {
    /// Every reachable position, by vertex number (the starts first, in the order given).
    pub positions: Vec<P>,
    /// The vertex number of each position.
    pub index: HashMap<P, u32>,
    /// The moves between them.
    pub graph: Graph,
    /// The terminal result of each vertex, if any.
    pub terminal: Vec<Option<Terminal>>,
}

impl<P: Clone + Eq + std::hash::Hash> Explored<P> {
    /// The vertex number of `position`, if it was reached.
    pub fn vertex(&self, position: &P) -> Option<u32> {
        self.index.get(position).copied()
    }
}

/// Explores every position reachable from `starts` (breadth first) into an [`Explored`] graph.
///
/// # Errors
/// [`Error::Limit`] if more than `limit` positions are reachable.
///
/// ```
/// use sprague::game::{Game, Impartial, NormalPlay};
/// struct Cycle;
/// impl Game for Cycle {
///     type Position = u8;
/// }
/// impl Impartial for Cycle {
///     fn options(&self, p: &u8) -> Vec<u8> { vec![(p + 1) % 4] }
/// }
/// let explored = sprague::solve::explore(&NormalPlay(Cycle), [0], 100)?;
/// assert_eq!(explored.positions, vec![0, 1, 2, 3]);
/// assert_eq!(explored.graph.successors(3), &[0]);
/// # Ok::<(), sprague::Error>(())
/// ```
pub fn explore<G: TwoPlayer>(
    game: &G,
    starts: impl IntoIterator<Item = G::Position>,
    limit: usize,
) -> Result<Explored<G::Position>> {
    let limit = limit.min(u32::MAX as usize - 1);
    let mut positions: Vec<G::Position> = Vec::new();
    let mut index: HashMap<G::Position, u32> = HashMap::new();
    let too_many = || {
        Error::Limit(format!(
            "more than {limit} reachable positions; the game is too large to solve"
        ))
    };
    for start in starts {
        if !index.contains_key(&start) {
            if positions.len() >= limit {
                return Err(too_many());
            }
            index.insert(start.clone(), positions.len() as u32);
            positions.push(start);
        }
    }
    let mut terminal = Vec::new();
    let mut sources = Vec::new();
    let mut targets = Vec::new();
    let mut next = 0;
    while next < positions.len() {
        let result = game.terminal(&positions[next]);
        terminal.push(result);
        if result.is_none() {
            for option in game.options(&positions[next]) {
                let target = match index.get(&option) {
                    Some(&j) => j,
                    None => {
                        if positions.len() >= limit {
                            return Err(too_many());
                        }
                        let j = positions.len() as u32;
                        index.insert(option.clone(), j);
                        positions.push(option);
                        j
                    }
                };
                if sources.len() >= u32::MAX as usize {
                    return Err(Error::Limit(
                        "more than 2^32 moves between reachable positions".into(),
                    ));
                }
                sources.push(next as u32);
                targets.push(target);
            }
        }
        next += 1;
    }
    let graph = Graph::from_columns(positions.len(), &sources, &targets);
    Ok(Explored {
        positions,
        index,
        graph,
        terminal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        Graph::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn both_directions_are_stored() {
        let g = Graph::from_edges(4, &[(0, 1), (0, 2), (2, 1), (3, 3), (1, 0)]);
        assert_eq!(g.vertex_count(), 4);
        assert_eq!(g.edge_count(), 5);
        assert_eq!(g.successors(0), &[1, 2]);
        assert_eq!(g.successors(1), &[0]);
        assert_eq!(g.successors(3), &[3]);
        assert_eq!(g.predecessors(1), &[0, 2]);
        assert_eq!(g.predecessors(3), &[3]);
        assert_eq!(g.predecessors(0), &[1]);
        assert_eq!(g.out_degree(2), 1);
    }

    #[test]
    fn parses_the_solve_file_format() {
        let g = Graph::parse("3 2\n0 1\r\n  1\t2  \n\n").unwrap();
        assert_eq!(g, Graph::from_edges(3, &[(0, 1), (1, 2)]));
        assert_eq!(Graph::parse("0 0").unwrap().vertex_count(), 0);
        assert_eq!(Graph::parse("\n5 0\n\n").unwrap().vertex_count(), 5);
    }

    #[test]
    fn malformed_files_name_the_line_and_the_problem() {
        assert!(error("").contains("the file is empty"));
        assert!(error("  \n").contains("the file is empty"));
        assert!(error("3\n").contains("line 1: the edge count m is missing"));
        assert!(error("3 1 4\n0 1").contains("line 1: expected only 'n m'"));
        assert!(error("3 x\n").contains("line 1: the edge count m must be a whole number, got 'x'"));
        assert!(error("-3 1\n").contains("line 1: the vertex count n must be non-negative"));
        assert!(error("3 2\n0 1\n").contains("line 2: the file ends after 1 edge lines"));
        assert!(error("3 1\n0 1\n1 2\n").contains("line 3: more edge lines than the 1 declared"));
        assert!(error("3 1\n\n0 3\n").contains("line 3: vertex 3 is out of range 0..3"));
        assert!(error("3 1\n0\n").contains("line 2: the edge's second vertex is missing"));
        assert!(error("3 1\n0 1 2\n").contains("line 2: expected only two vertices"));
        assert!(
            error("3 1\n0 -1\n").contains("line 2: the edge's second vertex must be non-negative")
        );
        assert!(error("3 1\n0 1.5\n").contains("must be a whole number, got '1.5'"));
        // A binary file is quoted with its bytes escaped.
        let binary = Graph::parse_bytes(b"\x00\x01\xffbin\x1b[31m 1\n")
            .unwrap_err()
            .to_string();
        assert!(
            binary.contains("got '\\x00\\x01\\xffbin\\x1b[31m'"),
            "{binary}"
        );
        assert!(error("3 1\n0 99999999999999999999999\n").contains("is too large"));
        assert!(matches!(
            Graph::parse("100000000000 0"),
            Err(Error::Limit(m)) if m.contains("line 1")
        ));
        assert!(matches!(
            Graph::parse("5 100000000000000"),
            Err(Error::Limit(_))
        ));
        assert!(matches!(
            Graph::parse("2 1\n0 2\n"),
            Err(Error::Position { .. })
        ));
    }

    #[test]
    fn reading_a_missing_file_is_an_io_error() {
        assert!(matches!(
            Graph::read("/nonexistent/sprague/graph.txt"),
            Err(Error::Io { .. })
        ));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
            let _ = Graph::parse_bytes(&bytes);
        }

        #[test]
        fn random_small_files_never_panic(text in "[0-9 \\-\\n]{0,40}") {
            let _ = Graph::parse(&text);
        }

        #[test]
        fn the_fast_reader_agrees_with_the_careful_one(
            n in 0u32..5,
            m in 0u32..4,
            body in "[0-5 \\t\\r\\n\\-x]{0,30}",
        ) {
            let text = format!("{n} {m}\n{body}");
            let fast = parse_graph(text.as_bytes(), true);
            let careful = parse_graph(text.as_bytes(), false);
            match (fast, careful) {
                (Ok(a), Ok(b)) => proptest::prop_assert_eq!(a, b),
                (Err(Problem::Malformed(a)), Err(Problem::Malformed(b))) => proptest::prop_assert_eq!(a, b),
                (Err(Problem::Limit(a)), Err(Problem::Limit(b))) => proptest::prop_assert_eq!(a, b),
                _ => proptest::prop_assert!(false, "the readers disagree on {:?}", text),
            }
        }

        #[test]
        fn written_graphs_parse_back(
            n in 1u32..20,
            raw in proptest::collection::vec((0u32..1000, 0u32..1000), 0..40),
        ) {
            let edges: Vec<(u32, u32)> = raw.iter().map(|&(u, v)| (u % n, v % n)).collect();
            let mut text = format!("{n} {}\n", edges.len());
            for (u, v) in &edges {
                text.push_str(&format!("{u} {v}\n"));
            }
            proptest::prop_assert_eq!(Graph::parse(&text).unwrap(), Graph::from_edges(n as usize, &edges));
        }
    }
}
