//! The misère quotient of the closure of heaps 0..N of a heap game, after Plambeck and Siegel.
//!
//! A *word* is a sum of heaps, written as how many heaps of each size it has. A *pretension*
//! is a finite commutative monoid Q with a subset P and a map Φ from heap sizes to Q; it
//! *predicts* that a word w is a misère P-position iff Φ(w) ∈ P. The quotient is the
//! pretension that predicts every word correctly and is *reduced* (no two elements x ≠ y with
//! xz ∈ P ⇔ yz ∈ P for every z).
//!
//! ## Verification
//! A pretension is correct iff every word obeys the misère rule under its predictions: a word
//! with no move is N, and a word with moves is P iff none of its options is predicted P. The
//! options of w + h (h one heap) have images Φ(h)·T(w) ∪ Φ(w)·T(h), where T(x) is the set of
//! option images of x, so the rule is checked on the states (Φ(w), T(w)):
//! - *P-check*: for every element x and heap h, if xΦ(h) ∈ P then no xt (t ∈ T(h)) is in P.
//!   This covers every word, since every element is the image of some word;
//! - *N-check*: a walk over words in colex order (the count of the largest heap first) that
//!   stops at the first word predicted N whose option images miss P. A word whose state
//!   (e, T) has the same e as an earlier word and a T containing the earlier T is skipped with
//!   all its extensions: T only grows along extensions, and a failure there would show a
//!   failure at the earlier word's extension too. The states are finite, so the walk ends.
//!
//! Both checks return the *colex-least* failing word. All words below the least failure are
//! predicted correctly (by induction on the colex order, a well-order in which every option of
//! a word is smaller), so the least failure itself is predicted wrongly: its true outcome is
//! the other one.
//!
//! ## Search
//! Heaps are added one at a time. A new heap first tries each element x of the current
//! quotient (a *conservative extension*: only x with the outcome of the heap itself, passing
//! the P-check for the new heap, and the N-check on words that contain it). If none fits, the
//! quotient is multiplied by a cyclic monoid for the new heap, the P-portion is *marked* by the
//! misère rule on the colex-least word of each element, reduced, and verified. On a failure w,
//! the candidate is *recalibrated*: some heaps of w get cyclic generators of their own (index
//! above their count in w, period a multiple of their old period), the others keep their old
//! images. The new candidate's kernel lies in the old one's, so every word below w stays
//! predicted correctly; when w shares its image with no smaller word (certain once every heap
//! of w is free), marking predicts w correctly, and the least failure moves up. Smaller sets of
//! freed heaps are tried first. Candidates beyond the bounds of [`QuotientOptions`] stop the
//! search as a *runaway* ([`Runaway`]), reported as an infinite quotient.
//!
//! ## Periodicity
//! If Φ(n + p) = Φ(n) for n0 ≤ n ≤ N − p and N ≥ h·(n0 + p) + k, for a game whose moves remove
//! at most k tokens and leave at most h heaps in a translation-invariant way
//! ([`crate::heap::MoveBounds`]), then the same holds for every N: every option of a heap
//! n > N has a part of size above n0 + p, and shifting it by p matches the options of n and
//! n − p image for image, so heap n duplicates heap n − p and changes nothing. The quotient is
//! then the quotient of the whole game ([`Quotient::period`]).

use super::heaps::HeapOptions;
use super::monoid::{reduce, submonoid, Candidate, Cyclic, Monoid, Table};
use crate::error::{Error, Result};
use crate::game::Outcome;
use crate::heap::HeapRules;
use crate::progress::Progress;
use serde::Serialize;
use std::cmp::Ordering;
use std::fmt;
use std::time::Instant;

/// The largest heap size a quotient may be computed to.
pub const MAX_HEAP: u64 = 1 << 14;

/// The most heaps [`Quotient::compute_for`] adds while waiting for a proven period, when no
/// heap is named.
pub const UNTIL_CERTIFIED_HEAPS: u64 = 300;

/// Bounds of the quotient search; past any of them it stops as a [`Runaway`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuotientOptions {
    /// The largest order of a (reduced) quotient; its table takes order² · 4 bytes.
    pub max_order: usize,
    /// The most elements of a candidate before reduction (no table is built for these).
    pub max_candidate: usize,
    /// The most states one verification walk may keep.
    pub max_states: usize,
    /// The most recalibrations for one heap.
    pub max_recalibrations: usize,
    /// When to give up: past it the computation stops with [`Error::Limit`] (not a runaway:
    /// nothing is known of the quotient's size). `None`: no time limit.
    pub deadline: Option<Instant>,
}

impl Default for QuotientOptions {
    fn default() -> Self {
        QuotientOptions {
            max_order: 4096,
            max_candidate: 1 << 21,
            max_states: 1 << 22,
            max_recalibrations: 2000,
            deadline: None,
        }
    }
}

fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// Why a quotient search stopped before reaching its last heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunawayLimit {
    /// A quotient would have more elements than [`QuotientOptions::max_order`].
    Order(usize),
    /// A candidate would have more elements than [`QuotientOptions::max_candidate`].
    Candidate(usize),
    /// A verification walk would keep more states than [`QuotientOptions::max_states`].
    States(usize),
    /// A heap needed more recalibrations than [`QuotientOptions::max_recalibrations`].
    Recalibrations(usize),
    /// [`QuotientOptions::deadline`] passed ([`Quotient::compute`] answers [`Error::Limit`]
    /// then, never a runaway).
    Time,
}

/// A search that outgrew its bounds: the quotient of heaps up to `heap` was not found, and is
/// taken to be infinite (or too large to handle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Runaway {
    /// The heap at which the search stopped; the quotient covers the heaps below it.
    pub heap: u64,
    /// The bound that was passed.
    pub limit: RunawayLimit,
}

impl fmt::Display for Runaway {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.limit {
            RunawayLimit::Order(n) => format!("the quotient has more than {n} elements"),
            RunawayLimit::Candidate(n) => format!("a candidate has more than {n} elements"),
            RunawayLimit::States(n) => format!("a verification keeps more than {n} states"),
            RunawayLimit::Recalibrations(n) => format!("more than {n} recalibrations"),
            RunawayLimit::Time => "the time limit passed".into(),
        };
        write!(f, "at heap {}: {what}", self.heap)
    }
}

/// Periodicity of the map from heap sizes to elements, proven for all heap sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct QuotientPeriod {
    /// The least n0 with Φ(n + period) = Φ(n) for every n ≥ n0.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
    /// The heap size h·(n0 + p) + k the computation had to reach to prove it.
    pub certified_at: u64,
}

/// A move in a sum of heaps: heap `component` (of size `from`) is replaced by `leaves`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SumMove {
    /// The index of the heap moved in.
    pub component: usize,
    /// Its size.
    pub from: u64,
    /// The heaps it leaves (possibly none).
    pub leaves: Vec<u64>,
    /// The whole position after the move: the other heaps in order, the leaves in place.
    pub position: Vec<u64>,
}

