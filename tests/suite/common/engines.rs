//! Three browser engines for integration tests: Chromium (Blink), Firefox ESR (Gecko) and
//! WebKitGTK's MiniBrowser (WebKit), all Debian packages, driven without node or WebDriver.
//!
//! # Finding the engines
//!
//! [`engines`] returns every engine found: `$CURVEBAKE_CHROMIUM` or `chromium` (and its other
//! names) on `PATH`; `$CURVEBAKE_FIREFOX` or `firefox-esr` / `firefox`; `$CURVEBAKE_WEBKIT` or
//! WebKitGTK 4.1's `MiniBrowser`, with `Xvfb` on `PATH` (WebKitGTK has no headless mode). For
//! each engine that is missing it prints (to stderr, past the test harness's capture) that the
//! engine was skipped and why, and with `CURVEBAKE_REQUIRE_BROWSER=1` (CI sets it) it panics
//! instead, so a missing engine fails there.
//!
//! # The page protocol
//!
//! The test writes its page into a folder; [`Engine::run`] serves that folder on
//! `127.0.0.1` (a free port; `GET` of files only, anything after `?` ignored) and opens the
//! page. The page puts [`HARNESS_HEAD`] first in its `<head>`, does its work (pausing and
//! seeking animations, reading `getComputedStyle`), and calls `cbReport(result)`, which
//! `POST`s `{result, errors}` back. `errors` lists uncaught errors, unhandled rejections,
//! `console.error` calls and resources that failed to load; an uncaught error also reports at
//! once (with a `null` result), so a broken page fails fast instead of timing out. The
//! browser is then ended with its whole process group (and, for WebKit, its own Xvfb), so
//! every run starts from a fresh profile and leaves nothing behind.
//!
//! Reduced motion ([`RunOptions::reduced_motion`]) is set the way each engine offers it:
//! Chromium's `--force-prefers-reduced-motion`, Firefox's pref `ui.prefersReducedMotion = 1`,
//! and for WebKitGTK the GTK setting `gtk-enable-animations=0` in a fresh
//! `$XDG_CONFIG_HOME/gtk-3.0/settings.ini` (WebKitGTK derives `prefers-reduced-motion` from
//! it). The page can check `matchMedia("(prefers-reduced-motion: reduce)")` and report it.

use super::chromium::{browser_required, find_chromium, REQUIRE_ENV};
use serde_json::Value;
use std::fs::File;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// The three engines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Chromium,
    Firefox,
    WebKit,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Chromium, Kind::Firefox, Kind::WebKit];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Chromium => "Chromium",
            Kind::Firefox => "Firefox",
            Kind::WebKit => "WebKit",
        }
    }

    fn env(self) -> &'static str {
        match self {
            Kind::Chromium => "CURVEBAKE_CHROMIUM",
            Kind::Firefox => "CURVEBAKE_FIREFOX",
            Kind::WebKit => "CURVEBAKE_WEBKIT",
        }
    }

    fn package(self) -> &'static str {
        match self {
            Kind::Chromium => "chromium",
            Kind::Firefox => "firefox-esr",
            Kind::WebKit => "libwebkit2gtk-4.1-0 xvfb xauth",
        }
    }
}

/// Where Debian puts WebKitGTK 4.1's MiniBrowser.
const MINIBROWSER: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    "/usr/libexec/webkit2gtk-4.1/MiniBrowser",
];

/// An engine found on this machine.
#[derive(Debug, Clone)]
pub struct Engine {
    pub kind: Kind,
    pub binary: PathBuf,
}

fn on_path(names: &[&str]) -> Option<PathBuf> {
    let dirs = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&dirs)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// The engine's binary, or why there is none.
fn find(kind: Kind) -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os(kind.env()) {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(format!(
                "${} = {} is not a file",
                kind.env(),
                path.display()
            ))
        };
    }
    match kind {
        Kind::Chromium => find_chromium().ok_or_else(|| "chromium is not on PATH".to_owned()),
        Kind::Firefox => on_path(&["firefox-esr", "firefox"])
            .ok_or_else(|| "neither firefox-esr nor firefox is on PATH".to_owned()),
        Kind::WebKit => {
            let browser = MINIBROWSER
                .iter()
                .map(PathBuf::from)
                .find(|p| p.is_file())
                .ok_or_else(|| format!("no MiniBrowser at {}", MINIBROWSER.join(", ")))?;
            on_path(&["Xvfb"]).ok_or_else(|| "Xvfb is not on PATH".to_owned())?;
            Ok(browser)
        }
    }
}

