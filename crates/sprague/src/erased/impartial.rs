//! The one adapter from a typed impartial game to the erased world: its positions split into
//! [`Part`]s that sum with the parts of any other impartial game.

use super::{DynGame, Parsed, Part, PartDyn, PartMove, Segment, Summands};
use crate::budget::Budget;
use crate::error::{Error, Result};
use crate::game::{Impartial, Layout, Listing, NimValue, Notation, Outcome, Play, SolveReport};
use crate::heap::HeapValues;
use crate::progress::Progress;
use crate::quotient::QuotientCache;
use crate::solve::nimsearch::ComponentValues;
use crate::solve::{misere, NimValues, Search};
use serde_json::Value as Json;
use std::any::Any;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard};

/// The most positions `solve` searches for an impartial game without a report of its own.
pub const SOLVE_LIMIT: usize = 20_000_000;

/// The most components the search for nim values of one game memoises (when the game gives no
/// closed form): about a few hundred MiB for small positions.
pub const SEARCH_LIMIT: usize = 1 << 21;

/// A typed impartial game, shared by every part of its positions, with the memo of its
/// components' values.
struct Shared<G: Impartial> {
    spec: String,
    game: G,
    values: Mutex<NimValues<G>>,
    sj: Mutex<HashMap<G::Position, bool>>,
    /// Whether the positions of value 0 reachable from a component are terminal (the SJ
    /// theorem's ending rule is then misère play's).
    zeros: Mutex<HashMap<G::Position, bool>>,
    heap: Option<Arc<dyn HeapValues>>,
    /// The misère quotient of the heap rules, for misère sums of heaps.
    quotient: Option<Arc<QuotientCache>>,
    start: Option<G::Position>,
    /// The game's own search of component values, used instead of `values` when given.
    search: Option<Arc<dyn ComponentValues<G::Position>>>,
    /// When searches of this game's positions stop.
    budget: Budget,
}

impl<G: Impartial + Notation> Shared<G> {
    fn values(&self) -> MutexGuard<'_, NimValues<G>> {
        self.values.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The position the words name: the start position when there are none and the game has
    /// one (`cram:4x5`).
    fn parse_position(&self, words: &[&str]) -> Result<G::Position> {
        match (&self.start, words) {
            (Some(start), []) => Ok(start.clone()),
            _ => self
                .game
                .parse_position(words)
                .map_err(|e| e.into_error(&self.spec)),
        }
    }
}

/// A typed impartial game with its notation, as a [`DynGame`] whose positions are sums of
/// [`Part`]s: one part per [component](Impartial::components).
///
/// ```
/// use sprague::erased::{DynGame, ImpartialGame, Parsed};
/// use sprague::heap::{Code, HeapGame};
/// use std::sync::Arc;
///
/// let kayles = ImpartialGame::new("kayles", HeapGame::new("kayles", Arc::new(Code::parse("0.77").unwrap())));
/// let Parsed::Parts(segment) = kayles.parse(&["3", "4"])? else { unreachable!() };
/// assert_eq!(segment.parts.len(), 2);
/// assert_eq!(segment.parts[0].nim_value()?, sprague::game::NimValue::Finite(3));
/// # Ok::<(), sprague::Error>(())
/// ```
pub struct ImpartialGame<G: Impartial> {
    shared: Arc<Shared<G>>,
}

impl<G> ImpartialGame<G>
where
    G: Impartial + Notation + Clone + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    /// The game `game`, named `spec`.
    pub fn new(spec: impl Into<String>, game: G) -> Self {
        Self::build(spec.into(), game, None, None)
    }

    /// The same, with the position that no words name (the start of `cram:RxC`).
    pub fn with_start(spec: impl Into<String>, game: G, start: G::Position) -> Self {
        Self::build(spec.into(), game, None, Some(start))
    }

    /// The game `game`, named `spec`, whose single heaps `table` and `period` tabulate through
    /// `heap`.
    pub fn with_heap(spec: impl Into<String>, game: G, heap: Arc<dyn HeapValues>) -> Self {
        Self::build(spec.into(), game, Some(heap), None)
    }

    /// The same game, whose components `search` values (normal play; misère play and its
    /// checks still use plain search).
    pub fn with_values(mut self, search: Arc<dyn ComponentValues<G::Position>>) -> Self {
        if let Some(shared) = Arc::get_mut(&mut self.shared) {
            shared.search = Some(search);
        }
        self
    }

    fn build(
        spec: String,
        game: G,
        heap: Option<Arc<dyn HeapValues>>,
        start: Option<G::Position>,
    ) -> Self {
        let quotient = heap
            .as_ref()
            .and_then(|h| h.heap_rules())
            .map(|rules| Arc::new(QuotientCache::new(rules)));
        ImpartialGame {
            shared: Arc::new(Shared {
                spec,
                values: Mutex::new(NimValues::new(game.clone()).with_position_limit(SEARCH_LIMIT)),
                game,
                sj: Mutex::new(HashMap::new()),
                zeros: Mutex::new(HashMap::new()),
                heap,
                quotient,
                start,
                search: None,
                budget: Budget::unlimited(),
            }),
        }
    }

    /// The same game, whose searches stop when `budget` is spent.
    pub fn with_budget(mut self, budget: Budget) -> Self {
        if let Some(shared) = Arc::get_mut(&mut self.shared) {
            let values = shared.values.get_mut().unwrap_or_else(|e| e.into_inner());
            values.set_budget(budget.clone());
            shared.budget = budget;
        }
        self
    }
}

