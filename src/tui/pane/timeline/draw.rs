//! The Timeline drawn: an axis (the range marked on it), then a lane a
//! thread, its title (`thread ID` and its busy time) above its cells. A
//! cell is shaded by the share of it the thread was busy (with colour, a
//! blue from dark to bright; without, `░▒▓█`), and a run of cells one
//! function held most of is labelled with its name where the name fits,
//! cut as the tables cut names and led by `▏`, so no label runs into the
//! next. The cursor is a column across the axis and every lane; the last
//! line says the time under it and what ran there.

use super::{LANE_ROWS, TimelinePane, Under, no_times};
use crate::analysis::columns::Value;
use crate::analysis::lanes_view;
use crate::model::Profile;
use crate::model::lanes::Cell;
use crate::model::metrics::pct;
use crate::report::fmt::{cell, grouped_time};
use crate::text::visible;
use crate::tui::fit::{Cut, fit, fit_cut, put};
use crate::tui::intent::Intent;
use crate::tui::keymap::{Place, key_for};
use crate::tui::pane::{Ctx, inner};
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};
use unicode_width::UnicodeWidthStr;

/// Busy shades, quarter by quarter (256-colour blues, dark to bright,
/// each dark enough for white text).
const SHADES: [u8; 4] = [24, 25, 26, 27];

/// Busy shades without colour; idle is blank.
const GLYPHS: [&str; 5] = [" ", "░", "▒", "▓", "█"];

/// The pane: its bordered block, titled, the axis, the lanes, the status.
pub(crate) fn pane(buf: &mut Buffer, area: Rect, t: &TimelinePane, cx: &Ctx, theme: Theme) {
    let (title, bottom) = titles(t, cx);
    Block::bordered()
        .title(Line::from(Span::styled(title, theme.title())))
        .title_bottom(Line::from(Span::styled(bottom, theme.dim())))
        .render(area, buf);
    let inner = inner(area);
    if !t.timed() {
        let why = format!(" {}.", capital(&no_times(cx.profile)));
        put(buf, inner, &Line::from(why));
        return;
    }
    let lanes = TimelinePane::area(cx);
    axis(
        buf,
        Rect::new(lanes.x, lanes.y, lanes.width, 1),
        t,
        cx,
        theme,
    );
    let shown = TimelinePane::shown(cx);
    let mut bottom_row = lanes.y + 1;
    for (i, &th) in t.order.iter().enumerate().skip(t.top).take(shown) {
        let y = lanes.y + 1 + (i - t.top) as u16 * LANE_ROWS;
        if y + 1 >= lanes.bottom() {
            break;
        }
        lane_title(
            buf,
            Rect::new(lanes.x, y, lanes.width, 1),
            t,
            i,
            th,
            cx,
            theme,
        );
        let cells = lane_cells(t, cx.profile, th, cx, usize::from(lanes.width));
        cells_row(buf, (lanes.x, y + 1), &cells, t.cell(cx), cx.profile, theme);
        bottom_row = y + LANE_ROWS;
    }
    cursor(buf, t, cx, (lanes.y, bottom_row), theme);
    let line = Rect::new(inner.x, inner.bottom().saturating_sub(1), inner.width, 1);
    status(buf, line, t, cx, theme);
}

/// `no timeline: …` as a sentence begins.
fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A lane's cells: from its buckets, or zoomed in past them from the calls
/// in time order (busy time only where they are not kept).
fn lane_cells(t: &TimelinePane, p: &Profile, th: usize, cx: &Ctx, n: usize) -> Vec<Cell> {
    let Some(lane) = p.lanes().and_then(|l| l.lane(th)) else {
        return vec![Cell::default(); n];
    };
    if !t.past(p, th, cx) {
        return lane.cells(t.window, n);
    }
    if let (Some(c), Some(band)) = (t.chart.as_deref(), t.band(p, th)) {
        return lanes_view::cells(c, band, t.window, n);
    }
    let mut cells = lane.cells(t.window, n);
    cells.iter_mut().for_each(|c| c.func = None);
    cells
}

