//! The sparse-space ("rare value") engine for take-and-break codes, with a word-parallel naive
//! fallback, two-thread marking and checkpoints.
//!
//! # The method
//!
//! Pick a mask `m` and call a heap `x` *rare* when `parity(G(x) & m)` (optionally XOR the parity
//! of `x` itself, the heap-parity variant) falls in the class that is seldom taken. Values whose
//! mask parity is odd form the other coset of the XOR subgroup of even-parity values, so an option
//! value of that coset can only come from a split whose two parts lie in different classes: one of
//! them is on the rare list. Marking `G(r) ⊕ G(n − t − r)` for every rare `r` therefore finds
//! every option value of the *known* parity. The least unmarked known-parity value `c` is G(n)
//! unless a smaller value of the other parity is missing too; scanning the remaining pairs stops as
//! soon as every value below `c` is marked, which in a sparse space happens after a few pairs.
//!
//! The mask is chosen from the value histogram by a Walsh–Hadamard transform, which gives the size
//! of the rare list for every mask at once, and is re-chosen when the list grows. When no mask
//! makes the list short (0.007), the engine computes every pair, several per instruction.
//!
//! Any mask gives exact values; the mask only decides the speed.
//!
//! # Speed
//!
//! - The rare-list marks of eight consecutive heaps are made in one pass over the list
//!   (their partners are consecutive values).
//! - Pair scans test 32 pairs at a time on CPUs with AVX-512 (detected at run time; a scalar
//!   path is kept and tested): each XOR is looked up in a 2048-bit table of the values still
//!   wanted, held in four registers, and only new values leave the vector loop. In games
//!   whose values pass 2048, the values still missing below c are looked up in a window of
//!   2048, 4096 or 8192 values from the least of them (four to sixteen registers): 0.764 to
//!   2^18 (values to 4665) took 22.9 s of CPU on Zen 4 pair by pair, 11.1 s with windows.
//! - In the naive mode only values up to just above the recent maximum are looked for first,
//!   since only values below the mex matter; a second pass runs when all of them are options.
//! - With two threads in a sparse mode, the second thread marks the next batch's rare pairs
//!   (and the first pairs near the middle, which the scans of 0.6 start with) while the first
//!   computes the batch before it: the partners of list entries `r ≥ 2·BATCH` are known a
//!   batch early. On a two-core Zen 3, 0.6 to 2^22 took 9.0 s on one thread and 5.2–5.3 s on
//!   two.
//! - With two threads, where heap n + 1 never reads G(n) (every move that leaves one heap
//!   removes at least two, every split at least one: 0.004, 0.007, 0.026, 0.106), two heaps
//!   are computed at once, one on each thread, once a heap costs enough work to outweigh a
//!   `rayon::join`. Where the batches ahead apply too they come first (measured faster on
//!   0.007). On a two-core Zen 3, 0.026 to 2^18 took 11.5 s on one thread and 6.6 s on two;
//!   before, the second thread did nothing there.
//! - In the naive mode, very long pair scans (and very long rare lists) are split between
//!   the threads where heaps cannot be paired. That does not pay below about 2^17 pairs per
//!   half: each half must discover every value itself.
//! - Values below 128 with a rare list of at most 128 heaps (most codes of up to three digits)
//!   hold the options seen in one or two machine words instead of a marking array ([`small`]),
//!   and a sum's rare marks serve every split that reads it. On a two-core Zen 3 (AVX2),
//!   0.454 to 2^20 went from 0.55 s to 0.23 s of CPU on one thread, 0.56 from 0.51 s to
//!   0.23 s (medians of five runs).
//!
//! # Examples
//!
//! ```
//! use sprague::heap::rare::{compute, Options};
//! use sprague::heap::Code;
//! let kayles = Code::parse("0.77").map_err(|e| sprague::Error::spec("0.77", e))?;
//! let values = compute(&kayles, 20, &Options::default(), &())?;
//! assert_eq!(&values[..12], &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
//! # Ok::<(), sprague::Error>(())
//! ```

use super::code::Code;
use super::packed::{PackedValues, Rule};
use super::scan::{
    scan_pairs, unseen_range, with_marks, Mark, MarkArray, MarkWidth, WantTable, TABLE_BITS,
};
use crate::error::{Error, Result};
use crate::heap::checkpoint::{self, Checkpoint};
use crate::heap::period::find_period_of;
use crate::heap::{find_period_below, HeapRules, Periodicity, Values};
use crate::progress::Progress;
use crate::simd::Simd;
use std::borrow::Cow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

mod small;

/// The largest nim value the engine stores (values are `u16`).
pub const MAX_VALUE: u32 = u16::MAX as u32;

/// The largest heap size the engine accepts (heap indices are stored as `u32`).
pub const MAX_HEAP: usize = u32::MAX as usize - 1;

/// The most removal amounts a code may have for the sparse engine (it lists the digits).
pub const MAX_DIGITS: u64 = 4096;

/// Why the sparse engine cannot compute `code`, if it cannot: moves that leave three heaps
/// (hexadecimal digits 8–F), and unbounded or very long lists of removal amounts are outside
/// it; callers then use the generic heap engine ([`crate::heap::Tabulation`]).
pub fn unsupported_reason(code: &Code) -> Option<String> {
    if code.max_heaps() >= 3 {
        return Some(format!(
            "{}: moves that leave three heaps are outside the sparse engine",
            code.name()
        ));
    }
    if code.dense_digits(MAX_DIGITS).is_none() {
        return Some(format!(
            "{}: the sparse engine takes codes of at most {MAX_DIGITS} digits",
            code.name()
        ));
    }
    None
}

/// Whether [`run`] is the engine for `code`: codes that split heaps (in two) and are inside
/// the sparse engine. Codes that never split are faster on the bitset engine of
/// [`crate::heap::Tabulation`] (a few lookups a heap).
pub fn suits(code: &Code) -> bool {
    code.splits() && unsupported_reason(code).is_none()
}

/// Settings of a run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Worker threads: 1 or 2.
    pub threads: usize,
    /// Where to keep a checkpoint; an existing one for the same code is resumed.
    pub checkpoint: Option<PathBuf>,
    /// How often to write the checkpoint.
    pub checkpoint_interval: Duration,
    /// Stop without a final checkpoint once this heap is computed, as if the process were
    /// killed there (for tests of resuming). [`compute`] then fails with [`Error::Limit`].
    pub stop_after: Option<usize>,
    /// Force the naive computation (for tests and comparisons).
    pub naive_only: bool,
    /// Stop once a period is certified (the engine looks at every doubling of its table),
    /// leaving the values computed so far instead of filling them in to `to`.
    pub until_period: bool,
    /// The instruction-set path of the pair scans ([`Simd::Auto`]: the best this CPU runs).
    pub simd: Simd,
    /// The heap count from which the values are kept in one byte each where the mode allows
    /// (see [`Engine::pack_from`]); `None`: from a quarter of the table on, for tables of
    /// [`PACK_MIN`] heaps and more or that would not fit the memory budget unpacked.
    pub pack_from: Option<usize>,
}

impl Options {
    /// One thread, no checkpoint (one every minute when a file is given), the best path of
    /// this CPU, every value to `to`.
    pub const DEFAULT: Options = Options {
        threads: 1,
        checkpoint: None,
        checkpoint_interval: Duration::from_secs(60),
        stop_after: None,
        naive_only: false,
        until_period: false,
        simd: Simd::Auto,
        pack_from: None,
    };
}

impl Default for Options {
    fn default() -> Self {
        Options::DEFAULT
    }
}

/// How the engine finds the options of the next heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every pair of every split.
    Naive,
    /// The rare-value method.
    Sparse {
        /// The mask `m`: a value's class is the parity of `value & mask`.
        mask: u16,
        /// Whether the class also flips with the parity of the heap size.
        heap_parity: bool,
    },
}

/// Figures of a run so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Pairs marked from the rare list.
    pub rare_pairs: u64,
    /// Pairs scanned (naive mode, or the search below the candidate in sparse mode).
    pub scanned_pairs: u64,
    /// Values a sparse scan had to find below the candidate (summed over heaps).
    pub missing_values: u64,
    /// How often the mode was re-chosen with a rebuild of the rare list.
    pub rebuilds: u64,
    /// Batches whose rare-list marks a second thread computed while the engine stepped
    /// through the batch before.
    pub batches_ahead: u64,
    /// Heaps computed two at a time, one on each thread (where heap n + 1 never reads G(n)).
    pub paired_heaps: u64,
}

impl Stats {
    /// Adds the counters of `other`.
    fn add(&mut self, other: &Stats) {
        self.rare_pairs += other.rare_pairs;
        self.scanned_pairs += other.scanned_pairs;
        self.missing_values += other.missing_values;
        self.rebuilds += other.rebuilds;
        self.batches_ahead += other.batches_ahead;
        self.paired_heaps += other.paired_heaps;
    }
}

/// Size of the marking array: any XOR of two values, plus room for the mex above them.
const SEEN: usize = 1 << 17;

/// Heaps below this are computed naively before the first choice of a mask.
const FIRST_REVIEW: usize = 256;

/// A sparse mode is never used when its rare list holds more than this fraction of the heaps.
const SPARSE_FRACTION: f64 = 0.3;

/// The cost of one rare-list pair (a gathered load and a byte store) in scanned pairs, as
/// measured on 0.6 and 0.007: the AVX-512 scan tests 32 pairs in a few instructions but pays
/// for every new value it finds.
const RARE_COST_AVX512: f64 = 2.0;
const RARE_COST_BLOCKS: f64 = 2.0;

/// Pairs per task below which a second thread costs more than it saves. Measured on 0.007 to
/// 2^18 with the naive scan: splitting at 2^14 pairs took 6.4 s against 3.8 s on one thread,
/// because each half must discover every value on its own (the new values, not the pairs,
/// dominate), and the join costs microseconds; 2^17 keeps splits to heaps where a half's scan
/// outweighs that.
const PARALLEL_MIN_PAIRS: usize = 1 << 17;

/// Work per heap (pairs scanned, plus rare-list pairs at their cost) from which two heaps
/// are computed at once on two threads ([`Engine::step_pair`]): each pair of heaps costs a
/// `rayon::join`, a few microseconds, where a heap of this much work takes about 10 µs
/// (0.007 near 2^18 does about 50,000 a heap).
const PAIR_MIN_WORK: f64 = 16_384.0;

/// Heaps whose rare-list marks are computed together.
const BATCH: usize = 16;

/// Rare-list entries from which a second thread marks batches ahead. Below it the threads'
/// hand-overs cost more than the marks: 0.106 (15 entries) to 2^22 took 0.66 s on one thread
/// and 0.86 s on two, 0.16 (52 entries) the same on both.
const AHEAD_MIN_LIST: usize = 256;

/// Length of one batch marking array: room for every u16, and a stride that is not a multiple
/// of 4 KiB, so the arrays' stores do not alias each other's loads in the store buffer.
const MARKS: usize = (1 << 16) + 192;

/// Rare-pair marks of `BATCH` consecutive heaps, computed in one pass over the rare list.
struct Batch {
    /// The first heap of the batch.
    start: usize,
    /// Whether the marks belong to the current mode and rare list.
    valid: bool,
    /// The value bound when the marks were made (what must be cleared).
    cap: usize,
    /// For each split digit, the rare-list indices the batch covered.
    covered: Vec<std::ops::Range<usize>>,
    /// For the first two split digits and each heap, the first pair `a` of the
    /// [`PLAIN_SCAN`] pairs near the middle that the batch marked too (0: none).
    plain: Vec<[usize; BATCH]>,
    /// One marking array per heap, `MARKS` entries each ([`Batch::lanes`]), of the
    /// engine's mark width.
    marks: MarkArray,
}

impl Batch {
    /// Marks the rare pairs of heaps `start..start + BATCH` with list entries `r ≥ least`
    /// whose partners are in `values` (`least ≥ BATCH` and `values` reaching heap
    /// `start + BATCH − least`), and records which entries it covered. With `near` (values
    /// and the heap of the first), also the first [`PLAIN_SCAN`] pairs of
    /// [`Order::NearMiddle`] where both heaps are in `near` (splits into equal heaps allowed).
    #[allow(clippy::too_many_arguments)]
    fn fill(
        &mut self,
        values: &[u16],
        offset: usize,
        rare: &[u32],
        rare_values: &[u16],
        splits: &[usize],
        start: usize,
        least: usize,
        cap: usize,
        near: Option<(&[u16], usize)>,
    ) {
        with_marks!(self.marks.width(), M => self.fill_as::<M>(
            values,
            offset,
            rare,
            rare_values,
            splits,
            start,
            least,
            cap,
            near
        ));
    }

    /// [`Batch::fill`] with marks of type `M`, the batch's width.
    #[allow(clippy::too_many_arguments)]
    fn fill_as<M: Mark>(
        &mut self,
        values: &[u16],
        offset: usize,
        rare: &[u32],
        rare_values: &[u16],
        splits: &[usize],
        start: usize,
        least: usize,
        cap: usize,
        near: Option<(&[u16], usize)>,
    ) {
        let clear = self.cap.max(cap);
        for marks in self.lanes::<M>() {
            marks[..clear].fill(M::ZERO);
        }
        self.cap = cap;
        self.start = start;
        self.valid = true;
        self.covered.clear();
        self.plain.clear();
        let (near, w) = near.unwrap_or((&[], 0));
        for &t in splits.iter().take(if near.is_empty() { 0 } else { 2 }) {
            let mut firsts = [0; BATCH];
            let lanes = self.lanes::<M>();
            for (j, (marks, first)) in lanes.iter_mut().zip(&mut firsts).enumerate() {
                let Some(s) = (start + j).checked_sub(t).filter(|&s| s >= 2) else {
                    continue;
                };
                let last = s / 2;
                let a = Order::NearMiddle.start(last);
                // In `near`, G(x) is near[x − w]: the pairs of s − 2w from a − w on.
                if a >= w && s - a < w + near.len() {
                    let b = (a + PLAIN_SCAN - 1).min(last);
                    mark_plain(marks, near, s - 2 * w, a - w, b - w);
                    *first = a;
                }
            }
            self.plain.push(firsts);
        }
        let first = rare.partition_point(|&r| (r as usize) < least);
        for &t in splits {
            let s0 = start.saturating_sub(t);
            // Entries whose partners are all in `values` (from heap `offset` on).
            let reach = s0.saturating_sub(offset);
            let end = rare
                .partition_point(|&r| (r as usize) < s0 && r as usize <= reach)
                .max(first);
            self.covered.push(first..end);
            mark_batch(
                self.lanes::<M>(),
                values,
                &rare[first..end],
                &rare_values[first..end],
                reach,
            );
        }
    }

    /// The marking arrays, one per heap of the batch, as marks of the batch's width `M`.
    fn lanes<M: Mark>(&mut self) -> &mut [[M; MARKS]; BATCH] {
        self.marks
            .get_mut::<M>()
            .as_chunks_mut()
            .0
            .try_into()
            .expect("the batch holds BATCH marking arrays")
    }

    /// The marking array of heap `start + j`, as marks of the batch's width `M`.
    fn lane<M: Mark>(&self, j: usize) -> &[M; MARKS] {
        &self.marks.get::<M>().as_chunks().0[j]
    }

    fn new(width: MarkWidth) -> Batch {
        Batch {
            start: 0,
            valid: false,
            cap: 1,
            covered: Vec::new(),
            plain: Vec::new(),
            marks: MarkArray::new(MARKS * BATCH, width),
        }
    }
}

/// What the computation of one heap writes: its marking arrays, the order of its pair scans
/// and its work counters (added to the engine's after each step).
struct Worker {
    /// `SEEN` marks.
    seen: MarkArray,
    /// The marks of the second thread when a long marking is split between two (2^16).
    seen_other: MarkArray,
    /// Where the pair scans of the sparse mode start (see [`ScanOrder`]).
    scan_order: ScanOrder,
    stats: Stats,
    /// Pairs of packed values decoded for the scans (see [`for_pairs`]).
    scratch: Vec<u16>,
    /// The rare marks of recent sums s in [`Engine::small_value`], shared by the splits.
    small_marks: small::SmallMarks,
}

impl Worker {
    fn new(width: MarkWidth) -> Worker {
        Worker {
            seen: MarkArray::new(SEEN, width),
            seen_other: MarkArray::new(1 << 16, width),
            scan_order: ScanOrder::default(),
            stats: Stats::default(),
            scratch: Vec::new(),
            small_marks: small::SmallMarks::new(),
        }
    }
}

