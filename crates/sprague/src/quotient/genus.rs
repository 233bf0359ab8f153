//! Conway's genus of heap-game positions (Winning Ways, chapter 13; On Numbers and Games,
//! chapter 12).
//!
//! The genus of a position G is g^{γ0 γ1 γ2 …}: g is its normal-play nim value and γk the
//! misère Grundy value of G + k·*2 (a position without moves has misère Grundy value 1, any
//! other the mex of its options'). Two facts make it computable:
//! - adding * flips the last bit of a misère Grundy value, G⁻(X + *) = G⁻(X) ⊕ 1 (by induction:
//!   the options of X + * are X and the X' + *, and the mex of {G⁻(X)} ∪ {G⁻(X') ⊕ 1} is
//!   G⁻(X) ⊕ 1), so the options of G + k·*2 give γk = mex({γk(G')} ∪ {γk−1, γk−1 ⊕ 1});
//! - once every option's sequence alternates (γj = γj−2) past some index M, and γk = γk−2 for
//!   some k ≥ M, the sequence of G alternates from there on (the sets of option values repeat
//!   with period 2, and so does the mex).
//!
//! A genus is written with its sequence cut where the alternation starts: 0^{120}, 1^{031},
//! 2^{20}. The genera of Nim positions are 0^{120} and 1^{031} (all heaps ≤ 1) and a^{a,a⊕2}
//! (some heap ≥ 2); a position is *tame* when it and every position it can reach have such a
//! genus, and then it adds like a Nim position: the genus of a sum of tame positions is that of
//! the Nim position with the same values ([`Genus::tame_sum`], property-tested against direct
//! search). A heap is tame when its genus is a Nim genus and every heap its moves leave is tame;
//! the others are *wild*.

use super::heaps::HeapOptions;
use crate::error::{Error, Result};
use crate::heap::HeapRules;
use crate::progress::Progress;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;

/// The largest heap a genus table is computed to.
pub const MAX_GENUS_HEAP: u64 = 1 << 16;

/// The most positions a direct genus search memoises before giving up.
pub const DEFAULT_POSITION_LIMIT: usize = 2_000_000;

/// A genus g^{γ0 γ1 …}: the normal nim value and the misère values with k nim-heaps of 2 added,
/// stored up to where they alternate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Genus {
    normal: u64,
    /// γ0..=γm with γj = γ(j−2) for every j > m, m ≥ 1 least.
    misere: Vec<u64>,
}

impl Genus {
    /// A genus from its normal value and any prefix γ0..γk (k ≥ 1) after which the sequence
    /// alternates; the prefix is cut to its shortest form.
    ///
    /// # Panics
    /// If fewer than two misère values are given.
    pub fn new(normal: u64, mut misere: Vec<u64>) -> Genus {
        assert!(
            misere.len() >= 2,
            "a genus needs at least two misère values"
        );
        while misere.len() > 2 && misere[misere.len() - 1] == misere[misere.len() - 3] {
            misere.pop();
        }
        Genus { normal, misere }
    }

    /// The genus of a Nim position with nim value `x`: 0^{120} or 1^{031} when every heap is at
    /// most 1 (`small`), x^{x,x⊕2} otherwise.
    pub fn nim(x: u64, small: bool) -> Genus {
        match (small, x) {
            (true, 0) => Genus::new(0, vec![1, 2, 0]),
            (true, _) => Genus::new(1, vec![0, 3, 1]),
            (false, x) => Genus::new(x, vec![x, x ^ 2]),
        }
    }

    /// The normal-play nim value g.
    pub fn normal(&self) -> u64 {
        self.normal
    }

    /// γk: the misère Grundy value with `k` nim-heaps of size 2 added.
    pub fn misere(&self, k: usize) -> u64 {
        let m = self.misere.len();
        if k < m {
            self.misere[k]
        } else {
            self.misere[m - 2 + (k - m) % 2]
        }
    }

    /// The superscript digits γ0..=γm, cut where the alternation starts.
    pub fn digits(&self) -> &[u64] {
        &self.misere
    }

    /// γ0, γ1, … up to where they alternate, and at least `at_least` of them.
    pub fn misere_values(&self, at_least: usize) -> Vec<u64> {
        (0..self.misere.len().max(at_least))
            .map(|k| self.misere(k))
            .collect()
    }

    /// Whether this is the genus of a Nim position: 0^{120}, 1^{031} or a^{a,a⊕2}.
    pub fn is_nim(&self) -> bool {
        let g = self.normal;
        *self == Genus::nim(g, false) || (g <= 1 && *self == Genus::nim(g, true))
    }

