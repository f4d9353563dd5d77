//! Drawing: a pure function of `&App` into a ratatui frame. Only the rows
//! on screen are built, so a frame costs the same for ten rows or ten
//! million. Every name passes through `text::visible` before it reaches a
//! cell, so a file cannot put an escape sequence on the terminal.

mod detail;
pub mod flame;
mod overlay;
pub mod table;
pub mod theme;
pub mod tree;

use super::app::{App, Mode};
use super::layout::{self, MIN_HEIGHT, MIN_WIDTH};
use super::pane::{Pane, Within};
use crate::analysis::view::Table;
use crate::model::FuncId;
use crate::report::fmt::{grouped, grouped_ms};
use crate::text::visible;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use theme::Theme;
use unicode_width::UnicodeWidthChar;

pub fn draw(frame: &mut Frame<'_>, app: &App) {
    let area = frame.area();
    let theme = Theme { color: app.color };
    if layout::too_small(area) {
        too_small(frame, area);
        return;
    }
    let a = app.areas();
    let buf = frame.buffer_mut();
    header(buf, a.header, app, theme);
    crumbs(buf, a.crumbs, app, theme);
    app.pane().render(buf, &a, &app.cx(), theme);
    footer(buf, a.footer, app, theme);
    match &app.mode {
        Mode::Help(scroll) => overlay::help(buf, area, *scroll, theme),
        Mode::Finder(f) => overlay::finder(buf, area, &app.profile, f, theme),
        Mode::Normal | Mode::Search => {}
    }
    if let Some(msg) = app.status.as_deref().filter(|_| app.status_boxed()) {
        overlay::message(buf, area, a.footer, msg, theme);
    }
}

fn too_small(frame: &mut Frame<'_>, area: Rect) {
    let msg = format!(
        "profx needs a window of at least {MIN_WIDTH}×{MIN_HEIGHT}; this one is {}×{}. \
         Enlarge it, or press q to quit.",
        area.width, area.height
    );
    frame.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), area);
}

/// Writes a line clipped to `area`'s first row.
fn put(buf: &mut Buffer, area: Rect, line: &Line<'_>) {
    buf.set_line(area.x, area.y, line, area.width);
}

fn header(buf: &mut Buffer, area: Rect, app: &App, theme: Theme) {
    let p = &app.profile;
    let mut facts = vec![p.format.clone()];
    if let Some(mode) = p.meta.get("mode") {
        facts.push(visible(&mode.to_string()).into_owned());
    }
    if let Some(n) = p.totals.samples {
        facts.push(format!("{} samples", grouped(n)));
    }
    if let Some(ms) = p.totals.elapsed_inclusive_ms {
        facts.push(total_and_span(p, ms));
    }
    // Values skipped or repaired are said where every pane shows it, not
    // only in Info, which lists them with their places.
    let warned = p.warnings().len() as u64;
    if warned > 0 {
        let n = crate::report::fmt::counted(warned, "warnings");
        let info = super::pane::tab_index(crate::analysis::view::View::Info) + 1;
        facts.push(format!("{n} (Info, {info})"));
    }
    // What the Flame pane leaves out, said everywhere (pprof's -hide and
    // speedscope's sandwich change what a flame graph shows).
    match app.flame_filters() {
        (Some(f), _) => facts.push(format!("flame: sandwich of {}", short_name(p, f))),
        (None, n) if n > 0 => facts.push(format!("flame: {n} hidden")),
        _ => {}
    }
    let line = Line::from(vec![
        Span::styled(" profx ", theme.title()),
        Span::raw(" "),
        Span::styled(visible(&app.title).into_owned(), theme.title()),
        Span::raw("  "),
        Span::raw(facts.join(" · ")),
    ]);
    put(buf, area, &line);
}

/// The session total; for a trace of several threads, which adds its
/// threads' times, what it is a sum of and the wall time the trace spans
/// (a quarter of the sum when four threads ran side by side).
fn total_and_span(p: &crate::model::Profile, ms: f64) -> String {
    let threads = match p.meta.get("threads") {
        Some(crate::model::MetaValue::Int(n)) if *n > 1 => *n,
        _ => return grouped_ms(ms),
    };
    let first = p
        .packets()
        .iter()
        .filter_map(|k| k.first_ms)
        .reduce(f64::min);
    let last = p
        .packets()
        .iter()
        .filter_map(|k| k.last_ms)
        .reduce(f64::max);
    let mut text = format!("{} summed over {threads} threads", grouped_ms(ms));
    if let (Some(a), Some(b)) = (first, last) {
        text.push_str(&format!(" · spans {}", grouped_ms(b - a)));
    }
    text
}

