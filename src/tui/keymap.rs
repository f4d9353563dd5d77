//! The one keymap: `(mode, pane, key) → Intent`. Every key the app knows
//! is a row of [`SECTIONS`], with the text the help shows for it and the
//! word the footer hints with; the `?` overlay, the footer and the README's
//! key tables are all made from these rows (a test holds the README to
//! them), so a key is moved by editing one row, and a key that does nothing
//! in a pane is never offered there.
//!
//! A pane names the places its keys come from, most particular first
//! (`Pane::places`: the Functions pane is `[Functions, Tables,
//! Everywhere]`); the first section of those that binds the key wins.

use super::app::Mode;
use super::intent::{Intent, Op, Pasted, Why};
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

/// Where a set of keys applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Every pane (not the prompt, the finder or the help).
    Everywhere,
    /// The sortable tables: Functions, Lines, Stacks, Trace (a packet's
    /// events, in trace order, are `Events`).
    Tables,
    Functions,
    /// The Modules table, a step from Functions.
    Modules,
    /// The Functions pane of a comparison of two runs.
    Compare,
    /// The Stacks and Lines panes of a comparison (before `Compare`).
    ComparePairs,
    /// The Flame pane of a comparison.
    FlameCompared,
    Stacks,
    Lines,
    /// A packet's events, in trace order.
    Events,
    Info,
    /// The source view (`o`).
    Source,
    /// The packets of a trace.
    Trace,
    Tree,
    Flame,
    /// The Flame pane in time order.
    Chart,
    /// The Timeline: a trace's threads across the run.
    Timeline,
    /// A list of the split under a table (callers, callees, frames).
    Lists,
    /// An export writing on its own thread: Esc cancels it in any pane.
    Exporting,
    /// The query's keys, in every pane after its own (and in the `.`
    /// menu, which applies them).
    Query,
    /// The `.` menu of transforms.
    Menu,
    /// The threads list.
    Threads,
    /// The search prompt and the finder's input.
    Prompt,
    Help,
}

/// A key as the keymap matches it: the code, whether Ctrl is held, and
/// whether Shift is held on a key that is no character (a character has
/// Shift in it; Alt is not told apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
    pub shift: bool,
}

const fn ch(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
        shift: false,
    }
}

const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: true,
        shift: false,
    }
}

const fn code(code: KeyCode) -> Key {
    Key {
        code,
        ctrl: false,
        shift: false,
    }
}

/// A key that is no character with Shift held (`Shift-←`).
const fn shift(code: KeyCode) -> Key {
    Key {
        code,
        ctrl: false,
        shift: true,
    }
}

/// Where a hint sits on the footer's line, in this order: the search
/// leads, the pane's own keys follow, then stepping through matches, going
/// back, the finder, the help and quitting end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum At {
    Lead,
    Pane,
    Match,
    Back,
    Find,
    Help,
    Quit,
}

/// When a footer hint is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum When {
    Always,
    /// A search is in effect.
    Searching,
    /// There is a step to go back to.
    Drilled,
    /// A query is in effect (a thread chosen, a transform).
    Queried,
}

/// One intent and the keys that ask for it.
#[derive(Debug)]
pub(super) struct Binding {
    pub keys: &'static [Key],
    pub intent: Intent,
    /// The keys as the help names them; `None` for a binding the row
    /// before it names with its own (`↑ ↓` names both moves).
    pub label: Option<&'static str>,
    pub help: &'static str,
    /// The footer's key and word for it, and when they show.
    pub hint: Option<Hint>,
}

/// A footer hint: the key as the footer writes it, its word, when it is
/// offered and where it sits.
pub(super) type Hint = (&'static str, &'static str, When, At);

/// The keys of one place, as the help lists them.
#[derive(Debug)]
pub(super) struct Section {
    pub title: &'static str,
    pub place: Place,
    /// Listed in the help (and the README); the help's and the prompt's
    /// own keys, which their boxes name, are not.
    pub listed: bool,
    pub bindings: &'static [Binding],
    /// Lines of the help that are no key (the mouse, the query syntax).
    pub notes: &'static [(&'static str, &'static str)],
}

const fn bind(
    keys: &'static [Key],
    intent: Intent,
    label: &'static str,
    help: &'static str,
) -> Binding {
    Binding {
        keys,
        intent,
        label: Some(label),
        help,
        hint: None,
    }
}

/// A binding the row before names.
const fn also(keys: &'static [Key], intent: Intent) -> Binding {
    Binding {
        keys,
        intent,
        label: None,
        help: "",
        hint: None,
    }
}

/// `bind`, with the footer's key and word for it.
const fn bind_hint(
    keys: &'static [Key],
    intent: Intent,
    label: &'static str,
    help: &'static str,
    hint: Hint,
) -> Binding {
    Binding {
        keys,
        intent,
        label: Some(label),
        help,
        hint: Some(hint),
    }
}

/// `also`, with the footer's key and word for it.
const fn also_hint(keys: &'static [Key], intent: Intent, hint: Hint) -> Binding {
    Binding {
        keys,
        intent,
        label: None,
        help: "",
        hint: Some(hint),
    }
}

use At::{Back, Find, Help, Lead, Match, Pane, Quit};
use KeyCode::{BackTab, Backspace, Down, End, Enter, Esc, Home, Left, PageDown, PageUp, Right, Up};
use When::{Always, Drilled, Queried, Searching};

/// The number keys: a pane's number is its place in `pane::TABS`, so a
/// pane added after the eight takes `9` with no change here (its help
/// label, "1-8", is the one text to update).
const DIGITS: &[Key] = &[
    ch('1'),
    ch('2'),
    ch('3'),
    ch('4'),
    ch('5'),
    ch('6'),
    ch('7'),
    ch('8'),
    ch('9'),
];

