//! The Flame pane: the icicle of the calling-context tree (moving between
//! frames, zooming, the sandwich of a function, the search's
//! share), or with `t` the trace's calls in time order (chart.rs). The
//! geometry is `analysis::flame_view`'s; this file decides which tree is
//! drawn, which frame is selected and which is the full width.

mod chart;
mod draw;

pub(crate) use chart::{ChartLine, ChartState};

use super::{Ctx, Effect, Search, inner};
use crate::analysis::flame_view::{self, Icicle, Layout};
use crate::model::FuncId;
use crate::text::visible;
use crate::tui::intent::Intent;
use crate::tui::keymap::{Place, key_for, node_keys};
use crate::tui::layout::Areas;
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use std::sync::Arc;

/// Steps the callers' side of a sandwich may take up the tree.
const CALLERS_BUDGET: usize = 4_000_000;

/// The two halves of a sandwich.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Side {
    /// What the function called (below), and the graph outside a sandwich.
    #[default]
    Callees,
    /// Who called it (above, upside down).
    Callers,
}

/// The pane's two drawings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FlameMode {
    /// The icicle of the calling-context tree: a frame a path.
    #[default]
    Graph,
    /// The flame chart: a box a call, x is time, a band a thread.
    Chart,
}

/// Where the pane is: the tree it draws (the whole tree of the query's
/// profile, or the sandwiched function's callees, with its callers above
/// them), the selected frame (`None`: the top), the zooms made (the last
/// is the full width), how many rows are scrolled off the top.
#[derive(Debug, Default)]
pub struct FlamePane {
    pub selected: Option<u32>,
    pub zoom: Vec<u32>,
    pub top: usize,
    /// The function of the sandwich (`f`).
    pub sandwich: Option<FuncId>,
    pub tree: Arc<Icicle>,
    /// In a sandwich: who called the function, inverted.
    pub callers: Option<Arc<Icicle>>,
    /// The callers' walk stopped at its budget.
    pub callers_cut: bool,
    /// In a sandwich, which side the selection is on, and the selected
    /// caller (`None`: the function itself, at the callers' bottom).
    pub side: Side,
    pub caller: Option<u32>,
    pub mode: FlameMode,
    pub chart: ChartState,
    pub search: Search,
}

impl FlamePane {
    pub fn new(sandwich: Option<FuncId>, cx: &Ctx) -> FlamePane {
        let mut pane = FlamePane {
            sandwich,
            ..FlamePane::default()
        };
        pane.build(cx);
        pane
    }

    /// Draws the frames (or the calls in time order).
    pub fn render(&self, buf: &mut Buffer, a: &Areas, cx: &Ctx, theme: Theme) {
        draw::pane(buf, a.table, self, cx, theme);
    }

    pub fn in_chart(&self) -> bool {
        self.mode == FlameMode::Chart
    }

    /// Makes the trees the sandwich asks for.
    fn build(&mut self, cx: &Ctx) {
        let p = cx.profile;
        let ix = cx.tree_index();
        match self.sandwich {
            Some(f) => {
                self.tree = Arc::new(Icicle::callees(p, &ix, f));
                let (callers, cut) = Icicle::callers(p, &ix, f, CALLERS_BUDGET);
                self.callers = Some(Arc::new(callers));
                self.callers_cut = cut;
            }
            None => {
                self.tree = Arc::new(Icicle::whole(p, &ix, &|_| false));
                self.callers = None;
                self.callers_cut = false;
            }
        }
        self.selected = None;
        self.zoom.clear();
        self.top = 0;
        self.side = Side::Callees;
        self.caller = None;
    }

    /// Where the frames are drawn: the pane's inside less its status line;
    /// in a sandwich, the lower part (the callers take the upper).
    pub fn area(&self, cx: &Ctx) -> Rect {
        let all = drawn(cx);
        match self.sandwich {
            Some(_) => {
                let up = all.height / 2;
                Rect::new(all.x, all.y + up, all.width, all.height - up)
            }
            None => all,
        }
    }

    /// In a sandwich, where the callers are drawn (above the callees).
    pub fn callers_area(&self, cx: &Ctx) -> Option<Rect> {
        self.sandwich?;
        let all = drawn(cx);
        Some(Rect::new(all.x, all.y, all.width, all.height / 2))
    }

    /// The frames on screen: the layout from the zoomed frame down, as
    /// many rows as are scrolled off plus those that fit.
    pub fn layout(&self, cx: &Ctx) -> Layout {
        let area = self.area(cx);
        flame_view::layout(
            &self.tree,
            self.zoom.last().copied(),
            area.width,
            self.top + usize::from(area.height),
        )
    }

