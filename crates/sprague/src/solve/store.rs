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
//!
//! # Checkpoints and concurrent writers
//! While a solve runs, each finished tier is kept beside the database as
//! `DIR/<spec>.tier-<K>.part` (kind [`Kind::TIER_CHECKPOINT`]: tier, tier count, tier size,
//! then the tier's records, checksummed and renamed into place like the database); a run killed
//! part way and started again reopens them and solves only the tiers before them
//! ([`crate::solve::tiered::solve_with`]). They are removed once the database is written.
//!
//! A process that has to solve first takes an exclusive lock on `DIR/<spec>.lock` (released
//! by the system when the process ends, however it ends); a second process solving the same
//! game into the same directory waits for it, then reopens the database it wrote.

pub use super::records::{RecordReader, RecordWriter};
use crate::error::{Error, Result};
use crate::file::{self, Expected, Kind};
use crate::game::Evaluation;
use crate::progress::Progress;
use crate::solve::distributed::{self, Comm, Distributed, Keep, Link};
use crate::solve::tiered::{
    self, solve_with, Checkpoints, Record, Solution, SolveStats, TieredGame,
};
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
    /// `compute` receives the store's [`Checkpoints`] for the finished tiers of this game, if it
    /// keeps any; `progress` hears what the store does besides (waiting for another writer).
    ///
    /// # Errors
    /// Whatever `compute` returns; [`Error::File`] when a file the store must use is refused or
    /// cannot be written.
    fn solution(
        &self,
        spec: &str,
        tier_sizes: &[u64],
        progress: &dyn Progress,
        compute: &mut dyn FnMut(Option<&dyn Checkpoints>) -> Result<Solution>,
    ) -> Result<Arc<Solution>>;

    /// The ranks this store's strong solves are spread over, when it was built for a
    /// distributed solve (`sprague solve --distributed`); `None` for one process.
    fn cluster(&self) -> Option<&dyn Comm> {
        None
    }

    /// A distributed strong solve of game `spec` (index layout `tier_sizes`) over the store's
    /// [`cluster`](Store::cluster), on every rank: the start's record (at `start`, its tier and
    /// rank) from a database an earlier run wrote, or else what `solve` returns, given the
    /// store's files for rank 0. `None` when the store has no cluster.
    ///
    /// # Errors
    /// Whatever `solve` returns; [`Error::File`] when a file the store must use is refused or
    /// cannot be written. The same on every rank.
    fn distributed(
        &self,
        _spec: &str,
        _tier_sizes: &[u64],
        _start: (usize, u64),
        _progress: &dyn Progress,
        _solve: &mut SolveOnRanks<'_>,
    ) -> Option<Result<Shared>> {
        None
    }
}

/// A distributed solve given the ranks and, on rank 0, the store's files
/// ([`Store::distributed`]).
pub type SolveOnRanks<'a> = dyn FnMut(&dyn Comm, Option<&dyn Keep>) -> Result<Distributed> + 'a;

/// What a distributed solve gives every rank ([`Store::distributed`]).
#[derive(Clone, Debug)]
pub enum Shared {
    /// The start's record, and the number of legal canonical positions, from the database an
    /// earlier run wrote.
    Reopened(Record, u64),
    /// A fresh solve.
    Solved(Distributed),
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
    /// The most bytes of solutions kept in memory (past it the least recently solved are
    /// dropped; a later query reopens them from disk, or solves them again).
    memory_cap: u64,
    /// The solutions kept, oldest first, with their sizes.
    kept: Mutex<Vec<(String, u64)>>,
    /// The ranks of a distributed solve.
    cluster: Option<Arc<dyn Comm>>,
}

impl FileStore {
    /// A store that keeps solutions in memory and on `disk`.
    pub fn new(disk: Disk) -> FileStore {
        FileStore {
            disk,
            slots: Mutex::new(HashMap::new()),
            memory_cap: u64::MAX,
            kept: Mutex::new(Vec::new()),
            cluster: None,
        }
    }

    /// The same, whose strong solves (`Strong::report`) are spread over the ranks of `comm`
    /// ([`crate::solve::distributed`]); every rank builds one, rank 0's files are the ones
    /// kept.
    pub fn distributed(mut self, comm: Arc<dyn Comm>) -> FileStore {
        self.cluster = Some(comm);
        self
    }

    /// The same, keeping at most `bytes` of solutions in memory (a server's bound): past it
    /// the oldest are dropped from memory (queries that hold them keep them until they end).
    pub fn with_memory_cap(mut self, bytes: u64) -> FileStore {
        self.memory_cap = bytes;
        self
    }

