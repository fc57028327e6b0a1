//! What the exporters are asked for: the formats (`--formats`), their settings and the layout
//! of the output folder.

/// An output format, as named by `--formats`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// JSON lookup tables.
    Json,
    /// CSS @keyframes and easings.
    Css,
    /// PNG plots.
    Png,
    /// The HTML review page.
    Html,
    /// ES modules for the Web Animations API.
    Js,
    /// DTCG design tokens (`curves.tokens.json`) and the Style Dictionary module that plays
    /// them exactly (`style-dictionary.mjs`).
    Tokens,
    /// A Tailwind v4 theme (`tailwind.css`): `ease-<name>` and `animate-<name>`.
    Tailwind,
    /// Lottie animations, one per motion (`lottie/<name>.json`).
    Lottie,
}

impl Format {
    /// Every format, in the order they are exported.
    pub const ALL: [Format; 8] = [
        Format::Json,
        Format::Css,
        Format::Png,
        Format::Html,
        Format::Js,
        Format::Tokens,
        Format::Tailwind,
        Format::Lottie,
    ];

    /// The hand-off formats: written only when asked for by name. Each is for a team that
    /// uses that tool, and a bake of every motion into all of them would write files (a
    /// Lottie animation per motion, a theme, a tokens file) that most projects never read.
    pub const HANDOFF: [Format; 3] = [Format::Tokens, Format::Tailwind, Format::Lottie];

    /// The name used by `--formats`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Json => "json",
            Self::Css => "css",
            Self::Png => "png",
            Self::Html => "html",
            Self::Js => "js",
            Self::Tokens => "tokens",
            Self::Tailwind => "tailwind",
            Self::Lottie => "lottie",
        }
    }

    /// Every format's name, as a list for a message: "json, css, … or lottie".
    pub fn names() -> String {
        let names = Self::ALL.map(Self::name);
        let (last, rest) = names.split_last().expect("formats");
        format!("{} or {last}", rest.join(", "))
    }

    /// Whether this build can write the format: PNG plots need the `plots` feature.
    pub fn is_built(self) -> bool {
        self != Self::Png || cfg!(feature = "plots")
    }

    /// Every format this build can write.
    pub fn built() -> Vec<Format> {
        Self::ALL.into_iter().filter(|f| f.is_built()).collect()
    }

    /// The formats of a bake that names none: every format this build can write but the
    /// hand-off ones ([`Format::HANDOFF`]).
    pub fn defaults() -> Vec<Format> {
        (Self::built().into_iter())
            .filter(|f| !Self::HANDOFF.contains(f))
            .collect()
    }

    /// Whether the bundle layout writes this format (as `curves.json` or `curves.css`).
    pub fn has_bundle(self) -> bool {
        matches!(self, Self::Json | Self::Css)
    }

    /// Parses a `--formats` name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// Settings of the exporters.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportSettings {
    /// Largest distance, in each motion's unit, of what a browser plays from the motion at
    /// any instant (0: the unit's default, `css::default_tolerance`).
    pub css_tolerance: f64,
    /// Plot size in pixels (width, height).
    pub plot_size: (u32, u32),
    /// Put before every name the CSS and JS make global: classes, `@keyframes`, the
    /// `--<name>-duration` and `--<name>-easing` variables, and registered custom properties
    /// (`--glow` becomes `--<prefix>glow`, a ring's radii `--<prefix><name>-inner`). Empty by
    /// default; checked like a name's start ([`curvebake_model::spec::check_prefix`]).
    pub prefix: String,
    /// Write `@keyframes` with a keyframe per fitted stop and `linear` timing for every
    /// motion, instead of two stops timed by the `linear()` easing: the fallback for browsers
    /// without `linear()` (before Chrome 113, Firefox 112, Safari 17.2). The easing variables
    /// are still written; `--<name>-from`, `--<name>-to` and the velocity animation are not.
    pub css_frames: bool,
}

impl Default for ExportSettings {
    fn default() -> Self {
        Self {
            css_tolerance: 0.0,
            plot_size: (1200, 800),
            prefix: String::new(),
            css_frames: false,
        }
    }
}

impl ExportSettings {
    /// The global name of motion `name`: the prefix, then the name.
    pub fn global_name(&self, name: &str) -> String {
        let mut out = String::with_capacity(self.prefix.len() + name.len());
        out.push_str(&self.prefix);
        out.push_str(name);
        out
    }

    /// A custom property `--name` as written: `--<prefix>name`.
    pub fn custom_property(&self, property: &str) -> String {
        let bare = property.strip_prefix("--").unwrap_or(property);
        format!("--{}{bare}", self.prefix)
    }
}

/// How outputs are laid out under the output folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// One file per motion and format (`json/<name>.json`, `css/<name>.css`, ...), plus indexes.
    #[default]
    PerMotion,
    /// Only `curves.json` and `curves.css`, each holding every motion in input order.
    Bundle,
}
