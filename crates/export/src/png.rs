//! PNG plots: `png/<name>.png` per motion and the contact sheet `png/all.png`. The paths are
//! named here, always (the review page links them); the drawing is the private `plot` module, behind
//! the `plots` feature, which a build script baking JSON and CSS can leave out.

#[cfg(feature = "plots")]
pub use super::plot::{contact_sheet, motion_plot, Png};

use crate::exporter::FilePath;
use curvebake_model::spec::Model;

/// Folder of the plots, relative to the output folder.
pub const DIR: &str = "png";

/// Path of the contact sheet.
pub const CONTACT_SHEET_PATH: &str = "png/all.png";

/// Most motions drawn on the contact sheet; the sheet says how many were left off.
pub const MAX_SHEET_MOTIONS: usize = 400;

/// Where one motion's plot goes.
pub(crate) const PLOT: FilePath = FilePath {
    folder: DIR,
    suffix: ".png",
};

/// Path of one motion's plot.
pub fn plot_path(name: &str) -> String {
    PLOT.of(name)
}

/// The tracks of a motion's path on screen, `(translateX, translateY)`, when it has both (its
/// plot then ends with that path).
pub fn screen_path(model: &Model) -> Option<(usize, usize)> {
    let Model::Tracks(tracks) = model else {
        return None;
    };
    let at = |name: &str| (tracks.tracks().iter()).position(|t| t.property.name() == name);
    Some((at("translateX")?, at("translateY")?))
}