/// A cell's shade: 0 idle, then a quarter of busy time at a time (any
/// busy time at all is 1, never blank).
fn shade(busy: f64) -> usize {
    if busy <= 0.0 {
        return 0;
    }
    ((busy * 4.0).ceil() as usize).clamp(1, 4)
}

/// One lane's cells at `(x, y)`: shaded, then labelled.
fn cells_row(
    buf: &mut Buffer,
    (x, y): (u16, u16),
    cells: &[Cell],
    dx: f64,
    p: &Profile,
    theme: Theme,
) {
    for (i, c) in cells.iter().enumerate() {
        let level = shade(c.busy / dx);
        let cell = &mut buf[(x + i as u16, y)];
        match (theme.color, level) {
            (true, 0) => {}
            (true, l) => {
                cell.set_symbol(" ");
                cell.set_style(Style::default().bg(Color::Indexed(SHADES[l - 1])));
            }
            (false, l) => {
                cell.set_symbol(GLYPHS[l]);
            }
        }
    }
    let mut i = 0;
    while i < cells.len() {
        let Some(f) = cells[i].func else {
            i += 1;
            continue;
        };
        let run = cells[i..].iter().take_while(|c| c.func == Some(f)).count();
        let name = visible(p.function_name(f));
        if let Some(text) = label(&name, run) {
            let at = Rect::new(x + i as u16, y, run as u16, 1);
            let style = match theme.color {
                true => Style::default()
                    .fg(Color::White)
                    .add_modifier(Modifier::BOLD),
                // Without colour a label is underlined across its run:
                // where the function's stretch ends shows.
                false => Style::default().add_modifier(Modifier::UNDERLINED),
            };
            if !theme.color {
                for k in 0..at.width {
                    buf[(at.x + k, y)].set_symbol(" ");
                }
            }
            buf.set_style(at, style);
            buf.set_stringn(at.x, y, text, run, style);
        }
        i += run;
    }
}

/// A run's label in `w` cells: `▏` and the name cut to what is left;
/// none where the cut keeps fewer than three of its characters (`…G…`
/// tells no function from another).
fn label(name: &str, w: usize) -> Option<String> {
    let text = fit_cut(name, w.saturating_sub(1), Cut::Name).text;
    let kept = text.chars().filter(|&c| c != '…').count();
    (!text.is_empty() && (text == name || kept >= 3)).then(|| format!("▏{text}"))
}

/// `▶ thread 1 · busy 1,234.000 ms ─────`.
fn lane_title(
    buf: &mut Buffer,
    row: Rect,
    t: &TimelinePane,
    i: usize,
    th: usize,
    cx: &Ctx,
    theme: Theme,
) {
    let p = cx.profile;
    let Some(info) = p.threads().get(th) else {
        return;
    };
    let selected = i == t.lane;
    let lead = if selected { "▶" } else { "─" };
    let mut text = format!("{lead} thread {} ", info.id);
    if let Some(busy) = info.busy_ms {
        text.push_str(&format!("· busy {} ", grouped_time(p, busy)));
    }
    let w = usize::from(row.width);
    text.push_str(&"─".repeat(w.saturating_sub(text.width())));
    let style = match selected {
        true => theme.key(),
        false => theme.header_row(),
    };
    buf.set_stringn(row.x, row.y, fit(&text, w).0, w, style);
}

/// The axis: the range marked (to the cursor while only its start is).
/// The window's ends are the title's: the range and the cursor would
/// cover their digits here.
fn axis(buf: &mut Buffer, row: Rect, t: &TimelinePane, cx: &Ctx, theme: Theme) {
    let w = usize::from(row.width);
    buf.set_stringn(row.x, row.y, "─".repeat(w), w, theme.dim());
    let Some(a) = t.marks.0 else {
        return;
    };
    let b = t.marks.1.unwrap_or(t.cursor);
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    if b < t.window.0 || a > t.window.1 {
        return;
    }
    let last = f64::from(row.width.saturating_sub(1));
    let x = |v: f64| ((v - t.window.0) / t.cell(cx)).floor().clamp(0.0, last) as u16;
    for k in x(a)..=x(b) {
        let cell = &mut buf[(row.x + k, row.y)];
        cell.set_symbol("━");
        cell.set_style(theme.matched());
    }
}

