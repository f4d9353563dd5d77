//! The Flame pane's time-order mode (`t`): the keys of the flame chart
//! `analysis::flame_chart` lays out. ↑ and ↓ go to the caller and the
//! longest callee (past a band's edge, to the next thread's call at that
//! time), ← and → to the calls before and after on the row, moving the
//! window of time when the call is outside it; Enter zooms the window to
//! the selected call, Esc zooms back out. The chart is made the first time
//! it is asked for, from the trace's timeline.

use super::action::Action;
use super::app::{App, inner};
use super::view::{ChartState, FlameMode};
use crate::analysis::flame_chart::{self, Chart, Row};
use crate::analysis::flame_view::Block;
use crate::analysis::search::Query;
use crate::model::FuncId;
use crate::text::visible;
use ratatui::layout::Rect;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// One row of the chart on screen.
#[derive(Clone, Debug, PartialEq)]
pub enum ChartLine {
    /// A band's title: its index in `Chart::bands`.
    Band(usize),
    Calls(Vec<Block>),
}

impl App {
    pub(super) fn in_chart(&self) -> bool {
        self.in_flame() && self.view().flame.as_ref().map(|f| f.mode) == Some(FlameMode::Chart)
    }

    fn chart_state(&self) -> Option<&ChartState> {
        self.view().flame.as_deref().map(|f| &f.chart)
    }

    fn edit_chart(&mut self, edit: impl FnOnce(&mut ChartState)) {
        let st = self.view_mut().flame.get_or_insert_with(Box::default);
        edit(&mut st.chart);
    }

    /// The chart drawn, once made.
    pub fn chart(&self) -> Option<Arc<Chart>> {
        self.chart_state()?.chart.clone()
    }

    /// The window of time the full width shows.
    pub fn chart_window(&self) -> (f64, f64) {
        let c = self.chart().unwrap_or_default();
        self.chart_state()
            .and_then(|s| s.windows.last().copied())
            .unwrap_or((c.start, c.end))
    }

    pub fn chart_top(&self) -> usize {
        self.chart_state().map_or(0, |s| s.top)
    }

    /// Where the calls are drawn: the pane's inside less its status line.
    pub fn chart_area(&self) -> Rect {
        let i = inner(self.areas().table);
        Rect::new(i.x, i.y, i.width, i.height.saturating_sub(1))
    }

    /// The rows on screen, from the first not scrolled off.
    pub fn chart_lines(&self) -> Vec<ChartLine> {
        let Some(c) = self.chart() else {
            return Vec::new();
        };
        let area = self.chart_area();
        let window = self.chart_window();
        (self.chart_top()..self.chart_top() + usize::from(area.height))
            .map_while(|r| c.row(r))
            .map(|row| match row {
                Row::Band(b) => ChartLine::Band(b),
                Row::Level(b, d) => {
                    ChartLine::Calls(flame_chart::blocks(&c, c.level(b, d), window, area.width))
                }
            })
            .collect()
    }

    /// The selected call: the one chosen, or the first top-level call of
    /// the first band within the window.
    pub fn chart_selected(&self) -> Option<u32> {
        let c = self.chart()?;
        self.chart_state()
            .and_then(|s| s.selected)
            .or_else(|| c.first_from(0, self.chart_window().0))
    }

    /// The selected call's function.
    pub fn chart_function(&self) -> Option<FuncId> {
        let c = self.chart()?;
        self.chart_selected().map(|id| c.call(id).func)
    }

    /// `t`: the flame chart, made the first time; again: the graph.
    pub(super) fn toggle_chart(&mut self) {
        if self.in_chart() {
            self.view_mut().flame.get_or_insert_with(Box::default).mode = FlameMode::Graph;
            self.status = Some("the flame graph: a frame a call path · t: time order".into());
            return;
        }
        let Some(tl) = self.profile.timeline() else {
            self.status = Some(format!(
                "no time order: this {} profile keeps no calls in time order (an Xbase++ trace does; one over 64 MiB with `profx --timeline FILE`)",
                self.profile.format
            ));
            return;
        };
        if self.chart().is_none() {
            let chart = Arc::new(Chart::from_timeline(tl));
            self.edit_chart(|s| s.chart = Some(chart));
        }
        let st = self.view_mut().flame.get_or_insert_with(Box::default);
        st.mode = FlameMode::Chart;
        self.status = Some("time order: a box a call, a band a thread · t: the flame graph".into());
    }

