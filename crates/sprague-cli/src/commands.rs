//! One function per subcommand: call the library, hand the result to `output`.

use crate::cli::{
    BenchTarget, BudgetFlags, Cli, Command, CountProblem, NimberOp, PositionArgs, ScriptCaps,
    SearchFlags, TableFormat,
};
use crate::cluster::Cluster;
use crate::error::bad;
use crate::output;
use crate::progress::{Bar, Quiet, Spinner};
use anyhow::Result;
use sprague::budget::Budget;
use sprague::catalog::{Catalog, Settings};
use sprague::game::notation::parse_u64;
use sprague::game::Play;
use sprague::heap::PeriodSearch;
use sprague::memory::Meter;
use sprague::nimber::Nimber;
use sprague::progress::Progress;
use sprague::quotient::{GenusTable, Quotient, QuotientOptions};
use sprague::solve::store::{Disk, FileStore};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The environment variable naming a directory of strong solutions (read here, by the front
/// end; the library reads no environment).
pub const DB_DIR_VARIABLE: &str = "SPRAGUE_DB_DIR";

/// Where strong solutions are kept, as the environment asks: `SPRAGUE_DB_DIR=DIR` (strict),
/// `SPRAGUE_DB_DIR=` (memory only), else the user's cache directory.
fn disk_from_env() -> Disk {
    let var = |name: &str| std::env::var_os(name).map(PathBuf::from);
    Disk::from_vars(var(DB_DIR_VARIABLE), var("XDG_CACHE_HOME"), var("HOME"))
}

/// The budget of the flags: `--max-seconds`, and `--max-memory` (by default 80% of the
/// machine's memory) on the process's bytes; `watcher` sees the searches' work.
fn budget(flags: &BudgetFlags, watcher: Arc<Spinner>) -> Budget {
    let mut budget = match flags.max_seconds {
        Some(s) => Budget::within(Duration::from_secs(s)),
        None => Budget::stoppable(),
    };
    let max_mib = flags
        .max_memory
        .or_else(|| machine_memory().map(|bytes| (bytes / 5 * 4) >> 20));
    if let Some(mib) = max_mib.filter(|&mib| mib > 0) {
        budget = budget.with_memory(mib << 20, Meter::Process);
    }
    budget.with_watcher(watcher)
}

/// The machine's memory, from `/proc/meminfo` (`None` where there is none).
fn machine_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib << 10)
}

/// The search settings of the flags: tables up to `--search-memory` (by default half the
/// budget's memory, at most 8 GiB), threads, checkpoint.
fn search_settings(flags: &SearchFlags, budget: &Budget) -> sprague::solve::nimsearch::Settings {
    let defaults = sprague::solve::nimsearch::Settings::default();
    sprague::solve::nimsearch::Settings {
        table_bytes: match flags.search_memory {
            Some(mib) => mib << 20,
            None => budget
                .max_memory()
                .map_or(8 << 30, |bytes| (bytes / 2).min(8 << 30)),
        },
        threads: flags
            .search_threads
            .map_or(defaults.threads, |threads| threads as usize),
        checkpoint: flags.search_checkpoint.as_ref().map(|path| {
            sprague::solve::nimsearch::Checkpoint {
                path: path.clone(),
                interval: Duration::from_secs(flags.search_checkpoint_interval),
            }
        }),
        ..defaults
    }
}

/// The instruction-set path of `--simd` (auto when absent).
fn parse_simd(simd: Option<String>) -> Result<sprague::simd::Simd> {
    Ok(match simd {
        Some(text) => text
            .parse()
            .map_err(|e: sprague::simd::ParseSimdError| bad(e.to_string()))?,
        None => sprague::simd::Simd::Auto,
    })
}

