//! Nim values by search, for impartial games whose positions split into components (Cram,
//! Node Kayles, Chomp).
//!
//! A position's value is the XOR of its components' values, each distinct component valued
//! once. A component's value comes from outcome searches of the component plus a nim heap:
//! it is the least k for which G + *k is a P-position. Each search asks of an option only
//! whether its value lies in a set of candidates, which prunes far more than valuing every
//! option:
//! - at the top, the aspiration search (Beling and Rogalski's "BRAspSet") tries k = 0, 1, 2…
//!   and asks of each option only whether its value is k (the question of Lemoine and
//!   Viennot's "Nimbers are inevitable", 2012);
//! - below, a component is asked for its value within a set R, and keeps the candidates P
//!   (n + 1 values for n options, each option taking one away); it stops as soon as P misses
//!   R (Beling and Rogalski, "On pruning search trees of impartial games", Artificial
//!   Intelligence 283, 2020);
//! - before searching, every option is split into components and each component looked up
//!   (the enhanced transposition cutoff); options whose value is then known leave P at once;
//!   the others are searched easiest first, and of an option of several components only the
//!   hardest is asked a question, the others being valued exactly.
//!
//! - a search that answers "not in R" leaves the values of R it ruled out (of 0 to 7) in
//!   the table, and a later question about the same component leaves them out of its R
//!   (searching nothing when none is left).
//!
//! Values go into a [`Table`] of compact entries under a memory cap (keyed by the game's
//! canonical [code](SplitGame::code) of a component), small components into a second table
//! that rarely forgets; the components that took long to value are also kept apart and saved
//! in a checkpoint ([`crate::file`], kind `NIMS`), so that a killed run resumes. Two threads
//! share the tables and split the top component's options for each k.

mod set;
mod table;

pub use set::NimSet;
pub use table::{Probe, Table};

use crate::budget::Budget;
use crate::error::{Error, Result};
use crate::file::{self, Expected, Kind};
use crate::game::{Impartial, NimValue};
use std::collections::HashMap;
use std::hash::Hash;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock};
use std::time::{Duration, Instant};

/// What a game knows of a component's value without searching it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// The value (a closed form, a symmetry strategy).
    Value(u8),
    /// The value is not 0 (the first player has a symmetry strategy).
    NonZero,
    /// Nothing.
    Unknown,
}

/// A game the search values: its components ("parts") in canonical form, their options split
/// into parts, and compact codes for the tables.
pub trait SplitGame: Send + Sync {
    /// A component, in the canonical form under which equal components are recognised.
    type Part: Clone + Eq + Hash + Send + Sync;

    /// Writes the options of `part` into `out`: each option as its parts (canonical; parts
    /// with no move may be left out), closed by [`OptionSink::end`]; stops when `end` says
    /// so. Options written first are searched first among options of equal weight.
    fn options(&self, part: &Self::Part, out: &mut OptionSink<'_, Self::Part>);

    /// The number of options of `part` (as many as [`SplitGame::options`] writes): the
    /// value is at most this.
    fn option_count(&self, part: &Self::Part) -> usize;

    /// An injective code of the part, of at most 128 bits, under which the tables store it;
    /// `None` keeps the part itself in a map.
    fn code(&self, part: &Self::Part) -> Option<u128>;

    /// How hard the part is to value, for move ordering (cells, vertices); options whose
    /// parts weigh less (by the sum of squares) are searched first.
    fn weight(&self, part: &Self::Part) -> u32;

    /// What is known of the part's value without search.
    fn known(&self, _part: &Self::Part) -> Known {
        Known::Unknown
    }

    /// The name of the game in checkpoint files (a checkpoint is only read back by the same
    /// game).
    fn name(&self) -> String;
}

/// One option of a part being searched: a run of `len` parts from `first` in the thread's
/// stack of parts, with the XOR of the parts already valued.
#[derive(Clone, Copy, Debug)]
struct Opt {
    first: u32,
    len: u32,
    xor: u8,
    weight: u64,
    done: bool,
}

/// Where a game writes the options of a part. Each option is valued as far as the tables
/// know, so that the search can stop listing options early: when the next option starts, so
/// that the table lines of its parts, fetched when they were pushed, arrive meanwhile.
pub struct OptionSink<'a, P> {
    parts: &'a mut Vec<P>,
    opts: &'a mut Vec<Opt>,
    start: usize,
    /// Whether the option closed last (its parts start at `start`) is not valued yet.
    pending: bool,
    /// The tables, and the weights of parts.
    tables: &'a dyn Lookup<P>,
    /// The values the part may still have (Beling and Rogalski's P).
    candidates: NimSet,
    /// The values asked about (R).
    wanted: NimSet,
}

impl<P: Eq> OptionSink<'_, P> {
    /// Adds a part to the option being written.
    #[inline]
    pub fn push(&mut self, part: P) {
        self.finish();
        self.tables.prefetch(&part);
        self.parts.push(part);
    }

    /// Closes the option being written (with no part pushed, an option of value 0);
    /// `false` when the search needs no more options.
    #[inline]
    pub fn end(&mut self) -> bool {
        // An option left open with no part pushed since is valued first.
        self.finish();
        if self.parts.len() == self.start {
            self.value(self.start);
        } else {
            self.pending = true;
        }
        !self.candidates.is_disjoint(&self.wanted)
    }

    /// Values the option left open by the last [`OptionSink::end`].
    fn finish(&mut self) {
        if std::mem::take(&mut self.pending) {
            self.value(self.start);
        }
    }

    /// Values the option whose parts start at `first` and end the stack, as far as the
    /// tables know, and records it.
    fn value(&mut self, first: usize) {
        let mut len = self.parts.len() - first;
        let mut xor = 0;
        let mut k = 0;
        let parts = &mut *self.parts;
        while k < len {
            if let Some(v) = self.tables.get(&parts[first + k]) {
                xor ^= v;
                parts.swap(first + k, first + len - 1);
                len -= 1;
                continue;
            }
            // Two equal parts cancel.
            if let Some(j) = (k + 1..len).find(|&j| parts[first + j] == parts[first + k]) {
                parts.swap(first + j, first + len - 1);
                parts.swap(first + k, first + len - 2);
                len -= 2;
                continue;
            }
            k += 1;
        }
        parts.truncate(first + len);
        let mut weight = 0u64;
        let mut heaviest = (0, 0);
        for k in 0..len {
            let w = u64::from(self.tables.weight(&parts[first + k]));
            weight += w * w;
            if w > heaviest.1 {
                heaviest = (k, w);
            }
        }
        if heaviest.0 != 0 {
            parts.swap(first, first + heaviest.0);
        }
        let done = len == 0;
        if done {
            self.candidates.remove_or_max(xor);
        }
        self.opts.push(Opt {
            first: first as u32,
            len: len as u32,
            xor,
            weight,
            done,
        });
        self.start = parts.len();
    }
}

