//! The shared, cached evaluation of one heap game: its table, its period, and the options of a
//! heap with a given value, found from them without listing every option.

use super::code::{Code, LEAVE_NONE, LEAVE_ONE, LEAVE_THREE, LEAVE_TWO};
use super::{
    find_period, HeapRules, HeapValues, MoveBounds, PeriodSearch, Periodicity, Table, Tabulation,
};
use crate::budget::Budget;
use crate::error::{Error, Result};
use crate::game::Listing;
use crate::progress::Progress;
use std::sync::{Arc, Mutex, MutexGuard};

/// Heaps split in three are searched for winning moves only up to this size.
const MAX_TRIPLE_SEARCH: u64 = 2000;

/// The first table size tried when looking for a period.
const FIRST_STEP: u64 = 1024;

struct State {
    table: Tabulation,
    period: Option<Periodicity>,
}

/// How a solver's table grows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Growth {
    /// Heap by heap on [`Tabulation`]'s engine, up to a fixed size without a period.
    Table,
    /// By the sparse engine of [`super::rare`] (codes that split heaps in two), computed again
    /// to at least twice the size each time; bounded by the memory and time budget only.
    Sparse,
}

impl State {
    /// G(n), from the table or the certified period.
    fn get(&self, n: u64) -> Option<u64> {
        let values = self.table.values();
        if n < values.len() as u64 {
            return Some(values[n as usize] as u64);
        }
        let p = self.period?;
        let i = p.preperiod + (n - p.preperiod) % p.period;
        values.get(i as usize).map(|&g| g as u64)
    }

    /// Extends the table to `to` and looks for a period if none is known. With `until_period`
    /// the sparse engine may stop before `to`, once a period is certified.
    fn grow(
        &mut self,
        to: u64,
        bounds: Option<MoveBounds>,
        growth: Growth,
        until_period: bool,
        engine: &super::rare::Options,
        progress: &dyn Progress,
    ) -> Result<()> {
        match (growth, self.table.rules().code()) {
            (Growth::Sparse, Some(code)) if to >= self.table.len() => {
                let code = code.clone();
                let to = usize::try_from(to)
                    .map_err(|_| Error::Limit(format!("a table to {to} does not fit in memory")))?;
                let options = super::rare::Options {
                    until_period,
                    threads: engine.threads,
                    simd: engine.simd,
                    checkpoint: engine.checkpoint.clone(),
                    checkpoint_interval: engine.checkpoint_interval,
                    // The table keeps 4 bytes a value (TABLE_BYTES): nothing gained by
                    // packing first.
                    pack_from: Some(usize::MAX),
                    ..super::rare::Options::default()
                };
                let run = super::rare::run(&code, to, &options, progress)?;
                self.table
                    .adopt(run.values.iter().map(|v| v as u32).collect());
                if self.period.is_none() {
                    self.period = run.period;
                }
            }
            _ => self.table.extend_to(to, progress)?,
        }
        if let (None, Some(b)) = (self.period, bounds) {
            self.period = find_period(self.table.values(), b);
        }
        Ok(())
    }
}

/// Bytes a value of the solver's table (`u32`).
const TABLE_BYTES: u64 = 4;

/// The sparse engine's settings for values computed on demand.
const DEFAULT_ENGINE: super::rare::Options = super::rare::Options::DEFAULT;

/// One heap game's values, computed once and shared by every heap of the game: the table grows
/// on demand, and a certified period, once found, answers any heap up to 2^64 − 1. Rules with a
/// closed form ([`HeapRules::closed_form`]) answer without a table.
pub struct HeapSolver {
    spec: String,
    rules: Arc<dyn HeapRules>,
    bounds: Option<MoveBounds>,
    auto_limit: u64,
    growth: Growth,
    budget: Budget,
    state: Mutex<State>,
}

