//! Rows → model: times and totals recovered as formats.md § vs-csv says,
//! then the three report kinds (function summary, call tree, caller/callee).

use super::table::{AVG, Columns, MAX, MIN, PCT, Row, TIME, VALUES};
use crate::problem::Problem;
use profx_model::graph::TreeRule;
use profx_model::metrics::add_opt;
use profx_model::{
    FuncId, FuncSummary, NodeId, PerCall, Percents, Place, ProfileBuilder, StackId, TimeValues,
    WarningKind,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// The report kinds, from the columns present (meta `report`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ReportKind {
    Function,
    CallTree,
    CallerCallee,
}

impl ReportKind {
    pub(super) fn of(cols: &Columns) -> ReportKind {
        match (cols.level, cols.kind) {
            (Some(_), _) => ReportKind::CallTree,
            (None, Some(_)) => ReportKind::CallerCallee,
            (None, None) => ReportKind::Function,
        }
    }

    pub(super) fn meta(self) -> &'static str {
        match self {
            ReportKind::Function => "function",
            ReportKind::CallTree => "calltree",
            ReportKind::CallerCallee => "callercallee",
        }
    }

    /// Rows whose values add up to the session when no percent says it.
    fn counts_in_sum(self, r: &Row) -> bool {
        match self {
            ReportKind::Function => true,
            ReportKind::CallTree => r.level == Some(1),
            ReportKind::CallerCallee => r.kind == Some(0),
        }
    }
}

/// A parsed line: a row, or why it could not be used.
pub(super) enum Parsed {
    Row(Box<Row>),
    Bad {
        line: u64,
        level: Option<u32>,
        why: Problem,
    },
}

impl Parsed {
    /// The row, if this is a usable row of that type.
    fn row_of_kind(&self, kind: u8) -> Option<&Row> {
        match self {
            Parsed::Row(r) if r.kind == Some(kind) => Some(&**r),
            _ => None,
        }
    }
}

/// A row's four values: times in ms, or percents when the file has only those.
#[derive(Clone, Copy, Default)]
struct Values {
    v: [Option<f64>; 4],
    hits: [Option<u64>; 2],
}

/// How the file states one pair (elapsed or application).
#[derive(Clone, Copy, PartialEq)]
enum Stated {
    Times,
    AvgAndPercent,
    PercentOnly,
    Absent,
}

fn stated(cols: &Columns, pair: usize) -> Stated {
    let (incl, excl) = (cols.values[2 * pair], cols.values[2 * pair + 1]);
    if incl.time.or(excl.time).is_some() {
        Stated::Times
    } else if incl.avg.is_some() && cols.calls.is_some() && incl.pct.is_some() {
        Stated::AvgAndPercent
    } else if incl.pct.or(excl.pct).is_some() {
        Stated::PercentOnly
    } else {
        Stated::Absent
    }
}

/// The row with the largest `value` among those with a nonzero `pct`,
/// scaled to 100 %: the session total that percent implies.
fn implied_total(
    rows: &[&Row],
    value: impl Fn(&Row) -> Option<f64>,
    pct: impl Fn(&Row) -> Option<f64>,
) -> Option<f64> {
    rows.iter()
        .filter_map(|r| Some((value(r)?, pct(r).filter(|p| *p != 0.0)?)))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(v, p)| v * 100.0 / p)
}

/// Session total of a pair (elapsed or application).
fn pair_total(
    rows: &[&Row],
    kind: ReportKind,
    pair: usize,
    how: Stated,
    has_pct: bool,
) -> Option<f64> {
    let (i, e) = (2 * pair, 2 * pair + 1);
    match how {
        Stated::Times if has_pct => {
            implied_total(rows, |r| r.values[i][TIME], |r| r.values[i][PCT])
        }
        Stated::Times => {
            let v = if kind == ReportKind::CallTree { i } else { e };
            rows.iter()
                .filter(|r| kind.counts_in_sum(r))
                .map(|r| r.values[v][TIME])
                .fold(None, add_opt)
        }
        Stated::AvgAndPercent => implied_total(
            rows,
            |r| Some(r.values[i][AVG]? * r.calls? as f64),
            |r| r.values[i][PCT],
        ),
        Stated::PercentOnly | Stated::Absent => None,
    }
}

