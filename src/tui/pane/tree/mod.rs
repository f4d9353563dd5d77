//! The Call tree pane: the calling-context tree top-down or bottom-up
//! (`analysis::calltree`), rows opened and closed, the hot path, a search
//! that marks the matching functions' rows and opens the paths to them.

mod draw;
mod gone;

pub(in crate::tui) use gone::Shown;

use super::{Ctx, Effect, Search, Step, inner, keep_visible, step_wrap};
use crate::analysis::calltree::{CallTree, Direction, OPEN_EVERY_ROWS, TreeCol, Unit};
use crate::model::{FuncId, Profile};
use crate::tui::intent::Intent;
use crate::tui::keymap::{Place, key_for, node_keys};
use crate::tui::layout::{self, Areas};
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Position;

/// The call tree pane's state: the tree, its search and the selection.
#[derive(Debug)]
pub struct TreePane {
    /// The tree, with its open rows.
    pub tree: Box<CallTree>,
    /// The function whose places the tree was opened at (marked there).
    pub about: Option<FuncId>,
    /// The search over its rows, if any.
    pub search: Search,
    /// The selected row's place among the open rows.
    pub cursor: usize,
    /// The first row on screen.
    pub offset: usize,
    /// In a comparison, BASE's tree: each row shows BASE's total at its
    /// path of names and the change.
    pub against: Option<std::sync::Arc<crate::analysis::diff::TreeBase>>,
    /// In a comparison, the rows shown: NEW's and the paths only BASE has.
    pub gone: gone::Gone,
}

/// Where the user is in the Call tree, by paths of names another profile
/// of the run has too (`TreePane::spot`).
#[derive(Debug)]
pub struct Spot {
    bottom_up: bool,
    sort: (TreeCol, bool),
    open: Vec<Vec<String>>,
    at: Option<Vec<String>>,
    search: String,
}

impl TreePane {
    /// The tree with its roots open; opened at `about`'s places when given.
    pub fn new(about: Option<FuncId>, cx: &Ctx) -> TreePane {
        let p = cx.profile;
        let mut tree = Box::new(CallTree::new(p, cx.tree_index()));
        let mut cursor = 0;
        match about {
            Some(f) => {
                tree.mark(p, &|g| g == f);
                cursor = tree.next_marked(tree.rows.len(), 1).unwrap_or(0);
            }
            // The first level open: a tree of one root (the program's
            // entry) shows where its time went, not one closed row.
            None => tree.open_roots(p, OPEN_EVERY_ROWS),
        }
        let mut pane = TreePane {
            tree,
            about,
            search: Search::default(),
            cursor,
            offset: 0,
            against: None,
            gone: gone::Gone::default(),
        };
        pane.keep_visible(cx);
        pane
    }

    /// Where the user is in the tree made of `p`: its direction and sort,
    /// every open row and the cursor's row, each by its path of names.
    pub fn spot(&self, p: &Profile) -> Spot {
        let t = &self.tree;
        Spot {
            bottom_up: t.direction == Direction::BottomUp,
            sort: t.sort,
            open: t.open_paths(p),
            at: t.rows.get(self.cursor).map(|r| t.path_of(p, r.id)),
            search: self.search.text.clone(),
        }
    }

    /// Puts `spot` back in this tree: the paths it still has open, the
    /// cursor on its row (else on the first), its search's rows marked.
    pub fn put_spot(&mut self, spot: Spot, cx: &Ctx) {
        let p = cx.profile;
        let t = &mut self.tree;
        if spot.bottom_up != (t.direction == Direction::BottomUp) {
            t.invert(p);
        }
        t.sort_by(p, spot.sort.0, spot.sort.1);
        // The function shown was marked, its places opened: the rows the
        // user had open are what is open.
        t.unmark(p);
        t.reopen(p, &spot.open);
        let found = spot.at.and_then(|path| t.find_path(p, &path));
        if !spot.search.is_empty() {
            self.search.set(&spot.search);
            if self.search.query.is_some() {
                let hits = cx.function_hits(&spot.search);
                t.mark(p, &|f| hits.get(f.index()).copied().unwrap_or(false));
            }
        }
        self.cursor = found.and_then(|id| t.position(id)).unwrap_or(0);
    }

