//! The tabulation engine: G(0), G(1), … of single heaps for any [`HeapRules`].
//!
//! Take-and-break codes use a bitset engine:
//! - a move leaving one heap marks G(n − t); short runs of amounts are marked one by one, long
//!   runs (`sub:1-1000`, the unbounded tail of `allbut`) keep a sliding window of value counts
//!   whose nonzero set is a two-level bitset, so a run costs O(1) per heap whatever its length;
//! - a move leaving two heaps after removing t marks the set P2(n − t) of all G(a) ⊕ G(b) with
//!   a + b = n − t. P2(s) is computed once per s, word-parallel in a register when values are
//!   below 64 (with an early exit once every XOR below the value bound is present), and kept;
//! - three heaps use P3(s) = ∪ₐ G(a) ⊕ P2(s − a), where ⊕ g permutes a bitset word-wise;
//! - the mex is the first zero bit common to the marks and the windows.
//!
//! Other rulesets are evaluated from their option lists.

use super::code::{Code, LEAVE_NONE, LEAVE_ONE, LEAVE_THREE, LEAVE_TWO};
use super::HeapRules;
use crate::error::{Error, Result};
use crate::progress::Progress;
use std::sync::Arc;

/// The longest table the engine builds (values are stored as u32).
pub const MAX_TABLE_LEN: u64 = 1 << 30;

/// The most memory (bytes) the split-set caches may take.
const MAX_CACHE_BYTES: u64 = 4 << 30;

/// Runs at least this long get a sliding window instead of direct marking.
const WINDOW_MIN_RUN: u64 = 32;

/// How often progress is reported, in heaps.
const PROGRESS_STEP: u64 = 1 << 14;

/// An incrementally extended table of single-heap nim values.
///
/// ```
/// use sprague::heap::{Code, Tabulation};
/// use std::sync::Arc;
/// let mut kayles = Tabulation::new(Arc::new(Code::parse("0.77").unwrap()));
/// kayles.extend_to(11, &())?;
/// assert_eq!(kayles.values(), &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
/// # Ok::<(), sprague::Error>(())
/// ```
pub struct Tabulation {
    rules: Arc<dyn HeapRules>,
    values: Vec<u32>,
    code: Option<CodeEngine>,
}

impl Tabulation {
    /// An empty table for `rules`.
    pub fn new(rules: Arc<dyn HeapRules>) -> Self {
        let code = rules.code().map(CodeEngine::new);
        Tabulation {
            rules,
            values: Vec::new(),
            code,
        }
    }

    /// The rules being tabulated.
    pub fn rules(&self) -> &Arc<dyn HeapRules> {
        &self.rules
    }

    /// The values computed so far: G(0..len).
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// Number of heaps computed (the next heap to compute).
    pub fn len(&self) -> u64 {
        self.values.len() as u64
    }

    /// Whether nothing has been computed yet.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Replaces the values by `values`, computed elsewhere (the sparse engine of
    /// [`super::rare`]); later extensions list options heap by heap, so callers extend such a
    /// table by computing it again.
    pub(crate) fn adopt(&mut self, values: Vec<u32>) {
        self.values = values;
        self.code = None;
    }

    /// Computes values up to heap `to` inclusive (nothing if already there).
    ///
    /// # Errors
    /// [`Error::Limit`] past [`MAX_TABLE_LEN`] heaps or the cache memory bound;
    /// [`Error::Cycle`] if a user ruleset leaves a heap not smaller than the one it moved in.
    pub fn extend_to(&mut self, to: u64, progress: &dyn Progress) -> Result<()> {
        if to >= MAX_TABLE_LEN {
            return Err(Error::Limit(format!(
                "heap {to} is past the largest table this engine builds ({MAX_TABLE_LEN} heaps)"
            )));
        }
        let start = self.len();
        if to < start {
            return Ok(());
        }
        crate::memory::reserve(
            &format!("a table of nim values to heap {to}"),
            (to + 1 - start).saturating_mul(std::mem::size_of::<u32>() as u64),
            &[crate::memory::Cap::Budget(progress.memory_left())],
        )?;
        self.values.reserve((to + 1 - start) as usize);
        let long = to - start >= PROGRESS_STEP;
        if long {
            progress.start("nim values", to + 1 - start);
        }
        for n in start..=to {
            let g = match &mut self.code {
                Some(engine) => engine.next(&self.values)?,
                None => generic_value(self.rules.as_ref(), &self.values, n)?,
            };
            self.values.push(g);
            if (n - start) & 63 == 0 {
                crate::progress::check(progress)?;
            }
            if long && (n - start) & (PROGRESS_STEP - 1) == 0 {
                progress.advance(n - start, "");
            }
        }
        if long {
            progress.finish();
        }
        Ok(())
    }
}

