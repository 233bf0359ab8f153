//! Col and Snort (Winning Ways ch. 2) on any graph: players take turns colouring an
//! uncoloured vertex, Left **blue** and Right **red** (CGSuite's convention). In **Col** a
//! vertex may not be coloured like a neighbour; in **Snort** it may not be coloured unlike a
//! neighbour.
//!
//! A position is a graph `N:u-v,u-v,...` (N vertices numbered from 0, then the edges;
//! `4:0-1,1-2,2-3` is a path), optionally followed by `;` and the coloured vertices
//! (`4:0-1,1-2,2-3;0B,3R`). At most [`MAX_VERTICES`] vertices. A move is written
//! `colour V` (the vertex).
//!
//! Regions: coloured vertices matter only through the vertices next to them, so a region is
//! a connected set of playable uncoloured vertices plus at most one blue and one red vertex
//! standing for those neighbours. Swapping the colours negates the value.

use crate::game::notation::ParseError;
use crate::game::{Game, Notation};
use crate::partizan::game::move_text;
use crate::partizan::game::positions;
use crate::partizan::{Keyed, Partizan, Side};
use std::fmt;

/// The most vertices a graph may have.
pub const MAX_VERTICES: usize = 62;

const NONE: u8 = 0;
const BLUE: u8 = 1;
const RED: u8 = 2;

/// A graph with some vertices coloured.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Coloured {
    adjacency: Vec<u64>,
    colour: Vec<u8>,
}

/// A graph that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid graph '{}': {}",
    super::grid::printable(.text),
    super::grid::printable(.reason)
)]
pub struct GraphError {
    /// The text.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

/// Parses a graph `N:u-v,u-v,...` (N vertices numbered from 0, then the edges; at most
/// [`MAX_VERTICES`] vertices) as the neighbours of each vertex, a bit per vertex. Col, Snort
/// and Node Kayles share it.
///
/// # Errors
/// A [`GraphError`] naming the problem: a bad count, a vertex out of range, a loop.
pub fn parse_graph(text: &str) -> Result<Vec<u64>, GraphError> {
    parse_graph_in(text, text)
}

/// The vertex `w` names, of `0..n`; errors quote `whole`.
pub(crate) fn parse_vertex(w: &str, n: usize, whole: &str) -> Result<usize, GraphError> {
    w.trim()
        .parse::<usize>()
        .ok()
        .filter(|&v| v < n)
        .ok_or_else(|| GraphError {
            text: whole.to_string(),
            reason: format!("'{}' is not a vertex of 0..{n}", w.trim()),
        })
}

/// The graph `graph` (the part of `whole` before any `;`), with errors quoting `whole`.
fn parse_graph_in(graph: &str, whole: &str) -> Result<Vec<u64>, GraphError> {
    let (n, edges) = parse_edges(graph, whole, MAX_VERTICES)?;
    let mut adjacency = vec![0u64; n];
    for (u, v) in edges {
        adjacency[u] |= 1 << v;
        adjacency[v] |= 1 << u;
    }
    Ok(adjacency)
}

/// The vertex count and the edges of a graph `N:u-v,u-v,...` of at most `max` vertices (the
/// part `graph` of `whole`; errors quote `whole`). Col, Snort and Node Kayles share it.
///
/// # Errors
/// A [`GraphError`] naming the problem: a bad count, a vertex out of range, a loop.
pub fn parse_edges(
    graph: &str,
    whole: &str,
    max: usize,
) -> Result<(usize, Vec<(usize, usize)>), GraphError> {
    let error = |reason: String| GraphError {
        text: whole.to_string(),
        reason,
    };
    let (n, edges) = graph.split_once(':').unwrap_or((graph, ""));
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| error(format!("'{}' is not a vertex count", n.trim())))?;
    if n > max {
        return Err(error(format!("at most {max} vertices are supported")));
    }
    let mut list = Vec::new();
    for edge in edges.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let (u, v) = edge
            .split_once('-')
            .ok_or_else(|| error(format!("edge '{edge}' is not u-v")))?;
        let (u, v) = (parse_vertex(u, n, whole)?, parse_vertex(v, n, whole)?);
        if u == v {
            return Err(error(format!("edge '{edge}' is a loop")));
        }
        list.push((u, v));
    }
    Ok((n, list))
}