    /// Notes that `spec`'s solution of `bytes` is kept, and drops the oldest others while the
    /// kept ones pass the cap.
    fn keep(&self, spec: &str, bytes: u64) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|(s, _)| s != spec);
        kept.push((spec.to_string(), bytes));
        let mut total: u64 = kept.iter().map(|(_, b)| b).sum();
        while total > self.memory_cap && kept.len() > 1 {
            let (oldest, size) = kept.remove(0);
            total -= size;
            // Removing the slot, not emptying it: a query solving that game holds its slot's
            // lock, and a later query simply starts a fresh slot.
            self.slots
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&oldest);
        }
    }

    /// The specs whose solutions are kept in memory, oldest first.
    pub fn kept(&self) -> Vec<String> {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter().map(|(s, _)| s.clone()).collect()
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
        progress: &dyn Progress,
        compute: &mut dyn FnMut(Option<&dyn Checkpoints>) -> Result<Solution>,
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
        let solution = match self.dir() {
            None => compute(None)?,
            Some(dir) => self.solve_in(dir, spec, tier_sizes, progress, compute)?,
        };
        let solution = Arc::new(solution);
        *entry = Some(solution.clone());
        drop(entry);
        self.keep(spec, solution.bytes());
        Ok(solution)
    }

    fn cluster(&self) -> Option<&dyn Comm> {
        self.cluster.as_deref()
    }

    fn distributed(
        &self,
        spec: &str,
        tier_sizes: &[u64],
        start: (usize, u64),
        progress: &dyn Progress,
        solve: &mut SolveOnRanks<'_>,
    ) -> Option<Result<Shared>> {
        let comm = self.cluster.as_deref()?;
        Some(self.solve_distributed(comm, spec, tier_sizes, start, progress, solve))
    }
}

impl FileStore {
    /// Reopens the database at `path`, if there is one the store may use.
    fn reopen(&self, path: &Path, spec: &str, tier_sizes: &[u64]) -> Result<Option<Solution>> {
        if !path.exists() {
            return Ok(None);
        }
        match load(path, spec, tier_sizes) {
            Ok(solution) => Ok(Some(solution)),
            Err(e) if self.strict() => Err(e),
            Err(_) => Ok(None),
        }
    }

    fn strict(&self) -> bool {
        matches!(self.disk, Disk::Directory(_))
    }

    /// The solution from the database in `dir`, or a solve under the game's lock that keeps
    /// its finished tiers there and then writes the database (always in a directory the user
    /// named, in a cache when the solve was slow).
    fn solve_in(
        &self,
        dir: &Path,
        spec: &str,
        tier_sizes: &[u64],
        progress: &dyn Progress,
        compute: &mut dyn FnMut(Option<&dyn Checkpoints>) -> Result<Solution>,
    ) -> Result<Solution> {
        let path = dir.join(file_name(spec));
        if let Some(solution) = self.reopen(&path, spec, tier_sizes)? {
            return Ok(solution);
        }
        if let Err(e) = std::fs::create_dir_all(dir) {
            if self.strict() {
                return Err(io_error(dir, e.to_string()));
            }
            // A cache that cannot be written is skipped.
            return compute(None);
        }
        let _lock = lock(dir, spec, progress);
        // Another process may have written the database while this one waited.
        if let Some(solution) = self.reopen(&path, spec, tier_sizes)? {
            return Ok(solution);
        }
        let parts = TierFiles {
            dir,
            spec,
            tiers: tier_sizes.len(),
            strict: self.strict(),
        };
        parts.remove_temporaries();
        let started = std::time::Instant::now();
        let solution = compute(Some(&parts))?;
        let slow = started.elapsed().as_secs_f64() >= CACHE_MIN_SECONDS;
        if self.strict() {
            save(&path, spec, &solution)?;
        } else if slow {
            // A cache that cannot be written is skipped.
            let _ = save(&path, spec, &solution);
        }
        parts.remove();
        Ok(solution)
    }
}

impl FileStore {
    /// [`Store::distributed`]: the same steps as a one-process solve into a directory, with
    /// rank 0 doing the files and every rank learning what it found.
    pub(crate) fn solve_distributed(
        &self,
        comm: &dyn Comm,
        spec: &str,
        tier_sizes: &[u64],
        start: (usize, u64),
        progress: &dyn Progress,
        solve: &mut SolveOnRanks<'_>,
    ) -> Result<Shared> {
        let link = Link::new(comm);
        let dir = if comm.rank() == 0 { self.dir() } else { None };
        let path = dir.map(|d| d.join(file_name(spec)));
        // The start's record from a database, told to every rank.
        let reopened = |link: &Link<'_>| -> Result<Option<Shared>> {
            let found = match &path {
                Some(p) if p.exists() => match database_record(p, spec, tier_sizes, start) {
                    Ok(r) => Ok(Some(r)),
                    Err(e) if self.strict() => Err(e),
                    Err(_) => Ok(None),
                },
                _ => Ok(None),
            };
            let found = link.agree(found)?;
            let code = link.max(found.map_or(0, |(r, _)| u64::from(r.0) + 1));
            let positions = link.max(found.map_or(0, |(_, n)| n));
            Ok((code > 0).then(|| Shared::Reopened(Record((code - 1) as u16), positions)))
        };
        if let Some(shared) = reopened(&link)? {
            return Ok(shared);
        }
        let usable = match dir {
            Some(d) => match std::fs::create_dir_all(d) {
                Ok(()) => Ok(Some(d)),
                Err(e) if self.strict() => Err(io_error(d, e.to_string())),
                // A cache that cannot be written is skipped.
                Err(_) => Ok(None),
            },
            None => Ok(None),
        };
        let usable = link.agree(usable)?;
        let _lock = usable.map(|d| lock(d, spec, progress));
        // Another process may have written the database while this one waited.
        if let Some(shared) = reopened(&link)? {
            return Ok(shared);
        }
        let parts = usable.map(|dir| TierFiles {
            dir,
            spec,
            tiers: tier_sizes.len(),
            strict: self.strict(),
        });
        if let Some(p) = &parts {
            p.remove_temporaries();
        }
        let solved = solve(comm, parts.as_ref().map(|p| p as &dyn Keep))?;
        if let Some(p) = &parts {
            p.remove();
        }
        Ok(Shared::Solved(solved))
    }
}

