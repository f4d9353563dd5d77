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
    pub name: NameId,
    pub module: NameId,
    pub calls: Option<u64>,
    pub hits_self: Option<u64>,
    pub hits_total: Option<u64>,
    pub time: TimeValues,
}

/// One source line, identity (file, line).
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub file: NameId,
    pub line: u32,
    pub function: Option<FuncId>,
    /// A trace line where calls were made from outside any function
    /// (Xbase++'s `(top level)`): it has a caller, but not a function.
    pub top_level: bool,
    pub hits: Option<u64>,
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
    pub fn parent(&self) -> Option<NodeId> {
        (self.parent != NO_NODE).then_some(self.parent)
    }

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
    pub hits: Option<u64>,
    pub self_ms: Option<f64>,
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
    pub thread: Option<u64>,
    pub time_ms: Option<f64>,
    pub op: String,
    pub function: Option<FuncId>,
    pub line: Option<u32>,
    pub params: Option<String>,
}

/// Random access to a packet's events, so a trace with millions of events
/// can keep them in the file and decode only the rows a pane shows.
pub trait EventSource: Send + Sync + std::fmt::Debug {
    fn len(&self) -> usize;
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
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A piece of the input holding events, in input order.
#[derive(Debug)]
pub struct Packet {
    pub source: String,
    pub first_ms: Option<f64>,
    pub last_ms: Option<f64>,
    pub events: Box<dyn EventSource>,
}

/// A value of `meta`: the file says either text or a number.
#[derive(Clone, Debug, PartialEq)]
pub enum MetaValue {
    Text(String),
    Int(i64),
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
    pub elapsed_inclusive_ms: Option<f64>,
    pub application_inclusive_ms: Option<f64>,
    pub outside_ms: Option<f64>,
    pub samples: Option<u64>,
}

/// A loaded profile. Built only by `ProfileBuilder::finish`.
#[derive(Debug)]
pub struct Profile {
    pub format: String,
    pub sources: Vec<String>,
    pub meta: BTreeMap<String, MetaValue>,
    pub totals: Totals,
    pub(crate) names: Names,
    pub(crate) functions: Vec<Function>,
    /// Which numbers some function has.
    pub(crate) measured: super::metrics::Measured,
    /// Percents a file stated without the values to derive them from
    /// (VS reports with percents only), by function; empty for most files.
    pub(crate) stated_pct: FxHashMap<FuncId, Percents>,
    /// Each function's shortest and longest call, by function id; empty
    /// when the format has none (most summaries), so they cost nothing.
    pub(crate) per_call: Vec<super::metrics::PerCall>,
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
    pub(crate) hits_count: super::graph::HitsCount,
    pub(crate) facts: super::Facts,
    pub(crate) stated_edges: Vec<super::graph::StatedEdge>,
    pub(crate) unlisted: Vec<(NodeId, f64)>,
    /// Whether some stack has a self time (made once at finish: the views
    /// ask it to pick their unit).
    pub(crate) stack_times: bool,
    /// Half the last digit the file writes a time with (0: unknown).
    pub(crate) stated_rounding: f64,
}

impl Profile {
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

    pub fn functions(&self) -> &[Function] {
        &self.functions
    }

    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.index()]
    }

    /// `id`'s percents of the session totals, worked out when asked: a
    /// stored copy cost 96 bytes a function, the largest part of a
    /// summary's rows.
    pub fn percents(&self, id: FuncId) -> Percents {
        super::metrics::percents(self.function(id), self.stated(id), &self.totals)
    }

    /// One of `id`'s percents ([`Profile::percents`]).
    pub fn percent(&self, id: FuncId, of: PctOf) -> Option<f64> {
        super::metrics::percent(self.function(id), self.stated(id), &self.totals, of)
    }

    /// `id`'s shortest and longest single call (`PerCall`), absent where
    /// the format records none.
    pub fn per_call(&self, id: FuncId) -> super::metrics::PerCall {
        self.per_call.get(id.index()).copied().unwrap_or_default()
    }

    /// Whether another function has `id`'s name (in another module): then
    /// the name alone does not say which function is meant.
    pub fn name_is_shared(&self, id: FuncId) -> bool {
        !self.shared_names.is_empty() && self.shared_names.contains(&self.function(id).name)
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

    pub fn function_ids(&self) -> impl ExactSizeIterator<Item = FuncId> + use<> {
        (0..self.functions.len()).map(FuncId::from_index)
    }

    /// Display name of a function.
    pub fn function_name(&self, id: FuncId) -> &str {
        self.name(self.function(id).name)
    }

    pub fn function_module(&self, id: FuncId) -> &str {
        self.name(self.function(id).module)
    }

    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    pub fn line(&self, id: LineId) -> &Line {
        &self.lines[id.index()]
    }

    pub fn line_ids(&self) -> impl ExactSizeIterator<Item = LineId> + use<> {
        (0..self.lines.len()).map(LineId::from_index)
    }

    pub fn stacks(&self) -> &[Stack] {
        &self.stacks
    }

    pub fn stack(&self, id: StackId) -> &Stack {
        &self.stacks[id.index()]
    }

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

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    pub fn packets(&self) -> &[Packet] {
        &self.packets
    }

    pub fn packet_ids(&self) -> impl ExactSizeIterator<Item = PacketId> + use<> {
        (0..self.packets.len()).map(PacketId::from_index)
    }

    pub fn packet(&self, id: PacketId) -> &Packet {
        &self.packets[id.index()]
    }

    /// The trace's pushes and pops in time order, when the load recorded
    /// them (`LoadOptions::timeline`) and the format is a trace.
    pub fn timeline(&self) -> Option<&super::timeline::Timeline> {
        self.timeline.as_ref()
    }

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
