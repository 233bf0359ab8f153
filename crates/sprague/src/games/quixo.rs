//! Quixo on an N×N board (`quixo:N`, N = 3, 4 or 5), and the square-board machinery that
//! [`crate::games::teeko`] shares: the eight symmetries on bitboards, ranking by piece counts,
//! and the glue to the database and the commands.
//!
//! # Rules (the official ones)
//! A move takes a cube from the border that is blank or shows the mover's symbol (never the
//! opponent's) and pushes it back in at an end of its row or column, other than the spot it came
//! from; the cubes between shift by one, and the moved cube now shows the mover's symbol. N in a
//! row (row, column or main diagonal) wins. A move that completes a line of the opponent's symbol
//! loses, even if it also completes one of the mover's. Positions can repeat: play that never
//! ends is a draw.
//!
//! # Representation
//! A position is two bitboards packed in a `u64`: the cubes of the player to move in the low 32
//! bits, the opponent's in the high 32 (cell = row × N + column, row 0 on top). Colours are
//! relative to the mover, so a board with x to move and the same board with the colours swapped
//! and o to move are one position (the 3^(N²) boards are the whole index space).
//!
//! Tiers are unordered pairs {a, b} of cube counts: a move keeps the pair (the mover took one of
//! their own cubes: the counts swap sides) or adds a cube (the mover took a blank). Each tier
//! ranks a position by the side holding `a` cubes, the colex rank of the occupied cells, and the
//! colex rank of the mover's cubes among them. Un-moves slide a line back, so the solver stores no
//! reverse graph; only positions canonical under the eight board symmetries are solved.

use crate::error::Result;
use crate::game::notation::parse_u64;
use crate::game::notation::ParseError;
use crate::game::{Evaluated, Evaluation, Game, Notation, SolveReport, Terminal};
use crate::progress::Progress;
use crate::solve::store::Store;
use crate::solve::store::Strong;
use crate::solve::tiered::TieredGame;
use serde_json::json;
use std::sync::Arc;

/// The largest board side.
pub const MAX_SIDE: usize = 5;

const LOW: u64 = 0xFFFF_FFFF;

/// A mask repeated in both 32-bit halves of a packed position.
const fn lanes(mask: u64) -> u64 {
    mask | mask << 32
}

#[inline(always)]
fn shifted(x: u64, k: i32) -> u64 {
    if k >= 0 {
        x << k
    } else {
        x >> -k
    }
}

/// Swaps the two halves: the position as the other player sees it.
#[inline(always)]
pub(crate) const fn swap(p: u64) -> u64 {
    p.rotate_left(32)
}

/// The geometry of an N×N board (N ≤ 5): masks for the symmetries, binomials for ranking,
/// cell names, and drawing.
#[derive(Clone, Debug)]
pub struct Square {
    /// The side N.
    pub n: usize,
    /// N².
    pub cells: usize,
    /// `binomial[i][j]` = C(i, j).
    pub binomial: [[u64; 26]; 26],
    flip_rows: Vec<(u64, i32)>,
    flip_columns: Vec<(u64, i32)>,
    transpose: Vec<(u64, i32)>,
    small: Option<Arc<Small>>,
}

/// Lookup tables that make ranking O(1) on boards of at most 16 cells.
#[derive(Debug)]
struct Small {
    /// The colex rank of each 16-bit set among the sets of its size.
    colex: Vec<u16>,
    /// The 16-bit sets of each size, in colex order.
    by_count: Vec<Vec<u16>>,
    /// `compress[occupied byte << 8 | bits byte]`: the bits gathered to the occupied cells.
    compress: Vec<u8>,
    /// `deposit[occupied byte << 8 | compressed]`: the inverse spread.
    deposit: Vec<u8>,
}

impl Small {
    fn new() -> Small {
        let mut by_count = vec![Vec::new(); 17];
        let mut colex = vec![0u16; 1 << 16];
        // Colex order is numeric order within one size.
        for set in 0u32..1 << 16 {
            let list = &mut by_count[set.count_ones() as usize];
            colex[set as usize] = list.len() as u16;
            list.push(set as u16);
        }
        let mut compress = vec![0u8; 1 << 16];
        let mut deposit = vec![0u8; 1 << 16];
        for occupied in 0u32..256 {
            for bits in 0u32..256 {
                let (mut packed, mut spread, mut j) = (0u32, 0u32, 0);
                for p in 0..8 {
                    if occupied >> p & 1 == 1 {
                        packed |= (bits >> p & 1) << j;
                        spread |= (bits >> j & 1) << p;
                        j += 1;
                    }
                }
                compress[(occupied << 8 | bits) as usize] = packed as u8;
                deposit[(occupied << 8 | bits) as usize] = spread as u8;
            }
        }
        Small {
            colex,
            by_count,
            compress,
            deposit,
        }
    }
}

impl Square {
    /// The geometry of the N×N board.
    pub fn new(n: usize) -> Square {
        let mut binomial = [[0u64; 26]; 26];
        for i in 0..26 {
            binomial[i][0] = 1;
            for j in 1..=i {
                binomial[i][j] = binomial[i - 1][j - 1] + binomial[i - 1][j];
            }
        }
        let cell = |r: usize, c: usize| 1u64 << (r * n + c);
        let ni = n as i32;
        let flip_rows = (0..n)
            .map(|r| {
                let mask = (0..n).map(|c| cell(r, c)).sum::<u64>();
                (lanes(mask), ni * (ni - 1 - 2 * r as i32))
            })
            .collect();
        let flip_columns = (0..n)
            .map(|c| {
                let mask = (0..n).map(|r| cell(r, c)).sum::<u64>();
                (lanes(mask), ni - 1 - 2 * c as i32)
            })
            .collect();
        let transpose = (-(ni - 1)..ni)
            .map(|d| {
                let mut mask = 0;
                for r in 0..n {
                    for c in 0..n {
                        if c as i32 - r as i32 == d {
                            mask |= cell(r, c);
                        }
                    }
                }
                (lanes(mask), (ni - 1) * d)
            })
            .collect();
        Square {
            n,
            cells: n * n,
            binomial,
            flip_rows,
            flip_columns,
            transpose,
            small: (n * n <= 16).then(|| Arc::new(Small::new())),
        }
    }

