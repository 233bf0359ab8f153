//! Dyadic rationals `n / 2^k`: the numbers of short games.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Neg, Sub};

/// The largest denominator exponent of a [`Dyadic`] that parsing accepts (`1/2^MAX_EXPONENT`);
/// the solver's values may be finer, up to [`crate::partizan::solve::MAX_SOLVED_EXPONENT`].
pub const MAX_EXPONENT: u32 = 24;

/// The largest magnitude of a [`Dyadic`]'s numerator that parsing accepts (so that sums of many
/// numbers stay far from `i64` overflow).
pub const MAX_NUMERATOR: i64 = 1 << 31;

/// A dyadic rational `numerator / 2^exponent`, always in lowest terms (odd numerator, or
/// exponent 0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Dyadic {
    numerator: i64,
    exponent: u32,
}

impl Dyadic {
    /// Zero.
    pub const ZERO: Dyadic = Dyadic::integer(0);
    /// One.
    pub const ONE: Dyadic = Dyadic::integer(1);

    /// The integer `n`.
    pub const fn integer(n: i64) -> Dyadic {
        Dyadic {
            numerator: n,
            exponent: 0,
        }
    }

    /// `numerator / 2^exponent`, reduced to lowest terms.
    pub fn new(mut numerator: i64, mut exponent: u32) -> Dyadic {
        if numerator == 0 {
            return Dyadic::ZERO;
        }
        let shift = numerator.trailing_zeros().min(exponent);
        numerator >>= shift;
        exponent -= shift;
        Dyadic {
            numerator,
            exponent,
        }
    }

    /// The numerator in lowest terms.
    pub const fn numerator(self) -> i64 {
        self.numerator
    }

    /// The exponent `k` of the denominator `2^k` in lowest terms.
    pub const fn exponent(self) -> u32 {
        self.exponent
    }

    /// Whether the number is an integer.
    pub const fn is_integer(self) -> bool {
        self.exponent == 0
    }

    /// The floor of the number.
    pub const fn floor(self) -> i64 {
        self.numerator >> self.exponent
    }

    /// Half of the number.
    pub fn half(self) -> Dyadic {
        if self.numerator == 0 {
            Dyadic::ZERO
        } else {
            Dyadic::new(self.numerator, self.exponent + 1)
        }
    }

    fn aligned(self, other: Dyadic) -> (i128, i128, u32) {
        let exponent = self.exponent.max(other.exponent);
        (
            (self.numerator as i128) << (exponent - self.exponent),
            (other.numerator as i128) << (exponent - other.exponent),
            exponent,
        )
    }

    fn from_wide(numerator: i128, exponent: u32) -> Dyadic {
        if numerator == 0 {
            return Dyadic::ZERO;
        }
        let shift = numerator.trailing_zeros().min(exponent);
        let numerator = numerator >> shift;
        Dyadic {
            numerator: i64::try_from(numerator).expect("dyadic numerator overflow"),
            exponent: exponent - shift,
        }
    }

    /// The simplest number strictly between `low` and `high` (either bound may be absent), as
    /// the simplicity theorem gives it: the integer nearest 0 if one fits, else the fraction of
    /// least denominator.
    ///
    /// # Panics
    /// If `low >= high`.
    pub fn simplest_between(low: Option<Dyadic>, high: Option<Dyadic>) -> Dyadic {
        match (low, high) {
            (None, None) => Dyadic::ZERO,
            (Some(l), None) => Dyadic::integer(if l.numerator < 0 { 0 } else { l.floor() + 1 }),
            (None, Some(h)) => {
                let ceil = -(-h).floor();
                Dyadic::integer(if h.numerator > 0 { 0 } else { ceil - 1 })
            }
            (Some(l), Some(h)) => {
                assert!(l < h, "simplest_between needs low < high");
                if l.numerator < 0 && h.numerator > 0 {
                    return Dyadic::ZERO;
                }
                // Integers strictly between: the one nearest zero.
                let first = l.floor() + 1;
                let last = -(-h).floor() - 1;
                if first <= last {
                    return Dyadic::integer(if first > 0 {
                        first
                    } else {
                        last.min(0).max(first)
                    });
                }
                // No integer: the least denominator 2^k with a multiple strictly between.
                let mut exponent = 1;
                loop {
                    let scale = 1i128 << exponent;
                    let (ln, hn) = (
                        (l.numerator as i128 * scale) >> l.exponent,
                        (h.numerator as i128 * scale + (1i128 << h.exponent) - 1) >> h.exponent,
                    );
                    // ln = floor(l * 2^k), hn = ceil(h * 2^k)
                    if ln + 1 < hn {
                        return Dyadic::from_wide(ln + 1, exponent);
                    }
                    exponent += 1;
                }
            }
        }
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b, _) = self.aligned(*other);
        a.cmp(&b)
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Dyadic {
    type Output = Dyadic;
    fn add(self, other: Dyadic) -> Dyadic {
        let (a, b, exponent) = self.aligned(other);
        Dyadic::from_wide(a + b, exponent)
    }
}

impl Sub for Dyadic {
    type Output = Dyadic;
    fn sub(self, other: Dyadic) -> Dyadic {
        self + -other
    }
}

impl Neg for Dyadic {
    type Output = Dyadic;
    fn neg(self) -> Dyadic {
        Dyadic {
            numerator: -self.numerator,
            exponent: self.exponent,
        }
    }
}

impl From<i64> for Dyadic {
    fn from(n: i64) -> Dyadic {
        Dyadic::integer(n)
    }
}

impl fmt::Display for Dyadic {
    /// `3`, `-3/4`, as CGSuite writes numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exponent == 0 {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, 1u64 << self.exponent)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: i64, k: u32) -> Dyadic {
        Dyadic::new(n, k)
    }

    #[test]
    fn arithmetic_and_display() {
        assert_eq!((d(1, 1) + d(1, 2)).to_string(), "3/4");
        assert_eq!((d(1, 1) + d(1, 1)).to_string(), "1");
        assert_eq!((d(1, 2) - d(3, 2)).to_string(), "-1/2");
        assert_eq!(d(4, 3), d(1, 1));
        assert!(d(-3, 2) < d(-1, 2));
        assert_eq!(d(-3, 2).floor(), -1);
        assert_eq!(d(3, 1).floor(), 1);
    }

    #[test]
    fn simplest_numbers() {
        let s = Dyadic::simplest_between;
        assert_eq!(s(Some(d(0, 0)), Some(d(1, 0))), d(1, 1));
        assert_eq!(s(Some(d(-1, 0)), Some(d(1, 0))), d(0, 0));
        assert_eq!(s(Some(d(1, 0)), None), d(2, 0));
        assert_eq!(s(Some(d(-5, 1)), None), d(0, 0));
        assert_eq!(s(None, Some(d(-2, 0))), d(-3, 0));
        assert_eq!(s(None, Some(d(1, 2))), d(0, 0));
        assert_eq!(s(Some(d(1, 2)), Some(d(1, 0))), d(1, 1));
        assert_eq!(s(Some(d(1, 1)), Some(d(3, 2))), d(5, 3));
        assert_eq!(s(Some(d(-3, 0)), Some(d(-1, 0))), d(-2, 0));
        assert_eq!(s(Some(d(-7, 1)), Some(d(-1, 0))), d(-2, 0));
        assert_eq!(s(Some(d(3, 1)), Some(d(7, 2))), d(13, 3));
        assert_eq!(s(Some(d(1, 0)), Some(d(3, 0))), d(2, 0));
        assert_eq!(s(Some(d(-1, 2)), Some(d(0, 0))), d(-1, 3));
    }
}
