//! Retrograde analysis of games whose positions rank into a dense index, tier by tier.
//!
//! A game implements [`TieredGame`]: its positions are split into *tiers* (for boards, by the
//! number of pieces), each ranked into `0..tier_size`. A move from tier `t` leads to tier `t` or a
//! later tier, so the tiers are solved from the last to the first. Inside a tier:
//! 1. every position is scanned once: terminal positions are decided, and the values of children
//!    in later (already solved) tiers are folded in;
//! 2. if moves stay inside the tier (a *loopy* tier), an undecided-children counter per position
//!    and frontiers ordered by remoteness finish the job: losses, then wins at each remoteness,
//!    then ties; whatever is never decided is a draw.
//!
//! Parents inside a tier come from the game's un-moves ([`TieredGame::parents`]) when it has
//! them, else from a reverse graph the solver stores for that tier only.
//!
//! # Values and remoteness
//! Every position gets a 16-bit [`Record`]: a [`Value`] for the player to move (2 bits) and a
//! remoteness (14 bits). As in GamesmanOne:
//! - a terminal position has remoteness 0; a position with no move and no terminal result is a
//!   loss (normal play);
//! - a win is 1 + the least remoteness among its losing options (win fastest);
//! - a loss is 1 + the greatest remoteness among its options, all wins (lose slowest);
//! - a tie (no losing option, some tying option) is 1 + the least remoteness among its tying
//!   options: a tie is preferred to a draw, and reached as fast as possible;
//! - a draw (play never ends) has no remoteness.
//!
//! # Symmetry
//! [`TieredGame::canonical`] maps a position to the representative of its symmetry class. Only
//! canonical positions are solved; queries canonicalise first.
//!
//! # Adding a game
//! - Split positions into tiers so that no move leads to an earlier tier (piece counts usually
//!   do), and rank each tier densely; return `None` from `unrank` for ranks that are not legal.
//! - Say which tiers are loopy ([`TieredGame::is_loopy`]): acyclic tiers are solved in one pass.
//! - Provide un-moves ([`TieredGame::parents`]) for loopy tiers, or the solver stores a reverse
//!   graph of the tier (16 bytes an edge).
//! - Optionally provide [`TieredGame::canonical`] for symmetry.
//! - Test with [`check_consistency`] over each tier, and against a plain search on small cases.
//! - Save and reopen results through a [`crate::solve::store::Store`]; [`Strong`] does it for
//!   queries of single positions.
//!
//! Memory: 2 bytes a rank for the records, plus, while a loopy tier is solved, 1 byte a rank of
//! that tier for the counters and the frontier lists.

use crate::error::{Error, Result};
pub use crate::game::Value;
use crate::game::{Game, Terminal};
use crate::progress::Progress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// The greatest remoteness a [`Record`] can hold.
pub const MAX_REMOTENESS: u16 = 0x3FFE;

/// A game whose positions rank into a dense index split into tiers.
///
/// Implementations must keep [`rank`](TieredGame::rank) and [`unrank`](TieredGame::unrank)
/// inverse on legal positions, and, where they provide un-moves, make
/// [`parents`](TieredGame::parents) the exact inverse of
/// [`children`](TieredGame::children).
pub trait TieredGame: Game<Position: Copy + Send + Sync> + Sync {
    /// The number of tiers.
    fn tier_count(&self) -> usize;

    /// The size of the index space of `tier`.
    fn tier_size(&self, tier: usize) -> u64;

    /// The position of rank `index` in `tier`, or `None` when no legal position has that rank.
    fn unrank(&self, tier: usize, index: u64) -> Option<Self::Position>;

    /// The tier and rank of a legal position.
    fn rank(&self, position: &Self::Position) -> (usize, u64);

    /// The start position.
    fn start(&self) -> Self::Position;

    /// The result if the game is over, for the player to move.
    fn terminal(&self, position: &Self::Position) -> Option<Terminal>;

    /// Appends every child (position after one move) of a non-terminal position to `out`.
    /// Children lie in the same tier or a later one.
    fn children(&self, position: &Self::Position, out: &mut Vec<Self::Position>);

    /// Whether [`parents`](TieredGame::parents) is implemented. Without un-moves, the solver
    /// stores a reverse graph for each loopy tier.
    fn has_parents(&self) -> bool {
        false
    }

    /// Appends every position that has `position` as a child (at least those in the same
    /// tier). Parents must be positions that [`rank`](TieredGame::rank) accepts; they may be
    /// terminal or illegal-but-rankable (their records are never undecided, so they are
    /// ignored), and duplicates are harmless.
    fn parents(&self, _position: &Self::Position, _out: &mut Vec<Self::Position>) {}

    /// Appends the parents that lie in `position`'s own tier (the only ones the solver uses).
    /// The default lists every parent; games override it to skip the rest cheaply.
    fn parents_in_tier(&self, position: &Self::Position, out: &mut Vec<Self::Position>) {
        self.parents(position, out)
    }

    /// Whether a move can stay inside `tier`. `false` lets the solver decide the tier in one
    /// pass, without counters or frontiers.
    fn is_loopy(&self, _tier: usize) -> bool {
        true
    }

    /// The representative of the position's symmetry class (the position itself by default).
    fn canonical(&self, position: &Self::Position) -> Self::Position {
        *position
    }
}

/// A solved position: value (2 bits) and remoteness (14 bits) in one `u16`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record(pub u16);

pub(crate) const WIN: u16 = 1 << 14;
pub(crate) const LOSE: u16 = 2 << 14;
pub(crate) const TIE: u16 = 3 << 14;
pub(crate) const KIND: u16 = 3 << 14;
pub(crate) const REM: u16 = !KIND;
/// Ranks with no legal or canonical position.
pub(crate) const INVALID: u16 = 0xFFFF;
/// Draw, and during the solve "undecided" (the low bits then hold a remoteness floor).
pub(crate) const DRAW: u16 = 0;

impl Record {
    /// A record for `value` at `remoteness` (ignored for draws).
    pub const fn new(value: Value, remoteness: u16) -> Record {
        match value {
            Value::Win => Record(WIN | remoteness),
            Value::Lose => Record(LOSE | remoteness),
            Value::Tie => Record(TIE | remoteness),
            Value::Draw => Record(DRAW),
        }
    }

    /// Whether the rank holds a solved legal position.
    pub const fn is_valid(self) -> bool {
        self.0 != INVALID
    }

    /// The value for the player to move.
    pub const fn value(self) -> Value {
        match self.0 & KIND {
            WIN => Value::Win,
            LOSE => Value::Lose,
            TIE => Value::Tie,
            _ => Value::Draw,
        }
    }

    /// The remoteness; `None` for draws.
    pub const fn remoteness(self) -> Option<u16> {
        match self.value() {
            Value::Draw => None,
            _ => Some(self.0 & REM),
        }
    }

    /// The record of a position with `terminal` (if the game is over there) and the records
    /// of its children: what the retrograde equations give, which tests use as an oracle.
    /// Children that are all wins for the opponent (or none) make a loss.
    ///
    /// ```
    /// use sprague::solve::tiered::{Record, Value};
    /// let children = [Record::new(Value::Win, 3), Record::new(Value::Lose, 4)];
    /// assert_eq!(Record::from_children(None, &children), Record::new(Value::Win, 5));
    /// ```
    pub fn from_children(terminal: Option<Terminal>, children: &[Record]) -> Record {
        match terminal {
            Some(Terminal::Win) => return Record::new(Value::Win, 0),
            Some(Terminal::Loss) => return Record::new(Value::Lose, 0),
            Some(Terminal::Tie) => return Record::new(Value::Tie, 0),
            None => {}
        }
        let remoteness = |v: Value| {
            children
                .iter()
                .filter(move |r| r.value() == v)
                .filter_map(|r| r.remoteness())
        };
        if let Some(m) = remoteness(Value::Lose).min() {
            Record::new(Value::Win, m + 1)
        } else if children.iter().all(|r| r.value() == Value::Win) {
            Record::new(
                Value::Lose,
                remoteness(Value::Win).max().map_or(0, |m| m + 1),
            )
        } else if let Some(m) = remoteness(Value::Tie).min() {
            Record::new(Value::Tie, m + 1)
        } else {
            Record::new(Value::Draw, 0)
        }
    }
}

