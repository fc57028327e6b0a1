//! HTML exporter (being written).

use super::{ExportSettings, Exporter, Layout, MotionOutput};
use crate::bake::Baked;

/// The HTML exporter.
#[derive(Debug, Clone)]
pub struct Html {
    settings: ExportSettings,
}

impl Html {
    /// An exporter with these settings.
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
    fn motion(&self, baked: &Baked, layout: Layout) -> MotionOutput {
        let _ = (baked, layout, self.settings);
        MotionOutput::default()
    }
}
