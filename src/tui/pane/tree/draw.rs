//! The Call tree pane: the rows on screen of the view's `CallTree`, each
//! indented by its depth with ▸ (closed) or ▾ (open), then total and self
//! weight with their percents, a bar, the total's share of the parent's
//! (`Parent%`: which callee of a heavy caller matters, where a share of
//! the session shrinks with depth), and the calls or samples. Numbers are
//! written by `report::fmt::cell`, as every table's are.
//!
//! A path deeper than a third of the name column would push the names off
//! the screen: past that, the indent stops growing and the row says its
//! depth (`1204›`) instead.

use crate::analysis::calltree::{CallTree, Direction, TreeCol, Unit, Values};
use crate::analysis::columns::Value;
use crate::model::{Profile, TimeUnit};
use crate::report::fmt::cell;
use crate::text::visible;
use crate::tui::fit::{
    fit, fit_names_modules, frame_title, full_name, put, shared_module, with_name,
};
use crate::tui::layout::{MARKER, SPACING};
use crate::tui::pane::tree::Shown;
use crate::tui::pane::{Ctx, TreePane, inner};
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};
use unicode_width::UnicodeWidthStr;

/// A number column: its heading, width and what it shows.
struct NumCol {
    head: String,
    width: u16,
    sort: Option<TreeCol>,
    what: What,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum What {
    Total,
    /// In a comparison, BASE's total at the row's path of names.
    BaseTotal,
    /// In a comparison, the total's change, NEW − BASE, signed.
    Change,
    TotalPct,
    Bar,
    SelfW,
    SelfPct,
    Share,
    ParentPct,
    Count,
}

/// How the tree's weights are written: in the profile's time unit, or in
/// thousands of it where a number would leave the names no room (seconds,
/// thousands of ticks: the unit then in the headings, `Total s`,
/// `Total kticks`): no digit is ever cut.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scale {
    Ms,
    S,
    Count,
}

/// A row's numbers: the tree's, and in a comparison BASE's total at its
/// path (`None` outside a comparison, `Some(None)` where BASE has no
/// such path).
#[derive(Clone, Copy)]
struct Nums {
    v: Values,
    base: Option<Option<f64>>,
}

/// The narrowest the name column is left before the weights change unit.
const NAME_ROOM: u16 = 16;

/// The columns, each as wide as its heading and the widest value it
/// shows on screen (a weight never wider than the session's total).
fn columns(
    (t, unit): (&CallTree, TimeUnit),
    count_head: &'static str,
    scale: Scale,
    shown: &[Nums],
) -> Vec<NumCol> {
    let col = |head: &str, sort, what| NumCol {
        head: head.to_string(),
        width: 0,
        sort,
        what,
    };
    let named = |unit: &str| (format!("Total {unit}"), format!("Self {unit}"));
    let (total, self_w) = match scale {
        Scale::Ms => named(unit.name()),
        Scale::S => named(unit.thousand_name()),
        Scale::Count => ("Total".to_string(), "Self".to_string()),
    };
    let (total, self_w) = (total.as_str(), self_w.as_str());
    let mut cols = match t.direction {
        Direction::TopDown => vec![
            col(total, Some(TreeCol::Total), What::Total),
            col("Total%", None, What::TotalPct),
            col("Parent%", None, What::ParentPct),
            col(self_w, Some(TreeCol::SelfW), What::SelfW),
            col("Self%", None, What::SelfPct),
        ],
        Direction::BottomUp => vec![
            col(self_w, Some(TreeCol::Total), What::Total),
            col("Self%", None, What::TotalPct),
            col("Of func%", None, What::Share),
            col("Parent%", None, What::ParentPct),
        ],
    };
    if scale != Scale::Count {
        cols.push(col(count_head, Some(TreeCol::Count), What::Count));
    }
    let compared = shown.first().is_some_and(|n| n.base.is_some());
    if compared && t.direction == Direction::TopDown {
        let (base, change) = match scale {
            Scale::Ms => (
                format!("Base {}", unit.name()),
                format!("Δ {}", unit.name()),
            ),
            Scale::S => (
                format!("Base {}", unit.thousand_name()),
                format!("Δ {}", unit.thousand_name()),
            ),
            Scale::Count => ("Base".to_string(), "Δ".to_string()),
        };
        cols.insert(1, col(&base, None, What::BaseTotal));
        cols.insert(2, col(&change, None, What::Change));
    }
    let whole = Nums {
        v: Values {
            total: Some(t.index().total),
            self_w: Some(t.index().total),
            count: None,
            share: Some(100.0),
            parent_pct: Some(100.0),
        },
        base: None,
    };
    for c in &mut cols {
        let widest = shown
            .iter()
            .chain([&whole])
            .map(|v| number(t, c.what, v, 0, scale).width())
            .max()
            .unwrap_or(0);
        // Percents keep the room of 100.00 and a space; other numbers a
        // column of at least 10, so a frame's columns seldom move.
        let least = if c.head.ends_with('%') { 7 } else { 10 };
        c.width = (widest.max(c.head.width()) as u16).max(least);
    }
    cols
}

