//! Thermographs, temperature and mean, stops, cooling and heating, atomic weight and the
//! reduced canonical form.
//!
//! Conventions are CGSuite's: thermographs start at temperature −1; a number's temperature is
//! negative (−1 for an integer, −1/2^k for `m/2^k`); an infinitesimal's is 0. The walls of
//! `G` are `L_t(G) = max R_t(G^L) − t` and `R_t(G) = min L_t(G^R) + t` up to the temperature
//! `τ` where they meet, and the mast at the mean above it (Winning Ways ch. 6; Siegel,
//! *Combinatorial Game Theory*, II.5).

use super::arena::{Arena, GameId};
use super::dyadic::Dyadic;
use crate::budget::{Budget, Checker};
use hashbrown::HashMap;

/// A continuous piecewise-linear function of the temperature `t ≥ −1`, such as one wall of a
/// thermograph: `value(t) = values[i] + slopes[i]·(t − knots[i])` from `knots[i]` on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trajectory {
    knots: Vec<Dyadic>,
    values: Vec<Dyadic>,
    slopes: Vec<i64>,
}

fn times(slope: i64, x: Dyadic) -> Dyadic {
    match slope {
        0 => Dyadic::ZERO,
        1 => x,
        -1 => -x,
        _ => Dyadic::new(slope * x.numerator(), x.exponent()),
    }
}

/// `x / s` for `s` = ±1, ±2 or ±4 (wall slopes differ by at most 2, so crossings stay dyadic).
fn divide(x: Dyadic, s: i64) -> Dyadic {
    let magnitude = s.unsigned_abs();
    debug_assert!(magnitude.is_power_of_two() && magnitude <= 4);
    let q = Dyadic::new(x.numerator(), x.exponent() + magnitude.trailing_zeros());
    if s < 0 {
        -q
    } else {
        q
    }
}

impl Trajectory {
    /// The constant function `x`.
    pub fn constant(x: Dyadic) -> Trajectory {
        Trajectory {
            knots: vec![-Dyadic::ONE],
            values: vec![x],
            slopes: vec![0],
        }
    }

    /// The value at temperature `t ≥ −1`.
    pub fn at(&self, t: Dyadic) -> Dyadic {
        let i = self.knots.partition_point(|&k| k <= t).saturating_sub(1);
        self.values[i] + times(self.slopes[i], t - self.knots[i])
    }

    /// The breakpoints `(t, value)` from `t = −1` on; the last piece continues with the last
    /// slope (vertical, a mast, for a finished wall).
    pub fn points(&self) -> Vec<(Dyadic, Dyadic)> {
        self.knots
            .iter()
            .copied()
            .zip(self.values.iter().copied())
            .collect()
    }

    /// The slope of each piece (`0` is vertical in a thermograph, where `t` runs upward).
    pub fn slopes(&self) -> &[i64] {
        &self.slopes
    }

    /// `value(t) + s·t`.
    fn tilted(&self, s: i64) -> Trajectory {
        Trajectory {
            knots: self.knots.clone(),
            values: self
                .knots
                .iter()
                .zip(&self.values)
                .map(|(&k, &v)| v + times(s, k))
                .collect(),
            slopes: self.slopes.iter().map(|&m| m + s).collect(),
        }
    }

    /// The pointwise maximum (`larger = true`) or minimum of two trajectories.
    fn envelope(&self, other: &Trajectory, larger: bool) -> Trajectory {
        let mut knots: Vec<Dyadic> = self.knots.iter().chain(&other.knots).copied().collect();
        knots.sort();
        knots.dedup();
        // Add the crossings inside each piece.
        let mut all = Vec::with_capacity(knots.len() * 2);
        for (i, &k) in knots.iter().enumerate() {
            all.push(k);
            let (a, b) = (self.at(k), other.at(k));
            let (sa, sb) = (self.slope_after(k), other.slope_after(k));
            if a != b && sa != sb {
                let crossing = k + divide(b - a, sa - sb);
                if crossing > k && knots.get(i + 1).is_none_or(|&next| crossing < next) {
                    all.push(crossing);
                }
            }
        }
        let mut result = Trajectory {
            knots: Vec::new(),
            values: Vec::new(),
            slopes: Vec::new(),
        };
        for &k in &all {
            let (a, b) = (self.at(k), other.at(k));
            let (sa, sb) = (self.slope_after(k), other.slope_after(k));
            let pick_self = if a != b {
                (a > b) == larger
            } else {
                (sa > sb) == larger
            };
            let (value, slope) = if pick_self { (a, sa) } else { (b, sb) };
            result.push(k, value, slope);
        }
        result
    }