impl HeapSolver {
    /// A solver for `rules`, named `spec` in messages.
    pub fn new(spec: impl Into<String>, rules: Arc<dyn HeapRules>) -> Self {
        let bounds = rules.certificate();
        let growth = match rules.code() {
            Some(code) if super::rare::suits(code) => Growth::Sparse,
            _ => Growth::Table,
        };
        let auto_limit = match rules.code() {
            Some(c) if c.max_heaps() >= 3 => 1 << 11,
            Some(c) if c.splits() => 1 << 15,
            Some(_) => 1 << 21,
            None => 1 << 12,
        };
        HeapSolver {
            spec: spec.into(),
            bounds,
            auto_limit,
            growth,
            budget: Budget::unlimited(),
            state: Mutex::new(State {
                table: Tabulation::new(rules.clone()),
                period: rules.known_period(),
            }),
            rules,
        }
    }

    /// The same solver, whose computations for [`HeapSolver::nim_value`] and
    /// [`HeapSolver::options_with_value`] stop when `budget` is spent (its time or memory).
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// The game's spec.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<dyn HeapRules> {
        &self.rules
    }

    /// The largest heap evaluated by tabulation alone when no period is certified, or `None`
    /// when only the memory and time budget bound it (codes on the sparse engine).
    pub fn auto_limit(&self) -> Option<u64> {
        (self.growth == Growth::Table).then_some(self.auto_limit)
    }

    /// The certified period found so far, if any.
    pub fn periodicity(&self) -> Option<Periodicity> {
        self.lock().period
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Locks the state once heap `n` can be answered: tabulated, or covered by a period.
    fn ensure(&self, n: u64) -> Result<MutexGuard<'_, State>> {
        let mut st = self.lock();
        loop {
            if st.get(n).is_some() {
                return Ok(st);
            }
            let len = st.table.len();
            if self.growth == Growth::Sparse {
                // Twice the table there (so that repeated growth costs at most twice the last
                // table): with a certificate, doubling until a period is certified (the engine
                // looks at every doubling) and fills the rest; without one, at least to n.
                let doubled = len.saturating_mul(2).max(FIRST_STEP);
                let to = match self.bounds {
                    Some(_) => doubled,
                    None => doubled.max(n),
                };
                let to = if to > n && self.memory_check(n, to).is_err() {
                    n
                } else {
                    to
                };
                if let Err(e) = self.memory_check(n, to) {
                    // Say what heap n itself would take.
                    return Err(self.memory_check(n, n).err().unwrap_or(e));
                }
                self.grow_for_query(&mut st, to)?;
                continue;
            }
            if len > self.auto_limit || (self.bounds.is_none() && n > self.auto_limit) {
                let why = if self.bounds.is_some() {
                    "and no period was certified up to there"
                } else {
                    "and no period certificate applies to this game"
                };
                return Err(Error::Limit(format!(
                    "{}: heap {n} is past heap {}, the largest evaluated without a certified period, {why}",
                    self.spec, self.auto_limit
                )));
            }
            // With a certificate, grow geometrically so a period is found early; otherwise
            // tabulate what is asked.
            let next = if self.bounds.is_some() {
                (len + len / 8).max(FIRST_STEP).max(len + 1)
            } else {
                n.saturating_add(1).max(len + len / 4)
            };
            self.grow_for_query(&mut st, next.min(self.auto_limit + 1) - 1)?;
        }
    }

    /// Grows the table to `to` for a query, within the solver's budget.
    fn grow_for_query(&self, st: &mut State, to: u64) -> Result<()> {
        st.grow(
            to,
            self.bounds,
            self.growth,
            false,
            &DEFAULT_ENGINE,
            &self.budget,
        )
    }

    /// Whether the sparse engine's table to `to`, grown for heap `n`, fits the memory budget
    /// and the machine; the error says what it would take.
    fn memory_check(&self, n: u64, to: u64) -> Result<()> {
        let why = if self.bounds.is_some() {
            "no period was certified below it"
        } else {
            "no period certificate applies to this game"
        };
        let to = usize::try_from(to)
            .ok()
            .filter(|&t| t <= super::rare::MAX_HEAP)
            .ok_or_else(|| {
                Error::Limit(format!(
                    "{}: heap {n} needs a table to {to}, past the table engine's limit of {} heaps ({why})",
                    self.spec,
                    super::rare::MAX_HEAP
                ))
            })?;
        // The run's 2 bytes a value and the table's 4 (see `State::grow`).
        super::rare::check_memory_copied(to, TABLE_BYTES, self.budget.memory_left()).map_err(|e| {
            Error::Limit(format!(
                "{}: heap {n} needs the table to {to} ({why}): {e}",
                self.spec
            ))
        })
    }

    /// The nim value of one heap.
    ///
    /// # Errors
    /// [`Error::Limit`] for a heap past [`HeapSolver::auto_limit`] when no period is certified,
    /// or (codes on the sparse engine) past what the memory budget holds; the budget's error
    /// when its time runs out.
    pub fn nim_value(&self, n: u64) -> Result<u64> {
        if let Some(g) = self.rules.closed_form(n) {
            return Ok(g);
        }
        let st = self.ensure(n)?;
        st.get(n)
            .ok_or_else(|| Error::Internal(format!("heap {n} not evaluated")))
    }

    /// Refuses heaps with more than `limit` options before they are listed.
    pub(crate) fn check_option_count(&self, n: u64, limit: usize) -> Result<()> {
        match self.rules.option_count(n) {
            Some(count) if count > limit as u64 => Err(Error::Limit(format!(
                "a heap of {n} in {} has more than {limit} options to list",
                self.spec
            ))),
            _ => Ok(()),
        }
    }

    /// The options of heap `n` whose nim value is `target` (each as the heaps it leaves, in
    /// increasing order of the first heap left), at most `limit` of them, with the number of
    /// all. Take-and-break codes and closed forms find them from the table and the period,
    /// without listing every option, so heaps up to 2^64 − 1 are answered.
    ///
    /// # Errors
    /// [`Error::Limit`] when the heap cannot be valued, or (rules without a code) has more than
    /// `limit` options to list.
    pub fn options_with_value(
        &self,
        n: u64,
        target: u64,
        limit: usize,
    ) -> Result<Listing<Vec<u64>>> {
        if let Some(options) = self.rules.closed_form_options(n, target) {
            return Ok(Listing::all(options));
        }
        let Some(code) = self.rules.code() else {
            self.check_option_count(n, limit)?;
            let mut out = Vec::new();
            for option in self.rules.try_options(n)? {
                let mut x = 0;
                for &h in &option {
                    x ^= self.nim_value(h)?;
                }
                if x == target {
                    out.push(option);
                }
            }
            return Ok(Listing::all(out));
        };
        let st = self.ensure(n)?;
        let mut found = Collector::new(limit);
        // Taking the whole heap.
        if target == 0 && n >= 1 && code.digit(n) & LEAVE_NONE != 0 {
            found.push(Vec::new());
        }
        // Leaving one heap m = n − t.
        for r in code.runs() {
            if r.lo >= n {
                break;
            }
            if r.digit & LEAVE_ONE == 0 {
                continue;
            }
            let (lo, hi) = (n - r.hi.min(n - 1), n - r.lo);
            matching_heaps(&st, lo, hi, target, &mut found);
        }
        // Splits into two, then three.
        let amounts = std::iter::once(0)
            .chain(code.runs().iter().flat_map(|r| {
                let split = r.digit & (LEAVE_TWO | LEAVE_THREE) != 0 && r.lo <= n;
                let hi = if split { r.hi.min(n) } else { 0 };
                r.lo..=hi
            }))
            .filter(|&t| t <= n);
        for t in amounts {
            let digit = code.digit(t);
            let s = n - t;
            if digit & LEAVE_TWO != 0 && s >= 2 {
                matching_pairs(&st, s, code.unequal_splits(), target, &mut found);
            }
            if digit & LEAVE_THREE != 0 && s >= 3 {
                if s > MAX_TRIPLE_SEARCH {
                    return Err(Error::Limit(format!(
                        "{}: splits of more than {MAX_TRIPLE_SEARCH} tokens into three heaps are not searched for moves",
                        self.spec
                    )));
                }
                let g = |m: u64| st.get(m).expect("covered");
                for a in 1..=s / 3 {
                    for b in a..=(s - a) / 2 {
                        let c = s - a - b;
                        if g(a) ^ g(b) ^ g(c) == target {
                            found.push(vec![a, b, c]);
                        }
                    }
                }
            }
        }
        Ok(found.into_listing())
    }
}

