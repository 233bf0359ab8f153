//! Scripted games against the same games built in: positions per second and the ratio.
//!
//! `cargo bench -p sprague --bench script`. Each pair runs the same solver on the same game, once
//! with rules from a Rhai script (`examples/scripts/`) and once with rules written in Rust, so the
//! ratio is the cost of calling the script. Each figure is the best of three runs; the counts
//! computed are asserted.

use sprague::game::{Impartial, Terminal, TwoPlayer};
use sprague::games::cards::Cards;
use sprague::heap::{HeapRules, Tabulation};
use sprague::solve::loopy::loopy_nim_values_from;
use sprague::solve::retrograde::solve_game_from;
use std::sync::Arc;
use std::time::Instant;

fn script(name: &str) -> String {
    format!(
        "{}/../../examples/scripts/{name}.rhai",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The best time of three runs of `run`, which returns the positions it solved.
fn best(positions: u64, mut run: impl FnMut() -> u64) -> f64 {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            assert_eq!(run(), positions);
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn report(name: &str, positions: u64, scripted: f64, built_in: f64) {
    let rate = |t: f64| positions as f64 / t;
    println!(
        "{name:<34} {positions:>7} positions  scripted {:>10.0}/s  built in {:>12.0}/s  ratio {:>6.1}x",
        rate(scripted),
        rate(built_in),
        built_in.recip() / scripted.recip()
    );
}

struct Sub134;
impl sprague::game::Game for Sub134 {
    type Position = i64;
}

impl Impartial for Sub134 {
    fn options(&self, n: &i64) -> Vec<i64> {
        [1, 3, 4]
            .iter()
            .filter(|&&t| t <= *n)
            .map(|t| n - t)
            .collect()
    }
}

/// Kayles from its option lists, so the generic engine runs as for a script.
struct Kayles;
impl HeapRules for Kayles {
    fn options(&self, n: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for t in 1..=2.min(n) {
            let rest = n - t;
            out.extend((0..=rest / 2).map(|a| vec![a, rest - a]));
        }
        out
    }
}

#[derive(Clone, Copy)]
struct TicTacToe;
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];
impl sprague::game::Game for TicTacToe {
    type Position = [u8; 9];
}

impl TwoPlayer for TicTacToe {
    fn terminal(&self, b: &[u8; 9]) -> Option<Terminal> {
        if LINES
            .iter()
            .any(|l| b[l[0]] != b'.' && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]])
        {
            Some(Terminal::Loss)
        } else if !b.contains(&b'.') {
            Some(Terminal::Tie)
        } else {
            None
        }
    }
    fn options(&self, b: &[u8; 9]) -> Vec<[u8; 9]> {
        let xs = b.iter().filter(|&&c| c == b'x').count();
        let os = b.iter().filter(|&&c| c == b'o').count();
        let mark = if xs == os { b'x' } else { b'o' };
        (0..9)
            .filter(|&i| b[i] == b'.')
            .map(|i| {
                let mut next = *b;
                next[i] = mark;
                next
            })
            .collect()
    }
}

fn main() {
    if let Ok(avg) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average: {}", avg.trim());
    }

    // Impartial: the coin game (options), explored and valued from position N.
    let n = 20_000i64;
    let spec = script("coins");
    // A fresh game each run, so nothing is memoised between runs.
    let scripted = best(n as u64 + 1, || {
        let game = sprague::catalog::Catalog::default()
            .game(&format!("script:{spec}"))
            .unwrap();
        let sprague::erased::Parsed::Parts(segment) = game.parse(&[&n.to_string()]).unwrap() else {
            panic!()
        };
        segment.parts[0].nim_value().unwrap();
        n as u64 + 1
    });
    let built_in = best(n as u64 + 1, || {
        let solution = loopy_nim_values_from(&Sub134, [n], usize::MAX).unwrap();
        solution.explored.positions.len() as u64
    });
    report(
        "coins (options, loopy solver)",
        n as u64 + 1,
        scripted,
        built_in,
    );

    // Heap ruleset: Kayles on the generic tabulation engine.
    let heaps = 1000u64;
    let rules: Arc<dyn HeapRules> = Arc::new(Kayles);
    let scripted = best(heaps + 1, || {
        let game = sprague::catalog::Catalog::default()
            .game(&format!("script:{}", script("kayles")))
            .unwrap();
        game.heap().unwrap().table(heaps, &()).unwrap().values.len() as u64
    });
    let built_in = best(heaps + 1, || {
        let mut table = Tabulation::new(rules.clone());
        table.extend_to(heaps, &()).unwrap();
        table.len()
    });
    report(
        "kayles (heap_options, generic)",
        heaps + 1,
        scripted,
        built_in,
    );
    let code = best(heaps + 1, || {
        let game = sprague::catalog::Catalog::default().game("kayles").unwrap();
        game.heap().unwrap().table(heaps, &()).unwrap().values.len() as u64
    });
    report(
        "kayles vs the 0.77 bitset engine",
        heaps + 1,
        scripted,
        code,
    );

    // Two players: tic-tac-toe and the card game, explored and solved by retrograde analysis.
    let spec = format!("script:{}", script("tictactoe"));
    let scripted = best(5478, || {
        let game = sprague::catalog::Catalog::default().game(&spec).unwrap();
        game.solve(&[], &()).unwrap().unwrap().positions
    });
    let built_in = best(5478, || {
        solve_game_from(&TicTacToe, [[b'.'; 9]], usize::MAX)
            .unwrap()
            .positions() as u64
    });
    report("tic-tac-toe (moves, retrograde)", 5478, scripted, built_in);

    let spec = format!("script:{}", script("cards"));
    let scripted = best(20207, || {
        let game = sprague::catalog::Catalog::default().game(&spec).unwrap();
        game.solve(&[], &()).unwrap().unwrap().positions
    });
    let cards = Cards::new(2, 10).unwrap();
    let start = sprague::games::cards::CardsPosition {
        mover: vec![1, 1],
        opponent: vec![1, 1],
        last: 0,
    };
    let built_in = best(20207, || {
        solve_game_from(&cards, [start.clone()], usize::MAX)
            .unwrap()
            .positions() as u64
    });
    report("cards:2,10 (moves, retrograde)", 20207, scripted, built_in);
}
