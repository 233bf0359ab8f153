//! Type-erased games, for front ends that choose games at run time from a spec.
//!
//! Families never write erased code: a typed game ([`crate::game::Impartial`] or
//! [`crate::game::Evaluated`], with its [`crate::game::Notation`]) becomes a [`DynGame`] through
//! one of two generic adapters:
//! - [`ImpartialGame`]: positions split into [`Part`]s, the summands of impartial sums (heaps,
//!   coin rows, Wythoff pairs), which sum with the parts of every other impartial game;
//! - [`EvaluatedGame`]: a [`Single`] position that is not summed (boards, scored games);
//! - [`PartizanGame`]: a [`Component`] of a partizan sum (Domineering, Hackenbush, `cg`
//!   values), valued by its canonical form; impartial positions join such sums as nimbers.
//!
//! A [`Position`] is what a command line names: a sum of [`Segment`]s (one game's parts each),
//! a partizan sum of [`Component`]s, or one [`Single`] position. [`crate::analysis`] answers questions about it.

mod evaluated;
mod impartial;
mod partizan;
mod sum;

pub use evaluated::EvaluatedGame;
pub use impartial::ImpartialGame;
pub use partizan::{PartizanGame, Ruleset};
pub use sum::SumGame;

use crate::error::{Error, Result};
use crate::game::{Evaluation, Layout, Listing, NimValue, Outcome, SolveReport};
use crate::heap::HeapValues;
use crate::partizan::{Canonical, Side};
use crate::progress::Progress;
use crate::quotient::QuotientCache;
use serde_json::Value as Json;
use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A game chosen at run time: the rules of one spec, such as `kayles` or `mnk:3,3,3`.
pub trait DynGame: Send + Sync {
    /// The spec in canonical form, e.g. `sub:1,3,4`.
    fn spec(&self) -> &str;

    /// How front ends draw the game's positions.
    fn layout(&self) -> Layout;

    /// Parses a position from its words (what follows the game on a command line).
    ///
    /// # Errors
    /// [`Error::Position`] naming what is wrong.
    fn parse(&self, words: &[&str]) -> Result<Parsed>;

    /// Single-heap values, for heap games (`table`, `period`).
    fn heap(&self) -> Option<Arc<dyn HeapValues>> {
        None
    }

    /// The strong solution from a start position (`solve GAME`), for games solved as a whole.
    fn solve(&self, _words: &[&str], _progress: &dyn Progress) -> Option<Result<SolveReport>> {
        None
    }
}

/// A parsed position of one game.
pub enum Parsed {
    /// The summands of an impartial position.
    Parts(Segment),
    /// A position that is not summed.
    Single(Single),
    /// A summand of a partizan sum.
    Component(Component),
}

/// A move of one part: its text, and the parts it leaves in place of the part (several after a
/// split, none when the part is gone).
#[derive(Clone)]
pub struct PartMove {
    /// The move as a player types it, e.g. `7 -> 2+3`.
    pub text: String,
    /// The move in words that read like the game, e.g. `7 → 2 + 3`, or Kayles' `knock down pin
    /// 3 (7 → 2 + 4)` ([`crate::game::Notation::describe_move`]).
    pub description: String,
    /// What replaces the part.
    pub parts: Vec<Part>,
}

/// The typed side of a [`Part`], implemented once, generically, by the impartial adapter.
pub(crate) trait PartDyn: Send + Sync + Any {
    /// The identity of the game instance the part belongs to.
    fn game_id(&self) -> usize;
    fn spec(&self) -> &str;
    fn hash_code(&self) -> u64;
    fn eq_dyn(&self, other: &dyn PartDyn) -> bool;
    fn as_any(&self) -> &dyn Any;
    fn write(&self) -> String;
    fn json(&self) -> Json;
    fn noun(&self) -> &'static str;
    fn nim_value(&self) -> Result<NimValue>;
    fn options(&self) -> Result<Vec<PartMove>>;
    fn options_with_value(&self, target: u64, limit: usize) -> Result<Listing<PartMove>>;
    fn known_outcome(&self) -> Option<Outcome>;
    fn misere_sj(&self) -> bool;
    fn misere_zeros_terminal(&self) -> bool;
    fn explain(&self) -> Option<String>;
    fn misere_heap(&self) -> Option<(u64, &Arc<QuotientCache>)>;
    /// When searches of this part's game stop.
    fn budget(&self) -> &crate::budget::Budget;
}

