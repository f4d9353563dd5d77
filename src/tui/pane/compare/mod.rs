//! The Functions pane of a comparison (tui.md § Comparisons): one row a
//! function of either run, the rows and values `profx diff --table`
//! prints (`analysis::diff`'s cells, read, never computed here), ordered
//! by the largest change of the inclusive value. `%` shows each run's
//! shares of its own total instead of absolute values; its drawing is
//! `draw.rs`. The same pane shows the Stacks and Lines tabs of a
//! comparison: the comparison's pairs of stacks (by path) or lines (by
//! (file, line)), their cells `analysis::diff::Pairs`'s. Under the
//! compared Functions, the selected function's butterfly compared
//! (`butterfly.rs`).

mod butterfly;
mod draw;

pub(in crate::tui) use butterfly::Focus;

use super::{Ctx, Effect, Search, Step};
use crate::analysis::diff::{self, Comparison, Measure, Metric, Of, Pairs, Row, SortBy, Which};
use crate::model::FuncId;
use crate::tui::compare::Compared;
use crate::tui::intent::Intent;
use crate::tui::layout::{self, Areas};
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use std::sync::Arc;

/// What the value columns show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// Each run's values (times, samples, calls).
    Values,
    /// Each run's shares of its own total (runs of different length
    /// compare by share); calls, which no run totals, stay counts.
    Shares,
}

/// Which value a group of columns is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Incl,
    Excl,
    Calls,
    /// A line's one value (its time or hits).
    Value,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Incl => "incl",
            Kind::Excl => "self",
            Kind::Calls => "calls",
            Kind::Value => "",
        }
    }
}

/// A column of the pane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Col {
    Name,
    /// Module and status (`new`, `gone`, `by name`), as the table says.
    Status,
    /// One run's value.
    Side(Which, Kind),
    /// The change, new − base, signed.
    Change(Kind),
    /// The change in percent of the base value, signed.
    ChangePct(Kind),
}

/// The Functions pane of a comparison.
pub struct ComparePane {
    compared: Arc<Compared>,
    pub shown: Shown,
    /// The column sorted by, its place in `cols`.
    pub sort: usize,
    /// The sort turned over (`r`).
    pub reversed: bool,
    /// The rows, as indices of the comparison's rows, in the order shown.
    pub order: Vec<usize>,
    pub cursor: usize,
    pub offset: usize,
    /// The first value column shown after the name and the module.
    pub first: usize,
    cols: Vec<Col>,
    /// Each column's widest cell (its heading's included), over every row.
    widths: Vec<usize>,
    /// The search over the names (`/`): the rows shown are those matching.
    pub search: Search,
    /// The stacks or lines compared; `None`: the functions.
    pairs: Option<Pairs>,
    /// Where the keyboard is: the table or a list of the butterfly.
    pub focus: Focus,
    /// The rows `Enter` on a caller or callee came from, and where the
    /// keyboard was: `Backspace` walks back.
    trail: Vec<(usize, Focus)>,
}

impl std::fmt::Debug for ComparePane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComparePane")
            .field("shown", &self.shown)
            .field("sort", &self.sort)
            .field("cursor", &self.cursor)
            .finish()
    }
}

impl ComparePane {
    /// The pane on `compared`, sorted by the largest change of the
    /// inclusive value, as `profx diff --table` is.
    pub fn new(compared: Arc<Compared>) -> ComparePane {
        ComparePane::made(compared, None)
    }

    /// The pane of the comparison's stacks or lines, sorted by the
    /// largest change.
    pub fn of(compared: Arc<Compared>, of: Of) -> ComparePane {
        let pairs = compared.comparison().pairs(of);
        ComparePane::made(compared, Some(pairs))
    }

    fn made(compared: Arc<Compared>, pairs: Option<Pairs>) -> ComparePane {
        let cols = match &pairs {
            None => cols(compared.comparison()),
            Some(p) => pair_cols(p),
        };
        let sort = cols
            .iter()
            .position(|c| matches!(c, Col::Change(_)))
            .unwrap_or(0);
        let mut pane = ComparePane {
            compared,
            shown: Shown::Values,
            sort,
            reversed: false,
            order: Vec::new(),
            cursor: 0,
            offset: 0,
            first: 0,
            cols,
            widths: Vec::new(),
            search: Search::default(),
            pairs,
            focus: Focus::Table,
            trail: Vec::new(),
        };
        pane.reorder();
        pane
    }

