//! The only way to make a `Profile`.
//!
//! Loaders intern names, create rows by identity (a second `function("f",
//! "m")` returns the same id) and feed numbers; `finish` applies the metric
//! rules. The sample and trace feeds live in `metrics/` beside the rules they
//! implement; this file holds identity, summaries and the finishing step.
//!
//! The public methods speak of the model only (names, functions, lines,
//! stacks, samples, calls). What the fast loaders need to go faster (the
//! name table lent to a consumer thread, stacks found by a hash made ahead,
//! prefetches of rows a few events ahead) is `pub(crate)`: machinery of
//! this crate's loaders, not part of what a profile is made of.

use super::func_index::FuncIndex;
use super::func_table::Which;
use super::ids::{FuncId, LineId, NameId, NodeId, StackId};
use super::intern::Interner;
use super::metrics::{self, TimeValues, add_count, add_opt};
use super::profile::{Function, Line, MetaValue, NO_NODE, Packet, Profile, Stack, Totals};
use super::stack_index::{StackIndex, hash_frames};
use super::warning::{Place, Warning, WarningKind};
use profx_sys::prefetch::prefetch_all;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// A function's numbers as a summary format states them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FuncSummary {
    /// Calls the file states; `None` where it states none.
    pub calls: Option<u64>,
    /// Exclusive samples the file states; `None` where it states none.
    pub hits_self: Option<u64>,
    /// Inclusive samples the file states; `None` where it states none.
    pub hits_total: Option<u64>,
    /// The time values the file states, in ms; `None` each where it states
    /// none.
    pub time: TimeValues,
}

/// A profile being made: rows by identity, the numbers the loader feeds, and
/// the metric rules applied by [`ProfileBuilder::finish`].
///
/// A clone is the profile so far, to be finished while the original goes
/// on (a followed trace's update, `profx-load`'s `follow.rs`); it hands
/// its calls to no sink (`feed_calls`), which only the original feeds.
#[derive(Clone, Debug)]
pub struct ProfileBuilder {
    format: String,
    sources: Vec<String>,
    current_source: usize,
    meta: BTreeMap<String, MetaValue>,
    pub(crate) names: Interner,
    func_index: FuncIndex,
    pub(crate) functions: super::func_table::FunctionTable,
    stated_pct: FxHashMap<FuncId, super::Percents>,
    per_call: Vec<metrics::PerCall>,
    /// A trace's calls' durations, summarised (`finish_trace`).
    pub(crate) durations: metrics::DurationTable,
    line_index: FxHashMap<(NameId, u32), LineId>,
    /// Rows below this are in `line_index`; those after it were made by
    /// `line_unindexed` (a trace's call sites, which the trace feed finds
    /// by its own index) and are indexed only if `line` is ever asked.
    lines_indexed: usize,
    pub(crate) lines: Vec<Line>,
    /// Stacks given whole to `stack_hashed`, by their frames, which live
    /// in `memo_frames` (a cache for sampled logs; see there).
    stack_index: StackIndex,
    memo_frames: Vec<FuncId>,
    /// Stacks made by `stack_hashed` with no node yet, by id: (stack,
    /// start and length of its frames in `memo_frames`).
    pending: Vec<(StackId, u32, u32)>,
    /// `pending[..pending_indexed]` are in `stack_index`.
    pending_indexed: usize,
    /// Set by `finish`: no node is looked up after the pending stacks'.
    finishing: bool,
    pub(crate) stacks: Vec<Stack>,
    /// The calling-context tree every stack is a node of.
    pub(crate) tree: super::tree::Tree,
    packets: Vec<Packet>,
    warnings: super::budget::Budget,
    pub(crate) totals: Totals,
    pub(crate) sample_state: metrics::SampleState,
    pub(crate) trace_state: Option<metrics::TraceState>,
    /// A query's rewritten paths (`metrics/paths.rs`).
    pub(crate) paths: metrics::PathState,
    /// Whether the trace feed keeps its pushes and pops (`record_timeline`).
    pub(crate) timeline_wanted: bool,
    /// Whether the trace feed makes each thread's lane (no `skip_lanes`).
    pub(crate) lanes_wanted: bool,
    /// Whether the trace feed keeps each call's durations (no
    /// `skip_durations`).
    pub(crate) durations_wanted: bool,
    /// Where the trace feed hands each call (`feed_calls`).
    pub(crate) call_sink: Option<super::calls::Sink>,
    /// The stretch of a trace its numbers are cut to (`cut_to`).
    pub(crate) trace_range: crate::TimeRange,
    pub(crate) timeline: Option<super::timeline::Timeline>,
    /// A timed trace's threads across the run (`finish_trace`).
    pub(crate) lanes: Option<super::lanes::Lanes>,
    /// Whether the feeds make stacks (`skip_stacks`).
    pub(crate) stacks_wanted: bool,
    hits_count: super::graph::HitsCount,
    facts: super::Facts,
    stated_rounding: f64,
    tree_rule: super::graph::TreeRule,
    stated_edges: Vec<super::graph::StatedEdge>,
    /// Where a summary's stack rows are (VS call trees, PLIST), for the
    /// warnings `finish` gives about stated trees: a line by stack id (0:
    /// none said, or past u32; 4 bytes a stack, a PLIST listing's millions
    /// included). These formats load one source.
    stack_lines: Vec<u32>,
    /// How many of the file's rows summed into each stack (by stack id; 0
    /// or absent: one), so a stack listed twice is allowed the rounding of
    /// each of its rows (`graph::check_stated`).
    stack_rows: Vec<u32>,
    /// Warnings of the profile a query started from, kept as they were
    /// (already through their budget).
    carried: Vec<Warning>,
    /// The trace's threads (`finish_trace`).
    pub(crate) threads: Vec<super::ThreadInfo>,
    replay: Option<std::sync::Arc<dyn super::Replay>>,
    /// A listing's line texts and where functions begin.
    pub(crate) source: super::source::SourceFacts,
}

