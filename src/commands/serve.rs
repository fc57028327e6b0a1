//! `curvebake watch --serve`: the output folder over HTTP on the loopback interface, so that
//! an open review page can follow the bakes.
//!
//! The server answers `GET` and `HEAD` for files under the output folder and for two more
//! paths. [`STATUS_PATH`]: a small JSON document saying how many bakes have finished
//! (`generation`), the errors of the last one (each input error with its file, line and
//! column when it has them, message and source line), the files it wrote (`written`) and how
//! many of the review page's cards it changed (`cards`; `null` when motions came, went or
//! moved, or there is no page). [`CARDS_PATH`]: those cards, with the page's summary line and
//! the scrubber's end (`{"generation", "cards": [html, ...] or null, "summary", "longest"}`).
//! The review page polls the status and, when the generation moves on by one, fetches only
//! the cards that changed and swaps them in place; else it fetches itself again and compares
//! (see `crates/export/src/html/page.js`).
//!
//! When it serves for tuning ([`Server::start_tuning`]), it also answers the review page's
//! `POST`s under `/_curvebake/tune/` (and a `GET` of the page's tuning script there): those
//! requests are the `tune` module's, and get its refusals.
//!
//! What is refused, and how:
//! * anything but `127.0.0.1`: the socket is bound there, so no other interface reaches it;
//!   a `Host` header naming another host (DNS rebinding) gets `403`;
//! * paths out of the folder: the target is percent-decoded once, and a decoded `..` or `.`
//!   segment, a backslash or a NUL byte is `403`; an invalid escape or non-UTF-8 is `400`;
//!   what is left is resolved with symbolic links followed and must still lie under the
//!   folder (resolved the same way), else `403`, so a link pointing out is refused;
//! * methods other than `GET` and `HEAD` outside the tuning prefix: `405`.
//!
//! Every answer says `Cache-Control: no-store`, so a reload never shows an old bake, and
//! `X-Content-Type-Options: nosniff`, so a browser takes each file as its `Content-Type` says.
//!
//! Each connection is answered on a thread of its own, as soon as it is accepted (see the
//! `http` module): a request never waits on another connection, so a page's hundred
//! stylesheets and its polling are all answered, and a client that asks for a large file and
//! does not read it holds only its own connection.

use super::http::{self, Request, Response};
use super::tune::Tuner;
use super::watch::Saves;
use crate::commands::loopback::host_is_local;
use crate::options::BakeOptions;
use crate::run::{FatalError, Report};
use curvebake_export::html::{PageParts, PAGE_PATH};
use curvebake_model::error::Problem;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The path of the status document (never a file of the output folder: bakes write no
/// folder of that name).
pub const STATUS_PATH: &str = "/_curvebake/status";

/// The path of the cards the last bake changed (see the module's documentation).
pub const CARDS_PATH: &str = "/_curvebake/cards";

/// The port `--serve` tries when given none; when it is taken, the system picks a free one.
pub const DEFAULT_PORT: u16 = 8419;

/// Why a request target does not name a file to serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Malformed: not starting with `/`, a bad percent escape, or not UTF-8 once decoded (400).
    BadRequest,
    /// Outside the output folder, by `..`, a backslash, a NUL or a symbolic link (403).
    Forbidden,
    /// Nothing there (404).
    NotFound,
}

impl Refusal {
    fn status(self) -> u16 {
        match self {
            Self::BadRequest => 400,
            Self::Forbidden => 403,
            Self::NotFound => 404,
        }
    }
}

/// Decodes `%XX` escapes once (`+` stays `+`). `None` for a `%` not followed by two hex
/// digits.
fn percent_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

