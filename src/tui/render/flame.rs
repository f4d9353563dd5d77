//! The Flame pane: the icicle `analysis::flame_view` lays out, a row a
//! depth, each frame labelled where its name fits, coloured by a stable
//! hash of its name (the same function, the same colour, in every run).
//! Under `NO_COLOR` each frame starts with `▏`, so the boundaries show
//! without colour. The last line says what the selected frame holds.

use super::theme::Theme;
use super::{fit, put};
use crate::analysis::calltree::Unit;
use crate::analysis::columns::Value;
use crate::analysis::flame_chart::Chart;
use crate::analysis::flame_view::{self, Icicle};
use crate::model::metrics::pct;
use crate::report::fmt::cell;
use crate::text::visible;
use crate::tui::app::App;
use crate::tui::flame_chart::ChartLine;
use crate::tui::view::View;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;

/// Warm colours, as flame graphs draw (256-colour indexes: reds, oranges,
/// yellows); a function's is picked by the hash of its name.
const PALETTE: [u8; 8] = [167, 173, 179, 209, 215, 221, 203, 208];

fn colour(name: &str) -> Color {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    name.hash(&mut h);
    Color::Indexed(PALETTE[(h.finish() % PALETTE.len() as u64) as usize])
}

pub fn frames(buf: &mut Buffer, inner: Rect, app: &App, theme: Theme) {
    let p = &app.profile;
    if p.nodes().is_empty() {
        let why = format!(
            " No flame graph: this {} profile has no call paths (it states totals per function).",
            p.format
        );
        put(buf, inner, &Line::from(why));
        return;
    }
    if app.in_chart() {
        return chart(buf, inner, app, theme);
    }
    let st = app.flame_state();
    let area = app.flame_area();
    let t = app.flame_tree();
    let layout = app.flame_layout();
    let caller = app.flame_caller().map(|(_, n)| n);
    let selected = app.flame_selected_in(&layout).filter(|_| caller.is_none());
    let rows = layout.rows.iter().skip(st.top);
    for (i, row) in rows.enumerate().take(usize::from(area.height)) {
        draw_row(
            buf,
            app,
            &|n| t.func(n),
            row,
            area.x,
            area.y + i as u16,
            selected,
            theme,
        );
    }
    // The sandwich's upper half: the callers, inverted (the function at
    // the bottom, its callers above it).
    if let (Some(up), Some(callers)) = (app.flame_callers_area(), st.callers.as_deref()) {
        let l = flame_view::layout(callers, None, up.width, usize::from(up.height));
        for (i, row) in l.rows.iter().enumerate().take(usize::from(up.height)) {
            let y = up.bottom() - 1 - i as u16;
            draw_row(buf, app, &|n| callers.func(n), row, up.x, y, caller, theme);
        }
    }
    let line = Rect::new(inner.x, inner.bottom().saturating_sub(1), inner.width, 1);
    match app.flame_caller() {
        Some((callers, n)) => caller_status(buf, line, app, &callers, n, theme),
        None => status(buf, line, app, selected, theme),
    }
}

/// A caller selected in a sandwich: how much of the function's time came
/// through it.
fn caller_status(buf: &mut Buffer, line: Rect, app: &App, t: &Icicle, n: u32, theme: Theme) {
    let p = &app.profile;
    let w = t.weight(n);
    let whole = flame_view::span(t, None);
    let share = cell(Value::Pct(pct(Some(w), Some(whole))));
    let text = match t.parent(n) {
        None => format!(
            " {} · {} · its callers above · ↓ its callees",
            visible(t.func(n).name(p)),
            amount_of(app, w)
        ),
        Some(_) => format!(
            " {} · {} · {share}% of the function's time came through it · Enter: its sandwich",
            visible(t.func(n).name(p)),
            amount_of(app, w)
        ),
    };
    let width = usize::from(line.width);
    buf.set_stringn(line.x, line.y, fit(&text, width).0, width, theme.key());
}

/// A weight in the tree's unit.
fn amount_of(app: &App, w: f64) -> String {
    match app.tree_index().unit() {
        Unit::Ms => format!("{} ms", cell(Value::Ms(Some(w)))),
        Unit::Count => cell(Value::Count(Some(w as u64))),
    }
}

