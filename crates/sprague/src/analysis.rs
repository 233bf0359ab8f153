//! Type-erased games and the reports that the command line and the server print.
//!
//! The typed traits of [`crate::game`] are for Rust users. Front ends instead work with games
//! chosen at run time from a spec, through three object-safe traits:
//! - [`GameDef`]: a parsed game spec (`kayles`, `sub:1,3,4`); parses positions and offers tables;
//! - [`Component`]: one summand of an impartial sum (a heap, a coin, a Wythoff pair);
//! - [`Standalone`]: a position of a game that is not summed (boards, scored games, `cards`).
//!
//! [`value`] and [`moves`] combine components with the rules of [`crate::solve::sum`].

use crate::error::{Error, Result};
use crate::game::{Impartial, NimValue, Outcome, Play};
use crate::heap::HeapValues;
use crate::progress::Progress;
use crate::solve::{sum, MisereOutcomes};
use serde::Serialize;
use serde_json::Value as Json;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The most options a query lists before it gives up with [`Error::Limit`].
pub const OPTION_LIMIT: usize = 100_000;

/// How many part-positions the winning moves of one report may print in all (moves × parts).
pub const LISTING_BUDGET: usize = 1_000_000;

/// The fewest winning moves a report lists when there are that many, however large the sum.
pub const MIN_LISTED_MOVES: usize = 10;

/// The most positions the misère direct search stores.
pub const MISERE_POSITION_LIMIT: usize = 50_000;

/// A shared, type-erased summand.
pub type ComponentRef = Arc<dyn Component>;

/// An option of a [`Component`]: the move's text and the parts it leaves (several after a split,
/// none when the part disappears).
#[derive(Clone)]
pub struct ComponentMove {
    /// The move as a user reads it, e.g. `7 -> 2+3`.
    pub text: String,
    /// What replaces the component.
    pub parts: Vec<ComponentRef>,
}

/// One summand of an impartial sum: a position of an impartial game under normal play.
///
/// `Display` prints the position in the syntax its game parses (e.g. `5` for a heap).
pub trait Component: Send + Sync + fmt::Display {
    /// The spec of the component's game, e.g. `kayles`.
    fn game(&self) -> String;

    /// The position as JSON (a heap is a number).
    fn to_json(&self) -> Json;

    /// The (possibly loopy) nim value.
    fn nim_value(&self) -> Result<NimValue>;

    /// Every option, or [`Error::Limit`] if there are more than `limit`.
    fn options(&self, limit: usize) -> Result<Vec<ComponentMove>>;

    /// The options whose value is the finite nimber `target`. Families with closed forms override
    /// this so that huge positions answer without listing every option.
    fn options_with_value(&self, target: u64, limit: usize) -> Result<Vec<ComponentMove>> {
        let mut out = Vec::new();
        for option in self.options(limit)? {
            if parts_value(&option.parts)? == NimValue::Finite(target) {
                out.push(option);
            }
        }
        Ok(out)
    }

    /// Whether misère sums containing this part follow the SJ (Anti-SG) rule, i.e. whether every
    /// position reachable from it meets the conditions of [`crate::misere`]. The default checks
    /// them by a bounded search; games where they are proven (Nim) answer at once.
    fn misere_sj(&self) -> Result<bool> {
        crate::misere::conditions_hold(self)
    }
}

/// The value of a sum of parts: XOR, or ∞(K) for a lone loopy part, or `None`-like ∞(∅) when
/// the sum has no single nimber (two loopy parts); used for options that split.
pub fn parts_value(parts: &[ComponentRef]) -> Result<NimValue> {
    let values = parts
        .iter()
        .map(|p| p.nim_value())
        .collect::<Result<Vec<_>>>()?;
    Ok(match sum::nim_value(&values) {
        Some(g) => NimValue::Finite(g),
        None => NimValue::Infinite(Vec::new()),
    })
}

/// The evaluation of a standalone position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Evaluation {
    /// Who wins.
    pub outcome: Outcome,
    /// The nim value where the position is a finite impartial one.
    pub nim_value: Option<u64>,
    /// For scored games: the first player's margin (or the game's own value, see its catalog entry).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// Moves to the end of the game with perfect play (win fastest, lose slowest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness: Option<u64>,
}

