//! `sprague solve GAME --distributed` under `mpirun` on this machine (feature `mpi`; needs
//! Open MPI's `mpirun` on the PATH): the answer and the database equal a one-process solve's,
//! byte for byte, on any number of ranks; a rank killed mid-solve aborts the job, and the rerun
//! resumes from the last finished tier and writes the same database.
#![cfg(feature = "mpi")]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh, empty directory for one test.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sprague-mpi-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `sprague solve GAME --json` with its databases in `dir`: on `ranks` ranks under mpirun
/// (loopback, oversubscribed), or in one plain process when `ranks` is `None`.
fn spawn_solve(dir: &Path, game: &str, ranks: Option<usize>) -> Child {
    let binary = env!("CARGO_BIN_EXE_sprague");
    let mut command = match ranks {
        Some(n) => {
            let mut c = Command::new("mpirun");
            c.args(["--oversubscribe", "-np", &n.to_string()]);
            // Root may start ranks only when told so (CI runs as root).
            if is_root() {
                c.arg("--allow-run-as-root");
            }
            // Pass the directory to every rank (only rank 0 uses it).
            c.args(["-x", "SPRAGUE_DB_DIR", binary, "solve", game, "--json"]);
            c.arg("--distributed");
            c
        }
        None => {
            let mut c = Command::new(binary);
            c.args(["solve", game, "--json"]);
            c
        }
    };
    command
        .env("SPRAGUE_DB_DIR", dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun runs (install Open MPI: apt-get install openmpi-bin libopenmpi-dev)")
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find(|l| l.starts_with("Uid:"))
            .and_then(|l| l.split_whitespace().nth(1))
            == Some("0")
    })
}

/// What a finished run printed: its JSON, and its stderr.
fn finished(child: Child) -> (serde_json::Value, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("the run finishes");
    let stderr = String::from_utf8_lossy(&stderr).into_owned();
    assert!(status.success(), "solve failed: {stderr}");
    let json = serde_json::from_slice(&stdout)
        .unwrap_or_else(|e| panic!("invalid JSON ({e}): {}", String::from_utf8_lossy(&stdout)));
    (json, stderr)
}

fn database_name(game: &str) -> String {
    format!("{}.sdb", game.replace([':', ','], "_"))
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

/// Solves `game` in one process into a fresh directory: its database and answer.
fn reference(game: &str) -> (Vec<u8>, serde_json::Value) {
    let dir = fresh_dir(&format!("{}-reference", database_name(game)));
    let (json, _) = finished(spawn_solve(&dir, game, None));
    let database = std::fs::read(dir.join(database_name(game))).expect("a database is written");
    std::fs::remove_dir_all(&dir).ok();
    (database, json)
}

/// Solves `game` on each number of ranks into a fresh directory: every run answers as the
/// one-process solve, reports its ranks and the bytes they exchanged, writes the same database
/// byte for byte and leaves no tier file; a rerun reopens the database.
fn distributed_equals_one_process(game: &str, ranks: &[usize]) {
    let (expected, straight) = reference(game);
    for &n in ranks {
        let dir = fresh_dir(&format!("{}-{n}", database_name(game)));
        let (json, stderr) = finished(spawn_solve(&dir, game, Some(n)));
        assert_eq!(answer(&json), answer(&straight), "{game} on {n} ranks");
        let spread = &json["details"]["distributed"];
        assert_eq!(spread["ranks"], n, "{json}");
        if n > 1 {
            assert!(spread["bytes_exchanged"].as_u64().unwrap() > 0, "{json}");
        }
        // Rank 0 alone prints.
        assert!(!stderr.contains("rank 1"), "{stderr}");
        let written = std::fs::read(dir.join(database_name(game))).expect("a database");
        assert!(
            written == expected,
            "{game} on {n} ranks: the databases differ"
        );
        let parts = std::fs::read_dir(&dir)
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                name.to_string_lossy().ends_with(".part")
            })
            .count();
        assert_eq!(parts, 0);
        let (again, _) = finished(spawn_solve(&dir, game, Some(n)));
        assert_eq!(again["details"]["from_database"], true, "{again}");
        assert_eq!(answer(&again), answer(&straight));
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// `mnk:3,3,4` (tic-tac-toe with lines of 4: a tie) on 2 and 4 ranks, fast even in debug mode.
#[test]
fn a_small_board_on_two_and_four_ranks_gives_the_one_process_database() {
    distributed_equals_one_process("mnk:3,3,4", &[2, 4]);
}

/// `mnk:4,4,4` on 2 and 4 ranks (release mode, CI).
#[test]
#[ignore = "release mode: a few seconds a run"]
fn mnk_4_4_4_on_two_and_four_ranks_gives_the_one_process_database() {
    distributed_equals_one_process("mnk:4,4,4", &[2, 4]);
}

/// `quixo:4` (81 loopy tiers, with un-moves) on 3 ranks (release mode, CI).
#[test]
#[ignore = "release mode: tens of seconds"]
fn quixo_4_on_three_ranks_gives_the_one_process_database() {
    distributed_equals_one_process("quixo:4", &[3]);
}

/// A game that is not tiered is refused under --distributed, by rank 0 alone.
#[test]
fn a_game_that_is_not_tiered_is_refused_once() {
    let dir = fresh_dir("not-tiered");
    let child = {
        let mut command = Command::new("mpirun");
        command.args(["--oversubscribe", "-np", "2"]);
        if is_root() {
            command.arg("--allow-run-as-root");
        }
        command
            .args([env!("CARGO_BIN_EXE_sprague"), "solve", "cards:2,5"])
            .arg("--distributed")
            .env("SPRAGUE_DB_DIR", &dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .expect("mpirun runs")
    };
    let stderr = String::from_utf8_lossy(&child.stderr);
    assert!(!child.status.success());
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("sprague:"))
        .collect();
    assert_eq!(
        lines,
        ["sprague: cards:2,5 is not a tiered game: --distributed solves mnk, connect, quixo and teeko"],
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The names in `dir` ending with `suffix`.
fn count(dir: &Path, suffix: &str) -> usize {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter(|e| {
                    e.as_ref()
                        .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(suffix))
                })
                .count()
        })
        .unwrap_or(0)
}

