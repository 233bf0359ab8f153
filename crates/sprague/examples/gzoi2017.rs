//! GZOI 2017 "取石子游戏" (seed 003): count the pairs (a subset of the heaps, a designated heap in
//! it) such that the first player, forced to move first on the designated heap, cannot win Nim.
//!
//! Input (stdin): N, then N heap sizes.
//! Output: the count modulo 10^9 + 7.
//!
//! ```text
//! $ printf '2\n1 2\n' | cargo run --example gzoi2017
//! 1
//! ```

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .expect("read stdin");
    let numbers: Vec<u64> = input
        .split_ascii_whitespace()
        .map(|w| {
            w.parse().unwrap_or_else(|_| {
                eprintln!("expected a non-negative whole number, got '{w}'");
                std::process::exit(2)
            })
        })
        .collect();
    let Some((&n, heaps)) = numbers.split_first() else {
        eprintln!("the input is empty");
        std::process::exit(2)
    };
    if heaps.len() as u64 != n {
        eprintln!("expected {n} heap sizes, got {}", heaps.len());
        std::process::exit(2)
    }
    match sprague::counting::forced_start_losses(heaps) {
        Ok(count) => println!("{count}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2)
        }
    }
}
