//! A per-motion bake's JSON tables read back for the browser tests: each motion's frames (and
//! each track's joins, where the CSS and the JS pass through the closed form), what a page
//! reads of it, the bound its readings must meet, and the page script that reads them.

use super::readout::sample_times;
use curvebake::internals::intake::read_all;
use curvebake::internals::load::find_inputs;
use curvebake::internals::spec::{unit_kind, Model, MotionSpec, Overrides, UnitKind};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Bound for px, % and deg when a reading is compared with the table's own chords.
pub const UNIT_BOUND: f64 = 0.01;
/// Bound for unitless values, likewise.
pub const UNITLESS_BOUND: f64 = 1e-4;
/// What reading a value back may add to a motion's tolerance: a computed style has 6
/// significant digits (0.0005 px at 1,000 px), WebKit holds lengths as float32.
pub const READ_SLACK: f64 = 0.002;
/// The same for unitless values.
pub const READ_SLACK_UNITLESS: f64 = 2e-5;
/// Fraction of `D` about a step within which a reading may show either side of it
/// ([`Table::step_near`]).
pub const STEP_WINDOW: f64 = 2e-5;

/// A baked motion as its JSON table has it, and the times a page seeks it to.
#[derive(Clone)]
pub struct Table {
    pub name: String,
    pub property: String,
    /// The unit the CSS and JS write values in: a ring given no length unit is drawn in px.
    pub unit: String,
    pub fps: f64,
    pub duration: f64,
    /// Frame times (s): t_i = min(i / fps, D), as bakes sample.
    pub times: Vec<f64>,
    /// Per track: name and positions (a ring's `inner` before its `outer`; a multi-track
    /// motion's tracks keyed by property, in name order).
    pub tracks: Vec<(String, Vec<f64>)>,
    /// Per track of a multi-track motion (`tracks: [...]`): its property and unit; empty
    /// for any other motion.
    pub track_units: Vec<String>,
    /// Seek times in ms.
    pub samples: Vec<f64>,
    /// Whether a ring's radii go back to 0 once it has ended (its CSS class does that).
    pub ring_ends_hidden: bool,
    /// Per track (as `tracks`), the joins of its own closed forms (a hand-off, a bound hit,
    /// where a track ends before the motion) and the closed form there: `(T, x(T))`.
    pub joins: Vec<Vec<(f64, f64)>>,
    /// The motion as validated: its closed form is the exact motion the pages are held to.
    pub spec: MotionSpec,
    /// Per track (as `tracks`), its tolerance at the default settings: how far what a
    /// browser plays may be from the exact motion at any instant.
    pub tolerances: Vec<f64>,
}

impl Table {
    pub fn is_ring(&self) -> bool {
        self.tracks.len() == 2 && !self.is_multi()
    }

    /// A motion of several properties on one timeline (`tracks: [...]`).
    pub fn is_multi(&self) -> bool {
        !self.track_units.is_empty()
    }

    /// The property that track `k` animates.
    pub fn property_of(&self, k: usize) -> &str {
        if self.is_multi() {
            &self.tracks[k].0
        } else {
            &self.property
        }
    }

