//! A transform's run: the profile's call paths (every stack, and the
//! `(no call path)` and `(unlisted)` nodes the views add, as frames of
//! their own), each rewritten by the step's rule (`rewrite.rs`), then a new
//! profile made of them through the builder's path feed, which folds the
//! functions', edges' and totals' numbers from the paths the way a load
//! does (model.md § Queries).
//!
//! A profile without call paths (summaries, listings, caller/callee
//! reports) has only functions: merge and drop apply to its rows, and
//! every other row stays as loaded.

use super::rewrite::{Frame, FuncSet, Rewritten, Rule};
use super::{QueryError, Step, Target, resolve};
use profx_model::graph::noise;
use profx_model::metrics::PathNumbers;
use profx_model::{FuncId, FuncSummary, HitsCount, NameId, Profile, ProfileBuilder, StatedEdge};

/// What a step left out, for the header and `--json`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dropped {
    /// The paths removed (drop, focus) or left with no function.
    pub paths: usize,
    /// Their self time, in ms, where the profile has times.
    pub ms: Option<f64>,
    /// Their hits (samples, or calls).
    pub hits: Option<u64>,
    /// What the step could not keep, in words (per-call statistics, a
    /// profile without paths' inclusive times).
    pub notes: Vec<String>,
    /// The step rewrote no path: its profile is the one it was applied to.
    pub unchanged: bool,
}

impl Dropped {
    /// The dropped time's share of `whole` (the threads chosen's session),
    /// by the model's one percent rule (`metrics::pct`).
    pub fn pct_of(&self, whole: Option<f64>) -> Option<f64> {
        profx_model::metrics::pct(self.ms, whole)
    }
}

/// How often a long rewrite asks whether to stop.
const ASK_EVERY: usize = 4096;

/// A step's profile and what it dropped; an error where the step cannot
/// apply. A step that would change nothing or leave no function is an
/// error when `strict` (the app: neither is a question worth a
/// breadcrumb), else a note (a script's query means what it says).
pub(super) fn apply(
    p: &Profile,
    step: &Step,
    cancel: &dyn Fn() -> bool,
    strict: bool,
) -> Result<(Profile, Dropped), QueryError> {
    let has_paths = !p.stacks().is_empty();
    if !has_paths && step.needs_paths() {
        return Err(QueryError::NeedsPaths {
            verb: step.verb(),
            format: p.format.clone(),
        });
    }
    let rule = rule(p, step)?;
    let (mut q, mut dropped, changed) = match has_paths {
        false => functions_only(p, &rule),
        true => rewrite_paths(p, &rule, cancel)?,
    };
    let refused = match (changed, q.functions().is_empty()) {
        (false, _) => Some(QueryError::ChangesNothing { step: step.label() }),
        (true, true) => Some(QueryError::LeavesNothing { step: step.label() }),
        (true, false) => None,
    };
    match refused {
        Some(e) if strict => Err(e),
        Some(e) => {
            if let QueryError::LeavesNothing { .. } = e {
                // An empty profile's total is 0 (model.md § Queries), a
                // trace's outside time too: nothing is left for it to be
                // outside of.
                let t = &mut q.totals;
                t.elapsed_inclusive_ms = t.elapsed_inclusive_ms.map(|_| 0.0);
                t.outside_ms = t.outside_ms.map(|_| 0.0);
            }
            dropped.unchanged = !changed;
            dropped.notes = vec![e.to_string().replace("; not applied", "")];
            Ok((q, dropped))
        }
        None => Ok((q, dropped)),
    }
}

