//! Taking numbers from the ends of a row, for points (seed 000 §5.4 and seed 004).
//!
//! - `ends:any`: a move takes any positive count of numbers from either end;
//! - `ends:1`: a move takes exactly one number from either end.
//!
//! The game ends when the row is empty. The value of a position is the margin of the player to
//! move: their total minus the opponent's from here on, with optimal play by both. Both values
//! take O(n²) time and O(n) memory ([`margins`]): the seed's recurrence for `ends:any` takes a
//! maximum over k for every interval, O(n³) in all; running maxima along the rows and columns of
//! the table remove that factor.

use crate::error::Result;
use crate::game::ParseError;
use crate::game::{Evaluated, Evaluation, Game, Notation, Outcome};
use serde_json::Value as Json;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

/// The largest total of absolute values accepted, so no sum or margin can overflow.
pub const MAGNITUDE_LIMIT: i64 = 1 << 61;

/// How many numbers a move takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Take {
    /// Any positive count from one end.
    Any,
    /// Exactly one number from one end.
    One,
}

/// The margins of the whole row and of its prefixes and suffixes, from one sweep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Margins {
    /// The margin of the player to move on the whole row.
    pub whole: i64,
    /// `prefix[r]`: the margin on the first r numbers (r = 0..=n).
    pub prefix: Vec<i64>,
    /// `suffix[l]`: the margin on the numbers from index l on (l = 0..=n).
    pub suffix: Vec<i64>,
}

/// The margin of the player to move on `numbers`, and on all prefixes and suffixes (the options
/// of the first move), in O(n²) time and O(n) memory.
///
/// Let S be the prefix sums and D[i][j] the margin on numbers i..=j. For `ends:any`,
/// D[i][j] = max(L[i][j] − S[i], S[j+1] + R[i][j]) with the running maxima
/// L[i][j] = max over l in i+1..=j+1 of S[l] − D[l][j], and
/// R[i][j] = max over r in i−1..j of −S[r+1] − D[i][r] (an empty interval is worth 0);
/// L[i][j] extends L[i+1][j] by one term and R[i][j] extends R[i][j−1]. The table is swept by
/// interval length, keeping one diagonal.
///
/// The caller keeps Σ|a| below [`MAGNITUDE_LIMIT`] ([`EndsPosition::new`] checks it).
///
/// ```
/// use sprague::games::ends::{margins, Take};
/// assert_eq!(margins(&[3, -1, 4], Take::Any).whole, 6); // take all three
/// assert_eq!(margins(&[3, 9, 1, 2], Take::One).whole, 7); // 2 then 9: 11 against 4
/// ```
pub fn margins(numbers: &[i64], take: Take) -> Margins {
    let n = numbers.len();
    let mut sums = vec![0i64; n + 1];
    for (i, &a) in numbers.iter().enumerate() {
        sums[i + 1] = sums[i] + a;
    }
    let mut prefix = vec![0i64; n + 1];
    let mut suffix = vec![0i64; n + 1];
    if n == 0 {
        return Margins {
            whole: 0,
            prefix,
            suffix,
        };
    }
    // margin[i] = D[i][i+len-1] for the current length; left/right are L and R.
    let mut margin: Vec<i64> = numbers.to_vec();
    let mut left: Vec<i64> = (0..n).map(|i| sums[i + 1]).collect();
    let mut right: Vec<i64> = (0..n).map(|i| -sums[i]).collect();
    prefix[1] = margin[0];
    suffix[n - 1] = margin[n - 1];
    for len in 2..=n {
        for i in 0..=n - len {
            let j = i + len - 1;
            // margin[i] = D[i][j-1] and margin[i+1] = D[i+1][j] (still the previous length).
            margin[i] = match take {
                Take::Any => {
                    left[i] = left[i + 1].max(sums[i + 1] - margin[i + 1]);
                    right[i] = right[i].max(-sums[j] - margin[i]);
                    (left[i] - sums[i]).max(sums[j + 1] + right[i])
                }
                Take::One => (numbers[i] - margin[i + 1]).max(numbers[j] - margin[i]),
            };
        }
        prefix[len] = margin[0];
        suffix[n - len] = margin[n - len];
    }
    Margins {
        whole: margin[0],
        prefix,
        suffix,
    }
}

