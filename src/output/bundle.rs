//! Bundles being written: files that gather one chunk per motion, in input order
//! (`curves.css`, and `curves.json` with `--bundle`), streamed as windows of motions are
//! written: `header chunk (separator chunk)* footer`.
//!
//! A bundle remembers where each chunk went, so the manifest can locate it. On the next bake, a
//! motion whose spec is unchanged gets its chunk copied from the previous bundle instead of
//! being exported again, provided that bundle is still the file the manifest describes: of
//! the length and content hash of its `BundleStamp`.

use crate::output::manifest::Manifest;
use crate::output::pool::Pool;
use crate::output::record::BundleStamp;
use crate::output::regular::open_regular;
use crate::output::write::{Outcome, OutputDir, StreamedFile, WriteError};
use curvebake_export::Bundle;
use curvebake_model::hash::ContentHasher;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

/// Bytes of chunks gathered into one write: a window of small chunks goes out at once, the
/// chunks of long motions a few at a time, so that their buffers are freed as they go.
const WRITE_BATCH: usize = 1 << 20;

/// A motion's chunk of a bundle.
pub enum Chunk<'a> {
    /// Exported now.
    New(Vec<u8>),
    /// Unchanged: where it lies in the previous bundle, as the motion's `chunks` in the old
    /// manifest (see [`OpenBundle::reusable`]).
    Previous(&'a [[u64; 2]]),
}

/// A bundle being streamed.
pub struct OpenBundle {
    /// The exporter whose chunks it gathers.
    pub exporter: usize,
    path: String,
    file: StreamedFile,
    separator: Vec<u8>,
    footer: Vec<u8>,
    /// Bytes appended so far.
    written: u64,
    /// Every byte appended so far, for the stamp.
    hasher: ContentHasher,
    empty: bool,
    /// The previous bundle, when the old manifest still describes it, and its position among
    /// that manifest's bundles (where its chunks are in each entry's `chunks`).
    previous: Option<(File, usize)>,
}

impl OpenBundle {
    /// Starts the bundle of `exporter` (only compared, in a folder that only compares). Its
    /// previous version's chunks can be reused when `old`, the previous manifest, still
    /// describes it: in a check too, where they are the last good chunks of motions whose
    /// file fails, as a bake would keep them.
    pub fn open(
        out: &OutputDir,
        exporter: usize,
        bundle: Bundle,
        old: &Manifest,
    ) -> Result<Self, WriteError> {
        let path = out.resolve(&bundle.path)?;
        let previous = old
            .bundles
            .iter()
            .position(|s| s.path == bundle.path)
            .filter(|&k| old.bundles[k].describes(&path))
            .and_then(|k| Some((open_regular(&path).ok()?, k)));
        let mut file = out.stream(&bundle.path)?;
        file.append(&bundle.header)?;
        let mut hasher = ContentHasher::new();
        hasher.update(&bundle.header);
        Ok(Self {
            exporter,
            hasher,
            written: bundle.header.len() as u64,
            path: bundle.path,
            file,
            separator: bundle.separator,
            footer: bundle.footer,
            empty: true,
            previous,
        })
    }

    /// Whether chunks of the previous bundle can be copied.
    pub fn reusable(&self) -> bool {
        self.previous.is_some()
    }

    /// Appends motions' chunks, in order; returns where each lies: `[start, length]`. The
    /// chunks go out in vectored writes of about a megabyte, each chunk's buffer
    /// handed back to `pool` as soon as it is written. Fails (with the bundle's path) if a chunk of the
    /// previous bundle cannot be read, which a matching stamp rules out short of the file
    /// being changed during the bake.
    pub fn append_all(
        &mut self,
        chunks: Vec<Chunk>,
        pool: &Pool,
    ) -> Result<Vec<[u64; 2]>, WriteError> {
        let mut places = Vec::with_capacity(chunks.len());
        // Chunks not yet written, each with whether a separator goes before it.
        let mut batch: Vec<(bool, Vec<u8>)> = Vec::new();
        let mut batch_bytes = 0;
        for chunk in chunks {
            let bytes = match chunk {
                Chunk::New(bytes) => bytes,
                Chunk::Previous(chunks) => self.read_previous(chunks)?,
            };
            let separated = !self.empty;
            if separated {
                self.written += self.separator.len() as u64;
            }
            self.empty = false;
            places.push([self.written, bytes.len() as u64]);
            self.written += bytes.len() as u64;
            batch_bytes += bytes.len();
            batch.push((separated, bytes));
            if batch_bytes >= WRITE_BATCH {
                self.write_batch(&mut batch, pool)?;
                batch_bytes = 0;
            }
        }
        self.write_batch(&mut batch, pool)?;
        Ok(places)
    }

    /// Writes `batch` (each chunk after its separator, if it has one) and empties it.
    fn write_batch(
        &mut self,
        batch: &mut Vec<(bool, Vec<u8>)>,
        pool: &Pool,
    ) -> Result<(), WriteError> {
        let mut pieces: Vec<&[u8]> = Vec::with_capacity(2 * batch.len());
        for (separated, bytes) in batch.iter() {
            if *separated {
                pieces.push(&self.separator);
            }
            pieces.push(bytes);
        }
        for piece in &pieces {
            self.hasher.update(piece);
        }
        self.file.append_all(&pieces)?;
        pool.recycle(batch.drain(..).map(|(_, bytes)| bytes));
        Ok(())
    }

    /// A motion's chunk as it lay in the previous bundle, given the motion's `chunks` in the
    /// old manifest.
    fn read_previous(&mut self, chunks: &[[u64; 2]]) -> Result<Vec<u8>, WriteError> {
        let (previous, k) = self
            .previous
            .as_mut()
            .expect("a chunk is reused only from a reusable bundle");
        let [start, length] = chunks[*k];
        let mut chunk = Vec::new();
        let read = usize::try_from(length)
            .map_err(std::io::Error::other)
            .and_then(|length| {
                chunk.resize(length, 0);
                previous.seek(SeekFrom::Start(start))?;
                previous.read_exact(&mut chunk)
            });
        read.map_err(|source| WriteError::Io {
            path: self.path.clone(),
            source,
        })?;
        Ok(chunk)
    }

    /// Appends the footer and moves the bundle into place if its bytes changed. Returns what
    /// happened and the bundle's stamp.
    pub fn finish(mut self) -> Result<(Outcome, BundleStamp), WriteError> {
        self.file.append(&self.footer)?;
        self.hasher.update(&self.footer);
        self.written += self.footer.len() as u64;
        let outcome = self.file.finish()?;
        let stamp = BundleStamp {
            path: self.path,
            len: self.written,
            hash: self.hasher.hex(),
        };
        Ok((outcome, stamp))
    }
}
