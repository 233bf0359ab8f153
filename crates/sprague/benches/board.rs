//! Strong solving of board games with the tiered retrograde solver, one and two threads.
//!
//! `cargo bench -p sprague --bench board`: criterion times tic-tac-toe; then single solves of
//! `mnk:4,4,4` and of connect boards print positions per second, bytes per position and wall
//! time, beside the baseline of plain memoised minimax (a hash map of positions) measured in
//! the same run. `BOARD_BENCH_CONNECT=W,H,K` picks the connect board (default 5,5,4);
//! `BOARD_BENCH_QUICK=1` runs only the `mnk:4,4,4` solves.

use criterion::{criterion_group, Criterion};
use sprague::games::mnk::{Board, BoardRules};
use sprague::solve::tiered::{self, Record, TieredGame, Value};
use std::collections::HashMap;
use std::time::Instant;

fn minimax(rules: &BoardRules, board: Board, memo: &mut HashMap<Board, Record>) -> Record {
    if let Some(&r) = memo.get(&board) {
        return r;
    }
    let record = match rules.terminal(&board) {
        Some(sprague::game::Terminal::Tie) => Record::new(Value::Tie, 0),
        Some(_) => Record::new(Value::Lose, 0),
        None => {
            let mut children = Vec::new();
            rules.children(&board, &mut children);
            let values: Vec<Record> = children.iter().map(|&c| minimax(rules, c, memo)).collect();
            let of = |v: Value| {
                values
                    .iter()
                    .filter(move |r| r.value() == v)
                    .map(|r| r.remoteness().unwrap_or(0))
            };
            if let Some(m) = of(Value::Lose).min() {
                Record::new(Value::Win, m + 1)
            } else if let Some(m) = of(Value::Tie).min() {
                Record::new(Value::Tie, m + 1)
            } else {
                Record::new(Value::Lose, of(Value::Win).max().unwrap_or(0) + 1)
            }
        }
    };
    memo.insert(board, record);
    record
}

fn tic_tac_toe(c: &mut Criterion) {
    let rules = BoardRules::new(3, 3, 3, false).unwrap();
    c.bench_function("solve mnk:3,3,3 (tiered, 1 thread)", |b| {
        b.iter(|| tiered::solve(&rules, Some(1), u64::MAX, &()).unwrap())
    });
    c.bench_function("solve mnk:3,3,3 (memoised minimax baseline)", |b| {
        b.iter(|| {
            let mut memo = HashMap::new();
            minimax(&rules, Board::default(), &mut memo)
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = tic_tac_toe
}

fn solve_figures(name: &str, rules: &BoardRules) -> Vec<u16> {
    let mut records: Option<Vec<u16>> = None;
    for threads in [1, 2] {
        let solution = tiered::solve(rules, Some(threads), u64::MAX, &()).unwrap();
        let s = &solution.stats;
        let start = solution.record(rules, &Board::default());
        println!(
            "{name}: {threads} thread(s): {} positions ({} legal) in {:.2} s, {:.2e} positions/s, {:.2} bytes/position, start {:?} in {:?}",
            s.indices,
            s.positions,
            s.elapsed.as_secs_f64(),
            s.positions_per_second(),
            s.bytes_per_position(),
            start.value(),
            start.remoteness(),
        );
        // Both runs must agree exactly.
        match &records {
            None => records = Some(solution.records().to_vec()),
            Some(r) => assert_eq!(
                r.as_slice(),
                solution.records(),
                "{name}: 1 and 2 threads differ"
            ),
        }
    }
    let start = Instant::now();
    let reachable = tiered::reachable(rules, Some(2)).unwrap();
    println!(
        "{name}: {reachable} positions reachable from the start (counted in {:.2} s)",
        start.elapsed().as_secs_f64()
    );
    records.unwrap_or_default()
}

fn main() {
    // BOARD_BENCH_QUICK=1 skips criterion and the baseline (for profiling).
    let quick = std::env::var_os("BOARD_BENCH_QUICK").is_some();
    if !quick {
        benches();
    }
    let rules = BoardRules::new(4, 4, 4, false).unwrap();
    solve_figures("mnk:4,4,4", &rules);
    if quick {
        return;
    }
    let solution = tiered::solve(&rules, Some(1), u64::MAX, &()).unwrap();
    // 4×4 with lines of 4 is a tie; the memoised minimax baseline must agree.
    assert_eq!(
        solution.record(&rules, &Board::default()).value(),
        Value::Tie
    );
    let start = Instant::now();
    let mut memo = HashMap::new();
    let baseline = minimax(&rules, Board::default(), &mut memo);
    let elapsed = start.elapsed().as_secs_f64();
    assert_eq!(baseline, solution.record(&rules, &Board::default()));
    println!(
        "mnk:4,4,4: baseline memoised minimax (hash map, 1 thread): {} positions in {:.2} s, {:.2e} positions/s",
        memo.len(),
        elapsed,
        memo.len() as f64 / elapsed
    );
    drop(memo);

    let spec = std::env::var("BOARD_BENCH_CONNECT").unwrap_or_else(|_| "5,5,4".into());
    let p: Vec<usize> = spec.split(',').filter_map(|x| x.parse().ok()).collect();
    if let [w, h, k] = p[..] {
        let rules = BoardRules::new(w, h, k, true).unwrap();
        solve_figures(&format!("connect:{w},{h},{k}"), &rules);
    }
    criterion::Criterion::default().final_summary();
}
