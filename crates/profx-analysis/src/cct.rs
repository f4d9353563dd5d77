//! The calling-context tree every view reads (model.md § Calling-context
//! tree): the model's nodes, each weighing its own stack's self weight,
//! and the nodes a view adds so that the tree holds every function's time:
//! - `(unlisted)` under a node whose stated inclusive time exceeds its own
//!   and its listed children's (`Profile::unlisted`): time in callees the
//!   file does not list;
//! - one root `(no call path)` holding, a child a function, the self
//!   weight no stack holds (a PLIST file with stacks for some functions,
//!   every function of a profile without call paths).
//!
//! A node's total is its own weight plus its children's totals, in every
//! view: the Call tree pane, the Flame pane, the folded and sampled
//! exports and `report --view tree` read these nodes and these numbers.
//! A trace's outside time is no node here: the flame and the exports draw
//! it as a root `(outside)` of their own (tui.md).
//!
//! Node ids: the model's nodes keep theirs (0..n); the added nodes follow,
//! each after its parent, so one pass from the last id adds every total
//! into its parent's.

use super::tree::Children;
use profx_model::graph::noise;
use profx_model::{FuncId, HitsCount, NodeId, Profile};

/// The name of the root holding self weight no stack holds.
pub const NO_CALL_PATH: &str = "(no call path)";
/// The name of a stated node's time in callees the file does not list.
pub const UNLISTED: &str = "(unlisted)";
/// The name of a trace's time with no call open.
pub const OUTSIDE: &str = "(outside)";

/// What a node of the views is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// A function's node.
    Func(FuncId),
    /// `(no call path)`: the root holding self weight no stack holds.
    NoCallPath,
    /// `(unlisted)`: time in callees the file does not list.
    Unlisted,
    /// `(outside)`: a trace's time with no call open (the flame and the exports
    /// only).
    Outside,
}

impl Label {
    /// The function, `None` for a node of the views.
    pub fn func(self) -> Option<FuncId> {
        match self {
            Label::Func(f) => Some(f),
            _ => None,
        }
    }

    /// The frame's name as every view writes it.
    pub fn name(self, p: &Profile) -> &str {
        match self {
            Label::Func(f) => p.function_name(f),
            Label::NoCallPath => NO_CALL_PATH,
            Label::Unlisted => UNLISTED,
            Label::Outside => OUTSIDE,
        }
    }

    /// The function's module, `""` for a node of the views.
    pub fn module(self, p: &Profile) -> &str {
        match self {
            Label::Func(f) => p.function_module(f),
            _ => "",
        }
    }
}

/// What the tree's weights count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weigh {
    /// Times, in the profile's unit (`Profile::time_unit`): the profile
    /// has times.
    Ms,
    /// Samples (hits count samples, no times).
    Hits,
    /// Calls (hits count calls, no times).
    Calls,
}

impl Weigh {
    /// Times where the profile has any; else what its hits count.
    pub fn of(p: &Profile) -> Weigh {
        match (p.has_times(), p.hits_count()) {
            (true, _) => Weigh::Ms,
            (false, HitsCount::Samples) => Weigh::Hits,
            (false, HitsCount::Calls) => Weigh::Calls,
        }
    }

    /// `--json`'s name of the unit: a time's is the profile's unit
    /// (`ms`, `ticks`).
    pub fn name(self, p: &Profile) -> &'static str {
        match self {
            Weigh::Ms => p.time_unit_name(),
            Weigh::Hits => "hits",
            Weigh::Calls => "calls",
        }
    }

    /// A function's own weight in this unit: what its row states.
    pub fn function(self, p: &Profile, f: FuncId) -> Option<f64> {
        let func = p.function(f);
        match self {
            Weigh::Ms => func.time.elapsed_exclusive,
            Weigh::Hits => func.hits_self.map(|h| h as f64),
            Weigh::Calls => func.calls.map(|c| c as f64),
        }
    }

    /// A model node's own weight: its stack's self time or count.
    fn node(self, p: &Profile, n: NodeId) -> Option<f64> {
        let s = p.stack(p.node(n).stack()?);
        match self {
            Weigh::Ms => s.self_ms,
            Weigh::Hits | Weigh::Calls => s.hits.map(|h| h as f64),
        }
    }

    /// A model node's own weight as the tree counts it: 0 for a node
    /// without a stack or with no finite value.
    pub fn own(self, p: &Profile, n: NodeId) -> f64 {
        self.node(p, n).filter(|w| w.is_finite()).unwrap_or(0.0)
    }

    /// What of `f`'s own value the stacks ending in it (holding `held`)
    /// leave: its node under `(no call path)`, if any.
    pub fn untraced(self, p: &Profile, f: FuncId, held: f64) -> Option<f64> {
        let w = self.function(p, f).filter(|w| w.is_finite())?;
        (w - held > noise(w)).then_some(w - held)
    }
}

