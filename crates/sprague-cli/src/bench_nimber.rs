//! `sprague bench nimber`: nim products on this CPU, every path beside the peers of the same
//! run, as text or (`--json`) one JSON object.
//!
//! Three figures per method, in ns per product (CPU time of this thread, wall time beside it):
//! - latency: a dependent chain x ← x ⊗ b\[i\], each product waiting for the one before;
//! - throughput: independent single products a\[i\] ⊗ b\[i\] in a loop (what `nimber mul`
//!   costs when called many times);
//! - batch: one slice call over 4096 pairs (what `nimber mul --batch` uses).
//!
//! Each figure stands beside the clmul peer's as a ratio. The peers: the carry-less-multiply
//! method (eight-byte table change of basis, one PCLMULQDQ, reduction by shifts, change back),
//! written here independently of the library, and the `nimber` crate from crates.io (CLI feature
//! `peers`). One more row times values kept in the polynomial basis ([`Polynomial`]), the cost
//! of a chain once its values are converted. Every method is checked against
//! [`sprague::nimber::mul_reference`] before it is timed.

use crate::clock::{load_average, thread_cpu_ns as cpu_time_ns};
use anyhow::{bail, Result};
use serde::Serialize;
use sprague::nimber::{mul_reference, Multiplier, Polynomial};
use sprague::simd::{cpu_features, cpu_model, Kernel, Simd};
use std::hint::black_box;
use std::time::Instant;

/// Pairs per pass.
const N: usize = 4096;

/// CPU time (user + system) that each figure runs for, in ns.
const BUDGET_NS: u64 = 300_000_000;

/// Products in the slice call timed on one thread and split between threads.
const LONG: usize = 1 << 18;

