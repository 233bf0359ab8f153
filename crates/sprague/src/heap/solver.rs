//! The shared, cached evaluation of one heap game, and its type-erased game and heaps.

use super::code::{Code, LEAVE_NONE, LEAVE_ONE, LEAVE_THREE, LEAVE_TWO};
use super::{
    find_period, HeapRules, HeapValues, MoveBounds, PeriodSearch, Periodicity, Table, Tabulation,
};
use crate::analysis::{Component, ComponentMove, ComponentRef, GameDef, Parsed};
use crate::error::{Error, Result};
use crate::game::NimValue;
use crate::progress::Progress;
use crate::spec::parse_heaps;
use serde_json::Value as Json;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

/// Heaps split in three are searched for winning moves only up to this size.
const MAX_TRIPLE_SEARCH: u64 = 2000;

/// The first table size tried when looking for a period.
const FIRST_STEP: u64 = 1024;

struct State {
    table: Tabulation,
    period: Option<Periodicity>,
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

    /// Extends the table to `to` and looks for a period if none is known.
    fn grow(&mut self, to: u64, bounds: Option<MoveBounds>, progress: &dyn Progress) -> Result<()> {
        self.table.extend_to(to, progress)?;
        if let (None, Some(b)) = (self.period, bounds) {
            self.period = find_period(self.table.values(), b);
        }
        Ok(())
    }
}

/// One heap game's values, computed once and shared by every heap of the game: the table grows
/// on demand, and a certified period, once found, answers any heap up to 2^64 − 1.
pub struct HeapSolver {
    spec: String,
    rules: Arc<dyn HeapRules>,
    bounds: Option<MoveBounds>,
    auto_limit: u64,
    state: Mutex<State>,
}

impl HeapSolver {
    /// A solver for `rules`, named `spec` in messages.
    pub fn new(spec: impl Into<String>, rules: Arc<dyn HeapRules>) -> Self {
        let bounds = rules.certificate();
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
            state: Mutex::new(State {
                table: Tabulation::new(rules.clone()),
                period: None,
            }),
            rules,
        }
    }

    /// The game's spec.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<dyn HeapRules> {
        &self.rules
    }

    /// The largest heap evaluated by tabulation alone when no period is certified.
    pub fn auto_limit(&self) -> u64 {
        self.auto_limit
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
            st.grow(next.min(self.auto_limit + 1) - 1, self.bounds, &())?;
        }
    }

    /// The nim value of one heap.
    ///
    /// # Errors
    /// [`Error::Limit`] for a heap past [`HeapSolver::auto_limit`] when no period is certified.
    pub fn nim_value(&self, n: u64) -> Result<u64> {
        let st = self.ensure(n)?;
        st.get(n)
            .ok_or_else(|| Error::Internal(format!("heap {n} not evaluated")))
    }
}

