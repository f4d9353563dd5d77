//! Trace feed: model.md § Intervals from a trace of events.
//!
//! Each thread keeps its own call stack and clock. The interval between two
//! consecutive events of a thread belongs to the stack in effect during it
//! (the stack after the earlier event), so a loader calls `trace_time`
//! *before* applying an event's push or pop. An interval is added to the
//! top frame's self time; a popped frame gives its path and its function
//! its call, its self time and its time on the stack (clock at pop − clock
//! at push; to the function only where it is not also below: "recursion
//! once", known per path when the path is made), so an event costs O(1),
//! not O(depth).
//!
//! While events arrive, numbers accumulate in arrays of their own
//! (`trace_acc.rs`: a path's count, times and first callees in one cache
//! line) rather than in the model's rows: a trace with half a million paths
//! then touches a few cache lines an event, not the wide rows the panes
//! read. `finish_trace` adds them to the rows once.
//!
//! A call site's line gets a call's span only where no call from the same
//! line is open below it on its thread (model.md § Intervals: recursion
//! counted once at a call site, as an edge counts it). Two calls from one
//! line of C, open at once on one thread, need C open twice: so a call
//! whose caller is open once (most calls, even under a recursive root)
//! needs no look. A call by a caller open twice or more looks in its
//! thread's count of such calls by site (`ThreadTrace::by_site`) and at
//! the one call it may have missed: the call the lowest open C made,
//! made while C was open once. A walk down the stack instead would cost
//! a deep recursion's depth at every call.
//!
//! A load that keeps no stacks (`ProfileBuilder::skip_stacks`) makes no
//! path: a call is recursive when its thread has a call of its function
//! open (a count per function), and its function, its line and the
//! totals get the same numbers, to the bit.
//!
//! What every event runs (`trace_enter`, `trace_exit`, `trace_path` and
//! the sums' queue) is inlined into the loader's event loop, since the
//! replay thread running it bounds a large trace's load and a call there
//! costs measurably more. Making a path, rare after the first events,
//! stays out of line.

use super::trace_acc::{Accs, NO_PATH, NO_SITE, Pop};
use super::trace_sites::Sites;
use crate::ProfileBuilder;
use crate::TimeRange;
use crate::func_table::Which;
use crate::ids::{FuncId, LineId, NameId, NodeId, StackId};
use crate::metrics::{add_count, add_opt};
use crate::timeline::{Mark, ThreadSpan, Timeline};
use crate::warning::{Place, WarningKind};
use profx_sys::prefetch::prefetch;
use rustc_hash::FxHashMap;

/// Whether the trace records times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceTime {
    /// Events have times: intervals give the time values.
    Timed,
    /// No time column: calls, stacks and lines, but no time values.
    Untimed,
}

/// A thread of the trace, as the builder numbers them: loaders look a
/// thread up once an event and pass this around.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadIx(usize);

/// One open call on a thread's stack.
#[derive(Clone, Copy, Debug)]
pub struct TraceFrame {
    /// The function called.
    pub func: FuncId,
    /// Loader-owned marks (Xbase++: pushed by `i`, entered, returning).
    pub flags: u8,
    path: StackId,
    pushed_at: f64,
    /// `NO_SITE` when the call's line is not known: an `Option` made an
    /// open call 48 bytes, not 40 (a trace of 60 M calls left open holds
    /// them all).
    site: LineId,
    /// Time this activation spent on top of the stack, added to its path
    /// when it is popped: the path's row is touched once a call, not once
    /// an event.
    self_ms: f64,
    /// The last call this frame made (callee, path): a loop calling the
    /// same function finds its path without a hash lookup.
    last_child: (FuncId, StackId),
    /// `RECURSIVE`, `SITE_NESTED`, `BY_SITE` and `COUNTED`, in one byte so
    /// an open call stays 40 bytes.
    bits: u8,
}

impl TraceFrame {
    /// `func` is also below it: its function's inclusive time reads it
    /// when the trace keeps no paths (with paths, the path knows), and a
    /// call it makes, whether its site may be open below.
    const RECURSIVE: u8 = 1;
    /// A call from the same site was open below it when it was made: its
    /// span is then already in its line's time.
    const SITE_NESTED: u8 = 2;
    /// It is counted in its thread's `by_site` (its caller was open twice
    /// or more when it was made).
    const BY_SITE: u8 = 4;
    /// It was entered inside the feed's range (model.md § Time ranges):
    /// only then it counts as a call; its time inside the range counts
    /// either way.
    const COUNTED: u8 = 8;

    #[inline(always)]
    fn is(&self, bit: u8) -> bool {
        self.bits & bit != 0
    }
}
const NO_CHILD: (FuncId, StackId) = (FuncId(u32::MAX), NO_PATH);

#[derive(Clone, Debug)]
struct ThreadTrace {
    id: u64,
    first: Option<f64>,
    clock: Option<f64>,
    frames: Vec<TraceFrame>,
    /// Its events, calls and time with no call open, for the threads list.
    events: u64,
    calls: u64,
    outside_ms: f64,
    /// How many of `frames` each function has, by id: whether a call is
    /// recursive (a new path's flag, or each call's when the trace keeps
    /// no paths), without a walk down the stack; and where its lowest one
    /// is.
    open: Vec<Open>,
    /// How many of `frames` made by a caller then open twice or more came
    /// from each site (by line row); none at 0.
    by_site: FxHashMap<u32, u32>,
}

/// A function's open calls on a thread.
#[derive(Clone, Copy, Debug, Default)]
struct Open {
    n: u32,
    /// The index in `frames` of the lowest (when `n` > 0).
    lowest: u32,
}

