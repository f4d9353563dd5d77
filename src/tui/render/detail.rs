//! The split under the table: the selected function's callers and callees
//! with their shares, or the selected stack's frames root to leaf.

use super::theme::Theme;
use super::{fit, fname};
use crate::analysis::callgraph::Edge;
use crate::analysis::columns::Value;
use crate::report::fmt::cell;
use crate::tui::app::{App, inner};
use crate::tui::layout;
use crate::tui::view::{Focus, Scope};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

pub fn split(buf: &mut Buffer, area: Rect, app: &App, theme: Theme) {
    match app.view().scope {
        Scope::Functions => callers_callees(buf, area, app, theme),
        Scope::Stacks(_) => frames(buf, area, app, theme),
        _ => {}
    }
}

fn callers_callees(buf: &mut Buffer, area: Rect, app: &App, theme: Theme) {
    let (left, right) = layout::detail_halves(area);
    let name = app
        .selected_function()
        .map(|f| fname(app, f))
        .unwrap_or_default();
    let focus = app.view().focus;
    let at = |f: Focus| match f {
        Focus::Callers(i) | Focus::Callees(i) => Some(i),
        _ => None,
    };
    let callers_at = at(focus).filter(|_| matches!(focus, Focus::Callers(_)));
    let callees_at = at(focus).filter(|_| matches!(focus, Focus::Callees(_)));
    // Being counted (a large profile's first frame): the lists say so.
    let (callers, callees, none) = match app.neighbours() {
        Some((callers, callees)) => (callers, callees, "(none)"),
        None => (Default::default(), Default::default(), "(counting…)"),
    };
    edges(
        buf,
        left,
        app,
        &format!(" Callers of {name} "),
        (&callers, none),
        callers_at,
        theme,
    );
    edges(
        buf,
        right,
        app,
        &format!(" Callees of {name} "),
        (&callees, none),
        callees_at,
        theme,
    );
}

/// A bordered list of neighbours, heaviest first, each with its time,
/// its calls (or hits) and its share, as far as the width allows (the
/// share always); a name two functions share carries its module.
fn edges(
    buf: &mut Buffer,
    area: Rect,
    app: &App,
    title: &str,
    (list, none): (&[Edge], &str),
    focused: Option<usize>,
    theme: Theme,
) {
    let (title, _) = fit(title, usize::from(area.width.saturating_sub(4)));
    Block::bordered()
        .title(Span::styled(title, theme.title()))
        .render(area, buf);
    let inner = inner(area);
    if list.is_empty() {
        buf.set_stringn(
            inner.x + 1,
            inner.y,
            none,
            usize::from(inner.width),
            theme.dim(),
        );
        return;
    }
    let rows = usize::from(inner.height);
    let first = focused.map_or(0, |i| (i + 1).saturating_sub(rows));
    // Numbers the list has, and room for them beside a name of 12 cells.
    let has_time = list.iter().any(|e| e.time_ms.is_some());
    let has_hits = list.iter().any(|e| e.hits.is_some());
    let (time_w, hits_w, share_w) = (12u16, 9u16, 8u16);
    let room = |w: u16| inner.width >= 3 + 12 + share_w + w;
    let show_time = has_time && room(time_w);
    let show_hits = has_hits && room(time_w * u16::from(show_time) + hits_w);
    for (i, y) in (inner.y..inner.bottom()).enumerate() {
        let Some(e) = list.get(first + i) else { break };
        let selected = focused == Some(first + i);
        let style = if selected {
            theme.selected(true)
        } else {
            theme.base()
        };
        buf.set_style(Rect::new(inner.x, y, inner.width, 1), style);
        let mut numbers = String::new();
        if show_time {
            numbers.push_str(&format!(
                "{:>w$}",
                cell(Value::Ms(e.time_ms)),
                w = usize::from(time_w)
            ));
        }
        if show_hits {
            numbers.push_str(&format!(
                "{:>w$}",
                cell(Value::Count(e.hits)),
                w = usize::from(hits_w)
            ));
        }
        let share = match e.share {
            Some(_) => format!("{} %", cell(Value::Pct(e.share))),
            None => cell(Value::Pct(None)),
        };
        numbers.push_str(&format!(" {share:>w$}", w = usize::from(share_w)));
        let numbers_w = numbers.chars().count() as u16;
        let name_w = inner.width.saturating_sub(numbers_w + 2);
        let mut label = fname(app, e.func);
        if app.profile.name_is_shared(e.func) {
            let module = app.profile.function_module(e.func);
            label.push_str(&format!(" [{}]", crate::text::visible(module)));
        }
        let (name, _) = fit(&label, usize::from(name_w));
        buf.set_stringn(inner.x + 1, y, name, usize::from(name_w), style);
        let nx = inner.right().saturating_sub(numbers_w + 1);
        buf.set_stringn(nx, y, numbers, usize::from(numbers_w), style);
    }
}

fn frames(buf: &mut Buffer, area: Rect, app: &App, theme: Theme) {
    let frames = app.frames();
    let marked = app.view().scope.focus_function();
    let focused = match app.view().focus {
        Focus::Frames(i) => Some(i),
        _ => None,
    };
    let title = format!(" Frames, root to leaf ({}) ", frames.len());
    Block::bordered()
        .title(Span::styled(title, theme.title()))
        .render(area, buf);
    let inner = inner(area);
    let first = app.frames_offset(area);
    for (i, y) in (inner.y..inner.bottom()).enumerate() {
        let n = first + i;
        let Some(&f) = frames.get(n) else { break };
        let style = if focused == Some(n) {
            theme.selected(true)
        } else {
            theme.base()
        };
        buf.set_style(Rect::new(inner.x, y, inner.width, 1), style);
        let module = crate::text::visible(app.profile.function_module(f)).into_owned();
        let mut spans = vec![Span::styled(
            format!("{:>3}  ", n + 1),
            theme.on(style, theme.dim()),
        )];
        let name = fname(app, f);
        if Some(f) == marked {
            spans.push(Span::styled(
                format!("[{name}]"),
                theme.on(style, theme.marked()),
            ));
        } else {
            spans.push(Span::styled(name, style));
        }
        if !module.is_empty() {
            spans.push(Span::styled(
                format!("  {module}"),
                theme.on(style, theme.dim()),
            ));
        }
        buf.set_line(
            inner.x + 1,
            y,
            &Line::from(spans),
            inner.width.saturating_sub(1),
        );
    }
}
