//! Tuning under `curvebake watch --serve`: the review page re-bakes one motion with new
//! parameter values ([`rebake`]) and saves them back into its curve file ([`save`]), changing
//! only those numbers ([`literals`]).
//!
//! Three requests, each a `POST` of JSON to a path under [`TUNE_PREFIX`]:
//! * `motions` (`{}`): every motion of the watched inputs with its file, the file's content
//!   hash, its parameters as written (path, field name, value, text) and those its form
//!   takes but its file leaves out, at their default with an empty text (a perceptual
//!   spring's `bounce`: set, it is written after its `perceptual_duration`), and its figures
//!   as `bake` gives them;
//! * `bake` (`{file, motion, values}`): the motion baked with those values by the real engine:
//!   its card (the review page's HTML for it, with the card data the plots are drawn from),
//!   its CSS, and its figures (looks done, at rest, overshoot);
//! * `save` (`{file, motion, values, hash}`): the values written into the file, if its hash is
//!   still `hash`; an atomic rename, after which the watch bakes it at once (told through its
//!   [`Saves`]).
//!
//! `values` maps a parameter's path (`motion.stiffness`, `tracks.1.motion.velocity`) to a
//! finite number. What is refused, always before any file is touched, and with a sentence
//! saying why ([`Refusal`]): a `Host` other than this server (DNS rebinding) or an `Origin`
//! of another site (403); a missing or wrong per-run secret (403; the page carries it in a
//! `<meta>` that only the served page has, so the page opened from `file://` stays read only);
//! a method other than `POST` (405); a body over [`MAX_BODY`] bytes (413), not JSON of the
//! request's shape (400); a file that is not one of the watched curve files (403), a motion
//! not in it or a path not among its parameters (404/400); values the motion refuses (422);
//! a file changed on disk since the page read it (409).

pub mod literals;
mod rebake;
mod save;

use crate::commands::watch::Saves;
use crate::options::BakeOptions;
use curvebake_model::hash::ContentHasher;
use curvebake_model::source::{find_inputs_reporting, parse_motions, read_source};
use curvebake_model::spec::SPRING_FORMS;
use literals::{literals, replace, write_number, Literal};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Read as _;
use std::net::SocketAddr;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Where the tuning requests live (never a folder a bake writes).
pub const TUNE_PREFIX: &str = "/_curvebake/tune/";

/// The header that carries the per-run secret.
pub const SECRET_HEADER: &str = "X-Curvebake-Secret";

/// The `<meta name>` through which the served page carries the secret.
pub const SECRET_META: &str = "curvebake-tune";

/// The tuning script the served page loads (`GET` under [`TUNE_PREFIX`], no secret: it is
/// code, and useless without the secret of the page that loads it).
pub const PAGE_SCRIPT: (&str, &str) = ("page.js", include_str!("page.js"));

/// Largest request body read: a motion's values are a few hundred bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// What tuning needs: the bake's options (its inputs, frame rate and formats), the secret,
/// and the watch to tell of each save.
#[derive(Debug)]
pub struct Tuner {
    options: BakeOptions,
    secret: String,
    saves: Option<Saves>,
    /// Held while a save checks the file's hash and replaces it, so two saves cannot both
    /// pass the check.
    saving: Mutex<()>,
}

/// A refused or failed request: its HTTP status and the reason, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// HTTP status.
    pub status: u16,
    /// Why, for people.
    pub reason: String,
}

fn refuse(status: u16, reason: impl Into<String>) -> Refusal {
    Refusal {
        status,
        reason: reason.into(),
    }
}

/// The body of `bake` and `save`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    /// The curve file, as `motions` names it.
    file: String,
    /// The motion's name.
    motion: String,
    /// New values by parameter path.
    #[serde(default)]
    values: BTreeMap<String, f64>,
    /// The file's content hash when the page read it (`save` only).
    #[serde(default)]
    hash: Option<String>,
}

/// A watched curve file, read: its text, hash, motions (name and position in the file) and
/// numbers.
struct Source {
    path: PathBuf,
    text: String,
    hash: String,
    motions: Vec<(usize, String)>,
    list: bool,
    /// Every number of the text (`None`: the text does not scan), found once for all its
    /// motions: a file of 111 motions took 30 ms to list when each motion scanned it again.
    literals: Option<Vec<Literal>>,
}

