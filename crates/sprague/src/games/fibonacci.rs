//! Fibonacci Nim: one heap of n; the first move takes 1..n−1 tokens, every later move takes from
//! 1 up to twice the previous take. Taking the last token wins.
//!
//! With the previous take t, the player to move loses iff 2t is smaller than the least term of
//! the Zeckendorf representation of n (seed 004); at the start (no previous take), iff n is a
//! Fibonacci number. The winning moves are exactly the sums of the smallest Zeckendorf terms that
//! the limit allows and that leave a next term more than twice as large ([`winning_takes`]), so
//! every winning move is listed at once for any 64-bit n.
//!
//! Positions are [`Standalone`]: their nim values have no closed form. They are computed by
//! search for n up to [`SEARCH_LIMIT`].

use crate::analysis::{Evaluation, GameDef, Parsed, Standalone, StandaloneMove, OPTION_LIMIT};
use crate::error::{Error, Result};
use crate::game::{Impartial, Outcome, Play};
use crate::solve::{MisereOutcomes, NimValues};
use crate::spec::{parse_heaps, CatalogEntry, Family};
use serde_json::Value as Json;
use std::fmt;
use std::sync::Arc;

/// The largest n for which nim values and misère outcomes are computed by search.
pub const SEARCH_LIMIT: u64 = 64;

/// The rules for the generic solvers: a position is (tokens left, the most the mover may take).
#[derive(Clone, Copy, Debug, Default)]
pub struct FibonacciNim;

impl Impartial for FibonacciNim {
    type Position = (u64, u64);

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FibPosition {
    n: u64,
    previous: Option<u64>,
}

impl FibPosition {
    /// The start position with n tokens (the first move may take 1..n−1).
    pub const fn start(n: u64) -> Self {
        FibPosition { n, previous: None }
    }

    /// The position with n tokens left after a take of `previous`.
    ///
    /// # Errors
    /// [`Error::Position`] if `previous` is 0.
    pub fn after(n: u64, previous: u64) -> Result<Self> {
        if previous == 0 {
            return Err(Error::position(
                "fib",
                "the previous take must be at least 1",
            ));
        }
        Ok(FibPosition {
            n,
            previous: Some(previous),
        })
    }

    /// The most the player to move may take.
    pub fn limit(&self) -> u64 {
        match self.previous {
            None => self.n.saturating_sub(1),
            Some(t) => t.saturating_mul(2).min(self.n),
        }
    }

    fn step(&self, take: u64) -> StandaloneMove {
        let next = FibPosition {
            n: self.n - take,
            previous: Some(take),
        };
        (format!("take {take}"), Arc::new(next))
    }

    fn searchable(&self, play: Play) -> Result<()> {
        if self.n > SEARCH_LIMIT {
            let what = match play {
                Play::Normal => "nim values",
                Play::Misere => "misère play",
            };
            return Err(Error::Limit(format!(
                "fib: {what} are computed by search only for n up to {SEARCH_LIMIT}"
            )));
        }
        Ok(())
    }
}

impl fmt::Display for FibPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.previous {
            None => write!(f, "{}", self.n),
            Some(t) => write!(f, "{} {}", self.n, t),
        }
    }
}

impl Standalone for FibPosition {
    fn game(&self) -> String {
        "fib".into()
    }

    fn to_json(&self) -> Json {
        match self.previous {
            None => Json::from(vec![self.n]),
            Some(t) => Json::from(vec![self.n, t]),
        }
    }

    fn evaluate(&self, play: Play) -> Result<Evaluation> {
        let state = (self.n, self.limit());
        let (outcome, nim_value) = match play {
            Play::Normal => {
                let outcome = if winning_takes(self.n, self.limit()).is_empty() {
                    Outcome::P
                } else {
                    Outcome::N
                };
                let nim_value = if self.n <= SEARCH_LIMIT {
                    Some(NimValues::new(FibonacciNim).nim_value(&state)?)
                } else {
                    None
                };
                (outcome, nim_value)
            }
            Play::Misere => {
                self.searchable(play)?;
                (MisereOutcomes::new(FibonacciNim).outcome(&state)?, None)
            }
        };
        Ok(Evaluation {
            outcome,
            nim_value,
            value: None,
            remoteness: None,
        })
    }

    fn moves(&self, _play: Play) -> Result<Vec<StandaloneMove>> {
        if self.limit() > OPTION_LIMIT as u64 {
            return Err(Error::Limit(format!(
                "fib {self} has more than {OPTION_LIMIT} options to list"
            )));
        }
        Ok((1..=self.limit()).map(|x| self.step(x)).collect())
    }

    fn winning_moves(&self, play: Play) -> Result<Vec<StandaloneMove>> {
        match play {
            Play::Normal => Ok(winning_takes(self.n, self.limit())
                .into_iter()
                .map(|x| self.step(x))
                .collect()),
            Play::Misere => {
                self.searchable(play)?;
                let mut solver = MisereOutcomes::new(FibonacciNim);
                let mut out = Vec::new();
                for x in 1..=self.limit() {
                    let next = (self.n - x, x.saturating_mul(2).min(self.n - x));
                    if solver.outcome(&next)? == Outcome::P {
                        out.push(self.step(x));
                    }
                }
                Ok(out)
            }
        }
    }
}

