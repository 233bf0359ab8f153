//! Misère play of heap games: Conway's genus, and Plambeck and Siegel's misère quotients.
//!
//! - [`genus`](mod@genus): genus symbols g^{g0 g1 …} of single heaps ([`GenusTable`]), tame or
//!   wild, and the genus of a sum of tame heaps;
//! - [`Quotient`]: the misère quotient of the closure of heaps 0..N, its presentation and
//!   P-portion, the periodicity certificate, and the outcome and winning moves of any sum of
//!   heaps read off the quotient without search.

pub mod genus;
mod monoid;
#[allow(clippy::module_inception)]
mod quotient;
#[cfg(test)]
pub(crate) mod testing;

pub use genus::{Genus, GenusReport, GenusTable, HeapGenus};
pub use quotient::{
    Generator, Presentation, Quotient, QuotientOptions, QuotientPeriod, QuotientReport, Runaway,
    RunawayLimit, Search, SumMove, MAX_HEAP,
};
