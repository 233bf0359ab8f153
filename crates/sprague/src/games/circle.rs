//! Coins in a circle: a move takes 1 to K adjacent coins; taking the last coin wins.
//!
//! The first move breaks the circle into a row (a *line*), and later moves take 1..K adjacent
//! coins from a row, possibly splitting it in two: rows are the octal game 0.77…7 (K sevens).
//!
//! Seed 004: for K ≥ 2 the first player wins iff 1 ≤ n ≤ K, since otherwise the second player
//! answers the first move by taking 1 or 2 coins from the middle of the row, leaving two equal
//! rows, and then copies every move in the other row ([`symmetric_reply`]). For K = 1 only the
//! parity of n matters. The nim value of a circle follows: n for n ≤ K, else 0 (K ≥ 2); n mod 2
//! (K = 1). So circles sum with any game. Rows need their own values, computed by a mex table
//! (per game) up to [`LINE_LIMIT`] coins.

use crate::error::{Error, Result};
use crate::game::notation::parse_u64;
use crate::game::notation::ParseError;
use crate::game::{Game, Impartial, Listing, NimValue, Notation};
use crate::solve::mex;
use serde_json::Value as Json;
use std::sync::{Arc, Mutex};

/// The longest row whose nim value is computed.
pub const LINE_LIMIT: u64 = 20_000;

/// The most options listed before [`Impartial::try_options`] answers [`Error::Limit`].
pub const OPTION_LIMIT: u128 = 100_000;

/// The most mex-table work (pairs examined) spent on row values.
const WORK_LIMIT: u128 = 200_000_000;

/// A piece of a position: a circle of n coins or a row of n coins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Coins {
    /// n coins in a circle.
    Circle(u64),
    /// n coins in a row.
    Line(u64),
}

/// The rules: take 1..=k adjacent coins. A position is a list of circles and rows, each a
/// component; the values of rows are kept per game.
#[derive(Clone, Debug)]
pub struct CircleTake {
    /// The most coins one move takes.
    pub k: u64,
    lines: Arc<Mutex<Vec<u32>>>,
}

impl CircleTake {
    /// The game where a move takes 1 to `k` adjacent coins (`k` ≥ 1).
    pub fn new(k: u64) -> CircleTake {
        CircleTake {
            k,
            lines: Arc::default(),
        }
    }

    /// The nim value of a row of m coins (the octal game 0.77…7 with K sevens).
    ///
    /// # Errors
    /// [`Error::Limit`] past [`LINE_LIMIT`] or the table's work limit.
    pub fn line_value(&self, m: u64) -> Result<u64> {
        let k = self.k;
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
        let mut values = self.lines.lock().unwrap_or_else(|e| e.into_inner());
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

    fn option_count(&self, piece: Coins) -> u128 {
        match piece {
            Coins::Circle(n) => u128::from(self.k.min(n)),
            Coins::Line(n) => (1..=u128::from(self.k.min(n)))
                .map(|t| (u128::from(n) - t) / 2 + 1)
                .take(OPTION_LIMIT as usize + 1)
                .sum(),
        }
    }

    /// The pieces a move leaves in place of `piece`.
    fn piece_options(&self, piece: Coins) -> Vec<Vec<Coins>> {
        let lines = |lengths: [u64; 2]| -> Vec<Coins> {
            lengths
                .into_iter()
                .filter(|&m| m > 0)
                .map(Coins::Line)
                .collect()
        };
        match piece {
            Coins::Circle(n) => (1..=self.k.min(n)).map(|t| lines([n - t, 0])).collect(),
            Coins::Line(n) => (1..=self.k.min(n))
                .flat_map(|t| (0..=(n - t) / 2).map(move |left| (t, left)))
                .map(|(t, left)| lines([left, n - t - left]))
                .collect(),
        }
    }
}

/// Reads `circle:K`'s parameter.
///
/// # Errors
/// When K is not a whole number of at least 1.
pub fn parse_circle(params: &str) -> std::result::Result<CircleTake, String> {
    match parse_u64(params, "K")? {
        0 => Err("K must be at least 1".into()),
        k => Ok(CircleTake::new(k)),
    }
}

impl Game for CircleTake {
    type Position = Vec<Coins>;
}

impl Impartial for CircleTake {
    fn options(&self, position: &Vec<Coins>) -> Vec<Vec<Coins>> {
        let mut out = Vec::new();
        for (i, &piece) in position.iter().enumerate() {
            for left in self.piece_options(piece) {
                let mut next = position[..i].to_vec();
                next.extend(left);
                next.extend_from_slice(&position[i + 1..]);
                out.push(next);
            }
        }
        out
    }

