//! Answers about positions, for every front end: [`value`] (outcome, nim value, remoteness,
//! winning moves), [`moves`] (every option with its value), and under both the one path that
//! rates moves, [`rate`], which `sprague play` and the server's play view use too.
//!
//! ```
//! use sprague::catalog::Catalog;
//! let catalog = Catalog::default();
//! let position = catalog.parse_position(&["nim", "3", "4", "5"])?;
//! let report = sprague::analysis::value(&position, sprague::game::Play::Normal)?;
//! assert_eq!(report.outcome, sprague::game::Outcome::N);
//! assert_eq!(report.winning_moves[0].text, "3 -> 1");
//! # Ok::<(), sprague::Error>(())
//! ```

pub mod explain;
pub mod partizan;

use crate::budget::Budget;
use crate::erased::{Part, PartMove, Position, Single, SumGame};
use crate::error::{Error, Result};
use crate::game::{NimValue, Outcome, Play, Value};
use crate::quotient::Quotient;
use crate::solve::{misere, sum, Search};
use serde::Serialize;
use serde_json::Value as Json;
use std::sync::Arc;

/// The most options [`moves`] and [`rate`] list before they give up with [`Error::Limit`].
pub const OPTION_LIMIT: usize = 100_000;

/// How many part-positions the winning moves of one report may print in all (moves × parts).
pub const LISTING_BUDGET: usize = 1_000_000;

/// The fewest winning moves a report lists when there are that many, however large the sum.
pub const MIN_LISTED_MOVES: usize = 10;

/// The most sums the misère direct search stores.
pub const MISERE_POSITION_LIMIT: usize = 50_000;

/// The most sums searched for the remoteness of an impartial sum; past it, the remoteness is
/// not computed (it has no formula in the parts' values).
pub const REMOTENESS_LIMIT: usize = 4_000;

/// The options the searches of a report may list per position they may store, so that a
/// position with few but huge option lists gives up quickly too.
pub const SEARCH_WORK_PER_POSITION: u64 = 20;

/// The most winning moves listed for one part; past it, the report says how many there are.
pub const LISTED_PER_PART: usize = 100;

/// A move with everything known about it and the position it leads to: what [`rate`] gives.
#[derive(Clone)]
pub struct Rated {
    /// The move as a player types it, e.g. `b2` or `3 -> 1`.
    pub text: String,
    /// The move in words that read like the game, e.g. `3 → 1` or `knock down pin 2 (3 → 1 +
    /// 1)`, without the summand's number ([`Rated::describe`] adds it).
    pub description: String,
    /// What the summand moved is called (`heap`, `row`, `board`, `part`), for sums.
    pub noun: &'static str,
    /// Which summand it moves (0-based, flattened), for sums.
    pub component: Option<usize>,
    /// The position after the move.
    pub position: Position,
    /// What the move is worth to the player who makes it.
    pub value: Value,
    /// The outcome of the position after the move, for the player then to move.
    pub outcome: Outcome,
    /// Its nim value, where finite and known.
    pub nim_value: Option<u64>,
    /// Its loopy value ∞(K), as text.
    pub loopy_value: Option<String>,
    /// Scored games: its value.
    pub score: Option<i64>,
    /// Its remoteness, where known.
    pub remoteness: Option<u64>,
    /// For a draw of a game solved whole, its draw level.
    pub draw_level: Option<crate::game::DrawLevel>,
}

impl Rated {
    /// The move as a player types it: the text, prefixed with `N:` (1-based summand) in sums of
    /// several parts.
    pub fn label(&self, parts: usize) -> String {
        match self.component {
            Some(i) if parts > 1 => format!("{}:{}", i + 1, self.text),
            _ => self.text.clone(),
        }
    }

    /// The move in words, with the summand's number when there is one: `heap 2: 7 → 3`.
    /// `number` is the summand's number (its place, 1-based, in a position of several parts;
    /// a stable number in a game played, see [`crate::play::Numbering`]).
    pub fn describe(&self, number: Option<u64>) -> String {
        match number {
            Some(n) => format!("{} {n}: {}", self.noun, self.description),
            None => self.description.clone(),
        }
    }

    /// [`Rated::describe`], numbered by the summand's place in a position of `parts` parts.
    pub fn describe_in(&self, parts: usize) -> String {
        self.describe(self.component.filter(|_| parts > 1).map(|i| i as u64 + 1))
    }
}

/// Which moves [`rate`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// Every legal move.
    All,
    /// The moves a perfect player may choose; in impartial sums found from the parts' values
    /// without listing every option, so that huge heaps answer.
    Winning,
}

/// The moves of a position, rated.
pub struct Rating {
    /// The moves, in the order of the parts and their options.
    pub moves: Vec<Rated>,
    /// Set when some winning moves are not listed (too many): says how many there are, or why
    /// they cannot be found. The outcome and nim value are still exact.
    pub omitted: Option<String>,
}

/// What is known of a sum's parts under normal play.
struct Values {
    /// Each part's value; `None` only for a lone part valued by its closed-form outcome.
    values: Vec<Option<NimValue>>,
}

impl Values {
    fn of(parts: &[Part]) -> Result<Values> {
        let mut values = Vec::with_capacity(parts.len());
        for part in parts {
            match part.nim_value() {
                Ok(v) => values.push(Some(v)),
                Err(_) if parts.len() == 1 && part.known_outcome().is_some() => values.push(None),
                Err(e) => return Err(e),
            }
        }
        Ok(Values { values })
    }

