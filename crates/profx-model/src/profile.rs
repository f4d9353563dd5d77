//! The finished, read-only profile and its row types.

use super::ids::{FuncId, LineId, NameId, NodeId, PacketId, StackId};
use super::intern::Names;
use super::metrics::{PctOf, Percents, TimeValues};
use super::warning::Warning;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// One function: identity (name, module) and its numbers. Absent values are `None`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Function {
    /// The function's name.
    pub name: NameId,
    /// The module (object file, program, DLL) it is in; `""` where the format
    /// names none.
    pub module: NameId,
    /// Entries into the function; `None` where the format counts no calls.
    pub calls: Option<u64>,
    /// Samples with the function on top of the stack; `None` where the profile
    /// is not sampled.
    pub hits_self: Option<u64>,
    /// Samples with the function anywhere on the stack, once a sample; `None`
    /// where the profile is not sampled.
    pub hits_total: Option<u64>,
    /// Its four time values, in ms.
    pub time: TimeValues,
}

/// One source line, identity (file, line).
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The source file the line is in or, where `Facts::line_file` says
    /// `Caller`, the calling function's name.
    pub file: NameId,
    /// The line's number in `file`, as the file states it.
    pub line: u32,
    /// The function the line belongs to; `None` where the format does not say
    /// or the call was at top level.
    pub function: Option<FuncId>,
    /// A trace line where calls were made from outside any function
    /// (Xbase++'s `(top level)`): it has a caller, but not a function.
    pub top_level: bool,
    /// Samples at the line, or calls counted there (a trace: calls made from
    /// it); `None` where the format counts none.
    pub hits: Option<u64>,
    /// Time of those samples, or a trace's calls' elapsed inclusive time, in
    /// ms; `None` where the format records none.
    pub time_ms: Option<f64>,
    /// A trace's line: what was called there, the callee's name, or the
    /// callees' names (`a, b`) when the line called several.
    pub called: Option<NameId>,
}

/// What a trace line's caller is called when the stack was empty.
pub const TOP_LEVEL: &str = "(top level)";

/// A node of the calling-context tree: one distinct root-first call path,
/// known by its last function and the node of the path before it. A path
/// of depth d costs one node, not d frames, so a chain of nested calls
/// costs memory in its depth, not in its square.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    /// `NO_NODE` for a root (a path of one frame).
    pub(crate) parent: NodeId,
    /// The function the path ends in.
    pub func: FuncId,
    /// Frames on the path, 1 for a root.
    pub(crate) depth: u32,
    /// The stack whose path this is, `NO_STACK` for a path that is only a
    /// prefix of stacks (a sampled profile's callers).
    pub(crate) stack: StackId,
}

pub(crate) const NO_NODE: NodeId = NodeId(u32::MAX);
pub(crate) const NO_STACK: StackId = StackId(u32::MAX);

impl Node {
    /// The node of the path one frame shorter; `None` for a root.
    pub fn parent(&self) -> Option<NodeId> {
        (self.parent != NO_NODE).then_some(self.parent)
    }

    /// Frames on the path, 1 for a root.
    pub fn depth(&self) -> usize {
        self.depth as usize
    }

    /// The stack with exactly this path, if the profile lists one.
    pub fn stack(&self) -> Option<StackId> {
        (self.stack != NO_STACK).then_some(self.stack)
    }
}

/// One distinct root-first call path the profile states numbers for: a node
/// of the calling-context tree with its numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    pub(crate) node: NodeId,
    /// Calls into exactly this path, or samples whose stack is exactly it
    /// (`Profile::hits_count` says which); `None` where the file states none.
    pub hits: Option<u64>,
    /// Time during which the stack was exactly this path (its leaf's own time),
    /// in ms; `None` where the file states none.
    pub self_ms: Option<f64>,
    /// Time during which the stack extended this path (its callees'), in ms;
    /// `None` for samples and where the file states none.
    pub child_ms: Option<f64>,
}

impl Stack {
    /// The calling-context tree's node this stack's numbers are for.
    pub fn node(&self) -> NodeId {
        self.node
    }
}

