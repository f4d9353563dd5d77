//! The panes: each owns its state, takes the intents that are its own
//! (`update`, which answers with an `Effect` for the app) and draws itself
//! from `&self` (`render`). A step of the history is a `Pane`; going back
//! restores one as it was left.
//!
//! What every pane reads and none changes (the profile, what is derived
//! from it, the window) comes in a `Ctx`. A new pane is a file (or a
//! folder: `table/mod.rs` its state and keys, `table/draw.rs` its drawing)
//! here, a variant of `Pane` (with its tab in `TABS`, or reached from
//! another pane by an `Effect::Open`), and its keys in `keymap.rs`.

pub(super) mod compare;
pub(super) mod flame;
pub(super) mod info;
mod spot;
pub(super) use spot::Spot;
pub(super) mod table;
pub(super) mod timeline;
pub(super) mod tree;

use super::columns::Src;
use super::derived::{Neighbours, Opening, Prepared, TableColumns};
use super::intent::Intent;
use super::keymap::Place;
use super::layout::{self, Areas};
use super::render::theme::Theme;
use crate::analysis::callgraph::CallGraph;
use crate::analysis::calltree::TreeIndex;
use crate::analysis::query::Reads;
use crate::analysis::search::Query;
use crate::analysis::view::{Table, View};
use crate::model::{FuncId, NameId, PacketId, Profile};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::sync::Arc;

pub(super) use compare::ComparePane;
pub(super) use flame::FlamePane;
pub(super) use info::InfoPane;
pub use table::TablePane;
pub(super) mod source;
pub(super) use source::SourcePane;
pub(super) use table::{Extra, Focus, Rows, Within};
pub(super) use timeline::TimelinePane;
pub use tree::TreePane;

/// The eight panes of the tab line, in the order of their number keys; a
/// new pane takes the next number.
pub const TABS: [View; 8] = [
    View::Table(Table::Functions),
    View::Table(Table::Lines),
    View::Table(Table::Stacks),
    View::Tree,
    View::Flame,
    View::Table(Table::Packets),
    View::Info,
    View::Timeline,
];

/// A tab's name on the tab line.
pub(super) fn tab_title(tab: View) -> &'static str {
    match tab {
        View::Table(Table::Functions) => "Functions",
        View::Table(Table::Lines) => "Lines",
        View::Table(Table::Stacks) => "Stacks",
        View::Table(Table::Packets) => "Trace",
        View::Table(Table::Threads) => "Threads",
        View::Table(Table::Modules) => "Modules",
        View::Tree | View::Callers | View::Callees => "Call tree",
        View::Flame => "Flame",
        View::Timeline => "Timeline",
        View::Info => "Info",
        View::Source => "Source",
    }
}

/// A tab's place on the tab line.
pub(super) fn tab_index(tab: View) -> usize {
    TABS.iter().position(|&t| t == tab).unwrap_or(0)
}

/// What every pane reads: the profile, what is derived from it, the
/// window.
pub struct Ctx<'a> {
    /// The profile this pane reads, as the query's answer says
    /// (`Reads::of_view`): the paths' (its transforms applied), or for the
    /// Trace pane the events' (the threads chosen).
    pub profile: &'a Arc<Profile>,
    /// The query's one answer: the events' profile (what the time order
    /// draws) and the one mapping from its functions to the paths'.
    pub answer: &'a crate::analysis::query::Answer,
    /// What is derived from the profile once (orders, the graph, trees).
    pub prepared: &'a Arc<Prepared>,
    /// A large profile's first view being ordered on a thread.
    pub opening: Option<&'a Opening>,
    /// The terminal's size.
    pub size: Rect,
    /// How the flame graph is drawn, as the app keeps it for the run.
    pub flame: flame::Look,
}

