//! Partizan positions: canonical form, outcome class, mean and temperature, each player's
//! winning moves, comparison and thermographs.
//!
//! A partizan sum's value is the sum of its components' canonical forms (impartial components
//! count as nimbers). Left wins moving to an option `G'` exactly when `G' ≥ 0`, Right when
//! `G' ≤ 0`; an option's value is the sum with one component's value replaced by its option's.

use super::MoveReport;
use crate::erased::{Component, Position};
use crate::error::Result;
use crate::partizan::{Canonical, Dyadic, Outcome, Relation, Side};
use serde::Serialize;
use serde_json::Value as Json;

/// The answer to `sprague value` on a partizan position.
#[derive(Clone, Debug, Serialize)]
pub struct PartizanReport {
    /// The game spec(s).
    pub game: String,
    /// The position.
    pub position: Json,
    /// Who wins with each player starting: `L`, `R`, `N` or `P`.
    pub outcome: Outcome,
    /// `Some(m)` exactly when the value is the nimber `*m`.
    pub nim_value: Option<u64>,
    /// The canonical form in CGSuite's notation.
    pub canonical_form: String,
    /// The mean value, exact (`"-3/2"`).
    pub mean: String,
    /// The temperature, exact; negative for numbers, as in CGSuite.
    pub temperature: String,
    /// Left's moves that win when Left starts.
    pub left_winning_moves: Vec<MoveReport>,
    /// Right's moves that win when Right starts.
    pub right_winning_moves: Vec<MoveReport>,
}

/// The canonical forms of a sum's components and their total.
struct Valued {
    components: Vec<Component>,
    values: Vec<Canonical>,
    total: Canonical,
}

impl Valued {
    /// The budget of the position's games (all components of one parse share it).
    fn budget(&self) -> crate::budget::Budget {
        self.components
            .first()
            .map(Component::budget)
            .unwrap_or_default()
    }

    /// The thermograph of the whole position, within its budget.
    fn thermograph(&self) -> Result<crate::partizan::Thermograph> {
        self.total.thermograph_within(&self.budget())
    }
    fn of(position: &Position) -> Result<Valued> {
        let components = position.to_partizan()?;
        let values = components
            .iter()
            .map(Component::value)
            .collect::<Result<Vec<_>>>()?;
        let total = values.iter().fold(Canonical::zero(), |sum, v| &sum + v);
        Ok(Valued {
            components,
            values,
            total,
        })
    }

    /// The moves of `side` (only those that win when `side` starts, if `only_winning`).
    fn options(&self, side: Side, only_winning: bool) -> Result<Vec<PartizanOption>> {
        let mut options = Vec::new();
        let zero = Canonical::zero();
        for (i, component) in self.components.iter().enumerate() {
            let rest = &self.total - &self.values[i];
            for (text, option) in component.moves(side)? {
                let after = &rest + &option.value()?;
                let wins = matches!(
                    (side, after.compare(&zero)),
                    (_, Relation::Equal)
                        | (Side::Left, Relation::Greater)
                        | (Side::Right, Relation::Less)
                );
                if only_winning && !wins {
                    continue;
                }
                let mut components = self.components.clone();
                components[i] = option;
                let position = Position::Partizan(components);
                options.push(PartizanOption {
                    text,
                    position: position.to_json(),
                    component: (self.components.len() > 1).then_some(i),
                    display: position.to_string(),
                    after: position,
                    canonical_form: after.to_string(),
                    outcome: after.outcome(),
                    wins,
                });
            }
        }
        Ok(options)
    }

    /// The moves of `side` that win when `side` starts.
    fn winning_moves(&self, side: Side) -> Result<Vec<MoveReport>> {
        Ok(self
            .options(side, true)?
            .into_iter()
            .map(|o| MoveReport {
                description: String::new(),
                text: o.text,
                position: o.position,
                component: o.component,
                display: o.display,
            })
            .collect())
    }
}

/// Canonical form, outcome class, mean, temperature and both players' winning moves of a
/// partizan position (or of an impartial sum seen as a partizan game).
///
/// # Errors
/// [`crate::Error::Unsupported`] for a position that is neither; [`crate::Error::Limit`] when
/// valuing it needs more memory than allowed.
pub fn value(position: &Position) -> Result<PartizanReport> {
    let valued = Valued::of(position)?;
    let total = &valued.total;
    let graph = valued.thermograph()?;
    Ok(PartizanReport {
        game: position.game(),
        position: position.to_json(),
        outcome: total.outcome(),
        nim_value: total.as_nimber().map(u64::from),
        canonical_form: total.to_string(),
        mean: graph.mean.to_string(),
        temperature: graph.temperature.to_string(),
        left_winning_moves: valued.winning_moves(Side::Left)?,
        right_winning_moves: valued.winning_moves(Side::Right)?,
    })
}