/// The sparse-space engine's settings from `--threads` (1 or 2; both cores when the machine
/// has two), `--simd` (the engine refuses a path this CPU does not run), `--checkpoint` and
/// `--checkpoint-interval`.
fn engine_options(
    threads: Option<String>,
    simd: Option<String>,
    checkpoint: Option<std::path::PathBuf>,
    interval: Option<f64>,
) -> Result<sprague::heap::rare::Options> {
    let threads = match threads {
        Some(t) => match number(&t, "--threads")? {
            t @ 1..=2 => t as usize,
            t => return Err(bad(format!("--threads must be 1 or 2, got {t}"))),
        },
        None => std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
    };
    let simd = parse_simd(simd)?;
    let defaults = sprague::heap::rare::Options::DEFAULT;
    let checkpoint_interval = match interval {
        Some(seconds) if seconds.is_finite() && (0.0..=1e9).contains(&seconds) => {
            std::time::Duration::from_secs_f64(seconds)
        }
        Some(seconds) => {
            return Err(bad(format!(
                "--checkpoint-interval must be a number of seconds, got {seconds}"
            )))
        }
        None => defaults.checkpoint_interval,
    };
    Ok(sprague::heap::rare::Options {
        threads,
        simd,
        checkpoint,
        checkpoint_interval,
        ..defaults
    })
}

/// The catalog with the settings of this command line: the store of the environment (holding
/// at most `store_memory` bytes of solutions in memory), the script caps of the flags, the
/// search's settings, the budget, and the MPI job of `solve --distributed`.
pub fn catalog(
    caps: &ScriptCaps,
    search: &SearchFlags,
    budget: Budget,
    store_memory: u64,
    cluster: Option<&Cluster>,
) -> Result<Catalog> {
    #[cfg(feature = "rhai")]
    let script = {
        let script = sprague::script::Limits {
            max_operations: caps.script_max_operations,
            max_call_depth: caps.script_max_call_depth as usize,
            max_string: caps.script_max_string as usize,
            max_array: caps.script_max_array as usize,
            max_positions: caps.script_max_positions as usize,
            max_bytes: usize::try_from(caps.script_max_memory << 20).unwrap_or(usize::MAX),
            max_seconds: caps.script_max_seconds,
        };
        script.check()?;
        script
    };
    #[cfg(not(feature = "rhai"))]
    let _ = caps;
    let mut store = FileStore::new(disk_from_env()).with_memory_cap(store_memory);
    if let Some(cluster) = cluster {
        store = store.distributed(cluster.comm());
    }
    Ok(Catalog::new(Settings {
        store: Arc::new(store),
        #[cfg(feature = "rhai")]
        script,
        search: search_settings(search, &budget),
        budget,
        ..Settings::default()
    }))
}

fn play(misere: bool) -> Play {
    if misere {
        Play::Misere
    } else {
        Play::Normal
    }
}

fn number(text: &str, what: &str) -> Result<u64> {
    parse_u64(text, what).map_err(bad)
}

/// The settings of `bench octal` from its flags.
fn octal_settings(
    flags: crate::cli::OctalBench,
    simd: sprague::simd::Simd,
) -> Result<crate::bench_octal::Settings> {
    let size = match &flags.size {
        Some(text) => Some(number(text, "--size")?),
        None => None,
    };
    let seconds: f64 = flags
        .peer_max_seconds
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s > 0.0)
        .ok_or_else(|| {
            bad(format!(
                "--peer-max-seconds must be a positive number of seconds, got {}",
                flags.peer_max_seconds
            ))
        })?;
    let stop_ratio = match &flags.peer_stop_ratio {
        Some(text) => Some(
            text.parse()
                .ok()
                .filter(|r: &f64| r.is_finite() && *r >= 1.0)
                .ok_or_else(|| {
                    bad(format!(
                        "--peer-stop-ratio must be a number of at least 1, got {text}"
                    ))
                })?,
        ),
        None => None,
    };
    let threads = match &flags.threads {
        Some(list) => list
            .iter()
            .map(|t| match number(t, "--threads")? {
                t @ 1..=2 => Ok(t as usize),
                t => Err(bad(format!("--threads must be 1 or 2, got {t}"))),
            })
            .collect::<Result<Vec<_>>>()?,
        None if flags.sweep => vec![1],
        None => {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            if cores >= 2 {
                vec![1, 2]
            } else {
                vec![1]
            }
        }
    };
    for method in &flags.peer_methods {
        if !["naive", "rc", "rcs", "rc2", "rc2s"].contains(&method.as_str()) {
            return Err(bad(format!(
                "--peer-methods takes naive, rc, rcs, rc2 and rc2s, got '{method}'"
            )));
        }
    }
    Ok(crate::bench_octal::Settings {
        sweep: flags.sweep,
        size,
        games: flags.games,
        peer: flags.peer.unwrap_or_else(|| "ogsolve".into()),
        peer_methods: flags.peer_methods,
        peer_max_seconds: seconds,
        peer_stop_ratio: stop_ratio,
        threads,
        simd,
        json: flags.json,
        resume: flags.resume,
    })
}