/// The trace feed between `trace_begin` and `finish`: each thread's clock and
/// open calls, and the sums so far.
#[derive(Clone, Debug)]
pub struct TraceState {
    time: TraceTime,
    /// Whether the trace's call paths are kept as stacks (`skip_stacks`).
    paths: bool,
    threads: Vec<ThreadTrace>,
    /// Thread ids below `SMALL_IDS` (most files number threads from 0 or
    /// 1): the thread's index, or `NO_THREAD`, so an event's thread costs
    /// an array read, not a hash.
    small_ids: Vec<u32>,
    thread_index: FxHashMap<u64, ThreadIx>,
    /// (parent path, function) → path, for the calls a parent's row has
    /// no room for (`PathAcc::kid`).
    children: FxHashMap<(StackId, FuncId), StackId>,
    /// Function → the path of a call of it on an empty stack (`NO_PATH`
    /// when none): a fifth of a trace's calls and more, which have no
    /// parent's row to look in, read this small array, not the large table.
    roots: Vec<StackId>,
    /// (calling function, line) → line row.
    sites: Sites,
    accs: Accs,
    outside_ms: f64,
    /// Every push and pop, when the load was asked for a timeline.
    marks: Option<Vec<Mark>>,
    /// The stretch of the run the numbers are cut to (`TimeRange::ALL`
    /// when none was asked: then every cut is the time itself, to the bit).
    range: TimeRange,
    /// Each thread's busy time across the run (`lanes.rs`); `None` when
    /// the load was asked for none (`skip_lanes`).
    lanes: Option<crate::lanes::LaneFeed>,
    /// The tree had no node when the trace began (`trace_owns_tree`).
    owns_tree: bool,
    /// Where each counted call goes as it closes (`calls.rs`).
    calls: Option<crate::calls::Sink>,
}

const SMALL_IDS: u64 = 4096;
const NO_THREAD: u32 = u32::MAX;

impl ThreadTrace {
    /// Counts a call of `func` from `site` as open, before it is pushed;
    /// whether a call of `func` already was, whether one from `site`
    /// already was, and whether it went into `by_site`. `site` is a line
    /// of the top frame's function (or of the top level on an empty
    /// stack), as a call site is.
    #[inline(always)]
    fn enter(&mut self, func: FuncId, site: LineId) -> (bool, bool, bool) {
        // The caller is on top: open twice when it is also below. Asked
        // before the call is counted (F → F makes F open twice only once
        // pushed), of the top frame, which the call has just read.
        let (site_nested, by_site) = match self.frames.last() {
            Some(top) if top.is(TraceFrame::RECURSIVE) => self.site_open(top.func, site),
            _ => (false, false),
        };
        let i = func.index();
        if self.open.len() <= i {
            self.open.resize(i + 1, Open::default());
        }
        // A stack of 2³² calls would take 160 GiB of frames first.
        let depth = self.frames.len() as u32;
        let o = &mut self.open[i];
        if o.n == 0 {
            o.lowest = depth;
        }
        o.n += 1;
        (o.n > 1, site_nested, by_site)
    }

    /// A call from `site` by `caller`, open twice or more: whether one
    /// from `site` was open already, and whether it went into `by_site`.
    /// Open ones are those counted there, and the call the caller's
    /// lowest activation made, which was made while the caller was open
    /// once. Out of line: the event loop's code stays small.
    #[inline(never)]
    fn site_open(&mut self, caller: FuncId, site: LineId) -> (bool, bool) {
        let Some(&caller) = self.open.get(caller.index()).filter(|_| site != NO_SITE) else {
            return (false, false);
        };
        let n = self.by_site.entry(site.0).or_insert(0);
        *n += 1;
        let lowest_call = self.frames.get(caller.lowest as usize + 1);
        (*n > 1 || lowest_call.is_some_and(|f| f.site == site), true)
    }

    /// Counts the call `frame` (just popped) as closed.
    #[inline(always)]
    fn leave(&mut self, frame: &TraceFrame) {
        if let Some(o) = self.open.get_mut(frame.func.index()) {
            o.n = o.n.saturating_sub(1);
        }
        if frame.is(TraceFrame::BY_SITE) {
            self.leave_site(frame.site);
        }
    }

    #[cold]
    #[inline(never)]
    fn leave_site(&mut self, site: LineId) {
        if let Some(n) = self.by_site.get_mut(&site.0) {
            *n -= 1;
            if *n == 0 {
                self.by_site.remove(&site.0);
            }
        }
    }
}

impl TraceState {
    /// Records a push or pop at the thread's clock (untimed: at the mark's
    /// own position, which keeps the order).
    fn mark(&mut self, thread: ThreadIx, func: FuncId, open: bool) {
        let Some(marks) = self.marks.as_mut() else {
            return;
        };
        let at = match self.time {
            TraceTime::Timed => self.threads[thread.0].clock.unwrap_or(0.0),
            TraceTime::Untimed => marks.len() as f64,
        };
        let thread = u32::try_from(thread.0).unwrap_or(u32::MAX);
        marks.extend(Mark::new(thread, func, open, at));
    }

    /// Each thread as the threads list shows it (its span cut to the
    /// range).
    fn thread_infos(&self) -> Vec<crate::ThreadInfo> {
        let timed = self.time == TraceTime::Timed;
        let cut = |t: Option<f64>| t.filter(|_| timed).map(|t| self.range.cut(t));
        self.threads
            .iter()
            .map(|th| crate::ThreadInfo {
                id: th.id,
                first_ms: cut(th.first),
                last_ms: cut(th.clock),
                busy_ms: match (cut(th.first), cut(th.clock)) {
                    (Some(a), Some(b)) => Some(b - a - th.outside_ms),
                    _ => None,
                },
                events: th.events,
                calls: th.calls,
            })
            .collect()
    }

    /// The recorded marks with each thread's span.
    fn timeline(&mut self) -> Option<Timeline> {
        let marks = self.marks.take()?;
        let timed = self.time == TraceTime::Timed;
        // A thread's span holds its marks: an untimed trace has no clock, and
        // a timed one may enter calls before its first time.
        let mut threads: Vec<ThreadSpan> = self
            .threads
            .iter()
            .map(|th| ThreadSpan {
                id: th.id,
                first: th.first.filter(|_| timed).unwrap_or(f64::INFINITY),
                last: th.clock.filter(|_| timed).unwrap_or(f64::NEG_INFINITY),
            })
            .collect();
        for m in &marks {
            let t = &mut threads[m.thread as usize];
            (t.first, t.last) = (t.first.min(m.at), t.last.max(m.at));
        }
        for t in &mut threads {
            if t.first > t.last {
                (t.first, t.last) = (0.0, 0.0);
            }
        }
        Some(Timeline {
            timed,
            threads,
            marks,
        })
    }
}

