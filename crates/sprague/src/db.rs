//! Databases of solved games: save a [`Solution`] to a file and reopen it, so that later
//! queries and play are instant.
//!
//! # File format
//! A [`crate::file`] of kind `TIER`, payload version [`FORMAT_VERSION`]:
//! | bytes | content |
//! |---|---|
//! | 8 | tier count T |
//! | 8·T | tier sizes |
//! | 2·N | the records, N = the sum of the tier sizes |
//!
//! Reopening checks every field; a file for another game, another layout, another version, or
//! with a bad checksum is refused with an [`Error::File`] that says which.
//!
//! The process keeps solved tables in memory ([`cached`]) and on disk, as `DIR/<spec>.sdb`:
//! - when the environment variable `SPRAGUE_DB_DIR` names a directory, in that directory, and
//!   a file there that cannot be reopened is an error;
//! - otherwise in the user's cache directory (`$XDG_CACHE_HOME/sprague`, or
//!   `~/.cache/sprague`), for solves that took at least [`CACHE_MIN_SECONDS`]; a file there that
//!   cannot be reopened (an older format, a damaged file) is solved again and replaced;
//! - `SPRAGUE_DB_DIR=` (empty) keeps tables in memory only.
//!
//! Files are written to a temporary name and renamed, so a reader never sees half a file.

use crate::error::{Error, Result};
use crate::file::{self, Expected, Kind};
use crate::solve::tiered::Solution;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// The environment variable naming a directory of databases.
pub const DB_DIR_VARIABLE: &str = "SPRAGUE_DB_DIR";

/// Solves shorter than this are not saved to the default cache directory: solving them again
/// is about as quick as reading them.
pub const CACHE_MIN_SECONDS: f64 = 1.0;

/// Where [`cached_in`] keeps databases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Store {
    /// Memory only.
    Memory,
    /// A directory the user named: every table is saved; a file that cannot be reopened is an
    /// error.
    Directory(PathBuf),
    /// The default cache directory: slow solves are saved; a file that cannot be reopened is
    /// solved again and replaced; a directory that cannot be written is skipped.
    Cache(PathBuf),
}

impl Store {
    /// The store the environment asks for (see the module documentation).
    pub fn from_env() -> Store {
        let var = |name: &str| std::env::var_os(name).map(PathBuf::from);
        Store::from_vars(var(DB_DIR_VARIABLE), var("XDG_CACHE_HOME"), var("HOME"))
    }

    /// The store for these values of `SPRAGUE_DB_DIR`, `XDG_CACHE_HOME` and `HOME`.
    fn from_vars(
        db_dir: Option<PathBuf>,
        xdg_cache: Option<PathBuf>,
        home: Option<PathBuf>,
    ) -> Store {
        let set = |v: Option<PathBuf>| v.filter(|d| !d.as_os_str().is_empty());
        match db_dir {
            Some(dir) if dir.as_os_str().is_empty() => Store::Memory,
            Some(dir) => Store::Directory(dir),
            None => set(xdg_cache)
                .or_else(|| set(home).map(|h| h.join(".cache")))
                .map_or(Store::Memory, |base| Store::Cache(base.join("sprague"))),
        }
    }

    fn dir(&self) -> Option<&Path> {
        match self {
            Store::Memory => None,
            Store::Directory(d) | Store::Cache(d) => Some(d),
        }
    }
}

/// The payload version of databases ([`crate::file::Kind::DATABASE`]) this build writes and
/// reads.
pub const FORMAT_VERSION: u32 = 2;

fn io_error(path: &Path, reason: impl Into<String>) -> Error {
    Error::Io {
        path: path.display().to_string(),
        reason: reason.into(),
    }
}

/// Saves `solution`, the table of game `spec`, to `path` (atomically; see [`crate::file`]).
///
/// # Errors
/// [`Error::File`] when the file cannot be written.
pub fn save(path: &Path, spec: &str, solution: &Solution) -> Result<()> {
    let sizes = solution.tier_sizes();
    let records = solution.records();
    let payload_len = 8 + 8 * sizes.len() as u64 + 2 * records.len() as u64;
    file::write(
        path,
        Kind::DATABASE,
        FORMAT_VERSION,
        spec,
        payload_len,
        |w| {
            w.write_all(&(sizes.len() as u64).to_le_bytes())?;
            for s in &sizes {
                w.write_all(&s.to_le_bytes())?;
            }
            let mut buffer = Vec::with_capacity(1 << 16);
            for chunk in records.chunks(1 << 15) {
                buffer.clear();
                for r in chunk {
                    buffer.extend_from_slice(&r.to_le_bytes());
                }
                w.write_all(&buffer)?;
            }
            Ok(())
        },
    )
}