    fn known(&self) -> Option<Vec<NimValue>> {
        self.values.iter().cloned().collect()
    }
}

fn loopy_text(values: &[NimValue]) -> Option<String> {
    match values {
        [v @ NimValue::Infinite(_)] => Some(v.to_string()),
        _ => None,
    }
}

/// Searches of a sum (misère outcomes, remoteness) that give up quietly past their limit.
struct SumSearch {
    search: Search<SumGame>,
    broken: bool,
}

impl SumSearch {
    /// A search under `play` within `limit` positions that stops when `budget` is spent.
    fn new(play: Play, limit: usize, budget: Budget) -> SumSearch {
        SumSearch {
            search: Search::new(SumGame, play)
                .with_position_limit(limit)
                .with_work_limit(limit as u64 * SEARCH_WORK_PER_POSITION)
                .with_budget(budget),
            broken: false,
        }
    }

    /// Win or loss with remoteness, or `None` past the limit (then never tried again).
    fn solve(&mut self, position: &Position) -> Option<(Outcome, u64)> {
        if self.broken {
            return None;
        }
        match self.search.solve(&SumGame::canonical(position.parts())) {
            Ok(s) => Some((s.outcome(), u64::from(s.remoteness.unwrap_or(0)))),
            Err(_) => {
                self.broken = true;
                None
            }
        }
    }

    /// The outcome, with the reason when the search cannot give it (`no_quotient`: why the
    /// parts' misère quotient could not be used, when they have one).
    fn outcome(&mut self, position: &Position, no_quotient: Option<&str>) -> Result<Outcome> {
        let sum = SumGame::canonical(position.parts());
        let why = || {
            format!(
                "the SJ rule is not proven for all its parts{}; try smaller heaps",
                no_quotient.map_or_else(
                    || ", and they are not heaps of one game with a misère quotient".to_string(),
                    |why| format!(", and {why}")
                )
            )
        };
        self.search.outcome(&sum).map_err(|e| match e {
            Error::Limit(_) => Error::Limit(format!(
                "misère play of this sum needs more than {MISERE_POSITION_LIMIT} positions of direct search: {}",
                why()
            )),
            Error::Stopped(stopped) => Error::Stopped(format!(
                "{stopped} in a direct search of this misère sum ({} positions so far): {}",
                self.search.positions(),
                why()
            )),
            Error::Cycle(_) => {
                Error::Unsupported("misère play is not defined for loopy games".into())
            }
            other => other,
        })
    }
}

/// The misère values of a sum's parts when every part meets the SJ conditions.
fn sj_values(parts: &[Part]) -> Result<Option<Vec<u64>>> {
    let mut values = Vec::with_capacity(parts.len());
    for part in parts {
        if !part.misere_sj() {
            return Ok(None);
        }
        match part.nim_value()? {
            NimValue::Finite(g) => values.push(g),
            NimValue::Infinite(_) => return Ok(None),
        }
    }
    Ok(Some(values))
}

/// A misère sum of heaps of one heap game, valued by the game's misère quotient.
struct QuotientSum {
    quotient: Arc<Quotient>,
    /// `rest[i]`: the product of the elements of every part but part i.
    rest: Vec<u32>,
    /// The product of every part's element.
    whole: u32,
}

impl QuotientSum {
    /// The quotient rule for `parts` when they are all heaps of one heap game: `Ok(None)` when
    /// they are not, the reason when the game's quotient cannot value them (it runs away, or a
    /// heap is past its range).
    fn of(parts: &[Part]) -> std::result::Result<Option<QuotientSum>, String> {
        let mut sizes = Vec::with_capacity(parts.len());
        let Some(first) = parts.first() else {
            return Ok(None);
        };
        let Some((_, cache)) = first.misere_heap() else {
            return Ok(None);
        };
        for part in parts {
            // Parts of one spec share their rules, even from two instances of the game.
            match part.misere_heap() {
                Some((n, _)) if part.game() == first.game() => sizes.push(n),
                _ => return Ok(None),
            }
        }
        let largest = sizes.iter().copied().max().unwrap_or(0);
        let quotient = cache.covering(largest)?;
        let elements: Vec<u32> = sizes
            .iter()
            .map(|&n| quotient.element(n))
            .collect::<Result<_>>()
            .map_err(|e| e.to_string())?;
        let mut prefix = vec![quotient.identity(); elements.len() + 1];
        for (i, &x) in elements.iter().enumerate() {
            prefix[i + 1] = quotient.multiply(prefix[i], x);
        }
        let mut rest = vec![quotient.identity(); elements.len()];
        let mut suffix = quotient.identity();
        for i in (0..elements.len()).rev() {
            rest[i] = quotient.multiply(prefix[i], suffix);
            suffix = quotient.multiply(suffix, elements[i]);
        }
        Ok(Some(QuotientSum {
            whole: prefix[elements.len()],
            quotient,
            rest,
        }))
    }

