//! The project file, `curvebake.toml`: the options of `bake`, `bake --check`, `watch` and
//! `inspect` written down once, beside `curves/`, so that a CI job's `bake --check` runs the
//! very bake a developer runs, without repeating its flags. Flags given on the command line
//! (or builder methods called after [`crate::Bake::with_config`]) override it.
//!
//! ```toml
//! inputs = ["curves"]          # files and folders, relative to this file
//! out = "out"
//! formats = ["json", "css", "png", "html", "js"]
//! fps = 60                     # replaces every motion's own fps
//! css_tolerance = 0.0
//! layout = "per-motion"        # or "bundle"
//! plot_size = [1200, 800]
//! jobs = 2
//! ```
//!
//! Every key is optional; an unknown key, a value of the wrong type or out of range is an
//! error worded like a curve file's: the file, `line:column`, the key and what is wrong.

use crate::options::BakeOptions;
use crate::output::write::first_link;
use curvebake_export::{Format, Layout};
use curvebake_model::error::InputError;
use curvebake_model::source::read_source;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The project file's name, looked up in the current folder.
pub const CONFIG_FILE: &str = "curvebake.toml";

/// What `curvebake new config` writes: every key, at this build's default, commented out.
pub fn config_template() -> String {
    let formats: Vec<String> = Format::defaults()
        .iter()
        .map(|f| format!("\"{}\"", f.name()))
        .collect();
    CONFIG_TEMPLATE.replace("FORMATS", &formats.join(", "))
}

/// [`config_template`], with `FORMATS` for the formats this build writes.
const CONFIG_TEMPLATE: &str = r#"# curvebake's project file: `curvebake bake`, `bake --check`, `watch` and `inspect`
# read it from the folder they run in; flags on the command line override it.
# Every key is optional. The values shown are the defaults, except for `fps` and `jobs`,
# which have none: without them each motion keeps its own fps and every core is used.

# inputs = ["curves"]                              # .ron files and folders, relative to this file
# out = "out"                                      # the output folder, relative to this file
# formats = [FORMATS]
# fps = 60                                         # replaces every motion's own fps (default: their own)
# css_tolerance = 0.0                              # distance from the motion (0: per unit)
# css_frames = false                               # keyframes at fitted stops, for browsers without linear()
# prefix = ""                                      # before every class, @keyframes and --name the CSS and JS make
# layout = "per-motion"                            # or "bundle": only curves.json and curves.css
# plot_size = [1200, 800]                          # plot width and height in pixels
# jobs = 2                                         # worker threads (default: all cores)
"#;

/// The keys of `curvebake.toml`, each with where it was written (for errors).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    inputs: Option<Vec<PathBuf>>,
    out: Option<Spanned<PathBuf>>,
    formats: Option<Spanned<Vec<Spanned<String>>>>,
    fps: Option<Spanned<f64>>,
    css_tolerance: Option<Spanned<f64>>,
    prefix: Option<Spanned<String>>,
    css_frames: Option<bool>,
    layout: Option<Spanned<String>>,
    plot_size: Option<Spanned<Vec<u32>>>,
    jobs: Option<Spanned<usize>>,
}

/// A project file, read and checked: the options it sets, over the defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Where it was read from.
    pub path: PathBuf,
    /// The bake options it sets (every key it leaves out at its default).
    pub options: BakeOptions,
    /// Whether it names the formats (rather than leaving the default).
    pub sets_formats: bool,
    /// What is worth saying about it but stops nothing (an `out` outside its folder).
    pub warnings: Vec<String>,
}

impl Config {
    /// Reads `curvebake.toml` from the current folder, if there is one.
    pub fn find() -> Result<Option<Self>, InputError> {
        let path = Path::new(CONFIG_FILE);
        if path.exists() {
            Self::read(path).map(Some)
        } else {
            Ok(None)
        }
    }

    /// Reads and checks the project file at `path`. Its paths are relative to its folder.
    pub fn read(path: &Path) -> Result<Self, InputError> {
        if path.is_dir() {
            let message =
                format!("a folder, not a project file: give the path of its {CONFIG_FILE}");
            return Err(InputError::new(
                path,
                curvebake_model::error::Problem::Read(message),
            ));
        }
        let bytes = read_source(path)?;
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            let (line, col) = line_col(&String::from_utf8_lossy(&bytes), e.valid_up_to());
            InputError::syntax(path, "", line, col, "not UTF-8 text".into())
        })?;
        let file = File { path, text };
        let keys: Keys = toml::from_str(text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            file.error_at(span, e.message().trim_end().to_owned())
        })?;
        let base = path.parent().unwrap_or(Path::new(""));
        let mut options = BakeOptions::default();
        // Paths, given or default, are relative to the file's folder.
        options.inputs = keys.inputs.clone().unwrap_or(options.inputs);
        options.inputs = options.inputs.iter().map(|p| base.join(p)).collect();
        let (out, warnings) = file.out_folder(&keys, &options.out)?;
        options.out = out;
        file.apply(&keys, &mut options)?;
        // The ranges and their wording are the bake's own: an out-of-range value is reported
        // at the key that set it.
        if let Err(crate::options::OptionError { option, message }) = options.check() {
            let span = keys.span_of(option).unwrap_or(0..0);
            return Err(file.error_at(span, format!("{option} {message}")));
        }
        Ok(Self {
            path: path.to_owned(),
            options,
            sets_formats: keys.formats.is_some(),
            warnings,
        })
    }
}