impl Source {
    fn read(path: &Path) -> Result<Self, Refusal> {
        let bytes = read_source(path).map_err(|e| refuse(409, e.to_string()))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| refuse(422, format!("{}: not UTF-8 text", path.display())))?;
        let (motions, _) = parse_motions(path, text.as_bytes());
        Ok(Self {
            path: path.to_owned(),
            hash: content_hash(text.as_bytes()),
            list: literals::starts_with_list(&text),
            motions: motions.into_iter().map(|(i, m)| (i, m.name)).collect(),
            literals: literals(&text),
            text,
        })
    }

    /// The tunable numbers of motion `name`, each with its path inside the motion.
    fn params(&self, name: &str) -> Result<Vec<(String, Literal)>, Refusal> {
        let (index, _) = (self.motions.iter())
            .find(|(_, n)| n == name)
            .ok_or_else(|| {
                refuse(
                    404,
                    format!("{}: no motion named {name:?}", self.path.display()),
                )
            })?;
        let all = self.literals.as_deref().ok_or_else(|| {
            refuse(
                422,
                format!("{}: the file does not read as RON", self.path.display()),
            )
        })?;
        let item = index.to_string();
        Ok(all
            .iter()
            .filter_map(|l| {
                let inside = if self.list {
                    l.path.split_first().filter(|(i, _)| **i == item)?.1
                } else {
                    &l.path[..]
                };
                tunable(inside).then(|| (inside.join("."), l.clone()))
            })
            .collect())
    }

    /// The text with `values` written in place of motion `name`'s numbers, and a number its
    /// file leaves out ([`left_out`]) written after its anchor when it differs from its
    /// default.
    fn edited(&self, name: &str, values: &BTreeMap<String, f64>) -> Result<String, Refusal> {
        let params = self.params(name)?;
        let missing = left_out(&params);
        let mut edits: Vec<(Range<usize>, String)> = Vec::new();
        for (key, value) in values {
            if !value.is_finite() {
                return Err(refuse(
                    400,
                    format!("{name}: {key} must be a finite number"),
                ));
            }
            if let Some((_, literal)) = params.iter().find(|(k, _)| k == key) {
                // An unchanged value keeps its text as written (`0.0` stays `0.0`).
                if *value != literal.value {
                    edits.push((literal.span.clone(), write_number(*value)));
                }
                continue;
            }
            let Some(absent) = missing.iter().find(|m| m.key == *key) else {
                return Err(refuse(
                    400,
                    format!("{name} has no parameter {key:?} written in its file"),
                ));
            };
            if *value != absent.default {
                let field = key.rsplit('.').next().unwrap_or(key);
                let at = absent.after.end..absent.after.end;
                edits.push((at, format!(", {field}: {}", write_number(*value))));
            }
        }
        Ok(replace(&self.text, &edits))
    }
}

/// A parameter a motion's form takes but its file leaves out, at its default: an optional
/// field its spring form's row offers
/// ([`OptionalField::offered`](curvebake_model::spec::OptionalField::offered): a perceptual
/// or visual spring's `bounce`, 0, no bounce), which a designer may want to add in the page.
/// It is written after the number it goes with.
struct LeftOut {
    /// Its path inside the motion (`motion.bounce`).
    key: String,
    /// The value it has while left out.
    default: f64,
    /// The bytes of the number it is written after (the form's first required one,
    /// `perceptual_duration`'s).
    after: Range<usize>,
}

/// The parameters `params` (a motion's numbers by path) leave out: beside the first required
/// field of a spring form ([`SPRING_FORMS`]), each optional field that form offers and that
/// is not written next to it (a `bounce` beside a `perceptual_duration` or
/// `visual_duration` without one).
fn left_out(params: &[(String, Literal)]) -> Vec<LeftOut> {
    let mut missing = Vec::new();
    for (key, l) in params {
        let prefix = key.rsplit_once('.').map_or("", |(p, _)| p);
        let forms = (SPRING_FORMS.iter()).filter(|f| f.required.first() == Some(&l.field()));
        for field in forms.flat_map(|f| f.optional).filter(|o| o.offered) {
            let key = if prefix.is_empty() {
                field.name.to_owned()
            } else {
                format!("{prefix}.{}", field.name)
            };
            if !params.iter().any(|(k, _)| *k == key) {
                missing.push(LeftOut {
                    key,
                    default: field.default,
                    after: l.span.clone(),
                });
            }
        }
    }
    missing
}

