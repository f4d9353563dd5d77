//! The split under the table: the selected function's callers and callees
//! with their shares, or the selected stack's frames root to leaf.

use crate::analysis::callgraph::{self, Edge, Who};
use crate::analysis::cct::{Label, Weigh};
use crate::analysis::columns::Value;
use crate::analysis::view::Table;
use crate::model::Profile;
use crate::report::fmt::cell;
use crate::tui::fit::{fit, fit_names_modules, fname, full_name, shared_module};
use crate::tui::layout;
use crate::tui::pane::{Ctx, Focus, TablePane, inner};
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};
use unicode_width::UnicodeWidthStr;

pub(super) fn split(buf: &mut Buffer, area: Rect, t: &TablePane, cx: &Ctx, theme: Theme) {
    match t.table {
        Table::Functions if t.focus == Focus::Durations => {
            super::durations::draw(buf, area, t, cx, theme)
        }
        Table::Functions => callers_callees(buf, area, t, cx, theme),
        Table::Stacks => frames(buf, area, t, cx, theme),
        _ => {}
    }
}

fn callers_callees(buf: &mut Buffer, area: Rect, t: &TablePane, cx: &Ctx, theme: Theme) {
    let (left, right) = layout::detail_halves(area);
    let p = cx.profile.as_ref();
    let f = t.split_function(cx);
    // A name two functions share carries its module, as in the lists.
    let name = f.map(|f| full_name(p, Label::Func(f))).unwrap_or_default();
    let focus = t.focus;
    let at = |f: Focus| match f {
        Focus::Callers(i) | Focus::Callees(i) => Some(i),
        _ => None,
    };
    let callers_at = at(focus).filter(|_| matches!(focus, Focus::Callers(_)));
    let callees_at = at(focus).filter(|_| matches!(focus, Focus::Callees(_)));
    // Being counted (a large profile's first frame): the lists say so.
    let lists = match f {
        Some(f) => cx.neighbours(f),
        None => Some((Default::default(), Default::default(), false)),
    };
    let (callers, callees, none, overlap) = match lists {
        Some((callers, callees, recursive)) => (callers, callees, "(none)", recursive),
        None => (Default::default(), Default::default(), "(counting…)", false),
    };
    // Recursive: the edges' times nest. Short, so it fits half of 80.
    let note = if overlap { " · shares overlap" } else { "" };
    // Both lists show the same columns, measured over both, so that they
    // line up and neither drops a number the other shows.
    let heading = Heading::of(p, &[&callers, &callees]);
    edges(
        buf,
        left,
        p,
        &format!(" Callers of {name}{note} "),
        (&callers, none, &heading, "caller"),
        callers_at,
        theme,
    );
    edges(
        buf,
        right,
        p,
        &format!(" Callees of {name}{note} "),
        (&callees, none, &heading, "callee"),
        callees_at,
        theme,
    );
}

/// What the butterfly's columns are: a time, a count (calls or samples)
/// and the share, each named in a heading line.
struct Heading {
    /// The time column's name: the profile's unit (`ms`, `ticks`).
    time: &'static str,
    count: &'static str,
    share: &'static str,
    has_time: bool,
    has_count: bool,
    /// Each column's width: its widest cell in either list, or its name.
    widths: [u16; 3],
}

fn time(e: &Edge) -> String {
    cell(Value::Ms(e.time_ms))
}

fn count(e: &Edge) -> String {
    cell(Value::Count(e.calls.or(e.hits)))
}

/// The share without its `%`: the heading (`% incl`) says what it is of.
fn share(e: &Edge) -> String {
    cell(Value::Pct(e.share))
}

impl Heading {
    fn of(p: &Profile, lists: &[&[Edge]]) -> Heading {
        let both = || lists.iter().flat_map(|l| l.iter());
        let count_name = callgraph::count_name(p);
        let share_name = match crate::analysis::cct::Weigh::of(p) {
            Weigh::Ms | Weigh::Hits => "% incl",
            Weigh::Calls => "% calls",
        };
        let widest = |f: &dyn Fn(&Edge) -> String, head: &str| {
            both()
                .map(|e| f(e).width())
                .chain([head.width()])
                .max()
                .unwrap_or(0) as u16
        };
        let time_name = p.time_unit_name();
        Heading {
            time: time_name,
            count: count_name,
            share: share_name,
            has_time: both().any(|e| e.time_ms.is_some()),
            has_count: both().any(|e| e.calls.or(e.hits).is_some()),
            widths: [
                widest(&time, time_name),
                widest(&count, count_name),
                widest(&share, share_name),
            ],
        }
    }
}

