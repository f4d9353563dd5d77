//! The Xbase++ trace's rules (formats.md § xpp): the one place they are
//! applied. Both loaders feed it records: the reference loader
//! (`reference.rs`) a row at a time, the fast engine (`fast/replay.rs`)
//! the events its workers parsed, so the two can differ only in how bytes
//! become records, never in what a record does.
//!
//! A trace is one record per event: thread, time (ms since the program
//! started), op, call, line. The ops, per thread, on a stack of open calls:
//! - `i` (about to call) opens a call of `call`, made at `line` of the
//!   caller (the function open below it, or the top level);
//! - `I` (entered) opens one too, unless the call on top is the same
//!   function opened by an `i` and not yet entered: then it marks it;
//! - `O` (about to return) marks the call on top as returning when an `i`
//!   opened it, else closes it; `o` (returned) closes it;
//! - a return for a call deeper in the stack (BEGIN SEQUENCE/BREAK) first
//!   closes the calls above it, with a warning; a return for a call not
//!   on the stack is skipped, with a warning;
//! - any other op is skipped, with a warning the first time.
//!
//! Filtered traces have one entry and one return record per call;
//! unfiltered ones up to four, with `I`/`O` only for functions compiled
//! with profiling, so a frame remembers whether an `i` pushed it and what
//! it has seen since. The time between a thread's consecutive events
//! belongs to the call on top of its stack (the builder's trace feed:
//! `trace_time`, `trace_enter`, `trace_exit`), which makes each function's
//! inclusive and exclusive times, each call path's stack and each call
//! site's line. Rare branches are kept out of line: inlined, their code
//! made every record's larger.

use super::events::Step;
use profx_model::metrics::{ThreadIx, TraceTime};
use profx_model::{FuncId, NameId, Place, ProfileBuilder, TOP_LEVEL, WarningKind};
use rustc_hash::FxHashSet;

/// A record's op (formats.md § xpp). `Other` is an op the spec does not
/// know, kept by name (`N`: the profile's `NameId`, or a worker's number
/// for it in the fast engine's batches) so the rules warn about it once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Op<N = NameId> {
    /// `i`: about to enter.
    Enter,
    /// `I`: entered (functions compiled with profiling).
    Entered,
    /// `O`: about to return.
    Leaving,
    /// `o`: returned.
    Left,
    /// Any other op, by its name.
    Other(N),
}

impl<N> Op<N> {
    /// The same op, an unknown one's name mapped by `f`.
    pub(super) fn map_name<M>(self, f: impl FnOnce(N) -> M) -> Op<M> {
        match self {
            Op::Enter => Op::Enter,
            Op::Entered => Op::Entered,
            Op::Leaving => Op::Leaving,
            Op::Left => Op::Left,
            Op::Other(n) => Op::Other(f(n)),
        }
    }
}

impl Op {
    /// The op its text names; `intern` makes an unknown one's name.
    pub(super) fn of(text: &str, intern: impl FnOnce(&str) -> NameId) -> Op {
        match text {
            "i" => Op::Enter,
            "I" => Op::Entered,
            "O" => Op::Leaving,
            "o" => Op::Left,
            other => Op::Other(intern(other)),
        }
    }
}

/// One trace record as the rules read it, whichever loader read it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Record {
    /// The thread id the record states (0 where it states none).
    pub(super) thread: u64,
    /// Its time in ms, where it states one.
    pub(super) time: Option<f64>,
    /// Its op.
    pub(super) op: Op,
    /// The function called or returned from, by name.
    pub(super) call: NameId,
    /// The caller's line the call was made at.
    pub(super) line: Option<u32>,
}

/// A frame's flags: an `i` pushed it, and it has been entered (`I`) since.
/// An `O` changes nothing a later record reads: the call stays open until
/// its `o`.
const PUSHED_BY_I: u8 = 1;
const ENTERED: u8 = 2;
const NO_FUNCTION: u32 = u32::MAX;

/// The meta key a followed trace's profile states its calls still open
/// under (`Rules::finish`).
pub(crate) const OPEN_CALLS: &str = "open_calls";

/// Each thread's open calls, as the builder's trace feed keeps them (its
/// frames, with the flags below), and the functions met so far.
#[derive(Debug)]
pub(super) struct Rules {
    timed: bool,
    module: NameId,
    top_level: NameId,
    /// Per name: its function (trace functions have no module), so an event
    /// costs an array lookup, not a hash.
    function_of: Vec<u32>,
    unknown_ops: FxHashSet<u32>,
    /// The threads a query chose (`LoadOptions::threads`): a record of
    /// another thread is left out, as if the trace did not hold it.
    threads: Option<FxHashSet<u64>>,
}

