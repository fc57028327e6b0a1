//! Headless Chromium for integration tests, without node or a WebDriver: Chromium is run
//! once per page, on the command line, and the page hands its results back through the DOM.
//!
//! # Finding Chromium
//!
//! [`chromium`] looks at `$CURVEBAKE_CHROMIUM`, then for `chromium`, `chromium-browser`,
//! `google-chrome` and `google-chrome-stable` on `PATH`. If there is none, a test should skip:
//!
//! ```ignore
//! let Some(browser) = common::chromium::chromium() else { return };
//! ```
//!
//! [`chromium`] prints (to stderr, past the test harness's capture) that the test was skipped
//! and why, so it never passes silently, and it panics instead when `CURVEBAKE_REQUIRE_BROWSER=1` (CI sets it), so a
//! missing browser fails there.
//!
//! # The page protocol
//!
//! A page does its work synchronously while it loads (a `<script>` at the end of `<body>`;
//! stylesheets before it are loaded first, as they block scripts), and writes its result as
//! JSON into an element, e.g. `<pre id="result">`. [`dump_dom`] runs
//! `chromium --headless --dump-dom file:///...`, which prints the DOM after the load event,
//! and [`element_json`] parses the result back out. Pages that need timers or animation
//! frames can give [`Options::virtual_time_budget_ms`], which lets virtual time run that far
//! before the DOM is dumped.
//!
//! Errors come back two ways: every console message of the page, from Chromium's log
//! (`--enable-logging=stderr`), is in [`PageRun::console`] (Chromium logs them all at the
//! same level, so `console.log` and errors look alike there); and a page that puts
//! [`CAPTURE_ERRORS`] first in its `<head>` records uncaught errors, unhandled rejections,
//! `console.error` calls and resources that failed to load in an element that
//! [`page_errors`] reads.
//!
//! Every run gets a fresh profile (`--user-data-dir` in a temporary folder), and is killed
//! with its whole process group if it takes longer than [`Options::timeout`], so a test can
//! never hang on the browser.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// When this environment variable is `1`, a missing Chromium fails the test.
pub const REQUIRE_ENV: &str = "CURVEBAKE_REQUIRE_BROWSER";

/// Environment variable naming the Chromium binary to use, instead of searching `PATH`.
pub const CHROMIUM_ENV: &str = "CURVEBAKE_CHROMIUM";

/// Names searched for on `PATH`, in order.
pub const NAMES: &[&str] = &[
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
];

/// Whether `CURVEBAKE_REQUIRE_BROWSER=1` asks for missing browsers to fail tests.
pub fn browser_required() -> bool {
    std::env::var(REQUIRE_ENV).is_ok_and(|v| v.trim() == "1")
}

/// The Chromium binary, if there is one (no side effects; see [`chromium`]).
pub fn find_chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(CHROMIUM_ENV) {
        let path = PathBuf::from(path);
        return path.is_file().then_some(path);
    }
    let dirs = std::env::var_os("PATH")?;
    NAMES.iter().find_map(|name| {
        std::env::split_paths(&dirs)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// The Chromium binary for a browser test. Without one, prints that the calling test is
/// skipped and why, and returns `None`, or panics when [`REQUIRE_ENV`] is `1`.
pub fn chromium() -> Option<PathBuf> {
    let found = find_chromium();
    if found.is_none() {
        let test = std::thread::current()
            .name()
            .unwrap_or("browser test")
            .to_owned();
        let why = match std::env::var_os(CHROMIUM_ENV) {
            Some(p) => format!(
                "${CHROMIUM_ENV} = {} is not a file",
                Path::new(&p).display()
            ),
            None => format!("none of {} is on PATH", NAMES.join(", ")),
        };
        if browser_required() {
            panic!("{test}: headless Chromium is required ({REQUIRE_ENV}=1) but {why}; install it (Debian: apt-get install chromium) or set {CHROMIUM_ENV}");
        }
        // Straight to stderr: the test harness captures `eprintln!` of passing tests, and a
        // skip must show in a plain `cargo test`.
        let _ = writeln!(std::io::stderr(), "SKIPPED {test}: headless Chromium not found ({why}); install it (Debian: apt-get install chromium) or set {CHROMIUM_ENV}. Set {REQUIRE_ENV}=1 to make this a failure.");
    }
    found
}

/// What Chromium does with the page.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Print the DOM after the page has loaded (`--dump-dom`), into [`PageRun::stdout`].
    DumpDom,
    /// Save a PNG of the viewport (`--screenshot`).
    Screenshot(PathBuf),
}

/// How to run a page.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// What to do with the page.
    pub action: Action,
    /// Viewport size in CSS pixels (device scale factor 1).
    pub window: (u32, u32),
    /// Kill Chromium (and its process group) after this long.
    pub timeout: Duration,
    /// Let virtual time run this many milliseconds (timers, animation frames) before the
    /// action; `None` for pages that finish while loading.
    pub virtual_time_budget_ms: Option<u64>,
    /// More command-line switches.
    pub extra_args: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            action: Action::DumpDom,
            window: (1280, 800),
            timeout: Duration::from_secs(60),
            virtual_time_budget_ms: None,
            extra_args: Vec::new(),
        }
    }
}

