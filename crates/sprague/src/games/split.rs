//! Chip splitting (seed 004, "棋子分裂") as a heap rule: `split:CLAUSE/CLAUSE/...`.
//!
//! A heap of n is a chip on node n of a line; a move takes one chip and replaces it by chips on
//! smaller nodes, as the clauses allow (a position's value is the XOR of its chips' values, the
//! seed's extension of the Sprague–Grundy theorem to splitting). The clauses:
//!
//! - `take=S`: remove s ∈ S tokens, leaving the rest as one heap (or nothing); S is a set such
//!   as `1-3,7`, or `any`;
//! - `into=K`: split the heap into k ∈ K nonempty heaps adding up to it; `into=K@S` removes s ∈
//!   S tokens first (`into=1@S` takes s and leaves one nonempty heap);
//! - `distinct=K[@S]`, `equal=K[@S]`: the same, with pieces of different sizes (Grundy's game
//!   is `split:distinct=2`), or all equal;
//! - `below=K`: replace the chip by k ∈ K chips on any smaller nodes (sizes free, repeats
//!   allowed, k = 0 removes it): the seed's chip splitting on a line, `below=1` is Nim.
//!
//! Lasker's Nim is `split:take=any/into=2`; Kayles `split:take=1-2/into=2@1-2`. Rules that are
//! a take-and-break code (only `take` and `into` with at most 3 pieces) run on the code's fast
//! engine, with certified periods; the others list their options (and a period is certified
//! where the moves are translation invariant: `take` and `into` only, every amount finite).

use crate::error::{Error, Result};
use crate::game::notation::parse_set;
use crate::heap::{Code, HeapRules, MoveBounds, Run};

/// The most pieces one clause may split a heap into.
pub const MAX_PIECES: u64 = 16;

/// How many tokens a clause removes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Amounts {
    /// These amounts (sorted, distinct).
    Set(Vec<u64>),
    /// Any amount from 1 up.
    Any,
}

impl Amounts {
    /// The amounts up to `n`.
    fn up_to(&self, n: u64) -> Vec<u64> {
        match self {
            Amounts::Set(set) => set.iter().copied().take_while(|&t| t <= n).collect(),
            Amounts::Any => (1..=n).collect(),
        }
    }

    fn text(&self) -> String {
        match self {
            Amounts::Any => "any".into(),
            Amounts::Set(set) => set_text(set),
        }
    }
}

/// What the pieces of a split must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pieces {
    /// Any sizes adding up to the heap.
    Any,
    /// Pairwise different sizes.
    Distinct,
    /// All the same size.
    Equal,
}

/// One kind of move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Clause {
    /// Remove an amount, leave the rest as one heap or nothing.
    Take(Amounts),
    /// Remove an amount (0 = nothing, for `into=K`), split the rest into k ∈ K pieces.
    Into {
        /// The numbers of pieces.
        pieces: Vec<u64>,
        /// The amounts removed first.
        removed: Amounts,
        /// What the pieces must be.
        kind: Pieces,
    },
    /// Replace the chip by k ∈ K chips on smaller nodes.
    Below(Vec<u64>),
}

/// A chip-splitting ruleset: the union of its clauses' moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SplitRules {
    /// The spec written back, e.g. `split:take=any/into=2`.
    pub spec: String,
    /// The clauses.
    pub clauses: Vec<Clause>,
}

/// A set written back with ranges: `1-3,7`.
fn set_text(set: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < set.len() {
        let mut j = i;
        while j + 1 < set.len() && set[j + 1] == set[j] + 1 {
            j += 1;
        }
        parts.push(if j > i {
            format!("{}-{}", set[i], set[j])
        } else {
            set[i].to_string()
        });
        i = j + 1;
    }
    parts.join(",")
}

fn amounts(text: &str, zero: bool) -> std::result::Result<Amounts, String> {
    if text.trim().eq_ignore_ascii_case("any") {
        return Ok(Amounts::Any);
    }
    let set = parse_set(text, "amount")?;
    if !zero && set.first() == Some(&0) {
        return Err("an amount removed must be at least 1".into());
    }
    Ok(Amounts::Set(set))
}

fn piece_counts(text: &str, least: u64) -> std::result::Result<Vec<u64>, String> {
    let set = parse_set(text, "number of pieces")?;
    if let Some(&k) = set.iter().find(|&&k| k < least || k > MAX_PIECES) {
        return Err(format!(
            "{k} pieces: a clause splits into {least} to {MAX_PIECES} pieces"
        ));
    }
    Ok(set)
}