/// One value of a row under how its pair is stated.
fn value(r: &Row, v: usize, how: Stated, total: Option<f64>) -> Option<f64> {
    let [time, pct, avg, ..] = r.values[v];
    match how {
        Stated::Times => time,
        // Percent × total is more precise than the rounded averages.
        Stated::AvgAndPercent => match (pct, total) {
            (Some(p), Some(t)) => Some(p * t / 100.0),
            _ => Some(avg? * r.calls? as f64),
        },
        Stated::PercentOnly => pct,
        Stated::Absent => None,
    }
}

/// Builds the profile from the parsed rows; `half_digit` is half the last
/// digit the file writes a time with, in the profile's unit.
pub(super) fn build(parsed: Vec<Parsed>, cols: &Columns, half_digit: f64, b: &mut ProfileBuilder) {
    let kind = ReportKind::of(cols);
    let rows: Vec<&Row> = parsed
        .iter()
        .filter_map(|p| {
            if let Parsed::Row(r) = p {
                Some(&**r)
            } else {
                None
            }
        })
        .collect();
    let how = [stated(cols, 0), stated(cols, 1)];
    let totals =
        [0, 1].map(|p| pair_total(&rows, kind, p, how[p], cols.values[2 * p].pct.is_some()));
    // A sampling report's hits are samples; an instrumentation report's
    // stacks count calls.
    if cols.samples[0].is_some() && cols.calls.is_none() {
        b.hits_count(profx_model::HitsCount::Samples);
    }
    // How finely a time is stated: to its last digit as written (a
    // hundredth of a ms, a whole tick), or to the hundredth of a percent
    // of the session when recovered from percents (the IDE's export), so
    // a row and its children's rows differ by half of that each in
    // rounding alone.
    b.stated_rounding(match (how[0], totals[0]) {
        (Stated::AvgAndPercent, Some(t)) => t * 0.005 / 100.0,
        _ => half_digit,
    });
    let t = b.totals_mut();
    t.elapsed_inclusive_ms = totals[0];
    t.application_inclusive_ms = totals[1];
    t.samples = sample_total(&rows, cols, kind);
    let values_of = |r: &Row| Values {
        v: [0, 1, 2, 3].map(|v| value(r, v, how[v / 2], totals[v / 2])),
        hits: [r.samples[0], r.samples[1]].map(|s| s.map(|x| x.round() as u64)),
    };
    for r in &rows {
        if let Some(text) = &r.start_unread {
            let msg = format!(
                "function line number {:?} is no line number; the function's start left out",
                profx_model::text::visible(text)
            );
            b.warn(Place::Line(r.line), WarningKind::NotANumber, msg);
        }
        for (why, derived) in impossible(r, &values_of(r)) {
            // A call tree's stack derives its child time from this pair
            // (`Assembler::stack_values`), which would be negative.
            let child = match derived && kind == ReportKind::CallTree {
                true => ", and the stack's child time (inclusive less exclusive) left out",
                false => "",
            };
            let msg = format!("{why}; kept as the file states it{child}");
            b.warn(Place::Line(r.line), WarningKind::ImpossibleValue, msg);
        }
    }
    let percent_only = how.map(|h| h == Stated::PercentOnly);
    let mut asm = Assembler { b, percent_only };
    match kind {
        ReportKind::Function => {
            for p in &parsed {
                match p {
                    Parsed::Row(r) => {
                        let f = asm.func(r);
                        asm.add(f, r, values_of(r), true);
                    }
                    Parsed::Bad { line, why, .. } => {
                        let msg = format!("{why}; row skipped");
                        asm.b.warn(Place::Line(*line), why.kind, msg);
                    }
                }
            }
        }
        ReportKind::CallTree => {
            // A function of a call tree is the sum of its rows: its
            // elapsed times are its nodes', summed by the model's one rule
            // for a stated tree (model.md § Calling-context tree).
            asm.b.tree_rule(TreeRule::NodesAreFunctions);
            asm.call_tree(&parsed, values_of)
        }
        ReportKind::CallerCallee => asm.caller_callee(&parsed, values_of),
    }
}