/// The largest `--max-order`: its table takes 4·N² bytes (1 GiB).
const MAX_ORDER: u64 = 1 << 14;

/// Warns on stderr about the functions of every `script:PATH` among the command line's words
/// whose names nearly match a hook (a typo the game would silently ignore). An unreadable file
/// is left to the command, which reports it.
#[cfg(feature = "rhai")]
fn warn_near_misses() {
    for word in std::env::args().skip(1) {
        let Some(path) = word.strip_prefix("script:") else {
            continue;
        };
        let Ok(source) = std::fs::read_to_string(path) else {
            continue;
        };
        for m in sprague::script::near_misses(&source) {
            eprintln!(
                "sprague: warning: {path}:{}: fn {} is not a hook the game reads; did you mean '{}'?",
                m.line, m.name, m.hook
            );
        }
    }
}

/// Runs one parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    #[cfg(feature = "rhai")]
    warn_near_misses();
    let spinner = Arc::new(Spinner::new());
    let budget = budget(&cli.budget, spinner.clone());
    // A server keeps solutions between requests: its store is capped.
    let store_memory = match &cli.command {
        Command::Serve { store_memory, .. } => store_memory << 20,
        _ => u64::MAX,
    };
    // `solve --distributed` joins the MPI job first (it ends when `cluster` is dropped).
    let cluster = match &cli.command {
        Command::Solve {
            distributed: true, ..
        } => Some(Cluster::start()?),
        _ => None,
    };
    let result = catalog(
        &cli.script,
        &cli.search,
        budget.clone(),
        store_memory,
        cluster.as_ref(),
    )
    .and_then(|catalog| run_command(cli.command, catalog, &budget, cluster.as_ref(), &cli.search));
    spinner.clear();
    if let (Some(cluster), Err(error)) = (&cluster, &result) {
        cluster.report(error);
    }
    result
}

