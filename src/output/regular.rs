//! Opening the files of the output folder as inputs are opened: without blocking, without
//! following a link, regular files only. Every module that reads the folder goes through it.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

/// Opens a file of the output folder for reading as inputs are opened: without blocking (on
/// Unix), so that a FIFO put there cannot hang a bake or `--check`, without following a
/// symbolic link there, and only if it is a regular file (else an error of kind
/// `InvalidInput`). A file of the output folder that is not a regular one is no output.
pub fn open_regular(path: &Path) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let file = options.open(path)?;
    if file.metadata()?.is_file() {
        Ok(file)
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ))
    }
}

/// The bytes of a regular file of the output folder ([`open_regular`]).
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_regular(path)?.read_to_end(&mut bytes)?;
    Ok(bytes)
}