/// The record at rank `start` (tier, rank) of the database of game `spec` at `path`, and the
/// number of legal canonical positions in it, read as the file streams by (never whole in
/// memory) and checked whole.
///
/// # Errors
/// As for [`load`].
pub fn database_record(
    path: &Path,
    spec: &str,
    tier_sizes: &[u64],
    start: (usize, u64),
) -> Result<(Record, u64)> {
    let mut r = open_database(path, spec, tier_sizes)?;
    let (tier, index) = start;
    let at: u64 = tier_sizes[..tier].iter().sum::<u64>() + index;
    let total: u64 = tier_sizes.iter().sum();
    let (mut record, mut positions) = (Record(0), 0u64);
    let mut buffer = vec![0u16; 1 << 15];
    let mut done = 0u64;
    while done < total {
        let n = (total - done).min(buffer.len() as u64) as usize;
        r.read(&mut buffer[..n])?;
        if (done..done + n as u64).contains(&at) {
            record = Record(buffer[(at - done) as usize]);
        }
        positions += buffer[..n]
            .iter()
            .filter(|&&w| Record(w).is_valid())
            .count() as u64;
        done += n as u64;
    }
    r.finish()?;
    Ok((record, positions))
}

/// The name of the lock file of game `spec` inside a database directory.
pub fn lock_name(spec: &str) -> String {
    format!("{}.lock", stem(spec))
}

/// The name of the checkpoint of finished tier `tier` of game `spec` inside a database
/// directory.
pub fn tier_file_name(spec: &str, tier: usize) -> String {
    format!("{}.tier-{tier}.part", stem(spec))
}

/// Takes the lock of game `spec` in `dir`, waiting (and saying so) while another process holds
/// it. `None` when the lock cannot be taken (a file system without locks): the solve goes on,
/// and the rename of whole, checksummed files still keeps the database valid.
fn lock(dir: &Path, spec: &str, progress: &dyn Progress) -> Option<std::fs::File> {
    let path = dir.join(lock_name(spec));
    let file = match std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
    {
        Ok(file) => file,
        Err(e) => {
            progress.note(&format!(
                "{}: cannot open the lock file ({e}); solving without it",
                path.display()
            ));
            return None;
        }
    };
    let locked = match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => {
            progress.note(&format!(
                "waiting for another process solving {spec} into {} (it holds {})",
                dir.display(),
                path.display()
            ));
            file.lock()
        }
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    };
    match locked {
        Ok(()) => Some(file),
        Err(e) => {
            progress.note(&format!(
                "{}: cannot lock ({e}); solving without the lock",
                path.display()
            ));
            None
        }
    }
}

/// The payload version of finished-tier checkpoints ([`Kind::TIER_CHECKPOINT`]).
pub const TIER_FORMAT_VERSION: u32 = 1;

/// The finished tiers of one game's solve, as files beside its database.
struct TierFiles<'a> {
    dir: &'a Path,
    spec: &'a str,
    tiers: usize,
    /// Whether a checkpoint that cannot be written stops the solve (a directory the user
    /// named) or is skipped (a cache).
    strict: bool,
}

