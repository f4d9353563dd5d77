//! The call graph (model.md § Call graph): an edge F → G where G is called
//! from F, with the values every view reads (the butterfly, `report
//! --json`'s `edges`, `report --view callers|callees`).
//!
//! From the calling-context tree, an edge is the pair (a node's parent's
//! function, its function), and its values are:
//! - `calls`, where hits count calls: the hits of the stacks ending in
//!   [.., F, G] (the entries into G from F), absent where no stack ends so;
//! - `hits`, where hits count samples: the samples under the outermost
//!   nodes [.., F, G] (no such node above them on their path), so a sample
//!   counts once however often F calls G on its stack;
//! - `elapsed_inclusive_ms`, where the profile has times: the totals
//!   (`cct::Cct`) of those outermost nodes, recursion counted once.
//!
//! A report that states its edges (a VS caller/callee report) has no
//! stacks: its edges are read as stated (`Profile::stated_edges`).
//!
//! The tree is walked once, depth first, keeping how many nodes of each
//! pair are open above the current one: O(nodes) hash lookups.

mod cols;

use super::cct::Label;
use super::cct::{Cct, Weigh};
use super::tree::{Subtree, SubtreeOf};
use cols::EdgeCols;
use profx_model::metrics::{add_count, add_opt};
use profx_model::{FuncId, HitsCount, NodeId, Profile};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::OnceLock;

/// An edge's values; absent where the profile has none of that kind.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EdgeValues {
    /// Calls of the callee made from the caller, where hits count calls; `None`
    /// for samples, and where no stack ends in the pair.
    pub calls: Option<u64>,
    /// Samples with the caller directly above the callee, each sample once,
    /// where hits count samples; `None` otherwise.
    pub hits: Option<u64>,
    /// Time in the callee and below while called from the caller, recursion
    /// counted once, in ms; `None` where the profile has no times.
    pub elapsed_inclusive_ms: Option<f64>,
}

/// One edge of the graph: `caller` calls `callee`.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphEdge {
    /// The calling function.
    pub caller: FuncId,
    /// The function called.
    pub callee: FuncId,
    /// What the edge holds.
    pub values: EdgeValues,
}

/// A row of a function's butterfly: a caller or callee, or what the
/// edges do not hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Who {
    /// A caller or callee: the function at the edge's other end.
    Func(FuncId),
    /// Callers' side: the calls (and time) that came from no caller.
    Root,
    /// Callees' side: the function's own time.
    SelfTime,
    /// Callees' side: time in callees the file does not list.
    Unlisted,
}

impl Who {
    /// The row's name: the function's, or `(root)`, `(self)`, `(unlisted)`.
    pub fn name(self, p: &Profile) -> &str {
        match self {
            Who::Func(f) => p.function_name(f),
            Who::Root => "(root)",
            Who::SelfTime => "(self)",
            Who::Unlisted => super::cct::UNLISTED,
        }
    }
}

/// One row of the butterfly: who, the edge's values, and the share of
/// the selected function's inclusive value it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    /// Whose row it is.
    pub who: Who,
    /// The edge's calls, or the `(root)` row's calls from no caller; `None`
    /// where none are counted (samples; the `(self)` and `(unlisted)` rows).
    pub calls: Option<u64>,
    /// The edge's samples, the `(root)` row's from no caller, or the `(self)`
    /// row's exclusive samples; `None` where none are counted.
    pub hits: Option<u64>,
    /// The edge's inclusive time, the `(root)` row's from no caller, the
    /// function's exclusive time, or the unlisted time, in ms; `None` where the
    /// profile has no times.
    pub time_ms: Option<f64>,
    /// Percent of the selected function's inclusive time (else its
    /// inclusive samples, else its calls).
    pub share: Option<f64>,
}

impl Edge {
    /// The neighbour function, none for the rows of what edges miss.
    pub fn func(&self) -> Option<FuncId> {
        match self.who {
            Who::Func(f) => Some(f),
            _ => None,
        }
    }
}