/// A generator of a quotient's presentation: the image of the first heap that needs it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Generator {
    /// Its name: a, b, c, …
    pub name: String,
    /// The heap size it is the image of.
    pub heap: u64,
    /// Its element.
    pub element: u32,
}

/// A presentation of a quotient: generators, and relations that generate all others.
///
/// Every element has a *normal form*, the colex-least word in the generators (the exponent of
/// the last generator compared first). Normal forms are closed under taking subwords, so the
/// words that are not normal are those containing a minimal one; the relations are
/// `m = normal form of m` for each minimal non-normal word m, and rewrite every word to its
/// normal form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Presentation {
    /// The generators, in heap order.
    pub generators: Vec<Generator>,
    /// The relations as text, `a^2 = 1`.
    pub relations: Vec<String>,
    /// The normal form of each element, as text (`1` for the identity).
    pub words: Vec<String>,
}

impl fmt::Display for Presentation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.generators.iter().map(|g| g.name.as_str()).collect();
        write!(f, "<{}", names.join(", "))?;
        if !self.relations.is_empty() {
            write!(f, " | {}", self.relations.join(", "))?;
        }
        write!(f, ">")
    }
}

/// The misère quotient of heaps 0..=max_heap of a heap game; elements are 0..order, 0 the
/// identity, numbered by their normal forms in colex order.
///
/// ```
/// use sprague::game::Outcome;
/// use sprague::heap::Code;
/// use sprague::quotient::{Quotient, QuotientOptions};
/// // 0.3: take one token. Heaps are *0 and *1 alternately; the quotient is Z2 = {1, a}.
/// let search = Quotient::compute(&Code::parse("0.3").unwrap(), 10, &QuotientOptions::default(), &())?;
/// let q = search.finite().expect("a finite quotient");
/// assert_eq!((q.order(), q.p_portion()), (2, vec![1]));
/// assert_eq!(q.outcome(&[1, 1])?, Outcome::N);
/// assert_eq!(q.outcome(&[3, 5, 7])?, Outcome::P);
/// assert!(q.period().is_some());
/// # Ok::<(), sprague::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quotient {
    table: Table,
    p: Vec<bool>,
    phi: Vec<u32>,
    period: Option<QuotientPeriod>,
    presentation: Presentation,
}

/// What a quotient search found: the quotient, or a runaway with the quotient of the heaps
/// below the one where it stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Search {
    /// The quotient of every heap up to the one asked for.
    Finite(Quotient),
    /// The search outgrew its bounds.
    Runaway {
        /// Where and why it stopped.
        runaway: Runaway,
        /// The quotient of the heaps below `runaway.heap`.
        below: Quotient,
    },
}

impl Search {
    /// The quotient, if the search finished.
    pub fn finite(self) -> Option<Quotient> {
        match self {
            Search::Finite(q) => Some(q),
            Search::Runaway { .. } => None,
        }
    }

    /// The quotient, or the runaway as an [`Error::Limit`].
    pub fn into_result(self) -> Result<Quotient> {
        match self {
            Search::Finite(q) => Ok(q),
            Search::Runaway { runaway, .. } => Err(Error::Limit(format!(
                "the misère quotient runs away {runaway}; it may be infinite"
            ))),
        }
    }
}

/// A word: how many heaps of each size.
type Word = Vec<u32>;

/// Compares words in colex order: the largest heap size where they differ decides.
fn colex(a: &[u32], b: &[u32]) -> Ordering {
    let n = a.len().max(b.len());
    for i in (0..n).rev() {
        let (x, y) = (
            a.get(i).copied().unwrap_or(0),
            b.get(i).copied().unwrap_or(0),
        );
        if x != y {
            return x.cmp(&y);
        }
    }
    Ordering::Equal
}

/// A pretension under construction: a monoid, P, Φ and the option images T of each heap.
struct Pretension<M> {
    monoid: M,
    p: Vec<bool>,
    phi: Vec<u32>,
    trans: Vec<Vec<u32>>,
    /// The heaps that matter: with a move, and not a copy (same Φ and T) of a smaller heap.
    active: Vec<usize>,
}

impl<M: Monoid> Pretension<M> {
    fn new(monoid: M, p: Vec<bool>, phi: Vec<u32>, heaps: &HeapOptions) -> Pretension<M> {
        let trans: Vec<Vec<u32>> = (0..phi.len())
            .map(|n| images(&monoid, &phi, &heaps.options[n]))
            .collect();
        let mut active = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for n in 1..phi.len() {
            if !trans[n].is_empty() && seen.insert((phi[n], trans[n].clone())) {
                active.push(n);
            }
        }
        Pretension {
            monoid,
            p,
            phi,
            trans,
            active,
        }
    }

    fn image(&self, word: &[u32]) -> u32 {
        let mut x = 0;
        for (h, &c) in word.iter().enumerate() {
            for _ in 0..c {
                x = self.monoid.mul(x, self.phi[h]);
            }
        }
        x
    }
}

/// The images of a heap's options: sorted, without repeats.
fn images<M: Monoid>(monoid: &M, phi: &[u32], options: &[Vec<u32>]) -> Vec<u32> {
    let mut out: Vec<u32> = options
        .iter()
        .map(|o| o.iter().fold(0, |x, &h| monoid.mul(x, phi[h as usize])))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The option images of w + h, from those of w (image `e`, options `t`) and of heap h.
fn step<M: Monoid>(monoid: &M, e: u32, t: &[u32], g: u32, heap: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = t
        .iter()
        .map(|&x| monoid.mul(x, g))
        .chain(heap.iter().map(|&x| monoid.mul(e, x)))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The colex-least word of each element, as parent links.
struct Reps {
    /// For each element other than the identity: the element of its word minus one heap, and
    /// that heap. `(u32::MAX, _)` for elements not reached.
    parent: Vec<(u32, u32)>,
    /// The elements in colex order of their words, the identity first.
    order: Vec<u32>,
}

impl Reps {
    fn word(&self, x: u32, len: usize) -> Word {
        let mut w = vec![0u32; len];
        let mut x = x;
        while x != 0 {
            let (parent, heap) = self.parent[x as usize];
            w[heap as usize] += 1;
            x = parent;
        }
        w
    }
}

/// Walks the words in colex order, recording the least word of each element; with `mark`,
/// sets each element's P-status by the misère rule on the images of its least word's options.
fn walk<M: Monoid>(pret: &mut Pretension<M>, mark: bool) -> Reps {
    struct Walk<'a, M> {
        monoid: &'a M,
        phi: &'a [u32],
        trans: &'a [Vec<u32>],
        active: &'a [usize],
        p: &'a mut [bool],
        mark: bool,
        parent: Vec<(u32, u32)>,
        order: Vec<u32>,
    }
    impl<M: Monoid> Walk<'_, M> {
        fn run(&mut self, level: usize, e: u32, t: &[u32]) {
            if level == 0 {
                return;
            }
            let h = self.active[level - 1];
            self.run(level - 1, e, t);
            let (mut e, mut t) = (e, t.to_vec());
            loop {
                let next = self.monoid.mul(e, self.phi[h]);
                if next == 0 || self.parent[next as usize].0 != u32::MAX {
                    break;
                }
                let t2 = if self.mark {
                    step(self.monoid, e, &t, self.phi[h], &self.trans[h])
                } else {
                    Vec::new()
                };
                self.parent[next as usize] = (e, h as u32);
                self.order.push(next);
                if self.mark {
                    // Every option is colex-smaller, so its image is already marked.
                    self.p[next as usize] =
                        !t2.is_empty() && t2.iter().all(|&x| !self.p[x as usize]);
                }
                self.run(level - 1, next, &t2);
                e = next;
                t = t2;
            }
        }
    }
    let size = pret.monoid.size();
    let mut walk = Walk {
        monoid: &pret.monoid,
        phi: &pret.phi,
        trans: &pret.trans,
        active: &pret.active,
        p: &mut pret.p,
        mark,
        parent: vec![(u32::MAX, 0); size],
        order: vec![0],
    };
    if mark {
        walk.p[0] = false;
    }
    walk.run(walk.active.len(), 0, &[]);
    Reps {
        parent: walk.parent,
        order: walk.order,
    }
}

