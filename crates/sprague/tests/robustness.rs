//! Bad input is normal input: random specs and positions give results or errors, never panics.

use crate::support::{parse_game, parse_position};
use proptest::prelude::*;
use sprague::analysis;
use sprague::budget::Budget;
use sprague::catalog::{Catalog, Kind};
use sprague::game::Play;
use sprague::memory::{Account, Meter};
use sprague::play::XorShift;
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
fn mutate(rng: &mut XorShift, word: &str) -> String {
    let mut chars: Vec<char> = word.chars().collect();
    match rng.index(7) {
        0 => {
            // Replace the first run of digits by another number.
            let start = chars.iter().position(char::is_ascii_digit);
            match start {
                Some(s) => {
                    let end = chars[s..]
                        .iter()
                        .position(|c| !c.is_ascii_digit())
                        .map_or(chars.len(), |e| s + e);
                    let number: Vec<char> = rng.pick(NUMBERS).unwrap().chars().collect();
                    chars.splice(s..end, number);
                }
                None => chars = rng.pick(NUMBERS).unwrap().chars().collect(),
            }
        }
        1 => {
            let at = rng.index(chars.len() + 1);
            chars.insert(at, *rng.pick(CHARS).unwrap());
        }
        2 if !chars.is_empty() => {
            let at = rng.index(chars.len());
            chars.remove(at);
        }
        3 if !chars.is_empty() => {
            let at = rng.index(chars.len());
            chars[at] = *rng.pick(CHARS).unwrap();
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
fn fuzz_case(rng: &mut XorShift) -> Vec<String> {
    let entries = Catalog::entries();
    let mut words = Vec::new();
    for part in 0..=usize::from(rng.index(4) == 0) {
        let entry = rng.pick(entries).unwrap();
        if part > 0 {
            words.push("+".to_string());
        }
        let fixed_spec = matches!(entry.kind, Kind::Board | Kind::Partizan | Kind::Script);
        for (i, word) in entry.example.split_whitespace().enumerate() {
            let word = word.trim_matches('\'');
            if (i > 0 || !fixed_spec) && rng.index(3) == 0 {
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
    let mut rng = XorShift::new(seed);
    let mut evaluated = 0;
    let mut slowest = (Duration::ZERO, Vec::new());
    for case in 0..cases {
        let started = Instant::now();
        let words = fuzz_case(&mut rng);
        let play = if rng.index(4) == 0 {
            Play::Misere
        } else {
            Play::Normal
        };
        // 50 ms and 256 MiB a case, the memory charged to the case's own account.
        let account = Account::new();
        let _charged = account.enter();
        let budget = Budget::until(Instant::now() + Duration::from_millis(50))
            .with_memory(256 << 20, Meter::Account(account.clone()));
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

/// Issue 21: with a spent budget, every kind of search stops with `Error::Stopped` (not a
/// different error, not a result computed past it): impartial sums, misère sums, partizan
/// values.
#[test]
fn a_spent_budget_stops_every_kind_of_search() {
    let budget = Budget::stoppable();
    budget.stop();
    let catalog = Catalog::default().with_budget(budget);
    let stopped = |e: Option<sprague::Error>| matches!(e, Some(sprague::Error::Stopped(_)));
    for (words, play) in [
        (
            &["grundy", "150", "145", "2", "138", "174", "43"][..],
            Play::Misere,
        ),
        (&["fib", "200", "+", "kayles", "3"][..], Play::Normal),
    ] {
        let position = catalog.parse_position(words).unwrap();
        let e = analysis::value(&position, play).err();
        assert!(stopped(e.clone()), "{words:?}: {e:?}");
    }
    let domineering = catalog.parse_position(&["domineering:7x7"]).unwrap();
    let e = analysis::partizan::value(&domineering).err();
    assert!(stopped(e.clone()), "{e:?}");
}

/// Found by the HTTP fuzz: a Hackenbush string of 90 edges has a value whose denominator
/// overflowed the number arithmetic (a panic). Values finer than the solver computes exactly
/// are refused; those within it are still exact.
#[test]
fn values_too_fine_for_the_arithmetic_are_refused() {
    let catalog = Catalog::default();
    let long = "BBR".repeat(30);
    let position = catalog.parse_position(&["hackenbush", &long]).unwrap();
    let e = analysis::partizan::value(&position).err();
    assert!(
        matches!(&e, Some(sprague::Error::Limit(m)) if m.contains("finer than 1/2^48")),
        "{e:?}"
    );
    let within = "BBR".repeat(12);
    let position = catalog.parse_position(&["hackenbush", &within]).unwrap();
    let report = analysis::partizan::value(&position).unwrap();
    assert_eq!(report.canonical_form, "31905471341/17179869184");
}

/// Found by the HTTP fuzz: a thermograph kept a server worker busy past its request's limit.
/// Thermographs now stop with the budget too.
#[test]
fn thermographs_stop_with_their_budget() {
    let catalog = Catalog::default();
    let deep = catalog
        .parse_position(&["hackenbush", &"BBR".repeat(15)])
        .unwrap();
    let value = deep.to_partizan().unwrap()[0].value().unwrap();
    let graph = value.thermograph_within(&Budget::unlimited()).unwrap();
    assert_eq!(graph, value.thermograph());
    let stopped = Budget::stoppable();
    stopped.stop();
    let e = value.thermograph_within(&stopped).err();
    assert!(matches!(e, Some(sprague::Error::Stopped(_))), "{e:?}");
}

/// The counting allocator (installed in this test binary) charges a computation's bytes to its
/// account, and a budget capped on that account stops the computation's search.
#[test]
fn memory_is_charged_to_the_account_that_allocated_it() {
    let account = Account::new();
    {
        let _charged = account.enter();
        let held = vec![1u8; 16 << 20];
        assert!(account.bytes() >= 16 << 20, "{}", account.bytes());
        drop(held);
    }
    assert!(account.bytes() < 1 << 20, "{}", account.bytes());
    let search = Account::new();
    let _charged = search.enter();
    let budget = Budget::stoppable().with_memory(8 << 20, Meter::Account(search.clone()));
    let catalog = Catalog::default().with_budget(budget);
    let position = catalog
        .parse_position(&["grundy", "150", "145", "2", "138", "174", "43"])
        .unwrap();
    let e = analysis::value(&position, Play::Misere).err();
    assert!(
        matches!(&e, Some(sprague::Error::Stopped(m)) if m.contains("memory limit of 8 MiB")),
        "{e:?}"
    );
}
