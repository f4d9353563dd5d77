//! Path feed: model.md § A query's numbers. A query that rewrites the
//! call paths (`profx_analysis::query`) hands the builder each rewritten
//! path with the self time and hits it keeps; every other number is made
//! here from them, the way the sample feed folds samples:
//! - a function's exclusive time (self hits, calls) is the self of the
//!   paths ending in it; its inclusive time (total hits) the self of the
//!   paths holding it, once a path however often it recurs there;
//! - a path's child time, where the profile keeps child times, is the
//!   self of the paths below it, plus its stated unlisted time;
//! - `(no call path)` time is a function's own time no path holds
//!   (`add_pathless`), `(unlisted)` time a node's time in callees no path
//!   lists (`add_unlisted`): each is the function's or the node's as a
//!   frame of its path is, so the views show them where a load would.
//!
//! Nothing here knows what rewrote the paths: the same fold gives a
//! loaded profile's numbers back when handed its own paths. A sampled
//! profile's times are summed as the sample feed sums them, in whole
//! nanoseconds turned into milliseconds once at the end, so a query's sum
//! rounds as the load's does (`samples.rs`).

use crate::func_table::{FunctionTable, Which};
use crate::ids::{FuncId, NodeId, StackId};
use crate::{HitsCount, ProfileBuilder};

/// What the path feed was given beyond the stacks.
#[derive(Clone, Debug, Default)]
pub struct PathState {
    fed: bool,
    child_times: bool,
    /// Times are held in whole nanoseconds until `finish_paths` (samples).
    ns: bool,
    /// `(no call path)` numbers, by function.
    pathless: Vec<(FuncId, PathNumbers)>,
    /// Stated unlisted time, by node.
    unlisted: Vec<(NodeId, f64)>,
    /// Frames no load made (a collapsed module's): their calls are not
    /// known, so neither their functions' nor their stacks' are.
    made: Vec<FuncId>,
}

/// The numbers one rewritten path keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PathNumbers {
    /// Its self time in ms, where the profile has times.
    pub self_ms: Option<f64>,
    /// Its hits: samples, or calls (entries into exactly this path, kept
    /// only while the path's leaf frame survived the rewrite), as the
    /// profile's hits count.
    pub hits: Option<u64>,
}

impl ProfileBuilder {
    /// Starts the path feed: stacks' hits count `hits`; `child_times` when
    /// the profile keeps each stack's time below it (traces, stated trees;
    /// not samples).
    pub fn path_feed(&mut self, hits: HitsCount, child_times: bool) {
        self.hits_count(hits);
        self.paths.fed = true;
        self.paths.child_times = child_times;
        self.paths.ns = hits == HitsCount::Samples;
    }

    /// Says that `f` is a frame the step made, not one a load made (a
    /// collapsed module): how often it was entered is not known (model.md
    /// § Transforms: a function's calls are the kept entries of the paths
    /// ending in it, and a made frame has none), so its calls are absent,
    /// never 0, in its function's row and in every stack ending in it.
    pub fn calls_not_known(&mut self, f: FuncId) {
        self.paths.made.push(f);
    }

    /// A path's numbers in the unit the feed sums in.
    fn in_feed_unit(&self, n: PathNumbers) -> PathNumbers {
        PathNumbers {
            self_ms: n.self_ms.map(|ms| self.ms_in_feed_unit(ms)),
            ..n
        }
    }

    fn ms_in_feed_unit(&self, ms: f64) -> f64 {
        match self.paths.ns {
            true => (ms * 1e6).round(),
            false => ms,
        }
    }

    /// Adds a rewritten path's numbers to its stack (a path given twice
    /// adds up). `frames` is never empty: a path the rewrite left empty is
    /// the query's to count.
    pub fn add_path(&mut self, frames: &[FuncId], n: PathNumbers) -> StackId {
        let id = self.stack(frames);
        let n = self.in_feed_unit(n);
        self.stack_summary(id, n.hits, n.self_ms, None);
        id
    }

    /// Adds own time of `f` that no path holds: its `(no call path)` node.
    pub fn add_pathless(&mut self, f: FuncId, n: PathNumbers) {
        let n = self.in_feed_unit(n);
        self.paths.pathless.push((f, n));
    }

    /// Adds time in callees no path lists under the path `frames` (never
    /// empty): its `(unlisted)` node.
    pub fn add_unlisted(&mut self, frames: &[FuncId], ms: f64) {
        self.settle_for_paths();
        let ms = self.ms_in_feed_unit(ms);
        if let Some(node) = self.tree.path(frames) {
            self.paths.unlisted.push((node, ms));
        }
    }

    /// Whether the path feed was started.
    pub(crate) fn paths_fed(&self) -> bool {
        self.paths.fed
    }

    /// The unlisted time stated through the feed, by node, summed and in
    /// node order.
    pub(crate) fn take_path_unlisted(&mut self) -> Vec<(NodeId, f64)> {
        let mut u = std::mem::take(&mut self.paths.unlisted);
        u.sort_by_key(|&(n, _)| n);
        let mut out: Vec<(NodeId, f64)> = Vec::with_capacity(u.len());
        for (n, ms) in u {
            match out.last_mut() {
                Some(last) if last.0 == n => last.1 += ms,
                _ => out.push((n, ms)),
            }
        }
        out
    }

