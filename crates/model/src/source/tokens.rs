//! Design tokens as input: a `.tokens.json` file (DTCG 2025.10) read into motions.
//!
//! * A token whose `$extensions."dev.curvebake".ron` holds a motion's text (as curvebake's
//!   own tokens do) is that motion, read as its RON is: it bakes exactly as the curve file it
//!   came from. The tokens of one motion's tracks carry the same text; it is read once.
//! * A group holding `stiffness` and `damping` tokens whose values are numbers is a Material
//!   3 Expressive spring (`md.sys.motion.spring.fast.spatial`: stiffness of a unit mass and
//!   damping ratio): it bakes as a spring of a progress from 0 to 1 on `--progress`, named
//!   by its path with `-` (`md-sys-motion-spring-fast-spatial`).
//! * Every other token is skipped, with a note naming it ([`Read::notes`]), except the
//!   tokens beside a motion's token in its group (its `duration` and `easing`, which curvebake
//!   writes for aliases): they are that motion's. One of those whose `$value` is no longer
//!   what curvebake wrote (its extension's `values`) is named in a note too: the motion is its
//!   `ron`, so the edit is not baked.
//!
//! A file that is not JSON (a key written twice in an object included), a `ron` that is not
//! a string, a RON that does not parse and a Material 3 value that is not a positive number
//! are refused, naming the token's path.

use super::{motion_texts, parse_bytes, MotionText};
use crate::error::{InputError, Problem};
use crate::number::format_number;
use crate::source::schema::MotionFile;
use std::path::Path;

/// The extension key curvebake writes and reads.
pub const EXTENSION: &str = "dev.curvebake";

/// Whether `path` names a design tokens file: `.tokens.json` (in any case).
pub fn is_tokens_file_name(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.to_ascii_lowercase().ends_with(".tokens.json"))
}

/// What a tokens file holds for a bake.
#[derive(Debug, Default)]
pub struct Read {
    /// The motions, each with its index and its text.
    pub motions: Vec<(usize, MotionFile, Option<MotionText>)>,
    /// Errors, each naming the token.
    pub errors: Vec<InputError>,
    /// The paths of the tokens that are neither a motion (nor beside one) nor a Material 3
    /// spring, in file order.
    pub skipped: Vec<String>,
    /// The paths of the tokens beside a motion's whose `$value` is no longer what curvebake
    /// wrote there (its extension's `values`): an edit the bake does not see.
    pub edited: Vec<String>,
}

/// Skipped tokens a note names before it only counts the rest.
const NAMED: usize = 3;

impl Read {
    /// The notes on the tokens of `file` the bake leaves out (warnings): those skipped, and
    /// those whose edited `$value` it does not bake; each how many, the first three paths,
    /// and why.
    pub fn notes(&self, file: &Path) -> Vec<String> {
        let skipped = listed(&self.skipped).map(|list| {
            format!(
                "{}: skipped {list}: neither a curvebake motion ($extensions.{EXTENSION}.ron) \
                 nor a Material 3 spring (a group with `stiffness` and `damping`)",
                file.display(),
            )
        });
        let edited = listed(&self.edited).map(|list| {
            format!(
                "{}: the $value of {list} is not what curvebake wrote: a motion bakes from its \
                 $extensions.{EXTENSION}.ron alone, so the edit is not baked; edit the motion in \
                 its ron (or in the curve file it came from) instead",
                file.display(),
            )
        });
        skipped.into_iter().chain(edited).collect()
    }
}

/// `token `a``, or `3 tokens `a`, `b` and `c``, or `5 tokens `a`, `b`, `c` and 2 more`
/// (`None` for none).
fn listed(paths: &[String]) -> Option<String> {
    let mut named: Vec<String> = (paths.iter().take(NAMED))
        .map(|path| format!("`{path}`"))
        .collect();
    let more = paths.len() - named.len();
    if more > 0 {
        named.push(format!("{more} more"));
    }
    let last = named.pop()?;
    let list = match named.is_empty() {
        true => last,
        false => format!("{} and {last}", named.join(", ")),
    };
    Some(match paths.len() {
        1 => format!("token {list}"),
        n => format!("{n} tokens {list}"),
    })
}

