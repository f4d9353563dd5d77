//! A pane as CSV, for spreadsheets, DuckDB and pandas: `export --to csv`
//! writes a whole view in canonical order; the app's `e` writes the rows
//! its pane shows, filtered and sorted as on screen.
//!
//! - The header is each column's `--json` key (`elapsed_inclusive_ms`), so
//!   a query names columns as the JSON report does, but a time's names
//!   its profile's unit (`elapsed_inclusive_ticks`: `Column::key_in`), as
//!   a CSV file has no other place to say it; columns the profile never
//!   fills are left out, as on screen.
//! - Numbers are written in full (no thousands separators, no rounding):
//!   counts as integers, times and percents in their shortest exact form.
//!   An absent value is an empty cell, which DuckDB and pandas read as NULL.
//! - Text is shown as on screen (controls as escapes). A name starting
//!   with `=`, `+`, `-` or `@` gets a leading `'` (OWASP's rule against
//!   CSV formula injection): a spreadsheet shows it as text instead of
//!   running it.

use crate::columns::{
    Column, FuncColumn, LineColumn, ModuleColumn, PacketColumn, StackColumn, ThreadColumn, Value,
    present_columns,
};
use crate::modules::module_rows;
use crate::query::thread_rows;
use crate::sort::canonical_rows;
use crate::view::Table;
use profx_model::ids::RowId;
use profx_model::text::visible;
use profx_model::{PacketId, Profile, StackId};
use std::io::Write;

/// A whole table in canonical order (report-json.md).
pub fn write_view(p: &Profile, table: Table, out: &mut dyn Write) -> Result<String, csv::Error> {
    let rows = canonical_rows(p, table);
    write_rows(p, table, &mut rows.into_iter(), out)
}

/// The given rows (indices of the table's row type) in the given order.
pub fn write_rows(
    p: &Profile,
    table: Table,
    rows: &mut dyn Iterator<Item = u32>,
    out: &mut dyn Write,
) -> Result<String, csv::Error> {
    let mut w = csv::Writer::from_writer(out);
    let n = match table {
        Table::Functions => write_ids::<FuncColumn>(p, p.functions().len(), rows, None, &mut w)?,
        Table::Lines => write_ids::<LineColumn>(p, p.lines().len(), rows, None, &mut w)?,
        Table::Stacks => write_ids::<StackColumn>(p, p.stacks().len(), rows, Some(path), &mut w)?,
        Table::Packets => write_ids::<PacketColumn>(p, p.packets().len(), rows, None, &mut w)?,
        // A thread row is its threads list's row (its heaviest function a
        // walk of the time order), made once here.
        Table::Threads => {
            let all = thread_rows(p);
            let mut each = rows.filter_map(|r| all.get(r as usize).copied());
            write_table::<ThreadColumn>(p, all.iter().copied(), &mut each, None, &mut w)?
        }
        Table::Modules => {
            let all = module_rows(p);
            let mut each = rows.filter_map(|r| all.get(r as usize).copied());
            write_table::<ModuleColumn>(p, all.iter().copied(), &mut each, None, &mut w)?
        }
    };
    w.flush()?;
    Ok(crate::report::fmt::counted(n as u64, table.name()))
}

/// `write_table` of a row type whose rows are ids (`count` of them).
fn write_ids<C: Column>(
    p: &Profile,
    count: usize,
    rows: &mut dyn Iterator<Item = u32>,
    extra: Option<fn(&Profile, C::Row) -> String>,
    w: &mut csv::Writer<&mut dyn Write>,
) -> Result<usize, csv::Error>
where
    C::Row: RowId,
{
    let all = (0..count).map(C::Row::from_index);
    let mut rows = rows.map(|r| C::Row::from_index(r as usize));
    write_table::<C>(p, all, &mut rows, extra, w)
}

