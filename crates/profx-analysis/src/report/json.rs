//! `profx report --json` (report-json.md, schema 1): the whole model,
//! every key always present, absent values `null`, rows in canonical order.
//!
//! The document is written as it is made: rows are serialized one at a
//! time from the model (`Rows`), and the text goes through [`SafeWriter`]
//! on its way out, so ten million functions or a stack of depth 100,000
//! cost the memory of one row, not of the whole text.

use crate::sort::{canonical_functions, canonical_lines, canonical_stacks};
use profx_model::{FuncId, MetaValue, Profile};
use serde::{Serialize, Serializer};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// The version of this document; raised whenever its shape changes.
pub const SCHEMA: u32 = 1;

#[derive(Serialize)]
#[serde(bound = "")]
struct Report<'p, F, L, S, E, K, W>
where
    F: Iterator<Item: Serialize>,
    L: Iterator<Item: Serialize>,
    S: Iterator<Item: Serialize>,
    E: Iterator<Item: Serialize>,
    K: Iterator<Item: Serialize>,
    W: Iterator<Item: Serialize>,
{
    schema: u32,
    format: &'p str,
    sources: &'p [String],
    meta: BTreeMap<&'p str, Meta<'p>>,
    query: QueryJson,
    threads: Vec<ThreadJson>,
    totals: Totals,
    functions: Rows<F>,
    lines: Rows<L>,
    stacks: Rows<S>,
    edges: Rows<E>,
    packets: Rows<K>,
    warnings: Rows<W>,
}

/// A JSON array made from an iterator while it is written: no row list is
/// ever held whole. Serialized once (the cell gives the iterator up).
struct Rows<I>(RefCell<Option<I>>);

impl<I> Rows<I> {
    fn new(rows: I) -> Rows<I> {
        Rows(RefCell::new(Some(rows)))
    }
}

impl<I: Iterator<Item = T>, T: Serialize> Serialize for Rows<I> {
    fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        let rows = self.0.borrow_mut().take();
        s.collect_seq(rows.into_iter().flatten())
    }
}

#[derive(Serialize)]
#[serde(untagged)]
enum Meta<'p> {
    Text(&'p str),
    Int(i64),
    Float(f64),
    /// A fact the profile does not have (`time_unit` without times).
    Null,
}

#[derive(Serialize)]
pub(crate) struct Totals {
    elapsed_inclusive_ms: Option<f64>,
    application_inclusive_ms: Option<f64>,
    outside_ms: Option<f64>,
    samples: Option<u64>,
    functions: usize,
    lines: usize,
    stacks: usize,
    packets: usize,
    events: usize,
}

#[derive(Serialize)]
pub(crate) struct Function<'p> {
    pub(crate) name: &'p str,
    pub(crate) module: &'p str,
    pub(crate) calls: Option<u64>,
    pub(crate) hits_self: Option<u64>,
    pub(crate) hits_total: Option<u64>,
    pub(crate) elapsed_inclusive_ms: Option<f64>,
    pub(crate) elapsed_exclusive_ms: Option<f64>,
    pub(crate) application_inclusive_ms: Option<f64>,
    pub(crate) application_exclusive_ms: Option<f64>,
    pub(crate) elapsed_inclusive_pct: Option<f64>,
    pub(crate) elapsed_exclusive_pct: Option<f64>,
    pub(crate) application_inclusive_pct: Option<f64>,
    pub(crate) application_exclusive_pct: Option<f64>,
    pub(crate) hits_self_pct: Option<f64>,
    pub(crate) hits_total_pct: Option<f64>,
    pub(crate) min_elapsed_inclusive_ms: Option<f64>,
    pub(crate) max_elapsed_inclusive_ms: Option<f64>,
    pub(crate) min_elapsed_exclusive_ms: Option<f64>,
    pub(crate) max_elapsed_exclusive_ms: Option<f64>,
    pub(crate) p50_elapsed_inclusive_ms: Option<f64>,
    pub(crate) p90_elapsed_inclusive_ms: Option<f64>,
    pub(crate) p99_elapsed_inclusive_ms: Option<f64>,
    pub(crate) p50_elapsed_exclusive_ms: Option<f64>,
    pub(crate) p90_elapsed_exclusive_ms: Option<f64>,
    pub(crate) p99_elapsed_exclusive_ms: Option<f64>,
    /// Where the function begins, where the file says (a VS report's
    /// `Source File` and `Function Line Number`); absent elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) source_file: Option<&'p str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) source_line: Option<u32>,
}

