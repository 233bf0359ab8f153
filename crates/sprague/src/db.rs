//! Databases of solved games: save a [`Solution`] to a file and reopen it, so that later
//! queries and play are instant.
//!
//! # File format (version 1, little-endian)
//! | bytes | content |
//! |---|---|
//! | 8 | magic `SPRAGUDB` |
//! | 4 | format version |
//! | 4 | length L of the game spec |
//! | L | the game spec, e.g. `mnk:4,4,4` (its parameters included) |
//! | 8 | tier count T |
//! | 8·T | tier sizes |
//! | 2·N | the records, N = the sum of the tier sizes |
//! | 8 | checksum: FNV-1a over 64-bit words of everything before it |
//!
//! Reopening checks every field; a file for another game, another layout, another version, or
//! with a bad checksum is refused with an [`Error::Io`] that says which.
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
use crate::solve::tiered::Solution;
use std::collections::HashMap;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// The first bytes of every database.
pub const MAGIC: &[u8; 8] = b"SPRAGUDB";

/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

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

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a over 64-bit little-endian words (the last word zero-padded), streaming.
#[derive(Clone, Copy, Debug)]
struct Checksum {
    hash: u64,
    pending: [u8; 8],
    filled: usize,
}

impl Checksum {
    fn new() -> Checksum {
        Checksum {
            hash: FNV_OFFSET,
            pending: [0; 8],
            filled: 0,
        }
    }

    fn word(&mut self, w: u64) {
        self.hash = (self.hash ^ w).wrapping_mul(FNV_PRIME);
    }

    fn update(&mut self, mut bytes: &[u8]) {
        while self.filled > 0 && !bytes.is_empty() {
            self.pending[self.filled] = bytes[0];
            self.filled += 1;
            bytes = &bytes[1..];
            if self.filled == 8 {
                self.word(u64::from_le_bytes(self.pending));
                self.filled = 0;
            }
        }
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.word(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
        }
        for &b in chunks.remainder() {
            self.pending[self.filled] = b;
            self.filled += 1;
        }
    }

    fn finish(mut self) -> u64 {
        if self.filled > 0 {
            self.pending[self.filled..].fill(0);
            self.word(u64::from_le_bytes(self.pending));
        }
        self.word(0x5350_5241_4755_4500);
        self.hash
    }
}

fn io_error(path: &Path, reason: impl Into<String>) -> Error {
    Error::Io {
        path: path.display().to_string(),
        reason: reason.into(),
    }
}

struct HashingWriter<W: Write> {
    inner: W,
    checksum: Checksum,
}

impl<W: Write> HashingWriter<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.checksum.update(bytes);
        self.inner.write_all(bytes)
    }
}

