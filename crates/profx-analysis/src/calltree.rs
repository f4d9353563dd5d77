//! The Call tree pane's model: the calling-context tree top-down, or
//! inverted into the bottom-up tree, as the rows a person has opened.
//!
//! Top-down, a row is a node of the profile's tree: its total is the
//! weight of everything under it (`tree::Subtree`, as a flame graph's width
//! is), its self the weight of its own stack, its count the calls (traces,
//! VS) or samples (sampled profiles) of that path.
//!
//! Bottom-up (perf's `--no-children`, VS's caller view), the roots are the
//! functions by their self weight and a row's children are the callers
//! that weight came through. A bottom-up row is made when its parent is
//! opened: it keeps which nodes of the tree it stands for (each with the
//! node whose self weight it carries), so opening it costs the nodes it
//! stands for, never a pass over the tree. The share of a caller row is
//! the part of its root function's self weight that came through it.
//!
//! Opening and closing a row splices its children into the visible list,
//! so a node with 100,000 children costs one sort of them and one copy of
//! the list, not a rebuild of everything shown.

use super::cct::{Cct, Label, Weigh, label_rank};
use super::sort::total_key;
use super::tree::{Children, Subtree};
use profx_model::metrics::{add_count, add_opt, pct};
use profx_model::{FuncId, NodeId, Profile};
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// What the profile-wide part of a tree costs to make (O(nodes)), made
/// once and shared by every Call tree view.
#[derive(Debug)]
pub struct TreeIndex {
    /// The children in the order the pane opens with (total, descending;
    /// ties by name), made with the index so that the first look at the
    /// tree sorts nothing.
    by_total: Arc<Children>,
    /// The tree the views share: nodes, own weights, totals (the call
    /// graph's walk reads the same one: `CallGraph::build_on`).
    pub cct: Arc<Cct>,
    /// The samples under each model node (a timed sampled profile's
    /// count column).
    pub sub: Subtree,
    /// What a percent is of: the session's total of the unit, or the sum
    /// of the roots where the session states none.
    pub total: f64,
}

/// What the tree's total and self columns weigh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Times, in the profile's unit: stacks have self times.
    Ms,
    /// Samples or calls: stacks have counts only.
    Count,
}

impl TreeIndex {
    /// Makes `p`'s tree and its order once, for every Call tree view to share.
    pub fn build(p: &Profile) -> TreeIndex {
        TreeIndex::build_on(p, Arc::new(Cct::build(p)))
    }

    /// The index of `p`'s tree already made (`Cct::build`).
    pub fn build_on(p: &Profile, cct: Arc<Cct>) -> TreeIndex {
        let children = &cct.kids;
        // Samples under each node are the count column of a timed sampled
        // profile only: 32 bytes a node no other profile pays for.
        let sub = match (cct.weigh, p.hits_count()) {
            (Weigh::Ms, profx_model::HitsCount::Samples) => Subtree::build(p),
            _ => Subtree::default(),
        };
        let roots: f64 = children.of(None).iter().map(|&n| cct.total(n.raw())).sum();
        let stated = match cct.weigh {
            Weigh::Ms => p.totals.elapsed_inclusive_ms,
            Weigh::Hits => p.totals.samples.map(|n| n as f64),
            Weigh::Calls => None,
        };
        let total = stated.filter(|&t| t > 0.0).unwrap_or(roots);
        // Heaviest first; ties stay in the children's order by name.
        let by_total = Arc::new(children.reordered(|n| !total_key(cct.total(n.raw()))));
        TreeIndex {
            by_total,
            cct,
            sub,
            total,
        }
    }
}

impl TreeIndex {
    /// What the total and self columns weigh: the tree's unit.
    pub fn unit(&self) -> Unit {
        match self.cct.weigh {
            Weigh::Ms => Unit::Ms,
            Weigh::Hits | Weigh::Calls => Unit::Count,
        }
    }

    /// A trace's time with no call open (model.md's outside time): the
    /// flame graph draws it beside the roots, as the folded export does.
    pub fn outside(&self) -> f64 {
        self.cct.outside
    }

    /// Every node's children, by name (the tree's own index).
    pub fn children(&self) -> &Children {
        &self.cct.kids
    }

    /// Every node's children by total, heaviest first, ties by name: the
    /// order the Call tree opens with and the Flame pane's heaviest first.
    pub fn by_total(&self) -> &Children {
        &self.by_total
    }

    /// A node's total: its own weight and its children's (`Cct`).
    pub fn weight(&self, n: NodeId) -> f64 {
        self.cct.total(n.raw())
    }

    /// A node's own weight: its stack's self time or count; absent for a
    /// path that only leads to others.
    pub fn own(&self, p: &Profile, n: NodeId) -> Option<f64> {
        self.cct.own(p, n.raw())
    }

    /// What a node is: a function, or one of the views' own nodes.
    pub fn label(&self, p: &Profile, n: NodeId) -> Label {
        self.cct.label(p, n.raw())
    }

    /// A label's place in the order of names.
    pub fn rank(&self, p: &Profile, l: Label) -> u64 {
        label_rank(p, l)
    }
}

/// Which way the Call tree reads the calling-context tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Callers above their callees: the roots are where the call paths start.
    TopDown,
    /// Each function a root weighing its self weight, the callers that weight
    /// came through below it.
    BottomUp,
}

/// A column the tree's children can be ordered by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeCol {
    /// The row's name.
    Name,
    /// The row's total (`Values::total`).
    Total,
    /// The row's own weight (`Values::self_w`).
    SelfW,
    /// Calls or samples (`Values::count`).
    Count,
}

impl TreeCol {
    /// Every column, in the order the pane offers them to sort by.
    pub const ALL: [TreeCol; 4] = [
        TreeCol::Total,
        TreeCol::SelfW,
        TreeCol::Count,
        TreeCol::Name,
    ];
}

/// A sibling's place, from (sort column's value, name rank, id): by the
/// value (descending when asked), ties by name then id, both turned round
/// when the sort is by name descending. Unique (the id), so the rows come
/// out the same however they were found.
fn sibling_key(sort: (TreeCol, bool), (value, rank, id): (f64, u64, u32)) -> (u64, u64, u32) {
    let (col, desc) = sort;
    let value = match desc {
        true => !total_key(value),
        false => total_key(value),
    };
    match col == TreeCol::Name && desc {
        true => (value, !rank, !id),
        false => (value, rank, id),
    }
}