/// The colex-least word that breaks the P-check, among words ending in a heap ≥ `from`.
fn p_failure<M: Monoid>(pret: &Pretension<M>, reps: &Reps, from: usize) -> Option<Word> {
    let mut best: Option<Word> = None;
    for &x in &reps.order {
        for &j in pret.active.iter().filter(|&&j| j >= from) {
            let y = pret.monoid.mul(x, pret.phi[j]);
            if pret.p[y as usize]
                && pret.trans[j]
                    .iter()
                    .any(|&t| pret.p[pret.monoid.mul(x, t) as usize])
            {
                let mut w = reps.word(x, pret.phi.len());
                w[j] += 1;
                let better = match &best {
                    None => true,
                    Some(b) => colex(&w, b) == Ordering::Less,
                };
                if better {
                    best = Some(w);
                }
            }
        }
    }
    best
}

enum Flow {
    Continue,
    Found(Word),
    Stop,
}

/// The colex-least word (containing a heap ≥ `from`, below `bound`) that breaks the N-check.
fn n_failure<M: Monoid>(
    pret: &Pretension<M>,
    from: usize,
    bound: Option<&Word>,
    options: &QuotientOptions,
) -> std::result::Result<Option<Word>, RunawayLimit> {
    struct Check<'a, M> {
        pret: &'a Pretension<M>,
        from: usize,
        bound: Option<&'a Word>,
        antichain: Vec<Vec<Vec<u32>>>,
        counts: Word,
        states: usize,
        max_states: usize,
        deadline: Option<Instant>,
    }
    fn subset(a: &[u32], b: &[u32]) -> bool {
        // both sorted
        let mut j = 0;
        for &x in a {
            while j < b.len() && b[j] < x {
                j += 1;
            }
            if j == b.len() || b[j] != x {
                return false;
            }
        }
        true
    }
    impl<M: Monoid> Check<'_, M> {
        fn run(
            &mut self,
            level: usize,
            e: u32,
            t: &[u32],
            need: bool,
        ) -> std::result::Result<Flow, RunawayLimit> {
            if level == 0 {
                return Ok(Flow::Continue);
            }
            let h = self.pret.active[level - 1];
            if need && h < self.from {
                return Ok(Flow::Continue);
            }
            match self.run(level - 1, e, t, need)? {
                Flow::Continue => {}
                other => return Ok(other),
            }
            let (mut e, mut t) = (e, t.to_vec());
            let start = self.counts[h];
            let pret = self.pret;
            let result = loop {
                let next = pret.monoid.mul(e, pret.phi[h]);
                let t2 = step(&pret.monoid, e, &t, pret.phi[h], &pret.trans[h]);
                self.counts[h] += 1;
                if let Some(b) = self.bound {
                    if colex(&self.counts, b) != Ordering::Less {
                        break Flow::Stop;
                    }
                }
                let list = &mut self.antichain[next as usize];
                if list.iter().any(|s| subset(s, &t2)) {
                    break Flow::Continue;
                }
                list.retain(|s| !subset(&t2, s));
                list.push(t2.clone());
                self.states += 1;
                if self.states > self.max_states {
                    return Err(RunawayLimit::States(self.max_states));
                }
                if self.states.is_multiple_of(1024) && past(self.deadline) {
                    return Err(RunawayLimit::Time);
                }
                if !pret.p[next as usize] && t2.iter().all(|&x| !pret.p[x as usize]) {
                    break Flow::Found(self.counts.clone());
                }
                match self.run(level - 1, next, &t2, false)? {
                    Flow::Continue => {}
                    other => break other,
                }
                e = next;
                t = t2;
            };
            self.counts[h] = start;
            Ok(result)
        }
    }
    let mut check = Check {
        pret,
        from,
        bound,
        antichain: vec![Vec::new(); pret.monoid.size()],
        counts: vec![0; pret.phi.len()],
        states: 0,
        max_states: options.max_states,
        deadline: options.deadline,
    };
    Ok(match check.run(pret.active.len(), 0, &[], from > 0)? {
        Flow::Found(w) => Some(w),
        Flow::Continue | Flow::Stop => None,
    })
}

/// The colex-least word the pretension predicts wrongly, among words containing a heap ≥
/// `from` (all words when `from` is 0), or `None` when it predicts them all.
fn least_failure<M: Monoid>(
    pret: &Pretension<M>,
    reps: &Reps,
    from: usize,
    options: &QuotientOptions,
) -> std::result::Result<Option<Word>, RunawayLimit> {
    let p = p_failure(pret, reps, from);
    let n = n_failure(pret, from, p.as_ref(), options)?;
    Ok(n.or(p))
}

/// The quotient so far: a reduced table, its P-portion, Φ of heaps 0..=n.
struct State {
    table: Table,
    p: Vec<bool>,
    phi: Vec<u32>,
}

fn lcm(a: u32, b: u32) -> u32 {
    fn gcd(a: u32, b: u32) -> u32 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    a / gcd(a, b) * b
}

struct Searcher<'a> {
    heaps: &'a HeapOptions,
    options: &'a QuotientOptions,
}