/// The columns for the rows shown, and the room they leave the name
/// column: in milliseconds while the names keep `NAME_ROOM`, else in
/// seconds; a bar where the screen is wide.
fn layout(
    (t, unit): (&CallTree, TimeUnit),
    count_head: &'static str,
    width: u16,
    shown: &[Nums],
) -> (Vec<NumCol>, u16, Scale) {
    let name_w = |cols: &[NumCol]| {
        let numbers: u16 = cols.iter().map(|c| c.width + SPACING).sum();
        width.saturating_sub(numbers + MARKER)
    };
    let mut scale = match t.index().unit() {
        Unit::Ms => Scale::Ms,
        Unit::Count => Scale::Count,
    };
    // In a comparison, the shares give way to the names before a digit
    // of BASE's total or the change does: they read with the total.
    let give_way = |cols: &mut Vec<NumCol>| {
        if cols.iter().any(|c| c.what == What::Change) {
            for what in [What::ParentPct, What::SelfPct, What::TotalPct] {
                if name_w(cols) < NAME_ROOM {
                    cols.retain(|c| c.what != what);
                }
            }
        }
    };
    let mut cols = columns((t, unit), count_head, scale, shown);
    give_way(&mut cols);
    if scale == Scale::Ms && name_w(&cols) < NAME_ROOM {
        scale = Scale::S;
        cols = columns((t, unit), count_head, scale, shown);
        give_way(&mut cols);
    }
    // Still no room for the names: the share of the parent, which the
    // totals beside it give too, gives way before them.
    if name_w(&cols) < NAME_ROOM {
        cols.retain(|c| c.what != What::ParentPct);
    }
    if width >= 110 {
        let bar = NumCol {
            head: String::new(),
            width: 12,
            sort: None,
            what: What::Bar,
        };
        // After the total's percent (in a comparison, after BASE's total
        // and the change, which read with the total).
        let at = cols
            .iter()
            .position(|c| c.what == What::TotalPct)
            .map_or(2, |i| i + 1);
        cols.insert(at.min(cols.len()), bar);
    }
    let w = name_w(&cols);
    (cols, w, scale)
}

/// The pane: its bordered block, titled, and the rows on screen.
pub(crate) fn pane(buf: &mut Buffer, area: Rect, v: &TreePane, cx: &Ctx, theme: Theme) {
    let (title, mut bottom) = titles(cx, v);
    let title = frame_title(&title, area.width);
    Block::bordered()
        .title(Line::from(Span::styled(title, theme.title())))
        .render(area, buf);
    // The selected row's name, whole, on the frame, when its row cuts it.
    if let Some(name) = rows(buf, inner(area), v, cx, theme) {
        let frame = usize::from(area.width.saturating_sub(4));
        bottom = with_name(&name, bottom, frame);
    }
    let w = usize::from(area.width.saturating_sub(2));
    let bottom = fit(&bottom, w).0;
    buf.set_stringn(
        area.x + 1,
        area.bottom().saturating_sub(1),
        bottom,
        w,
        theme.dim(),
    );
}