/// A bordered list of neighbours, heaviest first, under a heading line
/// naming its columns: time, calls (or samples) and the share of the
/// function's inclusive value, as far as the width allows (the share
/// always); a name two functions share carries its module.
fn edges(
    buf: &mut Buffer,
    area: Rect,
    p: &Profile,
    title: &str,
    (list, none, heading, who): (&[Edge], &str, &Heading, &str),
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
    let rows = usize::from(inner.height.saturating_sub(1));
    let first = focused.map_or(0, |i| (i + 1).saturating_sub(rows));
    let [time_w, count_w, share_w] = heading.widths;
    let room = |w: u16| inner.width >= 3 + 10 + share_w + w;
    let show_time = heading.has_time && room(time_w + 2);
    let show_count = heading.has_count && room((time_w + 2) * u16::from(show_time) + count_w + 2);
    let numbers = |t: String, c: String, s: String| {
        let mut out = String::new();
        if show_time {
            out.push_str(&format!("{t:>w$}  ", w = usize::from(time_w)));
        }
        if show_count {
            out.push_str(&format!("{c:>w$}  ", w = usize::from(count_w)));
        }
        out.push_str(&format!("{s:>w$}", w = usize::from(share_w)));
        out
    };
    let head = numbers(
        heading.time.into(),
        heading.count.into(),
        heading.share.into(),
    );
    let numbers_w = head.width() as u16;
    // A space between the name and the numbers, and one at each side.
    let name_w = inner.width.saturating_sub(numbers_w + 3);
    let nx = inner.right().saturating_sub(numbers_w + 1);
    buf.set_stringn(nx, inner.y, &head, usize::from(numbers_w), theme.dim());
    buf.set_stringn(inner.x + 1, inner.y, who, usize::from(name_w), theme.dim());
    // Rows below the last shown: the bottom edge says how many.
    let below = list.len().saturating_sub(first + rows);
    let shown = (show_time, show_count);
    if let Some(text) = edge_note(below, heading, shown).filter(|_| area.height > 0) {
        let w = usize::from(area.width.saturating_sub(4));
        buf.set_stringn(area.x + 2, area.bottom() - 1, text, w, theme.dim());
    }
    let names = shown_names(p, &list[first.min(list.len())..], rows, name_w);
    for (i, y) in (inner.y + 1..inner.bottom()).enumerate() {
        let (Some(e), Some(name)) = (list.get(first + i), names.get(i)) else {
            break;
        };
        let selected = focused == Some(first + i);
        let style = if selected {
            theme.selected(true)
        } else {
            theme.base()
        };
        buf.set_style(Rect::new(inner.x, y, inner.width, 1), style);
        let row = numbers(time(e), count(e), share(e));
        let name_style = match e.who {
            Who::Func(_) => style,
            _ => theme.on(style, theme.dim()),
        };
        buf.set_stringn(inner.x + 1, y, name, usize::from(name_w), name_style);
        buf.set_stringn(nx, y, row, usize::from(numbers_w), style);
    }
}

/// The names of the first `rows` of `list`, each with its module where
/// another module's function shares it, cut together so no two read the
/// same (`fit_names_modules`).
fn shown_names(p: &Profile, list: &[Edge], rows: usize, name_w: u16) -> Vec<String> {
    let labels: Vec<(String, Option<String>)> = list
        .iter()
        .take(rows)
        .map(|e| who_label(p, e.who))
        .collect();
    let names: Vec<(&str, Option<&str>, usize)> = labels
        .iter()
        .map(|(label, module)| (label.as_str(), module.as_deref(), usize::from(name_w)))
        .collect();
    fit_names_modules(&names)
}

