//! The Flame pane's keys: moving between frames (caller, heaviest callee,
//! the frames left and right, a click), zooming in and out, hiding a
//! function, the sandwich of one, and the search's share. The geometry is
//! `analysis::flame_view`'s; this file decides which tree is drawn, which
//! frame is selected and which is the full width.

use super::action::Action;
use super::app::{App, inner};
use super::view::{FlameState, Scope, Side};
use crate::analysis::flame_view::{self, Icicle, Layout};
use crate::analysis::search::Query;
use crate::model::FuncId;
use crate::text::visible;
use ratatui::layout::Rect;
use std::sync::Arc;

/// Steps the callers' side of a sandwich may take up the tree.
const CALLERS_BUDGET: usize = 4_000_000;

impl App {
    pub(super) fn in_flame(&self) -> bool {
        self.view().scope == Scope::Flame
    }

    /// Where the frames are drawn: the pane's inside less its status line;
    /// in a sandwich, the lower part (the callers take the upper).
    pub fn flame_area(&self) -> Rect {
        let i = inner(self.areas().table);
        let all = Rect::new(i.x, i.y, i.width, i.height.saturating_sub(1));
        match self.flame_state().focus {
            Some(_) => {
                let up = all.height / 2;
                Rect::new(all.x, all.y + up, all.width, all.height - up)
            }
            None => all,
        }
    }

    /// In a sandwich, where the callers are drawn (above the callees).
    pub fn flame_callers_area(&self) -> Option<Rect> {
        self.flame_state().focus?;
        let i = inner(self.areas().table);
        let all = Rect::new(i.x, i.y, i.width, i.height.saturating_sub(1));
        Some(Rect::new(all.x, all.y, all.width, all.height / 2))
    }

    pub fn flame_state(&self) -> FlameState {
        self.view().flame.as_deref().cloned().unwrap_or_default()
    }

    /// The tree drawn (made when the pane was opened or its hides or focus
    /// changed).
    pub fn flame_tree(&self) -> Arc<Icicle> {
        self.view()
            .flame
            .as_deref()
            .and_then(|st| st.tree.clone())
            .unwrap_or_default()
    }

    /// Makes the trees `st`'s hides and focus ask for.
    pub(super) fn build_flame(&self, st: &mut FlameState) {
        let p = &self.profile;
        let ix = self.tree_index();
        match st.focus {
            Some(f) => {
                st.tree = Some(Arc::new(Icicle::callees(p, &ix, f)));
                let (callers, cut) = Icicle::callers(p, &ix, f, CALLERS_BUDGET);
                st.callers = Some(Arc::new(callers));
                st.callers_cut = cut;
            }
            None => {
                let hidden = st.hidden.clone();
                st.tree = Some(Arc::new(Icicle::whole(p, &ix, &|f| hidden.contains(&f))));
                st.callers = None;
                st.callers_cut = false;
            }
        }
        st.selected = None;
        st.zoom.clear();
        st.top = 0;
        st.side = Side::Callees;
        st.caller = None;
    }

    /// The frames on screen: the layout from the zoomed frame down, as
    /// many rows as are scrolled off plus those that fit.
    pub fn flame_layout(&self) -> Layout {
        let st = self.flame_state();
        let area = self.flame_area();
        flame_view::layout(
            &self.flame_tree(),
            st.zoom.last().copied(),
            area.width,
            st.top + usize::from(area.height),
        )
    }

    /// The selected frame: the one chosen, or the first of the top row.
    pub fn flame_selected(&self) -> Option<u32> {
        self.flame_state()
            .selected
            .or_else(|| first_frame(&self.flame_layout()))
    }

    /// `flame_selected`, for a caller that has the layout already (a frame
    /// lays it out once).
    pub fn flame_selected_in(&self, layout: &Layout) -> Option<u32> {
        self.flame_state().selected.or_else(|| first_frame(layout))
    }

    /// The function of the selected frame (in a sandwich, on either side).
    pub fn flame_function(&self) -> Option<FuncId> {
        if let Some((callers, n)) = self.flame_caller() {
            return callers.func(n).func();
        }
        let t = self.flame_tree();
        self.flame_selected().and_then(|n| t.func(n).func())
    }

    /// In a sandwich with the selection on the callers' side: their tree
    /// and the selected node.
    pub fn flame_caller(&self) -> Option<(Arc<Icicle>, u32)> {
        let st = self.view().flame.as_deref()?;
        if st.side != Side::Callers {
            return None;
        }
        let callers = st.callers.clone()?;
        let n = st.caller.or_else(|| callers.roots().first().copied())?;
        Some((callers, n))
    }

    /// The callers' layout, as drawn (the function on the first row).
    pub fn flame_callers_layout(&self) -> Option<Layout> {
        let up = self.flame_callers_area()?;
        let st = self.view().flame.as_deref()?;
        let callers = st.callers.as_deref()?;
        Some(flame_view::layout(
            callers,
            None,
            up.width,
            usize::from(up.height),
        ))
    }

