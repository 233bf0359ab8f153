//! Cram: players take turns placing a domino on two empty adjacent cells, either way (the
//! impartial Domineering); the player who cannot place a domino loses.
//!
//! Positions are boards in the [grid](super::grid) syntax, `.` empty and `#` blocked:
//! `....|.#..|....`; `cram:RxC` is the empty R×C board. A move is written by its two cells,
//! 1-based `(row,column)`, as in Domineering: `(1,1)-(1,2)`.
//!
//! Components: cells that no domino can cover are dropped, and the rest splits into
//! 4-connected regions. A region's [key](Impartial::key) is its least image under the eight
//! symmetries of the rectangle (no negation: the game is impartial), so equal regions share
//! one value.

use super::grid::{board_text, canonical_key, Cells, Grid, GridError, Symmetry};
use crate::budget::Budget;
use crate::error::Result;
use crate::game::notation::ParseError;
use crate::game::{Game, Impartial, Notation};
use crate::solve::nimsearch::{ComponentValues, Known, NimSearch, OptionSink, Settings, SplitGame};
use std::sync::OnceLock;

/// The rules of Cram (the position is the set of empty cells).
#[derive(Clone, Copy, Debug, Default)]
pub struct Cram;

impl Cram {
    /// Parses a board: rows joined by `|` or `/`, `.` empty, `#` blocked.
    ///
    /// # Errors
    /// A [`GridError`] naming the problem.
    pub fn parse(text: &str) -> Result<Cells, GridError> {
        Ok(Grid::parse(text, "")?.cells_of(b'.'))
    }

    /// The empty `rows × cols` board.
    ///
    /// # Errors
    /// [`GridError::Empty`] or [`GridError::TooLarge`].
    pub fn rectangle(rows: usize, cols: usize) -> Result<Cells, GridError> {
        Grid::empty(rows, cols)?;
        Ok(Cells::full(rows, cols))
    }

    /// Every placement: the bit of its first (upper or left) cell and the step to the other.
    fn placements(position: &Cells) -> impl Iterator<Item = (u128, usize)> {
        let bits = |mut pairs: u128, step: usize| {
            std::iter::from_fn(move || {
                (pairs != 0).then(|| {
                    let low = pairs & pairs.wrapping_neg();
                    pairs &= pairs - 1;
                    (low, step)
                })
            })
        };
        bits(position.horizontal_pairs(), 1).chain(bits(position.vertical_pairs(), position.cols()))
    }
}

impl Game for Cram {
    type Position = Cells;
}

impl Impartial for Cram {
    fn options(&self, position: &Cells) -> Vec<Cells> {
        Cram::placements(position)
            .map(|(low, step)| position.with_bits(position.bits() & !(low | (low << step))))
            .collect()
    }

    fn components(&self, position: &Cells) -> Vec<Cells> {
        let parts = position.with_neighbours().components();
        if parts.is_empty() {
            // No move left: the board itself, so that it is still written (and read back).
            vec![*position]
        } else {
            parts
        }
    }

    fn join(&self, parts: Vec<Cells>) -> Option<Cells> {
        let first = *parts.first()?;
        let same_board = parts
            .iter()
            .all(|p| (p.rows(), p.cols()) == (first.rows(), first.cols()));
        same_board.then(|| first.with_bits(parts.iter().fold(0, |b, p| b | p.bits())))
    }

    fn key(&self, component: &Cells) -> Cells {
        canonical_key([component.cropped()], &Symmetry::ALL).0[0]
    }
}

impl Notation for Cram {
    fn parse_position(&self, words: &[&str]) -> Result<Cells, ParseError> {
        let text = board_text(words, "...|...")?;
        Cram::parse(&text).map_err(|e| e.to_string().into())
    }

    fn write_position(&self, position: &Cells) -> String {
        position.to_string()
    }

    fn write_move(&self, from: &Cells, to: &Cells) -> String {
        let taken = from.bits() & !to.bits();
        let cols = from.cols();
        let cell = |i: u32| (i as usize / cols + 1, i as usize % cols + 1);
        let (r1, c1) = cell(taken.trailing_zeros());
        let (r2, c2) = cell(127 - taken.leading_zeros());
        format!("({r1},{c1})-({r2},{c2})")
    }
}

/// The words Cram's search kernel keeps boards in: `u64` for boards of at most 64 cells,
/// `u128` for larger ones.
pub trait Word:
    Copy
    + Eq
    + Ord
    + std::hash::Hash
    + std::fmt::Debug
    + Send
    + Sync
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::BitAndAssign
{
    /// The number of bits.
    const BITS: u32;
    /// No bit.
    const ZERO: Self;
    /// Bit 0.
    const ONE: Self;
    /// `self << n`, 0 from `n = BITS` on.
    fn shl(self, n: u32) -> Self;
    /// `self >> n`, 0 from `n = BITS` on.
    fn shr(self, n: u32) -> Self;
    /// The number of set bits.
    fn ones(self) -> u32;
    /// The index of the lowest set bit (`BITS` for 0).
    fn lowest(self) -> u32;
    /// The index of the highest set bit plus one (0 for 0).
    fn width(self) -> u32;
    /// The bits in reverse order.
    fn reversed(self) -> Self;
    /// The lowest set bit alone.
    fn low_bit(self) -> Self;
    /// The word as a `u128`, when it fits.
    fn to_u128(self) -> Option<u128>;
    /// The word of a `u128`'s low bits.
    fn from_u128(x: u128) -> Self;
    /// The `n` low bits set.
    fn low(n: u32) -> Self {
        if n >= Self::BITS {
            !Self::ZERO
        } else {
            Self::ONE.shl(n).sub_one()
        }
    }
    /// `self - 1` (wrapping).
    fn sub_one(self) -> Self;
    /// `self · other` (wrapping).
    fn mul(self, other: Self) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline]
            fn shl(self, n: u32) -> Self {
                self.checked_shl(n).unwrap_or(0)
            }
            #[inline]
            fn shr(self, n: u32) -> Self {
                self.checked_shr(n).unwrap_or(0)
            }
            #[inline]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn width(self) -> u32 {
                <$t>::BITS - self.leading_zeros()
            }
            #[inline]
            fn reversed(self) -> Self {
                self.reverse_bits()
            }
            #[inline]
            fn low_bit(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline]
            fn to_u128(self) -> Option<u128> {
                Some(self as u128)
            }
            #[inline]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
            #[inline]
            fn sub_one(self) -> Self {
                self.wrapping_sub(1)
            }
            #[inline]
            fn mul(self, other: Self) -> Self {
                self.wrapping_mul(other)
            }
        }
    };
}

