//! A trace's calls in time order: every open and close of a frame, per
//! thread, at the clock the trace feed had when it happened.
//!
//! The metric rules need only sums, so a load keeps no timeline unless one
//! is asked for (`ProfileBuilder::record_timeline`): exports to evented
//! formats (speedscope, Chrome trace events) are the only readers. It is
//! written by the trace feed itself, so its opens and closes are exactly
//! the pushes and pops the metrics counted, unwinds and the closing of calls
//! still open at the end included; a close always matches the open on top
//! of its thread's stack, and times never go backwards within a thread.

use super::ids::FuncId;

/// One open or close of a frame, in 16 bytes: a trace of ten million
/// events keeps its timeline in 160 MB.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mark {
    /// Index into `Timeline::threads`.
    pub thread: u32,
    /// The function's index, `OPEN` set for an open.
    func_open: u32,
    /// Milliseconds on the trace's clock; for an untimed trace, the mark's
    /// place in the timeline (0, 1, 2, …), so order survives.
    pub at: f64,
}

const OPEN: u32 = 1 << 31;

impl Mark {
    /// A mark; `None` for a function index past 2^31 (more functions than
    /// memory could hold rows for).
    pub fn new(thread: u32, func: FuncId, open: bool, at: f64) -> Option<Mark> {
        let index = u32::try_from(func.index()).ok().filter(|&i| i < OPEN)?;
        Some(Mark {
            thread,
            func_open: if open { index | OPEN } else { index },
            at,
        })
    }

    /// The function opened or closed.
    pub fn func(&self) -> FuncId {
        FuncId::from_index((self.func_open & !OPEN) as usize)
    }

    /// Whether the mark opens a frame (else it closes one).
    pub fn open(&self) -> bool {
        self.func_open & OPEN != 0
    }
}

/// One thread of the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreadSpan {
    /// The id the file gives the thread.
    pub id: u64,
    /// Its first and last event (for an untimed trace, mark positions).
    pub first: f64,
    /// Its last event's time, in ms (for an untimed trace, its last mark's
    /// position).
    pub last: f64,
}

/// A trace's calls in time order, with each thread's span
/// (`Profile::timeline`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    /// Whether `Mark::at` is in ms; false for an untimed trace, whose marks are
    /// at their places.
    pub timed: bool,
    /// Every thread of the trace, in the order first met; `Mark::thread`
    /// indexes it.
    pub threads: Vec<ThreadSpan>,
    /// Every open and close, in the order the feed made them: each thread's in
    /// time order.
    pub marks: Vec<Mark>,
}

impl Timeline {
    /// The marks of one thread, in order.
    pub fn thread_marks(&self, thread: u32) -> impl Iterator<Item = &Mark> {
        self.marks.iter().filter(move |m| m.thread == thread)
    }
}
