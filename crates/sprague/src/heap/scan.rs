//! The pair scan of the sparse-space engine: which values `G(a) ⊕ G(s − a)`, for `a` in a
//! range, are still wanted, found in order of `a`.
//!
//! Most pairs repeat a value already seen, so the scan tests many pairs at a time against the
//! set of values still wanted and leaves the vector loop only for new values. Three paths, one
//! chosen by the caller as a [`Simd`] value:
//!
//! - **Portable**: plain Rust written in blocks of [`BLOCK`] pairs so that the compiler
//!   vectorises it for the build's target (x86-64 SSE2, aarch64 NEON). While at most
//!   [`MAX_LIST`] values are wanted (the usual case after the first few pairs), each block's
//!   XORs are compared with every wanted value (a few vector compares per block); with more,
//!   each XOR is looked up in the bit table, pair by pair.
//! - **AVX2**, chosen at run time: 64 pairs per step, each XOR's low ten bits looked up in up
//!   to eight 16-byte `vpshufb` tables held in registers (the wanted set folded modulo 1024
//!   above that, every flagged pair checked exactly); the last pairs as in the portable path.
//! - **AVX-512** (F and BW): 32 pairs per step, each XOR looked up in the 2048-bit table held
//!   in four registers with word permutes; a window of up to 8192 values from a base (games
//!   whose values pass 2048) in up to sixteen, with the XORs outside the window masked off.
//!
//! Every path reports the same hits in the same order; the tests check that.

use crate::simd::Simd;

/// Pairs per block of the portable and AVX2 scans.
pub(crate) const BLOCK: usize = 32;

/// The most wanted values the portable and AVX2 scans compare against directly; above it they
/// look values up in the bit table.
pub(crate) const MAX_LIST: usize = 16;

/// Values the scans can look up: below 2048.
pub(crate) const TABLE_BITS: usize = 2048;

/// One entry of the engine's marking arrays (`seen[v] != 0`: some option has value v): a
/// byte or a 32-bit word, as [`MarkWidth`] chooses.
pub(crate) trait Mark:
    Copy + Eq + std::ops::BitOrAssign + Send + Sync + 'static + sealed::Sealed
{
    /// No option has the value.
    const ZERO: Self;
    /// Some option has the value.
    const ONE: Self;
}

impl Mark for u8 {
    const ZERO: u8 = 0;
    const ONE: u8 = 1;
}

impl Mark for u32 {
    const ZERO: u32 = 0;
    const ONE: u32 = 1;
}

mod sealed {
    /// Only `u8` and `u32` are marks: [`super::MarkArray`] relies on it.
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u32 {}
}

/// The width of the marking arrays' entries. Marking is a store per pair at a data-dependent
/// place. On a Zen 3 (AVX2, 2026-11-28, a loop of stores alone) 32-bit stores ran at about 1.1
/// cycles each against 2.0 for 8- and 16-bit ones (0.007 to 2^18 took ×0.82 the time with
/// words); on a Zen 4 (AVX-512, 2026-12-07) bytes were faster on every path (0.6 to 2^20 ×0.91
/// the time of words, 0.007 to 2^18 ×0.93), their arrays a quarter the size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MarkWidth {
    Byte,
    Word,
}

impl MarkWidth {
    /// Both widths, for tests.
    #[cfg(test)]
    pub(crate) const BOTH: [MarkWidth; 2] = [MarkWidth::Byte, MarkWidth::Word];

    /// The width of marks of type `M`.
    pub(crate) fn of<M: Mark>() -> MarkWidth {
        if size_of::<M>() == 1 {
            MarkWidth::Byte
        } else {
            MarkWidth::Word
        }
    }

    /// Bytes where the CPU has AVX-512 (F and BW), words elsewhere: the two kinds of CPU
    /// measured above.
    pub(crate) fn for_this_cpu() -> MarkWidth {
        if Simd::Avx512.is_available() {
            MarkWidth::Byte
        } else {
            MarkWidth::Word
        }
    }
}

/// Evaluates `$body` with the type `$m` the marks of `$width` (a [`MarkWidth`]): the one
/// place where a width chooses the code that runs.
macro_rules! with_marks {
    ($width:expr, $m:ident => $body:expr) => {
        match $width {
            $crate::heap::scan::MarkWidth::Byte => {
                type $m = u8;
                $body
            }
            $crate::heap::scan::MarkWidth::Word => {
                type $m = u32;
                $body
            }
        }
    };
}
pub(crate) use with_marks;

/// A marking array of `len` entries of one width, zeroed when made; [`MarkArray::get`] reads
/// it as marks of that width (and refuses the other).
pub(crate) struct MarkArray {
    words: Box<[u32]>,
    len: usize,
    width: MarkWidth,
}

impl MarkArray {
    /// `len` zero entries of `width` (bytes take a quarter of the room of words).
    pub(crate) fn new(len: usize, width: MarkWidth) -> MarkArray {
        let words = match width {
            MarkWidth::Byte => len.div_ceil(4),
            MarkWidth::Word => len,
        };
        MarkArray {
            words: vec![0; words].into_boxed_slice(),
            len,
            width,
        }
    }

