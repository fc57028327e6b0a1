//! `--prefix`: every global name the CSS and JS make carries it (classes, `@keyframes`,
//! `--<name>-duration`/`-easing`, `@property` registrations, a ring's radii, a custom
//! property motion's `--name`), from the command line and from `curvebake.toml`; a bad prefix
//! is refused naming the setting.

use crate::common;

use common::project::{curvebake, project, stderr};
use std::collections::BTreeSet;
use std::fs;

const SPRING: &str = r#"(name: "a", motion: Spring(from: 0, to: 1, stiffness: 100, damping: 10))"#;

/// Every identifier after `.`, `@keyframes `, `@property ` and `--` in a stylesheet.
fn global_names(css: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect()
    };
    for (i, _) in css.match_indices("--") {
        names.insert(word(&css[i + 2..]));
    }
    for line in css.lines() {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix('.') {
            names.insert(word(rest));
        }
        if let Some(rest) = line.strip_prefix("@keyframes ") {
            names.insert(word(rest));
        }
    }
    names.remove("");
    names
}

/// Every `property` of a token's curvebake extension that is a custom property.
fn custom_properties(value: &serde_json::Value, found: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(members) => {
            for (key, member) in members {
                match member.as_str() {
                    Some(p) if key == "property" && p.starts_with("--") => found.push(p.into()),
                    _ => custom_properties(member, found),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|i| custom_properties(i, found)),
        _ => {}
    }
}

#[test]
fn every_generated_name_carries_the_prefix() {
    let dir = project(&[]);
    let curves = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("curves");
    let out = curvebake(
        dir.path(),
        &[
            "bake",
            curves.to_str().unwrap(),
            "--formats",
            "css,js,tokens",
            "--prefix",
            "cb-",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let css = fs::read_to_string(dir.path().join("out/curves.css")).unwrap();
    let names = global_names(&css);
    // The tokens name the custom properties the CSS animates: a transition a tool writes
    // from them plays (a property the CSS does not register would jump).
    let tokens = fs::read_to_string(dir.path().join("out/curves.tokens.json")).unwrap();
    let tokens: serde_json::Value = serde_json::from_str(&tokens).unwrap();
    let mut properties = Vec::new();
    custom_properties(&tokens, &mut properties);
    assert!(
        properties.contains(&"--cb-glow".to_owned()),
        "{properties:?}"
    );
    for property in &properties {
        assert!(
            css.contains(&format!("@property {property} {{")),
            "{property}: a token's property the CSS does not register"
        );
    }
    assert!(names.len() > 40, "{names:?}");
    let bare: Vec<&String> = names.iter().filter(|n| !n.starts_with("cb-")).collect();
    assert!(bare.is_empty(), "names without the prefix: {bare:?}");
    for expected in [
        "cb-card-drop",
        "cb-card-drop-duration",
        "cb-card-drop-easing",
        "cb-glow",
        "cb-explosion-ring-inner",
    ] {
        assert!(names.contains(expected), "{expected} missing");
    }
    assert!(css.contains("@property --cb-glow {"), "{css}");
    let ring = fs::read_to_string(dir.path().join("out/js/explosion-ring.js")).unwrap();
    assert!(ring.contains(r#"{name: "--cb-explosion-ring-inner", syntax: "<length>""#));
    let glow = fs::read_to_string(dir.path().join("out/js/glow-pulse.js")).unwrap();
    assert!(glow.contains(r#""--cb-glow": "#), "{glow}");
    // The module's own name and files stay the motion's.
    assert!(glow.contains("export const name = \"glow-pulse\";"));

    // The same from the project file, and without a prefix nothing changes.
    let dir2 = project(&[]);
    fs::write(
        dir2.path().join("curvebake.toml"),
        "prefix = \"cb-\"\nformats = [\"css\", \"js\", \"tokens\"]\n",
    )
    .unwrap();
    let out = curvebake(dir2.path(), &["bake", curves.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(dir2.path().join("out/curves.css")).unwrap(),
        css
    );
    let plain = curvebake(
        dir2.path(),
        &[
            "bake",
            curves.to_str().unwrap(),
            "--prefix",
            "",
            "--out",
            "plain",
        ],
    );
    assert!(plain.status.success(), "{}", stderr(&plain));
    let plain = fs::read_to_string(dir2.path().join("plain/curves.css")).unwrap();
    assert!(plain.contains(".card-drop {") && plain.contains("@property --glow {"));
}

#[test]
fn a_bad_prefix_is_refused_naming_the_setting() {
    let dir = project(&[("a.ron", SPRING)]);
    let out = curvebake(dir.path(), &["bake", "--prefix", "1x"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("prefix") && err.contains("must start with a letter"),
        "{err}"
    );
    fs::write(dir.path().join("curvebake.toml"), "prefix = \"a b\"\n").unwrap();
    let out = curvebake(dir.path(), &["bake"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("curvebake.toml") && err.contains("prefix"),
        "{err}"
    );
}
