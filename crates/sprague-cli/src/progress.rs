//! Progress bars on stderr, through the library's `Progress` trait. When stderr is not a
//! terminal (a log file, a pipe) the bar is hidden and a plain line is written every
//! [`LOG_EVERY`] instead, so that long runs leave a record.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sprague::budget::Budget;
use sprague::progress::Progress;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a phase writes a progress line when stderr is not a terminal.
pub const LOG_EVERY: Duration = Duration::from_secs(60);

/// An indicatif bar that follows the library's phases, and stops them when the command
/// line's budget is spent.
pub struct Bar {
    bar: Mutex<Option<ProgressBar>>,
    /// The phase being logged, when stderr is not a terminal.
    log: Mutex<Option<Log>>,
    budget: Budget,
}

/// A phase's plain progress lines.
struct Log {
    what: String,
    total: u64,
    started: Instant,
    last: Instant,
}

impl Log {
    /// The lines of a search that started at `started` (positions and options listed).
    fn searching(started: Instant) -> Log {
        Log {
            what: "searching, positions and options listed".into(),
            total: 0,
            started,
            last: started,
        }
    }

    /// The line for `done` of the phase's total after `elapsed`, with the engine's note.
    fn line(&self, done: u64, elapsed: Duration, note: &str) -> String {
        let mut line = format!("sprague: {}: {done}", self.what);
        if self.total > 0 {
            let percent = 100.0 * done as f64 / self.total as f64;
            line += &format!(" of {} ({percent:.1}%)", self.total);
        }
        let s = elapsed.as_secs();
        line += &format!(", {}:{:02}:{:02} elapsed", s / 3600, s / 60 % 60, s % 60);
        if !note.is_empty() {
            line += &format!(", {note}");
        }
        line
    }
}

impl Bar {
    pub fn new(budget: &Budget) -> Self {
        Bar {
            bar: Mutex::new(None),
            log: Mutex::new(None),
            budget: budget.clone(),
        }
    }
}

impl Progress for Bar {
    fn stop_requested(&self) -> bool {
        self.budget.is_over()
    }

    fn stop_error(&self) -> sprague::Error {
        self.budget.stop_error()
    }

    fn memory_left(&self) -> Option<u64> {
        self.budget.memory_left()
    }

    fn start(&self, what: &str, total: u64) {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let template = if total > 0 {
            "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} ({per_sec}, eta {eta}) {prefix}"
        } else {
            "{msg} [{elapsed_precise}] {pos} ({per_sec}) {prefix}"
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.set_message(what.to_string());
        if let Ok(mut slot) = self.bar.lock() {
            *slot = Some(bar);
        }
        if let Ok(mut log) = self.log.lock() {
            let now = Instant::now();
            *log = (!std::io::stderr().is_terminal()).then(|| Log {
                what: what.to_string(),
                total,
                started: now,
                last: now,
            });
        }
    }

    fn advance(&self, done: u64, note: &str) {
        if let Ok(slot) = self.bar.lock() {
            if let Some(bar) = slot.as_ref() {
                bar.set_position(done);
                if !note.is_empty() {
                    bar.set_prefix(note.to_string());
                }
            }
        }
        if let Ok(mut log) = self.log.lock() {
            if let Some(log) = log.as_mut() {
                let now = Instant::now();
                if now - log.last >= LOG_EVERY {
                    log.last = now;
                    eprintln!("{}", log.line(done, now - log.started, note));
                }
            }
        }
    }

    /// Printed on stderr whether or not it is a terminal (above the bar when one is drawn).
    fn note(&self, message: &str) {
        let line = format!("sprague: {message}");
        if let Ok(slot) = self.bar.lock() {
            if let Some(bar) = slot.as_ref() {
                bar.suspend(|| eprintln!("{line}"));
                return;
            }
        }
        eprintln!("{line}");
    }

    fn finish(&self) {
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(bar) = slot.take() {
                bar.finish_and_clear();
            }
        }
        if let Ok(mut log) = self.log.lock() {
            *log = None;
        }
    }
}

/// The progress of the ranks of a distributed solve other than rank 0: shows nothing, stops
/// with the command line's budget.
pub struct Quiet(Budget);

impl Quiet {
    pub fn new(budget: &Budget) -> Self {
        Quiet(budget.clone())
    }
}

impl Progress for Quiet {
    fn stop_requested(&self) -> bool {
        self.0.is_over()
    }

    fn stop_error(&self) -> sprague::Error {
        self.0.stop_error()
    }

    fn memory_left(&self) -> Option<u64> {
        self.0.memory_left()
    }
}

/// The budget's watcher, for the commands whose runs have no bar of their own (a position's
/// value, a misère sum). A search shows as a spinner of the positions and options listed and
/// the memory held; a run with phases given the budget as its progress (a heap's table grown
/// for `value`) shows as a [`Bar`] of that phase. Either appears once the command has run for
/// [`SHOW_AFTER`] and is cleared when the command ends. When stderr is not a terminal it
/// writes a plain line every [`LOG_EVERY`] instead.
pub struct Spinner {
    started: Instant,
    bar: Mutex<Option<ProgressBar>>,
    /// The plain lines, when stderr is not a terminal.
    log: Mutex<Option<Log>>,
    /// The bar of the current phase, once shown.
    phase: Bar,
    /// The current phase (its name and total) until its bar is shown.
    pending: Mutex<Option<(String, u64)>>,
    /// Whether a phase is under way (progress is then the phase's, not a search's).
    in_phase: AtomicBool,
}