/// `n` splitmix64 words, none zero (so that a chain of products never collapses to 0).
fn inputs(seed: u64, n: usize) -> Vec<u64> {
    let mut state = seed;
    (0..n)
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
#[derive(Clone, Copy, Serialize)]
struct Figure {
    cpu: f64,
    wall: f64,
}

/// Runs `pass` (which multiplies `products` pairs) for `budget` ns of the calling thread's CPU
/// time (wall time off Linux), reading the clocks between groups of passes that take about a
/// millisecond.
fn measure(pass: impl FnMut() -> u64, products: usize, budget: u64) -> Figure {
    measure_by(pass, products, budget, cpu_time_ns)
}

/// [`measure`], with the budget counted on `clock` (wall time where it gives `None`).
fn measure_by(
    mut pass: impl FnMut() -> u64,
    products: usize,
    budget: u64,
    clock: fn() -> Option<u64>,
) -> Figure {
    let first = Instant::now();
    let mut sink = pass();
    let group = (1_000_000 / first.elapsed().as_nanos().max(1)).clamp(1, 1 << 20) as u64;
    let (wall, cpu) = (Instant::now(), clock());
    let mut passes = 0u64;
    loop {
        for _ in 0..group {
            sink ^= pass();
        }
        passes += group;
        let wall_ns = wall.elapsed().as_nanos() as u64;
        let spent = match (cpu, clock()) {
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
    /// The library path (`None` for peers and the polynomial-basis row).
    path: Option<Simd>,
    /// Whether this is a peer.
    peer: bool,
    single: Box<dyn Fn(u64, u64) -> u64 + 'a>,
    batch: Batch<'a>,
    /// A shorter budget for slow methods.
    budget: u64,
}

/// Latency, throughput and batch figures of one method.
#[derive(Clone, Copy, Serialize)]
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
    run_method_unchecked(m, a, b)
}

/// The three figures of a method whose products were checked.
fn run_method_unchecked(m: &Method, a: &[u64], b: &[u64]) -> Result<Figures> {
    let mut out = vec![0u64; a.len()];
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

/// The clmul peer's figures divided by a row's (above 1: the row is faster than the peer).
#[derive(Serialize)]
struct Ratios {
    latency: f64,
    throughput: f64,
    batch: f64,
}

/// One row of the report.
#[derive(Serialize)]
struct Row {
    method: String,
    path: Option<&'static str>,
    peer: bool,
    #[serde(flatten)]
    figures: Figures,
    /// `None` when this CPU has no PCLMULQDQ (no clmul peer).
    vs_clmul_peer: Option<Ratios>,
}

/// The whole report, as `--json` prints it.
#[derive(Serialize)]
struct Report {
    cpu: String,
    features: Vec<&'static str>,
    /// The nimber-product paths this CPU runs, slowest first.
    paths: Vec<&'static str>,
    /// The path `Simd::Auto` resolves to (or the one forced with `--simd`).
    path: &'static str,
    /// What each user-facing command runs on this CPU.
    commands: Vec<Command>,
    unit: &'static str,
    load_average_start: Option<String>,
    load_average_end: Option<String>,
    /// ns of CPU time per dependent 64-bit integer multiply (3 cycles on recent x86-64 cores).
    calibration_ns: f64,
    rows: Vec<Row>,
    /// One long slice call on one thread and split between threads (`None` on one core).
    split: Option<Split>,
}

/// One slice call of [`LONG`] products on the chosen path, on one thread and split between
/// every core ([`Multiplier::threads`]), in wall-time ns per product.
#[derive(Clone, Copy, Serialize)]
struct Split {
    products: usize,
    threads: usize,
    one_thread: f64,
    split: f64,
}

/// The [`Split`] figures, after checking that the split call gives the one-thread products.
fn split_figures(path: Simd) -> Result<Option<Split>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if threads < 2 {
        return Ok(None);
    }
    let (a, b) = (inputs(3, LONG), inputs(4, LONG));
    let one = Multiplier::new(path)?;
    let many = one.threads(threads);
    let (mut out, mut check) = (vec![0; LONG], vec![0; LONG]);
    one.mul_slices(&a, &b, &mut check)?;
    many.mul_slices(&a, &b, &mut out)?;
    if out != check {
        bail!("{path} split between {threads} threads: products differ from one thread's");
    }
    // By wall time: the calling thread sleeps while the pool's threads multiply.
    let mut time = |m: Multiplier| {
        measure_by(
            || {
                // The lengths are equal by construction.
                let _ = m.mul_slices(black_box(&a), &b, &mut out);
                out[0]
            },
            LONG,
            BUDGET_NS,
            || None,
        )
        .wall
    };
    Ok(Some(Split {
        products: LONG,
        threads,
        one_thread: time(one),
        split: time(many),
    }))
}

/// A user-facing command and what it runs on this CPU.
#[derive(Serialize)]
struct Command {
    command: &'static str,
    runs: String,
}

/// What each user-facing command runs on this CPU, for a slice path `batch`.
fn commands(batch: Simd) -> Vec<Command> {
    let clmul = Kernel::NimberProducts.runs(Simd::Avx2);
    let single = if clmul {
        "PCLMULQDQ: byte-table change of basis, one carry-less multiply, reduction, change back"
    } else {
        "log/exp tables of the 16-bit subfield with Karatsuba (no PCLMULQDQ on this CPU)"
    };
    let chain = if clmul {
        "the polynomial basis: one change of basis in and out, PCLMULQDQ and a reduction a step"
    } else {
        "single products (no PCLMULQDQ on this CPU)"
    };
    vec![
        Command {
            command: "sprague nimber mul|div|inv, sprague.nimber.mul on Python ints",
            runs: single.to_string(),
        },
        Command {
            command: "sprague nimber pow, Multiplier::product",
            runs: chain.to_string(),
        },
        Command {
            command: "sprague nimber mul --batch, sprague.nimber.mul on NumPy arrays",
            runs: format!("the {} slice path (Simd::Auto)", batch.name()),
        },
    ]
}

/// `sprague bench nimber [--simd PATH] [--json]`.
///
/// # Errors
/// When this CPU does not run `simd` (`BadInput` for the caller to report), or a method's
/// products are wrong.
pub fn run(simd: Simd, as_json: bool) -> Result<()> {
    let kernel = Kernel::NimberProducts;
    let paths = if simd == Simd::Auto {
        kernel.available()
    } else {
        vec![Multiplier::new(simd)
            .map_err(|e| crate::error::bad(e.to_string()))?
            .path()]
    };
    let chosen = kernel.resolve(simd);
    let load_start = load_average();
    if !as_json {
        println!("CPU: {}", cpu_model());
        println!("features: {}", cpu_features().join(" "));
        println!(
            "path: {} (paths this CPU runs: {})",
            chosen,
            kernel
                .available()
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(", ")
        );
        for c in commands(chosen) {
            println!("  {}: {}", c.command, c.runs);
        }
        println!(
            "load average at start: {}",
            load_start.as_deref().unwrap_or("?")
        );
    }
    let (a, b) = (inputs(1, N), inputs(2, N));
    let mut methods = Vec::new();
    for path in paths.into_iter().rev() {
        let m = Multiplier::new(path)?;
        methods.push(Method {
            name: format!("sprague {path}"),
            path: Some(path),
            peer: false,
            single: Box::new(move |x, y| m.mul(x, y)),
            batch: Box::new(move |x, y, o| {
                // The lengths are equal by construction.
                let _ = m.mul_slices(x, y, o);
            }),
            budget: BUDGET_NS,
        });
    }
    // Values kept in the polynomial basis: a chain pays one carry-less multiply and a reduction
    // a step (the conversions are outside the timed loop). The inputs are the images of `a` and
    // `b`, so the products are checked against the reference after the conversion back.
    let (pa, pb): (Vec<u64>, Vec<u64>) = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| (Polynomial::from_nimber(x).0, Polynomial::from_nimber(y).0))
        .unzip();
    let poly = Method {
        name: "sprague Polynomial basis".into(),
        path: None,
        peer: false,
        single: Box::new(|x, y| (Polynomial(x) * Polynomial(y)).0),
        batch: Box::new(Polynomial::mul_slices),
        budget: BUDGET_NS,
    };
    let peer = ClmulPeer::new();
    let mut peers = Vec::new();
    if let Some(peer) = &peer {
        peers.push(Method {
            name: "peer: clmul reference".into(),
            path: None,
            peer: true,
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
        path: None,
        peer: true,
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
    let mut timed: Vec<(&Method, Figures)> = Vec::new();
    for m in &methods {
        timed.push((m, run_method(m, &a, &b)?));
    }
    timed.push((&poly, run_poly(&poly, &a, &b, &pa, &pb)?));
    for m in &peers {
        let slow = m.budget < BUDGET_NS;
        let (x, y) = if slow {
            (&a[..few], &b[..few])
        } else {
            (&a[..], &b[..])
        };
        timed.push((m, run_method(m, x, y)?));
    }
    let split = split_figures(chosen)?;
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
    let reference = timed
        .iter()
        .find(|(m, _)| m.peer && m.name.contains("clmul"))
        .map(|&(_, f)| f);
    let rows: Vec<Row> = timed
        .iter()
        .map(|&(m, f)| Row {
            method: m.name.clone(),
            path: m.path.map(Simd::name),
            peer: m.peer,
            figures: f,
            vs_clmul_peer: reference.map(|r| Ratios {
                latency: r.latency.cpu / f.latency.cpu,
                throughput: r.throughput.cpu / f.throughput.cpu,
                batch: r.batch.cpu / f.batch.cpu,
            }),
        })
        .collect();
    let report = Report {
        cpu: cpu_model(),
        features: cpu_features(),
        paths: kernel.available().iter().map(|p| p.name()).collect(),
        path: chosen.name(),
        commands: commands(chosen),
        unit: "ns per 64-bit nim product, CPU time of the timing thread (wall time beside it)",
        load_average_start: load_start,
        load_average_end: load_average(),
        calibration_ns: calibration.cpu,
        rows,
        split,
    };
    if as_json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    print_table(&report);
    Ok(())
}

/// The polynomial-basis row: the same three figures on values already converted.
fn run_poly(m: &Method, a: &[u64], b: &[u64], pa: &[u64], pb: &[u64]) -> Result<Figures> {
    let mut out = vec![0u64; pa.len()];
    (m.batch)(pa, pb, &mut out);
    for i in 0..pa.len() {
        let expected = mul_reference(a[i], b[i]);
        let single = Polynomial((m.single)(pa[i], pb[i])).to_nimber();
        if single != expected || Polynomial(out[i]).to_nimber() != expected {
            bail!("{}: wrong product of {} and {}", m.name, a[i], b[i]);
        }
    }
    run_method_unchecked(m, pa, pb)
}

fn print_table(r: &Report) {
    println!(
        "calibration: {:.3} ns a dependent 64-bit multiply (3 cycles: {:.2} GHz)",
        r.calibration_ns,
        3.0 / r.calibration_ns
    );
    println!();
    println!(
        "ns per 64-bit nim product, by CPU time (wall time in brackets); ×R: the clmul peer's"
    );
    println!("figure divided by this row's, from the same run (above 1: faster than the peer)");
    println!(
        "{:<26} {:>24} {:>24} {:>24}",
        "method", "latency", "throughput", "batch (4096)"
    );
    for row in &r.rows {
        // The clmul peer's own row carries no ratio (it would read ×1).
        let reference = row.peer && row.method.contains("clmul");
        let cell = |fig: Figure, ratio: Option<f64>| match ratio {
            Some(x) if !reference => {
                format!("{:.2} ({:.2}) ×{}", fig.cpu, fig.wall, ratio_text(x))
            }
            _ => format!("{:.2} ({:.2})", fig.cpu, fig.wall),
        };
        let ratio = |pick: fn(&Ratios) -> f64| row.vs_clmul_peer.as_ref().map(pick);
        println!(
            "{:<26} {:>24} {:>24} {:>24}",
            row.method,
            cell(row.figures.latency, ratio(|x| x.latency)),
            cell(row.figures.throughput, ratio(|x| x.throughput)),
            cell(row.figures.batch, ratio(|x| x.batch))
        );
    }
    println!();
    println!("latency: x <- x * b[i], each product waiting for the one before ('nimber mul');");
    println!(
        "throughput: independent single products; batch: one slice call ('nimber mul --batch')."
    );
    println!(
        "Polynomial basis: the same on values converted once (Polynomial, product(), pow chains)."
    );
    if let Some(s) = &r.split {
        println!();
        println!(
            "one slice call of {} products, wall ns per product: {:.2} on one thread, {:.2} \
             split between {} threads (×{:.2}; 'sprague.nimber.mul' on NumPy arrays splits so)",
            s.products,
            s.one_thread,
            s.split,
            s.threads,
            s.one_thread / s.split
        );
    }
    println!(
        "load average at end: {}",
        r.load_average_end.as_deref().unwrap_or("?")
    );
}

/// A ratio with enough digits to be read (the `nimber` crate's is tiny).
fn ratio_text(x: f64) -> String {
    if x >= 0.1 {
        format!("{x:.2}")
    } else {
        format!("{x:.1e}")
    }
}
