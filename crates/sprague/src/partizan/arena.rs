//! The arena of canonical forms: every short game in canonical form is stored once and named
//! by a [`GameId`]; sums, negatives and comparisons are memoised on ids.
//!
//! Numbers, nimbers and up multiples (`x + n·↑ + *m`, "nus" in CGSuite's words) are special
//! nodes: their arithmetic and comparisons are closed forms, and their options are built only
//! when an algorithm asks for them (so the integer 10^9 is one node, not a chain).
//!
//! The general algorithms are the textbook ones (Siegel, *Combinatorial Game Theory*, ch. II):
//! `G ≤ H` unless some `G^L ≥ H` or some `H^R ≤ G`; a sum's options are the sums with one part
//! moved; canonical form = remove dominated options, bypass reversible ones, repeat.

use super::dyadic::Dyadic;
use hashbrown::{DefaultHashBuilder, HashMap, HashTable};
use std::hash::BuildHasher;

/// The name of a canonical form in an [`Arena`]: equal ids are equal games, and only equal
/// games share an id.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct GameId(u32);

impl GameId {
    /// The id's index in its arena (0 is always the game 0).
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A number plus a multiple of up plus a nimber: `number + ups·↑ + *nimber`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Nus {
    /// The number part.
    pub number: Dyadic,
    /// How many ups (negative for downs).
    pub ups: i64,
    /// The nimber part.
    pub nimber: u32,
}

impl Nus {
    /// The number `x`.
    pub const fn number(x: Dyadic) -> Nus {
        Nus {
            number: x,
            ups: 0,
            nimber: 0,
        }
    }

    /// Whether the value is a number (no ups, no star).
    pub const fn is_number(self) -> bool {
        self.ups == 0 && self.nimber == 0
    }

    fn add(self, other: Nus) -> Nus {
        Nus {
            number: self.number + other.number,
            ups: self.ups + other.ups,
            nimber: self.nimber ^ other.nimber,
        }
    }

    fn neg(self) -> Nus {
        Nus {
            number: -self.number,
            ups: -self.ups,
            nimber: self.nimber,
        }
    }

    /// Whether `self ≥ 0`.
    fn is_nonnegative(self) -> bool {
        if self.number != Dyadic::ZERO {
            return self.number > Dyadic::ZERO;
        }
        // ↑* is confused with 0; every other n·↑*m with n ≥ 1 is positive.
        (self.ups == 0 && self.nimber == 0)
            || (self.ups >= 1 && !(self.ups == 1 && self.nimber == 1))
    }
}

/// How two games compare: `<`, `>`, `=` or `||` (confused, incomparable).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Relation {
    /// `G < H`.
    Less,
    /// `G = H`.
    Equal,
    /// `G > H`.
    Greater,
    /// `G || H`: neither `G ≤ H` nor `H ≤ G`.
    Confused,
}

impl Relation {
    /// The symbol: `<`, `=`, `>` or `||`.
    pub const fn symbol(self) -> &'static str {
        match self {
            Relation::Less => "<",
            Relation::Equal => "=",
            Relation::Greater => ">",
            Relation::Confused => "||",
        }
    }
}

/// The outcome class of a short partizan game: who wins with each player moving first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize)]
pub enum Outcome {
    /// Left wins whoever starts (`G > 0`).
    L,
    /// Right wins whoever starts (`G < 0`).
    R,
    /// The player to move wins (`G || 0`).
    N,
    /// The player to move loses (`G = 0`).
    P,
}

impl Outcome {
    /// `"L"`, `"R"`, `"N"` or `"P"`.
    pub const fn letter(self) -> &'static str {
        match self {
            Outcome::L => "L",
            Outcome::R => "R",
            Outcome::N => "N",
            Outcome::P => "P",
        }
    }
}

/// A player of a partizan game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// Left (Blue, positive values).
    Left,
    /// Right (Red, negative values).
    Right,
}

impl Side {
    /// The other player.
    pub const fn opponent(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

const UNKNOWN: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// Where the options start in the pool (left options, then right options).
    start: u32,
    left: u32,
    right: u32,
    /// Whether `start`, `left` and `right` are filled in (nus nodes are expanded on demand).
    expanded: bool,
    nus: Option<Nus>,
    negative: u32,
    /// The Left and Right stops (for a nus, its number part).
    stops: (Dyadic, Dyadic),
}

/// Counts of the work an arena has done, for benchmarks and tuning.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct ArenaStats {
    /// Canonical forms stored.
    pub nodes: usize,
    /// Option ids stored.
    pub options: usize,
    /// Memoised comparisons.
    pub comparisons: usize,
    /// Memoised sums.
    pub sums: usize,
}