    /// The width of the entries.
    pub(crate) fn width(&self) -> MarkWidth {
        self.width
    }

    /// The entries as marks of type `M`, the array's width.
    pub(crate) fn get<M: Mark>(&self) -> &[M] {
        assert_eq!(
            MarkWidth::of::<M>(),
            self.width,
            "marks read at their width"
        );
        // SAFETY: `M` is u8 or u32 (sealed): every bit pattern is one and its alignment
        // divides u32's; `M` has the array's width (asserted), for which `new` allocated
        // `len` of them.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr().cast::<M>(), self.len) }
    }

    /// The entries as marks of type `M`, the array's width, to write.
    pub(crate) fn get_mut<M: Mark>(&mut self) -> &mut [M] {
        assert_eq!(
            MarkWidth::of::<M>(),
            self.width,
            "marks written at their width"
        );
        // SAFETY: as in `get`; the slice borrows the words mutably.
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr().cast::<M>(), self.len) }
    }
}

/// A set of values in a window of `16·WORDS` values from `base` (a multiple of 64), as words
/// of 16 bits: the layout the AVX-512 word permutes read as a lookup table. Most tables hold
/// the values below [`TABLE_BITS`] (`WORDS` = 128, base 0); a [`WantTable::window`] may start
/// higher and be two or four times as long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct WantTable<const WORDS: usize = { TABLE_BITS / 16 }> {
    /// Bit `v − base` of the set, 16 a word.
    bits: [u16; WORDS],
    /// The least value the table can hold.
    base: u16,
}

impl WantTable {
    /// Whether the table can hold every value below `cap`.
    pub(crate) const fn fits(cap: usize) -> bool {
        cap <= TABLE_BITS
    }

    /// The values `v < below` with `seen[v] == 0`.
    pub(crate) fn unseen<M: Mark>(seen: &[M], below: usize) -> WantTable {
        let mut table = WantTable::EMPTY;
        for (v, &mark) in seen[..below.min(TABLE_BITS)].iter().enumerate() {
            if mark == M::ZERO {
                table.bits[v >> 4] |= 1 << (v & 15);
            }
        }
        table
    }

    /// The values below 128 whose bits `bits` has.
    pub(crate) fn from_bits(bits: u128) -> WantTable {
        let mut table = WantTable::EMPTY;
        for (i, word) in table.bits.iter_mut().take(8).enumerate() {
            *word = (bits >> (16 * i)) as u16;
        }
        table
    }

    /// Sets values 64·w to 64·w + 63 to the bits of `bits` (w below [`TABLE_BITS`] / 64).
    pub(crate) fn set_word(&mut self, w: usize, bits: u64) {
        for (i, part) in self.bits[4 * w..4 * w + 4].iter_mut().enumerate() {
            *part = (bits >> (16 * i)) as u16;
        }
    }
}

/// The least and the greatest `v < below` with `seen[v] == 0`.
pub(crate) fn unseen_range<M: Mark>(seen: &[M], below: usize) -> Option<(usize, usize)> {
    let seen = &seen[..below.min(seen.len())];
    let least = seen.iter().position(|&mark| mark == M::ZERO)?;
    let most = seen.iter().rposition(|&mark| mark == M::ZERO)?;
    Some((least, most))
}

impl<const WORDS: usize> WantTable<WORDS> {
    /// The empty set of the values below `16·WORDS`.
    pub(crate) const EMPTY: WantTable<WORDS> = WantTable {
        bits: [0; WORDS],
        base: 0,
    };

    /// How many values from its base the table holds.
    pub(crate) const SPAN: usize = 16 * WORDS;

    /// The values `v` in `range` with `seen[v] == 0` and their number, in the window from
    /// the range's start rounded down to a multiple of 64 (which must hold the range). A
    /// window near 65,535 reaches past the values: its bits there stay clear, so the XORs that
    /// wrap around onto them are never wanted.
    pub(crate) fn window<M: Mark>(seen: &[M], (least, most): (usize, usize)) -> (Self, usize) {
        let base = least & !63;
        assert!(most - base < Self::SPAN && most <= usize::from(u16::MAX));
        let mut table = WantTable {
            bits: [0; WORDS],
            base: base as u16,
        };
        let mut count = 0;
        for (v, &mark) in seen[least..=most].iter().enumerate() {
            if mark == M::ZERO {
                let v = v + least - base;
                table.bits[v >> 4] |= 1 << (v & 15);
                count += 1;
            }
        }
        (table, count)
    }

    /// Adds `v` (in the table's window).
    #[cfg(test)]
    pub(crate) fn insert(&mut self, v: u16) {
        let v = usize::from(v.wrapping_sub(self.base));
        if v < Self::SPAN {
            self.bits[v >> 4] |= 1 << (v & 15);
        }
    }