/// The step's rule, its names resolved in `p`.
fn rule(p: &Profile, step: &Step) -> Result<Rule, QueryError> {
    let n = p.functions().len();
    let one = |t: &Target| resolve(p, t).map(|ids| FuncSet::of(ids, n));
    Ok(match step {
        Step::Merge(t) => Rule::Merge(one(t)?),
        Step::Drop(t) => Rule::Drop(one(t)?),
        Step::Focus(t) => Rule::Focus(one(t)?),
        Step::CollapseRecursion(t) => Rule::CollapseRecursion(one(t)?),
        Step::CollapseDirectRecursion(t) => Rule::CollapseDirectRecursion(one(t)?),
        Step::CollapseSubtree(t) => Rule::CollapseSubtree(one(t)?),
        Step::MergePath(path) => Rule::MergeNode(node(p, path)?),
        Step::FocusPath(path) => Rule::FocusNode(node(p, path)?),
        Step::CollapseModule(m) => {
            let set: Vec<FuncId> = p
                .function_ids()
                .filter(|&f| p.function_module(f) == m && !m.is_empty())
                .collect();
            let Some(&first) = set.first() else {
                let mut modules: Vec<&str> =
                    p.function_ids().map(|f| p.function_module(f)).collect();
                modules.sort_unstable();
                modules.dedup();
                let closest =
                    super::closest_names(modules.into_iter().filter(|m| !m.is_empty()), m);
                return Err(QueryError::NoModule {
                    name: m.clone(),
                    closest,
                });
            };
            Rule::CollapseModule(FuncSet::of(set, n), p.function(first).module)
        }
    })
}

/// A path step's frames resolved, and held to name a node of `p`.
fn node(p: &Profile, path: &[Target]) -> Result<Vec<FuncSet>, QueryError> {
    let sets = path
        .iter()
        .map(|t| resolve(p, t))
        .collect::<Result<Vec<_>, _>>()?;
    let exists = p.nodes().iter().enumerate().any(|(i, n)| {
        n.depth() == sets.len() && {
            let mut frames = Vec::new();
            p.path_into(profx_model::NodeId::from_index(i), &mut frames);
            frames.iter().zip(&sets).all(|(f, set)| set.contains(f))
        }
    });
    let n = p.functions().len();
    match exists && !sets.is_empty() {
        true => Ok(sets.into_iter().map(|s| FuncSet::of(s, n)).collect()),
        false => Err(QueryError::NoPath {
            path: super::join_path(path),
        }),
    }
}

/// What `each_path` hands a path to: it may rewrite the frames in place.
pub(crate) type EachPath<'a> =
    dyn FnMut(&mut Vec<Frame>, PathNumbers) -> Result<(), QueryError> + 'a;

/// Hands `each` every call path of `p` with the numbers it holds, in one
/// reused buffer (a profile has millions; none is kept): its stacks, each
/// function's own value no stack holds (`[(no call path), F]`), each
/// node's unlisted time (`[.., N, (unlisted)]`). Stops at `each`'s error.
pub(crate) fn each_path(p: &Profile, each: &mut EachPath<'_>) -> Result<(), QueryError> {
    let samples = p.hits_count() == HitsCount::Samples;
    let mut held_ms = vec![0.0f64; p.functions().len()];
    let mut held_hits = vec![0u64; p.functions().len()];
    let mut funcs = Vec::new();
    let mut path: Vec<Frame> = Vec::new();
    for s in p.stack_ids() {
        let stack = p.stack(s);
        p.path_into(stack.node(), &mut funcs);
        let leaf = p.stack_leaf(s).index();
        held_ms[leaf] += stack.self_ms.unwrap_or(0.0);
        held_hits[leaf] += stack.hits.unwrap_or(0);
        path.clear();
        path.extend(funcs.iter().map(|&f| Frame::Func(f)));
        let n = PathNumbers {
            self_ms: stack.self_ms,
            hits: stack.hits,
        };
        each(&mut path, n)?;
    }
    for &(node, ms) in p.unlisted() {
        p.path_into(node, &mut funcs);
        path.clear();
        path.extend(funcs.iter().map(|&f| Frame::Func(f)));
        path.push(Frame::Unlisted);
        let n = PathNumbers {
            self_ms: Some(ms),
            hits: None,
        };
        each(&mut path, n)?;
    }
    for f in p.function_ids() {
        let row = p.function(f);
        let own_hits = match samples {
            true => row.hits_self,
            false => row.calls,
        };
        let ms = row
            .time
            .elapsed_exclusive
            .filter(|w| w.is_finite())
            .map(|w| w - held_ms[f.index()])
            .filter(|&rest| rest > noise(row.time.elapsed_exclusive.unwrap_or(0.0)));
        let hits = own_hits
            .map(|h| h.saturating_sub(held_hits[f.index()]))
            .filter(|&h| h > 0);
        if ms.is_some() || hits.is_some() {
            path.clear();
            path.extend([Frame::NoCallPath, Frame::Func(f)]);
            let n = PathNumbers {
                self_ms: ms.or(row.time.elapsed_exclusive.map(|_| 0.0)),
                hits: hits.or(own_hits.map(|_| 0)),
            };
            each(&mut path, n)?;
        }
    }
    Ok(())
}

