//! Heap games: subtraction and take-and-break games, their value tables and certified periods.

use crate::error::Result;
use crate::progress::Progress;
use serde::Serialize;

/// A certified period: G(n + period) = G(n) for every n ≥ preperiod.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Periodicity {
    /// The least n0 from which the period holds.
    pub preperiod: u64,
    /// The least period.
    pub period: u64,
    /// The heap size up to which values were computed to prove it.
    pub certified_at: u64,
}

/// The result of a period search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeriodSearch {
    /// Periodicity proven by a bound.
    Certified(Periodicity),
    /// No period could be certified with values up to this heap size.
    NotCertified {
        /// The last heap size computed.
        checked_to: u64,
    },
}

/// A nim-value table of single heaps, with the period if one was certified within it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// G(0), G(1), …, G(to).
    pub values: Vec<u64>,
    /// The certified period, when the table reaches far enough to prove one.
    pub period: Option<Periodicity>,
}

/// Single-heap values of a heap game: what `sprague table` and `sprague period` need.
pub trait HeapValues: Send + Sync {
    /// G(0..=to).
    fn table(&self, to: u64, progress: &dyn Progress) -> Result<Table>;

    /// Computes until periodicity is certified or heap size `max` is reached.
    fn period(&self, max: u64, progress: &dyn Progress) -> Result<PeriodSearch>;
}

pub mod checkpoint;
pub mod rare;
