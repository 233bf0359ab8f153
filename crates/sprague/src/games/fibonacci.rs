//! Fibonacci Nim: one heap of n; the first move takes 1..n−1 tokens, every later move takes from
//! 1 up to twice the previous take. Taking the last token wins.
//!
//! With the previous take t, the player to move loses iff 2t is smaller than the least term of
//! the Zeckendorf representation of n (seed 004); at the start (no previous take), iff n is a
//! Fibonacci number. The winning moves are exactly the sums of the smallest Zeckendorf terms that
//! the limit allows and that leave a next term more than twice as large ([`winning_takes`]), so
//! every winning move is listed at once for any 64-bit n.
//!
//! Nim values have no closed form: they come from search for n up to [`SEARCH_LIMIT`], so such
//! positions sum with other games.

use crate::error::{Error, Result};
use crate::game::notation::{parse_numbers, write_numbers};
use crate::game::ParseError;
use crate::game::{Game, Impartial, Listing, NimValue, Notation, Outcome};
use serde_json::Value as Json;

/// The largest n whose nim values are computed (by search).
pub const SEARCH_LIMIT: u64 = 256;

/// The most options listed before [`Impartial::try_options`] answers [`Error::Limit`].
pub const OPTION_LIMIT: u64 = 100_000;

/// The rules on (tokens left, the most the mover may take): the oracle of the tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct FibonacciNim;

impl Game for FibonacciNim {
    type Position = (u64, u64);
}

impl Impartial for FibonacciNim {
    fn options(&self, &(n, limit): &(u64, u64)) -> Vec<(u64, u64)> {
        (1..=limit.min(n))
            .map(|x| (n - x, x.saturating_mul(2).min(n - x)))
            .collect()
    }
}

/// The Zeckendorf representation of n: non-consecutive Fibonacci numbers (1, 2, 3, 5, …) summing
/// to n, smallest first.
///
/// ```
/// assert_eq!(sprague::games::fibonacci::zeckendorf(20), vec![2, 5, 13]);
/// ```
pub fn zeckendorf(mut n: u64) -> Vec<u64> {
    let mut fibs = vec![1u64, 2];
    while let Some(next) = fibs[fibs.len() - 1].checked_add(fibs[fibs.len() - 2]) {
        fibs.push(next);
    }
    let mut terms = Vec::new();
    for &f in fibs.iter().rev() {
        if f <= n {
            terms.push(f);
            n -= f;
        }
    }
    terms.reverse();
    terms
}

/// Whether n is a Fibonacci number (1, 2, 3, 5, 8, …).
pub fn is_fibonacci(n: u64) -> bool {
    zeckendorf(n).len() == 1
}

/// Every winning take from n tokens when at most `limit` may be taken (an empty list means the
/// player to move loses).
///
/// A take x wins iff it leaves m = n − x with a least Zeckendorf term above 2x (or m = 0). Such
/// an x is below half that term, so the terms of x and of m do not touch: x is a sum of the
/// smallest terms of n. Hence only those prefix sums need testing.
///
/// ```
/// use sprague::games::fibonacci::winning_takes;
/// assert_eq!(winning_takes(20, 19), vec![2]); // 20 = 2 + 5 + 13
/// assert!(winning_takes(13, 12).is_empty()); // a Fibonacci number: the first player loses
/// assert_eq!(winning_takes(7, 6), vec![2]); // 7 = 2 + 5: leaves 5 with a limit of 4
/// ```
pub fn winning_takes(n: u64, limit: u64) -> Vec<u64> {
    let terms = zeckendorf(n);
    let mut out = Vec::new();
    let mut taken = 0u64;
    for (i, &term) in terms.iter().enumerate() {
        taken += term;
        if taken > limit {
            break;
        }
        match terms.get(i + 1) {
            None => out.push(taken),
            Some(&next) if u128::from(next) > 2 * u128::from(taken) => out.push(taken),
            Some(_) => {}
        }
    }
    out
}

/// A Fibonacci Nim position: `n` tokens left; `previous` is the last take (`None` at the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FibPosition {
    /// Tokens left.
    pub n: u64,
    /// The last take, `None` at the start.
    pub previous: Option<u64>,
}

impl FibPosition {
    /// The start position with n tokens (the first move may take 1..n−1).
    pub const fn start(n: u64) -> Self {
        FibPosition { n, previous: None }
    }

