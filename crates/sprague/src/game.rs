//! The core traits: impartial games, general two-player games, and sums.
//!
//! A game is a type that describes the rules; positions are plain values (`Clone + Eq + Hash`)
//! that a user can build directly. Solvers in [`crate::solve`] are generic over these traits.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::hash::Hash;

/// The outcome class of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// The player to move (the Next player) wins.
    N,
    /// The Previous player wins: the player to move loses.
    P,
    /// Neither player can force a win: infinite play, or a tie.
    D,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::N => "N",
            Outcome::P => "P",
            Outcome::D => "D",
        })
    }
}

/// The play convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Play {
    /// The player unable to move loses.
    #[default]
    Normal,
    /// The player unable to move wins.
    Misere,
}

/// The result of a finished game, for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terminal {
    /// The player to move has won.
    Win,
    /// The player to move has lost.
    Loss,
    /// The game ended in a tie.
    Tie,
}

/// An impartial game: both players have the same options from every position.
///
/// # Examples
///
/// A subtraction game where a move takes 1, 3 or 4 tokens:
///
/// ```
/// use sprague::game::Impartial;
/// use sprague::solve::NimValues;
///
/// struct Sub134;
/// impl Impartial for Sub134 {
///     type Position = u64;
///     fn options(&self, n: &u64) -> Vec<u64> {
///         [1, 3, 4].iter().filter(|&&t| t <= *n).map(|t| n - t).collect()
///     }
/// }
///
/// let mut values = NimValues::new(Sub134);
/// assert_eq!(values.nim_value(&2)?, 0); // a P-position
/// assert_eq!(values.nim_value(&6)?, 2);
/// # Ok::<(), sprague::Error>(())
/// ```
pub trait Impartial {
    /// A position of the game.
    type Position: Clone + Eq + Hash;

    /// Every option (position reachable in one move) of `position`.
    fn options(&self, position: &Self::Position) -> Vec<Self::Position>;
}

/// A general two-player game: partizan allowed, terminal results of win, loss or tie, cycles allowed.
///
/// A position with no options and no [`Terminal`] result is a loss for the player to move (normal
/// play). Positions must encode whose turn it is when the rules differ for the two players.
pub trait TwoPlayer {
    /// A position, including whose turn it is where that matters.
    type Position: Clone + Eq + Hash;

    /// The result if the game is over at `position`, for the player to move.
    fn terminal(&self, position: &Self::Position) -> Option<Terminal>;

    /// Every option of `position` (ignored when [`TwoPlayer::terminal`] is `Some`).
    fn options(&self, position: &Self::Position) -> Vec<Self::Position>;
}

/// Views an impartial game as a [`TwoPlayer`] game under normal play.
#[derive(Clone, Debug, Default)]
pub struct NormalPlay<G>(pub G);

impl<G: Impartial> TwoPlayer for NormalPlay<G> {
    type Position = G::Position;

    fn terminal(&self, _position: &Self::Position) -> Option<Terminal> {
        None
    }

    fn options(&self, position: &Self::Position) -> Vec<Self::Position> {
        self.0.options(position)
    }
}

/// The disjunctive sum of positions of one impartial game: a move is made in exactly one part.
///
/// A sum's nim value is the XOR of its parts' values; see [`crate::solve::sum`] for winning moves
/// computed from the parts.
///
/// ```
/// use sprague::game::{Impartial, Sum};
/// use sprague::solve::NimValues;
///
/// struct Nim;
/// impl Impartial for Nim {
///     type Position = u64;
///     fn options(&self, n: &u64) -> Vec<u64> { (0..*n).collect() }
/// }
/// let mut values = NimValues::new(Sum(Nim));
/// assert_eq!(values.nim_value(&vec![1, 2, 3])?, 0);
/// # Ok::<(), sprague::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Sum<G>(pub G);

impl<G: Impartial> Impartial for Sum<G> {
    type Position = Vec<G::Position>;

    fn options(&self, position: &Self::Position) -> Vec<Self::Position> {
        let mut out = Vec::new();
        for (i, part) in position.iter().enumerate() {
            for option in self.0.options(part) {
                let mut next = position.clone();
                next[i] = option;
                out.push(next);
            }
        }
        out
    }
}

/// The value of an impartial position under normal play, loopy games included.
///
/// Acyclic games only have [`NimValue::Finite`] values. In a loopy game a position may instead
/// be ∞(K): the generalized Sprague–Grundy value (Smith; Fraenkel), where K is the set of finite
/// values among its options.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NimValue {
    /// A finite nimber.
    Finite(u64),
    /// ∞(K), with K the sorted finite values of the options (the "escapes").
    Infinite(Vec<u64>),
}

impl NimValue {
    /// The finite value, if any.
    pub const fn finite(&self) -> Option<u64> {
        match self {
            NimValue::Finite(g) => Some(*g),
            NimValue::Infinite(_) => None,
        }
    }
}

impl fmt::Display for NimValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NimValue::Finite(g) => write!(f, "{g}"),
            NimValue::Infinite(k) => {
                let k: Vec<String> = k.iter().map(u64::to_string).collect();
                write!(f, "∞({})", k.join(","))
            }
        }
    }
}