/// Whether a number at `path` (inside its motion) is a parameter of the motion: anything in
/// its `motion` (or a track's), and a bake length `duration`; not `fps`, tolerances or rest
/// thresholds, which are settings of the bake.
fn tunable(path: &[String]) -> bool {
    path.iter().any(|s| s == "motion") || path.last().is_some_and(|s| s == "duration")
}

/// The content hash of a file's bytes, as the page carries it.
fn content_hash(bytes: &[u8]) -> String {
    let mut hasher = ContentHasher::new();
    hasher.update(bytes);
    hasher.hex()
}

impl Tuner {
    /// Tuning for a watch of `options`, with a fresh secret; `saves` tells the watch of each
    /// save.
    pub fn new(options: BakeOptions, saves: Option<Saves>) -> std::io::Result<Self> {
        Ok(Self {
            options,
            secret: new_secret()?,
            saves,
            saving: Mutex::new(()),
        })
    }

    /// The review page as served: `html` with the secret in a `<meta>` at the top of its
    /// `<head>`, and the tuning script (the file on disk holds neither).
    pub fn page_with_secret(&self, html: &[u8]) -> Vec<u8> {
        let meta = format!(
            "<head>\n<meta name=\"{SECRET_META}\" content=\"{}\">\n<script src=\"{TUNE_PREFIX}{}\" defer></script>",
            self.secret, PAGE_SCRIPT.0
        );
        match html.windows(6).position(|w| w == b"<head>") {
            Some(at) => [&html[..at], meta.as_bytes(), &html[at + 6..]].concat(),
            None => html.to_vec(),
        }
    }

    /// The watched curve files, as a bake finds them (none of its own outputs), or a refusal
    /// naming the first folder that cannot be searched.
    fn inputs(&self) -> Result<Vec<PathBuf>, Refusal> {
        let found = find_inputs_reporting(&self.options.inputs, Some(&self.options.out));
        match found.map_err(|e| refuse(409, e.to_string()))? {
            (files, errors) if errors.is_empty() => Ok(files),
            (_, errors) => Err(refuse(409, errors[0].to_string())),
        }
    }

    /// The watched curve file named `file` (as `motions` names it), or a refusal: nothing
    /// outside the inputs is ever read or written.
    fn watched(&self, file: &str) -> Result<PathBuf, Refusal> {
        let files = self.inputs()?;
        files
            .into_iter()
            .find(|f| f.display().to_string() == file)
            .ok_or_else(|| refuse(403, format!("{file:?} is not a curve file being watched")))
    }

    /// Answers one request under [`TUNE_PREFIX`] (`what` is the rest of its path) with a JSON
    /// body; `headers` are checked first, then the body is read (at most [`MAX_BODY`]).
    pub fn answer(
        &self,
        what: &str,
        method: &str,
        headers: &[(String, String)],
        body: &mut dyn std::io::Read,
        addr: SocketAddr,
    ) -> Result<Value, Refusal> {
        self.check_headers(headers, addr)?;
        if method != "POST" {
            return Err(refuse(405, "tuning requests are POSTs"));
        }
        let mut bytes = Vec::new();
        body.take(MAX_BODY as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| refuse(400, format!("reading the request: {e}")))?;
        if bytes.len() > MAX_BODY {
            return Err(refuse(
                413,
                format!("a request body is at most {MAX_BODY} bytes"),
            ));
        }
        match what {
            "motions" => self.motions(),
            "bake" | "save" => {
                let request: Request = serde_json::from_slice(&bytes)
                    .map_err(|e| refuse(400, format!("not a {what} request: {e}")))?;
                let path = self.watched(&request.file)?;
                if what == "bake" {
                    self.bake(&path, &request)
                } else {
                    self.save(&path, &request)
                }
            }
            other => Err(refuse(404, format!("no tuning request {other:?}"))),
        }
    }

