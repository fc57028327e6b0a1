//! The numbers of a curve file where they are written: every decimal literal of a RON text
//! with its byte span and its path of field names and list positions, so that a new value can
//! replace exactly its bytes and nothing else (comments, layout, other motions and line endings
//! stay as they were).
//!
//! The scanner knows RON's lexical shape only: blanks, `//` and nested `/* */` comments,
//! strings (`"..."` with escapes, raw `r#"..."#`), characters, identifiers, numbers and the
//! punctuation `( ) [ ] { } , :`. A field name is an identifier followed by `:`; a list
//! (`[ ... ]`) numbers its items from 0; a variant name (`Spring(`) and a bracket without a
//! field name add nothing to the path. So in `[(name: "a", motion: Spring(to: 1))]` the `1`
//! is at `0.motion.to`, and the third step's `stiffness` of a sequence at
//! `motion.2.motion.stiffness` within its motion. Whether the text is valid RON is the
//! parser's business: here a text that does not scan gives no literals.

use std::ops::Range;

/// One decimal number literal of a RON text.
#[derive(Debug, Clone, PartialEq)]
pub struct Literal {
    /// Field names and list positions from the top of the file, e.g. `["0", "motion", "to"]`.
    pub path: Vec<String>,
    /// Its bytes in the text.
    pub span: Range<usize>,
    /// Its value, as `f64::from_str` reads the text (the same conversion as the readers).
    pub value: f64,
}

impl Literal {
    /// The field the number is the value of (the last name of its path that is not a list
    /// position): `stiffness`; a snap point's is `snap`.
    pub fn field(&self) -> &str {
        (self.path.iter().rev())
            .find(|s| !s.bytes().all(|b| b.is_ascii_digit()))
            .map_or("", String::as_str)
    }
}

/// A path being built while scanning: the open brackets, each with the segment it adds.
struct Frame {
    /// What this bracket adds to the path (a field name, a list position, or nothing).
    segment: Option<String>,
    /// A list's next item position (`None` for parentheses and braces).
    items: Option<usize>,
}

/// Every decimal literal of `text`, in order; `None` if the text does not scan (an
/// unterminated string or comment, an unbalanced bracket).
pub fn literals(text: &str) -> Option<Vec<Literal>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    // A field name waiting for its value; a list position for the first item of a list.
    let mut key: Option<String> = None;
    let mut at = 0;
    let path_of = |stack: &[Frame], key: &Option<String>| -> Vec<String> {
        let mut path: Vec<String> = stack.iter().filter_map(|f| f.segment.clone()).collect();
        if let Some(k) = key {
            path.push(k.clone());
        }
        path
    };
    // The position of the next item in the innermost list, when the innermost bracket is one.
    let item_key = |stack: &[Frame]| stack.last().and_then(|f| f.items).map(|i| i.to_string());
    while at < bytes.len() {
        let b = bytes[at];
        match b {
            b' ' | b'\t' | b'\n' | b'\r' => at += 1,
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at = text[at..].find('\n').map_or(bytes.len(), |n| at + n + 1);
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => at = skip_block_comment(bytes, at)?,
            b'"' => {
                at = skip_string(bytes, at)?;
                key = None;
            }
            b'\'' => {
                at = skip_char(bytes, at)?;
                key = None;
            }
            b'r' if matches!(bytes.get(at + 1), Some(b'"' | b'#')) => {
                at = skip_raw_string(bytes, at)?;
                key = None;
            }
            b'(' | b'[' | b'{' => {
                let segment = key.take().or_else(|| item_key(&stack));
                stack.push(Frame {
                    segment,
                    items: (b == b'[').then_some(0),
                });
                at += 1;
            }
            b')' | b']' | b'}' => {
                stack.pop()?;
                key = None;
                at += 1;
            }
            b',' => {
                if let Some(frame) = stack.last_mut() {
                    if let Some(items) = &mut frame.items {
                        *items += 1;
                    }
                }
                key = None;
                at += 1;
            }
            b':' => at += 1,
            b'-' | b'+' | b'.' | b'0'..=b'9' => {
                let end = number_end(bytes, at);
                let written = &text[at..end];
                let here = key.take().or_else(|| item_key(&stack));
                if let Ok(value) = written.parse::<f64>() {
                    if value.is_finite() && is_decimal(written) {
                        out.push(Literal {
                            path: path_of(&stack, &here),
                            span: at..end,
                            value,
                        });
                    }
                }
                at = end.max(at + 1);
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let start = at;
                while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
                    at += 1;
                }
                let name = &text[start..at];
                let mut next = at;
                while next < bytes.len() && matches!(bytes[next], b' ' | b'\t' | b'\n' | b'\r') {
                    next += 1;
                }
                if bytes.get(next) == Some(&b':') && bytes.get(next + 1) != Some(&b':') {
                    key = Some(name.to_owned());
                } else if bytes.get(next) == Some(&b'(') {
                    // A variant's name: what it wraps belongs to the field (or item) before.
                    if key.is_none() {
                        key = item_key(&stack);
                    }
                } else {
                    key = None;
                }
            }
            _ => at += 1,
        }
    }
    stack.is_empty().then_some(out)
}

