//! Callers and callees of a function, derived from the stacks (model.md §
//! Call graph), so drill-down works the same for every format.
//!
//! For every stack in which F stands at position i, the function at i−1 is
//! a caller and the one at i+1 a callee, weighted by the stack's hits and
//! self time. Self time, not self + child: in a trace every prefix of a path
//! is a stack of its own, so a deeper stack's time is already counted there,
//! and sample stacks have no child time at all.
//!
//! Read from the calling-context tree, that is one edge a node: (its
//! parent's function, its function), weighted by everything under the node
//! (`tree::Subtree`), so the graph costs O(nodes), not the sum of every
//! path's depth.

use super::tree::{Subtree, SubtreeOf};
use crate::model::{FuncId, Profile, metrics::add_opt};
use rustc_hash::FxHashMap;

/// One neighbour of a function and the weight of the edge to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub func: FuncId,
    pub hits: Option<u64>,
    pub time_ms: Option<f64>,
    /// Percent of all the function's callers (or callees): by time where
    /// stacks have times, else by hits.
    pub share: Option<f64>,
}

/// Callers and callees of every function.
#[derive(Debug, Default)]
pub struct CallGraph {
    callers: Vec<Vec<Edge>>,
    callees: Vec<Vec<Edge>>,
}

type Weights = FxHashMap<(FuncId, FuncId), (Option<u64>, Option<f64>)>;

impl CallGraph {
    pub fn build(p: &Profile) -> CallGraph {
        let sub = Subtree::build(p);
        let mut edges: Weights = FxHashMap::default();
        for (i, node) in p.nodes().iter().enumerate() {
            if let Some(parent) = node.parent() {
                let pair = (p.node(parent).func, node.func);
                add(edges.entry(pair).or_default(), &sub, i);
            }
        }
        let n = p.functions().len();
        let mut g = CallGraph {
            callers: vec![Vec::new(); n],
            callees: vec![Vec::new(); n],
        };
        for (&(caller, callee), &(hits, time_ms)) in &edges {
            g.callees[caller.index()].push(edge(callee, hits, time_ms));
            g.callers[callee.index()].push(edge(caller, hits, time_ms));
        }
        for list in g.callers.iter_mut().chain(g.callees.iter_mut()) {
            finish_list(p, list);
        }
        g
    }

    /// `f`'s callers and callees alone, equal to `build`'s lists: one pass
    /// over the stacks with no table of every edge, for a frame that must
    /// not wait for the whole graph. Each edge adds its stacks in the same
    /// order as in `build`, so the sums are the same to the bit.
    pub fn neighbours(p: &Profile, f: FuncId) -> (Vec<Edge>, Vec<Edge>) {
        // Only the nodes at and below f's are read after this pass: their
        // sums are made alone (`SubtreeOf`), the same to the bit.
        let below = super::tree::through(p, f);
        let sub = SubtreeOf::build(p, &below);
        let (mut callers, mut callees) = (FxHashMap::default(), FxHashMap::default());
        for (i, node) in p.nodes().iter().enumerate() {
            let Some(parent) = node.parent().filter(|_| below[i]) else {
                continue;
            };
            let (caller, callee) = (p.node(parent).func, node.func);
            // A call of f from f is both.
            if callee == f {
                add_pair(callers.entry(caller).or_default(), sub.get(i));
            }
            if caller == f {
                add_pair(callees.entry(callee).or_default(), sub.get(i));
            }
        }
        let list = |side: FxHashMap<FuncId, (Option<u64>, Option<f64>)>| {
            let mut list: Vec<Edge> = side.into_iter().map(|(g, (h, t))| edge(g, h, t)).collect();
            finish_list(p, &mut list);
            list
        };
        (list(callers), list(callees))
    }

    /// Who calls `f`, heaviest first.
    pub fn callers(&self, f: FuncId) -> &[Edge] {
        &self.callers[f.index()]
    }

    /// Whom `f` calls, heaviest first.
    pub fn callees(&self, f: FuncId) -> &[Edge] {
        &self.callees[f.index()]
    }
}

/// Adds the weight under node `i` to an edge's.
fn add(w: &mut (Option<u64>, Option<f64>), sub: &Subtree, i: usize) {
    add_pair(w, (sub.hits[i], sub.time_ms[i]));
}

