//! Tartan products of two coin-turning games (Conway's Tartan theorem): coins on a grid, a move
//! picks a move of the first game on the x coordinate and one of the second on the y
//! coordinate and flips every coin of their product set; the coin at the lower right, (x, y),
//! must be heads. A head at (x, y) has the nim value G1(x) ⊗ G2(y), a nimber product.
//!
//! - `corners`: both games flip exactly two coins, so a move flips the four corners of a
//!   rectangle with both sides at least 2 (seed 004, problem 1); G(x, y) = x ⊗ y, 0-based.
//! - `corners:W,H`: the same with rectangles at most W wide and H tall (W, H ≥ 2);
//!   G(x, y) = (x mod W) ⊗ (y mod H).
//! - `rectangles`, `rectangles:W,H`: the product of `ruler` (or `ruler:W`) and `ruler` (or
//!   `ruler:H`): flip every coin of a rectangle (at most W wide and H tall) whose lower-right
//!   coin is heads. This is seed 004's problem 5 read as its solution does, as the product of
//!   two bounded Ruler games (the seed's statement flips only the four corners; that reading is
//!   `corners:W,H`).
//!
//! - `tartan:A*B`: the product of any two coin games of [`CoinRule`] (`ruler`, `ruler:K`,
//!   `turtles`, `mock-turtles`, `twins`, `twins:W`, where `twins` flips exactly two coins).
//!
//! Coordinates are 0-based: x counts columns, y rows, and coordinate u is coin u + 1 of the
//! one-dimensional game.
//!
//! A position is the set of heads, as for every coin-turning game ([`super::coins::CoinGame`]).
//!
//! Winning moves come from the algebra, not from search: an option of a head with values
//! a = G1(x), b = G2(y) that uses one-dimensional options of values α < a and β < b has value
//! (a ⊕ α) ⊗ (b ⊕ β) ⊕ a ⊗ b. To reach the target t we need d ⊗ e = a ⊗ b ⊕ t with d ⊕ a < a
//! and e ⊕ b < b; [`option_values`] finds such d, e by recursion down the tower of subfields,
//! solving one quadratic over the half-size field where both factors need their high halves.

use super::coins::{runs_text, CoinRule, Turning};
use crate::error::{Error, Result};
use crate::game::notation::parse_u64;
use crate::game::{Game, Impartial, Listing};
use crate::nimber::{mul, Nimber};
use serde_json::Value as Json;

/// The rules of a Tartan product: the coin game on each axis.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TartanRule {
    /// The spec, e.g. `corners` or `rectangles:3,4`.
    pub spec: String,
    /// The game on the x coordinate (columns).
    pub x: CoinRule,
    /// The game on the y coordinate (rows).
    pub y: CoinRule,
}

impl TartanRule {
    /// The nim value of a head at 0-based `(x, y)`.
    pub fn value(&self, x: u64, y: u64) -> u64 {
        mul(self.x.value(x + 1), self.y.value(y + 1))
    }

    /// The cells flipped by the move from head (x, y) that uses the one-dimensional moves
    /// flipping `xs` and `ys` (other coins, 1-based): the product, less the head.
    fn product(&self, (x, y): (u64, u64), xs: &[u64], ys: &[u64]) -> Vec<(u64, u64)> {
        let all_x: Vec<u64> = xs.iter().map(|c| c - 1).chain([x]).collect();
        let all_y: Vec<u64> = ys.iter().map(|c| c - 1).chain([y]).collect();
        let mut cells = Vec::with_capacity(all_x.len() * all_y.len());
        for &u in &all_x {
            for &v in &all_y {
                if (u, v) != (x, y) {
                    cells.push((u, v));
                }
            }
        }
        cells
    }
}

/// Heads with at most this many moves (and at most [`EXHAUSTIVE_AXIS`] on each axis) list
/// their moves of a given value exhaustively.
pub const EXHAUSTIVE_OPTIONS: u64 = 1 << 16;

/// See [`EXHAUSTIVE_OPTIONS`]: the one-dimensional flip sets are built, so each axis is bounded.
pub const EXHAUSTIVE_AXIS: u64 = 1 << 10;

