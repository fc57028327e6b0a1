//! `js/` as a package a bundler and TypeScript use well: `package.json` (`type: module`,
//! `exports`, `sideEffects: false`), `index.js` with every motion, and the shared `Motion` type.
//!
//! With esbuild (`$CURVEBAKE_ESBUILD`, or `esbuild` on `PATH`), a site that imports only
//! `durationMs` from each motion's module (through the package's `exports`) bundles, minified,
//! under 100 bytes: the module's tables, keyframes and registration are dropped. With
//! TypeScript (`$CURVEBAKE_TSC`, or `tsc` on `PATH`) a strict program using the package's types
//! (literal names and properties, a ring's `property: null`, `Motion`) type-checks, `.d.ts`
//! files included. A missing tool is reported as skipped, or fails with
//! `CURVEBAKE_REQUIRE_JS_TOOLS=1` (CI installs both with npm).

use curvebake::export::Format;
use curvebake::internals::pipeline::run;
use curvebake::BakeOptions;
use serde_json::Value;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::Command;

/// Largest bundle of a site importing only `durationMs`.
const DURATION_ONLY_BYTES: usize = 100;

/// Largest the shared runtime of `play` may be, minified and gzipped (issue 28).
const RUNTIME_GZIP_BYTES: usize = 1536;

fn tool(env: &str, name: &str) -> Option<PathBuf> {
    let found = match std::env::var_os(env) {
        Some(p) => Some(PathBuf::from(p)).filter(|p| p.is_file()),
        None => std::env::var_os("PATH").and_then(|dirs| {
            std::env::split_paths(&dirs)
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        }),
    };
    if found.is_none() {
        let why = format!("{name} not found (${env} or PATH); npm install {name}");
        if std::env::var("CURVEBAKE_REQUIRE_JS_TOOLS").is_ok_and(|v| v.trim() == "1") {
            panic!("{why} (CURVEBAKE_REQUIRE_JS_TOOLS=1)");
        }
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED the {name} part of js_package: {why}"
        );
    }
    found
}

/// Bakes `curves/` as modules into `site/node_modules/motions`, the way a site would vendor it.
fn site() -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let options = BakeOptions {
        inputs: vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("curves")],
        out: out.clone(),
        formats: vec![Format::Js],
        ..BakeOptions::default()
    };
    let report = run(&options, &|_, _| {}).expect("the bake runs");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let modules = dir.path().join("site/node_modules");
    std::fs::create_dir_all(&modules).unwrap();
    std::fs::rename(out.join("js"), modules.join("motions")).unwrap();
    std::fs::write(
        dir.path().join("site/package.json"),
        r#"{ "private": true, "type": "module" }"#,
    )
    .unwrap();
    let mut names: Vec<String> = std::fs::read_dir(modules.join("motions"))
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            let stem = name.strip_suffix(".js")?.to_owned();
            (stem != "index" && stem != "runtime").then_some(stem)
        })
        .collect();
    names.sort();
    (dir, names)
}

