//! The values of a table, each kept in the fewest whole bytes (1, 2, 4 or 8) that the largest
//! needs: 0.6 to 2^24 takes 2 bytes a value, not 8.

use super::packed::PackedValues;
use serde::{Serialize, Serializer};

/// G(0), G(1), …, each in the fewest whole bytes that the largest needs, or most in one byte
/// for a long table of the octal engine (see [`crate::heap::rare::PACK_MIN`]). Built from a
/// vector of any width, which it narrows; two tables of the same values are equal whatever
/// they were built from.
///
/// ```
/// use sprague::heap::Values;
/// let values = Values::from(vec![0u64, 1, 2, 300]);
/// assert_eq!(values.width(), 2);
/// assert_eq!(values.get(3), Some(300));
/// assert_eq!(values.to_vec(), [0, 1, 2, 300]);
/// ```
#[derive(Clone, Debug)]
pub struct Values(Store);

/// The vector of one width, or packed values and the largest of them.
#[derive(Clone, Debug)]
enum Store {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    Packed(PackedValues, u16),
}

impl PartialEq for Values {
    fn eq(&self, other: &Values) -> bool {
        match (&self.0, &other.0) {
            (Store::U8(a), Store::U8(b)) => a == b,
            (Store::U16(a), Store::U16(b)) => a == b,
            (Store::U32(a), Store::U32(b)) => a == b,
            (Store::U64(a), Store::U64(b)) => a == b,
            // Narrowed vectors of equal values have one width; packed ones are compared
            // value by value.
            (Store::Packed(..), _) | (_, Store::Packed(..)) => {
                self.len() == other.len() && self.iter().eq(other.iter())
            }
            _ => false,
        }
    }
}

impl Eq for Values {}

impl From<PackedValues> for Values {
    /// The values, narrowed when none is packed.
    fn from(values: PackedValues) -> Values {
        if !values.is_packed() {
            return narrow(values.into_vec());
        }
        let mut largest = 0;
        values.for_each_chunk(1 << 16, |chunk| {
            largest = chunk.iter().fold(largest, |m, &v| m.max(v));
        });
        Values(Store::Packed(values, largest))
    }
}

/// The unsigned integers a store holds.
trait Word: Copy + Into<u64> + TryFrom<u64> {
    /// The store of a vector of this width.
    fn store(values: Vec<Self>) -> Store;
    /// The value from its little-endian bytes.
    fn from_le(bytes: &[u8]) -> Self;
}

macro_rules! word {
    ($($t:ty => $variant:ident),*) => {$(
        impl Word for $t {
            fn store(values: Vec<$t>) -> Store {
                Store::$variant(values)
            }
            fn from_le(bytes: &[u8]) -> $t {
                <$t>::from_le_bytes(bytes.try_into().expect("a chunk of the word's width"))
            }
        }
        impl From<Vec<$t>> for Values {
            /// The values, narrowed to the fewest bytes the largest needs.
            fn from(values: Vec<$t>) -> Values {
                narrow(values)
            }
        }
    )*};
}

word!(u8 => U8, u16 => U16, u32 => U32, u64 => U64);

/// The fewest whole bytes (1, 2, 4 or 8) that hold `largest`.
pub fn width_for(largest: u64) -> u64 {
    match largest {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        0x1_0000..=0xffff_ffff => 4,
        _ => 8,
    }
}

/// `values` in the narrowest store that holds them (a copy only when that is narrower).
fn narrow<T: Word>(values: Vec<T>) -> Values {
    let largest = values.iter().map(|&v| v.into()).max().unwrap_or(0);
    let width = width_for(largest);
    if width == std::mem::size_of::<T>() as u64 {
        return Values(T::store(values));
    }
    fn to<U: Word, T: Word>(values: &[T]) -> Vec<U> {
        values
            .iter()
            .map(|&v| {
                U::try_from(v.into()).unwrap_or_else(|_| unreachable!("a value above the largest"))
            })
            .collect()
    }
    Values(match width {
        1 => Store::U8(to(&values)),
        2 => Store::U16(to(&values)),
        4 => Store::U32(to(&values)),
        _ => Store::U64(to(&values)),
    })
}

/// Calls `$body` with `$v` bound to the store's vector, whatever its width, or `$packed`
/// with `$p` bound to packed values.
macro_rules! each {
    ($store:expr, $v:ident => $body:expr, $p:pat => $packed:expr) => {
        match $store {
            Store::U8($v) => $body,
            Store::U16($v) => $body,
            Store::U32($v) => $body,
            Store::U64($v) => $body,
            $p => $packed,
        }
    };
}

// `each!`'s 64-bit arm converts `u64` to itself.
#[allow(clippy::useless_conversion)]
impl Values {
    /// The values of little-endian words of `width` bytes (1, 2, 4 or 8), narrowed; `None`
    /// for another width, or bytes that are not whole words.
    pub fn from_le_bytes(width: u64, bytes: &[u8]) -> Option<Values> {
        fn read<T: Word>(bytes: &[u8]) -> Values {
            narrow(
                bytes
                    .chunks_exact(std::mem::size_of::<T>())
                    .map(T::from_le)
                    .collect::<Vec<T>>(),
            )
        }
        if !matches!(width, 1 | 2 | 4 | 8) || !(bytes.len() as u64).is_multiple_of(width) {
            return None;
        }
        Some(match width {
            1 => read::<u8>(bytes),
            2 => read::<u16>(bytes),
            4 => read::<u32>(bytes),
            _ => read::<u64>(bytes),
        })
    }

