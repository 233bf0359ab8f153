//! The sparse mode for small values and a short rare list: below [`SMALL_CAP`] the options
//! seen are the bits of one word (`u64`, or two from 64 on, [`Wide`]), so a heap costs its
//! rare pairs and its scanned pairs and nearly nothing else: no marking array to clear, fold
//! or search. The rare marks of a sum s are kept for the splits that read s at the next heaps
//! ([`SmallMarks`]). A scan that runs long goes on with the marking arrays' table of wanted
//! values ([`scan_pairs`]), and a long list keeps the batch (measured on 0.14, 1,895 heaps
//! listed: twice the time when marked here).

use super::{Engine, Mode, Stats, Worker};
use crate::heap::scan::{scan_pairs, Mark, WantTable};
use crate::simd::Simd;
use std::ops::{BitAnd, BitOr, BitOrAssign, Not, Range};

/// Values below this take [`Engine::small_value`].
pub(super) const SMALL_CAP: usize = 128;

/// Pairs a scan looks at on words before it goes on with a table of the values wanted
/// ([`scan_pairs`]).
pub(super) const WORD_SCAN: usize = 256;

/// The longest rare list that [`Engine::small_value`] marks itself; longer ones come from the
/// batch, whose pass over the list marks sixteen heaps.
pub(super) const SMALL_LIST: usize = 128;

/// A set of values below its width, as bits.
pub(super) trait Word:
    Copy + Eq + BitOr<Output = Self> + BitOrAssign + BitAnd<Output = Self> + Not<Output = Self>
{
    const ZERO: Self;
    /// The set {v} (v below the width).
    fn bit(v: u16) -> Self;
    /// [`Word::bit`] for scalar code, where a table may beat the computed shift.
    #[inline(always)]
    fn scalar_bit(v: u16) -> Self {
        Self::bit(v)
    }
    /// The values below `c` (all when `c` reaches the width).
    fn below(c: usize) -> Self;
    /// The least value in the set (the width when empty).
    fn least(self) -> usize;
    fn len(self) -> u32;
    /// The values of mask parity 1, from [`Engine::class_words`].
    fn class(words: &[u64]) -> Self;
    fn widen(self) -> u128;
    fn narrow(bits: u128) -> Self;
}

impl Word for u64 {
    const ZERO: u64 = 0;
    #[inline(always)]
    fn bit(v: u16) -> u64 {
        debug_assert!(v < 64);
        1 << (v & 63)
    }
    fn below(c: usize) -> u64 {
        if c >= 64 {
            u64::MAX
        } else {
            (1 << c) - 1
        }
    }
    fn least(self) -> usize {
        self.trailing_zeros() as usize
    }
    fn len(self) -> u32 {
        self.count_ones()
    }
    fn class(words: &[u64]) -> u64 {
        words[0]
    }
    fn widen(self) -> u128 {
        u128::from(self)
    }
    fn narrow(bits: u128) -> u64 {
        bits as u64
    }
}

/// A set of values below 128 as two words, low values first: each value's bit is a shift
/// that yields 0 out of range, which AVX2 does per lane (`vpsllvq`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Wide(u64, u64);

impl BitOr for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitor(self, other: Wide) -> Wide {
        Wide(self.0 | other.0, self.1 | other.1)
    }
}

impl BitOrAssign for Wide {
    #[inline(always)]
    fn bitor_assign(&mut self, other: Wide) {
        *self = *self | other;
    }
}

impl BitAnd for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitand(self, other: Wide) -> Wide {
        Wide(self.0 & other.0, self.1 & other.1)
    }
}

impl Not for Wide {
    type Output = Wide;
    #[inline(always)]
    fn not(self) -> Wide {
        Wide(!self.0, !self.1)
    }
}

impl Word for Wide {
    const ZERO: Wide = Wide(0, 0);
    #[inline(always)]
    fn bit(v: u16) -> Wide {
        debug_assert!(v < 128);
        let v = u32::from(v);
        Wide(
            1u64.checked_shl(v).unwrap_or(0),
            1u64.checked_shl(v.wrapping_sub(64)).unwrap_or(0),
        )
    }
    #[inline(always)]
    fn scalar_bit(v: u16) -> Wide {
        WIDE_BITS[usize::from(v & 127)]
    }
    fn below(c: usize) -> Wide {
        Wide::narrow(if c >= 128 { u128::MAX } else { (1 << c) - 1 })
    }
    fn least(self) -> usize {
        self.widen().trailing_zeros() as usize
    }
    fn len(self) -> u32 {
        self.0.count_ones() + self.1.count_ones()
    }
    fn class(words: &[u64]) -> Wide {
        Wide(words[0], words[1])
    }
    fn widen(self) -> u128 {
        u128::from(self.0) | u128::from(self.1) << 64
    }
    fn narrow(bits: u128) -> Wide {
        Wide(bits as u64, (bits >> 64) as u64)
    }
}

