//! Misère play of heap games as a user meets it: `genus`, `quotient`, and `value --misere` on
//! sums of heaps (valued by the quotient).

use crate::common::{assert_bad_input, sprague, sprague_json};
use serde_json::{json, Value};
use sprague::game::{Game, Impartial, Play};
use sprague::heap::{Code, HeapRules};
use sprague::quotient::{Quotient, QuotientOptions};

#[test]
fn genus_json_gives_kayles_published_genera() {
    // Kayles (0.77): heap 1 is 1^{031}, heap 5 is 4^{146}, the first wild heap (Winning Ways,
    // chapter 13, as quoted in issue 17).
    let v = sprague_json(&["genus", "kayles", "--to", "6", "--json"]);
    assert_eq!(v["game"], "kayles");
    let heaps = v["heaps"].as_array().unwrap();
    assert_eq!(heaps.len(), 7);
    assert_eq!(
        heaps[0],
        json!({"heap": 0, "genus": "0^{120}", "normal": 0, "misere": [1, 2, 0, 2], "tame": true})
    );
    assert_eq!(
        heaps[1],
        json!({"heap": 1, "genus": "1^{031}", "normal": 1, "misere": [0, 3, 1, 3], "tame": true})
    );
    assert_eq!(
        heaps[5],
        json!({"heap": 5, "genus": "4^{146}", "normal": 4, "misere": [1, 4, 6, 4], "tame": false})
    );
    let tame: Vec<bool> = heaps.iter().map(|h| h["tame"] == true).collect();
    assert_eq!(tame, [true, true, true, true, true, false, false]);
}

