//! Wythoff's game: two heaps; take any positive number from one heap, or the same positive
//! number from both.
//!
//! The P-positions are the pairs (⌊kφ⌋, ⌊kφ⌋ + k), k ≥ 0, in either order (seed 004). We compute
//! ⌊kφ⌋ exactly in integers (see [`lower`]), so any pair of 64-bit heaps gets its outcome and its
//! winning moves at once.
//!
//! Nim values have no closed form. They come from a table when both heaps are at most
//! [`VALUE_LIMIT`], and, when the smaller heap is at most [`ROW_LIMIT`], from the additive
//! periodicity of the rows (Dress, Flammenkamp and Pink, 1999): for each a there are b₀ and p
//! with G(a, b + p) = G(a, b) + p for every b ≥ b₀. The period of each row is not guessed but
//! certified, row by row (see [`Wythoff::row_period`]): the value of G(a, b) is the mex of the
//! values row a already holds, of the column below it (rows 0..a at b) and of the diagonal
//! (rows a − t at b − t). Row a's *state* at column b is the set of values it has not used below
//! the largest one it has used, and that largest one, all taken relative to b. If rows 0..a−1
//! are additively periodic from b₀ − a with periods dividing L, and row a has the same state at
//! columns b₀ and b₀ + kL, then by induction every later value of row a at b + kL is its value
//! at b plus kL: the mex sees the same sets shifted by kL. So `wythoff 3 1000000000` has a nim
//! value, and sums with it have winning moves.

use crate::error::{Error, Result};
use crate::game::notation::{parse_numbers, write_numbers};
use crate::game::{Game, Impartial, Listing, NimValue, Notation, Outcome, ParseError};
use serde_json::Value as Json;
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

/// Both heaps up to this size: nim values from a square table.
pub const VALUE_LIMIT: u64 = 512;

/// The smaller heap up to this size: nim values from the certified additive periodicity of its
/// row, for any size of the larger heap.
pub const ROW_LIMIT: u64 = 64;

/// The most columns computed while looking for the rows' certificates.
pub const COLUMN_LIMIT: usize = 1 << 20;

/// The most options listed before [`Impartial::try_options`] answers [`Error::Limit`].
pub const OPTION_LIMIT: u64 = 100_000;

/// The greatest common period the certificate search accepts for the rows below a row.
const PERIOD_LIMIT: u64 = 1 << 24;

