//! The two-queue game of seed 004: two queues of non-negative numbers and a threshold M; a move
//! pops the head of either queue and adds it to a running sum; whoever makes the sum reach M
//! loses.
//!
//! Picture the grid of cells (a, b): a numbers popped from the first queue and b from the second.
//! A cell is *valid* while its sum is below M. Seed 004 proves that a valid cell (a, b) has the
//! outcome of (a+1, b+1) whenever the latter is valid. So an outcome is that of the last valid
//! cell down its diagonal, and only the cells whose diagonal successor is invalid or off the grid
//! need solving: O(W + H) of them, each from two others ([`first_player_wins`]). Sums only grow
//! along a diagonal (the numbers are non-negative), so the last valid cell is found by bisection.

use crate::error::Result;
use crate::game::notation::parse_u64;
use crate::game::ParseError;
use crate::game::{Evaluated, Evaluation, Game, Notation, Outcome};
use serde_json::Value as Json;
use std::sync::Arc;

/// Prefix sums of a queue, in u128 so no total overflows.
fn prefix_sums(queue: &[u64]) -> Vec<u128> {
    let mut out = Vec::with_capacity(queue.len() + 1);
    out.push(0u128);
    for &x in queue {
        out.push(out[out.len() - 1] + u128::from(x));
    }
    out
}

/// The solved boundary of the grid.
struct Grid {
    a: Vec<u128>,
    b: Vec<u128>,
    /// The running sum before the first pop, and the threshold.
    base: u128,
    threshold: u128,
    /// `low[x]`: the least y of column x whose diagonal successor is not valid.
    low: Vec<usize>,
    /// `wins[x][y - low[x]]`: whether the player to move at boundary cell (x, y) wins.
    wins: Vec<Vec<bool>>,
}

impl Grid {
    fn valid(&self, x: usize, y: usize) -> bool {
        x < self.a.len() && y < self.b.len() && self.base + self.a[x] + self.b[y] < self.threshold
    }

    /// The last valid cell on the diagonal of valid cell (x, y).
    fn diagonal_end(&self, x: usize, y: usize) -> (usize, usize) {
        let (mut lo, mut hi) = (0usize, (self.a.len() - 1 - x).min(self.b.len() - 1 - y));
        while lo < hi {
            let mid = hi - (hi - lo) / 2;
            if self.valid(x + mid, y + mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        (x + lo, y + lo)
    }

    /// Whether the player to move at (x, y) wins; invalid cells are wins (the last mover lost).
    fn wins_at(&self, x: usize, y: usize) -> bool {
        if !self.valid(x, y) {
            return true;
        }
        let (ex, ey) = self.diagonal_end(x, y);
        self.wins[ex][ey - self.low[ex]]
    }

    fn solve(a: &[u64], b: &[u64], base: u64, threshold: u64) -> Grid {
        let (pa, pb) = (prefix_sums(a), prefix_sums(b));
        let (w, h) = (a.len(), b.len());
        let mut last = vec![None; w + 1];
        let mut y = h as isize;
        for (x, slot) in last.iter_mut().enumerate() {
            while y >= 0 && u128::from(base) + pa[x] + pb[y as usize] >= u128::from(threshold) {
                y -= 1;
            }
            *slot = (y >= 0).then_some(y as usize);
        }
        let low: Vec<usize> = (0..=w)
            .map(|x| match last.get(x + 1) {
                Some(&Some(next)) => next,
                _ => 0,
            })
            .collect();
        let mut grid = Grid {
            a: pa,
            b: pb,
            base: u128::from(base),
            threshold: u128::from(threshold),
            wins: (0..=w)
                .map(|x| match last[x] {
                    Some(top) if top >= low[x] => vec![false; top - low[x] + 1],
                    _ => Vec::new(),
                })
                .collect(),
            low,
        };
        // Boundary cells only depend on cells further from the origin: solve by decreasing x + y.
        let mut cells: Vec<(usize, usize)> = (0..=w)
            .flat_map(|x| {
                let count = grid.wins[x].len();
                let low = grid.low[x];
                (0..count).map(move |i| (x, low + i))
            })
            .collect();
        cells.sort_unstable_by_key(|&(x, y)| std::cmp::Reverse(x + y));
        for (x, y) in cells {
            let mut win = false;
            if x < w && !grid.wins_at(x + 1, y) {
                win = true;
            }
            if y < h && !grid.wins_at(x, y + 1) {
                win = true;
            }
            let low = grid.low[x];
            grid.wins[x][y - low] = win;
        }
        grid
    }
}

/// Whether the player to move wins, with `base` already summed and the queues `a` and `b` left.
/// O((W + H) log(W + H)).
///
/// The caller ensures base < threshold ≤ base + the queues' total (so a move always exists).
///
/// ```
/// use sprague::games::queues::first_player_wins;
/// // Sum 0, threshold 3: popping 1 leaves 2,2 against 2: any pop reaches 3.
/// assert!(first_player_wins(&[1], &[2], 0, 3));
/// assert!(!first_player_wins(&[5], &[5], 0, 3));
/// ```
pub fn first_player_wins(a: &[u64], b: &[u64], base: u64, threshold: u64) -> bool {
    Grid::solve(a, b, base, threshold).wins_at(0, 0)
}

/// A position of the two-queue game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QueuesPosition {
    a: Arc<[u64]>,
    b: Arc<[u64]>,
    /// Numbers popped from each queue so far.
    popped: (usize, usize),
    /// The running sum.
    sum: u64,
}

impl QueuesPosition {
    fn left(&self) -> (&[u64], &[u64]) {
        (&self.a[self.popped.0..], &self.b[self.popped.1..])
    }

