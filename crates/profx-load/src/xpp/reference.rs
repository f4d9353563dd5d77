//! The Xbase++ trace reference loader: the format's rules, a record at a
//! time, on one thread. Read this to learn the format; `Xpp::load` (the
//! engine in `fast/`) gives the same profile faster, and a property test
//! (`tests/properties.rs`) holds the two to the same `--json` on generated,
//! cut and flipped traces.
//!
//! A trace is one record per event: thread, time (ms since the program
//! started), op, call, line, parameters (`row.rs`). It is a FoxPro DBF
//! table (FOXDBE: `dbf.rs` reads the header and the records) or
//! comma-delimited text (DELDBE: `deldbe.rs` splits a line and finds its
//! fields), and it may be written in packets, `NAME.PRF` then
//! `NAME.PRF.000001…` (`packets.rs`), read as one trace with a packet each.
//!
//! The ops, per thread, on a stack of open calls (formats.md § xpp):
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
//! The time between a thread's consecutive events belongs to the call on
//! top of its stack (the builder's trace feed: `trace_time`, `trace_enter`,
//! `trace_exit`), which makes each function's inclusive and exclusive
//! times, each call path's stack and each call site's line.

use super::dbf::{self, Header};
use super::deldbe::{self, Layout, body_start, split};
use super::events::{Decoder, Step, TraceEvents};
use super::foxdbe::{column_map, each_piece, warn_about};
use super::row::{Col, Row};
use super::{
    Detection, bad_columns, detect_deldbe, invalid, looks_like_dbf, packet_header, packets,
    with_siblings,
};
use crate::problem::Problem;
use crate::split::{MAX_LINE, numbered_lines};
use crate::{Input, InvalidKind, LoadError, LoadOptions};
use profx_model::metrics::TraceTime;
use profx_model::text::{decode, visible};
use profx_model::{FuncId, NameId, Packet, Place, ProfileBuilder, TOP_LEVEL, WarningKind};
use std::collections::{HashMap, HashSet};

/// Loads `input` (and its packets) into `b`.
pub(super) fn load(
    input: &Input,
    opts: &LoadOptions,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    let bytes = input.bytes();
    match dbf::header(bytes, Some(bytes.len())) {
        Ok(header) => {
            let pieces = with_siblings(input, b);
            return load_dbf(&pieces, &header, true, opts, b);
        }
        Err(why) if packets::split_numbered(input.name()).is_none() && looks_like_dbf(bytes) => {
            return Err(invalid(
                input,
                (Place::Offset(0), InvalidKind::BadHeader),
                format!("not a DBF trace: {why}"),
            ));
        }
        Err(_) => {}
    }
    if let Some((base, _)) = packets::split_numbered(input.name())
        && detect_deldbe(bytes, true) != Detection::Yes
    {
        // A numbered packet of DBF records only: the header is its NAME.PRF's.
        let header = packet_header(input, base)?;
        return load_dbf(std::slice::from_ref(input), &header, false, opts, b);
    }
    load_deldbe(&with_siblings(input, b), opts, b)
}