    fn slope_after(&self, t: Dyadic) -> i64 {
        let i = self.knots.partition_point(|&k| k <= t).saturating_sub(1);
        self.slopes[i]
    }

    /// Appends a piece, merging it with the last one when it continues it.
    fn push(&mut self, knot: Dyadic, value: Dyadic, slope: i64) {
        if let Some(&last) = self.slopes.last() {
            if last == slope {
                return;
            }
        }
        self.knots.push(knot);
        self.values.push(value);
        self.slopes.push(slope);
    }

    /// The function up to `t`, then constant.
    fn truncated(&self, t: Dyadic) -> Trajectory {
        let mut result = Trajectory {
            knots: Vec::new(),
            values: Vec::new(),
            slopes: Vec::new(),
        };
        for i in 0..self.knots.len() {
            if self.knots[i] >= t && i > 0 {
                break;
            }
            result.push(self.knots[i], self.values[i], self.slopes[i]);
        }
        result.push(t, self.at(t), 0);
        result
    }
}

/// The thermograph of a short game: its two walls, the mast above the temperature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thermograph {
    /// The left wall `L_t` (values as functions of `t`).
    pub left: Trajectory,
    /// The right wall `R_t`.
    pub right: Trajectory,
    /// Where the walls meet (negative for numbers).
    pub temperature: Dyadic,
    /// The mast's value.
    pub mean: Dyadic,
}

/// Computes thermographs, stops, cooling and heating in an arena, remembering what it has
/// computed (one per query batch; it borrows the arena).
pub struct Thermal<'a> {
    arena: &'a mut Arena,
    graphs: HashMap<GameId, Thermograph>,
    budget: Option<Checker>,
    stopped: bool,
}