pub(super) const SECTIONS: &[Section] = &[
    Section {
        title: "Everywhere",
        place: Place::Everywhere,
        listed: true,
        bindings: &[
            bind_hint(
                &[ch('q')],
                Intent::Quit,
                "q  Ctrl-C",
                "quit",
                ("q", "quit", Always, Quit),
            ),
            bind_hint(
                &[ch('?')],
                Intent::Help,
                "?",
                "this help (Esc closes it)",
                ("?", "help", Always, Help),
            ),
            bind(
                &[code(KeyCode::Tab)],
                Intent::NextPane,
                "Tab  Shift-Tab  1-8",
                "switch pane",
            ),
            also(&[code(BackTab)], Intent::PrevPane),
            also(DIGITS, Intent::GoPane(0)),
            bind(&[code(Up), ch('k')], Intent::Move(-1), "↑ ↓  j k", "move"),
            also(&[code(Down), ch('j')], Intent::Move(1)),
            bind(
                &[code(PageUp), ctrl('b')],
                Intent::PageUp,
                "PgUp PgDn  Space",
                "page",
            ),
            also(&[code(PageDown), ch(' '), ctrl('f')], Intent::PageDown),
            bind(&[code(Home)], Intent::First, "Home End", "first / last row"),
            also(&[code(End)], Intent::Last),
            bind_hint(
                &[ch('g'), ctrl('p')],
                Intent::Find,
                "Ctrl-P  g",
                "jump to a function",
                ("g", "find", Always, Find),
            ),
            bind_hint(
                &[code(Backspace), ch('[')],
                Intent::Back,
                "Backspace  Esc",
                "back (a filter at the start: clear it)",
                ("⌫", "back", Drilled, Back),
            ),
            also(&[code(Esc)], Intent::Cancel),
            bind(
                &[ch(']')],
                Intent::Forward,
                "[  ]",
                "back / forward again to the step gone back from",
            ),
            bind(
                &[ch('t'), ch('T')],
                Intent::ShowInTree,
                "t  T",
                "the selected function in the call tree, at every place it is called (the Flame pane: T)",
            ),
            bind(
                &[ch('f')],
                Intent::Sandwich,
                "f",
                "the selected function's sandwich in the Flame pane",
            ),
            bind(
                &[ch('o')],
                Intent::OpenSource,
                "o",
                "the source of the selected line or function (found in the source folders, Info lists them), each line's cost in the margin",
            ),
            bind(
                &[ch('y')],
                Intent::Copy,
                "y",
                "copy the selected name (tree, flame: its path) to the clipboard",
            ),
            bind(
                &[ch('L')],
                Intent::Follow,
                "L",
                "follow the trace as the program writes it; again: stop, and read it whole",
            ),
            // What a key does where it does something, said where it does
            // nothing; a place that binds the key comes first.
            also(&[ch('s'), ch('S'), ch('r')], Intent::Explain(Why::NoSort)),
            also(&[ch('c')], Intent::Explain(Why::CallersInFunctions)),
            also(&[ch('l')], Intent::Explain(Why::LinesFromFunctions)),
            also(&[ch('D')], Intent::Explain(Why::ModulesFromFunctions)),
            also(&[ch('w')], Intent::Explain(Why::SlowestFromFunctions)),
            also(&[ch('%')], Intent::Explain(Why::PartnerInEvents)),
            also(
                &[ch('*'), ch('p'), ch('i'), ch('E'), ch('-')],
                Intent::Explain(Why::TreeKeys),
            ),
        ],
        notes: &[(
            "mouse",
            "click a tab, a heading (sorts), a row; the wheel scrolls",
        )],
    },
    Section {
        title: "Tables",
        place: Place::Tables,
        listed: true,
        bindings: &[
            bind_hint(
                &[ch('/')],
                Intent::Search,
                "/",
                "search: filter as you type",
                ("/", "search", Always, Lead),
            ),
            bind_hint(
                &[ch('s')],
                Intent::SortNext,
                "s  S",
                "sort by the next / previous column",
                ("s", "sort", Always, Pane),
            ),
            also(&[ch('S')], Intent::SortPrev),
            bind_hint(
                &[ch('r')],
                Intent::Reverse,
                "r",
                "reverse the sort",
                ("r", "reverse", Always, Pane),
            ),
            bind_hint(
                &[ch('n')],
                Intent::NextMatch,
                "n  N",
                "next / previous match",
                ("n/N", "match", Searching, Match),
            ),
            also(&[ch('N')], Intent::PrevMatch),
            bind(
                &[code(Left), ch('h')],
                Intent::Columns(-1),
                "← →  h",
                "scroll the columns after the name",
            ),
            also(&[code(Right)], Intent::Columns(1)),
            bind(
                &[ch('e')],
                Intent::Export,
                "e",
                "export the rows shown to CSV next to the input",
            ),
            also(&[ch('M'), ch('>')], Intent::Explain(Why::NodeSteps)),
        ],
        notes: &[],
    },
    Section {
        title: "Functions",
        place: Place::Functions,
        listed: true,
        bindings: &[
            bind_hint(
                &[code(Enter)],
                Intent::Open,
                "Enter",
                "stacks containing the function",
                ("⏎", "stacks", Always, Pane),
            ),
            also_hint(
                &[ch('t')],
                Intent::ShowInTree,
                ("t", "in tree", Always, Pane),
            ),
            bind_hint(
                &[ch('c')],
                Intent::CallersCallees,
                "c",
                "into callers, then callees, then (a trace) the calls' durations, then back",
                ("c", "callers/callees", Always, Pane),
            ),
            bind_hint(
                &[ch('l')],
                Intent::ShowLines,
                "l",
                "the function's lines",
                ("l", "lines", Always, Pane),
            ),
            bind(
                &[ch('D')],
                Intent::Modules,
                "D",
                "the modules: each one's exclusive and inclusive time and calls",
            ),
            bind(
                &[ch('w')],
                Intent::SlowestCall,
                "w",
                "the function's slowest call (a trace's), in the Trace pane",
            ),
        ],
        notes: &[],
    },
    Section {
        title: "Modules (D from Functions)",
        place: Place::Modules,
        listed: true,
        bindings: &[bind_hint(
            &[code(Enter)],
            Intent::Open,
            "Enter",
            "the module's functions",
            ("⏎", "functions", Always, Pane),
        )],
        notes: &[],
    },
    Section {
        title: "Call tree",
        place: Place::Tree,
        listed: true,
        bindings: &[
            bind_hint(
                &[code(Right), ch('l')],
                Intent::OpenRow,
                "→ ←  l h",
                "open / close the row (again: into it / to its parent)",
                ("→←", "open/close", Always, Pane),
            ),
            also(&[code(Left), ch('h')], Intent::CloseRow),
            bind_hint(
                &[ch('*')],
                Intent::OpenAll,
                "*",
                "open everything under the row",
                ("*", "all", Always, Pane),
            ),
            bind(
                &[ch('E')],
                Intent::OpenEvery,
                "E  -",
                "open every row of the tree (a huge tree: as many levels as a million rows hold) / close every row",
            ),
            also(&[ch('-')], Intent::CloseEvery),
            bind_hint(
                &[ch('p')],
                Intent::HotPath,
                "p",
                "open the hot path: the heaviest callees, down to 5 % of the total",
                ("p", "hot path", Always, Pane),
            ),
            bind_hint(
                &[ch('i')],
                Intent::Invert,
                "i",
                "turn over: bottom-up (functions by self time, callers below)",
                ("i", "invert", Always, Pane),
            ),
            bind_hint(
                &[ch('s')],
                Intent::SortNext,
                "s  S  r",
                "order each row's children by another column / reverse",
                ("s", "sort", Always, Pane),
            ),
            also(&[ch('S')], Intent::SortPrev),
            also(&[ch('r')], Intent::Reverse),
            bind_hint(
                &[ch('/')],
                Intent::Search,
                "/  n  N",
                "mark matching functions and open the paths to them; step",
                ("/", "search", Always, Lead),
            ),
            also_hint(
                &[ch('n')],
                Intent::NextMatch,
                ("n/N", "match", Searching, Match),
            ),
            also(&[ch('N')], Intent::PrevMatch),
            bind_hint(
                &[code(Enter)],
                Intent::Open,
                "Enter",
                "the row's function",
                ("⏎", "function", Always, Pane),
            ),
            bind(
                &[ch('e')],
                Intent::Export,
                "e",
                "export the tree's paths as folded stacks next to the input (a search: the paths through its matches)",
            ),
        ],
        notes: &[],
    },
    Section {
        title: "Stacks",
        place: Place::Stacks,
        listed: true,
        bindings: &[bind_hint(
            &[code(Enter)],
            Intent::Open,
            "Enter",
            "into the frames; Enter on a frame: its function",
            ("⏎", "frames", Always, Pane),
        )],
        notes: &[],
    },
    Section {
        title: "Flame",
        place: Place::Flame,
        listed: true,
        bindings: &[
            bind_hint(
                &[ch('/')],
                Intent::Search,
                "/  n  N",
                "highlight matching frames, with their share; step",
                ("/", "search", Always, Lead),
            ),
            also_hint(
                &[ch('n')],
                Intent::NextMatch,
                ("n/N", "match", Searching, Match),
            ),
            also(&[ch('N')], Intent::PrevMatch),
            bind_hint(
                &[code(Up), ch('k')],
                Intent::Move(-1),
                "↑ ↓",
                "the caller / the heaviest callee, as drawn (in a flame graph ↑ is the callee)",
                ("↑↓←→", "move", Always, Pane),
            ),
            also(&[code(Down), ch('j')], Intent::Move(1)),
            bind(
                &[code(Left), ch('h')],
                Intent::Beside(-1),
                "← →  h l",
                "the frame to the left / right",
            ),
            also(&[code(Right), ch('l')], Intent::Beside(1)),
            bind_hint(
                &[code(Enter)],
                Intent::Zoom,
                "Enter",
                "zoom: the frame becomes the full width",
                ("⏎", "zoom", Always, Pane),
            ),
            bind_hint(
                &[code(Esc), code(Backspace), ch('[')],
                Intent::ZoomOut,
                "Backspace  Esc",
                "zoom back out",
                ("Esc", "out", Always, Pane),
            ),
            bind(
                &[ch('f')],
                Intent::Sandwich,
                "f",
                "sandwich: its callers above, its callees below (again: leave)",
            ),
            bind(&[code(Home)], Intent::First, "Home", "the root frame"),
            bind(
                &[ch('s')],
                Intent::ChildOrder,
                "s",
                "children by name / heaviest first (left heavy), for the rest of the run",
            ),
            bind(
                &[ch('^')],
                Intent::Flip,
                "^",
                "a flame graph (roots at the bottom) / an icicle (roots on top), for the rest of the run",
            ),
            bind_hint(
                &[ch('t')],
                Intent::TimeOrder,
                "t",
                "time order: a box a call, x is time (again: the graph)",
                ("t", "time", Always, Pane),
            ),
            bind_hint(
                &[ch('T')],
                Intent::ShowInTree,
                "T",
                "the frame's function in the call tree",
                ("T", "tree", Always, Pane),
            ),
            bind(
                &[ch('e')],
                Intent::Export,
                "e",
                "export the paths drawn (sandwich, zoom, search) as folded stacks next to the input",
            ),
        ],
        notes: &[(
            "↑ ↓ in a sandwich",
            "past the function into its callers and back; Enter: a caller's sandwich",
        )],
    },
    Section {
        title: "Flame, time order",
        place: Place::Chart,
        listed: true,
        bindings: &[
            bind_hint(
                &[ch('/')],
                Intent::Search,
                "/  n  N",
                "highlight the matching calls; the next / previous in the run",
                ("/", "search", Always, Lead),
            ),
            also_hint(
                &[ch('n')],
                Intent::NextMatch,
                ("n/N", "match", Searching, Match),
            ),
            also(&[ch('N')], Intent::PrevMatch),
            bind_hint(
                &[code(Up), ch('k')],
                Intent::Move(-1),
                "↑ ↓",
                "the caller / the longest callee (past the edge: the next thread)",
                ("↑↓←→", "move", Always, Pane),
            ),
            also(&[code(Down), ch('j')], Intent::Move(1)),
            bind(
                &[code(Left), ch('h')],
                Intent::Beside(-1),
                "← →  h l",
                "the call before / after on the row",
            ),
            also(&[code(Right), ch('l')], Intent::Beside(1)),
            bind_hint(
                &[code(Enter)],
                Intent::Zoom,
                "Enter",
                "zoom: the call's time becomes the full width",
                ("⏎", "zoom", Always, Pane),
            ),
            bind_hint(
                &[code(Esc), code(Backspace), ch('[')],
                Intent::ZoomOut,
                "Backspace  Esc",
                "zoom back out",
                ("Esc", "out", Always, Pane),
            ),
            bind(
                &[code(Home)],
                Intent::First,
                "Home",
                "the first call in the window",
            ),
            bind(
                &[ch('f')],
                Intent::Sandwich,
                "f",
                "the call's function's sandwich in the flame graph",
            ),
            bind_hint(
                &[ch('t')],
                Intent::TimeOrder,
                "t",
                "the flame graph again",
                ("t", "graph", Always, Pane),
            ),
            bind_hint(
                &[ch('T')],
                Intent::ShowInTree,
                "T",
                "the call's function in the call tree",
                ("T", "tree", Always, Pane),
            ),
            also(&[ch('e')], Intent::Explain(Why::ChartExport)),
            also(&[ch('M'), ch('>')], Intent::Explain(Why::NodeStepsInChart)),
            also(&[ch('s'), ch('^')], Intent::Explain(Why::ChartLook)),
        ],
        notes: &[],
    },
    Section {
        title: "Timeline",
        place: Place::Timeline,
        listed: true,
        bindings: &[
            bind_hint(
                &[code(Left), ch('h')],
                Intent::Cursor(-1),
                "← →  h l",
                "move the cursor along the run, a cell at a time",
                ("←→", "cursor", Always, Pane),
            ),
            also(&[code(Right), ch('l')], Intent::Cursor(1)),
            bind_hint(
                &[ch('+'), ch('=')],
                Intent::ZoomTime(1),
                "+  -",
                "zoom in / out around the cursor",
                ("+-", "zoom", Always, Pane),
            ),
            also(&[ch('-')], Intent::ZoomTime(-1)),
            bind(
                &[shift(Left)],
                Intent::Pan(-1),
                "Shift-←  Shift-→",
                "pan: the window a quarter of its width earlier / later",
            ),
            also(&[shift(Right)], Intent::Pan(1)),
            bind(
                &[code(Up), ch('k')],
                Intent::Move(-1),
                "↑ ↓  j k",
                "the thread above / below",
            ),
            also(&[code(Down), ch('j')], Intent::Move(1)),
            bind(
                &[code(Home)],
                Intent::First,
                "Home End",
                "the cursor to the run's start / end",
            ),
            also(&[code(End)], Intent::Last),
            bind_hint(
                &[ch('v')],
                Intent::MarkRange,
                "v",
                "mark a range's start at the cursor; again: its end",
                ("v", "range", Always, Pane),
            ),
            bind(
                &[code(Enter)],
                Intent::CommitRange,
                "Enter",
                "ask the range marked: every pane shows only its time",
            ),
            bind(
                &[code(Esc), code(Backspace)],
                Intent::BackOutRange,
                "Esc  Backspace",
                "clear the marks; none: back out the last range asked",
            ),
            also(
                &[ch('/'), ch('n'), ch('N')],
                Intent::Explain(Why::TimelineSearch),
            ),
            also(&[ch('e')], Intent::Explain(Why::ChartExport)),
        ],
        notes: &[(
            "mouse",
            "a click puts the cursor there, on its thread; the wheel moves between threads",
        )],
    },
    Section {
        title: "Lines",
        place: Place::Lines,
        listed: true,
        bindings: &[
            bind_hint(
                &[code(Enter)],
                Intent::Open,
                "Enter",
                "the line's function",
                ("⏎", "function", Always, Pane),
            ),
            also_hint(&[], Intent::OpenSource, ("o", "source", Always, Pane)),
        ],
        notes: &[],
    },
    Section {
        title: "Source (o)",
        place: Place::Source,
        listed: true,
        bindings: &[
            bind_hint(
                &[ch('}')],
                Intent::CostlyLine(1),
                "{  }",
                "the costly line before / after",
                ("{}", "costly line", Always, Pane),
            ),
            also(&[ch('{')], Intent::CostlyLine(-1)),
            bind_hint(
                &[code(Enter)],
                Intent::Open,
                "Enter",
                "go to the function",
                ("⏎", "function", Always, Pane),
            ),
            also(&[ch('s'), ch('S'), ch('r')], Intent::Explain(Why::NoSort)),
        ],
        notes: &[],
    },
    Section {
        title: "Events",
        place: Place::Events,
        listed: true,
        bindings: &[
            bind_hint(
                &[ch('/')],
                Intent::Search,
                "/",
                "search: the events of matching functions",
                ("/", "search", Always, Lead),
            ),
            bind_hint(
                &[ch('n')],
                Intent::NextMatch,
                "n  N",
                "next / previous match",
                ("n/N", "match", Searching, Match),
            ),
            also(&[ch('N')], Intent::PrevMatch),
            bind_hint(
                &[code(Enter)],
                Intent::Open,
                "Enter",
                "the event's function",
                ("⏎", "function", Always, Pane),
            ),
            bind(
                &[ch('%')],
                Intent::Partner,
                "%",
                "from a call to its return, or a return to its call",
            ),
            bind(
                &[ch('e')],
                Intent::Export,
                "e",
                "export the events shown to CSV next to the input",
            ),
            also(
                &[ch('s'), ch('S'), ch('r')],
                Intent::Explain(Why::EventsOrder),
            ),
        ],
        notes: &[(
            "Op column",
            "its letters, not keys: i about to enter a function (the call), I entered, O about to return, o returned",
        )],
    },
    Section {
        title: "Trace",
        place: Place::Trace,
        listed: true,
        bindings: &[bind_hint(
            &[code(Enter)],
            Intent::Open,
            "Enter",
            "a packet's events",
            ("⏎", "events", Always, Pane),
        )],
        notes: &[],
    },
    Section {
        title: "Query (every pane)",
        place: Place::Query,
        listed: true,
        bindings: &[
            bind(
                &[ch('m'), ch('x')],
                Intent::Transform(Op::Merge),
                "m  x",
                "merge the selected function: it leaves every path, its own time goes to its caller",
            ),
            bind(
                &[ch('M')],
                Intent::Transform(Op::MergeNode),
                "M",
                "merge the selected call node only (Call tree, Flame)",
            ),
            bind(
                &[ch('F')],
                Intent::Transform(Op::Focus),
                "F",
                "focus on the function: only the paths through it, each from its outermost call",
            ),
            bind(
                &[ch('>')],
                Intent::Transform(Op::FocusNode),
                ">",
                "focus on the selected call node's subtree (Call tree, Flame)",
            ),
            bind(
                &[ch('d')],
                Intent::Transform(Op::Drop),
                "d",
                "drop every path through the function, with its time",
            ),
            bind(
                &[ch('C')],
                Intent::Transform(Op::CollapseModule),
                "C",
                "collapse the function's module: each run of its frames becomes one",
            ),
            bind(
                &[ch('R')],
                Intent::Transform(Op::CollapseRecursion),
                "R",
                "collapse the function's recursion (A>F>G>F>H: A>F>H)",
            ),
            bind(
                &[ctrl('r')],
                Intent::Transform(Op::CollapseDirectRecursion),
                "Ctrl-R",
                "collapse its direct recursion only (A>F>F>H: A>F>H)",
            ),
            bind(
                &[ch('z')],
                Intent::Transform(Op::CollapseSubtree),
                "z",
                "collapse the function's subtree: its callees' time joins it",
            ),
            bind(
                &[ch('v')],
                Intent::Transform(Op::Range),
                "v",
                "only the selected call's time in every pane: its span as the range (a packet's events, the time order)",
            ),
            bind_hint(
                &[ch('u')],
                Intent::PopStep,
                "u",
                "undo the query's last step",
                ("u", "undo", Queried, Back),
            ),
            bind(
                &[ch('U'), ch('X')],
                Intent::ClearQuery,
                "U  X",
                "the whole profile again: every thread, no step",
            ),
            bind_hint(
                &[ch('.')],
                Intent::Transforms,
                ".",
                "a menu of the transforms on the selection",
                (".", "transform", Always, Find),
            ),
            bind(
                &[ch('H')],
                Intent::Threads,
                "H",
                "the threads of a trace: choose one, several, or all merged",
            ),
            bind(
                &[ch('Y')],
                Intent::CopyCommand,
                "Y",
                "copy the command line that prints what the screen shows (profx report with the query)",
            ),
        ],
        notes: &[("a running step", "shows in the footer; any key cancels it")],
    },
    Section {
        title: "Transforms menu (.)",
        place: Place::Menu,
        listed: false,
        bindings: &[
            bind_hint(
                &[code(Up), ch('k')],
                Intent::Move(-1),
                "↑ ↓",
                "move",
                ("↑↓", "move", Always, Pane),
            ),
            also(&[code(Down), ch('j')], Intent::Move(1)),
            bind_hint(
                &[code(Enter)],
                Intent::Accept,
                "Enter",
                "apply the transform (or press its key)",
                ("⏎", "apply", Always, Pane),
            ),
            bind_hint(
                &[code(Esc), ch('.'), code(Backspace)],
                Intent::Cancel,
                "Esc",
                "close the menu",
                ("Esc", "close", Always, Pane),
            ),
            also(&[ch('q')], Intent::Quit),
        ],
        notes: &[],
    },
    Section {
        title: "Threads list (H)",
        place: Place::Threads,
        listed: true,
        bindings: &[
            bind_hint(
                &[code(Up), ch('k')],
                Intent::Move(-1),
                "↑ ↓",
                "move",
                ("↑↓", "move", Always, Pane),
            ),
            also(&[code(Down), ch('j')], Intent::Move(1)),
            also(&[code(PageUp)], Intent::PageUp),
            also(&[code(PageDown)], Intent::PageDown),
            also(&[code(Home)], Intent::First),
            also(&[code(End)], Intent::Last),
            bind_hint(
                &[ch(' ')],
                Intent::Toggle,
                "Space",
                "choose the thread, or not (several: their numbers merged)",
                ("Space", "choose", Always, Pane),
            ),
            bind_hint(
                &[code(Enter)],
                Intent::Accept,
                "Enter",
                "show the threads chosen (none chosen: the one under the cursor)",
                ("⏎", "show", Always, Pane),
            ),
            bind_hint(
                &[ch('a')],
                Intent::AllThreads,
                "a",
                "every thread, merged",
                ("a", "all", Always, Pane),
            ),
            bind_hint(
                &[ch('s')],
                Intent::SortNext,
                "s  S  r",
                "sort by the next / previous column; reverse",
                ("s", "sort", Always, Pane),
            ),
            also(&[ch('S')], Intent::SortPrev),
            also(&[ch('r')], Intent::Reverse),
            bind_hint(
                &[ch('/')],
                Intent::Search,
                "/  n  N",
                "search the heaviest functions; next / previous match",
                ("/", "search", Always, Lead),
            ),
            also_hint(
                &[ch('n')],
                Intent::NextMatch,
                ("n/N", "match", Searching, Match),
            ),
            also(&[ch('N')], Intent::PrevMatch),
            bind(
                &[code(Left), ch('h')],
                Intent::Columns(-1),
                "← →  h",
                "scroll the columns after the thread's",
            ),
            also(&[code(Right)], Intent::Columns(1)),
            bind(
                &[ch('e')],
                Intent::Export,
                "e",
                "export the threads shown to CSV next to the input",
            ),
            bind_hint(
                &[code(Esc), ch('H'), code(Backspace)],
                Intent::Cancel,
                "Esc",
                "clear the search, else close the list",
                ("Esc", "close", Always, Pane),
            ),
            also(&[ch('q')], Intent::Quit),
        ],
        notes: &[],
    },
    Section {
        title: "Exporting",
        place: Place::Exporting,
        listed: false,
        bindings: &[bind_hint(
            &[code(Esc)],
            Intent::Cancel,
            "Esc",
            "cancel the export",
            ("Esc", "cancels", Always, Lead),
        )],
        notes: &[],
    },
    Section {
        title: "Info",
        place: Place::Info,
        listed: false,
        bindings: &[
            also(&[ch('s'), ch('S'), ch('r')], Intent::Explain(Why::NoSort)),
            also(
                &[ch('/'), ch('n'), ch('N')],
                Intent::Explain(Why::InfoSearch),
            ),
            also(&[ch('e')], Intent::Explain(Why::InfoExport)),
        ],
        notes: &[],
    },
    Section {
        title: "Callers, callees, frames",
        place: Place::Lists,
        listed: false,
        bindings: &[
            also_hint(&[], Intent::Move(1), ("↑↓", "move", Always, Pane)),
            bind_hint(
                &[code(Enter)],
                Intent::Open,
                "Enter",
                "go to the function",
                ("⏎", "go to function", Always, Pane),
            ),
            bind_hint(
                &[code(Backspace), code(Esc), ch('[')],
                Intent::Back,
                "Backspace  Esc",
                "leave the list",
                ("⌫", "leave list", Always, Back),
            ),
            also_hint(&[], Intent::Quit, ("q", "quit", Always, Quit)),
        ],
        notes: &[],
    },
    Section {
        title: "Search and finder",
        place: Place::Prompt,
        listed: true,
        bindings: &[
            // Every printable key is text here (`key`), so this row binds
            // none: it says what typing does.
            bind_hint(
                &[],
                Intent::Input(' '),
                "text",
                "fuzzy; 'exact ^start end$ !not; space = and; a | b = or",
                ("type", "to rank functions", Always, Pane),
            ),
            bind_hint(
                &[code(Enter)],
                Intent::Accept,
                "Enter",
                "keep the filter / go to the function",
                ("⏎", "go", Always, Pane),
            ),
            bind_hint(
                &[code(Esc)],
                Intent::Cancel,
                "Esc",
                "clear the filter / close",
                ("Esc", "close", Always, Pane),
            ),
            bind(
                &[code(Up), ctrl('p'), ctrl('k')],
                Intent::Move(-1),
                "↑ ↓  Ctrl-N Ctrl-P",
                "move",
            ),
            also(&[code(Down), ctrl('n'), ctrl('j')], Intent::Move(1)),
            bind(
                &[ctrl('u')],
                Intent::ClearInput,
                "Ctrl-U",
                "clear the query",
            ),
            also(&[code(Backspace)], Intent::Erase),
            also(&[code(PageUp)], Intent::PageUp),
            also(&[code(PageDown)], Intent::PageDown),
            also(&[code(Home)], Intent::First),
            also(&[code(End)], Intent::Last),
        ],
        notes: &[],
    },
    Section {
        title: "Functions compared (profx diff)",
        place: Place::Compare,
        listed: true,
        bindings: &[
            bind_hint(
                &[ch('/')],
                Intent::Search,
                "/  n  N",
                "search the names: keep the rows that match; step through them",
                ("/", "search", Always, Lead),
            ),
            also(&[ch('n')], Intent::NextMatch),
            also(&[ch('N')], Intent::PrevMatch),
            bind_hint(
                &[code(Enter)],
                Intent::Open,
                "Enter",
                "into the function's callers and callees compared (a stack's or line's: NEW's function)",
                ("⏎", "callers", Always, Pane),
            ),
            bind_hint(
                &[ch('c')],
                Intent::CallersCallees,
                "c",
                "into callers, then callees, then back (Enter on one goes to it, Backspace back)",
                ("c", "callers/callees", Always, Pane),
            ),
            bind_hint(
                &[ch('%')],
                Intent::Shares,
                "%",
                "absolute values ⇄ shares of each run's total",
                ("%", "shares", Always, Pane),
            ),
            bind_hint(
                &[ch('s')],
                Intent::SortNext,
                "s  S",
                "sort by the next / previous column (a change: the largest first)",
                ("s", "sort", Always, Pane),
            ),
            also(&[ch('S')], Intent::SortPrev),
            bind_hint(
                &[ch('r')],
                Intent::Reverse,
                "r",
                "reverse the sort",
                ("r", "reverse", Always, Pane),
            ),
            bind(
                &[code(Left), ch('h')],
                Intent::Columns(-1),
                "← →  h",
                "scroll the columns after the name",
            ),
            also(&[code(Right)], Intent::Columns(1)),
        ],
        notes: &[(
            "colours",
            "a change is signed (+ more, - less): slower red, faster blue",
        )],
    },
    Section {
        title: "Stacks and lines compared (profx diff)",
        place: Place::ComparePairs,
        listed: true,
        bindings: &[
            bind_hint(
                &[code(Enter)],
                Intent::Open,
                "Enter",
                "the stack's leaf or the line's function in NEW's Functions table",
                ("⏎", "in NEW", Always, Pane),
            ),
            also(&[ch('c')], Intent::Explain(Why::CallersInFunctions)),
        ],
        notes: &[],
    },
    Section {
        title: "Flame compared (profx diff)",
        place: Place::FlameCompared,
        listed: true,
        bindings: &[bind_hint(
            &[ch('b')],
            Intent::BaseWidths,
            "b",
            "BASE's widths ⇄ NEW's (each frame coloured by its change)",
            ("b", "base", Always, Pane),
        )],
        notes: &[],
    },
    Section {
        title: "Help",
        place: Place::Help,
        listed: false,
        bindings: &[
            bind_hint(
                &[code(Up), ch('k')],
                Intent::Move(-1),
                "↑ ↓",
                "scroll",
                ("↑↓", "scroll", Always, Pane),
            ),
            also(&[code(Down), ch('j')], Intent::Move(1)),
            also(&[code(PageUp)], Intent::PageUp),
            also(&[code(PageDown), ch(' ')], Intent::PageDown),
            also(&[code(Home)], Intent::First),
            also(&[code(End)], Intent::Last),
            bind_hint(
                &[code(Esc), ch('?'), code(Backspace), code(Enter)],
                Intent::Cancel,
                "Esc",
                "close the help",
                ("Esc", "close help", Always, Pane),
            ),
            bind_hint(
                &[ch('q')],
                Intent::Quit,
                "q",
                "quit",
                ("q", "quit", Always, Quit),
            ),
        ],
        notes: &[],
    },
];

