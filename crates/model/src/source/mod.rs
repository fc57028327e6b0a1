//! Finding, reading and parsing the `.ron` inputs, and nothing more: [`schema`] is the RON
//! shape of a file, read by the fast [`plain_ron`] reader or, for anything else, the `ron`
//! crate, which also words every syntax error. Validation is [`crate::spec`]'s;
//! [`crate::load`] puts the two together.

pub mod plain_ron;
pub mod schema;
pub mod tokens;

use crate::error::{line_offset, InputError, Problem};
use ron::extensions::Extensions;
use schema::MotionFile;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Largest input file accepted: 32 MiB, room for a generated design system (10,000 motions in
/// the guide's style take about 1.5 MB) while bounding what one file can make a bake hold. A file
/// is read with this cap, whatever its size claims to be.
pub const MAX_INPUT_BYTES: u64 = 32 << 20;

/// Deepest RON nesting accepted (motions nest three levels).
const RECURSION_LIMIT: usize = 32;

/// Every `.ron` file named by `paths` (files as given, folders searched recursively), sorted
/// and without repeats; the first folder that cannot be searched is an error (see
/// [`find_inputs_reporting`]).
pub fn find_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, InputError> {
    let (files, mut errors) = find_inputs_reporting(paths, None)?;
    if errors.is_empty() {
        Ok(files)
    } else {
        Err(errors.swap_remove(0))
    }
}

/// Deepest folder nesting searched below an input folder.
pub const MAX_FOLDER_DEPTH: usize = 32;

/// Every `.ron` file named by `paths`, sorted and without repeats, and the input errors of
/// the folders below them that cannot be searched (unreadable, nested too deep, a symbolic
/// link that loops): those are reported like a broken file, and the other folders still
/// count. Symbolic links to folders are followed. A path given that does not exist, or that
/// leads to no curve file at all, is an `Err`.
///
/// The search of a folder never enters `out`, the bake's output folder: a folder below an
/// input folder that is `out` (the same folder, however its path is spelled) is skipped, so
/// the files a bake writes there (`curves.tokens.json`) are never read back as inputs by the
/// next one (`bake . --out out`). An input folder that is `out`, or lies inside it
/// (`bake site/curves --out site`), is searched; a file named as an input is read wherever it
/// is.
pub fn find_inputs_reporting(
    paths: &[PathBuf],
    out: Option<&Path>,
) -> Result<(Vec<PathBuf>, Vec<InputError>), InputError> {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    // An output folder that is not there yet holds nothing to skip.
    let out = out.and_then(|out| out.canonicalize().ok());
    for path in paths {
        let meta = std::fs::metadata(path)
            .map_err(|e| InputError::new(path, Problem::Read(e.to_string())))?;
        if meta.is_dir() {
            let mut search = Search {
                ancestors: Vec::new(),
                out: out.as_deref(),
                files: &mut files,
                errors: &mut errors,
            };
            search.folder(path);
        } else {
            files.push(path.clone());
        }
    }
    files.sort();
    files.dedup();
    errors.sort_by(|a, b| a.file.cmp(&b.file));
    if files.is_empty() && errors.is_empty() {
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
    Ok((files, errors))
}

/// Whether `path` names a curve file: its extension is `.ron`, or it is a design tokens
/// file (`.tokens.json`, [`tokens`]), in any case.
pub fn is_curve_file_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ron"))
        || tokens::is_tokens_file_name(path)
}

/// Whether a name found in an input folder is an editor's or a tool's temporary file or
/// folder, never an input: hidden (`.#card.ron`, Emacs's lock; `.card.ron.swp`, Vim's swap;
/// `.git`), `#card.ron#` (Emacs's auto-save) or `card.ron~` (a backup).
pub fn is_editor_temp(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with('.') || name.starts_with('#') || name.ends_with('~')
}

/// One search of an input folder.
struct Search<'a> {
    /// The folders being searched (resolved), to tell a loop; the first is the input folder.
    ancestors: Vec<PathBuf>,
    /// The output folder (resolved), not searched below an input folder.
    out: Option<&'a Path>,
    /// The curve files found.
    files: &'a mut Vec<PathBuf>,
    /// The folders that cannot be searched.
    errors: &'a mut Vec<InputError>,
}