impl Rules {
    /// Starts the trace feed: timed when the trace has a time column; of
    /// the chosen threads' records only, when `threads` chooses.
    pub(super) fn new(b: &mut ProfileBuilder, timed: bool, threads: Option<&[u64]>) -> Rules {
        b.trace_begin(if timed {
            TraceTime::Timed
        } else {
            TraceTime::Untimed
        });
        Rules {
            timed,
            module: b.intern(""),
            top_level: b.intern(TOP_LEVEL),
            function_of: Vec::new(),
            unknown_ops: FxHashSet::default(),
            threads: threads.map(|t| t.iter().copied().collect()),
        }
    }

    /// Applies one record; returns what the Trace pane shows of it: its
    /// function (none for a skipped record) and the depth it shows at. A
    /// call's entry and its return both show at the caller's depth (the
    /// stack's before an entry, after a return); the `I`/`O` marks of an
    /// unfiltered trace one deeper, inside it. `place` is made only for a
    /// warning. `None` for a record of a thread the query did not choose:
    /// no event of this trace.
    pub(super) fn event(
        &mut self,
        b: &mut ProfileBuilder,
        r: Record,
        place: &dyn Fn() -> Place,
    ) -> Option<Step> {
        if let Some(chosen) = &self.threads
            && !chosen.contains(&r.thread)
        {
            return None;
        }
        let thread = b.trace_thread(r.thread);
        let (function, depth) = self.apply(b, thread, r, place);
        Some(Step {
            function,
            depth: u32::try_from(depth).unwrap_or(u32::MAX),
        })
    }

    /// The record's effect on the thread's stack. Each branch knows the
    /// depth from the stack it already holds, so a record costs no more
    /// lookups of it.
    fn apply(
        &mut self,
        b: &mut ProfileBuilder,
        thread: ThreadIx,
        r: Record,
        place: &dyn Fn() -> Place,
    ) -> (Option<FuncId>, usize) {
        if let (true, Some(t)) = (self.timed, r.time) {
            b.trace_time(thread, t, place);
        }
        let name = r.call;
        match r.op {
            op @ (Op::Enter | Op::Entered) => {
                let f = self.function(b, name);
                let frames = b.trace_frames_mut(thread);
                let depth = frames.len();
                let top = frames.last_mut();
                let caller = top.as_ref().map(|top| top.func);
                match top {
                    // `I` for the call an `i` just opened: it is entered.
                    Some(top)
                        if op == Op::Entered
                            && top.func == f
                            && top.flags & PUSHED_BY_I != 0
                            && top.flags & ENTERED == 0 =>
                    {
                        top.flags |= ENTERED;
                    }
                    _ => {
                        let flags = if op == Op::Enter {
                            PUSHED_BY_I
                        } else {
                            ENTERED
                        };
                        self.call(b, (thread, caller), f, flags, r.line);
                    }
                }
                (Some(f), depth)
            }
            op @ (Op::Leaving | Op::Left) => self.exit(b, thread, name, place, op == Op::Leaving),
            Op::Other(op) => self.other(b, thread, op, place),
        }
    }

    /// A record of an op the spec does not know: skipped, with a warning
    /// the first time. Out of the event loop, as every rare branch here:
    /// inlined, their code made every event's larger.
    #[cold]
    #[inline(never)]
    fn other(
        &mut self,
        b: &mut ProfileBuilder,
        thread: ThreadIx,
        op: NameId,
        place: &dyn Fn() -> Place,
    ) -> (Option<FuncId>, usize) {
        if self.unknown_ops.insert(op.index() as u32) {
            let op = profx_model::text::visible(b.name(op));
            let msg = format!("unknown operation {op:?}; records with it skipped");
            b.warn(place(), WarningKind::UnknownOp, msg);
        }
        (None, b.trace_frames(thread).len())
    }

    fn function(&mut self, b: &mut ProfileBuilder, name: NameId) -> FuncId {
        match self.existing(name) {
            Some(f) => f,
            None => self.new_function(b, name),
        }
    }