    #[inline(always)]
    fn apply(ops: &[(u64, i32)], x: u64) -> u64 {
        ops.iter().fold(0, |acc, &(m, k)| acc | shifted(x & m, k))
    }

    /// The eight images of a packed position (both halves moved alike), the identity first.
    #[inline]
    pub fn images(&self, x: u64) -> [u64; 8] {
        match self.n {
            4 => return images4(x),
            5 => return images5(x),
            _ => {}
        }
        let h = Self::apply(&self.flip_columns, x);
        let t = Self::apply(&self.transpose, x);
        let th = Self::apply(&self.flip_columns, t);
        [
            x,
            h,
            Self::apply(&self.flip_rows, x),
            Self::apply(&self.flip_rows, h),
            t,
            th,
            Self::apply(&self.flip_rows, t),
            Self::apply(&self.flip_rows, th),
        ]
    }

    /// The representative of a packed position's symmetry class: its least image.
    #[inline(always)]
    pub fn canonical(&self, x: u64) -> u64 {
        let i = match self.n {
            4 => images4(x),
            5 => images5(x),
            _ => return self.canonical_by_lists(x),
        };
        i[0].min(i[1])
            .min(i[2].min(i[3]))
            .min(i[4].min(i[5]).min(i[6].min(i[7])))
    }

    /// [`Square::canonical`] through the mask lists, kept out of line so that the fast paths
    /// stay small enough to inline.
    #[inline(never)]
    fn canonical_by_lists(&self, x: u64) -> u64 {
        self.images(x).into_iter().min().unwrap_or(x)
    }

    /// The number of distinct images (the size of the symmetry class).
    pub fn class_size(&self, x: u64) -> u64 {
        let mut images = self.images(x);
        images.sort_unstable();
        1 + images.windows(2).filter(|w| w[0] != w[1]).count() as u64
    }

    /// The colex rank of the occupied cells among sets of their size, and the colex rank of the
    /// mover's cells renumbered among the occupied ones.
    #[inline(always)]
    pub fn rank_sides(&self, mover: u64, occupied: u64) -> (u64, u64) {
        if let Some(small) = &self.small {
            let (ol, oh) = ((occupied & 0xFF) as usize, (occupied >> 8 & 0xFF) as usize);
            let (ml, mh) = ((mover & 0xFF) as usize, (mover >> 8 & 0xFF) as usize);
            let packed = small.compress[ol << 8 | ml] as usize
                | (small.compress[oh << 8 | mh] as usize) << ol.count_ones();
            return (
                u64::from(small.colex[occupied as usize & 0xFFFF]),
                u64::from(small.colex[packed]),
            );
        }
        self.rank_sides_by_loop(mover, occupied)
    }

    /// [`Square::rank_sides`] by one pass over the occupied cells, for boards past 16 cells.
    #[inline(never)]
    fn rank_sides_by_loop(&self, mover: u64, occupied: u64) -> (u64, u64) {
        let (mut shape, mut colour) = (0u64, 0u64);
        let (mut i, mut j) = (0usize, 0usize);
        let mut rest = occupied;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            shape += self.binomial[p][j + 1];
            let bit = (mover >> p & 1) as usize;
            i += bit;
            colour += self.binomial[j][i] & 0u64.wrapping_sub(bit as u64);
            rest &= rest - 1;
            j += 1;
        }
        (shape, colour)
    }

    /// The `count`-element subset of `0..universe` of colex rank `rank`.
    #[inline]
    pub fn colex_unrank(&self, mut rank: u64, count: usize, universe: usize) -> u64 {
        let mut bits = 0u64;
        let mut p = universe;
        for i in (1..=count).rev() {
            p -= 1;
            while self.binomial[p][i] > rank {
                p -= 1;
            }
            rank -= self.binomial[p][i];
            bits |= 1u64 << p;
        }
        bits
    }

    /// Spreads the low bits of `compressed` over the set bits of `occupied`.
    #[inline]
    pub fn deposit(compressed: u64, occupied: u64) -> u64 {
        let (mut out, mut rest, mut j) = (0u64, occupied, 0);
        while rest != 0 {
            let low = rest & rest.wrapping_neg();
            out |= low & 0u64.wrapping_sub(compressed >> j & 1);
            rest ^= low;
            j += 1;
        }
        out
    }

    /// The packed position (mover low) with `total` cubes, `mover` of them the mover's, whose
    /// occupied cells have colex rank `shape` and whose mover cells have rank `colour` among them.
    #[inline]
    pub fn unrank_sides(&self, total: usize, mover: usize, shape: u64, colour: u64) -> u64 {
        if let Some(small) = &self.small {
            let occupied = small.by_count[total][shape as usize] as usize;
            let packed = small.by_count[mover][colour as usize] as usize;
            let ol = occupied & 0xFF;
            let low = ol.count_ones();
            let m = small.deposit[ol << 8 | (packed & ((1 << low) - 1))] as u64
                | (small.deposit[(occupied >> 8) << 8 | (packed >> low)] as u64) << 8;
            let occupied = occupied as u64;
            return m | (occupied & !m) << 32;
        }
        let occupied = self.colex_unrank(shape, total, self.cells);
        let m = Self::deposit(self.colex_unrank(colour, mover, total), occupied);
        m | (occupied & !m) << 32
    }

    /// A cell's name: column letter and row counted from the bottom, e.g. `a1`.
    pub fn cell_name(&self, cell: usize) -> String {
        let (r, c) = (cell / self.n, cell % self.n);
        format!("{}{}", (b'a' + c as u8) as char, self.n - r)
    }

    /// Parses a board string (rows top to bottom, `x`, `o`, `.`; `/` and spaces ignored) into the
    /// cells of x and of o.
    pub fn parse_board(&self, text: &str) -> std::result::Result<(u64, u64), String> {
        let cells: Vec<char> = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '/')
            .collect();
        if cells.len() != self.cells {
            return Err(format!(
                "the board needs {} cells ({} rows of {}), got {}",
                self.cells,
                self.n,
                self.n,
                cells.len()
            ));
        }
        let (mut x, mut o) = (0u64, 0u64);
        for (i, c) in cells.iter().enumerate() {
            match c.to_ascii_lowercase() {
                'x' => x |= 1 << i,
                'o' => o |= 1 << i,
                '.' => {}
                other => return Err(format!("unexpected '{other}': cells are x, o or .")),
            }
        }
        Ok((x, o))
    }

    /// The board string: rows top to bottom.
    pub fn board_string(&self, x: u64, o: u64) -> String {
        (0..self.cells)
            .map(|i| match (x >> i & 1, o >> i & 1) {
                (1, _) => 'x',
                (_, 1) => 'o',
                _ => '.',
            })
            .collect()
    }

    /// The board drawn for a terminal, with coordinates.
    pub fn draw(&self, x: u64, o: u64) -> String {
        let text: Vec<char> = self.board_string(x, o).chars().collect();
        let mut out = String::new();
        for r in 0..self.n {
            out.push_str(&format!("{:>2} ", self.n - r));
            for c in 0..self.n {
                out.push(' ');
                out.push(text[r * self.n + c]);
            }
            out.push('\n');
        }
        out.push_str("   ");
        for c in 0..self.n {
            out.push(' ');
            out.push((b'a' + c as u8) as char);
        }
        out
    }
}