impl TartanRule {
    /// Every move from head (x, y), of one-dimensional values (a, b), whose other cells have
    /// XOR value `target`: the other cells of the product of flip sets S, T (with the head's
    /// coordinates) have value (a ⊕ v(S)) ⊗ (b ⊕ v(T)) ⊕ a ⊗ b, so each S fixes v(T).
    fn all_flips_with_value(
        &self,
        (x, y): (u64, u64),
        (a, b): (u64, u64),
        target: u64,
        limit: usize,
    ) -> Result<Listing<Vec<(u64, u64)>>> {
        let xor = |rule: CoinRule, set: &[u64]| set.iter().fold(0, |s, &c| s ^ rule.value(c));
        let mut by_value: std::collections::HashMap<u64, Vec<Vec<u64>>> = Default::default();
        for set in self.y.flip_sets(y + 1) {
            by_value.entry(b ^ xor(self.y, &set)).or_default().push(set);
        }
        let wanted = mul(a, b) ^ target;
        let mut items = Vec::new();
        let mut total = 0u64;
        for xs in self.x.flip_sets(x + 1) {
            let d = a ^ xor(self.x, &xs);
            let matches: Vec<&Vec<u64>> = if d == 0 {
                if wanted == 0 {
                    by_value.values().flatten().collect()
                } else {
                    Vec::new()
                }
            } else {
                by_value
                    .get(&div(wanted, d))
                    .map(|sets| sets.iter().collect())
                    .unwrap_or_default()
            };
            for ys in matches {
                total += 1;
                if items.len() < limit {
                    if (xs.len() as u64 + 1).saturating_mul(ys.len() as u64 + 1) > limit as u64 {
                        return Err(Error::Limit(format!(
                            "the move from head {x},{y} of {} flips more than {limit} coins; too large to list",
                            self.spec
                        )));
                    }
                    items.push(self.product((x, y), &xs, ys));
                }
            }
        }
        Ok(Listing {
            items,
            total: Some(total),
        })
    }
}

/// Reads the specs of this module: `corners`, `corners:W,H`, `rectangles`, `rectangles:W,H`,
/// `tartan:A*B`; `None` for other names.
///
/// # Errors
/// Bad bounds or coin games, with the reason.
pub fn parse_tartan(
    name: &str,
    params: Option<&str>,
) -> Option<std::result::Result<TartanRule, String>> {
    let rule = |x, y, spec: String| Ok(TartanRule { spec, x, y });
    Some(match (name, params) {
        ("corners", None) => rule(
            CoinRule::Twins(None),
            CoinRule::Twins(None),
            "corners".into(),
        ),
        ("corners", Some(p)) => parse_bounds(p, 2).and_then(|(w, h)| {
            rule(
                CoinRule::Twins(Some(w)),
                CoinRule::Twins(Some(h)),
                format!("corners:{w},{h}"),
            )
        }),
        ("rectangles", None) => rule(CoinRule::Ruler, CoinRule::Ruler, "rectangles".into()),
        ("rectangles", Some(p)) => parse_bounds(p, 1).and_then(|(w, h)| {
            rule(
                CoinRule::RulerBounded(w),
                CoinRule::RulerBounded(h),
                format!("rectangles:{w},{h}"),
            )
        }),
        ("tartan", Some(p)) if p.matches('*').count() >= 2 => Err(format!(
            "'{p}' has three factors: that is a Tartan product in three dimensions (heads x,y,z)"
        )),
        ("tartan", Some(p)) => parse_factors(p)
            .and_then(|(x, y)| rule(x, y, format!("tartan:{}*{}", x.spec(), y.spec()))),
        ("tartan", None) => Err("name the two coin games, e.g. tartan:ruler*turtles".into()),
        _ => return None,
    })
}

fn parse_bounds(params: &str, least: u64) -> std::result::Result<(u64, u64), String> {
    let Some((w, h)) = params.split_once(',') else {
        return Err("expected two bounds W,H".into());
    };
    let w = parse_u64(w, "the width bound W")?;
    let h = parse_u64(h, "the height bound H")?;
    if w < least || h < least {
        return Err(format!("the bounds W and H must be at least {least}"));
    }
    Ok((w, h))
}

