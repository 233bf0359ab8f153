//! `sprague solve FILE` at scale: a random graph of 10^6 vertices and 3·10^6 edges, parsed from
//! its file text, solved by retrograde analysis, labelled with loopy nim values, and turned into
//! the JSON report.
//!
//! Run with `cargo bench --bench graph`. There is no peer program for this; the baseline printed
//! beside our figures is one breadth-first pass over the reverse edges (the least any backward
//! analysis must do), measured in the same run.

use criterion::{criterion_group, criterion_main, Criterion};
use sprague::game::Outcome;
use sprague::solve::{graph_report, loopy_values, retrograde, Graph};
use std::fmt::Write;
use std::hint::black_box;
use std::time::{Duration, Instant};

const VERTICES: u32 = 1_000_000;
const EDGES: usize = 3_000_000;

/// The file text of a random graph (splitmix64, fixed seed: the same graph every run).
fn random_file() -> String {
    let mut state: u64 = 0x5eed_0004;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % u64::from(VERTICES)) as u32
    };
    let mut text = String::with_capacity(EDGES * 16);
    writeln!(text, "{VERTICES} {EDGES}").unwrap();
    for _ in 0..EDGES {
        let (u, v) = (next(), next());
        writeln!(text, "{u} {v}").unwrap();
    }
    text
}

/// The baseline: one breadth-first pass over the reverse edges from every vertex with no move.
fn baseline_pass(graph: &Graph) -> usize {
    let n = graph.vertex_count();
    let mut seen = vec![false; n];
    let mut queue: Vec<u32> = (0..n as u32)
        .filter(|&v| graph.out_degree(v) == 0)
        .collect();
    for &v in &queue {
        seen[v as usize] = true;
    }
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        for &p in graph.predecessors(v) {
            if !seen[p as usize] {
                seen[p as usize] = true;
                queue.push(p);
            }
        }
    }
    queue.len()
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

fn bench(c: &mut Criterion) {
    let text = random_file();
    let (graph, parse) = timed(|| Graph::parse(&text).expect("the generated file parses"));
    assert_eq!(graph.vertex_count(), VERTICES as usize);
    assert_eq!(graph.edge_count(), EDGES);
    let (outcomes, retro) = timed(|| retrograde(&graph, |_| None));
    let (values, loopy) = timed(|| loopy_values(&graph));
    let (report, report_time) = timed(|| graph_report(&graph));
    let (json, json_time) = timed(|| serde_json::to_vec(&report).unwrap());
    let (_, baseline) = timed(|| baseline_pass(&graph));

    // The counts must add up, and the two solvers must agree vertex by vertex.
    let counts = outcomes.counts();
    assert_eq!(
        counts.wins + counts.losses + counts.ties + counts.draws,
        u64::from(VERTICES)
    );
    assert_eq!(counts.ties, 0);
    let mut finite = 0u64;
    let mut max_value = 0u64;
    for v in 0..VERTICES {
        assert_eq!(values.outcome(&graph, v), outcomes.outcome(v), "vertex {v}");
        if let Some(g) = values.finite(v) {
            finite += 1;
            max_value = max_value.max(g);
        }
        assert_eq!(report.vertices[v as usize].outcome, outcomes.outcome(v));
    }
    let draws = (0..VERTICES)
        .filter(|&v| outcomes.outcome(v) == Outcome::D)
        .count();
    println!(
        "graph: {VERTICES} vertices, {EDGES} edges ({:.1} MB of text)",
        text.len() as f64 / 1e6
    );
    println!(
        "  outcomes: {} N, {} P, {draws} D; finite loopy values: {finite} (largest {max_value})",
        counts.wins, counts.losses
    );
    println!("  parse           {parse:>10.1?}");
    println!("  retrograde      {retro:>10.1?}");
    println!("  loopy values    {loopy:>10.1?}");
    println!("  full report     {report_time:>10.1?} (retrograde + loopy + records)");
    println!(
        "  JSON            {json_time:>10.1?} ({:.1} MB)",
        json.len() as f64 / 1e6
    );
    println!("  baseline: one BFS over reverse edges {baseline:>10.1?}");

    let mut group = c.benchmark_group("solve_graph_1e6");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("parse", |b| b.iter(|| Graph::parse(black_box(&text))));
    group.bench_function("retrograde", |b| {
        b.iter(|| retrograde(black_box(&graph), |_| None))
    });
    group.bench_function("loopy_values", |b| {
        b.iter(|| loopy_values(black_box(&graph)))
    });
    group.bench_function("baseline_bfs", |b| {
        b.iter(|| baseline_pass(black_box(&graph)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