/// Reopens the database of game `spec` at `path`; `tier_sizes` is the game's layout.
///
/// # Errors
/// [`Error::File`] when the file cannot be read, is not a database, is for another game or
/// layout or format version, is truncated, or fails its checksum.
pub fn load(path: &Path, spec: &str, tier_sizes: &[u64]) -> Result<Solution> {
    let mut r = file::open(
        path,
        &Expected {
            kind: Kind::DATABASE,
            version: FORMAT_VERSION,
            spec: Some(spec),
        },
    )?;
    let mut word = [0u8; 8];
    r.read_payload(&mut word)?;
    let tiers = u64::from_le_bytes(word);
    if tiers != tier_sizes.len() as u64 {
        return Err(r.corrupt(format!(
            "the layout does not match {spec} ({tiers} tiers, expected {})",
            tier_sizes.len()
        )));
    }
    for (t, &expected) in tier_sizes.iter().enumerate() {
        r.read_payload(&mut word)?;
        let size = u64::from_le_bytes(word);
        if size != expected {
            return Err(r.corrupt(format!(
                "the layout does not match {spec} (tier {t} has {size} positions, expected {expected})"
            )));
        }
    }
    let total: u64 = tier_sizes.iter().sum();
    if Some(r.remaining()) != total.checked_mul(2) {
        return Err(r.corrupt("the record count does not match the layout"));
    }
    let mut records = vec![0u16; total as usize];
    let mut buffer = vec![0u8; 1 << 16];
    for chunk in records.chunks_mut(1 << 15) {
        let bytes = &mut buffer[..chunk.len() * 2];
        r.read_payload(bytes)?;
        for (slot, pair) in chunk.iter_mut().zip(bytes.chunks_exact(2)) {
            *slot = u16::from_le_bytes([pair[0], pair[1]]);
        }
    }
    r.finish()?;
    Solution::from_records(tier_sizes, records)
}

/// The file name for `spec` inside a database directory.
pub fn file_name(spec: &str) -> String {
    let safe: String = spec
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.sdb")
}

/// The solved table of `spec`: from this process's cache, else from the database store of
/// the environment ([`Store::from_env`]), else from `compute` (then saved there).
///
/// # Errors
/// Whatever `compute` returns; [`Error::Io`] for a database in `SPRAGUE_DB_DIR` that is
/// refused or cannot be written.
pub fn cached(
    spec: &str,
    tier_sizes: &[u64],
    compute: impl FnOnce() -> Result<Solution>,
) -> Result<Arc<Solution>> {
    cached_in(&Store::from_env(), spec, tier_sizes, compute)
}

