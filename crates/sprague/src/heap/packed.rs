//! The values of a long table, most of them in one byte each.
//!
//! In a sparse mode whose mask has bit 8 (Officers, 0.6: mask 494), every common value (one not
//! on the rare list) is in the common class, so its ninth bit follows from its low byte and, in
//! the heap-parity variant, from the heap's parity. Once packed, a table keeps its first values
//! whole (the head), then each value as its low byte (the body), with the few values the rule
//! does not give (rare ones, any value from 512 up) whole in a sorted list of exceptions, and
//! its newest values whole again (the tail), where the rare pairs find their partners. Officers
//! to 2^32 then takes about 4 GiB instead of 8.
//!
//! Readers take [`PackedValues::whole`] while nothing is packed (every reader's fast path),
//! [`PackedValues::tail`] for the newest values, and [`PackedValues::decode`] for any range.

/// How the ninth bit of a packed value follows from its low byte and its heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rule {
    /// The low byte's bits whose parity flips the ninth bit.
    mask: u8,
    /// The ninth bit when the masked parity is even (at even heaps, with heap parity).
    base: u8,
    /// Whether the ninth bit also flips at odd heaps.
    heap_parity: bool,
}

impl Rule {
    /// Values below 256: the ninth bit is 0.
    pub(crate) const LOW_BYTE: Rule = Rule {
        mask: 0,
        base: 0,
        heap_parity: false,
    };

    /// The rule of a sparse mode: a common value at heap `x` has
    /// `parity(value & mask) ⊕ (heap_parity ∧ x odd) = common`. Without bit 8 in the mask
    /// the class says nothing of the ninth bit: [`Rule::LOW_BYTE`].
    pub(crate) fn sparse(mask: u16, heap_parity: bool, common: u32) -> Rule {
        if mask & 0x100 == 0 {
            return Rule::LOW_BYTE;
        }
        Rule {
            mask: mask as u8,
            base: (common & 1) as u8,
            heap_parity,
        }
    }

    /// Whether the rule gives `value` at heap `x` from its low byte.
    #[inline]
    pub(crate) fn gives(self, value: u16, x: usize) -> bool {
        self.decode(value as u8, x) == value
    }

    /// The value at heap `x` whose low byte is `low`, when the rule gives it.
    #[inline(always)]
    fn decode(self, low: u8, x: usize) -> u16 {
        let flip = u8::from(self.heap_parity) & x as u8;
        let ninth = ((low & self.mask).count_ones() as u8 ^ self.base ^ flip) & 1;
        u16::from(low) | u16::from(ninth) << 8
    }
}

/// G(0), G(1), …: every value whole until [`PackedValues::pack`], then a head and a tail whole
/// and the body between them in one byte each.
#[derive(Clone, Debug, Default)]
pub(crate) struct PackedValues {
    /// Every value while nothing is packed; afterwards the first ones.
    head: Vec<u16>,
    /// The low bytes of the values after the head, up to the tail.
    body: Vec<u8>,
    /// The newest values (after the body), whole.
    tail: Vec<u16>,
    /// How the body decodes (`None` while nothing is packed).
    rule: Option<Rule>,
    /// The body's heaps whose value the rule does not give, ascending, with their values.
    exceptions: Vec<(u32, u16)>,
}

impl PackedValues {
    /// These values, none packed.
    #[cfg(test)]
    pub(crate) fn from_vec(values: Vec<u16>) -> PackedValues {
        PackedValues {
            head: values,
            ..PackedValues::default()
        }
    }

    /// How many values.
    pub(crate) fn len(&self) -> usize {
        self.head.len() + self.body.len() + self.tail.len()
    }

    /// Whether any value is packed.
    pub(crate) fn is_packed(&self) -> bool {
        self.rule.is_some()
    }

    /// Every value, while nothing is packed.
    #[inline]
    pub(crate) fn whole(&self) -> Option<&[u16]> {
        (!self.is_packed()).then_some(&self.head[..])
    }

    /// The newest values, whole, and the heap of the first: every value while nothing is
    /// packed.
    #[inline]
    pub(crate) fn tail(&self) -> (usize, &[u16]) {
        if self.is_packed() {
            (self.head.len() + self.body.len(), &self.tail)
        } else {
            (0, &self.head)
        }
    }

    /// Appends the next value.
    #[inline]
    pub(crate) fn push(&mut self, value: u16) {
        if self.is_packed() {
            self.tail.push(value);
        } else {
            self.head.push(value);
        }
    }

    /// Room for `more` pushes without moving the values that are whole at the end.
    pub(crate) fn reserve(&mut self, more: usize) {
        if self.is_packed() {
            self.tail.reserve(more);
        } else {
            self.head.reserve(more);
        }
    }

