//! The AVX2 batch path: the changes of basis as nibble-table lookups on byte planes (VPSHUFB),
//! the products as carry-less multiplies (PCLMULQDQ on 128-bit registers, or VPCLMULQDQ on
//! 256-bit ones), one formulation compiled for both.
//!
//! Thirty-two words sit in eight 256-bit registers. Within each 128-bit lane a byte transpose
//! turns the lane's sixteen words into eight planes: plane k holds byte k of each word. A
//! 64×64 bit matrix then maps planes to planes: output plane j is the XOR over input bytes k
//! and their two nibbles of a sixteen-entry table lookup (one VPSHUFB for 32 bytes). The
//! transpose back gives words again, which the carry-less multiply needs.
//!
//! Products of slices go through the nim field's tower instead of the polynomial field of
//! [`super::clmul`]: a nimber is `a₁·Y ⊕ a₀` with `Y = 2^32` and 32-bit halves, and
//! `Y ⊗ Y = Y ⊕ h` with `h = 2^31`. The halves change to GF(2)\[x\]/(q), `q` the minimal
//! polynomial of `h` over GF(2) (of degree 32, since `h` lies in no smaller subfield), by the
//! map sending `h^i` to `x^i`: so `h` becomes `x`. Then, by Karatsuba,
//! `(a₁Y + a₀)(b₁Y + b₀) = (m + p₀)·Y + (p₀ + x·p₁)` with `p₀ = a₀b₀`, `p₁ = a₁b₁` and
//! `m = (a₀ + a₁)(b₀ + b₁)`: three carry-less products, no reduction, since the change back
//! reads the unreduced 64-bit sums (reduction modulo `q` is linear too). Each half's change
//! touches only its own four planes, half the lookups of a whole word's. Three products a
//! word pay where VPCLMULQDQ gives two an instruction; with PCLMULQDQ alone the polynomial
//! field stays.

use super::clmul::{poly_mul_soft, FROM_POLY, TO_POLY};
use super::linear::LinearSolver;

/// A 64×64 bit matrix as nibble tables: `0[k][j][h]` maps nibble `h` of input byte `k` to
/// output byte `j`, sixteen entries repeated for both 128-bit lanes (4 KiB).
#[repr(C, align(32))]
pub(crate) struct PlaneTables([[[[u8; 32]; 2]; 8]; 8]);

/// The tables of the matrix with the given columns (images of bits 0..64).
const fn plane_tables(columns: &[u64; 64]) -> PlaneTables {
    let mut t = [[[[0u8; 32]; 2]; 8]; 8];
    let mut k = 0;
    while k < 8 {
        let mut h = 0;
        while h < 2 {
            let mut v = 0;
            while v < 16 {
                let mut image = 0u64;
                let mut bit = 0;
                while bit < 4 {
                    if v >> bit & 1 == 1 {
                        image ^= columns[8 * k + 4 * h + bit];
                    }
                    bit += 1;
                }
                let mut j = 0;
                while j < 8 {
                    let byte = (image >> (8 * j)) as u8;
                    t[k][j][h][v] = byte;
                    t[k][j][h][v + 16] = byte;
                    j += 1;
                }
                v += 1;
            }
            h += 1;
        }
        k += 1;
    }
    PlaneTables(t)
}

/// Nim basis to polynomial basis.
static TO: PlaneTables = plane_tables(&TO_POLY);
/// Polynomial basis to nim basis.
static FROM: PlaneTables = plane_tables(&FROM_POLY);

/// The image of `x` under the map with the given columns.
const fn apply_columns(columns: &[u64; 64], x: u64) -> u64 {
    let mut image = 0;
    let mut i = 0;
    while i < 64 {
        if x >> i & 1 == 1 {
            image ^= columns[i];
        }
        i += 1;
    }
    image
}

/// The nim product, through the polynomial field (for the tables).
const fn nim_mul_soft(a: u64, b: u64) -> u64 {
    apply_columns(
        &FROM_POLY,
        poly_mul_soft(apply_columns(&TO_POLY, a), apply_columns(&TO_POLY, b)),
    )
}

