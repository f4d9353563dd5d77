//! Everything a person can ask of the app, named for what it does, not for
//! the key that asks it: the keymap (keymap.rs) turns a key into an
//! `Intent` by where the keyboard is, the mouse and the terminal give the
//! rest, and `App::update` hands each to the one that owns it (the app's
//! own state, an overlay, or the pane on screen).

/// One thing a person asked of the app (see the module's doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Leave the app.
    Quit,
    /// The key list (`?`).
    Help,
    /// Move the selection by rows (negative is up); in the Flame pane, to
    /// the caller (up) or the heaviest callee (down).
    Move(isize),
    /// Move the selection a page up.
    PageUp,
    /// Move the selection a page down.
    PageDown,
    /// The first row (the Flame pane's top frame).
    First,
    /// The last row.
    Last,
    /// The next tab.
    NextPane,
    /// The previous tab.
    PrevPane,
    /// The pane of a number key, counted from 0.
    GoPane(usize),
    /// Sort by the next column to the right.
    SortNext,
    /// Sort by the next column to the left.
    SortPrev,
    /// Reverse the sort.
    Reverse,
    /// Scroll the columns after the name left (negative) or right.
    Columns(isize),
    /// Call tree: open the selected row (again: move into it).
    OpenRow,
    /// Call tree: close the selected row (again: move to its parent).
    CloseRow,
    /// Call tree: open every row under the selected one.
    OpenAll,
    /// Call tree: open every row of the tree (perf report's expand all).
    OpenEvery,
    /// Call tree: close every row (perf report's collapse all).
    CloseEvery,
    /// Functions: the modules, each one's exclusive and inclusive time
    /// and calls (a step of the Functions tab's trail).
    Modules,
    /// Call tree: open the heaviest path from the selected row.
    HotPath,
    /// Call tree: top-down ⇄ bottom-up.
    Invert,
    /// Flame: the frame (or call) beside the selected one, left or right.
    Beside(isize),
    /// Flame: the selected frame (or call) becomes the full width.
    Zoom,
    /// Flame: back to the zoom before; none left, back in the history.
    ZoomOut,
    /// Flame: the calls in time order ⇄ the flame graph.
    TimeOrder,
    /// Timeline: the cursor a cell earlier (negative) or later along the
    /// run.
    Cursor(isize),
    /// Timeline: zoom in (positive) or out, around the cursor.
    ZoomTime(isize),
    /// Timeline: the window of time a quarter of its width earlier
    /// (negative) or later.
    Pan(isize),
    /// Timeline: a range's start at the cursor; again, its end.
    MarkRange,
    /// Timeline: the range marked asked of the query.
    CommitRange,
    /// Timeline: the marks cleared; with none, the query's last range
    /// backed out.
    BackOutRange,
    /// Flame: each frame's children by name ⇄ heaviest first (kept for
    /// the rest of the run).
    ChildOrder,
    /// Flame: the icicle (roots on top) ⇄ a flame graph (roots at the
    /// bottom), kept for the rest of the run.
    Flip,
    /// The selected function at every place it is called in the call tree.
    ShowInTree,
    /// The selected function's sandwich in the Flame pane (in a sandwich:
    /// leave it, or make the selected caller's).
    Sandwich,
    /// A transform of the query (tui.md § The query) on the selected
    /// function, or the selected call node.
    Transform(Op),
    /// `u`: the query's last step off.
    PopStep,
    /// `U`: the loaded profile again, every thread, no step.
    ClearQuery,
    /// `.`: the menu of transforms on the selection.
    Transforms,
    /// The threads list of a trace.
    Threads,
    /// The threads list: choose the thread under the cursor, or not.
    Toggle,
    /// The threads list: every thread, merged.
    AllThreads,
    /// Drill down from the selected row (or caller, callee, frame).
    Open,
    /// The source of the selected line or function, its cost in the
    /// margin (a step of the tab's trail).
    OpenSource,
    /// Source view: the costly line before (negative) or after.
    CostlyLine(isize),
    /// Functions: the keyboard into the callers, the callees, the calls'
    /// durations (a trace's), and back.
    CallersCallees,
    /// Functions: the Trace pane on the first event of the function's
    /// slowest call.
    SlowestCall,
    /// A packet's events: from a call to its return, or back.
    Partner,
    /// A comparison's tables: absolute values ⇄ shares of each run's
    /// total (tui.md § Comparisons).
    Shares,
    /// A comparison's flame graph: BASE's widths ⇄ NEW's.
    BaseWidths,
    /// Follow the trace as the program writes it, or stop following
    /// (tui.md § Following a trace).
    Follow,
    /// Functions: the selected function's lines.
    ShowLines,
    /// Leave the detail split, or go back one step in the history.
    Back,
    /// `]`: forward again to the step last gone back from.
    Forward,
    /// Close what is open (the prompt and its filter, the finder, the
    /// help, a running export); in a pane, as `Back`.
    Cancel,
    /// Open the search prompt (fzf's syntax) over the pane's rows.
    Search,
    /// The next row that matches the search.
    NextMatch,
    /// The previous row that matches the search.
    PrevMatch,
    /// The jump-to-function finder.
    Find,
    /// Write the pane's rows (filtered, sorted) to a CSV file beside the
    /// input.
    Export,
    /// Copy the selected name (or path) to the clipboard.
    Copy,
    /// Copy the command line that prints what the screen shows (the
    /// query's threads and steps, the pane's view).
    CopyCommand,
    /// A key that does nothing where it was pressed, and says why (what
    /// does it, elsewhere).
    Explain(Why),
    /// A character typed into the search prompt or the finder.
    Input(char),
    /// Text pasted into the prompt: one intent, one filtering.
    Paste(Pasted),
    /// Delete the prompt's last character.
    Erase,
    /// Empty the prompt.
    ClearInput,
    /// Keep the filter (Enter in the prompt) or take the finder's choice.
    Accept,
    /// Time passed with no key while a job runs (an export): its progress
    /// is drawn, its end taken.
    Tick,
    /// A left click at a screen cell.
    Click {
        /// Column, from 0 at the left.
        x: u16,
        /// Row, from 0 at the top.
        y: u16,
    },
    /// Mouse wheel rows at a screen cell (negative is up).
    Wheel {
        /// Column, from 0 at the left.
        x: u16,
        /// Row, from 0 at the top.
        y: u16,
        /// Rows to scroll; negative is up.
        rows: isize,
    },
    /// The terminal's new size.
    Resize {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
}