/// A move of a [`Standalone`] game: its text and the position it leads to.
pub type StandaloneMove = (String, Arc<dyn Standalone>);

/// A position of a game that is not part of impartial sums: boards, scored games, loopy
/// partizan games. `Display` prints it in the syntax its game parses.
pub trait Standalone: Send + Sync + fmt::Display {
    /// The spec of the game.
    fn game(&self) -> String;

    /// The position as JSON.
    fn to_json(&self) -> Json;

    /// Who wins, and the values the game defines.
    fn evaluate(&self, play: Play) -> Result<Evaluation>;

    /// Every legal move.
    fn moves(&self, play: Play) -> Result<Vec<StandaloneMove>>;

    /// The position drawn for a terminal (for `sprague play`); the position syntax by default.
    fn render(&self) -> String {
        self.to_string()
    }

    /// The moves a perfect player may choose. The default keeps the moves to `P` positions.
    fn winning_moves(&self, play: Play) -> Result<Vec<StandaloneMove>> {
        let mut out = Vec::new();
        for (text, next) in self.moves(play)? {
            if next.evaluate(play)?.outcome == Outcome::P {
                out.push((text, next));
            }
        }
        Ok(out)
    }
}

/// A parsed position of one game.
pub enum Parsed {
    /// Summands of an impartial game (one per heap for heap games).
    Parts(Vec<ComponentRef>),
    /// A standalone position.
    Single(Arc<dyn Standalone>),
}

/// The result of strongly solving a game from a start position (`sprague solve GAME`).
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    /// The game's spec.
    pub game: String,
    /// The start position.
    pub position: Json,
    /// Who wins from the start.
    pub outcome: Outcome,
    /// Remoteness of the start (absent for draws).
    pub remoteness: Option<u64>,
    /// Positions reachable from the start, the start included.
    pub positions: u64,
    /// Further counts the game reports (for example wins, losses, draws).
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub details: serde_json::Map<String, Json>,
}

/// A parsed game spec: the rules of one game, chosen at run time.
pub trait GameDef: Send + Sync {
    /// The spec in canonical form, e.g. `sub:1,3,4`.
    fn spec(&self) -> String;

    /// Parses a position from its command-line words; the game's catalog entry gives the syntax.
    fn parse_position(&self, args: &[String]) -> Result<Parsed>;

    /// The JSON of a position made of these parts. The default is the array of the parts.
    fn position_json(&self, parts: &[ComponentRef]) -> Json {
        Json::Array(parts.iter().map(|p| p.to_json()).collect())
    }

    /// Puts the parts of a position in canonical form after a move changed them. The default keeps
    /// them as they are; coin-turning games sort their heads and cancel two heads on one coin.
    fn normalize(&self, parts: Vec<ComponentRef>) -> Vec<ComponentRef> {
        parts
    }

    /// Single-heap values, for heap games (`table`, `period`).
    fn heap(&self) -> Option<Arc<dyn HeapValues>> {
        None
    }

    /// Strong solution from a start position (`solve GAME`), for games that support it.
    fn solve(&self, _args: &[String], _progress: &dyn Progress) -> Option<Result<SolveReport>> {
        None
    }
}

/// One game's share of a position: a game and its parts.
#[derive(Clone)]
pub struct Segment {
    /// The game.
    pub game: Arc<dyn GameDef>,
    /// Its summands.
    pub parts: Vec<ComponentRef>,
}

/// A full position as the command line takes it: a sum of segments, or one standalone position.
#[derive(Clone)]
pub enum Position {
    /// A sum of impartial positions, possibly of several games (`kayles 5 + nim 3`).
    Sum(Vec<Segment>),
    /// A position of a game that is not summed.
    Single(Arc<dyn Standalone>),
}

impl Position {
    /// The spec text of the position's game(s), e.g. `kayles + nim`.
    pub fn game(&self) -> String {
        match self {
            Position::Sum(segments) => {
                let names: Vec<String> = segments.iter().map(|s| s.game.spec()).collect();
                names.join(" + ")
            }
            Position::Single(s) => s.game(),
        }
    }

