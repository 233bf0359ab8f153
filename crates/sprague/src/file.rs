//! The one file format of everything sprague saves: strong-solution databases, heap-value
//! checkpoints and tables.
//!
//! # Layout (little-endian)
//! | bytes | content |
//! |---|---|
//! | 8 | magic `SPRAGUE\0` |
//! | 4 | kind: four ASCII letters naming the payload ([`Kind`]) |
//! | 4 | the kind's payload version |
//! | 4 | length L of the game spec |
//! | L | the game spec (UTF-8), e.g. `mnk:4,4,4` or `0.6` |
//! | 8 | payload length P in bytes |
//! | P | the payload, as its kind defines it |
//! | 8 | checksum: FNV-1a over the 64-bit words of everything before it |
//!
//! Opening checks every field against what the reader expects, and [`Reader::finish`] checks
//! the checksum and that nothing follows it; a file that fails any check is refused with an
//! [`Refused`] naming the field. Files are written under a temporary name, synced and
//! renamed, so a reader (or a resumed run after a kill) sees the old file or the new one, never
//! a torn one.
//!
//! ```
//! use sprague::file::{self, Expected, Kind};
//! use std::io::{Read, Write};
//! let path = std::env::temp_dir().join(format!("doc-{}.spr", std::process::id()));
//! let kind = Kind(*b"DEMO");
//! file::write(&path, kind, 1, "nim", 3, |w| w.write_all(&[1, 2, 3]))?;
//! let mut reader = file::open(&path, &Expected { kind, version: 1, spec: Some("nim") })?;
//! let mut payload = Vec::new();
//! reader.read_to_end(&mut payload).unwrap();
//! reader.finish()?;
//! assert_eq!(payload, [1, 2, 3]);
//! assert!(file::open(&path, &Expected { kind, version: 1, spec: Some("kayles") }).is_err());
//! # std::fs::remove_file(&path).unwrap();
//! # Ok::<(), sprague::Error>(())
//! ```

/// A file this module refused, and why; the crate's [`crate::Error::File`] carries it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {problem}")]
pub struct Refused {
    /// The file.
    pub path: String,
    /// What is wrong with it.
    pub problem: Problem,
}

/// The results of this module.
pub type Result<T> = std::result::Result<T, Refused>;
use std::fmt;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// The first bytes of every file.
pub const MAGIC: &[u8; 8] = b"SPRAGUE\0";

/// The longest game spec a file may name.
pub const MAX_SPEC: u64 = 4096;

/// What a file holds: four ASCII letters, e.g. `TIER` for a strong-solution database.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Kind(pub [u8; 4]);

impl Kind {
    /// A database of a tiered strong solve.
    pub const DATABASE: Kind = Kind(*b"TIER");
    /// A checkpoint of a heap-value computation.
    pub const HEAP_CHECKPOINT: Kind = Kind(*b"HEAP");
    /// One finished tier of a tiered strong solve, kept until its database is written.
    pub const TIER_CHECKPOINT: Kind = Kind(*b"PART");
    /// A table of nim values of single heaps ([`crate::heap::table_file`]).
    pub const NIM_VALUES: Kind = Kind(*b"NIMV");
    /// The component values of a search ([`crate::solve::nimsearch`]).
    pub const SEARCH_CHECKPOINT: Kind = Kind(*b"NIMS");
    /// The finished rows of a benchmark, kept so that a killed one resumes.
    pub const BENCH_ROWS: Kind = Kind(*b"BNCH");
}

impl fmt::Display for Kind {
    /// What the kind holds, in words (`heap-value checkpoint`), or its four letters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Kind::DATABASE => f.write_str("strong-solution database"),
            Kind::HEAP_CHECKPOINT => f.write_str("heap-value checkpoint"),
            Kind::TIER_CHECKPOINT => f.write_str("finished-tier checkpoint"),
            Kind::NIM_VALUES => f.write_str("nim-value table"),
            Kind::SEARCH_CHECKPOINT => f.write_str("search checkpoint"),
            Kind::BENCH_ROWS => f.write_str("benchmark's finished rows"),
            Kind(letters) => write!(f, "{}", String::from_utf8_lossy(&letters)),
        }
    }
}

impl fmt::Debug for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Kind({self})")
    }
}