/// The resumable state of a computation: values so far, mode (mask) and rare list.
pub struct Engine {
    code: Code,
    /// Whether the two heaps of a split must differ (Grundy's game).
    unequal: bool,
    values: PackedValues,
    /// When the values are packed, once they are many (see [`super::packed`]).
    packing: Option<Packing>,
    /// Packed values near the middle of the table, decoded, where the scans of most heaps
    /// start (see [`Order::NearMiddle`]).
    middle: Window,
    take_all: Vec<usize>,
    take_one: Vec<usize>,
    splits: Vec<usize>,
    heap_parity_allowed: bool,
    mode: Mode,
    /// Heaps on the rare list (ascending, never 0) and their values.
    rare: Vec<u32>,
    rare_values: Vec<u16>,
    /// Value counts over even and odd heaps.
    histogram: [Vec<u64>; 2],
    /// A power of two above every value so far.
    cap: usize,
    next_review: usize,
    list_at_review: usize,
    /// The marking arrays and counters of one heap's computation: one, or two when heaps are
    /// computed in pairs (see [`Engine::step_pair`]).
    workers: Vec<Worker>,
    /// Whether heap n + 1 never reads G(n), so that the two can be computed at once: every
    /// move that leaves one heap removes at least two, every split at least one.
    pairs_independent: bool,
    /// Whether the recent heaps cost enough work for [`Engine::step_pair`] to pay.
    heavy: bool,
    /// [`PAIR_MIN_WORK`], lowered in tests.
    pair_min_work: f64,
    /// Bit v is the mask parity of v, for v < TABLE_BITS + 64 (the fast search for c).
    class_words: [u64; TABLE_BITS / 64 + 1],
    /// Rare-pair marks of the next [`BATCH`] heaps, computed together (see [`Batch`]).
    batch: Batch,
    /// The marks of the batch after it, computed by a second thread (see
    /// [`Engine::step_batch_ahead`]); allocated on first use.
    ahead: Option<Batch>,
    /// Reviews wait while a second thread reads the rare list.
    hold_reviews: bool,
    /// [`AHEAD_MIN_LIST`], lowered in tests.
    ahead_min: usize,
    /// Values below this take [`Engine::small_value`] ([`small::SMALL_CAP`]; lowered in tests so
    /// that short codes take the marking arrays too).
    small_cap: usize,
    /// Rare lists up to this long are marked word by word with small values, longer ones
    /// through the batch ([`small::SMALL_LIST`]).
    small_list: usize,
    /// Pairs a small-value scan looks at on words ([`small::WORD_SCAN`]; lowered in tests).
    word_scan: usize,
    /// How the batches ahead share the rare list between the threads.
    balance: Balance,
    parallel: bool,
    /// [`PARALLEL_MIN_PAIRS`], lowered in tests.
    parallel_min: usize,
    /// Never re-choose the mode (tests of arbitrary masks).
    fixed_mode: bool,
    /// Sparse modes must beat this list fraction (lowered when one was measured slower than
    /// the naive scan).
    sparse_ceiling: f64,
    /// Heaps and work counters at the last review.
    review_heaps: usize,
    review_stats: Stats,
    /// The pair scans' instruction-set path (a concrete one this CPU runs).
    simd: Simd,
    stats: Stats,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("code", &self.code.name())
            .field("heaps", &self.values.len())
            .field("mode", &self.mode)
            .field("rare", &self.rare.len())
            .finish()
    }
}

impl Engine {
    /// A fresh engine with no values computed.
    ///
    /// # Errors
    ///
    /// [`Error::Unsupported`] when the code is outside the sparse engine
    /// ([`unsupported_reason`]).
    pub fn new(code: &Code) -> Result<Engine> {
        if let Some(reason) = unsupported_reason(code) {
            return Err(Error::Unsupported(reason));
        }
        let digits = code.dense_digits(MAX_DIGITS).unwrap_or_default();
        let take_all = (1..digits.len()).filter(|&t| digits[t] & 1 != 0).collect();
        let take_one: Vec<usize> = (1..digits.len()).filter(|&t| digits[t] & 2 != 0).collect();
        let splits: Vec<usize> = (0..digits.len()).filter(|&t| digits[t] & 4 != 0).collect();
        // With the heap-parity variant the known parity depends on n − t, so every split must
        // remove a number of the same parity.
        let heap_parity_allowed =
            !splits.is_empty() && splits.iter().all(|&t| t % 2 == splits[0] % 2);
        let pairs_independent = take_one.iter().all(|&t| t >= 2) && splits.iter().all(|&t| t >= 1);
        let width = MarkWidth::for_this_cpu();
        Ok(Engine {
            code: code.clone(),
            unequal: code.unequal_splits(),
            values: PackedValues::default(),
            packing: None,
            middle: Window::default(),
            take_all,
            take_one,
            splits,
            heap_parity_allowed,
            mode: Mode::Naive,
            rare: Vec::new(),
            rare_values: Vec::new(),
            histogram: [vec![0; 1], vec![0; 1]],
            cap: 1,
            next_review: FIRST_REVIEW,
            list_at_review: 0,
            workers: vec![Worker::new(width)],
            pairs_independent,
            heavy: false,
            pair_min_work: PAIR_MIN_WORK,
            batch: Batch::new(width),
            ahead: None,
            hold_reviews: false,
            ahead_min: AHEAD_MIN_LIST,
            small_cap: small::SMALL_CAP,
            small_list: small::SMALL_LIST,
            word_scan: small::WORD_SCAN,
            balance: Balance::default(),
            class_words: [0; TABLE_BITS / 64 + 1],
            parallel: false,
            parallel_min: PARALLEL_MIN_PAIRS,
            fixed_mode: false,
            sparse_ceiling: SPARSE_FRACTION,
            review_heaps: 0,
            review_stats: Stats::default(),
            simd: Simd::Auto.resolve(),
            stats: Stats::default(),
        })
    }

    /// An engine that continues from stored values (a checkpoint).
    ///
    /// # Errors
    ///
    /// As [`Engine::new`]. The values are trusted (a checkpoint's checksum guards them); a
    /// mode that does not fit the code falls back to the naive mode.
    pub fn from_values(code: &Code, values: Vec<u16>, mode: Mode) -> Result<Engine> {
        let mut engine = Engine::resuming(code, mode)?;
        engine.absorb(&values);
        drop(values);
        engine.resumed();
        Ok(engine)
    }

    /// An engine about to take stored values in `mode` ([`Engine::absorb`], then
    /// [`Engine::resumed`]). A mode that does not fit the code falls back to the naive mode.
    fn resuming(code: &Code, mode: Mode) -> Result<Engine> {
        let mut engine = Engine::new(code)?;
        engine.mode = match mode {
            Mode::Sparse { heap_parity, .. }
                if engine.splits.is_empty() || (heap_parity && !engine.heap_parity_allowed) =>
            {
                Mode::Naive
            }
            mode => mode,
        };
        Ok(engine)
    }

    /// Appends stored values (packing them when due, so that a long table is never whole).
    fn absorb(&mut self, values: &[u16]) {
        for &v in values {
            self.count(self.values.len(), v);
            self.values.push(v);
        }
        self.pack_if_due();
    }

    /// Ends a resume: the rare list of the mode, and the next review.
    fn resumed(&mut self) {
        self.next_review = self.values.len().max(FIRST_REVIEW);
        self.set_mode(self.mode);
    }