    /// Handles a key of the flame chart; false for keys it leaves to the
    /// app.
    pub(super) fn chart_action(&mut self, action: &Action) -> bool {
        let Some(c) = self.chart() else {
            return false;
        };
        let sel = self.chart_selected();
        let next = match action {
            Action::ShowInTree => {
                self.toggle_chart();
                return true;
            }
            Action::Move(n) => sel.and_then(|s| match *n < 0 {
                true => c.parent(s).or_else(|| self.other_band(&c, s, -1)),
                false => longest(&c, c.children(s)).or_else(|| self.other_band(&c, s, 1)),
            }),
            Action::ScrollColumns(d) | Action::Wheel { rows: d, .. } => {
                sel.and_then(|s| c.neighbour(s, d.signum()))
            }
            Action::Lines => sel.and_then(|s| c.neighbour(s, 1)),
            Action::Click { x, y } => {
                let area = self.chart_area();
                if !area.contains(ratatui::layout::Position::new(*x, *y)) {
                    return false;
                }
                match self.chart_lines().get(usize::from(y - area.y)) {
                    Some(ChartLine::Calls(row)) => flame_chart::call_at(row, x - area.x),
                    _ => None,
                }
            }
            Action::Home => {
                self.edit_chart(|s| s.top = 0);
                c.first_from(0, self.chart_window().0)
            }
            Action::Enter => {
                let Some(s) = sel else { return true };
                let call = *c.call(s);
                if call.duration() > 0.0 && self.chart_window() != (call.start, call.end) {
                    self.edit_chart(|st| st.windows.push((call.start, call.end)));
                }
                let name = visible(self.profile.function_name(call.func)).into_owned();
                self.status = Some(format!("zoomed on this call of {name} · Esc zooms out"));
                return true;
            }
            Action::Back | Action::Cancel => {
                if self.chart_state().is_none_or(|s| s.windows.is_empty()) {
                    return false;
                }
                self.edit_chart(|st| {
                    st.windows.pop();
                });
                return true;
            }
            Action::NextMatch | Action::PrevMatch => {
                let dir = if *action == Action::NextMatch { 1 } else { -1 };
                self.chart_step_match(&c, sel, dir);
                return true;
            }
            Action::Focus => {
                if let Some(f) = self.chart_function() {
                    self.view_mut().flame.get_or_insert_with(Box::default).mode = FlameMode::Graph;
                    self.flame_focus(Some(f));
                }
                return true;
            }
            Action::Hide | Action::Unhide => {
                self.status = Some("x and X hide functions in the flame graph (t)".into());
                return true;
            }
            Action::PageUp | Action::PageDown => {
                let page = usize::from(self.chart_area().height).max(1);
                let last = c.rows().saturating_sub(1);
                self.edit_chart(|st| {
                    st.top = match action {
                        Action::PageUp => st.top.saturating_sub(page),
                        _ => (st.top + page).min(last),
                    }
                });
                return true;
            }
            Action::End => return true,
            _ => return false,
        };
        if let Some(id) = next {
            self.select_call(&c, id);
        }
        true
    }

    /// The call of the band before or after `s`'s running at `s`'s start
    /// (or the first after it).
    fn other_band(&self, c: &Chart, s: u32, dir: isize) -> Option<u32> {
        let band = (c.call(s).thread as usize).checked_add_signed(dir)?;
        (band < c.bands.len())
            .then(|| c.first_from(band, c.call(s).start))
            .flatten()
    }

    /// Selects a call, moves the window of time to show it and scrolls
    /// its row into view.
    fn select_call(&mut self, c: &Chart, id: u32) {
        let row = c.row_of(id);
        let rows = usize::from(self.chart_area().height).max(1);
        let window = self.chart_window();
        let shown = flame_chart::reveal(c, id, window);
        self.edit_chart(|st| {
            st.selected = Some(id);
            if shown != window {
                match st.windows.last_mut() {
                    Some(w) => *w = shown,
                    None => st.windows.push(shown),
                }
            }
            if row < st.top {
                st.top = row;
            } else if row >= st.top + rows {
                st.top = row + 1 - rows;
            }
        });
    }

    /// n / N: the next call, in the order of the run, whose function the
    /// search matches.
    fn chart_step_match(&mut self, c: &Chart, sel: Option<u32>, dir: isize) {
        let Some(filter) = self
            .view()
            .query
            .as_ref()
            .map(|_| self.view().filter.clone())
        else {
            self.status = Some("no search: / to start one".into());
            return;
        };
        let q = Query::parse(&filter);
        let p = &self.profile;
        let mut seen: FxHashMap<FuncId, bool> = FxHashMap::default();
        let mut hit = |f: FuncId| {
            *seen
                .entry(f)
                .or_insert_with(|| q.is_match(&visible(p.function_name(f))))
        };
        let n = c.calls.len();
        let from = sel.map_or(0, |s| s as usize);
        let found = (1..=n)
            .map(|k| match dir {
                1 => (from + k) % n,
                _ => (from + n * 2 - k) % n,
            })
            .find(|&i| hit(c.calls[i].func));
        match found {
            Some(i) => self.select_call(c, i as u32),
            None => self.status = Some("no call matches".into()),
        }
    }
}

/// The longest of some calls.
fn longest(c: &Chart, calls: &[u32]) -> Option<u32> {
    // The first of equals: the earliest call.
    calls.iter().copied().reduce(
        |best, k| match c.call(k).duration() > c.call(best).duration() {
            true => k,
            false => best,
        },
    )
}
