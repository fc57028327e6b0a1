//! Finding, reading and validating the `.ron` inputs. Every file is read and every error
//! collected before anything is baked. A file in plain RON is read by [`crate::input::plain_ron`],
//! any other by the `ron` crate, which also words every syntax error.

use crate::error::{InputError, Problem};
use crate::input::schema::MotionFile;
use crate::spec::{MotionSpec, Overrides};
use ron::extensions::Extensions;
use std::collections::hash_map::{Entry, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Largest input file accepted: 32 MiB, room for a generated design system (10,000 motions in
/// the README's style take 1.5 MB) while bounding what one file can make a bake hold. A file
/// is read with this cap, whatever its size claims to be.
pub const MAX_INPUT_BYTES: u64 = 32 << 20;

/// Deepest RON nesting accepted (motions nest three levels).
const RECURSION_LIMIT: usize = 32;

/// A validated motion and the file it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// The source file (shared by the motions of one file).
    pub file: Arc<Path>,
    /// The motion.
    pub spec: MotionSpec,
}

/// Every `.ron` file named by `paths` (files as given, folders searched recursively), sorted
/// and without repeats.
pub fn find_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, InputError> {
    let mut files = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path)
            .map_err(|e| InputError::new(path, Problem::Read(e.to_string())))?;
        if meta.is_dir() {
            collect_ron(path, &mut files)?;
        } else {
            files.push(path.clone());
        }
    }
    files.sort();
    files.dedup();
    if files.is_empty() {
        // Nothing would be baked (and every output of an earlier bake would be removed as
        // stale): more likely a wrong folder than a wish.
        let others: Vec<String> = paths
            .iter()
            .skip(1)
            .map(|p| p.display().to_string())
            .collect();
        let also = if others.is_empty() {
            String::new()
        } else {
            format!(" (nor in {})", others.join(", "))
        };
        return Err(InputError::new(
            paths.first().map_or(Path::new("."), PathBuf::as_path),
            Problem::Read(format!(
                "no curve files (.ron) here{also}: write one with `curvebake new spring NAME`"
            )),
        ));
    }
    Ok(files)
}

fn collect_ron(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), InputError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| InputError::new(dir, Problem::Read(e.to_string())))?;
    for entry in entries {
        let entry = entry.map_err(|e| InputError::new(dir, Problem::Read(e.to_string())))?;
        let path = entry.path();
        let kind = entry
            .file_type()
            .map_err(|e| InputError::new(&path, Problem::Read(e.to_string())))?;
        if kind.is_dir() {
            collect_ron(&path, files)?;
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("ron"))
        {
            files.push(path);
        }
    }
    Ok(())
}

/// Reads and validates every file; returns the valid motions (in file order, then in order
/// within a file) and every error. Names must be unique across files (see [`Names`]).
pub fn load_all(files: &[PathBuf], overrides: Overrides) -> (Vec<Input>, Vec<InputError>) {
    use rayon::prelude::*;
    let parsed: Vec<_> = files.par_iter().map(|f| load_file(f, overrides)).collect();
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    let mut names = Names::default();
    for (valid, mut errs) in parsed {
        errors.append(&mut errs);
        for input in valid {
            match names.admit(&input) {
                Ok(()) => inputs.push(input),
                Err(e) => errors.push(e),
            }
        }
    }
    (inputs, errors)
}

/// The motion names taken so far, each with its file. Names are compared ignoring ASCII case:
/// outputs named `Card.css` and `card.css` would clash on case-insensitive file systems.
/// Holds a name and a shared path per motion, nothing else.
#[derive(Debug, Default)]
pub struct Names {
    taken: HashMap<Caseless, Arc<Path>>,
}

impl Names {
    /// Takes `input`'s name, or says which file already has it.
    pub fn admit(&mut self, input: &Input) -> Result<(), InputError> {
        let name = Caseless(input.spec.name.as_str().into());
        let (first, file) = match self.taken.entry(name) {
            Entry::Vacant(slot) => {
                slot.insert(Arc::clone(&input.file));
                return Ok(());
            }
            Entry::Occupied(taken) => (taken.key().0.clone(), Arc::clone(taken.get())),
        };
        // Say so when the names differ only in case: they look different.
        let case = if *first == *input.spec.name {
            String::new()
        } else {
            format!(
                " (as {first:?}; names that differ only in case would clash on case-insensitive file systems)"
            )
        };
        Err(InputError::new(
            &input.file,
            Problem::Field {
                motion: input.spec.name.clone(),
                message: format!(
                    "name is already used by a motion in {}{case}",
                    file.display()
                ),
            },
        ))
    }