word!(u64);
word!(u128);

/// Whether this CPU runs the search kernel's copy for its bit instructions (POPCNT, LZCNT,
/// BMI1, BMI2, GFNI).
fn has_bit_ops() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("gfni");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The instructions the search kernel (splitting and keying regions) runs on, on this CPU:
/// for `sprague bench search` to print beside its figures.
pub fn kernel_instructions() -> &'static str {
    if has_bit_ops() {
        "popcnt lzcnt bmi1 bmi2 gfni"
    } else {
        "the target's baseline instructions"
    }
}

/// A component of a Cram position in the search's canonical form: cropped to its bounding
/// box (`rows × cols`, row-major bits), connected, every cell with a neighbour, stars
/// reduced, and the least image under the box's symmetries (at most as many rows as columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Region<W> {
    bits: W,
    rows: u8,
    cols: u8,
    /// What is known of its value: 0 nothing, 1 not zero, `2 + v` the value v.
    known: u8,
    /// The number of cells (the search's weight, counted once).
    cells: u8,
}

impl<W: Word> Region<W> {
    /// The cells, row-major on a `rows × cols` box.
    pub fn bits(&self) -> W {
        self.bits
    }

    /// The size of the box, `(rows, cols)`.
    pub fn size(&self) -> (usize, usize) {
        (usize::from(self.rows), usize::from(self.cols))
    }
}

/// The masks of a `rows × cols` box.
#[derive(Clone, Copy)]
struct Frame<W> {
    cols: u32,
    full: W,
    first: W,
    last: W,
}

impl<W: Word> Frame<W> {
    /// Cells of `x` with a neighbour in `x` to their left, right, above and below.
    #[inline]
    fn sides(&self, x: W) -> [W; 4] {
        [
            x & x.shl(1) & !self.first,
            x & x.shr(1) & !self.last,
            x & x.shl(self.cols),
            x & x.shr(self.cols),
        ]
    }

    /// The cells next to a cell of `x` (within the box).
    #[inline]
    fn around(&self, x: W) -> W {
        ((x.shl(1) & !self.first) | (x.shr(1) & !self.last) | x.shl(self.cols) | x.shr(self.cols))
            & self.full
    }

    /// [`Frame::around`] without crossing the links from the cells of `cut` to their right
    /// neighbours.
    #[inline]
    fn around_except(&self, x: W, cut: W) -> W {
        ((x.shl(1) & !self.first & !cut.shl(1))
            | (x.shr(1) & !self.last & !cut)
            | x.shl(self.cols)
            | x.shr(self.cols))
            & self.full
    }

    /// The cells whose link to their right neighbour may be cut: the upper left cell a and
    /// the lower left cell d of every free 2×2 block (a, b over d, e) where a and e have no
    /// neighbour outside it (or b and d have none). A domino a-b then leaves the same game as
    /// b-e (a pendant cell on d), and d-e the same as a-d, in every later position too, so
    /// the game without these two dominoes has the same value (Beling's igs splits regions
    /// there).
    #[inline]
    fn cut(&self, x: W) -> W {
        let c = self.cols;
        let [l, r, u, d] = self.sides(x);
        // Cells whose neighbours in the block's directions are all there and the others not.
        let right_down = r & d & !l & !u;
        let left_up = l & u & !r & !d;
        let left_down = l & d & !r & !u;
        let right_up = r & u & !l & !d;
        // a at i: a right-down, e = i + c + 1 left-up.
        let a1 = right_down & left_up.shr(c + 1);
        // b at i + 1 left-down, d at i + c right-up.
        let a2 = left_down.shr(1) & right_up.shr(c) & x;
        let a = (a1 | a2) & x & x.shr(1) & x.shr(c) & x.shr(c + 1) & !self.last;
        a | a.shl(c)
    }

    /// The dominoes of `x`: bit `i` of the first word when `i` and `i + 1` are free, of the
    /// second when `i` and `i + cols` are.
    #[inline]
    fn dominoes(&self, x: W) -> (W, W) {
        (x & x.shr(1) & !self.last, x & x.shr(self.cols))
    }
}

/// Cram on bitboards of `W` bits, for the search ([`NimSearch`]): components are
/// [`Region`]s, found by dropping the cells no domino can cover, reducing stars (Beling's
/// reductions: of several cells whose only neighbour is one cell, one is kept; a cell all of
/// whose neighbours are such centres is dropped; both keep the nim value, by a mirror
/// strategy), splitting and taking the least image under the symmetries. Strips are valued
/// by Dawson's Kayles (0.07), centrally symmetric regions by the mirror strategy.
#[derive(Clone, Debug)]
pub struct CramParts<W> {
    /// `first_column[c]`: bit `r·c` for every row `r` that fits.
    first_column: Vec<W>,
    /// Octal 0.07 values of heaps `0..=BITS`.
    dawson: Vec<u8>,
    /// `reciprocal[c]`: ⌈2^16 / c⌉, so that `i / c = (i · reciprocal[c]) >> 16` for every
    /// bit index `i`.
    reciprocal: Vec<u32>,
    /// Whether the CPU has the bit instructions of [`CramParts::options_bit_ops`].
    bit_ops: bool,
}

