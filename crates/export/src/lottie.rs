//! placeholder
use crate::exporter::{Buffers, Exporter, MotionOutput, Shape, Summary};
use crate::settings::{ExportSettings, Format, Layout};
use curvebake_model::bake::Baked;
/// x
#[derive(Debug)]
pub struct Lottie {
    shape: Shape,
}
impl Lottie {
    /// x
    pub fn new(_: Layout, _: &ExportSettings) -> Self {
        Self {
            shape: Shape {
                files: &[],
                bundle: None,
                summary: Summary::None,
            },
        }
    }
}
impl Exporter for Lottie {
    fn format(&self) -> Format {
        Format::Lottie
    }
    fn shape(&self) -> &Shape {
        &self.shape
    }
    fn motion(&self, _: &Baked, _: &[String], _: &dyn Buffers) -> MotionOutput {
        MotionOutput::default()
    }
}
