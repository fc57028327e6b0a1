//! Content hashes: how the output folder's bookkeeping tells whether a file or a motion has
//! changed between bakes.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;
use xxhash_rust::xxh3::Xxh3Default;

/// A streaming 128-bit content hash (XXH3), written as 32 hex digits.
///
/// These hashes guard against accidents (a bundle edited or truncated by hand, a manifest
/// changed, a motion's spec changed), not against someone crafting collisions, so a fast
/// non-cryptographic hash serves: XXH3 streams at memory speed, where BLAKE3 (fed the small
/// pieces a bundle is written in) took a fifth of the CPU time of a 10,000-spring bake.
#[derive(Clone, Default)]
pub struct ContentHasher(Xxh3Default);

impl ContentHasher {
    /// An empty hash.
    pub fn new() -> Self {
        Self::default()
    }

    /// A hasher that has absorbed `run_key`: the start of every hash of one run.
    pub fn keyed(run_key: &[u8]) -> Self {
        let mut hasher = Self::new();
        hasher.absorb(run_key);
        hasher
    }

    /// Feeds `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// Feeds `part` length-prefixed, so that boundaries between parts cannot shift.
    pub fn absorb(&mut self, part: &[u8]) {
        self.update(&(part.len() as u64).to_le_bytes());
        self.update(part);
    }

    /// Feeds everything `reader` gives, read 64 KiB at a time (a whole bundle, on a re-bake).
    pub fn update_reader(&mut self, reader: impl Read) -> io::Result<()> {
        io::copy(&mut io::BufReader::with_capacity(1 << 16, reader), self).map(drop)
    }

    /// The hash of everything fed so far.
    pub fn digest(&self) -> u128 {
        self.0.digest128()
    }

    /// [`ContentHasher::digest`] in 32 lowercase hex digits, most significant first (as
    /// `{:032x}` writes it, without the formatting machinery: a bake makes one per motion).
    pub fn hex(&self) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut text = String::with_capacity(32);
        for byte in self.digest().to_be_bytes() {
            text.push(DIGITS[usize::from(byte >> 4)].into());
            text.push(DIGITS[usize::from(byte & 15)].into());
        }
        text
    }
}

/// Bytes written are fed to the hash (for [`io::copy`]).
impl Write for ContentHasher {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl fmt::Debug for ContentHasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ContentHasher({})", self.hex())
    }
}

/// The digest of one input file for [`RunHasher`].
pub type SourceDigest = [u8; 16];

/// The digest of one input file for [`RunHasher`]: its path and its bytes.
pub fn source_digest(path: &Path, bytes: &[u8]) -> SourceDigest {
    let mut hasher = ContentHasher::new();
    hasher.absorb(path.as_os_str().as_encoded_bytes());
    hasher.absorb(bytes);
    hasher.digest().to_le_bytes()
}

/// The hash of a run (the manifest's `run`): the run key, then each input file's
/// [`source_digest`] in input order.
#[derive(Debug, Clone)]
pub struct RunHasher {
    hasher: ContentHasher,
}

impl RunHasher {
    /// Starts the hash of a run under `run_key`.
    pub fn new(run_key: &[u8]) -> Self {
        Self {
            hasher: ContentHasher::keyed(run_key),
        }
    }

    /// Adds the next input file.
    pub fn add(&mut self, digest: &SourceDigest) {
        self.hasher.update(digest);
    }

    /// The hex hash.
    pub fn finish(&self) -> String {
        self.hasher.hex()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streaming_in_pieces_or_from_a_reader_gives_one_hash() {
        let bytes: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut whole = ContentHasher::new();
        whole.update(&bytes);
        let mut pieces = ContentHasher::new();
        for piece in bytes.chunks(977) {
            pieces.update(piece);
        }
        let mut read = ContentHasher::new();
        read.update_reader(&bytes[..]).unwrap();
        assert_eq!(whole.hex(), pieces.hex());
        assert_eq!(whole.hex(), read.hex());
        assert_eq!(whole.hex(), format!("{:032x}", whole.digest()));
        let mut changed = bytes.clone();
        changed[50_000] ^= 1;
        let mut other = ContentHasher::new();
        other.update(&changed);
        assert_ne!(whole.hex(), other.hex());
    }

    #[test]
    fn absorbed_parts_keep_their_boundaries() {
        let hash = |parts: &[&[u8]]| {
            let mut h = ContentHasher::new();
            parts.iter().for_each(|p| h.absorb(p));
            h.hex()
        };
        assert_ne!(hash(&[b"ab", b"c"]), hash(&[b"a", b"bc"]));
    }
}