    /// Handles a key of the Flame pane; false for keys it leaves to the
    /// app (tabs, search, help, quit, going back once nothing is zoomed).
    pub(super) fn flame_action(&mut self, action: &Action) -> bool {
        if self.in_chart() {
            return self.chart_action(action);
        }
        if self.profile.nodes().is_empty() {
            return false;
        }
        let layout = self.flame_layout();
        let t = self.flame_tree();
        let Some(sel) = self.flame_selected_in(&layout) else {
            return false;
        };
        if self.flame_caller().is_some() {
            return self.callers_action(action);
        }
        let next = match action {
            Action::Move(n) if *n < 0 => {
                let st = self.flame_state();
                let top = st.zoom.last().copied();
                let up = t.parent(sel).filter(|_| Some(sel) != top);
                if up.is_none() && st.focus.is_some() && st.zoom.is_empty() {
                    // Above the function: its callers.
                    self.set_flame(|s| s.side = Side::Callers);
                    return true;
                }
                up
            }
            Action::Move(_) => heaviest_drawn(&t, &layout, sel),
            Action::ScrollColumns(d) | Action::Wheel { rows: d, .. } => beside(&layout, sel, *d),
            Action::Lines => return self.flame_action(&Action::ScrollColumns(1)),
            Action::Click { x, y } => {
                let area = self.flame_area();
                if self.flame_click_caller(*x, *y) {
                    return true;
                }
                if !area.contains(ratatui::layout::Position::new(*x, *y)) {
                    return false;
                }
                let row = self.flame_state().top + usize::from(y - area.y);
                flame_view::node_at(&layout, row, x - area.x)
            }
            Action::Home => {
                self.set_flame(|st| st.top = 0);
                layout
                    .rows
                    .first()
                    .and_then(|r| r.iter().find_map(|b| b.node))
            }
            Action::Enter => {
                self.set_flame(|st| {
                    if st.zoom.last() != Some(&sel) {
                        st.zoom.push(sel);
                        st.top = 0;
                    }
                });
                let name = visible(t.func(sel).name(&self.profile)).into_owned();
                self.status = Some(format!("zoomed on {name} · Esc zooms out"));
                return true;
            }
            Action::Back | Action::Cancel => {
                if self.flame_state().zoom.is_empty() {
                    return false;
                }
                self.set_flame(|st| {
                    st.zoom.pop();
                    st.top = 0;
                });
                return true;
            }
            Action::NextMatch | Action::PrevMatch => {
                let dir = if *action == Action::NextMatch { 1 } else { -1 };
                return self.flame_step_match(&layout, sel, dir);
            }
            Action::Hide => {
                match t.func(sel).func() {
                    Some(f) => self.flame_hide(f),
                    None => self.status = Some("that frame is no function: nothing to hide".into()),
                }
                return true;
            }
            Action::Unhide => {
                let mut st = self.flame_state();
                st.hidden.clear();
                self.build_flame(&mut st);
                self.set_flame(|s| *s = st);
                self.status = Some("every function shown again".into());
                return true;
            }
            Action::Focus => {
                let Some(f) = t.func(sel).func() else {
                    self.status = Some("that frame is no function: no sandwich".into());
                    return true;
                };
                let now = self.flame_state().focus;
                self.flame_focus((now != Some(f)).then_some(f));
                return true;
            }
            Action::ShowInTree => {
                self.toggle_chart();
                return true;
            }
            Action::PageUp | Action::PageDown | Action::End => return true,
            _ => return false,
        };
        if let Some(n) = next {
            self.select_flame(n);
        }
        true
    }

    /// A key with the selection on a sandwich's callers' side (drawn
    /// upside down): ↑ to the heaviest caller drawn, ↓ back towards the
    /// function and past it to its callees, ← → along the row; Enter or
    /// `f` makes the sandwich of the selected caller, Esc goes back to the
    /// callees.
    fn callers_action(&mut self, action: &Action) -> bool {
        let (Some((callers, sel)), Some(layout)) =
            (self.flame_caller(), self.flame_callers_layout())
        else {
            return false;
        };
        let next = match action {
            Action::Move(n) if *n < 0 => heaviest_drawn(&callers, &layout, sel),
            Action::Move(_) => match callers.parent(sel) {
                Some(q) => Some(q),
                None => {
                    self.set_flame(|s| s.side = Side::Callees);
                    return true;
                }
            },
            Action::ScrollColumns(d) | Action::Wheel { rows: d, .. } => beside(&layout, sel, *d),
            Action::Lines => return self.callers_action(&Action::ScrollColumns(1)),
            Action::Click { x, y } => {
                if !self.flame_click_caller(*x, *y) {
                    self.set_flame(|s| s.side = Side::Callees);
                    return self.flame_action(action);
                }
                return true;
            }
            Action::Home => callers.roots().first().copied(),
            Action::Enter | Action::Focus => {
                let Some(f) = callers.func(sel).func() else {
                    self.status = Some("that frame is no function: no sandwich".into());
                    return true;
                };
                if Some(f) != self.flame_state().focus {
                    self.flame_focus(Some(f));
                }
                return true;
            }
            Action::Back | Action::Cancel => {
                self.set_flame(|s| s.side = Side::Callees);
                return true;
            }
            Action::Hide | Action::Unhide => {
                self.status = Some("f leaves the sandwich; x hides in the whole graph".into());
                return true;
            }
            Action::PageUp | Action::PageDown | Action::End => return true,
            _ => return false,
        };
        if let Some(n) = next {
            self.set_flame(|s| s.caller = Some(n));
        }
        true
    }