    /// How the pane shows its rows (values or shares, the sort), to keep
    /// on the comparison a new query makes.
    pub fn look(&self) -> (Shown, usize, bool) {
        (self.shown, self.sort, self.reversed)
    }

    /// Shows the rows as `look` says (a column the comparison lacks: the
    /// default sort kept).
    pub fn set_look(&mut self, (shown, sort, reversed): (Shown, usize, bool)) {
        let c = self.compared.comparison();
        let no_shares = self.pairs.as_ref().is_some_and(|p| !p.has_shares(c));
        self.shown = if no_shares { Shown::Values } else { shown };
        if sort < self.cols.len() {
            (self.sort, self.reversed) = (sort, reversed);
        }
        self.cursor = 0;
        self.reorder();
    }

    /// The comparison shown.
    pub fn comparison(&self) -> &Comparison {
        self.compared.comparison()
    }

    /// The stacks or lines compared; `None` where the pane compares the
    /// functions.
    pub fn pairs(&self) -> Option<&Pairs> {
        self.pairs.as_ref()
    }

    /// What the pane's rows are, for its title and its count.
    pub fn noun(&self) -> &'static str {
        match self.pairs.as_ref().map(Pairs::of) {
            None => "functions",
            Some(Of::Stacks) => "stacks",
            Some(Of::Lines) => "lines",
        }
    }

    /// The tab the pane is under.
    pub fn tab(&self) -> crate::analysis::view::View {
        use crate::analysis::view::{Table, View};
        View::Table(match self.pairs.as_ref().map(Pairs::of) {
            None => Table::Functions,
            Some(Of::Stacks) => Table::Stacks,
            Some(Of::Lines) => Table::Lines,
        })
    }

    /// How many rows the comparison has (whatever the search keeps).
    fn all(&self) -> usize {
        match &self.pairs {
            None => self.comparison().rows().len(),
            Some(p) => p.len(),
        }
    }

    /// Row `i`'s cell (`i`: an index of the comparison's rows, or of its
    /// pairs).
    pub fn cell_at(&self, i: usize, col: Col) -> String {
        let c = self.comparison();
        let Some(p) = &self.pairs else {
            return c.rows().get(i).map_or(String::new(), |r| self.cell(r, col));
        };
        let shares = self.shown == Shown::Shares;
        match col {
            Col::Name => p.name(c, i),
            Col::Status => p.status(i).into(),
            Col::Side(w, _) => p.value_cell(c, w, i, shares),
            Col::Change(_) => p.change_cell(c, i, shares),
            Col::ChangePct(_) => p.change_pct_cell(c, i, shares),
        }
    }

    /// Row `i`'s name, as a search reads it.
    fn name_at(&self, i: usize) -> String {
        self.cell_at(i, Col::Name)
    }

    /// The columns, the name and the module first.
    pub fn cols(&self) -> &[Col] {
        &self.cols
    }

    /// The row under the cursor, as an index of the comparison's rows.
    pub fn selected(&self) -> Option<usize> {
        self.order.get(self.cursor).copied()
    }

    /// The metric a kind of column shows as the pane is now.
    pub fn metric(&self, k: Kind) -> Option<Metric> {
        metric(self.comparison().measure()?, k, self.shown)
    }

    /// A cell, as `profx diff --table` writes it.
    pub fn cell(&self, r: &Row, col: Col) -> String {
        let c = self.comparison();
        let m = |k: Kind| self.metric(k);
        match col {
            Col::Name => crate::text::visible(r.name(c)).into_owned(),
            Col::Status => diff::status_cell(c, r),
            Col::Side(w, k) => m(k).map_or("—".into(), |m| diff::value_cell(c, w, r, m)),
            Col::Change(k) => m(k).map_or("—".into(), |m| diff::change_cell(c, r, m)),
            Col::ChangePct(k) => m(k).map_or("—".into(), |m| diff::change_pct_cell(c, r, m)),
        }
    }

    /// A column's heading: `Base incl ms`, `Δ incl ms`, `Δ% incl`; with
    /// shares, `Base incl %` and `Δ incl pts`.
    pub fn heading(&self, col: Col) -> String {
        let c = self.comparison();
        let pairs_time = self.pairs.as_ref().map(|p| p.is_time());
        let unit = |k: Kind| match (k, self.shown, c.measure()) {
            (_, Shown::Values, _) if pairs_time == Some(Some(false)) => " hits",
            (_, _, _) if pairs_time == Some(None) => "",
            (Kind::Calls, _, _) | (_, _, Some(Measure::Calls)) => "",
            (_, Shown::Shares, _) => " %",
            (_, Shown::Values, Some(Measure::Hits)) => " hits",
            (_, Shown::Values, _) => match c.time_unit() {
                Some(u) => match u.name() {
                    "ms" => " ms",
                    _ => " ticks",
                },
                None => " ms",
            },
        };
        let word = |k: Kind| match k.word() {
            "" => String::new(),
            w => format!(" {w}"),
        };
        match col {
            Col::Name => match self.pairs.as_ref().map(Pairs::of) {
                None => "Name".into(),
                Some(Of::Stacks) => "Stack".into(),
                Some(Of::Lines) => "Line".into(),
            },
            Col::Status if self.pairs.is_some() => "Status".into(),
            Col::Status => "Module · status".into(),
            Col::Side(w, k) => {
                let side = match w {
                    Which::Base => "Base",
                    Which::New => "New",
                };
                format!("{side}{}{}", word(k), unit(k))
            }
            Col::Change(k) => match (unit(k), k) {
                (" %", _) => format!("Δ{} pts", word(k)),
                (u, _) => format!("Δ{}{u}", word(k)),
            },
            Col::ChangePct(k) => format!("Δ%{}", word(k)),
        }
    }

    /// The rows in the order of the sort, and every column's width.
    fn reorder(&mut self) {
        let at = self.selected();
        self.order = order(self, self.cols[self.sort]);
        if self.reversed {
            self.order.reverse();
        }
        if let Some(q) = &self.search.query {
            let keep: Vec<usize> = (self.order.iter().copied())
                .filter(|&i| q.is_match(&self.name_at(i)))
                .collect();
            self.order = keep;
        }
        let all = self.all();
        self.widths = self
            .cols
            .iter()
            .map(|&col| {
                use unicode_width::UnicodeWidthStr;
                let widest = (0..all).map(|i| self.cell_at(i, col).width()).max();
                widest.unwrap_or(0).max(self.heading(col).width())
            })
            .collect();
        // The cursor stays on its function.
        if let Some(at) = at {
            self.cursor = self.order.iter().position(|&i| i == at).unwrap_or(0);
        }
    }

    /// Each column's widest cell.
    pub fn widths(&self) -> &[usize] {
        &self.widths
    }

    /// The rows under which the compared butterfly is (the functions'
    /// pane): the split takes the lines they leave empty.
    pub fn split(&self) -> Option<usize> {
        self.pairs.is_none().then_some(self.order.len())
    }

    /// Where the table and its split sit.
    pub fn areas(&self, cx: &Ctx) -> Areas {
        layout::areas(cx.size, self.split())
    }

    /// Takes an intent meant for the pane.
    pub fn update(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        if let Some(effect) = self.lists_intent(intent, cx) {
            return effect;
        }
        let len = self.order.len();
        let page = layout::table_rows(self.areas(cx).table).max(1) as isize;
        let n = self.cols.len();
        match intent {
            Intent::Move(d) => self.cursor = super::step(self.cursor, *d, len),
            Intent::PageDown => self.cursor = super::step(self.cursor, page, len),
            Intent::PageUp => self.cursor = super::step(self.cursor, -page, len),
            Intent::First => self.cursor = 0,
            Intent::Last => self.cursor = len.saturating_sub(1),
            Intent::SortNext | Intent::SortPrev if n > 0 => {
                let d = if *intent == Intent::SortNext { 1 } else { -1 };
                self.sort = super::step_wrap(self.sort, d, n);
                self.reversed = false;
                self.reorder();
            }
            Intent::Reverse => {
                self.reversed = !self.reversed;
                self.reorder();
            }
            Intent::Columns(d) => {
                let values = n.saturating_sub(2);
                self.first = super::step(self.first, *d, values);
            }
            Intent::Shares => return self.toggle_shares(),
            Intent::Open => return self.open(),
            Intent::NextMatch | Intent::PrevMatch if self.search.query.is_some() => {
                let d = if *intent == Intent::NextMatch { 1 } else { -1 };
                self.cursor = super::step_wrap(self.cursor, d, len);
            }
            _ => return Effect::Ignored,
        }
        Effect::Done
    }

    /// `Enter`: on a function, into its butterfly compared; on a stack or
    /// a line, its function in NEW's Functions table (one gone from NEW's
    /// run says so).
    fn open(&mut self) -> Effect {
        if self.pairs.is_none() {
            return self.cycle_lists();
        }
        let Some(i) = self.selected() else {
            return Effect::Done;
        };
        match self.pair_function(i) {
            Some(f) => Effect::Open(Step::Function(f)),
            None => Effect::Say(format!("{} has no function in NEW's run", self.name_at(i))),
        }
    }

    /// A new search text: the rows whose name matches, in the sort's
    /// order; what it kept, for the status line.
    pub fn set_search(&mut self, text: &str) -> Option<String> {
        self.search.set(text);
        self.cursor = 0;
        self.offset = 0;
        (self.focus, self.trail) = (Focus::Table, Vec::new());
        self.reorder();
        let all = self.all() as u64;
        let kept = crate::report::fmt::grouped(self.order.len() as u64);
        Some(format!(
            "{kept} of {}",
            crate::report::fmt::counted(all, self.noun())
        ))
    }

    fn toggle_shares(&mut self) -> Effect {
        if let Some(p) = self
            .pairs
            .as_ref()
            .filter(|p| !p.has_shares(self.comparison()))
        {
            let what = match p.is_time() {
                Some(true) => "times",
                _ => "counts",
            };
            return Effect::Say(format!(
                "no shares: the two runs do not both total these {what}"
            ));
        }
        let shares = self.comparison().measure().and_then(Measure::share);
        if shares.is_none() {
            return Effect::Say(
                "no shares: the two runs compare by calls, which neither totals".into(),
            );
        }
        self.shown = match self.shown {
            Shown::Values => Shown::Shares,
            Shown::Shares => Shown::Values,
        };
        self.reorder();
        Effect::Say(match self.shown {
            Shown::Shares => "shares of each run's total (a change: in points)".into(),
            Shown::Values => "absolute values".into(),
        })
    }

    /// Keeps the cursor on a row and its row on screen.
    pub fn keep_visible(&mut self, cx: &Ctx) {
        let shown = layout::table_rows(self.areas(cx).table);
        super::keep_visible(&mut self.cursor, &mut self.offset, self.order.len(), shown);
    }

    /// The function the keyboard is on in NEW's run (the app's query's
    /// answer): the table's, or the butterfly's caller's or callee's;
    /// `None` for a function gone from it.
    pub fn function(&self, _cx: &Ctx) -> Option<FuncId> {
        let i = self.focused_row()?;
        match &self.pairs {
            None => self.comparison().rows().get(i)?.new,
            Some(_) => self.pair_function(i),
        }
    }

    /// Pair `i`'s function in NEW's run: a stack's leaf, a line's
    /// function.
    fn pair_function(&self, i: usize) -> Option<FuncId> {
        let p = self.pairs.as_ref()?;
        let k = p.row(i, Which::New)?;
        let new = self.comparison().profile(Which::New);
        match p.of() {
            Of::Stacks => new
                .frames(crate::model::StackId::from_index(k))
                .last()
                .copied(),
            Of::Lines => new.line(crate::model::LineId::from_index(k)).function,
        }
    }

    /// What `y` copies: the name of the function the keyboard is on.
    pub fn copy_text(&self) -> Option<String> {
        let i = self.focused_row()?;
        if self.pairs.is_some() {
            return Some(self.name_at(i));
        }
        let r = self.comparison().rows().get(i)?;
        Some(r.name(self.comparison()).to_string())
    }

    /// Draws the pane.
    pub fn render(&self, buf: &mut Buffer, a: &Areas, _cx: &Ctx, theme: Theme) {
        draw::pane(buf, a.table, self, theme);
        if let Some(d) = a.detail {
            butterfly::draw(buf, d, self, theme);
        }
    }
}