/// Whether a path's numbers are all zero or absent.
fn carries_nothing(n: PathNumbers) -> bool {
    n.self_ms.unwrap_or(0.0) == 0.0 && n.hits.unwrap_or(0) == 0
}

/// The new profile's function for an old one, made on first sight.
struct Ids<'a> {
    p: &'a Profile,
    new: Vec<Option<FuncId>>,
    module: Option<FuncId>,
    /// The collapsed module's name, an id of `p`'s names (the new
    /// profile's too): its frame is a function of that name and module.
    module_name: Option<NameId>,
}

impl Ids<'_> {
    fn of(&mut self, b: &mut ProfileBuilder, f: Frame) -> Option<FuncId> {
        match f {
            Frame::Func(old) => {
                if let Some(id) = self.new[old.index()] {
                    return Some(id);
                }
                // The builder holds `p`'s names under their ids (`begin`).
                let row = self.p.function(old);
                let id = b.function(row.name, row.module);
                self.new[old.index()] = Some(id);
                Some(id)
            }
            Frame::Module => {
                if let Some(id) = self.module {
                    return Some(id);
                }
                let m = self.module_name?;
                let id = b.function(m, m);
                self.module = Some(id);
                Some(id)
            }
            Frame::NoCallPath | Frame::Unlisted => None,
        }
    }
}

fn rewrite_paths(
    p: &Profile,
    rule: &Rule,
    cancel: &dyn Fn() -> bool,
) -> Result<(Profile, Dropped, bool), QueryError> {
    let mut b = begin(p);
    let child_times = p.stacks().iter().any(|s| s.child_ms.is_some());
    b.path_feed(p.hits_count(), child_times);
    let calls = p.hits_count() == HitsCount::Calls;
    let mut ids = Ids {
        p,
        new: vec![None; p.functions().len()],
        module: None,
        module_name: match rule {
            Rule::CollapseModule(_, m) => Some(*m),
            _ => None,
        },
    };
    // A function whose own time the step moved: its lines' numbers can no
    // longer be told apart (which line the moved time was spent at).
    let mut touched = vec![false; p.functions().len()];
    let mut dropped = Dropped::default();
    let mut out: Vec<FuncId> = Vec::new();
    let mut i = 0usize;
    let mut changed = false;
    let mut before: Vec<Frame> = Vec::new();
    let mut kept_ms = 0.0f64;
    each_path(p, &mut |frames, mut n| {
        if i.is_multiple_of(ASK_EVERY) && cancel() {
            return Err(QueryError::Cancelled);
        }
        i += 1;
        let old_leaf = leaf_func(frames);
        before.clear();
        before.extend_from_slice(frames);
        let result = rule.apply(frames);
        changed |= result == Rewritten::Removed || *frames != before;
        let new_leaf = leaf_func(frames);
        let leaf_survived = match result {
            Rewritten::Removed => {
                drop_path(&mut dropped, n);
                mark(&mut touched, old_leaf);
                return Ok(());
            }
            Rewritten::Kept { leaf_survived } => leaf_survived,
        };
        if !leaf_survived || old_leaf != new_leaf {
            mark(&mut touched, old_leaf);
            mark(&mut touched, new_leaf);
        }
        if !frames
            .iter()
            .any(|f| matches!(f, Frame::Func(_) | Frame::Module))
        {
            drop_path(&mut dropped, n);
            return Ok(());
        }
        if calls && !leaf_survived {
            // The path's entries were calls of the frame that left it: its
            // new leaf was not called again.
            n.hits = n.hits.map(|_| 0);
        }
        if frames.first() == Some(&Frame::NoCallPath) && carries_nothing(n) {
            // A function's own value no stack holds, left with neither time
            // nor calls (its calls went with the frame that left): nothing
            // for the next step to find, so not kept now either (model.md §
            // Transforms), lest a function live on in one step's profile
            // through a path the next step cannot see.
            return Ok(());
        }
        out.clear();
        for &f in frames.iter() {
            if let Some(id) = ids.of(&mut b, f) {
                out.push(id);
            }
        }
        let Some(&leaf) = out.last() else {
            drop_path(&mut dropped, n);
            return Ok(());
        };
        kept_ms += n.self_ms.unwrap_or(0.0);
        match (frames.first(), frames.last()) {
            (_, Some(Frame::Unlisted)) => b.add_unlisted(&out, n.self_ms.unwrap_or(0.0)),
            (Some(Frame::NoCallPath), _) if out.len() == 1 => b.add_pathless(leaf, n),
            _ => {
                b.add_path(&out, n);
            }
        }
        Ok(())
    })?;
    if let Some(m) = ids.module {
        b.calls_not_known(m);
    }
    copy_lines(p, &mut b, &ids.new, &touched, changed);
    b.carry_source(p, |f| ids.new.get(f.index()).copied().flatten());
    if let Rule::Focus(_) | Rule::FocusNode(_) = rule {
        // A focus asks about the paths through F alone: time outside any
        // call, or in no path, is not through F either. What is kept is
        // the whole (Firefox Profiler's focused root is 100 %).
        if let Some(total) = p.totals.elapsed_inclusive_ms {
            dropped.ms = Some(total - kept_ms);
        }
    }
    finish_totals(p, &mut b, &mut dropped, rule);
    if p.has_per_call() {
        dropped
            .notes
            .push("per-call statistics are absent after a transform".into());
    }
    Ok((b.finish(), dropped, changed))
}

