//! `profx report --table`: aligned plain-text tables for people.
//!
//! Columns come from `analysis::columns` and numbers from the model, so a
//! table agrees with `--json` and the app. Rows come in the order the
//! app's pane opens in (`analysis::sort::default_sort`), not `--json`'s
//! canonical one, so that `--top` lists the rows the app shows first.
//! Every name passes through `text::visible`: a table piped to a terminal
//! cannot be hijacked by a name.
//!
//! A table of rows is written in two passes over its rows, the first for
//! the column widths and the second for the lines, each cell formatted when
//! it is needed: ten million rows cost the memory of their ids, not of
//! their text.

use super::fmt::{cell, grouped, percent_basis};
use crate::columns::{
    Column, FuncColumn, LineColumn, ModuleColumn, StackColumn, ThreadColumn, Value, ValueKind,
    present_columns,
};
#[cfg(any(test, feature = "testing"))]
use crate::query::ThreadRow;
use crate::sort::{
    DefaultOrder, default_sort, first_functions, first_functions_by, first_lines, first_stacks,
    sort_by,
};
use crate::view::Table;
use profx_model::Profile;
use profx_model::text::visible;
use std::fmt::Write as _;
use std::io::Write as _;
use unicode_width::UnicodeWidthStr;

/// How to cut and order the rows.
#[derive(Clone, Debug, Default)]
pub struct TableOptions {
    /// Column key (`--sort`); when `None`, the order the app's pane
    /// opens in (`analysis::sort::default_sort`).
    pub sort: Option<String>,
    /// The sort column the other way (absent values still last); the
    /// canonical order backwards where there is no sort column.
    pub reverse: bool,
    /// How many rows to list at most (`--top`); every row when `None`.
    pub top: Option<usize>,
    /// The query the table answers, in words (`Answer::label`), stated
    /// on its first line after the row count; `None` for the whole
    /// profile.
    pub query: Option<String>,
}

/// A query's words as a first line states them: ` · thread 2 › merge F`,
/// nothing for the whole profile.
pub fn query_note(query: Option<&str>) -> String {
    query.map_or(String::new(), |q| format!(" · {q}"))
}

/// A `--sort` key the table cannot order by. Both kinds list the columns
/// this profile has values in, the only ones a sort can tell rows apart by
/// (and the ones the table shows).
#[derive(Debug, thiserror::Error)]
pub enum NoSortColumn {
    /// No column of the view has this key.
    #[error("no column {key:?} in the {view} view ({present})")]
    Unknown {
        /// The key asked for.
        key: String,
        /// The view's name (`functions`, `lines`, ...).
        view: &'static str,
        /// The keys a sort can order by, as the message lists them.
        present: String,
    },
    /// A column of the view that no row of this profile has a value in.
    #[error("the {view} view's column {key:?} has no values in this profile ({present})")]
    Absent {
        /// The key asked for.
        key: String,
        /// The view's name (`functions`, `lines`, ...).
        view: &'static str,
        /// The keys a sort can order by, as the message lists them.
        present: String,
    },
}

/// The table as text (`write` into memory).
pub fn render(p: &Profile, table: Table, opts: &TableOptions) -> Result<String, NoSortColumn> {
    let mut out = Vec::new();
    match write(p, table, opts, &mut out) {
        Ok(()) => Ok(String::from_utf8(out).unwrap_or_default()),
        Err(Failed::Column(e)) => Err(e),
        // Writing to memory does not fail.
        Err(Failed::Io(_)) => Ok(String::new()),
    }
}

