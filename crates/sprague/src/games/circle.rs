//! Coins in a circle: a move takes 1 to K adjacent coins; taking the last coin wins.
//!
//! The first move breaks the circle into a row (a *line*), and later moves take 1..K adjacent
//! coins from a row, possibly splitting it in two: rows are the octal game 0.77…7 (K sevens).
//!
//! Seed 004: for K ≥ 2 the first player wins iff 1 ≤ n ≤ K, since otherwise the second player
//! answers the first move by taking 1 or 2 coins from the middle of the row, leaving two equal
//! rows, and then copies every move in the other row ([`symmetric_reply`]). For K = 1 only the
//! parity of n matters. The nim value of a circle follows: n for n ≤ K, else 0 (K ≥ 2); n mod 2
//! (K = 1). So circles are [`Component`]s and can be summed with any game. Rows need their own
//! values, computed by a mex table (shared, per K) up to [`LINE_LIMIT`] coins.

use crate::analysis::{Component, ComponentMove, ComponentRef, GameDef, Parsed};
use crate::error::{Error, Result};
use crate::game::{Impartial, NimValue};
use crate::spec::{parse_u64, CatalogEntry, Family};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

/// The longest row whose nim value is computed.
pub const LINE_LIMIT: u64 = 20_000;

/// The most mex-table work (pairs examined) spent on row values for one K.
const WORK_LIMIT: u128 = 200_000_000;

/// A position for the generic solvers: a circle of n coins or a row of n coins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Coins {
    /// n coins in a circle.
    Circle(u64),
    /// n coins in a row.
    Line(u64),
}

/// The rules (take 1..=k adjacent coins) for the generic solvers; positions are multisets of
/// circles and rows, kept sorted.
#[derive(Clone, Copy, Debug)]
pub struct CircleTake {
    /// The most coins one move takes.
    pub k: u64,
}

impl Impartial for CircleTake {
    type Position = Vec<Coins>;

    fn options(&self, position: &Vec<Coins>) -> Vec<Vec<Coins>> {
        let mut out = Vec::new();
        for (i, &part) in position.iter().enumerate() {
            let rest = || {
                let mut r = position.clone();
                r.remove(i);
                r
            };
            match part {
                Coins::Circle(n) => {
                    for t in 1..=self.k.min(n) {
                        let mut next = rest();
                        if n > t {
                            next.push(Coins::Line(n - t));
                        }
                        next.sort_unstable_by_key(key);
                        out.push(next);
                    }
                }
                Coins::Line(n) => {
                    for t in 1..=self.k.min(n) {
                        for left in 0..=(n - t) / 2 {
                            let mut next = rest();
                            next.extend(
                                [left, n - t - left]
                                    .into_iter()
                                    .filter(|&m| m > 0)
                                    .map(Coins::Line),
                            );
                            next.sort_unstable_by_key(key);
                            out.push(next);
                        }
                    }
                }
            }
        }
        out
    }
}

fn key(c: &Coins) -> (bool, u64) {
    match *c {
        Coins::Circle(n) => (false, n),
        Coins::Line(n) => (true, n),
    }
}

/// The nim value of a circle of n coins.
///
/// ```
/// use sprague::games::circle::circle_value;
/// assert_eq!(circle_value(3, 5), 3); // 1 ≤ n ≤ K: take all, or leave any row below n
/// assert_eq!(circle_value(9, 5), 0); // the second player mirrors
/// assert_eq!(circle_value(9, 1), 1);
/// ```
pub fn circle_value(n: u64, k: u64) -> u64 {
    match k {
        1 => n % 2,
        _ if n <= k => n,
        _ => 0,
    }
}

/// The symmetric reply in a row of m coins (K ≥ 2): take 1 or 2 middle coins (matching m's
/// parity) to leave two equal rows, as `(take, left)`; `None` if m is 0 or K = 1.
///
/// ```
/// assert_eq!(sprague::games::circle::symmetric_reply(7, 2), Some((1, 3)));
/// assert_eq!(sprague::games::circle::symmetric_reply(8, 3), Some((2, 3)));
/// ```
pub fn symmetric_reply(m: u64, k: u64) -> Option<(u64, u64)> {
    if m == 0 || k < 2 {
        return None;
    }
    let take = if m % 2 == 1 { 1 } else { 2 };
    Some((take, (m - take) / 2))
}

