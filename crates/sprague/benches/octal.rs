//! Octal-game tables: the sparse engine beside its own naive mode (the baseline) in one run.
//!
//! `cargo bench -p sprague --bench octal`. Each case asserts the value it computes, so a fast
//! but wrong engine fails. The comparison with ogsolve is `scripts/bench-octal.sh`.

use criterion::{criterion_group, criterion_main, Criterion};
use sprague::heap::rare::{compute, Options};
use sprague::heap::Code;
use std::hint::black_box;

/// (code, heap, expected G(heap)); values checked against ogsolve's tables.
const CASES: &[(&str, usize, u16)] = &[("0.6", 1 << 16, 99), ("0.106", 1 << 16, 0)];

fn octal(c: &mut Criterion) {
    let mut group = c.benchmark_group("octal");
    group.sample_size(10);
    for &(code, to, expected) in CASES {
        let parsed = Code::parse(code).expect("a valid code");
        for (name, naive_only) in [("sparse", false), ("naive baseline", true)] {
            let options = Options {
                naive_only,
                ..Options::default()
            };
            group.bench_function(format!("{code} to {to}, {name}"), |b| {
                b.iter(|| {
                    let values = compute(&parsed, black_box(to), &options, &()).expect("computed");
                    assert_eq!(values[to], expected, "G({to}) of {code}");
                    values
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, octal);
criterion_main!(benches);
