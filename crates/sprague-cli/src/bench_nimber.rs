//! `sprague bench nimber`: nim products on this CPU, every path beside the peers of the same
//! run.
//!
//! Three figures per method, in ns per product (CPU time of this thread, wall time beside it):
//! - latency: a dependent chain x ← x ⊗ b\[i\], each product waiting for the one before;
//! - throughput: independent single products a\[i\] ⊗ b\[i\] in a loop (what `nimber mul`
//!   costs when called many times);
//! - batch: one slice call over 4096 pairs (what `nimber mul --batch` uses).
//!
//! The peers: the carry-less-multiply method (eight-byte table change of basis, one
//! PCLMULQDQ, reduction by shifts, change back), written here independently of the library,
//! and the `nimber` crate from crates.io. Every method is checked against
//! [`sprague::nimber::mul_reference`] before it is timed.

use crate::clock::{load_average, thread_cpu_ns as cpu_time_ns};
use anyhow::{bail, Result};
use sprague::nimber::{mul_reference, Multiplier, Polynomial};
use sprague::simd::{cpu_features, cpu_model, Kernel, Simd};
use std::hint::black_box;
use std::time::Instant;

/// Pairs per pass.
const N: usize = 4096;

/// CPU time (user + system) that each figure runs for, in ns.
const BUDGET_NS: u64 = 300_000_000;

/// splitmix64 words, none zero (so that a chain of products never collapses to 0).
fn inputs(seed: u64) -> Vec<u64> {
    let mut state = seed;
    (0..N)
        .map(|_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)).max(1)
        })
        .collect()
}

/// ns per product, by CPU time and by wall time.
#[derive(Clone, Copy)]
struct Figure {
    cpu: f64,
    wall: f64,
}

/// Runs `pass` (which multiplies `products` pairs) for [`BUDGET_NS`] of CPU time (wall time
/// off Linux), reading the clocks between groups of passes that take about a millisecond.
fn measure(mut pass: impl FnMut() -> u64, products: usize, budget: u64) -> Figure {
    let first = Instant::now();
    let mut sink = pass();
    let group = (1_000_000 / first.elapsed().as_nanos().max(1)).clamp(1, 1 << 20) as u64;
    let (wall, cpu) = (Instant::now(), cpu_time_ns());
    let mut passes = 0u64;
    loop {
        for _ in 0..group {
            sink ^= pass();
        }
        passes += group;
        let wall_ns = wall.elapsed().as_nanos() as u64;
        let spent = match (cpu, cpu_time_ns()) {
            (Some(start), Some(now)) => now - start,
            _ => wall_ns,
        };
        if spent >= budget && passes >= 3 {
            black_box(sink);
            let n = (passes * products as u64) as f64;
            return Figure {
                cpu: spent as f64 / n,
                wall: wall_ns as f64 / n,
            };
        }
    }
}

/// A slice product: `out[i] = a[i] ⊗ b[i]`.
type Batch<'a> = Box<dyn Fn(&[u64], &[u64], &mut [u64]) + 'a>;

/// A method's single product and slice product.
struct Method<'a> {
    name: String,
    single: Box<dyn Fn(u64, u64) -> u64 + 'a>,
    batch: Batch<'a>,
    /// A shorter budget for slow methods.
    budget: u64,
}

/// Latency, throughput and batch figures of one method.
struct Figures {
    latency: Figure,
    throughput: Figure,
    batch: Figure,
}

fn run_method(m: &Method, a: &[u64], b: &[u64]) -> Result<Figures> {
    let mut out = vec![0u64; a.len()];
    (m.batch)(a, b, &mut out);
    for i in 0..a.len() {
        let expected = mul_reference(a[i], b[i]);
        if (m.single)(a[i], b[i]) != expected || out[i] != expected {
            bail!("{}: wrong product of {} and {}", m.name, a[i], b[i]);
        }
    }
    let latency = measure(
        || {
            let mut x = black_box(a[0]);
            for &y in b {
                x = (m.single)(x, y);
            }
            x
        },
        b.len(),
        m.budget,
    );
    let throughput = measure(
        || {
            a.iter()
                .zip(b)
                .fold(0, |acc, (&x, &y)| acc ^ (m.single)(black_box(x), y))
        },
        a.len(),
        m.budget,
    );
    let batch = measure(
        || {
            (m.batch)(black_box(a), b, &mut out);
            out[0]
        },
        a.len(),
        m.budget,
    );
    Ok(Figures {
        latency,
        throughput,
        batch,
    })
}