/// The file a request target names under `root` (which must be canonical): the path part
/// (query and fragment dropped) percent-decoded once, `/` or a folder meaning its
/// `index.html`, with symbolic links resolved and checked to stay under `root`.
pub fn resolve(root: &Path, target: &str) -> Result<PathBuf, Refusal> {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    if !path.starts_with('/') {
        return Err(Refusal::BadRequest);
    }
    let decoded = percent_decode(path).ok_or(Refusal::BadRequest)?;
    let decoded = String::from_utf8(decoded).map_err(|_| Refusal::BadRequest)?;
    if decoded.contains(['\\', '\0']) {
        return Err(Refusal::Forbidden);
    }
    let mut relative = PathBuf::new();
    for segment in decoded.split('/').filter(|s| !s.is_empty()) {
        // Only plain names: `..`, `.` (and anything the platform reads as a root or prefix)
        // are refused outright, before the file system is asked.
        match Path::new(segment).components().collect::<Vec<_>>()[..] {
            [Component::Normal(name)] if name == segment => relative.push(name),
            _ => return Err(Refusal::Forbidden),
        }
    }
    let mut full = root.join(&relative);
    if full.is_dir() {
        full.push("index.html");
    }
    let real = full.canonicalize().map_err(|_| Refusal::NotFound)?;
    if !real.starts_with(root) {
        return Err(Refusal::Forbidden);
    }
    if !real.is_file() {
        return Err(Refusal::NotFound);
    }
    Ok(real)
}

/// The `Content-Type` of a served file, by its extension.
fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("ts") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// What the status document says.
#[derive(Debug, Default)]
struct Status {
    /// Bakes finished so far.
    generation: u64,
    /// The status document, as served.
    json: String,
    /// The review page the last bake left, in parts (`None`: no page, or not one of ours).
    page: Option<PageParts>,
    /// The [`CARDS_PATH`] document, as served.
    cards_json: String,
}

/// The [`CARDS_PATH`] document after `generation` bakes: the cards `changed` (`None`: the page
/// must be taken whole) with the summary line and scrubber's end of `page`.
fn cards_json(generation: u64, page: Option<&PageParts>, changed: Option<&[&str]>) -> String {
    serde_json::json!({
        "generation": generation,
        "cards": changed,
        "summary": page.map(|p| &p.summary),
        "longest": page.map(|p| &p.longest),
    })
    .to_string()
}

/// The status document after `generation` bakes, the last of which gave `result` and changed
/// `cards` of the review page's cards (`None`: not known, the page is to be taken whole).
pub fn status_json(
    generation: u64,
    result: &Result<Report, FatalError>,
    cards: Option<usize>,
) -> String {
    use serde_json::{json, Value};
    let errors: Vec<Value> = match result {
        Ok(report) => report
            .errors
            .iter()
            .map(|e| {
                let file = e.file.display().to_string();
                let mut entry = json!({ "file": file, "text": e.to_string() });
                match &e.problem {
                    Problem::Syntax {
                        line,
                        col,
                        message,
                        source_line,
                        ..
                    } => {
                        entry["line"] = json!(line);
                        entry["col"] = json!(col);
                        entry["message"] = json!(message);
                        entry["source"] = json!(source_line);
                    }
                    Problem::Field { motion, message } => {
                        entry["message"] = json!(format!("{motion}: {message}"));
                    }
                    Problem::Read(message) => entry["message"] = json!(message),
                }
                entry
            })
            .collect(),
        Err(e) => vec![json!({ "file": "", "message": e.to_string(), "text": e.to_string() })],
    };
    // What the bake wrote: a page one bake behind reloads only those of its stylesheets.
    let written = result.as_ref().map_or(&[][..], |r| &r.written[..]);
    json!({ "generation": generation, "errors": errors, "written": written, "cards": cards })
        .to_string()
}

/// A running server; dropping it stops it.
pub struct Server {
    http: http::HttpServer,
    /// The output folder, absolute.
    root: PathBuf,
    status: Arc<Mutex<Status>>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("addr", &self.addr())
            .finish()
    }
}

