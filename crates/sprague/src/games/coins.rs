//! Coin-turning games: a set of heads on cells; a move flips a set of cells whose last cell is
//! a head (it goes to tails), and the rules say which sets are allowed. The value of a position
//! is the XOR of the values of its heads (a head is a game of its own, and two heads on one cell
//! cancel), so values and winning moves come from each head's closed form.
//!
//! [`Turning`] describes the rules on cells; [`CoinGame`] is the game over any of them, written
//! once: coin rows ([`CoinRule`], cells numbered from 1) and Tartan products
//! ([`super::tartan::TartanRule`], cells x,y) are both this game.
//!
//! A position is one component, not a sum of its heads: two heads on one cell cancel, which no
//! sum of independent heads does, so misère play must look at the whole row (normal play only
//! needs the XOR).
//!
//! | spec | a move from head n flips | G(n) |
//! |---|---|---|
//! | `ruler` | a run m..=n of consecutive coins | the largest power of 2 dividing n |
//! | `ruler:K` | a run of at most K coins | lowbit(((n − 1) mod h) + 1), h = the largest power of 2 ≤ K |
//! | `turtles` | n, and at most one other coin | n |
//! | `mock-turtles` | n, and at most two other coins | the (n−1)-th odious number (odd popcount) |
//!
//! The XOR of the values of the run m..n−1 in the ruler game is gray(n−1) ⊕ gray(m−1) (the
//! XOR of lowbit(1), …, lowbit(j) is the Gray code j ⊕ (j >> 1)), so the run with a given value is
//! found by inverting the Gray code.

use crate::error::{Error, Result};
use crate::game::notation::parse_u64;
use crate::game::notation::ParseError;
use crate::game::{Game, Impartial, Layout, Listing, NimValue, Notation};
use serde_json::Value as Json;
use std::fmt::Debug;
use std::hash::Hash;

/// The most options of a position listed before [`Impartial::try_options`] answers
/// [`Error::Limit`].
pub const OPTION_LIMIT: u64 = 100_000;

/// The most coins that the options of one position may hold in all when listed (about
/// 128 MiB).
pub const CELL_LIMIT: u64 = 1 << 24;

/// The rules of a coin-turning game on its cells.
pub trait Turning: Clone + Send + Sync + 'static {
    /// A cell. The head a move starts from is the largest cell it flips.
    type Cell: Copy + Ord + Hash + Debug + Send + Sync + 'static;

    /// The game's spec, for messages.
    fn spec(&self) -> String;

    /// The nim value of one head on `cell`.
    fn value(&self, cell: Self::Cell) -> u64;

    /// The closed form of [`Turning::value`] at `cell` with its numbers filled in, e.g.
    /// `1 ⊗ 2 = 2`, for `value --explain`; `None` when there is nothing to show.
    fn value_rule(&self, _cell: Self::Cell) -> Option<String> {
        None
    }

    /// How many moves a head on `cell` has (saturating).
    fn option_count(&self, cell: Self::Cell) -> u64;

    /// An upper bound on the cells in all the flip sets of head `cell` together (what listing
    /// them costs in memory); the default assumes at most two cells a set.
    fn flip_cells(&self, cell: Self::Cell) -> u64 {
        self.option_count(cell).saturating_mul(2)
    }

    /// Every set of other cells a move from head `cell` may flip (the caller bounds the count
    /// by [`Turning::option_count`]).
    fn flips(&self, cell: Self::Cell) -> Vec<Vec<Self::Cell>>;

    /// The sets of other cells a move from head `cell` may flip whose XOR value is `target`,
    /// from the closed form: all of them, or some with `total: None`.
    ///
    /// # Errors
    /// [`Error::Limit`] when a set would be too large to list.
    fn flips_with_value(
        &self,
        cell: Self::Cell,
        target: u64,
        limit: usize,
    ) -> Result<Listing<Vec<Self::Cell>>>;

    /// Reads one cell.
    ///
    /// # Errors
    /// What is wrong with the word.
    fn parse_cell(&self, word: &str) -> std::result::Result<Self::Cell, String>;

    /// Writes one cell as [`Turning::parse_cell`] reads it.
    fn write_cell(&self, cell: Self::Cell) -> String;

    /// One cell as JSON.
    fn cell_json(&self, cell: Self::Cell) -> Json;

    /// The text of a move that flips `cells` (ascending; the head is the last).
    fn write_flip(&self, cells: &[Self::Cell]) -> String;

    /// The move that flips `cells` (ascending) in a position with `heads`, in words that read
    /// like the game ([`crate::game::Notation::describe_move`]); the default is
    /// [`Turning::write_flip`].
    fn describe_flip(&self, _heads: &[Self::Cell], cells: &[Self::Cell]) -> String {
        self.write_flip(cells)
    }

    /// What one summand is called in a numbered sum: a `row` of coins by default.
    fn noun(&self) -> &'static str {
        "row"
    }

    /// How front ends draw positions.
    fn layout(&self) -> Layout {
        Layout::Text
    }
}

