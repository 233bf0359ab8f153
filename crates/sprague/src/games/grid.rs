//! Rectangular boards for grid games (Domineering, Clobber, Konane, Amazons, Cram).
//!
//! A board is written as rows joined by `|` (CGSuite's grids; `/` is accepted too), `.` for
//! an empty cell, `#` for a blocked one, plus each game's own piece letters: `..#.|....` is a
//! board of 2 rows and 4 columns. [`Grid`] is the checked text form; [`Cells`] is a set of
//! cells of a board of at most [`MAX_CELLS`] cells as a bitboard (row-major bit `r·cols + c`),
//! with the operations that region solvers need: 4-connected components, cropping to the
//! bounding box, the eight symmetries of a rectangle and a compact canonical key.

use std::fmt;

/// The most cells a board may have.
pub const MAX_CELLS: usize = 128;

/// `text` with control characters (newlines, tabs...) escaped, so that an error message that
/// quotes it stays on one line.
pub(crate) fn printable(text: impl fmt::Display) -> String {
    let mut out = String::new();
    for c in text.to_string().chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// A board that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GridError {
    /// No rows, or an empty row.
    #[error("empty board")]
    Empty,
    /// A row of another length than the first.
    #[error("row {row} has {len} cells, but row 1 has {expected} (boards are rectangular)")]
    Ragged {
        /// The 1-based row.
        row: usize,
        /// Its length.
        len: usize,
        /// The first row's length.
        expected: usize,
    },
    /// A character that is not a cell of this game.
    #[error(
        "unexpected '{}' at row {row}, column {column} (expected one of {expected})",
        printable(.found)
    )]
    Stray {
        /// The character.
        found: char,
        /// The 1-based row.
        row: usize,
        /// The 1-based column.
        column: usize,
        /// The allowed characters.
        expected: String,
    },
    /// More than [`MAX_CELLS`] cells.
    #[error("the board has {cells} cells; at most {MAX_CELLS} are supported")]
    TooLarge {
        /// The board's cell count.
        cells: usize,
    },
    /// A board size `RxC` that does not parse.
    #[error("invalid board size '{}' (expected RxC, such as 4x5)", printable(.0))]
    Size(String),
}

/// The board a position's words write: rows as one word joined by `|` (or `/`), or one word a
/// row.
///
/// # Errors
/// A sentence when there are no words.
pub(crate) fn board_text(words: &[&str], example: &str) -> Result<String, String> {
    if words.is_empty() {
        return Err(format!("give a board, such as '{example}'"));
    }
    Ok(words.join("|"))
}

/// The `n` low bits set (all 128 for `n = 128`).
fn low_bits(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1 << n) - 1
    }
}

/// `x << n`, 0 when the shift is the whole width (a one-row board of 128 cells).
fn shl(x: u128, n: usize) -> u128 {
    x.checked_shl(n as u32).unwrap_or(0)
}

/// `x >> n`, 0 when the shift is the whole width.
fn shr(x: u128, n: usize) -> u128 {
    x.checked_shr(n as u32).unwrap_or(0)
}

/// A rectangular board of characters, checked: every row has the same length, every cell is
/// `.`, `#` or one of the game's piece letters, and there are at most [`MAX_CELLS`] cells.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    rows: usize,
    cols: usize,
    cells: Vec<u8>,
}

