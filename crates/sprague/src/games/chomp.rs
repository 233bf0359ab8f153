//! Chomp: a bar of chocolate whose bottom-left square is poisoned; a move picks a square and
//! eats it with every square above and to the right of it. The poisoned square is never
//! taken: the player left with it alone cannot move, and loses (normal play).
//!
//! A position is a Young diagram written as its column heights, longest first (`4 4 3 1`;
//! the poisoned square is the bottom of the first column); `chomp:RxC` is the full bar of R
//! rows and C columns. A move is written by its square, 1-based `(row,column)` from the
//! poisoned square: `(2,3)`.
//!
//! Values: every diagram inside a box of R rows and C columns has a rank among the
//! C(R + C, C) diagrams of the box (its lattice path read in lexicographic order), and the
//! option that cuts at row i of column j has a rank computed in constant time from prefix
//! sums. So the nim values of a whole box are one pass over the ranks (each option of a
//! diagram has a smaller rank), in one byte each: [`BoxValues`]. Boxes too large for memory go
//! to the nim-value search instead. A diagram and its transpose have the same value.

use crate::budget::Budget;
use crate::error::Result;
use crate::game::notation::ParseError;
use crate::game::{Game, Impartial, NimValue, Notation};
use crate::solve::nimsearch::{ComponentValues, Keyed, NimSearch, Settings};
use std::sync::{Arc, Mutex, OnceLock};

/// The most squares a diagram may have (values and option counts fit a byte).
pub const MAX_SQUARES: usize = 255;

/// The largest box tabulated whole (a byte a diagram: 512 MiB).
pub const MAX_BOX: u64 = 1 << 29;

/// A Chomp position: column heights, longest first, none zero (the poisoned square is the
/// bottom of column 0, so there is at least one column).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Diagram(Vec<u8>);

impl Diagram {
    /// The diagram of these column heights.
    ///
    /// # Errors
    /// A sentence when they are not non-increasing positive heights of at most
    /// [`MAX_SQUARES`] squares.
    pub fn new(heights: Vec<u8>) -> std::result::Result<Diagram, String> {
        if heights.is_empty() {
            return Err("give the column heights, longest first, such as '4 4 3 1'".into());
        }
        if let Some(i) = heights.iter().position(|&h| h == 0) {
            return Err(format!(
                "column {} has height 0 (leave empty columns out)",
                i + 1
            ));
        }
        if let Some(i) = heights.windows(2).position(|w| w[1] > w[0]) {
            return Err(format!(
                "column {} ({}) is taller than column {} ({}): not a Young diagram (heights go longest first)",
                i + 2,
                heights[i + 1],
                i + 1,
                heights[i]
            ));
        }
        let squares: usize = heights.iter().map(|&h| usize::from(h)).sum();
        if squares > MAX_SQUARES {
            return Err(format!(
                "the diagram has {squares} squares; at most {MAX_SQUARES} are supported"
            ));
        }
        Ok(Diagram(heights))
    }

    /// The full bar of `rows × cols`.
    ///
    /// # Errors
    /// As [`Diagram::new`].
    pub fn rectangle(rows: usize, cols: usize) -> std::result::Result<Diagram, String> {
        if rows == 0 || cols == 0 {
            return Err("a bar has at least one row and one column".into());
        }
        if rows * cols > MAX_SQUARES {
            return Err(format!(
                "a {rows}x{cols} bar has {} squares; at most {MAX_SQUARES} are supported",
                rows * cols
            ));
        }
        Diagram::new(vec![rows as u8; cols])
    }

    /// The column heights.
    pub fn heights(&self) -> &[u8] {
        &self.0
    }

    /// The number of squares.
    pub fn squares(&self) -> usize {
        self.0.iter().map(|&h| usize::from(h)).sum()
    }

    /// The diagram reflected in its diagonal (rows become columns).
    pub fn transposed(&self) -> Diagram {
        let rows = self.0[0];
        Diagram(
            (0..rows)
                .map(|i| self.0.iter().filter(|&&h| h > i).count() as u8)
                .collect(),
        )
    }

    /// The diagram after eating the square at row `i`, column `j` (0-based).
    fn eat(&self, i: u8, j: usize) -> Diagram {
        let mut heights = self.0.clone();
        for h in &mut heights[j..] {
            *h = (*h).min(i);
        }
        heights.retain(|&h| h > 0);
        Diagram(heights)
    }
}