/// Rows a wheel notch scrolls.
const WHEEL_ROWS: isize = 3;

/// The section of a place.
pub(super) fn section(place: Place) -> Option<&'static Section> {
    SECTIONS.iter().find(|s| s.place == place)
}

/// The intent of a terminal event, the keyboard being at `places` (the
/// pane's, most particular first) in `mode`.
pub(super) fn intent(mode: &Mode, places: &[Place], event: &Event) -> Option<Intent> {
    match event {
        Event::Key(k) if k.kind != KeyEventKind::Release => key(mode, places, k),
        Event::Mouse(m) => mouse(m),
        Event::Resize(width, height) => {
            let (width, height) = super::term::bounded(*width, *height);
            Some(Intent::Resize { width, height })
        }
        Event::Paste(text) if typing(mode) => Some(Intent::Paste(Pasted::new(text))),
        _ => None,
    }
}

/// Whether keys type text where the keyboard is (a prompt).
fn typing(mode: &Mode) -> bool {
    match mode {
        Mode::Search | Mode::Finder(_) => true,
        Mode::Threads(list) => list.searching,
        _ => false,
    }
}

fn key(mode: &Mode, places: &[Place], k: &KeyEvent) -> Option<Intent> {
    let pressed = Key {
        code: k.code,
        ctrl: k.modifiers.contains(KeyModifiers::CONTROL),
        shift: k.modifiers.contains(KeyModifiers::SHIFT)
            && !matches!(k.code, KeyCode::Char(_) | KeyCode::BackTab),
    };
    if pressed == ctrl('c') {
        return Some(Intent::Quit);
    }
    let places: &[Place] = match mode {
        Mode::Normal => places,
        Mode::Threads(list) if list.searching => {
            if let (KeyCode::Char(c), false) = (pressed.code, pressed.ctrl) {
                return Some(Intent::Input(c));
            }
            &[Place::Prompt]
        }
        Mode::Search | Mode::Finder(_) => {
            // Every printable key is text in the prompt.
            if let (KeyCode::Char(c), false) = (pressed.code, pressed.ctrl) {
                return Some(Intent::Input(c));
            }
            &[Place::Prompt]
        }
        Mode::Help(_) => &[Place::Help],
        Mode::Menu(_) => &[Place::Menu, Place::Query],
        Mode::Threads(_) => &[Place::Threads],
    };
    // Shift on a key no place binds with it is the key alone (Shift-↑
    // moves as ↑ does).
    lookup(places, pressed).or_else(|| {
        let alone = Key {
            shift: false,
            ..pressed
        };
        pressed.shift.then(|| lookup(places, alone)).flatten()
    })
}