/// An option of a partizan position, as `sprague moves` reports it.
#[derive(Clone, Debug, Serialize)]
pub struct PartizanOption {
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
    /// The position after the move, to play on from.
    #[serde(skip)]
    pub after: Position,
    /// The canonical form after the move.
    pub canonical_form: String,
    /// Its outcome class.
    pub outcome: Outcome,
    /// Whether the move wins for the player who makes it (the result is ≥ 0 for Left, ≤ 0 for
    /// Right).
    pub wins: bool,
}

/// The answer to `sprague moves` on a partizan position.
#[derive(Clone, Debug, Serialize)]
pub struct PartizanMoves {
    /// The game spec(s).
    pub game: String,
    /// The position.
    pub position: Json,
    /// Every move of Left.
    pub left_moves: Vec<PartizanOption>,
    /// Every move of Right.
    pub right_moves: Vec<PartizanOption>,
}

/// Every move of each player from a partizan position, with the canonical form after it.
///
/// # Errors
/// As for [`value`].
pub fn moves(position: &Position) -> Result<PartizanMoves> {
    let valued = Valued::of(position)?;
    let [left_moves, right_moves] =
        [Side::Left, Side::Right].map(|side| valued.options(side, false));
    Ok(PartizanMoves {
        game: position.game(),
        position: position.to_json(),
        left_moves: left_moves?,
        right_moves: right_moves?,
    })
}

/// How two positions compare: `<`, `>`, `=` or `||`.
///
/// # Errors
/// As for [`value`].
pub fn compare(a: &Position, b: &Position) -> Result<Relation> {
    let (a, b) = (Valued::of(a)?, Valued::of(b)?);
    Ok(a.total.compare(&b.total))
}

/// A point of a thermograph's wall: the wall's value at a temperature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WallPoint {
    /// The temperature, exact.
    pub t: String,
    /// The wall's value there, exact.
    pub value: String,
}

/// The answer to `sprague thermograph`.
#[derive(Clone, Debug, Serialize)]
pub struct ThermographReport {
    /// The game spec(s).
    pub game: String,
    /// The position.
    pub position: Json,
    /// The canonical form.
    pub canonical_form: String,
    /// Where the walls meet (negative for numbers).
    pub temperature: String,
    /// The mast's value.
    pub mean: String,
    /// The left wall's breakpoints from `t = -1` up to the temperature, where the mast begins.
    pub left_wall: Vec<WallPoint>,
    /// The right wall's breakpoints, likewise.
    pub right_wall: Vec<WallPoint>,
    /// The thermograph drawn as SVG (Left's values to the left, as in Winning Ways).
    #[serde(skip)]
    pub svg: String,
}

/// The thermograph of a partizan position.
///
/// # Errors
/// As for [`value`].
pub fn thermograph(position: &Position) -> Result<ThermographReport> {
    let valued = Valued::of(position)?;
    let graph = valued.thermograph()?;
    let wall = |w: &crate::partizan::Trajectory| -> Vec<WallPoint> {
        let mut points: Vec<WallPoint> = w
            .points()
            .into_iter()
            .filter(|&(t, _)| t <= graph.temperature.max(-Dyadic::ONE))
            .map(|(t, v)| WallPoint {
                t: t.to_string(),
                value: v.to_string(),
            })
            .collect();
        let top = graph.temperature.max(-Dyadic::ONE);
        if points.last().map(|p| p.t.as_str()) != Some(top.to_string().as_str()) {
            points.push(WallPoint {
                t: top.to_string(),
                value: w.at(top).to_string(),
            });
        }
        points
    };
    Ok(ThermographReport {
        game: position.game(),
        position: position.to_json(),
        canonical_form: valued.total.to_string(),
        temperature: graph.temperature.to_string(),
        mean: graph.mean.to_string(),
        left_wall: wall(&graph.left),
        right_wall: wall(&graph.right),
        svg: graph.svg(&valued.total.to_string()),
    })
}
