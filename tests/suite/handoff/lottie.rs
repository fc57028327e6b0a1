//! Lottie: every file the bake writes validates against the lottie-spec schema, and two
//! players, stopped at frame and non-frame times, show every channel of every motion within
//! the keys' bound of the closed form.
//!
//! A motion's file is a square (a ring: two circles) whose layer transform plays its tracks
//! (`lottie.rs`). Each channel is compared in Lottie's own units with `origin + factor ·
//! x(t)`, `x` the track's closed form: position in px (centred on the canvas; em and rem at
//! 16 px, other lengths as px), scale in % (along x and along y, both driven by the motion),
//! rotation in degrees, opacity 0-100, a ring's circles by their size (twice the radius). A
//! channel no track drives must show its rest value (position at the centre, scale 100 %,
//! rotation 0, opacity 100) within the reading's slack alone.
//!
//! The bound is the keys' (`lottie::tolerance`: 0.1 px, 0.1°, 0.001 of a unitless value,
//! so 0.1 % of scale and 0.1 of opacity, 0.2 px of a circle's size), a tenth of it at a
//! ball's impacts (the keys put them on the floor), plus what reading the player costs,
//! stated by each reader ([`LOTTIE_WEB`], [`DOTLOTTIE_WEB`]).

use super::{bake_examples, closed_forms, files, js_tools, run};
use crate::common::engines::{engines, Engine, Kind, RunOptions, HARNESS_HEAD};
use crate::common::random::Random;
use curvebake::internals::export::lottie::tolerance;
use curvebake::motion::Motion;
use curvebake::spec::{Model, Property};
use curvebake::Curve;
use serde_json::{json, Map, Value};
use std::fs;
use std::path::Path;
use std::process::Command;

/// Random stops per motion, besides the quarter frames.
const RANDOM_STOPS: usize = 40;

/// A channel a player shows, by the name its reading uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Channel {
    X,
    Y,
    /// The scale along x (the square's width).
    ScaleX,
    /// The scale along y (its height): Lottie's scale has both, the motion drives both.
    ScaleY,
    Rotation,
    Opacity,
    /// A ring's inner circle's size.
    Inner,
    /// A ring's outer circle's size.
    Outer,
}

impl Channel {
    const SQUARE: [Channel; 6] = [
        Channel::X,
        Channel::Y,
        Channel::ScaleX,
        Channel::ScaleY,
        Channel::Rotation,
        Channel::Opacity,
    ];
    const RING: [Channel; 4] = [Channel::X, Channel::Y, Channel::Inner, Channel::Outer];

    fn key(self) -> &'static str {
        match self {
            Channel::X => "x",
            Channel::Y => "y",
            Channel::ScaleX => "scaleX",
            Channel::ScaleY => "scaleY",
            Channel::Rotation => "rotation",
            Channel::Opacity => "opacity",
            Channel::Inner => "inner",
            Channel::Outer => "outer",
        }
    }

    fn unit(self) -> &'static str {
        match self {
            Channel::X | Channel::Y | Channel::Inner | Channel::Outer => "px",
            Channel::ScaleX | Channel::ScaleY => "%",
            Channel::Rotation => "°",
            Channel::Opacity => "/100",
        }
    }
}

/// What one channel shows at `t`: `origin + factor · x(t)` of the track driving it, or its
/// rest value; and the keys' bound on it.
struct Shown<'a> {
    channel: Channel,
    track: Option<&'a dyn Motion>,
    /// The motion's length `D` and the value its table holds from then on (its rest value).
    end: (f64, f64),
    origin: f64,
    factor: f64,
    bound: f64,
    /// The bound at a ball's impacts (a tenth: the keys put them on the floor).
    impact_bound: f64,
}

impl Shown<'_> {
    fn at(&self, t: f64) -> f64 {
        match self.track {
            Some(_) if t >= self.end.0 => self.origin + self.factor * self.end.1,
            Some(track) => self.origin + self.factor * track.position(t),
            None => self.origin,
        }
    }
}

/// Where a player is stopped: a frame, its time in the motion (`frame / fps`, at most `D`),
/// and whether it is a ball's impact.
struct Stop {
    frame: f64,
    t: f64,
    impact: bool,
}

