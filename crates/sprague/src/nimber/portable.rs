//! The portable fallback: log/exp tables of the 16-bit nim subfield, and Karatsuba over the
//! tower 16 → 32 → 64 bits.
//!
//! With F = 2^16 (or 2^32) and x, y below F: (x1·F + x0) ⊗ (y1·F + y0) =
//! (m ⊕ p0)·F + (p1 ⊗ F/2 ⊕ p0), where p1 = x1 ⊗ y1, p0 = x0 ⊗ y0 and
//! m = (x1 ⊕ x0) ⊗ (y1 ⊕ y0): three half-size products instead of four.

use super::mul_reference;
use std::sync::OnceLock;

/// The order of the multiplicative group of the 16-bit subfield.
const ORDER: usize = 65_535;

/// Log and exp tables of the 16-bit subfield for a fixed generator.
pub(crate) struct LogTables {
    /// `log[x]` for x ≠ 0 (`log[0]` is unused).
    log: Box<[u32]>,
    /// `exp[i] = g^i` for i < 3·ORDER, so sums of three logs need no reduction.
    exp: Box<[u16]>,
    /// log(2^15), the constant of the 32-bit level.
    log_half16: u32,
    /// log(2^15 ⊗ 2^15), the constant of the 64-bit level's low half.
    log_half16_squared: u32,
}

/// The tables, built on first use (a few milliseconds).
pub(crate) fn tables() -> &'static LogTables {
    static TABLES: OnceLock<LogTables> = OnceLock::new();
    TABLES.get_or_init(build)
}

fn pow16(mut base: u64, mut e: u64) -> u64 {
    let mut acc = 1;
    while e > 0 {
        if e & 1 == 1 {
            acc = mul_reference(acc, base);
        }
        base = mul_reference(base, base);
        e >>= 1;
    }
    acc
}

fn build() -> LogTables {
    // A generator: no g^(ORDER/p) = 1 for the prime factors p of 65535 = 3·5·17·257.
    let generator = (2u64..)
        .find(|&g| {
            [3u64, 5, 17, 257]
                .iter()
                .all(|p| pow16(g, ORDER as u64 / p) != 1)
        })
        .expect("the 16-bit subfield has a generator");
    // Multiplication by g is GF(2)-linear on 16 bits.
    let columns: Vec<u16> = (0..16)
        .map(|i| mul_reference(1 << i, generator) as u16)
        .collect();
    let mut log = vec![0u32; 1 << 16].into_boxed_slice();
    let mut exp = vec![0u16; 3 * ORDER].into_boxed_slice();
    let mut x: u16 = 1;
    for i in 0..ORDER {
        exp[i] = x;
        log[x as usize] = i as u32;
        x = (0..16)
            .filter(|b| x >> b & 1 == 1)
            .fold(0, |acc, b| acc ^ columns[b]);
    }
    assert_eq!(x, 1, "the generator has order 65535");
    for i in ORDER..3 * ORDER {
        exp[i] = exp[i - ORDER];
    }
    let log_half16 = log[1 << 15];
    let log_half16_squared = log[mul_reference(1 << 15, 1 << 15) as usize];
    LogTables {
        log,
        exp,
        log_half16,
        log_half16_squared,
    }
}

impl LogTables {
    #[inline(always)]
    fn mul16(&self, a: u32, b: u32) -> u32 {
        if a == 0 || b == 0 {
            0
        } else {
            self.exp[(self.log[a as usize] + self.log[b as usize]) as usize] as u32
        }
    }

    /// `a ⊗ b ⊗ c` where `log_c` is the log of the nonzero constant c.
    #[inline(always)]
    fn mul16_by(&self, a: u32, b: u32, log_c: u32) -> u32 {
        if a == 0 || b == 0 {
            0
        } else {
            self.exp[(self.log[a as usize] + self.log[b as usize] + log_c) as usize] as u32
        }
    }

    #[inline(always)]
    fn mul32(&self, a: u32, b: u32) -> u32 {
        let (a1, a0, b1, b0) = (a >> 16, a & 0xffff, b >> 16, b & 0xffff);
        let p0 = self.mul16(a0, b0);
        let m = self.mul16(a1 ^ a0, b1 ^ b0);
        let low = self.mul16_by(a1, b1, self.log_half16) ^ p0;
        ((m ^ p0) << 16) | low
    }

    /// x ⊗ 2^31 for x below 2^32 (2^31 = 2^16 ⊗ 2^15).
    #[inline(always)]
    fn times_half32(&self, x: u32) -> u32 {
        let (x1, x0) = (x >> 16, x & 0xffff);
        let high = self.mul16_by(x1 ^ x0, 1, self.log_half16);
        let low = self.mul16_by(x1, 1, self.log_half16_squared);
        (high << 16) | low
    }

    /// The full 64-bit nim product.
    #[inline]
    pub(crate) fn mul(&self, a: u64, b: u64) -> u64 {
        let (a1, a0, b1, b0) = ((a >> 32) as u32, a as u32, (b >> 32) as u32, b as u32);
        let p1 = self.mul32(a1, b1);
        let p0 = self.mul32(a0, b0);
        let m = self.mul32(a1 ^ a0, b1 ^ b0);
        (((m ^ p0) as u64) << 32) | (self.times_half32(p1) ^ p0) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_16_bit_tables_multiply_like_the_definition() {
        let t = tables();
        let mut x = 1u32;
        for _ in 0..2000 {
            x = x.wrapping_mul(2_654_435_761).wrapping_add(12345);
            let (a, b) = (x & 0xffff, (x >> 16) & 0xffff);
            assert_eq!(t.mul16(a, b) as u64, mul_reference(a as u64, b as u64));
        }
    }
}
