//! Nimbers: Conway's field on 64-bit words.
//!
//! Nim addition is XOR. Nim multiplication is defined by x ⊗ y = mex{x'⊗y ⊕ x⊗y' ⊕ x'⊗y' :
//! x' < x, y' < y}; on the numbers below 2^64 it makes a field of 2^64 elements. For x, y below
//! a Fermat 2-power F = 2^(2^k): x ⊗ F = x·F and F ⊗ F = F ⊕ F/2, which gives the recursive
//! [`mul_reference`].
//!
//! Fast products ([`mul`], the `*` of [`Nimber`]) use the carry-less multiply instruction when
//! the CPU has it: a GF(2)-linear change of basis to GF(2)\[x\]/(x^64 + x^4 + x^3 + x + 1),
//! computed once from the recursive definition, one PCLMULQDQ and a reduction there, and the
//! change back. Otherwise they use log/exp tables of the 16-bit subfield with Karatsuba.
//!
//! Slices ([`mul_slices`], [`product`], [`dot`], [`scale`], or a [`Multiplier`] for many calls)
//! take an instruction-set path, a [`Simd`] value ([`Simd::Auto`] for the best this CPU runs):
//! - [`Simd::Portable`]: bit-sliced products, 128 at a time, in plain Rust that the compiler
//!   vectorises for any target;
//! - [`Simd::Avx2`] and [`Simd::Avx2Vpclmul`]: the basis changes as nibble-table lookups
//!   (VPSHUFB) on 32 words at a time, the products with PCLMULQDQ, or VPCLMULQDQ four at a
//!   time (where [`mul_slices`] goes through the nim field's tower of 32-bit halves instead,
//!   with half the lookups);
//! - [`Simd::Avx512`]: the basis changes as GFNI affine transforms, VPCLMULQDQ on 512-bit
//!   registers (needs VBMI, GFNI and VPCLMULQDQ too: [`Kernel::NimberProducts`] says which
//!   paths this CPU runs).
//!
//! [`product`], [`dot`] and [`scale`] stay in the polynomial basis where they can.
//!
//! ```
//! use sprague::nimber::Nimber;
//! let two = Nimber(2);
//! assert_eq!(two * two, Nimber(3));
//! assert_eq!(Nimber(16) * Nimber(16), Nimber(24)); // F ⊗ F = 3/2·F
//! assert_eq!((Nimber(5) * Nimber(9)) / Nimber(9), Nimber(5));
//! assert_eq!(Nimber(3).sqrt() * Nimber(3).sqrt(), Nimber(3));
//! ```

#[cfg(target_arch = "x86_64")]
mod avx512;
mod bitslice;
mod clmul;
mod io;
mod linear;
#[cfg(target_arch = "x86_64")]
mod planes;
mod portable;

pub use io::mul_batch;

use crate::simd::{Kernel, Simd};
use linear::{ByteMatrix, LinearSolver};
use rayon::prelude::*;
use std::fmt;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Sub, SubAssign};
use std::str::FromStr;
use std::sync::OnceLock;

/// A nimber below 2^64: an element of the nim field of 2^64 elements.
///
/// `+` and `-` are XOR, `*` is the nim product, `/` multiplies by [`Nimber::inverse`] and panics
/// on division by zero (use [`Nimber::checked_div`] to avoid that). `Display` prints the number
/// in decimal; `FromStr` reads decimal, `0x` hexadecimal, and an optional leading `*` (the
/// nimber `*5` is the number 5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nimber(pub u64);

/// Nim products along one instruction-set path, checked against this CPU once: for many
/// calls in a row (the functions [`mul_slices`], [`product`], [`dot`] and [`scale`] check at
/// every call).
///
/// ```
/// use sprague::nimber::Multiplier;
/// use sprague::simd::{Kernel, Simd};
/// for path in Kernel::NimberProducts.available() {
///     let m = Multiplier::new(path)?;
///     let mut out = [0; 3];
///     m.mul_slices(&[2, 3, 16], &[2, 3, 16], &mut out)?;
///     assert_eq!(out, [3, 2, 24]);
///     assert_eq!(m.mul(16, 16), 24);
/// }
/// # Ok::<(), sprague::nimber::SliceError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Multiplier {
    /// A concrete path of [`Kernel::NimberProducts`] that this CPU runs.
    path: Simd,
    /// Parts a long slice is split into, run on the current rayon pool (at least 1).
    threads: usize,
}

