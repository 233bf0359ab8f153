//! Misère play of heap games: Conway's genus, and Plambeck and Siegel's misère quotients.
//!
//! - [`genus`](mod@genus): genus symbols g^{g0 g1 …} of single heaps ([`GenusTable`]), tame or
//!   wild, and the genus of a sum of tame heaps;
//! - [`Quotient`]: the misère quotient of the closure of heaps 0..N, its presentation and
//!   P-portion, the periodicity certificate, and the outcome and winning moves of any sum of
//!   heaps read off the quotient without search;
//! - [`QuotientCache`]: a game's quotient kept for valuing misère sums of its heaps
//!   ([`crate::analysis`] uses it for `value --misere`).

mod cache;
pub mod genus;
mod heaps;
mod monoid;
#[allow(clippy::module_inception)]
mod quotient;
#[cfg(test)]
pub(crate) mod testing;

pub use cache::{QuotientCache, SUM_HEAPS, SUM_MAX_HEAP, SUM_OPTIONS};
pub use genus::{Genus, GenusReport, GenusTable, HeapGenus};
pub use heaps::MAX_OPTION_BYTES;
pub use quotient::{
    Generator, Presentation, Quotient, QuotientOptions, QuotientPeriod, QuotientReport, Runaway,
    RunawayLimit, Search, SumMove, MAX_HEAP, UNTIL_CERTIFIED_HEAPS,
};