/// The rules of Chomp.
#[derive(Clone, Copy, Debug, Default)]
pub struct Chomp;

impl Game for Chomp {
    type Position = Diagram;
}

impl Impartial for Chomp {
    fn options(&self, d: &Diagram) -> Vec<Diagram> {
        let mut out = Vec::with_capacity(d.squares().saturating_sub(1));
        for (j, &h) in d.0.iter().enumerate() {
            for i in 0..h {
                if (i, j) != (0, 0) {
                    out.push(d.eat(i, j));
                }
            }
        }
        out
    }

    /// A diagram never splits (the poisoned square alone, which has no move, stays a part so
    /// that the position is still written and read back).
    fn components(&self, d: &Diagram) -> Vec<Diagram> {
        vec![d.clone()]
    }

    /// The diagram or its transpose, whichever has fewer columns (the least, when equal).
    fn key(&self, d: &Diagram) -> Diagram {
        let t = d.transposed();
        match t.0.len().cmp(&d.0.len()) {
            std::cmp::Ordering::Less => t,
            std::cmp::Ordering::Greater => d.clone(),
            std::cmp::Ordering::Equal => t.min(d.clone()),
        }
    }

    /// The heights as bytes, for keys of at most 16 columns.
    fn code(&self, key: &Diagram) -> Option<u128> {
        (key.0.len() <= 16).then(|| {
            key.0
                .iter()
                .enumerate()
                .fold(0u128, |code, (j, &h)| code | u128::from(h) << (8 * j))
        })
    }

    /// L-shaped diagrams are two Nim heaps: the squares above the poisoned one, and those to
    /// its right.
    fn known_nim_value(&self, d: &Diagram) -> Result<Option<NimValue>> {
        let l_shaped = d.0.get(1).is_none_or(|&h| h == 1);
        Ok(l_shaped.then(|| NimValue::Finite(u64::from(d.0[0] - 1) ^ (d.0.len() as u64 - 1))))
    }
}

impl Notation for Chomp {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<Diagram, ParseError> {
        let mut heights = Vec::with_capacity(words.len());
        for w in words {
            let h: u8 = w.parse().map_err(|_| {
                ParseError::from(format!(
                    "'{}' is not a column height (heights are 1 to 255, longest first)",
                    super::grid::printable(w)
                ))
            })?;
            heights.push(h);
        }
        Diagram::new(heights).map_err(ParseError::from)
    }

    fn write_position(&self, d: &Diagram) -> String {
        let words: Vec<String> = d.0.iter().map(u8::to_string).collect();
        words.join(" ")
    }

    fn write_move(&self, from: &Diagram, to: &Diagram) -> String {
        // The eaten square: the first column that lost height, at its new height.
        let j = (0..from.0.len())
            .find(|&j| to.0.get(j).copied().unwrap_or(0) < from.0[j])
            .unwrap_or(0);
        let i = to.0.get(j).copied().unwrap_or(0);
        format!("({},{})", i + 1, j + 1)
    }
}

/// The nim values of every diagram inside a box of `rows × cols`, by rank.
pub struct BoxValues {
    rows: usize,
    cols: usize,
    /// `s[j][v]`: the diagrams that agree before column j and have a height below v there.
    s: Vec<Vec<u64>>,
    values: Vec<u8>,
}

impl BoxValues {
    /// The number of diagrams (heights `0..=rows`, non-increasing) of a box: C(rows + cols,
    /// cols), saturating.
    pub fn size(rows: usize, cols: usize) -> u64 {
        let mut c: u128 = 1;
        for k in 1..=cols as u128 {
            c = c * (rows as u128 + k) / k;
            if c > u128::from(u64::MAX) {
                return u64::MAX;
            }
        }
        c as u64
    }