    /// Whether `v` is in the set.
    #[inline(always)]
    pub(crate) fn contains(&self, v: u16) -> bool {
        let v = usize::from(v.wrapping_sub(self.base));
        v < Self::SPAN && self.bits[v >> 4] >> (v & 15) & 1 != 0
    }

    /// Removes `v`.
    #[inline(always)]
    pub(crate) fn remove(&mut self, v: u16) {
        let v = usize::from(v.wrapping_sub(self.base));
        if v < Self::SPAN {
            self.bits[v >> 4] &= !(1 << (v & 15));
        }
    }

    /// The number of values in the set, and when it is at most `out.len()`, the values,
    /// ascending, in `out`.
    fn list(&self, out: &mut [u16]) -> usize {
        let count = self.words().map(|w| w.count_ones() as usize).sum();
        if count <= out.len() {
            for (slot, v) in out.iter_mut().zip(self.values()) {
                *slot = v;
            }
        }
        count
    }

    /// The set's 64-bit words, values 64·w to 64·w + 63 in word w.
    fn words(&self) -> impl Iterator<Item = u64> + Clone + '_ {
        self.bits.chunks_exact(4).map(|pair| {
            u64::from(pair[0])
                | u64::from(pair[1]) << 16
                | u64::from(pair[2]) << 32
                | u64::from(pair[3]) << 48
        })
    }

    /// The values in the set, ascending.
    fn values(&self) -> impl Iterator<Item = u16> + '_ {
        let base = self.base;
        self.words().enumerate().flat_map(move |(w, mut bits)| {
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let v = base + (w * 64) as u16 + bits.trailing_zeros() as u16;
                    bits &= bits - 1;
                    v
                })
            })
        })
    }
}

/// Visits, in order of `a`, the pairs `a` in `first..=last` whose `x = G(a) ⊕ G(s − a)` is in
/// `want`: removes `x` from `want` and calls `hit(x)`, which returns whether to go on.
/// Returns the number of pairs looked at. Every value must be below `cap` (a power of two);
/// `path` must be a concrete path this CPU runs ([`Simd::resolve`]). Where the values may fall
/// outside the table (`cap` above [`TABLE_BITS`], or a [`WantTable::window`]), the scans test
/// that each value is in the table's window (AVX-512 or portable; AVX2 takes the portable path
/// then).
///
/// # Panics
///
/// When `first ≥ 1`, `last ≤ s / 2` and `s ≤ values.len()` do not hold while `first ≤ last`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn scan_pairs<const WORDS: usize>(
    values: &[u16],
    s: usize,
    first: usize,
    last: usize,
    want: &mut WantTable<WORDS>,
    cap: usize,
    path: Simd,
    mut hit: impl FnMut(u16) -> bool,
) -> usize {
    if first > last {
        return 0;
    }
    assert!(first >= 1 && last <= s / 2 && s <= values.len());
    let windowed = want.base != 0 || WORDS != TABLE_BITS / 16 || !WantTable::fits(cap);
    let (next, stopped) = match path {
        #[cfg(target_arch = "x86_64")]
        Simd::Avx512 if crate::simd::Simd::Avx512.is_available() => {
            // SAFETY: the CPU reports AVX-512 F and BW (checked just above, a cached test), and
            // the bounds were asserted above.
            // Values below 512 (or 1024) need one register (or two) of the table: fewer permutes.
            let (next, stopped) = unsafe {
                if windowed {
                    match WORDS / 32 {
                        4 => avx512::scan::<4, true, WORDS>(values, s, first, last, want, &mut hit),
                        8 => avx512::scan::<8, true, WORDS>(values, s, first, last, want, &mut hit),
                        _ => {
                            avx512::scan::<16, true, WORDS>(values, s, first, last, want, &mut hit)
                        }
                    }
                } else if cap <= TABLE_BITS / 4 {
                    avx512::scan::<1, false, WORDS>(values, s, first, last, want, &mut hit)
                } else if cap <= TABLE_BITS / 2 {
                    avx512::scan::<2, false, WORDS>(values, s, first, last, want, &mut hit)
                } else {
                    avx512::scan::<4, false, WORDS>(values, s, first, last, want, &mut hit)
                }
            };
            if stopped {
                (next, true)
            } else {
                generic_scan(values, s, next, last, want, &mut hit, find_in_table)
            }
        }
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 | Simd::Avx512 if !windowed && crate::simd::Simd::Avx2.is_available() => {
            // SAFETY: the CPU reports AVX2 (checked just above, a cached test), the bounds were
            // asserted above, and every value is below cap (the caller's promise), which is at
            // most 128·K where K < 8.
            let (next, stopped) = unsafe {
                if cap <= 256 {
                    avx2::scan_small::<2, WORDS>(values, s, first, last, want, &mut hit)
                } else if cap <= 512 {
                    avx2::scan_small::<4, WORDS>(values, s, first, last, want, &mut hit)
                } else {
                    avx2::scan_small::<8, WORDS>(values, s, first, last, want, &mut hit)
                }
            };
            if stopped {
                (next, true)
            } else {
                generic_scan(values, s, next, last, want, &mut hit, find_in_table)
            }
        }
        _ => generic_scan(values, s, first, last, want, &mut hit, find_in_table),
    };
    let _ = cap;
    if stopped {
        next - first
    } else {
        last + 1 - first
    }
}

