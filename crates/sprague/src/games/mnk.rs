//! m,n,k-games (`mnk:M,N,K`: tic-tac-toe is `mnk:3,3,3`) and the board machinery that
//! [`crate::games::connect`] shares: bitboards, line detection, ranking by piece count.
//!
//! Positions are ranked into tiers by the number of pieces on the board. Within tier `n`, the
//! rank is the colex rank of the occupied cells (for gravity games: of the column heights)
//! times the colex rank of `o`'s cells among them, so the index space holds only boards with
//! the right piece counts. Every move adds a piece, so no tier is loopy and each is solved in one
//! parallel pass by [`crate::solve::tiered`].

use crate::error::Result;
use crate::game::notation::parse_u64;
use crate::game::ParseError;
use crate::game::{Evaluated, Evaluation, Game, Layout, Notation, SolveReport, Terminal};
use crate::progress::Progress;
use crate::solve::store::Store;
use crate::solve::store::Strong;
use crate::solve::tiered::TieredGame;
use serde_json::Value as Json;
use std::sync::Arc;

/// The most cells a board may have (one bit each in a `u64`).
pub const MAX_CELLS: usize = 64;

/// A board: the cells of `x` and of `o` as bit sets (cell = row × columns + column, row 0 on
/// top). `x` moves first, so the side to move follows from the counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Board {
    /// Cells holding `x`.
    pub x: u64,
    /// Cells holding `o`.
    pub o: u64,
}

impl Board {
    /// Whether `x` is to move.
    pub const fn x_to_move(self) -> bool {
        self.x.count_ones() == self.o.count_ones()
    }

    /// The pieces of the player to move and of the other.
    const fn sides(self) -> (u64, u64) {
        if self.x_to_move() {
            (self.x, self.o)
        } else {
            (self.o, self.x)
        }
    }
}

/// The rules of a board game with lines of K: m,n,k (free placement) or connect (gravity).
#[derive(Clone, Debug)]
pub struct BoardRules {
    /// Columns.
    pub columns: usize,
    /// Rows.
    pub rows: usize,
    /// The line length that wins.
    pub k: usize,
    /// Whether pieces drop to the lowest free cell of a column.
    pub gravity: bool,
    lines: Vec<u64>,
    binomial: Box<[[u64; MAX_CELLS + 1]; MAX_CELLS + 1]>,
    column_masks: Vec<u64>,
    /// `heights[c][s]`: ways for `c` columns to hold `s` pieces (gravity games).
    heights: Vec<Vec<u64>>,
    start: Board,
}

fn binomials() -> Box<[[u64; MAX_CELLS + 1]; MAX_CELLS + 1]> {
    let mut c = Box::new([[0u64; MAX_CELLS + 1]; MAX_CELLS + 1]);
    for i in 0..=MAX_CELLS {
        c[i][0] = 1;
        for j in 1..=i {
            c[i][j] = c[i - 1][j - 1].saturating_add(c[i - 1][j]);
        }
    }
    c
}

