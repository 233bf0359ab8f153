//! The loopy card game of seed 004, generalised to `cards:N,M`.
//!
//! Each player holds N cards valued 0..M-1. On a turn the player to move picks one of their own
//! cards x and replaces it by (x + y) mod M, where y is the card the opponent played last (0
//! before anyone has played); the card played is x, its value before the change. A player wins as
//! soon as one of their cards is 0 after their own move. So the player to move has lost when the
//! opponent holds a 0; a 0 in the mover's own hand (only possible in a given start position)
//! counts after the mover's next move. Play can go on for ever: those positions are draws, found by
//! retrograde analysis.
//!
//! The rules do not depend on who is to move, so the game is impartial under normal play (a
//! finished position has no moves), and positions also get generalized Sprague–Grundy values.

use crate::error::{Error, Result};
use crate::game::notation::parse_u64;
use crate::game::ParseError;
use crate::game::{Evaluated, Evaluation, Game, Notation, SolveReport, Terminal, TwoPlayer, Value};
use crate::progress::Progress;
use crate::solve::graph::explore;
use crate::solve::loopy::{loopy_values, LoopyValues};
use crate::solve::retrograde::{retrograde, Counts, Retrograde};
use crate::solve::tiered::TieredGame;
use serde_json::{json, Value as Json};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// The most cards in a hand.
pub const MAX_CARDS: usize = 7;

/// The most card values (M).
pub const MAX_VALUES: u32 = 256;

/// The most states the solved table may hold.
pub const STATE_LIMIT: u64 = 3_000_000;

/// The rules of `cards:N,M`: N cards a hand, values 0..M-1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cards {
    n: usize,
    m: u32,
}

/// A position of the card game: the hands (sorted, since the order of cards does not matter) and
/// the card the opponent played last.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CardsPosition {
    /// The hand of the player to move.
    pub mover: Vec<u8>,
    /// The hand of the other player.
    pub opponent: Vec<u8>,
    /// y: the card the opponent played last (0 before anyone has played).
    pub last: u8,
}

impl fmt::Display for CardsPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hand = |h: &[u8]| h.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        write!(
            f,
            "{} {} {}",
            hand(&self.mover),
            hand(&self.opponent),
            self.last
        )
    }
}

impl Cards {
    /// The rules for N cards a hand and values 0..M-1.
    ///
    /// # Errors
    /// [`Error::Spec`] unless 1 ≤ N ≤ [`MAX_CARDS`] and 1 ≤ M ≤ [`MAX_VALUES`].
    pub fn new(n: u64, m: u64) -> Result<Cards> {
        let spec = format!("cards:{n},{m}");
        if n == 0 || n > MAX_CARDS as u64 {
            return Err(Error::spec(
                spec,
                format!("the number of cards a hand must be between 1 and {MAX_CARDS}, got {n}"),
            ));
        }
        if m == 0 || m > u64::from(MAX_VALUES) {
            return Err(Error::spec(
                spec,
                format!("the number of card values must be between 1 and {MAX_VALUES}, got {m}"),
            ));
        }
        Ok(Cards {
            n: n as usize,
            m: m as u32,
        })
    }

    /// Cards a hand (N).
    pub fn cards(&self) -> usize {
        self.n
    }

    /// Card values (M).
    pub fn values(&self) -> u32 {
        self.m
    }

    /// The spec, `cards:N,M`.
    pub fn spec(&self) -> String {
        format!("cards:{},{}", self.n, self.m)
    }

    /// The number of states: (multisets of N values)² × M choices of y.
    pub fn state_count(&self) -> u128 {
        let hands = binomial(self.m as u128 + self.n as u128 - 1, self.n as u128);
        hands * hands * self.m as u128
    }

