//! Heap games: subtraction and take-and-break games, their value tables and certified periods.
//!
//! - [`HeapRules`]: the moves from one heap, as lists of the heaps left; any ruleset works.
//! - [`Code`]: take-and-break codes (`0.77`, `4.0F`, subtraction sets, "all but" sets, Grundy's
//!   game), which select the fast bitset engine of [`Tabulation`].
//! - [`find_period`]: the least certified period of a table; the module docs of the certificate
//!   derive the bound h·n0 + h·p + k for moves leaving up to h heaps.
//! - [`HeapSolver`]: one game's cached values; a certified period answers heaps up to 2^64 − 1;
//! - [`HeapGame`]: a row of heaps under any rules as an [`crate::game::Impartial`] game with its
//!   [`crate::game::Notation`], so every heap family is one ruleset and a catalog entry.

use crate::error::Result;
use crate::progress::Progress;
use serde::{Deserialize, Serialize};

/// A certified period: G(n + period) = G(n) for every n ≥ preperiod.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// No bound applies to the game's moves, so no computation can prove a period; nothing
    /// was computed.
    NoCertificate {
        /// Why no bound applies, for people.
        reason: &'static str,
    },
}

/// A nim-value table of single heaps, with the period if one was certified within it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// G(0), G(1), …, G(to), each in the fewest bytes the largest needs.
    pub values: Values,
    /// The certified period, when the table reaches far enough to prove one.
    pub period: Option<Periodicity>,
}

/// Single-heap values of a heap game: what `sprague table` and `sprague period` need.
pub trait HeapValues: Send + Sync {
    /// G(0..=to).
    fn table(&self, to: u64, progress: &dyn Progress) -> Result<Table>;

    /// Computes until periodicity is certified or heap size `max` is reached.
    fn period(&self, max: u64, progress: &dyn Progress) -> Result<PeriodSearch>;

    /// [`HeapValues::period`] with the long-run engine's settings (threads, instruction-set
    /// path, checkpoint file and interval; the other fields are ignored) for take-and-break
    /// codes that it computes. Other games ignore the threads and the path, and refuse a
    /// checkpoint.
    fn period_with(
        &self,
        max: u64,
        engine: &rare::Options,
        progress: &dyn Progress,
    ) -> Result<PeriodSearch> {
        if engine.checkpoint.is_some() {
            return Err(no_checkpoint());
        }
        self.period(max, progress)
    }

    /// G(0..=to) by the long-run engine for take-and-break codes (the sparse-space method of
    /// [`rare`], with threads and checkpoints), or `None` when this game is not such a code.
    fn long_table(
        &self,
        _to: u64,
        _options: &rare::Options,
        _progress: &dyn Progress,
    ) -> Option<Result<Table>> {
        None
    }

    /// The rules of one heap, for computations over sums of heaps (genus tables, misère
    /// quotients: [`crate::quotient`]), or `None` when the game has no such rules to share.
    fn heap_rules(&self) -> Option<std::sync::Arc<dyn HeapRules>> {
        None
    }
}

/// The refusal of a checkpoint for a game that the long-run engine does not compute.
fn no_checkpoint() -> crate::Error {
    crate::Error::Unsupported(
        "a checkpoint needs a take-and-break code with splits (such as 0.6, 0.007 or 0.16), \
         which the long-run engine computes"
            .into(),
    )
}

mod code;
mod engine;
mod game;
mod packed;
mod period;
mod report;
mod solver;
#[cfg(test)]
pub(crate) mod testing;
mod values;

pub use code::{Code, Run};
pub use engine::{Tabulation, MAX_TABLE_LEN};
pub use game::HeapGame;
pub use period::{certification_length, find_period, find_period_below};
pub use report::{PeriodReport, PeriodSpan, TableReport};
pub use solver::HeapSolver;
pub use values::{width_for, Values};