/// Whether the file is a list of motions (its first token, past blanks and comments, is `[`);
/// its numbers' paths then start with the motion's position.
pub fn starts_with_list(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = usize::from(text.starts_with('\u{feff}')) * 3;
    loop {
        match bytes.get(at) {
            Some(b' ' | b'\t' | b'\n' | b'\r') => at += 1,
            Some(b'/') if bytes.get(at + 1) == Some(&b'/') => match text[at..].find('\n') {
                Some(n) => at += n + 1,
                None => return false,
            },
            Some(b'/') if bytes.get(at + 1) == Some(&b'*') => match skip_block_comment(bytes, at) {
                Some(end) => at = end,
                None => return false,
            },
            next => return next == Some(&b'['),
        }
    }
}

/// Whether a literal is a plain decimal: `-12`, `0.5`, `1e-3` (not `inf`, `NaN`, hex).
fn is_decimal(written: &str) -> bool {
    let digits = written.trim_start_matches(['-', '+']);
    digits.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
}

/// The end of the number starting at `at`: sign, digits, `.`, exponent (and `_` or letters,
/// so that `0x1F` or `1_000` is taken whole, and then refused by [`is_decimal`]).
fn number_end(bytes: &[u8], at: usize) -> usize {
    let mut end = at;
    if matches!(bytes.get(end), Some(b'-' | b'+')) {
        end += 1;
    }
    while let Some(&b) = bytes.get(end) {
        let exponent_sign =
            matches!(b, b'-' | b'+') && matches!(bytes.get(end - 1), Some(b'e' | b'E'));
        if b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || exponent_sign {
            end += 1;
        } else {
            break;
        }
    }
    end
}

fn skip_block_comment(bytes: &[u8], mut at: usize) -> Option<usize> {
    let mut depth = 0usize;
    while at < bytes.len() {
        if bytes[at..].starts_with(b"/*") {
            depth += 1;
            at += 2;
        } else if bytes[at..].starts_with(b"*/") {
            depth -= 1;
            at += 2;
            if depth == 0 {
                return Some(at);
            }
        } else {
            at += 1;
        }
    }
    None
}

fn skip_string(bytes: &[u8], mut at: usize) -> Option<usize> {
    at += 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return Some(at + 1),
            _ => at += 1,
        }
    }
    None
}

fn skip_char(bytes: &[u8], mut at: usize) -> Option<usize> {
    at += 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'\'' => return Some(at + 1),
            _ => at += 1,
        }
    }
    None
}

/// `r"..."` or `r#"..."#` (any number of `#`).
fn skip_raw_string(bytes: &[u8], at: usize) -> Option<usize> {
    let mut open = at + 1;
    while bytes.get(open) == Some(&b'#') {
        open += 1;
    }
    if bytes.get(open) != Some(&b'"') {
        // `r#ident` or a plain identifier starting with `r`: not a string.
        let mut end = at + 1;
        while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
            end += 1;
        }
        return Some(end.max(at + 1));
    }
    let hashes = open - at - 1;
    let mut close = Vec::with_capacity(hashes + 1);
    close.push(b'"');
    close.resize(hashes + 1, b'#');
    let body = open + 1;
    (bytes[body..].windows(close.len()))
        .position(|w| w == close)
        .map(|p| body + p + close.len())
}