/// What the option sink asks of the tables.
trait Lookup<P> {
    fn get(&self, part: &P) -> Option<u8>;
    fn weight(&self, part: &P) -> u32;
    /// Starts fetching what [`Lookup::get`] will read for `part` (a hint; no effect on values).
    fn prefetch(&self, part: &P);
}

/// Where a long search saves the values of the components that took long to value.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The file (read at the start if it exists; written atomically).
    pub path: PathBuf,
    /// The least time between two saves.
    pub interval: Duration,
}

/// How a search may run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The most bytes the tables may hold.
    pub table_bytes: u64,
    /// Threads for the top component's options (1 or more).
    pub threads: usize,
    /// Parts of at most this weight go to the table of small parts.
    pub small_weight: u32,
    /// Saving the valuable components.
    pub checkpoint: Option<Checkpoint>,
}

impl Default for Settings {
    /// 256 MiB of tables, two threads where the machine has them, no checkpoint.
    fn default() -> Self {
        Settings {
            table_bytes: 256 << 20,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
            small_weight: 12,
            checkpoint: None,
        }
    }
}

/// What a search has done so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Components searched (table misses).
    pub nodes: u64,
    /// Bytes the tables hold.
    pub table_bytes: u64,
    /// Entries of the main table in use, and in all.
    pub fill: (u64, u64),
    /// Components kept apart for checkpoints.
    pub pinned: u64,
    /// The top component's search: the k being tried, and of its options still open at
    /// that k, how many are answered and how many there are (how far a long run has come).
    pub top: TopProgress,
}

/// How far the search of the top component has come: at `k` it asks each open option
/// whether its value is `k` (after its other parts), and stops at the first that has it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TopProgress {
    /// The k being tried.
    pub k: u8,
    /// Open options answered at this k.
    pub answered: u32,
    /// Options open at this k (not valued at an earlier k).
    pub open: u32,
}

impl TopProgress {
    /// The width of each count in the packed word (`k` takes the top byte).
    const COUNT_BITS: u32 = 28;
    /// The largest count that packs.
    const MAX_COUNT: u32 = (1 << Self::COUNT_BITS) - 1;
    /// What adding one to `answered` adds to the packed word.
    const ONE_ANSWERED: u64 = 1 << Self::COUNT_BITS;

    /// Packs the three counts into one word, so that a reader never sees them torn.
    fn pack(self) -> u64 {
        u64::from(self.k) << (2 * Self::COUNT_BITS)
            | u64::from(self.answered) << Self::COUNT_BITS
            | u64::from(self.open)
    }

    fn unpack(word: u64) -> TopProgress {
        let mask = u64::from(Self::MAX_COUNT);
        TopProgress {
            k: (word >> (2 * Self::COUNT_BITS)) as u8,
            answered: (word >> Self::COUNT_BITS & mask) as u32,
            open: (word & mask) as u32,
        }
    }
}

/// A component that took at least this many nodes is pinned (kept apart and checkpointed).
const PIN_NODES: u64 = 1 << 14;

/// The filter of pinned codes has `2^PIN_FILTER_BITS` bits (32 KiB).
const PIN_FILTER_BITS: u32 = 18;