/// What the bottom edge says: rows below the last shown, and columns the
/// width left out (a number is never cut: its column goes whole).
fn edge_note(below: usize, heading: &Heading, (time, count): (bool, bool)) -> Option<String> {
    let mut edge = Vec::new();
    if below > 0 {
        edge.push(format!("↓ {below} more"));
    }
    let hidden: Vec<&str> = [
        (heading.has_time && !time, heading.time),
        (heading.has_count && !count, heading.count),
    ]
    .into_iter()
    .filter_map(|(hid, name)| hid.then_some(name))
    .collect();
    if !hidden.is_empty() {
        edge.push(format!("{} hidden", hidden.join(", ")));
    }
    (!edge.is_empty()).then(|| format!(" {} ", edge.join(" · ")))
}

/// A caller's or callee's name, and its module where two functions share
/// the name.
fn who_label(p: &Profile, who: Who) -> (String, Option<String>) {
    match who {
        Who::Func(g) => (fname(p, g), shared_module(p, g).map(|m| m.into_owned())),
        other => (other.name(p).to_string(), None),
    }
}

fn frames(buf: &mut Buffer, area: Rect, t: &TablePane, cx: &Ctx, theme: Theme) {
    let p = cx.profile.as_ref();
    let frames = t.frames(cx);
    let marked = t.about();
    let focused = match t.focus {
        Focus::Frames(i) => Some(i),
        _ => None,
    };
    let title = format!(
        " Frames, root to leaf ({}) ",
        crate::report::fmt::grouped(frames.len() as u64)
    );
    Block::bordered()
        .title(Span::styled(title, theme.title()))
        .render(area, buf);
    let inner = inner(area);
    let first = t.frames_offset(area, &frames);
    for (i, y) in (inner.y..inner.bottom()).enumerate() {
        let n = first + i;
        let Some(&f) = frames.get(n) else { break };
        let style = if focused == Some(n) {
            theme.selected(true)
        } else {
            theme.base()
        };
        buf.set_style(Rect::new(inner.x, y, inner.width, 1), style);
        let module = crate::text::visible(p.function_module(f)).into_owned();
        let mut spans = vec![Span::styled(
            format!("{:>3}  ", n + 1),
            theme.on(style, theme.dim()),
        )];
        let name = fname(p, f);
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

/// What the table's percent columns are out of, as its frame says: only
/// the percents it has columns for (none for the stacks or the packets),
/// the same words `report`'s heading gives; a function's lines (`l`), of
/// that function's time, named with its figure.
pub(super) fn percent_basis(t: &TablePane, cx: &Ctx) -> String {
    use crate::analysis::columns::Column;
    use crate::tui::columns::Col;
    let Some(table) = t.columns_of() else {
        return String::new();
    };
    let p = cx.profile.as_ref();
    let keys: Vec<&str> = cx
        .columns(table)
        .cols
        .iter()
        .map(|&c| match c {
            Col::F(c) => c.key(),
            Col::L(c) => c.key(),
            Col::S(c) => c.key(),
            Col::P(c) => c.key(),
            Col::T(c) => c.key(),
            Col::M(c) => c.key(),
        })
        .collect();
    let function = match t.within {
        crate::tui::pane::Within::Function(f) if t.table == Table::Lines => Some(f),
        _ => None,
    };
    // Lines that carry no function are the module's, each a share of the
    // session (model.md § The four time values).
    let of_it = |r: u32| {
        p.line(crate::model::LineId::from_index(r as usize))
            .function
    };
    match function.filter(|&f| keys.contains(&"pct") && t.rows.get(0).and_then(of_it) == Some(f)) {
        Some(f) => {
            let func = p.function(f);
            let whole = match (func.time.elapsed_inclusive, func.hits_total) {
                (Some(ms), _) => crate::report::fmt::grouped_time(p, ms),
                (None, Some(n)) => format!("{} samples", crate::report::fmt::grouped(n)),
                (None, None) => return String::new(),
            };
            format!("% of {}'s {whole}", full_name(p, Label::Func(f)))
        }
        None => crate::report::fmt::percent_basis(p, &keys),
    }
}
