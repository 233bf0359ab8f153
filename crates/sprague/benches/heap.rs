//! Tabulation speed of the heap engine, each figure beside a baseline measured in the same run:
//! - Kayles (0.77): the bitset code engine against the generic engine fed option lists;
//! - 0.16 to 50 000: the code engine (pair marking dominates);
//! - a subtraction set of 300 amounts up to 10^5: the engine against a hash set per heap.
//!
//! Run with `cargo bench -p sprague --bench heap`. Every run asserts that both sides computed
//! the same values.

use criterion::{criterion_group, criterion_main, Criterion};
use sprague::heap::{Code, HeapRules, Tabulation};
use std::collections::HashSet;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// The same rules without the code, so the generic engine runs.
struct OptionsOnly(Code);

impl HeapRules for OptionsOnly {
    fn options(&self, n: u64) -> Vec<Vec<u64>> {
        self.0.options(n)
    }
}

fn tabulate(rules: Arc<dyn HeapRules>, to: u64) -> Vec<u32> {
    let mut t = Tabulation::new(rules);
    t.extend_to(to, &()).unwrap();
    t.values().to_vec()
}

/// The subtraction set: 300 amounts spread up to about 10^5.
fn big_set() -> Vec<u64> {
    let mut set: Vec<u64> = (0..300u64).map(|i| 1 + (i * 7919 * 13) % 100_000).collect();
    set.sort_unstable();
    set.dedup();
    set
}

/// The textbook loop: a hash set of option values per heap.
fn hash_set_subtraction(set: &[u64], to: u64) -> Vec<u32> {
    let mut values: Vec<u32> = Vec::with_capacity(to as usize + 1);
    for n in 0..=to {
        let seen: HashSet<u32> = set
            .iter()
            .filter(|&&t| t <= n)
            .map(|&t| values[(n - t) as usize])
            .collect();
        let mut g = 0;
        while seen.contains(&g) {
            g += 1;
        }
        values.push(g);
    }
    values
}

fn benches(c: &mut Criterion) {
    let kayles = Code::parse("0.77").unwrap();
    let fast = tabulate(Arc::new(kayles.clone()), 5000);
    let slow = tabulate(Arc::new(OptionsOnly(kayles.clone())), 5000);
    assert_eq!(fast, slow);
    assert_eq!(&fast[72..84], &[4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7]);
    let mut group = c.benchmark_group("kayles to 5000");
    group.sample_size(10);
    group.bench_function("sprague code engine", |b| {
        b.iter(|| tabulate(Arc::new(kayles.clone()), black_box(5000)))
    });
    group.bench_function("baseline: option lists", |b| {
        b.iter(|| tabulate(Arc::new(OptionsOnly(kayles.clone())), black_box(5000)))
    });
    group.finish();

    let octal16 = Code::parse("0.16").unwrap();
    let mut group = c.benchmark_group("0.16 to 50000");
    group.sample_size(10);
    group.bench_function("sprague code engine", |b| {
        b.iter(|| tabulate(Arc::new(octal16.clone()), black_box(50_000)))
    });
    group.finish();

    let set = big_set();
    let code = Code::subtraction(&set).unwrap();
    let to = 200_000;
    assert_eq!(
        tabulate(Arc::new(code.clone()), to),
        hash_set_subtraction(&set, to)
    );
    let mut group = c.benchmark_group("sub: 300 amounts up to 1e5, to 200000");
    group.sample_size(10);
    group.bench_function("sprague code engine", |b| {
        b.iter(|| tabulate(Arc::new(code.clone()), black_box(to)))
    });
    group.bench_function("baseline: hash set per heap", |b| {
        b.iter(|| hash_set_subtraction(&set, black_box(to)))
    });
    group.finish();

    // The target, once: the same set to 10^6.
    let start = Instant::now();
    let values = tabulate(Arc::new(code), 1_000_000);
    println!(
        "sub: 300 amounts up to 1e5, to 1e6: {:.2?} (G(10^6) = {})",
        start.elapsed(),
        values[1_000_000]
    );
}

criterion_group!(heap, benches);
criterion_main!(heap);
