//! Benchmarks of the classic games: our figures beside the baselines they replace, measured in
//! the same run. Every benchmark asserts the value it computes.
//!
//! Run with `cargo bench -p sprague --bench classic`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use sprague::games::ends::{margins, Take};
use sprague::games::queues::first_player_wins;
use std::hint::black_box;

/// A deterministic pseudo-random row in -1000..1000.
fn row(n: usize, seed: u64) -> Vec<i64> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % 2001) as i64 - 1000
        })
        .collect()
}

/// Seed 000's O(n³) recurrence for take-from-ends, the baseline.
fn seed_cubic(numbers: &[i64]) -> i64 {
    let n = numbers.len();
    let mut sum = vec![0i64; n + 1];
    for i in 0..n {
        sum[i + 1] = sum[i] + numbers[i];
    }
    let mut dp = vec![vec![0i64; n]; n];
    for i in 0..n {
        dp[i][i] = numbers[i];
    }
    for gap in 1..n {
        for i in 0..n - gap {
            let j = i + gap;
            let mut best = sum[j + 1] - sum[i];
            for k in 1..j - i + 1 {
                best = best
                    .max(sum[i + k] - sum[i] - dp[i + k][j])
                    .max(sum[j + 1] - sum[j - k + 1] - dp[i][j - k]);
            }
            dp[i][j] = best;
        }
    }
    dp[0][n - 1]
}

/// The two-queue game on the full grid, the baseline.
fn queues_full_grid(a: &[u64], b: &[u64], threshold: u64) -> bool {
    let (w, h) = (a.len(), b.len());
    let mut pa = vec![0u64; w + 1];
    for i in 0..w {
        pa[i + 1] = pa[i] + a[i];
    }
    let mut pb = vec![0u64; h + 1];
    for j in 0..h {
        pb[j + 1] = pb[j] + b[j];
    }
    let valid = |x: usize, y: usize| pa[x] + pb[y] < threshold;
    let mut wins = vec![true; (w + 1) * (h + 1)];
    for x in (0..=w).rev() {
        for y in (0..=h).rev() {
            if valid(x, y) {
                wins[x * (h + 1) + y] = (x < w && valid(x + 1, y) && !wins[(x + 1) * (h + 1) + y])
                    || (y < h && valid(x, y + 1) && !wins[x * (h + 1) + y + 1]);
            }
        }
    }
    wins[0]
}

fn ends(c: &mut Criterion) {
    let mut group = c.benchmark_group("ends:any");
    group.sample_size(10);
    let small = row(400, 1);
    let expected = seed_cubic(&small);
    assert_eq!(margins(&small, Take::Any).whole, expected);
    group.bench_with_input(BenchmarkId::new("ours O(n^2)", 400), &small, |b, r| {
        b.iter(|| assert_eq!(margins(black_box(r), Take::Any).whole, expected))
    });
    group.bench_with_input(BenchmarkId::new("seed O(n^3)", 400), &small, |b, r| {
        b.iter(|| assert_eq!(seed_cubic(black_box(r)), expected))
    });
    let large = row(5000, 2);
    let value = margins(&large, Take::Any).whole;
    // The first player can always take the whole row, or its better end.
    assert!(value >= large.iter().sum::<i64>());
    group.bench_with_input(BenchmarkId::new("ours O(n^2)", 5000), &large, |b, r| {
        b.iter(|| assert_eq!(margins(black_box(r), Take::Any).whole, value))
    });
    group.finish();
}

fn queues(c: &mut Criterion) {
    let mut group = c.benchmark_group("queues");
    group.sample_size(10);
    let a: Vec<u64> = row(3000, 3).iter().map(|x| x.unsigned_abs() % 10).collect();
    let b: Vec<u64> = row(3000, 4).iter().map(|x| x.unsigned_abs() % 10).collect();
    let threshold = (a.iter().sum::<u64>() + b.iter().sum::<u64>()) * 2 / 3;
    let expected = queues_full_grid(&a, &b, threshold);
    assert_eq!(first_player_wins(&a, &b, 0, threshold), expected);
    group.bench_function("diagonal boundary 3000x3000", |bench| {
        bench.iter(|| assert_eq!(first_player_wins(black_box(&a), &b, 0, threshold), expected))
    });
    group.bench_function("full grid 3000x3000", |bench| {
        bench.iter(|| assert_eq!(queues_full_grid(black_box(&a), &b, threshold), expected))
    });
    group.finish();
}

fn josephus(c: &mut Criterion) {
    let n = 1_000_000_000_000_000_000u64;
    let survivor = sprague::josephus::kth(n, 3, n).unwrap();
    assert_eq!(sprague::josephus::when(n, 3, survivor).unwrap(), n);
    c.bench_function("josephus kth n=1e18 k=3 (survivor)", |b| {
        b.iter(|| {
            assert_eq!(
                sprague::josephus::kth(black_box(n), 3, n).unwrap(),
                survivor
            )
        })
    });
}

criterion_group!(benches, ends, queues, josephus);
criterion_main!(benches);
