//! The Flame pane: the icicle `analysis::flame_view` lays out, a row a
//! depth (roots on top, or at the bottom as a flame graph), each frame
//! labelled where its name fits, cut as the tables cut names (the method
//! kept, the namespace lost first), coloured by a stable hash of its name
//! (the same function, the same colour, in every run). Every frame and
//! every `…` of frames too thin to draw starts with `▏`, so no label runs
//! into the next, with colour or without: two neighbours of one colour
//! still show their boundary. A `…` fills every cell it stands for, so a
//! busy span never reads as an empty one. The last line says what the
//! selected frame holds.

use crate::analysis::calltree::Unit;
use crate::analysis::columns::Value;
use crate::analysis::flame_chart::{self, Chart};
use crate::analysis::flame_view::{self, Icicle};
use crate::analysis::search::Query;
use crate::model::Profile;
use crate::model::metrics::pct;
use crate::report::fmt::cell;
use crate::text::visible;
use crate::tui::fit::{Cut, fit, fit_cut, fit_name, full_name, put};
use crate::tui::intent::Intent;
use crate::tui::keymap::{Place, key_for};
use crate::tui::pane::flame::ChartLine;
use crate::tui::pane::{Ctx, FlamePane, inner};
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};
use unicode_width::UnicodeWidthStr;

/// Warm colours, as flame graphs draw (256-colour indexes: reds, oranges,
/// yellows); a function's is picked by the hash of its name.
const PALETTE: [u8; 8] = [167, 173, 179, 209, 215, 221, 203, 208];

fn colour(name: &str) -> Color {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    name.hash(&mut h);
    Color::Indexed(PALETTE[(h.finish() % PALETTE.len() as u64) as usize])
}

/// The pane: its bordered block, titled, and the frames (or calls).
pub(crate) fn pane(buf: &mut Buffer, area: Rect, f: &FlamePane, cx: &Ctx, theme: Theme) {
    let (title, bottom) = match f.in_chart() {
        true => chart_titles(f, cx),
        false => titles(f, cx),
    };
    Block::bordered()
        .title(Line::from(Span::styled(title, theme.title())))
        .title_bottom(Line::from(Span::styled(bottom, theme.dim())))
        .render(area, buf);
    frames(buf, inner(area), f, cx, theme);
}

/// What a frame's row reads: the profile, the search, the theme.
struct Draw<'a> {
    p: &'a Profile,
    query: Option<&'a Query>,
    theme: Theme,
    /// In a comparison, each frame's colour by its change.
    change: Option<super::differential::Change<'a>>,
}

fn frames(buf: &mut Buffer, inner: Rect, f: &FlamePane, cx: &Ctx, theme: Theme) {
    // The calls in time order are the threads' events, which no transform
    // changes: the thread choice's profile names them.
    let p = match f.in_chart() {
        true => cx
            .answer
            .profile(crate::analysis::query::Reads::TIME_ORDER)
            .as_ref(),
        false => cx.profile.as_ref(),
    };
    if p.nodes().is_empty() {
        let why = format!(
            " No flame graph: this {} profile has no call paths (it states totals per function).",
            p.format
        );
        put(buf, inner, &Line::from(why));
        return;
    }
    let d = Draw {
        p,
        query: f.search.query.as_ref(),
        theme,
        change: super::differential::of(f, cx),
    };
    if f.in_chart() {
        return chart(buf, inner, f, cx, &d);
    }
    let area = f.area(cx);
    let t = &f.tree;
    let layout = f.layout(cx);
    let caller = f.caller_selected().map(|(_, n)| n);
    let selected = f.selected_in(&layout).filter(|_| caller.is_none());
    for (i, row) in layout.rows.iter().enumerate() {
        if let Some(y) = f.screen_row(cx, i) {
            draw_row(buf, &d, &|n| t.func(n), row, (area.x, y), selected);
        }
    }
    sandwich_top(buf, f, cx, &d, caller);
    let line = Rect::new(inner.x, inner.bottom().saturating_sub(1), inner.width, 1);
    match f.caller_selected() {
        Some((callers, n)) => caller_status(buf, line, cx, &callers, n, theme),
        None => status(buf, line, f, cx, selected, theme),
    }
}

