//! Computes a take-and-break code's values with the sparse engine and prints the time.
//!
//! `cargo run --release --example octal_table -- CODE N [THREADS] [naive] [simd=PATH]`, e.g.
//! `0.6 1048576 2` or `0.007 262144 1 simd=portable`.
//! CODE is a Guy–Smith code (`0.6`, `4.07`) or `grundy`. Prints one line:
//! `code=0.6 n=1048576 threads=1 seconds=… last=150 fletcher=… rare=… mode=…`; the Fletcher-32
//! checksum is the one ogsolve prints, so the two programs' values can be compared.
//! With `OCTAL_DUMP=FILE` the values are also written to FILE as little-endian u16.

use sprague::heap::rare::Options;
use sprague::heap::Code;
use std::time::Instant;

fn fletcher(values: impl Iterator<Item = u64>) -> u32 {
    let (mut a, mut b) = (0u16, 0u16);
    for v in values {
        a = a.wrapping_add(v as u16);
        b = b.wrapping_add(a);
    }
    (u32::from(b) << 16) | u32::from(a)
}

/// Progress notes (heaps/s, rare-list size) on stderr, at most a few per second.
struct Notes;

impl sprague::progress::Progress for Notes {
    fn advance(&self, done: u64, note: &str) {
        eprintln!("  {done}: {note}");
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        return Err("usage: octal_table CODE N [THREADS] [naive]".into());
    }
    let code = match args[0].as_str() {
        "grundy" => Code::grundy(),
        text => Code::parse(text)?,
    };
    let to: usize = args[1].parse()?;
    let threads: usize = args.get(2).map_or(Ok(1), |t| t.parse())?;
    let naive_only = args.iter().skip(3).any(|a| a == "naive");
    let simd = match args.iter().skip(3).find_map(|a| a.strip_prefix("simd=")) {
        Some(path) => path.parse()?,
        None => sprague::simd::Simd::Auto,
    };
    let options = Options {
        threads,
        naive_only,
        simd,
        ..Options::default()
    };
    let start = Instant::now();
    let quiet = std::env::var_os("OCTAL_QUIET").is_some();
    let run = if quiet {
        sprague::heap::rare::run(&code, to, &options, &())?
    } else {
        sprague::heap::rare::run(&code, to, &options, &Notes)?
    };
    let values = &run.values;
    if let Some(path) = std::env::var_os("OCTAL_DUMP") {
        let bytes: Vec<u8> = values
            .iter()
            .flat_map(|v| (v as u16).to_le_bytes())
            .collect();
        std::fs::write(path, bytes)?;
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "code={} n={} threads={} seconds={:.3} last={} fletcher={:X} rare={} mode={:?} rare_pairs={} scanned_pairs={} missing={} rebuilds={}",
        code.name(),
        to,
        threads,
        seconds,
        values.get(to).unwrap_or(0),
        fletcher(values.iter()),
        run.rare_len,
        run.mode,
        run.stats.rare_pairs,
        run.stats.scanned_pairs,
        run.stats.missing_values,
        run.stats.rebuilds,
    );
    Ok(())
}
