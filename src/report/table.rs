//! `profx report --table`: aligned plain-text tables for people.
//!
//! Columns come from `analysis::columns` and numbers from the model, so a
//! table agrees with `--json` and the app. Every name passes through
//! `text::visible`: a table piped to a terminal cannot be hijacked by a name.

use super::fmt::{cell, percent_basis};
use crate::analysis::columns::{
    Column, FuncColumn, LineColumn, StackColumn, Value, ValueKind, present_columns,
};
use crate::analysis::sort::{first_functions, first_lines, first_stacks, sort_by};
use crate::model::{MetaValue, Profile};
use crate::text::visible;
use std::fmt::Write;
use unicode_width::UnicodeWidthStr;

/// Which pane the table shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Functions,
    Lines,
    Stacks,
    Packets,
    Info,
}

/// How to cut and order the rows.
#[derive(Clone, Debug, Default)]
pub struct TableOptions {
    /// Column key (`--sort`); the canonical order when `None`.
    pub sort: Option<String>,
    /// Ascending instead of the column's natural direction.
    pub reverse: bool,
    pub top: Option<usize>,
}

/// A `--sort` key that the view has no column for.
#[derive(Debug, thiserror::Error)]
#[error("no column {key:?} in the {view} view (columns: {known})")]
pub struct UnknownColumn {
    pub key: String,
    pub view: &'static str,
    pub known: String,
}

pub fn render(p: &Profile, view: View, opts: &TableOptions) -> Result<String, UnknownColumn> {
    match view {
        View::Functions => {
            let rows = Rows {
                all: p.function_ids().collect(),
                first: first_functions,
            };
            rows_table::<FuncColumn>(p, "functions", rows, opts, |_, _| None)
        }
        View::Lines => {
            let rows = Rows {
                all: p.line_ids().collect(),
                first: first_lines,
            };
            rows_table::<LineColumn>(p, "lines", rows, opts, |_, _| None)
        }
        View::Stacks => {
            let rows = Rows {
                all: p.stack_ids().collect(),
                first: first_stacks,
            };
            rows_table::<StackColumn>(p, "stacks", rows, opts, |p, s| {
                let names: Vec<_> = p
                    .frames(s)
                    .iter()
                    .map(|&f| visible(p.function_name(f)).into_owned())
                    .collect();
                Some(names.join(" > "))
            })
        }
        View::Packets => Ok(packets(p)),
        View::Info => Ok(info(p)),
    }
}

/// Lists the keys `--sort` accepts for a view.
pub fn column_keys(view: View) -> Vec<&'static str> {
    fn keys<C: Column>() -> Vec<&'static str> {
        C::ALL.iter().map(|c| c.key()).collect()
    }
    match view {
        View::Functions => keys::<FuncColumn>(),
        View::Lines => keys::<LineColumn>(),
        View::Stacks => keys::<StackColumn>(),
        View::Packets | View::Info => Vec::new(),
    }
}

/// A view's rows: all of them, and the first so many in canonical order.
struct Rows<R> {
    all: Vec<R>,
    first: fn(&Profile, usize) -> Vec<R>,
}