impl Grid {
    /// Parses rows joined by `|` or `/`, allowing `.`, `#` and the bytes of `pieces`.
    ///
    /// # Errors
    /// A [`GridError`] naming the problem.
    pub fn parse(text: &str, pieces: &str) -> Result<Grid, GridError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(GridError::Empty);
        }
        let allowed: Vec<char> = ['.', '#'].into_iter().chain(pieces.chars()).collect();
        let mut cells = Vec::new();
        let mut cols = 0;
        let mut rows = 0;
        for (r, row) in text.split(['|', '/']).enumerate() {
            let row = row.trim();
            let mut len = 0;
            for (c, ch) in row.chars().enumerate() {
                if !allowed.contains(&ch) {
                    return Err(GridError::Stray {
                        found: ch,
                        row: r + 1,
                        column: c + 1,
                        expected: allowed
                            .iter()
                            .map(|c| format!("'{c}'"))
                            .collect::<Vec<_>>()
                            .join(", "),
                    });
                }
                cells.push(ch as u8);
                len += 1;
            }
            if len == 0 {
                return Err(GridError::Empty);
            }
            if r == 0 {
                cols = len;
            } else if len != cols {
                return Err(GridError::Ragged {
                    row: r + 1,
                    len,
                    expected: cols,
                });
            }
            rows += 1;
            if cells.len() > MAX_CELLS {
                return Err(GridError::TooLarge {
                    cells: cols * text.split(['|', '/']).count(),
                });
            }
        }
        Ok(Grid { rows, cols, cells })
    }

    /// An empty board of `rows × cols`.
    ///
    /// # Errors
    /// [`GridError::Empty`] or [`GridError::TooLarge`].
    pub fn empty(rows: usize, cols: usize) -> Result<Grid, GridError> {
        if rows == 0 || cols == 0 {
            return Err(GridError::Empty);
        }
        if rows.saturating_mul(cols) > MAX_CELLS {
            return Err(GridError::TooLarge {
                cells: rows.saturating_mul(cols),
            });
        }
        Ok(Grid {
            rows,
            cols,
            cells: vec![b'.'; rows * cols],
        })
    }

    /// Parses a size `RxC` (rows by columns).
    ///
    /// # Errors
    /// [`GridError::Size`] when it does not parse, else as [`Grid::empty`].
    pub fn parse_size(text: &str) -> Result<(usize, usize), GridError> {
        let bad = || GridError::Size(text.to_string());
        let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
        let rows: usize = r.trim().parse().map_err(|_| bad())?;
        let cols: usize = c.trim().parse().map_err(|_| bad())?;
        Grid::empty(rows, cols)?;
        Ok((rows, cols))
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The character at row `r`, column `c` (0-based).
    pub fn get(&self, r: usize, c: usize) -> u8 {
        self.cells[r * self.cols + c]
    }

    /// The cells holding `ch`.
    pub fn cells_of(&self, ch: u8) -> Cells {
        let mut cells = Cells::new(self.rows, self.cols);
        for (i, &x) in self.cells.iter().enumerate() {
            if x == ch {
                cells.bits |= 1 << i;
            }
        }
        cells
    }
}

/// A set of cells of a `rows × cols` board (at most [`MAX_CELLS`] cells).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Cells {
    rows: u8,
    cols: u8,
    bits: u128,
}

/// One of the eight symmetries of a rectangle; those that swap the axes map an `R × C` board
/// to a `C × R` one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Symmetry {
    /// Transpose first (`(r, c) → (c, r)`).
    pub transpose: bool,
    /// Then reverse the rows.
    pub flip_rows: bool,
    /// Then reverse the columns.
    pub flip_cols: bool,
}

impl Symmetry {
    /// All eight symmetries, the identity first; the first four keep the axes.
    pub const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry {
            transpose: false,
            flip_rows: false,
            flip_cols: false,
        }; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = Symmetry {
                transpose: i >= 4,
                flip_rows: i & 1 != 0,
                flip_cols: i & 2 != 0,
            };
            i += 1;
        }
        all
    };
}

impl Cells {
    /// The empty set on a `rows × cols` board.
    ///
    /// # Panics
    /// If the board has more than [`MAX_CELLS`] cells.
    pub fn new(rows: usize, cols: usize) -> Cells {
        assert!(rows * cols <= MAX_CELLS && rows < 256 && cols < 256);
        Cells {
            rows: rows as u8,
            cols: cols as u8,
            bits: 0,
        }
    }

    /// Every cell of a `rows × cols` board.
    pub fn full(rows: usize, cols: usize) -> Cells {
        let mut cells = Cells::new(rows, cols);
        let n = rows * cols;
        cells.bits = if n == 128 { u128::MAX } else { (1 << n) - 1 };
        cells
    }

    /// The number of rows of the board.
    pub const fn rows(self) -> usize {
        self.rows as usize
    }

    /// The number of columns of the board.
    pub const fn cols(self) -> usize {
        self.cols as usize
    }

    /// The bits, row-major.
    pub const fn bits(self) -> u128 {
        self.bits
    }

    /// The same board with these bits (masked to the board).
    pub fn with_bits(self, bits: u128) -> Cells {
        Cells {
            bits: bits & Cells::full(self.rows(), self.cols()).bits,
            ..self
        }
    }