    /// Computes every value of the box, one rank after the other.
    ///
    /// # Errors
    /// [`crate::Error::Limit`] when the box is larger than [`MAX_BOX`] or the memory left;
    /// [`crate::Error::Stopped`] when `budget` is spent.
    pub fn compute(rows: usize, cols: usize, budget: &Budget) -> Result<BoxValues> {
        let size = BoxValues::size(rows, cols);
        crate::memory::reserve(
            &format!("the table of Chomp in a {rows}x{cols} box"),
            size,
            &[
                crate::memory::Cap::Budget(budget.memory_left()),
                crate::memory::Cap::Fixed(MAX_BOX, "a Chomp table"),
            ],
        )?;
        // n[len][m]: non-increasing sequences of `len` heights in 0..=m.
        let n = |len: usize, m: usize| BoxValues::size(m, len);
        let mut s = vec![vec![0u64; rows + 2]; cols];
        for (j, row) in s.iter_mut().enumerate() {
            for v in 1..=rows + 1 {
                row[v] = row[v - 1] + n(cols - 1 - j, v - 1);
            }
        }
        // q[i][k]: the sum of s[k'][i] for k' < k.
        let mut q = vec![vec![0u64; cols + 1]; rows + 1];
        for (i, row) in q.iter_mut().enumerate() {
            for k in 0..cols {
                row[k + 1] = row[k] + s[k][i];
            }
        }
        let mut values = vec![0u8; size as usize];
        let mut heights = vec![0usize; cols];
        let mut prefix = vec![0u64; cols + 1];
        let mut longer = vec![0usize; rows + 1];
        let mut checker = crate::budget::Checker::new(budget.clone(), 1 << 14);
        for rank in 0..size {
            if rank > 0 {
                // The next diagram in lexicographic order.
                let j = (0..cols)
                    .rev()
                    .find(|&j| heights[j] < if j == 0 { rows } else { heights[j - 1] })
                    .expect("a next diagram below the last rank");
                heights[j] += 1;
                heights[j + 1..].fill(0);
            }
            if heights[0] == 0 {
                continue;
            }
            checker.tick_by(cols)?;
            for j in 0..cols {
                prefix[j + 1] = prefix[j] + s[j][heights[j]];
            }
            for (i, m) in longer.iter_mut().enumerate().take(heights[0]) {
                *m = heights.iter().take_while(|&&h| h > i).count();
            }
            let mut seen = [0u64; 4];
            for (j, &h) in heights.iter().enumerate() {
                for (i, &m) in longer.iter().enumerate().take(h) {
                    if (i, j) == (0, 0) {
                        continue;
                    }
                    let option = prefix[j] + q[i][m] - q[i][j] + prefix[cols] - prefix[m];
                    let v = values[option as usize];
                    seen[usize::from(v >> 6)] |= 1 << (v & 63);
                }
            }
            let mex = seen
                .iter()
                .enumerate()
                .find(|(_, &w)| w != u64::MAX)
                .map_or(255, |(i, &w)| 64 * i + (!w).trailing_zeros() as usize);
            values[rank as usize] = mex as u8;
        }
        Ok(BoxValues {
            rows,
            cols,
            s,
            values,
        })
    }

    /// Whether the box holds the diagram.
    pub fn holds(&self, d: &Diagram) -> bool {
        d.0.len() <= self.cols && usize::from(d.0[0]) <= self.rows
    }

    /// The value of a diagram the box holds.
    pub fn value(&self, d: &Diagram) -> u8 {
        let rank: u64 =
            d.0.iter()
                .enumerate()
                .map(|(j, &h)| self.s[j][usize::from(h)])
                .sum();
        self.values[rank as usize]
    }
}

/// The catalog's Chomp values: from the table of the smallest box computed so far that holds
/// the diagram (a new one for the diagram's own box otherwise), or, past [`MAX_BOX`], by the
/// nim-value search.
pub struct ChompValues {
    settings: Settings,
    boxes: Mutex<Vec<Arc<BoxValues>>>,
    search: OnceLock<Result<NimSearch<Keyed<Chomp>>>>,
}

impl ChompValues {
    /// No table yet; the search, if needed, runs with these settings.
    pub fn new(settings: Settings) -> Self {
        ChompValues {
            settings,
            boxes: Mutex::new(Vec::new()),
            search: OnceLock::new(),
        }
    }

    /// The nim value of a diagram.
    ///
    /// # Errors
    /// [`crate::Error::Stopped`] when `budget` is spent; the search's errors past [`MAX_BOX`].
    pub fn diagram_value(&self, d: &Diagram, budget: &Budget) -> Result<u64> {
        if let Ok(Some(NimValue::Finite(v))) = Chomp.known_nim_value(d) {
            return Ok(v);
        }
        // Tables are kept with rows ≤ columns; a taller diagram is read transposed.
        let d = if usize::from(d.0[0]) > d.0.len() {
            d.transposed()
        } else {
            d.clone()
        };
        let (rows, cols) = (usize::from(d.0[0]), d.0.len());
        let found = {
            let boxes = self.boxes.lock().unwrap_or_else(|e| e.into_inner());
            boxes.iter().find(|b| b.holds(&d)).cloned()
        };
        if let Some(table) = found {
            return Ok(u64::from(table.value(&d)));
        }
        if BoxValues::size(rows, cols) <= MAX_BOX {
            let table = Arc::new(BoxValues::compute(rows, cols, budget)?);
            let value = table.value(&d);
            let mut boxes = self.boxes.lock().unwrap_or_else(|e| e.into_inner());
            boxes.push(table);
            boxes.sort_by_key(|b| BoxValues::size(b.rows, b.cols));
            return Ok(u64::from(value));
        }
        let search = self
            .search
            .get_or_init(|| NimSearch::new(Keyed(Chomp), self.settings.clone()))
            .as_ref()
            .map_err(Clone::clone)?;
        search.value(&Chomp.key(&d), budget)
    }
}

