//! The compared Call tree's rows (tui.md § Comparisons): NEW's rows and,
//! after the children of each open row, the paths only BASE has there
//! (`diff::TreeBase::gone_children`: BASE's children at the row's path of
//! names that NEW's node has none of the name of), each `gone`, against
//! nothing in NEW. They are found for the open rows only, when the rows
//! change (a row opened, a sort, a search), never for the whole tree. A
//! gone row opens on BASE's children (all gone); it has no function of
//! NEW's run, so `Enter` and `M`/`>` say so, and a step on it names
//! BASE's function (model.md's `Policy::Side` leaves it out of NEW).

use super::TreePane;
use crate::analysis::calltree::{CallTree, Direction};
use crate::analysis::diff::TreeBase;
use crate::model::{FuncId, NodeId, Profile};
use crate::tui::intent::{Intent, Op};
use crate::tui::keymap::{Place, key_for};
use crate::tui::pane::Effect;
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// A row on screen of a compared tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// NEW's row: its place in `CallTree::rows`.
    New(usize),
    /// A path only BASE has: BASE's node, and how deep it is shown.
    Gone { node: NodeId, depth: u32 },
}

/// The compared tree's rows, NEW's and BASE's only; none where the tree
/// is not compared (or bottom-up): the rows are then NEW's alone.
#[derive(Debug, Default)]
pub struct Gone {
    pub rows: Vec<Shown>,
    /// The gone rows opened (BASE's nodes' raw ids).
    open: FxHashSet<u32>,
}

/// The most rows of BASE's only `*` opens under a gone row at once.
const OPEN_ALL_GONE: usize = 100_000;

impl TreePane {
    /// BASE's tree, where the rows are compared (top-down).
    fn comparing(&self) -> Option<Arc<TreeBase>> {
        let top_down = self.tree.direction == Direction::TopDown;
        self.against.clone().filter(|_| top_down)
    }

    /// Shows the comparison with BASE's tree `b`: BASE's totals beside
    /// NEW's, and the paths only BASE has.
    pub fn set_against(&mut self, b: Arc<TreeBase>, p: &Profile) {
        let k = self.tree_at(self.cursor);
        self.against = Some(b);
        self.relist(p);
        self.cursor = self.shown_at(k);
    }

    /// How many rows are shown.
    pub fn rows_shown(&self) -> usize {
        match self.gone.rows.is_empty() {
            true => self.tree.rows.len(),
            false => self.gone.rows.len(),
        }
    }

    /// Row `i` on screen.
    pub fn shown(&self, i: usize) -> Option<Shown> {
        match self.gone.rows.is_empty() {
            true => (i < self.tree.rows.len()).then_some(Shown::New(i)),
            false => self.gone.rows.get(i).copied(),
        }
    }

    /// The place in NEW's rows of row `i` on screen: a gone row's, its
    /// nearest row of NEW's above it (where it hangs).
    pub(super) fn tree_at(&self, i: usize) -> usize {
        match self.shown(i) {
            Some(Shown::New(k)) => k,
            Some(Shown::Gone { depth, .. }) => (0..i)
                .rev()
                .find_map(|j| match self.shown(j) {
                    Some(Shown::New(k)) if self.tree.rows[k].depth < depth => Some(k),
                    _ => None,
                })
                .unwrap_or(0),
            None => i,
        }
    }

    /// The place on screen of NEW's row `k`.
    pub(super) fn shown_at(&self, k: usize) -> usize {
        match self.gone.rows.is_empty() {
            true => k,
            false => (self.gone.rows.iter())
                .position(|&s| s == Shown::New(k))
                .unwrap_or(k),
        }
    }

    /// Lists the rows again after NEW's changed: each open row's gone
    /// children after its own, BASE's roots NEW lacks last.
    pub(super) fn relist(&mut self, p: &Profile) {
        let Some(b) = self.comparing() else {
            self.gone.rows.clear();
            return;
        };
        let t = &self.tree;
        let mut out = Vec::with_capacity(t.rows.len());
        // Open rows whose subtree is being listed: (id, depth, BASE's node).
        let mut open: Vec<(u32, u32, Option<NodeId>)> = Vec::new();
        // BASE's node at each depth of the current row's path.
        let mut path: Vec<Option<NodeId>> = Vec::new();
        for (k, r) in t.rows.iter().enumerate() {
            while open.last().is_some_and(|o| o.1 >= r.depth) {
                let (id, depth, at) = open.pop().unwrap_or_default();
                self.gone.under(&b, (p, t), (id, depth, at), &mut out);
            }
            path.truncate(r.depth as usize);
            let name = t.label(p, r.id).name(p);
            let at = match r.depth {
                0 => b.child(None, name),
                d => (path.get(d as usize - 1).copied().flatten())
                    .and_then(|q| b.child(Some(q), name)),
            };
            path.push(at);
            out.push(Shown::New(k));
            if t.is_open(r.id) {
                open.push((r.id, r.depth, at));
            }
        }
        while let Some(o) = open.pop() {
            self.gone.under(&b, (p, t), o, &mut out);
        }
        let ix = t.index();
        let roots: Vec<&str> = (ix.children().of(None).iter())
            .map(|&n| ix.label(p, n).name(p))
            .collect();
        for g in b.gone_children(None, &roots) {
            self.gone.listed(&b, g, 0, &mut out);
        }
        self.gone.rows = out;
    }