/// One summand of an impartial sum: a component of a position of one impartial game (a heap, a
/// row of coins, a Wythoff pair). Parts compare and hash by their typed positions, so searches
/// over sums memoise without writing positions out.
#[derive(Clone)]
pub struct Part(pub(crate) Arc<dyn PartDyn>);

impl Part {
    /// The spec of the part's game.
    pub fn game(&self) -> &str {
        self.0.spec()
    }

    /// The part written alone, in its game's notation.
    pub fn write(&self) -> String {
        self.0.write()
    }

    /// The part alone as JSON.
    pub fn to_json(&self) -> Json {
        self.0.json()
    }

    /// What its game calls one summand: `heap`, `row`, `board` or `part`
    /// ([`crate::game::Notation::part_noun`]).
    pub fn noun(&self) -> &'static str {
        self.0.noun()
    }

    /// Its nim value (possibly loopy).
    ///
    /// # Errors
    /// [`Error::Limit`] past what its game can value (the message names the part).
    pub fn nim_value(&self) -> Result<NimValue> {
        self.0.nim_value()
    }

    /// Every move of the part.
    ///
    /// # Errors
    /// [`Error::Limit`] when it has too many to list.
    pub fn options(&self) -> Result<Vec<PartMove>> {
        self.0.options()
    }

    /// The moves to parts of nim value `target`: at most `limit`, with the count of all.
    ///
    /// # Errors
    /// [`Error::Limit`] when neither a closed form nor listing can find them.
    pub fn options_with_value(&self, target: u64, limit: usize) -> Result<Listing<PartMove>> {
        self.0.options_with_value(target, limit)
    }

    /// The normal-play outcome of the part alone by a closed form, where its game has one.
    pub fn known_outcome(&self) -> Option<Outcome> {
        self.0.known_outcome()
    }

    /// The closed form that decides the part, with its numbers, where its game has one.
    pub fn explain(&self) -> Option<String> {
        self.0.explain()
    }

    /// Whether misère sums may treat the part by the SJ rule (proven, or checked by search).
    pub fn misere_sj(&self) -> bool {
        self.0.misere_sj()
    }

    /// Whether every position of nim value 0 reachable from the part (its pieces together) has
    /// no move, checked by a bounded search: then misère play ends where the general SJ theorem's
    /// ending rule does, and the theorem decides misère sums of such parts
    /// ([`crate::solve::misere::zeros_are_terminal`]).
    pub fn misere_zeros_terminal(&self) -> bool {
        self.0.misere_zeros_terminal()
    }

    /// The part as one heap of a heap game: its size, and the game's misère quotient (computed
    /// when a sum first needs it), so that misère sums of heaps are valued without search;
    /// `None` for parts that are not heaps.
    pub fn misere_heap(&self) -> Option<(u64, &Arc<QuotientCache>)> {
        self.0.misere_heap()
    }

    /// When searches of the part's game stop (the budget of the catalog that built it).
    pub fn budget(&self) -> &crate::budget::Budget {
        self.0.budget()
    }

    /// The budget of a sum of `parts`: its first part's (all parts of one parse share the
    /// catalog's), else unlimited.
    pub fn budget_of(parts: &[Part]) -> crate::budget::Budget {
        parts
            .first()
            .map(|p| p.budget().clone())
            .unwrap_or_default()
    }

    /// A key that orders parts into a canonical multiset: game, then hash.
    pub(crate) fn order_key(&self) -> (usize, u64) {
        (self.0.game_id(), self.0.hash_code())
    }
}

