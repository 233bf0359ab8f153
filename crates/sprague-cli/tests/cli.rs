//! The commands of interface.md, as a user runs them.

use crate::common::{assert_bad_input, sprague, sprague_json, sprague_with_input};
use serde_json::json;

#[test]
fn value_of_nim_345_has_its_one_winning_move() {
    let v = sprague_json(&["value", "nim", "3", "4", "5", "--json"]);
    assert_eq!(v["game"], "nim");
    assert_eq!(v["position"], json!([3, 4, 5]));
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["nim_value"], 2);
    assert_eq!(
        v["winning_moves"],
        json!([{"move": "3 -> 1", "description": "heap 1: 3 → 1", "position": [1, 4, 5], "component": 0}])
    );
}

#[test]
fn value_text_output_names_outcome_value_and_moves() {
    let run = sprague(&["value", "nim", "3", "4", "5"]);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stdout,
        "position:   nim 3 4 5\n\
         outcome:    N (the player to move wins)\n\
         nim value:  2\n\
         remoteness: 11\n\
         winning moves:\n  heap 1: 3 → 1  => nim 1 4 5\n"
    );
}

#[test]
fn sums_of_several_games_use_a_lone_plus() {
    let v = sprague_json(&["value", "nim", "2", "+", "nim", "2", "--json"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["nim_value"], 0);
    assert_eq!(v["winning_moves"], json!([]));
    assert_eq!(
        v["position"],
        json!([{"game": "nim", "position": [2]}, {"game": "nim", "position": [2]}])
    );
}

#[test]
fn misere_nim_of_three_ones_is_a_loss() {
    let v = sprague_json(&["value", "nim", "1", "1", "1", "--misere", "--json"]);
    assert_eq!(v["outcome"], "P");
    let v = sprague_json(&["value", "nim", "1", "1", "--misere", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"].as_array().map(Vec::len), Some(2));
}

#[test]
fn moves_lists_every_option_with_its_outcome() {
    let v = sprague_json(&["moves", "nim", "2", "1", "--json"]);
    let moves = v["moves"].as_array().expect("a list of moves");
    let summary: Vec<(String, String, u64)> = moves
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap_or_default().to_string(),
                m["outcome"].as_str().unwrap_or_default().to_string(),
                m["nim_value"].as_u64().unwrap_or(u64::MAX),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("2 -> 1".to_string(), "P".to_string(), 0),
            ("2 -> 0".to_string(), "N".to_string(), 1),
            ("1 -> 0".to_string(), "N".to_string(), 2),
        ]
    );
}

#[test]
fn table_formats() {
    let v = sprague_json(&["table", "nim", "--to", "4", "--format", "json"]);
    assert_eq!(
        v,
        json!({"game": "nim", "values": [0, 1, 2, 3, 4], "period": null})
    );
    let csv = sprague(&["table", "nim", "--to", "2", "--format", "csv"]);
    assert_eq!(csv.stdout, "n,value\n0,0\n1,1\n2,2\n");
    let text = sprague(&["table", "nim", "--to", "12"]);
    assert_eq!(
        text.stdout,
        "      0  1  2  3  4  5  6  7  8  9\n 0:   0  1  2  3  4  5  6  7  8  9\n10:  10 11 12\n"
    );
}

#[test]
fn catalog_lists_games_with_position_syntax() {
    let v = sprague_json(&["catalog", "--json"]);
    let entries = v.as_array().expect("a list");
    let nim = entries
        .iter()
        .find(|e| e["spec"] == "nim")
        .expect("nim is listed");
    assert_eq!(nim["position"], "heap sizes");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    assert_bad_input(&["value", "nosuchgame", "3"], "unknown game");
    assert_bad_input(&["value", "nim", "-3"], "non-negative");
    assert_bad_input(&["value", "nim", "x"], "whole number");
    assert_bad_input(&["value", "nim", "99999999999999999999"], "2^64");
    assert_bad_input(&["value", "nim", "3", "+"], "'+'");
    assert_bad_input(&["value", "+", "nim", "3"], "'+'");
    assert_bad_input(&["value", "nim:3", "3"], "no parameters");
    assert_bad_input(&["table", "nim", "--to", "-1"], "non-negative");
    assert_bad_input(&["period", "nim", "--max", "lots"], "whole number");
    assert_bad_input(&["solve", "no/such/file.txt"], "neither a game nor a file");
}

#[test]
fn usage_errors_exit_2() {
    let run = sprague(&["value"]);
    assert_eq!(run.code, 2);
    let run = sprague(&["frobnicate"]);
    assert_eq!(run.code, 2);
}

#[test]
fn help_teaches_with_examples() {
    let run = sprague(&["--help"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("sprague catalog"));
    let run = sprague(&["value", "--help"]);
    assert!(run.stdout.contains("sprague value nim 3 4 5 --json"));
}

#[test]
fn solve_file_reports_every_vertex() {
    let dir = std::env::temp_dir().join(format!("sprague-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("graph.txt");
    // 0 <-> 1 forever; 2 -> 0 and 2 -> 3; 3 has no move.
    std::fs::write(&path, "4 4\n0 1\n1 0\n2 0\n2 3\n").expect("write graph");
    let v = sprague_json(&["solve", path.to_str().expect("utf-8 path"), "--json"]);
    assert_eq!(
        v,
        json!({"vertices": [
            {"id": 0, "outcome": "D", "remoteness": null, "nim_value": null, "loopy": {"infinite": true, "escapes": []}},
            {"id": 1, "outcome": "D", "remoteness": null, "nim_value": null, "loopy": {"infinite": true, "escapes": []}},
            {"id": 2, "outcome": "N", "remoteness": 1, "nim_value": null, "loopy": {"infinite": true, "escapes": [0]}},
            {"id": 3, "outcome": "P", "remoteness": 0, "nim_value": 0, "loopy": null}
        ]})
    );
    std::fs::write(&path, "2 1\n0 5\n").expect("write graph");
    assert_bad_input(&["solve", path.to_str().expect("utf-8 path")], "line 2");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn nimber_arithmetic() {
    assert_eq!(sprague(&["nimber", "mul", "16", "16"]).stdout, "24\n");
    assert_eq!(sprague(&["nimber", "mul", "2", "3"]).stdout, "1\n");
    assert_eq!(sprague(&["nimber", "add", "5", "3"]).stdout, "6\n");
    assert_eq!(sprague(&["nimber", "inv", "2"]).stdout, "3\n");
    assert_eq!(sprague(&["nimber", "div", "1", "3"]).stdout, "2\n");
    assert_eq!(sprague(&["nimber", "pow", "2", "3"]).stdout, "1\n");
    let root = sprague(&["nimber", "sqrt", "3"]).stdout;
    let root = root.trim();
    assert_eq!(sprague(&["nimber", "mul", root, root]).stdout, "3\n");
    assert_bad_input(&["nimber", "div", "1", "0"], "0");
    assert_bad_input(&["nimber", "inv", "-2"], "operand");
    assert_bad_input(&["nimber", "inv", "1", "2"], "1 operand");
    let batch = sprague_with_input(&["nimber", "mul", "--batch"], Some("3\n2 2\n2 3\n16 16\n"));
    assert_eq!(batch.code, 0, "{}", batch.stderr);
    assert_eq!(batch.stdout, "3\n1\n24\n");
    let batch = sprague_with_input(&["nimber", "mul", "--batch"], Some("2\n2 2\n"));
    assert_eq!(batch.code, 2);
}

#[test]
fn bench_nimber_refuses_unknown_and_unavailable_paths() {
    assert_bad_input(
        &["bench", "nimber", "--simd", "sse9"],
        "unknown SIMD path 'sse9'",
    );
    let forced = sprague(&["bench", "nimber", "--simd", "avx512"]);
    if forced.code != 0 {
        assert_eq!(forced.code, 2, "{}", forced.stderr);
        assert!(
            forced.stderr.contains("does not run the avx512 path"),
            "{}",
            forced.stderr
        );
        assert_eq!(forced.stderr.lines().count(), 1, "{}", forced.stderr);
    }
}

/// `table` and `period` take the engine's threads and (hidden) instruction-set path: every path
/// this CPU runs, on one thread or two, gives the same values and the same certified period.
#[test]
fn table_and_period_give_the_same_answer_on_every_path_and_thread_count() {
    let reference = sprague(&["table", "0.16", "--to", "3000", "--format", "csv"]);
    assert_eq!(reference.code, 0, "{}", reference.stderr);
    let period = sprague_json(&["period", "0.16", "--max", "600000", "--json"]);
    assert_eq!(period["period"], 149459, "{period}");
    assert_eq!(period["preperiod"], 105351, "{period}");
    for path in ["portable", "avx2", "avx512"] {
        for threads in ["1", "2"] {
            let table = sprague(&[
                "table",
                "0.16",
                "--to",
                "3000",
                "--format",
                "csv",
                "--simd",
                path,
                "--threads",
                threads,
            ]);
            let run = sprague(&[
                "period",
                "0.16",
                "--max",
                "600000",
                "--json",
                "--simd",
                path,
                "--threads",
                threads,
            ]);
            if table.code == 2 {
                assert!(table
                    .stderr
                    .contains(&format!("does not run the {path} path")));
                assert_eq!(run.code, 2, "{}", run.stderr);
                continue;
            }
            assert_eq!(
                table.stdout, reference.stdout,
                "--simd {path} --threads {threads}"
            );
            let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
            assert_eq!(json, period, "--simd {path} --threads {threads}");
        }
    }
    assert_bad_input(
        &["period", "0.16", "--threads", "3"],
        "--threads must be 1 or 2",
    );
    assert_bad_input(
        &["table", "0.6", "--to", "9", "--simd", "sse9"],
        "unknown SIMD path",
    );
}

#[test]
fn bench_octal_compares_checksums_with_the_peer() {
    // Without the peer: sprague's figures, and a note that the peer is missing.
    let without_peer = |games: &str, threads: &str| {
        sprague(&[
            "bench",
            "octal",
            "--games",
            games,
            "--size",
            "3000",
            "--threads",
            threads,
            "--json",
            "--peer",
            "/nonexistent/ogsolve",
        ])
    };
    let alone = without_peer("0.6,4.7", "1");
    assert_eq!(alone.code, 0, "{}", alone.stderr);
    assert!(alone.stderr.contains("is missing"), "{}", alone.stderr);
    // With --json, stdout is one object; stderr says how far the run is, a line a game.
    assert!(
        alone.stderr.contains("sprague: 1 of 2: 0.6 to 3000")
            && alone.stderr.contains("sprague: 2 of 2: 4.7 to 3000"),
        "{}",
        alone.stderr
    );
    let report: serde_json::Value = serde_json::from_str(&alone.stdout).unwrap();
    assert_eq!(report["peer"], "missing");
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    // 4.7: G(n) = 1 for odd n, 2 for even n ≥ 2 (period 2 from 1).
    assert_eq!(rows[1]["ours"][0]["last"], 2);
    assert!(rows[1]["period"]["result"]
        .as_str()
        .unwrap()
        .contains("period 2 from 1"));
    // On two threads the row says what the second thread did.
    let two = without_peer("0.6", "2");
    assert_eq!(two.code, 0, "{}", two.stderr);
    let report: serde_json::Value = serde_json::from_str(&two.stdout).unwrap();
    let how = report["rows"][0]["ours"][0]["how"].as_str().unwrap();
    assert!(how.ends_with(" batches ahead"), "{how}");
    // A peer whose values differ (its checksum is wrong) fails the run; one that agrees passes.
    let dir = std::env::temp_dir().join(format!("sprague-bench-peer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let checksum = rows[0]["ours"][0]["checksum"].as_str().unwrap().to_string();
    for (sum, code) in [("0", 1), (checksum.as_str(), 0)] {
        let peer = dir.join(format!("peer-{sum}"));
        script(
            &peer,
            &format!("echo \" nimber of 3000: 1  checksum: {sum}\""),
        );
        let peer_flags = ["--peer-methods", "rc2", "--peer", peer.to_str().unwrap()];
        let run = sprague(&[&OFFICERS_3000[..], &peer_flags].concat());
        assert_eq!(run.code, code, "{}\n{}", run.stdout, run.stderr);
        if code == 1 {
            assert!(run
                .stderr
                .contains("values differ from the peer's on 0.6 to 3000"));
        } else {
            assert!(run.stdout.contains("median ratio"), "{}", run.stdout);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert_bad_input(&["bench", "octal", "--games", "0.x"], "not an octal code");
    assert_bad_input(
        &["bench", "octal", "--threads", "3"],
        "--threads must be 1 or 2",
    );
    assert_bad_input(&["bench", "nimber", "--sweep"], "are for 'bench octal'");
}

/// `bench octal` on 0.6 to 3000, one thread.
const OFFICERS_3000: [&str; 8] = [
    "bench",
    "octal",
    "--games",
    "0.6",
    "--size",
    "3000",
    "--threads",
    "1",
];

/// Writes an executable shell script.
fn script(path: &std::path::Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_benchmark_resumes_from_its_rows_without_measuring_them_again() {
    let dir = checkpoint_dir("bench-resume");
    let base = [&OFFICERS_3000[..], &["--json"]].concat();
    let alone = sprague(&[&base[..], &["--peer", "/nonexistent/ogsolve"]].concat());
    let report: serde_json::Value = serde_json::from_str(&alone.stdout).unwrap();
    let checksum = report["rows"][0]["ours"][0]["checksum"].as_str().unwrap();
    // A peer that agrees, and counts its runs.
    let (peer, calls) = (dir.join("peer"), dir.join("calls"));
    script(
        &peer,
        &format!(
            "echo run >> {}\necho \" nimber of 3000: 1  checksum: {checksum}\"",
            calls.display()
        ),
    );
    let rows = dir.join("rows.bnch");
    let args = [
        &base[..],
        &["--peer-methods", "rc2", "--peer", peer.to_str().unwrap()],
        &["--resume", rows.to_str().unwrap()],
    ]
    .concat();
    let runs = || std::fs::read_to_string(&calls).unwrap().lines().count();
    let first = sprague(&args);
    assert_eq!(first.code, 0, "{}", first.stderr);
    // Runs this short are repeated: the peer ran several times.
    let peer_runs = runs();
    assert!(peer_runs >= 1);
    // Run again: the row comes from the file, the peer is not run, the figures are the same.
    let again = sprague(&args);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(runs(), peer_runs, "the peer ran again");
    assert!(
        again.stderr.contains("1 rows measured before"),
        "{}",
        again.stderr
    );
    let row =
        |out: &str| serde_json::from_str::<serde_json::Value>(out).unwrap()["rows"][0].clone();
    assert_eq!(row(&again.stdout), row(&first.stdout));
    // A file that cannot be written is refused before anything is measured.
    let nowhere = dir.join("no-such-directory").join("rows.bnch");
    let unwritable = [&args[..args.len() - 1], &[nowhere.to_str().unwrap()]].concat();
    assert_bad_input(&unwritable, "no-such-directory");
    assert_eq!(runs(), peer_runs, "the peer ran for an unwritable file");
    // Other settings, or a damaged file, are refused.
    let other = [&args[..], &["--peer-max-seconds", "5"]].concat();
    assert_bad_input(&other, "holds bench octal");
    let bytes = std::fs::read(&rows).unwrap();
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 1;
    std::fs::write(&rows, flipped).unwrap();
    assert_bad_input(&args, "checksum");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_peer_is_stopped_at_the_stop_ratio_and_its_ratio_is_a_lower_bound() {
    let dir = checkpoint_dir("bench-stop-ratio");
    // A peer that never ends: only a limit stops it. The cap of 60 s is a safety net; the
    // ratio (at its floor of 0.1 s, since sprague takes milliseconds) must stop it first.
    let peer = dir.join("peer");
    script(&peer, "while :; do :; done");
    let run = sprague(
        &[
            &OFFICERS_3000[..],
            &["--json", "--peer-methods", "rc2,naive"],
            &["--peer", peer.to_str().unwrap()],
            &["--peer-max-seconds", "60", "--peer-stop-ratio", "2"],
        ]
        .concat(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let row = &report["rows"][0];
    let runs = row["peer"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    for r in runs {
        assert_eq!(r["stopped"], true, "{r}");
        let cpu = r["times"]["cpu"].as_f64().unwrap();
        assert!(
            (0.1..60.0).contains(&cpu),
            "stopped by the ratio, not the cap: {cpu}"
        );
    }
    assert_eq!(row["ratio_at_least"], true, "{row}");
    assert!(row["ratio_cpu"].as_f64().unwrap() >= 2.0, "{row}");
    for bad in ["0.5", "x", "inf"] {
        assert_bad_input(
            &[&OFFICERS_3000[..], &["--peer-stop-ratio", bad]].concat(),
            "--peer-stop-ratio must be a number of at least 1",
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_search_runs_any_board_beside_the_peer_and_compares_values() {
    let dir = checkpoint_dir("bench-search");
    // Cram 3×4 is 1 and Chomp 2×3 is 4; a peer that agrees, and one that does not.
    for (wrong, code) in [(false, 0), (true, 1)] {
        let peer = dir.join(format!("igsolve-{wrong}"));
        let (cram, chomp) = if wrong { (0, 4) } else { (1, 4) };
        script(
            &peer,
            &format!(
                "case \"$1:$3x$5\" in cram:3x4) v={cram};; chomp:2x3) v={chomp};; *) v=99;; esac\n\
                 echo \"Nimber of initial position: $v\""
            ),
        );
        let run = sprague(&[
            "bench",
            "search",
            "--boards",
            "cram:3x4,chomp:2x3",
            "--search-threads",
            "1",
            "--peer",
            peer.to_str().unwrap(),
        ]);
        assert_eq!(run.code, code, "{}\n{}", run.stdout, run.stderr);
        let row = |board: &str| {
            let line = run.stdout.lines().find(|l| l.starts_with(board)).unwrap();
            line.split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        };
        // Each row: the board, sprague's value and figures, then the peer's value.
        assert_eq!(row("cram:3x4")[1], "1");
        assert_eq!(row("cram:3x4")[5], cram.to_string());
        assert_eq!(row("chomp:2x3")[1], "4");
        if wrong {
            assert!(
                run.stderr.contains("cram:3x4: values [1, 0]"),
                "{}",
                run.stderr
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    // Without the peer: sprague's figures alone, and why.
    let alone = sprague(&[
        "bench",
        "search",
        "--boards",
        "cram:3x4",
        "--search-threads",
        "1",
        "--peer",
        "/nonexistent/igsolve",
    ]);
    assert_eq!(alone.code, 0, "{}", alone.stderr);
    assert!(alone
        .stdout
        .contains("igsolve not found at /nonexistent/igsolve"));
    assert!(alone.stdout.contains("not run"), "{}", alone.stdout);
    assert_bad_input(
        &["bench", "search", "--boards", "cram:3y4"],
        "cram:RxC or chomp:RxC",
    );
    assert_bad_input(
        &["bench", "search", "--boards", "go:9x9"],
        "unknown board 'go:9x9'",
    );
    assert_bad_input(&["bench", "search", "--boards", "cram:0x4"], "from 1 to 64");
}

#[test]
fn ruler_winning_moves_leave_sorted_heads() {
    let v = sprague_json(&["value", "ruler", "5", "8", "10", "11", "13", "--json"]);
    assert_eq!(v["nim_value"], 11);
    let moves: Vec<(String, serde_json::Value)> = v["winning_moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap_or_default().to_string(),
                m["position"].clone(),
            )
        })
        .collect();
    assert_eq!(
        moves,
        vec![
            ("flip 6-8".to_string(), json!([5, 6, 7, 10, 11, 13])),
            ("flip 8-10".to_string(), json!([5, 9, 11, 13])),
            ("flip 7-11".to_string(), json!([5, 7, 9, 13])),
            ("flip 1-13".to_string(), json!([1, 2, 3, 4, 6, 7, 9, 12])),
        ]
    );
    let text = sprague(&["value", "ruler", "5", "8", "10", "11", "13"]);
    assert!(
        text.stdout
            .contains("turn over coins 8-10 (TTTTHTTHTH → TTTTHTTTHT)        => ruler 5 9 11 13"),
        "{}",
        text.stdout
    );
}

#[test]
fn cards_game_is_solved_with_draws() {
    let v = sprague_json(&["solve", "cards:2,10", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["positions"], 20207);
    assert_eq!(v["details"]["all_states"]["draws"], 396);
    let v = sprague_json(&["value", "cards:2,10", "1,2", "3,4", "--json"]);
    assert_eq!(v["outcome"], "P");
}

#[test]
fn quixo_and_teeko_solve_play_and_refuse_bad_input() {
    let v = sprague_json(&["solve", "quixo:3", "--json", "--threads", "1"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["remoteness"], 7);
    assert_eq!(v["positions"], 16021);
    assert_eq!(v["details"]["positions_up_to_symmetry"], 2219);
    assert_eq!(v["details"]["solve"]["threads"], 1);
    let v = sprague_json(&["value", "quixo:3", "xx.oo....", "x", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_bad_input(&["solve", "quixo:3", "--threads", "0"], "--threads");
    assert_bad_input(&["value", "quixo:3", "xxxoo..."], "9 cells");
    assert_bad_input(&["value", "teeko", "xx......................."], "one more");
    let run = sprague_with_input(&["play", "quixo:3", "--seed", "1"], Some("a3-c3\nquit\n"));
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn quixo_database_is_saved_by_solve_and_reopened_by_play() {
    let dir = std::env::temp_dir().join(format!("sprague-cli-quixo-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |args: &[&str], input: &str| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sprague"))
            .args(args)
            .env("SPRAGUE_DB_DIR", &dir)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let solved: serde_json::Value =
        serde_json::from_str(&run(&["solve", "quixo:3", "--json"], "")).unwrap();
    assert!(solved["details"]["solve"].is_object(), "{solved}");
    let file = dir.join("quixo_3.sdb");
    assert!(file.exists());
    // A second solve reopens the database instead of solving.
    let again: serde_json::Value =
        serde_json::from_str(&run(&["solve", "quixo:3", "--json"], "")).unwrap();
    assert_eq!(again["details"]["from_database"], true);
    assert_eq!(again["outcome"], solved["outcome"]);
    assert_eq!(again["positions"], solved["positions"]);
    let played = run(&["play", "quixo:3", "--seed", "3"], "hint\nquit\n");
    assert!(played.contains("remoteness"), "{played}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn josephus_questions() {
    assert_eq!(sprague(&["josephus", "7", "3"]).stdout, "4\n");
    assert_eq!(sprague(&["josephus", "7", "3", "--kth", "1"]).stdout, "3\n");
    assert_eq!(
        sprague(&["josephus", "7", "3", "--when", "7"]).stdout,
        "4\n"
    );
    assert_eq!(
        sprague(&["josephus", "7", "3", "--order"]).stdout,
        "3 6 2 7 5 1 4\n"
    );
    let v = sprague_json(&["josephus", "1000000000000000000", "2", "--json"]);
    assert_eq!(v["person"], 847_078_495_393_153_025u64);
    assert_bad_input(&["josephus", "7", "0"], "at least 1");
    assert_bad_input(&["josephus", "-7", "2"], "non-negative");
}

#[test]
fn classic_games_answer_with_winning_moves() {
    let v = sprague_json(&["value", "wythoff", "3", "5", "--json"]);
    assert_eq!(v["outcome"], "P");
    let v = sprague_json(&["value", "wythoff", "4", "5", "--json"]);
    let targets: Vec<serde_json::Value> = v["winning_moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["position"].clone())
        .collect();
    // (4,5) -> (3,5) by one heap, or (4,5) -> (1,2) by both.
    assert!(targets.contains(&json!([3, 5])), "{targets:?}");
    assert!(targets.contains(&json!([1, 2])), "{targets:?}");
    let v = sprague_json(&["value", "ends:any", "3", "1", "4", "--json"]);
    assert_eq!(v["value"], 8);
    let v = sprague_json(&["value", "nim", "5", "5", "1", "--misere", "--json"]);
    assert_eq!(v["outcome"], "N");
}

#[test]
fn play_a_whole_game_of_tic_tac_toe_through_stdin_and_never_win() {
    // The human plays the first free cell in reading order, whatever happens; the engine must
    // win or draw from either side.
    let cells = ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"];
    for seed in ["1", "2", "3"] {
        for engine_first in [false, true] {
            let mut script = String::new();
            if engine_first {
                script.push_str("engine\n");
            }
            for cell in cells {
                script.push_str(cell);
                script.push('\n');
            }
            script.push_str("quit\n");
            let run = sprague_with_input(&["play", "mnk:3,3,3", "--seed", seed], Some(&script));
            assert_eq!(run.code, 0, "{}", run.stderr);
            let text = run.stdout.to_lowercase();
            assert!(text.contains("game over"), "the game ends: {}", run.stdout);
            assert!(
                !text.contains("you win"),
                "the human must never win: {}",
                run.stdout
            );
        }
    }
}

/// Runs `args` with `flags` (which keep a checkpoint in `checkpoint`) and kills the process once
/// the checkpoint exists; then checks that the same command resumes to the output of an
/// uninterrupted run, and that a damaged checkpoint is refused with a message holding
/// `refusal`. Returns that output.
fn assert_a_killed_run_resumes(
    args: &[&str],
    flags: &[&str],
    checkpoint: &std::path::Path,
    refusal: &str,
) -> String {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let with_checkpoint = [args, flags].concat();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sprague"))
        .args(&with_checkpoint)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    while !checkpoint.exists() && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().ok();
    child.wait().ok();
    assert!(
        checkpoint.exists(),
        "a checkpoint was written before the kill"
    );
    let resumed = sprague(&with_checkpoint);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    let fresh = sprague(args);
    assert_eq!(fresh.code, 0, "{}", fresh.stderr);
    assert!(
        resumed.stdout == fresh.stdout,
        "the resumed run's output differs from a fresh run's: {args:?}"
    );
    // The finished run saved its state: a rerun reads it and agrees.
    assert!(sprague(&with_checkpoint).stdout == fresh.stdout);
    // A corrupt checkpoint is refused, not trusted.
    std::fs::write(checkpoint, b"garbage").expect("write");
    assert_bad_input(&with_checkpoint, refusal);
    fresh.stdout
}

/// One thread of the octal engine, with a checkpoint in `path` every 50 ms.
fn engine_checkpoint_flags(path: &str) -> [&str; 6] {
    [
        "--threads",
        "1",
        "--checkpoint",
        path,
        "--checkpoint-interval",
        "0.05",
    ]
}

/// A fresh directory for one test's checkpoint files.
fn checkpoint_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sprague-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn a_killed_table_run_resumes_from_its_checkpoint_with_identical_values() {
    let dir = checkpoint_dir("table-ckpt");
    let checkpoint = dir.join("treblecross.ckpt");
    let path = checkpoint.to_str().expect("utf-8 path");
    let args = ["table", "0.007", "--to", "120000", "--format", "csv"];
    let flags = engine_checkpoint_flags(path);
    let values = assert_a_killed_run_resumes(&args, &flags, &checkpoint, "checkpoint");
    assert_eq!(values.lines().count(), 120_002);
    std::fs::remove_dir_all(&dir).ok();
}

/// `period` keeps a checkpoint too: a killed search for 0.16's period (certified only at
/// n = 509,621) resumes to the same certificate, and games off the long-run engine refuse one.
#[test]
fn a_killed_period_search_resumes_from_its_checkpoint_to_the_same_certificate() {
    let dir = checkpoint_dir("period-ckpt");
    let checkpoint = dir.join("0.16.ckpt");
    let path = checkpoint.to_str().expect("utf-8 path");
    let args = ["period", "0.16", "--max", "600000", "--json"];
    let flags = engine_checkpoint_flags(path);
    let report = assert_a_killed_run_resumes(&args, &flags, &checkpoint, "checkpoint");
    let json: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(json["period"], 149459, "{json}");
    assert_bad_input(
        &["period", "sub:1,3,4", "--checkpoint", path],
        "take-and-break code with splits",
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `--search-checkpoint`: a search of Cram 5×7 killed once its checkpoint exists resumes to
/// the same answer as an uninterrupted run (its two threads save it in turn).
#[test]
fn a_killed_search_resumes_from_its_checkpoint_with_the_same_answer() {
    let dir = checkpoint_dir("search-ckpt");
    let checkpoint = dir.join("cram.nims");
    let path = checkpoint.to_str().expect("utf-8 path");
    let args = ["value", "cram:5x7", "--json"];
    let flags = [
        "--search-checkpoint",
        path,
        "--search-checkpoint-interval",
        "1",
    ];
    let report = assert_a_killed_run_resumes(&args, &flags, &checkpoint, "not a sprague file");
    let json: serde_json::Value = serde_json::from_str(&report).unwrap();
    // Cram 5×7 has nim value 1 (igsolve finds the same).
    assert_eq!(json["nim_value"], 1, "{json}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `table --format bin --output FILE`: the checksummed table file, a value in the fewest bytes
/// that hold the largest (0.6 to 2^16: one byte a value), with the same values and period as
/// JSON; bin without a file, or a file without bin, is refused.
#[test]
fn a_binary_table_file_holds_the_same_values_in_fewer_bytes() {
    let dir = checkpoint_dir("nimv");
    for (game, to) in [("0.6", 65536u64), ("kayles", 500), ("sub:1,3,4", 100)] {
        let path = dir.join(format!("{game}.nimv"));
        let to_text = to.to_string();
        let run = sprague(&[
            "table",
            game,
            "--to",
            &to_text,
            "--format",
            "bin",
            "--output",
            path.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let (name, table) = sprague::heap::table_file::load(&path).expect("a table file");
        let json = sprague_json(&["table", game, "--to", &to_text, "--format", "json"]);
        let width = match table.values.iter().max() {
            Some(m) if m > 255 => 2,
            _ => 1,
        };
        let said = format!("({width} byte{} a value)", if width > 1 { "s" } else { "" });
        assert!(
            run.stdout.is_empty() && run.stderr.contains(&said),
            "{}",
            run.stderr
        );
        assert_eq!(name, json["game"], "{game}");
        assert_eq!(json!(table.values), json["values"], "{game}");
        assert_eq!(
            table
                .period
                .map(|p| json!({"preperiod": p.preperiod, "period": p.period})),
            json.get("period").cloned().filter(|p| !p.is_null()),
            "{game}"
        );
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size < width * to + 200, "{game}: {size} bytes");
    }
    assert_bad_input(
        &["table", "0.6", "--to", "9", "--format", "bin"],
        "--output FILE",
    );
    assert_bad_input(
        &["table", "0.6", "--to", "9", "--output", "x.nimv"],
        "--output goes with --format bin",
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn octal_tables_match_between_engines_and_report_periods() {
    let v = sprague_json(&["table", "kayles", "--to", "200", "--format", "json"]);
    assert_eq!(v["period"], json!({"preperiod": 71, "period": 12}));
    // The CLI tabulates splitting codes with the sparse-space engine; the library's
    // `HeapValues::table` uses the bitset engine. They must agree.
    for code in ["0.6", "0.007", "0.16", "4.07", "grundy"] {
        let v = sprague_json(&["table", code, "--to", "3000", "--format", "json"]);
        let game = sprague::catalog::Catalog::default()
            .game(code)
            .expect("a code");
        let heap = game.heap().expect("a heap game");
        let expected = heap.table(3000, &()).expect("tabulates").values;
        assert_eq!(v["values"], json!(expected), "{code}");
    }
    let v = sprague_json(&["table", "0.6", "--to", "12", "--format", "json"]);
    assert_eq!(v["values"], json!([0, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0]));
    assert_bad_input(
        &["table", "nim", "--to", "5", "--checkpoint", "x.ckpt"],
        "take-and-break",
    );
    assert_bad_input(&["table", "0.6", "--to", "5", "--threads", "3"], "1 or 2");
}

/// A position too long for a command line comes from a file or stdin, appended after the
/// command-line words; a missing file is bad input.
#[test]
fn positions_from_a_file_or_stdin() {
    // 10^4 heads of `corners` on the diagonal (i, i) for i ≥ 1: each has value i ⊗ i, so the
    // XOR of all is the same as the command line gives for the same heads.
    let heads: Vec<String> = (1..=10_000u64).map(|i| format!("{i},{i}")).collect();
    let text = heads.join("\n");
    let run = sprague_with_input(
        &["value", "corners", "--position-file", "-", "--json"],
        Some(&text),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let expected = (1..=10_000u64).fold(0, |x, i| x ^ sprague::nimber::mul(i, i));
    assert_eq!(json["nim_value"], expected);
    assert_eq!(json["position"].as_array().unwrap().len(), 10_000);

    let dir = std::env::temp_dir().join(format!("sprague-posfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("heads.txt");
    std::fs::write(&file, "5 8\n10\t11 13").unwrap();
    let from_file = sprague_json(&[
        "value",
        "ruler",
        "--position-file",
        file.to_str().unwrap(),
        "--json",
    ]);
    let from_args = sprague_json(&["value", "ruler", "5", "8", "10", "11", "13", "--json"]);
    assert_eq!(from_file, from_args);
    std::fs::remove_dir_all(&dir).unwrap();

    assert_bad_input(
        &["value", "nim", "--position-file", "/nonexistent/heads.txt"],
        "/nonexistent/heads.txt",
    );
}

/// Playing from a position without moves is refused with a hint, not a game already lost.
#[test]
fn play_needs_a_position_with_moves() {
    assert_bad_input(&["play", "nim"], "no move to make in 'nim'");
    assert_bad_input(&["play", "nim", "0", "0"], "give a position to play from");
}

/// Issue 21: `--max-memory` and `--max-seconds` stop any computation with one line that names
/// the limit, and large tables are refused by their estimate before they allocate.
#[test]
fn budgets_stop_runaway_work_with_a_clear_error() {
    let misere = [
        "value", "grundy", "150", "145", "2", "138", "174", "43", "--misere",
    ];
    let mut args = misere.to_vec();
    args.extend(["--max-memory", "32"]);
    assert_bad_input(
        &args,
        "stopped: the computation reached its memory limit of 32 MiB in a direct search of this misère sum",
    );
    assert_bad_input(&args, "try smaller heaps");
    let mut args = misere.to_vec();
    args.extend(["--max-seconds", "1", "--max-memory", "0"]);
    assert_bad_input(
        &args,
        "stopped: the computation ran past its time limit of 1 s",
    );
    assert_bad_input(
        &["table", "nim", "--to", "1000000000", "--max-memory", "100"],
        "a table of nim values to heap 1000000000 needs about 7629 MiB, more than the",
    );
    assert_bad_input(
        &[
            "table",
            "0.6",
            "--to",
            "200000000",
            "--checkpoint",
            "/nonexistent/x",
            "--max-memory",
            "100",
        ],
        // 2 bytes a value would not fit 100 MiB, so the estimate is of a packed table.
        "computing to 200000000 needs about 472 MiB",
    );
    // The default (80% of the machine) leaves ordinary work alone.
    let run = sprague(&["table", "kayles", "--to", "20"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}