/// Reads the motions of a tokens file.
pub fn read(file: &Path, bytes: &[u8]) -> Read {
    let mut read = Read::default();
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let root: Node = match serde_json::from_slice(bytes) {
        Ok(root) => root,
        Err(e) => {
            let text = String::from_utf8_lossy(bytes);
            read.errors.push(InputError::syntax(
                file,
                &text,
                e.line(),
                e.column(),
                format!("not a design tokens file (JSON): {e}"),
            ));
            return read;
        }
    };
    let mut texts: Vec<(String, String)> = Vec::new();
    walk(file, &root, &mut Vec::new(), false, &mut texts, &mut read);
    if texts.is_empty() && read.errors.is_empty() {
        // As an empty curve file: a bake of it alone would otherwise be an empty bake, which
        // removes every output.
        read.errors.push(InputError::new(
            file,
            Problem::Read(format!(
                "the file holds no motion: no token with $extensions.{EXTENSION}.ron and no \
                 Material 3 spring (a group with `stiffness` and `damping`)"
            )),
        ));
        read.skipped.clear();
        return read;
    }
    for (path, ron) in texts {
        let problem = |message: String| {
            InputError::new(
                file,
                Problem::Field {
                    motion: format!("token `{path}`"),
                    message,
                },
            )
        };
        match parse_bytes(file, ron.as_bytes()) {
            Ok(motions) if motions.len() == 1 => {
                let text = motion_texts(ron.as_bytes()).and_then(|t| t.into_iter().next());
                let index = read.motions.len();
                let motion = motions.into_iter().next().expect("one motion");
                read.motions.push((index, motion, text));
            }
            Ok(motions) => read.errors.push(problem(format!(
                "$extensions.{EXTENSION}.ron must hold one motion, not {}",
                motions.len()
            ))),
            Err(e) => {
                // The error's place is in the ron's text, not in the tokens file's.
                let text = e.to_string();
                let inner = (text.strip_prefix(&format!("{}:", file.display())))
                    .unwrap_or(&text)
                    .trim_start();
                let message = match inner.split_once(": ") {
                    Some((place, what)) if place.starts_with(|c: char| c.is_ascii_digit()) => {
                        format!("$extensions.{EXTENSION}.ron does not read, at {place} of the ron: {what}")
                    }
                    _ => format!("$extensions.{EXTENSION}.ron does not read: {inner}"),
                };
                read.errors.push(problem(message))
            }
        }
    }
    read
}

/// Collects, depth first in file order, each motion text (once) with its token's path, each
/// Material 3 spring, each error and each skipped token; `beside_motion`: `node`'s group
/// holds a motion's token.
fn walk(
    file: &Path,
    node: &Node,
    path: &mut Vec<String>,
    beside_motion: bool,
    texts: &mut Vec<(String, String)>,
    read: &mut Read,
) {
    let Node::Object(members) = node else {
        return;
    };
    let dotted = path.join(".");
    if node.get("$value").is_some() {
        match node.get("$extensions").and_then(|e| e.get(EXTENSION)) {
            Some(data) => match data.get("ron") {
                Some(Node::String(ron)) => {
                    if !texts.iter().any(|(_, seen)| seen == ron) {
                        texts.push((dotted, ron.clone()));
                    }
                }
                Some(_) => read.errors.push(InputError::new(
                    file,
                    Problem::Field {
                        motion: format!("token `{dotted}`"),
                        message: format!("$extensions.{EXTENSION}.ron must be a string"),
                    },
                )),
                // A track's token without its motion's text (a motion made in code).
                None => read.skipped.push(dotted),
            },
            None if beside_motion => {}
            None => read.skipped.push(dotted),
        }
        return;
    }
    if let Some(spring) = material_spring(file, node, &dotted, read) {
        let Some(spring) = spring else {
            return;
        };
        let name = path.join("-").replace(['.', ' ', '_'], "-");
        let ron = format!(
            "(name: {name:?}, property: \"--progress\", motion: Spring(from: 0, to: 1, \
             stiffness: {}, damping_ratio: {}))",
            spring.0, spring.1
        );
        texts.push((dotted, ron));
        return;
    }
    let children = || members.iter().filter(|(k, _)| !k.starts_with('$'));
    let motion_data = children().find_map(|(_, child)| {
        let data = child.get("$extensions").and_then(|e| e.get(EXTENSION))?;
        (child.get("$value").is_some() && data.get("ron").is_some()).then_some(data)
    });
    let holds_motion = motion_data.is_some();
    // The `$value`s curvebake wrote in this group (`values`: the duration's, the easing's),
    // against what the file holds now.
    if let Some(Node::Object(written)) = motion_data.and_then(|d| d.get("values")) {
        for (key, value) in written {
            if node.get(key).and_then(|token| token.get("$value")) != Some(value) {
                read.edited.push(format!("{dotted}.{key}"));
            }
        }
    }
    for (key, child) in children() {
        path.push(key.clone());
        walk(file, child, path, holds_motion, texts, read);
        path.pop();
    }
}