/// What a period certificate needs to know about the moves of a heap game.
///
/// Return it from [`HeapRules::certificate`] only when the moves are *translation invariant*:
/// there is a set of pairs (t, j) such that, from every heap n, the options are exactly "remove
/// t tokens and leave j nonempty heaps of any sizes adding up to n − t" (j = 0 meaning t = n).
/// Take-and-break codes have this shape; Grundy's game (the two heaps must differ) does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveBounds {
    /// The largest number of heaps a move leaves (h; at least 1 is assumed).
    pub max_heaps: u64,
    /// The largest number of tokens a move removes (k).
    pub max_removed: u64,
}

/// The rules of a heap game: the options of a single heap, as lists of the heaps they leave.
///
/// This is all the tabulation engine needs: a family of heap games is a description of moves,
/// not a new solver. Take-and-break codes ([`Code`]) describe themselves through
/// [`HeapRules::code`], which selects the fast bitset engine; any other ruleset is evaluated
/// from [`HeapRules::options`].
///
/// # Examples
///
/// A game where a move takes one token, or splits an even heap into two equal halves:
///
/// ```
/// use sprague::heap::{HeapRules, Tabulation};
/// use std::sync::Arc;
///
/// struct TakeOneOrHalve;
/// impl HeapRules for TakeOneOrHalve {
///     fn options(&self, n: u64) -> Vec<Vec<u64>> {
///         let mut out = vec![vec![n - 1]]; // heaps of size 0 are dropped
///         if n % 2 == 0 {
///             out.push(vec![n / 2, n / 2]);
///         }
///         out
///     }
/// }
///
/// let mut table = Tabulation::new(Arc::new(TakeOneOrHalve));
/// table.extend_to(6, &())?;
/// assert_eq!(table.values(), &[0, 1, 2, 0, 1, 0, 1]);
/// # Ok::<(), sprague::Error>(())
/// ```
pub trait HeapRules: Send + Sync {
    /// Every option of a heap of `n ≥ 1` tokens, each as the list of heaps it leaves (an empty
    /// list when nothing is left; heaps of size 0 are ignored). Every heap left must be smaller
    /// than `n`.
    fn options(&self, n: u64) -> Vec<Vec<u64>>;

    /// [`HeapRules::options`] for rulesets that can fail, such as scripts; the engine calls this
    /// one. The default never fails.
    fn try_options(&self, n: u64) -> Result<Vec<Vec<u64>>> {
        Ok(self.options(n))
    }

    /// The bounds a period certificate needs, or `None` when no certificate applies: a move may
    /// remove unboundedly many tokens (`allbut`), or the moves are not translation invariant
    /// (Grundy's game). See [`MoveBounds`] for the promise this makes.
    fn certificate(&self) -> Option<MoveBounds> {
        None
    }

    /// The rules as a take-and-break code, when they are one; this selects the fast engine.
    fn code(&self) -> Option<&Code> {
        None
    }

    /// G(n) by a closed form, for rules that have one (Nim: n; taking 1 to M: n mod (M + 1)).
    /// With it, nothing is tabulated and heaps of any size are answered.
    fn closed_form(&self, _n: u64) -> Option<u64> {
        None
    }

    /// The options of heap `n` whose nim value is `target`, by a closed form (each as the heaps
    /// it leaves); `None` to find them from the table.
    fn closed_form_options(&self, _n: u64, _target: u64) -> Option<Vec<Vec<u64>>> {
        None
    }

    /// The number of options of heap `n` (saturating), when it is cheap to count, so that heaps
    /// with too many options are refused before they are listed.
    fn option_count(&self, n: u64) -> Option<u64> {
        self.code().map(|code| solver::count_options(code, n))
    }

    /// A period the rules are proven to have (a theorem, as for taking 1 to M), reported without
    /// tabulating.
    fn known_period(&self) -> Option<Periodicity> {
        None
    }

    /// Whether misère sums of these heaps are proven to follow the SJ rule
    /// ([`crate::solve::misere`]); `None` lets it be checked by search.
    fn misere_sj(&self) -> Option<bool> {
        None
    }
}
pub mod checkpoint;
pub mod rare;
mod scan;
pub mod table_file;