struct FibGame;

impl GameDef for FibGame {
    fn spec(&self) -> String {
        "fib".into()
    }

    fn parse_position(&self, args: &[String]) -> Result<Parsed> {
        let numbers = parse_heaps("fib", args)?;
        let position = match numbers[..] {
            [n] => FibPosition::start(n),
            [n, t] => FibPosition::after(n, t)?,
            _ => {
                return Err(Error::position(
                    "fib",
                    format!(
                        "a position is 'n' or 'n t' (tokens left, previous take), got {} numbers",
                        numbers.len()
                    ),
                ))
            }
        };
        Ok(Parsed::Single(Arc::new(position)))
    }
}

/// The `fib` spec.
pub struct FibFamily;

impl Family for FibFamily {
    fn catalog(&self) -> Vec<CatalogEntry> {
        vec![CatalogEntry {
            spec: "fib",
            params: "",
            position: "n (the start: the first move takes 1..n-1), or n t (n left, the previous \
                       move took t, so 1..2t may be taken)",
            summary: "Fibonacci Nim: P iff 2t (n-1 at the start) is below the least Zeckendorf \
                      term of n; every winning move listed for any 64-bit n; not summable; nim \
                      value and misère play by search for n up to 64",
            example: "fib 20",
        }]
    }

    fn build(
        &self,
        spec: &str,
        name: &str,
        params: Option<&str>,
    ) -> Option<Result<Arc<dyn GameDef>>> {
        crate::spec::build_without_params(spec, name, params, "fib", || Arc::new(FibGame))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn evaluation_and_misere_match_the_generic_solvers() {
        let mut values = NimValues::new(FibonacciNim);
        let mut misere = MisereOutcomes::new(FibonacciNim);
        for n in 0..=30u64 {
            for t in 1..=16u64 {
                let p = FibPosition::after(n, t).unwrap();
                let state = (n, (2 * t).min(n));
                let e = p.evaluate(Play::Normal).unwrap();
                assert_eq!(e.nim_value, Some(values.nim_value(&state).unwrap()));
                assert_eq!(e.outcome, values.outcome(&state).unwrap());
                let m = p.evaluate(Play::Misere).unwrap();
                assert_eq!(m.outcome, misere.outcome(&state).unwrap());
                let wins: Vec<String> = p
                    .winning_moves(Play::Misere)
                    .unwrap()
                    .into_iter()
                    .map(|(text, _)| text)
                    .collect();
                let expected: Vec<String> = misere
                    .winning_moves(&state)
                    .unwrap()
                    .into_iter()
                    .map(|(left, _)| format!("take {}", n - left))
                    .collect();
                assert_eq!(wins, expected);
            }
        }
    }

    #[test]
    fn huge_positions() {
        let p = FibPosition::start(u64::MAX);
        let e = p.evaluate(Play::Normal).unwrap();
        assert_eq!(e.outcome, Outcome::N);
        assert_eq!(e.nim_value, None);
        let wins = p.winning_moves(Play::Normal).unwrap();
        assert!(!wins.is_empty());
        assert_eq!(wins[0].0, format!("take {}", zeckendorf(u64::MAX)[0]));
        assert!(matches!(p.moves(Play::Normal), Err(Error::Limit(_))));
        assert!(matches!(p.evaluate(Play::Misere), Err(Error::Limit(_))));
        let p = FibPosition::after(u64::MAX, u64::MAX).unwrap();
        assert_eq!(p.limit(), u64::MAX);
        let texts: Vec<String> = p
            .winning_moves(Play::Normal)
            .unwrap()
            .into_iter()
            .map(|m| m.0)
            .collect();
        assert_eq!(texts.last().unwrap(), &format!("take {}", u64::MAX));
        // 12200160415121876738 is the largest Fibonacci number below 2^64.
        assert!(is_fibonacci(12_200_160_415_121_876_738));
        assert!(FibPosition::start(12_200_160_415_121_876_738)
            .winning_moves(Play::Normal)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn positions_parse() {
        use crate::spec::parse_position;
        assert!(parse_position(&["fib", "20"]).is_ok());
        assert!(parse_position(&["fib", "20", "3"]).is_ok());
        assert!(parse_position(&["fib", "20", "0"]).is_err());
        assert!(parse_position(&["fib"]).is_err());
        assert!(parse_position(&["fib", "1", "2", "3"]).is_err());
        assert!(parse_position(&["fib:3", "1"]).is_err());
        let p = parse_position(&["fib", "20"]).unwrap();
        let r = crate::analysis::value(&p, Play::Normal).unwrap();
        assert_eq!(r.winning_moves[0].text, "take 2");
        assert_eq!(r.winning_moves[0].position, serde_json::json!([18, 2]));
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