    /// What the page reads for track `k` (as [`Table::readout`] for the motion's property).
    pub fn readout_of(&self, k: usize) -> &'static str {
        if self.is_ring() {
            return "custom";
        }
        match self.property_of(k) {
            "opacity" => "opacity",
            p if p.starts_with("--") => "custom",
            "translateX" | "translateY" => "translate",
            "scale" => "scale",
            "rotate" => "rotate",
            other => panic!("unexpected property {other}"),
        }
    }

    /// The bound of track `k`'s readings: by its own unit.
    pub fn bound_of(&self, k: usize) -> f64 {
        let unit = if self.is_multi() {
            &self.track_units[k]
        } else {
            &self.unit
        };
        if unit.is_empty() {
            UNITLESS_BOUND
        } else {
            UNIT_BOUND
        }
    }

    /// What the page reads: `translate`, `scale`, `rotate`, `opacity` or the custom
    /// properties; for a multi-track motion, `tracks` and each track's property (the page
    /// reads each as above, one reading per track).
    pub fn readout(&self) -> (&'static str, Vec<String>) {
        if self.is_multi() {
            return (
                "tracks",
                self.tracks.iter().map(|(p, _)| p.clone()).collect(),
            );
        }
        if self.is_ring() {
            let props = ["inner", "outer"].map(|t| format!("--{}-{t}", self.name));
            return ("custom", props.to_vec());
        }
        match self.property.as_str() {
            "opacity" => ("opacity", Vec::new()),
            p if p.starts_with("--") => ("custom", vec![p.to_owned()]),
            "translateX" | "translateY" => ("translate", Vec::new()),
            "scale" => ("scale", Vec::new()),
            "rotate" => ("rotate", Vec::new()),
            other => panic!("unexpected property {other}"),
        }
    }

    /// The motion's entry in a test page's plan: its name, what the page reads (`kind`,
    /// `props`, as [`PAGE_READERS`]' `read` takes them) and the seek times (ms).
    pub fn plan(&self) -> Value {
        let (kind, props) = self.readout();
        json!({ "name": self.name, "kind": kind, "props": props, "times": self.samples })
    }

    /// Label of a track's readings, for the error table.
    pub fn label(&self) -> String {
        if self.is_multi() {
            return "tracks".to_owned();
        }
        match (self.is_ring(), self.property.as_str(), self.unit.as_str()) {
            (true, _, unit) => format!("ring radius ({unit})"),
            (_, "translateX" | "translateY", unit) => format!("translate ({unit})"),
            (_, "rotate", unit) => format!("rotate ({unit})"),
            (_, p, "") if !p.starts_with("--") => p.to_owned(),
            (_, _, "") => "custom <number>".to_owned(),
            (_, _, unit) => format!("custom ({unit})"),
        }
    }

    /// The exact motion of track `k` at `t` (s): its closed form before the end `D`, the
    /// value it holds (its last frame) from `D` on.
    pub fn exact(&self, k: usize, t: f64) -> f64 {
        let x = &self.tracks[k].1;
        if t >= self.duration {
            return x[x.len() - 1];
        }
        let name = &self.tracks[k].0;
        let motions = self.spec.model.tracks();
        let (_, motion) = motions.iter().find(|(n, _)| n == name).expect("a track");
        motion.position(t.max(0.0))
    }

    /// The values on either side of a step of track `k` within [`STEP_WINDOW`] of `t`: the
    /// rest step at `D`, or where a track of a multi-track motion ends and holds its value.
    /// A browser resolves time to a microsecond (WebKit reads seeks back so; Chromium ends
    /// an animation on the microsecond), and `@keyframes`, which cannot repeat an offset,
    /// take a step over the last 10⁻⁵ of `D`: there either side is the motion.
    pub fn step_near(&self, k: usize, t: f64) -> Option<(f64, f64)> {
        let window = STEP_WINDOW * self.duration + 2e-6;
        let mut steps: Vec<f64> = self.joins[k].iter().map(|&(j, _)| j).collect();
        steps.push(self.duration);
        let step = steps.into_iter().find(|&s| (t - s).abs() <= window)?;
        Some((self.exact(k, step - window), self.exact(k, step)))
    }

    /// How far a reading of track `k` may be from the exact motion: its tolerance and what
    /// reading it back adds.
    pub fn exact_bound_of(&self, k: usize) -> f64 {
        let slack = if self.bound_of(k) == UNIT_BOUND {
            READ_SLACK
        } else {
            READ_SLACK_UNITLESS
        };
        self.tolerances[k] + slack
    }

    /// The bound of the motion's readings (of its tightest track).
    pub fn bound(&self) -> f64 {
        (0..self.tracks.len().max(1))
            .map(|k| self.bound_of(k))
            .fold(f64::INFINITY, f64::min)
    }

    /// The join times of any track that fall between two frames, more than `snap` seconds
    /// from both (the CSS and the JS give each a stop of its own there).
    pub fn joins_between_frames(&self, snap: f64) -> usize {
        let mut joins: Vec<f64> = self.joins.iter().flatten().map(|&(t, _)| t).collect();
        joins.sort_by(f64::total_cmp);
        joins.dedup();
        (joins.iter())
            .filter(|&&t| self.times.iter().all(|&f| (f - t).abs() > snap))
            .count()
    }

    /// What the CSS and the JS show of track `track` at time `t` (s): linear interpolation of
    /// the neighbouring frames and of the track's own joins between them, each at its closed
    /// form.
    pub fn at(&self, track: usize, t: f64) -> f64 {
        let Some((a, b)) = self.around(t) else {
            return self.chord(track, t);
        };
        let x = &self.tracks[track].1;
        let inside = self.joins[track]
            .iter()
            .copied()
            .filter(|&(j, _)| self.times[a] < j && j < self.times[b]);
        let points: Vec<(f64, f64)> = std::iter::once((self.times[a], x[a]))
            .chain(inside)
            .chain(std::iter::once((self.times[b], x[b])))
            .collect();
        let k = points
            .partition_point(|&(ti, _)| ti <= t)
            .clamp(1, points.len() - 1);
        let ((ta, xa), (tb, xb)) = (points[k - 1], points[k]);
        xa + (xb - xa) * (t - ta) / (tb - ta)
    }

    /// The table at time `t` (s): linear interpolation of the neighbouring frames alone.
    pub fn chord(&self, track: usize, t: f64) -> f64 {
        let x = &self.tracks[track].1;
        match self.around(t) {
            None if t < self.times[0] => x[0],
            None => x[x.len() - 1],
            Some((a, b)) => {
                x[a] + (x[b] - x[a]) * (t - self.times[a]) / (self.times[b] - self.times[a])
            }
        }
    }

    /// The frames `(a, a + 1)` with `t_a <= t < t_(a+1)`; `None` before the first frame and
    /// from the last on.
    fn around(&self, t: f64) -> Option<(usize, usize)> {
        let k = self.times.partition_point(|&ti| ti <= t);
        (k > 0 && k < self.times.len()).then(|| (k - 1, k))
    }
}