/// A motion as its Lottie file plays it.
struct Case<'a> {
    name: String,
    ring: bool,
    channels: Vec<Shown<'a>>,
    stops: Vec<Stop>,
}

/// Pixels of one length unit: px, em and rem at 16 px; anything else is drawn as px.
fn px_per_unit(unit: &str) -> f64 {
    match unit {
        "em" | "rem" => 16.0,
        _ => 1.0,
    }
}

/// Degrees of one angle unit.
fn degrees_per_unit(unit: &str) -> f64 {
    match unit {
        "turn" => 360.0,
        "rad" => 180.0 / std::f64::consts::PI,
        "grad" => 0.9,
        _ => 1.0,
    }
}

/// The channels a track of `property` in `unit` drives, and its factor into Lottie's units.
fn channels_of(property: &Property, unit: &str) -> (Vec<Channel>, f64) {
    let percent = |unit: &str| if unit == "%" { 1.0 } else { 100.0 };
    match property {
        Property::TranslateX | Property::Custom(_) => (vec![Channel::X], px_per_unit(unit)),
        Property::TranslateY => (vec![Channel::Y], px_per_unit(unit)),
        Property::Scale => (vec![Channel::ScaleX, Channel::ScaleY], percent(unit)),
        Property::Rotate => (vec![Channel::Rotation], degrees_per_unit(unit)),
        Property::Opacity => (vec![Channel::Opacity], percent(unit)),
    }
}

/// A channel's rest value on a canvas of `side` px.
fn rest(channel: Channel, side: f64) -> f64 {
    match channel {
        Channel::X | Channel::Y => side / 2.0,
        Channel::ScaleX | Channel::ScaleY | Channel::Opacity => 100.0,
        Channel::Rotation | Channel::Inner | Channel::Outer => 0.0,
    }
}

/// Every channel of `curve`'s file (canvas `side` px): its tracks', then the rest.
fn shown<'a>(curve: &'a Curve, side: f64) -> Vec<Shown<'a>> {
    let spec = curve.spec();
    let units: Vec<(Property, String)> = match &spec.model {
        Model::Tracks(t) => (t.tracks().iter())
            .map(|k| (k.property.clone(), k.unit.clone()))
            .collect(),
        _ => vec![(spec.property.clone(), spec.unit.clone()); curve.tracks().len()],
    };
    let ring = matches!(spec.model, Model::Ring(_));
    let baked = curve.bake().unwrap();
    let ends: Vec<(f64, f64)> = (baked.tracks.iter())
        .map(|k| (baked.duration, k.position[k.position.len() - 1]))
        .collect();
    let mut channels: Vec<Shown> = (curve.tracks().into_iter().zip(&units).enumerate())
        .flat_map(|(j, ((_, track), (property, unit)))| {
            let (driven, factor) = match ring {
                true => (
                    vec![[Channel::Inner, Channel::Outer][j]],
                    2.0 * px_per_unit(unit),
                ),
                false => channels_of(property, unit),
            };
            let bound = factor * tolerance(spec, unit);
            let bounces = matches!(spec.model, Model::Bounce(_));
            let end = ends[j];
            driven.into_iter().map(move |channel| Shown {
                channel,
                track: Some(track),
                end,
                origin: match channel {
                    Channel::X | Channel::Y => side / 2.0,
                    _ => 0.0,
                },
                factor,
                bound,
                impact_bound: if bounces { bound / 10.0 } else { bound },
            })
        })
        .collect();
    let all: &[Channel] = if ring {
        &Channel::RING
    } else {
        &Channel::SQUARE
    };
    for &channel in all {
        if channels.iter().all(|c| c.channel != channel) {
            channels.push(Shown {
                channel,
                track: None,
                end: (f64::INFINITY, 0.0),
                origin: rest(channel, side),
                factor: 0.0,
                bound: 0.0,
                impact_bound: 0.0,
            });
        }
    }
    channels
}