fn generic_value(rules: &dyn HeapRules, values: &[u32], n: u64) -> Result<u32> {
    if n == 0 {
        return Ok(0);
    }
    let mut seen = Vec::new();
    for option in rules.try_options(n)? {
        let mut x = 0u32;
        for &part in &option {
            if part == 0 {
                continue;
            }
            if part >= n {
                return Err(Error::Cycle(format!(
                    "heap {n} (a move leaves a heap of {part}, not smaller)"
                )));
            }
            x ^= values[part as usize];
        }
        seen.push(x);
    }
    seen.sort_unstable();
    seen.dedup();
    Ok(seen
        .iter()
        .enumerate()
        .find(|&(i, &x)| x != i as u32)
        .map_or(seen.len() as u32, |(i, _)| i as u32))
}

/// A set of marked values, cleared cheaply by remembering the words touched.
#[derive(Default)]
struct Marks {
    words: Vec<u64>,
    touched: Vec<usize>,
    /// Every mark is in the first [`DENSE_WORDS`] words, which `clear` zeroes wholesale.
    dense: bool,
}

/// Below 64·DENSE_WORDS values the marks are cleared as a block (a power of two).
const DENSE_WORDS: usize = 64;

impl Marks {
    #[inline]
    fn set(&mut self, v: u32) {
        if self.dense {
            self.words[(v >> 6) as usize] |= 1 << (v & 63);
            return;
        }
        let w = (v >> 6) as usize;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        if self.words[w] == 0 {
            self.touched.push(w);
        }
        self.words[w] |= 1 << (v & 63);
    }

    fn or(&mut self, src: &[u64]) {
        if src.len() > self.words.len() {
            self.words.resize(src.len(), 0);
        }
        if self.dense {
            for (w, &s) in self.words.iter_mut().zip(src) {
                *w |= s;
            }
            return;
        }
        for (w, &s) in src.iter().enumerate() {
            if s != 0 {
                if self.words[w] == 0 {
                    self.touched.push(w);
                }
                self.words[w] |= s;
            }
        }
    }

    fn clear(&mut self) {
        if self.dense {
            self.words[..DENSE_WORDS].fill(0);
        }
        for &w in &self.touched {
            self.words[w] = 0;
        }
        self.touched.clear();
    }

    fn next_zero(&self, v: u64) -> u64 {
        let mut w = (v >> 6) as usize;
        let mut word = match self.words.get(w) {
            Some(&x) => x | ((1u64 << (v & 63)) - 1),
            None => return v,
        };
        loop {
            if word != !0 {
                return (w as u64) * 64 + word.trailing_ones() as u64;
            }
            w += 1;
            match self.words.get(w) {
                Some(&x) => word = x,
                None => return (w as u64) * 64,
            }
        }
    }
}

/// A bitset with a summary of its full words, for fast "next absent value" queries.
#[derive(Default)]
struct LevelSet {
    words: Vec<u64>,
    full: Vec<u64>,
}

