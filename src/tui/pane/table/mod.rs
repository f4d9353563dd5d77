//! A sortable table of model rows (Functions, Lines, Stacks, the Trace's
//! packets), all of them or those of one function, or a packet's events;
//! with the Functions table, the split of the selected function's callers
//! and callees, and with Stacks the selected stack's frames.
//!
//! Rows are plain `u32` indices of the table's row type, so one state
//! serves every table; `columns.rs` rebuilds the typed ids.

mod detail;
mod draw;
mod durations;

pub(in crate::tui) use draw::Extra;

use super::{Ctx, Effect, Search, Step, inner, keep_visible, short_name, step, step_wrap};
use crate::analysis::callgraph::Edge;
use crate::analysis::query::{EventFunc, Removed};
use crate::analysis::search::{self, NameScan, Query};
use crate::analysis::view::Table;
use crate::model::{FuncId, LineId, NameId, PacketId, Profile, StackId};
use crate::tui::columns::{self, Col, Src};
use crate::tui::intent::{Intent, Why};
use crate::tui::keymap::{Place, key_in};
use crate::tui::layout::{self, Areas};
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use std::sync::Arc;

/// Which of a table's rows the pane lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Within {
    All,
    /// The lines of a function (or, where lines carry no function, of its
    /// module), or the stacks containing it (marked in each).
    Function(FuncId),
    /// The packets table within one packet: its events, in input order.
    Packet(PacketId),
    /// The Functions table within one module (its name): its functions.
    Module(NameId),
}

/// The rows a table shows, in order: all `n` rows in input order (events,
/// which are never copied), or a list of row indices. A list is shared:
/// the whole order, the rows shown while no search narrows them and the
/// order kept for the next view of the table are one list, not three
/// copies of millions of rows (issue 69); a search narrows its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rows {
    All(usize),
    List(Arc<Vec<u32>>),
}

impl Rows {
    /// A list of row indices.
    pub fn list(rows: Vec<u32>) -> Rows {
        Rows::List(Arc::new(rows))
    }

