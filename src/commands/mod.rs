//! The commands besides `bake`: [`inspect`] describes motions, [`template`] writes new curve
//! files (`curvebake new`), and `watch` bakes again whenever an input changes.

pub mod inspect;
pub mod template;
#[cfg(feature = "watch")]
pub mod watch;
