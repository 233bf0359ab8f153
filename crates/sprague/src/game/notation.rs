//! How positions and moves are written: the [`Notation`] trait, and the number parsers families
//! share.

use super::Game;
use serde::Serialize;
use serde_json::Value as Json;

/// How a front end draws a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[non_exhaustive]
pub enum Layout {
    /// Heaps of tokens: the position's JSON is an array of heap sizes.
    Heaps,
    /// A row of coins: the position's JSON is the array of the heads, numbered from 1.
    Coins,
    /// A grid: the position's JSON is the board string, rows from the top, one character a cell.
    /// Cells are named by a column letter and a row counted from the bottom (`b2`), or, with
    /// gravity, moves by the column number.
    Board {
        /// Cells in a row.
        columns: u32,
        /// Rows.
        rows: u32,
        /// Whether a piece drops to the lowest free cell of its column.
        gravity: bool,
    },
    /// Text only.
    Text,
}

/// Why a position's words do not parse: a reason in words (most games), or an error of the
/// library's own (a script's parse function failed at a line of its file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// What is wrong with the words, in one line.
    Invalid(String),
    /// An error to report as it is.
    Failed(crate::Error),
}

impl From<String> for ParseError {
    fn from(reason: String) -> Self {
        ParseError::Invalid(reason)
    }
}

impl From<&str> for ParseError {
    fn from(reason: &str) -> Self {
        ParseError::Invalid(reason.to_string())
    }
}

impl From<crate::Error> for ParseError {
    fn from(error: crate::Error) -> Self {
        ParseError::Failed(error)
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseError::Invalid(reason) => f.write_str(reason),
            ParseError::Failed(error) => write!(f, "{error}"),
        }
    }
}

impl ParseError {
    /// The library error for a position of the game `spec`.
    pub fn into_error(self, spec: &str) -> crate::Error {
        match self {
            ParseError::Invalid(reason) => crate::Error::position(spec, reason),
            ParseError::Failed(error) => error,
        }
    }
}

/// The notation of a game: how its positions are read and written, and how a move reads.
///
/// Together with one of [`super::Impartial`] or [`super::Evaluated`], this is all a family
/// writes: the adapters of [`crate::erased`] make it usable from the command line, the server
/// and the catalog.
///
/// ```
/// use sprague::game::{Game, Notation};
/// use sprague::game::notation::ParseError;
///
/// struct Wythoff;
/// impl Game for Wythoff {
///     type Position = (u64, u64);
/// }
/// impl Notation for Wythoff {
///     fn parse_position(&self, words: &[&str]) -> Result<(u64, u64), ParseError> {
///         match sprague::game::notation::parse_numbers(words, "heap")?[..] {
///             [a, b] => Ok((a, b)),
///             _ => Err("a position is two heap sizes".into()),
///         }
///     }
///     fn write_position(&self, &(a, b): &(u64, u64)) -> String {
///         format!("{a} {b}")
///     }
///     fn write_move(&self, from: &(u64, u64), to: &(u64, u64)) -> String {
///         format!("{} -> {}", self.write_position(from), self.write_position(to))
///     }
/// }
/// assert_eq!(Wythoff.parse_position(&["3", "5"]), Ok((3, 5)));
/// assert!(Wythoff.parse_position(&["3"]).is_err());
/// ```
pub trait Notation: Game {
    /// Parses a position from its words (what follows the game on a command line). No words
    /// means the game's start position, for games that have one.
    ///
    /// # Errors
    /// What is wrong with the words, in one line.
    fn parse_position(&self, words: &[&str]) -> Result<Self::Position, ParseError>;

    /// Writes a position as the words [`Notation::parse_position`] reads, joined by spaces.
    fn write_position(&self, position: &Self::Position) -> String;

    /// The position as JSON. The default is the written position as a string.
    fn position_json(&self, position: &Self::Position) -> Json {
        Json::String(self.write_position(position))
    }

    /// Writes the move from `from` to `to`, one of its options, as a player reads it.
    fn write_move(&self, from: &Self::Position, to: &Self::Position) -> String;

    /// The move from `from` to `to` in words that read like the game (`7 → 3` for a heap,
    /// pins knocked down in Kayles, a queen's move in Wythoff, a row of coins turned), for
    /// people; [`Notation::write_move`] stays the notation a player types. The default is that
    /// notation.
    fn describe_move(&self, from: &Self::Position, to: &Self::Position) -> String {
        self.write_move(from, to)
    }

