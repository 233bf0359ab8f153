//! Instruction-set paths of the fast kernels (the octal scan, the nimber batch).
//!
//! The path is a value that callers pass to the kernels, never a global and never read from
//! the environment: [`Simd::Auto`] picks the best path this CPU runs, and the others force one
//! path so that every path can be tested and compared on one machine.
//!
//! Kernels differ in what a path needs of the CPU (the nimber products' AVX-512 path needs
//! VBMI, GFNI and VPCLMULQDQ besides F and BW) and in which paths they have: [`Kernel`] says
//! both. [`Simd::is_available`], [`Simd::resolve`] and [`Simd::available`] answer for the
//! paths every kernel has.
//!
//! ```
//! use sprague::simd::{Kernel, Simd};
//! assert!(Simd::Portable.is_available());
//! assert_ne!(Simd::Auto.resolve(), Simd::Auto);
//! assert_eq!("avx2".parse::<Simd>(), Ok(Simd::Avx2));
//! assert!(Kernel::NimberProducts.available().contains(&Simd::Portable));
//! ```

use std::fmt;
use std::str::FromStr;

/// An instruction-set path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Simd {
    /// The best path this CPU runs.
    #[default]
    Auto,
    /// Plain Rust, vectorised by the compiler for the build's target; runs everywhere.
    Portable,
    /// x86-64 AVX2 (with PCLMULQDQ where a kernel multiplies carry-less).
    Avx2,
    /// x86-64 AVX2 with VPCLMULQDQ, four carry-less products per instruction on 256-bit
    /// registers (AMD Zen 3 and later, Intel Ice Lake and later). Only the nimber products
    /// have this path ([`Kernel::paths`]); the other kernels run it as [`Simd::Avx2`].
    Avx2Vpclmul,
    /// x86-64 AVX-512 (F and BW; the nimber batch also needs VBMI, GFNI and VPCLMULQDQ).
    Avx512,
}

impl Simd {
    /// The concrete paths that every kernel has, slowest first.
    pub const PATHS: [Simd; 3] = [Simd::Portable, Simd::Avx2, Simd::Avx512];

    /// Whether this CPU has the path's base features (`Auto` always does): AVX2 for
    /// [`Simd::Avx2`], AVX2 and VPCLMULQDQ for [`Simd::Avx2Vpclmul`], AVX-512 F and BW for
    /// [`Simd::Avx512`]. [`Kernel::runs`] adds what one kernel needs beyond that.
    pub fn is_available(self) -> bool {
        match self {
            Simd::Auto | Simd::Portable => true,
            Simd::Avx2 => has_avx2(),
            Simd::Avx2Vpclmul => has_avx2() && has_x86(X86::Vpclmulqdq),
            Simd::Avx512 => has_avx512(),
        }
    }

    /// The concrete path: `Auto` becomes the best available one, the others stay.
    pub fn resolve(self) -> Simd {
        match self {
            Simd::Auto => Simd::PATHS
                .into_iter()
                .rev()
                .find(|p| p.is_available())
                .unwrap_or(Simd::Portable),
            other => other,
        }
    }

    /// The concrete paths this CPU runs, slowest first.
    pub fn available() -> Vec<Simd> {
        Simd::PATHS
            .into_iter()
            .filter(|p| p.is_available())
            .collect()
    }

    /// The path's name as [`FromStr`] reads it.
    pub const fn name(self) -> &'static str {
        match self {
            Simd::Auto => "auto",
            Simd::Portable => "portable",
            Simd::Avx2 => "avx2",
            Simd::Avx2Vpclmul => "avx2-vpclmul",
            Simd::Avx512 => "avx512",
        }
    }
}

impl fmt::Display for Simd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A path name that is not one of `auto`, `portable`, `avx2`, `avx2-vpclmul`, `avx512`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown SIMD path '{0}'; expected auto, portable, avx2, avx2-vpclmul or avx512")]
pub struct ParseSimdError(pub String);

impl FromStr for Simd {
    type Err = ParseSimdError;

    fn from_str(s: &str) -> Result<Simd, ParseSimdError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Simd::Auto),
            "portable" => Ok(Simd::Portable),
            "avx2" => Ok(Simd::Avx2),
            "avx2-vpclmul" | "avx2+vpclmulqdq" => Ok(Simd::Avx2Vpclmul),
            "avx512" | "avx-512" => Ok(Simd::Avx512),
            _ => Err(ParseSimdError(s.to_string())),
        }
    }
}

/// A kernel with several paths: which paths it has, and what each needs of the CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kernel {
    /// The octal engine's scan of rare pairs: [`Simd::Portable`], [`Simd::Avx2`] (AVX2),
    /// [`Simd::Avx512`] (F and BW).
    OctalScan,
    /// Nim products of slices ([`crate::nimber::mul_slices`]): [`Simd::Portable`],
    /// [`Simd::Avx2`] (AVX2 and PCLMULQDQ), [`Simd::Avx2Vpclmul`] (AVX2, PCLMULQDQ and
    /// VPCLMULQDQ), [`Simd::Avx512`] (F, BW, VBMI, GFNI, VPCLMULQDQ and PCLMULQDQ).
    NimberProducts,
}

