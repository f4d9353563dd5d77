//! A trace's running numbers per path, function and call line, kept in
//! small arrays of their own while events arrive; `trace.rs` adds them to
//! the model's rows once.
//!
//! A function's numbers are summed a pop at a time, not folded from its
//! paths' sums at the end: then they are the same to the bit whether the
//! trace keeps its paths or not (`KeepStacks`), and a report of functions
//! can skip the paths, half the replay's work.
//!
//! A trace with half a million paths makes each pop's path row a cache
//! miss, and the replay thread is what a large trace load waits on. So a
//! pop's numbers wait in a short queue: its row is prefetched when it
//! arrives and added to a few pops later, by which time the line is in
//! cache. The queue is first in, first out, so every sum gets its terms in
//! the same order as without it: the numbers are the same to the bit.

use super::durations::{Called, DurationTable, Durations};
use crate::ids::{FuncId, LineId, StackId};
use profx_sys::prefetch::prefetch;

/// How many pops wait: enough to cover a memory access at the replay's
/// pace (tens of nanoseconds an event), few enough to stay in L1.
const WAITING: usize = 16;

/// How many of a path's callees its row holds. In the generated random
/// walks four cover three in four lookups of a known path (eight: the
/// same), and the row then fills one cache line.
const KIDS: usize = 4;

const NO_KID: (FuncId, StackId) = (FuncId(u32::MAX), StackId(u32::MAX));

/// A path's numbers while the trace is read, and its first callees: the
/// replay prefetches the row when it pushes the path, so a call it makes
/// next finds its own path in cache rather than in a table of all paths.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub(super) struct PathAcc {
    pub calls: u64,
    pub self_ms: f64,
    /// Time during which the path was a prefix of the stack.
    pub on_stack_ms: f64,
    /// Whether its leaf function is also below it (recursion), known once
    /// when the path is made, so an event needs no count of activations
    /// to apply "recursion once".
    pub recursive: bool,
    /// The line the path was last called from (`NO_SITE.0` before): a
    /// line's callees are looked over only when a path's line changes,
    /// not at every call (in the room the row's alignment leaves).
    site: u32,
    /// (callee, its path), the first `KIDS` made; the rest are in the
    /// replay's table of all paths.
    kids: [(FuncId, StackId); KIDS],
}

impl Default for PathAcc {
    fn default() -> PathAcc {
        PathAcc {
            calls: 0,
            self_ms: 0.0,
            on_stack_ms: 0.0,
            recursive: false,
            site: NO_SITE.0,
            kids: [NO_KID; KIDS],
        }
    }
}

impl PathAcc {
    /// The path of `func` called from this path, if the row holds it.
    pub(super) fn kid(&self, func: FuncId) -> Option<StackId> {
        self.kids.iter().find(|k| k.0 == func).map(|k| k.1)
    }

