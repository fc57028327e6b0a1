//! PNG exporter (being written).

use super::{ExportSettings, Exporter, Layout, MotionOutput};
use crate::bake::Baked;

/// The PNG exporter.
#[derive(Debug, Clone)]
pub struct Png {
    settings: ExportSettings,
}

impl Png {
    /// An exporter with these settings.
    pub fn new(settings: &ExportSettings) -> Self {
        Self {
            settings: *settings,
        }
    }
}

impl Exporter for Png {
    fn name(&self) -> &'static str {
        "png"
    }
    fn motion(&self, baked: &Baked, layout: Layout) -> MotionOutput {
        let _ = (baked, layout, self.settings);
        MotionOutput::default()
    }
}