impl HeapValues for HeapSolver {
    fn heap_rules(&self) -> Option<Arc<dyn HeapRules>> {
        Some(self.rules.clone())
    }

    fn table(&self, to: u64, progress: &dyn Progress) -> Result<Table> {
        if to >= super::MAX_TABLE_LEN {
            return Err(Error::Limit(format!(
                "heap {to} is past the largest table ({} heaps)",
                super::MAX_TABLE_LEN
            )));
        }
        // The table handed back holds a u64 a heap (the engine's own u32s are reserved by it).
        crate::memory::reserve(
            &format!("a table of nim values to heap {to}"),
            (to + 1).saturating_mul(8),
            &[crate::memory::Cap::Budget(progress.memory_left())],
        )?;
        if self.rules.closed_form(0).is_some() {
            let values: Vec<u64> = (0..=to)
                .map(|n| self.rules.closed_form(n).unwrap_or(0))
                .collect();
            let period = self.rules.known_period().filter(|p| p.certified_at <= to);
            return Ok(Table {
                values: values.into(),
                period,
            });
        }
        let mut st = self.lock();
        if st.table.len() <= to {
            st.grow(to, None, self.growth, false, &DEFAULT_ENGINE, progress)?;
        }
        let values = &st.table.values()[..=to as usize];
        let period = self.bounds.and_then(|b| find_period(values, b));
        Ok(Table {
            values: values.to_vec().into(),
            period,
        })
    }

