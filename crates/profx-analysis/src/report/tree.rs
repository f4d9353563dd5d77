//! `profx report --view tree` and `--view callers|callees`: the call tree
//! and one function's edges for scripts and people, read from the very
//! rows the app shows (`analysis::calltree::CallTree`, the butterfly's
//! `analysis::callgraph` lists), so a script and the app agree.
//!
//! The tree is printed indented as `perf report --stdio` prints its call
//! graph: each row's share of the session and of its parent (hotspot's
//! "% of parent"), its total, self and count, and its name under its
//! parent's, children heaviest first. `--invert` turns
//! it bottom-up; `--depth N` keeps N levels; `--min-pct P` leaves out rows
//! (and what is under them) holding less than P % of the session.

use super::fmt::cell;
use crate::callgraph::{CallGraph, Edge, count_name, share_base};
use crate::calltree::{CallTree, TreeIndex, Unit};
use crate::cct::{Label, Weigh};
use crate::columns::{Value, ValueKind};
use profx_model::text::visible;
use profx_model::{FuncId, HitsCount, Profile};
use serde::Serialize;
use std::io::{self, Write};
use std::sync::Arc;
use unicode_width::UnicodeWidthStr;

/// What part of the tree to print.
#[derive(Clone, Copy, Debug, Default)]
pub struct TreeOptions {
    /// Bottom-up (`--invert`): the functions at the roots, their callers below.
    pub invert: bool,
    /// Levels kept, 1 for the roots alone; all when `None`.
    pub depth: Option<usize>,
    /// Rows under this share of the session are left out, with their
    /// subtrees.
    pub min_pct: Option<f64>,
}

/// Levels drawn with guides; deeper rows state their depth.
const DEEP: usize = 32;

/// One printed row of the tree.
struct Row {
    id: usize,
    parent: Option<usize>,
    depth: usize,
    label: Label,
    total: Option<f64>,
    self_w: Option<f64>,
    count: Option<u64>,
    pct: Option<f64>,
    /// Its total's share of its parent's (`calltree::Values::parent_pct`).
    parent_pct: Option<f64>,
}

/// The rows the options keep, in the app's order (children by total,
/// heaviest first), walked depth first from the app's own rows; whether
/// the bottom-up tree stopped at the app's budget of nodes (a recursive
/// chain turned over holds the square of its depth).
fn rows(p: &Profile, opts: &TreeOptions) -> (Arc<TreeIndex>, Vec<Row>, bool) {
    let index = Arc::new(TreeIndex::build(p));
    let mut t = CallTree::new(p, Arc::clone(&index));
    if opts.invert {
        t.invert(p);
    }
    let keep = |t: &CallTree, id: u32| {
        let v = t.values(p, id);
        opts.min_pct
            .is_none_or(|min| t.percent(v.total).is_some_and(|x| x >= min))
    };
    let mut out: Vec<Row> = Vec::new();
    let mut cut = false;
    // (row id, depth, printed parent), heaviest first off the top.
    let mut todo: Vec<(u32, usize, Option<usize>)> = t
        .kids(p, None)
        .into_iter()
        .rev()
        .map(|id| (id, 0, None))
        .collect();
    while let Some((rid, depth, parent)) = todo.pop() {
        if !keep(&t, rid) {
            continue;
        }
        let v = t.values(p, rid);
        let label = t.label(p, rid);
        let id = out.len();
        out.push(Row {
            id,
            parent,
            depth,
            label,
            total: v.total,
            self_w: v.self_w,
            count: v.count,
            pct: t.percent(v.total),
            parent_pct: v.parent_pct,
        });
        if opts.depth.is_some_and(|d| depth + 1 >= d) || !t.has_children(rid) {
            continue;
        }
        if t.over_budget() {
            cut = true;
            continue;
        }
        let kids = t.kids(p, Some(rid));
        todo.extend(kids.into_iter().rev().map(|k| (k, depth + 1, Some(id))));
    }
    (index, out, cut)
}