/// Products below which a slice is not split between threads: handing a part to another
/// thread costs microseconds, a few thousand products.
const PARALLEL_PART: usize = 1 << 14;

/// Why a slice operation was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SliceError {
    /// The slices differ in length.
    #[error("the slices differ in length ({0})")]
    Lengths(String),
    /// This CPU does not run the requested path.
    #[error("this CPU does not run the {path} path of nimber products (it runs {available})")]
    Unsupported {
        /// The path asked for.
        path: Simd,
        /// The paths this CPU runs, comma-separated.
        available: String,
    },
}

/// Checks that the lengths are equal.
fn same_lengths(lengths: &[usize]) -> Result<(), SliceError> {
    if lengths.windows(2).all(|w| w[0] == w[1]) {
        Ok(())
    } else {
        let list: Vec<String> = lengths.iter().map(usize::to_string).collect();
        Err(SliceError::Lengths(list.join(", ")))
    }
}

impl Multiplier {
    /// The multiplier of `path` ([`Simd::Auto`]: the best this CPU runs).
    ///
    /// # Errors
    /// [`SliceError::Unsupported`] when this CPU does not run the path.
    pub fn new(path: Simd) -> Result<Multiplier, SliceError> {
        let kernel = Kernel::NimberProducts;
        let path = kernel.resolve(path);
        if kernel.runs(path) {
            Ok(Multiplier { path, threads: 1 })
        } else {
            let available: Vec<&str> = kernel.available().iter().map(|p| p.name()).collect();
            Err(SliceError::Unsupported {
                path,
                available: available.join(", "),
            })
        }
    }

    /// The fastest path this CPU runs (detected at run time, then cached).
    pub fn best() -> Multiplier {
        static BEST: OnceLock<Multiplier> = OnceLock::new();
        *BEST.get_or_init(|| {
            Multiplier::new(Simd::Auto).unwrap_or(Multiplier {
                path: Simd::Portable,
                threads: 1,
            })
        })
    }

    /// The path (never [`Simd::Auto`]).
    pub fn path(self) -> Simd {
        self.path
    }

    /// The same path, with the slice calls ([`Multiplier::mul_slices`], [`Multiplier::product`],
    /// [`Multiplier::dot`], [`Multiplier::scale`]) splitting a long slice into up to `threads`
    /// parts of at least 16,384 elements, run on the current rayon pool (0 counts as 1, the
    /// default: the calling thread alone).
    ///
    /// ```
    /// use sprague::nimber::Multiplier;
    /// let xs: Vec<u64> = (1..=100_000).collect();
    /// let mut one = vec![0; xs.len()];
    /// let mut two = vec![0; xs.len()];
    /// Multiplier::best().mul_slices(&xs, &xs, &mut one)?;
    /// Multiplier::best().threads(2).mul_slices(&xs, &xs, &mut two)?;
    /// assert_eq!(one, two);
    /// # Ok::<(), sprague::nimber::SliceError>(())
    /// ```
    pub fn threads(self, threads: usize) -> Multiplier {
        Multiplier {
            threads: threads.max(1),
            ..self
        }
    }

    /// The length of each part when a slice of `len` is split, or `None` to keep it whole.
    fn part(self, len: usize) -> Option<usize> {
        let parts = self.threads.min(len / PARALLEL_PART);
        // Whole blocks of 64 in each part but the last, so that every kernel runs full blocks.
        (parts > 1).then(|| len.div_ceil(parts).next_multiple_of(64))
    }

