//! What a computation may spend: a deadline, and a flag that whoever started it can raise to
//! stop it.
//!
//! A [`Budget`] is a value the front end passes in (in [`crate::catalog::Settings`] for games
//! and positions; as the [`Progress`] of table, period and genus runs), never a global. The
//! solvers check it in their loops, where they already report progress, so that a server
//! request past its time limit stops within a fraction of a second instead of holding a worker
//! and its memory, and a notebook's interrupt stops a long table.
//!
//! ```
//! use sprague::budget::Budget;
//! use std::time::{Duration, Instant};
//!
//! let budget = Budget::unlimited();
//! assert!(budget.check().is_ok());
//! let budget = Budget::until(Instant::now() + Duration::from_secs(60));
//! assert!(budget.check().is_ok());
//! budget.stop();
//! assert!(budget.check().is_err());
//! ```

use crate::error::{Error, Result};
use crate::memory::Meter;
use crate::progress::Progress;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A deadline, a memory cap and a stop flag, shared by every clone (clones are cheap and stop
/// together).
#[derive(Clone, Debug, Default)]
pub struct Budget {
    inner: Option<Arc<Inner>>,
}

/// The limit a spent [`Budget`] reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Spent {
    /// Its memory cap.
    Memory = 1,
    /// Its deadline.
    Time = 2,
    /// [`Budget::stop`] was called (an interrupt, a request that ended).
    Stopped = 3,
}

impl Spent {
    fn from_code(code: u8) -> Option<Spent> {
        match code {
            1 => Some(Spent::Memory),
            2 => Some(Spent::Time),
            3 => Some(Spent::Stopped),
            _ => None,
        }
    }
}

#[derive(Debug)]
struct Inner {
    stopped: AtomicBool,
    /// The [`Spent`] code of the first limit reached, 0 before.
    spent: AtomicU8,
    limits: Limits,
    /// Work reported by the loops that check the budget (positions searched, heaps valued).
    work: AtomicU64,
}

#[derive(Clone, Debug, Default)]
struct Limits {
    deadline: Option<(Instant, Duration)>,
    memory: Option<(u64, Meter)>,
    watcher: Option<Watcher>,
}

/// Where the loops' work is reported while they run.
#[derive(Clone)]
struct Watcher(Arc<dyn Progress + Send + Sync>);

impl fmt::Debug for Watcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Watcher")
    }
}

impl Budget {
    /// No deadline, and nobody can stop it: checks cost nothing.
    pub fn unlimited() -> Budget {
        Budget { inner: None }
    }

    /// No deadline, but [`Budget::stop`] stops it (an interrupt, a client that went away).
    pub fn stoppable() -> Budget {
        Budget::with(Limits::default())
    }

    /// Over at `deadline`, or earlier when stopped.
    pub fn until(deadline: Instant) -> Budget {
        let span = deadline.saturating_duration_since(Instant::now());
        Budget::with(Limits {
            deadline: Some((deadline, span)),
            ..Limits::default()
        })
    }

    /// Over `time` from now, or earlier when stopped.
    pub fn within(time: Duration) -> Budget {
        let now = Instant::now();
        Budget::with(Limits {
            deadline: Some((
                now.checked_add(time)
                    .unwrap_or(now + Duration::from_secs(1 << 40)),
                time,
            )),
            ..Limits::default()
        })
    }

    /// This budget, also over once `meter` reads more than `bytes` (meters read 0 unless the
    /// binary installed [`crate::memory::Counting`]).
    pub fn with_memory(self, bytes: u64, meter: Meter) -> Budget {
        let mut limits = self.limits();
        limits.memory = Some((bytes, meter));
        Budget::with(limits)
    }

    /// This budget, reporting to `watcher` the work of the loops that check it, as
    /// [`Progress::advance`] with the running total (and the memory in use when capped), so that
    /// a search with no phases of its own can still show that it is alive.
    pub fn with_watcher(self, watcher: Arc<dyn Progress + Send + Sync>) -> Budget {
        let mut limits = self.limits();
        limits.watcher = Some(Watcher(watcher));
        Budget::with(limits)
    }