/// One console message of a page, as Chromium logged it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsoleMessage {
    /// The message.
    pub text: String,
    /// Its source (URL and line), as logged.
    pub source: String,
}

/// What a run of Chromium left behind.
#[derive(Debug, Clone)]
pub struct PageRun {
    /// Standard output: the serialized DOM for [`Action::DumpDom`].
    pub stdout: String,
    /// Standard error: Chromium's log.
    pub stderr: String,
    /// The page's console messages, in order.
    pub console: Vec<ConsoleMessage>,
    /// Wall time of the run.
    pub elapsed: Duration,
}

/// The `file://` URL of a local file (made absolute; bytes outside `[A-Za-z0-9/._~-]`
/// percent-encoded).
pub fn file_url(path: &Path) -> String {
    let path = std::path::absolute(path).expect("the current directory is readable");
    let mut url = String::from("file://");
    for &b in path.to_string_lossy().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/._~-".contains(&b) {
            url.push(b as char);
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url
}

/// A headless Chromium command with a fresh profile under `scratch`, its log (console
/// messages included) going to `stderr_path`, in its own process group.
fn command(chromium: &Path, scratch: &Path, window: (u32, u32), stderr_path: &Path) -> Command {
    let mut command = Command::new(chromium);
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--disable-dev-shm-usage",
        "--mute-audio",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        "--enable-logging=stderr",
        "--v=0",
    ]);
    command.arg(format!(
        "--user-data-dir={}",
        scratch.join("profile").display()
    ));
    command.arg(format!("--window-size={},{}", window.0, window.1));
    command
        .stdin(Stdio::null())
        .stderr(File::create(stderr_path).expect("a temporary file"));
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Its own process group, so that the browser's helpers can be ended with it.
        command.process_group(0);
    }
    command
}