/// [`Wide::bit`] of every value below 128.
static WIDE_BITS: [Wide; 128] = {
    let mut bits = [Wide(0, 0); 128];
    let mut v = 0;
    while v < 64 {
        bits[v] = Wide(1 << v, 0);
        bits[v + 64] = Wide(0, 1 << v);
        v += 1;
    }
    bits
};

/// The marks `v ⊕ G(s − r)` of every rare-list entry `r < s` as one word, for the last
/// [`SmallMarks::SLOTS`] sums s: heap n reads those of n − t for every split t, so the word
/// computed for the smallest t serves the other splits at the next heaps. The entries below s
/// do not change once s is known, until the list is rebuilt for a new mode.
#[derive(Clone, Debug)]
pub(super) struct SmallMarks {
    /// Per slot s mod SLOTS: s, the list's rebuild count and the marks.
    slots: [(usize, u64, u128); SmallMarks::SLOTS],
}

impl SmallMarks {
    const SLOTS: usize = 64;

    pub(super) fn new() -> SmallMarks {
        SmallMarks {
            slots: [(usize::MAX, 0, 0); SmallMarks::SLOTS],
        }
    }

    /// The marks of sum `s` for list version `version`, computed by `marks` unless kept.
    fn get<W: Word>(&mut self, s: usize, version: u64, marks: impl FnOnce() -> W) -> W {
        let slot = &mut self.slots[s % Self::SLOTS];
        if slot.0 != s || slot.1 != version {
            *slot = (s, version, marks().widen());
        }
        W::narrow(slot.2)
    }
}

impl Engine {
    /// G(n) in the sparse mode when every value is below the width of `W` (see the module).
    pub(super) fn small_value<W: Word, M: Mark>(
        &self,
        w: &mut Worker,
        n: usize,
        heap_parity: bool,
        split_allowed: bool,
    ) -> usize {
        debug_assert!(matches!(self.mode, Mode::Sparse { .. }) && self.cap <= self.small_cap);
        let mut seen = W::ZERO;
        if self.take_all.contains(&n) {
            seen |= W::bit(0);
        }
        for &t in &self.take_one {
            if t < n {
                seen |= W::bit(self.value_at(n - t));
            }
        }
        let batched = self.batched(split_allowed) && self.batch_covers(n);
        for (i, &t) in self.splits.iter().enumerate() {
            if n < t + 2 {
                continue;
            }
            let s = n - t;
            seen |= if batched {
                self.small_rare_marks(&mut w.stats, s, self.batch.covered[i].clone())
            } else {
                let stats = &mut w.stats;
                w.small_marks.get(s, self.stats.rebuilds, || {
                    self.small_rare_marks(stats, s, 0..0)
                })
            };
        }
        if batched {
            let marks = &self.batch.lane::<M>(n.wrapping_sub(self.batch.start))[..self.cap];
            for (v, &m) in marks.iter().enumerate() {
                if m != M::ZERO {
                    seen |= W::bit(v as u16);
                }
            }
        }
        // Every option of the known class is marked: c, the least unmarked value of that
        // class, bounds the mex; the values below c still unmarked are searched among the
        // pairs of common heaps.
        let known = if heap_parity && self.splits.first().is_some_and(|&t| n >= t + 2) {
            1 ^ ((n - self.splits[0]) & 1)
        } else {
            1
        };
        let class = W::class(&self.class_words);
        let c = (!seen & if known == 1 { class } else { !class }).least();
        let want = !seen & W::below(c);
        w.stats.missing_values += u64::from(want.len());
        if want == W::ZERO {
            return c;
        }
        let order = w.scan_order.choose();
        for &t in &self.splits {
            if n < t + 2 {
                continue;
            }
            let s = n - t;
            let last = if self.unequal { (s - 1) / 2 } else { s / 2 };
            let start = order.start(last);
            let mut scanned = 0;
            for (from, to) in [(start, last), (1, start - 1)] {
                if seen & want == want {
                    break;
                }
                self.pairs(&mut w.scratch, s, (from, to), |v, s, a, b| {
                    // The first pairs on words; a long scan goes on against a table of the
                    // values still wanted, where a block of pairs costs less.
                    let budget = self.word_scan.saturating_sub(scanned);
                    let (found, looked) = if budget > 0 {
                        let pairs = Pairs {
                            values: v,
                            s,
                            range: (a, b.min(a + budget - 1)),
                        };
                        scan(self.simd, pairs, seen, want)
                    } else {
                        (seen, 0)
                    };
                    seen = found;
                    scanned += looked;
                    if seen & want == want || a + looked > b {
                        return seen & want != want;
                    }
                    let mut table = WantTable::from_bits((want & !seen).widen());
                    scanned +=
                        scan_pairs(v, s, a + looked, b, &mut table, self.cap, self.simd, |x| {
                            seen |= W::bit(x);
                            seen & want != want
                        });
                    seen & want != want
                });
            }
            w.scan_order.record(order, scanned);
            w.stats.scanned_pairs += scanned as u64;
            if seen & want == want {
                return c;
            }
        }
        (!seen).least().min(c)
    }

