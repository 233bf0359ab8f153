//! Misère quotient computation time for every two-digit octal game 0.d1d2, heaps up to 50.
//!
//! `cargo bench -p sprague --bench quotient` prints the CPU model and features and the load
//! average, then one row a game: the quotient's order, the size of its P-portion, whether it is
//! proven for every heap size (the period of the heap map), and the wall and CPU time of one
//! computation (the mean of repeated runs when one run is short). Games whose quotient outgrows
//! the default bounds (4096 elements) are marked `runaway` with the heap where they stopped.
//!
//! With `QUOTIENT_PEER` set to a command (for example `/work/tools/miseresolver/miseresolver`,
//! CGSuite's MisereSolver with a small driver), the bench runs `QUOTIENT_PEER CODE 50` for each
//! game in the same run and prints, beside sprague's figures: the peer's whole-process wall and
//! CPU time (its children's CPU time from /proc), the compute time it reports itself
//! (`compute_ms X`, when it prints one), and the ratios peer / sprague. The peer's output lines
//! `P N` and `order N` are checked against sprague's |P| and order. A peer still running after
//! `QUOTIENT_PEER_TIMEOUT` seconds (default 60) is stopped and marked `timeout`.
//! `QUOTIENT_MAX_HEAP` changes 50. Each quotient is checked against plain misère search on all
//! sums of two heaps up to 12.

use sprague::game::{Game, Impartial, Play};
use sprague::heap::{Code, HeapRules};
use sprague::quotient::{Quotient, QuotientOptions, Search};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// CPU seconds of this thread (ns resolution, from /proc/thread-self/schedstat; Linux).
fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

/// (user + system) CPU seconds of this process's waited-for children, from /proc/self/stat.
fn children_cpu() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // the fields after the command name (which is in parentheses); cutime and cstime are
    // fields 16 and 17, counted from 1
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    (f[13] + f[14]) / 100.0
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
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
            println!("features: {} (no others of {wanted:?})", have.join(" "));
        }
    }
    println!(
        "cores: {}",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("load average: {}", load_average());
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
}

/// One computation's figures: mean wall and CPU seconds a run, and the result. Short
/// computations are repeated for at least 0.2 s, so that the CPU clock (updated at scheduler
/// ticks) covers many ticks.
fn time_ours(code: &Code, max_heap: u64) -> (f64, f64, usize, Search) {
    let (cpu0, start) = (thread_cpu(), Instant::now());
    let mut runs = 0;
    loop {
        let search =
            Quotient::compute(code, max_heap, &QuotientOptions::default(), &()).expect("computed");
        runs += 1;
        let wall = start.elapsed().as_secs_f64();
        if wall >= 0.2 {
            let cpu = thread_cpu() - cpu0;
            return (wall / runs as f64, cpu / runs as f64, runs, search);
        }
    }
}

/// What the peer printed, and its whole-process wall and CPU seconds.
struct Peer {
    wall: f64,
    cpu: f64,
    compute_ms: Option<f64>,
    order: Option<String>,
    p: Option<String>,
    timed_out: bool,
}

