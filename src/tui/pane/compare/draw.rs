//! The comparison's Functions pane drawn: its frame (what is sorted, what
//! the values are, the legend), the headings and the rows on screen, each
//! cell as `profx diff --table` writes it. A change is always signed, so
//! `NO_COLOR` loses nothing of the red (slower) and blue (faster).

use super::{Col, ComparePane, Shown};
use crate::tui::fit::{Cut, fit_cut, frame_title, put};
use crate::tui::intent::Intent;
use crate::tui::keymap::{Place, key_for};
use crate::tui::pane::inner;
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};
use unicode_width::UnicodeWidthStr;

/// The name's room before the value columns take theirs: a sixth of the
/// pane, within these (at most the widest name), so an 80-column window
/// shows both values, the change and its percent.
const NAME_LEAST: (usize, usize) = (12, 32);
/// The module and status column's room: a fifth of the pane within these
/// (a module path cut in its middle).
const STATUS_ROOM: (usize, usize) = (10, 24);

pub(super) fn pane(buf: &mut Buffer, area: Rect, p: &ComparePane, theme: Theme) {
    let (title, legend) = (
        frame_title(&title(p), area.width),
        frame_title(&legend(), area.width),
    );
    Block::bordered()
        .title(Line::from(Span::styled(title, theme.title())))
        .title_bottom(Line::from(Span::styled(legend, theme.dim())))
        .render(area, buf);
    let inner = inner(area);
    if p.order.is_empty() {
        put(
            buf,
            inner,
            &Line::from(format!(" No {} in either run.", p.noun())),
        );
        return;
    }
    let shown = layout(p, usize::from(inner.width));
    let row = |y: u16| Rect::new(inner.x, y, inner.width, 1);
    put(buf, row(inner.y), &headings(p, &shown, theme));
    let rows = usize::from(inner.height.saturating_sub(1));
    for (k, &i) in p.order.iter().enumerate().skip(p.offset).take(rows) {
        let y = inner.y + 1 + (k - p.offset) as u16;
        let selected = k == p.cursor;
        put(buf, row(y), &line(p, i, &shown, selected, theme));
    }
}

/// " Functions compared 12 · sort: Δ incl ms ▼ · absolute values " (or
/// Stacks, Lines).
fn title(p: &ComparePane) -> String {
    let arrow = if p.reversed { "▲" } else { "▼" };
    let values = match p.shown {
        Shown::Values => "absolute values",
        Shown::Shares => "shares of each run's total",
    };
    let what = match p.noun() {
        "stacks" => "Stacks",
        "lines" => "Lines",
        _ => "Functions",
    };
    format!(
        " {what} compared {} · sort: {} {arrow} · {values} ",
        crate::report::fmt::grouped(p.order.len() as u64),
        p.heading(p.cols()[p.sort]),
    )
}

/// The legend on the frame's foot, the toggle's key from the keymap.
fn legend() -> String {
    let shares = key_for(&Intent::Shares, Place::Compare);
    format!(" Δ = new − base: + slower (red) · - faster (blue) · {shares} values ⇄ shares ")
}

/// The columns shown, each with its width: the name, the module and
/// status, then the value columns from the first scrolled to, as many as
/// fit whole (no digit is ever cut); the name takes what they leave.
fn layout(p: &ComparePane, width: usize) -> Vec<(Col, usize)> {
    let w = p.widths();
    let status = w[1].min((width / 5).clamp(STATUS_ROOM.0, STATUS_ROOM.1));
    let mut name = w[0].min((width / 6).clamp(NAME_LEAST.0, NAME_LEAST.1));
    let mut used = 1 + name + 1 + status;
    let mut out = Vec::new();
    for (k, &col) in p.cols().iter().enumerate().skip(2 + p.first) {
        if used + 1 + w[k] > width {
            break;
        }
        used += 1 + w[k];
        out.push((col, w[k]));
    }
    name += width.saturating_sub(used).min(w[0].saturating_sub(name));
    let mut all = vec![(Col::Name, name), (Col::Status, status)];
    all.extend(out);
    all
}

/// Text padded to its column: names to the left, numbers to the right.
fn padded(text: &str, col: Col, width: usize) -> String {
    let t = match col {
        Col::Name => fit_cut(text, width, Cut::Name).text,
        Col::Status => fit_cut(text, width, Cut::Middle).text,
        _ => text.to_string(),
    };
    let pad = " ".repeat(width.saturating_sub(t.width()));
    match col {
        Col::Name | Col::Status => format!("{t}{pad}"),
        _ => format!("{pad}{t}"),
    }
}

fn headings<'a>(p: &ComparePane, shown: &[(Col, usize)], theme: Theme) -> Line<'a> {
    let sorted = p.cols()[p.sort];
    let mut spans = vec![Span::raw(" ")];
    for (k, &(col, width)) in shown.iter().enumerate() {
        if k > 0 {
            spans.push(Span::raw(" "));
        }
        let style = match col == sorted {
            true => theme.sorted_header(),
            false => theme.header_row(),
        };
        spans.push(Span::styled(padded(&p.heading(col), col, width), style));
    }
    Line::from(spans)
}

fn line<'a>(
    p: &ComparePane,
    i: usize,
    shown: &[(Col, usize)],
    selected: bool,
    theme: Theme,
) -> Line<'a> {
    let base = match selected {
        true => theme.selected(true),
        false => theme.base(),
    };
    let marker = if selected { "▶" } else { " " };
    let mut spans = vec![Span::styled(marker, base)];
    for (k, &(col, width)) in shown.iter().enumerate() {
        if k > 0 {
            spans.push(Span::styled(" ", base));
        }
        let text = p.cell_at(i, col);
        spans.push(Span::styled(
            padded(&text, col, width),
            style_of(&text, col, base, theme),
        ));
    }
    let mut line = Line::from(spans);
    if selected {
        line = line.style(base);
    }
    line
}

/// A change's colour: red where the new run spends more, blue where it
/// spends less.
fn style_of(text: &str, col: Col, base: Style, theme: Theme) -> Style {
    let accent = match col {
        Col::Change(_) | Col::ChangePct(_) if text.starts_with('+') => theme.slower(),
        Col::Change(_) | Col::ChangePct(_) if text.starts_with('-') => theme.faster(),
        _ => return base,
    };
    theme.on(base, accent)
}