impl PartialEq for Part {
    fn eq(&self, other: &Part) -> bool {
        self.0.eq_dyn(other.0.as_ref())
    }
}

impl Eq for Part {}

impl Hash for Part {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.order_key().hash(state);
    }
}

impl fmt::Debug for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.0.spec(), self.0.write())
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.write())
    }
}

/// The game of a [`Segment`]: writes a list of its parts back as one position.
pub trait Summands: Send + Sync {
    /// The spec.
    fn spec(&self) -> &str;
    /// How front ends draw the game's positions.
    fn layout(&self) -> Layout;
    /// The parts written as one position of the game (the words after the spec).
    fn write(&self, parts: &[Part]) -> String;
    /// The parts as one position's JSON.
    fn json(&self, parts: &[Part]) -> Json;
}

/// One game's share of a sum: the game and its parts.
#[derive(Clone)]
pub struct Segment {
    /// The game.
    pub game: Arc<dyn Summands>,
    /// Its summands, in order.
    pub parts: Vec<Part>,
}

/// The typed side of a [`Single`], implemented once, generically, by the evaluated adapter.
pub(crate) trait SingleDyn: Send + Sync {
    fn spec(&self) -> &str;
    fn layout(&self) -> Layout;
    fn write(&self) -> String;
    fn json(&self) -> Json;
    fn render(&self) -> String;
    fn evaluate(&self) -> Result<Evaluation>;
    fn moves(&self) -> Result<Vec<(String, Single)>>;
    fn winning_moves(&self) -> Result<Option<Vec<(String, Single)>>>;
}

/// A position of a game that is not summed: boards, scored games, loopy two-player games.
#[derive(Clone)]
pub struct Single(pub(crate) Arc<dyn SingleDyn>);

impl Single {
    /// The spec of its game.
    pub fn game(&self) -> &str {
        self.0.spec()
    }

    /// The position as JSON.
    pub fn to_json(&self) -> Json {
        self.0.json()
    }

    /// Who wins, and the values the game defines.
    ///
    /// # Errors
    /// [`Error::Limit`] when the game is too large to solve.
    pub fn evaluate(&self) -> Result<Evaluation> {
        self.0.evaluate()
    }

    /// Every legal move with the position it leads to.
    ///
    /// # Errors
    /// [`Error::Limit`] when there are too many to list.
    pub fn moves(&self) -> Result<Vec<(String, Single)>> {
        self.0.moves()
    }

    /// The moves a perfect player may choose, when the game finds them directly.
    ///
    /// # Errors
    /// As for [`Single::evaluate`].
    pub fn winning_moves(&self) -> Result<Option<Vec<(String, Single)>>> {
        self.0.winning_moves()
    }
}

impl fmt::Display for Single {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.write())
    }
}

/// The typed side of a [`Component`], implemented once, generically, by the partizan adapter.
pub(crate) trait ComponentDyn: Send + Sync {
    fn spec(&self) -> &str;
    fn layout(&self) -> Layout;
    fn write(&self) -> String;
    fn json(&self) -> Json;
    fn render(&self) -> String;
    fn value(&self) -> Result<Canonical>;
    fn moves(&self, side: Side) -> Result<Vec<(String, Component)>>;
    /// When computations on its value stop (the budget of the catalog that built it).
    fn budget(&self) -> crate::budget::Budget {
        crate::budget::Budget::unlimited()
    }
}

/// A summand of a partizan sum: a position of one partizan game (a Domineering board, a
/// Hackenbush picture, a `cg` value), or of an impartial game, whose value is a nimber.
#[derive(Clone)]
pub struct Component(pub(crate) Arc<dyn ComponentDyn>);

impl Component {
    /// The spec of its game.
    pub fn game(&self) -> &str {
        self.0.spec()
    }

