//! Games written as [Rhai](https://rhai.rs) scripts: `script:PATH` works wherever a game spec does.
//!
//! A script defines one of three kinds of game, told apart by the functions it defines:
//! - **an impartial game**: `fn options(pos)` returns an array of positions, and optionally
//!   `fn splits(pos)` returns an array of options that leave several positions (each an array of
//!   positions, summed). Positions are ordinary values: integers, strings, characters, booleans,
//!   arrays and maps. Values are memoised; cycles get loopy values ∞(K) (generalized
//!   Sprague–Grundy) when no move splits. See [`impartial`].
//! - **a heap ruleset**: `fn heap_options(n)` returns, for a heap of n ≥ 1, an array of options,
//!   each the array of heap sizes it leaves. It runs on the heap engine (`table`, `period`). A
//!   period is certified only when the script also defines `fn max_heaps()` and
//!   `fn max_removed()` (see [`crate::heap::MoveBounds`]). See [`heap`].
//! - **a two-player game with draws**: `fn moves(pos)` returns the positions after each move,
//!   `fn result(pos)` says `"win"`, `"loss"`, `"tie"` or `"none"` (or `()`) for the player to
//!   move. Solved by retrograde analysis; `sprague play` and `solve` work on it. See
//!   [`two_player`].
//!
//! Every kind may also define `fn show(pos)` (the text of a position), `fn parse(text)` (the
//! inverse, for positions on the command line) and `fn start()` (the position when none is
//! given). Without `parse`, a position is written as a Rhai literal: `5`, `"abc"`, `[1,2]`.
//! Two-player games may define `fn move_text(pos, next)`, the name of a move (e.g. `b2`), and
//! `fn render(pos)`, the drawing `sprague play` shows.
//!
//! Top-level statements run once when the script is loaded; functions see only their arguments
//! (Rhai functions cannot read variables of the script), so constants belong in functions.
//!
//! # Safety
//! A script is untrusted input. It runs in a sandbox: Rhai has no file, network or process
//! access; `import` and `eval` are disabled; `print` and `debug` write to stderr. Every call is
//! capped in operations, call depth, string, array and map sizes, and the number of positions
//! explored is capped ([`Limits`], given to [`load_game`] by the front end). Any failure is an
//! [`Error::Script`] with file, line and column, or an [`Error::Limit`] for the positions cap.

pub mod heap;
pub mod impartial;
mod key;
mod lint;
mod memo;
pub mod two_player;

pub use lint::{near_misses, NearMiss, HOOKS};

pub use key::Key;

use crate::access::ScriptFiles;
use crate::budget::Budget;
use crate::error::{Error, Result};
use rhai::{CallFnOptions, Dynamic, Engine, EvalAltResult, FuncArgs, Scope, AST};
use std::cell::Cell;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The caps a script runs under. Each is adjustable by a command-line flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rhai operations in one call of a script function (`--script-max-operations`).
    pub max_operations: u64,
    /// Nested function calls (`--script-max-call-depth`).
    pub max_call_depth: usize,
    /// Characters in one string (`--script-max-string`).
    pub max_string: usize,
    /// Elements in one array or map, nested ones counted (`--script-max-array`).
    pub max_array: usize,
    /// Positions (or heaps) one game explores (`--script-max-positions`).
    pub max_positions: usize,
    /// Bytes the positions one game explores hold in all (`--script-max-memory`, in MiB
    /// there): positions that grow (longer strings, larger arrays) reach it long before the
    /// position cap.
    pub max_bytes: usize,
    /// Seconds one call of a script function may run (`--script-max-seconds`): operations
    /// are not all equally cheap (copying a deeply nested array is slow), so time is capped
    /// too.
    pub max_seconds: u64,
}