fn part<G>(shared: &Arc<Shared<G>>, position: G::Position) -> Part
where
    G: Impartial + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    let mut hasher = DefaultHasher::new();
    position.hash(&mut hasher);
    Part(Arc::new(TypedPart {
        shared: shared.clone(),
        hash: hasher.finish(),
        position,
    }))
}

fn parts<G>(shared: &Arc<Shared<G>>, position: &G::Position) -> Vec<Part>
where
    G: Impartial + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    shared
        .game
        .components(position)
        .into_iter()
        .map(|c| part(shared, c))
        .collect()
}

impl<G> DynGame for ImpartialGame<G>
where
    G: Impartial + Notation + Clone + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    fn spec(&self) -> &str {
        &self.shared.spec
    }

    fn layout(&self) -> Layout {
        self.shared.game.layout()
    }

    fn parse(&self, words: &[&str]) -> Result<Parsed> {
        let position = self.shared.parse_position(words)?;
        Ok(Parsed::Parts(Segment {
            game: self.shared.clone(),
            parts: parts(&self.shared, &position),
        }))
    }

    fn heap(&self) -> Option<Arc<dyn HeapValues>> {
        self.shared.heap.clone()
    }

    /// The game's own report, else outcome and remoteness of the whole position by search.
    fn solve(&self, words: &[&str], progress: &dyn Progress) -> Option<Result<SolveReport>> {
        let shared = &self.shared;
        let start = match shared.parse_position(words) {
            Ok(start) => start,
            Err(e) => return Some(Err(e)),
        };
        if let Some(report) = shared.game.solve(&start, progress) {
            return Some(report);
        }
        Some((|| {
            let mut search = Search::new(shared.game.clone(), Play::Normal)
                .with_position_limit(SOLVE_LIMIT)
                .with_budget(shared.budget.clone());
            let solved = search.solve(&start)?;
            Ok(SolveReport {
                game: shared.spec.clone(),
                position: shared.game.position_json(&start),
                outcome: solved.outcome(),
                draw_kind: crate::game::Value::from_outcome(solved.outcome()).draw_kind(),
                remoteness: solved.remoteness.map(u64::from),
                positions: search.positions() as u64,
                details: serde_json::Map::new(),
            })
        })())
    }
}

impl<G> Summands for Shared<G>
where
    G: Impartial + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    fn spec(&self) -> &str {
        &self.spec
    }

    fn layout(&self) -> Layout {
        self.game.layout()
    }

    fn write(&self, parts: &[Part]) -> String {
        match joined(self, parts) {
            Some(position) => self.game.write_position(&position),
            None => {
                let words: Vec<String> = parts.iter().map(Part::write).collect();
                words.join(" ")
            }
        }
    }

    fn json(&self, parts: &[Part]) -> Json {
        match joined(self, parts) {
            Some(position) => self.game.position_json(&position),
            None => Json::Array(parts.iter().map(Part::to_json).collect()),
        }
    }
}

/// The parts joined into one typed position, when they are all this game's and it joins them.
fn joined<G>(shared: &Shared<G>, parts: &[Part]) -> Option<G::Position>
where
    G: Impartial + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    let positions = parts
        .iter()
        .map(|p| {
            p.0.as_any()
                .downcast_ref::<TypedPart<G>>()
                .map(|t| t.position.clone())
        })
        .collect::<Option<Vec<_>>>()?;
    shared.game.join(positions)
}

/// A component of a typed impartial game.
struct TypedPart<G: Impartial> {
    shared: Arc<Shared<G>>,
    position: G::Position,
    hash: u64,
}

impl<G> TypedPart<G>
where
    G: Impartial + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    fn to_move(&self, option: &G::Position) -> PartMove {
        PartMove {
            text: self.shared.game.write_move(&self.position, option),
            description: self.shared.game.describe_move(&self.position, option),
            parts: parts(&self.shared, option),
        }
    }

    /// The nim value of a position of the game: the XOR of its components' values.
    fn value_of(&self, position: &G::Position) -> Result<NimValue> {
        let mut x = 0;
        let mut loopy = None;
        for component in self.shared.game.components(position) {
            match component_value(&self.shared, &component)? {
                NimValue::Finite(g) => x ^= g,
                infinite => {
                    if loopy.is_some() {
                        return Ok(NimValue::Infinite(Vec::new()));
                    }
                    loopy = Some(infinite);
                }
            }
        }
        Ok(match loopy {
            None => NimValue::Finite(x),
            // A lone ∞(K) part with finite parts of XOR x: ∞(K ⊕ x).
            Some(NimValue::Infinite(k)) => {
                let mut shifted: Vec<u64> = k.iter().map(|v| v ^ x).collect();
                shifted.sort_unstable();
                NimValue::Infinite(shifted)
            }
            Some(finite) => finite,
        })
    }
}

