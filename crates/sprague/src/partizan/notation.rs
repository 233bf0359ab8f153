//! CGSuite's notation for short games: printing canonical forms and parsing expressions.
//!
//! Printing follows CGSuite: numbers as `3`, `-3/4`; nimbers `*`, `*3`; ups `^`, `^^`, `^3`,
//! `v`, `vv`, `v3`, with a number before and a star after (`1/2^*`, `v3*3`); switches between
//! two numbers as `±1` or `2±1`; everything else as `{L1,L2|R1}`, where an option alone on its
//! side is written without braces and its parent gets one more bar (`{2|1||0}` is
//! `{{2|1}|0}`).
//!
//! Parsing accepts all of that, plus `+-` for `±`, `x±G` for any game `G` (`{x+G|x-G}`),
//! parentheses, and `+` and `-` between terms.

use super::arena::{Arena, GameId, Nus};
use super::dyadic::{Dyadic, MAX_EXPONENT, MAX_NUMERATOR};
use std::fmt;

/// The largest nimber the parser accepts (`*65536` has 65536 options).
pub const MAX_NIMBER: u32 = 1 << 16;
/// The largest up multiple the parser accepts.
pub const MAX_UPS: i64 = 1 << 20;

/// A game expression that does not parse: where and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{}' at column {column}: {reason}", .text.escape_debug())]
pub struct ParseGameError {
    /// The expression as written.
    pub text: String,
    /// The 1-based column (in characters) of the problem.
    pub column: usize,
    /// What is wrong.
    pub reason: String,
}

/// Writes `g`'s canonical form in CGSuite's notation.
pub fn to_notation(arena: &mut Arena, g: GameId) -> String {
    Printer::default().atom(arena, g)
}

fn write_nus(n: Nus, out: &mut String) {
    use fmt::Write;
    let zero = n.number == Dyadic::ZERO;
    if !zero || (n.ups == 0 && n.nimber == 0) {
        let _ = write!(out, "{}", n.number);
    }
    match n.ups {
        0 => {}
        1 => out.push('^'),
        2 => out.push_str("^^"),
        -1 => out.push('v'),
        -2 => out.push_str("vv"),
        k if k > 0 => {
            let _ = write!(out, "^{k}");
        }
        k => {
            let _ = write!(out, "v{}", -k);
        }
    }
    match n.nimber {
        0 => {}
        1 => out.push('*'),
        m => {
            let _ = write!(out, "*{m}");
        }
    }
}

/// A nus's place in the reading order.
type NusKey = (Dyadic, i64, u32);

/// Prints games, remembering the text of every subgame (a canonical form is a DAG; its tree
/// may be far larger).
#[derive(Default)]
struct Printer {
    atoms: hashbrown::HashMap<GameId, String>,
    bare: hashbrown::HashMap<GameId, (String, usize)>,
}

impl Printer {
    /// `g` as it stands in a list of options: a nus, `±...`, or `{...}`.
    fn atom(&mut self, arena: &mut Arena, g: GameId) -> String {
        if let Some(text) = self.atoms.get(&g) {
            return text.clone();
        }
        let text = if let Some(n) = arena.nus_of(g) {
            let mut out = String::new();
            write_nus(n, &mut out);
            out
        } else if let Some(left) = self.switch(arena, g) {
            left
        } else {
            format!("{{{}}}", self.bare(arena, g).0)
        };
        self.atoms.insert(g, text.clone());
        text
    }

    /// `±G` for a game `{G | -G}`, as CGSuite writes it.
    fn switch(&mut self, arena: &mut Arena, g: GameId) -> Option<String> {
        if arena.neg(g) != g {
            return None;
        }
        let left = arena.left_options(g);
        let left = self.sorted(arena, left);
        Some(match &left[..] {
            [only] if arena.number_of(*only).is_some() => format!("±{}", self.atom(arena, *only)),
            [only] if arena.nus_of(*only).is_some() => format!("±({})", self.atom(arena, *only)),
            [only] => format!("±{}", self.atom(arena, *only)),
            _ => {
                let items: Vec<String> = left.iter().map(|&o| self.atom(arena, o)).collect();
                format!("±{{{}}}", items.join(","))
            }
        })
    }