/// One trace event, decoded on demand.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The thread id the file gives; `None` where the format has no threads (a
    /// BR sample).
    pub thread: Option<u64>,
    /// When the event happened, in ms (a BR sample: its start on the running
    /// sum of sample times); `None` where the record has no time.
    pub time_ms: Option<f64>,
    /// The operation as the record states it: `i`, `I`, `O` or `o` in a trace,
    /// `sample` in a BR log.
    pub op: String,
    /// The function the event is about; `None` where it names none the profile
    /// holds.
    pub function: Option<FuncId>,
    /// The source line the record states; `None` where it states none.
    pub line: Option<u32>,
    /// The rest of the record: a trace's parameters (and a DBF's other fields),
    /// a BR sample's clause; `None` where empty.
    pub params: Option<String>,
}

/// Random access to a packet's events, so a trace with millions of events
/// can keep them in the file and decode only the rows a pane shows.
pub trait EventSource: Send + Sync + std::fmt::Debug {
    /// How many events the packet holds.
    fn len(&self) -> usize;
    /// Event `index`, decoded from the input; `None` past the end or where its
    /// record does not decode.
    fn get(&self, index: usize) -> Option<Event>;
    /// The event's function without decoding the rest (search and
    /// drill-down scan many events for it).
    fn function(&self, index: usize) -> Option<FuncId> {
        self.get(index).and_then(|e| e.function)
    }
    /// How many calls were open on the event's thread when it happened, for
    /// indenting calls; `None` where the format has no nesting (samples).
    fn depth(&self, _index: usize) -> Option<u32> {
        None
    }
    /// Whether the packet holds no events.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A piece of the input holding events, in input order.
#[derive(Clone, Debug)]
pub struct Packet {
    /// The input file the packet was read from, as given.
    pub source: String,
    /// Where the packet's events begin on the clock, in ms (a BR log: 0);
    /// `None` where untimed.
    pub first_ms: Option<f64>,
    /// Where they end, in ms (a BR log: the sum of its sample times); `None`
    /// where untimed.
    pub last_ms: Option<f64>,
    /// The packet's events, decoded when asked.
    pub events: std::sync::Arc<dyn EventSource>,
}

/// A value of `meta`: the file says either text or a number.
#[derive(Clone, Debug, PartialEq)]
pub enum MetaValue {
    /// Text, as the file states it.
    Text(String),
    /// A whole number.
    Int(i64),
    /// A decimal number.
    Float(f64),
}

impl std::fmt::Display for MetaValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MetaValue::Text(s) => f.write_str(s),
            MetaValue::Int(n) => write!(f, "{n}"),
            MetaValue::Float(x) => write!(f, "{x}"),
        }
    }
}

/// Session-wide numbers. Row counts are not stored: they are the table lengths.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// The session's elapsed time, in ms, that elapsed percents are out of
    /// (model.md says how each format has it); `None` without times.
    pub elapsed_inclusive_ms: Option<f64>,
    /// The session's application time, in ms, that application percents are out
    /// of; `None` where the format records no OS events.
    pub application_inclusive_ms: Option<f64>,
    /// Time with no function on the stack, in ms (a trace's sum of such
    /// intervals, PLIST's stated); `None` where the format has none.
    pub outside_ms: Option<f64>,
    /// The number of samples, that hit percents are out of; `None` where the
    /// profile is not sampled or does not say.
    pub samples: Option<u64>,
}