fn add_pair(w: &mut (Option<u64>, Option<f64>), (hits, time_ms): (Option<u64>, Option<f64>)) {
    w.0 = crate::model::metrics::add_count(w.0, hits);
    w.1 = add_opt(w.1, time_ms);
}

fn edge(func: FuncId, hits: Option<u64>, time_ms: Option<f64>) -> Edge {
    Edge {
        func,
        hits,
        time_ms,
        share: None,
    }
}

/// Fills shares and orders a neighbour list heaviest first, ties by name,
/// then module and id: a total order, so a list comes out the same
/// whatever order its edges were found in.
fn finish_list(p: &Profile, list: &mut [Edge]) {
    let by_time = list.iter().any(|e| e.time_ms.is_some_and(|t| t > 0.0));
    let weight = |e: &Edge| {
        if by_time {
            e.time_ms.unwrap_or(0.0)
        } else {
            e.hits.unwrap_or(0) as f64
        }
    };
    list.sort_by(|a, b| {
        weight(b)
            .total_cmp(&weight(a))
            .then_with(|| p.function_name(a.func).cmp(p.function_name(b.func)))
            .then_with(|| p.function_module(a.func).cmp(p.function_module(b.func)))
            .then(a.func.cmp(&b.func))
    });
    // Summed in that order, the total and so the shares are the same too.
    let total: f64 = list.iter().map(weight).sum();
    for e in list.iter_mut() {
        e.share = (total > 0.0).then(|| 100.0 * weight(e) / total);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ProfileBuilder;

    #[test]
    fn neighbours_come_from_adjacent_frames_with_shares() {
        let mut b = ProfileBuilder::new("test");
        let m = b.intern("");
        let ids: Vec<FuncId> = ["main", "a", "b", "c"]
            .iter()
            .map(|n| {
                let n = b.intern(n);
                b.function(n, m)
            })
            .collect();
        let (main, a, bb, c) = (ids[0], ids[1], ids[2], ids[3]);
        let s1 = b.stack(&[main, a, c]);
        b.stack_summary(s1, Some(3), Some(30.0), None);
        let s2 = b.stack(&[main, bb, c]);
        b.stack_summary(s2, Some(1), Some(10.0), None);
        let p = b.finish();
        let g = CallGraph::build(&p);
        let callers: Vec<_> = g.callers(c).iter().map(|e| (e.func, e.share)).collect();
        assert_eq!(callers, [(a, Some(75.0)), (bb, Some(25.0))]);
        let callees: Vec<_> = g.callees(main).iter().map(|e| (e.func, e.hits)).collect();
        assert_eq!(callees, [(a, Some(3)), (bb, Some(1))]);
        assert!(g.callers(main).is_empty());
    }

    /// One function's lists equal the whole graph's, for every function of
    /// a generated profile (300 functions in 300 random stacks).
    #[test]
    fn one_functions_neighbours_equal_the_graphs() {
        let p = crate::fixture_gen::large::profile(300);
        let g = CallGraph::build(&p);
        for f in p.function_ids() {
            let (callers, callees) = CallGraph::neighbours(&p, f);
            assert_eq!(callers, g.callers(f), "callers of {f:?}");
            assert_eq!(callees, g.callees(f), "callees of {f:?}");
        }
        assert!(p.function_ids().any(|f| !g.callers(f).is_empty()));
    }

    /// Callers of equal weight and name are ordered by module, in the graph
    /// and alone: the order no longer hangs on a table's.
    #[test]
    fn equal_callers_order_by_module() {
        let mut b = ProfileBuilder::new("test");
        let (f, m2, m1, c) = (b.intern("f"), b.intern("m2"), b.intern("m1"), b.intern("c"));
        let callers = [b.function(f, m2), b.function(f, m1)];
        let callee = b.function(c, m1);
        for &caller in &callers {
            let s = b.stack(&[caller, callee]);
            b.stack_summary(s, Some(2), Some(5.0), None);
        }
        let p = b.finish();
        let g = CallGraph::build(&p);
        let order: Vec<FuncId> = g.callers(callee).iter().map(|e| e.func).collect();
        assert_eq!(order, [callers[1], callers[0]]);
        assert_eq!(CallGraph::neighbours(&p, callee).0, g.callers(callee));
    }
}