/// Where to stop a motion of `duration` s (at its `fps`): every quarter frame up to its end,
/// every other one a tenth further (frame and non-frame times), the composition's last frame
/// (`ceil(D·fps)`, which shows `D`: regression, the files ended on `x(D)`, up to 0.24 px
/// short of the rest value every other output ends on), [`RANDOM_STOPS`] random times, and
/// a ball's impacts (to a tenth of its tolerance, as the keys list them).
fn stops(curve: &Curve, duration: f64, random: &mut Random) -> Vec<Stop> {
    let spec = curve.spec();
    let fps = spec.fps;
    let at = |frame: f64, impact| Stop {
        frame,
        t: (frame / fps).min(duration),
        impact,
    };
    let quarters = (0..(duration * fps * 4.0) as usize)
        .map(|q| at(q as f64 * 0.25 + 0.1 * (q % 2) as f64, false));
    let last = at((duration * fps).ceil(), false);
    let randoms: Vec<Stop> = (0..RANDOM_STOPS)
        .map(|_| at(random.range(0.0, duration * fps), false))
        .collect();
    let impacts: Vec<Stop> = match &spec.model {
        Model::Bounce(ball) => (ball.impacts_before(duration, 0.01).into_iter())
            .map(|t| Stop {
                frame: t * fps,
                t,
                impact: true,
            })
            .collect(),
        _ => Vec::new(),
    };
    quarters
        .chain([last])
        .chain(randoms)
        .chain(impacts)
        .collect()
}

/// The examples' cases, one per Lottie file.
fn cases<'a>(curves: &'a [Curve], animations: &Map<String, Value>) -> Vec<Case<'a>> {
    let mut random = Random(29);
    (curves.iter())
        .map(|curve| {
            let name = curve.name().to_owned();
            let file = (animations.get(&name)).unwrap_or_else(|| panic!("no lottie/{name}.json"));
            let side = file["w"].as_f64().unwrap();
            let duration = curve.bake().unwrap().duration;
            Case {
                ring: matches!(curve.spec().model, Model::Ring(_)),
                channels: shown(curve, side),
                stops: stops(curve, duration, &mut random),
                name,
            }
        })
        .collect()
}

#[test]
fn every_lottie_file_validates_and_two_players_show_every_channel_between_frames() {
    let Some(tools) = js_tools("lottie") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = bake_examples(dir.path(), "lottie");
    let animations = validated(&tools, &out.join("lottie"));
    let curves = closed_forms();
    assert_eq!(animations.len(), curves.len(), "a file per motion");
    let cases = cases(&curves, &animations);
    let site = dir.path().join("site");
    fs::create_dir(&site).unwrap();
    let Some(chromium) = engines().into_iter().find(|e| e.kind == Kind::Chromium) else {
        return;
    };
    for player in [&LOTTIE_WEB, &DOTLOTTIE_WEB] {
        let readings = player.read(&tools, &site, &chromium, &animations, &cases);
        let mut worst = Vec::new();
        for case in &cases {
            let shown = readings[case.name.as_str()].as_array();
            let shown =
                shown.unwrap_or_else(|| panic!("{}: no readings of {}", player.name, case.name));
            worst.extend(compare(player, case, shown));
        }
        report(player, &worst);
    }
}

/// Validates every file in `folder` with the lottie-spec schema; the animations by name.
fn validated(tools: &Path, folder: &Path) -> Map<String, Value> {
    let validator = tools.join("@lottie-animation-community/lottie-specs/bin/validate.js");
    let mut animations = Map::new();
    for path in files(folder) {
        let file = folder.join(&path);
        let report = run(
            Command::new("node").arg(&validator).arg("-q").arg(&file),
            &format!("lottie-specs validate {}", path.display()),
        );
        assert_eq!(report.trim(), "[]", "{}", path.display());
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        animations.insert(
            name,
            serde_json::from_slice(&fs::read(&file).unwrap()).unwrap(),
        );
    }
    animations
}

/// One channel's worst error in one motion, and the room it had (bound and slack).
struct Worst {
    motion: String,
    channel: Channel,
    error: f64,
    bound: f64,
    slack: f64,
}