/// The header and rows of one row type (`all` of them decide which
/// columns show); `extra` adds a last column (`path` of a stack).
fn write_table<C: Column>(
    p: &Profile,
    all: impl Iterator<Item = C::Row>,
    rows: &mut dyn Iterator<Item = C::Row>,
    extra: Option<fn(&Profile, C::Row) -> String>,
    w: &mut csv::Writer<&mut dyn Write>,
) -> Result<usize, csv::Error> {
    let cols: Vec<C> = present_columns(p, all);
    let mut head: Vec<std::borrow::Cow<'static, str>> = cols.iter().map(|c| c.key_in(p)).collect();
    if extra.is_some() {
        head.push("path".into());
    }
    w.write_record(head.iter().map(|h| h.as_bytes()))?;
    let mut n = 0;
    let mut record = Vec::with_capacity(head.len());
    for r in rows {
        record.clear();
        record.extend(cols.iter().map(|&c| field(c.value(p, r))));
        record.extend(extra.map(|f| f(p, r)));
        w.write_record(&record)?;
        n += 1;
    }
    Ok(n)
}

/// A stack's frames, root first, `;` between them (as in folded stacks).
fn path(p: &Profile, s: StackId) -> String {
    let names: Vec<_> = p
        .frames(s)
        .iter()
        .map(|&f| visible(p.function_name(f)))
        .collect();
    names.join(";")
}

/// One cell: a number in full, absent as empty, text made safe.
pub fn field(v: Value<'_>) -> String {
    match v {
        Value::Text(t) => text(t),
        Value::Count(Some(n)) | Value::Ordinal(Some(n)) => n.to_string(),
        Value::Ms(Some(x)) | Value::Pct(Some(x)) if x.is_finite() => format!("{x}"),
        Value::Count(None) | Value::Ordinal(None) | Value::Ms(_) | Value::Pct(_) => String::new(),
    }
}

fn text(t: &str) -> String {
    let shown = visible(t);
    if shown.starts_with(['=', '+', '-', '@']) {
        format!("'{shown}")
    } else {
        shown.into_owned()
    }
}

/// A packet's events (`rows` are event indices), as the trace pane lists
/// them.
pub fn write_events(
    p: &Profile,
    packet: PacketId,
    rows: &mut dyn Iterator<Item = usize>,
    out: &mut dyn Write,
) -> Result<String, csv::Error> {
    let mut w = csv::Writer::from_writer(out);
    let time = crate::columns::time_key("time", p);
    w.write_record(["index", "thread", &time, "op", "function", "line", "params"])?;
    let events = &p.packet(packet).events;
    let mut n = 0;
    for i in rows {
        let Some(e) = events.get(i) else { continue };
        let opt = |x: Option<String>| x.unwrap_or_default();
        w.write_record([
            i.to_string(),
            opt(e.thread.map(|t| t.to_string())),
            field(Value::Ms(e.time_ms)),
            text(&e.op),
            e.function
                .map_or(String::new(), |f| text(p.function_name(f))),
            opt(e.line.map(|l| l.to_string())),
            e.params.as_deref().map(text).unwrap_or_default(),
        ])?;
        n += 1;
    }
    w.flush()?;
    Ok(crate::report::fmt::counted(n as u64, "events"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_full_numbers_empty_when_absent_and_inert_text() {
        assert_eq!(field(Value::Count(Some(3010))), "3010");
        assert_eq!(
            field(Value::Ms(Some(2337.4736000000016))),
            "2337.4736000000016"
        );
        assert_eq!(field(Value::Pct(Some(42.0))), "42");
        assert_eq!(field(Value::Ms(None)), "");
        assert_eq!(field(Value::Ms(Some(f64::INFINITY))), "");
        assert_eq!(
            field(Value::Text("=HYPERLINK(\"x\")")),
            "'=HYPERLINK(\"x\")"
        );
        assert_eq!(field(Value::Text("@SUM(A1)")), "'@SUM(A1)");
        assert_eq!(field(Value::Text("esc\x1b[2J")), "esc\\x1b[2J");
        assert_eq!(field(Value::Text("operator+")), "operator+");
    }
}
