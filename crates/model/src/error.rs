//! Errors of a bake: every input error names its file and the place (line:column for syntax,
//! the motion and field for meaning).

use std::fmt;
use std::path::{Path, PathBuf};

/// An error in one input file.
#[derive(Debug, Clone, PartialEq)]
pub struct InputError {
    /// The file.
    pub file: PathBuf,
    /// What is wrong.
    pub problem: Problem,
}

/// What is wrong with an input.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// The file cannot be read (or is too large).
    Read(String),
    /// RON syntax or type error at a 1-based line and column (in characters).
    Syntax {
        /// Line.
        line: usize,
        /// Column.
        col: usize,
        /// The parser's message.
        message: String,
        /// The offending source line around the column, for the caret: at most
        /// [`MAX_ECHOED_CHARS`] characters (an error in a line of megabytes keeps no more).
        source_line: String,
        /// The column (1-based, in characters) at which `source_line` starts in its line.
        source_col: usize,
    },
    /// A semantic error in one motion.
    Field {
        /// The motion's name (or `motion #N` when the name itself is invalid).
        motion: String,
        /// Field path and what is wrong (`motion.Spring.damping must be >= 0, got -3`).
        message: String,
    },
}

impl InputError {
    /// An error in `file`, its words of the input (a name, a unit, a field) clipped to
    /// [`MAX_ECHOED_WORD`] characters: a value of a megabyte is not said again in full.
    pub fn new(file: &Path, mut problem: Problem) -> Self {
        let clip = |text: &mut String| *text = clip_words(std::mem::take(text));
        match &mut problem {
            Problem::Read(message) | Problem::Syntax { message, .. } => clip(message),
            Problem::Field { motion, message } => {
                clip(motion);
                clip(message);
            }
        }
        Self {
            file: file.to_owned(),
            problem,
        }
    }

    /// A syntax error at `line:col` of `text`, keeping the line only around the column.
    pub fn syntax(file: &Path, text: &str, line: usize, col: usize, message: String) -> Self {
        let at = line_offset(text, line, col).unwrap_or((text.len(), col));
        Self::syntax_at(file, text, at, (line, col), message)
    }

    /// A syntax error at `line:col`, which is byte `at.0` of `text`, at column `at.1` (`col`,
    /// or less when `col` lies past the end of its line): the line is kept only around it, at
    /// most [`MAX_ECHOED_CHARS`] characters, found in time and memory that do not grow with
    /// the line (a file of one long line may have an error per motion).
    pub fn syntax_at(
        file: &Path,
        text: &str,
        (at, at_col): (usize, usize),
        (line, col): (usize, usize),
        message: String,
    ) -> Self {
        let in_line = |c: &char| *c != '\n' && *c != '\r';
        let after = text[at..]
            .chars()
            .take_while(in_line)
            .take(MAX_ECHOED_CHARS)
            .count();
        let back = MAX_ECHOED_CHARS
            .saturating_sub(after)
            .max(MAX_ECHOED_CHARS / 2);
        let (before_chars, before_bytes) = text[..at]
            .chars()
            .rev()
            .take_while(in_line)
            .take(back)
            .fold((0, 0), |(n, bytes), c| (n + 1, bytes + c.len_utf8()));
        let source_line: String = text[at - before_bytes..]
            .chars()
            .take_while(in_line)
            .take(MAX_ECHOED_CHARS)
            .collect();
        Self::new(
            file,
            Problem::Syntax {
                line,
                col,
                message,
                source_line,
                source_col: at_col.saturating_sub(before_chars).max(1),
            },
        )
    }
}

/// The byte offset of 1-based `line:col` (in characters) in `text`, and its column: `col`,
/// or the end of the line when the line is shorter.
pub(crate) fn line_offset(text: &str, line: usize, col: usize) -> Option<(usize, usize)> {
    let mut start = 0;
    for _ in 1..line {
        start += text[start..].find('\n')? + 1;
    }
    let line_text = text[start..].split(['\n', '\r']).next().unwrap_or("");
    Some(match line_text.char_indices().nth(col.saturating_sub(1)) {
        Some((i, _)) => (start + i, col),
        None => (start + line_text.len(), line_text.chars().count() + 1),
    })
}

