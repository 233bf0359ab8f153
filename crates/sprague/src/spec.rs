//! The game-spec language of the command line: `NAME` or `NAME:PARAMS`, a position after it, and
//! sums of several games joined by a lone `+`.
//!
//! Each game family registers itself in [`families`]; the parser never needs to change when a
//! family is added.

use crate::analysis::{GameDef, Parsed, Position, Segment};
use crate::error::{Error, Result};
use serde::Serialize;
use std::sync::Arc;

/// A catalog entry: how to write one game and its positions.
#[derive(Clone, Debug, Serialize)]
pub struct CatalogEntry {
    /// The spec's name or pattern, e.g. `sub:S`.
    pub spec: &'static str,
    /// What the parameters mean (empty if none).
    pub params: &'static str,
    /// The position syntax.
    pub position: &'static str,
    /// A one-line summary, including any rule choices we made.
    pub summary: &'static str,
    /// An example command-line position.
    pub example: &'static str,
}

/// A game family: a set of specs it recognises, and how to build a game from one.
pub trait Family: Send + Sync {
    /// The family's catalog entries.
    fn catalog(&self) -> Vec<CatalogEntry>;

    /// Builds the game for `name` with optional `params` (the text after `:`), or returns `None`
    /// if the name is not this family's. `spec` is the whole spec, for error messages.
    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>>;
}

/// The `build` of a family whose one spec `wanted` takes no parameters: `None` for other names,
/// an error if parameters are given, else the game `make` builds.
pub fn build_without_params(
    spec: &str,
    name: &str,
    params: Option<&str>,
    wanted: &str,
    make: impl FnOnce() -> Arc<dyn GameDef>,
) -> Option<Result<Arc<dyn GameDef>>> {
    if name != wanted {
        return None;
    }
    Some(match params {
        Some(_) => Err(Error::spec(spec, format!("{wanted} takes no parameters"))),
        None => Ok(make()),
    })
}

/// Every registered family.
pub fn families() -> Vec<Box<dyn Family>> {
    crate::games::families()
}

/// The whole catalog.
pub fn catalog() -> Vec<CatalogEntry> {
    families().iter().flat_map(|f| f.catalog()).collect()
}

/// Parses a game spec such as `kayles`, `sub:1,3,4` or `0.137`.
///
/// # Errors
/// [`Error::Spec`] naming the problem, for an unknown name or bad parameters.
///
/// ```
/// let game = sprague::spec::parse_game("sub:1,3,4")?;
/// assert_eq!(game.spec(), "sub:1,3,4");
/// assert!(sprague::spec::parse_game("sub:1,x").is_err());
/// # Ok::<(), sprague::Error>(())
/// ```
pub fn parse_game(spec: &str) -> Result<Arc<dyn GameDef>> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(Error::spec(spec, "empty game name"));
    }
    let (name, params) = match spec.split_once(':') {
        Some((n, p)) => (n, Some(p)),
        None => (spec, None),
    };
    for family in families() {
        if let Some(game) = family.build(spec, &name.to_ascii_lowercase(), params) {
            return game;
        }
    }
    Err(Error::spec(
        spec,
        "unknown game; run 'sprague catalog' for the list",
    ))
}

/// Parses command-line words `GAME POSITION... [+ GAME POSITION...]` into a position.
///
/// ```
/// use sprague::analysis::Position;
/// let p = sprague::spec::parse_position(&["nim", "3", "+", "nim", "4"])?;
/// assert!(matches!(p, Position::Sum(ref s) if s.len() == 2));
/// assert!(sprague::spec::parse_position(&["nim", "3", "+"]).is_err());
/// # Ok::<(), sprague::Error>(())
/// ```
pub fn parse_position<S: AsRef<str>>(words: &[S]) -> Result<Position> {
    let words: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
    let groups: Vec<&[&str]> = words.split(|w| *w == "+").collect();
    let mut segments = Vec::new();
    let mut single = None;
    for group in &groups {
        let Some((spec, args)) = group.split_first() else {
            return Err(Error::spec(
                words.join(" "),
                "a '+' must have a game on both sides",
            ));
        };
        let game = parse_game(spec)?;
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        match game.parse_position(&args)? {
            Parsed::Parts(parts) => segments.push(Segment { game, parts }),
            Parsed::Single(s) if groups.len() == 1 => single = Some(s),
            Parsed::Single(_) => {
                return Err(Error::Unsupported(format!(
                    "{} positions cannot be summed with other games",
                    game.spec()
                )))
            }
        }
    }
    Ok(match single {
        Some(s) => Position::Single(s),
        None => Position::Sum(segments),
    })
}

/// Parses a non-negative integer, naming `what` in the error.
pub fn parse_u64(text: &str, what: &str) -> std::result::Result<u64, String> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(format!("{what} must be non-negative, got '{t}'"));
    }
    t.parse::<u64>().map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => format!("{what} '{t}' is larger than 2^64-1"),
        std::num::IntErrorKind::Empty => format!("{what} is missing"),
        _ => format!("{what} must be a whole number, got '{t}'"),
    })
}

/// Parses a comma-separated list of numbers and ranges, e.g. `1-3,7`, sorted and deduplicated.
///
/// ```
/// assert_eq!(sprague::spec::parse_set("1-3,7,2", "move").unwrap(), vec![1, 2, 3, 7]);
/// assert!(sprague::spec::parse_set("3-1", "move").is_err());
/// ```
pub fn parse_set(text: &str, what: &str) -> std::result::Result<Vec<u64>, String> {
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

/// Parses heap sizes (one word each), for heap games.
pub fn parse_heaps(game: &str, args: &[String]) -> Result<Vec<u64>> {
    args.iter()
        .map(|a| parse_u64(a, "heap size").map_err(|r| Error::position(game, r)))
        .collect()
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
    fn unknown_games_and_stray_plus_signs_are_errors() {
        assert!(matches!(parse_game("nosuchgame"), Err(Error::Spec { .. })));
        assert!(parse_position(&["+", "nim", "3"]).is_err());
        assert!(parse_position::<&str>(&[]).is_err());
    }
}
