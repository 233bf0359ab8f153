//! `sprague bench octal`: octal games, sprague's engine beside beling's ogsolve in the same run.
//!
//! sprague runs in this process, through the library call that `sprague table` makes (the
//! sparse engine for codes that split heaps, the bitset engine for the others, a certified
//! period filling the rest); ogsolve runs as a child process, once per method (`rc2`, `rc`,
//! `naive` by default), each later method stopped as soon as its CPU time passes the best so
//! far, so that its fastest method is the reference at the cost of at most one run per method.
//! Both print the Fletcher-32 checksum of G(0..=n); a mismatch is an error.
//!
//! Figures are CPU seconds (user + system, every thread; from /proc, ticks of 10 ms) with wall
//! seconds beside them; the ratio is ogsolve's time over sprague's (above 1: sprague is faster).
//! Runs under 0.3 s of CPU are repeated and averaged. The machine may be shared: the load
//! average is printed at the start and the end, and CPU time is the steadier figure.

use crate::clock::{children_cpu_ns, load_average, pid_cpu_ns, process_cpu_ns};
use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};
use sprague::heap::rare::{self, Options};
use sprague::heap::{Code, HeapSolver, HeapValues, PeriodSearch, Periodicity};
use sprague::simd::{cpu_features, cpu_model, Simd};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What to run.
pub struct Settings {
    /// Every octal code of up to three digits, and the 4.x codes, at `size`.
    pub sweep: bool,
    /// The heap size of the sweep, or of every game of the default set.
    pub size: Option<u64>,
    /// Only these codes (the default set's sizes, or `size`).
    pub games: Option<Vec<String>>,
    /// The peer's binary.
    pub peer: PathBuf,
    /// The peer's methods to try.
    pub peer_methods: Vec<String>,
    /// A peer run is stopped after this much CPU time (reported as a lower bound).
    pub peer_max_seconds: f64,
    /// A peer run is also stopped once it takes this many times sprague's CPU time (at
    /// least [`STOP_FLOOR`] seconds).
    pub peer_stop_ratio: Option<f64>,
    /// sprague's thread counts, each run in turn.
    pub threads: Vec<usize>,
    /// sprague's instruction-set path.
    pub simd: Simd,
    /// Print JSON instead of text.
    pub json: bool,
    /// The file of finished rows to resume from and keep up to date.
    pub resume: Option<PathBuf>,
}

/// The file of finished rows behind `--resume`, for one set of settings.
struct Resume<'a> {
    file: &'a PathBuf,
    /// The settings the rows were measured with, as the file's spec.
    settings: String,
}

/// The payload version of [`Resume`]'s file: the rows as JSON.
const RESUME_VERSION: u32 = 1;

impl Resume<'_> {
    /// The rows in the file; none when it does not exist yet.
    fn load(&self) -> Result<Vec<Row>> {
        if !self.file.exists() {
            return Ok(Vec::new());
        }
        let expected = sprague::file::Expected {
            kind: sprague::file::Kind::BENCH_ROWS,
            version: RESUME_VERSION,
            spec: Some(&self.settings),
        };
        // Refusals are the library's file errors: bad input, exit code 2.
        let refused = sprague::Error::from;
        let mut reader = sprague::file::open(self.file, &expected).map_err(refused)?;
        let mut json = vec![0u8; reader.remaining() as usize];
        reader.read_payload(&mut json).map_err(refused)?;
        let rows = serde_json::from_slice(&json)
            .map_err(|e| reader.corrupt(format!("rows that do not parse: {e}")));
        // A damaged file is refused for its checksum first.
        reader.finish().map_err(refused)?;
        Ok(rows.map_err(refused)?)
    }

    /// Writes `rows` to the file (atomically).
    fn save<'r>(&self, rows: impl Iterator<Item = &'r Row>) -> Result<()> {
        let json = serde_json::to_vec(&rows.collect::<Vec<_>>())?;
        sprague::file::write(
            self.file,
            sprague::file::Kind::BENCH_ROWS,
            RESUME_VERSION,
            &self.settings,
            json.len() as u64,
            |w| w.write_all(&json),
        )
        .map_err(sprague::Error::from)?;
        Ok(())
    }
}

