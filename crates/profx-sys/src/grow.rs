//! Bytes that only grow, shared while they grow: a followed trace's
//! pieces (`profx-load`'s `follow.rs`). One writer appends ([`Grow`]);
//! each reader holds what was written when it asked ([`Shared`]), so an
//! update of a followed trace hands its profile the bytes so far without
//! copying them, while the follower goes on appending behind them.
//!
//! A `Vec` cannot do this safely: it may move its bytes when it grows,
//! and it cannot be written while shared. Here a block's bytes never
//! move and bytes once written are never written again; a block that is
//! full is replaced by one twice its size (the bytes copied once, so
//! appending stays linear), and readers of the old block keep it alive.

use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One allocation: `[..len]` written, and never written again.
#[derive(Debug)]
struct Block {
    ptr: NonNull<u8>,
    cap: usize,
    len: AtomicUsize,
}

// SAFETY: a block's written bytes are immutable and its spare ones are
// written only by the one `Grow` that owns it (`&mut self`); the pointer
// is an allocation like a `Vec`'s, which is `Send` and `Sync`.
unsafe impl Send for Block {}
// SAFETY: as for `Send`: shared readers read only `[..len]`, which nothing
// writes again.
unsafe impl Sync for Block {}

impl Block {
    fn new(cap: usize) -> Block {
        let mut v = std::mem::ManuallyDrop::new(Vec::<u8>::with_capacity(cap.max(1)));
        Block {
            ptr: NonNull::new(v.as_mut_ptr()).unwrap_or(NonNull::dangling()),
            cap: v.capacity(),
            len: AtomicUsize::new(0),
        }
    }

    /// The first `len` bytes, all written.
    fn bytes(&self, len: usize) -> &[u8] {
        let len = len.min(self.len.load(Ordering::Acquire));
        // SAFETY: `[..len]` was written before `len` was stored (Release,
        // read with Acquire above) and is never written again; the
        // allocation lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), len) }
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: `ptr` and `cap` are those of the `Vec` made in `new`,
        // never freed before; `u8` needs no drop, so length 0 frees it.
        unsafe { drop(Vec::from_raw_parts(self.ptr.as_ptr(), 0, self.cap)) }
    }
}

/// Bytes one writer appends to.
#[derive(Debug)]
pub struct Grow {
    block: Arc<Block>,
}

impl Default for Grow {
    fn default() -> Self {
        Grow::new()
    }
}

impl Grow {
    /// No bytes yet.
    pub fn new() -> Grow {
        Grow {
            block: Arc::new(Block::new(0)),
        }
    }

    /// How many bytes were written.
    pub fn len(&self) -> usize {
        self.block.len.load(Ordering::Acquire)
    }

    /// Whether none were.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes written.
    pub fn as_slice(&self) -> &[u8] {
        self.block.bytes(usize::MAX)
    }

    /// Appends `bytes`; a full block gives way to one twice its size.
    pub fn extend(&mut self, bytes: &[u8]) {
        let len = self.len();
        if self.block.cap - len < bytes.len() {
            let cap = (self.block.cap * 2).max(len + bytes.len());
            let block = Block::new(cap);
            // SAFETY: the new block has room for `len` bytes and no reader
            // yet; the old block's `[..len]` are written.
            unsafe {
                std::ptr::copy_nonoverlapping(self.block.ptr.as_ptr(), block.ptr.as_ptr(), len);
            }
            block.len.store(len, Ordering::Release);
            self.block = Arc::new(block);
        }
        // SAFETY: `[len..len + bytes.len()]` is within the allocation (the
        // room was made above), not yet written, so no reader reads it,
        // and `&mut self` makes this the one writer.
        unsafe {
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                self.block.ptr.as_ptr().add(len),
                bytes.len(),
            );
        }
        self.block.len.store(len + bytes.len(), Ordering::Release);
    }

    /// Forgets every byte (the file was written anew); readers keep theirs.
    pub fn clear(&mut self) {
        self.block = Arc::new(Block::new(0));
    }

    /// The first `len` bytes (at most those written), for a reader to
    /// keep while the writer goes on.
    pub fn share(&self, len: usize) -> Shared {
        Shared {
            len: len.min(self.len()),
            block: self.block.clone(),
        }
    }
}

/// Bytes written to a [`Grow`], as they were when shared.
#[derive(Clone, Debug)]
pub struct Shared {
    block: Arc<Block>,
    len: usize,
}

impl std::ops::Deref for Shared {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.block.bytes(self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readers_keep_what_was_written_while_the_writer_goes_on() {
        let mut g = Grow::new();
        g.extend(b"abc");
        let first = g.share(usize::MAX);
        for i in 0..1000u32 {
            g.extend(&i.to_le_bytes());
        }
        let part = g.share(5);
        g.extend(b"xyz");
        assert_eq!(&*first, b"abc");
        assert_eq!(&part[..], &[b'a', b'b', b'c', 0, 0]);
        assert_eq!(g.len(), 3 + 4000 + 3);
        assert_eq!(&g.as_slice()[g.len() - 3..], b"xyz");
        g.clear();
        assert!(g.is_empty());
        assert_eq!(&*first, b"abc");
    }

    #[test]
    fn a_reader_on_another_thread_reads_what_was_shared() {
        let mut g = Grow::new();
        let mut want = Vec::new();
        let mut readers = Vec::new();
        for i in 0..200u8 {
            g.extend(&[i; 7]);
            want.extend([i; 7]);
            let shared = g.share(usize::MAX);
            let want = want.clone();
            readers.push(std::thread::spawn(move || assert_eq!(&*shared, &want[..])));
        }
        for r in readers {
            r.join().expect("the reader read what was shared");
        }
    }
}