    /// The selected frame in a layout: the one chosen, or the first of
    /// the top row.
    pub fn selected_in(&self, layout: &Layout) -> Option<u32> {
        self.selected.or_else(|| first_frame(layout))
    }

    /// The function of the selected frame or call (in a sandwich, on
    /// either side).
    pub fn function(&self, cx: &Ctx) -> Option<FuncId> {
        if self.in_chart() {
            // A call of the threads' events, through the answer's one
            // mapping to the paths' profile.
            let f = self.chart.function()?;
            return cx.answer.to_paths(cx.answer.time_order_function(f)).ok();
        }
        if let Some((callers, n)) = self.caller_selected() {
            return callers.func(n).func();
        }
        self.selected_in(&self.layout(cx))
            .and_then(|n| self.tree.func(n).func())
    }

    /// Which step removed the time order's selected call's function, if
    /// one did.
    pub fn removed(&self, cx: &Ctx) -> Option<crate::analysis::query::Removed> {
        let f = self.chart.function().filter(|_| self.in_chart())?;
        cx.answer.to_paths(cx.answer.time_order_function(f)).err()
    }

    /// In a sandwich with the selection on the callers' side: their tree
    /// and the selected node.
    pub fn caller_selected(&self) -> Option<(Arc<Icicle>, u32)> {
        if self.side != Side::Callers {
            return None;
        }
        let callers = self.callers.clone()?;
        let n = self.caller.or_else(|| callers.roots().first().copied())?;
        Some((callers, n))
    }

    /// The callers' layout, as drawn (the function on the first row).
    pub fn callers_layout(&self, cx: &Ctx) -> Option<Layout> {
        let up = self.callers_area(cx)?;
        let callers = self.callers.as_deref()?;
        Some(flame_view::layout(
            callers,
            None,
            up.width,
            usize::from(up.height),
        ))
    }

    pub fn update(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        if self.in_chart() {
            return self.chart_update(intent, cx);
        }
        if let Some(effect) = self.anywhere(intent, cx) {
            return effect;
        }
        if cx.profile.nodes().is_empty() {
            return Effect::Ignored;
        }
        if self.caller_selected().is_some() {
            return self.callers_update(intent, cx);
        }
        let layout = self.layout(cx);
        let Some(sel) = self.selected_in(&layout) else {
            return Effect::Ignored;
        };
        let next = match intent {
            Intent::Move(n) if *n < 0 => {
                let top = self.zoom.last().copied();
                let up = self.tree.parent(sel).filter(|_| Some(sel) != top);
                if up.is_none() && self.sandwich.is_some() && self.zoom.is_empty() {
                    // Above the function: its callers.
                    self.side = Side::Callers;
                    return Effect::Done;
                }
                up
            }
            Intent::Move(_) => heaviest_drawn(&self.tree, &layout, sel),
            Intent::Beside(d) | Intent::Wheel { rows: d, .. } => beside(&layout, sel, *d),
            Intent::Click { x, y } => {
                if self.click_caller(*x, *y, cx) {
                    return Effect::Done;
                }
                let area = self.area(cx);
                if !area.contains(Position::new(*x, *y)) {
                    return Effect::Ignored;
                }
                let row = self.top + usize::from(y - area.y);
                flame_view::node_at(&layout, row, x - area.x)
            }
            Intent::First => {
                self.top = 0;
                first_frame(&layout)
            }
            Intent::Zoom => return self.zoom_in(sel, cx),
            Intent::ZoomOut if self.zoom.is_empty() => return Effect::Back,
            Intent::ZoomOut => {
                self.zoom.pop();
                self.top = 0;
                return Effect::Done;
            }
            Intent::NextMatch => return self.step_match(&layout, sel, 1, cx),
            Intent::PrevMatch => return self.step_match(&layout, sel, -1, cx),
            // In a sandwich, `f` leaves it, whichever frame is selected.
            Intent::Sandwich if self.sandwich.is_some() => return self.sandwich(None, cx),
            Intent::Sandwich => {
                return match self.tree.func(sel).func() {
                    Some(f) => self.sandwich(Some(f), cx),
                    None => Effect::Say("that frame is no function: no sandwich".into()),
                };
            }
            Intent::PageUp | Intent::PageDown | Intent::Last => return Effect::Done,
            _ => return Effect::Ignored,
        };
        if let Some(n) = next {
            self.select(n, cx);
        }
        Effect::Done
    }

    /// The intents taken alike on either side of a sandwich, and without
    /// call paths: the time order.
    fn anywhere(&mut self, intent: &Intent, cx: &Ctx) -> Option<Effect> {
        match intent {
            Intent::TimeOrder => Some(self.toggle_chart(cx)),
            _ => None,
        }
    }

