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
//! it directly; or heaviest first (speedscope's "left heavy"), so the
//! biggest callee of each frame is always at its left and the thin ones
//! gather at its right into one `…`. Zoomed on a node, its ancestors stay
//! drawn above it, each the full width, as speedscope and Firefox keep
//! them: where it sits stays in sight.
//!
//! Only nodes at least a cell wide are visited: a frame costs the cells it
//! fills, not the size of the tree.

use super::calltree::TreeIndex;
use super::cct::{Label, add_up, label_rank};
use profx_model::{FuncId, NodeId, Profile};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// A tree as the Flame pane draws it: the calling-context tree itself, the
/// tree with some functions hidden (their weight given to their callers,
/// as pprof's `-hide` does), or one side of a function's sandwich (what it
/// called, merged over every place it occurs; who called it, inverted).
/// Nodes come parents first; each node's children are ordered by name.
///
/// The whole tree is read in place (`Icicle::tree`): its nodes, totals and
/// both orders are the Call tree's index itself, so the Flame pane costs no
/// copy of a tree of millions of nodes (issue 69), and its widths are the
/// tree's totals to the bit. Only a tree that differs from it (a sandwich
/// side, hidden frames) is grown node by node.
#[derive(Clone, Debug, Default)]
pub struct Icicle {
    shape: Shape,
    /// Weight drawn beside the roots as `(outside)` (a trace's time with
    /// no call open), in the whole tree only.
    pub outside: f64,
}

#[derive(Clone, Debug)]
enum Shape {
    /// A tree of its own, merged node by node.
    Grown(Grown),
    /// The calling-context tree, read through the index every view shares.
    Tree { p: Arc<Profile>, ix: Arc<TreeIndex> },
}

impl Default for Shape {
    fn default() -> Shape {
        Shape::Grown(Grown::default())
    }
}

#[derive(Clone, Debug, Default)]
struct Grown {
    parent: Vec<u32>,
    func: Vec<Label>,
    weight: Vec<f64>,
    depth: Vec<u32>,
    kids_start: Vec<u32>,
    kids: Vec<u32>,
    roots: Vec<u32>,
    /// `kids` and `roots` heaviest first (ties by name), made once the
    /// weights are summed.
    heavy_kids: Vec<u32>,
    heavy_roots: Vec<u32>,
}

const NO: u32 = u32::MAX;

/// How the children of a frame are laid out from left to right.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// By name, as inferno's `flamegraph` draws folded stacks.
    #[default]
    ByName,
    /// Heaviest first, ties by name (speedscope's "left heavy").
    Heaviest,
}

/// A node's children, or the roots: a grown icicle's list, or the tree's
/// own, read in place.
#[derive(Clone, Copy, Debug)]
pub enum Ids<'a> {
    /// A grown icicle's node ids.
    Grown(&'a [u32]),
    /// The calling-context tree's nodes.
    Tree(&'a [NodeId]),
}

impl<'a> Ids<'a> {
    /// How many.
    pub fn len(self) -> usize {
        match self {
            Ids::Grown(s) => s.len(),
            Ids::Tree(s) => s.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The `i`th, in order.
    pub fn get(self, i: usize) -> Option<u32> {
        match self {
            Ids::Grown(s) => s.get(i).copied(),
            Ids::Tree(s) => s.get(i).map(|n| n.raw()),
        }
    }

    /// The first, in order.
    pub fn first(self) -> Option<u32> {
        self.get(0)
    }

    /// Each id, in order.
    pub fn iter(self) -> IdIter<'a> {
        match self {
            Ids::Grown(s) => IdIter::Grown(s.iter()),
            Ids::Tree(s) => IdIter::Tree(s.iter()),
        }
    }

    /// The ids as a list of their own.
    pub fn to_vec(self) -> Vec<u32> {
        self.iter().collect()
    }
}

impl<'a> IntoIterator for Ids<'a> {
    type Item = u32;
    type IntoIter = IdIter<'a>;
    fn into_iter(self) -> IdIter<'a> {
        self.iter()
    }
}

/// The ids of an `Ids`, in order.
#[derive(Clone, Debug)]
pub enum IdIter<'a> {
    /// A grown icicle's.
    Grown(std::slice::Iter<'a, u32>),
    /// The tree's.
    Tree(std::slice::Iter<'a, NodeId>),
}

impl Iterator for IdIter<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        match self {
            IdIter::Grown(i) => i.next().copied(),
            IdIter::Tree(i) => i.next().map(|n| n.raw()),
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            IdIter::Grown(i) => i.size_hint(),
            IdIter::Tree(i) => i.size_hint(),
        }
    }
}