    /// When computations on its value stop.
    pub fn budget(&self) -> crate::budget::Budget {
        self.0.budget()
    }

    /// The position as JSON.
    pub fn to_json(&self) -> Json {
        self.0.json()
    }

    /// Its canonical form.
    ///
    /// # Errors
    /// [`Error::Limit`] when valuing it needs more memory than allowed.
    pub fn value(&self) -> Result<Canonical> {
        self.0.value()
    }

    /// The moves of `side`, with their text.
    ///
    /// # Errors
    /// [`Error::Limit`] when there are too many to list.
    pub fn moves(&self, side: Side) -> Result<Vec<(String, Component)>> {
        self.0.moves(side)
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.write())
    }
}

/// A whole position as the command line takes it: a sum of segments, or one standalone position.
#[derive(Clone)]
pub enum Position {
    /// A sum of impartial positions, possibly of several games (`kayles 5 + nim 3`).
    Sum(Vec<Segment>),
    /// A position of a game that is not summed.
    Single(Single),
    /// A sum of partizan positions (and impartial ones, as nimbers): `domineering:2x3 + cg ^`.
    Partizan(Vec<Component>),
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

/// Writes `spec words` (or the spec alone when there are no words).
fn write_game(f: &mut fmt::Formatter<'_>, spec: &str, text: &str) -> fmt::Result {
    f.write_str(spec)?;
    if text.is_empty() {
        Ok(())
    } else {
        write!(f, " {text}")
    }
}

impl Position {
    /// The spec text of the position's game(s), e.g. `kayles + nim`.
    pub fn game(&self) -> String {
        match self {
            Position::Sum(segments) => {
                let names: Vec<&str> = segments.iter().map(|s| s.game.spec()).collect();
                names.join(" + ")
            }
            Position::Single(s) => s.game().to_string(),
            Position::Partizan(components) => {
                let names: Vec<&str> = components.iter().map(Component::game).collect();
                names.join(" + ")
            }
        }
    }

    /// Whether this is a partizan sum (valued by canonical forms, not nim values).
    pub fn is_partizan(&self) -> bool {
        matches!(self, Position::Partizan(_))
    }

    /// The position as a partizan sum: itself, or an impartial sum's games as nimbers.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a position that is neither (a board solved whole, a scored
    /// game).
    pub fn to_partizan(&self) -> Result<Vec<Component>> {
        match self {
            Position::Partizan(components) => Ok(components.clone()),
            Position::Sum(segments) => {
                Ok(segments.iter().cloned().map(Component::impartial).collect())
            }
            Position::Single(s) => Err(Error::Unsupported(format!(
                "{} is not a short partizan or impartial game: it has no canonical form",
                s.game()
            ))),
        }
    }

    /// The position as JSON: the game's own JSON for one game, else a list of
    /// `{"game": SPEC, "position": ...}`.
    pub fn to_json(&self) -> Json {
        match self {
            Position::Sum(segments) if segments.len() == 1 => {
                segments[0].game.json(&segments[0].parts)
            }
            Position::Sum(segments) => Json::Array(
                segments
                    .iter()
                    .map(|s| serde_json::json!({"game": s.game.spec(), "position": s.game.json(&s.parts)}))
                    .collect(),
            ),
            Position::Single(s) => s.to_json(),
            Position::Partizan(components) if components.len() == 1 => components[0].to_json(),
            Position::Partizan(components) => Json::Array(
                components
                    .iter()
                    .map(|c| serde_json::json!({"game": c.game(), "position": c.to_json()}))
                    .collect(),
            ),
        }
    }

