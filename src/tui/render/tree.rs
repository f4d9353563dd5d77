//! The Call tree pane: the rows on screen of the view's `CallTree`, each
//! indented by its depth with ▸ (closed) or ▾ (open), then total and self
//! weight with their percents, a bar, and the calls or samples. Numbers are
//! written by `report::fmt::cell`, as every table's are.
//!
//! A path deeper than a third of the name column would push the names off
//! the screen: past that, the indent stops growing and the row says its
//! depth (`1204›`) instead.

use super::theme::Theme;
use super::{fit, put};
use crate::analysis::calltree::{CallTree, Direction, TreeCol, Unit, Values};
use crate::analysis::columns::Value;
use crate::report::fmt::cell;
use crate::text::visible;
use crate::tui::layout::{MARKER, SPACING};
use crate::tui::pane::{Ctx, TreePane, inner};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};
use unicode_width::UnicodeWidthStr;

/// A number column: its heading, width and what it shows.
struct NumCol {
    head: &'static str,
    width: u16,
    sort: Option<TreeCol>,
    what: What,
}

#[derive(Clone, Copy)]
enum What {
    Total,
    TotalPct,
    Bar,
    SelfW,
    SelfPct,
    Share,
    Count,
}

fn columns(t: &CallTree, count_head: &'static str, wide: bool) -> Vec<NumCol> {
    let ms = t.index().unit() == Unit::Ms;
    let col = |head, width, sort, what| NumCol {
        head,
        width,
        sort,
        what,
    };
    let mut cols = match t.direction {
        Direction::TopDown => vec![
            col(
                if ms { "Total ms" } else { "Total" },
                12,
                Some(TreeCol::Total),
                What::Total,
            ),
            col("Total%", 7, None, What::TotalPct),
            col(
                if ms { "Self ms" } else { "Self" },
                12,
                Some(TreeCol::SelfW),
                What::SelfW,
            ),
            col("Self%", 7, None, What::SelfPct),
        ],
        Direction::BottomUp => vec![
            col(
                if ms { "Self ms" } else { "Self" },
                12,
                Some(TreeCol::Total),
                What::Total,
            ),
            col("Self%", 7, None, What::TotalPct),
            col("Of func%", 9, None, What::Share),
        ],
    };
    if wide {
        cols.insert(2, col("", 12, None, What::Bar));
    }
    if t.index().unit() == Unit::Ms {
        cols.push(col(count_head, 10, Some(TreeCol::Count), What::Count));
    }
    cols
}

/// The pane: its bordered block, titled, and the rows on screen.
pub fn pane(buf: &mut Buffer, area: Rect, v: &TreePane, cx: &Ctx, theme: Theme) {
    let (title, bottom) = titles(cx, v);
    Block::bordered()
        .title(Line::from(Span::styled(title, theme.title())))
        .title_bottom(Line::from(Span::styled(bottom, theme.dim())))
        .render(area, buf);
    rows(buf, inner(area), v, cx, theme);
}

fn rows(buf: &mut Buffer, inner: Rect, v: &TreePane, cx: &Ctx, theme: Theme) {
    let p = cx.profile.as_ref();
    let t = v.tree.as_ref();
    // A profile without call paths has only `(no call path)`: the pane
    // says so, as the Stacks and Flame panes do (the exports and `report
    // --view tree` list its functions' self time under that root).
    if t.rows.is_empty() || p.nodes().is_empty() {
        let why = format!(
            " No call tree: this {} profile has no call paths (it states totals per function).",
            p.format
        );
        put(buf, inner, &Line::from(why));
        return;
    }
    let count_head = if p.totals.samples.is_some() {
        "Samples"
    } else {
        "Calls"
    };
    let wide = inner.width >= 110;
    let cols = columns(t, count_head, wide);
    let numbers: u16 = cols.iter().map(|c| c.width + SPACING).sum();
    let name_w = inner.width.saturating_sub(numbers + MARKER);
    let name_x = inner.x + MARKER;
    headings(buf, (inner, name_w), t, &cols, theme);
    for (i, y) in (inner.y + 1..inner.bottom()).enumerate() {
        let at = v.offset + i;
        let Some(r) = t.rows.get(at) else {
            break;
        };
        let selected = at == v.cursor;
        let base = match selected {
            true => theme.selected(true),
            false => theme.base(),
        };
        buf.set_style(Rect::new(inner.x, y, inner.width, 1), base);
        if selected {
            buf.set_stringn(inner.x, y, "▶", usize::from(MARKER), base);
        }
        let name = visible(t.label(p, r.id).name(p));
        let label = row_label(t, r.id, r.depth, name_w, &name);
        let style = if t.marked.contains(&r.id) {
            theme.on(base, theme.matched())
        } else {
            base
        };
        buf.set_stringn(
            name_x,
            y,
            fit(&label, usize::from(name_w)).0,
            usize::from(name_w),
            style,
        );
        let values = t.values(p, r.id);
        let mut x = name_x + name_w;
        for c in &cols {
            x += SPACING;
            let text = number(t, c.what, &values, c.width);
            let tx = x + c.width.saturating_sub(text.width() as u16);
            let style = match c.what {
                What::Bar => theme.on(base, theme.bar()),
                _ => base,
            };
            let tx = if matches!(c.what, What::Bar) { x } else { tx };
            buf.set_stringn(tx, y, text, usize::from(c.width), style);
            x += c.width;
        }
    }
}