/// A project file's path and text, for errors at a place in it.
struct File<'a> {
    path: &'a Path,
    text: &'a str,
}

impl File<'_> {
    /// An error at the bytes `span` of the file.
    fn error_at(&self, span: std::ops::Range<usize>, message: String) -> InputError {
        let (line, col) = line_col(self.text, span.start);
        InputError::syntax(self.path, self.text, line, col, message)
    }

    /// The output folder `keys` name (or `default`), joined to the file's folder, and a
    /// warning when it lies outside that folder. It is checked as a bake checks one given
    /// relative to the working folder, but from the file's folder, however the file's path is
    /// spelled: no link planted below that folder may send the outputs elsewhere.
    fn out_folder(
        &self,
        keys: &Keys,
        default: &Path,
    ) -> Result<(PathBuf, Vec<String>), InputError> {
        let base = self.path.parent().unwrap_or(Path::new(""));
        let out = keys
            .out
            .as_ref()
            .map_or(default, |o| o.get_ref())
            .to_owned();
        let out_span = keys.out.as_ref().map_or(0..0, |o| o.span());
        if out.as_os_str().is_empty() {
            let message = "out must name a folder (\".\" for this file's folder)".to_owned();
            return Err(self.error_at(out_span, message));
        }
        if out.is_relative() {
            if let Some(link) = first_link(base, &out) {
                return Err(self.error_at(
                    out_span,
                    format!(
                        "out: refusing to write through the symbolic link {} (a link in the project could send outputs anywhere); give the output folder's real path",
                        link.display()
                    ),
                ));
            }
        }
        let mut warnings = Vec::new();
        if out.is_absolute() || leaves(&out) {
            warnings.push(format!(
                "{}: out = {:?} is outside the project file's folder{}",
                self.path.display(),
                out.display().to_string(),
                if base.as_os_str().is_empty() {
                    String::new()
                } else {
                    format!(" {}", base.display())
                }
            ));
        }
        Ok((base.join(out), warnings))
    }

    /// Sets the options `keys` give, over those in `options`: names checked here, ranges by
    /// [`BakeOptions::check`].
    fn apply(&self, keys: &Keys, options: &mut BakeOptions) -> Result<(), InputError> {
        if let Some(formats) = &keys.formats {
            options.formats = formats
                .get_ref()
                .iter()
                .map(|name| {
                    Format::parse(name.get_ref()).ok_or_else(|| {
                        self.error_at(
                            name.span(),
                            format!(
                                "formats: unknown format {:?}; use {}",
                                name.get_ref(),
                                Format::names()
                            ),
                        )
                    })
                })
                .collect::<Result<_, _>>()?;
        }
        if let Some(layout) = &keys.layout {
            options.layout = match layout.get_ref().as_str() {
                "per-motion" => Layout::PerMotion,
                "bundle" => Layout::Bundle,
                other => {
                    return Err(self.error_at(
                        layout.span(),
                        format!(
                            "layout: unknown layout {other:?}; use \"per-motion\" or \"bundle\""
                        ),
                    ))
                }
            };
        }
        options.fps = keys.fps.as_ref().map(|v| *v.get_ref());
        if let Some(v) = &keys.css_tolerance {
            options.settings.css_tolerance = *v.get_ref();
        }
        if let Some(v) = keys.css_frames {
            options.settings.css_frames = v;
        }
        if let Some(v) = &keys.prefix {
            options.settings.prefix = v.get_ref().clone();
        }
        if let Some(v) = &keys.plot_size {
            let &[w, h] = v.get_ref().as_slice() else {
                let message = format!(
                    "plot_size must be [width, height], got {} numbers",
                    v.get_ref().len()
                );
                return Err(self.error_at(v.span(), message));
            };
            options.settings.plot_size = (w, h);
        }
        options.jobs = keys.jobs.as_ref().map(|v| *v.get_ref());
        Ok(())
    }
}

impl Keys {
    /// Where the key `option` (as [`crate::OptionError`] names it) was written: for
    /// `formats`, the name of a format this build lacks if there is one.
    fn span_of(&self, option: &str) -> Option<std::ops::Range<usize>> {
        match option {
            "fps" => self.fps.as_ref().map(|v| v.span()),
            "css_tolerance" => self.css_tolerance.as_ref().map(|v| v.span()),
            "prefix" => self.prefix.as_ref().map(|v| v.span()),
            "plot_size" => self.plot_size.as_ref().map(|v| v.span()),
            "jobs" => self.jobs.as_ref().map(|v| v.span()),
            "formats" => self.formats.as_ref().map(|names| {
                let missing = |n: &&Spanned<String>| {
                    Format::parse(n.get_ref()).is_some_and(|f| !f.is_built())
                };
                let name = names.get_ref().iter().find(missing).map(|n| n.span());
                name.unwrap_or(names.span())
            }),
            "out" => self.out.as_ref().map(|v| v.span()),
            _ => None,
        }
    }
}