fn parse_factors(params: &str) -> std::result::Result<(CoinRule, CoinRule), String> {
    let Some((a, b)) = params.split_once('*') else {
        return Err("expected two coin games joined by '*', e.g. tartan:ruler*turtles".into());
    };
    Ok((coin_game(a)?, coin_game(b)?))
}

/// One coin game of a product, e.g. `ruler:3`.
fn coin_game(text: &str) -> std::result::Result<CoinRule, String> {
    let (name, param) = text
        .split_once(':')
        .map_or((text, None), |(n, p)| (n, Some(p)));
    super::coins::parse_rule(name, param)
}

/// Whether d ⊕ a < a, i.e. whether the highest bit of d is set in a.
fn below(d: u64, a: u64) -> bool {
    d != 0 && (a >> (63 - d.leading_zeros())) & 1 == 1
}

fn div(a: u64, b: u64) -> u64 {
    (Nimber(a) / Nimber(b)).0
}

/// d ⊗ e = c with d ⊕ a < a and e ⊕ b < b, for a, b, c below 2^bits.
fn factor(a: u64, b: u64, c: u64, bits: u32) -> Option<(u64, u64)> {
    if a == 0 || b == 0 || c == 0 {
        return None;
    }
    let top = |v: u64| 1u64 << (63 - v.leading_zeros());
    for d in [a, top(a)] {
        let e = div(c, d);
        if below(e, b) {
            return Some((d, e));
        }
    }
    for e in [b, top(b)] {
        let d = div(c, e);
        if below(d, a) {
            return Some((d, e));
        }
    }
    if bits == 1 {
        return None;
    }
    let half = bits / 2;
    let mask = (1u64 << half) - 1;
    let (a1, a0, b1, b0, c1, c0) = (
        a >> half,
        a & mask,
        b >> half,
        b & mask,
        c >> half,
        c & mask,
    );
    let high = |hi: u64, lo: u64| (hi << half) | lo;
    // d = d1·F ⊕ d0 is below a when d1 is below a1 (d0 free) or d1 = 0 and d0 is below a0.
    if c1 == 0 {
        if let Some(found) = factor(a0, b0, c0, half) {
            return Some(found);
        }
    } else {
        // One factor in the subfield: (d1·F ⊕ d0) ⊗ e0 = (d1 ⊗ e0)·F ⊕ d0 ⊗ e0.
        if let Some((d1, e0)) = factor(a1, b0, c1, half) {
            return Some((high(d1, div(c0, e0)), e0));
        }
        if let Some((d0, e1)) = factor(a0, b1, c1, half) {
            return Some((d0, high(e1, div(c0, d0))));
        }
    }
    if a1 == 0 || b1 == 0 {
        return None;
    }
    // Both high: with p = d1 ⊗ e1, X = c1 ⊕ p and Y = c0 ⊕ p ⊗ F/2, we need
    // d1 ⊗ e0 ⊕ d0 ⊗ e1 = X and d0 ⊗ e0 = Y, i.e. d1 ⊗ e0² ⊕ X ⊗ e0 ⊕ Y ⊗ e1 = 0.
    let half_f = 1u64 << (half - 1);
    let try_pair = |d1: u64, e1: u64| -> Option<(u64, u64)> {
        let p = mul(d1, e1);
        let x = c1 ^ p;
        let y = c0 ^ mul(p, half_f);
        let e0 = if x == 0 {
            Nimber(div(mul(y, e1), d1)).sqrt().0
        } else {
            // e0 = (X / d1) ⊗ w with w² ⊕ w = Y ⊗ d1 ⊗ e1 / X², w in the subfield.
            let q = div(mul(mul(y, d1), e1), mul(x, x));
            let w = Nimber(q).solve_quadratic()?.0;
            if w > mask {
                return None;
            }
            mul(div(x, d1), w)
        };
        let d0 = div(x ^ mul(d1, e0), e1);
        Some((high(d1, d0), high(e1, e0)))
    };
    if c1 != 0 {
        if let Some((d1, e1)) = factor(a1, b1, c1, half) {
            if let Some(found) = try_pair(d1, e1) {
                return Some(found);
            }
        }
    }
    let candidates = |v: u64| -> Vec<u64> {
        let t = top(v);
        let mut out: Vec<u64> = (t..t.saturating_mul(2).max(t + 1)).take(6).collect();
        out.push(v);
        out
    };
    for d1 in candidates(a1) {
        for e1 in candidates(b1) {
            if let Some(found) = try_pair(d1, e1) {
                return Some(found);
            }
        }
    }
    None
}