/// Runs Chromium on a local page. Panics, with the end of Chromium's log, if it cannot start,
/// fails, or runs past the timeout (it is then killed with its process group).
pub fn run_page(chromium: &Path, page: &Path, options: &Options) -> PageRun {
    let scratch = tempfile::tempdir().expect("a temporary folder");
    let stdout_path = scratch.path().join("stdout");
    let stderr_path = scratch.path().join("stderr");
    let mut command = command(chromium, scratch.path(), options.window, &stderr_path);
    if let Some(ms) = options.virtual_time_budget_ms {
        command.arg(format!("--virtual-time-budget={ms}"));
    }
    match &options.action {
        Action::DumpDom => {
            command.arg("--dump-dom");
        }
        Action::Screenshot(png) => {
            let png = std::path::absolute(png).expect("the current directory is readable");
            command.arg(format!("--screenshot={}", png.display()));
        }
    }
    command.args(&options.extra_args);
    command.arg(file_url(page));
    command.stdout(File::create(&stdout_path).expect("a temporary file"));
    let started = Instant::now();
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromium.display()));
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for Chromium") {
            break status;
        }
        if started.elapsed() > options.timeout {
            kill_group(&mut child);
            let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
            panic!(
                "Chromium ran longer than {:?} on {} and was killed; its log ends:\n{}",
                options.timeout,
                page.display(),
                tail(&stderr, 40)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = started.elapsed();
    let stdout = std::fs::read_to_string(&stdout_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    assert!(
        status.success(),
        "Chromium failed ({status}) on {}; its log ends:\n{}",
        page.display(),
        tail(&stderr, 40)
    );
    let console = console_messages(&stderr);
    PageRun {
        stdout,
        stderr,
        console,
        elapsed,
    }
}

/// A page left open in a running Chromium (real time, no virtual clock), for pages that live
/// on: it reports through `console.log`, read back with [`LivePage::console`]. Dropping it ends
/// the browser with its process group.
pub struct LivePage {
    child: std::process::Child,
    stderr_path: PathBuf,
    _scratch: tempfile::TempDir,
}

impl LivePage {
    /// Opens `url` (any URL, e.g. `http://127.0.0.1:PORT/probe.html`) in a `window`-sized
    /// viewport.
    pub fn open(chromium: &Path, url: &str, window: (u32, u32)) -> Self {
        let scratch = tempfile::tempdir().expect("a temporary folder");
        let stderr_path = scratch.path().join("stderr");
        let mut command = command(chromium, scratch.path(), window, &stderr_path);
        command.arg(url).stdout(Stdio::null());
        let child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromium.display()));
        Self {
            child,
            stderr_path,
            _scratch: scratch,
        }
    }

    /// The page's console messages so far, in order.
    pub fn console(&self) -> Vec<ConsoleMessage> {
        console_messages(&std::fs::read_to_string(&self.stderr_path).unwrap_or_default())
    }

    /// The end of Chromium's log, for a failure message.
    pub fn log_tail(&self) -> String {
        tail(
            &std::fs::read_to_string(&self.stderr_path).unwrap_or_default(),
            40,
        )
    }
}

impl Drop for LivePage {
    fn drop(&mut self) {
        kill_group(&mut self.child);
    }
}

/// Kills a child that has not been waited for, with its process group (its id is the child's,
/// and stays reserved while the child is unreaped).
fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Log lines of a headless Chromium without a desktop session that say nothing about the
/// page (D-Bus, Bluetooth, screen saver, VA-API, the sandbox, the Debian wrapper script).
const NOISE: &[&str] = &[
    "dbus",
    "bluez",
    "idle_linux",
    "vaapi",
    "sandbox_linux",
    "/usr/bin/chromium: ",
];

/// The last `lines` lines of a log, without [`NOISE`].
fn tail(log: &str, lines: usize) -> String {
    let all: Vec<&str> = log
        .lines()
        .filter(|l| !NOISE.iter().any(|n| l.contains(n)))
        .collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Console messages in Chromium's log: lines like
/// `[...:INFO:CONSOLE:12] "message", source: file:///page.html (12)` (older versions write
/// `CONSOLE(12)]`).
pub fn console_messages(log: &str) -> Vec<ConsoleMessage> {
    log.lines()
        .filter_map(|line| {
            let at = line.find(":CONSOLE")?;
            let rest = &line[at..];
            let rest = &rest[rest.find("] ")? + 2..];
            let (text, source) = match rest.rfind(", source: ") {
                Some(i) => (&rest[..i], &rest[i + ", source: ".len()..]),
                None => (rest, ""),
            };
            let text = text
                .strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .unwrap_or(text);
            Some(ConsoleMessage {
                text: text.to_owned(),
                source: source.to_owned(),
            })
        })
        .collect()
}

/// Loads a page and returns its DOM after the load event (the page's scripts have run).
pub fn dump_dom(chromium: &Path, page: &Path) -> String {
    run_page(chromium, page, &Options::default()).stdout
}

/// Saves a `width` x `height` screenshot of a page as PNG at `out_png`; panics if none was
/// written.
pub fn screenshot(
    chromium: &Path,
    page: &Path,
    out_png: &Path,
    width: u32,
    height: u32,
) -> PageRun {
    let _ = std::fs::remove_file(out_png);
    let run = run_page(
        chromium,
        page,
        &Options {
            action: Action::Screenshot(out_png.to_owned()),
            window: (width, height),
            ..Options::default()
        },
    );
    assert!(
        out_png.is_file(),
        "Chromium wrote no screenshot of {}; its log ends:\n{}",
        page.display(),
        tail(&run.stderr, 40)
    );
    run
}

/// The text of the element with this `id` in a serialized DOM, with the escapes of HTML
/// serialization (`&amp;`, `&lt;`, `&gt;`, `&nbsp;`, `&quot;`) undone; `None` if there is no
/// such element. Meant for elements whose content the page set with `textContent`.
pub fn element_text(dom: &str, id: &str) -> Option<String> {
    let marker = format!(" id=\"{id}\"");
    let at = dom.find(&marker)?;
    let start = at + dom[at..].find('>')? + 1;
    let end = start + dom[start..].find("</")?;
    Some(
        dom[start..end]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&nbsp;", "\u{a0}")
            .replace("&quot;", "\"")
            .replace("&amp;", "&"),
    )
}

/// The JSON the page wrote into the element with this `id`; panics (showing the start of the
/// DOM) if it is missing or not JSON.
pub fn element_json(dom: &str, id: &str) -> serde_json::Value {
    let text = element_text(dom, id).unwrap_or_else(|| {
        panic!(
            "no element id={id:?} in the page's DOM (did its script run?):\n{}",
            &dom[..dom.len().min(2000)]
        )
    });
    serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "element id={id:?} does not hold JSON ({e}):\n{}",
            &text[..text.len().min(2000)]
        )
    })
}