impl std::str::FromStr for Coloured {
    type Err = GraphError;
    fn from_str(text: &str) -> Result<Coloured, GraphError> {
        let error = |reason: String| GraphError {
            text: text.to_string(),
            reason,
        };
        let (graph, colours) = text.trim().split_once(';').unwrap_or((text.trim(), ""));
        let adjacency = parse_graph_in(graph, text)?;
        let n = adjacency.len();
        let vertex = |v: &str| parse_vertex(v, n, text);
        let mut colour = vec![NONE; adjacency.len()];
        for item in colours.split(',').map(str::trim).filter(|c| !c.is_empty()) {
            let last = item.char_indices().last().map_or(0, |(i, _)| i);
            let (v, c) = item.split_at(last);
            colour[vertex(v)?] = match c {
                "B" | "b" => BLUE,
                "R" | "r" => RED,
                _ => {
                    return Err(error(format!(
                        "unknown colour in '{item}' (expected B or R)"
                    )))
                }
            };
        }
        Ok(Coloured { adjacency, colour })
    }
}

impl fmt::Display for Coloured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.colour.len())?;
        let mut edges = Vec::new();
        for (u, &a) in self.adjacency.iter().enumerate() {
            for v in u + 1..self.colour.len() {
                if a >> v & 1 == 1 {
                    edges.push(format!("{u}-{v}"));
                }
            }
        }
        f.write_str(&edges.join(","))?;
        let coloured: Vec<String> = (0..self.colour.len())
            .filter(|&v| self.colour[v] != NONE)
            .map(|v| format!("{v}{}", if self.colour[v] == BLUE { 'B' } else { 'R' }))
            .collect();
        if !coloured.is_empty() {
            write!(f, ";{}", coloured.join(","))?;
        }
        Ok(())
    }
}

/// Which of the two games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// Col: never next to your own colour.
    Col,
    /// Snort: never next to the opponent's colour.
    Snort,
}

/// Col or Snort.
#[derive(Clone, Copy, Debug)]
pub struct ColSnort(pub Rules);

impl ColSnort {
    /// Whether `side` may colour the uncoloured vertex `v`.
    fn allowed(&self, position: &Coloured, v: usize, side: Side) -> bool {
        let mine = if side == Side::Left { BLUE } else { RED };
        let forbidden = match self.0 {
            Rules::Col => mine,
            Rules::Snort => BLUE + RED - mine,
        };
        let mut neighbours = position.adjacency[v];
        while neighbours != 0 {
            let w = neighbours.trailing_zeros() as usize;
            neighbours &= neighbours - 1;
            if position.colour[w] == forbidden {
                return false;
            }
        }
        true
    }

    fn playable(&self, position: &Coloured, v: usize) -> bool {
        position.colour[v] == NONE
            && (self.allowed(position, v, Side::Left) || self.allowed(position, v, Side::Right))
    }

    /// The region of the vertices `members`, renumbered, with one blue and one red vertex for
    /// the colours next to them (`swap` exchanges the colours).
    fn region(&self, position: &Coloured, members: &[usize], swap: bool) -> Coloured {
        let k = members.len();
        let mut adjacency = vec![0u64; k];
        let mut colour = vec![NONE; k];
        let mut next_to = [0u64; 2];
        for (i, &v) in members.iter().enumerate() {
            for (j, &w) in members.iter().enumerate() {
                if position.adjacency[v] >> w & 1 == 1 {
                    adjacency[i] |= 1 << j;
                }
            }
            for c in [BLUE, RED] {
                let touches = (0..position.colour.len())
                    .any(|w| position.adjacency[v] >> w & 1 == 1 && position.colour[w] == c);
                if touches {
                    let c = if swap { BLUE + RED - c } else { c };
                    next_to[(c - 1) as usize] |= 1 << i;
                }
            }
        }
        for (c, mask) in [(BLUE, next_to[0]), (RED, next_to[1])] {
            if mask != 0 {
                let index = adjacency.len();
                adjacency.push(mask);
                colour.push(c);
                for (i, a) in adjacency.iter_mut().enumerate().take(k) {
                    if mask >> i & 1 == 1 {
                        *a |= 1 << index;
                    }
                }
            }
        }
        Coloured { adjacency, colour }
    }
}