/// The tree as text.
pub fn write_text(
    p: &Profile,
    opts: &TreeOptions,
    query: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let q = super::table::query_note(query);
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    if p.nodes().is_empty() {
        // As the exports do: its functions' self time under one root.
        writeln!(
            out,
            "# call tree{q}: this {} profile has no call paths; each function's self time is under {}",
            p.format,
            crate::cct::NO_CALL_PATH
        )?;
        if p.functions().is_empty() {
            return out.flush();
        }
    }
    let (index, rows, cut) = rows(p, opts);
    let ms = index.unit() == Unit::Ms;
    let weight = |x: Option<f64>| match ms {
        true => cell(Value::Ms(x)),
        false => cell(Value::Count(x.map(|x| x as u64))),
    };
    let count_head = count_heading(p);
    let head = [
        "Total%".to_string(),
        "Parent%".to_string(),
        format!("Total {}", index.cct.weigh.name(p)),
        format!("Self {}", index.cct.weigh.name(p)),
        count_head.to_string(),
    ];
    // Two passes, each row's cells made when needed: millions of rows
    // (a deep chain turned over) cost no text held for all of them.
    let cells = |r: &Row| {
        [
            cell(Value::Pct(r.pct)),
            cell(Value::Pct(r.parent_pct)),
            weight(r.total),
            weight(r.self_w),
            cell(Value::Count(r.count)),
        ]
    };
    let mut widths = head.clone().map(|h| h.width());
    for r in &rows {
        for (w, x) in widths.iter_mut().zip(cells(r)) {
            *w = (*w).max(x.width());
        }
    }
    let of = match ms {
        true => super::fmt::grouped_time(p, index.total),
        false => super::fmt::grouped(index.total as u64),
    };
    writeln!(
        out,
        "# call tree · {} · {}{q} · children by total, heaviest first · percents of {of}{}",
        if opts.invert { "bottom-up" } else { "top-down" },
        super::fmt::counted(rows.len() as u64, "rows"),
        if cut {
            " · cut short: the callers of millions of nodes (--depth prints fewer levels)"
        } else {
            ""
        }
    )?;
    write!(out, "{}", numbers_then_name(&head, &widths, "Function"))?;
    // Whether a row is its parent's last printed child: one pass from the
    // end (a row's later siblings come after it).
    let mut last = vec![false; rows.len()];
    let mut seen = vec![false; rows.len() + 1];
    for (k, r) in rows.iter().enumerate().rev() {
        let parent = r.parent.unwrap_or(rows.len());
        last[k] = !seen[parent];
        seen[parent] = true;
    }
    // Whether each open level has a sibling still to come: the guides.
    let mut more: Vec<bool> = Vec::new();
    for (k, r) in rows.iter().enumerate() {
        let c = &cells(r);
        more.truncate(r.depth);
        let last = last[k];
        let mut guide = String::new();
        if r.depth > DEEP {
            // Past this depth a line states its depth, as the app's tree
            // does, instead of drawing every level's guide: a chain a
            // thousand deep would print a megabyte of guides a row.
            guide = format!("{}› ", r.depth);
        } else {
            for &m in more.iter().skip(1) {
                guide.push_str(if m { "│  " } else { "   " });
            }
            if r.depth > 0 {
                guide.push_str(if last { "└─ " } else { "├─ " });
            }
        }
        more.push(!last);
        let mut name = visible(r.label.name(p)).into_owned();
        // A name two functions share carries its module, as on screen.
        if r.label.func().is_some_and(|f| p.name_is_shared(f)) {
            name.push_str(&format!(" [{}]", visible(r.label.module(p))));
        }
        write!(
            out,
            "{}",
            numbers_then_name(c, &widths, &format!("{guide}{name}"))
        )?;
    }
    out.flush()
}

/// A line of right-aligned numbers and a name after them, as the report's
/// tables write their lines (`table::line`).
fn numbers_then_name(cells: &[String], widths: &[usize], name: &str) -> String {
    let mut row = cells.to_vec();
    row.push(name.to_string());
    let mut widths = widths.to_vec();
    widths.push(0);
    let mut kinds = vec![ValueKind::Number; cells.len()];
    kinds.push(ValueKind::Text);
    super::table::line(&row, &widths, &kinds)
}

/// The count column's heading: "Calls" or "Samples".
fn count_heading(p: &Profile) -> String {
    let name = count_name(p);
    name[..1].to_uppercase() + &name[1..]
}

#[derive(Serialize)]
struct TreeDoc<'a> {
    schema: u32,
    /// The query the tree answers, in words; `null` for the whole profile.
    query: Option<&'a str>,
    weight: &'static str,
    direction: &'static str,
    /// The bottom-up tree stopped at the app's budget of nodes.
    cut: bool,
    nodes: Vec<NodeJson<'a>>,
}