impl ProfileBuilder {
    /// Starts the trace feed; the profile's times come from it.
    pub fn trace_begin(&mut self, time: TraceTime) {
        let owns_tree = self.tree_is_empty();
        self.trace_state = Some(TraceState {
            owns_tree,
            time,
            paths: self.keeps_stacks(),
            threads: Vec::new(),
            small_ids: Vec::new(),
            thread_index: FxHashMap::default(),
            children: FxHashMap::default(),
            roots: Vec::new(),
            sites: Sites::default(),
            accs: Accs::new(time == TraceTime::Timed, self.durations_wanted),
            outside_ms: 0.0,
            marks: self.timeline_wanted.then(Vec::new),
            range: self.trace_range,
            lanes: self.lanes_wanted.then(Default::default),
            calls: self.call_sink.take(),
        });
    }

    /// Cuts the trace's numbers to `range` (model.md § Time ranges): every
    /// interval is measured on the clock held to the range, and a call
    /// counts only when entered inside it. Call before the loader starts.
    pub fn cut_to(&mut self, range: TimeRange) {
        self.trace_range = range;
    }

    /// The trace thread with this id, added on first sight. Before
    /// `trace_begin` every id is thread 0 of nothing: the feed ignores it.
    pub fn trace_thread(&mut self, id: u64) -> ThreadIx {
        let Some(st) = self.trace_state.as_mut() else {
            return ThreadIx(usize::MAX);
        };
        if let Some(&ix) = st.small_ids.get(id as usize)
            && ix != NO_THREAD
            && let Some(th) = st.threads.get_mut(ix as usize)
        {
            th.events += 1;
            st.accs.durations.event();
            return ThreadIx(ix as usize);
        }
        let ix = *st.thread_index.entry(id).or_insert_with(|| {
            st.threads.push(ThreadTrace {
                id,
                first: None,
                clock: None,
                frames: Vec::new(),
                events: 0,
                calls: 0,
                outside_ms: 0.0,
                open: Vec::new(),
                by_site: FxHashMap::default(),
            });
            ThreadIx(st.threads.len() - 1)
        });
        if let Some(th) = st.threads.get_mut(ix.0) {
            th.events += 1;
            st.accs.durations.event();
        }
        if id < SMALL_IDS {
            let at = id as usize;
            if st.small_ids.len() <= at {
                st.small_ids.resize(at + 1, NO_THREAD);
            }
            st.small_ids[at] = ix.0 as u32;
        }
        ix
    }

    /// The id the file gives a thread.
    pub fn trace_thread_id(&self, thread: ThreadIx) -> u64 {
        self.trace_state
            .as_ref()
            .and_then(|st| st.threads.get(thread.0))
            .map_or(0, |th| th.id)
    }

    /// How many threads the trace has seen.
    pub fn trace_thread_count(&self) -> usize {
        self.trace_state.as_ref().map_or(0, |st| st.threads.len())
    }

    /// Advances the thread's clock to `t`, giving the elapsed interval to the
    /// stack in effect. A time earlier than the clock counts as 0 and warns
    /// at `place` (made only then: an event's place is rarely needed).
    pub fn trace_time(&mut self, thread: ThreadIx, t: f64, place: impl FnOnce() -> Place) {
        let Some(st) = self.trace_state.as_mut() else {
            return;
        };
        let Some(th) = st.threads.get_mut(thread.0) else {
            return;
        };
        let Some(clock) = th.clock else {
            th.first = Some(t);
            th.clock = Some(t);
            return;
        };
        if t < clock {
            let id = th.id;
            self.time_backwards(id, (t, clock), place);
            return;
        }
        th.clock = Some(t);
        let d = st.range.cut(t) - st.range.cut(clock);
        match th.frames.last_mut() {
            None => {
                st.outside_ms += d;
                th.outside_ms += d;
            }
            Some(top) => {
                top.self_ms += d;
                if let Some(lanes) = st.lanes.as_mut() {
                    lanes.add(thread.0, clock, t, top.func);
                }
            }
        }
    }

    /// Out of the event loop: its text would make every event's code
    /// larger.
    #[cold]
    #[inline(never)]
    fn time_backwards(&mut self, id: u64, (t, clock): (f64, f64), place: impl FnOnce() -> Place) {
        let msg = format!(
            "time goes backwards on thread {id} ({t} after {clock}); interval counted as 0"
        );
        self.warn(place(), WarningKind::TimeBackwards, msg);
    }

    /// Enters `func` on `thread` (one call), made from line `site` if known:
    /// a line of the function of the thread's top frame, or of the top
    /// level when its stack is empty (`trace_site`), as a call site is.
    #[inline(always)]
    pub fn trace_enter(&mut self, thread: ThreadIx, func: FuncId, flags: u8, site: Option<LineId>) {
        let paths = self.trace_state.as_ref().is_some_and(|st| st.paths);
        let path = match paths {
            true => self.trace_path(thread, func),
            false => Some(NO_PATH),
        };
        let Some(path) = path else {
            return;
        };
        let Some(st) = self.trace_state.as_mut() else {
            return;
        };
        let Some(th) = st.threads.get_mut(thread.0) else {
            return;
        };
        // Its row holds the paths of the calls it makes next.
        st.accs.prefetch_path(path);
        // Counted with paths too: a new path asks whether its function is
        // open already (`new_trace_path`).
        let site = site.unwrap_or(NO_SITE);
        let (recursive, site_nested, by_site) = th.enter(func, site);
        let clock = th.clock.unwrap_or(0.0);
        let counted = st.range.holds(clock);
        th.calls += u64::from(counted);
        th.frames.push(TraceFrame {
            func,
            flags,
            path,
            pushed_at: st.range.cut(clock),
            site,
            self_ms: 0.0,
            last_child: NO_CHILD,
            bits: (u8::from(recursive) * TraceFrame::RECURSIVE)
                | (u8::from(site_nested) * TraceFrame::SITE_NESTED)
                | (u8::from(by_site) * TraceFrame::BY_SITE)
                | (u8::from(counted) * TraceFrame::COUNTED),
        });
        if let Some(lanes) = &st.lanes {
            lanes.ahead(thread.0, func);
        }
        st.accs.durations.enter(thread.0);
        st.mark(thread, func, true);
    }