/// Compares each stop's reading of each channel with the closed form: within its bound and
/// the player's slack for that reading. A reading a player could not take (nothing drawn)
/// must be where the square is all but transparent ([`Player::slack`]).
fn compare(player: &Player, case: &Case, readings: &[Value]) -> Vec<Worst> {
    assert_eq!(readings.len(), case.stops.len(), "{}", case.name);
    let opacity = case.channels.iter().find(|c| c.channel == Channel::Opacity);
    let mut worst = Vec::new();
    for shown in &case.channels {
        let mut w = Worst {
            motion: case.name.clone(),
            channel: shown.channel,
            error: 0.0,
            bound: shown.bound,
            slack: 0.0,
        };
        for (stop, reading) in case.stops.iter().zip(readings) {
            let expected = shown.at(stop.t);
            let what = format!(
                "{} {} {} at frame {:.3}",
                player.name,
                case.name,
                shown.channel.key(),
                stop.frame
            );
            let Some(slack) = (player.slack)(shown.channel, reading) else {
                let seen = opacity.map_or(100.0, |o| o.at(stop.t));
                assert!(
                    seen <= player.unreadable_below,
                    "{what}: not read ({reading}) though its opacity is {seen}"
                );
                continue;
            };
            let value = reading[shown.channel.key()].as_f64();
            let error = value.map_or(f64::INFINITY, |v| (v - expected).abs());
            let bound = if stop.impact {
                shown.impact_bound
            } else {
                shown.bound
            };
            assert!(
                error <= bound + slack,
                "{what}: shows {value:?}, the closed form {expected}: {error} off (bound {bound} + slack {slack})"
            );
            if error > w.error {
                (w.error, w.slack) = (error, slack);
            }
        }
        worst.push(w);
    }
    worst
}

/// Prints each motion's worst error per channel, and the worst of all per channel.
fn report(player: &Player, worst: &[Worst]) {
    for w in worst.iter().filter(|w| w.bound > 0.0) {
        eprintln!(
            "{} {} {}: {:.4} {} (bound {} + slack {:.4})",
            player.name,
            w.motion,
            w.channel.key(),
            w.error,
            w.channel.unit(),
            w.bound,
            w.slack
        );
    }
    let all = Channel::SQUARE
        .into_iter()
        .chain([Channel::Inner, Channel::Outer]);
    for channel in all {
        let of = |animated: bool| {
            (worst.iter())
                .filter(|w| w.channel == channel && (w.bound > 0.0) == animated)
                .max_by(|a, b| a.error.total_cmp(&b.error))
        };
        for (animated, label) in [(true, "animated"), (false, "at rest")] {
            if let Some(w) = of(animated) {
                eprintln!(
                    "{} worst {} {label}: {:.4} {} ({})",
                    player.name,
                    channel.key(),
                    w.error,
                    channel.unit(),
                    w.motion
                );
            }
        }
    }
}

/// A player, the page script that stops it and reads what it shows, and what a reading
/// costs.
struct Player {
    name: &'static str,
    /// Files copied from the tools' `node_modules` beside the page.
    files: &'static [&'static str],
    /// `<script>` elements loading the player.
    head: &'static str,
    /// Script defining `async function readings(c, animation)`: the reading at each of
    /// `c.frames`, an object with a number per channel it could read.
    reader: &'static str,
    /// The slack of a channel's reading (in the channel's unit), or `None` where it could
    /// not be read.
    slack: fn(Channel, &Value) -> Option<f64>,
    /// The opacity (0-100) below which a reading may be missing.
    unreadable_below: f64,
}

impl Player {
    /// Stops the player at every case's stops in Chromium; its readings by motion.
    fn read(
        &self,
        tools: &Path,
        site: &Path,
        chromium: &Engine,
        animations: &Map<String, Value>,
        cases: &[Case],
    ) -> Value {
        for file in self.files {
            let to = Path::new(file).file_name().unwrap();
            fs::copy(tools.join(file), site.join(to)).unwrap();
        }
        let cases: Vec<Value> = (cases.iter())
            .map(|c| {
                let frames: Vec<f64> = c.stops.iter().map(|s| s.frame).collect();
                json!({ "name": c.name, "ring": c.ring, "frames": frames })
            })
            .collect();
        let page = format!(
            r#"<!doctype html><html><head><meta charset="utf-8">{HARNESS_HEAD}{head}</head><body>
<div id="stage"></div><script type="module">
const COLUMNS = {COLUMNS}, MIN_ALPHA = {MIN_ALPHA};
{reader}
const animations = {animations};
const cases = {cases};
const shown = {{}};
for (const c of cases) shown[c.name] = await readings(c, animations[c.name]);
cbReport(shown);
</script></body></html>"#,
            head = self.head,
            reader = self.reader,
            animations = Value::Object(animations.clone()),
            cases = Value::Array(cases),
        );
        let page_name = format!("{}.html", self.name);
        fs::write(site.join(&page_name), page).unwrap();
        let options = RunOptions {
            timeout: std::time::Duration::from_secs(600),
            ..RunOptions::default()
        };
        let outcome = chromium.run(site, &page_name, &options);
        assert!(
            outcome.errors.is_empty(),
            "{}: {:?}",
            self.name,
            outcome.errors
        );
        eprintln!(
            "{}: read in {:.1} s",
            self.name,
            outcome.elapsed.as_secs_f64()
        );
        outcome.result
    }
}