/// The process ids of rank `rank` of the job solving into `dir` (from the environment mpirun
/// gives each rank; other tests' jobs run at the same time).
fn rank_pids(rank: usize, dir: &Path) -> Vec<u32> {
    let wanted = format!("OMPI_COMM_WORLD_RANK={rank}");
    let ours = format!("SPRAGUE_DB_DIR={}", dir.display());
    let binary = env!("CARGO_BIN_EXE_sprague");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok();
            let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            let has = |v: &str| environ.split(|&b| b == 0).any(|w| w == v.as_bytes());
            exe.is_some_and(|e| e == Path::new(binary)) && has(&wanted) && has(&ours)
        })
        .collect()
}

/// Kills rank 1 (SIGKILL) of a `game` solve on 3 ranks once rank 0 has saved `tiers` tier
/// files: mpirun ends the job with an error naming the killed rank; the rerun on 2 ranks says
/// it resumes from the tier after the saved ones, answers as a one-process solve, and writes
/// the same database byte for byte.
fn killed_rank_resumes(game: &str, tiers: usize) {
    let (expected, straight) = reference(game);
    for attempt in 0..5 {
        let dir = fresh_dir(&format!("{}-killed-{attempt}", database_name(game)));
        let mut child = spawn_solve(&dir, game, Some(3));
        let start = Instant::now();
        while count(&dir, ".part") < tiers && start.elapsed() < Duration::from_secs(300) {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let victims = rank_pids(1, &dir);
        for &pid in &victims {
            Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status()
                .ok();
        }
        let output = child.wait_with_output().unwrap();
        let saved = count(&dir, ".part");
        if victims.is_empty() || dir.join(database_name(game)).exists() || saved == 0 {
            // The run finished before the kill landed (a very loaded machine): try again.
            std::fs::remove_dir_all(&dir).ok();
            continue;
        }
        assert!(!output.status.success(), "the job goes on without rank 1");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("signal 9") || stderr.contains("Killed"),
            "mpirun names the killed rank: {stderr}"
        );
        // Tier files are only ever whole (written and renamed): the rerun reopens them all.
        let (json, stderr) = finished(spawn_solve(&dir, game, Some(2)));
        let total = json["details"]["distributed"]["tiers"]
            .as_array()
            .map(Vec::len)
            .unwrap();
        let resumed = json["details"]["distributed"]["resumed_tiers"]
            .as_u64()
            .unwrap() as usize;
        assert_eq!(resumed, saved, "{stderr}");
        assert!(
            stderr.contains(&format!(
                "resuming from tier {} of {}: {saved} finished by an earlier run",
                saved + 1,
                total + saved
            )),
            "{stderr}"
        );
        assert_eq!(answer(&json), answer(&straight));
        let written = std::fs::read(dir.join(database_name(game))).expect("a database");
        assert!(written == expected, "the resumed database differs");
        std::fs::remove_dir_all(&dir).ok();
        return;
    }
    panic!("five runs of {game} finished before rank 1 could be killed");
}

/// `connect:4,4,4` (17 tiers): rank 1 killed after the first saved tier.
#[test]
fn a_killed_rank_aborts_the_job_and_the_rerun_resumes() {
    killed_rank_resumes("connect:4,4,4", 1);
}

/// `quixo:4` (81 tiers): rank 1 killed after 30 saved tiers (release mode, CI).
#[test]
#[ignore = "release mode: tens of seconds"]
fn a_killed_rank_of_quixo_4_resumes() {
    killed_rank_resumes("quixo:4", 30);
}