impl DoubleEndedIterator for IdIter<'_> {
    fn next_back(&mut self) -> Option<u32> {
        match self {
            IdIter::Grown(i) => i.next_back().copied(),
            IdIter::Tree(i) => i.next_back().map(|n| n.raw()),
        }
    }
}

impl ExactSizeIterator for IdIter<'_> {}

/// Grows an icicle a node at a time, merging a node into its sibling of
/// the same function.
struct Grower {
    t: Grown,
    index: FxHashMap<(u32, Label), u32>,
}

impl Grower {
    fn new() -> Grower {
        Grower {
            t: Grown::default(),
            index: FxHashMap::default(),
        }
    }

    /// The node `func` under `parent` (`NO`: a root), made when new.
    fn child(&mut self, parent: u32, func: Label) -> u32 {
        let next = self.t.func.len() as u32;
        let id = *self.index.entry((parent, func)).or_insert(next);
        if id == next {
            let depth = match parent {
                NO => 1,
                q => self.t.depth[q as usize] + 1,
            };
            self.t.parent.push(parent);
            self.t.func.push(func);
            self.t.weight.push(0.0);
            self.t.depth.push(depth);
        }
        id
    }

    /// Orders every node's children by name and freezes the tree.
    fn finish(mut self, p: &Profile) -> Grown {
        let t = &mut self.t;
        let n = t.func.len();
        let slot = |i: usize, parent: &[u32]| match parent[i] {
            NO => n,
            q => q as usize,
        };
        let mut start = vec![0u32; n + 2];
        for i in 0..n {
            start[slot(i, &t.parent) + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut fill = start.clone();
        let mut kids = vec![0u32; n];
        for i in 0..n {
            let at = &mut fill[slot(i, &t.parent)];
            kids[*at as usize] = i as u32;
            *at += 1;
        }
        for w in 0..=n {
            let seg = &mut kids[start[w] as usize..start[w + 1] as usize];
            seg.sort_unstable_by_key(|&k| (label_rank(p, t.func[k as usize]), k));
        }
        t.roots = kids[start[n] as usize..start[n + 1] as usize].to_vec();
        t.kids_start = start;
        t.kids = kids;
        self.t
    }
}

impl Icicle {
    /// The calling-context tree itself, read in place: what
    /// `whole(p, ix, &|_| false)` grows, node for node, without a copy.
    pub fn tree(p: &Arc<Profile>, ix: &Arc<TreeIndex>) -> Icicle {
        Icicle {
            outside: ix.outside(),
            shape: Shape::Tree {
                p: Arc::clone(p),
                ix: Arc::clone(ix),
            },
        }
    }

    /// The whole tree, `hidden` functions' frames left out: their weight
    /// goes to their caller, and their callees take their place under it
    /// (merged with the caller's own callees of the same function).
    pub fn whole(p: &Profile, ix: &TreeIndex, hidden: &dyn Fn(FuncId) -> bool) -> Icicle {
        let mut t = Icicle::grown(p, ix, &mut |g, parent, label| match label
            .func()
            .is_some_and(hidden)
        {
            true => parent,
            false => g.child(parent, label),
        });
        t.outside = ix.outside();
        t
    }

    /// What `f` called, merged over every place it occurs (an occurrence
    /// inside another is counted with it, once): `f` the only root.
    pub fn callees(p: &Profile, ix: &TreeIndex, f: FuncId) -> Icicle {
        Icicle::grown(
            p,
            ix,
            &mut |g, parent, label| match (parent, label == Label::Func(f)) {
                (NO, true) => g.child(NO, label),
                (NO, false) => NO,
                (q, _) => g.child(q, label),
            },
        )
    }

    /// The tree's nodes, parents first, each placed by `place` (given the
    /// place of its parent, `NO` for none) and adding its own weight there.
    fn grown(
        p: &Profile,
        ix: &TreeIndex,
        place: &mut dyn FnMut(&mut Grower, u32, Label) -> u32,
    ) -> Icicle {
        let mut g = Grower::new();
        let cct = &ix.cct;
        let mut at = vec![NO; cct.len()];
        for i in 0..cct.len() {
            let id = i as u32;
            let parent = cct.parent_of(p, id).map_or(NO, |q| at[q as usize]);
            let me = place(&mut g, parent, cct.label(p, id));
            at[i] = me;
            if me != NO {
                g.t.weight[me as usize] += cct.own(p, id).unwrap_or(0.0);
            }
        }
        drop(at);
        let mut t = g.finish(p);
        t.add_up();
        t.order_heavy();
        Icicle {
            shape: Shape::Grown(t),
            outside: 0.0,
        }
    }

    /// Who called `f`, inverted: `f` the root, its callers below it (drawn
    /// above it in the sandwich), each with the weight of `f` that came
    /// through it. Each outermost place of `f` adds its whole weight along
    /// its path; the walk stops after `budget` steps (a path a million
    /// deep, a million times, would not end).
    pub fn callers(p: &Profile, ix: &TreeIndex, f: FuncId, budget: usize) -> (Icicle, bool) {
        let mut g = Grower::new();
        let cct = &ix.cct;
        let mut inside = vec![false; cct.len()];
        let mut steps = 0usize;
        let mut cut = false;
        let root = g.child(NO, Label::Func(f));
        for i in 0..cct.len() {
            let id = i as u32;
            let up0 = cct.parent_of(p, id);
            let above = up0.is_some_and(|q| inside[q as usize]);
            let is_f = cct.label(p, id) == Label::Func(f);
            inside[i] = above || is_f;
            if !is_f || above {
                continue;
            }
            let w = cct.total(id);
            g.t.weight[root as usize] += w;
            let (mut at, mut up) = (root, up0);
            while let Some(q) = up {
                steps += 1;
                if steps > budget {
                    cut = true;
                    break;
                }
                at = g.child(at, cct.label(p, q));
                g.t.weight[at as usize] += w;
                up = cct.parent_of(p, q);
            }
        }
        let mut t = g.finish(p);
        t.order_heavy();
        let t = Icicle {
            shape: Shape::Grown(t),
            outside: 0.0,
        };
        (t, cut)
    }
}

impl Grown {
    /// Orders every node's children (and the roots) heaviest first, ties
    /// kept in their order by name.
    fn order_heavy(&mut self) {
        let w = &self.weight;
        let by_weight = |a: &u32, b: &u32| w[*b as usize].total_cmp(&w[*a as usize]);
        let mut kids = self.kids.clone();
        for pair in self.kids_start.windows(2) {
            kids[pair[0] as usize..pair[1] as usize].sort_by(by_weight);
        }
        let mut roots = self.roots.clone();
        roots.sort_by(by_weight);
        self.heavy_kids = kids;
        self.heavy_roots = roots;
    }

    /// Turns own weights into totals as the calling-context tree does
    /// (`cct::add_up`), so the whole tree grown and read in place weigh
    /// the same to the bit.
    fn add_up(&mut self) {
        let (start, kids) = (&self.kids_start, &self.kids);
        add_up(&mut self.weight, |i| {
            kids[start[i] as usize..start[i + 1] as usize]
                .iter()
                .map(|&k| k as usize)
        });
    }

    fn kids_in(&self, i: usize, order: Order) -> &[u32] {
        let all = match order {
            Order::ByName => &self.kids,
            Order::Heaviest => &self.heavy_kids,
        };
        match (self.kids_start.get(i), self.kids_start.get(i + 1)) {
            (Some(&a), Some(&b)) if i < self.func.len() => {
                all.get(a as usize..b as usize).unwrap_or(&[])
            }
            _ => &[],
        }
    }
}

impl Icicle {
    /// How many nodes the icicle has.
    pub fn len(&self) -> usize {
        match &self.shape {
            Shape::Grown(t) => t.func.len(),
            Shape::Tree { ix, .. } => ix.cct.len(),
        }
    }

    /// Whether it has no node.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The root nodes, by name.
    pub fn roots(&self) -> Ids<'_> {
        self.roots_in(Order::ByName)
    }

    /// A node's children, by name.
    pub fn kids(&self, id: u32) -> Ids<'_> {
        self.kids_in(id, Order::ByName)
    }