/// The least value not in `values`.
fn mex(values: &[u64]) -> u64 {
    let mut seen = vec![false; values.len() + 1];
    for &v in values {
        if let Some(slot) = seen.get_mut(v as usize) {
            *slot = true;
        }
    }
    seen.iter().position(|&s| !s).unwrap_or(values.len()) as u64
}

/// Row values per K, grown on demand.
static LINES: Mutex<Option<HashMap<u64, Vec<u32>>>> = Mutex::new(None);

/// The nim value of a row of m coins (the octal game 0.77…7 with K sevens).
///
/// # Errors
/// [`Error::Limit`] past [`LINE_LIMIT`] or the table's work limit.
pub fn line_value(m: u64, k: u64) -> Result<u64> {
    if k == 1 {
        return Ok(m % 2);
    }
    if m <= k {
        // Every smaller row is an option and every split has value at most m - 1.
        return Ok(m);
    }
    let work = u128::from(k.min(m)) * u128::from(m) * u128::from(m) / 2;
    if m > LINE_LIMIT || work > WORK_LIMIT {
        return Err(Error::Limit(format!(
            "the nim value of a row of {m} coins (take up to {k}) is computed only for rows \
             up to {LINE_LIMIT} coins and moderate K"
        )));
    }
    let mut guard = LINES.lock().unwrap_or_else(|e| e.into_inner());
    let values = guard.get_or_insert_with(HashMap::new).entry(k).or_default();
    let mut options = Vec::new();
    while values.len() as u64 <= m {
        let n = values.len() as u64;
        options.clear();
        for t in 1..=k.min(n) {
            for left in 0..=(n - t) / 2 {
                options.push(u64::from(
                    values[left as usize] ^ values[(n - t - left) as usize],
                ));
            }
        }
        values.push(mex(&options) as u32);
    }
    Ok(u64::from(values[m as usize]))
}

/// A circle of coins, as a summand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Circle {
    /// The most coins one move takes.
    pub k: u64,
    /// Coins in the circle.
    pub n: u64,
}

/// A row of coins left after the first move, as a summand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// The most coins one move takes.
    pub k: u64,
    /// Coins in the row.
    pub n: u64,
}

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.n)
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line:{}", self.n)
    }
}

fn line_parts(k: u64, lengths: &[u64]) -> Vec<ComponentRef> {
    lengths
        .iter()
        .filter(|&&m| m > 0)
        .map(|&n| Arc::new(Line { k, n }) as ComponentRef)
        .collect()
}

fn parts_text(parts: &[ComponentRef]) -> String {
    if parts.is_empty() {
        return "0".into();
    }
    let words: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
    words.join(" ")
}

impl Circle {
    fn take(&self, t: u64) -> ComponentMove {
        let parts = line_parts(self.k, &[self.n - t]);
        ComponentMove {
            text: format!("{} -> {}", self, parts_text(&parts)),
            parts,
        }
    }
}

impl Line {
    fn take(&self, t: u64, left: u64) -> ComponentMove {
        let parts = line_parts(self.k, &[left, self.n - t - left]);
        ComponentMove {
            text: format!("{} -> {}", self, parts_text(&parts)),
            parts,
        }
    }
}

fn too_many(what: String, limit: usize) -> Error {
    Error::Limit(format!("{what} has more than {limit} options to list"))
}

impl Component for Circle {
    fn game(&self) -> String {
        format!("circle:{}", self.k)
    }

    fn to_json(&self) -> Json {
        Json::from(self.n)
    }

    fn nim_value(&self) -> Result<NimValue> {
        Ok(NimValue::Finite(circle_value(self.n, self.k)))
    }

    fn options(&self, limit: usize) -> Result<Vec<ComponentMove>> {
        let count = self.k.min(self.n);
        if count > limit as u64 {
            return Err(too_many(format!("a circle of {}", self.n), limit));
        }
        Ok((1..=count).map(|t| self.take(t)).collect())
    }

    fn options_with_value(&self, target: u64, limit: usize) -> Result<Vec<ComponentMove>> {
        if self.k >= 2 && self.n <= self.k {
            // The options are the rows 0..n-1, each worth its length.
            return Ok(if target < self.n {
                vec![self.take(self.n - target)]
            } else {
                Vec::new()
            });
        }
        let mut out = Vec::new();
        for option in self.options(limit)? {
            if crate::analysis::parts_value(&option.parts)? == NimValue::Finite(target) {
                out.push(option);
            }
        }
        Ok(out)
    }
}