/// Figures of one solve.
#[derive(Clone, Debug, Default)]
pub struct SolveStats {
    /// The size of the index space (every tier).
    pub indices: u64,
    /// Legal canonical positions solved.
    pub positions: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Peak bytes the solver held: records, counters and reverse graphs.
    pub peak_bytes: u64,
    /// Worker threads used.
    pub threads: usize,
    /// CPU time of the whole process during the solve (user + system), where the system
    /// reports it (Linux); other threads of the process count too.
    pub cpu_seconds: Option<f64>,
}

/// The CPU time (user + system) this process has used so far, on Linux.
pub fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // Clock ticks are 100 a second on every Linux configuration in practice.
    Some((utime + stime) / 100.0)
}

impl SolveStats {
    /// Positions solved per second.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Peak bytes per index of the space.
    pub fn bytes_per_position(&self) -> f64 {
        self.peak_bytes as f64 / (self.indices.max(1)) as f64
    }
}

/// The records of a whole game, indexed tier by tier.
pub struct Solution {
    offsets: Vec<u64>,
    records: Vec<u16>,
    /// Figures of the solve that produced this solution.
    pub stats: SolveStats,
}

impl std::fmt::Debug for Solution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solution")
            .field("tier_sizes", &self.tier_sizes())
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl Solution {
    /// The bytes its tables hold.
    pub fn bytes(&self) -> u64 {
        (self.records.capacity() * 2 + self.offsets.capacity() * 8) as u64
    }

    /// Builds a solution from raw records (for databases). `tier_sizes` gives the layout.
    ///
    /// # Errors
    /// [`Error::Internal`] when the record count does not match the layout.
    pub fn from_records(tier_sizes: &[u64], records: Vec<u16>) -> Result<Solution> {
        let offsets = offsets(tier_sizes)?;
        if *offsets.last().unwrap_or(&0) != records.len() as u64 {
            return Err(Error::Internal(
                "record count does not match the tiers".into(),
            ));
        }
        let stats = SolveStats {
            indices: records.len() as u64,
            positions: records.iter().filter(|&&r| r != INVALID).count() as u64,
            ..SolveStats::default()
        };
        Ok(Solution {
            offsets,
            records,
            stats,
        })
    }

    /// The sizes of the tiers.
    pub fn tier_sizes(&self) -> Vec<u64> {
        self.offsets.windows(2).map(|w| w[1] - w[0]).collect()
    }

    /// Every record, tier after tier.
    pub fn records(&self) -> &[u16] {
        &self.records
    }

    /// The record of the rank `index` in `tier`.
    pub fn record_at(&self, tier: usize, index: u64) -> Record {
        Record(self.records[(self.offsets[tier] + index) as usize])
    }

    /// The record of a legal position of `game` (canonicalised first).
    pub fn record<G: TieredGame>(&self, game: &G, position: &G::Position) -> Record {
        let (tier, index) = game.rank(&game.canonical(position));
        self.record_at(tier, index)
    }
}

pub(crate) fn offsets(sizes: &[u64]) -> Result<Vec<u64>> {
    let mut out = vec![0u64];
    for &s in sizes {
        let next = out
            .last()
            .copied()
            .unwrap_or(0)
            .checked_add(s)
            .ok_or_else(|| Error::Limit("the index space exceeds 2^64 positions".into()))?;
        out.push(next);
    }
    Ok(out)
}

/// The size of the index space and a memory estimate in bytes for solving `game`.
///
/// # Errors
/// [`Error::Limit`] when the space overflows 64 bits.
pub fn memory_estimate<G: TieredGame>(game: &G) -> Result<(u64, u64)> {
    let sizes: Vec<u64> = (0..game.tier_count()).map(|t| game.tier_size(t)).collect();
    let total = *offsets(&sizes)?.last().unwrap_or(&0);
    let loopy_max = (0..game.tier_count())
        .filter(|&t| game.is_loopy(t))
        .map(|t| sizes[t])
        .max()
        .unwrap_or(0);
    let reverse = if game.has_parents() { 0 } else { 16 };
    let bytes = total
        .saturating_mul(2)
        .saturating_add(loopy_max.saturating_mul(1 + reverse));
    Ok((total, bytes))
}

/// Where a solve keeps the tiers it has finished, so that a run killed part way resumes from
/// the last finished tier ([`solve_with`]). A tier's records depend only on the later tiers, so
/// a run that reopens tiers `K..T` and solves `K-1` down to 0 writes the same records as one
/// that solves them all.
pub trait Checkpoints: Sync {
    /// The records of `tier` (`size` ranks) saved by an earlier run, or `None` when none were
    /// saved.
    ///
    /// # Errors
    /// [`Error::File`] naming the file when a saved tier is refused (damaged, for another game
    /// or layout); the solver then reports it and solves the tier again.
    fn load(&self, tier: usize, size: u64) -> Result<Option<Vec<u16>>>;

    /// Keeps the finished records of `tier`.
    ///
    /// # Errors
    /// Whatever keeping them fails with; the solve stops with it.
    fn save(&self, tier: usize, records: &[u16]) -> Result<()>;
}

/// Solves every position of `game` with retrograde analysis.
///
/// `threads`: the number of worker threads (`None`: rayon's default). `max_bytes`: refuse with
/// [`Error::Limit`] when the memory estimate exceeds it.
///
/// # Errors
/// [`Error::Limit`] for games past `max_bytes` or remoteness past [`MAX_REMOTENESS`];
/// [`Error::Internal`] when the game's ranking or un-moves are inconsistent.
pub fn solve<G: TieredGame>(
    game: &G,
    threads: Option<usize>,
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<Solution> {
    solve_with(game, threads, max_bytes, progress, None)
}

/// [`solve`], keeping each finished tier in `checkpoints` and first reopening the tiers an
/// earlier run kept there: from the last tier down, as long as they verify. A tier that is
/// refused is reported through [`Progress::note`] and solved again, as is every tier before it.
///
/// # Errors
/// As for [`solve`], and whatever [`Checkpoints::save`] returns.
pub fn solve_with<G: TieredGame>(
    game: &G,
    threads: Option<usize>,
    max_bytes: u64,
    progress: &dyn Progress,
    checkpoints: Option<&dyn Checkpoints>,
) -> Result<Solution> {
    let (total, bytes) = memory_estimate(game)?;
    crate::memory::reserve(
        &format!("solving {total} positions"),
        bytes,
        &[
            crate::memory::Cap::Fixed(max_bytes, "strong solves"),
            crate::memory::Cap::Budget(progress.memory_left()),
        ],
    )?;
    with_threads(threads, || {
        Solver::new(game, total, progress).run(checkpoints)
    })?
}

/// Runs `f` on a pool of `threads` worker threads (`None`: rayon's default), so that solves
/// inside it that ask for [`rayon::current_num_threads`] use that many.
///
/// # Errors
/// [`Error::Internal`] when the threads cannot be started.
pub fn with_threads<R: Send>(threads: Option<usize>, f: impl FnOnce() -> R + Send) -> Result<R> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        builder = builder.num_threads(n);
    }
    let pool = builder
        .build()
        .map_err(|e| Error::Internal(format!("cannot start worker threads: {e}")))?;
    Ok(pool.install(f))
}