#[derive(Serialize)]
struct NodeJson<'a> {
    id: usize,
    parent: Option<usize>,
    name: &'a str,
    module: &'a str,
    total: Option<f64>,
    #[serde(rename = "self")]
    self_w: Option<f64>,
    calls: Option<u64>,
    /// The node's total as a percent of its parent's, unrounded; `null`
    /// at a root (report-json.md § Trees and edges).
    parent_pct: Option<f64>,
}

/// The tree as JSON (report-json.md § Trees and edges).
pub fn write_json(
    p: &Profile,
    opts: &TreeOptions,
    query: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let (index, rows, cut) = rows(p, opts);
    let calls = p.hits_count() == HitsCount::Calls;
    let doc = TreeDoc {
        schema: super::json::SCHEMA,
        query,
        weight: index.cct.weigh.name(p),
        direction: if opts.invert { "bottom-up" } else { "top-down" },
        cut,
        nodes: rows
            .iter()
            .map(|r| NodeJson {
                id: r.id,
                parent: r.parent,
                name: r.label.name(p),
                module: r.label.module(p),
                total: p.at_resolution(r.total),
                self_w: p.at_resolution(r.self_w),
                calls: r.count.filter(|_| calls),
                parent_pct: r.parent_pct,
            })
            .collect(),
    };
    write_doc(&doc, out)
}

fn write_doc(doc: &impl Serialize, out: &mut dyn Write) -> io::Result<()> {
    let mut safe = super::json::SafeWriter::new(io::BufWriter::with_capacity(1 << 16, out));
    serde_json::to_writer_pretty(&mut safe, doc).map_err(io::Error::other)?;
    safe.write_all(b"\n")?;
    safe.finish()
}

/// Which side of a function's butterfly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Who calls the function.
    Callers,
    /// Whom the function calls.
    Callees,
}

/// No function answers to a name: the query's error, naming the closest.
#[derive(Debug, thiserror::Error)]
#[error("{0} (a name is exact; MODULE!NAME names one of several)")]
pub struct NoSuchFunction(pub crate::query::QueryError);

/// The functions `name` stands for: every function of that exact name, or
/// with `MODULE!NAME` the one of that module (a name with `!` in it is
/// tried whole first).
pub fn functions_named(p: &Profile, name: &str) -> Result<Vec<FuncId>, NoSuchFunction> {
    // The query's one reading of a name (`query::resolve`), closest names
    // and all: `--function` means what `--focus` means.
    crate::query::resolve(p, &crate::query::Target(name.to_string())).map_err(NoSuchFunction)
}

fn side_rows<'g>(g: &'g CallGraph, p: &Profile, f: FuncId, side: Side) -> &'g [Edge] {
    match side {
        Side::Callers => g.callers(p, f),
        Side::Callees => g.callees(p, f),
    }
}

fn share_name(p: &Profile) -> &'static str {
    match Weigh::of(p) {
        Weigh::Ms => "its inclusive time",
        Weigh::Hits => "its inclusive samples",
        Weigh::Calls => "its calls",
    }
}