    /// Room for the body to reach `heaps` values in all without moving (untouched room costs
    /// address space, not memory).
    pub(crate) fn reserve_body(&mut self, heaps: usize) {
        self.body
            .reserve(heaps.saturating_sub(self.head.len() + self.body.len()));
    }

    /// G(x).
    pub(crate) fn get(&self, x: usize) -> u16 {
        let mut one = [0];
        self.decode(x, &mut one);
        one[0]
    }

    /// Keeps the values up to the last `keep` (and, the first time, from heap `head` on) in
    /// one byte each by `rule` (ignored once packed). The values kept whole at the end stay
    /// in place only between two calls: readers of [`PackedValues::tail`] must be done.
    pub(crate) fn pack(&mut self, rule: Rule, head: usize, keep: usize) {
        let rule = *self.rule.get_or_insert(rule);
        if self.body.is_empty() && self.tail.is_empty() {
            // The first time: pack straight out of the whole values, then let them go (the
            // peak is the whole values and the body, once).
            let head = head.min(self.head.len());
            let end = self.head.len().saturating_sub(keep).max(head);
            self.body.reserve(end - head);
            encode(
                rule,
                head,
                &self.head[head..end],
                &mut self.body,
                &mut self.exceptions,
            );
            self.tail = self.head[end..].to_vec();
            self.head.truncate(head);
            self.head.shrink_to_fit();
            return;
        }
        let moving = self.tail.len().saturating_sub(keep);
        let first = self.head.len() + self.body.len();
        encode(
            rule,
            first,
            &self.tail[..moving],
            &mut self.body,
            &mut self.exceptions,
        );
        self.tail.drain(..moving);
    }

    /// The rule the body decodes by (`None` while nothing is packed).
    pub(crate) fn rule(&self) -> Option<Rule> {
        self.rule
    }

    /// Decodes the body by `rule` from now on (when packed): the low bytes stay, the
    /// exceptions become those of `rule`. One pass over the body.
    pub(crate) fn set_rule(&mut self, rule: Rule) {
        if self.rule.is_none_or(|old| old == rule) {
            return;
        }
        let (head, end) = (self.head.len(), self.head.len() + self.body.len());
        let mut exceptions = Vec::new();
        self.for_each_chunk_in(head..end, 1 << 16, |x, values| {
            exceptions.extend(misses(rule, x, values));
        });
        self.exceptions = exceptions;
        self.rule = Some(rule);
    }

    /// G(from), G(from + 1), … into `out`.
    ///
    /// # Panics
    ///
    /// When the values end before `out` is full.
    pub(crate) fn decode(&self, from: usize, out: &mut [u16]) {
        let end = from + out.len();
        assert!(end <= self.len(), "values past the table");
        let (head, body_end) = (self.head.len(), self.head.len() + self.body.len());
        let mut x = from;
        let mut out = out;
        if x < head {
            let n = (head - x).min(out.len());
            out[..n].copy_from_slice(&self.head[x..x + n]);
            (x, out) = (x + n, &mut out[n..]);
        }
        if x < body_end && !out.is_empty() {
            let n = (body_end - x).min(out.len());
            let rule = self.rule.unwrap_or(Rule::LOW_BYTE);
            let low = &self.body[x - head..x - head + n];
            decode_body(rule, x, low, &mut out[..n]);
            let first = self.exceptions.partition_point(|&(e, _)| (e as usize) < x);
            for &(e, value) in &self.exceptions[first..] {
                if e as usize >= x + n {
                    break;
                }
                out[e as usize - x] = value;
            }
            (x, out) = (x + n, &mut out[n..]);
        }
        if !out.is_empty() {
            out.copy_from_slice(&self.tail[x - body_end..x - body_end + out.len()]);
        }
    }

    /// Every value whole: a copy when packed.
    pub(crate) fn to_vec(&self) -> Vec<u16> {
        match self.whole() {
            Some(values) => values.to_vec(),
            None => {
                let mut out = vec![0; self.len()];
                self.decode(0, &mut out);
                out
            }
        }
    }

    /// Every value whole, giving up the packed ones (decoded: a copy).
    pub(crate) fn into_vec(self) -> Vec<u16> {
        if self.is_packed() {
            self.to_vec()
        } else {
            self.head
        }
    }

    /// Keeps the first `len` values only.
    pub(crate) fn truncate(&mut self, len: usize) {
        let (head, body_end) = (self.head.len(), self.head.len() + self.body.len());
        if len >= body_end {
            self.tail.truncate(len - body_end);
            return;
        }
        self.tail.clear();
        if len >= head {
            self.body.truncate(len - head);
        } else {
            self.body.clear();
            self.head.truncate(len);
        }
        let kept = self
            .exceptions
            .partition_point(|&(x, _)| (x as usize) < len);
        self.exceptions.truncate(kept);
    }