/// Every edge once, by column (`cols`), and each function's callers as a
/// range of indices into them (compressed sparse rows, issue 69: an edge
/// was kept three times, as an edge and as a row of both its functions'
/// lists). Its callees need no list: the edges are in their callers'
/// order, so a function's edges out are one run of them (`out_of`). A
/// function's butterfly (its edges as rows, with `(root)`, `(self)` and
/// `(unlisted)`, shares and order) is made when first asked and kept: a
/// person visits a few functions of millions.
#[derive(Debug, Default)]
pub struct CallGraph {
    /// In report-json.md's order: caller's (name, module), then callee's.
    edges: EdgeCols,
    /// `caller_edges[caller_at[f]..caller_at[f + 1]]`: the edges into `f`.
    caller_at: Vec<u32>,
    caller_edges: Vec<u32>,
    /// Functions with a node below another of their own (recursion,
    /// direct or through others): bit `f % 64` of word `f / 64`, an eighth
    /// of a `bool` a function.
    recursive: Vec<u64>,
    /// Each function's butterfly, once asked, in blocks of `BLOCK`
    /// functions' cells, a block made when one of its functions is first
    /// asked: a cell for every function cost 16 bytes a function, however
    /// few are visited.
    made: Vec<OnceLock<Box<Block>>>,
}

/// A function's callers and callees, as rows.
type Sides = (Vec<Edge>, Vec<Edge>);

/// How many functions' butterfly cells are made together.
const BLOCK: usize = 64;

/// The butterfly cells of `BLOCK` functions, by id.
type Block = [OnceLock<Box<Sides>>; BLOCK];

/// `flags` a bit each (`CallGraph::recursive`).
fn bits(flags: &[bool]) -> Vec<u64> {
    let mut words = vec![0u64; flags.len().div_ceil(64)];
    for (i, &on) in flags.iter().enumerate() {
        words[i / 64] |= u64::from(on) << (i % 64);
    }
    words
}

/// Compressed sparse rows of edges by one end (`key`: each edge's function
/// at that end): each function's start in the index list, and the list.
fn rows_by(n: usize, key: &[FuncId]) -> (Vec<u32>, Vec<u32>) {
    let mut at = vec![0u32; n + 1];
    for f in key {
        at[f.index() + 1] += 1;
    }
    for i in 0..n {
        at[i + 1] += at[i];
    }
    let mut next = at.clone();
    let mut list = vec![0u32; key.len()];
    for (i, f) in key.iter().enumerate() {
        let slot = &mut next[f.index()];
        list[*slot as usize] = i as u32;
        *slot += 1;
    }
    (at, list)
}

/// One function's butterfly: its callers and callees, and whether it
/// calls itself (then the rows' times overlap).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lists {
    /// Who calls the function, heaviest first, with `(root)` for calls from no
    /// caller.
    pub callers: Vec<Edge>,
    /// Whom it calls, heaviest first, with `(self)` and `(unlisted)`.
    pub callees: Vec<Edge>,
    /// Whether it has a node below another of its own: then the rows' times
    /// overlap.
    pub recursive: bool,
}

/// The nodes an edge's values are read from, walked depth first with
/// children by name (`cct::label_rank`, ties by id): the whole tree, or
/// only what lies at and below one function's nodes.
trait Walk {
    /// The roots of the walk, in order. The tree's own lists, borrowed
    /// (no list made a node); the views' added nodes in them are passed by.
    fn roots(&self) -> &[NodeId];
    /// A node's children, in order.
    fn kids(&self, n: NodeId) -> &[NodeId];
    /// A node's total (`Cct::total`).
    fn total(&self, n: NodeId) -> f64;
    /// The samples under a node, where hits count samples.
    fn hits(&self, n: NodeId) -> Option<u64>;
}

/// The stated edges `keep` accepts (a VS caller/callee report), a pair's
/// first statement only, in the order stated.
fn stated_sums(p: &Profile, keep: &dyn Fn(FuncId, FuncId) -> bool) -> EdgeCols {
    let mut sums = EdgeCols::default();
    let mut seen: FxHashSet<(FuncId, FuncId)> = FxHashSet::default();
    for e in p.stated_edges() {
        if keep(e.caller, e.callee) && seen.insert((e.caller, e.callee)) {
            let i = sums.push(e.caller, e.callee);
            let values = EdgeValues {
                calls: e.calls,
                hits: e.hits,
                elapsed_inclusive_ms: e.elapsed_inclusive_ms,
            };
            sums.add(i, values);
        }
    }
    sums
}

