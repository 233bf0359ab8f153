//! The fast path: a GF(2)-linear change of basis from the nim field to
//! GF(2)\[x\]/(x^64 + x^4 + x^3 + x + 1), one carry-less multiply (PCLMULQDQ) there, and back.
//!
//! The basis change is computed once from the recursive definition of the field: the nimber
//! 2^(2^k) is a root of z² + z + (2^(2^k − 1)) over the subfield below it, so we pick roots
//! w_k of the same quadratics in the polynomial field, and the image of 2^i is the product of
//! the w_k over the set bits k of i.

use super::linear::{ByteMatrix, LinearSolver};

/// Reduces a 128-bit product `hi·x^64 + lo` modulo the field polynomial.
#[inline(always)]
pub(crate) const fn reduce(hi: u64, lo: u64) -> u64 {
    // x^64 ≡ x^4 + x^3 + x + 1, so hi·x^64 ≡ hi·(x^4 + x^3 + x + 1); the bits that spill past
    // x^63 (at most four) are folded once more.
    let spill = (hi >> 63) ^ (hi >> 61) ^ (hi >> 60);
    let folded = hi ^ (hi << 1) ^ (hi << 3) ^ (hi << 4);
    lo ^ folded ^ spill ^ (spill << 1) ^ (spill << 3) ^ (spill << 4)
}

/// Carry-less 64×64 → 128-bit product in software: for the tables and the portable checks.
pub(crate) const fn clmul_soft(a: u64, b: u64) -> (u64, u64) {
    let (mut hi, mut lo) = (0u64, 0u64);
    let mut i = 0;
    while i < 64 {
        if b >> i & 1 == 1 {
            lo ^= a << i;
            if i > 0 {
                hi ^= a >> (64 - i);
            }
        }
        i += 1;
    }
    (hi, lo)
}

/// Product in the polynomial field, in software.
pub(crate) const fn poly_mul_soft(a: u64, b: u64) -> u64 {
    let (hi, lo) = clmul_soft(a, b);
    reduce(hi, lo)
}

/// The change-of-basis tables, both directions.
pub(crate) struct Basis {
    /// Nim basis → polynomial basis.
    pub(crate) to_poly: ByteMatrix,
    /// Polynomial basis → nim basis.
    pub(crate) from_poly: ByteMatrix,
}

/// The tables, computed by the compiler (a `static`: no initialisation check at run time).
static BASIS: Basis = build_basis();

/// The change-of-basis tables.
#[inline(always)]
pub(crate) fn basis() -> &'static Basis {
    &BASIS
}

/// The images of the nim basis 2^0, …, 2^63 in the polynomial field.
pub(crate) const fn poly_images() -> [u64; 64] {
    // z ↦ z² + z is GF(2)-linear; record its values on the unit vectors to solve quadratics.
    let mut solver = LinearSolver::new();
    let mut i = 0;
    while i < 64 {
        let e = 1u64 << i;
        solver.insert(poly_mul_soft(e, e) ^ e, e);
        i += 1;
    }
    let mut w = [0u64; 6];
    let mut below = 1u64; // image of 2^(2^k − 1) = w_0 · … · w_(k−1)
    let mut k = 0;
    while k < 6 {
        w[k] = match solver.solve(below) {
            Some(root) => root,
            None => panic!("z² + z = image of 2^(2^k - 1) has a root"),
        };
        below = poly_mul_soft(below, w[k]);
        k += 1;
    }
    let mut images = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let mut p = 1u64;
        let mut k = 0;
        while k < 6 {
            if i >> k & 1 == 1 {
                p = poly_mul_soft(p, w[k]);
            }
            k += 1;
        }
        images[i] = p;
        i += 1;
    }
    images
}

/// The columns of the change to the polynomial basis: the images of 2^0, …, 2^63.
pub(crate) const TO_POLY: [u64; 64] = poly_images();

/// The columns of the change back: the nimbers whose images are x^0, …, x^63.
pub(crate) const FROM_POLY: [u64; 64] = inverse_columns(&TO_POLY);

/// The columns of the inverse of the invertible map with columns `images`.
const fn inverse_columns(images: &[u64; 64]) -> [u64; 64] {
    let mut inverse = LinearSolver::new();
    let mut i = 0;
    while i < 64 {
        inverse.insert(images[i], 1u64 << i);
        i += 1;
    }
    let mut back = [0u64; 64];
    let mut j = 0;
    while j < 64 {
        back[j] = match inverse.solve(1u64 << j) {
            Some(x) => x,
            None => panic!("the change of basis is invertible"),
        };
        j += 1;
    }
    back
}

const fn build_basis() -> Basis {
    Basis {
        to_poly: ByteMatrix::from_columns(&TO_POLY),
        from_poly: ByteMatrix::from_columns(&FROM_POLY),
    }
}