impl ComponentValues<Diagram> for ChompValues {
    fn value(&self, component: &Diagram, budget: &Budget) -> Result<u64> {
        self.diagram_value(component, budget)
    }

    fn has_value(&self, position: &Diagram, target: u64, budget: &Budget) -> Result<bool> {
        Ok(self.diagram_value(position, budget)? == target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::XorShift;
    use crate::solve::NimValues;

    /// Chomp without keys or tables.
    #[derive(Clone)]
    struct Plain;
    impl Game for Plain {
        type Position = Diagram;
    }
    impl Impartial for Plain {
        fn options(&self, d: &Diagram) -> Vec<Diagram> {
            Chomp.options(d)
        }
    }

    fn random_diagram(rng: &mut XorShift, squares: usize) -> Diagram {
        let mut heights = Vec::new();
        let mut left = squares;
        let mut cap = 1 + rng.below(squares as u64) as usize;
        while left > 0 {
            let h = (1 + rng.below(cap as u64) as usize).min(left);
            heights.push(h as u8);
            left -= h;
            cap = h;
        }
        Diagram::new(heights).unwrap()
    }

    #[test]
    fn small_values() {
        let values = ChompValues::new(Settings::default());
        let budget = Budget::unlimited();
        // The square bar is N (the strategy-stealing argument); 2×n bars too. Values from
        // Beling's igsolve (`igsolve chomp -r 4 -c 4` prints 6; -r 10 -c 12 prints 75).
        let v = |r, c| {
            values
                .diagram_value(&Diagram::rectangle(r, c).unwrap(), &budget)
                .unwrap()
        };
        assert_eq!(v(1, 1), 0);
        assert_eq!(v(1, 5), 4);
        assert_eq!(v(4, 4), 6);
        assert_eq!(v(10, 12), 75);
        assert_eq!(v(12, 10), 75);
        // An L is two heaps.
        assert_eq!(
            Chomp.known_nim_value(&Diagram(vec![4, 1, 1])).unwrap(),
            Some(NimValue::Finite(3 ^ 2))
        );
    }

    #[test]
    fn tables_and_keys_agree_with_plain_search() {
        let mut rng = XorShift::new(7);
        let values = ChompValues::new(Settings::default());
        let budget = Budget::unlimited();
        for round in 0..400 {
            let squares = 1 + rng.below(16) as usize;
            let d = random_diagram(&mut rng, squares);
            let mut plain = NimValues::new(Plain);
            assert_eq!(
                values.diagram_value(&d, &budget).unwrap(),
                plain.nim_value(&d).unwrap(),
                "round {round}: {d:?}"
            );
            for o in Chomp.options(&d) {
                let zero = plain.nim_value(&o).unwrap() == 0;
                assert_eq!(
                    values.has_value(&o, 0, &budget).unwrap(),
                    zero,
                    "{d:?} -> {o:?}"
                );
            }
            // The search agrees too.
            let search = NimSearch::new(Keyed(Chomp), Settings::default()).unwrap();
            let parts: Vec<Diagram> = Chomp.components(&d).iter().map(|c| Chomp.key(c)).collect();
            assert_eq!(
                search.nim_value(&parts, &budget).unwrap(),
                plain.nim_value(&d).unwrap()
            );
        }
    }

    #[test]
    fn bad_diagrams_are_named() {
        assert!(Chomp
            .parse_position(&["3", "4"])
            .unwrap_err()
            .to_string()
            .contains("not a Young diagram"));
        assert!(Chomp.parse_position(&["3", "0"]).is_err());
        assert!(Chomp.parse_position(&["x"]).is_err());
        assert!(Diagram::rectangle(16, 16).is_err());
    }
}