/// Exchanges the bits of `x` selected by `mask` with those `delta` places above them.
#[inline(always)]
const fn delta_swap(x: u64, mask: u64, delta: u32) -> u64 {
    let t = ((x >> delta) ^ x) & mask;
    x ^ t ^ (t << delta)
}

/// The eight images on a 4×4 board (bit 4r + c), both halves at once: [`Square::images`].
#[inline(always)]
fn images4(x: u64) -> [u64; 8] {
    const NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const BYTES: u64 = lanes(0x00FF);
    let flip_rows = |x: u64| {
        let x = ((x & BYTES) << 8) | ((x >> 8) & BYTES);
        ((x & NIBBLES) << 4) | ((x >> 4) & NIBBLES)
    };
    let flip_columns = |x: u64| {
        let x = delta_swap(x, lanes(0x5555), 1);
        ((x & 0x3333_3333_3333_3333) << 2) | ((x >> 2) & 0x3333_3333_3333_3333)
    };
    let transpose = |x: u64| delta_swap(delta_swap(x, lanes(0x0A0A), 3), lanes(0x00CC), 6);
    square_images(x, flip_columns, flip_rows, transpose)
}

/// The eight symmetries of the square applied to `x`, from its column flip, row flip and
/// transpose, in the order of [`Square::images`].
#[inline(always)]
fn square_images(
    x: u64,
    flip_columns: impl Fn(u64) -> u64,
    flip_rows: impl Fn(u64) -> u64,
    transpose: impl Fn(u64) -> u64,
) -> [u64; 8] {
    let h = flip_columns(x);
    let t = transpose(x);
    let th = flip_columns(t);
    [
        x,
        h,
        flip_rows(x),
        flip_rows(h),
        t,
        th,
        flip_rows(t),
        flip_rows(th),
    ]
}

/// The eight images on a 5×5 board (bit 5r + c), both halves at once: [`Square::images`].
#[inline(always)]
fn images5(x: u64) -> [u64; 8] {
    // Column 0 and 1 cells, row 0 and 1 cells, and the cells (r, r + d) above the diagonal.
    const COLUMN0: u64 = lanes(0x0108421);
    const COLUMN1: u64 = lanes(0x0108421 << 1);
    const ROW0: u64 = lanes(0x1F);
    const ROW1: u64 = lanes(0x1F << 5);
    const fn band(d: u32) -> u64 {
        let mut mask = 0;
        let mut r = 0;
        while r + d < 5 {
            mask |= 1 << (5 * r + r + d);
            r += 1;
        }
        lanes(mask)
    }
    let flip_columns = |x: u64| delta_swap(delta_swap(x, COLUMN0, 4), COLUMN1, 2);
    let flip_rows = |x: u64| delta_swap(delta_swap(x, ROW0, 20), ROW1, 10);
    let transpose = |x: u64| {
        let x = delta_swap(x, band(1), 4);
        let x = delta_swap(x, band(2), 8);
        let x = delta_swap(x, band(3), 12);
        delta_swap(x, band(4), 16)
    };
    square_images(x, flip_columns, flip_rows, transpose)
}

/// A move: take the cube at `source`, push it in at `end`; the cells `from` shift one step
/// (`step` bits) to become the cells `to`.
#[derive(Clone, Copy, Debug)]
struct Slide {
    source: u64,
    end: u64,
    keep: u64,
    from: u64,
    to: u64,
    step: i32,
    source_cell: u8,
    end_cell: u8,
}

