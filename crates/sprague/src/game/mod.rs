//! The core: what a game is, and the values its positions have.
//!
//! A game is a type that describes the rules; positions are plain values (`Clone + Eq + Hash`)
//! that a user can build directly. [`Game`] names the position type, and one trait a kind says
//! how play goes:
//! - [`Impartial`]: both players have the same options (nim values, sums, misère play);
//! - [`TwoPlayer`]: any two-player game with win, loss or tie at the end, cycles allowed;
//! - [`Evaluated`]: a game whose positions a closed form or a stored strong solution values
//!   directly (scored games, boards).
//!
//! [`Notation`] says how positions and moves are written; with it, a typed game is usable from
//! every front end through the generic adapters of [`crate::erased`]. Solvers in
//! [`crate::solve`] are generic over these traits.

pub mod notation;

pub use notation::{Layout, Notation, ParseError};

use crate::error::Result;
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

/// How a finished game ended, for the player to move: the rules' verdict at a terminal position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terminal {
    /// The player to move has won.
    Win,
    /// The player to move has lost.
    Loss,
    /// The game ended in a tie.
    Tie,
}

/// The value of a position under perfect play, for the player to move (or, through
/// [`Value::for_mover`], of a move for the player who makes it). Ordered from worst to best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Value {
    /// The opponent can force a win.
    Lose,
    /// Neither can force a win, and play goes on for ever.
    Draw,
    /// Neither can force a win, and the game can be forced to end in a tie.
    Tie,
    /// The player can force a win.
    Win,
}

impl Value {
    /// The outcome class: win is `N`, lose is `P`, tie and draw are `D`.
    pub const fn outcome(self) -> Outcome {
        match self {
            Value::Win => Outcome::N,
            Value::Lose => Outcome::P,
            Value::Tie | Value::Draw => Outcome::D,
        }
    }

    /// What moving to a position of value `next` (for the player then to move) is worth to the
    /// player who moves there.
    pub const fn for_mover(next: Value) -> Value {
        match next {
            Value::Win => Value::Lose,
            Value::Lose => Value::Win,
            other => other,
        }
    }

    /// The value of a position of outcome class `outcome` where ties and draws are not told
    /// apart (`D` reads as a draw).
    pub const fn from_outcome(outcome: Outcome) -> Value {
        match outcome {
            Outcome::N => Value::Win,
            Outcome::P => Value::Lose,
            Outcome::D => Value::Draw,
        }
    }

    /// For the values of outcome `D`, the kind of draw as JSON names it: `tie` (a finished game
    /// with no winner) or `loop` (infinite play); `None` for a win or a loss.
    pub const fn draw_kind(self) -> Option<&'static str> {
        match self {
            Value::Tie => Some("tie"),
            Value::Draw => Some("loop"),
            Value::Win | Value::Lose => None,
        }
    }

    /// `win`, `lose`, `tie` or `draw`.
    pub const fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Lose => "lose",
            Value::Tie => "tie",
            Value::Draw => "draw",
        }
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

/// Some of a list too long to give whole, with the length of the whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing<T> {
    /// The items given (all of them when `total` equals their number).
    pub items: Vec<T>,
    /// How many there are in all (saturating at `u64::MAX`), when known.
    pub total: Option<u64>,
}

impl<T> Listing<T> {
    /// A complete list.
    pub fn all(items: Vec<T>) -> Self {
        let total = Some(items.len() as u64);
        Listing { items, total }
    }

    /// Whether every item is given.
    pub fn is_complete(&self) -> bool {
        self.total == Some(self.items.len() as u64)
    }

    /// The same listing with every item mapped.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Listing<U> {
        Listing {
            items: self.items.into_iter().map(f).collect(),
            total: self.total,
        }
    }
}

/// A game: the type of its positions. The kind of game is a second trait: [`Impartial`],
/// [`TwoPlayer`] or [`Evaluated`].
pub trait Game {
    /// A position, including whose turn it is where the rules differ for the two players.
    type Position: Clone + Eq + Hash;
}

/// An impartial game: both players have the same options from every position.
///
/// Only [`Impartial::options`] is required. The other methods are hooks that make a family fast
/// or let it split: solvers work from the options alone when a hook says nothing.
///
/// # Examples
///
/// A subtraction game where a move takes 1, 3 or 4 tokens:
///
/// ```
/// use sprague::game::{Game, Impartial};
/// use sprague::solve::NimValues;
///
/// struct Sub134;
/// impl Game for Sub134 {
///     type Position = u64;
/// }
/// impl Impartial for Sub134 {
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
pub trait Impartial: Game {
    /// Every option (position reachable in one move) of `position`.
    fn options(&self, position: &Self::Position) -> Vec<Self::Position>;