    /// The function of a name called for the first time, remembered by
    /// the name's number.
    #[cold]
    #[inline(never)]
    fn new_function(&mut self, b: &mut ProfileBuilder, name: NameId) -> FuncId {
        let f = b.function(name, self.module);
        if self.function_of.len() <= name.index() {
            self.function_of.resize(name.index() + 1, NO_FUNCTION);
        }
        self.function_of[name.index()] = f.index() as u32;
        f
    }

    fn existing(&self, name: NameId) -> Option<FuncId> {
        let raw = *self.function_of.get(name.index())?;
        (raw != NO_FUNCTION).then_some(FuncId::from_index(raw as usize))
    }

    /// A call on `thread` from `caller` (its top frame's function, if
    /// any): a new frame, and its line (where the caller made it). The
    /// two ride in one argument, so that the arguments fit in registers
    /// rather than going through the stack on every call.
    fn call(
        &self,
        b: &mut ProfileBuilder,
        (thread, caller): (ThreadIx, Option<FuncId>),
        f: FuncId,
        flags: u8,
        line: Option<u32>,
    ) {
        let site = line.map(|line| b.trace_site(caller, line, self.top_level));
        b.trace_enter(thread, f, flags, site);
    }

    /// `O` (about to return) or `o` (returned) for the function `name`;
    /// the function and the depth that stays.
    fn exit(
        &self,
        b: &mut ProfileBuilder,
        thread: ThreadIx,
        name: NameId,
        place: &dyn Fn() -> Place,
        about: bool,
    ) -> (Option<FuncId>, usize) {
        let f = self.existing(name);
        let frames = b.trace_frames(thread);
        let len = frames.len();
        let pos = f.and_then(|f| frames.iter().rposition(|fr| fr.func == f));
        let (Some(f), Some(pos)) = (f, pos) else {
            not_on_stack(b, thread, name, place);
            return (f, len);
        };
        let above = len - 1 - pos;
        if above > 0 {
            unwind(b, thread, name, place, above);
        }
        // The frame at `pos` is the top now; the depth is what stays.
        let depth = match b.trace_frames(thread).last() {
            Some(top) if about && top.flags & PUSHED_BY_I != 0 => pos + 1,
            _ => {
                b.trace_exit(thread);
                pos
            }
        };
        (Some(f), depth)
    }

    /// Closes calls still open at each thread's last event (one warning for
    /// the file) and records the thread count. A trace still being written
    /// (`live`, `follow.rs`) has calls open that are not yet returned, not
    /// calls that never will: they are closed at their thread's last event
    /// all the same (their time so far) but counted under the profile's
    /// `open_calls`, never warned about.
    pub(super) fn finish(&self, b: &mut ProfileBuilder, source: &str, live: bool) {
        let open = b.trace_close_open();
        if live {
            let n = i64::try_from(open).unwrap_or(i64::MAX);
            b.set_meta(OPEN_CALLS, profx_model::MetaValue::Int(n));
        } else if open > 0 {
            let msg = format!(
                "{open} call(s) still open at the end of the trace; closed at their thread's last event"
            );
            b.warn(Place::File(source.to_string()), WarningKind::Unclosed, msg);
        }
        let threads = b.trace_thread_count();
        b.set_meta(
            "threads",
            profx_model::MetaValue::Int(i64::try_from(threads).unwrap_or(i64::MAX)),
        );
    }
}

/// A return from a function not on the thread's stack: skipped, with a
/// warning.
#[cold]
#[inline(never)]
fn not_on_stack(b: &mut ProfileBuilder, thread: ThreadIx, name: NameId, place: &dyn Fn() -> Place) {
    let call = profx_model::text::visible(b.name(name));
    let id = b.trace_thread_id(thread);
    let msg = format!("return from {call:?}, which is not on thread {id}'s stack; skipped");
    b.warn(place(), WarningKind::ReturnWithoutCall, msg);
}

/// A return from a function `above` calls down the stack (BEGIN
/// SEQUENCE/BREAK): the calls above it close here, with a warning.
#[cold]
#[inline(never)]
fn unwind(
    b: &mut ProfileBuilder,
    thread: ThreadIx,
    name: NameId,
    place: &dyn Fn() -> Place,
    above: usize,
) {
    let call = profx_model::text::visible(b.name(name));
    let msg =
        format!("return from {call:?} unwinds {above} call(s) above it (BEGIN SEQUENCE/BREAK)");
    b.warn(place(), WarningKind::Unwind, msg);
    for _ in 0..above {
        b.trace_exit(thread);
    }
}