/// The rules of `quixo:N`, ranked for [`crate::solve::tiered`].
#[derive(Clone, Debug)]
pub struct Quixo {
    square: Square,
    lines: Vec<u64>,
    slides: Vec<Slide>,
    /// Tiers as pairs (a, b), a ≤ b, by total then a.
    tiers: Vec<(usize, usize)>,
    /// For mover count a and opponent count b, at `a * (cells + 1) + b`: the tier, the number
    /// of colourings C(a + b, a), and the offset of this orientation inside the tier.
    by_counts: Vec<(usize, u64, u64)>,
    symmetry: bool,
    start: u64,
}

impl Quixo {
    /// The rules on an N×N board.
    ///
    /// # Errors
    /// A message unless 3 ≤ N ≤ [`MAX_SIDE`].
    pub fn new(n: usize) -> std::result::Result<Quixo, String> {
        if !(3..=MAX_SIDE).contains(&n) {
            return Err(format!(
                "the board side must be between 3 and {MAX_SIDE}, got {n}"
            ));
        }
        let square = Square::new(n);
        let cell = |r: usize, c: usize| r * n + c;
        let bit = |r: usize, c: usize| 1u64 << cell(r, c);
        let mut lines = Vec::new();
        for i in 0..n {
            lines.push((0..n).map(|c| bit(i, c)).sum());
            lines.push((0..n).map(|r| bit(r, i)).sum());
        }
        lines.push((0..n).map(|i| bit(i, i)).sum());
        lines.push((0..n).map(|i| bit(i, n - 1 - i)).sum());
        let mut slides = Vec::new();
        for r in 0..n {
            for c in 0..n {
                if r != 0 && r != n - 1 && c != 0 && c != n - 1 {
                    continue;
                }
                // The ends of the row and of the column through (r, c), other than (r, c).
                let ends = [(r, 0), (r, n - 1), (0, c), (n - 1, c)];
                for (k, &(er, ec)) in ends.iter().enumerate() {
                    if (er, ec) == (r, c) {
                        continue;
                    }
                    // The line from the end to the source.
                    let path: Vec<(usize, usize)> = if k < 2 {
                        if ec < c {
                            (ec..=c).map(|j| (r, j)).collect()
                        } else {
                            (c..=ec).rev().map(|j| (r, j)).collect()
                        }
                    } else if er < r {
                        (er..=r).map(|i| (i, c)).collect()
                    } else {
                        (r..=er).rev().map(|i| (i, c)).collect()
                    };
                    let segment: u64 = path.iter().map(|&(i, j)| bit(i, j)).sum();
                    let from: u64 = path[..path.len() - 1].iter().map(|&(i, j)| bit(i, j)).sum();
                    let step =
                        cell(path[1].0, path[1].1) as i32 - cell(path[0].0, path[0].1) as i32;
                    slides.push(Slide {
                        source: bit(r, c),
                        end: bit(er, ec),
                        keep: !lanes(segment),
                        from: lanes(from),
                        to: lanes(shifted(from, step)),
                        step,
                        source_cell: cell(r, c) as u8,
                        end_cell: cell(er, ec) as u8,
                    });
                }
            }
        }
        let cells = n * n;
        let mut tiers = Vec::new();
        let mut by_counts = vec![(usize::MAX, 0, 0); (cells + 1) * (cells + 1)];
        let c = &square.binomial;
        #[allow(clippy::needless_range_loop)]
        for total in 0..=cells {
            for a in 0..=total / 2 {
                let b = total - a;
                let colours = c[total][a];
                by_counts[a * (cells + 1) + b] = (tiers.len(), colours, 0);
                by_counts[b * (cells + 1) + a] = (
                    tiers.len(),
                    colours,
                    if a < b { c[cells][total] * colours } else { 0 },
                );
                tiers.push((a, b));
            }
        }
        Ok(Quixo {
            square,
            lines,
            slides,
            tiers,
            by_counts,
            symmetry: true,
            start: 0,
        })
    }

    /// The board side N.
    pub fn side(&self) -> usize {
        self.square.n
    }

    /// The same rules, solving every position rather than one a symmetry class.
    pub fn without_symmetry(mut self) -> Quixo {
        self.symmetry = false;
        self
    }

    /// The same rules from another start (a packed position, mover low).
    pub fn with_start(mut self, start: u64) -> Quixo {
        self.start = start;
        self
    }

    /// Whether the cells `bits` hold a line.
    #[inline]
    pub fn has_line(&self, bits: u64) -> bool {
        self.lines.iter().any(|&l| l & !bits == 0)
    }

    #[inline(always)]
    fn slide(&self, s: &Slide, p: u64) -> u64 {
        let moved = (p & s.keep) | shifted(p & s.from, s.step) | s.end;
        swap(moved)
    }

    /// Every move of a non-terminal position: (source cell, end cell, child).
    fn moves(&self, p: u64) -> impl Iterator<Item = (usize, usize, u64)> + '_ {
        self.slides
            .iter()
            .filter(move |s| p & (s.source << 32) == 0)
            .map(move |s| {
                (
                    s.source_cell as usize,
                    s.end_cell as usize,
                    self.slide(s, p),
                )
            })
    }

    /// The parents through each slide: those where the moved cube was the mover's own (`own`)
    /// and, with `blank`, those where it was blank.
    #[inline]
    fn un_moves(&self, p: u64, own: bool, blank: bool, out: &mut Vec<u64>) {
        for s in &self.slides {
            if p & (s.end << 32) == 0 {
                continue;
            }
            let back = (p & s.keep) | shifted(p & s.to, -s.step);
            if blank {
                out.push(swap(back));
            }
            if own {
                out.push(swap(back | s.source << 32));
            }
        }
    }
}

impl Game for Quixo {
    type Position = u64;
}

