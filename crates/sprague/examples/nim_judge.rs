//! Nim, in the judge format of seed 003's first problem.
//!
//! Input (stdin): T, the number of test cases; then each case as n followed by n heap sizes
//! (whitespace-separated, any line layout).
//! Output: one line per case, `Yes` if the first player wins, else `No`.
//!
//! ```text
//! $ printf '2\n2 1 1\n2 1 0\n' | cargo run --example nim_judge
//! No
//! Yes
//! ```

use sprague::game::{NimValue, Outcome};
use sprague::solve::sum::outcome;
use std::io::{Read, Write};

fn main() {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .expect("read stdin");
    let mut numbers = input.split_ascii_whitespace().map(|w| {
        w.parse::<u64>().unwrap_or_else(|_| {
            eprintln!("expected a non-negative whole number, got '{w}'");
            std::process::exit(2)
        })
    });
    let mut next = || {
        numbers.next().unwrap_or_else(|| {
            eprintln!("the input ends early");
            std::process::exit(2)
        })
    };
    let cases = next();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for _ in 0..cases {
        let n = next();
        let heaps: Vec<NimValue> = (0..n).map(|_| NimValue::Finite(next())).collect();
        let answer = if outcome(&heaps) == Outcome::N {
            "Yes"
        } else {
            "No"
        };
        writeln!(out, "{answer}").expect("write stdout");
    }
}