/// Why a file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Problem {
    /// The operating system could not read or write it.
    #[error("{0}")]
    Os(String),
    /// It does not start with [`MAGIC`].
    #[error("not a sprague file (expected a {expected})")]
    NotSprague {
        /// The kind the reader wanted.
        expected: Kind,
    },
    /// It holds another kind of content.
    #[error("holds a {found}, not a {expected}")]
    Kind {
        /// The kind in the file.
        found: Kind,
        /// The kind the reader wanted.
        expected: Kind,
    },
    /// It was written by another version of the format.
    #[error("format version {found}; this sprague reads version {expected}")]
    Version {
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        expected: u32,
    },
    /// It is for another game.
    #[error("holds {found}, not {expected}")]
    Spec {
        /// The spec in the file.
        found: String,
        /// The spec the reader wanted.
        expected: String,
    },
    /// A header field is out of range (a spec longer than [`MAX_SPEC`], a payload longer than
    /// the file).
    #[error("corrupt header: {0}")]
    Header(&'static str),
    /// The file ends early.
    #[error("the file is truncated")]
    Truncated,
    /// The checksum does not match the content.
    #[error("checksum mismatch: the file is damaged")]
    Checksum,
    /// Bytes follow the checksum.
    #[error("trailing bytes after the checksum")]
    Trailing,
    /// The payload does not have the shape its kind requires.
    #[error("corrupt payload: {0}")]
    Payload(String),
}

fn refused(path: &Path, problem: Problem) -> Refused {
    Refused {
        path: path.display().to_string(),
        problem,
    }
}

fn os(path: &Path, e: &std::io::Error) -> Refused {
    refused(path, Problem::Os(e.to_string()))
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a over 64-bit little-endian words, streaming: the result does not depend on how the
/// bytes are cut into calls.
#[derive(Clone, Copy, Debug)]
pub struct Checksum {
    hash: u64,
    pending: [u8; 8],
    filled: usize,
    length: u64,
}

impl Default for Checksum {
    fn default() -> Self {
        Checksum {
            hash: FNV_OFFSET,
            pending: [0; 8],
            filled: 0,
            length: 0,
        }
    }
}

impl Checksum {
    fn word(&mut self, w: u64) {
        self.hash = (self.hash ^ w).wrapping_mul(FNV_PRIME);
    }

    /// Adds `bytes`.
    pub fn update(&mut self, mut bytes: &[u8]) {
        self.length += bytes.len() as u64;
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
            let mut w = [0u8; 8];
            w.copy_from_slice(chunk);
            self.word(u64::from_le_bytes(w));
        }
        for &b in chunks.remainder() {
            self.pending[self.filled] = b;
            self.filled += 1;
        }
    }

    /// The checksum of everything added (the length is folded in, so zero padding counts).
    pub fn finish(mut self) -> u64 {
        if self.filled > 0 {
            self.pending[self.filled..].fill(0);
            self.word(u64::from_le_bytes(self.pending));
        }
        self.word(self.length);
        self.hash
    }
}

/// The payload writer handed to [`write`]'s closure, or returned by [`create`] for a payload
/// written piece by piece (then [`Writer::commit`] finishes the file).
pub struct Writer {
    inner: BufWriter<std::fs::File>,
    checksum: Checksum,
    written: u64,
    payload_len: u64,
    /// The temporary file and the final name, while the file is not committed.
    names: Option<(PathBuf, PathBuf)>,
}

impl Writer {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.checksum.update(bytes);
        self.inner.write_all(bytes)
    }

    /// Ends the payload: checks its length against the one announced, writes the checksum,
    /// syncs, and renames the temporary file into place.
    ///
    /// # Errors
    /// [`Refused`] when the file cannot be written, or another number of payload bytes than
    /// announced was written (the temporary file is then removed).
    pub fn commit(mut self) -> Result<()> {
        let (temp, path) = self.names.take().unwrap_or_default();
        let result = (|| -> std::io::Result<()> {
            if self.written != self.payload_len {
                return Err(std::io::Error::other(format!(
                    "internal error: {} payload bytes written, {} announced",
                    self.written, self.payload_len
                )));
            }
            let sum = std::mem::take(&mut self.checksum).finish();
            self.inner.write_all(&sum.to_le_bytes())?;
            self.inner.flush()?;
            self.inner.get_ref().sync_all()
        })()
        .map_err(|e| os(&temp, &e))
        .and_then(|()| std::fs::rename(&temp, &path).map_err(|e| os(&path, &e)));
        if result.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        result
    }
}