#[derive(Serialize)]
pub(crate) struct Line<'p> {
    pub(crate) file: &'p str,
    pub(crate) line: u32,
    pub(crate) function: Option<&'p str>,
    /// A trace's line: what was called there (report-json.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    called: Option<&'p str>,
    pub(crate) hits: Option<u64>,
    pub(crate) time_ms: Option<f64>,
}

#[derive(Serialize)]
pub(crate) struct Frame<'p> {
    pub(crate) name: &'p str,
    pub(crate) module: &'p str,
}

#[derive(Serialize)]
pub(crate) struct Stack<'p> {
    pub(crate) frames: Vec<Frame<'p>>,
    pub(crate) hits: Option<u64>,
    pub(crate) self_ms: Option<f64>,
    pub(crate) child_ms: Option<f64>,
}

#[derive(Serialize)]
pub(crate) struct Edge<'p> {
    pub(crate) caller: Frame<'p>,
    pub(crate) callee: Frame<'p>,
    pub(crate) calls: Option<u64>,
    pub(crate) hits: Option<u64>,
    pub(crate) elapsed_inclusive_ms: Option<f64>,
}

#[derive(Serialize)]
struct Packet<'p> {
    index: usize,
    source: &'p str,
    events: usize,
    first_ms: Option<f64>,
    last_ms: Option<f64>,
}

#[derive(Serialize)]
struct Warning<'p> {
    #[serde(rename = "where")]
    place: String,
    /// Added within schema 1: a reader tells warnings apart by it, the
    /// message being free to read better.
    kind: &'static str,
    message: &'p str,
}