    /// How many cells are in the set.
    pub const fn len(self) -> usize {
        self.bits.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// The bit of cell `(r, c)`.
    pub fn bit(self, r: usize, c: usize) -> u128 {
        1 << (r * self.cols() + c)
    }

    /// Whether `(r, c)` is in the set.
    pub fn contains(self, r: usize, c: usize) -> bool {
        self.bits & self.bit(r, c) != 0
    }

    /// The cells `(r, c)` of the set, row by row.
    pub fn iter(self) -> impl Iterator<Item = (usize, usize)> {
        let cols = self.cols();
        let mut bits = self.bits;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some((i / cols, i % cols))
        })
    }

    /// The mask of column 0 of the board.
    pub fn first_column(self) -> u128 {
        let mut mask = 0;
        for r in 0..self.rows() {
            mask |= 1 << (r * self.cols());
        }
        mask
    }

    /// The cells of the set whose right neighbour is also in `other`... as a mask: bit `i` set
    /// when cell `i` and cell `i + 1` (same row) are both in the set.
    pub fn horizontal_pairs(self) -> u128 {
        let last_column = self.first_column() << (self.cols() - 1);
        self.bits & (self.bits >> 1) & !last_column
    }

    /// Bit `i` set when cell `i` and the cell below it are both in the set.
    pub fn vertical_pairs(self) -> u128 {
        self.bits & shr(self.bits, self.cols())
    }

    /// The cells of `within` that are 4-adjacent to a cell of `mask` (or in it).
    fn grow(self, mask: u128, within: u128) -> u128 {
        let cols = self.cols();
        let first = self.first_column();
        let last = first << (cols - 1);
        let grown = mask
            | ((mask << 1) & !first)
            | ((mask >> 1) & !last)
            | shl(mask, cols)
            | shr(mask, cols);
        grown & within
    }

    /// The cells of `within` that are 8-adjacent (king moves) to a cell of `mask`, or in it.
    fn grow_diagonal(self, mask: u128, within: u128) -> u128 {
        let cols = self.cols();
        let first = self.first_column();
        let last = first << (cols - 1);
        let sideways = mask | ((mask << 1) & !first) | ((mask >> 1) & !last);
        (sideways | shl(sideways, cols) | shr(sideways, cols)) & within
    }

    /// The 8-connected components of the set (cells touching at a corner are connected).
    pub fn components_diagonal(self) -> Vec<Cells> {
        self.split(Cells::grow_diagonal)
    }

    /// The 4-connected components of the set, each on the same board.
    pub fn components(self) -> Vec<Cells> {
        self.split(Cells::grow)
    }

    fn split(self, grow: fn(Cells, u128, u128) -> u128) -> Vec<Cells> {
        let mut rest = self.bits;
        let mut parts = Vec::new();
        while rest != 0 {
            let mut part = rest & rest.wrapping_neg();
            loop {
                let next = grow(self, part, rest);
                if next == part {
                    break;
                }
                part = next;
            }
            rest &= !part;
            parts.push(self.with_bits(part));
        }
        parts
    }

    /// The cells of the set with at least one 4-neighbour in the set.
    pub fn with_neighbours(self) -> Cells {
        let cols = self.cols();
        let first = self.first_column();
        let last = first << (cols - 1);
        let b = self.bits;
        let neighbour = ((b << 1) & !first) | ((b >> 1) & !last) | shl(b, cols) | shr(b, cols);
        self.with_bits(b & neighbour)
    }

    /// The smallest rectangle holding the set, as `(top, left, rows, cols)`; all zero for
    /// the empty set.
    pub fn bounding_box(self) -> (usize, usize, usize, usize) {
        if self.bits == 0 {
            return (0, 0, 0, 0);
        }
        // Row by row: the occupied rows give top and bottom, their union the columns.
        let cols = self.cols();
        let row_mask = low_bits(cols);
        let (mut top, mut bottom, mut columns) = (usize::MAX, 0, 0u128);
        for r in 0..self.rows() {
            let row = (self.bits >> (r * cols)) & row_mask;
            if row != 0 {
                top = top.min(r);
                bottom = r;
                columns |= row;
            }
        }
        let left = columns.trailing_zeros() as usize;
        let right = 127 - columns.leading_zeros() as usize;
        (top, left, bottom - top + 1, right - left + 1)
    }

    /// The set on the board of the rectangle `(top, left, rows, cols)` of this one.
    pub fn window(self, top: usize, left: usize, rows: usize, cols: usize) -> Cells {
        let mut result = Cells::new(rows, cols);
        for r in 0..rows {
            let row = (self.bits >> ((top + r) * self.cols() + left)) & (low_bits(cols));
            result.bits |= row << (r * cols);
        }
        result
    }

    /// The set on its bounding box (the empty set on a 0 × 0 board... kept as 1 × 1).
    pub fn cropped(self) -> Cells {
        if self.bits == 0 {
            return Cells::new(1, 1);
        }
        let (top, left, rows, cols) = self.bounding_box();
        self.window(top, left, rows, cols)
    }

    /// The image of the set under `s`.
    pub fn transformed(self, s: Symmetry) -> Cells {
        let (rows, cols) = if s.transpose {
            (self.cols(), self.rows())
        } else {
            (self.rows(), self.cols())
        };
        let mut result = Cells::new(rows, cols);
        for (r, c) in self.iter() {
            let (mut r, mut c) = if s.transpose { (c, r) } else { (r, c) };
            if s.flip_rows {
                r = rows - 1 - r;
            }
            if s.flip_cols {
                c = cols - 1 - c;
            }
            result.bits |= 1 << (r * cols + c);
        }
        result
    }

    /// The set packed 8 cells a row (bit `8r + c`), for boards of at most 8 rows and columns.
    fn packed(self) -> u64 {
        let cols = self.cols();
        let row_mask = low_bits(cols);
        let mut packed = 0u64;
        for r in 0..self.rows() {
            packed |= (((self.bits >> (r * cols)) & row_mask) as u64) << (8 * r);
        }
        packed
    }

    fn unpacked(rows: usize, cols: usize, packed: u64) -> Cells {
        let mut cells = Cells::new(rows, cols);
        let row_mask = (1u64 << cols) - 1;
        for r in 0..rows {
            cells.bits |= u128::from((packed >> (8 * r)) & row_mask) << (r * cols);
        }
        cells
    }

    /// The images of the set under all eight [`Symmetry::ALL`], in that order.
    pub fn images(self) -> [Cells; 8] {
        let (rows, cols) = (self.rows(), self.cols());
        if rows > 8 || cols > 8 {
            return Symmetry::ALL.map(|s| self.transformed(s));
        }
        // Bit tricks on an 8x8 matrix: byte swap reverses rows, a bit reversal inside each
        // byte reverses columns, and three delta swaps transpose.
        fn flip_rows(x: u64, rows: usize) -> u64 {
            x.swap_bytes() >> (8 * (8 - rows))
        }
        fn flip_cols(x: u64, cols: usize) -> u64 {
            let reversed = x.reverse_bits().swap_bytes();
            let keep = 0x0101_0101_0101_0101u64 * ((1u64 << cols) - 1);
            (reversed >> (8 - cols)) & keep
        }
        fn transpose(mut x: u64) -> u64 {
            let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
            x ^= t ^ (t << 7);
            let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
            x ^= t ^ (t << 14);
            let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
            x ^ t ^ (t << 28)
        }
        let x = self.packed();
        let t = transpose(x);
        let image = |s: Symmetry| {
            let (mut y, r, c) = if s.transpose {
                (t, cols, rows)
            } else {
                (x, rows, cols)
            };
            if s.flip_rows {
                y = flip_rows(y, r);
            }
            if s.flip_cols {
                y = flip_cols(y, c);
            }
            Cells::unpacked(r, c, y)
        };
        Symmetry::ALL.map(image)
    }

    /// The board as text: rows joined by `|`, `mark` for cells in the set, `other` elsewhere.
    pub fn to_text(self, mark: char, other: char) -> String {
        let mut s = String::new();
        for r in 0..self.rows() {
            if r > 0 {
                s.push('|');
            }
            for c in 0..self.cols() {
                s.push(if self.contains(r, c) { mark } else { other });
            }
        }
        s
    }
}