/// The failures `check` finds in each of `engines`, each named by its engine; panics listing
/// them all if there is any.
pub fn assert_none_fails(engines: &[Engine], check: impl Fn(&Engine) -> Vec<String>) {
    let failures: Vec<String> = (engines.iter())
        .flat_map(|engine| {
            let name = engine.name();
            check(engine)
                .into_iter()
                .map(move |f| format!("{name}: {f}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every engine on this machine. For each missing one, prints that the calling test skips it
/// and why, or panics when `CURVEBAKE_REQUIRE_BROWSER=1`.
pub fn engines() -> Vec<Engine> {
    let test = std::thread::current()
        .name()
        .unwrap_or("browser test")
        .to_owned();
    let mut found = Vec::new();
    for kind in Kind::ALL {
        match find(kind) {
            Ok(binary) => found.push(Engine { kind, binary }),
            Err(why) => {
                let hint = format!(
                    "install it (Debian: apt-get install {}) or set {}",
                    kind.package(),
                    kind.env()
                );
                if browser_required() {
                    panic!(
                        "{test}: {} is required ({REQUIRE_ENV}=1) but {why}; {hint}",
                        kind.name()
                    );
                }
                // Straight to stderr: a skip must show in a plain `cargo test`.
                let _ = writeln!(
                    std::io::stderr(),
                    "SKIPPED {test} in {}: {why}; {hint}. Set {REQUIRE_ENV}=1 to make this a failure.",
                    kind.name()
                );
            }
        }
    }
    found
}

/// How to run a page.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Ask the engine for `prefers-reduced-motion: reduce`.
    pub reduced_motion: bool,
    /// Viewport size in CSS pixels.
    pub window: (u32, u32),
    /// End the browser (and fail) if the page has not reported by then.
    pub timeout: Duration,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            reduced_motion: false,
            window: (1280, 800),
            timeout: Duration::from_secs(90),
        }
    }
}

/// What a page reported.
#[derive(Debug)]
pub struct Outcome {
    /// The value the page passed to `cbReport` (`null` if an uncaught error came first).
    pub result: Value,
    /// Errors the page recorded (see the module's documentation).
    pub errors: Vec<String>,
    /// From starting the browser to the report.
    pub elapsed: Duration,
}

/// `<script>` to put first in a test page's `<head>`: records errors and defines
/// `cbReport(result)`.
pub const HARNESS_HEAD: &str = r#"<script>
(() => {
  const errors = [];
  let sent = false;
  const post = (result) => {
    if (sent) return;
    sent = true;
    const body = JSON.stringify({ result, errors });
    fetch("/report", { method: "POST", body, headers: { "content-type": "text/plain" } });
  };
  window.cbReport = post;
  addEventListener("error", (e) => {
    const t = e.target;
    if (t && t !== window && (t.src || t.href)) {
      errors.push("failed to load " + (t.src || t.href));
    } else {
      errors.push(String(e.message) + " at " + e.filename + ":" + e.lineno);
      post(null);
    }
  }, true);
  addEventListener("unhandledrejection", (e) => { errors.push("unhandled rejection: " + e.reason); post(null); });
  const error = console.error.bind(console);
  console.error = (...args) => { errors.push(args.map(String).join(" ")); error(...args); };
})();
</script>"#;

impl Engine {
    pub fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// Serves `root`, opens `page` (a path under it) and returns what the page reported.
    /// Panics, with the end of the browser's log, if the browser cannot start, exits early,
    /// or the page does not report within the timeout.
    pub fn run(&self, root: &Path, page: &str, options: &RunOptions) -> Outcome {
        let server = Server::start(root);
        let url = format!("http://127.0.0.1:{}/{page}", server.port);
        let scratch = tempfile::tempdir().expect("a temporary folder");
        let log_path = scratch.path().join("log");
        let log = || File::create(&log_path).expect("a temporary file");
        let mut xvfb = None;
        let mut command = match self.kind {
            Kind::Chromium => self.chromium(scratch.path(), options),
            Kind::Firefox => self.firefox(scratch.path(), options),
            Kind::WebKit => {
                let (x, display) = start_xvfb(scratch.path(), options.window);
                xvfb = Some(x);
                self.webkit(scratch.path(), &display, options)
            }
        };
        command
            .arg(&url)
            .stdin(Stdio::null())
            .stdout(log())
            .stderr(log());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own process group, so that the browser's helpers end with it.
            command.process_group(0);
        }
        let started = Instant::now();
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.binary.display()));
        let report = loop {
            match server.reports.recv_timeout(Duration::from_millis(50)) {
                Ok(body) => break Ok(body),
                Err(mpsc::RecvTimeoutError::Disconnected) => break Err("the server stopped"),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if started.elapsed() > options.timeout {
                break Err("the page did not report in time");
            }
            if let Ok(Some(status)) = child.try_wait() {
                // Firefox and MiniBrowser may hand the page to a process that outlives this one.
                if !status.success() {
                    break Err("the browser exited before the page reported");
                }
            }
        };
        let elapsed = started.elapsed();
        end_group(&mut child);
        if let Some(mut x) = xvfb {
            end_group(&mut x);
        }
        let body = report.unwrap_or_else(|why| {
            let log = std::fs::read_to_string(&log_path).unwrap_or_default();
            panic!(
                "{} on {url}: {why} ({:.1} s); its log ends:\n{}",
                self.name(),
                elapsed.as_secs_f64(),
                tail(&log, 40)
            )
        });
        let mut report: Value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("{}: the page's report is not JSON ({e})", self.name()));
        let errors = serde_json::from_value(report["errors"].take()).unwrap_or_default();
        Outcome {
            result: report["result"].take(),
            errors,
            elapsed,
        }
    }

    fn chromium(&self, scratch: &Path, options: &RunOptions) -> Command {
        let mut command = Command::new(&self.binary);
        command.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--disable-extensions",
            "--disable-dev-shm-usage",
            "--mute-audio",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ]);
        command.arg(format!(
            "--user-data-dir={}",
            scratch.join("profile").display()
        ));
        command.arg(format!(
            "--window-size={},{}",
            options.window.0, options.window.1
        ));
        if options.reduced_motion {
            command.arg("--force-prefers-reduced-motion");
        }
        command
    }

    fn firefox(&self, scratch: &Path, options: &RunOptions) -> Command {
        let profile = scratch.join("profile");
        std::fs::create_dir_all(&profile).expect("a temporary folder");
        let mut prefs = String::from(FIREFOX_PREFS);
        if options.reduced_motion {
            prefs.push_str("user_pref(\"ui.prefersReducedMotion\", 1);\n");
        }
        std::fs::write(profile.join("user.js"), prefs).expect("a temporary file");
        let mut command = Command::new(&self.binary);
        command
            .env("MOZ_HEADLESS", "1")
            .env("MOZ_CRASHREPORTER_DISABLE", "1")
            .args(["--headless", "--no-remote", "--new-instance", "--profile"])
            .arg(&profile)
            .arg(format!(
                "--window-size={},{}",
                options.window.0, options.window.1
            ));
        command
    }

    fn webkit(&self, scratch: &Path, display: &str, options: &RunOptions) -> Command {
        let config = scratch.join("config");
        let gtk = config.join("gtk-3.0");
        std::fs::create_dir_all(&gtk).expect("a temporary folder");
        let animations = if options.reduced_motion { 0 } else { 1 };
        std::fs::write(
            gtk.join("settings.ini"),
            format!("[Settings]\ngtk-enable-animations={animations}\n"),
        )
        .expect("a temporary file");
        let mut command = Command::new(&self.binary);
        command
            .env("DISPLAY", display)
            .env("GDK_BACKEND", "x11")
            .env("WEBKIT_DISABLE_COMPOSITING_MODE", "1")
            .env("NO_AT_BRIDGE", "1")
            .env("XDG_CONFIG_HOME", &config)
            .env("XDG_CACHE_HOME", scratch.join("cache"))
            .env("XDG_DATA_HOME", scratch.join("data"))
            .arg("--private");
        command
    }
}

