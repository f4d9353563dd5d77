//! The table pane's drawing: a sortable table of model rows (the threads
//! list's too) or the events of a packet, and its split. Cells come from
//! `analysis::columns` through `report::fmt::cell`, the same digits
//! `profx report --table` prints.

use crate::analysis::columns::Value;
use crate::analysis::view::Table;
use crate::model::{Event, PacketId, StackId};
use crate::report::fmt::{cell, grouped};
use crate::text::visible;
use crate::tui::columns;
use crate::tui::fit::{
    Cut, Fitted, fit_cut, fit_names, fname, frame_title, full_name, highlighted, module_suffix,
    put, with_name,
};
use crate::tui::intent::Intent;
use crate::tui::keymap::{Place, key_for};
use crate::tui::layout::{self, Areas, MARKER, SPACING};
use crate::tui::pane::{Ctx, Focus, TablePane, Within, inner};
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};
use unicode_width::UnicodeWidthStr;

/// What a table drawn for another (the threads list) adds to it: which
/// rows are ticked (`✓` in the marker's place), and words for its frame's
/// top and bottom right, each the first of its wordings (longest first)
/// that fits beside the frame's own words, else none.
#[derive(Default)]
pub(in crate::tui) struct Extra<'a> {
    pub ticked: Option<&'a dyn Fn(u32) -> bool>,
    pub top: Vec<String>,
    pub bottom: Vec<String>,
}

/// The first of `wordings` that fits on a frame of `width` beside `left`,
/// with a space each side; none when none does.
fn beside(left: &str, wordings: &[String], width: u16) -> String {
    let room = usize::from(width).saturating_sub(left.width() + 4);
    wordings
        .iter()
        .map(|w| format!(" {w} "))
        .find(|w| w.width() <= room)
        .unwrap_or_default()
}

pub(super) fn pane(buf: &mut Buffer, a: &Areas, t: &TablePane, cx: &Ctx, theme: Theme) {
    framed(buf, a.table, t, cx, theme, &Extra::default());
    if let Some(d) = a.detail {
        super::detail::split(buf, d, t, cx, theme);
    }
}

/// The table in its frame, in `area`.
pub(super) fn framed(
    buf: &mut Buffer,
    area: Rect,
    t: &TablePane,
    cx: &Ctx,
    theme: Theme,
    extra: &Extra,
) {
    let (title, bottom) = titles(t, cx);
    // A title too long for the frame is cut with `…`, not at the corner.
    let (title, bottom) = (
        frame_title(&title, area.width),
        frame_title(&bottom, area.width),
    );
    let right = |left: &str, wordings: &[String]| {
        Line::from(Span::styled(
            beside(left, wordings, area.width),
            theme.dim(),
        ))
        .right_aligned()
    };
    Block::bordered()
        .title(Line::from(Span::styled(title.clone(), theme.title())))
        .title(right(&title, &extra.top))
        .title_bottom(Line::from(Span::styled(bottom.clone(), theme.dim())))
        .title_bottom(right(&bottom, &extra.bottom))
        .render(area, buf);
    let inner = inner(area);
    let p = cx.profile;
    match (t.table, t.within) {
        (_, Within::Packet(k)) => events(buf, inner, t, cx, k, theme),
        (Table::Packets, _) if p.packets().is_empty() => {
            let why = format!(
                " No trace events: {} profiles hold totals per function, not the events of a run.",
                p.format
            );
            put(buf, inner, &Line::from(why));
        }
        _ if t.rows.is_empty() => put(buf, inner, &Line::from(empty_reason(t, cx))),
        _ => rows_table(buf, inner, (t, cx), theme, extra.ticked),
    }
}

/// Why a table shows no rows.
fn empty_reason(t: &TablePane, cx: &Ctx) -> String {
    let what = match t.table {
        Table::Functions => "functions",
        Table::Lines => "lines",
        Table::Stacks => "stacks",
        Table::Packets => "rows",
        Table::Threads => "threads",
        Table::Modules => "modules",
    };
    if t.total > 0 {
        let place = match t.table {
            Table::Threads => Place::Threads,
            _ => Place::Everywhere,
        };
        let esc = key_for(&Intent::Cancel, place);
        format!(" No {what} match the filter: {esc} clears it.")
    } else if t.about().is_some() {
        format!(" No {what} for this function.")
    } else {
        let because = crate::report::fmt::empty_because(cx.profile, what);
        format!(" No {what}: {because}.")
    }
}