/// The headings: the name's (its direction) and each number column's,
/// the sort column's marked.
fn headings(
    buf: &mut Buffer,
    (inner, name_w): (Rect, u16),
    t: &CallTree,
    cols: &[NumCol],
    theme: Theme,
) {
    let name_x = inner.x + MARKER;
    let head = match t.direction {
        Direction::TopDown => "Function (callees below)",
        Direction::BottomUp => "Function (callers below)",
    };
    let style = |sorted: bool| match sorted {
        true => theme.sorted_header(),
        false => theme.header_row(),
    };
    let name_style = style(t.sort.0 == TreeCol::Name);
    buf.set_stringn(name_x, inner.y, head, usize::from(name_w), name_style);
    let mut x = name_x + name_w;
    for c in cols {
        x += SPACING;
        let hx = x + c.width.saturating_sub(c.head.width() as u16);
        let st = style(c.sort == Some(t.sort.0));
        buf.set_stringn(hx, inner.y, c.head, usize::from(c.width), st);
        x += c.width;
    }
}

/// Indent, ▸/▾ and the name.
fn row_label(t: &CallTree, id: u32, depth: u32, name_w: u16, name: &str) -> String {
    let cap = usize::from(name_w / 3);
    let indent = depth as usize * 2;
    let lead = if indent <= cap {
        " ".repeat(indent)
    } else {
        let tag = format!("{depth}› ");
        format!("{}{tag}", " ".repeat(cap.saturating_sub(tag.width())))
    };
    let mark = match (t.has_children(id), t.is_open(id)) {
        (true, true) => "▾ ",
        (true, false) => "▸ ",
        (false, _) => "  ",
    };
    format!("{lead}{mark}{name}")
}

fn number(t: &CallTree, what: What, v: &Values, width: u16) -> String {
    let weight = |x: Option<f64>| match t.index().unit() {
        Unit::Ms => cell(Value::Ms(x)),
        Unit::Count => cell(Value::Count(x.map(|x| x as u64))),
    };
    match what {
        What::Total => weight(v.total),
        What::SelfW => weight(v.self_w),
        What::TotalPct => cell(Value::Pct(t.percent(v.total))),
        What::SelfPct => cell(Value::Pct(t.percent(v.self_w))),
        What::Share => cell(Value::Pct(v.share)),
        What::Count => cell(Value::Count(v.count)),
        What::Bar => {
            let pct = t.percent(v.total).unwrap_or(0.0).clamp(0.0, 100.0);
            let cells = (pct / 100.0 * f64::from(width)).round() as usize;
            "█".repeat(cells)
        }
    }
}

/// "Call tree · top-down · 1,204 rows · sort: total ▼ · search: x" (the
/// sort named as its column's heading names it),
/// and what the percents are out of.
fn titles(cx: &Ctx, v: &TreePane) -> (String, String) {
    let t = v.tree.as_ref();
    let dir = match t.direction {
        Direction::TopDown => "top-down",
        Direction::BottomUp => "bottom-up",
    };
    let col = v.sort_name(cx.profile);
    let mut title = format!(
        " {} · {dir} · {} · sort: {col} {} ",
        v.step_name(cx),
        crate::report::fmt::counted(t.rows.len() as u64, "rows"),
        if t.sort.1 { "▼" } else { "▲" }
    );
    if !v.search.text.is_empty() {
        title.push_str(&format!("· search: {} ", visible(&v.search.text)));
    }
    let of = match t.index().unit() {
        Unit::Ms => crate::report::fmt::grouped_ms(t.index().total),
        Unit::Count => crate::report::fmt::grouped(t.index().total as u64),
    };
    (title, format!(" % of {of} "))
}
