//! `profx diff BASE NEW --json` (report-json.md § Comparison): both sides'
//! queries and totals, then every function, edge, stack and line of either
//! run,
//! each side's values written by `report --json`'s own rows (so byte for
//! byte what `report --json` gives for that side with the same query),
//! rows streamed as they are made.

use super::butterfly::EdgeValues;
use super::pair::{self, Paired};
use super::{Comparison, Delta, Metric, Outcome, Row, Which};
use crate::report::json::{self as report, SafeWriter};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use std::cell::RefCell;
use std::io::{self, Write};

/// Writes the comparison, with the outcome of each `--fail-if` condition
/// (`conditions`), pretty-printed, ending with a newline, every unsafe
/// character escaped.
pub fn write_json(c: &Comparison, conditions: &[Outcome], out: &mut dyn Write) -> io::Result<()> {
    let (edges, each) = pair::edges(c);
    let stacks = pair::stacks(c);
    let lines = super::rows::lines(c);
    let doc = Doc {
        schema: report::SCHEMA,
        base: side(c, Which::Base),
        new: side(c, Which::New),
        measure: c.measure().map(|m| m.incl().key()),
        notes: c.notes(),
        conditions,
        functions: Seq::new(c.rows().iter().map(|r| function(c, r))),
        edges: Seq::new(edges.iter().map(|e| edge(c, e, &each))),
        stacks: Seq::new(stacks.iter().map(|s| stack(c, s))),
        lines: Seq::new(lines.iter().map(|l| line(c, l))),
    };
    let mut safe = SafeWriter::new(io::BufWriter::with_capacity(1 << 16, out));
    doc.serialize(&mut serde_json::Serializer::pretty(&mut safe))
        .map_err(io::Error::other)?;
    safe.write_all(b"\n")?;
    safe.finish()
}

#[derive(Serialize)]
#[serde(bound = "")]
struct Doc<'c, F, E, S, L>
where
    F: Iterator<Item: Serialize>,
    E: Iterator<Item: Serialize>,
    S: Iterator<Item: Serialize>,
    L: Iterator<Item: Serialize>,
{
    schema: u32,
    base: Side<'c>,
    new: Side<'c>,
    measure: Option<&'static str>,
    notes: &'c [String],
    conditions: &'c [Outcome],
    functions: Seq<F>,
    edges: Seq<E>,
    stacks: Seq<S>,
    lines: Seq<L>,
}

/// A JSON array written from an iterator as it goes (once).
struct Seq<I>(RefCell<Option<I>>);

impl<I> Seq<I> {
    fn new(rows: I) -> Seq<I> {
        Seq(RefCell::new(Some(rows)))
    }
}

impl<I: Iterator<Item = T>, T: Serialize> Serialize for Seq<I> {
    fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        let rows = self.0.borrow_mut().take();
        s.collect_seq(rows.into_iter().flatten())
    }
}

#[derive(Serialize)]
struct Side<'c> {
    sources: &'c [String],
    format: &'c str,
    time_unit: Option<&'static str>,
    totals: report::Totals,
    query: report::QueryJson,
}

fn side(c: &Comparison, w: Which) -> Side<'_> {
    let a = c.side(w);
    let p = a.paths();
    Side {
        sources: &p.sources,
        format: &p.format,
        time_unit: p.time_unit().map(|u| u.name()),
        totals: report::answer_totals(p, a.events()),
        query: report::query_json(&super::asked(a), p),
    }
}

#[derive(Serialize)]
struct Function<'c> {
    name: &'c str,
    module: &'c str,
    status: &'static str,
    paired_by: Option<&'static str>,
    base_module: Option<&'c str>,
    new_module: Option<&'c str>,
    base: Option<report::Function<'c>>,
    new: Option<report::Function<'c>>,
    delta: Changes<'c, Delta>,
    ratio: Changes<'c, Option<f64>>,
}

/// Metrics and their changes, as a JSON object in `Metric::ALL`'s order.
struct Changes<'c, T>(Vec<(&'c str, T)>);

impl<T: Serialize> Serialize for Changes<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