impl Component for Line {
    fn game(&self) -> String {
        format!("circle:{}", self.k)
    }

    fn to_json(&self) -> Json {
        serde_json::json!({ "line": self.n })
    }

    fn nim_value(&self) -> Result<NimValue> {
        line_value(self.n, self.k).map(NimValue::Finite)
    }

    fn options(&self, limit: usize) -> Result<Vec<ComponentMove>> {
        let count: u128 = (1..=u128::from(self.k.min(self.n)))
            .map(|t| (u128::from(self.n) - t) / 2 + 1)
            .take(limit + 1)
            .sum();
        if count > limit as u128 {
            return Err(too_many(format!("a row of {}", self.n), limit));
        }
        let mut out = Vec::new();
        for t in 1..=self.k.min(self.n) {
            for left in 0..=(self.n - t) / 2 {
                out.push(self.take(t, left));
            }
        }
        Ok(out)
    }
}

struct CircleGame {
    k: u64,
}

impl GameDef for CircleGame {
    fn spec(&self) -> String {
        format!("circle:{}", self.k)
    }

    fn parse_position(&self, args: &[String]) -> Result<Parsed> {
        let spec = self.spec();
        let mut parts: Vec<ComponentRef> = Vec::new();
        if args.is_empty() {
            return Err(Error::position(&spec, "give the number of coins, e.g. 7"));
        }
        for word in args {
            let part: ComponentRef = match word.strip_prefix("line:") {
                Some(m) => Arc::new(Line {
                    k: self.k,
                    n: parse_u64(m, "row length").map_err(|r| Error::position(&spec, r))?,
                }),
                None => Arc::new(Circle {
                    k: self.k,
                    n: parse_u64(word, "circle size").map_err(|r| Error::position(&spec, r))?,
                }),
            };
            // Empty circles and rows are no part at all (as empty heaps in Nim).
            if part.to_string().trim_start_matches("line:") != "0" {
                parts.push(part);
            }
        }
        Ok(Parsed::Parts(parts))
    }
}

/// The `circle:K` spec.
pub struct CircleFamily;