fn run_command(
    command: Command,
    catalog: Catalog,
    budget: &Budget,
    cluster: Option<&Cluster>,
    cli_search: &SearchFlags,
) -> Result<()> {
    match command {
        Command::Value(args) if args.batch => batch(&catalog, &args),
        Command::Value(args) if args.anti_sg => {
            let position = position(&catalog, &args)?;
            let report = sprague::analysis::anti_sg(&position)?;
            let explanation = if args.explain {
                Some(sprague::analysis::explain::anti_sg(&position)?)
            } else {
                None
            };
            let answer = sprague::analysis::Answer::Value(report);
            output::answer(&answer, &position, explanation.as_deref(), args.json)
        }
        Command::Value(args) => {
            let position = position(&catalog, &args)?;
            let answer = sprague::analysis::answer(&position, play(args.misere))?;
            let explanation = if args.explain {
                Some(sprague::analysis::explain::explain(
                    &position,
                    play(args.misere),
                )?)
            } else {
                None
            };
            output::answer(&answer, &position, explanation.as_deref(), args.json)
        }
        Command::Compare { words, mut json } => {
            // Everything after the first position word arrives here, `--` and `--json` too.
            let mut sides: Vec<Vec<String>> = vec![Vec::new()];
            for word in words {
                match word.as_str() {
                    "--json" => json = true,
                    "--" => sides.push(Vec::new()),
                    _ => sides.last_mut().expect("one side at least").push(word),
                }
            }
            let [g, h] = &sides[..] else {
                return Err(bad(
                    "write two positions separated by a lone '--': sprague compare G... -- H...",
                ));
            };
            if g.is_empty() || h.is_empty() {
                return Err(bad("a position is missing on one side of '--'"));
            }
            let (g, h) = (catalog.parse_position(g)?, catalog.parse_position(h)?);
            let relation = sprague::analysis::partizan::compare(&g, &h)?;
            output::compare(relation, &g, &h, json)
        }
        Command::Thermograph { words, json, svg } => {
            let position = catalog.parse_position(&words)?;
            let report = sprague::analysis::partizan::thermograph(&position)?;
            output::thermograph(&report, &position, json, svg.as_deref())
        }
        Command::Moves(args) => {
            if args.batch {
                return Err(bad("--batch is for 'value'; 'moves' takes one position"));
            }
            if args.explain {
                return Err(bad("--explain is for 'value'"));
            }
            if args.anti_sg {
                return Err(bad("--anti-sg is for 'value'"));
            }
            let position = position(&catalog, &args)?;
            let answer = sprague::analysis::moves_answer(&position, play(args.misere))?;
            output::moves_answer(&answer, &position, play(args.misere), args.json)
        }
        Command::Table {
            game,
            to,
            format,
            no_header,
            output,
            checkpoint,
            checkpoint_interval,
            threads,
            simd,
        } => {
            if no_header && format != TableFormat::Csv {
                return Err(bad("--no-header goes with --format csv"));
            }
            match (&output, format) {
                (None, TableFormat::Bin) => {
                    return Err(bad(
                        "--format bin writes a file: name it with --output FILE",
                    ))
                }
                (Some(_), f) if f != TableFormat::Bin => {
                    return Err(bad(
                        "--output goes with --format bin (redirect the other formats with >)",
                    ))
                }
                _ => {}
            }
            let to = number(&to, "--to")?;
            let (name, heap) = catalog.heap_game(&game)?;
            let asked_for_engine = checkpoint.is_some();
            let options = engine_options(threads, simd, checkpoint, checkpoint_interval)?;
            let bar = Bar::new(budget);
            let table = match heap.long_table(to, &options, &bar) {
                Some(table) => table?,
                None if asked_for_engine => {
                    return Err(bad(format!(
                        "--checkpoint needs a take-and-break code with splits (such as 0.6, 0.007 or grundy); {name} is not one"
                    )))
                }
                None => heap.table(to, &bar)?,
            };
            if let Some(path) = output {
                let width = sprague::heap::table_file::save(&path, &name, &table)?;
                eprintln!(
                    "{name}: G(0..={to}) written to {} ({width} byte{} a value)",
                    path.display(),
                    if width > 1 { "s" } else { "" }
                );
                return Ok(());
            }
            output::table(
                &name,
                &table,
                format == TableFormat::Json,
                (format == TableFormat::Csv).then_some(!no_header),
            )
        }
        Command::Period {
            game,
            max,
            json,
            threads,
            simd,
            checkpoint,
            checkpoint_interval,
        } => {
            let max = number(&max, "--max")?;
            let engine = engine_options(threads, simd, checkpoint, checkpoint_interval)?;
            let (name, heap) = catalog.heap_game(&game)?;
            let search: PeriodSearch = heap.period_with(max, &engine, &Bar::new(budget))?;
            output::period(&name, &search, json)
        }
        Command::Genus { game, to, json } => {
            let to = number(&to, "--to")?;
            let (name, rules) = catalog.heap_rules(&game)?;
            let table = GenusTable::compute(
                rules.as_ref(),
                to,
                sprague::quotient::genus::DEFAULT_POSITION_LIMIT,
                &Bar::new(budget),
            )?;
            output::genus(&table.report(&name), json)
        }
        Command::Quotient {
            game,
            max_heap,
            max_order,
            json,
        } => {
            let max_order = match number(&max_order, "--max-order")? {
                n @ 2..=MAX_ORDER => n as usize,
                n => {
                    return Err(bad(format!(
                        "--max-order takes 2 to {MAX_ORDER} (a table of N^2 entries), got {n}"
                    )))
                }
            };
            let options = QuotientOptions {
                max_order,
                ..QuotientOptions::default()
            };
            let max_heap = match max_heap {
                Some(n) => Some(number(&n, "--max-heap")?),
                None => None,
            };
            let (name, rules) = catalog.heap_rules(&game)?;
            let (search, max_heap) =
                Quotient::compute_for(rules.as_ref(), max_heap, &options, &Bar::new(budget))?;
            output::quotient(&name, &search, max_heap, json)
        }
        Command::Solve {
            words,
            json,
            threads,
            distributed: _,
        } => solve(&catalog, &words, json, threads.as_deref(), budget, cluster),
        Command::Nimber {
            op,
            args,
            batch,
            json,
        } => nimber(op, &args, batch, json),
        Command::Bench {
            target: BenchTarget::Nimber,
            simd,
            octal,
            ..
        } => {
            if octal.sweep
                || octal.size.is_some()
                || octal.games.is_some()
                || octal.threads.is_some()
            {
                return Err(bad(
                    "--sweep, --size, --games and --threads are for 'bench octal'",
                ));
            }
            crate::bench_nimber::run(parse_simd(simd)?, octal.json)
        }
        Command::Bench {
            target: BenchTarget::Octal,
            simd,
            octal,
            ..
        } => crate::bench_octal::run(&octal_settings(octal, parse_simd(simd)?)?),
        Command::Bench {
            target: BenchTarget::Search,
            run: Some(spec),
            ..
        } => {
            // One timed run: the nim value of the spec's start, nothing else.
            let position = catalog.parse_position(&[spec.as_str()])?;
            let sprague::erased::Position::Sum(segments) = &position else {
                return Err(bad(format!("{spec} is not an impartial game")));
            };
            let mut x = 0;
            for part in segments.iter().flat_map(|s| &s.parts) {
                match part.nim_value()? {
                    sprague::game::NimValue::Finite(v) => x ^= v,
                    loopy => return Err(bad(format!("{spec} has the loopy value {loopy}"))),
                }
            }
            println!("nim value: {x}");
            Ok(())
        }
        Command::Bench {
            target: BenchTarget::Search,
            octal,
            boards,
            time_limit,
            run: None,
            ..
        } => crate::bench_search::run_bench(&crate::bench_search::Options {
            peer: octal.peer.as_deref(),
            boards: &boards,
            limit: Duration::from_secs(time_limit),
            threads: cli_search.search_threads,
            memory: cli_search.search_memory,
        }),
        Command::Josephus {
            n,
            k,
            kth,
            when,
            order,
            json,
        } => {
            let n = number(&n, "N")?;
            let k = number(&k, "K")?;
            let answer = if order {
                output::Josephus::Order(sprague::josephus::order(n, k)?)
            } else if let Some(j) = when {
                let j = number(&j, "--when")?;
                output::Josephus::When(j, sprague::josephus::when(n, k, j)?)
            } else {
                let i = match kth {
                    Some(i) => number(&i, "--kth")?,
                    None => n,
                };
                output::Josephus::Kth(i, sprague::josephus::kth(n, k, i)?)
            };
            output::josephus(n, k, &answer, json)
        }
        Command::Play {
            mut words,
            misere,
            seed,
        } => {
            if misere {
                words.push("--misere".into());
            }
            let mut input = std::io::stdin().lock();
            let mut output = std::io::stdout().lock();
            crate::play::run(&catalog, &words, seed, &mut input, &mut output)
        }
        Command::Count {
            problem: CountProblem::Gzoi2017,
            heaps,
            json,
        } => {
            let heaps = heaps
                .iter()
                .map(|h| number(h, "a heap size"))
                .collect::<Result<Vec<u64>>>()?;
            let count = sprague::counting::forced_start_losses(&heaps)?;
            output::count("gzoi2017", heaps.len(), count, json)
        }
        Command::Catalog { json } => output::catalog(Catalog::entries(), json),
        Command::Serve {
            bind,
            port,
            scripts,
            time_limit,
            request_memory,
            store_memory: _,
        } => {
            let bind: std::net::IpAddr = bind
                .parse()
                .map_err(|_| bad(format!("--bind must be an IP address, got '{bind}'")))?;
            let port = number(&port, "--port")?;
            let port = u16::try_from(port)
                .map_err(|_| bad(format!("--port must be at most 65535, got {port}")))?;
            if let Some(dir) = &scripts {
                if !dir.is_dir() {
                    return Err(bad(format!(
                        "--scripts must name a directory, got '{}'",
                        dir.display()
                    )));
                }
            }
            let limits = sprague_web::Limits {
                scripts,
                time: std::time::Duration::from_secs(time_limit),
                memory: request_memory << 20,
                ..sprague_web::Limits::default()
            };
            sprague_web::serve(catalog, limits, bind, port)?;
            Ok(())
        }
    }
}