    fn zoom_in(&mut self, sel: u32, cx: &Ctx) -> Effect {
        if self.zoom.last() != Some(&sel) {
            self.zoom.push(sel);
            self.top = 0;
        }
        let name = visible(self.tree.func(sel).name(cx.profile)).into_owned();
        let out = key_for(&Intent::ZoomOut, Place::Flame);
        Effect::Say(format!("zoomed on {name} · {out} zooms out"))
    }

    /// An intent with the selection on a sandwich's callers' side (drawn
    /// upside down): ↑ to the heaviest caller drawn, ↓ back towards the
    /// function and past it to its callees, ← → along the row; Enter makes
    /// the sandwich of the selected caller, `f` leaves the sandwich, Esc
    /// goes back to the callees.
    fn callers_update(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        let (Some((callers, sel)), Some(layout)) =
            (self.caller_selected(), self.callers_layout(cx))
        else {
            return Effect::Ignored;
        };
        let next = match intent {
            Intent::Move(n) if *n < 0 => heaviest_drawn(&callers, &layout, sel),
            Intent::Move(_) => match callers.parent(sel) {
                Some(q) => Some(q),
                None => {
                    self.side = Side::Callees;
                    return Effect::Done;
                }
            },
            Intent::Beside(d) | Intent::Wheel { rows: d, .. } => beside(&layout, sel, *d),
            Intent::Click { x, y } => {
                if !self.click_caller(*x, *y, cx) {
                    self.side = Side::Callees;
                    return self.update(intent, cx);
                }
                return Effect::Done;
            }
            Intent::First => callers.roots().first().copied(),
            Intent::Sandwich => return self.sandwich(None, cx),
            Intent::Zoom => {
                let Some(f) = callers.func(sel).func() else {
                    return Effect::Say("that frame is no function: no sandwich".into());
                };
                if Some(f) != self.sandwich {
                    return self.sandwich(Some(f), cx);
                }
                return Effect::Done;
            }
            Intent::ZoomOut => {
                self.side = Side::Callees;
                return Effect::Done;
            }
            Intent::PageUp | Intent::PageDown | Intent::Last => return Effect::Done,
            _ => return Effect::Ignored,
        };
        if let Some(n) = next {
            self.caller = Some(n);
        }
        Effect::Done
    }

    /// A click on the callers' side of a sandwich selects the caller
    /// there; false when the click is elsewhere.
    fn click_caller(&mut self, x: u16, y: u16, cx: &Ctx) -> bool {
        let Some(up) = self.callers_area(cx) else {
            return false;
        };
        if !up.contains(Position::new(x, y)) {
            return false;
        }
        let Some(layout) = self.callers_layout(cx) else {
            return false;
        };
        let row = usize::from(up.bottom() - 1 - y);
        if let Some(n) = flame_view::node_at(&layout, row, x - up.x) {
            self.side = Side::Callers;
            self.caller = Some(n);
        }
        true
    }

    /// f: the sandwich of `f` (its callers above it, its callees below),
    /// or the whole tree again for `None`.
    pub fn sandwich(&mut self, f: Option<FuncId>, cx: &Ctx) -> Effect {
        self.sandwich = f;
        self.mode = FlameMode::Graph;
        self.build(cx);
        Effect::Say(match f {
            Some(f) => {
                let name = visible(cx.profile.function_name(f)).into_owned();
                let more = match self.callers_cut {
                    true => " (callers cut short: too deep)",
                    false => "",
                };
                format!(
                    "sandwich of {name}: callers above, callees below · {} again leaves it{more}",
                    key_for(&Intent::Sandwich, Place::Flame)
                )
            }
            None => "the whole tree again".into(),
        })
    }

    /// Selects a frame and scrolls so its row shows.
    fn select(&mut self, n: u32, cx: &Ctx) {
        let top_depth = self.zoom.last().map_or(1, |&z| self.tree.depth(z));
        let depth = self.tree.depth(n).saturating_sub(top_depth);
        let rows = usize::from(self.area(cx).height).max(1);
        self.selected = Some(n);
        if depth < self.top {
            self.top = depth;
        } else if depth >= self.top + rows {
            self.top = depth + 1 - rows;
        }
    }

    /// n / N: the next frame on screen (row by row, left to right) whose
    /// function the search matches.
    fn step_match(&mut self, layout: &Layout, sel: u32, dir: isize, cx: &Ctx) -> Effect {
        let Some(q) = self.search.query.as_ref() else {
            return Effect::Say(format!(
                "no search: {} to start one",
                key_for(&Intent::Search, Place::Flame)
            ));
        };
        let p = cx.profile;
        let all: Vec<u32> = layout
            .rows
            .iter()
            .flatten()
            .filter_map(|b| b.node)
            .collect();
        let hit = |n: u32| q.is_match(&visible(self.tree.func(n).name(p)));
        let hits: Vec<usize> = (0..all.len()).filter(|&i| hit(all[i])).collect();
        if hits.is_empty() {
            return Effect::Say("no matching frame is drawn here".into());
        }
        let at = all.iter().position(|&n| n == sel).unwrap_or(0);
        let pick = match dir {
            1 => hits.iter().find(|&&i| i > at).or(hits.first()),
            _ => hits.iter().rev().find(|&&i| i < at).or(hits.last()),
        };
        if let Some(&i) = pick {
            self.select(all[i], cx);
        }
        Effect::Done
    }