impl Search<'_> {
    /// Adds the curve files under `dir` to the files found, and the folders that cannot be
    /// searched to the errors. The output folder, met below the input folder, is skipped.
    fn folder(&mut self, dir: &Path) {
        let fail = |message: String| InputError::new(dir, Problem::Read(message));
        let real = dir.canonicalize().unwrap_or_else(|_| dir.to_owned());
        if !self.ancestors.is_empty() && self.out == Some(real.as_path()) {
            return;
        }
        if let Some(first) = self.ancestors.iter().find(|a| **a == real) {
            self.errors.push(fail(format!(
                "a symbolic link loop: this folder is {}, which is being searched already",
                first.display()
            )));
            return;
        }
        if self.ancestors.len() > MAX_FOLDER_DEPTH {
            self.errors.push(fail(format!(
                "folders nest more than {MAX_FOLDER_DEPTH} deep here; curve files this deep are not searched"
            )));
            return;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                return self
                    .errors
                    .push(fail(format!("cannot search this folder: {e}")))
            }
        };
        self.ancestors.push(real);
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    self.errors
                        .push(fail(format!("cannot search this folder: {e}")));
                    break;
                }
            };
            let path = entry.path();
            let mut folder = entry.file_type().is_ok_and(|k| k.is_dir());
            if entry.file_type().is_ok_and(|k| k.is_symlink()) {
                // A link to a folder is searched like one; a link to anything else is a file.
                folder = std::fs::metadata(&path).is_ok_and(|m| m.is_dir());
            }
            if is_editor_temp(&entry.file_name()) {
                continue;
            }
            if folder {
                self.folder(&path);
            } else if is_curve_file_name(&path) {
                self.files.push(path);
            }
        }
        self.ancestors.pop();
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
    let text = lone_returns_as_newlines(text);
    if let Some(motions) = plain_ron::parse(&text) {
        return Ok(motions);
    }
    parse_with_ron(file, &text)
}

/// Parses RON text with the `ron` crate: the reference reader, which knows all of RON and
/// words every error ([`parse_bytes`] tries [`plain_ron`] first).
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
        let (line, col, message) = place_and_message(text, &e);
        InputError::syntax(file, text, line, col, message)
    })
}

/// Where a `ron` error lies in `text` (1-based line and column, in characters) and what it
/// says, in the words of the file format.
fn place_and_message(text: &str, e: &ron::error::SpannedError) -> (usize, usize, String) {
    let (line, mut col) = (e.span.start.line, e.span.start.col);
    let hash = hash_comment_at(text, line, col);
    let nothing = first_token(text).is_empty() && e.code != ron::Error::UnclosedBlockComment;
    let message = if nothing {
        "the file holds no motion: write one `(name: ..., motion: ...)` or a list `[ ... ]`"
            .to_owned()
    } else if let Some(hash_col) = hash {
        col = hash_col;
        "`#` does not start a comment in a curve file: write `// ...` or `/* ... */`".to_owned()
    } else if let Some(prefix) = radix_prefix_at(text, line, col) {
        format!("`{prefix}` numbers are not read in a curve file: write the number in decimal")
    } else if at_end(text, line, col) {
        // Whatever the parser expected there, the file ended before it.
        describe(&ron::Error::Eof)
    } else {
        describe(&e.code)
    };
    (line, col, message)
}

