//! What the model states about calls beyond the stacks (model.md §
//! Calling-context tree, § Call graph): what a hit counts, the edges a
//! file states itself, and the time a stated inclusive value holds in
//! callees the file does not list.
//!
//! The checks of a stated tree live here, once, at `finish`: a node whose
//! stated inclusive time exceeds its own time and its listed children's
//! keeps the difference as unlisted time; one below it is a warning at its
//! row; a stack holding more self time than its function's stated
//! exclusive time is a warning naming both.

use super::ids::{FuncId, NodeId, StackId};
use super::profile::{Node, Stack};
use super::warning::{Place, WarningKind};
use super::{Function, Profile};

/// What a stack's hits count: the loader says so, never the format's
/// name. A trace, a VS instrumentation report and a PLIST stack count
/// calls (entries into exactly that path); a BR log and a VS sampling
/// report count samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HitsCount {
    /// Calls: entries into exactly that path.
    #[default]
    Calls,
    /// Samples: samples whose stack is exactly that path.
    Samples,
}

impl HitsCount {
    /// What hits count, in the word a heading or a message uses: `calls` or
    /// `samples`.
    pub fn name(self) -> &'static str {
        match self {
            HitsCount::Calls => "calls",
            HitsCount::Samples => "samples",
        }
    }
}

/// An edge of the call graph as a file states it (a VS caller/callee
/// report), where no stack says it.
#[derive(Clone, Debug, PartialEq)]
pub struct StatedEdge {
    /// The calling function.
    pub caller: FuncId,
    /// The function called.
    pub callee: FuncId,
    /// Calls of `callee` made from `caller`; `None` where the report counts
    /// samples or states none.
    pub calls: Option<u64>,
    /// Samples with `caller` directly above `callee`, in a sampling report;
    /// `None` otherwise.
    pub hits: Option<u64>,
    /// Time in `callee` and below while called from `caller`, in ms; `None`
    /// where the report states no time.
    pub elapsed_inclusive_ms: Option<f64>,
}

/// Two sums of the same times differ in their last bits: a difference
/// below this share of the larger is none.
pub fn noise(scale: f64) -> f64 {
    1e-9 * scale.abs().max(1.0)
}

/// A sum of stated times as a warning writes it: to the nanosecond, so
/// the float noise of a sum (7796.249999999999) does not show.
fn shown(ms: f64) -> f64 {
    (ms * 1e6).round() / 1e6
}

/// A warning about a stated tree: the source and place of the stack's row
/// where known, its kind, its message.
pub(crate) type StatedWarning = (Option<(usize, Place)>, WarningKind, String);

/// A stated tree's time in callees it does not list, by node (few: only
/// nodes whose stated inclusive exceeds what is listed under them), and
/// the warnings of values below what is listed.
#[derive(Default)]
pub(crate) struct Stated {
    pub unlisted: Vec<(NodeId, f64)>,
    pub warnings: Vec<StatedWarning>,
}