/// Why a table was not written.
#[derive(Debug, thiserror::Error)]
pub enum Failed {
    /// The sort key names no column the table can order by.
    #[error(transparent)]
    Column(#[from] NoSortColumn),
    /// Writing the table failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Writes the table to `out` as it is made.
pub fn write(
    p: &Profile,
    table: Table,
    opts: &TableOptions,
    out: &mut dyn std::io::Write,
) -> Result<(), Failed> {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    match table {
        Table::Functions => rows_table(p, function_rows(p), opts, |_, _| None, &mut out)?,
        Table::Lines => rows_table(p, line_rows(p), opts, |_, _| None, &mut out)?,
        Table::Stacks => {
            let path = |p: &Profile, s| {
                let names: Vec<_> = p
                    .frames(s)
                    .iter()
                    .map(|&f| visible(p.function_name(f)).into_owned())
                    .collect();
                Some(names.join(" > "))
            };
            rows_table(p, stack_rows(p), opts, path, &mut out)?;
        }
        Table::Packets => out.write_all(packets(p, opts.query.as_deref()).as_bytes())?,
        Table::Threads if p.threads().is_empty() => writeln!(
            out,
            "# threads: none (this {} profile has one implicit thread)",
            visible(&p.format)
        )?,
        Table::Threads => rows_table(p, thread_rows(p), opts, |_, _| None, &mut out)?,
        Table::Modules => {
            let rows = module_rows(p);
            match rows.all.is_empty() {
                true => writeln!(
                    out,
                    "# modules: none{} (this {} profile's functions name no module)",
                    query_note(opts.query.as_deref()),
                    visible(&p.format)
                )?,
                false => rows_table(p, rows, opts, |_, _| None, &mut out)?,
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// Lists the keys `--sort` accepts for a table.
pub fn column_keys(table: Table) -> Vec<&'static str> {
    fn keys<C: Column>() -> Vec<&'static str> {
        C::ALL.iter().map(|c| c.key()).collect()
    }
    match table {
        Table::Functions => keys::<FuncColumn>(),
        Table::Lines => keys::<LineColumn>(),
        Table::Stacks => keys::<StackColumn>(),
        Table::Threads => keys::<ThreadColumn>(),
        Table::Modules => keys::<ModuleColumn>(),
        Table::Packets => Vec::new(),
    }
}

/// A table's rows: all of them, the first so many in canonical order, and
/// where the table has a way to find them without sorting all, the first
/// so many of the canonical order sorted by a column.
struct Rows<C: Column> {
    table: Table,
    all: Vec<C::Row>,
    first: FirstRows<C>,
    first_by: Option<FirstBy<C>>,
}

/// The first `n` rows of the canonical order.
type FirstRows<C> = Box<dyn Fn(&Profile, usize) -> Vec<<C as Column>::Row>>;

/// The first `n` rows of the canonical order sorted by a column, either
/// way (`analysis::sort::first_functions_by`).
type FirstBy<C> = fn(&Profile, C, bool, usize) -> Vec<<C as Column>::Row>;

fn function_rows(p: &Profile) -> Rows<FuncColumn> {
    Rows {
        table: Table::Functions,
        all: p.function_ids().collect(),
        first: Box::new(first_functions),
        first_by: Some(first_functions_by),
    }
}

fn line_rows(p: &Profile) -> Rows<LineColumn> {
    Rows {
        table: Table::Lines,
        all: p.line_ids().collect(),
        first: Box::new(first_lines),
        first_by: None,
    }
}

/// A trace's threads, in id order (`query::by_id`): their heaviest
/// functions are a walk of the time order, made once for the table.
fn thread_rows(p: &Profile) -> Rows<ThreadColumn> {
    let all = crate::query::thread_rows(p);
    let first = all.clone();
    Rows {
        table: Table::Threads,
        all,
        first: Box::new(move |_, n| first.iter().take(n).copied().collect()),
        first_by: None,
    }
}

/// Every module, in the order of their names (`modules::module_rows`,
/// the app's rows).
fn module_rows(p: &Profile) -> Rows<ModuleColumn> {
    let all = crate::modules::module_rows(p);
    let first = all.clone();
    Rows {
        table: Table::Modules,
        all,
        first: Box::new(move |_, n| first.iter().take(n).copied().collect()),
        first_by: None,
    }
}

fn stack_rows(p: &Profile) -> Rows<StackColumn> {
    Rows {
        table: Table::Stacks,
        all: p.stack_ids().collect(),
        first: Box::new(first_stacks),
        first_by: None,
    }
}

/// The rows a table lists (`--top` of them), in its order, and the
/// heading's words for that order. `cols` are the columns some row has a
/// value in.
fn ordered<C: DefaultOrder>(
    p: &Profile,
    rows: &Rows<C>,
    cols: &[C],
    opts: &TableOptions,
) -> Result<(Vec<C::Row>, String), NoSortColumn> {
    let top = opts.top.unwrap_or(usize::MAX);
    let sort = match &opts.sort {
        Some(key) => {
            let col = sort_column(key, rows, cols)?;
            Some((col, col.descending_by_default()))
        }
        None => default_sort(cols),
    };
    let (mut listed, order) = match sort {
        Some((col, descending)) => {
            let descending = descending != opts.reverse;
            let listed = match rows.first_by {
                Some(first_by) => first_by(p, col, descending, top),
                None => {
                    let mut all = (rows.first)(p, usize::MAX);
                    sort_by(p, &mut all, col, descending);
                    all
                }
            };
            let way = if descending { "desc" } else { "asc" };
            (listed, format!("sorted by {} {way}", col.key()))
        }
        None if opts.reverse => {
            let mut all = (rows.first)(p, usize::MAX);
            all.reverse();
            (all, "canonical order, reversed".to_string())
        }
        // Only the rows shown need ordering.
        None => ((rows.first)(p, top), "canonical order".to_string()),
    };
    listed.truncate(top);
    Ok((listed, order))
}

/// The rows a table lists, as row indices, in its order: what the app's
/// panes are held to.
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub fn listed(p: &Profile, table: Table, opts: &TableOptions) -> Result<Vec<usize>, NoSortColumn> {
    use profx_model::ids::RowId;
    fn indices<C: DefaultOrder>(
        p: &Profile,
        rows: Rows<C>,
        opts: &TableOptions,
    ) -> Result<Vec<usize>, NoSortColumn>
    where
        C::Row: RowId,
    {
        let cols: Vec<C> = present_columns(p, rows.all.iter().copied());
        let (listed, _) = ordered(p, &rows, &cols, opts)?;
        Ok(listed.into_iter().map(RowId::index).collect())
    }
    match table {
        Table::Functions => indices(p, function_rows(p), opts),
        Table::Lines => indices(p, line_rows(p), opts),
        Table::Stacks => indices(p, stack_rows(p), opts),
        Table::Threads => {
            let rows = thread_rows(p);
            let cols: Vec<ThreadColumn> = present_columns(p, rows.all.iter().copied());
            let (listed, _) = ordered(p, &rows, &cols, opts)?;
            let at = |t: ThreadRow| rows.all.iter().position(|r| r.info.id == t.info.id);
            Ok(listed.into_iter().filter_map(at).collect())
        }
        Table::Modules => {
            let rows = module_rows(p);
            let cols: Vec<ModuleColumn> = present_columns(p, rows.all.iter().copied());
            let (listed, _) = ordered(p, &rows, &cols, opts)?;
            let at =
                |m: crate::modules::ModuleRow| rows.all.iter().position(|r| r.module == m.module);
            Ok(listed.into_iter().filter_map(at).collect())
        }
        Table::Packets => Ok(Vec::new()),
    }
}

/// The column `--sort` names, if the table can order by it (`present`:
/// the columns some row has a value in).
fn sort_column<C: Column>(key: &str, rows: &Rows<C>, present: &[C]) -> Result<C, NoSortColumn> {
    let col = C::from_key(key);
    if let Some(c) = col.filter(|c| present.contains(c)) {
        return Ok(c);
    }
    let view = rows.table.name();
    let present = if !present.is_empty() {
        let keys: Vec<&str> = present.iter().map(|c| c.key()).collect();
        format!("columns with values: {}", keys.join(", "))
    } else if rows.all.is_empty() {
        format!("this profile has no {view}")
    } else {
        "no column has values in this profile".to_string()
    };
    let key = key.to_string();
    Err(match col {
        Some(_) => NoSortColumn::Absent { key, view, present },
        None => NoSortColumn::Unknown { key, view, present },
    })
}

fn rows_table<C: DefaultOrder>(
    p: &Profile,
    rows: Rows<C>,
    opts: &TableOptions,
    path: fn(&Profile, C::Row) -> Option<String>,
    out: &mut dyn std::io::Write,
) -> Result<(), Failed> {
    let (table, total) = (rows.table, rows.all.len());
    let view = table.name();
    // Which columns show depends on every row, not only those listed.
    let cols: Vec<C> = present_columns(p, rows.all.iter().copied());
    let (rows, order) = ordered(p, &rows, &cols, opts)?;
    let mut header: Vec<String> = cols.iter().map(|c| c.header_in(p).to_string()).collect();
    let with_path = rows.first().is_some_and(|&r| path(p, r).is_some());
    if with_path {
        header.push("Path".into());
    }
    let mut kinds: Vec<ValueKind> = cols.iter().map(|c| c.value_kind()).collect();
    if with_path {
        kinds.push(ValueKind::Text);
    }
    let cells = |r: C::Row| {
        let mut cells: Vec<String> = cols.iter().map(|&c| cell(c.value(p, r))).collect();
        cells.extend(path(p, r).filter(|_| with_path));
        cells
    };
    // First pass: the widths.
    let mut widths: Vec<usize> = header.iter().map(|h| h.width()).collect();
    for &r in &rows {
        for (w, c) in widths.iter_mut().zip(cells(r)) {
            *w = (*w).max(c.width());
        }
    }
    // What the percents shown are out of (a thread's columns have none).
    let keys: Vec<&str> = cols.iter().map(|c| c.key()).collect();
    let note = session_note(p, &keys);
    writeln!(
        out,
        "# {view}: {} of {}{} · {order}{note}",
        grouped(rows.len() as u64),
        grouped(total as u64),
        query_note(opts.query.as_deref()),
    )?;
    out.write_all(line(&header, &widths, &kinds).as_bytes())?;
    // Second pass: the lines.
    for &r in &rows {
        out.write_all(line(&cells(r), &widths, &kinds).as_bytes())?;
    }
    Ok(())
}

/// One row's line: cells padded to their column's width, text left and
/// numbers right.
pub(super) fn line(row: &[String], widths: &[usize], kinds: &[ValueKind]) -> String {
    let mut line = String::new();
    for (i, c) in row.iter().enumerate() {
        let pad = " ".repeat(widths[i].saturating_sub(c.width()));
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
    let mut line = line.trim_end().to_string();
    line.push('\n');
    line
}

/// What the percents among `keys` (the columns shown) are out of.
fn session_note(p: &Profile, keys: &[&str]) -> String {
    let basis = percent_basis(p, keys);
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
    grid.iter().map(|row| line(row, &widths, kinds)).collect()
}

fn packets(p: &Profile, query: Option<&str>) -> String {
    let q = query_note(query);
    if p.packets().is_empty() {
        return format!("# packets: none{q} ({} has no trace events)\n", p.format);
    }
    let unit = p.time_unit_name();
    let mut grid = vec![vec![
        "#".to_string(),
        "Source".to_string(),
        "Events".to_string(),
        format!("First {unit}"),
        format!("Last {unit}"),
    ]];
    for (i, pk) in p.packets().iter().enumerate() {
        let ms = |x: Option<f64>| cell(Value::Ms(x));
        grid.push(vec![
            i.to_string(),
            visible(&pk.source).into_owned(),
            cell(Value::Count(Some(pk.events.len() as u64))),
            ms(pk.first_ms),
            ms(pk.last_ms),
        ]);
    }
    use ValueKind::{Number as N, Text as T};
    format!(
        "# packets: {}{q}\n{}",
        grouped(p.packets().len() as u64),
        align(&grid, &[N, T, N, N, N])
    )
}

/// `--view info`'s text: the format, the query it answers (where one was
/// asked), the sources, the file's facts, the totals and every warning.
pub fn info(p: &Profile, events: &Profile, query: Option<&str>) -> String {
    let mut out = format!("format   {}\n", p.format);
    if let Some(q) = query {
        let _ = writeln!(out, "query    {q}");
    }
    for s in &p.sources {
        let _ = writeln!(out, "source   {}", visible(s));
    }
    out.push_str("\n# meta\n");
    let totals = super::fmt::totals(p, events);
    // One column for meta's values and the totals', after the longest key
    // (`overhead_calculated`, `application ticks`), 16 at least.
    let keys = p.meta.keys().map(|k| visible(k).width());
    let w = keys
        .chain(totals.iter().map(|(k, _)| k.width()))
        .max()
        .unwrap_or(0)
        .max(16);
    for (k, v) in &p.meta {
        let k = visible(k);
        let pad = " ".repeat(w.saturating_sub(k.width()));
        let _ = writeln!(out, "{k}{pad} {}", super::fmt::meta_value(v));
    }
    out.push_str("\n# totals\n");
    for (k, v) in totals {
        let _ = writeln!(out, "{k:<w$} {v}");
    }
    let _ = writeln!(out, "\n# warnings: {}", grouped(p.warnings().len() as u64));
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
