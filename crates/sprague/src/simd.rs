//! Instruction-set paths of the fast kernels (the octal scan, the nimber batch).
//!
//! The path is a value that callers pass to the kernels, never a global and never read from
//! the environment: [`Simd::Auto`] picks the best path this CPU runs, and the others force one
//! path so that every path can be tested and compared on one machine.
//!
//! ```
//! use sprague::simd::Simd;
//! assert!(Simd::Portable.is_available());
//! assert_ne!(Simd::Auto.resolve(), Simd::Auto);
//! assert_eq!("avx2".parse::<Simd>(), Ok(Simd::Avx2));
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
    /// x86-64 AVX-512 (F and BW; the nimber batch also needs VBMI, GFNI and VPCLMULQDQ).
    Avx512,
}

impl Simd {
    /// The concrete paths, slowest first.
    pub const PATHS: [Simd; 3] = [Simd::Portable, Simd::Avx2, Simd::Avx512];

    /// Whether this CPU runs the path (`Auto` always does).
    pub fn is_available(self) -> bool {
        match self {
            Simd::Auto | Simd::Portable => true,
            Simd::Avx2 => has_avx2(),
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
            Simd::Avx512 => "avx512",
        }
    }
}

impl fmt::Display for Simd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A path name that is not one of `auto`, `portable`, `avx2`, `avx512`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown SIMD path '{0}'; expected auto, portable, avx2 or avx512")]
pub struct ParseSimdError(pub String);

impl FromStr for Simd {
    type Err = ParseSimdError;

    fn from_str(s: &str) -> Result<Simd, ParseSimdError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Simd::Auto),
            "portable" => Ok(Simd::Portable),
            "avx2" => Ok(Simd::Avx2),
            "avx512" | "avx-512" => Ok(Simd::Avx512),
            _ => Err(ParseSimdError(s.to_string())),
        }
    }
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
        for p in [Simd::Auto, Simd::Portable, Simd::Avx2, Simd::Avx512] {
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
}