/// A fresh Firefox profile's `user.js`: no first run, telemetry, updates, safe browsing or
/// remote settings (which cost seconds on a closed network), and no cache of the test's files.
const FIREFOX_PREFS: &str = r#"user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("browser.aboutwelcome.enabled", false);
user_pref("startup.homepage_welcome_url", "about:blank");
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("datareporting.healthreport.uploadEnabled", false);
user_pref("toolkit.telemetry.enabled", false);
user_pref("toolkit.telemetry.unified", false);
user_pref("app.update.enabled", false);
user_pref("app.update.auto", false);
user_pref("app.normandy.enabled", false);
user_pref("extensions.update.enabled", false);
user_pref("browser.safebrowsing.malware.enabled", false);
user_pref("browser.safebrowsing.phishing.enabled", false);
user_pref("browser.safebrowsing.downloads.enabled", false);
user_pref("browser.safebrowsing.provider.mozilla.updateURL", "");
user_pref("services.settings.server", "data:,");
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
user_pref("browser.cache.disk.enable", false);
user_pref("browser.cache.memory.enable", false);
user_pref("dom.disable_open_during_load", false);
user_pref("privacy.reduceTimerPrecision", false);
user_pref("privacy.reduceTimerPrecision.unconditional", false);
"#;

/// Starts `Xvfb` on a free display (it writes the display's number to its standard output,
/// `-displayfd 1`, here a file); returns it and `:N`.
fn start_xvfb(scratch: &Path, window: (u32, u32)) -> (Child, String) {
    let number_path = scratch.join("display");
    let mut command = Command::new("Xvfb");
    command
        .args(["-displayfd", "1", "-nolisten", "tcp", "-screen", "0"])
        .arg(format!("{}x{}x24", window.0.max(1280), window.1.max(1024)))
        .stdin(Stdio::null())
        .stdout(File::create(&number_path).expect("a temporary file"))
        .stderr(File::create(scratch.join("xvfb-log")).expect("a temporary file"));
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut child = command.spawn().expect("Xvfb starts");
    let started = Instant::now();
    loop {
        let text = std::fs::read_to_string(&number_path).unwrap_or_default();
        if text.ends_with('\n') {
            return (child, format!(":{}", text.trim()));
        }
        if started.elapsed() > Duration::from_secs(20) || matches!(child.try_wait(), Ok(Some(_))) {
            end_group(&mut child);
            let log = std::fs::read_to_string(scratch.join("xvfb-log")).unwrap_or_default();
            panic!("Xvfb gave no display; its log ends:\n{}", tail(&log, 20));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Ends a child and its process group (its id is the group's, and stays reserved while the
/// child is unreaped), then reaps it.
fn end_group(child: &mut Child) {
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

fn tail(log: &str, lines: usize) -> String {
    let all: Vec<&str> = log.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// A local HTTP/1.1 server of one folder for one page run: `GET` serves files (and nothing
/// outside the folder), `POST /report` hands its body to [`Server::reports`]. One thread per
/// connection, as browsers open several (some idle); it stops when dropped.
struct Server {
    port: u16,
    reports: mpsc::Receiver<String>,
    stop: Arc<AtomicBool>,
}

impl Server {
    fn start(root: &Path) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a local port");
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let (send, reports) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let root = root.to_owned();
        let stopped = stop.clone();
        std::thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let (root, send) = (root.clone(), send.clone());
                        std::thread::spawn(move || {
                            let _ = serve(stream, &root, &send);
                        });
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Self {
            port,
            reports,
            stop,
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// Answers the requests of one connection (keep-alive) until it closes.
fn serve(stream: TcpStream, root: &Path, reports: &mpsc::Sender<String>) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(120)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut out = stream;
    loop {
        let mut request = String::new();
        if reader.read_line(&mut request)? == 0 {
            return Ok(());
        }
        let mut length = 0usize;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header)? == 0 {
                return Ok(());
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body)?;
        let mut words = request.split_whitespace();
        let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or("/"));
        let path = target.split(['?', '#']).next().unwrap_or("/");
        let (status, kind, content) = match method {
            "POST" if path == "/report" => {
                let _ = reports.send(String::from_utf8_lossy(&body).into_owned());
                ("204 No Content", "text/plain", Vec::new())
            }
            "GET" | "HEAD" => {
                let relative = path.trim_start_matches('/');
                let file = root.join(relative);
                let inside = !relative.split('/').any(|c| c == ".." || c.contains('\\'));
                match std::fs::read(&file) {
                    Ok(bytes) if inside => ("200 OK", content_type(&file), bytes),
                    _ => ("404 Not Found", "text/plain", b"not found".to_vec()),
                }
            }
            _ => ("405 Method Not Allowed", "text/plain", Vec::new()),
        };
        write!(
            out,
            "HTTP/1.1 {status}\r\ncontent-type: {kind}\r\ncontent-length: {}\r\ncache-control: no-store\r\n\r\n",
            content.len()
        )?;
        if method != "HEAD" {
            out.write_all(&content)?;
        }
        out.flush()?;
    }
}