    /// Whether single products and the tails of slices use PCLMULQDQ.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn has_clmul(self) -> bool {
        self.path != Simd::Portable
    }

    /// `a ⊗ b`: with PCLMULQDQ on every path but [`Simd::Portable`], which uses log/exp tables.
    #[inline]
    pub fn mul(self, a: u64, b: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if self.has_clmul() {
            // SAFETY: every path but the portable one needs PCLMULQDQ (`Kernel::runs`), and
            // `self` was checked against this CPU when it was made.
            return unsafe { clmul::x86::mul(clmul::basis(), a, b) };
        }
        portable::tables().mul(a, b)
    }

    /// `out[i] = a[i] ⊗ b[i]` for every i, without allocating.
    ///
    /// # Errors
    /// [`SliceError::Lengths`] when the three slices differ in length.
    pub fn mul_slices(self, a: &[u64], b: &[u64], out: &mut [u64]) -> Result<(), SliceError> {
        same_lengths(&[a.len(), b.len(), out.len()])?;
        match self.part(a.len()) {
            Some(part) => out
                .par_chunks_mut(part)
                .zip(a.par_chunks(part).zip(b.par_chunks(part)))
                .for_each(|(o, (x, y))| self.mul_part(x, y, o)),
            None => self.mul_part(a, b, out),
        }
        Ok(())
    }

    /// `out[i] = a[i] ⊗ b[i]` on the calling thread (equal lengths).
    fn mul_part(self, a: &[u64], b: &[u64], out: &mut [u64]) {
        match self.path {
            // SAFETY (each arm): `self` was checked against this CPU (`Kernel::runs`), which
            // covers every feature the kernel is compiled with; the lengths are equal.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => unsafe {
                avx512::x86::mul_slices(avx512::wide_basis(), clmul::basis(), a, b, out)
            },
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2Vpclmul => unsafe { planes::x86::mul_slices_vpclmul(a, b, out) },
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { planes::x86::mul_slices_pclmul(a, b, out) },
            _ => {
                let t = portable::tables();
                bitslice::mul_slices(a, b, out, bitslice::BLOCK / 2, |x, y| t.mul(x, y));
            }
        }
    }

    /// The nim product of all of `xs` (1 for an empty slice).
    pub fn product(self, xs: &[u64]) -> u64 {
        match self.part(xs.len()) {
            Some(part) => xs
                .par_chunks(part)
                .map(|x| self.product_part(x))
                .reduce(|| 1, |p, q| self.mul(p, q)),
            None => self.product_part(xs),
        }
    }

    /// The nim product of all of `xs` on the calling thread.
    fn product_part(self, xs: &[u64]) -> u64 {
        match self.path {
            // SAFETY (each arm): `self` was checked against this CPU (`Kernel::runs`).
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => unsafe {
                avx512::x86::product(avx512::wide_basis(), clmul::basis(), xs)
            },
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2Vpclmul => unsafe { planes::x86::product_vpclmul(xs) },
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { planes::x86::product_pclmul(xs) },
            _ => {
                let t = portable::tables();
                xs.iter().fold(1, |p, &x| t.mul(p, x))
            }
        }
    }

    /// The nim dot product `a[0] ⊗ b[0] ⊕ a[1] ⊗ b[1] ⊕ …`.
    ///
    /// # Errors
    /// [`SliceError::Lengths`] when the slices differ in length.
    pub fn dot(self, a: &[u64], b: &[u64]) -> Result<u64, SliceError> {
        same_lengths(&[a.len(), b.len()])?;
        Ok(match self.part(a.len()) {
            Some(part) => a
                .par_chunks(part)
                .zip(b.par_chunks(part))
                .map(|(x, y)| self.dot_part(x, y))
                .reduce(|| 0, |p, q| p ^ q),
            None => self.dot_part(a, b),
        })
    }

    /// `⊕ a[i] ⊗ b[i]` on the calling thread (equal lengths).
    fn dot_part(self, a: &[u64], b: &[u64]) -> u64 {
        match self.path {
            // SAFETY (each arm): `self` was checked against this CPU (`Kernel::runs`); the
            // lengths are equal.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => unsafe { avx512::x86::dot(avx512::wide_basis(), clmul::basis(), a, b) },
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2Vpclmul => unsafe { planes::x86::dot_vpclmul(a, b) },
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { planes::x86::dot_pclmul(a, b) },
            _ => {
                // Bit-sliced products a block at a time, summed.
                let t = portable::tables();
                let mut block = [0u64; bitslice::BLOCK];
                let mut sum = 0;
                for (x, y) in a.chunks(bitslice::BLOCK).zip(b.chunks(bitslice::BLOCK)) {
                    let out = &mut block[..x.len()];
                    bitslice::mul_slices(x, y, out, bitslice::BLOCK / 2, |x, y| t.mul(x, y));
                    sum = out.iter().fold(sum, |s, p| s ^ p);
                }
                sum
            }
        }
    }

    /// Multiplies every element of `xs` by `c` in place.
    pub fn scale(self, c: u64, xs: &mut [u64]) {
        match self.part(xs.len()) {
            Some(part) => xs.par_chunks_mut(part).for_each(|x| self.scale_part(c, x)),
            None => self.scale_part(c, xs),
        }
    }

    /// `xs[i] ← c ⊗ xs[i]` on the calling thread.
    fn scale_part(self, c: u64, xs: &mut [u64]) {
        match self.path {
            // SAFETY (each arm): `self` was checked against this CPU (`Kernel::runs`).
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => unsafe {
                avx512::x86::scale(avx512::wide_basis(), clmul::basis(), c, xs)
            },
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2Vpclmul => unsafe { planes::x86::scale_vpclmul(c, xs) },
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { planes::x86::scale_pclmul(c, xs) },
            _ => {
                let t = portable::tables();
                let cs = [c; bitslice::BLOCK];
                let mut block = [0u64; bitslice::BLOCK];
                for x in xs.chunks_mut(bitslice::BLOCK) {
                    let out = &mut block[..x.len()];
                    bitslice::mul_slices(&cs[..x.len()], x, out, bitslice::BLOCK / 2, |x, y| {
                        t.mul(x, y)
                    });
                    x.copy_from_slice(out);
                }
            }
        }
    }
}

