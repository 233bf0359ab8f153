//! Teeko (`teeko`), John Scarne's game on a 5×5 board, strongly solved.
//!
//! # Rules
//! Each player has four pieces; x moves first. First the players alternate placing a piece on
//! an empty cell; once all eight are placed they alternate moving one of their pieces to an
//! adjacent empty cell (eight directions). Four in a straight line (row, column or diagonal) or
//! on the four cells of a 2×2 square wins. Play that never ends is a draw.
//!
//! # Representation
//! As in [`crate::games::quixo`]: the pieces of the player to move in the low half of a `u64`,
//! the opponent's in the high half. Tier k holds the boards with k pieces placed (the mover has
//! ⌊k/2⌋ of them); tiers 0 to 7 are the placement phase, each move leading to the next tier, and
//! tier 8, the movement phase, is the one loopy tier (C(25,8)·C(8,4) = 75,710,250 ranks). Boards
//! where the player to move already has a line cannot arise and are left out. Un-moves step a
//! piece back (or lift it, towards the placement tiers), so no reverse graph is stored, and only
//! positions canonical under the eight board symmetries are solved.

use crate::game::Terminal;
use crate::games::quixo::{pack, parse_turn, swap, Square, SquareRules};
use crate::solve::tiered::TieredGame;

const SIDE: usize = 5;
const CELLS: usize = SIDE * SIDE;
const PIECES: usize = 4;
const LOW: u64 = 0xFFFF_FFFF;

/// The rules of Teeko, ranked for [`crate::solve::tiered`].
#[derive(Clone, Debug)]
pub struct Teeko {
    square: Square,
    wins: Vec<u64>,
    adjacent: [u64; CELLS],
    symmetry: bool,
    start: u64,
}

impl Default for Teeko {
    fn default() -> Self {
        Teeko::new()
    }
}

impl Teeko {
    /// The standard rules.
    pub fn new() -> Teeko {
        let bit = |r: i32, c: i32| 1u64 << (r * SIDE as i32 + c);
        let inside =
            |r: i32, c: i32| (0..SIDE as i32).contains(&r) && (0..SIDE as i32).contains(&c);
        let mut wins = Vec::new();
        for r in 0..SIDE as i32 {
            for c in 0..SIDE as i32 {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    if inside(r + 3 * dr, c + 3 * dc) {
                        wins.push((0..4).map(|i| bit(r + i * dr, c + i * dc)).sum());
                    }
                }
                if inside(r + 1, c + 1) {
                    wins.push(bit(r, c) | bit(r + 1, c) | bit(r, c + 1) | bit(r + 1, c + 1));
                }
            }
        }
        let mut adjacent = [0u64; CELLS];
        for r in 0..SIDE as i32 {
            for c in 0..SIDE as i32 {
                for dr in -1..=1 {
                    for dc in -1..=1 {
                        if (dr, dc) != (0, 0) && inside(r + dr, c + dc) {
                            adjacent[(r * SIDE as i32 + c) as usize] |= bit(r + dr, c + dc);
                        }
                    }
                }
            }
        }
        Teeko {
            square: Square::new(SIDE),
            wins,
            adjacent,
            symmetry: true,
            start: 0,
        }
    }

    /// The same rules, solving every position rather than one a symmetry class.
    pub fn without_symmetry(mut self) -> Teeko {
        self.symmetry = false;
        self
    }

    /// The same rules from another start (a packed position, mover low).
    pub fn with_start(mut self, start: u64) -> Teeko {
        self.start = start;
        self
    }

    /// The number of winning patterns (lines of four and 2×2 squares).
    pub fn pattern_count(&self) -> usize {
        self.wins.len()
    }

    /// Whether the pieces `bits` form a line of four or a square.
    #[inline]
    pub fn has_win(&self, bits: u64) -> bool {
        bits.count_ones() >= PIECES as u32 && self.wins.iter().any(|&w| w & !bits == 0)
    }

    /// Every move of a non-terminal position: (from cell, or `None` when placing; to cell; child).
    fn moves(&self, p: u64) -> Vec<(Option<usize>, usize, u64)> {
        let occupied = (p | p >> 32) & LOW;
        let empty = !occupied & ((1 << CELLS) - 1);
        let mut out = Vec::new();
        if occupied.count_ones() < 2 * PIECES as u32 {
            let mut rest = empty;
            while rest != 0 {
                let to = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                out.push((None, to, swap(p | 1 << to)));
            }
        } else {
            let mut pieces = p & LOW;
            while pieces != 0 {
                let from = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                let mut targets = self.adjacent[from] & empty;
                while targets != 0 {
                    let to = targets.trailing_zeros() as usize;
                    targets &= targets - 1;
                    out.push((Some(from), to, swap(p ^ (1 << from) ^ (1 << to))));
                }
            }
        }
        out
    }

    /// Parents by stepping one of the previous mover's pieces back (`steps`) and by lifting one
    /// (`lifts`).
    #[inline]
    fn un_moves(&self, p: u64, steps: bool, lifts: bool, out: &mut Vec<u64>) {
        let occupied = (p | p >> 32) & LOW;
        let empty = !occupied & ((1 << CELLS) - 1);
        let mut pieces = p >> 32;
        let moving = occupied.count_ones() == 2 * PIECES as u32;
        while pieces != 0 {
            let at = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            if lifts {
                out.push(swap(p ^ 1 << (32 + at)));
            }
            if steps && moving {
                let mut sources = self.adjacent[at] & empty;
                while sources != 0 {
                    let from = sources.trailing_zeros() as usize;
                    sources &= sources - 1;
                    out.push(swap(p ^ (1 << (32 + at)) ^ (1 << (32 + from))));
                }
            }
        }
    }
}