/// Option values α < a and β < b of the two one-dimensional games such that the product
/// option has value `target`: α ⊗ b ⊕ a ⊗ β ⊕ α ⊗ β = target. Such a pair exists exactly when
/// target < a ⊗ b is possible by the definition of the nim product (for every target below it);
/// `None` for target ≥ a ⊗ b, or in the (untested-for) case that the recursion misses.
///
/// ```
/// use sprague::games::tartan::option_values;
/// use sprague::nimber::mul;
/// let (a, b) = (13, 1 << 40);
/// for target in [0, 5, 1 << 20, mul(a, b) - 1] {
///     let (alpha, beta) = option_values(a, b, target).unwrap();
///     assert!(alpha < a && beta < b);
///     assert_eq!(mul(alpha, b) ^ mul(a, beta) ^ mul(alpha, beta), target);
/// }
/// ```
pub fn option_values(a: u64, b: u64, target: u64) -> Option<(u64, u64)> {
    let c = mul(a, b) ^ target;
    if !below(c, mul(a, b)) {
        return None;
    }
    let (d, e) = factor(a, b, c, 64)?;
    debug_assert_eq!(mul(d, e), c);
    (below(d, a) && below(e, b) && mul(d, e) == c).then_some((a ^ d, b ^ e))
}

impl Turning for TartanRule {
    type Cell = (u64, u64);

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn value(&self, (x, y): (u64, u64)) -> u64 {
        TartanRule::value(self, x, y)
    }

    /// The Tartan theorem: a head's value is the nim product of its coordinates' values.
    fn value_rule(&self, (x, y): (u64, u64)) -> Option<String> {
        // Cells count from 0 and the factors' coins from 1: cell x is coin x + 1.
        Some(format!(
            "{}({x}+1) ⊗ {}({y}+1) = {} ⊗ {}",
            self.x.spec(),
            self.y.spec(),
            self.x.value(x + 1),
            self.y.value(y + 1)
        ))
    }

    fn option_count(&self, (x, y): (u64, u64)) -> u64 {
        let (nx, ny) = (x.saturating_add(1), y.saturating_add(1));
        let count = self
            .x
            .option_count(nx)
            .saturating_mul(self.y.option_count(ny));
        // Listing also builds each move's cells: bound the coordinates too.
        count.max(nx.max(ny))
    }

    fn flips(&self, (x, y): (u64, u64)) -> Vec<Vec<(u64, u64)>> {
        let xs = self.x.flip_sets(x + 1);
        let ys = self.y.flip_sets(y + 1);
        let mut out = Vec::with_capacity(xs.len() * ys.len());
        for a in &xs {
            for b in &ys {
                out.push(self.product((x, y), a, b));
            }
        }
        out
    }