const NO: u32 = u32::MAX;

/// An added node: its parent (`NO` for a root), what it is and its own
/// weight.
#[derive(Clone, Copy, Debug)]
struct Added {
    parent: u32,
    label: Label,
    own: f64,
}

/// The tree the views read: nodes, their own weights and totals.
///
/// A model node's own weight is its stack's, read from the profile when
/// asked, not kept: the tree of a large listing has millions of nodes, and
/// a copy of every own weight cost 9 bytes a node (issue 69).
#[derive(Debug)]
pub struct Cct {
    /// The unit every own weight and total is in.
    pub weigh: Weigh,
    /// The model's nodes: ids below this.
    model: usize,
    /// The first added nodes, weighed in time only: `p.unlisted()`, read
    /// from the profile, not copied (a listing states one a node).
    unlisted: usize,
    /// The other added nodes: `(no call path)` and its children.
    added: Vec<Added>,
    total: Vec<f64>,
    /// Each node's children by name (`label_rank`), ties by id: totals
    /// are summed in this order, so a profile's numbers do not hang on
    /// the order its nodes were made in (the same paths, the same bits).
    pub kids: Children,
    /// A trace's time with no call open, drawn beside the roots by the
    /// flame and the exports.
    pub outside: f64,
}

impl Cct {
    /// `p`'s tree, weighed in its own unit (`Weigh::of`).
    pub fn build(p: &Profile) -> Cct {
        Cct::build_as(p, Weigh::of(p))
    }

    /// The tree weighed in `weigh` (an export asked for calls, say).
    pub fn build_as(p: &Profile, weigh: Weigh) -> Cct {
        let model = p.nodes().len();
        // A model node's own weight; and each function's weight the stacks
        // ending in it hold.
        let own = |i: usize, node: &profx_model::Node| match node.stack() {
            Some(_) => weigh.own(p, NodeId::from_index(i)),
            None => 0.0,
        };
        let mut held = vec![0.0; p.functions().len()];
        for (i, node) in p.nodes().iter().enumerate() {
            held[node.func.index()] += own(i, node);
        }
        let unlisted = match weigh {
            Weigh::Ms => p.unlisted().len(),
            _ => 0,
        };
        let root = (model + unlisted) as u32;
        let mut added = vec![Added {
            parent: NO,
            label: Label::NoCallPath,
            own: 0.0,
        }];
        for f in p.function_ids() {
            if let Some(w) = weigh.untraced(p, f, held[f.index()]) {
                added.push(Added {
                    parent: root,
                    label: Label::Func(f),
                    own: w,
                });
            }
        }
        drop(held);
        if added.len() == 1 {
            added.clear();
        }
        added.shrink_to_fit();
        // Own weights, made totals below: sized once, never moved.
        let mut total = Vec::with_capacity(model + unlisted + added.len());
        total.extend(p.nodes().iter().enumerate().map(|(i, n)| own(i, n)));
        total.extend(p.unlisted()[..unlisted].iter().map(|u| u.1));
        total.extend(added.iter().map(|a| a.own));
        let mut t = Cct {
            weigh,
            model,
            unlisted,
            added,
            total: Vec::new(),
            kids: Children::default(),
            outside: 0.0,
        };
        t.kids = t.children(p, |l| label_rank(p, l));
        let kids = &t.kids;
        add_up(&mut total, |i| {
            kids.of(Some(NodeId::from_index(i)))
                .iter()
                .map(|c| c.index())
        });
        t.total = total;
        t.outside = match weigh {
            Weigh::Ms => p.totals.outside_ms.filter(|x| *x > 0.0).unwrap_or(0.0),
            _ => 0.0,
        };
        t
    }

    /// How many nodes, the added ones included.
    pub fn len(&self) -> usize {
        self.model + self.unlisted + self.added.len()
    }