/// [`cached`] with the store given.
///
/// # Errors
/// Whatever `compute` returns; [`Error::Io`] for a database in a [`Store::Directory`] that is
/// refused or cannot be written.
pub fn cached_in(
    store: &Store,
    spec: &str,
    tier_sizes: &[u64],
    compute: impl FnOnce() -> Result<Solution>,
) -> Result<Arc<Solution>> {
    // One slot per game: holding a game's slot through its solve makes concurrent first queries
    // of that game wait for a single solve instead of racing, while other games (a server's
    // other users) go on; the map's own lock is held only to find the slot.
    type Slot = Arc<Mutex<Option<Arc<Solution>>>>;
    static CACHE: OnceLock<Mutex<HashMap<String, Slot>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let slot = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(spec.to_string())
        .or_default()
        .clone();
    let mut entry = slot.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = entry.as_ref() {
        return Ok(s.clone());
    }
    let path = store.dir().map(|d| d.join(file_name(spec)));
    let strict = matches!(store, Store::Directory(_));
    let loaded = match &path {
        Some(p) if p.exists() => match load(p, spec, tier_sizes) {
            Ok(solution) => Some(solution),
            Err(e) if strict => return Err(e),
            Err(_) => None,
        },
        _ => None,
    };
    let solution = match loaded {
        Some(solution) => solution,
        None => {
            let started = std::time::Instant::now();
            let solution = compute()?;
            let slow = started.elapsed().as_secs_f64() >= CACHE_MIN_SECONDS;
            if let Some(p) = &path {
                if strict || slow {
                    let saved = p
                        .parent()
                        .map_or(Ok(()), std::fs::create_dir_all)
                        .map_err(|e| io_error(p, e.to_string()))
                        .and_then(|()| save(p, spec, &solution));
                    if strict {
                        saved?;
                    }
                }
            }
            solution
        }
    };
    let solution = Arc::new(solution);
    *entry = Some(solution.clone());
    Ok(solution)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mnk::{Board, BoardRules};
    use crate::solve::tiered::{self, TieredGame};

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("sprague-db-test-{}-{name}", std::process::id()))
    }

    #[test]
    fn a_solve_in_progress_does_not_block_other_games() {
        let rules = BoardRules::new(3, 3, 3, false).unwrap();
        let sizes: Vec<u64> = (0..rules.tier_count())
            .map(|t| rules.tier_size(t))
            .collect();
        let (started, wait_started) = std::sync::mpsc::channel();
        let (release, wait_release) = std::sync::mpsc::channel::<()>();
        let slow = {
            let sizes = sizes.clone();
            std::thread::spawn(move || {
                cached_in(&Store::Memory, "db-test-slow", &sizes, || {
                    started.send(()).unwrap();
                    wait_release.recv().unwrap();
                    tiered::solve(
                        &BoardRules::new(3, 3, 3, false).unwrap(),
                        Some(1),
                        u64::MAX,
                        &(),
                    )
                })
            })
        };
        wait_started.recv().unwrap();
        // While the slow solve holds its own slot, another game is solved and answered.
        let other = cached_in(&Store::Memory, "db-test-other", &sizes, || {
            tiered::solve(&rules, Some(1), u64::MAX, &())
        })
        .unwrap();
        release.send(()).unwrap();
        let slow = slow.join().unwrap().unwrap();
        assert_eq!(slow.records(), other.records());
        // The second query of a game is answered from the cache.
        let again = cached_in(&Store::Memory, "db-test-slow", &sizes, || {
            Err(Error::Internal("solved twice".into()))
        })
        .unwrap();
        assert!(Arc::ptr_eq(&again, &slow));
    }

    #[test]
    fn save_reopen_and_query_round_trip() {
        let rules = BoardRules::new(3, 3, 3, false).unwrap();
        let sizes: Vec<u64> = (0..rules.tier_count())
            .map(|t| rules.tier_size(t))
            .collect();
        let solution = tiered::solve(&rules, Some(1), u64::MAX, &()).unwrap();
        let path = temp("roundtrip.sdb");
        save(&path, "mnk:3,3,3", &solution).unwrap();
        let reopened = load(&path, "mnk:3,3,3", &sizes).unwrap();
        assert_eq!(reopened.records(), solution.records());
        let start = Board::default();
        assert_eq!(
            reopened.record(&rules, &start),
            solution.record(&rules, &start)
        );
        assert_eq!(reopened.stats.positions, solution.stats.positions);

        // Another game is refused.
        let err = load(&path, "mnk:4,3,3", &sizes).unwrap_err().to_string();
        assert!(err.contains("holds mnk:3,3,3, not mnk:4,3,3"), "{err}");
        // A wrong layout is refused.
        let mut other = sizes.clone();
        other[2] += 1;
        assert!(load(&path, "mnk:3,3,3", &other)
            .unwrap_err()
            .to_string()
            .contains("layout"));

        // A flipped byte in the records is caught by the checksum.
        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x10;
        std::fs::write(&path, &bytes).unwrap();
        let err = load(&path, "mnk:3,3,3", &sizes).unwrap_err().to_string();
        assert!(err.contains("checksum mismatch"), "{err}");
        // Truncation and garbage are refused.
        bytes[middle] ^= 0x10;
        std::fs::write(&path, &bytes[..bytes.len() - 100]).unwrap();
        let err = load(&path, "mnk:3,3,3", &sizes).unwrap_err().to_string();
        assert!(err.contains("truncated"), "{err}");
        std::fs::write(&path, b"hello world, not a database").unwrap();
        let err = load(&path, "mnk:3,3,3", &sizes).unwrap_err().to_string();
        assert!(err.contains("not a sprague file"), "{err}");
        std::fs::remove_file(&path).ok();
        let err = load(&path, "mnk:3,3,3", &sizes).unwrap_err();
        assert!(matches!(err, Error::File { .. }));
    }

    #[test]
    fn a_database_directory_saves_once_and_reopens() {
        let rules = BoardRules::new(2, 2, 2, false).unwrap();
        let sizes: Vec<u64> = (0..rules.tier_count())
            .map(|t| rules.tier_size(t))
            .collect();
        let dir = temp("dir");
        std::fs::create_dir_all(&dir).unwrap();
        let spec = "test-only:2,2,2";
        let path = dir.join(file_name(spec));
        std::fs::remove_file(&path).ok();
        let solve = || tiered::solve(&rules, Some(1), u64::MAX, &());
        let store = Store::Directory(dir.clone());
        let first = cached_in(&store, spec, &sizes, solve).unwrap();
        assert!(path.exists());
        let reopened = load(&path, spec, &sizes).unwrap();
        assert_eq!(reopened.records(), first.records());
        // The second query comes from memory: compute is not called.
        let again = cached_in(&store, spec, &sizes, || {
            Err(Error::Internal("should not solve twice".into()))
        })
        .unwrap();
        assert_eq!(again.records(), first.records());
        // A corrupt file in the directory is refused by a fresh key.
        let other = "test-only:corrupt";
        std::fs::write(dir.join(file_name(other)), b"SPRAGUDBxx").unwrap();
        let err = cached_in(&store, other, &sizes, solve).unwrap_err();
        assert!(matches!(err, Error::File { .. }), "{err}");
        // No temporary file is left beside the databases.
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| n.ends_with(".sdb")), "{names:?}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// The default cache: quick solves are not saved, a damaged file is solved again and
    /// replaced, and a directory that does not exist yet is made.
    #[test]
    fn the_cache_directory_replaces_what_it_cannot_reopen() {
        let rules = BoardRules::new(2, 2, 2, false).unwrap();
        let sizes: Vec<u64> = (0..rules.tier_count())
            .map(|t| rules.tier_size(t))
            .collect();
        let dir = temp("cache").join("nested");
        std::fs::remove_dir_all(&dir).ok();
        let store = Store::Cache(dir.clone());
        let solve = || tiered::solve(&rules, Some(1), u64::MAX, &());
        let quick = "test-only-cache:quick";
        cached_in(&store, quick, &sizes, solve).unwrap();
        assert!(
            !dir.join(file_name(quick)).exists(),
            "a quick solve is not saved"
        );

        let slow = "test-only-cache:slow";
        let slow_solve = || {
            std::thread::sleep(std::time::Duration::from_secs_f64(CACHE_MIN_SECONDS));
            solve()
        };
        let path = dir.join(file_name(slow));
        let first = cached_in(&store, slow, &sizes, slow_solve).unwrap();
        assert_eq!(
            load(&path, slow, &sizes).unwrap().records(),
            first.records()
        );

        let damaged = "test-only-cache:damaged";
        let path = dir.join(file_name(damaged));
        std::fs::write(&path, b"SPRAGUDBxx").unwrap();
        let solved = cached_in(&store, damaged, &sizes, slow_solve).unwrap();
        assert_eq!(
            load(&path, damaged, &sizes).unwrap().records(),
            solved.records()
        );
        std::fs::remove_dir_all(temp("cache")).ok();
    }

    #[test]
    fn the_environment_chooses_the_store() {
        let p = |s: &str| Some(PathBuf::from(s));
        assert_eq!(Store::from_vars(p(""), p("/x"), p("/h")), Store::Memory);
        assert_eq!(
            Store::from_vars(p("/db"), p("/x"), p("/h")),
            Store::Directory(PathBuf::from("/db"))
        );
        assert_eq!(
            Store::from_vars(None, p("/x"), p("/h")),
            Store::Cache(PathBuf::from("/x/sprague"))
        );
        assert_eq!(
            Store::from_vars(None, p(""), p("/h")),
            Store::Cache(PathBuf::from("/h/.cache/sprague"))
        );
        assert_eq!(Store::from_vars(None, None, None), Store::Memory);
    }
}