    /// The values computed so far: G(0), G(1), … (a copy once they are packed).
    pub fn values(&self) -> Cow<'_, [u16]> {
        match self.values.whole() {
            Some(values) => Cow::Borrowed(values),
            None => Cow::Owned(self.values.to_vec()),
        }
    }

    /// How many values are computed.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no value is computed yet.
    pub fn is_empty(&self) -> bool {
        self.values.len() == 0
    }

    /// Consumes the engine, returning its values.
    pub fn into_values(self) -> Vec<u16> {
        self.values.into_vec()
    }

    /// Packs the values from heap `from` on (see [`super::packed`]), keeping the first `head`
    /// and the last `keep` whole (at least every partner the newest heaps' moves and batches
    /// read): [`run`] does so for long tables.
    pub fn pack_from(&mut self, from: usize, head: usize, keep: usize) {
        let reach = self
            .take_all
            .iter()
            .chain(&self.take_one)
            .chain(&self.splits)
            .max();
        self.packing = Some(Packing {
            from,
            head,
            keep: keep.max(reach.map_or(0, |&t| t + 1) + 4 * BATCH + 64),
        });
    }

    /// Whether the values are packed.
    pub fn is_packed(&self) -> bool {
        self.values.is_packed()
    }

    /// Packs the values when due: the first time once there are [`Packing::from`] of them and
    /// the mode's rule gives nearly all of them, then whenever the tail has doubled. Never
    /// while a second thread reads the tail (between steps only).
    fn pack_if_due(&mut self) {
        let Some(packing) = self.packing else {
            return;
        };
        let n = self.values.len();
        let rule = self.packing_rule();
        // How many of the newest values a rule misses.
        let misses = |values: &PackedValues, rule: Rule| {
            let (first, tail) = values.tail();
            let recent = tail.len().saturating_sub(1 << 16);
            (first + recent..)
                .zip(&tail[recent..])
                .filter(|&(x, &v)| !rule.gives(v, x))
                .count()
        };
        if let Some(current) = self.values.rule() {
            let (first, _) = self.values.tail();
            if n - first >= 2 * packing.keep {
                // Packed before the mode changed: the new mode's rule, if it fits better.
                if current != rule && misses(&self.values, rule) < misses(&self.values, current) {
                    self.values.set_rule(rule);
                }
                self.values.pack(rule, 0, packing.keep);
            }
            self.middle.follow(&self.values);
            return;
        }
        if n < packing.from || self.cap > 1 << 9 {
            return;
        }
        // Packing pays only when the rule gives nearly every value: look at the recent ones.
        let recent = n.min(1 << 16);
        if misses(&self.values, rule) > recent / 64 {
            // Not now; look again after as many heaps more.
            self.packing = Some(Packing {
                from: 2 * n,
                ..packing
            });
            return;
        }
        self.values.pack(rule, packing.head, packing.keep);
        self.middle.follow(&self.values);
    }

    /// How the current mode packs a value: its ninth bit follows from the common class.
    fn packing_rule(&self) -> Rule {
        match self.mode {
            Mode::Naive => Rule::LOW_BYTE,
            Mode::Sparse { mask, heap_parity } => {
                let rare_class = u32::from(heap_parity) & (self.splits[0] as u32 & 1);
                Rule::sparse(mask, heap_parity, 1 ^ rare_class)
            }
        }
    }

    /// G(x) for a known heap, from the tail when it is there.
    #[inline]
    fn value_at(&self, x: usize) -> u16 {
        let (first, tail) = self.values.tail();
        match x.checked_sub(first) {
            Some(i) => tail[i],
            None => self.values.get(x),
        }
    }

    /// The current mode (naive, or the mask of the sparse method).
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The number of heaps on the rare list.
    pub fn rare_len(&self) -> usize {
        self.rare.len()
    }

    /// Work counters: the engine's own, and those its workers gathered while marking.
    pub fn stats(&self) -> Stats {
        let mut stats = self.stats;
        for worker in &self.workers {
            stats.add(&worker.stats);
        }
        stats
    }

    /// The code being computed.
    pub fn code(&self) -> &Code {
        &self.code
    }

    fn count(&mut self, x: usize, v: u16) {
        let v = usize::from(v);
        while self.cap <= v {
            self.cap *= 2;
        }
        let hist = &mut self.histogram[x & 1];
        if hist.len() <= v {
            hist.resize(self.cap, 0);
        }
        hist[v] += 1;
    }

    /// Whether heap `x` with value `v` belongs on the rare list of `mode`.
    fn is_rare(&self, mode: Mode, x: usize, v: u16) -> bool {
        match mode {
            Mode::Naive => false,
            Mode::Sparse { mask, heap_parity } => {
                let hp = u32::from(heap_parity);
                let class = (v & mask).count_ones() & 1 ^ (hp & x as u32);
                class == hp & (self.splits[0] as u32 & 1)
            }
        }
    }

    fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
        self.batch.valid = false;
        if let Some(ahead) = &mut self.ahead {
            ahead.valid = false;
        }
        if let Mode::Sparse { mask, .. } = mode {
            for (w, word) in self.class_words.iter_mut().enumerate() {
                *word = (0..64).fold(0, |acc, i| {
                    let parity = ((w * 64 + i) as u64 & u64::from(mask)).count_ones() & 1;
                    acc | u64::from(parity) << i
                });
            }
        }
        self.rare.clear();
        self.rare_values.clear();
        if let Mode::Sparse { .. } = mode {
            let values = std::mem::take(&mut self.values);
            let mut x = 0;
            values.for_each_chunk(1 << 16, |chunk| {
                for &v in chunk {
                    if x > 0 && self.is_rare(mode, x, v) {
                        self.rare.push(x as u32);
                        self.rare_values.push(v);
                    }
                    x += 1;
                }
            });
            self.values = values;
        }
        self.list_at_review = self.rare.len();
        self.stats.rebuilds += 1;
    }

    /// The best mode for the histogram so far: the mask whose rare list is shortest, by a
    /// Walsh–Hadamard transform of the value counts, or naive when none is short enough.
    fn best_mode(&self) -> Mode {
        if self.splits.is_empty() {
            return Mode::Naive;
        }
        let size = self.cap.max(2);
        let transform = |hist: &Vec<u64>| {
            let mut w: Vec<i64> = (0..size)
                .map(|v| hist.get(v).copied().unwrap_or(0) as i64)
                .collect();
            let mut h = 1;
            while h < size {
                for i in (0..size).step_by(2 * h) {
                    for j in i..i + h {
                        let (a, b) = (w[j], w[j + h]);
                        w[j] = a + b;
                        w[j + h] = a - b;
                    }
                }
                h *= 2;
            }
            w
        };
        let even = transform(&self.histogram[0]);
        let odd = transform(&self.histogram[1]);
        let total = self.values.len() as i64;
        let t_odd = self.splits[0] & 1 == 1;
        let mut best: Option<(i64, Mode)> = None;
        for mask in 1..size {
            let mut candidates = vec![(even[mask] + odd[mask], false)];
            if self.heap_parity_allowed {
                candidates.push((even[mask] - odd[mask], true));
            }
            for (d, heap_parity) in candidates {
                // d = #class 0 − #class 1; the list is class 1 only with heap parity and odd t.
                let list = if heap_parity && t_odd {
                    (total - d) / 2
                } else {
                    (total + d) / 2
                };
                let mode = Mode::Sparse {
                    mask: mask as u16,
                    heap_parity,
                };
                let better = match best {
                    None => true,
                    Some((b, m)) => list < b || (list == b && mode == self.mode && m != mode),
                };
                if better {
                    best = Some((list, mode));
                }
            }
        }
        match best {
            Some((list, mode)) if (list as f64) <= self.sparse_limit() * total as f64 => mode,
            _ => Mode::Naive,
        }
    }

    fn rare_cost(&self) -> f64 {
        match self.simd {
            Simd::Avx512 => RARE_COST_AVX512,
            _ => RARE_COST_BLOCKS,
        }
    }

    /// Chooses the instruction-set path of the pair scans.
    ///
    /// # Errors
    ///
    /// [`Error::Unsupported`] when this CPU does not run `path`.
    pub fn set_simd(&mut self, path: Simd) -> Result<()> {
        if !path.is_available() {
            return Err(Error::Unsupported(format!(
                "this CPU does not run the {path} path (it runs {})",
                Simd::available()
                    .iter()
                    .map(|p| p.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        self.simd = path.resolve();
        Ok(())
    }

    /// The instruction-set path of the pair scans.
    pub fn simd(&self) -> Simd {
        self.simd
    }

    /// Marking arrays of `width` from now on (tests run both widths on every machine); fresh
    /// arrays, so only before the first heap is stepped.
    #[cfg(test)]
    fn set_marks(&mut self, width: MarkWidth) {
        self.workers = vec![Worker::new(width)];
        self.batch = Batch::new(width);
        self.ahead = None;
    }

    /// The largest list fraction for which a sparse mode is tried.
    fn sparse_limit(&self) -> f64 {
        self.sparse_ceiling
    }

    fn review(&mut self, naive_only: bool) {
        let n = self.values.len();
        let stats = self.stats();
        if let Mode::Sparse { .. } = self.mode {
            // Compare the measured work since the last review with what scanning every pair
            // would have cost; a sparse mode that lost clearly is not tried again at this
            // density. (The margin keeps 0.6 sparse through its early heaps, where the naive
            // detour was measured 10% slower overall.)
            let rare = (stats.rare_pairs - self.review_stats.rare_pairs) as f64;
            let scanned = (stats.scanned_pairs - self.review_stats.scanned_pairs) as f64;
            let sparse = rare * self.rare_cost() + scanned;
            let (a, b) = (self.review_heaps as f64, n as f64);
            let naive = self.splits.len() as f64 * (b * b - a * a) / 4.0;
            if n > self.review_heaps && sparse > 1.5 * naive {
                let fraction = self.rare.len() as f64 / n as f64;
                self.sparse_ceiling = fraction / 2.0;
            }
        }
        if n > self.review_heaps {
            let rare = (stats.rare_pairs - self.review_stats.rare_pairs) as f64;
            let scanned = (stats.scanned_pairs - self.review_stats.scanned_pairs) as f64;
            let work = (rare * self.rare_cost() + scanned) / (n - self.review_heaps) as f64;
            self.heavy = work >= self.pair_min_work;
        }
        self.review_heaps = n;
        self.review_stats = stats;
        let mode = if naive_only {
            Mode::Naive
        } else {
            self.best_mode()
        };
        if mode != self.mode {
            self.set_mode(mode);
        } else {
            self.list_at_review = self.rare.len();
        }
        self.next_review = n + (n / 8).max(FIRST_REVIEW);
    }

    /// Whether large markings are split between two threads with `rayon::join` (call
    /// [`Engine::step`] inside a two-thread pool's `install` for that to help).
    pub fn set_parallel(&mut self, parallel: bool) {
        self.parallel = parallel;
    }

    /// Computes the next heap's value.
    ///
    /// # Errors
    ///
    /// [`Error::Limit`] when the value does not fit `u16`, or the heap size exceeds
    /// [`MAX_HEAP`].
    pub fn step(&mut self) -> Result<u16> {
        self.pack_if_due();
        self.step_with(false)
    }

    /// Re-chooses the mode when a review is due (not while reviews are held).
    fn review_if_due(&mut self, naive_only: bool) {
        let n = self.values.len();
        let rare_grew = self.rare.len() > 2 * self.list_at_review + 64 + n / 64;
        if !self.fixed_mode
            && !self.hold_reviews
            && (n >= self.next_review || (rare_grew && n >= FIRST_REVIEW))
        {
            self.review(naive_only);
        }
    }

    /// Whether [`Engine::step_batch_ahead`] applies at the next heap: two threads, a sparse
    /// mode with batched marks and a rare list long enough to share, and a heap count that
    /// is a multiple of [`BATCH`].
    fn can_step_ahead(&self) -> bool {
        self.wants_ahead() && self.values.len().is_multiple_of(BATCH)
    }

    /// [`Engine::can_step_ahead`] but for the heap count being a multiple of [`BATCH`] (heaps
    /// are then stepped one at a time up to one).
    fn wants_ahead(&self) -> bool {
        self.parallel
            && !self.unequal
            && self.values.len() >= 4 * BATCH
            && matches!(self.mode, Mode::Sparse { .. })
            && (self.ahead_min..2 * self.parallel_min).contains(&self.rare.len())
    }

    /// Computes the next [`BATCH`] heaps with [`Engine::step_batch_ahead`] where it applies
    /// and the batch ends at heap `last` or before; or else the next two with
    /// [`Engine::step_pair`] where that applies and both end at `last` or before; or else
    /// the next heap.
    fn advance(&mut self, naive_only: bool, last: usize) -> Result<()> {
        self.pack_if_due();
        // Where both apply (0.007), the batches ahead were measured faster: 8.9 s against
        // 12.5 s to 2^19 on two threads (14.3 s on one), since pairs wait for the slower heap.
        let ahead = !naive_only && self.wants_ahead();
        if ahead && self.can_step_ahead() && self.values.len() + BATCH <= last + 1 {
            self.step_batch_ahead(naive_only)
        } else if !ahead && self.can_step_pair() && self.values.len() < last {
            self.step_pair(naive_only)
        } else {
            self.step_with(naive_only).map(|_| ())
        }
    }

    /// Computes the next [`BATCH`] heaps while a second thread marks the rare pairs of the
    /// batch after them (call it inside a two-thread pool's `install`). The second thread
    /// reads the values and the rare list as they stand at the first heap; the entries that
    /// reach into the batch being computed (`r < 2·BATCH`) and those added meanwhile are
    /// marked heap by heap, as always. Reviews of the mode wait for the batch's end.
    fn step_batch_ahead(&mut self, naive_only: bool) -> Result<()> {
        self.review_if_due(naive_only);
        if !self.can_step_ahead() {
            for _ in 0..BATCH {
                self.step_with(naive_only)?;
            }
            return Ok(());
        }
        let n = self.values.len();
        let ready = self
            .ahead
            .as_ref()
            .is_some_and(|ahead| ahead.valid && ahead.start == n);
        if let (true, Some(ahead)) = (ready, &mut self.ahead) {
            std::mem::swap(&mut self.batch, ahead);
        } else if !(self.batch.valid && self.batch.start == n) {
            self.fill_batch(n);
        }
        let width = self.batch.marks.width();
        let mut ahead = self.ahead.take().unwrap_or_else(|| Batch::new(width));
        // Room for the batch's appends, so that no list moves while the other thread reads it.
        self.values.reserve(BATCH);
        self.rare.reserve(BATCH);
        self.rare_values.reserve(BATCH);
        let (offset, tail) = self.values.tail();
        let known = Known {
            values: tail.as_ptr(),
            heaps: tail.len(),
            offset,
            rare: self.rare.as_ptr(),
            rare_values: self.rare_values.as_ptr(),
            listed: self.rare.len(),
            middle: self.middle.values.as_ptr(),
            middle_len: self.middle.values.len(),
            middle_first: self.middle.first,
        };
        let splits = self.splits.clone();
        let cap = self.cap;
        // The first thread marks the list's entries below `least` itself, as many as keep
        // the two threads' times level.
        let first = self.rare.partition_point(|&r| (r as usize) < 2 * BATCH);
        let least = self
            .rare
            .get(first + self.balance.own_entries)
            .map_or(usize::MAX, |&r| r as usize);
        self.hold_reviews = true;
        let ((stepped, own), ahead_time) = rayon::join(
            || {
                let clock = Instant::now();
                let stepped = (0..BATCH).try_for_each(|_| self.step_with(naive_only).map(|_| ()));
                (stepped, clock.elapsed())
            },
            || {
                let clock = Instant::now();
                let known = &known;
                // SAFETY: the pointers and lengths describe prefixes of the engine's
                // values (their whole tail), `rare` and `rare_values`, and the middle
                // window. While this closure runs, the engine only appends to the first
                // three (reviews, which rebuild the rare list, are held, and packing, which
                // rebuilds the window, waits for the next step), and their capacity was
                // reserved above for every append of the batch, so the prefixes neither move
                // nor change; `rayon::join` returns only after this closure has finished with
                // them.
                let (values, rare, rare_values, middle) = unsafe {
                    (
                        std::slice::from_raw_parts(known.values, known.heaps),
                        std::slice::from_raw_parts(known.rare, known.listed),
                        std::slice::from_raw_parts(known.rare_values, known.listed),
                        std::slice::from_raw_parts(known.middle, known.middle_len),
                    )
                };
                // The plain pairs near the middle: in the whole table, or in the decoded
                // window when packed.
                let near = if known.offset == 0 {
                    (values, 0)
                } else {
                    (middle, known.middle_first)
                };
                // Partners of entries r ≥ 2·BATCH are below heap n, all known.
                ahead.fill(
                    values,
                    known.offset,
                    rare,
                    rare_values,
                    &splits,
                    n + BATCH,
                    least.max(2 * BATCH),
                    cap,
                    Some(near),
                );
                clock.elapsed()
            },
        );
        self.hold_reviews = false;
        self.ahead = Some(ahead);
        self.stats.batches_ahead += 1;
        self.balance.record(own, ahead_time, self.rare.len());
        stepped
    }

    fn step_with(&mut self, naive_only: bool) -> Result<u16> {
        let n = self.values.len();
        if n > MAX_HEAP {
            return Err(Error::Limit(format!(
                "heap {n} is past the engine's limit of {MAX_HEAP}"
            )));
        }
        self.review_if_due(naive_only);
        self.prepare_batch(n..=n, true);
        let mut workers = std::mem::take(&mut self.workers);
        let value = self.heap_value(&mut workers[0], n, true);
        self.workers = workers;
        self.push(n, value)
    }

    /// Whether [`Engine::step_pair`] applies at the next heap: two threads, heaps that do not
    /// read their predecessor, and recent heaps costly enough to share.
    fn can_step_pair(&self) -> bool {
        let n = self.values.len();
        self.parallel
            && self.pairs_independent
            && self.heavy
            && !self.unequal
            && (FIRST_REVIEW..MAX_HEAP).contains(&n)
    }

    /// Computes heaps n and n + 1 at once, one on each thread (call it inside a two-thread
    /// pool's `install`). Heap n + 1 reads only values below n when every move that leaves
    /// one heap removes at least two and every split at least one (0.007, 0.106, 0.16), so
    /// the two computations share nothing but what is known; each has its own marking
    /// arrays.
    fn step_pair(&mut self, naive_only: bool) -> Result<()> {
        let n = self.values.len();
        self.review_if_due(naive_only);
        if !self.can_step_pair() {
            return self.step_with(naive_only).map(|_| ());
        }
        self.prepare_batch(n..=n + 1, false);
        if self.workers.len() < 2 {
            self.workers.push(Worker::new(self.batch.marks.width()));
        }
        let mut workers = std::mem::take(&mut self.workers);
        let (first, second) = workers.split_at_mut(1);
        let engine = &*self;
        let (a, b) = rayon::join(
            || engine.heap_value(&mut first[0], n, false),
            || engine.heap_value(&mut second[0], n + 1, false),
        );
        self.workers = workers;
        self.stats.paired_heaps += 2;
        self.push(n, a)?;
        self.push(n + 1, b)?;
        Ok(())
    }

    /// Fills the batch of rare-list marks for the heaps `heaps` (at most [`BATCH`], the
    /// first the next to compute) when the sparse mode will read it (`split_allowed`:
    /// whether a long list may be split between the threads instead).
    fn prepare_batch(&mut self, heaps: std::ops::RangeInclusive<usize>, split_allowed: bool) {
        // Values below [`small::SMALL_CAP`] with a short list mark their rare pairs on one word
        // per heap, faster than through a batch (which a second thread still fills ahead, see
        // [`Engine::step_batch_ahead`]).
        if matches!(self.mode, Mode::Sparse { .. })
            && !self.takes_small_path()
            && self.batched(split_allowed)
            && !(self.batch_covers(*heaps.start()) && self.batch_covers(*heaps.end()))
        {
            self.fill_batch(*heaps.start());
        }
    }

    /// Whether the sparse mode's heaps take [`Engine::small_value`]: small values and a short
    /// rare list (a long one is marked faster through the batch, and its long scans through
    /// the marking arrays).
    fn takes_small_path(&self) -> bool {
        self.cap <= self.small_cap && self.rare.len() <= self.small_list
    }

    /// Whether the sparse mode reads the batch's marks (not Grundy's game, which excludes the
    /// pair (s/2, s/2) that the batch does not track, nor a long list split between threads).
    fn batched(&self, split_allowed: bool) -> bool {
        !self.unequal && !self.splits_rare_list(split_allowed)
    }

    /// Whether a long rare list is marked by two threads, half each.
    fn splits_rare_list(&self, split_allowed: bool) -> bool {
        self.may_split(split_allowed, self.rare.len())
    }

    /// Whether a marking of `len` entries (rare-list entries or pairs) is split between two
    /// threads, half each.
    fn may_split(&self, split_allowed: bool, len: usize) -> bool {
        split_allowed && self.parallel && len >= 2 * self.parallel_min
    }

    /// Whether the batch holds valid marks for heap `n`.
    fn batch_covers(&self, n: usize) -> bool {
        self.batch.valid && (self.batch.start..self.batch.start + BATCH).contains(&n)
    }

    /// Appends G(n) = `value` (n = the number of values so far), and to the rare list when it
    /// is rare.
    fn push(&mut self, n: usize, value: usize) -> Result<u16> {
        debug_assert_eq!(n, self.values.len());
        let value = to_value(n, value)?;
        self.values.push(value);
        self.count(n, value);
        if n > 0 && self.is_rare(self.mode, n, value) {
            self.rare.push(n as u32);
            self.rare_values.push(value);
        }
        Ok(value)
    }

    /// G(n), from the values and the rare list so far (for the second heap of a pair they
    /// stop two heaps below it, see [`Engine::step_pair`]), into `w`'s marking arrays and
    /// counters; with `split_allowed`, long markings may be split between two threads.
    fn heap_value(&self, w: &mut Worker, n: usize, split_allowed: bool) -> usize {
        // The batch's width is the engine's: every marking array has it.
        with_marks!(self.batch.marks.width(), M => self.heap_value_as::<M>(w, n, split_allowed))
    }

    /// [`Engine::heap_value`] with marks of type `M`, the engine's width.
    fn heap_value_as<M: Mark>(&self, w: &mut Worker, n: usize, split_allowed: bool) -> usize {
        if let Mode::Sparse { heap_parity, .. } = self.mode {
            if self.takes_small_path() && !self.splits_rare_list(split_allowed) {
                return if self.cap <= 64 {
                    self.small_value::<u64, M>(w, n, heap_parity, split_allowed)
                } else {
                    self.small_value::<small::Wide, M>(w, n, heap_parity, split_allowed)
                };
            }
        }
        let cap = self.cap;
        w.seen.get_mut::<M>()[..cap].fill(M::ZERO);
        for &t in &self.take_all {
            if t == n {
                w.seen.get_mut::<M>()[0] = M::ONE;
            }
        }
        for &t in &self.take_one {
            if t < n {
                w.seen.get_mut::<M>()[usize::from(self.value_at(n - t))] = M::ONE;
            }
        }
        match self.mode {
            Mode::Naive => {
                // Only values below the mex matter. Look for values up to just above the recent
                // maximum first; only if all of them are options is a second, full pass needed.
                let (first, tail) = self.values.tail();
                let recent = tail[n.saturating_sub(64).max(first) - first..].iter().max();
                let bound = recent.map_or(self.cap, |&m| usize::from(m) + 2);
                let mut value = self.cap;
                for bound in [bound, self.cap] {
                    for &t in &self.splits {
                        if n >= t + 2 {
                            self.mark_all_pairs::<M>(w, n - t, bound.min(self.cap), split_allowed);
                        }
                    }
                    value = mex(w.seen.get::<M>(), 0, usize::MAX, |_| true);
                    if value < bound {
                        break;
                    }
                }
                value
            }
            Mode::Sparse { mask, heap_parity } => {
                self.sparse_value::<M>(w, n, mask, heap_parity, split_allowed)
            }
        }
    }

    fn sparse_value<M: Mark>(
        &self,
        w: &mut Worker,
        n: usize,
        mask: u16,
        heap_parity: bool,
        split_allowed: bool,
    ) -> usize {
        let unequal = self.unequal;
        // The batch's marks, when [`Engine::prepare_batch`] made them for this heap (a heap
        // without them marks every list entry itself).
        let batched = self.batched(split_allowed) && self.batch_covers(n);
        let lane = n.wrapping_sub(self.batch.start);
        for i in 0..self.splits.len() {
            let t = self.splits[i];
            if n < t + 2 {
                continue;
            }
            let s = n - t;
            // Rare heaps r with 1 ≤ r ≤ s − 1: the list is ascending. The batch covered the
            // entries in `covered`; the rest are marked here.
            let end = self.rare.partition_point(|&r| (r as usize) < s);
            let covered = if batched {
                self.batch.covered[i].clone()
            } else {
                0..0
            };
            w.stats.rare_pairs += end as u64;
            let parallel = self.splits_rare_list(split_allowed) && end >= 2 * self.parallel_min;
            let ranges = [0..covered.start.min(end), covered.end.min(end)..end];
            // Entries whose partners are in the tail (every entry while nothing is packed),
            // then the others, one by one.
            let (offset, tail) = self.values.tail();
            let reach = self
                .rare
                .partition_point(|&r| r as usize <= s.saturating_sub(offset));
            for range in ranges {
                let near = range.start..range.end.min(reach);
                if !near.is_empty() {
                    mark_rare(
                        w.seen.get_mut::<M>(),
                        parallel.then_some(w.seen_other.get_mut::<M>()),
                        self.cap,
                        &self.rare[near.clone()],
                        &self.rare_values[near],
                        (tail, offset),
                        s,
                        unequal,
                    );
                }
                for i in range.start.max(reach)..range.end {
                    let r = self.rare[i] as usize;
                    if !(unequal && 2 * r == s) {
                        let partner = self.values.get(s - r);
                        w.seen.get_mut::<M>()[usize::from(self.rare_values[i] ^ partner)] = M::ONE;
                    }
                }
            }
        }
        if batched {
            let marks = self.batch.lane::<M>(lane);
            for (a, b) in w.seen.get_mut::<M>()[..self.cap]
                .iter_mut()
                .zip(&marks[..self.cap])
            {
                *a |= *b;
            }
        }
        let known = if heap_parity && self.splits.first().is_some_and(|&t| n >= t + 2) {
            1 ^ ((n - self.splits[0]) as u32 & 1)
        } else {
            1
        };
        if WantTable::fits(self.cap) {
            // Every option of the known parity is marked now: find c and the values below it
            // still missing on 64-value words.
            let words = self.cap / 64 + 1;
            let mut unseen = [0u64; TABLE_BITS / 64 + 1];
            unseen_words(w.seen.get::<M>(), &mut unseen[..words]);
            let class = &self.class_words;
            let mut c = words * 64;
            for (w, (&u, &k)) in unseen[..words].iter().zip(class).enumerate() {
                let candidates = if known == 1 { u & k } else { u & !k };
                if candidates != 0 {
                    c = w * 64 + candidates.trailing_zeros() as usize;
                    break;
                }
            }
            // Filled in place: moves of the table (in a build where it was 1 KiB) showed in
            // profiles.
            let mut want = WantTable::EMPTY;
            let mut remaining = wanted_below(&mut want, &unseen[..words], c);
            // The first pairs of a scan find most of many missing values: mark them plainly
            // (a store each), and scan for the fewer values left, each of which costs the
            // scan a branch and updates of its tables.
            let order = w.scan_order.choose();
            let mut plain = self.plain_in_batch(n, order, batched.then_some(lane));
            if remaining > PLAIN_WHEN_MISSING {
                self.mark_plain_splits::<M>(w, n, order, &mut plain);
                unseen_words(w.seen.get::<M>(), &mut unseen[..words]);
                remaining = wanted_below(&mut want, &unseen[..words], c);
            }
            w.stats.missing_values += remaining as u64;
            if remaining == 0 {
                return c;
            }
            remaining = self.scan_splits::<M, 128>(w, n, (order, plain), &mut want, remaining);
            if remaining == 0 {
                c
            } else {
                mex(w.seen.get::<M>(), 0, c, |_| true)
            }
        } else {
            let parity = |v: usize| (v as u32 & u32::from(mask)).count_ones() & 1;
            // Every option of the known parity is marked now.
            let c = mex(w.seen.get::<M>(), 0, usize::MAX, |v| parity(v) == known);
            // The values missing below c, when they lie within one table's window: the
            // AVX-512 scan looks 32 pairs up at a time (values from 2048 up are common here:
            // 0.764 to 2^18 reaches 4665).
            if self.simd == Simd::Avx512 {
                let Some(range) = unseen_range(w.seen.get::<M>(), c) else {
                    return c;
                };
                let lane = batched.then_some(lane);
                // The shortest window that holds them; past 8192 values, pair by pair below.
                let left = match range.1 - (range.0 & !63) {
                    span if span < TABLE_BITS => {
                        Some(self.scan_window::<M, 128>(w, n, c, range, lane))
                    }
                    span if span < 2 * TABLE_BITS => {
                        Some(self.scan_window::<M, 256>(w, n, c, range, lane))
                    }
                    span if span < 4 * TABLE_BITS => {
                        Some(self.scan_window::<M, 512>(w, n, c, range, lane))
                    }
                    _ => None,
                };
                if let Some(left) = left {
                    return if left == 0 {
                        c
                    } else {
                        mex(w.seen.get::<M>(), 0, c, |_| true)
                    };
                }
            }
            let mut remaining = w.seen.get::<M>()[..c]
                .iter()
                .filter(|&&s| s == M::ZERO)
                .count();
            if remaining == 0 {
                return c;
            }
            // Values from c up are not needed: marking them as seen leaves one predictable test per
            // pair in the scan below.
            let cap = self.cap.max(c);
            w.seen.get_mut::<M>()[c..cap].fill(M::ONE);
            let seen: &mut [M; SEEN] = w.seen.get_mut::<M>().try_into().expect("SEEN marks");
            let mut scanned = 0;
            for &t in &self.splits {
                if n < t + 2 || remaining == 0 {
                    continue;
                }
                let s = n - t;
                let last = if unequal { (s - 1) / 2 } else { s / 2 };
                self.pairs(&mut w.scratch, s, (1, last), |v, s, from, to| {
                    for a in from..=to {
                        let x = usize::from(v[a] ^ v[s - a]);
                        if seen[x] == M::ZERO {
                            seen[x] = M::ONE;
                            remaining -= 1;
                            if remaining == 0 {
                                scanned += (a + 1 - from) as u64;
                                return false;
                            }
                        }
                    }
                    scanned += (to + 1 - from) as u64;
                    true
                });
            }
            w.stats.scanned_pairs += scanned;
            if remaining == 0 {
                c
            } else {
                mex(w.seen.get::<M>(), 0, c, |_| true)
            }
        }
    }

    /// The pairs of heap `n`'s first two splits that the batch marked plainly (computed
    /// ahead by a second thread) from `order`'s start, given the heap's lane in the batch
    /// when the batch's marks were read.
    fn plain_in_batch(&self, n: usize, order: Order, lane: Option<usize>) -> [usize; 2] {
        let mut plain = [0usize; 2];
        let Some(lane) = lane.filter(|_| order == Order::NearMiddle) else {
            return plain;
        };
        for (i, &t) in self.splits.iter().enumerate().take(2) {
            if n < t + 2 {
                continue;
            }
            let last = (n - t) / 2;
            let start = order.start(last);
            if self.batch.plain.get(i).is_some_and(|p| p[lane] == start) {
                plain[i] = (start + PLAIN_SCAN - 1).min(last) + 1 - start;
            }
        }
        plain
    }

    /// Marks the first [`PLAIN_SCAN`] pairs from `order`'s start of heap `n`'s first two
    /// splits one by one, where `plain` (the pairs marked so far) has none; records them in
    /// `plain`.
    fn mark_plain_splits<M: Mark>(
        &self,
        w: &mut Worker,
        n: usize,
        order: Order,
        plain: &mut [usize; 2],
    ) {
        for (i, &t) in self.splits.iter().enumerate().take(2) {
            if n < t + 2 || plain[i] > 0 {
                continue;
            }
            let s = n - t;
            let last = if self.unequal { (s - 1) / 2 } else { s / 2 };
            let start = order.start(last);
            let end = (start + PLAIN_SCAN - 1).min(last);
            let seen = w.seen.get_mut::<M>();
            self.pairs(&mut w.scratch, s, (start, end), |v, s, a, b| {
                mark_plain(seen, v, s, a, b);
                true
            });
            plain[i] = end + 1 - start;
        }
    }

    /// The sparse scan where values reach past [`TABLE_BITS`]: marks the values missing below
    /// `c` (from `range.0` to `range.1`, which a table of `WORDS` words holds) that heap `n`'s
    /// pairs make; returns how many are still missing. `lane` is the heap's lane in the batch
    /// when the batch's marks were read.
    fn scan_window<M: Mark, const WORDS: usize>(
        &self,
        w: &mut Worker,
        n: usize,
        c: usize,
        range: (usize, usize),
        lane: Option<usize>,
    ) -> usize {
        let (mut want, mut remaining) = WantTable::<WORDS>::window(w.seen.get::<M>(), range);
        let order = w.scan_order.choose();
        let mut plain = self.plain_in_batch(n, order, lane);
        if remaining > PLAIN_WHEN_MISSING {
            self.mark_plain_splits::<M>(w, n, order, &mut plain);
            // What is left lies within the range, so the window holds it.
            let Some(range) = unseen_range(w.seen.get::<M>(), c) else {
                return 0;
            };
            (want, remaining) = WantTable::window(w.seen.get::<M>(), range);
        }
        w.stats.missing_values += remaining as u64;
        self.scan_splits::<M, WORDS>(w, n, (order, plain), &mut want, remaining)
    }

    /// Scans the pairs of heap `n`'s splits in `order` for the `remaining` values of `want`,
    /// marking each one found in `w.seen`; the first `plain[i]` pairs of split `i` from the
    /// order's start were marked already. Returns how many values are still missing.
    fn scan_splits<M: Mark, const WORDS: usize>(
        &self,
        w: &mut Worker,
        n: usize,
        (order, plain): (Order, [usize; 2]),
        want: &mut WantTable<WORDS>,
        mut remaining: usize,
    ) -> usize {
        let unequal = self.unequal;
        let (seen, scratch) = (w.seen.get_mut::<M>(), &mut w.scratch);
        for (i, &t) in self.splits.iter().enumerate() {
            if n < t + 2 || remaining == 0 {
                continue;
            }
            let s = n - t;
            let last = if unequal { (s - 1) / 2 } else { s / 2 };
            // One thread: sharing this scan (chunks taken in turn, found values cleared in
            // an atomic table) was measured slower on this shared two-core machine, since
            // most scans end within a few thousand pairs.
            let (cap, path) = (self.cap, self.simd);
            let start = order.start(last);
            let marked = plain.get(i).copied().unwrap_or(0);
            let mut scanned = marked;
            for (from, to) in [(start + marked, last), (1, start - 1)] {
                if remaining == 0 {
                    break;
                }
                self.pairs(scratch, s, (from, to), |v, s, a, b| {
                    scanned += scan_pairs(v, s, a, b, want, cap, path, |x| {
                        seen[usize::from(x)] = M::ONE;
                        remaining -= 1;
                        remaining > 0
                    });
                    remaining > 0
                });
            }
            w.scan_order.record(order, scanned);
            w.stats.scanned_pairs += scanned as u64;
        }
        remaining
    }

    /// Marks the rare pairs of heaps `n..n + BATCH` whose partners are already known: list
    /// entries `r` with `BATCH ≤ r < n − t`. Heap `n + j` pairs `r` with `n + j − t − r`, so
    /// one pass over the list, reading `BATCH` consecutive values per entry, serves them all.
    fn fill_batch(&mut self, n: usize) {
        let (offset, values) = self.values.tail();
        self.batch.fill(
            values,
            offset,
            &self.rare,
            &self.rare_values,
            &self.splits,
            n,
            BATCH,
            self.cap,
            None,
        );
    }

    /// [`for_pairs`] on the engine's values and middle window.
    fn pairs(
        &self,
        scratch: &mut Vec<u16>,
        s: usize,
        range: (usize, usize),
        f: impl FnMut(&[u16], usize, usize, usize) -> bool,
    ) {
        for_pairs(&self.values, &self.middle, scratch, s, range, f);
    }

    /// Marks the values below `bound` among `G(a) ⊕ G(s − a)` (all values without AVX-512).
    fn mark_all_pairs<M: Mark>(&self, w: &mut Worker, s: usize, bound: usize, split_allowed: bool) {
        let last = if self.unequal { (s - 1) / 2 } else { s / 2 };
        w.stats.scanned_pairs += last as u64;
        let (cap, simd) = (self.cap, self.simd);
        let Some(values) = self.values.whole() else {
            let seen = w.seen.get_mut::<M>();
            self.pairs(&mut w.scratch, s, (1, last), |v, s, a, b| {
                mark_pairs(seen, v, s, (a, b), (cap, bound), simd);
                true
            });
            return;
        };
        if self.may_split(split_allowed, last) {
            let mid = last / 2;
            let other = w.seen_other.get_mut::<M>();
            other[..cap].fill(M::ZERO);
            let seen = w.seen.get_mut::<M>();
            rayon::join(
                || mark_pairs(seen, values, s, (1, mid), (cap, bound), simd),
                || mark_pairs(other, values, s, (mid + 1, last), (cap, bound), simd),
            );
            for (a, b) in w.seen.get_mut::<M>()[..cap]
                .iter_mut()
                .zip(&w.seen_other.get::<M>()[..cap])
            {
                *a |= *b;
            }
        } else {
            mark_pairs(
                w.seen.get_mut::<M>(),
                values,
                s,
                (1, last),
                (cap, bound),
                simd,
            );
        }
    }
}

fn to_value(n: usize, value: usize) -> Result<u16> {
    u16::try_from(value).map_err(|_| {
        Error::Limit(format!(
            "G({n}) = {value} does not fit the engine's 16-bit values"
        ))
    })
}

/// The least `v ≥ from`, `v < below`, with `wanted(v)` and `seen[v] == 0`; `below` when none.
fn mex<M: Mark>(seen: &[M], from: usize, below: usize, wanted: impl Fn(usize) -> bool) -> usize {
    let mut v = from;
    while v < below && v < seen.len() && (seen[v] != M::ZERO || !wanted(v)) {
        v += 1;
    }
    v.min(below)
}

/// The share of the rare list that the first thread marks itself in
/// [`Engine::step_batch_ahead`], adjusted every [`Balance::ROUND`] batches toward equal times.
#[derive(Clone, Copy, Debug, Default)]
struct Balance {
    /// List entries (from the first at least 2·BATCH) that the first thread marks.
    own_entries: usize,
    /// Times of the two threads in this round.
    own: Duration,
    ahead: Duration,
    batches: u32,
}

impl Balance {
    const ROUND: u32 = 64;

    fn record(&mut self, own: Duration, ahead: Duration, listed: usize) {
        self.own += own;
        self.ahead += ahead;
        self.batches += 1;
        if self.batches < Self::ROUND {
            return;
        }
        let step = (listed / 64).max(1);
        // A margin of 3% keeps the share still when the times are level.
        if self.ahead.as_secs_f64() > 1.03 * self.own.as_secs_f64() {
            self.own_entries = (self.own_entries + step).min(listed);
        } else if self.own.as_secs_f64() > 1.03 * self.ahead.as_secs_f64() {
            self.own_entries = self.own_entries.saturating_sub(step);
        }
        *self = Balance {
            own_entries: self.own_entries,
            ..Balance::default()
        };
    }
}

/// Pairs of the first chunk of decoded packed values; later chunks double up to
/// [`MAX_CHUNK`]. Most scans end within a few thousand pairs; each chunk costs a kernel call
/// (its tables built again). Measured on 0.6 to 2^23 packed from 2^21, one thread: 2,048
/// took ×0.91 the time of 256, and 8,192 ×1.08 that of 2,048.
const FIRST_CHUNK: usize = 2048;

/// Pairs of the longest chunk of decoded packed values (32 KiB of scratch).
const MAX_CHUNK: usize = 8192;

/// Calls `f(v, s', a', b')` so that the pairs `a'..=b'` of `s'` in `v` are the pairs
/// `G(a), G(s − a)` for `a` in `first..=last`: at once on the whole values while nothing is
/// packed; else a chunk at a time, decoded into `scratch`, until `f` returns false.
fn for_pairs(
    values: &PackedValues,
    middle: &Window,
    scratch: &mut Vec<u16>,
    s: usize,
    (first, last): (usize, usize),
    mut f: impl FnMut(&[u16], usize, usize, usize) -> bool,
) {
    if first > last {
        return;
    }
    if let Some(whole) = values.whole() {
        f(whole, s, first, last);
        return;
    }
    // Every pair inside the decoded middle: `middle.values[i]` is G(w + i), so the pairs are
    // those of s − 2w from first − w on (the largest heap read is s − first < s − w).
    let w = middle.first;
    if first > w && s >= 2 * w && s - 2 * w <= middle.values.len() {
        f(&middle.values, s - 2 * w, first - w, last - w);
        return;
    }
    let (mut a, mut chunk) = (first, FIRST_CHUNK);
    while a <= last {
        let k = chunk.min(last + 1 - a);
        // scratch[i] = G(a − 1 + i) for i in 1..=k, and scratch[s' − i] = G(s − (a − 1 + i)).
        let s2 = 2 * chunk + 1;
        if scratch.len() < s2 {
            scratch.resize(s2, 0);
        }
        values.decode(a, &mut scratch[1..=k]);
        values.decode(s + 1 - a - k, &mut scratch[s2 - k..s2]);
        if !f(&scratch[..s2], s2, 1, k) {
            return;
        }
        a += k;
        chunk = (2 * chunk).min(MAX_CHUNK);
    }
}

/// Decoded values around the middle of a packed table: G(first), G(first + 1), …
#[derive(Clone, Debug, Default)]
struct Window {
    first: usize,
    values: Vec<u16>,
    /// [`WINDOW_SIDE`], lowered in tests (0: the constant).
    side: usize,
}

/// Values of the middle window on each side of the middle.
const WINDOW_SIDE: usize = 1 << 14;

impl Window {
    /// Decodes the values around the middle of `values` again once the middle has moved too
    /// far: from [`WINDOW_SIDE`] below it to three times that above (or to the last value),
    /// so that it moves every [`WINDOW_SIDE`] heaps at most.
    fn follow(&mut self, values: &PackedValues) {
        let side = if self.side == 0 {
            WINDOW_SIDE
        } else {
            self.side
        };
        let n = values.len();
        if n < 8 * side {
            return;
        }
        let middle = n / 2;
        let end = self.first + self.values.len();
        if middle >= self.first + side / 2 && middle + side <= end {
            return;
        }
        self.first = middle - side;
        let end = (middle + 3 * side).min(n);
        self.values.resize(end - self.first, 0);
        values.decode(self.first, &mut self.values);
    }
}

/// When [`Engine::pack_if_due`] packs the values.
#[derive(Clone, Copy, Debug)]
struct Packing {
    /// The heap count at which packing starts.
    from: usize,
    /// Values kept whole at the start.
    head: usize,
    /// Values kept whole at the end (the rare pairs' partners, the batches).
    keep: usize,
}

/// The prefixes of the engine's lists that [`Engine::step_batch_ahead`]'s second thread
/// reads while the engine appends to them.
struct Known {
    values: *const u16,
    heaps: usize,
    /// The heap of the first value.
    offset: usize,
    rare: *const u32,
    rare_values: *const u16,
    listed: usize,
    /// The middle window's values and the heap of the first.
    middle: *const u16,
    middle_len: usize,
    middle_first: usize,
}

// SAFETY: `Known` only carries the addresses to the second thread; what may be read through
// them, and for how long, is argued where they are read.
unsafe impl Send for Known {}
unsafe impl Sync for Known {}

/// The batch's rare loop: entry `r` (with `r < s0`, and `r` large enough that every partner
/// is in `values`, see [`Batch::fill`]) pairs with `s0 + j − r` for heap `j` of the batch. A function of its own so that the compiler knows the marks never alias
/// the values and keeps the values' address in a register.
fn mark_batch<M: Mark>(
    marks: &mut [[M; MARKS]; BATCH],
    values: &[u16],
    rare: &[u32],
    rare_values: &[u16],
    s0: usize,
) {
    for (&r, &v) in rare.iter().zip(rare_values) {
        let base = s0 - r as usize;
        let partners = values.get(base..base + BATCH);
        debug_assert!(
            partners.is_some(),
            "a batch's partner past the known values"
        );
        let Some(partners) = partners else {
            continue;
        };
        for (marks, &partner) in marks.iter_mut().zip(partners) {
            marks[usize::from(v ^ partner)] = M::ONE;
        }
    }
}

/// Marks `G(a) ⊕ G(s − a)` for `a` in `first..=last`; every value is below `cap`. Values from
/// `bound` up may be left unmarked.
fn mark_pairs<M: Mark>(
    seen: &mut [M],
    values: &[u16],
    s: usize,
    (first, last): (usize, usize),
    (cap, bound): (usize, usize),
    simd: Simd,
) {
    if first > last {
        return;
    }
    // Measured on 0.007 to 2^16 on an AVX2 machine (Zen 3): marking every pair took 0.83 s,
    // scanning with AVX2 gathers 1.16 s. The AVX-512 table lookups, and the AVX2 byte-table
    // lookups of values below 1024, are fast enough to win.
    let scans_fast = match simd {
        Simd::Avx512 => WantTable::fits(cap),
        Simd::Avx2 => cap <= 1024,
        _ => false,
    };
    if scans_fast && last - first >= 4 * PLAIN_PAIRS {
        // The first pairs find most values: mark them plainly. The rest mostly repeat a value
        // already seen: test them a block at a time against the few values not yet seen, and
        // mark only the new ones. (Past 2048, windows of the values not yet seen, as the
        // sparse scan uses, were slower: 0.764 to 2^18 took 14.8 s against 11.7.)
        mark_plain(seen, values, s, first, first + PLAIN_PAIRS - 1);
        let mut want = WantTable::unseen(seen, bound.min(cap));
        scan_pairs(
            values,
            s,
            first + PLAIN_PAIRS,
            last,
            &mut want,
            cap,
            simd,
            |x| {
                seen[usize::from(x)] = M::ONE;
                true
            },
        );
        return;
    }
    mark_plain(seen, values, s, first, last);
}

/// Pairs that [`mark_pairs`] marks one by one before it scans for the values still missing.
const PLAIN_PAIRS: usize = 512;

/// Marks `G(a) ⊕ G(s − a)` for `a` in `first..=last`, one store each.
fn mark_plain<M: Mark>(seen: &mut [M], values: &[u16], s: usize, first: usize, last: usize) {
    // A fixed length lets the compiler drop the bounds checks on u16 indices.
    let Some(seen) = seen
        .get_mut(..1 << 16)
        .and_then(|slice| <&mut [M; 1 << 16]>::try_from(slice).ok())
    else {
        return;
    };
    if first > last {
        return;
    }
    let low = &values[first..=last];
    let high = &values[s - last..=s - first];
    // Blocks of XORs the compiler can vectorise, then byte stores that never depend on each other.
    const BLOCK: usize = 256;
    let mut xors = [0u16; BLOCK];
    let count = low.len();
    let mut done = 0;
    while done < count {
        let len = BLOCK.min(count - done);
        let lo = &low[done..done + len];
        let hi = &high[count - done - len..count - done];
        for i in 0..len {
            xors[i] = lo[i] ^ hi[len - 1 - i];
        }
        for &x in &xors[..len] {
            seen[usize::from(x)] = M::ONE;
        }
        done += len;
    }
}

#[allow(clippy::too_many_arguments)]
fn mark_rare<M: Mark>(
    seen: &mut [M],
    other: Option<&mut [M]>,
    cap: usize,
    rare: &[u32],
    rare_values: &[u16],
    (values, offset): (&[u16], usize),
    s: usize,
    unequal: bool,
) {
    // `values[i]` is G(offset + i). The list is ascending with 1 ≤ r < s and r ≤ s − offset,
    // so s − r stays inside heaps offset..s of `values`.
    assert!(rare.first().is_none_or(|&r| r >= 1) && rare.last().is_none_or(|&r| (r as usize) < s));
    assert!(rare.last().is_none_or(|&r| r as usize <= s - offset));
    assert!(s - offset <= values.len() && rare.len() == rare_values.len());
    let run = |seen: &mut [M], rare: &[u32], rare_values: &[u16]| {
        let Some(seen) = seen
            .get_mut(..1 << 16)
            .and_then(|slice| <&mut [M; 1 << 16]>::try_from(slice).ok())
        else {
            return;
        };
        let mark = |seen: &mut [M; 1 << 16], rare: &[u32], rare_values: &[u16]| {
            for (&r, &v) in rare.iter().zip(rare_values) {
                // SAFETY: 1 ≤ r ≤ s − offset ≤ values.len() (asserted above for the whole
                // list).
                let partner = unsafe { *values.get_unchecked(s - offset - r as usize) };
                seen[usize::from(v ^ partner)] = M::ONE;
            }
        };
        // Grundy's game: the pair (s/2, s/2) is not a move.
        let middle = if unequal && s.is_multiple_of(2) {
            rare.binary_search(&((s / 2) as u32)).ok()
        } else {
            None
        };
        match middle {
            Some(i) => {
                mark(seen, &rare[..i], &rare_values[..i]);
                mark(seen, &rare[i + 1..], &rare_values[i + 1..]);
            }
            None => mark(seen, rare, rare_values),
        }
    };
    match other {
        Some(other) => {
            let mid = rare.len() / 2;
            other[..cap].fill(M::ZERO);
            let (rare_a, rare_b) = rare.split_at(mid);
            let (values_a, values_b) = rare_values.split_at(mid);
            rayon::join(
                || run(&mut *seen, rare_a, values_a),
                || run(&mut *other, rare_b, values_b),
            );
            for (a, b) in seen[..cap].iter_mut().zip(&other[..cap]) {
                *a |= *b;
            }
        }
        None => run(seen, rare, rare_values),
    }
}

/// Sets `want` (a table from 0) to the values below `c` among `unseen` (bits by 64-value
/// words); returns their number.
fn wanted_below(want: &mut WantTable, unseen: &[u64], c: usize) -> usize {
    let mut remaining = 0;
    for (w, &u) in unseen.iter().enumerate() {
        let below = if c >= (w + 1) * 64 {
            u
        } else if c > w * 64 {
            u & ((1u64 << (c - w * 64)) - 1)
        } else {
            0
        };
        remaining += below.count_ones() as usize;
        if w < TABLE_BITS / 64 {
            want.set_word(w, below);
        }
    }
    remaining
}

/// Pairs a sparse scan marks plainly before it looks for the values still missing, when more
/// than [`PLAIN_WHEN_MISSING`] are.
const PLAIN_SCAN: usize = 256;
const PLAIN_WHEN_MISSING: usize = 8;

/// Writes to `out[w]` the bits of the values `64w..64w + 64` whose `seen` entry is 0.
fn unseen_words<M: Mark>(seen: &[M], out: &mut [u64]) {
    for (w, word) in out.iter_mut().enumerate() {
        let (marks, _) = seen[w * 64..w * 64 + 64].as_chunks::<64>();
        *word = unseen_bits(&marks[0]);
    }
}

/// Bit `i` set where `marks[i]` is 0 (marks are 0 or 1): sixteen at a time, words packed to
/// bytes, then compared (SSE2, part of every x86-64).
#[cfg(target_arch = "x86_64")]
#[inline]
fn unseen_bits<M: Mark>(marks: &[M; 64]) -> u64 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi16,
        _mm_packs_epi32, _mm_setzero_si128,
    };
    let p = marks.as_ptr().cast::<__m128i>();
    let mut bits = 0u64;
    for k in 0..4 {
        // SAFETY: SSE2 is in every x86-64 CPU; the unaligned loads read marks 16k..16k + 16
        // (16 bytes of byte marks, 64 of word marks), inside `marks`.
        let zero = unsafe {
            let bytes = if size_of::<M>() == 1 {
                _mm_loadu_si128(p.add(k))
            } else {
                let q = p.add(4 * k);
                let low = _mm_packs_epi32(_mm_loadu_si128(q), _mm_loadu_si128(q.add(1)));
                let high = _mm_packs_epi32(_mm_loadu_si128(q.add(2)), _mm_loadu_si128(q.add(3)));
                _mm_packs_epi16(low, high)
            };
            _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_setzero_si128()))
        };
        bits |= u64::from(zero as u16) << (16 * k);
    }
    bits
}