    /// The marks `v ⊕ G(s − r)` of the rare-list entries `1 ≤ r < s` as bits, but for the
    /// entries `covered` (marked by the batch).
    fn small_rare_marks<W: Word>(&self, stats: &mut Stats, s: usize, covered: Range<usize>) -> W {
        // Most often the whole list is below s and has its partners in the tail.
        let (offset, tail) = self.values.tail();
        let within = |bound: usize| match self.rare.last() {
            Some(&r) if (r as usize) <= bound => self.rare.len(),
            _ => self.rare.partition_point(|&r| r as usize <= bound),
        };
        let end = within(s - 1);
        let reach = within(s.saturating_sub(offset));
        stats.rare_pairs += end as u64;
        let mut seen = W::ZERO;
        for range in [0..covered.start.min(end), covered.end.min(end)..end] {
            // Partners in the whole tail first, then the packed ones. Heap s − r is
            // partners[base − r], 1 ≤ r ≤ base. Grundy's game leaves out the pair (s/2, s/2).
            let near = range.start.min(reach)..range.end.min(reach);
            let (rare, values) = (&self.rare[near.clone()], &self.rare_values[near]);
            let partners = &tail[..s.saturating_sub(offset)];
            let half = if self.unequal && s.is_multiple_of(2) {
                rare.binary_search(&((s / 2) as u32)).ok()
            } else {
                None
            };
            seen |= match half {
                Some(h) => {
                    marks::<W>(&rare[..h], &values[..h], partners)
                        | marks::<W>(&rare[h + 1..], &values[h + 1..], partners)
                }
                None => marks::<W>(rare, values, partners),
            };
            for j in range.start.max(reach)..range.end {
                let r = self.rare[j] as usize;
                if !(self.unequal && 2 * r == s) {
                    seen |= W::bit(self.rare_values[j] ^ self.values.get(s - r));
                }
            }
        }
        seen
    }
}

/// The bits of `v ⊕ G(s − r)` for the list entries `r` with values `v`, where heap `s − r` is
/// `partners[partners.len() − r]` (1 ≤ r ≤ `partners.len()`). Four words, so that no one
/// chain of ORs sets the pace.
fn marks<W: Word>(rare: &[u32], values: &[u16], partners: &[u16]) -> W {
    let base = partners.len();
    let mark = |r: u32, v: u16| W::scalar_bit(v ^ partners[base - r as usize]);
    let mut acc = [W::ZERO; 4];
    let (quads, rest) = rare.as_chunks::<4>();
    for (r, v) in quads.iter().zip(values.as_chunks::<4>().0) {
        for k in 0..4 {
            acc[k] |= mark(r[k], v[k]);
        }
    }
    for (&r, &v) in rest.iter().zip(&values[4 * quads.len()..]) {
        acc[0] |= mark(r, v);
    }
    acc[0] | acc[1] | acc[2] | acc[3]
}

/// The pairs `(a, s − a)` for `a` in `range` (inclusive), with `G(x) = values[x]`.
#[derive(Clone, Copy)]
struct Pairs<'a> {
    values: &'a [u16],
    s: usize,
    range: (usize, usize),
}