impl Server {
    /// Serves `root` on `127.0.0.1:port` (`0`: a free port the system picks). `root` need not
    /// exist yet (a first bake makes it): it is resolved on each request.
    pub fn start(root: &Path, port: u16) -> io::Result<Self> {
        Self::start_with(root, port, None)
    }

    /// Serves `options.out` on [`DEFAULT_PORT`] or, when `port` is given, on that one (the
    /// default falls back to a free port when it is taken), and answers the review page's
    /// tuning requests for the motions of `options.inputs` (see the `tune` module), telling
    /// the watch of each save through `saves`.
    pub fn start_tuning(
        options: &BakeOptions,
        port: Option<u16>,
        saves: Saves,
    ) -> io::Result<Self> {
        let tune = Arc::new(Tuner::new(options.clone(), Some(saves))?);
        let root = &options.out;
        match port {
            Some(p) => Self::start_with(root, p, Some(Arc::clone(&tune))),
            None => Self::start_with(root, DEFAULT_PORT, Some(Arc::clone(&tune)))
                .or_else(|_| Self::start_with(root, 0, Some(tune))),
        }
    }

    fn start_with(root: &Path, port: u16, tune: Option<Arc<Tuner>>) -> io::Result<Self> {
        let listener = std::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))?;
        let addr = listener.local_addr()?;
        let status = Arc::new(Mutex::new(Status {
            generation: 0,
            json: status_json(0, &Ok(Report::default()), None),
            page: None,
            cards_json: cards_json(0, None, None),
        }));
        let served = Served::new(root)?;
        let root = served.absolute.clone();
        let handler: Arc<http::Handler> = {
            let (status, tune) = (Arc::clone(&status), tune.clone());
            Arc::new(move |request: &Request| {
                answer(request, &served, addr, &status, tune.as_deref())
            })
        };
        let limits = http::Limits {
            body: super::tune::MAX_BODY,
            deadline: http::REQUEST_DEADLINE,
        };
        Ok(Self {
            http: http::HttpServer::start(listener, limits, handler)?,
            root,
            status,
        })
    }

    /// The address served (always on 127.0.0.1).
    pub fn addr(&self) -> SocketAddr {
        self.http.addr()
    }

    /// Records a finished bake: the generation moves on, the status holds its errors, and the
    /// review page it left is compared with the one before, card by card.
    pub fn publish(&self, result: &Result<Report, FatalError>) {
        let page = std::fs::read_to_string(self.root.join(PAGE_PATH))
            .ok()
            .and_then(|html| PageParts::of(&html));
        let mut status = self.status.lock().unwrap_or_else(|e| e.into_inner());
        status.generation += 1;
        let changed = page.as_ref().zip(status.page.as_ref());
        let changed = changed.and_then(|(now, before)| now.changed_since(before));
        status.json = status_json(status.generation, result, changed.as_ref().map(Vec::len));
        status.cards_json = cards_json(status.generation, page.as_ref(), changed.as_deref());
        drop(changed);
        status.page = page;
    }
}

/// A plain-text answer: `text` and a line end.
fn plain(code: u16, text: &str) -> Response {
    Response::bytes(code, "text/plain; charset=utf-8", format!("{text}\n"))
}

/// Answers one request, with the headers every answer has: no caching, no sniffing, and no
/// framing but by the server's own pages (a framed review page carries its secret: clicks
/// through an invisible frame on another site could tune and save a curve file).
fn answer(
    request: &Request,
    root: &Served,
    addr: SocketAddr,
    status: &Mutex<Status>,
    tune: Option<&Tuner>,
) -> Response {
    let response = match tune.zip(request.target.strip_prefix(super::tune::TUNE_PREFIX)) {
        Some((tune, what)) => tune_answer(request, tune, what, addr),
        None => file_answer(request, root, addr, status, tune),
    };
    response
        .with_header("Cache-Control", "no-store")
        .with_header("X-Content-Type-Options", "nosniff")
        .with_header("X-Frame-Options", "SAMEORIGIN")
        .with_header("Content-Security-Policy", "frame-ancestors 'self'")
}