impl<'a> Thermal<'a> {
    /// A calculator on `arena`.
    pub fn new(arena: &'a mut Arena) -> Thermal<'a> {
        Thermal {
            arena,
            graphs: HashMap::new(),
            budget: None,
            stopped: false,
        }
    }

    /// A calculator on `arena` that gives up once `budget` is spent: its answers are then
    /// meaningless, and [`Thermal::is_stopped`] says so.
    pub fn within(arena: &'a mut Arena, budget: Budget) -> Thermal<'a> {
        Thermal {
            budget: Some(Checker::new(budget, 16)),
            ..Thermal::new(arena)
        }
    }

    /// Whether the budget ran out (every answer since is a placeholder).
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// The thermograph of `g`.
    pub fn thermograph(&mut self, g: GameId) -> Thermograph {
        if let Some(t) = self.graphs.get(&g) {
            return t.clone();
        }
        if let Some(budget) = &mut self.budget {
            self.stopped |= budget.tick().is_err();
        }
        if self.stopped {
            // Unwinds the recursion quickly; the caller throws the answer away.
            return Thermograph {
                left: Trajectory::constant(Dyadic::ZERO),
                right: Trajectory::constant(Dyadic::ZERO),
                temperature: -Dyadic::ONE,
                mean: Dyadic::ZERO,
            };
        }
        let result = self.compute(g);
        self.graphs.insert(g, result.clone());
        result
    }

    fn compute(&mut self, g: GameId) -> Thermograph {
        if let Some(x) = self.arena.number_of(g).filter(|x| x.is_integer()) {
            return Thermograph {
                left: Trajectory::constant(x),
                right: Trajectory::constant(x),
                temperature: -Dyadic::ONE,
                mean: x,
            };
        }
        let mut left: Option<Trajectory> = None;
        for o in self.arena.left_options(g) {
            let wall = self.thermograph(o).right.tilted(-1);
            left = Some(match left {
                None => wall,
                Some(l) => l.envelope(&wall, true),
            });
        }
        let mut right: Option<Trajectory> = None;
        for o in self.arena.right_options(g) {
            let wall = self.thermograph(o).left.tilted(1);
            right = Some(match right {
                None => wall,
                Some(r) => r.envelope(&wall, false),
            });
        }
        let (left, right) = (
            left.expect("a canonical non-integer has Left options"),
            right.expect("a canonical non-integer has Right options"),
        );
        let temperature = first_meeting(&left, &right);
        let mean = left.at(temperature);
        debug_assert!(left.at(temperature) >= right.at(temperature));
        Thermograph {
            left: left.truncated(temperature),
            right: right.truncated(temperature),
            temperature,
            mean,
        }
    }

    /// The temperature of `g`.
    pub fn temperature(&mut self, g: GameId) -> Dyadic {
        self.thermograph(g).temperature
    }

    /// The mean of `g`.
    pub fn mean(&mut self, g: GameId) -> Dyadic {
        self.thermograph(g).mean
    }

    /// `g` cooled by `t`: `{G^L_t − t | G^R_t + t}`, or the mean once `t` is above the
    /// temperature; integers stay.
    pub fn cool(&mut self, g: GameId, t: Dyadic) -> GameId {
        let mut memo = HashMap::new();
        let t_id = self.arena.number(t);
        self.cool_memo(g, t, t_id, &mut memo)
    }

    fn cool_memo(
        &mut self,
        g: GameId,
        t: Dyadic,
        t_id: GameId,
        memo: &mut HashMap<GameId, GameId>,
    ) -> GameId {
        if self.arena.number_of(g).is_some_and(|x| x.is_integer()) {
            return g;
        }
        if let Some(&known) = memo.get(&g) {
            return known;
        }
        let graph = self.thermograph(g);
        let result = if graph.temperature < t {
            self.arena.number(graph.mean)
        } else {
            let minus_t = self.arena.neg(t_id);
            let mut left = Vec::new();
            for o in self.arena.left_options(g) {
                let c = self.cool_memo(o, t, t_id, memo);
                left.push(self.arena.add(c, minus_t));
            }
            let mut right = Vec::new();
            for o in self.arena.right_options(g) {
                let c = self.cool_memo(o, t, t_id, memo);
                right.push(self.arena.add(c, t_id));
            }
            self.arena.from_options(&left, &right)
        };
        memo.insert(g, result);
        result
    }
}

/// The temperature at which the Left scaffold first comes down to the Right one.
fn first_meeting(left: &Trajectory, right: &Trajectory) -> Dyadic {
    let mut knots: Vec<Dyadic> = left.knots.iter().chain(&right.knots).copied().collect();
    knots.sort();
    knots.dedup();
    for (i, &k) in knots.iter().enumerate() {
        let gap = left.at(k) - right.at(k);
        if gap <= Dyadic::ZERO {
            return k;
        }
        let closing = left.slope_after(k) - right.slope_after(k);
        if closing < 0 {
            let meet = k + divide(gap, -closing);
            if knots.get(i + 1).is_none_or(|&next| meet <= next) {
                return meet;
            }
        }
    }
    unreachable!("scaffolds of slopes -1 and +1 always meet")
}

/// The Left stop and the Right stop of `g`.
pub fn stops(arena: &mut Arena, g: GameId) -> (Dyadic, Dyadic) {
    let mut memo = HashMap::new();
    (
        stop(arena, g, true, &mut memo),
        stop(arena, g, false, &mut memo),
    )
}

fn stop(
    arena: &mut Arena,
    g: GameId,
    left: bool,
    memo: &mut HashMap<(GameId, bool), Dyadic>,
) -> Dyadic {
    if let Some(n) = arena.nus_of(g) {
        return n.number;
    }
    if let Some(&s) = memo.get(&(g, left)) {
        return s;
    }
    let options = if left {
        arena.left_options(g)
    } else {
        arena.right_options(g)
    };
    let mut best: Option<Dyadic> = None;
    for o in options {
        let s = stop(arena, o, !left, memo);
        best = Some(match best {
            None => s,
            Some(b) if left => b.max(s),
            Some(b) => b.min(s),
        });
    }
    let s = best.expect("a canonical non-number has options on both sides");
    memo.insert((g, left), s);
    s
}

/// `g` heated by `t`: `∫^t G = {∫G^L + t | ∫G^R − t}`, numbers unchanged.
pub fn heat(arena: &mut Arena, g: GameId, t: GameId) -> GameId {
    let mut memo = HashMap::new();
    heat_memo(arena, g, t, &mut memo)
}

fn heat_memo(
    arena: &mut Arena,
    g: GameId,
    t: GameId,
    memo: &mut HashMap<GameId, GameId>,
) -> GameId {
    if arena.number_of(g).is_some() {
        return g;
    }
    if let Some(&known) = memo.get(&g) {
        return known;
    }
    let minus_t = arena.neg(t);
    let mut left = Vec::new();
    for o in arena.left_options(g) {
        let h = heat_memo(arena, o, t, memo);
        left.push(arena.add(h, t));
    }
    let mut right = Vec::new();
    for o in arena.right_options(g) {
        let h = heat_memo(arena, o, t, memo);
        right.push(arena.add(h, minus_t));
    }
    let result = arena.from_options(&left, &right);
    memo.insert(g, result);
    result
}

/// The reduced canonical form of `g` (Calistrate; Grossman and Siegel): the simplest game
/// infinitesimally close to `g`, as the star projection of `g` heated by `*`.
pub fn reduced_canonical_form(arena: &mut Arena, g: GameId) -> GameId {
    if let Some(n) = arena.nus_of(g) {
        return arena.number(n.number);
    }
    let star = arena.nimber(1);
    let heated = heat(arena, g, star);
    let mut memo = HashMap::new();
    star_projection(arena, heated, &mut memo)
}

/// Replaces every `x*` (at any depth) by `x`.
fn star_projection(arena: &mut Arena, g: GameId, memo: &mut HashMap<GameId, GameId>) -> GameId {
    match arena.nus_of(g) {
        Some(n) if n.is_number() => return g,
        Some(n) if n.ups == 0 && n.nimber == 1 => return arena.number(n.number),
        _ => {}
    }
    if let Some(&known) = memo.get(&g) {
        return known;
    }
    let left: Vec<GameId> = arena.left_options(g);
    let right: Vec<GameId> = arena.right_options(g);
    let left: Vec<GameId> = left
        .into_iter()
        .map(|o| star_projection(arena, o, memo))
        .collect();
    let right: Vec<GameId> = right
        .into_iter()
        .map(|o| star_projection(arena, o, memo))
        .collect();
    let result = arena.from_options(&left, &right);
    memo.insert(g, result);
    result
}

/// The atomic weight of an all-small game `g` (Lessons in Play §9.4; Siegel II.7), or `None`
/// when `g` is not all-small.
///
/// `aw(x + n·↑ + *m) = n`; otherwise `w = {aw(G^L) − 2 | aw(G^R) + 2}`, except that when `w`
/// is an integer and `g` is not confused with the far star `☆` (a nimber beyond every nimber
/// in `g`), the weight is the least integer `n ⧐ aw(G^L) − 2` for all `G^L` when `g < ☆`,
/// and the greatest integer `n ⧏ aw(G^R) + 2` for all `G^R` when `g > ☆`.
pub fn atomic_weight(arena: &mut Arena, g: GameId) -> Option<GameId> {
    if !arena.is_all_small(g) {
        return None;
    }
    let mut memo = HashMap::new();
    Some(atomic_weight_memo(arena, g, &mut memo))
}

fn far_star(arena: &mut Arena, g: GameId, memo: &mut HashMap<GameId, u32>) -> u32 {
    if let Some(m) = arena.nimber_of(g) {
        return m + 1;
    }
    if let Some(&known) = memo.get(&g) {
        return known;
    }
    let mut result = 1;
    let options: Vec<GameId> = arena
        .left_options(g)
        .into_iter()
        .chain(arena.right_options(g))
        .collect();
    for o in options {
        result = result.max(far_star(arena, o, memo));
    }
    memo.insert(g, result);
    result
}

fn atomic_weight_memo(arena: &mut Arena, g: GameId, memo: &mut HashMap<GameId, GameId>) -> GameId {
    if let Some(n) = arena.nus_of(g) {
        return arena.integer(n.ups);
    }
    if let Some(&known) = memo.get(&g) {
        return known;
    }
    let two = arena.integer(2);
    let minus_two = arena.integer(-2);
    let mut left = Vec::new();
    for o in arena.left_options(g) {
        let w = atomic_weight_memo(arena, o, memo);
        left.push(arena.add(w, minus_two));
    }
    let mut right = Vec::new();
    for o in arena.right_options(g) {
        let w = atomic_weight_memo(arena, o, memo);
        right.push(arena.add(w, two));
    }
    let w = arena.from_options(&left, &right);
    let result = if arena.number_of(w).is_some_and(|x| x.is_integer()) {
        let far = far_star(arena, g, &mut HashMap::new());
        let far = arena.nimber(far);
        let below = arena.leq(g, far);
        let above = arena.leq(far, g);
        if below && !above {
            extreme_integer(arena, &left, true).unwrap_or(Arena::ZERO)
        } else if above && !below {
            extreme_integer(arena, &right, false).unwrap_or(Arena::ZERO)
        } else {
            w
        }
    } else {
        w
    };
    memo.insert(g, result);
    result
}

/// With `least`, the least integer `n` with `n ≰ x` for every `x` in `games`; otherwise the
/// greatest integer `n` with `x ≰ n` for every `x`. `None` for no games.
fn extreme_integer(arena: &mut Arena, games: &[GameId], least: bool) -> Option<GameId> {
    let mut best: Option<i64> = None;
    for &x in games {
        let (left_stop, right_stop) = stops(arena, x);
        let n = if least {
            let mut n = -(-right_stop).floor();
            let id = arena.integer(n);
            if arena.leq(id, x) {
                n += 1;
            }
            n
        } else {
            let mut n = left_stop.floor();
            let id = arena.integer(n);
            if arena.leq(x, id) {
                n -= 1;
            }
            n
        };
        best = Some(match best {
            None => n,
            Some(b) if least => b.max(n),
            Some(b) => b.min(n),
        });
    }
    best.map(|n| arena.integer(n))
}

fn to_f64(x: Dyadic) -> f64 {
    // Exponents stay below 2^24 (MAX_EXPONENT), so this is exact.
    x.numerator() as f64 / (1u64 << x.exponent()) as f64
}

impl Thermograph {
    /// The thermograph drawn as an SVG image: temperature upward from −1, Left's (positive)
    /// values to the left as in Winning Ways, the walls up to the temperature and the mast
    /// above; `title` (the canonical form, say) is written on top.
    pub fn svg(&self, title: &str) -> String {
        use std::fmt::Write;
        let top = self.temperature.max(-Dyadic::ONE);
        let walls = [&self.left, &self.right].map(|wall| {
            let mut points: Vec<(f64, f64)> = wall
                .points()
                .into_iter()
                .filter(|&(t, _)| t <= top)
                .map(|(t, v)| (to_f64(v), to_f64(t)))
                .collect();
            points.push((to_f64(wall.at(top)), to_f64(top)));
            points
        });
        let t_max = to_f64(top) + 1.0;
        let values = walls.iter().flatten().map(|p| p.0);
        let (low, high) = values.fold((to_f64(self.mean), to_f64(self.mean)), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        let (low, high) = (low - 0.5, high + 0.5);
        let (width, height, margin) = (480.0, 320.0, 40.0);
        let x = |v: f64| margin + (high - v) / (high - low) * (width - 2.0 * margin);
        let y = |t: f64| margin + (t_max - t) / (t_max + 1.0) * (height - 2.0 * margin);
        let mut svg = String::new();
        let _ = write!(
            svg,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"##
        );
        let _ = write!(svg, r##"<rect width="100%" height="100%" fill="white"/>"##);
        let escaped = title
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        let _ = write!(
            svg,
            r##"<text x="{}" y="20" text-anchor="middle">thermograph of {escaped}: mean {}, temperature {}</text>"##,
            width / 2.0,
            self.mean,
            self.temperature
        );
        // The value axis at t = 0, and the temperature axis at value 0 when in range.
        let _ = write!(
            svg,
            r##"<line x1="{margin}" y1="{0}" x2="{1}" y2="{0}" stroke="#bbb"/>"##,
            y(0.0),
            width - margin
        );
        if (low..=high).contains(&0.0) {
            let _ = write!(
                svg,
                r##"<line x1="{0}" y1="{margin}" x2="{0}" y2="{1}" stroke="#bbb"/>"##,
                x(0.0),
                height - margin
            );
        }
        for (wall, colour) in walls.iter().zip(["#1f4fd1", "#c62828"]) {
            let points: Vec<String> = wall
                .iter()
                .map(|&(v, t)| format!("{:.2},{:.2}", x(v), y(t)))
                .collect();
            let _ = write!(
                svg,
                r##"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"##,
                points.join(" ")
            );
        }
        let m = to_f64(self.mean);
        let _ = write!(
            svg,
            r##"<line x1="{0:.2}" y1="{1:.2}" x2="{0:.2}" y2="{2:.2}" stroke="black" stroke-width="2"/>"##,
            x(m),
            y(to_f64(top)),
            y(t_max)
        );
        for (t, label) in [(-1.0, "t = -1"), (0.0, "t = 0")] {
            let _ = write!(
                svg,
                r##"<text x="{}" y="{:.2}" fill="#666">{label}</text>"##,
                width - margin + 2.0,
                y(t) + 4.0
            );
        }
        svg.push_str("</svg>\n");
        svg
    }
}
