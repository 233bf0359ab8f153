//! Nim-value tables saved in the project's one checksummed file format ([`crate::file`], kind
//! `NIMV`), each value in the fewest whole bytes that the table's largest value needs: what
//! `sprague table GAME --to N --format bin --output FILE` writes and `sprague.load_table` reads.
//!
//! # Payload (little-endian)
//! | bytes | content |
//! |---|---|
//! | 8 | width W: bytes per value, 1, 2, 4 or 8 |
//! | 8 | count C of values, G(0) to G(C − 1) |
//! | 8 × 3 | the certified period: preperiod, period, n it was certified at (all `u64::MAX` when none) |
//! | C × W | the values |
//!
//! The values start 40 bytes into the payload, so a reader may map them in place.
//!
//! ```
//! use sprague::heap::{table_file, Table};
//! let path = std::env::temp_dir().join(format!("doc-table-{}.nimv", std::process::id()));
//! let table = Table { values: vec![0u8, 1, 2, 3, 1, 4].into(), period: None };
//! assert_eq!(table_file::save(&path, "kayles", &table)?, 1); // one byte a value
//! assert_eq!(table_file::load(&path)?, ("kayles".to_string(), table));
//! # std::fs::remove_file(&path).unwrap();
//! # Ok::<(), sprague::Error>(())
//! ```

use super::{Periodicity, Table};
use crate::error::Result;
use crate::file::{self, Expected, Kind};
use std::io::Write;
use std::path::Path;

/// The kind of table files.
pub const KIND: Kind = Kind::NIM_VALUES;

/// The payload version.
pub const VERSION: u32 = 1;

/// Bytes of the payload before the values.
pub const VALUES_OFFSET: u64 = 40;

/// Saves `table` of game `spec` to `path` (written under a temporary name and renamed), and
/// returns the bytes each value took ([`super::width_for`] the largest).
///
/// # Errors
/// [`crate::Error::File`] when the file cannot be written.
pub fn save(path: &Path, spec: &str, table: &Table) -> Result<u64> {
    let width = table.values.width();
    let count = table.values.len() as u64;
    let period = table
        .period
        .map_or([u64::MAX; 3], |p| [p.preperiod, p.period, p.certified_at]);
    file::write(
        path,
        KIND,
        VERSION,
        spec,
        VALUES_OFFSET + count * width,
        |w| {
            for field in [width, count].into_iter().chain(period) {
                w.write_all(&field.to_le_bytes())?;
            }
            let mut block = Vec::with_capacity(1 << 16);
            let count = table.values.len();
            for start in (0..count).step_by(1 << 13) {
                block.clear();
                table
                    .values
                    .write_le_bytes(start..count.min(start + (1 << 13)), &mut block);
                w.write_all(&block)?;
            }
            Ok(())
        },
    )?;
    Ok(width)
}

/// Where a table file's values lie, for readers that map them in place (NumPy's `memmap`):
/// the file was checked whole first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The game the table is for.
    pub spec: String,
    /// Bytes a value (1, 2, 4 or 8), little-endian.
    pub width: u64,
    /// How many values: G(0) to G(count − 1).
    pub count: u64,
    /// The certified period, if any.
    pub period: Option<Periodicity>,
    /// The file offset of G(0).
    pub offset: u64,
}

/// Opens a table file and reads its fields, up to its values.
fn open_values(path: &Path) -> Result<(file::Reader, Layout)> {
    let mut reader = file::open(
        path,
        &Expected {
            kind: KIND,
            version: VERSION,
            spec: None,
        },
    )?;
    let mut head = [0u8; VALUES_OFFSET as usize];
    reader.read_payload(&mut head)?;
    let field = |i: usize| u64::from_le_bytes(head[8 * i..8 * i + 8].try_into().unwrap());
    let (width, count) = (field(0), field(1));
    if ![1, 2, 4, 8].contains(&width) {
        return Err(reader
            .corrupt(format!("a value width of {width} bytes"))
            .into());
    }
    if count.checked_mul(width) != Some(reader.remaining()) {
        return Err(reader
            .corrupt(format!(
                "{count} values of {width} bytes, but {} bytes follow",
                reader.remaining()
            ))
            .into());
    }
    let period = match [field(2), field(3), field(4)] {
        [u64::MAX, u64::MAX, u64::MAX] => None,
        [preperiod, period, certified_at] if period >= 1 => Some(Periodicity {
            preperiod,
            period,
            certified_at,
        }),
        _ => return Err(reader.corrupt("a period of 0").into()),
    };
    let layout = Layout {
        spec: reader.spec().to_string(),
        width,
        count,
        period,
        offset: reader.offset(),
    };
    Ok((reader, layout))
}