    pub fn len(&self) -> usize {
        match self {
            Rows::All(n) => *n,
            Rows::List(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> Option<u32> {
        match self {
            Rows::All(n) => (i < *n).then(|| u32::try_from(i).ok()).flatten(),
            Rows::List(v) => v.get(i).copied(),
        }
    }

    pub fn position(&self, row: u32) -> Option<usize> {
        match self {
            Rows::All(n) => ((row as usize) < *n).then_some(row as usize),
            Rows::List(v) => v.iter().position(|&r| r == row),
        }
    }
}

/// Where the keyboard is: the table, or a list of the split under it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    Table,
    Callers(usize),
    Callees(usize),
    Frames(usize),
    /// The selected function's calls' durations (a trace's).
    Durations,
}

/// Where the user is in a table, kept across a new profile of the run
/// (`TablePane::spot`).
#[derive(Debug)]
pub struct Spot {
    table: Table,
    sort: Option<(Col, bool)>,
    search: String,
    /// Where the keyboard was: the table, or a list of its split.
    focus: Focus,
    /// A packet's events: the event the cursor was on (events keep their
    /// places as a trace grows), or the last, which the cursor follows as
    /// `tail -F` does.
    event: Option<(u32, bool)>,
}

/// A table pane's state: which rows, their order and filter, the
/// selection, the scroll, and where the keyboard is.
#[derive(Debug)]
pub struct TablePane {
    /// Which table: functions, lines, stacks or packets.
    pub table: Table,
    /// The rows it holds: all, one function's, or one packet's events.
    pub within: Within,
    /// Sort column and direction (descending when true); `None` where the
    /// order is the input's (events).
    pub sort: Option<(Col, bool)>,
    /// The search over its rows, if any.
    pub search: Search,
    /// How many rows the table has before filtering.
    pub total: usize,
    /// The rows shown, filtered and in order.
    pub rows: Rows,
    /// The selected row's place in `rows`.
    pub cursor: usize,
    /// The first row on screen.
    pub offset: usize,
    /// First column shown after the name (horizontal scroll).
    pub hscroll: usize,
    /// Where the keyboard is: the table, or a list of its split.
    pub focus: Focus,
    /// The rows in the order of `sort` when they were sorted: a keystroke
    /// of a search filters these and never sorts.
    sorted: Option<(Option<(Col, bool)>, Rows)>,
}

impl TablePane {
    /// The table's rows in their default order, the first selected.
    pub fn new(table: Table, within: Within, cx: &Ctx) -> TablePane {
        let sort = match within {
            Within::Packet(_) => None,
            _ => columns::default_sort(table, &cx.columns(table).cols),
        };
        let mut t = TablePane::shown(table, within, sort, Rows::list(Vec::new()), 0);
        t.refresh(false, cx);
        t
    }

    /// A pane showing `rows` of `total` as they are: a large profile's
    /// first view, its first rows, until its order is made (`settle`).
    pub fn shown(
        table: Table,
        within: Within,
        sort: Option<(Col, bool)>,
        rows: Rows,
        total: usize,
    ) -> TablePane {
        TablePane {
            table,
            within,
            sort,
            search: Search::default(),
            total,
            rows,
            cursor: 0,
            offset: 0,
            hscroll: 0,
            focus: Focus::Table,
            sorted: None,
        }
    }

    /// The whole order of a view opened with its first rows.
    pub fn settle(&mut self, rows: Vec<u32>, cx: &Ctx) {
        let rows = Arc::new(rows);
        cx.prepared.keep_order((self.table, self.sort), &rows);
        self.sorted = Some((self.sort, Rows::List(rows)));
        self.refresh(false, cx);
    }

    /// Where the user is in the table, by what another profile of the
    /// same run has too (the row, by its function, is the app's to carry:
    /// the answer's mapping finds it).
    pub fn spot(&self) -> Spot {
        let last = self.cursor + 1 >= self.rows.len();
        Spot {
            table: self.table,
            sort: self.sort,
            search: self.search.text.clone(),
            focus: self.focus,
            event: (self.selected().filter(|_| self.is_events())).map(|row| (row, last)),
        }
    }

    /// Puts `spot` back where it is this table's: its sort, then its
    /// search; `again` (the function the cursor was on, found in this
    /// profile) selected after both, which may each have moved the cursor.
    pub fn put_spot(&mut self, spot: Spot, again: Option<FuncId>, cx: &Ctx) {
        if spot.table == self.table {
            self.sort = spot.sort;
            self.refresh(false, cx);
            if !spot.search.is_empty() {
                self.set_search(&spot.search, false, cx);
            }
        }
        if let Some(g) = again
            && (self.table, self.within) == (Table::Functions, Within::All)
        {
            self.show(g.index() as u32, cx);
        }
        match spot.event {
            Some((_, true)) if self.is_events() => {
                self.cursor = self.rows.len().saturating_sub(1);
                self.keep_visible(cx);
            }
            Some((row, false)) if self.is_events() => self.show(row, cx),
            _ => {}
        }
        if spot.table == self.table {
            self.focus = spot.focus;
        }
    }

    /// Whether it lists a packet's events (in the input's order).
    pub fn is_events(&self) -> bool {
        matches!(self.within, Within::Packet(_))
    }

    /// The table of the columns, where the rows have them (events do not).
    pub fn columns_of(&self) -> Option<Table> {
        (!self.is_events()).then_some(self.table)
    }

    /// The function a drilled view is about, marked in its rows.
    pub fn about(&self) -> Option<FuncId> {
        match self.within {
            Within::Function(f) => Some(f),
            _ => None,
        }
    }

    /// Where the keymap looks a key up for this table, first first.
    pub fn places(&self) -> &'static [Place] {
        use Place::*;
        match (self.focus, self.table, self.within) {
            (Focus::Callers(_) | Focus::Callees(_) | Focus::Durations, ..) => {
                &[Lists, Functions, Tables, Everywhere]
            }
            (Focus::Frames(_), ..) => &[Lists, Stacks, Tables, Everywhere],
            (_, _, Within::Packet(_)) => &[Events, Everywhere],
            (_, Table::Functions, _) => &[Functions, Tables, Everywhere],
            (_, Table::Lines, _) => &[Lines, Tables, Everywhere],
            (_, Table::Stacks, _) => &[Stacks, Tables, Everywhere],
            (_, Table::Packets, _) => &[Trace, Tables, Everywhere],
            (_, Table::Threads, _) => &[Threads],
            (_, Table::Modules, _) => &[Modules, Tables, Everywhere],
        }
    }

    /// Whether the table has a split under it (callers and callees, or a
    /// stack's frames).
    pub fn has_detail(&self) -> bool {
        !self.is_events() && matches!(self.table, Table::Functions | Table::Stacks)
    }

    /// The rows under which the split is, when the table has one: the
    /// split takes the lines they leave empty (`layout::areas`).
    pub fn split(&self) -> Option<usize> {
        self.has_detail().then(|| self.rows.len())
    }

    /// Where the table, its split and the rest sit.
    pub fn areas(&self, cx: &Ctx) -> layout::Areas {
        layout::areas(cx.size, self.split())
    }

    /// The selected row, as its index in the table.
    pub fn selected(&self) -> Option<u32> {
        self.rows.get(self.cursor)
    }

    /// Moves the cursor to a row, if the view shows it.
    pub fn select(&mut self, row: u32) -> bool {
        match self.rows.position(row) {
            Some(i) => {
                self.cursor = i;
                true
            }
            None => false,
        }
    }

    /// Draws the table (or the events) and the split under it.
    pub fn render(&self, buf: &mut Buffer, a: &Areas, cx: &Ctx, theme: Theme) {
        draw::pane(buf, a, self, cx, theme);
    }

    /// Draws the table alone in `area`, with what another adds to it
    /// (the threads list: its ticks and words).
    pub(in crate::tui) fn render_framed(
        &self,
        buf: &mut Buffer,
        area: Rect,
        (cx, theme): (&Ctx, Theme),
        extra: &Extra,
    ) {
        draw::framed(buf, area, self, cx, theme, extra);
    }

    /// Selects a row, if the view shows it, and scrolls to it.
    pub fn show(&mut self, row: u32, cx: &Ctx) {
        self.select(row);
        self.keep_visible(cx);
    }

    /// Takes an intent meant for the table or its split.
    pub fn update(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        let effect = self.take(intent, cx);
        self.keep_visible(cx);
        effect
    }

    fn take(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        match intent {
            Intent::Move(n) => self.move_by(*n, cx),
            Intent::PageUp => self.move_by(-(self.page(cx) as isize), cx),
            Intent::PageDown => self.move_by(self.page(cx) as isize, cx),
            Intent::First => self.move_by(isize::MIN / 2, cx),
            Intent::Last => self.move_by(isize::MAX / 2, cx),
            Intent::SortNext => return self.step_sort(1, cx),
            Intent::SortPrev => return self.step_sort(-1, cx),
            Intent::Reverse => {
                if let Some((col, desc)) = self.sort {
                    self.sort_by(col, !desc, cx);
                }
            }
            Intent::Columns(d) => self.scroll_columns(*d, cx),
            Intent::Open => return self.open(cx),
            Intent::CallersCallees => return self.cycle_lists(cx),
            Intent::SlowestCall => return durations::slowest_call(self.function(cx), cx),
            Intent::Partner => return self.partner(cx),
            Intent::ShowLines => return self.show_lines(cx),
            Intent::Modules => return self.modules(cx),
            Intent::NextMatch | Intent::PrevMatch if self.search.query.is_none() => {
                let slash = key_in(&Intent::Search, self.places());
                return Effect::Say(format!("no search: {slash} to start one"));
            }
            Intent::NextMatch => self.cursor = step_wrap(self.cursor, 1, self.rows.len()),
            Intent::PrevMatch => self.cursor = step_wrap(self.cursor, -1, self.rows.len()),
            Intent::Back | Intent::Cancel if self.focus != Focus::Table => {
                self.focus = Focus::Table
            }
            Intent::Click { x, y } => return self.click(*x, *y, cx),
            Intent::Wheel { x, y, rows } => self.wheel(*x, *y, *rows, cx),
            _ => return Effect::Ignored,
        }
        Effect::Done
    }

    /// Rows the table shows at once.
    pub fn page(&self, cx: &Ctx) -> usize {
        layout::table_rows(self.areas(cx).table).max(1)
    }

    fn move_by(&mut self, n: isize, cx: &Ctx) {
        let len = self.focus_len(cx);
        match &mut self.focus {
            Focus::Table => self.cursor = step(self.cursor, n, len),
            Focus::Callers(i) | Focus::Callees(i) | Focus::Frames(i) => *i = step(*i, n, len),
            Focus::Durations => {}
        }
    }

    /// Rows of whatever has the keyboard.
    fn focus_len(&self, cx: &Ctx) -> usize {
        match self.focus {
            Focus::Table => self.rows.len(),
            Focus::Callers(_) => self.callers(cx).len(),
            Focus::Callees(_) => self.callees(cx).len(),
            Focus::Frames(_) => self.frames(cx).len(),
            Focus::Durations => 1,
        }
    }

    /// Scrolls so that the selection is on screen.
    pub fn keep_visible(&mut self, cx: &Ctx) {
        let len = self.focus_len(cx);
        match &mut self.focus {
            Focus::Table | Focus::Durations => {}
            Focus::Callers(i) | Focus::Callees(i) | Focus::Frames(i) => {
                if len == 0 {
                    self.focus = Focus::Table;
                } else {
                    *i = (*i).min(len - 1);
                }
            }
        }
        let shown = self.page(cx);
        keep_visible(&mut self.cursor, &mut self.offset, self.rows.len(), shown);
    }

    /// The selected row's function in the paths' profile, where the table
    /// has one: an event's crosses from the events' profile through the
    /// answer's one mapping (`None` where a step removed it: `removed`
    /// says which).
    pub fn row_function(&self, cx: &Ctx) -> Option<FuncId> {
        let row = self.selected()?;
        match (self.table, self.within) {
            (_, Within::Packet(_)) => cx.answer.to_paths(self.event_function(cx)?).ok(),
            (Table::Functions, _) => Some(FuncId::from_index(row as usize)),
            (Table::Lines, _) => cx.profile.line(LineId::from_index(row as usize)).function,
            _ => None,
        }
    }

    /// The selected event's function, of the events' profile.
    fn event_function(&self, cx: &Ctx) -> Option<EventFunc> {
        match self.within {
            Within::Packet(k) => cx.answer.event_function(k, self.selected()? as usize),
            _ => None,
        }
    }

    /// Which step removed the selected event's function, if one did.
    pub fn removed(&self, cx: &Ctx) -> Option<Removed> {
        cx.answer.to_paths(self.event_function(cx)?).err()
    }

    /// The function the keyboard is on: the split's caller, callee or
    /// frame, or the row's.
    pub fn function(&self, cx: &Ctx) -> Option<FuncId> {
        match self.focus {
            Focus::Callers(i) => self.callers(cx).get(i).and_then(|e| e.func()),
            Focus::Callees(i) => self.callees(cx).get(i).and_then(|e| e.func()),
            Focus::Frames(i) => self.frames(cx).get(i).copied(),
            Focus::Table | Focus::Durations => self.row_function(cx),
        }
    }

    /// Whether the split lists callers and callees (the Functions table,
    /// all of it or a module's).
    fn has_lists(&self) -> bool {
        self.table == Table::Functions && matches!(self.within, Within::All | Within::Module(_))
    }

    /// `D`: the modules, a step of the Functions tab's trail; a profile
    /// whose functions name no module says so.
    fn modules(&self, cx: &Ctx) -> Effect {
        match cx.src().modules().is_empty() {
            true => Effect::Say(format!(
                "no modules: this {} profile's functions name none",
                cx.profile.format
            )),
            false => Effect::Open(Step::Modules),
        }
    }

    /// The function whose callers and callees the split lists.
    pub fn split_function(&self, cx: &Ctx) -> Option<FuncId> {
        self.row_function(cx).filter(|_| self.has_lists())
    }

    /// The split's lists for a key: the graph's, waiting for the graph if
    /// its thread is still making it, rather than a pass over the stacks
    /// at each question.
    pub fn callers<'a>(&self, cx: &Ctx<'a>) -> &'a [Edge] {
        self.split_function(cx)
            .map_or(&[], |f| cx.graph().callers(cx.profile, f))
    }

    /// The split's function's callees (the call graph's edges).
    pub fn callees<'a>(&self, cx: &Ctx<'a>) -> &'a [Edge] {
        self.split_function(cx)
            .map_or(&[], |f| cx.graph().callees(cx.profile, f))
    }

    /// The selected stack's frames, root first.
    pub fn frames(&self, cx: &Ctx) -> Vec<FuncId> {
        match (self.table, self.within, self.selected()) {
            (Table::Stacks, Within::All | Within::Function(_), Some(s)) => {
                cx.profile.frames(StackId::from_index(s as usize))
            }
            _ => Vec::new(),
        }
    }

    /// The first frame shown in the frames list: the list scrolls so the
    /// focused (or marked) frame is in view.
    pub fn frames_offset(&self, detail: Rect, frames: &[FuncId]) -> usize {
        let rows = layout::list_rows(detail).max(1);
        let at = match self.focus {
            Focus::Frames(i) => i,
            _ => self
                .about()
                .and_then(|f| frames.iter().position(|&x| x == f))
                .unwrap_or(0),
        };
        (at + 1).saturating_sub(rows)
    }

    fn cycle_lists(&mut self, cx: &Ctx) -> Effect {
        if !self.has_lists() {
            return Effect::Say(Why::CallersInFunctions.into());
        }
        let (callers, callees) = (!self.callers(cx).is_empty(), !self.callees(cx).is_empty());
        // A trace's: after a transform too, which says why they are gone.
        let durations = cx.answer.events().has_call_durations();
        let next = match self.focus {
            Focus::Table if callers => Focus::Callers(0),
            Focus::Table | Focus::Callers(_) if callees => Focus::Callees(0),
            Focus::Table | Focus::Callers(_) | Focus::Callees(_) if durations => Focus::Durations,
            _ => Focus::Table,
        };
        let none = next == Focus::Table && self.focus == Focus::Table;
        self.focus = next;
        match none {
            true => Effect::Say("no callers or callees known for this function".into()),
            false => Effect::Done,
        }
    }

    /// `l`: the lines of the selected function, or of the caller or
    /// callee the keyboard is on, as `t` and `f` take it.
    fn show_lines(&mut self, cx: &Ctx) -> Effect {
        let p = cx.profile;
        match self.function(cx).filter(|_| self.has_lists()) {
            None if self.focus != Focus::Table => Effect::Say("this row has no function".into()),
            None => Effect::Say(Why::LinesFromFunctions.into()),
            Some(_) if p.lines().is_empty() => {
                Effect::Say(format!("no lines: this {} profile has none", p.format))
            }
            Some(f) => Effect::Open(Step::Lines(f)),
        }
    }

    /// Enter: drill down from the row, or go to the split's function.
    fn open(&mut self, cx: &Ctx) -> Effect {
        let p = cx.profile;
        if self.focus == Focus::Durations {
            return durations::slowest_call(self.function(cx), cx);
        }
        if self.focus != Focus::Table {
            return match self.function(cx) {
                Some(f) => Effect::Open(Step::Function(f)),
                // (root), (self), (unlisted): what the edges miss.
                None => Effect::Say("this row has no function".into()),
            };
        }
        let Some(row) = self.selected() else {
            return Effect::Say("no row selected".into());
        };
        match (self.table, self.within) {
            (Table::Packets, Within::All) => {
                Effect::Open(Step::Events(PacketId::from_index(row as usize)))
            }
            (Table::Functions, Within::All | Within::Module(_)) if p.stacks().is_empty() => {
                Effect::Say(format!("no stacks: this {} profile has none", p.format))
            }
            (Table::Functions, Within::All | Within::Module(_)) => {
                Effect::Open(Step::Stacks(FuncId::from_index(row as usize)))
            }
            (Table::Modules, _) => match cx.src().modules().get(row as usize) {
                Some(m) => Effect::Open(Step::ModuleFunctions(m.module)),
                None => Effect::Say("no row selected".into()),
            },
            (Table::Stacks, _) => {
                let frames = self.frames(cx);
                let at = self
                    .about()
                    .and_then(|f| frames.iter().position(|&x| x == f))
                    .unwrap_or(frames.len().saturating_sub(1));
                self.focus = Focus::Frames(at);
                Effect::Done
            }
            _ => match (self.row_function(cx), self.removed(cx)) {
                (Some(f), _) => Effect::Open(Step::Function(f)),
                (None, Some(r)) => Effect::Say(super::removed_words(&r)),
                (None, None) => Effect::Say("this row has no function".into()),
            },
        }
    }

    /// The next or previous column's sort (events, in trace order, have
    /// none: the keymap says so there).
    fn step_sort(&mut self, dir: isize, cx: &Ctx) -> Effect {
        let Some(t) = self.columns_of() else {
            return Effect::Ignored;
        };
        let cols = &cx.columns(t).cols;
        let now = self
            .sort
            .and_then(|(c, _)| cols.iter().position(|&x| x == c))
            .unwrap_or(0);
        // A table the profile has no rows of shows no column.
        let Some(&col) = cols.get(step_wrap(now, dir, cols.len())) else {
            return Effect::Say("nothing to sort here".into());
        };
        self.sort_by(col, col.descending_by_default(), cx);
        Effect::Done
    }

    /// Orders the rows by `col`, keeping the selected row selected.
    pub fn sort_by(&mut self, col: Col, descending: bool, cx: &Ctx) {
        self.sort = Some((col, descending));
        self.refresh(false, cx);
        self.show_column(col, cx);
    }

    /// Scrolls the columns so the sort column is on screen.
    fn show_column(&mut self, col: Col, cx: &Ctx) {
        let Some(t) = self.columns_of() else {
            return;
        };
        let pane = cx.columns(t);
        let Some(i) = pane.cols.iter().position(|&c| c == col) else {
            return;
        };
        let placed = self.placed(cx);
        if i > 0 && !placed.iter().any(|p| p.col == i) {
            let first_shown = placed.get(1).map_or(i, |p| p.col);
            self.hscroll = if i < first_shown {
                i - 1
            } else {
                self.hscroll + (i - placed.last().map_or(i, |p| p.col))
            };
        }
    }

    /// The columns as placed on screen.
    pub fn placed(&self, cx: &Ctx) -> Vec<layout::Placed> {
        let Some(t) = self.columns_of() else {
            return Vec::new();
        };
        let pane = cx.columns(t);
        let stacks = self.table == Table::Stacks;
        let area = layout::columns_area(stacks, inner(self.areas(cx).table));
        layout::place_columns(area, &pane.cols, &pane.widths, self.hscroll)
    }

    fn scroll_columns(&mut self, d: isize, cx: &Ctx) {
        let Some(t) = self.columns_of() else {
            return;
        };
        let max = cx.columns(t).cols.len().saturating_sub(2);
        self.hscroll = self.hscroll.saturating_add_signed(d).min(max);
    }

    fn click(&mut self, x: u16, y: u16, cx: &Ctx) -> Effect {
        let at = Position::new(x, y);
        let a = self.areas(cx);
        if a.table.contains(at) {
            self.click_table(x, y, a.table, cx);
        } else if let Some(d) = a.detail.filter(|d| d.contains(at)) {
            self.click_detail(x, y, d, cx);
        } else {
            return Effect::Ignored;
        }
        Effect::Done
    }

    fn click_table(&mut self, x: u16, y: u16, table: Rect, cx: &Ctx) {
        if y == table.y + 1 {
            let Some(t) = self.columns_of() else {
                return;
            };
            let cols = &cx.columns(t).cols;
            let placed = self.placed(cx);
            if let Some(p) = placed.iter().find(|p| x >= p.x && x < p.x + p.width) {
                let col = cols[p.col];
                let desc = match self.sort {
                    Some((c, d)) if c == col => !d,
                    _ => col.descending_by_default(),
                };
                self.sort_by(col, desc, cx);
            }
        } else if y >= table.y + 2 && y + 1 < table.bottom() {
            let i = self.offset + usize::from(y - table.y - 2);
            if i < self.rows.len() {
                self.focus = Focus::Table;
                self.cursor = i;
            }
        }
    }

    fn click_detail(&mut self, x: u16, y: u16, detail: Rect, cx: &Ctx) {
        if y <= detail.y || y + 1 >= detail.bottom() {
            return;
        }
        let i = usize::from(y - detail.y - 1);
        let focus = match self.table {
            // The durations list has no rows to pick.
            Table::Functions if self.focus == Focus::Durations => return,
            Table::Functions => {
                // The lists' first line names their columns.
                let Some(i) = i.checked_sub(1) else { return };
                let (left, _) = layout::detail_halves(detail);
                if x < left.right() {
                    (i < self.callers(cx).len()).then_some(Focus::Callers(i))
                } else {
                    (i < self.callees(cx).len()).then_some(Focus::Callees(i))
                }
            }
            _ => {
                let frames = self.frames(cx);
                let first = self.frames_offset(detail, &frames);
                (first + i < frames.len()).then_some(Focus::Frames(first + i))
            }
        };
        if let Some(f) = focus {
            self.focus = f;
        }
    }

    fn wheel(&mut self, x: u16, y: u16, rows: isize, cx: &Ctx) {
        let at = Position::new(x, y);
        let in_detail = self.areas(cx).detail.is_some_and(|d| d.contains(at));
        if in_detail == (self.focus != Focus::Table) {
            self.move_by(rows, cx);
        } else if !in_detail {
            self.focus = Focus::Table;
            self.cursor = step(self.cursor, rows, self.rows.len());
        }
    }

    /// A new search: the rows matching it, the cursor kept on its row.
    pub fn set_search(&mut self, text: &str, narrowing: bool, cx: &Ctx) -> Option<String> {
        self.focus = Focus::Table;
        self.search.set(text);
        self.refresh(narrowing, cx);
        self.keep_visible(cx);
        None
    }

    /// Rebuilds the rows after the sort or the search changed, keeping the
    /// selected row selected when it is still shown; `narrowing` when the
    /// new query is known to keep a subset of the rows shown (a search
    /// narrowing as it is typed), which are then the only rows filtered.
    fn refresh(&mut self, narrowing: bool, cx: &Ctx) {
        let key = self.selected();
        if !self
            .sorted
            .as_ref()
            .is_some_and(|(sort, _)| *sort == self.sort)
        {
            let base = self.sorted_rows(cx);
            self.sorted = Some((self.sort, base));
        }
        // The rows shown are replaced: narrowing, they are what is
        // filtered; otherwise they are the sorted rows, shared.
        let shown = std::mem::replace(&mut self.rows, Rows::All(0));
        let Some((_, base)) = &self.sorted else {
            self.rows = shown;
            return;
        };
        let total = base.len();
        let rows = match narrowing {
            true => shown,
            false => base.clone(),
        };
        let names = self
            .search
            .query
            .as_ref()
            .and(self.columns_of())
            .and_then(|k| cx.prepared.search_names(cx.profile, k));
        self.rows = self.filtered(cx.src(), rows, names);
        self.total = total;
        if !key.is_some_and(|k| self.select(k)) {
            self.cursor = 0;
        }
    }

    /// The table's rows in the view's sort: a whole table's order kept
    /// from a moment ago, or made (and kept).
    fn sorted_rows(&self, cx: &Ctx) -> Rows {
        let p = cx.profile;
        let whole = (self.within == Within::All).then_some((self.table, self.sort));
        if let Some(rows) = whole.and_then(|key| cx.prepared.order(key)) {
            return Rows::List(rows);
        }
        let rows = self.base_rows(cx);
        let rows = match (rows, self.sort) {
            (Rows::List(v), Some((col, desc))) => {
                let mut v = Arc::unwrap_or_clone(v);
                let ties = self.columns_of().and_then(|k| cx.prepared.ties(p, k));
                columns::sort(cx.src(), &mut v, col, desc, ties);
                Rows::list(v)
            }
            (rows, _) => rows,
        };
        if let (Some(key), Rows::List(rows)) = (whole, &rows) {
            cx.prepared.keep_order(key, rows);
        }
        rows
    }

    /// The rows before any filter, in canonical order.
    fn base_rows(&self, cx: &Ctx) -> Rows {
        let p = cx.profile;
        let canonical = || cx.columns(self.table).canonical.clone();
        match (self.table, self.within) {
            (_, Within::Packet(k)) => Rows::All(p.packet(k).events.len()),
            (Table::Lines, Within::Function(f)) => Rows::list(lines_of(p, f, canonical())),
            (_, Within::Module(m)) => {
                let mut rows = canonical();
                rows.retain(|&f| p.function(FuncId::from_index(f as usize)).module == m);
                Rows::list(rows)
            }
            (Table::Stacks, Within::Function(f)) => {
                let mut rows = canonical();
                let on = crate::analysis::tree::through(p, f);
                rows.retain(|&s| on[p.stack_node(StackId::from_index(s as usize)).index()]);
                Rows::list(rows)
            }
            _ => Rows::list(canonical()),
        }
    }

    /// The `rows` (in the view's sort order, or the rows a narrower query
    /// is known to be within) matching the view's query, in the same
    /// order, kept in place where the rows are the pane's own: a
    /// keystroke that narrows a search writes no new memory. The first
    /// narrowing of the shared sorted rows copies them once. Events are
    /// matched by their function: each function is
    /// matched once, then the events are scanned by id without being
    /// decoded.
    fn filtered(&self, src: Src, rows: Rows, names: Option<SearchNames>) -> Rows {
        let Some(q) = &self.search.query else {
            return rows;
        };
        match (self.within, rows) {
            (Within::Packet(k), rows) => events_matching(src.p, k, q, rows),
            (_, Rows::List(rows)) => Rows::list(matching(
                src,
                self.table,
                (q, &self.search.text),
                Arc::unwrap_or_clone(rows),
                names,
            )),
            (_, rows) => rows,
        }
    }

    /// `v` on a packet's events: the span of the selected call, from the
    /// event that opens it to the one that closes it (its partner, as `%`
    /// finds it); a return's span is its call's.
    pub fn call_span(&self, cx: &Ctx) -> Result<(f64, f64), String> {
        let (Within::Packet(k), Some(i)) = (self.within, self.selected()) else {
            return Err(Why::CallSpan.into());
        };
        let p = cx.profile;
        let (to, j) = durations::partner(p, (k, i as usize))?;
        let time = |k, i: usize| p.packet(k).events.get(i).and_then(|e| e.time_ms);
        match (time(k, i as usize), time(to, j)) {
            (Some(a), Some(b)) => Ok((a.min(b), a.max(b))),
            _ => Err("this trace records no times: a range needs a trace's times".into()),
        }
    }

    /// `%` on a packet's events: the selected event's partner (a call's
    /// return, a return's call), in this packet or another's events.
    fn partner(&mut self, cx: &Ctx) -> Effect {
        let (Within::Packet(k), Some(i)) = (self.within, self.selected()) else {
            return Effect::Say(Why::PartnerInEvents.into());
        };
        match durations::partner(cx.profile, (k, i as usize)) {
            Ok((to, j)) if to == k => match self.select(j as u32) {
                true => Effect::Done,
                false => Effect::Say(format!(
                    "its partner, event {}, is not among the events the search shows: {} clears it",
                    crate::report::fmt::grouped(j as u64),
                    key_in(&Intent::Cancel, self.places())
                )),
            },
            Ok((to, j)) => Effect::Open(Step::Event(to, j)),
            Err(why) => Effect::Say(why),
        }
    }

    /// The step as the breadcrumb names it.
    pub fn step_name(&self, cx: &Ctx) -> String {
        let p = cx.profile;
        match (self.table, self.within) {
            (Table::Functions, Within::Module(m)) => {
                let name = match p.name(m) {
                    "" => crate::analysis::modules::NO_MODULE,
                    name => name,
                };
                let name = super::super::fit::fit_cut(
                    &crate::text::visible(name),
                    28,
                    super::super::fit::Cut::Middle,
                )
                .text;
                format!("functions of {name}")
            }
            (Table::Functions, _) => "Functions".into(),
            (Table::Lines, Within::Function(f)) => format!("lines of {}", short_name(p, f)),
            (Table::Lines, _) => "Lines".into(),
            (Table::Stacks, Within::Function(f)) => format!("stacks with {}", short_name(p, f)),
            (Table::Stacks, _) => "Stacks".into(),
            (Table::Packets, Within::Packet(k)) => {
                // A packet is the events' profile's, whichever profile the
                // caller reads (the breadcrumbs name every step of a trail
                // with the screen's).
                let source = &cx.answer.events().packet(k).source;
                let base = source.rsplit(['/', '\\']).next().unwrap_or(source);
                format!("events of {}", crate::text::visible(base))
            }
            (Table::Packets, _) => "Trace".into(),
            (Table::Threads, _) => "Threads".into(),
            (Table::Modules, _) => "Modules".into(),
        }
    }

    /// What `y` copies: a stack its frames, root first; any other row, or
    /// a caller, callee or frame, its function's name.
    pub fn copy_text(&self, cx: &Ctx) -> Option<String> {
        let p = cx.profile;
        match (self.focus, self.table) {
            (Focus::Table, Table::Stacks) => {
                let s = StackId::from_index(self.selected()? as usize);
                let names: Vec<&str> = p.frames(s).iter().map(|&f| p.function_name(f)).collect();
                Some(names.join(super::JOIN))
            }
            // An event names its function in the events' profile, kept or
            // removed by the query.
            (Focus::Table, Table::Packets) => self
                .event_function(cx)
                .map(|f| cx.answer.event_name(f).to_string()),
            _ => self.function(cx).map(|f| p.function_name(f).to_string()),
        }
    }
}

