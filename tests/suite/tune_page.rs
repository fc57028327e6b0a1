//! Tuning in the review page under `curvebake watch --serve` (issue 30), end to end: the real
//! binary watching a project in a temporary folder, and headless Chromium driven by
//! playwright-core (`tune_page.mjs`) as a person would: a slider moved with the mouse changes
//! the preview, the plot and the figures; the overshoot handle dragged changes the spring;
//! Save changes the curve file in those numbers only (comments, layout, the other motion and
//! the CRLF line endings kept); a second tab's save of the same motion and a save after the
//! file was edited on disk are refused, the file left as it was. Requests without the secret,
//! from another `Origin`, with another `Host`, for a file outside the inputs, malformed or too
//! large are refused over raw HTTP, the files untouched.
//!
//! Needs node, playwright-core (`$CURVEBAKE_PLAYWRIGHT_CORE`, else
//! `${TMPDIR:-/tmp}/curvebake-js-tools/node_modules/playwright-core`, where `.ci/run` installs
//! it) and Chromium; skipped with a message without them, unless `CURVEBAKE_REQUIRE_BROWSER=1`
//! or `CURVEBAKE_REQUIRE_JS_TOOLS=1`. The refusals are checked either way.

use crate::common;
use common::watch::Watch;

use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The motion tuned: a comment, CRLF line endings, a number written `0.0`.
const CARD_DROP: &str = "// A card drops into place from above.\r\n(\r\n    name: \"card-drop\", // the card\r\n    property: \"translateY\",\r\n    motion: Spring(from: -240, to: 0.0, velocity: 0, mass: 1, stiffness: 220, damping: 18),\r\n)\r\n";

/// Another file, never touched.
const OTHERS: &str = "[\n    (name: \"press\", property: \"scale\", motion: Spring(from: 1, to: 0.94, perceptual_duration: 0.18, bounce: 0.2)),\n    (name: \"fling\", motion: Friction(from: 0, velocity: 1500, friction: 0.05)),\n    (name: \"tap\", property: \"scale\", motion: Spring(from: 1, to: 0.9, perceptual_duration: 0.2)),\n    (name: \"carousel\", motion: Inertia(from: 0, velocity: -1500, friction: 0.02, min: -1280, max: 0, snap: [0, -320, -640, -960, -1280])),\n]\n";

/// Request headers, name and value.
type Headers = Vec<(String, String)>;

/// One raw HTTP/1.1 request with these headers and body; the status code and the body.
fn request(addr: SocketAddr, head: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, String) {
    let answer = exchange(addr, head, headers, body);
    let code = (answer.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer:?}"));
    let body = (answer.split_once("\r\n\r\n"))
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (code, body)
}

/// The whole answer to one raw HTTP/1.1 request, status line and headers included.
fn exchange(addr: SocketAddr, head: &str, headers: &[(&str, &str)], body: &[u8]) -> String {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut text = format!("{head} HTTP/1.1\r\nConnection: close\r\n");
    for (k, v) in headers {
        text.push_str(&format!("{k}: {v}\r\n"));
    }
    text.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(text.as_bytes()).unwrap();
    let _ = stream.write_all(body);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("curves")).unwrap();
    std::fs::write(dir.path().join("curves/card-drop.ron"), CARD_DROP).unwrap();
    std::fs::write(dir.path().join("curves/others.ron"), OTHERS).unwrap();
    std::fs::write(dir.path().join("outside.ron"), CARD_DROP).unwrap();
    dir
}

/// The secret of the page as served (`<meta name="curvebake-tune" content="...">`).
fn secret(addr: SocketAddr) -> String {
    let host = addr.to_string();
    let (code, page) = request(addr, "GET /", &[("Host", &host)], b"");
    assert_eq!(code, 200);
    let at = page
        .find("<meta name=\"curvebake-tune\" content=\"")
        .expect("the served page carries the secret");
    page[at..].split('"').nth(3).unwrap().to_owned()
}

fn files(dir: &Path) -> [String; 3] {
    ["curves/card-drop.ron", "curves/others.ron", "outside.ron"]
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap())
}

