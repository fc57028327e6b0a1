//! The review page `index.html`: every motion with its plot, its numbers, and a live preview
//! animated by the generated CSS, with replay controls.
//!
//! The page is written from the [`Digest`]s after every motion (it needs no frames) and only
//! links files that the bake wrote: a motion's plot (`png/<name>.png`) and stylesheet
//! (`css/<name>.css`) are used when they are among its files, so the page works with any
//! `--formats`. It works from `file://`: no server, no external asset; its own CSS and
//! script are inline.
//!
//! Every text that reaches the page goes through [`escape`], and every number through
//! [`crate::export::png::format_number`] (for people) or the shortest round-trip form (for
//! the script's `data-` attributes).

use super::png::{format_number, plot_path, CONTACT_SHEET_PATH};
use super::{Digest, ExportSettings, Exporter, Layout, MotionOutput, OutputFile};
use crate::bake::Baked;
use crate::export::number::write_json_f64;
use crate::spec::{unit_kind, UnitKind};
use std::fmt::Write as _;

/// Path of the review page.
pub const PAGE_PATH: &str = "index.html";

/// The HTML exporter.
#[derive(Debug, Clone)]
pub struct Html {
    settings: ExportSettings,
}

impl Html {
    /// An exporter with these settings (it uses `plot_size` for the images' aspect ratio).
    pub fn new(settings: &ExportSettings) -> Self {
        Self {
            settings: *settings,
        }
    }
}