/// Why a key does nothing where it was pressed, and what does it
/// elsewhere. Its words are made when said, each key in them named as the
/// keymap binds it (`keymap::key_for`), so a key moved there moves here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// No column to sort by (Info, the call tree's sorts are its own).
    NoSort,
    /// Callers and callees are the Functions pane's split.
    CallersInFunctions,
    /// A function's lines open from the Functions pane.
    LinesFromFunctions,
    /// The modules open from the Functions pane.
    ModulesFromFunctions,
    /// Opening rows and turning the tree over are the Call tree's.
    TreeKeys,
    /// A call node's steps need a call node: the Call tree's or the flame
    /// graph's.
    NodeSteps,
    /// `NodeSteps`, in the time order: the flame graph's or the Call tree's.
    NodeStepsInChart,
    /// The time order exports on the command line.
    ChartExport,
    /// The time order draws calls as they ran: ordering and turning are
    /// the flame graph's.
    ChartLook,
    /// A packet's events keep their trace order.
    EventsOrder,
    /// Info has nothing to search.
    InfoSearch,
    /// Info is no table.
    InfoExport,
    /// A function's slowest call is found from Functions.
    SlowestFromFunctions,
    /// A call's return (and back) is found among a packet's events.
    PartnerInEvents,
    /// The Timeline draws time, not rows.
    TimelineSearch,
    /// A call's span is taken where calls are: a packet's events, the time
    /// order, the Timeline's marks.
    CallSpan,
}

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use super::keymap::{Place, key_for, node_keys, pane_key};
        use crate::analysis::view::View;
        let key = key_for;
        let nodes = node_keys;
        let tree = pane_key(View::Tree);
        match self {
            Why::NoSort => write!(f, "nothing to sort here"),
            Why::CallersInFunctions => write!(
                f,
                "{} works in Functions",
                key(&Intent::CallersCallees, Place::Functions)
            ),
            Why::LinesFromFunctions => write!(
                f,
                "{} shows a function's lines: select one in Functions",
                key(&Intent::ShowLines, Place::Functions)
            ),
            Why::ModulesFromFunctions => write!(
                f,
                "{} shows the modules from Functions ({})",
                key(&Intent::Modules, Place::Functions),
                pane_key(View::Table(crate::analysis::view::Table::Functions))
            ),
            Why::TreeKeys => write!(
                f,
                "{}, {}, {}, {} and {} open, close and turn over the Call tree ({tree})",
                key(&Intent::OpenEvery, Place::Tree),
                key(&Intent::CloseEvery, Place::Tree),
                key(&Intent::OpenAll, Place::Tree),
                key(&Intent::HotPath, Place::Tree),
                key(&Intent::Invert, Place::Tree),
            ),
            Why::NodeSteps => write!(
                f,
                "{}: select one in the Call tree ({tree}) or the Flame graph ({})",
                nodes(),
                pane_key(View::Flame)
            ),
            Why::NodeStepsInChart => write!(
                f,
                "{} of the flame graph ({}) or the Call tree ({tree})",
                nodes(),
                key(&Intent::TimeOrder, Place::Chart)
            ),
            Why::ChartExport => write!(
                f,
                "the calls in time order export for speedscope or Chrome: profx export --to speedscope"
            ),
            Why::ChartLook => write!(
                f,
                "time order draws the calls as they ran: {} and {} order and turn the flame graph ({})",
                key(&Intent::ChildOrder, Place::Flame),
                key(&Intent::Flip, Place::Flame),
                key(&Intent::TimeOrder, Place::Chart)
            ),
            Why::EventsOrder => write!(f, "events keep their trace order"),
            Why::InfoSearch => write!(f, "Info has nothing to search"),
            Why::InfoExport => write!(f, "Info is no table: profx report --view info prints it"),
            Why::SlowestFromFunctions
            | Why::PartnerInEvents
            | Why::TimelineSearch
            | Why::CallSpan => self.of_calls(f),
        }
    }
}