/// The report as pretty-printed JSON, ending with a newline.
pub fn render(p: &Profile) -> String {
    let mut out = Vec::new();
    // Writing to memory fails only on a serializer error, which plain
    // strings and numbers never give.
    let _ = write(p, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The query a report answers (`"query"`), with what its steps dropped.
#[derive(Serialize)]
pub(crate) struct QueryJson {
    threads: Option<Vec<u64>>,
    /// The innermost range, cut to the run; `null` for the whole run.
    range: Option<RangeJson>,
    steps: Vec<serde_json::Value>,
    dropped: DroppedJson,
    notes: Vec<String>,
}

#[derive(Serialize)]
struct RangeJson {
    from_ms: f64,
    to_ms: f64,
}

#[derive(Serialize)]
struct DroppedJson {
    paths: usize,
    ms: Option<f64>,
    hits: Option<u64>,
}

/// A trace's thread (`"threads"`).
#[derive(Serialize)]
pub(crate) struct ThreadJson {
    id: u64,
    first_ms: Option<f64>,
    last_ms: Option<f64>,
    busy_ms: Option<f64>,
    events: u64,
    calls: u64,
}

pub(crate) fn query_json(q: &crate::query::Asked, p: &Profile) -> QueryJson {
    let steps = q
        .query
        .steps
        .iter()
        .map(|s| {
            let (key, operand) = s.operand();
            serde_json::json!({ "op": s.op(), key: operand })
        })
        .collect();
    QueryJson {
        threads: q.query.threads.clone(),
        range: q.query.range.map(|r| RangeJson {
            from_ms: r.from_ms,
            to_ms: r.until_ms,
        }),
        steps,
        dropped: DroppedJson {
            paths: q.dropped.paths,
            ms: p.at_resolution(q.dropped.ms),
            hits: q.dropped.hits,
        },
        notes: q.dropped.notes.clone(),
    }
}

/// Writes the report to `out` as it is made, pretty-printed, ending with a
/// newline, every unsafe character escaped (`SafeWriter`).
pub fn write(p: &Profile, out: &mut dyn Write) -> io::Result<()> {
    write_parts(p, p, &crate::query::Asked::default(), out)
}

/// `write`, for a query's answer: `"query"` states the query; the threads,
/// packets and events are the events' profile's (the thread choice's: a
/// transform changes no event), every other number the paths'.
pub fn write_answer(a: &crate::query::Answer, out: &mut dyn Write) -> io::Result<()> {
    use crate::query::Reads;
    let (paths, events) = (a.profile(Reads::Paths), a.profile(Reads::Events));
    write_parts(paths, events, &a.asked(), out)
}

fn write_parts(
    p: &Profile,
    events: &Profile,
    asked: &crate::query::Asked,
    out: &mut dyn Write,
) -> io::Result<()> {
    let edges = crate::callgraph::edges(p);
    let report = Report {
        schema: SCHEMA,
        format: &p.format,
        sources: &p.sources,
        meta: meta_of(p),
        query: query_json(asked, p),
        threads: crate::query::threads_by_id(events)
            .iter()
            .map(thread)
            .collect(),
        totals: answer_totals(p, events),
        functions: Rows::new(canonical_functions(p).into_iter().map(|f| function(p, f))),
        lines: Rows::new(canonical_lines(p).into_iter().map(|l| line(p, l))),
        stacks: Rows::new(canonical_stacks(p).into_iter().map(|s| stack(p, s))),
        edges: Rows::new(edges.iter().map(|e| edge(p, e))),
        packets: Rows::new(
            events
                .packets()
                .iter()
                .enumerate()
                .map(|(i, k)| packet(events, i, k)),
        ),
        warnings: Rows::new(p.warnings().iter().map(|w| Warning {
            place: p.warning_place(w),
            kind: w.kind.name(),
            message: &w.message,
        })),
    };
    let mut safe = SafeWriter::new(io::BufWriter::with_capacity(1 << 16, out));
    report
        .serialize(&mut serde_json::Serializer::pretty(&mut safe))
        .map_err(io::Error::other)?;
    safe.write_all(b"\n")?;
    safe.finish()
}

/// Passes JSON text on with every unsafe character (`text::is_unsafe`)
/// that serde leaves raw (DEL, C1 controls, bidi and invisible marks)
/// written as a `\uXXXX` escape, as `text::json_safe` does for a whole
/// string. Such characters stand only inside strings, where the escape
/// means the same character. A character split between two writes waits
/// for its last bytes.
pub struct SafeWriter<W: Write> {
    out: W,
    pending: Vec<u8>,
}

impl<W: Write> SafeWriter<W> {
    /// Passes JSON on to `out`, unsafe characters escaped.
    pub fn new(out: W) -> SafeWriter<W> {
        SafeWriter {
            out,
            pending: Vec::new(),
        }
    }

    /// Flushes what is left; bytes of an unfinished character (never
    /// written by serde) go out as they are.
    pub fn finish(mut self) -> io::Result<()> {
        let rest = std::mem::take(&mut self.pending);
        self.out.write_all(&rest)?;
        self.out.flush()
    }

    fn pass(&mut self, bytes: &[u8]) -> io::Result<()> {
        let mut start = 0;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b < 0x80 && b != 0x7f && (b >= 0x20 || b == b'\n') {
                i += 1;
                continue;
            }
            let len = utf8_len(b);
            if i + len > bytes.len() {
                break;
            }
            let c = std::str::from_utf8(&bytes[i..i + len])
                .ok()
                .and_then(|s| s.chars().next());
            match c {
                Some(c) if profx_model::text::is_unsafe(c) => {
                    self.out.write_all(&bytes[start..i])?;
                    let mut units = [0u16; 2];
                    for u in c.encode_utf16(&mut units) {
                        write!(self.out, "\\u{u:04x}")?;
                    }
                    start = i + len;
                }
                _ => {}
            }
            i += len;
        }
        self.out.write_all(&bytes[start..i])?;
        self.pending.extend_from_slice(&bytes[i..]);
        Ok(())
    }
}

/// Bytes of the UTF-8 character that `first` starts (1 for a stray byte).
fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xF7 => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

impl<W: Write> Write for SafeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            self.pass(buf)?;
        } else {
            let mut joined = std::mem::take(&mut self.pending);
            joined.extend_from_slice(buf);
            self.pass(&joined)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// What the file says about the run, and the unit of the profile's times
/// (`time_unit`: `"ms"`, `"ticks"`, `null` without times), which every
/// time key (`…_ms`) of the document is in.
fn meta_of(p: &Profile) -> BTreeMap<&str, Meta<'_>> {
    let mut out: BTreeMap<&str, Meta<'_>> =
        p.meta.iter().map(|(k, v)| (k.as_str(), meta(v))).collect();
    let unit = p.time_unit().map_or(Meta::Null, |u| Meta::Text(u.name()));
    out.insert("time_unit", unit);
    out
}