/// The word and bit of a code in the filter of pinned codes.
#[inline]
fn pin_bit(code: u128) -> (usize, u64) {
    let h = ((code as u64) ^ ((code >> 64) as u64)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        >> (64 - PIN_FILTER_BITS);
    ((h >> 6) as usize, 1 << (h & 63))
}

/// Nodes between two looks at the budget, the table's size and the checkpoint clock.
const REFRESH: u32 = 1 << 12;

/// Parts at least this heavy are valued on helper threads with large stacks.
const THREADED_WEIGHT: u32 = 20;

/// The stack of a search thread: deep games recurse once per move.
const STACK_BYTES: usize = 256 << 20;

/// The payload version of checkpoint files.
const CHECKPOINT_VERSION: u32 = 1;

/// The kind of checkpoint files.
pub const CHECKPOINT_KIND: Kind = Kind::SEARCH_CHECKPOINT;

/// Bytes of a checkpoint entry: the code, the value, the weight.
const ENTRY: usize = 16 + 1 + 4;

/// The nim-value search over a [`SplitGame`], with its tables; shared by threads.
///
/// ```
/// use sprague::solve::nimsearch::{NimSearch, Settings, Keyed};
/// use sprague::heap::{Code, HeapGame};
/// use sprague::budget::Budget;
/// use std::sync::Arc;
///
/// // Kayles heaps, split by the heap game's own components.
/// let kayles = HeapGame::new("kayles", Arc::new(Code::parse("0.77").unwrap()));
/// let search = NimSearch::new(Keyed(kayles), Settings::default())?;
/// assert_eq!(search.value(&vec![12], &Budget::unlimited())?, 4);
/// # Ok::<(), sprague::Error>(())
/// ```
pub struct NimSearch<S: SplitGame> {
    game: S,
    settings: Settings,
    main: Table,
    small: Table,
    codeless: Mutex<HashMap<S::Part, u8>>,
    /// Values of parts that took long to value, with their weights.
    pinned: RwLock<HashMap<u128, (u8, u32)>>,
    /// The least weight of a pinned part (`u32::MAX` while none).
    pinned_weight: AtomicU64,
    /// A bit for each pinned code's hash (more codes share a bit): a clear bit says, with no
    /// lock, that a code is not pinned, so that the threads' misses in the tables do not all
    /// take the read lock (its count is a line the cores would pass back and forth).
    pinned_filter: Box<[AtomicU64]>,
    nodes: AtomicU64,
    last_save: Mutex<Instant>,
    /// The top search's [`TopProgress`], packed (see [`TopProgress::pack`]).
    top: AtomicU64,
}

/// Why a search stopped early.
enum Halt {
    /// Another thread answered the question.
    Cancelled,
    /// The budget, a limit, a file.
    Error(Error),
}

impl From<Error> for Halt {
    fn from(e: Error) -> Halt {
        Halt::Error(e)
    }
}

type Step<T> = std::result::Result<T, Halt>;

/// A step's result as the library's.
fn finish<T>(step: Step<T>) -> Result<T> {
    match step {
        Ok(v) => Ok(v),
        Err(Halt::Error(e)) => Err(e),
        Err(Halt::Cancelled) => Err(Error::Internal("search cancelled".into())),
    }
}

impl<S: SplitGame> NimSearch<S> {
    /// A search of `game` with empty tables, or with the values of the checkpoint file when
    /// `settings` names one that exists.
    ///
    /// # Errors
    /// [`Error::File`] when the checkpoint exists but is damaged or for another game.
    pub fn new(game: S, settings: Settings) -> Result<Self> {
        let small_bytes = settings.table_bytes / 4;
        let search = NimSearch {
            main: Table::new(settings.table_bytes - small_bytes),
            small: Table::new(small_bytes),
            codeless: Mutex::new(HashMap::new()),
            pinned: RwLock::new(HashMap::new()),
            pinned_weight: AtomicU64::new(u64::MAX),
            pinned_filter: (0..1 << (PIN_FILTER_BITS - 6))
                .map(|_| AtomicU64::new(0))
                .collect(),
            nodes: AtomicU64::new(0),
            last_save: Mutex::new(Instant::now()),
            top: AtomicU64::new(0),
            game,
            settings,
        };
        search.load()?;
        Ok(search)
    }

    /// The game.
    pub fn game(&self) -> &S {
        &self.game
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// What the search has done so far.
    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes.load(Ordering::Relaxed),
            table_bytes: self.main.bytes() + self.small.bytes(),
            fill: self.main.fill(),
            pinned: self.pinned.read().unwrap_or_else(|e| e.into_inner()).len() as u64,
            top: TopProgress::unpack(self.top.load(Ordering::Relaxed)),
        }
    }

    /// The nim value of a sum of parts: the XOR of their values, each distinct part valued
    /// once (equal parts cancel in pairs).
    ///
    /// # Errors
    /// As [`NimSearch::value`].
    pub fn nim_value(&self, parts: &[S::Part], budget: &Budget) -> Result<u64> {
        let mut counts: HashMap<&S::Part, usize> = HashMap::new();
        for part in parts {
            *counts.entry(part).or_default() += 1;
        }
        let mut x = 0;
        for (part, count) in counts {
            if count % 2 == 1 {
                x ^= self.value(part, budget)?;
            }
        }
        Ok(x)
    }

    /// Whether the nim value of a sum of parts is `target`: every part but the hardest is
    /// valued, and the hardest asked only whether its value completes the XOR.
    ///
    /// # Errors
    /// As [`NimSearch::value`].
    pub fn has_value(&self, parts: &[S::Part], target: u64, budget: &Budget) -> Result<bool> {
        let mut counts: HashMap<&S::Part, usize> = HashMap::new();
        for part in parts {
            *counts.entry(part).or_default() += 1;
        }
        let mut odd: Vec<&S::Part> = counts
            .into_iter()
            .filter(|&(_, c)| c % 2 == 1)
            .map(|(p, _)| p)
            .collect();
        // Deterministic: the hardest part last, ties by code.
        odd.sort_by_key(|p| (self.game.weight(p), self.game.code(p)));
        let Some(hardest) = odd.pop() else {
            return Ok(target == 0);
        };
        let mut x = 0;
        for part in odd {
            x ^= self.value(part, budget)?;
        }
        let wanted = target ^ x;
        if wanted > 255 {
            return Ok(false);
        }
        let cancel = AtomicBool::new(false);
        let mut ctx = Ctx::new(self, budget, &cancel);
        if let Some(v) = ctx.lookup(hardest) {
            return Ok(u64::from(v) == wanted);
        }
        if self.game.weight(hardest) >= THREADED_WEIGHT {
            // Deep: on a thread with a large stack.
            drop(ctx);
            let answer = std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, || {
                        let mut ctx = Ctx::new(self, budget, &cancel);
                        ctx.in_set(hardest, &NimSet::single(wanted as u8))
                    })
                    .map_err(|e| Error::Internal(format!("cannot start a search thread: {e}")))?
                    .join()
                    .map_err(|_| Error::Internal("a search thread panicked".into()))
            })?;
            return finish(answer).map(|v| v == Some(wanted as u8));
        }
        finish(ctx.in_set(hardest, &NimSet::single(wanted as u8))).map(|v| v == Some(wanted as u8))
    }

    /// The nim value of one part.
    ///
    /// # Errors
    /// [`Error::Stopped`] when `budget` is spent, [`Error::Limit`] for a part with more
    /// than 254 options, [`Error::File`] when a checkpoint cannot be written.
    pub fn value(&self, part: &S::Part, budget: &Budget) -> Result<u64> {
        let cancel = AtomicBool::new(false);
        if let Some(v) = Ctx::new(self, budget, &cancel).lookup(part) {
            return Ok(u64::from(v));
        }
        if self.game.weight(part) < THREADED_WEIGHT {
            let mut ctx = Ctx::new(self, budget, &cancel);
            return match ctx.exact(part) {
                Ok(v) => Ok(u64::from(v)),
                Err(Halt::Error(e)) => Err(e),
                Err(Halt::Cancelled) => Err(Error::Internal("search cancelled".into())),
            };
        }
        let value = self.top(part, budget)?;
        if self.settings.checkpoint.is_some() {
            self.save()?;
        }
        Ok(u64::from(value))
    }

    /// The aspiration search of a large part: k = 0, 1, 2… in turn, the options asked
    /// whether their value is k, split among the threads.
    fn top(&self, part: &S::Part, budget: &Budget) -> Result<u8> {
        let cancel = AtomicBool::new(false);
        let threads = self.settings.threads.max(1);
        // The options, split and looked up once on a thread of its own (deep recursion).
        let listed = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, || -> Step<_> {
                    let mut ctx = Ctx::new(self, budget, &cancel);
                    if let Some(v) = ctx.lookup(part) {
                        return Ok(Err(v));
                    }
                    ctx.top_options(part).map(Ok)
                })
                .map_err(|e| Error::Internal(format!("cannot start a search thread: {e}")))?
                .join()
                .map_err(|_| Error::Internal("a search thread panicked".into()))
        })?;
        let (options, mut skip, count) = match listed {
            Ok(Ok(listed)) => listed,
            Ok(Err(known)) => return Ok(known),
            Err(Halt::Error(e)) => return Err(e),
            Err(Halt::Cancelled) => return Err(Error::Internal("search cancelled".into())),
        };
        let nodes_before = self.nodes.load(Ordering::Relaxed);
        let start = u8::from(self.game.known(part) == Known::NonZero);
        // Each option's value once known (values above 254 are never asked for).
        let resolved: Vec<Mutex<Option<u8>>> = options.iter().map(|_| Mutex::new(None)).collect();
        let mut answer = count;
        'k: for k in start..=count {
            if skip.contains(k) {
                continue;
            }
            let open: Vec<usize> = (0..options.len())
                .filter(|&i| {
                    resolved[i]
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .is_none()
                })
                .collect();
            let progress = TopProgress {
                k,
                answered: 0,
                open: open.len().min(TopProgress::MAX_COUNT as usize) as u32,
            };
            self.top.store(progress.pack(), Ordering::Relaxed);
            let next = AtomicUsize::new(0);
            let found = AtomicBool::new(false);
            cancel.store(false, Ordering::Relaxed);
            // Per option: answered (a thread still on it stops); per thread: the option it is on.
            let answered: Vec<AtomicBool> =
                options.iter().map(|_| AtomicBool::new(false)).collect();
            let current: Vec<AtomicUsize> =
                (0..threads).map(|_| AtomicUsize::new(usize::MAX)).collect();
            let paths = Paths::new(threads);
            let ids = AtomicUsize::new(0);
            let work = || -> Step<()> {
                let me = ids.fetch_add(1, Ordering::Relaxed);
                let mut ctx = Ctx::new(self, budget, &cancel);
                if threads > 1 {
                    ctx.paths = Some((&paths, me));
                }
                loop {
                    let index = match open.get(next.fetch_add(1, Ordering::Relaxed)).copied() {
                        Some(index) => index,
                        // No option left to start: help another thread with its option
                        // (searching the parts it is not in first), or stop once every
                        // option is answered.
                        None => match current
                            .iter()
                            .map(|c| c.load(Ordering::Relaxed))
                            .find(|&i| i != usize::MAX && !answered[i].load(Ordering::Relaxed))
                        {
                            Some(index) => index,
                            None if cancel.load(Ordering::Relaxed)
                                || open.iter().all(|&i| answered[i].load(Ordering::Relaxed)) =>
                            {
                                return Ok(())
                            }
                            // Another thread took an option and has not said which yet.
                            None => {
                                std::thread::yield_now();
                                continue;
                            }
                        },
                    };
                    if found.load(Ordering::Relaxed) {
                        return Ok(());
                    }
                    current[me].store(index, Ordering::Relaxed);
                    ctx.job = Some(&answered[index]);
                    let (parts, xor) = &options[index];
                    let mut answer = || -> Step<Option<u8>> {
                        let mut x = *xor;
                        for p in &parts[1..] {
                            x ^= ctx.exact(p)?;
                        }
                        Ok(ctx
                            .in_set(&parts[0], &NimSet::single(k ^ x))?
                            .map(|v| v ^ x))
                    };
                    let answer = answer();
                    current[me].store(usize::MAX, Ordering::Relaxed);
                    match answer {
                        Ok(value) => {
                            // Counted once, though a helping thread may answer it too.
                            if !answered[index].swap(true, Ordering::Relaxed) {
                                self.top
                                    .fetch_add(TopProgress::ONE_ANSWERED, Ordering::Relaxed);
                            }
                            if let Some(v) = value {
                                *resolved[index].lock().unwrap_or_else(|e| e.into_inner()) =
                                    Some(v);
                                if v == k {
                                    found.store(true, Ordering::Relaxed);
                                    cancel.store(true, Ordering::Relaxed);
                                    return Ok(());
                                }
                            }
                        }
                        // Another thread answered first: this option, or the whole k.
                        Err(Halt::Cancelled) if !cancel.load(Ordering::Relaxed) => {}
                        Err(Halt::Cancelled) => return Ok(()),
                        Err(e) => {
                            // The other threads stop too (and none waits for this option).
                            cancel.store(true, Ordering::Relaxed);
                            return Err(e);
                        }
                    }
                }
            };
            let results: Vec<Step<()>> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|_| {
                        std::thread::Builder::new()
                            .stack_size(STACK_BYTES)
                            .spawn_scoped(scope, work)
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| match h {
                        Ok(h) => h.join().unwrap_or_else(|_| {
                            Err(Halt::Error(Error::Internal(
                                "a search thread panicked".into(),
                            )))
                        }),
                        Err(e) => Err(Halt::Error(Error::Internal(format!(
                            "cannot start a search thread: {e}"
                        )))),
                    })
                    .collect()
            });
            for result in results {
                if let Err(Halt::Error(e)) = result {
                    return Err(e);
                }
            }
            // Options valued on the way are not asked again: their values are out.
            for r in &resolved {
                if let Some(v) = *r.lock().unwrap_or_else(|e| e.into_inner()) {
                    skip.insert(v);
                }
            }
            if found.load(Ordering::Relaxed) {
                continue 'k;
            }
            answer = k;
            break;
        }
        let spent = self.nodes.load(Ordering::Relaxed) - nodes_before;
        let ctx = Ctx::new(self, budget, &cancel);
        ctx.store(part, answer, spent);
        Ok(answer)
    }

    /// The pinned value of a part's code, if any.
    fn pinned(&self, code: u128, weight: u32) -> Option<u8> {
        if u64::from(weight) < self.pinned_weight.load(Ordering::Relaxed) {
            return None;
        }
        let (word, bit) = pin_bit(code);
        if self.pinned_filter[word].load(Ordering::Relaxed) & bit == 0 {
            return None;
        }
        self.pinned
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&code)
            .map(|&(v, _)| v)
    }

    /// Pins a value (`pinned`: the map, locked by the caller).
    fn pin(&self, pinned: &mut HashMap<u128, (u8, u32)>, code: u128, value: u8, weight: u32) {
        pinned.insert(code, (value, weight));
        let (word, bit) = pin_bit(code);
        self.pinned_filter[word].fetch_or(bit, Ordering::Relaxed);
        self.pinned_weight
            .fetch_min(u64::from(weight), Ordering::Relaxed);
    }

    /// Writes the pinned values to the checkpoint file, if there is one.
    ///
    /// # Errors
    /// [`Error::File`] when it cannot be written.
    pub fn save(&self) -> Result<()> {
        let mut last = self.last_save.lock().unwrap_or_else(|e| e.into_inner());
        self.write_checkpoint()?;
        *last = Instant::now();
        Ok(())
    }

    /// Writes the checkpoint, if there is one; the caller holds `last_save`, so that two
    /// threads never write it at once.
    fn write_checkpoint(&self) -> Result<()> {
        let Some(checkpoint) = &self.settings.checkpoint else {
            return Ok(());
        };
        let mut entries: Vec<(u128, (u8, u32))> = self
            .pinned
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(&c, &v)| (c, v))
            .collect();
        entries.sort_unstable();
        let payload = 8 + ENTRY as u64 * entries.len() as u64;
        file::write(
            &checkpoint.path,
            CHECKPOINT_KIND,
            CHECKPOINT_VERSION,
            &self.game.name(),
            payload,
            |w| {
                w.write_all(&(entries.len() as u64).to_le_bytes())?;
                let mut block = Vec::with_capacity(ENTRY << 12);
                for chunk in entries.chunks(1 << 12) {
                    block.clear();
                    for &(code, (value, weight)) in chunk {
                        block.extend_from_slice(&code.to_le_bytes());
                        block.push(value);
                        block.extend_from_slice(&weight.to_le_bytes());
                    }
                    w.write_all(&block)?;
                }
                Ok(())
            },
        )?;
        Ok(())
    }

    /// Reads the checkpoint file, if there is one and it exists.
    fn load(&self) -> Result<()> {
        let Some(checkpoint) = &self.settings.checkpoint else {
            return Ok(());
        };
        if !checkpoint.path.exists() {
            return Ok(());
        }
        let name = self.game.name();
        let mut reader = file::open(
            &checkpoint.path,
            &Expected {
                kind: CHECKPOINT_KIND,
                version: CHECKPOINT_VERSION,
                spec: Some(&name),
            },
        )?;
        let mut count = [0u8; 8];
        reader.read_payload(&mut count)?;
        let count = u64::from_le_bytes(count);
        if Some(reader.remaining()) != count.checked_mul(ENTRY as u64) {
            return Err(reader
                .corrupt("the entry count does not match the file size")
                .into());
        }
        let mut pinned = self.pinned.write().unwrap_or_else(|e| e.into_inner());
        let mut entry = [0u8; ENTRY];
        for _ in 0..count {
            reader.read_payload(&mut entry)?;
            let code = u128::from_le_bytes(entry[..16].try_into().unwrap_or_default());
            let weight = u32::from_le_bytes(entry[17..].try_into().unwrap_or_default());
            self.pin(&mut pinned, code, entry[16], weight);
        }
        reader.finish()?;
        Ok(())
    }
}

