//! Boxes drawn over the panes: the key list and the function finder.

use super::theme::Theme;
use crate::analysis::columns::Column;
use crate::analysis::search::Query;
use crate::model::FuncId;
use crate::model::Profile;
use crate::report::fmt::{cell, grouped};
use crate::text::visible;
use crate::tui::finder::Finder;
use crate::tui::fit::{Cut, fit_cut, fit_step, highlighted};
use crate::tui::intent::Intent;
use crate::tui::keymap::{Place, help_rows, key_for};
use crate::tui::pane::inner;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Widget};
use unicode_width::UnicodeWidthStr;

/// A box of at most `w`×`h` in the middle of `area`.
fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width.saturating_sub(4));
    let h = h.min(area.height.saturating_sub(2));
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// A message too long for the status line, whole, wrapped in a box above
/// the footer; any key closes it.
pub(super) fn message(buf: &mut Buffer, area: Rect, footer: Rect, msg: &str, theme: Theme) {
    let width = area.width.saturating_sub(4).max(10);
    let text = visible(msg);
    let lines = crate::tui::help::wrap(&text, usize::from(width - 4));
    let height = (lines.len() as u16 + 2).min(area.height.saturating_sub(4));
    let box_area = Rect::new(area.x + 2, footer.y.saturating_sub(height), width, height);
    Clear.render(box_area, buf);
    Block::bordered()
        .title(Span::styled(" Message · any key closes it ", theme.title()))
        .render(box_area, buf);
    let inner = inner(box_area);
    for (y, line) in (inner.y..inner.bottom()).zip(lines.iter()) {
        buf.set_stringn(
            inner.x + 1,
            y,
            line,
            usize::from(inner.width.saturating_sub(2)),
            theme.status(),
        );
    }
}

pub(super) fn help(buf: &mut Buffer, area: Rect, scroll: usize, theme: Theme) {
    let mut lines: Vec<Line<'_>> = Vec::new();
    // A text too long for the box goes on under itself, never cut.
    let width = crate::tui::help::text_width(crate::tui::help::box_width(area.width));
    for (section, keys) in help_rows() {
        if !lines.is_empty() {
            lines.push(Line::from(""));
        }
        lines.push(Line::from(Span::styled(section, theme.header_row())));
        for (k, what) in keys {
            for (i, part) in crate::tui::help::wrap(what, width).into_iter().enumerate() {
                let key = if i == 0 { k } else { "" };
                lines.push(Line::from(vec![
                    Span::styled(format!("  {key:<22}"), theme.key()),
                    Span::raw(part),
                ]));
            }
        }
    }
    let box_area = centered(area, crate::tui::help::BOX_WIDTH, lines.len() as u16 + 2);
    let rows = usize::from(box_area.height.saturating_sub(2));
    let scroll = scroll.min(lines.len().saturating_sub(rows));
    // It opens where the pane's keys are: the title says there is more
    // above as it says there is more below.
    let more = match (scroll > 0, scroll + rows < lines.len()) {
        (true, true) => " · ↑↓ more",
        (true, false) => " · ↑ more",
        (false, true) => " · ↓ more",
        (false, false) => "",
    };
    Clear.render(box_area, buf);
    Block::bordered()
        .title(Span::styled(
            format!(
                " Keys · {} closes{more} ",
                key_for(&Intent::Cancel, Place::Help)
            ),
            theme.title(),
        ))
        .render(box_area, buf);
    let inner = inner(box_area);
    for (y, line) in (inner.y..inner.bottom()).zip(lines.iter().skip(scroll)) {
        buf.set_line(inner.x + 1, y, line, inner.width.saturating_sub(1));
    }
}

pub(super) fn finder(buf: &mut Buffer, area: Rect, p: &Profile, f: &Finder, theme: Theme) {
    // A wide window gives the names (and the numbers) room.
    let box_area = centered(
        area,
        (area.width * 2 / 3).max(84),
        area.height.saturating_sub(4),
    );
    Clear.render(box_area, buf);
    let mut title = format!(
        " Jump to function · {} of {} ",
        grouped(f.results.len() as u64),
        grouped(p.functions().len() as u64)
    );
    // What the number beside each hit is, as the Functions table heads it.
    if let Some(c) = f.weight {
        title.push_str(&format!("· {} ", c.header_in(p)));
    }
    Block::bordered()
        .title(Span::styled(title, theme.title()))
        .render(box_area, buf);
    let inner = inner(box_area);
    let prompt = Line::from(vec![
        Span::styled("> ", theme.key()),
        Span::raw(visible(&f.input).into_owned()),
        Span::styled("█", theme.dim()),
    ]);
    buf.set_line(inner.x + 1, inner.y, &prompt, inner.width.saturating_sub(1));
    let rows = usize::from(inner.height.saturating_sub(1));
    let first = (f.cursor + 1).saturating_sub(rows);
    let shown: Vec<FuncId> = f.results[first.min(f.results.len())..]
        .iter()
        .take(rows)
        .map(|&id| FuncId::from_index(id as usize))
        .collect();
    let weight = |func: FuncId| f.weight.map(|c| cell(c.value(p, func)));
    // As wide as the widest number shown: no digit is ever cut.
    let num_w = shown
        .iter()
        .filter_map(|&func| weight(func))
        .map(|w| w.width())
        .max()
        .unwrap_or(0) as u16;
    let text_w = inner.width.saturating_sub(num_w + 4);
    let q = Query::parse(&f.input);
    for ((i, &func), y) in shown.iter().enumerate().zip(inner.y + 1..inner.bottom()) {
        let style = if first + i == f.cursor {
            theme.selected(true)
        } else {
            theme.base()
        };
        buf.set_style(Rect::new(inner.x, y, inner.width, 1), style);
        hit(buf, (inner.x + 1, y, text_w), (p, func, &q), (style, theme));
        if let Some(w) = weight(func) {
            let x = inner.right().saturating_sub(1 + w.width() as u16);
            buf.set_stringn(x, y, w, usize::from(num_w), style);
        }
    }
}