    /// Folds the paths into the functions' rows and the stacks' child
    /// times (model.md § A query's numbers).
    pub(crate) fn finish_paths(&mut self) {
        if !self.paths.fed {
            return;
        }
        self.settle_for_paths();
        let samples = self.hits_count_is(HitsCount::Samples);
        // Frames a step made: their calls are not known (`calls_not_known`).
        let made = match samples {
            true => Vec::new(),
            false => std::mem::take(&mut self.paths.made),
        };
        let mut seen = vec![usize::MAX; self.functions.len()];
        let mut frames = Vec::new();
        for i in 0..self.stacks.len() {
            self.frames_of(StackId::from_index(i), &mut frames);
            if frames.last().is_some_and(|l| made.contains(l)) {
                self.stacks[i].hits = None;
            }
            let s = &self.stacks[i];
            let n = PathNumbers {
                self_ms: s.self_ms,
                hits: s.hits,
            };
            for &f in &frames {
                if std::mem::replace(&mut seen[f.index()], i) != i {
                    on_path(&mut self.functions, f.index(), n, samples);
                }
            }
            if let Some(&leaf) = frames.last() {
                at_leaf(&mut self.functions, leaf.index(), n, samples);
            }
        }
        let unlisted = std::mem::take(&mut self.paths.unlisted);
        for (k, &(node, ms)) in unlisted.iter().enumerate() {
            self.tree.frames_into(node, &mut frames);
            let n = PathNumbers {
                self_ms: Some(ms),
                hits: None,
            };
            for &f in &frames {
                let mark = self.stacks.len() + k;
                if std::mem::replace(&mut seen[f.index()], mark) != mark {
                    on_path(&mut self.functions, f.index(), n, samples);
                }
            }
        }
        self.paths.unlisted = unlisted;
        for (f, n) in std::mem::take(&mut self.paths.pathless) {
            on_path(&mut self.functions, f.index(), n, samples);
            at_leaf(&mut self.functions, f.index(), n, samples);
        }
        if self.paths.child_times {
            self.path_child_times();
        }
        for &f in &made {
            self.functions.set_calls(f.index(), None);
        }
        if self.paths.ns {
            self.path_times_in_ms();
        }
    }

    /// Turns the times the feed summed in nanoseconds into milliseconds,
    /// once (the lines a query copies were given in milliseconds).
    fn path_times_in_ms(&mut self) {
        let ms = |t: &mut Option<f64>| *t = t.map(|ns| ns / 1e6);
        for s in &mut self.stacks {
            ms(&mut s.self_ms);
            ms(&mut s.child_ms);
        }
        self.functions.elapsed_ns_to_ms();
        for u in &mut self.paths.unlisted {
            u.1 /= 1e6;
        }
    }

    /// Each stack's child time: the self of every path below it and the
    /// unlisted time stated at or below it.
    fn path_child_times(&mut self) {
        let nodes = &self.tree.nodes;
        let mut below = vec![0.0f64; nodes.len()];
        let own = |n: usize| {
            let s = nodes[n].stack()?;
            self.stacks[s.index()].self_ms
        };
        let mut any = vec![false; nodes.len()];
        for &(node, ms) in &self.paths.unlisted {
            below[node.index()] += ms;
            any[node.index()] = true;
        }
        // A child's id is above its parent's: one pass from the last.
        for n in (0..nodes.len()).rev() {
            let Some(parent) = nodes[n].parent() else {
                continue;
            };
            if let Some(ms) = own(n) {
                below[parent.index()] += ms + below[n];
                any[parent.index()] = true;
            } else if any[n] {
                below[parent.index()] += below[n];
                any[parent.index()] = true;
            }
        }
        for n in 0..nodes.len() {
            if let Some(s) = nodes[n].stack()
                && self.stacks[s.index()].self_ms.is_some()
            {
                self.stacks[s.index()].child_ms = Some(below[n]);
            }
        }
    }

    /// Settles the pending stacks so the tree can be walked.
    fn settle_for_paths(&mut self) {
        if !self.tree_is_empty() {
            let _ = self.stack_node(StackId::from_index(0));
        }
    }
}

/// A function on a path with `n`: its total hits and inclusive time; a
/// function that is never a leaf still has 0 self, not none.
fn on_path(t: &mut FunctionTable, i: usize, n: PathNumbers, samples: bool) {
    t.add_time(i, Which::ElapsedInclusive, n.self_ms);
    t.add_time(i, Which::ElapsedExclusive, n.self_ms.map(|_| 0.0));
    if samples {
        t.add_hits_total(i, n.hits);
        t.add_hits_self(i, n.hits.map(|_| 0));
    } else {
        t.add_calls(i, n.hits.map(|_| 0));
    }
}

/// The leaf of such a path: its self hits (or calls) and exclusive time.
fn at_leaf(t: &mut FunctionTable, i: usize, n: PathNumbers, samples: bool) {
    t.add_time(i, Which::ElapsedExclusive, n.self_ms);
    match samples {
        true => t.add_hits_self(i, n.hits),
        false => t.add_calls(i, n.hits),
    }
}