impl<'a> Ctx<'a> {
    /// What a pane reads of the whole loaded profile `answer`
    /// (`Answer::whole`), with nothing of the query's: the threads list's
    /// table.
    pub fn over(
        answer: &'a crate::analysis::query::Answer,
        prepared: &'a Arc<Prepared>,
        size: Rect,
    ) -> Ctx<'a> {
        Ctx {
            profile: answer.loaded(),
            answer,
            prepared,
            opening: None,
            size,
            // The threads list draws no flame.
            flame: flame::Look::default(),
        }
    }

    /// A table's columns and widths (while the first view is ordered, the
    /// Functions table's measured over its first rows).
    pub fn columns(&self, t: Table) -> &'a TableColumns {
        match self.opening {
            Some(o) if t == Table::Functions && !self.prepared.columns_made(t) => o.columns(),
            _ => self.prepared.columns(self.profile, t),
        }
    }

    /// What a table's cells are read from.
    pub fn src(&self) -> Src<'a> {
        Src::new(self.profile, self.prepared)
    }

    /// The call graph (model.md), made on first need if its thread has
    /// not made it yet.
    pub fn graph(&self) -> &'a CallGraph {
        self.prepared.graph(self.profile)
    }

    /// The call tree's children and weights (shared by the Call tree and
    /// Flame panes).
    pub fn tree_index(&self) -> Arc<TreeIndex> {
        self.prepared.tree(self.profile)
    }

    /// A function's callers and callees for the detail split: the graph's
    /// lists once it is made; before, the function's own (the nodes at and
    /// below its own, the same lists to the bit), so the first frame does
    /// not wait for the whole graph. `None` while they are being counted.
    pub fn neighbours(&self, f: FuncId) -> Option<Neighbours<'a>> {
        if let Some(o) = self.opening {
            return o.neighbours(f);
        }
        Some(match self.prepared.graph_made() {
            Some(g) => {
                let p = self.profile;
                (
                    g.callers(p, f).into(),
                    g.callees(p, f).into(),
                    g.recursive(f),
                )
            }
            None => {
                let l = CallGraph::neighbours(self.profile, f);
                (l.callers.into(), l.callees.into(), l.recursive)
            }
        })
    }

    /// Which functions' names match the query `text`, by function id: each
    /// name matched once, as a pane's search does.
    pub fn function_hits(&self, text: &str) -> Vec<bool> {
        let p = self.profile;
        match self.prepared.search_names(p, Table::Functions) {
            Some(names) => {
                let hits = names.scan.hits(p, text);
                names.by_row.iter().map(|n| hits.get(n.index())).collect()
            }
            None => {
                let q = Query::parse(text);
                p.function_ids()
                    .map(|f| q.is_match(&crate::text::visible(p.function_name(f))))
                    .collect()
            }
        }
    }

    /// Where everything sits for a pane without a split under its table
    /// (a table with one says its rows: `TablePane::areas`).
    pub fn areas(&self) -> Areas {
        layout::areas(self.size, None)
    }

    /// A status for a profile without call paths.
    pub fn no_call_paths(&self, what: &str) -> Option<String> {
        self.profile.nodes().is_empty().then(|| {
            format!(
                "no {what}: this {} profile has no call paths",
                self.profile.format
            )
        })
    }
}

/// What a pane's `update` asks of the app.
#[derive(Debug, PartialEq)]
pub enum Effect {
    /// Taken (the pane's state may have changed).
    Done,
    /// Not the pane's: the app takes it, or nothing does.
    Ignored,
    /// Taken, with an answer for the status line.
    Say(String),
    /// A new step of the history.
    Open(Step),
    /// The pane has nothing to take back: the app goes back a step.
    Back,
    /// A way of drawing the flame graph for the app to keep for the rest
    /// of the run (every Flame pane reads it from `Ctx::flame`), with
    /// words for the status line.
    Look(flame::Look, String),
    /// A range of the run marked in the Timeline, from and until, for the
    /// app to ask of the query (`App::ask_range`).
    AskRange(f64, f64),
    /// The Timeline's `Esc` with no marks: the query's last range backed
    /// out (`App::back_out_range`).
    BackOutRange,
}

/// What `e` writes of a pane (`Pane::exported`).
pub enum Exported {
    /// A table's rows as listed: the table, the packet whose events they
    /// are, their ids.
    Rows {
        table: Table,
        packet: Option<PacketId>,
        ids: Vec<u32>,
    },
    /// The paths a pane draws: the flame graph's icicle and zoom (`None`:
    /// the whole tree), and the search keeping paths through a match.
    Paths {
        noun: &'static str,
        drawn: Option<(Arc<crate::analysis::flame_view::Icicle>, Option<u32>)>,
        search: Option<String>,
    },
}

