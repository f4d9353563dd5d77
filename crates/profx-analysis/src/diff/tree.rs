//! A comparison's call trees (model.md § Comparisons): a node of NEW's
//! tree pairs with BASE's node at the same path of function names (root
//! first), as differential flame graphs pair frames. The app reads BASE's
//! total of the rows it shows, one row at a time (only visible rows are
//! built), and writes the change as the table does; under a row it opens,
//! BASE's children at that path that NEW's node has none of the name of
//! (`gone_children`: the paths only BASE has, which NEW's tree has no row
//! for), each against nothing.

use super::{Comparison, Delta, Num, Which};
use crate::calltree::TreeIndex;
use profx_model::{FuncId, NodeId, Profile};
use rustc_hash::FxHashMap;
use std::hash::BuildHasher;
use std::sync::{Arc, OnceLock};

/// BASE's call tree, to find a path of NEW's in.
#[derive(Debug)]
pub struct TreeBase {
    profile: Arc<Profile>,
    index: TreeIndex,
    /// (parent's raw id, or `u32::MAX` for the roots; the name's hash) →
    /// the first child of that name in the tree's order: made when a
    /// path is first looked up, so a walk of a million open rows finds
    /// each in O(1) rather than in a scan of its siblings.
    by_name: OnceLock<FxHashMap<(u32, u64), NodeId>>,
}

impl TreeBase {
    /// BASE's tree of the comparison (made once: O(BASE's nodes)).
    pub fn of(c: &Comparison) -> TreeBase {
        TreeBase::of_side(c, Which::Base)
    }

    /// Side `w`'s tree of the comparison: NEW's, to find BASE's paths in
    /// where BASE's widths are drawn.
    pub fn of_side(c: &Comparison, w: Which) -> TreeBase {
        let profile = Arc::clone(c.profile(w));
        let index = TreeIndex::build(&profile);
        TreeBase {
            profile,
            index,
            by_name: OnceLock::new(),
        }
    }

    /// BASE's total at the path of names `names` (root first): its node's
    /// weight, in the tree's unit; `None` where BASE has no such path.
    pub fn total_at(&self, names: &[&str]) -> Option<f64> {
        self.node_at(names).map(|n| self.index.weight(n))
    }

    /// BASE's node at the path of names `names` (root first).
    pub fn node_at(&self, names: &[&str]) -> Option<NodeId> {
        let mut at: Option<NodeId> = None;
        for name in names {
            at = Some(self.child(at, name)?);
        }
        at
    }

    /// BASE's child of `at` (a root for `None`) named `name`: the first in
    /// the tree's order, as differential flame graphs pair frames.
    pub fn child(&self, at: Option<NodeId>, name: &str) -> Option<NodeId> {
        let map = self.by_name.get_or_init(|| self.names());
        let found = map.get(&(at.map_or(u32::MAX, NodeId::raw), hash(name)))?;
        match self.name(*found) == name {
            true => Some(*found),
            // Two names of one hash under one parent: the scan decides.
            false => (self.index.children().of(at).iter().copied()).find(|&n| self.name(n) == name),
        }
    }

    fn names(&self) -> FxHashMap<(u32, u64), NodeId> {
        let kids = self.index.children();
        let mut map = FxHashMap::default();
        let parents = (0..self.profile.nodes().len()).map(|i| Some(NodeId::from_index(i)));
        for at in std::iter::once(None).chain(parents) {
            for &n in kids.of(at) {
                let key = (at.map_or(u32::MAX, NodeId::raw), hash(self.name(n)));
                map.entry(key).or_insert(n);
            }
        }
        map
    }

    /// A node's name (a function's, or `(unlisted)`, `(no call path)`).
    pub fn name(&self, n: NodeId) -> &str {
        let p = self.profile.as_ref();
        self.index.label(p, n).name(p)
    }

    /// A node's function in BASE's run; none for the views' own nodes.
    pub fn func(&self, n: NodeId) -> Option<FuncId> {
        self.index.label(&self.profile, n).func()
    }

    /// A node's total, in the tree's unit.
    pub fn weight(&self, n: NodeId) -> f64 {
        self.index.weight(n)
    }

    /// Whether a node has children in BASE's tree.
    pub fn has_children(&self, n: NodeId) -> bool {
        !self.index.children().of(Some(n)).is_empty()
    }

    /// BASE's children of `at` (its roots for `None`), heaviest first
    /// (ties by name, then id).
    pub fn children(&self, at: Option<NodeId>) -> Vec<NodeId> {
        let mut kids = self.index.children().of(at).to_vec();
        kids.sort_by(|&a, &b| {
            let w = |n| self.index.weight(n);
            w(b).total_cmp(&w(a))
                .then_with(|| self.name(a).cmp(self.name(b)))
                .then(a.cmp(&b))
        });
        kids
    }

    /// The paths only BASE has under a node of NEW's: BASE's children of
    /// `at` (BASE's node at NEW's node's path; its roots for `None`) whose
    /// name no child of NEW's node has (`new_names`), heaviest first.
    pub fn gone_children(&self, at: Option<NodeId>, new_names: &[&str]) -> Vec<NodeId> {
        let new: rustc_hash::FxHashSet<&str> = new_names.iter().copied().collect();
        let mut kids = self.children(at);
        kids.retain(|&n| !new.contains(self.name(n)));
        kids
    }

    /// BASE's profile, whose names the nodes have.
    pub fn profile(&self) -> &Arc<Profile> {
        &self.profile
    }
}

fn hash(name: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(name)
}

/// A node's change, NEW's total − BASE's (0 where BASE has no such
/// path), as `diff::delta` makes a change: a count's exactly, a time's
/// to the decimals the two are written with.
/// Two totals summed in different orders that differ by no more than a
/// float sum's noise (983.6 against 983.6000000000001) do not change:
/// never `-0.000`.
pub fn tree_delta(base: Option<f64>, new: f64, counts: bool) -> Delta {
    let b = base.unwrap_or(0.0);
    match counts {
        true => super::delta(Num::Count(b as u64), Num::Count(new as u64)),
        false if (new - b).abs() <= profx_model::graph::noise(b.max(new)) => Delta::Real(0.0),
        false => super::delta(Num::Real(b), Num::Real(new)),
    }
}
