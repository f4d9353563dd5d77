//! The graph's edges, a column each (issue 69).
//!
//! A [`GraphEdge`] spends a discriminant and its padding on each of its
//! three `Option`s, measured or not, and the graph kept one an edge. Here
//! an edge costs its two ids, each value it has its own bytes and a bit
//! saying it is there, and a kind of value no edge has costs nothing (a
//! listing that states calls and times keeps no samples). An edge is put
//! together when read, as `profx_model::FunctionTable` puts a function's
//! row together, so readers see what they saw.

use super::{EdgeValues, GraphEdge};
use profx_model::FuncId;
use profx_model::column::Col;

/// Edges by column: `caller[i]` calls `callee[i]`, with values `i` of
/// the value columns.
#[derive(Clone, Debug, Default)]
pub(super) struct EdgeCols {
    caller: Vec<FuncId>,
    callee: Vec<FuncId>,
    calls: Col<u64>,
    hits: Col<u64>,
    elapsed_inclusive_ms: Col<f64>,
}

impl EdgeCols {
    /// How many edges there are.
    pub(super) fn len(&self) -> usize {
        self.caller.len()
    }

    /// Every edge's caller, by edge.
    pub(super) fn callers(&self) -> &[FuncId] {
        &self.caller
    }

    /// Every edge's callee, by edge.
    pub(super) fn callees(&self) -> &[FuncId] {
        &self.callee
    }

    /// Edge `i`'s values. Panics past the end, as indexing a slice does.
    #[inline]
    pub(super) fn values(&self, i: usize) -> EdgeValues {
        EdgeValues {
            calls: self.calls.get(i),
            hits: self.hits.get(i),
            elapsed_inclusive_ms: self.elapsed_inclusive_ms.get(i),
        }
    }

    /// Edge `i`, put together. Panics past the end.
    pub(super) fn get(&self, i: usize) -> GraphEdge {
        GraphEdge {
            caller: self.caller[i],
            callee: self.callee[i],
            values: self.values(i),
        }
    }

    /// A new edge with every value absent; its index.
    pub(super) fn push(&mut self, caller: FuncId, callee: FuncId) -> usize {
        self.caller.push(caller);
        self.callee.push(callee);
        let len = self.len();
        self.calls.push(len);
        self.hits.push(len);
        self.elapsed_inclusive_ms.push(len);
        len - 1
    }

    /// Adds `v` to edge `i`'s values, each kind as the row's `add_count`
    /// or `add_opt` would.
    pub(super) fn add(&mut self, i: usize, v: EdgeValues) {
        let len = self.len();
        self.calls.add(i, len, v.calls);
        self.hits.add(i, len, v.hits);
        self.elapsed_inclusive_ms
            .add(i, len, v.elapsed_inclusive_ms);
    }

    /// The edges `order` names (indices into these), in its order. Each
    /// column is dropped once its copy is made, so at most one column is
    /// held twice.
    pub(super) fn reordered(self, order: &[u32]) -> EdgeCols {
        let ids = |v: Vec<FuncId>| order.iter().map(|&k| v[k as usize]).collect();
        EdgeCols {
            caller: ids(self.caller),
            callee: ids(self.callee),
            calls: self.calls.reordered(order),
            hits: self.hits.reordered(order),
            elapsed_inclusive_ms: self.elapsed_inclusive_ms.reordered(order),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use profx_model::metrics::{add_count, add_opt};

    fn values(seed: u64) -> EdgeValues {
        let pick = |k: u64| (seed >> k) & 1 == 1;
        EdgeValues {
            calls: pick(0).then_some(seed),
            hits: pick(1).then_some(seed / 3),
            elapsed_inclusive_ms: pick(2).then(|| seed as f64 / 7.0),
        }
    }

    /// The columns give back every edge as the row held it, whichever
    /// values it has, before and after a reordering; sums are the row's.
    #[test]
    fn the_columns_hold_the_edges() {
        let mut cols = EdgeCols::default();
        let mut rows = Vec::new();
        for i in 0..300u64 {
            let (a, b) = (FuncId::from_raw(i as u32 % 17), FuncId::from_raw(i as u32));
            let k = cols.push(a, b);
            let (v, w) = (values(i * 0x9E37_79B9 % 1000), values(i * 31 % 1000));
            cols.add(k, v);
            cols.add(k, w);
            let sum = EdgeValues {
                calls: add_count(v.calls, w.calls),
                hits: add_count(v.hits, w.hits),
                elapsed_inclusive_ms: match w.elapsed_inclusive_ms {
                    None => v.elapsed_inclusive_ms,
                    t => add_opt(v.elapsed_inclusive_ms, t),
                },
            };
            rows.push(GraphEdge {
                caller: a,
                callee: b,
                values: sum,
            });
        }
        assert!(
            (0..cols.len())
                .map(|i| cols.get(i))
                .eq(rows.iter().cloned())
        );
        let order: Vec<u32> = (0..300).rev().filter(|i| i % 3 != 1).collect();
        let cols = cols.reordered(&order);
        let want = order.iter().map(|&k| rows[k as usize].clone());
        assert!((0..cols.len()).map(|i| cols.get(i)).eq(want));
    }

    /// A kind no edge has stays unallocated.
    #[test]
    fn a_kind_no_edge_has_costs_nothing() {
        let mut cols = EdgeCols::default();
        for i in 0..100 {
            let k = cols.push(FuncId::from_raw(i), FuncId::from_raw(i + 1));
            cols.add(
                k,
                EdgeValues {
                    calls: (i > 50).then_some(1),
                    ..EdgeValues::default()
                },
            );
        }
        assert_eq!(cols.values(3).calls, None);
        assert_eq!(cols.values(99).calls, Some(1));
        assert!(cols.hits.is_unfilled());
        assert!(cols.elapsed_inclusive_ms.is_unfilled());
        assert!(!cols.calls.is_unfilled());
    }
}