/// Where a drill-down goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The function in the Functions pane.
    Function(FuncId),
    Stacks(FuncId),
    Lines(FuncId),
    /// The function at every place of the call tree.
    Tree(FuncId),
    Events(PacketId),
    /// A packet's events, the cursor on one (`w`, `%`).
    Event(PacketId, usize),
    /// The modules (`D`), a step of the Functions tab's trail.
    Modules,
    /// The functions of one module (its name).
    ModuleFunctions(NameId),
}

impl Step {
    /// The same step with its function mapped by `f` (to another profile
    /// of the run); `None` where the function has no counterpart there.
    pub fn carried(self, f: impl Fn(FuncId) -> Option<FuncId>) -> Option<Step> {
        Some(match self {
            Step::Function(g) => Step::Function(f(g)?),
            Step::Stacks(g) => Step::Stacks(f(g)?),
            Step::Lines(g) => Step::Lines(f(g)?),
            Step::Tree(g) => Step::Tree(f(g)?),
            other => other,
        })
    }

    /// The tab the step's pane belongs to.
    pub fn tab(self) -> View {
        match self {
            Step::Function(_) | Step::Modules | Step::ModuleFunctions(_) => {
                View::Table(Table::Functions)
            }
            Step::Stacks(_) => View::Table(Table::Stacks),
            Step::Lines(_) => View::Table(Table::Lines),
            Step::Tree(_) => View::Tree,
            Step::Events(_) | Step::Event(..) => View::Table(Table::Packets),
        }
    }
}

/// What a key on a row whose function the query removed says, and does
/// nothing else: `MAIN: merged by step 1 (merge MAIN) · u undoes it`.
pub(super) fn removed_words(r: &crate::analysis::query::Removed) -> String {
    let undo = super::keymap::key_for(&Intent::PopStep, Place::Query);
    format!("{r} · {undo} undoes it")
}

/// How a path's names are joined when copied (as the Stacks pane's path
/// reads, root first).
pub(super) const JOIN: &str = " > ";

/// A search's text and what it parses to (`None` when empty).
#[derive(Debug, Default)]
pub struct Search {
    pub text: String,
    pub query: Option<Query>,
}

impl Search {
    pub fn set(&mut self, text: &str) {
        self.text = text.to_string();
        let q = Query::parse(text);
        self.query = (!q.is_empty()).then_some(q);
    }
}

/// One step of the history: a pane and its state.
#[derive(Debug)]
pub enum Pane {
    /// A table: functions, lines, stacks, packets or a packet's events.
    Table(TablePane),
    /// The call tree, top-down or bottom-up.
    Tree(TreePane),
    /// The flame graph, its sandwich, or the calls in time order.
    Flame(FlamePane),
    /// What the file says of itself, and the warnings.
    Info(InfoPane),
    /// A trace's threads across the run.
    Timeline(TimelinePane),
    /// A comparison's functions (the Functions tab of `profx diff`).
    Compare(ComparePane),
    /// A source file with each line's cost (`o`), a step of any tab.
    Source(SourcePane),
}

impl Pane {
    /// A pane's root view, as its tab opens it.
    pub fn root(tab: View, cx: &Ctx) -> Pane {
        match tab {
            View::Table(t) => Pane::Table(TablePane::new(t, Within::All, cx)),
            // A source view is a step of a tab, never a tab's root: its
            // lines' tab stands for it.
            View::Source => Pane::Table(TablePane::new(Table::Lines, Within::All, cx)),
            View::Tree | View::Callers | View::Callees => Pane::Tree(TreePane::new(None, cx)),
            View::Flame => Pane::Flame(FlamePane::new(None, cx)),
            View::Info => Pane::Info(InfoPane::new(cx)),
            View::Timeline => Pane::Timeline(TimelinePane::new(cx)),
        }
    }