/// The motions of a file, each with its place in the file (0-based), and its errors. When the
/// file as a whole does not parse but is a list whose elements can be told apart, each
/// motion is read alone: a typo or a wrong type in one motion is that motion's error
/// (at its line:column), and the others are still read. Only an error that hides where the
/// motions start and end (an unclosed bracket or string) stops the file.
pub fn parse_motions(file: &Path, bytes: &[u8]) -> (Vec<(usize, MotionFile)>, Vec<InputError>) {
    match parse_bytes(file, bytes) {
        Ok(motions) => (motions.into_iter().enumerate().collect(), Vec::new()),
        Err(whole) => {
            let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            let text = std::str::from_utf8(bytes)
                .ok()
                .map(lone_returns_as_newlines);
            let elements = text
                .as_deref()
                .filter(|text| starts_with_list(text))
                .and_then(|text| Some((text, list_elements(text)?)));
            match elements {
                Some((text, elements)) if !elements.is_empty() => {
                    each_alone(file, text, &elements, whole)
                }
                _ => (Vec::new(), vec![whole]),
            }
        }
    }
}

/// Parses each element of a list alone (`elements` are byte ranges of `text`). The error of
/// the file as a whole (`whole`, the first one) stands for the element it lies in: read
/// together, the parser words it best (`Expected comma` between two motions, say).
fn each_alone(
    file: &Path,
    text: &str,
    elements: &[std::ops::Range<usize>],
    whole: InputError,
) -> (Vec<(usize, MotionFile)>, Vec<InputError>) {
    let whole_at = match &whole.problem {
        Problem::Syntax { line, col, .. } => line_offset(text, *line, *col).map(|(at, _)| at),
        _ => None,
    };
    let mut cursor = Cursor::new(text);
    let mut whole = Some(whole);
    let options = ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME)
        .with_recursion_limit(RECURSION_LIMIT);
    let mut motions = Vec::new();
    let mut errors = Vec::new();
    for (index, range) in elements.iter().enumerate() {
        let element = &text[range.clone()];
        if whole_at.is_some_and(|at| range.contains(&at) || at == range.end) {
            errors.extend(whole.take());
            continue;
        }
        match options.from_str::<MotionFile>(element) {
            Ok(motion) => motions.push((index, motion)),
            Err(e) => {
                let (line, col, message) = place_and_message(element, &e);
                // From the element's coordinates to the file's.
                let (within, _) = line_offset(element, line, col).unwrap_or((element.len(), col));
                let (start_line, start_col) = cursor.place(range.start);
                let (line, col) = if line == 1 {
                    (start_line, start_col + col - 1)
                } else {
                    (start_line + line - 1, col)
                };
                let at = range.start + within;
                let at_col = cursor.place(at).1;
                errors.push(InputError::syntax_at(
                    file,
                    text,
                    (at, at_col),
                    (line, col),
                    message,
                ));
            }
        }
    }
    (motions, errors)
}

/// Lines and columns of byte offsets in a text, found going forward: each from the last one
/// placed, so that placing every motion of a file of one long line takes time in proportion
/// to the file, not to its motions times its line.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    col: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text,
            at: 0,
            line: 1,
            col: 1,
        }
    }

    /// The 1-based line and column (in characters) of byte `to`, which is not before the
    /// last one placed.
    fn place(&mut self, to: usize) -> (usize, usize) {
        for c in self.text[self.at..to].chars() {
            if c == '\n' {
                self.line += 1;
                self.col = 1;
            } else {
                self.col += 1;
            }
        }
        self.at = to;
        (self.line, self.col)
    }
}

/// `text` with each carriage return that ends a line alone (classic Mac OS line endings) made
/// a newline, so that lines and columns count as an editor shows them: `ron` counts `\n`
/// only, and both readers take either as a blank. `\r\n` stays as it is.
fn lone_returns_as_newlines(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return Cow::Borrowed(text);
    }
    let newlines: Vec<u8> = (0..bytes.len())
        .map(|i| if lone(i) { b'\n' } else { bytes[i] })
        .collect();
    Cow::Owned(String::from_utf8(newlines).expect("one ASCII byte for another keeps UTF-8"))
}