/// Reads `split:`'s parameters.
///
/// # Errors
/// A message naming the clause that is wrong.
///
/// ```
/// use sprague::games::split::parse_split;
/// let lasker = parse_split("take=any/into=2").unwrap();
/// assert_eq!(lasker.spec, "split:take=any/into=2");
/// assert!(parse_split("into=1").is_err()); // splitting into one piece changes nothing
/// assert!(parse_split("cut=2").is_err());
/// ```
pub fn parse_split(params: &str) -> std::result::Result<SplitRules, String> {
    let mut clauses = Vec::new();
    for clause in params.split('/') {
        let clause = clause.trim();
        let Some((key, value)) = clause.split_once('=') else {
            return Err(format!(
                "'{clause}' is not a clause: write take=S, into=K, into=K@S, distinct=K, equal=K or below=K, joined by '/'"
            ));
        };
        let (count, removed) = match value.split_once('@') {
            Some((k, s)) => (k, Some(s)),
            None => (value, None),
        };
        let key = key.trim().to_ascii_lowercase();
        let parsed = match key.as_str() {
            "take" if removed.is_none() => Clause::Take(amounts(value, false)?),
            "into" | "distinct" | "equal" => {
                let kind = match key.as_str() {
                    "into" => Pieces::Any,
                    "distinct" => Pieces::Distinct,
                    _ => Pieces::Equal,
                };
                let removed = match removed {
                    Some(s) => amounts(s, true)?,
                    None => Amounts::Set(vec![0]),
                };
                let least = if removed == Amounts::Set(vec![0]) { 2 } else { 1 };
                let pieces = piece_counts(count, least).map_err(|e| {
                    if least == 2 {
                        format!("{e} (into=1 without removing tokens changes nothing; into=1@S removes S)")
                    } else {
                        e
                    }
                })?;
                Clause::Into {
                    pieces,
                    removed,
                    kind,
                }
            }
            "below" if removed.is_none() => Clause::Below(piece_counts(value, 0)?),
            _ => {
                return Err(format!(
                    "'{clause}' is not a clause: write take=S, into=K, into=K@S, distinct=K, equal=K or below=K"
                ))
            }
        };
        if !clauses.contains(&parsed) {
            clauses.push(parsed);
        }
    }
    if clauses.is_empty() {
        return Err("no clause".into());
    }
    let texts: Vec<String> = clauses.iter().map(clause_text).collect();
    Ok(SplitRules {
        spec: format!("split:{}", texts.join("/")),
        clauses,
    })
}

fn clause_text(clause: &Clause) -> String {
    match clause {
        Clause::Take(s) => format!("take={}", s.text()),
        Clause::Into {
            pieces,
            removed,
            kind,
        } => {
            let key = match kind {
                Pieces::Any => "into",
                Pieces::Distinct => "distinct",
                Pieces::Equal => "equal",
            };
            let at = match removed {
                Amounts::Set(s) if s == &[0] => String::new(),
                other => format!("@{}", other.text()),
            };
            format!("{key}={}{at}", set_text(pieces))
        }
        Clause::Below(k) => format!("below={}", set_text(k)),
    }
}

/// Every way to write `total` as `parts` pieces (non-decreasing, each at least `min`) of the
/// kind asked, pushed onto `out` (at most `limit` in all; `false` past it).
fn pieces(
    total: u64,
    parts: u64,
    min: u64,
    kind: Pieces,
    prefix: &mut Vec<u64>,
    out: &mut Vec<Vec<u64>>,
    limit: usize,
) -> bool {
    if out.len() > limit {
        return false;
    }
    if parts == 0 {
        if total == 0 {
            out.push(prefix.clone());
        }
        return true;
    }
    if parts == 1 {
        if total >= min {
            prefix.push(total);
            out.push(prefix.clone());
            prefix.pop();
        }
        return true;
    }
    let mut a = min;
    while a.saturating_mul(parts) <= total {
        prefix.push(a);
        let more = pieces(
            total - a,
            parts - 1,
            if kind == Pieces::Distinct { a + 1 } else { a },
            kind,
            prefix,
            out,
            limit,
        );
        prefix.pop();
        if !more {
            return false;
        }
        a += 1;
    }
    true
}