    /// The moves from head (x, y) whose other cells have XOR value `target`: every one of
    /// them when the head has at most [`EXHAUSTIVE_OPTIONS`] moves (see there), else one found from the
    /// nimber algebra (for a target below the head's value; a move of a larger value may
    /// exist but is not searched for), with the count not given.
    fn flips_with_value(
        &self,
        (x, y): (u64, u64),
        target: u64,
        limit: usize,
    ) -> Result<Listing<Vec<(u64, u64)>>> {
        let (nx, ny) = (x + 1, y + 1);
        let (a, b) = (self.x.value(nx), self.y.value(ny));
        let (kx, ky) = (self.x.option_count(nx), self.y.option_count(ny));
        if kx.max(ky) <= EXHAUSTIVE_AXIS && kx.saturating_mul(ky) <= EXHAUSTIVE_OPTIONS {
            return self.all_flips_with_value((x, y), (a, b), target, limit);
        }
        let Some((alpha, beta)) = option_values(a, b, target) else {
            return Ok(Listing {
                items: Vec::new(),
                total: None,
            });
        };
        let xs = self.x.flip_sets_with_value(nx, alpha, limit)?;
        let ys = self.y.flip_sets_with_value(ny, beta, limit)?;
        let (Some(xs), Some(ys)) = (xs.first(), ys.first()) else {
            return Err(Error::Internal(format!(
                "no one-dimensional option of value {alpha} or {beta} at head {x},{y}"
            )));
        };
        if (xs.len() as u64 + 1).saturating_mul(ys.len() as u64 + 1) > limit as u64 {
            return Err(Error::Limit(format!(
                "the move from head {x},{y} of {} flips more than {limit} coins; too large to list",
                self.spec
            )));
        }
        Ok(Listing {
            items: vec![self.product((x, y), xs, ys)],
            total: None,
        })
    }

    fn parse_cell(&self, word: &str) -> std::result::Result<(u64, u64), String> {
        let Some((x, y)) = word.split_once(',') else {
            return Err(format!("a head is written x,y (0-based), got '{word}'"));
        };
        let x = parse_u64(x, "x")?;
        let y = parse_u64(y, "y")?;
        if x == u64::MAX || y == u64::MAX {
            return Err(format!("coordinates must be below 2^64-1, got '{word}'"));
        }
        Ok((x, y))
    }

    fn write_cell(&self, (x, y): (u64, u64)) -> String {
        format!("{x},{y}")
    }

    fn cell_json(&self, (x, y): (u64, u64)) -> Json {
        serde_json::json!([x, y])
    }

    fn noun(&self) -> &'static str {
        "board"
    }

    /// `flip x=1,4 y=2,3`: the columns and rows of the product flipped.
    fn write_flip(&self, cells: &[(u64, u64)]) -> String {
        let mut xs: Vec<u64> = cells.iter().map(|c| c.0).collect();
        let mut ys: Vec<u64> = cells.iter().map(|c| c.1).collect();
        xs.sort_unstable();
        xs.dedup();
        ys.sort_unstable();
        ys.dedup();
        format!("flip x={} y={}", runs_text(&xs), runs_text(&ys))
    }
}

/// A Tartan product on a small board, as an [`Impartial`] game on bitmasks (bit y·width + x):
/// the brute-force oracle. At most 64 cells.
#[derive(Clone, Debug)]
pub struct TartanBoard {
    /// The rules.
    pub rule: TartanRule,
    /// Columns.
    pub width: u64,
    /// Rows.
    pub height: u64,
}

impl Game for TartanBoard {
    type Position = u64;
}

impl Impartial for TartanBoard {
    fn options(&self, board: &u64) -> Vec<u64> {
        let mut out = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                if board >> (y * self.width + x) & 1 == 0 {
                    continue;
                }
                for a in self.rule.x.flip_sets(x + 1) {
                    for b in self.rule.y.flip_sets(y + 1) {
                        let mut next = *board;
                        for u in a.iter().map(|c| c - 1).chain([x]) {
                            for v in b.iter().map(|c| c - 1).chain([y]) {
                                next ^= 1 << (v * self.width + u);
                            }
                        }
                        out.push(next);
                    }
                }
            }
        }
        out
    }
}

/// A Tartan product of three coin games (3-D corner flipping for `twins*twins*twins`): a move
/// picks a move of each game, one per axis, and flips every coin of the product of their flip
/// sets; the coin at the corner farthest from the origin, (x, y, z), must be heads. A head's
/// value is the nim product G1(x) ⊗ G2(y) ⊗ G3(z) (the Tartan theorem, applied twice: the
/// product of three games is the product of a two-game product and the third).
///
/// Winning moves come from the algebra too: a move from head (x, y, z) whose one-dimensional
/// options have values α, β, γ has value (a ⊕ α)(b ⊕ β)(c ⊕ γ) ⊕ abc; reading the product
/// as (ab)·c, [`option_values`] of (ab, c) gives the option value π of the two-game product
/// and γ, and [`option_values`] of (a, b) then gives α and β with (a ⊕ α)(b ⊕ β) = ab ⊕ π.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tartan3Rule {
    /// The spec, e.g. `tartan:ruler*ruler*ruler`.
    pub spec: String,
    /// The coin games on the x, y and z axes.
    pub axes: [CoinRule; 3],
}