/// The nim product `a ⊗ b` with the fastest path this CPU runs.
///
/// ```
/// assert_eq!(sprague::nimber::mul(2, 3), 1);
/// assert_eq!(sprague::nimber::mul(1 << 32, 1 << 32), 3 << 31);
/// ```
#[inline]
pub fn mul(a: u64, b: u64) -> u64 {
    // Single products use the carry-less multiply whenever the CPU has it, so one cached
    // feature test picks the path.
    #[cfg(target_arch = "x86_64")]
    if clmul::is_available() {
        // SAFETY: the CPU supports pclmulqdq (checked just above).
        return unsafe { clmul::x86::mul(clmul::basis(), a, b) };
    }
    portable::tables().mul(a, b)
}

/// `out[i] = a[i] ⊗ b[i]` for every i along `simd` ([`Simd::Auto`]: the best path), without
/// allocating: the call for array libraries such as NumPy.
///
/// ```
/// use sprague::simd::Simd;
/// let mut out = [0; 2];
/// sprague::nimber::mul_slices(&[2, 16], &[3, 16], &mut out, Simd::Auto)?;
/// assert_eq!(out, [1, 24]);
/// assert!(sprague::nimber::mul_slices(&[1], &[], &mut out, Simd::Auto).is_err());
/// # Ok::<(), sprague::nimber::SliceError>(())
/// ```
///
/// # Errors
/// [`SliceError::Lengths`] when the slices differ in length, [`SliceError::Unsupported`] when
/// this CPU does not run `simd`.
pub fn mul_slices(a: &[u64], b: &[u64], out: &mut [u64], simd: Simd) -> Result<(), SliceError> {
    Multiplier::new(simd)?.mul_slices(a, b, out)
}

/// The nim product of all of `xs` (1 for an empty slice) along `simd`, staying in the
/// polynomial basis.
///
/// ```
/// use sprague::simd::Simd;
/// assert_eq!(sprague::nimber::product(&[2, 2, 2], Simd::Auto)?, sprague::nimber::mul(3, 2));
/// # Ok::<(), sprague::nimber::SliceError>(())
/// ```
///
/// # Errors
/// [`SliceError::Unsupported`] when this CPU does not run `simd`.
pub fn product(xs: &[u64], simd: Simd) -> Result<u64, SliceError> {
    Ok(Multiplier::new(simd)?.product(xs))
}

/// The nim dot product `⊕ a[i] ⊗ b[i]` along `simd`, reducing once.
///
/// # Errors
/// [`SliceError::Lengths`] when the slices differ in length, [`SliceError::Unsupported`] when
/// this CPU does not run `simd`.
pub fn dot(a: &[u64], b: &[u64], simd: Simd) -> Result<u64, SliceError> {
    Multiplier::new(simd)?.dot(a, b)
}

/// Multiplies every element of `xs` by `c` in place along `simd`.
///
/// # Errors
/// [`SliceError::Unsupported`] when this CPU does not run `simd`.
pub fn scale(c: u64, xs: &mut [u64], simd: Simd) -> Result<(), SliceError> {
    Multiplier::new(simd)?.scale(c, xs);
    Ok(())
}