/// Whether this CPU has the carry-less multiply instruction (checked once, then cached).
#[cfg(target_arch = "x86_64")]
pub fn is_available() -> bool {
    std::arch::is_x86_feature_detected!("pclmulqdq")
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    //! The PCLMULQDQ kernels. Every function here requires the `pclmulqdq` feature: callers
    //! check [`super::is_available`] first.

    use super::{reduce, Basis};
    use std::arch::x86_64::{
        __m128i, _mm_clmulepi64_si128, _mm_cvtsi128_si64, _mm_set_epi64x, _mm_unpackhi_epi64,
        _mm_xor_si128,
    };

    /// Carry-less product of two 64-bit polynomials.
    ///
    /// # Safety
    /// The CPU must support `pclmulqdq`.
    #[inline]
    #[target_feature(enable = "pclmulqdq")]
    pub(crate) unsafe fn clmul(a: u64, b: u64) -> (u64, u64) {
        let x: __m128i = _mm_set_epi64x(0, a as i64);
        let y: __m128i = _mm_set_epi64x(0, b as i64);
        let p = _mm_clmulepi64_si128::<0x00>(x, y);
        let lo = _mm_cvtsi128_si64(p) as u64;
        let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(p, p)) as u64;
        (hi, lo)
    }

    /// Product in the polynomial basis, reduced with two more carry-less multiplies by
    /// x^4 + x^3 + x + 1 (fewer instructions than the shifts of [`reduce`]).
    ///
    /// # Safety
    /// The CPU must support `pclmulqdq`.
    #[inline]
    #[target_feature(enable = "pclmulqdq")]
    pub(crate) unsafe fn poly_mul(a: u64, b: u64) -> u64 {
        let tail = _mm_set_epi64x(0, 0x1b);
        let p =
            _mm_clmulepi64_si128::<0x00>(_mm_set_epi64x(0, a as i64), _mm_set_epi64x(0, b as i64));
        // hi·x^64 ≡ hi·(x^4 + x^3 + x + 1): at most 68 bits; the 4 above x^63 fold once more.
        let q = _mm_clmulepi64_si128::<0x01>(p, tail);
        let r = _mm_clmulepi64_si128::<0x01>(q, tail);
        _mm_cvtsi128_si64(_mm_xor_si128(_mm_xor_si128(p, q), r)) as u64
    }

    /// One nim product.
    ///
    /// # Safety
    /// The CPU must support `pclmulqdq`.
    #[target_feature(enable = "pclmulqdq")]
    pub(crate) unsafe fn mul(t: &Basis, a: u64, b: u64) -> u64 {
        t.from_poly
            .apply(poly_mul(t.to_poly.apply(a), t.to_poly.apply(b)))
    }

    /// `out[i] = a[i] ⊗ b[i]`.
    ///
    /// # Safety
    /// The CPU must support `pclmulqdq`.
    #[target_feature(enable = "pclmulqdq")]
    pub(crate) unsafe fn mul_slices(t: &Basis, a: &[u64], b: &[u64], out: &mut [u64]) {
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            *o = t
                .from_poly
                .apply(poly_mul(t.to_poly.apply(x), t.to_poly.apply(y)));
        }
    }

    /// `out[i] = a[i] · b[i]` in the polynomial basis.
    ///
    /// # Safety
    /// The CPU must support `pclmulqdq`.
    #[target_feature(enable = "pclmulqdq")]
    pub(crate) unsafe fn poly_mul_slices(a: &[u64], b: &[u64], out: &mut [u64]) {
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            *o = poly_mul(x, y);
        }
    }

    /// `⊕ a[i] ⊗ b[i]`, staying in the polynomial basis and reducing once.
    ///
    /// # Safety
    /// The CPU must support `pclmulqdq`.
    #[target_feature(enable = "pclmulqdq")]
    pub(crate) unsafe fn dot(t: &Basis, a: &[u64], b: &[u64]) -> u64 {
        let (mut hi, mut lo) = (0u64, 0u64);
        for (&x, &y) in a.iter().zip(b) {
            let (h, l) = clmul(t.to_poly.apply(x), t.to_poly.apply(y));
            hi ^= h;
            lo ^= l;
        }
        t.from_poly.apply(reduce(hi, lo))
    }

    /// `xs[i] ← c ⊗ xs[i]`, with `c` converted once.
    ///
    /// # Safety
    /// The CPU must support `pclmulqdq`.
    #[target_feature(enable = "pclmulqdq")]
    pub(crate) unsafe fn scale(t: &Basis, c: u64, xs: &mut [u64]) {
        let cp = t.to_poly.apply(c);
        for x in xs {
            *x = t.from_poly.apply(poly_mul(cp, t.to_poly.apply(*x)));
        }
    }
}