struct Solver<'a, G: TieredGame> {
    game: &'a G,
    offsets: Vec<u64>,
    records: Vec<AtomicU16>,
    progress: &'a dyn Progress,
    broken: AtomicBool,
    too_remote: AtomicBool,
    /// The progress asked for a stop in the middle of a tier: the tier's work is skipped and
    /// the solve ends with the stop's error, so that a deadline stops a large tier within a
    /// fraction of a second rather than at its end.
    stopped: AtomicBool,
    peak_bytes: u64,
}

/// Positions scanned between two looks at [`Progress::stop_requested`] inside a tier.
const STOP_EVERY: u64 = 4096;

/// What the scan of one position found, for loopy tiers.
enum Scan {
    /// Decided with this record (pushed to the matching frontier).
    Decided(u16),
    /// Waiting: the counter of undecided children, pending win and tie levels.
    Pending {
        counter: u8,
        win_at: Option<u16>,
        tie_at: Option<u16>,
    },
    /// Nothing to do (invalid, or a draw fixed at the scan).
    Skip,
}

/// Per-level lists of global indices.
#[derive(Default)]
pub(crate) struct Levels(Vec<Vec<u64>>);

impl Levels {
    pub(crate) fn push(&mut self, level: u16, g: u64) {
        let level = level as usize;
        if self.0.len() <= level {
            self.0.resize_with(level + 1, Vec::new);
        }
        self.0[level].push(g);
    }
    pub(crate) fn take(&mut self, level: usize) -> Vec<u64> {
        self.0
            .get_mut(level)
            .map(std::mem::take)
            .unwrap_or_default()
    }
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }
    /// Moves every entry of `other` to the same level here.
    pub(crate) fn append(&mut self, other: Levels) {
        if self.0.len() < other.0.len() {
            self.0.resize_with(other.0.len(), Vec::new);
        }
        for (a, mut b) in self.0.iter_mut().zip(other.0) {
            a.append(&mut b);
        }
    }
}

pub(crate) fn plus_one(r: u16, flag: &AtomicBool) -> u16 {
    if r >= MAX_REMOTENESS {
        flag.store(true, Relaxed);
        MAX_REMOTENESS
    } else {
        r + 1
    }
}

/// The records of a position's children in later (solved) tiers, folded as the retrograde
/// equations need them.
#[derive(Clone, Copy, Default)]
pub(crate) struct Fold {
    min_lose: Option<u16>,
    max_win: Option<u16>,
    min_tie: Option<u16>,
    /// Some child is not a win for the opponent: the position cannot be a loss.
    blocked: bool,
}

/// What a scanned position's children decide.
pub(crate) enum Settled {
    /// Its record (a win, loss or tie).
    Decided(u16),
    /// A draw: no child stays in the tier, and none decides otherwise.
    Draw,
    /// Children inside the tier are still to come: `counter` children (and one more if some
    /// later child blocks a loss) must turn out wins for it to lose; a loss is at least
    /// `floor` away; a later losing or tying child makes it win at `win_at` or tie at `tie_at`
    /// unless the tier decides sooner.
    Pending {
        counter: usize,
        floor: u16,
        win_at: Option<u16>,
        tie_at: Option<u16>,
    },
}

impl Fold {
    /// Folds in the record of one child.
    pub(crate) fn add(&mut self, r: u16) {
        let rem = r & REM;
        match r & KIND {
            WIN => self.max_win = Some(self.max_win.map_or(rem, |m| m.max(rem))),
            LOSE => {
                self.min_lose = Some(self.min_lose.map_or(rem, |m| m.min(rem)));
                self.blocked = true;
            }
            TIE => {
                self.min_tie = Some(self.min_tie.map_or(rem, |m| m.min(rem)));
                self.blocked = true;
            }
            _ => self.blocked = true,
        }
    }

    /// What the folded children decide, given `in_tier` distinct children inside the tier;
    /// `too_remote` is raised when a remoteness passes [`MAX_REMOTENESS`].
    pub(crate) fn settle(&self, in_tier: usize, too_remote: &AtomicBool) -> Settled {
        let bump = |r: u16| plus_one(r, too_remote);
        if in_tier == 0 {
            return if let Some(l) = self.min_lose {
                Settled::Decided(WIN | bump(l))
            } else if !self.blocked {
                // Every option is a win for the opponent (or there is none: a loss now).
                Settled::Decided(LOSE | self.max_win.map_or(0, bump))
            } else if let Some(t) = self.min_tie {
                Settled::Decided(TIE | bump(t))
            } else {
                Settled::Draw
            };
        }
        Settled::Pending {
            counter: in_tier + usize::from(self.blocked),
            floor: self.max_win.map_or(0, bump),
            win_at: self.min_lose.map(bump),
            tie_at: self.min_tie.map(bump),
        }
    }
}

impl<'a, G: TieredGame> Solver<'a, G> {
    fn new(game: &'a G, total: u64, progress: &'a dyn Progress) -> Self {
        let sizes: Vec<u64> = (0..game.tier_count()).map(|t| game.tier_size(t)).collect();
        let offsets = offsets(&sizes).unwrap_or_default();
        let records = (0..total)
            .into_par_iter()
            .map(|_| AtomicU16::new(INVALID))
            .collect();
        Solver {
            game,
            offsets,
            records,
            progress,
            broken: AtomicBool::new(false),
            too_remote: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
            peak_bytes: total * 2,
        }
    }

    fn global(&self, position: &G::Position) -> (usize, u64) {
        let (tier, index) = self.game.rank(&self.game.canonical(position));
        (tier, self.offsets[tier] + index)
    }

    /// Reopens the tiers an earlier run finished, from the last one down while they verify;
    /// returns how many.
    fn reopen(&self, checkpoints: &dyn Checkpoints) -> usize {
        let tiers = self.game.tier_count();
        let mut done = 0;
        for tier in (0..tiers).rev() {
            let range = self.offsets[tier] as usize..self.offsets[tier + 1] as usize;
            match checkpoints.load(tier, range.len() as u64) {
                Ok(Some(records)) if records.len() == range.len() => {
                    self.records[range]
                        .par_iter()
                        .zip(records.par_iter())
                        .for_each(|(cell, &r)| cell.store(r, Relaxed));
                    done += 1;
                }
                Ok(_) => break,
                Err(e) => {
                    self.progress.note(&format!(
                        "{e}; solving tier {tier} and those before it again"
                    ));
                    break;
                }
            }
        }
        if done == tiers && tiers > 0 {
            self.progress.note(&format!(
                "resuming after tier {tiers} of {tiers}: an earlier run finished every tier"
            ));
        } else if done > 0 {
            self.progress.note(&format!(
                "resuming from tier {} of {tiers}: {done} finished by an earlier run",
                done + 1
            ));
        }
        done
    }

    /// The finished records of `tier`, for its checkpoint.
    fn tier_records(&self, tier: usize) -> Vec<u16> {
        self.records[self.offsets[tier] as usize..self.offsets[tier + 1] as usize]
            .par_iter()
            .map(|cell| cell.load(Relaxed))
            .collect()
    }