    /// Draws the tree's rows on screen.
    pub fn render(&self, buf: &mut Buffer, a: &Areas, cx: &Ctx, theme: Theme) {
        draw::pane(buf, a.table, self, cx, theme);
    }

    /// The step as the breadcrumb and the title name it.
    pub fn step_name(&self, cx: &Ctx) -> String {
        match self.about {
            Some(f) => format!("{} in the tree", super::short_name(cx.profile, f)),
            None => "Call tree".into(),
        }
    }

    /// Takes an intent meant for the tree.
    pub fn update(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        let effect = self.take(intent, cx);
        self.keep_visible(cx);
        effect
    }

    fn take(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        if let Some(effect) = self.gone_intent(intent, cx.profile) {
            return effect;
        }
        let page = self.page(cx) as isize;
        match intent {
            Intent::Move(n) => self.move_by(*n),
            Intent::PageUp => self.move_by(-page),
            Intent::PageDown => self.move_by(page),
            Intent::First => self.move_by(isize::MIN / 2),
            Intent::Last => self.move_by(isize::MAX / 2),
            Intent::OpenRow => self.expand(cx.profile),
            Intent::CloseRow => self.collapse(cx.profile),
            Intent::OpenAll => return self.expand_all(cx.profile),
            Intent::OpenEvery => return self.open_every(cx.profile),
            Intent::CloseEvery => {
                self.close_gone();
                self.close_every(cx.profile)
            }
            Intent::HotPath => self.op(cx.profile, |p, t, c| Some(t.hot_path(p, c))),
            Intent::Invert => self.invert(cx),
            Intent::SortNext => self.step_sort(cx.profile, 1),
            Intent::SortPrev => self.step_sort(cx.profile, -1),
            Intent::Reverse => self.op(cx.profile, |p, t, c| {
                let id = t.rows.get(c).map(|r| r.id);
                t.sort_by(p, t.sort.0, !t.sort.1);
                id.and_then(|id| t.position(id))
            }),
            Intent::NextMatch | Intent::PrevMatch if self.tree.marked.is_empty() => {
                return Effect::Say(match self.search.query {
                    Some(_) => "no node matches".into(),
                    None => format!(
                        "no search: {} to start one",
                        key_for(&Intent::Search, Place::Tree)
                    ),
                });
            }
            Intent::NextMatch => self.op(cx.profile, |_, t, c| t.next_marked(c, 1)),
            Intent::PrevMatch => self.op(cx.profile, |_, t, c| t.next_marked(c, -1)),
            Intent::Open => {
                return match self.function(cx) {
                    Some(f) => Effect::Open(Step::Function(f)),
                    None => Effect::Say("this row has no function".into()),
                };
            }
            Intent::Click { x, y } => return self.click(*x, *y, cx),
            Intent::Wheel { rows, .. } => self.move_by(*rows),
            _ => return Effect::Ignored,
        }
        Effect::Done
    }

    /// Rows the pane shows at once.
    pub fn page(&self, cx: &Ctx) -> usize {
        layout::table_rows(cx.areas().table).max(1)
    }

    fn move_by(&mut self, n: isize) {
        self.cursor = super::step(self.cursor, n, self.rows_shown());
    }

    /// Scrolls so that the selection is on screen.
    pub fn keep_visible(&mut self, cx: &Ctx) {
        let shown = self.page(cx);
        let len = self.rows_shown();
        keep_visible(&mut self.cursor, &mut self.offset, len, shown);
    }

    /// Runs `op` on the tree with the cursor's row (NEW's: a gone row's
    /// is the row it hangs under), then puts the cursor on the row `op`
    /// names (or leaves it where it was), the rows compared listed again.
    fn op(
        &mut self,
        p: &Profile,
        op: impl FnOnce(&Profile, &mut CallTree, usize) -> Option<usize>,
    ) {
        let on_gone = matches!(self.shown(self.cursor), Some(Shown::Gone { .. }));
        let at = self.tree_at(self.cursor);
        let to = op(p, &mut self.tree, at);
        self.relist(p);
        if to.is_some() || !on_gone {
            self.cursor = self.shown_at(to.unwrap_or(at));
        }
        self.cursor = self.cursor.min(self.rows_shown().saturating_sub(1));
    }