/// The edges of the pairs `keep` accepts, in the order the walk first
/// meets them, summed as it visits their nodes: a walk of only some nodes
/// visits them in the order the whole tree's does, so its sums are the
/// same to the bit.
fn edge_sums(
    p: &Profile,
    walk: &dyn Walk,
    timed: bool,
    keep: &dyn Fn(FuncId, FuncId) -> bool,
) -> (EdgeCols, Vec<bool>) {
    let mut sums = EdgeCols::default();
    // Each pair's edge: an index, not its values, so the map a pair costs
    // is a few bytes beside the columns.
    let mut edge: FxHashMap<(FuncId, FuncId), u32> = FxHashMap::default();
    let calls = p.hits_count() == HitsCount::Calls;
    // How many nodes of each pair, and of each function, are open above
    // the current one: a function entered while open is recursive.
    let mut open: FxHashMap<(FuncId, FuncId), u32> = FxHashMap::default();
    let mut open_funcs = vec![0u32; p.functions().len()];
    let mut recursive = vec![false; p.functions().len()];
    let model = p.nodes().len();
    let mut todo: Vec<(NodeId, bool)> = walk.roots().iter().rev().map(|&n| (n, true)).collect();
    while let Some((n, entering)) = todo.pop() {
        // `(unlisted)` and `(no call path)`: no edge is theirs.
        if n.index() >= model {
            continue;
        }
        let node = p.node(n);
        let pair = node
            .parent()
            .map(|q| (p.node(q).func, node.func))
            .filter(|&(f, g)| keep(f, g));
        let here = &mut open_funcs[node.func.index()];
        if !entering {
            *here = here.saturating_sub(1);
            // Only the open path's pairs are kept: a million edges walked
            // leave no million counts of zero behind.
            if let Some(pair) = pair
                && let Some(c) = open.get_mut(&pair)
            {
                *c -= 1;
                if *c == 0 {
                    open.remove(&pair);
                }
            }
            continue;
        }
        recursive[node.func.index()] |= *here > 0;
        *here += 1;
        if let Some(pair) = pair {
            let outermost = open.get(&pair).is_none_or(|&c| c == 0);
            let i = *edge
                .entry(pair)
                .or_insert_with(|| sums.push(pair.0, pair.1) as u32);
            let mut v = EdgeValues::default();
            if calls && let Some(s) = node.stack() {
                v.calls = p.stack(s).hits;
            }
            if outermost {
                v.hits = walk.hits(n);
                v.elapsed_inclusive_ms = timed.then(|| walk.total(n));
            }
            sums.add(i as usize, v);
            *open.entry(pair).or_default() += 1;
        }
        todo.push((n, false));
        todo.extend(walk.kids(n).iter().rev().map(|&c| (c, true)));
    }
    (sums, recursive)
}

/// The whole tree.
struct Whole<'a> {
    cct: &'a Cct,
    sub: Option<Subtree>,
}

impl Walk for Whole<'_> {
    fn roots(&self) -> &[NodeId] {
        self.cct.kids.of(None)
    }
    fn kids(&self, n: NodeId) -> &[NodeId] {
        self.cct.kids.of(Some(n))
    }
    fn total(&self, n: NodeId) -> f64 {
        self.cct.total(n.raw())
    }
    fn hits(&self, n: NodeId) -> Option<u64> {
        self.sub.as_ref().and_then(|s| s.hits[n.index()])
    }
}

/// The nodes at and below one function's: their totals made as `Cct`
/// makes them (own weight, then the children's totals by name, an
/// `(unlisted)` child last), without the rest of the tree.
struct Below {
    /// Node index → 1 + its place in `nodes`; 0 for a node not below.
    place: Vec<u32>,
    /// Each place's children in walk order.
    kids: Vec<Vec<NodeId>>,
    total: Vec<f64>,
    roots: Vec<NodeId>,
    sub: SubtreeOf,
}