    fn run(mut self, checkpoints: Option<&dyn Checkpoints>) -> Result<Solution> {
        let start = Instant::now();
        let cpu_start = process_cpu_seconds();
        let tiers = self.game.tier_count();
        let reopened = checkpoints.map_or(0, |c| self.reopen(c));
        self.progress.start("solving tiers", tiers as u64);
        if reopened > 0 {
            self.progress.advance(reopened as u64, "");
        }
        for (done, tier) in (0..tiers).rev().enumerate().skip(reopened) {
            crate::progress::check(self.progress)?;
            if self.game.is_loopy(tier) {
                self.solve_loopy(tier)?;
            } else {
                self.solve_acyclic(tier);
            }
            if self.stopped.load(Relaxed) {
                return Err(self.progress.stop_error());
            }
            if self.broken.load(Relaxed) {
                return Err(Error::Internal(format!(
                    "tier {tier}: a child ranks to an unsolved or illegal index; the game's ranking is inconsistent"
                )));
            }
            if self.too_remote.load(Relaxed) {
                return Err(Error::Limit(format!(
                    "remoteness exceeds {MAX_REMOTENESS}, the most a record holds"
                )));
            }
            if let Some(c) = checkpoints {
                c.save(tier, &self.tier_records(tier))?;
            }
            self.progress.advance(done as u64 + 1, "");
        }
        self.progress.finish();
        let records: Vec<u16> = self
            .records
            .into_iter()
            .map(AtomicU16::into_inner)
            .collect();
        let positions = records.par_iter().filter(|&&r| r != INVALID).count() as u64;
        Ok(Solution {
            stats: SolveStats {
                indices: records.len() as u64,
                positions,
                elapsed: start.elapsed(),
                peak_bytes: self.peak_bytes,
                threads: rayon::current_num_threads(),
                cpu_seconds: cpu_start.zip(process_cpu_seconds()).map(|(a, b)| b - a),
            },
            offsets: self.offsets,
            records,
        })
    }

    /// Scans one position: folds in children of later tiers, counts children in `tier`.
    /// `in_tier` receives the in-tier children (global indices), deduplicated.
    fn scan(
        &self,
        tier: usize,
        index: u64,
        buffer: &mut Vec<G::Position>,
        ranks: &mut Vec<(usize, u64)>,
        in_tier: &mut Vec<u64>,
    ) -> Scan {
        in_tier.clear();
        if index.is_multiple_of(STOP_EVERY) && self.progress.stop_requested() {
            self.stopped.store(true, Relaxed);
        }
        if self.stopped.load(Relaxed) {
            return Scan::Skip;
        }
        let Some(p) = self.game.unrank(tier, index) else {
            return Scan::Skip;
        };
        if self.game.canonical(&p) != p {
            return Scan::Skip;
        }
        match self.game.terminal(&p) {
            Some(Terminal::Win) => return Scan::Decided(WIN),
            Some(Terminal::Loss) => return Scan::Decided(LOSE),
            Some(Terminal::Tie) => return Scan::Decided(TIE),
            None => {}
        }
        buffer.clear();
        self.game.children(&p, buffer);
        // Only in-tier children need deduplicating (they are counted); a repeated child of a
        // later tier changes no minimum, maximum or flag.
        ranks.clear();
        ranks.extend(buffer.iter().map(|c| self.global(c)));
        let mut fold = Fold::default();
        for &(t, g) in ranks.iter() {
            if t == tier {
                in_tier.push(g);
                continue;
            }
            if t < tier {
                self.broken.store(true, Relaxed);
                continue;
            }
            let r = self.records[g as usize].load(Relaxed);
            if r == INVALID {
                self.broken.store(true, Relaxed);
                continue;
            }
            fold.add(r);
        }
        in_tier.sort_unstable();
        in_tier.dedup();
        match fold.settle(in_tier.len(), &self.too_remote) {
            Settled::Decided(record) => Scan::Decided(record),
            Settled::Draw => {
                self.records[(self.offsets[tier] + index) as usize].store(DRAW, Relaxed);
                Scan::Skip
            }
            Settled::Pending {
                counter,
                floor,
                win_at,
                tie_at,
            } => {
                let Ok(counter) = u8::try_from(counter) else {
                    self.broken.store(true, Relaxed);
                    return Scan::Skip;
                };
                // While undecided, the record holds the floor of a loss's remoteness.
                self.records[(self.offsets[tier] + index) as usize].store(DRAW | floor, Relaxed);
                Scan::Pending {
                    counter,
                    win_at,
                    tie_at,
                }
            }
        }
    }

    fn solve_acyclic(&self, tier: usize) {
        let size = self.game.tier_size(tier);
        let base = self.offsets[tier];
        (0..size).into_par_iter().for_each_init(
            || (Vec::new(), Vec::new(), Vec::new()),
            |(buffer, ranks, in_tier), index| {
                if let Scan::Decided(r) = self.scan(tier, index, buffer, ranks, in_tier) {
                    self.records[(base + index) as usize].store(r, Relaxed);
                }
                if !in_tier.is_empty() {
                    // The game promised no move stays in this tier.
                    self.broken.store(true, Relaxed);
                }
            },
        );
    }

    fn solve_loopy(&mut self, tier: usize) -> Result<()> {
        let size = self.game.tier_size(tier);
        let base = self.offsets[tier];
        let counters: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(0)).collect();
        let use_parents = self.game.has_parents();

        // Scan: decide what can be decided, collect frontiers and (without un-moves) edges.
        #[derive(Default)]
        struct Found {
            lose: Vec<(u16, u64)>,
            win: Vec<(u16, u64)>,
            tie: Vec<(u16, u64)>,
            pending_win: Vec<(u16, u64)>,
            pending_tie: Vec<(u16, u64)>,
            edges: Vec<(u64, u64)>,
        }
        let found = (0..size)
            .into_par_iter()
            .fold(
                // Boxed, so that the fold moves a pointer rather than nine vectors an index.
                || Box::new((Found::default(), Vec::new(), Vec::new(), Vec::new())),
                |mut state, index| {
                    let (found, buffer, ranks, in_tier) = &mut *state;
                    let g = base + index;
                    match self.scan(tier, index, buffer, ranks, in_tier) {
                        Scan::Decided(r) => {
                            self.records[g as usize].store(r, Relaxed);
                            let level = r & REM;
                            match r & KIND {
                                WIN => found.win.push((level, g)),
                                LOSE => found.lose.push((level, g)),
                                _ => found.tie.push((level, g)),
                            }
                        }
                        Scan::Pending {
                            counter,
                            win_at,
                            tie_at,
                        } => {
                            counters[index as usize].store(counter, Relaxed);
                            if let Some(l) = win_at {
                                found.pending_win.push((l, g));
                            }
                            if let Some(l) = tie_at {
                                found.pending_tie.push((l, g));
                            }
                            if !use_parents {
                                found.edges.extend(in_tier.iter().map(|&c| (c, g)));
                            }
                        }
                        Scan::Skip => {}
                    }
                    state
                },
            )
            .map(|state| state.0)
            .reduce(Found::default, |mut a, mut b| {
                a.lose.append(&mut b.lose);
                a.win.append(&mut b.win);
                a.tie.append(&mut b.tie);
                a.pending_win.append(&mut b.pending_win);
                a.pending_tie.append(&mut b.pending_tie);
                a.edges.append(&mut b.edges);
                a
            });
        if self.broken.load(Relaxed) || self.stopped.load(Relaxed) {
            return Ok(());
        }
        let Found {
            lose,
            win,
            tie,
            pending_win,
            pending_tie,
            mut edges,
        } = found;
        edges.par_sort_unstable();
        let bytes = self.records.len() as u64 * 2 + size + edges.len() as u64 * 16;
        self.peak_bytes = self.peak_bytes.max(bytes);

        let mut lose_levels = Levels::default();
        let mut win_levels = Levels::default();
        let mut tie_levels = Levels::default();
        let mut pending_wins = Levels::default();
        let mut pending_ties = Levels::default();
        for (l, g) in lose {
            lose_levels.push(l, g);
        }
        for (l, g) in win {
            win_levels.push(l, g);
        }
        for (l, g) in tie {
            tie_levels.push(l, g);
        }
        for (l, g) in pending_win {
            pending_wins.push(l, g);
        }
        for (l, g) in pending_tie {
            pending_ties.push(l, g);
        }