/// What cannot be true of a row: the reasons, each kept as the file
/// states it (formats.md), so that nothing odd goes by unsaid; true beside
/// the elapsed exclusive time above the inclusive, from which a negative
/// child time would be derived.
fn impossible(r: &Row, x: &Values) -> Vec<(String, bool)> {
    let mut why = Vec::new();
    // A function's caller or callee row naming the function itself is its
    // recursion: VS counts the inclusive time once, at the outermost call,
    // and writes 0 there beside the exclusive time, which is no defect.
    let self_edge = r.kind.is_some_and(|k| k != 0) && r.root.as_deref() == Some(r.name.as_str());
    for pair in 0..2 {
        if let (Some(i), Some(e)) = (x.v[2 * pair], x.v[2 * pair + 1])
            && e > i
            && !self_edge
        {
            let (incl, excl) = (VALUES[2 * pair], VALUES[2 * pair + 1]);
            why.push((format!("{excl} {e} exceeds {incl} {i}"), pair == 0));
        }
    }
    for (values, which) in r.values.iter().zip(VALUES) {
        for (k, what) in [
            (TIME, "time"),
            (AVG, "average time"),
            (MIN, "minimum time"),
            (MAX, "maximum time"),
        ] {
            if let Some(v) = values[k].filter(|v| *v < 0.0) {
                why.push((format!("{which} {what} {v} is negative"), false));
            }
        }
        if let Some(p) = values[PCT].filter(|p| !(0.0..=100.0).contains(p)) {
            why.push((format!("{which} percent {p} is outside 0–100"), false));
        }
        if let (Some(lo), Some(hi)) = (values[MIN], values[MAX])
            && lo > hi
        {
            why.push((
                format!("{which} minimum {lo} exceeds its maximum {hi}"),
                false,
            ));
        }
    }
    for (v, what) in r.samples[..2].iter().zip(["inclusive", "exclusive"]) {
        if let Some(v) = v.filter(|v| *v < 0.0) {
            why.push((format!("{what} samples {v} is negative"), false));
        }
    }
    for (p, what) in r.samples[2..].iter().zip(["inclusive", "exclusive"]) {
        if let Some(p) = p.filter(|p| !(0.0..=100.0).contains(p)) {
            why.push((
                format!("{what} samples percent {p} is outside 0–100"),
                false,
            ));
        }
    }
    if let (Some(total), Some(own)) = (r.samples[0], r.samples[1])
        && own > total
    {
        why.push((
            format!("exclusive samples {own} exceed inclusive samples {total}"),
            false,
        ));
    }
    why
}

/// The number of samples, recovered from the inclusive-samples percent.
fn sample_total(rows: &[&Row], cols: &Columns, kind: ReportKind) -> Option<u64> {
    cols.samples[0]?;
    let total = match cols.samples[2] {
        Some(_) => implied_total(rows, |r| r.samples[0], |r| r.samples[2]),
        None => {
            let v = if kind == ReportKind::CallTree { 0 } else { 1 };
            rows.iter()
                .filter(|r| kind.counts_in_sum(r))
                .map(|r| r.samples[v])
                .fold(None, add_opt)
        }
    };
    total.map(|t| t.round() as u64)
}

struct Assembler<'b> {
    b: &'b mut ProfileBuilder,
    percent_only: [bool; 2],
}

