//! The report of `sprague solve FILE`: outcome, remoteness and loopy nim value of every vertex
//! of a game graph under normal play.

use crate::error::Result;
use crate::game::{NimValue, Outcome};
use crate::solve::graph::Graph;
use crate::solve::loopy::loopy_values;
use crate::solve::retrograde::retrograde;
use serde::Serialize;
use std::path::Path;

/// The ∞ part of a loopy value, as the JSON report shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoopyReport {
    /// Always `true`: the value is ∞(K).
    pub infinite: bool,
    /// K: the finite values of the vertex's options, sorted.
    pub escapes: Vec<u64>,
}

/// One vertex of the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VertexReport {
    /// The vertex number.
    pub id: u32,
    /// Who wins with the token on this vertex.
    pub outcome: Outcome,
    /// Moves to the end with perfect play; `None` for draws.
    pub remoteness: Option<u32>,
    /// The generalized Sprague–Grundy value where it is finite.
    pub nim_value: Option<u64>,
    /// The value ∞(K) where it is not finite.
    pub loopy: Option<LoopyReport>,
}

impl VertexReport {
    /// The vertex's value as a [`NimValue`].
    pub fn value(&self) -> NimValue {
        match (&self.nim_value, &self.loopy) {
            (Some(g), _) => NimValue::Finite(*g),
            (None, Some(l)) => NimValue::Infinite(l.escapes.clone()),
            (None, None) => NimValue::Infinite(Vec::new()),
        }
    }
}

/// The report of `sprague solve FILE`: `{"vertices": [...]}` as interface.md fixes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GraphReport {
    /// Every vertex, by number.
    pub vertices: Vec<VertexReport>,
}

/// Solves `graph` as a game under normal play (a token on a vertex; a move follows an edge; the
/// player unable to move loses): outcome and remoteness by retrograde analysis, and the loopy
/// nim value of every vertex.
///
/// ```
/// use sprague::game::Outcome;
/// let graph = sprague::solve::Graph::parse("3 3\n0 1\n1 0\n1 2\n")?;
/// let report = sprague::solve::graph_report(&graph);
/// assert_eq!(report.vertices[0].outcome, Outcome::P);
/// assert_eq!(report.vertices[0].remoteness, Some(2));
/// assert_eq!(report.vertices[1].nim_value, Some(1));
/// let json = serde_json::to_string(&report.vertices[2]).unwrap();
/// assert_eq!(json, r#"{"id":2,"outcome":"P","remoteness":0,"nim_value":0,"loopy":null}"#);
/// # Ok::<(), sprague::Error>(())
/// ```
pub fn graph_report(graph: &Graph) -> GraphReport {
    let outcomes = retrograde(graph, |_| None);
    let values = loopy_values(graph);
    let vertices = (0..graph.vertex_count() as u32)
        .map(|v| {
            let solved = outcomes.get(v);
            VertexReport {
                id: v,
                outcome: solved.outcome(),
                remoteness: solved.remoteness,
                nim_value: values.finite(v),
                loopy: values.escapes(graph, v).map(|escapes| LoopyReport {
                    infinite: true,
                    escapes,
                }),
            }
        })
        .collect();
    GraphReport { vertices }
}

/// Reads a graph file and solves it: [`Graph::read`] then [`graph_report`].
///
/// # Errors
/// As [`Graph::read`].
pub fn solve_file(path: impl AsRef<Path>) -> Result<GraphReport> {
    Ok(graph_report(&Graph::read(path)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_has_the_contract_shape() {
        // 0 <-> 1 forever, 2 -> 0 and 2 -> 3 (no move).
        let graph = Graph::parse("4 4\n0 1\n1 0\n2 0\n2 3\n").unwrap();
        let report = graph_report(&graph);
        let value = serde_json::to_value(&report).unwrap();
        assert_eq!(
            value,
            json!({"vertices": [
                {"id": 0, "outcome": "D", "remoteness": null, "nim_value": null,
                 "loopy": {"infinite": true, "escapes": []}},
                {"id": 1, "outcome": "D", "remoteness": null, "nim_value": null,
                 "loopy": {"infinite": true, "escapes": []}},
                {"id": 2, "outcome": "N", "remoteness": 1, "nim_value": null,
                 "loopy": {"infinite": true, "escapes": [0]}},
                {"id": 3, "outcome": "P", "remoteness": 0, "nim_value": 0, "loopy": null},
            ]})
        );
        assert_eq!(report.vertices[2].value(), NimValue::Infinite(vec![0]));
    }

    #[test]
    fn missing_files_are_io_errors() {
        assert!(matches!(
            solve_file("/nonexistent/graph"),
            Err(crate::Error::Io { .. })
        ));
    }
}