/// The first binding of `key` among the places' sections.
pub(super) fn lookup(places: &[Place], key: Key) -> Option<Intent> {
    let b = places
        .iter()
        .filter_map(|&p| section(p))
        .flat_map(|s| s.bindings)
        .find(|b| b.keys.contains(&key))?;
    Some(match (&b.intent, key.code) {
        (Intent::GoPane(_), KeyCode::Char(c @ '1'..='9')) => {
            Intent::GoPane(usize::from(c as u8 - b'1'))
        }
        (intent, _) => intent.clone(),
    })
}

fn mouse(m: &MouseEvent) -> Option<Intent> {
    let (x, y) = (m.column, m.row);
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Intent::Click { x, y }),
        MouseEventKind::ScrollUp => Some(Intent::Wheel {
            x,
            y,
            rows: -WHEEL_ROWS,
        }),
        MouseEventKind::ScrollDown => Some(Intent::Wheel {
            x,
            y,
            rows: WHEEL_ROWS,
        }),
        _ => None,
    }
}

/// The footer's hints at `places` that fit in `width` columns: the
/// general places' first, the particular's next, `Everywhere`'s last (so
/// `?` and `q` always end the line), each place's in its order, one per
/// key; a binding `works` says can only answer "no …" here is not offered.
pub(super) fn hints(
    places: &[Place],
    (searching, drilled, queried): (bool, bool, bool),
    works: &dyn Fn(&Intent) -> bool,
    width: usize,
) -> Vec<(&'static str, &'static str)> {
    let shown = |w: When| match w {
        Always => true,
        Searching => searching,
        Drilled => drilled,
        Queried => queried,
    };
    let (everywhere, own): (Vec<Place>, Vec<Place>) =
        places.iter().partition(|&&p| p == Place::Everywhere);
    let mut out: Vec<(&'static str, &'static str, At, &'static Intent)> = Vec::new();
    // The general places' hints first, each particular one's after them;
    // a particular place's word for a key replaces a general one's.
    for place in own.iter().rev().chain(everywhere.iter()) {
        let Some(s) = section(*place) else { continue };
        for b in s.bindings {
            let Some((k, w, _, at)) = b.hint.filter(|h| shown(h.2)) else {
                continue;
            };
            let hint = (k, w, at, &b.intent);
            match out.iter_mut().find(|(ok, ..)| *ok == k) {
                Some(seen) => *seen = hint,
                None => out.push(hint),
            }
        }
    }
    // The key goes to the particular binding: where that one does
    // nothing, the key is not offered at all.
    out.retain(|h| works(h.3));
    // Stable: within a position, in the order the places gave them.
    out.sort_by_key(|h| h.2);
    while footer_width(&out) > width {
        let Some(i) = out.iter().rposition(|h| h.2 == Pane).or_else(|| {
            // Then the rest but the query's menu, the help and quitting,
            // which always show (a new user meets the transforms).
            out.iter()
                .rposition(|h| !matches!(h.2, Help | Quit) && *h.3 != Intent::Transforms)
        }) else {
            break;
        };
        out.remove(i);
    }
    out.into_iter().map(|(k, w, ..)| (k, w)).collect()
}

/// Columns the footer's hints take: a space, then each key, a space, its
/// word and two spaces.
fn footer_width(hints: &[(&str, &str, At, &Intent)]) -> usize {
    1 + hints
        .iter()
        .map(|(k, w, ..)| k.chars().count() + w.chars().count() + 3)
        .sum::<usize>()
}

/// The keys of an intent as the help names them (the `.` menu's column).
pub(super) fn label_of(place: Place, intent: &Intent) -> Option<&'static str> {
    section(place)?
        .bindings
        .iter()
        .find(|b| &b.intent == intent)?
        .label
}

