//! `sprague._sprague`: the native half of the Python package. A front end like the CLI: it
//! parses what Python hands over, calls the library with the GIL released, and returns the
//! library's own reports (as the CLI's JSON, which the Python half turns into objects) or
//! NumPy arrays. No game logic lives here.

use numpy::{IntoPyArray, PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyType;
use sprague::analysis::{self, Which};
use sprague::budget::Budget;
use sprague::catalog::{Catalog, Settings};
use sprague::erased::Position as Sum;
use sprague::game::Play;
use sprague::heap::{PeriodReport, PeriodSearch};
use sprague::nimber::Nimber;
use sprague::progress::Progress;
use sprague::simd::{Kernel, Simd};
use sprague::solve::store::{Disk, FileStore};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The library's error as the exception class of `sprague._errors` that the Python API
/// documents (`SpecError` is also a `ValueError`).
fn to_py(error: sprague::Error) -> PyErr {
    use sprague::Error as E;
    let class = match &error {
        E::Spec { .. } | E::Position { .. } => "SpecError",
        E::Limit(_) | E::Stopped(_) => "TooLargeError",
        E::Unsupported(_) => "UnsupportedError",
        E::Script { .. } => "ScriptError",
        E::Io { .. } | E::File(_) => "StoreError",
        _ => "SpragueError",
    };
    let message = error.to_string();
    Python::attach(|py| {
        match py
            .import("sprague._errors")
            .and_then(|m| m.getattr(class))
            .and_then(|c| Ok(c.cast_into::<PyType>()?))
        {
            Ok(class) => PyErr::from_type(class, message),
            Err(e) => e,
        }
    })
}

/// The cores this process may use, asked once: `available_parallelism` reads the cgroup's
/// quota files at every call (about 40 µs, ten times the products of a 4096-element array).
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn lib<T>(result: sprague::Result<T>) -> PyResult<T> {
    result.map_err(to_py)
}

fn json<T: serde::Serialize>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

fn play(misere: bool) -> Play {
    if misere {
        Play::Misere
    } else {
        Play::Normal
    }
}

/// The catalog over the store the CLI uses: `SPRAGUE_DB_DIR` (a directory; empty: memory only),
/// else the user's cache directory; the values come from Python's `os.environ`. Its games stop
/// when `budget` is stopped.
fn catalog(
    db_dir: Option<PathBuf>,
    xdg_cache: Option<PathBuf>,
    home: Option<PathBuf>,
    budget: Budget,
) -> Catalog {
    Catalog::new(Settings {
        store: Arc::new(FileStore::new(Disk::from_vars(db_dir, xdg_cache, home))),
        budget,
        ..Settings::default()
    })
}

/// The stack of the threads that compute (as the server's): the script engine walks nested
/// values recursively.
const WORKER_STACK: usize = 64 << 20;

/// Runs `work` on a worker thread while this thread waits with the GIL released, looking at
/// Python's pending signals every 50 ms, so that Ctrl-C stops any computation: on a signal it
/// stops every budget in `budgets` (the work ends at its next budget check), waits for the
/// work, restarts the budgets (the positions that hold them serve again) and raises the
/// signal's exception, `KeyboardInterrupt`. Signals reach Python's main thread only; called
/// from another thread this just waits.
fn interruptible<T: Send>(
    py: Python<'_>,
    budgets: &[Budget],
    work: impl FnOnce() -> sprague::Result<T> + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let worker = std::thread::Builder::new()
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, move || {
                // The receiver waits until the end: a failed send cannot happen.
                let _ = sender.send(work());
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a worker thread: {e}")))?;
        // The receiver is not `Sync`: each wait takes it and hands it back.
        let mut receiver = receiver;
        loop {
            let (back, answer) = py.detach(move || {
                let answer = receiver.recv_timeout(Duration::from_millis(50));
                (receiver, answer)
            });
            receiver = back;
            match answer {
                Ok(result) => return lib(result),
                Err(RecvTimeoutError::Disconnected) => {
                    // The work panicked before it answered.
                    let why = match worker.join() {
                        Err(panic) => panic
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| panic.downcast_ref::<String>().cloned())
                            .unwrap_or_default(),
                        Ok(()) => String::new(),
                    };
                    return Err(PyRuntimeError::new_err(format!(
                        "the engine failed: {why} (please report this)"
                    )));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Err(interrupt) = py.check_signals() {
                for budget in budgets {
                    budget.stop();
                }
                let _ = py.detach(move || receiver.recv());
                for budget in budgets {
                    budget.restart();
                }
                return Err(interrupt);
            }
        }
    })
}

/// Forwards the library's progress to a Python callable `callback(event, a, b)` with events
/// `"start"` (what, total), `"advance"` (done, note) and `"finish"`, at most ten times a second,
/// and asks the computation to stop once `budget` is stopped (by [`interruptible`]).
struct Callback {
    callback: Option<Py<PyAny>>,
    last: Mutex<Option<Instant>>,
    budget: Budget,
}

impl Callback {
    fn new(callback: Option<Py<PyAny>>, budget: &Budget) -> Self {
        Callback {
            callback,
            last: Mutex::new(None),
            budget: budget.clone(),
        }
    }

    fn call(
        &self,
        event: &str,
        a: impl for<'py> IntoPyObject<'py>,
        b: impl for<'py> IntoPyObject<'py>,
    ) {
        if let Some(callback) = &self.callback {
            Python::attach(|py| {
                // A failing progress display must not stop the computation.
                let _ = callback.call1(py, (event, a, b));
            });
        }
    }
}

impl Progress for Callback {
    fn start(&self, what: &str, total: u64) {
        self.call("start", what, total);
    }

    fn advance(&self, done: u64, note: &str) {
        if self.callback.is_none() {
            return;
        }
        let now = Instant::now();
        {
            let Ok(mut last) = self.last.lock() else {
                return;
            };
            if last.is_some_and(|t| now.duration_since(t) < Duration::from_millis(100)) {
                return;
            }
            *last = Some(now);
        }
        self.call("advance", done, note);
    }

    fn finish(&self) {
        self.call("finish", 0u64, "");
    }

    fn stop_requested(&self) -> bool {
        self.budget.is_over()
    }
}

/// A position of any game of the catalog, or a sum of them, built once from its words, with
/// the budgets its games check (one per parse; a sum of two parsed positions holds both), which
/// an interrupt stops.
#[pyclass(module = "sprague._sprague", frozen)]
struct Position {
    sum: Sum,
    budgets: Vec<Budget>,
}

impl Position {
    /// A position reached from this one (its games, so its budgets).
    fn next(&self, sum: Sum) -> Position {
        Position {
            sum,
            budgets: self.budgets.clone(),
        }
    }

    /// Runs `work` on this position's games, stopped by Ctrl-C.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&Sum) -> sprague::Result<T> + Send,
    ) -> PyResult<T> {
        interruptible(py, &self.budgets, || work(&self.sum))
    }
}