impl Family for CircleFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        vec![CatalogEntry {
            spec: "circle:K",
            params: "K ≥ 1: the most adjacent coins one move takes",
            position: "n (coins in a circle); several numbers are a sum of circles; line:M is a \
                       row of M coins, what the circle becomes after the first move",
            summary: "coins in a circle, take 1..K adjacent; K ≥ 2: N iff 1 ≤ n ≤ K (the second \
                      player splits the row symmetrically), nim value n or 0; K = 1: parity; \
                      rows are the octal game 0.77…7, valued by a mex table up to 20000 coins",
            example: "circle:2 7",
        }]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        if name != "circle" {
            return None;
        }
        let Some(params) = params else {
            return Some(Err(Error::spec(spec, "circle needs K, e.g. circle:2")));
        };
        Some(match parse_u64(params, "K") {
            Ok(0) => Err(Error::spec(spec, "K must be at least 1")),
            Ok(k) => Ok(Arc::new(CircleGame { k })),
            Err(reason) => Err(Error::spec(spec, reason)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::value;
    use crate::game::{Outcome, Play};
    use crate::solve::{MisereOutcomes, NimValues};
    use crate::spec::parse_position;

    #[test]
    fn circle_and_row_values_match_brute_force() {
        for k in 1..=4u64 {
            let mut solver = NimValues::new(CircleTake { k });
            for n in 0..=24u64 {
                let circle = solver.nim_value(&vec![Coins::Circle(n)]).unwrap();
                assert_eq!(circle_value(n, k), circle, "circle n={n} k={k}");
                assert_eq!(
                    Circle { k, n }.nim_value().unwrap(),
                    NimValue::Finite(circle)
                );
                let line = if n == 0 { vec![] } else { vec![Coins::Line(n)] };
                assert_eq!(
                    line_value(n, k).unwrap(),
                    solver.nim_value(&line).unwrap(),
                    "line n={n} k={k}"
                );
            }
        }
        // Kayles (K = 2) values, as published.
        let kayles = [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7,
        ];
        for (n, &g) in kayles.iter().enumerate() {
            assert_eq!(line_value(n as u64, 2).unwrap(), g);
        }
    }

    #[test]
    fn the_symmetric_reply_wins_every_row() {
        for k in 2..=4u64 {
            for m in 1..=60u64 {
                let (take, left) = symmetric_reply(m, k).unwrap();
                assert_eq!(2 * left + take, m);
                let reply = Line { k, n: m }.take(take, left);
                assert_eq!(
                    crate::analysis::parts_value(&reply.parts).unwrap(),
                    NimValue::Finite(0)
                );
            }
        }
    }

    #[test]
    fn winning_moves_match_brute_force() {
        for k in 1..=3u64 {
            let mut solver = NimValues::new(CircleTake { k });
            for n in 0..=12u64 {
                for extra in 0..4u64 {
                    let words = [
                        format!("circle:{k}"),
                        n.to_string(),
                        format!("line:{extra}"),
                    ];
                    let p = parse_position(&words).unwrap();
                    let r = value(&p, Play::Normal).unwrap();
                    let mut start = Vec::new();
                    if n > 0 {
                        start.push(Coins::Circle(n));
                    }
                    if extra > 0 {
                        start.push(Coins::Line(extra));
                    }
                    start.sort_unstable_by_key(key);
                    let g = solver.nim_value(&start).unwrap();
                    assert_eq!(r.nim_value, Some(g));
                    let normalize = |parts: Vec<Json>| {
                        let mut words: Vec<String> = parts.iter().map(Json::to_string).collect();
                        words.sort();
                        words
                    };
                    let mut expected: Vec<Vec<String>> = solver
                        .winning_moves(&start)
                        .unwrap()
                        .into_iter()
                        .map(|next| {
                            normalize(
                                next.iter()
                                    .map(|c| match *c {
                                        Coins::Circle(n) => Json::from(n),
                                        Coins::Line(m) => serde_json::json!({ "line": m }),
                                    })
                                    .collect(),
                            )
                        })
                        .collect();
                    let mut reported: Vec<Vec<String>> = r
                        .winning_moves
                        .iter()
                        .map(|m| normalize(m.position.as_array().unwrap().clone()))
                        .collect();
                    expected.sort();
                    reported.sort();
                    assert_eq!(reported, expected, "k={k} n={n} line={extra}");
                }
            }
        }
    }

    #[test]
    fn misere_matches_direct_search() {
        for k in 1..=3u64 {
            let mut solver = MisereOutcomes::new(CircleTake { k });
            for n in 0..=12u64 {
                let p = parse_position(&[format!("circle:{k}"), n.to_string()]).unwrap();
                let r = value(&p, Play::Misere).unwrap();
                assert_eq!(r.outcome, solver.outcome(&vec![Coins::Circle(n)]).unwrap());
            }
        }
    }

    #[test]
    fn huge_circles() {
        let p = parse_position(&["circle:2", "18446744073709551615"]).unwrap();
        let r = value(&p, Play::Normal).unwrap();
        assert_eq!((r.outcome, r.nim_value), (Outcome::P, Some(0)));
        let p = parse_position(&["circle:18446744073709551615", "1000000000000"]).unwrap();
        let r = value(&p, Play::Normal).unwrap();
        assert_eq!(r.outcome, Outcome::N);
        assert_eq!(r.winning_moves.len(), 1);
        assert_eq!(r.winning_moves[0].text, "1000000000000 -> 0");
        let p = parse_position(&["circle:1", "18446744073709551615"]).unwrap();
        let r = value(&p, Play::Normal).unwrap();
        assert_eq!(r.outcome, Outcome::N);
        // A huge row has no computed value: a clear limit, not a panic.
        let p = parse_position(&["circle:2", "line:99999999"]).unwrap();
        assert!(matches!(value(&p, Play::Normal), Err(Error::Limit(_))));
    }

    #[test]
    fn malformed_specs_and_positions() {
        assert!(crate::spec::parse_game("circle").is_err());
        assert!(crate::spec::parse_game("circle:0").is_err());
        assert!(parse_position(&["circle:2"]).is_err());
        assert!(parse_position(&["circle:2", "x"]).is_err());
        assert!(parse_position(&["circle:2", "line:-1"]).is_err());
    }
}