    /// Whether a motion has exactly this name.
    pub fn contains(&self, name: &str) -> bool {
        self.taken
            .get_key_value(&Caseless(name.into()))
            .is_some_and(|(taken, _)| *taken.0 == *name)
    }
}

/// A name that hashes and compares ignoring ASCII case.
#[derive(Debug)]
struct Caseless(Box<str>);

impl PartialEq for Caseless {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(&other.0)
    }
}

impl Eq for Caseless {}

impl std::hash::Hash for Caseless {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for byte in self.0.bytes() {
            state.write_u8(byte.to_ascii_lowercase());
        }
        state.write_u8(0xff);
    }
}

/// Reads one file: its valid motions and its errors.
pub fn load_file(file: &Path, overrides: Overrides) -> (Vec<Input>, Vec<InputError>) {
    match read_source(file) {
        Ok(bytes) => load_bytes(file, &bytes, overrides),
        Err(e) => (Vec::new(), vec![e]),
    }
}

/// Parses and validates the bytes of `file`: its valid motions and its errors.
pub fn load_bytes(
    file: &Path,
    bytes: &[u8],
    overrides: Overrides,
) -> (Vec<Input>, Vec<InputError>) {
    match parse_bytes(file, bytes) {
        Err(e) => (Vec::new(), vec![e]),
        Ok(motions) => {
            let shared: Arc<Path> = Arc::from(file);
            let mut valid = Vec::new();
            let mut errors = Vec::new();
            for (index, motion) in motions.iter().enumerate() {
                match MotionSpec::from_file(motion, overrides) {
                    Ok(spec) => valid.push(Input {
                        file: Arc::clone(&shared),
                        spec,
                    }),
                    Err(e) => errors.push(InputError::new(
                        file,
                        Problem::Field {
                            motion: motion_label(motion, index),
                            message: e.to_string(),
                        },
                    )),
                }
            }
            (valid, errors)
        }
    }
}

/// The motion's name when it is a valid one, else its position in the file.
fn motion_label(motion: &MotionFile, index: usize) -> String {
    if crate::spec::check_name(&motion.name).is_ok() {
        motion.name.clone()
    } else {
        format!("motion #{}", index + 1)
    }
}

/// The bytes of an input file: refuses anything but a regular file (a device such as
/// `/dev/zero` never ends, a FIFO blocks until someone writes to it) and a file larger than
/// [`MAX_INPUT_BYTES`]. The file is opened without blocking and checked again once open (it
/// may have been replaced in between), and never more than the limit is read.
pub fn read_source(file: &Path) -> Result<Vec<u8>, InputError> {
    use std::io::Read;
    let fail = |message: String| InputError::new(file, Problem::Read(message));
    let read_error = |e: std::io::Error| fail(e.to_string());
    regular(&std::fs::metadata(file).map_err(read_error)?).map_err(fail)?;
    let opened = open_without_blocking(file).map_err(read_error)?;
    let meta = opened.metadata().map_err(read_error)?;
    regular(&meta).map_err(fail)?;
    let too_large = |size: u64| {
        fail(format!(
            "file is {size} bytes; curve files are limited to {MAX_INPUT_BYTES} bytes"
        ))
    };
    if meta.len() > MAX_INPUT_BYTES {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    opened
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        // It grew while being read.
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Whether `meta` is a regular file; if not, what it is instead.
fn regular(meta: &std::fs::Metadata) -> Result<(), String> {
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(());
    }
    let what = if kind.is_dir() {
        "a folder"
    } else {
        special_kind(&kind)
    };
    Err(format!(
        "not a regular file ({what}); only curve files are read"
    ))
}

#[cfg(unix)]
fn special_kind(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_fifo() {
        "a named pipe"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::FileType) -> &'static str {
    "a special file"
}

/// Opens `file` for reading; on Unix without blocking, so that a FIFO put in place of a
/// checked file cannot hang the bake.
fn open_without_blocking(file: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(file)
}

/// Parses RON text (as bytes, which must be UTF-8; a leading byte order mark is skipped).
pub fn parse_bytes(file: &Path, bytes: &[u8]) -> Result<Vec<MotionFile>, InputError> {
    // Editors on Windows may save UTF-8 with a BOM; it is invisible, so columns skip it too.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
            let (line, col) = end_position(valid);
            return Err(InputError::syntax(
                file,
                valid,
                line,
                col,
                "invalid UTF-8: curve files must be UTF-8 text".into(),
            ));
        }
    };
    if let Some(motions) = crate::input::plain_ron::parse(text) {
        return Ok(motions);
    }
    parse_with_ron(file, text)
}

