//! What the model states about calls beyond the stacks (model.md §
//! Calling-context tree, § Call graph): what a hit counts, the edges a
//! file states itself, and the time a stated inclusive value holds in
//! callees the file does not list.
//!
//! The checks of a stated tree live here, once, at `finish`: a node whose
//! stated inclusive time exceeds its own time and its listed children's
//! keeps the difference as unlisted time; one below it is a warning at its
//! row; a stack holding more self time than its function's stated
//! exclusive time is a warning naming both. Where the tree is what the
//! file states of its functions (a VS call tree), a difference within the
//! file's rounding goes to the node's own time and the functions' times
//! are summed from the nodes here too (`TreeRule`, model.md §
//! Calling-context tree, "One figure per function").

use super::Profile;
use super::ids::{FuncId, NodeId, StackId};
use super::profile::{Node, Stack};
use super::warning::{Place, WarningKind};

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
    /// `TreeRule::NodesAreFunctions`: each stack's numbers once its own
    /// time took the remainder within the rounding (self, child), and
    /// each function's (exclusive, inclusive) elapsed time summed from
    /// its nodes; both empty otherwise.
    pub stacks: Vec<(StackId, f64, f64)>,
    pub functions: Vec<(FuncId, f64, f64)>,
}

/// What a stated tree is to its functions' numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TreeRule {
    /// The file states its functions apart from its stacks (PLIST: a
    /// function's times are its own records, and its stacks may list only
    /// some of its calls): every stated number stands where the file wrote
    /// it, and a node's total within the rounding is its listed sum.
    #[default]
    FunctionsApart,
    /// The tree is what the file states of its functions (a VS call tree:
    /// a function is the sum of its rows). One figure per function in
    /// every view (model.md): a node's stated inclusive time stands, its
    /// own time takes what its listed children leave within the file's
    /// rounding (never below 0), and each function's exclusive time is its
    /// nodes' own times, its inclusive time its outermost nodes' totals.
    NodesAreFunctions,
}

/// Where each stack's row is (source and place, when the loader said),
/// and how many of the file's rows summed into it.
pub(crate) type StackFacts<'a> = (
    &'a dyn Fn(StackId) -> Option<(usize, Place)>,
    &'a dyn Fn(StackId) -> u32,
);