/// Reads a table file: the game it is for and its table. The values' memory is estimated
/// before it is allocated.
///
/// # Errors
/// [`crate::Error::File`] for a file that is not a table, damaged or truncated;
/// [`crate::Error::Limit`] when the values would not fit in memory.
pub fn load(path: &Path) -> Result<(String, Table)> {
    let (mut reader, layout) = open_values(path)?;
    let Layout {
        width,
        count,
        period,
        ..
    } = layout;
    // The bytes as read, and the values built from them.
    crate::memory::reserve(
        &format!("reading {count} values"),
        count.saturating_mul(2 * width),
        &[],
    )?;
    let mut bytes = vec![0u8; (count * width) as usize];
    for block in bytes.chunks_mut(1 << 16) {
        reader.read_payload(block)?;
    }
    let values = super::Values::from_le_bytes(width, &bytes)
        .ok_or_else(|| reader.corrupt(format!("a value width of {width} bytes")))?;
    drop(bytes);
    reader.finish()?;
    Ok((layout.spec, Table { values, period }))
}

/// Checks a whole table file (its checksum and every field) reading it in blocks, and says
/// where its values lie: a table larger than memory can then be mapped instead of read.
///
/// # Errors
/// As [`load`], but never for memory.
pub fn check(path: &Path) -> Result<Layout> {
    let (mut reader, layout) = open_values(path)?;
    let mut block = vec![0u8; 1 << 16];
    while reader.remaining() > 0 {
        let n = reader.remaining().min(block.len() as u64) as usize;
        reader.read_payload(&mut block[..n])?;
    }
    reader.finish()?;
    Ok(layout)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::{width_for, Values};

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("sprague-nimv-{}-{name}", std::process::id()))
    }

    /// Every width round-trips, with and without a period.
    #[test]
    fn tables_of_every_width_round_trip() {
        for (largest, width) in [(0, 1), (255, 1), (256, 2), (70_000, 4), (1 << 40, 8)] {
            assert_eq!(width_for(largest), width);
            let values: Vec<u64> = (0..1000u64)
                .map(|i| {
                    if i == 500 {
                        largest
                    } else {
                        i * 7919 % (largest + 1)
                    }
                })
                .collect();
            let period = (largest % 2 == 0).then_some(Periodicity {
                preperiod: 3,
                period: 12,
                certified_at: 999,
            });
            let table = Table {
                values: values.into(),
                period,
            };
            let path = temp(&format!("w{width}"));
            assert_eq!(save(&path, "0.6", &table).unwrap(), width);
            let len = std::fs::metadata(&path).unwrap().len();
            assert!(len >= 1000 * width && len < 1000 * width + 200, "{len}");
            assert_eq!(load(&path).unwrap(), ("0.6".to_string(), table.clone()));
            // The values lie where the layout says, in the width it says.
            let layout = check(&path).unwrap();
            assert_eq!((layout.width, layout.count), (width, 1000));
            assert_eq!(layout.period, table.period);
            let bytes = std::fs::read(&path).unwrap();
            let at = layout.offset as usize;
            let mapped =
                Values::from_le_bytes(width, &bytes[at..at + 1000 * width as usize]).unwrap();
            assert_eq!(mapped, table.values);
            std::fs::remove_file(&path).unwrap();
        }
    }

    /// A flipped byte, a truncated file and another kind of file are refused.
    #[test]
    fn damaged_files_are_refused() {
        let path = temp("damaged");
        let table = Table {
            values: (0..5000u64).map(|i| i % 300).collect::<Vec<_>>().into(),
            period: None,
        };
        save(&path, "kayles", &table).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let mut flipped = bytes.clone();
        flipped[bytes.len() / 2] ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        assert!(load(&path).unwrap_err().to_string().contains("checksum"));
        assert!(check(&path).unwrap_err().to_string().contains("checksum"));
        std::fs::write(&path, &bytes[..bytes.len() - 100]).unwrap();
        assert!(load(&path).is_err());
        std::fs::write(&path, b"n,value\n0,0\n").unwrap();
        assert!(load(&path)
            .unwrap_err()
            .to_string()
            .contains("not a sprague file"));
        std::fs::remove_file(&path).unwrap();
    }
}