#[test]
fn tuning_requests_without_the_secret_or_from_elsewhere_are_refused_and_touch_no_file() {
    let dir = project();
    let watch = Watch::start(dir.path());
    let addr = watch.addr;
    let (host, origin) = (addr.to_string(), format!("http://{addr}"));
    let secret = secret(addr);
    // The page on disk (what `file://` opens) holds no secret and no tuning script.
    let on_disk = std::fs::read_to_string(dir.path().join("out/index.html")).unwrap();
    assert!(!on_disk.contains("curvebake-tune"));
    let before = files(dir.path());
    let list =
        |headers: &[(&str, &str)]| request(addr, "POST /_curvebake/tune/motions", headers, b"{}");
    let good: Vec<(&str, &str)> = vec![
        ("Host", &host),
        ("Origin", &origin),
        ("Content-Type", "application/json"),
        ("X-Curvebake-Secret", &secret),
    ];
    let (code, body) = list(&good);
    assert_eq!(code, 200, "{body}");
    // No other site may frame the page (a framed page, clicked through, could save).
    let page = exchange(addr, "GET /", &[("Host", &host)], b"");
    let head = page.split("\r\n\r\n").next().unwrap().to_ascii_lowercase();
    for header in [
        "x-frame-options: sameorigin",
        "content-security-policy: frame-ancestors 'self'",
    ] {
        assert!(head.contains(header), "{header} missing in:\n{head}");
    }
    let motions: Value = serde_json::from_str(&body).unwrap();
    let hash = motions["motions"]["card-drop"]["hash"]
        .as_str()
        .unwrap()
        .to_owned();
    let save = |file: &str| {
        serde_json::json!({"file": file, "motion": "card-drop", "hash": hash,
            "values": {"motion.stiffness": 999}})
        .to_string()
    };
    let inside = save("curves/card-drop.ron");
    let but = |name: &str, value: Option<&'static str>| -> Headers {
        let mut h: Vec<(String, String)> = (good.iter())
            .filter(|(k, _)| *k != name)
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        if let Some(v) = value {
            h.push((name.into(), v.into()));
        }
        h
    };
    let large = " ".repeat(70_000);
    let cases: Vec<(&str, &str, Headers, String, u16)> = vec![
        (
            "no secret",
            "POST",
            but("X-Curvebake-Secret", None),
            inside.clone(),
            403,
        ),
        (
            "a wrong secret",
            "POST",
            but("X-Curvebake-Secret", Some("0123")),
            inside.clone(),
            403,
        ),
        (
            "another origin",
            "POST",
            but("Origin", Some("http://evil.example")),
            inside.clone(),
            403,
        ),
        (
            "another host",
            "POST",
            but("Host", Some("evil.example")),
            inside.clone(),
            403,
        ),
        (
            "a file outside the inputs",
            "POST",
            but("", None),
            save("outside.ron"),
            403,
        ),
        (
            "a path out of the inputs",
            "POST",
            but("", None),
            save("curves/../outside.ron"),
            403,
        ),
        (
            "malformed",
            "POST",
            but("", None),
            "{\"file\": [".into(),
            400,
        ),
        ("too large", "POST", but("", None), large, 413),
        ("a GET", "GET", but("", None), String::new(), 405),
    ];
    for (what, method, headers, body, status) in cases {
        let headers: Vec<(&str, &str)> = headers
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let (code, answer) = request(
            addr,
            &format!("{method} /_curvebake/tune/save"),
            &headers,
            body.as_bytes(),
        );
        assert_eq!(code, status, "{what}: {answer}");
        let reason: Value =
            serde_json::from_str(&answer).unwrap_or_else(|_| panic!("{what}: {answer}"));
        assert!(
            reason["error"].as_str().is_some_and(|r| r.len() > 10),
            "{what}: {answer}"
        );
        assert_eq!(
            files(dir.path()),
            before,
            "{what} left the files as they were"
        );
    }
    // And the same request, well formed, is taken: so the refusals above were for their reasons.
    let (code, answer) = request(addr, "POST /_curvebake/tune/save", &good, inside.as_bytes());
    assert_eq!(code, 200, "{answer}");
    assert_eq!(
        files(dir.path())[0],
        CARD_DROP.replace("stiffness: 220", "stiffness: 999")
    );
}