/// A finder's hit in `w` columns at (x, y): its name (the method kept,
/// the query's matches highlighted), then its module.
fn hit(
    buf: &mut Buffer,
    (x, y, w): (u16, u16, u16),
    (p, func, q): (&Profile, FuncId, &Query),
    (style, theme): (ratatui::style::Style, Theme),
) {
    let name = visible(p.function_name(func)).into_owned();
    let module = visible(p.function_module(func)).into_owned();
    let name_w = usize::from(w.saturating_sub(1)) * 2 / 3;
    // The name keeps its end (the method), as in the tables.
    let shown = fit_cut(&name, name_w, Cut::Name);
    let pos: Vec<usize> = q
        .matches(&name)
        .map(|m| {
            m.positions
                .into_iter()
                .filter_map(|i| shown.position(i))
                .collect()
        })
        .unwrap_or_default();
    let line = Line::from(highlighted(&shown.text, &pos, style, theme.matched()));
    buf.set_line(x, y, &line, name_w as u16);
    let mx = x + 1 + name_w as u16;
    let room = usize::from((x + w).saturating_sub(mx));
    let module = fit_cut(&module, room, Cut::Middle).text;
    buf.set_stringn(mx, y, module, room, style.patch(theme.dim()));
}

/// The `.` menu: every transform with its key and what it would do to
/// the selection; one the selection cannot take is dim, with why.
pub(super) fn menu(
    buf: &mut Buffer,
    area: Rect,
    selected: Option<u16>,
    m: &crate::tui::menu::Menu,
    entries: &[crate::tui::menu::Entry],
    theme: Theme,
) {
    let h = entries.len() as u16 + 4;
    let mut box_area = centered(area, 84, h);
    // Off the selected row, which the menu's entries name, where the
    // screen has room above or below it (under the tabs, over the footer).
    if let Some(y) = selected.filter(|&y| y >= box_area.y && y < box_area.bottom()) {
        let (top, bottom) = (area.y + 2, area.bottom().saturating_sub(1));
        if y >= top + box_area.height {
            box_area.y = y - box_area.height;
        } else if y + 1 + box_area.height <= bottom {
            box_area.y = y + 1;
        }
    }
    Clear.render(box_area, buf);
    Block::bordered()
        .title(Span::styled(
            format!(
                " Transform the query · {} or its key applies · {} closes ",
                key_for(&Intent::Accept, Place::Menu),
                key_for(&Intent::Cancel, Place::Menu)
            ),
            theme.title(),
        ))
        .render(box_area, buf);
    let inner = inner(box_area);
    let w = usize::from(inner.width.saturating_sub(2));
    for ((i, e), y) in entries.iter().enumerate().zip(inner.y..inner.bottom()) {
        let style = match (i == m.cursor, e.why_not.is_some()) {
            (true, _) => theme.selected(true),
            (false, true) => theme.dim(),
            (false, false) => theme.base(),
        };
        buf.set_style(Rect::new(inner.x, y, inner.width, 1), style);
        let room = w.saturating_sub(8);
        let text = match (&e.why_not, &e.step) {
            (Some(why), _) => {
                fit_cut(&format!("{}: {}", e.text, visible(why)), room, Cut::End).text
            }
            // A call node's path loses its middle, never its last frame.
            (None, Some(step)) => fit_step(step, room),
            (None, None) => fit_cut(&e.text, room, Cut::End).text,
        };
        let line = Line::from(vec![
            Span::styled(format!("{:<8}", e.key), style.patch(theme.key())),
            Span::styled(text, style),
        ]);
        buf.set_line(inner.x + 1, y, &line, inner.width.saturating_sub(1));
    }
    let y = inner.y + entries.len() as u16 + 1;
    if y < inner.bottom() {
        buf.set_stringn(
            inner.x + 1,
            y,
            format!(
                "{} undoes the last step · {} the whole profile · {} the threads",
                key_for(&Intent::PopStep, Place::Query),
                key_for(&Intent::ClearQuery, Place::Query),
                key_for(&Intent::Threads, Place::Query)
            ),
            w,
            theme.dim(),
        );
    }
}