/// A row of numbers, or a contiguous part of one (the options share the row).
#[derive(Clone, Debug)]
pub struct EndsPosition {
    numbers: Arc<[i64]>,
    start: usize,
    end: usize,
    margin: OnceLock<i64>,
}

impl PartialEq for EndsPosition {
    fn eq(&self, other: &Self) -> bool {
        self.row() == other.row()
    }
}

impl Eq for EndsPosition {}

impl Hash for EndsPosition {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.row().hash(state);
    }
}

impl EndsPosition {
    /// The row `numbers`.
    ///
    /// # Errors
    /// If the numbers' absolute values add up to [`MAGNITUDE_LIMIT`] or more.
    pub fn new(numbers: Vec<i64>) -> std::result::Result<Self, String> {
        let total = numbers
            .iter()
            .try_fold(0i64, |s, &a| s.checked_add(a.checked_abs()?))
            .filter(|&s| s < MAGNITUDE_LIMIT);
        if total.is_none() {
            return Err(
                "the numbers are too large: their absolute values must add up to less than 2^61"
                    .into(),
            );
        }
        let end = numbers.len();
        Ok(EndsPosition {
            numbers: numbers.into(),
            start: 0,
            end,
            margin: OnceLock::new(),
        })
    }

    /// The numbers left.
    pub fn row(&self) -> &[i64] {
        &self.numbers[self.start..self.end]
    }

    fn part(&self, start: usize, end: usize, margin: i64) -> EndsPosition {
        EndsPosition {
            numbers: self.numbers.clone(),
            start,
            end,
            margin: OnceLock::from(margin),
        }
    }
}

/// Taking numbers from the ends of a row, under rule `take`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ends {
    /// How many numbers a move takes.
    pub take: Take,
}

impl Ends {
    /// The margin of the player to move.
    pub fn margin(&self, p: &EndsPosition) -> i64 {
        *p.margin.get_or_init(|| margins(p.row(), self.take).whole)
    }

    /// Every move with the margin it yields to the mover (the numbers taken minus the
    /// opponent's margin after it).
    fn scored_moves(&self, p: &EndsPosition) -> Vec<(i64, EndsPosition)> {
        let row = p.row();
        let n = row.len();
        let m = margins(row, self.take);
        let _ = p.margin.set(m.whole);
        let most = match self.take {
            Take::Any => n,
            Take::One => n.min(1),
        };
        let mut out = Vec::new();
        let mut taken = 0;
        for k in 1..=most {
            taken += row[k - 1];
            out.push((taken - m.suffix[k], p.part(p.start + k, p.end, m.suffix[k])));
        }
        // From the right; taking the whole row was already listed from the left.
        let mut taken = 0;
        for k in 1..=most.min(n.saturating_sub(1)) {
            taken += row[n - k];
            out.push((
                taken - m.prefix[n - k],
                p.part(p.start, p.end - k, m.prefix[n - k]),
            ));
        }
        out
    }
}

fn scored_outcome(value: i64) -> Outcome {
    match value.signum() {
        1 => Outcome::N,
        -1 => Outcome::P,
        _ => Outcome::D,
    }
}

impl Game for Ends {
    type Position = EndsPosition;
}

impl Evaluated for Ends {
    fn moves(&self, p: &EndsPosition) -> Result<Vec<EndsPosition>> {
        Ok(self.scored_moves(p).into_iter().map(|(_, m)| m).collect())
    }

