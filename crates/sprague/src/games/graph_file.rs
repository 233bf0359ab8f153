//! The impartial game of a graph file (`graph:FILE`, the file format of `sprague solve FILE`):
//! a token on a vertex, a move slides it along an edge, the player unable to move loses. Cycles
//! are allowed: a vertex's value is its generalized Sprague–Grundy value (Smith), finite or
//! ∞(K), so a token sums with any other impartial game (`graph:FILE 3 + nim 4`), loopy sums
//! included.

use crate::error::{Error, Result};
use crate::game::notation::{parse_u64, ParseError};
use crate::game::{Game, Impartial, Listing, NimValue, Notation};
use crate::solve::{loopy_values, Graph, LoopyValues};
use serde_json::Value as Json;
use std::sync::Arc;

/// The most moves of one vertex listed.
pub const OPTION_LIMIT: usize = 100_000;

/// A graph with the values of its vertices, computed once when the file is read.
#[derive(Clone, Debug)]
pub struct GraphGame {
    graph: Arc<Graph>,
    values: Arc<LoopyValues>,
}

impl GraphGame {
    /// The game of `graph`: every vertex valued now (linear in the graph's size).
    pub fn new(graph: Graph) -> GraphGame {
        let values = loopy_values(&graph);
        GraphGame {
            graph: Arc::new(graph),
            values: Arc::new(values),
        }
    }

    /// The graph.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }
}

impl Game for GraphGame {
    /// The vertex the token is on.
    type Position = u32;
}

impl Impartial for GraphGame {
    fn options(&self, &v: &u32) -> Vec<u32> {
        self.graph.successors(v).to_vec()
    }

    fn try_options(&self, &v: &u32) -> Result<Vec<u32>> {
        let count = self.graph.out_degree(v);
        if count > OPTION_LIMIT {
            return Err(Error::Limit(format!(
                "vertex {v} has {count} moves, more than {OPTION_LIMIT} to list"
            )));
        }
        Ok(self.options(&v))
    }

    fn known_nim_value(&self, &v: &u32) -> Result<Option<NimValue>> {
        Ok(Some(self.values.nim_value(&self.graph, v)))
    }

    fn options_with_nim_value(
        &self,
        &v: &u32,
        target: u64,
        limit: usize,
    ) -> Result<Option<Listing<u32>>> {
        let mut found: Vec<u32> = self
            .graph
            .successors(v)
            .iter()
            .copied()
            .filter(|&w| self.values.finite(w) == Some(target))
            .collect();
        found.dedup();
        let total = found.len() as u64;
        found.truncate(limit);
        Ok(Some(Listing {
            items: found,
            total: Some(total),
        }))
    }

    /// The mex rule at the vertex, with its successors' values.
    fn explain(&self, &v: &u32) -> Option<String> {
        const SHOWN: usize = 8;
        let successors = self.graph.successors(v);
        let mut each: Vec<String> = successors
            .iter()
            .take(SHOWN)
            .map(|&w| format!("{w}: {}", self.values.nim_value(&self.graph, w)))
            .collect();
        if successors.len() > SHOWN {
            each.push(format!("… ({} in all)", successors.len()));
        }
        let value = self.values.nim_value(&self.graph, v);
        let rule = match &value {
            NimValue::Finite(g) => format!("the least value no successor has is {g}"),
            NimValue::Infinite(k) => format!(
                "no finite value fits (play can go on for ever), so it is ∞ with the successors' finite values K = {{{}}}",
                k.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
            ),
        };
        Some(format!(
            "graph vertex {v}: a token on a vertex is valued by the mex rule over its successors (Smith's rule where there are cycles); successors (vertex: value) {}; {rule}",
            if each.is_empty() { "none".to_string() } else { each.join(", ") }
        ))
    }
}

impl Notation for GraphGame {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<u32, ParseError> {
        let [word] = words else {
            return Err(format!(
                "a position is one vertex (0 to {}), got {} words",
                self.graph.vertex_count().saturating_sub(1),
                words.len()
            )
            .into());
        };
        let v = parse_u64(word, "a vertex")?;
        if v >= self.graph.vertex_count() as u64 {
            return Err(format!(
                "vertex {v} is not in the graph (its vertices are 0 to {})",
                self.graph.vertex_count().saturating_sub(1)
            )
            .into());
        }
        Ok(v as u32)
    }

    fn write_position(&self, v: &u32) -> String {
        v.to_string()
    }

