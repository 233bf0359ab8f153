//! The positions a scripted game has met, numbered in the order they were met, with what the
//! game learns of each: its moves when it is expanded, its value when it is solved.

use super::{Key, Limits};
use crate::error::{Error, Result};
use std::collections::HashMap;
use std::sync::Arc;

/// Positions met so far; `E` is what expanding a position gives (its moves), `S` what solving
/// it gives (its value).
pub(super) struct Memo<E, S> {
    /// The positions, by number.
    pub(super) keys: Vec<Arc<Key>>,
    index: HashMap<Arc<Key>, u32>,
    /// `None` until the position is expanded.
    pub(super) expanded: Vec<Option<E>>,
    /// `None` until the position is solved.
    pub(super) solved: Vec<Option<S>>,
    /// The bytes the positions hold, about.
    bytes: usize,
}

impl<E, S> Default for Memo<E, S> {
    fn default() -> Self {
        Memo {
            keys: Vec::new(),
            index: HashMap::new(),
            expanded: Vec::new(),
            solved: Vec::new(),
            bytes: 0,
        }
    }
}

impl<E, S> Memo<E, S> {
    /// The number of `key`, numbering it if it is new.
    ///
    /// # Errors
    /// [`Error::Limit`] when a new position would make more than the game `spec`'s
    /// `--script-max-positions`, or hold more bytes than its `--script-max-memory`.
    pub(super) fn intern(&mut self, key: Key, limits: &Limits, spec: &str) -> Result<u32> {
        if let Some(&i) = self.index.get(&key) {
            return Ok(i);
        }
        let cap = limits.max_positions;
        // The key twice (in the list and the index), and the map's entry.
        let bytes = 2 * key.bytes() + 64;
        if self.bytes.saturating_add(bytes) > limits.max_bytes {
            return Err(Error::Limit(format!(
                "{spec}: the {} positions explored hold more than {} MiB: positions that keep growing (a string or an array that gets longer with every move) never end, or the game is larger than the cap; check the moves, else raise the cap with --script-max-memory",
                self.keys.len(),
                limits.max_bytes >> 20
            )));
        }
        if self.keys.len() >= cap {
            return Err(Error::Limit(format!(
                "{spec}: more than {cap} positions explored: the positions reachable may never end (a move that makes a position larger, such as n -> n + 1, reaches ever new ones) or the game is larger than the cap; check the moves, else raise the cap with --script-max-positions"
            )));
        }
        let i = self.keys.len() as u32;
        self.bytes += bytes;
        let key = Arc::new(key);
        self.index.insert(key.clone(), i);
        self.keys.push(key);
        self.expanded.push(None);
        self.solved.push(None);
        Ok(i)
    }

    /// Every position reachable from `start`, `start` first, breadth first. A position not
    /// expanded yet is expanded with `expand`; the search goes on through `successors` of each
    /// position, except those for which `stop` holds (they are listed, not gone through).
    pub(super) fn explore(
        &mut self,
        start: u32,
        mut expand: impl FnMut(&mut Self, u32) -> Result<E>,
        successors: impl Fn(&E) -> Vec<u32>,
        stop: impl Fn(&Self, u32) -> bool,
    ) -> Result<Vec<u32>> {
        let mut seen = vec![false; self.keys.len()];
        let mut order = vec![start];
        seen[start as usize] = true;
        let mut next = 0;
        while next < order.len() {
            let v = order[next];
            next += 1;
            if self.expanded[v as usize].is_none() {
                let expanded = expand(self, v)?;
                self.expanded[v as usize] = Some(expanded);
            }
            if seen.len() < self.keys.len() {
                seen.resize(self.keys.len(), false);
            }
            if stop(self, v) {
                continue;
            }
            for w in self.expanded[v as usize]
                .as_ref()
                .map_or(Vec::new(), &successors)
            {
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    order.push(w);
                }
            }
        }
        Ok(order)
    }
}