impl Searcher<'_> {
    /// Heap n as an element of the current quotient, when one fits.
    fn conservative(
        &self,
        state: &State,
        n: usize,
    ) -> std::result::Result<Option<u32>, RunawayLimit> {
        let t = images(&state.table, &state.phi, &self.heaps.options[n]);
        let heap_p = t.iter().all(|&x| !state.p[x as usize]);
        let order = state.table.order() as u32;
        'next: for x in 0..order {
            if state.p[x as usize] != heap_p {
                continue;
            }
            for z in 0..order {
                if state.p[state.table.mul(z, x) as usize]
                    && t.iter().any(|&y| state.p[state.table.mul(z, y) as usize])
                {
                    continue 'next;
                }
            }
            let mut phi = state.phi.clone();
            phi.push(x);
            let pret = Pretension::new(state.table.clone(), state.p.clone(), phi, self.heaps);
            if n_failure(&pret, n, None, self.options)?.is_none() {
                return Ok(Some(x));
            }
        }
        Ok(None)
    }

    /// Marks and reduces a candidate.
    fn settle(
        &self,
        candidate: Candidate,
        phi: Vec<u32>,
    ) -> std::result::Result<State, RunawayLimit> {
        let size = candidate.size();
        let mut pret = Pretension::new(candidate, vec![false; size], phi, self.heaps);
        walk(&mut pret, true);
        let reduced = reduce(&pret.monoid, &pret.p, &pret.phi);
        if reduced.table.order() > self.options.max_order {
            return Err(RunawayLimit::Order(self.options.max_order));
        }
        let phi = pret
            .phi
            .iter()
            .map(|&x| reduced.class[x as usize])
            .collect();
        Ok(State {
            table: reduced.table,
            p: reduced.p,
            phi,
        })
    }

    /// A freer candidate that predicts the least failure `w` of `state` correctly.
    fn recalibrate(&self, state: &State, w: &Word) -> std::result::Result<State, RunawayLimit> {
        let pret = Pretension::new(
            state.table.clone(),
            state.p.clone(),
            state.phi.clone(),
            self.heaps,
        );
        let expected = !state.p[pret.image(w) as usize];
        let involved: Vec<usize> = (1..w.len()).filter(|&h| w[h] > 0).collect();
        let mut subsets: Vec<Vec<usize>> = Vec::new();
        for &a in &involved {
            subsets.push(vec![a]);
        }
        if involved.len() <= 6 {
            for (i, &a) in involved.iter().enumerate() {
                for &b in &involved[i + 1..] {
                    subsets.push(vec![a, b]);
                }
            }
        }
        if involved.len() > 2 {
            subsets.push(involved.clone());
        }
        let mut too_large = None;
        for free in subsets {
            let kept: Vec<u32> = (1..state.phi.len())
                .filter(|h| !free.contains(h))
                .map(|h| state.phi[h])
                .collect();
            let (base, map) = submonoid(&state.table, &kept);
            let cyclic: Vec<Cyclic> = free
                .iter()
                .map(|&h| {
                    let (index, period) = state.table.index_period(state.phi[h]);
                    Cyclic {
                        index: index.max(w[h] + 1),
                        period: lcm(period, 2),
                    }
                })
                .collect();
            let Some(candidate) = Candidate::new(base, cyclic, self.options.max_candidate) else {
                too_large = Some(RunawayLimit::Candidate(self.options.max_candidate));
                continue;
            };
            let mut phi: Vec<u32> = state.phi.iter().map(|&x| map[x as usize]).collect();
            for (i, &h) in free.iter().enumerate() {
                phi[h] = candidate.cyclic_generator(i);
            }
            let next = self.settle(candidate, phi)?;
            let check = Pretension::new(
                next.table.clone(),
                next.p.clone(),
                next.phi.clone(),
                self.heaps,
            );
            if next.p[check.image(w) as usize] == expected {
                return Ok(next);
            }
        }
        Err(too_large.unwrap_or(RunawayLimit::Recalibrations(0)))
    }

    /// Adds heap n (Φ of heaps below n known) by expansion and recalibration.
    fn expand(&self, state: &State) -> std::result::Result<State, RunawayLimit> {
        let candidate = Candidate::new(
            state.table.clone(),
            vec![Cyclic {
                index: 2,
                period: 2,
            }],
            self.options.max_candidate,
        )
        .ok_or(RunawayLimit::Candidate(self.options.max_candidate))?;
        let mut phi = state.phi.clone();
        phi.push(candidate.cyclic_generator(0));
        let mut current = self.settle(candidate, phi)?;
        for _ in 0..=self.options.max_recalibrations {
            if past(self.options.deadline) {
                return Err(RunawayLimit::Time);
            }
            let mut pret = Pretension::new(
                current.table.clone(),
                current.p.clone(),
                current.phi.clone(),
                self.heaps,
            );
            let reps = walk(&mut pret, false);
            match least_failure(&pret, &reps, 0, self.options)? {
                None => return Ok(current),
                Some(w) => current = self.recalibrate(&current, &w)?,
            }
        }
        Err(RunawayLimit::Recalibrations(
            self.options.max_recalibrations,
        ))
    }
}

impl Quotient {
    /// The misère quotient of the closure of heaps 0..=`max_heap` of `rules`, by Plambeck and
    /// Siegel's heap-by-heap algorithm (see the module docs), with the periodicity certificate
    /// when the rules allow one.
    ///
    /// # Errors
    /// [`Error::Limit`] for `max_heap` above [`MAX_HEAP`]; the rules' own errors; a cycle if the
    /// rules leave a heap not smaller than the one moved in. A quotient that outgrows `options`
    /// is not an error but [`Search::Runaway`].
    pub fn compute(
        rules: &dyn HeapRules,
        max_heap: u64,
        options: &QuotientOptions,
        progress: &dyn Progress,
    ) -> Result<Search> {
        Quotient::search(rules, max_heap, options, false, progress)
    }

    /// [`Quotient::compute`], stopping at the first heap n ≤ `max_heap` where the periodicity
    /// theorem proves that the quotient of heaps 0..=n is the quotient of every heap (see the
    /// module docs): what to compute when the whole game's quotient is wanted.
    ///
    /// ```
    /// use sprague::heap::Code;
    /// use sprague::quotient::{Quotient, QuotientOptions};
    /// // 0.75: the quotient of heaps to 22 is proven to be that of every heap.
    /// let q = Quotient::compute_until_certified(&Code::parse("0.75").unwrap(), 200, &QuotientOptions::default(), &())?
    ///     .finite()
    ///     .expect("a finite quotient");
    /// assert_eq!((q.order(), q.max_heap()), (8, 22));
    /// assert_eq!(q.period().map(|p| p.certified_at), Some(22));
    /// # Ok::<(), sprague::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Quotient::compute`].
    pub fn compute_until_certified(
        rules: &dyn HeapRules,
        max_heap: u64,
        options: &QuotientOptions,
        progress: &dyn Progress,
    ) -> Result<Search> {
        Quotient::search(rules, max_heap, options, true, progress)
    }