impl<W: Word> Default for CramParts<W> {
    fn default() -> Self {
        CramParts::new()
    }
}

impl<W: Word> CramParts<W> {
    /// The kernel, with its tables.
    pub fn new() -> Self {
        let bits = W::BITS;
        let mut first_column = vec![W::ZERO];
        for c in 1..=bits {
            let mut mask = W::ZERO;
            let mut r = 0;
            while r * c < bits {
                mask |= W::ONE.shl(r * c);
                r += 1;
            }
            first_column.push(mask);
        }
        // Dawson's Kayles: a domino on a strip of n leaves strips of i and n - 2 - i.
        let mut dawson = vec![0u8; bits as usize + 1];
        for n in 2..dawson.len() {
            let mut seen = [false; 256];
            for i in 0..=n - 2 {
                seen[usize::from(dawson[i] ^ dawson[n - 2 - i])] = true;
            }
            dawson[n] = seen.iter().position(|&s| !s).unwrap_or(0) as u8;
        }
        let reciprocal: Vec<u32> = (0..=bits).map(|c| 65536_u32.div_ceil(c.max(1))).collect();
        for c in 1..=bits {
            for i in 0..bits {
                assert_eq!(
                    (i * reciprocal[c as usize]) >> 16,
                    i / c,
                    "reciprocal of {c}"
                );
            }
        }
        CramParts {
            first_column,
            dawson,
            reciprocal,
            bit_ops: has_bit_ops(),
        }
    }

    /// The kernel on the baseline instructions whatever the CPU has (tests run both).
    #[cfg(test)]
    fn without_bit_ops() -> Self {
        CramParts {
            bit_ops: false,
            ..CramParts::new()
        }
    }

    #[inline(always)]
    fn frame(&self, rows: u32, cols: u32) -> Frame<W> {
        let full = W::low(rows * cols);
        let first = self.first_column[cols as usize] & full;
        Frame {
            cols,
            full,
            first,
            last: first.shl(cols - 1),
        }
    }

    /// The parts of the cells `bits` of a `rows × cols` board (at most `W::BITS` cells), in
    /// canonical form.
    #[inline(always)]
    pub fn split(&self, bits: W, rows: usize, cols: usize, out: &mut impl FnMut(Region<W>)) {
        let frame = self.frame(rows as u32, cols as u32);
        let rest = self.reduce(&frame, bits & frame.full);
        self.components(&frame, rows as u32, rest, out);
    }

    /// [`CramParts::components`] out of line, for its recursion, in the kernel's copy for
    /// the CPU's bit instructions where it has them.
    #[inline(never)]
    fn components_again(&self, f: &Frame<W>, rows: u32, x: W, out: &mut impl FnMut(Region<W>)) {
        if self.bit_ops {
            // SAFETY: `bit_ops` is set only where the CPU has the features (x86-64 only).
            #[cfg(target_arch = "x86_64")]
            return unsafe { self.components_bit_ops(f, rows, x, out) };
        }
        self.components(f, rows, x, out);
    }

    /// [`CramParts::components`] with the instructions of [`CramParts::options_bit_ops`].
    ///
    /// # Safety
    /// The CPU must have those features.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,gfni")]
    unsafe fn components_bit_ops(
        &self,
        f: &Frame<W>,
        rows: u32,
        x: W,
        out: &mut impl FnMut(Region<W>),
    ) {
        self.components(f, rows, x, out);
    }

    /// The parts of the reduced cells `x`.
    #[inline(always)]
    fn components(&self, f: &Frame<W>, rows: u32, x: W, out: &mut impl FnMut(Region<W>)) {
        let cut = f.cut(x);
        let mut rest = x;
        while rest != W::ZERO {
            let mut part = rest.low_bit();
            loop {
                let grown = (part | f.around_except(part, cut)) & rest;
                if grown == part {
                    break;
                }
                part = grown;
            }
            rest &= !part;
            if cut == W::ZERO || part == x {
                out(self.canonical(f, rows, part));
            } else {
                // A part cut off at a 2×2 block may reduce further.
                self.components_again(f, rows, self.reduce(f, part), out);
            }
        }
    }

    /// `x` without the cells no domino covers, with stars reduced, until nothing changes.
    #[inline(always)]
    fn reduce(&self, f: &Frame<W>, mut x: W) -> W {
        loop {
            x &= f.around(x);
            let [l, r, u, d] = f.sides(x);
            let two = (l & r) | ((l | r) & (u | d)) | (u & d);
            let tufts = (l | r | u | d) & !two;
            // Centres of tufts, direction by direction; a centre that has a tuft already
            // loses the others.
            let c = f.cols;
            let mut centres = (tufts & l).shr(1);
            let cr = (tufts & r).shl(1);
            let mut drop = (cr & centres).shr(1);
            centres |= cr;
            let cu = (tufts & u).shr(c);
            drop |= (cu & centres).shl(c);
            centres |= cu;
            let cd = (tufts & d).shl(c);
            drop |= (cd & centres).shr(c);
            centres |= cd;
            let kept = x & !drop;
            // Cells all of whose neighbours are centres (and that are neither).
            let others = kept & !centres;
            let bridges = others & !tufts & !f.around(others);
            let next = kept & !bridges;
            if next == x {
                return x;
            }
            x = next;
        }
    }

