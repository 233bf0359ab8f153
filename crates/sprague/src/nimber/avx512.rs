//! The wide batch path: eight products at a time in 512-bit registers. The basis changes are
//! 64×64 bit matrices applied with GFNI affine transforms on 8×8 bit blocks, the products are
//! VPCLMULQDQ (four carry-less products per instruction) and the reduction is shifts and XORs.
//!
//! A 64×64 matrix on eight words: split it into 8×8 blocks A(j, i) (input byte i to output
//! byte j). For d = 0..8, a byte permutation puts byte (j + d) mod 8 of word v at byte v of
//! lane j; one affine transform with A(j, (j + d) mod 8) in lane j and an XOR accumulate
//! output byte j of word v at byte v of lane j; one more permutation transposes back.

use super::clmul::basis;
use super::linear::ByteMatrix;
use std::sync::OnceLock;

/// The eight affine matrices of a 64×64 map: `blocks[d][j]` is A(j, (j + d) mod 8) in the
/// GFNI layout (byte 7 − b holds the row of output bit b).
pub(crate) type Blocks = [[u64; 8]; 8];

/// The GFNI form of a linear map.
pub(crate) fn blocks(m: &ByteMatrix) -> Blocks {
    std::array::from_fn(|d| {
        std::array::from_fn(|j| {
            let i = (j + d) % 8;
            let mut a = 0u64;
            for b in 0..8 {
                let mut row = 0u64;
                for c in 0..8 {
                    row |= (m.column(8 * i + c) >> (8 * j + b) & 1) << c;
                }
                a |= row << (8 * (7 - b));
            }
            a
        })
    })
}

/// Both basis changes in the GFNI form.
pub(crate) struct WideBasis {
    pub(crate) to_poly: Blocks,
    pub(crate) from_poly: Blocks,
    /// The byte permutations of [`permutations`].
    pub(crate) perm: [[u8; 64]; 9],
}

/// Built on first use from [`basis`].
pub(crate) fn wide_basis() -> &'static WideBasis {
    static WIDE: OnceLock<WideBasis> = OnceLock::new();
    WIDE.get_or_init(|| {
        let t = basis();
        WideBasis {
            to_poly: blocks(&t.to_poly),
            from_poly: blocks(&t.from_poly),
            perm: permutations(),
        }
    })
}