/// The output folder served: absolute, and as given when relative (from the working folder at
/// the start), where a symbolic link planted in the working folder could lead anywhere.
#[derive(Debug, Clone)]
struct Served {
    absolute: PathBuf,
    relative: Option<(PathBuf, PathBuf)>,
}

impl Served {
    fn new(root: &Path) -> io::Result<Self> {
        Ok(Self {
            absolute: std::path::absolute(root)?,
            relative: match root.is_relative() {
                true => Some((std::env::current_dir()?, root.to_owned())),
                false => None,
            },
        })
    }

    /// The first symbolic link on the way to a relative folder, now: as a bake refuses to
    /// write through one, the server refuses to serve through one (it may be planted while
    /// it serves).
    fn link(&self) -> Option<PathBuf> {
        let (base, relative) = self.relative.as_ref()?;
        crate::output::write::first_link(base, relative)
    }
}

/// Answers a request for a file of the output folder or for the status document.
fn file_answer(
    request: &Request,
    served: &Served,
    addr: SocketAddr,
    status: &Mutex<Status>,
    tune: Option<&Tuner>,
) -> Response {
    if !matches!(request.method.as_str(), "GET" | "HEAD") {
        return plain(405, "only GET and HEAD").with_header("Allow", "GET, HEAD");
    }
    if (request.header("Host")).is_some_and(|h| !host_is_local(h, addr.port())) {
        return plain(403, "this server answers only to 127.0.0.1");
    }
    let url = request.target.as_str();
    let path = url.split(['?', '#']).next();
    if path == Some(STATUS_PATH) || path == Some(CARDS_PATH) {
        let status = status.lock().unwrap_or_else(|e| e.into_inner());
        let json = if path == Some(STATUS_PATH) {
            &status.json
        } else {
            &status.cards_json
        };
        return Response::bytes(200, "application/json", json.clone());
    }
    if served.link().is_some() {
        return plain(
            403,
            "the output folder is reached through a symbolic link: not served",
        );
    }
    let Ok(root) = served.absolute.canonicalize() else {
        return plain(404, "the output folder does not exist (yet)");
    };
    match resolve(&root, url) {
        Ok(path) if tune.is_some() && path.file_name() == Some("index.html".as_ref()) => {
            match (std::fs::read(&path), tune) {
                (Ok(html), Some(tune)) => {
                    Response::bytes(200, content_type(&path), tune.page_with_secret(&html))
                }
                _ => plain(404, "not found"),
            }
        }
        Ok(path) => std::fs::File::open(&path)
            .ok()
            .and_then(|file| Response::file(file, content_type(&path)))
            .unwrap_or_else(|| plain(404, "not found")),
        Err(refusal) => plain(
            refusal.status(),
            match refusal {
                Refusal::BadRequest => "bad request",
                Refusal::Forbidden => "outside the output folder",
                Refusal::NotFound => "not found",
            },
        ),
    }
}