    /// What `sprague quotient` computes: the quotient of heaps 0..=`max_heap` when one is
    /// named, else [`Quotient::compute_until_certified`] with at most
    /// [`UNTIL_CERTIFIED_HEAPS`] heaps; with the last heap asked for.
    ///
    /// # Errors
    /// As [`Quotient::compute`].
    pub fn compute_for(
        rules: &dyn HeapRules,
        max_heap: Option<u64>,
        options: &QuotientOptions,
        progress: &dyn Progress,
    ) -> Result<(Search, u64)> {
        Ok(match max_heap {
            Some(n) => (Quotient::compute(rules, n, options, progress)?, n),
            None => (
                Quotient::compute_until_certified(rules, UNTIL_CERTIFIED_HEAPS, options, progress)?,
                UNTIL_CERTIFIED_HEAPS,
            ),
        })
    }

    fn search(
        rules: &dyn HeapRules,
        max_heap: u64,
        options: &QuotientOptions,
        until_certified: bool,
        progress: &dyn Progress,
    ) -> Result<Search> {
        if max_heap > MAX_HEAP {
            return Err(Error::Limit(format!(
                "heap {max_heap} is past the largest quotient computed ({MAX_HEAP} heaps)"
            )));
        }
        let heaps = HeapOptions::build(rules, max_heap, "misère quotient")?;
        let searcher = Searcher {
            heaps: &heaps,
            options,
        };
        let mut state = State {
            table: Table::trivial(),
            p: vec![false],
            phi: vec![0],
        };
        progress.start("misère quotient", max_heap);
        for n in 1..=max_heap as usize {
            // A heap without moves is the empty sum.
            let step = if past(options.deadline) {
                Err(RunawayLimit::Time)
            } else if heaps.options[n].is_empty() {
                state.phi.push(0);
                Ok(())
            } else {
                match searcher.conservative(&state, n) {
                    Ok(Some(x)) => {
                        state.phi.push(x);
                        Ok(())
                    }
                    Ok(None) => searcher.expand(&state).map(|next| state = next),
                    Err(limit) => Err(limit),
                }
            };
            if let Err(limit) = step {
                progress.finish();
                if limit == RunawayLimit::Time {
                    return Err(Error::Limit(format!(
                        "the misère quotient was stopped at its time limit, at heap {n}"
                    )));
                }
                let below = Quotient::finish(rules, state, n as u64 - 1);
                return Ok(Search::Runaway {
                    runaway: Runaway {
                        heap: n as u64,
                        limit,
                    },
                    below,
                });
            }
            progress.advance(n as u64, &format!("order {}", state.table.order()));
            crate::progress::check(progress)?;
            if until_certified && certify(rules, &state.phi, n as u64).is_some() {
                progress.finish();
                return Ok(Search::Finite(Quotient::finish(rules, state, n as u64)));
            }
        }
        progress.finish();
        Ok(Search::Finite(Quotient::finish(rules, state, max_heap)))
    }

    /// Renumbers the elements by normal form, and adds the presentation and the certificate.
    fn finish(rules: &dyn HeapRules, state: State, max_heap: u64) -> Quotient {
        let order = state.table.order();
        // Generators: the heaps whose images the earlier heaps do not generate.
        let mut generators = Vec::new();
        let mut closure = vec![false; order];
        closure[0] = true;
        let mut members = vec![0u32];
        for (h, &x) in state.phi.iter().enumerate().skip(1) {
            if closure[x as usize] {
                continue;
            }
            generators.push((h, x));
            // Extend the closure by all products with the new generator.
            let mut i = 0;
            while i < members.len() {
                let y = state.table.mul(members[i], x);
                if !closure[y as usize] {
                    closure[y as usize] = true;
                    members.push(y);
                }
                i += 1;
            }
        }
        // Normal forms: the colex-least words in the generators.
        let gen_phi: Vec<u32> = std::iter::once(0)
            .chain(generators.iter().map(|&(_, x)| x))
            .collect();
        let mut pret = Pretension {
            monoid: state.table.clone(),
            p: state.p.clone(),
            phi: gen_phi.clone(),
            trans: vec![vec![0]; gen_phi.len()],
            active: (1..gen_phi.len()).collect(),
        };
        let reps = walk(&mut pret, false);
        let mut number = vec![0u32; order];
        for (i, &x) in reps.order.iter().enumerate() {
            number[x as usize] = i as u32;
        }
        let mut mul = vec![0u32; order * order];
        for a in 0..order {
            for b in 0..order {
                mul[number[a] as usize * order + number[b] as usize] =
                    number[state.table.mul(a as u32, b as u32) as usize];
            }
        }
        let table = Table::from_entries(order, mul);
        let mut p = vec![false; order];
        for x in 0..order {
            p[number[x] as usize] = state.p[x];
        }
        let phi: Vec<u32> = state.phi.iter().map(|&x| number[x as usize]).collect();
        let names: Vec<String> = (0..generators.len()).map(generator_name).collect();
        let normal: Vec<Word> = reps
            .order
            .iter()
            .map(|&x| reps.word(x, gen_phi.len()))
            .collect();
        let words: Vec<String> = normal.iter().map(|w| word_text(w, &names)).collect();
        let image = |w: &[u32]| -> u32 {
            let mut x = 0;
            for (g, &c) in w.iter().enumerate() {
                for _ in 0..c {
                    x = table.mul(x, number[gen_phi[g] as usize]);
                }
            }
            x
        };
        let is_normal = |w: &[u32]| normal[image(w) as usize] == w;
        let mut relations: Vec<Word> = Vec::new();
        for w in &normal {
            for g in 1..gen_phi.len() {
                let mut m = w.clone();
                m[g] += 1;
                if is_normal(&m) {
                    continue;
                }
                let minimal = (1..gen_phi.len()).all(|g2| {
                    m[g2] == 0 || {
                        let mut sub = m.clone();
                        sub[g2] -= 1;
                        is_normal(&sub)
                    }
                });
                if minimal {
                    relations.push(m);
                }
            }
        }
        relations.sort_by(|a, b| colex(a, b));
        relations.dedup();
        let relations = relations
            .iter()
            .map(|m| format!("{} = {}", word_text(m, &names), words[image(m) as usize]))
            .collect();
        let presentation = Presentation {
            generators: generators
                .iter()
                .zip(&names)
                .map(|(&(h, x), name)| Generator {
                    name: name.clone(),
                    heap: h as u64,
                    element: number[x as usize],
                })
                .collect(),
            relations,
            words,
        };
        let period = certify(rules, &phi, max_heap);
        Quotient {
            table,
            p,
            phi,
            period,
            presentation,
        }
    }