/// The key that asks `intent` at `place`, as a message names it: the first
/// key its binding lists (`u`, `Enter`, `Ctrl-R`, `Space`; for `GoPane(i)`
/// the pane's number). Every message that names a key takes it from here,
/// so a key moved in the keymap moves in every message; an intent the
/// place does not bind is a bug the tests catch (`?` in a release build).
pub(super) fn key_for(intent: &Intent, place: Place) -> String {
    key_in(intent, &[place])
}

/// `key_for` at the first of `places` that binds `intent` (a pane's
/// places, most particular first, as a key is looked up).
pub(super) fn key_in(intent: &Intent, places: &[Place]) -> String {
    let key = places.iter().filter_map(|&p| section(p)).find_map(|s| {
        s.bindings.iter().find_map(|b| match (&b.intent, intent) {
            (Intent::GoPane(_), Intent::GoPane(i)) => b.keys.get(*i).copied(),
            (bound, asked) if bound == asked => b.keys.first().copied(),
            _ => None,
        })
    });
    debug_assert!(key.is_some(), "{places:?} bind no key to {intent:?}");
    key.map_or_else(|| "?".into(), key_name)
}

/// The key of `intent` at `place` as the footer's hint writes it (`⏎`).
pub(super) fn hint_key(intent: &Intent, place: Place) -> Option<&'static str> {
    section(place)?
        .bindings
        .iter()
        .find(|b| &b.intent == intent)?
        .hint
        .map(|h| h.0)
}

