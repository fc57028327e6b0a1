//! `curvebake watch --serve=0` run on a project folder, for the tests of the live review
//! page and of tuning.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// `curvebake watch --serve=0` running in `dir`, and the address it printed.
pub struct Watch {
    child: Child,
    /// Where it serves.
    pub addr: SocketAddr,
    /// What it prints after the address (kept, so that its reader thread runs on).
    _lines: mpsc::Receiver<String>,
}

impl Watch {
    /// Starts it in `dir` (`curves/` into `out/`, JSON, CSS and the page) and waits until it
    /// says where it serves.
    pub fn start(dir: &Path) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_curvebake"))
            .current_dir(dir)
            .args([
                "watch",
                "curves",
                "--out",
                "out",
                "--formats",
                "json,css,html",
            ])
            .args(["--debounce", "50", "--serve=0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let (tx, lines) = mpsc::channel();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let deadline = Instant::now() + Duration::from_secs(60);
        let addr = loop {
            let line = lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                .expect("watch --serve prints where it serves");
            if let Some(rest) = line.strip_prefix("serving out at http://") {
                let addr = rest.split('/').next().unwrap();
                break addr.parse().expect("an address");
            }
        };
        Self {
            child,
            addr,
            _lines: lines,
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
