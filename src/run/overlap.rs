//! The overlap of baking and writing: window k+1 is baked, and the files of window k+2 read,
//! on the pool while window k is written, so the writing (which must keep input order)
//! overlaps the parallel work instead of idling every other core. The measurements behind
//! each choice here are in `benches/README.md`.

use super::baker::{Baker, Done};
use super::claims::Claims;
use super::tally::{record, sort, Sorted, Tally};
use super::writer::{
    append_chunks, by_size, in_group_order, push_entries, write_group, write_groups, Writer,
};
use crate::output::write::WriteError;
use curvebake_model::error::InputError;
use curvebake_model::intake::{Intake, Window};

/// Bakes every window `intake` yields with `baker` and writes each with `writer`, in input
/// order, counting them into `tally`: each window is written while the next is baked (and
/// the one after read, and the files the next may write claimed in `claims` if they are not
/// yet, so that they are known to be ours before it is written).
pub(super) fn bake_and_write<'a>(
    intake: &mut Intake,
    baker: &Baker<'a>,
    writer: &mut Writer,
    claims: &mut Claims,
    tally: &mut Tally,
) -> Result<(), WriteError> {
    let mut pending: Option<(Vec<InputError>, Vec<Done<'a>>)> = None;
    while let Some(Window { inputs, errors }) = intake.next_window() {
        let read = intake.read();
        let due = claims.due(&inputs);
        let next = || {
            let (done, claimed) = rayon::join(
                || baker.bake_window(inputs, read),
                || {
                    intake.read_ahead();
                    claims.claim(due, intake)
                },
            );
            claimed.map(|()| done)
        };
        let done = match pending.take() {
            Some((errors, done)) => {
                let (written, next) = write_window(writer, tally, errors, done, next);
                written?;
                next?
            }
            None => next()?,
        };
        pending = Some((errors, done));
    }
    if let Some((errors, done)) = pending {
        write_window(writer, tally, errors, done, || ()).0?;
    }
    Ok(())
}

/// Takes in one baked window: counts it into the tally, appends its bundle chunks, writes its
/// files and its records, while `next` (the next window's baking) fills the gaps; returns
/// what `next` returned.
///
/// The bundles and the files are written in parallel, each bundle getting the window's chunks
/// in one go and each folder's files written by one thread. The largest group of files is
/// written on this thread; another takes the rest and then `next`, whose many small tasks
/// whichever thread is done first picks up, so that neither waits for the other at the end
/// of the window. (With `next` beside the writing as a whole, the thread that baked it also
/// had a folder's files to write, while the other, done with its own, waited.)
fn write_window<R: Send>(
    writer: &mut Writer,
    tally: &mut Tally,
    errors: Vec<InputError>,
    done: Vec<Done>,
    next: impl FnOnce() -> R + Send,
) -> (Result<(), WriteError>, R) {
    let Writer {
        out,
        bundles,
        manifest,
        pool,
    } = writer;
    let (out, pool) = (*out, *pool);
    if !done.iter().any(Done::has_files) {
        // Only bundles (`--bundle`): the baking starts on this thread, the rest on another.
        let (next, appended) = rayon::join(next, || {
            let sorted = sort(tally, errors, done);
            let places = append_chunks(bundles, pool, sorted.chunks)?;
            push_entries(out, manifest, &places, sorted.entries)
        });
        return (appended, next);
    }
    let Sorted {
        files,
        chunks,
        entries,
    } = sort(tally, errors, done);
    let mut groups = by_size(files);
    let largest = groups.pop();
    let (written, ((places, rest), next)) = rayon::join(
        || largest.map(|(k, group)| (k, write_group(out, pool, group))),
        || {
            rayon::join(
                || {
                    rayon::join(
                        || append_chunks(bundles, pool, chunks),
                        || write_groups(out, pool, groups),
                    )
                },
                next,
            )
        },
    );
    let recorded = (|| {
        for (path, outcome) in in_group_order(written.into_iter().chain(rest).collect()) {
            record(&mut tally.report, path, outcome?);
        }
        // The records follow the files: a motion's stamps are its files' as written.
        push_entries(out, manifest, &places?, entries)
    })();
    (recorded, next)
}