/// ORs the bit of `G(a) ⊕ G(s − a)` of each pair into `seen`, eight pairs at a time, until
/// every bit of `want` is set: the bits and the pairs looked at. One formulation, compiled for
/// AVX2 too (a shift per lane) where `path` is not the portable one.
fn scan<W: Word>(path: Simd, pairs: Pairs<'_>, seen: W, want: W) -> (W, usize) {
    #[cfg(target_arch = "x86_64")]
    if path != Simd::Portable && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: this CPU has AVX2 (detected just above).
        return unsafe { scan_avx2(pairs, seen, want) };
    }
    let _ = path;
    scan_body(pairs, seen, want)
}

/// [`scan`] compiled with AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn scan_avx2<W: Word>(pairs: Pairs<'_>, seen: W, want: W) -> (W, usize) {
    scan_body(pairs, seen, want)
}

#[inline(always)]
fn scan_body<W: Word>(pairs: Pairs<'_>, mut seen: W, want: W) -> (W, usize) {
    let Pairs {
        values: v,
        s,
        range: (first, last),
    } = pairs;
    let low = &v[first..=last];
    let high = &v[s - last..=s - first];
    let mut done = 0;
    for (lo, hi) in low.chunks(8).zip(high.rchunks(8)) {
        if let (Ok(lo), Ok(hi)) = (<&[u16; 8]>::try_from(lo), <&[u16; 8]>::try_from(hi)) {
            let mut eight = W::ZERO;
            for k in 0..8 {
                eight |= W::bit(lo[k] ^ hi[7 - k]);
            }
            seen |= eight;
        } else {
            for (&x, &y) in lo.iter().zip(hi.iter().rev()) {
                seen |= W::bit(x ^ y);
            }
        }
        done += lo.len();
        if seen & want == want {
            break;
        }
    }
    (seen, done)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both words against `u128` arithmetic, on every value, both scans on every path against
    /// a plain loop.
    #[test]
    fn words_are_sets_of_values() {
        for v in 0..128u16 {
            let one = 1u128 << v;
            assert_eq!(Wide::bit(v).widen(), one);
            assert_eq!(Wide::scalar_bit(v).widen(), one);
            assert_eq!(Wide::below(usize::from(v)).widen(), one - 1);
            assert_eq!((Wide::bit(v) | Wide::bit(3)).least(), usize::from(v.min(3)));
            if v < 64 {
                assert_eq!(u64::bit(v).widen(), one);
                assert_eq!(u64::below(usize::from(v)), (one - 1) as u64);
            }
        }
        assert_eq!(Wide::below(128).len(), 128);
        assert_eq!(u64::below(64).len(), 64);
        assert_eq!(Wide::ZERO.least(), 128);
        assert_eq!(u64::ZERO.least(), 64);
        assert_eq!(Wide::class(&[5, 9]).widen(), 5 | 9 << 64);
    }

    /// A scan's marks are those of the pairs it looked at, which are all of them or end at the
    /// first block of eight that completes `want`.
    #[test]
    fn scans_find_what_a_plain_loop_finds() {
        let values: Vec<u16> = (0..500u32)
            .map(|x| ((x * 37 + x / 7) % 128) as u16)
            .collect();
        let s = values.len() - 1;
        let plain = |v: &[u16], first: usize, count: usize| {
            (first..first + count).fold(0u128, |m, a| m | 1 << (v[a] ^ v[s - a]))
        };
        for path in Simd::available() {
            for (first, last) in [(1, 1), (1, 7), (3, 200), (1, s / 2)] {
                let len = last + 1 - first;
                for want in [1u128 << 100 | 1, u128::MAX, 0, plain(&values, first, len)] {
                    let pairs = Pairs {
                        values: &values,
                        s,
                        range: (first, last),
                    };
                    let (seen, done) = scan(path, pairs, Wide::ZERO, Wide::narrow(want));
                    assert_eq!(
                        seen.widen(),
                        plain(&values, first, done),
                        "{path} {first}..={last}"
                    );
                    let complete = |count: usize| plain(&values, first, count) & want == want;
                    let expected = (8..len).step_by(8).find(|&k| complete(k)).unwrap_or(len);
                    assert_eq!(done, expected, "{path} {first}..={last} {want:x}");
                    let low: Vec<u16> = values.iter().map(|&v| v & 63).collect();
                    let pairs = Pairs {
                        values: &low,
                        s,
                        range: (first, last),
                    };
                    let (seen, done) = scan(path, pairs, 0u64, 0);
                    assert_eq!(u128::from(seen), plain(&low, first, done), "{path}");
                    assert_eq!(done, len.min(8));
                }
            }
        }
    }
}