/// The columns of a comparison: the name, the module and status, then for
/// the inclusive value, the exclusive one and the calls (where the runs
/// record them) both runs' values, the change and the change in percent.
fn cols(c: &Comparison) -> Vec<Col> {
    let mut out = vec![Col::Name, Col::Status];
    let Some(m) = c.measure() else {
        return out;
    };
    let calls = Which::BOTH.iter().any(|&w| c.records(w, Metric::Calls));
    let kinds = [
        Some(Kind::Incl),
        m.excl().map(|_| Kind::Excl),
        (m != Measure::Calls && calls).then_some(Kind::Calls),
    ];
    for k in kinds.into_iter().flatten() {
        out.extend([
            Col::Side(Which::Base, k),
            Col::Side(Which::New, k),
            Col::Change(k),
            Col::ChangePct(k),
        ]);
    }
    out
}

/// The columns of a comparison's stacks or lines: the frames or the line,
/// the status, both runs' values, the change and the change in percent.
fn pair_cols(p: &Pairs) -> Vec<Col> {
    let mut out = vec![Col::Name, Col::Status];
    if p.is_time().is_some() {
        let k = match p.of() {
            Of::Stacks => Kind::Excl,
            Of::Lines => Kind::Value,
        };
        out.extend([
            Col::Side(Which::Base, k),
            Col::Side(Which::New, k),
            Col::Change(k),
            Col::ChangePct(k),
        ]);
    }
    out
}

