//! The review page `index.html`: every motion with its plot, its numbers and a live preview
//! animated by the generated CSS, and the tools to tune motions in it: one time scrubber that
//! seeks every preview and moves a cursor on every plot, a comparison of picked motions on one
//! time axis (position, or progress from start to end), previews at 1:1 on request, and, when
//! `curvebake watch --serve` serves it, live updates after each re-bake with the bake's errors
//! shown over the cards.
//!
//! The page is written from the [`Digest`]s after every motion (it needs no frames) and only
//! links files that the bake wrote: a motion's PNG plot (`png/<name>.png`) and stylesheet
//! (`css/<name>.css`) are used when they are among its files, so the page works with any
//! `--formats`. It works from `file://`: no server, no external asset; its own CSS
//! (`html/page.css`) and script (`html/page.js`) are inline. The plots
//! in the page are SVG drawn by the script from each card's data (the digest's picked frames),
//! so their text is page text at the page's size; the PNG stays the full plot, linked.
//!
//! Every text that reaches the page goes through [`escape`], and every number through
//! [`curvebake_model::number::format_number`] (for people) or the shortest round-trip form (for
//! the script's data).

use crate::exporter::{
    Buffers, Digest, Exporter, JoinKind, MotionOutput, OutputFile, Shape, Summary,
};
use crate::png::{plot_path, CONTACT_SHEET_PATH};
use crate::settings::{ExportSettings, Format, Layout};
use curvebake_model::bake::Baked;
use curvebake_model::number::format_number;
use curvebake_model::number::write_json_f64;
use curvebake_model::spec::param_unit;
use std::fmt::Write as _;

mod preview;
use preview::preview;

/// Path of the review page.
pub const PAGE_PATH: &str = "index.html";

/// Most motions the review page shows (the first ones, in input order): a card is 3.5 KB
/// (a spring) to about 6 KB of HTML, with a live preview and a plot the script draws, so the
/// page stays around 10 MB, which a browser opens. The page says how many it leaves out, and
/// the bake warns ([`Exporter::summary_warnings`]); the other formats hold every motion.
pub const MAX_PAGE_MOTIONS: usize = 2_000;

/// The HTML exporter.
#[derive(Debug, Clone)]
pub struct Html {
    settings: ExportSettings,
    shape: Shape,
}

impl Html {
    /// The exporter for `layout` with these settings (it uses `plot_size` for the images'
    /// aspect ratio): the page in the per-motion layout, nothing in the bundle layout (which
    /// holds only JSON and CSS).
    pub fn new(layout: Layout, settings: &ExportSettings) -> Self {
        let summary = match layout {
            Layout::PerMotion => Summary::Previews,
            Layout::Bundle => Summary::None,
        };
        Self {
            settings: settings.clone(),
            shape: Shape {
                files: &[],
                bundle: None,
                summary,
                summaries: match summary {
                    Summary::None => &[],
                    _ => &[PAGE_PATH],
                },
            },
        }
    }
}

