//! The plain-RON reader (`curvebake::internals::plain_ron`) against `ron`, the reference: wherever the
//! plain reader reads a text at all, `ron` must read it too, into the same motions (compared by
//! their `Debug` text, so that `-0` and `0` differ); and the plain reader must read every
//! example, every file `curvebake new` writes and the texts of its subset below, or it would
//! speed up nothing. The generated texts mostly keep to the subset, and now and then step out
//! of it (other blanks, numbers, strings, fields) or are cut and patched at random.

use curvebake::internals::load::parse_with_ron;
use curvebake::internals::plain_ron;
use curvebake::internals::template::{template, Kind};
use proptest::prelude::*;
use std::path::Path;

/// Whether the plain reader read `text`; fails if it read it otherwise than `ron`.
fn read_alike(text: &str) -> Result<bool, String> {
    let Some(plain) = plain_ron::parse(text) else {
        return Ok(false);
    };
    match parse_with_ron(Path::new("t.ron"), text) {
        Ok(reference) if format!("{plain:?}") == format!("{reference:?}") => Ok(true),
        Ok(reference) => Err(format!("{text:?}\nplain: {plain:?}\nron:   {reference:?}")),
        Err(e) => Err(format!("{text:?}\nplain: {plain:?}\nron refuses it: {e}")),
    }
}

fn files_under(dir: &str, extension: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .{extension} files under {dir:?}");
    files
}

#[test]
fn the_examples_and_new_files_are_read_as_ron_reads_them() {
    for file in files_under("curves", "ron") {
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(read_alike(&text), Ok(true), "{file:?}");
    }
    for kind in Kind::ALL {
        let text = template(kind, "sheet-open");
        assert_eq!(read_alike(&text), Ok(true), "{}", kind.name());
    }
}

#[test]
fn broken_files_are_left_to_ron_or_read_as_it_reads_them() {
    let mut left = 0;
    for file in files_under("tests/errors", "ron") {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        left += usize::from(!read_alike(&text).unwrap_or_else(|e| panic!("{file:?}: {e}")));
    }
    // Most of the corpus is broken RON, which only `ron` may judge.
    assert!(left > 20, "only {left} files left to ron");
}

/// Blanks, `ron`'s and others (only the first few are in the plain subset).
const BLANKS: &[&str] = &[
    "",
    " ",
    "\n",
    "  ",
    "\t",
    "\r\n",
    "// note\n",
    "/* note */",
    "// ends",
    "\u{0B}",
    "\u{85}",
    "\u{2028}",
    "/",
];

/// Numbers: plain ones first, then what `ron` reads or refuses in its own way.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-2",
    "0.5",
    "300",
    "1e-3",
    "2.5E+2",
    "-0",
    "007",
    "123456789012345678901234567890",
    "0.1000000000000000055511151231257827",
    "1e400",
    "1e-400",
    "1.",
    ".5",
    "+1",
    "1_000",
    "1.5.2",
    "3-4",
    "inf",
    "-inf",
    "NaN",
    "1f64",
    "0x10",
    "Some(3)",
    "None",
    "\"1\"",
    "1..2",
    "e5",
    "--1",
    "1e",
    "1e+",
    "Some( 2.5 ,)",
];

/// Strings: plain ones first.
const STRINGS: &[&str] = &[
    "\"m1\"",
    "\"\"",
    "\"é → ü\"",
    "\"two\nlines\"",
    "\"a\\\"b\"",
    "\"tab\\t\"",
    "r\"raw\"",
    "r#\"raw\"#",
    "b\"bytes\"",
    "'c'",
    "m1",
    "\"unclosed",
];

/// Each motion kind: its required fields, its optional ones, and a name that is no field.
const KINDS: &[(&str, &[&str], &[&str], &str)] = &[
    (
        "Spring",
        &["from", "to"],
        &[
            "velocity",
            "mass",
            "stiffness",
            "damping",
            "perceptual_duration",
            "bounce",
            "response",
            "damping_fraction",
            "damping_ratio",
            "visual_duration",
            "origami_tension",
            "origami_friction",
        ],
        "speed",
    ),
    (
        "Friction",
        &["from", "velocity"],
        &["friction", "to"],
        "mass",
    ),
    (
        "Gravity",
        &["from", "acceleration"],
        &["velocity", "to", "restitution"],
        "drag",
    ),
    (
        "Decay",
        &["from"],
        &["velocity", "lambda", "to", "end_velocity"],
        "rate",
    ),
];

