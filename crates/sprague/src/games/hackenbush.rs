//! Hackenbush (Winning Ways ch. 1–2, 7): edges coloured blue, red or green stand on the
//! ground; Left (**Blue**) cuts a blue or green edge, Right (**Red**) a red or green one, and
//! whatever is no longer connected to the ground falls away. CGSuite's convention: Blue is
//! Left.
//!
//! Positions:
//! - **Stalks** (strings), written from the ground up: `BBR` is a blue edge on the ground, a
//!   blue one on it, a red one on top; several stalks side by side are a sum (`BBR RG`).
//! - **Graphs** read from a file: one edge a line, `u v C` with vertices numbered from 0 and
//!   `C` one of `B`, `R`, `G`; the ground is vertex 0 unless a line `ground V` says otherwise;
//!   `#` starts a comment; loops and parallel edges are allowed:
//!
//! ```text
//! # a blue stalk of two edges with a red and a green edge on top
//! ground 0
//! 0 1 B
//! 1 2 B
//! 2 3 R
//! 2 3 G
//! ```
//!
//! A move is written `cut u-v` (the edge's ends, after the position's numbering).
//!
//! Regions: the components of the graph without its ground vertex, each with its ground edges.

use crate::game::notation::ParseError;
use crate::game::{Game, Notation};
use crate::partizan::game::move_text;
use crate::partizan::game::positions;
use crate::partizan::{Keyed, Partizan, Side};
use std::collections::BTreeMap;
use std::fmt;

/// The colour of an edge.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Colour {
    /// Left's (blue) edge.
    Blue,
    /// Right's (red) edge.
    Red,
    /// Either player's edge.
    Green,
}

impl Colour {
    fn letter(self) -> char {
        match self {
            Colour::Blue => 'B',
            Colour::Red => 'R',
            Colour::Green => 'G',
        }
    }

    fn parse(c: &str) -> Option<Colour> {
        match c {
            "B" | "b" | "blue" => Some(Colour::Blue),
            "R" | "r" | "red" => Some(Colour::Red),
            "G" | "g" | "green" => Some(Colour::Green),
            _ => None,
        }
    }

    fn cut_by(self, side: Side) -> bool {
        matches!(
            (self, side),
            (Colour::Green, _) | (Colour::Blue, Side::Left) | (Colour::Red, Side::Right)
        )
    }

    fn swapped(self) -> Colour {
        match self {
            Colour::Blue => Colour::Red,
            Colour::Red => Colour::Blue,
            Colour::Green => Colour::Green,
        }
    }
}

/// The most edges a position may have.
pub const MAX_EDGES: usize = 4096;

/// A Hackenbush position: edges on vertices `0..`, vertex 0 the ground, every edge connected
/// to the ground (checked), edges sorted.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Position {
    edges: Vec<(u32, u32, Colour)>,
}

/// A Hackenbush position that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HackenbushError {
    /// A stalk with a letter other than `B`, `R`, `G`.
    #[error(
        "unknown colour '{}' in stalk '{}' (expected B, R or G)",
        super::grid::printable(.found),
        super::grid::printable(.stalk)
    )]
    Colour {
        /// The letter.
        found: char,
        /// The stalk.
        stalk: String,
    },
    /// A graph file line that does not parse.
    #[error("line {line}: {}", super::grid::printable(.reason))]
    Line {
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// Too many edges.
    #[error("at most {MAX_EDGES} edges are supported")]
    TooLarge,
}

impl Position {
    /// Stalks written from the ground up (`BBR`, `RG`), summed.
    ///
    /// # Errors
    /// [`HackenbushError::Colour`] for a letter other than `B`, `R`, `G`.
    pub fn stalks<S: AsRef<str>>(stalks: &[S]) -> Result<Position, HackenbushError> {
        let mut edges = Vec::new();
        let mut next = 1u32;
        for stalk in stalks {
            let stalk = stalk.as_ref();
            let mut below = 0;
            for ch in stalk.chars() {
                let colour =
                    Colour::parse(&ch.to_string()).ok_or_else(|| HackenbushError::Colour {
                        found: ch,
                        stalk: stalk.to_string(),
                    })?;
                edges.push((below, next, colour));
                below = next;
                next += 1;
                if edges.len() > MAX_EDGES {
                    return Err(HackenbushError::TooLarge);
                }
            }
        }
        Ok(Position::from_edges(0, edges))
    }

    /// A graph in the file format of the module docs.
    ///
    /// # Errors
    /// [`HackenbushError::Line`] naming the line and the problem.
    pub fn graph(text: &str) -> Result<Position, HackenbushError> {
        let mut ground = 0;
        let mut edges = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let error = |reason: String| HackenbushError::Line {
                line: i + 1,
                reason,
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            let vertex = |w: &str| {
                w.parse::<u32>()
                    .ok()
                    .filter(|&v| v < 1 << 20)
                    .ok_or_else(|| error(format!("'{w}' is not a vertex number")))
            };
            match words[..] {
                ["ground", v] => ground = vertex(v)?,
                [u, v, c] => {
                    let colour = Colour::parse(c).ok_or_else(|| {
                        error(format!("unknown colour '{c}' (expected B, R or G)"))
                    })?;
                    edges.push((vertex(u)?, vertex(v)?, colour));
                    if edges.len() > MAX_EDGES {
                        return Err(HackenbushError::TooLarge);
                    }
                }
                _ => return Err(error("expected 'u v C' or 'ground V'".to_string())),
            }
        }
        Ok(Position::from_edges(ground, edges))
    }

