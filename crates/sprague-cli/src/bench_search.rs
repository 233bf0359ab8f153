//! `sprague bench search`: the nim values of Cram boards and Chomp bars by this binary and by
//! Beling's `igsolve` in the same run, each in a process of its own, with the CPU time, wall
//! time and peak memory of the whole process (from `wait4`), and their ratios.
//!
//! The peer is never a dependency: install it outside the build
//! (`RUSTFLAGS="-C target-cpu=native" cargo install --root DIR igsolve`) and pass
//! `--peer DIR/bin/igsolve`; without it the run says so and times sprague alone.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one process spent.
#[derive(Clone, Copy, Debug)]
struct Spent {
    /// User + system CPU time, in seconds.
    cpu: f64,
    /// Wall time, in seconds.
    wall: f64,
    /// Peak resident memory, in KiB.
    peak_kib: u64,
}

/// How a run ended.
enum Run {
    /// The value printed, and what it cost.
    Done(u64, Spent),
    /// Killed at the time limit.
    TimedOut(f64),
    /// Failed (the message).
    Failed(String),
}

#[cfg(target_os = "linux")]
mod process {
    //! `wait4` and `kill` from the C library, which std links anyway.
    use super::Spent;
    use std::time::{Duration, Instant};

    #[repr(C)]
    #[derive(Default)]
    struct Timeval {
        sec: i64,
        usec: i64,
    }

    #[repr(C)]
    #[derive(Default)]
    struct Rusage {
        utime: Timeval,
        stime: Timeval,
        maxrss: i64,
        rest: [i64; 13],
    }

    extern "C" {
        fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
        fn kill(pid: i32, signal: i32) -> i32;
    }

    const WNOHANG: i32 = 1;
    const SIGKILL: i32 = 9;

    /// Waits for the child `pid` (polling, so that it can be killed at `limit`): its exit
    /// status and what it spent, or `None` when it was killed.
    pub fn wait(pid: u32, started: Instant, limit: Duration) -> Option<(i32, Spent)> {
        let pid = pid as i32;
        let mut status = 0i32;
        let mut usage = Rusage::default();
        loop {
            // SAFETY: plain C calls on a child of this process, with valid pointers.
            let done = unsafe { wait4(pid, &mut status, WNOHANG, &mut usage) };
            if done == pid {
                let seconds = |t: &Timeval| t.sec as f64 + t.usec as f64 / 1e6;
                let spent = Spent {
                    cpu: seconds(&usage.utime) + seconds(&usage.stime),
                    wall: started.elapsed().as_secs_f64(),
                    peak_kib: usage.maxrss.max(0) as u64,
                };
                return Some((status, spent));
            }
            if done < 0 {
                return None;
            }
            if started.elapsed() > limit {
                // SAFETY: as above; the child is reaped right after.
                unsafe {
                    kill(pid, SIGKILL);
                    wait4(pid, &mut status, 0, &mut usage);
                }
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Runs `command` to its end or `limit`, reading the value with `value`.
fn run(mut command: Command, limit: Duration, value: impl Fn(&str) -> Option<u64>) -> Run {
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return Run::Failed(format!("cannot start: {e}")),
    };
    // Read the output on threads so that a talkative child never blocks.
    let out = child.stdout.take();
    let err = child.stderr.take();
    let read = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        })
    };
    let out = read(out.map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let err = read(err.map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    #[cfg(target_os = "linux")]
    let waited = process::wait(child.id(), started, limit);
    #[cfg(not(target_os = "linux"))]
    let waited: Option<(i32, Spent)> = {
        let _ = limit;
        child.wait().ok().map(|s| {
            (
                s.code().unwrap_or(1),
                Spent {
                    cpu: f64::NAN,
                    wall: started.elapsed().as_secs_f64(),
                    peak_kib: 0,
                },
            )
        })
    };
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    match waited {
        None => Run::TimedOut(started.elapsed().as_secs_f64()),
        Some((0, spent)) => match value(&out) {
            Some(v) => Run::Done(v, spent),
            None => Run::Failed(format!("no value in its output: {}", out.trim())),
        },
        Some(_) => Run::Failed(err.lines().last().unwrap_or("failed").to_string()),
    }
}

/// A board of the benchmark.
#[derive(Clone, Copy, Debug)]
struct Board {
    game: &'static str,
    rows: u32,
    cols: u32,
    /// The published value, where there is one.
    known: Option<u64>,
}

/// The boards of the issue: Cram 4×9, 5×8, 4×11, 5×9, 6×7 (values from igsolve's README),
/// and Chomp bars.
const BOARDS: [Board; 8] = [
    Board {
        game: "cram",
        rows: 4,
        cols: 9,
        known: Some(1),
    },
    Board {
        game: "cram",
        rows: 5,
        cols: 8,
        known: Some(1),
    },
    Board {
        game: "cram",
        rows: 4,
        cols: 11,
        known: Some(1),
    },
    Board {
        game: "cram",
        rows: 5,
        cols: 9,
        known: Some(1),
    },
    Board {
        game: "cram",
        rows: 6,
        cols: 7,
        known: Some(5),
    },
    Board {
        game: "chomp",
        rows: 8,
        cols: 10,
        known: None,
    },
    Board {
        game: "chomp",
        rows: 10,
        cols: 12,
        known: Some(75),
    },
    Board {
        game: "chomp",
        rows: 12,
        cols: 13,
        known: None,
    },
];

/// A board named `cram:RxC` or `chomp:RxC`, with its published value when the default set
/// has one.
fn parse_board(name: &str) -> Result<Board> {
    let usage = || {
        crate::error::bad(format!(
            "unknown board '{name}': boards are cram:RxC or chomp:RxC, R and C from 1 to {MAX_SIDE} (e.g. cram:5x8)"
        ))
    };
    let (game, size) = name.split_once(':').ok_or_else(usage)?;
    let game = ["cram", "chomp"]
        .into_iter()
        .find(|&g| g == game)
        .ok_or_else(usage)?;
    let (rows, cols) = size.split_once('x').ok_or_else(usage)?;
    let side = |t: &str| {
        t.parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_SIDE).contains(n))
            .ok_or_else(usage)
    };
    let (rows, cols) = (side(rows)?, side(cols)?);
    let known = BOARDS
        .iter()
        .find(|b| b.game == game && (b.rows, b.cols) == (rows, cols))
        .and_then(|b| b.known);
    Ok(Board {
        game,
        rows,
        cols,
        known,
    })
}