impl ProfileBuilder {
    /// An empty profile of `format` (its name in `--json`: `plist`, `br`, ...).
    pub fn new(format: &str) -> Self {
        ProfileBuilder {
            format: format.to_string(),
            sources: Vec::new(),
            current_source: 0,
            meta: BTreeMap::new(),
            names: Interner::default(),
            func_index: FuncIndex::default(),
            functions: Default::default(),
            stated_pct: FxHashMap::default(),
            per_call: Vec::new(),
            durations: Default::default(),
            line_index: FxHashMap::default(),
            lines_indexed: 0,
            lines: Vec::new(),
            stack_index: StackIndex::default(),
            memo_frames: Vec::new(),
            pending: Vec::new(),
            pending_indexed: 0,
            finishing: false,
            stacks: Vec::new(),
            tree: Default::default(),
            packets: Vec::new(),
            warnings: Default::default(),
            totals: Totals::default(),
            sample_state: Default::default(),
            trace_state: None,
            paths: Default::default(),
            timeline_wanted: false,
            lanes_wanted: true,
            durations_wanted: true,
            call_sink: None,
            trace_range: crate::TimeRange::ALL,
            timeline: None,
            lanes: None,
            stacks_wanted: true,
            hits_count: Default::default(),
            facts: Default::default(),
            stated_rounding: 0.0,
            tree_rule: Default::default(),
            stated_edges: Vec::new(),
            stack_lines: Vec::new(),
            stack_rows: Vec::new(),
            carried: Vec::new(),
            threads: Vec::new(),
            replay: None,
            source: Default::default(),
        }
    }

    /// How finely the file states a time: half of its last digit. A
    /// stated tree's sums that differ by less than that a value are
    /// rounding, neither unlisted time nor a warning.
    pub fn stated_rounding(&mut self, half_unit_ms: f64) {
        self.stated_rounding = half_unit_ms.max(0.0);
    }

    /// States what a stated tree is to its functions (`TreeRule`): whether
    /// its functions' times are its nodes' (a VS call tree), summed at
    /// `finish`, or the file states them apart (the default).
    pub fn tree_rule(&mut self, rule: super::graph::TreeRule) {
        self.tree_rule = rule;
    }

    /// States what stack hits count (model.md): calls unless said.
    pub fn hits_count(&mut self, what: super::graph::HitsCount) {
        self.hits_count = what;
    }

    /// States what the format's rows mean where a general word would
    /// mislead (`facts`): the general words unless said.
    pub fn state_facts(&mut self, facts: super::Facts) {
        self.facts = facts;
    }

    /// Whether the stack hits were stated to count `what`.
    pub fn hits_count_is(&self, what: super::graph::HitsCount) -> bool {
        self.hits_count == what
    }

    /// An edge the file states itself (a VS caller/callee report).
    pub fn stated_edge(&mut self, e: super::graph::StatedEdge) {
        self.stated_edges.push(e);
    }

    /// The line of a stack's row, for the warnings about stated trees (a
    /// stack listed twice keeps its first, and counts its rows: each
    /// row's numbers carry the file's rounding).
    pub fn stack_line(&mut self, id: StackId, line: u64) {
        if self.stack_lines.len() <= id.index() {
            self.stack_lines.resize(id.index() + 1, 0);
            self.stack_rows.resize(id.index() + 1, 0);
        }
        let at = &mut self.stack_lines[id.index()];
        if *at == 0 {
            *at = u32::try_from(line).unwrap_or(0);
        }
        let rows = &mut self.stack_rows[id.index()];
        *rows = rows.saturating_add(1);
    }

    /// Registers an input; warnings from now on point into it.
    pub fn begin_source(&mut self, name: &str) {
        self.current_source = self.sources.len();
        self.sources.push(name.to_string());
    }

    /// Warnings point into the input `source` again, one begun before (a
    /// followed trace reads the bytes each of its pieces gained in turn).
    pub fn warn_into(&mut self, source: usize) {
        if source < self.sources.len() {
            self.current_source = source;
        }
    }

    /// The input warnings now point into.
    pub fn current_source(&self) -> usize {
        self.current_source
    }

    /// A warning about an input read earlier (`current_source` then).
    pub fn warn_in(
        &mut self,
        source: usize,
        place: Place,
        kind: WarningKind,
        message: impl Into<String>,
    ) {
        self.warnings.push(Warning {
            source,
            place,
            kind,
            message: message.into(),
        });
    }

    /// The id of name `s`, adding it on first sight.
    pub fn intern(&mut self, s: &str) -> NameId {
        self.names.intern(s)
    }

