//! The generic solver: canonical forms of positions of any [`Partizan`] ruleset.
//!
//! A position is split into regions ([`Partizan::components`]); each region's representative
//! ([`Partizan::key`]) is valued once, from its options, and stored in a transposition table;
//! the position's value is the sum. Winning moves come from the same values: Left wins by
//! moving to an option `G'` exactly when `G' ≥ 0`, Right when `G' ≤ 0`.

use super::arena::{Arena, GameId, Outcome, Relation, Side};
use super::canonical::{Canonical, SharedArena};
use super::dyadic::Dyadic;
use super::game::Partizan;
use super::notation;
use super::thermograph::{Thermal, Thermograph};
use crate::budget::{Budget, Checker};
use crate::error::{Error, Result};
use hashbrown::HashMap;

/// The default memory bound of a solver: 4 GiB.
pub const DEFAULT_MEMORY_LIMIT: usize = 4 << 30;

/// The finest number, `1/2^MAX_SOLVED_EXPONENT`, a value's stops may hold (a Hackenbush
/// string of about 50 edges reaches it).
pub const MAX_SOLVED_EXPONENT: u32 = 48;

/// What a front end shows for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis<P> {
    /// The canonical form in CGSuite's notation.
    pub canonical_form: String,
    /// Who wins with each player starting.
    pub outcome: Outcome,
    /// The mean value.
    pub mean: Dyadic,
    /// The temperature (negative for numbers).
    pub temperature: Dyadic,
    /// `Some(m)` exactly when the value is the nimber `*m`.
    pub nim_value: Option<u32>,
    /// Left's moves that win when Left starts: text and resulting position.
    pub left_winning_moves: Vec<(String, P)>,
    /// Right's moves that win when Right starts.
    pub right_winning_moves: Vec<(String, P)>,
}

/// The canonical form of `position` in CGSuite notation, by a solver of its own (for one-off
/// values; keep a [`Solver`] to value several positions).
///
/// # Errors
/// [`Error::Limit`] when the [default memory bound](DEFAULT_MEMORY_LIMIT) is reached.
pub fn canonical_form<G: Partizan>(game: &G, position: &G::Position) -> Result<String> {
    let mut solver = Solver::new(game);
    let g = solver.value(position)?;
    Ok(notation::to_notation(&mut solver.arena, g))
}

/// What a [`Solver`] has learnt (its arena and the values of the regions it met), to carry
/// from one solver of a ruleset to the next.
pub struct Memory<P> {
    arena: Arena,
    table: HashMap<P, GameId>,
}

impl<P> Default for Memory<P> {
    fn default() -> Self {
        Memory {
            arena: Arena::new(),
            table: HashMap::new(),
        }
    }
}

fn budget_checker(budget: Budget) -> Checker {
    Checker::new(budget, 256)
}

/// Values positions of one ruleset, remembering every region it has valued.
pub struct Solver<'g, G: Partizan> {
    game: &'g G,
    arena: Arena,
    table: HashMap<G::Position, GameId>,
    memory_limit: usize,
    budget: Checker,
}

impl<'g, G: Partizan> Solver<'g, G> {
    /// A solver for `game` with the [default memory bound](DEFAULT_MEMORY_LIMIT).
    pub fn new(game: &'g G) -> Self {
        Solver {
            game,
            arena: Arena::new(),
            table: HashMap::new(),
            memory_limit: DEFAULT_MEMORY_LIMIT,
            budget: budget_checker(Budget::unlimited()),
        }
    }

    /// A solver for `game` that starts from what an earlier one learnt (see
    /// [`Solver::into_memory`]), with the [default memory bound](DEFAULT_MEMORY_LIMIT).
    pub fn resume(game: &'g G, memory: Memory<G::Position>) -> Self {
        Solver {
            game,
            arena: memory.arena,
            table: memory.table,
            memory_limit: DEFAULT_MEMORY_LIMIT,
            budget: budget_checker(Budget::unlimited()),
        }
    }

    /// What this solver has learnt, for [`Solver::resume`].
    pub fn into_memory(self) -> Memory<G::Position> {
        Memory {
            arena: self.arena,
            table: self.table,
        }
    }