/// lottie-web (SVG renderer) reads from the layer's `<g>`: its `transform` matrix
/// `(a, b, c, d, e, f)` is translation `(e, f)`, scale `100 · hypot(a, b)` % along x and
/// `100 · hypot(c, d)` % along y, and rotation
/// `atan2(b, a)`; its `opacity` attribute (absent: 1) times 100; a ring's circles from its
/// path, one subpath per circle, each a size `max x - min x` of its points (a Lottie
/// ellipse's vertices are its extremes; its control points lie within them).
///
/// Slack: lottie-web writes these numbers in full (its matrix rounds only entries below
/// 1e-6; a path under an identity transform is not rounded, its points are 32-bit floats)
/// and solves each key's Bézier easing numerically (to about 1e-7 of the key's change), so
/// 2e-3 of a unit is ample. It hides a layer whose opacity is 0 (`display: none`, no
/// transform written): there only the opacity, 0, is read, and the closed form's must be
/// within the keys' bound (0.1) of it.
static LOTTIE_WEB: Player = Player {
    name: "lottie-web",
    files: &["lottie-web/build/player/lottie.min.js"],
    head: r#"<script src="lottie.min.js"></script>"#,
    reader: LOTTIE_WEB_READER,
    slack: |channel, reading| reading.get(channel.key()).map(|_| 2e-3),
    unreadable_below: 0.1 + 2e-3,
};

const LOTTIE_WEB_READER: &str = r#"
const sizes = (d) => d.split("M").filter((p) => p.trim()).map((p) => {
  const xs = [...p.matchAll(/(-?[\d.]+(?:e[-+]?\d+)?),/g)].map((m) => Number(m[1]));
  return Math.max(...xs) - Math.min(...xs);
}).sort((a, b) => a - b);
async function readings(c, animation) {
  const stage = document.getElementById("stage");
  stage.innerHTML = "";
  const anim = lottie.loadAnimation({ container: stage, renderer: "svg", autoplay: false,
    loop: false, animationData: animation });
  const read = (frame) => {
    anim.goToAndStop(frame, true);
    const g = stage.querySelector("svg > g > g[transform]");
    if (!g) return { opacity: 0 };
    const m = g.getAttribute("transform").match(/matrix\(([^)]*)\)/)[1].split(",").map(Number);
    const r = { x: m[4], y: m[5], scaleX: 100 * Math.hypot(m[0], m[1]),
      scaleY: 100 * Math.hypot(m[2], m[3]),
      rotation: Math.atan2(m[1], m[0]) * 180 / Math.PI,
      opacity: 100 * Number(g.getAttribute("opacity") ?? 1) };
    if (c.ring) [r.inner, r.outer] = sizes(g.querySelector("path").getAttribute("d"));
    return r;
  };
  const shown = c.frames.map(read);
  anim.destroy();
  return shown;
}
"#;

/// Least interior alpha (of 255) at which dotlottie-web's square is measured: its readings'
/// slack grows as `1/α`.
const MIN_ALPHA: f64 = 32.0;

/// Columns each side of the centre whose midpoints give the rotation: they cross only the
/// square's straight top and bottom edges (38 px each side of the middle, its corners
/// rounded by 12) for scales down to 0.85 at angles up to 12° (the examples': 38 px · 0.85 ·
/// cos 12° - 50 px · 0.85 · sin 12° = 22.8 px).
const COLUMNS: f64 = 20.0;