/// One thread's read locks on the search's tables.
struct Tables<'s, S: SplitGame> {
    search: &'s NimSearch<S>,
    main: Option<table::Reader<'s>>,
    small: Option<table::Reader<'s>>,
}

impl<'s, S: SplitGame> Tables<'s, S> {
    fn new(search: &'s NimSearch<S>) -> Self {
        Tables {
            search,
            main: Some(search.main.reader()),
            small: Some(search.small.reader()),
        }
    }

    fn reader(&self, weight: u32) -> &table::Reader<'s> {
        let reader = if weight <= self.search.settings.small_weight {
            &self.small
        } else {
            &self.main
        };
        reader.as_ref().expect("a reader is held outside refresh")
    }

    /// Where `part` is stored: its code, its weight and the table of that weight (`None`
    /// when the game gives it no code).
    #[inline]
    fn slot(&self, part: &S::Part) -> Option<(u128, u32, &table::Reader<'s>)> {
        let game = &self.search.game;
        let code = game.code(part)?;
        let weight = game.weight(part);
        Some((code, weight, self.reader(weight)))
    }

    /// What the tables know of `part`: its value, or values of 0 to 7 it does not have.
    #[inline]
    fn probe(&self, part: &S::Part) -> Probe {
        let game = &self.search.game;
        if let Known::Value(v) = game.known(part) {
            return Probe {
                value: Some(v),
                refuted: 0,
            };
        }
        match self.slot(part) {
            Some((code, weight, reader)) => {
                let mut probe = reader.probe(code);
                if probe.value.is_none() {
                    probe.value = self.search.pinned(code, weight);
                }
                probe
            }
            None => Probe {
                value: self.get(part),
                refuted: 0,
            },
        }
    }

    /// Records that `part` has none of the values of 0 to 7 whose bits `bits` has; `cheap`
    /// when listing its options sufficed (no search below), so that it only fills spare room.
    #[inline]
    fn refute(&self, part: &S::Part, bits: u8, cheap: bool) {
        if let Some((code, _, reader)) = self.slot(part) {
            reader.refute(code, bits, cheap);
        }
    }

    /// Stores a part's value; `spent`: the nodes its search took.
    fn store(&self, part: &S::Part, value: u8, spent: u64) {
        let search = self.search;
        let game = &search.game;
        if let Known::Value(_) = game.known(part) {
            return;
        }
        match self.slot(part) {
            Some((code, weight, reader)) => {
                reader.put(code, value);
                if spent >= PIN_NODES {
                    let mut pinned = search.pinned.write().unwrap_or_else(|e| e.into_inner());
                    search.pin(&mut pinned, code, value, weight);
                }
            }
            None => {
                let mut map = search.codeless.lock().unwrap_or_else(|e| e.into_inner());
                // A cache: it stops growing at its share of the tables' bytes.
                let most = search.settings.table_bytes / 4 / 256;
                if (map.len() as u64) < most {
                    map.insert(part.clone(), value);
                }
            }
        }
    }
}