    /// Calls `f` with the values in order, `chunk` at a time (the last may be shorter).
    pub(crate) fn for_each_chunk(&self, chunk: usize, mut f: impl FnMut(&[u16])) {
        self.for_each_chunk_in(0..self.len(), chunk, |_, values| f(values));
    }

    /// Calls `f(x, values)` with the values of heaps `range` in order, `chunk` at a time
    /// (`x` the heap of the first).
    fn for_each_chunk_in(
        &self,
        range: std::ops::Range<usize>,
        chunk: usize,
        mut f: impl FnMut(usize, &[u16]),
    ) {
        let _ = self.chunks_in(range, chunk, |x, values| {
            f(x, values);
            Ok::<(), std::convert::Infallible>(())
        });
    }

    /// [`PackedValues::for_each_chunk`], stopping at the first error of `f`.
    pub(crate) fn try_for_each_chunk<E>(
        &self,
        chunk: usize,
        mut f: impl FnMut(&[u16]) -> Result<(), E>,
    ) -> Result<(), E> {
        self.chunks_in(0..self.len(), chunk, |_, values| f(values))
    }

    /// Calls `f(x, values)` with the values of heaps `range` in order, `chunk` at a time
    /// (`x` the heap of the first), stopping at the first error of `f`.
    fn chunks_in<E>(
        &self,
        range: std::ops::Range<usize>,
        chunk: usize,
        mut f: impl FnMut(usize, &[u16]) -> Result<(), E>,
    ) -> Result<(), E> {
        let chunk = chunk.max(1);
        if let Some(values) = self.whole() {
            return range
                .clone()
                .step_by(chunk)
                .try_for_each(|x| f(x, &values[x..range.end.min(x + chunk)]));
        }
        let mut buffer = vec![0; chunk.min(range.len())];
        for x in range.clone().step_by(chunk) {
            let n = chunk.min(range.end - x);
            self.decode(x, &mut buffer[..n]);
            f(x, &buffer[..n])?;
        }
        Ok(())
    }

    /// The values the rule does not give, kept whole.
    #[cfg(test)]
    pub(crate) fn exceptions(&self) -> usize {
        self.exceptions.len()
    }
}

/// Appends the low bytes of `values` (heaps `x`, `x + 1`, …) to `body`, and those the rule
/// does not give to `exceptions`.
fn encode(
    rule: Rule,
    x: usize,
    values: &[u16],
    body: &mut Vec<u8>,
    exceptions: &mut Vec<(u32, u16)>,
) {
    exceptions.extend(misses(rule, x, values));
    body.extend(values.iter().map(|&value| value as u8));
}

/// The values of heaps `x`, `x + 1`, … that `rule` does not give, with their heaps.
fn misses(rule: Rule, x: usize, values: &[u16]) -> impl Iterator<Item = (u32, u16)> + '_ {
    (x..)
        .zip(values)
        .filter(move |&(y, &value)| !rule.gives(value, y))
        .map(|(y, &value)| (y as u32, value))
}

/// `out[i] = rule.decode(low[i], x + i)`: with AVX2 where the CPU has it (a byte's parity by
/// nibble lookups, 32 values a step), else as the build's target vectorises it.
fn decode_body(rule: Rule, x: usize, low: &[u8], out: &mut [u16]) {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::Simd::Avx2.is_available() {
        // SAFETY: the CPU has AVX2, checked just above.
        unsafe { decode_body_avx2(rule, x, low, out) };
        return;
    }
    decode_body_with(rule, x, low, out);
}

/// [`decode_body_with`] compiled for AVX2.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn decode_body_avx2(rule: Rule, x: usize, low: &[u8], out: &mut [u16]) {
    decode_body_with(rule, x, low, out);
}