    /// The number of elements.
    pub fn order(&self) -> usize {
        self.table.order()
    }

    /// The identity element (the empty sum): always 0.
    pub fn identity(&self) -> u32 {
        0
    }

    /// The largest heap size computed.
    pub fn max_heap(&self) -> u64 {
        self.phi.len() as u64 - 1
    }

    /// The product of two elements.
    ///
    /// # Panics
    /// If an element is not below [`Quotient::order`].
    pub fn multiply(&self, a: u32, b: u32) -> u32 {
        self.table.mul(a, b)
    }

    /// Whether an element is in the P-portion: sums with this image are misère P-positions.
    pub fn is_p(&self, x: u32) -> bool {
        self.p[x as usize]
    }

    /// The P-portion, in increasing order.
    pub fn p_portion(&self) -> Vec<u32> {
        (0..self.order() as u32).filter(|&x| self.is_p(x)).collect()
    }

    /// The element of every heap size 0..=max_heap.
    pub fn heaps(&self) -> &[u32] {
        &self.phi
    }

    /// The periodicity of the heap map proven for every heap size, if one was.
    pub fn period(&self) -> Option<QuotientPeriod> {
        self.period
    }

    /// The presentation: generators, relations, normal forms.
    pub fn presentation(&self) -> &Presentation {
        &self.presentation
    }

    /// The element of a heap: computed, or by the proven period for heaps past
    /// [`Quotient::max_heap`].
    ///
    /// # Errors
    /// [`Error::Limit`] for a heap past the computed range when no period is proven.
    pub fn element(&self, heap: u64) -> Result<u32> {
        let max = self.max_heap();
        if heap <= max {
            return Ok(self.phi[heap as usize]);
        }
        match self.period {
            Some(QuotientPeriod { period, .. }) => {
                let back = (heap - max).div_ceil(period);
                Ok(self.phi[(heap - back * period) as usize])
            }
            None => Err(Error::Limit(format!(
                "heap {heap} is past the quotient's range (heaps up to {max}, no period proven)"
            ))),
        }
    }

    /// The element of a sum of heaps.
    ///
    /// # Errors
    /// As [`Quotient::element`].
    pub fn element_of(&self, heaps: &[u64]) -> Result<u32> {
        heaps
            .iter()
            .try_fold(0, |x, &h| Ok(self.multiply(x, self.element(h)?)))
    }