    /// What one summand of the game is called when a sum numbers its summands (`heap 2: 7 →
    /// 3`): `heap`, `row`, `board`; the default is `part`.
    fn part_noun(&self) -> &'static str {
        "part"
    }

    /// How front ends draw the game's positions.
    fn layout(&self) -> Layout {
        Layout::Text
    }

    /// The position drawn for a terminal (`sprague play`). The default is the written position.
    fn render(&self, position: &Self::Position) -> String {
        self.write_position(position)
    }
}

/// Parses a non-negative integer, naming `what` in the error.
///
/// ```
/// use sprague::game::notation::parse_u64;
/// assert_eq!(parse_u64("12", "heap size"), Ok(12));
/// assert!(parse_u64("-3", "heap size").unwrap_err().contains("non-negative"));
/// ```
pub fn parse_u64(text: &str, what: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(format!("{what} must be non-negative, got '{t}'"));
    }
    if t.starts_with('+') {
        return Err(format!("{what} must be a whole number, got '{t}'"));
    }
    t.parse::<u64>().map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => format!("{what} '{t}' is larger than 2^64-1"),
        std::num::IntErrorKind::Empty => format!("{what} is missing"),
        _ => format!("{what} must be a whole number, got '{t}'"),
    })
}

/// Parses one non-negative integer per word.
///
/// # Errors
/// The first word that is not one, named `what`.
pub fn parse_numbers(words: &[&str], what: &str) -> Result<Vec<u64>, String> {
    words.iter().map(|w| parse_u64(w, what)).collect()
}

/// Parses a comma-separated list of numbers and ranges, e.g. `1-3,7`, sorted and deduplicated.
///
/// ```
/// use sprague::game::notation::parse_set;
/// assert_eq!(parse_set("1-3,7,2", "move").unwrap(), vec![1, 2, 3, 7]);
/// assert!(parse_set("3-1", "move").is_err());
/// ```
pub fn parse_set(text: &str, what: &str) -> Result<Vec<u64>, String> {
    const MAX_RANGE: u64 = 10_000_000;
    let mut out = Vec::new();
    if text.trim().is_empty() {
        return Err(format!("the {what} set is empty"));
    }
    for item in text.split(',') {
        match item.split_once('-') {
            Some((lo, hi)) if !lo.trim().is_empty() => {
                let lo = parse_u64(lo, what)?;
                let hi = parse_u64(hi, what)?;
                if lo > hi {
                    return Err(format!("range '{item}' is empty"));
                }
                if hi - lo >= MAX_RANGE {
                    return Err(format!("range '{item}' has more than {MAX_RANGE} values"));
                }
                out.extend(lo..=hi);
            }
            _ => out.push(parse_u64(item, what)?),
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Writes numbers separated by spaces.
pub fn write_numbers(numbers: &[u64]) -> String {
    let words: Vec<String> = numbers.iter().map(u64::to_string).collect();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_report_what_is_wrong() {
        assert_eq!(parse_u64("12", "heap size"), Ok(12));
        assert!(parse_u64("-3", "heap")
            .unwrap_err()
            .contains("non-negative"));
        assert!(parse_u64("+5", "heap")
            .unwrap_err()
            .contains("whole number"));
        assert!(parse_u64("99999999999999999999", "heap")
            .unwrap_err()
            .contains("2^64"));
        assert!(parse_u64("x", "heap").unwrap_err().contains("whole number"));
        assert!(parse_u64("", "heap").unwrap_err().contains("missing"));
    }

    #[test]
    fn sets_accept_ranges() {
        assert_eq!(parse_set("4,1,3", "move"), Ok(vec![1, 3, 4]));
        assert_eq!(parse_set("1-3,7", "move"), Ok(vec![1, 2, 3, 7]));
        assert!(parse_set("", "move").is_err());
        assert!(parse_set("1,,2", "move").is_err());
        assert!(parse_set("0-99999999999", "move").is_err());
    }

    #[test]
    fn layouts_serialise_with_their_kind() {
        let board = Layout::Board {
            columns: 3,
            rows: 3,
            gravity: false,
        };
        assert_eq!(
            serde_json::to_value(board).unwrap(),
            serde_json::json!({"kind": "board", "columns": 3, "rows": 3, "gravity": false})
        );
        assert_eq!(
            serde_json::to_value(Layout::Heaps).unwrap(),
            serde_json::json!({"kind": "heaps"})
        );
    }
}
