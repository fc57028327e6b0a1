//! Output buffers, reused within a bake: the writer hands each buffer back once its bytes are
//! on disk, and the exporters fill it again for a later motion.
//!
//! Besides sparing an allocation per output, this keeps the writer from freeing what the
//! baking threads allocated: with glibc's allocator, such a free takes the allocating thread's
//! arena lock, and a bake of 10,000 motions blocked on it about a thousand times (a context
//! switch each). The pool is bounded, in buffers and in bytes, so it holds about what a window
//! of motions in flight needs.

use std::sync::Mutex;

/// Most buffers kept.
const MAX_BUFFERS: usize = 1024;
/// Most bytes (of capacity) kept.
const MAX_BYTES: usize = 16 << 20;
/// Buffers larger than this (plots, say) are not kept: there are few of them, and they would
/// crowd out the many small ones.
const MAX_BUFFER_BYTES: usize = 256 << 10;

struct Pool {
    buffers: Vec<Vec<u8>>,
    bytes: usize,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    buffers: Vec::new(),
    bytes: 0,
});

/// An empty buffer with room for at least `capacity` bytes: a used one if the pool has one.
pub fn buffer(capacity: usize) -> Vec<u8> {
    let reused = POOL.lock().ok().and_then(|mut pool| {
        let buffer = pool.buffers.pop()?;
        pool.bytes -= buffer.capacity();
        Some(buffer)
    });
    let mut buffer = reused.unwrap_or_default();
    buffer.clear();
    buffer.reserve(capacity);
    buffer
}

/// Hands back buffers whose bytes are no longer needed; what the pool has no room for is
/// freed.
pub fn recycle(buffers: impl IntoIterator<Item = Vec<u8>>) {
    let Ok(mut pool) = POOL.lock() else {
        return;
    };
    for buffer in buffers {
        let size = buffer.capacity();
        if size > 0
            && size <= MAX_BUFFER_BYTES
            && pool.buffers.len() < MAX_BUFFERS
            && pool.bytes + size <= MAX_BYTES
        {
            pool.bytes += size;
            pool.buffers.push(buffer);
        }
    }
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

/// Frees every pooled buffer (at the end of a bake, so that a process that bakes now and then
/// does not hold them in between).
pub fn clear() {
    if let Ok(mut pool) = POOL.lock() {
        pool.buffers = Vec::new();
        pool.bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recycled_buffer_comes_back_empty_with_room() {
        let mut first = buffer(100);
        first.extend_from_slice(b"old bytes");
        recycle([first]);
        let again = buffer(200);
        assert!(again.is_empty());
        assert!(again.capacity() >= 200);
    }

    #[test]
    fn large_buffers_are_not_kept() {
        recycle([Vec::with_capacity(MAX_BUFFER_BYTES + 1)]);
        let pool = POOL.lock().unwrap();
        assert!(pool
            .buffers
            .iter()
            .all(|b| b.capacity() <= MAX_BUFFER_BYTES));
        assert!(pool.bytes <= MAX_BYTES);
    }
}