/// The metric a kind of column shows: the measure's value, or its share
/// of the run's total (calls stay counts: no run totals them).
fn metric(m: Measure, k: Kind, shown: Shown) -> Option<Metric> {
    match (k, shown) {
        (Kind::Incl, Shown::Values) => Some(m.incl()),
        (Kind::Incl, Shown::Shares) => m.share().or(Some(m.incl())),
        (Kind::Excl, Shown::Values) => m.excl(),
        (Kind::Excl, Shown::Shares) => m.excl_share().or(m.excl()),
        (Kind::Calls, _) => Some(Metric::Calls),
        (Kind::Value, _) => None,
    }
}

/// The rows ordered by `col`: a change by its size, largest first (the
/// table's own order, `diff::ordered`, where the table sorts by it), a
/// value largest first, the name and module in canonical order; rows
/// without a value last, ties in canonical order.
fn order(p: &ComparePane, col: Col) -> Vec<usize> {
    if let Some(pairs) = &p.pairs {
        return pair_order(p, pairs, col);
    }
    let c = p.comparison();
    let all = || {
        diff::ordered(
            c,
            &diff::TableOptions {
                sort: SortBy::Name,
                top: None,
            },
        )
    };
    let by = |sort: SortBy| diff::ordered(c, &diff::TableOptions { sort, top: None });
    let values = p.shown == Shown::Values;
    match col {
        Col::Name => all(),
        Col::Change(Kind::Incl) if values => by(SortBy::Incl),
        Col::Change(Kind::Excl) if values => by(SortBy::Excl),
        Col::Change(Kind::Calls) => by(SortBy::Calls),
        Col::Change(Kind::Incl) => by(SortBy::Share),
        Col::Status => {
            let mut order = all();
            let text: Vec<String> = c.rows().iter().map(|r| diff::status_cell(c, r)).collect();
            order.sort_by(|&a, &b| text[a].cmp(&text[b]));
            order
        }
        _ => {
            let key = |r: &Row| -> Option<f64> {
                match col {
                    Col::Side(w, k) => Some(c.value(w, r, p.metric(k)?)?.get()),
                    Col::Change(k) => Some(c.delta(r, p.metric(k)?)?.get().abs()),
                    Col::ChangePct(k) => Some((c.ratio(r, p.metric(k)?)? - 1.0).abs()),
                    Col::Name | Col::Status => None,
                }
            };
            let size: Vec<f64> = c.rows().iter().map(|r| key(r).unwrap_or(-1.0)).collect();
            let mut order = all();
            order.sort_by(|&a, &b| size[b].total_cmp(&size[a]));
            order
        }
    }
}