    /// The most the player to move may take.
    pub fn limit(&self) -> u64 {
        match self.previous {
            None => self.n.saturating_sub(1),
            Some(t) => t.saturating_mul(2).min(self.n),
        }
    }

    fn after(&self, take: u64) -> FibPosition {
        FibPosition {
            n: self.n - take,
            previous: Some(take),
        }
    }
}

/// Fibonacci Nim on [`FibPosition`]s.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fib;

impl Game for Fib {
    type Position = FibPosition;
}

impl Impartial for Fib {
    fn options(&self, p: &FibPosition) -> Vec<FibPosition> {
        (1..=p.limit()).map(|x| p.after(x)).collect()
    }

    fn try_options(&self, p: &FibPosition) -> Result<Vec<FibPosition>> {
        if p.limit() > OPTION_LIMIT {
            return Err(Error::Limit(format!(
                "fib {} has more than {OPTION_LIMIT} options to list",
                self.write_position(p)
            )));
        }
        Ok(self.options(p))
    }

    fn known_nim_value(&self, p: &FibPosition) -> Result<Option<NimValue>> {
        if p.n > SEARCH_LIMIT {
            return Err(Error::Limit(format!(
                "fib {}: nim values are computed (by search) only for n up to {SEARCH_LIMIT}; its outcome and winning moves are known, so it can be played alone, not summed",
                self.write_position(p)
            )));
        }
        Ok(None)
    }

    fn explain(&self, p: &FibPosition) -> Option<String> {
        let parts = zeckendorf(p.n);
        let smallest = parts.iter().copied().min().unwrap_or(0);
        let sum: Vec<String> = parts.iter().rev().map(u64::to_string).collect();
        let limit = p.limit();
        let verdict = if p.n == 0 {
            "no tokens are left: the player to move has lost".to_string()
        } else if smallest <= limit {
            format!(
                "{smallest} ≤ {limit}: taking {smallest} wins (and no take from a P-position does)"
            )
        } else {
            format!("{smallest} > {limit}: the player to move loses")
        };
        Some(format!(
            "Fibonacci Nim (Whinihan): write n as a sum of non-consecutive Fibonacci numbers (Zeckendorf): {} = {}; the player to move wins exactly when its smallest term, {smallest}, is at most the largest take allowed, {limit}: {verdict}",
            p.n,
            if sum.is_empty() { "0".to_string() } else { sum.join(" + ") }
        ))
    }