        let parents_of = |g: u64, buffer: &mut Vec<G::Position>, out: &mut Vec<u64>| {
            out.clear();
            if use_parents {
                let Some(p) = self.game.unrank(tier, g - base) else {
                    self.broken.store(true, Relaxed);
                    return;
                };
                buffer.clear();
                self.game.parents_in_tier(&p, buffer);
                for q in buffer.iter() {
                    let (t, h) = self.global(q);
                    if t == tier {
                        out.push(h);
                    }
                }
                out.sort_unstable();
                out.dedup();
            } else {
                let from = edges.partition_point(|&(c, _)| c < g);
                let to = edges.partition_point(|&(c, _)| c <= g);
                out.extend(edges[from..to].iter().map(|&(_, q)| q));
            }
        };
        let undecided = |r: u16| r & KIND == DRAW;
        // Sets a position's record unless another pass decided it first.
        let claim = |q: u64, record: u16| {
            let cell = &self.records[q as usize];
            let r = cell.load(Relaxed);
            undecided(r) && cell.compare_exchange(r, record, Relaxed, Relaxed).is_ok()
        };
        // Marks every undecided parent of the frontier with `record` and returns the parents
        // this pass decided (each claimed once, by compare-and-swap).
        let claim_parents = |frontier: &[u64], record: u16| -> Vec<u64> {
            frontier
                .par_iter()
                .fold(
                    || Box::new((Vec::new(), Vec::new(), Vec::new())),
                    |mut state, &g| {
                        let (acc, buffer, out) = &mut *state;
                        parents_of(g, buffer, out);
                        for &q in out.iter() {
                            if claim(q, record) {
                                acc.push(q);
                            }
                        }
                        state
                    },
                )
                .map(|state| state.0)
                .reduce(Vec::new, |mut a, mut b| {
                    a.append(&mut b);
                    a
                })
        };

        // Wins and losses, by remoteness.
        let mut level = 0usize;
        while level
            < lose_levels
                .len()
                .max(win_levels.len())
                .max(pending_wins.len())
        {
            let l16 = level as u16;
            // Out-of-tier losing children decide wins at this level, unless decided sooner.
            let mut wins = win_levels.take(level);
            for g in pending_wins.take(level) {
                if claim(g, WIN | l16) {
                    wins.push(g);
                }
            }
            let losses = lose_levels.take(level);
            let next = plus_one(l16, &self.too_remote);
            let new_wins = claim_parents(&losses, WIN | next);
            for g in new_wins {
                win_levels.push(next, g);
            }
            let new_losses: Vec<(u16, u64)> = wins
                .par_iter()
                .fold(
                    || Box::new((Vec::new(), Vec::new(), Vec::new())),
                    |mut state, &g| {
                        let (acc, buffer, out) = &mut *state;
                        parents_of(g, buffer, out);
                        for &q in out.iter() {
                            let cell = &self.records[q as usize];
                            if !undecided(cell.load(Relaxed)) {
                                continue;
                            }
                            let counter = &counters[(q - base) as usize];
                            if counter.fetch_sub(1, Relaxed) == 1 {
                                let r = cell.load(Relaxed);
                                let rem = (r & REM).max(next);
                                if cell
                                    .compare_exchange(r, LOSE | rem, Relaxed, Relaxed)
                                    .is_ok()
                                {
                                    acc.push((rem, q));
                                }
                            }
                        }
                        state
                    },
                )
                .map(|state| state.0)
                .reduce(Vec::new, |mut a, mut b| {
                    a.append(&mut b);
                    a
                });
            for (l, g) in new_losses {
                lose_levels.push(l, g);
            }
            if self.too_remote.load(Relaxed) || self.broken.load(Relaxed) {
                return Ok(());
            }
            if self.progress.stop_requested() {
                self.stopped.store(true, Relaxed);
                return Ok(());
            }
            level += 1;
        }

        // Ties: a position that can neither win nor be forced to lose ties if it can reach a tie.
        let mut level = 0usize;
        while level < tie_levels.len().max(pending_ties.len()) {
            let l16 = level as u16;
            let mut ties = tie_levels.take(level);
            for g in pending_ties.take(level) {
                if claim(g, TIE | l16) {
                    ties.push(g);
                }
            }
            let next = plus_one(l16, &self.too_remote);
            let new_ties = claim_parents(&ties, TIE | next);
            for g in new_ties {
                tie_levels.push(next, g);
            }
            if self.too_remote.load(Relaxed) || self.broken.load(Relaxed) {
                return Ok(());
            }
            level += 1;
        }

        // Whatever is still undecided is a draw.
        self.records[base as usize..(base + size) as usize]
            .par_iter()
            .for_each(|cell| {
                let r = cell.load(Relaxed);
                if r != INVALID && undecided(r) {
                    cell.store(DRAW, Relaxed);
                }
            });
        Ok(())
    }
}

/// Counts the positions reachable from the game's start (canonical positions under symmetry),
/// the start included, with a parallel breadth-first search.
pub fn reachable<G: TieredGame>(game: &G, threads: Option<usize>) -> Result<u64> {
    reachable_weighted(game, threads, |_| 1).map(|(count, _)| count)
}