/// A function's lines; where the profile's lines carry no function, the
/// lines of its module (tui.md § Lines).
fn lines_of(p: &Profile, f: FuncId, mut rows: Vec<u32>) -> Vec<u32> {
    let line = |r: u32| p.line(LineId::from_index(r as usize));
    if p.lines().iter().any(|l| l.function.is_some()) {
        rows.retain(|&r| line(r).function == Some(f));
    } else {
        let module = p.function_module(f);
        rows.retain(|&r| p.name(line(r).file) == module);
    }
    rows
}

/// A packet's events whose function matches.
fn events_matching(p: &Profile, k: PacketId, q: &Query, rows: Rows) -> Rows {
    let all: Vec<u32> = p.function_ids().map(|f| f.index() as u32).collect();
    let mut matching = vec![false; all.len()];
    let name = |f: u32| crate::text::visible(p.function_name(FuncId::from_index(f as usize)));
    let mut hits = all;
    search::retain_rows(&mut hits, |f| q.is_match(&name(f)));
    for f in hits {
        matching[f as usize] = true;
    }
    let events = &p.packet(k).events;
    let hit = |i: u32| {
        events
            .function(i as usize)
            .is_some_and(|f| matching[f.index()])
    };
    match rows {
        Rows::All(n) => Rows::list(
            (0..n)
                .filter_map(|i| u32::try_from(i).ok())
                .filter(|&i| hit(i))
                .collect(),
        ),
        Rows::List(rows) => {
            let mut rows = Arc::unwrap_or_clone(rows);
            search::retain_rows(&mut rows, hit);
            Rows::list(rows)
        }
    }
}