#[pymethods]
impl Position {
    /// Parses `GAME WORDS... [+ GAME WORDS...]` as the command line does.
    #[new]
    #[pyo3(signature = (words, db_dir=None, xdg_cache=None, home=None))]
    fn new(
        py: Python<'_>,
        words: Vec<String>,
        db_dir: Option<PathBuf>,
        xdg_cache: Option<PathBuf>,
        home: Option<PathBuf>,
    ) -> PyResult<Position> {
        let budget = Budget::stoppable();
        let catalog = catalog(db_dir, xdg_cache, home, budget.clone());
        let sum = interruptible(py, std::slice::from_ref(&budget), || {
            catalog.parse_position(&words)
        })?;
        Ok(Position {
            sum,
            budgets: vec![budget],
        })
    }

    fn __str__(&self) -> String {
        self.sum.to_string()
    }

    /// `impartial` (sums valued by nim values), `partizan` or `single` (a board solved whole).
    #[getter]
    fn kind(&self) -> &'static str {
        match self.sum {
            Sum::Sum(_) => "impartial",
            Sum::Partizan(_) => "partizan",
            Sum::Single(_) => "single",
        }
    }

    /// The game spec(s), e.g. `kayles + nim`.
    #[getter]
    fn game(&self) -> String {
        self.sum.game()
    }

    /// How to draw it: `heaps`, `coins`, `board:COLUMNS:ROWS` or `text`.
    #[getter]
    fn layout(&self) -> String {
        use sprague::game::notation::Layout;
        match self.sum.layout() {
            Layout::Heaps => "heaps".into(),
            Layout::Coins => "coins".into(),
            Layout::Board { columns, rows, .. } => format!("board:{columns}:{rows}"),
            _ => "text".into(),
        }
    }

    /// The position as the CLI's JSON writes it.
    fn json(&self) -> PyResult<String> {
        json(&self.sum.to_json())
    }

    /// The answer of `sprague value --json`.
    fn value(&self, py: Python<'_>, misere: bool) -> PyResult<String> {
        json(&self.run(py, |sum| analysis::answer(sum, play(misere)))?)
    }

    /// Every legal move as `(label, position after, outcome, nim value, remoteness)`; the label
    /// is what [`Position::play`] takes (`2:7 -> 3` in sums of several parts).
    #[allow(clippy::type_complexity)]
    fn options(
        &self,
        py: Python<'_>,
        misere: bool,
    ) -> PyResult<Vec<(String, Position, String, Option<u64>, Option<u64>)>> {
        let rating = self.run(py, |sum| analysis::rate(sum, play(misere), Which::All))?;
        let parts = self.sum.parts().len();
        Ok(rating
            .moves
            .into_iter()
            .map(|m| {
                (
                    m.label(parts),
                    self.next(m.position),
                    format!("{:?}", m.outcome),
                    m.nim_value,
                    m.remoteness,
                )
            })
            .collect())
    }

    /// The position after the move written `text` (as listed by [`Position::options`]), or
    /// with `component`, the move of that text in that (0-based) part, as `value` lists
    /// winning moves.
    #[pyo3(signature = (text, misere, component=None))]
    fn play(
        &self,
        py: Python<'_>,
        text: &str,
        misere: bool,
        component: Option<usize>,
    ) -> PyResult<Position> {
        let rating = self.run(py, |sum| analysis::rate(sum, play(misere), Which::All))?;
        let parts = self.sum.parts().len();
        let found = match component {
            Some(c) => rating
                .moves
                .iter()
                .position(|m| m.component == Some(c) && m.text == text)
                .ok_or_else(|| format!("part {} has no move '{text}'", c + 1)),
            None => {
                sprague::play::find_move(&rating.moves, &sprague::play::Numbering::new(parts), text)
            }
        };
        match found {
            Ok(i) => Ok(self.next(rating.moves[i].position.clone())),
            Err(why) => Err(to_py(sprague::Error::position(self.sum.game(), why))),
        }
    }

    /// Every move of each player of a partizan position as `(side, text, part, position
    /// after, canonical form after, outcome class after, whether it wins for the mover)`,
    /// Left's first; `side` is `"L"` or `"R"`, `part` the 0-based summand moved in (sums
    /// only).
    #[allow(clippy::type_complexity)]
    fn partizan_options(
        &self,
        py: Python<'_>,
    ) -> PyResult<
        Vec<(
            &'static str,
            String,
            Option<usize>,
            Position,
            String,
            String,
            bool,
        )>,
    > {
        let moves = self.run(py, analysis::partizan::moves)?;
        let sides = [("L", moves.left_moves), ("R", moves.right_moves)];
        Ok(sides
            .into_iter()
            .flat_map(|(side, options)| options.into_iter().map(move |o| (side, o)))
            .map(|(side, o)| {
                (
                    side,
                    o.text,
                    o.component,
                    self.next(o.after),
                    o.canonical_form,
                    format!("{:?}", o.outcome),
                    o.wins,
                )
            })
            .collect())
    }

    /// The sum of this position and `other`.
    fn add(&self, other: &Position) -> PyResult<Position> {
        let sum = match (&self.sum, &other.sum) {
            (Sum::Sum(a), Sum::Sum(b)) => Sum::Sum(a.iter().chain(b).cloned().collect()),
            (Sum::Single(_), _) | (_, Sum::Single(_)) => {
                return Err(to_py(sprague::Error::Unsupported(
                    "a board solved whole cannot be summed with another game".into(),
                )))
            }
            (a, b) => {
                let mut parts = lib(a.to_partizan())?;
                parts.extend(lib(b.to_partizan())?);
                Sum::Partizan(parts)
            }
        };
        let mut budgets = self.budgets.clone();
        budgets.extend(other.budgets.iter().cloned());
        Ok(Position { sum, budgets })
    }
}