impl BoardRules {
    /// Rules for `columns` × `rows` boards where `k` in a row wins.
    ///
    /// # Errors
    /// A message naming the bad parameter.
    pub fn new(
        columns: usize,
        rows: usize,
        k: usize,
        gravity: bool,
    ) -> std::result::Result<BoardRules, String> {
        if columns == 0 || rows == 0 {
            return Err("the board needs at least one column and one row".into());
        }
        if columns > 26 || rows > 26 {
            return Err("at most 26 columns and 26 rows".into());
        }
        if columns * rows > MAX_CELLS {
            return Err(format!("at most {MAX_CELLS} cells, got {}", columns * rows));
        }
        if k == 0 {
            return Err("K must be at least 1".into());
        }
        let cell = |r: usize, c: usize| 1u64 << (r * columns + c);
        let mut lines = Vec::new();
        for r in 0..rows {
            for c in 0..columns {
                for (dr, dc) in [(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
                    let end_r = r as i64 + dr * (k as i64 - 1);
                    let end_c = c as i64 + dc * (k as i64 - 1);
                    if end_r < 0 || end_r >= rows as i64 || end_c < 0 || end_c >= columns as i64 {
                        continue;
                    }
                    let mut mask = 0;
                    for i in 0..k as i64 {
                        mask |= cell((r as i64 + dr * i) as usize, (c as i64 + dc * i) as usize);
                    }
                    if !lines.contains(&mask) {
                        lines.push(mask);
                    }
                }
            }
        }
        let mut heights = vec![vec![1u64]];
        for c in 1..=columns {
            let prev = &heights[c - 1];
            let mut next = vec![0u64; prev.len() + rows];
            for (s, &ways) in prev.iter().enumerate() {
                for v in 0..=rows {
                    next[s + v] = next[s + v].saturating_add(ways);
                }
            }
            heights.push(next);
        }
        Ok(BoardRules {
            columns,
            rows,
            k,
            gravity,
            lines,
            binomial: binomials(),
            column_masks: (0..columns)
                .map(|c| (0..rows).map(|r| 1u64 << (r * columns + c)).sum())
                .collect(),
            heights,
            start: Board::default(),
        })
    }

    /// The same rules, with another start position (for [`TieredGame::start`]).
    pub fn with_start(mut self, start: Board) -> BoardRules {
        self.start = start;
        self
    }

    /// The number of cells.
    pub const fn cells(&self) -> usize {
        self.columns * self.rows
    }

    fn full(&self) -> u64 {
        if self.cells() == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells()) - 1
        }
    }

    /// Whether the pieces `bits` contain a line of K.
    pub fn has_line(&self, bits: u64) -> bool {
        for &line in &self.lines {
            if bits & line == line {
                return true;
            }
        }
        false
    }

    fn column_height(&self, occupied: u64, column: usize) -> usize {
        (0..self.rows)
            .take_while(|j| occupied & (1u64 << ((self.rows - 1 - j) * self.columns + column)) != 0)
            .count()
    }

    /// The height of a column of a legal board (no floating pieces).
    fn height(&self, occupied: u64, column: usize) -> usize {
        (occupied & self.column_masks[column]).count_ones() as usize
    }

    /// The cell where a move in `column` lands, for gravity games.
    fn drop_cell(&self, occupied: u64, column: usize) -> Option<usize> {
        let h = self.height(occupied, column);
        (h < self.rows).then(|| (self.rows - 1 - h) * self.columns + column)
    }

    /// The cells a move can take: every empty cell, or each column's lowest free cell.
    fn targets(&self, board: Board) -> impl Iterator<Item = usize> + '_ {
        let occupied = board.x | board.o;
        let cells = self.cells();
        let free = !occupied & self.full();
        (0..if self.gravity { self.columns } else { cells }).filter_map(move |i| {
            if self.gravity {
                self.drop_cell(occupied, i)
            } else {
                (free >> i & 1 == 1).then_some(i)
            }
        })
    }

    /// Places the mover's piece on `cell`.
    fn play(&self, board: Board, cell: usize) -> Board {
        let bit = 1u64 << cell;
        if board.x_to_move() {
            Board {
                x: board.x | bit,
                ..board
            }
        } else {
            Board {
                o: board.o | bit,
                ..board
            }
        }
    }

    fn colex_rank(&self, bits: u64) -> u64 {
        let mut rank = 0u64;
        let mut rest = bits;
        let mut i = 1;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rank += self.binomial[p][i];
            rest &= rest - 1;
            i += 1;
        }
        rank
    }

    /// The `count`-element subset of `0..universe` with colex rank `rank`.
    fn colex_unrank(&self, mut rank: u64, count: usize, universe: usize) -> u64 {
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

    /// The number of shapes (occupied sets) with `n` pieces.
    fn shapes(&self, n: usize) -> u64 {
        if self.gravity {
            self.heights[self.columns].get(n).copied().unwrap_or(0)
        } else {
            self.binomial[self.cells()][n]
        }
    }

    fn shape_rank(&self, occupied: u64) -> u64 {
        if !self.gravity {
            return self.colex_rank(occupied);
        }
        let mut rest = occupied.count_ones() as usize;
        let mut rank = 0u64;
        for c in 0..self.columns {
            let h = self.height(occupied, c);
            let table = &self.heights[self.columns - c - 1];
            for v in 0..h {
                rank += table.get(rest - v).copied().unwrap_or(0);
            }
            rest -= h;
        }
        rank
    }

    fn shape_unrank(&self, n: usize, mut rank: u64) -> u64 {
        if !self.gravity {
            return self.colex_unrank(rank, n, self.cells());
        }
        let mut rest = n;
        let mut occupied = 0u64;
        for c in 0..self.columns {
            let table = &self.heights[self.columns - c - 1];
            let mut h = 0;
            loop {
                let ways = table.get(rest - h).copied().unwrap_or(0);
                if rank < ways {
                    break;
                }
                rank -= ways;
                h += 1;
            }
            for j in 0..h {
                occupied |= 1u64 << ((self.rows - 1 - j) * self.columns + c);
            }
            rest -= h;
        }
        occupied
    }

    /// The tier (piece count) and rank of a board.
    pub fn rank_board(&self, board: Board) -> (usize, u64) {
        let occupied = board.x | board.o;
        let n = occupied.count_ones() as usize;
        // One pass over the occupied cells: the colex rank of the occupied set, and the colex
        // rank of o's cells renumbered among them (branch-free: o's cells are unpredictable).
        let (mut shape, mut colour) = (0u64, 0u64);
        let (mut i, mut j) = (0usize, 0usize);
        let mut rest = occupied;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            shape += self.binomial[p][j + 1];
            let bit = (board.o >> p & 1) as usize;
            i += bit;
            colour += self.binomial[j][i] & 0u64.wrapping_sub(bit as u64);
            rest &= rest - 1;
            j += 1;
        }
        if self.gravity {
            shape = self.shape_rank(occupied);
        }
        (n, shape * self.binomial[n][n / 2] + colour)
    }

    /// The board of rank `index` in tier `n`, whatever its legality.
    pub fn unrank_board(&self, n: usize, index: u64) -> Board {
        let colours = self.binomial[n][n / 2];
        let occupied = self.shape_unrank(n, index / colours);
        let compressed = self.colex_unrank(index % colours, n / 2, n);
        let mut o = 0u64;
        let mut rest = occupied;
        let mut j = 0;
        while rest != 0 {
            let p = rest.trailing_zeros();
            o |= (compressed >> j & 1) << p;
            rest &= rest - 1;
            j += 1;
        }
        Board {
            x: occupied & !o,
            o,
        }
    }

    /// The move's text: a cell such as `b2` (column letter, row from the bottom), or a column
    /// number from 1 in gravity games.
    pub fn cell_name(&self, cell: usize) -> String {
        let (r, c) = (cell / self.columns, cell % self.columns);
        if self.gravity {
            (c + 1).to_string()
        } else {
            format!("{}{}", (b'a' + c as u8) as char, self.rows - r)
        }
    }

    /// Parses a board string (rows top to bottom, `x`, `o`, `.`; `/` and spaces ignored) and
    /// checks it can arise in play.
    ///
    /// # Errors
    /// A message naming the problem.
    pub fn parse_board(&self, text: &str) -> std::result::Result<Board, String> {
        let cells: Vec<char> = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '/')
            .collect();
        if cells.len() != self.cells() {
            return Err(format!(
                "the board needs {} cells ({} rows of {}), got {}",
                self.cells(),
                self.rows,
                self.columns,
                cells.len()
            ));
        }
        let mut board = Board::default();
        for (i, c) in cells.iter().enumerate() {
            match c.to_ascii_lowercase() {
                'x' => board.x |= 1 << i,
                'o' => board.o |= 1 << i,
                '.' => {}
                other => return Err(format!("unexpected '{other}': cells are x, o or .")),
            }
        }
        let (nx, no) = (board.x.count_ones(), board.o.count_ones());
        if nx != no && nx != no + 1 {
            return Err(format!(
                "x moves first, so x has as many pieces as o or one more; got {nx} x and {no} o"
            ));
        }
        if self.gravity {
            let occupied = board.x | board.o;
            for c in 0..self.columns {
                let h = self.column_height(occupied, c);
                if self.height(occupied, c) != h {
                    return Err(format!("column {} has a floating piece", c + 1));
                }
            }
        }
        let (x_line, o_line) = (self.has_line(board.x), self.has_line(board.o));
        if x_line && o_line {
            return Err("both players have a line".into());
        }
        if x_line && nx == no {
            return Err("x has a line, yet o moved after it".into());
        }
        if o_line && nx != no {
            return Err("o has a line, yet x moved after it".into());
        }
        Ok(board)
    }

    /// The board string: rows top to bottom, no separators.
    pub fn board_string(&self, board: Board) -> String {
        (0..self.cells())
            .map(|i| {
                if board.x >> i & 1 == 1 {
                    'x'
                } else if board.o >> i & 1 == 1 {
                    'o'
                } else {
                    '.'
                }
            })
            .collect()
    }

    /// The board drawn for a terminal, with coordinates.
    pub fn draw(&self, board: Board) -> String {
        let text: Vec<char> = self.board_string(board).chars().collect();
        let mut out = String::new();
        for r in 0..self.rows {
            if !self.gravity {
                out.push_str(&format!("{:>2} ", self.rows - r));
            }
            for c in 0..self.columns {
                out.push(' ');
                out.push(text[r * self.columns + c]);
            }
            out.push('\n');
        }
        out.push_str(if self.gravity { "" } else { "   " });
        for c in 0..self.columns {
            if self.gravity {
                out.push_str(&format!("{:>2}", (c + 1) % 10));
            } else {
                out.push(' ');
                out.push((b'a' + c as u8) as char);
            }
        }
        out.push_str(if board.x_to_move() {
            "\nx to move"
        } else {
            "\no to move"
        });
        out
    }
}