    /// Keeps the edges connected to `ground`, renumbered (ground 0, then in order of first
    /// appearance from the ground).
    fn from_edges(ground: u32, edges: Vec<(u32, u32, Colour)>) -> Position {
        let mut adjacency: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (i, &(u, v, _)) in edges.iter().enumerate() {
            adjacency.entry(u).or_default().push(i);
            adjacency.entry(v).or_default().push(i);
        }
        let mut number: BTreeMap<u32, u32> = BTreeMap::new();
        number.insert(ground, 0);
        let mut queue = std::collections::VecDeque::from([ground]);
        let mut kept = vec![false; edges.len()];
        while let Some(x) = queue.pop_front() {
            for &i in adjacency.get(&x).map_or(&[][..], |v| &v[..]) {
                kept[i] = true;
                let (u, v, _) = edges[i];
                let y = if u == x { v } else { u };
                if !number.contains_key(&y) {
                    let n = number.len() as u32;
                    number.insert(y, n);
                    queue.push_back(y);
                }
            }
        }
        let mut result: Vec<(u32, u32, Colour)> = edges
            .iter()
            .zip(&kept)
            .filter(|(_, &k)| k)
            .map(|(&(u, v, c), _)| {
                let (a, b) = (number[&u], number[&v]);
                (a.min(b), a.max(b), c)
            })
            .collect();
        result.sort();
        Position { edges: result }
    }

    /// The edges `(u, v, colour)`, vertex 0 the ground.
    pub fn edges(&self) -> &[(u32, u32, Colour)] {
        &self.edges
    }

    fn without(&self, i: usize) -> Position {
        let mut edges = self.edges.clone();
        edges.remove(i);
        Position::from_edges(0, edges)
    }

    /// The stalks, when the position is a set of paths standing on the ground.
    fn as_stalks(&self) -> Option<Vec<String>> {
        let mut above: BTreeMap<u32, Vec<(u32, Colour)>> = BTreeMap::new();
        for &(u, v, c) in &self.edges {
            above.entry(u).or_default().push((v, c));
        }
        let mut stalks = Vec::new();
        let mut seen = 0;
        let mut visited = std::collections::BTreeSet::new();
        for &(top, c) in above.get(&0).map_or(&[][..], |v| &v[..]) {
            let mut stalk = String::from(c.letter());
            let mut at = top;
            seen += 1;
            if !visited.insert(top) {
                return None;
            }
            while let Some(next) = above.get(&at) {
                if next.len() != 1 || !visited.insert(next[0].0) {
                    return None;
                }
                stalk.push(next[0].1.letter());
                at = next[0].0;
                seen += 1;
            }
            stalks.push(stalk);
        }
        (seen == self.edges.len()).then_some(stalks)
    }
}

impl fmt::Display for Position {
    /// Stalks as `BBR RG` (`0` for no edge); other graphs as `u-v:C` edges joined by `,`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.edges.is_empty() {
            return f.write_str("0");
        }
        match self.as_stalks() {
            Some(stalks) => f.write_str(&stalks.join(" ")),
            None => {
                let edges: Vec<String> = self
                    .edges
                    .iter()
                    .map(|&(u, v, c)| format!("{u}-{v}:{}", c.letter()))
                    .collect();
                f.write_str(&edges.join(","))
            }
        }
    }
}

/// The rules of Hackenbush.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hackenbush;

impl Game for Hackenbush {
    type Position = Position;
}

impl Partizan for Hackenbush {
    fn options(&self, position: &Position, side: Side) -> Vec<Position> {
        positions(self.moves(position, side))
    }

    fn moves(&self, position: &Position, side: Side) -> Vec<(String, Position)> {
        let mut moves: Vec<(String, Position)> = Vec::new();
        for (i, &(u, v, c)) in position.edges.iter().enumerate() {
            // Parallel edges of one colour give the same option once.
            if c.cut_by(side) && (i == 0 || position.edges[i - 1] != (u, v, c)) {
                moves.push((format!("cut {u}-{v}"), position.without(i)));
            }
        }
        moves
    }