/// A coin-turning game over any [`Turning`] rules. A position is the ascending list of heads.
#[derive(Clone, Debug)]
pub struct CoinGame<T>(pub T);

impl<T: Turning> CoinGame<T> {
    /// The position after flipping `cells` in `heads`.
    fn flip(heads: &[T::Cell], cells: &[T::Cell]) -> Vec<T::Cell> {
        cancel_pairs(heads.iter().chain(cells).copied().collect())
    }

    fn move_from(heads: &[T::Cell], head: T::Cell, others: &[T::Cell]) -> Vec<T::Cell> {
        let mut cells = others.to_vec();
        cells.push(head);
        Self::flip(heads, &cells)
    }
}

impl<T: Turning> Game for CoinGame<T> {
    type Position = Vec<T::Cell>;
}

impl<T: Turning> Impartial for CoinGame<T> {
    fn options(&self, heads: &Vec<T::Cell>) -> Vec<Vec<T::Cell>> {
        heads
            .iter()
            .flat_map(|&h| {
                self.0
                    .flips(h)
                    .into_iter()
                    .map(move |others| Self::move_from(heads, h, &others))
            })
            .collect()
    }

    fn try_options(&self, heads: &Vec<T::Cell>) -> Result<Vec<Vec<T::Cell>>> {
        let count = heads
            .iter()
            .fold(0u64, |c, &h| c.saturating_add(self.0.option_count(h)));
        if count > OPTION_LIMIT {
            return Err(Error::Limit(format!(
                "this position of {} has more than {OPTION_LIMIT} options to list",
                self.0.spec()
            )));
        }
        // Each option holds the heads left and the cells flipped: bound the whole list.
        let cells = heads.iter().fold(0u64, |c, &h| {
            c.saturating_add(self.0.flip_cells(h))
                .saturating_add(self.0.option_count(h).saturating_mul(heads.len() as u64))
        });
        if cells > CELL_LIMIT {
            return Err(Error::Limit(format!(
                "the options of this position of {} hold more than {CELL_LIMIT} coins in all; too large to list",
                self.0.spec()
            )));
        }
        Ok(self.options(heads))
    }

    fn known_nim_value(&self, heads: &Vec<T::Cell>) -> Result<Option<NimValue>> {
        Ok(Some(NimValue::Finite(
            heads.iter().fold(0, |x, &h| x ^ self.0.value(h)),
        )))
    }

    fn explain(&self, heads: &Vec<T::Cell>) -> Option<String> {
        const SHOWN: usize = 8;
        let mut each: Vec<String> = heads
            .iter()
            .take(SHOWN)
            .map(|&h| {
                let rule = self
                    .0
                    .value_rule(h)
                    .map_or(String::new(), |r| format!("{r} = "));
                format!("{}: {rule}{}", self.0.write_cell(h), self.0.value(h))
            })
            .collect();
        if heads.len() > SHOWN {
            each.push(format!("… ({} heads in all)", heads.len()));
        }
        let x = heads.iter().fold(0, |x, &h| x ^ self.0.value(h));
        Some(format!(
            "{}: a coin-turning game, so each head counts as a game alone and the position's value is the XOR of its heads' values; heads (cell: value) {}; XOR {x}",
            self.0.spec(),
            if each.is_empty() { "none".to_string() } else { each.join(", ") }
        ))
    }