    /// Options in CGSuite's reading order: numbers, ups and nimbers by value, then the rest by
    /// their text (an order that does not depend on the arena).
    fn sorted(&mut self, arena: &mut Arena, mut options: Vec<GameId>) -> Vec<GameId> {
        let mut keyed: Vec<(Option<NusKey>, String, GameId)> = options
            .drain(..)
            .map(|o| match arena.nus_of(o) {
                Some(n) => (Some((n.number, n.ups, n.nimber)), String::new(), o),
                None => (None, self.atom(arena, o), o),
            })
            .collect();
        keyed.sort_by(|a, b| match (&a.0, &b.0) {
            (Some(x), Some(y)) => x.cmp(y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => a.1.cmp(&b.1),
        });
        keyed.into_iter().map(|k| k.2).collect()
    }

    /// `g` without its outer braces, with the number of bars of its top separator.
    fn bare(&mut self, arena: &mut Arena, g: GameId) -> (String, usize) {
        if let Some(known) = self.bare.get(&g) {
            return known.clone();
        }
        let mut bars = 1;
        let mut sides = [String::new(), String::new()];
        let options = [arena.left_options(g), arena.right_options(g)];
        for (side, options) in options.into_iter().enumerate() {
            let options = self.sorted(arena, options);
            if let [only] = options[..] {
                if arena.nus_of(only).is_none() && arena.neg(only) != only {
                    let (text, inner) = self.bare(arena, only);
                    bars = bars.max(inner + 1);
                    sides[side] = text;
                    continue;
                }
            }
            let items: Vec<String> = options.iter().map(|&o| self.atom(arena, o)).collect();
            sides[side] = items.join(",");
        }
        let [left, right] = sides;
        let result = (format!("{left}{}{right}", "|".repeat(bars)), bars);
        self.bare.insert(g, result.clone());
        result
    }
}

/// Parses an expression in CGSuite's notation into its canonical form.
///
/// # Errors
/// A [`ParseGameError`] naming the column and the problem: an unknown character, unbalanced
/// braces, a denominator that is not a power of 2, a number or nimber past the limits, an
/// ambiguous run of bars.
pub fn parse(arena: &mut Arena, text: &str) -> Result<GameId, ParseGameError> {
    let chars: Vec<char> = text.chars().collect();
    let mut parser = Parser {
        text,
        chars: &chars,
        at: 0,
    };
    parser.skip_space();
    if parser.at == chars.len() {
        return Err(parser.error("empty expression"));
    }
    let g = parser.expression(arena, chars.len())?;
    parser.skip_space();
    if parser.at < chars.len() {
        return Err(parser.error(format!("unexpected '{}'", chars[parser.at])));
    }
    Ok(g)
}

struct Parser<'a> {
    text: &'a str,
    chars: &'a [char],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, reason: impl Into<String>) -> ParseGameError {
        self.error_at(self.at, reason)
    }

    fn error_at(&self, at: usize, reason: impl Into<String>) -> ParseGameError {
        ParseGameError {
            text: self.text.to_string(),
            column: at + 1,
            reason: reason.into(),
        }
    }

    fn peek(&self, end: usize) -> Option<char> {
        (self.at < end).then(|| self.chars[self.at])
    }

    fn skip_space(&mut self) {
        while self.at < self.chars.len() && self.chars[self.at].is_whitespace() {
            self.at += 1;
        }
    }

    fn plus_minus_here(&self, end: usize) -> bool {
        self.peek(end) == Some('±')
            || (self.peek(end) == Some('+') && self.at + 1 < end && self.chars[self.at + 1] == '-')
    }

    /// `term (('+'|'-') term)*` up to `end`.
    fn expression(&mut self, arena: &mut Arena, end: usize) -> Result<GameId, ParseGameError> {
        self.skip_space();
        let mut total = self.signed_term(arena, end)?;
        loop {
            self.skip_space();
            match self.peek(end) {
                None => return Ok(total),
                Some('+') if !self.plus_minus_here(end) => {
                    self.at += 1;
                    let term = self.signed_term(arena, end)?;
                    total = arena.add(total, term);
                }
                Some('-') => {
                    self.at += 1;
                    let term = self.signed_term(arena, end)?;
                    let negative = arena.neg(term);
                    total = arena.add(total, negative);
                }
                Some(_) => return Ok(total),
            }
        }
    }

    fn signed_term(&mut self, arena: &mut Arena, end: usize) -> Result<GameId, ParseGameError> {
        self.skip_space();
        if self.peek(end) == Some('-') {
            self.at += 1;
            if self.peek(end).is_some_and(|c| c.is_ascii_digit()) {
                // `-1v*` is the number -1 with a down and a star: the sign is the number's.
                let start = self.at;
                let mut nus = self.nus(end)?;
                nus.number = -nus.number;
                let value = arena.nus(nus);
                return self.switch_suffix(arena, end, value, start);
            }
            let term = self.signed_term(arena, end)?;
            return Ok(arena.neg(term));
        }
        if self.peek(end) == Some('+') && !self.plus_minus_here(end) {
            self.at += 1;
            return self.signed_term(arena, end);
        }
        self.term(arena, end)
    }

    /// A number, ups and star (`3/4^*2`), a switch `x±G`, braces or parentheses.
    fn term(&mut self, arena: &mut Arena, end: usize) -> Result<GameId, ParseGameError> {
        self.skip_space();
        let start = self.at;
        let value = match self.peek(end) {
            None => return Err(self.error("expected a game")),
            Some('{') => self.braces(arena, end)?,
            Some('(') => {
                let close = self.matching(end, '(', ')')?;
                self.at += 1;
                let g = self.expression(arena, close)?;
                self.skip_space();
                if self.at != close {
                    return Err(self.error(format!("unexpected '{}'", self.chars[self.at])));
                }
                self.at = close + 1;
                g
            }
            Some(c) if c.is_ascii_digit() || c == '^' || c == 'v' || c == '*' => {
                let nus = self.nus(end)?;
                arena.nus(nus)
            }
            Some('±') | Some('+') => arena.nus(Nus::default()),
            Some(c) => return Err(self.error(format!("unexpected '{c}'"))),
        };
        self.switch_suffix(arena, end, value, start)
    }

    /// `value ± G` when a `±` follows, else `value`.
    fn switch_suffix(
        &mut self,
        arena: &mut Arena,
        end: usize,
        value: GameId,
        start: usize,
    ) -> Result<GameId, ParseGameError> {
        self.skip_space();
        if self.plus_minus_here(end) {
            self.at += if self.chars[self.at] == '±' { 1 } else { 2 };
            self.skip_space();
            // `±{a,b}` is `{a,b | -a,-b}`; otherwise `±G` is `{G | -G}`.
            let radii = if self.peek(end) == Some('{') {
                let close = self.matching(end, '{', '}')?;
                if self.top_level(self.at + 1, close, '|')?.is_empty() {
                    let list = self.side(arena, self.at + 1, close)?;
                    if list.is_empty() {
                        return Err(self.error("empty option"));
                    }
                    self.at = close + 1;
                    list
                } else {
                    vec![self.term(arena, end)?]
                }
            } else {
                vec![self.term(arena, end)?]
            };
            let mut high = Vec::new();
            let mut low = Vec::new();
            for radius in radii {
                let minus = arena.neg(radius);
                high.push(arena.add(value, radius));
                low.push(arena.add(value, minus));
            }
            return Ok(arena.from_options(&high, &low));
        }
        if self.at == start {
            return Err(self.error("expected a game"));
        }
        Ok(value)
    }

    fn digits(&mut self, end: usize) -> Option<(u64, usize)> {
        let start = self.at;
        let mut value: u64 = 0;
        while let Some(c) = self.peek(end).filter(char::is_ascii_digit) {
            value = value
                .saturating_mul(10)
                .saturating_add(u64::from(c as u8 - b'0'));
            self.at += 1;
        }
        (self.at > start).then_some((value, start))
    }

    fn nus(&mut self, end: usize) -> Result<Nus, ParseGameError> {
        let mut nus = Nus::default();
        if let Some((numerator, start)) = self.digits(end) {
            if numerator > MAX_NUMERATOR as u64 {
                return Err(self.error_at(start, "number too large"));
            }
            let mut number = Dyadic::integer(numerator as i64);
            if self.peek(end) == Some('/') {
                self.at += 1;
                let Some((denominator, at)) = self.digits(end) else {
                    return Err(self.error("expected a denominator after '/'"));
                };
                if denominator == 0 || !denominator.is_power_of_two() {
                    return Err(self.error_at(at, "the denominator must be a power of 2"));
                }
                let exponent = denominator.trailing_zeros();
                if exponent > MAX_EXPONENT {
                    return Err(self.error_at(at, format!("denominator above 2^{MAX_EXPONENT}")));
                }
                number = Dyadic::new(numerator as i64, exponent);
            }
            nus.number = number;
        }
        if let Some(c @ ('^' | 'v')) = self.peek(end) {
            self.at += 1;
            let sign = if c == '^' { 1 } else { -1 };
            let count = if self.peek(end) == Some(c) {
                self.at += 1;
                2
            } else if let Some((n, at)) = self.digits(end) {
                if n > MAX_UPS as u64 {
                    return Err(self.error_at(at, "up multiple too large"));
                }
                n as i64
            } else {
                1
            };
            nus.ups = sign * count;
        }
        if self.peek(end) == Some('*') {
            self.at += 1;
            nus.nimber = match self.digits(end) {
                Some((n, at)) if n > u64::from(MAX_NIMBER) => {
                    return Err(self.error_at(at, format!("nimber above *{MAX_NIMBER}")))
                }
                Some((n, _)) => n as u32,
                None => 1,
            };
        }
        Ok(nus)
    }

    /// The index of the bracket closing the one at `self.at`.
    fn matching(&self, end: usize, open: char, close: char) -> Result<usize, ParseGameError> {
        let mut depth = 0usize;
        for i in self.at..end {
            let c = self.chars[i];
            if c == '{' || c == '(' {
                depth += 1;
            } else if c == '}' || c == ')' {
                depth -= 1;
                if depth == 0 {
                    if c != close {
                        return Err(self.error_at(i, format!("'{open}' closed by '{c}'")));
                    }
                    return Ok(i);
                }
            }
        }
        Err(self.error(format!("unclosed '{open}'")))
    }

    fn braces(&mut self, arena: &mut Arena, end: usize) -> Result<GameId, ParseGameError> {
        let close = self.matching(end, '{', '}')?;
        let g = self.bar_form(arena, self.at + 1, close)?;
        self.at = close + 1;
        Ok(g)
    }

    /// `L|R` between `start` and `end`, split at the longest top-level run of bars.
    fn bar_form(
        &mut self,
        arena: &mut Arena,
        start: usize,
        end: usize,
    ) -> Result<GameId, ParseGameError> {
        let runs = self.top_level(start, end, '|')?;
        let mut runs_by_length: Vec<(usize, usize)> = Vec::new();
        let mut i = 0;
        while i < runs.len() {
            let mut j = i;
            while j + 1 < runs.len() && runs[j + 1] == runs[j] + 1 {
                j += 1;
            }
            runs_by_length.push((runs[i], j - i + 1));
            i = j + 1;
        }
        let Some(&(_, longest)) = runs_by_length.iter().max_by_key(|r| r.1) else {
            return Err(self.error_at(start, "expected '|' between Left's and Right's options"));
        };
        let splits: Vec<usize> = runs_by_length
            .iter()
            .filter(|r| r.1 == longest)
            .map(|r| r.0)
            .collect();
        if splits.len() > 1 {
            return Err(self.error_at(splits[1], "ambiguous bars: write braces"));
        }
        let split = splits[0];
        let left = self.side(arena, start, split)?;
        let right = self.side(arena, split + longest, end)?;
        Ok(arena.from_options(&left, &right))
    }

    /// One side of a bar form: a bar form itself, or a comma list (maybe empty).
    fn side(
        &mut self,
        arena: &mut Arena,
        start: usize,
        end: usize,
    ) -> Result<Vec<GameId>, ParseGameError> {
        if !self.top_level(start, end, '|')?.is_empty() {
            return Ok(vec![self.bar_form(arena, start, end)?]);
        }
        let mut options = Vec::new();
        let commas = self.top_level(start, end, ',')?;
        let mut from = start;
        for stop in commas.into_iter().chain([end]) {
            self.at = from;
            self.skip_space();
            if self.at >= stop {
                if stop == end && options.is_empty() && from == start {
                    break;
                }
                return Err(self.error_at(from, "empty option"));
            }
            let g = self.expression(arena, stop)?;
            self.skip_space();
            if self.at < stop {
                return Err(self.error(format!("unexpected '{}'", self.chars[self.at])));
            }
            options.push(g);
            from = stop + 1;
        }
        Ok(options)
    }

    /// The positions of `mark` between `start` and `end` outside any bracket.
    fn top_level(
        &self,
        start: usize,
        end: usize,
        mark: char,
    ) -> Result<Vec<usize>, ParseGameError> {
        let mut depth = 0usize;
        let mut found = Vec::new();
        for i in start..end {
            match self.chars[i] {
                '{' | '(' => depth += 1,
                '}' | ')' => {
                    depth = depth
                        .checked_sub(1)
                        .ok_or_else(|| self.error_at(i, "unbalanced brackets"))?
                }
                c if c == mark && depth == 0 => found.push(i),
                _ => {}
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(text: &str) -> String {
        let mut arena = Arena::new();
        let g = parse(&mut arena, text).unwrap_or_else(|e| panic!("{e}"));
        to_notation(&mut arena, g)
    }

    #[test]
    fn prints_what_cgsuite_prints() {
        for (input, printed) in [
            ("0", "0"),
            ("*", "*"),
            ("*3", "*3"),
            ("1/2", "1/2"),
            ("-3/4", "-3/4"),
            ("^", "^"),
            ("v", "v"),
            ("^*", "^*"),
            ("^2", "^^"),
            ("^3", "^3"),
            ("v3*", "v3*"),
            ("±1", "±1"),
            ("+-1", "±1"),
            ("{1|-1}", "±1"),
            ("{3|1}", "{3|1}"),
            ("{1|0}", "{1|0}"),
            ("±{1|0}", "0"),
            ("±{2|1}", "±{2|1}"),
            ("±^", "*"),
            ("±(1*)", "±(1*)"),
            ("±{2,{3|1}}", "±{2,{3|1}}"),
            ("{2,{1|0}|-2,{0|-1}}", "±2"),
            ("-1v*", "-1v*"),
            ("-1^ + 1", "^"),
            ("{2|1||0}", "{2|1||0}"),
            ("{0,*|0}", "^*"),
            ("{0|{0|0}}", "^"),
            ("{0|*3}", "^*2"),
            ("{0||0|-1}", "{0||0|-1}"),
            ("^ + ^ + *", "^^*"),
            ("1/2 + 1/2", "1"),
            ("{1|0} + {1|0}", "1"),
            ("-{2|1||0}", "{0||-1|-2}"),
            ("3 - 5/4", "7/4"),
            ("*2 + *3", "*"),
            ("{{2|1}|0}", "{2|1||0}"),
            ("2 + ^ + *2", "2^*2"),
            ("(1 + 1) - *", "2*"),
            ("{|}", "0"),
            ("{0|}", "1"),
            ("{|0}", "-1"),
            ("{0,1|}", "2"),
            ("{*,1|}", "2"),
        ] {
            assert_eq!(round(input), printed, "input {input}");
        }
    }

    #[test]
    fn errors_name_the_problem() {
        let mut arena = Arena::new();
        for (input, reason) in [
            ("", "empty expression"),
            ("{1|", "unclosed '{'"),
            ("1/3", "the denominator must be a power of 2"),
            ("{1|2|3}", "ambiguous bars: write braces"),
            ("x", "unexpected 'x'"),
            ("{1,|0}", "empty option"),
            ("*99999999", "nimber above *65536"),
            ("1 2", "unexpected '2'"),
            ("(1}", "'(' closed by '}'"),
            ("{1 0}", "expected '|' between Left's and Right's options"),
            ("1/", "expected a denominator after '/'"),
        ] {
            let error = parse(&mut arena, input).unwrap_err();
            assert_eq!(error.reason, reason, "input {input:?}");
        }
    }
}