    /// The line a call at `line` was made from: in the file of `caller`
    /// (the function of the thread's top frame), or `top_level` (a name)
    /// when the stack is empty. The caller comes from the replay, which
    /// has just looked at the top frame.
    pub fn trace_site(&mut self, caller: Option<FuncId>, line: u32, top_level: NameId) -> LineId {
        if let Some(id) = self
            .trace_state
            .as_ref()
            .and_then(|st| st.sites.get(caller, line))
        {
            return id;
        }
        self.new_trace_site(caller, line, top_level)
    }

    /// A call from `line` is coming on the thread with id `thread` (a few
    /// events ahead): its site's slot, found from the thread's top frame
    /// as it is now, is brought into cache. The caller may be wrong by
    /// then (the thread moved); the lookup is then only not sped up. With
    /// a site a caller's line, real traces have millions: the lookup
    /// missed the caches at most calls, and the replay thread, which a
    /// trace's load waits on, waited for it.
    #[inline]
    pub fn trace_site_ahead(&self, thread: u64, line: u32) {
        let Some(st) = self.trace_state.as_ref() else {
            return;
        };
        let Some(&ix) = st.small_ids.get(thread as usize) else {
            return;
        };
        if let Some(th) = st.threads.get(ix as usize) {
            st.sites.prefetch(th.frames.last().map(|f| f.func), line);
        }
    }

    /// Whether `trace_site_ahead` is worth calling: the call sites no
    /// longer fit the caches. With few, each hint only costs instructions.
    pub fn trace_sites_spilled(&self) -> bool {
        self.trace_state
            .as_ref()
            .is_some_and(|st| st.sites.spilled())
    }

    /// The line row of a call site met for the first time.
    #[cold]
    #[inline(never)]
    fn new_trace_site(&mut self, caller: Option<FuncId>, line: u32, top_level: NameId) -> LineId {
        // The sites are the rows' only index in a trace (`trace_sites`).
        let id = match caller {
            Some(f) => self.line_unindexed(self.functions.name(f.index()), line, Some(f)),
            None => {
                let id = self.line_unindexed(top_level, line, None);
                self.line_at_top_level(id);
                id
            }
        };
        if let Some(st) = self.trace_state.as_mut() {
            st.sites.insert(caller, line, id);
        }
        id
    }

    /// Leaves the top frame of `thread`; returns it.
    #[inline(always)]
    pub fn trace_exit(&mut self, thread: ThreadIx) -> Option<TraceFrame> {
        let st = self.trace_state.as_mut()?;
        let th = st.threads.get_mut(thread.0)?;
        let frame = th.frames.pop()?;
        let clock = th.clock;
        // Calls left open below it; a stack of 2³² calls would take 160
        // GiB of frames first.
        let (id, depth) = (th.id, th.frames.len() as u32);
        th.leave(&frame);
        // The caller is on top again: its lane's count and its open calls'
        // count (read at its return) are asked for now, not when used.
        if let Some(top) = th.frames.last() {
            if let Some(lanes) = &st.lanes {
                lanes.ahead(thread.0, top.func);
            }
            if let Some(o) = th.open.get(top.func.index()) {
                prefetch(o);
            }
        }
        st.mark(thread, frame.func, false);
        let entered = st.accs.durations.exit(thread.0);
        if let Some(sink) = st.calls.as_mut()
            && frame.is(TraceFrame::COUNTED)
        {
            sink.0.call(&crate::Call {
                thread: id,
                func: frame.func,
                start: frame.pushed_at,
                inclusive: st.range.cut(clock.unwrap_or(0.0)) - frame.pushed_at,
                exclusive: frame.self_ms,
                depth,
            });
        }
        st.accs.pop(Pop {
            path: frame.path,
            func: frame.func,
            recursive: frame.is(TraceFrame::RECURSIVE),
            site: frame.site,
            site_nested: frame.is(TraceFrame::SITE_NESTED),
            span: st.range.cut(clock.unwrap_or(0.0)) - frame.pushed_at,
            self_ms: frame.self_ms,
            entered,
            counted: frame.is(TraceFrame::COUNTED),
        });
        Some(frame)
    }

    /// The open frames of `thread`, root first.
    pub fn trace_frames(&self, thread: ThreadIx) -> &[TraceFrame] {
        self.trace_state
            .as_ref()
            .and_then(|st| st.threads.get(thread.0))
            .map_or(&[], |th| th.frames.as_slice())
    }

    /// The open frames of `thread`, root first, for the loader to change their
    /// `flags`.
    pub fn trace_frames_mut(&mut self, thread: ThreadIx) -> &mut [TraceFrame] {
        match self
            .trace_state
            .as_mut()
            .and_then(|st| st.threads.get_mut(thread.0))
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
        let open: Vec<usize> = st.threads.iter().map(|th| th.frames.len()).collect();
        for (i, &n) in open.iter().enumerate() {
            for _ in 0..n {
                self.trace_exit(ThreadIx(i));
            }
        }
        open.iter().sum()
    }