/// One visible row: a node (top-down) or a bottom-up row, and its depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The row's id: top-down a node of the tree (`Cct`'s numbering), bottom-up
    /// one of the bottom-up rows made so far.
    pub id: u32,
    /// How deep the row is shown: 0 for a root.
    pub depth: u32,
}

/// A row's numbers. Absent where the profile has none.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Values {
    /// Top-down: the weight under the node; bottom-up: the root
    /// function's self weight that came through this path.
    pub total: Option<f64>,
    /// Top-down: the node's own weight; bottom-up: the same as `total`
    /// (every bottom-up row is self weight).
    pub self_w: Option<f64>,
    /// Calls or samples: top-down the path's own, bottom-up those of the
    /// stacks the row stands for.
    pub count: Option<u64>,
    /// Bottom-up: the share of the root function's self weight, in
    /// percent; top-down: absent.
    pub share: Option<f64>,
    /// The row's total as a percent of its parent row's total (hotspot's
    /// and KCachegrind's "% of parent"): top-down, of the caller's weight
    /// under it; bottom-up, of the callee row's weight it came through.
    /// Absent at a root, which has no parent, and under a parent that
    /// weighs nothing.
    pub parent_pct: Option<f64>,
}

/// A bottom-up row: a function, the caller chain above it, and the tree
/// nodes it stands for.
#[derive(Clone, Debug)]
struct Up {
    func: Label,
    parent: u32,
    /// The root row above it (itself for a root): its share's base,
    /// found without a walk up (a chain turned over is deep).
    root: u32,
    /// (node whose self weight is counted, node of this row's function on
    /// its path).
    pairs: Vec<(NodeId, NodeId)>,
    values: Values,
    /// Whether some pair's node has a caller.
    has_callers: bool,
    kids: Option<Vec<u32>>,
}

const NO_ROW: u32 = u32::MAX;

/// Tree nodes bottom-up rows may stand for, all rows together, before `*`
/// and the hot path stop opening more. A recursive chain of depth n, turned
/// over, has rows standing for n, n − 1, … nodes: opened whole it would
/// cost n²/2; one row at a time, as a person opens them, it stays cheap.
const UP_BUDGET: usize = 4_000_000;

/// A search opens the paths to this many of its matches, the heaviest.
pub const OPEN_FOR: usize = 1000;

/// The most rows opening every row shows (`open_every`): 8 MB of rows and
/// one walk of them, whatever the tree holds; a larger tree opens as many
/// whole levels as fit.
pub const OPEN_EVERY_ROWS: usize = 1_000_000;

/// What opening every row did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opened {
    /// The rows shown now.
    pub rows: usize,
    /// The levels opened below the roots.
    pub levels: u32,
    /// Whether every row is open (false: the budget stopped it a level
    /// short of the tree's depth).
    pub whole: bool,
}

/// The state of one Call tree view: direction, order, what is open, what
/// matched a search, and the rows that shows.
#[derive(Clone, Debug)]
pub struct CallTree {
    index: Arc<TreeIndex>,
    /// Which way the tree is read.
    pub direction: Direction,
    /// The column siblings are ordered by, and whether descending.
    pub sort: (TreeCol, bool),
    open: FxHashSet<u32>,
    ups: Vec<Up>,
    up_roots: Vec<u32>,
    /// The rows shown, in order: the roots and the children of every open row.
    pub rows: Vec<Row>,
    /// Rows (ids) a search or a drill-down marked.
    pub marked: Marks,
    /// Top-down, the weight of the marked nodes with no marked node above
    /// them, summed as they were marked.
    marked_sum: Option<f64>,
    /// Top-down: every node's children in the view's order, made once an
    /// order (a sort) and shared by every walk, so showing a million open
    /// rows sorts nothing.
    ordered: Option<Arc<Children>>,
    /// Nodes the bottom-up rows made so far stand for (`UP_BUDGET`).
    up_pairs: usize,
    /// What was open before a search opened the paths to its matches: each
    /// keystroke opens its own paths from there, and clearing the search
    /// puts it back.
    open_before: Option<FxHashSet<u32>>,
}

impl CallTree {
    /// A view of the shared tree, top-down, by total descending, no row open.
    pub fn new(p: &Profile, index: Arc<TreeIndex>) -> CallTree {
        let mut t = CallTree {
            index,
            direction: Direction::TopDown,
            sort: (TreeCol::Total, true),
            open: FxHashSet::default(),
            ups: Vec::new(),
            up_roots: Vec::new(),
            rows: Vec::new(),
            marked: Marks::default(),
            marked_sum: None,
            up_pairs: 0,
            ordered: None,
            open_before: None,
        };
        t.rebuild(p);
        t
    }

    /// The tree and order every view of this profile shares.
    pub fn index(&self) -> &TreeIndex {
        &self.index
    }

    /// What a row id stands for: a function, or a node of the views.
    pub fn label(&self, p: &Profile, id: u32) -> Label {
        match self.direction {
            Direction::TopDown => self.index.label(p, NodeId::from_raw(id)),
            Direction::BottomUp => self.ups[id as usize].func,
        }
    }

    /// The function of a row id; none for a node of the views.
    pub fn func(&self, p: &Profile, id: u32) -> Option<FuncId> {
        self.label(p, id).func()
    }

    /// Whether row `id` is open: its children are shown.
    pub fn is_open(&self, id: u32) -> bool {
        self.open.contains(&id)
    }

    /// Whether a row can be opened.
    pub fn has_children(&self, id: u32) -> bool {
        match self.direction {
            Direction::TopDown => !self
                .index
                .children()
                .of(Some(NodeId::from_raw(id)))
                .is_empty(),
            Direction::BottomUp => self.ups[id as usize].has_callers,
        }
    }

    /// Row `id`'s numbers, in the tree's unit.
    pub fn values(&self, p: &Profile, id: u32) -> Values {
        match self.direction {
            Direction::BottomUp => self.ups[id as usize].values,
            Direction::TopDown => {
                let ix = &self.index;
                let total = Some(ix.cct.total(id));
                let count = match (ix.unit(), p.hits_count()) {
                    // Sampled with times: the samples under the node.
                    (Unit::Ms, profx_model::HitsCount::Samples) => {
                        ix.sub.hits.get(id as usize).copied().flatten()
                    }
                    _ => ix.cct.count(p, id),
                };
                let parent_pct = ix
                    .cct
                    .parent_of(p, id)
                    .and_then(|q| pct(total, Some(ix.cct.total(q))));
                // A path that only leads to others (a sampled profile's
                // callers) has no stack: none of its own weight, 0.
                let self_w = ix.own(p, NodeId::from_raw(id)).or(total.map(|_| 0.0));
                Values {
                    total,
                    self_w,
                    count,
                    share: None,
                    parent_pct,
                }
            }
        }
    }

