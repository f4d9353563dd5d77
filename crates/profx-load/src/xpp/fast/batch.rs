//! What a parsing worker hands the replay: trace events in a compact form,
//! their names numbered by the worker's own table (`load::names`: the
//! numbers are kept for the whole load, so each batch carries only the
//! names its worker saw first in it).

use super::record::Record;
use crate::names::{NewNames, WorkerNames};
use crate::xpp::MAX_PIECE;
use crate::xpp::row::Row;
use profx_model::budget::Skips;
use profx_model::{Place, ProfileBuilder};

/// A trace operation as a worker reads it: the rules' `Op`, an unknown
/// op's name numbered by the worker.
pub(super) type Op = crate::xpp::rules::Op<u32>;

/// One trace record, parsed, in 32 bytes: a batch of them is written on a
/// worker's core and read on the replay's, so every byte of it crosses
/// between caches once an event, and a smaller event is less to move
/// when there are more threads than cores. The op and
/// which options are present ride in the offset's top byte, which no
/// offset reaches (`MAX_PIECE`); read them through [`Ev::offset`],
/// [`Ev::time`], [`Ev::line`] and [`Ev::op`]. Names are worker numbers in
/// a batch and `NameId` indexes once [`global_name`] has mapped them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Ev {
    /// Where the record starts in its piece (the events pane reads it
    /// again from there, and warnings name it or its line), below the op
    /// and flags.
    offset_op: u64,
    /// Meaningful with `TIMED` only.
    time: f64,
    pub thread: u64,
    /// The call's name; an unknown op's own name (`OTHER`), the call being
    /// of no use to a record that is skipped.
    name: u32,
    /// Meaningful with `LINED` only.
    line: u32,
}

/// Where the op's bits begin: every offset of a piece the loader reads
/// lies below them.
const OP_SHIFT: u32 = 56;
const _: () = assert!(MAX_PIECE == 1 << OP_SHIFT);
const TIMED: u64 = 1 << 62;
const LINED: u64 = 1 << 61;
const ENTER: u64 = 0;
const ENTERED: u64 = 1;
const LEAVING: u64 = 2;
const LEFT: u64 = 3;
const OTHER: u64 = 4;

impl Ev {
    pub(super) fn new(
        offset: u64,
        thread: u64,
        time: Option<f64>,
        line: Option<u32>,
        name: u32,
        op: Op,
    ) -> Ev {
        let (op, name) = match op {
            Op::Enter => (ENTER, name),
            Op::Entered => (ENTERED, name),
            Op::Leaving => (LEAVING, name),
            Op::Left => (LEFT, name),
            Op::Other(op) => (OTHER, op),
        };
        let timed = if time.is_some() { TIMED } else { 0 };
        let lined = if line.is_some() { LINED } else { 0 };
        Ev {
            offset_op: (offset % MAX_PIECE) | (op << OP_SHIFT) | timed | lined,
            time: time.unwrap_or(0.0),
            thread,
            name,
            line: line.unwrap_or(0),
        }
    }

    #[inline]
    pub(super) fn offset(&self) -> u64 {
        self.offset_op % MAX_PIECE
    }

    #[inline]
    pub(super) fn time(&self) -> Option<f64> {
        (self.offset_op & TIMED != 0).then_some(self.time)
    }

    #[inline]
    pub(super) fn line(&self) -> Option<u32> {
        (self.offset_op & LINED != 0).then_some(self.line)
    }

    /// The called function's name (a worker number); meaningless for
    /// `Op::Other`, which holds its own.
    #[inline]
    pub(super) fn name(&self) -> u32 {
        self.name
    }

    #[inline]
    pub(super) fn op(&self) -> Op {
        match (self.offset_op >> OP_SHIFT) & 7 {
            ENTER => Op::Enter,
            ENTERED => Op::Entered,
            LEAVING => Op::Leaving,
            LEFT => Op::Left,
            _ => Op::Other(self.name),
        }
    }
}