    /// Opens the row, or moves into it when it is open.
    fn expand(&mut self, p: &Profile) {
        self.op(p, |p, t, c| {
            if t.expand(p, c) {
                return None;
            }
            let r = t.rows.get(c)?;
            (t.is_open(r.id) && t.has_children(r.id)).then_some(c + 1)
        });
    }

    /// Closes the row, or moves to its parent when it is closed.
    fn collapse(&mut self, p: &Profile) {
        self.op(p, |p, t, c| {
            if t.collapse(c) {
                return None;
            }
            let parent = t.parent(p, t.rows.get(c)?.id)?;
            t.rows[..c].iter().rposition(|r| r.id == parent)
        });
    }

    fn expand_all(&mut self, p: &Profile) -> Effect {
        let mut stopped = false;
        self.op(p, |p, t, c| {
            let id = t.rows.get(c)?.id;
            t.expand_all(p, c);
            stopped = t.over_budget();
            t.position(id)
        });
        match stopped {
            true => Effect::Say(
                "stopped opening: a deep recursion, turned over; open rows one by one".into(),
            ),
            false => Effect::Done,
        }
    }

    /// `E`: every row open, the selection kept on its row; a tree too
    /// large for `OPEN_EVERY_ROWS` rows opens as many whole levels as fit,
    /// and says so.
    fn open_every(&mut self, p: &Profile) -> Effect {
        let mut opened = None;
        self.op(p, |p, t, c| {
            let id = t.rows.get(c)?.id;
            opened = Some(t.open_every(p, OPEN_EVERY_ROWS));
            t.position(id)
        });
        match opened {
            Some(o) if !o.whole => Effect::Say(format!(
                "opened {} of the tree: {} rows, the most shown at once · {} opens a row's subtree",
                crate::report::fmt::counted(u64::from(o.levels), "levels"),
                crate::report::fmt::grouped(o.rows as u64),
                key_for(&Intent::OpenAll, Place::Tree),
            )),
            _ => Effect::Done,
        }
    }

    /// `-`: every row closed, the selection on its root.
    fn close_every(&mut self, p: &Profile) {
        self.op(p, |p, t, c| {
            let root = t.root_of(p, t.rows.get(c)?.id);
            t.close_every(p);
            t.position(root)
        });
    }

    /// Top-down ⇄ bottom-up, the selection kept on its function.
    fn invert(&mut self, cx: &Ctx) {
        self.op(cx.profile, |p, t, c| {
            let f = t.rows.get(c).map(|r| t.label(p, r.id));
            t.invert(p);
            let f = f?;
            t.rows.iter().position(|r| t.label(p, r.id) == f)
        });
        if !self.search.text.is_empty() {
            let text = self.search.text.clone();
            self.set_search(&text, cx);
        }
    }

    /// The columns `s` steps through: those the pane shows (bottom-up
    /// has no self column apart from its total, which is the self weight;
    /// a count column where weights are times), then the name.
    pub fn sortable(&self) -> Vec<TreeCol> {
        let t = &self.tree;
        let mut cols = vec![TreeCol::Total];
        if t.direction == Direction::TopDown {
            cols.push(TreeCol::SelfW);
        }
        if t.index().unit() == Unit::Ms {
            cols.push(TreeCol::Count);
        }
        cols.push(TreeCol::Name);
        cols
    }