impl Below {
    fn build(p: &Profile, f: FuncId, weigh: Weigh) -> Below {
        let on = super::tree::through(p, f);
        let mut place = vec![0u32; on.len()];
        let nodes: Vec<NodeId> = (0..on.len())
            .filter(|&i| on[i])
            .map(NodeId::from_index)
            .collect();
        for (k, n) in nodes.iter().enumerate() {
            place[n.index()] = u32::try_from(k + 1).unwrap_or(u32::MAX);
        }
        let at = |place: &[u32], n: NodeId| (place[n.index()] as usize).checked_sub(1);
        let mut kids: Vec<Vec<NodeId>> = vec![Vec::new(); nodes.len()];
        let mut roots = Vec::new();
        for &n in &nodes {
            match p.node(n).parent().filter(|&q| on[q.index()]) {
                Some(q) => kids[at(&place, q).unwrap_or(0)].push(n),
                None => roots.push(n),
            }
        }
        let rank = |n: NodeId| super::cct::label_rank(p, Label::Func(p.node(n).func));
        for list in &mut kids {
            list.sort_by_key(|&c| (rank(c), c));
        }
        // The topmost nodes in the whole walk's order: by their paths'
        // names, root first (a pre-order of children by name).
        let path = |n: NodeId| {
            let mut ranks = Vec::new();
            let mut x = Some(n);
            while let Some(y) = x {
                ranks.push((rank(y), y));
                x = p.node(y).parent();
            }
            ranks.reverse();
            ranks
        };
        roots.sort_by_cached_key(|&n| path(n));
        let mut unlisted: Vec<Option<f64>> = vec![None; nodes.len()];
        if weigh == Weigh::Ms {
            for &(n, ms) in p.unlisted() {
                if let Some(k) = at(&place, n) {
                    unlisted[k] = Some(ms);
                }
            }
        }
        let mut total = vec![0.0; nodes.len()];
        for k in (0..nodes.len()).rev() {
            let own = weigh.own(p, nodes[k]);
            let sum: f64 = kids[k]
                .iter()
                .filter_map(|&c| at(&place, c))
                .map(|c| total[c])
                .chain(unlisted[k])
                .sum();
            total[k] = own + sum;
        }
        let sub = match p.hits_count() {
            HitsCount::Samples => SubtreeOf::build(p, &on),
            HitsCount::Calls => SubtreeOf::default(),
        };
        Below {
            place,
            kids,
            total,
            roots,
            sub,
        }
    }

    fn at(&self, n: NodeId) -> Option<usize> {
        (self.place.get(n.index()).copied().unwrap_or(0) as usize).checked_sub(1)
    }
}

impl Walk for Below {
    fn roots(&self) -> &[NodeId] {
        &self.roots
    }
    fn kids(&self, n: NodeId) -> &[NodeId] {
        self.at(n).map_or(&[], |k| &self.kids[k])
    }
    fn total(&self, n: NodeId) -> f64 {
        self.at(n).map_or(0.0, |k| self.total[k])
    }
    fn hits(&self, n: NodeId) -> Option<u64> {
        self.sub.get(n.index()).0
    }
}

/// Every edge once, in report-json.md's order (caller's name and module,
/// then callee's), without the butterfly's lists: what `--json` prints.
pub fn edges(p: &Profile) -> Vec<GraphEdge> {
    let (found, _) = edges_of(p, &Cct::build(p));
    let edges = in_order(p, found);
    (0..edges.len()).map(|i| edges.get(i)).collect()
}

/// Every edge once, as found (`in_order` orders them), and which
/// functions recurse.
fn edges_of(p: &Profile, cct: &Cct) -> (EdgeCols, Vec<bool>) {
    match p.stated_edges().is_empty() {
        // A report states direct recursion only: an edge F → F.
        false => {
            let sums = stated_sums(p, &|_, _| true);
            let mut recursive = vec![false; p.functions().len()];
            for (&a, &b) in sums.callers().iter().zip(sums.callees()) {
                recursive[a.index()] |= a == b;
            }
            (sums, recursive)
        }
        true => {
            let sub = (p.hits_count() == HitsCount::Samples).then(|| Subtree::build(p));
            let whole = Whole { cct, sub };
            edge_sums(p, &whole, cct.weigh == Weigh::Ms, &|_, _| true)
        }
    }
}

/// The edges by caller's (name, module), then callee's. Indices are
/// sorted, not edges, and the columns moved one at a time after.
fn in_order(p: &Profile, edges: EdgeCols) -> EdgeCols {
    let rank = |f: FuncId| super::cct::label_rank(p, Label::Func(f));
    let (a, b) = (edges.callers(), edges.callees());
    // Each key made once: a rank reads the function table and the names'
    // ranks, and made in every comparison, millions of edges read them
    // n·log n times. The index last makes every key distinct: an unstable
    // sort then orders as a stable one would.
    let mut keyed: Vec<(u64, u64, u32)> = (0..edges.len())
        .map(|i| (rank(a[i]), rank(b[i]), i as u32))
        .collect();
    keyed.sort_unstable();
    let order: Vec<u32> = keyed.into_iter().map(|k| k.2).collect();
    edges.reordered(&order)
}

impl CallGraph {
    /// The whole graph of `p`: every edge, and every function's butterfly.
    pub fn build(p: &Profile) -> CallGraph {
        CallGraph::build_on(p, &Cct::build(p))
    }