fn solve(
    catalog: &Catalog,
    words: &[String],
    json: bool,
    threads: Option<&str>,
    budget: &Budget,
    cluster: Option<&Cluster>,
) -> Result<()> {
    let first = &words[0];
    match catalog.game(first) {
        Ok(game) => {
            let threads = match threads {
                Some(t) => Some(
                    parse_u64(t, "the number of threads")
                        .ok()
                        .filter(|&n| (1..=1024).contains(&n))
                        .ok_or_else(|| bad(format!("--threads takes 1 to 1024, got '{t}'")))?
                        as usize,
                ),
                None => cluster.map(Cluster::threads_per_rank),
            };
            let rest: Vec<&str> = words[1..].iter().map(String::as_str).collect();
            // Rank 0 of a distributed solve shows the progress; the other ranks only stop
            // with the budget.
            let progress: Box<dyn Progress> = match cluster {
                Some(c) if !c.is_root() => Box::new(Quiet::new(budget)),
                _ => Box::new(Bar::new(budget)),
            };
            let report = sprague::solve::tiered::with_threads(threads, || {
                game.solve(&rest, progress.as_ref())
            })?;
            let report = report.ok_or_else(|| {
                bad(format!(
                    "{} cannot be strongly solved from a start position; try 'sprague value'",
                    game.spec()
                ))
            })??;
            if let Some(c) = cluster {
                let spread = ["distributed", "from_database"]
                    .iter()
                    .any(|k| report.details.contains_key(*k));
                if !spread {
                    return Err(bad(format!(
                        "{} is not a tiered game: --distributed solves mnk, connect, quixo and teeko",
                        game.spec()
                    )));
                }
                if !c.is_root() {
                    return Ok(());
                }
            }
            output::solve_game(&report, json)
        }
        Err(_) if cluster.is_some() => Err(bad(format!(
            "--distributed solves a tiered game (mnk, connect, quixo, teeko), not '{first}'"
        ))),
        Err(spec_error) => {
            let path = std::path::Path::new(first);
            if !path.exists() {
                return Err(bad(format!(
                    "'{first}' is neither a game nor a file ({spec_error})"
                )));
            }
            if words.len() > 1 {
                return Err(bad("a graph file takes no position"));
            }
            let report = sprague::solve::report::solve_file(path)?;
            output::solve_graph(&report, json)
        }
    }
}