impl HeapValues for HeapSolver {
    fn table(&self, to: u64, progress: &dyn Progress) -> Result<Table> {
        let mut st = self.lock();
        st.table.extend_to(to, progress)?;
        let values = &st.table.values()[..=to as usize];
        let period = self.bounds.and_then(|b| find_period(values, b));
        Ok(Table {
            values: values.iter().map(|&g| g as u64).collect(),
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
        // Only splitting codes need the sparse engine; subtraction-like codes are faster here.
        if !code.splits() || super::rare::unsupported_reason(code).is_some() {
            return None;
        }
        Some((|| {
            let to = usize::try_from(to)
                .map_err(|_| Error::Limit(format!("a table to {to} does not fit in memory")))?;
            let run = super::rare::run(code, to, options, progress)?;
            Ok(Table {
                values: run.values.into_iter().map(u64::from).collect(),
                period: run.period,
            })
        })())
    }

    fn period(&self, max: u64, progress: &dyn Progress) -> Result<PeriodSearch> {
        let Some(bounds) = self.bounds else {
            // No certificate applies (unbounded removals, or moves that are not translation
            // invariant): nothing to compute can prove a period.
            return Ok(PeriodSearch::NotCertified { checked_to: max });
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
            let next = (len + len / 8).max(FIRST_STEP).min(max.saturating_add(1));
            st.grow(next - 1, Some(bounds), progress)?;
        }
    }
}

/// A heap game chosen at run time: its spec and its shared [`HeapSolver`].
pub struct HeapGame {
    solver: Arc<HeapSolver>,
}

impl HeapGame {
    /// The game `spec` with these rules.
    pub fn new(spec: impl Into<String>, rules: Arc<dyn HeapRules>) -> Self {
        HeapGame {
            solver: Arc::new(HeapSolver::new(spec, rules)),
        }
    }

    /// The shared solver.
    pub fn solver(&self) -> &Arc<HeapSolver> {
        &self.solver
    }
}

impl GameDef for HeapGame {
    fn spec(&self) -> String {
        self.solver.spec.clone()
    }

    fn parse_position(&self, args: &[String]) -> Result<Parsed> {
        let heaps = parse_heaps(&self.solver.spec, args)?;
        Ok(Parsed::Parts(
            heaps
                .into_iter()
                .filter(|&h| h > 0)
                .map(|h| Arc::new(HeapComponent::new(self.solver.clone(), h)) as ComponentRef)
                .collect(),
        ))
    }

    fn heap(&self) -> Option<Arc<dyn HeapValues>> {
        Some(self.solver.clone())
    }
}

/// One heap of a heap game, as a summand.
#[derive(Clone)]
pub struct HeapComponent {
    solver: Arc<HeapSolver>,
    heap: u64,
}

impl HeapComponent {
    /// A heap of `heap` tokens.
    pub fn new(solver: Arc<HeapSolver>, heap: u64) -> Self {
        HeapComponent { solver, heap }
    }

    /// The heap size.
    pub fn heap(&self) -> u64 {
        self.heap
    }

    fn to_parts(&self, parts: &[u64]) -> ComponentMove {
        let text = if parts.is_empty() {
            format!("{} -> 0", self.heap)
        } else {
            let sizes: Vec<String> = parts.iter().map(u64::to_string).collect();
            format!("{} -> {}", self.heap, sizes.join("+"))
        };
        ComponentMove {
            text,
            parts: parts
                .iter()
                .filter(|&&h| h > 0)
                .map(|&h| Arc::new(HeapComponent::new(self.solver.clone(), h)) as ComponentRef)
                .collect(),
        }
    }

    fn too_many(&self, limit: usize) -> Error {
        Error::Limit(format!(
            "a heap of {} in {} has more than {limit} options to list",
            self.heap, self.solver.spec
        ))
    }
}

impl fmt::Display for HeapComponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.heap)
    }
}