/// A loaded profile. Built only by `ProfileBuilder::finish`.
#[derive(Debug)]
pub struct Profile {
    /// The format's name, as `--format` takes it (`plist`, `br`, `xpp`,
    /// `vs-csv`).
    pub format: String,
    /// The input files, as given, in the order read; a warning's `source`
    /// indexes this.
    pub sources: Vec<String>,
    /// What the file says about the run (banner, method, date, command line,
    /// ...), by key.
    pub meta: BTreeMap<String, MetaValue>,
    /// The session totals percents are out of.
    pub totals: Totals,
    pub(crate) names: Names,
    pub(crate) functions: super::func_table::FunctionTable,
    /// Which numbers some function has.
    pub(crate) measured: super::metrics::Measured,
    /// Percents a file stated without the values to derive them from
    /// (VS reports with percents only), by function; empty for most files.
    pub(crate) stated_pct: FxHashMap<FuncId, Percents>,
    /// Each function's shortest and longest call, by function id; empty
    /// when the format has none (most summaries), so they cost nothing.
    pub(crate) per_call: Vec<super::metrics::PerCall>,
    /// Each function's calls' durations (a timed trace's), by function
    /// id; empty elsewhere.
    pub(crate) durations: super::metrics::DurationTable,
    /// Names that two or more functions share (of different modules).
    pub(crate) shared_names: rustc_hash::FxHashSet<NameId>,
    pub(crate) lines: Vec<Line>,
    pub(crate) stacks: Vec<Stack>,
    /// The calling-context tree; a node is created after its parent, so a
    /// parent's id is below its children's.
    pub(crate) nodes: Vec<Node>,
    pub(crate) packets: Vec<Packet>,
    pub(crate) warnings: Vec<Warning>,
    pub(crate) timeline: Option<super::timeline::Timeline>,
    pub(crate) lanes: Option<super::lanes::Lanes>,
    pub(crate) hits_count: super::graph::HitsCount,
    pub(crate) facts: super::Facts,
    pub(crate) stated_edges: Vec<super::graph::StatedEdge>,
    pub(crate) unlisted: Vec<(NodeId, f64)>,
    /// Whether some stack has a self time (made once at finish: the views
    /// ask it to pick their unit).
    pub(crate) stack_times: bool,
    /// Half the last digit the file writes a time with (0: unknown).
    pub(crate) stated_rounding: f64,
    /// A trace's threads, in their first event's order; empty where the
    /// profile has one implicit thread.
    pub(crate) threads: Vec<ThreadInfo>,
    /// The way back to the input's events, for a query choosing threads.
    pub(crate) replay: Option<std::sync::Arc<dyn Replay>>,
    /// The time range a trace's numbers were cut to (`ProfileBuilder::cut_to`).
    pub(crate) range: Option<TimeRange>,
    /// A listing's line texts and where functions begin (`source.rs`).
    pub(crate) source: super::source::SourceFacts,
}

/// One thread of a trace, as the trace feed saw it (model.md § Queries).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThreadInfo {
    /// The id the trace records.
    pub id: u64,
    /// Its first and last event's times, where the trace is timed.
    pub first_ms: Option<f64>,
    /// Its last event's time.
    pub last_ms: Option<f64>,
    /// Time with a call open on it: its span less its outside time.
    pub busy_ms: Option<f64>,
    /// Its events (records of the thread that reached the rules).
    pub events: u64,
    /// Its calls (entries).
    pub calls: u64,
}

/// How a profile goes back to its input to replay part of it through the
/// format's rules: the loader gives one (profx-load implements it), and a
/// query choosing threads calls it. The model names the question only.
pub trait Replay: Send + Sync + std::fmt::Debug {
    /// The profile of a trace holding only these threads' events (`None`:
    /// every thread), its numbers cut to `range` when one is given
    /// (model.md § Time ranges). `watch` is asked to stop at least every
    /// [`Watch::EVERY`] bytes of input and told how far the replay has
    /// read; a replay it stops returns an error.
    fn select(
        &self,
        threads: Option<&[u64]>,
        range: Option<TimeRange>,
        watch: &Watch<'_>,
    ) -> Result<Profile, String>;

    /// The profile of a trace holding only these threads' events.
    fn threads(&self, ids: &[u64], watch: &Watch<'_>) -> Result<Profile, String> {
        self.select(Some(ids), None, watch)
    }
}

/// A stretch of a trace's run, `[from_ms, until_ms)` in the trace's own
/// clock (model.md § Time ranges): every interval is cut at its edges, and
/// a call counts when its entry lies in it. An `until_ms` of infinity
/// reaches past the run's last event, so calls entered at that last
/// instant count too.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeRange {
    /// Its start, inside it.
    pub from_ms: f64,
    /// Its end, outside it (infinity: past the run's last event).
    pub until_ms: f64,
}