/// playwright-core's folder, or `None` (after saying why) when the browser test must skip.
fn playwright() -> Option<(PathBuf, PathBuf)> {
    let dir = std::env::var_os("CURVEBAKE_PLAYWRIGHT_CORE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            std::env::temp_dir().join("curvebake-js-tools/node_modules/playwright-core")
        });
    let required = ["CURVEBAKE_REQUIRE_BROWSER", "CURVEBAKE_REQUIRE_JS_TOOLS"]
        .iter()
        .any(|v| std::env::var(v).is_ok_and(|v| v.trim() == "1"));
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node || !dir.join("package.json").is_file() {
        let why = format!(
            "node or playwright-core ({}) missing: npm install --prefix \"${{TMPDIR:-/tmp}}/curvebake-js-tools\" playwright-core",
            dir.display()
        );
        assert!(!required, "{why}");
        eprintln!("SKIPPED tune_page: {why}");
        return None;
    }
    let chromium = common::chromium::chromium()?;
    Some((dir, chromium))
}

fn drive(tools: &(PathBuf, PathBuf), addr: SocketAddr, dir: &Path, scenario: &str) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suite/tune_page.mjs");
    let output = Command::new("node")
        .arg(script)
        .arg(&tools.0)
        .arg(&tools.1)
        .arg(format!("http://{addr}/"))
        .arg(dir)
        .arg(scenario)
        .stdin(Stdio::null())
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the page driver failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("the driver's JSON")
}

/// The file as it was, with each of `(field, number)` written in place of its number.
fn with_numbers(changes: &[(&str, f64)]) -> String {
    let mut text = CARD_DROP.to_owned();
    for (field, value) in changes {
        let start = text.find(&format!("{field}: ")).unwrap() + field.len() + 2;
        let end = start + text[start..].find([',', ')']).unwrap();
        text.replace_range(start..end, &value.to_string());
    }
    text
}