/// Longest source line echoed under a syntax error (a binary file may have no newline).
pub const MAX_ECHOED_CHARS: usize = 160;

/// Longest word (a run without white space, quotes and escapes included) an error message
/// says whole; a longer one keeps its start and its end (`"axxxxxxx…(999928 more)…xxx!"`),
/// which is then always shorter.
pub const MAX_ECHOED_WORD: usize = 100;

/// `text` with each word longer than [`MAX_ECHOED_WORD`] characters clipped to its first 56
/// and last 16, between them how many are left out.
fn clip_words(text: String) -> String {
    let long = |word: &str| word.chars().nth(MAX_ECHOED_WORD).is_some();
    if !text.split_whitespace().any(long) {
        return text;
    }
    let mut clipped = String::with_capacity(MAX_ECHOED_CHARS * 4);
    let mut rest = text.as_str();
    while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
        clipped.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        if long(word) {
            let count = word.chars().count();
            let head: String = word.chars().take(56).collect();
            let tail: String = word.chars().skip(count - 16).collect();
            clipped.push_str(&format!("{head}…({} more)…{tail}", count - 72));
        } else {
            clipped.push_str(word);
        }
        rest = &rest[end..];
    }
    clipped.push_str(rest);
    clipped
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file.display();
        match &self.problem {
            Problem::Read(message) => write!(f, "{file}: {message}"),
            Problem::Field { motion, message } => write!(f, "{file}: {motion}: {message}"),
            Problem::Syntax {
                line,
                col,
                message,
                source_line,
                source_col,
            } => {
                writeln!(f, "{file}:{line}:{col}: {message}")?;
                // The kept source line and a caret under the column.
                let chars: Vec<char> = source_line
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect();
                let shown: String = chars.iter().collect();
                let gutter = line.to_string();
                writeln!(f, "{gutter} | {shown}")?;
                // The caret goes under the column as a terminal shows it: a wide character
                // (CJK, most emoji) takes two cells.
                let offset = col.saturating_sub(*source_col);
                let before = offset.min(chars.len());
                let cells: usize = chars[..before].iter().map(|&c| cell_width(c)).sum();
                let cells = cells + (offset - before);
                write!(f, "{} | {}^", " ".repeat(gutter.len()), " ".repeat(cells))
            }
        }
    }
}

impl std::error::Error for InputError {}

/// Terminal cells a character takes: 2 for East Asian wide and fullwidth characters and
/// emoji, 0 for combining marks, else 1 (the ranges of Unicode's East Asian Width property
/// that text in curve files meets).
fn cell_width(c: char) -> usize {
    let c = c as u32;
    let wide = matches!(c,
        0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF | 0xA000..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x1F300..=0x1F64F
        | 0x1F900..=0x1F9FF | 0x20000..=0x3FFFD);
    let combining = matches!(c, 0x0300..=0x036F | 0x200B..=0x200F | 0xFE00..=0xFE0F);
    if wide {
        2
    } else if combining {
        0
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_of_a_megabyte_is_said_by_its_start_and_end() {
        let word = format!("\"a{}!\"", "x".repeat(999_998));
        let error = InputError::new(
            Path::new("m.ron"),
            Problem::Field {
                motion: "m".into(),
                message: format!("unit {word} does not fit property translateX"),
            },
        );
        let text = error.to_string();
        let clipped = format!("\"a{}…(999930 more)…{}!\"", "x".repeat(54), "x".repeat(14));
        // The word is 1,000,002 characters: its first 56 and last 16 are shown.
        assert_eq!(
            text,
            format!("m.ron: m: unit {clipped} does not fit property translateX")
        );
        // Words of up to 100 characters, and the white space between words, are kept.
        let kept = format!("a  {}\tb", "y".repeat(MAX_ECHOED_WORD));
        assert_eq!(clip_words(kept.clone()), kept);
    }
}
