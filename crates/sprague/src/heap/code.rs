//! Take-and-break codes: the Guy–Smith notation `d0.d1d2…`, generalised to runs of digits so
//! that subtraction sets with huge members and "all but" games fit the same description.

use super::{HeapRules, MoveBounds};

/// Digit bit: a move may take the whole heap (leave nothing).
pub const LEAVE_NONE: u8 = 1;
/// Digit bit: a move may leave one nonempty heap.
pub const LEAVE_ONE: u8 = 2;
/// Digit bit: a move may leave two nonempty heaps.
pub const LEAVE_TWO: u8 = 4;
/// Digit bit: a move may leave three nonempty heaps (hexadecimal digits 8–F).
pub const LEAVE_THREE: u8 = 8;

/// The most removal amounts with a splitting digit a code may have (the engine lists them).
pub const MAX_SPLIT_AMOUNTS: u64 = 1 << 20;

/// The most digits a code written as text may have.
pub const MAX_CODE_DIGITS: usize = 1 << 20;

/// A run of removal amounts `lo..=hi` sharing one digit; `hi == u64::MAX` means unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Run {
    /// The least amount removed (at least 1).
    pub lo: u64,
    /// The greatest amount removed, inclusive; `u64::MAX` for "and every larger amount".
    pub hi: u64,
    /// The digit: a sum of [`LEAVE_NONE`], [`LEAVE_ONE`], [`LEAVE_TWO`], [`LEAVE_THREE`].
    pub digit: u8,
}

impl Run {
    /// Whether the run has no upper end.
    pub fn is_unbounded(&self) -> bool {
        self.hi == u64::MAX
    }
}

/// A take-and-break game: for each amount t removed from one heap, a digit says how many
/// nonempty heaps the rest may be left as (see [`LEAVE_NONE`] and the other bits).
///
/// Built from Guy–Smith text with [`Code::parse`], or from sets with [`Code::subtraction`] and
/// [`Code::all_but`]; [`Code::grundy`] is Grundy's game. A code is checked when built, so the
/// engine can trust it.
///
/// ```
/// use sprague::heap::{Code, HeapRules};
/// let kayles = Code::parse("0.77").unwrap();
/// assert_eq!(kayles.digit(2), 7);
/// assert_eq!(kayles.to_text().as_deref(), Some("0.77"));
/// assert_eq!(kayles.options(3), vec![vec![2], vec![1, 1], vec![1]]);
/// assert!(Code::parse("0.8x").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Code {
    d0: u8,
    runs: Vec<Run>,
    unequal: bool,
}

impl Code {
    /// A code from the digit before the point (only [`LEAVE_TWO`] and [`LEAVE_THREE`] make sense
    /// there: removing nothing must split) and runs of digits after it.
    ///
    /// # Errors
    /// A message naming the problem: overlapping or unsorted runs, a run starting at 0, a digit
    /// above 15, an unbounded run that splits, or too many splitting amounts.
    pub fn new(d0: u8, runs: Vec<Run>) -> Result<Code, String> {
        if d0 & (LEAVE_NONE | LEAVE_ONE) != 0 || d0 > 15 {
            return Err(format!(
                "the digit before the point can only split a heap (0, 4, 8 or C), got '{d0:X}'"
            ));
        }
        let mut merged: Vec<Run> = Vec::with_capacity(runs.len());
        let mut split_amounts: u64 = 0;
        for run in runs {
            if run.lo == 0 {
                return Err("removal amounts start at 1 (0 is the digit before the point)".into());
            }
            if run.lo > run.hi {
                return Err(format!("the run {}-{} is empty", run.lo, run.hi));
            }
            if run.digit > 15 {
                return Err(format!("digit {} is larger than F", run.digit));
            }
            if run.digit == 0 {
                continue;
            }
            if run.digit & (LEAVE_TWO | LEAVE_THREE) != 0 {
                if run.is_unbounded() {
                    return Err("an unbounded run of amounts cannot split heaps".into());
                }
                split_amounts = split_amounts.saturating_add(run.hi - run.lo + 1);
                if split_amounts > MAX_SPLIT_AMOUNTS {
                    return Err(format!(
                        "more than {MAX_SPLIT_AMOUNTS} removal amounts split heaps"
                    ));
                }
            }
            if let Some(last) = merged.last_mut() {
                if run.lo <= last.hi {
                    return Err(format!(
                        "removal amount {} is given twice (runs must be sorted and disjoint)",
                        run.lo
                    ));
                }
                if last.digit == run.digit && last.hi + 1 == run.lo {
                    last.hi = run.hi;
                    continue;
                }
            }
            merged.push(run);
        }
        Ok(Code {
            d0,
            runs: merged,
            unequal: false,
        })
    }

