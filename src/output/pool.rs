//! Output buffers, reused within a bake: the writer hands each buffer back once its bytes are
//! on disk, and the exporters fill it again for a later motion. The run owns one [`Pool`] per
//! bake and lends it to the exporters as their [`Buffers`]; it is freed with the bake, so that
//! a process that bakes now and then does not hold buffers in between.
//!
//! Besides sparing an allocation per output, this keeps the writer from freeing what the
//! baking threads allocated: with glibc's allocator, such a free takes the allocating thread's
//! arena lock, and a bake of 10,000 motions blocked on it about a thousand times (a context
//! switch each). The pool is bounded, in buffers and in bytes, so it holds about what a window
//! of motions in flight needs.

use curvebake_export::Buffers;
use std::sync::Mutex;

/// Most buffers kept.
const MAX_BUFFERS: usize = 1024;
/// Most bytes (of capacity) kept.
const MAX_BYTES: usize = 16 << 20;
/// Buffers larger than this (plots, say) are not kept: there are few of them, and they would
/// crowd out the many small ones.
const MAX_BUFFER_BYTES: usize = 256 << 10;

/// Buffers kept for reuse, bounded in count and in bytes.
#[derive(Debug, Default)]
pub struct Pool(Mutex<Kept>);

#[derive(Debug, Default)]
struct Kept {
    buffers: Vec<Vec<u8>>,
    bytes: usize,
}

/// Newest buffers looked at for the best fit (buffers of a few sizes take turns: a table's, a
/// stylesheet's, an index entry's).
const LOOK_AT: usize = 8;

impl Buffers for Pool {
    /// Of the newest pooled buffers, the smallest with room enough (growing one would copy
    /// its old bytes), else a new one.
    fn buffer(&self, capacity: usize) -> Vec<u8> {
        let reused = self.0.lock().ok().and_then(|mut kept| {
            let k = best_fit(&kept.buffers, capacity)?;
            let buffer = kept.buffers.swap_remove(k);
            kept.bytes -= buffer.capacity();
            Some(buffer)
        });
        let mut buffer = reused.unwrap_or_else(|| Vec::with_capacity(capacity));
        buffer.clear();
        buffer
    }
}

impl Pool {
    /// Hands back buffers whose bytes are no longer needed; what the pool has no room for is
    /// freed.
    pub fn recycle(&self, buffers: impl IntoIterator<Item = Vec<u8>>) {
        let Ok(mut kept) = self.0.lock() else {
            return;
        };
        for buffer in buffers {
            let size = buffer.capacity();
            if size > 0
                && size <= MAX_BUFFER_BYTES
                && kept.buffers.len() < MAX_BUFFERS
                && kept.bytes + size <= MAX_BYTES
            {
                kept.bytes += size;
                kept.buffers.push(buffer);
            }
        }
    }
}

/// Of the newest [`LOOK_AT`] buffers, the one with the least room that is still enough.
fn best_fit(buffers: &[Vec<u8>], capacity: usize) -> Option<usize> {
    let newest = buffers.len().saturating_sub(LOOK_AT);
    (newest..buffers.len())
        .filter(|&k| buffers[k].capacity() >= capacity)
        .min_by_key(|&k| buffers[k].capacity())
}

/// Gives back what a buffer reserved beyond its bytes, if it is too large to be pooled: such a
/// buffer waits for the writer, and a long motion's reservation (sized for the most digits
/// every frame could take) is about twice its bytes. A buffer that will be pooled keeps its
/// room for the next motion.
pub fn trim(buffer: &mut Vec<u8>) {
    if buffer.capacity() > MAX_BUFFER_BYTES {
        buffer.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recycled_buffer_comes_back_empty_with_room() {
        let pool = Pool::default();
        let mut first = pool.buffer(100);
        first.extend_from_slice(b"old bytes");
        pool.recycle([first]);
        let again = pool.buffer(200);
        assert!(again.is_empty());
        assert!(again.capacity() >= 200);
    }

    #[test]
    fn the_newest_buffer_with_the_least_room_enough_fits() {
        let buffers: Vec<Vec<u8>> = [100, 9000, 5000, 300, 150]
            .into_iter()
            .map(Vec::with_capacity)
            .collect();
        assert_eq!(best_fit(&buffers, 200), Some(3));
        assert_eq!(best_fit(&buffers, 6000), Some(1));
        assert_eq!(best_fit(&buffers, 10_000), None);
        // Only the newest are looked at.
        let mut many = vec![Vec::with_capacity(10_000)];
        many.extend((0..LOOK_AT).map(|_| Vec::with_capacity(10)));
        assert_eq!(best_fit(&many, 100), None);
    }

    #[test]
    fn large_buffers_are_not_kept() {
        let pool = Pool::default();
        pool.recycle([Vec::with_capacity(MAX_BUFFER_BYTES + 1)]);
        let pool = pool.0.lock().unwrap();
        assert!(pool
            .buffers
            .iter()
            .all(|b| b.capacity() <= MAX_BUFFER_BYTES));
        assert!(pool.bytes <= MAX_BYTES);
    }
}