/// What a search by names reads (`matching`): each row's search name by
/// row id, and the names made ready.
#[derive(Clone, Copy)]
pub struct SearchNames<'a> {
    pub by_row: &'a [NameId],
    pub scan: &'a NameScan,
}

/// The `rows` whose search text matches, in order. A few rows, or rows
/// with no `names` (each row's search name, by row id), are matched one
/// by one; many are picked by which of their names match
/// (`NameScan::hits`, each name matched once).
fn matching(
    src: Src,
    table: Table,
    (q, text): (&Query, &str),
    mut rows: Vec<u32>,
    names: Option<SearchNames>,
) -> Vec<u32> {
    let p = src.p;
    let total = columns::row_count(src, table);
    let names = names.filter(|n| n.by_row.len() == total && rows.len() >= total / 64);
    let Some(SearchNames { by_row, scan }) = names else {
        search::retain_rows(&mut rows, |r| {
            q.is_match(&columns::search_text(table, src, r))
        });
        return rows;
    };
    let hits = scan.hits(p, text);
    // The hits go to rows in id order, where the 4-byte names lie one
    // after another, as a bit a row: the rows come in sort order, so each
    // looks its bit up at random, and 4 M rows' bits fit a core's cache
    // where their bytes do not.
    let row_hits = hits.by_row(by_row);
    search::retain_rows(&mut rows, |r| row_hits.get(r as usize));
    rows
}
