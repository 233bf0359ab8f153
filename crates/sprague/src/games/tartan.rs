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
//! Winning moves come from the algebra, not from search: an option of a head with values
//! a = G1(x), b = G2(y) that uses one-dimensional options of values α < a and β < b has value
//! (a ⊕ α) ⊗ (b ⊕ β) ⊕ a ⊗ b. To reach the target t we need d ⊗ e = a ⊗ b ⊕ t with d ⊕ a < a
//! and e ⊕ b < b; [`option_values`] finds such d, e by recursion down the tower of subfields,
//! solving one quadratic over the half-size field where both factors need their high halves.

use super::coins::{cancel_pairs, runs_text, CoinRule};
use crate::analysis::{Component, ComponentMove, ComponentRef, GameDef, Parsed};
use crate::error::{Error, Result};
use crate::game::{Impartial, NimValue};
use crate::nimber::{mul, Nimber};
use crate::spec::{parse_u64, CatalogEntry, Family};
use serde_json::Value as Json;
use std::fmt;
use std::sync::Arc;

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

/// One head of a Tartan product.
#[derive(Clone, Debug)]
pub struct Head {
    rule: Arc<TartanRule>,
    /// Column, 0-based.
    pub x: u64,
    /// Row, 0-based.
    pub y: u64,
}

impl Head {
    /// The move flipping the product of the coin sets `xs` (others, 1-based) × `ys`.
    fn flip(&self, xs: &[u64], ys: &[u64]) -> ComponentMove {
        let mut all_x: Vec<u64> = xs.iter().map(|c| c - 1).collect();
        all_x.push(self.x);
        let mut all_y: Vec<u64> = ys.iter().map(|c| c - 1).collect();
        all_y.push(self.y);
        let mut parts: Vec<ComponentRef> = Vec::with_capacity(all_x.len() * all_y.len());
        for &u in &all_x {
            for &v in &all_y {
                if (u, v) != (self.x, self.y) {
                    parts.push(Arc::new(Head {
                        rule: self.rule.clone(),
                        x: u,
                        y: v,
                    }));
                }
            }
        }
        ComponentMove {
            text: format!("flip x={} y={}", runs_text(&all_x), runs_text(&all_y)),
            parts,
        }
    }

    fn too_large(&self, limit: usize) -> Error {
        Error::Limit(format!(
            "the move from head {self} of {} flips more than {limit} coins; too large to list",
            self.rule.spec
        ))
    }
}

impl fmt::Display for Head {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl Component for Head {
    fn game(&self) -> String {
        self.rule.spec.clone()
    }

    fn to_json(&self) -> Json {
        serde_json::json!([self.x, self.y])
    }

    fn nim_value(&self) -> Result<NimValue> {
        Ok(NimValue::Finite(self.rule.value(self.x, self.y)))
    }

    fn options(&self, limit: usize) -> Result<Vec<ComponentMove>> {
        let (nx, ny) = (self.x + 1, self.y + 1);
        let count = self
            .rule
            .x
            .option_count(nx)
            .saturating_mul(self.rule.y.option_count(ny));
        if count > limit as u64 || nx.max(ny) > limit as u64 {
            return Err(Error::Limit(format!(
                "head {self} of {} has more than {limit} options to list",
                self.rule.spec
            )));
        }
        let xs = self.rule.x.flip_sets(nx);
        let ys = self.rule.y.flip_sets(ny);
        let mut out = Vec::with_capacity(xs.len() * ys.len());
        for a in &xs {
            for b in &ys {
                out.push(self.flip(a, b));
            }
        }
        Ok(out)
    }

