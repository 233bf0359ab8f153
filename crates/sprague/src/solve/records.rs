//! The records of a solved game (little-endian `u16`s) streamed into and out of its checksummed
//! files, tier files and databases alike: what [`super::store`] and [`super::distributed`] both
//! read and write.

use crate::error::Result;
use crate::file;
use std::io::Write;
use std::path::PathBuf;

/// Records read piece by piece from a tier file or a database (little-endian `u16`s), checked
/// as they stream: [`RecordReader::finish`] checks the checksum once all are read.
pub struct RecordReader(pub(super) file::Reader);

impl RecordReader {
    /// Reads the next `out.len()` records.
    ///
    /// # Errors
    /// [`Error::File`] when the file ends first or cannot be read.
    pub fn read(&mut self, out: &mut [u16]) -> Result<()> {
        let mut buffer = vec![0u8; 1 << 16];
        for chunk in out.chunks_mut(1 << 15) {
            let bytes = &mut buffer[..chunk.len() * 2];
            self.0.read_payload(bytes)?;
            for (slot, pair) in chunk.iter_mut().zip(bytes.chunks_exact(2)) {
                *slot = u16::from_le_bytes([pair[0], pair[1]]);
            }
        }
        Ok(())
    }

    /// Skips the next `count` records (they still count in the checksum).
    ///
    /// # Errors
    /// As for [`RecordReader::read`].
    pub fn skip(&mut self, mut count: u64) -> Result<()> {
        let mut buffer = vec![0u16; 1 << 15];
        while count > 0 {
            let n = count.min(buffer.len() as u64) as usize;
            self.read(&mut buffer[..n])?;
            count -= n as u64;
        }
        Ok(())
    }

    /// Checks that every record was read and the file's checksum.
    ///
    /// # Errors
    /// [`Error::File`] naming the failed check.
    pub fn finish(self) -> Result<()> {
        Ok(self.0.finish()?)
    }
}

/// Records written piece by piece into a tier file or a database, under a temporary name
/// until [`RecordWriter::commit`].
pub struct RecordWriter {
    pub(super) inner: file::Writer,
    pub(super) path: PathBuf,
}

impl RecordWriter {
    /// Appends `records`.
    ///
    /// # Errors
    /// [`file::Refused`] when the file cannot be written.
    pub fn write(&mut self, records: &[u16]) -> file::Result<()> {
        write_records(&mut self.inner, records).map_err(|e| file::Refused {
            path: self.path.display().to_string(),
            problem: file::Problem::Os(e.to_string()),
        })
    }

    /// Finishes the file: checksum, sync, rename into place.
    ///
    /// # Errors
    /// [`file::Refused`] when the file cannot be written, or holds another number of records
    /// than announced.
    pub fn commit(self) -> file::Result<()> {
        self.inner.commit()
    }
}

/// Writes records as little-endian `u16`s.
fn write_records(w: &mut file::Writer, records: &[u16]) -> std::io::Result<()> {
    let mut buffer = Vec::with_capacity(1 << 16);
    for chunk in records.chunks(1 << 15) {
        buffer.clear();
        for r in chunk {
            buffer.extend_from_slice(&r.to_le_bytes());
        }
        w.write_all(&buffer)?;
    }
    Ok(())
}
