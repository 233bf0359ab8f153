//! One check for every family of the catalog: on small positions reached from each entry's
//! examples by random play (and on sums of two different games), `value` and `moves` agree with
//! plain search over the same rules, in normal and misère play. A new entry is covered without a
//! new test: it only needs an example.
//!
//! Plain search works on the whole sum (no splitting into components, no closed forms, tables,
//! periods or SJ rule): a sum's nim value is the mex of its options' values, and its misère
//! outcome comes from direct search. What `value` reports comes from the families' shortcuts.

use sprague::analysis::{self, rate, Which};
use sprague::catalog::{Catalog, Kind};
use sprague::erased::{Component, Part, Position, SumGame};
use sprague::game::{Impartial, Outcome, Play};
use sprague::partizan::{Canonical, Outcome as Class, Side};
use sprague::play::XorShift;
use sprague::solve::{mex, Search};
use std::collections::{HashMap, HashSet};

/// The most sums plain search may visit for one sample; larger samples are skipped.
const BRUTE_LIMIT: usize = 4_000;

/// The words of an example as a shell splits them (`'...'` is one word), with script paths
/// made absolute (tests run in the crate's folder).
fn example_words(example: &str) -> Vec<String> {
    let mut words = Vec::new();
    for (i, chunk) in example.split('\'').enumerate() {
        if i % 2 == 1 {
            words.push(chunk.to_string());
        } else {
            words.extend(chunk.split_whitespace().map(String::from));
        }
    }
    words
        .into_iter()
        .map(|w| {
            for kind in ["script:", "graph:"] {
                if let Some(path) = w.strip_prefix(kind) {
                    return format!("{kind}{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
                }
            }
            w
        })
        .collect()
}

/// The nim value of a whole sum by plain search: the mex of its options' values.
struct Brute {
    memo: HashMap<Vec<Part>, u64>,
    visits: usize,
}

impl Brute {
    fn new() -> Brute {
        Brute {
            memo: HashMap::new(),
            visits: 0,
        }
    }

    /// `None` when the sum is too large, loopy, or a part cannot list its options.
    fn value(&mut self, sum: &[Part], depth: usize) -> Option<u64> {
        let sum = SumGame::canonical(sum.to_vec());
        if let Some(&g) = self.memo.get(&sum) {
            return Some(g);
        }
        self.visits += 1;
        if self.visits > BRUTE_LIMIT || depth > 200 {
            return None;
        }
        let options = SumGame.try_options(&sum).ok()?;
        let mut values = Vec::with_capacity(options.len());
        for option in &options {
            values.push(self.value(option, depth + 1)?);
        }
        let g = mex(&values);
        self.memo.insert(sum, g);
        Some(g)
    }
}

/// The positions after each winning move, as canonical multisets of parts.
fn winning_sums(position: &Position, play: Play) -> Option<HashSet<Vec<Part>>> {
    let rating = rate(position, play, Which::Winning).ok()?;
    if rating.omitted.is_some() {
        return None;
    }
    Some(
        rating
            .moves
            .into_iter()
            .map(|m| SumGame::canonical(m.position.parts()))
            .collect(),
    )
}

/// One random move from `position` (plain listing, nothing rated), or `None` at the end.
fn step(position: &Position, rng: &mut XorShift) -> Option<Position> {
    match position {
        Position::Single(s) => {
            let mut moves = s.moves().ok()?;
            if moves.is_empty() {
                return None;
            }
            let i = rng.below(moves.len() as u64) as usize;
            Some(Position::Single(moves.swap_remove(i).1))
        }
        Position::Partizan(components) => {
            let side = if rng.below(2) == 0 {
                Side::Left
            } else {
                Side::Right
            };
            let mut moves: Vec<(usize, Component)> = Vec::new();
            for (i, c) in components.iter().enumerate() {
                moves.extend(c.moves(side).ok()?.into_iter().map(|(_, m)| (i, m)));
            }
            if moves.is_empty() {
                return None;
            }
            let (i, option) = moves.swap_remove(rng.below(moves.len() as u64) as usize);
            let mut next = components.clone();
            next[i] = option;
            Some(Position::Partizan(next))
        }
        Position::Sum(_) => {
            let parts = position.parts();
            let mut moves: Vec<(usize, Vec<Part>)> = Vec::new();
            for (index, part) in parts.iter().enumerate() {
                moves.extend(part.options().ok()?.into_iter().map(|m| (index, m.parts)));
            }
            if moves.is_empty() {
                return None;
            }
            let i = rng.below(moves.len() as u64) as usize;
            let (index, parts) = &moves[i];
            Some(position.replace(*index, parts))
        }
    }
}

/// Small positions of one entry: its examples, and positions reached from them by random play.
fn samples(catalog: &Catalog, example: &str, rng: &mut XorShift, count: usize) -> Vec<Position> {
    let Ok(start) = catalog.parse_position(&example_words(example)) else {
        panic!("the example '{example}' does not parse");
    };
    let mut out = vec![start.clone()];
    for i in 0..count {
        let mut p = start.clone();
        // Short walks stay near the example; long ones reach small positions near the end.
        let steps = rng.below(if i % 2 == 0 { 6 } else { 40 });
        for _ in 0..steps {
            match step(&p, rng) {
                Some(next) => p = next,
                None => break,
            }
        }
        out.push(p);
    }
    out
}

/// Checks an impartial sum against plain search; returns whether it was small enough to check.
fn check_impartial(position: &Position, label: &str) -> bool {
    let parts = position.parts();
    let mut brute = Brute::new();
    let Some(g) = brute.value(&parts, 0) else {
        return false;
    };
    let report = analysis::value(position, Play::Normal)
        .unwrap_or_else(|e| panic!("{label}: {position}: value failed: {e}"));
    assert_eq!(
        report.nim_value,
        Some(g),
        "{label}: nim value of {position}"
    );
    let expected_outcome = if g == 0 { Outcome::P } else { Outcome::N };
    assert_eq!(
        report.outcome, expected_outcome,
        "{label}: outcome of {position}"
    );
    // Every winning move, and nothing else.
    let options = SumGame
        .try_options(&SumGame::canonical(parts.clone()))
        .expect("listed above");
    let expected: HashSet<Vec<Part>> = options
        .into_iter()
        .filter(|o| brute.value(o, 0) == Some(0))
        .collect();
    if let Some(found) = winning_sums(position, Play::Normal) {
        assert_eq!(found, expected, "{label}: winning moves of {position}");
    }
    // `moves` rates every option by the same values.
    // (Two moves may reach one position, e.g. two equal heaps: compare the positions reached.)
    let moves = analysis::moves(position, Play::Normal).expect("moves");
    let reached: HashSet<Vec<Part>> = rate(position, Play::Normal, Which::All)
        .expect("rated")
        .moves
        .into_iter()
        .map(|m| SumGame::canonical(m.position.parts()))
        .collect();
    let all: HashSet<Vec<Part>> = SumGame
        .options(&SumGame::canonical(parts.clone()))
        .into_iter()
        .collect();
    assert_eq!(reached, all, "{label}: the options of {position}");
    assert!(
        moves.moves.len() >= all.len(),
        "{label}: moves of {position}"
    );
    for m in &moves.moves {
        let outcome = if m.nim_value == Some(0) {
            Outcome::P
        } else {
            Outcome::N
        };
        assert_eq!(m.outcome, outcome, "{label}: {} from {position}", m.text);
    }
    // Misère play: the SJ rule where the engine trusts it, search elsewhere; both against
    // direct search of the whole sum.
    let mut search = Search::new(SumGame, Play::Misere).with_position_limit(BRUTE_LIMIT);
    let sum = SumGame::canonical(parts);
    if let Ok(expected) = search.outcome(&sum) {
        let report = analysis::value(position, Play::Misere)
            .unwrap_or_else(|e| panic!("{label}: {position}: misère value failed: {e}"));
        assert_eq!(
            report.outcome, expected,
            "{label}: misère outcome of {position}"
        );
        let expected: HashSet<Vec<Part>> = search
            .winning_moves(&sum)
            .expect("searched above")
            .into_iter()
            .collect();
        if let Some(found) = winning_sums(position, Play::Misere) {
            assert_eq!(
                found, expected,
                "{label}: misère winning moves of {position}"
            );
        }
    }
    true
}

/// The canonical form of a partizan sum by plain search: from the options of the whole sum
/// (no regions, symmetries or transposition of components), memoised by the written position.
struct PlainPartizan {
    memo: HashMap<String, Canonical>,
    visits: usize,
}

impl PlainPartizan {
    fn new() -> PlainPartizan {
        PlainPartizan {
            memo: HashMap::new(),
            visits: 0,
        }
    }

    /// `None` when the sum is too large.
    fn value(&mut self, components: &[Component]) -> Option<Canonical> {
        let key = Position::Partizan(components.to_vec()).to_string();
        if let Some(g) = self.memo.get(&key) {
            return Some(g.clone());
        }
        self.visits += 1;
        if self.visits > BRUTE_LIMIT {
            return None;
        }
        let mut options = [Vec::new(), Vec::new()];
        for (k, side) in [Side::Left, Side::Right].into_iter().enumerate() {
            for (i, c) in components.iter().enumerate() {
                for (_, option) in c.moves(side).ok()? {
                    let mut next = components.to_vec();
                    next[i] = option;
                    options[k].push(self.value(&next)?);
                }
            }
        }
        let g = Canonical::from_options(&options[0], &options[1]);
        self.memo.insert(key, g.clone());
        Some(g)
    }
}

/// Checks a partizan sum (or an impartial one seen as partizan) against plain search: its
/// canonical form, outcome class, nim value and both players' winning moves. Returns whether
/// it was small enough to check.
fn check_partizan(position: &Position, label: &str) -> bool {
    let components = position.to_partizan().expect("partizan or impartial");
    let mut plain = PlainPartizan::new();
    let Some(g) = plain.value(&components) else {
        return false;
    };
    let report = analysis::partizan::value(position)
        .unwrap_or_else(|e| panic!("{label}: {position}: partizan value failed: {e}"));
    assert_eq!(
        report.canonical_form,
        g.to_string(),
        "{label}: canonical form of {position}"
    );
    assert_eq!(
        report.outcome,
        g.outcome(),
        "{label}: outcome of {position}"
    );
    assert_eq!(
        report.nim_value,
        g.as_nimber().map(u64::from),
        "{label}: nim value of {position}"
    );
    for (side, found) in [
        (Side::Left, &report.left_winning_moves),
        (Side::Right, &report.right_winning_moves),
    ] {
        let mut expected = HashSet::new();
        for (i, c) in components.iter().enumerate() {
            for (_, option) in c.moves(side).expect("listed above") {
                let mut next = components.clone();
                next[i] = option;
                let v = plain.value(&next).expect("valued above");
                let wins = match side {
                    Side::Left => matches!(v.outcome(), Class::L | Class::P),
                    Side::Right => matches!(v.outcome(), Class::R | Class::P),
                };
                if wins {
                    expected.insert(Position::Partizan(next).to_string());
                }
            }
        }
        let found: HashSet<String> = found.iter().map(|m| m.display.clone()).collect();
        assert_eq!(
            found, expected,
            "{label}: {side:?}'s winning moves of {position}"
        );
    }
    true
}

/// Checks a position of a game that evaluates itself: every move evaluates, the outcome agrees
/// with its moves' (for games decided by who wins), and the winning moves are legal moves.
fn check_single(position: &Position, kind: Kind, label: &str) {
    let Position::Single(s) = position else {
        unreachable!()
    };
    let Ok(e) = s.evaluate() else { return };
    let moves = s.moves().expect("moves");
    let outcomes: Vec<Outcome> = moves
        .iter()
        .map(|(_, next)| next.evaluate().expect("a move evaluates").outcome)
        .collect();
    if kind != Kind::Scored && !moves.is_empty() {
        let expected = if outcomes.contains(&Outcome::P) {
            Outcome::N
        } else if outcomes.iter().all(|&o| o == Outcome::N) {
            Outcome::P
        } else {
            Outcome::D
        };
        assert_eq!(
            e.outcome, expected,
            "{label}: outcome of {position} against its moves"
        );
    }
    let report = analysis::value(position, Play::Normal).expect("value");
    let legal: HashSet<String> = moves.iter().map(|(text, _)| text.clone()).collect();
    for m in &report.winning_moves {
        assert!(
            legal.contains(&m.text),
            "{label}: {} is not a move of {position}",
            m.text
        );
    }
    if kind != Kind::Scored {
        let winning = moves
            .iter()
            .zip(&outcomes)
            .filter(|(_, &o)| o == Outcome::P)
            .count();
        assert_eq!(
            report.winning_moves.len(),
            winning,
            "{label}: winning moves of {position}"
        );
    }
}

/// The entries too large to solve in a test: their games solve whole boards first.
fn too_large(spec: &str) -> bool {
    spec.starts_with("teeko") || spec.starts_with("quixo:4") || spec.starts_with("quixo:5")
}

#[test]
fn every_entry_agrees_with_plain_search() {
    let catalog = Catalog::default();
    let mut rng = XorShift::new(2026);
    let mut impartial: Vec<Position> = Vec::new();
    let mut partizan: Vec<Position> = Vec::new();
    for entry in Catalog::entries() {
        let examples: Vec<&str> = std::iter::once(entry.example)
            .chain(entry.examples.iter().copied())
            .filter(|e| !too_large(e))
            .collect();
        if examples.is_empty() {
            continue; // Teeko: its own tests solve it in release mode.
        }
        // Large examples (Wythoff far out) only check that they parse; every entry must have
        // some sample small enough for plain search.
        let mut checked = 0;
        for example in examples {
            for position in samples(&catalog, example, &mut rng, 12) {
                match &position {
                    Position::Single(_) => {
                        check_single(&position, entry.kind, entry.spec);
                        checked += 1;
                    }
                    Position::Partizan(_) => {
                        if check_partizan(&position, entry.spec) {
                            checked += 1;
                            partizan.push(position.clone());
                        }
                    }
                    Position::Sum(_) => {
                        if check_impartial(&position, entry.spec) {
                            checked += 1;
                            if position.parts().len() <= 2 {
                                impartial.push(position.clone());
                            }
                        }
                        // An impartial game is a partizan game whose value is its nimber.
                        check_partizan(&position, entry.spec);
                    }
                }
            }
        }
        assert!(
            checked > 0,
            "{}: no sample of its examples was small enough to check",
            entry.spec
        );
    }
    // Sums of two different games.
    let mut sums = 0;
    for _ in 0..60 {
        let a = &impartial[rng.below(impartial.len() as u64) as usize];
        let b = &impartial[rng.below(impartial.len() as u64) as usize];
        if a.game() == b.game() {
            continue;
        }
        let words: Vec<String> = format!("{a} + {b}")
            .split_whitespace()
            .map(String::from)
            .collect();
        let Ok(sum) = catalog.parse_position(&words) else {
            continue;
        };
        if check_impartial(&sum, "sum") {
            sums += 1;
        }
    }
    assert!(
        sums >= 10,
        "only {sums} sums of two games were small enough to check"
    );
    // Partizan sums of two games, and of a partizan game with an impartial one.
    let mut sums = 0;
    for round in 0..60 {
        let a = &partizan[rng.below(partizan.len() as u64) as usize];
        let b = if round % 2 == 0 {
            &partizan[rng.below(partizan.len() as u64) as usize]
        } else {
            &impartial[rng.below(impartial.len() as u64) as usize]
        };
        // A finished impartial board (cram with no free cell) writes as its game's name alone,
        // which does not parse back: nothing to sum there.
        if matches!(b, Position::Sum(_)) && b.parts().is_empty() {
            continue;
        }
        let words: Vec<String> = [a.to_string(), "+".into(), b.to_string()]
            .iter()
            .flat_map(|w| shell_words(w))
            .collect();
        let sum = catalog
            .parse_position(&words)
            .unwrap_or_else(|e| panic!("{a} + {b} does not parse back: {e}"));
        if check_partizan(&sum, "partizan sum") {
            sums += 1;
        }
    }
    assert!(
        sums >= 10,
        "only {sums} partizan sums of two games were small enough to check"
    );
}

/// A written position's words (positions never hold spaces inside a word, except `cg` values,
/// which are one word to the parser only after joining: `cg` joins its words again).
fn shell_words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}