/// Bit `i` set where `marks[i]` is 0.
#[cfg(not(target_arch = "x86_64"))]
fn unseen_bits<M: Mark>(marks: &[M; 64]) -> u64 {
    marks
        .iter()
        .enumerate()
        .fold(0, |bits, (i, &m)| bits | u64::from(m == M::ZERO) << i)
}

/// Where a pair scan of the sparse mode starts. Every order looks at every pair before it
/// gives up, so the values never depend on it; only the number of pairs scanned does. In
/// Officers (0.6) and Grundy's game the pairs of two nearly equal heaps find the missing values
/// about 30% sooner than the pairs from heap 1 up; in 0.16 it is the other way round. So the
/// engine measures both and uses the better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    /// Pairs from `a = 1` up.
    FromStart,
    /// Pairs from `a = last − MIDDLE_BACK` up to the middle, then from 1.
    NearMiddle,
}

/// How far below the middle [`Order::NearMiddle`] starts (measured on 0.6 to 2^18: 500 and
/// 2000 scan a few percent more pairs).
const MIDDLE_BACK: usize = 1000;

impl Order {
    /// The first pair `a` of a scan of `1..=last`.
    fn start(self, last: usize) -> usize {
        match self {
            Order::FromStart => 1,
            Order::NearMiddle => last.saturating_sub(MIDDLE_BACK).max(1),
        }
    }
}