    /// A key on a gone row: `→`/`←` open and close it on BASE's
    /// children, `*` opens its subtree, `Enter` and the node steps say it
    /// has no path in NEW; `None` for any other (the tree takes it).
    pub(super) fn gone_intent(&mut self, intent: &Intent, p: &Profile) -> Option<Effect> {
        let Some(Shown::Gone { node, .. }) = self.shown(self.cursor) else {
            return None;
        };
        let b = self.comparing()?;
        let name = crate::text::visible(b.name(node)).into_owned();
        let kids = b.has_children(node);
        match intent {
            // Opened, or, open already, into its first child.
            Intent::OpenRow if kids => {
                if !self.gone.open.insert(node.raw()) {
                    self.cursor += 1;
                }
            }
            // A leaf of BASE's: nothing to open.
            Intent::OpenRow => {}
            Intent::CloseRow if self.gone.open.remove(&node.raw()) => {}
            Intent::CloseRow => self.cursor = self.parent_row(self.cursor),
            Intent::OpenAll => self.open_gone_subtree(&b, node),
            Intent::Open => {
                return Some(Effect::Say(format!(
                    "{name} is gone from NEW: this path is BASE's only (Base, Δ)"
                )));
            }
            _ => return None,
        }
        self.relist(p);
        Some(Effect::Done)
    }

    fn open_gone_subtree(&mut self, b: &TreeBase, node: NodeId) {
        let mut todo = vec![node];
        let mut opened = 0;
        while let Some(n) = todo.pop().filter(|_| opened < OPEN_ALL_GONE) {
            if b.has_children(n) {
                self.gone.open.insert(n.raw());
                let kids = b.children(Some(n));
                opened += kids.len();
                todo.extend(kids);
            }
        }
    }

    /// The row a row on screen hangs under (itself for a root).
    fn parent_row(&self, i: usize) -> usize {
        let depth = |j: usize| match self.shown(j) {
            Some(Shown::New(k)) => self.tree.rows[k].depth,
            Some(Shown::Gone { depth, .. }) => depth,
            None => 0,
        };
        let d = depth(i);
        (0..i).rev().find(|&j| depth(j) < d).unwrap_or(i)
    }

    /// The gone row's function in BASE's run, where the cursor is on one:
    /// the function a step names (left out of NEW, which lacks the path).
    pub fn gone_function(&self) -> Option<FuncId> {
        match self.shown(self.cursor)? {
            Shown::Gone { node, .. } => self.against.as_ref()?.func(node),
            Shown::New(_) => None,
        }
    }

    /// What a node step (`M`, `>`) on a gone row says: a step of a
    /// comparison runs on both runs, at a path NEW has too, and this one
    /// is BASE's alone (a step on its function names BASE's instead).
    pub(super) fn gone_path(&self) -> Option<String> {
        let Shown::Gone { node, .. } = self.shown(self.cursor)? else {
            return None;
        };
        let name = crate::text::visible(self.against.as_ref()?.name(node)).into_owned();
        let merge = key_for(&Intent::Transform(Op::MergeNode), Place::Query);
        let focus = key_for(&Intent::Transform(Op::FocusNode), Place::Query);
        let (drop, m) = (
            key_for(&Intent::Transform(Op::Drop), Place::Query),
            key_for(&Intent::Transform(Op::Merge), Place::Query),
        );
        Some(format!(
            "{name} · gone: only BASE has this path, and {merge} and {focus} step on a call node of both runs ({drop}, {m}, … take BASE's {name})"
        ))
    }

    /// The names of row `i`'s path on screen, root first: NEW's rows'
    /// names, then BASE's for the gone rows.
    pub(super) fn path_names(&self, p: &Profile, i: usize) -> Vec<String> {
        let mut names = Vec::new();
        let mut at = i;
        loop {
            let name = match self.shown(at) {
                Some(Shown::New(k)) => {
                    let id = self.tree.rows[k].id;
                    self.tree.label(p, id).name(p).to_string()
                }
                Some(Shown::Gone { node, .. }) => self
                    .against
                    .as_ref()
                    .map_or(String::new(), |b| b.name(node).to_string()),
                None => break,
            };
            names.push(name);
            let up = self.parent_row(at);
            if up == at {
                break;
            }
            at = up;
        }
        names.reverse();
        names
    }

    /// Every gone row closed (`-`).
    pub(super) fn close_gone(&mut self) {
        self.gone.open.clear();
    }

    /// Whether a gone row is open.
    pub fn gone_open(&self, node: NodeId) -> bool {
        self.gone.open.contains(&node.raw())
    }
}

impl Gone {
    /// The gone rows under NEW's open row `id` (at `depth`, BASE's node
    /// `at` at its path).
    fn under(
        &self,
        b: &TreeBase,
        (p, t): (&Profile, &CallTree),
        (id, depth, at): (u32, u32, Option<NodeId>),
        out: &mut Vec<Shown>,
    ) {
        let Some(at) = at else { return };
        let ix = t.index();
        let names: Vec<&str> = (ix.children().of(Some(NodeId::from_raw(id))).iter())
            .map(|&n| ix.label(p, n).name(p))
            .collect();
        for g in b.gone_children(Some(at), &names) {
            self.listed(b, g, depth + 1, out);
        }
    }

    /// A gone row, and under it, where it is open, its children (gone).
    fn listed(&self, b: &TreeBase, node: NodeId, depth: u32, out: &mut Vec<Shown>) {
        let mut todo = vec![(node, depth)];
        while let Some((n, d)) = todo.pop() {
            out.push(Shown::Gone { node: n, depth: d });
            if self.open.contains(&n.raw()) {
                todo.extend(b.children(Some(n)).into_iter().rev().map(|c| (c, d + 1)));
            }
        }
    }
}