/// What makes rows comparable: the peer, its methods and limit, sprague's threads and path.
fn fingerprint(settings: &Settings, path: Simd) -> String {
    format!(
        "bench octal: peer {} (methods {}, stopped past {} s{}); sprague threads {}, path {path}",
        settings.peer.display(),
        settings.peer_methods.join(","),
        settings.peer_max_seconds,
        settings
            .peer_stop_ratio
            .map_or(String::new(), |r| format!(" or {r}× sprague's time")),
        settings
            .threads
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(","),
    )
}

/// The default set: (code, heap size).
const DEFAULT_SET: [(&str, u64); 12] = [
    ("0.6", 1 << 20),
    ("0.6", 1 << 22),
    ("0.007", 1 << 20),
    ("0.007", 1 << 22),
    ("0.106", 1 << 20),
    ("0.106", 1 << 22),
    ("0.16", 1 << 20),
    ("0.16", 1 << 22),
    ("0.137", 1 << 20),
    ("0.137", 1 << 22),
    ("4.7", 1 << 20),
    ("4.7", 1 << 22),
];

/// The sweep's default heap size.
const SWEEP_SIZE: u64 = 1 << 18;

/// Runs shorter than this (CPU ns) are repeated.
const SHORT_NS: u64 = 300_000_000;

/// CPU and wall seconds of one measured run (averaged over repeats).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct Times {
    cpu: f64,
    wall: f64,
}

/// sprague's run of one game.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Ours {
    threads: usize,
    times: Times,
    repeats: u32,
    checksum: String,
    last: u64,
    /// The engine and what it did (mode, rare list, period fill).
    how: String,
    period: Option<Periodicity>,
}

/// One run of the peer.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct PeerRun {
    method: String,
    times: Times,
    repeats: u32,
    /// Stopped at the CPU limit (its time is then a lower bound).
    stopped: bool,
    checksum: Option<String>,
}

/// The period search of `sprague period`, beside the table's time.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct PeriodFigure {
    times: Times,
    result: String,
}

/// Everything about one game at one size.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Row {
    game: String,
    n: u64,
    ours: Vec<Ours>,
    /// Every peer method tried, and the index of the fastest that finished.
    peer: Vec<PeerRun>,
    best_peer: Option<usize>,
    period: Option<PeriodFigure>,
    /// Peer CPU time over ours (first thread count), and the same by wall time.
    ratio_cpu: Option<f64>,
    ratio_wall: Option<f64>,
    /// The ratio is a lower bound (the peer was stopped).
    ratio_at_least: bool,
    mismatch: bool,
}

#[derive(Serialize)]
struct Report {
    cpu: String,
    features: Vec<&'static str>,
    simd: String,
    marks: &'static str,
    peer: String,
    load_start: String,
    load_end: String,
    rows: Vec<Row>,
    summary: Option<Summary>,
}

#[derive(Serialize)]
struct Summary {
    games: usize,
    median_ratio: f64,
    slower_than_peer: usize,
    worst: Vec<(String, f64)>,
}

/// Fletcher-32 of the values as u16, as ogsolve prints it.
fn fletcher(values: impl Iterator<Item = u64>) -> u32 {
    let (mut a, mut b) = (0u16, 0u16);
    for v in values {
        a = a.wrapping_add(v as u16);
        b = b.wrapping_add(a);
    }
    (u32::from(b) << 16) | u32::from(a)
}

/// Runs `f` (repeated while short) and returns its averaged times, repeats and last result.
fn timed<T>(mut f: impl FnMut() -> Result<T>) -> Result<(Times, u32, T)> {
    let (wall0, cpu0) = (Instant::now(), process_cpu_ns());
    let mut out = f()?;
    let mut repeats = 1;
    loop {
        let wall = wall0.elapsed().as_nanos() as u64;
        let cpu = match (cpu0, process_cpu_ns()) {
            (Some(a), Some(b)) => b - a,
            _ => wall,
        };
        if cpu >= SHORT_NS || repeats >= 20 || wall >= 4 * SHORT_NS {
            let times = Times {
                cpu: cpu as f64 / 1e9 / f64::from(repeats),
                wall: wall as f64 / 1e9 / f64::from(repeats),
            };
            return Ok((times, repeats, out));
        }
        out = f()?;
        repeats += 1;
    }
}

fn parse_code(game: &str) -> Result<Code> {
    Code::parse(game).map_err(|e| crate::error::bad(format!("'{game}' is not an octal code: {e}")))
}

