//! A heap game's misère quotient, computed when a misère sum of its heaps first needs it and
//! kept with the game: what lets `value --misere` answer sums of any size without search.

use super::quotient::{Quotient, QuotientOptions, Search};
use crate::heap::HeapRules;
use std::sync::{Arc, Mutex};

/// The bounds of a quotient computed for sums: tight, so that a game whose quotient grows is
/// given up quickly (and its sums searched) rather than explored at length. Every two- and
/// three-digit octal game with a quotient of at most 1024 elements at heap 200 has one of at
/// most 256.
pub const SUM_OPTIONS: QuotientOptions = QuotientOptions {
    max_order: 256,
    max_candidate: 1 << 16,
    max_states: 1 << 18,
    max_recalibrations: 200,
    deadline: None,
};

/// How far a quotient for sums is computed at least (stopping as soon as its period is proven):
/// far enough to prove the period of Kayles (heap 168) and many other octal games.
pub const SUM_HEAPS: u64 = 200;

/// The largest heap a quotient for sums is computed to; sums with larger heaps need a period
/// proven within [`SUM_HEAPS`].
pub const SUM_MAX_HEAP: u64 = 1000;

/// The misère quotient of a heap game's heaps, computed on first use within fixed bounds and
/// kept, for valuing misère sums of its heaps. One belongs to each game instance: no state is
/// shared between games.
///
/// ```
/// use sprague::heap::Code;
/// use sprague::quotient::QuotientCache;
/// use std::sync::Arc;
/// let kayles = QuotientCache::new(Arc::new(Code::parse("0.77").unwrap()));
/// let q = kayles.covering(40).expect("Kayles has a small quotient");
/// // computed until its period was proven, so every heap is covered
/// assert!(q.period().is_some());
/// assert_eq!(q.order(), 40);
/// assert!(Arc::ptr_eq(&q, &kayles.covering(1_000_000).unwrap()));
/// ```
pub struct QuotientCache {
    rules: Arc<dyn HeapRules>,
    options: QuotientOptions,
    heaps: u64,
    max_heap: u64,
    known: Mutex<Known>,
}

#[derive(Default)]
struct Known {
    /// The quotient found so far: of heaps up to its largest, or of every heap with a period.
    quotient: Option<Arc<Quotient>>,
    /// Why no larger quotient is tried again (a runaway, or an error of the rules).
    stopped: Option<String>,
}

fn covers(q: &Quotient, largest: u64) -> bool {
    q.period().is_some() || q.max_heap() >= largest
}

impl QuotientCache {
    /// The cache of `rules`' quotient, with the bounds for sums ([`SUM_OPTIONS`],
    /// [`SUM_HEAPS`], [`SUM_MAX_HEAP`]).
    pub fn new(rules: Arc<dyn HeapRules>) -> QuotientCache {
        QuotientCache::with_bounds(rules, SUM_OPTIONS, SUM_HEAPS, SUM_MAX_HEAP)
    }

    /// The cache of `rules`' quotient, computed within `options`, to at least `heaps` heaps
    /// (stopping once its period is proven) and never past `max_heap`.
    pub fn with_bounds(
        rules: Arc<dyn HeapRules>,
        options: QuotientOptions,
        heaps: u64,
        max_heap: u64,
    ) -> QuotientCache {
        QuotientCache {
            rules,
            options,
            heaps,
            max_heap: max_heap.max(heaps),
            known: Mutex::new(Known::default()),
        }
    }

    /// The heap rules.
    pub fn rules(&self) -> &Arc<dyn HeapRules> {
        &self.rules
    }

    /// A quotient that values every sum of heaps up to `largest` (the quotient of heaps 0..=N
    /// with N ≥ `largest`, or one proven for every heap), computed on the first call that needs
    /// it; or why there is none within the bounds (the search ran away, `largest` is past the
    /// bounds and no period is proven, or the rules failed).
    ///
    /// # Errors
    /// The reason, as a sentence, when no quotient covers `largest`.
    pub fn covering(&self, largest: u64) -> Result<Arc<Quotient>, String> {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(q) = &known.quotient {
            if covers(q, largest) {
                return Ok(q.clone());
            }
        }
        if let Some(why) = &known.stopped {
            return Err(why.clone());
        }
        let past = largest > self.max_heap;
        if past && known.quotient.is_some() {
            return Err(self.no_period(largest));
        }
        let target = if past {
            self.heaps
        } else {
            largest.max(self.heaps)
        };
        match Quotient::compute_until_certified(self.rules.as_ref(), target, &self.options, &()) {
            Ok(Search::Finite(q)) => known.quotient = Some(Arc::new(q)),
            Ok(Search::Runaway { runaway, below }) => {
                known.quotient = Some(Arc::new(below));
                known.stopped = Some(format!(
                    "its misère quotient outgrows the bounds for sums {runaway}"
                ));
            }
            Err(e) => known.stopped = Some(format!("the misère quotient failed: {e}")),
        }
        match &known.quotient {
            Some(q) if covers(q, largest) => Ok(q.clone()),
            _ => Err(known
                .stopped
                .clone()
                .unwrap_or_else(|| self.no_period(largest))),
        }
    }

    fn no_period(&self, largest: u64) -> String {
        format!(
            "heap {largest} is past the {} heaps a misère quotient is computed to for sums, and no period of the quotient is proven",
            self.max_heap
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::Code;

    fn cache(code: &str) -> QuotientCache {
        QuotientCache::new(Arc::new(Code::parse(code).unwrap()))
    }

    #[test]
    fn a_proven_quotient_covers_every_heap_and_is_computed_once() {
        let c = cache("0.75");
        let q = c.covering(5).unwrap();
        assert_eq!((q.order(), q.max_heap()), (8, 22));
        assert!(Arc::ptr_eq(&q, &c.covering(u64::MAX).unwrap()));
    }

    #[test]
    fn a_runaway_keeps_the_quotient_below_it() {
        // Dawson's Kayles outgrows 256 elements before heap 30 (360 at heap 30).
        let c = cache("0.07");
        let q = c.covering(12).unwrap();
        assert!(q.period().is_none() && q.max_heap() >= 12 && q.max_heap() < 30);
        let why = c.covering(40).unwrap_err();
        assert!(why.contains("outgrows"), "{why}");
        // and is not computed again
        assert!(Arc::ptr_eq(&q, &c.covering(3).unwrap()));
    }

    #[test]
    fn heaps_past_the_bounds_need_a_proven_period() {
        // Grundy's game has no period certificate: its quotient covers only the heaps computed.
        let grundy =
            QuotientCache::with_bounds(Arc::new(crate::heap::Code::grundy()), SUM_OPTIONS, 12, 20);
        assert_eq!(grundy.covering(15).unwrap().max_heap(), 15);
        let why = grundy.covering(21).unwrap_err();
        assert!(why.contains("no period"), "{why}");
        // a larger heap within the bounds computes again
        assert_eq!(grundy.covering(18).unwrap().max_heap(), 18);
    }
}