/// A head of a three-factor product: 0-based (x, y, z).
pub type Cell3 = (u64, u64, u64);

/// Reads `tartan:A*B*C`: three coin games joined by `*`.
///
/// # Errors
/// A bad coin game, or not three of them.
pub fn parse_tartan3(params: &str) -> std::result::Result<Tartan3Rule, String> {
    let factors: Vec<&str> = params.split('*').collect();
    let [a, b, c] = factors[..] else {
        return Err(format!(
            "expected three coin games joined by '*', e.g. tartan:ruler*ruler*ruler; got {}",
            factors.len()
        ));
    };
    let axes = [coin_game(a)?, coin_game(b)?, coin_game(c)?];
    Ok(Tartan3Rule {
        spec: format!(
            "tartan:{}*{}*{}",
            axes[0].spec(),
            axes[1].spec(),
            axes[2].spec()
        ),
        axes,
    })
}

impl Tartan3Rule {
    /// The one-dimensional values of a head's coordinates (coin u + 1 of each game).
    fn axis_values(&self, (x, y, z): Cell3) -> [u64; 3] {
        [
            self.axes[0].value(x + 1),
            self.axes[1].value(y + 1),
            self.axes[2].value(z + 1),
        ]
    }

    /// The cells flipped by the move from `head` with one-dimensional flip sets `sets` (other
    /// coins, 1-based): the product, less the head.
    fn product(&self, (x, y, z): Cell3, sets: [&[u64]; 3]) -> Vec<Cell3> {
        let axis = |set: &[u64], own: u64| -> Vec<u64> {
            set.iter().map(|c| c - 1).chain([own]).collect()
        };
        let (xs, ys, zs) = (axis(sets[0], x), axis(sets[1], y), axis(sets[2], z));
        let mut cells = Vec::with_capacity(xs.len() * ys.len() * zs.len());
        for &u in &xs {
            for &v in &ys {
                for &w in &zs {
                    if (u, v, w) != (x, y, z) {
                        cells.push((u, v, w));
                    }
                }
            }
        }
        cells
    }

    /// Every move from `head` whose other cells have value `target`: each pair of x and y
    /// sets fixes the two-game product d ⊗ e = (a ⊕ v(S))(b ⊕ v(T)); a z set of value f = c ⊕
    /// v(U) then needs d ⊗ e = (abc ⊕ target) / f.
    fn all_flips_with_value(
        &self,
        head: Cell3,
        target: u64,
        limit: usize,
    ) -> Result<Listing<Vec<Cell3>>> {
        let [a, b, c] = self.axis_values(head);
        let (x, y, z) = head;
        let xor = |rule: CoinRule, set: &[u64]| set.iter().fold(0, |s, &k| s ^ rule.value(k));
        let xs = self.axes[0].flip_sets(x + 1);
        let ys = self.axes[1].flip_sets(y + 1);
        let mut by_product: std::collections::HashMap<u64, Vec<(usize, usize)>> =
            Default::default();
        for (i, s) in xs.iter().enumerate() {
            for (j, t) in ys.iter().enumerate() {
                let de = mul(a ^ xor(self.axes[0], s), b ^ xor(self.axes[1], t));
                by_product.entry(de).or_default().push((i, j));
            }
        }
        let wanted = mul(mul(a, b), c) ^ target;
        let mut items = Vec::new();
        let mut total = 0u64;
        for u in self.axes[2].flip_sets(z + 1) {
            let f = c ^ xor(self.axes[2], &u);
            let pairs: Vec<&(usize, usize)> = if f == 0 {
                if wanted == 0 {
                    by_product.values().flatten().collect()
                } else {
                    Vec::new()
                }
            } else {
                by_product
                    .get(&div(wanted, f))
                    .map(|p| p.iter().collect())
                    .unwrap_or_default()
            };
            for &(i, j) in pairs {
                total += 1;
                if items.len() < limit {
                    self.check_size(head, [&xs[i], &ys[j], &u], limit)?;
                    items.push(self.product(head, [&xs[i], &ys[j], &u]));
                }
            }
        }
        Ok(Listing {
            items,
            total: Some(total),
        })
    }