/// sprague's table of `game` to `n` on `threads` threads, the way `sprague table` makes it.
fn run_ours(game: &str, n: u64, threads: usize, simd: Simd) -> Result<Ours> {
    let code = parse_code(game)?;
    let options = Options {
        threads,
        simd,
        ..Options::default()
    };
    let to = usize::try_from(n)?;
    let (times, repeats, (values, how, period)) = timed(|| {
        if rare::suits(&code) {
            let run = rare::run(&code, to, &options, &())?;
            let mode = match run.mode {
                rare::Mode::Naive => "every pair".to_string(),
                rare::Mode::Sparse { mask, heap_parity } => format!(
                    "rare list {} (mask {mask}{})",
                    run.rare_len,
                    if heap_parity { ", heap parity" } else { "" }
                ),
            };
            // What the second thread did, when it did anything.
            let heaps = to as u64 + 1;
            let mut mode = mode;
            if run.stats.paired_heaps > 0 {
                mode += &format!(
                    "; {}% of heaps in pairs",
                    run.stats.paired_heaps * 100 / heaps
                );
            }
            if run.stats.batches_ahead > 0 {
                mode += &format!("; {} batches ahead", run.stats.batches_ahead);
            }
            let how = match run.period {
                Some(p) if (p.certified_at as usize) < to => {
                    format!("{mode}; period filled from {}", p.certified_at)
                }
                _ => mode,
            };
            Ok((run.values, how, run.period))
        } else {
            let solver = HeapSolver::new(game, Arc::new(code.clone()));
            let table = solver.table(n, &())?;
            Ok((table.values, "bitset table".to_string(), table.period))
        }
    })?;
    Ok(Ours {
        threads,
        times,
        repeats,
        checksum: format!("{:X}", fletcher(values.iter())),
        last: values.get(to).unwrap_or(0),
        how,
        period,
    })
}

/// `sprague period GAME --max n`, timed.
fn run_period(game: &str, n: u64) -> Result<PeriodFigure> {
    let code = parse_code(game)?;
    let (times, _, search) = timed(|| {
        let solver = HeapSolver::new(game, Arc::new(code.clone()));
        Ok(solver.period(n, &())?)
    })?;
    let result = match search {
        PeriodSearch::Certified(p) => format!(
            "period {} from {}, certified at {}",
            p.period, p.preperiod, p.certified_at
        ),
        PeriodSearch::NotCertified { checked_to } => format!("none certified to {checked_to}"),
        PeriodSearch::NoCertificate { .. } => "no certificate applies".into(),
    };
    Ok(PeriodFigure { times, result })
}

/// One run of the peer, stopped once its CPU time passes `limit` seconds; `None` when the
/// peer cannot be started.
fn run_peer_once(
    settings: &Settings,
    game: &str,
    n: u64,
    method: &str,
    limit: f64,
) -> Result<Option<(PeerRun, String)>> {
    let before = children_cpu_ns();
    let start = Instant::now();
    let spawned = Command::new(&settings.peer)
        .args(["-m", method, "-n", &n.to_string(), game])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("starting {}", settings.peer.display())),
    };
    let pid = child.id();
    let mut stopped = false;
    let mut nap = Duration::from_millis(1);
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if pid_cpu_ns(pid).is_some_and(|ns| ns as f64 / 1e9 > limit) {
            stopped = true;
            child.kill()?;
            break child.wait()?;
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(50));
    };
    let wall = start.elapsed().as_secs_f64();
    let cpu = match (before, children_cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 / 1e9,
        _ => wall,
    };
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        stdout.read_to_string(&mut out)?;
    }
    if !stopped && !status.success() {
        bail!(
            "{} -m {method} -n {n} {game} failed ({status})",
            settings.peer.display()
        );
    }
    let checksum = out
        .split("checksum: ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .map(str::to_string);
    let run = PeerRun {
        method: method.to_string(),
        times: Times { cpu, wall },
        repeats: 1,
        stopped,
        checksum,
    };
    Ok(Some((run, out)))
}

/// The least CPU time a peer run is given under `--peer-stop-ratio`, so that runs of a
/// few milliseconds are not stopped by the polling's granularity.
const STOP_FLOOR: f64 = 0.1;