impl Kernel {
    /// The kernel's concrete paths, slowest first.
    pub const fn paths(self) -> &'static [Simd] {
        match self {
            Kernel::OctalScan => &Simd::PATHS,
            Kernel::NimberProducts => {
                &[Simd::Portable, Simd::Avx2, Simd::Avx2Vpclmul, Simd::Avx512]
            }
        }
    }

    /// Whether this CPU runs the kernel's `path` (`Auto` always does).
    pub fn runs(self, path: Simd) -> bool {
        if path == Simd::Auto {
            return true;
        }
        if !self.paths().contains(&path) || !path.is_available() {
            return false;
        }
        match (self, path) {
            (Kernel::NimberProducts, Simd::Avx2 | Simd::Avx2Vpclmul) => has_x86(X86::Pclmulqdq),
            (Kernel::NimberProducts, Simd::Avx512) => {
                has_x86(X86::Pclmulqdq)
                    && has_x86(X86::Vpclmulqdq)
                    && has_x86(X86::Gfni)
                    && has_x86(X86::Avx512vbmi)
            }
            _ => true,
        }
    }

    /// The kernel's paths this CPU runs, slowest first.
    pub fn available(self) -> Vec<Simd> {
        self.paths()
            .iter()
            .copied()
            .filter(|&p| self.runs(p))
            .collect()
    }

    /// The concrete path: `Auto` becomes the kernel's best path on this CPU, the others stay.
    pub fn resolve(self, path: Simd) -> Simd {
        match path {
            Simd::Auto => self.available().pop().unwrap_or(Simd::Portable),
            other => other,
        }
    }
}

/// The x86-64 features that [`Kernel::runs`] asks about beyond a path's base features.
#[derive(Clone, Copy)]
enum X86 {
    Pclmulqdq,
    Vpclmulqdq,
    Gfni,
    Avx512vbmi,
}

#[cfg(target_arch = "x86_64")]
fn has_x86(feature: X86) -> bool {
    match feature {
        X86::Pclmulqdq => std::arch::is_x86_feature_detected!("pclmulqdq"),
        X86::Vpclmulqdq => std::arch::is_x86_feature_detected!("vpclmulqdq"),
        X86::Gfni => std::arch::is_x86_feature_detected!("gfni"),
        X86::Avx512vbmi => std::arch::is_x86_feature_detected!("avx512vbmi"),
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn has_x86(_: X86) -> bool {
    false
}

#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

#[cfg(not(target_arch = "x86_64"))]
fn has_avx2() -> bool {
    false
}

#[cfg(target_arch = "x86_64")]
fn has_avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
}

#[cfg(not(target_arch = "x86_64"))]
fn has_avx512() -> bool {
    false
}

/// The CPU features that the fast paths use, as the names the CPU vendors give them, for
/// printing beside benchmark figures.
pub fn cpu_features() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! detect {
            ($($name:tt),*) => {{
                let mut out = Vec::new();
                $(if std::arch::is_x86_feature_detected!($name) { out.push($name); })*
                out
            }};
        }
        detect!(
            "popcnt",
            "bmi2",
            "pclmulqdq",
            "avx2",
            "vpclmulqdq",
            "gfni",
            "avx512f",
            "avx512bw",
            "avx512vbmi"
        )
    }
    #[cfg(target_arch = "aarch64")]
    {
        vec!["neon"]
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        Vec::new()
    }
}

/// The CPU's model name as the processor reports it (x86-64 `cpuid` brand string), or the
/// target architecture's name elsewhere.
pub fn cpu_model() -> String {
    #[cfg(target_arch = "x86_64")]
    #[allow(unused_unsafe)] // `__cpuid` is a safe function in newer Rust releases
    {
        use std::arch::x86_64::__cpuid;
        // SAFETY: `cpuid` exists on every x86-64 processor; leaf 0x8000_0000 says whether the
        // brand-string leaves 0x8000_0002..=0x8000_0004 exist before they are read.
        let top = unsafe { __cpuid(0x8000_0000) }.eax;
        if top >= 0x8000_0004 {
            let mut bytes = Vec::with_capacity(48);
            for leaf in 0x8000_0002u32..=0x8000_0004 {
                // SAFETY: as above, the leaf exists.
                let r = unsafe { __cpuid(leaf) };
                for word in [r.eax, r.ebx, r.ecx, r.edx] {
                    bytes.extend_from_slice(&word.to_le_bytes());
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            let text = text.trim_matches(char::from(0)).trim();
            if !text.is_empty() {
                return text.to_string();
            }
        }
    }
    std::env::consts::ARCH.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in [
            Simd::Auto,
            Simd::Portable,
            Simd::Avx2,
            Simd::Avx2Vpclmul,
            Simd::Avx512,
        ] {
            assert_eq!(p.name().parse::<Simd>(), Ok(p));
            assert_eq!(p.to_string(), p.name());
        }
        assert!("sse9".parse::<Simd>().is_err());
    }

    #[test]
    fn auto_resolves_to_the_best_available_path() {
        let best = Simd::Auto.resolve();
        assert!(best.is_available());
        assert_eq!(Simd::available().last(), Some(&best));
        assert!(Simd::available().contains(&Simd::Portable));
        assert!(!cpu_model().is_empty());
    }

    #[test]
    fn kernels_resolve_to_their_best_path() {
        for kernel in [Kernel::OctalScan, Kernel::NimberProducts] {
            let best = kernel.resolve(Simd::Auto);
            assert!(kernel.runs(best), "{kernel:?}: {best}");
            assert_eq!(kernel.available().last(), Some(&best));
            assert_eq!(kernel.available()[0], Simd::Portable);
            for &path in kernel.paths() {
                // A kernel's path needs at least the path's base features.
                assert!(
                    !kernel.runs(path) || path.is_available(),
                    "{kernel:?} {path}"
                );
            }
        }
        assert_eq!(Kernel::OctalScan.resolve(Simd::Auto), Simd::Auto.resolve());
        assert!(!Kernel::OctalScan.runs(Simd::Avx2Vpclmul));
        assert_eq!(Kernel::NimberProducts.resolve(Simd::Avx2), Simd::Avx2);
    }
}