/// A motion's own text in its file: what it was written as, to be read again on its own
/// (each element of a list parses alone, as [`parse_motions`] reads a list it cannot read
/// whole). The file's text is shared by its motions.
#[derive(Debug, Clone)]
pub struct MotionText {
    text: Arc<str>,
    range: std::ops::Range<usize>,
}

impl MotionText {
    /// The motion's text.
    pub fn as_str(&self) -> &str {
        &self.text[self.range.clone()]
    }
}

/// Two motions' texts are equal when they read the same, wherever they come from.
impl PartialEq for MotionText {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

/// Each motion's own text in the bytes of a file, in file order: the elements of a list, or
/// the whole text of a file holding one motion (without surrounding whitespace); `None` when
/// the bytes are not UTF-8 or a list's elements cannot be told apart.
pub fn motion_texts(bytes: &[u8]) -> Option<Vec<MotionText>> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text: Arc<str> = Arc::from(std::str::from_utf8(bytes).ok()?);
    let ranges = if starts_with_list(&text) {
        list_elements(&text)?
    } else {
        std::iter::once(0..text.len()).collect()
    };
    // Without the whitespace around it.
    let trimmed = |r: std::ops::Range<usize>| {
        let piece = &text[r.clone()];
        let start = r.start + (piece.len() - piece.trim_start().len());
        start..(r.start + piece.trim_end().len()).max(start)
    };
    Some(
        ranges
            .into_iter()
            .map(|range| MotionText {
                range: trimmed(range),
                text: Arc::clone(&text),
            })
            .collect(),
    )
}

/// The byte ranges of the elements of a list `[a, b, ...]` (empty ones left out), found by
/// brackets, strings and comments alone; `None` when they cannot be told apart (an unclosed
/// bracket, string or comment, a raw string or a character literal, text after the list).
fn list_elements(text: &str) -> Option<Vec<std::ops::Range<usize>>> {
    let start = text.len() - first_token(text).len() + 1;
    let bytes = text.as_bytes();
    let mut elements = Vec::new();
    let mut depth = 0usize;
    let mut element_start = start;
    let mut i = start;
    let mut end = None;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if i >= bytes.len() {
                    return None;
                }
            }
            b'\'' => return None,
            b'r' if matches!(bytes.get(i + 1), Some(b'"' | b'#'))
                && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')) =>
            {
                return None
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let mut nested = 1;
                i += 2;
                while nested > 0 {
                    match (bytes.get(i)?, bytes.get(i + 1)) {
                        (b'/', Some(b'*')) => (nested += 1, i += 2).1,
                        (b'*', Some(b'/')) => (nested -= 1, i += 2).1,
                        _ => i += 1,
                    }
                }
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b'}' => depth = depth.checked_sub(1)?,
            b']' if depth == 0 => {
                elements.push(element_start..i);
                end = Some(i + 1);
                break;
            }
            b']' => depth -= 1,
            b',' if depth == 0 => {
                elements.push(element_start..i);
                element_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    let end = end?;
    if !first_token(&text[end..]).is_empty() {
        return None;
    }
    elements.retain(|r| !first_token(&text[r.clone()]).is_empty());
    Some(elements)
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

/// The prefix of a number in another base (`0x`, `0b`, `0o`) whose letter is at 1-based
/// `line:col` (in characters), where a parser of decimal numbers stops.
fn radix_prefix_at(text: &str, line: usize, col: usize) -> Option<String> {
    let source = text.lines().nth(line.saturating_sub(1))?;
    let chars: Vec<char> = source.chars().collect();
    let letter = *chars.get(col.checked_sub(1)?)?;
    let zero = col.checked_sub(2).and_then(|i| chars.get(i)) == Some(&'0');
    let starts = col
        .checked_sub(3)
        .and_then(|i| chars.get(i))
        .map_or(true, |c| {
            !(c.is_ascii_alphanumeric() || *c == '.' || *c == '_')
        });
    (zero && starts && "xXbBoO".contains(letter)).then(|| format!("0{letter}"))
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