    fn components(&self, position: &Position) -> Vec<Position> {
        // Union the vertices above the ground.
        let n = position
            .edges
            .iter()
            .map(|e| e.1 as usize + 1)
            .max()
            .unwrap_or(1);
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], x: usize) -> usize {
            let mut r = x;
            while parent[r] != r {
                r = parent[r];
            }
            parent[x] = r;
            r
        }
        for &(u, v, _) in &position.edges {
            if u != 0 {
                let (a, b) = (find(&mut parent, u as usize), find(&mut parent, v as usize));
                parent[a] = b;
            }
        }
        let mut groups: BTreeMap<usize, Vec<(u32, u32, Colour)>> = BTreeMap::new();
        for &(u, v, c) in &position.edges {
            let root = find(&mut parent, v as usize);
            groups.entry(root).or_default().push((u, v, c));
        }
        groups
            .into_values()
            .map(|edges| Position::from_edges(0, edges))
            .collect()
    }

    fn key(&self, region: &Position) -> Keyed<Position> {
        // Swapping blue and red negates; keep the smaller of the two.
        let swapped = Position {
            edges: region
                .edges
                .iter()
                .map(|&(u, v, c)| (u, v, c.swapped()))
                .collect::<Vec<_>>(),
        };
        let mut swapped = swapped;
        swapped.edges.sort();
        if swapped < *region {
            Keyed {
                key: swapped,
                negated: true,
            }
        } else {
            Keyed {
                key: region.clone(),
                negated: false,
            }
        }
    }
}

impl Notation for Hackenbush {
    /// Stalks (`BBR RG`), `0` for no edges, a graph's edges `u-v:C,...` grounded at 0 (what
    /// positions that are not stalks print as), or the words of a graph file (`ground 0 0 1 B
    /// 1 2 R`, comments removed).
    fn parse_position(&self, words: &[&str]) -> Result<Position, ParseError> {
        let parsed = match words {
            [] | ["0"] => Position::stalks::<&str>(&[]),
            [edges] if edges.contains(':') => {
                // `u-v:C,u-v:C`: the graph file format with `,` ending each line.
                let lines: Vec<String> = edges
                    .split(',')
                    .map(|e| e.replace(['-', ':'], " "))
                    .collect();
                Position::graph(&lines.join("\n"))
            }
            // A graph file's words (`sprague value hackenbush --position-file FILE`): an
            // optional `ground V`, then `u v C` triples.
            [first, ..] if *first == "ground" || first.parse::<u32>().is_ok() => {
                let (ground, edges) = match words {
                    ["ground", v, rest @ ..] => (format!("ground {v}\n"), rest),
                    _ => (String::new(), words),
                };
                let lines: Vec<String> = edges.chunks(3).map(|e| e.join(" ")).collect();
                Position::graph(&format!("{ground}{}", lines.join("\n")))
            }
            stalks => Position::stalks(stalks),
        };
        parsed.map_err(|e| e.to_string().into())
    }

    fn write_position(&self, position: &Position) -> String {
        position.to_string()
    }

    fn write_move(&self, from: &Position, to: &Position) -> String {
        move_text(self, from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partizan::{solve::canonical_form, Solver};

    fn stalks(text: &str) -> String {
        let words: Vec<&str> = text.split_whitespace().collect();
        let position = Position::stalks(&words).unwrap();
        canonical_form(&Hackenbush, &position).unwrap()
    }

    #[test]
    fn known_values() {
        // Winning Ways ch. 1 and Lessons in Play §2.3 (blue-red strings): B = 1, BR = 1/2,
        // BRR = 1/4, BRB = 3/4, RB = -1/2, BBR = 3/2; green strings are nimbers (G = *,
        // GG = *2). A blue edge on a green one (GB from the ground) is {0,*|0} = ^*: Left
        // cuts either edge, Right only the green one (cgt-py agrees, built from the options).
        assert_eq!(stalks("B"), "1");
        assert_eq!(stalks("BR"), "1/2");
        assert_eq!(stalks("BRR"), "1/4");
        assert_eq!(stalks("BRB"), "3/4");
        assert_eq!(stalks("RB"), "-1/2");
        assert_eq!(stalks("BBR"), "3/2");
        assert_eq!(stalks("BR BR R"), "0");
        assert_eq!(stalks("G"), "*");
        assert_eq!(stalks("GG"), "*2");
        assert_eq!(stalks("GGG G"), "*2");
        assert_eq!(stalks("GB"), "^*");
    }

    #[test]
    fn graphs_and_errors() {
        // A triangle of green edges on the ground (the fusion principle: a green loop at the
        // ground fuses to * and two parallel green edges... this cycle on the ground is *).
        let text = "# triangle\nground 5\n5 1 G\n1 2 G\n2 5 G\n";
        let position = Position::graph(text).unwrap();
        assert_eq!(position.to_string(), "0-1:G,0-2:G,1-2:G");
        let value = Solver::new(&Hackenbush).canonical(&position).unwrap();
        assert_eq!(value.to_string(), "*");
        assert_eq!(
            Position::graph("0 1 B\n1 2 Y\n").unwrap_err().to_string(),
            "line 2: unknown colour 'Y' (expected B, R or G)"
        );
        assert_eq!(
            Position::stalks(&["BXR"]).unwrap_err().to_string(),
            "unknown colour 'X' in stalk 'BXR' (expected B, R or G)"
        );
        // Edges not connected to the ground fall away.
        assert_eq!(Position::graph("0 1 B\n2 3 R").unwrap().to_string(), "B");
    }
}