/// The rules above, over the finished tree. `place` says where a stack's
/// row is, when the loader said. Every sum is made in an order the node
/// ids do not set (children's totals sorted by value), and the warnings
/// come sorted, so two loaders of one file that made the nodes in other
/// orders give the same numbers and the same warnings.
pub(crate) fn check_stated(
    nodes: &[Node],
    stacks: &[Stack],
    functions: &[Function],
    (rounding, unit): (f64, super::TimeUnit),
    name: &dyn Fn(FuncId) -> String,
    place: &dyn Fn(StackId) -> Option<(usize, Place)>,
) -> Stated {
    let mut out = Stated {
        unlisted: Vec::new(),
        warnings: Vec::new(),
    };
    // Each node's root, made once a warning needs it: a path is named by
    // its root and its last three frames, so a warning costs the same on
    // a chain a million deep (and warnings on its every node no square).
    let roots: std::cell::OnceCell<Vec<u32>> = std::cell::OnceCell::new();
    let path = |n: NodeId| {
        let mut names = Vec::new();
        let mut at = Some(n);
        while let Some(x) = at.filter(|_| names.len() < 3) {
            names.push(name(nodes[x.index()].func));
            at = nodes[x.index()].parent();
        }
        if let Some(above) = at {
            let roots = roots.get_or_init(|| {
                let mut r = vec![0u32; nodes.len()];
                for (i, node) in nodes.iter().enumerate() {
                    r[i] = node.parent().map_or(i as u32, |q| r[q.index()]);
                }
                r
            });
            let root = NodeId(roots[above.index()]);
            if root != above {
                names.push("…".into());
            }
            names.push(name(nodes[root.index()].func));
        }
        names.reverse();
        names.join(" > ")
    };
    let mut warnings: Vec<StatedWarning> = Vec::new();
    // Each node's children as one list (start[i]..start[i + 1]); totals
    // from the last id, as children have larger ids than their parents.
    let n = nodes.len();
    let mut start = vec![0u32; n + 1];
    for node in nodes {
        if let Some(q) = node.parent() {
            start[q.index() + 1] += 1;
        }
    }
    for i in 1..=n {
        start[i] += start[i - 1];
    }
    // Filled through `start` itself, each slot moving one place down as
    // a child lands (no second array: a listing's millions of nodes are
    // all in memory at this moment), then moved back.
    let mut list = vec![0u32; start[n] as usize];
    for (i, node) in nodes.iter().enumerate() {
        if let Some(q) = node.parent() {
            list[start[q.index()] as usize] = i as u32;
            start[q.index()] += 1;
        }
    }
    for i in (1..=n).rev() {
        start[i] = start[i - 1];
    }
    start[0] = 0;
    let mut total = vec![0.0f64; n];
    let mut below: Vec<f64> = Vec::new();
    for (i, node) in nodes.iter().enumerate().rev() {
        let stack = node.stack().map(|s| &stacks[s.index()]);
        let own = stack.and_then(|s| s.self_ms).unwrap_or(0.0);
        below.clear();
        let kids = &list[start[i] as usize..start[i + 1] as usize];
        below.extend(kids.iter().map(|&c| total[c as usize]));
        below.sort_by(f64::total_cmp);
        let listed = below.iter().sum::<f64>() + own;
        let mut t = listed;
        if let Some(s) = stack
            && let Some(child) = s.child_ms
        {
            let stated = own + child;
            // Each value stated, this one and its children's, may be off
            // by the file's rounding.
            let slack = |x: f64| noise(x).max(rounding * (below.len() + 2) as f64);
            if stated.is_finite() {
                if stated - listed > slack(stated) {
                    out.unlisted.push((NodeId::from_index(i), stated - listed));
                    t = stated;
                } else if listed - stated > slack(listed) {
                    warnings.push((
                        node.stack().and_then(place),
                        WarningKind::StackBelowCallees,
                        format!(
                            "stack {}: stated inclusive time {} is below its own time and its listed callees' {}; the listed sum is used",
                            path(NodeId::from_index(i)),
                            shown(stated),
                            shown(listed)
                        ),
                    ));
                }
            }
        }
        total[i] = t;
    }
    out.unlisted.reverse();
    // A stack holding more self time than its function's stated exclusive.
    for (i, node) in nodes.iter().enumerate() {
        let Some(s) = node.stack() else { continue };
        let func = &functions[node.func.index()];
        if let (Some(excl), Some(own)) = (func.time.elapsed_exclusive, stacks[s.index()].self_ms)
            && own - excl > noise(own).max(2.0 * rounding)
        {
            warnings.push((
                place(s),
                WarningKind::StackAboveFunction,
                format!(
                    "stack {} holds {} {} of self time, more than {}'s exclusive time {}; the call tree shows the stack's time",
                    path(NodeId::from_index(i)),
                    shown(own),
                    unit.name(),
                    name(node.func),
                    shown(excl)
                ),
            ));
        }
    }
    warnings.sort_by(|a, b| a.2.cmp(&b.2));
    out.warnings = warnings;
    out
}

impl Profile {
    /// What a stack's hits count (the loader states it).
    pub fn hits_count(&self) -> HitsCount {
        self.hits_count
    }

    /// What the loader stated of its format's rows (`facts`).
    pub fn facts(&self) -> super::Facts {
        self.facts
    }

    /// The edges a file states itself (a VS caller/callee report); empty
    /// where the edges come from the stacks.
    pub fn stated_edges(&self) -> &[StatedEdge] {
        &self.stated_edges
    }

    /// Half the last digit the file writes a time with (0 where the loader
    /// did not say): sums of stated values that differ by less than that a
    /// value are rounding.
    pub fn stated_rounding(&self) -> f64 {
        self.stated_rounding
    }

    /// Whether the profile has times: some function's exclusive time or
    /// some stack's self time. O(1).
    pub fn has_times(&self) -> bool {
        self.measured.elapsed_exclusive || self.stack_times
    }

    /// Where the profile's times are whole nanoseconds (a timed sampled
    /// profile: model.md § Samples sums them so, and so does a query on
    /// it), how many of them a millisecond holds: every time derived from
    /// them is written at that resolution (`at_resolution`). `None` for
    /// every other profile.
    pub fn time_units_per_ms(&self) -> Option<f64> {
        (self.hits_count == HitsCount::Samples && self.has_times()).then_some(1e6)
    }

    /// `ms` as the profile's times are summed: rounded to a whole
    /// nanosecond where they are whole nanoseconds (a sum of ms read back
    /// from them otherwise shows binary noise: `437.09929999999997` for
    /// `437.0993`), as it is elsewhere.
    pub fn at_resolution(&self, ms: Option<f64>) -> Option<f64> {
        match self.time_units_per_ms() {
            Some(per) => ms.map(|x| (x * per).round() / per),
            None => ms,
        }
    }

    /// Time a node's stated inclusive value holds beyond its own and its
    /// listed children's: callees the file does not list, by node.
    pub fn unlisted(&self) -> &[(NodeId, f64)] {
        &self.unlisted
    }
}