/// The store of canonical forms. Single-threaded: every operation takes `&mut self`. Give each
/// thread its own arena, or move finished values out as [`super::Canonical`] (which is
/// `Send + Sync`).
pub struct Arena {
    nodes: Vec<Node>,
    pool: Vec<GameId>,
    nus_ids: HashMap<Nus, GameId>,
    general: HashTable<GameId>,
    hasher: DefaultHashBuilder,
    leq_memo: HashMap<u64, bool>,
    sum_memo: HashMap<u64, GameId>,
    fast_paths: bool,
}

impl Default for Arena {
    fn default() -> Self {
        Arena::new()
    }
}

impl std::fmt::Debug for Arena {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arena")
            .field("stats", &self.stats())
            .finish()
    }
}

fn pair(a: GameId, b: GameId) -> u64 {
    (u64::from(a.0) << 32) | u64::from(b.0)
}

impl Arena {
    /// An arena holding only 0.
    pub fn new() -> Arena {
        let mut arena = Arena {
            nodes: Vec::new(),
            pool: Vec::new(),
            nus_ids: HashMap::new(),
            general: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
            leq_memo: HashMap::new(),
            sum_memo: HashMap::new(),
            fast_paths: true,
        };
        let zero = arena.nus(Nus::default());
        debug_assert_eq!(zero, Arena::ZERO);
        arena
    }

    /// The game 0 = `{ | }`, in every arena.
    pub const ZERO: GameId = GameId(0);

    /// An arena that uses only the general algorithms (no closed forms for numbers, nimbers and
    /// ups): the oracle that the fast paths are tested against.
    #[doc(hidden)]
    pub fn without_fast_paths() -> Arena {
        let mut arena = Arena::new();
        arena.fast_paths = false;
        arena
    }

    /// What the arena holds.
    pub fn stats(&self) -> ArenaStats {
        ArenaStats {
            nodes: self.nodes.len(),
            options: self.pool.len(),
            comparisons: self.leq_memo.len(),
            sums: self.sum_memo.len(),
        }
    }

