//! Giving the system back the heap's freed memory.

/// Returns to the system the pages of memory the allocator holds freed
/// (glibc's `malloc_trim`): large structures made ahead of need on threads
/// of their own (the call graph, the tree's index, a table's order) free
/// their working memory in those threads' heaps, which glibc keeps,
/// resident, for the next allocation there. A large profile's session
/// peaked a tenth above its live memory so. Elsewhere than glibc, nothing.
pub fn give_back_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes a plain integer (the bytes to leave at the
    // top of the main heap) and only releases pages no allocation holds;
    // it is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}