    /// The secret, the `Host` (this server by address or `localhost`) and, when a browser
    /// sends one, the `Origin` (this server's): another site's page can neither read the
    /// secret nor send it.
    fn check_headers(&self, headers: &[(String, String)], addr: SocketAddr) -> Result<(), Refusal> {
        let get = |name: &str| {
            (headers.iter())
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        };
        if !get("Host").is_some_and(|h| super::loopback::host_is_local(h, addr.port())) {
            return Err(refuse(403, "this server answers only to 127.0.0.1"));
        }
        if let Some(origin) = get("Origin") {
            let port = addr.port();
            let ours = [
                format!("http://127.0.0.1:{port}"),
                format!("http://localhost:{port}"),
            ];
            if !ours.iter().any(|o| o.eq_ignore_ascii_case(origin)) {
                return Err(refuse(
                    403,
                    format!("requests from {origin} are not accepted"),
                ));
            }
        }
        match get(SECRET_HEADER) {
            Some(s) if same_secret(s, &self.secret) => Ok(()),
            Some(_) => Err(refuse(
                403,
                "wrong secret: reload the page served by this run",
            )),
            None => Err(refuse(
                403,
                format!("no {SECRET_HEADER}: tuning is for the page served by this run"),
            )),
        }
    }

    /// Every motion of the watched inputs, with its file, hash, parameters and figures.
    fn motions(&self) -> Result<Value, Refusal> {
        let files = self.inputs()?;
        let mut motions = serde_json::Map::new();
        for file in files {
            let Ok(source) = Source::read(&file) else {
                continue;
            };
            let mut figures = rebake::figures_of_file(&self.options, &file, &source.text);
            for (_, name) in &source.motions {
                let Ok(params) = source.params(name) else {
                    continue;
                };
                let written = (params.iter()).map(|(key, l)| {
                    json!({
                        "key": key,
                        "name": l.field(),
                        "value": l.value,
                        "text": &source.text[l.span.clone()],
                    })
                });
                // A number the file leaves out, at its default (`text` empty): set, it is
                // written into the file.
                let absent = left_out(&params).into_iter().map(|m| {
                    let name = m.key.rsplit('.').next().unwrap_or_default().to_owned();
                    json!({ "key": m.key, "name": name, "value": m.default, "text": "" })
                });
                let params: Vec<Value> = written.chain(absent).collect();
                motions.insert(
                    name.clone(),
                    json!({
                        "file": file.display().to_string(),
                        "hash": source.hash,
                        "params": params,
                        "figures": figures.remove(name),
                    }),
                );
            }
        }
        Ok(json!({ "motions": motions }))
    }

    fn bake(&self, path: &Path, request: &Request) -> Result<Value, Refusal> {
        let source = Source::read(path)?;
        let text = source.edited(&request.motion, &request.values)?;
        rebake::rebake(&self.options, path, &text, &request.motion)
    }

    fn save(&self, path: &Path, request: &Request) -> Result<Value, Refusal> {
        let _held = self.saving.lock().unwrap_or_else(|e| e.into_inner());
        let source = Source::read(path)?;
        let Some(hash) = &request.hash else {
            return Err(refuse(
                400,
                "a save carries the file's hash as the page read it",
            ));
        };
        if *hash != source.hash {
            return Err(refuse(
                409,
                format!(
                    "{} changed on disk since the page read it: reload to see it, then tune again",
                    path.display()
                ),
            ));
        }
        let text = source.edited(&request.motion, &request.values)?;
        // Only values the motion takes are written: the same check as a bake's.
        rebake::rebake(&self.options, path, &text, &request.motion)?;
        save::replace_atomically(path, text.as_bytes())
            .map_err(|e| refuse(500, format!("{}: cannot write: {e}", path.display())))?;
        if let Some(saves) = &self.saves {
            saves.saved(path, text.as_bytes());
        }
        Ok(json!({ "hash": content_hash(text.as_bytes()) }))
    }
}

/// Compares two secrets in time that does not depend on where they differ.
fn same_secret(given: &str, secret: &str) -> bool {
    let (a, b) = (given.as_bytes(), secret.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// 128 random bits from the operating system, in hex.
fn new_secret() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests;
