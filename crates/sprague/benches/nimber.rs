//! Nim multiplication: ns per product for our fast paths (AVX-512 with GFNI and VPCLMULQDQ, or
//! AVX2 with VPCLMULQDQ or PCLMULQDQ, for slices; PCLMULQDQ with a change of basis for single
//! products), our portable fallback (16-bit log/exp with Karatsuba, bit-sliced slices), a
//! byte-table baseline written here, and the `nimber` crate: independent products one at a
//! time, in batch, and as a dependent chain (latency); then the figures in one table.
//!
//! Run with `cargo bench -p sprague --bench nimber`. Every method's products are checked
//! against the recursive definition before it is timed.

use criterion::{black_box, Criterion, Throughput};
use sprague::nimber::{self, mul_reference, Multiplier, Polynomial};
use sprague::simd::{Kernel, Simd};
use std::time::Instant;

const N: usize = 4096;

fn inputs(seed: u64) -> Vec<u64> {
    let mut state = seed;
    (0..N)
        .map(|_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

/// The baseline: nim products of bytes from a 256×256 table, each placed by a table of
/// "times 2^(8i) ⊗ 2^(8j)" for the 36 pairs i ≤ j of byte positions.
struct ByteTables {
    small: Vec<u8>,         // small[x·256 + y] = x ⊗ y
    place: Vec<[u64; 256]>, // place[i·8 + j][v] = v ⊗ 2^(8i) ⊗ 2^(8j)
}

impl ByteTables {
    fn new() -> Self {
        let mut small = vec![0u8; 65536];
        for x in 0..256u64 {
            for y in 0..256u64 {
                small[(x * 256 + y) as usize] = mul_reference(x, y) as u8;
            }
        }
        let mut place = vec![[0u64; 256]; 64];
        for i in 0..8 {
            for j in 0..8 {
                let c = mul_reference(1 << (8 * i), 1 << (8 * j));
                let columns: Vec<u64> = (0..8).map(|b| mul_reference(1 << b, c)).collect();
                for (v, slot) in place[i * 8 + j].iter_mut().enumerate() {
                    *slot = (0..8)
                        .filter(|b| v >> b & 1 == 1)
                        .fold(0, |acc, b| acc ^ columns[b]);
                }
            }
        }
        ByteTables { small, place }
    }

    #[inline]
    fn mul(&self, a: u64, b: u64) -> u64 {
        let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
        let mut out = 0;
        for (i, &x) in a.iter().enumerate() {
            let row = x as usize * 256;
            for (j, &y) in b.iter().enumerate() {
                let v = self.small[row + y as usize];
                out ^= self.place[i * 8 + j][v as usize];
            }
        }
        out
    }
}

fn crate_mul(a: u64, b: u64) -> u64 {
    let p = &::nimber::FiniteNimber::from(a) * &::nimber::FiniteNimber::from(b);
    p.as_slice().first().copied().unwrap_or(0)
}

type Single = Box<dyn Fn(u64, u64) -> u64>;
type Batch = Box<dyn Fn(&[u64], &[u64], &mut [u64])>;

fn methods() -> Vec<(&'static str, Single, Batch)> {
    let tables = std::rc::Rc::new(ByteTables::new());
    let t2 = tables.clone();
    let mut out: Vec<(&'static str, Single, Batch)> = Vec::new();
    for path in Kernel::NimberProducts.available().into_iter().rev() {
        let m = Multiplier::new(path).expect("an available path");
        let name: &'static str = match path {
            Simd::Avx512 => "sprague avx512 (gfni+vpclmulqdq)",
            Simd::Avx2Vpclmul => "sprague avx2 + vpclmulqdq",
            Simd::Avx2 => "sprague avx2 + pclmulqdq",
            _ => "sprague portable (log/exp, bit-sliced)",
        };
        out.push((
            name,
            Box::new(move |a, b| m.mul(a, b)),
            Box::new(move |a, b, o| m.mul_slices(a, b, o).unwrap()),
        ));
    }
    out.push((
        "byte-table baseline",
        Box::new(move |a, b| tables.mul(a, b)),
        Box::new(move |a, b, o| {
            for ((o, &x), &y) in o.iter_mut().zip(a).zip(b) {
                *o = t2.mul(x, y);
            }
        }),
    ));
    out.push((
        "nimber crate 0.1",
        Box::new(crate_mul),
        Box::new(|a, b, o| {
            for ((o, &x), &y) in o.iter_mut().zip(a).zip(b) {
                *o = crate_mul(x, y);
            }
        }),
    ));
    out
}

fn single_pass(f: &dyn Fn(u64, u64) -> u64, a: &[u64], b: &[u64]) -> u64 {
    let mut acc = 0;
    for (&x, &y) in a.iter().zip(b) {
        acc ^= f(black_box(x), black_box(y));
    }
    acc
}

/// This thread's CPU time (user + system) in ns, from /proc (clock ticks of 10 ms), so that the
/// figures do not count the time other processes hold the CPU. `None` off Linux.
fn cpu_time_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks * 10_000_000)
}