/// The pairs ordered by `col`: a change by its size, largest first
/// (`Pairs::ordered`), a value largest first, the name in canonical order
/// (a line's number as a number), the status as text; ties in canonical
/// order.
fn pair_order(p: &ComparePane, pairs: &Pairs, col: Col) -> Vec<usize> {
    let c = p.comparison();
    let shares = p.shown == Shown::Shares;
    let mut order: Vec<usize> = (0..pairs.len()).collect();
    match col {
        Col::Change(_) => return pairs.ordered(c, shares),
        Col::Name => {}
        Col::Status => {
            let text: Vec<String> = order.iter().map(|&i| p.cell_at(i, col)).collect();
            order.sort_by(|&a, &b| text[a].cmp(&text[b]));
        }
        Col::Side(..) | Col::ChangePct(_) => {
            let key = |i: usize| -> Option<f64> {
                match col {
                    Col::Side(w, _) => Some(pairs.value(c, w, i, shares)?.get()),
                    _ => Some((pairs.ratio(c, i, shares)? - 1.0).abs()),
                }
            };
            let size: Vec<f64> = order.iter().map(|&i| key(i).unwrap_or(-1.0)).collect();
            order.sort_by(|&a, &b| size[b].total_cmp(&size[a]));
        }
    }
    order
}
