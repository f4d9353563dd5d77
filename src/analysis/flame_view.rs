//! The Flame pane's geometry: an icicle of the calling-context tree (root
//! on top), each node as wide as its total weight, laid out in whole cells
//! for a given width.
//!
//! A node's cells are `[round(start · W / T), round(end · W / T))` of the
//! weight it starts and ends at, so siblings share their boundaries and the
//! widths of a row add up to its parent's, whatever the rounding. A node
//! thinner than a cell is not drawn alone: a run of such siblings
//! is drawn as one `…` block where together they fill a cell (their span
//! rounded as any node's), so what is too thin to see alone still shows
//! and the widths still add up. Children are laid out by name, as inferno's
//! `flamegraph` lays out folded stacks, so the widths can be compared with
//! it directly.
//!
//! Only nodes at least a cell wide are visited: a frame costs the cells it
//! fills, not the size of the tree.

use super::calltree::{TreeIndex, Unit};
use crate::model::{FuncId, NodeId, Profile};

/// One block of a row: a node, or `None` for a `…` of nodes too thin to
/// draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub node: Option<NodeId>,
    pub x: u16,
    pub width: u16,
    /// The trace's time outside any call (`flame::OUTSIDE`), beside the
    /// roots.
    pub outside: bool,
}

/// The rows of an icicle, from the zoomed node (or the roots) down.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    pub rows: Vec<Vec<Block>>,
}

/// A node's weight: its total in the tree's unit.
pub fn weight(ix: &TreeIndex, n: NodeId) -> f64 {
    match ix.unit {
        Unit::Ms => ix.sub.time_ms[n.index()].unwrap_or(0.0),
        Unit::Count => ix.sub.hits[n.index()].unwrap_or(0) as f64,
    }
}

/// The weight the full width stands for: the zoomed node's, or the sum
/// of the roots'.
pub fn span(ix: &TreeIndex, zoom: Option<NodeId>) -> f64 {
    match zoom {
        Some(z) => weight(ix, z),
        None => {
            ix.children
                .of(None)
                .iter()
                .map(|&r| weight(ix, r))
                .sum::<f64>()
                + ix.outside
        }
    }
}

/// Lays out `rows` rows of `width` cells: the zoomed node (or the roots)
/// on the first, each next row their children.
pub fn layout(ix: &TreeIndex, zoom: Option<NodeId>, width: u16, rows: usize) -> Layout {
    let total = span(ix, zoom);
    let mut out = Layout::default();
    if total <= 0.0 || width == 0 {
        return out;
    }
    let cells = |at: f64| {
        ((at / total) * f64::from(width))
            .round()
            .clamp(0.0, f64::from(width)) as u16
    };
    // (node, weight it starts at, its parent's place in the row above).
    let mut level: Vec<(NodeId, f64, usize)> = match zoom {
        Some(z) => vec![(z, 0.0, 0)],
        None => {
            let mut at = 0.0;
            ix.children
                .of(None)
                .iter()
                .map(|&r| {
                    let start = at;
                    at += weight(ix, r);
                    (r, start, 0)
                })
                .collect()
        }
    };
    while !level.is_empty() && out.rows.len() < rows {
        let mut row: Vec<Block> = Vec::new();
        let mut next = Vec::new();
        // A run of siblings each thinner than a cell: (start, end, parent).
        let mut thin: Option<(f64, f64, usize)> = None;
        let flush = |thin: &mut Option<(f64, f64, usize)>, row: &mut Vec<Block>| {
            if let Some((a, b, _)) = thin.take() {
                let (x0, x1) = (cells(a), cells(b));
                if x1 > x0 {
                    row.push(Block {
                        node: None,
                        x: x0,
                        width: x1 - x0,
                        outside: false,
                    });
                }
            }
        };
        for &(n, start, parent) in &level {
            let end = start + weight(ix, n);
            let (x0, x1) = (cells(start), cells(end));
            // Thinner than a cell: whatever cell rounding gives it holds
            // others too, so it is drawn with them, as `…`.
            let exact = (end - start) / total * f64::from(width);
            if exact >= 1.0 && x1 > x0 {
                flush(&mut thin, &mut row);
                let here = row.len();
                row.push(Block {
                    node: Some(n),
                    x: x0,
                    width: x1 - x0,
                    outside: false,
                });
                let mut at = start;
                for &c in ix.children.of(Some(n)) {
                    next.push((c, at, here));
                    at += weight(ix, c);
                }
            } else if end > start {
                // Too thin alone: joins the run of thin siblings, which
                // is drawn as `…` where together they fill a cell.
                thin = match thin {
                    Some((a, _, q)) if q == parent => Some((a, end, q)),
                    other => {
                        let mut t = other;
                        flush(&mut t, &mut row);
                        Some((start, end, parent))
                    }
                };
            }
        }
        flush(&mut thin, &mut row);
        if out.rows.is_empty() && zoom.is_none() && ix.outside > 0.0 {
            let (x0, x1) = (cells(total - ix.outside), cells(total));
            if x1 > x0 {
                row.push(Block {
                    node: None,
                    x: x0,
                    width: x1 - x0,
                    outside: true,
                });
            }
        }
        if row.is_empty() {
            break;
        }
        out.rows.push(row);
        level = next;
    }
    out
}