/// Nimbers kept in the polynomial basis GF(2)\[x\]/(x^64 + x^4 + x^3 + x + 1), for long
/// computations that would otherwise change basis at every product: convert once with
/// [`Polynomial::from_nimber`], multiply with `*` (one carry-less multiply and a
/// reduction) or [`Polynomial::mul_slices`], and convert back with [`Polynomial::to_nimber`].
/// Addition stays XOR.
///
/// ```
/// use sprague::nimber::{mul, Polynomial};
/// let (a, b) = (Polynomial::from_nimber(1 << 40), Polynomial::from_nimber(12345));
/// assert_eq!((a * b).to_nimber(), mul(1 << 40, 12345));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Polynomial(pub u64);

impl Polynomial {
    /// The image of the nimber `x`.
    pub fn from_nimber(x: u64) -> Polynomial {
        Polynomial(clmul::basis().to_poly.apply(x))
    }

    /// The nimber this represents.
    pub fn to_nimber(self) -> u64 {
        clmul::basis().from_poly.apply(self.0)
    }

    /// Converts nimbers to the polynomial basis in place.
    pub fn from_nimbers(xs: &mut [u64]) {
        let t = &clmul::basis().to_poly;
        for x in xs {
            *x = t.apply(*x);
        }
    }

    /// Converts polynomials back to nimbers in place.
    pub fn to_nimbers(xs: &mut [u64]) {
        let t = &clmul::basis().from_poly;
        for x in xs {
            *x = t.apply(*x);
        }
    }

    /// `out[i] = a[i] · b[i]`, all in the polynomial basis.
    ///
    /// # Panics
    /// If the three slices differ in length.
    pub fn mul_slices(a: &[u64], b: &[u64], out: &mut [u64]) {
        assert!(
            a.len() == b.len() && b.len() == out.len(),
            "mul_slices needs slices of equal length"
        );
        #[cfg(target_arch = "x86_64")]
        if clmul::is_available() {
            // SAFETY: the CPU supports pclmulqdq (checked just above).
            unsafe { clmul::x86::poly_mul_slices(a, b, out) };
            return;
        }
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            *o = clmul::poly_mul_soft(x, y);
        }
    }
}

impl Mul for Polynomial {
    type Output = Polynomial;

    /// The product in the field (with the fastest available backend).
    #[inline]
    fn mul(self, other: Polynomial) -> Polynomial {
        #[cfg(target_arch = "x86_64")]
        if clmul::is_available() {
            // SAFETY: the CPU supports pclmulqdq (checked just above).
            return Polynomial(unsafe { clmul::x86::poly_mul(self.0, other.0) });
        }
        Polynomial(clmul::poly_mul_soft(self.0, other.0))
    }
}

/// The nim product by the recursive definition: slow (thousands of steps), and the reference
/// that every fast path is tested against.
///
/// For x, y below F = 2^(2^k), writing a = a1·F ⊕ a0: a ⊗ b = (a1⊗b1 ⊕ a1⊗b0 ⊕ a0⊗b1)·F ⊕
/// (a1⊗b1 ⊗ F/2 ⊕ a0⊗b0), since F ⊗ F = F ⊕ F/2.
///
/// ```
/// use sprague::nimber::mul_reference;
/// assert_eq!(mul_reference(2, 2), 3);
/// assert_eq!(mul_reference(4, 4), 6);
/// assert_eq!(mul_reference(8, 8), 13);
/// ```
pub fn mul_reference(a: u64, b: u64) -> u64 {
    fn rec(a: u64, b: u64, bits: u32) -> u64 {
        if a <= 1 || b <= 1 {
            return a * b;
        }
        let half = bits / 2;
        let mask = (1u64 << half) - 1;
        let (a1, a0, b1, b0) = (a >> half, a & mask, b >> half, b & mask);
        let p1 = rec(a1, b1, half);
        let high = p1 ^ rec(a1, b0, half) ^ rec(a0, b1, half);
        let low = rec(p1, 1 << (half - 1), half) ^ rec(a0, b0, half);
        (high << half) | low
    }
    rec(a, b, 64)
}

/// Linear maps of the field, built on first use.
struct FieldMaps {
    /// The Frobenius square root, a ↦ a^(2^63).
    sqrt: ByteMatrix,
    /// Bit i is the trace of 2^i, so trace(a) = parity(a & trace_mask).
    trace_mask: u64,
    /// Solves z² ⊕ z = a.
    quadratic: LinearSolver,
}