    fn limits(&self) -> Limits {
        self.inner
            .as_ref()
            .map_or_else(Limits::default, |inner| inner.limits.clone())
    }

    fn with(limits: Limits) -> Budget {
        Budget {
            inner: Some(Arc::new(Inner {
                stopped: AtomicBool::new(false),
                spent: AtomicU8::new(0),
                limits,
                work: AtomicU64::new(0),
            })),
        }
    }

    /// Stops every computation that holds this budget (or a clone of it) at its next check.
    pub fn stop(&self) {
        if let Some(inner) = &self.inner {
            inner.stopped.store(true, Ordering::Relaxed);
        }
    }

    /// Clears a stop (and the limit it latched), so that the games holding this budget serve
    /// again once the stopped computation has ended: a front end that keeps positions between
    /// calls (the Python package) stops their budget on an interrupt, then restarts it. A
    /// deadline or memory cap still applies at the next check.
    pub fn restart(&self) {
        if let Some(inner) = &self.inner {
            inner.stopped.store(false, Ordering::Relaxed);
            inner.spent.store(0, Ordering::Relaxed);
        }
    }

    /// The bytes left under the memory cap now, if there is one.
    pub fn memory_left(&self) -> Option<u64> {
        let (bytes, meter) = self.inner.as_ref()?.limits.memory.as_ref()?;
        Some(bytes.saturating_sub(meter.bytes()))
    }

    /// The memory cap, in bytes, if there is one.
    pub fn max_memory(&self) -> Option<u64> {
        self.inner
            .as_ref()?
            .limits
            .memory
            .as_ref()
            .map(|(bytes, _)| *bytes)
    }

    /// Whether the budget is spent: stopped, past its deadline, or past its memory cap.
    pub fn is_over(&self) -> bool {
        self.reason().is_some()
    }

    /// Which limit the budget reached first, or `None` while it lasts. Once spent it stays
    /// spent for the same reason (memory freed afterwards does not revive it).
    pub fn reason(&self) -> Option<Spent> {
        let inner = self.inner.as_ref()?;
        let latched = inner.spent.load(Ordering::Relaxed);
        if latched != 0 {
            return Spent::from_code(latched);
        }
        let limits = &inner.limits;
        let reason = if limits
            .memory
            .as_ref()
            .is_some_and(|(bytes, meter)| meter.bytes() > *bytes)
        {
            Spent::Memory
        } else if limits.deadline.is_some_and(|(at, _)| Instant::now() >= at) {
            Spent::Time
        } else if inner.stopped.load(Ordering::Relaxed) {
            Spent::Stopped
        } else {
            return None;
        };
        // The first reason seen wins, from any thread.
        let _ = inner
            .spent
            .compare_exchange(0, reason as u8, Ordering::Relaxed, Ordering::Relaxed);
        Spent::from_code(inner.spent.load(Ordering::Relaxed))
    }

    /// Why the budget is spent, as the error a stopped computation returns, or `None` while
    /// it lasts.
    pub fn spent(&self) -> Option<Error> {
        let limits = &self.inner.as_ref()?.limits;
        Some(match self.reason()? {
            Spent::Memory => Error::Stopped(format!(
                "stopped: the computation reached its memory limit of {} MiB",
                limits.memory.as_ref().map_or(0, |(bytes, _)| bytes >> 20)
            )),
            Spent::Time => Error::Stopped(format!(
                "stopped: the computation ran past its time limit of {} s",
                limits
                    .deadline
                    .map_or_else(String::new, |(_, span)| seconds(span))
            )),
            Spent::Stopped => Error::stopped(),
        })
    }