impl LevelSet {
    fn insert(&mut self, v: u32) {
        let w = (v >> 6) as usize;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
            self.full.resize(self.words.len().div_ceil(64), 0);
        }
        self.words[w] |= 1 << (v & 63);
        if self.words[w] == !0 {
            self.full[w >> 6] |= 1 << (w & 63);
        }
    }

    fn remove(&mut self, v: u32) {
        let w = (v >> 6) as usize;
        self.full[w >> 6] &= !(1 << (w & 63));
        self.words[w] &= !(1 << (v & 63));
    }

    fn next_zero(&self, v: u64) -> u64 {
        let w = (v >> 6) as usize;
        let Some(&x) = self.words.get(w) else {
            return v;
        };
        let word = x | ((1u64 << (v & 63)) - 1);
        if word != !0 {
            return (w as u64) * 64 + word.trailing_ones() as u64;
        }
        // The first word after w that is not full, through the summary.
        let mut f = w + 1;
        while f < self.words.len() {
            let summary = self.full[f >> 6] | ((1u64 << (f & 63)) - 1);
            if summary != !0 {
                let w2 = ((f >> 6) << 6) + summary.trailing_ones() as usize;
                return match self.words.get(w2) {
                    Some(&x) => (w2 as u64) * 64 + x.trailing_ones() as u64,
                    None => (self.words.len() as u64) * 64,
                };
            }
            f = ((f >> 6) + 1) << 6;
        }
        (self.words.len() as u64) * 64
    }
}

/// The values of the heaps n − t for t in a long run `lo..=hi`, as counts.
struct Window {
    lo: u64,
    hi: u64,
    counts: Vec<u32>,
    set: LevelSet,
}

impl Window {
    fn add(&mut self, v: u32) {
        let i = v as usize;
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
        if self.counts[i] == 1 {
            self.set.insert(v);
        }
    }

    fn remove(&mut self, v: u32) {
        let i = v as usize;
        self.counts[i] -= 1;
        if self.counts[i] == 0 {
            self.set.remove(v);
        }
    }
}

/// Per-code state of the bitset engine.
struct CodeEngine {
    take_all: Vec<(u64, u64)>,
    /// Amounts of short leave-one runs, sorted, marked one by one.
    short: Vec<u64>,
    windows: Vec<Window>,
    split2: Vec<u64>,
    split3: Vec<u64>,
    unequal: bool,
    need_p2: bool,
    need_p3: bool,
    /// Values so far are below 2^bits; split sets have 2^bits bits.
    bits: u32,
    stride: usize,
    p2: Vec<u64>,
    p3: Vec<u64>,
    marks: Marks,
    max_value: u32,
}

impl CodeEngine {
    fn new(code: &Code) -> Self {
        let mut e = CodeEngine {
            take_all: Vec::new(),
            short: Vec::new(),
            windows: Vec::new(),
            split2: Vec::new(),
            split3: Vec::new(),
            unequal: code.unequal_splits(),
            need_p2: false,
            need_p3: false,
            bits: 0,
            stride: 1,
            p2: Vec::new(),
            p3: Vec::new(),
            marks: Marks::default(),
            max_value: 0,
        };
        if code.d0() & LEAVE_TWO != 0 {
            e.split2.push(0);
        }
        if code.d0() & LEAVE_THREE != 0 {
            e.split3.push(0);
        }
        for r in code.runs() {
            if r.digit & LEAVE_NONE != 0 {
                e.take_all.push((r.lo, r.hi));
            }
            if r.digit & LEAVE_ONE != 0 {
                if r.is_unbounded() || r.hi - r.lo + 1 >= WINDOW_MIN_RUN {
                    e.windows.push(Window {
                        lo: r.lo,
                        hi: r.hi,
                        counts: Vec::new(),
                        set: LevelSet::default(),
                    });
                } else {
                    e.short.extend(r.lo..=r.hi);
                }
            }
            // Code::new bounds the number of splitting amounts.
            if r.digit & LEAVE_TWO != 0 {
                e.split2.extend(r.lo..=r.hi);
            }
            if r.digit & LEAVE_THREE != 0 {
                e.split3.extend(r.lo..=r.hi);
            }
        }
        e.need_p3 = !e.split3.is_empty();
        e.need_p2 = !e.split2.is_empty() || e.need_p3;
        e
    }