/// A Material 3 Expressive spring group: `stiffness` and `damping` tokens with number values
/// (stiffness > 0, damping ratio >= 0); `None` if the group is not one, `Some(None)` if it is
/// one with bad values (an error is added, and its two tokens are not also skipped ones).
fn material_spring(
    file: &Path,
    group: &Node,
    dotted: &str,
    read: &mut Read,
) -> Option<Option<(f64, f64)>> {
    let value = |key: &str| group.get(key)?.get("$value");
    let (stiffness, damping) = (value("stiffness")?, value("damping")?);
    let bad = |field: &str, what: &str| {
        InputError::new(
            file,
            Problem::Field {
                motion: format!("token `{dotted}.{field}`"),
                message: format!("a Material 3 spring's {field} must be {what}"),
            },
        )
    };
    Some(match (stiffness.as_f64(), damping.as_f64()) {
        // Of a unit mass, the damping c = 2ζ√k: c² - 4k = 4k(ζ² - 1) must be finite. The
        // larger of k and ζ² is the one too large.
        (Some(k), Some(z)) if k > 0.0 && k.is_finite() && z >= 0.0 && z.is_finite() => {
            if (4.0 * k * z.max(1.0) * z.max(1.0)).is_finite() {
                Some((k, z))
            } else {
                let (field, limit) = if k >= z * z {
                    ("stiffness", f64::MAX / (4.0 * z.max(1.0) * z.max(1.0)))
                } else {
                    ("damping", (f64::MAX / (4.0 * k)).sqrt())
                };
                let what = format!(
                    "at most {} with the other's value (4·stiffness·max(1, damping)² must be \
                     finite), got {}",
                    format_number(limit),
                    format_number(if field == "stiffness" { k } else { z })
                );
                read.errors.push(bad(field, &what));
                None
            }
        }
        (k, _) if !k.is_some_and(|k| k > 0.0 && k.is_finite()) => {
            read.errors
                .push(bad("stiffness", "a positive number (of a unit mass)"));
            None
        }
        _ => {
            read.errors
                .push(bad("damping", "a number >= 0 (a damping ratio)"));
            None
        }
    })
}

/// A JSON value whose objects keep their members in file order (serde_json's own `Value`
/// sorts them unless its `preserve_order` feature is on, which would reorder every other
/// JSON object the workspace writes): motions are read in the order the file lists them.
#[derive(Debug, Clone, PartialEq)]
enum Node {
    Object(Vec<(String, Node)>),
    Array(Vec<Node>),
    String(String),
    Number(f64),
    Other,
}

impl Node {
    /// The member `key` of an object.
    fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The number it is.
    fn as_f64(&self) -> Option<f64> {
        match self {
            Node::Number(x) => Some(*x),
            _ => None,
        }
    }
}

impl<'de> serde::Deserialize<'de> for Node {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

/// Reads a [`Node`].
struct NodeVisitor;

impl<'de> serde::de::Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Node, E> {
        Ok(Node::Other)
    }
    fn visit_i64<E>(self, x: i64) -> Result<Node, E> {
        Ok(Node::Number(x as f64))
    }
    fn visit_u64<E>(self, x: u64) -> Result<Node, E> {
        Ok(Node::Number(x as f64))
    }
    fn visit_f64<E>(self, x: f64) -> Result<Node, E> {
        Ok(Node::Number(x))
    }
    fn visit_str<E>(self, s: &str) -> Result<Node, E> {
        Ok(Node::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Node, E> {
        Ok(Node::String(s))
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Other)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }
    /// An object; a key written twice is an error (as a field twice in RON is), not the
    /// last one silently winning.
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let (mut members, mut keys) = (Vec::new(), std::collections::HashSet::new());
        while let Some((key, value)) = map.next_entry::<String, Node>()? {
            if !keys.insert(key.clone()) {
                return Err(serde::de::Error::custom(format_args!(
                    "the key {key:?} is written twice in one object"
                )));
            }
            members.push((key, value));
        }
        Ok(Node::Object(members))
    }
}