    /// The graph of `p`, read from its tree already made (`Cct::build`):
    /// the app makes one tree for the graph and the Call tree, not two.
    pub fn build_on(p: &Profile, cct: &Cct) -> CallGraph {
        let (found, recursive) = edges_of(p, cct);
        let edges = in_order(p, found);
        let n = p.functions().len();
        let (caller_at, caller_edges) = rows_by(n, edges.callees());
        CallGraph {
            edges,
            caller_at,
            caller_edges,
            recursive: bits(&recursive),
            made: (0..n.div_ceil(BLOCK)).map(|_| OnceLock::new()).collect(),
        }
    }

    /// `f`'s butterfly rows, made from its edges when first asked (`p`:
    /// the profile the graph is of).
    fn made(&self, p: &Profile, f: FuncId) -> &Sides {
        static NONE: Sides = (Vec::new(), Vec::new());
        let i = f.index();
        // The last block has cells past the last function.
        let functions = self.caller_at.len().saturating_sub(1);
        let Some(block) = self.made.get(i / BLOCK).filter(|_| i < functions) else {
            return &NONE;
        };
        let block = block.get_or_init(|| Box::new(std::array::from_fn(|_| OnceLock::new())));
        block[i % BLOCK].get_or_init(|| Box::new(self.sides(p, f)))
    }

    /// `f`'s butterfly rows, from its edges.
    fn sides(&self, p: &Profile, f: FuncId) -> Sides {
        let (i, e) = (f.index(), &self.edges);
        let row_of = |k: usize, other: &[FuncId]| row(Who::Func(other[k]), e.values(k));
        let into = self.caller_at[i] as usize..self.caller_at[i + 1] as usize;
        let into = self.caller_edges[into].iter();
        let mut callers: Vec<Edge> = into.map(|&k| row_of(k as usize, e.callers())).collect();
        let out = self.out_of(p, f);
        let mut callees: Vec<Edge> = out.map(|k| row_of(k, e.callees())).collect();
        complete(p, f, Weigh::of(p), &mut callers, &mut callees);
        (callers, callees)
    }

    /// The edges out of `f`, in order: a run of the edges, which are in
    /// their callers' order (`in_order`), found by halving.
    fn out_of(&self, p: &Profile, f: FuncId) -> impl Iterator<Item = usize> + '_ {
        let rank = |g: FuncId| super::cct::label_rank(p, Label::Func(g));
        let (r, callers) = (rank(f), self.edges.callers());
        let start = callers.partition_point(|&g| rank(g) < r);
        let run = callers[start..].partition_point(|&g| rank(g) == r);
        // A run holds every function of `f`'s rank, should two share one.
        (start..start + run).filter(move |&k| callers[k] == f)
    }

    /// `f`'s butterfly alone, equal to `build`'s: the nodes at and below
    /// its own walked in the whole tree's order, summing only the pairs it
    /// is in, for a frame that must not wait for the whole graph.
    pub fn neighbours(p: &Profile, f: FuncId) -> Lists {
        let weigh = Weigh::of(p);
        let keep = |a: FuncId, b: FuncId| a == f || b == f;
        let (sums, recursive) = match p.stated_edges().is_empty() {
            false => {
                let sums = stated_sums(p, &keep);
                let (a, b) = (sums.callers(), sums.callees());
                let direct = a.iter().zip(b).any(|(&a, &b)| a == f && b == f);
                (sums, direct)
            }
            true => {
                let below = Below::build(p, f, weigh);
                let (sums, recursive) = edge_sums(p, &below, weigh == Weigh::Ms, &keep);
                (sums, recursive[f.index()])
            }
        };
        let edges = in_order(p, sums);
        let mut lists = Lists {
            recursive,
            ..Lists::default()
        };
        for k in 0..edges.len() {
            let GraphEdge {
                caller: a,
                callee: b,
                values: v,
            } = edges.get(k);
            if a == f {
                lists.callees.push(row(Who::Func(b), v));
            }
            if b == f {
                lists.callers.push(row(Who::Func(a), v));
            }
        }
        complete(p, f, weigh, &mut lists.callers, &mut lists.callees);
        lists
    }

    /// How many edges the graph has.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Edge `i` of `edges`' order, put together from its columns. Panics
    /// past the end, as indexing a slice does.
    pub fn edge(&self, i: usize) -> GraphEdge {
        self.edges.get(i)
    }

    /// Every edge once, callers by (name, module), then callees.
    pub fn edges(&self) -> impl ExactSizeIterator<Item = GraphEdge> + '_ {
        (0..self.edges.len()).map(|i| self.edges.get(i))
    }

    /// Who calls `f`, heaviest first, with `(root)` for calls from none
    /// (`p`: the profile the graph is of).
    pub fn callers(&self, p: &Profile, f: FuncId) -> &[Edge] {
        &self.made(p, f).0
    }

    /// Whom `f` calls, heaviest first, with `(self)` and `(unlisted)`.
    pub fn callees(&self, p: &Profile, f: FuncId) -> &[Edge] {
        &self.made(p, f).1
    }

    /// Whether `f` has a node below another of its own (directly or
    /// through others; a report states direct recursion only): then its
    /// rows' times overlap, as pprof's `-peek` says.
    pub fn recursive(&self, f: FuncId) -> bool {
        let i = f.index();
        let word = self.recursive.get(i / 64).copied().unwrap_or(0);
        word >> (i % 64) & 1 == 1
    }

    /// `f`'s butterfly, as `neighbours` gives it.
    pub fn lists(&self, p: &Profile, f: FuncId) -> Lists {
        Lists {
            callers: self.callers(p, f).to_vec(),
            callees: self.callees(p, f).to_vec(),
            recursive: self.recursive(f),
        }
    }
}