/// G(0..=to) of a heap game, as a NumPy `uint64` array that takes over the library's vector
/// (no element-by-element copy), with the game's name and the certified period
/// `(preperiod, period, certified_at)` when the table proves one.
#[pyfunction]
#[pyo3(signature = (spec, to, threads=None, progress=None))]
#[allow(clippy::type_complexity)]
fn table<'py>(
    py: Python<'py>,
    spec: &str,
    to: u64,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<(String, Bound<'py, PyArray1<u64>>, Option<(u64, u64, u64)>)> {
    let threads = match threads {
        None => cores().min(2),
        Some(t @ 1..=2) => t,
        Some(t) => {
            return Err(to_py(sprague::Error::Limit(format!(
                "threads must be 1 or 2, got {t}"
            ))))
        }
    };
    let catalog = Catalog::default();
    let budget = Budget::stoppable();
    let progress = Callback::new(progress, &budget);
    let (name, table) = interruptible(py, std::slice::from_ref(&budget), || {
        let (name, heap) = catalog.heap_game(spec)?;
        let options = sprague::heap::rare::Options {
            threads,
            ..Default::default()
        };
        let table = match heap.long_table(to, &options, &progress) {
            Some(table) => table?,
            None => heap.table(to, &progress)?,
        };
        Ok((name, table))
    })?;
    let period = table
        .period
        .map(|p| (p.preperiod, p.period, p.certified_at));
    Ok((name, uint64_array(py, &table.values)?, period))
}