impl Exporter for Html {
    fn name(&self) -> &'static str {
        "html"
    }
    fn needs_preview(&self) -> bool {
        true
    }

    /// Nothing per motion: the page is written by [`Exporter::summary`].
    fn motion(&self, baked: &Baked, layout: Layout, files: &[String]) -> MotionOutput {
        let _ = (baked, layout, files);
        MotionOutput::default()
    }

    /// The review page exists only in the per-motion layout.
    fn summarizes(&self, layout: Layout) -> bool {
        layout == Layout::PerMotion
    }

    /// `index.html`; nothing in the bundle layout, which holds only JSON and CSS.
    fn summary(&self, digests: &[Digest], layout: Layout) -> Vec<OutputFile> {
        if layout == Layout::Bundle {
            return Vec::new();
        }
        vec![OutputFile {
            path: PAGE_PATH.into(),
            bytes: page(digests, self.settings.plot_size).into_bytes(),
        }]
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

/// The review page for these motions; `plot_size` gives the images' width and height.
pub fn page(digests: &[Digest], plot_size: (u32, u32)) -> String {
    let mut stylesheets = String::new();
    for d in digests {
        for f in d.files.iter().filter(|f| f.ends_with(".css")) {
            let _ = writeln!(
                stylesheets,
                "<link rel=\"stylesheet\" href=\"{}\">",
                escape(f)
            );
        }
    }
    let frames: usize = digests.iter().map(|d| d.frames).sum();
    let sheet = digests
        .iter()
        .any(|d| d.files.contains(&plot_path(&d.name)))
        && !digests
            .iter()
            .any(|d| d.files.iter().any(|f| f == CONTACT_SHEET_PATH));
    let mut out = String::with_capacity(4096 + 3072 * digests.len());
    let _ = write!(
        out,
        "<!doctype html>
<html lang=\"en\">
<head>
<meta charset=\"utf-8\">
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">
<title>curvebake review: {count} motion{plural}</title>
{stylesheets}<style>
{STYLE}</style>
</head>
<body>
<header>
<h1>curvebake review</h1>
<p class=\"summary\">{count} motion{plural}, {frames} frames{sheet_link}</p>
<div class=\"controls\">
<button type=\"button\" data-replay=\"all\">Replay all</button>
<label><input type=\"checkbox\" id=\"loop\"> Loop</label>
<label><input type=\"checkbox\" id=\"slow\"> Quarter speed</label>
</div>
</header>
<main>
",
        count = digests.len(),
        plural = if digests.len() == 1 { "" } else { "s" },
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
    for d in digests {
        motion_card(&mut out, d, plot_size);
    }
    let _ = write!(
        out,
        "</main>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n"
    );
    out
}

/// How the preview shows a motion's property.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Preview {
    /// A square moved along x or y (`data-fit` `x` or `y`).
    Move(&'static str),
    /// A square scaled, rotated or faded (nothing to fit).
    InPlace,
    /// The ring class draws the ring itself (fitted to the stage).
    Ring,
    /// A custom length or number as the width of a bar (fitted along x).
    Bar,
    /// A custom angle as the rotation of a square.
    Turn,
}

fn preview_kind(d: &Digest) -> Preview {
    if d.kind == "explosion-ring" {
        return Preview::Ring;
    }
    match d.property.as_str() {
        "translateX" => Preview::Move("x"),
        "translateY" => Preview::Move("y"),
        "scale" | "rotate" | "opacity" => Preview::InPlace,
        _ => match unit_kind(&d.unit) {
            Some(UnitKind::Angle) => Preview::Turn,
            _ => Preview::Bar,
        },
    }
}

/// One motion's card.
fn motion_card(out: &mut String, d: &Digest, (width, height): (u32, u32)) {
    let name = escape(&d.name);
    let unit = if d.unit.is_empty() {
        "unitless".to_owned()
    } else {
        escape(&d.unit)
    };
    let property = escape(&d.property);
    let _ = write!(
        out,
        "<article id=\"motion-{name}\">
<h2>{name}</h2>
<p class=\"kind\">{kind} · {what} ({unit})</p>
",
        kind = escape(d.kind),
        what = if d.kind == "explosion-ring" {
            "radii".to_owned()
        } else {
            property.clone()
        },
    );
    let plot = plot_path(&d.name);
    if d.files.contains(&plot) {
        let plot = escape(&plot);
        let _ = writeln!(
            out,
            "<a class=\"plot\" href=\"{plot}\"><img src=\"{plot}\" width=\"{width}\" height=\"{height}\" alt=\"Plot of {name}: position and velocity against time, with the baked frames\"></a>"
        );
    }
    out.push_str("<div class=\"detail\">\n");
    preview(out, d);
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
    out.push_str("</article>\n");
}

/// The live preview: a stage with the element that carries the motion's ready class.
fn preview(out: &mut String, d: &Digest) {
    let name = escape(&d.name);
    let animated = d.files.iter().any(|f| f.ends_with(".css"));
    let values = d
        .preview
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(_, x)| x));
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (0.0, 0.0) };
    let kind = preview_kind(d);
    let (fit, element) = match kind {
        Preview::Move(axis) => (axis, "<div class=\"puck"),
        Preview::InPlace => ("none", "<div class=\"puck"),
        Preview::Turn => ("none", "<div class=\"puck"),
        Preview::Ring => ("ring", "<div class=\"ring"),
        Preview::Bar => ("bar", "<div class=\"bar"),
    };
    // A custom property shows through a style that reads it; quarter speed reads the
    // duration the CSS puts on :root.
    let custom = escape(&d.property);
    let mut style = match kind {
        Preview::Bar if d.unit.is_empty() => format!("width: calc(var({custom}) * 1px); "),
        Preview::Bar => format!("width: var({custom}); "),
        Preview::Turn => format!("transform: rotate(var({custom})); "),
        Preview::Ring if d.unit == "%" => "width: 140px; height: 140px; ".to_owned(),
        _ => String::new(),
    };
    let _ = write!(style, "--slow-duration: calc(var(--{name}-duration) * 4)");
    let _ = write!(
        out,
        "<div class=\"stage\" data-mode=\"{fit}\">
<div class=\"fit\" data-fit=\"{fit}\" data-lo=\"{lo}\" data-hi=\"{hi}\" data-unit=\"{unit}\">{element} anim {name}\" data-anim=\"{name}\" style=\"{style}\"></div></div>
<span class=\"scale-note\"></span>
",
        lo = data_number(lo),
        hi = data_number(hi),
        unit = escape(&d.unit),
    );
    if animated {
        let _ = writeln!(
            out,
            "<button type=\"button\" class=\"replay\" data-replay=\"{name}\" aria-label=\"Replay {name}\">Replay</button>"
        );
    } else {
        out.push_str("<span class=\"no-css\">no CSS baked (add css to --formats)</span>\n");
    }
    out.push_str("</div>\n");
}

