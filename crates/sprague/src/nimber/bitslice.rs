//! The portable batch path: nim products bit-sliced, in plain Rust that the compiler turns
//! into vector instructions for any target (SSE2 on x86-64, NEON on aarch64).
//!
//! A block of 64·W words is transposed so that plane i holds bit i of every word, 64·W bits
//! in W 64-bit lanes. A nim product is then a circuit of ANDs and XORs on whole planes: the
//! tower recursion with Karatsuba's three half-size products at every level,
//! (a1·F ⊕ a0) ⊗ (b1·F ⊕ b0) = (m ⊕ p0)·F ⊕ (p1 ⊗ F/2 ⊕ p0) with p1 = a1 ⊗ b1,
//! p0 = a0 ⊗ b0 and m = (a1 ⊕ a0) ⊗ (b1 ⊕ b0): 729 ANDs and about 3,450 XORs for 64 bits,
//! shared by all 64·W products of the block.

use std::ops::{BitAnd, BitXor};

/// The lanes of a plane: bit r of lane l is word `W·r + l` of the block.
pub(crate) const W: usize = 2;

/// Words in a block.
pub(crate) const BLOCK: usize = 64 * W;

/// One plane: bit r of lane l belongs to word `W·r + l` of the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plane([u64; W]);

/// Lane-wise `^` and `&` of planes.
macro_rules! lanewise {
    ($($op:ident, $method:ident, $assign:tt;)*) => {$(
        impl $op for Plane {
            type Output = Plane;
            #[inline(always)]
            fn $method(mut self, other: Plane) -> Plane {
                for (x, y) in self.0.iter_mut().zip(other.0) {
                    *x $assign y;
                }
                self
            }
        }
    )*};
}

lanewise! {
    BitXor, bitxor, ^=;
    BitAnd, bitand, &=;
}

impl Plane {
    const ZERO: Plane = Plane([0; W]);

    /// Exchanges the bits of `x` at positions with bit `s` set in `mask << s` with the bits of
    /// `y` at positions in `mask`: one step of a bit-matrix transpose.
    #[inline(always)]
    fn swap(x: Plane, y: Plane, s: u32, mask: u64) -> (Plane, Plane) {
        let (mut x, mut y) = (x, y);
        for l in 0..W {
            let t = ((x.0[l] >> s) ^ y.0[l]) & mask;
            x.0[l] ^= t << s;
            y.0[l] ^= t;
        }
        (x, y)
    }
}

/// Three steps of the transpose (shifts 4s, 2s and s) on eight rows.
#[inline(always)]
fn three_steps(r: [Plane; 8], s: u32, masks: [u64; 3]) -> [Plane; 8] {
    let [r0, r1, r2, r3, r4, r5, r6, r7] = r;
    let (r0, r4) = Plane::swap(r0, r4, 4 * s, masks[0]);
    let (r1, r5) = Plane::swap(r1, r5, 4 * s, masks[0]);
    let (r2, r6) = Plane::swap(r2, r6, 4 * s, masks[0]);
    let (r3, r7) = Plane::swap(r3, r7, 4 * s, masks[0]);
    let (r0, r2) = Plane::swap(r0, r2, 2 * s, masks[1]);
    let (r1, r3) = Plane::swap(r1, r3, 2 * s, masks[1]);
    let (r4, r6) = Plane::swap(r4, r6, 2 * s, masks[1]);
    let (r5, r7) = Plane::swap(r5, r7, 2 * s, masks[1]);
    let (r0, r1) = Plane::swap(r0, r1, s, masks[2]);
    let (r2, r3) = Plane::swap(r2, r3, s, masks[2]);
    let (r4, r5) = Plane::swap(r4, r5, s, masks[2]);
    let (r6, r7) = Plane::swap(r6, r7, s, masks[2]);
    [r0, r1, r2, r3, r4, r5, r6, r7]
}

