//! The Flame pane in time order (`t`): the flame chart
//! `analysis::flame_chart` lays out. ↑ and ↓ go to the caller and the
//! longest callee (past a band's edge, to the next thread's call at that
//! time), ← and → to the calls before and after on the row, moving the
//! window of time when the call is outside it; Enter zooms the window to
//! the selected call, Esc zooms back out. The chart is made the first time
//! it is asked for, from the trace's timeline.

use super::{Ctx, Effect, FlameMode, FlamePane, drawn};
use crate::analysis::flame_chart::{self, Chart, Row};
use crate::analysis::flame_view::Block;
use crate::model::FuncId;
use crate::text::visible;
use crate::tui::intent::Intent;
use crate::tui::keymap::{Place, key_for};
use ratatui::layout::{Position, Rect};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Where the flame chart is: the chart (made the first time `t` is
/// pressed), the windows of time zoomed into (the last is the full
/// width), the selected call, how many rows are scrolled off the top.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChartState {
    pub chart: Option<Arc<Chart>>,
    pub windows: Vec<(f64, f64)>,
    pub selected: Option<u32>,
    pub top: usize,
}

/// One row of the chart on screen.
#[derive(Clone, Debug, PartialEq)]
pub enum ChartLine {
    /// A band's title: its index in `Chart::bands`.
    Band(usize),
    Calls(Vec<Block>),
}

impl ChartState {
    /// The window of time the full width shows.
    pub fn window(&self) -> (f64, f64) {
        let c = self.chart.as_deref();
        self.windows
            .last()
            .copied()
            .unwrap_or_else(|| c.map_or((0.0, 0.0), |c| (c.start, c.end)))
    }

    /// Where the calls are drawn: the pane's inside less its status line.
    pub fn area(&self, cx: &Ctx) -> Rect {
        drawn(cx)
    }

    /// The rows on screen, from the first not scrolled off.
    pub fn lines(&self, cx: &Ctx) -> Vec<ChartLine> {
        let Some(c) = self.chart.as_deref() else {
            return Vec::new();
        };
        let area = self.area(cx);
        let window = self.window();
        (self.top..self.top + usize::from(area.height))
            .map_while(|r| c.row(r))
            .map(|row| match row {
                Row::Band(b) => ChartLine::Band(b),
                Row::Level(b, d) => {
                    ChartLine::Calls(flame_chart::blocks(c, c.level(b, d), window, area.width))
                }
            })
            .collect()
    }

    /// The selected call: the one chosen, or the first top-level call of
    /// the first band within the window.
    pub fn selected_call(&self) -> Option<u32> {
        let c = self.chart.as_deref()?;
        self.selected.or_else(|| c.first_from(0, self.window().0))
    }

    /// The selected call's span (`v`): from its entry to its return, on
    /// the trace's clock.
    pub fn call_span(&self) -> Result<(f64, f64), String> {
        let c = self.chart.as_deref().ok_or("no calls in time order")?;
        let id = self.selected_call().ok_or("no call is selected")?;
        let call = c.call(id);
        Ok((call.start, call.end))
    }

    /// The selected call's function.
    pub fn function(&self) -> Option<FuncId> {
        let c = self.chart.as_deref()?;
        self.selected_call().map(|id| c.call(id).func)
    }

    /// Selects a call, moves the window of time to show it and scrolls
    /// its row into view.
    fn select(&mut self, c: &Chart, id: u32, cx: &Ctx) {
        let row = c.row_of(id);
        let rows = usize::from(self.area(cx).height).max(1);
        let window = self.window();
        let shown = flame_chart::reveal(c, id, window);
        self.selected = Some(id);
        if shown != window {
            match self.windows.last_mut() {
                Some(w) => *w = shown,
                None => self.windows.push(shown),
            }
        }
        if row < self.top {
            self.top = row;
        } else if row >= self.top + rows {
            self.top = row + 1 - rows;
        }
    }
}

impl FlamePane {
    /// `t`: the flame chart, made the first time; again: the graph.
    pub(super) fn toggle_chart(&mut self, cx: &Ctx) -> Effect {
        if self.in_chart() {
            self.mode = FlameMode::Graph;
            let t = key_for(&Intent::TimeOrder, Place::Flame);
            return Effect::Say(format!(
                "the flame graph: a frame a call path · {t}: time order"
            ));
        }
        let Some(tl) = cx
            .answer
            .profile(crate::analysis::query::Reads::TIME_ORDER)
            .timeline()
        else {
            return Effect::Say(format!(
                "no time order: this {} profile keeps no calls in time order (an Xbase++ trace does; one over 64 MiB with `profx --timeline FILE`)",
                cx.answer
                    .profile(crate::analysis::query::Reads::TIME_ORDER)
                    .format
            ));
        };
        if self.chart.chart.is_none() {
            self.chart.chart = Some(Arc::new(Chart::from_timeline(tl)));
            // It opens on the query's range (tui.md § Time ranges): the
            // calls as they ran there, `Esc` zooming out to the whole run.
            if let Some(r) = cx.answer.range() {
                self.chart.windows.push((r.from_ms, r.until_ms));
            }
        }
        self.mode = FlameMode::Chart;
        let t = key_for(&Intent::TimeOrder, Place::Chart);
        Effect::Say(format!(
            "time order: a box a call, a band a thread · {t}: the flame graph"
        ))
    }

