//! Scripted games (`script:PATH`): every example script against its built-in counterpart or a
//! brute-force oracle, and every class of script error with its message.

use crate::support::{parse_game, parse_position};
use sprague::analysis;
use sprague::catalog::{Catalog, GameRef, Settings};
use sprague::erased::{Parsed, Position};
use sprague::game::{NimValue, Outcome, Play};
use sprague::heap::PeriodSearch;
use sprague::script::Limits;
use sprague::Error;

/// The game of the script at `path`, under `limits`.
fn load_game_with_limits(path: &str, limits: Limits) -> sprague::Result<GameRef> {
    let settings = Settings {
        script: limits,
        ..Settings::default()
    };
    Catalog::new(settings).game(&format!("script:{path}"))
}
use std::collections::{HashSet, VecDeque};

fn example(name: &str) -> String {
    format!(
        "script:{}/../../examples/scripts/{name}.rhai",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn value(words: &[String]) -> analysis::ValueReport {
    let position = parse_position(words).expect("the position parses");
    analysis::value(&position, Play::Normal).expect("it evaluates")
}

fn words(game: &str, rest: &[&str]) -> Vec<String> {
    std::iter::once(game.to_string())
        .chain(rest.iter().map(|s| s.to_string()))
        .collect()
}

fn table(spec: &str, to: u64) -> Vec<u64> {
    parse_game(spec)
        .unwrap()
        .heap()
        .expect("a heap game")
        .table(to, &())
        .unwrap()
        .values
        .to_vec()
}

#[test]
fn coins_script_equals_sub_1_3_4() {
    let coins = example("coins");
    assert_eq!(table(&coins, 300), table("sub:1,3,4", 300));
    for heaps in [&["10"][..], &["7", "9"], &["3", "4", "5"], &["100", "13"]] {
        let scripted = value(&words(&coins, heaps));
        let built_in = value(&words("sub:1,3,4", heaps));
        assert_eq!(scripted.outcome, built_in.outcome, "{heaps:?}");
        assert_eq!(scripted.nim_value, built_in.nim_value, "{heaps:?}");
        let texts = |r: &analysis::ValueReport| -> Vec<String> {
            r.winning_moves.iter().map(|m| m.text.clone()).collect()
        };
        assert_eq!(texts(&scripted), texts(&built_in), "{heaps:?}");
    }
    // A sum with a built-in game.
    let mut sum = words(&coins, &["5"]);
    sum.extend(words("+", &["nim", "3"]));
    assert_eq!(value(&sum).nim_value, Some(3 ^ 3));
}

#[test]
fn kayles_script_certifies_the_builtin_period() {
    let kayles = example("kayles");
    let game = parse_game(&kayles).unwrap();
    let scripted = game.heap().unwrap().period(100_000, &()).unwrap();
    let built_in = parse_game("kayles")
        .unwrap()
        .heap()
        .unwrap()
        .period(100_000, &())
        .unwrap();
    assert_eq!(scripted, built_in);
    let PeriodSearch::Certified(p) = scripted else {
        panic!("kayles is certified");
    };
    assert_eq!((p.preperiod, p.period), (71, 12));
    assert_eq!(table(&kayles, 400), table("kayles", 400));
    // Huge heaps answer from the certified period, as for the built-in game.
    let big = ["1000000000000", "77"];
    assert_eq!(
        value(&words(&kayles, &big)).nim_value,
        value(&words("kayles", &big)).nim_value
    );
}

#[test]
fn grundy_script_equals_the_builtin_grundy() {
    let grundy = example("grundy");
    assert_eq!(table(&grundy, 300), table("grundy", 300));
    assert!(matches!(
        parse_game(&grundy)
            .unwrap()
            .heap()
            .unwrap()
            .period(2000, &())
            .unwrap(),
        PeriodSearch::NoCertificate { .. }
    ));
    let heaps = ["20", "17", "9"];
    assert_eq!(
        value(&words(&grundy, &heaps)).nim_value,
        value(&words("grundy", &heaps)).nim_value
    );
}

/// The graph of `chips.rhai`, and its values by direct recursion.
fn chip_values() -> Vec<(&'static str, u64)> {
    let edges: &[(&str, &[&str])] = &[
        ("a", &["b", "c", "d"]),
        ("b", &["c", "e"]),
        ("c", &["e", "f"]),
        ("d", &["f", "g"]),
        ("e", &["h"]),
        ("f", &["g", "h"]),
        ("g", &["h"]),
        ("h", &[]),
    ];
    fn sg(node: &str, edges: &[(&str, &[&str])]) -> u64 {
        let next = edges.iter().find(|(n, _)| *n == node).unwrap().1;
        let mut seen: Vec<u64> = next.iter().map(|v| sg(v, edges)).collect();
        for (i, v) in next.iter().enumerate() {
            for w in &next[i + 1..] {
                seen.push(sg(v, edges) ^ sg(w, edges));
            }
        }
        (0..).find(|g| !seen.contains(g)).unwrap()
    }
    edges.iter().map(|(n, _)| (*n, sg(n, edges))).collect()
}

#[test]
fn chips_script_equals_brute_force() {
    let chips = example("chips");
    let values = chip_values();
    for &(node, g) in &values {
        assert_eq!(value(&words(&chips, &[node])).nim_value, Some(g), "{node}");
    }
    for &(a, ga) in &values {
        for &(b, gb) in &values {
            let report = value(&words(&chips, &[a, b]));
            assert_eq!(report.nim_value, Some(ga ^ gb), "{a} {b}");
            for m in &report.winning_moves {
                let after = value(&m.display.split(' ').map(String::from).collect::<Vec<_>>());
                assert_eq!(after.outcome, Outcome::P, "{a} {b}: {}", m.text);
            }
        }
    }
}

/// Every tic-tac-toe board reachable from the empty board.
fn tictactoe_boards() -> Vec<String> {
    const LINES: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([vec![b'.'; 9]]);
    let mut out = Vec::new();
    while let Some(board) = queue.pop_front() {
        if !seen.insert(board.clone()) {
            continue;
        }
        out.push(String::from_utf8(board.clone()).unwrap());
        let over = LINES.iter().any(|l| {
            board[l[0]] != b'.' && board[l[0]] == board[l[1]] && board[l[1]] == board[l[2]]
        });
        if over {
            continue;
        }
        let xs = board.iter().filter(|&&c| c == b'x').count();
        let os = board.iter().filter(|&&c| c == b'o').count();
        let mark = if xs == os { b'x' } else { b'o' };
        for i in 0..9 {
            if board[i] == b'.' {
                let mut next = board.clone();
                next[i] = mark;
                queue.push_back(next);
            }
        }
    }
    out
}

#[test]
fn tictactoe_script_equals_mnk_3_3_3() {
    let script = example("tictactoe");
    let boards = tictactoe_boards();
    assert_eq!(boards.len(), 5478);
    let scripted_game = parse_game(&script).unwrap();
    let mnk = parse_game("mnk:3,3,3").unwrap();
    let evaluate = |game: &GameRef, board: &str| {
        let Parsed::Single(s) = game.parse(&[board]).unwrap() else {
            panic!()
        };
        analysis::value(&Position::Single(s), Play::Normal).unwrap()
    };
    for board in &boards {
        let scripted = evaluate(&scripted_game, board);
        let built_in = evaluate(&mnk, board);
        assert_eq!(scripted.outcome, built_in.outcome, "{board}");
        assert_eq!(scripted.remoteness, built_in.remoteness, "{board}");
        let texts = |r: &analysis::ValueReport| -> Vec<String> {
            let mut t: Vec<String> = r.winning_moves.iter().map(|m| m.text.clone()).collect();
            t.sort();
            t
        };
        assert_eq!(texts(&scripted), texts(&built_in), "{board}");
    }
    let game = parse_game(&script).unwrap();
    let report = game.solve(&[], &()).unwrap().unwrap();
    assert_eq!(report.outcome, Outcome::D);
    assert_eq!(report.remoteness, Some(9));
    assert_eq!(report.positions, 5478);
}

/// The positions reachable from `start` through the script's own moves.
fn reachable(start: Position) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([start]);
    let mut out = Vec::new();
    while let Some(p) = queue.pop_front() {
        if !seen.insert(p.to_string()) {
            continue;
        }
        if let Position::Single(s) = &p {
            for (_, next) in s.moves().unwrap() {
                queue.push_back(Position::Single(next));
            }
        }
        out.push(p);
    }
    out
}

#[test]
fn cards_script_equals_the_builtin_card_game() {
    let script = example("cards");
    let start = parse_position(&[script.as_str()]).unwrap();
    let positions = reachable(start);
    assert_eq!(positions.len(), 20207);
    let cards = parse_game("cards:2,10").unwrap();
    for p in positions.iter().step_by(3) {
        let Position::Single(s) = p else { panic!() };
        let text = s.to_string();
        let args: Vec<&str> = text.split(' ').collect();
        let Parsed::Single(built_in) = cards.parse(&args).unwrap() else {
            panic!()
        };
        let built_in = analysis::value(&Position::Single(built_in), Play::Normal).unwrap();
        let scripted = analysis::value(p, Play::Normal).unwrap();
        assert_eq!(scripted.outcome, built_in.outcome, "{text}");
        assert_eq!(scripted.remoteness, built_in.remoteness, "{text}");
    }
}

/// The card game of seed 004 as an impartial script (no `result`: a finished position has no
/// options): its loopy nim values against the built-in game's, ∞ exactly at the draws.
#[test]
fn loopy_impartial_script_equals_the_builtin_loopy_values() {
    let source = r#"
        fn options(p) {
            if 0 in p[1] { return []; }
            let out = [];
            for i in 0..2 {
                if i == 1 && p[0][0] == p[0][1] { break; }
                let next = p[0];
                next[i] = (p[0][i] + p[2]) % 10;
                next.sort();
                out.push([p[1], next, p[0][i]]);
            }
            out
        }
    "#;
    let path = temp_script("loopy_cards", source);
    let game = load_game_with_limits(&path, Limits::DEFAULT).unwrap();
    let cards = parse_game("cards:2,10").unwrap();
    let (mut finite, mut infinite) = (0, 0);
    for (a, b, c, d, y) in [
        (1, 1, 1, 1, 0),
        (1, 2, 3, 4, 7),
        (2, 5, 5, 8, 3),
        (0, 9, 4, 4, 1),
    ] {
        let literal = format!("[[{a},{b}],[{c},{d}],{y}]");
        let Parsed::Parts(segment) = game.parse(&[&literal]).unwrap() else {
            panic!()
        };
        segment.parts[0].nim_value().unwrap();
    }
    for a in (0..10).step_by(3) {
        for b in a..10 {
            for c in (1..10).step_by(4) {
                for d in c..10 {
                    for y in [0, 7] {
                        let literal = format!("[[{a},{b}],[{c},{d}],{y}]");
                        let Parsed::Parts(segment) = game.parse(&[&literal]).unwrap() else {
                            panic!()
                        };
                        let scripted = segment.parts[0].nim_value().unwrap();
                        let args = [format!("{a},{b}"), format!("{c},{d}"), y.to_string()];
                        let words: Vec<&str> = args.iter().map(String::as_str).collect();
                        let Parsed::Single(built_in) = cards.parse(&words).unwrap() else {
                            panic!()
                        };
                        let built_in = built_in.evaluate().unwrap();
                        match scripted {
                            NimValue::Finite(g) => {
                                finite += 1;
                                assert_eq!(built_in.nim_value, Some(g), "{args:?}");
                            }
                            NimValue::Infinite(escapes) => {
                                // ∞(K) is a win exactly when K holds 0, else a draw.
                                infinite += 1;
                                let expected = if escapes.contains(&0) {
                                    Outcome::N
                                } else {
                                    Outcome::D
                                };
                                assert_eq!(built_in.nim_value, None, "{args:?}");
                                assert_eq!(built_in.outcome, expected, "{args:?}");
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        finite > 0 && infinite > 0,
        "{finite} finite, {infinite} infinite"
    );
}

// ---------------------------------------------------------------------------------------------
// Errors

fn temp_script(name: &str, source: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sprague-script-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.rhai"));
    std::fs::write(&path, source).unwrap();
    path.to_string_lossy().into_owned()
}

/// The error of loading `source` and asking the value of `position` under `limits`.
fn error_of(name: &str, source: &str, position: &[&str], limits: Limits) -> (String, Error) {
    let path = temp_script(name, source);
    let result = load_game_with_limits(&path, limits).and_then(|game| {
        match game.parse(position)? {
            Parsed::Parts(segment) => {
                for p in &segment.parts {
                    p.nim_value()?;
                    p.options()?;
                }
            }
            Parsed::Single(s) => {
                s.evaluate()?;
            }
            Parsed::Component(c) => {
                c.value()?;
            }
        }
        if let Some(heap) = game.heap() {
            heap.table(50, &())?;
        }
        Ok(())
    });
    (path, result.expect_err("the script fails"))
}

fn script_error(error: &Error) -> (usize, usize, String) {
    match error {
        Error::Script {
            line,
            column,
            message,
            ..
        } => (*line, *column, message.clone()),
        other => panic!("not a script error: {other}"),
    }
}

#[test]
fn syntax_errors_name_file_line_and_column() {
    let (path, e) = error_of(
        "syntax",
        "fn options(n) {\n    [n - 1\n}\n",
        &["3"],
        Limits::DEFAULT,
    );
    let (line, column, message) = script_error(&e);
    assert_eq!(line, 3);
    assert_eq!(column, 1);
    assert!(message.starts_with("syntax error:"), "{message}");
    assert!(
        e.to_string()
            .starts_with(&format!("{path}:3:1: syntax error")),
        "{e}"
    );
}

#[test]
fn runtime_errors_point_into_the_function() {
    let source = "fn options(n) {\n    if n == 2 {\n        throw \"no moves from two\";\n    }\n    [n - 1]\n}\n";
    let (_, e) = error_of("runtime", source, &["5"], Limits::DEFAULT);
    assert_eq!(
        script_error(&e),
        (3, 9, "Runtime error: no moves from two (in options)".into())
    );
    let (_, e) = error_of(
        "undefined",
        "fn options(n) {\n    [nope(n)]\n}\n",
        &["5"],
        Limits::DEFAULT,
    );
    let (line, column, message) = script_error(&e);
    assert_eq!((line, column), (2, 6));
    assert!(message.starts_with("Function not found: nope"), "{message}");
}

#[test]
fn wrong_return_types_are_reported_at_the_definition() {
    let (_, e) = error_of(
        "not_array",
        "\n\nfn options(n) {\n    n - 1\n}\n",
        &["5"],
        Limits::DEFAULT,
    );
    assert_eq!(
        script_error(&e),
        (
            3,
            1,
            "options(5) must return an array of positions, not i64".into()
        )
    );
    let (_, e) = error_of("float", "fn options(n) { [0.5] }", &["5"], Limits::DEFAULT);
    let (_, _, message) = script_error(&e);
    assert!(
        message.starts_with("options(5) returned a f64, which cannot be a position"),
        "{message}"
    );
    let (_, e) = error_of(
        "heap_bad",
        "fn heap_options(n) { [[n]] }",
        &[],
        Limits::DEFAULT,
    );
    assert_eq!(
        script_error(&e),
        (
            1,
            1,
            "heap_options(1) returned an option leaving a heap of 1; every heap left must be smaller than 1".into()
        )
    );
    let (_, e) = error_of(
        "result_bad",
        "fn moves(p) { [] }\nfn result(p) { 3 }\nfn start() { 0 }",
        &[],
        Limits::DEFAULT,
    );
    assert_eq!(
        script_error(&e),
        (
            2,
            1,
            "result(0) must return \"win\", \"loss\", \"tie\" or \"none\", not a i64".into()
        )
    );
    let (_, e) = error_of(
        "bound_bad",
        "fn heap_options(n) { [[n - 1]] }\nfn max_heaps() { 1 }\nfn max_removed() { -1 }",
        &[],
        Limits::DEFAULT,
    );
    assert_eq!(
        script_error(&e),
        (3, 1, "max_removed() returned the negative number -1".into())
    );
}

#[test]
fn declared_bounds_are_checked() {
    let source = "fn heap_options(n) { if n >= 3 { [[1, 1, n - 3]] } else { [[]] } }\nfn max_heaps() { 2 }\nfn max_removed() { 2 }";
    let (_, e) = error_of("bounds", source, &[], Limits::DEFAULT);
    assert_eq!(
        script_error(&e),
        (
            1,
            1,
            "heap_options(4) returned an option leaving 3 heaps, but max_heaps() is 2".into()
        )
    );
    let (_, e) = error_of(
        "half_bounds",
        "fn heap_options(n) { [] }\nfn max_heaps() { 2 }",
        &[],
        Limits::DEFAULT,
    );
    let (_, _, message) = script_error(&e);
    assert!(message.contains("max_removed() is not"), "{message}");
}

#[test]
fn scripts_that_define_no_game_or_two_are_rejected() {
    let (_, e) = error_of("none", "fn foo(n) { n }", &["1"], Limits::DEFAULT);
    assert!(script_error(&e).2.starts_with("the script defines no game"));
    let (_, e) = error_of(
        "two",
        "fn options(n) { [] }\nfn moves(n) { [] }",
        &["1"],
        Limits::DEFAULT,
    );
    assert!(script_error(&e).2.contains("more than one kind of game"));
    let (_, e) = error_of("arity", "fn options(a, b) { [] }", &["1"], Limits::DEFAULT);
    assert_eq!(
        script_error(&e),
        (1, 1, "options must take one parameter".into())
    );
}

#[test]
fn caps_are_errors_that_name_their_flag() {
    let tight = Limits {
        max_operations: 10_000,
        max_call_depth: 8,
        max_string: 100,
        max_array: 100,
        max_positions: 50,
        max_bytes: 1 << 20,
        max_seconds: 10,
    };
    // Rhai raises cap errors without a position: they point at the function called.
    let (_, e) = error_of("ops", "\nfn options(n) {\n    loop { }\n}\n", &["3"], tight);
    let (line, _, message) = script_error(&e);
    assert_eq!(line, 2);
    assert_eq!(
        message,
        "the script ran more than 10000 operations in one call: a loop that never ends (a while or loop without a reachable break, a counter that never reaches its bound) or a call that is very slow; check the loops, else raise the cap with --script-max-operations (in options)"
    );
    let (_, e) = error_of(
        "depth",
        "fn f(n) { f(n + 1) }\nfn options(n) { f(n) }",
        &["3"],
        tight,
    );
    let (_, _, message) = script_error(&e);
    assert!(
        message.starts_with(
            "function calls nest deeper than 8 levels: a recursion without a base case that stops it, or one very deep; check the recursion, else raise the cap with --script-max-call-depth"
        ),
        "{message}"
    );
    let (_, e) = error_of(
        "string",
        "fn options(n) {\n    let s = \"\";\n    for i in 0..1000 { s += \"ab\"; }\n    [s]\n}",
        &["3"],
        tight,
    );
    let (_, _, message) = script_error(&e);
    assert!(
        message.starts_with(
            "a string is longer than 100 characters; raise the cap with --script-max-string"
        ),
        "{message}"
    );
    let (_, e) = error_of(
        "array",
        "fn options(n) {\n    let a = [];\n    for i in 0..1000 { a.push(i); }\n    a\n}",
        &["3"],
        tight,
    );
    let (_, _, message) = script_error(&e);
    assert!(
        message.starts_with(
            "an array or map has more than 100 elements; raise the cap with --script-max-array"
        ),
        "{message}"
    );
    let (_, e) = error_of("positions", "fn options(n) { [n + 1] }", &["0"], tight);
    assert_eq!(
        e,
        Error::Limit(format!(
            "script:{}: more than 50 positions explored: the positions reachable may never end (a move that makes a position larger, such as n -> n + 1, reaches ever new ones) or the game is larger than the cap; check the moves, else raise the cap with --script-max-positions",
            temp_script("positions", "fn options(n) { [n + 1] }")
        ))
    );
    // Positions that grow by 1,000 characters a move pass 1 MiB in all at about 32 of them,
    // before 50 positions are explored or one string passes its cap.
    let growing =
        "fn options(s) { let pad = \"\"; for i in 0..100 { pad += \"xxxxxxxxxx\"; } [s + pad] }";
    let limits = Limits {
        max_string: 1 << 16,
        ..tight
    };
    let (_, e) = error_of("growing", growing, &["\"ab\""], limits);
    let Error::Limit(message) = &e else {
        panic!("{e}")
    };
    assert!(
        message.ends_with(
            "positions explored hold more than 1 MiB: positions that keep growing (a string or an array that gets longer with every move) never end, or the game is larger than the cap; check the moves, else raise the cap with --script-max-memory"
        ),
        "{message}"
    );
}

#[test]
fn the_sandbox_has_no_import_and_no_eval() {
    let (_, e) = error_of(
        "import",
        "import \"std\" as s;\nfn options(n) { [] }",
        &["1"],
        Limits::DEFAULT,
    );
    let (line, _, _) = script_error(&e);
    assert_eq!(line, 1);
    let (_, e) = error_of(
        "eval",
        "fn options(n) { eval(\"[1]\") }",
        &["1"],
        Limits::DEFAULT,
    );
    script_error(&e);
}

#[test]
fn bad_positions_and_missing_files_are_reported() {
    let path = temp_script("literal", "fn options(n) { [] }");
    let game = load_game_with_limits(&path, Limits::DEFAULT).unwrap();
    let e = game.parse(&["[1,"]).err().unwrap();
    assert!(matches!(e, Error::Position { .. }), "{e}");
    let e = parse_game("script:/nonexistent/x.rhai").err().unwrap();
    assert!(matches!(e, Error::Io { .. }), "{e}");
    let e = parse_game("script:").err().unwrap();
    assert!(matches!(e, Error::Spec { .. }), "{e}");
    let e = parse_position(&[example("chips").as_str(), "z"])
        .err()
        .unwrap();
    let (line, _, message) = script_error(&e);
    assert!(line > 1);
    assert_eq!(
        message,
        "Runtime error: no node named 'z'; the nodes are a to h (in parse)"
    );
}

#[test]
fn loopy_scripts_with_splits_are_unsupported_not_wrong() {
    let (_, e) = error_of(
        "split_cycle",
        "fn options(n) { [1 - n] }\nfn splits(n) { [[0, 0]] }",
        &["0"],
        Limits::DEFAULT,
    );
    assert!(
        matches!(e, Error::Unsupported(ref m) if m.contains("cycle")),
        "{e}"
    );
}
