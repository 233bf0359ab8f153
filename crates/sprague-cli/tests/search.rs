//! The games valued by search (Cram, Node Kayles, Chomp), as a user runs them, checked
//! against plain exhaustive search written here (no code of the engine).

use crate::common::{assert_bad_input, sprague_json};
use std::collections::HashMap;

/// The least number not in `values`.
fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let mut seen: Vec<u64> = values.into_iter().collect();
    seen.sort_unstable();
    seen.dedup();
    seen.iter()
        .enumerate()
        .find(|&(i, &v)| i as u64 != v)
        .map_or(seen.len() as u64, |(i, _)| i as u64)
}

/// Plain search of Cram: the empty cells of a board of `cols` columns as bits, row by row.
fn cram_value(empty: u64, rows: usize, cols: usize, memo: &mut HashMap<u64, u64>) -> u64 {
    if let Some(&v) = memo.get(&empty) {
        return v;
    }
    let mut options = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let at = 1u64 << (r * cols + c);
            if c + 1 < cols && empty & at != 0 && empty & (at << 1) != 0 {
                options.push(empty & !(at | at << 1));
            }
            if r + 1 < rows && empty & at != 0 && empty & (at << cols) != 0 {
                options.push(empty & !(at | at << cols));
            }
        }
    }
    let v = mex(options.into_iter().map(|o| cram_value(o, rows, cols, memo)));
    memo.insert(empty, v);
    v
}

/// A board in the grid syntax (`.` empty, `#` blocked, rows joined by `|`): its empty cells,
/// rows and columns.
fn cram_board(text: &str) -> (u64, usize, usize) {
    let rows: Vec<&str> = text.split('|').collect();
    let cols = rows[0].len();
    let mut empty = 0;
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), cols, "{text}");
        for (c, ch) in row.chars().enumerate() {
            if ch == '.' {
                empty |= 1 << (r * cols + c);
            }
        }
    }
    (empty, rows.len(), cols)
}

/// Plain search of a board's value.
fn cram_plain(text: &str) -> u64 {
    let (empty, rows, cols) = cram_board(text);
    cram_value(empty, rows, cols, &mut HashMap::new())
}

/// The nim value `value --json` gives, and the positions its winning moves lead to.
fn value_and_moves(args: &[&str]) -> (u64, Vec<String>) {
    let v = sprague_json(args);
    let moves = v["winning_moves"]
        .as_array()
        .expect("a list of winning moves")
        .iter()
        .map(|m| m["position"].as_str().expect("a position").to_string())
        .collect();
    (v["nim_value"].as_u64().expect("a nim value"), moves)
}

#[test]
fn cram_values_and_winning_moves_agree_with_plain_search() {
    for (args, board) in [
        (vec!["value", "cram:3x4", "--json"], "....|....|...."),
        (vec!["value", "cram:2x5", "--json"], ".....|....."),
        (
            vec!["value", "cram", "....|.#..|....", "--json"],
            "....|.#..|....",
        ),
        (
            vec!["value", "cram", "...#|..#.|#...|....", "--json"],
            "...#|..#.|#...|....",
        ),
    ] {
        let (value, moves) = value_and_moves(&args);
        assert_eq!(value, cram_plain(board), "{args:?}");
        // One component: the winning moves are exactly the moves to a 0 position.
        let (empty, rows, cols) = cram_board(board);
        let mut memo = HashMap::new();
        let zeros = (0..rows * cols)
            .flat_map(|i| [(i, 1), (i, cols)])
            .filter(|&(i, step)| {
                let next = i + step;
                (step == cols || (i % cols) + 1 < cols)
                    && next < rows * cols
                    && empty >> i & 1 == 1
                    && empty >> next & 1 == 1
            })
            .filter(|&(i, step)| {
                cram_value(empty & !(1 << i | 1 << (i + step)), rows, cols, &mut memo) == 0
            })
            .count();
        assert_eq!(moves.len(), zeros, "{args:?}: {moves:?}");
        for to in &moves {
            assert_eq!(cram_plain(to), 0, "{args:?}: {to}");
        }
    }
}

#[test]
fn cram_published_and_classical_values() {
    // github.com/beling/impartial-games README (igsolve's table): 4x5 = 2.
    assert_eq!(value_and_moves(&["value", "cram:4x5", "--json"]).0, 2);
    // Even by even boards are 0 (the point reflection answers every move, Winning Ways ch. 22).
    assert_eq!(value_and_moves(&["value", "cram:4x4", "--json"]).0, 0);
    // A 1x9 strip is Dawson's Kayles 0.07 of 9, which is 0 (Winning Ways ch. 4).
    assert_eq!(value_and_moves(&["value", "cram:1x9", "--json"]).0, 0);
}