impl Exporter for Html {
    fn format(&self) -> Format {
        Format::Html
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Nothing per motion: the page is written by [`Exporter::summary`].
    fn motion(&self, _: &Baked, _: &[String], _: &dyn Buffers) -> MotionOutput {
        MotionOutput::default()
    }

    /// `index.html`.
    fn summary(&self, digests: &[Digest]) -> Vec<OutputFile> {
        if self.shape.summary == Summary::None {
            return Vec::new();
        }
        vec![OutputFile {
            path: PAGE_PATH.into(),
            bytes: page(digests, &self.settings).into_bytes(),
        }]
    }

    /// One warning when the page leaves motions out (more than [`MAX_PAGE_MOTIONS`]).
    fn summary_warnings(&self, motions: usize, with_files: bool) -> Vec<String> {
        if self.shape.summary == Summary::None || motions <= MAX_PAGE_MOTIONS {
            return Vec::new();
        }
        let left_out = motions - MAX_PAGE_MOTIONS;
        // A motion's files are those of every format of the bake; none when the page is all.
        let others = if with_files {
            "the other formats of this bake have them all"
        } else {
            "bake other formats too (`--formats json,css,html`) for outputs that have them all"
        };
        vec![format!(
            "{PAGE_PATH}: shows the first {MAX_PAGE_MOTIONS} motions of {motions} and leaves \
             out the other {left_out} (a page of them all would be too large to open); {others}"
        )]
    }
}

/// Escapes text for HTML content and double- or single-quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A number for the page's script: shortest round-trip, which JavaScript's `Number` parses.
fn data_number(x: f64) -> String {
    let mut out = Vec::new();
    write_json_f64(&mut out, if x.is_finite() { x } else { 0.0 });
    String::from_utf8(out).expect("numbers are ASCII")
}

/// The review page for these motions; `plot_size` gives the PNG plots' width and height. It
/// shows the first [`MAX_PAGE_MOTIONS`] of them, and says how many it leaves out; its size is
/// in proportion to the motions it shows, whatever the count of `digests`.
pub fn page(digests: &[Digest], settings: &ExportSettings) -> String {
    let shown = &digests[..digests.len().min(MAX_PAGE_MOTIONS)];
    let mut stylesheets = String::new();
    for d in shown {
        for f in d.files.iter().filter(|f| f.ends_with(".css")) {
            let _ = writeln!(stylesheets, "{LINK_OPEN}{}\">", escape(f));
        }
    }
    let frames: usize = digests.iter().map(|d| d.frames).sum();
    // The scrubber spans the motions shown.
    let longest = shown.iter().map(|d| d.duration).fold(0.0, f64::max);
    let sheet = digests
        .iter()
        .any(|d| d.files.contains(&plot_path(&d.name)))
        && !digests
            .iter()
            .any(|d| d.files.iter().any(|f| f == CONTACT_SHEET_PATH));
    let mut out = String::with_capacity(8192 + 6144 * shown.len());
    let _ = write!(
        out,
        "<!doctype html>
<html lang=\"en\">
<head>
<meta charset=\"utf-8\">
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">
<link rel=\"icon\" href=\"data:,\">
<title>curvebake review: {count} motion{plural}</title>
{stylesheets}<style>
{STYLE}</style>
</head>
<body>
<header class=\"top\">
<h1>curvebake review</h1>
{SUMMARY_OPEN}{count} motion{plural}, {frames} frames{left_out}{sheet_link}</p>
<span id=\"live\" class=\"live\" role=\"status\" hidden></span>
<div class=\"controls\">
<button type=\"button\" data-replay=\"all\">Replay all</button>
<label><input type=\"checkbox\" id=\"loop\"> Loop</label>
<label><input type=\"checkbox\" id=\"slow\"> Quarter speed</label>
<label title=\"Previews at their real size: one CSS pixel per pixel of the motion\"><input type=\"checkbox\" id=\"actual\"> Actual size (1:1)</label>
</div>
<div class=\"scrubber\">
<label for=\"scrub\">Time</label>
{SCRUB_OPEN}{longest}\" step=\"any\" value=\"0\">
<output id=\"scrub-time\" for=\"scrub\">playing</output>
<label class=\"span\" title=\"What the time scrubber's length is: the longest motion, the longest of the motions on screen, or of the motions picked to compare\">spans <select id=\"scrub-span\">
<option value=\"all\">all motions</option>
<option value=\"view\">motions on screen</option>
<option value=\"picked\">compared motions</option>
</select></label>
</div>
</header>
<section id=\"bake-errors\" class=\"bake-errors\" role=\"alert\" hidden></section>
<section id=\"compare\" class=\"compare\" hidden>
<div class=\"compare-head\">
<h2>Comparison</h2>
<label><input type=\"radio\" name=\"compare-mode\" value=\"position\" checked> position</label>
<label><input type=\"radio\" name=\"compare-mode\" value=\"progress\"> progress (start 0, end 1)</label>
<button type=\"button\" id=\"compare-clear\">Clear</button>
</div>
<div class=\"plot-box\"><svg class=\"plot-svg\" role=\"img\" aria-label=\"The picked motions on one time axis\"></svg></div>
<ul class=\"plot-legend\"></ul>
</section>
<main>
",
        count = digests.len(),
        plural = if digests.len() == 1 { "" } else { "s" },
        longest = data_number(longest),
        left_out = if shown.len() < digests.len() {
            format!(
                " · the first {} shown, {} left out",
                shown.len(),
                digests.len() - shown.len()
            )
        } else {
            String::new()
        },
        sheet_link = if sheet {
            format!(
                " · <a href=\"{}\">contact sheet</a>",
                escape(CONTACT_SHEET_PATH)
            )
        } else {
            String::new()
        },
    );
    if digests.is_empty() {
        out.push_str("<p class=\"empty\">No motion was baked.</p>\n");
    }
    for d in shown {
        motion_card(&mut out, d, settings);
    }
    let _ = write!(
        out,
        "</main>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n"
    );
    out
}

/// One motion's card as the page writes it (`curvebake watch --serve` sends it to the page
/// when a motion is tuned, so a tuned card is drawn by the same code as a baked one).
pub fn card(d: &Digest, settings: &ExportSettings) -> String {
    let mut out = String::with_capacity(6144);
    motion_card(&mut out, d, settings);
    out
}

/// One motion's card: title, the plot (SVG drawn by the page's script from the card's data;
/// the PNG as the no-script fallback, and linked), the preview, the numbers, the files, and
/// the data.
fn motion_card(out: &mut String, d: &Digest, settings: &ExportSettings) {
    let (width, height) = settings.plot_size;
    let name = escape(&d.name);
    let _ = write!(
        out,
        "{CARD_OPEN}{name}\" data-motion=\"{name}\">
<div class=\"card-head\">
<h2>{name}</h2>
<label class=\"pick\"><input type=\"checkbox\" data-pick=\"{name}\" aria-label=\"compare {name}\"> compare</label>
<button type=\"button\" class=\"pin\" data-pin=\"{name}\" aria-label=\"Keep {name} as before\" title=\"Keep this version in the comparison, to compare it with the next bake\">Keep as before</button>
</div>
<p class=\"kind\">{kind} · {what}</p>
<figure class=\"plot\">
<div class=\"plot-box\"><svg class=\"plot-svg\" role=\"img\" aria-label=\"Position of {name} against time\"></svg></div>
",
        kind = escape(&d.kind),
        what = escape(&subject(d)),
    );
    let plot = plot_path(&d.name);
    if d.files.contains(&plot) {
        let plot = escape(&plot);
        let _ = writeln!(
            out,
            "<noscript><a href=\"{plot}\"><img src=\"{plot}\" width=\"{width}\" height=\"{height}\" alt=\"Plot of {name}: position and velocity against time, with the baked frames\"></a></noscript>
<figcaption><a href=\"{plot}\">full plot with velocity and parameters (PNG)</a></figcaption>"
        );
    }
    out.push_str("</figure>\n<div class=\"detail\">\n");
    preview(out, d, settings);
    numbers(out, d);
    out.push_str("</div>\n");
    if !d.files.is_empty() {
        out.push_str("<p class=\"files\">");
        for (i, f) in d.files.iter().enumerate() {
            let f = escape(f);
            let _ = write!(
                out,
                "{}<a href=\"{f}\">{f}</a>",
                if i > 0 { " · " } else { "" }
            );
        }
        out.push_str("</p>\n");
    }
    out.push_str("<script type=\"application/json\" class=\"motion-data\">");
    out.push_str(&motion_data(d));
    out.push_str("</script>\n");
    out.push_str(CARD_CLOSE);
}

/// What a card animates, each with its unit: `translateY (px)`; a ring's `radii (px)`; every
/// track of a multi-track motion, `translateY (px), opacity (unitless)`.
fn subject(d: &Digest) -> String {
    if d.kind == "explosion-ring" {
        with_unit("radii", &d.unit)
    } else if d.preview.len() > 1 {
        let tracks = d.preview.iter().enumerate();
        let each =
            tracks.map(|(k, (track, _))| with_unit(track, d.units.get(k).unwrap_or(&d.unit)));
        each.collect::<Vec<_>>().join(", ")
    } else {
        with_unit(&d.property, &d.unit)
    }
}

/// The card's data for the page's script: the picked frames of every track, the value each
/// track ends at, when the motion looks done, when it provably rests (if the bake ran until
/// then), and how to draw it: `translateY` with down pointing down, as on screen. Every track
/// is in `tracks`, so a motion of several tracks gets them all (a ring draws its two radii on
/// one panel; other motions get one panel per track). `<` is escaped, so the JSON cannot end
/// its `<script>`.
fn motion_data(d: &Digest) -> String {
    use serde_json::json;
    let ring = d.kind == "explosion-ring";
    let down = !ring && d.property == "translateY";
    let what = if ring { "radius" } else { d.property.as_str() };
    let tracks: Vec<_> = (d.preview.iter().enumerate())
        .map(|(k, (track, points))| {
            let unit = d.units.get(k).unwrap_or(&d.unit);
            // A track of several has its own panel, drawn and labelled by its own property.
            let own = !ring && d.preview.len() > 1;
            let track_down = if own { *track == "translateY" } else { down };
            let marks = d.marks.get(k);
            let joins: Vec<_> = (marks.iter().flat_map(|m| &m.joins))
                .map(|&(t, kind)| {
                    let what = match kind {
                        JoinKind::Handoff => "hand-off",
                        JoinKind::Bound => "bound",
                        JoinKind::TrackEnd => "end",
                    };
                    json!([finite(t), what])
                })
                .collect();
            json!({
                "name": track,
                "unit": unit,
                "down": track_down,
                "ylabel": if own { axis_label(track, unit, track_down) } else { String::new() },
                "t": drawn(points.iter().map(|p| p.0)),
                "x": drawn(points.iter().map(|p| p.1)),
                "joins": joins,
                "done": marks.and_then(|m| m.looks_done).map(finite),
                "ending": d.endings.get(k),
            })
        })
        .collect();
    let ending = if d.rests {
        "rests"
    } else if d.arrives {
        "arrives"
    } else {
        "fixed"
    };
    json!({
        "name": d.name,
        "unit": d.unit,
        "property": d.property,
        "ring": ring,
        "duration": finite(d.duration),
        "down": down,
        "ylabel": axis_label(what, &d.unit, down),
        "tracks": tracks,
        "ends": d.ends.iter().map(|&e| finite(e)).collect::<Vec<_>>(),
        "ending": ending,
        "done": d.looks_done.map(finite),
        "rest": d.rests.then(|| finite(d.duration)),
    })
    .to_string()
    .replace('<', "\\u003c")
}

/// A plot's value axis label: what, its unit, and which way is down.
fn axis_label(what: &str, unit: &str, down: bool) -> String {
    let arrow = if down { " ↓ down" } else { "" };
    format!("{}{arrow}", with_unit(what, unit))
}

/// A plotted line's coordinates, each to a millionth of their range (far below a pixel), in
/// the fewest digits that read back as that: an `f64` of the closed form takes 17.
fn drawn(values: impl Iterator<Item = f64> + Clone) -> Vec<f64> {
    let (lo, hi) = (values.clone().map(finite))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
    let span = (hi - lo).max(hi.abs().max(lo.abs()) * 1e-9);
    let decimals = if span > 0.0 {
        (6.0 - libm::log10(span).floor()).clamp(0.0, 17.0) as usize
    } else {
        0
    };
    (values.map(finite))
        .map(|x| format!("{x:.decimals$}").parse().unwrap_or(x))
        .collect()
}

/// `what (unit)`, `unitless` for no unit.
fn with_unit(what: &str, unit: &str) -> String {
    let unit = if unit.is_empty() { "unitless" } else { unit };
    format!("{what} ({unit})")
}

/// A number for the page's data (JSON has no NaN or infinity; a bake never makes them).
fn finite(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// Duration, frames, fps, when it looks done and rests, and the resolved parameters.
fn numbers(out: &mut String, d: &Digest) {
    let _ = write!(
        out,
        "<table class=\"numbers\">
<tr><th>duration</th><td>{duration} s</td></tr>
<tr><th>frames</th><td>{frames}</td></tr>
<tr><th>fps</th><td>{fps}</td></tr>
",
        duration = escape(&format_number(d.duration)),
        frames = d.frames,
        fps = escape(&format_number(d.fps)),
    );
    if let Some(done) = d.looks_done {
        let each = if d.units.len() > 1 {
            " of each track"
        } else {
            ""
        };
        let within = crate::done::within_words(d.units.iter().map(String::as_str));
        let _ = writeln!(
            out,
            "<tr title=\"From this frame on, every frame{each} is {within}\"><th>looks done</th><td>{} s</td></tr>",
            escape(&format_number(done))
        );
    }
    if d.rests {
        let _ = writeln!(
            out,
            "<tr title=\"From here on the motion provably stays within the rest thresholds\"><th>at rest (proved)</th><td>{} s</td></tr>",
            escape(&format_number(d.duration))
        );
    }
    for (k, group) in d.params.iter().enumerate() {
        // A track's group (a multi-track motion's, a ring's radii) is in its track's unit.
        let unit = d.units.get(k).unwrap_or(&d.unit);
        if let Some(g) = &group.name {
            // A spring's equivalent forms are named as its PNG plot names them.
            let (title, tip) = match spring_form(g) {
                Some((name, platforms)) => (
                    format!("as {name}"),
                    format!(" title=\"The same spring in the form of {platforms}\""),
                ),
                None => (g.to_string(), String::new()),
            };
            let _ = writeln!(
                out,
                "<tr class=\"group\"{tip}><th colspan=\"2\">{}</th></tr>",
                escape(&title)
            );
        }
        for (k, v) in &group.values {
            let (label, unit) = param_label(k, unit);
            let _ = writeln!(
                out,
                "<tr><th>{}</th><td>{}{unit}</td></tr>",
                escape(&label),
                escape(&format_number(*v))
            );
        }
    }
    out.push_str("</table>\n");
}

/// A spring's equivalent form by the name of its parameter group (`motion_dev`): as the PNG
/// plot and the review page name it (`motion.dev`), and the platforms that write it
/// ([`curvebake_motion::SPRING_PLATFORMS`]); `None` for any other group.
pub(crate) fn spring_form(group: &str) -> Option<(String, &'static str)> {
    (curvebake_motion::SPRING_PLATFORMS.iter())
        .find(|(g, _)| *g == group)
        .map(|(g, platforms)| (g.replace('_', "."), *platforms))
}

/// How the page names a parameter of the JSON `params`, and the unit written after its value
/// ([`param_unit`], for a motion in `unit`): a step's or a track's `start`, `end` and
/// `handoff` read as when they happen, other names in words.
fn param_label(name: &str, unit: &str) -> (String, String) {
    let label = match name {
        "start" => "starts at".to_owned(),
        "end" => "ends at".to_owned(),
        "handoff" => "hands off at".to_owned(),
        other => other.replace('_', " "),
    };
    (label, param_unit(name, unit))
}

/// How the summary line under the page's title starts.
const SUMMARY_OPEN: &str = "<p class=\"summary\">";
/// How the scrubber's input starts, up to its `max` (the longest motion, in seconds).
const SCRUB_OPEN: &str = "<input type=\"range\" id=\"scrub\" min=\"0\" max=\"";
/// How a card starts, up to its motion's name.
const CARD_OPEN: &str = "<article id=\"motion-";
/// How a card ends: no text inside a card can (every text is escaped, and the card's data
/// cannot end its script).
const CARD_CLOSE: &str = "</article>\n";
/// How a stylesheet's link starts, up to its `href`.
const LINK_OPEN: &str = "<link rel=\"stylesheet\" href=\"";

/// The parts of a review page that a bake of the same motions can change, as [`page`] wrote
/// them: what `curvebake watch --serve` compares from one bake to the next, so that an open
/// page replaces only the cards that changed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PageParts {
    /// The stylesheets linked, in order (their `href`, escaped as in the page).
    pub stylesheets: Vec<String>,
    /// The summary line, the whole element.
    pub summary: String,
    /// The scrubber's end, the longest motion's duration in seconds, as written.
    pub longest: String,
    /// Each card: its motion's name (escaped as in the page) and the whole element.
    pub cards: Vec<(String, String)>,
}

impl PageParts {
    /// The parts of `page`, a page [`page`] wrote; `None` for anything else.
    pub fn of(page: &str) -> Option<Self> {
        let head = &page[..page.find("</head>")?];
        let stylesheets = (head.split(LINK_OPEN).skip(1))
            .map(|rest| rest.split('"').next().map(str::to_owned))
            .collect::<Option<Vec<_>>>()?;
        let summary = format!("{SUMMARY_OPEN}{}</p>", between(page, SUMMARY_OPEN, "</p>")?);
        let longest = between(page, SCRUB_OPEN, "\"")?.to_owned();
        let main = between(page, "<main>\n", "</main>")?;
        let mut cards = Vec::new();
        let mut rest = main;
        while let Some(at) = rest.find(CARD_OPEN) {
            let end = at + rest[at..].find(CARD_CLOSE)? + CARD_CLOSE.len();
            let card = &rest[at..end];
            let name = between(card, CARD_OPEN, "\"")?.to_owned();
            cards.push((name, card.to_owned()));
            rest = &rest[end..];
        }
        Some(Self {
            stylesheets,
            summary,
            longest,
            cards,
        })
    }