fn nimber(op: NimberOp, args: &[String], batch: bool, json: bool) -> Result<()> {
    if batch {
        if op != NimberOp::Mul || !args.is_empty() {
            return Err(bad("--batch goes with 'mul' and no operands"));
        }
        let stdin = std::io::stdin().lock();
        let stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        sprague::nimber::mul_batch(stdin, stdout, sprague::simd::Simd::Auto)?;
        return Ok(());
    }
    let values = args
        .iter()
        .map(|a| {
            a.parse::<Nimber>()
                .map_err(|e| bad(format!("operand '{a}': {e}")))
        })
        .collect::<Result<Vec<Nimber>>>()?;
    let arity = |n: usize| -> Result<()> {
        if values.len() == n {
            Ok(())
        } else {
            Err(bad(format!(
                "nimber {} takes {n} operand{}, got {}",
                format!("{op:?}").to_lowercase(),
                if n == 1 { "" } else { "s" },
                values.len()
            )))
        }
    };
    let result: Option<Nimber> = match op {
        NimberOp::Add => Some(values.iter().fold(Nimber(0), |x, &y| x + y)),
        NimberOp::Mul => Some(values.iter().fold(Nimber(1), |x, &y| x * y)),
        NimberOp::Div => {
            arity(2)?;
            Some(
                values[0]
                    .checked_div(values[1])
                    .ok_or_else(|| bad("division by the nimber 0"))?,
            )
        }
        NimberOp::Inv => {
            arity(1)?;
            Some(values[0].inverse().ok_or_else(|| bad("0 has no inverse"))?)
        }
        NimberOp::Sqrt => {
            arity(1)?;
            Some(values[0].sqrt())
        }
        NimberOp::Pow => {
            arity(2)?;
            Some(values[0].pow(values[1].0))
        }
        NimberOp::Solve => {
            arity(1)?;
            values[0].solve_quadratic()
        }
    };
    output::nimber(op, &values, result, json)
}

