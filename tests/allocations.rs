//! No allocation per frame in sampling or formatting: a counting allocator shows that baking
//! and exporting a motion of 60 frames and one of 60,000 frames allocate the same number of
//! times (the buffers are sized once per motion).

use curvebake::export::{ExportSettings, Format, Layout};
use curvebake::internals::bake::bake;
use curvebake::internals::export::{exporters, New};
use curvebake::internals::schema::MotionFile;
use curvebake::internals::spec::{MotionSpec, Overrides};
use std::alloc::{GlobalAlloc, Layout as MemoryLayout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Only the test's own thread counts: the test harness allocates on others meanwhile.
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTED.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
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

/// Allocations made while baking `spec` and running the exporters of `formats` on it, on a
/// new thread: what a thread remembers from earlier motions (the CSS exporter's recent stop
/// offsets) would otherwise spare some of them.
fn allocations(spec: &MotionSpec, formats: &[Format]) -> (usize, usize) {
    let exporters = exporters(formats, Layout::PerMotion, &ExportSettings::default());
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let before = ALLOCATIONS.load(Ordering::Relaxed);
                COUNTED.with(|c| c.set(true));
                let baked = bake(spec).unwrap();
                let outputs: Vec<_> = exporters
                    .iter()
                    .map(|e| e.motion(&baked, &[], &New))
                    .collect();
                COUNTED.with(|c| c.set(false));
                let count = ALLOCATIONS.load(Ordering::Relaxed) - before;
                std::hint::black_box(outputs);
                (count, baked.frames())
            })
            .join()
            .unwrap()
    })
}

#[test]
fn sampling_and_formatting_allocate_per_motion_not_per_frame() {
    let kinds = [
        "Spring(from: 0, to: 100, stiffness: 170, damping: 0.5)",
        "Friction(from: 0, velocity: 100, friction: 0.9)",
        "Gravity(from: 0, velocity: 0, acceleration: 10)",
        "Decay(from: 0, velocity: 100, lambda: 0.1)",
        "Decay(from: 0, to: 100, end_velocity: 1)",
        "ExplosionRing(inner: (from: 0, to: 150, end_velocity: 1), outer: (from: 8, to: 180, end_velocity: 1))",
    ];
    for formats in [&[Format::Json][..], &[Format::Css], &[Format::Js]] {
        for kind in kinds {
            let short = spec(&format!("(name: \"a\", duration: 1, motion: {kind})"));
            let long = spec(&format!("(name: \"a\", duration: 1000, motion: {kind})"));
            let (a, frames_a) = allocations(&short, formats);
            let (b, frames_b) = allocations(&long, formats);
            assert_eq!((frames_a, frames_b), (61, 60_001));
            assert_eq!(
                a, b,
                "{formats:?} {kind}: {a} allocations for 61 frames, {b} for 60,001"
            );
        }
    }
}