    /// Checks a position against the rules and sorts its hands.
    ///
    /// # Errors
    /// [`Error::Position`] for a hand of the wrong size or a card not below M.
    pub fn check(&self, position: &CardsPosition) -> Result<CardsPosition> {
        let bad = |reason: String| Error::position(self.spec(), reason);
        for (who, hand) in [
            ("mover's", &position.mover),
            ("opponent's", &position.opponent),
        ] {
            if hand.len() != self.n {
                return Err(bad(format!(
                    "the {who} hand has {}; this game deals {} to each player",
                    count(hand.len(), "card"),
                    count(self.n, "card")
                )));
            }
            if let Some(c) = hand.iter().find(|&&c| u32::from(c) >= self.m) {
                return Err(bad(format!(
                    "card {c} in the {who} hand is not below M = {}",
                    self.m
                )));
            }
        }
        if u32::from(position.last) >= self.m {
            return Err(bad(format!(
                "the last played card {} is not below M = {}",
                position.last, self.m
            )));
        }
        let mut out = position.clone();
        out.mover.sort_unstable();
        out.opponent.sort_unstable();
        Ok(out)
    }

    /// The moves of the player to move: `(x, new card, position after)` for each distinct card x
    /// in their hand. None when the game is over.
    pub fn moves(&self, position: &CardsPosition) -> Vec<(u8, u8, CardsPosition)> {
        if position.opponent.contains(&0) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (i, &x) in position.mover.iter().enumerate() {
            if i > 0 && position.mover[i - 1] == x {
                continue;
            }
            let new = ((u32::from(x) + u32::from(position.last)) % self.m) as u8;
            let mut hand = position.mover.clone();
            hand[i] = new;
            hand.sort_unstable();
            out.push((
                x,
                new,
                CardsPosition {
                    mover: position.opponent.clone(),
                    opponent: hand,
                    last: x,
                },
            ));
        }
        out
    }

    /// Every state, with sorted hands.
    fn all_states(&self) -> Vec<u128> {
        let hands = multisets(self.n, self.m);
        let mut out = Vec::with_capacity(hands.len() * hands.len() * self.m as usize);
        for a in &hands {
            for b in &hands {
                for y in 0..self.m {
                    out.push(self.pack(a, b, y as u8));
                }
            }
        }
        out
    }

    fn pack(&self, mover: &[u8], opponent: &[u8], last: u8) -> u128 {
        let mut key = u128::from(last);
        for (i, &c) in mover.iter().chain(opponent).enumerate() {
            key |= u128::from(c) << (8 * (i + 1));
        }
        key
    }

    fn pack_position(&self, p: &CardsPosition) -> u128 {
        self.pack(&p.mover, &p.opponent, p.last)
    }

    fn unpack(&self, key: u128) -> CardsPosition {
        let byte = |i: usize| (key >> (8 * i)) as u8;
        CardsPosition {
            mover: (0..self.n).map(|i| byte(i + 1)).collect(),
            opponent: (0..self.n).map(|i| byte(self.n + i + 1)).collect(),
            last: byte(0),
        }
    }
}

impl Game for Cards {
    type Position = CardsPosition;
}

impl TwoPlayer for Cards {
    fn terminal(&self, position: &CardsPosition) -> Option<Terminal> {
        position.opponent.contains(&0).then_some(Terminal::Loss)
    }

    fn options(&self, position: &CardsPosition) -> Vec<CardsPosition> {
        self.moves(position)
            .into_iter()
            .map(|(_, _, p)| p)
            .collect()
    }
}

/// The same rules on positions packed into one integer, for solving the whole state space.
struct Packed(Cards);

impl Game for Packed {
    type Position = u128;
}

impl TwoPlayer for Packed {
    fn terminal(&self, &key: &u128) -> Option<Terminal> {
        self.0.terminal(&self.0.unpack(key))
    }

    fn options(&self, &key: &u128) -> Vec<u128> {
        let position = self.0.unpack(key);
        self.0
            .moves(&position)
            .iter()
            .map(|(_, _, p)| self.0.pack_position(p))
            .collect()
    }
}

/// The card game ranked densely for the tiered retrograde solver
/// ([`crate::solve::tiered`]): one loopy tier of (mover's hand, opponent's hand, y), hands ranked
/// among the sorted hands.
pub struct RankedCards {
    cards: Cards,
    hands: Vec<Vec<u8>>,
}

impl RankedCards {
    /// The ranking for these rules.
    pub fn new(cards: Cards) -> Self {
        RankedCards {
            cards,
            hands: multisets(cards.n, cards.m),
        }
    }

    fn hand_rank(&self, hand: &[u8]) -> u64 {
        // `multisets` lists sorted hands in lexicographic order, and positions keep hands sorted.
        self.hands
            .binary_search_by(|h| h.as_slice().cmp(hand))
            .unwrap_or(0) as u64
    }
}