    /// A click on the callers' side of a sandwich selects the caller
    /// there; false when the click is elsewhere.
    fn flame_click_caller(&mut self, x: u16, y: u16) -> bool {
        let Some(up) = self.flame_callers_area() else {
            return false;
        };
        if !up.contains(ratatui::layout::Position::new(x, y)) {
            return false;
        }
        let Some(layout) = self.flame_callers_layout() else {
            return false;
        };
        let row = usize::from(up.bottom() - 1 - y);
        if let Some(n) = flame_view::node_at(&layout, row, x - up.x) {
            self.set_flame(|s| {
                s.side = Side::Callers;
                s.caller = Some(n);
            });
        }
        true
    }

    fn set_flame(&mut self, edit: impl FnOnce(&mut FlameState)) {
        let v = self.view_mut();
        let st = v.flame.get_or_insert_with(Box::default);
        edit(st);
    }

    /// x: leaves `f`'s frames out (their weight goes to their callers), or
    /// puts them back.
    fn flame_hide(&mut self, f: FuncId) {
        let mut st = self.flame_state();
        let name = visible(self.profile.function_name(f)).into_owned();
        match st.hidden.iter().position(|&g| g == f) {
            Some(i) => {
                st.hidden.remove(i);
                self.status = Some(format!("{name} shown again"));
            }
            None => {
                st.hidden.push(f);
                self.status = Some(format!(
                    "{name} hidden: its time goes to its callers · X shows all"
                ));
            }
        }
        st.focus = None;
        self.build_flame(&mut st);
        self.set_flame(|s| *s = st);
    }

    /// f: the sandwich of `f` (its callers above it, its callees below),
    /// or the whole tree again for `None`.
    pub(super) fn flame_focus(&mut self, f: Option<FuncId>) {
        let mut st = self.flame_state();
        st.focus = f;
        self.build_flame(&mut st);
        let cut = st.callers_cut;
        self.set_flame(|s| *s = st);
        self.status = Some(match f {
            Some(f) => {
                let name = visible(self.profile.function_name(f)).into_owned();
                let more = if cut {
                    " (callers cut short: too deep)"
                } else {
                    ""
                };
                format!(
                    "sandwich of {name}: callers above, callees below · f again leaves it{more}"
                )
            }
            None => "the whole tree again".into(),
        });
    }

    /// Selects a frame and scrolls so its row shows.
    fn select_flame(&mut self, n: u32) {
        let st = self.flame_state();
        let t = self.flame_tree();
        let top_depth = st.zoom.last().map_or(1, |&z| t.depth(z));
        let depth = t.depth(n).saturating_sub(top_depth);
        let rows = usize::from(self.flame_area().height).max(1);
        self.set_flame(|st| {
            st.selected = Some(n);
            if depth < st.top {
                st.top = depth;
            } else if depth >= st.top + rows {
                st.top = depth + 1 - rows;
            }
        });
    }

    /// n / N: the next frame on screen (row by row, left to right) whose
    /// function the search matches.
    fn flame_step_match(&mut self, layout: &Layout, sel: u32, dir: isize) -> bool {
        let Some(q) = self.view().query.as_ref() else {
            self.status = Some("no search: / to start one".into());
            return true;
        };
        let p = &self.profile;
        let t = self.flame_tree();
        let all: Vec<u32> = layout
            .rows
            .iter()
            .flatten()
            .filter_map(|b| b.node)
            .collect();
        let hit = |n: u32| q.is_match(&visible(t.func(n).name(p)));
        let hits: Vec<usize> = (0..all.len()).filter(|&i| hit(all[i])).collect();
        if hits.is_empty() {
            self.status = Some("no matching frame is drawn here".into());
            return true;
        }
        let at = all.iter().position(|&n| n == sel).unwrap_or(0);
        let pick = match dir {
            1 => hits.iter().find(|&&i| i > at).or(hits.first()),
            _ => hits.iter().rev().find(|&&i| i < at).or(hits.last()),
        };
        if let Some(&i) = pick {
            self.select_flame(all[i]);
        }
        true
    }

    /// A search in the Flame pane highlights; the status says what share
    /// of the whole the matching frames hold together.
    pub(super) fn flame_search(&mut self) {
        let Some(q) = self
            .view()
            .query
            .as_ref()
            .map(|_| Query::parse(&self.view().filter))
        else {
            return;
        };
        let p = &self.profile;
        let t = self.flame_tree();
        let share = flame_view::share_of(&t, &|f| q.is_match(&visible(p.function_name(f))));
        let pct = crate::report::fmt::cell(crate::analysis::columns::Value::Pct(share));
        self.status = Some(format!("matches hold {pct}%"));
    }
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
