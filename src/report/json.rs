//! `profx report --json` (report-json.md, schema 1): the whole model,
//! every key always present, absent values `null`, rows in canonical order.

use crate::analysis::sort::{canonical_functions, canonical_lines, canonical_stacks};
use crate::model::{FuncId, MetaValue, Profile};
use serde::Serialize;
use std::collections::BTreeMap;

/// The version of this document; raised whenever its shape changes.
pub const SCHEMA: u32 = 1;

#[derive(Serialize)]
struct Report<'p> {
    schema: u32,
    format: &'p str,
    sources: &'p [String],
    meta: BTreeMap<&'p str, Meta<'p>>,
    totals: Totals,
    functions: Vec<Function<'p>>,
    lines: Vec<Line<'p>>,
    stacks: Vec<Stack<'p>>,
    packets: Vec<Packet<'p>>,
    warnings: Vec<Warning<'p>>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Meta<'p> {
    Text(&'p str),
    Int(i64),
    Float(f64),
}

#[derive(Serialize)]
struct Totals {
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
struct Function<'p> {
    name: &'p str,
    module: &'p str,
    calls: Option<u64>,
    hits_self: Option<u64>,
    hits_total: Option<u64>,
    elapsed_inclusive_ms: Option<f64>,
    elapsed_exclusive_ms: Option<f64>,
    application_inclusive_ms: Option<f64>,
    application_exclusive_ms: Option<f64>,
    elapsed_inclusive_pct: Option<f64>,
    elapsed_exclusive_pct: Option<f64>,
    application_inclusive_pct: Option<f64>,
    application_exclusive_pct: Option<f64>,
    hits_self_pct: Option<f64>,
    hits_total_pct: Option<f64>,
    min_elapsed_inclusive_ms: Option<f64>,
    max_elapsed_inclusive_ms: Option<f64>,
    min_elapsed_exclusive_ms: Option<f64>,
    max_elapsed_exclusive_ms: Option<f64>,
}

#[derive(Serialize)]
struct Line<'p> {
    file: &'p str,
    line: u32,
    function: Option<&'p str>,
    hits: Option<u64>,
    time_ms: Option<f64>,
}

#[derive(Serialize)]
struct Frame<'p> {
    name: &'p str,
    module: &'p str,
}

#[derive(Serialize)]
struct Stack<'p> {
    frames: Vec<Frame<'p>>,
    hits: Option<u64>,
    self_ms: Option<f64>,
    child_ms: Option<f64>,
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
    message: &'p str,
}

/// The report as pretty-printed JSON, ending with a newline.
pub fn render(p: &Profile) -> String {
    let report = Report {
        schema: SCHEMA,
        format: &p.format,
        sources: &p.sources,
        meta: p.meta.iter().map(|(k, v)| (k.as_str(), meta(v))).collect(),
        totals: totals(p),
        functions: canonical_functions(p)
            .into_iter()
            .map(|f| function(p, f))
            .collect(),
        lines: canonical_lines(p).into_iter().map(|l| line(p, l)).collect(),
        stacks: canonical_stacks(p)
            .into_iter()
            .map(|s| stack(p, s))
            .collect(),
        packets: p
            .packets()
            .iter()
            .enumerate()
            .map(|(i, pk)| packet(i, pk))
            .collect(),
        warnings: p
            .warnings()
            .iter()
            .map(|w| Warning {
                place: p.warning_place(w),
                message: &w.message,
            })
            .collect(),
    };
    // Serializing plain structs of strings and numbers cannot fail.
    let mut out = serde_json::to_string_pretty(&report).unwrap_or_default();
    out.push('\n');
    crate::text::json_safe(out)
}

fn meta(v: &MetaValue) -> Meta<'_> {
    match v {
        MetaValue::Text(s) => Meta::Text(s),
        MetaValue::Int(n) => Meta::Int(*n),
        MetaValue::Float(x) => Meta::Float(*x),
    }
}

fn totals(p: &Profile) -> Totals {
    let t = &p.totals;
    Totals {
        elapsed_inclusive_ms: t.elapsed_inclusive_ms,
        application_inclusive_ms: t.application_inclusive_ms,
        outside_ms: t.outside_ms,
        samples: t.samples,
        functions: p.functions().len(),
        lines: p.lines().len(),
        stacks: p.stacks().len(),
        packets: p.packets().len(),
        events: p.event_count(),
    }
}

fn function(p: &Profile, id: FuncId) -> Function<'_> {
    let f = p.function(id);
    let pct = p.percents(id);
    let per_call = p.per_call(id);
    Function {
        name: p.function_name(id),
        module: p.function_module(id),
        calls: f.calls,
        hits_self: f.hits_self,
        hits_total: f.hits_total,
        elapsed_inclusive_ms: f.time.elapsed_inclusive,
        elapsed_exclusive_ms: f.time.elapsed_exclusive,
        application_inclusive_ms: f.time.application_inclusive,
        application_exclusive_ms: f.time.application_exclusive,
        elapsed_inclusive_pct: pct.elapsed_inclusive,
        elapsed_exclusive_pct: pct.elapsed_exclusive,
        application_inclusive_pct: pct.application_inclusive,
        application_exclusive_pct: pct.application_exclusive,
        hits_self_pct: pct.hits_self,
        hits_total_pct: pct.hits_total,
        min_elapsed_inclusive_ms: per_call.min_inclusive,
        max_elapsed_inclusive_ms: per_call.max_inclusive,
        min_elapsed_exclusive_ms: per_call.min_exclusive,
        max_elapsed_exclusive_ms: per_call.max_exclusive,
    }
}

fn line(p: &Profile, id: crate::model::LineId) -> Line<'_> {
    let l = p.line(id);
    Line {
        file: p.name(l.file),
        line: l.line,
        function: p.line_function_name(id),
        hits: l.hits,
        time_ms: l.time_ms,
    }
}

fn stack(p: &Profile, id: crate::model::StackId) -> Stack<'_> {
    let s = p.stack(id);
    Stack {
        frames: p
            .frames(id)
            .iter()
            .map(|&f| Frame {
                name: p.function_name(f),
                module: p.function_module(f),
            })
            .collect(),
        hits: s.hits,
        self_ms: s.self_ms,
        child_ms: s.child_ms,
    }
}

fn packet(index: usize, pk: &crate::model::Packet) -> Packet<'_> {
    Packet {
        index,
        source: &pk.source,
        events: pk.events.len(),
        first_ms: pk.first_ms,
        last_ms: pk.last_ms,
    }
}