    fn position_json(&self, &v: &u32) -> Json {
        Json::from(v)
    }

    fn write_move(&self, from: &u32, to: &u32) -> String {
        format!("{from} -> {to}")
    }

    fn describe_move(&self, from: &u32, to: &u32) -> String {
        format!("token {from} → {to}")
    }

    fn part_noun(&self) -> &'static str {
        "token"
    }
}

#[cfg(test)]
mod tests {
    use crate::catalog::Catalog;
    use crate::game::{Outcome, Play};
    use std::io::Write;

    fn file(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("sprague-graph-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::File::create(&path)
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        path.to_string_lossy().into_owned()
    }

    /// A path 0 <- 1 <- 2 and a cycle 3 <-> 4 with an exit 4 -> 0.
    const GRAPH: &str = "5 5\n1 0\n2 1\n3 4\n4 3\n4 0\n";

    fn value(words: &[&str]) -> crate::analysis::ValueReport {
        let position = Catalog::default().parse_position(words).unwrap();
        crate::analysis::value(&position, Play::Normal).unwrap()
    }

    #[test]
    fn a_vertex_sums_with_other_games() {
        let spec = format!("graph:{}", file("path.txt", GRAPH));
        // Vertex 2 has value 0 (its only move is to 1, of value 1): 0 XOR 3 = 3 with nim 3.
        let report = value(&[&spec, "2", "+", "nim", "3"]);
        assert_eq!(report.nim_value, Some(3));
        assert_eq!(report.outcome, Outcome::N);
        let texts: Vec<&str> = report
            .winning_moves
            .iter()
            .map(|m| m.text.as_str())
            .collect();
        assert_eq!(texts, ["3 -> 0"]);
        // Vertex 1 (value 1) + nim 1: P.
        assert_eq!(value(&[&spec, "1", "+", "nim", "1"]).outcome, Outcome::P);
        // The cycle settles: 4 moves to 3 and to 0 (value 0), so 4 has value 1, and 3, whose
        // only move is to 4, has value 0.
        assert_eq!(value(&[&spec, "3"]).nim_value, Some(0));
        assert_eq!(value(&[&spec, "4", "+", "nim", "1"]).outcome, Outcome::P);
        let report = value(&[&spec, "4", "+", &spec, "2", "+", "nim", "1"]);
        // 1 (vertex 4), 0 (vertex 2) and 1 (nim 1): XOR 0.
        assert_eq!(report.nim_value, Some(0));
    }

    #[test]
    fn a_loopy_vertex_in_a_sum_draws_or_escapes() {
        // 0 <-> 1 with no way out: both ∞(). Vertex 2 moves into the cycle or to 3 (the end):
        // ∞(0), with K = {0}.
        let spec = format!("graph:{}", file("cycle.txt", "4 4\n0 1\n1 0\n2 0\n2 3\n"));
        let report = value(&[&spec, "0"]);
        assert_eq!(report.nim_value, None);
        assert_eq!(report.loopy_value.as_deref(), Some("∞()"));
        assert_eq!(report.outcome, Outcome::D);
        // ∞(K) + nim g wins for the player to move exactly when g is in K, else it is a draw.
        let report = value(&[&spec, "2"]);
        assert_eq!(report.loopy_value.as_deref(), Some("∞(0)"));
        assert_eq!(report.outcome, Outcome::N);
        assert_eq!(value(&[&spec, "2", "+", "nim", "3"]).outcome, Outcome::D);
        assert_eq!(
            value(&[&spec, "2", "+", "nim", "3", "3"]).outcome,
            Outcome::N
        );
    }

    #[test]
    fn bad_vertices_and_files_are_named() {
        let spec = format!("graph:{}", file("bad-vertex.txt", GRAPH));
        let catalog = Catalog::default();
        let e = catalog.parse_position(&[&spec, "9"]).err().unwrap();
        assert!(
            e.to_string().contains("vertex 9 is not in the graph"),
            "{e}"
        );
        assert!(catalog.parse_position(&[&spec, "1", "2"]).is_err());
        let e = catalog
            .game("graph:/no/such/file.txt")
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("/no/such/file.txt"), "{e}");
        let broken = format!("graph:{}", file("broken.txt", "2 1\n0 5\n"));
        let e = catalog.game(&broken).err().unwrap().to_string();
        assert!(e.contains("out of range"), "{e}");
        assert!(catalog.game("graph").is_err());
    }
}