impl Game for BoardRules {
    type Position = Board;
}

impl TieredGame for BoardRules {
    fn tier_count(&self) -> usize {
        self.cells() + 1
    }

    fn tier_size(&self, tier: usize) -> u64 {
        self.shapes(tier)
            .saturating_mul(self.binomial[tier][tier / 2])
    }

    fn unrank(&self, tier: usize, index: u64) -> Option<Board> {
        let board = self.unrank_board(tier, index);
        let (mover, other) = board.sides();
        // Once a line is made the game is over: boards where the mover has one never arise.
        let _ = other;
        (!self.has_line(mover)).then_some(board)
    }

    fn rank(&self, board: &Board) -> (usize, u64) {
        self.rank_board(*board)
    }

    fn start(&self) -> Board {
        self.start
    }

    fn terminal(&self, board: &Board) -> Option<Terminal> {
        let (_, other) = board.sides();
        if self.has_line(other) {
            Some(Terminal::Loss)
        } else if (board.x | board.o) == self.full() {
            Some(Terminal::Tie)
        } else {
            None
        }
    }

    fn children(&self, board: &Board, out: &mut Vec<Board>) {
        out.extend(self.targets(*board).map(|cell| self.play(*board, cell)));
    }

    fn is_loopy(&self, _tier: usize) -> bool {
        false
    }
}