    fn try_options(&self, position: &Vec<Coins>) -> Result<Vec<Vec<Coins>>> {
        let count: u128 = position.iter().map(|&p| self.option_count(p)).sum();
        if count > OPTION_LIMIT {
            return Err(Error::Limit(format!(
                "circle:{} {} has more than {OPTION_LIMIT} options to list",
                self.k,
                self.write_position(position)
            )));
        }
        Ok(self.options(position))
    }

    fn components(&self, position: &Vec<Coins>) -> Vec<Vec<Coins>> {
        position.iter().map(|&p| vec![p]).collect()
    }

    fn join(&self, parts: Vec<Vec<Coins>>) -> Option<Vec<Coins>> {
        Some(parts.concat())
    }

    fn known_nim_value(&self, position: &Vec<Coins>) -> Result<Option<NimValue>> {
        let mut x = 0;
        for &piece in position {
            x ^= match piece {
                Coins::Circle(n) => circle_value(n, self.k),
                Coins::Line(n) => self.line_value(n)?,
            };
        }
        Ok(Some(NimValue::Finite(x)))
    }

    fn options_with_nim_value(
        &self,
        position: &Vec<Coins>,
        target: u64,
        _limit: usize,
    ) -> Result<Option<Listing<Vec<Coins>>>> {
        match position[..] {
            // The options of a small circle are the rows 0..n-1, each worth its length.
            [Coins::Circle(n)] if self.k >= 2 && n <= self.k => {
                Ok(Some(Listing::all(if target < n {
                    vec![[Coins::Line(target)]
                        .into_iter()
                        .filter(|c| *c != Coins::Line(0))
                        .collect()]
                } else {
                    Vec::new()
                })))
            }
            _ => Ok(None),
        }
    }
}

fn write_piece(piece: Coins) -> String {
    match piece {
        Coins::Circle(n) => n.to_string(),
        Coins::Line(n) => format!("line:{n}"),
    }
}

impl Notation for CircleTake {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<Vec<Coins>, ParseError> {
        if words.is_empty() {
            return Err("give the number of coins, e.g. 7".into());
        }
        let mut out = Vec::new();
        for word in words {
            let piece = match word.strip_prefix("line:") {
                Some(m) => Coins::Line(parse_u64(m, "row length")?),
                None => Coins::Circle(parse_u64(word, "circle size")?),
            };
            // Empty circles and rows are no part at all (as empty heaps in Nim).
            if !matches!(piece, Coins::Circle(0) | Coins::Line(0)) {
                out.push(piece);
            }
        }
        Ok(out)
    }

    fn write_position(&self, position: &Vec<Coins>) -> String {
        let words: Vec<String> = position.iter().map(|&p| write_piece(p)).collect();
        words.join(" ")
    }

    fn position_json(&self, position: &Vec<Coins>) -> Json {
        Json::Array(
            position
                .iter()
                .map(|&p| match p {
                    Coins::Circle(n) => Json::from(n),
                    Coins::Line(m) => serde_json::json!({ "line": m }),
                })
                .collect(),
        )
    }

    /// `7 -> line:6`, `line:5 -> line:1 line:2`, `3 -> 0`.
    fn write_move(&self, from: &Vec<Coins>, to: &Vec<Coins>) -> String {
        let to = if to.is_empty() {
            "0".to_string()
        } else {
            self.write_position(to)
        };
        format!("{} -> {to}", self.write_position(from))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Outcome, Play};
    use crate::solve::{NimValues, Search};

    /// The rules on whole positions, sorted, without components or closed forms: the oracle.
    struct Plain(CircleTake);

    impl Game for Plain {
        type Position = Vec<Coins>;
    }

    impl Impartial for Plain {
        fn options(&self, position: &Vec<Coins>) -> Vec<Vec<Coins>> {
            self.0
                .options(position)
                .into_iter()
                .map(|mut p| {
                    p.sort_unstable();
                    p
                })
                .collect()
        }
    }