impl TimeRange {
    /// Everything: the feed's range when none is asked.
    pub const ALL: TimeRange = TimeRange {
        from_ms: f64::NEG_INFINITY,
        until_ms: f64::INFINITY,
    };

    /// `t` held to the range: the clock an interval is measured on, so an
    /// interval's length is its part inside the range.
    #[inline(always)]
    pub fn cut(&self, t: f64) -> f64 {
        t.max(self.from_ms).min(self.until_ms)
    }

    /// Whether an event at `t` lies in the range (a call entered then
    /// counts).
    #[inline(always)]
    pub fn holds(&self, t: f64) -> bool {
        self.from_ms <= t && t < self.until_ms
    }
}

/// What a long piece of work (a thread choice's replay, a query's step)
/// asks of whoever waits for it: whether to stop, and where it is.
#[derive(Clone, Copy)]
pub struct Watch<'a> {
    /// True when the work should stop (a key was pressed, a newer query
    /// asked). Asked from any of the work's threads.
    pub cancel: &'a (dyn Fn() -> bool + Sync),
    /// Told `(done, of)`: bytes of input read so far, of how many.
    pub progress: &'a (dyn Fn(u64, u64) + Sync),
}

impl Watch<'_> {
    /// How many bytes of input a replay reads at most between two looks
    /// at `cancel` (issue 62: a key stops a thread choice within 100 ms).
    pub const EVERY: u64 = 4 << 20;

    /// A watch that never stops the work and hears nothing.
    pub const NONE: Watch<'static> = Watch {
        cancel: &|| false,
        progress: &|_, _| {},
    };

    /// Whether the work should stop.
    pub fn cancelled(&self) -> bool {
        (self.cancel)()
    }
}

impl std::fmt::Debug for Watch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch").finish_non_exhaustive()
    }
}

impl Profile {
    /// A trace's threads, in their first event's order; empty where the
    /// profile has one implicit thread.
    pub fn threads(&self) -> &[ThreadInfo] {
        &self.threads
    }

    /// The unit of every time the profile holds, as its loader stated it
    /// (`Facts::time_unit`); `None` for a profile without times (a
    /// counting or sampled-only profile, a trace without a time column, a
    /// report of percents only). O(1).
    pub fn time_unit(&self) -> Option<super::TimeUnit> {
        let (m, t) = (&self.measured, &self.totals);
        let timed = self.has_times()
            || m.elapsed_inclusive
            || m.application_inclusive
            || m.application_exclusive
            || t.elapsed_inclusive_ms.is_some()
            || t.application_inclusive_ms.is_some()
            || t.outside_ms.is_some();
        timed.then_some(self.facts.time_unit)
    }

