//! The split under the compared Functions table (tui.md § Comparisons):
//! the selected function's butterfly compared, its callers on the left
//! and its callees on the right, each neighbour paired across the runs as
//! the rows are (`analysis::diff::Neighbours`, read, never computed here)
//! with BASE's value, NEW's, the change and the change in percent, the
//! largest change first. `c` (or `Enter`) goes into the callers, then the
//! callees; `Enter` on one goes to its function (the keyboard stays in
//! the same list, so repeated presses walk up the callers); `Backspace`
//! comes back along that walk, then leaves the list.

use super::{ComparePane, Shown};
use crate::analysis::diff::{Butterfly, Link, Which};
use crate::tui::fit::{Cut, fit, fit_cut};
use crate::tui::intent::Intent;
use crate::tui::keymap::{Place, key_for};
use crate::tui::layout;
use crate::tui::pane::{Ctx, Effect, inner};
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::{Block, Widget};
use unicode_width::UnicodeWidthStr;

/// Where the keyboard is: the table, or a list of the split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    Table,
    Callers(usize),
    Callees(usize),
}

impl ComparePane {
    /// The selected row's butterfly compared (the functions' pane only).
    pub fn butterfly(&self) -> Option<Butterfly> {
        if self.pairs.is_some() {
            return None;
        }
        let row = self.selected()?;
        let shares = self.shown == Shown::Shares;
        let c = self.comparison();
        Some(self.compared.neighbours().butterfly(c, row, shares))
    }

    /// The link the keyboard is on, in the split.
    pub fn focused_link(&self) -> Option<Link> {
        let b = self.butterfly()?;
        match self.focus {
            Focus::Callers(i) => b.callers.get(i).copied(),
            Focus::Callees(i) => b.callees.get(i).copied(),
            Focus::Table => None,
        }
    }

    /// The comparison's row the keyboard is on: the table's, or the
    /// split's caller's or callee's.
    pub fn focused_row(&self) -> Option<usize> {
        match self.focus {
            Focus::Table => self.selected(),
            _ => self.focused_link().map(|l| l.row),
        }
    }

    /// Whether the keyboard is in the split.
    pub fn in_lists(&self) -> bool {
        self.focus != Focus::Table
    }

    /// An intent for the split, or `Back` along the walk; `None` where
    /// the table takes it.
    pub(super) fn lists_intent(&mut self, intent: &Intent, cx: &Ctx) -> Option<Effect> {
        if self.pairs.is_some() {
            return None;
        }
        if *intent == Intent::Back && !self.trail.is_empty() {
            return Some(self.walk_back());
        }
        if *intent == Intent::CallersCallees {
            return Some(self.cycle_lists());
        }
        if let Some(effect) = self.mouse(intent, cx) {
            return Some(effect);
        }
        if self.focus == Focus::Table {
            return None;
        }
        let page = layout::list_rows(self.detail(cx)).max(1) as isize;
        let len = self.focus_len();
        let at = |d: isize, i: usize| super::super::step(i, d, len);
        let moved = |f: Focus, d: isize| match f {
            Focus::Callers(i) => Focus::Callers(at(d, i)),
            Focus::Callees(i) => Focus::Callees(at(d, i)),
            Focus::Table => Focus::Table,
        };
        self.focus = match intent {
            Intent::Move(d) => moved(self.focus, *d),
            Intent::PageDown => moved(self.focus, page),
            Intent::PageUp => moved(self.focus, -page),
            Intent::First => moved(self.focus, isize::MIN / 2),
            Intent::Last => moved(self.focus, isize::MAX / 2),
            Intent::Back | Intent::Cancel => Focus::Table,
            Intent::Open => return Some(self.go_to_link()),
            _ => return None,
        };
        Some(Effect::Done)
    }

    /// A click: a row of the table, or a caller or callee of the split
    /// (the keyboard then there); the wheel scrolls what it is over.
    pub(super) fn mouse(&mut self, intent: &Intent, cx: &Ctx) -> Option<Effect> {
        let (x, y, rows) = match *intent {
            Intent::Click { x, y } => (x, y, 0),
            Intent::Wheel { x, y, rows } => (x, y, rows),
            _ => return None,
        };
        let at = ratatui::layout::Position::new(x, y);
        let a = self.areas(cx);
        let in_detail = a.detail.filter(|d| d.contains(at));
        if rows != 0 {
            if in_detail.is_none() {
                self.focus = Focus::Table;
            }
            return Some(self.update(&Intent::Move(rows), cx));
        }
        if a.table.contains(at) && y >= a.table.y + 2 && y + 1 < a.table.bottom() {
            let i = self.offset + usize::from(y - a.table.y - 2);
            if i < self.order.len() {
                (self.cursor, self.focus) = (i, Focus::Table);
            }
        } else if let Some(d) = in_detail.filter(|d| y > d.y + 1 && y + 1 < d.bottom()) {
            self.click_list(x, usize::from(y - d.y - 2), d);
        }
        Some(Effect::Done)
    }

