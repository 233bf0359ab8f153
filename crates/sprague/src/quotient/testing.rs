//! Test oracles: plain misère search on sums of heaps, sharing nothing with the quotient and
//! genus engines but the rules' option lists.

use crate::game::{Game, Impartial, Outcome, Play};
use crate::heap::HeapRules;
use crate::solve::Search;
use std::collections::HashMap;

/// A sum of heaps of one game; a position is its sorted nonzero heap sizes.
pub(crate) struct HeapSum {
    options: Vec<Vec<Vec<u64>>>,
}

impl HeapSum {
    /// The game with the option lists of heaps 0..=max.
    pub(crate) fn new(rules: &dyn HeapRules, max: u64) -> HeapSum {
        let options = (0..=max)
            .map(|n| {
                if n == 0 {
                    return Vec::new();
                }
                rules
                    .options(n)
                    .into_iter()
                    .map(|o| o.into_iter().filter(|&h| h > 0).collect())
                    .collect()
            })
            .collect();
        HeapSum { options }
    }
}

impl Game for HeapSum {
    type Position = Vec<u64>;
}

impl Impartial for HeapSum {
    fn options(&self, position: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for (i, &h) in position.iter().enumerate() {
            for leaves in &self.options[h as usize] {
                let mut next: Vec<u64> = position[..i].to_vec();
                next.extend_from_slice(&position[i + 1..]);
                next.extend_from_slice(leaves);
                next.sort_unstable();
                out.push(next);
            }
        }
        out
    }
}

/// Misère outcomes of sums of heaps by plain search.
pub(crate) struct Oracle {
    search: Search<HeapSum>,
}

impl Oracle {
    pub(crate) fn new(rules: &dyn HeapRules, max: u64) -> Oracle {
        Oracle {
            search: Search::new(HeapSum::new(rules, max), Play::Misere),
        }
    }

    /// Whether the sum has a move at all.
    pub(crate) fn has_moves(&self, heaps: &[u64]) -> bool {
        heaps
            .iter()
            .any(|&h| !self.search.game().options[h as usize].is_empty())
    }

    pub(crate) fn outcome(&mut self, heaps: &[u64]) -> Outcome {
        let mut p: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        p.sort_unstable();
        self.search.outcome(&p).unwrap()
    }
}

/// Misère Grundy values of a sum of heaps plus nim-heaps of sizes 1 and 2, by plain search (no
/// lemma about * or tame games).
pub(crate) struct GrundyOracle {
    game: HeapSum,
    memo: HashMap<(Vec<u64>, u32, u32), u64>,
}

impl GrundyOracle {
    pub(crate) fn new(rules: &dyn HeapRules, max: u64) -> GrundyOracle {
        GrundyOracle {
            game: HeapSum::new(rules, max),
            memo: HashMap::new(),
        }
    }

    /// G⁻(heaps + twos·*2 + ones·*1).
    pub(crate) fn value(&mut self, heaps: &[u64], twos: u32, ones: u32) -> u64 {
        let mut p: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        p.sort_unstable();
        self.value_of(p, twos, ones)
    }

    fn value_of(&mut self, p: Vec<u64>, twos: u32, ones: u32) -> u64 {
        let key = (p, twos, ones);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let (p, twos, ones) = key;
        let mut values = Vec::new();
        for option in self.game.options(&p) {
            values.push(self.value_of(option, twos, ones));
        }
        if twos > 0 {
            values.push(self.value_of(p.clone(), twos - 1, ones + 1));
            values.push(self.value_of(p.clone(), twos - 1, ones));
        }
        if ones > 0 {
            values.push(self.value_of(p.clone(), twos, ones - 1));
        }
        let v = if values.is_empty() {
            1
        } else {
            (0..).find(|g| !values.contains(g)).unwrap()
        };
        self.memo.insert((p, twos, ones), v);
        v
    }
}

/// Every sum of up to `parts` heaps of sizes 1..=max, as sorted lists (the empty sum too).
pub(crate) fn sums(parts: usize, max: u64) -> Vec<Vec<u64>> {
    let mut out = vec![Vec::new()];
    let mut frontier = vec![Vec::new()];
    for _ in 0..parts {
        let mut next = Vec::new();
        for s in &frontier {
            let low = s.last().copied().unwrap_or(1);
            for h in low..=max {
                let mut t: Vec<u64> = s.clone();
                t.push(h);
                next.push(t);
            }
        }
        out.extend(next.iter().cloned());
        frontier = next;
    }
    out
}