fn field_maps() -> &'static FieldMaps {
    static MAPS: OnceLock<FieldMaps> = OnceLock::new();
    MAPS.get_or_init(|| {
        let squares: [u64; 64] = std::array::from_fn(|i| mul(1 << i, 1 << i));
        let square = ByteMatrix::from_columns(&squares);
        let sqrt_columns: [u64; 64] =
            std::array::from_fn(|i| (0..63).fold(1u64 << i, |x, _| square.apply(x)));
        let mut trace_mask = 0;
        for i in 0..64 {
            let (mut x, mut t) = (1u64 << i, 0u64);
            for _ in 0..64 {
                t ^= x;
                x = square.apply(x);
            }
            debug_assert!(t <= 1, "the trace lies in GF(2)");
            trace_mask |= (t & 1) << i;
        }
        let mut quadratic = LinearSolver::new();
        for (i, &s) in squares.iter().enumerate() {
            quadratic.insert(s ^ (1 << i), 1 << i);
        }
        FieldMaps {
            sqrt: ByteMatrix::from_columns(&sqrt_columns),
            trace_mask,
            quadratic,
        }
    })
}

impl Nimber {
    /// The additive identity.
    pub const ZERO: Nimber = Nimber(0);
    /// The multiplicative identity.
    pub const ONE: Nimber = Nimber(1);

    /// `self ⊗ self`.
    pub fn square(self) -> Nimber {
        self * self
    }

    /// `self` to the power `e` (with 0^0 = 1), by repeated squaring.
    ///
    /// ```
    /// use sprague::nimber::Nimber;
    /// assert_eq!(Nimber(2).pow(3), Nimber(1)); // {0, 1, 2, 3} is the field of 4 elements
    /// assert_eq!(Nimber(7).pow(u64::MAX), Nimber(1)); // the group has order 2^64 − 1
    /// ```
    pub fn pow(self, e: u64) -> Nimber {
        // A chain of dependent products: in the polynomial basis each one is a carry-less
        // multiply and a reduction, without the two changes of basis of a single product.
        #[cfg(target_arch = "x86_64")]
        if clmul::is_available() {
            let (one, base) = (Polynomial::from_nimber(1), Polynomial::from_nimber(self.0));
            return Nimber(square_and_multiply(one, base, e, |x, y| x * y).to_nimber());
        }
        square_and_multiply(Nimber::ONE, self, e, |x, y| x * y)
    }

    /// The multiplicative inverse, `None` for 0.
    ///
    /// ```
    /// use sprague::nimber::Nimber;
    /// assert_eq!(Nimber(2).inverse(), Some(Nimber(3)));
    /// assert_eq!(Nimber(0).inverse(), None);
    /// ```
    pub fn inverse(self) -> Option<Nimber> {
        if self.0 == 0 {
            None
        } else {
            Some(Nimber(inverse_in(self.0, 64)))
        }
    }

    /// `self / other`, `None` when `other` is 0.
    pub fn checked_div(self, other: Nimber) -> Option<Nimber> {
        other.inverse().map(|inv| self * inv)
    }

    /// The square root: the unique r with r ⊗ r = self (squaring is a bijection in
    /// characteristic 2). A GF(2)-linear map, applied by table lookup.
    ///
    /// ```
    /// use sprague::nimber::Nimber;
    /// assert_eq!(Nimber(3).sqrt(), Nimber(2));
    /// ```
    pub fn sqrt(self) -> Nimber {
        Nimber(field_maps().sqrt.apply(self.0))
    }

    /// The absolute trace self ⊕ self² ⊕ self⁴ ⊕ … ⊕ self^(2^63), which is 0 or 1.
    pub fn trace(self) -> u64 {
        u64::from((self.0 & field_maps().trace_mask).count_ones() & 1)
    }

    /// A root x of x ⊗ x ⊕ x = self, or `None` when there is none (exactly when the trace of
    /// `self` is 1). The other root is x ⊕ 1; this returns the even one.
    ///
    /// ```
    /// use sprague::nimber::Nimber;
    /// let x = Nimber(6).solve_quadratic().unwrap();
    /// assert_eq!(x * x + x, Nimber(6));
    /// assert_eq!(Nimber(1).solve_quadratic(), Some(Nimber(2))); // 2 ⊗ 2 ⊕ 2 = 3 ⊕ 2 = 1
    /// // Below 2^32 every nimber lies in a subfield of even index, so its trace is 0.
    /// assert!((0..100).all(|a| Nimber(a).solve_quadratic().is_some()));
    /// ```
    pub fn solve_quadratic(self) -> Option<Nimber> {
        let x = field_maps().quadratic.solve(self.0)?;
        Some(Nimber(x & !1))
    }
}

