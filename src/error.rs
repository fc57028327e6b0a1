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
                write!(
                    f,
                    "{} | {}^",
                    " ".repeat(gutter.len()),
                    " ".repeat(col.saturating_sub(1) - start)
                )
            }
        }
    }
}

impl std::error::Error for InputError {}