impl crate::game::Game for Teeko {
    type Position = u64;
}

impl TieredGame for Teeko {
    fn tier_count(&self) -> usize {
        2 * PIECES + 1
    }

    fn tier_size(&self, tier: usize) -> u64 {
        let c = &self.square.binomial;
        c[CELLS][tier] * c[tier][tier / 2]
    }

    fn unrank(&self, tier: usize, index: u64) -> Option<u64> {
        let colours = self.square.binomial[tier][tier / 2];
        let p = self
            .square
            .unrank_sides(tier, tier / 2, index / colours, index % colours);
        (!self.has_win(p & LOW)).then_some(p)
    }

    fn rank(&self, &p: &u64) -> (usize, u64) {
        let occupied = (p | p >> 32) & LOW;
        let tier = occupied.count_ones() as usize;
        let (shape, colour) = self.square.rank_sides(p & LOW, occupied);
        (tier, shape * self.square.binomial[tier][tier / 2] + colour)
    }

    fn start(&self) -> u64 {
        self.start
    }

    fn terminal(&self, &p: &u64) -> Option<Terminal> {
        self.has_win(p >> 32).then_some(Terminal::Loss)
    }

    fn children(&self, &p: &u64, out: &mut Vec<u64>) {
        out.extend(self.moves(p).into_iter().map(|(_, _, c)| c));
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

    fn is_loopy(&self, tier: usize) -> bool {
        tier == 2 * PIECES
    }

    fn canonical(&self, &p: &u64) -> u64 {
        if self.symmetry {
            self.square.canonical(p)
        } else {
            p
        }
    }
}

impl SquareRules for Teeko {
    fn spec(&self) -> String {
        "teeko".into()
    }

    fn square(&self) -> &Square {
        &self.square
    }