/// How long a peer run may take: the cap, the best method so far, and the stop ratio times
/// sprague's CPU seconds `ours`.
fn peer_limit(settings: &Settings, best_so_far: Option<f64>, ours: f64) -> f64 {
    let mut limit = settings.peer_max_seconds;
    if let Some(best) = best_so_far {
        limit = limit.min(best);
    }
    if let Some(ratio) = settings.peer_stop_ratio {
        limit = limit.min((ratio * ours).max(STOP_FLOOR));
    }
    limit
}

/// Every peer method on `game` to `n`; `None` when the peer is missing. `ours` is sprague's
/// CPU time (for `--peer-stop-ratio`).
fn run_peer(
    settings: &Settings,
    game: &str,
    n: u64,
    ours: f64,
) -> Result<Option<(Vec<PeerRun>, Option<usize>)>> {
    let mut runs: Vec<PeerRun> = Vec::new();
    let mut best: Option<usize> = None;
    for method in &settings.peer_methods {
        let limit = peer_limit(settings, best.map(|b| runs[b].times.cpu), ours);
        let Some((mut run, _)) = run_peer_once(settings, game, n, method, limit)? else {
            return Ok(None);
        };
        if !run.stopped && run.times.cpu < SHORT_NS as f64 / 1e9 {
            // Short: repeat and average.
            let mut total = run.times;
            while run.repeats < 10 && total.cpu < SHORT_NS as f64 / 1e9 {
                let Some((again, _)) = run_peer_once(settings, game, n, method, limit)? else {
                    return Ok(None);
                };
                total.cpu += again.times.cpu;
                total.wall += again.times.wall;
                run.repeats += 1;
            }
            run.times = Times {
                cpu: total.cpu / f64::from(run.repeats),
                wall: total.wall / f64::from(run.repeats),
            };
        }
        if !run.stopped && best.is_none_or(|b| run.times.cpu < runs[b].times.cpu) {
            best = Some(runs.len());
        }
        runs.push(run);
    }
    Ok(Some((runs, best)))
}

/// Measures one game at one size.
fn measure(settings: &Settings, game: &str, n: u64, with_period: bool) -> Result<(Row, bool)> {
    let mut ours = Vec::new();
    for &threads in &settings.threads {
        ours.push(run_ours(game, n, threads, settings.simd)?);
    }
    let period = if with_period {
        Some(run_period(game, n)?)
    } else {
        None
    };
    let peer = run_peer(settings, game, n, ours[0].times.cpu)?;
    let missing = peer.is_none();
    let (peer, best_peer) = peer.unwrap_or_default();
    let reference = match best_peer {
        Some(b) => Some((&peer[b], false)),
        // Every method stopped: the lower bound of the longest run.
        None => peer
            .iter()
            .max_by(|a, b| a.times.cpu.total_cmp(&b.times.cpu))
            .map(|r| (r, true)),
    };
    let first = &ours[0];
    let mismatch = peer
        .iter()
        .filter_map(|r| r.checksum.as_ref())
        .any(|c| *c != first.checksum)
        || ours.iter().any(|o| o.checksum != first.checksum);
    let row = Row {
        game: game.to_string(),
        n,
        ratio_cpu: reference.map(|(r, _)| r.times.cpu / first.times.cpu.max(1e-3)),
        ratio_wall: reference.map(|(r, _)| r.times.wall / first.times.wall.max(1e-4)),
        ratio_at_least: reference.is_some_and(|(_, bound)| bound),
        ours,
        peer,
        best_peer,
        period,
        mismatch,
    };
    Ok((row, missing))
}

fn ratio_text(row: &Row, ours: &Ours) -> String {
    let reference = match row.best_peer {
        Some(b) => Some((&row.peer[b], "")),
        None => row
            .peer
            .iter()
            .max_by(|a, b| a.times.cpu.total_cmp(&b.times.cpu))
            .map(|r| (r, "≥")),
    };
    match reference {
        Some((r, bound)) => format!(
            "{bound}×{:.2} ({bound}×{:.2})",
            r.times.cpu / ours.times.cpu.max(1e-3),
            r.times.wall / ours.times.wall.max(1e-4)
        ),
        None => "-".into(),
    }
}