/// Saves `solution`, the table of game `spec`, to `path`.
///
/// # Errors
/// [`Error::Io`] when the file cannot be written.
pub fn save(path: &Path, spec: &str, solution: &Solution) -> Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    let temporary = path.with_file_name(name);
    let written = write(&temporary, spec, solution).and_then(|()| {
        std::fs::rename(&temporary, path).map_err(|e| io_error(path, e.to_string()))
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

fn write(path: &Path, spec: &str, solution: &Solution) -> Result<()> {
    let file = std::fs::File::create(path).map_err(|e| io_error(path, e.to_string()))?;
    let mut w = HashingWriter {
        inner: BufWriter::with_capacity(1 << 20, file),
        checksum: Checksum::new(),
    };
    let sizes = solution.tier_sizes();
    let result = (|| -> std::io::Result<()> {
        w.put(MAGIC)?;
        w.put(&FORMAT_VERSION.to_le_bytes())?;
        w.put(&(spec.len() as u32).to_le_bytes())?;
        w.put(spec.as_bytes())?;
        w.put(&(sizes.len() as u64).to_le_bytes())?;
        for s in &sizes {
            w.put(&s.to_le_bytes())?;
        }
        let mut buffer = Vec::with_capacity(1 << 16);
        for chunk in solution.records().chunks(1 << 15) {
            buffer.clear();
            for r in chunk {
                buffer.extend_from_slice(&r.to_le_bytes());
            }
            w.put(&buffer)?;
        }
        let sum = w.checksum.finish();
        w.inner.write_all(&sum.to_le_bytes())?;
        w.inner.flush()
    })();
    result.map_err(|e| io_error(path, e.to_string()))
}

struct HashingReader<R: Read> {
    inner: R,
    checksum: Checksum,
}

impl<R: Read> HashingReader<R> {
    fn take(&mut self, buffer: &mut [u8]) -> std::io::Result<()> {
        self.inner.read_exact(buffer)?;
        self.checksum.update(buffer);
        Ok(())
    }
    fn u32(&mut self) -> std::io::Result<u32> {
        let mut b = [0; 4];
        self.take(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn u64(&mut self) -> std::io::Result<u64> {
        let mut b = [0; 8];
        self.take(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
}

/// Reopens the database of game `spec` at `path`; `tier_sizes` is the game's layout.
///
/// # Errors
/// [`Error::Io`] when the file cannot be read, is not a database, is for another game or
/// layout or format version, is truncated, or fails its checksum.
pub fn load(path: &Path, spec: &str, tier_sizes: &[u64]) -> Result<Solution> {
    let file = std::fs::File::open(path).map_err(|e| io_error(path, e.to_string()))?;
    let file_len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut r = HashingReader {
        inner: BufReader::with_capacity(1 << 20, file),
        checksum: Checksum::new(),
    };
    let truncated = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            io_error(path, "corrupt database: the file is truncated")
        } else {
            io_error(path, e.to_string())
        }
    };
    let mut magic = [0u8; 8];
    r.take(&mut magic)
        .map_err(|_| io_error(path, "not a sprague database (too short)"))?;
    if &magic != MAGIC {
        return Err(io_error(path, "not a sprague database (bad magic bytes)"));
    }
    let version = r.u32().map_err(truncated)?;
    if version != FORMAT_VERSION {
        return Err(io_error(
            path,
            format!(
                "database format version {version}; this sprague reads version {FORMAT_VERSION}"
            ),
        ));
    }
    let spec_len = r.u32().map_err(truncated)? as u64;
    if spec_len > 4096 || spec_len > file_len {
        return Err(io_error(path, "corrupt database: bad game spec length"));
    }
    let mut spec_bytes = vec![0u8; spec_len as usize];
    r.take(&mut spec_bytes).map_err(truncated)?;
    let stored_spec = String::from_utf8_lossy(&spec_bytes).into_owned();
    if stored_spec != spec {
        return Err(io_error(
            path,
            format!("the database holds {stored_spec}, not {spec}"),
        ));
    }
    let tiers = r.u64().map_err(truncated)?;
    if tiers != tier_sizes.len() as u64 {
        return Err(io_error(
            path,
            format!(
                "the database's layout does not match {spec} ({tiers} tiers, expected {})",
                tier_sizes.len()
            ),
        ));
    }
    for (t, &expected) in tier_sizes.iter().enumerate() {
        let size = r.u64().map_err(truncated)?;
        if size != expected {
            return Err(io_error(
                path,
                format!("the database's layout does not match {spec} (tier {t} has {size} positions, expected {expected})"),
            ));
        }
    }
    let total: u64 = tier_sizes.iter().sum();
    if total.saturating_mul(2) > file_len {
        return Err(io_error(path, "corrupt database: the file is truncated"));
    }
    let mut records = vec![0u16; total as usize];
    let mut buffer = vec![0u8; 1 << 16];
    for chunk in records.chunks_mut(1 << 15) {
        let bytes = &mut buffer[..chunk.len() * 2];
        r.take(bytes).map_err(truncated)?;
        for (slot, pair) in chunk.iter_mut().zip(bytes.chunks_exact(2)) {
            *slot = u16::from_le_bytes([pair[0], pair[1]]);
        }
    }
    let expected = r.checksum.finish();
    let mut stored = [0u8; 8];
    r.inner.read_exact(&mut stored).map_err(truncated)?;
    if u64::from_le_bytes(stored) != expected {
        return Err(io_error(path, "corrupt database: checksum mismatch"));
    }
    let mut extra = [0u8; 1];
    if r.inner
        .read(&mut extra)
        .map_err(|e| io_error(path, e.to_string()))?
        != 0
    {
        return Err(io_error(
            path,
            "corrupt database: trailing bytes after the checksum",
        ));
    }
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
        assert!(err.contains("not a sprague database"), "{err}");
        std::fs::remove_file(&path).ok();
        let err = load(&path, "mnk:3,3,3", &sizes).unwrap_err();
        assert!(matches!(err, Error::Io { .. }));
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
        assert!(matches!(err, Error::Io { .. }), "{err}");
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

    #[test]
    fn checksum_depends_on_every_word_and_on_chunking_not_at_all() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut whole = Checksum::new();
        whole.update(&data);
        let mut pieces = Checksum::new();
        for chunk in data.chunks(13) {
            pieces.update(chunk);
        }
        assert_eq!(whole.finish(), pieces.finish());
        let mut changed = data.clone();
        changed[999] ^= 1;
        let mut other = Checksum::new();
        other.update(&changed);
        assert_ne!(whole.finish(), other.finish());
    }
}