/// Per track of a table (`tracks`, by name), the joins of its own closed forms on a timeline
/// `duration` long and the closed form there.
fn own_joins(
    spec: &MotionSpec,
    duration: f64,
    tracks: &[(String, Vec<f64>)],
) -> Vec<Vec<(f64, f64)>> {
    let motions = spec.model.tracks();
    let joins = spec.model.track_joins(duration);
    tracks
        .iter()
        .map(|(name, _)| {
            let k = motions
                .iter()
                .position(|(n, _)| n == name)
                .expect("a track per name");
            joins[k]
                .iter()
                .map(|&t| (t, motions[k].1.position(t)))
                .collect()
        })
        .collect()
}

/// The table of every motion under `inputs` from the per-motion bake in `out`, in input
/// order, each with its spec.
pub fn read_tables(inputs: &[PathBuf], out: &Path) -> Vec<(MotionSpec, Table)> {
    let (specs, errors) = read_all(&find_inputs(inputs).unwrap(), Overrides::default());
    assert!(errors.is_empty(), "{errors:?}");
    specs
        .into_iter()
        .map(|input| {
            let path = out.join(format!("json/{}.json", input.spec.name));
            let table: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let fps = table["fps"].as_f64().unwrap();
            let duration = table["duration"].as_f64().unwrap();
            let frames = table["frames"].as_u64().unwrap() as usize;
            // serde_json keeps keys sorted: a ring's inner comes before its outer.
            let tracks: Vec<(String, Vec<f64>)> = table["tracks"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(track, v)| {
                    let x: Vec<f64> = serde_json::from_value(v["position"].clone()).unwrap();
                    assert_eq!(x.len(), frames);
                    (track.clone(), x)
                })
                .collect();
            let times: Vec<f64> = (0..frames)
                .map(|i| (i as f64 / fps).min(duration))
                .collect();
            // Null for a multi-track motion, whose tracks each say their own; its CSS and JS
            // write values in its spec's unit (its first track's).
            let unit = table["unit"].as_str().unwrap_or(&input.spec.unit);
            let track_units: Vec<String> = match &input.spec.model {
                Model::Tracks(spec) => tracks
                    .iter()
                    .map(|(property, _)| {
                        let track = spec.tracks().iter().find(|t| t.property.name() == property);
                        track.expect("a track per property").unit.clone()
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let unit = match unit_kind(unit) {
                Some(UnitKind::Length | UnitKind::Percentage) => unit,
                _ if tracks.len() == 2 && track_units.is_empty() => "px",
                _ => unit,
            };
            let settings = curvebake::export::ExportSettings::default();
            let tolerances = (tracks.iter().enumerate())
                .map(|(k, (_, x))| {
                    let unit = if track_units.is_empty() {
                        unit
                    } else {
                        track_units[k].as_str()
                    };
                    curvebake::internals::export::css::tolerance(&input.spec, &settings, unit, x)
                        .kept
                })
                .collect();
            let table = Table {
                spec: input.spec.clone(),
                tolerances,
                name: input.spec.name.clone(),
                // Null for a ring, whose radii are its tracks, and for a multi-track motion,
                // whose tracks are its properties.
                property: table["property"].as_str().unwrap_or_default().to_owned(),
                unit: unit.to_owned(),
                fps,
                duration,
                samples: sample_times(&times, &tracks),
                ring_ends_hidden: false,
                joins: own_joins(&input.spec, duration, &tracks),
                track_units,
                times,
                tracks,
            };
            (input.spec, table)
        })
        .collect()
}

/// The start of a test page's script: `plan` (from the `#plan` JSON) and `host` (the
/// `#host` element), and the readers. `read(el, kind, props)` returns, per value read, the
/// computed-style string and the typed OM reading (`[value, unit]`, or null; `"n/a"` in an
/// engine without Typed OM, Firefox); `seek(animation, el, kind, props, times)` pauses
/// `animation` (or every animation of an array) and returns, per time (ms), the animation's current time and what `read`
/// returns there.
pub const PAGE_READERS: &str = r#"
const plan = JSON.parse(document.getElementById("plan").textContent);
const host = document.getElementById("host");
const num = (v) => (v && typeof v.value === "number") ? [v.value, v.unit] : null;
function typedTransform(t) {
  if (!t || typeof t.length !== "number" || t.length !== 1) return null;
  const c = t[0];
  if (c instanceof CSSTranslate) return [num(c.x), num(c.y)];
  if (c instanceof CSSScale) return [num(c.x), num(c.y)];
  if (c instanceof CSSRotate) return [num(c.angle)];
  return null;
}
function read(el, kind, props) {
  const cs = getComputedStyle(el);
  const map = el.computedStyleMap ? el.computedStyleMap() : null;
  const typed = (p) => map ? num(map.get(p)) : "n/a";
  if (kind === "translate" || kind === "scale" || kind === "rotate") {
    const t = map ? typedTransform(map.get(kind)) : null;
    return [[cs.getPropertyValue(kind), t === null ? "n/a" : t]];
  }
  if (kind === "opacity") return [[cs.opacity, typed("opacity")]];
  if (kind === "tracks") {
    const of = (p) => p.startsWith("--") ? "custom" : p.startsWith("translate") ? "translate" : p;
    return props.map((p) => read(el, of(p), [p])[0]);
  }
  return props.map((p) => [cs.getPropertyValue(p), typed(p)]);
}
function seek(animation, el, kind, props, times) {
  // An animation, or the animations of a multi-track motion's tracks (each spans the motion).
  const all = [].concat(animation);
  all.forEach((a) => a.pause());
  return times.map((t) => {
    all.forEach((a) => { a.currentTime = t; });
    return [all[0].currentTime, read(el, kind, props)];
  });
}
"#;