    #[test]
    fn circle_and_row_values_match_brute_force() {
        for k in 1..=4u64 {
            let game = CircleTake::new(k);
            let mut solver = NimValues::new(Plain(game.clone()));
            for n in 0..=24u64 {
                let circle = if n == 0 {
                    vec![]
                } else {
                    vec![Coins::Circle(n)]
                };
                let g = solver.nim_value(&circle).unwrap();
                assert_eq!(circle_value(n, k), g, "circle n={n} k={k}");
                let line = if n == 0 { vec![] } else { vec![Coins::Line(n)] };
                assert_eq!(
                    game.line_value(n).unwrap(),
                    solver.nim_value(&line).unwrap(),
                    "line n={n} k={k}"
                );
            }
        }
        // Kayles (K = 2) values, as published.
        let kayles = [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7,
        ];
        let game = CircleTake::new(2);
        for (n, &g) in kayles.iter().enumerate() {
            assert_eq!(game.line_value(n as u64).unwrap(), g);
        }
    }

    #[test]
    fn the_symmetric_reply_wins_every_row() {
        for k in 2..=4u64 {
            let game = CircleTake::new(k);
            for m in 1..=60u64 {
                let (take, left) = symmetric_reply(m, k).unwrap();
                assert_eq!(2 * left + take, m);
                assert_eq!(
                    game.line_value(left).unwrap() ^ game.line_value(left).unwrap(),
                    0
                );
                let pair: Vec<Coins> = [left, left]
                    .into_iter()
                    .filter(|&l| l > 0)
                    .map(Coins::Line)
                    .collect();
                assert!(
                    game.piece_options(Coins::Line(m)).contains(&pair),
                    "m={m} k={k}"
                );
            }
        }
    }

    #[test]
    fn fast_winning_moves_and_misere_match_direct_search() {
        for k in 1..=3u64 {
            let game = CircleTake::new(k);
            let mut values = NimValues::new(game.clone());
            let mut misere = Search::new(Plain(game.clone()), Play::Misere);
            let mut direct = Search::new(game.clone(), Play::Misere);
            for n in 1..=12u64 {
                let p = vec![Coins::Circle(n)];
                for target in 0..5 {
                    if let Some(fast) = game.options_with_nim_value(&p, target, 100).unwrap() {
                        let slow: Vec<Vec<Coins>> = game
                            .options(&p)
                            .into_iter()
                            .filter(|o| values.nim_value(o).unwrap() == target)
                            .collect();
                        assert_eq!(fast.items, slow, "k={k} n={n} target={target}");
                    }
                }
                assert_eq!(direct.outcome(&p).unwrap(), misere.outcome(&p).unwrap());
            }
        }
    }

    #[test]
    fn huge_circles() {
        let game = CircleTake::new(2);
        let p = vec![Coins::Circle(u64::MAX)];
        assert_eq!(game.known_nim_value(&p).unwrap(), Some(NimValue::Finite(0)));
        let game = CircleTake::new(u64::MAX);
        let p = vec![Coins::Circle(1_000_000_000_000)];
        let wins = game.options_with_nim_value(&p, 0, 10).unwrap().unwrap();
        assert_eq!(game.write_move(&p, &wins.items[0]), "1000000000000 -> 0");
        assert_eq!(
            CircleTake::new(1)
                .known_nim_value(&vec![Coins::Circle(u64::MAX)])
                .unwrap(),
            Some(NimValue::Finite(1))
        );
        // A huge row has no computed value: a clear limit, not a panic.
        assert!(matches!(
            CircleTake::new(2).known_nim_value(&vec![Coins::Line(99_999_999)]),
            Err(Error::Limit(_))
        ));
        let _ = Outcome::N;
    }

    #[test]
    fn malformed_parameters_and_positions() {
        assert!(parse_circle("0").is_err());
        assert!(parse_circle("").is_err());
        let game = CircleTake::new(2);
        assert!(game.parse_position(&[]).is_err());
        assert!(game.parse_position(&["x"]).is_err());
        assert!(game.parse_position(&["line:-1"]).is_err());
        assert_eq!(
            game.parse_position(&["7", "line:3", "0"]),
            Ok(vec![Coins::Circle(7), Coins::Line(3)])
        );
    }
}