    /// A value as a percent of the session.
    pub fn percent(&self, v: Option<f64>) -> Option<f64> {
        pct(v, Some(self.index.total))
    }

    /// A row id's parent row id, if it has one.
    pub fn parent(&self, p: &Profile, id: u32) -> Option<u32> {
        match self.direction {
            Direction::TopDown => self.index.cct.parent_of(p, id),
            Direction::BottomUp => {
                let up = self.ups[id as usize].parent;
                (up != NO_ROW).then_some(up)
            }
        }
    }

    /// The children of a row (the roots for `None`), in the view's order,
    /// without opening it: a walk of the whole tree (`report --view
    /// tree`) reads them so, with no row list to splice.
    pub fn kids(&mut self, p: &Profile, id: Option<u32>) -> Vec<u32> {
        self.children(p, id)
    }

    /// The children of a row, in the view's order (made when asked, for a
    /// bottom-up row).
    /// How many children row `id` has: `children`' length, without
    /// listing or ordering them.
    fn child_count(&mut self, p: &Profile, id: u32) -> usize {
        match self.direction {
            Direction::TopDown => (self.index.children()).of(Some(NodeId::from_raw(id))).len(),
            Direction::BottomUp => self.up_kids(p, id).len(),
        }
    }

    fn children(&mut self, p: &Profile, id: Option<u32>) -> Vec<u32> {
        match (self.direction, id) {
            (Direction::TopDown, id) => {
                let ordered = self.ordered(p);
                ordered
                    .of(id.map(NodeId::from_raw))
                    .iter()
                    .map(|n| n.raw())
                    .collect()
            }
            (Direction::BottomUp, None) => {
                if self.up_roots.is_empty() {
                    self.up_roots = self.make_up_roots(p);
                }
                let mut kids = self.up_roots.clone();
                self.order(p, &mut kids);
                kids
            }
            (Direction::BottomUp, Some(id)) => {
                let mut kids = self.up_kids(p, id);
                self.order(p, &mut kids);
                kids
            }
        }
    }

    /// The top-down children in the view's order, made on first need.
    fn ordered(&mut self, p: &Profile) -> Arc<Children> {
        if let Some(o) = &self.ordered {
            return Arc::clone(o);
        }
        if self.sort == (TreeCol::Total, true) {
            let o = Arc::clone(&self.index.by_total);
            self.ordered = Some(Arc::clone(&o));
            return o;
        }
        let key = |n: NodeId| {
            let rank = self.index.rank(p, self.index.label(p, n));
            sibling_key(self.sort, (self.sort_key(p, n.raw()), rank, n.raw()))
        };
        let o = Arc::new(self.index.children().reordered(key));
        self.ordered = Some(Arc::clone(&o));
        o
    }

    /// A row's value in the sort column (0 for the name: ties then order).
    fn sort_key(&self, p: &Profile, id: u32) -> f64 {
        let v = self.values(p, id);
        match self.sort.0 {
            TreeCol::Name => 0.0,
            TreeCol::Total => v.total.unwrap_or(f64::NEG_INFINITY),
            TreeCol::SelfW => v.self_w.unwrap_or(f64::NEG_INFINITY),
            TreeCol::Count => v.count.map_or(f64::NEG_INFINITY, |c| c as f64),
        }
    }

    /// Orders sibling rows by the sort column, ties by name then id, so
    /// an order is the same however the rows were found.
    fn order(&self, p: &Profile, kids: &mut [u32]) {
        if kids.len() < 2 {
            return;
        }
        let rank = |id: u32| self.index.rank(p, self.label(p, id));
        let mut keyed: Vec<((u64, u64, u32), u32)> = kids
            .iter()
            .map(|&k| (sibling_key(self.sort, (self.sort_key(p, k), rank(k), k)), k))
            .collect();
        keyed.sort_unstable_by_key(|k| k.0);
        for (slot, k) in kids.iter_mut().zip(keyed) {
            *slot = k.1;
        }
    }

    /// Bottom-up roots: every function with self weight, standing for
    /// its nodes that have some (its `(no call path)` node too, so a root
    /// weighs the larger of its exclusive value and its stacks' self),
    /// and `(unlisted)` where a file states unlisted time.
    fn make_up_roots(&mut self, p: &Profile) -> Vec<u32> {
        let mut by_func: Vec<Vec<(NodeId, NodeId)>> = vec![Vec::new(); p.functions().len()];
        let mut unlisted = Vec::new();
        let cct = &self.index.cct;
        for i in 0..cct.len() as u32 {
            if cct.own(p, i).is_none() {
                continue;
            }
            let n = NodeId::from_raw(i);
            match cct.label(p, i) {
                Label::Func(f) => by_func[f.index()].push((n, n)),
                Label::Unlisted => unlisted.push((n, n)),
                Label::NoCallPath | Label::Outside => {}
            }
        }
        let mut roots = Vec::new();
        for (f, pairs) in by_func.into_iter().enumerate() {
            if !pairs.is_empty() {
                roots.push(self.add_up(p, Label::Func(FuncId::from_index(f)), NO_ROW, pairs));
            }
        }
        if !unlisted.is_empty() {
            roots.push(self.add_up(p, Label::Unlisted, NO_ROW, unlisted));
        }
        roots
    }

    fn add_up(
        &mut self,
        p: &Profile,
        func: Label,
        parent: u32,
        pairs: Vec<(NodeId, NodeId)>,
    ) -> u32 {
        let (mut total, mut count) = (None, None);
        for &(leaf, _) in &pairs {
            total = add_opt(total, self.index.own(p, leaf));
            count = add_count(count, self.index.cct.count(p, leaf.raw()));
        }
        let me = self.ups.len() as u32;
        let root = match parent {
            NO_ROW => me,
            q => self.ups[q as usize].root,
        };
        let root_total = match parent {
            NO_ROW => total,
            _ => self.ups[root as usize].values.total,
        };
        let share = pct(total, root_total);
        let parent_pct = match parent {
            NO_ROW => None,
            q => pct(total, self.ups[q as usize].values.total),
        };
        let cct = &self.index.cct;
        let has_callers = pairs
            .iter()
            .any(|&(_, at)| cct.parent_of(p, at.raw()).is_some());
        self.up_pairs += pairs.len();
        self.ups.push(Up {
            func,
            parent,
            root,
            pairs,
            values: Values {
                total,
                self_w: total,
                count,
                share,
                parent_pct,
            },
            has_callers,
            kids: None,
        });
        (self.ups.len() - 1) as u32
    }