    /// The text of name `id`.
    pub fn name(&self, id: NameId) -> &str {
        self.names.resolve(id)
    }

    /// Takes the name table out, for a loader that numbers names on one
    /// thread while another adds rows; rows added meanwhile must not look
    /// names up. [`ProfileBuilder::put_names`] puts it back.
    pub fn take_names(&mut self) -> Interner {
        std::mem::take(&mut self.names)
    }

    /// Puts back the name table [`ProfileBuilder::take_names`] took out.
    pub fn put_names(&mut self, names: Interner) {
        self.names = names;
    }

    /// Sets meta `key` (what the file says about the run), replacing any value
    /// it had.
    pub fn set_meta(&mut self, key: &str, value: MetaValue) {
        self.meta.insert(key.to_string(), value);
    }

    /// A warning about the input being read, of `kind`, saying `message`.
    pub fn warn(&mut self, place: Place, kind: WarningKind, message: impl Into<String>) {
        self.warnings.push(Warning {
            source: self.current_source,
            place,
            kind,
            message: message.into(),
        });
    }

    /// `count` warnings of one kind, already counted by a parsing worker
    /// (`budget::Skips`), the first and last of them where given.
    pub fn warn_counted(
        &mut self,
        first: Place,
        kind: WarningKind,
        message: String,
        count: u64,
        last: Place,
    ) {
        let first = Warning {
            source: self.current_source,
            place: first,
            kind,
            message,
        };
        self.warnings.push_counted(first, count, last);
    }

    /// The session totals, for a loader that states them (a file's total time,
    /// its outside time).
    pub fn totals_mut(&mut self) -> &mut Totals {
        &mut self.totals
    }

    /// The function (name, module), created with every value absent.
    pub fn function(&mut self, name: NameId, module: NameId) -> FuncId {
        if let Some(id) = self.existing_function(name, module) {
            return id;
        }
        let id = FuncId::from_index(self.functions.push(name, module));
        self.func_index.insert(name, module, id);
        id
    }

    /// The function (name, module) if it exists already.
    pub fn existing_function(&self, name: NameId, module: NameId) -> Option<FuncId> {
        let functions = &self.functions;
        let module_of = |id: FuncId| functions.module(id.index());
        self.func_index.get(name, module, module_of)
    }

    /// Function `id`'s row as fed so far.
    pub fn function_ref(&self, id: FuncId) -> Function {
        self.functions.get(id.index())
    }

    /// Function `id`'s name.
    pub fn function_name_id(&self, id: FuncId) -> NameId {
        self.functions.name(id.index())
    }

    /// Adds a stated summary to `f`. Values add up, so a function listed
    /// twice is merged by sums; the loader decides whether that deserves a
    /// warning.
    pub fn summary(&mut self, f: FuncId, s: FuncSummary) {
        let (t, i, n) = (&mut self.functions, f.index(), s.time);
        t.add_calls(i, s.calls);
        t.add_hits_self(i, s.hits_self);
        t.add_hits_total(i, s.hits_total);
        t.add_time(i, Which::ElapsedInclusive, n.elapsed_inclusive);
        t.add_time(i, Which::ElapsedExclusive, n.elapsed_exclusive);
        t.add_time(i, Which::ApplicationInclusive, n.application_inclusive);
        t.add_time(i, Which::ApplicationExclusive, n.application_exclusive);
    }

    /// Makes every function's elapsed times absent. A listing whose
    /// method is known only at its end (PLIST: a counting method measured
    /// no time) files its times as they come, rather than holding every
    /// function's numbers until then, and takes them back here; so only
    /// a builder of that one listing may call it.
    pub fn forget_elapsed_times(&mut self) {
        self.functions.forget_elapsed();
    }

    /// Adds percents the file states where it has no values to derive them
    /// from (VS reports with percents only); the metric code keeps them.
    pub fn stated_percents(&mut self, f: FuncId, p: super::Percents) {
        let q = self.stated_pct.entry(f).or_default();
        q.elapsed_inclusive = add_opt(q.elapsed_inclusive, p.elapsed_inclusive);
        q.elapsed_exclusive = add_opt(q.elapsed_exclusive, p.elapsed_exclusive);
        q.application_inclusive = add_opt(q.application_inclusive, p.application_inclusive);
        q.application_exclusive = add_opt(q.application_exclusive, p.application_exclusive);
        q.hits_self = add_opt(q.hits_self, p.hits_self);
        q.hits_total = add_opt(q.hits_total, p.hits_total);
    }

    /// Adds a function's shortest and longest calls, as a file states them
    /// or a trace measured them; several merge (`PerCall::merge`).
    pub fn per_call(&mut self, f: FuncId, p: metrics::PerCall) {
        if p.is_absent() {
            return;
        }
        if self.per_call.len() <= f.index() {
            self.per_call
                .resize(f.index() + 1, metrics::PerCall::default());
        }
        let q = &mut self.per_call[f.index()];
        *q = q.merge(p);
    }