    /// The canonical region of the connected cells `part` of the frame.
    #[inline(always)]
    fn canonical(&self, f: &Frame<W>, rows: u32, part: W) -> Region<W> {
        let cols = f.cols;
        // i / cols by a multiply (exact for i below 2^16 / cols, checked in `new`).
        let reciprocal = self.reciprocal[cols as usize];
        let top = (part.lowest() * reciprocal) >> 16;
        let bottom = ((part.width() - 1) * reciprocal) >> 16;
        debug_assert!(bottom < rows);
        let h = bottom - top + 1;
        // The columns in use: the rows folded onto the first.
        let mut folded = part.shr(top * cols);
        let mut k = 1;
        while k < h {
            folded |= folded.shr(k * cols);
            k *= 2;
        }
        let columns = folded & W::low(cols);
        let left = columns.lowest();
        let w = columns.width() - left;
        let mut x = if w == cols {
            part.shr(top * cols)
        } else {
            let mut x = W::ZERO;
            let keep = W::low(w);
            for r in 0..h {
                x |= (part.shr((top + r) * cols + left) & keep).shl(r * w);
            }
            x
        };
        let (mut h, mut w) = (h, w);
        if h > w {
            x = self.transpose_tall(x, h, w);
            (h, w) = (w, h);
        }
        let best = if h == w {
            least_of_flips(x, h, w).min(least_of_flips(transpose(x, h, w), w, h))
        } else {
            least_image(x, h, w)
        };
        let mut region = Region {
            bits: best,
            rows: h as u8,
            cols: w as u8,
            known: 0,
            cells: part.ones() as u8,
        };
        region.known = match self.value_without_search(&region) {
            Known::Unknown => 0,
            Known::NonZero => 1,
            Known::Value(v) => 2 + v,
        };
        region
    }

    /// `x` (`h × w`, `h > w`) transposed (`w × h`), a row at a time: a multiply spreads the
    /// row's bits `h` apart (bit `c` of the row, times bit `c'·(h - 1)` of the multiplier,
    /// lands on `c + c'·(h - 1)`, a multiple of `h` only for `c' = c`, and no two products
    /// share a bit, since `c < w < h`).
    #[inline(always)]
    fn transpose_tall(&self, x: W, h: u32, w: u32) -> W {
        debug_assert!(w < h);
        let spread = self.first_column[(h - 1) as usize] & W::low((w - 1) * (h - 1) + 1);
        let keep = self.first_column[h as usize] & W::low(w * h);
        let row = W::low(w);
        let mut out = W::ZERO;
        for r in 0..h {
            out |= ((x.shr(r * w) & row).mul(spread) & keep).shl(r);
        }
        out
    }

    /// Strips by Dawson's Kayles; centrally symmetric regions by the mirror strategy.
    #[inline(always)]
    fn value_without_search(&self, region: &Region<W>) -> Known {
        if region.rows == 1 {
            return Known::Value(self.dawson[usize::from(region.cols)]);
        }
        match self.central(region) {
            Some((true, false)) => Known::Value(0),
            Some((true, true)) => Known::NonZero,
            _ => Known::Unknown,
        }
    }

    /// Whether the region is centrally symmetric, and whether a domino covers the centre
    /// (`None`: a cell is its own image, so no mirror strategy works).
    #[inline(always)]
    fn central(&self, region: &Region<W>) -> Option<(bool, bool)> {
        let (h, w) = (u32::from(region.rows), u32::from(region.cols));
        let x = region.bits;
        // The last row of a centrally symmetric box is its first row reversed.
        let first = x & W::low(w);
        if x.shr((h - 1) * w) != first.reversed().shr(W::BITS - w) || rotated(x, h * w) != x {
            return Some((false, false));
        }
        let centre_cell = |r: u32, c: u32| x.shr(r * w + c) & W::ONE != W::ZERO;
        match (h % 2, w % 2) {
            (1, 1) => (!centre_cell(h / 2, w / 2)).then_some((true, false)),
            (1, 0) => Some((
                true,
                centre_cell(h / 2, w / 2 - 1) && centre_cell(h / 2, w / 2),
            )),
            (0, 1) => Some((
                true,
                centre_cell(h / 2 - 1, w / 2) && centre_cell(h / 2, w / 2),
            )),
            _ => Some((true, false)),
        }
    }
}

/// `0..n` from the middle outwards.
fn centre_out(n: u32) -> impl Iterator<Item = u32> {
    let mid = (n - 1) / 2;
    (0..2 * n).filter_map(move |k| {
        let d = k / 2;
        let i = if k % 2 == 0 {
            mid + d
        } else {
            mid.checked_sub(d + 1)?
        };
        (i < n).then_some(i)
    })
}

/// The bits of `x` read from the other end (the box turned half a turn).
#[inline]
fn rotated<W: Word>(x: W, cells: u32) -> W {
    x.reversed().shr(W::BITS - cells)
}

/// `x` (`h × w`) with its rows in reverse order.
#[inline]
fn flip_rows<W: Word>(x: W, h: u32, w: u32) -> W {
    let keep = W::low(w);
    let mut out = W::ZERO;
    for r in 0..h {
        out |= (x.shr(r * w) & keep).shl((h - 1 - r) * w);
    }
    out
}

/// `x` (`h × w`) transposed (`w × h`).
fn transpose<W: Word>(x: W, h: u32, w: u32) -> W {
    let keep = W::low(w);
    let mut out = W::ZERO;
    for r in 0..h {
        let mut row = x.shr(r * w) & keep;
        while row != W::ZERO {
            let c = row.lowest();
            row &= row.sub_one();
            out |= W::ONE.shl(c * h + r);
        }
    }
    out
}