#[test]
fn genus_text_is_a_table_with_tame_and_wild() {
    let run = sprague(&["genus", "kayles", "--to", "6"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line = |heap: &str| {
        run.stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(heap))
            .unwrap_or_else(|| panic!("no row for heap {heap}: {}", run.stdout))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    assert_eq!(line("5"), ["5", "4^{146}", "4", "1", "4", "6", "4", "wild"]);
    assert_eq!(line("2"), ["2", "2^{20}", "2", "2", "0", "2", "0", "tame"]);
    assert!(run.stdout.contains("wild heaps: 5, 6"), "{}", run.stdout);
}

/// The quotient JSON's contract fields, checked for consistency: a commutative monoid with
/// identity 0, the heap map and P-portion inside it.
fn check_quotient_json(v: &Value) -> usize {
    let order = v["order"].as_u64().expect("a finite order") as usize;
    assert_eq!(v["infinite"], false);
    assert_eq!(v["identity"], 0);
    let table: Vec<Vec<u64>> = serde_json::from_value(v["multiply"].clone()).unwrap();
    assert_eq!(table.len(), order);
    for (a, row) in table.iter().enumerate() {
        assert_eq!(row.len(), order);
        assert_eq!(row[0], a as u64, "the identity");
        for (b, &ab) in row.iter().enumerate() {
            assert_eq!(ab, table[b][a], "commutative");
        }
    }
    let heaps = v["heaps"].as_array().unwrap();
    assert_eq!(heaps.len() as u64, v["max_heap"].as_u64().unwrap() + 1);
    assert!(heaps.iter().all(|x| (x.as_u64().unwrap() as usize) < order));
    assert!(v["p_portion"]
        .as_array()
        .unwrap()
        .iter()
        .all(|x| (x.as_u64().unwrap() as usize) < order));
    assert_eq!(order % 2, 0, "misère quotients have even order");
    order
}

#[test]
fn quotient_of_0_75_is_r8_with_two_p_positions() {
    // 0.75: order 8 with |P| = 2 (Plambeck and Siegel, "Misère quotients for impartial games",
    // JCTA 2008, the quotient R8; Siegel, "The structure and classification of misère
    // quotients", arXiv math/0703070: R8 is the only quotient of order 8). MisereSolver,
    // CGSuite's, run here to heap 50: "P 2", "order 8".
    let v = sprague_json(&["quotient", "0.75", "--json"]);
    assert_eq!(check_quotient_json(&v), 8);
    assert_eq!(v["game"], "0.75");
    assert_eq!(v["p_portion"].as_array().unwrap().len(), 2);
    assert_eq!(
        v["presentation"],
        "<a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2>"
    );
    // without --max-heap, heaps are added until the period is proven: at heap 22
    assert_eq!(v["certified"], true);
    assert_eq!(v["max_heap"], 22);
    assert_eq!(
        v["period"],
        json!({"preperiod": 8, "period": 2, "certified_at": 22})
    );
    // the P-portion is {a, b^2}: heap 1 is a, and heaps 2 + 2 make b^2
    let words: Vec<String> = serde_json::from_value(v["words"].clone()).unwrap();
    let p: Vec<&str> = v["p_portion"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| words[x.as_u64().unwrap() as usize].as_str())
        .collect();
    assert_eq!(p, ["a", "b^2"]);
    // an explicit --max-heap computes exactly that far
    let v = sprague_json(&["quotient", "0.75", "--max-heap", "50", "--json"]);
    assert_eq!(check_quotient_json(&v), 8);
    assert_eq!(v["max_heap"], 50);
    assert_eq!(v["certified"], true);
}

#[test]
fn quotient_of_kayles_is_proven_at_heap_168() {
    // Kayles: order 40, |P| = 9 (MisereSolver, run here to heaps 50 and 200); its heap map has
    // the normal-play period 12 from 71, which the periodicity theorem needs heap 168 to prove.
    let v = sprague_json(&["quotient", "kayles", "--json"]);
    assert_eq!(check_quotient_json(&v), 40);
    assert_eq!(v["p_portion"].as_array().unwrap().len(), 9);
    assert_eq!(v["max_heap"], 168);
    assert_eq!(
        v["period"],
        json!({"preperiod": 71, "period": 12, "certified_at": 168})
    );
    // to heap 100 the quotient is the same but not proven
    let v = sprague_json(&["quotient", "kayles", "--max-heap", "100", "--json"]);
    assert_eq!(check_quotient_json(&v), 40);
    assert_eq!(v["certified"], false);
}

#[test]
fn quotient_text_teaches() {
    let run = sprague(&["quotient", "0.75"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for needle in [
        "order:         8",
        "presentation:  <a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2>",
        "P-portion:     a, b^2 (2 of 8",
        "proven for every heap: heap n + 2 has the element of heap n from n = 8",
        "5: c",
        "multiplication table",
    ] {
        assert!(run.stdout.contains(needle), "{needle}: {}", run.stdout);
    }
    // the table's row of a (element 1): a·a = 1
    assert!(
        run.stdout.lines().any(|l| l.starts_with("1: 1 0 3 2")),
        "{}",
        run.stdout
    );
    // Kayles (order 40) is listed, its table too large to print
    let run = sprague(&["quotient", "kayles", "--max-heap", "60"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("not proven"), "{}", run.stdout);
    assert!(
        run.stdout.contains("40 × 40, too large to print"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_runaway_quotient_is_an_answer() {
    // 4.7 has 94 elements at heap 18 and more than 200 at heap 19.
    let v = sprague_json(&["quotient", "4.7", "--max-order", "200", "--json"]);
    assert_eq!(v["infinite"], true);
    assert_eq!(v["order"], Value::Null);
    assert_eq!(v["runaway"]["heap"], 19);
    assert_eq!(v["runaway"]["limit"], json!({"order": 200}));
    let run = sprague(&["quotient", "4.7", "--max-order", "200"]);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout
            .contains("infinite as far as it was followed: it ran away at heap 19"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("order 94"), "{}", run.stdout);
}

#[test]
fn genus_and_quotient_refuse_bad_input() {
    assert_bad_input(&["quotient", "0.8x"], "0.8x");
    assert_bad_input(&["genus", "0.7z", "--to", "5"], "not an octal");
    assert_bad_input(&["quotient", "turtles"], "not a heap game");
    assert_bad_input(&["genus", "wythoff", "--to", "5"], "not a heap game");
    assert_bad_input(&["quotient", "kayles", "--max-heap", "abc"], "--max-heap");
    assert_bad_input(&["quotient", "kayles", "--max-heap", "-4"], "--max-heap");
    assert_bad_input(&["genus", "kayles", "--to", "ten"], "--to");
    assert_bad_input(&["quotient", "kayles", "--max-order", "1"], "--max-order");
    assert_bad_input(
        &["quotient", "kayles", "--max-order", "99999"],
        "--max-order",
    );
    // huge heaps: refused before anything is allocated
    assert_bad_input(&["quotient", "kayles", "--max-heap", "16000"], "MiB");
    assert_bad_input(&["genus", "kayles", "--to", "20000"], "MiB");
    assert_bad_input(
        &["quotient", "kayles", "--max-heap", "99999999999999"],
        "past the largest",
    );
    assert_bad_input(&["genus", "kayles", "--to", "1000000"], "past the largest");
    // --to is required (a usage error, exit 2)
    assert_eq!(sprague(&["genus", "kayles"]).code, 2);
}

#[test]
fn help_has_examples() {
    let run = sprague(&["genus", "--help"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("sprague genus kayles --to 12"));
    assert!(run.stdout.contains("tame"));
    let run = sprague(&["quotient", "--help"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("sprague quotient 0.75"));
    assert!(run.stdout.contains("at most 300"), "{}", run.stdout);
    assert!(sprague(&["--help"]).stdout.contains("sprague quotient"));
}

/// A sum of heaps of one rule set, for plain search.
struct HeapSum(Code);

impl Game for HeapSum {
    type Position = Vec<u64>;
}

impl Impartial for HeapSum {
    fn options(&self, heaps: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            for leaves in self.0.options(h) {
                let mut next: Vec<u64> =
                    heaps[..i].iter().chain(&heaps[i + 1..]).copied().collect();
                next.extend(leaves.into_iter().filter(|&x| x > 0));
                next.sort_unstable();
                out.push(next);
            }
        }
        out
    }
}

#[test]
fn value_misere_answers_big_kayles_sums_by_the_quotient() {
    let heaps = [20u64, 23, 25, 28, 31, 34, 37, 40];
    let kayles = Code::parse("0.77").unwrap();
    // Plain search gives up on this sum at the bound `value` uses.
    let mut search = sprague::solve::Search::new(HeapSum(kayles.clone()), Play::Misere)
        .with_position_limit(sprague::analysis::MISERE_POSITION_LIMIT);
    assert!(search.outcome(&heaps.to_vec()).is_err());

    let words: Vec<String> = ["value", "kayles"]
        .into_iter()
        .map(String::from)
        .chain(heaps.iter().map(u64::to_string))
        .chain(["--misere".into(), "--json".into()])
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let v = sprague_json(&words);
    assert_eq!(v["misere_rule"], "quotient");

    // Every winning move reaches a P-position of the quotient, and every such option is listed.
    let q = Quotient::compute_until_certified(&kayles, 300, &QuotientOptions::default(), &())
        .unwrap()
        .finite()
        .unwrap();
    let p = |sum: &[u64]| q.is_p(q.element_of(sum).unwrap());
    let expected = if p(&heaps) { "P" } else { "N" };
    assert_eq!(v["outcome"], expected);
    let moves = v["winning_moves"].as_array().unwrap();
    for m in moves {
        let after: Vec<u64> = serde_json::from_value(m["position"].clone()).unwrap();
        assert!(p(&after), "{m}");
    }
    let mut winning = 0;
    for (i, &h) in heaps.iter().enumerate() {
        for leaves in kayles.options(h) {
            let mut after: Vec<u64> = heaps[..i].iter().chain(&heaps[i + 1..]).copied().collect();
            after.extend(leaves);
            winning += usize::from(p(&after));
        }
    }
    assert!(winning > 0);
    assert_eq!(moves.len(), winning);

    // The text names the method.
    let run = sprague(&words[..words.len() - 1]);
    assert!(
        run.stdout.contains(
            "method:     the misère quotient of kayles (order 40, proven for every heap: period 12 from heap 71), without search"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn value_misere_of_a_huge_heap_uses_the_proven_period() {
    let v = sprague_json(&[
        "value",
        "0.75",
        "1000000000",
        "5",
        "7",
        "--misere",
        "--json",
    ]);
    assert_eq!(v["misere_rule"], "quotient");
    assert_eq!(v["outcome"], "N");
    // the huge heap's moves are too many to list; the others are found
    assert!(v["winning_moves_omitted"]
        .as_str()
        .unwrap()
        .contains("1000000000"));
    let moves: Vec<&str> = v["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["5 -> 1+2", "7 -> 1+4", "7 -> 2+3"]);
}

#[test]
fn value_misere_falls_back_to_search_and_says_why_it_cannot() {
    // Dawson's Kayles outgrows the quotient bounds for sums near heap 27; small sums are still
    // answered by the quotient below it, large ones by search while it can.
    let v = sprague_json(&["value", "dawson", "5", "9", "12", "--misere", "--json"]);
    assert_eq!(v["misere_rule"], "quotient");
    assert_bad_input(
        &["value", "dawson", "20", "30", "35", "40", "--misere"],
        "outgrows the bounds for sums",
    );
}