/// The portable scan: returns where it stopped and whether `hit` asked to stop (the index is
/// then one past the stopping pair). Bounds as for [`scan_pairs`].
#[inline(always)]
fn generic_scan<const WORDS: usize>(
    values: &[u16],
    s: usize,
    first: usize,
    last: usize,
    want: &mut WantTable<WORDS>,
    hit: &mut impl FnMut(u16) -> bool,
    find_in_table: impl Fn(
        &[u16],
        usize,
        usize,
        usize,
        &WantTable<WORDS>,
    ) -> Result<(usize, u32), usize>,
) -> (usize, bool) {
    let mut a = first;
    // The wanted values while there are few of them, kept in step with `want`.
    let mut list = [0u16; MAX_LIST];
    let mut count = want.list(&mut list);
    loop {
        if count == 0 {
            return (last + 1, false);
        }
        let found = if count <= MAX_LIST {
            // Repeats of a wanted value never change the result.
            for i in count..MAX_LIST {
                list[i] = list[0];
            }
            match count {
                1..=4 => find_in_list::<4>(values, s, a, last, &list),
                5..=8 => find_in_list::<8>(values, s, a, last, &list),
                _ => find_in_list::<MAX_LIST>(values, s, a, last, &list),
            }
        } else {
            find_in_table(values, s, a, last, want)
        };
        // A block with hits (their lanes as bits), or the pairs left over after the blocks.
        let (block, mask, to) = match found {
            Ok((block, mask)) => (block, mask, block + BLOCK - 1),
            Err(tail) => (tail, u32::MAX, last),
        };
        let (stop, removed) = report(values, s, block, to, mask, want, hit);
        if let Some(stop) = stop {
            return (stop, true);
        }
        if to == last {
            return (last + 1, false);
        }
        if count <= MAX_LIST {
            let mut kept = 0;
            for i in 0..count {
                if want.contains(list[i]) {
                    list[kept] = list[i];
                    kept += 1;
                }
            }
            count = kept;
        } else {
            count -= removed;
            if count <= MAX_LIST {
                count = want.list(&mut list);
            }
        }
        a = to + 1;
    }
}

/// The XORs of the block of pairs `a..a + BLOCK`.
#[inline(always)]
fn block_xors(values: &[u16], s: usize, a: usize) -> [u16; BLOCK] {
    let low = &values[a..a + BLOCK];
    let high = &values[s - a - (BLOCK - 1)..=s - a];
    let mut x = [0u16; BLOCK];
    for i in 0..BLOCK {
        x[i] = low[i] ^ high[BLOCK - 1 - i];
    }
    x
}

/// The first block `a, a + BLOCK, …` (whole blocks up to `last`) with an XOR among the first
/// `K` values of `list`: `Ok((start, lanes))` with bit `i` of `lanes` set when pair `start + i`
/// is one, or `Err(first pair after the whole blocks)`.
#[inline(always)]
fn find_in_list<const K: usize>(
    values: &[u16],
    s: usize,
    mut a: usize,
    last: usize,
    list: &[u16; MAX_LIST],
) -> Result<(usize, u32), usize> {
    let wanted: [u16; K] = std::array::from_fn(|j| list[j]);
    while a + BLOCK - 1 <= last {
        let x = block_xors(values, s, a);
        let mut hits = [0u16; BLOCK];
        for w in wanted {
            for i in 0..BLOCK {
                hits[i] |= u16::from(x[i] == w);
            }
        }
        if hits.iter().fold(0, |acc, &h| acc | h) != 0 {
            return Ok((a, lanes(&hits)));
        }
        a += BLOCK;
    }
    Err(a)
}

/// The lanes of a block whose entry is not zero, as bits.
#[inline(always)]
fn lanes(hits: &[u16; BLOCK]) -> u32 {
    let mut mask = 0;
    for (i, &h) in hits.iter().enumerate() {
        mask |= u32::from(h != 0) << i;
    }
    mask
}

/// As [`find_in_list`], looking each XOR up in the table.
#[inline(always)]
fn find_in_table<const WORDS: usize>(
    values: &[u16],
    s: usize,
    mut a: usize,
    last: usize,
    want: &WantTable<WORDS>,
) -> Result<(usize, u32), usize> {
    let base = want.base;
    while a + BLOCK - 1 <= last {
        let x = block_xors(values, s, a);
        let mut hits = [0u16; BLOCK];
        for i in 0..BLOCK {
            // The mask keeps the index in the table without a bounds check; values outside
            // the window are not wanted.
            let v = x[i].wrapping_sub(base);
            let bit = usize::from(v) % WantTable::<WORDS>::SPAN;
            hits[i] = (want.bits[bit >> 4] >> (bit & 15) & 1)
                & u16::from(usize::from(v) < WantTable::<WORDS>::SPAN);
        }
        if hits.iter().fold(0, |acc, &h| acc | h) != 0 {
            return Ok((a, lanes(&hits)));
        }
        a += BLOCK;
    }
    Err(a)
}

