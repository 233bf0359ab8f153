//! Checkpoint files of long heap-value computations: written atomically, verified on resume.
//!
//! # Format (version 1, little-endian)
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | magic `SPRGCKPT` |
//! | 4 | format version (1) |
//! | 8 | checksum of everything after this field |
//! | 4 + k | code text length and the code text (UTF-8), e.g. `0.6` |
//! | 2 | mask of the sparse method (0 = naive) |
//! | 1 | heap-parity variant (0 or 1) |
//! | 8 | number of values `n + 1` (the heap reached is `n`) |
//! | 2 (n + 1) | the values G(0), …, G(n) as `u16` |
//!
//! The checksum is FNV-1a taken over 64-bit little-endian words (the tail padded with zeros),
//! which is fast enough for half a gigabyte of values and catches truncation and bit flips.
//! A file is written to `PATH.tmp` and renamed over `PATH`, so a kill leaves either the old or
//! the new checkpoint, never a torn one.

use crate::error::{Error, Result};
use std::io::{Read, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"SPRGCKPT";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 8;

/// The saved state of a heap-value computation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The code's text, as [`crate::heap::rare::Code::name`] prints it.
    pub code: String,
    /// The sparse method's mask (0 for the naive mode).
    pub mask: u16,
    /// Whether the heap-parity variant was in use.
    pub heap_parity: bool,
    /// G(0), …, G(n).
    pub values: Vec<u16>,
}

/// FNV-1a over 64-bit words.
#[derive(Clone, Copy)]
struct Checksum {
    hash: u64,
    tail: [u8; 8],
    tail_len: usize,
}

impl Checksum {
    fn new() -> Self {
        Checksum {
            hash: 0xcbf2_9ce4_8422_2325,
            tail: [0; 8],
            tail_len: 0,
        }
    }

    fn word(&mut self, word: u64) {
        self.hash ^= word;
        self.hash = self.hash.wrapping_mul(0x0000_0100_0000_01b3);
    }

    fn update(&mut self, mut bytes: &[u8]) {
        while self.tail_len > 0 && !bytes.is_empty() {
            self.tail[self.tail_len] = bytes[0];
            self.tail_len += 1;
            bytes = &bytes[1..];
            if self.tail_len == 8 {
                self.word(u64::from_le_bytes(self.tail));
                self.tail_len = 0;
            }
        }
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.word(u64::from_le_bytes(word));
        }
        for &b in chunks.remainder() {
            self.tail[self.tail_len] = b;
            self.tail_len += 1;
        }
    }

    fn finish(mut self) -> u64 {
        if self.tail_len > 0 {
            self.tail[self.tail_len..].fill(0);
            self.word(u64::from_le_bytes(self.tail));
            self.word(self.tail_len as u64);
        }
        self.hash
    }
}

fn io_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Io {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

fn corrupt(path: &Path, what: &str) -> Error {
    Error::Limit(format!(
        "{}: not a valid checkpoint ({what}); delete it to start over",
        path.display()
    ))
}

/// What [`save`] writes: the fields of a [`Checkpoint`], borrowing the values so that saving
/// a large table never copies it.
#[derive(Clone, Copy, Debug)]
pub struct State<'a> {
    /// The code's text.
    pub code: &'a str,
    /// The sparse method's mask (0 for the naive mode).
    pub mask: u16,
    /// Whether the heap-parity variant was in use.
    pub heap_parity: bool,
    /// G(0), …, G(n).
    pub values: &'a [u16],
}

impl Checkpoint {
    /// The checkpoint as a [`State`] to save.
    pub fn state(&self) -> State<'_> {
        State {
            code: &self.code,
            mask: self.mask,
            heap_parity: self.heap_parity,
            values: &self.values,
        }
    }
}

/// The fixed fields after the checksum, before the values.
fn fields(checkpoint: &State<'_>) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(32 + checkpoint.code.len());
    bytes.extend_from_slice(&(checkpoint.code.len() as u32).to_le_bytes());
    bytes.extend_from_slice(checkpoint.code.as_bytes());
    bytes.extend_from_slice(&checkpoint.mask.to_le_bytes());
    bytes.push(u8::from(checkpoint.heap_parity));
    bytes.extend_from_slice(&(checkpoint.values.len() as u64).to_le_bytes());
    bytes
}

/// Value bytes in blocks, so half a gigabyte of values never needs a second copy.
fn value_blocks(values: &[u16]) -> impl Iterator<Item = Vec<u8>> + '_ {
    values
        .chunks(1 << 16)
        .map(|block| block.iter().flat_map(|v| v.to_le_bytes()).collect())
}

