//! Bad input is normal input: random specs and positions give results or errors, never panics.

use crate::support::{parse_game, parse_position};
use proptest::prelude::*;
use sprague::analysis;
use sprague::budget::Budget;
use sprague::catalog::{Catalog, Kind};
use sprague::game::Play;
use std::time::{Duration, Instant};

/// Fragments that random specs and positions are built from: real names, near misses, and junk.
const SPEC_WORDS: &[&str] = &[
    "nim",
    "bash:3",
    "bash:0",
    "bash:",
    "sub:1,3,4",
    "sub:1-3,7",
    "sub:3-1",
    "sub:",
    "sub:0",
    "allbut:1,2",
    "allbut:",
    "kayles",
    "dawson",
    "0.77",
    "0.137",
    "4.07",
    "0.8F",
    "0.",
    "0.x",
    "octal:0.6",
    "octal:",
    "grundy",
    "strips:1,2,3",
    "strips:0,1,2",
    "moore:2",
    "moore:0",
    "wythoff",
    "fib",
    "circle:3",
    "circle:0",
    "ends:any",
    "ends:1",
    "ends:2",
    "median",
    "queues:5",
    "ruler",
    "ruler:3",
    "turtles",
    "mock-turtles",
    "corners",
    "mnk:3,3,3",
    "mnk:0,0,0",
    "connect:4,4,3",
    "cards:2,10",
    "cards:0,0",
    "nosuchgame",
    "",
    ":",
    "::",
    "nim:1",
    "sub:18446744073709551616",
    "bash:-1",
];

const POSITION_WORDS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "5",
    "7",
    "12",
    "-1",
    "x",
    "",
    "+",
    "1,2",
    "1,2,3",
    "0,0",
    "x........",
    "xo.",
    ".........",
    "1.5",
    "3,4",
    "18446744073709551615",
    "18446744073709551616",
    "1e9",
    "٣",
    "--",
    "a,b",
];