impl Game for RankedCards {
    /// Positions travel packed (see [`Cards`]'s packing), since the solver wants `Copy` values.
    type Position = u128;
}

impl TieredGame for RankedCards {
    fn tier_count(&self) -> usize {
        1
    }

    fn tier_size(&self, _tier: usize) -> u64 {
        let hands = self.hands.len() as u64;
        hands * hands * u64::from(self.cards.m)
    }

    fn unrank(&self, _tier: usize, index: u64) -> Option<u128> {
        let m = u64::from(self.cards.m);
        let hands = self.hands.len() as u64;
        let rest = index / m;
        Some(self.cards.pack_position(&CardsPosition {
            mover: self.hands[(rest / hands) as usize].clone(),
            opponent: self.hands[(rest % hands) as usize].clone(),
            last: (index % m) as u8,
        }))
    }

    fn rank(&self, &key: &u128) -> (usize, u64) {
        let position = self.cards.unpack(key);
        let m = u64::from(self.cards.m);
        let hands = self.hands.len() as u64;
        let pair = self.hand_rank(&position.mover) * hands + self.hand_rank(&position.opponent);
        (0, pair * m + u64::from(position.last))
    }

    fn start(&self) -> u128 {
        self.cards
            .pack_position(&CardsGame::new(self.cards).default_start())
    }

    fn terminal(&self, key: &u128) -> Option<Terminal> {
        Packed(self.cards).terminal(key)
    }

    fn children(&self, key: &u128, out: &mut Vec<u128>) {
        out.extend(Packed(self.cards).options(key));
    }
}

/// "1 card", "2 cards".
fn count(k: usize, noun: &str) -> String {
    if k == 1 {
        format!("1 {noun}")
    } else {
        format!("{k} {noun}s")
    }
}

fn binomial(n: u128, k: u128) -> u128 {
    // Exact at every step: the running product of i consecutive numbers is divisible by i!.
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Sorted hands of `n` cards with values below `m`.
fn multisets(n: usize, m: u32) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut hand = vec![0u8; n];
    fn fill(hand: &mut Vec<u8>, at: usize, low: u32, m: u32, out: &mut Vec<Vec<u8>>) {
        if at == hand.len() {
            out.push(hand.clone());
            return;
        }
        for c in low..m {
            hand[at] = c as u8;
            fill(hand, at + 1, c, m, out);
        }
    }
    fill(&mut hand, 0, 0, m, &mut out);
    out
}

/// The whole state space of one game, solved.
struct Table {
    index: HashMap<u128, u32>,
    values: Retrograde,
    loopy: LoopyValues,
    draws: Vec<Option<crate::game::DrawLevel>>,
}

impl Table {
    fn build(cards: Cards) -> Result<Table> {
        let states = cards.state_count();
        if states > u128::from(STATE_LIMIT) {
            return Err(Error::Limit(format!(
                "{} has {states} states, more than the {STATE_LIMIT} the solver stores; use fewer cards or values",
                cards.spec()
            )));
        }
        let explored = explore(&Packed(cards), cards.all_states(), STATE_LIMIT as usize)?;
        let values = retrograde(&explored.graph, |v| explored.terminal[v as usize]);
        let loopy = loopy_values(&explored.graph);
        let draws = crate::solve::draws::draw_levels(&explored.graph, &values);
        Ok(Table {
            index: explored.index,
            values,
            loopy,
            draws,
        })
    }

    fn vertex(&self, key: u128) -> Result<u32> {
        self.index
            .get(&key)
            .copied()
            .ok_or_else(|| Error::Internal("a card position is missing from the table".into()))
    }
}

/// A parsed `cards:N,M` spec, with its solved table built on first use.
pub struct CardsGame {
    cards: Cards,
    table: OnceLock<Result<Table>>,
}

impl CardsGame {
    /// The game for these rules.
    pub fn new(cards: Cards) -> Self {
        CardsGame {
            cards,
            table: OnceLock::new(),
        }
    }

    /// The spec, `cards:N,M`.
    pub fn spec(&self) -> String {
        self.cards.spec()
    }