impl Limits {
    /// The defaults: ten million operations a call, depth 64, strings of 64 Ki characters,
    /// arrays of 64 Ki elements, two million positions holding at most 1 GiB, ten seconds a
    /// call.
    pub const DEFAULT: Limits = Limits {
        max_operations: 10_000_000,
        max_call_depth: 64,
        max_string: 1 << 16,
        max_array: 1 << 16,
        max_positions: 2_000_000,
        max_bytes: 1 << 30,
        max_seconds: 10,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

impl Limits {
    /// Checks that every cap is at least 1 (Rhai would read 0 as "no cap").
    ///
    /// # Errors
    /// [`Error::Limit`] naming the command-line flag of the cap that is 0.
    pub fn check(&self) -> Result<()> {
        let zero = [
            (self.max_operations == 0, "--script-max-operations"),
            (self.max_call_depth == 0, "--script-max-call-depth"),
            (self.max_string == 0, "--script-max-string"),
            (self.max_array == 0, "--script-max-array"),
            (self.max_positions == 0, "--script-max-positions"),
            (self.max_bytes == 0, "--script-max-memory"),
            (self.max_seconds == 0, "--script-max-seconds"),
        ];
        match zero.iter().find(|(z, _)| *z) {
            Some((_, flag)) => Err(Error::Limit(format!("{flag} must be at least 1"))),
            None => Ok(()),
        }
    }
}

/// A compiled script in its sandbox.
pub struct Script {
    file: String,
    source: String,
    engine: Engine,
    ast: AST,
    limits: Limits,
    /// What stops its calls (with the calls of the searches it is part of).
    budget: Budget,
    /// Names and parameter counts of the functions it defines.
    functions: Vec<(String, usize)>,
}

impl Script {
    /// Reads and compiles the script at `path`, and runs its top-level statements once.
    ///
    /// # Errors
    /// [`Error::Io`] if the file cannot be read; [`Error::Script`] for a syntax or run-time
    /// error.
    pub fn load(path: &str, limits: Limits, budget: Budget) -> Result<Script> {
        Script::load_from(path, Path::new(path), limits, budget)
    }

    /// [`Script::load`] from `file`, named `name` in messages.
    fn load_from(name: &str, file: &Path, limits: Limits, budget: Budget) -> Result<Script> {
        let source = std::fs::read_to_string(file).map_err(|e| Error::Io {
            path: name.to_string(),
            reason: e.to_string(),
        })?;
        Script::new(name, &source, limits, budget)
    }

    /// Compiles `source`, named `file` in messages, and runs its top-level statements once.
    /// Every call stops when `budget` is spent.
    ///
    /// # Errors
    /// [`Error::Script`] for a syntax or run-time error.
    pub fn new(file: &str, source: &str, limits: Limits, budget: Budget) -> Result<Script> {
        let engine = sandbox(file, limits, budget.clone());
        let ast = engine.compile(source).map_err(|e| Error::Script {
            file: file.to_string(),
            line: e.position().line().unwrap_or(1),
            column: e.position().position().unwrap_or(1),
            message: format!("syntax error: {}", e.err_type()),
        })?;
        let functions = ast
            .iter_functions()
            .map(|f| (f.name.to_string(), f.params.len()))
            .collect();
        let script = Script {
            file: file.to_string(),
            source: source.to_string(),
            engine,
            ast,
            limits,
            budget,
            functions,
        };
        timed(|| {
            script
                .engine
                .run_ast_with_scope(&mut Scope::new(), &script.ast)
        })
        .map_err(|e| script.eval_error(&e, None))?;
        Ok(script)
    }

    /// The file name, as given.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The caps it runs under.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Whether the script defines `name` with `params` parameters.
    pub fn defines(&self, name: &str, params: usize) -> bool {
        self.functions
            .iter()
            .any(|(n, p)| n == name && *p == params)
    }

    /// Whether the script defines a function `name` with any number of parameters.
    fn defines_any(&self, name: &str) -> bool {
        self.functions.iter().any(|(n, _)| n == name)
    }

    /// Calls the script function `name`.
    ///
    /// # Errors
    /// [`Error::Script`] for any error inside the call, at the place it happened.
    pub fn call(&self, name: &str, args: impl FuncArgs) -> Result<Dynamic> {
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        timed(|| {
            self.engine.call_fn_with_options::<Dynamic>(
                options,
                &mut Scope::new(),
                &self.ast,
                name,
                args,
            )
        })
        .map_err(|e| self.eval_error(&e, Some(name)))
    }

    /// An error about what function `name` returned or how it is declared, placed at its
    /// definition.
    pub fn error_in(&self, name: &str, message: impl Into<String>) -> Error {
        let (line, column) = self.definition(name).unwrap_or((1, 1));
        Error::Script {
            file: self.file.clone(),
            line,
            column,
            message: message.into(),
        }
    }

    /// Line and column of `fn name` in the source.
    fn definition(&self, name: &str) -> Option<(usize, usize)> {
        for (i, line) in self.source.lines().enumerate() {
            let mut from = 0;
            while let Some(at) = line[from..].find("fn ") {
                let start = from + at;
                let rest = line[start + 3..].trim_start();
                let before_ok = start == 0
                    || !line[..start]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_');
                if before_ok
                    && rest.starts_with(name)
                    && rest[name.len()..].trim_start().starts_with('(')
                {
                    return Some((i + 1, line[..start].chars().count() + 1));
                }
                from = start + 3;
            }
        }
        None
    }

    fn eval_error(&self, error: &EvalAltResult, function: Option<&str>) -> Error {
        // The innermost error says what happened; the innermost known position says where
        // (Rhai raises cap errors without one, so the call that hit the cap is the best place).
        let mut inner = error;
        let mut position = error.position();
        let mut innermost = function.map(str::to_string);
        while let EvalAltResult::ErrorInFunctionCall(name, _, next, _)
        | EvalAltResult::ErrorInModule(name, next, _) = inner
        {
            if !name.is_empty() {
                innermost = Some(name.clone());
            }
            inner = next;
            if !inner.position().is_none() {
                position = inner.position();
            }
        }
        if let EvalAltResult::ErrorTerminated(token, _) = inner {
            if token.to_string() == STOPPED {
                let stopped = self.budget.spent().unwrap_or_else(Error::stopped);
                return Error::Stopped(format!(
                    "{stopped} (in {}{})",
                    self.file,
                    innermost.map_or(String::new(), |f| format!(", function {f}"))
                ));
            }
        }
        let (line, column) = match (position.line(), position.position()) {
            (Some(l), c) => (l, c.unwrap_or(1)),
            _ => innermost
                .as_deref()
                .and_then(|f| self.definition(f))
                .unwrap_or((1, 1)),
        };
        let limits = self.limits;
        let mut message = match inner {
            EvalAltResult::ErrorTooManyOperations(_) => format!(
                "the script ran more than {} operations in one call: a loop that never ends (a while or loop without a reachable break, a counter that never reaches its bound) or a call that is very slow; check the loops, else raise the cap with --script-max-operations",
                limits.max_operations
            ),
            EvalAltResult::ErrorTerminated(..) => format!(
                "one call ran longer than {} s: a loop that is very slow (copying a deeply nested array or a long string on every step is), or one that never ends; check the loops, else raise the cap with --script-max-seconds",
                limits.max_seconds
            ),
            EvalAltResult::ErrorStackOverflow(_) => format!(
                "function calls nest deeper than {} levels: a recursion without a base case that stops it, or one very deep; check the recursion, else raise the cap with --script-max-call-depth",
                limits.max_call_depth
            ),
            EvalAltResult::ErrorDataTooLarge(what, _) if what.contains("string") => format!(
                "a string is longer than {} characters; raise the cap with --script-max-string",
                limits.max_string
            ),
            EvalAltResult::ErrorDataTooLarge(..) => format!(
                "an array or map has more than {} elements; raise the cap with --script-max-array",
                limits.max_array
            ),
            other => {
                let text = other.to_string();
                let suffix = format!(" ({})", other.position());
                text.strip_suffix(&suffix).unwrap_or(&text).to_string()
            }
        };
        if let Some(f) = function {
            message = format!("{message} (in {f})");
        }
        Error::Script {
            file: self.file.clone(),
            line,
            column,
            message,
        }
    }

    /// Calls `name(value)` and converts the result to a position.
    pub(crate) fn call_position(&self, name: &str, arg: Dynamic) -> Result<Key> {
        let result = self.call(name, (arg,))?;
        Key::from_dynamic(&result)
            .map_err(|why| self.error_in(name, format!("{name} returned {why}")))
    }

    /// Parses one command-line position: `parse(text)` if the script defines it, else a Rhai
    /// literal.
    pub(crate) fn parse_position(&self, game: &str, text: &str) -> Result<Key> {
        if self.defines("parse", 1) {
            return self.call_position("parse", Dynamic::from(text.to_string()));
        }
        let value = self.engine.eval_expression::<Dynamic>(text).map_err(|e| {
            let e = e.to_string();
            Error::position(
                game,
                format!("'{text}' is not a Rhai literal (the script defines no parse(text)): {e}"),
            )
        })?;
        Key::from_dynamic(&value).map_err(|why| Error::position(game, format!("'{text}' is {why}")))
    }

    /// The position given by `start()`, if the script defines it.
    pub(crate) fn start(&self) -> Option<Result<Key>> {
        if !self.defines("start", 0) {
            return None;
        }
        Some(self.call("start", ()).and_then(|v| {
            Key::from_dynamic(&v)
                .map_err(|why| self.error_in("start", format!("start returned {why}")))
        }))
    }

    /// The text of a position: `show(pos)` when defined, else its literal.
    pub(crate) fn show(&self, key: &Key) -> Result<String> {
        if !self.defines("show", 1) {
            return Ok(key.to_string());
        }
        let shown = self.call("show", (key.to_dynamic(),))?;
        if shown.is_string() {
            Ok(shown.to_string())
        } else {
            Err(self.error_in(
                "show",
                format!("show must return a string, not {}", shown.type_name()),
            ))
        }
    }

    /// The text that parses back to `key`: `show` when the script defines both `show` and
    /// `parse`, else the literal. Falls back to the literal if `show` fails.
    pub(crate) fn display(&self, key: &Key) -> String {
        if self.defines("parse", 1) {
            if let Ok(text) = self.show(key) {
                return text;
            }
        }
        key.to_string()
    }

    /// An error if the script defines `name` with the wrong number of parameters.
    fn check_arity(&self, name: &str, params: usize) -> Result<()> {
        if self.defines_any(name) && !self.defines(name, params) {
            let what = match params {
                0 => "no parameters".to_string(),
                1 => "one parameter".to_string(),
                n => format!("{n} parameters"),
            };
            return Err(self.error_in(name, format!("{name} must take {what}")));
        }
        Ok(())
    }
}

thread_local! {
    /// When the script call running on this thread started, for the per-call time cap. A
    /// call's operations run on the thread that made the call, so the cap reads this thread's.
    static CALL_STARTED: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// What [`sandbox`]'s progress hook stops a call with when the budget is spent (any other
/// termination is the per-call time cap).
const STOPPED: &str = "stopped";

/// Runs one script call with its start time recorded for the time cap (restoring the outer
/// call's on return, for calls made while another runs).
fn timed<T>(call: impl FnOnce() -> T) -> T {
    let outer = CALL_STARTED.with(|c| c.replace(Some(Instant::now())));
    let result = call();
    CALL_STARTED.with(|c| c.set(outer));
    result
}

/// A Rhai engine with every cap set and every way out closed.
fn sandbox(file: &str, limits: Limits, budget: Budget) -> Engine {
    let mut engine = Engine::new();
    engine.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
    engine.set_max_modules(0);
    engine.disable_symbol("eval");
    engine.set_max_operations(limits.max_operations);
    engine.set_max_call_levels(limits.max_call_depth);
    engine.set_max_string_size(limits.max_string);
    engine.set_max_array_size(limits.max_array);
    engine.set_max_map_size(limits.max_array);
    engine.set_max_expr_depths(64, 64);
    let max_time = Duration::from_secs(limits.max_seconds);
    engine.on_progress(move |operations| {
        if operations % 256 != 0 {
            return None;
        }
        if budget.is_over() {
            return Some(STOPPED.into());
        }
        let started = CALL_STARTED.with(Cell::get)?;
        (started.elapsed() > max_time).then(|| "time".into())
    });
    let name = file.to_string();
    engine.on_print(move |text| eprintln!("{name}: {text}"));
    let name = file.to_string();
    engine.on_debug(move |text, _, position| eprintln!("{name}:{position}: {text}"));
    engine
}

/// Converts a script's integer to a u64, or says what is wrong.
pub(crate) fn to_u64(value: &Dynamic) -> std::result::Result<u64, String> {
    match value.as_int() {
        Ok(n) => u64::try_from(n).map_err(|_| format!("the negative number {n}")),
        Err(t) => Err(format!("a {t}, not an integer")),
    }
}

/// The game a script defines, by kind.
pub enum ScriptGame {
    /// `options(pos)` (and `splits(pos)`).
    Impartial(impartial::ScriptImpartial),
    /// `heap_options(n)`.
    Heap(heap::ScriptHeapRules),
    /// `moves(pos)` and `result(pos)`.
    TwoPlayer(two_player::ScriptTwoPlayer),
}

/// Loads the script at `path` (if `files` allows it) under the caps `limits` and builds the
/// game its functions define; its calls stop when `budget` is spent.
///
/// # Errors
/// As [`Script::load`] and [`ScriptFiles::resolve`]; [`Error::Script`] when the script defines no
/// game, or two kinds at once.
pub fn load_game(
    path: &str,
    limits: Limits,
    budget: Budget,
    files: &ScriptFiles,
) -> Result<ScriptGame> {
    limits.check()?;
    let file = files.resolve(path)?;
    let script = Arc::new(Script::load_from(path, &file, limits, budget)?);
    for (name, params) in [
        ("options", 1),
        ("splits", 1),
        ("heap_options", 1),
        ("moves", 1),
        ("result", 1),
        ("show", 1),
        ("parse", 1),
        ("start", 0),
        ("move_text", 2),
        ("render", 1),
        ("max_heaps", 0),
        ("max_removed", 0),
    ] {
        script.check_arity(name, params)?;
    }
    let spec = format!("script:{path}");
    let impartial = script.defines("options", 1) || script.defines("splits", 1);
    let heap = script.defines("heap_options", 1);
    let two_player = script.defines("moves", 1);
    match (impartial, heap, two_player) {
        (true, false, false) => Ok(ScriptGame::Impartial(impartial::ScriptImpartial::new(
            spec, script,
        ))),
        (false, true, false) => Ok(ScriptGame::Heap(heap::ScriptHeapRules::new(script)?)),
        (false, false, true) => Ok(ScriptGame::TwoPlayer(two_player::ScriptTwoPlayer::new(
            spec, script,
        ))),
        (false, false, false) if script.defines("result", 1) => Err(script.error_in(
            "result",
            "a two-player game needs moves(pos) as well as result(pos)",
        )),
        (false, false, false) => Err(Error::Script {
            file: path.to_string(),
            line: 1,
            column: 1,
            message: "the script defines no game: write options(pos) for an impartial game, heap_options(n) for a heap ruleset, or moves(pos) and result(pos) for a two-player game".into(),
        }),
        _ => Err(Error::Script {
            file: path.to_string(),
            line: 1,
            column: 1,
            message: "the script defines more than one kind of game: keep only one of options(pos), heap_options(n) and moves(pos)".into(),
        }),
    }
}
