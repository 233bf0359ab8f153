//! The trait of partizan rulesets.

use super::arena::Side;
use crate::game::Game;

/// A region's representative up to the board's symmetries, and whether the region's value is
/// the negative of the representative's (a symmetry that swaps the players, such as
/// transposing a Domineering board).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Keyed<P> {
    /// The representative region.
    pub key: P,
    /// Whether the region is the representative with Left and Right swapped.
    pub negated: bool,
}

/// A partizan game: Left and Right have their own options (from positions of its [`Game`]). Values are computed by
/// [`super::Solver`], which splits positions into [`Partizan::components`] and solves each
/// distinct [`Partizan::key`] once.
pub trait Partizan: Game {
    /// The positions `side` can move to.
    fn options(&self, position: &Self::Position, side: Side) -> Vec<Self::Position>;

    /// The positions Left can move to.
    fn left_options(&self, position: &Self::Position) -> Vec<Self::Position> {
        self.options(position, Side::Left)
    }

    /// The positions Right can move to.
    fn right_options(&self, position: &Self::Position) -> Vec<Self::Position> {
        self.options(position, Side::Right)
    }

    /// The options of `side` with the text of each move, for front ends. The default numbers
    /// the options; rulesets give real move text.
    fn moves(&self, position: &Self::Position, side: Side) -> Vec<(String, Self::Position)> {
        self.options(position, side)
            .into_iter()
            .enumerate()
            .map(|(i, p)| (format!("option {}", i + 1), p))
            .collect()
    }

    /// The independent regions of `position`: its value is the sum of theirs. The default is
    /// the position itself; an empty list means 0.
    fn components(&self, position: &Self::Position) -> Vec<Self::Position> {
        vec![position.clone()]
    }

    /// The representative of a region (the result of [`Partizan::components`]) up to
    /// symmetry; regions with equal keys have equal (or, with `negated`, opposite) values.
    fn key(&self, region: &Self::Position) -> Keyed<Self::Position> {
        Keyed {
            key: region.clone(),
            negated: false,
        }
    }
}

/// The positions of a list of moves, for rulesets whose options come from their moves.
pub fn positions<P>(moves: Vec<(String, P)>) -> Vec<P> {
    moves.into_iter().map(|(_, p)| p).collect()
}

/// The text of the move from `from` to `to`, for [`crate::game::Notation::write_move`]: the
/// first of Left's, then Right's, [`Partizan::moves`] that leads there.
pub fn move_text<G: Partizan>(game: &G, from: &G::Position, to: &G::Position) -> String {
    [Side::Left, Side::Right]
        .into_iter()
        .flat_map(|side| game.moves(from, side))
        .find(|(_, p)| p == to)
        .map_or_else(|| "(not a move)".to_string(), |(text, _)| text)
}
