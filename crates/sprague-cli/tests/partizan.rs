//! Partizan games from the command line: `value`, `compare` and `thermograph`.

use crate::common::{assert_bad_input, sprague, sprague_json};
use serde_json::json;

#[test]
fn domineering_2x2_is_plus_or_minus_one() {
    // Winning Ways ch. 1: the 2×2 Domineering board is ±1; either player moving first wins by
    // either of their two placements.
    let v = sprague_json(&["value", "domineering:2x2", "--json"]);
    assert_eq!(v["game"], "domineering:2x2");
    assert_eq!(v["position"], "..|..");
    assert_eq!(v["canonical_form"], "±1");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["nim_value"], json!(null));
    assert_eq!(v["mean"], "0");
    assert_eq!(v["temperature"], "1");
    assert_eq!(
        v["left_winning_moves"],
        json!([
            {"move": "(1,1)-(2,1)", "position": "#.|#."},
            {"move": "(1,2)-(2,2)", "position": ".#|.#"}
        ])
    );
    assert_eq!(v["right_winning_moves"].as_array().unwrap().len(), 2);
}

#[test]
fn known_values_print_in_cgsuite_notation() {
    let canonical = |args: &[&str]| {
        let mut all = vec!["value"];
        all.extend_from_slice(args);
        all.push("--json");
        sprague_json(&all)["canonical_form"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // A vertical strip of two cells is one move for Left (Winning Ways ch. 1).
    assert_eq!(canonical(&["domineering", ".|."]), "1");
    // {0|{0|0}} is ↑ (Winning Ways ch. 3; the example).
    assert_eq!(canonical(&["cg", "{0|{0|0}}"]), "^");
    // Hackenbush: BR is 1/2, a green edge is * (Winning Ways ch. 2).
    assert_eq!(canonical(&["hackenbush", "BR"]), "1/2");
    assert_eq!(canonical(&["hackenbush", "BBR", "RG"]), "1/2*");
    // Cutcake: a 1×2 piece is one cut for Left, 2×1 one for Right (Winning Ways ch. 2).
    assert_eq!(canonical(&["cutcake", "1x2"]), "1");
    assert_eq!(canonical(&["cutcake", "2x1"]), "-1");
    // Toads and Frogs: T.F is * (either player moves, then neither can), Winning Ways ch. 1.
    assert_eq!(canonical(&["toads-frogs", "T.F"]), "*");
    // An impartial game in a partizan sum counts as its nimber: *3 + *3 = 0.
    let v = sprague_json(&["value", "nim", "3", "+", "cg", "*3", "--json"]);
    assert_eq!(v["canonical_form"], "0");
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["nim_value"], 0);
    // The example: a sum written in the notation.
    let v = sprague_json(&["value", "cg", "{2|1||0} + ^", "--json"]);
    assert_eq!(v["outcome"], "L");
}

#[test]
fn compare_prints_the_relation() {
    let relation = |args: &[&str]| {
        let mut all = vec!["compare", "--json"];
        all.extend_from_slice(args);
        sprague_json(&all)["relation"].as_str().unwrap().to_string()
    };
    assert_eq!(relation(&["cg", "^", "--", "cg", "0"]), ">");
    assert_eq!(relation(&["cg", "^", "--", "cg", "*"]), "||");
    assert_eq!(relation(&["cg", "v", "--", "cg", "0"]), "<");
    assert_eq!(relation(&["domineering:2x2", "--", "cg", "{1|-1}"]), "=");
    assert_eq!(
        relation(&["hackenbush", "BR", "+", "hackenbush", "BR", "--", "cg", "1"]),
        "="
    );
    // `--json` may come last too.
    let v = sprague_json(&["compare", "cg", "1", "--", "cg", "1/2", "--json"]);
    assert_eq!(v, json!({"relation": ">"}));
    let run = sprague(&["compare", "cg", "1", "--", "cg", "1/2"]);
    assert_eq!(run.stdout, ">\n");
}

#[test]
fn thermograph_of_a_switch() {
    // {2|-1}: walls 3 - t... meet at t = 3/2 at the mean 1/2 (Winning Ways ch. 6).
    let v = sprague_json(&["thermograph", "cg", "{2|-1}", "--json"]);
    assert_eq!(v["mean"], "1/2");
    assert_eq!(v["temperature"], "3/2");
    assert_eq!(
        v["left_wall"],
        json!([{"t": "-1", "value": "3"}, {"t": "3/2", "value": "1/2"}])
    );
    assert_eq!(
        v["right_wall"],
        json!([{"t": "-1", "value": "-2"}, {"t": "3/2", "value": "1/2"}])
    );
    let run = sprague(&["thermograph", "cg", "{2|-1}", "--svg", "-"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.starts_with("<svg") && run.stdout.contains("polyline"));
    // Numbers have negative temperature, as in CGSuite.
    let v = sprague_json(&["thermograph", "cg", "1/2", "--json"]);
    assert_eq!(v["temperature"], "-1/2");
}

#[test]
fn partizan_bad_input_exits_2() {
    assert_bad_input(&["value", "domineering", "..|.x"], "unexpected 'x'");
    assert_bad_input(&["value", "domineering", "...|.."], "rectangular");
    assert_bad_input(&["value", "hackenbush", "BXR"], "unknown colour");
    assert_bad_input(&["value", "cg", "{1|"], "unclosed");
    assert_bad_input(&["value", "domineering:20x20"], "at most 128");
    assert_bad_input(&["value", "domineering:2x2", "--misere"], "misère");
    assert_bad_input(&["play", "domineering:2x2"], "partizan");
    assert_bad_input(&["value", "mnk:3,3,3", "+", "cg", "1"], "cannot be summed");
    assert_bad_input(&["compare", "cg", "1"], "'--'");
    assert_bad_input(&["thermograph", "mnk:3,3,3"], "no canonical form");
    assert_bad_input(&["value", "toads-frogs", "TXF"], "unexpected 'X'");
    assert_bad_input(&["value", "col", "3:0-5"], "not a vertex");
}

#[test]
fn hackenbush_graphs_come_from_a_file() {
    // The module's example file: a blue stalk of two edges with a red and a green edge side by
    // side on top (not a stalk, so it prints as an edge list).
    let dir = std::env::temp_dir().join(format!("sprague-hackenbush-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("graph.txt");
    std::fs::write(&file, "ground 0\n0 1 B\n1 2 B\n2 3 R\n2 3 G\n").unwrap();
    let v = sprague_json(&[
        "value",
        "hackenbush",
        "--position-file",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["position"], "0-1:B,1-2:B,2-3:R,2-3:G");
    // The edge list it prints reads back.
    let back = sprague_json(&["value", "hackenbush", "0-1:B,1-2:B,2-3:R,2-3:G", "--json"]);
    assert_eq!(back["canonical_form"], v["canonical_form"]);
    assert_bad_input(
        &["value", "hackenbush", "0", "1", "B", "1", "2"],
        "expected 'u v C'",
    );
}

#[test]
fn moves_lists_both_players_options_with_their_values() {
    // Domineering 2×3 (2 rows): Left's vertical domino in the middle column leaves two
    // vertical 2×1 strips, each worth 1 to Left (Winning Ways ch. 1), so 2; each of Right's
    // four moves leaves -1/2.
    let v = sprague_json(&["moves", "domineering:2x3", "--json"]);
    let left = v["left_moves"].as_array().unwrap();
    assert_eq!(left.len(), 3);
    assert_eq!(left[1]["move"], "(1,2)-(2,2)");
    assert_eq!(left[1]["canonical_form"], "2");
    assert_eq!(left[1]["wins"], true);
    assert_eq!(left[0]["canonical_form"], "±1");
    assert_eq!(left[0]["wins"], false);
    let right = v["right_moves"].as_array().unwrap();
    assert_eq!(right.len(), 4);
    assert!(right
        .iter()
        .all(|m| m["canonical_form"] == "-1/2" && m["wins"] == true));
}