    /// The position as JSON: the game's own JSON for one game, else a list of
    /// `{"game": SPEC, "position": ...}`.
    pub fn to_json(&self) -> Json {
        match self {
            Position::Sum(segments) if segments.len() == 1 => {
                segments[0].game.position_json(&segments[0].parts)
            }
            Position::Sum(segments) => Json::Array(
                segments
                    .iter()
                    .map(|s| serde_json::json!({"game": s.game.spec(), "position": s.game.position_json(&s.parts)}))
                    .collect(),
            ),
            Position::Single(s) => s.to_json(),
        }
    }

    /// The parts of a sum, flattened, with their segment index.
    pub(crate) fn parts(&self) -> Vec<(usize, ComponentRef)> {
        match self {
            Position::Sum(segments) => segments
                .iter()
                .enumerate()
                .flat_map(|(i, s)| s.parts.iter().map(move |p| (i, p.clone())))
                .collect(),
            Position::Single(_) => Vec::new(),
        }
    }

    /// This sum with flattened part `index` replaced by `replacement`.
    pub(crate) fn replace(&self, index: usize, replacement: &[ComponentRef]) -> Position {
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
                segment.parts = segment.game.normalize(std::mem::take(&mut segment.parts));
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
                    f.write_str(&s.game.spec())?;
                    for p in &s.parts {
                        write!(f, " {p}")?;
                    }
                }
                Ok(())
            }
            Position::Single(s) => write!(f, "{} {}", s.game(), s),
        }
    }
}

/// A move of a whole position, as reported.
#[derive(Clone, Debug, Serialize)]
pub struct MoveReport {
    /// The move's text.
    #[serde(rename = "move")]
    pub text: String,
    /// The position after the move.
    pub position: Json,
    /// Which summand moved (0-based, in the order given), for sums.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub component: Option<usize>,
    /// The position after the move, as command-line text.
    #[serde(skip)]
    pub display: String,
}

/// The answer to `sprague value`.
#[derive(Clone, Debug, Serialize)]
pub struct ValueReport {
    /// The game spec(s).
    pub game: String,
    /// The position.
    pub position: Json,
    /// Who wins.
    pub outcome: Outcome,
    /// The nim value, where it is a finite nimber under normal play.
    pub nim_value: Option<u64>,
    /// The loopy value ∞(K) when the position is loopy, as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loopy_value: Option<String>,
    /// Scored games: the value the catalog entry defines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// Remoteness, for games solved by retrograde analysis.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness: Option<u64>,
    /// Every winning move.
    pub winning_moves: Vec<MoveReport>,
    /// Set when some part has too many winning moves to list (a huge heap that splits): says
    /// which; the outcome and nim value are still exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning_moves_omitted: Option<String>,
}

/// One option, as `sprague moves` reports it.
#[derive(Clone, Debug, Serialize)]
pub struct OptionReport {
    /// The move's text.
    #[serde(rename = "move")]
    pub text: String,
    /// The position after the move.
    pub position: Json,
    /// Which summand moved, for sums.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub component: Option<usize>,
    /// The position after the move, as command-line text.
    #[serde(skip)]
    pub display: String,
    /// The outcome of the position after the move (for the player then to move).
    pub outcome: Outcome,
    /// Its nim value, where finite.
    pub nim_value: Option<u64>,
    /// Its loopy value ∞(K), as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loopy_value: Option<String>,
    /// Scored games: its value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// Its remoteness, where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness: Option<u64>,
}

/// The answer to `sprague moves`.
#[derive(Clone, Debug, Serialize)]
pub struct MovesReport {
    /// The game spec(s).
    pub game: String,
    /// The position.
    pub position: Json,
    /// Every option.
    pub moves: Vec<OptionReport>,
}

fn loopy_text(value: &NimValue) -> Option<String> {
    match value {
        NimValue::Finite(_) => None,
        NimValue::Infinite(_) => Some(value.to_string()),
    }
}