/// Answers a tuning request (`what`: the path after [`super::tune::TUNE_PREFIX`]) with JSON:
/// the answer, or `{"error": reason}` with the refusal's status.
fn tune_answer(request: &Request, tune: &Tuner, what: &str, addr: SocketAddr) -> Response {
    if what == super::tune::PAGE_SCRIPT.0 && request.method == "GET" {
        return Response::bytes(
            200,
            "text/javascript; charset=utf-8",
            super::tune::PAGE_SCRIPT.1,
        );
    }
    let mut body = &request.body[..];
    let (code, json) = match tune.answer(what, &request.method, &request.headers, &mut body, addr) {
        Ok(value) => (200, value),
        Err(refusal) => (
            refusal.status,
            serde_json::json!({ "error": refusal.reason }),
        ),
    };
    Response::bytes(code, "application/json", json.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("out");
        std::fs::create_dir_all(root.join("css")).unwrap();
        std::fs::write(root.join("index.html"), "page").unwrap();
        std::fs::write(root.join("css/a b.css"), "css").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "secret").unwrap();
        let root = root.canonicalize().unwrap();
        (dir, root)
    }

    #[test]
    fn files_under_the_root_resolve() {
        let (_dir, root) = tree();
        assert_eq!(resolve(&root, "/"), Ok(root.join("index.html")));
        assert_eq!(
            resolve(&root, "/index.html?g=3#x"),
            Ok(root.join("index.html"))
        );
        assert_eq!(
            resolve(&root, "/css/a%20b.css"),
            Ok(root.join("css/a b.css"))
        );
        assert_eq!(
            resolve(&root, "//css//a%20b.css"),
            Ok(root.join("css/a b.css"))
        );
        assert_eq!(resolve(&root, "/css/"), Err(Refusal::NotFound));
        assert_eq!(resolve(&root, "/nothing.css"), Err(Refusal::NotFound));
    }

    #[test]
    fn paths_out_of_the_root_are_refused() {
        let (_dir, root) = tree();
        for target in [
            "/../secret.txt",
            "/css/../../secret.txt",
            "/%2e%2e/secret.txt",
            "/%2E%2E/secret.txt",
            "/.%2e/secret.txt",
            "/css%2f..%2f..%2fsecret.txt",
            "/..%5csecret.txt",
            "/css/..",
            "/./index.html",
            "/index.html%00.png",
        ] {
            assert_eq!(resolve(&root, target), Err(Refusal::Forbidden), "{target}");
        }
        for target in [
            "/%zz",
            "/%2",
            "/%ff%fe",
            "secret.txt",
            "http://x/index.html",
        ] {
            assert_eq!(resolve(&root, target), Err(Refusal::BadRequest), "{target}");
        }
        // Decoded once: `%252e%252e` is a file literally named `%2e%2e`, which is not there.
        assert_eq!(
            resolve(&root, "/%252e%252e/secret.txt"),
            Err(Refusal::NotFound)
        );
    }

    #[cfg(unix)]
    #[test]
    fn symbolic_links_out_of_the_root_are_refused() {
        let (dir, root) = tree();
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("leak.txt")).unwrap();
        std::os::unix::fs::symlink(dir.path(), root.join("up")).unwrap();
        std::os::unix::fs::symlink(root.join("index.html"), root.join("alias.html")).unwrap();
        assert_eq!(resolve(&root, "/leak.txt"), Err(Refusal::Forbidden));
        assert_eq!(resolve(&root, "/up/secret.txt"), Err(Refusal::Forbidden));
        assert_eq!(resolve(&root, "/alias.html"), Ok(root.join("index.html")));
    }

    /// A relative output folder that is (or becomes, while served) a link in the working
    /// folder is not served, as a bake does not write through one; an absolute one is served
    /// as given.
    #[cfg(unix)]
    #[test]
    fn an_output_folder_reached_through_a_symbolic_link_is_not_served() {
        let (dir, _) = tree();
        std::os::unix::fs::symlink(dir.path().join("out"), dir.path().join("linked")).unwrap();
        let status = Mutex::new(Status {
            generation: 0,
            json: String::new(),
            page: None,
            cards_json: String::new(),
        });
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, 1));
        let get = |served: &Served| {
            let request = Request {
                method: "GET".into(),
                target: "/index.html".into(),
                headers: Vec::new(),
                body: Vec::new(),
            };
            file_answer(&request, served, addr, &status, None).status
        };
        let relative = |name: &str| Served {
            absolute: dir.path().join(name),
            relative: Some((dir.path().to_owned(), PathBuf::from(name))),
        };
        assert_eq!(get(&relative("out")), 200);
        assert_eq!(get(&relative("linked")), 403);
        let absolute = Served {
            absolute: dir.path().join("linked"),
            relative: None,
        };
        assert_eq!(get(&absolute), 200);
    }
}