impl<S: SplitGame> Lookup<S::Part> for Tables<'_, S> {
    /// The value of a part when it is known or stored.
    #[inline]
    fn get(&self, part: &S::Part) -> Option<u8> {
        let game = &self.search.game;
        match game.known(part) {
            Known::Value(v) => return Some(v),
            Known::NonZero | Known::Unknown => {}
        }
        match self.slot(part) {
            Some((code, weight, reader)) => reader
                .get(code)
                .or_else(|| self.search.pinned(code, weight)),
            None => self
                .search
                .codeless
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(part)
                .copied(),
        }
    }

    #[inline]
    fn weight(&self, part: &S::Part) -> u32 {
        self.search.game.weight(part)
    }

    #[inline]
    fn prefetch(&self, part: &S::Part) {
        let game = &self.search.game;
        if let Known::Value(_) = game.known(part) {
            return;
        }
        if let Some((code, _, reader)) = self.slot(part) {
            reader.prefetch(code);
        }
    }
}

/// The state of one search thread: its stacks of parts and options, its read locks on the
/// tables, its budget and node counts.
struct Ctx<'s, S: SplitGame> {
    search: &'s NimSearch<S>,
    tables: Tables<'s, S>,
    parts: Vec<S::Part>,
    opts: Vec<Opt>,
    budget: &'s Budget,
    cancel: &'s AtomicBool,
    /// Set when another thread has answered the question this thread works on.
    job: Option<&'s AtomicBool>,
    /// The threads' paths, and this thread's number among them, when threads share a part.
    paths: Option<(&'s Paths, usize)>,
    /// Parts being searched on this thread's stack.
    depth: usize,
    /// Options put off until the other options of their part are done.
    deferred: Vec<u32>,
    /// Nodes this thread searched.
    nodes: u64,
    /// Nodes since the last refresh.
    since: u32,
}

/// How deep the threads' paths are published.
const PATH_DEPTH: usize = 16;

/// The parts each thread is searching, the top [`PATH_DEPTH`] of its stack, as 64-bit hashes
/// of their codes (0 for none): a thread puts off the options another is inside (as in
/// Weill's ABDADA), so that two threads on one part split its options instead of searching
/// them in the same order. A false match only changes the order.
struct Paths(Vec<[AtomicU64; PATH_DEPTH]>);

impl Paths {
    fn new(threads: usize) -> Paths {
        Paths(
            (0..threads)
                .map(|_| std::array::from_fn(|_| AtomicU64::new(0)))
                .collect(),
        )
    }

    /// A part's hash (never 0).
    fn hash(code: u128) -> u64 {
        (code as u64 ^ ((code >> 64) as u64).rotate_left(29)) | 1
    }

    fn set(&self, me: usize, depth: usize, hash: u64) {
        self.0[me][depth].store(hash, Ordering::Relaxed);
    }