    fn evaluate(&self, p: &EndsPosition) -> Result<Evaluation> {
        let value = self.margin(p);
        Ok(Evaluation {
            score: Some(value),
            ..Evaluation::outcome(scored_outcome(value))
        })
    }

    /// The optimal moves: those that achieve the position's margin.
    fn winning_moves(&self, p: &EndsPosition) -> Result<Option<Vec<EndsPosition>>> {
        let best = self.margin(p);
        Ok(Some(
            self.scored_moves(p)
                .into_iter()
                .filter(|(v, _)| *v == best)
                .map(|(_, m)| m)
                .collect(),
        ))
    }
}

/// Parses whole numbers (negative allowed) for the scored row games.
///
/// # Errors
/// The first word that is not a whole number.
pub fn parse_integers(words: &[&str]) -> std::result::Result<Vec<i64>, String> {
    words
        .iter()
        .map(|a| {
            a.trim()
                .parse::<i64>()
                .map_err(|_| format!("expected a whole number, got '{a}'"))
        })
        .collect()
}

/// Writes whole numbers separated by spaces.
pub fn write_integers(numbers: &[i64]) -> String {
    let words: Vec<String> = numbers.iter().map(i64::to_string).collect();
    words.join(" ")
}

impl Notation for Ends {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<EndsPosition, ParseError> {
        Ok(EndsPosition::new(parse_integers(words)?)?)
    }

    fn write_position(&self, p: &EndsPosition) -> String {
        write_integers(p.row())
    }

    fn position_json(&self, p: &EndsPosition) -> Json {
        Json::from(p.row().to_vec())
    }

    /// `left 2`, `right 1` (`ends:1`: `left`, `right`).
    fn write_move(&self, from: &EndsPosition, to: &EndsPosition) -> String {
        let (side, k) = if to.start > from.start {
            ("left", to.start - from.start)
        } else {
            ("right", from.end - to.end)
        };
        match self.take {
            Take::One => side.to_string(),
            Take::Any => format!("{side} {k}"),
        }
    }
}