fn print_row(row: &Row) {
    let peer = match row.best_peer {
        Some(b) => {
            let r = &row.peer[b];
            format!("{:.3} ({:.3}) {}", r.times.cpu, r.times.wall, r.method)
        }
        None => match row
            .peer
            .iter()
            .max_by(|a, b| a.times.cpu.total_cmp(&b.times.cpu))
        {
            Some(r) => format!(">{:.1} (stopped) {}", r.times.cpu, r.method),
            None => "-".into(),
        },
    };
    for (i, o) in row.ours.iter().enumerate() {
        let (game, n, peer) = if i == 0 {
            (row.game.as_str(), row.n.to_string(), peer.as_str())
        } else {
            ("", String::new(), "")
        };
        println!(
            "{game:<7} {n:>8} {:>3} | {:>17} | {:>26} | {:>20} | {}{}",
            o.threads,
            format!("{:.3} ({:.3})", o.times.cpu, o.times.wall),
            peer,
            ratio_text(row, o),
            o.how,
            if row.mismatch && i == 0 {
                "  CHECKSUM MISMATCH"
            } else {
                ""
            }
        );
    }
    if let Some(p) = &row.period {
        println!(
            "{:<20} period search {:.3} s CPU ({:.3} wall) against the table's {:.3}: {}",
            "", p.times.cpu, p.times.wall, row.ours[0].times.cpu, p.result
        );
    }
}

/// Every octal code of up to three digits after the point (0.x and 4.x).
fn sweep_codes() -> Vec<String> {
    let mut codes = Vec::new();
    for d0 in ["0", "4"] {
        for x in 1..512u32 {
            let digits = format!("{x:03o}");
            codes.push(format!("{d0}.{}", digits.trim_end_matches('0')));
        }
    }
    codes
}

fn summary(rows: &[Row]) -> Option<Summary> {
    let mut ratios: Vec<(String, f64)> = rows
        .iter()
        .filter_map(|r| r.ratio_cpu.map(|x| (r.game.clone(), x)))
        .collect();
    if ratios.is_empty() {
        return None;
    }
    ratios.sort_by(|a, b| a.1.total_cmp(&b.1));
    let median = ratios[ratios.len() / 2].1;
    Some(Summary {
        games: ratios.len(),
        median_ratio: median,
        slower_than_peer: ratios.iter().filter(|r| r.1 < 1.0).count(),
        worst: ratios.into_iter().take(20).collect(),
    })
}