impl TieredGame for Quixo {
    fn tier_count(&self) -> usize {
        self.tiers.len()
    }

    fn tier_size(&self, tier: usize) -> u64 {
        let (a, b) = self.tiers[tier];
        let c = &self.square.binomial;
        let half = c[self.square.cells][a + b] * c[a + b][a];
        if a == b {
            half
        } else {
            2 * half
        }
    }

    fn unrank(&self, tier: usize, index: u64) -> Option<u64> {
        let (a, b) = self.tiers[tier];
        let c = &self.square.binomial;
        let total = a + b;
        let colours = c[total][a];
        let half = c[self.square.cells][total] * colours;
        let (mover, rest) = if index >= half {
            (b, index - half)
        } else {
            (a, index)
        };
        Some(
            self.square
                .unrank_sides(total, mover, rest / colours, rest % colours),
        )
    }

    #[inline]
    fn rank(&self, &p: &u64) -> (usize, u64) {
        let (m, o) = (p & LOW, p >> 32);
        let occupied = m | o;
        let (a, b) = (m.count_ones() as usize, o.count_ones() as usize);
        let (tier, colours, offset) = self.by_counts[a * (self.square.cells + 1) + b];
        let (shape, colour) = self.square.rank_sides(m, occupied);
        (tier, offset + shape * colours + colour)
    }

    fn start(&self) -> u64 {
        self.start
    }

    fn terminal(&self, &p: &u64) -> Option<Terminal> {
        if self.has_line(p & LOW) {
            Some(Terminal::Win)
        } else if self.has_line(p >> 32) {
            Some(Terminal::Loss)
        } else {
            None
        }
    }

    fn children(&self, &p: &u64, out: &mut Vec<u64>) {
        out.extend(self.moves(p).map(|(_, _, c)| c));
    }

    fn has_parents(&self) -> bool {
        true
    }

    fn parents(&self, &p: &u64, out: &mut Vec<u64>) {
        self.un_moves(p, true, true, out);
    }

    fn parents_in_tier(&self, &p: &u64, out: &mut Vec<u64>) {
        self.un_moves(p, true, false, out);
    }

    #[inline]
    fn canonical(&self, &p: &u64) -> u64 {
        if self.symmetry {
            self.square.canonical(p)
        } else {
            p
        }
    }
}

/// What the shared glue needs from a square-board game.
pub trait SquareRules: TieredGame<Position = u64> + Clone + Send + Sync + 'static {
    /// The spec.
    fn spec(&self) -> String;
    /// The board.
    fn square(&self) -> &Square;
    /// Every move of a non-terminal position, with its text.
    fn named_moves(&self, p: u64) -> Vec<(String, u64)>;
    /// Parses the position words into (packed position, whether x is to move).
    ///
    /// # Errors
    /// What is wrong with the words.
    fn parse(&self, words: &[&str]) -> std::result::Result<(u64, bool), String>;
    /// The same rules without symmetry reduction.
    fn plain(&self) -> Self;
    /// The same rules from another start.
    fn starting_at(&self, start: u64) -> Self;
}

impl SquareRules for Quixo {
    fn spec(&self) -> String {
        format!("quixo:{}", self.square.n)
    }

    fn square(&self) -> &Square {
        &self.square
    }

    fn named_moves(&self, p: u64) -> Vec<(String, u64)> {
        self.moves(p)
            .map(|(s, e, c)| {
                (
                    format!("{}-{}", self.square.cell_name(s), self.square.cell_name(e)),
                    c,
                )
            })
            .collect()
    }

    fn parse(&self, words: &[&str]) -> std::result::Result<(u64, bool), String> {
        let (board, turn) = match words {
            [] => return Ok((0, true)),
            [b] => (b, None),
            [b, t] => (b, Some(*t)),
            _ => {
                return Err(format!(
                "expected a board string and optionally the player to move (x or o), got {} words",
                words.len()
            ))
            }
        };
        let (x, o) = self.square.parse_board(board)?;
        let x_to_move = parse_turn(turn)?;
        // Every board can arise: a push may complete a line of either symbol, or both (the
        // player who pushed then loses), so lines of the player to move are finished games too.
        Ok((pack(x, o, x_to_move), x_to_move))
    }

    fn plain(&self) -> Self {
        self.clone().without_symmetry()
    }

    fn starting_at(&self, start: u64) -> Self {
        self.clone().with_start(start)
    }
}

/// Parses `x` or `o` (default x).
pub fn parse_turn(turn: Option<&str>) -> std::result::Result<bool, String> {
    match turn.map(str::to_ascii_lowercase).as_deref() {
        None | Some("x") => Ok(true),
        Some("o") => Ok(false),
        Some(other) => Err(format!("the player to move is x or o, got '{other}'")),
    }
}

/// Packs x's and o's cells with the mover low.
pub const fn pack(x: u64, o: u64, x_to_move: bool) -> u64 {
    if x_to_move {
        x | o << 32
    } else {
        o | x << 32
    }
}

/// A position of a square-board game as players see it: the packed position (relative to the
/// mover) and whether x is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SquarePosition {
    /// The cubes or pieces: the mover's in the low half.
    pub packed: u64,
    /// Whether x is to move.
    pub x_to_move: bool,
}

impl SquarePosition {
    fn colours(&self) -> (u64, u64) {
        let (m, o) = (self.packed & LOW, self.packed >> 32);
        if self.x_to_move {
            (m, o)
        } else {
            (o, m)
        }
    }
}

/// A square-board game (Quixo, Teeko), solved on first use through a [`Store`].
pub struct SquareGame<R: SquareRules> {
    strong: Strong<R>,
}