/// The sandwich's upper half: the callers, inverted (the function's
/// callers on the row above the divider, theirs above them), then the
/// divider; the function itself is drawn once, below it.
fn sandwich_top(buf: &mut Buffer, f: &FlamePane, cx: &Ctx, d: &Draw, caller: Option<u32>) {
    let (Some(up), Some(callers), Some(layout), Some(line)) = (
        f.callers_area(cx),
        f.callers.as_deref(),
        f.callers_layout(cx),
        f.divider(cx),
    ) else {
        return;
    };
    let rows = layout.rows.iter().enumerate().skip(1);
    for (i, row) in rows.take(usize::from(up.height)) {
        let at = (up.x, up.bottom() - i as u16);
        draw_row(buf, d, &|n| callers.func(n), row, at, caller);
    }
    let name = callers
        .roots()
        .first()
        .map(|n| visible(callers.func(n).name(d.p)).into_owned())
        .unwrap_or_default();
    let width = usize::from(line.width);
    let name = fit_name(&name, width / 2);
    let mut text = format!("── ▲ its callers ── ▼ {name} and its callees ");
    let room = width.saturating_sub(text.width());
    text.push_str(&"─".repeat(room));
    buf.set_stringn(line.x, line.y, fit(&text, width).0, width, d.theme.dim());
}

/// A caller selected in a sandwich: how much of the function's time came
/// through it.
fn caller_status(buf: &mut Buffer, line: Rect, cx: &Ctx, t: &Icicle, n: u32, theme: Theme) {
    let p = cx.profile.as_ref();
    let w = t.weight(n);
    let whole = flame_view::span(t, None);
    let share = cell(Value::Pct(pct(Some(w), Some(whole))));
    let mut parts = vec![amount_of(cx, w)];
    match t.parent(n) {
        None => parts.extend(["its callers above".into(), "↓ its callees".into()]),
        Some(_) => parts.extend([
            format!("{share}% of the function's time came through it"),
            format!("{}: its sandwich", key_for(&Intent::Zoom, Place::Flame)),
        ]),
    }
    let text = status_line(&full_name(p, t.func(n)), &parts, usize::from(line.width));
    let width = usize::from(line.width);
    buf.set_stringn(line.x, line.y, text, width, theme.key());
}

/// A status line, ` name · part · part`, in `width`: the name is cut to
/// keep its method, down to 16 columns, then parts are left out whole
/// from the last: a number never loses its digits or its unit.
fn status_line(name: &str, parts: &[String], width: usize) -> String {
    let len = |parts: &[String]| parts.iter().map(|s| s.width() + 3).sum::<usize>();
    let mut parts = parts.to_vec();
    while parts.len() > 1 && 1 + name.width().min(16) + len(&parts) > width {
        parts.pop();
    }
    let room = width.saturating_sub(1 + len(&parts));
    let name = fit_cut(name, room, Cut::Name).text;
    let mut text = format!(" {name}");
    for part in parts {
        text.push_str(&format!(" · {part}"));
    }
    fit(&text, width).0
}

/// A weight in the tree's unit.
fn amount_of(cx: &Ctx, w: f64) -> String {
    match cx.tree_index().unit() {
        Unit::Ms => crate::report::fmt::grouped_time(cx.profile, w),
        Unit::Count => cell(Value::Count(Some(w as u64))),
    }
}

/// One row of blocks: each frame in its colour with its name where it
/// fits, `…` in every cell of frames too thin to draw, `(outside)` for
/// time with no call open; each block's first cell a `▏`.
fn draw_row(
    buf: &mut Buffer,
    d: &Draw,
    func: &dyn Fn(u32) -> crate::analysis::cct::Label,
    row: &[flame_view::Block],
    (x0, y): (u16, u16),
    selected: Option<u32>,
) {
    let (p, query, theme) = (d.p, d.query, d.theme);
    for (i, b) in row.iter().enumerate() {
        let w = usize::from(b.width);
        // A one-cell `…` right after has no `▏` of its own: the label
        // stops a cell short of it, so a blank parts them.
        let tight = row
            .get(i + 1)
            .is_some_and(|n| n.x == b.x + b.width && is_several(n) && n.width == 1);
        // Without colour a frame is underlined across its width: where it
        // ends shows, and a gap after it reads as a gap.
        let plain = Style::default().add_modifier(Modifier::UNDERLINED);
        let (text, style) = match b.node {
            None if b.outside => (
                label(crate::analysis::flame::OUTSIDE, w, tight, Cut::End),
                match theme.color {
                    true => theme.dim(),
                    false => plain,
                },
            ),
            None => (several(w), several_style(theme)),
            Some(n) => {
                let name = visible(func(n).name(p)).into_owned();
                let style = match (theme.color, &d.change) {
                    (true, Some(change)) => change.style(n),
                    (true, None) => Style::default().bg(colour(&name)).fg(Color::Black),
                    (false, _) => plain,
                };
                let style = match query.is_some_and(|q| q.is_match(&name)) {
                    true => style.patch(theme.matched()),
                    false => style,
                };
                (label(&name, w, tight, Cut::Name), style)
            }
        };
        let style = match b.node.is_some() && b.node == selected {
            true => chosen(style, theme),
            false => style,
        };
        let x = x0 + b.x;
        buf.set_style(Rect::new(x, y, b.width, 1), style);
        buf.set_stringn(x, y, text, w, style);
    }
}