impl fmt::Display for Cells {
    /// `.` for the cells of the set, `#` for the others.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text('.', '#'))
    }
}

/// The least image of `layers` (several sets on one board, such as each player's stones)
/// under the symmetries `allowed`, compared as `(rows, cols, bits...)`, with the symmetry that
/// gives it.
pub fn canonical_key<const N: usize>(
    layers: [Cells; N],
    allowed: &[Symmetry],
) -> ([Cells; N], Symmetry) {
    let mut best: Option<([Cells; N], Symmetry)> = None;
    let images = layers.map(Cells::images);
    for &s in allowed {
        let index = Symmetry::ALL
            .iter()
            .position(|&t| t == s)
            .expect("a symmetry of the rectangle");
        let image: [Cells; N] = std::array::from_fn(|k| images[k][index]);
        let better = match &best {
            None => true,
            Some((b, _)) => image < *b,
        };
        if better {
            best = Some((image, s));
        }
    }
    best.expect("at least one symmetry")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        let g = Grid::parse("..#.|..../....", "").unwrap();
        assert_eq!((g.rows(), g.cols()), (3, 4));
        assert_eq!(g.cells_of(b'.').to_string(), "..#.|....|....");
        assert_eq!(
            Grid::parse("...|..", "").unwrap_err().to_string(),
            "row 2 has 2 cells, but row 1 has 3 (boards are rectangular)"
        );
        assert!(matches!(
            Grid::parse("..x", "").unwrap_err(),
            GridError::Stray {
                found: 'x',
                row: 1,
                column: 3,
                ..
            }
        ));
        assert_eq!(Grid::parse("x.o", "xo").unwrap().get(0, 2), b'o');
        assert_eq!(Grid::parse("", "").unwrap_err(), GridError::Empty);
        assert_eq!(Grid::parse("..||..", "").unwrap_err(), GridError::Empty);
        assert!(matches!(
            Grid::parse_size("12x11"),
            Err(GridError::TooLarge { cells: 132 })
        ));
        assert_eq!(Grid::parse_size("4x5"), Ok((4, 5)));
        assert!(matches!(Grid::parse_size("4by5"), Err(GridError::Size(_))));
    }

    #[test]
    fn components_crop_and_symmetries() {
        let cells = Grid::parse("..#.|.##.|#...", "").unwrap().cells_of(b'.');
        let parts: Vec<String> = cells
            .components()
            .iter()
            .map(|p| p.cropped().to_string())
            .collect();
        assert_eq!(parts, ["..|.#", "##.|##.|..."]);
        let l = Grid::parse("..|.#", "").unwrap().cells_of(b'.');
        let images: std::collections::HashSet<String> = Symmetry::ALL
            .iter()
            .map(|&s| l.transformed(s).to_string())
            .collect();
        assert_eq!(images.len(), 4);
        let strip = Cells::full(1, 3);
        assert_eq!(strip.transformed(Symmetry::ALL[4]).to_string(), ".|.|.");
        assert_eq!(
            Cells::full(2, 2).with_bits(0b1001).with_neighbours().len(),
            0
        );
    }

    proptest::proptest! {
        #[test]
        fn bit_trick_images_agree_with_the_definition(
            rows in 1usize..=9, cols in 1usize..=9, bits: u128,
        ) {
            let cells = Cells::full(rows, cols).with_bits(bits);
            let fast = cells.images();
            for (k, &s) in Symmetry::ALL.iter().enumerate() {
                proptest::prop_assert_eq!(fast[k], cells.transformed(s));
            }
        }

        #[test]
        fn bounding_box_agrees_with_the_definition(
            rows in 1usize..=11, cols in 1usize..=11, bits: u128, sparse: u128,
        ) {
            let cells = Cells::full(rows, cols).with_bits(bits & sparse);
            let (mut top, mut left, mut bottom, mut right) = (usize::MAX, usize::MAX, 0, 0);
            for (r, c) in cells.iter() {
                (top, left) = (top.min(r), left.min(c));
                (bottom, right) = (bottom.max(r), right.max(c));
            }
            let expected = if cells.bits() == 0 {
                (0, 0, 0, 0)
            } else {
                (top, left, bottom - top + 1, right - left + 1)
            };
            proptest::prop_assert_eq!(cells.bounding_box(), expected);
        }
    }
}