/// [`reachable`], also summing `weight` over the positions reached (for example the size of
/// each canonical position's symmetry class, to count positions without symmetry reduction).
/// Returns the count and the sum.
pub fn reachable_weighted<G: TieredGame>(
    game: &G,
    threads: Option<usize>,
    weight: impl Fn(&G::Position) -> u64 + Sync,
) -> Result<(u64, u64)> {
    let sizes: Vec<u64> = (0..game.tier_count()).map(|t| game.tier_size(t)).collect();
    let offsets = offsets(&sizes)?;
    let total = *offsets.last().unwrap_or(&0);
    let seen: Vec<AtomicU64> = (0..total.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    let mark = |p: &G::Position| -> Option<u64> {
        let (t, i) = game.rank(&game.canonical(p));
        let g = offsets[t] + i;
        let bit = 1u64 << (g % 64);
        (seen[(g / 64) as usize].fetch_or(bit, Relaxed) & bit == 0).then_some(g)
    };
    with_threads(threads, || {
        let start = game.canonical(&game.start());
        mark(&start);
        let mut sum = weight(&start);
        let mut frontier = vec![start];
        let mut count = 1u64;
        while !frontier.is_empty() {
            let (next, weights) = frontier
                .par_iter()
                .fold(
                    || Box::new((Vec::new(), Vec::new(), 0u64)),
                    |mut state, p| {
                        let (acc, buffer, w) = &mut *state;
                        if game.terminal(p).is_none() {
                            buffer.clear();
                            game.children(p, buffer);
                            for c in buffer.iter() {
                                let c = game.canonical(c);
                                if mark(&c).is_some() {
                                    *w += weight(&c);
                                    acc.push(c);
                                }
                            }
                        }
                        state
                    },
                )
                .map(|state| (state.0, state.2))
                .reduce(
                    || (Vec::new(), 0),
                    |(mut a, wa), (mut b, wb)| {
                        a.append(&mut b);
                        (a, wa + wb)
                    },
                );
            frontier = next;
            sum += weights;
            count += frontier.len() as u64;
        }
        Ok((count, sum))
    })?
}

/// Checks a game's ranking and un-moves at the given ranks of `tier`, as a sanity test for new
/// games: unranking then ranking is the identity; every child of a position has it among its
/// parents; every legal non-terminal parent has it among its children (all up to symmetry).
/// Returns how many legal positions were checked.
///
/// # Errors
/// [`Error::Internal`] naming the first violation by tier and rank.
pub fn check_consistency<G: TieredGame>(
    game: &G,
    tier: usize,
    indices: impl IntoIterator<Item = u64>,
) -> Result<u64> {
    let fail = |what: String| Err(Error::Internal(what));
    let legal = |q: &G::Position| {
        let (t, i) = game.rank(q);
        game.unrank(t, i) == Some(*q)
    };
    let (mut checked, mut buffer, mut back) = (0u64, Vec::new(), Vec::new());
    for index in indices {
        let Some(p) = game.unrank(tier, index) else {
            continue;
        };
        if game.rank(&p) != (tier, index) {
            return fail(format!(
                "tier {tier}, rank {index}: unrank then rank differs"
            ));
        }
        checked += 1;
        let canonical = game.canonical(&p);
        if game.terminal(&p).is_none() {
            buffer.clear();
            game.children(&p, &mut buffer);
            for c in &buffer {
                let (ct, ci) = game.rank(c);
                if ct < tier {
                    return fail(format!(
                        "tier {tier}, rank {index}: a child lies in earlier tier {ct}"
                    ));
                }
                if !game.has_parents() {
                    continue;
                }
                back.clear();
                game.parents(c, &mut back);
                if !back.iter().any(|q| game.canonical(q) == canonical) {
                    return fail(format!(
                        "tier {tier}, rank {index}: its child (tier {ct}, rank {ci}) does not list it as a parent"
                    ));
                }
            }
        }
        if game.has_parents() {
            buffer.clear();
            game.parents(&p, &mut buffer);
            for q in &buffer {
                if !legal(q) || game.terminal(q).is_some() {
                    continue;
                }
                back.clear();
                game.children(q, &mut back);
                if !back.iter().any(|c| game.canonical(c) == canonical) {
                    let (qt, qi) = game.rank(q);
                    return fail(format!(
                        "tier {tier}, rank {index}: its parent (tier {qt}, rank {qi}) has no move to it"
                    ));
                }
            }
        }
    }
    Ok(checked)
}

/// An explicit game given by its graph, with vertices grouped into tiers: for tests, for the
/// `solve FILE` style of input and for games too irregular to rank.
///
/// Vertex `v` lies in tier `tier_of[v]`, and edges must not lead to an earlier tier; vertices of
/// a tier are ranked in increasing order.
#[derive(Clone, Debug)]
pub struct ExplicitGame {
    options: Vec<Vec<u32>>,
    terminal: Vec<Option<Terminal>>,
    tier_of: Vec<usize>,
    members: Vec<Vec<u32>>,
    reverse: Option<Vec<Vec<u32>>>,
}

impl ExplicitGame {
    /// A game from each vertex's options, terminal results and tiers.
    ///
    /// # Errors
    /// [`Error::Position`] when lengths differ, an option is out of range, or an edge leads to an
    /// earlier tier.
    pub fn new(
        options: Vec<Vec<u32>>,
        terminal: Vec<Option<Terminal>>,
        tier_of: Vec<usize>,
    ) -> Result<ExplicitGame> {
        let n = options.len();
        let bad = |reason: String| Error::position("explicit game", reason);
        if terminal.len() != n || tier_of.len() != n {
            return Err(bad(
                "options, terminal results and tiers differ in length".into()
            ));
        }
        let tiers = tier_of.iter().max().map_or(0, |t| t + 1);
        let mut members = vec![Vec::new(); tiers];
        for (v, &t) in tier_of.iter().enumerate() {
            members[t].push(v as u32);
        }
        for (v, opts) in options.iter().enumerate() {
            for &w in opts {
                if w as usize >= n {
                    return Err(bad(format!(
                        "vertex {v} has an option {w} past the last vertex"
                    )));
                }
                if tier_of[w as usize] < tier_of[v] {
                    return Err(bad(format!("the move {v} -> {w} leads to an earlier tier")));
                }
            }
        }
        Ok(ExplicitGame {
            options,
            terminal,
            tier_of,
            members,
            reverse: None,
        })
    }

    /// The same game, offering un-moves from a stored reverse graph.
    pub fn with_parents(mut self) -> ExplicitGame {
        let mut reverse = vec![Vec::new(); self.options.len()];
        for (v, opts) in self.options.iter().enumerate() {
            for &w in opts {
                reverse[w as usize].push(v as u32);
            }
        }
        self.reverse = Some(reverse);
        self
    }
}

impl crate::game::Game for ExplicitGame {
    type Position = u32;
}

impl TieredGame for ExplicitGame {
    fn tier_count(&self) -> usize {
        self.members.len()
    }
    fn tier_size(&self, tier: usize) -> u64 {
        self.members[tier].len() as u64
    }
    fn unrank(&self, tier: usize, index: u64) -> Option<u32> {
        self.members[tier].get(index as usize).copied()
    }
    fn rank(&self, v: &u32) -> (usize, u64) {
        let t = self.tier_of[*v as usize];
        (t, self.members[t].partition_point(|&w| w < *v) as u64)
    }
    fn start(&self) -> u32 {
        0
    }
    fn terminal(&self, v: &u32) -> Option<Terminal> {
        self.terminal[*v as usize]
    }
    fn children(&self, v: &u32, out: &mut Vec<u32>) {
        out.extend_from_slice(&self.options[*v as usize]);
    }
    fn has_parents(&self) -> bool {
        self.reverse.is_some()
    }
    fn parents(&self, v: &u32, out: &mut Vec<u32>) {
        if let Some(reverse) = &self.reverse {
            out.extend_from_slice(&reverse[*v as usize]);
        }
    }
}

/// Checks shared by the tests of tiered games (positions as `u64`).
#[cfg(test)]
pub(crate) mod testing {
    use super::{check_consistency, ExplicitGame, Record, Solution, Terminal, TieredGame, Value};
    use rayon::prelude::*;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn random_terminal(rng: &mut Rng) -> Option<Terminal> {
        match rng.below(10) {
            0 => Some(Terminal::Win),
            1 => Some(Terminal::Loss),
            2 => Some(Terminal::Tie),
            _ => None,
        }
    }

    /// A random game on `n` vertices; `loopy` allows edges to any vertex of the same or a later
    /// tier, otherwise only to larger vertices.
    pub(crate) fn random_explicit_game(seed: u64, n: usize, loopy: bool) -> ExplicitGame {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let tiers = 1 + rng.below(4) as usize;
        let mut tier_of: Vec<usize> = (0..n).map(|_| rng.below(tiers as u64) as usize).collect();
        tier_of.sort_unstable();
        let mut options = Vec::new();
        let mut terminal = Vec::new();
        for v in 0..n {
            let degree = rng.below(4);
            let mut opts = Vec::new();
            for _ in 0..degree {
                let w = rng.below(n as u64) as usize;
                let ok = if loopy {
                    tier_of[w] >= tier_of[v]
                } else {
                    w > v
                };
                if ok {
                    opts.push(w as u32);
                }
            }
            options.push(opts);
            terminal.push(random_terminal(&mut rng));
        }
        ExplicitGame::new(options, terminal, tier_of).unwrap()
    }

    /// Unranking then ranking is the identity over every rank of every tier (the whole index
    /// space, in parallel); with `every_rank_legal`, every rank must also unrank.
    pub(crate) fn check_all_ranks<G: TieredGame<Position = u64>>(game: &G, every_rank_legal: bool) {
        for tier in 0..game.tier_count() {
            (0..game.tier_size(tier))
                .into_par_iter()
                .for_each(|i| match game.unrank(tier, i) {
                    Some(p) => assert_eq!(game.rank(&p), (tier, i)),
                    None => assert!(!every_rank_legal, "rank {i} of tier {tier} is not legal"),
                });
        }
    }

    /// The un-moves of the sampled ranks of `tier` invert their moves
    /// ([`check_consistency`]), and `parents_in_tier` gives exactly the parents in the tier.
    pub(crate) fn check_un_moves<G: TieredGame<Position = u64>>(
        game: &G,
        tier: usize,
        samples: &[u64],
    ) {
        check_consistency(game, tier, samples.iter().copied()).unwrap();
        for &i in samples {
            let Some(p) = game.unrank(tier, i) else {
                continue;
            };
            let (mut all, mut inner) = (Vec::new(), Vec::new());
            game.parents(&p, &mut all);
            game.parents_in_tier(&p, &mut inner);
            all.retain(|q| game.rank(q).0 == tier);
            all.sort_unstable();
            inner.sort_unstable();
            assert_eq!(all, inner, "in-tier parents of {p:x}");
        }
    }

    /// The records of an explicit game by naive rounds of value iteration from snapshots
    /// (wins and losses to a fixed point, then ties; the rest are draws): the oracle the fast
    /// solver is tested against. `options[v]` are the children of `v`.
    pub(crate) fn value_iteration(
        terminals: &[Option<Terminal>],
        options: &[Vec<usize>],
    ) -> Vec<Record> {
        let mut value: Vec<Option<Record>> = terminals
            .iter()
            .zip(options)
            .map(|(t, o)| match t {
                Some(Terminal::Win) => Some(Record::new(Value::Win, 0)),
                Some(Terminal::Loss) => Some(Record::new(Value::Lose, 0)),
                Some(Terminal::Tie) => Some(Record::new(Value::Tie, 0)),
                None if o.is_empty() => Some(Record::new(Value::Lose, 0)),
                None => None,
            })
            .collect();
        for ties in [false, true] {
            loop {
                let snapshot = value.clone();
                let mut changed = false;
                for v in 0..options.len() {
                    if snapshot[v].is_some() {
                        continue;
                    }
                    let opts: Vec<Option<Record>> =
                        options[v].iter().map(|&w| snapshot[w]).collect();
                    let of = |kind: Value| {
                        opts.iter()
                            .flatten()
                            .filter(move |r| r.value() == kind)
                            .map(|r| r.remoteness().unwrap())
                    };
                    let new = if ties {
                        of(Value::Tie).min().map(|m| Record::new(Value::Tie, m + 1))
                    } else if let Some(m) = of(Value::Lose).min() {
                        Some(Record::new(Value::Win, m + 1))
                    } else if opts
                        .iter()
                        .all(|o| o.is_some_and(|r| r.value() == Value::Win))
                    {
                        Some(Record::new(Value::Lose, of(Value::Win).max().unwrap() + 1))
                    } else {
                        None
                    };
                    if new.is_some() {
                        value[v] = new;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
        }
        value
            .into_iter()
            .map(|v| v.unwrap_or(Record::new(Value::Draw, 0)))
            .collect()
    }

    /// Checks that the solved records of `samples` satisfy the retrograde equations with respect
    /// to their children's records ([`Record::from_children`]); returns how many were checked.
    pub(crate) fn check_local<G: TieredGame<Position = u64>>(
        game: &G,
        solution: &Solution,
        samples: impl Iterator<Item = u64>,
    ) -> u64 {
        let mut checked = 0;
        for p in samples {
            let r = solution.record(game, &p);
            let mut children = Vec::new();
            if game.terminal(&p).is_none() {
                game.children(&p, &mut children);
            }
            let values: Vec<Record> = children.iter().map(|c| solution.record(game, c)).collect();
            let expected = Record::from_children(game.terminal(&p), &values);
            assert_eq!(r, expected, "position {p:x}");
            checked += 1;
        }
        checked
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    use super::testing::random_explicit_game as random_game;

    /// Plain minimax with memoisation, for acyclic games.
    fn minimax(game: &ExplicitGame, v: u32, memo: &mut HashMap<u32, Record>) -> Record {
        if let Some(&r) = memo.get(&v) {
            return r;
        }
        let mut children = Vec::new();
        if game.terminal(&v).is_none() {
            game.children(&v, &mut children);
        }
        let values: Vec<Record> = children.iter().map(|&c| minimax(game, c, memo)).collect();
        let record = Record::from_children(game.terminal(&v), &values);
        memo.insert(v, record);
        record
    }

    /// A naive fixed point for loopy games: decide in rounds from a snapshot.
    fn rounds(game: &ExplicitGame) -> Vec<Record> {
        let n = game.options.len() as u32;
        let terminals: Vec<Option<Terminal>> = (0..n).map(|v| game.terminal(&v)).collect();
        let options: Vec<Vec<usize>> = game
            .options
            .iter()
            .map(|o| o.iter().map(|&w| w as usize).collect())
            .collect();
        super::testing::value_iteration(&terminals, &options)
    }

    fn solved_records(game: &ExplicitGame, threads: usize) -> Vec<Record> {
        let solution = solve(game, Some(threads), u64::MAX, &()).unwrap();
        (0..game.options.len() as u32)
            .map(|v| solution.record(game, &v))
            .collect()
    }

    #[test]
    fn acyclic_games_agree_with_memoised_minimax() {
        for seed in 1..150 {
            let game = random_game(seed, 1 + (seed as usize % 40), false);
            let mut memo = HashMap::new();
            let expected: Vec<Record> = (0..game.options.len() as u32)
                .map(|v| minimax(&game, v, &mut memo))
                .collect();
            assert_eq!(solved_records(&game, 1), expected, "seed {seed}");
            let with_parents = game.clone().with_parents();
            assert_eq!(solved_records(&with_parents, 2), expected, "seed {seed}");
        }
    }

    #[test]
    fn loopy_games_agree_with_naive_rounds() {
        for seed in 1..200 {
            let game = random_game(seed, 1 + (seed as usize % 50), true);
            let expected = rounds(&game);
            assert_eq!(solved_records(&game, 2), expected, "seed {seed}");
            let with_parents = game.clone().with_parents();
            assert_eq!(solved_records(&with_parents, 1), expected, "seed {seed}");
        }
    }

    #[test]
    fn remoteness_wins_fastest_and_loses_slowest() {
        // 0 -> {1, 2}; 1 is a loss in 0; 2 -> 3 -> 4, and 4 is a loss in 0.
        // 0 wins in 1 by moving to 1, not in 3 through 2.
        let options = vec![vec![1, 2], vec![], vec![3], vec![4], vec![]];
        let game = ExplicitGame::new(options, vec![None; 5], vec![0; 5]).unwrap();
        let r = solved_records(&game, 1);
        assert_eq!(r[0], Record::new(Value::Win, 1));
        assert_eq!(r[2], Record::new(Value::Lose, 2));
        // 0 -> {1, 2}, both wins for the opponent, in 1 and 3: 0 loses in 4, the slower.
        let options = vec![
            vec![1, 2],
            vec![3],
            vec![4],
            vec![],
            vec![5],
            vec![6],
            vec![],
        ];
        let game = ExplicitGame::new(options, vec![None; 7], vec![0; 7]).unwrap();
        let r = solved_records(&game, 2);
        assert_eq!(r[1], Record::new(Value::Win, 1));
        assert_eq!(r[2], Record::new(Value::Win, 3));
        assert_eq!(r[0], Record::new(Value::Lose, 4));
        // A cycle 0 <-> 1 with an exit to a tie: ties in 1 and 2; a bare cycle is a draw.
        let options = vec![vec![1, 2], vec![0], vec![], vec![4], vec![3]];
        let terminal = vec![None, None, Some(Terminal::Tie), None, None];
        let game = ExplicitGame::new(options, terminal, vec![0; 5]).unwrap();
        let r = solved_records(&game, 1);
        assert_eq!(r[0], Record::new(Value::Tie, 1));
        assert_eq!(r[1], Record::new(Value::Tie, 2));
        assert_eq!(r[3].value(), Value::Draw);
        assert_eq!(r[3].remoteness(), None);
    }

    #[test]
    fn reachable_counts_the_start_and_everything_below() {
        let options = vec![vec![1, 2], vec![2], vec![], vec![0]];
        let game = ExplicitGame::new(options, vec![None; 4], vec![0; 4]).unwrap();
        assert_eq!(reachable(&game, Some(1)).unwrap(), 3);
    }

    #[test]
    fn consistency_check_finds_bad_un_moves() {
        let game = random_game(5, 30, true).with_parents();
        for tier in 0..game.tier_count() {
            let n = game.tier_size(tier);
            assert_eq!(check_consistency(&game, tier, 0..n).unwrap(), n);
        }
        let mut broken = game.clone();
        let reverse = broken.reverse.as_mut().unwrap();
        let v = (0..reverse.len())
            .find(|&v| !reverse[v].is_empty())
            .unwrap();
        reverse[v].clear();
        let errors = (0..broken.tier_count())
            .filter(|&t| check_consistency(&broken, t, 0..broken.tier_size(t)).is_err())
            .count();
        assert!(errors > 0);
        let mut broken = game.clone();
        broken.reverse.as_mut().unwrap()[0].push(1);
        broken.options[1].retain(|&w| w != 0);
        let errors = (0..broken.tier_count())
            .filter(|&t| check_consistency(&broken, t, 0..broken.tier_size(t)).is_err())
            .count();
        assert!(errors > 0);
    }

    /// Finished tiers kept in memory; saving fails once `stop_after` tiers are kept, as a
    /// kill would stop the run there.
    struct Kept {
        tiers: std::sync::Mutex<HashMap<usize, Vec<u16>>>,
        stop_after: usize,
    }

    impl Checkpoints for Kept {
        fn load(&self, tier: usize, size: u64) -> Result<Option<Vec<u16>>> {
            let kept = self.tiers.lock().unwrap().get(&tier).cloned();
            assert!(kept.as_ref().is_none_or(|r| r.len() as u64 == size));
            Ok(kept)
        }
        fn save(&self, tier: usize, records: &[u16]) -> Result<()> {
            let mut tiers = self.tiers.lock().unwrap();
            if tiers.len() >= self.stop_after {
                return Err(Error::Internal("killed".into()));
            }
            tiers.insert(tier, records.to_vec());
            Ok(())
        }
    }

    #[derive(Default)]
    struct Notes(std::sync::Mutex<Vec<String>>);

    impl Progress for Notes {
        fn note(&self, message: &str) {
            self.0.lock().unwrap().push(message.to_string());
        }
    }

    /// A solve stopped after any number of finished tiers, then resumed from them, gives the
    /// records of an uninterrupted solve.
    #[test]
    fn a_stopped_solve_resumes_from_its_finished_tiers_with_the_same_records() {
        let mut resumed_runs = 0;
        for seed in 1..80 {
            let game = random_game(seed, 1 + (seed as usize % 60), seed % 3 != 0);
            let game = if seed % 2 == 0 {
                game.with_parents()
            } else {
                game
            };
            let tiers = game.tier_count();
            let straight = solve(&game, Some(2), u64::MAX, &()).unwrap();
            for stop_after in 0..=tiers {
                let kept = Kept {
                    tiers: Default::default(),
                    stop_after,
                };
                let first = solve_with(&game, Some(2), u64::MAX, &(), Some(&kept));
                if stop_after < tiers {
                    assert!(first.is_err(), "seed {seed}: the run stops at a save");
                } else {
                    assert_eq!(first.unwrap().records(), straight.records());
                }
                assert_eq!(kept.tiers.lock().unwrap().len(), stop_after.min(tiers));
                let kept = Kept {
                    tiers: std::sync::Mutex::new(kept.tiers.into_inner().unwrap()),
                    stop_after: usize::MAX,
                };
                let notes = Notes::default();
                let resumed = solve_with(&game, Some(1), u64::MAX, &notes, Some(&kept)).unwrap();
                assert_eq!(
                    resumed.records(),
                    straight.records(),
                    "seed {seed}, stopped after {stop_after} tiers"
                );
                let notes = notes.0.into_inner().unwrap();
                if stop_after == 0 {
                    assert!(notes.is_empty(), "{notes:?}");
                } else if stop_after < tiers {
                    resumed_runs += 1;
                    assert_eq!(
                        notes,
                        [format!(
                            "resuming from tier {} of {tiers}: {stop_after} finished by an earlier run",
                            stop_after + 1
                        )]
                    );
                }
            }
        }
        assert!(resumed_runs > 20, "{resumed_runs}");
    }

    /// A stop asked for in the middle of a large tier ends the solve there, with the stop's
    /// error and no checkpoint of the unfinished tier (the scan that acyclic and loopy tiers
    /// share looks every STOP_EVERY positions).
    #[test]
    fn a_stop_inside_a_tier_ends_the_solve_before_the_tier_does() {
        /// Asks for a stop from its second look on (the first is the look between tiers).
        #[derive(Default)]
        struct StopInside(std::sync::atomic::AtomicU32);
        impl Progress for StopInside {
            fn stop_requested(&self) -> bool {
                self.0.fetch_add(1, Relaxed) >= 1
            }
        }
        let n = 4 * STOP_EVERY as usize;
        for loopy in [false, true] {
            // One tier of paths of 64 positions (cycles when loopy), short enough for a record's
            // remoteness.
            let options: Vec<Vec<u32>> = (0..n)
                .map(|v| match ((v + 1) % 64 != 0, loopy) {
                    (true, _) => vec![v as u32 + 1],
                    (false, true) => vec![(v - 63) as u32],
                    (false, false) => vec![],
                })
                .collect();
            let game = ExplicitGame::new(options, vec![None; n], vec![0; n]).unwrap();
            let plain = solve(&game, Some(2), u64::MAX, &());
            assert!(plain.is_ok(), "{:?}", plain.err());
            let kept = Kept {
                tiers: Default::default(),
                stop_after: usize::MAX,
            };
            let stopped = solve_with(
                &game,
                Some(2),
                u64::MAX,
                &StopInside::default(),
                Some(&kept),
            );
            assert!(matches!(stopped, Err(Error::Stopped(_))), "loopy {loopy}");
            assert!(kept.tiers.lock().unwrap().is_empty());
        }
    }

    /// A refused tier is reported and solved again, with every tier before it.
    #[test]
    fn a_refused_tier_is_solved_again() {
        struct Refusing(Kept);
        impl Checkpoints for Refusing {
            fn load(&self, tier: usize, size: u64) -> Result<Option<Vec<u16>>> {
                if tier == 1 {
                    return Err(Error::Internal("tier 1 is damaged".into()));
                }
                self.0.load(tier, size)
            }
            fn save(&self, tier: usize, records: &[u16]) -> Result<()> {
                self.0.save(tier, records)
            }
        }
        let options = vec![vec![1], vec![2], vec![3], vec![]];
        let game = ExplicitGame::new(options, vec![None; 4], vec![0, 1, 2, 3]).unwrap();
        let straight = solve(&game, Some(1), u64::MAX, &()).unwrap();
        // Every tier is kept, tiers 0 and 1 with wrong records: neither may be reopened.
        let mut kept = HashMap::new();
        for t in 0..4 {
            let r = straight.record_at(t, 0).0;
            kept.insert(t, vec![if t < 2 { r ^ 1 } else { r }]);
        }
        let checkpoints = Refusing(Kept {
            tiers: std::sync::Mutex::new(kept),
            stop_after: usize::MAX,
        });
        let notes = Notes::default();
        let solved = solve_with(&game, Some(1), u64::MAX, &notes, Some(&checkpoints)).unwrap();
        assert_eq!(solved.records(), straight.records());
        let notes = notes.0.into_inner().unwrap();
        assert_eq!(
            notes,
            [
                "internal error: tier 1 is damaged; solving tier 1 and those before it again",
                "resuming from tier 3 of 4: 2 finished by an earlier run"
            ]
        );
    }

    #[test]
    fn memory_limit_is_refused_up_front() {
        let game = random_game(3, 30, true);
        assert!(matches!(
            solve(&game, Some(1), 10, &()),
            Err(Error::Limit(_))
        ));
    }
}