    /// [`Impartial::options`] for games whose listing can fail: rules written as scripts, or
    /// positions with too many options to list ([`crate::Error::Limit`]). Solvers call this one;
    /// the default never fails.
    fn try_options(&self, position: &Self::Position) -> Result<Vec<Self::Position>> {
        Ok(self.options(position))
    }

    /// The independent parts of `position`: it is their disjunctive sum, under every play
    /// convention (a row of heaps splits into its heaps; a board into its regions). Parts that
    /// cannot move may be left out. The default is the position itself.
    fn components(&self, position: &Self::Position) -> Vec<Self::Position> {
        vec![position.clone()]
    }

    /// The position made of these parts, the inverse of [`Impartial::components`] (for writing
    /// a sum's parts back as one position); `None` when they cannot be joined. The default joins
    /// exactly one part.
    fn join(&self, parts: Vec<Self::Position>) -> Option<Self::Position> {
        let mut parts = parts.into_iter();
        match (parts.next(), parts.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        }
    }

    /// The form of a component under which solvers memoise its value: components with equal
    /// keys have equal nim values (a board region's least image under the board's symmetries,
    /// a graph relabelled). The key is itself a position of the game. The default is the
    /// component itself.
    fn key(&self, component: &Self::Position) -> Self::Position {
        component.clone()
    }

    /// A compact code of a key (an injective function of [`Impartial::key`]'s results, at
    /// most 128 bits) under which search solvers store its value
    /// ([`crate::solve::nimsearch`]); `None` (the default) keeps the key itself.
    fn code(&self, _key: &Self::Position) -> Option<u128> {
        None
    }

    /// The nim value of a component, when a closed form, a table or a period gives it without
    /// search (loopy games give their ∞(K) values here); `Ok(None)` lets the solver search.
    ///
    /// # Errors
    /// [`crate::Error::Limit`] when the component is past what the game can value; the message
    /// names the component and the bound.
    fn known_nim_value(&self, _component: &Self::Position) -> Result<Option<NimValue>> {
        Ok(None)
    }

    /// The options of a component whose nim value is `target`, found without listing every
    /// option (closed forms, value tables and periods), at most `limit` of them with the count
    /// of all; `Ok(None)` lets the caller filter the listed options.
    fn options_with_nim_value(
        &self,
        _component: &Self::Position,
        _target: u64,
        _limit: usize,
    ) -> Result<Option<Listing<Self::Position>>> {
        Ok(None)
    }

    /// The normal-play outcome of a whole position by a closed form that needs no nim value
    /// (Wythoff's pairs, Moore's Nim_k): lets a lone position of any size be answered.
    fn known_outcome(&self, _position: &Self::Position) -> Option<Outcome> {
        None
    }

    /// The closed form that decides `component`, in words with its numbers filled in (for
    /// `value --explain`), where the game decides it by a formula; `None` otherwise.
    fn explain(&self, _component: &Self::Position) -> Option<String> {
        None
    }

    /// Whether misère sums of this component follow the SJ (Anti-SG) rule of
    /// [`crate::solve::misere`]: `Some(true)` where it is proven for the family (Nim),
    /// `Some(false)` where it is known to fail, `None` to check the conditions by a bounded
    /// search.
    fn misere_sj(&self, _component: &Self::Position) -> Option<bool> {
        None
    }

    /// The size of a component that is one heap of the game's heap rules
    /// ([`crate::heap::HeapValues::heap_rules`]), so that misère sums of such heaps can be valued
    /// by the rules' misère quotient ([`crate::quotient`]); `None` (the default) when the
    /// component is not a single heap.
    fn heap_size(&self, _component: &Self::Position) -> Option<u64> {
        None
    }

    /// A report of the whole game from `start` (`sprague solve GAME`), for games that make
    /// their own (loopy ones); `None` lets the generic search report outcome and remoteness.
    fn solve(
        &self,
        _start: &Self::Position,
        _progress: &dyn crate::progress::Progress,
    ) -> Option<Result<SolveReport>> {
        None
    }
}

/// A general two-player game: partizan allowed, terminal results of win, loss or tie, cycles
/// allowed.
///
/// A position with no options and no [`Terminal`] result is a loss for the player to move (normal
/// play). Positions must encode whose turn it is when the rules differ for the two players.
pub trait TwoPlayer: Game {
    /// The result if the game is over at `position`, for the player to move.
    fn terminal(&self, position: &Self::Position) -> Option<Terminal>;

    /// Every option of `position` (ignored when [`TwoPlayer::terminal`] is `Some`).
    fn options(&self, position: &Self::Position) -> Vec<Self::Position>;
}

/// Views an impartial game as a [`TwoPlayer`] game under normal play.
#[derive(Clone, Debug, Default)]
pub struct NormalPlay<G>(pub G);

impl<G: Impartial> Game for NormalPlay<G> {
    type Position = G::Position;
}

