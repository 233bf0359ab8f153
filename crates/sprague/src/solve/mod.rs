//! Generic solvers: they work for any game implementing the traits of [`crate::game`].
//!
//! - [`NimValues`]: nim values of acyclic impartial games, memoised and iterative.
//! - [`MisereOutcomes`]: misère outcomes by direct search, the oracle for misère closed forms.
//! - [`sum`]: outcome and winning moves of a sum from its parts' values (XOR rule, Smith's rule).

mod dag;
pub mod sum;
pub mod tiered;

pub use dag::{MisereOutcomes, NimValues};