/// Running averages of the pairs each [`Order`] scans, and the choice between them: the
/// better order by the averages, with every sixteenth heap trying each order in turn so that
/// both averages follow the game as it changes.
#[derive(Clone, Copy, Debug, Default)]
struct ScanOrder {
    /// Decaying sums of pairs scanned and of scans, per order.
    pairs: [f64; 2],
    scans: [f64; 2],
    heaps: u64,
}

impl ScanOrder {
    const ORDERS: [Order; 2] = [Order::FromStart, Order::NearMiddle];

    fn choose(&mut self) -> Order {
        self.heaps += 1;
        if self.heaps.is_multiple_of(16) {
            return Self::ORDERS[(self.heaps / 16 % 2) as usize];
        }
        let average = |i: usize| self.pairs[i] / self.scans[i].max(1.0);
        if average(1) < average(0) {
            Order::NearMiddle
        } else {
            Order::FromStart
        }
    }

    fn record(&mut self, order: Order, pairs: usize) {
        let i = order as usize;
        // The last few hundred scans of each order weigh most.
        self.pairs[i] = self.pairs[i] * 0.995 + pairs as f64;
        self.scans[i] = self.scans[i] * 0.995 + 1.0;
    }
}

/// The entries of the marking arrays that engines use on this CPU: "bytes" where it has
/// AVX-512 F and BW, "32-bit words" elsewhere (which was faster on each kind measured).
pub fn marks_for_this_cpu() -> &'static str {
    match MarkWidth::for_this_cpu() {
        MarkWidth::Byte => "bytes",
        MarkWidth::Word => "32-bit words",
    }
}

/// Bytes needed to compute G(0..=to) with no memory budget: values, a long rare list, the
/// period check and the marking arrays.
pub fn memory_estimate(to: usize) -> u64 {
    estimate(to, packing_start(to, None, None))
}

/// [`memory_estimate`] of a table packed from heap `packing` on.
fn estimate(to: usize, packing: Option<usize>) -> u64 {
    let heaps = to as u64 + 1;
    // Values: 2 bytes each, or, packed from a quarter of the table on, the whole values up to
    // there and the body packed from them at once, then one byte a value.
    let values = match packing {
        Some(from) => (3 * from as u64).max(heaps),
        None => 2 * heaps,
    };
    // A rare list of one heap in 64 (4 + 2 bytes an entry; 0.6 has 1,583 to 2^32, and a
    // longer list is caught by the budget as the run goes), the period check's 4 bytes for
    // each heap of the half table it compares (at most MAX_PERIOD), and the histogram and
    // marking arrays (counted at 32-bit entries: the batch's 16 arrays of 2^16 are 4 MiB, each
    // thread's own 1.25 MiB; byte marks take a quarter).
    let rare = heaps.div_ceil(64) * 6;
    let period = (heaps / 2).min(MAX_PERIOD) * 4;
    values + rare + period + (8 << 20)
}

/// Tables of this many heaps and more are packed (see [`super::packed`]) unless the options
/// say otherwise, and shorter ones when 2 bytes a value would not fit the memory budget: the
/// scans of packed values are slower (0.6 to 2^23 packed from 2^21, two threads: 1.23 times
/// the time).
pub const PACK_MIN: usize = 1 << 31;

/// Values kept whole at the start of a packed table.
const PACK_HEAD: usize = 1 << 16;

/// Values kept whole at the end of a packed table.
const PACK_KEEP: usize = 1 << 17;

/// The heap count from which a table to `to` is packed: `asked`, or a quarter of the table
/// when it is long or would not fit what is `left` of the budget unpacked.
fn packing_start(to: usize, asked: Option<usize>, left: Option<u64>) -> Option<usize> {
    match asked {
        Some(from) => (from <= to).then_some(from),
        None => {
            let tight = left.is_some_and(|left| estimate(to, None) > left);
            (to >= PACK_MIN || tight).then_some(to / 4)
        }
    }
}

/// Checks that G(0..=to) can be computed within the machine's memory and what is `left` of
/// the caller's budget.
pub fn check_memory(to: usize, left: Option<u64>) -> Result<()> {
    check_estimate(to, estimate(to, packing_start(to, None, left)), left)
}

/// [`check_memory`] of a table computed whole (never packed) and then copied at `copy` bytes
/// a value, the copy made while the table is still held (the heap solver keeps 4 bytes a
/// value).
pub fn check_memory_copied(to: usize, copy: u64, left: Option<u64>) -> Result<()> {
    let bytes = estimate(to, None).saturating_add((to as u64 + 1).saturating_mul(copy));
    check_estimate(to, bytes, left)
}

/// [`check_memory`] of a table that needs `bytes`.
fn check_estimate(to: usize, bytes: u64, left: Option<u64>) -> Result<()> {
    if to > MAX_HEAP {
        return Err(Error::Limit(format!(
            "heap {to} is past the engine's limit of {MAX_HEAP}"
        )));
    }
    crate::memory::reserve(
        &format!("computing to {to}"),
        bytes,
        &[crate::memory::Cap::Budget(left)],
    )
}

/// Computes G(0), …, G(to) for a code.
///
/// With a checkpoint path, an existing checkpoint for the same code is resumed and a new one is
/// written every `checkpoint_interval` (longer when writing them would take more than a
/// twentieth of the run) and at the end.
///
/// # Errors
///
/// - [`Error::Unsupported`] for codes outside the sparse engine (hexadecimal digits);
/// - [`Error::Limit`] when the memory estimate exceeds the machine, a value exceeds `u16`, or
///   `stop_after` stopped the run;
/// - [`Error::Io`] and [`Error::Limit`] for unreadable, corrupt or mismatched checkpoints.
pub fn compute(
    code: &Code,
    to: usize,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Vec<u16>> {
    run(code, to, options, progress).map(|run| run.values.iter().map(|v| v as u16).collect())
}

/// What [`run`] returns: the values and figures about how they were found.
#[derive(Clone, Debug)]
pub struct Run {
    /// G(0), …, G(to): most in one byte for a long table (see [`PACK_MIN`]).
    pub values: Values,
    /// Work counters of this process (not of runs before a resumed checkpoint).
    pub stats: Stats,
    /// The mode at the end.
    pub mode: Mode,
    /// The rare list's length at the end.
    pub rare_len: usize,
    /// The period certified during the run, if one was: the values from where it was found
    /// on were filled in by it.
    pub period: Option<Periodicity>,
}

/// [`compute`], also returning the work counters, final mode and rare-list size.
///
/// # Errors
///
/// As [`compute`].
pub fn run(code: &Code, to: usize, options: &Options, progress: &dyn Progress) -> Result<Run> {
    if options.threads == 0 || options.threads > 2 {
        return Err(Error::Limit(format!(
            "the octal engine runs on 1 or 2 threads, not {}",
            options.threads
        )));
    }
    let left = progress.memory_left();
    let packing = packing_start(to, options.pack_from, left);
    check_estimate(to, estimate(to, packing), left)?;
    let mut engine = match &options.checkpoint {
        Some(path) => resume(code, path, packing)?,
        None => Engine::new(code)?,
    };
    let pool = if options.threads > 1 {
        Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(options.threads)
                .build()
                .map_err(|e| Error::Internal(format!("thread pool: {e}")))?,
        )
    } else {
        None
    };
    // A batch may step past `to`: room for one more, so the vector never doubles at the end.
    // A packed table reserves its whole values up to where packing starts, and its body.
    if let Some(from) = packing {
        engine.pack_from(from, PACK_HEAD, PACK_KEEP);
        engine.values.reserve_body(to + 1 + BATCH);
    }
    let whole_to = packing.map_or(to, |from| from.max(engine.values.len()));
    engine
        .values
        .reserve((whole_to + 1 + BATCH).saturating_sub(engine.values.len()));
    progress.start(&format!("computing {}", code.name()), to as u64 + 1);
    engine.set_parallel(pool.is_some());
    engine.set_simd(options.simd)?;
    let mut run = || run_loop(&mut engine, to, options, progress);
    let period = match &pool {
        Some(pool) => pool.install(run)?,
        None => run()?,
    };
    // A resumed checkpoint may reach past `to`: report only what this table certifies.
    let period = period.filter(|p| p.certified_at <= to as u64);
    if let Some(path) = &options.checkpoint {
        save(&engine, path)?;
    }
    progress.advance(engine.values.len() as u64, "done");
    progress.finish();
    let (stats, mode, rare_len) = (engine.stats(), engine.mode(), engine.rare_len());
    let mut values = engine.values;
    values.truncate(to + 1);
    Ok(Run {
        values: values.into(),
        stats,
        mode,
        rare_len,
        period,
    })
}