/// DELDBE pieces: each line a record; a first line of field names sets the
/// layout, else the op (`i I O o`) anchors the fields around it.
fn load_deldbe(
    pieces: &[Input],
    opts: &LoadOptions,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    super::within_reach(pieces)?;
    let mut layout = match &opts.columns {
        Some(list) => Layout::Fixed(Col::parse_list(list).map_err(|e| bad_columns(&pieces[0], e))?),
        None => Layout::Anchored,
    };
    let mut calls: Option<Calls> = None;
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 {
            b.begin_source(piece.name());
        }
        let bytes = piece.bytes();
        let (start, lines_before) = body_start(bytes, opts, &mut layout);
        let decoder = Decoder::Deldbe(layout.clone());
        let mut packet = PacketOf::new(piece, decoder, opts);
        for (k, line) in numbered_lines(&bytes[start..]) {
            let n = lines_before + k;
            let offset = (line.as_ptr() as usize - bytes.as_ptr() as usize) as u64;
            if line.len() > MAX_LINE {
                let why = super::line_too_long(line.len());
                skipped(b, Place::Line(n), &why, "line skipped");
                continue;
            }
            let text = decode(line);
            if text.trim().is_empty() {
                continue;
            }
            let mut fields = Vec::new();
            split(&text, &mut fields);
            match deldbe::row(&text, &fields, &layout) {
                Ok(row) => {
                    // Whether the trace is timed is the first record's say.
                    let timed = layout.has_time(&fields);
                    let c = calls.get_or_insert_with(|| Calls::new(b, timed));
                    let step = c.event(b, &row, Place::Line(n));
                    packet.event(offset, step, row.time);
                }
                Err(why) => skipped(b, Place::Line(n), &why, "line skipped"),
            }
        }
        b.add_packet(packet.done());
    }
    let Some(calls) = calls else {
        return Err(invalid(
            &pieces[0],
            (Place::Line(1), InvalidKind::NoRecords),
            "no trace record in the file".into(),
        ));
    };
    calls.finish(b, pieces[0].name());
    Ok(())
}

/// FOXDBE pieces, read with `header`'s fields (`first_has_header`: the first
/// piece is the header packet itself).
fn load_dbf(
    pieces: &[Input],
    header: &Header,
    first_has_header: bool,
    opts: &LoadOptions,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    super::within_reach(pieces)?;
    let first = &pieces[0];
    let map = column_map(first, header, opts)?;
    let mut calls = Calls::new(b, map.has(Col::Time));
    each_piece(b, pieces, header, first_has_header, |b, piece, start| {
        let decoder = Decoder::Dbf(map.clone(), header.record_len);
        let mut packet = PacketOf::new(piece, decoder, opts);
        let walk = dbf::walk(piece.bytes(), start, header.record_len, |at, record| {
            let place = Place::Offset(at as u64);
            match map.row(record) {
                Ok(row) => {
                    let step = calls.event(b, &row, place);
                    packet.event(at as u64, step, row.time);
                }
                Err(why) => skipped(b, place, &why, "skipped"),
            }
        });
        warn_about(b, &walk, header.record_len);
        b.add_packet(packet.done());
        walk
    })?;
    calls.finish(b, first.name());
    Ok(())
}

fn skipped(b: &mut ProfileBuilder, place: Place, why: &Problem, what: &str) {
    b.warn(
        place,
        why.kind,
        format!("not a trace record: {why}; {what}"),
    );
}

/// A piece's packet: its events as the Trace pane shows them, and the
/// times of its first and last timed events.
struct PacketOf {
    source: String,
    events: TraceEvents,
    first_ms: Option<f64>,
    last_ms: Option<f64>,
}

impl PacketOf {
    fn new(piece: &Input, decoder: Decoder, opts: &LoadOptions) -> Self {
        PacketOf {
            source: piece.name().to_string(),
            events: TraceEvents::new(piece.clone(), decoder, opts.events),
            first_ms: None,
            last_ms: None,
        }
    }

    fn event(&mut self, offset: u64, step: Step, time: Option<f64>) {
        self.events.push(offset, step);
        self.first_ms = self.first_ms.or(time);
        self.last_ms = time.or(self.last_ms);
    }

    fn done(self) -> Packet {
        Packet {
            source: self.source,
            first_ms: self.first_ms,
            last_ms: self.last_ms,
            events: Box::new(self.events),
        }
    }
}

/// A call open on a thread: its function, whether an `i` opened it, and
/// whether it was entered (`I`) or is returning (`O`) since.
#[derive(Clone, Copy)]
struct Open {
    func: FuncId,
    by_i: bool,
    entered: bool,
}

/// The ops' rules: each thread's open calls, fed to the builder's trace.
struct Calls {
    timed: bool,
    module: NameId,
    top_level: NameId,
    /// Functions by name, made by the first call of each.
    functions: HashMap<NameId, FuncId>,
    stacks: HashMap<u64, Vec<Open>>,
    unknown_ops: HashSet<NameId>,
}

