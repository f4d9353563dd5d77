//! Reading the calling-context tree: who a node's children are, in which
//! order paths compare, and the weight under each node.
//!
//! The model keeps a node's parent only (that is all a loader needs); the
//! children index is built here once, in O(nodes), for whoever walks the
//! tree downward: the Call tree pane, the path order of `--json`'s
//! stacks, the call graph.

use profx_model::{FuncId, NodeId, Profile, metrics::add_count, metrics::add_opt};
use std::sync::Arc;

/// Each node's children, and the roots, as slices of one array.
#[derive(Clone, Debug, Default)]
pub struct Children {
    /// `start[i]..start[i + 1]` are node i's children in `list`; the last
    /// range (i = number of nodes) holds the roots. Shared by the same
    /// lists in another order (`reordered`): 4 bytes a node each.
    start: Arc<Vec<u32>>,
    list: Vec<NodeId>,
}

impl Children {
    /// Children of every node, each list in `key`'s order (ties by node id).
    pub fn build<K: Ord>(p: &Profile, key: impl Fn(FuncId) -> K) -> Children {
        let nodes = p.nodes();
        Children::from_parents(
            nodes.len(),
            |i| nodes[i].parent().map(|q| q.index()),
            |i| key(nodes[i].func),
        )
    }

    /// Children of `n` nodes given by their parents (each parent's id
    /// below its children's), each list in `key`'s order (ties by id).
    pub fn from_parents<K: Ord>(
        n: usize,
        parent: impl Fn(usize) -> Option<usize>,
        key: impl Fn(usize) -> K,
    ) -> Children {
        let slot = |i: usize| parent(i).unwrap_or(n);
        // `start[w + 1]` counts w's children, then (summed) is where they
        // end; each node, last first, is put just before its parent's end,
        // which moves that end down to the parent's start: no second array
        // of places, and `start` is shifted one place to the left after.
        let mut start = vec![0u32; n + 2];
        for i in 0..n {
            start[slot(i) + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut list = vec![NodeId::default(); n];
        for i in (0..n).rev() {
            let end = &mut start[slot(i) + 1];
            *end -= 1;
            list[*end as usize] = NodeId::from_index(i);
        }
        start.remove(0);
        start.push(n as u32);
        // Keys with the node: unique, so an unstable sort is exact.
        sort_lists(&start, &mut list, |_, c| (key(c.index()), c));
        Children {
            start: Arc::new(start),
            list,
        }
    }

    /// The same lists, each ordered by `key` instead, ties kept in this
    /// index's order (a stable sort).
    pub fn reordered<K: Ord>(&self, key: impl Fn(NodeId) -> K) -> Children {
        let mut list = self.list.clone();
        sort_lists(&self.start, &mut list, |at, c| (key(c), at));
        Children {
            start: Arc::clone(&self.start),
            list,
        }
    }

    /// The children of `node`, or the roots for `None`.
    pub fn of(&self, node: Option<NodeId>) -> &[NodeId] {
        let i = match node {
            Some(x) => x.index(),
            None => self.start.len().saturating_sub(2),
        };
        match (self.start.get(i), self.start.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.list[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Every node in depth-first pre-order, children in this index's
    /// order: each node's place in it. With children ordered by function,
    /// this is the order of the paths' frames compared root first (a path
    /// before the paths it is a prefix of).
    pub fn preorder_ranks(&self, nodes: usize) -> Vec<u32> {
        let mut rank = vec![0u32; nodes];
        let mut next = 0u32;
        // Reversed, so the first child is popped first.
        let mut todo: Vec<NodeId> = self.of(None).iter().rev().copied().collect();
        while let Some(x) = todo.pop() {
            rank[x.index()] = next;
            next += 1;
            todo.extend(self.of(Some(x)).iter().rev());
        }
        rank
    }
}

/// Orders each list (`start`'s ranges of `list`) by `key` (given a node's
/// place in its list and the node), each key made once: a key reads the
/// profile's tables, and made in every comparison, a list of millions of
/// roots read them n·log n times (the Call tree's first opening of a 4 M
/// function listing waited on it). Keys must be unique.
fn sort_lists<K: Ord>(start: &[u32], list: &mut [NodeId], key: impl Fn(u32, NodeId) -> K) {
    let mut keyed: Vec<(K, NodeId)> = Vec::new();
    for w in start.windows(2) {
        let seg = &mut list[w[0] as usize..w[1] as usize];
        if seg.len() < 2 {
            continue;
        }
        keyed.clear();
        keyed.extend(seg.iter().zip(0..).map(|(&c, at)| (key(at, c), c)));
        keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (slot, (_, c)) in seg.iter_mut().zip(keyed.drain(..)) {
            *slot = c;
        }
    }
}

/// The weight each node's subtree holds: the sums over its node and every
/// node below it of the stacks' hits and self times. A node's inclusive
/// time, read from its stacks' self times alone (as flame graphs and the
/// call graph read it), so that a node's children never hold more than it.
#[derive(Clone, Debug, Default)]
pub struct Subtree {
    /// By node: the hits of the stacks at and below it; `None` where none of
    /// them has hits.
    pub hits: Vec<Option<u64>>,
    /// By node: the self times of the stacks at and below it, in ms; `None`
    /// where none of them has one.
    pub time_ms: Vec<Option<f64>>,
}

impl Subtree {
    /// The sums for every node of `p`'s tree.
    pub fn build(p: &Profile) -> Subtree {
        let n = p.nodes().len();
        let mut hits: Vec<Option<u64>> = vec![None; n];
        let mut time_ms: Vec<Option<f64>> = vec![None; n];
        for s in p.stacks() {
            let i = s.node().index();
            hits[i] = add_count(hits[i], s.hits);
            time_ms[i] = add_opt(time_ms[i], s.self_ms);
        }
        // Children have larger ids than their parents: one pass from the
        // last node adds every subtree into its parent.
        for i in (0..n).rev() {
            if let Some(q) = p.nodes()[i].parent() {
                hits[q.index()] = add_count(hits[q.index()], hits[i]);
                time_ms[q.index()] = add_opt(time_ms[q.index()], time_ms[i]);
            }
        }
        Subtree { hits, time_ms }
    }
}

/// `Subtree`'s sums for some nodes only: those `on` marks, which hold
/// every node below a marked one (as `through` marks them). Each is made
/// from the same stacks and children in the same order as `build` makes
/// it, so it is the same to the bit; a frame that needs one function's
/// neighbours then reads the stacks once and sums only below that function,
/// instead of building two sums for each of millions of nodes.
#[derive(Debug, Default)]
pub struct SubtreeOf {
    /// Node index → 1 + its place in the sums; 0 for a node not marked.
    place: Vec<u32>,
    hits: Vec<Option<u64>>,
    time_ms: Vec<Option<f64>>,
}

impl SubtreeOf {
    /// The sums for the nodes `on` marks, which must mark every node below a
    /// marked one.
    pub fn build(p: &Profile, on: &[bool]) -> SubtreeOf {
        let mut place = vec![0u32; on.len()];
        let marked: Vec<usize> = (0..on.len()).filter(|&i| on[i]).collect();
        for (k, &i) in marked.iter().enumerate() {
            place[i] = u32::try_from(k + 1).unwrap_or(u32::MAX);
        }
        let mut hits: Vec<Option<u64>> = vec![None; marked.len()];
        let mut time_ms: Vec<Option<f64>> = vec![None; marked.len()];
        let slot =
            |place: &[u32], i: usize| (place.get(i).copied().unwrap_or(0) as usize).checked_sub(1);
        for s in p.stacks() {
            if let Some(k) = slot(&place, s.node().index()) {
                hits[k] = add_count(hits[k], s.hits);
                time_ms[k] = add_opt(time_ms[k], s.self_ms);
            }
        }
        for (k, &i) in marked.iter().enumerate().rev() {
            let parent = p.nodes()[i].parent().and_then(|q| slot(&place, q.index()));
            if let Some(q) = parent {
                hits[q] = add_count(hits[q], hits[k]);
                time_ms[q] = add_opt(time_ms[q], time_ms[k]);
            }
        }
        SubtreeOf {
            place,
            hits,
            time_ms,
        }
    }

    /// A marked node's sums (hits, self time below it); `None`s for others.
    pub fn get(&self, i: usize) -> (Option<u64>, Option<f64>) {
        match (self.place.get(i).copied().unwrap_or(0) as usize).checked_sub(1) {
            Some(k) => (self.hits[k], self.time_ms[k]),
            None => (None, None),
        }
    }
}

/// Which nodes' paths pass through `f` (the stacks a drill-down from `f`
/// lists), in one pass over the tree: parents come before children.
pub fn through(p: &Profile, f: FuncId) -> Vec<bool> {
    let mut on = vec![false; p.nodes().len()];
    for (i, node) in p.nodes().iter().enumerate() {
        on[i] = node.func == f || node.parent().is_some_and(|q| on[q.index()]);
    }
    on
}

/// Each function's place in the order of (name, module), which is how
/// frames compare.
pub fn function_ranks(p: &Profile) -> Vec<u32> {
    let mut order: Vec<(u32, u32, u32)> = p
        .function_ids()
        .map(|f| {
            let func = p.function(f);
            let id = u32::try_from(f.index()).unwrap_or(u32::MAX);
            (p.name_rank(func.name), p.name_rank(func.module), id)
        })
        .collect();
    order.sort_unstable();
    let mut ranks = vec![0; order.len()];
    for (rank, &(_, _, id)) in order.iter().enumerate() {
        ranks[id as usize] = u32::try_from(rank).unwrap_or(u32::MAX);
    }
    ranks
}

/// Each node's place in the order of its path's frames, root first, by
/// (name, module): the order report-json.md gives stacks of equal hits.
pub fn path_ranks(p: &Profile) -> Vec<u32> {
    let ranks = function_ranks(p);
    Children::build(p, |f| ranks[f.index()]).preorder_ranks(p.nodes().len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use profx_model::ProfileBuilder;
    use profx_model::testing::new_function;

    /// Pre-order ranks compare as the paths' frame names do, root first.
    #[test]
    fn preorder_is_the_order_of_paths() {
        let mut b = ProfileBuilder::new("test");
        let (z, a, m) = (
            new_function(&mut b, "z"),
            new_function(&mut b, "a"),
            new_function(&mut b, "m"),
        );
        let paths: Vec<Vec<FuncId>> = vec![
            vec![z, a],
            vec![a],
            vec![z],
            vec![a, m, z],
            vec![a, m],
            vec![z, a, a],
        ];
        for f in &paths {
            b.stack(f);
        }
        let p = b.finish();
        let ranks = path_ranks(&p);
        let mut by_rank: Vec<_> = p.stack_ids().collect();
        by_rank.sort_by_key(|&s| ranks[p.stack_node(s).index()]);
        let names = |s| {
            p.frames(s)
                .iter()
                .map(|&f| p.function_name(f))
                .collect::<Vec<_>>()
                .join(">")
        };
        let got: Vec<String> = by_rank.into_iter().map(names).collect();
        assert_eq!(got, ["a", "a>m", "a>m>z", "z", "z>a", "z>a>a"]);
    }
}