/// "Functions 19/19 · sort: Incl ms ▼ · filter: none" (a time column
/// named with the profile's unit), and what the
/// percents are out of.
fn titles(t: &TablePane, cx: &Ctx) -> (String, String) {
    let p = cx.profile;
    let mut title = format!(" {} ", t.step_name(cx));
    title.push_str(&format!(
        "{}/{}",
        grouped(t.rows.len() as u64),
        grouped(t.total as u64)
    ));
    if let Some((col, desc)) = t.sort {
        title.push_str(&format!(
            " · sort: {} {}",
            col.header_in(p),
            if desc { "▼" } else { "▲" }
        ));
    }
    let filter = match t.search.text.is_empty() {
        true => "none".to_string(),
        false => visible(&t.search.text).into_owned(),
    };
    title.push_str(&format!(" · filter: {filter} "));
    let Some(table) = t.columns_of() else {
        let legend = match t.within {
            Within::Packet(k) => ops_legend(t, cx, k),
            _ => None,
        };
        return (title, legend.unwrap_or_default());
    };
    let mut bottom = String::new();
    let placed = t.placed(cx);
    // The selected row's name, whole, when its cell cuts it.
    let cols = &cx.columns(table).cols;
    if let Some(row) = t.selected() {
        // The column a row is named by (a function's name, a packet's
        // source): the one a search matches.
        let col = columns::search_column(table, p, row);
        let mut name = cell(col.value(cx.src(), row));
        if let Some(m) = columns::shared_module(col, p, row) {
            name.push_str(&format!(" [{m}]"));
        }
        let room = placed
            .iter()
            .find(|at| cols[at.col] == col)
            .map(|at| at.width);
        if room.is_some_and(|w| name.width() > usize::from(w)) {
            bottom = name;
        }
    }
    let whole_name = std::mem::take(&mut bottom);
    let basis = super::detail::percent_basis(t, cx);
    if !basis.is_empty() {
        bottom.push_str(&format!(" {basis} "));
    }
    // Columns off to the side are said from the start, on the frame,
    // where no column's heading covers it.
    let right = cols.len().saturating_sub(placed.len() + t.hscroll);
    let mut sides = Vec::new();
    if t.hscroll > 0 {
        sides.push(format!("← {} more", t.hscroll));
    }
    if right > 0 {
        sides.push(format!("{right} more →"));
    }
    if !sides.is_empty() {
        bottom.push_str(&format!("─ columns: {} ", sides.join(", ")));
    }
    let frame = usize::from(t.areas(cx).table.width.saturating_sub(4));
    (title, with_name(&whole_name, bottom, frame))
}

/// The rows of a table of columns (not events): its headings, then a line
/// a row on screen; `ticked` rows marked `✓`.
fn rows_table(
    buf: &mut Buffer,
    inner: Rect,
    (v, cx): (&TablePane, &Ctx),
    theme: Theme,
    ticked: Option<&dyn Fn(u32) -> bool>,
) {
    let pane = cx.columns(v.table);
    let stacks = v.table == Table::Stacks;
    let area = layout::columns_area(stacks, inner);
    let placed = layout::place_columns(area, &pane.cols, &pane.widths, v.hscroll);
    let path_x = headings(buf, inner, (v, cx), &placed, theme);
    let shown: Vec<u32> = (0..inner.height.saturating_sub(1) as usize)
        .map_while(|i| v.rows.get(v.offset + i))
        .collect();
    let cells = visible_cells(&shown, (v, cx), &placed);
    for (i, (&row, cells)) in shown.iter().zip(cells).enumerate() {
        let y = inner.y + 1 + i as u16;
        let selected = v.offset + i == v.cursor;
        let base = row_style(selected, v.focus == Focus::Table, theme);
        buf.set_style(Rect::new(inner.x, y, inner.width, 1), base);
        let mark = match (ticked.is_some_and(|t| t(row)), selected) {
            (true, _) => "✓",
            (false, true) => "▶",
            (false, false) => "",
        };
        buf.set_stringn(inner.x, y, mark, usize::from(MARKER), base);
        row_cells(buf, (y, row, base), (v, cx), (&placed, cells), theme);
        if let Some(path_x) = path_x {
            let width = inner.right() - path_x;
            let id = StackId::from_index(row as usize);
            let line = stack_path(cx.profile, id, v.about(), usize::from(width), base, theme);
            buf.set_line(path_x, y, &line, width);
        }
    }
}