    /// From each head h of value g, the moves whose other cells have XOR value X ⊕ g ⊕ target
    /// (X the position's value), by the rules' closed form.
    fn options_with_nim_value(
        &self,
        heads: &Vec<T::Cell>,
        target: u64,
        limit: usize,
    ) -> Result<Option<Listing<Vec<T::Cell>>>> {
        let x = heads.iter().fold(0, |x, &h| x ^ self.0.value(h));
        let mut items = Vec::new();
        let mut total = Some(0u64);
        for &h in heads {
            let want = x ^ self.0.value(h) ^ target;
            let found = match self
                .0
                .flips_with_value(h, want, limit.saturating_sub(items.len()))
            {
                Ok(found) => found,
                Err(Error::Limit(_)) => {
                    total = None;
                    continue;
                }
                Err(e) => return Err(e),
            };
            total = match (total, found.total) {
                (Some(t), Some(n)) => Some(t.saturating_add(n)),
                _ => None,
            };
            for others in found.items {
                if items.len() < limit {
                    items.push(Self::move_from(heads, h, &others));
                }
            }
        }
        Ok(Some(Listing { items, total }))
    }
}

impl<T: Turning> Notation for CoinGame<T> {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<Vec<T::Cell>, ParseError> {
        let cells = words
            .iter()
            .map(|w| self.0.parse_cell(w))
            .collect::<std::result::Result<Vec<_>, _>>()?;
        Ok(cancel_pairs(cells))
    }

    fn write_position(&self, heads: &Vec<T::Cell>) -> String {
        let words: Vec<String> = heads.iter().map(|&c| self.0.write_cell(c)).collect();
        words.join(" ")
    }

    fn position_json(&self, heads: &Vec<T::Cell>) -> Json {
        Json::Array(heads.iter().map(|&c| self.0.cell_json(c)).collect())
    }

    /// The cells flipped are those where the positions differ.
    fn write_move(&self, from: &Vec<T::Cell>, to: &Vec<T::Cell>) -> String {
        let flipped = cancel_pairs(from.iter().chain(to).copied().collect());
        self.0.write_flip(&flipped)
    }

    fn describe_move(&self, from: &Vec<T::Cell>, to: &Vec<T::Cell>) -> String {
        let flipped = cancel_pairs(from.iter().chain(to).copied().collect());
        self.0.describe_flip(from, &flipped)
    }

    fn part_noun(&self) -> &'static str {
        self.0.noun()
    }

    fn layout(&self) -> Layout {
        self.0.layout()
    }
}

/// Which sets of coins a move may flip, besides the head it turns to tails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CoinRule {
    /// Any run of consecutive coins ending at the head.
    Ruler,
    /// A run of at most this many coins (at least 1).
    RulerBounded(u64),
    /// The head alone, or the head and one coin to its left.
    Turtles,
    /// The head and at most two coins to its left.
    MockTurtles,
    /// The head and exactly one coin to its left, less than this many places away if bounded.
    /// G(n) = n − 1 (or (n − 1) mod W): one side of the corner-flipping game.
    Twins(Option<u64>),
}

/// The Gray code of `j`: also the XOR of lowbit(1), …, lowbit(j).
const fn gray(j: u64) -> u64 {
    j ^ (j >> 1)
}

/// The inverse of [`gray`].
const fn gray_inverse(mut g: u64) -> u64 {
    let mut shift = 1;
    while shift < 64 {
        g ^= g >> shift;
        shift <<= 1;
    }
    g
}

/// The period h of `ruler:K`: the largest power of 2 at most K.
fn bounded_period(k: u64) -> u128 {
    1u128 << (63 - k.max(1).leading_zeros())
}

/// gray(h) for a power of two h ≤ 2^63: the XOR of one period of `ruler:K` values.
fn gray_h(h: u128) -> u64 {
    (h ^ (h >> 1)) as u64
}

/// The XOR of the `ruler:K` values of coins 1..=j, with period h.
fn bounded_prefix(h: u128, j: u64) -> u64 {
    let j = u128::from(j);
    let periods = if (j / h) % 2 == 1 { gray_h(h) } else { 0 };
    periods ^ gray((j % h) as u64)
}

/// The `k`-th odious number (0-based): 1, 2, 4, 7, 8, 11, …
const fn odious(k: u64) -> u64 {
    2 * k + (k.count_ones() as u64 + 1) % 2
}