/// dotlottie-web (ThorVG in WASM) draws on a canvas (one device pixel a px), read as the
/// alpha `α` of its pixels; `α_in` is the square's interior alpha (at its centroid).
///
/// * Position: the centroid `Σα·p / Σα` (a shape symmetric about its centre).
/// * Scale: the width of the row through the centroid, `Σα / α_in` (exactly the area of
///   that row's strip, `100 · s / cos θ` px), times `cos θ`: a 100 px square, so % of scale
///   along x; along y the same of the column through the centroid.
/// * Rotation: each column within [`COLUMNS`] of the centre is cut by the top and bottom
///   edges, parallel lines; its alpha above a pixel row `Y` and below, over `α_in`, are
///   exactly the strip's areas `Y - top` and `bottom - Y`, so its midpoint is `Y - (above -
///   below)/2`, on the line through the centre of slope `tan θ`, fitted by least squares.
/// * Opacity: `100 · α_in / 255`.
/// * A ring (even-odd band, radii `r < R`): its area `A = Σα/255 = π(R² - r²)` and second
///   moment about the centroid `J = Σα/255 · ρ² - A/6 = A/2 · (R² + r²)` (`A/6`: a pixel's
///   own `∫u² + v²`, which point samples add on average), so `R², r² = J/A ± A/(2π)`.
///
/// Slack (from the maths, in the channel's unit): ThorVG puts vertices on a 1/64 px grid
/// (its 26.6 fixed point), and a pixel's alpha is off by at most one of its 8 bits:
/// * position `1/64` px plus one unit of each edge pixel, times its distance from the
///   centre along the axis, over the shape's alpha: for the square (100 edge pixels a side,
///   50 px out on two sides and 25 px on average on the other two, over `10⁴ · α_in`)
///   `1.5/α_in` px, 0.021 px in all at full opacity; for a ring (`2πρ` edge pixels on each
///   circle, `2ρ/π` out on average, over `255 · π(R² - r²)`) `4(R² + r²) / (255π(R² - r²))`;
/// * scale `1/64 + 4/α_in` % (the row's or column's two edges, each across up to two pixels
///   when the square is turned);
/// * rotation: each column's midpoint to `2/α_in` px (two pixels per edge), the fitted slope
///   to `Σ|x - x̄| / Σ(x - x̄)² = 0.075/px` of that, and the edges' ends to 1/64 px over their
///   length (76 px · 0.85): `0.15/α_in + 0.00048` rad;
/// * opacity `2 · 100/255`: ThorVG holds a layer's opacity as 8 bits (`LottieLayer::opacity`
///   is a `uint8_t`) and multiplies it into the fill's 8-bit alpha, each step losing up to
///   one unit (played 127.3 of 255 showed 126), so it cannot show opacity closer than that
///   (the keys' 0.1 is finer);
/// * a circle's size: a Lottie ellipse is four cubic Béziers (κ = 0.5523), up to 2.7e-4 of
///   the radius off the circle; plus 1/64 px and the edge pixels (`1/255` px on the radius);
///   twice all that on the size.
static DOTLOTTIE_WEB: Player = Player {
    name: "dotlottie-web",
    files: &[
        "@lottiefiles/dotlottie-web/dist/index.js",
        "@lottiefiles/dotlottie-web/dist/dotlottie-player.wasm",
    ],
    head: "",
    reader: DOTLOTTIE_WEB_READER,
    slack: dotlottie_slack,
    unreadable_below: 100.0 * (MIN_ALPHA + 1.0) / 255.0,
};

/// [`DOTLOTTIE_WEB`]'s slack of a reading (`None`: not read).
fn dotlottie_slack(channel: Channel, reading: &Value) -> Option<f64> {
    let alpha = reading["alpha"].as_f64()?;
    let grid = 1.0 / 64.0;
    match channel {
        Channel::Opacity => Some(2.0 * 100.0 / 255.0),
        _ if alpha < MIN_ALPHA => None,
        Channel::X | Channel::Y => Some(grid + centroid_slack(reading)?),
        Channel::ScaleX | Channel::ScaleY => Some(grid + 4.0 / alpha),
        Channel::Rotation => Some((0.15 / alpha + 2.0 * grid / (76.0 * 0.85)).to_degrees()),
        Channel::Inner | Channel::Outer => {
            let radius = 0.5 * reading[channel.key()].as_f64()?;
            Some(2.0 * (2.7e-4 * radius + grid + 1.0 / 255.0))
        }
    }
}