/// The least of the four images of `x` (`h × w`) that keep the axes, computing only the
/// images whose last row (their most significant bits) is least: the last rows of the four
/// are the last and first rows of `x`, each as it is or reversed.
#[inline]
fn least_image<W: Word>(x: W, h: u32, w: u32) -> W {
    let reverse = |row: W| row.reversed().shr(W::BITS - w);
    let first = x & W::low(w);
    let last = x.shr((h - 1) * w);
    let (first_reversed, last_reversed) = (reverse(first), reverse(last));
    let least = last.min(first).min(first_reversed).min(last_reversed);
    let cells = h * w;
    // One of the four is the least, so `best` becomes an image.
    let mut best = !W::ZERO;
    if last == least {
        best = x;
    }
    if first_reversed == least {
        best = best.min(rotated(x, cells));
    }
    if first == least || last_reversed == least {
        let flipped = flip_rows(x, h, w);
        if first == least {
            best = best.min(flipped);
        }
        if last_reversed == least {
            best = best.min(rotated(flipped, cells));
        }
    }
    best
}

/// The least of the four images of `x` (`h × w`) that keep the axes.
#[inline]
fn least_of_flips<W: Word>(x: W, h: u32, w: u32) -> W {
    let flipped = flip_rows(x, h, w);
    let cells = h * w;
    x.min(flipped)
        .min(rotated(x, cells))
        .min(rotated(flipped, cells))
}

impl<W: Word> CramParts<W> {
    /// The options of `part` ([`SplitGame::options`]), compiled inline into each caller so
    /// that [`CramParts::options_bit_ops`] gets a copy for the CPU's bit instructions.
    #[inline(always)]
    fn options_in(&self, part: &Region<W>, out: &mut OptionSink<'_, Region<W>>) {
        let (rows, cols) = (u32::from(part.rows), u32::from(part.cols));
        let frame = self.frame(rows, cols);
        let x = part.bits;
        let (across, down) = frame.dominoes(x);
        macro_rules! play {
            ($cells:expr) => {{
                self.split(x & !$cells, rows as usize, cols as usize, &mut |r| {
                    out.push(r)
                });
                out.end()
            }};
        }
        // Central lines first (the solver's order keeps it among options of equal weight):
        // dominoes across the long side in the middle columns, then along it in the middle
        // rows.
        let column = W::ONE | W::ONE.shl(cols);
        for c in centre_out(cols) {
            let mut moves = down & frame.first.shl(c);
            while moves != W::ZERO {
                let i = moves.lowest();
                moves &= moves.sub_one();
                if !play!(column.shl(i)) {
                    return;
                }
            }
        }
        let pair = W::ONE | W::ONE.shl(1);
        for r in centre_out(rows) {
            let mut moves = across & W::low(cols).shl(r * cols);
            while moves != W::ZERO {
                let i = moves.lowest();
                moves &= moves.sub_one();
                if !play!(pair.shl(i)) {
                    return;
                }
            }
        }
    }

    /// [`CramParts::options_in`] with POPCNT, LZCNT, BMI1, BMI2 and GFNI (bit reversal):
    /// splitting and keying the options is about half of a Cram search. On a Zen 4
    /// (2026-12-07), Cram 5×8 on one thread took ×0.96 the CPU time of the baseline
    /// instructions (the same nodes; 4 alternating runs each).
    ///
    /// # Safety
    /// The CPU must have those features.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,gfni")]
    unsafe fn options_bit_ops(&self, part: &Region<W>, out: &mut OptionSink<'_, Region<W>>) {
        self.options_in(part, out)
    }
}

impl<W: Word> SplitGame for CramParts<W> {
    type Part = Region<W>;

    fn options(&self, part: &Region<W>, out: &mut OptionSink<'_, Region<W>>) {
        if self.bit_ops {
            // SAFETY: `bit_ops` is set only where the CPU has the features (x86-64 only).
            #[cfg(target_arch = "x86_64")]
            return unsafe { self.options_bit_ops(part, out) };
        }
        self.options_in(part, out)
    }

    fn option_count(&self, part: &Region<W>) -> usize {
        let frame = self.frame(u32::from(part.rows), u32::from(part.cols));
        let (across, down) = frame.dominoes(part.bits);
        (across.ones() + down.ones()) as usize
    }

    fn code(&self, part: &Region<W>) -> Option<u128> {
        let bits = part.bits.to_u128()?;
        (bits >> 121 == 0).then(|| bits << 7 | u128::from(part.cols - 1))
    }

    fn weight(&self, part: &Region<W>) -> u32 {
        u32::from(part.cells)
    }

    #[inline]
    fn known(&self, part: &Region<W>) -> Known {
        match part.known {
            0 => Known::Unknown,
            1 => Known::NonZero,
            v => Known::Value(v - 2),
        }
    }

    fn name(&self) -> String {
        "cram".into()
    }
}

/// The catalog's Cram values: each component goes to the search of the narrowest word that
/// holds its board (the searches and their tables are made on first use and kept).
pub struct CramValues {
    settings: Settings,
    narrow: OnceLock<Result<NimSearch<CramParts<u64>>>>,
    wide: OnceLock<Result<NimSearch<CramParts<u128>>>>,
}

impl CramValues {
    /// Values searched with these settings (the tables' cap is shared by both searches).
    pub fn new(settings: Settings) -> Self {
        CramValues {
            settings,
            narrow: OnceLock::new(),
            wide: OnceLock::new(),
        }
    }

