//! CSS exporter (being written).

use super::{ExportSettings, Exporter, Layout, MotionOutput};
use crate::bake::Baked;

/// The CSS exporter.
#[derive(Debug, Clone)]
pub struct Css {
    settings: ExportSettings,
}

impl Css {
    /// An exporter with these settings.
    pub fn new(settings: &ExportSettings) -> Self {
        Self {
            settings: *settings,
        }
    }
}

impl Exporter for Css {
    fn name(&self) -> &'static str {
        "css"
    }
    fn motion(&self, baked: &Baked, layout: Layout) -> MotionOutput {
        let _ = (baked, layout, self.settings);
        MotionOutput::default()
    }
}