    /// `Ok` while the budget lasts.
    ///
    /// # Errors
    /// [`Error::Stopped`] once it is spent, naming the limit reached ([`Budget::spent`]).
    pub fn check(&self) -> Result<()> {
        match self.spent() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// Adds `work` units (positions, heaps) to the running total and tells the watcher, if
    /// any.
    pub fn report(&self, work: u64) {
        let Some(inner) = &self.inner else { return };
        let Some(Watcher(watcher)) = &inner.limits.watcher else {
            return;
        };
        let total = inner.work.fetch_add(work, Ordering::Relaxed) + work;
        let note = match &inner.limits.memory {
            Some((_, meter)) => format!("{} MiB", meter.bytes() >> 20),
            None => String::new(),
        };
        watcher.advance(total, &note);
    }
}

impl Budget {
    /// [`Budget::report`] with the worker's own note (a search's figures) in front of the
    /// memory held.
    pub fn report_note(&self, work: u64, note: &str) {
        let Some(inner) = &self.inner else { return };
        let Some(Watcher(watcher)) = &inner.limits.watcher else {
            return;
        };
        let total = inner.work.fetch_add(work, Ordering::Relaxed) + work;
        let note = match &inner.limits.memory {
            Some((_, meter)) => format!("{note}, {} MiB", meter.bytes() >> 20),
            None => note.to_string(),
        };
        watcher.advance(total, &note);
    }
}

/// Whole seconds, or a decimal below 10 s.
fn seconds(span: Duration) -> String {
    if span >= Duration::from_secs(10) || span.subsec_millis() == 0 {
        span.as_secs().to_string()
    } else {
        format!("{:.1}", span.as_secs_f64())
    }
}

impl Budget {
    /// The watcher, if any (where a run given this budget as its [`Progress`] reports).
    fn watcher(&self) -> Option<&(dyn Progress + Send + Sync)> {
        let watcher = self.inner.as_ref()?.limits.watcher.as_ref()?;
        Some(&*watcher.0)
    }
}

/// A budget is a progress sink that says when to stop, and why, for the table, period and
/// genus runs that take a [`Progress`] (a heap's table grown for a `value` query); their phases
/// and notes go on to its watcher, if it has one.
impl Progress for Budget {
    fn start(&self, what: &str, total: u64) {
        if let Some(watcher) = self.watcher() {
            watcher.start(what, total);
        }
    }

    fn advance(&self, done: u64, note: &str) {
        if let Some(watcher) = self.watcher() {
            watcher.advance(done, note);
        }
    }

    fn finish(&self) {
        if let Some(watcher) = self.watcher() {
            watcher.finish();
        }
    }

    fn note(&self, message: &str) {
        if let Some(watcher) = self.watcher() {
            watcher.note(message);
        }
    }

    fn stop_requested(&self) -> bool {
        self.is_over()
    }

    fn stop_error(&self) -> Error {
        self.spent().unwrap_or_else(Error::stopped)
    }

    fn memory_left(&self) -> Option<u64> {
        Budget::memory_left(self)
    }
}

/// Checks a budget once every `every` calls, so that tight loops pay for the clock rarely.
#[derive(Debug)]
pub struct Checker {
    budget: Budget,
    every: u32,
    count: u32,
}

impl Checker {
    /// Checks `budget` on every `every`-th call of [`Checker::tick`].
    pub fn new(budget: Budget, every: u32) -> Checker {
        Checker {
            budget,
            every: every.max(1),
            count: 0,
        }
    }

    /// `Ok` while the budget lasts, looked at every `every` calls.
    ///
    /// # Errors
    /// As [`Budget::check`].
    #[inline]
    pub fn tick(&mut self) -> Result<()> {
        self.tick_by(1)
    }