/// Whether a block stands for several frames or calls (a `…`).
fn is_several(b: &flame_view::Block) -> bool {
    b.node.is_none() && !b.outside
}

/// A block's text in `w` cells: `▏` and the name cut to what is left (a
/// cell less when `tight`); none where the cut keeps only `…`, which
/// would read as a `…` of thin frames.
fn label(name: &str, w: usize, tight: bool, cut: Cut) -> String {
    let room = w.saturating_sub(1 + usize::from(tight));
    let text = fit_cut(name, room, cut).text;
    match text.chars().all(|c| c == '…') {
        true => "▏".into(),
        false => format!("▏{text}"),
    }
}

/// A `…` of `w` cells: every cell says several frames (or calls) are
/// there, after the `▏` that parts it from the frame before.
fn several(w: usize) -> String {
    match w {
        0 | 1 => "…".into(),
        _ => format!("▏{}", "…".repeat(w - 1)),
    }
}

/// A `…`'s style: a grey box beside the coloured frames; plain without
/// colour (its `…` in every cell says what it is).
fn several_style(theme: Theme) -> Style {
    match theme.color {
        true => Style::default().bg(Color::Indexed(250)).fg(Color::Black),
        false => Style::default(),
    }
}

/// The selected frame's style over its own: reversed, a coloured frame
/// would show as text on black and lose its width, so with colour the
/// selection is white, its width kept.
fn chosen(style: Style, theme: Theme) -> Style {
    match theme.color {
        true => style
            .bg(Color::White)
            .fg(Color::Black)
            .add_modifier(Modifier::BOLD),
        false => style.add_modifier(Modifier::REVERSED | Modifier::BOLD),
    }
}

/// The selected frame: name, weight, share of the whole and of its caller
/// (in a sandwich: of the function's time).
fn status(
    buf: &mut Buffer,
    line: Rect,
    f: &FlamePane,
    cx: &Ctx,
    selected: Option<u32>,
    theme: Theme,
) {
    let p = cx.profile.as_ref();
    let Some(n) = selected else {
        return;
    };
    let t = &f.tree;
    let w = t.weight(n);
    let whole = flame_view::span(t, None);
    let pct = |part: f64, of: f64| cell(Value::Pct(pct(Some(part), Some(of))));
    let amount = amount_of(cx, w);
    let of_whole = match f.sandwich {
        Some(_) => "of the function's time",
        None => "of the total",
    };
    let mut parts = vec![amount, format!("{}% {of_whole}", pct(w, whole))];
    if let Some(q) = t.parent(n) {
        parts.push(format!("{}% of its caller", pct(w, t.weight(q))));
    }
    if let Some(change) = super::differential::of(f, cx) {
        parts.insert(1, change.said(n, cx.tree_index().unit()));
    }
    let width = usize::from(line.width);
    let text = status_line(&full_name(p, t.func(n)), &parts, width);
    buf.set_stringn(line.x, line.y, text, width, theme.key());
}

/// "Flame · sandwich of X · 2 hidden · zoomed on Y · search: y", and what
/// the width stands for.
fn titles(st: &FlamePane, cx: &Ctx) -> (String, String) {
    let p = cx.profile.as_ref();
    let t = &st.tree;
    let mut title = " Flame ".to_string();
    if let Some(f) = st.sandwich {
        title.push_str(&format!(
            "· sandwich of {} ({}: leave) ",
            visible(p.function_name(f)),
            key_for(&Intent::Sandwich, Place::Flame)
        ));
    }
    if let Some(&z) = st.zoom.last() {
        title.push_str(&format!(
            "· zoomed on {} ({}: out) ",
            visible(t.func(z).name(p)),
            key_for(&Intent::ZoomOut, Place::Flame)
        ));
    }
    if !st.search.text.is_empty() {
        title.push_str(&format!("· search: {} ", visible(&st.search.text)));
    }
    if p.nodes().is_empty() {
        // No call paths: nothing is drawn, so no width stands for anything.
        return (title, String::new());
    }
    let ix = cx.tree_index();
    let total = flame_view::span(t, st.zoom.last().copied());
    let of = match ix.unit() {
        Unit::Ms => crate::report::fmt::grouped_time(p, total),
        Unit::Count => crate::report::fmt::grouped(total as u64),
    };
    let legend = match (super::differential::of(st, cx), st.base_drawn) {
        (Some(_), false) => "· NEW's widths, red more than BASE, blue less ",
        (Some(_), true) => "· BASE's widths, red more in NEW, blue less ",
        (None, _) => "",
    };
    (title, format!(" the full width: {of} {legend}"))
}