/// The node drawn at a row and cell, if any.
pub fn node_at(l: &Layout, row: usize, x: u16) -> Option<NodeId> {
    l.rows
        .get(row)?
        .iter()
        .find(|b| b.x <= x && x < b.x + b.width)
        .and_then(|b| b.node)
}

/// Where a node is drawn (its row and block), if it is.
pub fn find(l: &Layout, n: NodeId) -> Option<(usize, Block)> {
    l.rows
        .iter()
        .enumerate()
        .find_map(|(i, row)| row.iter().find(|b| b.node == Some(n)).map(|&b| (i, b)))
}

/// The share of the whole tree held by the nodes of functions `hit` takes,
/// each node under another such node counted once (in one pass: parents
/// come before their children).
pub fn share_of(p: &Profile, ix: &TreeIndex, hit: &dyn Fn(FuncId) -> bool) -> f64 {
    let total = span(ix, None);
    if total <= 0.0 {
        return 0.0;
    }
    let mut under = vec![false; p.nodes().len()];
    let mut sum = 0.0;
    for (i, node) in p.nodes().iter().enumerate() {
        let covered = node.parent().is_some_and(|q| under[q.index()]);
        let here = hit(node.func);
        if here && !covered {
            sum += weight(ix, NodeId::from_index(i));
        }
        under[i] = covered || here;
    }
    100.0 * sum / total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::metrics::TraceTime;
    use crate::model::{Place, ProfileBuilder};
    use proptest::prelude::*;

    /// A trace from ops: `Some(f)` enters f, `None` leaves; `gaps` ms each.
    fn trace(ops: &[(Option<u8>, u8)]) -> Profile {
        let mut b = ProfileBuilder::new("test");
        let m = b.intern("");
        let funcs: Vec<FuncId> = (0..60)
            .map(|i| {
                let n = b.intern(&format!("f{i}"));
                b.function(n, m)
            })
            .collect();
        b.trace_begin(TraceTime::Timed);
        let t = b.trace_thread(1);
        let (mut clock, mut depth) = (0.0, 0);
        for (op, gap) in ops {
            clock += f64::from(*gap) + 0.25;
            b.trace_time(t, clock, || Place::Line(1));
            match op {
                Some(f) => {
                    b.trace_enter(t, funcs[*f as usize % 60], 0, None);
                    depth += 1;
                }
                None if depth > 0 => {
                    b.trace_exit(t);
                    depth -= 1;
                }
                None => {}
            }
        }
        clock += 1.0;
        b.trace_time(t, clock, || Place::Line(1));
        b.trace_close_open();
        b.finish()
    }

    proptest! {
        /// Every drawn block's children (drawn or `…`) lie within it, and
        /// a row's drawn widths never exceed its parent row's: widths add up.
        #[test]
        fn widths_add_up(
            ops in proptest::collection::vec((proptest::option::weighted(0.6, 0u8..6), 0u8..20), 0..150),
            width in 1u16..300,
        ) {
            let p = trace(&ops);
            let ix = TreeIndex::build(&p);
            let l = layout(&ix, None, width, 1000);
            for (r, row) in l.rows.iter().enumerate() {
                let mut end = 0;
                for b in row {
                    prop_assert!(b.x >= end, "blocks overlap in row {r}");
                    prop_assert!(b.x + b.width <= width);
                    end = b.x + b.width;
                    if r > 0 {
                        // Inside some block of the row above.
                        let above = &l.rows[r - 1];
                        prop_assert!(above.iter().any(|a| a.x <= b.x && b.x + b.width <= a.x + a.width));
                    }
                }
                if let Some(next) = l.rows.get(r + 1) {
                    for b in row.iter().filter(|b| b.node.is_some()) {
                        let n = b.node.unwrap();
                        // The children drawn under a block fill exactly its
                        // width when they hold all its weight.
                        let kids: u16 = next.iter()
                            .filter(|c| c.x >= b.x && c.x + c.width <= b.x + b.width)
                            .map(|c| c.width).sum();
                        prop_assert!(kids <= b.width);
                        let own = p.node(n).stack().and_then(|s| p.stack(s).self_ms).unwrap_or(0.0);
                        if own == 0.0 && ix.children.of(Some(n)).len() == 1 {
                            prop_assert_eq!(kids, b.width, "one child with all the weight");
                        }
                    }
                }
            }
            // The first row spans the whole width.
            if let Some(first) = l.rows.first() {
                let w: u16 = first.iter().map(|b| b.width).sum();
                prop_assert!(w == width || first.iter().any(|b| b.node.is_none()));
            }
        }
    }

    /// Zooming on a node makes it the full width; thin nodes become `…`.
    #[test]
    fn zoom_and_thin_nodes() {
        let mut ops = vec![(Some(0), 0)];
        ops.extend([(Some(1), 0), (None, 200)]);
        ops.extend([(Some(2), 0), (None, 0)]);
        ops.push((None, 0));
        let p = trace(&ops);
        let ix = TreeIndex::build(&p);
        let l = layout(&ix, None, 80, 10);
        assert_eq!(l.rows[0].len(), 1);
        assert_eq!(l.rows[0][0].width, 80);
        // f2 alone (0.25 of 201 ms) is thinner than a cell: not drawn.
        assert_eq!(l.rows[1].len(), 1, "{:?}", l.rows[1]);
        let thin = ix.children.of(Some(l.rows[0][0].node.unwrap()))[1];
        let z = layout(&ix, Some(thin), 80, 10);
        assert_eq!(
            z.rows[0],
            vec![Block {
                node: Some(thin),
                x: 0,
                width: 80,
                outside: false,
            }]
        );
        assert_eq!(node_at(&z, 0, 40), Some(thin));
        assert_eq!(find(&z, thin).map(|f| f.0), Some(0));
        // Many thin siblings together: a `…` block.
        let mut ops = vec![(Some(0), 0), (Some(1), 0), (None, 200)];
        for f in 2..60 {
            ops.extend([(Some(f), 0), (None, 0)]);
        }
        ops.push((None, 0));
        let p = trace(&ops);
        let ix = TreeIndex::build(&p);
        let l = layout(&ix, None, 80, 10);
        assert!(
            l.rows[1].iter().any(|b| b.node.is_none()),
            "{:?}",
            l.rows[1]
        );
    }
}