/// The columns of the tower's maps: nim halves to GF(2)\[x\]/(q) (each half on its own
/// 32 bits), and an unreduced product of up to 64 bits back to a 32-bit nim half.
const fn tower_columns() -> ([u64; 64], [u64; 64]) {
    // The powers h^0, …, h^32 of h = 2^31, and q from h^32 in terms of the others.
    let mut powers = [0u64; 33];
    powers[0] = 1;
    let mut solver = LinearSolver::new();
    let mut i = 1;
    while i <= 32 {
        powers[i] = nim_mul_soft(powers[i - 1], 1 << 31);
        i += 1;
    }
    i = 0;
    while i < 32 {
        solver.insert(powers[i], 1 << i);
        i += 1;
    }
    let q = match solver.solve(powers[32]) {
        Some(low) => (1u64 << 32) | low,
        None => panic!("h = 2^31 generates the nimbers below 2^32"),
    };
    let mut to = [0u64; 64];
    let mut j = 0;
    while j < 32 {
        to[j] = match solver.solve(1 << j) {
            Some(x) => x,
            None => panic!("the powers of h span the nimbers below 2^32"),
        };
        to[j + 32] = to[j] << 32;
        j += 1;
    }
    // x^j modulo q, then back to the nim basis by x^i ↦ h^i.
    let mut back = [0u64; 64];
    let mut power = 1u64;
    j = 0;
    while j < 64 {
        let mut i = 0;
        while i < 32 {
            if power >> i & 1 == 1 {
                back[j] ^= powers[i];
            }
            i += 1;
        }
        power <<= 1;
        if power >> 32 & 1 == 1 {
            power ^= q;
        }
        j += 1;
    }
    (to, back)
}

