//! The subtraction game of seed 001, in its judge format.
//!
//! Input (stdin): `n m` (stones, number of move sizes), then the m move sizes.
//! Output: `Alice` if the first player (Alice) wins, else `Bob`.
//!
//! ```text
//! $ printf '10 3\n1 3 4\n' | cargo run --example subtraction_judge
//! Alice
//! ```

use sprague::analysis::value;
use sprague::game::{Outcome, Play};
use std::io::Read;

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(2)
}

fn main() {
    let mut input = String::new();
    if std::io::stdin().read_to_string(&mut input).is_err() {
        fail("cannot read stdin");
    }
    let words: Vec<&str> = input.split_ascii_whitespace().collect();
    let (Some(n), Some(m)) = (words.first(), words.get(1)) else {
        fail("expected 'n m' on the first line")
    };
    let m: usize = m
        .parse()
        .unwrap_or_else(|_| fail("m must be a whole number"));
    if words.len() < 2 + m {
        fail("the input ends before the m move sizes");
    }
    let spec = format!("sub:{}", words[2..2 + m].join(","));
    let position = sprague::catalog::Catalog::default()
        .parse_position(&[spec.as_str(), n])
        .unwrap_or_else(|e| fail(&e.to_string()));
    let report = value(&position, Play::Normal).unwrap_or_else(|e| fail(&e.to_string()));
    println!(
        "{}",
        if report.outcome == Outcome::N {
            "Alice"
        } else {
            "Bob"
        }
    );
}