/// What the alpha's 8 bits cost dotlottie-web's centroid ([`DOTLOTTIE_WEB`]), px.
fn centroid_slack(reading: &Value) -> Option<f64> {
    let alpha = reading["alpha"].as_f64()?;
    match (reading["inner"].as_f64(), reading["outer"].as_f64()) {
        (Some(inner), Some(outer)) => {
            let (r2, big_r2) = ((inner / 2.0).powi(2), (outer / 2.0).powi(2));
            Some(4.0 * (big_r2 + r2) / (255.0 * std::f64::consts::PI * (big_r2 - r2)))
        }
        _ => Some(1.5 / alpha),
    }
}

const DOTLOTTIE_WEB_READER: &str = r#"
import { DotLottie } from "./index.js";
DotLottie.setWasmUrl(new URL("dotlottie-player.wasm", location.href).href);
// The centroid, and the square's or the ring's channels from the canvas's alpha.
function centroid(alpha, w, h) {
  let sum = 0, mx = 0, my = 0;
  for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) {
    const a = alpha(i, j);
    if (a) { sum += a; mx += a * (i + 0.5); my += a * (j + 0.5); }
  }
  return sum ? { x: mx / sum, y: my / sum } : null;
}
function square(alpha, w, h) {
  const c = centroid(alpha, w, h);
  const inside = c ? alpha(Math.floor(c.x), Math.floor(c.y)) : 0;
  const r = { alpha: inside, opacity: 100 * inside / 255 };
  if (inside < MIN_ALPHA) return r;
  const X = Math.round(c.x), Y = Math.round(c.y);
  let n = 0, sx = 0, sm = 0, sxx = 0, sxm = 0;
  for (let i = X - COLUMNS; i < X + COLUMNS; i++) {
    let above = 0, below = 0;
    for (let j = 0; j < h; j++) if (j < Y) above += alpha(i, j); else below += alpha(i, j);
    const x = i + 0.5, m = Y - (above - below) / (2 * inside);
    n++; sx += x; sm += m; sxx += x * x; sxm += x * m;
  }
  const theta = Math.atan((n * sxm - sx * sm) / (n * sxx - sx * sx));
  let row = 0, column = 0;
  for (let i = 0; i < w; i++) row += alpha(i, Math.floor(c.y));
  for (let j = 0; j < h; j++) column += alpha(Math.floor(c.x), j);
  return { ...r, x: c.x, y: c.y, rotation: theta * 180 / Math.PI,
    scaleX: row / inside * Math.cos(theta), scaleY: column / inside * Math.cos(theta) };
}
function ring(alpha, w, h) {
  const c = centroid(alpha, w, h);
  let area = 0, moment = 0;
  for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) {
    const a = alpha(i, j) / 255;
    if (a) { area += a; moment += a * ((i + 0.5 - c.x) ** 2 + (j + 0.5 - c.y) ** 2); }
  }
  const sum = 2 * (moment - area / 6) / area, difference = area / Math.PI;
  let most = 0;
  for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) most = Math.max(most, alpha(i, j));
  return { alpha: most, x: c.x, y: c.y, outer: 2 * Math.sqrt((sum + difference) / 2),
    inner: 2 * Math.sqrt(Math.max(0, (sum - difference) / 2)) };
}
async function readings(c, animation) {
  const canvas = document.createElement("canvas");
  const [w, h] = [animation.w, animation.h];
  canvas.width = w; canvas.height = h;
  canvas.style.width = w + "px"; canvas.style.height = h + "px";
  document.getElementById("stage").replaceChildren(canvas);
  const player = new DotLottie({ canvas, data: JSON.stringify(animation), autoplay: false,
    loop: false, useFrameInterpolation: true,
    renderConfig: { devicePixelRatio: 1, autoResize: false, freezeOnOffscreen: false } });
  await new Promise((ok, no) => {
    player.addEventListener("load", ok);
    player.addEventListener("loadError", (e) => no(new Error(c.name + ": " + e.error)));
  });
  const context = canvas.getContext("2d", { willReadFrequently: true });
  const shown = c.frames.map((frame) => {
    player.setFrame(frame);
    const pixels = context.getImageData(0, 0, w, h).data;
    const alpha = (i, j) => pixels[4 * (j * w + i) + 3];
    return (c.ring ? ring : square)(alpha, w, h);
  });
  player.destroy();
  return shown;
}
"#;