impl CoinRule {
    /// The spec of the game, e.g. `ruler:3`.
    pub fn spec(self) -> String {
        match self {
            CoinRule::Ruler => "ruler".into(),
            CoinRule::RulerBounded(k) => format!("ruler:{k}"),
            CoinRule::Turtles => "turtles".into(),
            CoinRule::MockTurtles => "mock-turtles".into(),
            CoinRule::Twins(None) => "twins".into(),
            CoinRule::Twins(Some(w)) => format!("twins:{w}"),
        }
    }

    /// The nim value of one head at coin `n` (1-based), by the closed form.
    ///
    /// ```
    /// use sprague::games::coins::CoinRule;
    /// assert_eq!(CoinRule::Ruler.value(12), 4);
    /// assert_eq!(CoinRule::RulerBounded(5).value(12), 4); // h = 4: lowbit(3 + 1)
    /// assert_eq!(CoinRule::MockTurtles.value(4), 7);
    /// ```
    pub fn value(self, n: u64) -> u64 {
        debug_assert!(n >= 1, "coins are numbered from 1");
        match self {
            CoinRule::Ruler => 1 << n.trailing_zeros(),
            CoinRule::RulerBounded(k) => {
                let m = (u128::from(n) - 1) % bounded_period(k) + 1;
                1 << m.trailing_zeros()
            }
            CoinRule::Turtles => n,
            CoinRule::MockTurtles => odious(n - 1),
            CoinRule::Twins(None) => n - 1,
            CoinRule::Twins(Some(w)) => (n - 1) % w,
        }
    }

    /// How many options a head at coin `n` has (saturating).
    pub fn option_count(self, n: u64) -> u64 {
        match self {
            CoinRule::Ruler => n,
            CoinRule::RulerBounded(k) => n.min(k),
            CoinRule::Turtles => n,
            CoinRule::MockTurtles => {
                let m = n - 1;
                1 + m + m.saturating_mul(m.saturating_sub(1)) / 2
            }
            CoinRule::Twins(None) => n - 1,
            CoinRule::Twins(Some(w)) => (n - 1).min(w - 1),
        }
    }

    /// Every set of other coins (left of `n`, ascending) that a move from head `n` may flip.
    /// Brute force: the caller bounds `n` (see [`CoinRule::option_count`]).
    pub fn flip_sets(self, n: u64) -> Vec<Vec<u64>> {
        match self {
            CoinRule::Ruler => (1..=n).map(|m| (m..n).collect()).collect(),
            CoinRule::RulerBounded(k) => (n.saturating_sub(k - 1).max(1)..=n)
                .map(|m| (m..n).collect())
                .collect(),
            CoinRule::Turtles => std::iter::once(Vec::new())
                .chain((1..n).map(|m| vec![m]))
                .collect(),
            CoinRule::MockTurtles => {
                let mut out = vec![Vec::new()];
                for a in 1..n {
                    out.push(vec![a]);
                    for b in a + 1..n {
                        out.push(vec![a, b]);
                    }
                }
                out
            }
            CoinRule::Twins(bound) => {
                let lo = bound.map_or(1, |w| n.saturating_sub(w - 1).max(1));
                (lo..n).map(|m| vec![m]).collect()
            }
        }
    }