/// ns per product: (by CPU time over at least 0.4 s of it, by wall time over the same run).
/// The clocks are read between groups of passes that take at least a millisecond, so that
/// reading /proc (microseconds) adds well under 1% to the figures.
fn ns_per_product(mut pass: impl FnMut() -> u64, products: usize) -> (f64, f64) {
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
        let spent = match (cpu, cpu_time_ns()) {
            (Some(start), Some(now)) => now - start,
            _ => wall.elapsed().as_nanos() as u64,
        };
        if spent >= 400_000_000 && passes >= 3 {
            black_box(sink);
            let n = (passes * products as u64) as f64;
            return (spent as f64 / n, wall.elapsed().as_nanos() as f64 / n);
        }
    }
}

fn main() {
    let (a, b) = (inputs(1), inputs(2));
    let expected: Vec<u64> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| mul_reference(x, y))
        .collect();
    let methods = methods();
    let mut out = vec![0u64; N];
    for (name, single, batch) in &methods {
        for i in 0..N {
            assert_eq!(
                single(a[i], b[i]),
                expected[i],
                "{name}: single product {i}"
            );
        }
        batch(&a, &b, &mut out);
        assert_eq!(out, expected, "{name}: batch");
    }
    let product_expected = a[..64].iter().fold(1, |p, &x| mul_reference(p, x));
    assert_eq!(
        nimber::product(&a[..64], Simd::Auto).unwrap(),
        product_expected
    );

    let mut criterion = Criterion::default().configure_from_args();
    {
        let mut group = criterion.benchmark_group("nim product");
        group.throughput(Throughput::Elements(N as u64));
        for (name, single, batch) in &methods {
            group.bench_function(format!("{name} / one at a time"), |bench| {
                bench.iter(|| single_pass(single.as_ref(), &a, &b))
            });
            group.bench_function(format!("{name} / batch"), |bench| {
                bench.iter(|| batch(black_box(&a), black_box(&b), &mut out))
            });
        }
        group.bench_function("sprague product() of 4096, polynomial basis", |bench| {
            bench.iter(|| nimber::product(black_box(&a), Simd::Auto))
        });
        group.bench_function("sprague dot() of 4096, polynomial basis", |bench| {
            bench.iter(|| nimber::dot(black_box(&a), black_box(&b), Simd::Auto))
        });
        group.finish();
    }
    criterion.final_summary();

    // Calibration: a dependent chain of 64-bit multiplies runs at one per 3 cycles on a quiet
    // core, which shows how much the machine's load slows every figure below.
    let calibration = ns_per_product(
        || {
            // Squaring: each product needs the one before, and no closed form skips the chain.
            let mut x = black_box(3u64);
            for _ in 0..N {
                x = x.wrapping_mul(x);
            }
            x
        },
        N,
    );
    println!(
        "\ncalibration: {:.3} ns ({:.3}) per dependent 64-bit multiply (3 cycles on a quiet core)",
        calibration.0, calibration.1
    );
    println!(
        "\nns per nim product over {N} random 64-bit pairs, by CPU time (wall time in brackets):"
    );
    println!(
        "{:<34} {:>20} {:>20} {:>20}",
        "method", "one at a time", "batch", "latency (chain)"
    );
    let show = |(cpu, wall): (f64, f64)| format!("{cpu:.2} ({wall:.2})");
    for (name, single, batch) in &methods {
        let one = ns_per_product(|| single_pass(single.as_ref(), &a, &b), N);
        let many = ns_per_product(
            || {
                batch(&a, &b, &mut out);
                out[N - 1]
            },
            N,
        );
        // A dependent chain x ← x ⊗ b[i]: each product waits for the one before.
        let chain = ns_per_product(
            || {
                let mut x = black_box(a[0]) | 1;
                for &y in &b {
                    x = single(x, y | 1);
                }
                x
            },
            N,
        );
        println!(
            "{name:<34} {:>20} {:>20} {:>20}",
            show(one),
            show(many),
            show(chain)
        );
    }
    let direct = ns_per_product(
        || {
            let mut acc = 0;
            for (&x, &y) in a.iter().zip(&b) {
                acc ^= nimber::mul(black_box(x), black_box(y));
            }
            acc
        },
        N,
    );
    println!("{:<34} {:>20}", "sprague mul(), direct loop", show(direct));
    let (mut pa, mut pb) = (a.clone(), b.clone());
    Polynomial::from_nimbers(&mut pa);
    Polynomial::from_nimbers(&mut pb);
    let poly_single = ns_per_product(
        || {
            let mut acc = 0;
            for (&x, &y) in pa.iter().zip(&pb) {
                acc ^= (Polynomial(black_box(x)) * Polynomial(black_box(y))).0;
            }
            acc
        },
        N,
    );
    let poly_batch = ns_per_product(
        || {
            Polynomial::mul_slices(&pa, &pb, &mut out);
            out[N - 1]
        },
        N,
    );
    let best = Multiplier::best();
    let product = ns_per_product(|| best.product(&a), N);
    let dot = ns_per_product(|| best.dot(&a, &b).unwrap(), N);
    let mut scaled = a.clone();
    let scale = ns_per_product(
        || {
            best.scale(b[0], &mut scaled);
            scaled[0]
        },
        N,
    );
    println!(
        "{:<34} {:>20} {:>20}",
        "sprague, values in poly basis",
        show(poly_single),
        show(poly_batch)
    );
    println!(
        "{:<34} {:>20} {:>20}",
        "sprague product() of a slice",
        "",
        show(product)
    );
    println!(
        "{:<34} {:>20} {:>20}",
        "sprague dot() of two slices",
        "",
        show(dot)
    );
    println!(
        "{:<34} {:>20} {:>20}",
        "sprague scale() of a slice",
        "",
        show(scale)
    );

    // `sprague nimber mul --batch`: 10^6 products from text to text.
    let big_a = (0..1_000_000u64).map(|i| a[(i as usize) % N] ^ i);
    let mut text = String::from("1000000\n");
    for (i, x) in big_a.enumerate() {
        text.push_str(&format!("{x} {}\n", b[i % N]));
    }
    let mut sink = Vec::with_capacity(21_000_000);
    let (t, cpu) = (Instant::now(), cpu_time_ns());
    let count = nimber::mul_batch(text.as_bytes(), &mut sink, Simd::Auto).unwrap();
    let (io, io_cpu) = (t.elapsed(), cpu_time_ns().zip(cpu).map(|(b, a)| b - a));
    assert_eq!(count, 1_000_000);
    println!(
        "mul_batch I/O: 10^6 products, text in to text out: {:.1} ms wall, {} ms CPU",
        io.as_secs_f64() * 1e3,
        io_cpu.map_or("?".into(), |ns| (ns / 1_000_000).to_string())
    );

    // corners with 10^5 heads at coordinates up to 10^18: value, and one winning move.
    let coords = inputs(3);
    let mut words = vec!["corners".to_string()];
    for i in 0..100_000usize {
        let x = (coords[i % N] % 1_000_000_000_000_000_000) ^ (i as u64);
        let y = coords[(i * 7 + 1) % N] % 1_000_000_000_000_000_000;
        words.push(format!("{x},{y}"));
    }
    let t = Instant::now();
    let position = sprague::catalog::Catalog::default()
        .parse_position(&words)
        .unwrap();
    // The row of heads is one part (its heads are not independent summands).
    let parts = position.parts();
    assert_eq!(parts.len(), 1);
    let total = parts[0].nim_value().unwrap().finite().unwrap();
    assert_ne!(total, 0);
    let moves = parts[0].options_with_value(0, 1).unwrap();
    let elapsed = t.elapsed();
    assert_eq!(moves.items.len(), 1);
    let after = moves.items[0].parts[0]
        .nim_value()
        .unwrap()
        .finite()
        .unwrap();
    assert_eq!(after, 0, "the winning move leaves a P-position");
    let t = Instant::now();
    let found = parts[0].options_with_value(0, 100_000).unwrap().items.len();
    println!(
        "corners, 10^5 heads up to 10^18: parse + value + one winning move {:.1} ms; \
         winning moves of all {found} heads with g ⊕ s < g: {:.1} ms",
        elapsed.as_secs_f64() * 1e3,
        t.elapsed().as_secs_f64() * 1e3
    );
}