/// Transposes the 64×64 bit matrix of each lane: afterwards `a[c]` bit r is what `a[r]` bit
/// c was (its own inverse).
#[inline(always)]
fn transpose(a: &mut [Plane; 64]) {
    for r in 0..8 {
        let rows = std::array::from_fn(|i| a[r + 8 * i]);
        let rows = three_steps(
            rows,
            8,
            [
                0x0000_0000_ffff_ffff,
                0x0000_ffff_0000_ffff,
                0x00ff_00ff_00ff_00ff,
            ],
        );
        for (i, row) in rows.into_iter().enumerate() {
            a[r + 8 * i] = row;
        }
    }
    for g in 0..8 {
        let rows = std::array::from_fn(|i| a[8 * g + i]);
        let rows = three_steps(
            rows,
            1,
            [
                0x0f0f_0f0f_0f0f_0f0f,
                0x3333_3333_3333_3333,
                0x5555_5555_5555_5555,
            ],
        );
        a[8 * g..8 * g + 8].copy_from_slice(&rows);
    }
}

/// `x ⊗ 2^(n−1)` in the field of the nimbers below 2^n, for n = 1.
#[inline(always)]
fn half1(x: &[Plane; 1]) -> [Plane; 1] {
    *x
}

/// `a ⊗ b` for a, b below 2.
#[inline(always)]
fn mul1(a: &[Plane; 1], b: &[Plane; 1]) -> [Plane; 1] {
    [a[0] & b[0]]
}

/// Defines the product and the multiplication by half the Fermat power (`x ⊗ 2^(n−1)`) of the
/// n-bit field from those of the n/2-bit field, all unrolled (for n ≤ 8).
macro_rules! unrolled_level {
    ($mul:ident, $half:ident, $n:literal, $h:literal, $sub_mul:ident, $sub_half:ident) => {
        /// `x ⊗ 2^(n−1)`: with U = 2^(n/2) and G = 2^(n/2 − 1), x ⊗ U ⊗ G =
        /// ((x1 ⊕ x0) ⊗ G)·U ⊕ x1 ⊗ G ⊗ G, since U ⊗ U = U ⊕ G.
        #[inline(always)]
        fn $half(x: &[Plane; $n]) -> [Plane; $n] {
            let x1: [Plane; $h] = std::array::from_fn(|i| x[i + $h]);
            let s: [Plane; $h] = std::array::from_fn(|i| x[i] ^ x[i + $h]);
            let hi = $sub_half(&s);
            let lo = $sub_half(&$sub_half(&x1));
            std::array::from_fn(|i| if i < $h { lo[i] } else { hi[i - $h] })
        }

        /// `a ⊗ b` by Karatsuba on the halves.
        #[inline(always)]
        fn $mul(a: &[Plane; $n], b: &[Plane; $n]) -> [Plane; $n] {
            let (a0, a1): ([Plane; $h], [Plane; $h]) = (
                std::array::from_fn(|i| a[i]),
                std::array::from_fn(|i| a[i + $h]),
            );
            let (b0, b1): ([Plane; $h], [Plane; $h]) = (
                std::array::from_fn(|i| b[i]),
                std::array::from_fn(|i| b[i + $h]),
            );
            let sa: [Plane; $h] = std::array::from_fn(|i| a0[i] ^ a1[i]);
            let sb: [Plane; $h] = std::array::from_fn(|i| b0[i] ^ b1[i]);
            let p0 = $sub_mul(&a0, &b0);
            let p1 = $sub_mul(&a1, &b1);
            let m = $sub_mul(&sa, &sb);
            let g = $sub_half(&p1);
            std::array::from_fn(|i| {
                if i < $h {
                    g[i] ^ p0[i]
                } else {
                    m[i - $h] ^ p0[i - $h]
                }
            })
        }
    };
}