    /// The sets of other coins that a move from head `n` may flip so that they have XOR value
    /// `target`, from the closed form (no listing of the options).
    ///
    /// # Errors
    /// [`Error::Limit`] when a set or the list would exceed `limit`.
    pub fn flip_sets_with_value(self, n: u64, target: u64, limit: usize) -> Result<Vec<Vec<u64>>> {
        let too_many = |what: &str| {
            Error::Limit(format!(
                "the {what} from coin {n} to value {target} has more than {limit} coins; too large to list"
            ))
        };
        let run = |j: u64| -> Result<Vec<Vec<u64>>> {
            // Flip coins j+1..n: the others are j+1..n-1.
            if n - 1 - j > limit as u64 {
                return Err(too_many("run"));
            }
            Ok(vec![(j + 1..n).collect()])
        };
        match self {
            CoinRule::Ruler => {
                let j = gray_inverse(gray(n - 1) ^ target);
                if j < n {
                    run(j)
                } else {
                    Ok(Vec::new())
                }
            }
            CoinRule::RulerBounded(k) => {
                // The others flipped are j+1..n-1 with n - k ≤ j < n, of XOR P(n-1) ⊕ P(j).
                let h = bounded_period(k);
                let wanted = bounded_prefix(h, n - 1) ^ target;
                // Within one period P takes the values gray(r) ⊕ (gray(h) if the period's index
                // is odd): [0, h) for even periods, [0, h) ⊕ gray(h) for odd ones.
                let (r, odd) = if u128::from(wanted) < h {
                    (gray_inverse(wanted), 0)
                } else if u128::from(wanted ^ gray_h(h)) < h {
                    (gray_inverse(wanted ^ gray_h(h)), 1)
                } else {
                    return Ok(Vec::new());
                };
                // The largest j ≤ n - 1 with j ≡ r + odd·h (mod 2h); the window is shorter than 2h.
                let residue = u128::from(r) + odd * h;
                let top = u128::from(n - 1);
                let back = (top + 2 * h - residue) % (2 * h);
                if back > top {
                    return Ok(Vec::new());
                }
                let j = (top - back) as u64;
                if j >= n.saturating_sub(k) {
                    run(j)
                } else {
                    Ok(Vec::new())
                }
            }
            CoinRule::Turtles => Ok(match target {
                0 => vec![Vec::new()],
                t if t < n => vec![vec![t]],
                _ => Vec::new(),
            }),
            CoinRule::MockTurtles => {
                let coin_of = |v: u64| (v >> 1) + 1; // the coin of odious value v
                if target == 0 {
                    return Ok(vec![Vec::new()]);
                }
                if target.count_ones() % 2 == 1 {
                    let m = coin_of(target);
                    return Ok(if m < n { vec![vec![m]] } else { Vec::new() });
                }
                // An evil target is the XOR of two odious values.
                if n > limit as u64 {
                    return Err(Error::Limit(format!(
                        "listing the pairs of coins below {n} with value {target} needs more than {limit} steps"
                    )));
                }
                let mut out = Vec::new();
                for a in 1..n {
                    let b = coin_of(odious(a - 1) ^ target);
                    if a < b && b < n {
                        out.push(vec![a, b]);
                    }
                }
                Ok(out)
            }
            CoinRule::Twins(None) => Ok(if target + 1 < n {
                vec![vec![target + 1]]
            } else {
                Vec::new()
            }),
            CoinRule::Twins(Some(w)) => {
                if target >= w {
                    return Ok(Vec::new());
                }
                // The coin m < n, at most w − 1 places away, with (m − 1) mod w = target.
                let d = ((n - 1) % w + w - target) % w;
                Ok(if d != 0 && d < n {
                    vec![vec![n - d]]
                } else {
                    Vec::new()
                })
            }
        }
    }
}

/// Reads a coin rule's spec: `ruler`, `ruler:K`, `turtles`, `mock-turtles`, `twins`, `twins:W`.
///
/// # Errors
/// For another name, a missing or extra bound, or a bound below 1 (2 for `twins`).
pub fn parse_rule(name: &str, params: Option<&str>) -> std::result::Result<CoinRule, String> {
    let bound = |least: u64| -> std::result::Result<u64, String> {
        let k = parse_u64(params.unwrap_or_default(), "the bound")?;
        if k < least {
            return Err(format!("the bound of {name} must be at least {least}"));
        }
        Ok(k)
    };
    match (name.trim().to_ascii_lowercase().as_str(), params) {
        ("ruler", None) => Ok(CoinRule::Ruler),
        ("ruler", Some(_)) => Ok(CoinRule::RulerBounded(bound(1)?)),
        ("turtles", None) => Ok(CoinRule::Turtles),
        ("mock-turtles", None) => Ok(CoinRule::MockTurtles),
        ("twins", None) => Ok(CoinRule::Twins(None)),
        ("twins", Some(_)) => Ok(CoinRule::Twins(Some(bound(2)?))),
        (n @ ("turtles" | "mock-turtles"), Some(_)) => Err(format!("{n} takes no parameters")),
        _ => Err(format!(
            "'{name}' is not a coin game (ruler, ruler:K, turtles, mock-turtles, twins, twins:W)"
        )),
    }
}

impl Turning for CoinRule {
    type Cell = u64;

    fn spec(&self) -> String {
        CoinRule::spec(*self)
    }

    fn value(&self, n: u64) -> u64 {
        CoinRule::value(*self, n)
    }