    fn long_table(
        &self,
        to: u64,
        options: &super::rare::Options,
        progress: &dyn Progress,
    ) -> Option<Result<Table>> {
        let code = self.rules.code()?;
        if !super::rare::suits(code) {
            return None;
        }
        Some((|| {
            let to = usize::try_from(to)
                .map_err(|_| Error::Limit(format!("a table to {to} does not fit in memory")))?;
            let run = super::rare::run(code, to, options, progress)?;
            Ok(Table {
                values: run.values,
                period: run.period,
            })
        })())
    }

    fn period(&self, max: u64, progress: &dyn Progress) -> Result<PeriodSearch> {
        self.period_with(max, &DEFAULT_ENGINE, progress)
    }

    fn period_with(
        &self,
        max: u64,
        engine: &super::rare::Options,
        progress: &dyn Progress,
    ) -> Result<PeriodSearch> {
        if engine.checkpoint.is_some() && self.growth != Growth::Sparse {
            return Err(super::no_checkpoint());
        }
        if let Some(p) = self.rules.known_period() {
            return Ok(if p.certified_at <= max {
                PeriodSearch::Certified(p)
            } else {
                PeriodSearch::NotCertified { checked_to: max }
            });
        }
        let Some(bounds) = self.bounds else {
            // No certificate applies (unbounded removals, or moves that are not translation
            // invariant): nothing to compute can prove a period.
            return Ok(PeriodSearch::NoCertificate { reason: NO_BOUNDS });
        };
        let mut st = self.lock();
        loop {
            if let Some(p) = st.period {
                return Ok(if p.certified_at <= max {
                    PeriodSearch::Certified(p)
                } else {
                    PeriodSearch::NotCertified { checked_to: max }
                });
            }
            let len = st.table.len();
            if len > max {
                return Ok(PeriodSearch::NotCertified { checked_to: max });
            }
            if self.growth == Growth::Sparse {
                // One run to `max` that stops at the first certified period (the engine looks
                // at every doubling of its table, so this costs at most about twice the table
                // to the certificate).
                st.grow(max, Some(bounds), self.growth, true, engine, progress)?;
                if st.period.is_none() {
                    return Ok(PeriodSearch::NotCertified { checked_to: max });
                }
                continue;
            }
            let next = (len + len / 8).max(FIRST_STEP).min(max.saturating_add(1));
            st.grow(next - 1, Some(bounds), self.growth, false, engine, progress)?;
        }
    }
}