unrolled_level!(mul2, half2, 2, 1, mul1, half1);
unrolled_level!(mul4, half4, 4, 2, mul2, half2);
unrolled_level!(mul8, half8, 8, 4, mul4, half4);

/// `x ⊗ 2^(n−1)` for n = 16, 32 (as in [`unrolled_level`]).
macro_rules! half_level {
    ($half:ident, $n:literal, $h:literal, $sub_half:ident) => {
        #[inline(always)]
        fn $half(x: &[Plane; $n]) -> [Plane; $n] {
            let x1: [Plane; $h] = std::array::from_fn(|i| x[i + $h]);
            let s: [Plane; $h] = std::array::from_fn(|i| x[i] ^ x[i + $h]);
            let hi = $sub_half(&s);
            let lo = $sub_half(&$sub_half(&x1));
            std::array::from_fn(|i| if i < $h { lo[i] } else { hi[i - $h] })
        }
    };
}

half_level!(half16, 16, 8, half8);
half_level!(half32, 32, 16, half16);

/// Working space of one looped level: Karatsuba's three products and the operands.
struct Level<const H: usize> {
    p: [[Plane; H]; 3],
    x: [Plane; H],
    y: [Plane; H],
}

impl<const H: usize> Level<H> {
    const ZERO: Level<H> = Level {
        p: [[Plane::ZERO; H]; 3],
        x: [Plane::ZERO; H],
        y: [Plane::ZERO; H],
    };
}

/// Working space of the looped levels (16, 32 and 64 bits), reused across blocks so that the
/// compiler keeps one copy of each level's code and clears nothing per block.
struct Scratch {
    l32: Level<32>,
    l16: Level<16>,
    l8: Level<8>,
}

/// Karatsuba operand `d` of a level: the low halves (0), the high halves (1) or their sum (2).
#[inline(always)]
fn operands<const H: usize>(
    a: &[Plane],
    b: &[Plane],
    d: usize,
    x: &mut [Plane; H],
    y: &mut [Plane; H],
) {
    match d {
        0 => {
            x.copy_from_slice(&a[..H]);
            y.copy_from_slice(&b[..H]);
        }
        1 => {
            x.copy_from_slice(&a[H..2 * H]);
            y.copy_from_slice(&b[H..2 * H]);
        }
        _ => {
            for i in 0..H {
                x[i] = a[i] ^ a[i + H];
                y[i] = b[i] ^ b[i + H];
            }
        }
    }
}

/// Combines Karatsuba's three products `[p0, p1, m]` of a level into `out`, given p1 ⊗ G.
#[inline(always)]
fn combine<const H: usize>(p: &[[Plane; H]; 3], half_p1: [Plane; H], out: &mut [Plane]) {
    for i in 0..H {
        out[i] = half_p1[i] ^ p[0][i];
        out[i + H] = p[2][i] ^ p[0][i];
    }
}

#[inline(always)]
fn mul16(a: &[Plane; 16], b: &[Plane; 16], l8: &mut Level<8>, out: &mut [Plane; 16]) {
    for d in 0..3 {
        operands(a, b, d, &mut l8.x, &mut l8.y);
        l8.p[d] = mul8(&l8.x, &l8.y);
    }
    combine(&l8.p, half8(&l8.p[1]), out);
}

#[inline(always)]
fn mul32(
    a: &[Plane; 32],
    b: &[Plane; 32],
    l16: &mut Level<16>,
    l8: &mut Level<8>,
    out: &mut [Plane; 32],
) {
    for d in 0..3 {
        operands(a, b, d, &mut l16.x, &mut l16.y);
        mul16(&l16.x, &l16.y, l8, &mut l16.p[d]);
    }
    combine(&l16.p, half16(&l16.p[1]), out);
}

