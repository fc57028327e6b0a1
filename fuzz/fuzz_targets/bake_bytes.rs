//! Bytes -> parsed, validated and baked motions -> JSON tables.
//!
//! Whatever the plain-RON reader reads, `ron` (the reference) must read into the same motions.
//! Whatever the bytes, nothing may panic (debug assertions are on), every error must display
//! and name the file, every baked sample must be finite, and every JSON table must hold only
//! finite numbers (no `NaN`, `inf`, or `null` standing in for one) that read back exactly as
//! the baked samples.

#![no_main]

use curvebake::internals::bake::bake;
use curvebake::internals::export::json::table;
use curvebake::internals::load::{parse_bytes, parse_with_ron};
use curvebake::internals::plain_ron;
use curvebake::internals::spec::{MotionSpec, Overrides};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use std::path::Path;

/// Motions baked per input: each may have up to a million frames, and a 4 KB list of them
/// would only make the fuzzer slow, not find more.
const MAX_MOTIONS: usize = 4;

/// Largest table parsed whole with serde_json (a million frames take seconds).
const FULL_PARSE_FRAMES: usize = 20_000;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Some(plain) = plain_ron::parse(text) {
            let reference = parse_with_ron(Path::new("fuzz.ron"), text)
                .expect("ron reads what the plain reader reads");
            assert_eq!(format!("{plain:?}"), format!("{reference:?}"));
        }
    }
    let motions = match parse_bytes(Path::new("fuzz.ron"), data) {
        Ok(motions) => motions,
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("fuzz.ron:"), "{message}");
            return;
        }
    };
    for motion in motions.iter().take(MAX_MOTIONS) {
        let spec = match MotionSpec::from_file(motion, Overrides::default()) {
            Ok(spec) => spec,
            Err(e) => {
                let _ = e.to_string();
                continue;
            }
        };
        let baked = match bake(&spec) {
            Ok(baked) => baked,
            Err(e) => {
                let _ = e.to_string();
                continue;
            }
        };
        let frames = baked.frames();
        assert!(frames >= 2, "{}: {frames} frames", spec.name);
        for track in &baked.tracks {
            assert_eq!(track.position.len(), frames);
            assert_eq!(track.velocity.len(), frames);
            for (i, (x, v)) in track.position.iter().zip(&track.velocity).enumerate() {
                assert!(
                    x.is_finite() && v.is_finite(),
                    "{} {} frame {i}: position {x}, velocity {v}",
                    spec.name,
                    track.name
                );
            }
        }

        let mut json = Vec::new();
        table(&baked, &mut json);
        let text = std::str::from_utf8(&json).expect("the table is UTF-8");
        // From the parameters on, a table holds only fixed keys and numbers: no NaN, inf or
        // null (how a non-finite float would be written) may appear there.
        let numbers = &text[text.find("\"params\":").expect("params")..];
        for word in ["NaN", "inf", "null"] {
            assert!(
                !numbers.contains(word),
                "{}: {word} in the table",
                spec.name
            );
        }
        // Every sample reads back exactly.
        for (key, quantity) in [("position", 0), ("velocity", 1)] {
            let read = arrays(numbers, key);
            assert_eq!(read.len(), baked.tracks.len(), "{key} arrays");
            for (track, values) in baked.tracks.iter().zip(read) {
                let expected = [&track.position, &track.velocity][quantity];
                assert!(values == *expected, "{} {key} differs", track.name);
            }
        }
        // A whole parse, for the smaller tables.
        if frames <= FULL_PARSE_FRAMES {
            let value: Value = serde_json::from_str(text).unwrap_or_else(|e| {
                panic!(
                    "{}: the JSON table does not parse ({e}): {}",
                    spec.name,
                    &text[..text.len().min(2000)]
                )
            });
            // A ring's property is null by design (its radii are its tracks), a multi-track
            // motion's property and unit too (its tracks each say their own); every other
            // value is a finite number, a string or a structure of them.
            let mut numbers = value.clone();
            numbers["property"] = Value::String(String::new());
            numbers["unit"] = Value::String(String::new());
            check_numbers(&numbers, &spec.name);
            for (name, track) in value["tracks"].as_object().expect("tracks") {
                for key in ["position", "velocity"] {
                    let values = track[key].as_array().expect("an array");
                    assert_eq!(values.len(), frames, "{name} {key}");
                }
            }
        }
    }
});

/// Every number is finite; no value is `null`.
fn check_numbers(value: &Value, name: &str) {
    match value {
        Value::Null => panic!("{name}: null in the JSON table"),
        Value::Number(n) => {
            let x = n.as_f64().expect("a number");
            assert!(x.is_finite(), "{name}: {n} in the JSON table");
        }
        Value::Array(items) => items.iter().for_each(|v| check_numbers(v, name)),
        Value::Object(fields) => fields.values().for_each(|v| check_numbers(v, name)),
        Value::Bool(_) | Value::String(_) => {}
    }
}

/// The number arrays named `key`, in order, read with `str::parse` (exact, unlike
/// serde_json's default float parsing).
fn arrays(text: &str, key: &str) -> Vec<Vec<f64>> {
    text.match_indices(&format!("\"{key}\":["))
        .map(|(at, found)| {
            let rest = &text[at + found.len()..];
            let body = &rest[..rest.find(']').expect("a closed array")];
            body.split(',')
                .map(|x| {
                    x.parse::<f64>()
                        .unwrap_or_else(|_| panic!("{x:?} is not a number"))
                })
                .collect()
        })
        .collect()
}