/// "M and > take a call node": the call node steps' keys, as the messages
/// about them begin.
pub(super) fn node_keys() -> String {
    let merge = key_for(&Intent::Transform(Op::MergeNode), Place::Query);
    let focus = key_for(&Intent::Transform(Op::FocusNode), Place::Query);
    format!("{merge} and {focus} take a call node")
}

/// The key of a pane's tab (its number key), as a message names it.
pub(super) fn pane_key(tab: crate::analysis::view::View) -> String {
    key_for(
        &Intent::GoPane(super::pane::tab_index(tab)),
        Place::Everywhere,
    )
}

/// A key as the help and the messages write it.
fn key_name(k: Key) -> String {
    let name = match k.code {
        KeyCode::Char(' ') => "Space".into(),
        KeyCode::Char(c) if k.ctrl => c.to_ascii_uppercase().to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Backspace => "Backspace".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::BackTab => "Shift-Tab".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::PageDown => "PgDn".into(),
        other => format!("{other}"),
    };
    match (k.ctrl, k.shift) {
        (true, _) => format!("Ctrl-{name}"),
        (false, true) => format!("Shift-{name}"),
        (false, false) => name,
    }
}

/// The help's lines, section by section: `(key, text)`, the section's
/// title as `(title, "")` with an empty key before it.
pub(super) fn help_rows() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    SECTIONS
        .iter()
        .filter(|s| s.listed)
        .map(|s| {
            let keys = s
                .bindings
                .iter()
                .filter_map(|b| b.label.map(|l| (l, b.help)))
                .chain(s.notes.iter().copied())
                .collect();
            (s.title, keys)
        })
        .collect()
}

