//! The one adapter from a typed partizan ruleset to the erased world: its positions are
//! [`Component`]s, summands of partizan sums, valued by the generic [`Solver`]. Impartial
//! positions join partizan sums as their nimbers ([`Component::impartial`]).

use super::{Component, ComponentDyn, DynGame, Parsed, Segment};
use crate::budget::Budget;
use crate::error::{Error, Result};
use crate::game::{Game, Layout, NimValue, Notation};
use crate::partizan::{Canonical, Memory, Partizan, SharedArena, Side, Solver};
use serde_json::Value as Json;
use std::sync::{Arc, Mutex};

/// What the adapter needs of a ruleset: its rules and notation, shareable between threads.
pub trait Ruleset:
    Partizan + Notation + Game<Position: Send + Sync + 'static> + Send + Sync + 'static
{
}

impl<G> Ruleset for G where
    G: Partizan + Notation + Game<Position: Send + Sync + 'static> + Send + Sync + 'static
{
}

struct Shared<G: Partizan> {
    spec: String,
    game: G,
    /// The position no words name, if the spec gives one (`domineering:4x4`).
    start: Option<G::Position>,
    /// What the solvers of this game have learnt so far.
    memory: Mutex<Option<Memory<G::Position>>>,
    /// When its solvers stop.
    budget: Budget,
}

/// A typed [`Partizan`] ruleset with its notation, as a [`DynGame`] of [`Component`]s.
pub struct PartizanGame<G: Partizan> {
    shared: Arc<Shared<G>>,
}

impl<G> PartizanGame<G>
where
    G: Ruleset,
{
    /// The ruleset `game`, named `spec`.
    pub fn new(spec: impl Into<String>, game: G) -> Self {
        PartizanGame::with_start(spec, game, None)
    }

    /// The same, with the position that no words name (the start of `domineering:RxC`).
    pub fn with_start(spec: impl Into<String>, game: G, start: Option<G::Position>) -> Self {
        PartizanGame::within(spec, game, start, Budget::unlimited())
    }

    /// The same, with values that stop when `budget` is spent.
    pub fn within(
        spec: impl Into<String>,
        game: G,
        start: Option<G::Position>,
        budget: Budget,
    ) -> Self {
        PartizanGame {
            shared: Arc::new(Shared {
                spec: spec.into(),
                game,
                start,
                memory: Mutex::new(Some(Memory::default())),
                budget,
            }),
        }
    }
}

impl<G> DynGame for PartizanGame<G>
where
    G: Ruleset,
{
    fn spec(&self) -> &str {
        &self.shared.spec
    }

    fn layout(&self) -> Layout {
        self.shared.game.layout()
    }

    fn parse(&self, words: &[&str]) -> Result<Parsed> {
        let position = match (&self.shared.start, words) {
            (Some(start), []) => start.clone(),
            _ => self
                .shared
                .game
                .parse_position(words)
                .map_err(|e| e.into_error(&self.shared.spec))?,
        };
        Ok(Parsed::Component(component(&self.shared, position)))
    }
}

fn component<G>(shared: &Arc<Shared<G>>, position: G::Position) -> Component
where
    G: Ruleset,
{
    Component(Arc::new(Typed {
        shared: shared.clone(),
        position,
    }))
}

struct Typed<G: Partizan> {
    shared: Arc<Shared<G>>,
    position: G::Position,
}

impl<G> ComponentDyn for Typed<G>
where
    G: Ruleset,
{
    fn spec(&self) -> &str {
        &self.shared.spec
    }

    fn layout(&self) -> Layout {
        self.shared.game.layout()
    }

    fn write(&self) -> String {
        self.shared.game.write_position(&self.position)
    }

    fn json(&self) -> Json {
        self.shared.game.position_json(&self.position)
    }

    fn render(&self) -> String {
        self.shared.game.render(&self.position)
    }

    fn value(&self) -> Result<Canonical> {
        let mut memory = self
            .shared
            .memory
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // A solver that panicked took the memory with it: start afresh.
        let mut solver = Solver::resume(&self.shared.game, memory.take().unwrap_or_default())
            .with_budget(self.shared.budget.clone());
        let value = solver.canonical(&self.position);
        *memory = Some(solver.into_memory());
        value
    }

    fn budget(&self) -> Budget {
        self.shared.budget.clone()
    }

    fn moves(&self, side: Side) -> Result<Vec<(String, Component)>> {
        Ok(self
            .shared
            .game
            .moves(&self.position, side)
            .into_iter()
            .map(|(text, p)| (text, component(&self.shared, p)))
            .collect())
    }
}

/// An impartial game's share of a sum, as a partizan summand: its value is the nimber of its
/// nim value, and both players have its options.
struct Impartial(Segment);

impl ComponentDyn for Impartial {
    fn spec(&self) -> &str {
        self.0.game.spec()
    }

    fn layout(&self) -> Layout {
        self.0.game.layout()
    }

    fn write(&self) -> String {
        self.0.game.write(&self.0.parts)
    }

    fn json(&self) -> Json {
        self.0.game.json(&self.0.parts)
    }

    fn render(&self) -> String {
        self.write()
    }

    fn value(&self) -> Result<Canonical> {
        let mut x = 0u64;
        for part in &self.0.parts {
            match part.nim_value()? {
                NimValue::Finite(g) => x ^= g,
                NimValue::Infinite(_) => {
                    return Err(Error::Unsupported(format!(
                        "{} {} is loopy: partizan sums take short games only",
                        self.0.game.spec(),
                        part
                    )))
                }
            }
        }
        let m = u32::try_from(x).map_err(|_| {
            Error::Limit(format!(
                "the nim value {x} is past the nimbers partizan values hold (below 2^32)"
            ))
        })?;
        let arena = SharedArena::new();
        let id = arena.lock().nimber(m);
        Ok(arena.value(id))
    }

    fn moves(&self, _side: Side) -> Result<Vec<(String, Component)>> {
        let mut moves = Vec::new();
        for (i, part) in self.0.parts.iter().enumerate() {
            for option in part.options()? {
                let mut parts = self.0.parts.clone();
                parts.splice(i..=i, option.parts);
                let segment = Segment {
                    game: self.0.game.clone(),
                    parts,
                };
                moves.push((option.text, Component::impartial(segment)));
            }
        }
        Ok(moves)
    }
}

impl Component {
    /// An impartial position as a summand of a partizan sum (its value is a nimber).
    pub fn impartial(segment: Segment) -> Component {
        Component(Arc::new(Impartial(segment)))
    }
}