/// The flame chart: each band's title, then its calls a depth a row, the
/// selected call's numbers on the last line.
fn chart(buf: &mut Buffer, inner: Rect, f: &FlamePane, cx: &Ctx, d: &Draw) {
    let theme = d.theme;
    let st = &f.chart;
    let Some(c) = st.chart.as_deref() else {
        return;
    };
    let area = st.area(cx);
    let selected = st.selected_call();
    let lines = st.lines(cx);
    for (i, line) in lines.iter().enumerate() {
        let y = area.y + i as u16;
        match line {
            ChartLine::Band(b) => {
                let text = band_title(c, *b);
                let w = usize::from(area.width);
                buf.set_stringn(area.x, y, fit(&text, w).0, w, theme.header_row());
            }
            ChartLine::Calls(row) => {
                let label = |n| crate::analysis::cct::Label::Func(c.call(n).func);
                draw_row(buf, d, &label, row, (area.x, y), selected);
            }
        }
    }
    thin_selection(buf, area, f, &lines, d.theme);
    let line = Rect::new(inner.x, inner.bottom().saturating_sub(1), inner.width, 1);
    let Some(id) = selected else {
        return;
    };
    let call = c.call(id);
    let p = d.p;
    let mut parts = vec![
        amount(p, c, call.duration()),
        format!("{}–{}", at(p, c, call.start), at(p, c, call.end)),
        format!("thread {}", c.bands[call.thread as usize].id),
    ];
    if let Some(q) = c.parent(id) {
        let share = pct(Some(call.duration()), Some(c.call(q).duration()));
        parts.push(format!("{}% of its caller", cell(Value::Pct(share))));
    }
    let w = usize::from(line.width);
    let name = full_name(p, crate::analysis::cct::Label::Func(call.func));
    buf.set_stringn(
        line.x,
        line.y,
        status_line(&name, &parts, w),
        w,
        theme.key(),
    );
}

/// The selected call, when it has no box of its own (thinner than a
/// cell: in a `…`, or under a wider call's cell): its cell is drawn as
/// selected, so the selection is always in sight.
fn thin_selection(buf: &mut Buffer, area: Rect, f: &FlamePane, lines: &[ChartLine], theme: Theme) {
    let st = &f.chart;
    let (Some(c), Some(id)) = (st.chart.as_deref(), st.selected_call()) else {
        return;
    };
    let Some(i) = c.row_of(id).checked_sub(st.top) else {
        return;
    };
    let Some(ChartLine::Calls(row)) = lines.get(i) else {
        return;
    };
    if row.iter().any(|b| b.node == Some(id)) {
        return;
    }
    if let Some(x) = flame_chart::cell_of(c, id, st.window(), area.width) {
        let cell = &mut buf[(area.x + x, area.y + i as u16)];
        let style = chosen(cell.style(), theme);
        cell.set_style(style);
    }
}

/// "── thread 7 · 1,204 calls ──".
fn band_title(c: &Chart, b: usize) -> String {
    let band = &c.bands[b];
    let calls = crate::report::fmt::grouped(band.calls as u64);
    let s = if band.calls == 1 { "" } else { "s" };
    format!("── thread {} · {calls} call{s} ", band.id)
}

/// A length of the chart's x: a time, or events for an untimed trace.
fn amount(p: &Profile, c: &Chart, x: f64) -> String {
    match c.timed {
        true => crate::report::fmt::grouped_time(p, x),
        false => format!("{} events", crate::report::fmt::grouped(x as u64)),
    }
}

/// A place on the chart's x: a time, or an event's place.
fn at(p: &Profile, c: &Chart, x: f64) -> String {
    match c.timed {
        true => crate::report::fmt::grouped_time(p, x),
        false => format!("#{}", crate::report::fmt::grouped(x as u64)),
    }
}

/// "Flame · time order · zoomed to 100–112 ms · search: y", and what the
/// full width stands for.
fn chart_titles(f: &FlamePane, cx: &Ctx) -> (String, String) {
    let c = f.chart.chart.clone().unwrap_or_default();
    let (from, to) = f.chart.window();
    let t = key_for(&Intent::TimeOrder, Place::Chart);
    let out = key_for(&Intent::ZoomOut, Place::Chart);
    let mut title = format!(" Flame · time order ({t}: graph) ");
    // The calls are the chosen threads' events as they ran: a transform
    // of the query changes no event, so none is drawn here.
    // A range is no step: the chart opens on it instead.
    if cx.answer.steps().next().is_some() {
        title.push_str("· as run: the query's steps not drawn ");
    }
    if (from, to) != (c.start, c.end) {
        let p = cx.profile;
        title.push_str(&format!(
            "· {}–{} ({out}: out) ",
            at(p, &c, from),
            at(p, &c, to)
        ));
    }
    if !f.search.text.is_empty() {
        title.push_str(&format!("· search: {} ", visible(&f.search.text)));
    }
    (
        title,
        format!(" the full width: {} ", amount(cx.profile, &c, to - from)),
    )
}