/// Id of the element [`CAPTURE_ERRORS`] writes to.
pub const ERRORS_ID: &str = "curvebake-page-errors";

/// A `<script>` to put first in a page's `<head>`: it records uncaught errors, unhandled
/// promise rejections, `console.error` calls and resources (stylesheets, scripts, images)
/// that fail to load, as a JSON array of strings in `<pre id="curvebake-page-errors">`.
pub const CAPTURE_ERRORS: &str = r#"<script>
(() => {
  const errors = [];
  const show = () => {
    let el = document.getElementById("curvebake-page-errors");
    if (!el) {
      el = document.createElement("pre");
      el.id = "curvebake-page-errors";
      el.hidden = true;
      (document.body || document.documentElement).appendChild(el);
    }
    el.textContent = JSON.stringify(errors);
  };
  addEventListener("error", (e) => {
    const t = e.target;
    if (t && t !== window && (t.src || t.href)) {
      errors.push("failed to load " + (t.src || t.href));
    } else {
      errors.push(String(e.message) + " at " + e.filename + ":" + e.lineno);
    }
    show();
  }, true);
  addEventListener("unhandledrejection", (e) => { errors.push("unhandled rejection: " + e.reason); show(); });
  const error = console.error.bind(console);
  console.error = (...args) => { errors.push(args.map(String).join(" ")); show(); error(...args); };
  addEventListener("DOMContentLoaded", show);
})();
</script>"#;

/// What [`CAPTURE_ERRORS`] recorded in a dumped DOM (empty if it recorded nothing or the page
/// does not use it).
pub fn page_errors(dom: &str) -> Vec<String> {
    element_text(dom, ERRORS_ID)
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn console_lines_are_parsed() {
        let log = "[1:1:1122/045828.921878:INFO:CONSOLE:2] \"hello, source: x\", source: file:///p.html (2)\n\
                   [1:1:1122/045828.93:ERROR:dbus/bus.cc:405] noise\n\
                   [1:1:1122/0458:INFO:CONSOLE(7)] \"old\", source: file:///q.html (7)\n";
        let messages = console_messages(log);
        assert_eq!(messages.len(), 2);
        assert_eq!(messages[0].text, "hello, source: x");
        assert_eq!(messages[0].source, "file:///p.html (2)");
        assert_eq!(messages[1].text, "old");
    }

    #[test]
    fn element_text_undoes_escapes() {
        let dom = r#"<html><body><pre id="result">{"a":"&lt;b&gt; &amp;"}</pre></body></html>"#;
        assert_eq!(element_text(dom, "result").unwrap(), r#"{"a":"<b> &"}"#);
        assert_eq!(element_json(dom, "result")["a"], "<b> &");
        assert!(element_text(dom, "other").is_none());
    }

    #[test]
    fn file_urls_are_encoded() {
        assert_eq!(
            file_url(Path::new("/a b/c#d.html")),
            "file:///a%20b/c%23d.html"
        );
    }
}