impl Calls {
    fn new(b: &mut ProfileBuilder, timed: bool) -> Calls {
        b.trace_begin(if timed {
            TraceTime::Timed
        } else {
            TraceTime::Untimed
        });
        Calls {
            timed,
            module: b.intern(""),
            top_level: b.intern(TOP_LEVEL),
            functions: HashMap::new(),
            stacks: HashMap::new(),
            unknown_ops: HashSet::new(),
        }
    }

    /// One event; what the Trace pane shows of it: its function and the
    /// depth it shows at (a call and its return at the caller's depth, the
    /// `I`/`O` marks inside the call).
    fn event(&mut self, b: &mut ProfileBuilder, row: &Row<'_>, place: Place) -> Step {
        let id = row.thread.unwrap_or(0);
        let thread = b.trace_thread(id);
        if let (true, Some(t)) = (self.timed, row.time) {
            b.trace_time(thread, t, || place.clone());
        }
        let name = b.intern(&row.call);
        let stack = self.stacks.entry(id).or_default();
        let (function, depth) = match row.op.as_ref() {
            op @ ("i" | "I") => {
                let f = *self
                    .functions
                    .entry(name)
                    .or_insert_with(|| b.function(name, self.module));
                let depth = stack.len();
                match stack.last_mut() {
                    Some(top) if op == "I" && top.func == f && top.by_i && !top.entered => {
                        top.entered = true;
                    }
                    top => {
                        let caller = top.map(|t| t.func);
                        let site = row
                            .line
                            .map(|line| b.trace_site(caller, line, self.top_level));
                        let by_i = op == "i";
                        b.trace_enter(thread, f, if by_i { 1 } else { 2 }, site);
                        stack.push(Open {
                            func: f,
                            by_i,
                            entered: !by_i,
                        });
                    }
                }
                (Some(f), depth)
            }
            op @ ("O" | "o") => {
                let f = self.functions.get(&name).copied();
                let len = stack.len();
                let at = f.and_then(|f| stack.iter().rposition(|o| o.func == f));
                let (Some(f), Some(at)) = (f, at) else {
                    let call = visible(&row.call);
                    let msg = format!(
                        "return from {call:?}, which is not on thread {id}'s stack; skipped"
                    );
                    b.warn(place, WarningKind::ReturnWithoutCall, msg);
                    return Step {
                        function: f,
                        depth: shown(len),
                    };
                };
                let above = len - 1 - at;
                if above > 0 {
                    let call = visible(&row.call);
                    let msg = format!(
                        "return from {call:?} unwinds {above} call(s) above it (BEGIN SEQUENCE/BREAK)"
                    );
                    b.warn(place, WarningKind::Unwind, msg);
                    for _ in 0..above {
                        b.trace_exit(thread);
                        stack.pop();
                    }
                }
                match stack.last() {
                    // About to return from a call an `i` opened: it stays
                    // open until its `o`.
                    Some(top) if op == "O" && top.by_i => (Some(f), at + 1),
                    _ => {
                        b.trace_exit(thread);
                        stack.pop();
                        (Some(f), at)
                    }
                }
            }
            other => {
                let op = b.intern(other);
                if self.unknown_ops.insert(op) {
                    let msg = format!(
                        "unknown operation {:?}; records with it skipped",
                        visible(other)
                    );
                    b.warn(place, WarningKind::UnknownOp, msg);
                }
                (None, stack.len())
            }
        };
        Step {
            function,
            depth: shown(depth),
        }
    }

    /// Closes the calls still open at each thread's last event (one
    /// warning for the file) and records the thread count.
    fn finish(self, b: &mut ProfileBuilder, source: &str) {
        let open = b.trace_close_open();
        if open > 0 {
            let msg = format!(
                "{open} call(s) still open at the end of the trace; closed at their thread's last event"
            );
            b.warn(Place::File(source.to_string()), WarningKind::Unclosed, msg);
        }
        let threads = i64::try_from(b.trace_thread_count()).unwrap_or(i64::MAX);
        b.set_meta("threads", profx_model::MetaValue::Int(threads));
    }
}

fn shown(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