impl Why {
    /// The whys of a trace's calls and their times, apart: `fmt` stays
    /// short enough to read.
    fn of_calls(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use super::keymap::{Place, key_for, pane_key};
        use crate::analysis::view::View;
        let key = key_for;
        match self {
            Why::SlowestFromFunctions => write!(
                f,
                "{} shows a function's slowest call: select one in Functions",
                key(&Intent::SlowestCall, Place::Functions)
            ),
            Why::PartnerInEvents => write!(
                f,
                "{} goes from a call to its return among a packet's events (Trace {}, {})",
                key(&Intent::Partner, Place::Events),
                pane_key(View::Table(crate::analysis::view::Table::Packets)),
                key(&Intent::Open, Place::Trace)
            ),
            Why::TimelineSearch => write!(
                f,
                "the Timeline has no rows to search: {} lists the threads, searched by their heaviest functions",
                key(&Intent::Threads, Place::Query)
            ),
            Why::CallSpan => write!(
                f,
                "no call here: {} takes a call's span among a packet's events (Trace {}, {}), in the time order (Flame {}) or marked on the Timeline ({})",
                key(&Intent::Transform(Op::Range), Place::Query),
                pane_key(View::Table(crate::analysis::view::Table::Packets)),
                key(&Intent::Open, Place::Trace),
                key(&Intent::TimeOrder, Place::Flame),
                key(&Intent::MarkRange, Place::Timeline)
            ),
            _ => Ok(()),
        }
    }
}

