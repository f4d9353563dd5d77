//! A read-only memory map of an input file, known to the SIGBUS handler
//! for as long as it lives.

use memmap2::{Mmap, UncheckedAdvice};
use std::fs::File;
use std::ops::Range;

/// A whole file mapped read-only, shared with the page cache.
#[derive(Debug)]
pub struct Map {
    map: Mmap,
}

impl Map {
    /// Maps `file`, whose name as the user may see it (escaped) is `shown`:
    /// the SIGBUS handler names it if the file is cut short while mapped.
    pub fn new(file: &File, shown: &str) -> std::io::Result<Map> {
        // SAFETY: the map is read-only and shared (MAP_SHARED): its pages
        // are the page cache's, so another process writing the file
        // changes the bytes a slice of it shows, even between two reads of
        // the same byte, and truncating the file makes a read of a page
        // past the new end fault (SIGBUS). As ripgrep documents for its own
        // maps, Rust's `&[u8]` then promises what the OS does not; profx
        // accepts it for the speed of reading gigabyte traces without
        // copying them. What can follow is bounded: a changed byte is read
        // like any other input byte (every loader treats input as
        // untrusted, so at worst the numbers are wrong or a warning is
        // given), and a fault is caught by `signals`, which names this
        // file and ends the process cleanly. profx never writes the file.
        let map = unsafe { Mmap::map(file) }?;
        crate::signals::mapped(map.as_ptr() as usize, map.len(), shown);
        Ok(Map { map })
    }

    /// The mapped bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// Tells the kernel the whole pages inside `range` are done with for
    /// now: they leave this process's resident set and read back from the
    /// page cache on the next access. Advice only: a failure changes
    /// nothing.
    pub fn forget(&self, range: Range<usize>) {
        const PAGE: usize = 4096;
        // Whole pages inside the range only: the page it ends in may hold
        // bytes a worker is still reading.
        let start = range.start.div_ceil(PAGE) * PAGE;
        let end = range.end.min(self.map.len()) / PAGE * PAGE;
        if end > start {
            // SAFETY: the map is a read-only shared mapping of a file: after
            // MADV_DONTNEED its pages read back from the file (as another
            // process may have left it, which `new` accepts for every
            // read), so no slice handed out before points at freed memory.
            let _ = unsafe {
                self.map
                    .unchecked_advise_range(UncheckedAdvice::DontNeed, start, end - start)
            };
        }
    }
}

impl Drop for Map {
    fn drop(&mut self) {
        crate::signals::unmapped(self.map.as_ptr() as usize);
    }
}