/// The tower's columns, computed once by the compiler.
const TOWER: ([u64; 64], [u64; 64]) = tower_columns();
/// Nim halves to the tower's polynomial halves (planes 0–3 and 4–7 apart).
static TOWER_TO: PlaneTables = plane_tables(&TOWER.0);
/// An unreduced product (eight planes) to a nim half (its table's outputs 0–3).
static TOWER_BACK: PlaneTables = plane_tables(&TOWER.1);

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    //! The kernels. Each entry point requires AVX2 and PCLMULQDQ, the `vpclmul` ones
    //! VPCLMULQDQ too: callers check [`crate::simd::Kernel::runs`] first.

    use super::{PlaneTables, FROM, TO, TOWER_BACK, TOWER_TO};
    use crate::nimber::clmul::{self, basis, reduce};
    use std::arch::x86_64::*;

    /// Thirty-two words: word `4q + l` in 64-bit lane `l` of register `q`.
    type Block = [__m256i; 8];

    /// Products of four pairs of words before reduction.
    pub(crate) trait Clmul4 {
        /// The 128-bit products of words 0 and 2 (`even`) and of words 1 and 3 (`odd`), each
        /// in its 128-bit lane as (low, high).
        ///
        /// # Safety
        /// The CPU must have the features of the flavour.
        unsafe fn mul4(a: __m256i, b: __m256i) -> (__m256i, __m256i);

        /// Whether slices multiply through the tower (three products a word, half the
        /// lookups), or through the polynomial field (one product and a reduction a word):
        /// the tower where two products come from one instruction.
        const TOWER: bool;
    }

    /// PCLMULQDQ: one product per instruction.
    pub(crate) struct Pclmul;
    /// VPCLMULQDQ: two products per instruction, one in each 128-bit lane.
    pub(crate) struct Vpclmul;

    impl Clmul4 for Pclmul {
        const TOWER: bool = false;

        #[inline(always)]
        unsafe fn mul4(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
            let (a0, a1) = (_mm256_castsi256_si128(a), _mm256_extracti128_si256::<1>(a));
            let (b0, b1) = (_mm256_castsi256_si128(b), _mm256_extracti128_si256::<1>(b));
            let even = _mm256_set_m128i(
                _mm_clmulepi64_si128::<0x00>(a1, b1),
                _mm_clmulepi64_si128::<0x00>(a0, b0),
            );
            let odd = _mm256_set_m128i(
                _mm_clmulepi64_si128::<0x11>(a1, b1),
                _mm_clmulepi64_si128::<0x11>(a0, b0),
            );
            (even, odd)
        }
    }

    impl Clmul4 for Vpclmul {
        const TOWER: bool = true;

        #[inline(always)]
        unsafe fn mul4(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
            (
                _mm256_clmulepi64_epi128::<0x00>(a, b),
                _mm256_clmulepi64_epi128::<0x11>(a, b),
            )
        }
    }

    /// Reduces the products of [`Clmul4::mul4`] modulo x^64 + x^4 + x^3 + x + 1: the four
    /// words in order.
    #[inline(always)]
    unsafe fn reduce4(even: __m256i, odd: __m256i) -> __m256i {
        let lo = _mm256_unpacklo_epi64(even, odd);
        let hi = _mm256_unpackhi_epi64(even, odd);
        // hi has degree at most 62; hi·x^64 ≡ hi·(x^4 + x^3 + x + 1), whose bits past x^63
        // (from hi's bits 60..62) fold once more: t = hi ⊕ (hi >> 61) ⊕ (hi >> 60), then
        // t·(x^4 + x^3 + x + 1), the doublings as additions (any vector port).
        let t = _mm256_xor_si256(
            hi,
            _mm256_xor_si256(_mm256_srli_epi64::<61>(hi), _mm256_srli_epi64::<60>(hi)),
        );
        let t3 = _mm256_slli_epi64::<3>(t);
        let folded = _mm256_xor_si256(
            _mm256_xor_si256(t, _mm256_add_epi64(t, t)),
            _mm256_xor_si256(t3, _mm256_add_epi64(t3, t3)),
        );
        _mm256_xor_si256(lo, folded)
    }

    #[inline(always)]
    unsafe fn load(p: *const u64) -> Block {
        let mut b = [_mm256_setzero_si256(); 8];
        for (q, r) in b.iter_mut().enumerate() {
            *r = _mm256_loadu_si256(p.add(4 * q).cast());
        }
        b
    }

    #[inline(always)]
    unsafe fn store(p: *mut u64, b: Block) {
        for (q, r) in b.into_iter().enumerate() {
            _mm256_storeu_si256(p.add(4 * q).cast(), r);
        }
    }

    /// Three rounds of unpacks on eight registers (`lo`/`hi` of the first, second and third
    /// unit width): registers paired (0, 1), (2, 3), … then (0, 2), (1, 3), … then (0, 4),
    /// (1, 5), …
    macro_rules! unpack_rounds {
        ($r:expr, $lo1:ident, $hi1:ident, $lo2:ident, $hi2:ident, $lo3:ident, $hi3:ident) => {{
            let r: Block = $r;
            let a = [
                $lo1(r[0], r[1]),
                $hi1(r[0], r[1]),
                $lo1(r[2], r[3]),
                $hi1(r[2], r[3]),
                $lo1(r[4], r[5]),
                $hi1(r[4], r[5]),
                $lo1(r[6], r[7]),
                $hi1(r[6], r[7]),
            ];
            let b = [
                $lo2(a[0], a[2]),
                $hi2(a[0], a[2]),
                $lo2(a[1], a[3]),
                $hi2(a[1], a[3]),
                $lo2(a[4], a[6]),
                $hi2(a[4], a[6]),
                $lo2(a[5], a[7]),
                $hi2(a[5], a[7]),
            ];
            [
                $lo3(b[0], b[4]),
                $hi3(b[0], b[4]),
                $lo3(b[1], b[5]),
                $hi3(b[1], b[5]),
                $lo3(b[2], b[6]),
                $hi3(b[2], b[6]),
                $lo3(b[3], b[7]),
                $hi3(b[3], b[7]),
            ]
        }};
    }

    /// Transposes the 8×8 matrix of 16-bit units in each 128-bit lane: unit u of register i
    /// goes to unit i of register u (its own inverse).
    #[inline(always)]
    unsafe fn transpose16(r: Block) -> Block {
        unpack_rounds!(
            r,
            _mm256_unpacklo_epi16,
            _mm256_unpackhi_epi16,
            _mm256_unpacklo_epi32,
            _mm256_unpackhi_epi32,
            _mm256_unpacklo_epi64,
            _mm256_unpackhi_epi64
        )
    }

    /// Words to planes: register k holds byte k of every word (in each lane, the lane's
    /// sixteen words in a fixed order).
    #[inline(always)]
    unsafe fn to_planes(r: Block) -> Block {
        // Unit u of each lane becomes (byte u of its first word, byte u of its second).
        let pair = _mm256_setr_epi8(
            0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15, //
            0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15,
        );
        let mut r = r;
        for x in &mut r {
            *x = _mm256_shuffle_epi8(*x, pair);
        }
        transpose16(r)
    }

    /// Planes to words, the inverse of [`to_planes`]: bytes k and k + 1 of each word side by
    /// side as 16-bit units, then four bytes as 32-bit units, then whole words (three rounds
    /// of unpacks, no byte shuffle).
    #[inline(always)]
    unsafe fn from_planes(p: Block) -> Block {
        unpack_rounds!(
            p,
            _mm256_unpacklo_epi8,
            _mm256_unpackhi_epi8,
            _mm256_unpacklo_epi16,
            _mm256_unpackhi_epi16,
            _mm256_unpacklo_epi32,
            _mm256_unpackhi_epi32
        )
    }

    /// Adds to `out[j + shift]`, for each output plane `j` of `outputs`, the part of `t`'s
    /// output plane `j` that input planes `first..first + 4` of `p` give. Four input planes
    /// at a time, so that their eight nibble planes fit in registers beside the outputs they
    /// add to (all sixteen nibbles at once spill).
    #[inline(always)]
    unsafe fn add_four(
        t: &PlaneTables,
        p: &Block,
        first: usize,
        outputs: std::ops::Range<usize>,
        shift: usize,
        out: &mut Block,
    ) {
        let low = _mm256_set1_epi8(0x0f);
        let mut nibbles = [_mm256_setzero_si256(); 8];
        for i in 0..4 {
            let plane = p[first + i];
            nibbles[2 * i] = _mm256_and_si256(plane, low);
            nibbles[2 * i + 1] = _mm256_and_si256(_mm256_srli_epi16::<4>(plane), low);
        }
        for j in outputs {
            let acc = &mut out[j + shift];
            for i in 0..4 {
                let k = first + i;
                let tl = _mm256_load_si256(t.0[k][j][0].as_ptr().cast());
                let th = _mm256_load_si256(t.0[k][j][1].as_ptr().cast());
                let v = _mm256_xor_si256(
                    _mm256_shuffle_epi8(tl, nibbles[2 * i]),
                    _mm256_shuffle_epi8(th, nibbles[2 * i + 1]),
                );
                *acc = _mm256_xor_si256(*acc, v);
            }
        }
    }

    /// The matrix of `t` on planes.
    #[inline(always)]
    unsafe fn apply(t: &PlaneTables, p: Block) -> Block {
        let mut out = [_mm256_setzero_si256(); 8];
        add_four(t, &p, 0, 0..8, 0, &mut out);
        add_four(t, &p, 4, 0..8, 0, &mut out);
        out
    }

    /// Both halves of 32 words to the tower's polynomial halves (each half's planes map to
    /// its own).
    #[inline(always)]
    unsafe fn to_tower(r: Block) -> Block {
        let p = to_planes(r);
        let mut out = [_mm256_setzero_si256(); 8];
        add_four(&TOWER_TO, &p, 0, 0..4, 0, &mut out);
        add_four(&TOWER_TO, &p, 4, 4..8, 0, &mut out);
        from_planes(out)
    }

    /// The matrix of `t` on 32 words.
    #[inline(always)]
    unsafe fn convert(t: &PlaneTables, r: Block) -> Block {
        from_planes(apply(t, to_planes(r)))
    }

    /// Below this many leftover products, a slice's tail is multiplied one at a time rather
    /// than as a padded block.
    const TAIL_BLOCK: usize = 8;

    /// The carry-less products of four pairs of words below 2^32 (each below 2^63), in order.
    #[inline(always)]
    unsafe fn mul4_narrow<C: Clmul4>(a: __m256i, b: __m256i) -> __m256i {
        let (even, odd) = C::mul4(a, b);
        _mm256_unpacklo_epi64(even, odd)
    }

    /// Thirty-two products: `o[i] = x[i] ⊗ y[i]` for i < 32.
    #[inline(always)]
    unsafe fn block<C: Clmul4>(x: *const u64, y: *const u64, o: *mut u64) {
        if C::TOWER {
            block_tower::<C>(x, y, o);
        } else {
            let (px, mut p) = (convert(&TO, load(x)), convert(&TO, load(y)));
            for q in 0..8 {
                let (even, odd) = C::mul4(px[q], p[q]);
                p[q] = reduce4(even, odd);
            }
            store(o, convert(&FROM, p));
        }
    }

    /// [`block`] through the tower (see the module's documentation).
    #[inline(always)]
    unsafe fn block_tower<C: Clmul4>(x: *const u64, y: *const u64, o: *mut u64) {
        let (a, b) = (to_tower(load(x)), to_tower(load(y)));
        let low = _mm256_set1_epi64x(0xffff_ffff);
        let (mut high, mut low_half) = ([_mm256_setzero_si256(); 8], [_mm256_setzero_si256(); 8]);
        for q in 0..8 {
            let (a0, b0) = (_mm256_and_si256(a[q], low), _mm256_and_si256(b[q], low));
            let (a1, b1) = (_mm256_srli_epi64::<32>(a[q]), _mm256_srli_epi64::<32>(b[q]));
            let p0 = mul4_narrow::<C>(a0, b0);
            let p1 = mul4_narrow::<C>(a1, b1);
            let m = mul4_narrow::<C>(_mm256_xor_si256(a0, a1), _mm256_xor_si256(b0, b1));
            high[q] = _mm256_xor_si256(m, p0);
            low_half[q] = _mm256_xor_si256(p0, _mm256_add_epi64(p1, p1));
        }
        // Each unreduced sum, 64 bits, back to a 32-bit nim half: the low halves to output
        // planes 0–3, the high ones to 4–7.
        let (high, low_half) = (to_planes(high), to_planes(low_half));
        let mut out = [_mm256_setzero_si256(); 8];
        for first in [0, 4] {
            add_four(&TOWER_BACK, &low_half, first, 0..4, 0, &mut out);
            add_four(&TOWER_BACK, &high, first, 0..4, 4, &mut out);
        }
        store(o, from_planes(out));
    }

    /// `out[i] = a[i] ⊗ b[i]` (equal lengths).
    #[inline(always)]
    unsafe fn mul_slices<C: Clmul4>(a: &[u64], b: &[u64], out: &mut [u64]) {
        let n = a.len().min(b.len()).min(out.len());
        let full = n / 32 * 32;
        for i in (0..full).step_by(32) {
            block::<C>(
                a.as_ptr().add(i),
                b.as_ptr().add(i),
                out.as_mut_ptr().add(i),
            );
        }
        let rest = n - full;
        if rest >= TAIL_BLOCK {
            let (mut x, mut y, mut o) = ([0u64; 32], [0u64; 32], [0u64; 32]);
            x[..rest].copy_from_slice(&a[full..n]);
            y[..rest].copy_from_slice(&b[full..n]);
            block::<C>(x.as_ptr(), y.as_ptr(), o.as_mut_ptr());
            out[full..n].copy_from_slice(&o[..rest]);
        } else {
            clmul::x86::mul_slices(basis(), &a[full..n], &b[full..n], &mut out[full..n]);
        }
    }

    /// The nim product of all of `xs`, in the polynomial basis throughout.
    #[inline(always)]
    unsafe fn product<C: Clmul4>(xs: &[u64]) -> u64 {
        let t = basis();
        let one = t.to_poly.apply(1);
        let mut acc = [_mm256_set1_epi64x(one as i64); 8];
        let full = xs.len() / 32 * 32;
        for i in (0..full).step_by(32) {
            let x = convert(&TO, load(xs.as_ptr().add(i)));
            for (a, &x) in acc.iter_mut().zip(&x) {
                let (even, odd) = C::mul4(*a, x);
                *a = reduce4(even, odd);
            }
        }
        let mut lanes = [0u64; 32];
        store(lanes.as_mut_ptr(), acc);
        let mut p = lanes.iter().fold(one, |p, &l| clmul::x86::poly_mul(p, l));
        for &x in &xs[full..] {
            p = clmul::x86::poly_mul(p, t.to_poly.apply(x));
        }
        t.from_poly.apply(p)
    }

    /// `⊕ a[i] ⊗ b[i]`: the products summed before one reduction (equal lengths).
    #[inline(always)]
    unsafe fn dot<C: Clmul4>(a: &[u64], b: &[u64]) -> u64 {
        let n = a.len().min(b.len());
        let full = n / 32 * 32;
        let mut sum = _mm256_setzero_si256();
        for i in (0..full).step_by(32) {
            let x = convert(&TO, load(a.as_ptr().add(i)));
            let y = convert(&TO, load(b.as_ptr().add(i)));
            for q in 0..8 {
                let (even, odd) = C::mul4(x[q], y[q]);
                sum = _mm256_xor_si256(sum, _mm256_xor_si256(even, odd));
            }
        }
        // Each 128-bit lane of `sum` is (low, high) of a sum of products.
        let mut halves = [0u64; 4];
        _mm256_storeu_si256(halves.as_mut_ptr().cast(), sum);
        let p = reduce(halves[1] ^ halves[3], halves[0] ^ halves[2]);
        basis().from_poly.apply(p) ^ clmul::x86::dot(basis(), &a[full..n], &b[full..n])
    }

    /// `xs[i] ← c ⊗ xs[i]`, with `c` converted once.
    #[inline(always)]
    unsafe fn scale<C: Clmul4>(c: u64, xs: &mut [u64]) {
        let cp = _mm256_set1_epi64x(basis().to_poly.apply(c) as i64);
        let full = xs.len() / 32 * 32;
        for i in (0..full).step_by(32) {
            let p = xs.as_mut_ptr().add(i);
            let mut x = convert(&TO, load(p));
            for r in &mut x {
                let (even, odd) = C::mul4(cp, *r);
                *r = reduce4(even, odd);
            }
            store(p, convert(&FROM, x));
        }
        clmul::x86::scale(basis(), c, &mut xs[full..]);
    }

    /// The entry points of one flavour, compiled with its target features.
    macro_rules! entry_points {
        ($flavour:ty, $features:literal, $mul:ident, $product:ident, $dot:ident, $scale:ident) => {
            /// `out[i] = a[i] ⊗ b[i]` over the shortest of the three lengths.
            ///
            /// # Safety
            /// The CPU must have the features this function is compiled with.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn $mul(a: &[u64], b: &[u64], out: &mut [u64]) {
                mul_slices::<$flavour>(a, b, out)
            }

            /// The nim product of all of `xs` (1 for none).
            ///
            /// # Safety
            /// The CPU must have the features this function is compiled with.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn $product(xs: &[u64]) -> u64 {
                product::<$flavour>(xs)
            }

            /// `⊕ a[i] ⊗ b[i]` over the shorter length.
            ///
            /// # Safety
            /// The CPU must have the features this function is compiled with.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn $dot(a: &[u64], b: &[u64]) -> u64 {
                dot::<$flavour>(a, b)
            }

            /// `xs[i] ← c ⊗ xs[i]`.
            ///
            /// # Safety
            /// The CPU must have the features this function is compiled with.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn $scale(c: u64, xs: &mut [u64]) {
                scale::<$flavour>(c, xs)
            }
        };
    }

    entry_points!(
        Pclmul,
        "avx2,pclmulqdq",
        mul_slices_pclmul,
        product_pclmul,
        dot_pclmul,
        scale_pclmul
    );
    entry_points!(
        Vpclmul,
        "avx2,pclmulqdq,vpclmulqdq",
        mul_slices_vpclmul,
        product_vpclmul,
        dot_vpclmul,
        scale_vpclmul
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nimber::mul_reference;

    /// The tower's maps: h = 2^31 becomes x, 1 stays 1, the high half's columns are the low
    /// half's shifted, and the way back inverts the way in on every bit of a half and gives
    /// nim products from carry-less ones.
    #[test]
    fn the_tower_sends_h_to_x_and_comes_back() {
        let (to, back) = TOWER;
        assert_eq!(to[0], 1);
        assert_eq!(to[31], 2);
        for j in 0..32 {
            assert_eq!(to[j + 32], to[j] << 32);
            assert_eq!(apply_columns(&back, to[j]), 1 << j, "bit {j}");
        }
        // a ⊗ b for halves a, b below 2^32: the way back of the carry-less product (below
        // 2^63, so its low word is all of it).
        let clmul = |a: u64, b: u64| crate::nimber::clmul::clmul_soft(a, b).1;
        for (a, b) in [
            (3u64, 5u64),
            (1 << 31, 1 << 31),
            (0xdead_beef, 0x1234_5678),
            (u32::MAX.into(), 7),
        ] {
            let product = clmul(apply_columns(&to, a), apply_columns(&to, b));
            assert_eq!(
                apply_columns(&back, product),
                mul_reference(a, b),
                "{a:#x} ⊗ {b:#x}"
            );
        }
    }
}
