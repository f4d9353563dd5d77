//! The Flame pane: the icicle `analysis::flame_view` lays out, a row a
//! depth, each frame labelled where its name fits, coloured by a stable
//! hash of its name (the same function, the same colour, in every run).
//! Under `NO_COLOR` each frame starts with `▏`, so the boundaries show
//! without colour. The last line says what the selected frame holds.

use crate::analysis::calltree::Unit;
use crate::analysis::columns::Value;
use crate::analysis::flame_chart::Chart;
use crate::analysis::flame_view::{self, Icicle};
use crate::analysis::search::Query;
use crate::model::Profile;
use crate::model::metrics::pct;
use crate::report::fmt::cell;
use crate::text::visible;
use crate::tui::fit::{Cut, fit, fit_cut, full_name, put};
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
    };
    if f.in_chart() {
        return chart(buf, inner, f, cx, &d);
    }
    let area = f.area(cx);
    let t = &f.tree;
    let layout = f.layout(cx);
    let caller = f.caller_selected().map(|(_, n)| n);
    let selected = f.selected_in(&layout).filter(|_| caller.is_none());
    let rows = layout.rows.iter().skip(f.top);
    for (i, row) in rows.enumerate().take(usize::from(area.height)) {
        let at = (area.x, area.y + i as u16);
        draw_row(buf, &d, &|n| t.func(n), row, at, selected);
    }
    // The sandwich's upper half: the callers, inverted (the function at
    // the bottom, its callers above it).
    if let (Some(up), Some(callers)) = (f.callers_area(cx), f.callers.as_deref()) {
        let l = flame_view::layout(callers, None, up.width, usize::from(up.height));
        for (i, row) in l.rows.iter().enumerate().take(usize::from(up.height)) {
            let at = (up.x, up.bottom() - 1 - i as u16);
            draw_row(buf, &d, &|n| callers.func(n), row, at, caller);
        }
    }
    let line = Rect::new(inner.x, inner.bottom().saturating_sub(1), inner.width, 1);
    match f.caller_selected() {
        Some((callers, n)) => caller_status(buf, line, cx, &callers, n, theme),
        None => status(buf, line, f, cx, selected, theme),
    }
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
/// fits, `…` for frames too thin, `(outside)` for time with no call open.
fn draw_row(
    buf: &mut Buffer,
    d: &Draw,
    func: &dyn Fn(u32) -> crate::analysis::cct::Label,
    row: &[flame_view::Block],
    (x0, y): (u16, u16),
    selected: Option<u32>,
) {
    let (p, query, theme) = (d.p, d.query, d.theme);
    for b in row {
        let x = x0 + b.x;
        let w = usize::from(b.width);
        let (label, mut style) = match b.node {
            None if b.outside => (crate::analysis::flame::OUTSIDE.to_string(), theme.dim()),
            None => ("…".to_string(), theme.dim()),
            Some(n) => {
                let name = visible(func(n).name(p)).into_owned();
                let style = match theme.color {
                    true => Style::default().bg(colour(&name)).fg(Color::Black),
                    false => Style::default(),
                };
                let style = match query.is_some_and(|q| q.is_match(&name)) {
                    true => style.patch(theme.matched()),
                    false => style,
                };
                (name, style)
            }
        };
        if b.node.is_some() && b.node == selected {
            // Reversed, a coloured frame would show as text on black and
            // lose its width: the selection is white, its width kept.
            style = match theme.color {
                true => style
                    .bg(Color::White)
                    .fg(Color::Black)
                    .add_modifier(Modifier::BOLD),
                false => style.add_modifier(Modifier::REVERSED | Modifier::BOLD),
            };
        }
        let text = match (theme.color, b.node) {
            (false, Some(_)) => format!("▏{}", fit(&label, w.saturating_sub(1)).0),
            _ => fit(&label, w).0,
        };
        buf.set_style(Rect::new(x, y, b.width, 1), style);
        buf.set_stringn(x, y, text, w, style);
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
    (title, format!(" the full width: {of} "))
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
    for (i, line) in st.lines(cx).iter().enumerate() {
        let y = area.y + i as u16;
        match line {
            ChartLine::Band(b) => {
                let text = band_title(c, *b);
                let w = usize::from(area.width);
                buf.set_stringn(area.x, y, fit(&text, w).0, w, theme.header_row());
            }
            ChartLine::Calls(row) => draw_row(
                buf,
                d,
                &|n| crate::analysis::cct::Label::Func(c.call(n).func),
                row,
                (area.x, y),
                selected,
            ),
        }
    }
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
    if !std::sync::Arc::ptr_eq(
        cx.profile,
        cx.answer.profile(crate::analysis::query::Reads::TIME_ORDER),
    ) {
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