    /// The pane a drill-down opens.
    pub fn step(step: Step, cx: &Ctx) -> Pane {
        match step {
            Step::Function(f) => {
                let mut t = TablePane::new(Table::Functions, Within::All, cx);
                t.show(f.index() as u32, cx);
                Pane::Table(t)
            }
            Step::Stacks(f) => Pane::Table(TablePane::new(Table::Stacks, Within::Function(f), cx)),
            Step::Lines(f) => Pane::Table(TablePane::new(Table::Lines, Within::Function(f), cx)),
            Step::Events(k) => Pane::Table(TablePane::new(Table::Packets, Within::Packet(k), cx)),
            Step::Event(k, i) => {
                let mut t = TablePane::new(Table::Packets, Within::Packet(k), cx);
                t.show(u32::try_from(i).unwrap_or(u32::MAX), cx);
                Pane::Table(t)
            }
            Step::Tree(f) => Pane::Tree(TreePane::new(Some(f), cx)),
            Step::Modules => Pane::Table(TablePane::new(Table::Modules, Within::All, cx)),
            Step::ModuleFunctions(m) => {
                Pane::Table(TablePane::new(Table::Functions, Within::Module(m), cx))
            }
        }
    }

    /// The step this pane was opened by (`Pane::step` makes it again), for
    /// a pane of a tab's trail; `None` for a root, or a pane no step opens
    /// (a source view, the sandwich).
    pub fn step_of(&self) -> Option<Step> {
        match self {
            Pane::Table(t) => match (t.table, t.within) {
                (Table::Stacks, Within::Function(f)) => Some(Step::Stacks(f)),
                (Table::Lines, Within::Function(f)) => Some(Step::Lines(f)),
                (Table::Packets, Within::Packet(k)) => Some(Step::Events(k)),
                (Table::Modules, Within::All) => Some(Step::Modules),
                (Table::Functions, Within::Module(m)) => Some(Step::ModuleFunctions(m)),
                _ => None,
            },
            Pane::Tree(t) => t.about.map(Step::Tree),
            _ => None,
        }
    }

    /// The tab the pane is under.
    pub fn tab(&self) -> View {
        match self {
            // The modules are a step of the Functions tab's trail, not
            // a tab of their own.
            Pane::Table(t) if t.table == Table::Modules => View::Table(Table::Functions),
            Pane::Table(t) => View::Table(t.table),
            Pane::Tree(_) => View::Tree,
            Pane::Flame(_) => View::Flame,
            Pane::Info(_) => View::Info,
            Pane::Timeline(_) => View::Timeline,
            Pane::Compare(c) => c.tab(),
            Pane::Source(s) => s.tab,
        }
    }