    fn named_moves(&self, p: u64) -> Vec<(String, u64)> {
        self.moves(p)
            .into_iter()
            .map(|(from, to, c)| {
                let to = self.square.cell_name(to);
                let text = match from {
                    Some(f) => format!("{}-{to}", self.square.cell_name(f)),
                    None => to,
                };
                (text, c)
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
        let (nx, no) = (x.count_ones(), o.count_ones());
        if nx > PIECES as u32 || no > PIECES as u32 {
            return Err(format!(
                "each player has {PIECES} pieces; got {nx} x and {no} o"
            ));
        }
        let x_to_move = if nx + no < 2 * PIECES as u32 {
            if nx != no && nx != no + 1 {
                return Err(format!(
                    "x places first, so x has as many pieces as o or one more; got {nx} x and {no} o"
                ));
            }
            let derived = nx == no;
            if turn.is_some() && parse_turn(turn)? != derived {
                return Err(format!(
                    "while placing, the player to move follows from the counts: {} to move",
                    if derived { 'x' } else { 'o' }
                ));
            }
            derived
        } else {
            parse_turn(turn)?
        };
        let (xw, ow) = (self.has_win(x), self.has_win(o));
        if (xw && x_to_move) || (ow && !x_to_move) {
            return Err(
                "the player to move already has four in a row or a square: the game ended before"
                    .into(),
            );
        }
        Ok((pack(x, o, x_to_move), x_to_move))
    }

    fn plain(&self) -> Self {
        self.clone().without_symmetry()
    }

    fn starting_at(&self, start: u64) -> Self {
        self.clone().with_start(start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::tiered::testing::{check_all_ranks, check_local, check_un_moves};

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    #[test]
    fn forty_four_winning_patterns() {
        let game = Teeko::new();
        // 10 rows, 10 columns, 8 diagonals, 16 squares.
        assert_eq!(game.pattern_count(), 44);
        assert!(game.has_win(0b11 | 0b11 << 5));
        assert!(game.has_win(1 | 1 << 6 | 1 << 12 | 1 << 18));
        assert!(!game.has_win(0b1111 << 3), "no wrapping round a row");
        assert!(game.has_win(0b1111 << 1));
        assert!(!game.has_win(0b111 | 1 << 5));
    }

    #[test]
    fn tiers_add_up_to_the_index_space() {
        let game = Teeko::new();
        let total: u64 = (0..game.tier_count()).map(|t| game.tier_size(t)).sum();
        // GamesmanOne's 172,401,726 counts the movement tier twice (with the turn).
        assert_eq!(total + game.tier_size(8), 172_401_726);
        assert_eq!(game.tier_size(8), 75_710_250);
    }

    #[test]
    fn ranking_round_trips_over_every_tier() {
        let game = Teeko::new();
        let mut rng = Rng(99);
        for tier in 0..game.tier_count() {
            let size = game.tier_size(tier);
            let samples: Vec<u64> = if size <= 20_000 {
                (0..size).collect()
            } else {
                (0..20_000)
                    .map(|_| rng.next() % size)
                    .chain([0, size - 1])
                    .collect()
            };
            for index in samples {
                if let Some(p) = game.unrank(tier, index) {
                    assert_eq!(game.rank(&p), (tier, index));
                    assert_eq!((p & LOW).count_ones() as usize, tier / 2);
                }
            }
        }
    }

    #[test]
    fn un_moves_invert_moves() {
        let game = Teeko::new();
        let mut rng = Rng(4242);
        for tier in 0..game.tier_count() {
            let size = game.tier_size(tier);
            let samples: Vec<u64> = if size <= 2000 {
                (0..size).collect()
            } else {
                (0..2000).map(|_| rng.next() % size).collect()
            };
            check_un_moves(&game, tier, &samples);
        }
    }

    #[test]
    fn moves_by_phase() {
        let game = Teeko::new();
        assert_eq!(game.moves(0).len(), 25);
        // All eight placed: x in a corner can go to three cells, unless blocked.
        let x = 1 | 1 << 2 | 1 << 10 | 1 << 24;
        let o = 1 << 1 | 1 << 5 | 1 << 6 | 1 << 13;
        let p = pack(x, o, true);
        let moves = game.named_moves(p);
        assert!(moves.iter().all(|(t, _)| t.contains('-')));
        assert!(!moves.iter().any(|(t, _)| t.starts_with("a5")));
        let mut children = Vec::new();
        game.children(&p, &mut children);
        assert_eq!(children.len(), moves.len());
        assert_eq!(
            game.terminal(&pack(x, 0b11 | 0b11 << 5, true)),
            Some(Terminal::Loss)
        );
    }

    /// The full solve (release: `cargo test --release -p sprague teeko_is -- --ignored`): Teeko
    /// is a draw (as Guy Steele found in 1998), and random positions of every tier satisfy the
    /// retrograde equations.
    #[test]
    #[ignore]
    fn teeko_is_a_draw_and_locally_consistent() {
        let game = Teeko::new();
        check_all_ranks(&game, false);
        let solution = crate::solve::tiered::solve(&game, Some(2), u64::MAX, &()).unwrap();
        let start = solution.record(&game, &0);
        assert_eq!(start.value(), crate::solve::tiered::Value::Draw);
        let mut rng = Rng(2024);
        let mut samples = Vec::new();
        for tier in 0..game.tier_count() {
            let size = game.tier_size(tier);
            for _ in 0..20_000 {
                samples.extend(game.unrank(tier, rng.next() % size));
            }
        }
        let n = samples.len() as u64;
        assert_eq!(check_local(&game, &solution, samples.into_iter()), n);
    }

    #[test]
    fn bad_positions_are_clear_errors() {
        let game = Teeko::new();
        let position_error = |words: &[&str]| game.parse(words).unwrap_err();
        assert!(position_error(&["x...."]).contains("25 cells"));
        assert!(position_error(&["xxxxx...................."]).contains("4 pieces"));
        assert!(position_error(&["xx......................."]).contains("one more"));
        assert!(position_error(&["x........................", "x"]).contains("o to move"));
        assert!(position_error(&["xxxx.oooo................", "x"]).contains("game ended"));
        assert!(game.parse(&["xxx.o.o.o.o.x............", "o"]).is_ok());
    }
}