/// How long a command runs before its spinner or phase bar appears.
pub const SHOW_AFTER: Duration = Duration::from_secs(1);

impl Spinner {
    pub fn new() -> Self {
        let started = Instant::now();
        Spinner {
            started,
            bar: Mutex::new(None),
            log: Mutex::new((!std::io::stderr().is_terminal()).then(|| Log::searching(started))),
            phase: Bar::new(&Budget::unlimited()),
            pending: Mutex::new(None),
            in_phase: AtomicBool::new(false),
        }
    }

    /// Clears the spinner and any phase's bar, if drawn.
    pub fn clear(&self) {
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(bar) = slot.take() {
                bar.finish_and_clear();
            }
        }
        self.phase.finish();
    }

    /// Shows the pending phase's bar, once the command has run for [`SHOW_AFTER`].
    fn show_phase(&self) {
        if self.started.elapsed() < SHOW_AFTER {
            return;
        }
        let pending = self.pending.lock().ok().and_then(|mut p| p.take());
        if let Some((what, total)) = pending {
            self.phase.start(&what, total);
        }
    }
}

impl Progress for Spinner {
    fn start(&self, what: &str, total: u64) {
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(bar) = slot.take() {
                bar.finish_and_clear();
            }
        }
        self.in_phase.store(true, Ordering::Relaxed);
        if let Ok(mut pending) = self.pending.lock() {
            *pending = Some((what.to_string(), total));
        }
        self.show_phase();
    }

    fn finish(&self) {
        self.in_phase.store(false, Ordering::Relaxed);
        if let Ok(mut pending) = self.pending.lock() {
            *pending = None;
        }
        self.phase.finish();
    }

    fn note(&self, message: &str) {
        self.phase.note(message);
    }

    fn advance(&self, done: u64, note: &str) {
        if self.in_phase.load(Ordering::Relaxed) {
            self.show_phase();
            self.phase.advance(done, note);
            return;
        }
        if self.started.elapsed() < SHOW_AFTER {
            return;
        }
        if let Ok(mut log) = self.log.lock() {
            if let Some(log) = log.as_mut() {
                let now = Instant::now();
                if now - log.last >= LOG_EVERY {
                    log.last = now;
                    let held = if note.is_empty() {
                        String::new()
                    } else {
                        format!("{note} held")
                    };
                    eprintln!("{}", log.line(done, now - log.started, &held));
                }
                return;
            }
        }
        let Ok(mut slot) = self.bar.lock() else {
            return;
        };
        let bar = slot.get_or_insert_with(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "searching [{elapsed_precise}] {pos} positions and options listed ({per_sec}) {prefix}",
            ) {
                bar.set_style(style);
            }
            bar
        });
        bar.set_position(done);
        if !note.is_empty() {
            bar.set_prefix(format!("{note} held"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A phase heard through the budget holds the spinner until it finishes: progress then is
    /// the phase's, shown as its bar only once the command has run for a second.
    #[test]
    fn the_spinner_follows_a_phase_given_through_the_budget() {
        let spinner = Arc::new(Spinner::new());
        let budget = Budget::stoppable().with_watcher(spinner.clone());
        let run: &dyn Progress = &budget;
        run.start("computing 0.007", 1000);
        assert!(spinner.in_phase.load(Ordering::Relaxed));
        run.advance(10, "");
        // Within the first second nothing is drawn: the phase waits.
        if spinner.started.elapsed() < SHOW_AFTER {
            assert!(spinner.pending.lock().unwrap().is_some());
        }
        run.finish();
        assert!(!spinner.in_phase.load(Ordering::Relaxed));
        assert!(spinner.pending.lock().unwrap().is_none());
        // Back to a search's spinner: its work no longer goes to the phase.
        budget.report(5);
        assert!(spinner.pending.lock().unwrap().is_none());
    }

    #[test]
    fn log_lines_give_the_count_share_time_and_note() {
        let now = Instant::now();
        let log = Log {
            what: "computing 0.6".into(),
            total: 4_294_967_295,
            started: now,
            last: now,
        };
        assert_eq!(
            log.line(
                1 << 30,
                Duration::from_secs(3725),
                "712345 heaps/s, rare list 1700"
            ),
            "sprague: computing 0.6: 1073741824 of 4294967295 (25.0%), 1:02:05 elapsed, \
             712345 heaps/s, rare list 1700"
        );
        let search = Log::searching(now);
        assert_eq!(
            search.line(1_234_567, Duration::from_secs(61), "48 MiB held"),
            "sprague: searching, positions and options listed: 1234567, 0:01:01 elapsed, \
             48 MiB held"
        );
        let open = Log { total: 0, ..log };
        assert_eq!(
            open.line(12, Duration::from_secs(59), ""),
            "sprague: computing 0.6: 12, 0:00:59 elapsed"
        );
    }
}
