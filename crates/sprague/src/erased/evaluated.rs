//! The one adapter from a typed game that evaluates its own positions (boards, scored games) to
//! the erased world: its positions are [`Single`]s, not summed.

use super::{DynGame, Parsed, Single, SingleDyn};
use crate::error::Result;
use crate::game::{Evaluated, Evaluation, Layout, Notation, SolveReport};
use crate::progress::Progress;
use serde_json::Value as Json;
use std::sync::Arc;

struct Shared<G> {
    spec: String,
    game: G,
}

/// A typed [`Evaluated`] game with its notation, as a [`DynGame`] of [`Single`] positions.
pub struct EvaluatedGame<G> {
    shared: Arc<Shared<G>>,
}

impl<G> EvaluatedGame<G>
where
    G: Evaluated + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    /// The game `game`, named `spec`.
    pub fn new(spec: impl Into<String>, game: G) -> Self {
        EvaluatedGame {
            shared: Arc::new(Shared {
                spec: spec.into(),
                game,
            }),
        }
    }

    fn parse_typed(&self, words: &[&str]) -> Result<G::Position> {
        self.shared
            .game
            .parse_position(words)
            .map_err(|e| e.into_error(&self.shared.spec))
    }
}

fn single<G>(shared: &Arc<Shared<G>>, position: G::Position) -> Single
where
    G: Evaluated + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    Single(Arc::new(TypedSingle {
        shared: shared.clone(),
        position,
    }))
}

impl<G> DynGame for EvaluatedGame<G>
where
    G: Evaluated + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    fn spec(&self) -> &str {
        &self.shared.spec
    }

    fn layout(&self) -> Layout {
        self.shared.game.layout()
    }

    fn parse(&self, words: &[&str]) -> Result<Parsed> {
        Ok(Parsed::Single(single(
            &self.shared,
            self.parse_typed(words)?,
        )))
    }

    fn solve(&self, words: &[&str], progress: &dyn Progress) -> Option<Result<SolveReport>> {
        let start = match self.parse_typed(words) {
            Ok(start) => start,
            Err(e) => return Some(Err(e)),
        };
        self.shared.game.solve(&start, progress)
    }
}

struct TypedSingle<G: Evaluated> {
    shared: Arc<Shared<G>>,
    position: G::Position,
}

impl<G> TypedSingle<G>
where
    G: Evaluated + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    fn step(&self, next: G::Position) -> (String, Single) {
        let text = self.shared.game.write_move(&self.position, &next);
        (text, single(&self.shared, next))
    }
}

impl<G> SingleDyn for TypedSingle<G>
where
    G: Evaluated + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
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

    fn evaluate(&self) -> Result<Evaluation> {
        self.shared.game.evaluate(&self.position)
    }

    fn moves(&self) -> Result<Vec<(String, Single)>> {
        Ok(self
            .shared
            .game
            .moves(&self.position)?
            .into_iter()
            .map(|next| self.step(next))
            .collect())
    }

    fn winning_moves(&self) -> Result<Option<Vec<(String, Single)>>> {
        Ok(self
            .shared
            .game
            .winning_moves(&self.position)?
            .map(|moves| moves.into_iter().map(|next| self.step(next)).collect()))
    }
}