/// Multisets of `k` sizes from 1..`below` (non-decreasing, each at least `min`).
fn lower(
    below: u64,
    k: u64,
    min: u64,
    prefix: &mut Vec<u64>,
    out: &mut Vec<Vec<u64>>,
    limit: usize,
) -> bool {
    if out.len() > limit {
        return false;
    }
    if k == 0 {
        out.push(prefix.clone());
        return true;
    }
    for a in min..below {
        prefix.push(a);
        let more = lower(below, k - 1, a, prefix, out, limit);
        prefix.pop();
        if !more {
            return false;
        }
    }
    true
}

/// C(n, k), saturating.
fn choose(n: u64, k: u64) -> u64 {
    let mut c: u128 = 1;
    for i in 0..k.min(n) {
        c = c * u128::from(n - i) / u128::from(i + 1);
        if c > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    if k > n {
        0
    } else {
        c as u64
    }
}

/// The number of partitions of `m` into exactly `k` positive parts, saturating (a table of
/// m × k entries; `m` is bounded by the caller).
fn partition_count(m: u64, k: u64) -> u64 {
    if k == 0 {
        return u64::from(m == 0);
    }
    if m < k {
        return 0;
    }
    let m = m as usize;
    let k = k as usize;
    // p[j][s]: partitions of s into exactly j parts; p[j][s] = p[j][s - j] + p[j - 1][s - 1].
    let mut p = vec![vec![0u64; m + 1]; k + 1];
    p[0][0] = 1;
    for j in 1..=k {
        for s in j..=m {
            p[j][s] = p[j][s - j].saturating_add(p[j - 1][s - 1]);
        }
    }
    p[k][m]
}

impl SplitRules {
    /// The rules as a take-and-break code, when they are one: `take` and `into` clauses with
    /// at most 3 pieces of any sizes (or `distinct=2` alone: Grundy's game), splitting amounts
    /// finite.
    pub fn as_code(&self) -> Option<Code> {
        if self.clauses
            == [Clause::Into {
                pieces: vec![2],
                removed: Amounts::Set(vec![0]),
                kind: Pieces::Distinct,
            }]
        {
            return Some(Code::grundy());
        }
        let mut d0 = 0u8;
        let mut digits: std::collections::BTreeMap<u64, u8> = Default::default();
        let mut any_take = false;
        for clause in &self.clauses {
            match clause {
                Clause::Take(Amounts::Any) => any_take = true,
                Clause::Take(Amounts::Set(set)) => {
                    for &t in set {
                        *digits.entry(t).or_default() |= 3;
                    }
                }
                Clause::Into {
                    pieces,
                    removed,
                    kind: Pieces::Any,
                } => {
                    let Amounts::Set(set) = removed else {
                        return None;
                    };
                    let mut bits = 0u8;
                    for &k in pieces {
                        bits |= match k {
                            1 => 2,
                            2 => 4,
                            3 => 8,
                            _ => return None,
                        };
                    }
                    for &t in set {
                        if t == 0 {
                            d0 |= bits;
                        } else {
                            *digits.entry(t).or_default() |= bits;
                        }
                    }
                }
                _ => return None,
            }
        }
        let mut runs: Vec<Run> = digits
            .into_iter()
            .map(|(t, digit)| Run {
                lo: t,
                hi: t,
                digit,
            })
            .collect();
        if any_take {
            // Every amount may take: digit 3 past the last split amount; below it, each
            // amount's digit gains 3.
            let last = runs.last().map_or(0, |r| r.hi);
            let mut filled = Vec::new();
            for t in 1..=last {
                let digit = runs.iter().find(|r| r.lo == t).map_or(0, |r| r.digit);
                filled.push(Run {
                    lo: t,
                    hi: t,
                    digit: digit | 3,
                });
            }
            filled.push(Run {
                lo: last + 1,
                hi: u64::MAX,
                digit: 3,
            });
            runs = filled;
        }
        Code::new(d0, runs).ok()
    }

    /// Whether the options are generated under the limit: every option of heap `n`, or an
    /// error past `limit` of them.
    fn list(&self, n: u64, limit: usize) -> Result<Vec<Vec<u64>>> {
        let mut out = Vec::new();
        let mut prefix = Vec::new();
        let too_many = || {
            Error::Limit(format!(
                "a heap of {n} in {} has more than {limit} options to list",
                self.spec
            ))
        };
        for clause in &self.clauses {
            match clause {
                Clause::Take(s) => {
                    for t in s.up_to(n) {
                        out.push(if t == n { Vec::new() } else { vec![n - t] });
                    }
                }
                Clause::Into {
                    pieces: counts,
                    removed,
                    kind,
                } => {
                    let amounts = match removed {
                        Amounts::Set(set) => set.iter().copied().take_while(|&t| t <= n).collect(),
                        Amounts::Any => removed.up_to(n),
                    };
                    for t in amounts {
                        for &k in counts {
                            let rest = n - t;
                            if k == 1 && t == 0 {
                                continue;
                            }
                            match kind {
                                Pieces::Equal => {
                                    if rest >= k && rest.is_multiple_of(k) {
                                        out.push(vec![rest / k; k as usize]);
                                    }
                                }
                                _ => {
                                    if !pieces(rest, k, 1, *kind, &mut prefix, &mut out, limit) {
                                        return Err(too_many());
                                    }
                                }
                            }
                        }
                    }
                }
                Clause::Below(counts) => {
                    for &k in counts {
                        if !lower(n, k, 1, &mut prefix, &mut out, limit) {
                            return Err(too_many());
                        }
                    }
                }
            }
            if out.len() > limit {
                return Err(too_many());
            }
        }
        out.sort();
        out.dedup();
        Ok(out)
    }
}

/// The most options of one heap the rules list.
pub const OPTION_LIMIT: usize = 100_000;

impl HeapRules for SplitRules {
    fn options(&self, n: u64) -> Vec<Vec<u64>> {
        self.list(n, OPTION_LIMIT).unwrap_or_default()
    }

    fn try_options(&self, n: u64) -> Result<Vec<Vec<u64>>> {
        self.list(n, OPTION_LIMIT)
    }

    /// An upper bound on the options (before duplicates are removed), saturating.
    fn option_count(&self, n: u64) -> Option<u64> {
        let mut count = 0u64;
        for clause in &self.clauses {
            let add = match clause {
                Clause::Take(s) => s.up_to(n.min(1 << 24)).len() as u64,
                Clause::Into {
                    pieces, removed, ..
                } => {
                    let amounts = (n + 1).min(match removed {
                        Amounts::Set(s) => s.iter().take_while(|&&t| t <= n).count() as u64,
                        Amounts::Any => n + 1,
                    });
                    // At most the partitions of n into k parts, for each amount.
                    let per = pieces.iter().fold(0u64, |c, &k| {
                        let bound = if n > 1 << 16 {
                            choose(n, k.saturating_sub(1))
                        } else {
                            partition_count(n, k)
                        };
                        c.saturating_add(bound)
                    });
                    amounts.saturating_mul(per)
                }
                Clause::Below(counts) => counts.iter().fold(0u64, |c, &k| {
                    // Multisets of k sizes from n - 1 values: C(n + k - 2, k).
                    c.saturating_add(choose((n + k).saturating_sub(2), k))
                }),
            };
            count = count.saturating_add(add);
        }
        Some(count)
    }

    /// Translation invariant when every clause is `take` or `into` of any sizes with finite
    /// amounts.
    fn certificate(&self) -> Option<MoveBounds> {
        let mut bounds = MoveBounds {
            max_heaps: 1,
            max_removed: 0,
        };
        for clause in &self.clauses {
            match clause {
                Clause::Take(Amounts::Set(s)) => {
                    bounds.max_removed = bounds.max_removed.max(*s.last()?);
                }
                Clause::Into {
                    pieces,
                    removed: Amounts::Set(s),
                    kind: Pieces::Any,
                } => {
                    bounds.max_removed = bounds.max_removed.max(*s.last()?);
                    bounds.max_heaps = bounds.max_heaps.max(*pieces.last()?);
                }
                _ => return None,
            }
        }
        Some(bounds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::Tabulation;
    use proptest::prelude::*;
    use std::sync::Arc;

    /// G(0..=n) by the mex rule over the options listed (plain search on single heaps, where
    /// a split's value is the XOR of its pieces').
    fn brute(rules: &SplitRules, n: u64) -> Vec<u64> {
        let mut g = Vec::new();
        for h in 0..=n {
            let values: Vec<u64> = if h == 0 {
                Vec::new()
            } else {
                rules
                    .list(h, usize::MAX)
                    .unwrap()
                    .iter()
                    .map(|o| o.iter().fold(0, |x, &p| x ^ g[p as usize]))
                    .collect()
            };
            g.push(crate::solve::mex(&values));
        }
        g
    }

    fn table(rules: &SplitRules, n: u64) -> Vec<u64> {
        let mut t = Tabulation::new(Arc::new(rules.clone()));
        t.extend_to(n, &()).unwrap();
        t.values().iter().map(|&v| u64::from(v)).collect()
    }

    #[test]
    fn known_games_come_out() {
        // Lasker's Nim: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3.
        let lasker = parse_split("take=any/into=2").unwrap();
        assert_eq!(table(&lasker, 8), [0, 1, 2, 4, 3, 5, 6, 8, 7]);
        assert!(lasker.as_code().is_some());
        // Grundy's game.
        let grundy = parse_split("distinct=2").unwrap();
        assert_eq!(grundy.as_code(), Some(Code::grundy()));
        assert_eq!(table(&grundy, 10), [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0]);
        // Kayles.
        let kayles = parse_split("take=1-2/into=2@1-2").unwrap();
        assert_eq!(kayles.as_code(), Code::parse("0.77").ok());
        // Nim as chips moving down.
        let nim = parse_split("below=1/below=0").unwrap();
        assert_eq!(brute(&nim, 6), [0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(nim.spec, "split:below=1/below=0");
    }

    #[test]
    fn specs_are_written_back_and_errors_named() {
        assert_eq!(
            parse_split("TAKE=1,2,3/equal=2-4@0,1").unwrap().spec,
            "split:take=1-3/equal=2-4@0-1"
        );
        for bad in [
            "", "take", "take=0", "into=1", "into=17", "below=x", "into=2@", "split=2", "take=1@2",
        ] {
            assert!(parse_split(bad).is_err(), "{bad}");
        }
    }

    /// Rules the fast engine cannot run (distinct, equal, below, more than 3 pieces) are
    /// tabulated from their options: the table equals plain mex over the options, and rules
    /// that are codes equal the code's own table.
    #[test]
    fn tables_match_plain_search() {
        for spec in [
            "into=4",
            "distinct=3",
            "equal=2/take=1",
            "equal=2-3@1",
            "below=2",
            "below=0,2",
            "below=1-2/take=2",
            "distinct=2@1/take=1",
            "into=2-4@0-1",
            "take=any/into=3",
        ] {
            let rules = parse_split(spec).unwrap();
            assert_eq!(table(&rules, 24), brute(&rules, 24), "{spec}");
            if let Some(code) = rules.as_code() {
                let mut t = Tabulation::new(Arc::new(code));
                t.extend_to(24, &()).unwrap();
                let values: Vec<u64> = t.values().iter().map(|&v| u64::from(v)).collect();
                assert_eq!(values, brute(&rules, 24), "{spec} as a code");
            }
        }
    }

    /// Random rules: the table (by the fast engine when the rules are a code, else by listing)
    /// and the options each heap lists agree with a direct reading of the clauses.
    fn clause() -> impl Strategy<Value = String> {
        prop_oneof![
            (1u64..4, 0u64..3).prop_map(|(a, b)| format!("take={a}-{}", a + b)),
            Just("take=any".to_string()),
            (1u64..4, 0u64..3).prop_map(|(k, t)| format!("into={}@{t}", k + 1)),
            (2u64..4).prop_map(|k| format!("distinct={k}")),
            (2u64..4, 0u64..2).prop_map(|(k, t)| format!("equal={k}@{t}")),
            (0u64..3).prop_map(|k| format!("below={k}")),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn random_rules_match_plain_search(clauses in proptest::collection::vec(clause(), 1..4)) {
            let spec = clauses.join("/");
            let rules = parse_split(&spec).unwrap();
            let n = 18;
            let expected = brute(&rules, n);
            prop_assert_eq!(&table(&rules, n), &expected, "{}", spec);
            if let Some(code) = rules.as_code() {
                for h in 1..=n {
                    let mut a = code.options(h);
                    a.iter_mut().for_each(|o| o.sort_unstable());
                    a.sort();
                    a.dedup();
                    prop_assert_eq!(a, rules.list(h, usize::MAX).unwrap(), "{} heap {}", spec, h);
                }
            }
            for h in 1..=n {
                let listed = rules.list(h, usize::MAX).unwrap().len() as u64;
                prop_assert!(rules.option_count(h).unwrap() >= listed, "{} heap {}", spec, h);
                for option in rules.list(h, usize::MAX).unwrap() {
                    prop_assert!(option.iter().all(|&p| p >= 1 && p < h), "{} {:?}", spec, option);
                }
            }
        }
    }

    #[test]
    fn huge_option_lists_are_refused() {
        let rules = parse_split("into=8").unwrap();
        assert!(rules.option_count(200).unwrap() > OPTION_LIMIT as u64);
        assert!(matches!(rules.try_options(400), Err(Error::Limit(_))));
    }
}
