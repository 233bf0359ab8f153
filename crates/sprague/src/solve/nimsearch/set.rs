//! Sets of nim values below 256, as 256-bit masks: the candidate values of Beling and
//! Rogalski's search.

/// A set of nim values `0..=255`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NimSet([u64; 4]);

impl NimSet {
    /// No value.
    pub const EMPTY: NimSet = NimSet([0; 4]);

    /// The values `0..n` (all 256 from `n = 256` on).
    pub fn below(n: usize) -> NimSet {
        let mut words = [0u64; 4];
        for (i, w) in words.iter_mut().enumerate() {
            let start = 64 * i;
            *w = match n.saturating_sub(start) {
                0 => 0,
                k if k >= 64 => u64::MAX,
                k => (1u64 << k) - 1,
            };
        }
        NimSet(words)
    }

    /// The one value `v`.
    pub fn single(v: u8) -> NimSet {
        let mut set = NimSet::EMPTY;
        set.insert(v);
        set
    }

    /// Whether `v` is in the set.
    #[inline]
    pub fn contains(&self, v: u8) -> bool {
        self.0[usize::from(v >> 6)] >> (v & 63) & 1 == 1
    }

    /// Adds `v`.
    #[inline]
    pub fn insert(&mut self, v: u8) {
        self.0[usize::from(v >> 6)] |= 1 << (v & 63);
    }

    /// Removes `v`.
    #[inline]
    pub fn remove(&mut self, v: u8) {
        self.0[usize::from(v >> 6)] &= !(1 << (v & 63));
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The least value.
    #[inline]
    pub fn min(&self) -> Option<u8> {
        let i = self.0.iter().position(|&w| w != 0)?;
        Some((64 * i as u32 + self.0[i].trailing_zeros()) as u8)
    }

    /// The greatest value.
    #[inline]
    pub fn max(&self) -> Option<u8> {
        let i = self.0.iter().rposition(|&w| w != 0)?;
        Some((64 * i as u32 + 63 - self.0[i].leading_zeros()) as u8)
    }

    /// The set without its greatest value.
    #[inline]
    pub fn without_max(&self) -> NimSet {
        let mut set = *self;
        if let Some(m) = self.max() {
            set.remove(m);
        }
        set
    }

    /// The values in both sets.
    #[inline]
    pub fn and(&self, other: &NimSet) -> NimSet {
        NimSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// Whether the sets share no value.
    #[inline]
    pub fn is_disjoint(&self, other: &NimSet) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & b == 0)
    }

    /// The values `0..=max`, empty for the empty set.
    #[inline]
    pub fn up_to_max(&self) -> NimSet {
        match self.max() {
            Some(m) => NimSet::below(usize::from(m) + 1),
            None => NimSet::EMPTY,
        }
    }

    /// `{v ⊕ x : v in the set}`.
    pub fn xor_each(&self, x: u8) -> NimSet {
        if x == 0 {
            return *self;
        }
        let mut out = NimSet::EMPTY;
        for v in self.iter() {
            out.insert(v ^ x);
        }
        out
    }

    /// The values, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    (64 * i as u32 + b) as u8
                })
            })
        })
    }

    /// The values 0 to 7 of the set, as the bits of a byte.
    #[inline]
    pub fn low_bits(&self) -> u8 {
        self.0[0] as u8
    }

    /// Removes the values 0 to 7 whose bits `bits` has.
    #[inline]
    pub fn remove_low_bits(&mut self, bits: u8) {
        self.0[0] &= !u64::from(bits);
    }

    /// Removes exactly one value: `v` when it is in the set, else the greatest (Beling and
    /// Rogalski's bookkeeping: a set of n + 1 candidates and n options ends with the mex).
    #[inline]
    pub fn remove_or_max(&mut self, v: u8) {
        if self.contains(v) {
            self.remove(v);
        } else {
            *self = self.without_max();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations() {
        let s = NimSet::below(70);
        assert_eq!((s.min(), s.max()), (Some(0), Some(69)));
        assert_eq!(s.without_max().max(), Some(68));
        assert_eq!(NimSet::below(256).max(), Some(255));
        assert!(NimSet::below(0).is_empty());
        let t = NimSet::single(5).xor_each(3);
        assert_eq!(t.iter().collect::<Vec<_>>(), [6]);
        assert_eq!(t.up_to_max(), NimSet::below(7));
        assert!(t.is_disjoint(&NimSet::single(5)));
        // Options of values 1 and 0 leave the mex 2 of the candidates 0, 1, 2.
        let mut p = NimSet::below(3);
        p.remove_or_max(1);
        p.remove_or_max(0);
        assert_eq!(p.iter().collect::<Vec<_>>(), [2]);
        // Options 0, 0: the second removes the greatest.
        let mut p = NimSet::below(3);
        p.remove_or_max(0);
        p.remove_or_max(0);
        assert_eq!(p.iter().collect::<Vec<_>>(), [1]);
    }
}