/// The peer's method, written here: the change of basis to GF(2)\[x\]/(x^64 + x^4 + x^3 +
/// x + 1) by eight byte-indexed tables, one carry-less multiply, the reduction by shifts, and the
/// change back by eight more tables.
struct ClmulPeer {
    to_poly: Box<[[u64; 256]; 8]>,
    from_poly: Box<[[u64; 256]; 8]>,
}

impl ClmulPeer {
    /// The peer, when this CPU has PCLMULQDQ.
    fn new() -> Option<ClmulPeer> {
        if !Kernel::NimberProducts.runs(Simd::Avx2) {
            return None;
        }
        let tables = |column: &dyn Fn(u64) -> u64| {
            let mut t = Box::new([[0u64; 256]; 8]);
            for (k, table) in t.iter_mut().enumerate() {
                for v in 1..256usize {
                    let low = v.trailing_zeros() as usize;
                    table[v] = table[v & (v - 1)] ^ column(1 << (8 * k + low));
                }
            }
            t
        };
        Some(ClmulPeer {
            to_poly: tables(&|x| Polynomial::from_nimber(x).0),
            from_poly: tables(&|x| Polynomial(x).to_nimber()),
        })
    }

    #[inline(always)]
    fn apply(t: &[[u64; 256]; 8], x: u64) -> u64 {
        x.to_le_bytes()
            .iter()
            .enumerate()
            .fold(0, |acc, (k, &byte)| acc ^ t[k][byte as usize])
    }

    #[inline(always)]
    fn mul(&self, a: u64, b: u64) -> u64 {
        let (hi, lo) = self.clmul(Self::apply(&self.to_poly, a), Self::apply(&self.to_poly, b));
        let spill = (hi >> 63) ^ (hi >> 61) ^ (hi >> 60);
        let folded = hi ^ (hi << 1) ^ (hi << 3) ^ (hi << 4);
        let p = lo ^ folded ^ spill ^ (spill << 1) ^ (spill << 3) ^ (spill << 4);
        Self::apply(&self.from_poly, p)
    }

    /// The 128-bit carry-less product (high, low).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn clmul(&self, a: u64, b: u64) -> (u64, u64) {
        #[target_feature(enable = "pclmulqdq")]
        unsafe fn inner(a: u64, b: u64) -> (u64, u64) {
            use std::arch::x86_64::*;
            let p = _mm_clmulepi64_si128::<0x00>(
                _mm_cvtsi64_si128(a as i64),
                _mm_cvtsi64_si128(b as i64),
            );
            (
                _mm_cvtsi128_si64(_mm_unpackhi_epi64(p, p)) as u64,
                _mm_cvtsi128_si64(p) as u64,
            )
        }
        // SAFETY: `self` exists, so `ClmulPeer::new` found PCLMULQDQ on this CPU.
        unsafe { inner(a, b) }
    }

    /// Never called: [`ClmulPeer::new`] refuses CPUs without PCLMULQDQ.
    #[cfg(not(target_arch = "x86_64"))]
    fn clmul(&self, _: u64, _: u64) -> (u64, u64) {
        unreachable!("ClmulPeer::new refuses CPUs without PCLMULQDQ")
    }
}

/// The `nimber` crate's product: a peer, built only with the CLI's `peers` feature (peers are
/// never runtime dependencies of the default build).
#[cfg(feature = "peers")]
fn nimber_crate_mul(a: u64, b: u64) -> u64 {
    let p = &::nimber::FiniteNimber::from(a) * &::nimber::FiniteNimber::from(b);
    p.as_slice().first().copied().unwrap_or(0)
}