/// Outcome, nim value and every winning move of `position`.
///
/// ```
/// let position = sprague::spec::parse_position(&["nim", "3", "4", "5"])?;
/// let report = sprague::analysis::value(&position, sprague::game::Play::Normal)?;
/// assert_eq!(report.nim_value, Some(2));
/// assert_eq!(report.winning_moves.len(), 1); // 3 -> 1
/// # Ok::<(), sprague::Error>(())
/// ```
pub fn value(position: &Position, play: Play) -> Result<ValueReport> {
    let game = position.game();
    let json = position.to_json();
    match position {
        Position::Single(s) => {
            let e = s.evaluate(play)?;
            let winning_moves = s
                .winning_moves(play)?
                .into_iter()
                .map(|(text, next)| MoveReport {
                    text,
                    position: next.to_json(),
                    component: None,
                    display: Position::Single(next).to_string(),
                })
                .collect();
            Ok(ValueReport {
                game,
                position: json,
                outcome: e.outcome,
                nim_value: e.nim_value,
                loopy_value: None,
                value: e.value,
                remoteness: e.remoteness,
                winning_moves,
                winning_moves_omitted: None,
            })
        }
        Position::Sum(_) if play == Play::Misere => match crate::misere::sj_value(position)? {
            Some(report) => Ok(report),
            None => misere_value(position),
        },
        Position::Sum(_) => {
            let parts = position.parts();
            let values = parts
                .iter()
                .map(|(_, p)| p.nim_value())
                .collect::<Result<Vec<_>>>()?;
            let outcome = sum::outcome(&values);
            let mut winning_moves = Vec::new();
            let mut winning_moves_omitted = None;
            // Each listed move repeats the whole position, so a large sum lists fewer moves.
            let most = (LISTING_BUDGET / (parts.len() + 1)).max(MIN_LISTED_MOVES);
            for (index, target) in sum::winning_targets(&values) {
                if winning_moves.len() >= most {
                    winning_moves_omitted = Some(format!(
                        "only the first {most} winning moves are listed for a sum of {} parts",
                        parts.len()
                    ));
                    break;
                }
                let options = match parts[index].1.options_with_value(target, OPTION_LIMIT) {
                    Err(Error::Limit(why)) => {
                        winning_moves_omitted = Some(why);
                        continue;
                    }
                    other => other?,
                };
                for option in options {
                    let next = position.replace(index, &option.parts);
                    winning_moves.push(MoveReport {
                        text: option.text,
                        position: next.to_json(),
                        component: Some(index),
                        display: next.to_string(),
                    });
                }
            }
            let lone_loopy = match values.as_slice() {
                [v] => loopy_text(v),
                _ => None,
            };
            Ok(ValueReport {
                game,
                position: json,
                outcome,
                nim_value: sum::nim_value(&values),
                loopy_value: lone_loopy,
                value: None,
                remoteness: None,
                winning_moves,
                winning_moves_omitted,
            })
        }
    }
}

/// Every option of `position` with its outcome and value.
pub fn moves(position: &Position, play: Play) -> Result<MovesReport> {
    let game = position.game();
    let json = position.to_json();
    let mut out = Vec::new();
    match position {
        Position::Single(s) => {
            for (text, next) in s.moves(play)? {
                let e = next.evaluate(play)?;
                out.push(OptionReport {
                    text,
                    position: next.to_json(),
                    component: None,
                    display: Position::Single(next.clone()).to_string(),
                    outcome: e.outcome,
                    nim_value: e.nim_value,
                    loopy_value: None,
                    value: e.value,
                    remoteness: e.remoteness,
                });
            }
        }
        Position::Sum(_) => {
            let mut solver = misere_solver();
            let parts = position.parts();
            let values = if play == Play::Misere {
                Vec::new()
            } else {
                parts
                    .iter()
                    .map(|(_, p)| p.nim_value())
                    .collect::<Result<Vec<_>>>()?
            };
            for (index, (_, part)) in parts.iter().enumerate() {
                for option in part.options(OPTION_LIMIT)? {
                    let next = position.replace(index, &option.parts);
                    let (outcome, nim_value, loopy_value) = if play == Play::Misere {
                        (misere_outcome(&mut solver, &next)?, None, None)
                    } else {
                        let mut after = values.clone();
                        after.remove(index);
                        for p in &option.parts {
                            after.push(p.nim_value()?);
                        }
                        let loopy = match after.as_slice() {
                            [v] => loopy_text(v),
                            _ => None,
                        };
                        (sum::outcome(&after), sum::nim_value(&after), loopy)
                    };
                    out.push(OptionReport {
                        text: option.text,
                        position: next.to_json(),
                        component: Some(index),
                        display: next.to_string(),
                        outcome,
                        nim_value,
                        loopy_value,
                        value: None,
                        remoteness: None,
                    });
                }
                if out.len() > OPTION_LIMIT {
                    return Err(Error::Limit(format!(
                        "more than {OPTION_LIMIT} options to list"
                    )));
                }
            }
        }
    }
    Ok(MovesReport {
        game,
        position: json,
        moves: out,
    })
}