    /// A click on row `i` of a list on screen (under its heading line).
    fn click_list(&mut self, x: u16, i: usize, detail: Rect) {
        let Some(b) = self.butterfly() else { return };
        let (left, _) = layout::detail_halves(detail);
        let rows = layout::list_rows(detail).saturating_sub(1);
        let first = |f: Option<usize>| f.map_or(0, |i| (i + 1).saturating_sub(rows));
        self.focus = match (x < left.right(), self.focus) {
            (true, Focus::Callers(f)) if first(Some(f)) + i < b.callers.len() => {
                Focus::Callers(first(Some(f)) + i)
            }
            (true, _) if i < b.callers.len() => Focus::Callers(i),
            (false, Focus::Callees(f)) if first(Some(f)) + i < b.callees.len() => {
                Focus::Callees(first(Some(f)) + i)
            }
            (false, _) if i < b.callees.len() => Focus::Callees(i),
            _ => self.focus,
        };
    }

    fn detail(&self, cx: &Ctx) -> Rect {
        self.areas(cx).detail.unwrap_or_default()
    }

    fn focus_len(&self) -> usize {
        let b = self.butterfly().unwrap_or_default();
        match self.focus {
            Focus::Callers(_) => b.callers.len(),
            Focus::Callees(_) => b.callees.len(),
            Focus::Table => self.order.len(),
        }
    }

    /// `c` (and `Enter` on the table): into the callers, then the callees,
    /// then back to the table; a list that is empty is passed by.
    pub(super) fn cycle_lists(&mut self) -> Effect {
        let Some(b) = self.butterfly() else {
            return Effect::Done;
        };
        let (callers, callees) = (!b.callers.is_empty(), !b.callees.is_empty());
        let next = match self.focus {
            Focus::Table if callers => Focus::Callers(0),
            Focus::Table | Focus::Callers(_) if callees => Focus::Callees(0),
            _ => Focus::Table,
        };
        let none = next == Focus::Table && self.focus == Focus::Table;
        self.focus = next;
        match none {
            true => Effect::Say("no callers or callees in either run".into()),
            false => Effect::Done,
        }
    }

    /// `Enter` on a caller or callee: the table's cursor on its row (the
    /// search cleared where it hides it), the keyboard on the same list.
    fn go_to_link(&mut self) -> Effect {
        let Some(l) = self.focused_link() else {
            return Effect::Done;
        };
        self.trail
            .push((self.selected().unwrap_or(l.row), self.focus));
        let mut said = None;
        if !self.order.contains(&l.row) {
            self.search.set("");
            self.reorder();
            said = Some("the search is cleared to show it".to_string());
        }
        self.cursor = self.order.iter().position(|&i| i == l.row).unwrap_or(0);
        let callers = matches!(self.focus, Focus::Callers(_));
        self.focus = match callers {
            true => Focus::Callers(0),
            false => Focus::Callees(0),
        };
        if self.focus_len() == 0 {
            self.focus = Focus::Table;
        }
        let back = key_for(&Intent::Back, Place::Lists);
        let name = crate::text::visible(self.comparison().rows()[l.row].name(self.comparison()))
            .into_owned();
        let mut words = vec![format!("{name} · {back} comes back")];
        words.extend(said);
        Effect::Say(words.join(" · "))
    }

    /// `Backspace` after a walk: the function it came from, the keyboard
    /// where it was.
    fn walk_back(&mut self) -> Effect {
        let Some((row, focus)) = self.trail.pop() else {
            return Effect::Done;
        };
        if !self.order.contains(&row) {
            self.search.set("");
            self.reorder();
        }
        self.cursor = self.order.iter().position(|&i| i == row).unwrap_or(0);
        self.focus = focus;
        Effect::Done
    }
}