impl TierFiles<'_> {
    fn path(&self, tier: usize) -> PathBuf {
        self.dir.join(tier_file_name(self.spec, tier))
    }

    /// Removes every tier file (once the database is written), and the temporary files of
    /// this game that killed runs left.
    fn remove(&self) {
        for tier in 0..self.tiers {
            let _ = std::fs::remove_file(self.path(tier));
        }
        self.remove_temporaries();
    }

    /// Removes the temporary files of this game's database and tier files that runs killed
    /// while writing them left (called under the game's lock, so no other run is writing them).
    fn remove_temporaries(&self) {
        let stem = stem(self.spec);
        let Ok(entries) = std::fs::read_dir(self.dir) else {
            return;
        };
        // `<pid>.<write>` as `file::write` names them now, or `<pid>` as it did before.
        let digits = |s: &str| {
            let number = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
            s.split('.').count() <= 2 && s.split('.').all(number)
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(rest) = name
                .to_str()
                .and_then(|n| n.strip_prefix(stem.as_str()))
                .and_then(|n| n.strip_suffix(".tmp"))
            else {
                continue;
            };
            // `<stem>.sdb.<pid>[.<write>]` or `<stem>.tier-<K>.part.<pid>[.<write>]`.
            let ours = match rest.strip_prefix(".sdb.") {
                Some(pid) => digits(pid),
                None => rest
                    .strip_prefix(".tier-")
                    .and_then(|r| r.split_once(".part."))
                    .is_some_and(|(tier, pid)| digits(tier) && digits(pid)),
            };
            if ours {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

impl TierFiles<'_> {
    /// The saved records of `tier` (`size` ranks), to read piece by piece, or `None` when no
    /// earlier run saved them.
    fn open_tier(&self, tier: usize, size: u64) -> Result<Option<RecordReader>> {
        let path = self.path(tier);
        if !path.exists() {
            return Ok(None);
        }
        let mut r = file::open(
            &path,
            &Expected {
                kind: Kind::TIER_CHECKPOINT,
                version: TIER_FORMAT_VERSION,
                spec: Some(self.spec),
            },
        )?;
        let mut word = [0u8; 8];
        for (what, expected) in [
            ("tier", tier as u64),
            ("tier count", self.tiers as u64),
            ("tier size", size),
        ] {
            r.read_payload(&mut word)?;
            let found = u64::from_le_bytes(word);
            if found != expected {
                return Err(r
                    .corrupt(format!(
                        "the {what} is {found}, expected {expected} for {}",
                        self.spec
                    ))
                    .into());
            }
        }
        if Some(r.remaining()) != size.checked_mul(2) {
            return Err(r
                .corrupt("the record count does not match the tier size")
                .into());
        }
        Ok(Some(RecordReader(r)))
    }

    /// Starts the file of finished tier `tier` (`size` ranks); `None` when it cannot be
    /// written and the store may skip it (a cache).
    fn create_tier(&self, tier: usize, size: u64) -> Result<Option<RecordWriter>> {
        let created = file::create(
            &self.path(tier),
            Kind::TIER_CHECKPOINT,
            TIER_FORMAT_VERSION,
            self.spec,
            24 + 2 * size,
        )
        .and_then(|mut w| {
            for word in [tier as u64, self.tiers as u64, size] {
                w.write_all(&word.to_le_bytes())
                    .map_err(|e| file::Refused {
                        path: self.path(tier).display().to_string(),
                        problem: file::Problem::Os(e.to_string()),
                    })?;
            }
            Ok(w)
        });
        self.written(created.map(|inner| RecordWriter {
            inner,
            path: self.path(tier),
        }))
    }

    /// A file this store failed to write: an error in a directory the user named, skipped
    /// (`None`) in a cache.
    fn written<T>(&self, result: file::Result<T>) -> Result<Option<T>> {
        match result {
            Ok(t) => Ok(Some(t)),
            Err(e) if self.strict => Err(e.into()),
            Err(_) => Ok(None),
        }
    }
}

impl Keep for TierFiles<'_> {
    fn open_tier(&self, tier: usize, size: u64) -> Result<Option<RecordReader>> {
        TierFiles::open_tier(self, tier, size)
    }

    fn create_tier(&self, tier: usize, size: u64) -> Result<Option<RecordWriter>> {
        TierFiles::create_tier(self, tier, size)
    }

    fn create_database(&self, tier_sizes: &[u64]) -> Result<Option<RecordWriter>> {
        let path = self.dir.join(file_name(self.spec));
        match create_database(&path, self.spec, tier_sizes) {
            Ok(w) => Ok(Some(w)),
            Err(e) if self.strict => Err(e),
            Err(_) => Ok(None),
        }
    }
}

impl Checkpoints for TierFiles<'_> {
    fn load(&self, tier: usize, size: u64) -> Result<Option<Vec<u16>>> {
        let Some(mut r) = self.open_tier(tier, size)? else {
            return Ok(None);
        };
        let mut records = vec![0u16; size as usize];
        r.read(&mut records)?;
        r.finish()?;
        Ok(Some(records))
    }

    fn save(&self, tier: usize, records: &[u16]) -> Result<()> {
        let Some(mut w) = self.create_tier(tier, records.len() as u64)? else {
            return Ok(());
        };
        let done = w.write(records).and_then(|()| w.commit());
        self.written(done).map(|_| ())
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
    let mut w = create_database(path, spec, &solution.tier_sizes())?;
    w.write(solution.records())?;
    Ok(w.commit()?)
}

/// Starts the database of game `spec` (layout `tier_sizes`) at `path`, to be written record by
/// record, tier after tier ([`save`] in pieces: the same bytes).
///
/// # Errors
/// [`Error::File`] when the file cannot be created.
pub fn create_database(path: &Path, spec: &str, tier_sizes: &[u64]) -> Result<RecordWriter> {
    let records: u64 = tier_sizes.iter().sum();
    let payload_len = 8 + 8 * tier_sizes.len() as u64 + 2 * records;
    let mut w = file::create(path, Kind::DATABASE, FORMAT_VERSION, spec, payload_len)?;
    let mut header = (tier_sizes.len() as u64).to_le_bytes().to_vec();
    for s in tier_sizes {
        header.extend_from_slice(&s.to_le_bytes());
    }
    w.write_all(&header)
        .map_err(|e| io_error(path, e.to_string()))?;
    Ok(RecordWriter {
        inner: w,
        path: path.to_path_buf(),
    })
}

/// Opens the database of game `spec` at `path` (layout `tier_sizes`) to read its records in
/// pieces, tier after tier.
///
/// # Errors
/// [`Error::File`] when the file cannot be read, is not a database, is for another game or
/// layout or format version, or is truncated.
pub fn open_database(path: &Path, spec: &str, tier_sizes: &[u64]) -> Result<RecordReader> {
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
    Ok(RecordReader(r))
}

/// Reopens the database of game `spec` at `path`; `tier_sizes` is the game's layout.
///
/// # Errors
/// [`Error::File`] when the file cannot be read, is not a database, is for another game or
/// layout or format version, is truncated, or fails its checksum.
pub fn load(path: &Path, spec: &str, tier_sizes: &[u64]) -> Result<Solution> {
    let mut r = open_database(path, spec, tier_sizes)?;
    let total: u64 = tier_sizes.iter().sum();
    let mut records = vec![0u16; total as usize];
    r.read(&mut records)?;
    r.finish()?;
    Solution::from_records(tier_sizes, records)
}

/// The file name for `spec` inside a database directory.
pub fn file_name(spec: &str) -> String {
    format!("{}.sdb", stem(spec))
}

/// `spec` with every character but ASCII letters, digits, `-` and `.` made `_`: the stem of
/// the game's files.
fn stem(spec: &str) -> String {
    spec.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The strong solution of a tiered game, solved on first use and kept in a [`Store`]: what a
/// board family needs to answer queries of single positions.
pub struct Strong<G: TieredGame> {
    spec: String,
    rules: G,
    store: Arc<dyn Store>,
    budget: crate::budget::Budget,
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
            budget: crate::budget::Budget::unlimited(),
        }
    }

    /// The same, whose solves for queries ([`Strong::record`]) stop when `budget` is spent.
    pub fn with_budget(mut self, budget: crate::budget::Budget) -> Self {
        self.budget = budget;
        self
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
        self.store
            .solution(&self.spec, &sizes, progress, &mut |checkpoints| {
                solve_with(
                    &self.rules,
                    Some(rayon::current_num_threads()),
                    max_bytes,
                    progress,
                    checkpoints,
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
            .solution(QUERY_MAX_BYTES, &self.budget)?
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
        let sizes: Vec<u64> = (0..self.rules.tier_count())
            .map(|t| self.rules.tier_size(t))
            .collect();
        let at = self.rules.rank(&self.rules.canonical(start));
        let spread = self
            .store
            .distributed(&self.spec, &sizes, at, progress, &mut |comm, keep| {
                distributed::solve(
                    &self.rules,
                    comm,
                    keep,
                    start,
                    distributed::DEFAULT_WINDOW,
                    SOLVE_MAX_BYTES,
                    progress,
                )
                .map_err(|e| match e {
                    Error::Limit(reason) => Error::Limit(format!("{}: {reason}", self.spec)),
                    other => other,
                })
            });
        let (record, stats, spread) = match spread {
            None => {
                let solution = self.solution(SOLVE_MAX_BYTES, progress)?;
                let record = solution.record(&self.rules, start);
                (record, solution.stats.clone(), None)
            }
            Some(shared) => match shared? {
                Shared::Reopened(record, positions) => {
                    let stats = SolveStats {
                        indices: sizes.iter().sum(),
                        positions,
                        ..SolveStats::default()
                    };
                    (record, stats, None)
                }
                Shared::Solved(d) => (d.start, d.stats.clone(), Some(d)),
            },
        };
        let mut details = serde_json::Map::new();
        details.insert("index_space".into(), serde_json::json!(stats.indices));
        details.insert(
            "solved_positions".into(),
            serde_json::json!(stats.positions),
        );
        if stats.elapsed.is_zero() {
            details.insert("from_database".into(), serde_json::json!(true));
            return Ok((record, details));
        }
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
        if let Some(d) = spread {
            details.insert(
                "distributed".into(),
                serde_json::json!({
                    "ranks": d.ranks,
                    "resumed_tiers": d.resumed,
                    "bytes_exchanged": d.bytes(),
                    "tiers": d.tiers.iter().map(|t| [t.tier as u64, t.positions, t.bytes, t.millis]).collect::<Vec<_>>(),
                }),
            );
        }
        Ok((record, details))
    }

    /// Counts the positions of `game` reachable from its start, the start included
    /// ([`tiered::reachable`]); over the store's cluster when it has one, so that no rank
    /// holds a mark for every position.
    ///
    /// # Errors
    /// As for [`tiered::reachable`].
    pub fn reachable<H: TieredGame>(&self, game: &H, threads: Option<usize>) -> Result<u64> {
        self.reachable_weighted(game, threads, |_| 1)
            .map(|(count, _)| count)
    }

    /// [`Strong::reachable`], also summing `weight` over the positions reached
    /// ([`tiered::reachable_weighted`]).
    ///
    /// # Errors
    /// As for [`tiered::reachable_weighted`].
    pub fn reachable_weighted<H: TieredGame>(
        &self,
        game: &H,
        threads: Option<usize>,
        weight: impl Fn(&H::Position) -> u64 + Sync,
    ) -> Result<(u64, u64)> {
        match self.store.cluster() {
            Some(comm) => {
                distributed::reachable_weighted(game, comm, distributed::DEFAULT_WINDOW, weight)
            }
            None => tiered::reachable_weighted(game, threads, weight),
        }
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

    /// The names in `dir`, sorted.
    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// Keeps the notes of a run.
    #[derive(Default)]
    struct Notes(Mutex<Vec<String>>);

    impl Progress for Notes {
        fn note(&self, message: &str) {
            self.0.lock().unwrap().push(message.to_string());
        }
    }

    impl Notes {
        fn taken(&self) -> Vec<String> {
            std::mem::take(&mut *self.0.lock().unwrap())
        }
    }

    /// Passes tiers on to the store's checkpoints and fails the save after `left` of them, as
    /// a kill between two tiers would stop the run.
    struct Killed<'a> {
        inner: &'a dyn Checkpoints,
        left: std::sync::atomic::AtomicUsize,
    }

    impl Checkpoints for Killed<'_> {
        fn load(&self, tier: usize, size: u64) -> Result<Option<Vec<u16>>> {
            self.inner.load(tier, size)
        }
        fn save(&self, tier: usize, records: &[u16]) -> Result<()> {
            use std::sync::atomic::Ordering::SeqCst;
            if self.left.load(SeqCst) == 0 {
                return Err(Error::Internal("killed".into()));
            }
            self.left.fetch_sub(1, SeqCst);
            self.inner.save(tier, records)
        }
    }

    /// Solves `spec` (mnk rules `rules`) into `dir` through a fresh store, with its checkpoints.
    fn solve_into(
        dir: &Path,
        spec: &str,
        rules: &BoardRules,
        progress: &dyn Progress,
    ) -> Arc<Solution> {
        FileStore::new(Disk::Directory(dir.to_path_buf()))
            .solution(spec, &sizes(rules), progress, &mut |c| {
                tiered::solve_with(rules, Some(2), u64::MAX, progress, c)
            })
            .unwrap()
    }

    /// Solves `spec` (mnk rules `rules`) into `dir`, stopping after `tiers` finished tiers
    /// (after every tier: before the database is written).
    fn solve_killed(dir: &Path, spec: &str, rules: &BoardRules, tiers: usize) {
        let store = FileStore::new(Disk::Directory(dir.to_path_buf()));
        let err = store
            .solution(spec, &sizes(rules), &(), &mut |checkpoints| {
                let killed = Killed {
                    inner: checkpoints.expect("a directory keeps checkpoints"),
                    left: tiers.into(),
                };
                tiered::solve_with(rules, Some(2), u64::MAX, &(), Some(&killed))?;
                Err(Error::Internal("killed before the database".into()))
            })
            .unwrap_err();
        assert!(err.to_string().contains("killed"), "{err}");
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
                store.solution("db-test-slow", &sizes, &(), &mut |_| {
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
            .solution("db-test-other", &sizes, &(), &mut |_| {
                tiered::solve(&rules, Some(1), u64::MAX, &())
            })
            .unwrap();
        release.send(()).unwrap();
        let slow = slow.join().unwrap().unwrap();
        assert_eq!(slow.records(), other.records());
        // The second query of a game is answered from memory.
        let again = store
            .solution("db-test-slow", &sizes, &(), &mut |_| {
                Err(Error::Internal("solved twice".into()))
            })
            .unwrap();
        assert!(Arc::ptr_eq(&again, &slow));
    }

    #[test]
    fn a_capped_store_keeps_the_newest_solutions_within_its_cap() {
        let rules = BoardRules::new(3, 3, 3, false).unwrap();
        let sizes = sizes(&rules);
        let one = tiered::solve(&rules, Some(1), u64::MAX, &())
            .unwrap()
            .bytes();
        // Room for two solutions, not three.
        let store = FileStore::memory().with_memory_cap(2 * one + one / 2);
        let solves = std::sync::atomic::AtomicUsize::new(0);
        let query = |spec: &str| {
            store
                .solution(spec, &sizes, &(), &mut |_| {
                    solves.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    tiered::solve(&rules, Some(1), u64::MAX, &())
                })
                .unwrap()
        };
        let first = query("a");
        query("b");
        assert_eq!(store.kept(), ["a", "b"]);
        query("c");
        assert_eq!(store.kept(), ["b", "c"]);
        // The query that held "a" still has it; a new query of "a" solves it again (a
        // store with a directory would reopen its database).
        assert!(first.bytes() > 0);
        query("b");
        assert_eq!(solves.load(std::sync::atomic::Ordering::SeqCst), 3);
        query("a");
        assert_eq!(solves.load(std::sync::atomic::Ordering::SeqCst), 4);
        assert_eq!(store.kept(), ["c", "a"]);
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
        let mut solve = |_: Option<&dyn Checkpoints>| tiered::solve(&rules, Some(1), u64::MAX, &());
        let store = FileStore::new(Disk::Directory(dir.clone()));
        let first = store.solution(spec, &sizes, &(), &mut solve).unwrap();
        assert!(path.exists());
        let reopened = load(&path, spec, &sizes).unwrap();
        assert_eq!(reopened.records(), first.records());
        // The second query comes from memory: compute is not called.
        let again = store
            .solution(spec, &sizes, &(), &mut |_| {
                Err(Error::Internal("should not solve twice".into()))
            })
            .unwrap();
        assert_eq!(again.records(), first.records());
        // A fresh store reopens the file instead of solving.
        let fresh = FileStore::new(Disk::Directory(dir.clone()));
        let reread = fresh
            .solution(spec, &sizes, &(), &mut |_| {
                Err(Error::Internal("should not solve again".into()))
            })
            .unwrap();
        assert_eq!(reread.records(), first.records());
        // A corrupt file in the directory is refused.
        let other = "test-only:corrupt";
        std::fs::write(dir.join(file_name(other)), b"SPRAGUDBxx").unwrap();
        let err = store.solution(other, &sizes, &(), &mut solve).unwrap_err();
        assert!(matches!(err, Error::File(_)), "{err}");
        // No temporary or tier file is left beside the databases and the lock files.
        assert_eq!(
            names_in(&dir),
            [
                "test-only_2_2_2.lock",
                "test-only_2_2_2.sdb",
                "test-only_corrupt.sdb"
            ]
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A run stopped after K finished tiers leaves K tier files; the next run resumes from them
    /// and writes the database an uninterrupted run writes, byte for byte, then removes them.
    #[test]
    fn a_stopped_solve_resumes_from_its_tier_files_byte_for_byte() {
        let rules = BoardRules::new(3, 3, 3, false).unwrap();
        let tiers = rules.tier_count();
        let spec = "test-only:3,3,3";
        let reference = temp("resume-reference");
        std::fs::remove_dir_all(&reference).ok();
        solve_into(&reference, spec, &rules, &());
        let expected = std::fs::read(reference.join(file_name(spec))).unwrap();
        for stop in [1, 4, tiers - 1, tiers] {
            let dir = temp("resume");
            std::fs::remove_dir_all(&dir).ok();
            solve_killed(&dir, spec, &rules, stop);
            let parts: Vec<String> = names_in(&dir)
                .into_iter()
                .filter(|n| n.ends_with(".part"))
                .collect();
            let mut saved: Vec<String> = (tiers - stop..tiers)
                .map(|t| tier_file_name(spec, t))
                .collect();
            saved.sort();
            assert_eq!(parts, saved, "stopped after {stop} tiers");
            assert!(!dir.join(file_name(spec)).exists());

            let notes = Notes::default();
            let resumed = solve_into(&dir, spec, &rules, &notes);
            let said = if stop == tiers {
                format!(
                    "resuming after tier {tiers} of {tiers}: an earlier run finished every tier"
                )
            } else {
                format!(
                    "resuming from tier {} of {tiers}: {stop} finished by an earlier run",
                    stop + 1
                )
            };
            assert_eq!(notes.taken(), [said]);
            assert_eq!(std::fs::read(dir.join(file_name(spec))).unwrap(), expected);
            assert_eq!(resumed.stats.positions, 5478);
            assert_eq!(
                names_in(&dir),
                ["test-only_3_3_3.lock", "test-only_3_3_3.sdb"]
            );
            std::fs::remove_dir_all(&dir).ok();
        }
        std::fs::remove_dir_all(&reference).ok();
    }

    /// A damaged tier file, or one of another game, is refused with a note naming it, and that
    /// tier and those before it are solved again; temporaries of killed writes are removed.
    #[test]
    fn a_refused_tier_file_is_named_and_solved_again() {
        let rules = BoardRules::new(3, 3, 3, false).unwrap();
        let tiers = rules.tier_count();
        let spec = "test-only-damaged:3,3,3";
        let expected = {
            let solution = tiered::solve(&rules, Some(1), u64::MAX, &()).unwrap();
            let path = temp("damaged-reference.sdb");
            save(&path, spec, &solution).unwrap();
            let bytes = std::fs::read(&path).unwrap();
            std::fs::remove_file(&path).ok();
            bytes
        };
        let dir = temp("damaged");
        std::fs::remove_dir_all(&dir).ok();
        let run = |notes: &Notes| {
            solve_into(&dir, spec, &rules, notes);
            assert_eq!(std::fs::read(dir.join(file_name(spec))).unwrap(), expected);
            std::fs::remove_file(dir.join(file_name(spec))).unwrap();
        };

        // A flipped byte in the last tier file written (tier T-3).
        solve_killed(&dir, spec, &rules, 3);
        let damaged = dir.join(tier_file_name(spec, tiers - 3));
        let mut bytes = std::fs::read(&damaged).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x40;
        std::fs::write(&damaged, &bytes).unwrap();
        // Temporary files of a write that a kill interrupted.
        let stale = [
            format!("{}.4242.tmp", file_name(spec)),
            format!("{}.77.3.tmp", tier_file_name(spec, 2)),
        ];
        for name in &stale {
            std::fs::write(dir.join(name), b"half a file").unwrap();
        }
        let notes = Notes::default();
        run(&notes);
        assert_eq!(
            notes.taken(),
            [
                format!(
                    "{}: checksum mismatch: the file is damaged; solving tier {} and those before it again",
                    damaged.display(),
                    tiers - 3
                ),
                format!("resuming from tier 3 of {tiers}: 2 finished by an earlier run"),
            ]
        );
        for name in &stale {
            assert!(!dir.join(name).exists(), "{name} is left");
        }

        // The tier file of another game, under this game's name.
        solve_killed(&dir, "test-only-other:3,3,3", &rules, 1);
        let other = dir.join(tier_file_name("test-only-other:3,3,3", tiers - 1));
        let mine = dir.join(tier_file_name(spec, tiers - 1));
        std::fs::copy(&other, &mine).unwrap();
        let notes = Notes::default();
        run(&notes);
        assert_eq!(
            notes.taken(),
            [format!(
                "{}: holds test-only-other:3,3,3, not {spec}; solving tier {} and those before it again",
                mine.display(),
                tiers - 1
            )]
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Two stores on one directory (as two processes would be): the second waits for the
    /// first's lock, says so, and then reopens the database the first wrote.
    #[test]
    fn a_second_writer_waits_for_the_lock_and_reopens_the_database() {
        let rules = BoardRules::new(3, 3, 3, false).unwrap();
        let spec = "test-only-writers:3,3,3";
        let dir = temp("writers");
        std::fs::remove_dir_all(&dir).ok();
        let (started, wait_started) = std::sync::mpsc::channel();
        let (release, wait_release) = std::sync::mpsc::channel::<()>();
        let first = {
            let dir = dir.clone();
            std::thread::spawn(move || {
                let rules = BoardRules::new(3, 3, 3, false).unwrap();
                FileStore::new(Disk::Directory(dir))
                    .solution(spec, &sizes(&rules), &(), &mut |c| {
                        started.send(()).unwrap();
                        wait_release.recv().unwrap();
                        tiered::solve_with(&rules, Some(1), u64::MAX, &(), c)
                    })
                    .unwrap()
            })
        };
        wait_started.recv().unwrap();
        // The first holds the lock: the second waits, and says so.
        struct Waiting(Mutex<Option<std::sync::mpsc::Sender<()>>>, Notes);
        impl Progress for Waiting {
            fn note(&self, message: &str) {
                self.1.note(message);
                if let Some(release) = self.0.lock().unwrap().take() {
                    release.send(()).unwrap();
                }
            }
        }
        let waiting = Waiting(Mutex::new(Some(release)), Notes::default());
        let second = FileStore::new(Disk::Directory(dir.clone()))
            .solution(spec, &sizes(&rules), &waiting, &mut |_| {
                Err(Error::Internal("the second writer solved too".into()))
            })
            .unwrap();
        let first = first.join().unwrap();
        assert_eq!(second.records(), first.records());
        assert_eq!(
            waiting.1.taken(),
            [format!(
                "waiting for another process solving {spec} into {} (it holds {})",
                dir.display(),
                dir.join(lock_name(spec)).display()
            )]
        );
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
        store
            .solution(quick, &sizes, &(), &mut |_| solve())
            .unwrap();
        assert!(
            !dir.join(file_name(quick)).exists(),
            "a quick solve is not saved"
        );

        let slow = "test-only-cache:slow";
        let mut slow_solve = |_: Option<&dyn Checkpoints>| {
            std::thread::sleep(std::time::Duration::from_secs_f64(CACHE_MIN_SECONDS));
            solve()
        };
        let path = dir.join(file_name(slow));
        let first = store.solution(slow, &sizes, &(), &mut slow_solve).unwrap();
        assert_eq!(
            load(&path, slow, &sizes).unwrap().records(),
            first.records()
        );

        let damaged = "test-only-cache:damaged";
        let path = dir.join(file_name(damaged));
        std::fs::write(&path, b"SPRAGUDBxx").unwrap();
        let solved = store
            .solution(damaged, &sizes, &(), &mut slow_solve)
            .unwrap();
        assert_eq!(
            load(&path, damaged, &sizes).unwrap().records(),
            solved.records()
        );
        std::fs::remove_dir_all(temp("cache")).ok();
    }
}