/// Why a heap game without [`MoveBounds`] has no period certificate.
const NO_BOUNDS: &str =
    "no bound on its moves is known (how many heaps a move leaves and how many \
     tokens it removes), so no computation can prove a period; a script declares them with \
     max_heaps() and max_removed()";

/// The options found so far: the first `limit` kept, all counted.
struct Collector {
    items: Vec<Vec<u64>>,
    limit: usize,
    total: u64,
}

impl Collector {
    fn new(limit: usize) -> Self {
        Collector {
            items: Vec::new(),
            limit,
            total: 0,
        }
    }

    fn push(&mut self, option: Vec<u64>) {
        self.total = self.total.saturating_add(1);
        if self.items.len() < self.limit {
            self.items.push(option);
        }
    }

    fn is_full(&self) -> bool {
        self.items.len() >= self.limit
    }

    /// Counts `count` more options without keeping them.
    fn count(&mut self, count: u64) {
        self.total = self.total.saturating_add(count);
    }

    fn into_listing(self) -> Listing<Vec<u64>> {
        Listing {
            items: self.items,
            total: Some(self.total),
        }
    }
}

/// The number of options of heap `n` under `code`, saturating.
pub(crate) fn count_options(code: &Code, n: u64) -> u64 {
    let for_amount = |t: u64, digit: u8| -> u64 {
        let s = n - t;
        let mut count: u64 = 0;
        if digit & LEAVE_NONE != 0 && s == 0 {
            count += 1;
        }
        if digit & LEAVE_ONE != 0 && s >= 1 && t >= 1 {
            count += 1;
        }
        if digit & LEAVE_TWO != 0 && s >= 2 {
            count += if code.unequal_splits() {
                (s - 1) / 2
            } else {
                s / 2
            };
        }
        if digit & LEAVE_THREE != 0 && s >= 3 {
            // partitions of s into three parts: round(s²/12)
            let s = s as u128;
            let triples = u64::try_from((s * s + 6) / 12).unwrap_or(u64::MAX);
            count = count.saturating_add(triples);
        }
        count
    };
    let mut count: u64 = 0;
    if n >= 1 {
        count = for_amount(0, code.d0());
    }
    for r in code.runs() {
        if r.lo > n {
            break;
        }
        let hi = r.hi.min(n);
        if r.digit & (LEAVE_TWO | LEAVE_THREE) == 0 {
            // one option per amount below n, plus taking the whole heap
            let below = hi.min(n - 1).saturating_sub(r.lo - 1);
            if r.digit & LEAVE_ONE != 0 {
                count = count.saturating_add(below);
            }
            if r.digit & LEAVE_NONE != 0 && hi == n {
                count = count.saturating_add(1);
            }
        } else {
            for t in r.lo..=hi {
                count = count.saturating_add(for_amount(t, r.digit));
            }
        }
    }
    count
}

/// The least m ≥ start with m ≡ base (mod period), if it fits in u64.
fn first_in_class(base: u64, start: u64, period: u64) -> Option<u64> {
    if base >= start {
        return Some(base);
    }
    let steps = (start - base).div_ceil(period) as u128;
    u64::try_from(base as u128 + steps * period as u128).ok()
}