/// Picks from `items`, mostly among the first `plain` of them.
fn pick(items: &'static [&'static str], plain: usize) -> impl Strategy<Value = &'static str> {
    prop_oneof![
        12 => (0..plain).prop_map(move |k| items[k]),
        1 => (0..items.len()).prop_map(move |k| items[k]),
    ]
}

fn blank() -> impl Strategy<Value = &'static str> {
    pick(BLANKS, 7)
}

fn number() -> impl Strategy<Value = &'static str> {
    pick(NUMBERS, 13)
}

/// `name: value` pairs joined by commas (maybe with a trailing one) in brackets.
fn fields(pairs: Vec<(String, String)>, trailing: bool, gap: &str) -> String {
    let body: Vec<String> = pairs
        .into_iter()
        .map(|(name, value)| format!("{name}{gap}:{gap}{value}"))
        .collect();
    let comma = if trailing && !body.is_empty() {
        ","
    } else {
        ""
    };
    format!("({gap}{}{comma}{gap})", body.join(&format!(",{gap}")))
}

/// A motion variant with its required fields and some optional ones, in any order (and now
/// and then a wrong one, one twice, or a wrong variant name).
fn variant() -> impl Strategy<Value = String> {
    let ring = (
        number(),
        number(),
        number(),
        number(),
        number(),
        number(),
        blank(),
    )
        .prop_map(|(a, b, c, d, e, f, gap)| {
            let radius = |x: &str, y: &str, z: &str| {
                fields(
                    vec![
                        ("from".into(), x.into()),
                        ("to".into(), y.into()),
                        ("end_velocity".into(), z.into()),
                    ],
                    false,
                    gap,
                )
            };
            let radii = vec![
                ("inner".into(), radius(a, b, c)),
                ("outer".into(), radius(d, e, f)),
            ];
            format!("ExplosionRing{}", fields(radii, true, gap))
        });
    let kind = (0..KINDS.len(), any::<[bool; 6]>(), 0..12usize, blank())
        .prop_flat_map(|(k, optional, stray, gap)| {
            let (name, required, optionals, no_field) = KINDS[k];
            let mut names: Vec<&str> = required.to_vec();
            names.extend(
                optionals
                    .iter()
                    .zip(optional)
                    .filter(|(_, on)| *on)
                    .map(|(n, _)| *n),
            );
            // Now and then a field that is not one, or one given twice.
            match stray {
                0 => names.push(no_field),
                1 => names.push(required[0]),
                _ => {}
            }
            let count = names.len();
            (
                Just(names).prop_shuffle(),
                prop::collection::vec(number(), count),
                any::<bool>(),
                Just((name, gap)),
                prop_oneof![19 => Just(""), 1 => Just("_2")],
            )
        })
        .prop_map(|(names, values, trailing, (name, gap), suffix)| {
            let pairs = names
                .into_iter()
                .zip(values)
                .map(|(n, v)| (n.to_owned(), v.to_owned()))
                .collect();
            format!("{name}{suffix}{}", fields(pairs, trailing, gap))
        });
    prop_oneof![5 => kind, 1 => ring]
}

/// A motion: its name and motion, often some of the optional fields, rarely a wrong one.
fn motion() -> impl Strategy<Value = String> {
    let optional = prop_oneof![
        (
            pick(
                &["fps", "duration", "rest_delta", "rest_speed", "frames"],
                4
            ),
            number()
        )
            .prop_map(|(name, value)| (name.to_owned(), value.to_owned())),
        (pick(&["property", "unit", "label"], 2), pick(STRINGS, 4))
            .prop_map(|(name, value)| (name.to_owned(), value.to_owned())),
    ];
    (
        pick(STRINGS, 4),
        variant(),
        prop::collection::vec(optional, 0..4),
        any::<bool>(),
        blank(),
        0..3usize,
    )
        .prop_map(|(name, motion, mut pairs, trailing, gap, at)| {
            let at = at.min(pairs.len());
            pairs.insert(at, ("name".into(), name.into()));
            pairs.push(("motion".into(), motion));
            fields(pairs, trailing, gap)
        })
}

/// A file: one motion or a list, between blanks.
fn file() -> impl Strategy<Value = String> {
    let list = (
        prop::collection::vec(motion(), 0..4),
        blank(),
        any::<bool>(),
    )
        .prop_map(|(motions, gap, trailing)| {
            let comma = if trailing && !motions.is_empty() {
                ","
            } else {
                ""
            };
            format!("[{gap}{}{comma}{gap}]", motions.join(&format!(",{gap}")))
        });
    (prop_oneof![motion(), list], blank(), blank())
        .prop_map(|(body, before, after)| format!("{before}{body}{after}"))
}

