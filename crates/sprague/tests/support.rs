//! What the integration tests share: the catalog's parsers with default settings.

use sprague::catalog::{Catalog, GameRef};
use sprague::erased::Position;

/// Parses command-line words into a position, as the command line does.
pub fn parse_position<S: AsRef<str>>(words: &[S]) -> sprague::Result<Position> {
    Catalog::default().parse_position(words)
}

/// Builds the game of a spec, as the command line does.
pub fn parse_game(spec: &str) -> sprague::Result<GameRef> {
    Catalog::default().game(spec)
}
