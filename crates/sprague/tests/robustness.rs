//! Bad input is normal input: random specs and positions give results or errors, never panics.

use crate::support::{parse_game, parse_position};
use proptest::prelude::*;
use sprague::analysis;
use sprague::game::Play;

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