    /// Where its keys come from, most particular first (keymap.rs).
    pub fn places(&self) -> &'static [Place] {
        match self {
            Pane::Table(t) => t.places(),
            Pane::Tree(_) => &[Place::Tree, Place::Everywhere],
            Pane::Flame(f) if f.in_chart() => &[Place::Chart, Place::Everywhere],
            Pane::Flame(f) if f.against.is_some() => {
                &[Place::FlameCompared, Place::Flame, Place::Everywhere]
            }
            Pane::Flame(_) => &[Place::Flame, Place::Everywhere],
            Pane::Info(_) => &[Place::Info, Place::Everywhere],
            Pane::Timeline(_) => &[Place::Timeline, Place::Everywhere],
            Pane::Compare(c) if c.in_lists() => &[Place::Lists, Place::Compare, Place::Everywhere],
            Pane::Compare(c) if c.pairs().is_some() => {
                &[Place::ComparePairs, Place::Compare, Place::Everywhere]
            }
            Pane::Compare(_) => &[Place::Compare, Place::Everywhere],
            Pane::Source(_) => &[Place::Source, Place::Everywhere],
        }
    }

    /// Takes an intent meant for the pane; what the app must do after.
    pub fn update(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        match self {
            Pane::Table(t) => t.update(intent, cx),
            Pane::Tree(t) => t.update(intent, cx),
            Pane::Flame(f) => f.update(intent, cx),
            Pane::Info(i) => i.update(intent, cx),
            Pane::Timeline(t) => t.update(intent, cx),
            Pane::Compare(c) => c.update(intent, cx),
            Pane::Source(s) => s.update(intent, cx),
        }
    }

    /// Draws the pane into its areas of the screen.
    pub fn render(&self, buf: &mut Buffer, a: &Areas, cx: &Ctx, theme: Theme) {
        match self {
            Pane::Table(t) => t.render(buf, a, cx, theme),
            Pane::Tree(t) => t.render(buf, a, cx, theme),
            Pane::Flame(f) => f.render(buf, a, cx, theme),
            Pane::Info(i) => i.render(buf, a, cx, theme),
            Pane::Timeline(t) => t.render(buf, a, cx, theme),
            Pane::Compare(c) => c.render(buf, a, cx, theme),
            Pane::Source(s) => s.render(buf, a, cx, theme),
        }
    }

    /// The search typed into the prompt; `None` where nothing is searched
    /// (Info).
    pub fn search(&self) -> Option<&Search> {
        match self {
            Pane::Table(t) => Some(&t.search),
            Pane::Tree(t) => Some(&t.search),
            Pane::Flame(f) => Some(&f.search),
            Pane::Compare(c) => Some(&c.search),
            Pane::Info(_) | Pane::Timeline(_) | Pane::Source(_) => None,
        }
    }

    /// What the search in effect holds, for the prompt when it opens: a
    /// table's rows are counted beside it; the tree's marked nodes and the
    /// flame's matching frames say their share.
    pub fn search_said(&self, cx: &Ctx) -> Option<String> {
        match self {
            Pane::Tree(t) => t.search_said(cx),
            Pane::Flame(f) => f.search_said(cx),
            Pane::Table(_)
            | Pane::Info(_)
            | Pane::Timeline(_)
            | Pane::Compare(_)
            | Pane::Source(_) => None,
        }
    }

    /// The keyboard back on the pane's rows from a list of its split.
    pub fn to_rows(&mut self) {
        if let Pane::Table(t) = self {
            t.focus = Focus::Table;
        }
    }

    /// Keeps the cursor on a row and its row on screen, whatever changed
    /// (the window, a step gone back to).
    pub fn keep_visible(&mut self, cx: &Ctx) {
        match self {
            Pane::Table(t) => t.keep_visible(cx),
            Pane::Tree(t) => t.keep_visible(cx),
            Pane::Info(i) => i.keep_visible(cx),
            Pane::Timeline(t) => t.keep_visible(cx),
            Pane::Compare(c) => c.keep_visible(cx),
            Pane::Source(s) => s.keep_visible(cx),
            Pane::Flame(_) => {}
        }
    }

    /// A new search text; `narrowing` when it keeps a subset of what the
    /// last matched (it was typed on). An answer for the status line.
    pub fn set_search(&mut self, text: &str, narrowing: bool, cx: &Ctx) -> Option<String> {
        match self {
            Pane::Table(t) => t.set_search(text, narrowing, cx),
            Pane::Tree(t) => t.set_search(text, cx),
            Pane::Flame(f) => f.set_search(text, cx),
            Pane::Compare(c) => c.set_search(text),
            Pane::Info(_) | Pane::Timeline(_) | Pane::Source(_) => None,
        }
    }

    /// The function of a table's selected row itself, whichever list of
    /// its split the keyboard is in; any other pane's selection's.
    pub fn row_function(&self, cx: &Ctx) -> Option<FuncId> {
        match self {
            Pane::Table(t) => t.row_function(cx),
            other => other.function(cx),
        }
    }

    /// The function the selection is on (a row's, a caller's, a frame's).
    pub fn function(&self, cx: &Ctx) -> Option<FuncId> {
        match self {
            Pane::Table(t) => t.function(cx),
            Pane::Tree(t) => t.function(cx),
            Pane::Flame(f) => f.function(cx),
            Pane::Timeline(t) => t.function(cx),
            Pane::Compare(c) => c.function(cx),
            Pane::Source(s) => s.function,
            Pane::Info(_) => None,
        }
    }

    /// A Stacks row's leaf, the function the row names (with the table
    /// focused: a frame of the split is `function`'s).
    pub fn stack_leaf(&self, cx: &Ctx) -> Option<FuncId> {
        match self {
            Pane::Table(t) if t.table == Table::Stacks && t.focus == Focus::Table => {
                t.frames(cx).last().copied()
            }
            _ => None,
        }
    }

    /// The screen row of the selection in a pane of rows (its table
    /// focused), for a box drawn over the pane to keep clear of.
    pub fn selected_y(&self, table: Rect) -> Option<u16> {
        let (cursor, offset) = match self {
            Pane::Table(t) if t.focus == Focus::Table => (t.cursor, t.offset),
            Pane::Tree(t) => (t.cursor, t.offset),
            Pane::Compare(c) => (c.cursor, c.offset),
            _ => return None,
        };
        let y = table.y + 2 + u16::try_from(cursor.checked_sub(offset)?).ok()?;
        (y < table.bottom()).then_some(y)
    }

    /// The selected call node's path, outermost first (`M`, `>`); why
    /// there is none where the pane has no call nodes.
    pub fn node_path(&self, cx: &Ctx) -> Result<Vec<FuncId>, String> {
        match self {
            Pane::Tree(t) => t.node_path(cx),
            Pane::Flame(f) => f.node_path(cx),
            Pane::Table(_)
            | Pane::Info(_)
            | Pane::Timeline(_)
            | Pane::Compare(_)
            | Pane::Source(_) => Err(super::intent::Why::NodeSteps.into()),
        }
    }

    /// The selected call's span, from its entry to its return (`v`, the
    /// range of a call): a packet's event and its partner, or a call of
    /// the time order; why there is none elsewhere.
    pub fn call_span(&self, cx: &Ctx) -> Result<(f64, f64), String> {
        match self {
            Pane::Table(t) => t.call_span(cx),
            Pane::Flame(f) if f.in_chart() => f.chart.call_span(),
            Pane::Flame(_)
            | Pane::Tree(_)
            | Pane::Info(_)
            | Pane::Timeline(_)
            | Pane::Compare(_)
            | Pane::Source(_) => Err(super::intent::Why::CallSpan.into()),
        }
    }

    /// Which of the answer's profiles the pane reads (`Reads::of_view`
    /// of its tab: the one place that says it).
    pub fn reads(&self) -> Reads {
        Reads::of_view(self.tab())
    }

    /// Which step of the query removed the function of the row on screen
    /// (an event's, or a call's of the time order), if one did: a key then
    /// says so and does nothing else.
    pub fn removed(&self, cx: &Ctx) -> Option<crate::analysis::query::Removed> {
        match self {
            Pane::Table(t) => t.removed(cx),
            Pane::Flame(f) => f.removed(cx),
            Pane::Timeline(t) => t.removed(cx),
            Pane::Tree(_) | Pane::Info(_) | Pane::Compare(_) | Pane::Source(_) => None,
        }
    }

    /// What `y` copies: the selected name, or path (tree, flame, stack).
    pub fn copy_text(&self, cx: &Ctx) -> Option<String> {
        match self {
            Pane::Table(t) => t.copy_text(cx),
            Pane::Tree(t) => t.copy_text(cx),
            Pane::Flame(f) => f.copy_text(cx),
            Pane::Timeline(t) => t.copy_text(cx),
            Pane::Compare(c) => c.copy_text(),
            Pane::Source(s) => s.function.map(|f| cx.profile.function_name(f).to_string()),
            Pane::Info(_) => None,
        }
    }

    /// The step as the breadcrumb names it.
    pub fn step_name(&self, cx: &Ctx) -> String {
        match self {
            Pane::Table(t) => t.step_name(cx),
            Pane::Tree(t) => t.step_name(cx),
            Pane::Flame(_) => "Flame".into(),
            Pane::Info(_) => "Info".into(),
            Pane::Timeline(_) => "Timeline".into(),
            Pane::Compare(c) => match c.noun() {
                "stacks" => "Stacks compared".into(),
                "lines" => "Lines compared".into(),
                _ => "Functions compared".into(),
            },
            Pane::Source(s) => s.step_name(),
        }
    }

    /// Whether the pane has a split under its table.
    pub fn has_detail(&self) -> bool {
        match self {
            Pane::Table(t) => t.has_detail(),
            Pane::Compare(c) => c.split().is_some(),
            _ => false,
        }
    }

    /// The rows of a table with a split under it, whose height they set
    /// (`layout::areas`); `None` for a pane without one.
    pub fn split(&self) -> Option<usize> {
        match self {
            Pane::Table(t) => t.split(),
            Pane::Compare(c) => c.split(),
            _ => None,
        }
    }

    /// The keyboard is in the split under the table.
    pub fn in_lists(&self) -> bool {
        match self {
            Pane::Table(t) => t.focus != Focus::Table,
            Pane::Compare(c) => c.in_lists(),
            _ => false,
        }
    }

    /// The table, if this pane is one.
    pub fn as_table(&self) -> Option<&TablePane> {
        match self {
            Pane::Table(t) => Some(t),
            _ => None,
        }
    }

    /// The call tree, if this pane is it.
    pub fn as_tree(&self) -> Option<&TreePane> {
        match self {
            Pane::Tree(t) => Some(t),
            _ => None,
        }
    }

    /// The Info pane, if this is it.
    pub fn as_info(&self) -> Option<&InfoPane> {
        match self {
            Pane::Info(i) => Some(i),
            _ => None,
        }
    }

    /// What `e` writes of the pane, as it is shown: a table's rows (in
    /// their order, the search applied), or the paths the Call tree or
    /// flame graph draws (the flame's hidden functions, sandwich and zoom
    /// as drawn; the search's text, which keeps the paths through a
    /// match); `None` for a pane with nothing to write.
    pub fn exported(&self) -> Option<Exported> {
        let text = |s: &Search| s.query.as_ref().map(|_| s.text.clone());
        Some(match self {
            Pane::Table(t) => Exported::Rows {
                table: t.table,
                packet: match t.within {
                    Within::Packet(k) => Some(k),
                    _ => None,
                },
                ids: (0..t.rows.len()).filter_map(|i| t.rows.get(i)).collect(),
            },
            Pane::Tree(t) => Exported::Paths {
                noun: "tree",
                drawn: None,
                search: text(&t.search),
            },
            Pane::Flame(f) if !f.in_chart() => Exported::Paths {
                noun: "flame",
                drawn: Some((Arc::clone(&f.tree), f.zoom.last().copied())),
                search: text(&f.search),
            },
            Pane::Flame(_)
            | Pane::Info(_)
            | Pane::Timeline(_)
            | Pane::Compare(_)
            | Pane::Source(_) => return None,
        })
    }

    /// The Flame pane's sandwich, if this is it and it shows one.
    pub fn sandwich(&self) -> Option<FuncId> {
        self.as_flame().and_then(|f| f.sandwich)
    }

    /// Puts the cursor on function `f`'s row, where this is the whole
    /// Functions table (a new query's root on the function selected
    /// before).
    pub fn show_function(&mut self, f: FuncId, cx: &Ctx) {
        if let Pane::Table(t) = self
            && (t.table, t.within) == (Table::Functions, Within::All)
        {
            t.show(f.index() as u32, cx);
        }
    }

    /// The Flame pane, if this is it.
    pub fn as_flame(&self) -> Option<&FlamePane> {
        match self {
            Pane::Flame(f) => Some(f),
            _ => None,
        }
    }

    /// The Timeline, if this is it.
    pub fn as_timeline(&self) -> Option<&TimelinePane> {
        match self {
            Pane::Timeline(t) => Some(t),
            _ => None,
        }
    }

    /// The Flame pane, if this is it, to change.
    pub fn as_flame_mut(&mut self) -> Option<&mut FlamePane> {
        match self {
            Pane::Flame(f) => Some(f),
            _ => None,
        }
    }
}

