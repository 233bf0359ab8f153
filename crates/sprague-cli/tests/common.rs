//! Helpers shared by the integration tests.

use std::io::Write;
use std::process::{Command, Stdio};

/// What a run of the binary produced.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `sprague` with `args` and optional standard input.
pub fn sprague_with_input(args: &[&str], input: Option<&str>) -> Run {
    // Databases stay in memory unless a test names a directory: no test reads the user's cache.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sprague"))
        .env("SPRAGUE_DB_DIR", "")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(text) = input {
        child
            .stdin
            .take()
            .expect("stdin is piped")
            .write_all(text.as_bytes())
            .expect("stdin accepts input");
    }
    drop(child.stdin.take());
    let output = child.wait_with_output().expect("the binary finishes");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs `sprague` with `args`.
pub fn sprague(args: &[&str]) -> Run {
    sprague_with_input(args, None)
}

/// Runs `sprague` and parses its stdout as JSON, asserting success.
pub fn sprague_json(args: &[&str]) -> serde_json::Value {
    let run = sprague(args);
    assert_eq!(run.code, 0, "sprague {args:?} failed: {}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| {
        panic!(
            "sprague {args:?} printed invalid JSON ({e}): {}",
            run.stdout
        )
    })
}

/// Asserts a run failed with exit code 2 and exactly one line on stderr containing `needle`.
pub fn assert_bad_input(args: &[&str], needle: &str) {
    let run = sprague(args);
    assert_eq!(
        run.code, 2,
        "sprague {args:?}: stdout {} stderr {}",
        run.stdout, run.stderr
    );
    assert_eq!(
        run.stderr.lines().count(),
        1,
        "one line on stderr: {}",
        run.stderr
    );
    assert!(
        run.stderr.contains(needle),
        "sprague {args:?}: stderr {:?} lacks {needle:?}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}