/// A table file that `sprague table ... --format bin --output FILE` wrote: the game, G(0..)
/// as a NumPy `uint64` array, and the certified period when the table proved one.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn load_table<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
) -> PyResult<(String, Bound<'py, PyArray1<u64>>, Option<(u64, u64, u64)>)> {
    let (game, table) = sprague::heap::table_file::load(&path).map_err(to_py)?;
    let period = table
        .period
        .map(|p| (p.preperiod, p.period, p.certified_at));
    Ok((game, uint64_array(py, &table.values)?, period))
}

/// The values as a NumPy `uint64` array, its memory estimated first (the table keeps fewer
/// bytes a value).
fn uint64_array<'py>(
    py: Python<'py>,
    values: &sprague::heap::Values,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let count = values.len() as u64;
    sprague::memory::reserve(
        &format!("a uint64 array of {count} values"),
        count.saturating_mul(8),
        &[],
    )
    .map_err(to_py)?;
    Ok(values.to_vec().into_pyarray(py))
}

/// A table file checked whole without holding its values: the game, the bytes a value, the
/// number of values, the certified period, and the file offset of G(0), for `numpy.memmap`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn table_layout(
    path: std::path::PathBuf,
) -> PyResult<(String, u64, u64, Option<(u64, u64, u64)>, u64)> {
    let layout = sprague::heap::table_file::check(&path).map_err(to_py)?;
    let period = layout
        .period
        .map(|p| (p.preperiod, p.period, p.certified_at));
    Ok((
        layout.spec,
        layout.width,
        layout.count,
        period,
        layout.offset,
    ))
}

/// `sprague period --json`: the certified period of a heap game, searched to heap `max`.
#[pyfunction]
#[pyo3(signature = (spec, max, progress=None))]
fn period(
    py: Python<'_>,
    spec: &str,
    max: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<(String, String)> {
    let catalog = Catalog::default();
    let budget = Budget::stoppable();
    let progress = Callback::new(progress, &budget);
    let (name, search): (String, PeriodSearch) =
        interruptible(py, std::slice::from_ref(&budget), || {
            let (name, heap) = catalog.heap_game(spec)?;
            Ok((name, heap.period(max, &progress)?))
        })?;
    Ok((name, json(&PeriodReport::from(&search))?))
}

/// `sprague catalog --json`.
#[pyfunction]
fn catalog_json() -> PyResult<String> {
    json(&Catalog::entries())
}

/// `sprague solve --json` for these words, with the store of `db_dir`/`xdg_cache`/`home` (the
/// CLI's rule) and progress to `progress`.
#[pyfunction]
#[pyo3(signature = (words, db_dir=None, xdg_cache=None, home=None, progress=None))]
fn solve(
    py: Python<'_>,
    words: Vec<String>,
    db_dir: Option<PathBuf>,
    xdg_cache: Option<PathBuf>,
    home: Option<PathBuf>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let budget = Budget::stoppable();
    let catalog = catalog(db_dir, xdg_cache, home, budget.clone());
    let progress = Callback::new(progress, &budget);
    let report = interruptible(py, std::slice::from_ref(&budget), || {
        let Some(first) = words.first() else {
            return Err(sprague::Error::spec("", "no game given"));
        };
        let game = catalog.game(first)?;
        let rest: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        match game.solve(&rest, &progress) {
            Some(report) => report,
            None => Err(sprague::Error::Unsupported(format!(
                "{} cannot be strongly solved from a start position; use value()",
                game.spec()
            ))),
        }
    })?;
    json(&report)
}

/// The nim product of two nimbers below 2^64.
#[pyfunction]
fn nim_mul(a: u64, b: u64) -> u64 {
    (Nimber(a) * Nimber(b)).0
}

/// The nim inverse; `None` for 0.
#[pyfunction]
fn nim_inv(a: u64) -> Option<u64> {
    Nimber(a).inverse().map(|n| n.0)
}

/// The nim square root (every nimber has one).
#[pyfunction]
fn nim_sqrt(a: u64) -> u64 {
    Nimber(a).sqrt().0
}

/// a ⊗ b^(-1); `None` when b is 0.
#[pyfunction]
fn nim_div(a: u64, b: u64) -> Option<u64> {
    Nimber(a).checked_div(Nimber(b)).map(|n| n.0)
}

/// a raised to the (ordinary integer) power e in the nim field.
#[pyfunction]
fn nim_pow(a: u64, e: u64) -> u64 {
    Nimber(a).pow(e).0
}

/// `a[i] ⊗ b[i]` over two equal-length `uint64` arrays by the batch engine, on the path that
/// [`Simd::Auto`] picks (the CLI's `nimber mul --batch` takes the same), with the GIL released,
/// a long array split between `threads` threads (default: every core).
///
/// The result is allocated by NumPy, whose allocator asks the kernel for huge pages on large
/// arrays: a `Vec` of 10^7 words took one page fault per 4 KiB on first write, which cost about
/// as much CPU time as the products themselves.
#[pyfunction]
#[pyo3(signature = (a, b, threads=None))]
fn nim_mul_array<'py>(
    py: Python<'py>,
    a: PyReadonlyArray1<'py, u64>,
    b: PyReadonlyArray1<'py, u64>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let threads = match threads {
        None => cores(),
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1, got 0")),
        Some(t) => t,
    };
    let multiplier = sprague::nimber::Multiplier::best().threads(threads);
    let (a, b) = (a.as_slice()?, b.as_slice()?);
    let out = PyArray1::<u64>::zeros(py, a.len(), false);
    {
        let mut view = out.readwrite();
        let o = view.as_slice_mut()?;
        // Unequal lengths (the Python wrapper broadcasts first, so only direct calls).
        py.detach(|| multiplier.mul_slices(a, b, o))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(out)
}