impl Assembler<'_> {
    fn func(&mut self, r: &Row) -> FuncId {
        let (name, module) = (self.b.intern(&r.name), self.b.intern(&r.module));
        let f = self.b.function(name, module);
        if let Some((file, line)) = &r.start {
            let file = self.b.intern(file);
            self.b.function_start(f, file, *line);
        }
        f
    }

    /// Adds a row to a function; `inclusive` false where an ancestor is the
    /// same function (recursion counted once).
    fn add(&mut self, f: FuncId, r: &Row, x: Values, inclusive: bool) {
        let incl = |v: Option<f64>| v.filter(|_| inclusive);
        let mut time = TimeValues::default();
        let mut pct = Percents::default();
        for pair in 0..2 {
            let (i, e) = (x.v[2 * pair], x.v[2 * pair + 1]);
            let (ti, te, pi, pe) = match pair {
                0 => (
                    &mut time.elapsed_inclusive,
                    &mut time.elapsed_exclusive,
                    &mut pct.elapsed_inclusive,
                    &mut pct.elapsed_exclusive,
                ),
                _ => (
                    &mut time.application_inclusive,
                    &mut time.application_exclusive,
                    &mut pct.application_inclusive,
                    &mut pct.application_exclusive,
                ),
            };
            if self.percent_only[pair] {
                (*pi, *pe) = (incl(i), e);
            } else {
                (*ti, *te) = (incl(i), e);
            }
        }
        let elapsed = |v: usize, k: usize| r.values[v][k];
        self.b.per_call(
            f,
            PerCall {
                min_inclusive: elapsed(0, MIN),
                max_inclusive: elapsed(0, MAX),
                min_exclusive: elapsed(1, MIN),
                max_exclusive: elapsed(1, MAX),
            },
        );
        let hits_total = x.hits[0].filter(|_| inclusive);
        self.b.summary(
            f,
            FuncSummary {
                calls: r.calls,
                hits_self: x.hits[1],
                hits_total,
                time,
            },
        );
        self.b.stated_percents(f, pct);
    }

    /// A caller/callee row's edge, with the row's calls (or samples) and
    /// inclusive time: the time in the callee while called from the
    /// caller (model.md § Call graph).
    fn edge(&mut self, (caller, callee): (FuncId, FuncId), r: &Row, x: Values) {
        let samples = self.b.hits_count_is(profx_model::HitsCount::Samples);
        let hits = x.hits[0].filter(|_| samples);
        let incl = if self.percent_only[0] { None } else { x.v[0] };
        self.b.stated_edge(profx_model::StatedEdge {
            caller,
            callee,
            calls: r.calls.filter(|_| !samples),
            hits,
            elapsed_inclusive_ms: incl,
        });
    }

    /// A call tree row's numbers on its stack; false when its child time,
    /// derived as inclusive less exclusive, would be negative (VS states 0
    /// inclusive on a recursive row): its stack then has no child time
    /// (model.md: a derived value is never made up), which the row's
    /// warning says.
    fn stack_values(&mut self, id: StackId, r: &Row, x: Values) -> bool {
        let (i, e) = if self.percent_only[0] {
            (None, None)
        } else {
            (x.v[0], x.v[1])
        };
        let child = match (i, e) {
            // Said where the row's numbers are checked (`impossible`).
            (Some(i), Some(e)) if i < e => {
                self.b
                    .stack_summary(id, r.calls.or(x.hits[0]), Some(e), None);
                return false;
            }
            (Some(i), Some(e)) => Some(i - e),
            _ => None,
        };
        self.b.stack_summary(id, r.calls.or(x.hits[0]), e, child);
        true
    }

    /// Depth-first rows, Level 0 the process; a node's path from level 1
    /// is a stack. A level that jumps is skipped with its subtree.
    fn call_tree(&mut self, parsed: &[Parsed], values_of: impl Fn(&Row) -> Values) {
        // The open path: each level with its function and tree node, so a
        // row costs one node, not a copy of its path (a deep tree would
        // cost the square of its depth).
        let mut path: Vec<(u32, FuncId, NodeId)> = Vec::new();
        let mut skip_below: Option<u32> = None;
        // How many frames of `path` each function has: whether a row is a
        // recursive call, with no walk down a path that can be deep.
        let mut open: Vec<u32> = Vec::new();
        // Stacks a row of which would have a negative child time.
        let mut no_child: Vec<StackId> = Vec::new();
        for p in parsed {
            let level = match p {
                Parsed::Row(r) => r.level,
                Parsed::Bad { level, .. } => *level,
            };
            if let Some(limit) = skip_below {
                if level.is_none_or(|l| l > limit) {
                    continue;
                }
                skip_below = None;
            }
            let r = match p {
                Parsed::Bad { line, level, why } => {
                    // Without its level, the rows below the current node are
                    // the only ones that can be told to be its subtree.
                    let limit = level.unwrap_or_else(|| path.last().map_or(0, |t| t.0));
                    skip_below = Some(limit);
                    let msg = format!("{why}; row skipped with its subtree");
                    self.b.warn(Place::Line(*line), why.kind, msg);
                    continue;
                }
                Parsed::Row(r) => r,
            };
            let l = r.level.unwrap_or(0);
            if l == 0 {
                path.clear();
                open.clear();
                continue;
            }
            while path.last().is_some_and(|&(pl, _, _)| pl >= l) {
                if let Some((_, g, _)) = path.pop()
                    && let Some(n) = open.get_mut(g.index())
                {
                    *n = n.saturating_sub(1);
                }
            }
            let parent = path.last().map_or(0, |t| t.0);
            if l > parent + 1 {
                let msg = format!("level {l} under level {parent}; row skipped with its subtree");
                self.b
                    .warn(Place::Line(r.line), WarningKind::OutOfPlace, msg);
                skip_below = Some(l);
                continue;
            }
            let f = self.func(r);
            if open.len() <= f.index() {
                open.resize(f.index() + 1, 0);
            }
            let recursive = open[f.index()] > 0;
            open[f.index()] += 1;
            let x = values_of(r);
            // The elapsed times go to the node's stack alone: the model sums
            // the function's from its nodes (`TreeRule`), so Functions, the
            // tree and the edges read one figure. Percents stated without
            // times are the function's as the rows give them.
            let mut own = x;
            if !self.percent_only[0] {
                (own.v[0], own.v[1]) = (None, None);
            }
            self.add(f, r, own, !recursive);
            let node = self.b.node(path.last().map(|t| t.2), f);
            let id = self.b.stack_at(node);
            self.b.stack_line(id, r.line);
            if !self.stack_values(id, r, x) {
                no_child.push(id);
            }
            path.push((l, f, node));
        }
        for id in no_child {
            self.b.forget_stack_child(id);
        }
    }

    /// Type 0 (`Root`) rows are functions; a type 1 (`Caller`) row is a
    /// caller and a type 2 (`Callee`) row a callee of the latest Root row
    /// when that row's name is its `Root Function Name`, else of the
    /// function of that name. Each edge is kept once, from the first row
    /// that states it. A caller or callee without a Root row of its own is
    /// still a function, with every value absent.
    fn caller_callee(&mut self, parsed: &[Parsed], values_of: impl Fn(&Row) -> Values) {
        let mut by_name: FxHashMap<&str, FuncId> = FxHashMap::default();
        for r in parsed.iter().filter_map(|p| p.row_of_kind(0)) {
            let f = self.func(r);
            self.add(f, r, values_of(r), true);
            by_name.entry(r.name.as_str()).or_insert(f);
        }
        let (mut latest, mut edges) = (None, FxHashSet::default());
        for p in parsed {
            let r = match p {
                Parsed::Row(r) => r,
                Parsed::Bad { line, why, .. } => {
                    let msg = format!("{why}; row skipped");
                    self.b.warn(Place::Line(*line), why.kind, msg);
                    continue;
                }
            };
            if r.kind == Some(0) {
                latest = Some((r.name.as_str(), self.func(r)));
                continue;
            }
            // The Root row above owns its callers and callees when the names
            // agree: a name can be two functions of different modules
            // (`__onexit` in an exe and in the CRT), and only the row above
            // says which one is meant.
            let root = match (&r.root, latest) {
                (None, latest) => latest.map(|l| l.1),
                (Some(name), Some((latest_name, f))) if latest_name == name => Some(f),
                (Some(name), _) => by_name.get(name.as_str()).copied(),
            };
            let Some(root) = root else {
                let msg = "caller or callee row of no function row (type 0); skipped";
                self.b
                    .warn(Place::Line(r.line), WarningKind::OutOfPlace, msg);
                continue;
            };
            let other = self.func(r);
            let edge = if r.kind == Some(1) {
                (other, root)
            } else {
                (root, other)
            };
            if edges.insert(edge) {
                self.edge(edge, r, values_of(r));
            }
        }
    }
}