    /// How many values.
    pub fn len(&self) -> usize {
        each!(&self.0, v => v.len(), Store::Packed(p, _) => p.len())
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes each value takes (1, 2, 4 or 8).
    pub fn width(&self) -> u64 {
        match self.0 {
            Store::U8(_) => 1,
            Store::U16(_) => 2,
            Store::U32(_) => 4,
            Store::U64(_) => 8,
            Store::Packed(_, largest) => width_for(u64::from(largest)),
        }
    }

    /// G(n).
    pub fn get(&self, n: usize) -> Option<u64> {
        each!(&self.0, v => v.get(n).map(|&g| g.into()),
            Store::Packed(p, _) => (n < p.len()).then(|| u64::from(p.get(n))))
    }

    /// The largest value (0 for none).
    pub fn max(&self) -> u64 {
        each!(&self.0, v => v.iter().max().map_or(0, |&g| g.into()),
            Store::Packed(_, largest) => u64::from(*largest))
    }

    /// The values in order (packed ones decoded a block at a time).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u64> + '_ {
        let (mut block, mut start) = ([0; 4096], 0);
        (0..self.len()).map(move |n| match &self.0 {
            Store::Packed(p, _) => {
                if n == 0 || n - start == block.len() {
                    start = n;
                    let k = block.len().min(p.len() - n);
                    p.decode(n, &mut block[..k]);
                }
                u64::from(block[n - start])
            }
            _ => self.get(n).unwrap_or(0),
        })
    }

    /// The values as 64-bit words.
    pub fn to_vec(&self) -> Vec<u64> {
        each!(&self.0, v => v.iter().map(|&g| g.into()).collect(),
            Store::Packed(p, _) => p.to_vec().into_iter().map(u64::from).collect())
    }

    /// The values of `range` as little-endian words of [`Values::width`] bytes, appended to
    /// `out`.
    pub fn write_le_bytes(&self, range: std::ops::Range<usize>, out: &mut Vec<u8>) {
        each!(&self.0, v => {
            for g in &v[range] {
                out.extend_from_slice(&g.to_le_bytes());
            }
        }, Store::Packed(p, largest) => {
            let mut chunk = [0; 4096];
            let mut x = range.start;
            while x < range.end {
                let n = chunk.len().min(range.end - x);
                p.decode(x, &mut chunk[..n]);
                for &g in &chunk[..n] {
                    if *largest <= 0xff {
                        out.push(g as u8);
                    } else {
                        out.extend_from_slice(&g.to_le_bytes());
                    }
                }
                x += n;
            }
        })
    }
}

impl Default for Values {
    fn default() -> Values {
        Values(Store::U8(Vec::new()))
    }
}

impl Serialize for Values {
    /// A sequence of numbers.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_take_the_fewest_bytes_the_largest_needs() {
        for (largest, width) in [
            (0, 1),
            (255, 1),
            (256, 2),
            (65_535, 2),
            (65_536, 4),
            (u64::from(u32::MAX), 4),
            (u64::from(u32::MAX) + 1, 8),
            (u64::MAX, 8),
        ] {
            let values = Values::from(vec![3u64, largest, 1]);
            assert_eq!(values.width(), width, "largest {largest}");
            assert_eq!(values.to_vec(), [3, largest, 1]);
            assert_eq!(values.max(), largest.max(3));
            assert_eq!(values.iter().collect::<Vec<_>>(), [3, largest, 1]);
            let mut bytes = Vec::new();
            values.write_le_bytes(0..3, &mut bytes);
            assert_eq!(bytes.len() as u64, 3 * width);
            assert_eq!(Values::from_le_bytes(width, &bytes), Some(values.clone()));
            // Wider words of the same values read back to the same table.
            let wide: Vec<u8> = [3u64, largest, 1]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect();
            assert_eq!(Values::from_le_bytes(8, &wide), Some(values));
            assert_eq!(Values::from_le_bytes(3, &wide), None);
            assert_eq!(Values::from_le_bytes(8, &wide[1..]), None);
        }
    }

    #[test]
    fn equal_values_are_equal_whatever_they_were_built_from() {
        let a = Values::from(vec![0u8, 1, 2]);
        assert_eq!(Values::from(vec![0u16, 1, 2]), a);
        assert_eq!(Values::from(vec![0u32, 1, 2]), a);
        assert_eq!(Values::from(vec![0u64, 1, 2]), a);
        assert_ne!(Values::from(vec![0u64, 1, 3]), a);
        assert_eq!(a.get(3), None);
        assert!(Values::default().is_empty());
        assert_eq!(serde_json::to_string(&a).unwrap(), "[0,1,2]");
    }

    #[test]
    fn packed_values_read_back_by_every_reader() {
        // Across several of the blocks that the readers decode at a time.
        let whole: Vec<u16> = (0..10_000u32).map(|x| (x * 7 % 300) as u16).collect();
        let mut packed = PackedValues::from_vec(whole.clone());
        packed.pack(crate::heap::packed::Rule::LOW_BYTE, 10, 100);
        let values = Values::from(packed);
        assert_eq!(values, Values::from(whole.clone()));
        let expected: Vec<u64> = whole.iter().map(|&v| v.into()).collect();
        assert_eq!(values.iter().len(), whole.len());
        assert_eq!(values.iter().collect::<Vec<_>>(), expected);
        assert_eq!(values.to_vec(), expected);
        assert_eq!(values.get(9_999), Some(expected[9_999]));
        assert_eq!(values.max(), 299);
        let mut bytes = Vec::new();
        values.write_le_bytes(4_000..9_000, &mut bytes);
        let back: Vec<u64> = bytes
            .chunks(2)
            .map(|b| u64::from(u16::from_le_bytes([b[0], b[1]])))
            .collect();
        assert_eq!(back, expected[4_000..9_000]);
    }
}