    /// The line (file, line), created with absent values on first sight;
    /// `function` is recorded the first time one is known.
    pub fn line(&mut self, file: NameId, line: u32, function: Option<FuncId>) -> LineId {
        for (i, row) in self.lines.iter().enumerate().skip(self.lines_indexed) {
            self.line_index
                .entry((row.file, row.line))
                .or_insert(LineId::from_index(i));
        }
        let id = match self.line_index.get(&(file, line)) {
            Some(&id) => id,
            None => {
                let id = self.line_unindexed(file, line, None);
                self.line_index.insert((file, line), id);
                id
            }
        };
        self.lines_indexed = self.lines.len();
        let row = &mut self.lines[id.index()];
        row.function = row.function.or(function);
        id
    }

    /// A new row (file, line), not looked up: the caller knows it is new
    /// and finds it again by its own index (the trace feed's call sites).
    pub(crate) fn line_unindexed(
        &mut self,
        file: NameId,
        line: u32,
        function: Option<FuncId>,
    ) -> LineId {
        let id = LineId::from_index(self.lines.len());
        self.lines.push(Line {
            file,
            line,
            function,
            top_level: false,
            hits: None,
            time_ms: None,
            called: None,
        });
        id
    }

    /// Marks a line as standing outside any function (a trace's top level).
    pub fn line_at_top_level(&mut self, id: LineId) {
        self.lines[id.index()].top_level = true;
    }

    /// Says what was called at a line (a trace's call site), as a query
    /// copies it.
    pub fn line_called(&mut self, id: LineId, called: NameId) {
        self.lines[id.index()].called = Some(called);
    }

    /// Keeps warnings as they are, ahead of those this builder adds: a
    /// query's profile carries its input's.
    pub fn carry_warnings(&mut self, warnings: &[Warning]) {
        self.carried.extend_from_slice(warnings);
    }

    /// Keeps a profile's threads rows as they are: a query's step rewrites
    /// call paths, never events, and the rows describe the events (the
    /// thread choice's), so they stay its input's. A trace feed's own rows
    /// replace them.
    pub fn carry_threads(&mut self, threads: &[super::ThreadInfo]) {
        self.threads = threads.to_vec();
    }

    /// Gives the profile its way back to the input (`Replay`).
    pub fn state_replay(&mut self, replay: std::sync::Arc<dyn super::Replay>) {
        self.replay = Some(replay);
    }

    /// Adds stated hits and time to a line.
    pub fn line_summary(&mut self, id: LineId, hits: Option<u64>, time_ms: Option<f64>) {
        let row = &mut self.lines[id.index()];
        row.hits = add_count(row.hits, hits);
        row.time_ms = add_opt(row.time_ms, time_ms);
    }

    /// The stack with exactly these root-first frames (never empty; no
    /// frames give the first root's stack of nothing, see `stack_at`).
    pub fn stack(&mut self, frames: &[FuncId]) -> StackId {
        self.settle();
        match self.tree.path(frames) {
            Some(node) => self.stack_at(node),
            None => self.stack_of_nothing(),
        }
    }

    /// The node `func` called from `parent` (a root when `None`): how a
    /// loader that reads a tree (VS's call tree) makes its paths.
    pub fn node(&mut self, parent: Option<NodeId>, func: FuncId) -> NodeId {
        self.settle();
        self.tree.child(parent, func)
    }

    /// The stack whose path is `node`, made (every number absent) when new.
    pub fn stack_at(&mut self, node: NodeId) -> StackId {
        self.settle();
        if let Some(id) = self.tree.stack_of(node) {
            return id;
        }
        let id = StackId::from_index(self.stacks.len());
        self.stacks.push(Stack {
            node,
            hits: None,
            self_ms: None,
            child_ms: None,
        });
        self.tree.set_stack(node, id);
        id
    }

    /// Whether no path was made yet, pending or in the tree.
    pub(crate) fn tree_is_empty(&self) -> bool {
        self.tree.nodes.is_empty() && self.pending.is_empty()
    }

    /// A stack of no frames has no node; no loader makes one (samples and
    /// PLIST stacks always have a leaf), and a caller that asks anyway gets
    /// the root of a function of no name rather than a panic.
    fn stack_of_nothing(&mut self) -> StackId {
        let (n, m) = (self.intern(""), self.intern(""));
        let f = self.function(n, m);
        let node = self.tree.child(None, f);
        self.stack_at(node)
    }

    /// `stack`, for a stack the input lists whole (a PLIST's tag 9 stacks;
    /// a sampled log's samples, through `add_hashed_samples`): a table of
    /// the frames listed finds one by a hash and a compare, not a lookup a
    /// frame, as the same few come again and again.
    pub fn stack_listed(&mut self, frames: &[FuncId]) -> StackId {
        self.stack_hashed(frames, hash_frames(frames))
    }

    /// `stack_listed`, for frames whose `stack_hash` the caller has (and
    /// whose slot it may have asked for ahead with `prefetch_stack_slot`).
    /// The table is a cache only (the tree says what a stack is), it holds
    /// frames the input itself listed, and `finish` drops it.
    pub(super) fn stack_hashed(&mut self, frames: &[FuncId], hash: u32) -> StackId {
        self.index_pending();
        if let Some(id) = self.stack_index.find(hash, frames, &self.memo_frames) {
            return id;
        }
        // Once the tree has nodes (another feed made paths), a new stack
        // may be one of them: the tree says.
        let id = match frames.is_empty() || !self.tree.nodes.is_empty() {
            true => self.stack(frames),
            false => self.pend(frames),
        };
        let start = match self.pending.last() {
            Some(&(last, start, _)) if last == id => start,
            _ => {
                let start = self.memo_frames.len() as u32;
                self.memo_frames.extend_from_slice(frames);
                start
            }
        };
        self.stack_index
            .insert(id, hash, start, frames.len() as u32);
        self.pending_indexed = self.pending.len();
        id
    }