    /// Whether a thread other than `me` is inside the part of this hash.
    fn busy(&self, me: usize, hash: u64) -> bool {
        self.0
            .iter()
            .enumerate()
            .any(|(t, path)| t != me && path.iter().any(|h| h.load(Ordering::Relaxed) == hash))
    }
}

impl<'s, S: SplitGame> Ctx<'s, S> {
    fn new(search: &'s NimSearch<S>, budget: &'s Budget, cancel: &'s AtomicBool) -> Self {
        Ctx {
            tables: Tables::new(search),
            search,
            parts: Vec::new(),
            opts: Vec::new(),
            budget,
            cancel,
            job: None,
            paths: None,
            depth: 0,
            deferred: Vec::new(),
            nodes: 0,
            since: 0,
        }
    }

    /// The hash of a part for the threads' paths, when they are shared and the stack is
    /// shallow enough to publish.
    #[inline]
    fn path_hash(&self, part: &S::Part) -> Option<(&'s Paths, usize, u64)> {
        let (paths, me) = self.paths?;
        if self.depth >= PATH_DEPTH {
            return None;
        }
        let code = self.search.game.code(part)?;
        Some((paths, me, Paths::hash(code)))
    }

    /// Whether option `i` should wait: another thread is inside its hardest part.
    #[inline]
    fn defers(&self, i: usize) -> bool {
        let o = self.opts[i];
        self.path_hash(&self.parts[o.first as usize])
            .is_some_and(|(paths, me, hash)| paths.busy(me, hash))
    }

    #[inline]
    fn lookup(&self, part: &S::Part) -> Option<u8> {
        self.tables.get(part)
    }

    fn store(&self, part: &S::Part, value: u8, spent: u64) {
        self.tables.store(part, value, spent);
    }

    /// Counts a node; every [`REFRESH`] nodes looks at the budget, lets the tables grow,
    /// reports progress and saves a checkpoint when due.
    #[inline]
    fn tick(&mut self) -> Step<()> {
        if self.cancel.load(Ordering::Relaxed)
            || self.job.is_some_and(|j| j.load(Ordering::Relaxed))
        {
            return Err(Halt::Cancelled);
        }
        self.nodes += 1;
        self.since += 1;
        if self.since >= REFRESH {
            self.refresh()?;
        }
        Ok(())
    }

    #[cold]
    fn refresh(&mut self) -> Step<()> {
        let search = self.search;
        let done = search
            .nodes
            .fetch_add(u64::from(self.since), Ordering::Relaxed);
        self.budget.check()?;
        let (used, all) = self.tables.main.as_ref().map_or((0, 1), |r| r.fill());
        let top = TopProgress::unpack(search.top.load(Ordering::Relaxed));
        self.budget.report_note(
            u64::from(self.since),
            &format!(
                "k={} at the top ({} of {} options answered), {} nodes, table {}% full of {} \
                 MiB (at most {} MiB)",
                top.k,
                top.answered,
                top.open,
                done + u64::from(self.since),
                used * 100 / all.max(1),
                (all * table::ENTRY_BYTES) >> 20,
                search.main.max_bytes() >> 20
            ),
        );
        self.since = 0;
        if search.main.wants_to_grow() || search.small.wants_to_grow() {
            self.tables.main = None;
            self.tables.small = None;
            let left = self.budget.memory_left();
            search.main.grow(left);
            search.small.grow(left);
            // A thread still waiting to grow goes first: taking a reader again at once would
            // win the lock from it, over and over.
            while search.main.has_waiting() || search.small.has_waiting() {
                std::thread::yield_now();
            }
            self.tables.main = Some(search.main.reader());
            self.tables.small = Some(search.small.reader());
        }
        if let Some(checkpoint) = &search.settings.checkpoint {
            // The thread that holds the clock saves; the other goes on searching.
            let last = match search.last_save.try_lock() {
                Ok(last) => Some(last),
                Err(std::sync::TryLockError::Poisoned(e)) => Some(e.into_inner()),
                Err(std::sync::TryLockError::WouldBlock) => None,
            };
            if let Some(mut last) = last {
                if last.elapsed() >= checkpoint.interval {
                    search.write_checkpoint()?;
                    *last = Instant::now();
                }
            }
        }
        Ok(())
    }

    /// The exact value of a part.
    fn exact(&mut self, part: &S::Part) -> Step<u8> {
        if let Some(v) = self.lookup(part) {
            return Ok(v);
        }
        match self.in_set(part, &NimSet::below(256))? {
            Some(v) => Ok(v),
            None => Err(Halt::Error(Error::Internal(
                "an exact search found no value".into(),
            ))),
        }
    }

    /// Lists the options of `part` on the stacks, valuing what the tables know; returns the
    /// candidate set P, or `None` when it stopped early because P no longer meets `wanted`.
    fn expand(
        &mut self,
        part: &S::Part,
        wanted: &NimSet,
        base_parts: usize,
    ) -> Step<Option<NimSet>> {
        let game = &self.search.game;
        let count = game.option_count(part);
        if count > 254 {
            return Err(Halt::Error(Error::Limit(format!(
                "a component with {count} options; the search handles at most 254"
            ))));
        }
        // n + 1 candidates for n options; a known non-zero value counts as an option of
        // value 0 more.
        let mut candidates = NimSet::below(count + 1);
        if game.known(part) == Known::NonZero {
            candidates = NimSet::below(count + 2);
            candidates.remove(0);
        }
        if candidates.is_disjoint(wanted) {
            return Ok(None);
        }
        let mut sink = OptionSink {
            parts: &mut self.parts,
            opts: &mut self.opts,
            start: base_parts,
            pending: false,
            tables: &self.tables,
            candidates,
            wanted: *wanted,
        };
        game.options(part, &mut sink);
        sink.finish();
        let candidates = sink.candidates;
        Ok((!candidates.is_disjoint(wanted)).then_some(candidates))
    }

    /// Sorts the open options from `base` easiest first, in the game's order among equals
    /// (closed ones go last).
    fn order(&mut self, base: usize) {
        self.opts[base..].sort_unstable_by_key(|o| (o.done, o.weight, o.first));
    }