    /// The cards of `self` that differ from those of `before`, when both pages have the same
    /// motions in the same order and link the same stylesheets (else `None`: the page must be
    /// taken whole).
    pub fn changed_since(&self, before: &Self) -> Option<Vec<&str>> {
        let same_motions =
            (self.cards.iter().map(|(n, _)| n)).eq(before.cards.iter().map(|(n, _)| n));
        if !same_motions || self.stylesheets != before.stylesheets {
            return None;
        }
        Some(
            (self.cards.iter().zip(&before.cards))
                .filter(|((_, now), (_, then))| now != then)
                .map(|((_, now), _)| now.as_str())
                .collect(),
        )
    }
}

/// What `text` holds between the first `open` and the next `close`.
fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    Some(&text[start..start + text[start..].find(close)?])
}

/// The page's stylesheet.
const STYLE: &str = include_str!("html/page.css");

/// The page's script: fits each preview into its stage (or shows it at 1:1), draws the plots
/// and the comparison as SVG from the cards' data, seeks every preview to the scrubber's time,
/// replays, loops and slows the animations, and, when the page is served by
/// `curvebake watch --serve`, follows the bakes and shows their errors.
const SCRIPT: &str = include_str!("html/page.js");

#[cfg(test)]
mod tests {
    use super::*;
    use curvebake_model::spec::ParamGroup;