    /// Whether the genus is that of a Nim position whose heaps are all 0 or 1 (0^{120},
    /// 1^{031}): such a position is *fickle*, the others *firm*.
    pub fn is_fickle(&self) -> bool {
        self.normal <= 1 && *self == Genus::nim(self.normal, true)
    }

    /// The genus of a sum of tame positions with these genera: that of the Nim position with
    /// the same values, or `None` when some genus is not a Nim genus.
    ///
    /// ```
    /// use sprague::quotient::Genus;
    /// let one = Genus::nim(1, true); // 1^{031}, the genus of *
    /// let two = Genus::nim(2, false); // 2^{20}
    /// assert_eq!(Genus::tame_sum(&[one.clone(), one.clone()]).unwrap().to_string(), "0^{120}");
    /// assert_eq!(Genus::tame_sum(&[one, two]).unwrap().to_string(), "3^{31}");
    /// ```
    pub fn tame_sum(parts: &[Genus]) -> Option<Genus> {
        let mut x = 0;
        let mut small = true;
        for part in parts {
            if !part.is_nim() {
                return None;
            }
            x ^= part.normal;
            small &= part.is_fickle();
        }
        Some(Genus::nim(x, small))
    }

    /// The genus of a position from its options' genera (no options: the genus 0^{120}).
    fn from_options(options: &[Genus]) -> Result<Genus> {
        let normal = mex(options.iter().map(|o| o.normal));
        let settle = options
            .iter()
            .map(|o| o.misere.len() - 1)
            .max()
            .unwrap_or(0)
            .max(2);
        let mut misere: Vec<u64> = Vec::new();
        for k in 0.. {
            let g = if k == 0 {
                if options.is_empty() {
                    1
                } else {
                    mex(options.iter().map(|o| o.misere(0)))
                }
            } else {
                let prev = misere[k - 1];
                mex(options.iter().map(|o| o.misere(k)).chain([prev, prev ^ 1]))
            };
            misere.push(g);
            if k >= settle && misere[k] == misere[k - 2] {
                break;
            }
            if k > 4 * settle + 64 {
                return Err(Error::Internal(
                    "a genus sequence did not settle into alternation".into(),
                ));
            }
        }
        Ok(Genus::new(normal, misere))
    }
}

impl fmt::Display for Genus {
    /// `g^{γ0γ1…}`, or with commas `g^{γ0,γ1,…}` when some value has two digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wide = self.misere.iter().any(|&g| g >= 10);
        let digits: Vec<String> = self.misere.iter().map(u64::to_string).collect();
        write!(
            f,
            "{}^{{{}}}",
            self.normal,
            digits.join(if wide { "," } else { "" })
        )
    }
}

fn mex(values: impl Iterator<Item = u64>) -> u64 {
    let mut seen: Vec<bool> = Vec::new();
    for v in values {
        if let Ok(i) = usize::try_from(v) {
            if i < 1 << 20 {
                if i >= seen.len() {
                    seen.resize(i + 1, false);
                }
                seen[i] = true;
            }
        }
    }
    seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u64
}

/// The genus and tameness of one heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapGenus {
    /// The heap size.
    pub heap: u64,
    /// Its genus.
    pub genus: Genus,
    /// Whether it is tame (see the module docs).
    pub tame: bool,
}

/// Genera of the heaps 0..=to of a heap game, with a memo of the sums met on the way.
pub struct GenusTable {
    options: Vec<Vec<Vec<u32>>>,
    heaps: Vec<HeapGenus>,
    memo: HashMap<Vec<u32>, Genus>,
    position_limit: usize,
    use_tame_rule: bool,
}

impl GenusTable {
    /// The genus of every heap 0..=`to` of `rules`.
    ///
    /// Sums of tame heaps are added by the Nim rule; sums with a wild heap are searched, with
    /// every sum met memoised, up to `position_limit` of them.
    ///
    /// ```
    /// use sprague::heap::Code;
    /// use sprague::quotient::GenusTable;
    /// let kayles = GenusTable::compute(&Code::parse("0.77").unwrap(), 5, 100_000, &())?;
    /// assert_eq!(kayles.heap(1).genus.to_string(), "1^{031}");
    /// assert_eq!(kayles.heap(5).genus.to_string(), "4^{146}");
    /// assert!(!kayles.heap(5).tame);
    /// # Ok::<(), sprague::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Limit`] past [`MAX_GENUS_HEAP`] or `position_limit` sums; the rules' own
    /// errors; a cycle if the rules leave a heap not smaller than the one moved in.
    pub fn compute(
        rules: &dyn HeapRules,
        to: u64,
        position_limit: usize,
        progress: &dyn Progress,
    ) -> Result<GenusTable> {
        GenusTable::compute_with(rules, to, position_limit, true, progress)
    }