/// Plain search of Node Kayles on the graph of `n` vertices with `edges`.
fn node_kayles_plain(n: usize, edges: &[(usize, usize)]) -> u64 {
    fn go(left: u64, around: &[u64], memo: &mut HashMap<u64, u64>) -> u64 {
        if let Some(&v) = memo.get(&left) {
            return v;
        }
        let options: Vec<u64> = (0..around.len())
            .filter(|&v| left >> v & 1 == 1)
            .map(|v| left & !(around[v] | 1 << v))
            .collect();
        let v = mex(options.into_iter().map(|o| go(o, around, memo)));
        memo.insert(left, v);
        v
    }
    let mut around = vec![0u64; n];
    for &(u, v) in edges {
        around[u] |= 1 << v;
        around[v] |= 1 << u;
    }
    go((1 << n) - 1, &around, &mut HashMap::new())
}

#[test]
fn node_kayles_values_agree_with_plain_search() {
    let graphs: [(usize, &[(usize, usize)]); 3] = [
        (7, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]),
        (5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]),
        (
            9,
            &[
                (0, 1),
                (1, 2),
                (2, 0),
                (2, 3),
                (3, 4),
                (5, 6),
                (6, 7),
                (7, 8),
                (8, 5),
                (4, 8),
            ],
        ),
    ];
    for (n, edges) in graphs {
        let spec = format!(
            "{n}:{}",
            edges
                .iter()
                .map(|(u, v)| format!("{u}-{v}"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let (value, _) = value_and_moves(&["value", "node-kayles", &spec, "--json"]);
        assert_eq!(value, node_kayles_plain(n, edges), "{spec}");
    }
    // Taking either end of a lone edge leaves the same position: one winning move.
    let v = sprague_json(&["value", "node-kayles", "2:0-1", "--json"]);
    assert_eq!(v["nim_value"], 1);
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{
            "move": "take 0",
            "description": "take 0",
            "position": "2:;0,1",
            "component": 0
        }])
    );
}

/// Plain search of Chomp on column heights, longest first; the poisoned square (the bottom
/// of the first column) is never eaten.
fn chomp_plain(heights: &[u64], memo: &mut HashMap<Vec<u64>, u64>) -> u64 {
    if let Some(&v) = memo.get(heights) {
        return v;
    }
    let mut options = Vec::new();
    for (j, &h) in heights.iter().enumerate() {
        for i in 0..h {
            if i == 0 && j == 0 {
                continue;
            }
            let next: Vec<u64> = heights
                .iter()
                .enumerate()
                .map(|(k, &g)| if k >= j { g.min(i) } else { g })
                .filter(|&g| g > 0)
                .collect();
            options.push(next);
        }
    }
    let v = mex(options.iter().map(|o| chomp_plain(o, memo)));
    memo.insert(heights.to_vec(), v);
    v
}

#[test]
fn chomp_values_agree_with_plain_search() {
    let mut memo = HashMap::new();
    for (args, heights) in [
        (vec!["value", "chomp:3x4", "--json"], vec![3, 3, 3, 3]),
        (
            vec!["value", "chomp", "3", "2", "2", "--json"],
            vec![3, 2, 2],
        ),
        (
            vec!["value", "chomp", "4", "4", "3", "1", "--json"],
            vec![4, 4, 3, 1],
        ),
    ] {
        let (value, _) = value_and_moves(&args);
        assert_eq!(value, chomp_plain(&heights, &mut memo), "{args:?}");
    }
}

#[test]
fn bad_boards_graphs_and_diagrams_are_named() {
    assert_bad_input(&["value", "cram:0x5"], "empty board");
    assert_bad_input(&["value", "cram:99x99"], "at most 128");
    assert_bad_input(&["value", "cram:4by5"], "invalid board size");
    assert_bad_input(&["value", "cram", "...|.."], "rectangular");
    assert_bad_input(&["value", "cram", "..x|..."], "unexpected 'x'");
    assert_bad_input(&["value", "node-kayles", "4:0-9"], "'9' is not a vertex");
    assert_bad_input(&["value", "chomp", "3", "4"], "not a Young diagram");
    assert_bad_input(&["value", "chomp:99x99"], "at most 255");
}