fn words() -> impl Strategy<Value = Vec<String>> {
    let spec = prop::sample::select(SPEC_WORDS).prop_map(String::from);
    let position = prop::collection::vec(
        prop::sample::select(POSITION_WORDS).prop_map(String::from),
        0..5,
    );
    (
        spec,
        position,
        prop::option::of((
            prop::sample::select(SPEC_WORDS),
            prop::sample::select(POSITION_WORDS),
        )),
    )
        .prop_map(|(s, mut p, extra)| {
            let mut out = vec![s];
            out.append(&mut p);
            if let Some((s2, p2)) = extra {
                out.extend(["+".to_string(), s2.to_string(), p2.to_string()]);
            }
            out
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_specs_and_positions_parse_or_fail_cleanly(words in words()) {
        // Parsing must never panic, whatever the words.
        let _ = parse_position(&words);
    }

    #[test]
    fn random_small_positions_evaluate_or_fail_cleanly(words in words()) {
        // Keep to small numbers so every game stays cheap to evaluate; misère play is searched
        // directly, so it gets the smallest positions only.
        let small = words.iter().skip(1).all(|w| w.len() < 12);
        let tiny = words.iter().skip(1).all(|w| w.len() <= 3 && !w.contains("12"));
        if let (true, Ok(position)) = (small, parse_position(&words)) {
            let _ = analysis::value(&position, Play::Normal);
            let _ = analysis::moves(&position, Play::Normal);
            if tiny {
                let _ = analysis::value(&position, Play::Misere);
            }
        }
    }

    #[test]
    fn arbitrary_text_never_panics(spec_text in "\\PC{0,12}", args in prop::collection::vec("\\PC{0,8}", 0..4)) {
        let _ = parse_game(&spec_text);
        let mut all = vec![spec_text];
        all.extend(args);
        let _ = parse_position(&all);
    }
}

/// A seeded generator (xorshift64*), so that every fuzz case can be named and rerun.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Numbers that break careless code: zero, one, powers of two and their neighbours, the
/// largest integers, one past them, negatives.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "7",
    "31",
    "64",
    "1000",
    "65535",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "1e3",
];

/// Characters a mutation inserts: separators of the notations, signs, junk and non-ASCII.
const CHARS: &[char] = &[
    ',', ':', '.', '+', '-', 'x', 'o', '|', '#', '0', '9', ' ', '%', '\0', '\u{7f}', 'é', '٣', '*',
    '/', 'B', 'R', 'G', '{', '}', '\'',
];

/// One word changed a little: a number swapped for another, a character inserted, deleted or
/// replaced, the word doubled or emptied.
fn mutate(rng: &mut Rng, word: &str) -> String {
    let mut chars: Vec<char> = word.chars().collect();
    match rng.below(7) {
        0 => {
            // Replace the first run of digits by another number.
            let start = chars.iter().position(char::is_ascii_digit);
            match start {
                Some(s) => {
                    let end = chars[s..]
                        .iter()
                        .position(|c| !c.is_ascii_digit())
                        .map_or(chars.len(), |e| s + e);
                    let number: Vec<char> = rng.pick(NUMBERS).chars().collect();
                    chars.splice(s..end, number);
                }
                None => chars = rng.pick(NUMBERS).chars().collect(),
            }
        }
        1 => {
            let at = rng.below(chars.len() + 1);
            chars.insert(at, *rng.pick(CHARS));
        }
        2 if !chars.is_empty() => {
            let at = rng.below(chars.len());
            chars.remove(at);
        }
        3 if !chars.is_empty() => {
            let at = rng.below(chars.len());
            chars[at] = *rng.pick(CHARS);
        }
        4 => return format!("{word}{word}"),
        5 => return String::new(),
        _ => {}
    }
    chars.into_iter().collect()
}

/// The words of one fuzz case: a catalog example (sometimes two, summed), some words mutated.
/// Boards keep their spec (a mutated size is a different, possibly huge, game); their
/// positions are mutated like every other game's.
fn fuzz_case(rng: &mut Rng) -> Vec<String> {
    let entries = Catalog::entries();
    let mut words = Vec::new();
    for part in 0..=usize::from(rng.below(4) == 0) {
        let entry = rng.pick(entries);
        if part > 0 {
            words.push("+".to_string());
        }
        let fixed_spec = matches!(entry.kind, Kind::Board | Kind::Partizan | Kind::Script);
        for (i, word) in entry.example.split_whitespace().enumerate() {
            let word = word.trim_matches('\'');
            if (i > 0 || !fixed_spec) && rng.below(3) == 0 {
                words.push(mutate(rng, word));
            } else {
                words.push(word.to_string());
            }
        }
    }
    words
}

/// Runs `cases` fuzz cases through the library's parse-and-evaluate path, each under a time
/// budget; any panic fails with the case that caused it.
fn fuzz(cases: usize, seed: u64) {
    // One catalog, so that boards solved once stay in its memory store.
    let catalog = Catalog::default();
    let mut rng = Rng(seed);
    let mut evaluated = 0;
    let mut slowest = (Duration::ZERO, Vec::new());
    for case in 0..cases {
        let started = Instant::now();
        let words = fuzz_case(&mut rng);
        let play = if rng.below(4) == 0 {
            Play::Misere
        } else {
            Play::Normal
        };
        let budget = Budget::until(Instant::now() + Duration::from_millis(50));
        let catalog = catalog.with_budget(budget);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            match catalog.parse_position(&words) {
                Ok(position) => {
                    let _ = analysis::value(&position, play);
                    true
                }
                Err(e) => {
                    assert!(!e.to_string().is_empty());
                    false
                }
            }
        }));
        match outcome {
            Ok(true) => evaluated += 1,
            Ok(false) => {}
            Err(_) => panic!("fuzz case {case} (seed {seed}) panicked: {words:?} {play:?}"),
        }
        if started.elapsed() > slowest.0 {
            slowest = (started.elapsed(), words);
        }
    }
    eprintln!(
        "{cases} cases, {evaluated} evaluated; the slowest took {:.2} s: {:?}",
        slowest.0.as_secs_f64(),
        slowest.1
    );
    // The mutations must leave enough cases valid to reach the engines, not only the parsers.
    assert!(
        evaluated * 10 > cases,
        "only {evaluated} of {cases} cases parsed"
    );
}

#[test]
fn mutated_catalog_examples_never_panic() {
    fuzz(300, 0x5eed_0001);
}

/// Issue 21: 10,000 mutated specs and positions, in release mode (CI's `--ignored` step).
#[test]
#[ignore = "10,000 cases; run in release mode"]
fn ten_thousand_mutated_catalog_examples_never_panic() {
    fuzz(10_000, 0x5eed_0002);
}