    fn compute_with(
        rules: &dyn HeapRules,
        to: u64,
        position_limit: usize,
        use_tame_rule: bool,
        progress: &dyn Progress,
    ) -> Result<GenusTable> {
        if to > MAX_GENUS_HEAP {
            return Err(Error::Limit(format!(
                "heap {to} is past the largest genus table computed ({MAX_GENUS_HEAP} heaps)"
            )));
        }
        let mut table = GenusTable {
            options: vec![Vec::new()],
            heaps: vec![HeapGenus {
                heap: 0,
                genus: Genus::nim(0, true),
                tame: true,
            }],
            memo: HashMap::new(),
            position_limit,
            use_tame_rule,
        };
        let listed = HeapOptions::build(rules, to, "genus table")?.options;
        progress.start("genus", to);
        for n in 1..=to as usize {
            // heaps without moves are the empty sum
            let mut list: Vec<Vec<u32>> = listed[n]
                .iter()
                .map(|o| {
                    o.iter()
                        .copied()
                        .filter(|&h| !listed[h as usize].is_empty())
                        .collect()
                })
                .collect();
            list.sort();
            list.dedup();
            table.options.push(list);
            let genus = table.genus_of(&[n as u32])?;
            let tame = genus.is_nim()
                && table.options[n]
                    .iter()
                    .all(|o| o.iter().all(|&h| table.heaps[h as usize].tame));
            table.heaps.push(HeapGenus {
                heap: n as u64,
                genus,
                tame,
            });
            progress.advance(n as u64, "");
            crate::progress::check(progress)?;
        }
        progress.finish();
        Ok(table)
    }

    /// The genus of heap `n`.
    ///
    /// # Panics
    /// If `n` is past the table.
    pub fn heap(&self, n: u64) -> &HeapGenus {
        &self.heaps[n as usize]
    }

    /// Every heap's genus, heap 0 first.
    pub fn heaps(&self) -> &[HeapGenus] {
        &self.heaps
    }

    /// The genus of a sum of heaps: by the Nim rule when every heap is tame, by search
    /// otherwise.
    ///
    /// # Errors
    /// [`Error::Position`] for a heap past the table; [`Error::Limit`] past the position limit.
    pub fn sum(&mut self, heaps: &[u64]) -> Result<Genus> {
        let max = self.heaps.len() as u64 - 1;
        let mut parts = Vec::with_capacity(heaps.len());
        for &h in heaps {
            if h > max {
                return Err(Error::position(
                    "genus",
                    format!("heap {h} is past the table (heaps up to {max})"),
                ));
            }
            if h > 0 && !self.options[h as usize].is_empty() {
                parts.push(h as u32);
            }
        }
        parts.sort_unstable();
        self.genus_of(&parts)
    }

    /// The genus of a sorted sum of heaps that all have moves, memoised.
    fn genus_of(&mut self, position: &[u32]) -> Result<Genus> {
        if self.use_tame_rule && position.iter().all(|&h| self.is_tame(h)) {
            let parts: Vec<Genus> = position
                .iter()
                .map(|&h| self.heaps[h as usize].genus.clone())
                .collect();
            if let Some(g) = Genus::tame_sum(&parts) {
                return Ok(g);
            }
        }
        if let Some(g) = self.memo.get(position) {
            return Ok(g.clone());
        }
        if self.memo.len() >= self.position_limit {
            return Err(Error::Limit(format!(
                "more than {} sums searched for the genus; the game is too wild this far",
                self.position_limit
            )));
        }
        let mut options = Vec::new();
        let mut last = None;
        for (i, &h) in position.iter().enumerate() {
            if last == Some(h) {
                continue; // equal heaps have the same moves
            }
            last = Some(h);
            for leaves in self.options[h as usize].clone() {
                let mut next: Vec<u32> = position[..i].to_vec();
                next.extend_from_slice(&position[i + 1..]);
                next.extend_from_slice(&leaves);
                next.sort_unstable();
                options.push(self.genus_of(&next)?);
            }
        }
        let genus = Genus::from_options(&options)?;
        self.memo.insert(position.to_vec(), genus.clone());
        Ok(genus)
    }

