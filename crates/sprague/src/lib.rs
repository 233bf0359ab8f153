//! # sprague
//!
//! Exact solving of two-player combinatorial games: nim values (Sprague–Grundy), outcomes and
//! winning moves, sums, misère play, loopy games with draws, and the game families of the
//! classical literature.
//!
//! The layers, each importing only those below it (`docs/architecture.md` has the picture):
//! 1. [`game`]: what a game is ([`game::Impartial`], [`game::TwoPlayer`], [`game::Evaluated`],
//!    [`game::Notation`]) and the values positions have; beside it the infrastructure
//!    ([`error`], [`file`], [`progress`], [`budget`], [`memory`], [`simd`]) and the nim field
//!    ([`nimber`]);
//! 2. [`solve`]: generic solvers that work for any game implementing those traits;
//! 3. [`heap`] and [`games`]: the families, each a typed game with its notation (and
//!    [`script`], games written as sandboxed Rhai scripts); [`partizan`]: short partizan games
//!    (canonical forms, thermography, a region solver) and [`quotient`]: misère quotients and
//!    genus, both not yet in the catalog;
//! 4. [`erased`], [`analysis`], [`play`] and [`catalog`]: games chosen at run time through a
//!    few generic adapters, the answers front ends print, and the one registry of games.
//!
//! ```
//! let catalog = sprague::catalog::Catalog::default();
//! let position = catalog.parse_position(&["nim", "3", "4", "5"])?;
//! let report = sprague::analysis::value(&position, sprague::game::Play::Normal)?;
//! assert_eq!(report.outcome, sprague::game::Outcome::N);
//! assert_eq!(report.winning_moves[0].text, "3 -> 1");
//! # Ok::<(), sprague::Error>(())
//! ```
#![warn(missing_docs)]

pub mod access;
pub mod analysis;
pub mod budget;
pub mod catalog;
pub mod counting;
pub mod erased;
pub mod error;
pub mod file;
pub mod game;
pub mod games;
pub mod heap;
pub mod josephus;
pub mod memory;
pub mod nimber;
pub mod partizan;
pub mod play;
pub mod progress;
pub mod quotient;
#[cfg(feature = "rhai")]
pub mod script;
pub mod simd;
pub mod solve;

pub use error::{Error, Result};