    /// The same, stopping with [`crate::Error::Stopped`] once `budget` is spent (looked at
    /// every few hundred options valued).
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget_checker(budget);
        self
    }

    /// The same with a memory bound in bytes (the arena and the table, estimated).
    pub fn with_memory_limit(mut self, bytes: usize) -> Self {
        self.memory_limit = bytes;
        self
    }

    /// The arena the values live in.
    pub fn arena(&mut self) -> &mut Arena {
        &mut self.arena
    }

    /// How many distinct regions have been valued.
    pub fn regions(&self) -> usize {
        self.table.len()
    }

    /// An estimate of the memory in use, in bytes.
    pub fn memory_bytes(&self) -> usize {
        let entry = std::mem::size_of::<(G::Position, GameId)>() + 8;
        self.arena.memory_bytes() + self.table.capacity() * entry
    }

    /// The canonical form of `position`, as an id in [`Solver::arena`].
    ///
    /// # Errors
    /// [`Error::Limit`] when the memory bound is reached.
    pub fn value(&mut self, position: &G::Position) -> Result<GameId> {
        let mut total = Arena::ZERO;
        for region in self.game.components(position) {
            let v = self.region_value(&region)?;
            total = self.arena.add(total, v);
        }
        Ok(total)
    }

    fn region_value(&mut self, region: &G::Position) -> Result<GameId> {
        let keyed = self.game.key(region);
        let value = match self.table.get(&keyed.key) {
            Some(&v) => v,
            None => {
                let mut left = Vec::new();
                for option in self.game.left_options(&keyed.key) {
                    left.push(self.value(&option)?);
                }
                let mut right = Vec::new();
                for option in self.game.right_options(&keyed.key) {
                    right.push(self.value(&option)?);
                }
                self.budget.tick_by(left.len() + right.len() + 1)?;
                let v = self.arena.from_options(&left, &right);
                self.check_precision(v)?;
                self.check_memory()?;
                self.table.insert(keyed.key, v);
                v
            }
        };
        Ok(if keyed.negated {
            self.arena.neg(value)
        } else {
            value
        })
    }

    /// Refuses values whose stops need a denominator past `2^MAX_SOLVED_EXPONENT`: numbers
    /// finer than that would overflow the arithmetic of the values built on them (each level of
    /// a game tree may halve the finest number once, so only very deep positions get there).
    fn check_precision(&self, v: GameId) -> Result<()> {
        let (left, right) = self.arena.stops(v);
        if left.exponent().max(right.exponent()) > MAX_SOLVED_EXPONENT {
            return Err(Error::Limit(format!(
                "the position's values need numbers finer than 1/2^{MAX_SOLVED_EXPONENT}, past what this solver computes exactly; try a smaller position"
            )));
        }
        Ok(())
    }

    fn check_memory(&mut self) -> Result<()> {
        if self.memory_bytes() <= self.memory_limit {
            return Ok(());
        }
        // The memoised sums and comparisons are a cache: drop them before giving up.
        self.arena.clear_caches();
        if self.memory_bytes() <= self.memory_limit {
            return Ok(());
        }
        Err(Error::Limit(format!(
            "the game needs more than {} MiB (after {} regions); raise the memory limit",
            self.memory_limit >> 20,
            self.table.len()
        )))
    }

    /// The canonical form of `position` as a value of its own.
    ///
    /// # Errors
    /// [`Error::Limit`] when the memory bound is reached.
    pub fn canonical(&mut self, position: &G::Position) -> Result<Canonical> {
        let id = self.value(position)?;
        let shared = SharedArena::new();
        let portable = shared.import_from(&mut self.arena, id);
        Ok(shared.value(portable))
    }

    /// The moves of `side` that win when `side` starts.
    ///
    /// # Errors
    /// [`Error::Limit`] when the memory bound is reached.
    pub fn winning_moves(
        &mut self,
        position: &G::Position,
        side: Side,
    ) -> Result<Vec<(String, G::Position)>> {
        let mut winning = Vec::new();
        for (text, option) in self.game.moves(position, side) {
            let v = self.value(&option)?;
            let wins = match side {
                Side::Left => self.arena.leq(Arena::ZERO, v),
                Side::Right => self.arena.leq(v, Arena::ZERO),
            };
            if wins {
                winning.push((text, option));
            }
        }
        Ok(winning)
    }

    /// Everything a front end shows: canonical form, outcome, mean, temperature, nim value and
    /// both players' winning moves.
    ///
    /// # Errors
    /// [`Error::Limit`] when the memory bound is reached.
    pub fn analyse(&mut self, position: &G::Position) -> Result<Analysis<G::Position>> {
        let g = self.value(position)?;
        let graph = Thermal::new(&mut self.arena).thermograph(g);
        Ok(Analysis {
            canonical_form: notation::to_notation(&mut self.arena, g),
            outcome: self.arena.outcome(g),
            mean: graph.mean,
            temperature: graph.temperature,
            nim_value: self.arena.nimber_of(g),
            left_winning_moves: self.winning_moves(position, Side::Left)?,
            right_winning_moves: self.winning_moves(position, Side::Right)?,
        })
    }

    /// The thermograph of `position`.
    ///
    /// # Errors
    /// [`Error::Limit`] when the memory bound is reached.
    pub fn thermograph(&mut self, position: &G::Position) -> Result<Thermograph> {
        let g = self.value(position)?;
        Ok(Thermal::new(&mut self.arena).thermograph(g))
    }

    /// How two positions compare.
    ///
    /// # Errors
    /// [`Error::Limit`] when the memory bound is reached.
    pub fn compare(&mut self, a: &G::Position, b: &G::Position) -> Result<Relation> {
        let (g, h) = (self.value(a)?, self.value(b)?);
        Ok(self.arena.compare(g, h))
    }
}
