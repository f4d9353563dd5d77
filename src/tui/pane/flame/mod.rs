//! The Flame pane: the icicle of the calling-context tree (moving between
//! frames, zooming, the sandwich of a function, the search's
//! share), or with `t` the trace's calls in time order (chart.rs). The
//! geometry is `analysis::flame_view`'s; this file decides which tree is
//! drawn, which frame is selected and which is the full width. How the
//! graph is drawn (`s`: children by name or heaviest first, `^`: roots on
//! top or at the bottom) is the app's to keep for the run (`Look`, read
//! from `Ctx::flame`): a new query's pane draws as the last one did.

mod chart;
mod differential;
mod draw;

pub(crate) use chart::{ChartLine, ChartState};

use super::{Ctx, Effect, Search, inner};
use crate::analysis::flame_view::{self, Icicle, Layout, Order};
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

/// How the flame graph is drawn, kept by the app for the rest of the run
/// (not saved): `s` and `^` change it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Look {
    /// Each frame's children by name, or heaviest first.
    pub order: Order,
    /// A flame graph, its roots at the bottom; else an icicle, roots on
    /// top.
    pub flame: bool,
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
    /// In a comparison, the other run's tree (BASE's; NEW's where BASE's
    /// widths are drawn): each frame is coloured by its change.
    pub against: Option<Arc<crate::analysis::diff::TreeBase>>,
    /// In a comparison, the frames are BASE's (`b`), not NEW's.
    pub base_drawn: bool,
}

/// Where the user is in the flame graph, by paths of names another
/// profile of the run has too (`FlamePane::spot`).
#[derive(Debug)]
pub struct Spot {
    zoom: Vec<Vec<String>>,
    selected: Option<Vec<String>>,
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

    /// Where the user is in the whole graph made of `p`: the zooms and the
    /// selected frame, by path; `None` in a sandwich, which is not kept.
    pub fn spot(&self, p: &crate::model::Profile) -> Option<Spot> {
        self.sandwich.is_none().then(|| Spot {
            zoom: self.zoom.iter().map(|&z| self.tree.path_of(p, z)).collect(),
            selected: self.selected.map(|s| self.tree.path_of(p, s)),
        })
    }