    /// A node's children in `order`; none for an id past the end.
    pub fn kids_in(&self, id: u32, order: Order) -> Ids<'_> {
        match &self.shape {
            Shape::Grown(t) => Ids::Grown(t.kids_in(id as usize, order)),
            Shape::Tree { ix, .. } if (id as usize) < ix.cct.len() => {
                let n = Some(NodeId::from_raw(id));
                Ids::Tree(match order {
                    Order::ByName => ix.children().of(n),
                    Order::Heaviest => ix.by_total().of(n),
                })
            }
            Shape::Tree { .. } => Ids::Tree(&[]),
        }
    }

    /// The root nodes in `order`.
    pub fn roots_in(&self, order: Order) -> Ids<'_> {
        match (&self.shape, order) {
            (Shape::Grown(t), Order::ByName) => Ids::Grown(&t.roots),
            (Shape::Grown(t), Order::Heaviest) => Ids::Grown(&t.heavy_roots),
            (Shape::Tree { ix, .. }, Order::ByName) => Ids::Tree(ix.children().of(None)),
            (Shape::Tree { ix, .. }, Order::Heaviest) => Ids::Tree(ix.by_total().of(None)),
        }
    }

    /// A node's weight, what its width stands for, in the tree's unit; 0 for an
    /// id past the end.
    pub fn weight(&self, id: u32) -> f64 {
        match &self.shape {
            Shape::Grown(t) => t.weight.get(id as usize).copied().unwrap_or(0.0),
            Shape::Tree { ix, .. } if (id as usize) < ix.cct.len() => ix.cct.total(id),
            Shape::Tree { .. } => 0.0,
        }
    }

    /// What a node is: a function, or one of the views' own nodes.
    pub fn func(&self, id: u32) -> Label {
        match &self.shape {
            Shape::Grown(t) => t.func[id as usize],
            Shape::Tree { p, ix } => ix.cct.label(p, id),
        }
    }

    /// The node above `id`; `None` for a root, or an id past the end.
    pub fn parent(&self, id: u32) -> Option<u32> {
        match &self.shape {
            Shape::Grown(t) => t.parent.get(id as usize).copied().filter(|&q| q != NO),
            Shape::Tree { p, ix } if (id as usize) < ix.cct.len() => ix.cct.parent_of(p, id),
            Shape::Tree { .. } => None,
        }
    }

    /// How deep the node is: 1 for a root.
    pub fn depth(&self, id: u32) -> usize {
        match &self.shape {
            Shape::Grown(t) => t.depth.get(id as usize).copied().unwrap_or(1) as usize,
            Shape::Tree { p, ix } => ix.cct.depth(p, id),
        }
    }

    /// Node `id`'s path of names, root first: how a frame is found again
    /// in another profile of the same run (a followed trace's next update).
    pub fn path_of(&self, p: &Profile, id: u32) -> Vec<String> {
        let mut out = Vec::new();
        let mut at = (id < self.len() as u32).then_some(id);
        while let Some(i) = at {
            out.push(self.func(i).name(p).to_string());
            at = self.parent(i);
        }
        out.reverse();
        out
    }

    /// The node at a path of names (root first), where there is one.
    pub fn find_path(&self, p: &Profile, path: &[String]) -> Option<u32> {
        let mut at: Option<u32> = None;
        for name in path {
            let kids = match at {
                Some(id) => self.kids(id),
                None => self.roots(),
            };
            at = Some(kids.iter().find(|&k| self.func(k).name(p) == name)?);
        }
        at
    }
}