/// The longest side a board may have here (the programs refuse what they cannot hold).
const MAX_SIDE: u32 = 64;

fn board_name(b: &Board) -> String {
    format!("{}:{}x{}", b.game, b.rows, b.cols)
}

/// The load average over 1, 5 and 15 minutes.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|t| t.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// The peer to time: the flag's path, else `igsolve` on the PATH.
fn find_peer(peer: Option<&Path>) -> Option<PathBuf> {
    if let Some(path) = peer {
        return path.is_file().then(|| path.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("igsolve"))
        .find(|p| p.is_file())
}

fn seconds(s: f64) -> String {
    if s >= 100.0 {
        format!("{s:.0}")
    } else if s >= 10.0 {
        format!("{s:.1}")
    } else {
        format!("{s:.2}")
    }
}

fn describe(run: &Run) -> (String, Option<Spent>) {
    match run {
        Run::Done(v, s) => (
            format!(
                "{v:>3}  {:>7} {:>7} {:>7}",
                seconds(s.cpu),
                seconds(s.wall),
                s.peak_kib >> 10
            ),
            Some(*s),
        ),
        Run::TimedOut(t) => (format!("  -  > {} s (stopped)", seconds(*t)), None),
        Run::Failed(e) => (format!("failed: {e}"), None),
    }
}

/// The options of `sprague bench search`.
pub struct Options<'a> {
    /// The peer's path (else `igsolve` on the PATH).
    pub peer: Option<&'a Path>,
    /// Only these boards (`cram:4x9`...); all when empty.
    pub boards: &'a [String],
    /// The most seconds one run may take.
    pub limit: Duration,
    /// Search threads for sprague.
    pub threads: Option<u64>,
    /// The search's table memory for sprague, in MiB.
    pub memory: Option<u64>,
}