/// Draws the rows on screen; the selected row's whole name (and module)
/// when its row shows it cut.
fn rows(buf: &mut Buffer, inner: Rect, v: &TreePane, cx: &Ctx, theme: Theme) -> Option<String> {
    let p = cx.profile.as_ref();
    let t = v.tree.as_ref();
    // A profile without call paths has only `(no call path)`: the pane
    // says so, as the Stacks and Flame panes do (the exports and `report
    // --view tree` list its functions' self time under that root).
    if t.rows.is_empty() || p.nodes().is_empty() {
        let why = format!(
            " No call tree: this {} profile has no call paths (it states totals per function).",
            p.format
        );
        put(buf, inner, &Line::from(why));
        return None;
    }
    let count_head = if p.totals.samples.is_some() {
        "Samples"
    } else {
        "Calls"
    };
    let first = inner.y + 1;
    let rows_on: usize = (first..inner.bottom()).len();
    let shown: Vec<Drawn> = (v.offset..v.offset + rows_on)
        .map_while(|at| drawn(v, p, at))
        .collect();
    let values: Vec<Nums> = shown.iter().map(|r| r.nums).collect();
    let unit = p.time_unit().unwrap_or_default();
    let (cols, room, scale) = layout((t, unit), count_head, inner.width, &values);
    let (labels, name_w) = row_labels(t, &shown, room);
    let mut whole = None;
    let name_x = inner.x + MARKER;
    headings(buf, (inner, name_w), t, &cols, theme);
    for ((d, label), y) in shown.iter().zip(labels).zip(first..) {
        let selected = d.at == v.cursor;
        let base = match selected {
            true => theme.selected(true),
            false => theme.base(),
        };
        buf.set_style(Rect::new(inner.x, y, inner.width, 1), base);
        if selected {
            buf.set_stringn(inner.x, y, "▶", usize::from(MARKER), base);
        }
        if selected && label.contains('…') {
            whole = Some(d.full.clone());
        }
        let style = match d.id.is_some_and(|id| t.marked.contains(&id)) {
            true => theme.on(base, theme.matched()),
            false => base,
        };
        buf.set_stringn(name_x, y, &label, usize::from(name_w), style);
        let mut x = name_x + name_w;
        for c in &cols {
            x += SPACING;
            let text = number(t, c.what, &d.nums, c.width, scale);
            let tx = x + c.width.saturating_sub(text.width() as u16);
            let style = match c.what {
                What::Bar => theme.on(base, theme.bar()),
                What::Change if text.starts_with('+') => theme.on(base, theme.slower()),
                What::Change if text.starts_with('-') => theme.on(base, theme.faster()),
                _ => base,
            };
            let tx = if matches!(c.what, What::Bar) { x } else { tx };
            buf.set_stringn(tx, y, text, usize::from(c.width), style);
            x += c.width;
        }
    }
    whole
}

/// A row on screen as it is drawn: NEW's row, or a path only BASE has.
struct Drawn {
    /// Its place on screen.
    at: usize,
    /// NEW's row id; none for a gone row.
    id: Option<u32>,
    depth: u32,
    nums: Nums,
    name: String,
    /// Its module, where another module's function shares its name.
    module: Option<String>,
    /// (has children, open).
    mark: (bool, bool),
    /// The name and module whole, for the frame when the row cuts it.
    full: String,
}