    /// A stack for `frames`, which the caller knows no stack has (PLIST
    /// tells its stacks new from those of the same function listed just
    /// before): put off like `stack_hashed`'s, and not even indexed until
    /// a lookup wants it.
    pub fn stack_known_new(&mut self, frames: &[FuncId]) -> StackId {
        if frames.is_empty() || !self.tree.nodes.is_empty() {
            return self.stack_hashed(frames, hash_frames(frames));
        }
        self.pend(frames)
    }

    /// Puts the stacks made pending since the last lookup into the table
    /// of frames, so a lookup finds every stack made so far.
    fn index_pending(&mut self) {
        for &(id, start, len) in &self.pending[self.pending_indexed..] {
            let frames = &self.memo_frames[start as usize..(start + len) as usize];
            self.stack_index.insert(id, hash_frames(frames), start, len);
        }
        self.pending_indexed = self.pending.len();
    }

    /// A new stack whose node waits for `settle`.
    fn pend(&mut self, frames: &[FuncId]) -> StackId {
        // The stack's node waits (`settle`): a million sampled stacks are
        // put in the tree at once, level by level, far faster than a
        // lookup a frame as they come.
        let id = StackId::from_index(self.stacks.len());
        self.stacks.push(Stack {
            node: NO_NODE,
            hits: None,
            self_ms: None,
            child_ms: None,
        });
        let start = self.memo_frames.len() as u32;
        self.memo_frames.extend_from_slice(frames);
        let len = self.memo_frames.len() as u32 - start;
        self.pending.push((id, start, len));
        id
    }

    /// Gives the stacks `stack_hashed` made their nodes: in bulk when the
    /// tree is empty, else a path at a time. Whatever reads or grows the
    /// tree calls it first.
    fn settle(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        // A lookup after this must find these stacks: by frames in the
        // table, by path in the tree. Once finishing, none comes.
        if !self.finishing {
            self.index_pending();
        }
        self.pending_indexed = 0;
        let pending = std::mem::take(&mut self.pending);
        let slice = |&(_, start, len): &(StackId, u32, u32)| {
            &self.memo_frames[start as usize..(start + len) as usize]
        };
        if self.tree.nodes.is_empty() && self.finishing {
            let paths: Vec<&[FuncId]> = pending.iter().map(slice).collect();
            let ids: Vec<StackId> = pending.iter().map(|p| p.0).collect();
            let nodes = self.tree.bulk(&paths, &ids);
            for (&(id, _, _), node) in pending.iter().zip(nodes) {
                self.stacks[id.index()].node = node;
            }
            return;
        }
        let nodes: Vec<NodeId> = {
            let mut nodes = Vec::with_capacity(pending.len());
            for p in &pending {
                let frames = &self.memo_frames[p.1 as usize..(p.1 + p.2) as usize];
                nodes.extend(self.tree.path(frames));
            }
            nodes
        };
        for (&(id, _, _), node) in pending.iter().zip(nodes) {
            self.stacks[id.index()].node = node;
            self.tree.set_stack(node, id);
        }
    }

    /// A stack's frames, root first, into `out`, before or after `settle`.
    pub(crate) fn frames_of(&self, id: StackId, out: &mut Vec<FuncId>) {
        let node = self.stacks[id.index()].node;
        if node != NO_NODE {
            return self.tree.frames_into(node, out);
        }
        out.clear();
        // Most often every stack is pending: then the i-th is stack i.
        let i = match self.pending.get(id.index()) {
            Some(p) if p.0 == id => Ok(id.index()),
            _ => self.pending.binary_search_by_key(&id, |p| p.0),
        };
        if let Ok(i) = i {
            let (_, start, len) = self.pending[i];
            out.extend_from_slice(&self.memo_frames[start as usize..(start + len) as usize]);
        }
    }

    /// The hash `stack_hashed` wants for these frames.
    pub fn stack_hash(frames: &[FuncId]) -> u32 {
        hash_frames(frames)
    }

    /// Asks for the index slot a lookup of a stack with this hash reads
    /// first; call some lookups ahead.
    pub(super) fn prefetch_stack_slot(&self, hash: u32) {
        self.stack_index.prefetch(hash);
    }

    /// Asks for the frames and the stack row that slot points to; call
    /// nearer, once the slot has had time to come in.
    pub(super) fn prefetch_stack_rows(&self, hash: u32) {
        if let Some((id, start, len)) = self.stack_index.first_match(hash) {
            let (start, len) = (start as usize, len as usize);
            if let Some(f) = self.memo_frames.get(start..start + len) {
                prefetch_all(f);
            }
            if let Some(s) = self.stacks.get(id.index()) {
                prefetch_all(s);
            }
        }
    }

    /// The node of a stack made so far.
    pub fn stack_node(&mut self, id: StackId) -> NodeId {
        self.settle();
        self.stacks[id.index()].node
    }