/// A function's name cut short for titles and the breadcrumb.
pub(super) fn short_name(p: &Profile, f: FuncId) -> String {
    let name = crate::text::visible(p.function_name(f));
    super::fit::fit_cut(&name, 28, super::fit::Cut::Name).text
}

/// `at + n`, kept within `0..len`.
pub(super) fn step(at: usize, n: isize, len: usize) -> usize {
    at.saturating_add_signed(n).min(len.saturating_sub(1))
}

/// `at + dir`, wrapping around `0..len`.
pub(super) fn step_wrap(at: usize, dir: isize, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    (at as isize + dir).rem_euclid(len as isize) as usize
}

/// The area inside a bordered block.
pub(super) fn inner(r: Rect) -> Rect {
    Rect::new(
        r.x + 1,
        r.y + 1,
        r.width.saturating_sub(2),
        r.height.saturating_sub(2),
    )
}

/// Keeps a list's cursor on a row and its window scrolled to show it.
pub(super) fn keep_visible(cursor: &mut usize, offset: &mut usize, len: usize, shown: usize) {
    *cursor = (*cursor).min(len.saturating_sub(1));
    if *cursor < *offset {
        *offset = *cursor;
    } else if *cursor >= *offset + shown {
        *offset = *cursor + 1 - shown;
    }
    // No empty rows below the last one while rows are hidden above.
    *offset = (*offset).min(len.saturating_sub(shown));
}