    /// Puts `spot` back in this graph, made of `p`: the zooms down to the
    /// first whose frame it lacks, the selection where it has its frame.
    pub fn put_spot(&mut self, spot: Spot, p: &crate::model::Profile) {
        let t = &self.tree;
        self.zoom = spot.zoom.iter().map_while(|z| t.find_path(p, z)).collect();
        self.selected = spot.selected.and_then(|s| t.find_path(p, &s));
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
                self.tree = Arc::new(Icicle::tree(p, &ix));
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
    /// in a sandwich, the lower part, below the divider (the function and
    /// its callees; the callers take the upper).
    pub fn area(&self, cx: &Ctx) -> Rect {
        let all = drawn(cx);
        match self.sandwich {
            Some(_) => {
                let below = callers_rows(all) + 1;
                let h = all.height.saturating_sub(below);
                Rect::new(all.x, all.y + below, all.width, h)
            }
            None => all,
        }
    }

    /// In a sandwich, where the callers are drawn (above the divider).
    pub fn callers_area(&self, cx: &Ctx) -> Option<Rect> {
        self.sandwich?;
        let all = drawn(cx);
        Some(Rect::new(all.x, all.y, all.width, callers_rows(all)))
    }

    /// In a sandwich, the line between the callers and the function.
    pub fn divider(&self, cx: &Ctx) -> Option<Rect> {
        let up = self.callers_area(cx)?;
        Some(Rect::new(up.x, up.bottom(), up.width, 1))
    }

    /// Whether the roots are drawn at the bottom: a flame graph, as the
    /// app's look asks (a sandwich keeps its callers above the function
    /// and its callees below).
    pub fn flipped(&self, cx: &Ctx) -> bool {
        cx.flame.flame && self.sandwich.is_none()
    }

    /// The screen row of the layout's row `row` (`None`: scrolled off).
    pub fn screen_row(&self, cx: &Ctx, row: usize) -> Option<u16> {
        let area = self.area(cx);
        let i = u16::try_from(row.checked_sub(self.top)?).ok()?;
        (i < area.height).then(|| match self.flipped(cx) {
            true => area.bottom() - 1 - i,
            false => area.y + i,
        })
    }

    /// The layout's row drawn at screen row `y` (inside the area).
    fn row_at(&self, cx: &Ctx, y: u16) -> usize {
        let area = self.area(cx);
        self.top
            + usize::from(match self.flipped(cx) {
                true => area.bottom() - 1 - y,
                false => y - area.y,
            })
    }

    /// The frames on screen: the layout from the roots (zoomed: the
    /// zoomed frame's ancestors, then it) down, as many rows as are
    /// scrolled off plus those that fit.
    pub fn layout(&self, cx: &Ctx) -> Layout {
        let area = self.area(cx);
        self.layout_rows(cx, self.top + usize::from(area.height))
    }

    /// The layout's first `rows` rows.
    fn layout_rows(&self, cx: &Ctx, rows: usize) -> Layout {
        let width = self.area(cx).width;
        let zoom = self.zoom.last().copied();
        flame_view::layout(&self.tree, zoom, cx.flame.order, width, rows)
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
    /// and the selected caller.
    pub fn caller_selected(&self) -> Option<(Arc<Icicle>, u32)> {
        if self.side != Side::Callers {
            return None;
        }
        let callers = self.callers.clone()?;
        Some((callers, self.caller?))
    }

    /// The callers' layout: the function on its first row (drawn once,
    /// below the divider, as the callees' root: this row is not drawn),
    /// its callers on the rows above it.
    pub fn callers_layout(&self, cx: &Ctx) -> Option<Layout> {
        let up = self.callers_area(cx)?;
        let callers = self.callers.as_deref()?;
        let rows = usize::from(up.height) + 1;
        Some(flame_view::layout(
            callers,
            None,
            cx.flame.order,
            up.width,
            rows,
        ))
    }

    /// ↑ from the function in a sandwich: its heaviest caller drawn.
    fn enter_callers(&mut self, cx: &Ctx) -> Effect {
        let (Some(callers), Some(layout)) = (self.callers.clone(), self.callers_layout(cx)) else {
            return Effect::Done;
        };
        let Some(f) = callers.roots().first() else {
            return Effect::Done;
        };
        if let Some(n) = heaviest_drawn(&callers, &layout, f, cx.flame.order) {
            self.side = Side::Callers;
            self.caller = Some(n);
            return Effect::Done;
        }
        let name = visible(callers.func(f).name(cx.profile)).into_owned();
        Effect::Say(match callers.kids(f).is_empty() {
            true => format!("nothing calls {name}: its call paths start with it"),
            false => format!("{name}'s callers are each too thin to draw here"),
        })
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
            // ↑ and ↓ follow the screen: towards the roots is up in an
            // icicle, down in a flame graph.
            Intent::Move(n) if (*n < 0) != self.flipped(cx) => {
                let up = self.tree.parent(sel);
                if up.is_none() && self.sandwich.is_some() {
                    // Above the function: its callers.
                    return self.enter_callers(cx);
                }
                up
            }
            Intent::Move(_) => heaviest_drawn(&self.tree, &layout, sel, cx.flame.order),
            Intent::Beside(d) | Intent::Wheel { rows: d, .. } => beside(&layout, sel, *d),
            Intent::Click { x, y } => return self.click(*x, *y, &layout, cx),
            Intent::First => {
                self.top = 0;
                first_frame(&layout)
            }
            _ => return self.graph_command(intent, sel, &layout, cx),
        };
        if let Some(n) = next {
            self.select(n, cx);
        }
        Effect::Done
    }

    /// The flame graph's keys that do more than move the selection.
    fn graph_command(&mut self, intent: &Intent, sel: u32, layout: &Layout, cx: &Ctx) -> Effect {
        match intent {
            Intent::Zoom => self.zoom_in(sel, cx),
            Intent::ZoomOut if self.zoom.is_empty() => Effect::Back,
            Intent::ZoomOut => {
                self.zoom.pop();
                self.keep_drawn(sel, cx);
                Effect::Done
            }
            Intent::NextMatch => self.step_match(layout, sel, 1, cx),
            Intent::PrevMatch => self.step_match(layout, sel, -1, cx),
            // In a sandwich, `f` leaves it, whichever frame is selected.
            Intent::Sandwich if self.sandwich.is_some() => self.sandwich(None, cx),
            Intent::Sandwich => match self.tree.func(sel).func() {
                Some(f) => self.sandwich(Some(f), cx),
                None => Effect::Say("that frame is no function: no sandwich".into()),
            },
            Intent::PageUp | Intent::PageDown | Intent::Last => Effect::Done,
            _ => Effect::Ignored,
        }
    }

    /// A click: a caller in a sandwich, or a frame below it.
    fn click(&mut self, x: u16, y: u16, layout: &Layout, cx: &Ctx) -> Effect {
        if self.click_caller(x, y, cx) {
            return Effect::Done;
        }
        let area = self.area(cx);
        if !area.contains(Position::new(x, y)) {
            return Effect::Ignored;
        }
        let row = self.row_at(cx, y);
        if let Some(n) = flame_view::node_at(layout, row, x - area.x) {
            self.select(n, cx);
        }
        Effect::Done
    }

    /// The intents taken alike on either side of a sandwich, and without
    /// call paths: the time order, and how the graph is drawn.
    fn anywhere(&mut self, intent: &Intent, cx: &Ctx) -> Option<Effect> {
        let mut look = cx.flame;
        let sandwich = self.sandwich.is_some();
        let key = || key_for(intent, Place::Flame);
        let words = match intent {
            Intent::TimeOrder => return Some(self.toggle_chart(cx)),
            Intent::ChildOrder => {
                let key = key();
                look.order = match look.order {
                    Order::ByName => Order::Heaviest,
                    Order::Heaviest => Order::ByName,
                };
                match look.order {
                    Order::Heaviest => {
                        format!("children heaviest first (left heavy) · {key}: by name")
                    }
                    Order::ByName => format!("children by name · {key}: heaviest first"),
                }
            }
            Intent::Flip => {
                let key = key();
                look.flame = !look.flame;
                let (now, other) = match look.flame {
                    true => ("a flame graph, roots at the bottom", "an icicle"),
                    false => ("an icicle, roots on top", "a flame graph"),
                };
                let when = if sandwich {
                    " once the sandwich is left"
                } else {
                    ""
                };
                format!("{now}{when} · {key}: {other}")
            }
            _ => return None,
        };
        Some(Effect::Look(look, words))
    }

    /// Enter: the frame becomes the full width, its ancestors kept above
    /// it, scrolled so that it and some of them show.
    fn zoom_in(&mut self, sel: u32, cx: &Ctx) -> Effect {
        if self.zoom.last() != Some(&sel) {
            self.zoom.push(sel);
        }
        let rows = usize::from(self.area(cx).height).max(1);
        self.top = (self.tree.depth(sel) - 1).saturating_sub(rows / 2);
        self.select(sel, cx);
        let name = visible(self.tree.func(sel).name(cx.profile)).into_owned();
        let out = key_for(&Intent::ZoomOut, Place::Flame);
        Effect::Say(format!("zoomed on {name} · {out} zooms out"))
    }

    /// After a zoom out, the selection on a frame drawn: `sel`, or its
    /// nearest ancestor drawn (a frame too thin for the wider span).
    fn keep_drawn(&mut self, sel: u32, cx: &Ctx) {
        self.top = 0;
        let layout = self.layout_rows(cx, self.tree.depth(sel));
        let mut at = Some(sel);
        while let Some(n) = at {
            if flame_view::find(&layout, n).is_some() {
                self.select(n, cx);
                return;
            }
            at = self.tree.parent(n);
        }
        self.selected = None;
    }

    /// An intent with the selection on a sandwich's callers' side (drawn
    /// upside down above the divider): ↑ to the heaviest caller drawn, ↓
    /// back towards the function and past the divider to it, ← → along
    /// the row; Enter makes the sandwich of the selected caller, `f`
    /// leaves the sandwich, Esc goes back to the function.
    fn callers_update(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        let (Some((callers, sel)), Some(layout)) =
            (self.caller_selected(), self.callers_layout(cx))
        else {
            return Effect::Ignored;
        };
        let order = cx.flame.order;
        let next = match intent {
            Intent::Move(n) if *n < 0 => heaviest_drawn(&callers, &layout, sel, order),
            Intent::Move(_) => match callers.parent(sel).filter(|&q| callers.parent(q).is_some()) {
                Some(q) => Some(q),
                None => return self.leave_callers(),
            },
            Intent::Beside(d) | Intent::Wheel { rows: d, .. } => beside(&layout, sel, *d),
            Intent::Click { x, y } => {
                if !self.click_caller(*x, *y, cx) {
                    self.side = Side::Callees;
                    return self.update(intent, cx);
                }
                return Effect::Done;
            }
            Intent::First => {
                let f = callers.roots().first();
                f.and_then(|f| heaviest_drawn(&callers, &layout, f, order))
            }
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
            Intent::ZoomOut => return self.leave_callers(),
            Intent::PageUp | Intent::PageDown | Intent::Last => return Effect::Done,
            _ => return Effect::Ignored,
        };
        if let Some(n) = next {
            self.caller = Some(n);
        }
        Effect::Done
    }

    /// From the callers' side back to the function, below the divider.
    fn leave_callers(&mut self) -> Effect {
        self.side = Side::Callees;
        self.selected = self.tree.roots().first();
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
        // The function's own row is not drawn: the row above the divider
        // is its callers'.
        let row = usize::from(up.bottom() - 1 - y) + 1;
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

    /// Selects a frame and scrolls so its row shows (a frame's row is its
    /// depth: zoomed, its ancestors are drawn above it too).
    fn select(&mut self, n: u32, cx: &Ctx) {
        let row = self.tree.depth(n) - 1;
        let rows = usize::from(self.area(cx).height).max(1);
        self.selected = Some(n);
        if row < self.top {
            self.top = row;
        } else if row >= self.top + rows {
            self.top = row + 1 - rows;
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
    let i = inner(cx.areas().table);
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

/// The heaviest of `n`'s children that the layout draws (of equals, the
/// first drawn).
fn heaviest_drawn(t: &Icicle, layout: &Layout, n: u32, order: Order) -> Option<u32> {
    t.kids_in(n, order)
        .iter()
        .filter(|&c| flame_view::find(layout, c).is_some())
        .reduce(|best, c| match t.weight(c) > t.weight(best) {
            true => c,
            false => best,
        })
}

/// How many rows a sandwich's callers take: half of what is left by the
/// divider.
fn callers_rows(all: Rect) -> u16 {
    all.height.saturating_sub(1) / 2
}

/// The first frame of a layout's top row.
fn first_frame(layout: &Layout) -> Option<u32> {
    layout.rows.first()?.iter().find_map(|b| b.node)
}