impl<G: Impartial> TwoPlayer for NormalPlay<G> {
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
/// use sprague::game::{Game, Impartial, Sum};
/// use sprague::solve::NimValues;
///
/// struct Nim;
/// impl Game for Nim {
///     type Position = u64;
/// }
/// impl Impartial for Nim {
///     fn options(&self, n: &u64) -> Vec<u64> { (0..*n).collect() }
/// }
/// let mut values = NimValues::new(Sum(Nim));
/// assert_eq!(values.nim_value(&vec![1, 2, 3])?, 0);
/// # Ok::<(), sprague::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Sum<G>(pub G);

impl<G: Impartial> Game for Sum<G> {
    type Position = Vec<G::Position>;
}

impl<G: Impartial> Impartial for Sum<G> {
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

    fn components(&self, position: &Self::Position) -> Vec<Self::Position> {
        position.iter().map(|p| vec![p.clone()]).collect()
    }

    fn join(&self, parts: Vec<Self::Position>) -> Option<Self::Position> {
        Some(parts.into_iter().flatten().collect())
    }
}

/// What a game reports of a position it evaluates directly ([`Evaluated`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Evaluation {
    /// Who wins.
    pub outcome: Outcome,
    /// The value for the player to move, where the game tells ties from draws.
    pub value: Option<Value>,
    /// The nim value, where the position is a finite impartial one.
    pub nim_value: Option<u64>,
    /// Scored games: the first player's margin, or the game's own value (its catalog entry says
    /// which).
    pub score: Option<i64>,
    /// Moves to the end of the game with perfect play (win fastest, lose slowest).
    pub remoteness: Option<u64>,
    /// For a draw of a game solved whole, its draw level ([`crate::solve::draws`]).
    pub draw_level: Option<DrawLevel>,
}

/// A drawn position's level and its remoteness to that level's fringe (GamesmanUni's
/// `drawLevel` and `drawRemoteness`; see [`crate::solve::draws`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct DrawLevel {
    /// The level (0 first).
    pub level: u32,
    /// Moves to the fringe of the level with the best play of both (0 at the fringe).
    pub remoteness: u32,
}

impl DrawLevel {
    /// Whether the player to move is the one pressed toward the fringe (an even remoteness:
    /// GamesmanUni's "draw lose").
    pub fn pressed(self) -> bool {
        self.remoteness.is_multiple_of(2)
    }
}

impl Evaluation {
    /// A position of this outcome, nothing else known.
    pub const fn outcome(outcome: Outcome) -> Evaluation {
        Evaluation {
            outcome,
            value: None,
            nim_value: None,
            score: None,
            remoteness: None,
            draw_level: None,
        }
    }

    /// A position of this value and remoteness.
    pub const fn of(value: Value, remoteness: Option<u64>) -> Evaluation {
        Evaluation {
            value: Some(value),
            remoteness,
            ..Evaluation::outcome(value.outcome())
        }
    }

    /// The value for the player to move: the game's own, or read from the outcome.
    pub fn value(&self) -> Value {
        self.value.unwrap_or(Value::from_outcome(self.outcome))
    }
}

/// The result of strongly solving a game from a start position (`sprague solve GAME`).
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    /// The game's spec.
    pub game: String,
    /// The start position.
    pub position: serde_json::Value,
    /// Who wins from the start.
    pub outcome: Outcome,
    /// With outcome `D`: `tie` or `loop` ([`Value::draw_kind`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_kind: Option<&'static str>,
    /// Remoteness of the start (absent for draws).
    pub remoteness: Option<u64>,
    /// Positions reachable from the start, the start included.
    pub positions: u64,
    /// Further counts the game reports (for example wins, losses, draws).
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub details: serde_json::Map<String, serde_json::Value>,
}

/// A game whose positions a closed form or a stored strong solution evaluates directly, not
/// through nim values: scored games (take-from-ends), boards solved by retrograde analysis,
/// loopy two-player games. Normal play only.
pub trait Evaluated: Game {
    /// Every legal move (none once the game is over).
    ///
    /// # Errors
    /// [`crate::Error::Limit`] when there are too many to list.
    fn moves(&self, position: &Self::Position) -> Result<Vec<Self::Position>>;

    /// Who wins, and the values the game defines.
    ///
    /// # Errors
    /// [`crate::Error::Limit`] when the game is too large to solve.
    fn evaluate(&self, position: &Self::Position) -> Result<Evaluation>;

    /// The moves a perfect player may choose, when the game finds them faster than by
    /// evaluating every move; `Ok(None)` evaluates each move.
    fn winning_moves(&self, _position: &Self::Position) -> Result<Option<Vec<Self::Position>>> {
        Ok(None)
    }

    /// The strong solution of the game from `start` (`sprague solve GAME`), for games that are
    /// solved as a whole; `None` for the others.
    fn solve(
        &self,
        _start: &Self::Position,
        _progress: &dyn crate::progress::Progress,
    ) -> Option<Result<SolveReport>> {
        None
    }
}