/// Adds the numbers `first + k·period ≤ hi` of each class (one `first` per class, all in one
/// window of `period` consecutive numbers) to `found` as `make(m)`: counted in full, and kept in
/// increasing order up to the collector's limit.
fn collect_classes(
    mut firsts: Vec<u64>,
    hi: u64,
    period: u64,
    found: &mut Collector,
    make: impl Fn(u64) -> Vec<u64>,
) {
    firsts.retain(|&f| f <= hi);
    firsts.sort_unstable();
    let total = firsts
        .iter()
        .fold(0u64, |t, &f| t.saturating_add((hi - f) / period + 1));
    let mut round: u64 = 0;
    'rounds: while !found.is_full() {
        let step = match period.checked_mul(round) {
            Some(step) => step,
            None => break,
        };
        let mut any = false;
        for &f in &firsts {
            let Some(m) = f.checked_add(step).filter(|&m| m <= hi) else {
                continue;
            };
            any = true;
            if found.is_full() {
                break 'rounds;
            }
            found.items.push(make(m));
        }
        if !any {
            break;
        }
        round += 1;
    }
    found.count(total);
}

/// The heaps m in `lo..=hi` with G(m) = target, in increasing order.
fn matching_heaps(st: &State, lo: u64, hi: u64, target: u64, found: &mut Collector) {
    if lo > hi {
        return;
    }
    let len = st.table.len();
    let values = st.table.values();
    for m in lo..=hi.min(len.saturating_sub(1)) {
        if values[m as usize] as u64 == target {
            found.push(vec![m]);
        }
    }
    let start = lo.max(len);
    if start > hi {
        return;
    }
    let p = st
        .period
        .expect("heaps past the table are covered by a period");
    // m = n0 + r + j·p with values[n0 + r] == target
    let firsts: Vec<u64> = (0..p.period)
        .filter(|&r| values[(p.preperiod + r) as usize] as u64 == target)
        .filter_map(|r| first_in_class(p.preperiod + r, start, p.period))
        .collect();
    collect_classes(firsts, hi, p.period, found, |m| vec![m]);
}

