//! Short partizan games: canonical forms and their arithmetic, thermography, and a generic
//! solver for rulesets.
//!
//! - [`Arena`] stores every canonical form once, named by a [`GameId`]; sums, negatives and
//!   comparisons are memoised there, and numbers, nimbers and up multiples have closed forms.
//! - [`Canonical`] is a value (an arena and an id) with operators, CGSuite's notation
//!   ([`notation`]) and thermography ([`thermograph`]).
//! - [`Partizan`] is the trait of rulesets; [`Solver`] values their positions, region by
//!   region.
//!
//! Left is the positive player throughout (Blue in Hackenbush).

mod arena;
mod canonical;
pub mod dyadic;
pub mod game;
pub mod notation;
pub mod solve;
pub mod thermograph;

pub use arena::{Arena, ArenaStats, GameId, Nus, Outcome, Relation, Side};
pub use canonical::{Canonical, SharedArena};
pub use dyadic::Dyadic;
pub use game::{Keyed, Partizan};
pub use notation::ParseGameError;
pub use solve::{Memory, Solver};
pub use thermograph::{Thermograph, Trajectory};

#[cfg(test)]
mod tests;
