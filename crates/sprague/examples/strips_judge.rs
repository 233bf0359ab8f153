//! POI 2000 Strips (seed 002), in its judge format.
//!
//! Input (stdin): a line `c z n` (the three stripe lengths); then m; then m board lengths, one a
//! line. Output, for each board: `1` if the first player wins, else `2`.
//!
//! ```text
//! $ printf '1 5 1\n3\n1\n5\n6\n' | cargo run --example strips_judge
//! 1
//! 1
//! 2
//! ```

use sprague::analysis::value;
use sprague::game::{Outcome, Play};
use std::io::{Read, Write};

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
    if words.len() < 4 {
        fail("expected 'c z n' and then m");
    }
    let spec = format!("strips:{},{},{}", words[0], words[1], words[2]);
    let m: usize = words[3]
        .parse()
        .unwrap_or_else(|_| fail("m must be a whole number"));
    if words.len() < 4 + m {
        fail("the input ends before the m board lengths");
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for length in &words[4..4 + m] {
        let position = sprague::catalog::Catalog::default()
            .parse_position(&[spec.as_str(), length])
            .unwrap_or_else(|e| fail(&e.to_string()));
        let report = value(&position, Play::Normal).unwrap_or_else(|e| fail(&e.to_string()));
        let winner = if report.outcome == Outcome::N {
            "1"
        } else {
            "2"
        };
        if writeln!(out, "{winner}").is_err() {
            return;
        }
    }
}