/// The loop of [`decode_body`], written for the compiler to vectorise.
#[inline(always)]
fn decode_body_with(rule: Rule, x: usize, low: &[u8], out: &mut [u16]) {
    let join = |l: u8, ninth: u8| u16::from(l) | u16::from(ninth & 1) << 8;
    if !rule.heap_parity {
        for (o, &l) in out.iter_mut().zip(low) {
            *o = join(l, (l & rule.mask).count_ones() as u8 ^ rule.base);
        }
        return;
    }
    // The ninth bit flips at odd heaps: the bases of the first heap and of the next.
    let bases = [rule.base ^ (x & 1) as u8, rule.base ^ (!x & 1) as u8];
    for (o, l) in out.chunks_exact_mut(2).zip(low.chunks_exact(2)) {
        o[0] = join(l[0], (l[0] & rule.mask).count_ones() as u8 ^ bases[0]);
        o[1] = join(l[1], (l[1] & rule.mask).count_ones() as u8 ^ bases[1]);
    }
    if out.len() % 2 == 1 {
        let i = out.len() - 1;
        out[i] = rule.decode(low[i], x + i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Values of which most follow `rule` (common), with some that do not (rare, or 512 and
    /// up).
    fn values(rule: Rule, seeds: &[u16]) -> Vec<u16> {
        seeds
            .iter()
            .enumerate()
            .map(|(x, &s)| match s % 16 {
                0 => s,                       // anything, often an exception
                _ => rule.decode(s as u8, x), // common
            })
            .collect()
    }

    #[test]
    fn the_rule_of_officers_gives_the_ninth_bit_of_common_values() {
        // 0.6: mask 494 (bits 1–3, 5–8), no heap parity, rare values of even mask parity.
        let rule = Rule::sparse(494, false, 1);
        for v in 0u16..512 {
            let common = (v & 494).count_ones() & 1 == 1;
            assert_eq!(rule.decode(v as u8, 7) == v, common, "{v}");
        }
        // Heap parity flips the class at odd heaps.
        let rule = Rule::sparse(0x1ff, true, 0);
        assert_eq!(rule.decode(1, 0), 0x101);
        assert_eq!(rule.decode(1, 1), 0x001);
        // A mask without bit 8 keeps the low byte only.
        assert_eq!(Rule::sparse(3, false, 1), Rule::LOW_BYTE);
        assert_eq!(Rule::LOW_BYTE.decode(200, 3), 200);
    }

    proptest! {
        /// Packed at any point, any number of times, the values read back the same by every
        /// reader, exceptions and all.
        #[test]
        fn packed_values_read_back_unchanged(
            seeds in proptest::collection::vec(any::<u16>(), 1..600),
            mask: u16, heap_parity: bool, common in 0u32..2,
            head in 0usize..100, keeps in proptest::collection::vec(0usize..80, 1..4),
            grow in proptest::collection::vec(any::<u16>(), 0..200),
            other_mask: u16, other_parity: bool,
        ) {
            let rule = Rule::sparse(mask | 0x100, heap_parity, common);
            let expected: Vec<u16> = values(rule, &seeds).into_iter()
                .chain(values(rule, &grow).into_iter().map(|v| v ^ 1))
                .collect();
            let mut packed = PackedValues::from_vec(expected[..seeds.len()].to_vec());
            prop_assert_eq!(packed.whole(), Some(&expected[..seeds.len()]));
            for (i, &keep) in keeps.iter().enumerate() {
                packed.pack(rule, head, keep);
                prop_assert!(packed.is_packed());
                prop_assert_eq!(packed.whole(), None);
                // Values pushed between packs land in the tail.
                let more = &expected[seeds.len()..][i * grow.len() / keeps.len()..(i + 1) * grow.len() / keeps.len()];
                for &v in more {
                    packed.push(v);
                }
            }
            let n = packed.len();
            prop_assert_eq!(packed.to_vec(), &expected[..n]);
            for x in (0..n).step_by(7) {
                prop_assert_eq!(packed.get(x), expected[x]);
            }
            let (first, tail) = packed.tail();
            prop_assert_eq!(tail, &expected[first..n]);
            // Every window, across the head, body and tail boundaries.
            for from in (0..n).step_by(13) {
                for len in [0, 1, 31, 64] {
                    let len = len.min(n - from);
                    let mut out = vec![0; len];
                    packed.decode(from, &mut out);
                    prop_assert_eq!(&out[..], &expected[from..from + len]);
                }
            }
            let mut chunks = Vec::new();
            packed.for_each_chunk(37, |c| chunks.extend_from_slice(c));
            prop_assert_eq!(chunks, &expected[..n]);
            // Cut anywhere, in the tail, the body or the head.
            for cut in [n, n - n / 3, n / 2, (head / 2).min(n), 0] {
                let mut shorter = packed.clone();
                shorter.truncate(cut);
                prop_assert_eq!(shorter.len(), cut);
                prop_assert_eq!(shorter.to_vec(), &expected[..cut]);
            }
            // Only values the rule misses are kept whole.
            let missed = (head.min(seeds.len())..first)
                .filter(|&x| rule.decode(expected[x] as u8, x) != expected[x])
                .count();
            prop_assert_eq!(packed.exceptions(), missed);
            // Another rule: the same values, with the exceptions of that rule.
            let other = Rule::sparse(other_mask, other_parity, common ^ 1);
            let mut changed = packed.clone();
            changed.set_rule(other);
            prop_assert_eq!(changed.rule(), Some(other));
            prop_assert_eq!(changed.to_vec(), &expected[..n]);
            let missed = (head.min(seeds.len())..first)
                .filter(|&x| !other.gives(expected[x], x))
                .count();
            prop_assert_eq!(changed.exceptions(), missed);
        }
    }
}