    fn value_rule(&self, n: u64) -> Option<String> {
        Some(match *self {
            CoinRule::Ruler => format!("the largest power of 2 dividing {n}"),
            CoinRule::RulerBounded(k) => format!(
                "the largest power of 2 dividing ((n − 1) mod {}) + 1 with n = {n}",
                bounded_period(k)
            ),
            CoinRule::Turtles => return None,
            CoinRule::MockTurtles => format!(
                "the odious number with index {} (1, 2, 4, 7, 8, … from index 0)",
                n - 1
            ),
            CoinRule::Twins(None) => format!("{n} − 1"),
            CoinRule::Twins(Some(w)) => format!("({n} − 1) mod {w}"),
        })
    }

    fn option_count(&self, n: u64) -> u64 {
        CoinRule::option_count(*self, n)
    }

    /// Ruler moves flip runs: a head with c moves flips 0 + 1 + … + (c - 1) other coins.
    fn flip_cells(&self, n: u64) -> u64 {
        let c = CoinRule::option_count(*self, n);
        match self {
            CoinRule::Ruler | CoinRule::RulerBounded(_) => c.saturating_mul(c) / 2,
            _ => c.saturating_mul(2),
        }
    }

    fn flips(&self, n: u64) -> Vec<Vec<u64>> {
        self.flip_sets(n)
    }

    fn flips_with_value(&self, n: u64, target: u64, limit: usize) -> Result<Listing<Vec<u64>>> {
        Ok(Listing::all(self.flip_sets_with_value(n, target, limit)?))
    }

    fn parse_cell(&self, word: &str) -> std::result::Result<u64, String> {
        match parse_u64(word, "coin")? {
            0 => Err("coins are numbered from 1".into()),
            n => Ok(n),
        }
    }

    fn write_cell(&self, n: u64) -> String {
        n.to_string()
    }

    fn cell_json(&self, n: u64) -> Json {
        Json::from(n)
    }

    fn write_flip(&self, cells: &[u64]) -> String {
        format!("flip {}", runs_text(cells))
    }

    /// The row of coins turned, heads `H` and tails `T` from coin 1 to the head turned:
    /// `turn over coins 1-3 (TTH → HHT)`; past [`ROW_SHOWN`] coins, only the head's change.
    fn describe_flip(&self, heads: &[u64], cells: &[u64]) -> String {
        let coins = if cells.len() == 1 { "coin" } else { "coins" };
        let turned = format!("turn over {coins} {}", runs_text(cells));
        let Some(&head) = cells.last() else {
            return turned;
        };
        if head > ROW_SHOWN {
            return format!("{turned} (coin {head} heads → tails)");
        }
        let row = |up: &dyn Fn(u64) -> bool| -> String {
            (1..=head).map(|c| if up(c) { 'H' } else { 'T' }).collect()
        };
        let before = row(&|c| heads.binary_search(&c).is_ok());
        let after = row(&|c| heads.binary_search(&c).is_ok() != cells.binary_search(&c).is_ok());
        format!("{turned} ({before} → {after})")
    }

    fn layout(&self) -> Layout {
        Layout::Coins
    }
}

/// The longest row of coins a move's description draws.
pub const ROW_SHOWN: u64 = 24;

/// Writes coins as ascending runs, e.g. `1-3,7`.
pub fn runs_text(coins: &[u64]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < coins.len() {
        let mut j = i;
        while j + 1 < coins.len() && coins[j + 1] == coins[j] + 1 {
            j += 1;
        }
        out.push(if j > i + 1 {
            format!("{}-{}", coins[i], coins[j])
        } else if j == i + 1 {
            format!("{},{}", coins[i], coins[j])
        } else {
            coins[i].to_string()
        });
        i = j + 1;
    }
    out.join(",")
}

/// Keeps the values that occur an odd number of times, sorted: heads on one cell cancel.
pub fn cancel_pairs<T: Ord>(mut items: Vec<T>) -> Vec<T> {
    items.sort();
    let mut out: Vec<T> = Vec::with_capacity(items.len());
    for item in items {
        if out.last() == Some(&item) {
            out.pop();
        } else {
            out.push(item);
        }
    }
    out
}

/// The row of coins of one rule as an [`Impartial`] game on bitmasks (bit n − 1 = coin n is
/// heads): the brute-force oracle for the closed forms. Rows of up to 63 coins.
#[derive(Clone, Copy, Debug)]
pub struct CoinRow(pub CoinRule);

impl Game for CoinRow {
    type Position = u64;
}