    /// Parses Guy–Smith / CGSuite text `d0.d1d2…`: octal or hexadecimal digits; the digit
    /// before the point may only be 0, 4, 8 or C.
    ///
    /// # Errors
    /// A message naming the bad character or the missing point.
    pub fn parse(text: &str) -> Result<Code, String> {
        let text = text.trim();
        let Some((before, after)) = text.split_once('.') else {
            return Err(format!("a code needs a point, as in 0.77; got '{text}'"));
        };
        let digit = |c: char| {
            c.to_digit(16)
                .map(|d| d as u8)
                .ok_or_else(|| format!("'{c}' is not an octal or hexadecimal digit"))
        };
        let mut chars = before.chars();
        let d0 = match (chars.next(), chars.next()) {
            (Some(c), None) => digit(c)?,
            (None, _) => 0,
            _ => {
                return Err(format!(
                    "only one digit may stand before the point, got '{before}'"
                ))
            }
        };
        if after.is_empty() {
            return Err("no digits after the point".into());
        }
        if after.len() > MAX_CODE_DIGITS {
            return Err(format!("more than {MAX_CODE_DIGITS} digits"));
        }
        let mut runs = Vec::new();
        for (i, c) in after.chars().enumerate() {
            let t = i as u64 + 1;
            runs.push(Run {
                lo: t,
                hi: t,
                digit: digit(c)?,
            });
        }
        Code::new(d0, runs)
    }

    /// The subtraction game with move set `set`: digit 3 (take exactly t, leaving one heap or
    /// none) at every t in the set.
    ///
    /// # Errors
    /// If the set contains 0 (a pass, which would make the game loopy) or is empty.
    pub fn subtraction(set: &[u64]) -> Result<Code, String> {
        let mut set = set.to_vec();
        set.sort_unstable();
        set.dedup();
        if set.is_empty() {
            return Err("the move set is empty".into());
        }
        if set[0] == 0 {
            return Err("0 is not a move: every move must take at least one token".into());
        }
        if set.last() == Some(&u64::MAX) {
            return Err("move sizes must be below 2^64-1".into());
        }
        let runs = set
            .iter()
            .map(|&t| Run {
                lo: t,
                hi: t,
                digit: LEAVE_NONE | LEAVE_ONE,
            })
            .collect();
        Code::new(0, runs)
    }

    /// The game where a move takes any positive number of tokens except those in `excluded`.
    ///
    /// # Errors
    /// If `excluded` contains 0 (not a move size).
    pub fn all_but(excluded: &[u64]) -> Result<Code, String> {
        let mut excluded = excluded.to_vec();
        excluded.sort_unstable();
        excluded.dedup();
        if excluded.first() == Some(&0) {
            return Err("0 is not a move size, so it cannot be excluded".into());
        }
        let mut runs = Vec::new();
        let mut next = 1u64;
        for &e in &excluded {
            if e > next {
                runs.push(Run {
                    lo: next,
                    hi: e - 1,
                    digit: LEAVE_NONE | LEAVE_ONE,
                });
            }
            if e == u64::MAX {
                return Code::new(0, runs);
            }
            next = e + 1;
        }
        runs.push(Run {
            lo: next,
            hi: u64::MAX,
            digit: LEAVE_NONE | LEAVE_ONE,
        });
        Code::new(0, runs)
    }

    /// Grundy's game: split a heap into two nonempty heaps of different sizes.
    pub fn grundy() -> Code {
        Code {
            d0: LEAVE_TWO,
            runs: Vec::new(),
            unequal: true,
        }
    }