/// Byte permutation indices: `rotations[d]` gathers byte (j + d) mod 8 of word v into byte
/// 8j + v; the last entry transposes back (byte 8j + v to byte 8v + j).
fn permutations() -> [[u8; 64]; 9] {
    std::array::from_fn(|d| {
        std::array::from_fn(|k| {
            let (hi, lo) = (k / 8, k % 8);
            if d < 8 {
                (8 * lo + (hi + d) % 8) as u8
            } else {
                (8 * lo + hi) as u8
            }
        })
    })
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    //! The AVX-512 kernels. Every function requires the features that
    //! `Kernel::NimberProducts` needs for `Simd::Avx512` (`crate::simd`).

    use super::{Blocks, WideBasis};
    use crate::nimber::clmul::{self, Basis};
    use std::arch::x86_64::*;

    /// Constants loaded into registers once per call.
    struct Regs {
        perm: [__m512i; 9],
        to: [__m512i; 8],
        from: [__m512i; 8],
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn load(x: &[u64; 8]) -> __m512i {
        _mm512_loadu_si512(x.as_ptr().cast())
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni,vpclmulqdq")]
    unsafe fn regs(w: &WideBasis) -> Regs {
        let perm = std::array::from_fn(|d| _mm512_loadu_si512(w.perm[d].as_ptr().cast()));
        let mats = |b: &Blocks| std::array::from_fn(|d| load(&b[d]));
        Regs {
            perm,
            to: mats(&w.to_poly),
            from: mats(&w.from_poly),
        }
    }

    /// The linear map with blocks `m` on each of eight words.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
    unsafe fn apply(r: &Regs, m: &[__m512i; 8], x: __m512i) -> __m512i {
        let mut acc = _mm512_setzero_si512();
        for (p, a) in r.perm[..8].iter().zip(m) {
            let y = _mm512_gf2p8affine_epi64_epi8::<0>(_mm512_permutexvar_epi8(*p, x), *a);
            acc = _mm512_xor_si512(acc, y);
        }
        _mm512_permutexvar_epi8(r.perm[8], acc)
    }

    /// Eight products in the polynomial basis.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,vpclmulqdq")]
    unsafe fn poly_mul8(a: __m512i, b: __m512i) -> __m512i {
        let even = _mm512_clmulepi64_epi128::<0x00>(a, b);
        let odd = _mm512_clmulepi64_epi128::<0x11>(a, b);
        let lo = _mm512_unpacklo_epi64(even, odd);
        let hi = _mm512_unpackhi_epi64(even, odd);
        // x^64 ≡ x^4 + x^3 + x + 1, folded twice (as in `clmul::reduce`).
        let spill = _mm512_xor_si512(
            _mm512_srli_epi64::<63>(hi),
            _mm512_xor_si512(_mm512_srli_epi64::<61>(hi), _mm512_srli_epi64::<60>(hi)),
        );
        let t = _mm512_xor_si512(hi, spill);
        let folded = _mm512_xor_si512(
            _mm512_xor_si512(t, _mm512_slli_epi64::<1>(t)),
            _mm512_xor_si512(_mm512_slli_epi64::<3>(t), _mm512_slli_epi64::<4>(t)),
        );
        _mm512_xor_si512(lo, folded)
    }

    /// `out[i] = a[i] ⊗ b[i]`: eight at a time, the tail one at a time.
    ///
    /// # Safety
    /// The CPU must have the features of the module; the slices have equal length.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni,vpclmulqdq,pclmulqdq")]
    pub(crate) unsafe fn mul_slices(
        w: &WideBasis,
        t: &Basis,
        a: &[u64],
        b: &[u64],
        out: &mut [u64],
    ) {
        let r = regs(w);
        let n = a.len() / 8 * 8;
        for i in (0..n).step_by(8) {
            let x = apply(&r, &r.to, _mm512_loadu_si512(a.as_ptr().add(i).cast()));
            let y = apply(&r, &r.to, _mm512_loadu_si512(b.as_ptr().add(i).cast()));
            let p = apply(&r, &r.from, poly_mul8(x, y));
            _mm512_storeu_si512(out.as_mut_ptr().add(i).cast(), p);
        }
        clmul::x86::mul_slices(t, &a[n..], &b[n..], &mut out[n..]);
    }

    /// `xs[i] ← c ⊗ xs[i]`.
    ///
    /// # Safety
    /// The CPU must have the features of the module.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni,vpclmulqdq,pclmulqdq")]
    pub(crate) unsafe fn scale(w: &WideBasis, t: &Basis, c: u64, xs: &mut [u64]) {
        let r = regs(w);
        let cp = _mm512_set1_epi64(t.to_poly.apply(c) as i64);
        let n = xs.len() / 8 * 8;
        for i in (0..n).step_by(8) {
            let p = xs.as_mut_ptr().add(i);
            let x = apply(&r, &r.to, _mm512_loadu_si512(p.cast()));
            _mm512_storeu_si512(p.cast(), apply(&r, &r.from, poly_mul8(cp, x)));
        }
        clmul::x86::scale(t, c, &mut xs[n..]);
    }

    /// The nim product of all of `xs`, staying in the polynomial basis.
    ///
    /// # Safety
    /// The CPU must have the features of the module.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni,vpclmulqdq,pclmulqdq")]
    pub(crate) unsafe fn product(w: &WideBasis, t: &Basis, xs: &[u64]) -> u64 {
        let r = regs(w);
        let mut acc = _mm512_set1_epi64(t.to_poly.apply(1) as i64);
        let n = xs.len() / 8 * 8;
        for i in (0..n).step_by(8) {
            let x = apply(&r, &r.to, _mm512_loadu_si512(xs.as_ptr().add(i).cast()));
            acc = poly_mul8(acc, x);
        }
        let mut lanes = [0u64; 8];
        _mm512_storeu_si512(lanes.as_mut_ptr().cast(), acc);
        let mut p = lanes
            .iter()
            .fold(t.to_poly.apply(1), |p, &l| clmul::x86::poly_mul(p, l));
        for &x in &xs[n..] {
            p = clmul::x86::poly_mul(p, t.to_poly.apply(x));
        }
        t.from_poly.apply(p)
    }

    /// `⊕ a[i] ⊗ b[i]`, reducing once per lane.
    ///
    /// # Safety
    /// The CPU must have the features of the module; the slices have equal length.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni,vpclmulqdq,pclmulqdq")]
    pub(crate) unsafe fn dot(w: &WideBasis, t: &Basis, a: &[u64], b: &[u64]) -> u64 {
        let r = regs(w);
        let mut acc = _mm512_setzero_si512();
        let n = a.len() / 8 * 8;
        for i in (0..n).step_by(8) {
            let x = apply(&r, &r.to, _mm512_loadu_si512(a.as_ptr().add(i).cast()));
            let y = apply(&r, &r.to, _mm512_loadu_si512(b.as_ptr().add(i).cast()));
            acc = _mm512_xor_si512(acc, poly_mul8(x, y));
        }
        let mut lanes = [0u64; 8];
        _mm512_storeu_si512(lanes.as_mut_ptr().cast(), acc);
        let p = lanes.iter().fold(0, |s, l| s ^ l);
        t.from_poly.apply(p) ^ clmul::x86::dot(t, &a[n..], &b[n..])
    }
}