/// Duration, frames, fps and the resolved parameters.
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
    for group in &d.params {
        if let Some(g) = group.name {
            let _ = writeln!(
                out,
                "<tr class=\"group\"><th colspan=\"2\">{}</th></tr>",
                escape(g)
            );
        }
        for (k, v) in &group.values {
            let _ = writeln!(
                out,
                "<tr><th>{}</th><td>{}</td></tr>",
                escape(&k.replace('_', " ")),
                escape(&format_number(*v))
            );
        }
    }
    out.push_str("</table>\n");
}

/// The page's stylesheet.
const STYLE: &str = r#":root {
  color-scheme: light;
  --fg: #1f2328; --muted: #5c636a; --line: #d0d7de; --bg: #f3f5f7; --card: #fff;
  --accent: #1f6fc5; --ring: #e8743b;
}
* { box-sizing: border-box; }
body {
  margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
header {
  position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; align-items: center;
  gap: 6px 24px; padding: 12px 24px; background: var(--card); border-bottom: 1px solid var(--line);
}
h1 { margin: 0; font-size: 20px; }
.summary { margin: 0; color: var(--muted); }
.controls { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; margin-left: auto; }
button {
  font: inherit; padding: 4px 12px; border: 1px solid var(--line); border-radius: 6px;
  background: #f6f8fa; color: var(--fg); cursor: pointer;
}
button:hover { background: #eef1f4; }
button:focus-visible, input:focus-visible, a:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
main {
  display: grid; gap: 16px; padding: 16px 24px 40px;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 560px), 1fr));
}
article {
  min-width: 0; padding: 14px 16px; background: var(--card);
  border: 1px solid var(--line); border-radius: 8px;
}
h2 { margin: 0; font-size: 17px; overflow-wrap: anywhere; }
.kind { margin: 0 0 8px; color: var(--muted); }
.plot img { display: block; width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
.detail { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 12px; margin-top: 12px; }
@media (max-width: 520px) { .detail { grid-template-columns: 1fr; } }
.stage {
  position: relative; display: flex; align-items: center; justify-content: center;
  height: 180px; overflow: hidden; border: 1px solid var(--line); border-radius: 6px;
  background: linear-gradient(#e9edf1 1px, transparent 1px) 0 50% / 100% 24px, #fafbfc;
}
.stage[data-mode="bar"] { justify-content: flex-start; padding-left: 12px; }
.fit { transform-origin: center; }
.stage[data-mode="bar"] .fit { transform-origin: left center; }
.puck {
  width: 40px; height: 40px; border-radius: 8px; background: var(--accent);
  box-shadow: inset 0 -12px 0 rgb(0 0 0 / 0.18);
}
.ring { color: var(--ring); }
.bar { height: 18px; min-width: 1px; border-radius: 3px; background: var(--accent); }
.scale-note, .no-css { position: absolute; left: 8px; top: 6px; font-size: 12px; color: var(--muted); }
.replay { position: absolute; right: 8px; bottom: 8px; }
.numbers { border-collapse: collapse; font-size: 14px; align-self: start; font-variant-numeric: tabular-nums; }
.numbers th { text-align: left; font-weight: normal; color: var(--muted); padding: 1px 12px 1px 0; }
.numbers td { text-align: right; padding: 1px 0; }
.numbers .group th { color: var(--fg); font-weight: 600; padding-top: 6px; }
.files { margin: 10px 0 0; font-size: 13px; color: var(--muted); overflow-wrap: anywhere; }
.files a, .summary a { color: var(--accent); }
.empty { color: var(--muted); }
.looping .anim { animation-iteration-count: infinite !important; }
.slow .anim { animation-duration: var(--slow-duration) !important; }
@media (prefers-reduced-motion: reduce) { .looping .anim { animation-iteration-count: 1 !important; } }
"#;

/// The page's script: fits each preview into its stage (units converted by measuring them
/// in the browser), replays animations, and toggles looping and quarter speed.
const SCRIPT: &str = r#"(() => {
  "use strict";
  const PUCK = 40, PAD = 12;
  // Pixels per unit, measured (em, rem, vw, ...); a translate in % is of the 40px square.
  const unitPx = (unit, stage, mode) => {
    if (!unit || unit === "px") return 1;
    if (unit === "%") return mode === "bar" ? (stage.clientWidth - 2 * PAD) / 100 : PUCK / 100;
    const probe = document.createElement("div");
    probe.style.cssText = "position:absolute;visibility:hidden;height:0;width:100" + unit;
    stage.appendChild(probe);
    const px = probe.getBoundingClientRect().width / 100;
    probe.remove();
    return px > 0 ? px : 1;
  };
  const fit = (box) => {
    const stage = box.parentElement, mode = box.dataset.fit;
    const lo = Number(box.dataset.lo), hi = Number(box.dataset.hi);
    const w = stage.clientWidth - 2 * PAD, h = stage.clientHeight - 2 * PAD;
    let k = 1, transform = "";
    if (mode === "x" || mode === "y") {
      const px = unitPx(box.dataset.unit, stage, mode);
      k = Math.min(1, (mode === "x" ? w : h) / ((hi - lo) * px + PUCK));
      const mid = ((lo + hi) / 2) * px;
      transform = `scale(${k}) translate${mode.toUpperCase()}(${-mid}px)`;
    } else if (mode === "ring") {
      const px = box.dataset.unit === "%" ? 1 : unitPx(box.dataset.unit, stage, mode);
      const size = box.dataset.unit === "%" ? 140 : 2 * Math.max(Math.abs(lo), Math.abs(hi)) * px;
      k = size > 0 ? Math.min(1, h / size) : 1;
      transform = `scale(${k})`;
    } else if (mode === "bar") {
      const reach = Math.max(Math.abs(lo), Math.abs(hi)) * unitPx(box.dataset.unit, stage, mode);
      k = reach > 0 ? w / reach : 1;
      transform = `scaleX(${k})`;
    }
    box.style.transform = transform;
    const note = stage.querySelector(".scale-note");
    if (note) note.textContent = Math.abs(k - 1) > 1e-3 ? `shown at ×${k.toPrecision(2)}` : "";
  };
  const boxes = [...document.querySelectorAll(".fit")];
  const fitAll = () => boxes.forEach(fit);
  fitAll();
  addEventListener("resize", fitAll);
  const replay = (scope) => {
    scope.querySelectorAll("[data-anim]").forEach((el) => {
      const name = el.dataset.anim;
      el.classList.remove(name);
      void el.offsetWidth; // restyle without the class, so that adding it starts over
      el.classList.add(name);
    });
  };
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-replay]");
    if (!button) return;
    replay(button.dataset.replay === "all" ? document : button.closest("article"));
  });
  for (const [id, cls] of [["loop", "looping"], ["slow", "slow"]]) {
    const box = document.getElementById(id);
    box.addEventListener("change", () => {
      document.body.classList.toggle(cls, box.checked);
      if (cls === "slow") replay(document);
    });
  }
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::ParamGroup;

    fn digest(name: &str, files: &[&str]) -> Digest {
        Digest {
            name: name.into(),
            kind: "spring",
            property: "translateY".into(),
            unit: "px".into(),
            fps: 60.0,
            duration: 1.2,
            frames: 73,
            params: vec![ParamGroup {
                name: None,
                values: vec![("from", -240.0), ("damping_ratio", 0.606_775_3)],
            }],
            files: files.iter().map(|f| f.to_string()).collect(),
            preview: vec![("value", vec![(0.0, -240.0), (1.2, 0.0)])],
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
            (1200, 800),
        );
        assert!(all.contains(r#"<link rel="stylesheet" href="css/card-drop.css">"#));
        assert!(all.contains(r#"<img src="png/card-drop.png" width="1200" height="800""#));
        assert!(all.contains("png/all.png"));
        assert!(all.contains(r#"class="puck anim card-drop" data-anim="card-drop""#));
        assert!(all.contains("<td>0.6068</td>"));
        assert!(all.contains("<th>damping ratio</th>"));

        let bare = page(
            &[digest("card-drop", &["json/card-drop.json"])],
            (1200, 800),
        );
        assert!(!bare.contains("<img"));
        assert!(!bare.contains("<link"));
        assert!(!bare.contains("png/all.png"));
        assert!(bare.contains("no CSS baked"));
    }

    #[test]
    fn an_empty_bake_still_makes_a_page() {
        let empty = page(&[], (1200, 800));
        assert!(empty.contains("No motion was baked."));
        assert!(empty.ends_with("</html>\n"));
    }
}