fn run_peer(peer: &str, code: &str, max_heap: u64, timeout: Duration) -> Peer {
    let mut words = peer.split_whitespace();
    let program = words.next().expect("a peer command");
    let cpu0 = children_cpu();
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(words)
        .arg(code)
        .arg(max_heap.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the peer runs");
    let mut timed_out = false;
    while child.try_wait().expect("the peer is waited for").is_none() {
        if start.elapsed() > timeout {
            let _ = child.kill();
            timed_out = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().expect("the peer's output");
    let wall = start.elapsed().as_secs_f64();
    let cpu = children_cpu() - cpu0;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let field = |name: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(name).map(|v| v.trim().to_string()))
    };
    Peer {
        wall,
        cpu,
        compute_ms: field("compute_ms ").and_then(|v| v.parse().ok()),
        order: field("order "),
        p: field("P "),
        timed_out,
    }
}

fn main() {
    let max_heap: u64 = std::env::var("QUOTIENT_MAX_HEAP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let peer = std::env::var("QUOTIENT_PEER").ok();
    let timeout = Duration::from_secs_f64(
        std::env::var("QUOTIENT_PEER_TIMEOUT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(60.0),
    );
    machine();
    println!("heaps: 0..={max_heap}; sprague's times are one computation in this process");
    print!(
        "{:<6} {:>7} {:>4} {:>9} {:>9} {:>9} {:>6}",
        "game", "order", "|P|", "proven", "wall ms", "cpu ms", "runs"
    );
    if peer.is_some() {
        print!(
            "  {:>12} {:>11} {:>13}  {:>10} {:>10}  agrees",
            "peer wall ms", "peer cpu ms", "peer comp. ms", "wall ratio", "comp ratio"
        );
    }
    println!();
    let (mut finite, mut runaway) = (0, 0);
    let (mut total_wall, mut total_cpu) = (0.0, 0.0);
    let mut ratios: Vec<(f64, f64)> = Vec::new();
    let mut disagreements = Vec::new();
    for d1 in 0..8u8 {
        for d2 in 1..8u8 {
            let text = format!("0.{d1}{d2}");
            let code = Code::parse(&text).unwrap();
            let (wall, cpu, runs, search) = time_ours(&code, max_heap);
            total_wall += wall;
            total_cpu += cpu;
            let (order, p, proven) = match &search {
                Search::Finite(q) => {
                    finite += 1;
                    check(&code, q);
                    (
                        q.order().to_string(),
                        q.p_portion().len().to_string(),
                        q.period()
                            .map_or("no".to_string(), |p| format!("p={}", p.period)),
                    )
                }
                Search::Runaway { runaway: r, .. } => {
                    runaway += 1;
                    ("runaway".into(), "-".into(), format!("at {}", r.heap))
                }
            };
            print!(
                "{text:<6} {order:>7} {p:>4} {proven:>9} {:>9.3} {:>9.3} {runs:>6}",
                wall * 1e3,
                cpu * 1e3
            );
            if let Some(peer) = &peer {
                let got = run_peer(peer, &text, max_heap, timeout);
                let verdict = if got.timed_out {
                    "timeout".to_string()
                } else if got.order.as_deref() == Some(order.as_str())
                    && got.p.as_deref() == Some(p.as_str())
                {
                    "yes".to_string()
                } else {
                    disagreements.push(text.clone());
                    format!(
                        "NO (order {}, P {})",
                        got.order.as_deref().unwrap_or("?"),
                        got.p.as_deref().unwrap_or("?")
                    )
                };
                let computed = got
                    .compute_ms
                    .map_or("-".to_string(), |ms| format!("{ms:.1}"));
                let comp_ratio = match (got.compute_ms, got.timed_out) {
                    (Some(ms), false) => {
                        let r = ms / 1e3 / wall;
                        ratios.push((got.wall / wall, r));
                        format!("{r:.1}")
                    }
                    _ => "-".into(),
                };
                print!(
                    "  {:>12.1} {:>11.1} {:>13}  {:>10.1} {:>10}  {verdict}",
                    got.wall * 1e3,
                    got.cpu * 1e3,
                    computed,
                    got.wall / wall,
                    comp_ratio
                );
            }
            println!();
        }
    }
    println!(
        "{finite} finite quotients, {runaway} runaways; sprague in all: wall {:.1} ms, cpu {:.1} ms",
        total_wall * 1e3,
        total_cpu * 1e3
    );
    if !ratios.is_empty() {
        let geo = |f: fn(&(f64, f64)) -> f64| {
            (ratios.iter().map(|r| f(r).ln()).sum::<f64>() / ratios.len() as f64).exp()
        };
        println!(
            "peer / sprague over the {} games both finished (geometric mean): whole process {:.1}x, the peer's own compute time {:.1}x",
            ratios.len(),
            geo(|r| r.0),
            geo(|r| r.1)
        );
    }
    if !disagreements.is_empty() {
        println!("the peer disagrees on: {}", disagreements.join(", "));
    }
    println!("load average at the end: {}", load_average());
}