    /// The value of `part` if it lies in `wanted` (Beling and Rogalski's search): `Some(v)`
    /// is the exact value (which may lie outside `wanted`), `None` says it is not in
    /// `wanted`.
    fn in_set(&mut self, part: &S::Part, wanted: &NimSet) -> Step<Option<u8>> {
        let probe = self.tables.probe(part);
        if let Some(v) = probe.value {
            return Ok(Some(v));
        }
        // Values the part is known not to have need no search: the value lies in the rest
        // of `wanted`, if anywhere.
        let refuted = probe.refuted;
        let mut rest = *wanted;
        rest.remove_low_bits(refuted);
        if rest.is_empty() {
            return Ok(None);
        }
        self.tick()?;
        let nodes_before = self.nodes;
        let (base_parts, base_opts) = (self.parts.len(), self.opts.len());
        let base_deferred = self.deferred.len();
        let published = self.path_hash(part);
        if let Some((paths, me, hash)) = published {
            paths.set(me, self.depth, hash);
        }
        self.depth += 1;
        let result = self.in_set_listed(part, &rest, base_parts, base_opts);
        self.depth -= 1;
        if let Some((paths, me, _)) = published {
            paths.set(me, self.depth, 0);
        }
        self.parts.truncate(base_parts);
        self.opts.truncate(base_opts);
        self.deferred.truncate(base_deferred);
        match result {
            Ok(Some(v)) => self.store(part, v, self.nodes - nodes_before),
            Ok(None) => {
                let cheap = self.nodes == nodes_before;
                self.tables.refute(part, rest.low_bits() | refuted, cheap);
            }
            Err(_) => {}
        }
        result
    }

    fn in_set_listed(
        &mut self,
        part: &S::Part,
        wanted: &NimSet,
        base_parts: usize,
        base_opts: usize,
    ) -> Step<Option<u8>> {
        let Some(mut candidates) = self.expand(part, wanted, base_parts)? else {
            return Ok(None);
        };
        self.order(base_opts);
        let up_to = wanted.up_to_max();
        let mut exact = true;
        // The open options in order, but those another thread is inside after the rest.
        let (end, first_deferred) = (self.opts.len(), self.deferred.len());
        let (mut next, mut next_deferred) = (base_opts, first_deferred);
        loop {
            let i = if next < end && !self.opts[next].done {
                next += 1;
                if self.defers(next - 1) {
                    self.deferred.push((next - 1) as u32);
                    continue;
                }
                next - 1
            } else if next_deferred < self.deferred.len() {
                next_deferred += 1;
                self.deferred[next_deferred - 1] as usize
            } else {
                break;
            };
            if candidates.is_disjoint(wanted) {
                return Ok(None);
            }
            let without_max = candidates.without_max();
            let (first, x) = self.reduce(i)?;
            let ask = without_max.and(&up_to).xor_each(x);
            let answer = if ask.is_empty() {
                None
            } else {
                self.in_set(&first, &ask)?
            };
            match answer {
                Some(v) => candidates.remove_or_max(v ^ x),
                None => {
                    candidates = without_max;
                    exact = false;
                }
            }
        }
        if exact || !candidates.is_disjoint(&up_to) {
            Ok(candidates.min())
        } else {
            Ok(None)
        }
    }

    /// Values exactly every part of option `i` but its first (hardest); returns that part
    /// and the XOR of the others.
    fn reduce(&mut self, i: usize) -> Step<(S::Part, u8)> {
        while self.opts[i].len > 1 {
            let o = self.opts[i];
            let part = self.parts[(o.first + o.len - 1) as usize].clone();
            let v = self.exact(&part)?;
            self.opts[i].xor ^= v;
            self.opts[i].len -= 1;
        }
        let o = self.opts[i];
        Ok((self.parts[o.first as usize].clone(), o.xor))
    }

    /// The options of the top part, split and looked up: the open ones (parts, XOR of the
    /// known parts) easiest first, the values already known, and the number of options.
    #[allow(clippy::type_complexity)]
    fn top_options(&mut self, part: &S::Part) -> Step<(Vec<(Vec<S::Part>, u8)>, NimSet, u8)> {
        self.expand(part, &NimSet::below(256), 0)?;
        let count = self.opts.len() as u8;
        self.order(0);
        let mut known = NimSet::EMPTY;
        let mut open = Vec::new();
        // Options that are the same sum (images under the board's symmetries) are asked once.
        let mut seen = std::collections::HashSet::new();
        let game = &self.search.game;
        for o in &self.opts {
            let parts = &self.parts[o.first as usize..(o.first + o.len) as usize];
            if o.done {
                known.insert(o.xor);
                continue;
            }
            let codes: Option<Vec<u128>> = parts.iter().map(|p| game.code(p)).collect();
            if let Some(mut codes) = codes {
                codes.sort_unstable();
                if !seen.insert((codes, o.xor)) {
                    continue;
                }
            }
            open.push((parts.to_vec(), o.xor));
        }
        self.parts.clear();
        self.opts.clear();
        Ok((open, known, count))
    }
}

impl<S: SplitGame> Drop for Ctx<'_, S> {
    fn drop(&mut self) {
        self.search
            .nodes
            .fetch_add(u64::from(self.since), Ordering::Relaxed);
    }
}

/// How a typed game's components are valued by a search of its own (Cram's kernels): the
/// erased adapter ([`crate::erased::ImpartialGame::with_values`]) asks it instead of
/// [`crate::solve::NimValues`].
pub trait ComponentValues<P>: Send + Sync {
    /// The nim value of a component of the typed game.
    ///
    /// # Errors
    /// [`Error::Stopped`] when `budget` is spent, and the search's other errors.
    fn value(&self, component: &P, budget: &Budget) -> Result<u64>;

    /// Whether the nim value of `position` (a position of the game: a sum of components) is
    /// `target`, as winning moves need.
    ///
    /// # Errors
    /// As [`ComponentValues::value`].
    fn has_value(&self, position: &P, target: u64, budget: &Budget) -> Result<bool>;
}

/// Any impartial game as a [`SplitGame`] through its [`Impartial::components`],
/// [`Impartial::key`], [`Impartial::code`] and [`Impartial::known_nim_value`] hooks.
#[derive(Clone, Debug)]
pub struct Keyed<G>(pub G);

