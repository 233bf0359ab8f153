//! Where strong solutions are kept between queries and between runs, and [`Strong`]: a tiered
//! game with its store, solved on first use.
//!
//! A [`Store`] is a value the front end builds and passes in (the library never chooses a
//! directory or reads the environment): [`FileStore`] keeps solved tables in memory, and, as
//! its [`Disk`] says, in a directory as `DIR/<spec>.sdb`:
//! - [`Disk::Directory`]: a directory the user named; every table is saved there, and a file
//!   there that cannot be reopened is an error;
//! - [`Disk::Cache`]: a cache directory; solves that took at least [`CACHE_MIN_SECONDS`] are
//!   saved, and a file that cannot be reopened (an older format, a damaged file) is solved again
//!   and replaced;
//! - [`Disk::None`]: memory only.
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
//! with a bad checksum is refused with an [`Error::File`] that says which. Files are written
//! to a temporary name and renamed, so a reader never sees half a file.

use crate::error::{Error, Result};
use crate::file::{self, Expected, Kind};
use crate::game::Evaluation;
use crate::progress::Progress;
use crate::solve::tiered::{solve, Record, Solution, TieredGame};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Solves shorter than this are not saved to a cache directory: solving them again is about as
/// quick as reading them.
pub const CACHE_MIN_SECONDS: f64 = 1.0;

/// Keeps strong solutions: the front end chooses one and passes it to the games that need it.
pub trait Store: Send + Sync {
    /// The solution of game `spec` (index layout `tier_sizes`): kept from an earlier call,
    /// reopened from where the store keeps files, or else computed by `compute` (then kept).
    ///
    /// # Errors
    /// Whatever `compute` returns; [`Error::File`] when a file the store must use is refused or
    /// cannot be written.
    fn solution(
        &self,
        spec: &str,
        tier_sizes: &[u64],
        compute: &mut dyn FnMut() -> Result<Solution>,
    ) -> Result<Arc<Solution>>;
}

/// Where a [`FileStore`] keeps its files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disk {
    /// Nowhere: memory only.
    None,
    /// A directory the user named: every table is saved; a file that cannot be reopened is an
    /// error.
    Directory(PathBuf),
    /// A cache directory: slow solves are saved; a file that cannot be reopened is solved again
    /// and replaced; a directory that cannot be written is skipped.
    Cache(PathBuf),
}

impl Disk {
    /// The front ends' rule, from the values of the environment variables `SPRAGUE_DB_DIR`,
    /// `XDG_CACHE_HOME` and `HOME` (read by the front end; the library reads no environment):
    /// a set `SPRAGUE_DB_DIR` names the directory (strict), an empty one means memory only;
    /// otherwise `$XDG_CACHE_HOME/sprague` or `$HOME/.cache/sprague` as a cache.
    pub fn from_vars(
        db_dir: Option<PathBuf>,
        xdg_cache: Option<PathBuf>,
        home: Option<PathBuf>,
    ) -> Disk {
        let set = |v: Option<PathBuf>| v.filter(|d| !d.as_os_str().is_empty());
        match db_dir {
            Some(dir) if dir.as_os_str().is_empty() => Disk::None,
            Some(dir) => Disk::Directory(dir),
            None => set(xdg_cache)
                .or_else(|| set(home).map(|h| h.join(".cache")))
                .map_or(Disk::None, |base| Disk::Cache(base.join("sprague"))),
        }
    }
}

/// A solved table shared by every query of one game.
type Slot = Arc<Mutex<Option<Arc<Solution>>>>;

/// A [`Store`] in memory and, as its [`Disk`] says, on disk.
pub struct FileStore {
    disk: Disk,
    slots: Mutex<HashMap<String, Slot>>,
}

impl FileStore {
    /// A store that keeps solutions in memory and on `disk`.
    pub fn new(disk: Disk) -> FileStore {
        FileStore {
            disk,
            slots: Mutex::new(HashMap::new()),
        }
    }

    /// A store in memory only.
    pub fn memory() -> FileStore {
        FileStore::new(Disk::None)
    }

    /// Where the files go.
    pub fn disk(&self) -> &Disk {
        &self.disk
    }

    fn dir(&self) -> Option<&Path> {
        match &self.disk {
            Disk::None => None,
            Disk::Directory(d) | Disk::Cache(d) => Some(d),
        }
    }
}

impl Default for FileStore {
    fn default() -> Self {
        FileStore::memory()
    }
}