    /// A bottom-up row's callers, made on first asking.
    fn up_kids(&mut self, p: &Profile, id: u32) -> Vec<u32> {
        if let Some(k) = &self.ups[id as usize].kids {
            return k.clone();
        }
        let mut groups: rustc_hash::FxHashMap<Label, Vec<(NodeId, NodeId)>> = Default::default();
        let cct = &self.index.cct;
        for &(leaf, at) in &self.ups[id as usize].pairs {
            if let Some(q) = cct.parent_of(p, at.raw()) {
                groups
                    .entry(cct.label(p, q))
                    .or_default()
                    .push((leaf, NodeId::from_raw(q)));
            }
        }
        let mut groups: Vec<_> = groups.into_iter().collect();
        groups.sort_by_key(|g| self.index.rank(p, g.0));
        let kids: Vec<u32> = groups
            .into_iter()
            .map(|(f, pairs)| self.add_up(p, f, id, pairs))
            .collect();
        self.ups[id as usize].kids = Some(kids.clone());
        kids
    }

    /// Makes the visible rows again from the roots and what is open (after
    /// a change of order, direction or of many open rows at once).
    pub fn rebuild(&mut self, p: &Profile) {
        let mut rows = Vec::new();
        if self.direction == Direction::TopDown {
            // Over the ordered index's slices: no list made a row.
            let ordered = self.ordered(p);
            let mut todo: Vec<Row> = ordered
                .of(None)
                .iter()
                .rev()
                .map(|n| Row {
                    id: n.raw(),
                    depth: 0,
                })
                .collect();
            while let Some(r) = todo.pop() {
                rows.push(r);
                if self.open.contains(&r.id) {
                    todo.extend(
                        ordered
                            .of(Some(NodeId::from_raw(r.id)))
                            .iter()
                            .rev()
                            .map(|n| Row {
                                id: n.raw(),
                                depth: r.depth + 1,
                            }),
                    );
                }
            }
            self.rows = rows;
            return;
        }
        let roots = self.children(p, None);
        let mut todo: Vec<Row> = roots.iter().rev().map(|&id| Row { id, depth: 0 }).collect();
        while let Some(r) = todo.pop() {
            rows.push(r);
            if self.open.contains(&r.id) {
                let kids = self.children(p, Some(r.id));
                todo.extend(kids.iter().rev().map(|&id| Row {
                    id,
                    depth: r.depth + 1,
                }));
            }
        }
        self.rows = rows;
    }

    /// Opens the row at `i`; false when it has no children or is open.
    pub fn expand(&mut self, p: &Profile, i: usize) -> bool {
        let Some(r) = self.rows.get(i).copied() else {
            return false;
        };
        if self.open.contains(&r.id) || !self.has_children(r.id) {
            return false;
        }
        self.open.insert(r.id);
        let kids = self.children(p, Some(r.id));
        let new = kids.into_iter().map(|id| Row {
            id,
            depth: r.depth + 1,
        });
        self.rows.splice(i + 1..i + 1, new);
        true
    }

    /// Opens the roots, first to last, while the rows shown stay within
    /// `budget`: the tree's first level open, as a new tree pane shows it
    /// (a tree of one root, the program's entry, shows where its time
    /// went). The rows are made once at the end: a root opened at a time
    /// moved every row after it, minutes on a listing of millions of roots.
    pub fn open_roots(&mut self, p: &Profile, budget: usize) {
        let roots: Vec<u32> = self.rows.iter().map(|r| r.id).collect();
        let mut shown = roots.len();
        for id in roots {
            if self.open.contains(&id) || !self.has_children(id) {
                continue;
            }
            let kids = self.child_count(p, id);
            if shown + kids > budget {
                break;
            }
            shown += kids;
            self.open.insert(id);
        }
        self.rebuild(p);
    }

    /// Row `id`'s path of function names, root first: how a row is found
    /// again in another profile of the same run (a followed trace's next
    /// update: `reopen`, `find_path`).
    pub fn path_of(&self, p: &Profile, id: u32) -> Vec<String> {
        let mut out = Vec::new();
        let mut at = Some(id);
        while let Some(i) = at {
            out.push(self.label(p, i).name(p).to_string());
            at = self.parent(p, i);
        }
        out.reverse();
        out
    }

