//! Progress reporting for long computations, without tying the library to a terminal.

/// Receives progress from long computations (tables, periods, solves).
///
/// The library calls these from its worker loop; implementations must be cheap. `()` ignores
/// everything.
pub trait Progress: Sync {
    /// A phase of `total` steps (0 when unknown) starts; `what` names it.
    fn start(&self, _what: &str, _total: u64) {}
    /// `done` steps of the current phase are finished; `note` may carry extra figures.
    fn advance(&self, _done: u64, _note: &str) {}
    /// The current phase is over.
    fn finish(&self) {}
    /// A one-line message for the user (resuming from a checkpoint, waiting for a lock, a
    /// damaged file set aside), outside any phase's figures.
    fn note(&self, _message: &str) {}
    /// Whether the caller wants the computation stopped (a deadline passed, memory ran out,
    /// an interrupt): long loops look at it where they report progress and stop with
    /// [`crate::Error::Stopped`].
    fn stop_requested(&self) -> bool {
        false
    }
    /// The error a stopped computation returns: by default [`crate::Error::stopped`]; a
    /// [`crate::budget::Budget`] names the limit it reached.
    fn stop_error(&self) -> crate::Error {
        crate::Error::stopped()
    }
    /// The bytes the computation may still allocate, when its caller capped them: engines
    /// pass it to [`crate::memory::reserve`] before a large allocation.
    fn memory_left(&self) -> Option<u64> {
        None
    }
}

/// Stops with [`Progress::stop_error`] when `progress` asks for it.
///
/// # Errors
/// [`crate::Error::Stopped`] when [`Progress::stop_requested`].
pub fn check(progress: &dyn Progress) -> crate::Result<()> {
    if progress.stop_requested() {
        Err(progress.stop_error())
    } else {
        Ok(())
    }
}

impl Progress for () {}
