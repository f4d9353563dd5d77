//! A comparison's call trees (model.md § Comparisons): a node of NEW's
//! tree pairs with BASE's node at the same path of function names (root
//! first), as differential flame graphs pair frames. The app reads BASE's
//! total of the rows it shows, one row at a time (only visible rows are
//! built), and writes the change as the table does.

use super::{Comparison, Delta, Num, Which};
use crate::calltree::TreeIndex;
use profx_model::{NodeId, Profile};
use std::sync::Arc;

/// BASE's call tree, to find a path of NEW's in.
#[derive(Debug)]
pub struct TreeBase {
    profile: Arc<Profile>,
    index: TreeIndex,
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
        TreeBase { profile, index }
    }

    /// BASE's total at the path of names `names` (root first): its node's
    /// weight, in the tree's unit; `None` where BASE has no such path.
    pub fn total_at(&self, names: &[&str]) -> Option<f64> {
        let p = self.profile.as_ref();
        let kids = self.index.children();
        let mut at: Option<NodeId> = None;
        for name in names {
            let next = kids
                .of(at)
                .iter()
                .copied()
                .find(|&n| self.index.label(p, n).name(p) == *name)?;
            at = Some(next);
        }
        at.map(|n| self.index.weight(n))
    }
}

/// A node's change, NEW's total − BASE's (0 where BASE has no such
/// path), as `diff::delta` makes a change: a count's exactly, a time's
/// to the decimals the two are written with.
pub fn tree_delta(base: Option<f64>, new: f64, counts: bool) -> Delta {
    let b = base.unwrap_or(0.0);
    match counts {
        true => super::delta(Num::Count(b as u64), Num::Count(new as u64)),
        false => super::delta(Num::Real(b), Num::Real(new)),
    }
}