/// One function's callers or callees as the butterfly lists them.
pub fn write_edges_text(
    p: &Profile,
    funcs: &[FuncId],
    side: Side,
    query: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let q = super::table::query_note(query);
    let mut out = io::BufWriter::new(out);
    let g = CallGraph::build(p);
    let timed = Weigh::of(p) == Weigh::Ms;
    for (k, &f) in funcs.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        let list = side_rows(&g, p, f, side);
        let what = match side {
            Side::Callers => "callers",
            Side::Callees => "callees",
        };
        let mut name = visible(p.function_name(f)).into_owned();
        if !p.function_module(f).is_empty() {
            name.push_str(&format!(" [{}]", visible(p.function_module(f))));
        }
        let overlap = match g.recursive(f) {
            true => " · recursive: shares overlap",
            false => "",
        };
        writeln!(
            out,
            "# {what} of {name} · {}{q} · shares of {}{overlap}",
            super::fmt::counted(list.len() as u64, "rows"),
            share_name(p)
        )?;
        let head = [
            p.time_unit_name().to_string(),
            count_name(p).to_string(),
            "%".to_string(),
        ];
        let cells: Vec<[String; 3]> = list
            .iter()
            .map(|e| {
                [
                    cell(Value::Ms(e.time_ms)),
                    cell(Value::Count(e.calls.or(e.hits))),
                    cell(Value::Pct(e.share)),
                ]
            })
            .collect();
        let shown = [timed, true, true];
        let mut widths = head.clone().map(|h| h.width());
        for c in &cells {
            for (w, x) in widths.iter_mut().zip(c) {
                *w = (*w).max(x.width());
            }
        }
        // The columns shown: no time column where the profile has none.
        let pick = |c: &[String; 3]| -> Vec<String> {
            c.iter()
                .zip(shown)
                .filter(|(_, s)| *s)
                .map(|(x, _)| x.clone())
                .collect()
        };
        let kept: Vec<usize> = widths
            .iter()
            .zip(shown)
            .filter(|(_, s)| *s)
            .map(|(w, _)| *w)
            .collect();
        let line = |c: &[String; 3], name: &str| numbers_then_name(&pick(c), &kept, name);
        let side_head = match side {
            Side::Callers => "Caller",
            Side::Callees => "Callee",
        };
        write!(out, "{}", line(&head, side_head))?;
        for (e, c) in list.iter().zip(&cells) {
            let name = match e.func() {
                Some(g) if !p.function_module(g).is_empty() => format!(
                    "{} [{}]",
                    visible(p.function_name(g)),
                    visible(p.function_module(g))
                ),
                _ => visible(e.who.name(p)).into_owned(),
            };
            write!(out, "{}", line(c, &name))?;
        }
    }
    out.flush()
}

#[derive(Serialize)]
struct EdgesDoc<'a> {
    schema: u32,
    /// The query the lists answer, in words; `null` for the whole profile.
    query: Option<&'a str>,
    side: &'static str,
    share_of: &'static str,
    /// The unit of every `elapsed_inclusive_ms` below (`ms`, `ticks`);
    /// `null` where the profile has no times.
    time_unit: Option<&'static str>,
    functions: Vec<FunctionEdges<'a>>,
}

#[derive(Serialize)]
struct FunctionEdges<'a> {
    name: &'a str,
    module: &'a str,
    calls: Option<u64>,
    hits_total: Option<u64>,
    elapsed_inclusive_ms: Option<f64>,
    recursive: bool,
    rows: Vec<EdgeJson<'a>>,
}

#[derive(Serialize)]
struct EdgeJson<'a> {
    name: &'a str,
    module: &'a str,
    /// "function", or what the edges miss: "root", "self", "unlisted".
    kind: &'static str,
    calls: Option<u64>,
    hits: Option<u64>,
    elapsed_inclusive_ms: Option<f64>,
    share_pct: Option<f64>,
}

/// One function's callers or callees as JSON (report-json.md).
pub fn write_edges_json(
    p: &Profile,
    funcs: &[FuncId],
    side: Side,
    query: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<()> {
    use crate::callgraph::Who;
    let g = CallGraph::build(p);
    let doc = EdgesDoc {
        schema: super::json::SCHEMA,
        query,
        side: match side {
            Side::Callers => "callers",
            Side::Callees => "callees",
        },
        share_of: share_base(Weigh::of(p)),
        time_unit: p.time_unit().map(|u| u.name()),
        functions: funcs
            .iter()
            .map(|&f| {
                let func = p.function(f);
                FunctionEdges {
                    name: p.function_name(f),
                    module: p.function_module(f),
                    calls: func.calls,
                    hits_total: func.hits_total,
                    elapsed_inclusive_ms: p.at_resolution(func.time.elapsed_inclusive),
                    recursive: g.recursive(f),
                    rows: side_rows(&g, p, f, side)
                        .iter()
                        .map(|e| EdgeJson {
                            name: e.who.name(p),
                            module: e.func().map_or("", |g| p.function_module(g)),
                            kind: match e.who {
                                Who::Func(_) => "function",
                                Who::Root => "root",
                                Who::SelfTime => "self",
                                Who::Unlisted => "unlisted",
                            },
                            calls: e.calls,
                            hits: e.hits,
                            elapsed_inclusive_ms: p.at_resolution(e.time_ms),
                            share_pct: e.share,
                        })
                        .collect(),
                }
            })
            .collect(),
    };
    write_doc(&doc, out)
}