/// Row `at` on screen, to be drawn.
fn drawn(v: &TreePane, p: &Profile, at: usize) -> Option<Drawn> {
    let t = v.tree.as_ref();
    match v.shown(at)? {
        Shown::New(k) => {
            let r = t.rows.get(k)?;
            let label = t.label(p, r.id);
            let module = label.func().and_then(|f| shared_module(p, f));
            Some(Drawn {
                at,
                id: Some(r.id),
                depth: r.depth,
                nums: Nums {
                    v: t.values(p, r.id),
                    base: v.against.as_ref().map(|b| base_total(b, p, t, r.id)),
                },
                name: visible(label.name(p)).into_owned(),
                module: module.map(|m| m.into_owned()),
                mark: (t.has_children(r.id), t.is_open(r.id)),
                full: full_name(p, label),
            })
        }
        Shown::Gone { node, depth } => {
            let b = v.against.as_ref()?;
            let name = format!("{} · gone", visible(b.name(node)));
            Some(Drawn {
                at,
                id: None,
                depth,
                nums: Nums {
                    v: Values::default(),
                    base: Some(Some(b.weight(node))),
                },
                full: name.clone(),
                name,
                module: None,
                mark: (b.has_children(node), v.gone_open(node)),
            })
        }
    }
}

/// The headings: the name's (its direction) and each number column's,
/// the sort column's marked.
fn headings(
    buf: &mut Buffer,
    (inner, name_w): (Rect, u16),
    t: &CallTree,
    cols: &[NumCol],
    theme: Theme,
) {
    let name_x = inner.x + MARKER;
    let head = heading(t.direction);
    // A narrow name column says what it holds whole, not a cut phrase.
    let head = match head.width() > usize::from(name_w) {
        true => "Function",
        false => head,
    };
    let style = |sorted: bool| match sorted {
        true => theme.sorted_header(),
        false => theme.header_row(),
    };
    let name_style = style(t.sort.0 == TreeCol::Name);
    buf.set_stringn(name_x, inner.y, head, usize::from(name_w), name_style);
    let mut x = name_x + name_w;
    for c in cols {
        x += SPACING;
        let hx = x + c.width.saturating_sub(c.head.width() as u16);
        let st = style(c.sort == Some(t.sort.0));
        buf.set_stringn(hx, inner.y, &c.head, usize::from(c.width), st);
        x += c.width;
    }
}

/// The name column's heading, by the tree's direction.
fn heading(direction: Direction) -> &'static str {
    match direction {
        Direction::TopDown => "Function (callees below)",
        Direction::BottomUp => "Function (callers below)",
    }
}

/// The labels of the rows on screen (indent, ▸/▾, the name,
/// and a name another module's function shares its module), and the name
/// column's width: the widest label's (its heading's at least), `room` at
/// most, so on a wide screen the numbers sit beside the names, not across
/// it. Names wider are cut keeping their method, together (`fit_names`),
/// so no two rows read the same where their names differ.
fn row_labels(t: &CallTree, rows: &[Drawn], room: u16) -> (Vec<String>, u16) {
    let widest = rows
        .iter()
        .map(|d| {
            let module = d.module.as_ref().map_or(0, |m| m.width() + 3);
            2 * d.depth as usize + 2 + d.name.width() + module
        })
        .max()
        .unwrap_or(0)
        .max(heading(t.direction).width());
    let name_w = u16::try_from(widest).map_or(room, |w| w.min(room));
    let leads: Vec<String> = rows.iter().map(|d| row_lead(d, name_w)).collect();
    let names: Vec<(&str, Option<&str>, usize)> = leads
        .iter()
        .zip(rows)
        .map(|(lead, d)| {
            let room = usize::from(name_w).saturating_sub(lead.width());
            (d.name.as_str(), d.module.as_deref(), room)
        })
        .collect();
    let labels = fit_names_modules(&names)
        .into_iter()
        .zip(&leads)
        .map(|(name, lead)| format!("{lead}{name}"))
        .collect();
    (labels, name_w)
}

