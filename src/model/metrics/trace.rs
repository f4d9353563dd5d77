//! Trace feed: model.md § Intervals from a trace of events.
//!
//! Each thread keeps its own call stack and clock. The interval between two
//! consecutive events of a thread belongs to the stack in effect during it
//! (the stack after the earlier event), so a loader calls `trace_time`
//! *before* applying an event's push or pop. Exclusive and stack self times
//! are added per interval; inclusive times are closed lazily when a frame is
//! popped (clock at pop − clock at push, counted for the outermost activation
//! only, which is "recursion once"), so an event costs O(1), not O(depth).

use crate::model::ProfileBuilder;
use crate::model::ids::{FuncId, LineId, StackId};
use crate::model::metrics::{add_count, add_opt};
use crate::model::warning::Place;
use rustc_hash::FxHashMap;

/// Whether the trace records times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceTime {
    Timed,
    Untimed,
}

/// One open call on a thread's stack.
#[derive(Clone, Copy, Debug)]
pub struct TraceFrame {
    pub func: FuncId,
    /// Loader-owned marks (Xbase++: pushed by `i`, entered, returning).
    pub flags: u8,
    path: StackId,
    pushed_at: f64,
    outermost: bool,
    site: Option<LineId>,
}

#[derive(Debug, Default)]
struct ThreadTrace {
    first: Option<f64>,
    clock: Option<f64>,
    frames: Vec<TraceFrame>,
    depth: FxHashMap<FuncId, u32>,
}

#[derive(Debug)]
pub struct TraceState {
    time: TraceTime,
    threads: FxHashMap<u64, ThreadTrace>,
    /// (parent path or u32::MAX for a root, function) → path.
    children: FxHashMap<(u32, FuncId), StackId>,
    /// Per path: time during which the path was a prefix of the stack.
    on_stack_ms: Vec<f64>,
    outside_ms: f64,
    scratch: Vec<FuncId>,
}

impl ProfileBuilder {
    /// Starts the trace feed; the profile's times come from it.
    pub fn trace_begin(&mut self, time: TraceTime) {
        self.trace_state = Some(TraceState {
            time,
            threads: FxHashMap::default(),
            children: FxHashMap::default(),
            on_stack_ms: Vec::new(),
            outside_ms: 0.0,
            scratch: Vec::new(),
        });
    }

    /// Advances `thread`'s clock to `t`, giving the elapsed interval to the
    /// stack in effect. A time earlier than the clock counts as 0 and warns.
    pub fn trace_time(&mut self, thread: u64, t: f64, place: Place) {
        let Some(st) = self.trace_state.as_mut() else {
            return;
        };
        let th = st.threads.entry(thread).or_default();
        let Some(clock) = th.clock else {
            th.first = Some(t);
            th.clock = Some(t);
            return;
        };
        if t < clock {
            let msg = format!(
                "time goes backwards on thread {thread} ({t} after {clock}); interval counted as 0"
            );
            self.warn(place, msg);
            return;
        }
        th.clock = Some(t);
        let d = t - clock;
        match th.frames.last() {
            None => st.outside_ms += d,
            Some(top) => {
                let f = &mut self.functions[top.func.index()];
                f.time.elapsed_exclusive = add_opt(f.time.elapsed_exclusive, Some(d));
                let s = &mut self.stacks[top.path.index()];
                s.self_ms = add_opt(s.self_ms, Some(d));
            }
        }
    }