/// The headings of the columns placed, the sort column's marked; where a
/// Stacks row's path starts, when there is room for it.
fn headings(
    buf: &mut Buffer,
    inner: Rect,
    (v, cx): (&TablePane, &Ctx),
    placed: &[layout::Placed],
    theme: Theme,
) -> Option<u16> {
    let pane = cx.columns(v.table);
    for at in placed {
        let col = pane.cols[at.col];
        let sorted = v.sort.is_some_and(|(c, _)| c == col);
        let style = if sorted {
            theme.sorted_header()
        } else {
            theme.header_row()
        };
        let head = col.header_in(cx.profile);
        let x = if col.is_number() {
            at.x + at.width - head.width() as u16
        } else {
            at.x
        };
        buf.set_stringn(x, inner.y, head, usize::from(at.width), style);
    }
    let path_x = placed
        .last()
        .map_or(inner.x, |at| at.x + at.width + SPACING + 1);
    let with_path = v.table == Table::Stacks && path_x + 8 < inner.right();
    if with_path {
        let w = usize::from(inner.right() - path_x);
        buf.set_stringn(path_x, inner.y, "Path (root › leaf)", w, theme.header_row());
    }
    with_path.then_some(path_x)
}

/// A cell as drawn: its whole text, what is shown of it, and the module
/// written after it (a stack's leaf whose name another module's function
/// shares).
struct Shown {
    text: String,
    fitted: Fitted,
    module: Option<String>,
}

/// The cells of the rows on screen, in the columns placed: a name column's
/// (`Cut::Name`) cut together, so no two rows read the same where their
/// names differ (`fit_names`); the others each alone.
fn visible_cells(
    shown: &[u32],
    (v, cx): (&TablePane, &Ctx),
    placed: &[layout::Placed],
) -> Vec<Vec<Shown>> {
    let (p, src) = (cx.profile, cx.src());
    let cols = &cx.columns(v.table).cols;
    let mut rows: Vec<Vec<Shown>> = shown.iter().map(|_| Vec::new()).collect();
    for at in placed {
        let col = cols[at.col];
        let width = usize::from(at.width);
        let cut = columns::cut(col);
        let mut cells: Vec<(String, Option<String>, usize)> = shown
            .iter()
            .map(|&row| {
                let text = cell(col.value(src, row));
                match columns::shared_module(col, p, row) {
                    // A module after the text takes its room first.
                    Some(m) => {
                        let (suffix, room) = module_suffix(text.width(), &m, width);
                        (text, Some(suffix), room)
                    }
                    None => (text, None, width),
                }
            })
            .collect();
        let fitted = match cut {
            Cut::Name => {
                let names: Vec<(&str, usize)> = cells
                    .iter()
                    .map(|(t, _, room)| (t.as_str(), *room))
                    .collect();
                fit_names(&names)
            }
            _ => cells
                .iter()
                .map(|(t, _, room)| fit_cut(t, *room, cut))
                .collect(),
        };
        for ((row, (text, module, _)), fitted) in rows.iter_mut().zip(cells.drain(..)).zip(fitted) {
            row.push(Shown {
                text,
                fitted,
                module,
            });
        }
    }
    rows
}