/// A row's indent and ▸/▾ in a name column `name_w` wide: past a third of
/// it, the indent stops growing and says the depth (`1204›`).
fn row_lead(d: &Drawn, name_w: u16) -> String {
    let (depth, cap) = (d.depth, usize::from(name_w / 3));
    let indent = depth as usize * 2;
    let lead = if indent <= cap {
        " ".repeat(indent)
    } else {
        let tag = format!("{depth}› ");
        format!("{}{tag}", " ".repeat(cap.saturating_sub(tag.width())))
    };
    let mark = match d.mark {
        (true, true) => "▾ ",
        (true, false) => "▸ ",
        (false, _) => "  ",
    };
    fit(&format!("{lead}{mark}"), usize::from(name_w)).0
}

fn number(t: &CallTree, what: What, n: &Nums, width: u16, scale: Scale) -> String {
    let v = &n.v;
    let scaled = |x: f64| match scale {
        Scale::S => x / 1000.0,
        _ => x,
    };
    let weight = |x: Option<f64>| match scale {
        Scale::Ms => cell(Value::Ms(x)),
        Scale::S => cell(Value::Ms(x.map(|t| t / 1000.0))),
        Scale::Count => cell(Value::Count(x.map(|x| x as u64))),
    };
    match what {
        What::Total => weight(v.total),
        What::BaseTotal => weight(n.base.flatten()),
        What::Change => {
            let new = scaled(v.total.unwrap_or(0.0));
            let base = n.base.flatten().map(scaled);
            let d = crate::analysis::diff::tree_delta(base, new, scale == Scale::Count);
            crate::analysis::diff::signed(d)
        }
        What::SelfW => weight(v.self_w),
        What::TotalPct => cell(Value::Pct(t.percent(v.total))),
        What::SelfPct => cell(Value::Pct(t.percent(v.self_w))),
        What::Share => cell(Value::Pct(v.share)),
        What::ParentPct => cell(Value::Pct(v.parent_pct)),
        What::Count => cell(Value::Count(v.count)),
        What::Bar => {
            let pct = t.percent(v.total).unwrap_or(0.0).clamp(0.0, 100.0);
            let cells = (pct / 100.0 * f64::from(width)).round() as usize;
            "█".repeat(cells)
        }
    }
}

/// BASE's total at the path of names of row `id` of NEW's tree
/// (top-down: a bottom-up row has no path of its own).
fn base_total(
    b: &crate::analysis::diff::TreeBase,
    p: &Profile,
    t: &CallTree,
    id: u32,
) -> Option<f64> {
    if t.direction != Direction::TopDown {
        return None;
    }
    let mut names = vec![t.label(p, id).name(p)];
    let mut at = id;
    while let Some(up) = t.parent(p, at) {
        names.push(t.label(p, up).name(p));
        at = up;
    }
    names.reverse();
    b.total_at(&names)
}

/// "Call tree · top-down · 1,204 rows · sort: total ▼ · search: x" (the
/// sort named as its column's heading names it),
/// and what the percents are out of.
fn titles(cx: &Ctx, v: &TreePane) -> (String, String) {
    // No call paths: no rows, no order, no total to be a share of (the
    // pane says why).
    if cx.profile.nodes().is_empty() {
        return (" Call tree ".into(), String::new());
    }
    let t = v.tree.as_ref();
    let dir = match t.direction {
        Direction::TopDown => "top-down",
        Direction::BottomUp => "bottom-up",
    };
    let col = v.sort_name(cx.profile);
    let mut title = format!(
        " {} · {dir} · {} · sort: {col} {} ",
        v.step_name(cx),
        crate::report::fmt::counted(v.rows_shown() as u64, "rows"),
        if t.sort.1 { "▼" } else { "▲" }
    );
    if !v.search.text.is_empty() {
        title.push_str(&format!("· search: {} ", visible(&v.search.text)));
    }
    let of = match t.index().unit() {
        Unit::Ms => crate::report::fmt::grouped_time(cx.profile, t.index().total),
        Unit::Count => crate::report::fmt::grouped(t.index().total as u64),
    };
    let legend = match v.against.is_some() && t.direction == Direction::TopDown {
        true => " · Base: BASE at the path · Δ NEW − BASE · gone: BASE only ",
        false => " ",
    };
    (title, format!(" % of {of}{legend}"))
}