/// A sum in canonical form (each game's parts sorted, coin pairs cancelled), keyed by its text so
/// that the misère search can memoise it.
#[derive(Clone)]
struct Canonical {
    key: String,
    position: Position,
}

impl PartialEq for Canonical {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl Eq for Canonical {}
impl Hash for Canonical {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

fn canonical(position: &Position) -> Canonical {
    let position = match position {
        Position::Sum(segments) => Position::Sum(
            segments
                .iter()
                .map(|s| {
                    let mut parts = s.game.normalize(s.parts.clone());
                    parts.sort_by_cached_key(|p| p.to_string());
                    Segment {
                        game: s.game.clone(),
                        parts,
                    }
                })
                .collect(),
        ),
        Position::Single(_) => position.clone(),
    };
    Canonical {
        key: position.to_string(),
        position,
    }
}

/// A sum of type-erased summands as an [`Impartial`] game. Moves go through
/// [`Position::replace`], so each game's own normalisation (e.g. cancelling coins) applies.
#[derive(Default)]
struct ErasedSum {
    /// The first error a part raised while listing its options; the search is void if set.
    error: std::cell::RefCell<Option<Error>>,
}

impl Impartial for ErasedSum {
    type Position = Canonical;

    fn options(&self, sum: &Canonical) -> Vec<Canonical> {
        let mut out = Vec::new();
        for (i, (_, part)) in sum.position.parts().iter().enumerate() {
            match part.options(OPTION_LIMIT) {
                Ok(options) => out.extend(
                    options
                        .iter()
                        .map(|o| canonical(&sum.position.replace(i, &o.parts))),
                ),
                Err(e) => {
                    self.error.borrow_mut().get_or_insert(e);
                }
            }
        }
        out
    }
}

fn misere_solver() -> MisereOutcomes<ErasedSum> {
    MisereOutcomes::new(ErasedSum::default()).with_position_limit(MISERE_POSITION_LIMIT)
}

fn misere_outcome(solver: &mut MisereOutcomes<ErasedSum>, position: &Position) -> Result<Outcome> {
    if let Some(outcome) = crate::misere::sj_outcome(position)? {
        return Ok(outcome);
    }
    let outcome = solver.outcome(&canonical(position));
    if let Some(e) = solver.game().error.borrow_mut().take() {
        return Err(e);
    }
    outcome.map_err(|e| match e {
            Error::Limit(_) => Error::Limit(format!(
                "misère play of this sum needs more than {MISERE_POSITION_LIMIT} positions of direct search; try smaller heaps"
            )),
            Error::Cycle(_) => Error::Unsupported("misère play is not supported for loopy games".into()),
            other => other,
        })
}

fn misere_value(position: &Position) -> Result<ValueReport> {
    let mut solver = misere_solver();
    let outcome = misere_outcome(&mut solver, position)?;
    let mut winning_moves = Vec::new();
    if outcome == Outcome::N {
        for (index, (_, part)) in position.parts().iter().enumerate() {
            for option in part.options(OPTION_LIMIT)? {
                let next = position.replace(index, &option.parts);
                if misere_outcome(&mut solver, &next)? == Outcome::P {
                    winning_moves.push(MoveReport {
                        text: option.text,
                        position: next.to_json(),
                        component: Some(index),
                        display: next.to_string(),
                    });
                }
            }
        }
    }
    Ok(ValueReport {
        game: position.game(),
        position: position.to_json(),
        outcome,
        nim_value: None,
        loopy_value: None,
        value: None,
        remoteness: None,
        winning_moves,
        winning_moves_omitted: None,
    })
}
