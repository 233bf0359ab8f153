//! Issue 20: answers that say why, and no misleading corners (each checked as a user runs it).

use crate::common::{assert_bad_input, sprague, sprague_json};
use serde_json::json;

fn temp_script(name: &str, source: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sprague-cli-explain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.rhai"));
    std::fs::write(&path, source).unwrap();
    format!("script:{}", path.to_string_lossy())
}

/// Take one or two, or split a heap into two unequal heaps: no cycles, and moves that split.
const TAKE_OR_SPLIT: &str = "
fn options(n) {
    let out = [];
    if n >= 1 { out.push(n - 1); }
    if n >= 2 { out.push(n - 2); }
    out
}
fn splits(n) {
    let out = [];
    for a in 1..n { let b = n - a; if a < b { out.push([a, b]); } }
    out
}
";

#[test]
fn solve_on_a_script_without_draws_does_not_claim_a_draw() {
    let spec = temp_script("takesplit", TAKE_OR_SPLIT);
    let run = sprague(&["solve", &spec, "20"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("outcome:    N"), "{}", run.stdout);
    assert!(
        run.stdout.contains("remoteness: not computed"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("draw"), "{}", run.stdout);
    let v = sprague_json(&["solve", &spec, "20", "--json"]);
    // G(20) = 3, as `value` finds it, and a number, not a string.
    assert_eq!(v["details"]["nim_value"], 3);
    let value = sprague_json(&["value", &spec, "20", "--json"]);
    assert_eq!(value["nim_value"], 3);
}

#[test]
fn period_of_an_options_script_says_nothing_was_checked() {
    let spec = temp_script("takesplit-period", TAKE_OR_SPLIT);
    let run = sprague(&["period", &spec]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("1000000"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("no period can be certified, so none was searched for"),
        "{}",
        run.stdout
    );
    let v = sprague_json(&["period", &spec, "--json"]);
    assert_eq!(v["checked_to"], 0);
    assert_eq!(v["preperiod"], json!(null));
    assert!(v["no_certificate"]
        .as_str()
        .unwrap()
        .contains("options(pos)"));
}

#[test]
fn the_wythoff_sum_error_names_the_real_limits() {
    assert_bad_input(
        &["value", "wythoff", "600", "100", "+", "nim", "3"],
        "both heaps are at most 512 or one is at most 64",
    );
    // Within the limits the sum is valued: G(600, 5) = 598 (by the mex rule), 598 XOR 3 = 597.
    let v = sprague_json(&["value", "wythoff", "600", "5", "+", "nim", "3", "--json"]);
    assert_eq!(v["nim_value"], 597);
}

#[test]
fn csv_tables_without_their_header() {
    let run = sprague(&[
        "table",
        "kayles",
        "--to",
        "4",
        "--format",
        "csv",
        "--no-header",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "0,0\n1,1\n2,2\n3,3\n4,1\n");
    let run = sprague(&["table", "kayles", "--to", "1", "--format", "csv"]);
    assert_eq!(run.stdout, "n,value\n0,0\n1,1\n");
    assert_bad_input(
        &["table", "kayles", "--to", "4", "--no-header"],
        "--no-header goes with --format csv",
    );
}

#[test]
fn misere_results_say_misere() {
    let run = sprague(&["value", "nim", "1", "2", "--misere"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("outcome:    N (the player to move wins) in misère play"),
        "{}",
        run.stdout
    );
    let run = sprague(&["moves", "nim", "1", "2", "--misere"]);
    assert!(run.stdout.contains("misère"), "{}", run.stdout);
    // 2 -> 0 leaves nim 1, a misère P-position.
    assert!(
        run.stdout.lines().any(|l| l.contains("heap 2: 2 → 0  P")),
        "{}",
        run.stdout
    );
    let run = sprague(&["value", "nim", "1", "2"]);
    assert!(!run.stdout.contains("misère"), "{}", run.stdout);
}

#[test]
fn draws_say_whether_they_are_ties_or_loops() {
    // A full tic-tac-toe board without a line: a tie.
    let v = sprague_json(&["value", "mnk:3,3,3", "xoxxoxoxo", "--json"]);
    assert_eq!(v["outcome"], "D");
    assert_eq!(v["draw_kind"], "tie");
    // The empty board is a tie too under perfect play.
    let v = sprague_json(&["value", "mnk:3,3,3", "--json"]);
    assert_eq!(v["outcome"], "D");
    assert_eq!(v["draw_kind"], "tie");
    // A position that can only go on for ever: a loop.
    let spec = temp_script("loop", "fn options(n) { if n == 0 { [1] } else { [0] } }");
    let v = sprague_json(&["value", &spec, "0", "--json"]);
    assert_eq!(v["outcome"], "D");
    assert_eq!(v["draw_kind"], "loop");
    // No draw, no field.
    let v = sprague_json(&["value", "nim", "3", "--json"]);
    assert_eq!(v.get("draw_kind"), None);
    let moves = sprague_json(&["moves", &spec, "0", "--json"]);
    assert_eq!(moves["moves"][0]["draw_kind"], "loop");
}

#[test]
fn script_caps_are_shown_once_in_the_top_level_help() {
    let flags = [
        "--script-max-operations",
        "--script-max-call-depth",
        "--script-max-string",
        "--script-max-array",
        "--script-max-positions",
        "--script-max-memory",
        "--script-max-seconds",
    ];
    let heading = "Script caps (for script:PATH games only):";
    let top = sprague(&["--help"]);
    assert_eq!(top.code, 0, "{}", top.stderr);
    assert_eq!(top.stdout.matches(heading).count(), 1, "{}", top.stdout);
    let after = top.stdout.split(heading).nth(1).unwrap();
    for flag in flags {
        assert_eq!(
            top.stdout.matches(flag).count(),
            1,
            "{flag}: {}",
            top.stdout
        );
        assert!(
            after.contains(flag),
            "{flag} under the heading: {}",
            top.stdout
        );
    }
    assert!(after.contains("[default: 2000000]"), "{}", top.stdout);
    // Each command's help only points there.
    for command in ["value", "moves", "table", "solve", "play"] {
        let help = sprague(&[command, "--help"]);
        assert_eq!(help.code, 0, "{}", help.stderr);
        assert!(!help.stdout.contains(heading), "{command}: {}", help.stdout);
        for flag in flags {
            assert!(!help.stdout.contains(flag), "{command} shows {flag}");
        }
        assert!(
            help.stdout
                .contains("take the --script-max-* caps listed in 'sprague --help'"),
            "{command}: {}",
            help.stdout
        );
    }
    let help = sprague(&["nimber", "--help"]);
    assert!(!help.stdout.contains("script"), "{}", help.stdout);
    // The caps still work after any command.
    let run = sprague(&[
        "table",
        "kayles",
        "--to",
        "3",
        "--script-max-positions",
        "5",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn unknown_games_get_a_suggestion() {
    assert_bad_input(&["value", "kaylse", "3"], "did you mean 'kayles'?");
    assert_bad_input(&["table", "wythof", "--to", "3"], "did you mean 'wythoff'?");
    assert_bad_input(
        &["value", "nim", "3", "+", "nmi", "4"],
        "did you mean 'nim'?",
    );
    let run = sprague(&["value", "xyzzy", "3"]);
    assert_eq!(run.code, 2);
    assert!(!run.stderr.contains("did you mean"), "{}", run.stderr);
}

#[test]
fn a_forgotten_plus_is_named() {
    assert_bad_input(
        &["value", "kayles", "3", "nim", "4"],
        "did you forget a '+' before 'nim'?",
    );
    assert_bad_input(
        &["value", "nim", "3", "+", "kayles", "2", "sub:1,2", "5"],
        "did you forget a '+' before 'sub:1,2'?",
    );
}

#[test]
fn a_runaway_script_hears_the_likely_causes() {
    let spec = temp_script("grows", "fn options(n) { [n + 1] }");
    assert_bad_input(
        &["value", &spec, "0", "--script-max-positions", "100"],
        "the positions reachable may never end (a move that makes a position larger",
    );
    let spec = temp_script(
        "spins",
        "fn options(n) {\n  let i = 0;\n  while i >= 0 { i += 1; }\n  []\n}\n",
    );
    assert_bad_input(
        &["value", &spec, "1", "--script-max-operations", "1000"],
        "a loop that never ends",
    );
}

#[test]
fn value_explain_works_the_xor_in_binary() {
    let run = sprague(&["value", "kayles", "10", "+", "nim", "3", "--explain"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let why = run.stdout.split("why:\n").nth(1).expect("a why: section");
    // G(10) = 2 in Kayles; 2 XOR 3 = 1.
    assert!(why.contains("kayles 10    2 = 10\n"), "{why}");
    assert!(why.contains("nim 3        3 = 11\n"), "{why}");
    assert!(why.contains("XOR = 01 = 1\n"), "{why}");
    assert!(
        why.contains(
            "part 1 (kayles 10): 2 XOR 1 = 3 > 2, and it has an option of value 3: move there"
        ),
        "{why}"
    );
    assert!(
        why.contains("part 2 (nim 3): 3 XOR 1 = 2 < 3: move it to a position of nim value 2"),
        "{why}"
    );
    let v = sprague_json(&["value", "nim", "1", "2", "3", "--explain", "--json"]);
    assert_eq!(v["outcome"], "P");
    let lines: Vec<&str> = v["explanation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        lines.iter().any(|l| l.ends_with("XOR = 00 = 0")),
        "{lines:?}"
    );
    // Without --explain, no field.
    let v = sprague_json(&["value", "nim", "1", "2", "3", "--json"]);
    assert_eq!(v.get("explanation"), None);
    assert_bad_input(
        &["moves", "nim", "3", "--explain"],
        "--explain is for 'value'",
    );
}

#[test]
fn value_explain_fills_in_the_closed_forms() {
    let run = sprague(&["value", "wythoff", "1000000", "1618034", "--explain"]);
    assert!(
        run.stdout
            .contains("k = 1618034 − 1000000 = 618034 and ⌊618034φ⌋ = 1000000"),
        "{}",
        run.stdout
    );
    let run = sprague(&["value", "fib", "10", "--explain"]);
    assert!(run.stdout.contains("10 = 8 + 2"), "{}", run.stdout);
    assert!(run.stdout.contains("taking 2 wins"), "{}", run.stdout);
    let run = sprague(&["value", "moore:2", "3", "5", "6", "--explain"]);
    assert!(
        run.stdout
            .contains("2^2: 2, 2^1: 2, 2^0: 2; some count is not a multiple of 3"),
        "{}",
        run.stdout
    );
    let run = sprague(&["value", "nim", "1", "1", "1", "--misere", "--explain"]);
    assert!(run.stdout.contains("SJ (Anti-Nim) rule"), "{}", run.stdout);
    assert!(
        run.stdout.contains("so the player to move loses"),
        "{}",
        run.stdout
    );
}

/// GZOI 2017 by brute force: pairs (S, d ∈ S) where the player forced to move on heap d first
/// cannot reach XOR 0, i.e. the XOR of S's other heaps is at least a_d.
fn gzoi_brute_force(heaps: &[u64]) -> u64 {
    let mut count = 0;
    for set in 0u32..1 << heaps.len() {
        for d in (0..heaps.len()).filter(|&d| set >> d & 1 == 1) {
            let others = (0..heaps.len())
                .filter(|&i| i != d && set >> i & 1 == 1)
                .fold(0, |x, i| x ^ heaps[i]);
            if others >= heaps[d] {
                count += 1;
            }
        }
    }
    count
}

#[test]
fn count_gzoi2017_agrees_with_brute_force() {
    let run = sprague(&["count", "gzoi2017", "1", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.split_whitespace().last(), Some("1"));
    let mut state = 12345u64;
    for n in 1..=9 {
        let heaps: Vec<u64> = (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                state >> 59
            })
            .collect();
        let words: Vec<String> = heaps.iter().map(u64::to_string).collect();
        let mut args = vec!["count", "gzoi2017"];
        args.extend(words.iter().map(String::as_str));
        let run = sprague(&args);
        assert_eq!(
            run.stdout.split_whitespace().last().unwrap(),
            gzoi_brute_force(&heaps).to_string(),
            "{heaps:?}"
        );
        args.push("--json");
        let v = sprague_json(&args);
        assert_eq!(v["count"], gzoi_brute_force(&heaps), "{heaps:?}");
        assert_eq!(v["modulus"], 1_000_000_007u64);
    }
    assert_bad_input(&["count", "gzoi2017", "1", "-2"], "-2");
}

#[test]
fn near_misses_of_hook_names_warn_with_their_line() {
    let spec = temp_script(
        "near-miss",
        "fn heap_options(n) {\n    if n >= 1 { [[n - 1]] } else { [] }\n}\nfn max_remove() { 1 }\nfn option(n) { [] }\nfn helper(x) { x }\n",
    );
    let run = sprague(&["value", &spec, "3"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The game still runs (a chain of heaps: G(3) = 1), and both typos are named.
    assert!(run.stdout.contains("nim value:  1"), "{}", run.stdout);
    assert!(
        run.stderr.contains(
            ":4: fn max_remove is not a hook the game reads; did you mean 'max_removed'?"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains(":5: fn option is not a hook the game reads; did you mean 'options'?"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("helper"), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 2, "{}", run.stderr);
    // The example scripts have helpers (takes, edges, to_move, parse_hand): no warning.
    let coins = format!(
        "script:{}/../../examples/scripts/coins.rhai",
        env!("CARGO_MANIFEST_DIR")
    );
    let run = sprague(&["value", &coins, "5"]);
    assert_eq!(run.stderr, "");
}

#[test]
fn solve_reports_say_what_kind_of_draw() {
    let v = sprague_json(&["solve", "mnk:3,3,3", "--json"]);
    assert_eq!(v["outcome"], "D");
    assert_eq!(v["draw_kind"], "tie");
    let spec = temp_script(
        "solve-loop",
        "fn options(n) { if n == 0 { [1] } else { [0] } }",
    );
    let v = sprague_json(&["solve", &spec, "0", "--json"]);
    assert_eq!(v["outcome"], "D");
    assert_eq!(v["draw_kind"], "loop");
    assert_eq!(v["details"]["nim_value"], json!(null));
    assert_eq!(v["details"]["loopy_value"], "∞()");
    let v = sprague_json(&["solve", "cards:2,4", "--json"]);
    assert_eq!(v.get("draw_kind"), None, "{v}");
}

#[test]
fn value_explain_shows_tartan_products() {
    let run = sprague(&["value", "corners", "1,1", "2,3", "--explain"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("outcome:    P"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("2,3: twins(2+1) ⊗ twins(3+1) = 2 ⊗ 3 = 1; XOR 0"),
        "{}",
        run.stdout
    );
}

#[test]
fn value_explain_plays_a_board_to_the_end() {
    // o to move on x.o/x../...: only a1 holds the tie (x threatens a1-a3... the column a).
    let run = sprague(&["value", "mnk:3,3,3", "x.o.x....", "--explain"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let why = run.stdout.split("why:\n").nth(1).expect("a why: section");
    assert!(
        why.contains("perfect play from here (a tie in 6 moves) goes"),
        "{why}"
    );
    // Six moves, each a tie for its player, the remoteness counting down to the end.
    for (ply, after) in [
        (1, "remoteness 5 after it"),
        (5, "remoteness 1 after it"),
        (6, "the game ends"),
    ] {
        assert!(
            why.lines()
                .any(|l| l.trim_start().starts_with(&format!("{ply}. "))
                    && l.contains("(tie for the player making it")
                    && l.ends_with(&format!("{after})"))),
            "move {ply}: {why}"
        );
    }
    assert!(why.contains("the game is over after 6 moves"), "{why}");
    let v = sprague_json(&["value", "mnk:3,3,3", "xx.oo....", "--explain", "--json"]);
    let lines: Vec<&str> = v["explanation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    // x wins at once in c3.
    assert!(
        lines
            .iter()
            .any(|l| l.contains("1. c3  (win for the player making it; the game ends)")),
        "{lines:?}"
    );
    // A scored game: the values left after each move.
    let run = sprague(&["value", "ends:1", "3", "9", "1", "2", "--explain"]);
    assert!(
        run.stdout.contains("left for the player then to move"),
        "{}",
        run.stdout
    );
}

#[test]
fn value_explain_gives_the_numbers_of_quotients_and_periods() {
    let run = sprague(&["value", "0.75", "5", "7", "--misere", "--explain"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "presentation <a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2>, P-portion {a, b^2}"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("each heap's element: 5 → c, 7 → c; their product is b^2"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("b^2 is in the P-portion: the player to move loses"),
        "{}",
        run.stdout
    );
    let run = sprague(&["value", "0.75", "5", "--misere", "--explain"]);
    assert!(
        run.stdout
            .contains("is not in the P-portion: the player to move wins"),
        "{}",
        run.stdout
    );
    // Kayles: period 12 from 71; 1000 = 76 + 77·12.
    let run = sprague(&["value", "kayles", "1000", "+", "nim", "3", "--explain"]);
    assert!(
        run.stdout.contains(
            "G(n + 12) = G(n) for every n ≥ 71 (certified with the values up to heap 167); 1000 = 76 + 77·12, so G(1000) = G(76) = 1"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn anti_sg_play_follows_the_general_sj_theorem() {
    // Kayles rows 2 and 3 (values 2, 3): two big summands, XOR 1: the player to move wins by
    // leaving XOR 0, row 3 down to 2.
    let run = sprague(&["value", "kayles", "2", "3", "--anti-sg", "--explain"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("outcome:    N (the player to move wins) in Anti-SG play"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("row 2: knock down pin 3 (3 → 2)  => kayles 2 2"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("here 2 parts have a value of 2 or more, and the XOR is 1"),
        "{}",
        run.stdout
    );
    let v = sprague_json(&["value", "kayles", "2", "2", "--anti-sg", "--json"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["play"], "anti-sg");
    assert_eq!(v["misere_rule"], "anti-sg");
    // Every summand 0 (Dawson's rows of 1: no move): the game is over, N.
    let v = sprague_json(&["value", "dawson", "1", "1", "--anti-sg", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"], json!([]));
    // Three rows of value 1 (kayles 1 1 1): an odd number of 1s, no big one: P.
    let v = sprague_json(&["value", "kayles", "1", "1", "1", "--anti-sg", "--json"]);
    assert_eq!(v["outcome"], "P");
    let run = sprague(&["value", "nim", "1", "--anti-sg", "--misere"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
    assert_bad_input(
        &["moves", "nim", "1", "--anti-sg"],
        "--anti-sg is for 'value'",
    );
    assert_bad_input(
        &["value", "mnk:3,3,3", "--anti-sg"],
        "Anti-SG play is for sums of impartial games",
    );
}

#[test]
fn moves_read_like_the_game() {
    let run = sprague(&["moves", "kayles", "4", "+", "nim", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for line in [
        "row 1: knock down pin 2 (4 → 1 + 2)",
        "row 1: knock down pins 3–4 (4 → 2)",
        "heap 2: 2 → 0",
    ] {
        assert!(run.stdout.contains(line), "{line}: {}", run.stdout);
    }
    let run = sprague(&["value", "wythoff", "3", "7", "+", "nim", "2"]);
    assert!(
        run.stdout
            .contains("board 1: queen (3,7) → (3,4), 3 squares down  => wythoff 3 4 + nim 2"),
        "{}",
        run.stdout
    );
    let run = sprague(&["moves", "ruler", "3", "5"]);
    assert!(
        run.stdout.contains("turn over coins 1-5 (TTHTH → HHTHT)"),
        "{}",
        run.stdout
    );
    // JSON keeps "move" as it was and adds "description".
    let v = sprague_json(&["moves", "nim", "3", "4", "--json"]);
    assert_eq!(v["moves"][0]["move"], "3 -> 2");
    assert_eq!(v["moves"][0]["description"], "heap 1: 3 → 2");
    let v = sprague_json(&["value", "kayles", "7", "--json"]);
    assert_eq!(v["winning_moves"][0]["move"], "7 -> 3+3");
    assert_eq!(
        v["winning_moves"][0]["description"],
        "knock down pin 4 (7 → 3 + 3)"
    );
}

#[test]
fn play_keeps_heap_numbers_when_a_heap_vanishes() {
    use crate::common::sprague_with_input;
    let run = sprague_with_input(
        &["play", "nim", "1", "2", "3", "--seed", "1"],
        Some("heap 1: 1 -> 0\nquit\n"),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("You play heap 1: 1 → 0."),
        "{}",
        run.stdout
    );
    // Heaps 2 and 3 keep their numbers; the engine answers on heap 3 (3 → 2 leaves XOR 0).
    assert!(
        run.stdout.contains("heap 2: 2, heap 3: 3"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("The engine plays heap 3: 3 → 2."),
        "{}",
        run.stdout
    );
}

#[test]
fn three_dimensional_corner_flipping() {
    // 3-D corners: a head at (x, y, z) is worth x ⊗ y ⊗ z (twins(n) = n - 1).
    let run = sprague(&[
        "value",
        "tartan:twins*twins*twins",
        "1,2,3",
        "2,3,5",
        "--explain",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // 1 ⊗ 2 ⊗ 3 = 2 ⊗ 3 = 1; 2 ⊗ 3 ⊗ 5 = 1 ⊗ 5 = 5; XOR 4.
    assert!(run.stdout.contains("nim value:  4"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("1,2,3: twins(1+1) ⊗ twins(2+1) ⊗ twins(3+1) = 1 ⊗ 2 ⊗ 3 = 2 ⊗ 3 = 1"),
        "{}",
        run.stdout
    );
    // Every winning move leaves a position of value 0.
    let v = sprague_json(&[
        "value",
        "tartan:ruler*ruler*ruler",
        "1,2,3",
        "4,5,6",
        "--json",
    ]);
    assert_eq!(v["outcome"], "N");
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for m in moves {
        let heads: Vec<String> = m["position"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let c: Vec<String> = c
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.to_string())
                    .collect();
                c.join(",")
            })
            .collect();
        let mut args = vec!["value", "tartan:ruler*ruler*ruler"];
        args.extend(heads.iter().map(String::as_str));
        args.push("--json");
        assert_eq!(sprague_json(&args)["nim_value"], 0, "{m}");
    }
    // Far out, the algebra answers: a winning move exists and leaves 0.
    let far = ["123456789012,987654321,55555555555", "7,1000000000000,3"];
    let mut args = vec!["value", "tartan:twins*twins*twins"];
    args.extend(far);
    args.push("--json");
    let v = sprague_json(&args);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1);
    assert_bad_input(&["value", "tartan:ruler*ruler*ruler", "1,2"], "x,y,z");
}

#[test]
fn graph_files_sum_with_other_games() {
    let dir = std::env::temp_dir().join(format!("sprague-cli-graph-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("g.txt");
    // 0 <- 1 <- 2, 2 -> 0; 3 <-> 4, 4 -> 0: values 0, 1, 2, 0, 1.
    std::fs::write(&file, "5 6\n1 0\n2 1\n2 0\n3 4\n4 3\n4 0\n").unwrap();
    let spec = format!("graph:{}", file.display());
    let v = sprague_json(&["value", &spec, "2", "+", "nim", "4", "--json"]);
    assert_eq!(v["nim_value"], 6);
    assert_eq!(v["outcome"], "N");
    assert_eq!(
        v["winning_moves"],
        json!([{"move": "4 -> 2", "description": "heap 2: 4 → 2", "position": [{"game": spec, "position": 2}, {"game": "nim", "position": [2]}], "component": 1}])
    );
    let v = sprague_json(&["value", &spec, "4", "+", "nim", "1", "--json"]);
    assert_eq!(v["outcome"], "P");
    let run = sprague(&["moves", &spec, "4", "+", "nim", "1"]);
    assert!(
        run.stdout.contains("token 1: token 4 → 3"),
        "{}",
        run.stdout
    );
    assert_bad_input(&["value", &spec, "9"], "vertex 9 is not in the graph");
    // A vertex whose play goes round a cycle for ever: a draw, and no remoteness to compute.
    let cycle = dir.join("cycle.txt");
    std::fs::write(&cycle, "4 4\n0 1\n1 2\n2 3\n3 1\n").unwrap();
    let spec = format!("graph:{}", cycle.display());
    let run = sprague(&["value", &spec, "0", "+", "nim", "4"]);
    assert!(run.stdout.contains("outcome:    D"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("remoteness: none (a draw: play can go on for ever)"),
        "{}",
        run.stdout
    );
    let v = sprague_json(&["value", &spec, "0", "+", "nim", "4", "--json"]);
    assert_eq!(v["draw_kind"], "loop");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn chip_splitting_rules_in_the_spec_language() {
    // Lasker's Nim: take any, or split a heap in two; G = 0 1 2 4 3 5 6 8 7.
    let run = sprague(&[
        "table",
        "split:take=any/into=2",
        "--to",
        "8",
        "--format",
        "csv",
        "--no-header",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let values: Vec<&str> = run
        .stdout
        .lines()
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(values, ["0", "1", "2", "4", "3", "5", "6", "8", "7"]);
    let v = sprague_json(&["period", "split:take=1-2/into=2@1-2", "--json"]);
    assert_eq!(v["period"], 12, "Kayles written as chip splitting");
    assert_eq!(v["preperiod"], 71);
    // A chip that jumps to two lower nodes or vanishes (no code: its options are listed):
    // every chip is worth 1 (its two chips cancel, vanishing is 0), so chip 5 + nim 1 is P.
    let v = sprague_json(&[
        "value",
        "split:below=2/below=0",
        "5",
        "+",
        "nim",
        "1",
        "--json",
    ]);
    assert_eq!(v["nim_value"], 0, "{v}");
    assert_eq!(v["outcome"], "P");
    let v = sprague_json(&[
        "table",
        "split:distinct=3/take=1",
        "--to",
        "6",
        "--format",
        "json",
    ]);
    // Take 1, or split into three different heaps (6 = 1 + 2 + 3): 0 1 0 1 0 1 2.
    assert_eq!(v["values"], json!([0, 1, 0, 1, 0, 1, 2]));
    assert_bad_input(&["value", "split:into=1", "5"], "into=1");
}