/// ⌊k(√5 − 2)⌋ for k < 2^64: the largest m with (m + 2k)² ≤ 5k², i.e. m(m + 4k) ≤ k².
fn sqrt5_fraction(k: u128) -> u128 {
    let square = k * k;
    let (mut lo, mut hi) = (0u128, k / 4);
    while lo < hi {
        let mid = hi - (hi - lo) / 2;
        let fits = mid
            .checked_add(4 * k)
            .and_then(|s| s.checked_mul(mid))
            .is_some_and(|p| p <= square);
        if fits {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// ⌊kφ⌋ with φ = (1 + √5)/2, exactly, for any `k` below 2^64.
///
/// ⌊kφ⌋ = ⌊(k + ⌊k√5⌋)/2⌋ and ⌊k√5⌋ = 2k + ⌊k(√5 − 2)⌋, an integer square root taken by
/// bisection on m(m + 4k) ≤ k², which fits in u128. No floating point is involved.
///
/// ```
/// use sprague::games::wythoff::lower;
/// assert_eq!((1..=8).map(lower).collect::<Vec<_>>(), vec![1, 3, 4, 6, 8, 9, 11, 12]);
/// assert_eq!(lower(u64::MAX as u128), 29_847_458_893_032_750_100);
/// ```
pub fn lower(k: u128) -> u128 {
    assert!(k <= u128::from(u64::MAX), "k must be below 2^64");
    (3 * k + sqrt5_fraction(k)) / 2
}

/// Whether (a, b) is a P-position: the player to move loses.
///
/// ```
/// use sprague::games::wythoff::is_p_position;
/// assert!(is_p_position(3, 5) && is_p_position(5, 3) && !is_p_position(4, 5));
/// ```
pub fn is_p_position(a: u64, b: u64) -> bool {
    let (small, large) = (a.min(b), a.max(b));
    lower(u128::from(large - small)) == u128::from(small)
}

/// The heap h' such that (h, h') is a P-position; every h has exactly one (it may exceed 2^64).
pub fn partner(h: u64) -> u128 {
    let h = u128::from(h);
    // The largest k with lower(k) <= h; lower(k) >= k so k <= h.
    let last_at_most = |f: &dyn Fn(u128) -> u128| {
        let (mut lo, mut hi) = (0u128, h);
        while lo < hi {
            let mid = hi - (hi - lo) / 2;
            if f(mid) <= h {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    };
    let k = last_at_most(&lower);
    if lower(k) == h {
        return h + k;
    }
    // Beatty complementarity: h is ⌊kφ²⌋ = lower(k) + k for exactly one k.
    let k = last_at_most(&|k| lower(k) + k);
    debug_assert_eq!(lower(k) + k, h);
    h - k
}

/// Every winning move from (a, b): the options that are P-positions (at most three: one per
/// heap, and one taking from both).
///
/// ```
/// use sprague::games::wythoff::winning_moves;
/// assert_eq!(winning_moves(4, 5), vec![(3, 5), (1, 2)]);
/// assert_eq!(winning_moves(3, 5), vec![]);
/// ```
pub fn winning_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    if is_p_position(a, b) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let pb = partner(b);
    if pb < u128::from(a) {
        out.push((pb as u64, b));
    }
    let pa = partner(a);
    if pa < u128::from(b) {
        out.push((a, pa as u64));
    }
    let d = a.abs_diff(b);
    let base = lower(u128::from(d));
    let small = u128::from(a.min(b));
    if base < small {
        let t = (small - base) as u64;
        out.push((a - t, b - t));
    }
    out
}

/// A certified additive period of a row: G(a, b + period) = G(a, b) + period for b ≥ from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowPeriod {
    /// The first column from which the period holds.
    pub from: u64,
    /// The additive period.
    pub period: u64,
}

/// One row of values, with what its certificate search needs.
#[derive(Default)]
struct Row {
    values: Vec<u32>,
    used: Vec<u64>,
    first_free: u64,
    holes: BTreeSet<u64>,
    largest: Option<u64>,
    seen: HashMap<(Vec<i64>, u64), u64>,
    period: Option<RowPeriod>,
}

impl Row {
    fn is_used(&self, v: u64) -> bool {
        self.used
            .get((v / 64) as usize)
            .is_some_and(|w| w >> (v % 64) & 1 == 1)
    }

    fn place(&mut self, v: u64) {
        let word = (v / 64) as usize;
        if self.used.len() <= word {
            self.used.resize(word + 1, 0);
        }
        self.used[word] |= 1 << (v % 64);
        while self.is_used(self.first_free) {
            self.first_free += 1;
        }
        match self.largest {
            Some(m) if v < m => {
                self.holes.remove(&v);
            }
            Some(m) => {
                self.holes.extend(m + 1..v);
                self.largest = Some(v);
            }
            None => {
                self.holes.extend(0..v);
                self.largest = Some(v);
            }
        }
        self.values.push(v as u32);
    }

    /// The state at column `b`, relative to `b`.
    fn state(&self, b: u64) -> Vec<i64> {
        let mut state: Vec<i64> = self.holes.iter().map(|&h| h as i64 - b as i64).collect();
        state.push(self.largest.map_or(i64::MIN, |m| m as i64 - b as i64));
        state
    }
}

/// Rows 0..n of G, computed column by column until each row's additive period is certified.
#[derive(Default)]
struct Rows {
    rows: Vec<Row>,
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Rows {
    fn columns(&self) -> usize {
        self.rows.first().map_or(0, |r| r.values.len())
    }

    /// The common period of rows below `a` and the column from which all of them hold, or
    /// `None` while one is uncertified (or the common period is too long).
    fn below(&self, a: usize) -> Option<(u64, u64)> {
        let mut lcm = 1u64;
        let mut from = 0u64;
        for row in &self.rows[..a] {
            let p = row.period?;
            lcm = lcm.checked_mul(p.period / gcd(lcm, p.period))?;
            if lcm > PERIOD_LIMIT {
                return None;
            }
            from = from.max(p.from);
        }
        Some((lcm, from + a as u64))
    }

    /// Computes one more column of every row.
    fn step(&mut self) {
        let b = self.columns();
        for a in 0..self.rows.len() {
            let mut excluded: Vec<u64> =
                (0..a).map(|x| u64::from(self.rows[x].values[b])).collect();
            excluded.extend((1..=a.min(b)).map(|t| u64::from(self.rows[a - t].values[b - t])));
            if self.rows[a].period.is_none() {
                if let Some((lcm, start)) = self.below(a) {
                    if b as u64 >= start {
                        let key = (self.rows[a].state(b as u64), b as u64 % lcm);
                        let row = &mut self.rows[a];
                        match row.seen.get(&key) {
                            Some(&earlier) => {
                                row.period = Some(RowPeriod {
                                    from: earlier,
                                    period: b as u64 - earlier,
                                });
                                row.seen = HashMap::new();
                            }
                            None => {
                                row.seen.insert(key, b as u64);
                            }
                        }
                    }
                }
            }
            let row = &mut self.rows[a];
            let mut g = row.first_free;
            while row.is_used(g) || excluded.contains(&g) {
                g += 1;
            }
            row.place(g);
        }
    }

    /// Grows until rows 0..=a are certified.
    fn certify(&mut self, a: usize) -> Result<()> {
        if self.rows.len() <= a {
            // New rows start from column 0: recompute everything with more rows.
            *self = Rows {
                rows: (0..=a).map(|_| Row::default()).collect(),
            };
        }
        while self.rows[..=a].iter().any(|r| r.period.is_none()) {
            if self.columns() >= COLUMN_LIMIT {
                return Err(Error::Limit(format!(
                    "the nim values of row {a} of Wythoff's game show no certified additive period within {COLUMN_LIMIT} columns"
                )));
            }
            self.step();
        }
        Ok(())
    }

    /// G(a, b) for a certified row a.
    fn value(&self, a: usize, b: u64) -> Option<u64> {
        let row = &self.rows[a];
        if let Some(&g) = row.values.get(b as usize) {
            return Some(u64::from(g));
        }
        let p = row.period?;
        let k = (b - p.from) / p.period;
        let base = p.from + (b - p.from) % p.period;
        let g = u128::from(row.values[base as usize]) + u128::from(k) * u128::from(p.period);
        u64::try_from(g).ok()
    }

    /// The column b in `0..below` with G(a, b) = target, if any (rows are injective).
    fn column_with(&self, a: usize, target: u64, below: u64) -> Option<u64> {
        let row = &self.rows[a];
        let known = (row.values.len() as u64).min(below);
        if let Some(b) = row.values[..known as usize]
            .iter()
            .position(|&g| u64::from(g) == target)
        {
            return Some(b as u64);
        }
        let p = row.period?;
        (0..p.period).find_map(|r| {
            let base = p.from + r;
            let g = u64::from(row.values[base as usize]);
            if target < g || !(target - g).is_multiple_of(p.period) {
                return None;
            }
            let b = u128::from(base) + u128::from(target - g);
            let b = u64::try_from(b).ok()?;
            (b >= known && b < below).then_some(b)
        })
    }
}

/// The values of one instance of the game: the square table and the certified rows, grown on
/// demand.
#[derive(Default)]
struct Values {
    side: usize,
    square: Vec<u16>,
    rows: Rows,
}

impl Values {
    fn square(&mut self, a: u64, b: u64) -> u64 {
        let need = a.max(b) as usize + 1;
        if self.side < need {
            let side = need
                .next_power_of_two()
                .clamp(32, VALUE_LIMIT as usize + 1)
                .max(need);
            self.side = side;
            self.square = compute_table(side);
        }
        u64::from(self.square[a as usize * self.side + b as usize])
    }
}

/// Wythoff's game, with its nim values computed once per instance and shared by its clones.
#[derive(Clone, Default)]
pub struct Wythoff {
    values: Arc<Mutex<Values>>,
}

impl Wythoff {
    fn values(&self) -> MutexGuard<'_, Values> {
        self.values.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// G(a, b), for pairs with both heaps at most [`VALUE_LIMIT`] or the smaller at most
    /// [`ROW_LIMIT`].
    ///
    /// # Errors
    /// [`Error::Limit`] for other pairs, naming the position and the bounds.
    ///
    /// ```
    /// use sprague::games::wythoff::Wythoff;
    /// let w = Wythoff::default();
    /// assert_eq!(w.nim_value(4, 5)?, 6);
    /// assert_eq!(w.nim_value(0, 1_000_000_000_000)?, 1_000_000_000_000);
    /// assert!(w.nim_value(1000, 1000).is_err());
    /// # Ok::<(), sprague::Error>(())
    /// ```
    pub fn nim_value(&self, a: u64, b: u64) -> Result<u64> {
        let (small, large) = (a.min(b), a.max(b));
        let mut values = self.values();
        if large <= VALUE_LIMIT {
            return Ok(values.square(a, b));
        }
        if small > ROW_LIMIT {
            return Err(too_large(a, b));
        }
        values.rows.certify(small as usize)?;
        values
            .rows
            .value(small as usize, large)
            .ok_or_else(|| Error::Limit(format!("the nim value of wythoff {a} {b} exceeds 2^64-1")))
    }

    /// The certified additive period of row `a` (a ≤ [`ROW_LIMIT`]).
    ///
    /// # Errors
    /// [`Error::Limit`] past [`ROW_LIMIT`], or when no certificate is found within
    /// [`COLUMN_LIMIT`] columns.
    ///
    /// ```
    /// use sprague::games::wythoff::Wythoff;
    /// let row0 = Wythoff::default().row_period(0)?;
    /// assert_eq!(row0.period, 1); // G(0, b) = b
    /// # Ok::<(), sprague::Error>(())
    /// ```
    pub fn row_period(&self, a: u64) -> Result<RowPeriod> {
        if a > ROW_LIMIT {
            return Err(Error::Limit(format!(
                "rows of Wythoff's game are certified up to {ROW_LIMIT}"
            )));
        }
        let mut values = self.values();
        values.rows.certify(a as usize)?;
        values.rows.rows[a as usize]
            .period
            .ok_or_else(|| Error::Internal("a certified row has no period".into()))
    }

    /// The options of (a, b) with nim value `target`, found through the rows when the larger
    /// heap is too large to list.
    fn options_with_value(&self, a: u64, b: u64, target: u64) -> Result<Vec<(u64, u64)>> {
        let flip = a > b;
        let (small, large) = (a.min(b), a.max(b));
        let orient = |x: u64, y: u64| if flip { (y, x) } else { (x, y) };
        let mut out = Vec::new();
        // Taking from the smaller heap: (x, large) for x < small.
        for x in 0..small {
            if self.nim_value(x, large)? == target {
                out.push(orient(x, large));
            }
        }
        // Taking from the larger heap: (small, y), y < large; the row is injective.
        {
            let mut values = self.values();
            values.rows.certify(small as usize)?;
            if let Some(y) = values.rows.column_with(small as usize, target, large) {
                out.push(orient(small, y));
            }
        }
        // Taking t from both.
        for t in 1..=small {
            if self.nim_value(small - t, large - t)? == target {
                out.push(orient(small - t, large - t));
            }
        }
        Ok(out)
    }
}

fn too_large(a: u64, b: u64) -> Error {
    Error::Limit(format!(
        "wythoff {a} {b}: its nim value is computed only when both heaps are at most {VALUE_LIMIT} \
         or one is at most {ROW_LIMIT}; its outcome and winning moves are known, so it can be \
         played alone, not summed"
    ))
}

/// G(a, b) for a, b < side: each value is the mex of its row, column and diagonal before it.
fn compute_table(side: usize) -> Vec<u16> {
    let width = 3 * side + 1;
    let mut row = vec![false; side * width];
    let mut column = vec![false; side * width];
    let mut diagonal = vec![false; 2 * side * width];
    let mut values = vec![0u16; side * side];
    for a in 0..side {
        for b in 0..side {
            let d = a + side - b;
            let mut g = 0;
            while row[a * width + g] || column[b * width + g] || diagonal[d * width + g] {
                g += 1;
            }
            values[a * side + b] = g as u16;
            row[a * width + g] = true;
            column[b * width + g] = true;
            diagonal[d * width + g] = true;
        }
    }
    values
}

impl Game for Wythoff {
    type Position = (u64, u64);
}

impl Impartial for Wythoff {
    fn options(&self, &(a, b): &(u64, u64)) -> Vec<(u64, u64)> {
        let mut out: Vec<(u64, u64)> = (0..a).map(|x| (x, b)).collect();
        out.extend((0..b).map(|y| (a, y)));
        out.extend((1..=a.min(b)).map(|t| (a - t, b - t)));
        out
    }

    fn try_options(&self, position: &(u64, u64)) -> Result<Vec<(u64, u64)>> {
        let (a, b) = *position;
        let count = u128::from(a) + u128::from(b) + u128::from(a.min(b));
        if count > u128::from(OPTION_LIMIT) {
            return Err(Error::Limit(format!(
                "wythoff {a} {b} has more than {OPTION_LIMIT} options to list"
            )));
        }
        Ok(self.options(position))
    }

    fn known_nim_value(&self, &(a, b): &(u64, u64)) -> Result<Option<NimValue>> {
        Ok(Some(NimValue::Finite(self.nim_value(a, b)?)))
    }

    fn options_with_nim_value(
        &self,
        &(a, b): &(u64, u64),
        target: u64,
        _limit: usize,
    ) -> Result<Option<Listing<(u64, u64)>>> {
        if target == 0 {
            return Ok(Some(Listing::all(winning_moves(a, b))));
        }
        if a.max(b) <= VALUE_LIMIT {
            return Ok(None);
        }
        if a.min(b) > ROW_LIMIT {
            return Err(too_large(a, b));
        }
        Ok(Some(Listing::all(self.options_with_value(a, b, target)?)))
    }

    fn explain(&self, &(a, b): &(u64, u64)) -> Option<String> {
        let (small, large) = (a.min(b), a.max(b));
        let k = large - small;
        let floor = lower(u128::from(k));
        let verdict = if floor == u128::from(small) {
            "equal: a P-position".to_string()
        } else {
            format!(
                "{floor} ≠ {small}: not a P-position (the P-position with smaller heap {small} is ({small}, {}))",
                partner(small)
            )
        };
        Some(format!(
            "Wythoff: the P-positions are the pairs (⌊kφ⌋, ⌊kφ⌋ + k), φ = (1 + √5)/2; here k = {large} − {small} = {k} and ⌊{k}φ⌋ = {floor}, the smaller heap is {small}: {verdict}"
        ))
    }

    fn known_outcome(&self, &(a, b): &(u64, u64)) -> Option<Outcome> {
        Some(if is_p_position(a, b) {
            Outcome::P
        } else {
            Outcome::N
        })
    }
}

impl Notation for Wythoff {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<(u64, u64), ParseError> {
        match parse_numbers(words, "heap size")?[..] {
            [a, b] => Ok((a, b)),
            ref other => {
                Err(format!("a position is two heap sizes, got {} numbers", other.len()).into())
            }
        }
    }

    fn write_position(&self, &(a, b): &(u64, u64)) -> String {
        write_numbers(&[a, b])
    }

    fn position_json(&self, &(a, b): &(u64, u64)) -> Json {
        Json::from(vec![a, b])
    }

    fn write_move(&self, from: &(u64, u64), to: &(u64, u64)) -> String {
        format!(
            "{} -> {}",
            self.write_position(from),
            self.write_position(to)
        )
    }

    /// Wythoff's game as a queen on a board moving toward the corner (0,0): left (the first
    /// heap shrinks), down (the second) or diagonally (both by the same amount).
    fn describe_move(&self, &(a, b): &(u64, u64), &(c, d): &(u64, u64)) -> String {
        let squares = |n: u64| {
            if n == 1 {
                "1 square".to_string()
            } else {
                format!("{n} squares")
            }
        };
        let way = match (a - c, b - d) {
            (0, down) => format!("{} down", squares(down)),
            (left, 0) => format!("{} left", squares(left)),
            (diagonal, _) => format!("{} diagonally", squares(diagonal)),
        };
        format!("queen ({a},{b}) → ({c},{d}), {way}")
    }

    fn part_noun(&self) -> &'static str {
        "board"
    }
}