    /// The path of the thread's stack with `func` pushed on it: one lookup
    /// when the path is known, its frames hashed once when it is new.
    #[inline(always)]
    fn trace_path(&mut self, thread: ThreadIx, func: FuncId) -> Option<StackId> {
        let st = self.trace_state.as_mut()?;
        let frames = st.threads.get(thread.0)?.frames.as_slice();
        if let Some(top) = frames.last()
            && top.last_child.0 == func
        {
            return Some(top.last_child.1);
        }
        let parent = frames.last().map(|top| top.path);
        let known = match frames.last() {
            Some(top) => {
                // An activation's first call reads its row; the rows of the
                // other calls it holds are asked for now, a call or more
                // before they are pushed (their calls and pops read them).
                if top.last_child == NO_CHILD {
                    st.accs.prefetch_kids(top.path);
                }
                st.accs
                    .path_row(top.path)
                    .and_then(|row| row.kid(func))
                    .or_else(|| st.children.get(&(top.path, func)).copied())
            }
            None => st
                .roots
                .get(func.index())
                .copied()
                .filter(|&p| p != NO_PATH),
        };
        let path = match known {
            Some(path) => path,
            None => self.new_trace_path(thread, parent, func)?,
        };
        let st = self.trace_state.as_mut()?;
        if let Some(top) = st.threads.get_mut(thread.0)?.frames.last_mut() {
            top.last_child = (func, path);
        }
        Some(path)
    }

    /// Makes the path of the thread's stack with `func` pushed on it: its
    /// frames hashed once, its recursion decided once.
    /// `parent`: the top frame's path, `None` on an empty stack.
    #[cold]
    #[inline(never)]
    fn new_trace_path(
        &mut self,
        thread: ThreadIx,
        parent: Option<StackId>,
        func: FuncId,
    ) -> Option<StackId> {
        let st = self.trace_state.as_mut()?;
        let th = st.threads.get(thread.0)?;
        // The thread's count of open calls by function: no walk down the
        // stack, which made a chain of depth n cost n² steps.
        let recursive = th.open.get(func.index()).is_some_and(|o| o.n > 0);
        // (parent, func) was neither in the parent's row nor in `children`
        // (nor in `roots`): this trace made no such path. The tree may
        // hold it all the same, from stacks made before the trace.
        let depth = th.frames.len() as u32 + 1;
        let path = if self.trace_owns_tree() && self.tree.nodes.len() == self.stacks.len() {
            // Every node is this trace's and came with its stack, in one
            // order: a path's node is its stack's number, and its depth
            // the thread's; no row of the parent is read (it is rarely in
            // any cache).
            let node = self.tree.push_new(parent.map(|p| NodeId(p.0)), func, depth);
            self.stack_at(node)
        } else {
            let parent_node = parent.map(|p| self.stack_node(p));
            let node = self.node(parent_node, func);
            self.stack_at(node)
        };
        let st = self.trace_state.as_mut()?;
        st.accs.path(path).recursive = recursive;
        match parent {
            None => {
                if st.roots.len() <= func.index() {
                    st.roots.resize(func.index() + 1, NO_PATH);
                }
                st.roots[func.index()] = path;
            }
            Some(parent) if !st.accs.path(parent).add_kid(func, path) => {
                st.children.insert((parent, func), path);
            }
            Some(_) => {}
        }
        Some(path)
    }

    /// Whether every node is this trace's: then its own tables know a path
    /// is new, and the tree needs no lookup.
    pub(crate) fn trace_owns_tree(&self) -> bool {
        self.trace_state.as_ref().is_some_and(|st| st.owns_tree) && !self.tree.looked_up
    }

    /// Adds the trace's numbers to the rows; session totals and stack
    /// child times, once every event is in.
    pub(crate) fn finish_trace(&mut self) {
        let Some(mut st) = self.trace_state.take() else {
            return;
        };
        if let Some(sink) = st.calls.as_mut() {
            sink.0.done();
        }
        self.timeline = st.timeline();
        self.threads = st.thread_infos();
        let lanes = st.lanes.take().filter(|_| st.time == TraceTime::Timed);
        self.lanes = lanes.map(|lanes| lanes.finish(st.threads.len()));
        st.accs.flush();
        self.durations = st.accs.finish_durations();
        let timed = st.time == TraceTime::Timed;
        let ms = |x: f64| timed.then_some(x);
        // A function or line with no call entered in the range may still
        // have had time in it (a call entered before it).
        let funcs = st.accs.funcs.iter().enumerate();
        let ran =
            funcs.filter(|(_, a)| a.calls > 0 || a.inclusive_ms != 0.0 || a.exclusive_ms != 0.0);
        for (i, acc) in ran {
            let f = &mut self.functions;
            f.add_calls(i, Some(acc.calls));
            f.add_time(i, Which::ElapsedInclusive, ms(acc.inclusive_ms));
            f.add_time(i, Which::ElapsedExclusive, ms(acc.exclusive_ms));
            if timed && acc.calls > 0 {
                // The shortest and longest of the values the percentiles
                // are of (`durations.rs`).
                let one = self.durations.per_call(i);
                self.per_call(FuncId::from_index(i), one);
            }
        }
        let more = st.accs.take_more_callees();
        let mut more = more.as_slice();
        let lines = st.accs.lines.iter().enumerate();
        for (i, acc) in lines.filter(|(_, a)| a.calls > 0 || a.ms != 0.0) {
            let id = LineId::from_index(i);
            self.line_summary(id, Some(u64::from(acc.calls)), ms(acc.ms));
            // The others, sorted by line: this line's lead the rest.
            let skip = more.iter().take_while(|m| (m.0 as usize) < i).count();
            let mine = more[skip..]
                .iter()
                .take_while(|m| m.0 as usize == i)
                .count();
            let others: Vec<FuncId> = more[skip..skip + mine]
                .iter()
                .map(|m| FuncId::from_index(m.1 as usize))
                .collect();
            more = &more[skip + mine..];
            self.lines[i].called = self.called_name(acc.callee, &others);
            if acc.calls == u32::MAX {
                let l = &self.lines[i];
                let what = format!(
                    "the calls from {:?} at line {}: {} or more, counted up to there",
                    self.names.resolve(l.file),
                    l.line,
                    u32::MAX
                );
                let place = self.current_file();
                self.warn(place, WarningKind::CountCapped, what);
            }
        }
        for (i, acc) in st.accs.paths().enumerate() {
            let s = &mut self.stacks[i];
            s.hits = add_count(s.hits, Some(acc.calls));
            s.self_ms = add_opt(s.self_ms, ms(acc.self_ms));
            if timed {
                s.child_ms = Some(acc.on_stack_ms - s.self_ms.unwrap_or(0.0));
            }
        }
        if !timed {
            return;
        }
        let cut = |t: Option<f64>| st.range.cut(t.unwrap_or(0.0));
        let session: f64 = st
            .threads
            .iter()
            .map(|th| cut(th.clock) - cut(th.first))
            .sum();
        self.totals.elapsed_inclusive_ms = Some(session);
        self.totals.outside_ms = Some(st.outside_ms);
    }
}