/// One row of blocks: each frame in its colour with its name where it
/// fits, `…` for frames too thin, `(outside)` for time with no call open.
#[allow(clippy::too_many_arguments)]
fn draw_row(
    buf: &mut Buffer,
    app: &App,
    func: &dyn Fn(u32) -> crate::analysis::cct::Label,
    row: &[flame_view::Block],
    x0: u16,
    y: u16,
    selected: Option<u32>,
    theme: Theme,
) {
    let p = &app.profile;
    let query = app.view().query.as_ref();
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
fn status(buf: &mut Buffer, line: Rect, app: &App, selected: Option<u32>, theme: Theme) {
    let p = &app.profile;
    let Some(n) = selected else {
        return;
    };
    let t = app.flame_tree();
    let w = t.weight(n);
    let whole = flame_view::span(&t, None);
    let pct = |part: f64, of: f64| cell(Value::Pct(pct(Some(part), Some(of))));
    let amount = amount_of(app, w);
    let of_whole = match app.flame_state().focus {
        Some(_) => "of the function's time",
        None => "of the total",
    };
    let mut text = format!(
        " {} · {amount} · {}% {of_whole}",
        visible(t.func(n).name(p)),
        pct(w, whole)
    );
    if let Some(q) = t.parent(n) {
        text.push_str(&format!(" · {}% of its caller", pct(w, t.weight(q))));
    }
    buf.set_stringn(
        line.x,
        line.y,
        fit(&text, usize::from(line.width)).0,
        usize::from(line.width),
        theme.key(),
    );
}

/// "Flame · sandwich of X · 2 hidden · zoomed on Y · search: y", and what
/// the width stands for.
pub fn titles(app: &App, v: &View) -> (String, String) {
    let p = &app.profile;
    let st = app.flame_state();
    let t = app.flame_tree();
    let mut title = " Flame ".to_string();
    if let Some(f) = st.focus {
        title.push_str(&format!(
            "· sandwich of {} (f: leave) ",
            visible(p.function_name(f))
        ));
    }
    if !st.hidden.is_empty() {
        let names: Vec<String> = st
            .hidden
            .iter()
            .map(|&f| visible(p.function_name(f)).into_owned())
            .collect();
        title.push_str(&format!("· hidden: {} (X: show) ", names.join(", ")));
    }
    if let Some(&z) = st.zoom.last() {
        title.push_str(&format!(
            "· zoomed on {} (Esc: out) ",
            visible(t.func(z).name(p))
        ));
    }
    if !v.filter.is_empty() {
        title.push_str(&format!("· search: {} ", visible(&v.filter)));
    }
    if p.nodes().is_empty() {
        // No call paths: nothing is drawn, so no width stands for anything.
        return (title, String::new());
    }
    let ix = app.tree_index();
    let total = flame_view::span(&t, st.zoom.last().copied());
    let of = match ix.unit() {
        Unit::Ms => crate::report::fmt::grouped_ms(total),
        Unit::Count => crate::report::fmt::grouped(total as u64),
    };
    (title, format!(" the full width: {of} "))
}

/// The flame chart: each band's title, then its calls a depth a row, the
/// selected call's numbers on the last line.
fn chart(buf: &mut Buffer, inner: Rect, app: &App, theme: Theme) {
    let Some(c) = app.chart() else {
        return;
    };
    let area = app.chart_area();
    let selected = app.chart_selected();
    for (i, line) in app.chart_lines().iter().enumerate() {
        let y = area.y + i as u16;
        match line {
            ChartLine::Band(b) => {
                let text = band_title(&c, *b);
                let w = usize::from(area.width);
                buf.set_stringn(area.x, y, fit(&text, w).0, w, theme.header_row());
            }
            ChartLine::Calls(row) => draw_row(
                buf,
                app,
                &|n| crate::analysis::cct::Label::Func(c.call(n).func),
                row,
                area.x,
                y,
                selected,
                theme,
            ),
        }
    }
    let line = Rect::new(inner.x, inner.bottom().saturating_sub(1), inner.width, 1);
    let Some(id) = selected else {
        return;
    };
    let call = c.call(id);
    let p = &app.profile;
    let mut text = format!(
        " {} · {} · {}–{} · thread {}",
        visible(p.function_name(call.func)),
        amount(&c, call.duration()),
        at(&c, call.start),
        at(&c, call.end),
        c.bands[call.thread as usize].id
    );
    if let Some(q) = c.parent(id) {
        let share = pct(Some(call.duration()), Some(c.call(q).duration()));
        text.push_str(&format!(" · {}% of its caller", cell(Value::Pct(share))));
    }
    let w = usize::from(line.width);
    buf.set_stringn(line.x, line.y, fit(&text, w).0, w, theme.key());
}

/// "── thread 7 · 1,204 calls ──".
fn band_title(c: &Chart, b: usize) -> String {
    let band = &c.bands[b];
    let calls = crate::report::fmt::grouped(band.calls as u64);
    let s = if band.calls == 1 { "" } else { "s" };
    format!("── thread {} · {calls} call{s} ", band.id)
}

/// A length of the chart's x: milliseconds, or events for an untimed trace.
fn amount(c: &Chart, x: f64) -> String {
    match c.timed {
        true => crate::report::fmt::grouped_ms(x),
        false => format!("{} events", crate::report::fmt::grouped(x as u64)),
    }
}

/// A place on the chart's x: a time, or an event's place.
fn at(c: &Chart, x: f64) -> String {
    match c.timed {
        true => crate::report::fmt::grouped_ms(x),
        false => format!("#{}", crate::report::fmt::grouped(x as u64)),
    }
}

/// "Flame · time order · zoomed to 100–112 ms · search: y", and what the
/// full width stands for.
pub fn chart_titles(app: &App, v: &View) -> (String, String) {
    let c = app.chart().unwrap_or_default();
    let (from, to) = app.chart_window();
    let mut title = " Flame · time order (t: graph) ".to_string();
    if (from, to) != (c.start, c.end) {
        title.push_str(&format!("· {}–{} (Esc: out) ", at(&c, from), at(&c, to)));
    }
    if !v.filter.is_empty() {
        title.push_str(&format!("· search: {} ", visible(&v.filter)));
    }
    (
        title,
        format!(" the full width: {} ", amount(&c, to - from)),
    )
}
