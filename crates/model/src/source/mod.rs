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
use std::collections::{HashMap, HashSet};
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
/// Each folder is searched once however many links lead to it, and each file is one input
/// however many paths reach it (links, hard links, a file given and also found in a folder
/// given): folders and files are told apart by device and inode on Unix (by their canonical
/// path elsewhere). So the search takes time in proportion to the folders and names there
/// are, not to the paths that reach them (a chain of folders each linking twice to the next
/// is not searched 2^depth times). A folder is searched breadth first, names in byte order,
/// so a folder or file is reached first by its shallowest path, the first of those in that
/// order, and that path is the one kept; a folder's depth (for [`MAX_FOLDER_DEPTH`]) is that
/// of its shallowest path.
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
    let found = find(paths, out, usize::MAX)?;
    let (files, errors) = (found.files, found.errors);
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

/// The curve files under `paths` as [`find_inputs_reporting`] finds them (folders that cannot
/// be searched are left out, and a path that does not exist leads to no file), looking at no
/// more than `max_names` names in folders, and whether that was all of them (else the files
/// found until then: the search goes breadth first, so those nearest the paths). For a look
/// over folders that may be anything (`curvebake new --dir /`), where the work must stay
/// bounded whatever the folder holds.
pub fn find_inputs_within(paths: &[PathBuf], max_names: usize) -> (Vec<PathBuf>, bool) {
    let paths: Vec<PathBuf> = paths.iter().filter(|p| p.exists()).cloned().collect();
    match find(&paths, None, max_names) {
        Ok(found) => (found.files, found.complete),
        Err(_) => (Vec::new(), true),
    }
}

/// What a search found.
struct Found {
    /// The curve files, sorted.
    files: Vec<PathBuf>,
    /// The folders that cannot be searched, sorted by path.
    errors: Vec<InputError>,
    /// Whether every name was looked at (the budget of names was enough).
    complete: bool,
}