    fn check_size(&self, (x, y, z): Cell3, sets: [&[u64]; 3], limit: usize) -> Result<()> {
        let cells = sets
            .iter()
            .fold(1u64, |n, s| n.saturating_mul(s.len() as u64 + 1));
        if cells > limit as u64 {
            return Err(Error::Limit(format!(
                "the move from head {x},{y},{z} of {} flips more than {limit} coins; too large to list",
                self.spec
            )));
        }
        Ok(())
    }

    /// The move from `head` to value `target` found by the algebra alone (one move, for a
    /// target below the head's value): the one-dimensional option values by
    /// [`option_values`] twice, then a flip set of each value on each axis.
    pub fn flip_by_algebra(
        &self,
        head: Cell3,
        target: u64,
        limit: usize,
    ) -> Result<Option<Vec<Cell3>>> {
        let [a, b, c] = self.axis_values(head);
        let Some((pi, gamma)) = option_values(mul(a, b), c, target) else {
            return Ok(None);
        };
        let Some((alpha, beta)) = option_values(a, b, pi) else {
            return Err(Error::Internal(format!(
                "no two-game option of value {pi} below {a} ⊗ {b}"
            )));
        };
        let (x, y, z) = head;
        let sets = [
            self.axes[0].flip_sets_with_value(x + 1, alpha, limit)?,
            self.axes[1].flip_sets_with_value(y + 1, beta, limit)?,
            self.axes[2].flip_sets_with_value(z + 1, gamma, limit)?,
        ];
        let (Some(s), Some(t), Some(u)) = (sets[0].first(), sets[1].first(), sets[2].first())
        else {
            return Err(Error::Internal(format!(
                "no one-dimensional option of value {alpha}, {beta} or {gamma} at head {x},{y},{z}"
            )));
        };
        self.check_size(head, [s, t, u], limit)?;
        Ok(Some(self.product(head, [s, t, u])))
    }
}

impl Turning for Tartan3Rule {
    type Cell = Cell3;

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn value(&self, head: Cell3) -> u64 {
        let [a, b, c] = self.axis_values(head);
        mul(mul(a, b), c)
    }

    fn value_rule(&self, (x, y, z): Cell3) -> Option<String> {
        let [a, b, c] = self.axis_values((x, y, z));
        Some(format!(
            "{}({x}+1) ⊗ {}({y}+1) ⊗ {}({z}+1) = {a} ⊗ {b} ⊗ {c} = {} ⊗ {c}",
            self.axes[0].spec(),
            self.axes[1].spec(),
            self.axes[2].spec(),
            mul(a, b)
        ))
    }

    fn option_count(&self, (x, y, z): Cell3) -> u64 {
        let n = [x, y, z].map(|v| v.saturating_add(1));
        let count = (0..3).fold(1u64, |c, i| {
            c.saturating_mul(self.axes[i].option_count(n[i]))
        });
        count.max(n[0].max(n[1]).max(n[2]))
    }

    /// Each move flips |S + 1| · |T + 1| · |U + 1| coins: the sum over all moves is the
    /// product of the per-axis sums.
    fn flip_cells(&self, (x, y, z): Cell3) -> u64 {
        let n = [x, y, z].map(|v| v.saturating_add(1));
        (0..3).fold(1u64, |c, i| {
            let axis = &self.axes[i];
            let sum = Turning::flip_cells(axis, n[i]).saturating_add(axis.option_count(n[i]));
            c.saturating_mul(sum)
        })
    }