#[inline(always)]
fn mul64(a: &[Plane; 64], b: &[Plane; 64], s: &mut Scratch, out: &mut [Plane; 64]) {
    let Scratch { l32, l16, l8 } = s;
    for d in 0..3 {
        operands(a, b, d, &mut l32.x, &mut l32.y);
        mul32(&l32.x, &l32.y, l16, l8, &mut l32.p[d]);
    }
    combine(&l32.p, half32(&l32.p[1]), out);
}

/// Loads a block: row r of lane l is word `W·r + l`.
#[inline(always)]
fn load(words: &[u64]) -> [Plane; 64] {
    std::array::from_fn(|r| Plane(std::array::from_fn(|l| words[W * r + l])))
}

/// `out[i] = a[i] ⊗ b[i]` for the [`BLOCK`] words of a block.
#[inline(always)]
fn mul_block(a: &[u64], b: &[u64], out: &mut [u64], s: &mut Scratch) {
    let (mut pa, mut pb) = (load(a), load(b));
    transpose(&mut pa);
    transpose(&mut pb);
    let mut p = [Plane::ZERO; 64];
    mul64(&pa, &pb, s, &mut p);
    transpose(&mut p);
    for (r, plane) in p.iter().enumerate() {
        out[W * r..W * r + W].copy_from_slice(&plane.0);
    }
}

/// `out[i] = a[i] ⊗ b[i]` over the shortest length, a block at a time; a tail of fewer than
/// `tail_block` words goes to `single`, a longer one through a zero-padded block.
#[inline(always)]
pub(crate) fn mul_slices(
    a: &[u64],
    b: &[u64],
    out: &mut [u64],
    tail_block: usize,
    single: impl Fn(u64, u64) -> u64,
) {
    let n = a.len().min(b.len()).min(out.len());
    let full = n / BLOCK * BLOCK;
    let mut s = Scratch {
        l32: Level::ZERO,
        l16: Level::ZERO,
        l8: Level::ZERO,
    };
    for i in (0..full).step_by(BLOCK) {
        mul_block(
            &a[i..i + BLOCK],
            &b[i..i + BLOCK],
            &mut out[i..i + BLOCK],
            &mut s,
        );
    }
    let rest = n - full;
    if rest >= tail_block {
        let (mut x, mut y, mut o) = ([0u64; BLOCK], [0u64; BLOCK], [0u64; BLOCK]);
        x[..rest].copy_from_slice(&a[full..n]);
        y[..rest].copy_from_slice(&b[full..n]);
        mul_block(&x, &y, &mut o, &mut s);
        out[full..n].copy_from_slice(&o[..rest]);
    } else {
        for i in full..n {
            out[i] = single(a[i], b[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nimber::mul_reference;

    #[test]
    fn transpose_moves_bit_r_of_row_c_to_bit_c_of_row_r() {
        let rows: Vec<u64> = (0..BLOCK as u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(i as u32))
            .collect();
        let mut a = load(&rows);
        transpose(&mut a);
        for r in 0..64 {
            for (c, plane) in a.iter().enumerate() {
                for l in 0..W {
                    assert_eq!(plane.0[l] >> r & 1, rows[W * r + l] >> c & 1, "{r} {c} {l}");
                }
            }
        }
        transpose(&mut a);
        assert_eq!(a, load(&rows));
    }

    #[test]
    fn the_half_maps_multiply_by_half_the_fermat_power() {
        let x: Vec<u64> = (0..BLOCK as u64)
            .map(|i| i.wrapping_mul(0xbf58_476d_1ce4_e5b9) >> 32)
            .collect();
        let mut p = load(&x);
        transpose(&mut p);
        let lo: [Plane; 32] = std::array::from_fn(|i| p[i]);
        let mut h: [Plane; 64] = [Plane::ZERO; 64];
        h[..32].copy_from_slice(&half32(&lo));
        transpose(&mut h);
        for (i, &v) in x.iter().enumerate() {
            let got = h[i / W].0[i % W];
            assert_eq!(got, mul_reference(v & 0xffff_ffff, 1 << 31), "{v}");
        }
    }
}