/// The search behind [`find_inputs_reporting`] and [`find_inputs_within`], looking at no more
/// than `max_names` names in folders.
fn find(paths: &[PathBuf], out: Option<&Path>, max_names: usize) -> Result<Found, InputError> {
    let mut search = Search {
        out: out.and_then(|out| Identity::of(out, &std::fs::metadata(out).ok()?)),
        names_left: max_names,
        files: Vec::new(),
        file_ids: HashSet::new(),
        errors: Vec::new(),
    };
    let mut complete = true;
    for path in paths {
        let meta = std::fs::metadata(path)
            .map_err(|e| InputError::new(path, Problem::Read(e.to_string())))?;
        if meta.is_dir() {
            if !search.tree(path, &meta) {
                complete = false;
                break;
            }
        } else {
            search.file(path.clone(), &meta);
        }
    }
    let (mut files, mut errors) = (search.files, search.errors);
    files.sort();
    files.dedup();
    errors.sort_by(|a, b| a.file.cmp(&b.file));
    Ok(Found {
        files,
        errors,
        complete,
    })
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

/// What tells a folder or file from every other, however a path reaches it: its device and
/// inode on Unix; elsewhere its canonical path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Identity(#[cfg(unix)] (u64, u64), #[cfg(not(unix))] PathBuf);

impl Identity {
    /// The identity of what `path` leads to, given its metadata (links followed); `None` when
    /// it cannot be told (a path that cannot be made canonical, outside Unix).
    #[cfg(unix)]
    fn of(_path: &Path, meta: &std::fs::Metadata) -> Option<Self> {
        use std::os::unix::fs::MetadataExt;
        Some(Self((meta.dev(), meta.ino())))
    }

    #[cfg(not(unix))]
    fn of(path: &Path, _meta: &std::fs::Metadata) -> Option<Self> {
        path.canonicalize().ok().map(Self)
    }
}

/// The search of the input paths.
struct Search {
    /// The output folder, not searched below an input folder.
    out: Option<Identity>,
    /// How many more names in folders may be looked at.
    names_left: usize,
    /// The curve files found.
    files: Vec<PathBuf>,
    /// The files found, to take a file reached by two paths once.
    file_ids: HashSet<Identity>,
    /// The folders that cannot be searched.
    errors: Vec<InputError>,
}

/// A folder met in the search of an input folder.
struct Met {
    /// Its path, as the search reached it first.
    path: PathBuf,
    /// The folder it was met in (an index into the folders met), `None` for the input folder.
    parent: Option<usize>,
    /// How deep below the input folder it is.
    depth: usize,
}

impl Search {
    /// Adds a curve file, unless it was found already by another path.
    fn file(&mut self, path: PathBuf, meta: &std::fs::Metadata) {
        // A file whose identity cannot be told is told by its path ([`find`] drops repeats).
        if Identity::of(&path, meta).map_or(true, |id| self.file_ids.insert(id)) {
            self.files.push(path);
        }
    }

    /// Searches the input folder `root` (whose metadata is `meta`) breadth first: adds the
    /// curve files under it to the files found and the folders that cannot be searched to
    /// the errors, each folder once. The output folder, met below `root`, is skipped. Returns
    /// `false` when the names to look at ran out.
    fn tree(&mut self, root: &Path, meta: &std::fs::Metadata) -> bool {
        let mut met = vec![Met {
            path: root.to_owned(),
            parent: None,
            depth: 0,
        }];
        // Folders met, by identity: each is searched once, by the first path met.
        let mut ids: HashMap<Identity, usize> = HashMap::new();
        if let Some(id) = Identity::of(root, meta) {
            ids.insert(id, 0);
        }
        let mut next = 0;
        while next < met.len() {
            let at = next;
            next += 1;
            let dir = met[at].path.clone();
            let fail = |message: String| InputError::new(&dir, Problem::Read(message));
            if met[at].depth > MAX_FOLDER_DEPTH {
                self.errors.push(fail(format!(
                    "folders nest more than {MAX_FOLDER_DEPTH} deep here; curve files this deep are not searched"
                )));
                continue;
            }
            let entries = match std::fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(e) => {
                    self.errors
                        .push(fail(format!("cannot search this folder: {e}")));
                    continue;
                }
            };
            let mut names = Vec::new();
            for entry in entries {
                if self.names_left == 0 {
                    return false;
                }
                self.names_left -= 1;
                match entry {
                    Ok(entry) => names.push(entry),
                    Err(e) => {
                        self.errors
                            .push(fail(format!("cannot search this folder: {e}")));
                        break;
                    }
                }
            }
            // In byte order, so that the path kept for a folder or file reached twice does
            // not depend on the order the system lists names in.
            names.sort_by_key(std::fs::DirEntry::file_name);
            for entry in names {
                if is_editor_temp(&entry.file_name()) {
                    continue;
                }
                let path = entry.path();
                let kind = entry.file_type();
                let link = kind.as_ref().is_ok_and(std::fs::FileType::is_symlink);
                let folder = kind.as_ref().is_ok_and(std::fs::FileType::is_dir);
                if !(link || folder || is_curve_file_name(&path)) {
                    continue;
                }
                // A link is followed: to a folder it is searched like one, to anything else
                // it is a file.
                let Ok(meta) = std::fs::metadata(&path) else {
                    if is_curve_file_name(&path) {
                        // Reading it says why it cannot be read.
                        self.files.push(path);
                    }
                    continue;
                };
                if !meta.is_dir() {
                    if is_curve_file_name(&path) {
                        self.file(path, &meta);
                    }
                    continue;
                }
                let id = Identity::of(&path, &meta);
                if id.is_some() && id == self.out {
                    continue;
                }
                if let Some(&seen) = id.as_ref().and_then(|id| ids.get(id)) {
                    // Searched once already; an error only when it holds this folder.
                    let mut ancestor = Some(at);
                    while let Some(a) = ancestor {
                        if a == seen {
                            self.errors.push(InputError::new(
                                &path,
                                Problem::Read(format!(
                                    "a symbolic link loop: this folder is {}, which is being searched already",
                                    met[seen].path.display()
                                )),
                            ));
                            break;
                        }
                        ancestor = met[a].parent;
                    }
                    continue;
                }
                if let Some(id) = id {
                    ids.insert(id, met.len());
                }
                met.push(Met {
                    path,
                    parent: Some(at),
                    depth: met[at].depth + 1,
                });
            }
        }
        true
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

    /// A chain of folders `d0` .. `d<depth>`, each but the last holding two symbolic links to
    /// the next (`a` and `b`, no loop) and a curve file of its own, and the last a curve file
    /// reached also by a second link and a hard link (`z-link.ron`, `z-hard.ron`).
    #[cfg(unix)]
    fn shared_links(root: &Path, depth: usize) {
        for i in 0..=depth {
            std::fs::create_dir(root.join(format!("d{i}"))).unwrap();
            std::fs::write(root.join(format!("d{i}/m{i}.ron")), "").unwrap();
            if i > 0 {
                for link in ["a", "b"] {
                    std::os::unix::fs::symlink(
                        format!("../d{i}"),
                        root.join(format!("d{}/{link}", i - 1)),
                    )
                    .unwrap();
                }
            }
        }
        let last = root.join(format!("d{depth}"));
        std::os::unix::fs::symlink(format!("m{depth}.ron"), last.join("z-link.ron")).unwrap();
        std::fs::hard_link(last.join(format!("m{depth}.ron")), last.join("z-hard.ron")).unwrap();
    }

    /// Regression: the search only checked a folder against its ancestors, so a chain of
    /// folders each linking twice to the next was searched 2^depth times, and each curve file
    /// at the bottom was 2^depth inputs (2^18 "name is already used" errors at depth 18).
    #[cfg(unix)]
    #[test]
    fn a_folder_reached_by_many_links_is_searched_once_and_a_file_is_one_input() {
        let dir = tempfile::tempdir().unwrap();
        let depth = 12;
        shared_links(dir.path(), depth);
        let d0 = dir.path().join("d0");
        let (files, errors) = find_inputs_reporting(std::slice::from_ref(&d0), None).unwrap();
        assert!(errors.is_empty(), "{errors:?}");
        // One file per folder, each by its shallowest path, the first in byte order.
        assert_eq!(files.len(), depth + 1, "{files:?}");
        assert!(files.contains(&d0.join("m0.ron")));
        let bottom = format!("{}/m{depth}.ron", vec!["a"; depth].join("/"));
        assert!(files.contains(&d0.join(bottom)), "{files:?}");
        // A file given and also found is one input.
        let again = find_inputs(&[d0.join("m0.ron"), d0.clone()]).unwrap();
        assert_eq!(again.len(), depth + 1, "{again:?}");
    }

    /// A loop is still an error naming the link, and a folder reached by a shorter path is
    /// searched whatever the depth of a longer one.
    #[cfg(unix)]
    #[test]
    fn a_link_loop_is_an_error_and_depth_counts_from_the_shallowest_path() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("top/sub")).unwrap();
        std::os::unix::fs::symlink("..", root.join("top/sub/up")).unwrap();
        std::fs::write(root.join("top/sub/m.ron"), "").unwrap();
        let (files, errors) = find_inputs_reporting(&[root.join("top")], None).unwrap();
        assert_eq!(files, [root.join("top/sub/m.ron")]);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].file, root.join("top/sub/up"));
        assert!(errors[0].to_string().contains("a symbolic link loop"));

        // `deep` is 40 folders down one way and 1 down another (`z`, met later in byte order).
        let mut deep = root.join("chain");
        for _ in 0..40 {
            deep = deep.join("c");
        }
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("deep.ron"), "").unwrap();
        std::os::unix::fs::symlink(&deep, root.join("chain/z")).unwrap();
        let (files, errors) = find_inputs_reporting(&[root.join("chain")], None).unwrap();
        assert_eq!(files, [root.join("chain/z/deep.ron")], "{errors:?}");
        // The long way is cut at the limit, as before.
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].to_string().contains("nest more than"));
    }

    #[test]
    fn a_bounded_search_gives_up_past_its_names() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..5 {
            std::fs::write(dir.path().join(format!("m{i}.ron")), "").unwrap();
        }
        let paths = [dir.path().to_owned(), dir.path().join("missing")];
        let counted = |max| {
            let (files, complete) = find_inputs_within(&paths, max);
            (files.len(), complete)
        };
        assert_eq!(counted(5), (5, true));
        // Past its names, the files it found until then: none, its one folder holds more.
        assert_eq!(counted(4), (0, false));
    }

    #[test]
    fn a_list_is_recognised_after_comments_and_attributes() {
        assert!(starts_with_list(
            "// hi\n/* x */ #![enable(implicit_some)]\n [ ]"
        ));
        assert!(!starts_with_list("// [\n(name: \"a\")"));
    }
}
