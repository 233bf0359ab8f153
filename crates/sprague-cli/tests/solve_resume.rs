//! Strong solves into a database directory: a run killed with SIGKILL resumes from the last
//! finished tier and writes the database an uninterrupted run writes, byte for byte; two runs
//! at once into one directory both answer right and leave a database that verifies.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh, empty directory for one test.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sprague-resume-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Starts `sprague solve GAME --json` with its databases in `dir`.
fn spawn_solve(dir: &Path, game: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_sprague"))
        .env("SPRAGUE_DB_DIR", dir)
        .args(["solve", game, "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// What a finished solve printed: its JSON, and its stderr.
fn finished(child: Child) -> (serde_json::Value, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("the binary finishes");
    let stderr = String::from_utf8_lossy(&stderr).into_owned();
    assert!(status.success(), "solve failed: {stderr}");
    let json = serde_json::from_slice(&stdout)
        .unwrap_or_else(|e| panic!("invalid JSON ({e}): {}", String::from_utf8_lossy(&stdout)));
    (json, stderr)
}

/// Solves `game` into `dir` to the end.
fn solve(dir: &Path, game: &str) -> (serde_json::Value, String) {
    finished(spawn_solve(dir, game))
}

/// The names in `dir` ending with `suffix`, sorted.
fn names(dir: &Path, suffix: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the directory is readable")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(suffix))
        .collect();
    names.sort();
    names
}

/// The figures of a solve's answer that every run must agree on.
fn answer(json: &serde_json::Value) -> (String, u64, u64, u64) {
    (
        json["outcome"].as_str().unwrap_or_default().to_string(),
        json["remoteness"].as_u64().unwrap_or(u64::MAX),
        json["positions"].as_u64().unwrap_or(u64::MAX),
        json["details"]["solved_positions"]
            .as_u64()
            .unwrap_or(u64::MAX),
    )
}

/// A database written by an uninterrupted run, and the answer it gave.
fn reference(game: &str, name: &str) -> (Vec<u8>, serde_json::Value) {
    let dir = fresh_dir(name);
    let (json, _) = solve(&dir, game);
    let database = std::fs::read(dir.join(database_name(game))).expect("a database is written");
    std::fs::remove_dir_all(&dir).ok();
    (database, json)
}

fn database_name(game: &str) -> String {
    format!("{}.sdb", game.replace([':', ','], "_"))
}

/// Solves `game` into `dir`, killing the run (SIGKILL) once it has kept a finished tier, or
/// after `after` when that is given. Returns whether the run was killed before it finished.
fn kill_run(dir: &Path, game: &str, tiers: usize, then: Duration) -> bool {
    let mut child = spawn_solve(dir, game);
    let start = Instant::now();
    while names(dir, ".part").len() < tiers && start.elapsed() < Duration::from_secs(120) {
        if child.try_wait().expect("the child's status").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    std::thread::sleep(then);
    let running = child.try_wait().expect("the child's status").is_none();
    child.kill().ok(); // SIGKILL on Unix
    child.wait().ok();
    running
}

/// Kills `connect:4,4,4` (17 tiers, under a second even in debug mode) once it has finished
/// its first tier, then reruns it: the rerun says it resumes, answers as an uninterrupted run,
/// writes the same database byte for byte, and removes the tier files.
#[test]
fn a_killed_solve_resumes_from_its_last_finished_tier() {
    let game = "connect:4,4,4";
    let (expected, straight) = reference(game, "connect-reference");
    // A run that finishes before the kill lands (a very loaded machine) proves nothing: retry.
    let dir = (0..5)
        .find_map(|attempt| {
            let dir = fresh_dir(&format!("connect-killed-{attempt}"));
            let killed = kill_run(&dir, game, 1, Duration::ZERO);
            if killed && !dir.join(database_name(game)).exists() {
                Some(dir)
            } else {
                std::fs::remove_dir_all(&dir).ok();
                None
            }
        })
        .expect("a run is killed before it finishes");
    let kept = names(&dir, ".part");
    assert!(!kept.is_empty(), "a finished tier was kept before the kill");

    let (json, stderr) = solve(&dir, game);
    assert!(
        stderr.contains("sprague: resuming from tier ") && stderr.contains(" of 17: "),
        "{stderr}"
    );
    assert_eq!(answer(&json), answer(&straight));
    assert_eq!(answer(&json).0, "D");
    assert!(
        std::fs::read(dir.join(database_name(game))).expect("a database") == expected,
        "the resumed database differs from an uninterrupted run's"
    );
    assert_eq!(names(&dir, ".part"), Vec::<String>::new());
    assert_eq!(names(&dir, ".tmp"), Vec::<String>::new());

    // A damaged tier file is named, set aside and solved again.
    std::fs::remove_file(dir.join(database_name(game))).expect("remove the database");
    assert!(
        kill_run(&dir, game, 1, Duration::ZERO),
        "the run is killed before it finishes"
    );
    let part = dir.join(names(&dir, ".part").pop().expect("a tier file"));
    std::fs::write(&part, b"SPRAGUE\0PART damaged").expect("damage it");
    let (json, stderr) = solve(&dir, game);
    assert!(
        stderr.contains(&format!("sprague: {}: ", part.display()))
            && stderr.contains("and those before it again"),
        "{stderr}"
    );
    assert_eq!(answer(&json), answer(&straight));
    assert!(std::fs::read(dir.join(database_name(game))).expect("a database") == expected);
    std::fs::remove_dir_all(&dir).ok();
}

/// SIGKILLs `quixo:4` (a solve of about ten seconds in release mode) at random moments, a few
/// times, then runs it to the end: the database equals an uninterrupted run's, byte for byte.
#[test]
#[ignore = "slow: about a minute in release mode"]
fn random_kills_during_a_quixo_4_solve_leave_the_database_of_an_uninterrupted_run() {
    let game = "quixo:4";
    let (expected, straight) = reference(game, "quixo-reference");
    let dir = fresh_dir("quixo-killed");
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    let mut kept = Vec::new();
    for _ in 0..4 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        // Once 1 to 16 more tiers are saved (of 81), and 0 to 49 ms later: a kill in the
        // middle of a tier or of a tier file's write, whatever the machine's speed.
        let before = names(&dir, ".part").len();
        let tiers = before + 1 + (seed % 16) as usize;
        let then = Duration::from_millis(seed / 16 % 50);
        kill_run(&dir, game, tiers, then);
        let now = names(&dir, ".part").len();
        kept.push((tiers, now));
        if dir.join(database_name(game)).exists() {
            break;
        }
    }
    let resumes = kept.last().is_some_and(|&(_, n)| n > 0);
    let (json, stderr) = solve(&dir, game);
    assert_eq!(
        resumes,
        stderr.contains("sprague: resuming from tier "),
        "kills (at tiers, tiers kept): {kept:?}; {stderr}"
    );
    assert!(
        kept.iter().any(|&(_, n)| n > 0),
        "no kill landed after a finished tier: {kept:?}"
    );
    assert_eq!(answer(&json), answer(&straight));
    assert!(
        std::fs::read(dir.join(database_name(game))).expect("a database") == expected,
        "the database after kills {kept:?} differs from an uninterrupted run's"
    );
    assert_eq!(names(&dir, ".part"), Vec::<String>::new());
    assert_eq!(names(&dir, ".tmp"), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}

/// Two runs at once into one directory: while this test holds the game's lock both wait and
/// say so; then one solves and the other reopens its database. Both answer right, and the
/// database verifies (a third run reopens it).
#[test]
fn two_writers_into_one_directory_both_answer_and_leave_a_valid_database() {
    let game = "connect:4,4,4";
    let (expected, straight) = reference(game, "writers-reference");
    let dir = fresh_dir("writers");
    let lock = std::fs::File::create(dir.join("connect_4_4_4.lock")).expect("the lock file");
    lock.lock().expect("the test takes the lock");
    let first = spawn_solve(&dir, game);
    let second = spawn_solve(&dir, game);
    std::thread::sleep(Duration::from_millis(1500));
    drop(lock);
    let runs = [finished(first), finished(second)];
    for (json, _) in &runs {
        assert_eq!(answer(json), answer(&straight));
    }
    let solved = runs
        .iter()
        .filter(|(json, _)| json["details"]["solve"].is_object())
        .count();
    let reopened = runs
        .iter()
        .filter(|(json, _)| json["details"]["from_database"] == true)
        .count();
    assert_eq!((solved, reopened), (1, 1), "one solves, the other waits");
    assert!(
        runs.iter().any(|(_, stderr)| stderr.contains(&format!(
            "sprague: waiting for another process solving {game} into "
        ))),
        "{:?}",
        runs.iter().map(|r| &r.1).collect::<Vec<_>>()
    );
    let (json, _) = solve(&dir, game);
    assert_eq!(json["details"]["from_database"], true);
    assert!(std::fs::read(dir.join(database_name(game))).expect("a database") == expected);
    assert_eq!(names(&dir, ".part"), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).ok();
}

/// Two `quixo:4` solves started together into one directory: one solves, the other waits for
/// it and reopens its database; both answer right and the database verifies.
#[test]
#[ignore = "slow: about half a minute in release mode"]
fn two_quixo_4_writers_at_once() {
    let game = "quixo:4";
    let dir = fresh_dir("quixo-writers");
    let first = spawn_solve(&dir, game);
    let second = spawn_solve(&dir, game);
    let runs = [finished(first), finished(second)];
    assert_eq!(answer(&runs[0].0), answer(&runs[1].0));
    assert_eq!(answer(&runs[0].0).0, "N");
    assert_eq!(answer(&runs[0].0).1, 21);
    let reopened = runs
        .iter()
        .filter(|(json, _)| json["details"]["from_database"] == true)
        .count();
    assert_eq!(reopened, 1, "the second waits for the first");
    let (json, _) = solve(&dir, game);
    assert_eq!(json["details"]["from_database"], true);
    assert_eq!(answer(&json), answer(&runs[0].0));
    std::fs::remove_dir_all(&dir).ok();
}