/// Reads `ends:`'s parameter: `any` or `1`.
///
/// # Errors
/// For anything else.
pub fn parse_take(params: Option<&str>) -> std::result::Result<Take, String> {
    match params.map(str::trim) {
        Some("any") => Ok(Take::Any),
        Some("1") => Ok(Take::One),
        _ => Err("use ends:any or ends:1".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The seed's O(n³) recurrence, as the reference.
    fn seed_any(numbers: &[i64]) -> i64 {
        let n = numbers.len();
        if n == 0 {
            return 0;
        }
        let mut sum = vec![0i64; n + 1];
        for i in 0..n {
            sum[i + 1] = sum[i] + numbers[i];
        }
        let mut dp = vec![vec![0i64; n]; n];
        for i in 0..n {
            dp[i][i] = numbers[i];
        }
        for gap in 1..n {
            for i in 0..n - gap {
                let j = i + gap;
                dp[i][j] = sum[j + 1] - sum[i];
                for k in 1..j - i + 1 {
                    dp[i][j] = dp[i][j]
                        .max(sum[i + k] - sum[i] - dp[i + k][j])
                        .max(sum[j + 1] - sum[j - k + 1] - dp[i][j - k]);
                }
            }
        }
        dp[0][n - 1]
    }

    /// Plain minimax on slices, for `ends:1`.
    fn minimax_one(numbers: &[i64]) -> i64 {
        match numbers {
            [] => 0,
            [a] => *a,
            [first, rest @ ..] => {
                let (init, last) = numbers.split_at(numbers.len() - 1);
                (first - minimax_one(rest)).max(last[0] - minimax_one(init))
            }
        }
    }

    #[test]
    fn small_rows() {
        assert_eq!(margins(&[], Take::Any).whole, 0);
        assert_eq!(margins(&[5], Take::Any).whole, 5);
        assert_eq!(margins(&[-5], Take::Any).whole, -5);
        assert_eq!(margins(&[-5, 7], Take::Any).whole, 7 - -5);
        assert_eq!(margins(&[-5, 7], Take::One).whole, 12);
        assert_eq!(
            margins(&[4, -10, 4], Take::Any).whole,
            seed_any(&[4, -10, 4])
        );
    }

    #[test]
    fn prefixes_and_suffixes_are_reported() {
        let numbers = [3, -1, 4, 1, -5, 9, 2, -6];
        for take in [Take::Any, Take::One] {
            let m = margins(&numbers, take);
            for r in 0..=numbers.len() {
                assert_eq!(m.prefix[r], margins(&numbers[..r], take).whole);
                assert_eq!(m.suffix[r], margins(&numbers[r..], take).whole);
            }
        }
    }

    #[test]
    fn optimal_moves_reach_the_margin() {
        let game = Ends { take: Take::Any };
        let p = game
            .parse_position(&["3", "-1", "4", "1", "-5", "9"])
            .unwrap();
        let best = game.winning_moves(&p).unwrap().unwrap();
        assert!(!best.is_empty());
        for next in &best {
            let text = game.write_move(&p, next);
            let taken: i64 = match text.split_once(' ') {
                Some(("left", k)) => p.row()[..k.parse::<usize>().unwrap()].iter().sum(),
                Some(("right", k)) => p.row()[p.row().len() - k.parse::<usize>().unwrap()..]
                    .iter()
                    .sum(),
                _ => unreachable!(),
            };
            assert_eq!(
                taken - game.evaluate(next).unwrap().score.unwrap(),
                game.margin(&p)
            );
        }
        assert_eq!(game.moves(&p).unwrap().len(), 11);
        let one = Ends { take: Take::One };
        let p = one.parse_position(&["3", "9", "1", "2"]).unwrap();
        let texts: Vec<String> = one
            .winning_moves(&p)
            .unwrap()
            .unwrap()
            .iter()
            .map(|m| one.write_move(&p, m))
            .collect();
        assert_eq!(texts, vec!["right"]);
    }

    #[test]
    fn bad_positions_are_errors() {
        assert!(parse_take(None).is_err());
        assert!(parse_take(Some("2")).is_err());
        let game = Ends { take: Take::Any };
        assert!(game.parse_position(&["1", "x"]).is_err());
        assert!(game.parse_position(&["99999999999999999999"]).is_err());
        let big = (i64::MAX / 2).to_string();
        assert!(game.parse_position(&[&big, &big]).is_err());
        assert!(game.parse_position(&["-9223372036854775808"]).is_err());
        let empty = game.parse_position(&[]).unwrap();
        let e = game.evaluate(&empty).unwrap();
        assert_eq!((e.score, e.outcome), (Some(0), Outcome::D));
    }

    proptest! {
        #[test]
        fn any_matches_the_seed(numbers in proptest::collection::vec(-50i64..50, 0..14)) {
            prop_assert_eq!(margins(&numbers, Take::Any).whole, seed_any(&numbers));
        }

        #[test]
        fn one_matches_minimax(numbers in proptest::collection::vec(-50i64..50, 0..13)) {
            prop_assert_eq!(margins(&numbers, Take::One).whole, minimax_one(&numbers));
        }

        /// Seed 004: with an even count the first player can take all the odd-placed or all the
        /// even-placed numbers, so never loses.
        #[test]
        fn even_rows_never_lose_for_the_first_player(
            numbers in proptest::collection::vec(-1000i64..1000, 0..40)
        ) {
            let even = &numbers[..numbers.len() / 2 * 2];
            let m = margins(even, Take::One).whole;
            let odd_placed: i64 = even.iter().step_by(2).sum();
            let even_placed: i64 = even.iter().skip(1).step_by(2).sum();
            prop_assert!(m >= 0);
            prop_assert!(m >= (odd_placed - even_placed).abs());
        }
    }
}
