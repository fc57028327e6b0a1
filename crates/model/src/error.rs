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
        /// The offending source line, for the caret.
        source_line: String,
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
    /// An error in `file`.
    pub fn new(file: &Path, problem: Problem) -> Self {
        Self {
            file: file.to_owned(),
            problem,
        }
    }

    /// A syntax error at `line:col` of `text`.
    pub fn syntax(file: &Path, text: &str, line: usize, col: usize, message: String) -> Self {
        let source_line = text
            .lines()
            .nth(line.saturating_sub(1))
            .unwrap_or("")
            .to_owned();
        Self::new(
            file,
            Problem::Syntax {
                line,
                col,
                message,
                source_line,
            },
        )
    }
}

/// Longest source line echoed under a syntax error (a binary file may have no newline).
const MAX_ECHOED_CHARS: usize = 160;

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
            } => {
                writeln!(f, "{file}:{line}:{col}: {message}")?;
                // The source line and a caret under the column, trimmed around it if long.
                let chars: Vec<char> = source_line
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect();
                let start = if chars.len() <= MAX_ECHOED_CHARS {
                    0
                } else {
                    col.saturating_sub(1)
                        .saturating_sub(MAX_ECHOED_CHARS / 2)
                        .min(chars.len() - MAX_ECHOED_CHARS)
                };
                let end = (start + MAX_ECHOED_CHARS).min(chars.len());
                let shown: String = chars[start..end].iter().collect();
                let gutter = line.to_string();
                writeln!(f, "{gutter} | {shown}")?;
                // The caret goes under the column as a terminal shows it: a wide character
                // (CJK, most emoji) takes two cells.
                let before = col.saturating_sub(1).min(chars.len()).max(start);
                let cells: usize = chars[start..before].iter().map(|&c| cell_width(c)).sum();
                let cells = cells
                    + col
                        .saturating_sub(1)
                        .saturating_sub(before.max(chars.len()));
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