    /// Whether a stack made so far has exactly these root-first frames.
    pub fn stack_is(&self, id: StackId, frames: &[FuncId]) -> bool {
        let mut have = Vec::new();
        self.frames_of(id, &mut have);
        have == frames
    }

    /// The frames of a stack made so far, root first.
    pub fn stack_frames(&self, id: StackId) -> Vec<FuncId> {
        let mut out = Vec::new();
        self.frames_of(id, &mut out);
        out
    }

    /// Asks for a line's row ahead of adding to it.
    pub(super) fn prefetch_line(&self, id: LineId) {
        if let Some(row) = self.lines.get(id.index()) {
            prefetch_all(row);
        }
    }

    /// Adds stated numbers to a stack (a path listed twice adds up).
    pub fn stack_summary(
        &mut self,
        id: StackId,
        hits: Option<u64>,
        self_ms: Option<f64>,
        child_ms: Option<f64>,
    ) {
        let s = &mut self.stacks[id.index()];
        // An absent amount adds nothing, and leaves its bytes of the row
        // untouched: a sample adds no child time, and its row is one of
        // a million, rarely in any cache.
        if hits.is_some() {
            s.hits = add_count(s.hits, hits);
        }
        if self_ms.is_some() {
            s.self_ms = add_opt(s.self_ms, self_ms);
        }
        if child_ms.is_some() {
            s.child_ms = add_opt(s.child_ms, child_ms);
        }
    }

    /// The input being read, as a place for a warning about all of it.
    pub(crate) fn current_file(&self) -> Place {
        let file = self.sources.get(self.current_source).cloned();
        Place::File(file.unwrap_or_default())
    }

    /// Leaves a stack without child time: a row of it stated numbers that
    /// would make it negative (the loader warned there).
    pub fn forget_stack_child(&mut self, id: StackId) {
        self.stacks[id.index()].child_ms = None;
    }

    /// Hands each call the trace feed counts to `sink` as it closes, and
    /// tells it when the trace ends (`calls.rs`); call before the loader
    /// starts.
    pub fn feed_calls(&mut self, sink: Box<dyn super::CallSink>) {
        self.call_sink = Some(super::calls::Sink(sink));
    }

    /// Asks the trace feed to keep every push and pop with its time (for
    /// evented exports); call before the loader starts.
    pub fn record_timeline(&mut self) {
        self.timeline_wanted = true;
    }

    /// Asks the feeds to make no stack (a report of functions or lines
    /// shows none): the trace feed no path, the sample feed no stack of a
    /// sample. Call before the loader starts. Functions, lines and totals
    /// come out the same to the bit: a trace sums them a call at a time
    /// either way (`trace_acc.rs`), samples exactly (`samples.rs`).
    pub fn skip_stacks(&mut self) {
        self.stacks_wanted = false;
    }

    /// Asks the trace feed to make no lanes (`Profile::lanes`, the app's
    /// Timeline; no report or export reads them; what they cost a timed
    /// trace's load is in BENCHMARKS.md, issue 69). Call before the loader
    /// starts. Every other number is the same either way.
    pub fn skip_lanes(&mut self) {
        self.lanes_wanted = false;
    }

    /// Asks the trace feed to keep each function's shortest and longest
    /// call only, not every call's durations: its functions then have no
    /// percentiles, histogram or slowest call (`Profile::call_durations`
    /// is `None`), which only `--json`, its exports and the app show.
    /// Their extremes (`Profile::per_call`) are the same either way, to
    /// the bit: taken as the calls come by the rule the kept calls are
    /// summarised by (`durations.rs`, `note`). Call before the loader
    /// starts.
    pub fn skip_durations(&mut self) {
        self.durations_wanted = false;
    }

    /// Whether the feeds make stacks (no `skip_stacks`).
    pub fn keeps_stacks(&self) -> bool {
        self.stacks_wanted
    }

    /// Adds a packet of events after those added before (input order).
    pub fn add_packet(&mut self, packet: Packet) {
        self.packets.push(packet);
    }

    /// Makes every value that is not finite absent, with a warning naming
    /// its row. Loaders refuse such numbers where they read them, but sums
    /// of large finite values (merged rows, long traces) can still
    /// overflow; no output may then show `inf` or `NaN`, and every output
    /// agrees on what such a value becomes: absent (`null`, `—`, an empty
    /// cell).
    fn no_infinities(&mut self) {
        let mut found: Vec<String> = Vec::new();
        let mut fix = |v: &mut Option<f64>, what: &dyn Fn() -> String| {
            if v.is_some_and(|x| !x.is_finite()) {
                *v = None;
                found.push(what());
            }
        };
        let names = &self.names;
        for i in 0..self.functions.len() {
            let mut t = self.functions.time(i);
            let before = t;
            let name = || crate::text::visible(names.resolve(self.functions.name(i))).into_owned();
            for (v, which) in [
                (&mut t.elapsed_inclusive, "elapsed inclusive"),
                (&mut t.elapsed_exclusive, "elapsed exclusive"),
                (&mut t.application_inclusive, "application inclusive"),
                (&mut t.application_exclusive, "application exclusive"),
            ] {
                fix(v, &|| format!("function {:?}: its {which} time", name()));
            }
            // Only a value fixed is written back (most are finite).
            if t != before {
                self.functions.set_time(i, t);
            }
        }
        for p in &mut self.per_call {
            for v in [
                &mut p.min_inclusive,
                &mut p.max_inclusive,
                &mut p.min_exclusive,
                &mut p.max_exclusive,
            ] {
                fix(v, &|| "a function's shortest or longest call".to_string());
            }
        }
        for l in &mut self.lines {
            fix(&mut l.time_ms, &|| {
                format!("line {} of {:?}: its time", l.line, names.resolve(l.file))
            });
        }
        for s in &mut self.stacks {
            fix(&mut s.self_ms, &|| "a stack's self time".to_string());
            fix(&mut s.child_ms, &|| "a stack's child time".to_string());
        }
        let t = &mut self.totals;
        fix(&mut t.elapsed_inclusive_ms, &|| {
            "the session's elapsed time".into()
        });
        fix(&mut t.application_inclusive_ms, &|| {
            "the session's application time".into()
        });
        fix(&mut t.outside_ms, &|| "the time outside functions".into());
        let source = self.sources.first().cloned().unwrap_or_default();
        for what in found {
            self.warnings.push(Warning {
                source: 0,
                place: Place::File(source.clone()),
                kind: WarningKind::Overflow,
                message: format!("{what} overflows any number; absent"),
            });
        }
    }