/// `base` to the power `e` by repeated squaring, with the product `mul` and its unit `one`.
fn square_and_multiply<T: Copy>(one: T, mut base: T, mut e: u64, mul: impl Fn(T, T) -> T) -> T {
    let mut acc = one;
    while e > 0 {
        if e & 1 == 1 {
            acc = mul(acc, base);
        }
        base = mul(base, base);
        e >>= 1;
    }
    acc
}

/// The inverse of a nonzero `a` below 2^bits, by the norm to the half-size subfield: with
/// a = a1·F ⊕ a0 and u = F a root of z² + z + F/2, the conjugate is a1·F ⊕ (a1 ⊕ a0) and the
/// norm a ⊗ conj(a) = a1² ⊗ F/2 ⊕ a1 ⊗ a0 ⊕ a0² lies in the subfield.
fn inverse_in(a: u64, bits: u32) -> u64 {
    if a == 1 {
        return 1;
    }
    let half = bits / 2;
    let (a1, a0) = (a >> half, a & ((1u64 << half) - 1));
    if a1 == 0 {
        return inverse_in(a0, half);
    }
    let norm = mul(mul(a1, a1), 1 << (half - 1)) ^ mul(a1, a0) ^ mul(a0, a0);
    let norm_inverse = inverse_in(norm, half);
    // conj(a) ⊗ norm⁻¹, where norm⁻¹ lies in the subfield: multiply each half.
    (mul(a1, norm_inverse) << half) | mul(a1 ^ a0, norm_inverse)
}

impl From<u64> for Nimber {
    fn from(x: u64) -> Self {
        Nimber(x)
    }
}

impl From<Nimber> for u64 {
    fn from(x: Nimber) -> Self {
        x.0
    }
}

impl Add for Nimber {
    type Output = Nimber;
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn add(self, other: Nimber) -> Nimber {
        Nimber(self.0 ^ other.0)
    }
}

impl Sub for Nimber {
    type Output = Nimber;
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn sub(self, other: Nimber) -> Nimber {
        Nimber(self.0 ^ other.0)
    }
}

impl Mul for Nimber {
    type Output = Nimber;
    fn mul(self, other: Nimber) -> Nimber {
        Nimber(mul(self.0, other.0))
    }
}

impl Div for Nimber {
    type Output = Nimber;
    /// # Panics
    /// On division by zero.
    fn div(self, other: Nimber) -> Nimber {
        self.checked_div(other).expect("nimber division by zero")
    }
}

impl AddAssign for Nimber {
    fn add_assign(&mut self, other: Nimber) {
        *self = *self + other;
    }
}

impl SubAssign for Nimber {
    fn sub_assign(&mut self, other: Nimber) {
        *self = *self - other;
    }
}

impl MulAssign for Nimber {
    fn mul_assign(&mut self, other: Nimber) {
        *self = *self * other;
    }
}

impl DivAssign for Nimber {
    fn div_assign(&mut self, other: Nimber) {
        *self = *self / other;
    }
}

impl fmt::Display for Nimber {
    /// Decimal; `{:#}` prints the nimber notation `*5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write!(f, "*{}", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// Why a nimber did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseNimberError {
    /// Nothing to parse.
    #[error("empty nimber")]
    Empty,
    /// Not a number.
    #[error("'{0}' is not a nimber (expected a number such as 5, 0x1f or *5)")]
    Invalid(String),
    /// At least 2^64.
    #[error("'{0}' is larger than 2^64-1")]
    Overflow(String),
}

impl FromStr for Nimber {
    type Err = ParseNimberError;

    /// Reads `5`, `*5` or `0x1f`.
    ///
    /// ```
    /// use sprague::nimber::Nimber;
    /// assert_eq!("*5".parse(), Ok(Nimber(5)));
    /// assert_eq!("0xff".parse(), Ok(Nimber(255)));
    /// assert!("-1".parse::<Nimber>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let body = t.strip_prefix('*').unwrap_or(t);
        if body.is_empty() {
            return Err(ParseNimberError::Empty);
        }
        let (digits, radix) = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            Some(hex) => (hex, 16),
            None => (body, 10),
        };
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return Err(ParseNimberError::Invalid(t.to_string()));
        }
        u64::from_str_radix(digits, radix)
            .map(Nimber)
            .map_err(|_| ParseNimberError::Overflow(t.to_string()))
    }
}

#[cfg(test)]
mod tests;