fn rows_table<C: Column>(
    p: &Profile,
    view: &'static str,
    rows: Rows<C::Row>,
    opts: &TableOptions,
    path: fn(&Profile, C::Row) -> Option<String>,
) -> Result<String, UnknownColumn> {
    let total = rows.all.len();
    let top = opts.top.unwrap_or(usize::MAX);
    // Which columns show depends on every row, not only those listed.
    let cols: Vec<C> = present_columns(p, rows.all.iter().copied());
    let mut order = String::from("canonical order");
    // In canonical order unsorted, only the rows shown need ordering.
    let first = match (&opts.sort, opts.reverse) {
        (None, false) => top,
        _ => usize::MAX,
    };
    let mut rows = (rows.first)(p, first);
    if let Some(key) = &opts.sort {
        let col = C::from_key(key).ok_or_else(|| UnknownColumn {
            key: key.clone(),
            view,
            known: C::ALL
                .iter()
                .map(|c| c.key())
                .collect::<Vec<_>>()
                .join(", "),
        })?;
        let descending = col.descending_by_default() != opts.reverse;
        sort_by(p, &mut rows, col, descending);
        order = format!(
            "sorted by {key} {}",
            if descending { "desc" } else { "asc" }
        );
    } else if opts.reverse {
        rows.reverse();
        order.push_str(", reversed");
    }
    rows.truncate(top);
    let mut grid = vec![
        cols.iter()
            .map(|c| c.header().to_string())
            .collect::<Vec<_>>(),
    ];
    let with_path = rows.first().is_some_and(|&r| path(p, r).is_some());
    if with_path {
        grid[0].push("Path".into());
    }
    for &r in &rows {
        let mut cells: Vec<String> = cols.iter().map(|&c| cell(c.value(p, r))).collect();
        cells.extend(path(p, r));
        grid.push(cells);
    }
    let mut kinds: Vec<ValueKind> = cols.iter().map(|c| c.value_kind()).collect();
    if with_path {
        kinds.push(ValueKind::Text);
    }
    let mut out = format!(
        "# {view}: {} of {total} · {order}{}\n",
        rows.len(),
        session_note(p)
    );
    out.push_str(&align(&grid, &kinds));
    Ok(out)
}

/// What percents are out of.
fn session_note(p: &Profile) -> String {
    let basis = percent_basis(p);
    if basis.is_empty() {
        basis
    } else {
        format!(" · {basis}")
    }
}

/// Pads cells to their column's display width: text left, numbers right.
fn align(grid: &[Vec<String>], kinds: &[ValueKind]) -> String {
    let mut widths = vec![0; kinds.len()];
    for row in grid {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.width());
        }
    }
    let mut out = String::new();
    for row in grid {
        let mut line = String::new();
        for (i, c) in row.iter().enumerate() {
            let pad = " ".repeat(widths[i] - c.width());
            let last = i + 1 == row.len();
            match kinds[i] {
                ValueKind::Number => line.push_str(&format!("{pad}{c}")),
                ValueKind::Text if last => line.push_str(c),
                ValueKind::Text => line.push_str(&format!("{c}{pad}")),
            }
            if !last {
                line.push_str("  ");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn packets(p: &Profile) -> String {
    if p.packets().is_empty() {
        return format!("# packets: none ({} has no trace events)\n", p.format);
    }
    let mut grid = vec![
        ["#", "Source", "Events", "First ms", "Last ms"]
            .map(String::from)
            .to_vec(),
    ];
    for (i, pk) in p.packets().iter().enumerate() {
        let ms = |x: Option<f64>| cell(Value::Ms(x));
        grid.push(vec![
            i.to_string(),
            visible(&pk.source).into_owned(),
            pk.events.len().to_string(),
            ms(pk.first_ms),
            ms(pk.last_ms),
        ]);
    }
    use ValueKind::{Number as N, Text as T};
    format!(
        "# packets: {}\n{}",
        p.packets().len(),
        align(&grid, &[N, T, N, N, N])
    )
}

fn info(p: &Profile) -> String {
    let mut out = format!("format   {}\n", p.format);
    for s in &p.sources {
        let _ = writeln!(out, "source   {}", visible(s));
    }
    out.push_str("\n# meta\n");
    for (k, v) in &p.meta {
        let v = match v {
            MetaValue::Text(s) => visible(s).into_owned(),
            MetaValue::Int(n) => n.to_string(),
            MetaValue::Float(x) => x.to_string(),
        };
        let _ = writeln!(out, "{k:<16} {v}");
    }
    out.push_str("\n# totals\n");
    for (k, v) in super::fmt::totals(p) {
        let _ = writeln!(out, "{k:<16} {v}");
    }
    let _ = writeln!(out, "\n# warnings: {}", p.warnings().len());
    for w in p.warnings() {
        let _ = writeln!(
            out,
            "{}: {}",
            visible(&p.warning_place(w)),
            visible(&w.message)
        );
    }
    out
}