/// An edit of a text: a piece put in, or a stretch taken out, somewhere.
#[derive(Debug, Clone)]
enum Edit {
    Insert(f64, &'static str),
    Remove(f64, usize),
}

const PIECES: &[&str] = &[
    ",", "(", ")", "[", "]", ":", " ", "//", "\n", "\"", "-", ".", "e", "_", "x", "Some", "0", "é",
    "\\", "/*",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0.0..1.0, 0..PIECES.len()).prop_map(|(at, k)| Edit::Insert(at, PIECES[k])),
        (0.0..1.0, 1..4usize).prop_map(|(at, n)| Edit::Remove(at, n)),
    ]
}

/// The char boundary of `text` nearest below the fraction `at` of its length.
fn boundary(text: &str, at: f64) -> usize {
    let mut i = (at * text.len() as f64) as usize;
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &mut String, edit: &Edit) {
    match *edit {
        Edit::Insert(at, piece) => text.insert_str(boundary(text, at), piece),
        Edit::Remove(at, n) => {
            let start = boundary(text, at);
            let end = text[start..]
                .char_indices()
                .nth(n)
                .map_or(text.len(), |(i, _)| start + i);
            text.replace_range(start..end, "");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    #[test]
    fn whatever_the_plain_reader_reads_ron_reads_alike(
        text in file(),
        edits in prop_oneof![2 => Just(Vec::new()), 3 => prop::collection::vec(edit(), 1..3)],
    ) {
        let mut text = text;
        for edit in &edits {
            apply(&mut text, edit);
        }
        read_alike(&text).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn texts_within_the_subset_are_read() {
    let text = "// two motions\n[\n  (name: \"a\", fps: 30, motion: Spring(from: -1.5e2, to: 0, \
                stiffness: 170, damping: 26,),),\r\n  (duration: 1, name: \"b\", property: \
                \"opacity\", motion: ExplosionRing(inner: (from: 0, to: 1, end_velocity: 2), \
                outer: (end_velocity: 1, to: 3, from: 0))),\n]\n";
    assert_eq!(read_alike(text), Ok(true));
    for text in [
        "(name: \"a\", motion: Gravity(from: 0, acceleration: 9.81, restitution: 0.5, to: 10))",
        "(name: \"a\", motion: Decay(from: 0, to: 100, end_velocity: 4), duration: 2)",
        "(name: \"a\", unit: \"px\", motion: Friction(from: 0, velocity: 1000, friction: 0.1))",
        "[]",
        // `from` is optional in the schema (a later sequence step has none); the model
        // requires it elsewhere.
        "(name: \"a\", motion: Decay(velocity: 1, lambda: 2))",
        "(name: \"a\", motion: Inertia(from: 0, velocity: -900, friction: 0.05, snap: [0, -320.5,], max: 0))",
        "(name: \"a\", motion: Sequence([(motion: Spring(from: 0, to: 1), duration: 0.1), (motion: Decay(lambda: 3),),]))",
    ] {
        assert_eq!(read_alike(text), Ok(true), "{text}");
    }
}

#[test]
fn texts_outside_the_subset_are_left_to_ron() {
    for text in [
        "(name: \"a\", motion: Spring(from: 0, to: 1, stiffness: Some(170), damping: 26))",
        "(name: \"a\", fps: 1_000, motion: Spring(from: 0, to: 1, stiffness: 1, damping: 2))",
        "(name: \"a\\u{e9}\", motion: Spring(from: 0, to: 1, stiffness: 1, damping: 2))",
        "/* c */ (name: \"a\", motion: Spring(from: 0, to: 1, stiffness: 1, damping: 2))",
        "(name: \"a\", motion: Spring(from: 0, to: 1, stiffness: 1, damping: 2)) // no newline",
        "#![enable(implicit_some)] (name: \"a\", motion: Decay(from: 0, velocity: 1, lambda: 2))",
        "MotionFile(name: \"a\", motion: Decay(from: 0, velocity: 1, lambda: 2))",
        "(name: \"a\", name: \"b\", motion: Decay(from: 0, velocity: 1, lambda: 2))",
        "(name: \"a\", motion: Decay(from: 0, velocity: inf, lambda: 2))",
    ] {
        assert_eq!(read_alike(text), Ok(false), "{text}");
    }
}