/// The status line takes a why as its words.
impl From<Why> for String {
    fn from(why: Why) -> String {
        why.to_string()
    }
}

/// A transform of the query, as a key asks it: on the selected function,
/// or (`MergeNode`, `FocusNode`) on the selected call node of the Call
/// tree or the flame graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `m`: merge the function.
    Merge,
    /// `M`: merge the call node.
    MergeNode,
    /// `F`: focus on the function.
    Focus,
    /// `>`: focus on the call node's subtree.
    FocusNode,
    /// `d`: drop the paths through the function.
    Drop,
    /// `C`: collapse the function's module.
    CollapseModule,
    /// `R`: collapse the function's recursion.
    CollapseRecursion,
    /// `Ctrl-R`: collapse its direct recursion.
    CollapseDirectRecursion,
    /// `z`: collapse the function's subtree.
    CollapseSubtree,
    /// `v`: only the selected call's time, as the query's range (a call of
    /// a packet's events or of the time order). Not a transform: it sits
    /// with the thread choice and applies before every step (model.md §
    /// Time ranges), but the menu offers it beside them.
    Range,
}

impl Op {
    /// Every transform, in the `.` menu's order.
    pub const ALL: [Op; 10] = [
        Op::Merge,
        Op::MergeNode,
        Op::Focus,
        Op::FocusNode,
        Op::Drop,
        Op::CollapseModule,
        Op::CollapseRecursion,
        Op::CollapseDirectRecursion,
        Op::CollapseSubtree,
        Op::Range,
    ];

    /// Whether it takes a call node (a path), not a function.
    pub fn on_node(self) -> bool {
        matches!(self, Op::MergeNode | Op::FocusNode)
    }

    /// Whether its step rewrites call paths (`Step::needs_paths`), so a
    /// profile without any cannot take it.
    pub fn needs_paths(self) -> bool {
        use crate::analysis::query::{Step, Target};
        let t = || Target(String::new());
        let step = match self {
            Op::Merge => Step::Merge(t()),
            Op::MergeNode => Step::MergePath(Vec::new()),
            Op::Focus => Step::Focus(t()),
            Op::FocusNode => Step::FocusPath(Vec::new()),
            Op::Drop => Step::Drop(t()),
            Op::CollapseModule => Step::CollapseModule(String::new()),
            Op::CollapseRecursion => Step::CollapseRecursion(t()),
            Op::CollapseDirectRecursion => Step::CollapseDirectRecursion(t()),
            Op::CollapseSubtree => Step::CollapseSubtree(t()),
            Op::Range => return false,
        };
        step.needs_paths()
    }

    /// What it does, as the `.` menu says it before its operand.
    pub fn words(self) -> &'static str {
        match self {
            Op::Merge => "merge function",
            Op::MergeNode => "merge call node",
            Op::Focus => "focus on function",
            Op::FocusNode => "focus on subtree",
            Op::Drop => "drop samples with function",
            Op::CollapseModule => "collapse module",
            Op::CollapseRecursion => "collapse recursion of",
            Op::CollapseDirectRecursion => "collapse direct recursion of",
            Op::CollapseSubtree => "collapse subtree of",
            Op::Range => "only the call's time, a range:",
        }
    }
}

/// Text pasted into a prompt, made fit for one: line breaks and other
/// control characters become spaces, and it is cut at [`Pasted::MAX`]
/// characters (a query is a few words; a 100 KB paste must not make every
/// row's match take seconds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pasted(pub String);

impl Pasted {
    /// The most characters a paste keeps.
    pub const MAX: usize = 256;

    /// `text` made fit for a prompt (see the type's doc).
    pub fn new(text: &str) -> Pasted {
        let clean = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(Pasted::MAX);
        Pasted(clean.collect())
    }
}