/// `text` with each literal's bytes replaced by its new text (`edits`: span and text, spans
/// of [`literals`] of this text, not overlapping), everything between them kept byte for byte.
pub fn replace(text: &str, edits: &[(Range<usize>, String)]) -> String {
    let mut edits: Vec<&(Range<usize>, String)> = edits.iter().collect();
    edits.sort_by_key(|(span, _)| span.start);
    let mut out = String::with_capacity(text.len() + 16 * edits.len());
    let mut at = 0;
    for (span, new) in edits {
        out.push_str(&text[at..span.start]);
        out.push_str(new);
        at = span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// How a new value is written: the shortest text that reads back as exactly that `f64`
/// (`300`, `0.35`, `-1200`); never an exponent, which some readers of RON do not take.
pub fn write_number(value: f64) -> String {
    // `Display` for f64 is the shortest round trip without an exponent.
    let text = format!("{value}");
    if text == "-0" {
        "0".to_owned()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<(String, String)> {
        literals(text)
            .unwrap()
            .into_iter()
            .map(|l| (l.path.join("."), text[l.span].to_owned()))
            .collect()
    }

    #[test]
    fn numbers_are_found_with_their_paths() {
        let text = r#"// springs, 1 and 2
[
    (
        name: "a-1", /* 3 */ fps: 60,
        motion: Spring(from: -240, to: 0.0, stiffness: 1e3, damping: 28),
    ),
    (name: "b", tracks: [
        (property: "translateX", motion: Inertia(from: 0, velocity: 900, friction: 0.2, snap: [0, 120])),
        (property: "opacity", motion: Sequence([(motion: Gravity(from: 1, acceleration: -2)), (motion: Decay(to: 0, end_velocity: 0), duration: 0.5)])),
    ]),
]
"#;
        let found = paths(text);
        let want = [
            ("0.fps", "60"),
            ("0.motion.from", "-240"),
            ("0.motion.to", "0.0"),
            ("0.motion.stiffness", "1e3"),
            ("0.motion.damping", "28"),
            ("1.tracks.0.motion.from", "0"),
            ("1.tracks.0.motion.velocity", "900"),
            ("1.tracks.0.motion.friction", "0.2"),
            ("1.tracks.0.motion.snap.0", "0"),
            ("1.tracks.0.motion.snap.1", "120"),
            ("1.tracks.1.motion.0.motion.from", "1"),
            ("1.tracks.1.motion.0.motion.acceleration", "-2"),
            ("1.tracks.1.motion.1.motion.to", "0"),
            ("1.tracks.1.motion.1.motion.end_velocity", "0"),
            ("1.tracks.1.motion.1.duration", "0.5"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        assert_eq!(found, want);
    }

    #[test]
    fn a_single_motion_has_no_position() {
        assert_eq!(
            paths("(name: \"x\", motion: Gravity(from: 0, acceleration: 9.8))"),
            [
                ("motion.from".to_owned(), "0".to_owned()),
                ("motion.acceleration".to_owned(), "9.8".to_owned())
            ]
        );
    }

    #[test]
    fn texts_that_do_not_scan_give_nothing() {
        assert_eq!(literals("(name: \"open"), None);
        assert_eq!(literals("(a: 1"), None);
        assert_eq!(literals("(a: 1))"), None);
        assert_eq!(literals("/* (a: 1)"), None);
    }

    #[test]
    fn replacing_keeps_every_other_byte() {
        let text = "(\r\n  // keep 1\r\n  motion: Spring(from: 1, to: 0.94, perceptual_duration: 0.18),\r\n)";
        let found = literals(text).unwrap();
        let duration = found.iter().find(|l| l.field() == "perceptual_duration");
        let span = duration.unwrap().span.clone();
        let edited = replace(text, &[(span, write_number(0.25))]);
        assert_eq!(edited, text.replace("0.18", "0.25"));
    }

    #[test]
    fn numbers_are_written_to_read_back_exactly() {
        for x in [300.0, 0.35, -1200.0, 1e-7, 123456789.125, 0.1 + 0.2, -0.0] {
            let text = write_number(x);
            assert!(!text.contains('e'), "{text}");
            assert_eq!(text.parse::<f64>().unwrap(), if x == 0.0 { 0.0 } else { x });
        }
    }
}