    /// A tree that is its functions' statement (`TreeRule::NodesAreFunctions`):
    /// its stacks' own times as the rule left them, and each function's
    /// elapsed times summed from its nodes, so that Functions, the tree,
    /// the edges and a query's paths read one figure. A sum too large for
    /// a number is absent with a warning, as any other (`no_infinities`).
    fn apply_tree_rule(&mut self, stated: &super::graph::Stated) {
        for &(id, own, child) in &stated.stacks {
            let s = &mut self.stacks[id.index()];
            (s.self_ms, s.child_ms) = (Some(own), Some(child));
        }
        for &(f, excl, incl) in &stated.functions {
            self.functions.update(f.index(), |row| {
                let t = &mut row.time;
                (t.elapsed_exclusive, t.elapsed_inclusive) = (Some(excl), Some(incl));
            });
        }
        if !stated.stacks.is_empty() || !stated.functions.is_empty() {
            self.no_infinities();
        }
    }

    /// Applies the metric rules and freezes the profile.
    pub fn finish(mut self) -> Profile {
        self.finish_trace();
        self.finish_samples();
        self.finish_paths();
        self.finishing = true;
        // No stack is looked up by its frames any more: the table goes
        // before the pending stacks' nodes are made.
        self.stack_index = StackIndex::default();
        self.settle();
        self.no_infinities();
        // A trace's child times are its own sums, never a file's statement:
        // only summaries (PLIST, VS call trees) state a tree to check.
        let stated = if self.trace_state.is_some() {
            super::graph::Stated::default()
        } else if self.paths_fed() {
            // A query states its unlisted time itself, from the paths it
            // rewrote: no file's values to check.
            super::graph::Stated {
                unlisted: self.take_path_unlisted(),
                ..Default::default()
            }
        } else {
            let (names, functions) = (&self.names, &self.functions);
            let name = |f: FuncId| names.resolve(functions.name(f.index())).to_string();
            let (lines, source) = (&self.stack_lines, self.current_source);
            let place = |s: StackId| {
                let &line = lines.get(s.index()).filter(|&&l| l > 0)?;
                Some((source, Place::Line(u64::from(line))))
            };
            let counts = &self.stack_rows;
            let rows = |s: StackId| counts.get(s.index()).copied().unwrap_or(0).max(1);
            super::graph::check_stated(
                &self.tree.nodes,
                &self.stacks,
                &self.functions,
                (self.stated_rounding, self.facts.time_unit, self.tree_rule),
                &name,
                (&place, &rows),
            )
        };
        self.apply_tree_rule(&stated);
        for (at, kind, message) in stated.warnings {
            let (source, place) = at.unwrap_or_else(|| {
                let file = self.sources.get(self.current_source).cloned();
                (self.current_source, Place::File(file.unwrap_or_default()))
            });
            self.warn_in(source, place, kind, message);
        }
        let measured = metrics::finish_totals(&mut self.totals, &self.functions);
        let stack_times = self.stacks.iter().any(|s| s.self_ms.is_some());
        let range = (self.trace_range != crate::TimeRange::ALL).then_some(self.trace_range);
        // The lookup tables go before the names are ranked (`freeze`), the
        // largest thing made at the end of a load of many names.
        let shared_names = std::mem::take(&mut self.func_index).shared_names();
        let names = self.names.freeze();
        // Tables grown a row at a time hold up to twice their rows: a
        // profile is read for the rest of the session, so it gives back
        // what it will never fill (a large table is moved in place).
        self.functions.shrink_to_fit();
        self.stacks.shrink_to_fit();
        let mut nodes = self.tree.into_nodes();
        nodes.shrink_to_fit();
        let mut unlisted = stated.unlisted;
        unlisted.shrink_to_fit();
        let profile = Profile {
            format: self.format,
            sources: self.sources,
            meta: self.meta,
            totals: self.totals,
            names,
            functions: self.functions,
            measured,
            stated_pct: self.stated_pct,
            per_call: self.per_call,
            durations: self.durations,
            shared_names,
            lines: self.lines,
            stacks: self.stacks,
            nodes,
            packets: self.packets,
            warnings: {
                let mut w = self.carried;
                w.extend(self.warnings.finish());
                w
            },
            timeline: self.timeline,
            lanes: self.lanes,
            hits_count: self.hits_count,
            facts: self.facts,
            stated_edges: self.stated_edges,
            unlisted,
            stack_times,
            threads: self.threads,
            replay: self.replay,
            source: self.source,
            stated_rounding: self.stated_rounding,
            range,
        };
        match range {
            Some(_) => profile.keep_ran(),
            None => profile,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_makes_one_row_and_summaries_add_up() {
        let mut b = ProfileBuilder::new("test");
        let (f, m) = (b.intern("f"), b.intern("m.obj"));
        let a = b.function(f, m);
        assert_eq!(b.function(f, m), a);
        let other = b.intern("other.obj");
        assert_ne!(b.function(f, other), a);
        let s = FuncSummary {
            calls: Some(2),
            time: TimeValues {
                elapsed_exclusive: Some(1.5),
                elapsed_inclusive: Some(4.0),
                ..Default::default()
            },
            ..Default::default()
        };
        b.summary(a, s);
        b.summary(a, s);
        let p = b.finish();
        let fa = p.function(a);
        assert_eq!(fa.calls, Some(4));
        assert_eq!(fa.time.elapsed_inclusive, Some(8.0));
        assert_eq!(fa.time.application_inclusive, None);
        // No total stated: the largest inclusive time is the session.
        assert_eq!(p.totals.elapsed_inclusive_ms, Some(8.0));
        assert_eq!(p.percents(a).elapsed_exclusive, Some(37.5));
    }

    #[test]
    fn stacks_are_identified_by_their_frames() {
        let mut b = ProfileBuilder::new("test");
        let (n, m) = (b.intern("a"), b.intern(""));
        let a = b.function(n, m);
        let n2 = b.intern("b");
        let bb = b.function(n2, m);
        let s1 = b.stack(&[a, bb]);
        assert_eq!(b.stack(&[a, bb]), s1);
        assert_ne!(b.stack(&[bb, a]), s1);
        b.stack_summary(s1, Some(1), Some(2.0), None);
        b.stack_summary(s1, Some(3), None, None);
        let p = b.finish();
        assert_eq!(p.frames(s1), &[a, bb]);
        assert_eq!(p.stack(s1).hits, Some(4));
        assert_eq!(p.stack(s1).self_ms, Some(2.0));
        assert_eq!(p.stack(s1).child_ms, None);
    }

    /// A trace's path equal to a stack made before it is that stack.
    #[test]
    fn a_trace_after_other_stacks_finds_them() {
        use crate::metrics::TraceTime;
        let mut b = ProfileBuilder::new("test");
        let (n, m) = (b.intern("a"), b.intern(""));
        let a = b.function(n, m);
        let s1 = b.stack(&[a]);
        b.trace_begin(TraceTime::Timed);
        let t = b.trace_thread(1);
        b.trace_time(t, 0.0, || Place::Line(1));
        b.trace_enter(t, a, 0, None);
        b.trace_time(t, 2.0, || Place::Line(2));
        b.trace_exit(t);
        let p = b.finish();
        assert_eq!(p.stacks().len(), 1);
        assert_eq!(p.stack(s1).self_ms, Some(2.0));
    }

    /// Stacks given whole (`stack_hashed`) and by the tree (`node`) are
    /// one stack when their paths are one; prefixes are nodes, not stacks.
    #[test]
    fn stacks_by_frames_and_by_nodes_agree() {
        let mut b = ProfileBuilder::new("test");
        let (n, n2, m) = (b.intern("a"), b.intern("b"), b.intern(""));
        let (a, bb) = (b.function(n, m), b.function(n2, m));
        let frames = [a, bb, a];
        let s1 = b.stack_hashed(&frames, ProfileBuilder::stack_hash(&frames));
        assert_eq!(
            b.stack_hashed(&frames, ProfileBuilder::stack_hash(&frames)),
            s1
        );
        let na = b.node(None, a);
        let nab = b.node(Some(na), bb);
        let naba = b.node(Some(nab), a);
        assert_eq!(b.stack_at(naba), s1);
        assert!(b.stack_is(s1, &frames));
        assert_eq!(b.stack_frames(s1), frames);
        let s2 = b.stack_at(nab);
        assert_ne!(s2, s1);
        let p = b.finish();
        assert_eq!(p.stacks().len(), 2);
        assert_eq!(p.nodes().len(), 3);
        assert_eq!(p.node(na).stack(), None);
        assert_eq!(p.stack_depth(s1), 3);
        assert_eq!(p.stack_leaf(s2), bb);
    }

    #[test]
    fn warnings_come_out_in_input_order() {
        let mut b = ProfileBuilder::new("test");
        b.begin_source("x");
        b.warn(Place::Line(9), WarningKind::NotANumber, "late");
        b.warn(Place::Line(2), WarningKind::NotANumber, "early");
        let p = b.finish();
        let lines: Vec<_> = p.warnings().iter().map(|w| w.place.clone()).collect();
        assert_eq!(lines, vec![Place::Line(2), Place::Line(9)]);
    }
}