    /// The open rows shown, as paths of names, shallowest first.
    pub fn open_paths(&self, p: &Profile) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = (self.rows.iter())
            .filter(|r| self.open.contains(&r.id))
            .map(|r| self.path_of(p, r.id))
            .collect();
        out.sort_by_key(Vec::len);
        out
    }

    /// The row at a path of names (root first), where the tree has one:
    /// the first child of each name, as differential flame graphs pair
    /// frames.
    pub fn find_path(&mut self, p: &Profile, path: &[String]) -> Option<u32> {
        let mut at: Option<u32> = None;
        for name in path {
            let kids = self.children(p, at);
            at = Some(*kids.iter().find(|&&k| self.label(p, k).name(p) == name)?);
        }
        at
    }

    /// Opens exactly the rows at `paths` (shallowest first, as
    /// `open_paths` gives them) that this tree has, every other closed.
    pub fn reopen(&mut self, p: &Profile, paths: &[Vec<String>]) {
        self.close_every(p);
        for path in paths {
            if let Some(i) = self.find_path(p, path).and_then(|id| self.position(id)) {
                self.expand(p, i);
            }
        }
    }

    /// Closes the row at `i`; false when it was not open.
    pub fn collapse(&mut self, i: usize) -> bool {
        let Some(r) = self.rows.get(i).copied() else {
            return false;
        };
        if !self.open.remove(&r.id) {
            return false;
        }
        let end = self.subtree_end(i);
        self.rows.drain(i + 1..end);
        true
    }

    /// The index after the last visible row under the row at `i`.
    fn subtree_end(&self, i: usize) -> usize {
        let depth = self.rows[i].depth;
        i + 1
            + self.rows[i + 1..]
                .iter()
                .take_while(|r| r.depth > depth)
                .count()
    }

    /// Opens every row under the row at `i` (top-down: every node of its
    /// subtree; bottom-up: its callers, all the way up).
    pub fn expand_all(&mut self, p: &Profile, i: usize) {
        let Some(r) = self.rows.get(i).copied() else {
            return;
        };
        let mut todo = vec![r.id];
        while let Some(id) = todo.pop() {
            if self.over_budget() {
                break;
            }
            if !self.has_children(id) {
                continue;
            }
            self.open.insert(id);
            match self.direction {
                // Which children, not their order: the index's lists.
                Direction::TopDown => todo.extend(
                    self.index
                        .children()
                        .of(Some(NodeId::from_raw(id)))
                        .iter()
                        .map(|n| n.raw()),
                ),
                Direction::BottomUp => todo.extend(self.up_kids(p, id)),
            }
        }
        self.rebuild(p);
    }

    /// Opens every row (perf report's expand all), a whole level at a
    /// time from the roots, while the rows shown stay within `budget`:
    /// a tree of millions of nodes opens as deep as that many rows reach,
    /// so the list of rows (8 bytes a row) and the set of open rows stay
    /// bounded whatever the tree holds. What was open before is replaced;
    /// a search's paths too (clearing the search then opens nothing back).
    pub fn open_every(&mut self, p: &Profile, budget: usize) -> Opened {
        let mut frontier = self.children(p, None);
        let mut shown = frontier.len();
        let mut open = FxHashSet::default();
        let mut levels = 0;
        let whole = loop {
            let parents: Vec<u32> = frontier
                .iter()
                .copied()
                .filter(|&id| self.has_children(id))
                .collect();
            if parents.is_empty() {
                break true;
            }
            let more: usize = match self.direction {
                // Counted from the index's lists before any is copied: a
                // level past the budget costs one pass over its parents.
                Direction::TopDown => parents
                    .iter()
                    .map(|&id| self.index.children().of(Some(NodeId::from_raw(id))).len())
                    .sum(),
                // Bottom-up rows are made when asked for (`up_kids`,
                // kept by `UP_BUDGET`): making a level is counting it.
                Direction::BottomUp => parents.iter().map(|&id| self.up_kids(p, id).len()).sum(),
            };
            if shown + more > budget || self.over_budget() {
                break false;
            }
            let mut next = Vec::with_capacity(more);
            for &id in &parents {
                open.insert(id);
                next.extend(self.children(p, Some(id)));
            }
            shown += more;
            levels += 1;
            frontier = next;
        };
        self.open = open;
        self.open_before = None;
        self.rebuild(p);
        Opened {
            rows: self.rows.len(),
            levels,
            whole,
        }
    }

    /// Closes every row: the roots alone are shown. A search's marks stay;
    /// what it had opened is closed too.
    pub fn close_every(&mut self, p: &Profile) {
        self.open.clear();
        self.open_before = None;
        self.rebuild(p);
    }

    /// The root row above row id `id` (itself at a root).
    pub fn root_of(&self, p: &Profile, id: u32) -> u32 {
        let mut at = id;
        while let Some(q) = self.parent(p, at) {
            at = q;
        }
        at
    }

    /// Opens the heaviest path from the row at `i` (VS's hot path): the
    /// heaviest child, as long as it holds at least a twentieth of the
    /// session; the index of the row it ends on.
    pub fn hot_path(&mut self, p: &Profile, i: usize) -> usize {
        let Some(r) = self.rows.get(i).copied() else {
            return i;
        };
        let floor = self.index.total / 20.0;
        let mut at = r.id;
        let mut path = Vec::new();
        loop {
            if !self.has_children(at) || self.over_budget() {
                break;
            }
            // The heaviest child whatever the rows' order (ties: the first
            // by name). Top-down, the index's list: no list made a level (a
            // chain a million deep is a million levels).
            let bottom_up = match self.direction {
                Direction::BottomUp => Some(self.children(p, Some(at)).to_vec()),
                Direction::TopDown => None,
            };
            let w = |id: u32| self.values(p, id).total.unwrap_or(0.0);
            let rank = |id: u32| {
                self.index
                    .rank(p, self.index.label(p, NodeId::from_raw(id)))
            };
            let heaviest_of = |kids: &mut dyn Iterator<Item = u32>| {
                kids.max_by(|&a, &b| w(a).total_cmp(&w(b)).then_with(|| rank(b).cmp(&rank(a))))
            };
            let heaviest = match &bottom_up {
                Some(kids) => heaviest_of(&mut kids.iter().copied()),
                None => {
                    let kids = self.index.children().of(Some(NodeId::from_raw(at)));
                    heaviest_of(&mut kids.iter().map(|n| n.raw()))
                }
            };
            match heaviest {
                Some(k) if self.values(p, k).total.unwrap_or(0.0) >= floor => {
                    self.open.insert(at);
                    path.push(k);
                    at = k;
                }
                _ => break,
            }
        }
        if path.is_empty() {
            return i;
        }
        self.rebuild(p);
        self.position(at).unwrap_or(i)
    }

    /// Whether the bottom-up rows made stand for so many nodes that `*`
    /// and the hot path open no more.
    pub fn over_budget(&self) -> bool {
        self.direction == Direction::BottomUp && self.up_pairs > UP_BUDGET
    }

    /// Where a row id is shown.
    pub fn position(&self, id: u32) -> Option<usize> {
        self.rows.iter().position(|r| r.id == id)
    }

    /// Marks the rows of functions `wanted` accepts and opens the paths to
    /// them (top-down: every node of such a function; bottom-up: the
    /// roots, which are every function); how many it marked.
    pub fn mark(&mut self, p: &Profile, wanted: &dyn Fn(FuncId) -> bool) -> usize {
        self.marked.clear();
        self.marked_sum = None;
        match &self.open_before {
            Some(before) => self.open = before.clone(),
            None => self.open_before = Some(self.open.clone()),
        }
        match self.direction {
            Direction::TopDown => {
                let hit: Vec<bool> = p.function_ids().map(wanted).collect();
                let cct = &self.index.cct;
                let n = cct.len();
                self.marked.reserve(n);
                // Paths are opened to the heaviest matches only: a query
                // matching most of a million nodes would open them all.
                // They are kept as the nodes go by, so millions of matches
                // need no list of their own (new memory, a page fault every
                // 4 KiB), and each weight is read once.
                let mut heaviest = Heaviest::new(OPEN_FOR);
                // The share the marks hold (`marked_share`) is summed in
                // the same pass: a node under a marked one is not counted
                // again, and parents come before their children.
                let mut under = vec![0u64; n.div_ceil(64)];
                let mut sum = 0.0;
                for i in 0..n {
                    let id = i as u32;
                    let below = cct
                        .parent_of(p, id)
                        .is_some_and(|q| bit(&under, q as usize) || self.marked.contains(&q));
                    if below {
                        under[i / 64] |= 1 << (i % 64);
                    }
                    let matched = cct.label(p, id).func().is_some_and(|f| hit[f.index()]);
                    if matched {
                        self.marked.insert(id);
                        let weight = self.index.weight(NodeId::from_raw(id));
                        heaviest.offer(weight, id);
                        if !below {
                            sum += weight;
                        }
                    }
                }
                self.marked_sum = Some(sum);
                let found = heaviest.ids();
                // Ancestors opened by this search: a walk up stops at one
                // (its own ancestors are open then), so marking costs the
                // nodes, not the sum of their depths. A row the user had
                // open does not stop it: a row above it may be closed.
                let mut opened: FxHashSet<u32> = FxHashSet::default();
                for &i in &found {
                    let mut at = cct.parent_of(p, i);
                    while let Some(q) = at {
                        if !opened.insert(q) {
                            break;
                        }
                        self.open.insert(q);
                        at = cct.parent_of(p, q);
                    }
                }
            }
            Direction::BottomUp => {
                if self.up_roots.is_empty() {
                    self.up_roots = self.make_up_roots(p);
                }
                for &r in &self.up_roots {
                    if self.ups[r as usize].func.func().is_some_and(wanted) {
                        self.marked.insert(r);
                    }
                }
            }
        }
        self.rebuild(p);
        self.marked.len()
    }

    /// Forgets a search: nothing marked, open what was open before it.
    pub fn unmark(&mut self, p: &Profile) {
        self.marked.clear();
        self.marked_sum = None;
        if let Some(before) = self.open_before.take() {
            self.open = before;
            self.rebuild(p);
        }
    }

    /// The share of the session the marked rows hold together: nodes under
    /// another marked node are not counted twice.
    pub fn marked_share(&self, p: &Profile) -> Option<f64> {
        if self.marked.is_empty() {
            return None;
        }
        let sum: f64 = match self.direction {
            // Bottom-up, the marked rows are roots: they never nest.
            Direction::BottomUp => self
                .marked
                .iter()
                .map(|id| self.values(p, id).total.unwrap_or(0.0))
                .sum(),
            // Summed when the marks were made (`mark`).
            Direction::TopDown => self.marked_sum.unwrap_or(0.0),
        };
        self.percent(Some(sum))
    }

    /// The next marked row after `from` (before it when `dir` < 0), wrapping.
    pub fn next_marked(&self, from: usize, dir: isize) -> Option<usize> {
        let n = self.rows.len();
        (1..=n)
            .map(|k| (from as isize + dir * k as isize).rem_euclid(n as isize) as usize)
            .find(|&i| self.marked.contains(&self.rows[i].id))
    }

    /// Turns the tree over (top-down ⇄ bottom-up); what was open and marked
    /// belongs to the other direction's rows, so it is forgotten.
    pub fn invert(&mut self, p: &Profile) {
        self.direction = match self.direction {
            Direction::TopDown => Direction::BottomUp,
            Direction::BottomUp => Direction::TopDown,
        };
        self.open.clear();
        self.marked.clear();
        self.marked_sum = None;
        self.open_before = None;
        self.up_pairs = 0;
        self.ups.clear();
        self.up_roots.clear();
        self.rebuild(p);
    }

    /// Orders every row's children by `col`.
    pub fn sort_by(&mut self, p: &Profile, col: TreeCol, desc: bool) {
        self.sort = (col, desc);
        self.ordered = None;
        self.rebuild(p);
    }

    /// The sum of the roots' totals (what the whole tree weighs).
    pub fn roots_total(&self, p: &Profile) -> f64 {
        let roots: Vec<u32> = match self.direction {
            Direction::TopDown => self
                .index
                .children()
                .of(None)
                .iter()
                .map(|n| n.raw())
                .collect(),
            Direction::BottomUp => self.up_roots.clone(),
        };
        roots
            .iter()
            .map(|&r| self.values(p, r).total.unwrap_or(0.0))
            .sum()
    }
}