    /// A sort column's name, as its heading names it.
    pub fn sort_name(&self, p: &Profile) -> &'static str {
        match (self.tree.sort.0, self.tree.direction) {
            (TreeCol::Total, Direction::TopDown) => "total",
            (TreeCol::Total | TreeCol::SelfW, _) => "self",
            (TreeCol::Count, _) if p.totals.samples.is_some() => "samples",
            (TreeCol::Count, _) => "calls",
            (TreeCol::Name, _) => "name",
        }
    }

    fn step_sort(&mut self, p: &Profile, dir: isize) {
        let cols = self.sortable();
        self.op(p, |p, t, c| {
            let now = cols.iter().position(|&x| x == t.sort.0).unwrap_or(0);
            let col = cols[step_wrap(now, dir, cols.len())];
            let id = t.rows.get(c).map(|r| r.id);
            t.sort_by(p, col, col != TreeCol::Name);
            id.and_then(|id| t.position(id))
        });
    }

    /// Marks the rows whose function the search matches, opens the paths
    /// to them and says how many and what share they hold.
    pub fn set_search(&mut self, text: &str, cx: &Ctx) -> Option<String> {
        self.search.set(text);
        let p = cx.profile;
        if self.search.query.is_none() {
            self.op(p, |p, t, c| {
                let id = t.rows.get(c).map(|r| r.id);
                t.unmark(p);
                id.and_then(|id| t.position(id))
            });
            self.keep_visible(cx);
            return None;
        }
        let hits = cx.function_hits(text);
        self.op(p, |p, t, c| {
            t.mark(p, &|f| hits.get(f.index()).copied().unwrap_or(false));
            t.next_marked(c.saturating_sub(1).min(t.rows.len()), 1)
        });
        self.keep_visible(cx);
        self.search_said(cx)
    }

    /// How many nodes the search marked and what share they hold.
    pub fn search_said(&self, cx: &Ctx) -> Option<String> {
        self.search.query.as_ref()?;
        let t = &self.tree;
        let n = t.marked.len();
        Some(match t.marked_share(cx.profile) {
            Some(s) if n > 0 => {
                let pct = crate::report::fmt::cell(crate::analysis::columns::Value::Pct(Some(s)));
                format!(
                    "{} node{} match · {pct}% of the total",
                    crate::report::fmt::grouped(n as u64),
                    if n == 1 { "" } else { "s" },
                )
            }
            _ => "no node matches".into(),
        })
    }

    fn click(&mut self, x: u16, y: u16, cx: &Ctx) -> Effect {
        let table = cx.areas().table;
        if !table.contains(Position::new(x, y)) {
            return Effect::Ignored;
        }
        let body = inner(table);
        if y > body.y && y < body.bottom() {
            let i = self.offset + usize::from(y - body.y - 1);
            if i < self.rows_shown() {
                self.cursor = i;
            }
        }
        Effect::Done
    }

    /// The selected row's function.
    pub fn function(&self, cx: &Ctx) -> Option<FuncId> {
        let Shown::New(k) = self.shown(self.cursor)? else {
            return None;
        };
        self.tree.func(cx.profile, self.tree.rows.get(k)?.id)
    }

    /// The selected row's call path, outermost first, for `M` and `>`:
    /// top-down only (a bottom-up row's path runs from a leaf).
    pub fn node_path(&self, cx: &Ctx) -> Result<Vec<FuncId>, String> {
        if self.tree.direction != Direction::TopDown {
            let i = key_for(&Intent::Invert, Place::Tree);
            return Err(format!("{} top-down: {i} turns the tree back", node_keys()));
        }
        if let Some(why) = self.gone_path() {
            return Err(why);
        }
        let (p, t) = (cx.profile.as_ref(), &self.tree);
        let Some(row) = t.rows.get(self.tree_at(self.cursor)) else {
            return Err("no row is selected".into());
        };
        let mut at = Some(row.id);
        let mut path = Vec::new();
        while let Some(id) = at {
            match t.func(p, id) {
                Some(f) => path.push(f),
                None => {
                    let name = crate::text::visible(t.label(p, id).name(p)).into_owned();
                    return Err(format!("{name} is no function: the path cannot name it"));
                }
            }
            at = t.parent(p, id);
        }
        path.reverse();
        Ok(path)
    }

    /// The selected row's path, root first.
    pub fn copy_text(&self, cx: &Ctx) -> Option<String> {
        if let Some(Shown::Gone { .. }) = self.shown(self.cursor) {
            return Some(self.path_names(cx.profile, self.cursor).join(super::JOIN));
        }
        let (p, t) = (cx.profile.as_ref(), &self.tree);
        let mut at = Some(t.rows.get(self.tree_at(self.cursor))?.id);
        let mut names = Vec::new();
        while let Some(id) = at {
            names.push(t.label(p, id).name(p).to_string());
            at = t.parent(p, id);
        }
        names.reverse();
        Some(names.join(super::JOIN))
    }
}