impl Drop for Writer {
    /// A writer dropped before [`Writer::commit`] removes its temporary file.
    fn drop(&mut self) {
        if let Some((temp, _)) = self.names.take() {
            let _ = std::fs::remove_file(temp);
        }
    }
}

impl Write for Writer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.put(bytes)?;
        self.written += bytes.len() as u64;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The temporary name a file is written under before it is renamed to `path`: unique to this
/// process and to this write, so that two writers of one path (other processes, or threads of
/// this one) never write into each other's temporary file.
fn temporary(path: &Path) -> PathBuf {
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let write = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.{write}.tmp", std::process::id()));
    path.with_file_name(name)
}

/// Writes a file of `kind` (payload `version`) for game `spec` whose payload of exactly
/// `payload_len` bytes `payload` writes; atomically (a temporary file, synced, then renamed).
///
/// # Errors
/// [`Refused`] when the file cannot be written, or the closure wrote another number of
/// bytes than announced.
pub fn write(
    path: &Path,
    kind: Kind,
    version: u32,
    spec: &str,
    payload_len: u64,
    payload: impl FnOnce(&mut Writer) -> std::io::Result<()>,
) -> Result<()> {
    let mut w = create(path, kind, version, spec, payload_len)?;
    match payload(&mut w) {
        Ok(()) => w.commit(),
        Err(e) => Err(os(&temporary(path), &e)),
    }
}

/// Starts the file that [`write`] writes in one call: the header is written under a temporary
/// name; write the payload into the [`Writer`], then [`Writer::commit`] it (dropping it
/// instead removes the temporary file).
///
/// # Errors
/// [`Refused`] when the file cannot be created.
pub fn create(
    path: &Path,
    kind: Kind,
    version: u32,
    spec: &str,
    payload_len: u64,
) -> Result<Writer> {
    let temp = temporary(path);
    // The error names the path the caller gave (a missing directory is theirs to fix), not
    // the temporary name beside it.
    let file = std::fs::File::create(&temp).map_err(|e| os(path, &e))?;
    let mut w = Writer {
        inner: BufWriter::with_capacity(1 << 20, file),
        checksum: Checksum::default(),
        written: 0,
        payload_len,
        names: Some((temp.clone(), path.to_path_buf())),
    };
    (|| -> std::io::Result<()> {
        w.put(MAGIC)?;
        w.put(&kind.0)?;
        w.put(&version.to_le_bytes())?;
        w.put(&(spec.len() as u32).to_le_bytes())?;
        w.put(spec.as_bytes())?;
        w.put(&payload_len.to_le_bytes())
    })()
    .map_err(|e| os(&temp, &e))?;
    Ok(w)
}

/// What a reader expects of a file.
#[derive(Clone, Copy, Debug)]
pub struct Expected<'a> {
    /// The kind of content.
    pub kind: Kind,
    /// The payload version this build reads.
    pub version: u32,
    /// The game the file must be for, or `None` to accept any (see [`Reader::spec`]).
    pub spec: Option<&'a str>,
}

/// The payload of an opened file: read it with [`Read`] (it ends where the payload ends), then
/// call [`Reader::finish`] to check the checksum.
pub struct Reader {
    path: PathBuf,
    inner: BufReader<std::fs::File>,
    checksum: Checksum,
    spec: String,
    remaining: u64,
    /// The file offset of the payload's first byte, and the payload's length.
    payload: (u64, u64),
}

impl Reader {
    /// The game spec the file names.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The payload bytes not yet read.
    pub fn remaining(&self) -> u64 {
        self.remaining
    }