/// The README's key table, made from the help's rows.
#[cfg(test)]
pub(super) fn readme_table() -> String {
    let mut out = String::from("| where | keys | what |\n|---|---|---|\n");
    for (section, keys) in help_rows() {
        for (k, what) in keys {
            // A `|` in a cell would end it.
            let what = what.replace('|', "\\|");
            out.push_str(&format!("| {section} | `{k}` | {what} |\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(mode: &Mode, places: &[Place], code: KeyCode, mods: KeyModifiers) -> Option<Intent> {
        intent(mode, places, &Event::Key(KeyEvent::new(code, mods)))
    }

    const FUNCTIONS: &[Place] = &[Place::Functions, Place::Tables, Place::Everywhere];
    const TREE: &[Place] = &[Place::Tree, Place::Everywhere];
    const FLAME: &[Place] = &[Place::Flame, Place::Everywhere];

    #[test]
    fn a_key_means_what_the_pane_makes_of_it() {
        let none = KeyModifiers::NONE;
        let n = &Mode::Normal;
        assert_eq!(
            press(n, FUNCTIONS, KeyCode::Right, none),
            Some(Intent::Columns(1))
        );
        assert_eq!(press(n, TREE, KeyCode::Right, none), Some(Intent::OpenRow));
        assert_eq!(
            press(n, FLAME, KeyCode::Right, none),
            Some(Intent::Beside(1))
        );
        assert_eq!(
            press(n, FUNCTIONS, KeyCode::Char('l'), none),
            Some(Intent::ShowLines)
        );
        assert_eq!(
            press(n, TREE, KeyCode::Char('l'), none),
            Some(Intent::OpenRow)
        );
        assert_eq!(
            press(n, FUNCTIONS, KeyCode::Char('t'), none),
            Some(Intent::ShowInTree)
        );
        assert_eq!(
            press(n, FLAME, KeyCode::Char('t'), none),
            Some(Intent::TimeOrder)
        );
        assert_eq!(
            press(n, FLAME, KeyCode::Char('e'), none),
            Some(Intent::Export),
            "the flame exports its paths"
        );
        let chart = &[Place::Chart, Place::Everywhere];
        assert!(
            matches!(
                press(n, chart, KeyCode::Char('e'), none),
                Some(Intent::Explain(_))
            ),
            "time order says what exports it"
        );
        assert_eq!(
            press(n, FUNCTIONS, KeyCode::Char('3'), none),
            Some(Intent::GoPane(2))
        );
        assert_eq!(
            press(n, FUNCTIONS, KeyCode::Char('w'), none),
            Some(Intent::SlowestCall)
        );
        assert_eq!(press(n, FUNCTIONS, KeyCode::Char('W'), none), None);
    }

    #[test]
    fn printable_keys_are_text_in_the_prompt_and_commands_outside() {
        let none = KeyModifiers::NONE;
        assert_eq!(
            press(&Mode::Normal, FUNCTIONS, KeyCode::Char('q'), none),
            Some(Intent::Quit)
        );
        assert_eq!(
            press(&Mode::Search, FUNCTIONS, KeyCode::Char('q'), none),
            Some(Intent::Input('q'))
        );
        assert_eq!(
            press(&Mode::Search, FUNCTIONS, KeyCode::Esc, none),
            Some(Intent::Cancel)
        );
        assert_eq!(
            press(
                &Mode::Search,
                FUNCTIONS,
                KeyCode::Char('u'),
                KeyModifiers::CONTROL
            ),
            Some(Intent::ClearInput)
        );
    }

    #[test]
    fn ctrl_c_quits_everywhere() {
        for mode in [Mode::Normal, Mode::Search, Mode::Help(0)] {
            assert_eq!(
                press(&mode, FUNCTIONS, KeyCode::Char('c'), KeyModifiers::CONTROL),
                Some(Intent::Quit)
            );
        }
    }

    #[test]
    fn mouse_clicks_and_wheel() {
        let m = |kind| MouseEvent {
            kind,
            column: 4,
            row: 7,
            modifiers: KeyModifiers::NONE,
        };
        let n = &Mode::Normal;
        let click = Event::Mouse(m(MouseEventKind::Down(MouseButton::Left)));
        assert_eq!(
            intent(n, FUNCTIONS, &click),
            Some(Intent::Click { x: 4, y: 7 })
        );
        let wheel = Event::Mouse(m(MouseEventKind::ScrollDown));
        assert_eq!(
            intent(n, FUNCTIONS, &wheel),
            Some(Intent::Wheel {
                x: 4,
                y: 7,
                rows: 3
            })
        );
    }

    /// No key is bound twice in one place (the second would never act),
    /// and every bound key of a listed place is named in the help.
    #[test]
    fn each_key_is_bound_once_a_place_and_named() {
        for s in SECTIONS {
            let keys: Vec<Key> = s
                .bindings
                .iter()
                .flat_map(|b| b.keys.iter().copied())
                .collect();
            for (i, k) in keys.iter().enumerate() {
                assert!(!keys[..i].contains(k), "{}: {k:?} twice", s.title);
            }
            assert!(
                !s.listed || s.bindings.first().is_none_or(|b| b.label.is_some()),
                "{}: its first row names its keys",
                s.title
            );
        }
    }

    /// Hints that do not fit leave the pane's own keys out first, the last
    /// first; the query's menu, the help and quitting always stay; a key
    /// whose binding here does not work is not offered, not even with a
    /// more general place's word.
    #[test]
    fn hints_give_way_the_panes_own_last_first() {
        let places = [
            Place::Query,
            Place::Functions,
            Place::Tables,
            Place::Everywhere,
        ];
        let flags = (false, false, false);
        let all = hints(&places, flags, &|_| true, 500);
        let fit = hints(&places, flags, &|_| true, 80);
        let left: Vec<_> = all.iter().filter(|h| !fit.contains(h)).collect();
        assert_eq!(
            left,
            [
                &("t", "in tree"),
                &("c", "callers/callees"),
                &("l", "lines")
            ]
        );
        let width = |h: &[(&str, &str)]| {
            1 + h
                .iter()
                .map(|(k, w)| k.chars().count() + w.chars().count() + 3)
                .sum::<usize>()
        };
        assert!(width(&fit) <= 80, "{fit:?}");
        let narrow = hints(&places, flags, &|_| true, 10);
        assert_eq!(narrow, [(".", "transform"), ("?", "help"), ("q", "quit")]);
        let no_open = hints(&places, flags, &|i| *i != Intent::Open, 500);
        assert!(!no_open.iter().any(|h| h.0 == "⏎"), "{no_open:?}");
    }

    /// The README's key table is the help's rows, all of them and no
    /// other.
    #[test]
    fn the_readme_lists_every_key_of_the_help() {
        let readme = include_str!("../../README.md");
        let table = readme_table();
        assert!(
            readme.contains(&table),
            "the README's key table should be:\n{table}"
        );
    }
}
