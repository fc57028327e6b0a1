//! The PNG plots of `curves/`: every file decodes, has the configured size, is not blank,
//! carries its title, and is byte-identical across runs and thread counts.

use curvebake::export::{ExportSettings, Format};
use curvebake::internals::export::png::{plot_path, screen_path, CONTACT_SHEET_PATH};
use curvebake::internals::pipeline::run;
use curvebake::{BakeOptions, Report};
use image::RgbImage;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn curves_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("curves")
}

/// Bakes `inputs` with the PNG exporter alone.
fn bake(inputs: &[PathBuf], out: &Path, plot_size: (u32, u32), jobs: usize) -> Report {
    let options = BakeOptions {
        inputs: inputs.to_vec(),
        out: out.to_owned(),
        formats: vec![Format::Png],
        settings: ExportSettings {
            plot_size,
            ..ExportSettings::default()
        },
        jobs: Some(jobs),
        ..BakeOptions::default()
    };
    let report = run(&options, &|_, _| {}).expect("the bake runs");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(
        report.stats.get("png_incomplete"),
        None,
        "some plot failed to draw"
    );
    report
}

/// Every PNG under `out/png`, by relative path.
fn pngs(out: &Path) -> BTreeMap<String, Vec<u8>> {
    let dir = out.join("png");
    std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "png"))
        .map(|p| {
            let name = format!("png/{}", p.file_name().unwrap().to_string_lossy());
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

fn decode(path: &str, bytes: &[u8]) -> RgbImage {
    image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .unwrap_or_else(|e| panic!("{path} does not decode: {e}"))
        .to_rgb8()
}

fn luma(p: &image::Rgb<u8>) -> u32 {
    (299 * u32::from(p[0]) + 587 * u32::from(p[1]) + 114 * u32::from(p[2])) / 1000
}

/// Not blank: enough pixels off the white background, several distinct colours.
fn assert_drawn(path: &str, img: &RgbImage) {
    let total = img.pixels().len();
    let inked = img.pixels().filter(|p| p.0 != [255, 255, 255]).count();
    assert!(
        inked * 100 > total * 2,
        "{path}: only {inked} of {total} pixels are not background"
    );
    // Colours quantized to 32 levels per channel, so anti-aliasing does not count.
    let colours: HashSet<[u8; 3]> = img
        .pixels()
        .map(|p| [p[0] >> 3, p[1] >> 3, p[2] >> 3])
        .collect();
    assert!(
        colours.len() >= 8,
        "{path}: only {} distinct colours",
        colours.len()
    );
}

/// Dark pixels (text) in the band where the title goes: at least `min` in the top `band`
/// rows, left half.
fn assert_title(path: &str, img: &RgbImage, band: u32, min: usize) {
    let dark = (0..band.min(img.height()))
        .flat_map(|y| (0..img.width() / 2).map(move |x| (x, y)))
        .filter(|&(x, y)| luma(img.get_pixel(x, y)) < 96)
        .count();
    assert!(
        dark >= min,
        "{path}: no title text in the top {band} rows ({dark} dark pixels)"
    );
}

/// Checks every plot under `out` (at least `count`, and the contact sheet).
fn check_plots(out: &Path, (width, height): (u32, u32), count: usize) -> BTreeMap<String, Vec<u8>> {
    let files = pngs(out);
    let motions: Vec<&String> = files.keys().filter(|p| *p != CONTACT_SHEET_PATH).collect();
    assert!(motions.len() >= count, "{} plots", motions.len());
    let panels = panels();
    for path in motions {
        let img = decode(path, &files[path]);
        // A multi-track motion's plot has a panel per track, each of the plot's size.
        let panels = panels.get(path).copied().unwrap_or(1);
        assert_eq!(img.dimensions(), (width, height * panels), "{path}");
        assert_drawn(path, &img);
        let scale = (f64::from(width) / 1200.0)
            .min(f64::from(height) / 800.0)
            .max(0.6);
        assert_title(path, &img, (50.0 * scale) as u32, (60.0 * scale) as usize);
    }
    let sheet = decode(CONTACT_SHEET_PATH, &files[CONTACT_SHEET_PATH]);
    assert_drawn(CONTACT_SHEET_PATH, &sheet);
    assert_title(CONTACT_SHEET_PATH, &sheet, 45, 60);
    files
}

/// The plot of each multi-track motion of `curves/` (by its path) and its panels: one per
/// track, and one for a path on screen.
fn panels() -> BTreeMap<String, u32> {
    use curvebake::internals::intake::read_all;
    use curvebake::internals::load::find_inputs;
    use curvebake::internals::spec::{Model, Overrides};
    let (specs, errors) = read_all(&find_inputs(&[curves_dir()]).unwrap(), Overrides::default());
    assert!(errors.is_empty(), "{errors:?}");
    specs
        .iter()
        .filter_map(|input| match &input.spec.model {
            Model::Tracks(multi) => Some((
                plot_path(&input.spec.name),
                u32::try_from(multi.tracks().len()).unwrap()
                    + u32::from(screen_path(&input.spec.model).is_some()),
            )),
            _ => None,
        })
        .collect()
}

/// A few motions of every layout: a ring (filmstrip), a bounce, a toss, a drop.
fn some_curves() -> Vec<PathBuf> {
    vec![
        curves_dir().join("explosion.ron"),
        curves_dir().join("gravity.ron"),
    ]
}

/// Debug builds draw slowly, so each test bakes what it needs once: all of `curves/` twice
/// here (the determinism check), a few motions at other sizes below.
#[test]
fn every_plot_decodes_has_its_size_is_drawn_and_is_byte_identical_across_thread_counts() {
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    bake(&[curves_dir()], one.path(), (1200, 800), 1);
    let report = bake(&[curves_dir()], two.path(), (1200, 800), 2);
    assert!(report.motions >= 10, "{} motions", report.motions);
    let files = check_plots(two.path(), (1200, 800), report.motions);
    assert!(files.contains_key(&plot_path("card-drop")));

    let first = pngs(one.path());
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        files.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &first {
        assert!(
            bytes == &files[path],
            "{path} differs between --jobs 1 and --jobs 2"
        );
    }

    // The ring's filmstrip: the shaded band of the ring itself in the bottom fifth.
    let ring = decode("explosion-ring", &files[&plot_path("explosion-ring")]);
    let ring_fill = (640..800)
        .flat_map(|y| (0..1200).map(move |x| (x, y)))
        .filter(|&(x, y)| ring.get_pixel(x, y).0 == [0xee, 0x9a, 0x4d])
        .count();
    assert!(
        ring_fill > 2000,
        "no filmstrip of the ring ({ring_fill} pixels)"
    );
}

#[test]
fn other_sizes() {
    for size in [(640, 480), (200, 200), (1920, 600)] {
        let dir = tempfile::tempdir().unwrap();
        let report = bake(&some_curves(), dir.path(), size, 2);
        check_plots(dir.path(), size, report.motions);
    }
}

#[test]
fn plot_size_flag() {
    let dir = tempfile::tempdir().unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_curvebake"))
        .args([
            "bake",
            "--quiet",
            "--formats",
            "png",
            "--plot-size",
            "900x500",
            "--out",
        ])
        .arg(dir.path())
        .arg(curves_dir().join("explosion.ron"))
        .status()
        .expect("curvebake runs");
    assert!(status.success());
    check_plots(dir.path(), (900, 500), 1);
}

/// Columns of `img` with at least `min` pixels of exactly `color`.
fn columns_of(img: &RgbImage, color: [u8; 3], min: usize) -> Vec<u32> {
    (0..img.width())
        .filter(|&x| {
            (0..img.height())
                .filter(|&y| img.get_pixel(x, y).0 == color)
                .count()
                >= min
        })
        .collect()
}

/// Rows of `img` with at least `min` pixels of exactly `color`.
fn rows_of(img: &RgbImage, color: [u8; 3], min: usize) -> Vec<u32> {
    (0..img.height())
        .filter(|&y| {
            (0..img.width())
                .filter(|&x| img.get_pixel(x, y).0 == color)
                .count()
                >= min
        })
        .collect()
}

/// An inertia's plot draws what holds it across its position panel: its snap points (the
/// carousel rests on -320, one of them) and its bounds (0 and -1280; 0 is in the panel), each
/// in its own colour and dashes, named in the legend.
#[test]
fn an_inertias_snap_points_and_bounds_are_drawn() {
    const SNAP: [u8; 3] = [0x0a, 0x7f, 0x8f];
    const BOUND: [u8; 3] = [0xbc, 0x4c, 0x00];
    let dir = tempfile::tempdir().unwrap();
    bake(
        &[curves_dir().join("inertia.ron")],
        dir.path(),
        (1200, 800),
        1,
    );
    let files = pngs(dir.path());
    let path = plot_path("carousel-fling");
    let img = decode(&path, &files[&path]);
    // Dashed across the panel (over 1,000 pixels wide): a few hundred pixels of a row.
    let (snap, bound) = (rows_of(&img, SNAP, 200), rows_of(&img, BOUND, 200));
    assert!(!snap.is_empty(), "no snap point drawn");
    assert!(!bound.is_empty(), "no bound drawn");
    // The bound 0 is where the fling starts, above the snap point -320 where it rests.
    assert!(
        bound[0] < snap[0],
        "bound rows {bound:?}, snap rows {snap:?}"
    );
}

/// Plots read like the screen: a `translateY` motion starts high when it starts above where
/// it rests (the ball falls onto the floor, not up to the ceiling), and the plot marks where
/// the motion looks done (a vertical dashed line) well before where it provably rests.
#[test]
fn translate_y_points_down_and_looks_done_is_marked() {
    const POSITION: [u8; 3] = [0x1f, 0x6f, 0xc5];
    const DONE: [u8; 3] = [0x82, 0x50, 0xdf];
    let dir = tempfile::tempdir().unwrap();
    bake(
        &[
            curves_dir().join("gravity.ron"),
            curves_dir().join("card-drop.ron"),
        ],
        dir.path(),
        (1200, 800),
        2,
    );
    let files = pngs(dir.path());
    for name in ["bouncing-ball", "card-drop"] {
        let path = plot_path(name);
        let img = decode(&path, &files[&path]);
        // The position curve's pixels: those at its first columns (t = 0, from -300 or -240)
        // lie above the average of the whole curve, which spends its time near 0.
        let ys = |x0: u32, x1: u32| -> Vec<u32> {
            (x0..x1)
                .flat_map(|x| (0..img.height() * 2 / 3).map(move |y| (x, y)))
                .filter(|&(x, y)| img.get_pixel(x, y).0 == POSITION)
                .map(|(_, y)| y)
                .collect()
        };
        // (Right of the legend, whose first key is a line of the same colour.)
        let all = ys(60, img.width());
        let first_x = (60..img.width())
            .find(|&x| !ys(x, x + 1).is_empty())
            .unwrap();
        let start = ys(first_x, first_x + 4);
        let mean = |v: &[u32]| v.iter().map(|&y| f64::from(y)).sum::<f64>() / v.len() as f64;
        assert!(
            mean(&start) + 100.0 < mean(&all),
            "{name}: the start (y {}) is not drawn above the rest of the curve (y {})",
            mean(&start),
            mean(&all)
        );
        // One dashed vertical line, before the end of the plot (where it provably rests):
        // card-drop looks done at 0.67 s of 0.87 s, the ball at 1.67 s of 1.73 s.
        let done = columns_of(&img, DONE, 60);
        let before = if name == "card-drop" { 0.85 } else { 0.96 };
        assert!(!done.is_empty(), "{name}: no 'looks done' line");
        assert!(
            done.iter()
                .all(|&x| f64::from(x) < f64::from(img.width()) * before),
            "{name}: 'looks done' at columns {done:?}"
        );
    }
}

/// The velocity panel shows its baked frames as dots that can be seen beside the curve (its
/// legend says "baked frames (105)"): the bouncing ball's dots were drawn a pixel in radius,
/// the width of the curve they sit on, and vanished into it (audit finding 11). Each of its
/// 105 dots keeps at least the area of a dot of radius 2 beside a 2-pixel line (9 pixels),
/// counted in the plot's lowest third, the velocity panel (the position panel ends above it).
#[test]
fn the_velocity_panels_frames_are_dots_beside_the_curve() {
    const FRAMES: [u8; 3] = [0xe3, 0x6c, 0x0a];
    let dir = tempfile::tempdir().unwrap();
    bake(
        &[curves_dir().join("gravity.ron")],
        dir.path(),
        (1200, 800),
        2,
    );
    let files = pngs(dir.path());
    let path = plot_path("bouncing-ball");
    let img = decode(&path, &files[&path]);
    let (w, h) = img.dimensions();
    let dots = (0..w)
        .flat_map(|x| (h * 2 / 3..h).map(move |y| (x, y)))
        .filter(|&(x, y)| img.get_pixel(x, y).0 == FRAMES)
        .count();
    assert!(
        dots >= 105 * 9,
        "{dots} pixels of frame dots in the velocity panel"
    );
}