    /// The file offset of the next payload byte, for readers that map a payload in place
    /// (after checking the whole file).
    pub fn offset(&self) -> u64 {
        self.payload.0 + self.payload.1 - self.remaining
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// An [`Refused`] about this file's payload, for kinds that check its shape.
    pub fn corrupt(&self, what: impl Into<String>) -> Refused {
        refused(&self.path, Problem::Payload(what.into()))
    }

    fn fill(&mut self, buffer: &mut [u8]) -> Result<()> {
        match self.inner.read_exact(buffer) {
            Ok(()) => {
                self.checksum.update(buffer);
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                Err(refused(&self.path, Problem::Truncated))
            }
            Err(e) => Err(os(&self.path, &e)),
        }
    }

    fn u32(&mut self) -> Result<u32> {
        let mut b = [0; 4];
        self.fill(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> Result<u64> {
        let mut b = [0; 8];
        self.fill(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// Reads exactly `buffer.len()` payload bytes.
    ///
    /// # Errors
    /// [`Refused`] when the payload or the file ends first.
    pub fn read_payload(&mut self, buffer: &mut [u8]) -> Result<()> {
        if buffer.len() as u64 > self.remaining {
            return Err(self.corrupt("shorter than its content needs"));
        }
        self.fill(buffer)?;
        self.remaining -= buffer.len() as u64;
        Ok(())
    }

    /// Checks that the whole payload was read, the checksum, and that nothing follows.
    ///
    /// # Errors
    /// [`Refused`] naming the failed check.
    pub fn finish(mut self) -> Result<()> {
        if self.remaining != 0 {
            return Err(self.corrupt("longer than its content"));
        }
        let expected = self.checksum.finish();
        let mut stored = [0u8; 8];
        match self.inner.read_exact(&mut stored) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                return Err(refused(&self.path, Problem::Truncated))
            }
            Err(e) => return Err(os(&self.path, &e)),
        }
        if u64::from_le_bytes(stored) != expected {
            return Err(refused(&self.path, Problem::Checksum));
        }
        let mut extra = [0u8; 1];
        match self.inner.read(&mut extra) {
            Ok(0) => Ok(()),
            Ok(_) => Err(refused(&self.path, Problem::Trailing)),
            Err(e) => Err(os(&self.path, &e)),
        }
    }
}

impl Read for Reader {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let most = buffer
            .len()
            .min(usize::try_from(self.remaining).unwrap_or(usize::MAX));
        if most == 0 {
            return Ok(0);
        }
        let n = self.inner.read(&mut buffer[..most])?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        self.checksum.update(&buffer[..n]);
        self.remaining -= n as u64;
        Ok(n)
    }
}

/// Opens a file and checks its header against `expected`.
///
/// # Errors
/// [`Refused`] when the file cannot be read or its magic, kind, version, spec or payload
/// length is not what `expected` asks for.
pub fn open(path: &Path, expected: &Expected<'_>) -> Result<Reader> {
    let file = std::fs::File::open(path).map_err(|e| os(path, &e))?;
    let file_len = file.metadata().map(|m| m.len()).map_err(|e| os(path, &e))?;
    let mut r = Reader {
        path: path.to_path_buf(),
        inner: BufReader::with_capacity(1 << 20, file),
        checksum: Checksum::default(),
        spec: String::new(),
        remaining: 0,
        payload: (0, 0),
    };
    let mut magic = [0u8; 8];
    let not_sprague = || {
        refused(
            path,
            Problem::NotSprague {
                expected: expected.kind,
            },
        )
    };
    r.fill(&mut magic).map_err(|_| not_sprague())?;
    if &magic != MAGIC {
        return Err(not_sprague());
    }
    let mut kind = [0u8; 4];
    r.fill(&mut kind)?;
    if Kind(kind) != expected.kind {
        return Err(refused(
            path,
            Problem::Kind {
                found: Kind(kind),
                expected: expected.kind,
            },
        ));
    }
    let version = r.u32()?;
    if version != expected.version {
        return Err(refused(
            path,
            Problem::Version {
                found: version,
                expected: expected.version,
            },
        ));
    }
    let spec_len = u64::from(r.u32()?);
    if spec_len > MAX_SPEC || spec_len > file_len {
        return Err(refused(path, Problem::Header("the spec is too long")));
    }
    let mut spec = vec![0u8; spec_len as usize];
    r.fill(&mut spec)?;
    r.spec = String::from_utf8(spec)
        .map_err(|_| refused(path, Problem::Header("the spec is not UTF-8")))?;
    if let Some(wanted) = expected.spec {
        if r.spec != wanted {
            return Err(refused(
                path,
                Problem::Spec {
                    found: r.spec.clone(),
                    expected: wanted.to_string(),
                },
            ));
        }
    }
    r.remaining = r.u64()?;
    // Magic, kind, version, the spec's length, the spec and the payload's length.
    r.payload = (8 + 4 + 4 + 4 + spec_len + 8, r.remaining);
    if r.remaining > file_len {
        return Err(refused(path, Problem::Truncated));
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sprague-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    const KIND: Kind = Kind(*b"TEST");

    fn expected(spec: &str) -> Expected<'_> {
        Expected {
            kind: KIND,
            version: 3,
            spec: Some(spec),
        }
    }

    fn sample(path: &Path) -> Vec<u8> {
        let payload: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        write(path, KIND, 3, "0.6", payload.len() as u64, |w| {
            w.write_all(&payload)
        })
        .unwrap();
        payload
    }

    #[test]
    fn a_missing_directory_is_named_by_the_path_given() {
        let path = temp("no-such-directory").join("table.nimv");
        let err = write(&path, KIND, 3, "0.6", 0, |_| Ok(())).unwrap_err();
        let text = err.to_string();
        assert!(text.contains(&path.display().to_string()), "{text}");
        assert!(!text.contains(".tmp"), "{text}");
    }

    fn read_all(path: &Path, spec: &str) -> Result<Vec<u8>> {
        let mut r = open(path, &expected(spec))?;
        let mut out = vec![0u8; r.remaining() as usize];
        r.read_payload(&mut out)?;
        r.finish()?;
        Ok(out)
    }

    fn problem(result: Result<Vec<u8>>) -> Problem {
        match result {
            Err(Refused { problem, .. }) => problem,
            other => panic!("expected a refused file, got {other:?}"),
        }
    }

    #[test]
    fn round_trip_and_every_refusal() {
        let path = temp("a.spr");
        let payload = sample(&path);
        assert_eq!(read_all(&path, "0.6").unwrap(), payload);
        let good = std::fs::read(&path).unwrap();
        assert!(matches!(
            problem(read_all(&path, "0.7")),
            Problem::Spec { .. }
        ));
        let other_kind = open(
            &path,
            &Expected {
                kind: Kind::DATABASE,
                version: 3,
                spec: None,
            },
        );
        assert!(matches!(
            other_kind.err(),
            Some(Refused {
                problem: Problem::Kind { .. },
                ..
            })
        ));
        type Check = fn(&Problem) -> bool;
        let cases: [(Vec<u8>, Check); 6] = [
            (b"hello".to_vec(), |p| {
                matches!(p, Problem::NotSprague { .. })
            }),
            (good[..good.len() - 3].to_vec(), |p| {
                *p == Problem::Truncated
            }),
            (good[..30].to_vec(), |p| *p == Problem::Truncated),
            ([good.clone(), vec![0]].concat(), |p| {
                *p == Problem::Trailing
            }),
            (
                {
                    let mut b = good.clone();
                    b[100] ^= 1;
                    b
                },
                |p| *p == Problem::Checksum,
            ),
            (
                {
                    let mut b = good.clone();
                    b[12] = 9;
                    b
                },
                |p| matches!(p, Problem::Version { found: 9, .. }),
            ),
        ];
        for (bytes, check) in cases {
            std::fs::write(&path, &bytes).unwrap();
            let p = problem(read_all(&path, "0.6"));
            assert!(check(&p), "{p:?}");
        }
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_wrong_payload_length_is_refused_when_writing() {
        let path = temp("b.spr");
        let result = write(&path, KIND, 1, "x", 5, |w| w.write_all(&[1, 2]));
        assert!(result.is_err());
        assert!(!path.exists());
        assert!(!temporary(&path).exists());
    }

    #[test]
    fn checksum_is_independent_of_how_bytes_arrive() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 13 % 251) as u8).collect();
        let mut whole = Checksum::default();
        whole.update(&data);
        let mut pieces = Checksum::default();
        for piece in data.chunks(13) {
            pieces.update(piece);
        }
        assert_eq!(whole.finish(), pieces.finish());
        let mut padded = Checksum::default();
        padded.update(&[data.as_slice(), &[0]].concat());
        assert_ne!(whole.finish(), padded.finish());
    }
}