fn meta(v: &MetaValue) -> Meta<'_> {
    match v {
        MetaValue::Text(s) => Meta::Text(s),
        MetaValue::Int(n) => Meta::Int(*n),
        MetaValue::Float(x) => Meta::Float(*x),
    }
}

/// The totals of an answer's paths' profile `p`, its packets and events
/// the events' profile's (a transform changes no event).
pub(crate) fn answer_totals(p: &Profile, events: &Profile) -> Totals {
    Totals {
        packets: events.packets().len(),
        events: events.event_count(),
        ..totals(p)
    }
}

fn totals(p: &Profile) -> Totals {
    let t = &p.totals;
    Totals {
        elapsed_inclusive_ms: p.at_resolution(t.elapsed_inclusive_ms),
        application_inclusive_ms: p.at_resolution(t.application_inclusive_ms),
        outside_ms: p.at_resolution(t.outside_ms),
        samples: t.samples,
        functions: p.functions().len(),
        lines: p.lines().len(),
        stacks: p.stacks().len(),
        packets: p.packets().len(),
        events: p.event_count(),
    }
}

pub(crate) fn function(p: &Profile, id: FuncId) -> Function<'_> {
    let f = p.function(id);
    let pct = p.percents(id);
    let per_call = p.per_call(id);
    let durations = p.call_durations(id);
    let ms = |v: f64| p.at_resolution(Some(v));
    let incl = durations.map(|d| d.inclusive.all().map(ms));
    let excl = durations.map(|d| d.exclusive.all().map(ms));
    let [p50_incl, p90_incl, p99_incl] = incl.unwrap_or_default();
    let [p50_excl, p90_excl, p99_excl] = excl.unwrap_or_default();
    Function {
        name: p.function_name(id),
        module: p.function_module(id),
        calls: f.calls,
        hits_self: f.hits_self,
        hits_total: f.hits_total,
        elapsed_inclusive_ms: p.at_resolution(f.time.elapsed_inclusive),
        elapsed_exclusive_ms: p.at_resolution(f.time.elapsed_exclusive),
        application_inclusive_ms: p.at_resolution(f.time.application_inclusive),
        application_exclusive_ms: p.at_resolution(f.time.application_exclusive),
        elapsed_inclusive_pct: pct.elapsed_inclusive,
        elapsed_exclusive_pct: pct.elapsed_exclusive,
        application_inclusive_pct: pct.application_inclusive,
        application_exclusive_pct: pct.application_exclusive,
        hits_self_pct: pct.hits_self,
        hits_total_pct: pct.hits_total,
        min_elapsed_inclusive_ms: p.at_resolution(per_call.min_inclusive),
        max_elapsed_inclusive_ms: p.at_resolution(per_call.max_inclusive),
        min_elapsed_exclusive_ms: p.at_resolution(per_call.min_exclusive),
        max_elapsed_exclusive_ms: p.at_resolution(per_call.max_exclusive),
        p50_elapsed_inclusive_ms: p50_incl,
        p90_elapsed_inclusive_ms: p90_incl,
        p99_elapsed_inclusive_ms: p99_incl,
        p50_elapsed_exclusive_ms: p50_excl,
        p90_elapsed_exclusive_ms: p90_excl,
        p99_elapsed_exclusive_ms: p99_excl,
        source_file: p.function_start(id).map(|s| s.0),
        source_line: p.function_start(id).map(|s| s.1),
    }
}

