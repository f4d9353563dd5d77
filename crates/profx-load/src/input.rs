//! An input file's bytes: memory-mapped read-only, or borrowed (the demo).

use super::LoadError;
use profx_sys::map::Map;
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug)]
enum Bytes {
    Mapped(Map),
    Static(&'static [u8]),
    Owned(Vec<u8>),
    /// A followed file's bytes as they were when shared (`follow.rs`).
    Shared(profx_sys::grow::Shared),
}

/// Files smaller than this are read, not mapped: as fast at that size, no
/// page can vanish under the reader, and a trace of 65,000 small packets
/// stays within the kernel's limit of memory maps.
const READ_BELOW: u64 = 4 << 20;

fn read_whole(mut file: File, name: &str, len: u64) -> std::io::Result<Input> {
    let mut bytes = Vec::with_capacity(len.min(READ_BELOW) as usize);
    file.read_to_end(&mut bytes)?;
    Ok(Input::owned(name, bytes))
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
    /// Opens `path` read-only: a file of a few megabytes is read into
    /// memory, a larger one mapped; `-` reads standard input to its end
    /// (`zcat t.prf.gz | profx report -`). Only regular files are opened:
    /// a FIFO, socket or device is refused at once (opening a FIFO would
    /// wait for a writer forever). The file is never written, locked or
    /// truncated.
    pub fn open(path: impl AsRef<Path>) -> Result<Input, LoadError> {
        let path = path.as_ref();
        let name = path.to_string_lossy().into_owned();
        let io = |error| LoadError::Io {
            path: name.clone(),
            error,
        };
        if path.as_os_str() == "-" {
            let mut bytes = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(io)?;
            return Ok(Input::owned(&name, bytes));
        }
        // Non-blocking, so that a FIFO opens at once and is then refused.
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
            .map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            let what = profx_sys::fs::kind_of(&meta.file_type());
            return Err(LoadError::NotAFile { path: name, what });
        }
        let len = meta.len();
        if len < READ_BELOW {
            return read_whole(file, &name, len).map_err(io);
        }
        match Map::new(&file, &profx_model::text::visible(&name)) {
            Ok(map) => Ok(Input {
                name,
                bytes: Arc::new(Bytes::Mapped(map)),
                read: Arc::default(),
            }),
            // Out of mappings (the kernel allows about 65,000): read it.
            Err(e) if e.raw_os_error() == Some(libc::ENOMEM) => {
                read_whole(file, &name, len).map_err(io)
            }
            Err(e) => Err(io(e)),
        }
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

    /// An input of bytes a followed file had when they were shared: the
    /// follower goes on appending behind them without copying them.
    pub fn shared(name: &str, bytes: profx_sys::grow::Shared) -> Input {
        Input {
            name: name.to_string(),
            bytes: Arc::new(Bytes::Shared(bytes)),
            read: Arc::default(),
        }
    }

    /// The input's name as the user gave it (a path, `-`, or the demo's).
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

    /// Whether the input has no bytes.
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
        if let Bytes::Mapped(map) = &*self.bytes {
            map.forget(range);
        }
    }

    /// The input's bytes, shared (never copied for a mapped file).
    pub fn bytes(&self) -> &[u8] {
        match &*self.bytes {
            Bytes::Mapped(m) => m.bytes(),
            Bytes::Static(s) => s,
            Bytes::Owned(v) => v,
            Bytes::Shared(s) => s,
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
        let input =
            crate::Input::from_static(profx_fixtures::demo::NAME, profx_fixtures::demo::BYTES);
        let watcher = input.clone();
        let p = super::super::load_inputs(&[input], &Default::default());
        assert!(p.is_ok());
        assert_eq!(watcher.bytes_read(), watcher.len());
        assert!(!watcher.is_empty());
    }
}
