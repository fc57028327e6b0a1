//! The three-engine harness itself: each engine found loads a served page, which reports back
//! its user agent, whether it supports what the CSS exporter writes (`linear()`, `@property`,
//! the individual transform properties) and whether reduced motion was asked for; a page that
//! throws reports its error at once instead of timing out.

use crate::common;

use common::engines::{engines, RunOptions, HARNESS_HEAD};
use serde_json::json;

#[test]
fn each_engine_reports_support_and_the_reduced_motion_preference() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("probe.html"),
        format!(
            r#"<!doctype html><html><head><meta charset="utf-8">{HARNESS_HEAD}</head><body><script>
cbReport({{
  userAgent: navigator.userAgent,
  linear: CSS.supports("animation-timing-function", "linear(0, 0.5 20%, 1)"),
  property: typeof CSS.registerProperty === "function",
  individual: CSS.supports("translate", "1px 2px") && CSS.supports("scale", "2") && CSS.supports("rotate", "3deg"),
  composition: CSS.supports("animation-composition", "add"),
  reduce: matchMedia("(prefers-reduced-motion: reduce)").matches,
}});
</script></body></html>"#
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("throws.html"),
        format!(
            r#"<!doctype html><html><head><meta charset="utf-8">{HARNESS_HEAD}</head><body><script>
null.oops;
</script></body></html>"#
        ),
    )
    .unwrap();
    for engine in engines() {
        for reduced_motion in [false, true] {
            let options = RunOptions {
                reduced_motion,
                ..RunOptions::default()
            };
            let outcome = engine.run(dir.path(), "probe.html", &options);
            eprintln!(
                "{} ({:.2} s, reduced motion asked: {reduced_motion}): {}",
                engine.name(),
                outcome.elapsed.as_secs_f64(),
                outcome.result
            );
            assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
            let r = &outcome.result;
            for feature in ["linear", "property", "individual", "composition"] {
                assert_eq!(r[feature], true, "{}: {feature}", engine.name());
            }
            assert_eq!(r["reduce"], json!(reduced_motion), "{}", engine.name());
        }
        let outcome = engine.run(dir.path(), "throws.html", &RunOptions::default());
        assert!(outcome.result.is_null());
        assert_eq!(outcome.errors.len(), 1, "{:?}", outcome.errors);
    }
}
