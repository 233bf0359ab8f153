//! Take-from-ends (seed 000 §5.4): players alternately take any positive count of numbers from
//! either end of a row until it is empty; print how much more the first player collects than the
//! second under optimal play. O(n²).
//!
//! Input (stdin): n, then n whole numbers (negative allowed).
//! Output: the first player's total minus the second's.
//!
//! ```text
//! $ printf '3\n3 -1 4\n' | cargo run --example take_from_ends
//! 6
//! ```

use sprague::games::ends::{Ends, EndsPosition, Take};
use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .expect("read stdin");
    let numbers: Vec<i64> = input
        .split_ascii_whitespace()
        .map(|w| {
            w.parse().unwrap_or_else(|_| {
                eprintln!("expected a whole number, got '{w}'");
                std::process::exit(2)
            })
        })
        .collect();
    let Some((&n, row)) = numbers.split_first() else {
        eprintln!("the input is empty");
        std::process::exit(2)
    };
    if n < 0 || row.len() as i64 != n {
        eprintln!("expected {n} numbers, got {}", row.len());
        std::process::exit(2)
    }
    match EndsPosition::new(row.to_vec()) {
        Ok(position) => println!("{}", Ends { take: Take::Any }.margin(&position)),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2)
        }
    }
}