/// Applies `f` to every element of a `uint64` array with the GIL released, into an array that
/// NumPy allocates; `None` from `f` (no answer for that element) fails with `what`.
fn map_array<'py>(
    py: Python<'py>,
    a: PyReadonlyArray1<'py, u64>,
    f: impl Fn(u64) -> Option<u64> + Send + Sync,
    what: &str,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let a = a.as_slice()?;
    let out = PyArray1::<u64>::zeros(py, a.len(), false);
    let complete = {
        let mut view = out.readwrite();
        let o = view.as_slice_mut()?;
        py.detach(|| {
            a.iter().zip(o.iter_mut()).all(|(&x, o)| match f(x) {
                Some(v) => {
                    *o = v;
                    true
                }
                None => false,
            })
        })
    };
    if complete {
        Ok(out)
    } else {
        Err(to_py(sprague::Error::Unsupported(what.to_string())))
    }
}

/// The nim inverse of every element; an error when one is 0.
#[pyfunction]
fn nim_inv_array<'py>(
    py: Python<'py>,
    a: PyReadonlyArray1<'py, u64>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    map_array(py, a, nim_inv, "0 has no nim inverse (the array holds a 0)")
}

/// The nim square root of every element.
#[pyfunction]
fn nim_sqrt_array<'py>(
    py: Python<'py>,
    a: PyReadonlyArray1<'py, u64>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    map_array(py, a, |x| Some(nim_sqrt(x)), "")
}

/// The native module.
#[pymodule]
fn _sprague(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Position>()?;
    m.add_function(wrap_pyfunction!(table, m)?)?;
    m.add_function(wrap_pyfunction!(load_table, m)?)?;
    m.add_function(wrap_pyfunction!(table_layout, m)?)?;
    m.add_function(wrap_pyfunction!(period, m)?)?;
    m.add_function(wrap_pyfunction!(catalog_json, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(nim_mul, m)?)?;
    m.add_function(wrap_pyfunction!(nim_inv, m)?)?;
    m.add_function(wrap_pyfunction!(nim_sqrt, m)?)?;
    m.add_function(wrap_pyfunction!(nim_div, m)?)?;
    m.add_function(wrap_pyfunction!(nim_pow, m)?)?;
    m.add_function(wrap_pyfunction!(nim_mul_array, m)?)?;
    m.add_function(wrap_pyfunction!(nim_inv_array, m)?)?;
    m.add_function(wrap_pyfunction!(nim_sqrt_array, m)?)?;
    // The path of the batch engine as `sprague bench nimber` names it (the kernel's own
    // resolution: `Simd::resolve` alone knows only the paths that every kernel has).
    m.add("SIMD", Kernel::NimberProducts.resolve(Simd::Auto).name())?;
    m.add("CPU_FEATURES", sprague::simd::cpu_features())?;
    Ok(())
}