/// What a butterfly's shares are of: the inclusive time, else the
/// inclusive samples, else the calls (the tree's unit).
pub fn share_base(w: Weigh) -> &'static str {
    match w {
        Weigh::Ms => "elapsed_inclusive_ms",
        Weigh::Hits => "hits_total",
        Weigh::Calls => "calls",
    }
}

/// What a profile's hits are called in a column's heading.
pub fn count_name(p: &Profile) -> &'static str {
    p.hits_count().name()
}

fn row(who: Who, v: EdgeValues) -> Edge {
    Edge {
        who,
        calls: v.calls,
        hits: v.hits,
        time_ms: v.elapsed_inclusive_ms,
        share: None,
    }
}

/// The sum of a side's edges' values, but `f`'s edge to itself (a
/// function's calls of itself are inside its inclusive value).
fn others(list: &[Edge], f: FuncId, value: impl Fn(&Edge) -> Option<f64>) -> Option<f64> {
    list.iter()
        .filter(|e| matches!(e.who, Who::Func(g) if g != f))
        .map(value)
        .fold(None, add_opt)
}

/// What is left of `whole` once `part` is taken, if it is more than the
/// file's rounding of the values summed (half its last digit each) and
/// the noise of a float sum.
fn left(whole: Option<f64>, part: Option<f64>, rounding: f64, values: usize) -> Option<f64> {
    let whole = whole?;
    let rest = whole - part.unwrap_or(0.0);
    let slack = profx_model::graph::noise(whole).max(rounding * (values + 1) as f64);
    (rest > slack).then_some(rest)
}