/// Bit `i` of a bit set.
fn bit(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

/// The `k` heaviest nodes offered, the lighter of two the same weight
/// being the one offered later (the higher id): a min-heap of the kept,
/// so a node lighter than all of them costs one comparison.
struct Heaviest {
    k: usize,
    kept: std::collections::BinaryHeap<std::cmp::Reverse<(Weight, std::cmp::Reverse<u32>)>>,
}

/// A weight ordered by `f64::total_cmp`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Weight(f64);

impl Eq for Weight {}

impl PartialOrd for Weight {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Weight {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl Heaviest {
    fn new(k: usize) -> Heaviest {
        Heaviest {
            k,
            kept: std::collections::BinaryHeap::with_capacity(k + 1),
        }
    }

    fn offer(&mut self, weight: f64, id: u32) {
        let entry = std::cmp::Reverse((Weight(weight), std::cmp::Reverse(id)));
        if self.kept.len() < self.k {
            self.kept.push(entry);
        } else if self.kept.peek().is_some_and(|lightest| entry < *lightest) {
            // `Reverse`: smaller is heavier.
            self.kept.pop();
            self.kept.push(entry);
        }
    }

    /// The kept nodes' ids, in no order.
    fn ids(self) -> Vec<u32> {
        self.kept
            .into_iter()
            .map(|std::cmp::Reverse((_, std::cmp::Reverse(id)))| id)
            .collect()
    }
}

/// Row ids a search marked, a bit each: a query can mark most of a
/// million nodes, and a hash set of them took most of a keystroke's time
/// (inserting each, then asking it of every node for the marked share).
#[derive(Clone, Debug, Default)]
pub struct Marks {
    bits: Vec<u64>,
    len: usize,
}

impl Marks {
    /// Whether `id` is marked.
    pub fn contains(&self, id: &u32) -> bool {
        let i = *id as usize;
        self.bits
            .get(i / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// Makes room for ids below `n` at once.
    pub fn reserve(&mut self, n: usize) {
        if self.bits.len() < n.div_ceil(64) {
            self.bits.resize(n.div_ceil(64), 0);
        }
    }

    /// Marks `id`; whether it was not marked before.
    pub fn insert(&mut self, id: u32) -> bool {
        let i = id as usize;
        if self.bits.len() <= i / 64 {
            self.bits.resize(i / 64 + 1, 0);
        }
        let word = &mut self.bits[i / 64];
        let bit = 1u64 << (i % 64);
        let new = *word & bit == 0;
        *word |= bit;
        self.len += usize::from(new);
        new
    }

    /// Forgets every mark, keeping the room.
    pub fn clear(&mut self) {
        self.bits.fill(0);
        self.len = 0;
    }

    /// How many ids are marked.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no id is marked.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The marked ids, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |b| bits >> b & 1 == 1)
                .map(move |b| (w * 64 + b) as u32)
        })
    }
}

impl Extend<u32> for Marks {
    fn extend<I: IntoIterator<Item = u32>>(&mut self, ids: I) {
        for id in ids {
            self.insert(id);
        }
    }
}

impl PartialEq for CallTree {
    fn eq(&self, other: &Self) -> bool {
        self.direction == other.direction
            && self.sort == other.sort
            && self.rows == other.rows
            && self.open == other.open
    }
}

#[cfg(test)]
mod tests {
    /// The heaviest nodes kept are the `k` heaviest, the earlier of two
    /// the same weight first; fewer offered are all kept.
    #[test]
    fn the_heaviest_are_kept_ties_by_the_earlier_node() {
        let weights = [3.0, 1.0, 3.0, 5.0, 0.0, 3.0, 5.0, -1.0];
        let mut h = Heaviest::new(4);
        for (i, &w) in weights.iter().enumerate() {
            h.offer(w, i as u32);
        }
        let mut ids = h.ids();
        ids.sort_unstable();
        assert_eq!(ids, [0, 2, 3, 6]);
        let mut few = Heaviest::new(10);
        few.offer(1.0, 7);
        few.offer(f64::NAN, 8);
        let mut ids = few.ids();
        ids.sort_unstable();
        assert_eq!(ids, [7, 8]);
    }

    use super::*;
    use profx_model::ProfileBuilder;
    use proptest::prelude::*;

    /// Marks hold what a set of ids would, counted once each, across
    /// words and after a clear.
    #[test]
    fn marks_are_a_set_of_ids() {
        let mut m = Marks::default();
        assert!(m.is_empty() && !m.contains(&0));
        for id in [5, 64, 63, 1_000, 5] {
            m.insert(id);
        }
        assert_eq!(m.len(), 4);
        assert_eq!(m.iter().collect::<Vec<u32>>(), vec![5, 63, 64, 1_000]);
        assert!(m.contains(&1_000) && !m.contains(&999) && !m.contains(&1_000_000));
        m.clear();
        assert!(m.is_empty() && !m.contains(&5) && m.iter().next().is_none());
        m.extend([7, 7, 8]);
        assert_eq!(m.len(), 2);
    }

    /// A trace from ops: `Some(f)` enters function f, `None` leaves the
    /// top call; each op about a millisecond after the last.
    fn trace(ops: &[Option<u8>]) -> Profile {
        let ops: Vec<(Option<u8>, u8)> = ops.iter().map(|&op| (op, 1)).collect();
        profx_model::testing::trace_of(&ops, 5)
    }

    /// Bottom-up, the hot path follows the heaviest caller, whatever order
    /// the rows are sorted in.
    #[test]
    fn the_bottom_up_hot_path_follows_the_heaviest_caller() {
        // f0's self time: about 4 ms under f1, 1 ms under f2.
        let p = trace(&[
            Some(1),
            Some(0),
            Some(4),
            None,
            Some(4),
            None,
            Some(4),
            None,
            None,
            None,
            Some(2),
            Some(0),
            None,
            None,
        ]);
        let mut t = CallTree::new(&p, std::sync::Arc::new(TreeIndex::build(&p)));
        t.invert(&p);
        t.sort_by(&p, TreeCol::Name, true);
        let name = |t: &CallTree, i: usize| t.label(&p, t.rows[i].id).name(&p).to_string();
        let root = (0..t.rows.len())
            .find(|&i| name(&t, i) == "f0")
            .expect("f0's row");
        let end = t.hot_path(&p, root);
        assert_eq!(
            name(&t, end),
            "f1",
            "the heaviest caller, though f2 sorts first"
        );
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
    }

    fn open_everything(p: &Profile, t: &mut CallTree) {
        let mut i = 0;
        while i < t.rows.len() {
            t.expand(p, i);
            i += 1;
        }
    }

    proptest! {
        /// A node holds at least what its children hold; a root that is
        /// its function's only place holds that function's inclusive time;
        /// the tree turned over weighs what it weighed.
        #[test]
        fn tree_invariants(ops in proptest::collection::vec(proptest::option::weighted(0.6, 0u8..5), 0..200)) {
            let p = trace(&ops);
            let index = Arc::new(TreeIndex::build(&p));
            let mut t = CallTree::new(&p, Arc::clone(&index));
            open_everything(&p, &mut t);
            prop_assert_eq!(t.rows.len(), p.nodes().len());
            for (i, node) in p.nodes().iter().enumerate() {
                let n = NodeId::from_index(i);
                let total = index.weight(n);
                let kids: f64 = index.children().of(Some(n)).iter()
                    .map(|&k| index.weight(k)).sum();
                prop_assert!(total + 1e-9 >= kids, "node {i}: {total} < {kids}");
                let own = index.own(&p, n).unwrap_or(0.0);
                prop_assert!(close(total, own + kids));
                let only_root = p.nodes().iter().all(|m| m.func != node.func || m.parent().is_none());
                if node.parent().is_none() && only_root {
                    let f = p.function(node.func).time.elapsed_inclusive.unwrap_or(0.0);
                    prop_assert!(close(total, f), "root {i}: {total} vs {f}");
                }
            }
            let down = t.roots_total(&p);
            t.invert(&p);
            let up = t.roots_total(&p);
            prop_assert!(close(down, up), "{down} vs {up}");
            open_everything(&p, &mut t);
            // Under each bottom-up row, its callers hold no more than it.
            for r in 0..t.rows.len() {
                let id = t.rows[r].id;
                let v = t.values(&p, id).total.unwrap_or(0.0);
                let end = t.subtree_end(r);
                let kids: f64 = t.rows[r + 1..end].iter()
                    .filter(|k| k.depth == t.rows[r].depth + 1)
                    .map(|k| t.values(&p, k.id).total.unwrap_or(0.0)).sum();
                prop_assert!(kids <= v + 1e-9 * v.max(1.0));
            }
        }
    }

    proptest! {
        /// A search marks exactly the nodes of the functions it matched,
        /// and their share counts each marked node not under another one,
        /// as a walk up from every node finds them.
        #[test]
        fn marks_and_their_share(
            ops in proptest::collection::vec(proptest::option::weighted(0.6, 0u8..5), 0..200),
            wanted in proptest::collection::vec(proptest::bool::ANY, 5),
        ) {
            let p = trace(&ops);
            let index = Arc::new(TreeIndex::build(&p));
            let mut t = CallTree::new(&p, Arc::clone(&index));
            let hit = |f: FuncId| wanted.get(f.index()).copied().unwrap_or(false);
            let n = t.mark(&p, &hit);
            let want: Vec<u32> = (0..p.nodes().len() as u32)
                .filter(|&i| hit(p.node(NodeId::from_raw(i)).func))
                .collect();
            prop_assert_eq!(n, want.len());
            prop_assert_eq!(t.marked.iter().collect::<Vec<_>>(), want.clone());
            let sum: f64 = want
                .iter()
                .filter(|&&i| {
                    let mut at = p.node(NodeId::from_raw(i)).parent();
                    while let Some(q) = at {
                        if hit(p.node(q).func) {
                            return false;
                        }
                        at = p.node(q).parent();
                    }
                    true
                })
                .map(|&i| index.weight(NodeId::from_raw(i)))
                .sum();
            match t.marked_share(&p) {
                Some(share) => prop_assert!(close(share, t.percent(Some(sum)).unwrap_or(f64::NAN))),
                None => prop_assert!(want.is_empty() || t.percent(Some(sum)).is_none()),
            }
        }
    }

    /// A tree that weighs nothing has no percents (model.md: a total of
    /// zero gives none), not 0 %.
    #[test]
    fn no_percent_of_a_zero_total() {
        let mut b = ProfileBuilder::new("test");
        let a = profx_model::testing::new_function(&mut b, "a");
        let s = b.stack(&[a]);
        b.stack_summary(s, Some(1), Some(0.0), None);
        let p = b.finish();
        let t = CallTree::new(&p, Arc::new(TreeIndex::build(&p)));
        let v = t.values(&p, t.rows[0].id);
        assert_eq!(v.total, Some(0.0));
        assert_eq!(t.percent(v.total), None);
    }

    /// Opening every row shows every node (both ways round), each row's
    /// share of its parent being its total over its parent's; closing
    /// every row leaves the roots. A budget of rows opens whole levels
    /// only, as many as fit.
    #[test]
    fn open_every_and_close_every() {
        // f0 > f1 > f2 > f3, and f0 > f4, twice.
        let mut ops = Vec::new();
        for _ in 0..2 {
            ops.extend([Some(0), Some(1), Some(2), Some(3), None, None, None]);
            ops.extend([Some(4), None, None]);
        }
        let p = trace(&ops);
        let mut t = CallTree::new(&p, Arc::new(TreeIndex::build(&p)));
        let all = t.open_every(&p, OPEN_EVERY_ROWS);
        assert!(all.whole);
        assert_eq!((all.rows, all.levels), (p.nodes().len(), 3));
        for r in &t.rows {
            let v = t.values(&p, r.id);
            match t.parent(&p, r.id) {
                None => assert_eq!(v.parent_pct, None, "a root has no parent"),
                Some(q) => {
                    let want = pct(v.total, t.values(&p, q).total);
                    assert_eq!(v.parent_pct, want);
                }
            }
        }
        t.close_every(&p);
        assert!(t.rows.iter().all(|r| r.depth == 0));
        // Roots 1, then 2 children, then 1, then 1: a budget of 4 rows
        // holds two levels, not the third's row.
        let cut = t.open_every(&p, 4);
        assert_eq!((cut.rows, cut.levels, cut.whole), (4, 2, false));
        t.invert(&p);
        let up = t.open_every(&p, OPEN_EVERY_ROWS);
        assert!(up.whole && up.rows > t.children(&p, None).len());
        for r in t.rows.iter().filter(|r| r.depth == 1) {
            let v = t.values(&p, r.id);
            assert_eq!(v.parent_pct, v.share, "under a root, of func is of parent");
        }
    }

    /// The first level opened at once is every root opened one at a time;
    /// a budget of rows opens the first roots only, in order.
    #[test]
    fn roots_open_at_once_as_one_at_a_time() {
        let ops = [
            Some(0),
            Some(1),
            None,
            Some(2),
            None,
            None,
            Some(3),
            Some(1),
            None,
            None,
            Some(4),
            None,
        ];
        let p = trace(&ops);
        let index = Arc::new(TreeIndex::build(&p));
        let mut one_by_one = CallTree::new(&p, index.clone());
        for i in (0..one_by_one.rows.len()).rev() {
            one_by_one.expand(&p, i);
        }
        let mut at_once = CallTree::new(&p, index.clone());
        at_once.open_roots(&p, usize::MAX);
        assert_eq!(at_once.rows, one_by_one.rows);
        assert_eq!(at_once.rows.len(), 6);
        let mut first_only = CallTree::new(&p, index);
        first_only.open_roots(&p, 5);
        let first = first_only.rows[0].id;
        let kids = first_only.children(&p, Some(first)).len();
        assert_eq!(first_only.child_count(&p, first), kids);
        assert_eq!(first_only.rows.len(), 3 + kids);
        assert!(first_only.open.contains(&first));
    }

    /// Opening a node with many children and closing it again leaves the
    /// rows as they were; the selection's id survives a change of order.
    #[test]
    fn expand_collapse_and_order() {
        let mut ops = vec![Some(0)];
        for i in 0..300 {
            ops.extend([Some(1 + (i % 4) as u8), None]);
        }
        let p = trace(&ops);
        let index = Arc::new(TreeIndex::build(&p));
        let mut t = CallTree::new(&p, index);
        assert_eq!(t.rows.len(), 1);
        assert!(t.expand(&p, 0));
        assert_eq!(t.rows.len(), 5);
        assert!(!t.expand(&p, 0), "already open");
        // Heaviest first: the four children took 75 calls each, f1 first
        // by name among equals.
        let names: Vec<&str> = t.rows[1..]
            .iter()
            .map(|r| t.label(&p, r.id).name(&p))
            .collect();
        assert_eq!(names, ["f1", "f2", "f3", "f4"]);
        t.sort_by(&p, TreeCol::Name, true);
        let names: Vec<&str> = t.rows[1..]
            .iter()
            .map(|r| t.label(&p, r.id).name(&p))
            .collect();
        assert_eq!(names, ["f4", "f3", "f2", "f1"]);
        assert!(t.collapse(0));
        assert_eq!(t.rows.len(), 1);
        let end = t.hot_path(&p, 0);
        assert_eq!(t.rows[end].depth, 1, "the hot path ends on a child");
    }
}
