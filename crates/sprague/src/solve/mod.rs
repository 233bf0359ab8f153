//! Generic solvers: they work for any game implementing the traits of [`crate::game`].
//!
//! - [`NimValues`]: nim values of acyclic impartial games, memoised and iterative.
//! - [`MisereOutcomes`]: misère outcomes by direct search, the oracle for misère closed forms.
//! - [`sum`]: outcome and winning moves of a sum from its parts' values (XOR rule, Smith's rule).
//! - [`graph`]: explicit game graphs ([`Graph`], the `sprague solve FILE` format, [`explore`]).
//! - [`retrograde`](mod@retrograde): win/lose/tie/draw and remoteness on graphs with cycles.
//! - [`loopy`]: generalized Sprague–Grundy values of loopy impartial games.
//! - [`report`]: the whole `sprague solve FILE` report.

mod dag;
pub mod graph;
pub mod loopy;
pub mod report;
pub mod retrograde;
pub mod sum;
pub mod tiered;

pub use dag::{MisereOutcomes, NimValues};
pub use graph::{explore, Explored, Graph};
pub use loopy::{loopy_nim_values, loopy_values, LoopySolution, LoopyValues};
pub use report::{graph_report, GraphReport};
pub use retrograde::{retrograde, solve_game, Retrograde, Solution, Solved, Value};