    fn outcome_of(&self, element: u32) -> Outcome {
        if self.quotient.is_p(element) {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    /// The misère outcome of the sum after part `index` moved to the heaps `moved`.
    fn outcome_after(&self, index: usize, moved: &[Part]) -> Result<Outcome> {
        let mut x = self.rest[index];
        for part in moved {
            let (n, _) = part.misere_heap().ok_or_else(|| {
                Error::Internal("a move of a heap left something other than heaps".into())
            })?;
            x = self.quotient.multiply(x, self.quotient.element(n)?);
        }
        Ok(self.outcome_of(x))
    }

    /// How the rule is described beside the outcome.
    fn note(&self, game: &str) -> String {
        let q = &self.quotient;
        let range = match q.period() {
            Some(p) => format!(
                "proven for every heap: period {} from heap {}",
                p.period, p.preperiod
            ),
            None => format!("heaps 0..{}", q.max_heap()),
        };
        format!(
            "the misère quotient of {game} (order {}, {range}), without search",
            q.order()
        )
    }
}

/// The parts' finite nim values when every part's positions of value 0 are terminal (the
/// general SJ theorem then decides misère play, [`misere::zeros_are_terminal`]), or when
/// `always` (the Anti-SG game, whose ending rule needs no condition).
fn anti_sg_values(parts: &[Part], always: bool) -> Result<Option<Vec<u64>>> {
    let mut values = Vec::with_capacity(parts.len());
    for part in parts {
        if !always && !part.misere_zeros_terminal() {
            return Ok(None);
        }
        match part.nim_value()? {
            NimValue::Finite(g) => values.push(g),
            NimValue::Infinite(_) if always => {
                return Err(Error::Unsupported(format!(
                    "{} {part} is loopy (value ∞): the SJ ending rule needs finite nim values",
                    part.game()
                )))
            }
            NimValue::Infinite(_) => return Ok(None),
        }
    }
    Ok(Some(values))
}

/// How the outcome of a sum is found under misère play.
enum MisereRule {
    /// The SJ rule from the parts' values.
    Sj(Vec<u64>),
    /// The SJ theorem in general form (Anti-SG under the ending rule "every summand is 0"):
    /// the parts' values, each part one summand (its pieces after a split valued together).
    AntiSg(Vec<u64>),
    /// The misère quotient of the heap game all parts are heaps of.
    Quotient(QuotientSum),
    /// Direct search, with the reason the parts' quotient could not be used (when they are
    /// heaps of one game).
    Search(SumSearch, Option<String>),
}

impl MisereRule {
    fn for_sum(parts: &[Part]) -> Result<MisereRule> {
        if let Some(values) = sj_values(parts)? {
            return Ok(MisereRule::Sj(values));
        }
        let no_quotient = match QuotientSum::of(parts) {
            Ok(Some(q)) => return Ok(MisereRule::Quotient(q)),
            Ok(None) => None,
            Err(why) => Some(why),
        };
        if let Some(values) = anti_sg_values(parts, false)? {
            return Ok(MisereRule::AntiSg(values));
        }
        Ok(MisereRule::Search(
            SumSearch::new(Play::Misere, MISERE_POSITION_LIMIT, Part::budget_of(parts)),
            no_quotient,
        ))
    }

    /// The misère outcome of the whole sum.
    fn outcome(&mut self, position: &Position) -> Result<Outcome> {
        match self {
            MisereRule::Sj(values) | MisereRule::AntiSg(values) => Ok(misere::outcome(values)),
            MisereRule::Quotient(q) => Ok(q.outcome_of(q.whole)),
            MisereRule::Search(search, why) => search.outcome(position, why.as_deref()),
        }
    }

    /// The rule's name in `value --json`, and its description for people.
    fn describe(&self, position: &Position) -> (&'static str, String) {
        match self {
            MisereRule::Sj(_) => (
                "sj",
                "the SJ (Anti-Nim) rule from the parts' nim values, proven for these parts".into(),
            ),
            MisereRule::AntiSg(_) => (
                "anti-sg",
                "the SJ theorem in general form (Anti-SG): in these parts every position of nim value 0 has no move, so misère play ends exactly when every part is 0, the theorem's ending rule".into(),
            ),
            MisereRule::Quotient(q) => ("quotient", q.note(&position.game())),
            MisereRule::Search(_, why) => (
                "search",
                match why {
                    Some(why) => format!("direct search ({why})"),
                    None => "direct search".into(),
                },
            ),
        }
    }

    /// The misère outcome of the sum after part `index` moved to `moved`.
    fn outcome_after(&mut self, after: &Position, index: usize, moved: &[Part]) -> Result<Outcome> {
        match self {
            MisereRule::Sj(values) => {
                let mut next = values.clone();
                next.remove(index);
                for p in moved {
                    match p.nim_value()? {
                        NimValue::Finite(g) => next.push(g),
                        NimValue::Infinite(_) => {
                            return Err(Error::Internal("a loopy part in an SJ sum".into()))
                        }
                    }
                }
                Ok(misere::outcome(&next))
            }
            // The moved part stays one summand: its pieces are valued together.
            MisereRule::AntiSg(values) => {
                let mut next = values.clone();
                let mut g = 0;
                for p in moved {
                    match p.nim_value()? {
                        NimValue::Finite(v) => g ^= v,
                        NimValue::Infinite(_) => {
                            return Err(Error::Internal("a loopy part in an Anti-SG sum".into()))
                        }
                    }
                }
                next[index] = g;
                Ok(misere::outcome(&next))
            }
            MisereRule::Quotient(q) => q.outcome_after(index, moved),
            MisereRule::Search(search, why) => search.outcome(after, why.as_deref()),
        }
    }
}

/// How a perfect player ranks a move: the best value first, then a win (or tie) as fast as
/// possible, a loss as slow as possible.
fn preference(m: &Rated) -> (Value, std::cmp::Reverse<u64>) {
    let r = m.remoteness.unwrap_or(u64::MAX);
    match m.value {
        Value::Lose => (m.value, std::cmp::Reverse(u64::MAX - r)),
        _ => (m.value, std::cmp::Reverse(r)),
    }
}

/// The indices of the moves a perfect player may choose (all equally good): the best value,
/// then the fastest win (or tie), the slowest loss.
pub fn best_moves(moves: &[Rated]) -> Vec<usize> {
    let Some(best) = moves.iter().map(preference).max() else {
        return Vec::new();
    };
    (0..moves.len())
        .filter(|&i| preference(&moves[i]) == best)
        .collect()
}

/// Every legal move of `position` (or only the winning ones), rated: the one path behind
/// [`value`], [`moves`], `sprague play` and the server.
///
/// # Errors
/// [`Error::Limit`] for too many options to list or a position too large to value;
/// [`Error::Unsupported`] for misère play of a game without one.
pub fn rate(position: &Position, play: Play, which: Which) -> Result<Rating> {
    rate_with(
        position,
        play,
        which,
        &mut SumSearch::new(play, REMOTENESS_LIMIT, Part::budget_of(&position.parts())),
    )
}

/// [`rate`], with the search that finds the remoteness of sums after each move.
fn rate_with(
    position: &Position,
    play: Play,
    which: Which,
    search: &mut SumSearch,
) -> Result<Rating> {
    match position {
        Position::Single(s) => rate_single(s, play, which),
        Position::Partizan(_) => Err(partizan_unsupported(position)),
        Position::Sum(_) => match play {
            Play::Normal => rate_normal(position, which, search),
            Play::Misere => rate_misere(position, which, search),
        },
    }
}

/// Partizan sums have no player to move: they are valued by [`partizan::value`].
fn partizan_unsupported(position: &Position) -> Error {
    Error::Unsupported(format!(
        "{} is partizan: each player has moves of their own; ask for its value, moves, a comparison or a thermograph (play is for impartial and board games)",
        position.game()
    ))
}

fn misere_unsupported(game: &str) -> Error {
    Error::Unsupported(format!(
        "{game} has no misère form: its rules say who wins at the end"
    ))
}

fn rate_single(s: &Single, play: Play, which: Which) -> Result<Rating> {
    if play == Play::Misere {
        return Err(misere_unsupported(s.game()));
    }
    let rated = |text: String, next: Single| -> Result<Rated> {
        let e = next.evaluate()?;
        Ok(Rated {
            description: text.clone(),
            noun: "part",
            text,
            component: None,
            position: Position::Single(next),
            value: Value::for_mover(e.value()),
            outcome: e.outcome,
            nim_value: e.nim_value,
            loopy_value: None,
            score: e.score,
            remoteness: e.remoteness,
            draw_level: e.draw_level,
        })
    };
    let moves = match which {
        Which::All => s
            .moves()?
            .into_iter()
            .map(|(text, next)| rated(text, next))
            .collect::<Result<Vec<_>>>()?,
        Which::Winning => match s.winning_moves()? {
            // The game's own best moves (closed forms; scored games' optimal moves).
            Some(best) => best
                .into_iter()
                .map(|(text, next)| {
                    rated(text.clone(), next.clone()).or_else(|_| {
                        Ok(Rated {
                            description: text.clone(),
                            noun: "part",
                            text,
                            component: None,
                            position: Position::Single(next),
                            value: Value::Win,
                            outcome: Outcome::P,
                            nim_value: Some(0),
                            loopy_value: None,
                            score: None,
                            remoteness: None,
                            draw_level: None,
                        })
                    })
                })
                .collect::<Result<Vec<_>>>()?,
            None => s
                .moves()?
                .into_iter()
                .map(|(text, next)| rated(text, next))
                .filter(|m| !matches!(m, Ok(m) if m.outcome != Outcome::P))
                .collect::<Result<Vec<_>>>()?,
        },
    };
    if moves.len() > OPTION_LIMIT {
        return Err(too_many());
    }
    Ok(Rating {
        moves,
        omitted: None,
    })
}

fn too_many() -> Error {
    Error::Limit(format!("more than {OPTION_LIMIT} options to list"))
}

fn rate_normal(position: &Position, which: Which, remoteness: &mut SumSearch) -> Result<Rating> {
    let parts = position.parts();
    let values = Values::of(&parts)?;
    let known = values.known();
    let mut moves = Vec::new();
    let mut omitted = None;
    let mut rated =
        |index: usize, option: PartMove, after_values: Option<Vec<NimValue>>| -> Rated {
            let PartMove {
                text,
                description,
                parts: moved,
            } = option;
            let moved = &moved[..];
            let after = position.replace(index, moved);
            let (outcome, nim_value, loopy_value) = match &after_values {
                Some(v) => (sum::outcome(v), sum::nim_value(v), loopy_text(v)),
                // A lone part without a nim value moved to a P-position (its closed form's choice).
                None => (Outcome::P, None, None),
            };
            let remoteness = remoteness.solve(&after).map(|(_, r)| r);
            Rated {
                text,
                description,
                noun: parts[index].noun(),
                component: Some(index),
                value: Value::for_mover(Value::from_outcome(outcome)),
                outcome,
                nim_value,
                loopy_value,
                score: None,
                remoteness,
                draw_level: None,
                position: after,
            }
        };
    match which {
        Which::All => {
            for (index, part) in parts.iter().enumerate() {
                for option in part.options()? {
                    let after_values = match &known {
                        Some(known) => {
                            let mut v = known.clone();
                            v.remove(index);
                            for p in &option.parts {
                                v.push(p.nim_value()?);
                            }
                            Some(v)
                        }
                        None => None,
                    };
                    let after_values = match after_values {
                        Some(v) => Some(v),
                        // The lone part has no value: its options are valued one by one.
                        None => Some(
                            option
                                .parts
                                .iter()
                                .map(Part::nim_value)
                                .collect::<Result<Vec<_>>>()?,
                        ),
                    };
                    moves.push(rated(index, option, after_values));
                    if moves.len() > OPTION_LIMIT {
                        return Err(too_many());
                    }
                }
            }
        }
        Which::Winning => {
            let targets = match &known {
                Some(v) => sum::winning_targets(v),
                None => match parts[0].known_outcome() {
                    Some(Outcome::N) => vec![(0, 0)],
                    _ => Vec::new(),
                },
            };
            // Each listed move repeats the whole position, so a large sum lists fewer moves.
            let most = (LISTING_BUDGET / (parts.len() + 1)).max(MIN_LISTED_MOVES);
            for (index, target) in targets {
                let room = most.saturating_sub(moves.len()).min(LISTED_PER_PART);
                if room == 0 && most <= moves.len() {
                    omitted.get_or_insert_with(|| {
                        format!(
                            "only the first {most} winning moves are listed for a sum of {} parts",
                            parts.len()
                        )
                    });
                    break;
                }
                let listing = match parts[index].options_with_value(target, room) {
                    Err(Error::Limit(why)) => {
                        omitted = Some(why);
                        continue;
                    }
                    other => other?,
                };
                if !listing.is_complete() {
                    omitted = Some(match listing.total {
                        Some(total) => format!(
                            "{} {} has {total} winning moves; the first {} are listed",
                            parts[index].game(),
                            parts[index],
                            listing.items.len()
                        ),
                        None => format!(
                            "{} {} may have more winning moves than the {} listed",
                            parts[index].game(),
                            parts[index],
                            listing.items.len()
                        ),
                    });
                }
                for option in listing.items {
                    let after_values = known.as_ref().map(|_| vec![NimValue::Finite(0)]);
                    moves.push(rated(index, option, after_values));
                }
            }
        }
    }
    Ok(Rating { moves, omitted })
}

fn rate_misere(position: &Position, which: Which, remoteness: &mut SumSearch) -> Result<Rating> {
    let rule = MisereRule::for_sum(&position.parts())?;
    rate_misere_by(position, which, rule, remoteness)
}

/// [`rate_misere`] by a given rule.
fn rate_misere_by(
    position: &Position,
    which: Which,
    mut rule: MisereRule,
    remoteness: &mut SumSearch,
) -> Result<Rating> {
    let parts = position.parts();
    let mut moves = Vec::new();
    let mut omitted = None;
    // Each listed move repeats the whole position, so a large sum lists fewer moves.
    let most = (LISTING_BUDGET / (parts.len() + 1)).max(MIN_LISTED_MOVES);
    for (index, part) in parts.iter().enumerate() {
        if which == Which::Winning && moves.len() >= most {
            omitted = Some(format!(
                "only the first {most} winning moves are listed for a sum of {} parts",
                parts.len()
            ));
            break;
        }
        let options = match (which, &rule) {
            // A winning move leaves XOR 0 or 1, so the part (of value g) goes to an option of
            // value X ⊕ g or X ⊕ g ⊕ 1: only those are examined.
            (Which::Winning, MisereRule::Sj(values) | MisereRule::AntiSg(values)) => {
                let x = values.iter().fold(0, |x, g| x ^ g);
                let g = values[index];
                let mut options = Vec::new();
                for target in [x ^ g, x ^ g ^ 1] {
                    options.extend(part.options_with_value(target, OPTION_LIMIT)?.items);
                }
                options
            }
            // The quotient knows the outcome without the moves: a part with too many to list
            // leaves its winning moves out, and the others are still found.
            (Which::Winning, MisereRule::Quotient(_)) => match part.options() {
                Err(Error::Limit(why)) => {
                    omitted = Some(format!("{} {part}: {why}", part.game()));
                    continue;
                }
                other => other?,
            },
            _ => part.options()?,
        };
        for option in options {
            let after = position.replace(index, &option.parts);
            let outcome = rule.outcome_after(&after, index, &option.parts)?;
            if which == Which::Winning && outcome != Outcome::P {
                continue;
            }
            moves.push(Rated {
                text: option.text,
                description: option.description,
                noun: part.noun(),
                component: Some(index),
                value: Value::for_mover(Value::from_outcome(outcome)),
                outcome,
                nim_value: None,
                loopy_value: None,
                score: None,
                remoteness: remoteness.solve(&after).map(|(_, r)| r),
                draw_level: None,
                position: after,
            });
            if moves.len() > OPTION_LIMIT {
                return Err(too_many());
            }
        }
    }
    Ok(Rating { moves, omitted })
}

/// A move of a whole position, as reported.
#[derive(Clone, Debug, Serialize)]
pub struct MoveReport {
    /// The move's text.
    #[serde(rename = "move")]
    pub text: String,
    /// The move in words that read like the game, with the summand's number in a sum of
    /// several: `heap 2: 7 → 3` ([`Rated::describe`]); empty (and left out of the JSON) for
    /// partizan moves, whose text is already the move in words.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
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
    /// With outcome `D`: `tie` (the game can be forced to end with no winner) or `loop` (play
    /// goes on for ever).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_kind: Option<&'static str>,
    /// The nim value, where it is a finite nimber under normal play.
    pub nim_value: Option<u64>,
    /// The loopy value ∞(K) when the position is loopy, as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loopy_value: Option<String>,
    /// Scored games: the value the catalog entry defines.
    #[serde(rename = "value", skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
    /// Remoteness: moves to the end with perfect play, where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness: Option<u64>,
    /// Why the remoteness is not given, when it is not.
    #[serde(skip)]
    pub remoteness_note: Option<&'static str>,
    /// A draw's level (GamesmanUni's `drawLevel`), for games solved whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_level: Option<u32>,
    /// The moves to its level's fringe (`drawRemoteness`); even: the player to move is the one
    /// pressed toward it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_remoteness: Option<u32>,
    /// The play convention.
    #[serde(skip)]
    pub play: Play,
    /// Every winning move (or the first ones, see `winning_moves_omitted`).
    pub winning_moves: Vec<MoveReport>,
    /// Set when some winning moves are not listed: how many there are, or why; the outcome and
    /// nim value are still exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning_moves_omitted: Option<String>,
    /// Misère sums: how the outcome was found: `sj` (the SJ rule from nim values), `quotient`
    /// (the heap game's misère quotient) or `search` (direct search).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub misere_rule: Option<&'static str>,
    /// Misère sums: the rule in words, for people.
    #[serde(skip)]
    pub misere_note: Option<String>,
    /// `anti-sg` for Anti-SG play under the SJ ending rule ([`anti_sg`]); absent otherwise.
    #[serde(rename = "play", skip_serializing_if = "Option::is_none")]
    pub variant: Option<&'static str>,
}

/// One option, as `sprague moves` reports it.
#[derive(Clone, Debug, Serialize)]
pub struct OptionReport {
    /// The move's text.
    #[serde(rename = "move")]
    pub text: String,
    /// The move in words, as [`MoveReport::description`].
    pub description: String,
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
    /// With outcome `D`: `tie` or `loop`, as in [`ValueReport::draw_kind`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_kind: Option<&'static str>,
    /// Its nim value, where finite.
    pub nim_value: Option<u64>,
    /// Its loopy value ∞(K), as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loopy_value: Option<String>,
    /// Scored games: its value.
    #[serde(rename = "value", skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
    /// Its remoteness, where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness: Option<u64>,
    /// For a draw of a game solved whole, its draw level and the moves to that level's fringe.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_level: Option<u32>,
    /// See [`OptionReport::draw_level`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_remoteness: Option<u32>,
}

impl OptionReport {
    /// The report of `m`, a move of a position of `parts` parts.
    pub fn new(m: Rated, parts: usize) -> OptionReport {
        OptionReport {
            description: m.describe_in(parts),
            position: m.position.to_json(),
            display: m.position.to_string(),
            text: m.text,
            component: m.component,
            outcome: m.outcome,
            draw_kind: draw_kind(m.outcome, Some(m.value)),
            nim_value: m.nim_value,
            loopy_value: m.loopy_value,
            score: m.score,
            remoteness: m.remoteness,
            draw_level: m.draw_level.map(|d| d.level),
            draw_remoteness: m.draw_level.map(|d| d.remoteness),
        }
    }
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

/// Outcome, nim value, remoteness and every winning move of `position`.
///
/// # Errors
/// As for [`rate`].
pub fn value(position: &Position, play: Play) -> Result<ValueReport> {
    if position.is_partizan() {
        return Err(partizan_unsupported(position));
    }
    let mut search = SumSearch::new(play, REMOTENESS_LIMIT, Part::budget_of(&position.parts()));
    let searched = match position {
        Position::Sum(_) => search.solve(position),
        Position::Single(_) | Position::Partizan(_) => None,
    };
    let rating = rate_with(position, play, Which::Winning, &mut search)?;
    let parts = position.parts().len();
    let mut report = ValueReport {
        game: position.game(),
        position: position.to_json(),
        outcome: Outcome::D,
        draw_kind: None,
        nim_value: None,
        loopy_value: None,
        score: None,
        remoteness: None,
        remoteness_note: None,
        draw_level: None,
        draw_remoteness: None,
        play,
        winning_moves: rating
            .moves
            .into_iter()
            .map(|m| MoveReport {
                description: m.describe_in(parts),
                position: m.position.to_json(),
                display: m.position.to_string(),
                text: m.text,
                component: m.component,
            })
            .collect(),
        winning_moves_omitted: rating.omitted,
        misere_rule: None,
        misere_note: None,
        variant: None,
    };
    match position {
        Position::Single(s) => {
            let e = s.evaluate()?;
            report.outcome = e.outcome;
            // A scored game that ends level is a tie.
            let value = e.value.or(e.score.map(|_| Value::Tie));
            report.draw_kind = draw_kind(e.outcome, value);
            report.nim_value = e.nim_value;
            report.score = e.score;
            report.remoteness = e.remoteness;
            report.draw_level = e.draw_level.map(|d| d.level);
            report.draw_remoteness = e.draw_level.map(|d| d.remoteness);
            if e.remoteness.is_none() && e.outcome == Outcome::D {
                report.remoteness_note = Some("none (a draw)");
            }
        }
        Position::Partizan(_) => return Err(partizan_unsupported(position)),
        Position::Sum(_) => {
            let parts = position.parts();
            match play {
                Play::Normal => {
                    let values = Values::of(&parts)?;
                    match values.known() {
                        Some(v) => {
                            report.outcome = sum::outcome(&v);
                            report.nim_value = sum::nim_value(&v);
                            report.loopy_value = loopy_text(&v);
                        }
                        None => {
                            report.outcome = parts[0].known_outcome().unwrap_or(Outcome::D);
                        }
                    }
                }
                Play::Misere => {
                    let mut rule = MisereRule::for_sum(&parts)?;
                    report.outcome = rule.outcome(position)?;
                    let (name, note) = rule.describe(position);
                    report.misere_rule = Some(name);
                    report.misere_note = Some(note);
                }
            }
            match searched {
                Some((outcome, r)) if outcome == report.outcome => report.remoteness = Some(r),
                Some(_) => {
                    return Err(Error::Internal(format!(
                        "the search and the values disagree on {position}"
                    )))
                }
                // A drawn sum has no remoteness: play goes on for ever.
                None if report.outcome == Outcome::D => {
                    report.remoteness_note = Some("none (a draw: play can go on for ever)")
                }
                None => report.remoteness_note = Some("not computed (too large to search exactly)"),
            }
        }
    }
    if report.draw_kind.is_none() {
        // Impartial sums are drawn only by infinite play.
        report.draw_kind = draw_kind(report.outcome, Some(Value::Draw));
    }
    Ok(report)
}

/// The report of `position` in Anti-SG play under the SJ ending rule (seed 004): the game ends
/// as soon as every summand has nim value 0, and the player who made the last move loses. The
/// SJ theorem in general form decides it for any impartial summands (each part as given is one
/// summand; the pieces a move leaves count together): outcome and winning moves from the
/// parts' nim values, without search ([`crate::solve::misere`]).
///
/// ```
/// use sprague::catalog::Catalog;
/// use sprague::game::Outcome;
/// // Kayles rows of 2 and 3 have values 2 and 3: two summands of value ≥ 2 with XOR 1.
/// let position = Catalog::default().parse_position(&["kayles", "2", "3"])?;
/// let report = sprague::analysis::anti_sg(&position)?;
/// assert_eq!(report.outcome, Outcome::N);
/// assert_eq!(report.misere_rule, Some("anti-sg"));
/// # Ok::<(), sprague::Error>(())
/// ```
///
/// # Errors
/// [`Error::Unsupported`] for a position that is not an impartial sum, or a loopy part;
/// [`Error::Limit`] for a part past what its game can value.
pub fn anti_sg(position: &Position) -> Result<ValueReport> {
    let Position::Sum(_) = position else {
        return Err(Error::Unsupported(format!(
            "{}: Anti-SG play is for sums of impartial games",
            position.game()
        )));
    };
    let parts = position.parts();
    let values = anti_sg_values(&parts, true)?.unwrap_or_default();
    let rating = if values.iter().all(|&g| g == 0) {
        // The ending rule: every summand is 0, the game is over (the player to move has won).
        Rating {
            moves: Vec::new(),
            omitted: None,
        }
    } else {
        rate_misere_by(
            position,
            Which::Winning,
            MisereRule::AntiSg(values.clone()),
            &mut SumSearch::new(Play::Misere, 0, Part::budget_of(&parts)),
        )?
    };
    let parts_count = parts.len();
    Ok(ValueReport {
        game: position.game(),
        position: position.to_json(),
        outcome: misere::outcome(&values),
        draw_kind: None,
        nim_value: Some(values.iter().fold(0, |x, g| x ^ g)),
        loopy_value: None,
        score: None,
        remoteness: None,
        remoteness_note: Some("not computed (Anti-SG play)"),
        draw_level: None,
        draw_remoteness: None,
        play: Play::Misere,
        winning_moves: rating
            .moves
            .into_iter()
            .map(|m| MoveReport {
                description: m.describe_in(parts_count),
                position: m.position.to_json(),
                display: m.position.to_string(),
                text: m.text,
                component: m.component,
            })
            .collect(),
        winning_moves_omitted: rating.omitted,
        misere_rule: Some("anti-sg"),
        misere_note: Some(
            "the SJ theorem in general form: the game ends when every summand's nim value is 0, and the player who moved last loses".into(),
        ),
        variant: Some("anti-sg"),
    })
}

/// With outcome `D`, what kind of draw `value` (the value for the player to move, or for the
/// mover of a move) says it is: `tie` (a finished game with no winner) or `loop` (infinite
/// play, also when the value does not tell).
pub fn draw_kind(outcome: Outcome, value: Option<Value>) -> Option<&'static str> {
    match outcome {
        Outcome::D => value.unwrap_or(Value::Draw).draw_kind(),
        Outcome::N | Outcome::P => None,
    }
}

/// What `sprague value` reports on any position: [`value`]'s report, or for a partizan
/// position [`partizan::value`]'s. Serialises as the report itself.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// An impartial sum, a board or a scored game.
    Value(ValueReport),
    /// A partizan sum.
    Partizan(partizan::PartizanReport),
}

/// The report of `sprague value` on `position`: [`partizan::value`] for partizan sums (in
/// normal play only), else [`value`].
///
/// # Errors
/// As for those; [`Error::Unsupported`] for misère play of a partizan sum.
pub fn answer(position: &Position, play: Play) -> Result<Answer> {
    if !position.is_partizan() {
        return Ok(Answer::Value(value(position, play)?));
    }
    check_partizan_play(position, play)?;
    Ok(Answer::Partizan(partizan::value(position)?))
}

/// What `sprague moves` reports on any position: [`moves`]'s report, or for a partizan
/// position [`partizan::moves`]'s.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum MovesAnswer {
    /// An impartial sum, a board or a scored game.
    Moves(MovesReport),
    /// A partizan sum: each player's moves.
    Partizan(partizan::PartizanMoves),
}