    /// A search highlights; the answer says what share of the whole the
    /// matching frames hold together.
    pub fn set_search(&mut self, text: &str, cx: &Ctx) -> Option<String> {
        self.search.set(text);
        self.search_said(cx)
    }

    /// The share of the graph the matching frames hold (in time order
    /// too: the same calls, summed by path).
    pub fn search_said(&self, cx: &Ctx) -> Option<String> {
        let q = self.search.query.as_ref()?;
        let p = cx.profile;
        let share = flame_view::share_of(&self.tree, &|f| q.is_match(&visible(p.function_name(f))));
        let pct = crate::report::fmt::cell(crate::analysis::columns::Value::Pct(share));
        Some(format!("matches hold {pct}%"))
    }

    /// What `y` copies: the selected frame's path, its outermost frame
    /// first (in a sandwich's callers, the function first, then who called
    /// it); a call its function's name.
    pub fn copy_text(&self, cx: &Ctx) -> Option<String> {
        if self.in_chart() {
            return self.chart.function().map(|f| {
                cx.answer
                    .profile(crate::analysis::query::Reads::TIME_ORDER)
                    .function_name(f)
                    .into()
            });
        }
        let (tree, node) = match self.caller_selected() {
            Some(side) => side,
            None => (Arc::clone(&self.tree), self.selected_in(&self.layout(cx))?),
        };
        let mut names = Vec::new();
        let mut at = Some(node);
        while let Some(n) = at {
            names.push(tree.func(n).name(cx.profile).to_string());
            at = tree.parent(n);
        }
        names.reverse();
        Some(names.join(super::JOIN))
    }
}

impl FlamePane {
    /// The selected frame's call path, outermost first, for `M` and `>`:
    /// in the flame graph only (a sandwich's frames are no paths from the
    /// roots, and a call in time order is no node).
    pub fn node_path(&self, cx: &Ctx) -> Result<Vec<FuncId>, String> {
        if self.in_chart() {
            let t = key_for(&Intent::TimeOrder, Place::Chart);
            return Err(format!("{} of the flame graph: {t} shows it", node_keys()));
        }
        if self.sandwich.is_some() {
            let f = key_for(&Intent::Sandwich, Place::Flame);
            return Err(format!(
                "{} of the whole graph: {f} leaves the sandwich",
                node_keys()
            ));
        }
        let Some(node) = self.selected_in(&self.layout(cx)) else {
            return Err("no frame is selected".into());
        };
        let mut path = Vec::new();
        let mut at = Some(node);
        while let Some(n) = at {
            match self.tree.func(n).func() {
                Some(f) => path.push(f),
                None => {
                    let name = visible(self.tree.func(n).name(cx.profile)).into_owned();
                    return Err(format!("{name} is no function: the path cannot name it"));
                }
            }
            at = self.tree.parent(n);
        }
        path.reverse();
        Ok(path)
    }
}

/// The pane's inside less its status line.
fn drawn(cx: &Ctx) -> Rect {
    let i = inner(cx.areas(false).table);
    Rect::new(i.x, i.y, i.width, i.height.saturating_sub(1))
}

/// The frame beside `sel` on its row, to the left (`d` < 0) or right.
fn beside(layout: &Layout, sel: u32, d: isize) -> Option<u32> {
    let row = flame_view::find(layout, sel).map_or(0, |f| f.0);
    let nodes: Vec<u32> = layout
        .rows
        .get(row)
        .map_or(Vec::new(), |r| r.iter().filter_map(|b| b.node).collect());
    let at = nodes.iter().position(|&n| n == sel).unwrap_or(0);
    nodes.get(at.saturating_add_signed(d.signum())).copied()
}

/// The heaviest of `n`'s children that the layout draws.
fn heaviest_drawn(t: &Icicle, layout: &Layout, n: u32) -> Option<u32> {
    t.kids(n)
        .iter()
        .filter(|&&c| flame_view::find(layout, c).is_some())
        .max_by(|&&a, &&b| t.weight(a).total_cmp(&t.weight(b)))
        .copied()
}

/// The first frame of a layout's top row.
fn first_frame(layout: &Layout) -> Option<u32> {
    layout.rows.first()?.iter().find_map(|b| b.node)
}