    /// Keeps (func, path) if the row has room; false if not.
    pub(super) fn add_kid(&mut self, func: FuncId, path: StackId) -> bool {
        match self.kids.iter_mut().find(|k| k.0 == NO_KID.0) {
            Some(k) => {
                *k = (func, path);
                true
            }
            None => false,
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct FuncAcc {
    pub calls: u64,
    pub inclusive_ms: f64,
    pub exclusive_ms: f64,
    /// The longest span of its calls, and the event that call began at
    /// (`durations.rs`: where `w` goes), meaningful once `calls` > 0.
    pub longest: f64,
    pub slowest: u64,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct SiteAcc {
    pub ms: f64,
    /// Counted up to `u32::MAX` (the trace feed warns there): 16 bytes a
    /// row, not 24, so a trace's million call sites stay in the caches.
    pub calls: u32,
    /// The function the line called first (`NONE` before any; the others
    /// a line called, which few lines do, are in `Accs::more_callees`).
    pub callee: u32,
}

/// No callee yet.
pub(super) const NONE: u32 = u32::MAX;

impl Default for SiteAcc {
    fn default() -> Self {
        SiteAcc {
            ms: 0.0,
            calls: 0,
            callee: NONE,
        }
    }
}

/// A popped frame's numbers, waiting to be added.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pop {
    /// `NO_PATH` when the trace keeps no paths.
    pub path: StackId,
    pub func: FuncId,
    /// Whether `func` is also below it on the stack, when no path tells
    /// (`path` is `NO_PATH`).
    pub recursive: bool,
    /// `NO_SITE` when the call's line is not known: an `Option` would
    /// make a pop 40 bytes, not 32.
    pub site: LineId,
    /// Whether a call from the same site was open below it on its
    /// thread: the line counts the call but not its span again.
    pub site_nested: bool,
    /// Clock at the pop − clock at the push.
    pub span: f64,
    /// Time the activation spent on top of the stack.
    pub self_ms: f64,
    /// The event the call began at (`durations.rs`).
    pub entered: u64,
    /// Whether it was entered inside the feed's range: only then a call
    /// of its path, function and line.
    pub counted: bool,
}

#[derive(Clone, Debug)]
pub(super) struct Accs {
    timed: bool,
    paths: Segments<PathAcc>,
    pub funcs: Vec<FuncAcc>,
    pub lines: Vec<SiteAcc>,
    /// Each call's durations, for their percentiles.
    pub durations: Durations,
    /// (line, function) for the calls a line made to another function
    /// than its first (`a(b())` calls two), pushed as met and sorted and
    /// deduplicated once they pile up: a push where a lookup would cost
    /// a cache miss a call.
    more_callees: Vec<(u32, u32)>,
    /// How many `more_callees` may hold before they are deduplicated.
    dedup_at: usize,
    /// Pops not yet added, a ring: the next one goes at `next`, where the
    /// oldest is once the ring is `full`.
    waiting: [Pop; WAITING],
    next: usize,
    full: bool,
}

/// The path of a frame when the trace keeps none.
pub(super) const NO_PATH: StackId = StackId(u32::MAX);

/// A pop's line when its call's is not known (tables stay below
/// `u32::MAX` rows, `ids.rs`).
pub(super) const NO_SITE: LineId = LineId(u32::MAX);

const NO_POP: Pop = Pop {
    path: NO_PATH,
    func: FuncId(u32::MAX),
    recursive: false,
    site: NO_SITE,
    site_nested: false,
    span: 0.0,
    self_ms: 0.0,
    entered: super::durations::NO_EVENT,
    counted: false,
};

impl Accs {
    /// `distributions`: whether each call's durations are kept for its
    /// function's percentiles, or only its extremes (`skip_durations`).
    pub(super) fn new(timed: bool, distributions: bool) -> Accs {
        let mut durations = Durations::new(timed);
        if !distributions {
            durations.extremes_only();
        }
        Accs {
            timed,
            paths: Segments::default(),
            funcs: Vec::new(),
            lines: Vec::new(),
            durations,
            more_callees: Vec::new(),
            dedup_at: 1 << 20,
            waiting: [NO_POP; WAITING],
            next: 0,
            full: false,
        }
    }

    pub(super) fn path(&mut self, path: StackId) -> &mut PathAcc {
        self.paths.slot(path.index())
    }

    /// Every path's row, in path order.
    pub(super) fn paths(&self) -> impl Iterator<Item = &PathAcc> {
        self.paths.iter()
    }

    #[inline(always)]
    pub(super) fn line(&mut self, line: LineId) -> &mut SiteAcc {
        slot(&mut self.lines, line.index())
    }

    /// Asks for the path's row ahead of its first use.
    pub(super) fn prefetch_path(&self, path: StackId) {
        if let Some(row) = self.paths.get(path.index()) {
            prefetch(row);
        }
    }

    /// Asks for the rows of the calls the path's row holds (call when
    /// that row is in: it is read for them).
    #[inline(always)]
    pub(super) fn prefetch_kids(&self, path: StackId) {
        let Some(row) = self.paths.get(path.index()) else {
            return;
        };
        for &(func, kid) in &row.kids {
            if func != NO_KID.0 {
                self.prefetch_path(kid);
            }
        }
    }

    /// The path's row if it exists.
    pub(super) fn path_row(&self, path: StackId) -> Option<&PathAcc> {
        self.paths.get(path.index())
    }

    /// Queues a pop; adds the oldest one once the queue is full.
    #[inline(always)]
    pub(super) fn pop(&mut self, pop: Pop) {
        if self.full {
            self.add(self.waiting[self.next]);
        }
        // Its path row exists: `trace.rs` makes it with the path.
        self.prefetch_path(pop.path);
        if let Some(row) = self.funcs.get(pop.func.index()) {
            prefetch(row);
        }
        if let Some(row) = self.lines.get(pop.site.index()) {
            prefetch(row);
        }
        self.waiting[self.next] = pop;
        self.next = (self.next + 1) % WAITING;
        self.full |= self.next == 0;
    }

    /// Adds every waiting pop, oldest first; the numbers are complete
    /// after it.
    pub(super) fn flush(&mut self) {
        let (oldest, n) = if self.full {
            (self.next, WAITING)
        } else {
            (0, self.next)
        };
        for k in 0..n {
            self.add(self.waiting[(oldest + k) % WAITING]);
        }
        (self.next, self.full) = (0, false);
    }

    /// Adds a pop to its path (if kept), its function (its time on the
    /// stack only where it is not also below: recursion once) and its
    /// call line (its span only where no call from the line was open
    /// below it: recursion once at a call site).
    #[inline(always)]
    fn add(&mut self, pop: Pop) {
        let timed = self.timed;
        // Whether this call's line may be new among its callee's lines.
        let mut new_site = true;
        let counted = pop.counted;
        let recursive = match self.paths.get_mut(pop.path.index()) {
            Some(path) => {
                path.calls += u64::from(counted);
                if timed {
                    path.self_ms += pop.self_ms;
                    path.on_stack_ms += pop.span;
                }
                new_site = path.site != pop.site.0;
                path.site = pop.site.0;
                path.recursive
            }
            None => pop.recursive,
        };
        let func = slot(&mut self.funcs, pop.func.index());
        func.calls += u64::from(counted);
        if timed {
            // Its shortest, longest and percentiles are of what this keeps:
            // a call entered before the range is none of its calls.
            if counted {
                // The first of equal longest calls: the earliest to see.
                if func.calls == 1 || pop.span > func.longest {
                    (func.longest, func.slowest) = (pop.span, pop.entered);
                }
                self.durations.call(pop.func, pop.span, pop.self_ms);
            }
            func.exclusive_ms += pop.self_ms;
            if !recursive {
                func.inclusive_ms += pop.span;
            }
        }
        if pop.site != NO_SITE {
            let line = self.line(pop.site);
            line.calls = line.calls.saturating_add(u32::from(counted));
            if timed && !pop.site_nested {
                line.ms += pop.span;
            }
            let f = pop.func.0;
            if line.callee == NONE {
                line.callee = f;
            } else if line.callee != f && new_site {
                self.another_callee(pop.site, pop.func);
            }
        }
    }

    #[inline(always)]
    fn another_callee(&mut self, site: LineId, f: FuncId) {
        self.more_callees.push((site.0, f.0));
        if self.more_callees.len() >= self.dedup_at {
            self.dedup_callees();
        }
    }

    #[cold]
    fn dedup_callees(&mut self) {
        self.more_callees.sort_unstable();
        self.more_callees.dedup();
        self.dedup_at = (self.more_callees.len() * 2).max(1 << 20);
    }

    /// Each function's calls' durations summarised, the values kept for
    /// them freed (`durations.rs`); once every pop is added.
    pub(super) fn finish_durations(&mut self) -> DurationTable {
        let called: Vec<Called> = self
            .funcs
            .iter()
            .map(|f| Called {
                calls: f.calls,
                slowest: f.slowest,
            })
            .collect();
        std::mem::replace(&mut self.durations, Durations::new(false)).finish(&called)
    }

    /// The other functions each line called, by line, in line order.
    pub(super) fn take_more_callees(&mut self) -> Vec<(u32, u32)> {
        self.dedup_callees();
        std::mem::take(&mut self.more_callees)
    }
}

/// A growing array in fixed segments: growing never copies it. A path row
/// is cache-line aligned, and a `Vec` of an over-aligned type grows by
/// allocating anew and copying, so at a million paths the old 64 MB and
/// the new array would both be resident for a moment.
#[derive(Clone, Debug)]
struct Segments<T> {
    segs: Vec<Box<[T]>>,
    len: usize,
}

const SEGMENT: usize = 4096;

impl<T> Default for Segments<T> {
    fn default() -> Self {
        Segments {
            segs: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Default + Clone> Segments<T> {
    fn get(&self, i: usize) -> Option<&T> {
        if i >= self.len {
            return None;
        }
        self.segs.get(i / SEGMENT)?.get(i % SEGMENT)
    }

    fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        if i >= self.len {
            return None;
        }
        self.segs.get_mut(i / SEGMENT)?.get_mut(i % SEGMENT)
    }

    /// Row `i`, growing the array with defaults to reach it.
    #[inline]
    fn slot(&mut self, i: usize) -> &mut T {
        if i >= self.len {
            self.grow_to(i);
        }
        &mut self.segs[i / SEGMENT][i % SEGMENT]
    }

    #[cold]
    fn grow_to(&mut self, i: usize) {
        while self.segs.len() <= i / SEGMENT {
            self.segs
                .push(vec![T::default(); SEGMENT].into_boxed_slice());
        }
        self.len = i + 1;
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.segs.iter().flat_map(|s| s.iter()).take(self.len)
    }
}

/// `v[i]`, growing `v` with defaults to reach it: inlined, as a pop
/// asks twice; growing is rare and is not.
#[inline(always)]
fn slot<T: Default + Clone>(v: &mut Vec<T>, i: usize) -> &mut T {
    if v.len() <= i {
        grow(v, i);
    }
    &mut v[i]
}

#[cold]
#[inline(never)]
fn grow<T: Default + Clone>(v: &mut Vec<T>, i: usize) {
    v.resize(i + 1, T::default());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pop of path `path` (`NO_PATH`'s index for none), function `func`.
    fn pop(path: u32, func: u32, span: f64) -> Pop {
        Pop {
            path: StackId(path),
            func: FuncId(func),
            recursive: false,
            site: LineId(0),
            site_nested: false,
            span,
            self_ms: span / 2.0,
            entered: 0,
            counted: true,
        }
    }

    /// Terms whose sum depends on their order: the queue must keep it.
    #[test]
    fn waiting_pops_add_up_in_arrival_order() {
        let spans = [1e16, 1.0, -1e16, 1.0, 0.1, 0.2, 0.3];
        let mut queued = Accs::new(true, true);
        let mut direct = (0.0, 0.0);
        for _ in 0..5 {
            for &s in &spans {
                queued.path(StackId(0));
                queued.pop(pop(0, 0, s));
                direct.0 += s;
                direct.1 += s / 2.0;
            }
        }
        assert!(queued.path(StackId(0)).calls < 35, "some pops still wait");
        queued.flush();
        let p = *queued.path(StackId(0));
        assert_eq!(
            (p.calls, p.on_stack_ms, p.self_ms),
            (35, direct.0, direct.1)
        );
        assert_eq!(queued.lines[0].ms, direct.0);
        let f = queued.funcs[0];
        assert_eq!((f.inclusive_ms, f.exclusive_ms), direct);
    }

    /// A function gets the calls and self time of every pop of it, and
    /// the time on the stack of those not also below (recursion once):
    /// known from the path's row when the trace keeps paths, from the pop
    /// when it keeps none.
    #[test]
    fn functions_add_up_pop_by_pop_with_paths_or_without() {
        let mut a = Accs::new(true, true);
        a.path(StackId(4)).recursive = true;
        a.path(StackId(5));
        // Paths 0 and 4 end in function 2, path 5 in function 1.
        for (path, func, span) in [(0, 2, 8.0), (4, 2, 2.0), (4, 2, 1.0), (5, 1, 6.0)] {
            a.pop(pop(path, func, span));
        }
        a.flush();
        let mut b = Accs::new(true, true);
        for (recursive, func, span) in [
            (false, 2, 8.0),
            (true, 2, 2.0),
            (true, 2, 1.0),
            (false, 1, 6.0),
        ] {
            b.pop(Pop {
                recursive,
                ..pop(NO_PATH.0, func, span)
            });
        }
        b.flush();
        let f = |acc: &Accs, i: usize| {
            let f = acc.funcs[i];
            (f.calls, f.exclusive_ms, f.inclusive_ms)
        };
        for acc in [&a, &b] {
            assert_eq!(f(acc, 2), (3, 5.5, 8.0));
            assert_eq!(f(acc, 1), (1, 3.0, 6.0));
            assert_eq!(f(acc, 0), (0, 0.0, 0.0));
            assert_eq!(acc.lines[0].calls, 4);
        }
        assert_eq!(a.paths().count(), 6);
        assert_eq!(b.paths().count(), 0, "no path row made without paths");
    }

    #[test]
    fn segments_grow_without_moving_rows_and_iterate_in_order() {
        let mut s = Segments::<u32>::default();
        *s.slot(3) = 7;
        let first = std::ptr::from_ref(s.slot(3));
        *s.slot(SEGMENT * 2 + 1) = 9;
        assert!(std::ptr::eq(first, s.slot(3)), "row 3 stayed in place");
        assert_eq!(s.get(SEGMENT * 2 + 2), None);
        let all: Vec<u32> = s.iter().copied().collect();
        assert_eq!(all.len(), SEGMENT * 2 + 2);
        assert_eq!((all[3], all[SEGMENT * 2 + 1], all[0]), (7, 9, 0));
    }

    #[test]
    fn a_row_keeps_its_first_callees_only() {
        let mut row = PathAcc::default();
        for f in 0..KIDS as u32 {
            assert!(row.add_kid(FuncId(f), StackId(10 + f)));
        }
        assert!(!row.add_kid(FuncId(99), StackId(99)));
        assert_eq!(row.kid(FuncId(2)), Some(StackId(12)));
        assert_eq!(row.kid(FuncId(99)), None);
        assert_eq!(std::mem::size_of::<PathAcc>(), 64);
    }

    #[test]
    fn an_untimed_pop_counts_calls_only() {
        let mut a = Accs::new(false, true);
        a.path(StackId(3)).recursive = true;
        a.pop(pop(3, 1, 5.0));
        a.flush();
        let row = a.paths().nth(3).copied().unwrap_or_default();
        assert_eq!((row.calls, row.on_stack_ms), (1, 0.0));
        assert_eq!(a.paths().count(), 4);
        assert_eq!((a.lines[0].calls, a.lines[0].ms), (1, 0.0));
        let f = a.funcs[1];
        assert_eq!((f.calls, f.exclusive_ms, f.inclusive_ms), (1, 0.0, 0.0));
    }
}