    /// One option of value `target`, found from the nimber algebra, when target < this head's
    /// value; none is searched for otherwise.
    fn options_with_value(&self, target: u64, limit: usize) -> Result<Vec<ComponentMove>> {
        let (nx, ny) = (self.x + 1, self.y + 1);
        let (a, b) = (self.rule.x.value(nx), self.rule.y.value(ny));
        let Some((alpha, beta)) = option_values(a, b, target) else {
            return Ok(Vec::new());
        };
        let xs = self.rule.x.flip_sets_with_value(nx, alpha, limit)?;
        let ys = self.rule.y.flip_sets_with_value(ny, beta, limit)?;
        let (Some(xs), Some(ys)) = (xs.first(), ys.first()) else {
            return Err(Error::Internal(format!(
                "no one-dimensional option of value {alpha} or {beta} at head {self}"
            )));
        };
        if (xs.len() as u64 + 1).saturating_mul(ys.len() as u64 + 1) > limit as u64 {
            return Err(self.too_large(limit));
        }
        Ok(vec![self.flip(xs, ys)])
    }
}

/// A Tartan product game.
pub struct TartanGame {
    rule: Arc<TartanRule>,
}

impl TartanGame {
    /// The game with these rules.
    pub fn new(rule: TartanRule) -> Self {
        TartanGame {
            rule: Arc::new(rule),
        }
    }
}

/// Parses `x,y` (0-based).
fn parse_head(spec: &str, word: &str) -> Result<(u64, u64)> {
    let Some((x, y)) = word.split_once(',') else {
        return Err(Error::position(
            spec,
            format!("a head is written x,y (0-based), got '{word}'"),
        ));
    };
    let x = parse_u64(x, "x").map_err(|r| Error::position(spec, r))?;
    let y = parse_u64(y, "y").map_err(|r| Error::position(spec, r))?;
    if x == u64::MAX || y == u64::MAX {
        return Err(Error::position(
            spec,
            format!("coordinates must be below 2^64-1, got '{word}'"),
        ));
    }
    Ok((x, y))
}

impl GameDef for TartanGame {
    fn spec(&self) -> String {
        self.rule.spec.clone()
    }

    fn parse_position(&self, args: &[String]) -> Result<Parsed> {
        let mut heads = Vec::with_capacity(args.len());
        for word in args {
            heads.push(parse_head(&self.rule.spec, word)?);
        }
        Ok(Parsed::Parts(
            cancel_pairs(heads)
                .into_iter()
                .map(|(x, y)| {
                    Arc::new(Head {
                        rule: self.rule.clone(),
                        x,
                        y,
                    }) as ComponentRef
                })
                .collect(),
        ))
    }

    /// Sorts the heads and cancels two heads on one cell.
    fn normalize(&self, parts: Vec<ComponentRef>) -> Vec<ComponentRef> {
        let heads: Vec<(u64, u64)> = parts
            .iter()
            .filter_map(|p| serde_json::from_value(p.to_json()).ok())
            .collect();
        cancel_pairs(heads)
            .into_iter()
            .map(|(x, y)| {
                Arc::new(Head {
                    rule: self.rule.clone(),
                    x,
                    y,
                }) as ComponentRef
            })
            .collect()
    }