/// The cursor's column, from the axis to the last lane drawn.
fn cursor(buf: &mut Buffer, t: &TimelinePane, cx: &Ctx, (top, bottom): (u16, u16), theme: Theme) {
    let Some(k) = t.cell_of(t.cursor, cx) else {
        return;
    };
    let x = TimelinePane::area(cx).x + k;
    let style = match theme.color {
        true => Style::default().bg(Color::White).fg(Color::Black),
        false => Style::default().add_modifier(Modifier::REVERSED),
    };
    buf[(x, top)].set_symbol("▼");
    for y in top..bottom {
        buf[(x, y)].set_style(style);
    }
}

/// The time under the cursor and what ran there on the selected lane,
/// then the range marked: parts left out whole from the last when the
/// line is too narrow, so no number loses a digit.
fn status(buf: &mut Buffer, line: Rect, t: &TimelinePane, cx: &Ctx, theme: Theme) {
    let p = cx.profile;
    let mut parts = vec![grouped_time(p, t.cursor)];
    let id = t
        .order
        .get(t.lane)
        .and_then(|&th| p.threads().get(th))
        .map(|i| i.id);
    if let (Some(id), Some(u)) = (id, t.under_cursor(cx)) {
        parts.push(format!("thread {id}: {}", running(p, &u)));
    }
    match t.marks {
        (Some(a), Some(b)) => {
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            let enter = key_for(&Intent::CommitRange, Place::Timeline);
            parts.push(format!(
                "range {}–{} ({enter} asks it)",
                grouped_time(p, a),
                grouped_time(p, b)
            ));
        }
        (Some(a), None) => parts.push(format!("range from {}", grouped_time(p, a))),
        _ => {}
    }
    let w = usize::from(line.width);
    let len = |parts: &[String]| 1 + parts.iter().map(|s| s.width() + 3).sum::<usize>();
    while parts.len() > 1 && len(&parts) > w {
        parts.pop();
    }
    let text = format!(" {}", parts.join(" · "));
    buf.set_stringn(line.x, line.y, fit(&text, w).0, w, theme.key());
}

/// What ran: `FNPRICE`, `mostly FNPRICE · busy 80.00 %`, `idle`, or
/// `busy 80.00 %` where only busy time is known.
fn running(p: &Profile, u: &Under) -> String {
    let busy = cell(Value::Pct(pct(Some(u.busy.min(1.0)), Some(1.0))));
    match (u.func, u.exact) {
        (Some(f), true) => visible(p.function_name(f)).into_owned(),
        (Some(f), false) => format!("mostly {} · busy {busy}%", visible(p.function_name(f))),
        (None, _) if u.busy > 0.0 => format!("busy {busy}%"),
        (None, _) => "idle".into(),
    }
}

/// "Timeline · 100.000 ms–112.000 ms (-: out) · as it ran · busy time
/// only", and what the full width stands for.
fn titles(t: &TimelinePane, cx: &Ctx) -> (String, String) {
    let p = cx.profile;
    let mut title = " Timeline ".to_string();
    if !t.timed() {
        return (title, String::new());
    }
    title.push_str(&format!(
        "· {}–{} ",
        grouped_time(p, t.window.0),
        grouped_time(p, t.window.1)
    ));
    if t.window != t.run {
        let out = key_for(&Intent::ZoomTime(-1), Place::Timeline);
        title.push_str(&format!("({out}: out) "));
    }
    // The lanes are the chosen threads' events as they ran: a transform
    // of the query changes no event, so none is drawn here.
    // A range is no step: it selects events, as the thread choice does.
    if cx.answer.steps().next().is_some() {
        title.push_str("· as it ran: the query's steps not drawn ");
    }
    let busy_only = p.timeline().is_none() && t.order.iter().any(|&th| t.past(p, th, cx));
    if busy_only {
        title.push_str(
            "· busy time only: the calls in time order are not kept (profx --timeline FILE) ",
        );
    }
    let width = grouped_time(p, t.window.1 - t.window.0);
    (title, format!(" the full width: {width} "))
}