fn leaf_func(frames: &[Frame]) -> Option<FuncId> {
    frames.iter().rev().find_map(|f| match f {
        Frame::Func(f) => Some(*f),
        _ => None,
    })
}

fn mark(touched: &mut [bool], f: Option<FuncId>) {
    if let Some(f) = f {
        touched[f.index()] = true;
    }
}

fn drop_path(d: &mut Dropped, n: PathNumbers) {
    d.paths += 1;
    if let Some(ms) = n.self_ms {
        d.ms = Some(d.ms.unwrap_or(0.0) + ms);
    }
    if let Some(h) = n.hits {
        d.hits = Some(d.hits.unwrap_or(0) + h);
    }
}

/// A new builder holding what a query keeps of `p` as it is: its format,
/// sources, meta, facts, warnings and threads (a step rewrites paths, not
/// the events the threads rows describe).
fn begin(p: &Profile) -> ProfileBuilder {
    let mut b = ProfileBuilder::new(&p.format);
    // The same names under the same ids, shared: no name is copied,
    // interned again or ranked again.
    b.put_names(p.names_again());
    b.carry_threads(p.threads());
    for s in &p.sources {
        b.begin_source(s);
    }
    for (k, v) in &p.meta {
        b.set_meta(k, v.clone());
    }
    b.state_facts(p.facts());
    b.hits_count(p.hits_count());
    b.carry_warnings(p.warnings());
    b
}

/// The session totals less what was dropped; the outside time as it was
/// (none after a focus). Application times are absent: no path holds them.
fn finish_totals(p: &Profile, b: &mut ProfileBuilder, d: &mut Dropped, rule: &Rule) {
    // A sampled profile's times are whole nanoseconds (`samples.rs`): so
    // are what was dropped and what is left, without a sum's float noise.
    if p.hits_count() == HitsCount::Samples {
        d.ms = d.ms.map(whole_ns);
    }
    let t = b.totals_mut();
    t.elapsed_inclusive_ms = p
        .totals
        .elapsed_inclusive_ms
        .map(|ms| ms - d.ms.unwrap_or(0.0))
        .map(|ms| match p.hits_count() {
            HitsCount::Samples => whole_ns(ms),
            HitsCount::Calls => ms,
        });
    t.outside_ms = match rule {
        Rule::Focus(_) | Rule::FocusNode(_) => p.totals.outside_ms.map(|_| 0.0),
        _ => p.totals.outside_ms,
    };
    t.samples = match p.hits_count() {
        HitsCount::Samples => p
            .totals
            .samples
            .map(|s| s.saturating_sub(d.hits.unwrap_or(0))),
        HitsCount::Calls => p.totals.samples,
    };
}