impl<R: SquareRules> SquareGame<R> {
    /// The game with these rules, its solution kept in `store`.
    pub fn new(rules: R, store: Arc<dyn Store>) -> Self {
        SquareGame {
            strong: Strong::new(rules.spec(), rules, store),
        }
    }

    /// The same game, whose solves for queries stop when `budget` is spent.
    pub fn with_budget(mut self, budget: crate::budget::Budget) -> Self {
        self.strong = self.strong.with_budget(budget);
        self
    }

    fn rules(&self) -> &R {
        self.strong.rules()
    }

    fn solve_report(&self, start: &SquarePosition, progress: &dyn Progress) -> Result<SolveReport> {
        let (record, mut details) = self.strong.report(&start.packed, progress)?;
        let rules = self.rules().starting_at(start.packed);
        let threads = Some(rayon::current_num_threads());
        let square = self.rules().square().clone();
        let symmetric = square
            .images(start.packed)
            .iter()
            .all(|&i| i == start.packed);
        let strong = &self.strong;
        let (classes, positions) = if symmetric {
            // The reachable set is closed under the symmetries: count each class's images.
            strong.reachable_weighted(&rules, threads, |&p| square.class_size(p))?
        } else {
            let classes = strong.reachable(&rules, threads)?;
            (classes, strong.reachable(&rules.plain(), threads)?)
        };
        details.insert("positions_up_to_symmetry".into(), json!(classes));
        Ok(SolveReport {
            game: self.rules().spec(),
            position: self.position_json(start),
            outcome: record.value().outcome(),
            draw_kind: record.value().draw_kind(),
            remoteness: record.remoteness().map(u64::from),
            positions,
            details,
        })
    }
}

impl<R: SquareRules> Game for SquareGame<R> {
    type Position = SquarePosition;
}

impl<R: SquareRules> Evaluated for SquareGame<R> {
    fn moves(&self, p: &SquarePosition) -> Result<Vec<SquarePosition>> {
        if self.rules().terminal(&p.packed).is_some() {
            return Ok(Vec::new());
        }
        Ok(self
            .rules()
            .named_moves(p.packed)
            .into_iter()
            .map(|(_, child)| SquarePosition {
                packed: child,
                x_to_move: !p.x_to_move,
            })
            .collect())
    }

    fn evaluate(&self, p: &SquarePosition) -> Result<Evaluation> {
        self.strong.evaluate(&p.packed)
    }

    fn solve(
        &self,
        start: &SquarePosition,
        progress: &dyn Progress,
    ) -> Option<Result<SolveReport>> {
        Some(self.solve_report(start, progress))
    }
}

impl<R: SquareRules> Notation for SquareGame<R> {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<SquarePosition, ParseError> {
        let (packed, x_to_move) = self.rules().parse(words)?;
        Ok(SquarePosition { packed, x_to_move })
    }

    fn write_position(&self, p: &SquarePosition) -> String {
        let (x, o) = p.colours();
        let turn = if p.x_to_move { 'x' } else { 'o' };
        format!("{} {turn}", self.rules().square().board_string(x, o))
    }

    /// The move's name (`a1-a4`, `c3`), found among the moves that lead to `to`.
    fn write_move(&self, from: &SquarePosition, to: &SquarePosition) -> String {
        self.rules()
            .named_moves(from.packed)
            .into_iter()
            .find(|(_, child)| *child == to.packed)
            .map_or_else(|| "?".to_string(), |(text, _)| text)
    }

    fn render(&self, p: &SquarePosition) -> String {
        let (x, o) = p.colours();
        let turn = if p.x_to_move { "x" } else { "o" };
        format!("{}\n{turn} to move", self.rules().square().draw(x, o))
    }
}

