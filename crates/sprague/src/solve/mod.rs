//! Generic solvers: they work for any game implementing the traits of [`crate::game`].
//!
//! - [`NimValues`]: nim values of acyclic impartial games, memoised and iterative, component by
//!   component;
//! - [`Search`]: outcomes and remoteness by direct search, under normal or misère play (the
//!   oracle for misère theory and the remoteness of small sums);
//! - [`nimsearch`]: nim values by search of components plus a nim heap, with pruning, a
//!   compact transposition table, checkpoints and two threads (Cram, Node Kayles, Chomp);
//! - [`misere`]: the SJ (Anti-SG) rule for misère sums, with its conditions checked by search;
//! - [`sum`]: outcome and winning moves of a sum from its parts' values (XOR rule, Smith's rule).
//! - [`graph`]: explicit game graphs ([`Graph`], the `sprague solve FILE` format, [`explore`]).
//! - [`retrograde`](mod@retrograde): win/lose/tie/draw and remoteness on graphs with cycles.
//! - [`loopy`]: generalized Sprague–Grundy values of loopy impartial games.
//! - [`report`]: the whole `sprague solve FILE` report.
//! - [`tiered`]: retrograde analysis of games ranked into tiers (boards), [`store::Strong`]
//!   for queries of single positions, and [`store`], where solutions are kept.
//! - [`distributed`]: the tier solver over many processes (MPI ranks), each holding a share.

mod dag;
pub mod distributed;
pub mod draws;
pub mod graph;
pub mod loopy;
pub mod misere;
pub mod nimsearch;
mod records;
pub mod report;
pub mod retrograde;
pub mod store;
pub mod sum;
pub mod tiered;

pub use dag::{mex, NimValues, Search, DEFAULT_POSITION_LIMIT};
pub use graph::{explore, Explored, Graph};
pub use loopy::{loopy_nim_values, loopy_values, LoopySolution, LoopyValues};
pub use report::{graph_report, GraphReport};
pub use retrograde::{retrograde, solve_game, Retrograde, Solution, Solved};