/// Milliseconds rounded to the nanosecond.
fn whole_ns(ms: f64) -> f64 {
    (ms * 1e6).round() / 1e6
}

/// Lines follow their function: a function that left the profile takes
/// its lines with it; one whose own time the step moved keeps its lines
/// listed with their numbers absent; every other line is as loaded. A
/// line of no function (a trace's top level, whose calls a step may have
/// moved or removed) keeps its numbers only where the step `changed` no
/// path. What a line called is kept with its numbers: a step may have
/// merged the callee it names.
fn copy_lines(
    p: &Profile,
    b: &mut ProfileBuilder,
    new: &[Option<FuncId>],
    touched: &[bool],
    changed: bool,
) {
    for l in p.lines() {
        let (function, known) = match l.function {
            Some(f) => match new[f.index()] {
                Some(id) => (Some(id), !touched[f.index()]),
                None => continue,
            },
            None => (None, !changed),
        };
        let id = b.line(l.file, l.line, function);
        if l.top_level {
            b.line_at_top_level(id);
        }
        if known {
            b.line_summary(id, l.hits, l.time_ms);
            if let Some(called) = l.called {
                b.line_called(id, called);
            }
        }
    }
}

/// Merge or drop on a profile without call paths: the functions named
/// leave; a drop takes their own time out of the total, a merge leaves it
/// there (it went to callers no path names). Every other row is as loaded,
/// inclusive times too: nothing says which of them held the time.
fn functions_only(p: &Profile, rule: &Rule) -> (Profile, Dropped, bool) {
    let none = FuncSet::of([], 0);
    let (set, drop) = match rule {
        Rule::Merge(set) => (set, false),
        Rule::Drop(set) => (set, true),
        _ => (&none, false),
    };
    let mut b = begin(p);
    let mut new = vec![None; p.functions().len()];
    let mut dropped = Dropped::default();
    for f in p.function_ids() {
        let row = p.function(f);
        if set.contains(f) {
            dropped.paths += 1;
            if let Some(ms) = row.time.elapsed_exclusive {
                dropped.ms = Some(dropped.ms.unwrap_or(0.0) + ms);
            }
            let hits = match p.hits_count() {
                HitsCount::Samples => row.hits_self,
                HitsCount::Calls => row.calls,
            };
            if let Some(h) = hits {
                dropped.hits = Some(dropped.hits.unwrap_or(0) + h);
            }
            continue;
        }
        let id = b.function(row.name, row.module);
        b.summary(
            id,
            FuncSummary {
                calls: row.calls,
                hits_self: row.hits_self,
                hits_total: row.hits_total,
                time: row.time,
            },
        );
        b.per_call(id, p.per_call(f));
        new[f.index()] = Some(id);
    }
    for e in p.stated_edges() {
        if let (Some(caller), Some(callee)) = (new[e.caller.index()], new[e.callee.index()]) {
            b.stated_edge(StatedEdge {
                caller,
                callee,
                ..e.clone()
            });
        }
    }
    let untouched = vec![false; p.functions().len()];
    copy_lines(p, &mut b, &new, &untouched, false);
    b.carry_source(p, |f| new.get(f.index()).copied().flatten());
    let app_ms: f64 = set
        .ids()
        .filter_map(|f| p.function(f).time.application_exclusive)
        .sum();
    let t = b.totals_mut();
    *t = p.totals.clone();
    if drop {
        t.elapsed_inclusive_ms = t
            .elapsed_inclusive_ms
            .map(|ms| ms - dropped.ms.unwrap_or(0.0));
        t.application_inclusive_ms = t.application_inclusive_ms.map(|ms| ms - app_ms);
        if p.hits_count() == HitsCount::Samples {
            t.samples = t
                .samples
                .map(|s| s.saturating_sub(dropped.hits.unwrap_or(0)));
        }
        dropped
            .notes
            .push("no call paths: the other functions' inclusive times are as loaded".into());
    } else {
        dropped.notes.push(
            "no call paths: the merged time stays in the total, in callers no path names".into(),
        );
        dropped.ms = None;
        dropped.hits = None;
        dropped.paths = 0;
    }
    (b.finish(), dropped, set.ids().next().is_some())
}