    fn flips(&self, (x, y, z): Cell3) -> Vec<Vec<Cell3>> {
        let xs = self.axes[0].flip_sets(x + 1);
        let ys = self.axes[1].flip_sets(y + 1);
        let zs = self.axes[2].flip_sets(z + 1);
        let mut out = Vec::with_capacity(xs.len() * ys.len() * zs.len());
        for s in &xs {
            for t in &ys {
                for u in &zs {
                    out.push(self.product((x, y, z), [s, t, u]));
                }
            }
        }
        out
    }

    /// Every move of value `target` when the head has at most [`EXHAUSTIVE_OPTIONS`] moves
    /// (and at most [`EXHAUSTIVE_AXIS`] on each axis), else the one the algebra finds (the
    /// count then not given).
    fn flips_with_value(
        &self,
        head: Cell3,
        target: u64,
        limit: usize,
    ) -> Result<Listing<Vec<Cell3>>> {
        let (x, y, z) = head;
        let counts = [
            self.axes[0].option_count(x + 1),
            self.axes[1].option_count(y + 1),
            self.axes[2].option_count(z + 1),
        ];
        let total = counts.iter().fold(1u64, |c, &k| c.saturating_mul(k));
        if counts.iter().all(|&k| k <= EXHAUSTIVE_AXIS) && total <= EXHAUSTIVE_OPTIONS {
            return self.all_flips_with_value(head, target, limit);
        }
        Ok(Listing {
            items: self
                .flip_by_algebra(head, target, limit)?
                .into_iter()
                .collect(),
            total: None,
        })
    }

    fn parse_cell(&self, word: &str) -> std::result::Result<Cell3, String> {
        let coords: Vec<&str> = word.split(',').collect();
        let [x, y, z] = coords[..] else {
            return Err(format!("a head is written x,y,z (0-based), got '{word}'"));
        };
        let (x, y, z) = (parse_u64(x, "x")?, parse_u64(y, "y")?, parse_u64(z, "z")?);
        if [x, y, z].contains(&u64::MAX) {
            return Err(format!("coordinates must be below 2^64-1, got '{word}'"));
        }
        Ok((x, y, z))
    }

    fn write_cell(&self, (x, y, z): Cell3) -> String {
        format!("{x},{y},{z}")
    }

    fn cell_json(&self, (x, y, z): Cell3) -> Json {
        serde_json::json!([x, y, z])
    }

    fn noun(&self) -> &'static str {
        "box"
    }

    /// `flip x=1,4 y=2,3 z=0,5`: the coordinates of the product flipped.
    fn write_flip(&self, cells: &[Cell3]) -> String {
        let axis = |f: fn(&Cell3) -> u64| {
            let mut v: Vec<u64> = cells.iter().map(f).collect();
            v.sort_unstable();
            v.dedup();
            runs_text(&v)
        };
        format!(
            "flip x={} y={} z={}",
            axis(|c| c.0),
            axis(|c| c.1),
            axis(|c| c.2)
        )
    }
}

/// A three-factor product on a small box, as an [`Impartial`] game on bitmasks (bit
/// (z·height + y)·width + x): the brute-force oracle. At most 64 cells.
#[derive(Clone, Debug)]
pub struct Tartan3Board {
    /// The rules.
    pub rule: Tartan3Rule,
    /// The box's size along x, y and z.
    pub size: [u64; 3],
}

impl Tartan3Board {
    fn bit(&self, (x, y, z): Cell3) -> u64 {
        1 << ((z * self.size[1] + y) * self.size[0] + x)
    }
}

impl Game for Tartan3Board {
    type Position = u64;
}

impl Impartial for Tartan3Board {
    fn options(&self, board: &u64) -> Vec<u64> {
        let mut out = Vec::new();
        for z in 0..self.size[2] {
            for y in 0..self.size[1] {
                for x in 0..self.size[0] {
                    if board & self.bit((x, y, z)) == 0 {
                        continue;
                    }
                    for cells in self.rule.flips((x, y, z)) {
                        let flipped = cells
                            .iter()
                            .chain([&(x, y, z)])
                            .fold(0, |m, &c| m ^ self.bit(c));
                        out.push(board ^ flipped);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