    fn table(&self) -> Result<&Table> {
        self.table
            .get_or_init(|| Table::build(self.cards))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The value and remoteness of `position` (checked and sorted first), from the solved table.
    pub fn solve_position(&self, position: &CardsPosition) -> Result<Evaluation> {
        let position = self.cards.check(position)?;
        let table = self.table()?;
        let v = table.vertex(self.cards.pack_position(&position))?;
        let solved = table.values.get(v);
        Ok(Evaluation {
            nim_value: table.loopy.finite(v),
            draw_level: table.draws[v as usize],
            ..Evaluation::of(solved.value, solved.remoteness.map(u64::from))
        })
    }

    /// How many of all states have each value.
    pub fn counts(&self) -> Result<Counts> {
        Ok(self.table()?.values.counts())
    }

    fn default_start(&self) -> CardsPosition {
        let one = (1 % self.cards.m) as u8;
        CardsPosition {
            mover: vec![one; self.cards.n],
            opponent: vec![one; self.cards.n],
            last: 0,
        }
    }

    fn parse(&self, args: &[&str]) -> Result<CardsPosition> {
        let spec = self.cards.spec();
        let bad = |reason: String| Error::position(spec.clone(), reason);
        let (mover, opponent, last) = match args {
            [a, b] => (a, b, None),
            [a, b, y] => (a, b, Some(y)),
            _ => {
                return Err(bad(format!(
                    "expected the mover's hand, the opponent's hand and optionally the last played card, e.g. '{}', got {}",
                    self.default_start(),
                    count(args.len(), "word")
                )))
            }
        };
        let card = |text: &str, what: &str| -> Result<u8> {
            let c = parse_u64(text, what).map_err(&bad)?;
            if c >= u64::from(self.cards.m) {
                return Err(bad(format!("{what} {c} is not below M = {}", self.cards.m)));
            }
            Ok(c as u8)
        };
        let hand = |text: &str, who: &str| -> Result<Vec<u8>> {
            text.split(',')
                .map(|c| card(c, &format!("a card in the {who} hand")))
                .collect()
        };
        let position = CardsPosition {
            mover: hand(mover, "mover's")?,
            opponent: hand(opponent, "opponent's")?,
            last: match last {
                Some(y) => card(y, "the last played card")?,
                None => 0,
            },
        };
        self.cards.check(&position)
    }
}

fn position_json(p: &CardsPosition) -> Json {
    json!({"mover": p.mover, "opponent": p.opponent, "last": p.last})
}

fn counts_json(c: Counts) -> Json {
    json!({"wins": c.wins, "losses": c.losses, "draws": c.draws})
}

impl CardsGame {
    fn solve_report(&self, start: &CardsPosition, progress: &dyn Progress) -> Result<SolveReport> {
        let total = u64::try_from(self.cards.state_count()).unwrap_or(u64::MAX);
        progress.start("solving every state", total);
        let table = self.table()?;
        progress.finish();
        let evaluation = self.solve_position(start)?;
        let reachable = explore(
            &Packed(self.cards),
            [self.cards.pack_position(start)],
            STATE_LIMIT as usize,
        )?;
        let mut counts = Counts::default();
        for key in &reachable.positions {
            match table.values.value(table.vertex(*key)?) {
                Value::Win => counts.wins += 1,
                Value::Lose => counts.losses += 1,
                Value::Tie => counts.ties += 1,
                Value::Draw => counts.draws += 1,
            }
        }
        let mut details = serde_json::Map::new();
        details.insert("reachable".into(), counts_json(counts));
        let all = table.values.counts();
        let mut all_json = counts_json(all);
        all_json["states"] = json!(table.values.len());
        details.insert("all_states".into(), all_json);
        Ok(SolveReport {
            game: self.cards.spec(),
            position: position_json(start),
            outcome: evaluation.outcome,
            draw_kind: evaluation.value().draw_kind(),
            remoteness: evaluation.remoteness,
            positions: reachable.positions.len() as u64,
            details,
        })
    }
}

impl Game for CardsGame {
    type Position = CardsPosition;
}

impl Evaluated for CardsGame {
    fn moves(&self, position: &CardsPosition) -> Result<Vec<CardsPosition>> {
        Ok(self
            .cards
            .moves(position)
            .into_iter()
            .map(|(_, _, next)| next)
            .collect())
    }