    /// [`Checker::tick`] for `units` of work at once (a position and its options): the budget
    /// is looked at once `every` units have passed since the last look.
    ///
    /// # Errors
    /// As [`Budget::check`].
    #[inline]
    pub fn tick_by(&mut self, units: usize) -> Result<()> {
        self.count = self
            .count
            .saturating_add(units.try_into().unwrap_or(u32::MAX));
        if self.count >= self.every {
            self.budget.report(u64::from(self.count));
            self.count = 0;
            if self.budget.is_over() {
                return self.budget.check();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_stop_reaches_every_clone() {
        let budget = Budget::stoppable();
        let clone = budget.clone();
        assert!(clone.check().is_ok());
        budget.stop();
        assert!(clone.is_over());
        assert_eq!(
            clone.check(),
            Err(Error::Stopped(
                "stopped: the computation was interrupted".into()
            ))
        );
    }

    #[test]
    fn a_restart_clears_a_stop_but_not_a_deadline() {
        let budget = Budget::stoppable();
        let clone = budget.clone();
        budget.stop();
        assert!(clone.check().is_err());
        budget.restart();
        assert!(clone.check().is_ok());
        let past = Budget::until(Instant::now() - Duration::from_millis(1));
        past.stop();
        past.restart();
        assert_eq!(past.reason(), Some(Spent::Time));
    }

    #[test]
    fn a_past_deadline_is_over_and_an_unlimited_budget_never_is() {
        let past = Budget::until(Instant::now() - Duration::from_millis(1));
        assert!(past.is_over());
        let unlimited = Budget::unlimited();
        unlimited.stop();
        assert!(!unlimited.is_over());
    }

    #[test]
    fn the_error_names_the_limit_reached() {
        let past = Budget::within(Duration::ZERO);
        assert_eq!(
            past.check(),
            Err(Error::Stopped(
                "stopped: the computation ran past its time limit of 0 s".into()
            ))
        );
        let account = crate::memory::Account::new();
        let capped = Budget::stoppable().with_memory(1 << 20, Meter::Account(account.clone()));
        assert!(capped.check().is_ok());
        assert_eq!(capped.max_memory(), Some(1 << 20));
        {
            let _charged = account.enter();
            // The test binary does not count allocations: hold 2 MiB on the account by hand.
            let held = crate::memory::tests::hold(2 << 20);
            assert_eq!(
                capped.check(),
                Err(Error::Stopped(
                    "stopped: the computation reached its memory limit of 1 MiB".into()
                ))
            );
            drop(held);
        }
        // Spent for good, and for the first reason.
        assert_eq!(capped.reason(), Some(Spent::Memory));
        capped.stop();
        assert_eq!(capped.reason(), Some(Spent::Memory));
    }

    #[test]
    fn a_watcher_sees_the_work_of_every_checker() {
        use std::sync::Mutex;
        #[derive(Default)]
        struct Seen(Mutex<Vec<u64>>);
        impl Progress for Seen {
            fn advance(&self, done: u64, _note: &str) {
                self.0.lock().unwrap().push(done);
            }
        }
        let seen = Arc::new(Seen::default());
        let budget = Budget::stoppable().with_watcher(seen.clone());
        let mut a = Checker::new(budget.clone(), 2);
        let mut b = Checker::new(budget, 3);
        for _ in 0..3 {
            a.tick().unwrap();
            b.tick().unwrap();
        }
        assert_eq!(*seen.0.lock().unwrap(), vec![2, 5]);
    }

    /// A run given the budget as its progress shows its phases and notes through the watcher.
    #[test]
    fn a_watcher_hears_the_phases_of_a_run_given_the_budget() {
        use std::sync::Mutex;
        #[derive(Default)]
        struct Heard(Mutex<Vec<String>>);
        impl Progress for Heard {
            fn start(&self, what: &str, total: u64) {
                self.0.lock().unwrap().push(format!("start {what} {total}"));
            }
            fn advance(&self, done: u64, note: &str) {
                self.0
                    .lock()
                    .unwrap()
                    .push(format!("advance {done} {note}"));
            }
            fn finish(&self) {
                self.0.lock().unwrap().push("finish".into());
            }
            fn note(&self, message: &str) {
                self.0.lock().unwrap().push(format!("note {message}"));
            }
        }
        let heard = Arc::new(Heard::default());
        let budget = Budget::stoppable().with_watcher(heard.clone());
        let run: &dyn Progress = &budget;
        run.start("computing 0.6", 100);
        run.advance(40, "rare list 3");
        run.note("resumed");
        run.finish();
        assert_eq!(
            *heard.0.lock().unwrap(),
            [
                "start computing 0.6 100",
                "advance 40 rare list 3",
                "note resumed",
                "finish"
            ]
        );
        // Without a watcher the same calls go nowhere, and cost nothing.
        let quiet: &dyn Progress = &Budget::unlimited();
        quiet.start("computing 0.6", 100);
        quiet.finish();
    }

    #[test]
    fn the_checker_looks_every_n_ticks() {
        let budget = Budget::stoppable();
        budget.stop();
        let mut checker = Checker::new(budget, 3);
        assert!(checker.tick().is_ok());
        assert!(checker.tick().is_ok());
        assert!(checker.tick().is_err());
    }
}