    /// The heads as `[x, y]` pairs, sorted, with pairs on one cell cancelled.
    fn position_json(&self, parts: &[ComponentRef]) -> Json {
        let heads: Vec<(u64, u64)> = parts
            .iter()
            .filter_map(|p| serde_json::from_value(p.to_json()).ok())
            .collect();
        Json::from(
            cancel_pairs(heads)
                .into_iter()
                .map(|(x, y)| serde_json::json!([x, y]))
                .collect::<Vec<_>>(),
        )
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

impl Impartial for TartanBoard {
    type Position = u64;

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

/// The `corners`, `corners:W,H`, `rectangles`, `rectangles:W,H` and `tartan:A*B` specs.
pub struct TartanFamily;

fn parse_bounds(spec: &str, params: &str, least: u64) -> Result<(u64, u64)> {
    let Some((w, h)) = params.split_once(',') else {
        return Err(Error::spec(spec, "expected two bounds W,H"));
    };
    let w = parse_u64(w, "the width bound W").map_err(|r| Error::spec(spec, r))?;
    let h = parse_u64(h, "the height bound H").map_err(|r| Error::spec(spec, r))?;
    if w < least || h < least {
        return Err(Error::spec(
            spec,
            format!("the bounds W and H must be at least {least}"),
        ));
    }
    Ok((w, h))
}

/// One coin game of a `tartan:A*B` spec.
fn parse_factor(spec: &str, text: &str) -> Result<CoinRule> {
    let (name, param) = match text.split_once(':') {
        Some((n, p)) => (n, Some(p)),
        None => (text, None),
    };
    let bound = |least: u64| -> Result<u64> {
        let p = param.unwrap_or_default();
        match parse_u64(p, "the bound") {
            Ok(k) if k >= least => Ok(k),
            Ok(_) => Err(Error::spec(
                spec,
                format!("the bound of {name} must be at least {least}"),
            )),
            Err(r) => Err(Error::spec(spec, r)),
        }
    };
    match (name.trim().to_ascii_lowercase().as_str(), param) {
        ("ruler", None) => Ok(CoinRule::Ruler),
        ("ruler", Some(_)) => Ok(CoinRule::RulerBounded(bound(1)?)),
        ("turtles", None) => Ok(CoinRule::Turtles),
        ("mock-turtles", None) => Ok(CoinRule::MockTurtles),
        ("twins", None) => Ok(CoinRule::Twins(None)),
        ("twins", Some(_)) => Ok(CoinRule::Twins(Some(bound(2)?))),
        _ => Err(Error::spec(
            spec,
            format!("'{text}' is not a coin game (ruler, ruler:K, turtles, mock-turtles, twins, twins:W)"),
        )),
    }
}

fn parse_factors(spec: &str, params: &str) -> Result<(CoinRule, CoinRule, String)> {
    let Some((a, b)) = params.split_once('*') else {
        return Err(Error::spec(
            spec,
            "expected two coin games joined by '*', e.g. tartan:ruler*turtles",
        ));
    };
    let (x, y) = (parse_factor(spec, a)?, parse_factor(spec, b)?);
    Ok((x, y, format!("tartan:{}*{}", x.spec(), y.spec())))
}

impl Family for TartanFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        let position = "heads as x,y pairs, 0-based (x the column, y the row)";
        vec![
            CatalogEntry {
                spec: "corners",
                params: "",
                position,
                summary: "2D corner flipping (Tartan product): choose a rectangle with both sides ≥ 2 whose lower-right coin is heads, flip its four corners; G(x,y) = x ⊗ y",
                example: "corners 1,1 2,3 5,2",
            },
            CatalogEntry {
                spec: "corners:W,H",
                params: "W, H ≥ 2: the widest and tallest rectangle",
                position,
                summary: "corner flipping with rectangles at most W wide and H tall; G(x,y) = (x mod W) ⊗ (y mod H)",
                example: "corners:3,4 2,2 4,5",
            },
            CatalogEntry {
                spec: "rectangles",
                params: "",
                position,
                summary: "Ruler × Ruler: flip every coin of a rectangle whose lower-right coin is heads; G(x,y) = lowbit(x+1) ⊗ lowbit(y+1)",
                example: "rectangles 3,3 1,7",
            },
            CatalogEntry {
                spec: "rectangles:W,H",
                params: "W, H ≥ 1: the widest and tallest rectangle",
                position,
                summary: "seed 004 problem 5 as the product of ruler:W and ruler:H: flip every coin of a rectangle at most W wide and H tall whose lower-right coin is heads",
                example: "rectangles:3,5 2,2 6,9",
            },
            CatalogEntry {
                spec: "tartan:A*B",
                params: "A, B: coin games (ruler, ruler:K, turtles, mock-turtles, twins, twins:W) on the x and y axes",
                position: "heads as x,y pairs, 0-based: coordinate u is coin u+1 of the coin game",
                summary: "the Tartan product of two coin-turning games: a move flips the product of a move of A on x and a move of B on y; G(x,y) = GA(x+1) ⊗ GB(y+1)",
                example: "tartan:ruler*turtles 2,3 5,1",
            },
        ]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        let rule = match (name, params) {
            ("corners", None) => Ok((
                CoinRule::Twins(None),
                CoinRule::Twins(None),
                "corners".to_string(),
            )),
            ("corners", Some(p)) => parse_bounds(spec, p, 2).map(|(w, h)| {
                (
                    CoinRule::Twins(Some(w)),
                    CoinRule::Twins(Some(h)),
                    format!("corners:{w},{h}"),
                )
            }),
            ("rectangles", None) => {
                Ok((CoinRule::Ruler, CoinRule::Ruler, "rectangles".to_string()))
            }
            ("rectangles", Some(p)) => parse_bounds(spec, p, 1).map(|(w, h)| {
                (
                    CoinRule::RulerBounded(w),
                    CoinRule::RulerBounded(h),
                    format!("rectangles:{w},{h}"),
                )
            }),
            ("tartan", Some(p)) => parse_factors(spec, p),
            ("tartan", None) => Err(Error::spec(
                spec,
                "name the two coin games, e.g. tartan:ruler*turtles",
            )),
            _ => return None,
        };
        Some(rule.map(|(x, y, spec)| {
            Arc::new(TartanGame::new(TartanRule { spec, x, y })) as Arc<dyn GameDef>
        }))
    }
}

#[cfg(test)]
mod tests;
