//! An input file's bytes: memory-mapped read-only, or borrowed (the demo).

use super::LoadError;
use memmap2::{Mmap, UncheckedAdvice};
use std::fs::File;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug)]
enum Bytes {
    Mapped(Mmap),
    Static(&'static [u8]),
    Owned(Vec<u8>),
}

/// One input: its name as the user gave it, and its bytes. The bytes are
/// shared, so a packet can keep decoding its events from the file after
/// loading (a trace's events are never copied to the heap).
#[derive(Debug, Clone)]
pub struct Input {
    name: String,
    bytes: Arc<Bytes>,
    /// How far the loader has read, for a progress bar on another thread.
    /// Shared by clones, so a caller keeps a clone to watch the load.
    read: Arc<AtomicU64>,
}

impl Input {
    /// Opens `path` read-only and maps it; the file is never written,
    /// locked or truncated.
    pub fn open(path: &str) -> Result<Input, LoadError> {
        let io = |source| LoadError::Io {
            path: path.to_string(),
            source,
        };
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len == 0 {
            // Mapping an empty file fails on some systems; there is nothing to map.
            return Ok(Input::owned(path, Vec::new()));
        }
        // SAFETY: the map is read-only and private to this process. Another
        // process truncating the file while we read it is the one hazard of
        // any mmap; profiles are finished files, and the speed of reading
        // gigabyte traces without copying them is why we map.
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        Ok(Input {
            name: path.to_string(),
            bytes: Arc::new(Bytes::Mapped(map)),
            read: Arc::default(),
        })
    }

    /// An input whose bytes are built into the binary.
    pub fn from_static(name: &str, bytes: &'static [u8]) -> Input {
        Input {
            name: name.to_string(),
            bytes: Arc::new(Bytes::Static(bytes)),
            read: Arc::default(),
        }
    }

    /// An input held in memory (tests, generated data).
    pub fn owned(name: &str, bytes: Vec<u8>) -> Input {
        Input {
            name: name.to_string(),
            bytes: Arc::new(Bytes::Owned(bytes)),
            read: Arc::default(),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Records that the loader has read up to byte `offset`. One thread
    /// reads in file order, so a relaxed store (a plain write) is enough and
    /// a loader may call this on every record.
    pub fn mark_read(&self, offset: usize) {
        self.read.store(offset as u64, Ordering::Relaxed);
    }

    /// Bytes read so far, as the loader last marked.
    pub fn bytes_read(&self) -> u64 {
        self.read.load(Ordering::Relaxed)
    }

    /// The input's size in bytes.
    pub fn len(&self) -> u64 {
        self.bytes().len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.bytes().is_empty()
    }

    /// Tells the kernel that the mapped bytes in `range` are done with for
    /// now: their pages leave this process's resident set (they stay in the
    /// page cache and come back on the next access), so one pass over a
    /// file larger than memory never holds all of it. Advice only: a
    /// failure changes nothing. Chunks are released in file order, once
    /// parsed: that is progress.
    pub fn release(&self, range: std::ops::Range<usize>) {
        self.mark_read(range.end);
        self.forget(range);
    }

    /// `release` without marking progress, for a first pass that reads
    /// the file before the pass that counts.
    pub fn forget(&self, range: std::ops::Range<usize>) {
        const PAGE: usize = 4096;
        let Bytes::Mapped(map) = &*self.bytes else {
            return;
        };
        // Whole pages inside the range only: the page it ends in may hold
        // bytes a worker is still reading.
        let start = range.start.div_ceil(PAGE) * PAGE;
        let end = range.end.min(map.len()) / PAGE * PAGE;
        if end > start {
            // SAFETY: the map is a read-only shared mapping of a file: after
            // MADV_DONTNEED its pages read back from the file, unchanged, so
            // no slice handed out before sees different bytes.
            let _ = unsafe {
                map.unchecked_advise_range(UncheckedAdvice::DontNeed, start, end - start)
            };
        }
    }

    pub fn bytes(&self) -> &[u8] {
        match &*self.bytes {
            Bytes::Mapped(m) => m,
            Bytes::Static(s) => s,
            Bytes::Owned(v) => v,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_how_far_the_loader_read() {
        let input = Input::owned("x", vec![0; 100]);
        let watcher = input.clone();
        assert_eq!(watcher.bytes_read(), 0);
        input.mark_read(40);
        assert_eq!(watcher.bytes_read(), 40);
        input.release(0..70);
        assert_eq!(watcher.bytes_read(), 70);
    }

    #[test]
    fn a_finished_load_has_read_the_whole_input() {
        let input = crate::demo::input();
        let watcher = input.clone();
        let p = super::super::load_inputs(&[input], &Default::default());
        assert!(p.is_ok());
        assert_eq!(watcher.bytes_read(), watcher.len());
        assert!(!watcher.is_empty());
    }
}