    /// A code from its digits `d_0, d_1, …, d_k` (Guy–Smith's, with `d_0` before the point).
    ///
    /// ```
    /// use sprague::heap::Code;
    /// assert_eq!(Code::from_digits(&[4, 0, 7])?.to_text().as_deref(), Some("4.07"));
    /// # Ok::<(), String>(())
    /// ```
    ///
    /// # Errors
    /// As [`Code::new`]; an empty list has no digit before the point.
    pub fn from_digits(digits: &[u8]) -> Result<Code, String> {
        let (&d0, rest) = digits
            .split_first()
            .ok_or("a code needs at least the digit before the point")?;
        let runs = rest
            .iter()
            .enumerate()
            .map(|(i, &digit)| Run {
                lo: i as u64 + 1,
                hi: i as u64 + 1,
                digit,
            })
            .collect();
        Code::new(d0, runs)
    }

    /// The digits `d_0, d_1, …, d_k` (k the largest amount removed), when there are at most
    /// `limit` of them after the point.
    pub fn dense_digits(&self, limit: u64) -> Option<Vec<u8>> {
        let k = self.max_removed()?;
        if k > limit {
            return None;
        }
        Some((0..=k).map(|t| self.digit(t)).collect())
    }

    /// The code's name in messages and checkpoints: its Guy–Smith text (`0.6`), `grundy`, or
    /// a description of its runs when it is too long to write digit by digit.
    pub fn name(&self) -> String {
        if self.unequal {
            return "grundy".into();
        }
        self.to_text().unwrap_or_else(|| {
            let runs: Vec<String> = self
                .runs
                .iter()
                .map(|r| format!("{}-{}:{:X}", r.lo, r.hi, r.digit))
                .collect();
            format!("{:X}.[{}]", self.d0, runs.join(","))
        })
    }

    /// The digit before the point.
    pub fn d0(&self) -> u8 {
        self.d0
    }

    /// The runs of nonzero digits after the point, sorted and disjoint.
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// Whether the two heaps of a split must differ (Grundy's game).
    pub fn unequal_splits(&self) -> bool {
        self.unequal
    }

    /// The digit for removing `t` tokens.
    pub fn digit(&self, t: u64) -> u8 {
        if t == 0 {
            return self.d0;
        }
        let i = self.runs.partition_point(|r| r.hi < t);
        match self.runs.get(i) {
            Some(r) if r.lo <= t => r.digit,
            _ => 0,
        }
    }

    /// The largest number of heaps a move leaves (0 to 3).
    pub fn max_heaps(&self) -> u64 {
        let all = self.runs.iter().fold(self.d0, |a, r| a | r.digit);
        match all {
            a if a & LEAVE_THREE != 0 => 3,
            a if a & LEAVE_TWO != 0 => 2,
            a if a & LEAVE_ONE != 0 => 1,
            _ => 0,
        }
    }

    /// The largest amount a move removes, or `None` when unbounded.
    pub fn max_removed(&self) -> Option<u64> {
        match self.runs.last() {
            Some(r) if r.is_unbounded() => None,
            Some(r) => Some(r.hi),
            None => Some(0),
        }
    }

    /// Whether some move splits a heap (into two or three).
    pub fn splits(&self) -> bool {
        self.max_heaps() >= 2
    }

    /// The code as Guy–Smith text (`0.77`), when it is short enough to write digit by digit
    /// (at most 4096 digits) and is not Grundy's game.
    pub fn to_text(&self) -> Option<String> {
        let k = self.max_removed()?;
        if k > 4096 || self.unequal {
            return None;
        }
        let mut s = format!("{:X}.", self.d0);
        for t in 1..=k.max(1) {
            s.push_str(&format!("{:X}", self.digit(t)));
        }
        Some(s)
    }
}

/// Pushes every way to write `total` as `parts` nonempty heaps in non-decreasing order, each at
/// least `min` (and different from each other when `unequal`).
fn partitions(
    total: u64,
    parts: u32,
    min: u64,
    unequal: bool,
    prefix: &mut Vec<u64>,
    out: &mut Vec<Vec<u64>>,
) {
    if parts == 1 {
        if total >= min {
            prefix.push(total);
            out.push(prefix.clone());
            prefix.pop();
        }
        return;
    }
    let mut a = min;
    // the remaining parts - 1 heaps are each at least a (or a + 1 when unequal)
    while a.saturating_mul(parts as u64) <= total {
        let rest_min = if unequal { a + 1 } else { a };
        prefix.push(a);
        partitions(total - a, parts - 1, rest_min, unequal, prefix, out);
        prefix.pop();
        a += 1;
    }
}

