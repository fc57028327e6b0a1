//! No allocation per frame in sampling or formatting: a counting allocator shows that baking
//! and exporting a motion of 60 frames and one of 60,000 frames allocate the same number of
//! times (the buffers are sized once per motion), and so do motions whose CSS tolerance keeps
//! few stops and many.

use curvebake::export::{ExportSettings, Format, Layout};
use curvebake::internals::bake::bake;
use curvebake::internals::export::{exporters, New};
use curvebake::internals::schema::MotionFile;
use curvebake::internals::spec::{MotionSpec, Overrides};
use std::alloc::{GlobalAlloc, Layout as MemoryLayout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Only the measuring thread counts, into its own count: the test harness (and the other
    /// test, running alongside) allocates on other threads meanwhile.
    static COUNTED: Cell<bool> = const { Cell::new(false) };
    /// Allocations this thread made while it counted.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    if COUNTED.with(Cell::get) {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: MemoryLayout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: MemoryLayout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: MemoryLayout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn spec(ron: &str) -> MotionSpec {
    let file: MotionFile = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(ron)
        .unwrap();
    MotionSpec::from_file(&file, Overrides::default()).unwrap()
}

/// Allocations made while baking `spec` and running the exporters of `formats` (with
/// `settings`) on it, on a new thread: what a thread remembers from earlier motions (the CSS
/// exporter's recent stop offsets) would otherwise spare some of them.
fn allocations(spec: &MotionSpec, formats: &[Format], settings: &ExportSettings) -> (usize, usize) {
    let exporters = exporters(formats, Layout::PerMotion, settings);
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                COUNTED.with(|c| c.set(true));
                let baked = bake(spec).unwrap();
                let outputs: Vec<_> = exporters
                    .iter()
                    .map(|e| e.motion(&baked, &[], &New))
                    .collect();
                COUNTED.with(|c| c.set(false));
                let count = ALLOCATIONS.with(Cell::get);
                std::hint::black_box(outputs);
                (count, baked.frames())
            })
            .join()
            .unwrap()
    })
}

/// Asserts that each motion of `kinds` (its `motion` or `tracks` field) allocates as often
/// at `durations.0` seconds as at `durations.1` (at 60 fps: `frames`), in each format.
fn same_allocations(
    kinds: &[&str],
    settings: &ExportSettings,
    durations: (u32, u32),
    frames: (usize, usize),
) {
    for formats in [&[Format::Json][..], &[Format::Css], &[Format::Js]] {
        for kind in kinds {
            let (short, long) = durations;
            let short = spec(&format!("(name: \"a\", duration: {short}, {kind})"));
            let long = spec(&format!("(name: \"a\", duration: {long}, {kind})"));
            let (a, frames_a) = allocations(&short, formats, settings);
            let (b, frames_b) = allocations(&long, formats, settings);
            assert_eq!((frames_a, frames_b), frames);
            assert_eq!(
                a, b,
                "{formats:?} {kind}: {a} allocations for {} frames, {b} for {}",
                frames.0, frames.1
            );
        }
    }
}

/// Two tracks that end before the motion, at its 1 s as at its 1000 s: the first rests
/// between two frames (an easing, with a stop of its own where it ends), the second is cut
/// short by its duration (keyframes at the fitted stops). A join costs a few allocations of its own,
/// so both lengths have the same joins.
const TWO_TRACKS: &str = "tracks: [(property: \"translateX\", motion: Spring(from: 0, to: 100, stiffness: 170, damping: 26)), (property: \"opacity\", motion: Spring(from: 0, to: 1, stiffness: 100, damping: 5), duration: 0.7)]";

#[test]
fn sampling_and_formatting_allocate_per_motion_not_per_frame() {
    // A spring cut short at 1 s gets keyframes at its stops, one that rests an easing: both
    // must cost the same, on translate (ends read from variables) and on scale.
    let kinds = [
        "motion: Spring(from: 0, to: 100, stiffness: 170, damping: 0.5)",
        "property: \"scale\", motion: Spring(from: 0, to: 1, stiffness: 170, damping: 0.5)",
        "motion: Friction(from: 0, velocity: 100, friction: 0.9)",
        // The finest tolerance there is: in 1000 s it falls 5,000,000 px, where browsers resolve
        // no finer than 50 px, and a coarser tolerance than asked would be a warning (made
        // once a motion, as any warning).
        "tolerance: 0, motion: Gravity(from: 0, velocity: 0, acceleration: 10)",
        "motion: Decay(from: 0, velocity: 100, lambda: 0.1)",
        "motion: Decay(from: 0, to: 100, end_velocity: 1)",
        "motion: ExplosionRing(inner: (from: 0, to: 150, end_velocity: 1), outer: (from: 8, to: 180, end_velocity: 1))",
        TWO_TRACKS,
    ];
    same_allocations(&kinds, &ExportSettings::default(), (1, 1000), (61, 60_001));
}

/// With a CSS tolerance the fitting core places fewer, longer stops against the closed form
/// (O(stops) evaluations of it), in memory sized per motion before it starts
/// (`fit::capacity`): a motion allocates as often whether it gets a few stops or hundreds.
#[test]
fn fitted_stops_allocate_per_motion_not_per_stop() {
    let kinds = [
        "motion: Spring(from: 0, to: 100, stiffness: 170, damping: 0.5)",
        "motion: Gravity(from: 0, velocity: 0, acceleration: 10)",
        "motion: ExplosionRing(inner: (from: 0, to: 150, end_velocity: 1), outer: (from: 8, to: 180, end_velocity: 1))",
        TWO_TRACKS,
    ];
    let settings = ExportSettings {
        css_tolerance: 0.05,
        ..ExportSettings::default()
    };
    same_allocations(&kinds, &settings, (1, 20), (61, 1_201));
}
