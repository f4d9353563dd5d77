//! A load someone waits for: a thread choice's replay (`replay.rs`) asks
//! its `Watch` whether to stop, from each thread that reads, and tells it
//! how far the reading thread has come, so that a key stops it at once and
//! all its threads end (issue 62). A load nobody watches carries
//! `Watched::none()`: its looks are a branch a chunk.

use crate::LoadError;
use profx_model::Watch;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Bytes read between two looks at the watch: a chunk of the fast engines
/// holds at most this much when watched, and the reference loaders look
/// this often. A quarter of `Watch::EVERY`, so that a chunk ending past it
/// (a line is read whole) still keeps within it.
pub(crate) const STEP: usize = (Watch::EVERY / 4) as usize;

/// A load's watch, shared by its threads.
pub(crate) struct Watched<'w> {
    watch: Option<&'w Watch<'w>>,
    /// Set once the watch said stop: every thread then stops without
    /// asking again, and the load knows it was stopped.
    stopped: AtomicBool,
    /// Bytes of the pieces read before the current one (a trace in
    /// packets is read a piece after another).
    before: AtomicU64,
    /// Bytes of all the pieces.
    total: AtomicU64,
    /// The last figure told, so that what the watch hears never goes back.
    told: AtomicU64,
}

impl<'w> Watched<'w> {
    /// A load nobody waits for: never stopped, nothing told.
    pub(crate) fn none() -> Watched<'static> {
        Watched::of(None)
    }

    /// A load `watch` waits for.
    pub(crate) fn new(watch: &'w Watch<'w>) -> Watched<'w> {
        Watched::of(Some(watch))
    }

    fn of(watch: Option<&'w Watch<'w>>) -> Watched<'w> {
        Watched {
            watch,
            stopped: AtomicBool::new(false),
            before: AtomicU64::new(0),
            total: AtomicU64::new(0),
            told: AtomicU64::new(0),
        }
    }

    /// Whether someone waits for this load.
    pub(crate) fn is_watched(&self) -> bool {
        self.watch.is_some()
    }

    /// Whether to stop, asking the watch unless it said so already. Any
    /// thread of the load may ask.
    pub(crate) fn stop(&self) -> bool {
        let Some(watch) = self.watch else {
            return false;
        };
        if self.stopped.load(Ordering::Relaxed) {
            return true;
        }
        let stop = watch.cancelled();
        if stop {
            self.stopped.store(true, Ordering::Relaxed);
        }
        stop
    }

    /// `LoadError::Cancelled` once the watch said stop (without asking
    /// again): what a reader that stopped early returns, rather than the
    /// part it read.
    pub(crate) fn check(&self) -> Result<(), LoadError> {
        match self.stopped.load(Ordering::Relaxed) {
            true => Err(LoadError::Cancelled),
            false => Ok(()),
        }
    }

    /// The pieces to read hold `total` bytes.
    pub(crate) fn expect(&self, total: u64) {
        self.total.store(total, Ordering::Relaxed);
    }

    /// The reading thread (the one that reads in file order) has read the
    /// current piece up to byte `offset`: tells the watch, then asks it.
    /// False to stop.
    pub(crate) fn read(&self, offset: usize) -> bool {
        if self.watch.is_none() {
            return true;
        }
        self.tell(self.before.load(Ordering::Relaxed) + offset as u64);
        !self.stop()
    }

    /// The current piece, `len` bytes, is read: the next piece's offsets
    /// count on from its end.
    pub(crate) fn piece_read(&self, len: u64) {
        let before = self.before.load(Ordering::Relaxed) + len;
        self.before.store(before, Ordering::Relaxed);
        self.tell(before);
    }

    fn tell(&self, done: u64) {
        let Some(watch) = self.watch else {
            return;
        };
        let total = self.total.load(Ordering::Relaxed);
        let done = done.min(total);
        if done > self.told.load(Ordering::Relaxed) {
            self.told.store(done, Ordering::Relaxed);
            (watch.progress)(done, total);
        }
    }
}