/// A board game with lines of K (m,n,k or connect), solved on first use through a
/// [`Store`]: the game a catalog entry builds.
pub struct BoardGame {
    strong: Strong<BoardRules>,
}

impl BoardGame {
    /// The game `spec` with `rules`, its solution kept in `store`.
    pub fn new(spec: String, rules: BoardRules, store: Arc<dyn Store>) -> BoardGame {
        BoardGame {
            strong: Strong::new(spec, rules, store),
        }
    }

    /// The same game, whose solves for queries stop when `budget` is spent.
    pub fn with_budget(mut self, budget: crate::budget::Budget) -> BoardGame {
        self.strong = self.strong.with_budget(budget);
        self
    }

    /// The rules.
    pub fn rules(&self) -> &BoardRules {
        self.strong.rules()
    }
}

impl Game for BoardGame {
    type Position = Board;
}

impl Evaluated for BoardGame {
    fn moves(&self, board: &Board) -> Result<Vec<Board>> {
        let rules = self.rules();
        if rules.terminal(board).is_some() {
            return Ok(Vec::new());
        }
        Ok(rules
            .targets(*board)
            .map(|cell| rules.play(*board, cell))
            .collect())
    }

    fn evaluate(&self, board: &Board) -> Result<Evaluation> {
        self.strong.evaluate(board)
    }