/// A thread's row (`"threads"`).
pub(crate) fn thread(t: &profx_model::ThreadInfo) -> ThreadJson {
    ThreadJson {
        id: t.id,
        first_ms: t.first_ms,
        last_ms: t.last_ms,
        busy_ms: t.busy_ms,
        events: t.events,
        calls: t.calls,
    }
}

pub(crate) fn line(p: &Profile, id: profx_model::LineId) -> Line<'_> {
    let l = p.line(id);
    Line {
        file: p.name(l.file),
        line: l.line,
        function: p.line_function_name(id),
        called: l.called.map(|n| p.name(n)),
        hits: l.hits,
        time_ms: p.at_resolution(l.time_ms),
    }
}

pub(crate) fn stack(p: &Profile, id: profx_model::StackId) -> Stack<'_> {
    Stack {
        frames: p.frames(id).iter().map(|&f| frame(p, f)).collect(),
        ..stack_numbers(p, id)
    }
}

/// A stack's row without its frames: for a writer that walks them itself
/// (`export::parquet`), with the numbers `stack` writes.
pub(crate) fn stack_numbers(p: &Profile, id: profx_model::StackId) -> Stack<'_> {
    let s = p.stack(id);
    Stack {
        frames: Vec::new(),
        hits: s.hits,
        self_ms: p.at_resolution(s.self_ms),
        child_ms: p.at_resolution(s.child_ms),
    }
}

pub(crate) fn frame(p: &Profile, f: FuncId) -> Frame<'_> {
    Frame {
        name: p.function_name(f),
        module: p.function_module(f),
    }
}

pub(crate) fn edge<'p>(p: &'p Profile, e: &crate::callgraph::GraphEdge) -> Edge<'p> {
    Edge {
        caller: frame(p, e.caller),
        callee: frame(p, e.callee),
        calls: e.values.calls,
        hits: e.values.hits,
        elapsed_inclusive_ms: p.at_resolution(e.values.elapsed_inclusive_ms),
    }
}

fn packet<'p>(p: &Profile, index: usize, pk: &'p profx_model::Packet) -> Packet<'p> {
    Packet {
        index,
        source: &pk.source,
        events: pk.events.len(),
        first_ms: p.at_resolution(pk.first_ms),
        last_ms: p.at_resolution(pk.last_ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The streamed writer escapes as `text::json_safe` does, whatever
    /// the chunks: characters split between writes included.
    #[test]
    fn safe_writer_matches_json_safe_in_any_chunks() {
        let raw =
            serde_json::to_string(&"a\u{202e}b\u{9b}c\x7fd\x1bé漢\u{E0041}\u{1F600}z").unwrap();
        let whole = profx_model::text::json_safe(raw.clone());
        for size in 1..8 {
            let mut out = Vec::new();
            let mut w = SafeWriter::new(&mut out);
            for chunk in raw.as_bytes().chunks(size) {
                w.write_all(chunk).unwrap();
            }
            w.finish().unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), whole, "chunks of {size}");
        }
    }

    /// A warning is its place, its kind's stable name and its message.
    #[test]
    fn a_warning_says_where_what_kind_and_why() {
        use profx_model::{Place, ProfileBuilder, WarningKind};
        let mut b = ProfileBuilder::new("test");
        b.begin_source("t.prf");
        let why = "time goes backwards";
        b.warn(Place::Line(3), WarningKind::TimeBackwards, why);
        let doc: serde_json::Value = serde_json::from_str(&render(&b.finish())).unwrap();
        assert_eq!(
            doc["warnings"],
            serde_json::json!([
                { "where": "line 3", "kind": "time_backwards", "message": why }
            ])
        );
    }
}
