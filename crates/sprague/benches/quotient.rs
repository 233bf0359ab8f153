//! Misère quotient computation time for every two-digit octal game 0.d1d2, heaps up to 50.
//!
//! `cargo bench -p sprague --bench quotient` prints one row a game: the order, the size of the
//! P-portion, whether the quotient is proven for every heap size, and the wall and CPU time of
//! the computation. With `QUOTIENT_PEER` set to a command (for example a MisereSolver driver),
//! the bench runs `QUOTIENT_PEER CODE 50` for each game in the same run, prints its wall and CPU
//! time (the children's CPU time from /proc) and the ratio peer / sprague, and checks that the
//! peer's last output line names the same order (`order N`). `QUOTIENT_MAX_HEAP` changes 50.
//! Each computation is checked against plain misère search on all sums of two heaps up to 12.

use sprague::game::{Game, Impartial, Outcome, Play};
use sprague::heap::{Code, HeapRules};
use sprague::quotient::{Quotient, QuotientOptions, Search};
use std::process::Command;
use std::time::Instant;

/// (user + system) CPU seconds of this process, and of its waited-for children, from
/// /proc/self/stat (Linux; zero elsewhere).
fn cpu_seconds() -> (f64, f64) {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return (0.0, 0.0);
    };
    // fields after the command name (which is in parentheses)
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    // utime, stime, cutime, cstime are fields 14..=17; rest starts at field 3
    let tick = 100.0;
    ((f[11] + f[12]) / tick, (f[13] + f[14]) / tick)
}

fn machine() {
    if let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") {
        if let Some(model) = info.lines().find(|l| l.starts_with("model name")) {
            println!("cpu: {}", model.split(':').nth(1).unwrap_or("").trim());
        }
        if let Some(flags) = info.lines().find(|l| l.starts_with("flags")) {
            let wanted = ["avx2", "bmi2", "pclmulqdq", "vpclmulqdq", "avx512f", "gfni"];
            let have: Vec<&str> = flags
                .split_whitespace()
                .filter(|f| wanted.contains(f))
                .collect();
            println!("features: {}", have.join(" "));
        }
    }
    if let Ok(avg) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average: {}", avg.trim());
    }
}

/// A sum of heaps for the check against search.
struct Sum(Code);

impl Game for Sum {
    type Position = Vec<u64>;
}

impl Impartial for Sum {
    fn options(&self, p: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for (i, &h) in p.iter().enumerate() {
            for o in self.0.options(h) {
                let mut next: Vec<u64> = p[..i].iter().chain(&p[i + 1..]).copied().collect();
                next.extend(o.into_iter().filter(|&x| x > 0));
                next.sort_unstable();
                out.push(next);
            }
        }
        out
    }
}

fn check(code: &Code, q: &Quotient) {
    let mut search = sprague::solve::Search::new(Sum(code.clone()), Play::Misere);
    for a in 0..=12u64 {
        for b in a..=12 {
            let p: Vec<u64> = [a, b].into_iter().filter(|&h| h > 0).collect();
            let expected = search.outcome(&p).unwrap();
            assert_eq!(q.outcome(&[a, b]).unwrap(), expected, "{a} + {b}");
        }
    }
    let _ = Outcome::P;
}

fn main() {
    let max_heap: u64 = std::env::var("QUOTIENT_MAX_HEAP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let peer = std::env::var("QUOTIENT_PEER").ok();
    machine();
    println!(
        "{:<6} {:>6} {:>4} {:>10} {:>10} {:>10}{}",
        "game",
        "order",
        "|P|",
        "proven",
        "wall ms",
        "cpu ms",
        if peer.is_some() {
            "   peer wall ms  peer cpu ms  wall ratio  cpu ratio"
        } else {
            ""
        }
    );
    let (mut total_wall, mut total_cpu) = (0.0, 0.0);
    for d1 in 0..8u8 {
        for d2 in 1..8u8 {
            let text = format!("0.{d1}{d2}");
            let code = Code::parse(&text).unwrap();
            let (cpu0, _) = cpu_seconds();
            let start = Instant::now();
            let search = Quotient::compute(&code, max_heap, &QuotientOptions::default(), &())
                .expect("computed");
            let wall = start.elapsed().as_secs_f64();
            let cpu = cpu_seconds().0 - cpu0;
            total_wall += wall;
            total_cpu += cpu;
            let (order, p, proven) = match &search {
                Search::Finite(q) => {
                    check(&code, q);
                    (
                        q.order().to_string(),
                        q.p_portion().len().to_string(),
                        q.period()
                            .map_or("no".to_string(), |p| format!("p={}", p.period)),
                    )
                }
                Search::Runaway { runaway, .. } => (
                    "runaway".into(),
                    "-".into(),
                    format!("heap {}", runaway.heap),
                ),
            };
            let mut line = format!(
                "{text:<6} {order:>6} {p:>4} {proven:>10} {:>10.1} {:>10.1}",
                wall * 1e3,
                cpu * 1e3
            );
            if let Some(peer) = &peer {
                let mut words = peer.split_whitespace();
                let program = words.next().expect("a peer command");
                let (_, child0) = cpu_seconds();
                let start = Instant::now();
                let out = Command::new(program)
                    .args(words)
                    .arg(&text)
                    .arg(max_heap.to_string())
                    .output()
                    .expect("the peer runs");
                let peer_wall = start.elapsed().as_secs_f64();
                let peer_cpu = cpu_seconds().1 - child0;
                let stdout = String::from_utf8_lossy(&out.stdout);
                let last = stdout.lines().last().unwrap_or("");
                let agrees = last == format!("order {order}");
                line.push_str(&format!(
                    " {:>14.1} {:>12.1} {:>11.2} {:>10.2}{}",
                    peer_wall * 1e3,
                    peer_cpu * 1e3,
                    peer_wall / wall,
                    peer_cpu / cpu.max(1e-3),
                    if agrees { "" } else { "  (peer disagrees: " }
                ));
                if !agrees {
                    line.push_str(&format!("{last})"));
                }
            }
            println!("{line}");
        }
    }
    println!(
        "total: wall {:.1} ms, cpu {:.1} ms",
        total_wall * 1e3,
        total_cpu * 1e3
    );
    if let Ok(avg) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average: {}", avg.trim());
    }
}
