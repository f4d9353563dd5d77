//! The Flame pane's keys: moving between frames (caller, heaviest callee,
//! the frames left and right), zooming in and out, and the search's share.
//! The geometry is `analysis::flame_view`'s; this file only decides which
//! frame is selected and which is the full width.

use super::action::Action;
use super::app::{App, inner};
use super::view::{FlameState, Scope};
use crate::analysis::flame_view::{self, Layout};
use crate::analysis::search::Query;
use crate::model::NodeId;
use crate::text::visible;
use ratatui::layout::Rect;

impl App {
    pub(super) fn in_flame(&self) -> bool {
        self.view().scope == Scope::Flame
    }

    /// Where the frames are drawn: the pane's inside less its status line.
    pub fn flame_area(&self) -> Rect {
        let i = inner(self.areas().table);
        Rect::new(i.x, i.y, i.width, i.height.saturating_sub(1))
    }

    pub fn flame_state(&self) -> FlameState {
        self.view().flame.as_deref().cloned().unwrap_or_default()
    }

    /// The frames on screen: the layout from the zoomed frame down, as
    /// many rows as are scrolled off plus those that fit.
    pub fn flame_layout(&self) -> Layout {
        let st = self.flame_state();
        let area = self.flame_area();
        let ix = self.tree_index();
        flame_view::layout(
            &ix,
            st.zoom.last().copied(),
            area.width,
            st.top + usize::from(area.height),
        )
    }

    /// The selected frame: the one chosen, or the first of the top row.
    pub fn flame_selected(&self) -> Option<NodeId> {
        let st = self.flame_state();
        st.selected.or_else(|| {
            self.flame_layout()
                .rows
                .first()?
                .iter()
                .find_map(|b| b.node)
        })
    }

    /// Handles a key of the Flame pane; false for keys it leaves to the
    /// app (tabs, search, help, quit, going back once nothing is zoomed).
    pub(super) fn flame_action(&mut self, action: &Action) -> bool {
        if self.profile.nodes().is_empty() {
            return false;
        }
        let layout = self.flame_layout();
        let Some(sel) = self.flame_selected() else {
            return false;
        };
        let p = std::sync::Arc::clone(&self.profile);
        let next = match action {
            Action::Move(n) if *n < 0 => {
                let top = self.flame_state().zoom.last().copied();
                p.node(sel).parent().filter(|_| Some(sel) != top)
            }
            Action::Move(_) => {
                let ix = self.tree_index();
                let drawn = |c: &&NodeId| flame_view::find(&layout, **c).is_some();
                ix.children
                    .of(Some(sel))
                    .iter()
                    .filter(drawn)
                    .max_by(|a, b| {
                        flame_view::weight(&ix, **a).total_cmp(&flame_view::weight(&ix, **b))
                    })
                    .copied()
            }
            Action::ScrollColumns(d) | Action::Wheel { rows: d, .. } => {
                let row = flame_view::find(&layout, sel).map_or(0, |f| f.0);
                let nodes: Vec<NodeId> = layout
                    .rows
                    .get(row)
                    .map_or(Vec::new(), |r| r.iter().filter_map(|b| b.node).collect());
                let at = nodes.iter().position(|&n| n == sel).unwrap_or(0);
                nodes.get(at.saturating_add_signed(d.signum())).copied()
            }
            Action::Lines => return self.flame_action(&Action::ScrollColumns(1)),
            Action::Click { x, y } => {
                let area = self.flame_area();
                if !area.contains(ratatui::layout::Position::new(*x, *y)) {
                    return false;
                }
                let row = self.flame_state().top + usize::from(y - area.y);
                flame_view::node_at(&layout, row, x - area.x)
            }
            Action::Home => {
                let top = layout
                    .rows
                    .first()
                    .and_then(|r| r.iter().find_map(|b| b.node));
                self.set_flame(|st| st.top = 0);
                top
            }
            Action::Enter => {
                self.set_flame(|st| {
                    if st.zoom.last() != Some(&sel) {
                        st.zoom.push(sel);
                        st.top = 0;
                    }
                });
                self.status = Some(format!(
                    "zoomed on {} · Esc zooms out",
                    visible(p.function_name(p.node(sel).func))
                ));
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
            Action::PageUp | Action::PageDown | Action::End => return true,
            _ => return false,
        };
        if let Some(n) = next {
            self.select_flame(n);
        }
        true
    }

    fn set_flame(&mut self, edit: impl FnOnce(&mut FlameState)) {
        let v = self.view_mut();
        let st = v.flame.get_or_insert_with(Box::default);
        edit(st);
    }

    /// Selects a frame and scrolls so its row shows.
    fn select_flame(&mut self, n: NodeId) {
        let st = self.flame_state();
        let top_depth = st.zoom.last().map_or(1, |z| self.profile.node(*z).depth());
        let depth = self.profile.node(n).depth().saturating_sub(top_depth);
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
    fn flame_step_match(&mut self, layout: &Layout, sel: NodeId, dir: isize) -> bool {
        let Some(q) = self.view().query.as_ref() else {
            self.status = Some("no search: / to start one".into());
            return true;
        };
        let p = &self.profile;
        let all: Vec<NodeId> = layout
            .rows
            .iter()
            .flatten()
            .filter_map(|b| b.node)
            .collect();
        let hits: Vec<NodeId> = all
            .iter()
            .copied()
            .filter(|&n| q.is_match(&visible(p.function_name(p.node(n).func))))
            .collect();
        if hits.is_empty() {
            self.status = Some("no matching frame is drawn here".into());
            return true;
        }
        let at = all.iter().position(|&n| n == sel).unwrap_or(0);
        let pick = match dir {
            1 => hits
                .iter()
                .find(|&&h| all.iter().position(|&n| n == h) > Some(at))
                .or(hits.first()),
            _ => hits
                .iter()
                .rev()
                .find(|&&h| all.iter().position(|&n| n == h) < Some(at))
                .or(hits.last()),
        };
        if let Some(&n) = pick {
            self.select_flame(n);
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
        let ix = self.tree_index();
        let share = flame_view::share_of(p, &ix, &|f| q.is_match(&visible(p.function_name(f))));
        let pct = crate::report::fmt::cell(crate::analysis::columns::Value::Pct(Some(share)));
        self.status = Some(format!("matches hold {pct}%"));
    }
}