    fn search<'a, W: Word>(
        &self,
        slot: &'a OnceLock<Result<NimSearch<CramParts<W>>>>,
    ) -> Result<&'a NimSearch<CramParts<W>>> {
        slot.get_or_init(|| NimSearch::new(CramParts::new(), self.settings.clone()))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The search that values boards of at most 64 cells.
    ///
    /// # Errors
    /// A damaged checkpoint.
    pub fn narrow(&self) -> Result<&NimSearch<CramParts<u64>>> {
        self.search(&self.narrow)
    }

    /// The nim value of the cells of a board (any number of components).
    ///
    /// # Errors
    /// As [`NimSearch::nim_value`].
    pub fn board_value(&self, board: &Cells, budget: &Budget) -> Result<u64> {
        self.on_board(board, budget, None).map(|(v, _)| v)
    }

    /// The value of a board when `target` is `None`, else whether it is `target`.
    fn on_board(&self, board: &Cells, budget: &Budget, target: Option<u64>) -> Result<(u64, bool)> {
        let (rows, cols) = (board.rows(), board.cols());
        if rows * cols <= 64 {
            let search = self.narrow()?;
            let mut parts = Vec::new();
            search
                .game()
                .split(board.bits() as u64, rows, cols, &mut |p| parts.push(p));
            answer(search, &parts, budget, target)
        } else {
            let search = self.search(&self.wide)?;
            let mut parts = Vec::new();
            search
                .game()
                .split(board.bits(), rows, cols, &mut |p| parts.push(p));
            answer(search, &parts, budget, target)
        }
    }
}

/// The value of `parts`, or whether it is `target`.
fn answer<W: Word>(
    search: &NimSearch<CramParts<W>>,
    parts: &[Region<W>],
    budget: &Budget,
    target: Option<u64>,
) -> Result<(u64, bool)> {
    match target {
        None => Ok((search.nim_value(parts, budget)?, false)),
        Some(t) => Ok((0, search.has_value(parts, t, budget)?)),
    }
}

impl ComponentValues<Cells> for CramValues {
    fn value(&self, component: &Cells, budget: &Budget) -> Result<u64> {
        self.board_value(component, budget)
    }