    /// Computes G(n) for n = values.len().
    fn next(&mut self, values: &[u32]) -> Result<u32> {
        let n = values.len() as u64;
        for w in &mut self.windows {
            if n > w.lo {
                w.add(values[(n - w.lo) as usize]);
            }
            if w.hi != u64::MAX && n >= w.hi + 2 {
                w.remove(values[(n - w.hi - 1) as usize]);
            }
        }
        if self.need_p2 {
            self.check_cache_memory(n)?;
            let start = self.p2.len();
            self.p2.resize(start + self.stride, 0);
            if n >= 2 {
                pair_row(
                    values,
                    n as usize,
                    self.unequal,
                    self.bits,
                    &mut self.p2[start..],
                );
            }
        }
        if self.need_p3 {
            let start = self.p3.len();
            self.p3.resize(start + self.stride, 0);
            if n >= 3 {
                let (stride, p2) = (self.stride, &self.p2);
                let row = &mut self.p3[start..];
                for a in 1..=(n as usize - 2) {
                    let src = &p2[(n as usize - a) * stride..][..stride];
                    xor_translate_or(src, values[a], row);
                }
            }
        }

        let marks = &mut self.marks;
        marks.clear();
        // Few distinct values: clear a dense block instead of tracking touched words. Values
        // and the stride only grow, so once sparse the marks stay sparse.
        let dense_words = ((self.max_value as usize) >> 6) + 1;
        marks.dense = dense_words.max(self.stride) <= DENSE_WORDS;
        if marks.dense {
            marks.words.resize(DENSE_WORDS, 0);
        }
        if n >= 1 {
            let i = self.take_all.partition_point(|&(_, hi)| hi < n);
            if matches!(self.take_all.get(i), Some(&(lo, _)) if lo <= n) {
                marks.set(0);
            }
        }
        let below = self.short.partition_point(|&t| t < n);
        if marks.dense {
            let words = &mut marks.words[..DENSE_WORDS];
            for &t in &self.short[..below] {
                let v = values[(n - t) as usize] as usize;
                words[(v >> 6) & (DENSE_WORDS - 1)] |= 1 << (v & 63);
            }
        } else {
            for &t in &self.short[..below] {
                marks.set(values[(n - t) as usize]);
            }
        }
        for &t in &self.split2 {
            if t + 2 > n {
                break;
            }
            let s = (n - t) as usize;
            marks.or(&self.p2[s * self.stride..][..self.stride]);
        }
        for &t in &self.split3 {
            if t + 3 > n {
                break;
            }
            let s = (n - t) as usize;
            marks.or(&self.p3[s * self.stride..][..self.stride]);
        }

        let mut v = 0u64;
        'search: loop {
            v = marks.next_zero(v);
            for w in &self.windows {
                let z = w.set.next_zero(v);
                if z != v {
                    v = z;
                    continue 'search;
                }
            }
            break;
        }
        let g = u32::try_from(v).map_err(|_| Error::Limit("nim values above 2^32".into()))?;
        if g > self.max_value {
            self.max_value = g;
            if self.need_p2 && (g as u64) >= (1u64 << self.bits) {
                self.restride(32 - g.leading_zeros());
            }
        }
        Ok(g)
    }

    fn check_cache_memory(&self, n: u64) -> Result<()> {
        let caches = 1 + self.need_p3 as u64;
        let bytes = (n + 1) * self.stride as u64 * 8 * caches;
        if bytes > MAX_CACHE_BYTES {
            return Err(Error::Limit(format!(
                "the split sets would need more than {} GiB at heap {n} (nim values reach {})",
                MAX_CACHE_BYTES >> 30,
                self.max_value
            )));
        }
        Ok(())
    }

    /// Widens the cached split sets so values below 2^bits fit.
    fn restride(&mut self, bits: u32) {
        self.bits = bits;
        let stride = ((1usize << bits) / 64).max(1);
        if stride == self.stride {
            return;
        }
        let widen = |old: &[u64], from: usize| {
            let mut out = vec![0u64; old.len() / from * stride];
            for (i, row) in old.chunks(from).enumerate() {
                out[i * stride..i * stride + from].copy_from_slice(row);
            }
            out
        };
        self.p2 = widen(&self.p2, self.stride);
        self.p3 = widen(&self.p3, self.stride);
        self.stride = stride;
    }
}