    /// Whether the tree has no node.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `id` is one of the model's nodes.
    pub fn is_model(&self, id: u32) -> bool {
        (id as usize) < self.model
    }

    /// The node above `id`; `None` for a root.
    pub fn parent_of(&self, p: &Profile, id: u32) -> Option<u32> {
        match (id as usize).checked_sub(self.model) {
            None => p.node(NodeId::from_raw(id)).parent().map(|q| q.raw()),
            Some(k) => Some(self.added(p, k).parent).filter(|&q| q != NO),
        }
    }

    /// The `k`th added node.
    fn added(&self, p: &Profile, k: usize) -> Added {
        match k.checked_sub(self.unlisted) {
            None => {
                let (n, ms) = p.unlisted()[k];
                Added {
                    parent: n.raw(),
                    label: Label::Unlisted,
                    own: ms,
                }
            }
            Some(k) => self.added[k],
        }
    }

    /// What node `id` is: a function, or a node of the views.
    pub fn label(&self, p: &Profile, id: u32) -> Label {
        match (id as usize).checked_sub(self.model) {
            None => Label::Func(p.node(NodeId::from_raw(id)).func),
            Some(k) => self.added(p, k).label,
        }
    }

    /// The node's own weight; absent for a model node without a stack (a
    /// path that only leads to others) and for `(no call path)`.
    pub fn own(&self, p: &Profile, id: u32) -> Option<f64> {
        let n = NodeId::from_raw(id);
        match (id as usize).checked_sub(self.model) {
            None => p.node(n).stack().map(|_| self.weigh.own(p, n)),
            Some(k) => {
                let a = self.added(p, k);
                (a.label != Label::NoCallPath).then_some(a.own)
            }
        }
    }

    /// Its own weight plus its children's totals.
    pub fn total(&self, id: u32) -> f64 {
        self.total[id as usize]
    }

    /// How deep node `id` is: 1 for a root (and for an id past the end).
    pub fn depth(&self, p: &Profile, id: u32) -> usize {
        // An added node lies under a model node or `(no call path)`: a
        // step or two up to a node that knows its depth.
        let (mut at, mut above) = (id, 0);
        while (at as usize) < self.len() && !self.is_model(at) {
            match self.parent_of(p, at) {
                Some(q) => (at, above) = (q, above + 1),
                None => return above + 1,
            }
        }
        match self.is_model(at) {
            true => above + p.node(NodeId::from_raw(at)).depth(),
            false => above + 1,
        }
    }

    /// Every node's children, each list in `key`'s order (ties by id).
    pub fn children<K: Ord>(&self, p: &Profile, key: impl Fn(Label) -> K) -> Children {
        Children::from_parents(
            self.len(),
            |i| self.parent_of(p, i as u32).map(|q| q as usize),
            |i| key(self.label(p, i as u32)),
        )
    }

    /// The calls (or samples) of a node's path: its stack's hits.
    pub fn count(&self, p: &Profile, id: u32) -> Option<u64> {
        if !self.is_model(id) {
            return None;
        }
        p.node(NodeId::from_raw(id))
            .stack()
            .and_then(|s| p.stack(s).hits)
    }
}

/// Turns own weights into totals: each node's own weight plus its
/// children's totals, summed in the order `kids` gives them. Children have
/// larger ids than their parents: from the last id, every child's total is
/// made before its parent's. Every tree of the views sums so, so the same
/// paths give the same bits.
pub fn add_up<I: Iterator<Item = usize>>(weights: &mut [f64], kids: impl Fn(usize) -> I) {
    for i in (0..weights.len()).rev() {
        let below: f64 = kids(i).map(|c| weights[c]).sum();
        weights[i] += below;
    }
}

/// The order of labels: functions by (name, module), as the names' ranks
/// compare (no sort of every function first), then the views' own nodes.
pub fn label_rank(p: &Profile, l: Label) -> u64 {
    match l {
        Label::Func(f) => {
            // Two columns read, not the row: a sort of siblings calls this
            // for every comparison.
            let (t, i) = (p.functions(), f.index());
            let (name, module) = (p.name_rank(t.name(i)), p.name_rank(t.module(i)));
            // Ranks count from 0 up: a name's rank is below u32::MAX.
            (u64::from(name) << 32) | u64::from(module)
        }
        Label::NoCallPath => u64::MAX - 2,
        Label::Unlisted => u64::MAX - 1,
        Label::Outside => u64::MAX,
    }
}