/// The report of `sprague moves` on `position`: [`partizan::moves`] for partizan sums (in
/// normal play only), else [`moves`].
///
/// # Errors
/// As for those; [`Error::Unsupported`] for misère play of a partizan sum.
pub fn moves_answer(position: &Position, play: Play) -> Result<MovesAnswer> {
    if !position.is_partizan() {
        return Ok(MovesAnswer::Moves(moves(position, play)?));
    }
    check_partizan_play(position, play)?;
    Ok(MovesAnswer::Partizan(partizan::moves(position)?))
}

/// Misère play of partizan sums is not supported.
fn check_partizan_play(position: &Position, play: Play) -> Result<()> {
    if play == Play::Misere {
        return Err(Error::Unsupported(format!(
            "{} is partizan: misère play of partizan games is not supported",
            position.game()
        )));
    }
    Ok(())
}

/// Every option of `position` with its outcome and value.
///
/// # Errors
/// As for [`rate`].
pub fn moves(position: &Position, play: Play) -> Result<MovesReport> {
    let rating = rate(position, play, Which::All)?;
    let parts = position.parts().len();
    Ok(MovesReport {
        game: position.game(),
        position: position.to_json(),
        moves: rating
            .moves
            .into_iter()
            .map(|m| OptionReport::new(m, parts))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use crate::erased::Parsed;
    use crate::quotient::testing::{sums, Oracle};
    use std::collections::HashSet;

    /// The quotient rule, forced (the SJ rule goes first in `value`), agrees with plain misère
    /// search on every sum of up to four heaps of 1..=12: outcome, and the winning moves as the
    /// sums they reach.
    #[test]
    fn the_quotient_rule_agrees_with_plain_search() {
        let catalog = Catalog::default();
        for spec in ["kayles", "0.75", "dawson", "4.7", "0.15"] {
            let game = catalog.game(spec).unwrap();
            let rules = game.heap().unwrap().heap_rules().unwrap();
            let mut oracle = Oracle::new(rules.as_ref(), 12);
            for heaps in sums(4, 12).into_iter().filter(|s| !s.is_empty()) {
                let words: Vec<String> = heaps.iter().map(u64::to_string).collect();
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                let Ok(Parsed::Parts(segment)) = game.parse(&words) else {
                    panic!("{spec} {heaps:?} parses")
                };
                let position = Position::Sum(vec![segment]);
                let parts = position.parts();
                let Ok(Some(q)) = QuotientSum::of(&parts) else {
                    panic!("{spec}: no quotient for heaps to 12")
                };
                let expected = oracle.outcome(&heaps);
                assert_eq!(q.outcome_of(q.whole), expected, "{spec} {heaps:?}");
                let rule = MisereRule::Quotient(q);
                let rating = rate_misere_by(
                    &position,
                    Which::Winning,
                    rule,
                    &mut SumSearch::new(Play::Misere, 0, Budget::unlimited()),
                )
                .unwrap();
                let found: HashSet<Vec<u64>> = rating
                    .moves
                    .iter()
                    .map(|m| sorted_heaps(&m.position))
                    .collect();
                let mut winning = HashSet::new();
                for (i, &h) in heaps.iter().enumerate() {
                    for leaves in rules.options(h) {
                        let mut next: Vec<u64> = heaps[..i].to_vec();
                        next.extend(&heaps[i + 1..]);
                        next.extend(leaves.into_iter().filter(|&x| x > 0));
                        next.sort_unstable();
                        if oracle.outcome(&next) == Outcome::P {
                            winning.insert(next);
                        }
                    }
                }
                assert_eq!(found, winning, "{spec} {heaps:?}");
            }
        }
    }

    fn sorted_heaps(position: &Position) -> Vec<u64> {
        let mut heaps: Vec<u64> = position
            .parts()
            .iter()
            .map(|p| p.misere_heap().expect("a heap").0)
            .collect();
        heaps.sort_unstable();
        heaps
    }
}