/// A component's value: the game's own, else by search, with the component named on failure.
fn component_value<G>(shared: &Shared<G>, component: &G::Position) -> Result<NimValue>
where
    G: Impartial + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    if let Some(v) = shared.game.known_nim_value(component)? {
        return Ok(v);
    }
    let value = match &shared.search {
        Some(search) => search.value(component, &shared.budget),
        None => shared.values().component_value(component),
    };
    value
        .map(NimValue::Finite)
        .map_err(|e| named(shared, component, e))
}

/// A search's limit error, naming the component it was searching.
fn named<G>(shared: &Shared<G>, component: &G::Position, e: Error) -> Error
where
    G: Impartial + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    match e {
        Error::Limit(reason) => Error::Limit(format!(
            "{} {}: no closed form for its nim value, and search stopped: {reason}",
            shared.spec,
            shared.game.write_position(component)
        )),
        other => other,
    }
}

impl<G> PartDyn for TypedPart<G>
where
    G: Impartial + Notation + Send + Sync + 'static,
    G::Position: Send + Sync + 'static,
{
    fn game_id(&self) -> usize {
        Arc::as_ptr(&self.shared) as *const u8 as usize
    }

    fn spec(&self) -> &str {
        &self.shared.spec
    }

    fn hash_code(&self) -> u64 {
        self.hash
    }

    fn eq_dyn(&self, other: &dyn PartDyn) -> bool {
        other
            .as_any()
            .downcast_ref::<TypedPart<G>>()
            .is_some_and(|o| Arc::ptr_eq(&self.shared, &o.shared) && self.position == o.position)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn write(&self) -> String {
        self.shared.game.write_position(&self.position)
    }

    fn json(&self) -> Json {
        self.shared.game.position_json(&self.position)
    }

    fn noun(&self) -> &'static str {
        self.shared.game.part_noun()
    }

    fn nim_value(&self) -> Result<NimValue> {
        component_value(&self.shared, &self.position)
    }

    fn options(&self) -> Result<Vec<PartMove>> {
        Ok(self
            .shared
            .game
            .try_options(&self.position)?
            .iter()
            .map(|o| self.to_move(o))
            .collect())
    }

    fn options_with_value(&self, target: u64, limit: usize) -> Result<Listing<PartMove>> {
        let game = &self.shared.game;
        if let Some(listing) = game.options_with_nim_value(&self.position, target, limit)? {
            return Ok(listing.map(|o| self.to_move(&o)));
        }
        let mut found = Vec::new();
        for option in game.try_options(&self.position)? {
            let hit = match &self.shared.search {
                // The search answers "is the value `target`?" faster than it finds the value.
                Some(search) => search
                    .has_value(&option, target, &self.shared.budget)
                    .map_err(|e| named(&self.shared, &option, e))?,
                None => self.value_of(&option)? == NimValue::Finite(target),
            };
            if hit {
                found.push(self.to_move(&option));
            }
        }
        Ok(Listing::all(found))
    }

    fn known_outcome(&self) -> Option<Outcome> {
        self.shared.game.known_outcome(&self.position)
    }

    fn misere_sj(&self) -> bool {
        if let Some(known) = self.shared.game.misere_sj(&self.position) {
            return known;
        }
        remembered(&self.shared.sj, &self.position, || {
            misere::conditions_hold(&mut self.shared.values(), &self.position)
        })
    }

    fn misere_zeros_terminal(&self) -> bool {
        remembered(&self.shared.zeros, &self.position, || {
            misere::zeros_are_terminal(&mut self.shared.values(), &self.position)
        })
    }

    fn explain(&self) -> Option<String> {
        self.shared.game.explain(&self.position)
    }

    fn misere_heap(&self) -> Option<(u64, &Arc<QuotientCache>)> {
        let quotient = self.shared.quotient.as_ref()?;
        Some((self.shared.game.heap_size(&self.position)?, quotient))
    }

    fn budget(&self) -> &Budget {
        &self.shared.budget
    }
}

/// The answer kept in `memo` for `position`, else `compute`'s, kept (the lock is not held
/// while it computes).
fn remembered<P: Clone + Eq + std::hash::Hash>(
    memo: &Mutex<HashMap<P, bool>>,
    position: &P,
    compute: impl FnOnce() -> bool,
) -> bool {
    let known = memo
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(position)
        .copied();
    if let Some(answer) = known {
        return answer;
    }
    let answer = compute();
    memo.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(position.clone(), answer);
    answer
}