impl<G> SplitGame for Keyed<G>
where
    G: Impartial + Send + Sync,
    G::Position: Send + Sync,
{
    type Part = G::Position;

    fn options(&self, part: &G::Position, out: &mut OptionSink<'_, G::Position>) {
        for option in self.0.options(part) {
            for component in self.0.components(&option) {
                out.push(self.0.key(&component));
            }
            if !out.end() {
                return;
            }
        }
    }

    fn option_count(&self, part: &G::Position) -> usize {
        self.0.options(part).len()
    }

    fn code(&self, part: &G::Position) -> Option<u128> {
        self.0.code(part)
    }

    fn weight(&self, _part: &G::Position) -> u32 {
        1
    }

    fn known(&self, part: &G::Position) -> Known {
        match self.0.known_nim_value(part) {
            Ok(Some(NimValue::Finite(g))) if g < 255 => Known::Value(g as u8),
            _ => Known::Unknown,
        }
    }

    fn name(&self) -> String {
        std::any::type_name::<G>().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::solve::NimValues;

    /// Subtraction game {1, 2, 5} on one heap, and sums of heaps that split.
    #[derive(Clone)]
    struct Sub;
    impl Game for Sub {
        type Position = Vec<u8>;
    }
    impl Impartial for Sub {
        fn options(&self, heaps: &Vec<u8>) -> Vec<Vec<u8>> {
            let mut out = Vec::new();
            for (i, &h) in heaps.iter().enumerate() {
                for t in [1, 2, 5] {
                    if t <= h {
                        let mut next = heaps.clone();
                        next[i] = h - t;
                        out.push(next);
                    }
                }
                // Or split a heap of at least 4 into two.
                if h >= 4 {
                    let mut next = heaps.clone();
                    next[i] = h / 2;
                    next.push(h - h / 2 - 1);
                    out.push(next);
                }
            }
            out
        }
        fn components(&self, heaps: &Vec<u8>) -> Vec<Vec<u8>> {
            heaps.iter().filter(|&&h| h > 0).map(|&h| vec![h]).collect()
        }
        fn code(&self, key: &Vec<u8>) -> Option<u128> {
            (key.len() == 1).then(|| u128::from(key[0]))
        }
    }

    #[test]
    fn agrees_with_the_mex_of_options() {
        let mut plain = NimValues::new(Sub);
        for threads in [1, 2] {
            let settings = Settings {
                threads,
                ..Settings::default()
            };
            let search = NimSearch::new(Keyed(Sub), settings).unwrap();
            for h in 0..60u8 {
                let expected = plain.nim_value(&vec![h]).unwrap();
                let got = search.value(&vec![h], &Budget::unlimited()).unwrap();
                assert_eq!(got, expected, "heap {h}");
            }
            assert_eq!(
                search
                    .nim_value(&[vec![7], vec![7], vec![9]], &Budget::unlimited())
                    .unwrap(),
                plain.nim_value(&vec![9]).unwrap()
            );
        }
    }

    /// Two heaps that never split: take 1, 2 or 5 from either heap or from both. A start
    /// of (a, b) has about a·b positions below it, all in one component, so the search needs
    /// that many nodes.
    #[derive(Clone)]
    struct Pair;
    impl Game for Pair {
        type Position = (u8, u8);
    }
    impl Impartial for Pair {
        fn options(&self, &(a, b): &(u8, u8)) -> Vec<(u8, u8)> {
            let mut out = Vec::new();
            for t in [1, 2, 5] {
                if t <= a {
                    out.push((a - t, b));
                }
                if t <= b {
                    out.push((a, b - t));
                }
                if t <= a && t <= b {
                    out.push((a - t, b - t));
                }
            }
            out
        }
        fn components(&self, &p: &(u8, u8)) -> Vec<(u8, u8)> {
            if p == (0, 0) {
                vec![]
            } else {
                vec![p]
            }
        }
        fn code(&self, &(a, b): &(u8, u8)) -> Option<u128> {
            Some(u128::from(a) << 8 | u128::from(b))
        }
    }
    #[test]
    fn a_spent_budget_stops_the_search() {
        let settings = Settings {
            threads: 1,
            ..Settings::default()
        };
        let search = NimSearch::new(Keyed(Pair), settings.clone()).unwrap();
        let budget = Budget::stoppable();
        budget.stop();
        // A stopped budget is seen at the next refresh (every REFRESH nodes): (120, 120)
        // takes more nodes than that, as the fresh search below shows.
        let e = search.value(&(120, 120), &budget);
        assert!(matches!(e, Err(Error::Stopped(_))), "{e:?}");
        let fresh = NimSearch::new(Keyed(Pair), settings).unwrap();
        assert!(fresh.value(&(120, 120), &Budget::unlimited()).is_ok());
        assert!(
            fresh.stats().nodes >= u64::from(REFRESH),
            "{:?}",
            fresh.stats()
        );
    }

    /// The top search's progress packs into one word and back unchanged, at the extremes.
    #[test]
    fn top_progress_packs_into_one_word() {
        for progress in [
            TopProgress::default(),
            TopProgress {
                k: 255,
                answered: TopProgress::MAX_COUNT - 1,
                open: TopProgress::MAX_COUNT,
            },
            TopProgress {
                k: 3,
                answered: 17,
                open: 0,
            },
        ] {
            assert_eq!(TopProgress::unpack(progress.pack()), progress);
        }
    }

    /// The smallest table (its floor is 128 KiB, 16,384 entries) far below the search's reach
    /// (about 40,000 positions) still gives exact values: entries are replaced, never
    /// trusted past their code.
    #[test]
    fn a_table_smaller_than_the_game_gives_the_same_values() {
        let mut plain = NimValues::new(Pair);
        let settings = Settings {
            table_bytes: 0,
            threads: 1,
            ..Settings::default()
        };
        let search = NimSearch::new(Keyed(Pair), settings).unwrap();
        for (a, b) in [(200, 200), (7, 3), (150, 41), (199, 198)] {
            let expected = plain.nim_value(&(a, b)).unwrap();
            let got = search.value(&(a, b), &Budget::unlimited()).unwrap();
            assert_eq!(got, expected, "({a}, {b})");
        }
        let stats = search.stats();
        assert!(stats.table_bytes <= 256 << 10, "{stats:?}");
        // More components were searched than the tables have entries (8 bytes each).
        assert!(stats.nodes > stats.table_bytes / 8, "{stats:?}");
    }

    /// The checkpoint: a rerun reads the pinned values back and needs fewer nodes for the
    /// same answer; a damaged file or another game's file is refused.
    #[test]
    fn a_checkpoint_resumes_and_a_damaged_one_is_refused() {
        let dir = std::env::temp_dir().join(format!("sprague-nims-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("pair.nims");
        let _ = std::fs::remove_file(&path);
        let settings = Settings {
            threads: 1,
            checkpoint: Some(Checkpoint {
                path: path.clone(),
                interval: Duration::from_secs(3600),
            }),
            ..Settings::default()
        };
        let first = NimSearch::new(Keyed(Pair), settings.clone()).unwrap();
        let value = first.value(&(160, 160), &Budget::unlimited()).unwrap();
        let pinned = first.stats().pinned;
        assert!(pinned > 0, "{:?}", first.stats());
        first.save().unwrap();
        let again = NimSearch::new(Keyed(Pair), settings.clone()).unwrap();
        assert_eq!(again.stats().pinned, pinned);
        // Every pinned code gets past the filter in front of the map; a code never pinned
        // does not come back.
        let map = again.pinned.read().unwrap().clone();
        for (&code, &(value, weight)) in &map {
            assert_eq!(again.pinned(code, weight), Some(value), "{code:#x}");
        }
        assert_eq!(again.pinned(u128::MAX, u32::MAX), None);
        assert_eq!(
            again.value(&(160, 160), &Budget::unlimited()).unwrap(),
            value
        );
        assert!(
            again.stats().nodes < first.stats().nodes,
            "{:?}",
            again.stats()
        );
        // One byte of the payload flipped.
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let damaged = NimSearch::new(Keyed(Pair), settings.clone()).err();
        assert!(matches!(damaged, Some(Error::File(_))), "{damaged:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
