//! The seed problems, answered through the public API as the examples and the CLI answer them.

use crate::support::{parse_game, parse_position};
use sprague::analysis::value;
use sprague::game::{Outcome, Play};
use sprague::heap::PeriodSearch;

fn outcome(words: &[&str]) -> Outcome {
    let position = parse_position(words).expect("the position parses");
    value(&position, Play::Normal)
        .expect("it evaluates")
        .outcome
}

#[test]
fn poi_2000_strips_sample() {
    // c z n = 1 5 1; boards 1, 5, 6 -> first player wins, wins, loses.
    assert_eq!(outcome(&["strips:1,5,1", "1"]), Outcome::N);
    assert_eq!(outcome(&["strips:1,5,1", "5"]), Outcome::N);
    assert_eq!(outcome(&["strips:1,5,1", "6"]), Outcome::P);
}

#[test]
fn seed_001_subtraction_game() {
    // S = {1, 3, 4}: the P-positions are n ≡ 0, 2 (mod 7).
    for n in 0..50u64 {
        let expected = if n % 7 == 0 || n % 7 == 2 {
            Outcome::P
        } else {
            Outcome::N
        };
        assert_eq!(outcome(&["sub:1,3,4", &n.to_string()]), expected, "n = {n}");
    }
}

#[test]
fn seed_002_bowling_is_kayles_with_period_12() {
    let kayles = parse_game("kayles").expect("kayles exists");
    let heap = kayles.heap().expect("kayles is a heap game");
    match heap.period(1000, &()).expect("the search runs") {
        PeriodSearch::Certified(p) => {
            assert_eq!((p.period, p.preperiod), (12, 71));
        }
        other => panic!("kayles must be certified, got {other:?}"),
    }
    // The seed's table: G(72..84) = 4 1 2 8 1 4 7 2 1 8 2 7.
    let table = heap.table(83, &()).expect("tabulates").values.to_vec();
    assert_eq!(&table[72..84], &[4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7]);
    assert_eq!(outcome(&["kayles", "18446744073709551615"]), Outcome::N);
}

#[test]
fn seed_003_nim() {
    assert_eq!(outcome(&["nim", "1", "1"]), Outcome::P);
    assert_eq!(outcome(&["nim", "1", "0"]), Outcome::N);
    assert_eq!(outcome(&["nim", "3", "3", "1"]), Outcome::N);
}