/// `sprague bench search`.
///
/// # Errors
/// When a board is unknown, or the two programs disagree on a value.
pub fn run_bench(options: &Options<'_>) -> Result<()> {
    let boards: Vec<Board> = if options.boards.is_empty() {
        BOARDS.to_vec()
    } else {
        options
            .boards
            .iter()
            .map(|name| parse_board(name))
            .collect::<Result<_>>()?
    };
    let me = std::env::current_exe().context("cannot find this program's path")?;
    let peer = find_peer(options.peer);
    println!("CPU: {}", sprague::simd::cpu_model());
    println!("features: {}", sprague::simd::cpu_features().join(" "));
    println!(
        "Cram's kernel runs on: {}",
        sprague::games::cram::kernel_instructions()
    );
    println!("load average at start: {}", load_average());
    match &peer {
        Some(p) => println!("peer: {}", p.display()),
        None => println!(
            "peer: igsolve not found{} (install it outside the build with\n  RUSTFLAGS=\"-C target-cpu=native\" cargo install --root DIR igsolve\nand pass --peer DIR/bin/igsolve); timing sprague alone",
            options
                .peer
                .map(|p| format!(" at {}", p.display()))
                .unwrap_or_default()
        ),
    }
    println!(
        "each run is a process of its own, stopped after {} s; CPU = user + system seconds of the\nwhole process, peak = its largest resident set; ×R: igsolve takes R times sprague's figure\n",
        options.limit.as_secs()
    );
    println!(
        "{:<13} {:>30}   {:>30}   {:>17}",
        "board",
        "sprague: value  cpu s  wall s  MiB",
        "igsolve: value  cpu s  wall s  MiB",
        "ratios cpu wall mem"
    );
    let mut disagreements = Vec::new();
    for board in &boards {
        let name = board_name(board);
        let mut ours = Command::new(&me);
        ours.args(["bench", "search", "--run", &name]);
        if let Some(t) = options.threads {
            ours.args(["--search-threads", &t.to_string()]);
        }
        if let Some(m) = options.memory {
            ours.args(["--search-memory", &m.to_string()]);
        }
        let value_line = |out: &str| {
            out.lines()
                .find_map(|l| l.strip_prefix("nim value: "))
                .and_then(|v| v.trim().parse().ok())
        };
        let ours = run(ours, options.limit, value_line);
        let theirs = peer.as_ref().map(|p| {
            let mut c = Command::new(p);
            c.args([
                board.game,
                "-r",
                &board.rows.to_string(),
                "-c",
                &board.cols.to_string(),
            ]);
            run(c, options.limit, |out: &str| {
                out.lines()
                    .find_map(|l| l.strip_prefix("Nimber of initial position: "))
                    .and_then(|v| v.trim().parse().ok())
            })
        });
        let (ours_text, ours_spent) = describe(&ours);
        let (theirs_text, theirs_spent) = match &theirs {
            Some(t) => describe(t),
            None => ("not run".into(), None),
        };
        let ratios = match (ours_spent, theirs_spent) {
            (Some(a), Some(b)) => format!(
                "×{:.2} ×{:.2} ×{:.2}",
                b.cpu / a.cpu.max(1e-3),
                b.wall / a.wall.max(1e-3),
                b.peak_kib as f64 / a.peak_kib.max(1) as f64
            ),
            (Some(a), None) => match &theirs {
                Some(Run::TimedOut(t)) => format!("wall > ×{:.1}", t / a.wall.max(1e-3)),
                _ => String::new(),
            },
            _ => String::new(),
        };
        println!("{name:<13} {ours_text:>30}   {theirs_text:>30}   {ratios:>17}");
        let values = [&ours, theirs.as_ref().unwrap_or(&Run::TimedOut(0.0))]
            .iter()
            .filter_map(|r| match r {
                Run::Done(v, _) => Some(*v),
                _ => None,
            })
            .chain(board.known)
            .collect::<Vec<_>>();
        if values.windows(2).any(|w| w[0] != w[1]) {
            disagreements.push(format!(
                "{name}: values {values:?} (sprague, igsolve, published)"
            ));
        }
    }
    println!("\nload average at end: {}", load_average());
    if !disagreements.is_empty() {
        bail!("the values disagree: {}", disagreements.join("; "));
    }
    Ok(())
}