/// The rules above, over the finished tree. `place` says where a stack's
/// row is, when the loader said. Every sum is made in an order the node
/// ids do not set (children's totals sorted by value), and the warnings
/// come sorted, so two loaders of one file that made the nodes in other
/// orders give the same numbers and the same warnings.
pub(crate) fn check_stated(
    nodes: &[Node],
    stacks: &[Stack],
    functions: &crate::FunctionTable,
    (rounding, unit, rule): (f64, super::TimeUnit, TreeRule),
    name: &dyn Fn(FuncId) -> String,
    (place, rows): StackFacts<'_>,
) -> Stated {
    let mut out = Stated::default();
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
    // Each node's stated inclusive time, where it states one: a parent's
    // statement is held to its children's statements, never to their
    // listed sums, so a rounding of every row on a deep path does not add
    // up to a difference the file's rounding does not explain.
    let mut said: Vec<Option<f64>> = vec![None; n];
    // Each node's stack's own time, once a remainder went to it; `None`
    // where it states none.
    let mut own_of: Vec<Option<f64>> = vec![None; n];
    let (mut below, mut below_said): (Vec<f64>, Vec<f64>) = (Vec::new(), Vec::new());
    for (i, node) in nodes.iter().enumerate().rev() {
        let stack = node.stack().map(|s| &stacks[s.index()]);
        let own = stack.and_then(|s| s.self_ms).unwrap_or(0.0);
        let kids = &list[start[i] as usize..start[i + 1] as usize];
        below.clear();
        below.extend(kids.iter().map(|&c| total[c as usize]));
        below.sort_by(f64::total_cmp);
        below_said.clear();
        below_said.extend(
            kids.iter()
                .map(|&c| said[c as usize].unwrap_or(total[c as usize])),
        );
        below_said.sort_by(f64::total_cmp);
        let kids_total = below.iter().sum::<f64>();
        let listed = kids_total + own;
        let kids_said = below_said.iter().sum::<f64>();
        let compared = kids_said + own;
        // The file's rows behind these numbers: a path listed on several
        // rows sums them, and each row is rounded on its own.
        let kid_rows: u32 = kids
            .iter()
            .map(|&c| nodes[c as usize].stack().map_or(1, rows))
            .sum();
        let (mut t, mut mine) = (listed, own);
        if let Some(s) = stack
            && let (Some(self_ms), Some(child)) = (s.self_ms, s.child_ms)
            && (self_ms + child).is_finite()
        {
            let stated = self_ms + child;
            said[i] = Some(stated);
            // Each value stated, this one's (its inclusive and its own
            // time, on each of its rows) and its children's, may be off
            // by the file's rounding.
            let own_rows = node.stack().map_or(1, rows);
            let slack = |x: f64| noise(x).max(rounding * f64::from(kid_rows + 2 * own_rows));
            if stated - compared > slack(stated) {
                // Time in callees the file does not list: the node's total
                // is what the file states (plus what a child below its own
                // statement carries up, as in a listed sum).
                let unlisted = stated - compared;
                out.unlisted.push((NodeId::from_index(i), unlisted));
                t = listed + unlisted;
            } else if compared - stated > slack(compared) {
                warnings.push((
                    node.stack().and_then(place),
                    WarningKind::StackBelowCallees,
                    format!(
                        "stack {}: stated inclusive time {} is below its own time and its listed callees' {}; the listed sum is used",
                        path(NodeId::from_index(i)),
                        shown(stated),
                        shown(compared)
                    ),
                ));
            } else if rule == TreeRule::NodesAreFunctions {
                // Within the rounding: the stated inclusive time stands and
                // the node's own time is what its children's statements
                // leave of it, never below 0. A child whose total is not
                // its statement (a warning at its row) carries the
                // difference up, as a listed sum does.
                let left = (stated - kids_said).max(0.0);
                // A remainder of a float sum's noise is none: the file's
                // numbers stay as written.
                if (left - self_ms).abs() > noise(stated)
                    && let Some(id) = node.stack()
                {
                    (t, mine) = (left + kids_total, left);
                    out.stacks.push((id, mine, kids_total));
                }
            }
        }
        total[i] = t;
        own_of[i] = stack.and_then(|s| s.self_ms).map(|_| mine);
    }
    if rule == TreeRule::NodesAreFunctions {
        out.functions = function_sums(nodes, &own_of, &total, (&start, &list), functions.len());
    }
    out.unlisted.reverse();
    // A stack holding more self time than its function's stated exclusive.
    for (i, node) in nodes.iter().enumerate() {
        let Some(s) = node.stack() else { continue };
        let excl = functions.elapsed_exclusive(node.func.index());
        if let (Some(excl), Some(own)) = (excl, stacks[s.index()].self_ms)
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

/// Each function's elapsed (exclusive, inclusive) time from the tree: its
/// nodes' own times, and its outermost nodes' totals (those with no node
/// of the function above them: recursion counted once), for the functions
/// with a node whose stack states its own time. Each sum is made in value
/// order, not the node ids' (`check_stated`).
fn function_sums(
    nodes: &[Node],
    own: &[Option<f64>],
    total: &[f64],
    (start, list): (&[u32], &[u32]),
    functions: usize,
) -> Vec<(FuncId, f64, f64)> {
    // (function, value) pairs, one list for each time.
    let mut mine: Vec<(u32, f64)> = Vec::new();
    let mut outer: Vec<(u32, f64)> = Vec::new();
    // A walk from the roots, counting each function's nodes open above.
    let mut open = vec![0u32; functions];
    let mut todo: Vec<(u32, bool)> = (0..nodes.len() as u32)
        .filter(|&i| nodes[i as usize].parent().is_none())
        .map(|i| (i, true))
        .collect();
    while let Some((i, entering)) = todo.pop() {
        let node = &nodes[i as usize];
        let f = node.func.index();
        if !entering {
            open[f] -= 1;
            continue;
        }
        if let Some(v) = own[i as usize] {
            mine.push((f as u32, v));
        }
        if open[f] == 0 {
            outer.push((f as u32, total[i as usize]));
        }
        open[f] += 1;
        todo.push((i, false));
        let kids = &list[start[i as usize] as usize..start[i as usize + 1] as usize];
        todo.extend(kids.iter().map(|&c| (c, true)));
    }
    // Summed in value order within each function, not the walk's.
    let by_value = |a: &(u32, f64), b: &(u32, f64)| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1));
    let sums = |pairs: &mut Vec<(u32, f64)>| {
        pairs.sort_by(by_value);
        let mut out: Vec<Option<f64>> = vec![None; functions];
        for &(f, v) in pairs.iter() {
            let x = &mut out[f as usize];
            *x = Some(x.unwrap_or(0.0) + v);
        }
        out
    };
    let (mine, outer) = (sums(&mut mine), sums(&mut outer));
    (0..functions)
        .filter_map(|f| Some((FuncId::from_index(f), mine[f]?, outer[f].unwrap_or(0.0))))
        .collect()
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

#[cfg(test)]
mod tests {
    use super::TreeRule;
    use crate::{FuncId, FuncSummary, Profile, ProfileBuilder, TimeValues};

    /// A stated tree of (path, self, child) stacks, rounded to `rounding`
    /// a value, whose functions are `rule`'s.
    fn tree(rule: TreeRule, rounding: f64, rows: &[(&[&str], f64, f64)]) -> Profile {
        let mut b = ProfileBuilder::new("test");
        b.stated_rounding(rounding);
        b.tree_rule(rule);
        let m = b.intern("m");
        for (line, &(path, own, child)) in rows.iter().enumerate() {
            let frames: Vec<FuncId> = path
                .iter()
                .map(|n| {
                    let n = b.intern(n);
                    b.function(n, m)
                })
                .collect();
            let id = b.stack(&frames);
            b.stack_line(id, line as u64 + 1);
            b.stack_summary(id, Some(1), Some(own), Some(child));
            if rule == TreeRule::FunctionsApart {
                let f = *frames.last().expect("a frame");
                let time = TimeValues {
                    elapsed_exclusive: Some(own),
                    elapsed_inclusive: Some(own + child),
                    ..Default::default()
                };
                b.summary(
                    f,
                    FuncSummary {
                        time,
                        ..Default::default()
                    },
                );
            }
        }
        b.finish()
    }

    fn times(p: &Profile, name: &str) -> (Option<f64>, Option<f64>) {
        let f = p
            .function_ids()
            .find(|&f| p.function_name(f) == name)
            .expect("the function");
        let t = p.function(f).time;
        (t.elapsed_exclusive, t.elapsed_inclusive)
    }

    /// Within the rounding a row's inclusive time stands and its own time
    /// takes the remainder; the function's times are its nodes'.
    #[test]
    fn a_remainder_within_the_rounding_goes_to_the_nodes_own_time() {
        // Run states 80.70 with 1.30 of its own and 69.20 + 10.18 + 0.00
        // below: 0.02 left, within 0.005 for each of five values.
        let rows: &[(&[&str], f64, f64)] = &[
            (&["Main"], 19.30, 80.70),
            (&["Main", "Run"], 1.30, 79.40),
            (&["Main", "Run", "Load"], 69.20, 0.0),
            (&["Main", "Run", "Render"], 10.18, 0.0),
            (&["Main", "Run", "Resize"], 0.0, 0.0),
        ];
        let p = tree(TreeRule::NodesAreFunctions, 0.005, rows);
        assert!(p.warnings().is_empty() && p.unlisted().is_empty());
        let (excl, incl) = times(&p, "Run");
        assert!((incl.unwrap() - 80.70).abs() < 1e-9, "{incl:?}");
        assert!((excl.unwrap() - 1.32).abs() < 1e-9, "{excl:?}");
        // Functions apart (PLIST): the stated numbers stand.
        let p = tree(TreeRule::FunctionsApart, 0.005, rows);
        assert_eq!(times(&p, "Run"), (Some(1.30), Some(80.70)));
    }

    /// A path listed on several rows sums them, and each row carries the
    /// file's rounding: four rows of Main stating 1.00 each hold a child
    /// stating 4.03 (within 0.005 on each of nine values), where one row
    /// of 4.00 would not.
    #[test]
    fn a_path_on_many_rows_is_allowed_each_rows_rounding() {
        let four: &[(&[&str], f64, f64)] = &[
            (&["Main"], 0.0, 1.0),
            (&["Main"], 0.0, 1.0),
            (&["Main"], 0.0, 1.0),
            (&["Main"], 0.0, 1.0),
            (&["Main", "A"], 4.03, 0.0),
        ];
        let p = tree(TreeRule::NodesAreFunctions, 0.005, four);
        assert!(p.warnings().is_empty(), "{:?}", p.warnings());
        let one: &[(&[&str], f64, f64)] = &[(&["Main"], 0.0, 4.0), (&["Main", "A"], 4.03, 0.0)];
        let p = tree(TreeRule::NodesAreFunctions, 0.005, one);
        assert_eq!(p.warnings().len(), 1, "{:?}", p.warnings());
    }

    /// Children stating more than their parent (within the rounding) leave
    /// it no own time, never a negative one: their sum is its total.
    #[test]
    fn a_remainder_never_makes_an_own_time_negative() {
        let rows: &[(&[&str], f64, f64)] = &[
            (&["Main"], 0.0, 0.05),
            (&["Main", "A"], 0.03, 0.0),
            (&["Main", "B"], 0.03, 0.0),
        ];
        let p = tree(TreeRule::NodesAreFunctions, 0.005, rows);
        assert!(p.warnings().is_empty());
        let (excl, incl) = times(&p, "Main");
        assert_eq!(excl, Some(0.0));
        assert!((incl.unwrap() - 0.06).abs() < 1e-12, "{incl:?}");
    }

    /// A parent is held to its children's statements: rounding down a deep
    /// path is no unlisted time, and a row below its callees is warned
    /// about once, at that row, its difference carried up.
    #[test]
    fn statements_are_held_to_statements() {
        // C states 0.04 with eight rows of 0.00 below it (each up to half
        // a step); N states 0.05 with 0.00 of its own: within the
        // rounding of the statements, though C's listed sum is 0.
        let leaves: Vec<Vec<&str>> = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"]
            .iter()
            .map(|l| vec!["N", "C", l])
            .collect();
        let mut rows: Vec<(&[&str], f64, f64)> =
            vec![(&["N"], 0.0, 0.05), (&["N", "C"], 0.0, 0.04)];
        rows.extend(leaves.iter().map(|l| (l.as_slice(), 0.0, 0.0)));
        let p = tree(TreeRule::FunctionsApart, 0.005, &rows);
        assert!(p.warnings().is_empty() && p.unlisted().is_empty());
        let p = tree(TreeRule::NodesAreFunctions, 0.005, &rows);
        assert!(p.warnings().is_empty() && p.unlisted().is_empty());
        assert_eq!(times(&p, "N").1, Some(0.05));
        assert_eq!(times(&p, "C"), (Some(0.04), Some(0.04)));
        // Print states 100 below its 50 own and Fmt's 80; Main states
        // Print's 100 and 20 of its own: one warning, at Print's row.
        let rows: &[(&[&str], f64, f64)] = &[
            (&["Main"], 20.0, 100.0),
            (&["Main", "Print"], 50.0, 50.0),
            (&["Main", "Print", "Fmt"], 80.0, 0.0),
        ];
        let p = tree(TreeRule::NodesAreFunctions, 0.005, rows);
        assert_eq!(p.warnings().len(), 1, "{:?}", p.warnings());
        assert!(p.warnings()[0].message.contains("Main > Print"));
        assert_eq!(times(&p, "Print"), (Some(50.0), Some(130.0)));
        assert_eq!(times(&p, "Main"), (Some(20.0), Some(150.0)));
    }
}