    /// Enters `func` on `thread` (one call), made from line `site` if known.
    pub fn trace_enter(&mut self, thread: u64, func: FuncId, flags: u8, site: Option<LineId>) {
        let Some(mut st) = self.trace_state.take() else {
            return;
        };
        let path = self.trace_path(&mut st, thread, func);
        let timed = st.time == TraceTime::Timed;
        let th = st.threads.entry(thread).or_default();
        let depth = th.depth.entry(func).or_insert(0);
        *depth += 1;
        th.frames.push(TraceFrame {
            func,
            flags,
            path,
            pushed_at: th.clock.unwrap_or(0.0),
            outermost: *depth == 1,
            site,
        });
        let zero = timed.then_some(0.0);
        let f = &mut self.functions[func.index()];
        f.calls = add_count(f.calls, Some(1));
        f.time.elapsed_inclusive = add_opt(f.time.elapsed_inclusive, zero);
        f.time.elapsed_exclusive = add_opt(f.time.elapsed_exclusive, zero);
        self.stack_summary(path, Some(1), zero, None);
        if let Some(line) = site {
            self.line_summary(line, Some(1), zero);
        }
        self.trace_state = Some(st);
    }

    /// Leaves the top frame of `thread`; returns it.
    pub fn trace_exit(&mut self, thread: u64) -> Option<TraceFrame> {
        let st = self.trace_state.as_mut()?;
        let th = st.threads.get_mut(&thread)?;
        let frame = th.frames.pop()?;
        if let Some(d) = th.depth.get_mut(&frame.func) {
            *d -= 1;
        }
        if st.time == TraceTime::Timed {
            let span = th.clock.unwrap_or(0.0) - frame.pushed_at;
            st.on_stack_ms[frame.path.index()] += span;
            if frame.outermost {
                let f = &mut self.functions[frame.func.index()];
                f.time.elapsed_inclusive = add_opt(f.time.elapsed_inclusive, Some(span));
            }
            if let Some(line) = frame.site {
                self.line_summary(line, None, Some(span));
            }
        }
        Some(frame)
    }

    /// The open frames of `thread`, root first.
    pub fn trace_frames(&self, thread: u64) -> &[TraceFrame] {
        self.trace_state
            .as_ref()
            .and_then(|st| st.threads.get(&thread))
            .map_or(&[], |th| th.frames.as_slice())
    }

    pub fn trace_frames_mut(&mut self, thread: u64) -> &mut [TraceFrame] {
        match self
            .trace_state
            .as_mut()
            .and_then(|st| st.threads.get_mut(&thread))
        {
            Some(th) => th.frames.as_mut_slice(),
            None => &mut [],
        }
    }

    /// Closes every frame still open at its thread's last event; returns how
    /// many there were, so the loader can warn once for the file.
    pub fn trace_close_open(&mut self) -> usize {
        let Some(st) = self.trace_state.as_ref() else {
            return 0;
        };
        let open: Vec<(u64, usize)> = st
            .threads
            .iter()
            .map(|(&t, th)| (t, th.frames.len()))
            .collect();
        for &(thread, n) in &open {
            for _ in 0..n {
                self.trace_exit(thread);
            }
        }
        open.iter().map(|&(_, n)| n).sum()
    }

    fn trace_path(&mut self, st: &mut TraceState, thread: u64, func: FuncId) -> StackId {
        let frames = st
            .threads
            .get(&thread)
            .map_or(&[][..], |th| th.frames.as_slice());
        let parent = frames.last().map_or(u32::MAX, |f| f.path.0);
        if let Some(&path) = st.children.get(&(parent, func)) {
            return path;
        }
        st.scratch.clear();
        st.scratch.extend(frames.iter().map(|f| f.func));
        st.scratch.push(func);
        let path = self.stack(&st.scratch);
        st.children.insert((parent, func), path);
        if st.on_stack_ms.len() <= path.index() {
            st.on_stack_ms.resize(path.index() + 1, 0.0);
        }
        path
    }