    fn solve(&self, start: &Board, progress: &dyn Progress) -> Option<Result<SolveReport>> {
        Some((|| {
            let (record, details) = self.strong.report(start, progress)?;
            let rules = self.rules().clone().with_start(*start);
            Ok(SolveReport {
                game: self.strong.spec().to_string(),
                position: Json::String(rules.board_string(*start)),
                outcome: record.value().outcome(),
                draw_kind: record.value().draw_kind(),
                remoteness: record.remoteness().map(u64::from),
                positions: self.strong.reachable(&rules, None)?,
                details,
            })
        })())
    }
}

impl Notation for BoardGame {
    fn parse_position(&self, words: &[&str]) -> std::result::Result<Board, ParseError> {
        if words.is_empty() {
            return Ok(Board::default());
        }
        Ok(self.rules().parse_board(&words.concat())?)
    }

    fn write_position(&self, board: &Board) -> String {
        self.rules().board_string(*board)
    }

    /// The cell the piece went to: `b2`, or the column (`3`) with gravity.
    fn write_move(&self, from: &Board, to: &Board) -> String {
        let placed = (to.x | to.o) & !(from.x | from.o);
        self.rules().cell_name(placed.trailing_zeros() as usize)
    }

    fn layout(&self) -> Layout {
        let rules = self.rules();
        Layout::Board {
            columns: rules.columns as u32,
            rows: rules.rows as u32,
            gravity: rules.gravity,
        }
    }

    fn render(&self, board: &Board) -> String {
        self.rules().draw(*board)
    }
}

/// Parses `M,N,K` (or `W,H,K`) parameters.
///
/// # Errors
/// Unless there are three numbers, each at most 64.
pub fn parse_params(params: &str, names: [&str; 3]) -> std::result::Result<[usize; 3], String> {
    let parts: Vec<&str> = params.split(',').collect();
    if parts.len() != 3 {
        return Err(format!(
            "expected three numbers {},{},{}",
            names[0], names[1], names[2]
        ));
    }
    let mut out = [0usize; 3];
    for (i, part) in parts.iter().enumerate() {
        let v = parse_u64(part, names[i])?;
        out[i] = usize::try_from(v)
            .ok()
            .filter(|&v| v <= 64)
            .ok_or_else(|| format!("{} must be at most 64", names[i]))?;
    }
    Ok(out)
}