/// Draws the split: callers left, callees right.
pub(super) fn draw(buf: &mut Buffer, area: Rect, p: &ComparePane, theme: Theme) {
    let (left, right) = layout::detail_halves(area);
    let Some(b) = p.butterfly() else {
        return;
    };
    let c = p.comparison();
    let name = crate::text::visible(c.rows()[b.row].name(c)).into_owned();
    let at = |f: Focus| match (p.focus, f) {
        (Focus::Callers(i), Focus::Callers(_)) | (Focus::Callees(i), Focus::Callees(_)) => Some(i),
        _ => None,
    };
    let heads = Heads::of(p);
    let lists = [
        (left, "Callers", &b.callers, at(Focus::Callers(0)), "caller"),
        (
            right,
            "Callees",
            &b.callees,
            at(Focus::Callees(0)),
            "callee",
        ),
    ];
    for (area, what, list, focused, who) in lists {
        // The name cut as a name is (its method kept), the rest whole.
        let room = usize::from(area.width.saturating_sub(4));
        let rest = format!(" {what} of , compared ").width();
        let name = fit_cut(&name, room.saturating_sub(rest), Cut::Name).text;
        let title = format!(" {what} of {name}, compared ");
        let shown = ListShown {
            list,
            focused,
            who,
            heads: &heads,
        };
        draw_list(buf, area, (p, &b), &title, &shown, theme);
    }
}

/// One list's links and where the keyboard is in it.
struct ListShown<'a> {
    list: &'a [Link],
    focused: Option<usize>,
    who: &'a str,
    heads: &'a Heads,
}

/// The columns' headings: BASE's value, NEW's, the change, its percent.
struct Heads {
    base: String,
    new: String,
    change: String,
    pct: String,
}

impl Heads {
    /// The table's inclusive headings without the word `incl` (`Base
    /// ms`, `Δ pts`): an edge's value is the callee's inclusive value
    /// while called from the caller.
    fn of(p: &ComparePane) -> Heads {
        use super::{Col, Kind};
        let calls = p.comparison().measure() == Some(crate::analysis::diff::Measure::Calls);
        let h = |col: Col| {
            let text = p.heading(col).replacen(" incl", "", 1);
            match calls {
                true => format!("{text} calls"),
                false => text,
            }
        };
        Heads {
            base: h(Col::Side(Which::Base, Kind::Incl)),
            new: h(Col::Side(Which::New, Kind::Incl)),
            change: h(Col::Change(Kind::Incl)),
            pct: "Δ%".into(),
        }
    }
}

/// A link's cells: BASE's value, NEW's, the change, its percent.
fn cells(p: &ComparePane, b: &Butterfly, l: &Link) -> [String; 4] {
    let c = p.comparison();
    [
        b.value_cell(c, l, Which::Base),
        b.value_cell(c, l, Which::New),
        b.change_cell(c, l),
        b.change_pct_cell(c, l),
    ]
}

/// Which of the four value columns fit beside a name of at least 10
/// columns, each with its width: the change and its percent first, then
/// the value of the run the rows are more of (`base`: more rows gone
/// than new, as a function gone from NEW has), then the other's, which
/// gives way first (tui.md § Comparisons); never a digit cut: a column
/// goes whole.
fn fitting(width: u16, widths: [usize; 4], status: usize, base: bool) -> [bool; 4] {
    let mut room = usize::from(width).saturating_sub(3 + 10 + status);
    let mut shown = [false; 4];
    let order = match base {
        true => [2, 3, 0, 1],
        false => [2, 3, 1, 0],
    };
    for k in order {
        if widths[k] < room {
            room -= widths[k] + 1;
            shown[k] = true;
        }
    }
    shown
}

fn draw_list(
    buf: &mut Buffer,
    area: Rect,
    (p, b): (&ComparePane, &Butterfly),
    title: &str,
    s: &ListShown,
    theme: Theme,
) {
    let (title, _) = fit(title, usize::from(area.width.saturating_sub(4)));
    Block::bordered()
        .title(Span::styled(title, theme.title()))
        .render(area, buf);
    let inner = inner(area);
    if s.list.is_empty() {
        let none = "(none in either run)";
        let w = usize::from(inner.width.saturating_sub(1));
        buf.set_stringn(inner.x + 1, inner.y, none, w, theme.dim());
        return;
    }
    let rows = usize::from(inner.height.saturating_sub(1));
    let first = s.focused.map_or(0, |i| (i + 1).saturating_sub(rows));
    let visible = &s.list[first.min(s.list.len())..(first + rows).min(s.list.len())];
    let texts: Vec<[String; 4]> = visible.iter().map(|l| cells(p, b, l)).collect();
    let h = s.heads;
    let heads = [h.base.as_str(), &h.new, &h.change, &h.pct];
    let cols = Cols::of(&texts, heads, visible, inner.width);
    let name_w = cols.name_w(inner.width);
    let line = |st: &str, t: [&str; 4]| cols.line(st, t);
    let row_area = |y: u16| Rect::new(inner.x, y, inner.width, 1);
    let (head_st, head_cells) = line("", heads);
    let head = (s.who, name_w);
    put_row(
        buf,
        row_area(inner.y),
        head,
        &head_st,
        &head_cells,
        theme.dim(),
        None,
    );
    let c = p.comparison();
    for (i, (l, t)) in visible.iter().zip(&texts).enumerate() {
        let y = inner.y + 1 + i as u16;
        let selected = s.focused == Some(first + i);
        let style = if selected {
            theme.selected(true)
        } else {
            theme.base()
        };
        buf.set_style(row_area(y), style);
        let name = fit_cut(
            &crate::text::visible(c.rows()[l.row].name(c)),
            name_w,
            Cut::Name,
        )
        .text;
        let st = match l.status() {
            "both" => "",
            other => other,
        };
        let (st, cols) = line(st, [&t[0], &t[1], &t[2], &t[3]]);
        put_row(
            buf,
            row_area(y),
            (&name, name_w),
            &st,
            &cols,
            style,
            Some(theme),
        );
    }
    edge_note(
        buf,
        area,
        s.list.len().saturating_sub(first + rows),
        cols.shown,
        theme,
    );
}