    /// An estimate of the arena's memory use in bytes.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.pool.capacity() * 4
            + self.general.capacity() * 5
            + self.nus_ids.capacity() * 41
            + self.leq_memo.capacity() * 10
            + self.sum_memo.capacity() * 13
    }

    /// Forgets the memoised sums and comparisons (the canonical forms stay); a way to bound
    /// memory between large computations.
    pub fn clear_caches(&mut self) {
        self.leq_memo = HashMap::new();
        self.sum_memo = HashMap::new();
    }

    // ----- construction -------------------------------------------------------------------

    /// The game `number + ups·↑ + *nimber`.
    pub fn nus(&mut self, nus: Nus) -> GameId {
        if let Some(&id) = self.nus_ids.get(&nus) {
            return id;
        }
        let id = self.push(Node {
            start: 0,
            left: 0,
            right: 0,
            expanded: false,
            nus: Some(nus),
            negative: UNKNOWN,
            stops: (nus.number, nus.number),
        });
        self.nus_ids.insert(nus, id);
        id
    }

    /// The number `x`.
    pub fn number(&mut self, x: Dyadic) -> GameId {
        self.nus(Nus::number(x))
    }

    /// The integer `n`.
    pub fn integer(&mut self, n: i64) -> GameId {
        self.number(Dyadic::integer(n))
    }

    /// The nimber `*m`.
    pub fn nimber(&mut self, m: u32) -> GameId {
        self.nus(Nus {
            number: Dyadic::ZERO,
            ups: 0,
            nimber: m,
        })
    }

    fn push(&mut self, node: Node) -> GameId {
        let id = GameId(u32::try_from(self.nodes.len()).expect("more than 2^32 canonical forms"));
        self.nodes.push(node);
        id
    }

    /// The canonical form of `{ left | right }`, for options that are canonical forms of this
    /// arena (in any order, repeats allowed).
    pub fn from_options(&mut self, left: &[GameId], right: &[GameId]) -> GameId {
        let mut left = left.to_vec();
        let mut right = right.to_vec();
        self.simplify(&mut left, &mut right);
        self.intern(left, right)
    }

    fn sort(options: &mut Vec<GameId>) {
        options.sort_unstable();
        options.dedup();
    }

    /// Removes dominated options and bypasses reversible ones until neither is left.
    fn simplify(&mut self, left: &mut Vec<GameId>, right: &mut Vec<GameId>) {
        Self::sort(left);
        Self::sort(right);
        if self.fast_paths {
            if let Some((l, r)) = self.number_options(left, right) {
                *left = l.into_iter().collect();
                *right = r.into_iter().collect();
                return;
            }
        }
        loop {
            self.remove_dominated(left, Side::Left);
            self.remove_dominated(right, Side::Right);
            let changed_left = self.bypass_reversible(left, right, Side::Left);
            let changed_right = self.bypass_reversible(left, right, Side::Right);
            if !changed_left && !changed_right {
                break;
            }
            Self::sort(left);
            Self::sort(right);
        }
    }

    /// When every option is a number, the canonical options at once: the best for each side
    /// (a number `{a|b}` with `a < b` is simplified by [`Arena::intern`]).
    fn number_options(
        &mut self,
        left: &[GameId],
        right: &[GameId],
    ) -> Option<(Option<GameId>, Option<GameId>)> {
        let mut best_left: Option<(Dyadic, GameId)> = None;
        for &g in left {
            let x = self.number_of(g)?;
            if best_left.is_none_or(|(b, _)| x > b) {
                best_left = Some((x, g));
            }
        }
        let mut best_right: Option<(Dyadic, GameId)> = None;
        for &g in right {
            let x = self.number_of(g)?;
            if best_right.is_none_or(|(b, _)| x < b) {
                best_right = Some((x, g));
            }
        }
        match (best_left, best_right) {
            (Some((l, _)), Some((r, _))) if l < r => {
                let x = Dyadic::simplest_between(Some(l), Some(r));
                let id = self.number(x);
                Some(self.number_form(id))
            }
            (Some((l, _)), None) => {
                let x = Dyadic::simplest_between(Some(l), None);
                let id = self.number(x);
                Some(self.number_form(id))
            }
            (None, Some((r, _))) => {
                let x = Dyadic::simplest_between(None, Some(r));
                let id = self.number(x);
                Some(self.number_form(id))
            }
            (l, r) => Some((l.map(|p| p.1), r.map(|p| p.1))),
        }
    }

    /// The (at most one a side) options of a number's canonical form.
    fn number_form(&mut self, id: GameId) -> (Option<GameId>, Option<GameId>) {
        let (start, nl, nr) = self.options(id);
        (
            (nl > 0).then(|| self.pool[start]),
            (nr > 0).then(|| self.pool[start + nl]),
        )
    }

    fn remove_dominated(&mut self, options: &mut Vec<GameId>, side: Side) {
        if options.len() < 2 {
            return;
        }
        let mut keep = vec![true; options.len()];
        for i in 0..options.len() {
            for j in 0..options.len() {
                if i == j || !keep[j] {
                    continue;
                }
                let (a, b) = (options[i], options[j]);
                // a is dominated by b: for Left a ≤ b, for Right a ≥ b.
                let dominated = match side {
                    Side::Left => self.leq(a, b),
                    Side::Right => self.leq(b, a),
                };
                if dominated {
                    keep[i] = false;
                    break;
                }
            }
        }
        let mut index = 0;
        options.retain(|_| {
            index += 1;
            keep[index - 1]
        });
    }

    /// Replaces each reversible option of `side` by the options that reverse through it.
    /// Returns whether anything changed.
    fn bypass_reversible(
        &mut self,
        left: &mut Vec<GameId>,
        right: &mut Vec<GameId>,
        side: Side,
    ) -> bool {
        let mut changed = false;
        let mut i = 0;
        loop {
            let len = match side {
                Side::Left => left.len(),
                Side::Right => right.len(),
            };
            if i >= len {
                return changed;
            }
            let option = match side {
                Side::Left => left[i],
                Side::Right => right[i],
            };
            let (start, nl, nr) = self.options(option);
            let candidates = match side {
                Side::Left => start + nl..start + nl + nr,
                Side::Right => start..start + nl,
            };
            let mut reversing = None;
            for k in candidates {
                let through = self.pool[k];
                // A Left option G^L reverses through G^LR when G^LR ≤ G; a Right option G^R
                // through G^RL when G^RL ≥ G.
                let reverses = match side {
                    Side::Left => self.leq_game_options(through, left, right),
                    Side::Right => self.options_leq_game(left, right, through),
                };
                if reverses {
                    reversing = Some(through);
                    break;
                }
            }
            match reversing {
                None => i += 1,
                Some(through) => {
                    let (s, l, r) = self.options(through);
                    let replacement: Vec<GameId> = match side {
                        Side::Left => self.pool[s..s + l].to_vec(),
                        Side::Right => self.pool[s + l..s + l + r].to_vec(),
                    };
                    let list = match side {
                        Side::Left => &mut *left,
                        Side::Right => &mut *right,
                    };
                    list.swap_remove(i);
                    for g in replacement {
                        if !list.contains(&g) {
                            list.push(g);
                        }
                    }
                    changed = true;
                }
            }
        }
    }

    /// Whether `{left | right} ≤ h`.
    fn options_leq_game(&mut self, left: &[GameId], right: &[GameId], h: GameId) -> bool {
        if left.iter().any(|&gl| self.leq(h, gl)) {
            return false;
        }
        let (start, nl, nr) = self.options(h);
        for k in start + nl..start + nl + nr {
            let hr = self.pool[k];
            if self.leq_game_options(hr, left, right) {
                return false;
            }
        }
        true
    }

    /// Whether `h ≤ {left | right}`.
    fn leq_game_options(&mut self, h: GameId, left: &[GameId], right: &[GameId]) -> bool {
        if right.iter().any(|&gr| self.leq(gr, h)) {
            return false;
        }
        let (start, nl, _) = self.options(h);
        for k in start..start + nl {
            let hl = self.pool[k];
            if self.options_leq_game(left, right, hl) {
                return false;
            }
        }
        true
    }

    /// Stores `{left | right}`, whose options are canonical and which has no dominated or
    /// reversible option, and returns its id (the nus id when it is one).
    fn intern(&mut self, mut left: Vec<GameId>, mut right: Vec<GameId>) -> GameId {
        Self::sort(&mut left);
        Self::sort(&mut right);
        if let Some(nus) = self.detect_nus(&left, &right) {
            let id = self.nus(nus);
            if !self.nodes[id.index()].expanded {
                self.set_options(id, &left, &right);
            }
            return id;
        }
        let hash = self.hasher.hash_one((&left, &right));
        let (nodes, pool) = (&self.nodes, &self.pool);
        let found = self.general.find(hash, |&id| {
            let node = nodes[id.index()];
            let s = node.start as usize;
            let (l, r) = (node.left as usize, node.right as usize);
            pool[s..s + l] == left[..] && pool[s + l..s + l + r] == right[..]
        });
        if let Some(&id) = found {
            return id;
        }
        let stop = |arena: &Arena, options: &[GameId], left: bool| {
            let stops = options.iter().map(|o| {
                let (l, r) = arena.nodes[o.index()].stops;
                if left {
                    r
                } else {
                    l
                }
            });
            if left { stops.max() } else { stops.min() }
                .expect("a canonical non-number has options on both sides")
        };
        let stops = (stop(self, &left, true), stop(self, &right, false));
        let id = self.push(Node {
            start: 0,
            left: 0,
            right: 0,
            expanded: false,
            nus: None,
            negative: UNKNOWN,
            stops,
        });
        self.set_options(id, &left, &right);
        let (nodes, pool, hasher) = (&self.nodes, &self.pool, &self.hasher);
        self.general.insert_unique(hash, id, |&other| {
            let node = nodes[other.index()];
            let s = node.start as usize;
            let (l, r) = (node.left as usize, node.right as usize);
            hasher.hash_one((&pool[s..s + l], &pool[s + l..s + l + r]))
        });
        id
    }

    /// Stores a form known to be canonical (options canonical, none dominated or reversible),
    /// such as one copied from another arena.
    pub(crate) fn intern_canonical(&mut self, left: Vec<GameId>, right: Vec<GameId>) -> GameId {
        self.intern(left, right)
    }

    fn set_options(&mut self, id: GameId, left: &[GameId], right: &[GameId]) {
        let start = u32::try_from(self.pool.len()).expect("more than 2^32 options stored");
        self.pool.extend_from_slice(left);
        self.pool.extend_from_slice(right);
        let node = &mut self.nodes[id.index()];
        node.start = start;
        node.left = left.len() as u32;
        node.right = right.len() as u32;
        node.expanded = true;
    }

    /// Recognises the canonical forms of numbers, nimbers and up multiples.
    fn detect_nus(&mut self, left: &[GameId], right: &[GameId]) -> Option<Nus> {
        let nus = |arena: &Arena, g: GameId| arena.nodes[g.index()].nus;
        match (left, right) {
            ([], []) => return Some(Nus::default()),
            ([l], []) => {
                let x = nus(self, *l)?;
                return (x.is_number() && x.number.is_integer() && x.number >= Dyadic::ZERO)
                    .then(|| Nus::number(x.number + Dyadic::ONE));
            }
            ([], [r]) => {
                let x = nus(self, *r)?;
                return (x.is_number() && x.number.is_integer() && x.number <= Dyadic::ZERO)
                    .then(|| Nus::number(x.number - Dyadic::ONE));
            }
            _ => {}
        }
        let all: Option<Vec<Nus>> = left.iter().chain(right).map(|&g| nus(self, g)).collect();
        let all = all?;
        let (ls, rs) = all.split_at(left.len());
        if let ([l], [r]) = (ls, rs) {
            if l.is_number() && r.is_number() {
                if l.number < r.number {
                    return Some(Nus::number(Dyadic::simplest_between(
                        Some(l.number),
                        Some(r.number),
                    )));
                }
                if l.number == r.number {
                    return Some(Nus {
                        number: l.number,
                        ups: 0,
                        nimber: 1,
                    });
                }
                return None;
            }
        }
        if left == right {
            // x + *m = { x, x+*, ..., x+*(m-1) | same }.
            let x = ls[0].number;
            let m = ls.len() as u32;
            let mut seen = vec![false; ls.len()];
            for n in ls {
                if n.number != x || n.ups != 0 || n.nimber >= m || seen[n.nimber as usize] {
                    return None;
                }
                seen[n.nimber as usize] = true;
            }
            return Some(Nus {
                number: x,
                ups: 0,
                nimber: m,
            });
        }
        let star = |x: Dyadic| Nus {
            number: x,
            ups: 0,
            nimber: 1,
        };
        match (ls, rs) {
            ([l], [r]) if l.is_number() && r.number == l.number && r.ups >= 0 => {
                let candidate = Nus {
                    number: l.number,
                    ups: r.ups + 1,
                    nimber: r.nimber ^ 1,
                };
                (!(candidate.ups == 1 && candidate.nimber == 1)).then_some(candidate)
            }
            ([l], [r]) if r.is_number() && l.number == r.number && l.ups <= 0 => {
                let candidate = Nus {
                    number: r.number,
                    ups: l.ups - 1,
                    nimber: l.nimber ^ 1,
                };
                (!(candidate.ups == -1 && candidate.nimber == 1)).then_some(candidate)
            }
            ([a, b], [r])
                if r.is_number()
                    && (*a == Nus::number(r.number) && *b == star(r.number)
                        || *b == Nus::number(r.number) && *a == star(r.number)) =>
            {
                Some(Nus {
                    number: r.number,
                    ups: 1,
                    nimber: 1,
                })
            }
            ([l], [a, b])
                if l.is_number()
                    && (*a == Nus::number(l.number) && *b == star(l.number)
                        || *b == Nus::number(l.number) && *a == star(l.number)) =>
            {
                Some(Nus {
                    number: l.number,
                    ups: -1,
                    nimber: 1,
                })
            }
            _ => None,
        }
    }

    /// The canonical options of a nus, by the closed forms.
    fn nus_options(&mut self, n: Nus) -> (Vec<GameId>, Vec<GameId>) {
        let x = n.number;
        if n.ups == 0 && n.nimber == 0 {
            if x.is_integer() {
                return match x.numerator() {
                    0 => (vec![], vec![]),
                    k if k > 0 => (vec![self.integer(k - 1)], vec![]),
                    k => (vec![], vec![self.integer(k + 1)]),
                };
            }
            let step = Dyadic::new(1, x.exponent());
            return (vec![self.number(x - step)], vec![self.number(x + step)]);
        }
        let at = |ups: i64, nimber: u32| Nus {
            number: x,
            ups,
            nimber,
        };
        if n.ups == 0 {
            let options: Vec<GameId> = (0..n.nimber).map(|j| self.nus(at(0, j))).collect();
            return (options.clone(), options);
        }
        let base = self.number(x);
        if n.ups == 1 && n.nimber == 1 {
            let star = self.nus(at(0, 1));
            return (vec![base, star], vec![base]);
        }
        if n.ups == -1 && n.nimber == 1 {
            let star = self.nus(at(0, 1));
            return (vec![base], vec![base, star]);
        }
        if n.ups > 0 {
            let right = self.nus(at(n.ups - 1, n.nimber ^ 1));
            (vec![base], vec![right])
        } else {
            let left = self.nus(at(n.ups + 1, n.nimber ^ 1));
            (vec![left], vec![base])
        }
    }

    /// `(start, left count, right count)` of `g`'s options in the pool, building them first
    /// for a nus that has none yet.
    fn options(&mut self, g: GameId) -> (usize, usize, usize) {
        let node = self.nodes[g.index()];
        if !node.expanded {
            let nus = node.nus.expect("only nus nodes are built lazily");
            let (left, right) = self.nus_options(nus);
            self.set_options(g, &left, &right);
        }
        let node = self.nodes[g.index()];
        (node.start as usize, node.left as usize, node.right as usize)
    }

    /// The Left options of `g`'s canonical form.
    pub fn left_options(&mut self, g: GameId) -> Vec<GameId> {
        let (s, l, _) = self.options(g);
        self.pool[s..s + l].to_vec()
    }

    /// The Right options of `g`'s canonical form.
    pub fn right_options(&mut self, g: GameId) -> Vec<GameId> {
        let (s, l, r) = self.options(g);
        self.pool[s + l..s + l + r].to_vec()
    }

    /// The options of `side` in `g`'s canonical form.
    pub fn side_options(&mut self, g: GameId, side: Side) -> Vec<GameId> {
        match side {
            Side::Left => self.left_options(g),
            Side::Right => self.right_options(g),
        }
    }

    // ----- queries ------------------------------------------------------------------------

    /// `g` as `number + ups·↑ + *nimber`, when it is one.
    pub fn nus_of(&self, g: GameId) -> Option<Nus> {
        self.nodes[g.index()].nus
    }

    /// The Left stop and the Right stop of `g`.
    pub fn stops(&self, g: GameId) -> (Dyadic, Dyadic) {
        self.nodes[g.index()].stops
    }

    /// `g` as a number, when it is one.
    pub fn number_of(&self, g: GameId) -> Option<Dyadic> {
        self.nus_of(g).filter(|n| n.is_number()).map(|n| n.number)
    }

    /// `g` as a nimber `*m`, when it is one.
    pub fn nimber_of(&self, g: GameId) -> Option<u32> {
        self.nus_of(g)
            .filter(|n| n.ups == 0 && n.number == Dyadic::ZERO)
            .map(|n| n.nimber)
    }

    /// Whether `g ≤ h`.
    pub fn leq(&mut self, g: GameId, h: GameId) -> bool {
        if g == h {
            return true;
        }
        if self.fast_paths {
            match (self.nus_of(g), self.nus_of(h)) {
                (Some(a), Some(b)) => return b.add(a.neg()).is_nonnegative(),
                // Number avoidance: for a number x and a game H that is not a number,
                // x ≤ H exactly when no H^R ≤ x, and H ≤ x when no H^L ≥ x.
                (Some(a), _) if a.is_number() => {
                    let (s, l, r) = self.options(h);
                    return (s + l..s + l + r).all(|k| {
                        let hr = self.pool[k];
                        !self.leq(hr, g)
                    });
                }
                (_, Some(b)) if b.is_number() => {
                    let (s, l, _) = self.options(g);
                    return (s..s + l).all(|k| {
                        let gl = self.pool[k];
                        !self.leq(h, gl)
                    });
                }
                _ => {}
            }
        }
        // Stops are monotone: G ≤ H needs L(G) ≤ L(H) and R(G) ≤ R(H); and L(G) < R(H)
        // makes G − H negative.
        let (gl_stop, gr_stop) = self.nodes[g.index()].stops;
        let (hl_stop, hr_stop) = self.nodes[h.index()].stops;
        if self.fast_paths {
            if gl_stop > hl_stop || gr_stop > hr_stop {
                return false;
            }
            if gl_stop < hr_stop {
                return true;
            }
        }
        let key = pair(g, h);
        if let Some(&known) = self.leq_memo.get(&key) {
            return known;
        }
        let (gs, gl, _) = self.options(g);
        let mut result = (gs..gs + gl).all(|k| {
            let option = self.pool[k];
            !self.leq(h, option)
        });
        if result {
            let (hs, hl, hr) = self.options(h);
            result = (hs + hl..hs + hl + hr).all(|k| {
                let option = self.pool[k];
                !self.leq(option, g)
            });
        }
        self.leq_memo.insert(key, result);
        result
    }

    /// How `g` compares with `h`.
    pub fn compare(&mut self, g: GameId, h: GameId) -> Relation {
        if g == h {
            return Relation::Equal;
        }
        match (self.leq(g, h), self.leq(h, g)) {
            (true, true) => Relation::Equal,
            (true, false) => Relation::Less,
            (false, true) => Relation::Greater,
            (false, false) => Relation::Confused,
        }
    }

    /// The outcome class of `g`.
    pub fn outcome(&mut self, g: GameId) -> Outcome {
        match self.compare(g, Arena::ZERO) {
            Relation::Equal => Outcome::P,
            Relation::Greater => Outcome::L,
            Relation::Less => Outcome::R,
            Relation::Confused => Outcome::N,
        }
    }

    /// `-g`.
    pub fn neg(&mut self, g: GameId) -> GameId {
        let known = self.nodes[g.index()].negative;
        if known != UNKNOWN {
            return GameId(known);
        }
        let result = match self.nus_of(g) {
            Some(n) => self.nus(n.neg()),
            None => {
                let (s, l, r) = self.options(g);
                let left_of: Vec<GameId> = self.pool[s + l..s + l + r].to_vec();
                let right_of: Vec<GameId> = self.pool[s..s + l].to_vec();
                let left: Vec<GameId> = left_of.into_iter().map(|o| self.neg(o)).collect();
                let right: Vec<GameId> = right_of.into_iter().map(|o| self.neg(o)).collect();
                self.intern(left, right)
            }
        };
        self.nodes[g.index()].negative = result.0;
        self.nodes[result.index()].negative = g.0;
        result
    }

    /// `g + h`.
    pub fn add(&mut self, g: GameId, h: GameId) -> GameId {
        if g == Arena::ZERO {
            return h;
        }
        if h == Arena::ZERO {
            return g;
        }
        let (g, h) = if g <= h { (g, h) } else { (h, g) };
        if self.fast_paths {
            if let (Some(a), Some(b)) = (self.nus_of(g), self.nus_of(h)) {
                return self.nus(a.add(b));
            }
        }
        let key = pair(g, h);
        if let Some(&known) = self.sum_memo.get(&key) {
            return known;
        }
        let result = self.add_uncached(g, h);
        self.sum_memo.insert(key, result);
        result
    }

    fn add_uncached(&mut self, g: GameId, h: GameId) -> GameId {
        if self.fast_paths {
            // Number translation: for G not a number, G + x = { G^L + x | G^R + x } is already
            // canonical; a nus splits into its number and its infinitesimal part.
            for (a, b) in [(g, h), (h, g)] {
                if let Some(n) = self.nus_of(a) {
                    if n.number != Dyadic::ZERO {
                        let rest = Nus {
                            number: Dyadic::ZERO,
                            ..n
                        };
                        let rest = self.nus(rest);
                        let b = self.add(b, rest);
                        return self.translate(b, n.number);
                    }
                }
            }
        }
        let (gs, gl, gr) = self.options(g);
        let (hs, hl, hr) = self.options(h);
        let g_left: Vec<GameId> = self.pool[gs..gs + gl].to_vec();
        let g_right: Vec<GameId> = self.pool[gs + gl..gs + gl + gr].to_vec();
        let h_left: Vec<GameId> = self.pool[hs..hs + hl].to_vec();
        let h_right: Vec<GameId> = self.pool[hs + hl..hs + hl + hr].to_vec();
        let mut left = Vec::with_capacity(gl + hl);
        let mut right = Vec::with_capacity(gr + hr);
        for o in g_left {
            left.push(self.add(o, h));
        }
        for o in h_left {
            left.push(self.add(g, o));
        }
        for o in g_right {
            right.push(self.add(o, h));
        }
        for o in h_right {
            right.push(self.add(g, o));
        }
        self.from_options(&left, &right)
    }

    /// `g + x` for a number `x`, by number translation.
    fn translate(&mut self, g: GameId, x: Dyadic) -> GameId {
        if let Some(n) = self.nus_of(g) {
            return self.nus(Nus {
                number: n.number + x,
                ..n
            });
        }
        let (s, l, r) = self.options(g);
        let left_of = self.pool[s..s + l].to_vec();
        let right_of = self.pool[s + l..s + l + r].to_vec();
        let left = left_of.into_iter().map(|o| self.translate(o, x)).collect();
        let right = right_of.into_iter().map(|o| self.translate(o, x)).collect();
        self.intern(left, right)
    }

    /// `g - h`.
    pub fn sub(&mut self, g: GameId, h: GameId) -> GameId {
        let minus = self.neg(h);
        self.add(g, minus)
    }

    /// The sum of several games (0 for none).
    pub fn sum(&mut self, games: &[GameId]) -> GameId {
        games.iter().fold(Arena::ZERO, |acc, &g| self.add(acc, g))
    }

    /// Whether every option of `g`'s canonical form, at every depth, has both a Left and a
    /// Right option unless it is 0 (an *all-small* game, whose atomic weight is defined).
    pub fn is_all_small(&mut self, g: GameId) -> bool {
        let mut seen = hashbrown::HashSet::new();
        self.all_small(g, &mut seen)
    }

    fn all_small(&mut self, g: GameId, seen: &mut hashbrown::HashSet<GameId>) -> bool {
        if g == Arena::ZERO || !seen.insert(g) {
            return true;
        }
        let (s, l, r) = self.options(g);
        if l == 0 || r == 0 {
            return false;
        }
        (s..s + l + r).all(|k| {
            let o = self.pool[k];
            self.all_small(o, seen)
        })
    }

    /// The birthday: the height of `g`'s canonical game tree.
    pub fn birthday(&mut self, g: GameId) -> u64 {
        let mut memo = HashMap::new();
        self.birthday_memo(g, &mut memo)
    }

    fn birthday_memo(&mut self, g: GameId, memo: &mut HashMap<GameId, u64>) -> u64 {
        if let Some(n) = self.nus_of(g) {
            if n.is_number() && n.number.is_integer() {
                return n.number.numerator().unsigned_abs();
            }
        }
        if let Some(&b) = memo.get(&g) {
            return b;
        }
        let (s, l, r) = self.options(g);
        let mut best = 0;
        for k in s..s + l + r {
            let o = self.pool[k];
            best = best.max(self.birthday_memo(o, memo) + 1);
        }
        memo.insert(g, best);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values() {
        let mut a = Arena::new();
        let zero = Arena::ZERO;
        let star = a.from_options(&[zero], &[zero]);
        assert_eq!(a.nimber_of(star), Some(1));
        let up = a.from_options(&[zero], &[star]);
        assert_eq!(a.nus_of(up).map(|n| n.ups), Some(1));
        let one = a.from_options(&[zero], &[]);
        assert_eq!(a.number_of(one), Some(Dyadic::ONE));
        let half = a.from_options(&[zero], &[one]);
        assert_eq!(a.number_of(half), Some(Dyadic::new(1, 1)));
        let sum = a.add(half, half);
        assert_eq!(sum, one);
        assert_eq!(a.outcome(star), Outcome::N);
        assert_eq!(a.outcome(up), Outcome::L);
        let up_star = a.add(up, star);
        assert_eq!(a.outcome(up_star), Outcome::N);
        let minus_one = a.neg(one);
        let switch = a.from_options(&[one], &[minus_one]);
        assert_eq!(a.outcome(switch), Outcome::N);
        assert_eq!(a.add(switch, switch), zero);
        // {0, * | 0} is ↑*, with its canonical options.
        let g = a.from_options(&[zero, star], &[zero]);
        assert_eq!(g, up_star);
    }
}