#[test]
fn a_person_tunes_a_spring_in_the_page_and_saves_it_into_the_file() {
    let Some(tools) = playwright() else { return };
    let dir = project();
    let watch = Watch::start(dir.path());
    let seen = drive(&tools, watch.addr, dir.path(), "person");
    assert_eq!(seen["errors"], serde_json::json!([]), "{seen}");
    // Every number of the motion as written has a slider and a field named as in the file.
    let names = serde_json::json!(["from", "to", "velocity", "mass", "stiffness", "damping"]);
    assert_eq!(seen["sliders"], names);
    assert_eq!(seen["fields"], names);

    // The figures are the spring's own peak (π/ωd, e^(-ζπ/√(1-ζ²))), not a frame's: for the
    // file's spring and for stiffness 400 typed in (the frames say 20.32 % at 0.1833 s), and
    // after Revert the same line as at the start.
    let peak = |k: f64, c: f64| {
        let zeta = c / (2.0 * k.sqrt());
        let wd = k.sqrt() * (1.0 - zeta * zeta).sqrt();
        let four = |x: f64| format!("{}", format!("{x:.3e}").parse::<f64>().unwrap());
        let fraction = (-zeta * std::f64::consts::PI / (1.0 - zeta * zeta).sqrt()).exp();
        format!(
            "overshoot {} % at {} s",
            four(100.0 * fraction),
            four(std::f64::consts::PI / wd)
        )
    };
    let figures = |v: &Value| v["figures"].as_str().unwrap().to_owned();
    assert!(
        figures(&seen["start"]).ends_with(&peak(220.0, 18.0)),
        "{}",
        seen["start"]
    );
    assert!(
        figures(&seen["typed"]).ends_with(&peak(400.0, 18.0)),
        "{}",
        seen["typed"]
    );
    assert_eq!(figures(&seen["reverted"]), figures(&seen["start"]));
    let slip = seen["slipStatus"].as_str().unwrap_or_default();
    assert!(
        slip.contains("changed, not saved") && slip.contains("warning: comes to rest only after"),
        "{slip}"
    );
    let reverted = seen["revertedStatus"].as_str().unwrap_or_default();
    assert!(!reverted.contains("warning"), "{reverted}");

    // The slider: preview, plot, figures and the numbers table change; no file does.
    let (start, slid) = (&seen["start"], &seen["slid"]);
    let stiffness = slid["values"]["motion.stiffness"].as_f64().unwrap();
    assert!(stiffness > 400.0, "{slid}");
    assert_ne!(slid["transform"], start["transform"]);
    assert_ne!(slid["curve"], start["curve"]);
    assert_ne!(slid["figures"], start["figures"]);
    assert_ne!(slid["looksDone"], start["looksDone"]);
    assert_eq!(slid["stiffnessCell"], Value::from(stiffness.to_string()));
    assert_eq!(seen["fileAfterSlide"], CARD_DROP);
    // The new duration and easings are set on the card (restyling only the card), the
    // keyframes and class in the tuned stylesheet, without a `:root` of its own.
    let css = &seen["slidCss"];
    let duration = css["cardDuration"].as_str().unwrap();
    let seconds: f64 = duration.trim_end_matches('s').trim().parse().unwrap();
    // The bake of the file (stiffness 220, damping 18) lasts 0.86666667 s.
    assert!(seconds > 0.0 && duration != "0.86666667s", "{css}");
    let sheet = css["sheet"].as_str().unwrap();
    assert!(sheet.contains("@keyframes card-drop {"), "{css}");
    assert!(!sheet.contains("\n:root {"), "{css}");

    // The overshoot handle dragged further past the end: a new spring with more overshoot.
    let dragged = &seen["dragged"];
    let overshoot = |v: &Value| -> f64 {
        let text = v["figures"].as_str().unwrap();
        let at = text.find("overshoot ").unwrap() + 10;
        text[at..].split(' ').next().unwrap().parse().unwrap()
    };
    assert!(
        overshoot(dragged) > overshoot(slid) + 1.0,
        "{slid} {dragged}"
    );
    assert_ne!(
        dragged["values"]["motion.damping"],
        slid["values"]["motion.damping"]
    );

    // The keyboard moves the handles as a drag does: ArrowDown on the peak, more overshoot;
    // ArrowRight on "looks done", a slower spring, and Shift+ArrowRight five times the step (10
    // plot pixels, not 2). The focused handle's label says what the Tune line says.
    let keyed = &seen["keyed"];
    assert!(overshoot(keyed) > overshoot(dragged), "{dragged} {keyed}");
    let label = seen["keyedLabel"].as_str().unwrap();
    let figures = keyed["figures"].as_str().unwrap();
    let said = &figures[figures.find("overshoot ").unwrap() + 10..];
    assert!(label.starts_with("first overshoot peak, "), "{label}");
    assert!(label.contains(&format!("{said}: ")), "{label} / {figures}");
    // (The time it looks done moves by whole frames; the stiffness follows every step: ω0
    // scaled by done / new done, so ln k falls by about 2 ln(1 + step / done).)
    let stiffness = |v: &Value| v["values"]["motion.stiffness"].as_f64().unwrap().ln();
    let (plain, shifted) = (
        stiffness(keyed) - stiffness(&seen["doneStep"]),
        stiffness(&seen["doneStep"]) - stiffness(&seen["doneShiftStep"]),
    );
    assert!(plain > 0.0 && shifted > 3.0 * plain, "{plain} {shifted}");
    let label = seen["doneLabel"].as_str().unwrap();
    let looks = seen["doneShiftStep"]["looksDone"].as_str().unwrap();
    assert!(
        label.starts_with(&format!("looks done at {looks}: ")),
        "{label}"
    );

    // Save: those numbers only, everything else byte for byte (CRLF, comments, `0.0`).
    let values = &seen["saved"]["values"];
    let number = |key: &str| values[key].as_f64().unwrap();
    let expected = with_numbers(&[
        ("stiffness", number("motion.stiffness")),
        ("damping", number("motion.damping")),
    ]);
    assert_eq!(seen["fileAfterSave"], Value::from(expected.clone()));
    assert!(expected.contains("\r\n") && expected.contains("to: 0.0"));
    assert_eq!(seen["afterRebake"]["values"], seen["saved"]["values"]);
    // The watch's bake reached the page by swapping that card alone, with its panel, drawn
    // once, and its stylesheet as the bake wrote it (the tuned one gone).
    let swap = &seen["swap"];
    assert_eq!(swap["replaced"], serde_json::json!(["card-drop"]), "{swap}");
    assert_eq!(swap["cards"], 5, "{swap}");
    assert_eq!(swap["panelKept"], true, "{swap}");
    assert_eq!(swap["drawn"], serde_json::json!({"card-drop": 1}), "{swap}");
    assert_eq!(
        swap["css"],
        serde_json::json!([swap["cssOnDisk"]]),
        "{swap}"
    );
    assert_eq!(swap["tunedStyles"], 0, "{swap}");
    // What the page fetched from the click on (besides the status, and the motions read again
    // in the background): the save, that card and that stylesheet; never the whole page.
    let mut fetched: Vec<&str> = (swap["fetched"].as_array().unwrap().iter())
        .map(|p| p.as_str().unwrap())
        .collect();
    fetched.sort_unstable();
    fetched.dedup();
    let expected = [
        "/_curvebake/cards",
        "/_curvebake/tune/save",
        "/css/card-drop.css",
    ];
    assert_eq!(fetched, expected, "{swap}");
    let stiffness = number("motion.stiffness").to_string();
    assert_eq!(seen["afterRebake"]["stiffnessCell"], Value::from(stiffness));
    // The other file changed only where the tap's bounce was added (step 9).
    assert_eq!(
        std::fs::read_to_string(dir.path().join("curves/others.ron")).unwrap(),
        OTHERS.replace(
            "perceptual_duration: 0.2)",
            "perceptual_duration: 0.2, bounce: 0.3)"
        )
    );

    // Two tabs: A saved first, B's save was refused and left A's file; B reloaded A's values.
    let a = &seen["aValues"];
    let after_a = with_numbers(&[
        ("stiffness", a["motion.stiffness"].as_f64().unwrap()),
        ("damping", a["motion.damping"].as_f64().unwrap()),
    ]);
    assert_eq!(seen["fileAfterA"], Value::from(after_a.clone()));
    assert_eq!(seen["fileAfterB"], Value::from(after_a));
    assert!(seen["bRefused"]["status"]
        .as_str()
        .unwrap()
        .contains("changed on disk"));
    assert_eq!(&seen["bReloaded"]["values"], a);

    // Another form: a perceptual duration of 0.5 s is the stiffness (2π/0.5)² = 157.9 (four
    // significant digits) in the file's form, with the damping ratio kept.
    let other = &seen["otherForm"]["values"];
    let (k, c) = (
        other["motion.stiffness"].as_f64().unwrap(),
        other["motion.damping"].as_f64().unwrap(),
    );
    // Typed, it is written exactly: ω0 = 2π/0.5, to twelve digits.
    let typed = (std::f64::consts::TAU / 0.5).powi(2);
    assert!((k / typed - 1.0).abs() < 1e-11, "{other}");
    let before = &seen["beforeOtherForm"]["values"];
    let (k0, c0) = (
        before["motion.stiffness"].as_f64().unwrap(),
        before["motion.damping"].as_f64().unwrap(),
    );
    let ratio = |k: f64, c: f64| c / (2.0 * k.sqrt());
    // The damping ratio kept to the six digits its field shows (the bounce beside it).
    assert!(
        (ratio(k, c) / ratio(k0, c0) - 1.0).abs() < 1e-5,
        "{before} {other}"
    );
    // Android's form after the overshoot handle was dragged (the damping ratio field typed in
    // just before, and focused): it shows the dragged spring, not the numbers typed.
    let zeta = |v: &Value| {
        let (k, c) = (
            v["stiffness"].as_f64().unwrap(),
            v["damping"].as_f64().unwrap(),
        );
        c / (2.0 * k.sqrt())
    };
    let close = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-5;
    let typed = &seen["androidTyped"];
    assert!((zeta(typed) - 0.3).abs() < 1e-9, "{typed}");
    let dragged = &seen["androidDragged"];
    assert_ne!(dragged["focus"], "damping_ratio", "{dragged}");
    assert!(
        (zeta(dragged) - 0.3).abs() > 0.01,
        "the drag moved ζ: {dragged}"
    );
    // (A field to the six digits it shows, a slider to its step.)
    for (shown, within) in [("shown", 1e-5), ("sliders", 1e-2)] {
        let form = &dragged[shown];
        let near = |a: f64, b: f64| (a / b - 1.0).abs() < within;
        assert!(
            near(
                form["stiffness"].as_f64().unwrap(),
                dragged["stiffness"].as_f64().unwrap()
            ) && near(form["damping_ratio"].as_f64().unwrap(), zeta(dragged)),
            "{shown} stale after the drag: {dragged}"
        );
    }
    // A stiffness typed in that form next keeps the drag's damping ratio.
    let retyped = &seen["androidRetyped"];
    assert_eq!(retyped["stiffness"], 230.0, "{retyped}");
    assert!(close(zeta(retyped), zeta(dragged)), "{dragged} {retyped}");
    assert!(
        close(
            retyped["shown"]["damping_ratio"].as_f64().unwrap(),
            zeta(dragged)
        ),
        "{retyped}"
    );
    // Every field wide enough for its number, a damping written to 12 digits among them.
    let fields = seen["fieldsFit"].as_array().unwrap();
    assert!(
        fields.iter().any(|f| f["value"]
            .as_str()
            .unwrap()
            .trim_start_matches(['-', '0', '.'])
            .replace('.', "")
            .len()
            >= 10),
        "{}",
        seen["fieldsFit"]
    );
    assert!(
        fields
            .iter()
            .all(|f| f["text"].as_f64().unwrap() <= f["room"].as_f64().unwrap()),
        "{}",
        seen["fieldsFit"]
    );
    // The carousel's snap points, each named by its place in the file's list (the visible
    // name and the accessible one).
    let carousel = &seen["carousel"];
    let names = serde_json::json!([
        "from", "velocity", "friction", "min", "max", "snap[0]", "snap[1]", "snap[2]", "snap[3]",
        "snap[4]"
    ]);
    for controls in ["sliders", "fields", "labels"] {
        assert_eq!(carousel[controls], names, "{carousel}");
    }
    // Every handle on its plot: the carousel's min bound (-1280 px, past the plotted -320)
    // sits on the plot's edge.
    let handles = seen["handles"].as_array().unwrap();
    assert!(
        handles
            .iter()
            .any(|h| h["label"].as_str().unwrap().starts_with("min bound -1280")),
        "{}",
        seen["handles"]
    );
    assert!(
        handles.iter().all(|h| h["inside"] == true),
        "{}",
        seen["handles"]
    );
    // Each is a slider saying what it sets now (a screen reader reads "min bound -1280 px").
    assert!(
        handles.iter().all(|h| h["role"] == "slider"
            && h["label"]
                .as_str()
                .unwrap()
                .starts_with(h["value"].as_str().unwrap())),
        "{}",
        seen["handles"]
    );
    // A refused value marks its field, which points at the reason; Revert clears the mark.
    let refused = &seen["refusedField"];
    assert_eq!(refused[0], "true", "{refused}");
    assert!(
        refused[1].as_str().unwrap_or("").contains("stiffness"),
        "{refused}"
    );
    assert_eq!(seen["refusedCleared"], 0);
    // Revert from the keyboard leaves the focus on the card's status, not the page's top.
    assert_eq!(
        seen["focusAfterRevert"], "tune-status",
        "{}",
        seen["focusAfterRevert"]
    );
    // A bounce added in the page: it overshoots, and the file says so after its duration.
    let tap = &seen["tapBounced"];
    assert!(
        tap["figures"].as_str().unwrap_or("").contains("overshoot")
            && !tap["figures"]
                .as_str()
                .unwrap_or("")
                .contains("overshoot 0 %"),
        "{tap}"
    );
    assert!(
        seen["othersAfterBounce"]
            .as_str()
            .unwrap()
            .contains("perceptual_duration: 0.2, bounce: 0.3)"),
        "{}",
        seen["othersAfterBounce"]
    );

    // The fling's rest dragged further: its velocity is the one that rests there,
    // v = (rest - from)·λ with λ = -ln(0.05) (the velocity written with four digits).
    let velocity = seen["fling"]["values"]["motion.velocity"].as_f64().unwrap();
    let end = seen["flingEnd"].as_f64().unwrap();
    assert!(velocity > 1500.0, "{}", seen["fling"]);
    assert!(
        (end * -(0.05f64.ln()) / velocity - 1.0).abs() < 1e-3,
        "{velocity} {end}"
    );

    // Edited on disk in between: A's save refused, the hand edit kept.
    assert!(seen["aRefused"]["status"]
        .as_str()
        .unwrap()
        .contains("changed on disk"));
    assert_eq!(seen["fileAfterRefusal"], seen["editedOnDisk"]);
    eprintln!(
        "tune_page: a save round trip (click to the page showing the bake) took {:.0} ms",
        seen["saveRoundTripMs"].as_f64().unwrap_or(f64::NAN)
    );
}