    /// An intent in time order.
    pub(super) fn chart_update(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        let Some(c) = self.chart.chart.clone() else {
            return Effect::Ignored;
        };
        let st = &mut self.chart;
        let sel = st.selected_call();
        let next = match intent {
            Intent::TimeOrder => return self.toggle_chart(cx),
            Intent::Move(n) => sel.and_then(|s| match *n < 0 {
                true => c.parent(s).or_else(|| other_band(&c, s, -1)),
                false => longest(&c, c.children(s)).or_else(|| other_band(&c, s, 1)),
            }),
            Intent::Beside(d) | Intent::Wheel { rows: d, .. } => {
                sel.and_then(|s| c.neighbour(s, d.signum()))
            }
            Intent::Click { x, y } => {
                let area = st.area(cx);
                if !area.contains(Position::new(*x, *y)) {
                    return Effect::Ignored;
                }
                match st.lines(cx).get(usize::from(y - area.y)) {
                    Some(ChartLine::Calls(row)) => flame_chart::call_at(row, x - area.x),
                    _ => None,
                }
            }
            Intent::First => {
                st.top = 0;
                c.first_from(0, st.window().0)
            }
            Intent::Zoom => {
                let Some(s) = sel else {
                    return Effect::Done;
                };
                let call = *c.call(s);
                if call.duration() > 0.0 && st.window() != (call.start, call.end) {
                    st.windows.push((call.start, call.end));
                }
                let events = cx.answer.profile(crate::analysis::query::Reads::TIME_ORDER);
                let name = visible(events.function_name(call.func)).into_owned();
                let out = key_for(&Intent::ZoomOut, Place::Chart);
                return Effect::Say(format!("zoomed on this call of {name} · {out} zooms out"));
            }
            Intent::ZoomOut if st.windows.is_empty() => return Effect::Back,
            Intent::ZoomOut => {
                st.windows.pop();
                return Effect::Done;
            }
            Intent::NextMatch => return self.chart_step_match(&c, sel, 1, cx),
            Intent::PrevMatch => return self.chart_step_match(&c, sel, -1, cx),
            Intent::Sandwich => {
                // The call's function in the query's profile, where the
                // sandwich is drawn; where a step removed it, which step
                // did (tui.md § The query), as every key on such a row says.
                let f = st
                    .function()
                    .map(|f| cx.answer.to_paths(cx.answer.time_order_function(f)));
                return match f {
                    Some(Ok(f)) => self.sandwich(Some(f), cx),
                    Some(Err(r)) => Effect::Say(super::super::removed_words(&r)),
                    None => Effect::Say("no call is selected: no sandwich".into()),
                };
            }
            Intent::PageUp | Intent::PageDown => {
                let page = usize::from(st.area(cx).height).max(1);
                let last = c.rows().saturating_sub(1);
                st.top = match intent {
                    Intent::PageUp => st.top.saturating_sub(page),
                    _ => (st.top + page).min(last),
                };
                return Effect::Done;
            }
            Intent::Last => return Effect::Done,
            _ => return Effect::Ignored,
        };
        if let Some(id) = next {
            self.chart.select(&c, id, cx);
        }
        Effect::Done
    }

    /// n / N: the next call, in the order of the run, whose function the
    /// search matches.
    fn chart_step_match(&mut self, c: &Chart, sel: Option<u32>, dir: isize, cx: &Ctx) -> Effect {
        let Some(q) = self.search.query.as_ref() else {
            return Effect::Say(format!(
                "no search: {} to start one",
                key_for(&Intent::Search, Place::Chart)
            ));
        };
        let p = cx.answer.profile(crate::analysis::query::Reads::TIME_ORDER);
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
            Some(i) => {
                self.chart.select(c, i as u32, cx);
                Effect::Done
            }
            None => Effect::Say("no call matches".into()),
        }
    }
}

/// The call of the band before or after `s`'s running at `s`'s start
/// (or the first after it).
fn other_band(c: &Chart, s: u32, dir: isize) -> Option<u32> {
    let band = (c.call(s).thread as usize).checked_add_signed(dir)?;
    (band < c.bands.len())
        .then(|| c.first_from(band, c.call(s).start))
        .flatten()
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