    /// Session totals and stack child times, once every event is in.
    pub(crate) fn finish_trace(&mut self) {
        let Some(st) = self.trace_state.take() else {
            return;
        };
        if st.time == TraceTime::Untimed {
            return;
        }
        let session: f64 = st
            .threads
            .values()
            .map(|th| th.clock.unwrap_or(0.0) - th.first.unwrap_or(0.0))
            .sum();
        self.totals.elapsed_inclusive_ms = Some(session);
        self.totals.outside_ms = Some(st.outside_ms);
        for (i, &on_stack) in st.on_stack_ms.iter().enumerate() {
            let s = &mut self.stacks[i];
            s.child_ms = Some(on_stack - s.self_ms.unwrap_or(0.0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// model.md's hand example: 0 enter A, 10 enter B, 30 exit B, 35 exit A.
    #[test]
    fn hand_example_of_model_md() {
        let mut b = ProfileBuilder::new("test");
        let m = b.intern("");
        let (na, nb) = (b.intern("A"), b.intern("B"));
        let (a, bb) = (b.function(na, m), b.function(nb, m));
        b.trace_begin(TraceTime::Timed);
        let p = Place::Line(1);
        b.trace_time(1, 0.0, p.clone());
        b.trace_enter(1, a, 0, None);
        b.trace_time(1, 10.0, p.clone());
        b.trace_enter(1, bb, 0, None);
        b.trace_time(1, 30.0, p.clone());
        b.trace_exit(1);
        b.trace_time(1, 35.0, p);
        b.trace_exit(1);
        let prof = b.finish();
        let (fa, fb) = (prof.function(a), prof.function(bb));
        assert_eq!(
            (fa.time.elapsed_inclusive, fa.time.elapsed_exclusive),
            (Some(35.0), Some(15.0))
        );
        assert_eq!(
            (fb.time.elapsed_inclusive, fb.time.elapsed_exclusive),
            (Some(20.0), Some(20.0))
        );
        assert_eq!((fa.calls, fb.calls), (Some(1), Some(1)));
        assert_eq!(prof.totals.elapsed_inclusive_ms, Some(35.0));
        assert_eq!(prof.totals.outside_ms, Some(0.0));
        assert_eq!(fa.pct.elapsed_exclusive, Some(42.857142857142854));
        assert_eq!(fb.pct.elapsed_inclusive, Some(57.142857142857146));
        let sa = prof.stack_ids().find(|&s| prof.frames(s) == [a]).unwrap();
        let sab = prof
            .stack_ids()
            .find(|&s| prof.frames(s) == [a, bb])
            .unwrap();
        assert_eq!(
            (prof.stack(sa).self_ms, prof.stack(sa).child_ms),
            (Some(15.0), Some(20.0))
        );
        assert_eq!(
            (prof.stack(sab).self_ms, prof.stack(sab).child_ms),
            (Some(20.0), Some(0.0))
        );
    }

    #[test]
    fn recursion_once_outside_time_and_backwards_clock() {
        let mut b = ProfileBuilder::new("test");
        let m = b.intern("");
        let na = b.intern("A");
        let a = b.function(na, m);
        b.trace_begin(TraceTime::Timed);
        let at = |n| Place::Line(n);
        b.trace_time(7, 0.0, at(1)); // outside until 5
        b.trace_time(7, 5.0, at(2));
        b.trace_enter(7, a, 0, None);
        b.trace_time(7, 8.0, at(3));
        b.trace_enter(7, a, 0, None); // A>A
        b.trace_time(7, 6.0, at(4)); // backwards: 0, clock stays 8
        b.trace_exit(7);
        b.trace_time(7, 10.0, at(5));
        b.trace_exit(7);
        let p = b.finish();
        let fa = p.function(a);
        assert_eq!(fa.calls, Some(2));
        assert_eq!(
            fa.time.elapsed_inclusive,
            Some(5.0),
            "recursion counted once"
        );
        assert_eq!(fa.time.elapsed_exclusive, Some(5.0));
        assert_eq!(p.totals.outside_ms, Some(5.0));
        assert_eq!(p.totals.elapsed_inclusive_ms, Some(10.0));
        assert_eq!(p.stacks().len(), 2, "A>A is a stack of its own");
        assert_eq!(p.warnings().len(), 1);
        assert_eq!(p.warnings()[0].place, Place::Line(4));
    }
}