    fn pop(&self, first: bool, threshold: u64) -> QueuesPosition {
        let mut next = self.clone();
        let value = if first {
            next.popped.0 += 1;
            self.a[self.popped.0]
        } else {
            next.popped.1 += 1;
            self.b[self.popped.1]
        };
        next.sum = self.sum.saturating_add(value).min(threshold);
        next
    }
}

/// The two-queue game with threshold M.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Queues {
    /// M: whoever makes the running sum reach it loses.
    pub threshold: u64,
}

/// Reads `queues:M`'s parameter.
///
/// # Errors
/// When M is not a whole number of at least 1.
pub fn parse_queues(params: &str) -> std::result::Result<Queues, String> {
    match parse_u64(params, "M")? {
        0 => Err("M must be at least 1".into()),
        threshold => Ok(Queues { threshold }),
    }
}

impl Queues {
    /// The queues `a` and `b` with running sum `sum`.
    ///
    /// # Errors
    /// Unless sum < M ≤ sum + the queues' total.
    pub fn position(
        &self,
        a: Vec<u64>,
        b: Vec<u64>,
        sum: u64,
    ) -> std::result::Result<QueuesPosition, String> {
        let total: u128 =
            a.iter().chain(&b).map(|&x| u128::from(x)).sum::<u128>() + u128::from(sum);
        if sum >= self.threshold {
            return Err(format!(
                "the running sum {sum} has already reached M = {}",
                self.threshold
            ));
        }
        if u128::from(self.threshold) > total {
            return Err(format!(
                "M = {} exceeds the running sum plus every number ({total})",
                self.threshold
            ));
        }
        Ok(QueuesPosition {
            a: a.into(),
            b: b.into(),
            popped: (0, 0),
            sum,
        })
    }

    /// Whether the previous mover made the sum reach M (the player to move has won).
    fn finished(&self, p: &QueuesPosition) -> bool {
        p.sum >= self.threshold
    }

    /// Whether the player to move wins.
    pub fn wins(&self, p: &QueuesPosition) -> bool {
        let (a, b) = p.left();
        self.finished(p) || first_player_wins(a, b, p.sum, self.threshold)
    }
}

