//! `sprague nimber mul --batch`: many products, input to output, with fast I/O.

use super::Multiplier;
use crate::error::{Error, Result};
use crate::simd::Simd;
use std::io::{BufRead, Write};

fn input_error(line: usize, reason: impl std::fmt::Display) -> Error {
    Error::Io {
        path: "input".into(),
        reason: format!("line {line}: {reason}"),
    }
}

/// Parses one unsigned number at the start of `bytes` (after spaces), returning it and the rest.
fn number(bytes: &[u8], line: usize, what: &str) -> Result<(u64, usize)> {
    let mut i = 0;
    while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t' || bytes[i] == b'\r') {
        i += 1;
    }
    let start = i;
    let mut value: u64 = 0;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(bytes[i] - b'0')))
            .ok_or_else(|| input_error(line, format!("{what} is larger than 2^64-1")))?;
        i += 1;
    }
    if i == start {
        return Err(input_error(
            line,
            if i < bytes.len() {
                format!(
                    "{what} must be a whole number, got '{}'",
                    String::from_utf8_lossy(token_at(bytes, i))
                )
            } else {
                format!("{what} is missing")
            },
        ));
    }
    if i < bytes.len() && !bytes[i].is_ascii_whitespace() {
        return Err(input_error(
            line,
            format!(
                "{what} must be a whole number, got '{}'",
                String::from_utf8_lossy(token_at(bytes, start))
            ),
        ));
    }
    Ok((value, i))
}

fn token_at(bytes: &[u8], from: usize) -> &[u8] {
    let end = bytes[from..]
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .map_or(bytes.len(), |p| from + p);
    &bytes[from..end]
}

fn only_spaces(bytes: &[u8]) -> bool {
    bytes.iter().all(|b| b.is_ascii_whitespace())
}

/// Appends `x` in decimal and a newline.
fn push_decimal(out: &mut Vec<u8>, mut x: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
    out.push(b'\n');
}

/// Reads a count `T` and then `T` lines `A B` of unsigned 64-bit numbers, and writes the `T` nim
/// products `A ⊗ B`, one a line, multiplied along `simd` ([`Simd::Auto`]: the best path).
/// Returns `T`. Blank lines after the last pair are allowed.
///
/// # Errors
/// [`Error::Io`] naming the line (1-based) that is malformed, missing or extra, or the read or
/// write that failed; [`Error::Unsupported`] when this CPU does not run `simd`.
///
/// ```
/// use sprague::simd::Simd;
/// let mut out = Vec::new();
/// let n = sprague::nimber::mul_batch("3\n2 2\n2 3\n16 16\n".as_bytes(), &mut out, Simd::Auto)?;
/// assert_eq!(n, 3);
/// assert_eq!(String::from_utf8(out).unwrap(), "3\n1\n24\n");
/// assert!(sprague::nimber::mul_batch("2\n1 2\n".as_bytes(), &mut Vec::new(), Simd::Auto)
///     .unwrap_err()
///     .to_string()
///     .contains("line 3"));
/// # Ok::<(), sprague::Error>(())
/// ```
pub fn mul_batch(mut input: impl BufRead, mut output: impl Write, simd: Simd) -> Result<u64> {
    let multiplier = Multiplier::new(simd).map_err(|e| Error::Unsupported(e.to_string()))?;
    let mut data = Vec::new();
    input.read_to_end(&mut data).map_err(|e| Error::Io {
        path: "input".into(),
        reason: e.to_string(),
    })?;
    let mut lines = data
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l));
    let (count, rest) = match lines.next() {
        Some((line, text)) => {
            let (count, used) = number(text, line, "the count T")?;
            (count, (line, &text[used..]))
        }
        None => return Err(input_error(1, "the count T is missing")),
    };
    if !only_spaces(rest.1) {
        return Err(input_error(
            rest.0,
            "the first line must hold only the count T",
        ));
    }
    // Never trust T for the allocation: each pair takes at least four bytes.
    let capacity = usize::try_from(count)
        .unwrap_or(usize::MAX)
        .min(data.len() / 4 + 1);
    let (mut a, mut b) = (Vec::with_capacity(capacity), Vec::with_capacity(capacity));
    let mut last_line = 1;
    for _ in 0..count {
        let Some((line, text)) = lines.next() else {
            return Err(input_error(
                last_line + 1,
                format!(
                    "expected {count} pairs 'A B', but the input ends after {} of them",
                    a.len()
                ),
            ));
        };
        last_line = line;
        let (x, used) = number(text, line, "A")?;
        let (y, used2) = number(&text[used..], line, "B")?;
        if !only_spaces(&text[used + used2..]) {
            return Err(input_error(line, "expected exactly two numbers 'A B'"));
        }
        a.push(x);
        b.push(y);
    }
    for (line, text) in lines {
        if !only_spaces(text) {
            return Err(input_error(
                line,
                format!("more lines than the count T = {count}"),
            ));
        }
    }
    let mut products = vec![0u64; a.len()];
    multiplier
        .mul_slices(&a, &b, &mut products)
        .map_err(|e| Error::Internal(e.to_string()))?;
    let mut text = Vec::with_capacity(products.len() * 21);
    for p in products {
        push_decimal(&mut text, p);
    }
    output
        .write_all(&text)
        .and_then(|()| output.flush())
        .map_err(|e| Error::Io {
            path: "output".into(),
            reason: e.to_string(),
        })?;
    Ok(count)
}