/// The splits a + b = s (a ≤ b, a < b when `unequal`) with G(a) ⊕ G(b) = target, by
/// increasing a.
fn matching_pairs(st: &State, s: u64, unequal: bool, target: u64, found: &mut Collector) {
    let half = if unequal { (s - 1) / 2 } else { s / 2 };
    let len = st.table.len();
    let g = |m: u64| st.get(m).expect("covered");
    // Two equal heaps always cancel: that split (the symmetric move) comes first, since the
    // list may be cut short.
    let symmetric = !unequal && s.is_multiple_of(2) && target == 0;
    if symmetric {
        found.push(vec![s / 2, s / 2]);
    }
    for a in 1..=half.min(len.saturating_sub(1)) {
        if symmetric && a == s / 2 {
            continue;
        }
        if g(a) ^ g(s - a) == target {
            found.push(vec![a, s - a]);
        }
    }
    if half < len {
        return;
    }
    // a and s − a are both past the table, so both are periodic.
    let p = st
        .period
        .expect("heaps past the table are covered by a period");
    let values = st.table.values();
    let per = |r: u64| values[(p.preperiod + r) as usize] as u64;
    let firsts: Vec<u64> = (0..p.period)
        .filter(|&r| {
            // (s − a − n0) mod p with a = n0 + r + j·p; s ≥ 2·len > 2·n0 here.
            let other = ((s - 2 * p.preperiod) % p.period + p.period - r) % p.period;
            per(r) ^ per(other) == target
        })
        .filter_map(|r| first_in_class(p.preperiod + r, len, p.period))
        .collect();
    if symmetric && s / 2 >= len {
        // The middle split, listed first already, is in a class too: count and keep it once.
        let before = found.items.len();
        collect_classes(firsts, half, p.period, found, |a| vec![a, s - a]);
        found.total = found.total.saturating_sub(1);
        let middle = [s / 2, s / 2];
        if let Some(i) = found.items[before..].iter().position(|o| o[..] == middle) {
            found.items.remove(before + i);
        }
        return;
    }
    collect_classes(firsts, half, p.period, found, |a| vec![a, s - a]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;
    use crate::memory::Meter;

    fn solver(text: &str) -> HeapSolver {
        HeapSolver::new(text, Arc::new(Code::parse(text).unwrap()))
    }

    #[test]
    fn sparse_codes_answer_past_the_old_fixed_limit() {
        // 0.6 has no known period: heap 70,000 was refused (past 2^15) before the sparse
        // engine grew the table.
        let officers = solver("0.6");
        assert_eq!(officers.auto_limit(), None);
        let expected = super::super::rare::compute(
            &Code::parse("0.6").unwrap(),
            70_000,
            &Default::default(),
            &(),
        )
        .unwrap();
        assert_eq!(
            officers.nim_value(70_000).unwrap(),
            u64::from(expected[70_000])
        );
        // Smaller heaps come from the same table, larger ones grow it.
        assert_eq!(officers.nim_value(11).unwrap(), 4);
        assert_eq!(officers.nim_value(12).unwrap(), 0);
        assert_eq!(officers.nim_value(1000).unwrap(), u64::from(expected[1000]));
        // The winning moves are found from the grown table.
        let moves = officers.options_with_value(70_000, 0, 10).unwrap();
        for option in &moves.items {
            let x = option
                .iter()
                .fold(0, |x, &h| x ^ u64::from(expected[h as usize]));
            assert_eq!(x, 0, "{option:?}");
        }
    }

    #[test]
    fn past_the_memory_budget_the_answer_says_what_it_would_take() {
        let budget = Budget::unlimited().with_memory(1 << 20, Meter::Process);
        let officers = solver("0.6").with_budget(budget);
        let err = officers.nim_value(1 << 24).unwrap_err().to_string();
        // The run's 2 bytes a value (32 MiB), its period check (32 MiB), its rare list and
        // marks (9.5 MiB), and the 4 bytes a value of the table the solver keeps (64 MiB).
        assert!(
            err.contains("0.6: heap 16777216 needs the table to 16777216")
                && err.contains("needs about 137 MiB, more than the 1 MiB left"),
            "{err}"
        );
        // Taking-only codes keep the bitset engine and its fixed limit.
        assert_eq!(solver("0.33").auto_limit(), Some(1 << 21));
    }

    #[test]
    fn period_search_on_the_sparse_engine_matches_the_full_table() {
        for text in ["0.77", "0.137", "0.07", "4.7", "0.26"] {
            let code = Code::parse(text).unwrap();
            let bounds = code.certificate().unwrap();
            let found = match solver(text).period(1 << 14, &()).unwrap() {
                PeriodSearch::Certified(p) => p,
                other => panic!("{text}: {other:?}"),
            };
            let values = crate::heap::testing::values_of(&code, 1 << 14);
            assert_eq!(Some(found), find_period(&values, bounds), "{text}");
            // Too small a maximum certifies nothing.
            assert_eq!(
                solver(text).period(found.certified_at - 1, &()).unwrap(),
                PeriodSearch::NotCertified {
                    checked_to: found.certified_at - 1
                },
                "{text}"
            );
        }
    }

    /// `sprague period 0.16`: preperiod 105,351 and period 149,459, certified at 509,621 (in
    /// one run of the sparse engine to 2^19). Run with `cargo test --release -p sprague --lib
    /// heap::solver -- --ignored`.
    #[test]
    #[ignore]
    fn period_of_0_16() {
        let found = solver("0.16").period(1 << 20, &()).unwrap();
        assert_eq!(
            found,
            PeriodSearch::Certified(Periodicity {
                preperiod: 105_351,
                period: 149_459,
                certified_at: 509_621
            })
        );
    }
}