    /// Whether heap `h` is known and tame (heaps being computed are not yet known).
    fn is_tame(&self, h: u32) -> bool {
        self.heaps.get(h as usize).is_some_and(|g| g.tame)
    }

    /// The report of `sprague genus --json` for the game `game` (its spec as written).
    pub fn report(&self, game: &str) -> GenusReport {
        GenusReport {
            game: game.to_string(),
            heaps: self
                .heaps
                .iter()
                .map(|h| GenusEntry {
                    heap: h.heap,
                    genus: h.genus.to_string(),
                    normal: h.genus.normal(),
                    misere: h.genus.misere_values(4),
                    tame: h.tame,
                })
                .collect(),
        }
    }
}

/// The report of `sprague genus --json` (see `docs/interface.md`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GenusReport {
    /// The game's spec.
    pub game: String,
    /// One entry a heap, heap 0 first.
    pub heaps: Vec<GenusEntry>,
}

/// One heap of a [`GenusReport`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GenusEntry {
    /// The heap size.
    pub heap: u64,
    /// The genus symbol, `1^{031}`.
    pub genus: String,
    /// The normal-play nim value.
    pub normal: u64,
    /// γ0, γ1, …: until they alternate, at least four.
    pub misere: Vec<u64>,
    /// Whether the heap is tame.
    pub tame: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::Code;
    use crate::quotient::testing::GrundyOracle;
    use proptest::prelude::*;

    #[test]
    fn nim_genera_and_their_text() {
        assert_eq!(Genus::nim(0, true).to_string(), "0^{120}");
        assert_eq!(Genus::nim(1, true).to_string(), "1^{031}");
        assert_eq!(Genus::nim(2, false).to_string(), "2^{20}");
        assert_eq!(Genus::nim(0, false).to_string(), "0^{02}");
        assert_eq!(Genus::nim(12, false).to_string(), "12^{12,14}");
        assert_eq!(Genus::nim(1, true).misere_values(6), vec![0, 3, 1, 3, 1, 3]);
        assert!(Genus::new(4, vec![1, 4, 6]).to_string() == "4^{146}");
        assert!(!Genus::new(4, vec![1, 4, 6]).is_nim());
        // trailing alternation is cut
        assert_eq!(Genus::new(1, vec![0, 3, 1, 3, 1]), Genus::nim(1, true));
    }

    fn table(code: &str, to: u64) -> GenusTable {
        GenusTable::compute(&Code::parse(code).unwrap(), to, DEFAULT_POSITION_LIMIT, &()).unwrap()
    }

    fn genera(t: &GenusTable) -> Vec<String> {
        t.heaps().iter().map(|h| h.genus.to_string()).collect()
    }

    #[test]
    fn published_genera() {
        // Kayles (0.77): heap 1 is 1^{031} and heap 5 is 4^{146} (issue 17, after Winning Ways
        // chapter 13; the book itself could not be consulted here).
        let kayles = table("0.77", 5);
        assert_eq!(kayles.heap(1).genus.to_string(), "1^{031}");
        assert_eq!(kayles.heap(5).genus.to_string(), "4^{146}");
        assert!(kayles.heap(4).tame && !kayles.heap(5).tame);
        // 0.312: heaps 1 to 6 are 1^{03131}, 2^{20}, 0^{02}, 2^{1420}, 0^{02}, 1^{13}, heap 4
        // the only wild one (T. Plambeck, "The Game .312", plambeck.org, misère octal games,
        // quaternary games, solved 4 February 2003; 1^{03131} is 1^{031} written longer).
        let t = table("0.312", 6);
        assert_eq!(
            genera(&t)[1..],
            ["1^{031}", "2^{20}", "0^{02}", "2^{1420}", "0^{02}", "1^{13}"]
        );
        let tame: Vec<bool> = t.heaps()[1..].iter().map(|h| h.tame).collect();
        assert_eq!(tame, [true, true, true, false, false, false]);
    }

    #[test]
    fn subtraction_games_are_tame() {
        // Winning Ways, chapter 13: every subtraction game is tame.
        for set in [&[1u64, 2][..], &[1, 3, 4], &[2, 5, 7], &[1, 2, 3, 6]] {
            let t = GenusTable::compute(&Code::subtraction(set).unwrap(), 40, 1000, &()).unwrap();
            assert!(t.heaps().iter().all(|h| h.tame), "{set:?}");
        }
    }

    /// The genera of the heaps of `rules` match plain misère Grundy search on heap + k·*2
    /// (k = 0..6), and the nim values of the tabulation engine.
    fn matches_search(rules: &Code, to: u64) {
        let t = GenusTable::compute(rules, to, DEFAULT_POSITION_LIMIT, &()).unwrap();
        let normal = crate::heap::testing::values_of(rules, to);
        let mut oracle = GrundyOracle::new(rules, to);
        for n in 0..=to {
            let g = &t.heap(n).genus;
            assert_eq!(g.normal(), normal[n as usize], "{rules:?} heap {n}");
            for k in 0..6 {
                assert_eq!(
                    g.misere(k),
                    oracle.value(&[n], k as u32, 0),
                    "{rules:?} {n} k={k}"
                );
            }
        }
    }

    #[test]
    fn heap_genera_agree_with_plain_search() {
        for code in [
            "0.77", "0.07", "0.137", "0.312", "4.7", "0.75", "0.123", "0.15",
        ] {
            matches_search(&Code::parse(code).unwrap(), 11);
        }
    }

    #[test]
    fn sums_agree_with_search_and_tame_sums_add_like_nim() {
        for code in ["0.77", "0.07", "0.312", "0.75", "0.15", "4.7"] {
            let rules = Code::parse(code).unwrap();
            let mut fast = GenusTable::compute(&rules, 9, DEFAULT_POSITION_LIMIT, &()).unwrap();
            let mut direct =
                GenusTable::compute_with(&rules, 9, DEFAULT_POSITION_LIMIT, false, &()).unwrap();
            assert_eq!(genera(&fast), genera(&direct), "{code}");
            let mut oracle = GrundyOracle::new(&rules, 9);
            for a in 1..=9u64 {
                for b in a..=9 {
                    let sum = fast.sum(&[a, b]).unwrap();
                    assert_eq!(sum, direct.sum(&[a, b]).unwrap(), "{code} {a}+{b}");
                    for k in 0..4 {
                        assert_eq!(
                            sum.misere(k as usize),
                            oracle.value(&[a, b], k, 0),
                            "{code} {a}+{b}"
                        );
                    }
                    if fast.heap(a).tame && fast.heap(b).tame {
                        let parts = [fast.heap(a).genus.clone(), fast.heap(b).genus.clone()];
                        assert_eq!(Genus::tame_sum(&parts), Some(sum), "{code} {a}+{b}");
                    }
                }
            }
        }
    }

    #[test]
    fn report_lists_at_least_four_misere_values() {
        let t = table("0.77", 6);
        let v = serde_json::to_value(t.report("kayles")).unwrap();
        assert_eq!(v["game"], "kayles");
        let heap5 = &v["heaps"][5];
        assert_eq!(heap5["genus"], "4^{146}");
        assert_eq!(heap5["normal"], 4);
        assert_eq!(heap5["misere"], serde_json::json!([1, 4, 6, 4]));
        assert_eq!(heap5["tame"], false);
        assert_eq!(v["heaps"][2]["misere"], serde_json::json!([2, 0, 2, 0]));
    }

    #[test]
    fn limits_are_typed_errors() {
        let kayles = Code::parse("0.77").unwrap();
        assert!(matches!(
            GenusTable::compute(&kayles, MAX_GENUS_HEAP + 1, 10, &()),
            Err(Error::Limit(_))
        ));
        assert!(matches!(
            GenusTable::compute(&kayles, 20, 10, &()),
            Err(Error::Limit(_))
        ));
        let mut t = table("0.77", 4);
        assert!(matches!(t.sum(&[5]), Err(Error::Position { .. })));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]

        #[test]
        fn random_codes_agree_with_plain_search(digits in prop::collection::vec(0u8..8, 1..=3)) {
            prop_assume!(digits.last() != Some(&0));
            let text: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
            matches_search(&Code::parse(&format!("0.{text}")).unwrap(), 9);
        }
    }

    #[test]
    fn nim_heaps_have_nim_genera() {
        let nim = Code::all_but(&[]).unwrap();
        let table = GenusTable::compute(&nim, 8, 1000, &()).unwrap();
        assert_eq!(table.heap(0).genus, Genus::nim(0, true));
        assert_eq!(table.heap(1).genus, Genus::nim(1, true));
        for n in 2..=8 {
            assert_eq!(table.heap(n).genus, Genus::nim(n, false), "heap {n}");
            assert!(table.heap(n).tame);
        }
    }
}