/// One chunk's parse.
#[derive(Debug, Default)]
pub(super) struct Batch<X> {
    pub events: Vec<Ev>,
    /// Names this worker saw first in this chunk, in number order (set
    /// by `finish`).
    pub new_names: NewNames,
    /// Records that are no trace record: (place, why), the place the
    /// line's index in the chunk for text and the offset for records; the
    /// first thousand whole and the rest counted by kind.
    pub skipped: Skips,
    /// Whether the chunk's first record has a time column (the trace is
    /// timed or not by its first record).
    pub first_timed: Option<bool>,
    /// Format-specific findings (line count, end mark, …).
    pub extra: X,
}

impl<X: Default> Batch<X> {
    /// An empty batch whose events go in `spare`'s room (a batch the
    /// consumer is done with, `parallel::ordered_reusing`).
    pub(super) fn reusing(mut spare: Vec<Ev>) -> Self {
        spare.clear();
        Batch {
            events: spare,
            ..Batch::default()
        }
    }
}

impl<X> Batch<X> {
    /// Adds a parsed row, numbering its names in `names`.
    pub(super) fn push(&mut self, names: &mut WorkerNames, row: &Row<'_>, offset: u64) {
        let name = names.id(&row.call);
        let op = self.op(names, &row.op);
        let thread = row.thread.unwrap_or(0);
        let ev = Ev::new(offset, thread, row.time, row.line, name, op);
        self.events.push(ev);
    }

    /// The op named `text`; an unknown one keeps its name.
    fn op(&mut self, names: &mut WorkerNames, text: &str) -> Op {
        match text {
            "i" => Op::Enter,
            "I" => Op::Entered,
            "O" => Op::Leaving,
            "o" => Op::Left,
            other => Op::Other(names.id(other)),
        }
    }

    /// Adds a record of the common DELDBE shape.
    pub(super) fn push_fast(&mut self, names: &mut WorkerNames, r: &Record<'_>, offset: u64) {
        let op = match r.op {
            b'i' => Op::Enter,
            b'I' => Op::Entered,
            b'O' => Op::Leaving,
            b'o' => Op::Left,
            other => Op::Other(names.id(char::from(other).encode_utf8(&mut [0; 4]))),
        };
        let name = names.id_ascii(r.call);
        let ev = Ev::new(offset, r.thread, Some(r.time), r.line, name, op);
        self.events.push(ev);
    }
}

/// Hands a batch's skipped records to the builder as warnings, `what`
/// ending each message ("line skipped", "skipped").
pub(super) fn warn_skipped(
    b: &mut ProfileBuilder,
    skipped: Skips,
    place: impl Fn(u64) -> Place,
    what: &str,
) {
    let message = |why: &str| format!("not a trace record: {why}; {what}");
    for s in skipped.whole {
        b.warn(place(s.at), s.kind, message(&s.why));
    }
    for c in skipped.counted {
        let first = &c.first;
        let (at, message) = (place(first.at), message(&first.why));
        b.warn_counted(at, first.kind, message, c.count, place(c.last));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An event keeps what it was given, in 32 bytes.
    #[test]
    fn events_are_packed_without_losing_a_field() {
        assert_eq!(std::mem::size_of::<Ev>(), 32);
        let ops = [Op::Enter, Op::Entered, Op::Leaving, Op::Left, Op::Other(7)];
        for (i, op) in ops.into_iter().enumerate() {
            for (time, line) in [
                (None, None),
                (Some(-0.5), Some(u32::MAX)),
                (Some(0.0), Some(0)),
            ] {
                for offset in [0, 1 << 40, MAX_PIECE - 1] {
                    let ev = Ev::new(offset, u64::MAX - 1, time, line, 9, op);
                    let got = (ev.offset(), ev.thread, ev.time(), ev.line(), ev.op());
                    assert_eq!(got, (offset, u64::MAX - 1, time, line, op), "{i}");
                    if op != Op::Other(7) {
                        assert_eq!(ev.name(), 9);
                    }
                }
            }
        }
    }
}