impl Impartial for CoinRow {
    fn options(&self, row: &u64) -> Vec<u64> {
        let mut out = Vec::new();
        for n in 1..=64 - row.leading_zeros() as u64 {
            if row >> (n - 1) & 1 == 1 {
                for set in self.0.flip_sets(n) {
                    let mask = set.iter().fold(1u64 << (n - 1), |m, c| m | 1 << (c - 1));
                    out.push(row ^ mask);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::NimValues;
    use proptest::prelude::*;

    const RULES: [CoinRule; 9] = [
        CoinRule::Ruler,
        CoinRule::RulerBounded(1),
        CoinRule::RulerBounded(2),
        CoinRule::RulerBounded(3),
        CoinRule::RulerBounded(6),
        CoinRule::Turtles,
        CoinRule::MockTurtles,
        CoinRule::Twins(None),
        CoinRule::Twins(Some(3)),
    ];

    #[test]
    fn options_too_large_for_memory_are_refused_before_listing() {
        // One ruler head at 65535 has 65535 moves flipping about 2^31 coins in all.
        let game = CoinGame(CoinRule::Ruler);
        assert!(matches!(
            game.try_options(&vec![65535]),
            Err(Error::Limit(_))
        ));
        assert_eq!(game.try_options(&vec![300]).unwrap().len(), 300);
    }

    #[test]
    fn closed_forms_match_brute_force_on_single_coins() {
        for rule in RULES {
            let mut solver = NimValues::new(CoinRow(rule));
            for n in 1..=13u64 {
                assert_eq!(
                    solver.nim_value(&(1 << (n - 1))).unwrap(),
                    rule.value(n),
                    "{rule:?} coin {n}"
                );
            }
        }
    }

    #[test]
    fn gray_codes_give_the_xor_of_ruler_values() {
        let mut xor = 0;
        for j in 1..200u64 {
            xor ^= CoinRule::Ruler.value(j);
            assert_eq!(gray(j), xor);
            assert_eq!(gray_inverse(gray(j)), j);
        }
        assert_eq!(gray_inverse(gray(u64::MAX - 5)), u64::MAX - 5);
        for k in [1, 2, 3, 5, 8, 13] {
            let h = bounded_period(k);
            let mut xor = 0;
            for j in 1..100u64 {
                xor ^= CoinRule::RulerBounded(k).value(j);
                assert_eq!(bounded_prefix(h, j), xor, "ruler:{k} prefix {j}");
            }
        }
    }

    #[test]
    fn flips_with_value_match_the_listed_flips() {
        for rule in RULES {
            for n in 1..=20u64 {
                let sets = rule.flip_sets(n);
                assert_eq!(sets.len() as u64, rule.option_count(n), "{rule:?} {n}");
                for target in 0..40 {
                    let mut fast = rule.flip_sets_with_value(n, target, 10_000).unwrap();
                    let mut slow: Vec<Vec<u64>> = sets
                        .iter()
                        .filter(|s| s.iter().fold(0, |x, &c| x ^ rule.value(c)) == target)
                        .cloned()
                        .collect();
                    fast.sort();
                    slow.sort();
                    assert_eq!(fast, slow, "{rule:?} coin {n} target {target}");
                }
            }
        }
    }

    fn row_of(coins: &[u64]) -> u64 {
        coins.iter().fold(0, |m, c| m ^ 1 << (c - 1))
    }

    /// The winning moves of a row: from the closed form, as bitmasks.
    fn winning_rows(rule: CoinRule, heads: &[u64]) -> Vec<u64> {
        let game = CoinGame(rule);
        let mut rows: Vec<u64> = game
            .options_with_nim_value(&heads.to_vec(), 0, 10_000)
            .unwrap()
            .unwrap()
            .items
            .iter()
            .map(|h| row_of(h))
            .collect();
        rows.sort();
        rows
    }

    #[test]
    fn ruler_5_8_10_11_13_has_every_winning_move() {
        let heads = [5, 8, 10, 11, 13];
        let game = CoinGame(CoinRule::Ruler);
        assert_eq!(
            game.known_nim_value(&heads.to_vec()).unwrap(),
            Some(NimValue::Finite(1 ^ 8 ^ 2 ^ 1 ^ 1))
        );
        // Brute force over the whole row of 13 coins.
        let mut solver = NimValues::new(CoinRow(CoinRule::Ruler));
        let mut expected = solver.winning_moves(&row_of(&heads)).unwrap();
        expected.sort();
        assert_eq!(winning_rows(CoinRule::Ruler, &heads), expected);
        let moves = game
            .options_with_nim_value(&heads.to_vec(), 0, 100)
            .unwrap()
            .unwrap();
        let texts: Vec<String> = moves
            .items
            .iter()
            .map(|to| game.write_move(&heads.to_vec(), to))
            .collect();
        assert_eq!(texts, ["flip 6-8", "flip 8-10", "flip 7-11", "flip 1-13"]);
        assert_eq!(
            moves.items[1],
            vec![5, 9, 11, 13],
            "flipping head 8 again turns it to tails"
        );
    }

    #[test]
    fn huge_coins_answer_from_the_closed_form() {
        let big = (1u64 << 60) + 3 * (1 << 20);
        let game = CoinGame(CoinRule::Ruler);
        assert_eq!(
            game.known_nim_value(&vec![1, big]).unwrap(),
            Some(NimValue::Finite((1 << 20) ^ 1))
        );
        let turtles = CoinGame(CoinRule::Turtles);
        let heads = vec![7, u64::MAX];
        let wins = turtles
            .options_with_nim_value(&heads, 0, 10)
            .unwrap()
            .unwrap();
        assert_eq!(
            turtles.write_move(&heads, &wins.items[0]),
            "flip 7,18446744073709551615"
        );
    }

    #[test]
    fn positions_and_rules_parse() {
        let game = CoinGame(CoinRule::Ruler);
        assert!(game.parse_position(&["0"]).is_err());
        assert!(game.parse_position(&["x"]).is_err());
        assert_eq!(game.parse_position(&["4", "4", "2"]), Ok(vec![2]));
        assert_eq!(
            parse_rule("ruler", Some("3")),
            Ok(CoinRule::RulerBounded(3))
        );
        assert!(parse_rule("ruler", Some("0")).is_err());
        assert!(parse_rule("turtles", Some("3")).is_err());
        assert!(parse_rule("coins", None).is_err());
    }

    #[test]
    fn misere_looks_at_the_whole_row() {
        // turtles 2 3 (issue 17): flipping 2 and 3 leaves no heads, a loss for the mover in
        // misère play, so the position is P.
        use crate::game::{Outcome, Play};
        use crate::solve::Search;
        let mut misere = Search::new(CoinGame(CoinRule::Turtles), Play::Misere);
        assert_eq!(misere.outcome(&vec![2, 3]).unwrap(), Outcome::P);
        let mut oracle = Search::new(CoinRow(CoinRule::Turtles), Play::Misere);
        for rule in RULES {
            let mut misere = Search::new(CoinGame(rule), Play::Misere);
            let mut oracle = Search::new(CoinRow(rule), Play::Misere);
            for row in 0u64..1 << 7 {
                let heads: Vec<u64> = (1..=7).filter(|n| row >> (n - 1) & 1 == 1).collect();
                assert_eq!(
                    misere.outcome(&heads).unwrap(),
                    oracle.outcome(&row).unwrap(),
                    "{rule:?} {heads:?}"
                );
            }
        }
        assert_eq!(oracle.outcome(&0b110).unwrap(), Outcome::P);
    }

    proptest! {
        #[test]
        fn rows_are_the_xor_of_their_coins(rule_index in 0..RULES.len(), row in 0u64..1 << 11) {
            let rule = RULES[rule_index];
            let mut solver = NimValues::new(CoinRow(rule));
            let xor = (1..=11).filter(|n| row >> (n - 1) & 1 == 1).fold(0, |x, n| x ^ rule.value(n));
            prop_assert_eq!(solver.nim_value(&row).unwrap(), xor);
        }

        #[test]
        fn winning_moves_reach_p_positions(rule_index in 0..RULES.len(), row in 1u64..1 << 12) {
            let rule = RULES[rule_index];
            let heads: Vec<u64> = (1..=12u64).filter(|n| row >> (n - 1) & 1 == 1).collect();
            let mut solver = NimValues::new(CoinRow(rule));
            let mut expected = solver.winning_moves(&row).unwrap();
            expected.sort();
            prop_assert_eq!(winning_rows(rule, &heads), expected);
        }
    }
}