/// One row's cells in the columns placed, the search's matches lit.
fn row_cells(
    buf: &mut Buffer,
    (y, row, base): (u16, u32, Style),
    (v, cx): (&TablePane, &Ctx),
    (placed, cells): (&[layout::Placed], Vec<Shown>),
    theme: Theme,
) {
    let p = cx.profile;
    let pane = cx.columns(v.table);
    let search_col = columns::search_column(v.table, p, row);
    for (at, shown) in placed.iter().zip(cells) {
        let col = pane.cols[at.col];
        let positions = match (&v.search.query, col == search_col) {
            (Some(q), true) => q
                .matches(&shown.text)
                .map(|m| m.positions)
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let how = (col.is_number(), shown.module);
        draw_cell(
            buf,
            (at.x, y, at.width),
            &shown.fitted,
            how,
            &positions,
            base,
            theme,
        );
    }
}

fn row_style(selected: bool, focused: bool, theme: Theme) -> Style {
    if selected {
        theme.selected(focused)
    } else {
        theme.base()
    }
}

/// Writes one cell as fitted: numbers right-aligned, the module after the
/// text dim, matched characters highlighted.
fn draw_cell(
    buf: &mut Buffer,
    (x, y, width): (u16, u16, u16),
    fitted: &Fitted,
    (number, suffix): (bool, Option<String>),
    positions: &[usize],
    base: Style,
    theme: Theme,
) {
    let positions: Vec<usize> = positions
        .iter()
        .filter_map(|&i| fitted.position(i))
        .collect();
    let mut spans = highlighted(&fitted.text, &positions, base, theme.matched());
    spans.extend(suffix.map(|s| Span::styled(s, theme.on(base, theme.dim()))));
    let line = Line::from(spans);
    let w = line.width() as u16;
    let x = if number {
        x + width.saturating_sub(w)
    } else {
        x
    };
    buf.set_line(x, y, &line, width);
}

/// A stack's frames, root first, the drilled-into function marked. When
/// the path is wider than `width`, frames are left out (`…`) around the
/// marked function (the leaf when none is), which always stays in view.
fn stack_path<'a>(
    p: &crate::model::Profile,
    s: StackId,
    marked: Option<crate::model::FuncId>,
    width: usize,
    base: Style,
    theme: Theme,
) -> Line<'a> {
    let frames = p.frames(s);
    // A frame whose name another module's function shares carries its
    // module, as the leaf does.
    let names: Vec<String> = frames
        .iter()
        .map(|&f| full_name(p, crate::analysis::cct::Label::Func(f)))
        .collect();
    let at = marked
        .and_then(|m| frames.iter().position(|&f| f == m))
        .unwrap_or(frames.len().saturating_sub(1));
    let mut names = names;
    let (lo, hi) = path_window(&names, at, width);
    // A frame wider than the room alone is cut keeping its method, never
    // at the frame's edge.
    if lo == hi && names.get(at).is_some_and(|n| n.width() + 2 > width) {
        let marks = 2 + 4 * usize::from(at > 0) + 4 * usize::from(at + 1 < names.len());
        names[at] = fit_cut(&names[at], width.saturating_sub(marks), Cut::Name).text;
    }
    let sep = || Span::styled(" › ", theme.on(base, theme.dim()));
    let mut spans = Vec::new();
    if lo > 0 {
        spans.extend([Span::styled("…", theme.on(base, theme.dim())), sep()]);
    }
    for i in lo..=hi.min(names.len().saturating_sub(1)) {
        if i > lo {
            spans.push(sep());
        }
        if Some(frames[i]) == marked {
            spans.push(Span::styled(
                format!("[{}]", names[i]),
                theme.on(base, theme.marked()),
            ));
        } else {
            spans.push(Span::styled(names[i].clone(), base));
        }
    }
    if hi + 1 < names.len() {
        spans.extend([sep(), Span::styled("…", theme.on(base, theme.dim()))]);
    }
    Line::from(spans)
}

/// The frames `lo..=hi` around `at` that fit in `width` with separators,
/// the marked frame's brackets and elision marks; grows toward the root
/// first.
fn path_window(names: &[String], at: usize, width: usize) -> (usize, usize) {
    let last = names.len().saturating_sub(1);
    let fits = |lo: usize, hi: usize| {
        let names_w: usize = names[lo..=hi].iter().map(|n| n.width()).sum();
        let seps = 3 * (hi - lo);
        let marks = 4 * usize::from(lo > 0) + 4 * usize::from(hi < last);
        names_w + seps + marks + 2 <= width
    };
    let (mut lo, mut hi) = (at.min(last), at.min(last));
    loop {
        if lo > 0 && fits(lo - 1, hi) {
            lo -= 1;
        } else if hi < last && fits(lo, hi + 1) {
            hi += 1;
        } else {
            return (lo, hi);
        }
    }
}

/// Column widths of the events table: #, thread, time, op, call, line.
fn event_widths(n: usize, inner: Rect) -> [u16; 6] {
    let index = grouped(n as u64).len().max(1) as u16;
    let fixed = index + 7 + 12 + 7 + 7 + MARKER + 6 * SPACING;
    let call = inner.width.saturating_sub(fixed) * 3 / 5;
    [index, 7, 12, 7, call.max(10), 7]
}