/// The tabs, where the user is (the history as a breadcrumb) and the last
/// status.
fn crumbs(buf: &mut Buffer, area: Rect, app: &App, theme: Theme) {
    let mut end = area.x;
    for (tab, x, w) in layout::tab_positions(area) {
        let label = format!(" {} ", super::pane::tab_title(tab));
        buf.set_stringn(
            x,
            area.y,
            label,
            usize::from(w),
            theme.tab(tab == app.tab()),
        );
        end = x + w;
    }
    let area = Rect::new(end + 1, area.y, area.right().saturating_sub(end + 1), 1);
    // A step into the Functions pane (from a line, a frame, a caller) is
    // named by the function it went to, not by the pane again.
    let cx = app.cx();
    let trail: Vec<String> = app
        .history
        .iter()
        .enumerate()
        .map(|(i, pane)| match (i, pane) {
            (1.., Pane::Table(t)) if t.table == Table::Functions && t.within == Within::All => {
                match t.selected() {
                    Some(row) => format!(
                        "function {}",
                        short_name(&app.profile, FuncId::from_index(row as usize))
                    ),
                    None => pane.step_name(&cx),
                }
            }
            _ => pane.step_name(&cx),
        })
        .collect();
    let mut spans = vec![Span::styled("│ ", theme.dim())];
    for (i, step) in trail.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" › ", theme.dim()));
        }
        let last = i + 1 == trail.len();
        spans.push(Span::styled(
            step.clone(),
            if last { theme.key() } else { theme.dim() },
        ));
    }
    put(buf, area, &Line::from(spans));
}

fn fname(p: &crate::model::Profile, f: FuncId) -> String {
    visible(p.function_name(f)).into_owned()
}

use super::pane::short_name;

fn footer(buf: &mut Buffer, area: Rect, app: &App, theme: Theme) {
    if app.mode == Mode::Search {
        return search_prompt(buf, area, app, theme);
    }
    if let Some(progress) = app.export_progress() {
        put(
            buf,
            area,
            &Line::from(Span::styled(format!(" {progress} "), theme.status())),
        );
        return;
    }
    // A message takes the footer's line until the next key; one too long
    // for it is shown whole in a box (`overlay::message`).
    if let Some(msg) = &app.status {
        if !app.status_boxed() {
            let line = Line::from(Span::styled(format!(" {} ", visible(msg)), theme.status()));
            put(buf, area, &line);
        }
        return;
    }
    let mut spans = vec![Span::raw(" ")];
    // A hint that does not fit is left out whole, the pane's own last:
    // `?` (which lists them all) and `q` always show.
    let mut hints = app.hints();
    let width = |h: &[(&str, &str)]| {
        1 + h
            .iter()
            .map(|(k, w)| k.chars().count() + w.chars().count() + 3)
            .sum::<usize>()
    };
    while width(&hints) > usize::from(area.width) && hints.len() > 3 {
        hints.remove(hints.len() - 4);
    }
    for (key, what) in hints {
        spans.push(Span::styled(key, theme.key()));
        spans.push(Span::raw(format!(" {what}  ")));
    }
    put(buf, area, &Line::from(spans));
}

fn search_prompt(buf: &mut Buffer, area: Rect, app: &App, theme: Theme) {
    let pane = app.pane();
    let text = pane.search().map_or("", |s| s.text.as_str());
    // What the search found: the pane's own word for it (the call tree's
    // and the flame's shares) when it said one, a table's rows, else
    // nothing yet.
    let found = match (&app.status, pane.as_table()) {
        (Some(msg), _) => format!("   {}", visible(msg)),
        (None, Some(t)) => format!(
            "   {} of {} match",
            grouped(t.rows.len() as u64),
            grouped(t.total as u64)
        ),
        (None, None) => String::new(),
    };
    let line = Line::from(vec![
        Span::styled(" / ", theme.key()),
        Span::raw(visible(text).into_owned()),
        Span::styled("█", theme.dim()),
        Span::styled(found, theme.dim()),
        Span::raw("   "),
        Span::styled("⏎", theme.key()),
        Span::raw(" keep  "),
        Span::styled("Esc", theme.key()),
        Span::raw(" clear"),
    ]);
    put(buf, area, &line);
}

/// `text` cut to `width` display columns (with `…` when cut), and the
/// chars it kept. Wide characters never straddle the edge.
pub fn fit(text: &str, width: usize) -> (String, usize) {
    let total: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    if total <= width {
        return (text.to_string(), text.chars().count());
    }
    let mut out = String::new();
    let mut used = 0;
    let mut kept = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
        kept += 1;
    }
    if width > 0 {
        out.push('…');
    }
    (out, kept)
}

/// A cell's text as spans, the chars at `positions` in `hl`.
pub fn highlighted<'a>(text: &str, positions: &[usize], base: Style, hl: Style) -> Vec<Span<'a>> {
    if positions.is_empty() {
        return vec![Span::styled(text.to_string(), base)];
    }
    let mut spans: Vec<Span<'a>> = Vec::new();
    let mut run = String::new();
    let mut run_hl = false;
    for (i, c) in text.chars().enumerate() {
        let is_hl = positions.binary_search(&i).is_ok();
        if is_hl != run_hl && !run.is_empty() {
            let style = if run_hl { base.patch(hl) } else { base };
            spans.push(Span::styled(std::mem::take(&mut run), style));
        }
        run_hl = is_hl;
        run.push(c);
    }
    if !run.is_empty() {
        spans.push(Span::styled(
            run,
            if run_hl { base.patch(hl) } else { base },
        ));
    }
    spans
}
