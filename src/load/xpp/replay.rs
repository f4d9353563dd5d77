//! Xbase++ trace operations → the builder's trace feed (formats.md § xpp).
//!
//! One call stack per thread lives in the builder; this module decides per
//! op whether it pushes, marks or pops a frame. Filtered traces have one
//! entry and one return record per call; unfiltered ones up to four
//! (`i` before entering, `I` entered, `O` about to return, `o` returned),
//! with `I`/`O` only for functions compiled with profiling, so a frame
//! remembers whether an `i` pushed it and what it has seen since.

use super::row::Row;
use crate::model::metrics::TraceTime;
use crate::model::{FuncId, LineId, NameId, Place, ProfileBuilder, TOP_LEVEL};
use rustc_hash::FxHashSet;

const PUSHED_BY_I: u8 = 1;
const ENTERED: u8 = 2;
const RETURNING: u8 = 4;

/// One event as the trace pane shows it.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub function: Option<FuncId>,
    /// Calls open on the thread around the event.
    pub depth: u32,
}

pub struct Replay {
    timed: bool,
    module: NameId,
    top_level: NameId,
    threads: FxHashSet<u64>,
    unknown_ops: FxHashSet<String>,
}

impl Replay {
    pub fn new(b: &mut ProfileBuilder, timed: bool) -> Replay {
        b.trace_begin(if timed {
            TraceTime::Timed
        } else {
            TraceTime::Untimed
        });
        Replay {
            timed,
            module: b.intern(""),
            top_level: b.intern(TOP_LEVEL),
            threads: FxHashSet::default(),
            unknown_ops: FxHashSet::default(),
        }
    }

    /// Applies one event; returns what the trace pane shows of it.
    pub fn event(&mut self, b: &mut ProfileBuilder, row: &Row<'_>, place: Place) -> Step {
        let thread = row.thread.unwrap_or(0);
        let before = b.trace_frames(thread).len();
        let function = self.apply(b, thread, row, place);
        // A call's entry and its return both show at the caller's depth;
        // the `I`/`O` marks of an unfiltered trace one deeper, inside it.
        let depth = before.min(b.trace_frames(thread).len());
        Step {
            function,
            depth: u32::try_from(depth).unwrap_or(u32::MAX),
        }
    }

    /// The event's effect on the thread's stack; its function (none for a
    /// skipped record).
    fn apply(
        &mut self,
        b: &mut ProfileBuilder,
        thread: u64,
        row: &Row<'_>,
        place: Place,
    ) -> Option<FuncId> {
        self.threads.insert(thread);
        if let (true, Some(t)) = (self.timed, row.time) {
            b.trace_time(thread, t, place.clone());
        }
        let name = b.intern(&row.call);
        match row.op.as_ref() {
            "i" | "I" => {
                let f = b.function(name, self.module);
                let top = b.trace_frames_mut(thread).last_mut();
                match top {
                    Some(top)
                        if row.op == "I"
                            && top.func == f
                            && top.flags & PUSHED_BY_I != 0
                            && top.flags & ENTERED == 0 =>
                    {
                        top.flags |= ENTERED;
                    }
                    _ => {
                        let flags = if row.op == "i" { PUSHED_BY_I } else { ENTERED };
                        self.call(b, thread, f, flags, row.line);
                    }
                }
                Some(f)
            }
            "O" | "o" => self.exit(b, thread, name, &row.call, place, row.op == "O"),
            other => {
                if !self.unknown_ops.contains(other) {
                    self.unknown_ops.insert(other.to_string());
                    let op = crate::text::visible(other);
                    b.warn(
                        place,
                        format!("unknown operation {op:?}; records with it skipped"),
                    );
                }
                None
            }
        }
    }

    /// A call: a new frame, and its line (where the caller made it).
    fn call(&self, b: &mut ProfileBuilder, thread: u64, f: FuncId, flags: u8, line: Option<u32>) {
        let site = line.map(|line| self.site(b, thread, line));
        b.trace_enter(thread, f, flags, site);
    }

    fn site(&self, b: &mut ProfileBuilder, thread: u64, line: u32) -> LineId {
        match b.trace_frames(thread).last().map(|top| top.func) {
            Some(caller) => {
                let file = b.function_ref(caller).name;
                b.line(file, line, Some(caller))
            }
            None => {
                let id = b.line(self.top_level, line, None);
                b.line_at_top_level(id);
                id
            }
        }
    }

    /// `O` (about to return) or `o` (returned) for the function `name`.
    fn exit(
        &self,
        b: &mut ProfileBuilder,
        thread: u64,
        name: NameId,
        call: &str,
        place: Place,
        about: bool,
    ) -> Option<FuncId> {
        let f = b.existing_function(name, self.module);
        let pos = f.and_then(|f| b.trace_frames(thread).iter().rposition(|fr| fr.func == f));
        let (Some(f), Some(pos)) = (f, pos) else {
            let call = crate::text::visible(call);
            b.warn(
                place,
                format!("return from {call:?}, which is not on thread {thread}'s stack; skipped"),
            );
            return f;
        };
        let above = b.trace_frames(thread).len() - 1 - pos;
        if above > 0 {
            let call = crate::text::visible(call);
            b.warn(
                place,
                format!(
                    "return from {call:?} unwinds {above} call(s) above it (BEGIN SEQUENCE/BREAK)"
                ),
            );
            for _ in 0..above {
                b.trace_exit(thread);
            }
        }
        match b.trace_frames_mut(thread).last_mut() {
            Some(top) if about && top.flags & PUSHED_BY_I != 0 => top.flags |= RETURNING,
            _ => {
                b.trace_exit(thread);
            }
        }
        Some(f)
    }

    /// Closes calls still open at each thread's last event (one warning for
    /// the file) and records the thread count.
    pub fn finish(self, b: &mut ProfileBuilder, source: &str) {
        let open = b.trace_close_open();
        if open > 0 {
            let msg = format!(
                "{open} call(s) still open at the end of the trace; closed at their thread's last event"
            );
            b.warn(Place::File(source.to_string()), msg);
        }
        b.set_meta(
            "threads",
            crate::model::MetaValue::Int(self.threads.len() as i64),
        );
    }
}