impl HeapRules for Code {
    fn options(&self, n: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        let mut prefix = Vec::new();
        let mut visit = |t: u64, digit: u8, out: &mut Vec<Vec<u64>>| {
            let rest = n - t;
            if digit & LEAVE_NONE != 0 && rest == 0 {
                out.push(Vec::new());
            }
            if digit & LEAVE_ONE != 0 && rest >= 1 && t >= 1 {
                out.push(vec![rest]);
            }
            if digit & LEAVE_TWO != 0 && rest >= 2 {
                partitions(rest, 2, 1, self.unequal, &mut prefix, out);
            }
            if digit & LEAVE_THREE != 0 && rest >= 3 {
                partitions(rest, 3, 1, self.unequal, &mut prefix, out);
            }
        };
        if n >= 1 {
            visit(0, self.d0, &mut out);
        }
        for r in &self.runs {
            if r.lo > n {
                break;
            }
            for t in r.lo..=r.hi.min(n) {
                visit(t, r.digit, &mut out);
            }
        }
        out
    }

    fn certificate(&self) -> Option<MoveBounds> {
        if self.unequal {
            return None;
        }
        Some(MoveBounds {
            max_heaps: self.max_heaps().max(1),
            max_removed: self.max_removed()?,
        })
    }

    fn code(&self) -> Option<&Code> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_octal_hexadecimal_and_d0_codes() {
        let c = Code::parse("0.137").unwrap();
        assert_eq!(
            (c.digit(1), c.digit(2), c.digit(3), c.digit(4)),
            (1, 3, 7, 0)
        );
        assert_eq!(c.max_removed(), Some(3));
        assert_eq!(c.max_heaps(), 2);
        let h = Code::parse("4.0F").unwrap();
        assert_eq!((h.d0(), h.digit(1), h.digit(2)), (4, 0, 15));
        assert_eq!(h.max_heaps(), 3);
        assert_eq!(h.to_text().as_deref(), Some("4.0F"));
        assert_eq!(
            Code::parse("0.70").unwrap().to_text().as_deref(),
            Some("0.7")
        );
        assert_eq!(Code::parse(".6").unwrap().to_text().as_deref(), Some("0.6"));
    }

    #[test]
    fn malformed_codes_are_rejected_with_a_reason() {
        assert!(Code::parse("0.8x").unwrap_err().contains("'x'"));
        assert!(Code::parse("077").unwrap_err().contains("point"));
        assert!(Code::parse("0.").unwrap_err().contains("no digits"));
        assert!(Code::parse("1.7").unwrap_err().contains("before the point"));
        assert!(Code::parse("44.7").is_err());
        assert!(Code::subtraction(&[0, 1])
            .unwrap_err()
            .contains("0 is not a move"));
        assert!(Code::subtraction(&[]).is_err());
        assert!(Code::all_but(&[0]).is_err());
    }

    #[test]
    fn options_follow_the_digits() {
        // 0.6 (Officers) from 4: remove 1 leaving one heap (3) or two (1+2).
        let officers = Code::parse("0.6").unwrap();
        assert_eq!(officers.options(4), vec![vec![3], vec![1, 2]]);
        // Grundy's game from 6: 1+5 and 2+4, not 3+3.
        assert_eq!(Code::grundy().options(6), vec![vec![1, 5], vec![2, 4]]);
        // 0.8 removes one and leaves three heaps.
        assert_eq!(
            Code::parse("0.8").unwrap().options(6),
            vec![vec![1, 1, 3], vec![1, 2, 2]]
        );
        // all but {2}: every amount except 2.
        let ab = Code::all_but(&[2]).unwrap();
        assert_eq!(ab.options(4), vec![vec![3], vec![1], vec![]]);
        assert_eq!(ab.max_removed(), None);
        assert_eq!(ab.certificate(), None);
    }
}
