//! Checkpoint files of long heap-value computations, in the one file format of [`crate::file`]
//! (kind `HEAP`): written atomically, verified on resume.
//!
//! # Payload (version 2, little-endian)
//!
//! | bytes | field |
//! | --- | --- |
//! | 2 | mask of the sparse method (0 = naive) |
//! | 1 | heap-parity variant (0 or 1) |
//! | 8 | number of values `n + 1` (the heap reached is `n`) |
//! | 2 (n + 1) | the values G(0), …, G(n) as `u16` |
//!
//! The game's code (e.g. `0.6`) is the file's spec.

use crate::error::Result;
use crate::file::{self, Expected, Kind};
use std::io::Write;
use std::path::Path;

/// The payload version this build writes and reads.
const VERSION: u32 = 2;

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

/// Writes a checkpoint atomically (a temporary file, synced, then renamed over `path`).
///
/// # Errors
///
/// [`crate::Error::File`] when the file cannot be written.
pub fn save(path: &Path, checkpoint: &State<'_>) -> Result<()> {
    let count = checkpoint.values.len() as u64;
    save_chunks(
        path,
        &State {
            values: &[],
            ..*checkpoint
        },
        count,
        |write| checkpoint.values.chunks(1 << 16).try_for_each(write),
    )
}

/// [`save`] of `count` values that `values` hands to its argument a chunk at a time, in
/// order (a packed table, never whole in memory); `checkpoint.values` is not read.
///
/// # Errors
///
/// [`crate::Error::File`] when the file cannot be written, or the chunks do not hold `count`
/// values.
pub(crate) fn save_chunks(
    path: &Path,
    checkpoint: &State<'_>,
    count: u64,
    values: impl FnOnce(&mut dyn FnMut(&[u16]) -> std::io::Result<()>) -> std::io::Result<()>,
) -> Result<()> {
    file::write(
        path,
        Kind::HEAP_CHECKPOINT,
        VERSION,
        checkpoint.code,
        2 + 1 + 8 + 2 * count,
        |w| {
            w.write_all(&checkpoint.mask.to_le_bytes())?;
            w.write_all(&[u8::from(checkpoint.heap_parity)])?;
            w.write_all(&count.to_le_bytes())?;
            let mut block = Vec::with_capacity(1 << 17);
            let mut written = 0u64;
            values(&mut |chunk| {
                block.clear();
                block.extend(chunk.iter().flat_map(|v| v.to_le_bytes()));
                written += chunk.len() as u64;
                w.write_all(&block)
            })?;
            if written != count {
                return Err(std::io::Error::other(format!(
                    "{written} values written of {count}"
                )));
            }
            Ok(())
        },
    )?;
    Ok(())
}

/// Reads and verifies a checkpoint; `None` when the file does not exist.
///
/// # Errors
///
/// [`crate::Error::File`] when the file exists but cannot be read, is not a checkpoint, has
/// another format version, or fails its checksum (truncated or corrupt).
pub fn load(path: &Path) -> Result<Option<Checkpoint>> {
    let mut values = Vec::new();
    let header = load_chunks(path, |_, count, chunk| {
        values.reserve_exact(count - values.len());
        values.extend_from_slice(chunk);
    })?;
    Ok(header.map(|mut checkpoint| {
        checkpoint.values = values;
        checkpoint
    }))
}

/// [`load`], handing the values to `sink` a chunk at a time, in order, with the checkpoint's
/// other fields and the number of values in all (a packed table, never whole in memory): the
/// checkpoint returned has no values. The chunks are handed over before the checksum is verified: on an error, drop
/// what `sink` built.
///
/// # Errors
///
/// As [`load`].
pub(crate) fn load_chunks(
    path: &Path,
    mut sink: impl FnMut(&Checkpoint, usize, &[u16]),
) -> Result<Option<Checkpoint>> {
    if !path.exists() {
        return Ok(None);
    }
    let mut r = file::open(
        path,
        &Expected {
            kind: Kind::HEAP_CHECKPOINT,
            version: VERSION,
            spec: None,
        },
    )?;
    let mut fixed = [0u8; 11];
    r.read_payload(&mut fixed)?;
    let mask = u16::from_le_bytes([fixed[0], fixed[1]]);
    let heap_parity = match fixed[2] {
        0 => false,
        1 => true,
        _ => return Err(r.corrupt("bad heap-parity flag").into()),
    };
    let count = u64::from_le_bytes(fixed[3..11].try_into().unwrap_or_default());
    if Some(r.remaining()) != count.checked_mul(2) {
        return Err(r
            .corrupt("the value count does not match the file size")
            .into());
    }
    let count = usize::try_from(count).map_err(|_| r.corrupt("too many values"))?;
    let header = Checkpoint {
        code: r.spec().to_string(),
        mask,
        heap_parity,
        values: Vec::new(),
    };
    let mut chunk = vec![0u16; (1 << 16).min(count)];
    let mut block = vec![0u8; 1 << 17];
    let mut read = 0;
    while read < count {
        let n = chunk.len().min(count - read);
        let bytes = &mut block[..2 * n];
        r.read_payload(bytes)?;
        for (v, pair) in chunk[..n].iter_mut().zip(bytes.chunks_exact(2)) {
            *v = u16::from_le_bytes([pair[0], pair[1]]);
        }
        sink(&header, count, &chunk[..n]);
        read += n;
    }
    r.finish()?;
    Ok(Some(header))
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
        let last = bad.len() - 11;
        bad[last] ^= 4;
        std::fs::write(&path, &bad).unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains("checksum mismatch"), "{err}");
        // Truncated.
        std::fs::write(&path, &good[..good.len() - 10]).unwrap();
        assert!(load(&path).unwrap_err().to_string().contains("truncated"));
        std::fs::write(&path, &good[..10]).unwrap();
        assert!(load(&path).is_err());
        // Not a checkpoint at all.
        std::fs::write(&path, b"hello, world, this is text").unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains("not a sprague file"), "{err}");
        // Another version.
        let mut other = good.clone();
        other[12] = 9;
        std::fs::write(&path, &other).unwrap();
        assert!(load(&path)
            .unwrap_err()
            .to_string()
            .contains("format version 9"));
        std::fs::remove_file(&path).unwrap();
    }
}
