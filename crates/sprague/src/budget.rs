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
use crate::progress::Progress;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A deadline and a stop flag, shared by every clone (clones are cheap and stop together).
#[derive(Clone, Debug, Default)]
pub struct Budget {
    inner: Option<Arc<Inner>>,
}

#[derive(Debug)]
struct Inner {
    stopped: AtomicBool,
    deadline: Option<Instant>,
}

impl Budget {
    /// No deadline, and nobody can stop it: checks cost nothing.
    pub fn unlimited() -> Budget {
        Budget { inner: None }
    }

    /// No deadline, but [`Budget::stop`] stops it (an interrupt, a client that went away).
    pub fn stoppable() -> Budget {
        Budget::with(None)
    }

    /// Over at `deadline`, or earlier when stopped.
    pub fn until(deadline: Instant) -> Budget {
        Budget::with(Some(deadline))
    }

    fn with(deadline: Option<Instant>) -> Budget {
        Budget {
            inner: Some(Arc::new(Inner {
                stopped: AtomicBool::new(false),
                deadline,
            })),
        }
    }

    /// Stops every computation that holds this budget (or a clone of it) at its next check.
    pub fn stop(&self) {
        if let Some(inner) = &self.inner {
            inner.stopped.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the budget is spent: stopped, or past its deadline.
    pub fn is_over(&self) -> bool {
        match &self.inner {
            None => false,
            Some(inner) => {
                inner.stopped.load(Ordering::Relaxed)
                    || inner.deadline.is_some_and(|d| Instant::now() >= d)
            }
        }
    }

    /// `Ok` while the budget lasts.
    ///
    /// # Errors
    /// [`Error::Limit`] once it is spent (the caller's message names the deadline, if any).
    pub fn check(&self) -> Result<()> {
        if self.is_over() {
            Err(Error::stopped())
        } else {
            Ok(())
        }
    }
}

/// A budget is a progress sink that reports nothing and says when to stop, for the table,
/// period and genus runs that take a [`Progress`].
impl Progress for Budget {
    fn stop_requested(&self) -> bool {
        self.is_over()
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
        self.count += 1;
        if self.count >= self.every {
            self.count = 0;
            self.budget.check()?;
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
        assert!(matches!(clone.check(), Err(Error::Limit(_))));
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
    fn the_checker_looks_every_n_ticks() {
        let budget = Budget::stoppable();
        budget.stop();
        let mut checker = Checker::new(budget, 3);
        assert!(checker.tick().is_ok());
        assert!(checker.tick().is_ok());
        assert!(checker.tick().is_err());
    }
}