fn run_tool(command: &mut Command, what: &str) -> String {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_package_says_what_bundlers_need() {
    let (dir, names) = site();
    let root = dir.path().join("site/node_modules/motions");
    let package: Value =
        serde_json::from_slice(&std::fs::read(root.join("package.json")).unwrap()).unwrap();
    assert_eq!(package["type"], "module");
    assert_eq!(package["sideEffects"], false);
    assert_eq!(package["exports"]["."]["default"], "./index.js");
    assert_eq!(package["exports"]["./*"]["types"], "./*.d.ts");
    let index = std::fs::read_to_string(root.join("index.js")).unwrap();
    for name in &names {
        assert!(
            index.contains(&format!("from \"./{name}.js\";")),
            "index.js misses {name}"
        );
        // No statement runs on import but pure ones: registration comes with the keyframes.
        let module = std::fs::read_to_string(root.join(format!("{name}.js"))).unwrap();
        assert!(!module.contains("\nregisterProperties();"), "{name}");
    }
    assert!(names.len() >= 15, "{names:?}");
}

#[test]
fn importing_only_duration_ms_bundles_under_100_bytes_with_esbuild() {
    let Some(esbuild) = tool("CURVEBAKE_ESBUILD", "esbuild") else {
        return;
    };
    let (dir, names) = site();
    let site = dir.path().join("site");
    let mut largest = (0, String::new());
    for name in &names {
        let entry = site.join(format!("{name}-entry.js"));
        std::fs::write(
            &entry,
            format!("import {{ durationMs }} from \"motions/{name}\";\nconsole.log(durationMs);\n"),
        )
        .unwrap();
        let bundle = run_tool(
            Command::new(&esbuild)
                .current_dir(&site)
                .args([
                    "--bundle",
                    "--minify",
                    "--format=esm",
                    "--log-level=warning",
                ])
                .arg(&entry),
            &format!("esbuild on {name}"),
        );
        if bundle.len() > largest.0 {
            largest = (bundle.len(), format!("{name}: {}", bundle.trim()));
        }
        assert!(
            bundle.len() < DURATION_ONLY_BYTES,
            "{name}: importing durationMs bundles {} bytes:\n{}",
            bundle.len(),
            &bundle[..bundle.len().min(400)]
        );
    }
    eprintln!(
        "largest bundle importing only durationMs: {} bytes ({})",
        largest.0, largest.1
    );
    // The control: the keyframes are not dropped when they are used.
    let entry = site.join("keyframes-entry.js");
    std::fs::write(
        &entry,
        "import { keyframes } from \"motions/card-drop\";\nconsole.log(keyframes);\n",
    )
    .unwrap();
    let bundle = run_tool(
        Command::new(&esbuild)
            .current_dir(&site)
            .args([
                "--bundle",
                "--minify",
                "--format=esm",
                "--log-level=warning",
            ])
            .arg(&entry),
        "esbuild on the keyframes",
    );
    assert!(bundle.len() > 1000, "{bundle}");
}

/// Bytes of `text` gzipped (`gzip -9`), or None without gzip.
fn gzipped(text: &str) -> Option<usize> {
    let mut child = Command::new("gzip")
        .args(["-9", "-c"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    Some(child.wait_with_output().unwrap().stdout.len())
}

#[test]
fn play_brings_the_shared_runtime_of_at_most_1_5_kb_minified_and_gzipped() {
    let Some(esbuild) = tool("CURVEBAKE_ESBUILD", "esbuild") else {
        return;
    };
    let (dir, _) = site();
    let site = dir.path().join("site");
    let bundle = |name: &str, source: &str| {
        let entry = site.join(format!("{name}-entry.js"));
        std::fs::write(&entry, source).unwrap();
        run_tool(
            Command::new(&esbuild)
                .current_dir(&site)
                .args([
                    "--bundle",
                    "--minify",
                    "--format=esm",
                    "--log-level=warning",
                ])
                .arg(&entry),
            &format!("esbuild on {name}"),
        )
    };
    let runtime = bundle("runtime", "export { play } from \"motions/runtime\";\n");
    let Some(size) = gzipped(&runtime) else {
        return eprintln!("SKIPPED the size of the runtime: no gzip");
    };
    eprintln!("runtime: {} bytes minified, {size} gzipped", runtime.len());
    assert!(size <= RUNTIME_GZIP_BYTES, "runtime: {size} bytes gzipped");
    // Every kind's play shares it: a spring, a fling and gravity bundle it once, with their
    // parameters, and without their tables or keyframes.
    let three = bundle(
        "three",
        "import { play as a } from \"motions/card-drop\";\n\
         import { play as b } from \"motions/carousel-fling\";\n\
         import { play as c } from \"motions/toss\";\n\
         console.log(a, b, c);\n",
    );
    assert_eq!(
        three.matches("prefers-reduced-motion").count(),
        1,
        "{three}"
    );
    assert!(!three.contains("Float32Array"), "{three}");
    assert!(three.len() < runtime.len() + 1200, "{three}");
}

#[test]
fn the_types_check_in_strict_typescript() {
    let Some(tsc) = tool("CURVEBAKE_TSC", "tsc") else {
        return;
    };
    let (dir, _) = site();
    let site = dir.path().join("site");
    std::fs::write(
        site.join("t.ts"),
        r#"import { durationMs, tracks, property, easing } from "motions/card-drop";
import ring, { property as ringProperty } from "motions/explosion-ring";
import { cardDrop, type Motion } from "motions";
const d: number = durationMs;
const v: Float32Array = tracks.value;
const p: "translateY" = property;
const e: string = easing;
const r: null = ringProperty;
const m: Motion = ring;
const named: Motion<"card-drop", "value"> = cardDrop.default;
const inner: Float32Array | Float64Array = m.tracks["inner"];
import { play, type Playing } from "motions/card-drop";
import { play as fling } from "motions/carousel-fling";
import { play as toss } from "motions/toss";
// @ts-expect-error: a floor's bounces take no input, so the module has no play.
import { play as bounce } from "motions/bouncing-ball";
const h: Playing = play(document.body, { from: 12, velocity: -800 });
h.retarget(40);
const x: number = h.position() + h.velocity();
h.finished.then(() => h.cancel(), () => {});
const a: Animation = fling(document.body, { velocity: -2400, snap: [0, -320], min: -640 }).animation;
// An input that may be missing is left to the baked value (exactOptionalPropertyTypes too).
const pages: number[] | undefined = undefined as number[] | undefined;
fling(document.body, { velocity: 3, snap: pages, max: undefined });
toss(document.body, { to: 0 }).cancel();
console.log(d, v, p, e, r, named, inner, x, a, bounce);
"#,
    )
    .unwrap();
    std::fs::write(
        site.join("tsconfig.json"),
        r#"{ "compilerOptions": { "strict": true, "exactOptionalPropertyTypes": true, "noEmit": true, "module": "nodenext",
  "moduleResolution": "nodenext", "target": "es2022", "lib": ["es2022", "dom"],
  "skipLibCheck": false }, "files": ["t.ts"] }"#,
    )
    .unwrap();
    run_tool(
        Command::new(&tsc).current_dir(&site).args(["-p", "."]),
        "tsc",
    );
    // The control: a wrong literal type fails.
    std::fs::write(
        site.join("t.ts"),
        "import { property } from \"motions/card-drop\";\nconst p: \"scale\" = property;\nconsole.log(p);\n",
    )
    .unwrap();
    let status = Command::new(&tsc)
        .current_dir(&site)
        .args(["-p", "."])
        .output()
        .unwrap()
        .status;
    assert!(!status.success(), "tsc accepted a wrong property type");
}