/// Parses RON text with the `ron` crate: the reference reader, which knows all of RON and
/// words every error ([`parse_bytes`] tries [`crate::input::plain_ron`] first).
pub fn parse_with_ron(file: &Path, text: &str) -> Result<Vec<MotionFile>, InputError> {
    let options = ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME)
        .with_recursion_limit(RECURSION_LIMIT);
    let result = if starts_with_list(text) {
        options.from_str::<Vec<MotionFile>>(text)
    } else {
        options.from_str::<MotionFile>(text).map(|m| vec![m])
    };
    result.map_err(|e| {
        let (line, mut col) = (e.span.start.line, e.span.start.col);
        let hash = hash_comment_at(text, line, col);
        let nothing = first_token(text).is_empty() && e.code != ron::Error::UnclosedBlockComment;
        let message = if nothing {
            "the file holds no motion: write one `(name: ..., motion: ...)` or a list `[ ... ]`"
                .to_owned()
        } else if let Some(hash_col) = hash {
            col = hash_col;
            "`#` does not start a comment in a curve file: write `// ...` or `/* ... */`".to_owned()
        } else if at_end(text, line, col) {
            // Whatever the parser expected there, the file ended before it.
            describe(&ron::Error::Eof)
        } else {
            describe(&e.code)
        };
        InputError::syntax(file, text, line, col, message)
    })
}

/// The 1-based column of the `#` the parser stopped at (or just after), when it is not an
/// attribute's `#!`: a comment written as in TOML, YAML or a shell.
fn hash_comment_at(text: &str, line: usize, col: usize) -> Option<usize> {
    let source = text.lines().nth(line.saturating_sub(1))?;
    let chars: Vec<char> = source.chars().collect();
    let is_hash = |c: usize| c >= 1 && chars.get(c - 1) == Some(&'#') && chars.get(c) != Some(&'!');
    [col, col.saturating_sub(1)]
        .into_iter()
        .find(|&c| is_hash(c))
}

/// Whether nothing but whitespace and comments follows 1-based `line:col` (in characters).
fn at_end(text: &str, line: usize, col: usize) -> bool {
    let Some(rest) = text.split_inclusive('\n').nth(line.saturating_sub(1)) else {
        return true;
    };
    let offset = rest
        .char_indices()
        .nth(col.saturating_sub(1))
        .map_or(rest.len(), |(i, _)| i);
    let after_line: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    first_token(&text[after_line + offset..]).is_empty()
}

/// The parser's message, in the words of the file format: no Rust type names.
fn describe(code: &ron::Error) -> String {
    match code {
        ron::Error::Eof => {
            "unexpected end of file: a `(` or `[` is not closed, or a value is missing".to_owned()
        }
        ron::Error::TrailingCharacters => "unexpected text after the end of the motion: a file \
            holds one motion `(name: ..., motion: ...)` or a list `[ ... ]`"
            .to_owned(),
        ron::Error::ExceededRecursionLimit => {
            format!("nested more than {RECURSION_LIMIT} levels deep (a motion nests at most 3)")
        }
        other => other
            .to_string()
            .replace("struct `MotionFile`", "a motion `(name: ..., motion: ...)`")
            .replace("`MotionFile`", "the motion")
            .replace("enum `MotionKind`", "`motion`")
            .replace(
                "struct `RadiusFile`",
                "a radius `(from: ..., to: ..., end_velocity: ...)`",
            )
            .replace("`RadiusFile`", "the radius"),
    }
}

/// Line and column (1-based, in characters) just after `text`.
fn end_position(text: &str) -> (usize, usize) {
    let line = text.matches('\n').count() + 1;
    let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Whether the first token, after whitespace, comments and `#![...]` attributes, is `[`.
fn starts_with_list(text: &str) -> bool {
    first_token(text).starts_with('[')
}

/// The text from its first token on, after whitespace, comments and `#![...]` attributes
/// (empty when there is nothing else).
fn first_token(text: &str) -> &str {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.split_once('\n').map_or("", |(_, r)| r);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, r)| r);
        } else if let Some(after) = rest.strip_prefix("#!") {
            rest = after.split_once(']').map_or("", |(_, r)| r);
        } else {
            return rest;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_recognised_after_comments_and_attributes() {
        assert!(starts_with_list(
            "// hi\n/* x */ #![enable(implicit_some)]\n [ ]"
        ));
        assert!(!starts_with_list("// [\n(name: \"a\")"));
    }
}