    /// The name every view writes after a time, or heads a time column
    /// with: the profile's unit's (`TimeUnit::name`). A profile without
    /// times shows none, and says `ms` for the columns it hides.
    pub fn time_unit_name(&self) -> &'static str {
        self.time_unit().unwrap_or_default().name()
    }

    /// The profile's names, to intern into again under the same ids (a
    /// query's rebuilt profile: `ProfileBuilder::put_names`): shared, not
    /// copied, the names a step adds numbered after them.
    pub fn names_again(&self) -> super::intern::Interner {
        super::intern::Interner::extending(&self.names)
    }

    /// Whether `other`'s names are this profile's own table, shared (every
    /// profile a query makes shares its load's): no name was copied.
    pub fn shares_names_with(&self, other: &Profile) -> bool {
        self.names.shares_table(&other.names)
    }

    /// The time range a trace's numbers are cut to, as the feed was given
    /// it (model.md § Time ranges); `None` for the whole run.
    pub fn range(&self) -> Option<TimeRange> {
        self.range
    }

    /// The way back to the input, for a query that selects events.
    pub fn replay(&self) -> Option<&std::sync::Arc<dyn Replay>> {
        self.replay.as_ref()
    }

    /// The text of name `id`.
    pub fn name(&self, id: NameId) -> &str {
        self.names.resolve(id)
    }

    /// How many names there are: ids run from 0 to this, in the order the
    /// text lies in memory (a scan of every name reads it front to back).
    pub fn name_count(&self) -> usize {
        self.names.len()
    }

    /// `id`'s place in the byte order of all names (`""` is 0): comparing
    /// ranks compares the names.
    pub fn name_rank(&self, id: NameId) -> u32 {
        self.names.rank(id)
    }

    /// Every function, in `FuncId` order: rows put together when read
    /// (`FunctionTable::get`), or one value of each (`FunctionTable::calls`).
    pub fn functions(&self) -> &super::func_table::FunctionTable {
        &self.functions
    }

    /// Function `id`'s row, put together from its columns.
    pub fn function(&self, id: FuncId) -> Function {
        self.functions.get(id.index())
    }

    /// `id`'s percents of the session totals, worked out when asked: a
    /// stored copy cost 96 bytes a function, the largest part of a
    /// summary's rows.
    pub fn percents(&self, id: FuncId) -> Percents {
        super::metrics::percents(&self.function(id), self.stated(id), &self.totals)
    }

    /// One of `id`'s percents ([`Profile::percents`]).
    pub fn percent(&self, id: FuncId, of: PctOf) -> Option<f64> {
        // One column read, not the row: a table sizes a column by every
        // row's percent.
        let (t, i) = (&self.functions, id.index());
        let value = match of {
            PctOf::ElapsedInclusive => t.elapsed_inclusive(i),
            PctOf::ElapsedExclusive => t.elapsed_exclusive(i),
            PctOf::ApplicationInclusive => t.application_inclusive(i),
            PctOf::ApplicationExclusive => t.application_exclusive(i),
            PctOf::HitsSelf => t.hits_self(i).map(|n| n as f64),
            PctOf::HitsTotal => t.hits_total(i).map(|n| n as f64),
        };
        super::metrics::percent_of(value, self.stated(id), &self.totals, of)
    }

    /// `id`'s shortest and longest single call (`PerCall`), absent where
    /// the format records none.
    pub fn per_call(&self, id: FuncId) -> super::metrics::PerCall {
        self.per_call.get(id.index()).copied().unwrap_or_default()
    }

    /// Whether another function has `id`'s name (in another module): then
    /// the name alone does not say which function is meant.
    pub fn name_is_shared(&self, id: FuncId) -> bool {
        !self.shared_names.is_empty()
            && self.shared_names.contains(&self.functions.name(id.index()))
    }

    /// Whether some function may have per-call numbers.
    pub fn has_per_call(&self) -> bool {
        !self.per_call.is_empty()
    }

    /// Which of a function's numbers some function of the profile has.
    pub fn measured(&self) -> super::metrics::Measured {
        self.measured
    }

    /// Whether some function can have percent `of` at all
    /// (`metrics::percent_possible`).
    pub fn percent_possible(&self, of: PctOf) -> bool {
        super::metrics::percent_possible(&self.totals, of, !self.stated_pct.is_empty())
    }

    fn stated(&self, id: FuncId) -> Option<&Percents> {
        // Most files state none: skip hashing the id.
        if self.stated_pct.is_empty() {
            return None;
        }
        self.stated_pct.get(&id)
    }

    /// Every function's id, in row order.
    pub fn function_ids(&self) -> impl ExactSizeIterator<Item = FuncId> + use<> {
        (0..self.functions.len()).map(FuncId::from_index)
    }

    /// Display name of a function.
    pub fn function_name(&self, id: FuncId) -> &str {
        self.name(self.functions.name(id.index()))
    }

    /// The module of a function, `""` where the format names none.
    pub fn function_module(&self, id: FuncId) -> &str {
        self.name(self.functions.module(id.index()))
    }

    /// Every line, in `LineId` order.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// Line `id`'s row.
    pub fn line(&self, id: LineId) -> &Line {
        &self.lines[id.index()]
    }

    /// Every line's id, in row order.
    pub fn line_ids(&self) -> impl ExactSizeIterator<Item = LineId> + use<> {
        (0..self.lines.len()).map(LineId::from_index)
    }

    /// Every stack, in `StackId` order.
    pub fn stacks(&self) -> &[Stack] {
        &self.stacks
    }

    /// Stack `id`'s row.
    pub fn stack(&self, id: StackId) -> &Stack {
        &self.stacks[id.index()]
    }

    /// Every stack's id, in row order.
    pub fn stack_ids(&self) -> impl ExactSizeIterator<Item = StackId> + use<> {
        (0..self.stacks.len()).map(StackId::from_index)
    }

    /// The name of a line's function, `(top level)` for calls made outside
    /// any function, `None` where the format does not say.
    pub fn line_function_name(&self, id: LineId) -> Option<&str> {
        let l = self.line(id);
        match (l.function, l.top_level) {
            (Some(f), _) => Some(self.function_name(f)),
            (None, true) => Some(TOP_LEVEL),
            (None, false) => None,
        }
    }

    /// Frames of a stack, root first, leaf last: a walk up the tree, as
    /// long as the path is deep (read one stack's at a time).
    pub fn frames(&self, id: StackId) -> Vec<FuncId> {
        let mut out = Vec::new();
        self.path_into(self.stack(id).node, &mut out);
        out
    }

    /// A node's frames, root first, into `out` (cleared first).
    pub fn path_into(&self, node: NodeId, out: &mut Vec<FuncId>) {
        out.clear();
        let mut at = Some(node);
        while let Some(n) = at {
            let row = self.node(n);
            out.push(row.func);
            at = row.parent();
        }
        out.reverse();
    }

    /// The tree node of a stack's path.
    pub fn stack_node(&self, id: StackId) -> NodeId {
        self.stack(id).node
    }

    /// A stack's last frame: the function the path ends in.
    pub fn stack_leaf(&self, id: StackId) -> FuncId {
        self.node(self.stack(id).node).func
    }

    /// How many frames a stack's path has.
    pub fn stack_depth(&self, id: StackId) -> usize {
        self.node(self.stack(id).node).depth()
    }

    /// Every node of the calling-context tree, parents before children.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Node `id` of the calling-context tree.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// Every packet, in input order.
    pub fn packets(&self) -> &[Packet] {
        &self.packets
    }

    /// Every packet's id, in input order.
    pub fn packet_ids(&self) -> impl ExactSizeIterator<Item = PacketId> + use<> {
        (0..self.packets.len()).map(PacketId::from_index)
    }

    /// Packet `id`.
    pub fn packet(&self, id: PacketId) -> &Packet {
        &self.packets[id.index()]
    }

    /// The trace's pushes and pops in time order, when the load recorded
    /// them (`LoadOptions::timeline`) and the format is a trace.
    pub fn timeline(&self) -> Option<&super::timeline::Timeline> {
        self.timeline.as_ref()
    }

    /// A timed trace's threads across the run, a lane each in the order
    /// of `threads` (made while loading, whatever the trace's size);
    /// `None` for an untimed trace, a load that skipped them
    /// (`ProfileBuilder::skip_lanes`) and every other profile.
    pub fn lanes(&self) -> Option<&super::lanes::Lanes> {
        self.lanes.as_ref()
    }

    /// Adds a warning about the profile's inputs found outside its load
    /// (a followed trace's last line, still being written when following
    /// stopped), among the others in input order.
    pub fn add_warning(&mut self, w: Warning) {
        let at = (self.warnings).partition_point(|x| (x.source, &x.place) <= (w.source, &w.place));
        self.warnings.insert(at, w);
    }

    /// Every warning of the load: those kept whole in input order, then a
    /// summary per kind past the budget.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Number of trace events over all packets.
    pub fn event_count(&self) -> usize {
        self.packets.iter().map(|p| p.events.len()).sum()
    }

    /// Warnings about the input a packet came from.
    pub fn packet_warnings(&self, id: PacketId) -> usize {
        let source = &self.packet(id).source;
        self.warnings
            .iter()
            .filter(|w| self.sources.get(w.source) == Some(source))
            .count()
    }

    /// `where` of a warning as reports print it: the place, prefixed by the
    /// file when the profile came from more than one.
    pub fn warning_place(&self, w: &Warning) -> String {
        match (&w.place, self.sources.len() > 1) {
            (super::Place::File(_), _) | (_, false) => w.place.to_string(),
            (place, true) => format!("{}: {place}", self.sources[w.source]),
        }
    }
}