/// The longest period looked for while a table runs (4 bytes of memory each): above the
/// longest known period of an octal game, 60,620,715 for 0.1777.
pub const MAX_PERIOD: u64 = 1 << 26;

/// The first table length at which [`run`] looks for a period; it looks again at every
/// doubling, so the searches cost at most two passes over the table.
const FIRST_PERIOD_CHECK: usize = 1 << 10;

/// Steps the engine to `to`, looking for a certified period at every doubling of the table;
/// once one is found, the rest of the table is filled in by it.
fn run_loop(
    engine: &mut Engine,
    to: usize,
    options: &Options,
    progress: &dyn Progress,
) -> Result<Option<Periodicity>> {
    let start = Instant::now();
    let first = engine.values.len();
    let mut last_checkpoint = Instant::now();
    let mut checkpoint_gap = options.checkpoint_interval;
    let mut last_report = Instant::now();
    let mut reported = first;
    let mut smoothed: Option<f64> = None;
    // The last heap a checkpoint of this run holds, for the progress note.
    let mut saved_at = None;
    let bounds = engine.code.certificate();
    let mut next_check = FIRST_PERIOD_CHECK.max(first.next_power_of_two());
    while engine.values.len() <= to {
        // Steps of several heaps (pairs, batches) may pass over the length itself.
        if bounds.is_some() && engine.values.len() >= next_check {
            while next_check <= engine.values.len() {
                next_check *= 2;
            }
            let fill_to = if options.until_period { usize::MAX } else { to };
            if let Some(period) = certify(engine, fill_to) {
                return Ok(Some(period));
            }
        }
        let before = engine.values.len();
        let last = match options.stop_after {
            Some(stop) if stop >= before => stop.min(to),
            _ => to,
        };
        engine.advance(options.naive_only, last)?;
        let n = engine.values.len() - 1;
        if options.stop_after == Some(n) {
            return Err(Error::Limit(format!("stopped after heap {n} (stop_after)")));
        }
        if before.next_multiple_of(4096) <= n {
            crate::progress::check(progress)?;
            let now = Instant::now();
            if now - last_report >= Duration::from_millis(250) {
                let gap = (now - last_report).as_secs_f64().max(1e-9);
                let recent = (n - reported) as f64 / gap;
                let recent = smoothed_rate(smoothed, recent, gap);
                smoothed = Some(recent);
                last_report = now;
                reported = n;
                let rate = (n + 1 - first) as f64 / (now - start).as_secs_f64().max(1e-9);
                let eta = remaining_seconds(engine.mode(), n, to, recent);
                let mut note = format!(
                    "{rate:.0} heaps/s, eta {eta:.0} s, rare list {}",
                    engine.rare_len()
                );
                if let Some(saved) = saved_at {
                    note += &format!(", checkpoint to heap {saved}");
                    if checkpoint_gap > options.checkpoint_interval {
                        note += &format!(" (one every {} s)", checkpoint_gap.as_secs());
                    }
                }
                progress.advance(n as u64 + 1, &note);
            }
            if let Some(path) = &options.checkpoint {
                if now - last_checkpoint >= checkpoint_gap {
                    save(engine, path)?;
                    saved_at = Some(n);
                    last_checkpoint = Instant::now();
                    // The rate is of computing: the time spent saving is left out.
                    (last_report, reported) = (last_checkpoint, n);
                    checkpoint_gap = stretched(options.checkpoint_interval, last_checkpoint - now);
                }
            }
        }
    }
    // The table is complete: one more search, over all of it.
    Ok(certify(engine, usize::MAX))
}

/// The time to wait after a checkpoint that took `spent` to write: the interval asked for,
/// stretched so that writing checkpoints takes at most a twentieth of the run (a checkpoint of
/// 0.6 near 2^32 is 8 GiB). An interval of zero (a checkpoint at every chance) is kept.
fn stretched(asked: Duration, spent: Duration) -> Duration {
    if asked.is_zero() {
        asked
    } else {
        asked.max(spent * 19)
    }
}

/// Looks for a certified period in the values so far; when one is found, fills the values up
/// to `to` by it (the certificate proves them) and returns it.
fn certify(engine: &mut Engine, to: usize) -> Option<Periodicity> {
    let bounds = engine.code.certificate()?;
    let values = &engine.values;
    let period = match values.whole() {
        Some(whole) => find_period_below(whole, bounds, MAX_PERIOD)?,
        None => find_period_of(values.len(), |x| values.get(x), bounds, MAX_PERIOD)?,
    };
    let (pre, p) = (period.preperiod as usize, period.period as usize);
    let from = engine.values.len();
    if to != usize::MAX && to >= from {
        engine.values.reserve(to + 1 - from);
        for n in from..=to {
            let v = engine.value_at(pre + (n - pre) % p);
            engine.values.push(v);
        }
    }
    Some(period)
}

/// Seconds over which the progress line's rate is averaged.
const RATE_SECONDS: f64 = 30.0;

/// The rate of the last [`RATE_SECONDS`] or so, from the one before and the rate `recent` of
/// the last `gap` seconds: one quarter-second alone swings with whatever else runs.
fn smoothed_rate(before: Option<f64>, recent: f64, gap: f64) -> f64 {
    match before {
        None => recent,
        Some(rate) => rate + (recent - rate) * (gap / RATE_SECONDS).min(1.0),
    }
}

/// Seconds left at the recent rate: a heap costs about the same in a sparse mode, and in
/// proportion to its size in the naive mode (so the rest costs (to² − n²) / 2n heaps of now).
fn remaining_seconds(mode: Mode, n: usize, to: usize, recent_rate: f64) -> f64 {
    let (n, to) = (n.max(1) as f64, to as f64);
    let heaps = match mode {
        Mode::Naive => (to * to - n * n) / (2.0 * n),
        Mode::Sparse { .. } => to - n,
    };
    heaps.max(0.0) / recent_rate.max(1e-9)
}

fn save(engine: &Engine, path: &std::path::Path) -> Result<()> {
    let (mask, heap_parity) = match engine.mode {
        Mode::Naive => (0, false),
        Mode::Sparse { mask, heap_parity } => (mask, heap_parity),
    };
    let state = checkpoint::State {
        code: &engine.code.name(),
        mask,
        heap_parity,
        values: &[],
    };
    let values = &engine.values;
    checkpoint::save_chunks(path, &state, values.len() as u64, |write| {
        values.try_for_each_chunk(1 << 16, write)
    })
}

/// The engine of the checkpoint at `path`, packed from heap `packing` on (the values are read
/// a chunk at a time, never whole); a fresh one when there is no checkpoint.
fn resume(code: &Code, path: &std::path::Path, packing: Option<usize>) -> Result<Engine> {
    let mut engine: Option<Result<Engine>> = None;
    let saved = checkpoint::load_chunks(path, |saved: &Checkpoint, _, chunk| {
        let engine = engine.get_or_insert_with(|| resuming(code, path, saved, packing));
        if let Ok(engine) = engine {
            engine.absorb(chunk);
        }
    })?;
    let Some(saved) = saved else {
        return Engine::new(code);
    };
    let mut engine = engine.unwrap_or_else(|| resuming(code, path, &saved, packing))?;
    engine.resumed();
    Ok(engine)
}

