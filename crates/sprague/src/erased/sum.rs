//! A sum of erased parts as a typed impartial game, so that the generic searches of
//! [`crate::solve`] (misère outcomes, remoteness) run over sums of any games, memoised by the
//! parts' typed positions.

use super::Part;
use crate::error::Result;
use crate::game::{Game, Impartial};

/// Sums of [`Part`]s as an [`Impartial`] game. A position is the multiset of its parts, kept in a
/// canonical order so that equal sums are one memo entry.
#[derive(Clone, Copy, Debug, Default)]
pub struct SumGame;

impl SumGame {
    /// The canonical form of a sum of these parts.
    pub fn canonical(mut parts: Vec<Part>) -> Vec<Part> {
        parts.sort_by_key(Part::order_key);
        parts
    }
}

impl Game for SumGame {
    type Position = Vec<Part>;
}

impl Impartial for SumGame {
    /// Every option; empty when a part cannot list its options (see
    /// [`SumGame::try_options`](Impartial::try_options)).
    fn options(&self, sum: &Vec<Part>) -> Vec<Vec<Part>> {
        self.try_options(sum).unwrap_or_default()
    }

    fn try_options(&self, sum: &Vec<Part>) -> Result<Vec<Vec<Part>>> {
        let mut out = Vec::new();
        for (i, part) in sum.iter().enumerate() {
            // Equal parts have the same options; moving in either leaves the same sum.
            if i > 0 && sum[i - 1] == *part {
                continue;
            }
            for option in part.options()? {
                let mut next = Vec::with_capacity(sum.len() + option.parts.len());
                next.extend_from_slice(&sum[..i]);
                next.extend(option.parts);
                next.extend_from_slice(&sum[i + 1..]);
                out.push(SumGame::canonical(next));
            }
        }
        Ok(out)
    }
}