/// Whether a relative path climbs above the folder it is relative to (`../site`,
/// `out/../../x`).
fn leaves(relative: &Path) -> bool {
    let mut depth = 0usize;
    for component in relative.components() {
        match component {
            std::path::Component::ParentDir if depth == 0 => return true,
            std::path::Component::ParentDir => depth -= 1,
            std::path::Component::Normal(_) => depth += 1,
            _ => {}
        }
    }
    false
}

/// The 1-based line and column (in characters) of byte `offset` of `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use curvebake_model::error::Problem;

    fn read(text: &str) -> Result<Config, InputError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CONFIG_FILE);
        std::fs::write(&path, text).unwrap();
        Config::read(&path).map(|mut c| {
            // Paths relative to the file's folder: strip it so tests read plainly.
            let strip = |p: &Path| p.strip_prefix(dir.path()).unwrap().to_owned();
            c.options.inputs = c.options.inputs.iter().map(|p| strip(p)).collect();
            c.options.out = strip(&c.options.out);
            c
        })
    }

    fn syntax(e: InputError) -> (usize, usize, String) {
        match e.problem {
            Problem::Syntax {
                line, col, message, ..
            } => (line, col, message),
            other => panic!("not a syntax error: {other:?}"),
        }
    }

    #[test]
    fn an_empty_file_sets_nothing() {
        assert_eq!(read("").unwrap().options, BakeOptions::default());
    }

    #[test]
    fn the_template_reads_as_the_defaults() {
        assert_eq!(
            read(&config_template()).unwrap().options,
            BakeOptions::default()
        );
        // Uncommented, every key of the template is valid and still the default, but fps and
        // jobs, which have no default value to show.
        let uncommented: String = config_template()
            .lines()
            .map(|l| {
                l.strip_prefix("# ")
                    .filter(|l| l.contains(" = "))
                    .unwrap_or("")
            })
            .filter(|l| !l.starts_with("fps") && !l.starts_with("jobs"))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(read(&uncommented).unwrap().options, BakeOptions::default());
    }

    #[test]
    fn every_key_is_read() {
        let c = read(
            "inputs = [\"design/curves\", \"x.ron\"]\nout = \"site/motion\"\nformats = [\"css\", \"js\"]\n\
             fps = 120\ncss_tolerance = 0.01\nlayout = \"bundle\"\nplot_size = [600, 400]\njobs = 1\n",
        )
        .unwrap();
        let o = c.options;
        assert_eq!(
            o.inputs,
            [PathBuf::from("design/curves"), PathBuf::from("x.ron")]
        );
        assert_eq!(o.out, PathBuf::from("site/motion"));
        assert_eq!(o.formats, [Format::Css, Format::Js]);
        assert_eq!(o.fps, Some(120.0));
        assert_eq!(o.settings.css_tolerance, 0.01);
        assert_eq!(o.layout, Layout::Bundle);
        assert_eq!(o.settings.plot_size, (600, 400));
        assert_eq!(o.jobs, Some(1));
    }

    #[test]
    fn an_unknown_key_is_named_at_its_place() {
        let (line, col, message) = syntax(read("out = \"o\"\nfsp = 60\n").unwrap_err());
        assert_eq!((line, col), (2, 1));
        assert!(message.contains("unknown field `fsp`"), "{message}");
    }

    #[test]
    fn a_wrong_type_is_named_at_its_value() {
        let (line, col, message) = syntax(read("fps = \"sixty\"\n").unwrap_err());
        assert_eq!((line, col), (1, 7));
        assert!(message.contains("invalid type"), "{message}");
    }

    #[test]
    fn out_of_range_values_are_reported_at_their_key_in_the_bakes_words() {
        let (line, col, message) = syntax(read("out = \"o\"\nfps = 5000\n").unwrap_err());
        assert_eq!((line, col), (2, 7));
        assert!(message.starts_with("fps must be in [1, 1000]"), "{message}");
        let (line, _, message) = syntax(read("\n\nplot_size = [10, 800]").unwrap_err());
        assert_eq!(line, 3);
        assert!(
            message.starts_with("plot_size must be in 200..=8000"),
            "{message}"
        );
        let (_, _, message) = syntax(read("jobs = 0").unwrap_err());
        assert!(message.starts_with("jobs must be"), "{message}");
    }

    #[test]
    fn unknown_formats_and_layouts_are_named() {
        let (line, col, message) = syntax(read("formats = [\"css\", \"svg\"]").unwrap_err());
        assert_eq!((line, col), (1, 19));
        assert!(message.contains("\"svg\""), "{message}");
        let (_, _, message) = syntax(read("layout = \"flat\"").unwrap_err());
        assert!(message.contains("per-motion"), "{message}");
    }
}