/// Reports, in order, the pairs `from + i` (up to `to`, with bit `i` of `lanes` set) whose XOR
/// is wanted, removing it from `want`; returns one past the pair where `hit` asked to stop, and
/// how many values were removed. A lane's value may have been found by an earlier lane, so each
/// is looked up again.
#[inline(always)]
fn report<const WORDS: usize>(
    values: &[u16],
    s: usize,
    from: usize,
    to: usize,
    mut lanes: u32,
    want: &mut WantTable<WORDS>,
    hit: &mut impl FnMut(u16) -> bool,
) -> (Option<usize>, usize) {
    let mut removed = 0;
    while lanes != 0 {
        let a = from + lanes.trailing_zeros() as usize;
        lanes &= lanes - 1;
        if a > to {
            break;
        }
        let x = values[a] ^ values[s - a];
        if want.contains(x) {
            want.remove(x);
            removed += 1;
            if !hit(x) {
                return (Some(a + 1), removed);
            }
        }
    }
    (None, removed)
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::WantTable;
    use std::arch::x86_64::*;

    /// The block part of [`super::scan_pairs`] (K = 2, 4 or 8): 64 pairs per step; each
    /// XOR's low byte is looked up in K 16-byte `vpshufb` tables held in registers, the one of
    /// its bits 7–9. Returns where it stopped and whether `hit` asked to stop (the returned
    /// index is then one past the stopping pair).
    ///
    /// With K = 8 the tables hold `want` folded modulo 1024 (see
    /// [`super::avx2_bytes::tables`]): a lane may be flagged for a value that only shares its
    /// low ten bits with a wanted one. Every flagged lane is looked up in `want` itself, so
    /// such a lane costs time, never a wrong answer. Values from 1024 up are rare in the codes
    /// that reach them (0.007 reaches 1064 near 2^18), so K = 8 serves values below 2048 too.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2; `1 ≤ first`, `last ≤ s / 2`, `s ≤ values.len()`, and every
    /// value must be below [`super::TABLE_BITS`], and below 128·K when K < 8.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn scan_small<const K: usize, const WORDS: usize>(
        values: &[u16],
        s: usize,
        first: usize,
        last: usize,
        want: &mut WantTable<WORDS>,
        hit: &mut impl FnMut(u16) -> bool,
    ) -> (usize, bool) {
        const { assert!(K == 2 || K == 4 || K == 8) };
        assert!(first >= 1 && last <= s / 2 && s <= values.len());
        // SAFETY: this function runs only where the CPU supports AVX2 (its own contract).
        // `count`: how many values the tables hold (a pair can find).
        let (mut tables, mut count) = unsafe { super::avx2_bytes::tables::<K, WORDS>(want) };
        let iota = _mm256_setr_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
            11, 12, 13, 14, 15,
        );
        let bits = _mm256_setr_epi8(
            1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64,
            -128, 1, 2, 4, 8, 16, 32, 64, -128,
        );
        let nibble = _mm256_set1_epi8(15);
        let low_byte = _mm256_set1_epi16(255);
        // The hit lanes of the 32 pairs from `a`.
        macro_rules! block {
            ($a:expr) => {{
                let a: usize = $a;
                // SAFETY: AVX2 is this function's contract; a + 31 ≤ last (the loops below
                // keep it), and the rest was asserted above.
                let (x0, x1) = unsafe { xors(values, s, a) };
                // The 32 low bytes in order (the pack interleaves the halves of x0 and x1).
                let x = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(
                    _mm256_and_si256(x0, low_byte),
                    _mm256_and_si256(x1, low_byte),
                ));
                let lo = _mm256_and_si256(x, nibble);
                let bit =
                    _mm256_shuffle_epi8(bits, _mm256_and_si256(_mm256_srli_epi16::<4>(x), nibble));
                // The table of bits 7–9: bit 7 is the top bit of x, which blendv reads.
                let row = match K {
                    2 => _mm256_blendv_epi8(
                        _mm256_shuffle_epi8(tables[0], lo),
                        _mm256_shuffle_epi8(tables[1], lo),
                        x,
                    ),
                    _ => {
                        // Bits 8 and 9 as bytes, moved to each byte's top bit for blendv.
                        let high = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(
                            _mm256_srli_epi16::<8>(x0),
                            _mm256_srli_epi16::<8>(x1),
                        ));
                        // Tables t and t + 1 by bit 7, then pairs of those by bits 8 and 9
                        // (indices taken mod K: a K = 4 build never reads the others).
                        macro_rules! pick {
                            ($t:expr) => {
                                _mm256_blendv_epi8(
                                    _mm256_shuffle_epi8(tables[$t % K], lo),
                                    _mm256_shuffle_epi8(tables[($t + 1) % K], lo),
                                    x,
                                )
                            };
                        }
                        macro_rules! four {
                            ($t:expr) => {
                                _mm256_blendv_epi8(
                                    pick!($t),
                                    pick!($t + 2),
                                    _mm256_slli_epi16::<7>(high),
                                )
                            };
                        }
                        if K == 4 {
                            four!(0)
                        } else {
                            _mm256_blendv_epi8(four!(0), four!(4), _mm256_slli_epi16::<6>(high))
                        }
                    }
                };
                let found = _mm256_and_si256(row, bit);
                !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(found, _mm256_setzero_si256())) as u32)
            }};
        }
        macro_rules! hits {
            ($a:expr, $mask:expr) => {{
                let a: usize = $a;
                let mut mask: u32 = $mask;
                while mask != 0 {
                    let lane = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    let value = values[a + lane] ^ values[s - a - lane];
                    // An earlier lane (or block) may have found the same value.
                    if !want.contains(value) {
                        continue;
                    }
                    want.remove(value);
                    count -= 1;
                    // Clear bit (value >> 4) & 7 of byte value & 15 of table value >> 7, in the
                    // register, unless a wanted value folds onto the same bit.
                    if !super::avx2_bytes::folds_onto_wanted::<K, WORDS>(want, value) {
                        let row = _mm256_cmpeq_epi8(iota, _mm256_set1_epi8((value & 15) as i8));
                        let clear = _mm256_and_si256(
                            row,
                            _mm256_set1_epi8((1u8 << ((value >> 4) & 7)) as i8),
                        );
                        let t = &mut tables[usize::from(value >> 7) % K];
                        *t = _mm256_andnot_si256(clear, *t);
                    }
                    if !hit(value) {
                        return (a + lane + 1, true);
                    }
                }
            }};
        }
        let mut a = first;
        // With eight tables, the last few values are faster compared directly (measured on
        // 0.007); with fewer, the tables stay faster (0.6, 0.106, 0.16).
        let listed_below = if K == 8 { LIST + 1 } else { 0 };
        // Two blocks per test: hits are rare once the first values are found.
        while count >= listed_below && a + 63 <= last {
            let (m0, m1) = (block!(a), block!(a + 32));
            if m0 | m1 != 0 {
                hits!(a, m0);
                hits!(a + 32, m1);
            }
            a += 64;
        }
        while count >= listed_below && a + 31 <= last {
            let m = block!(a);
            if m != 0 {
                hits!(a, m);
            }
            a += 32;
        }
        // The last few wanted values (most of a long scan): compared directly.
        while (1..listed_below).contains(&count) && a + 31 <= last {
            // The wanted values (with eight tables, the tables hold all of `want`), the first
            // repeated to fill the list.
            let mut list = [0u16; LIST];
            for (slot, v) in list.iter_mut().zip(want.values()) {
                *slot = v;
            }
            let listed = count;
            for i in listed..LIST {
                list[i] = list[0];
            }
            // SAFETY: the CPU supports AVX2 (this function's contract) and the bounds hold
            // (asserted above).
            let found = unsafe {
                if listed <= LIST / 2 {
                    find_in_list::<{ LIST / 2 }>(values, s, a, last, &list)
                } else {
                    find_in_list::<LIST>(values, s, a, last, &list)
                }
            };
            match found {
                Ok((block, mask)) => {
                    hits!(block, mask);
                    a = block + 32;
                }
                Err(end) => a = end,
            }
        }
        (a, false)
    }

    /// The XORs `G(a + i) ⊕ G(s − a − i)` of the 32 pairs from `a`: pairs 0–15 in the first
    /// register, 16–31 in the second, in order.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2; `1 ≤ a`, `a + 31 ≤ s / 2` and `s ≤ values.len()`, so that
    /// `a + 31 < s` and `s − a − 31 ≥ 0` keep every load inside `values`.
    #[inline(always)]
    unsafe fn xors(values: &[u16], s: usize, a: usize) -> (__m256i, __m256i) {
        // Reverses the eight words of each 128-bit half.
        let reverse = _mm256_setr_epi8(
            14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6,
            7, 4, 5, 2, 3, 0, 1,
        );
        // SAFETY: the bounds of this function's contract.
        let (low0, low1, high0, high1) = unsafe {
            let p = values.as_ptr();
            (
                _mm256_loadu_si256(p.add(a).cast()),
                _mm256_loadu_si256(p.add(a + 16).cast()),
                _mm256_loadu_si256(p.add(s - a - 15).cast()),
                _mm256_loadu_si256(p.add(s - a - 31).cast()),
            )
        };
        let backwards0 =
            _mm256_permute4x64_epi64::<0b01_00_11_10>(_mm256_shuffle_epi8(high0, reverse));
        let backwards1 =
            _mm256_permute4x64_epi64::<0b01_00_11_10>(_mm256_shuffle_epi8(high1, reverse));
        (
            _mm256_xor_si256(low0, backwards0),
            _mm256_xor_si256(low1, backwards1),
        )
    }

    /// At most this many wanted values are compared with each XOR directly rather than
    /// looked up in the tables of [`scan_small`].
    const LIST: usize = 8;

    /// The first block of 32 pairs from `a` (ending at `last` or before) with an XOR among
    /// the first `L` entries of `list`, as its start and its hit lanes; or where the blocks
    /// ended.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2; `1 ≤ a`, `last ≤ s / 2`, `s ≤ values.len()`.
    #[inline(always)]
    unsafe fn find_in_list<const L: usize>(
        values: &[u16],
        s: usize,
        mut a: usize,
        last: usize,
        list: &[u16; LIST],
    ) -> Result<(usize, u32), usize> {
        let wanted: [__m256i; L] = std::array::from_fn(|j| _mm256_set1_epi16(list[j] as i16));
        while a + 31 <= last {
            // SAFETY: AVX2 and the bounds are this function's contract, and a + 31 ≤ last.
            let (x0, x1) = unsafe { xors(values, s, a) };
            let (mut e0, mut e1) = (_mm256_setzero_si256(), _mm256_setzero_si256());
            for w in wanted {
                e0 = _mm256_or_si256(e0, _mm256_cmpeq_epi16(x0, w));
                e1 = _mm256_or_si256(e1, _mm256_cmpeq_epi16(x1, w));
            }
            // The 32 lanes' flags as bytes in order (the pack interleaves the halves).
            let flags = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packs_epi16(e0, e1));
            let mask = _mm256_movemask_epi8(flags) as u32;
            if mask != 0 {
                return Ok((a, mask));
            }
            a += 32;
        }
        Err(a)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2_bytes {
    use super::WantTable;
    use std::arch::x86_64::*;

    /// The wanted values below 128·K as K byte tables for `vpshufb`: byte `lo` of table `t`
    /// has bit `b` set when `128·t + 16·b + lo` is wanted; each table repeated in both 128-bit
    /// halves. With K = 8, the values from 1024 up are folded onto those 1024 below
    /// (see [`folds_onto_wanted`]).
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn tables<const K: usize, const WORDS: usize>(
        want: &WantTable<WORDS>,
    ) -> ([__m256i; K], usize) {
        let mut bytes = [[0u8; 16]; K];
        let mut count = 0;
        debug_assert_eq!(want.base, 0, "the byte tables hold values from 0");
        for (w, &word) in want.bits[..words::<K>()].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let lo = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                bytes[(w >> 3) % K][lo] |= 1 << (w & 7);
                count += 1;
            }
        }
        // SAFETY: each table is 16 bytes, read unaligned.
        let tables = bytes
            .map(|b| unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(b.as_ptr().cast())) });
        (tables, count)
    }

    /// How many words of `want` the K tables hold: all with K = 8 (folded), the values below
    /// 128·K with fewer.
    const fn words<const K: usize>() -> usize {
        if K == 8 {
            super::TABLE_BITS / 16
        } else {
            8 * K
        }
    }

    /// Whether a value still in `want` shares `value`'s bit of the [`tables`]: with K = 8,
    /// the value 1024 above or below it (the only other value below [`super::TABLE_BITS`] that
    /// folds onto the same bit); with fewer tables, none.
    #[inline(always)]
    pub(super) fn folds_onto_wanted<const K: usize, const WORDS: usize>(
        want: &WantTable<WORDS>,
        value: u16,
    ) -> bool {
        K == 8 && want.contains(value ^ 1024)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::WantTable;
    use std::arch::x86_64::*;

    /// The block part of [`super::scan_pairs`]: 32 pairs per step, each value looked up in
    /// the table with two-table word permutes (one per pair of registers, then blends). The
    /// table lives in registers, kept equal to `want`. Returns where it stopped and whether
    /// `hit` asked to stop (the returned index is then one past the stopping pair).
    ///
    /// `REGISTERS` (1, 2, 4, 8 or 16, at most `WORDS / 32`) is how many registers of the table
    /// the lookups read: with 1, every XOR must be below 512, with 2 below 1024. With
    /// `WINDOW`, the XORs are taken relative to the table's base and those outside its window
    /// are not looked at (any values); without, every XOR must be below 512·REGISTERS and the
    /// base 0.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512 F and BW; `1 ≤ first`, `last ≤ s / 2`, `s ≤ values.len()`.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn scan<const REGISTERS: usize, const WINDOW: bool, const WORDS: usize>(
        values: &[u16],
        s: usize,
        first: usize,
        last: usize,
        want: &mut WantTable<WORDS>,
        hit: &mut impl FnMut(u16) -> bool,
    ) -> (usize, bool) {
        assert!(first >= 1 && last <= s / 2 && s <= values.len());
        let reverse = _mm512_set_epi16(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
            24, 25, 26, 27, 28, 29, 30, 31,
        );
        let fifteen = _mm512_set1_epi16(15);
        let one = _mm512_set1_epi16(1);
        const { assert!(matches!(REGISTERS, 1 | 2 | 4 | 8 | 16)) };
        let base = want.base;
        let window_start = _mm512_set1_epi16(base as i16);
        let window_size = _mm512_set1_epi16(WantTable::<WORDS>::SPAN as i16);
        // (The dispatch instantiates every REGISTERS for every WORDS; the others never run.)
        debug_assert!(32 * REGISTERS <= WORDS);
        debug_assert!(WINDOW || (base == 0 && REGISTERS <= 4));
        // The table's first REGISTERS · 32 words.
        let mut tables = [_mm512_setzero_si512(); 16];
        for (r, table) in tables
            .iter_mut()
            .enumerate()
            .take(REGISTERS.min(WORDS / 32))
        {
            // SAFETY: the table's words are aligned to 64 bytes, and 32·(r + 1) ≤ WORDS.
            *table = unsafe { _mm512_load_si512(want.bits.as_ptr().add(32 * r).cast()) };
        }
        // The hit mask of the 32 pairs from `a`.
        macro_rules! block {
            ($a:expr) => {{
                let a: usize = $a;
                // SAFETY: a + 31 ≤ last < s ≤ values.len(), and s − a − 31 ≥ s − last ≥ 0
                // with s − a ≤ s − 1 < values.len() as a ≥ first ≥ 1.
                let (low, high) = unsafe {
                    (
                        _mm512_loadu_si512(values.as_ptr().add(a).cast()),
                        _mm512_loadu_si512(values.as_ptr().add(s - a - 31).cast()),
                    )
                };
                let x = _mm512_xor_si512(low, _mm512_permutexvar_epi16(reverse, high));
                let x = if WINDOW {
                    _mm512_sub_epi16(x, window_start)
                } else {
                    x
                };
                // Word x >> 4 of the table: the permutes read bits 4–9 from a pair of
                // registers, bits 10, 11 and 12 pick the pair.
                let index = _mm512_srli_epi16::<4>(x);
                let words = match REGISTERS {
                    1 => _mm512_permutexvar_epi16(index, tables[0]),
                    _ => {
                        let mut pairs = [_mm512_setzero_si512(); 8];
                        for (p, words) in pairs.iter_mut().enumerate().take(REGISTERS / 2) {
                            *words =
                                _mm512_permutex2var_epi16(tables[2 * p], index, tables[2 * p + 1]);
                        }
                        let (mut count, mut bit) = (REGISTERS / 2, 10);
                        while count > 1 {
                            let high = _mm512_test_epi16_mask(x, _mm512_set1_epi16(1 << bit));
                            for p in 0..count / 2 {
                                pairs[p] =
                                    _mm512_mask_blend_epi16(high, pairs[2 * p], pairs[2 * p + 1]);
                            }
                            count /= 2;
                            bit += 1;
                        }
                        pairs[0]
                    }
                };
                let bits = _mm512_srlv_epi16(words, _mm512_and_si512(x, fifteen));
                if WINDOW {
                    let inside = _mm512_cmplt_epu16_mask(x, window_size);
                    _mm512_mask_test_epi16_mask(inside, bits, one)
                } else {
                    _mm512_test_epi16_mask(bits, one)
                }
            }};
        }
        // Reports the hits of a block, in order; returns from `scan` when `hit` says stop.
        macro_rules! hits {
            ($a:expr, $mask:expr) => {{
                let a: usize = $a;
                let mut mask: u32 = $mask;
                while mask != 0 {
                    let lane = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    // Recomputed from the values (in L1): reading a lane back from a vector
                    // stored to the stack would stall on store forwarding.
                    let value = values[a + lane] ^ values[s - a - lane];
                    // An earlier lane (or block) may have found the same value.
                    if !want.contains(value) {
                        continue;
                    }
                    want.remove(value);
                    // Clear the bit in the registers too: reloading them right after the
                    // scalar store would stall on store forwarding.
                    let word = usize::from(value.wrapping_sub(base) >> 4);
                    let bit = _mm512_set1_epi16(!(1u16 << (value & 15)) as i16);
                    let ones = _mm512_set1_epi16(-1);
                    let keep = _mm512_mask_mov_epi16(ones, 1 << (word & 31), bit);
                    for (r, table) in tables.iter_mut().enumerate().take(REGISTERS) {
                        if r == word >> 5 {
                            *table = _mm512_and_si512(*table, keep);
                        }
                    }
                    if !hit(value) {
                        return (a + lane + 1, true);
                    }
                }
            }};
        }
        let mut a = first;
        // Two blocks per test of the masks: hits are rare, so one branch serves 64 pairs.
        while a + 63 <= last {
            let (first_mask, second_mask) = (block!(a), block!(a + 32));
            if first_mask | second_mask != 0 {
                hits!(a, first_mask);
                hits!(a + 32, second_mask);
            }
            a += 64;
        }
        while a + 31 <= last {
            let mask = block!(a);
            if mask != 0 {
                hits!(a, mask);
            }
            a += 32;
        }
        (a, false)
    }
}