    fn has_value(&self, position: &Cells, target: u64, budget: &Budget) -> Result<bool> {
        self.on_board(position, budget, Some(target))
            .map(|(_, hit)| hit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;
    use crate::heap::{Code, HeapGame};
    use crate::solve::nimsearch::TopProgress;
    use crate::solve::NimValues;
    use std::sync::Arc;

    fn value(solver: &mut NimValues<Cram>, board: &str) -> u64 {
        solver.nim_value(&Cram::parse(board).unwrap()).unwrap()
    }

    /// Cram without components or keys: the whole board searched as it is.
    #[derive(Clone)]
    struct Plain;
    impl Game for Plain {
        type Position = Cells;
    }
    impl Impartial for Plain {
        fn options(&self, position: &Cells) -> Vec<Cells> {
            Cram.options(position)
        }
    }

    #[test]
    fn small_boards() {
        let mut solver = NimValues::new(Cram);
        // A lone cell or a 2x2 block: no move, or a move to a lone domino's room (*1).
        assert_eq!(value(&mut solver, "."), 0);
        assert_eq!(value(&mut solver, ".."), 1);
        assert_eq!(value(&mut solver, "..."), 1);
        // Even by even boards are 0: the second player answers with the point reflection
        // (Winning Ways ch. 22, "Cram"; Gardner's symmetry strategy).
        for (r, c) in [(2, 2), (2, 4), (4, 4), (2, 6), (4, 2)] {
            let board = Cram::rectangle(r, c).unwrap();
            assert_eq!(solver.nim_value(&board).unwrap(), 0, "{r}x{c}");
        }
        // Odd by even boards are N positions (the first player takes the centre pair and
        // mirrors); 3x2 has value 1 by hand: every move leaves a 1x2 room plus a 2x2 block
        // or an L of four cells... checked against plain search below.
        assert_ne!(value(&mut solver, "..|..|.."), 0);
    }

    #[test]
    fn moves_are_written_by_their_cells() {
        let from = Cram::parse("..|.#").unwrap();
        let texts: Vec<String> = Cram
            .options(&from)
            .iter()
            .map(|to| format!("{} {}", Cram.write_move(&from, to), to))
            .collect();
        assert_eq!(texts, ["(1,1)-(1,2) ##|.#", "(1,1)-(2,1) #.|##"]);
    }

    #[test]
    fn strips_are_dawsons_kayles() {
        // A 1×n strip is octal 0.07 (Dawson's Kayles): a domino takes two adjacent cells,
        // anywhere in the row (Winning Ways ch. 4). The board encoding holds 128 cells.
        let dawson = HeapGame::new("dawson", Arc::new(Code::parse("0.07").unwrap()));
        let mut heap = NimValues::new(dawson);
        let mut solver = NimValues::new(Cram);
        for n in 1..=128 {
            let strip = Cram::rectangle(1, n).unwrap();
            assert_eq!(
                solver.nim_value(&strip).unwrap(),
                heap.nim_value(&vec![n as u64]).unwrap(),
                "1x{n}"
            );
        }
    }

    #[test]
    fn igsolve_published_values() {
        // The README of github.com/beling/impartial-games (igs and igsolve, by P. Beling),
        // "The results obtained so far", Cram table: every board of at most 30 cells.
        let mut solver = NimValues::new(Cram);
        for (r, c, v) in IGSOLVE {
            let board = Cram::rectangle(r, c).unwrap();
            assert_eq!(solver.nim_value(&board).unwrap(), v, "{r}x{c}");
        }
    }

    /// (rows, columns, nim value) from that table.
    const IGSOLVE: [(usize, usize, u64); 6] = [
        (4, 4, 0),
        (4, 5, 2),
        (4, 6, 0),
        (4, 7, 3),
        (5, 5, 0),
        (5, 6, 2),
    ];

    /// The kernel's value of a board, through the narrow or the wide word.
    fn searched(values: &CramValues, board: &Cells) -> u64 {
        values.board_value(board, &Budget::unlimited()).unwrap()
    }

    /// Refutations that listing the options found (no search below) are cheap entries: they
    /// do not count as the main table's entries, nor make it grow.
    #[test]
    fn cheap_refutations_do_not_fill_the_table() {
        let values = CramValues::new(Settings {
            threads: 1,
            ..Settings::default()
        });
        assert_eq!(searched(&values, &Cram::rectangle(5, 5).unwrap()), 0);
        // 265 full entries; 784 when the cheap ones counted too.
        let (full, _) = values.narrow().unwrap().stats().fill;
        assert!((150..=500).contains(&full), "{full}");
    }

    /// The top search's progress: at the answer k every open option is asked and none has
    /// value k, so all are answered; before any search nothing is.
    #[test]
    fn the_top_search_reports_its_options_answered() {
        for threads in [1, 2] {
            for &(rows, cols, value) in &IGSOLVE[1..] {
                if rows % 2 == 0 && cols % 2 == 0 {
                    continue; // known by the symmetry strategy: no search at the top
                }
                let values = CramValues::new(Settings {
                    threads,
                    ..Settings::default()
                });
                assert_eq!(values.narrow().unwrap().stats().top, TopProgress::default());
                let board = Cram::rectangle(rows, cols).unwrap();
                assert_eq!(searched(&values, &board), value, "{rows}x{cols}");
                let top = values.narrow().unwrap().stats().top;
                assert_eq!(u64::from(top.k), value, "{rows}x{cols} {top:?}");
                assert_eq!(top.answered, top.open, "{rows}x{cols} {top:?}");
                // Dominoes on an r×c board: r·(c−1) + (r−1)·c placements, fewer up to symmetry.
                let placements = (rows * (cols - 1) + (rows - 1) * cols) as u32;
                assert!(
                    (1..=placements).contains(&top.open),
                    "{rows}x{cols} {top:?}"
                );
            }
        }
    }

    /// Boards of 20 cells or more go to the top search that two threads share (each helping
    /// with the other's option once none is left to start, and stopping when the other
    /// answers it): the same values as one thread.
    #[test]
    fn two_threads_agree_with_one() {
        for board in [
            ".....|.....|.....|.....",
            "....#|.....|.....|.....|.....",
            ".......|.......|.......",
        ] {
            let board = Cram::parse(board).unwrap();
            let one = CramValues::new(Settings {
                threads: 1,
                ..Settings::default()
            });
            let two = CramValues::new(Settings {
                threads: 2,
                table_bytes: 0,
                ..Settings::default()
            });
            assert_eq!(searched(&two, &board), searched(&one, &board), "{board}");
        }
    }

    /// A budget stopped during the two-thread top search ends it with `Stopped` on every
    /// thread (the first error cancels the other, and no thread waits on a stopped one).
    #[test]
    fn a_stopped_budget_ends_the_two_thread_search() {
        let values = CramValues::new(Settings {
            threads: 2,
            ..Settings::default()
        });
        let board = Cram::rectangle(5, 6).unwrap();
        let budget = Budget::stoppable();
        budget.stop();
        let e = values.board_value(&board, &budget);
        assert!(matches!(e, Err(crate::Error::Stopped(_))), "{e:?}");
        // The same tables still answer afterwards.
        // 5×6 = 2 (igsolve's published table).
        assert_eq!(searched(&values, &board), 2);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]
        /// As above, on random boards of 20 to 30 cells with two cells blocked (slow: run
        /// with `--ignored` in release mode).
        #[test]
        #[ignore]
        fn two_threads_agree_with_one_on_random_boards(
            rows in 4usize..=5, cols in 5usize..=6, blocked: u32,
        ) {
            let (a, b) = (blocked % 30, (blocked / 30) % 60);
            let board = Cram::rectangle(rows, cols).unwrap().with_bits(!(1u128 << a | 1u128 << b));
            let one = CramValues::new(Settings { threads: 1, ..Settings::default() });
            let two = CramValues::new(Settings { threads: 2, table_bytes: 0, ..Settings::default() });
            proptest::prop_assert_eq!(searched(&two, &board), searched(&one, &board));
        }
    }

    #[test]
    fn the_search_agrees_with_published_values() {
        let values = CramValues::new(Settings::default());
        for (r, c, v) in IGSOLVE {
            assert_eq!(
                searched(&values, &Cram::rectangle(r, c).unwrap()),
                v,
                "{r}x{c}"
            );
        }
        // A board of more than 64 cells goes through the 128-bit kernel.
        let wide = Cram::rectangle(1, 100).unwrap();
        let mut heap = NimValues::new(HeapGame::new(
            "dawson",
            Arc::new(Code::parse("0.07").unwrap()),
        ));
        assert_eq!(
            searched(&values, &wide),
            heap.nim_value(&vec![100]).unwrap()
        );
    }

    /// The nim value of the cells `bits` of a `rows × cols` frame, searched with `kernel`.
    fn kernel_value<W: Word>(kernel: CramParts<W>, bits: W, rows: usize, cols: usize) -> u64 {
        let search = NimSearch::new(kernel, Settings::default()).unwrap();
        let mut parts = Vec::new();
        search
            .game()
            .split(bits, rows, cols, &mut |p| parts.push(p));
        search.nim_value(&parts, &Budget::unlimited()).unwrap()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn the_search_agrees_with_plain_search(
            rows in 1usize..=4, cols in 1usize..=4, blocked: u16, threads in 1usize..=2,
        ) {
            let board = Cram::rectangle(rows, cols).unwrap().with_bits(!u128::from(blocked));
            let mut plain = NimValues::new(Plain);
            let values = CramValues::new(Settings { threads, ..Settings::default() });
            proptest::prop_assert_eq!(searched(&values, &board), plain.nim_value(&board).unwrap());
            // The wide kernel agrees too, on the same cells in a frame of 30 columns.
            let wide = (0..rows).fold(0u128, |b, r| {
                b | ((board.bits() >> (r * cols)) & ((1 << cols) - 1)) << (r * 30)
            });
            let expected = plain.nim_value(&board).unwrap();
            proptest::prop_assert_eq!(kernel_value(CramParts::<u128>::new(), wide, rows, 30), expected);
            // And the narrow kernel on the baseline instructions (the CPU's bit
            // instructions are the default where it has them).
            let narrow = CramParts::<u64>::without_bit_ops();
            proptest::prop_assert_eq!(kernel_value(narrow, board.bits() as u64, rows, cols), expected);
        }

        #[test]
        fn a_small_table_with_refutations_agrees_with_plain_search(
            rows in 1usize..=4, cols in 1usize..=5, blocked: u32, threads in 1usize..=2,
        ) {
            // The least table (it replaces entries, values and refuted values alike) and
            // the same search asked again: every refuted value read back is right.
            let board = Cram::rectangle(rows, cols).unwrap().with_bits(!u128::from(blocked & 0xa5a5a));
            proptest::prop_assume!(board.len() <= 16);
            let mut plain = NimValues::new(Plain);
            let expected = plain.nim_value(&board).unwrap();
            let values = CramValues::new(Settings { threads, table_bytes: 0, ..Settings::default() });
            for _ in 0..2 {
                proptest::prop_assert_eq!(searched(&values, &board), expected);
            }
        }

        #[test]
        fn reductions_and_keys_keep_values(
            rows in 1usize..=6, cols in 1usize..=6, blocked: u64, sparse: u64,
        ) {
            // Boards of up to 36 cells with many blocked cells: plain search of the raw
            // regions (no reduction, no symmetry) against the kernel's parts.
            let board = Cram::rectangle(rows, cols).unwrap().with_bits(!u128::from(blocked & sparse));
            proptest::prop_assume!(board.len() <= 16);
            let mut plain = NimValues::new(Plain);
            let values = CramValues::new(Settings::default());
            proptest::prop_assert_eq!(searched(&values, &board), plain.nim_value(&board).unwrap());
        }
    }

    /// The least image of `part` (on a `rows × cols` board) under the eight symmetries of its
    /// bounding box, with no more rows than columns, cell by cell: `(bits, rows, cols)`.
    fn plain_canonical(part: u128, rows: u32, cols: u32) -> (u128, u32, u32) {
        let cells: Vec<(u32, u32)> = (0..rows * cols)
            .filter(|i| part >> i & 1 == 1)
            .map(|i| (i / cols, i % cols))
            .collect();
        let top = cells.iter().map(|c| c.0).min().unwrap();
        let left = cells.iter().map(|c| c.1).min().unwrap();
        let h = cells.iter().map(|c| c.0).max().unwrap() - top + 1;
        let w = cells.iter().map(|c| c.1).max().unwrap() - left + 1;
        let image = |image: u32| {
            let (ih, iw) = if image < 4 { (h, w) } else { (w, h) };
            let mut bits = 0u128;
            for &(r, c) in &cells {
                let (mut r, mut c) = (r - top, c - left);
                if image >= 4 {
                    (r, c) = (c, r);
                }
                if image & 1 == 1 {
                    r = ih - 1 - r;
                }
                if image & 2 == 2 {
                    c = iw - 1 - c;
                }
                bits |= 1 << (r * iw + c);
            }
            (bits, ih, iw)
        };
        (0..8)
            .map(image)
            .filter(|&(_, ih, iw)| ih <= iw)
            .min()
            .unwrap()
    }

    /// The kernel's canonical region of a part, and its tall boxes transposed by multiplies.
    fn canonical_agrees<W: Word>(part: u128, rows: u32, cols: u32) {
        let kernel = CramParts::<W>::new();
        let frame = kernel.frame(rows, cols);
        let region = kernel.canonical(&frame, rows, W::from_u128(part));
        let got = (
            region.bits.to_u128().unwrap(),
            u32::from(region.rows),
            u32::from(region.cols),
        );
        assert_eq!(
            got,
            plain_canonical(part, rows, cols),
            "{part:#x} on {rows}×{cols}"
        );
    }

    proptest::proptest! {
        #[test]
        fn canonical_regions_are_the_least_images(
            rows in 1u32..=12, cols in 1u32..=12, bits: u128, sparse: u128,
        ) {
            proptest::prop_assume!(rows * cols <= 128);
            let part = bits & sparse & (u128::MAX >> (128 - rows * cols));
            proptest::prop_assume!(part != 0);
            if rows * cols <= 64 {
                canonical_agrees::<u64>(part, rows, cols);
            }
            canonical_agrees::<u128>(part, rows, cols);
        }

        #[test]
        fn tall_boxes_transpose_by_multiplies(h in 2u32..=64, width: u32, x: u128) {
            let w = 1 + width % (h - 1).min(128 / h);
            let kernel = CramParts::<u128>::new();
            let x = x & (u128::MAX >> (128 - h * w));
            proptest::prop_assert_eq!(kernel.transpose_tall(x, h, w), transpose(x, h, w));
            if h * w <= 64 {
                let narrow = CramParts::<u64>::new();
                proptest::prop_assert_eq!(
                    u128::from(narrow.transpose_tall(x as u64, h, w)),
                    transpose(x, h, w)
                );
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn regions_and_keys_agree_with_plain_search(
            rows in 1usize..=4, cols in 1usize..=4, blocked: u16,
        ) {
            let board = Cram::rectangle(rows, cols).unwrap().with_bits(!u128::from(blocked));
            let mut plain = NimValues::new(Plain);
            let mut solver = NimValues::new(Cram);
            proptest::prop_assert_eq!(solver.nim_value(&board).unwrap(), plain.nim_value(&board).unwrap());
            // The parsed text of the board is the same board.
            proptest::prop_assert_eq!(Cram.parse_position(&[&board.to_string()]).unwrap(), board);
        }
    }
}
