//! `script:PATH` games through the command line: the same answers as the built-in games, and
//! script errors on one line with exit code 2.

use crate::common::{assert_bad_input, sprague, sprague_json, sprague_with_input};
use serde_json::json;

fn example(name: &str) -> String {
    format!(
        "script:{}/../../examples/scripts/{name}.rhai",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn temp_script(name: &str, source: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sprague-cli-script-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.rhai"));
    std::fs::write(&path, source).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn scripted_coins_answer_as_sub_1_3_4() {
    let coins = example("coins");
    let v = sprague_json(&["value", &coins, "10", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["nim_value"], 1);
    assert_eq!(v["position"], json!([10]));
    let moves: Vec<&str> = v["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["10 -> 9", "10 -> 7"]);
    let scripted = sprague_json(&["table", &coins, "--to", "60", "--format", "json"]);
    let built_in = sprague_json(&["table", "sub:1,3,4", "--to", "60", "--format", "json"]);
    assert_eq!(scripted["values"], built_in["values"]);
}

#[test]
fn scripted_kayles_certifies_the_period_of_kayles() {
    let v = sprague_json(&["period", &example("kayles"), "--json"]);
    assert_eq!(v, sprague_json(&["period", "kayles", "--json"]));
    assert_eq!(v["preperiod"], 71);
    assert_eq!(v["period"], 12);
    let v = sprague_json(&[
        "value",
        &example("kayles"),
        "5",
        "6",
        "+",
        "nim",
        "3",
        "--json",
    ]);
    assert_eq!(v["nim_value"], 4);
}

#[test]
fn scripted_grundy_is_never_certified() {
    // Nothing is computed: without max_heaps() and max_removed() no bound can prove a period.
    let v = sprague_json(&["period", &example("grundy"), "--max", "500", "--json"]);
    assert_eq!(v["period"], json!(null));
    assert_eq!(v["checked_to"], 0);
    assert!(v["no_certificate"]
        .as_str()
        .unwrap()
        .contains("max_heaps() and max_removed()"));
}

#[test]
fn scripted_tictactoe_solves_and_plays_like_mnk() {
    let v = sprague_json(&["solve", &example("tictactoe"), "--json"]);
    assert_eq!(v["outcome"], "D");
    assert_eq!(v["remoteness"], 9);
    assert_eq!(v["positions"], 5478);
    let run = sprague_with_input(
        &["play", &example("tictactoe"), "--seed", "1"],
        Some("b2\nquit\n"),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("You play b2."), "{}", run.stdout);
}

#[test]
fn scripted_cards_solve_like_the_builtin_game() {
    let scripted = sprague_json(&["value", &example("cards"), "1,2", "3,4", "7", "--json"]);
    let built_in = sprague_json(&["value", "cards:2,10", "1,2", "3,4", "7", "--json"]);
    assert_eq!(scripted["outcome"], built_in["outcome"]);
    assert_eq!(scripted["remoteness"], built_in["remoteness"]);
    assert_eq!(scripted["winning_moves"][0]["move"], "1 -> 8");
}

#[test]
fn script_errors_are_one_line_with_file_line_and_column() {
    let path = temp_script("syntax", "fn options(n) {\n    [n - 1\n}\n");
    let spec = format!("script:{path}");
    assert_bad_input(&["value", &spec, "3"], &format!("{path}:3:1: syntax error"));
    let path = temp_script("throws", "fn options(n) {\n  throw \"boom\";\n}\n");
    let spec = format!("script:{path}");
    assert_bad_input(
        &["value", &spec, "3"],
        &format!("{path}:2:3: Runtime error: boom (in options)"),
    );
    let path = temp_script("loops", "fn options(n) {\n  loop {}\n}\n");
    let spec = format!("script:{path}");
    assert_bad_input(
        &["value", &spec, "3", "--script-max-operations", "1000"],
        "more than 1000 operations in one call: a loop that never ends (a while or loop without a reachable break, a counter that never reaches its bound) or a call that is very slow; check the loops, else raise the cap with --script-max-operations",
    );
    assert_bad_input(
        &[
            "value",
            &example("coins"),
            "500",
            "--script-max-positions",
            "100",
        ],
        "more than 100 positions explored: the positions reachable may never end (a move that makes a position larger, such as n -> n + 1, reaches ever new ones) or the game is larger than the cap; check the moves, else raise the cap with --script-max-positions",
    );
    assert_bad_input(
        &["value", "script:/no/such/file.rhai", "3"],
        "/no/such/file.rhai",
    );
    let run = sprague(&["value", &example("coins"), "3", "--script-max-array", "0"]);
    assert_eq!(run.code, 2);
}