    /// The misère outcome of a sum of heaps, from its element: no search.
    ///
    /// # Errors
    /// As [`Quotient::element`].
    pub fn outcome(&self, heaps: &[u64]) -> Result<Outcome> {
        Ok(if self.is_p(self.element_of(heaps)?) {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    /// Every winning misère move of a sum of heaps: the moves to a sum whose element is in the
    /// P-portion. Equal heaps give their moves once (at the first of them).
    ///
    /// # Errors
    /// As [`Quotient::element`]; [`Error::Limit`] for a heap above 2^24 (its option list is
    /// too long to list); the rules' own errors.
    pub fn winning_moves(&self, rules: &dyn HeapRules, heaps: &[u64]) -> Result<Vec<SumMove>> {
        const MAX_LISTED: u64 = 1 << 24;
        let elements: Vec<u32> = heaps
            .iter()
            .map(|&h| self.element(h))
            .collect::<Result<_>>()?;
        // prefix[i] = product of elements before i; suffix likewise after.
        let mut prefix = vec![0u32; heaps.len() + 1];
        for i in 0..heaps.len() {
            prefix[i + 1] = self.multiply(prefix[i], elements[i]);
        }
        let mut suffix = vec![0u32; heaps.len() + 1];
        for i in (0..heaps.len()).rev() {
            suffix[i] = self.multiply(suffix[i + 1], elements[i]);
        }
        let mut out = Vec::new();
        let mut done = std::collections::HashSet::new();
        for (i, &h) in heaps.iter().enumerate() {
            if h == 0 || !done.insert(h) {
                continue;
            }
            if h > MAX_LISTED {
                return Err(Error::Limit(format!(
                    "heap {h} has too many moves to list (the limit is heaps of {MAX_LISTED})"
                )));
            }
            let rest = self.multiply(prefix[i], suffix[i + 1]);
            for option in rules.try_options(h)? {
                let leaves: Vec<u64> = option.into_iter().filter(|&x| x > 0).collect();
                let x = leaves.iter().try_fold(rest, |x, &l| {
                    Ok::<_, Error>(self.multiply(x, self.element(l)?))
                })?;
                if self.is_p(x) {
                    let mut position = heaps[..i].to_vec();
                    position.extend(&leaves);
                    position.extend(&heaps[i + 1..]);
                    out.push(SumMove {
                        component: i,
                        from: h,
                        leaves,
                        position,
                    });
                }
            }
        }
        Ok(out)
    }

    /// The report of `sprague quotient --json` for the game `game` (its spec as written).
    pub fn report(&self, game: &str) -> QuotientReport {
        let order = self.order();
        QuotientReport {
            game: game.to_string(),
            max_heap: self.max_heap(),
            order: Some(order),
            infinite: false,
            identity: 0,
            heaps: self.phi.clone(),
            multiply: (0..order as u32)
                .map(|a| self.table.row(a).to_vec())
                .collect(),
            p_portion: self.p_portion(),
            presentation: self.presentation.to_string(),
            certified: self.period.is_some(),
            period: self.period,
            generators: self.presentation.generators.clone(),
            relations: self.presentation.relations.clone(),
            words: self.presentation.words.clone(),
            runaway: None,
        }
    }
}

/// The report of `sprague quotient --json` (see `docs/interface.md`), with the presentation's
/// parts and the proven period as extra fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QuotientReport {
    /// The game's spec.
    pub game: String,
    /// The largest heap of the closure.
    pub max_heap: u64,
    /// The number of elements; `None` for a runaway.
    pub order: Option<usize>,
    /// Whether the search ran away (the quotient is taken to be infinite).
    pub infinite: bool,
    /// The identity element.
    pub identity: u32,
    /// `heaps[n]`: the element of heap n.
    pub heaps: Vec<u32>,
    /// The multiplication table, order × order.
    pub multiply: Vec<Vec<u32>>,
    /// The elements of the P-portion.
    pub p_portion: Vec<u32>,
    /// The presentation as text: `<a, b | a^2 = 1, b^3 = b>`.
    pub presentation: String,
    /// Whether the quotient is proven the same for every heap size (the periodicity theorem).
    pub certified: bool,
    /// The proven period of the heap map.
    pub period: Option<QuotientPeriod>,
    /// The generators and the heaps they come from.
    pub generators: Vec<Generator>,
    /// The relations, one a string.
    pub relations: Vec<String>,
    /// The normal form of each element.
    pub words: Vec<String>,
    /// Where and why a runaway search stopped.
    pub runaway: Option<Runaway>,
}

impl QuotientReport {
    /// The report of a search: the quotient's, or for a runaway `infinite: true` and
    /// `order: null` with empty tables.
    pub fn of(search: &Search, game: &str, max_heap: u64) -> QuotientReport {
        match search {
            Search::Finite(q) => q.report(game),
            Search::Runaway { runaway, .. } => QuotientReport {
                game: game.to_string(),
                max_heap,
                order: None,
                infinite: true,
                identity: 0,
                heaps: Vec::new(),
                multiply: Vec::new(),
                p_portion: Vec::new(),
                presentation: String::new(),
                certified: false,
                period: None,
                generators: Vec::new(),
                relations: Vec::new(),
                words: Vec::new(),
                runaway: Some(*runaway),
            },
        }
    }
}

fn generator_name(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("g{}", i + 1)
    }
}

/// A word in the generators as text: `a^2bc`, or `1` when empty. Index 0 is unused.
fn word_text(w: &[u32], names: &[String]) -> String {
    let mut s = String::new();
    for (g, &c) in w.iter().enumerate().skip(1) {
        if c == 0 {
            continue;
        }
        s.push_str(&names[g - 1]);
        if c > 1 {
            s.push_str(&format!("^{c}"));
        }
    }
    if s.is_empty() {
        s.push('1');
    }
    s
}

/// The least period (and least preperiod for it) of Φ that the periodicity theorem proves for
/// every heap size, if any.
fn certify(rules: &dyn HeapRules, phi: &[u32], max_heap: u64) -> Option<QuotientPeriod> {
    let bounds = rules.certificate()?;
    let (h, k) = (bounds.max_heaps.max(1), bounds.max_removed);
    let n = max_heap;
    for p in 1..=n / 2 {
        // the least n0 with phi[m] == phi[m - p] for every m in n0 + p ..= n
        let last_miss = (p..=n)
            .rev()
            .find(|&m| phi[m as usize] != phi[(m - p) as usize]);
        let n0 = last_miss.map_or(0, |m| m + 1 - p);
        let needed = h.checked_mul(n0 + p)?.checked_add(k)?;
        if needed <= n {
            return Some(QuotientPeriod {
                preperiod: n0,
                period: p,
                certified_at: needed,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::Code;
    use crate::quotient::testing::{sums, Oracle};
    use proptest::prelude::*;

    fn search(code: &str, max_heap: u64) -> Search {
        Quotient::compute(
            &Code::parse(code).unwrap(),
            max_heap,
            &QuotientOptions::default(),
            &(),
        )
        .unwrap()
    }

    fn quotient(code: &str, max_heap: u64) -> Quotient {
        search(code, max_heap)
            .finite()
            .unwrap_or_else(|| panic!("{code} ran away"))
    }

    /// The quotient's outcomes and winning moves agree with plain misère search on `sums`.
    fn agrees_with_search(rules: &Code, q: &Quotient, sums: &[Vec<u64>], oracle: &mut Oracle) {
        for s in sums {
            let expected = oracle.outcome(s);
            assert_eq!(q.outcome(s).unwrap(), expected, "{rules:?} {s:?}");
            let moves = q.winning_moves(rules, s).unwrap();
            let winning = expected == Outcome::N && oracle.has_moves(s);
            assert_eq!(!moves.is_empty(), winning, "{rules:?} {s:?}");
            for m in moves {
                assert_eq!(oracle.outcome(&m.position), Outcome::P, "{s:?} {m:?}");
            }
        }
    }

    /// Two- and three-digit games with finite quotients to heap 12.
    const GAMES: &[&str] = &[
        "0.15", "0.22", "0.31", "0.34", "0.44", "0.53", "0.56", "0.71", "0.72", "0.75", "0.77",
        "0.07", "0.137", "0.123", "0.312", "4.7",
    ];

    #[test]
    fn sums_of_three_heaps_agree_with_plain_search() {
        let all = sums(3, 12);
        for code in GAMES {
            let rules = Code::parse(code).unwrap();
            let q = quotient(code, 12);
            agrees_with_search(&rules, &q, &all, &mut Oracle::new(&rules, 12));
        }
    }

    #[test]
    #[ignore = "slow: every sum of four heaps up to 12, 16 games (release: about a minute)"]
    fn sums_of_four_heaps_agree_with_plain_search() {
        let all = sums(4, 12);
        for code in GAMES {
            let rules = Code::parse(code).unwrap();
            let q = quotient(code, 12);
            agrees_with_search(&rules, &q, &all, &mut Oracle::new(&rules, 12));
        }
    }

    /// (code, order, |P|) of the quotient of heaps 0..=50, as MisereSolver (Siegel's reference
    /// program, the copy in CGSuite's repository, run on this machine) computes them.
    const MISERE_SOLVER_50: &[(&str, usize, usize)] = &[
        ("0.15", 42, 12),
        ("0.22", 6, 2),
        ("0.34", 12, 3),
        ("0.44", 24, 8),
        ("0.46", 24, 8),
        ("0.53", 16, 3),
        ("0.56", 18, 2),
        ("0.71", 36, 9),
        ("0.72", 24, 5),
        ("0.75", 8, 2),
        ("0.77", 40, 9),
    ];

    #[test]
    fn orders_and_p_portions_match_misere_solver() {
        for &(code, order, p) in MISERE_SOLVER_50 {
            let q = quotient(code, 50);
            assert_eq!((q.order(), q.p_portion().len()), (order, p), "{code}");
        }
    }

    #[test]
    #[ignore = "slow: quotients of order 160 to 360 (release: seconds each)"]
    fn large_quotients_match_published_and_misere_solver() {
        // Q_30(0.07), Dawson's Kayles to heap 30, has 360 elements: A. Siegel, "Some
        // MisereSolver questions answered", miseregames.wordpress.com, 28 August 2007
        // (`java -jar misere.jar 0.07 -maxheap 30`). Its P-portion has 65 (MisereSolver here).
        let q = quotient("0.07", 30);
        assert_eq!((q.order(), q.p_portion().len()), (360, 65));
        // MisereSolver run here, heaps to 50.
        for (code, order, p) in [("0.26", 288, 67), ("0.54", 160, 35), ("0.57", 210, 48)] {
            let q = quotient(code, 50);
            assert_eq!((q.order(), q.p_portion().len()), (order, p), "{code}");
        }
    }

    #[test]
    fn the_quotient_of_0_75_is_r8() {
        // Plambeck & Siegel, "Misère quotients for impartial games" (JCTA 2008): 0.75 has the
        // quotient R8 = <a, b, c | a² = 1, b³ = b, bc = ab, c² = b²>, P = {a, b²}. (Recalled;
        // the paper's text could not be consulted here. MisereSolver gives order 8, |P| = 2.)
        let q = quotient("0.75", 30);
        assert_eq!(
            q.presentation().to_string(),
            "<a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2>"
        );
        let words: Vec<&str> = q
            .p_portion()
            .iter()
            .map(|&x| q.presentation().words[x as usize].as_str())
            .collect();
        assert_eq!(words, ["a", "b^2"]);
        let heaps: Vec<&str> = (0..=8)
            .map(|n| q.presentation().words[q.heaps()[n] as usize].as_str())
            .collect();
        assert_eq!(heaps, ["1", "a", "b", "a", "b", "c", "b", "c", "b"]);
        let period = q.period().unwrap();
        // heaps 5 and 7 are c, but heaps 9, 11, … another element: the period starts at 8
        assert_eq!(
            (period.preperiod, period.period, period.certified_at),
            (8, 2, 22)
        );
        // Nim-like games: 0.3 (heaps *0, *1) is Z2; 0.33 (heaps *0, *1, *2) is T6.
        assert_eq!(
            quotient("0.3", 10).presentation().to_string(),
            "<a | a^2 = 1>"
        );
        assert_eq!(
            quotient("0.33", 10).presentation().to_string(),
            "<a, b | a^2 = 1, b^3 = b>"
        );
    }

    #[test]
    fn identity_table_and_p_portion_are_consistent() {
        for code in GAMES {
            let q = quotient(code, 16);
            let order = q.order() as u32;
            assert_eq!(order % 2, 0, "{code}: quotients have even order");
            assert!(!q.is_p(q.identity()), "{code}: the empty sum is N");
            for a in 0..order {
                assert_eq!(q.multiply(0, a), a);
                for b in 0..order {
                    assert_eq!(q.multiply(a, b), q.multiply(b, a));
                    for c in [0, order / 2, order - 1] {
                        assert_eq!(
                            q.multiply(q.multiply(a, b), c),
                            q.multiply(a, q.multiply(b, c))
                        );
                    }
                }
            }
            // the elements are numbered by their normal forms: each word extends an earlier
            let words = &q.presentation().words;
            assert_eq!(words[0], "1");
            assert_eq!(words.len(), q.order());
        }
    }

    #[test]
    fn a_proven_period_predicts_the_heaps_past_the_range() {
        for code in ["0.75", "0.31", "0.34", "0.71", "0.72", "0.3"] {
            let short = quotient(code, 50);
            let Some(period) = short.period() else {
                panic!("{code}: no period proven at heap 50");
            };
            assert!(period.certified_at <= 50, "{code}");
            let long = quotient(code, 110);
            assert_eq!(long.order(), short.order(), "{code}");
            for n in 0..=110 {
                let (a, b) = (short.element(n).unwrap(), long.element(n).unwrap());
                // the numbering is by normal form in both, so equal quotients agree exactly
                assert_eq!(a, b, "{code} heap {n}");
            }
        }
        // Kayles is not proven periodic at 50, and says so for heaps past the range.
        let kayles = quotient("0.77", 20);
        assert!(kayles.period().is_none());
        assert!(matches!(kayles.outcome(&[21]), Err(Error::Limit(_))));
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let kayles = Code::parse("0.77").unwrap();
        assert!(matches!(
            Quotient::compute(&kayles, MAX_HEAP + 1, &QuotientOptions::default(), &()),
            Err(Error::Limit(_))
        ));
        struct Grows;
        impl HeapRules for Grows {
            fn options(&self, n: u64) -> Vec<Vec<u64>> {
                vec![vec![n + 1]]
            }
        }
        assert!(matches!(
            Quotient::compute(&Grows, 5, &QuotientOptions::default(), &()),
            Err(Error::Cycle(_))
        ));
        // A runaway is a result, with the quotient of the heaps below it.
        let tight = QuotientOptions {
            max_order: 8,
            ..QuotientOptions::default()
        };
        let ran = Quotient::compute(&kayles, 12, &tight, &()).unwrap();
        let Search::Runaway { runaway, below } = &ran else {
            panic!("Kayles fits in 8 elements?")
        };
        assert_eq!(runaway.limit, RunawayLimit::Order(8));
        assert!(below.max_heap() + 1 == runaway.heap && below.order() <= 8);
        let report = serde_json::to_value(QuotientReport::of(&ran, "kayles", 12)).unwrap();
        assert_eq!(report["infinite"], true);
        assert_eq!(report["order"], serde_json::Value::Null);
        assert!(matches!(ran.into_result(), Err(Error::Limit(_))));
        // A deadline stops the computation with an error, not a runaway.
        let late = QuotientOptions {
            deadline: Some(Instant::now()),
            ..QuotientOptions::default()
        };
        let Err(Error::Limit(why)) = Quotient::compute(&kayles, 12, &late, &()) else {
            panic!("a passed deadline is a limit");
        };
        assert!(why.contains("time limit"), "{why}");
    }

    #[test]
    fn report_has_the_contract_fields() {
        let q = quotient("0.75", 30);
        let v = serde_json::to_value(q.report("0.75")).unwrap();
        for key in [
            "game",
            "max_heap",
            "order",
            "infinite",
            "identity",
            "heaps",
            "multiply",
            "p_portion",
            "presentation",
            "certified",
        ] {
            assert!(v.get(key).is_some(), "{key}");
        }
        assert_eq!(v["order"], 8);
        assert_eq!(v["heaps"].as_array().unwrap().len(), 31);
        assert_eq!(v["multiply"].as_array().unwrap().len(), 8);
        assert_eq!(v["certified"], true);
        assert_eq!(v["p_portion"], serde_json::json!(q.p_portion()));
    }

    /// A random take-and-break code with one to three digits after the point, and sometimes a
    /// 4 before it.
    fn code() -> impl Strategy<Value = Code> {
        (prop::collection::vec(0u8..8, 1..=3), prop::bool::ANY).prop_filter_map(
            "a last digit of 0",
            |(digits, split)| {
                if digits.last() == Some(&0) {
                    return None;
                }
                let text: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
                Code::parse(&format!("{}.{text}", if split { 4 } else { 0 })).ok()
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn random_codes_agree_with_plain_search(
            rules in code(),
            sums in prop::collection::vec(prop::collection::vec(0u64..=9, 0..=4), 40),
        ) {
            // Tight bounds keep every case quick; a code whose quotient outgrows them is
            // skipped (the bounds themselves are tested in `bad_input_is_a_typed_error`).
            let options = QuotientOptions {
                max_order: 256,
                max_candidate: 1 << 14,
                max_states: 1 << 16,
                max_recalibrations: 100,
                deadline: None,
            };
            let search = Quotient::compute(&rules, 9, &options, &()).unwrap();
            let Some(q) = search.finite() else {
                return Ok(());
            };
            let mut oracle = Oracle::new(&rules, 9);
            agrees_with_search(&rules, &q, &sums, &mut oracle);
        }
    }
}