/// Reads `mnk:M,N,K` (`gravity` false) or `connect:W,H,K` (`gravity` true): the canonical spec
/// and the rules.
///
/// # Errors
/// Bad numbers, or a board the rules refuse.
pub fn parse_board_game(
    params: &str,
    gravity: bool,
) -> std::result::Result<(String, BoardRules), String> {
    let (name, names) = if gravity {
        ("connect", ["W", "H", "K"])
    } else {
        ("mnk", ["M", "N", "K"])
    };
    let [m, n, k] = parse_params(params, names)?;
    let rules = BoardRules::new(m, n, k, gravity)?;
    Ok((format!("{name}:{m},{n},{k}"), rules))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::game::Value;
    use crate::solve::store::FileStore;
    use crate::solve::tiered;
    use crate::solve::tiered::Record;
    use std::collections::HashMap;

    fn rules(m: usize, n: usize, k: usize, gravity: bool) -> BoardRules {
        BoardRules::new(m, n, k, gravity).unwrap()
    }

    /// Plain minimax with memoisation on boards.
    pub(crate) fn minimax(
        rules: &BoardRules,
        board: Board,
        memo: &mut HashMap<Board, Record>,
    ) -> Record {
        if let Some(&r) = memo.get(&board) {
            return r;
        }
        let record = match rules.terminal(&board) {
            Some(Terminal::Loss) => Record::new(Value::Lose, 0),
            Some(Terminal::Tie) => Record::new(Value::Tie, 0),
            Some(Terminal::Win) => unreachable!(),
            None => {
                let mut children = Vec::new();
                rules.children(&board, &mut children);
                let values: Vec<Record> =
                    children.iter().map(|&c| minimax(rules, c, memo)).collect();
                let of = |v: Value| {
                    values
                        .iter()
                        .filter(move |r| r.value() == v)
                        .map(|r| r.remoteness().unwrap())
                };
                if let Some(m) = of(Value::Lose).min() {
                    Record::new(Value::Win, m + 1)
                } else if let Some(m) = of(Value::Tie).min() {
                    Record::new(Value::Tie, m + 1)
                } else {
                    Record::new(Value::Lose, of(Value::Win).max().unwrap() + 1)
                }
            }
        };
        memo.insert(board, record);
        record
    }

    #[test]
    fn tic_tac_toe_is_a_draw_with_5478_positions() {
        let game = rules(3, 3, 3, false);
        let solution = tiered::solve(&game, Some(2), u64::MAX, &()).unwrap();
        let start = solution.record(&game, &Board::default());
        assert_eq!(start, Record::new(Value::Tie, 9));
        assert_eq!(tiered::reachable(&game, Some(2)).unwrap(), 5478);
    }

    #[test]
    fn ranking_round_trips_over_every_tier() {
        for (m, n, gravity) in [(3, 3, false), (4, 3, true), (3, 4, true), (2, 5, false)] {
            let game = rules(m, n, 3, gravity);
            for tier in 0..game.tier_count() {
                for index in 0..game.tier_size(tier) {
                    let board = game.unrank_board(tier, index);
                    assert_eq!(game.rank_board(board), (tier, index), "{m}x{n} {board:?}");
                }
            }
        }
    }

    #[test]
    fn solver_agrees_with_minimax_on_random_sizes() {
        let mut seed = 0x1234_5678_u64;
        for _ in 0..12 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = 1 + (seed % 4) as usize;
            let n = 1 + (seed / 7 % 4) as usize;
            let k = 1 + (seed / 49 % 4) as usize;
            let gravity = seed / 343 % 2 == 1;
            if m * n > 12 {
                continue;
            }
            let game = rules(m, n, k, gravity);
            let solution =
                tiered::solve(&game, Some(1 + (seed % 2) as usize), u64::MAX, &()).unwrap();
            let mut memo = HashMap::new();
            minimax(&game, Board::default(), &mut memo);
            for (board, record) in memo {
                assert_eq!(
                    solution.record(&game, &board),
                    record,
                    "{m},{n},{k} gravity {gravity}: {}",
                    game.board_string(board)
                );
            }
        }
    }

    /// Board rules with the left-right mirror symmetry.
    struct Mirrored(BoardRules);

    impl Mirrored {
        fn mirror(&self, bits: u64) -> u64 {
            let r = &self.0;
            let mut out = 0;
            for cell in 0..r.cells() {
                if bits >> cell & 1 == 1 {
                    let (row, col) = (cell / r.columns, cell % r.columns);
                    out |= 1 << (row * r.columns + r.columns - 1 - col);
                }
            }
            out
        }
    }

    impl crate::game::Game for Mirrored {
        type Position = Board;
    }

    impl TieredGame for Mirrored {
        fn tier_count(&self) -> usize {
            self.0.tier_count()
        }
        fn tier_size(&self, tier: usize) -> u64 {
            self.0.tier_size(tier)
        }
        fn unrank(&self, tier: usize, index: u64) -> Option<Board> {
            self.0.unrank(tier, index)
        }
        fn rank(&self, board: &Board) -> (usize, u64) {
            self.0.rank(board)
        }
        fn start(&self) -> Board {
            self.0.start()
        }
        fn terminal(&self, board: &Board) -> Option<Terminal> {
            self.0.terminal(board)
        }
        fn children(&self, board: &Board, out: &mut Vec<Board>) {
            self.0.children(board, out)
        }
        fn is_loopy(&self, tier: usize) -> bool {
            self.0.is_loopy(tier)
        }
        fn canonical(&self, board: &Board) -> Board {
            let m = Board {
                x: self.mirror(board.x),
                o: self.mirror(board.o),
            };
            if self.0.rank(&m) < self.0.rank(board) {
                m
            } else {
                *board
            }
        }
    }

    #[test]
    fn symmetry_reduction_keeps_every_value() {
        for (m, n, k, gravity) in [(3, 3, 3, false), (4, 3, 3, true), (3, 4, 3, false)] {
            let plain = rules(m, n, k, gravity);
            let full = tiered::solve(&plain, Some(2), u64::MAX, &()).unwrap();
            let mirrored = Mirrored(rules(m, n, k, gravity));
            let reduced = tiered::solve(&mirrored, Some(2), u64::MAX, &()).unwrap();
            assert!(reduced.stats.positions < full.stats.positions);
            let mut memo = HashMap::new();
            minimax(&plain, Board::default(), &mut memo);
            for board in memo.keys() {
                assert_eq!(reduced.record(&mirrored, board), full.record(&plain, board));
            }
            let all = tiered::reachable(&plain, Some(1)).unwrap();
            let classes = tiered::reachable(&mirrored, Some(1)).unwrap();
            assert!(classes < all && 2 * classes > all, "{classes} of {all}");
        }
    }

    fn game(params: &str, gravity: bool) -> BoardGame {
        let (spec, rules) = parse_board_game(params, gravity).unwrap();
        BoardGame::new(spec, rules, Arc::new(FileStore::memory()))
    }

    #[test]
    fn games_too_large_are_refused_up_front() {
        let g = game("7,6,4", true);
        let err = g.evaluate(&Board::default()).unwrap_err();
        assert!(matches!(err, Error::Limit(_)), "{err}");
        assert!(err.to_string().contains("connect:7,6,4"), "{err}");
    }

    #[test]
    fn impossible_boards_are_refused() {
        let game = rules(3, 3, 3, false);
        assert!(game
            .parse_board("xxx......")
            .unwrap_err()
            .contains("x moves first"));
        assert!(game.parse_board("xxxooo...").unwrap_err().contains("both"));
        assert!(game
            .parse_board("xxxoo.o..")
            .unwrap_err()
            .contains("o moved"));
        assert!(game.parse_board("xx.oo....").is_ok());
        assert!(game.parse_board("xq.......").unwrap_err().contains("'q'"));
        assert!(game.parse_board("x..").unwrap_err().contains("9 cells"));
        assert!(game.parse_board("x../.o./...").is_ok());
    }

    #[test]
    fn queries_and_solve_of_the_typed_game() {
        let g = game("3,3,3", false);
        let p = g.parse_position(&["xx.oo...."]).unwrap();
        let e = g.evaluate(&p).unwrap();
        assert_eq!(e.outcome, crate::game::Outcome::N);
        assert_eq!(e.remoteness, Some(1));
        let wins: Vec<String> = g
            .moves(&p)
            .unwrap()
            .iter()
            .filter(|n| g.evaluate(n).unwrap().outcome == crate::game::Outcome::P)
            .map(|n| g.write_move(&p, n))
            .collect();
        assert_eq!(wins, ["c3"]);
        assert!(parse_board_game("3,3", false).is_err());
        assert!(parse_board_game("9,9,3", false).is_err());
        let solved = g.solve(&Board::default(), &()).unwrap().unwrap();
        assert_eq!(solved.positions, 5478);
        assert_eq!(solved.outcome, crate::game::Outcome::D);
        assert_eq!(solved.remoteness, Some(9));
    }
}
