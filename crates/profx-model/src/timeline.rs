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

    /// The calls that overlap `range`, cut at its edges (model.md § Time
    /// ranges): a call open at its start opens there, one open at its end
    /// closes there, and a call wholly outside it is left out (one of no
    /// length counts where it lies in the range). Each thread's span is
    /// cut too. An open left unclosed (none: the feed closes every call at
    /// its thread's last event) is kept where it lies in the range.
    pub fn cut(&self, range: crate::TimeRange) -> Timeline {
        const NONE: usize = usize::MAX;
        let mut partner = vec![NONE; self.marks.len()];
        let mut open: Vec<Vec<usize>> = vec![Vec::new(); self.threads.len()];
        for (k, m) in self.marks.iter().enumerate() {
            let Some(stack) = open.get_mut(m.thread as usize) else {
                continue;
            };
            if m.open() {
                stack.push(k);
            } else if let Some(o) = stack.pop() {
                (partner[o], partner[k]) = (k, o);
            }
        }
        let overlaps = |a: f64, b: f64| match a == b {
            true => range.holds(a),
            false => b > range.from_ms && a < range.until_ms,
        };
        let keep = |k: usize| {
            let m = &self.marks[k];
            match partner[k] {
                NONE => range.holds(m.at),
                p if m.open() => overlaps(m.at, self.marks[p].at),
                p => overlaps(self.marks[p].at, m.at),
            }
        };
        let marks = (0..self.marks.len())
            .filter(|&k| keep(k))
            .map(|k| Mark {
                at: range.cut(self.marks[k].at),
                ..self.marks[k]
            })
            .collect();
        let threads = self
            .threads
            .iter()
            .map(|t| ThreadSpan {
                id: t.id,
                first: range.cut(t.first),
                last: range.cut(t.last),
            })
            .collect();
        Timeline {
            timed: self.timed,
            threads,
            marks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A: 0–10 around B: 2–4 and C: 6–8; cut to [3, 7): A and B and C cut
    /// at the edges; cut to [4.5, 5.5): A alone.
    #[test]
    fn a_cut_keeps_the_calls_that_overlap_cut_at_the_edges() {
        let f = |i| FuncId::from_index(i);
        let marks: Vec<Mark> = [
            (0, true, 0.0),
            (1, true, 2.0),
            (1, false, 4.0),
            (2, true, 6.0),
            (2, false, 8.0),
            (0, false, 10.0),
        ]
        .iter()
        .filter_map(|&(func, open, at)| Mark::new(0, f(func), open, at))
        .collect();
        let tl = Timeline {
            timed: true,
            threads: vec![ThreadSpan {
                id: 7,
                first: 0.0,
                last: 10.0,
            }],
            marks,
        };
        let range = |from_ms, until_ms| crate::TimeRange { from_ms, until_ms };
        let seen = |t: &Timeline| -> Vec<(usize, bool, f64)> {
            t.marks
                .iter()
                .map(|m| (m.func().index(), m.open(), m.at))
                .collect()
        };
        let cut = tl.cut(range(3.0, 7.0));
        assert_eq!(
            seen(&cut),
            [
                (0, true, 3.0),
                (1, true, 3.0),
                (1, false, 4.0),
                (2, true, 6.0),
                (2, false, 7.0),
                (0, false, 7.0)
            ]
        );
        assert_eq!((cut.threads[0].first, cut.threads[0].last), (3.0, 7.0));
        assert_eq!(
            seen(&tl.cut(range(4.5, 5.5))),
            [(0, true, 4.5), (0, false, 5.5)]
        );
        // Ending where a call begins leaves it out: the range holds none of it.
        assert_eq!(
            seen(&tl.cut(range(0.0, 2.0))),
            [(0, true, 0.0), (0, false, 2.0)]
        );
    }
}
