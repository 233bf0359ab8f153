//! # sprague
//!
//! Exact solving of two-player combinatorial games: nim values (Sprague–Grundy), outcomes and
//! winning moves, sums, misère play, loopy games with draws, and the game families of the
//! classical literature.
//!
//! - [`game`]: the core traits ([`game::Impartial`], [`game::TwoPlayer`], [`game::Sum`]);
//! - [`solve`]: generic solvers that work for any game implementing them;
//! - [`heap`]: heap games (subtraction, take-and-break) with certified periods;
//! - [`games`]: one module per game family;
//! - [`nimber`]: the nim field on 64-bit words, at hardware speed;
//! - [`partizan`]: short partizan games: canonical forms, thermography, a region solver;
//! - [`spec`]: the game-spec language of the command line;
//! - [`analysis`]: type-erased games and the reports front ends print.
//! - [`script`]: games written as sandboxed Rhai scripts (`script:PATH`).
//!
//! ```
//! let position = sprague::spec::parse_position(&["nim", "3", "4", "5"])?;
//! let report = sprague::analysis::value(&position, sprague::game::Play::Normal)?;
//! assert_eq!(report.outcome, sprague::game::Outcome::N);
//! assert_eq!(report.winning_moves[0].text, "3 -> 1");
//! # Ok::<(), sprague::Error>(())
//! ```
#![warn(missing_docs)]

pub mod analysis;
pub mod counting;
pub mod db;
pub mod error;
pub mod file;
pub mod game;
pub mod games;
pub mod heap;
pub mod josephus;
pub mod misere;
pub mod nimber;
pub mod partizan;
pub mod play;
pub mod progress;
pub mod script;
pub mod simd;
pub mod solve;
pub mod spec;

pub use error::{Error, Result};