/// The number of options of heap `n` under `code`, saturating.
fn count_options(code: &Code, n: u64) -> u64 {
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

/// The heaps m in `lo..=hi` with G(m) = target, in increasing order.
fn matching_heaps(
    st: &State,
    lo: u64,
    hi: u64,
    target: u64,
    limit: usize,
    out: &mut Vec<u64>,
) -> std::result::Result<(), ()> {
    if lo > hi {
        return Ok(());
    }
    let len = st.table.len();
    let values = st.table.values();
    for m in lo..=hi.min(len.saturating_sub(1)) {
        if values[m as usize] as u64 == target {
            out.push(m);
            if out.len() > limit {
                return Err(());
            }
        }
    }
    let start = lo.max(len);
    if start > hi {
        return Ok(());
    }
    let p = st
        .period
        .expect("heaps past the table are covered by a period");
    // m = n0 + r + j·p with values[n0 + r] == target
    let mut found = Vec::new();
    for r in 0..p.period {
        if values[(p.preperiod + r) as usize] as u64 != target {
            continue;
        }
        let Some(mut m) = first_in_class(p.preperiod + r, start, p.period) else {
            continue;
        };
        while m <= hi {
            found.push(m);
            if out.len() + found.len() > limit {
                return Err(());
            }
            match m.checked_add(p.period) {
                Some(x) => m = x,
                None => break,
            }
        }
    }
    found.sort_unstable();
    out.extend(found);
    Ok(())
}

/// The splits a + b = s (a ≤ b, a < b when `unequal`) with G(a) ⊕ G(b) = target; returns the
/// values of a.
fn matching_pairs(
    st: &State,
    s: u64,
    unequal: bool,
    target: u64,
    limit: usize,
    out: &mut Vec<u64>,
) -> std::result::Result<(), ()> {
    let half = if unequal { (s - 1) / 2 } else { s / 2 };
    let len = st.table.len();
    let g = |m: u64| st.get(m).expect("covered");
    for a in 1..=half.min(len.saturating_sub(1)) {
        if g(a) ^ g(s - a) == target {
            out.push(a);
            if out.len() > limit {
                return Err(());
            }
        }
    }
    if half < len {
        return Ok(());
    }
    // a and s − a are both past the table, so both are periodic.
    let p = st
        .period
        .expect("heaps past the table are covered by a period");
    let values = st.table.values();
    let per = |r: u64| values[(p.preperiod + r) as usize] as u64;
    let mut found = Vec::new();
    for r in 0..p.period {
        let base = p.preperiod + r;
        // (s − a − n0) mod p with a = n0 + r + j·p; s ≥ 2·len > 2·n0 here.
        let other = ((s - 2 * p.preperiod) % p.period + p.period - r) % p.period;
        if per(r) ^ per(other) != target {
            continue;
        }
        let Some(mut a) = first_in_class(base, len, p.period) else {
            continue;
        };
        while a <= half {
            found.push(a);
            if out.len() + found.len() > limit {
                return Err(());
            }
            match a.checked_add(p.period) {
                Some(x) => a = x,
                None => break,
            }
        }
    }
    found.sort_unstable();
    out.extend(found);
    Ok(())
}

impl Component for HeapComponent {
    fn game(&self) -> String {
        self.solver.spec.clone()
    }

    fn to_json(&self) -> Json {
        Json::from(self.heap)
    }

    fn nim_value(&self) -> Result<NimValue> {
        Ok(NimValue::Finite(self.solver.nim_value(self.heap)?))
    }

    fn options(&self, limit: usize) -> Result<Vec<ComponentMove>> {
        if let Some(code) = self.solver.rules.code() {
            if count_options(code, self.heap) > limit as u64 {
                return Err(self.too_many(limit));
            }
        }
        let options = self.solver.rules.try_options(self.heap)?;
        if options.len() > limit {
            return Err(self.too_many(limit));
        }
        Ok(options.iter().map(|o| self.to_parts(o)).collect())
    }

    fn options_with_value(&self, target: u64, limit: usize) -> Result<Vec<ComponentMove>> {
        let Some(code) = self.solver.rules.code() else {
            let mut out = Vec::new();
            for option in self.options(limit)? {
                if crate::analysis::parts_value(&option.parts)? == NimValue::Finite(target) {
                    out.push(option);
                }
            }
            return Ok(out);
        };
        let n = self.heap;
        let st = self.solver.ensure(n)?;
        let too_many = || {
            Error::Limit(format!(
                "a heap of {n} in {} has more than {limit} options of nim value {target} to list",
                self.solver.spec
            ))
        };
        let mut out = Vec::new();
        // Taking the whole heap.
        if target == 0 && n >= 1 && code.digit(n) & LEAVE_NONE != 0 {
            out.push(self.to_parts(&[]));
        }
        // Leaving one heap m = n − t.
        for r in code.runs() {
            if r.lo >= n {
                break;
            }
            if r.digit & LEAVE_ONE == 0 {
                continue;
            }
            let mut heaps = Vec::new();
            let (lo, hi) = (n - r.hi.min(n - 1), n - r.lo);
            matching_heaps(&st, lo, hi, target, limit, &mut heaps).map_err(|_| too_many())?;
            for m in heaps.into_iter().rev() {
                out.push(self.to_parts(&[m]));
            }
            if out.len() > limit {
                return Err(too_many());
            }
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
                let mut firsts = Vec::new();
                matching_pairs(&st, s, code.unequal_splits(), target, limit, &mut firsts)
                    .map_err(|_| too_many())?;
                for a in firsts {
                    out.push(self.to_parts(&[a, s - a]));
                }
            }
            if digit & LEAVE_THREE != 0 && s >= 3 {
                if s > MAX_TRIPLE_SEARCH {
                    return Err(Error::Limit(format!(
                        "{}: splits of more than {MAX_TRIPLE_SEARCH} tokens into three heaps are not searched for moves",
                        self.solver.spec
                    )));
                }
                let g = |m: u64| st.get(m).expect("covered");
                for a in 1..=s / 3 {
                    for b in a..=(s - a) / 2 {
                        let c = s - a - b;
                        if g(a) ^ g(b) ^ g(c) == target {
                            out.push(self.to_parts(&[a, b, c]));
                        }
                    }
                }
            }
            if out.len() > limit {
                return Err(too_many());
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::testing::values_of;
    use proptest::prelude::*;

    /// A code's rules without the code, so the generic engine runs.
    struct OptionsOnly(Code);

    impl HeapRules for OptionsOnly {
        fn options(&self, n: u64) -> Vec<Vec<u64>> {
            self.0.options(n)
        }
    }

    struct Backwards;

    impl HeapRules for Backwards {
        fn options(&self, n: u64) -> Vec<Vec<u64>> {
            vec![vec![n]]
        }
    }

    fn texts(moves: Vec<ComponentMove>) -> Vec<String> {
        let mut t: Vec<String> = moves.into_iter().map(|m| m.text).collect();
        t.sort();
        t
    }

    #[test]
    fn rules_that_do_not_shrink_heaps_are_reported() {
        let mut t = Tabulation::new(Arc::new(Backwards));
        assert!(matches!(t.extend_to(3, &()), Err(Error::Cycle(_))));
    }

    #[test]
    fn huge_heaps_of_periodic_subtraction_games_answer_from_the_period() {
        let solver = Arc::new(HeapSolver::new(
            "sub:1,3,4",
            Arc::new(Code::subtraction(&[1, 3, 4]).unwrap()),
        ));
        let pattern = [0, 1, 0, 1, 2, 3, 2];
        for n in [10u64.pow(15), u64::MAX, u64::MAX - 3] {
            let heap = HeapComponent::new(solver.clone(), n);
            assert_eq!(
                heap.nim_value().unwrap(),
                NimValue::Finite(pattern[(n % 7) as usize])
            );
            for target in 0..4 {
                let fast = texts(heap.options_with_value(target, 100).unwrap());
                let slow = texts(
                    heap.options(100)
                        .unwrap()
                        .into_iter()
                        .filter(|o| {
                            crate::analysis::parts_value(&o.parts).unwrap()
                                == NimValue::Finite(target)
                        })
                        .collect(),
                );
                assert_eq!(fast, slow, "heap {n} target {target}");
            }
        }
    }

    #[test]
    fn allbut_heaps_past_the_table_are_a_limit() {
        let solver = Arc::new(HeapSolver::new(
            "allbut:2",
            Arc::new(Code::all_but(&[2]).unwrap()),
        ));
        let heap = HeapComponent::new(solver.clone(), 1 << 40);
        assert!(matches!(heap.nim_value(), Err(Error::Limit(_))));
        assert!(matches!(
            solver.period(1000, &()).unwrap(),
            PeriodSearch::NotCertified { checked_to: 1000 }
        ));
    }

    #[test]
    fn tables_carry_the_period_they_certify() {
        let solver = HeapSolver::new("kayles", Arc::new(Code::parse("0.77").unwrap()));
        let short = solver.table(100, &()).unwrap();
        assert_eq!(short.values.len(), 101);
        assert_eq!(short.period, None); // needs 2·71 + 2·12 + 2 = 168 values
        let long = solver.table(200, &()).unwrap();
        assert_eq!(
            long.period.map(|p| (p.preperiod, p.period, p.certified_at)),
            Some((71, 12, 167))
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn the_generic_engine_agrees_with_the_code_engine(
            d0 in prop_oneof![Just(0u8), Just(4), Just(8), Just(12)],
            digits in prop::collection::vec(0u8..16, 1..=4),
        ) {
            let runs = digits
                .iter()
                .enumerate()
                .map(|(i, &d)| crate::heap::Run { lo: i as u64 + 1, hi: i as u64 + 1, digit: d })
                .collect();
            let code = Code::new(d0, runs).unwrap();
            let mut generic = Tabulation::new(Arc::new(OptionsOnly(code.clone())));
            generic.extend_to(120, &()).unwrap();
            let generic: Vec<u64> = generic.values().iter().map(|&g| g as u64).collect();
            prop_assert_eq!(generic, values_of(&code, 120));
        }
    }

    #[test]
    fn option_counts_match_the_listed_options() {
        for code in ["0.77", "0.6", "4.0F", "0.8C3", "0.137"] {
            let c = Code::parse(code).unwrap();
            for n in 0..25 {
                assert_eq!(
                    count_options(&c, n),
                    c.options(n).len() as u64,
                    "{code} at {n}"
                );
            }
        }
        let g = Code::grundy();
        for n in 0..25 {
            assert_eq!(count_options(&g, n), g.options(n).len() as u64);
        }
        let ab = Code::all_but(&[2, 5]).unwrap();
        for n in 0..25 {
            assert_eq!(count_options(&ab, n), ab.options(n).len() as u64);
        }
    }
}