fn events(buf: &mut Buffer, inner: Rect, v: &TablePane, cx: &Ctx, k: PacketId, theme: Theme) {
    let source = &cx.profile.packet(k).events;
    let widths = event_widths(source.len(), inner);
    // The op column holds the trace's own letters; the frame's foot says
    // what they mean (`ops_legend`).
    let time = format!("Time {}", cx.profile.time_unit_name());
    let heads = ["#", "Thread", &time, "Op", "Call", "Line", "Params"];
    let mut xs = Vec::new();
    let mut x = inner.x + MARKER;
    for w in widths {
        xs.push(x);
        x += w + SPACING;
    }
    xs.push(x);
    let width = |c: usize| {
        widths
            .get(c)
            .copied()
            .unwrap_or(inner.right().saturating_sub(xs[c]))
    };
    for (i, h) in heads.iter().enumerate() {
        let w = width(i);
        let hx = match matches!(i, 0 | 1 | 2 | 5) {
            true => xs[i] + w - h.width() as u16,
            false => xs[i],
        };
        buf.set_stringn(hx, inner.y, h, usize::from(w), theme.header_row());
    }
    let rows = event_rows(v, cx, k, inner, usize::from(widths[4]));
    for (i, (cells, call, indent)) in rows.into_iter().enumerate() {
        let y = inner.y + 1 + i as u16;
        let selected = v.offset + i == v.cursor;
        let base = row_style(selected, true, theme);
        buf.set_style(Rect::new(inner.x, y, inner.width, 1), base);
        if selected {
            buf.set_stringn(inner.x, y, "▶", 1, base);
        }
        for (c, text) in cells.iter().enumerate() {
            let at = (xs[c], y, width(c));
            let numeric = matches!(c, 0 | 1 | 2 | 5);
            if c != 4 {
                let fitted = fit_cut(text, usize::from(at.2), Cut::End);
                draw_cell(buf, at, &fitted, (numeric, None), &[], base, theme);
                continue;
            }
            let positions: Vec<usize> = match &v.search.query {
                Some(q) => q.matches(text).map(|m| m.positions).unwrap_or_default(),
                None => Vec::new(),
            };
            let positions: Vec<usize> = positions
                .iter()
                .filter_map(|&i| call.position(i))
                .map(|i| i + indent)
                .collect();
            let mut line = vec![Span::styled(" ".repeat(indent), base)];
            line.extend(highlighted(&call.text, &positions, base, theme.matched()));
            buf.set_line(at.0, y, &Line::from(line), at.2);
        }
    }
}

/// The events on screen: each one's cells, its call cut (the calls cut
/// together, so no two read the same where their functions differ), and
/// the call's indent (its depth, at most half the column).
fn event_rows(
    v: &TablePane,
    cx: &Ctx,
    k: PacketId,
    inner: Rect,
    call_w: usize,
) -> Vec<([String; 7], Fitted, usize)> {
    let source = &cx.profile.packet(k).events;
    let rows: Vec<([String; 7], usize)> = (0..usize::from(inner.height.saturating_sub(1)))
        .map_while(|i| v.rows.get(v.offset + i))
        .map(|index| {
            let index = index as usize;
            let e = source.get(index);
            let depth = source.depth(index).unwrap_or(0) as usize;
            let indent = (2 * depth).min(call_w / 2);
            (event_cells(cx.profile, index, e.as_ref()), indent)
        })
        .collect();
    let names: Vec<(&str, usize)> = rows
        .iter()
        .map(|(cells, indent)| (cells[4].as_str(), call_w - indent))
        .collect();
    let calls = fit_names(&names);
    rows.into_iter()
        .zip(calls)
        .map(|((cells, indent), call)| (cells, call, indent))
        .collect()
}

/// What a trace's ops mean (formats.md § xpp), for the frame's foot, when
/// the events on screen have them.
fn ops_legend(t: &TablePane, cx: &Ctx, k: PacketId) -> Option<String> {
    let source = &cx.profile.packet(k).events;
    let has_ops = (0..t.page(cx))
        .map_while(|i| t.rows.get(t.offset + i))
        .filter_map(|index| source.get(index as usize))
        .any(|e| matches!(e.op.as_str(), "i" | "I" | "O" | "o"));
    has_ops.then(|| " Op: i about to enter · I entered · O about to return · o returned ".into())
}

/// The cells of one event; an event that no longer decodes says so.
fn event_cells(p: &crate::model::Profile, index: usize, e: Option<&Event>) -> [String; 7] {
    let n = grouped(index as u64);
    let Some(e) = e else {
        return [
            n,
            String::new(),
            String::new(),
            String::new(),
            "(unreadable)".into(),
            String::new(),
            String::new(),
        ];
    };
    let call = e.function.map_or("—".into(), |f| fname(p, f));
    [
        n,
        cell(Value::Count(e.thread)),
        cell(Value::Ms(e.time_ms)),
        visible(&e.op).into_owned(),
        call,
        cell(Value::Ordinal(e.line.map(u64::from))),
        e.params
            .as_deref()
            .map_or(String::new(), |s| visible(s).into_owned()),
    ]
}