/// One block of a row: a node, or `None` for a `…` of nodes too thin to
/// draw (or the outside time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// The node drawn; `None` for a `…` of thin nodes, or for the outside time.
    pub node: Option<u32>,
    /// The block's first cell, from the left edge.
    pub x: u16,
    /// How many cells it takes.
    pub width: u16,
    /// The trace's time outside any call (`flame::OUTSIDE`), beside the
    /// roots.
    pub outside: bool,
}

/// The rows of an icicle, from the zoomed node (or the roots) down.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The rows, top first, each its blocks from left to right.
    pub rows: Vec<Vec<Block>>,
}

/// The weight the full width stands for: the zoomed node's, or the roots'
/// and the outside time's.
pub fn span(t: &Icicle, zoom: Option<u32>) -> f64 {
    match zoom {
        Some(z) => t.weight(z),
        None => t.roots().iter().map(|r| t.weight(r)).sum::<f64>() + t.outside,
    }
}

/// Lays out `rows` rows of `width` cells, children in `order`: the roots
/// on the first, each next row their children; zoomed, the zoomed node's
/// ancestors first (each the full width: they hold at least its weight),
/// then the zoomed node as the full width and its children below it.
pub fn layout(t: &Icicle, zoom: Option<u32>, order: Order, width: u16, rows: usize) -> Layout {
    let total = span(t, zoom);
    let mut out = Layout::default();
    if total <= 0.0 || width == 0 {
        return out;
    }
    if let Some(z) = zoom {
        let mut above = Vec::new();
        let mut at = t.parent(z);
        while let Some(a) = at {
            above.push(a);
            at = t.parent(a);
        }
        out.rows = above
            .iter()
            .rev()
            .take(rows)
            .map(|&a| {
                vec![Block {
                    node: Some(a),
                    x: 0,
                    width,
                    outside: false,
                }]
            })
            .collect();
    }
    let cells = |at: f64| {
        ((at / total) * f64::from(width))
            .round()
            .clamp(0.0, f64::from(width)) as u16
    };
    // (node, weight it starts at, its parent's place in the row above).
    let mut level: Vec<(u32, f64, usize)> = match zoom {
        Some(z) => vec![(z, 0.0, 0)],
        None => {
            let mut at = 0.0;
            t.roots_in(order)
                .iter()
                .map(|r| {
                    let start = at;
                    at += t.weight(r);
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
            let end = start + t.weight(n);
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
                for c in t.kids_in(n, order) {
                    next.push((c, at, here));
                    at += t.weight(c);
                }
            } else if end > start {
                thin = match thin {
                    Some((a, _, q)) if q == parent => Some((a, end, q)),
                    other => {
                        let mut done = other;
                        flush(&mut done, &mut row);
                        Some((start, end, parent))
                    }
                };
            }
        }
        flush(&mut thin, &mut row);
        if out.rows.is_empty() && zoom.is_none() && t.outside > 0.0 {
            let (x0, x1) = (cells(total - t.outside), cells(total));
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
pub fn node_at(l: &Layout, row: usize, x: u16) -> Option<u32> {
    l.rows
        .get(row)?
        .iter()
        .find(|b| b.x <= x && x < b.x + b.width)
        .and_then(|b| b.node)
}

/// Where a node is drawn (its row and block), if it is.
pub fn find(l: &Layout, n: u32) -> Option<(usize, Block)> {
    l.rows
        .iter()
        .enumerate()
        .find_map(|(i, row)| row.iter().find(|b| b.node == Some(n)).map(|&b| (i, b)))
}

/// The share of the whole held by the nodes of functions `hit` takes, a
/// node under another such node counted once (parents come first); none
/// when the whole weighs nothing (model.md's percent rule).
pub fn share_of(t: &Icicle, hit: &dyn Fn(FuncId) -> bool) -> Option<f64> {
    let total = span(t, None);
    let mut under = vec![false; t.len()];
    let mut sum = 0.0;
    for i in 0..t.len() as u32 {
        let covered = t.parent(i).is_some_and(|q| under[q as usize]);
        let here = t.func(i).func().is_some_and(hit);
        if here && !covered {
            sum += t.weight(i);
        }
        under[i as usize] = covered || here;
    }
    profx_model::metrics::pct(Some(sum), Some(total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn trace(ops: &[(Option<u8>, u8)]) -> Profile {
        profx_model::testing::trace_of(ops, 60)
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
            let t = Icicle::whole(&p, &ix, &|_| false);
            let l = layout(&t, None, Order::ByName, width, 1000);
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
                        let n = profx_model::NodeId::from_raw(b.node.unwrap());
                        // The children drawn under a block fill exactly its
                        // width when they hold all its weight.
                        let kids: u16 = next.iter()
                            .filter(|c| c.x >= b.x && c.x + c.width <= b.x + b.width)
                            .map(|c| c.width).sum();
                        prop_assert!(kids <= b.width);
                        let own = ix.own(&p, n).unwrap_or(0.0);
                        if own == 0.0 && ix.children().of(Some(n)).len() == 1 {
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

    /// Every frame's width is the folded export's weight under its path,
    /// which inferno-flamegraph draws: the same frames, the same widths
    /// (microseconds, as the export rounds them), on the demo log and a
    /// trace with outside time.
    #[test]
    fn frames_weigh_what_the_folded_export_says() {
        use crate::export::{self, Request, Target};
        let demo = profx_load::load_inputs(
            &[profx_load::Input::from_static(
                profx_fixtures::demo::NAME,
                profx_fixtures::demo::BYTES,
            )],
            &Default::default(),
        )
        .expect("the demo loads");
        let trace = trace(&[
            (Some(0), 2),
            (Some(1), 3),
            (None, 1),
            (Some(2), 5),
            (None, 0),
            (None, 4),
            (Some(1), 2),
        ]);
        for p in [demo, trace] {
            let mut out = Vec::new();
            let req = Request {
                target: Target::Folded,
                weight: None,
                query: None,
                range: None,
            };
            export::write(&p, &req, &mut out).expect("writes");
            // Each path prefix's weight, frames by name (the export writes
            // `module!name`).
            let mut under: FxHashMap<String, (u64, usize)> = FxHashMap::default();
            for line in String::from_utf8(out).expect("text").lines() {
                let (path, n) = line.rsplit_once(' ').expect("a weight");
                let n: u64 = n.parse().expect("a number");
                let mut prefix = String::new();
                for frame in path.split(';') {
                    let name = frame.rsplit_once('!').map_or(frame, |f| f.1);
                    prefix.push(';');
                    prefix.push_str(name);
                    let e = under.entry(prefix.clone()).or_default();
                    e.0 += n;
                    e.1 += 1;
                }
            }
            let ix = TreeIndex::build(&p);
            let t = Icicle::whole(&p, &ix, &|_| false);
            let mut paths = vec![String::new(); t.len()];
            for id in 0..t.len() as u32 {
                let above = t
                    .parent(id)
                    .map_or(String::new(), |q| paths[q as usize].clone());
                paths[id as usize] = format!("{above};{}", t.func(id).name(&p));
                let (folded, lines) = under.get(&paths[id as usize]).copied().unwrap_or_default();
                let drawn = t.weight(id) * 1000.0;
                // The export rounds on a running sum: within a microsecond
                // a line.
                assert!(
                    (drawn - folded as f64).abs() <= lines.max(1) as f64,
                    "{}: {drawn} µs drawn, {folded} folded",
                    paths[id as usize]
                );
            }
            let roots: u64 = t.roots().iter().map(|r| under[&paths[r as usize]].0).sum();
            let outside = under.get(";(outside)").map_or(0, |o| o.0);
            assert!(((span(&t, None) * 1000.0) - (roots + outside) as f64).abs() <= 2.0);
        }
    }

    /// Hiding a function gives its weight to its caller and lifts its
    /// callees, merged with the caller's own; a sandwich's sides add up to
    /// the function's weight.
    #[test]
    fn hide_and_sandwich() {
        // f0 > f1 > f2 (10 ms), f0 > f2 (5 ms), f0 > f1 (own 3 ms).
        let ops = vec![
            (Some(0), 0),
            (Some(1), 0),
            (Some(2), 3),
            (None, 10),
            (None, 0),
            (Some(2), 0),
            (None, 5),
            (None, 0),
        ];
        let p = trace(&ops);
        let ix = TreeIndex::build(&p);
        let f = |i: u32| FuncId::from_raw(i);
        let whole = Icicle::whole(&p, &ix, &|_| false);
        let hidden = Icicle::whole(&p, &ix, &|g| g == f(1));
        assert_eq!(
            span(&hidden, None),
            span(&whole, None),
            "hiding moves weight, never drops it"
        );
        let root = hidden.roots().to_vec()[0];
        let kids: Vec<Label> = hidden.kids(root).iter().map(|k| hidden.func(k)).collect();
        assert_eq!(
            kids,
            [Label::Func(f(2))],
            "f1's callees under f0, merged with f0's own f2"
        );
        let callees = Icicle::callees(&p, &ix, f(2));
        let (callers, cut) = Icicle::callers(&p, &ix, f(2), 100);
        assert!(!cut);
        assert_eq!(callees.roots().len(), 1);
        assert_eq!(callers.roots().len(), 1);
        let (a, b) = (callees.roots().to_vec()[0], callers.roots().to_vec()[0]);
        assert!((callees.weight(a) - callers.weight(b)).abs() < 1e-9);
        // Callers of f2: f1 (under f0) and f0 directly.
        let up: Vec<Label> = callers.kids(b).iter().map(|k| callers.func(k)).collect();
        assert_eq!(up, [Label::Func(f(0)), Label::Func(f(1))]);
        let through: f64 = callers.kids(b).iter().map(|k| callers.weight(k)).sum();
        assert!(
            (through - callers.weight(b)).abs() < 1e-9,
            "every place has a caller here"
        );
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
        let t = Icicle::whole(&p, &ix, &|_| false);
        let l = layout(&t, None, Order::ByName, 80, 10);
        assert_eq!(l.rows[0].len(), 1);
        assert_eq!(l.rows[0][0].width, 80);
        // f2 alone (0.25 of 201 ms) is thinner than a cell: not drawn.
        assert_eq!(l.rows[1].len(), 1, "{:?}", l.rows[1]);
        let root = l.rows[0][0].node.unwrap();
        let thin = t.kids(root).to_vec()[1];
        let z = layout(&t, Some(thin), Order::ByName, 80, 10);
        let full = |n| {
            vec![Block {
                node: Some(n),
                x: 0,
                width: 80,
                outside: false,
            }]
        };
        // Its caller stays above it, the full width.
        assert_eq!(z.rows[0], full(root));
        assert_eq!(z.rows[1], full(thin));
        assert_eq!(node_at(&z, 1, 40), Some(thin));
        assert_eq!(find(&z, thin).map(|f| f.0), Some(1));
        assert_eq!(
            layout(&t, Some(thin), Order::ByName, 80, 1).rows,
            [full(root)]
        );
        // Many thin siblings together: a `…` block.
        let mut ops = vec![(Some(0), 0), (Some(1), 0), (None, 200)];
        for f in 2..60 {
            ops.extend([(Some(f), 0), (None, 0)]);
        }
        ops.push((None, 0));
        let p = trace(&ops);
        let ix = TreeIndex::build(&p);
        let l = layout(
            &Icicle::whole(&p, &ix, &|_| false),
            None,
            Order::ByName,
            80,
            10,
        );
        assert!(
            l.rows[1].iter().any(|b| b.node.is_none()),
            "{:?}",
            l.rows[1]
        );
    }

    /// Heaviest first: each row's frames from the heaviest, ties by name,
    /// the frames as wide as by name; the thin ones one `…` at the right.
    #[test]
    fn heaviest_first() {
        // f0 > f1 (2 ms), f2 (9 ms), f3 (5 ms), and 30 thin f4.. calls.
        let mut ops = vec![(Some(0), 0)];
        for (f, ms) in [(1, 2), (2, 9), (3, 5)] {
            ops.extend([(Some(f), 0), (None, ms)]);
        }
        for f in 4..34 {
            ops.extend([(Some(f), 0), (None, 0)]);
        }
        ops.push((None, 0));
        let p = trace(&ops);
        let ix = TreeIndex::build(&p);
        let t = Icicle::whole(&p, &ix, &|_| false);
        let names = |order| -> Vec<String> {
            let l = layout(&t, None, order, 60, 3);
            l.rows[1]
                .iter()
                .map(|b| {
                    b.node
                        .map_or("…".into(), |n| t.func(n).name(&p).to_string())
                })
                .collect()
        };
        assert_eq!(names(Order::Heaviest), ["f2", "f3", "f1", "…"]);
        // By name the thin ones fall between (f10…f19 after f1).
        assert_eq!(names(Order::ByName), ["f1", "…", "f2", "…", "f3", "…"]);
        let widths = |order| -> Vec<u16> {
            let mut w: Vec<u16> = layout(&t, None, order, 60, 3).rows[1]
                .iter()
                .filter(|b| b.node.is_some())
                .map(|b| b.width)
                .collect();
            w.sort_unstable();
            w
        };
        // The same frames, as wide within the rounding of where they sit.
        let (a, b) = (widths(Order::Heaviest), widths(Order::ByName));
        assert_eq!(a.len(), b.len());
        assert!(
            a.iter().zip(&b).all(|(x, y)| x.abs_diff(*y) <= 1),
            "{a:?} {b:?}"
        );
        let root = t.roots().to_vec()[0];
        let heavy: Vec<f64> = t
            .kids_in(root, Order::Heaviest)
            .iter()
            .map(|k| t.weight(k))
            .collect();
        assert!(heavy.windows(2).all(|w| w[0] >= w[1]), "{heavy:?}");
    }
}