/// `sprague bench nimber [--simd PATH]`.
///
/// # Errors
/// When this CPU does not run `simd` (`BadInput` for the caller to report), or a method's
/// products are wrong.
pub fn run(simd: Simd) -> Result<()> {
    let kernel = Kernel::NimberProducts;
    let paths = if simd == Simd::Auto {
        kernel.available()
    } else {
        vec![Multiplier::new(simd)
            .map_err(|e| crate::error::bad(e.to_string()))?
            .path()]
    };
    println!("CPU: {}", cpu_model());
    println!("features: {}", cpu_features().join(" "));
    println!(
        "path: {} (paths this CPU runs: {})",
        kernel.resolve(simd),
        kernel
            .available()
            .iter()
            .map(|p| p.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "load average at start: {}",
        load_average().unwrap_or_else(|| "?".into())
    );
    let (a, b) = (inputs(1), inputs(2));
    let mut ours = Vec::new();
    for path in paths.into_iter().rev() {
        let m = Multiplier::new(path)?;
        ours.push(Method {
            name: format!("sprague {path}"),
            single: Box::new(move |x, y| m.mul(x, y)),
            batch: Box::new(move |x, y, o| {
                // The lengths are equal by construction.
                let _ = m.mul_slices(x, y, o);
            }),
            budget: BUDGET_NS,
        });
    }
    let peer = ClmulPeer::new();
    let mut peers = Vec::new();
    if let Some(peer) = &peer {
        peers.push(Method {
            name: "peer: clmul reference".into(),
            single: Box::new(|x, y| peer.mul(x, y)),
            batch: Box::new(|x, y, o| {
                for ((o, &x), &y) in o.iter_mut().zip(x).zip(y) {
                    *o = peer.mul(x, y);
                }
            }),
            budget: BUDGET_NS,
        });
    }
    #[cfg(not(feature = "peers"))]
    eprintln!("peer 'nimber crate' not built: rebuild with --features peers to time it");
    #[cfg(feature = "peers")]
    peers.push(Method {
        name: "peer: nimber crate 0.1".into(),
        single: Box::new(nimber_crate_mul),
        batch: Box::new(|x, y, o| {
            for ((o, &x), &y) in o.iter_mut().zip(x).zip(y) {
                *o = nimber_crate_mul(x, y);
            }
        }),
        budget: BUDGET_NS / 3,
    });
    // The crate takes tens of µs a product: time it on fewer pairs.
    let few = 64;
    let mut rows = Vec::new();
    for m in ours.iter().chain(&peers) {
        let slow = m.budget < BUDGET_NS;
        let (x, y) = if slow {
            (&a[..few], &b[..few])
        } else {
            (&a[..], &b[..])
        };
        rows.push((m.name.clone(), run_method(m, x, y)?));
    }
    // A dependent chain of 64-bit integer multiplies takes 3 cycles a step on every recent
    // x86-64 core: the clock this run saw, and how much the machine's load slowed it.
    let calibration = measure(
        || {
            let mut x = black_box(3u64);
            for _ in 0..N {
                x = x.wrapping_mul(x);
            }
            x
        },
        N,
        BUDGET_NS / 3,
    );
    println!(
        "calibration: {:.3} ns ({:.3}) a dependent 64-bit multiply (3 cycles: {:.2} GHz)",
        calibration.cpu,
        calibration.wall,
        3.0 / calibration.cpu
    );
    println!();
    println!("ns per 64-bit nim product, by CPU time (wall time in brackets); ×R after a peer's");
    println!("figure: the peer takes R times as long as the first sprague row");
    println!(
        "{:<26} {:>22} {:>22} {:>22}",
        "method", "latency", "throughput", "batch (4096)"
    );
    let best = &rows[0].1;
    for (i, (name, f)) in rows.iter().enumerate() {
        let cell = |fig: Figure, base: Figure| {
            if i < ours.len() {
                format!("{:.2} ({:.2})", fig.cpu, fig.wall)
            } else {
                format!(
                    "{:.2} ({:.2}) ×{:.2}",
                    fig.cpu,
                    fig.wall,
                    fig.cpu / base.cpu
                )
            }
        };
        println!(
            "{name:<26} {:>22} {:>22} {:>22}",
            cell(f.latency, best.latency),
            cell(f.throughput, best.throughput),
            cell(f.batch, best.batch)
        );
    }
    println!();
    println!("latency: x <- x * b[i], each product waiting for the one before ('nimber mul');");
    println!(
        "throughput: independent single products; batch: one slice call ('nimber mul --batch')."
    );
    println!(
        "load average at end: {}",
        load_average().unwrap_or_else(|| "?".into())
    );
    Ok(())
}