    /// How a front end draws the position: its game's layout, heaps for sums of heap games, text
    /// otherwise.
    pub fn layout(&self) -> Layout {
        match self {
            Position::Single(s) => s.0.layout(),
            Position::Partizan(components) if components.len() == 1 => components[0].0.layout(),
            Position::Partizan(_) => Layout::Text,
            Position::Sum(segments) if segments.len() == 1 => segments[0].game.layout(),
            Position::Sum(segments) => {
                if segments.iter().all(|s| s.game.layout() == Layout::Heaps) {
                    Layout::Heaps
                } else {
                    Layout::Text
                }
            }
        }
    }

    /// The position drawn for a terminal.
    pub fn render(&self) -> String {
        match self {
            Position::Single(s) => s.0.render(),
            Position::Partizan(components) if components.len() == 1 => components[0].0.render(),
            Position::Sum(_) | Position::Partizan(_) => self.to_string(),
        }
    }

    /// The parts of a sum, flattened in order (none for a single position).
    pub fn parts(&self) -> Vec<Part> {
        match self {
            Position::Sum(segments) => segments
                .iter()
                .flat_map(|s| s.parts.iter().cloned())
                .collect(),
            Position::Single(_) | Position::Partizan(_) => Vec::new(),
        }
    }

    /// This sum with flattened part `index` replaced by `replacement` (in its place).
    pub fn replace(&self, index: usize, replacement: &[Part]) -> Position {
        let Position::Sum(segments) = self else {
            return self.clone();
        };
        let mut seen = 0;
        let mut out = segments.clone();
        for segment in &mut out {
            if index < seen + segment.parts.len() {
                segment
                    .parts
                    .splice(index - seen..=index - seen, replacement.iter().cloned());
                break;
            }
            seen += segment.parts.len();
        }
        Position::Sum(out)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Sum(segments) => {
                for (i, s) in segments.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" + ")?;
                    }
                    write_game(f, s.game.spec(), &s.game.write(&s.parts))?;
                }
                Ok(())
            }
            Position::Partizan(components) => {
                for (i, c) in components.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" + ")?;
                    }
                    write_game(f, c.game(), &c.to_string())?;
                }
                Ok(())
            }
            Position::Single(s) => write_game(f, s.game(), &s.to_string()),
        }
    }
}

/// Parses words `GAME POSITION... [+ GAME POSITION...]` with `game` turning each spec into a
/// game: the sum of what each group names. A game that is not summed must stand alone.
///
/// # Errors
/// [`Error::Spec`] for a stray `+`; whatever `game` and the games' parsers return.
pub fn parse_sum<S: AsRef<str>>(
    words: &[S],
    mut game: impl FnMut(&str) -> Result<Arc<dyn DynGame>>,
) -> Result<Position> {
    let words: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
    let groups: Vec<&[&str]> = words.split(|w| *w == "+").collect();
    // Each group's summand, in the order written: impartial segments, or partizan components.
    let mut summands: Vec<std::result::Result<Segment, Component>> = Vec::new();
    let mut single = None;
    for group in &groups {
        let Some((spec, args)) = group.split_first() else {
            return Err(Error::spec(
                words.join(" "),
                "a '+' must have a game on both sides",
            ));
        };
        let game = game(spec)?;
        match game.parse(args)? {
            Parsed::Parts(segment) => summands.push(Ok(segment)),
            Parsed::Component(c) => summands.push(Err(c)),
            Parsed::Single(s) if groups.len() == 1 => single = Some(s),
            Parsed::Single(_) => {
                return Err(Error::Unsupported(format!(
                    "{} positions cannot be summed with other games: they are neither impartial nor short partizan games",
                    game.spec()
                )))
            }
        }
    }
    if let Some(s) = single {
        return Ok(Position::Single(s));
    }
    Ok(if summands.iter().any(std::result::Result::is_err) {
        // Impartial games join a partizan sum as nimbers.
        Position::Partizan(
            summands
                .into_iter()
                .map(|s| s.map_or_else(|c| c, Component::impartial))
                .collect(),
        )
    } else {
        Position::Sum(
            summands
                .into_iter()
                .filter_map(std::result::Result::ok)
                .collect(),
        )
    })
}