/// The position of `value` or `moves`: the words on the command line, then those of the
/// position file.
/// `value --batch`: one position a line from stdin (after the words given, if any), one JSON
/// line each on stdout; a line that fails answers `{"error", "line"}` and the exit code is 2.
fn batch(catalog: &Catalog, args: &PositionArgs) -> Result<()> {
    use std::io::{BufRead, Write};
    if args.explain {
        return Err(bad("--explain takes one position, not --batch"));
    }
    if args.anti_sg {
        return Err(bad("--anti-sg takes one position, not --batch"));
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut failed = 0usize;
    for (i, line) in stdin.lock().lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = split_line(&line).and_then(|words| {
            let mut all = args.words.clone();
            all.extend(words);
            let position = catalog.parse_position(&all)?;
            Ok(sprague::analysis::answer(&position, play(args.misere))?)
        });
        match answer {
            Ok(answer) => serde_json::to_writer(&mut out, &answer)?,
            Err(e) => {
                failed += 1;
                let error = serde_json::json!({"error": e.to_string(), "line": i + 1});
                serde_json::to_writer(&mut out, &error)?;
            }
        }
        writeln!(out)?;
        out.flush()?;
    }
    if failed > 0 {
        return Err(bad(format!(
            "{failed} line(s) of the batch failed; see their \"error\" objects"
        )));
    }
    Ok(())
}

/// A batch line's words: white space separates them, and '...' or "..." quote a word with
/// spaces (`cg '{2|1||0} + ^'`), as a shell would.
fn split_line(line: &str) -> Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for ch in line.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(ch);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(q) = quote {
        return Err(bad(format!("unclosed {q} in the line '{line}'")));
    }
    words.extend(word);
    Ok(words)
}

fn position(catalog: &Catalog, args: &PositionArgs) -> Result<sprague::erased::Position> {
    let mut words = args.words.clone();
    if let Some(path) = &args.position_file {
        words.extend(read_words(path)?);
    }
    Ok(catalog.parse_position(&words)?)
}

/// The largest position file read (bytes): far above any position worth solving.
const MAX_POSITION_FILE: u64 = 1 << 28;

/// The white-space separated words of a position file (`-` reads stdin).
fn read_words(path: &std::path::Path) -> Result<Vec<String>> {
    use std::io::Read;
    let name = path.display();
    let mut text = String::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin()
            .take(MAX_POSITION_FILE + 1)
            .read_to_string(&mut text)
    } else {
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_POSITION_FILE + 1).read_to_string(&mut text))
    };
    read.map_err(|e| sprague::Error::Io {
        path: name.to_string(),
        reason: e.to_string(),
    })?;
    if text.len() as u64 > MAX_POSITION_FILE {
        return Err(sprague::Error::Limit(format!(
            "position file {name} is larger than {MAX_POSITION_FILE} bytes"
        ))
        .into());
    }
    Ok(text.split_whitespace().map(str::to_owned).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_chooses_the_store() {
        let p = |s: &str| Some(PathBuf::from(s));
        assert_eq!(Disk::from_vars(p(""), p("/x"), p("/h")), Disk::None);
        assert_eq!(
            Disk::from_vars(p("/db"), p("/x"), p("/h")),
            Disk::Directory(PathBuf::from("/db"))
        );
        assert_eq!(
            Disk::from_vars(None, p("/x"), p("/h")),
            Disk::Cache(PathBuf::from("/x/sprague"))
        );
        assert_eq!(
            Disk::from_vars(None, p(""), p("/h")),
            Disk::Cache(PathBuf::from("/h/.cache/sprague"))
        );
        assert_eq!(Disk::from_vars(None, None, None), Disk::None);
    }
}