fn function<'c>(c: &'c Comparison, r: &Row) -> Function<'c> {
    let deltas: Vec<(Metric, Delta)> = Metric::ALL
        .into_iter()
        .filter_map(|m| Some((m, c.delta(r, m)?)))
        .collect();
    let ratios = deltas.iter().map(|&(m, _)| (m.key(), c.ratio(r, m)));
    Function {
        name: r.name(c),
        module: r.module(c),
        status: r.status(),
        paired_by: r.paired_by.map(super::PairedBy::key),
        base_module: r.module_on(c, Which::Base),
        new_module: r.module_on(c, Which::New),
        base: c.function(Which::Base, r),
        new: c.function(Which::New, r),
        ratio: Changes(ratios.collect()),
        delta: Changes(deltas.into_iter().map(|(m, d)| (m.key(), d)).collect()),
    }
}

#[derive(Serialize)]
struct Edge<'c> {
    caller: report::Frame<'c>,
    callee: report::Frame<'c>,
    status: &'static str,
    base: Option<EdgeValues>,
    new: Option<EdgeValues>,
}

/// The side a pair of edges or stacks is named from: the new run's, else
/// the base's.
fn named_by(p: &Paired) -> (Which, usize) {
    match p {
        [_, Some(n)] => (Which::New, *n),
        [Some(b), None] => (Which::Base, *b),
        [None, None] => (Which::New, usize::MAX),
    }
}

fn edge<'c>(
    c: &'c Comparison,
    e: &Paired,
    each: &'c [Vec<crate::callgraph::GraphEdge>; 2],
) -> Edge<'c> {
    let values = |w: Which| {
        let i = e[w as usize]?;
        let row = report::edge(c.profile(w), &each[w as usize][i]);
        Some(EdgeValues {
            calls: row.calls,
            hits: row.hits,
            elapsed_inclusive_ms: row.elapsed_inclusive_ms,
        })
    };
    let (w, i) = named_by(e);
    let (p, g) = (c.profile(w), &each[w as usize][i]);
    Edge {
        caller: report::frame(p, g.caller),
        callee: report::frame(p, g.callee),
        status: pair::status(e),
        base: values(Which::Base),
        new: values(Which::New),
    }
}

#[derive(Serialize)]
struct Stack<'c> {
    frames: Vec<report::Frame<'c>>,
    status: &'static str,
    base: Option<StackValues>,
    new: Option<StackValues>,
}

#[derive(Serialize)]
struct StackValues {
    hits: Option<u64>,
    self_ms: Option<f64>,
    child_ms: Option<f64>,
}

fn stack<'c>(c: &'c Comparison, s: &Paired) -> Stack<'c> {
    let row = |w: Which| {
        let i = s[w as usize]?;
        Some(report::stack(
            c.profile(w),
            profx_model::StackId::from_index(i),
        ))
    };
    let values = |w: Which| {
        row(w).map(|r| StackValues {
            hits: r.hits,
            self_ms: r.self_ms,
            child_ms: r.child_ms,
        })
    };
    let (w, _) = named_by(s);
    Stack {
        frames: row(w).map(|r| r.frames).unwrap_or_default(),
        status: pair::status(s),
        base: values(Which::Base),
        new: values(Which::New),
    }
}

#[derive(Serialize)]
struct Line<'c> {
    file: &'c str,
    line: u32,
    status: &'static str,
    base: Option<LineValues<'c>>,
    new: Option<LineValues<'c>>,
}

#[derive(Serialize)]
struct LineValues<'c> {
    function: Option<&'c str>,
    hits: Option<u64>,
    time_ms: Option<f64>,
}

/// A pair of lines by (file, line): each side's function, hits and time
/// as `report --json`'s `lines` give them.
fn line<'c>(c: &'c Comparison, l: &Paired) -> Line<'c> {
    let row = |w: Which| {
        let i = l[w as usize]?;
        Some(report::line(
            c.profile(w),
            profx_model::LineId::from_index(i),
        ))
    };
    let values = |w: Which| {
        row(w).map(|r| LineValues {
            function: r.function,
            hits: r.hits,
            time_ms: r.time_ms,
        })
    };
    let (w, _) = named_by(l);
    let named = row(w);
    Line {
        file: named.as_ref().map_or("", |r| r.file),
        line: named.as_ref().map_or(0, |r| r.line),
        status: pair::status(l),
        base: values(Which::Base),
        new: values(Which::New),
    }
}