/// The value columns of a list's rows on screen: each one's width, which
/// fit, and the status column's room (none where every link is in both).
struct Cols {
    widths: [usize; 4],
    shown: [bool; 4],
    status: usize,
}

impl Cols {
    fn of(texts: &[[String; 4]], heads: [&str; 4], visible: &[Link], width: u16) -> Cols {
        let mut widths = heads.map(UnicodeWidthStr::width);
        for t in texts {
            for k in 0..4 {
                widths[k] = widths[k].max(t[k].width());
            }
        }
        let status = match visible.iter().any(|l| l.status() != "both") {
            true => 5,
            false => 0,
        };
        let count = |what: &str| visible.iter().filter(|l| l.status() == what).count();
        let shown = fitting(width, widths, status, count("gone") > count("new"));
        Cols {
            widths,
            shown,
            status,
        }
    }

    /// The name's room: what the numbers and the status leave.
    fn name_w(&self, width: u16) -> usize {
        let numbers: usize = (0..4)
            .filter(|&k| self.shown[k])
            .map(|k| self.widths[k] + 1)
            .sum();
        usize::from(width).saturating_sub(2 + numbers + self.status)
    }

    /// A row's status and value cells, padded to their columns.
    fn line(&self, st: &str, t: [&str; 4]) -> (String, Vec<(usize, String)>) {
        let cols = (0..4)
            .filter(|&k| self.shown[k])
            .map(|k| (k, format!(" {:>w$}", t[k], w = self.widths[k])))
            .collect();
        let st = match self.status {
            0 => String::new(),
            _ => format!(" {st:<4}"),
        };
        (st, cols)
    }
}

/// A row: the name at the left, the status and the numbers at the right;
/// with `accent`, a change red where NEW spends more, blue where less.
fn put_row(
    buf: &mut Buffer,
    area: Rect,
    (name, name_w): (&str, usize),
    status: &str,
    cols: &[(usize, String)],
    style: ratatui::style::Style,
    accent: Option<Theme>,
) {
    buf.set_stringn(area.x + 1, area.y, name, name_w, style);
    let numbers: usize = cols.iter().map(|(_, t)| t.width()).sum();
    let right = usize::from(area.width).saturating_sub(1);
    let mut x = right.saturating_sub(numbers + status.width());
    buf.set_stringn(area.x + x as u16, area.y, status, status.width(), style);
    x += status.width();
    for (k, t) in cols {
        let s = match accent {
            Some(theme) if *k >= 2 && t.trim_start().starts_with('+') => {
                theme.on(style, theme.slower())
            }
            Some(theme) if *k >= 2 && t.trim_start().starts_with('-') => {
                theme.on(style, theme.faster())
            }
            _ => style,
        };
        buf.set_stringn(area.x + x as u16, area.y, t, t.width(), s);
        x += t.width();
    }
}

/// The bottom edge: rows below the last shown, and the columns the width
/// left out.
fn edge_note(buf: &mut Buffer, area: Rect, below: usize, shown: [bool; 4], theme: Theme) {
    let mut edge = Vec::new();
    if below > 0 {
        edge.push(format!("↓ {below} more"));
    }
    let hidden: Vec<&str> = [(0, "Base"), (1, "New"), (2, "Δ"), (3, "Δ%")]
        .into_iter()
        .filter(|&(k, _)| !shown[k])
        .map(|(_, n)| n)
        .collect();
    if !hidden.is_empty() {
        edge.push(format!("{} hidden", hidden.join(", ")));
    }
    if edge.is_empty() || area.height == 0 {
        return;
    }
    let text = format!(" {} ", edge.join(" · "));
    let w = usize::from(area.width.saturating_sub(4));
    buf.set_stringn(area.x + 2, area.bottom() - 1, text, w, theme.dim());
}
