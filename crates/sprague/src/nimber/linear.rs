//! GF(2)-linear algebra on 64-bit words: byte-table matrices and an XOR-basis solver.
//!
//! Many maps of the nim field are GF(2)-linear (the change to the polynomial basis, the
//! Frobenius square root, multiplication by a fixed nimber). A 64×64 bit matrix is applied as
//! eight lookups in tables indexed by the bytes of the input.

/// A GF(2)-linear map on 64-bit words, stored as eight tables of 256 words (16 KiB, held
/// inline so that a `static` map costs no pointer to follow).
#[derive(Clone)]
pub(crate) struct ByteMatrix {
    tables: [[u64; 256]; 8],
}

impl ByteMatrix {
    /// The map sending bit `i` to `columns[i]` (usable in constants).
    pub(crate) const fn from_columns(columns: &[u64; 64]) -> Self {
        let mut tables = [[0u64; 256]; 8];
        let mut k = 0;
        while k < 8 {
            let mut v = 1;
            while v < 256 {
                let low = (v as u64).trailing_zeros() as usize;
                tables[k][v] = tables[k][v & (v - 1)] ^ columns[8 * k + low];
                v += 1;
            }
            k += 1;
        }
        ByteMatrix { tables }
    }

    /// The image of bit `i`.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn column(&self, i: usize) -> u64 {
        self.tables[i / 8][1 << (i % 8)]
    }

    /// The image of `x`.
    #[inline(always)]
    pub(crate) fn apply(&self, x: u64) -> u64 {
        let t = &self.tables;
        let b = x.to_le_bytes();
        (t[0][b[0] as usize] ^ t[1][b[1] as usize])
            ^ (t[2][b[2] as usize] ^ t[3][b[3] as usize])
            ^ ((t[4][b[4] as usize] ^ t[5][b[5] as usize])
                ^ (t[6][b[6] as usize] ^ t[7][b[7] as usize]))
    }
}

/// Solves linear systems `L(x) = v` given the images of the unit vectors, by Gaussian
/// elimination kept as an XOR basis with one pivot per bit.
pub(crate) struct LinearSolver {
    /// `rows[b]` = (a vector whose highest bit is `b`, one of its preimages), if any.
    rows: [Option<(u64, u64)>; 64],
}

impl LinearSolver {
    /// An empty basis.
    pub(crate) const fn new() -> Self {
        LinearSolver { rows: [None; 64] }
    }

    /// Records that `preimage` maps to `image`.
    pub(crate) const fn insert(&mut self, mut image: u64, mut preimage: u64) {
        while image != 0 {
            let bit = 63 - image.leading_zeros() as usize;
            match self.rows[bit] {
                Some((v, p)) => {
                    image ^= v;
                    preimage ^= p;
                }
                None => {
                    self.rows[bit] = Some((image, preimage));
                    return;
                }
            }
        }
    }

    /// Some `x` with `L(x) = target`, if `target` is in the image.
    pub(crate) const fn solve(&self, mut target: u64) -> Option<u64> {
        let mut x = 0;
        while target != 0 {
            let bit = 63 - target.leading_zeros() as usize;
            let Some((v, p)) = self.rows[bit] else {
                return None;
            };
            target ^= v;
            x ^= p;
        }
        Some(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_matrix_applies_the_columns() {
        let columns: [u64; 64] =
            std::array::from_fn(|i| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let m = ByteMatrix::from_columns(&columns);
        for x in [
            0u64,
            1,
            0x8000_0000_0000_0000,
            0xdead_beef_0123_4567,
            u64::MAX,
        ] {
            let slow = (0..64)
                .filter(|i| x >> i & 1 == 1)
                .fold(0, |acc, i| acc ^ columns[i]);
            assert_eq!(m.apply(x), slow);
        }
    }

    #[test]
    fn solver_inverts_a_singular_map() {
        // L(x) = x ^ (x >> 1) has kernel {0} on u64; L(x) = x ^ rotate(x) has kernel {0, MAX}.
        let mut solver = LinearSolver::new();
        for i in 0..64 {
            let e = 1u64 << i;
            solver.insert(e ^ e.rotate_left(1), e);
        }
        let x = 0x0123_4567_89ab_cdefu64;
        let v = x ^ x.rotate_left(1);
        let y = solver.solve(v).unwrap();
        assert_eq!(y ^ y.rotate_left(1), v);
        assert_eq!(solver.solve(1), None); // odd weight is outside the image
    }
}