/// Adds a function's `(root)`, `(self)` and `(unlisted)` rows (model.md §
/// Call graph), fills the shares (of its inclusive value) and orders each
/// side heaviest first, ties by name, module and id: a total order, so a
/// list comes out the same whatever order its edges were found in.
fn complete(
    p: &Profile,
    f: FuncId,
    weigh: Weigh,
    callers: &mut Vec<Edge>,
    callees: &mut Vec<Edge>,
) {
    let func = p.function(f);
    let rounding = p.stated_rounding();
    let incl = func.time.elapsed_inclusive;
    let hits_total = func.hits_total.map(|h| h as f64);
    // Calls from no caller: the function's calls its edges leave (its
    // calls of itself included: they came from it).
    let edge_calls: Option<u64> = callers.iter().map(|e| e.calls).fold(None, add_count);
    let root = Edge {
        who: Who::Root,
        calls: match (func.calls, edge_calls) {
            (Some(c), Some(e)) => c.checked_sub(e).filter(|&r| r > 0),
            (Some(c), None) => Some(c).filter(|&c| c > 0),
            _ => None,
        },
        hits: left(
            hits_total,
            others(callers, f, |e| e.hits.map(|h| h as f64)),
            0.0,
            0,
        )
        .map(|h| h.round() as u64),
        time_ms: left(
            incl,
            others(callers, f, |e| e.time_ms),
            rounding,
            callers.len(),
        ),
        share: None,
    };
    if root.calls.is_some() || root.time_ms.is_some() || root.hits.is_some() {
        callers.push(root);
    }
    let self_time = func.time.elapsed_exclusive;
    if self_time.is_some_and(|t| t > 0.0) || func.hits_self.is_some_and(|h| h > 0) {
        callees.push(Edge {
            who: Who::SelfTime,
            calls: None,
            hits: func.hits_self,
            time_ms: self_time,
            share: None,
        });
    }
    // Time in callees no edge holds: a stated tree's unlisted time, or a
    // file's callees with no call path.
    let held = add_opt(self_time, others(callees, f, |e| e.time_ms));
    if let Some(u) = left(incl, held, rounding, callees.len()) {
        callees.push(Edge {
            who: Who::Unlisted,
            calls: None,
            hits: None,
            time_ms: Some(u),
            share: None,
        });
    }
    let value = |e: &Edge| match weigh {
        Weigh::Ms => e.time_ms,
        Weigh::Hits => e.hits.map(|h| h as f64),
        Weigh::Calls => e.calls.map(|c| c as f64),
    };
    let base = match weigh {
        Weigh::Ms => incl,
        Weigh::Hits => hits_total,
        Weigh::Calls => func.calls.map(|c| c as f64),
    };
    for list in [callers, callees] {
        for e in list.iter_mut() {
            e.share = profx_model::metrics::pct(value(e), base);
        }
        let w = |e: &Edge| value(e).unwrap_or(f64::NEG_INFINITY);
        let key = |e: &Edge| match e.who {
            Who::Func(g) => (0, p.function_name(g), p.function_module(g), g.index()),
            other => (1, other.name(p), "", 0),
        };
        list.sort_by(|a, b| w(b).total_cmp(&w(a)).then_with(|| key(a).cmp(&key(b))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use profx_model::ProfileBuilder;

    /// The values of the edge `a` → `b`, which must exist.
    fn edge(g: &CallGraph, a: FuncId, b: FuncId) -> EdgeValues {
        let mut all = g.edges();
        let e = all.find(|e| e.caller == a && e.callee == b);
        e.expect("the edge exists").values
    }

    fn funcs(b: &mut ProfileBuilder, names: &[&str]) -> Vec<FuncId> {
        let m = b.intern("");
        names
            .iter()
            .map(|n| {
                let n = b.intern(n);
                b.function(n, m)
            })
            .collect()
    }

    /// Calls are the entries of the stacks ending in the pair, not every
    /// path under it; time is the outermost nodes' totals.
    #[test]
    fn calls_are_the_stacks_ending_in_the_pair() {
        // main (1 call) > a (3 calls) > c (30 calls), main > b > c.
        let mut b = ProfileBuilder::new("test");
        let ids = funcs(&mut b, &["main", "a", "b", "c"]);
        let (main, a, bb, c) = (ids[0], ids[1], ids[2], ids[3]);
        for (path, hits, ms) in [
            (vec![main], 1, 1.0),
            (vec![main, a], 3, 2.0),
            (vec![main, a, c], 30, 30.0),
            (vec![main, bb], 1, 0.0),
            (vec![main, bb, c], 10, 10.0),
        ] {
            let s = b.stack(&path);
            b.stack_summary(s, Some(hits), Some(ms), None);
        }
        let p = b.finish();
        let g = CallGraph::build(&p);
        assert_eq!(edge(&g, main, a).calls, Some(3));
        assert_eq!(edge(&g, main, a).elapsed_inclusive_ms, Some(32.0));
        assert_eq!(edge(&g, a, c).calls, Some(30));
        let callers: Vec<_> = g.callers(&p, c).iter().map(|e| (e.who, e.calls)).collect();
        assert_eq!(
            callers,
            [(Who::Func(a), Some(30)), (Who::Func(bb), Some(10))]
        );
        assert!(g.callers(&p, main).iter().all(|e| e.who == Who::Root));
    }

    /// A recursive pair's time is its outermost node's: once.
    #[test]
    fn recursion_counts_an_edges_time_once() {
        // a > b > a > b, each 1 ms of self.
        let mut b = ProfileBuilder::new("test");
        let ids = funcs(&mut b, &["a", "b"]);
        let (a, bb) = (ids[0], ids[1]);
        for path in [vec![a], vec![a, bb], vec![a, bb, a], vec![a, bb, a, bb]] {
            let s = b.stack(&path);
            b.stack_summary(s, Some(1), Some(1.0), None);
        }
        let p = b.finish();
        let ab = edge(&CallGraph::build(&p), a, bb);
        assert_eq!(ab.calls, Some(2));
        assert_eq!(ab.elapsed_inclusive_ms, Some(3.0));
    }

    /// A function's recursion is read back whatever its id: the flags are
    /// bits of words.
    #[test]
    fn recursion_is_kept_for_every_id() {
        let mut b = ProfileBuilder::new("test");
        let names: Vec<String> = (0..130).map(|i| format!("f{i}")).collect();
        let ids = funcs(
            &mut b,
            &names.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        for path in [vec![ids[0]], vec![ids[0], ids[129], ids[64], ids[129]]] {
            let s = b.stack(&path);
            b.stack_summary(s, Some(1), Some(1.0), None);
        }
        let p = b.finish();
        let g = CallGraph::build(&p);
        let recursive: Vec<usize> = p
            .function_ids()
            .filter(|&f| g.recursive(f))
            .map(|f| f.index())
            .collect();
        assert_eq!(recursive, [129]);
        assert!(!g.recursive(FuncId::from_index(130)));
    }

    /// Recursion through another function: B below A below B. Its
    /// callers' times nest (the graph says so), and B → A's time counts
    /// the outer A only.
    #[test]
    fn recursion_through_another_function_is_recursion() {
        let mut b = ProfileBuilder::new("test");
        let ids = funcs(&mut b, &["main", "a", "b"]);
        let (main, a, bb) = (ids[0], ids[1], ids[2]);
        for path in [
            vec![main],
            vec![main, bb],
            vec![main, bb, a],
            vec![main, bb, a, bb],
            vec![main, bb, a, bb, a],
        ] {
            let s = b.stack(&path);
            b.stack_summary(s, Some(1), Some(1.0), None);
        }
        let p = b.finish();
        let g = CallGraph::build(&p);
        assert!(g.recursive(bb) && g.recursive(a));
        assert!(!g.recursive(main));
        assert!(CallGraph::neighbours(&p, bb).recursive);
        let ba = edge(&g, bb, a);
        assert_eq!(ba.calls, Some(2));
        assert_eq!(ba.elapsed_inclusive_ms, Some(3.0));
    }

    /// Where hits count samples, an edge counts each sample once, however
    /// often its stack holds the caller directly above the callee.
    #[test]
    fn a_sample_counts_once_on_an_edge() {
        let mut b = ProfileBuilder::new("test");
        let ids = funcs(&mut b, &["a", "b"]);
        let (a, bb) = (ids[0], ids[1]);
        let line = b.intern("x");
        let l = b.line(line, 1, Some(a));
        // Three samples: a>b>a>b (twice) and a>b.
        for (frames, n) in [(vec![a, bb, a, bb], 2), (vec![a, bb], 1)] {
            let s = b.stack(&frames);
            for _ in 0..n {
                b.add_stack_sample(s, Some(1_000_000), Some(l));
            }
        }
        let p = b.finish();
        assert_eq!(p.hits_count(), HitsCount::Samples);
        let ab = edge(&CallGraph::build(&p), a, bb);
        assert_eq!(ab.hits, Some(3), "each sample once");
        assert_eq!(ab.calls, None, "samples are no calls");
        assert_eq!(ab.elapsed_inclusive_ms, Some(3.0));
    }

    /// One function's lists equal the whole graph's, for every function of
    /// a generated profile (300 functions in 300 random stacks).
    #[test]
    fn one_functions_neighbours_equal_the_graphs() {
        let p = profx_fixtures::large::profile(300);
        let g = CallGraph::build(&p);
        for f in p.function_ids() {
            assert_eq!(CallGraph::neighbours(&p, f), g.lists(&p, f), "{f:?}");
        }
        assert!(p.function_ids().any(|f| !g.callers(&p, f).is_empty()));
        // In the last block of cells, past the last function: no rows.
        let past = FuncId::from_index(p.functions().len());
        assert!(!p.functions().len().is_multiple_of(BLOCK) && g.callers(&p, past).is_empty());
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
        let order: Vec<Option<FuncId>> = g.callers(&p, callee).iter().map(|e| e.func()).collect();
        assert_eq!(order, [Some(callers[1]), Some(callers[0])]);
        assert_eq!(
            CallGraph::neighbours(&p, callee).callers,
            g.callers(&p, callee)
        );
    }
}