impl Game for Queues {
    type Position = QueuesPosition;
}

impl Evaluated for Queues {
    fn moves(&self, p: &QueuesPosition) -> Result<Vec<QueuesPosition>> {
        if self.finished(p) {
            return Ok(Vec::new());
        }
        let (a, b) = p.left();
        let mut out = Vec::new();
        if !a.is_empty() {
            out.push(p.pop(true, self.threshold));
        }
        if !b.is_empty() {
            out.push(p.pop(false, self.threshold));
        }
        Ok(out)
    }

    fn evaluate(&self, p: &QueuesPosition) -> Result<Evaluation> {
        Ok(Evaluation::outcome(if self.wins(p) {
            Outcome::N
        } else {
            Outcome::P
        }))
    }
}

fn list(queue: &[u64]) -> String {
    if queue.is_empty() {
        return "-".into();
    }
    let words: Vec<String> = queue.iter().map(u64::to_string).collect();
    words.join(",")
}

fn parse_queue(word: &str) -> std::result::Result<Vec<u64>, String> {
    let word = word.trim();
    if word == "-" || word.is_empty() {
        return Ok(Vec::new());
    }
    word.split(',')
        .map(|x| parse_u64(x, "queue number"))
        .collect()
}

impl Notation for Queues {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<QueuesPosition, ParseError> {
        let (a, b, sum) = match words {
            [a, b] => (a, b, 0),
            [a, b, s] => (a, b, parse_u64(s, "running sum")?),
            _ => {
                return Err(
                    "a position is two comma lists (use - for an empty queue), optionally \
                     followed by the running sum"
                        .into(),
                )
            }
        };
        Ok(self.position(parse_queue(a)?, parse_queue(b)?, sum)?)
    }

    fn write_position(&self, p: &QueuesPosition) -> String {
        let (a, b) = p.left();
        let mut text = format!("{} {}", list(a), list(b));
        if p.sum > 0 {
            text.push_str(&format!(" {}", p.sum));
        }
        text
    }

    fn position_json(&self, p: &QueuesPosition) -> Json {
        let (a, b) = p.left();
        serde_json::json!({ "queues": [a, b], "sum": p.sum })
    }