/// Writes a checkpoint atomically: to `PATH.tmp`, synced, then renamed over `path`.
///
/// # Errors
///
/// [`Error::Io`] when the file cannot be written.
pub fn save(path: &Path, checkpoint: &State<'_>) -> Result<()> {
    let fields = fields(checkpoint);
    let mut checksum = Checksum::new();
    checksum.update(&fields);
    for block in value_blocks(checkpoint.values) {
        checksum.update(&block);
    }
    let mut temp = path.as_os_str().to_owned();
    temp.push(".tmp");
    let temp = std::path::PathBuf::from(temp);
    let write = || -> std::io::Result<()> {
        let file = std::fs::File::create(&temp)?;
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        out.write_all(MAGIC)?;
        out.write_all(&VERSION.to_le_bytes())?;
        out.write_all(&checksum.finish().to_le_bytes())?;
        out.write_all(&fields)?;
        for block in value_blocks(checkpoint.values) {
            out.write_all(&block)?;
        }
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    };
    write().map_err(|e| io_error(path, e))
}

/// Reads and verifies a checkpoint; `None` when the file does not exist.
///
/// # Errors
///
/// - [`Error::Io`] when the file exists but cannot be read;
/// - [`Error::Limit`] when it is not a checkpoint, has another format version, or fails its
///   checksum (truncated or corrupt).
pub fn load(path: &Path) -> Result<Option<Checkpoint>> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(path, e)),
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| io_error(path, e))?;
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(corrupt(path, "no checkpoint header"));
    }
    let u32_at = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    let u64_at = |at: usize| -> Option<u64> {
        Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
    };
    let version = u32_at(8).ok_or_else(|| corrupt(path, "truncated header"))?;
    if version != VERSION {
        return Err(corrupt(
            path,
            &format!("format version {version}, expected {VERSION}"),
        ));
    }
    let stored = u64_at(12).ok_or_else(|| corrupt(path, "truncated header"))?;
    let mut checksum = Checksum::new();
    checksum.update(&bytes[HEADER..]);
    if checksum.finish() != stored {
        return Err(corrupt(
            path,
            "checksum mismatch: the file is truncated or damaged",
        ));
    }
    let truncated = || corrupt(path, "truncated fields");
    let code_len = u32_at(HEADER).ok_or_else(truncated)? as usize;
    let code_at = HEADER + 4;
    let code_bytes = bytes
        .get(code_at..code_at.saturating_add(code_len))
        .ok_or_else(truncated)?;
    let code = String::from_utf8(code_bytes.to_vec())
        .map_err(|_| corrupt(path, "the code is not UTF-8"))?;
    let at = code_at + code_len;
    let mask_bytes = bytes.get(at..at + 2).ok_or_else(truncated)?;
    let mask = u16::from_le_bytes([mask_bytes[0], mask_bytes[1]]);
    let heap_parity = match bytes.get(at + 2) {
        Some(0) => false,
        Some(1) => true,
        _ => return Err(corrupt(path, "bad heap-parity flag")),
    };
    let count = u64_at(at + 3).ok_or_else(truncated)?;
    let values_at = at + 11;
    let payload = &bytes[values_at..];
    if Some(payload.len() as u64) != count.checked_mul(2) {
        return Err(corrupt(
            path,
            "the value count does not match the file size",
        ));
    }
    let values = payload
        .chunks_exact(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
        .collect();
    Ok(Some(Checkpoint {
        code,
        mask,
        heap_parity,
        values,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_path(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("sprague-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    fn sample() -> Checkpoint {
        Checkpoint {
            code: "0.6".into(),
            mask: 0x1b,
            heap_parity: true,
            values: (0..1001u16).map(|v| v.wrapping_mul(37) % 300).collect(),
        }
    }

    #[test]
    fn round_trip() {
        let path = temp_path("round.ckpt");
        assert_eq!(load(&path).unwrap(), None);
        save(&path, &sample().state()).unwrap();
        assert_eq!(load(&path).unwrap(), Some(sample()));
        let mut shorter = sample();
        shorter.values.truncate(3);
        save(&path, &shorter.state()).unwrap();
        assert_eq!(load(&path).unwrap(), Some(shorter));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn corruption_is_refused() {
        let path = temp_path("corrupt.ckpt");
        save(&path, &sample().state()).unwrap();
        let good = std::fs::read(&path).unwrap();
        // A flipped bit in a value.
        let mut bad = good.clone();
        let last = bad.len() - 7;
        bad[last] ^= 4;
        std::fs::write(&path, &bad).unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains("checksum mismatch"), "{err}");
        // Truncated.
        std::fs::write(&path, &good[..good.len() - 10]).unwrap();
        assert!(load(&path).is_err());
        std::fs::write(&path, &good[..10]).unwrap();
        assert!(load(&path)
            .unwrap_err()
            .to_string()
            .contains("no checkpoint header"));
        // Not a checkpoint at all.
        std::fs::write(&path, b"hello, world, this is text").unwrap();
        assert!(load(&path).is_err());
        // Another version.
        let mut other = good.clone();
        other[8] = 9;
        std::fs::write(&path, &other).unwrap();
        assert!(load(&path)
            .unwrap_err()
            .to_string()
            .contains("format version 9"));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn checksum_is_independent_of_block_boundaries() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut whole = Checksum::new();
        whole.update(&data);
        let mut pieces = Checksum::new();
        for piece in data.chunks(13) {
            pieces.update(piece);
        }
        assert_eq!(whole.finish(), pieces.finish());
    }
}