/// Marks G(a) ⊕ G(s − a) for every split of s into two nonempty heaps (different ones when
/// `unequal`). Values are below 2^bits.
fn pair_row(values: &[u32], s: usize, unequal: bool, bits: u32, row: &mut [u64]) {
    let half = if unequal { (s - 1) / 2 } else { s / 2 };
    if half == 0 {
        return;
    }
    let low = &values[1..=half];
    let high = &values[s - half..s];
    if row.len() == 1 {
        // Every XOR is below 2^bits ≤ 64: accumulate in a register, stop once all are present.
        let full = if bits >= 6 {
            !0u64
        } else {
            (1u64 << (1u32 << bits)) - 1
        };
        let mut acc = 0u64;
        for (x, y) in low.chunks(512).zip(high.rchunks(512)) {
            let mut a = [0u64; 4];
            let quads = x.chunks_exact(4).zip(y.rchunks_exact(4));
            for (p, q) in quads {
                a[0] |= 1u64 << ((p[0] ^ q[3]) & 63);
                a[1] |= 1u64 << ((p[1] ^ q[2]) & 63);
                a[2] |= 1u64 << ((p[2] ^ q[1]) & 63);
                a[3] |= 1u64 << ((p[3] ^ q[0]) & 63);
            }
            let done = x.len() / 4 * 4;
            for (i, p) in x[done..].iter().enumerate() {
                a[0] |= 1u64 << ((p ^ y[y.len() - 1 - done - i]) & 63);
            }
            acc |= a[0] | a[1] | a[2] | a[3];
            if acc == full {
                break;
            }
        }
        row[0] = acc;
    } else {
        for (p, q) in low.iter().zip(high.iter().rev()) {
            let x = p ^ q;
            row[(x >> 6) as usize] |= 1u64 << (x & 63);
        }
    }
}

/// `dst |= { x ⊕ g : x ∈ src }` for bitsets of equal length (a power of two words, or one).
fn xor_translate_or(src: &[u64], g: u32, dst: &mut [u64]) {
    const MASKS: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF,
    ];
    let inner = g & 63;
    let outer = (g >> 6) as usize;
    for (i, &word) in src.iter().enumerate() {
        if word == 0 {
            continue;
        }
        let mut w = word;
        for (j, &m) in MASKS.iter().enumerate() {
            if inner >> j & 1 == 1 {
                let s = 1u32 << j;
                w = ((w & m) << s) | ((w >> s) & m);
            }
        }
        dst[i ^ outer] |= w;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(code: &str, to: u64) -> Vec<u32> {
        let mut t = Tabulation::new(Arc::new(Code::parse(code).unwrap()));
        t.extend_to(to, &()).unwrap();
        t.values().to_vec()
    }

    #[test]
    fn known_sequences() {
        // Dawson's Kayles 0.07 and Officers 0.6 from the literature.
        assert_eq!(
            table("0.07", 15),
            [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0]
        );
        assert_eq!(table("0.6", 12), [0, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0]);
        let mut g = Tabulation::new(Arc::new(Code::grundy()));
        g.extend_to(12, &()).unwrap();
        assert_eq!(g.values(), [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1]);
    }

    #[test]
    fn xor_translate_moves_every_bit() {
        for g in [0u32, 1, 5, 63, 64, 100, 255] {
            let mut src = vec![0u64; 4];
            let mut expect = vec![0u64; 4];
            for x in [0u32, 3, 17, 64, 130, 200, 255] {
                src[(x >> 6) as usize] |= 1 << (x & 63);
                let y = x ^ g;
                expect[(y >> 6) as usize] |= 1 << (y & 63);
            }
            let mut dst = vec![0u64; 4];
            xor_translate_or(&src, g, &mut dst);
            assert_eq!(dst, expect, "g = {g}");
        }
    }

    #[test]
    fn level_set_finds_the_next_absent_value() {
        let mut s = LevelSet::default();
        for v in 0..5000 {
            if v != 4100 {
                s.insert(v);
            }
        }
        assert_eq!(s.next_zero(0), 4100);
        assert_eq!(s.next_zero(4101), 5000);
        s.remove(7);
        assert_eq!(s.next_zero(0), 7);
        assert_eq!(s.next_zero(8), 4100);
        assert_eq!(s.next_zero(10_000), 10_000);
    }
}