    fn digest(name: &str, files: &[&str]) -> Digest {
        Digest {
            name: name.into(),
            kind: "spring".into(),
            property: "translateY".into(),
            unit: "px".into(),
            fps: 60.0,
            duration: 1.2,
            frames: 73,
            params: vec![ParamGroup {
                name: None,
                values: vec![
                    ("from".into(), -240.0),
                    ("damping_ratio".into(), 0.606_775_3),
                ],
            }],
            files: files.iter().map(|f| f.to_string()).collect(),
            preview: vec![("value".into(), vec![(0.0, -240.0), (1.2, 0.0)])],
            preview_joins: Vec::new(),
            units: vec!["px".into()],
            ends: vec![0.0],
            looks_done: Some(0.75),
            marks: Vec::new(),
            rests: true,
            arrives: false,
            endings: Vec::new(),
        }
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn links_only_files_that_exist() {
        let all = page(
            &[digest(
                "card-drop",
                &["css/card-drop.css", "png/card-drop.png"],
            )],
            &ExportSettings::default(),
        );
        assert!(all.contains(r#"<link rel="stylesheet" href="css/card-drop.css">"#));
        assert!(all.contains(r#"<img src="png/card-drop.png" width="1200" height="800""#));
        assert!(all.contains(r#"<a href="png/card-drop.png">full plot"#));
        assert!(all.contains("<th>looks done</th><td>0.75 s</td>"));
        assert!(all.contains("<th>at rest (proved)</th><td>1.2 s</td>"));
        assert!(all.contains("png/all.png"));
        assert!(all.contains(r#"class="puck anim card-drop" data-anim="card-drop""#));
        assert!(all.contains("<td>0.6068</td>"));
        assert!(all.contains("<th>damping ratio</th>"));

        let bare = page(
            &[digest("card-drop", &["json/card-drop.json"])],
            &ExportSettings::default(),
        );
        assert!(!bare.contains("<img"));
        assert!(!bare.contains("<link rel=\"stylesheet\""));
        assert!(!bare.contains("png/all.png"));
        assert!(bare.contains("no CSS baked"));
    }

    #[test]
    fn the_data_of_a_card_is_json_that_cannot_end_its_script() {
        let mut d = digest("card-drop", &[]);
        d.unit = "</script><b>".into();
        let page = page(&[d], &ExportSettings::default());
        let start = page
            .find(r#"<script type="application/json" class="motion-data">"#)
            .unwrap();
        let json = &page[start..];
        let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
        let data: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(data["unit"], "</script><b>");
        assert_eq!(data["down"], true);
        assert_eq!(data["done"], 0.75);
        assert_eq!(data["rest"], 1.2);
        assert_eq!(data["tracks"][0]["x"], serde_json::json!([-240.0, 0.0]));
    }

    #[test]
    fn each_track_of_several_is_labelled_in_its_own_unit() {
        let mut d = digest("sheet", &[]);
        d.kind = "tracks".into();
        d.preview = vec![
            ("translateY".into(), vec![(0.0, 480.0), (1.2, 0.0)]),
            ("opacity".into(), vec![(0.0, 0.0), (1.2, 1.0)]),
        ];
        d.units = vec!["px".into(), String::new()];
        let data: serde_json::Value = serde_json::from_str(&motion_data(&d)).unwrap();
        let tracks = &data["tracks"];
        assert_eq!(tracks[0]["ylabel"], "translateY (px) ↓ down");
        assert_eq!(tracks[1]["ylabel"], "opacity (unitless)");
        assert_eq!(
            (&tracks[0]["unit"], &tracks[1]["unit"]),
            (&"px".into(), &"".into())
        );
        assert_eq!(subject(&d), "translateY (px), opacity (unitless)");
        assert_eq!(subject(&digest("drop", &[])), "translateY (px)");
    }

    #[test]
    fn times_among_the_parameters_read_as_times() {
        let mut d = digest("toss", &[]);
        d.params = vec![ParamGroup {
            name: Some("translateY".into()),
            values: vec![
                ("end".into(), 1.248),
                ("first_impact".into(), 0.75),
                ("restitution".into(), 0.4),
            ],
        }];
        let page = page(&[d], &ExportSettings::default());
        assert!(page.contains("<th>ends at</th><td>1.248 s</td>"));
        assert!(page.contains("<th>first impact</th><td>0.75 s</td>"));
        assert!(page.contains("<th>restitution</th><td>0.4</td>"));
    }

    #[test]
    fn a_page_splits_into_its_cards_and_tells_which_changed() {
        let settings = ExportSettings::default();
        let files = ["css/a.css", "json/a.json"];
        let (a, b) = (digest("a", &files), digest("b", &["css/b.css"]));
        let before = PageParts::of(&page(&[a.clone(), b.clone()], &settings)).unwrap();
        assert_eq!(before.stylesheets, ["css/a.css", "css/b.css"]);
        assert_eq!(before.longest, "1.2");
        assert_eq!(
            before.summary,
            r#"<p class="summary">2 motions, 146 frames</p>"#
        );
        let names: Vec<&str> = before.cards.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        for (name, html) in &before.cards {
            assert_eq!(*html, card(if name == "a" { &a } else { &b }, &settings));
        }
        // b longer: its card and the page's end change, a's card does not.
        let mut longer = b.clone();
        longer.duration = 2.5;
        let after = PageParts::of(&page(&[a.clone(), longer.clone()], &settings)).unwrap();
        assert_eq!(after.longest, "2.5");
        assert_eq!(
            after.changed_since(&before),
            Some(vec![card(&longer, &settings).as_str()])
        );
        assert_eq!(before.changed_since(&before), Some(vec![]));
        // Motions moved, gone or linking other stylesheets: the page is taken whole.
        let moved = PageParts::of(&page(&[b.clone(), a.clone()], &settings)).unwrap();
        assert_eq!(moved.changed_since(&before), None);
        let gone = PageParts::of(&page(std::slice::from_ref(&a), &settings)).unwrap();
        assert_eq!(gone.changed_since(&before), None);
        let restyled = PageParts::of(&page(&[a, digest("b", &[])], &settings)).unwrap();
        assert_eq!(restyled.changed_since(&before), None);
        assert_eq!(PageParts::of("<html>not a review page</html>"), None);
        let empty = PageParts::of(&page(&[], &settings)).unwrap();
        assert!(empty.cards.is_empty());
    }

    /// Regression: the page held a card for every motion, and reserved 6 KB for each up
    /// front; 748,123 small springs asked for 4.6 GB and the bake aborted, 100,000 made a page
    /// of 348 MB that no browser opens, without a word.
    #[test]
    fn the_page_shows_the_first_motions_up_to_its_limit_and_the_bake_says_so() {
        let settings = ExportSettings::default();
        let html = Html::new(Layout::PerMotion, &settings);
        let count = MAX_PAGE_MOTIONS + 3;
        let digests: Vec<Digest> = (0..count)
            .map(|i| {
                let mut d = digest(&format!("m{i}"), &[&format!("css/m{i}.css")]);
                d.duration = if i == MAX_PAGE_MOTIONS { 90.0 } else { 1.0 };
                d
            })
            .collect();
        let text = page(&digests, &settings);
        let parts = PageParts::of(&text).unwrap();
        let names: Vec<&str> = parts.cards.iter().map(|(n, _)| n.as_str()).collect();
        let first: Vec<String> = (0..MAX_PAGE_MOTIONS).map(|i| format!("m{i}")).collect();
        assert_eq!(names, first, "the first ones, in input order");
        assert_eq!(parts.stylesheets.len(), MAX_PAGE_MOTIONS);
        // The scrubber spans the motions shown, not the longest left out.
        assert_eq!(parts.longest, "1.0");
        let frames = 73 * count;
        assert!(
            parts.summary.contains(&format!(
                "{count} motions, {frames} frames · the first {MAX_PAGE_MOTIONS} shown, 3 left out"
            )),
            "{}",
            parts.summary
        );
        let warnings = html.summary_warnings(count, true);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("shows the first 2000 motions of 2003")
                && warnings[0].contains("leaves out the other 3")
                && warnings[0].contains("the other formats of this bake have them all"),
            "{warnings:?}"
        );

        // At the limit, nothing is left out and nothing is said.
        let all = PageParts::of(&page(&digests[..MAX_PAGE_MOTIONS], &settings)).unwrap();
        assert_eq!(all.cards.len(), MAX_PAGE_MOTIONS);
        assert!(!all.summary.contains("left out"), "{}", all.summary);
        assert!(html.summary_warnings(MAX_PAGE_MOTIONS, true).is_empty());
        // Without files of their own (a bake of the page alone), it says how to get them.
        assert!(html.summary_warnings(count, false)[0].contains("bake other formats too"));
        // The bundle layout writes no page, and warns of none.
        let bundle = Html::new(Layout::Bundle, &settings);
        assert!(bundle.summary_warnings(count, true).is_empty());
    }

    #[test]
    fn an_empty_bake_still_makes_a_page() {
        let empty = page(&[], &ExportSettings::default());
        assert!(empty.contains("No motion was baked."));
        assert!(empty.ends_with("</html>\n"));
    }
}