impl ProfileBuilder {
    /// The name a line's callees show as: the one function's name, or the
    /// names of several (`a, b`, in name order, the first four and how
    /// many more), interned once.
    fn called_name(&mut self, first: u32, more: &[FuncId]) -> Option<NameId> {
        if first == super::trace_acc::NONE {
            return None;
        }
        let first = FuncId::from_index(first as usize);
        if more.is_empty() {
            return Some(self.functions.name(first.index()));
        }
        let mut names: Vec<&str> = std::iter::once(first)
            .chain(more.iter().copied())
            .map(|f| self.names.resolve(self.functions.name(f.index())))
            .collect();
        names.sort_unstable();
        names.dedup();
        let shown = names.len().min(4);
        let mut text = names[..shown].join(", ");
        if names.len() > shown {
            text.push_str(&format!(" (+{} more)", names.len() - shown));
        }
        Some(self.intern(&text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Threads are numbered in order of first sight, small ids and large
    /// alike, and keep their number.
    #[test]
    fn threads_are_numbered_in_order_of_first_sight() {
        let mut b = ProfileBuilder::new("test");
        b.trace_begin(TraceTime::Untimed);
        let ids = [5, 1, 5000, 1, 5000, 1 << 40, 0, 5];
        let got: Vec<usize> = ids.iter().map(|&id| b.trace_thread(id).0).collect();
        assert_eq!(got, [0, 1, 2, 1, 2, 3, 4, 0]);
        let back: Vec<u64> = (0..5).map(|i| b.trace_thread_id(ThreadIx(i))).collect();
        assert_eq!(back, [5, 1, 5000, 1 << 40, 0]);
        assert_eq!(b.trace_thread_count(), 5);
    }

    /// model.md's hand example: 0 enter A, 10 enter B, 30 exit B, 35 exit A.
    #[test]
    fn hand_example_of_model_md() {
        let mut b = ProfileBuilder::new("test");
        let m = b.intern("");
        let (na, nb) = (b.intern("A"), b.intern("B"));
        let (a, bb) = (b.function(na, m), b.function(nb, m));
        b.trace_begin(TraceTime::Timed);
        let t1 = b.trace_thread(1);
        let p = Place::Line(1);
        b.trace_time(t1, 0.0, || p.clone());
        b.trace_enter(t1, a, 0, None);
        b.trace_time(t1, 10.0, || p.clone());
        b.trace_enter(t1, bb, 0, None);
        b.trace_time(t1, 30.0, || p.clone());
        b.trace_exit(t1);
        b.trace_time(t1, 35.0, || p.clone());
        b.trace_exit(t1);
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
        assert_eq!(prof.percents(a).elapsed_exclusive, Some(42.857142857142854));
        assert_eq!(
            prof.percents(bb).elapsed_inclusive,
            Some(57.142857142857146)
        );
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

    /// Each call's own span and own time on top: A(0..40) calls A(10..30)
    /// (recursion: the inner call is a call of its own) and then B(32..33);
    /// a second A(50..51) is the shortest. XppPat's TIMEMIN/TIMEMAX, VS's
    /// Min/Max columns.
    #[test]
    fn shortest_and_longest_call_of_each_function() {
        let mut b = ProfileBuilder::new("test");
        let m = b.intern("");
        let (na, nb) = (b.intern("A"), b.intern("B"));
        let (a, bb) = (b.function(na, m), b.function(nb, m));
        b.trace_begin(TraceTime::Timed);
        let t = b.trace_thread(1);
        let p = Place::Line(1);
        let at = |b: &mut ProfileBuilder, ms: f64| b.trace_time(t, ms, || p.clone());
        at(&mut b, 0.0);
        b.trace_enter(t, a, 0, None);
        at(&mut b, 10.0);
        b.trace_enter(t, a, 0, None);
        at(&mut b, 30.0);
        b.trace_exit(t);
        at(&mut b, 32.0);
        b.trace_enter(t, bb, 0, None);
        at(&mut b, 33.0);
        b.trace_exit(t);
        at(&mut b, 40.0);
        b.trace_exit(t);
        at(&mut b, 50.0);
        b.trace_enter(t, a, 0, None);
        at(&mut b, 51.0);
        b.trace_exit(t);
        let prof = b.finish();
        let pa = prof.per_call(a);
        assert_eq!(
            (pa.min_inclusive, pa.max_inclusive),
            (Some(1.0), Some(40.0))
        );
        // The outer A: 40 − 20 (inner A) − 1 (B) = 19 on top.
        assert_eq!(
            (pa.min_exclusive, pa.max_exclusive),
            (Some(1.0), Some(20.0))
        );
        let pb = prof.per_call(bb);
        assert_eq!((pb.min_inclusive, pb.max_exclusive), (Some(1.0), Some(1.0)));
        // Recursion once in the sum, but every call in the extremes.
        assert_eq!(prof.function(a).time.elapsed_inclusive, Some(41.0));
    }

    /// An open call is what a trace of calls never returned holds, once
    /// per call: it stays 40 bytes.
    #[test]
    fn an_open_call_stays_small() {
        assert!(std::mem::size_of::<TraceFrame>() <= 40);
    }

    /// A chain of nested calls, each of a function of its own, makes one
    /// path per depth; each new path shares its parent's frames, so the
    /// paths of a chain of depth n hold n frames in all, not n²/2, and the
    /// frames each path shows are still its whole root-first path.
    #[test]
    fn a_deep_chain_of_calls_costs_one_frame_a_level() {
        let mut b = ProfileBuilder::new("test");
        let m = b.intern("");
        let funcs: Vec<FuncId> = (0..1000)
            .map(|i| {
                let n = b.intern(&format!("F{i}"));
                b.function(n, m)
            })
            .collect();
        b.trace_begin(TraceTime::Timed);
        let t = b.trace_thread(1);
        for (i, &f) in funcs.iter().enumerate() {
            b.trace_time(t, i as f64, || Place::Line(1));
            b.trace_enter(t, f, 0, None);
        }
        // A second root.
        b.trace_time(t, 1000.0, || Place::Line(1));
        for _ in 0..1000 {
            b.trace_exit(t);
        }
        b.trace_enter(t, funcs[1], 0, None);
        b.trace_exit(t);
        let prof = b.finish();
        assert_eq!(prof.stacks().len(), 1001);
        assert_eq!(prof.nodes().len(), 1001, "a node a path, not a frame");
        let deepest = prof
            .stack_ids()
            .find(|&s| prof.frames(s).len() == 1000)
            .unwrap();
        assert_eq!(prof.frames(deepest), &funcs[..]);
        let middle = prof
            .stack_ids()
            .find(|&s| prof.frames(s).len() == 500)
            .unwrap();
        assert_eq!(prof.frames(middle), &funcs[..500]);
        // Recursion is still known per path, from the open calls.
        assert_eq!(prof.function(funcs[0]).time.elapsed_inclusive, Some(1000.0));
    }

    /// A caller's row holds its first callees' paths and the table the
    /// rest: either way a call made again finds the path made before.
    #[test]
    fn calls_past_a_rows_room_find_their_paths_again() {
        let mut b = ProfileBuilder::new("test");
        let mut function = |name: &str| {
            let (n, m) = (b.intern(name), b.intern(""));
            b.function(n, m)
        };
        let a = function("A");
        let callees: Vec<FuncId> = (0..7).map(|i| function(&format!("B{i}"))).collect();
        b.trace_begin(TraceTime::Untimed);
        let t = b.trace_thread(1);
        b.trace_enter(t, a, 0, None);
        for _ in 0..2 {
            for &f in &callees {
                b.trace_enter(t, f, 0, None);
                b.trace_exit(t);
            }
        }
        b.trace_exit(t);
        let p = b.finish();
        assert_eq!(p.stacks().len(), 1 + callees.len(), "no path made twice");
        for &f in &callees {
            let s = p.stack_ids().find(|&s| p.frames(s) == [a, f]).unwrap();
            assert_eq!(p.stack(s).hits, Some(2));
        }
    }

    /// Calls on an empty stack, on two threads, of functions made in any
    /// order, find their one-frame paths again (`roots`).
    #[test]
    fn calls_at_the_root_find_their_paths_again() {
        let mut b = ProfileBuilder::new("test");
        let m = b.intern("");
        let funcs: Vec<FuncId> = (0..5)
            .map(|i| {
                let n = b.intern(&format!("F{i}"));
                b.function(n, m)
            })
            .collect();
        b.trace_begin(TraceTime::Untimed);
        let threads = [b.trace_thread(1), b.trace_thread(2)];
        for round in 0..3 {
            for (i, &f) in funcs.iter().enumerate().rev() {
                let t = threads[(i + round) % 2];
                b.trace_enter(t, f, 0, None);
                b.trace_enter(t, funcs[0], 0, None);
                b.trace_exit(t);
                b.trace_exit(t);
            }
        }
        let p = b.finish();
        for &f in &funcs {
            let roots: Vec<StackId> = p.stack_ids().filter(|&s| p.frames(s) == [f]).collect();
            assert_eq!(roots.len(), 1, "one root path for {f:?}");
            assert_eq!(p.stack(roots[0]).hits, Some(3));
        }
        assert_eq!(p.stacks().len(), 2 * funcs.len());
    }

    /// With its paths or without them (`skip_stacks`, where open
    /// calls are counted per function instead), the same numbers.
    #[test]
    fn recursion_once_outside_time_and_backwards_clock() {
        use crate::testing::{builder, new_function};
        for paths in [true, false] {
            let mut b = builder(paths);
            let a = new_function(&mut b, "A");
            b.trace_begin(TraceTime::Timed);
            let t7 = b.trace_thread(7);
            let at = |n| Place::Line(n);
            b.trace_time(t7, 0.0, || at(1)); // outside until 5
            b.trace_time(t7, 5.0, || at(2));
            b.trace_enter(t7, a, 0, None);
            b.trace_time(t7, 8.0, || at(3));
            b.trace_enter(t7, a, 0, None); // A>A
            b.trace_time(t7, 6.0, || at(4)); // backwards: 0, clock stays 8
            b.trace_exit(t7);
            b.trace_time(t7, 10.0, || at(5));
            b.trace_exit(t7);
            // Once both calls are closed, a call of A is not recursive.
            b.trace_enter(t7, a, 0, None);
            b.trace_time(t7, 11.0, || at(6));
            b.trace_exit(t7);
            let p = b.finish();
            let fa = p.function(a);
            assert_eq!(fa.calls, Some(3));
            assert_eq!(
                fa.time.elapsed_inclusive,
                Some(6.0),
                "recursion counted once"
            );
            assert_eq!(fa.time.elapsed_exclusive, Some(6.0));
            assert_eq!(p.totals.outside_ms, Some(5.0));
            assert_eq!(p.totals.elapsed_inclusive_ms, Some(11.0));
            let stacks = if paths { 2 } else { 0 };
            assert_eq!(p.stacks().len(), stacks, "A>A is a stack of its own");
            assert_eq!(p.warnings().len(), 1);
            assert_eq!(p.warnings()[0].place, Place::Line(4));
            assert_eq!(p.warnings()[0].kind, WarningKind::TimeBackwards);
        }
    }

    /// A call made while one from its site is open on its thread adds its
    /// span to the line once (model.md § Intervals), with paths or
    /// without, even where the outer call was made while its caller was
    /// open once (so it is not among the calls counted by site); every
    /// call counts.
    #[test]
    fn a_call_site_counts_a_call_within_one_of_its_own_once() {
        use crate::testing::{builder, new_function};
        for paths in [true, false] {
            let mut b = builder(paths);
            let (f, g) = (new_function(&mut b, "F"), new_function(&mut b, "G"));
            let top = b.intern("(top level)");
            b.trace_begin(TraceTime::Timed);
            let t = b.trace_thread(1);
            let enter = |b: &mut ProfileBuilder, ms: f64, caller, line, func| {
                b.trace_time(t, ms, || Place::Line(1));
                let site = b.trace_site(caller, line, top);
                b.trace_enter(t, func, 0, Some(site));
                site
            };
            enter(&mut b, 0.0, None, 1, f);
            let outer = enter(&mut b, 1.0, Some(f), 20, f);
            enter(&mut b, 2.0, Some(f), 4, g);
            enter(&mut b, 3.0, Some(g), 3, f);
            let inner = enter(&mut b, 4.0, Some(f), 20, f);
            assert_eq!(outer, inner, "one site");
            for ms in [6.0, 7.0, 8.0, 10.0, 11.0] {
                b.trace_time(t, ms, || Place::Line(1));
                b.trace_exit(t);
            }
            // Again after the recursion ended: counted afresh.
            enter(&mut b, 12.0, None, 1, f);
            enter(&mut b, 13.0, Some(f), 20, f);
            for ms in [15.0, 16.0] {
                b.trace_time(t, ms, || Place::Line(1));
                b.trace_exit(t);
            }
            let p = b.finish();
            let line = p.line(outer);
            assert_eq!(line.hits, Some(3), "paths {paths}");
            // 1–10 and 13–15, not 4–6 again.
            assert_eq!(line.time_ms, Some(11.0), "paths {paths}");
            assert_eq!(p.function(f).time.elapsed_inclusive, Some(15.0));
        }
    }

    /// A deep stack, then a shallow one and deep again, with recursion all
    /// the way: the same numbers with paths and without them (open calls
    /// counted per function).
    #[test]
    fn deep_stacks_count_recursion_once_as_paths_do() {
        use crate::testing::{builder, new_function};
        let numbers = |paths| {
            let mut b = builder(paths);
            let fs: Vec<FuncId> = ["A", "B", "C"]
                .iter()
                .map(|n| new_function(&mut b, n))
                .collect();
            b.trace_begin(TraceTime::Timed);
            let t = b.trace_thread(1);
            let (mut clock, mut open) = (0.0, 0);
            for depth in [40, 3, 17, 0] {
                while open != depth {
                    clock += 1.0;
                    b.trace_time(t, clock, || Place::Line(1));
                    if open < depth {
                        b.trace_enter(t, fs[open % 3], 0, None);
                        open += 1;
                    } else {
                        b.trace_exit(t);
                        open -= 1;
                    }
                }
            }
            let p = b.finish();
            let f = |f: FuncId| {
                let x = p.function(f);
                (x.calls, x.time.elapsed_inclusive, x.time.elapsed_exclusive)
            };
            (f(fs[0]), f(fs[1]), f(fs[2]), p.totals.elapsed_inclusive_ms)
        };
        let (with, without) = (numbers(true), numbers(false));
        assert_eq!(with, without);
        // A is open from the first tick to the last: recursion counted once.
        assert_eq!(with.0.1, with.3);
        assert!(with.0.0 > Some(10), "{with:?}");
    }
}

#[cfg(test)]
mod timeline_tests {
    use super::*;
    use crate::timeline::Mark;

    fn marks(timed: TraceTime) -> crate::Profile {
        let mut b = ProfileBuilder::new("test");
        b.record_timeline();
        let m = b.intern("");
        let (na, nb) = (b.intern("A"), b.intern("B"));
        let (a, bb) = (b.function(na, m), b.function(nb, m));
        b.trace_begin(timed);
        let (t1, t2) = (b.trace_thread(1), b.trace_thread(2));
        let p = Place::Line(1);
        b.trace_time(t1, 5.0, || p.clone());
        b.trace_enter(t1, a, 0, None);
        b.trace_time(t2, 6.0, || p.clone());
        b.trace_enter(t2, bb, 0, None);
        b.trace_time(t1, 10.0, || p.clone());
        b.trace_enter(t1, bb, 0, None);
        // Backwards: the clock stays at 10, and so does the mark.
        b.trace_time(t1, 8.0, || p.clone());
        b.trace_exit(t1);
        b.trace_time(t1, 35.0, || p.clone());
        b.trace_close_open();
        b.finish()
    }

    #[test]
    fn a_timeline_holds_every_push_and_pop_at_its_thread_clock() {
        let p = marks(TraceTime::Timed);
        let tl = p.timeline().unwrap();
        let (a, bb) = (FuncId(0), FuncId(1));
        let m = |thread, func, open, at| Mark::new(thread, func, open, at).unwrap();
        assert_eq!(
            tl.marks,
            vec![
                m(0, a, true, 5.0),
                m(1, bb, true, 6.0),
                m(0, bb, true, 10.0),
                m(0, bb, false, 10.0),
                // Closed at the end, at each thread's last time.
                m(0, a, false, 35.0),
                m(1, bb, false, 6.0),
            ]
        );
        let spans: Vec<_> = tl.threads.iter().map(|t| (t.id, t.first, t.last)).collect();
        assert_eq!(spans, vec![(1, 5.0, 35.0), (2, 6.0, 6.0)]);
        assert!(tl.timed);
    }

    #[test]
    fn an_untimed_timeline_counts_marks_and_a_plain_load_keeps_none() {
        let p = marks(TraceTime::Untimed);
        let tl = p.timeline().unwrap();
        let at: Vec<f64> = tl.marks.iter().map(|m| m.at).collect();
        assert_eq!(at, vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!((tl.threads[1].first, tl.threads[1].last), (1.0, 5.0));
        let mut b = ProfileBuilder::new("test");
        b.trace_begin(TraceTime::Timed);
        assert!(b.finish().timeline().is_none());
    }
}