impl Store for FileStore {
    fn solution(
        &self,
        spec: &str,
        tier_sizes: &[u64],
        compute: &mut dyn FnMut() -> Result<Solution>,
    ) -> Result<Arc<Solution>> {
        // One slot per game: holding a game's slot through its solve makes concurrent first
        // queries of that game wait for a single solve instead of racing, while other games (a
        // server's other users) go on; the map's own lock is held only to find the slot.
        let slot = self
            .slots
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(spec.to_string())
            .or_default()
            .clone();
        let mut entry = slot.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = entry.as_ref() {
            return Ok(s.clone());
        }
        let path = self.dir().map(|d| d.join(file_name(spec)));
        let strict = matches!(self.disk, Disk::Directory(_));
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
    )?;
    Ok(())
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
        return Err(r
            .corrupt(format!(
                "the layout does not match {spec} ({tiers} tiers, expected {})",
                tier_sizes.len()
            ))
            .into());
    }
    for (t, &expected) in tier_sizes.iter().enumerate() {
        r.read_payload(&mut word)?;
        let size = u64::from_le_bytes(word);
        if size != expected {
            return Err(r.corrupt(format!(
                "the layout does not match {spec} (tier {t} has {size} positions, expected {expected})"
            )).into());
        }
    }
    let total: u64 = tier_sizes.iter().sum();
    if Some(r.remaining()) != total.checked_mul(2) {
        return Err(r
            .corrupt("the record count does not match the layout")
            .into());
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

/// The strong solution of a tiered game, solved on first use and kept in a [`Store`]: what a
/// board family needs to answer queries of single positions.
pub struct Strong<G: TieredGame> {
    spec: String,
    rules: G,
    store: Arc<dyn Store>,
}

/// Queries solve games up to this many bytes of memory; `solve` goes further.
pub const QUERY_MAX_BYTES: u64 = 2 << 30;

/// `sprague solve` solves games up to this many bytes of memory.
pub const SOLVE_MAX_BYTES: u64 = 16 << 30;

impl<G: TieredGame> Strong<G> {
    /// The game `spec` with these rules, its solution kept in `store`.
    pub fn new(spec: impl Into<String>, rules: G, store: Arc<dyn Store>) -> Self {
        Strong {
            spec: spec.into(),
            rules,
            store,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &G {
        &self.rules
    }

    /// The game's spec.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The solved table: from the store, or a fresh solve on the current rayon pool's threads,
    /// refused past `max_bytes`.
    ///
    /// # Errors
    /// [`Error::Limit`] past `max_bytes`; whatever the store returns.
    pub fn solution(&self, max_bytes: u64, progress: &dyn Progress) -> Result<Arc<Solution>> {
        let sizes: Vec<u64> = (0..self.rules.tier_count())
            .map(|t| self.rules.tier_size(t))
            .collect();
        self.store.solution(&self.spec, &sizes, &mut || {
            solve(
                &self.rules,
                Some(rayon::current_num_threads()),
                max_bytes,
                progress,
            )
            .map_err(|e| match e {
                Error::Limit(reason) => Error::Limit(format!("{}: {reason}", self.spec)),
                other => other,
            })
        })
    }

    /// The record of a legal position.
    ///
    /// # Errors
    /// As for [`Strong::solution`], with [`QUERY_MAX_BYTES`].
    pub fn record(&self, position: &G::Position) -> Result<Record> {
        Ok(self
            .solution(QUERY_MAX_BYTES, &())?
            .record(&self.rules, position))
    }

    /// The evaluation of a legal position: its value and remoteness.
    ///
    /// # Errors
    /// As for [`Strong::record`].
    pub fn evaluate(&self, position: &G::Position) -> Result<Evaluation> {
        let record = self.record(position)?;
        Ok(Evaluation::of(
            record.value(),
            record.remoteness().map(u64::from),
        ))
    }

    /// The parts of a `solve` report every tiered game shares: the start's record, and the
    /// solve's figures (`index_space`, `solved_positions`, and `solve` or `from_database`).
    ///
    /// # Errors
    /// As for [`Strong::solution`], with [`SOLVE_MAX_BYTES`].
    pub fn report(
        &self,
        start: &G::Position,
        progress: &dyn Progress,
    ) -> Result<(Record, serde_json::Map<String, serde_json::Value>)> {
        let solution = self.solution(SOLVE_MAX_BYTES, progress)?;
        let record = solution.record(&self.rules, start);
        let stats = &solution.stats;
        let mut details = serde_json::Map::new();
        details.insert("index_space".into(), serde_json::json!(stats.indices));
        details.insert(
            "solved_positions".into(),
            serde_json::json!(stats.positions),
        );
        if stats.elapsed.is_zero() {
            details.insert("from_database".into(), serde_json::json!(true));
        } else {
            let seconds = stats.elapsed.as_secs_f64().max(1e-9);
            details.insert(
                "solve".into(),
                serde_json::json!({
                    "seconds": (stats.elapsed.as_secs_f64() * 1000.0).round() / 1000.0,
                    "cpu_seconds": stats.cpu_seconds.map(|s| (s * 100.0).round() / 100.0),
                    "threads": stats.threads,
                    "positions_per_second": stats.positions_per_second().round(),
                    "index_per_second": (stats.indices as f64 / seconds).round(),
                    "peak_bytes": stats.peak_bytes,
                }),
            );
        }
        Ok((record, details))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mnk::{Board, BoardRules};
    use crate::solve::tiered::{self, TieredGame};

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("sprague-store-test-{}-{name}", std::process::id()))
    }

    fn sizes(rules: &BoardRules) -> Vec<u64> {
        (0..rules.tier_count())
            .map(|t| rules.tier_size(t))
            .collect()
    }

    #[test]
    fn a_solve_in_progress_does_not_block_other_games() {
        let rules = BoardRules::new(3, 3, 3, false).unwrap();
        let sizes = sizes(&rules);
        let store = Arc::new(FileStore::memory());
        let (started, wait_started) = std::sync::mpsc::channel();
        let (release, wait_release) = std::sync::mpsc::channel::<()>();
        let slow = {
            let sizes = sizes.clone();
            let store = store.clone();
            std::thread::spawn(move || {
                store.solution("db-test-slow", &sizes, &mut || {
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
        let other = store
            .solution("db-test-other", &sizes, &mut || {
                tiered::solve(&rules, Some(1), u64::MAX, &())
            })
            .unwrap();
        release.send(()).unwrap();
        let slow = slow.join().unwrap().unwrap();
        assert_eq!(slow.records(), other.records());
        // The second query of a game is answered from memory.
        let again = store
            .solution("db-test-slow", &sizes, &mut || {
                Err(Error::Internal("solved twice".into()))
            })
            .unwrap();
        assert!(Arc::ptr_eq(&again, &slow));
    }

    #[test]
    fn save_reopen_and_query_round_trip() {
        let rules = BoardRules::new(3, 3, 3, false).unwrap();
        let sizes = sizes(&rules);
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
        assert!(matches!(err, Error::File(_)));
    }

    #[test]
    fn a_database_directory_saves_once_and_reopens() {
        let rules = BoardRules::new(2, 2, 2, false).unwrap();
        let sizes = sizes(&rules);
        let dir = temp("dir");
        std::fs::create_dir_all(&dir).unwrap();
        let spec = "test-only:2,2,2";
        let path = dir.join(file_name(spec));
        std::fs::remove_file(&path).ok();
        let mut solve = || tiered::solve(&rules, Some(1), u64::MAX, &());
        let store = FileStore::new(Disk::Directory(dir.clone()));
        let first = store.solution(spec, &sizes, &mut solve).unwrap();
        assert!(path.exists());
        let reopened = load(&path, spec, &sizes).unwrap();
        assert_eq!(reopened.records(), first.records());
        // The second query comes from memory: compute is not called.
        let again = store
            .solution(spec, &sizes, &mut || {
                Err(Error::Internal("should not solve twice".into()))
            })
            .unwrap();
        assert_eq!(again.records(), first.records());
        // A fresh store reopens the file instead of solving.
        let fresh = FileStore::new(Disk::Directory(dir.clone()));
        let reread = fresh
            .solution(spec, &sizes, &mut || {
                Err(Error::Internal("should not solve again".into()))
            })
            .unwrap();
        assert_eq!(reread.records(), first.records());
        // A corrupt file in the directory is refused.
        let other = "test-only:corrupt";
        std::fs::write(dir.join(file_name(other)), b"SPRAGUDBxx").unwrap();
        let err = store.solution(other, &sizes, &mut solve).unwrap_err();
        assert!(matches!(err, Error::File(_)), "{err}");
        // No temporary file is left beside the databases.
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| n.ends_with(".sdb")), "{names:?}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// The cache: quick solves are not saved, a damaged file is solved again and replaced, and a
    /// directory that does not exist yet is made.
    #[test]
    fn the_cache_directory_replaces_what_it_cannot_reopen() {
        let rules = BoardRules::new(2, 2, 2, false).unwrap();
        let sizes = sizes(&rules);
        let dir = temp("cache").join("nested");
        std::fs::remove_dir_all(&dir).ok();
        let store = FileStore::new(Disk::Cache(dir.clone()));
        let solve = || tiered::solve(&rules, Some(1), u64::MAX, &());
        let quick = "test-only-cache:quick";
        store.solution(quick, &sizes, &mut || solve()).unwrap();
        assert!(
            !dir.join(file_name(quick)).exists(),
            "a quick solve is not saved"
        );

        let slow = "test-only-cache:slow";
        let mut slow_solve = || {
            std::thread::sleep(std::time::Duration::from_secs_f64(CACHE_MIN_SECONDS));
            solve()
        };
        let path = dir.join(file_name(slow));
        let first = store.solution(slow, &sizes, &mut slow_solve).unwrap();
        assert_eq!(
            load(&path, slow, &sizes).unwrap().records(),
            first.records()
        );

        let damaged = "test-only-cache:damaged";
        let path = dir.join(file_name(damaged));
        std::fs::write(&path, b"SPRAGUDBxx").unwrap();
        let solved = store.solution(damaged, &sizes, &mut slow_solve).unwrap();
        assert_eq!(
            load(&path, damaged, &sizes).unwrap().records(),
            solved.records()
        );
        std::fs::remove_dir_all(temp("cache")).ok();
    }
}