    /// `first 3` or `second 1`: the queue popped and the number.
    fn write_move(&self, from: &QueuesPosition, to: &QueuesPosition) -> String {
        if to.popped.0 > from.popped.0 {
            format!("first {}", from.a[from.popped.0])
        } else {
            format!("second {}", from.b[from.popped.1])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The full grid, cell by cell from the far corner.
    fn full_grid(a: &[u64], b: &[u64], base: u64, threshold: u64) -> bool {
        let (pa, pb) = (prefix_sums(a), prefix_sums(b));
        let (w, h) = (a.len(), b.len());
        let valid = |x: usize, y: usize| u128::from(base) + pa[x] + pb[y] < u128::from(threshold);
        let mut wins = vec![vec![true; h + 1]; w + 1];
        for x in (0..=w).rev() {
            for y in (0..=h).rev() {
                if !valid(x, y) {
                    continue;
                }
                // A move into an invalid cell loses at once; otherwise it wins iff it leaves a
                // loss for the opponent.
                let win = (x < w && valid(x + 1, y) && !wins[x + 1][y])
                    || (y < h && valid(x, y + 1) && !wins[x][y + 1]);
                wins[x][y] = win;
            }
        }
        wins[0][0]
    }

    /// Checks the diagonal lemma itself on the full grid.
    fn lemma_holds(a: &[u64], b: &[u64], threshold: u64) -> bool {
        let (pa, pb) = (prefix_sums(a), prefix_sums(b));
        let valid = |x: usize, y: usize| pa[x] + pb[y] < u128::from(threshold);
        let mut ok = true;
        for x in 0..a.len() {
            for y in 0..b.len() {
                if valid(x + 1, y + 1) {
                    let here = full_grid(&a[x..], &b[y..], (pa[x] + pb[y]) as u64, threshold);
                    let there = full_grid(
                        &a[x + 1..],
                        &b[y + 1..],
                        (pa[x + 1] + pb[y + 1]) as u64,
                        threshold,
                    );
                    ok &= here == there;
                }
            }
        }
        ok
    }

    #[test]
    fn small_games() {
        assert!(first_player_wins(&[1], &[2], 0, 3));
        assert!(!first_player_wins(&[5], &[5], 0, 3));
        // One queue: the pops alternate, and the third pop reaches 3.
        assert!(first_player_wins(&[], &[1, 1], 0, 2));
        assert!(!first_player_wins(&[], &[1, 1, 1], 0, 3));
    }

    #[test]
    fn positions_parse_and_report() {
        let game = parse_queues("10").unwrap();
        let p = game.parse_position(&["1,2,3", "4,5"]).unwrap();
        let expected = full_grid(&[1, 2, 3], &[4, 5], 0, 10);
        assert_eq!(game.wins(&p), expected);
        assert!(game.parse_position(&["1,2,3", "4,5", "3"]).is_ok());
        assert!(parse_queues("9")
            .unwrap()
            .parse_position(&["1,2,3", "-", "3"])
            .is_ok());
        assert!(game.parse_position(&["1,2,3", "-", "3"]).is_err());
        assert!(parse_queues("100")
            .unwrap()
            .parse_position(&["1,2,3", "4,5"])
            .is_err());
        assert!(game.parse_position(&["1,2,3", "4,5", "10"]).is_err());
        assert!(game.parse_position(&["1,x", "4,5"]).is_err());
        assert!(game.parse_position(&["1,2"]).is_err());
        assert!(parse_queues("0").is_err());
        assert!(parse_queues("").is_err());
        let big = u64::MAX.to_string();
        let huge = parse_queues(&big).unwrap();
        let p = huge.parse_position(&[&big, &big]).unwrap();
        assert!(huge.evaluate(&p).is_ok());
    }

    #[test]
    fn moves_follow_the_rules() {
        let game = Queues { threshold: 4 };
        let p = game.position(vec![3], vec![1, 2], 0).unwrap();
        let texts: Vec<String> = game
            .moves(&p)
            .unwrap()
            .iter()
            .map(|next| game.write_move(&p, next))
            .collect();
        assert_eq!(texts, vec!["first 3", "second 1"]);
        // Popping 3 then 1 reaches 4: after "first 3" the opponent must pop 1 and lose.
        let wins: Vec<String> = game
            .moves(&p)
            .unwrap()
            .iter()
            .filter(|next| game.evaluate(next).unwrap().outcome == Outcome::P)
            .map(|next| game.write_move(&p, next))
            .collect();
        assert_eq!(wins, vec!["first 3"]);
    }

    proptest! {
        #[test]
        fn boundary_solution_matches_the_full_grid(
            a in proptest::collection::vec(0u64..6, 0..12),
            b in proptest::collection::vec(0u64..6, 0..12),
            base in 0u64..4,
            fraction in 0.0f64..1.0,
        ) {
            let total: u64 = a.iter().chain(&b).sum::<u64>() + base;
            prop_assume!(total > base);
            let threshold = base + 1 + ((total - base - 1) as f64 * fraction) as u64;
            prop_assert_eq!(
                first_player_wins(&a, &b, base, threshold),
                full_grid(&a, &b, base, threshold)
            );
        }

        #[test]
        fn the_diagonal_lemma_holds(
            a in proptest::collection::vec(0u64..5, 0..7),
            b in proptest::collection::vec(0u64..5, 0..7),
            threshold in 1u64..30,
        ) {
            let total: u64 = a.iter().chain(&b).sum();
            prop_assume!(threshold <= total);
            prop_assert!(lemma_holds(&a, &b, threshold));
        }
    }
}