/// The engine that takes the values of checkpoint `saved` (read from `path`).
fn resuming(
    code: &Code,
    path: &std::path::Path,
    saved: &Checkpoint,
    packing: Option<usize>,
) -> Result<Engine> {
    if saved.code != code.name() {
        return Err(Error::Limit(format!(
            "{}: the checkpoint is for {}, not {}",
            path.display(),
            saved.code,
            code.name()
        )));
    }
    let mode = if saved.mask == 0 {
        Mode::Naive
    } else {
        Mode::Sparse {
            mask: saved.mask,
            heap_parity: saved.heap_parity,
        }
    };
    let mut engine = Engine::resuming(code, mode)?;
    if let Some(from) = packing {
        engine.pack_from(from, PACK_HEAD, PACK_KEEP);
    }
    Ok(engine)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// An engine for `code` that keeps the sparse mode of `mask` and may use two threads.
    fn fixed_on_two_threads(code: &Code, mask: u16) -> Engine {
        let mut engine = Engine::new(code).unwrap();
        engine.set_mode(Mode::Sparse {
            mask,
            heap_parity: false,
        });
        engine.fixed_mode = true;
        engine.set_parallel(true);
        engine
    }

    /// A pool of two threads, for the engine's two-thread steps.
    fn two_threads() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
    }

    /// The slow reference: mex over every option, straight from the definition.
    fn reference(code: &Code, to: usize) -> Vec<u16> {
        let d = code.dense_digits(MAX_DIGITS).unwrap();
        let mut g: Vec<u16> = Vec::new();
        for n in 0..=to {
            let mut options = std::collections::HashSet::new();
            for (t, &digit) in d.iter().enumerate() {
                if t > n {
                    break;
                }
                if digit & 1 != 0 && t == n && t > 0 {
                    options.insert(0);
                }
                if digit & 2 != 0 && t < n && t > 0 {
                    options.insert(g[n - t]);
                }
                if digit & 4 != 0 {
                    for a in 1..n - t {
                        let b = n - t - a;
                        if b >= 1 && !(code.unequal_splits() && a == b) {
                            options.insert(g[a] ^ g[b]);
                        }
                    }
                }
            }
            let mut m = 0;
            while options.contains(&m) {
                m += 1;
            }
            g.push(m);
        }
        g
    }

    fn fnv1a(values: &[u16]) -> u64 {
        let mut h: u64 = 0xcbf29ce484222325;
        for v in values {
            for b in v.to_le_bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x100000001b3);
            }
        }
        h
    }

    fn options(threads: usize) -> Options {
        Options {
            threads,
            ..Options::default()
        }
    }

    #[test]
    fn known_sequences() {
        let kayles = compute(&Code::parse("0.77").unwrap(), 100, &options(1), &()).unwrap();
        assert_eq!(kayles, reference(&Code::parse("0.77").unwrap(), 100));
        // Kayles: period 12 from 71.
        for n in 71..=88 {
            assert_eq!(kayles[n], kayles[n + 12]);
        }
        let dawson = compute(&Code::parse("0.07").unwrap(), 20, &options(1), &()).unwrap();
        assert_eq!(
            dawson,
            vec![0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3]
        );
        let grundy = compute(&Code::grundy(), 20, &options(1), &()).unwrap();
        assert_eq!(
            grundy,
            vec![0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
        );
    }

    #[test]
    fn codes_outside_the_engine_are_refused() {
        assert!(unsupported_reason(&Code::parse("0.6").unwrap()).is_none());
        assert!(unsupported_reason(&Code::grundy()).is_none());
        let three = Code::parse("0.8").unwrap();
        assert!(unsupported_reason(&three).unwrap().contains("three heaps"));
        assert!(matches!(Engine::new(&three), Err(Error::Unsupported(_))));
        let unbounded = Code::all_but(&[2]).unwrap();
        assert!(unsupported_reason(&unbounded).unwrap().contains("digits"));
        let long = Code::subtraction(&[MAX_DIGITS + 1]).unwrap();
        assert!(matches!(Engine::new(&long), Err(Error::Unsupported(_))));
    }

    #[test]
    fn sparse_modes_are_chosen_for_sparse_games() {
        let mut engine = Engine::new(&Code::parse("0.6").unwrap()).unwrap();
        for _ in 0..30_000 {
            engine.step().unwrap();
        }
        assert!(matches!(engine.mode(), Mode::Sparse { .. }));
        assert!(engine.rare_len() < 2000, "{engine:?}");
        let mut engine = Engine::new(&Code::parse("0.106").unwrap()).unwrap();
        for _ in 0..5000 {
            engine.step().unwrap();
        }
        assert!(
            matches!(
                engine.mode(),
                Mode::Sparse {
                    heap_parity: true,
                    ..
                }
            ),
            "{engine:?}"
        );
    }

    #[test]
    fn naive_and_sparse_agree_with_two_threads() {
        let code = Code::parse("0.6").unwrap();
        let forced = Options {
            naive_only: true,
            ..options(2)
        };
        let naive = compute(&code, 40_000, &forced, &()).unwrap();
        let sparse = run(&code, 40_000, &options(2), &()).unwrap();
        assert_eq!(Values::from(naive), sparse.values);
        // The second thread marked batches ahead of the first.
        assert!(sparse.stats.batches_ahead > 1000, "{:?}", sparse.stats);
    }

    /// The hits of the pair-by-pair loop (pairs looked at, values in order, the set left),
    /// and those of every scan path this CPU runs.
    #[allow(clippy::type_complexity)]
    fn scans_of_every_path<const WORDS: usize>(
        values: &[u16],
        table: WantTable<WORDS>,
        cap: usize,
        first: usize,
        stop_after: usize,
    ) -> (
        (usize, Vec<u16>, WantTable<WORDS>),
        Vec<(Simd, (usize, Vec<u16>, WantTable<WORDS>))>,
    ) {
        let s = values.len() - 1;
        let last = s / 2;
        let plain = {
            let mut want = table;
            let mut hits = Vec::new();
            let mut looked = 0;
            for a in first..=last {
                looked += 1;
                let x = values[a] ^ values[s - a];
                if want.contains(x) {
                    want.remove(x);
                    hits.push(x);
                    if hits.len() >= stop_after {
                        break;
                    }
                }
            }
            (looked, hits, want)
        };
        let paths = Simd::available()
            .into_iter()
            .map(|path| {
                let mut want = table;
                let mut hits = Vec::new();
                let looked = scan_pairs(values, s, first, last, &mut want, cap, path, |x| {
                    hits.push(x);
                    hits.len() < stop_after
                });
                (path, (looked, hits, want))
            })
            .collect();
        (plain, paths)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Every scan path reports the same hits, in the same order, as the pair-by-pair loop,
        /// for values over the whole table (the AVX-512 registers and their selection, the
        /// list and table lookups of the portable and AVX2 paths).
        #[test]
        fn every_scan_path_matches_the_plain_loop(
            bits in 1u32..=11,
            values in prop::collection::vec(0u16..2048, 2..600),
            wanted in prop::collection::vec(0u16..2048, 0..40),
            stop_after in 1usize..50,
            first in 1usize..40,
        ) {
            // Values below cap = 2^bits, so that the one- and two-register lookups run too.
            let cap = 1usize << bits;
            let values: Vec<u16> = values.iter().map(|&v| v & (cap as u16 - 1)).collect();
            let mut table: WantTable = WantTable::EMPTY;
            for &w in &wanted {
                table.insert(w & (cap as u16 - 1));
            }
            let (plain, paths) = scans_of_every_path(&values, table, cap, first, stop_after);
            for (path, found) in paths {
                prop_assert_eq!(&found, &plain, "path {}", path);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// The same for tables that hold a window of values from a base (the sparse scan of
        /// games whose values pass 2048): values up to 8191 fall inside and outside the
        /// window, on each side of it.
        #[test]
        fn every_scan_path_matches_the_plain_loop_in_a_window(
            values in prop::collection::vec(0u16..8192, 2..600),
            wanted in prop::collection::vec(0u16..8192, 1..40),
            words in prop::sample::select(vec![128usize, 256, 512]),
            stop_after in 1usize..50,
            first in 1usize..40,
        ) {
            // The window starts at the least wanted value (rounded down to 64) and holds the
            // wanted values that fit; pairs' values are steered into it half of the time.
            let least = usize::from(*wanted.iter().min().unwrap());
            let span = 16 * words;
            let inside = |v: u16| ((least & !63) + usize::from(v) % span).min(8191) as u16;
            let values: Vec<u16> = values
                .iter()
                .enumerate()
                .map(|(i, &v)| if i % 2 == 0 { v } else { inside(v) })
                .collect();
            let mut seen = vec![1u8; 8192];
            for &w in &wanted {
                if usize::from(w) - (least & !63) < span {
                    seen[usize::from(w)] = 0;
                }
            }
            let range = crate::heap::scan::unseen_range(&seen, 8192).unwrap();
            let (found, paths) = match words {
                128 => check_window::<128>(&values, &seen, range, first, stop_after),
                256 => check_window::<256>(&values, &seen, range, first, stop_after),
                _ => check_window::<512>(&values, &seen, range, first, stop_after),
            };
            prop_assert!(found <= wanted.len());
            prop_assert!(paths >= 1);
        }
    }

    /// A window at the top of the values (base 65,472) reaches past 65,535: XORs below the
    /// base wrap around onto its clear bits and are never hits; 65,535 itself is found.
    #[test]
    fn a_window_at_the_top_of_the_values() {
        let mut seen = vec![1u8; 1 << 17];
        seen[65_535] = 0;
        let range = crate::heap::scan::unseen_range(&seen, 1 << 16).unwrap();
        assert_eq!(range, (65_535, 65_535));
        let (table, count) = WantTable::<128>::window(&seen, range);
        assert_eq!(count, 1);
        assert!(table.contains(65_535) && !table.contains(0) && !table.contains(64));
        // Pairs whose XORs are 0..=63 (wrapping onto offsets 64..=127 of the window), then
        // one pair whose XOR is 65,535.
        let mut values: Vec<u16> = (0..200).map(|i| (i % 64) as u16).collect();
        values.extend(std::iter::repeat_n(0, 200));
        values[150] = 65_535;
        let (plain, paths) = scans_of_every_path(&values, table, 1 << 16, 1, 5);
        assert_eq!(plain.1, vec![65_535]);
        for (path, found) in &paths {
            assert_eq!(found, &plain, "path {path}");
        }
    }

    /// The window of the unseen values in `range`, scanned on every path against the plain
    /// loop (asserted); returns the plain loop's number of hits and the paths checked.
    fn check_window<const WORDS: usize>(
        values: &[u16],
        seen: &[u8],
        range: (usize, usize),
        first: usize,
        stop_after: usize,
    ) -> (usize, usize) {
        let (table, count) = WantTable::<WORDS>::window(seen, range);
        assert_eq!(count, seen.iter().filter(|&&m| m == 0).count());
        let (plain, paths) = scans_of_every_path(values, table, 8192, first, stop_after);
        for (path, found) in &paths {
            assert_eq!(found, &plain, "path {path}, {WORDS} words");
        }
        (plain.1.len(), paths.len())
    }

    /// Values that agree modulo 1024 share a bit of the AVX2 scan's folded tables: a pair whose
    /// XOR only folds onto a wanted value is not a hit, and finding one of two wanted values
    /// that fold together leaves the other findable.
    #[test]
    fn values_that_fold_together_are_told_apart() {
        // Low halves 1029 (folds onto 5) many times, then 5, 1029 and 2000 (folds onto 976),
        // within the vector blocks; the high half all zero, so each pair's XOR is its low value.
        let mut low = vec![1029u16; 100];
        low.extend([5, 7, 1029, 976, 2000]);
        low.extend([3; 100]);
        let mut values = vec![0u16];
        values.extend(&low);
        values.extend(vec![0u16; low.len() + 1]);
        for wanted in [&[5u16][..], &[5, 1029], &[1029, 2000, 5], &[976, 2000]] {
            let mut table: WantTable = WantTable::EMPTY;
            for &w in wanted {
                table.insert(w);
            }
            let (plain, paths) = scans_of_every_path(&values, table, 2048, 1, 50);
            assert_eq!(plain.1.len(), wanted.len(), "{wanted:?}");
            for (path, found) in paths {
                assert_eq!(found, plain, "path {path}, wanted {wanted:?}");
            }
        }
    }

    /// Every octal code of up to three digits (0.x and 4.x), with its values to `to` from the
    /// bitset engine of [`crate::heap::Tabulation`].
    fn short_codes(to: usize) -> impl Iterator<Item = (String, Code, Vec<u16>)> {
        ["0", "4"].into_iter().flat_map(move |d0| {
            (1..512u32).map(move |x| {
                let text = format!("{d0}.{}", format!("{x:03o}").trim_end_matches('0'));
                let code = Code::parse(&text).unwrap();
                let expected = crate::heap::testing::values_of(&code, to as u64)
                    .into_iter()
                    .map(|v| v as u16)
                    .collect();
                (text, code, expected)
            })
        })
    }

    /// Every short code to `to`, on every scan path this CPU runs and one and two threads.
    fn every_short_code_on_every_path(to: usize) {
        for (text, code, expected) in short_codes(to) {
            for (path, threads) in Simd::available().into_iter().flat_map(|p| [(p, 1), (p, 2)]) {
                let options = Options {
                    simd: path,
                    ..options(threads)
                };
                let got = compute(&code, to, &options, &()).unwrap();
                assert_eq!(got, expected, "{text} on {path}, {threads} threads");
            }
        }
    }

    #[test]
    fn every_short_code_agrees_with_the_bitset_engine() {
        every_short_code_on_every_path(300);
    }

    /// The same to 2^14. Run with `cargo test --release -p sprague --lib heap::rare --
    /// --ignored`.
    #[test]
    #[ignore]
    fn every_short_code_agrees_to_2_14() {
        every_short_code_on_every_path(1 << 14);
    }

    fn fletcher(values: &[u16]) -> u32 {
        let (mut a, mut b) = (0u16, 0u16);
        for &v in values {
            a = a.wrapping_add(v);
            b = b.wrapping_add(a);
        }
        (u32::from(b) << 16) | u32::from(a)
    }

    /// 0.6 and 0.007 to 2^18 on every scan path this CPU runs, against ogsolve's checksums.
    /// Run with `cargo test --release -p sprague --lib heap::rare -- --ignored`.
    #[test]
    #[ignore]
    fn officers_and_treblecross_on_every_path() {
        for path in Simd::available() {
            let options = Options {
                simd: path,
                ..options(1)
            };
            for (text, sum) in [("0.6", 0xC356_8091), ("0.007", 0x8929_B47C)] {
                let values = compute(&Code::parse(text).unwrap(), 1 << 18, &options, &()).unwrap();
                assert_eq!(fletcher(&values), sum, "{text} on {path}");
            }
        }
    }

    /// 0.764 to 20,000, whose values pass 2048 at heap 14,967 (the sparse scan then looks the
    /// missing values up in windows of the values), on every scan path, against the naive
    /// engine. The sparse mode is held from heap 14,000 with the mask the engine picks near
    /// 2^18 (left to itself it stays naive this early).
    #[test]
    fn values_past_2048_agree_on_every_path() {
        let code = Code::parse("0.764").unwrap();
        let forced = Options {
            naive_only: true,
            ..options(1)
        };
        let naive = compute(&code, 20_000, &forced, &()).unwrap();
        assert!(naive.iter().any(|&v| v >= 2048));
        let mode = Mode::Sparse {
            mask: 8142,
            heap_parity: false,
        };
        for path in Simd::available() {
            let mut engine = Engine::from_values(&code, naive[..14_000].to_vec(), mode).unwrap();
            engine.fixed_mode = true;
            engine.set_simd(path).unwrap();
            while engine.len() <= 20_000 {
                engine.step().unwrap();
            }
            assert_eq!(engine.mode(), mode);
            let values = engine.values();
            let wrong = (0..naive.len()).find(|&n| values[n] != naive[n]);
            assert_eq!(wrong, None, "the first heap whose value differs, {path}");
            // Missing values were looked for past the narrow table (counted only there and
            // in the windows' scans).
            assert!(engine.stats().missing_values > 0, "{path}");
        }
    }

    /// 0.764 to 2^18 (values to 4665: windows of every length) on every scan path, against
    /// ogsolve's Fletcher-32 checksum. Run with `cargo test --release -p sprague --lib
    /// heap::rare -- --ignored`.
    #[test]
    #[ignore]
    fn values_to_4665_on_every_path() {
        for path in Simd::available() {
            let options = Options {
                simd: path,
                ..options(1)
            };
            let values = compute(&Code::parse("0.764").unwrap(), 1 << 18, &options, &()).unwrap();
            assert_eq!(fletcher(&values), 0x25DB_4285, "0.764 on {path}");
        }
    }

    /// 0.007 to 2^18, where values pass 1024, against ogsolve's Fletcher-32 checksum. Run with
    /// `cargo test --release -p sprague --lib heap::rare -- --ignored`.
    #[test]
    #[ignore]
    fn treblecross_to_2_18() {
        let values = compute(&Code::parse("0.007").unwrap(), 1 << 18, &options(2), &()).unwrap();
        assert_eq!(values[1 << 18], 776);
        let (mut a, mut b) = (0u16, 0u16);
        for &v in &values {
            a = a.wrapping_add(v);
            b = b.wrapping_add(a);
        }
        assert_eq!((u32::from(b) << 16) | u32::from(a), 0x8929_B47C);
    }

    /// Every code of up to three digits to 600 on a two-thread engine set up by `setup`,
    /// checked against the reference.
    fn every_short_code_on_two_threads(setup: impl Fn(&mut Engine)) -> Vec<ShortRun> {
        let to = 600;
        let pool = two_threads();
        short_codes(to)
            .map(|(text, code, expected)| {
                let mut engine = Engine::new(&code).unwrap();
                engine.set_parallel(true);
                setup(&mut engine);
                pool.install(|| {
                    while engine.values().len() <= to {
                        engine.advance(false, to).unwrap();
                    }
                });
                assert_eq!(engine.values(), &expected[..], "{text}");
                ShortRun {
                    stats: engine.stats(),
                    independent: engine.pairs_independent,
                    packed: engine.is_packed(),
                    text,
                }
            })
            .collect()
    }

    /// Every code of [`short_codes`] to 600 on the calling thread, heap by heap, `setup`
    /// applied to each engine; `what` names the setting in a failure.
    fn every_short_code_on_one_thread(setup: impl Fn(&mut Engine), what: &str) {
        for (text, code, expected) in short_codes(600) {
            let mut engine = Engine::new(&code).unwrap();
            setup(&mut engine);
            while engine.values().len() <= 600 {
                engine.step().unwrap();
            }
            assert_eq!(engine.values(), &expected[..], "{text}, {what}");
        }
    }

    /// One code's run in [`every_short_code_on_two_threads`].
    struct ShortRun {
        text: String,
        /// The work counters.
        stats: Stats,
        /// Whether its heaps may pair.
        independent: bool,
        packed: bool,
    }

    /// The marking arrays of values from [`small::SMALL_CAP`] up, taken by every code of up to three
    /// digits (whose values stay below it), on every path with marks of both widths, on one
    /// thread and on two.
    #[test]
    fn marking_arrays_agree_on_every_short_code() {
        for path in Simd::available() {
            for width in MarkWidth::BOTH {
                let wide = |engine: &mut Engine| {
                    engine.small_cap = 0;
                    engine.set_simd(path).unwrap();
                    engine.set_marks(width);
                };
                let runs = every_short_code_on_two_threads(wide);
                assert!(runs.iter().any(|run| run.stats.scanned_pairs > 0));
                every_short_code_on_one_thread(wide, &format!("on {path}, {width:?} marks"));
            }
        }
    }

    /// The small-value path on every list length, its scans going on with a table after
    /// none, one or a few pairs on words, on every code of up to three digits, on one thread
    /// and on two.
    #[test]
    fn small_values_agree_on_every_short_code() {
        for (i, word_scan) in [0, 1, 9].into_iter().enumerate() {
            let small = |engine: &mut Engine| {
                engine.small_list = usize::MAX;
                engine.word_scan = word_scan;
                // The batch's marks are read as bits here: both widths, in turn.
                engine.set_marks(MarkWidth::BOTH[i % 2]);
            };
            every_short_code_on_two_threads(small);
            every_short_code_on_one_thread(small, &format!("{word_scan} pairs on words"));
        }
    }

    /// Batches marked ahead by a second thread, from the first heap where they apply, on
    /// every code of up to three digits, with marks of both widths.
    #[test]
    fn batches_ahead_agree_on_every_short_code() {
        // Pairs allowed too: where batches ahead are wanted they come first, and heaps step one
        // at a time to the next batch (pairs from an odd heap would never reach one).
        for width in MarkWidth::BOTH {
            let runs = every_short_code_on_two_threads(|engine| {
                engine.ahead_min = 0;
                engine.pair_min_work = 0.0;
                engine.set_marks(width);
            });
            let ahead: u64 = runs.iter().map(|run| run.stats.batches_ahead).sum();
            assert!(ahead > 10_000, "{ahead} batches ahead, {width:?} marks");
        }
    }

    #[test]
    fn the_progress_rate_is_that_of_the_last_half_minute() {
        assert_eq!(smoothed_rate(None, 100.0, 0.25), 100.0);
        // A quarter of a second ten times faster moves it by a hundred-and-twentieth.
        assert!((smoothed_rate(Some(100.0), 1000.0, 0.25) - 107.5).abs() < 1e-9);
        assert_eq!(smoothed_rate(Some(100.0), 1000.0, 60.0), 1000.0);
        // Five minutes at one rate: that rate.
        let mut rate = 100.0;
        for _ in 0..1200 {
            rate = smoothed_rate(Some(rate), 500.0, 0.25);
        }
        assert!((rate - 500.0).abs() < 1.0, "{rate}");
        let sparse = Mode::Sparse {
            mask: 494,
            heap_parity: false,
        };
        assert_eq!(remaining_seconds(sparse, 100, 1100, 10.0), 100.0);
    }

    /// Packed from heap 100 on, with batches ahead and heaps in pairs allowed and a small
    /// middle window, on every code of up to three digits.
    #[test]
    fn packed_tables_agree_on_every_short_code() {
        let runs = every_short_code_on_two_threads(|engine| {
            engine.ahead_min = 0;
            engine.pair_min_work = 0.0;
            engine.pack_from(100, 16, 0);
            engine.middle.side = 16;
        });
        let packed = runs.iter().filter(|run| run.packed).count();
        assert!(packed > runs.len() / 2, "{packed} of {} packed", runs.len());
    }

    /// Heaps computed in pairs, from the first review on, on every code of up to three digits.
    #[test]
    fn pairs_of_heaps_agree_on_every_short_code() {
        let runs = every_short_code_on_two_threads(|engine| {
            engine.pair_min_work = 0.0;
            // No batches ahead, which come first where both apply.
            engine.ahead_min = usize::MAX;
        });
        let mut paired = 0;
        for ShortRun {
            text,
            stats,
            independent,
            ..
        } in &runs
        {
            let heaps = stats.paired_heaps;
            if *independent {
                assert!(heaps > 200, "{text}: {heaps} heaps in pairs");
            } else {
                assert_eq!(heaps, 0, "{text}");
            }
            paired += heaps;
        }
        // The 0.x codes whose moves that leave one heap take at least two, in the naive and
        // the sparse modes (no 4.x code: they split without taking).
        assert!(paired > 20_000, "{paired} heaps in pairs");
    }

    #[test]
    fn periods_are_found_when_heaps_step_in_pairs() {
        // Dawson's chess (0.137: period 34 from 52) pairs its heaps. Pairs step over some
        // table lengths, from an odd one over every power of two, where the period is looked
        // for; it must still be found at the first look, not after every heap is computed.
        let code = Code::parse("0.137").unwrap();
        let mut engine = Engine::new(&code).unwrap();
        engine.set_parallel(true);
        engine.pair_min_work = 0.0;
        let pool = two_threads();
        let to = 200_000;
        let period = pool
            .install(|| run_loop(&mut engine, to, &options(2), &()))
            .unwrap()
            .expect("a period");
        assert_eq!((period.preperiod, period.period), (52, 34));
        let stats = engine.stats();
        assert!((100..4096).contains(&stats.paired_heaps), "{stats:?}");
        assert_eq!(engine.values().len(), to + 1);
        assert_eq!(engine.values()[to], engine.values()[52 + (to - 52) % 34]);
    }

    #[test]
    fn batches_ahead_come_before_pairs() {
        // Treblecross (0.007) may pair its heaps, and its sparse mode wants batches ahead once
        // the rare list is long enough: those then come first, although pairs from an odd
        // heap never reach a multiple of BATCH.
        let code = Code::parse("0.007").unwrap();
        let to = 4000;
        let mut engine = fixed_on_two_threads(&code, 1976);
        engine.ahead_min = usize::MAX;
        let pool = two_threads();
        pool.install(|| {
            let until = |engine: &mut Engine, last: usize| {
                while engine.values().len() <= last {
                    engine.advance(false, last).unwrap();
                }
            };
            // One heap at a time to 256, then pairs from 257, an odd heap.
            until(&mut engine, 256);
            engine.heavy = true;
            until(&mut engine, 1000);
            assert!(engine.stats().paired_heaps >= 700, "{:?}", engine.stats());
            // Now the list is long enough for batches ahead.
            engine.ahead_min = 0;
            until(&mut engine, to);
        });
        let expected = compute(&code, to, &options(1), &()).unwrap();
        assert_eq!(engine.values(), &expected[..]);
        let stats = engine.stats();
        assert!(
            stats.batches_ahead as usize * BATCH > 2 * to / 3,
            "{stats:?}"
        );
    }

    #[test]
    fn heaps_pair_only_where_the_next_never_reads_the_last() {
        let independent = |text: &str| {
            Engine::new(&Code::parse(text).unwrap())
                .unwrap()
                .pairs_independent
        };
        // Every move that leaves one heap removes at least two, every split at least one.
        for text in ["0.007", "0.106", "0.16", "0.004", "0.026", "0.137"] {
            assert!(independent(text), "{text}");
        }
        // Officers and Kayles leave one heap after taking one; 4.x splits without taking.
        for text in ["0.6", "0.77", "4.7", "0.2"] {
            assert!(!independent(text), "{text}");
        }
    }

    #[test]
    fn long_rare_lists_split_between_threads() {
        // A poor mask on 0.007 keeps about half the heaps on the list, past the length where
        // two threads share the rare-pair marking.
        let code = Code::parse("0.007").unwrap();
        let to = 40_000;
        let naive = Options {
            naive_only: true,
            ..options(1)
        };
        let expected = compute(&code, to, &naive, &()).unwrap();
        let pool = two_threads();
        let mut engine = fixed_on_two_threads(&code, 1);
        engine.parallel_min = 1 << 13;
        pool.install(|| {
            for _ in 0..=to {
                engine.step().unwrap();
            }
        });
        assert!(engine.rare_len() >= 2 * engine.parallel_min, "{engine:?}");
        assert_eq!(engine.values(), &expected[..]);
        // The naive scan split between the threads, on every path this CPU runs.
        for path in Simd::available() {
            let mut engine = Engine::new(&code).unwrap();
            engine.fixed_mode = true;
            engine.set_simd(path).unwrap();
            engine.set_parallel(true);
            engine.parallel_min = 1 << 10;
            pool.install(|| {
                for _ in 0..=20_000 {
                    engine.step().unwrap();
                }
            });
            assert_eq!(engine.values(), &expected[..=20_000]);
        }
    }

    #[test]
    fn values_beyond_u16_are_refused() {
        // Nim (0.333…) has G(n) = n.
        let nim = Code::from_digits(&[[0].as_slice(), &[3; 255]].concat()).unwrap();
        let values = compute(&nim, 200, &options(1), &()).unwrap();
        assert_eq!(values[200], 200);
        assert_eq!(to_value(7, 65535).unwrap(), 65535);
        assert!(matches!(to_value(7, 65536), Err(Error::Limit(m)) if m.contains("G(7) = 65536")));
        assert!(matches!(
            check_memory(MAX_HEAP + 1, None),
            Err(Error::Limit(_))
        ));
        assert_eq!(
            check_memory(1 << 20, Some(1 << 20)).unwrap_err().to_string(),
            format!(
                "computing to 1048576 needs about {} MiB, more than the 1 MiB left in its memory budget",
                // Packed, since it would not fit unpacked either.
                estimate(1 << 20, Some(1 << 18)) >> 20
            )
        );
    }

    #[test]
    fn values_to_2_28_fit_the_machine() {
        // 2^28 values must fit 24 GiB with room to spare (the estimate includes a long rare
        // list and the period check).
        assert!(memory_estimate(1 << 28) < 1 << 30);
        // Unpacked, 2 bytes a value.
        assert!(memory_estimate(PACK_MIN - 1) > 2 * PACK_MIN as u64);
        // The engine's largest table (0.6 to 2^32 − 2) is packed, one byte a value: under
        // 8 GiB with the rare list and the period check.
        assert!(memory_estimate(MAX_HEAP) < 6 << 30);
        assert!(memory_estimate(MAX_HEAP) > MAX_HEAP as u64);
        let err = check_memory(MAX_HEAP, None).err();
        assert!(
            err.as_ref().is_none_or(|e| e.to_string().contains("MiB")),
            "{err:?}"
        );
    }

    #[test]
    fn checkpoints_take_at_most_a_twentieth_of_the_run() {
        let s = Duration::from_secs;
        assert_eq!(stretched(s(60), s(1)), s(60));
        assert_eq!(stretched(s(60), s(10)), s(190));
        assert_eq!(stretched(s(900), s(40)), s(900));
        assert_eq!(stretched(Duration::ZERO, s(10)), Duration::ZERO);
    }

    /// Packed from an early heap, with a short head and tail, every reader of the values
    /// (rare pairs near and far, batches on two threads, the scans of both orders, the naive
    /// mode, the period search and the fill by the period) gives the table of the whole
    /// values.
    #[test]
    fn packed_tables_are_the_whole_tables() {
        for (text, to, packs) in [
            ("0.6", 60_000, true),
            ("0.007", 12_000, true),
            ("0.137", 20_000, true),
            ("0.106", 60_000, true),
            ("4.7", 20_000, true),
            ("0.77", 20_000, true),
            // Values past 511 soon after heap 2,000: not packed.
            ("0.44444", 6_000, false),
        ] {
            let code = Code::parse(text).unwrap();
            let whole = compute(&code, to, &options(1), &()).unwrap();
            for threads in [1, 2] {
                let packed = Options {
                    pack_from: Some(2_000),
                    ..options(threads)
                };
                let run = run(&code, to, &packed, &()).unwrap();
                assert_eq!(
                    run.values,
                    whole.clone().into(),
                    "{text} on {threads} threads"
                );
                // Packed values are not narrowed: the table says so and still compares equal.
                if threads == 1 && packs {
                    assert_eq!(
                        run.values.width(),
                        if whole.iter().all(|&v| v < 256) { 1 } else { 2 }
                    );
                }
            }
            // Step by step, so that the engine can be asked whether it packed.
            let mut engine = Engine::new(&code).unwrap();
            engine.pack_from(2_000, 100, 0);
            engine.middle.side = 2048;
            while engine.len() <= to.min(30_000) {
                engine.step().unwrap();
            }
            // The middle window follows the table.
            let middle = engine.len() / 2;
            if packs && engine.len() >= 8 * 2048 {
                let window = &engine.middle;
                assert!(window.first < middle && middle < window.first + window.values.len());
            }
            assert_eq!(engine.is_packed(), packs, "{text}");
            assert_eq!(&engine.values()[..], &whole[..engine.len()], "{text}");
            if packs {
                // The tail keeps what the moves and batches read, and no more than twice that.
                let (first, tail) = engine.values.tail();
                assert!(
                    first > 2_000 && tail.len() < 2 * 4 * BATCH + 2 * 200,
                    "{text}"
                );
                // The body decodes by the current mode's rule, even when the first packing
                // came before the mode changed (0.6 packs while naive here).
                assert_eq!(engine.values.rule(), Some(engine.packing_rule()), "{text}");
            }
        }
    }

    /// Long tables, and tables that would not fit the budget with 2 bytes a value, are
    /// packed from a quarter on; options may ask for another start, or none.
    #[test]
    fn tables_are_packed_when_long_or_tight() {
        let to = 1 << 24;
        assert_eq!(packing_start(to, None, None), None);
        let unpacked = estimate(to, None);
        assert_eq!(packing_start(to, None, Some(unpacked)), None);
        assert_eq!(packing_start(to, None, Some(unpacked - 1)), Some(to / 4));
        assert!(estimate(to, Some(to / 4)) < unpacked - (to as u64) / 2);
        assert_eq!(packing_start(to, Some(usize::MAX), Some(0)), None);
        assert_eq!(packing_start(to, Some(1000), None), Some(1000));
        assert_eq!(packing_start(PACK_MIN, None, None), Some(PACK_MIN / 4));
        assert_eq!(packing_start(PACK_MIN - 1, None, None), None);
    }

    /// Rare heaps far from the newest (0.6's past heap 2,000 with a head of 100) are paired
    /// with partners in the packed body, one by one.
    #[test]
    fn rare_partners_in_the_packed_body_are_read_one_by_one() {
        let code = Code::parse("0.6").unwrap();
        let mut engine = Engine::new(&code).unwrap();
        engine.pack_from(1_000, 10, 0);
        while engine.len() <= 40_000 {
            engine.step().unwrap();
        }
        let (first, _) = engine.values.tail();
        assert!(engine.rare.iter().any(|&r| r as usize > 40_000 - first));
        assert_eq!(&engine.values()[..], &reference_fast(&code, 40_000)[..]);
    }

    /// On two threads, the batches ahead mark the first pairs near the middle in the decoded
    /// window once packed, as they do in the whole values before.
    #[test]
    fn batches_ahead_mark_the_middle_pairs_of_a_packed_table() {
        let code = Code::parse("0.6").unwrap();
        let to = 40_000;
        let mut engine = Engine::new(&code).unwrap();
        engine.set_parallel(true);
        engine.ahead_min = 0;
        engine.pack_from(2_000, 100, 0);
        engine.middle.side = 2048;
        let mut marked = 0;
        two_threads().install(|| {
            while engine.len() <= to {
                engine.advance(false, to).unwrap();
                if engine.len() > 20_000 {
                    let ahead = engine.ahead.as_ref().map_or(&[][..], |b| &b.plain[..]);
                    marked += ahead.iter().flatten().filter(|&&a| a > 0).count();
                }
            }
        });
        assert!(engine.is_packed() && engine.stats().batches_ahead > 1_000);
        assert!(
            marked > 10_000,
            "{marked} heaps with middle pairs marked ahead"
        );
        assert_eq!(&engine.values()[..], &reference_fast(&code, to)[..]);
    }

    /// The whole-value engine's table, the reference of the packed tests past the sizes
    /// that the definition reaches quickly.
    fn reference_fast(code: &Code, to: usize) -> Vec<u16> {
        compute(code, to, &options(1), &()).unwrap()
    }

    /// A packed table's period is found in its packed values and fills the rest: 0.16's
    /// (preperiod 105,351, period 149,459) is certified at 509,621, past heap 2^17.
    #[test]
    fn a_packed_table_certifies_its_period() {
        let code = Code::parse("0.16").unwrap();
        let to = 600_000;
        let whole = run(&code, to, &options(1), &()).unwrap();
        let packed = run(
            &code,
            to,
            &Options {
                pack_from: Some(1 << 17),
                ..options(1)
            },
            &(),
        )
        .unwrap();
        assert_eq!(packed.values, whole.values);
        let period = packed.period.unwrap();
        assert_eq!((period.preperiod, period.period), (105_351, 149_459));
        assert_eq!(packed.period, whole.period);
    }

    /// Runs 0.6 to `to` with a checkpoint in `name`, killed after heap `stop`, then resumed on
    /// two threads: the values the checkpoint held, the resumed table and one computed
    /// straight; the options of the resumed run and the checkpoint's directory are returned
    /// for more runs.
    fn kill_and_resume(
        name: &str,
        to: usize,
        stop: usize,
        pack_from: Option<usize>,
    ) -> (Vec<u16>, Vec<u16>, Vec<u16>, Options, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("sprague-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("officers.ckpt");
        let _ = std::fs::remove_file(&path);
        let code = Code::parse("0.6").unwrap();
        let mut interrupted = Options {
            checkpoint: Some(path.clone()),
            checkpoint_interval: Duration::ZERO,
            stop_after: Some(stop),
            pack_from,
            ..options(1)
        };
        assert!(matches!(
            compute(&code, to, &interrupted, &()),
            Err(Error::Limit(_))
        ));
        let saved = checkpoint::load(&path).unwrap().unwrap().values;
        assert!(saved.len() > stop / 2 && saved.len() <= stop + 1);
        interrupted.stop_after = None;
        interrupted.threads = 2;
        let resumed = compute(&code, to, &interrupted, &()).unwrap();
        let straight = compute(&code, to, &options(1), &()).unwrap();
        (saved, resumed, straight, interrupted, dir)
    }

    /// A killed packed run resumes from its checkpoint (written a chunk at a time from the
    /// packed values, read back into packed values) to the same table.
    #[test]
    fn a_packed_run_resumes_to_the_same_table() {
        let (saved, resumed, straight, _, dir) =
            kill_and_resume("packed", 50_000, 30_000, Some(3_000));
        assert_eq!(saved, straight[..saved.len()]);
        assert_eq!(resumed, straight);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn kill_and_resume_gives_identical_values() {
        let (_, resumed, straight, interrupted, dir) =
            kill_and_resume("rare", 30_000, 20_000, None);
        assert_eq!(resumed, straight);
        // The same checkpoint refuses another code.
        let other = compute(&Code::parse("0.07").unwrap(), 10, &interrupted, &());
        assert!(matches!(other, Err(Error::Limit(m)) if m.contains("checkpoint is for 0.6")));
        // A shorter run from a longer checkpoint is a prefix.
        let code = Code::parse("0.6").unwrap();
        let prefix = compute(&code, 100, &interrupted, &()).unwrap();
        assert_eq!(prefix[..], straight[..101]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn code_strategy() -> impl Strategy<Value = Code> {
        (
            prop_oneof![Just(0u8), Just(4u8)],
            prop::collection::vec(0u8..8, 1..=4),
        )
            .prop_filter_map("a code with a move", |(d0, rest)| {
                let mut digits = vec![d0];
                digits.extend(rest);
                Code::from_digits(&digits).ok()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn engine_matches_reference(code in code_strategy(), threads in 1usize..=2) {
            let to = 3000;
            let expected = reference(&code, to);
            let got = compute(&code, to, &options(threads), &()).unwrap();
            prop_assert_eq!(got, expected, "code {}", code.name());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        /// Any mask gives exact values; only the speed depends on it.
        #[test]
        fn every_mask_is_exact(
            code in code_strategy(),
            mask in 1u16..64,
            heap_parity in any::<bool>(),
            parallel in any::<bool>(),
            path in prop::sample::select(Simd::available()),
        ) {
            let to = 1200;
            let mut engine = Engine::new(&code).unwrap();
            let mode = Mode::Sparse { mask, heap_parity };
            let mode = if engine.splits.is_empty()
                || (heap_parity && !engine.heap_parity_allowed) { Mode::Naive } else { mode };
            engine.set_mode(mode);
            engine.fixed_mode = true;
            engine.set_simd(path).unwrap();
            engine.set_parallel(parallel);
            for _ in 0..=to {
                engine.step().unwrap();
            }
            prop_assert_eq!(engine.values(), &reference(&code, to)[..], "code {}", code.name());
        }
    }

    proptest! {
        /// The packed comparison of [`unseen_words`] against the definition, marks 0 or 1 of
        /// both widths.
        #[test]
        fn unseen_words_are_the_unmarked_values(
            marks in prop::collection::vec(prop::bool::weighted(0.7), 64 * 3),
        ) {
            let bytes: Vec<u8> = marks.iter().map(|&m| u8::from(m)).collect();
            let words: Vec<u32> = marks.iter().map(|&m| u32::from(m)).collect();
            let (mut from_bytes, mut from_words) = ([0u64; 3], [0u64; 3]);
            unseen_words(&bytes, &mut from_bytes);
            unseen_words(&words, &mut from_words);
            for (v, &m) in marks.iter().enumerate() {
                prop_assert_eq!(from_bytes[v / 64] >> (v % 64) & 1 == 1, !m, "value {}", v);
                prop_assert_eq!(from_words[v / 64] >> (v % 64) & 1 == 1, !m, "value {}", v);
            }
        }
    }

    /// A marking array holds `len` zeroed marks of its width, and refuses to be read at the
    /// other width (a word read of a byte array would run past its allocation).
    #[test]
    fn marking_arrays_are_read_at_their_width() {
        let mut bytes = MarkArray::new(5, MarkWidth::Byte);
        assert_eq!(bytes.get::<u8>(), &[0; 5]);
        bytes.get_mut::<u8>()[4] = 1;
        assert_eq!(bytes.get::<u8>(), &[0, 0, 0, 0, 1]);
        assert_eq!(MarkArray::new(3, MarkWidth::Word).get::<u32>(), &[0; 3]);
        let wrong =
            std::panic::catch_unwind(|| MarkArray::new(8, MarkWidth::Byte).get::<u32>().len());
        assert!(wrong.is_err(), "a byte array read as words");
    }

    #[test]
    fn grundy_matches_reference() {
        let code = Code::grundy();
        assert_eq!(
            compute(&code, 3000, &options(1), &()).unwrap(),
            reference(&code, 3000)
        );
    }

    /// Officers to 2^20. Slow in debug; run with
    /// `cargo test --release -p sprague --lib heap::rare -- --ignored`.
    #[test]
    #[ignore]
    fn officers_to_2_20() {
        let values = compute(&Code::parse("0.6").unwrap(), 1 << 20, &options(2), &()).unwrap();
        assert_eq!(values[1 << 20], 150);
        assert_eq!(fnv1a(&values), OFFICERS_FNV);
        let (mut a, mut b) = (0u16, 0u16);
        for &v in &values {
            a = a.wrapping_add(v);
            b = b.wrapping_add(a);
        }
        assert_eq!((u32::from(b) << 16) | u32::from(a), 0x1369_632A);
    }

    /// FNV-1a over the little-endian bytes of G(0..=2^20); the values also match ogsolve's
    /// Fletcher-32 checksum 1369632A.
    const OFFICERS_FNV: u64 = 15_010_966_352_304_510_038;

    /// 0.16 has period 149459 from 105351. Run with
    /// `cargo test --release -p sprague --lib heap::rare -- --ignored`.
    #[test]
    #[ignore]
    fn period_of_0_16() {
        let (pre, p) = (105_351, 149_459);
        let to = 2 * pre + 2 * p + 3;
        let values = compute(&Code::parse("0.16").unwrap(), to, &options(2), &()).unwrap();
        for n in pre..=to - p {
            assert_eq!(values[n], values[n + p], "n = {n}");
        }
        assert_ne!(values[pre - 1], values[pre - 1 + p]);
    }
}