    fn evaluate(&self, position: &CardsPosition) -> Result<Evaluation> {
        self.solve_position(position)
    }

    fn solve(&self, start: &CardsPosition, progress: &dyn Progress) -> Option<Result<SolveReport>> {
        Some(self.solve_report(start, progress))
    }
}

impl Notation for CardsGame {
    /// No words: the start, every card 1 and y = 0.
    fn parse_position(&self, words: &[&str]) -> std::result::Result<CardsPosition, ParseError> {
        if words.is_empty() {
            return Ok(self.default_start());
        }
        self.parse(words).map_err(|e| match e {
            Error::Position { reason, .. } => reason.into(),
            other => other.into(),
        })
    }

    fn write_position(&self, p: &CardsPosition) -> String {
        p.to_string()
    }

    fn position_json(&self, p: &CardsPosition) -> Json {
        position_json(p)
    }

    /// `x -> new`: the card played and what it became.
    fn write_move(&self, from: &CardsPosition, to: &CardsPosition) -> String {
        self.cards
            .moves(from)
            .into_iter()
            .find(|(_, _, next)| next == to)
            .map_or_else(|| "?".into(), |(x, new, _)| format!("{x} -> {new}"))
    }
}

/// Reads `cards:N,M`'s parameters.
///
/// # Errors
/// [`Error::Spec`] unless there are two numbers in range.
pub fn parse_cards(params: &str) -> Result<CardsGame> {
    let spec = format!("cards:{params}");
    let parts: Vec<&str> = params.split(',').collect();
    let [n, m] = parts.as_slice() else {
        return Err(Error::spec(
            spec,
            format!("cards takes two parameters N,M, got {}", parts.len()),
        ));
    };
    let n = parse_u64(n, "the number of cards a hand").map_err(|r| Error::spec(&spec, r))?;
    let m = parse_u64(m, "the number of card values").map_err(|r| Error::spec(&spec, r))?;
    Ok(CardsGame::new(Cards::new(n, m)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;
    use crate::solve::solve_game;

    fn game(n: u64, m: u64) -> CardsGame {
        CardsGame::new(Cards::new(n, m).unwrap())
    }

    fn position(mover: &[u8], opponent: &[u8], last: u8) -> CardsPosition {
        CardsPosition {
            mover: mover.to_vec(),
            opponent: opponent.to_vec(),
            last,
        }
    }

    fn eval(g: &CardsGame, p: CardsPosition) -> (Outcome, Option<u64>) {
        let e = g.solve_position(&p).unwrap();
        (e.outcome, e.remoteness)
    }

    #[test]
    fn one_card_two_values_solved_by_hand() {
        // One card of value 0 or 1 each. (1 | 1, y=1): play 1 -> 0 and win.
        // (1 | 1, y=0): play 1 -> 1, leaving (1 | 1, y=1) to the opponent: a loss in 2.
        // (0 | 1, y=1): play 0 -> 1, leaving (1 | 1, y=0): a win in 3.
        // (0 | 1, y=0): play 0 -> 0, keeping the 0: a win in 1.
        let g = game(1, 2);
        assert_eq!(eval(&g, position(&[1], &[1], 1)), (Outcome::N, Some(1)));
        assert_eq!(eval(&g, position(&[1], &[1], 0)), (Outcome::P, Some(2)));
        assert_eq!(eval(&g, position(&[0], &[1], 1)), (Outcome::N, Some(3)));
        assert_eq!(eval(&g, position(&[0], &[1], 0)), (Outcome::N, Some(1)));
        assert_eq!(eval(&g, position(&[1], &[0], 0)), (Outcome::P, Some(0)));
        assert_eq!(g.counts().unwrap().draws, 0);
    }

    #[test]
    fn seed_game_positions_by_hand() {
        let g = game(2, 10);
        // The opponent already holds a 0: the mover has lost.
        assert_eq!(
            eval(&g, position(&[1, 2], &[3, 0], 5)),
            (Outcome::P, Some(0))
        );
        // 1 + 9 = 10 = 0 (mod 10): an immediate win.
        assert_eq!(
            eval(&g, position(&[1, 2], &[3, 4], 9)),
            (Outcome::N, Some(1))
        );
        // The mover keeps a 0 whatever they change, and wins at once.
        assert_eq!(
            eval(&g, position(&[0, 5], &[3, 4], 0)),
            (Outcome::N, Some(1))
        );
        // Hand order does not matter.
        assert_eq!(
            g.solve_position(&position(&[4, 3], &[2, 1], 7)).unwrap(),
            g.solve_position(&position(&[3, 4], &[1, 2], 7)).unwrap()
        );
        assert_eq!(Cards::new(2, 10).unwrap().state_count(), 55 * 55 * 10);
        let c = g.counts().unwrap();
        assert_eq!(c.wins + c.losses + c.draws, 55 * 55 * 10);
        assert!(c.draws > 0, "the seed's game has draws");
    }

    /// Every value in the table is consistent with the values of the options.
    #[test]
    fn table_is_locally_consistent() {
        let cards = Cards::new(2, 10).unwrap();
        let g = CardsGame::new(cards);
        for key in cards.all_states() {
            let p = cards.unpack(key);
            let e = g.solve_position(&p).unwrap();
            let options: Vec<Evaluation> = cards
                .options(&p)
                .iter()
                .map(|o| g.solve_position(o).unwrap())
                .collect();
            let rem = |o: &Evaluation| o.remoteness.unwrap();
            match e.outcome {
                Outcome::P if options.is_empty() => assert_eq!(e.remoteness, Some(0)),
                Outcome::P => {
                    assert!(options.iter().all(|o| o.outcome == Outcome::N), "{p}");
                    assert_eq!(e.remoteness, options.iter().map(|o| rem(o) + 1).max());
                }
                Outcome::N => assert_eq!(
                    e.remoteness,
                    options
                        .iter()
                        .filter(|o| o.outcome == Outcome::P)
                        .map(|o| rem(o) + 1)
                        .min()
                ),
                Outcome::D => {
                    assert_eq!(e.remoteness, None);
                    assert!(options.iter().all(|o| o.outcome != Outcome::P), "{p}");
                    assert!(options.iter().any(|o| o.outcome == Outcome::D), "{p}");
                }
            }
            // The loopy value agrees: finite 0 exactly for P, finite elsewhere only for N.
            match e.nim_value {
                Some(0) => assert_eq!(e.outcome, Outcome::P),
                Some(_) => assert_eq!(e.outcome, Outcome::N),
                None => assert_ne!(e.outcome, Outcome::P),
            }
        }
    }

    /// The generic solver on the typed game, from a start, agrees with the whole-space table.
    #[test]
    fn typed_game_from_a_start_agrees_with_the_table() {
        let cards = Cards::new(2, 10).unwrap();
        let g = CardsGame::new(cards);
        for start in [position(&[1, 1], &[1, 1], 0), position(&[2, 7], &[3, 5], 4)] {
            let solution = solve_game(&cards, start).unwrap();
            for (v, p) in solution.explored.positions.iter().enumerate() {
                let solved = solution.values.get(v as u32);
                let e = g.solve_position(p).unwrap();
                assert_eq!(e.outcome, solved.outcome(), "{p}");
                assert_eq!(e.remoteness, solved.remoteness.map(u64::from), "{p}");
            }
        }
    }

    #[test]
    fn answers_match_the_table() {
        let g = game(2, 10);
        let p = g.parse_position(&["2,7", "3,5", "4"]).unwrap();
        let e = g.evaluate(&p).unwrap();
        assert_eq!(e, g.solve_position(&position(&[2, 7], &[3, 5], 4)).unwrap());
        assert_eq!(g.write_position(&p), "2,7 3,5 4");
        let moves = g.moves(&p).unwrap();
        let texts: Vec<String> = moves.iter().map(|n| g.write_move(&p, n)).collect();
        assert_eq!(texts, ["2 -> 6", "7 -> 1"]);
        assert_eq!(g.write_position(&moves[0]), "3,5 6,7 2");
    }

    #[test]
    fn solve_reports_the_start_and_counts() {
        let g = game(2, 10);
        let start = g.parse_position(&[]).unwrap();
        let report = g.solve(&start, &()).unwrap().unwrap();
        assert_eq!(
            report.position,
            json!({"mover": [1, 1], "opponent": [1, 1], "last": 0})
        );
        let e = g.solve_position(&position(&[1, 1], &[1, 1], 0)).unwrap();
        assert_eq!(
            (report.outcome, report.remoteness),
            (e.outcome, e.remoteness)
        );
        assert_eq!(report.details["all_states"]["states"], json!(30250));
        let reachable = &report.details["reachable"];
        let sum = ["wins", "losses", "draws"]
            .iter()
            .map(|k| reachable[k].as_u64().unwrap())
            .sum::<u64>();
        assert_eq!(sum, report.positions);
        let given = g.parse_position(&["2,7", "3,5", "4"]).unwrap();
        let report = g.solve(&given, &()).unwrap().unwrap();
        assert_eq!(report.position["last"], json!(4));
    }

    /// Figures of the solved seed game, pinned (the local-consistency test above vouches for them).
    #[test]
    fn seed_game_figures() {
        let g = game(2, 10);
        let report = g
            .solve(&g.parse_position(&[]).unwrap(), &())
            .unwrap()
            .unwrap();
        assert_eq!(
            report.details["all_states"],
            json!({"states": 30250, "wins": 17247, "losses": 12607, "draws": 396})
        );
        assert_eq!((report.outcome, report.remoteness), (Outcome::N, Some(17)));
        assert_eq!(report.positions, 20207);
    }

    #[test]
    fn bad_parameters_and_positions_are_clear_errors() {
        let spec_error = |s: &str| match parse_cards(s) {
            Err(Error::Spec { reason, .. }) => reason,
            Err(e) => panic!("{s}: unexpected error {e}"),
            Ok(_) => panic!("{s} parsed"),
        };
        assert!(spec_error("2").contains("two parameters"));
        assert!(spec_error("0,10").contains("between 1 and 7"));
        assert!(spec_error("2,0").contains("between 1 and 256"));
        assert!(spec_error("99,10").contains("between 1 and 7"));
        assert!(spec_error("2,1000").contains("between 1 and 256"));
        assert!(spec_error("2,x").contains("whole number"));
        let g = game(2, 10);
        let position_error = |words: &[&str]| g.parse_position(words).unwrap_err().to_string();
        assert!(position_error(&["1,2"]).contains("got 1 word"));
        assert!(position_error(&["1,2", "3,4", "5", "6"]).contains("got 4 words"));
        assert!(position_error(&["1,2,3", "3,4"]).contains("mover's hand has 3 cards"));
        assert!(position_error(&["1,2", "4"]).contains("opponent's hand has 1 card;"));
        assert!(position_error(&["1,10", "3,4"]).contains("10 is not below M = 10"));
        assert!(position_error(&["1,2", "3,4", "10"]).contains("last played card 10 is not below"));
        assert!(position_error(&["1,-2", "3,4"]).contains("non-negative"));
        assert!(position_error(&["1,,2", "3,4"]).contains("missing"));
        // A legal spec whose state space is too large fails when it is solved.
        let big = game(7, 256);
        let p = big
            .parse_position(&["1,1,1,1,1,1,1", "1,1,1,1,1,1,1"])
            .unwrap();
        assert!(matches!(big.evaluate(&p), Err(Error::Limit(_))));
        assert!(big.moves(&p).unwrap().len() == 1);
    }

    #[test]
    fn the_tiered_solver_agrees_with_the_table_on_every_state() {
        let cards = Cards::new(2, 10).unwrap();
        let game = CardsGame::new(cards);
        let ranked = RankedCards::new(cards);
        let solution = crate::solve::tiered::solve(&ranked, Some(1), 1 << 30, &()).unwrap();
        let mut checked = 0;
        for index in 0..ranked.tier_size(0) {
            let key = ranked.unrank(0, index).unwrap();
            assert_eq!(ranked.rank(&key), (0, index));
            let position = cards.unpack(key);
            let expected = game.solve_position(&position).unwrap();
            let record = solution.record_at(0, index);
            assert_eq!(record.value().outcome(), expected.outcome, "{position}");
            assert_eq!(
                record.remoteness().map(u64::from),
                expected.remoteness,
                "{position}"
            );
            checked += 1;
        }
        assert_eq!(checked, 30250);
    }
}