/// `sprague bench octal`.
///
/// # Errors
/// Bad codes or sizes, a path this CPU does not run, a peer that fails, or values that differ
/// from the peer's.
pub fn run(settings: &Settings) -> Result<()> {
    if !settings.simd.is_available() {
        return Err(crate::error::bad(format!(
            "this CPU does not run the {} path",
            settings.simd
        )));
    }
    let cases: Vec<(String, u64)> = if settings.sweep {
        let size = settings.size.unwrap_or(SWEEP_SIZE);
        let codes = settings.games.clone().unwrap_or_else(sweep_codes);
        codes.into_iter().map(|c| (c, size)).collect()
    } else {
        match (&settings.games, settings.size) {
            (Some(games), size) => games
                .iter()
                .flat_map(|g| {
                    let sizes: Vec<u64> = match size {
                        Some(s) => vec![s],
                        None => {
                            let known: Vec<u64> = DEFAULT_SET
                                .iter()
                                .filter(|(c, _)| c == g)
                                .map(|&(_, n)| n)
                                .collect();
                            if known.is_empty() {
                                vec![1 << 20]
                            } else {
                                known
                            }
                        }
                    };
                    sizes.into_iter().map(move |n| (g.clone(), n))
                })
                .collect(),
            (None, Some(size)) => {
                let mut games: Vec<String> =
                    DEFAULT_SET.iter().map(|(c, _)| c.to_string()).collect();
                games.dedup();
                games.into_iter().map(|g| (g, size)).collect()
            }
            (None, None) => DEFAULT_SET
                .iter()
                .map(|&(c, n)| (c.to_string(), n))
                .collect(),
        }
    };
    for (game, n) in &cases {
        parse_code(game)?;
        if *n > rare::MAX_HEAP as u64 {
            return Err(crate::error::bad(format!(
                "heap size {n} is past {}",
                rare::MAX_HEAP
            )));
        }
    }
    let simd = Simd::Auto.resolve();
    let path = if settings.simd == Simd::Auto {
        simd
    } else {
        settings.simd
    };
    let load_start = load_average().unwrap_or_else(|| "?".into());
    if !settings.json {
        println!("CPU: {}", cpu_model());
        println!("features: {}", cpu_features().join(" "));
        println!(
            "octal scan path: {path} (this CPU runs {}); marking arrays of {}",
            Simd::available()
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(", "),
            rare::marks_for_this_cpu()
        );
        println!(
            "peer: {} (methods {}, each stopped past {} s CPU{} or past the best so far)",
            settings.peer.display(),
            settings.peer_methods.join(", "),
            settings.peer_max_seconds,
            settings.peer_stop_ratio.map_or(String::new(), |r| format!(
                ", past {r}× sprague's CPU time (at least {STOP_FLOOR} s)"
            ))
        );
        println!("load average at start: {load_start}");
        println!();
        println!(
            "seconds of CPU (wall in brackets); ×R: ogsolve's best method takes R times as long"
        );
        println!(
            "{:<7} {:>8} {:>3} | {:>17} | {:>26} | {:>20} | how",
            "game", "n", "thr", "sprague", "ogsolve (method)", "ratio cpu (wall)"
        );
    }
    let mut rows = Vec::new();
    let mut missing = false;
    let resume = settings.resume.as_ref().map(|file| Resume {
        file,
        settings: fingerprint(settings, path),
    });
    let mut kept = match &resume {
        Some(r) => {
            let rows = r.load()?;
            // Written back at once, so that a file that cannot be written stops the run
            // before the first measurement, not after it.
            r.save(rows.iter())?;
            rows
        }
        None => Vec::new(),
    };
    if let (Some(r), false) = (&resume, kept.is_empty()) {
        eprintln!(
            "sprague: {} rows measured before, from {}",
            kept.len(),
            r.file.display()
        );
    }
    for (game, n) in &cases {
        if let Some(i) = kept.iter().position(|r| &r.game == game && r.n == *n) {
            let row = kept.swap_remove(i);
            if !settings.json {
                print_row(&row);
            }
            rows.push(row);
            continue;
        }
        let (row, peer_missing) = measure(settings, game, *n, !settings.sweep)?;
        if peer_missing && !missing {
            eprintln!(
                "sprague: the peer {} is missing; sprague's figures only (install it with \
                 RUSTFLAGS=\"-C target-cpu=native\" cargo install --root DIR ogsolve, then --peer DIR/bin/ogsolve)",
                settings.peer.display()
            );
        }
        missing |= peer_missing;
        if settings.json {
            // Stdout holds one JSON object at the end; a long sweep says how far it is here.
            eprintln!(
                "sprague: {} of {}: {} to {}, sprague {:.3} s CPU, ratio {}",
                rows.len() + 1,
                cases.len(),
                row.game,
                row.n,
                row.ours.first().map_or(0.0, |o| o.times.cpu),
                row.ours.first().map_or("-".into(), |o| ratio_text(&row, o))
            );
        } else {
            print_row(&row);
        }
        rows.push(row);
        if let Some(r) = &resume {
            // Rows of other games or sizes in the file stay in it.
            r.save(rows.iter().chain(&kept))?;
        }
    }
    let load_end = load_average().unwrap_or_else(|| "?".into());
    let summary = summary(&rows);
    if settings.json {
        let report = Report {
            cpu: cpu_model(),
            features: cpu_features(),
            simd: path.to_string(),
            marks: rare::marks_for_this_cpu(),
            peer: if missing {
                "missing".into()
            } else {
                settings.peer.display().to_string()
            },
            load_start,
            load_end,
            rows: rows.clone(),
            summary,
        };
        serde_json::to_writer(std::io::stdout().lock(), &report)?;
        println!();
    } else {
        if let Some(s) = &summary {
            println!();
            println!(
                "{} games: median ratio ×{:.2}, {} slower than ogsolve; worst:",
                s.games, s.median_ratio, s.slower_than_peer
            );
            for (game, ratio) in s.worst.iter().take(if settings.sweep { 20 } else { 5 }) {
                println!("  {game:<8} ×{ratio:.2}");
            }
        }
        println!("load average at end: {load_end}");
    }
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| r.mismatch)
        .map(|r| format!("{} to {}", r.game, r.n))
        .collect();
    if !bad.is_empty() {
        return Err(anyhow!(
            "values differ from the peer's on {}",
            bad.join(", ")
        ));
    }
    Ok(())
}
