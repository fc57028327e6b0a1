//! The commands besides `bake`: [`inspect`] describes motions, [`template`] writes new curve
//! files (`curvebake new`), `watch` bakes again whenever an input changes, and
//! `serve` gives the output folder to a browser while it does (`watch --serve`; `GET` and
//! `HEAD`), and takes the review page's tuning requests (`POST`s under the `tune` module's
//! prefix, which re-bake a motion with new values and save them into its curve file).

#[cfg(feature = "watch")]
pub mod http;
pub mod inspect;
#[cfg(feature = "watch")]
pub mod loopback;
#[cfg(feature = "watch")]
pub mod serve;
pub mod template;
#[cfg(feature = "watch")]
pub mod tune;
#[cfg(feature = "watch")]
pub mod watch;