impl Game for ColSnort {
    type Position = Coloured;
}

impl Partizan for ColSnort {
    fn options(&self, position: &Coloured, side: Side) -> Vec<Coloured> {
        positions(self.moves(position, side))
    }

    fn moves(&self, position: &Coloured, side: Side) -> Vec<(String, Coloured)> {
        (0..position.colour.len())
            .filter(|&v| position.colour[v] == NONE && self.allowed(position, v, side))
            .map(|v| {
                let mut next = position.clone();
                next.colour[v] = if side == Side::Left { BLUE } else { RED };
                (format!("colour {v}"), next)
            })
            .collect()
    }

    fn components(&self, position: &Coloured) -> Vec<Coloured> {
        let playable: u64 = (0..position.colour.len())
            .filter(|&v| self.playable(position, v))
            .fold(0, |m, v| m | 1 << v);
        let mut rest = playable;
        let mut regions = Vec::new();
        while rest != 0 {
            let mut part = rest & rest.wrapping_neg();
            loop {
                let mut grown = part;
                let mut p = part;
                while p != 0 {
                    let v = p.trailing_zeros() as usize;
                    p &= p - 1;
                    grown |= position.adjacency[v] & playable;
                }
                if grown == part {
                    break;
                }
                part = grown;
            }
            rest &= !part;
            let members: Vec<usize> = (0..64).filter(|&v| part >> v & 1 == 1).collect();
            regions.push(self.region(position, &members, false));
        }
        regions
    }

    fn key(&self, region: &Coloured) -> Keyed<Coloured> {
        let members: Vec<usize> = (0..region.colour.len())
            .filter(|&v| region.colour[v] == NONE)
            .collect();
        let plain = self.region(region, &members, false);
        let swapped = self.region(region, &members, true);
        if swapped < plain {
            Keyed {
                key: swapped,
                negated: true,
            }
        } else {
            Keyed {
                key: plain,
                negated: false,
            }
        }
    }
}

impl Notation for ColSnort {
    fn parse_position(&self, words: &[&str]) -> Result<Coloured, ParseError> {
        match words {
            [graph] => graph.parse().map_err(|e: GraphError| e.to_string().into()),
            _ => Err("a position is one graph N:u-v,u-v,... such as 4:0-1,1-2,2-3".into()),
        }
    }

    fn write_position(&self, position: &Coloured) -> String {
        position.to_string()
    }

    fn write_move(&self, from: &Coloured, to: &Coloured) -> String {
        move_text(self, from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partizan::solve::canonical_form;

    fn value(rules: Rules, graph: &str) -> String {
        let position: Coloured = graph.parse().unwrap();
        canonical_form(&ColSnort(rules), &position).unwrap()
    }

    #[test]
    fn known_values() {
        // Winning Ways ch. 2: in Col a lone vertex is *, two joined vertices are 0 (Left's
        // move leaves a vertex only Right may colour, -1, and Right's the opposite: {-1|1});
        // in Snort a lone vertex is * and an edge is ±1 (a move there leaves the other end
        // to the mover alone).
        assert_eq!(value(Rules::Col, "1:"), "*");
        assert_eq!(value(Rules::Snort, "1:"), "*");
        assert_eq!(value(Rules::Snort, "2:0-1"), "±1");
        assert_eq!(value(Rules::Col, "2:0-1"), "0");
        // A vertex next to a blue one: in Col only Right may colour it (-1), in Snort only
        // Left (1).
        assert_eq!(value(Rules::Col, "2:0-1;0B"), "-1");
        assert_eq!(value(Rules::Snort, "2:0-1;0B"), "1");
        assert_eq!(
            "3:0-3".parse::<Coloured>().unwrap_err().to_string(),
            "invalid graph '3:0-3': '3' is not a vertex of 0..3"
        );
    }
}