/// Reads `quixo:N`'s parameter.
///
/// # Errors
/// Unless N is 3, 4 or 5.
pub fn parse_quixo(params: &str) -> std::result::Result<Quixo, String> {
    let n = parse_u64(params, "the board side")?;
    Quixo::new(usize::try_from(n).unwrap_or(usize::MAX))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::Value;
    use crate::solve::tiered;
    use crate::solve::tiered::testing::{
        check_all_ranks, check_local, check_un_moves, value_iteration,
    };
    use crate::solve::tiered::Record;
    use std::collections::HashMap;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// A slow, obviously correct move generator on cell arrays.
    fn naive_children(n: usize, p: u64) -> Vec<u64> {
        let get = |r: usize, c: usize| -> u8 {
            let i = r * n + c;
            (p >> i & 1) as u8 | ((p >> (32 + i) & 1) as u8) << 1
        };
        let mut out = Vec::new();
        for r in 0..n {
            for c in 0..n {
                let border = r == 0 || c == 0 || r == n - 1 || c == n - 1;
                if !border || get(r, c) == 2 {
                    continue;
                }
                for (er, ec) in [(r, 0), (r, n - 1), (0, c), (n - 1, c)] {
                    if (er, ec) == (r, c) {
                        continue;
                    }
                    let mut board = vec![vec![0u8; n]; n];
                    for (i, row) in board.iter_mut().enumerate() {
                        for (j, v) in row.iter_mut().enumerate() {
                            *v = get(i, j);
                        }
                    }
                    if er == r {
                        let mut row: Vec<u8> = board[r].clone();
                        row.remove(c);
                        if ec == 0 {
                            row.insert(0, 1);
                        } else {
                            row.push(1);
                        }
                        board[r] = row;
                    } else {
                        let mut col: Vec<u8> = (0..n).map(|i| board[i][c]).collect();
                        col.remove(r);
                        if er == 0 {
                            col.insert(0, 1);
                        } else {
                            col.push(1);
                        }
                        for (i, v) in col.into_iter().enumerate() {
                            board[i][c] = v;
                        }
                    }
                    let (mut m, mut o) = (0u64, 0u64);
                    for (i, row) in board.iter().enumerate() {
                        for (j, v) in row.iter().enumerate() {
                            match v {
                                1 => m |= 1 << (i * n + j),
                                2 => o |= 1 << (i * n + j),
                                _ => {}
                            }
                        }
                    }
                    out.push(o | m << 32);
                }
            }
        }
        out
    }

    fn random_position(rng: &mut Rng, n: usize) -> u64 {
        let (mut m, mut o) = (0u64, 0u64);
        for i in 0..n * n {
            match rng.next() % 3 {
                0 => m |= 1 << i,
                1 => o |= 1 << i,
                _ => {}
            }
        }
        m | o << 32
    }

    #[test]
    fn moves_match_a_naive_generator() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for n in 3..=5 {
            let game = Quixo::new(n).unwrap();
            for _ in 0..500 {
                let p = random_position(&mut rng, n);
                let mut fast = Vec::new();
                game.children(&p, &mut fast);
                let mut slow = naive_children(n, p);
                fast.sort_unstable();
                slow.sort_unstable();
                assert_eq!(fast, slow, "n = {n}, {p:x}");
            }
        }
        let game = Quixo::new(4).unwrap();
        assert_eq!(game.moves(0).count(), 32);
        assert_eq!(Quixo::new(5).unwrap().moves(0).count(), 44);
    }

    #[test]
    fn symmetries_are_the_eight_of_the_square() {
        for n in 3..=5 {
            let sq = Square::new(n);
            let cell = |r: usize, c: usize| 1u64 << (r * n + c);
            for r in 0..n {
                for c in 0..n {
                    let x = cell(r, c) | cell(r, c) << 32;
                    let mut images = sq.images(x).to_vec();
                    let mut expected: Vec<u64> = [
                        (r, c),
                        (r, n - 1 - c),
                        (n - 1 - r, c),
                        (n - 1 - r, n - 1 - c),
                        (c, r),
                        (c, n - 1 - r),
                        (n - 1 - c, r),
                        (n - 1 - c, n - 1 - r),
                    ]
                    .iter()
                    .map(|&(i, j)| cell(i, j) | cell(i, j) << 32)
                    .collect();
                    images.sort_unstable();
                    expected.sort_unstable();
                    assert_eq!(images, expected, "n = {n}, ({r}, {c})");
                }
            }
        }
    }

    #[test]
    fn ranking_round_trips_over_every_tier() {
        let game = Quixo::new(3).unwrap();
        let mut total = 0;
        for tier in 0..game.tier_count() {
            for index in 0..game.tier_size(tier) {
                let p = game.unrank(tier, index).unwrap();
                assert_eq!(game.rank(&p), (tier, index));
                total += 1;
            }
        }
        assert_eq!(total, 3u64.pow(9));
        // Samples of every tier of 4×4 and 5×5.
        let mut rng = Rng(77);
        for n in [4, 5] {
            let game = Quixo::new(n).unwrap();
            let mut total = 0u64;
            for tier in 0..game.tier_count() {
                let size = game.tier_size(tier);
                total += size;
                for k in 0..50 {
                    let index = if k < 2 {
                        k * (size - 1)
                    } else {
                        rng.next() % size
                    };
                    let p = game.unrank(tier, index).unwrap();
                    assert_eq!(game.rank(&p), (tier, index));
                }
            }
            assert_eq!(total, 3u64.pow((n * n) as u32));
        }
    }

    #[test]
    fn un_moves_invert_moves() {
        for n in 3..=5 {
            let game = Quixo::new(n).unwrap();
            let mut rng = Rng(n as u64 * 1234567);
            for tier in 0..game.tier_count() {
                let size = game.tier_size(tier);
                let samples: Vec<u64> = if size <= 300 {
                    (0..size).collect()
                } else {
                    (0..300).map(|_| rng.next() % size).collect()
                };
                check_un_moves(&game, tier, &samples);
            }
        }
    }

    /// Plain value iteration on the explicit graph of positions reachable from the start.
    fn naive_values(game: &Quixo) -> HashMap<u64, Record> {
        let mut index: HashMap<u64, usize> = HashMap::new();
        let mut positions = vec![game.start()];
        index.insert(game.start(), 0);
        let mut i = 0;
        while i < positions.len() {
            let p = positions[i];
            if game.terminal(&p).is_none() {
                let mut children = Vec::new();
                game.children(&p, &mut children);
                for c in children {
                    if let std::collections::hash_map::Entry::Vacant(e) = index.entry(c) {
                        e.insert(positions.len());
                        positions.push(c);
                    }
                }
            }
            i += 1;
        }
        let options: Vec<Vec<usize>> = positions
            .iter()
            .map(|p| {
                let mut children = Vec::new();
                if game.terminal(p).is_none() {
                    game.children(p, &mut children);
                }
                children.iter().map(|c| index[c]).collect()
            })
            .collect();
        let terminals: Vec<Option<Terminal>> = positions.iter().map(|p| game.terminal(p)).collect();
        let values = value_iteration(&terminals, &options);
        positions.into_iter().zip(values).collect()
    }

    #[test]
    fn quixo_3_agrees_with_plain_value_iteration() {
        let game = Quixo::new(3).unwrap();
        let naive = naive_values(&game);
        for threads in [1, 2] {
            let solution = tiered::solve(&game, Some(threads), u64::MAX, &()).unwrap();
            let plain = game.clone().without_symmetry();
            let full = tiered::solve(&plain, Some(threads), u64::MAX, &()).unwrap();
            assert!(solution.stats.positions * 6 < full.stats.positions);
            for (p, &record) in &naive {
                assert_eq!(solution.record(&game, p), record, "{p:x}");
                assert_eq!(full.record(&plain, p), record, "{p:x}");
            }
        }
        let (classes, all) =
            tiered::reachable_weighted(&game, Some(2), |&p| game.square.class_size(p)).unwrap();
        assert_eq!(all, naive.len() as u64);
        assert_eq!(classes, tiered::reachable(&game, Some(1)).unwrap());
        assert_eq!(
            all,
            tiered::reachable(&game.clone().without_symmetry(), Some(1)).unwrap()
        );
    }

    fn square<R: SquareRules>(rules: R) -> SquareGame<R> {
        SquareGame::new(rules, Arc::new(crate::solve::store::FileStore::memory()))
    }

    #[test]
    fn solve_and_queries_of_the_typed_game() {
        let game = square(Quixo::new(3).unwrap());
        let report = game
            .solve(&game.parse_position(&[]).unwrap(), &())
            .unwrap()
            .unwrap();
        let rules = Quixo::new(3).unwrap();
        let naive = naive_values(&rules);
        let start = naive[&0];
        assert_eq!(report.outcome, start.value().outcome());
        assert_eq!(report.remoteness, start.remoteness().map(u64::from));
        assert_eq!(report.positions, naive.len() as u64);
        assert_eq!(report.position, json!("......... x"));
        // A position given with its player to move agrees with the solver.
        let p = game.parse_position(&["xx.o.o...", "x"]).unwrap();
        let packed = pack(0b11, 0b101000, true);
        assert_eq!(p.packed, packed);
        let solution = tiered::solve(&rules, Some(1), u64::MAX, &()).unwrap();
        assert_eq!(
            game.evaluate(&p).unwrap().outcome,
            solution.record(&rules, &packed).value().outcome()
        );
        assert_eq!(game.moves(&p).unwrap().len(), rules.moves(packed).count());
    }

    #[test]
    fn database_saves_and_reopens() {
        let rules = Quixo::new(3).unwrap();
        let sizes: Vec<u64> = (0..rules.tier_count())
            .map(|t| rules.tier_size(t))
            .collect();
        let dir = std::env::temp_dir().join(format!("sprague-quixo-db-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let spec = "quixo:3 (test)";
        use crate::solve::store::{file_name, load, Disk, FileStore, Store};
        let first = FileStore::new(Disk::Directory(dir.clone()))
            .solution(spec, &sizes, &(), &mut |_| {
                tiered::solve(&rules, Some(2), u64::MAX, &())
            })
            .unwrap();
        let path = dir.join(file_name(spec));
        let reopened = load(&path, spec, &sizes).unwrap();
        assert_eq!(reopened.records(), first.records());
        let mut rng = Rng(5);
        let samples: Vec<u64> = (0..2000).map(|_| random_position(&mut rng, 3)).collect();
        for p in &samples {
            assert_eq!(reopened.record(&rules, p), first.record(&rules, p));
        }
        check_local(&rules, &reopened, samples.into_iter());
        std::fs::remove_dir_all(&dir).ok();
    }

    /// The full 4×4 solve (release: `cargo test --release -p sprague quixo_4 -- --ignored`):
    /// every rank round-trips, random positions satisfy the retrograde equations, and the start
    /// is a first-player win. That last value is this solver's own result, pinned; no published
    /// 4×4 figure was at hand to compare with (5×5 Quixo is a draw: Tanaka et al., 2020).
    #[test]
    #[ignore]
    fn quixo_4_is_a_first_player_win_and_locally_consistent() {
        let rules = Quixo::new(4).unwrap();
        check_all_ranks(&rules, true);
        let solution = tiered::solve(&rules, Some(2), u64::MAX, &()).unwrap();
        let start = solution.record(&rules, &0);
        assert_eq!(start.value(), Value::Win);
        let mut rng = Rng(44);
        let samples = (0..200_000).map(|_| random_position(&mut rng, 4));
        assert_eq!(check_local(&rules, &solution, samples), 200_000);
        assert_eq!(
            tiered::reachable(&rules, Some(2)).unwrap(),
            5_170_021,
            "canonical positions reachable from the empty board"
        );
    }

    #[test]
    fn bad_parameters_and_positions_are_clear_errors() {
        assert!(parse_quixo("2").unwrap_err().contains("between 3 and 5"));
        assert!(parse_quixo("6").unwrap_err().contains("between 3 and 5"));
        assert!(parse_quixo("x").unwrap_err().contains("whole number"));
        let game = square(Quixo::new(3).unwrap());
        let position_error = |words: &[&str]| game.parse_position(words).unwrap_err().to_string();
        assert!(position_error(&["x..."]).contains("9 cells"));
        assert!(position_error(&["xq......."]).contains("'q'"));
        assert!(position_error(&["x........", "z"]).contains("x or o"));
        // Lines of either player, or both, are finished games: the player who pushed last
        // lost if the board shows the other's line.
        for (board, turn, outcome) in [
            ("xxxooo...", "x", "N"),
            ("xxxooo...", "o", "N"),
            ("xxx......", "x", "N"),
            ("xxx......", "o", "P"),
        ] {
            let p = game.parse_position(&[board, turn]).unwrap();
            let v = game.evaluate(&p).unwrap();
            assert_eq!(v.outcome.to_string(), outcome, "{board} {turn}");
            assert_eq!(v.remoteness, Some(0));
        }
        assert!(position_error(&["x........", "x", "y"]).contains("3 words"));
        // quixo:5 parses but is refused when solved.
        let big = square(Quixo::new(5).unwrap());
        let p = big.parse_position(&[]).unwrap();
        let err = big.evaluate(&p).unwrap_err();
        assert!(matches!(err, crate::Error::Limit(_)), "{err}");
    }
}