    fn known_outcome(&self, p: &FibPosition) -> Option<Outcome> {
        Some(if winning_takes(p.n, p.limit()).is_empty() {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    fn options_with_nim_value(
        &self,
        p: &FibPosition,
        target: u64,
        _limit: usize,
    ) -> Result<Option<Listing<FibPosition>>> {
        Ok((target == 0).then(|| {
            Listing::all(
                winning_takes(p.n, p.limit())
                    .into_iter()
                    .map(|x| p.after(x))
                    .collect(),
            )
        }))
    }
}

impl Notation for Fib {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<FibPosition, ParseError> {
        match parse_numbers(words, "a number")?[..] {
            [n] => Ok(FibPosition::start(n)),
            [_, 0] => Err("the previous take must be at least 1".into()),
            [n, t] => Ok(FibPosition {
                n,
                previous: Some(t),
            }),
            ref other => Err(format!(
                "a position is 'n' or 'n t' (tokens left, previous take), got {} numbers",
                other.len()
            )
            .into()),
        }
    }

    fn write_position(&self, p: &FibPosition) -> String {
        match p.previous {
            None => p.n.to_string(),
            Some(t) => write_numbers(&[p.n, t]),
        }
    }

    fn position_json(&self, p: &FibPosition) -> Json {
        match p.previous {
            None => Json::from(vec![p.n]),
            Some(t) => Json::from(vec![p.n, t]),
        }
    }

    fn write_move(&self, from: &FibPosition, to: &FibPosition) -> String {
        format!("take {}", from.n - to.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Play;
    use crate::solve::{NimValues, Search};
    use proptest::prelude::*;

    #[test]
    fn start_positions_are_p_exactly_at_fibonacci_numbers() {
        let mut solver = NimValues::new(FibonacciNim);
        for n in 0..150u64 {
            let p = solver.outcome(&(n, n.saturating_sub(1))).unwrap() == Outcome::P;
            assert_eq!(p, n == 0 || is_fibonacci(n), "n={n}");
        }
    }

    #[test]
    fn winning_takes_match_brute_force() {
        let mut solver = NimValues::new(FibonacciNim);
        for n in 0..120u64 {
            for limit in 0..=n {
                let expected: Vec<u64> = (1..=limit)
                    .filter(|&x| solver.nim_value(&(n - x, (2 * x).min(n - x))).unwrap() == 0)
                    .collect();
                assert_eq!(winning_takes(n, limit), expected, "n={n} limit={limit}");
            }
        }
    }

    #[test]
    fn values_and_misere_of_positions_match_the_oracle() {
        let mut oracle = NimValues::new(FibonacciNim);
        let mut values = NimValues::new(Fib);
        let mut misere = Search::new(FibonacciNim, Play::Misere);
        let mut direct = Search::new(Fib, Play::Misere);
        for n in 0..=30u64 {
            for t in 1..=16u64 {
                let p = FibPosition {
                    n,
                    previous: Some(t),
                };
                let state = (n, (2 * t).min(n));
                assert_eq!(
                    values.nim_value(&p).unwrap(),
                    oracle.nim_value(&state).unwrap()
                );
                assert_eq!(Fib.known_outcome(&p), Some(oracle.outcome(&state).unwrap()));
                assert_eq!(direct.outcome(&p).unwrap(), misere.outcome(&state).unwrap());
                let wins = Fib.options_with_nim_value(&p, 0, 100).unwrap().unwrap();
                assert_eq!(wins.items, values.winning_moves(&p).unwrap());
            }
        }
    }

    #[test]
    fn huge_positions() {
        let p = FibPosition::start(u64::MAX);
        assert_eq!(Fib.known_outcome(&p), Some(Outcome::N));
        assert!(matches!(Fib.known_nim_value(&p), Err(Error::Limit(_))));
        let wins = Fib.options_with_nim_value(&p, 0, 10).unwrap().unwrap();
        assert!(!wins.items.is_empty());
        assert_eq!(
            Fib.write_move(&p, &wins.items[0]),
            format!("take {}", zeckendorf(u64::MAX)[0])
        );
        assert!(matches!(Fib.try_options(&p), Err(Error::Limit(_))));
        let p = FibPosition {
            n: u64::MAX,
            previous: Some(u64::MAX),
        };
        assert_eq!(p.limit(), u64::MAX);
        let wins = Fib.options_with_nim_value(&p, 0, 10).unwrap().unwrap();
        assert_eq!(wins.items.last().unwrap().n, 0);
        // 12200160415121876738 is the largest Fibonacci number below 2^64.
        assert!(is_fibonacci(12_200_160_415_121_876_738));
        assert_eq!(
            Fib.known_outcome(&FibPosition::start(12_200_160_415_121_876_738)),
            Some(Outcome::P)
        );
    }

    #[test]
    fn positions_parse() {
        assert_eq!(Fib.parse_position(&["20"]), Ok(FibPosition::start(20)));
        assert!(Fib.parse_position(&["20", "3"]).is_ok());
        assert!(Fib.parse_position(&["20", "0"]).is_err());
        assert!(Fib.parse_position(&[]).is_err());
        assert!(Fib.parse_position(&["1", "2", "3"]).is_err());
        let p = FibPosition::start(20);
        let win = Fib
            .options_with_nim_value(&p, 0, 10)
            .unwrap()
            .unwrap()
            .items[0];
        assert_eq!(Fib.write_move(&p, &win), "take 2");
        assert_eq!(Fib.position_json(&win), serde_json::json!([18, 2]));
    }

    proptest! {
        #[test]
        fn winning_takes_lead_to_p_positions(n in any::<u64>(), limit in any::<u64>()) {
            let limit = limit.min(n);
            for x in winning_takes(n, limit) {
                prop_assert!(x >= 1 && x <= limit);
                let m = n - x;
                let next_limit = x.saturating_mul(2).min(m);
                prop_assert!(m == 0 || zeckendorf(m)[0] > next_limit);
            }
            let n_position = zeckendorf(n).first().is_some_and(|&z| z <= limit);
            prop_assert_eq!(n_position, !winning_takes(n, limit).is_empty());
        }
    }
}
