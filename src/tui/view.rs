//! One step of the drill-down history: what a pane shows (its scope) and
//! how (sort, filter, selection, scroll). Going back restores a `View` as it
//! was left, so all of that lives here and nowhere else.

use super::panes::{self, Col, Kind};
use crate::analysis::resort::TieOrder;
use crate::analysis::search::{self, Query};
use crate::model::{FuncId, NameId, PacketId, Profile};

/// The rows a view is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Functions,
    /// All lines, or those of one function (or, where lines carry no
    /// function, of its module).
    Lines(Option<FuncId>),
    /// All stacks, or those containing a function (marked in each).
    Stacks(Option<FuncId>),
    /// The call tree, or the tree opened to every place a function is
    /// called (marked there).
    Tree(Option<FuncId>),
    /// The flame graph (an icicle of the call tree).
    Flame,
    Packets,
    Events(PacketId),
    Info,
}

/// The seven tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Functions,
    Lines,
    Stacks,
    Tree,
    Flame,
    Trace,
    Info,
}

impl Tab {
    pub const ALL: [Tab; 7] = [
        Tab::Functions,
        Tab::Lines,
        Tab::Stacks,
        Tab::Tree,
        Tab::Flame,
        Tab::Trace,
        Tab::Info,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Tab::Functions => "Functions",
            Tab::Lines => "Lines",
            Tab::Stacks => "Stacks",
            Tab::Tree => "Call tree",
            Tab::Flame => "Flame",
            Tab::Trace => "Trace",
            Tab::Info => "Info",
        }
    }

    pub fn index(self) -> usize {
        Tab::ALL.iter().position(|&t| t == self).unwrap_or(0)
    }

    pub fn root(self) -> Scope {
        match self {
            Tab::Functions => Scope::Functions,
            Tab::Lines => Scope::Lines(None),
            Tab::Stacks => Scope::Stacks(None),
            Tab::Tree => Scope::Tree(None),
            Tab::Flame => Scope::Flame,
            Tab::Trace => Scope::Packets,
            Tab::Info => Scope::Info,
        }
    }
}

impl Scope {
    pub fn tab(self) -> Tab {
        match self {
            Scope::Functions => Tab::Functions,
            Scope::Lines(_) => Tab::Lines,
            Scope::Stacks(_) => Tab::Stacks,
            Scope::Tree(_) => Tab::Tree,
            Scope::Flame => Tab::Flame,
            Scope::Packets | Scope::Events(_) => Tab::Trace,
            Scope::Info => Tab::Info,
        }
    }

    /// The table kind, for the scopes that are sortable tables.
    pub fn kind(self) -> Option<Kind> {
        match self {
            Scope::Functions => Some(Kind::Functions),
            Scope::Lines(_) => Some(Kind::Lines),
            Scope::Stacks(_) => Some(Kind::Stacks),
            Scope::Packets => Some(Kind::Packets),
            Scope::Events(_) | Scope::Info | Scope::Tree(_) | Scope::Flame => None,
        }
    }

    /// The function a drilled view is about, marked in its rows.
    pub fn focus_function(self) -> Option<FuncId> {
        match self {
            Scope::Lines(f) | Scope::Stacks(f) | Scope::Tree(f) => f,
            _ => None,
        }
    }
}

/// The rows a view shows, in order: all `n` rows in input order (events,
/// which are never copied), or a list of row indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rows {
    All(usize),
    List(Vec<u32>),
}

impl Rows {
    pub fn len(&self) -> usize {
        match self {
            Rows::All(n) => *n,
            Rows::List(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> Option<u32> {
        match self {
            Rows::All(n) => (i < *n).then(|| u32::try_from(i).ok()).flatten(),
            Rows::List(v) => v.get(i).copied(),
        }
    }

    pub fn position(&self, row: u32) -> Option<usize> {
        match self {
            Rows::All(n) => ((row as usize) < *n).then_some(row as usize),
            Rows::List(v) => v.iter().position(|&r| r == row),
        }
    }
}

/// Where the keyboard is: the table, or a list of the detail split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    Table,
    Callers(usize),
    Callees(usize),
    Frames(usize),
}

/// One step of the history.
#[derive(Debug)]
pub struct View {
    pub scope: Scope,
    /// Sort column and direction (descending when true); `None` where the
    /// order is the input's (events).
    pub sort: Option<(Col, bool)>,
    pub filter: String,
    pub query: Option<Query>,
    /// How many rows the scope has before filtering.
    pub total: usize,
    pub rows: Rows,
    pub cursor: usize,
    pub offset: usize,
    /// First column shown after the name (horizontal scroll).
    pub hscroll: usize,
    pub focus: Focus,
    /// The scope's rows in the order of `sort` when they were sorted: a
    /// keystroke of a search filters these and never sorts.
    pub sorted: Option<(Option<(Col, bool)>, Rows)>,
    /// The Call tree's state (direction, order, open rows); its rows are
    /// `rows`' positions.
    pub tree: Option<Box<crate::analysis::calltree::CallTree>>,
    /// The Flame pane's state.
    pub flame: Option<Box<FlameState>>,
}

/// Where the Flame pane is: the tree it draws (the whole tree less the
/// hidden functions, or the focused function's callees, with its callers
/// above them), the selected frame (`None`: the top), the zooms made (the
/// last is the full width), how many rows are scrolled off the top.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FlameState {
    pub selected: Option<u32>,
    pub zoom: Vec<u32>,
    pub top: usize,
    /// Functions whose frames are left out (`x`), their weight given to
    /// their callers.
    pub hidden: Vec<FuncId>,
    /// The function of the sandwich (`f`).
    pub focus: Option<FuncId>,
    pub tree: Option<std::sync::Arc<crate::analysis::flame_view::Icicle>>,
    /// In a sandwich: who called the focused function, inverted.
    pub callers: Option<std::sync::Arc<crate::analysis::flame_view::Icicle>>,
    /// The callers' walk stopped at its budget.
    pub callers_cut: bool,
    /// In a sandwich, which side the selection is on, and the selected
    /// caller (`None`: the function itself, at the callers' bottom).
    pub side: Side,
    pub caller: Option<u32>,
    /// The flame graph, or the trace's calls in time order (`t`).
    pub mode: FlameMode,
    pub chart: ChartState,
}

/// The two halves of a sandwich.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Side {
    /// What the function called (below), and the graph outside a sandwich.
    #[default]
    Callees,
    /// Who called it (above, upside down).
    Callers,
}

/// The Flame pane's two drawings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FlameMode {
    /// The icicle of the calling-context tree: a frame a path.
    #[default]
    Graph,
    /// The flame chart: a box a call, x is time, a band a thread.
    Chart,
}

/// Where the flame chart is: the chart (made the first time `t` is
/// pressed), the windows of time zoomed into (the last is the full
/// width), the selected call, how many rows are scrolled off the top.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChartState {
    pub chart: Option<std::sync::Arc<crate::analysis::flame_chart::Chart>>,
    pub windows: Vec<(f64, f64)>,
    pub selected: Option<u32>,
    pub top: usize,
}

impl View {
    pub fn new(scope: Scope, sort: Option<(Col, bool)>) -> View {
        View {
            scope,
            sort,
            filter: String::new(),
            query: None,
            total: 0,
            rows: Rows::List(Vec::new()),
            cursor: 0,
            offset: 0,
            hscroll: 0,
            focus: Focus::Table,
            sorted: None,
            tree: None,
            flame: None,
        }
    }

    pub fn selected(&self) -> Option<u32> {
        self.rows.get(self.cursor)
    }

    /// Moves the cursor to a row, if the view shows it.
    pub fn select(&mut self, row: u32) -> bool {
        match self.rows.position(row) {
            Some(i) => {
                self.cursor = i;
                true
            }
            None => false,
        }
    }

    pub fn set_filter(&mut self, text: &str) {
        self.filter = text.to_string();
        let q = Query::parse(text);
        self.query = (!q.is_empty()).then_some(q);
    }
}

/// The rows of a scope before any filter, in canonical order.
pub fn scope_rows(p: &Profile, scope: Scope, canonical: &dyn Fn(Kind) -> Vec<u32>) -> Rows {
    match scope {
        Scope::Functions => Rows::List(canonical(Kind::Functions)),
        Scope::Packets => Rows::List(canonical(Kind::Packets)),
        Scope::Lines(None) => Rows::List(canonical(Kind::Lines)),
        Scope::Stacks(None) => Rows::List(canonical(Kind::Stacks)),
        Scope::Lines(Some(f)) => Rows::List(lines_of(p, f, canonical(Kind::Lines))),
        Scope::Stacks(Some(f)) => {
            let mut rows = canonical(Kind::Stacks);
            let on = crate::analysis::tree::through(p, f);
            rows.retain(|&s| on[p.stack_node(stack_id(s)).index()]);
            Rows::List(rows)
        }
        Scope::Events(k) => Rows::All(p.packet(k).events.len()),
        Scope::Info | Scope::Tree(_) | Scope::Flame => Rows::All(0),
    }
}

fn stack_id(s: u32) -> crate::model::StackId {
    crate::model::StackId::from_index(s as usize)
}

/// A function's lines; where the profile's lines carry no function, the
/// lines of its module (tui.md § Lines).
fn lines_of(p: &Profile, f: FuncId, mut rows: Vec<u32>) -> Vec<u32> {
    let line = |r: u32| p.line(crate::model::LineId::from_index(r as usize));
    if p.lines().iter().any(|l| l.function.is_some()) {
        rows.retain(|&r| line(r).function == Some(f));
    } else {
        let module = p.function_module(f);
        rows.retain(|&r| p.name(line(r).file) == module);
    }
    rows
}

/// What a search by names reads (`matching`): each row's search name by
/// row id, and the names made ready.
#[derive(Clone, Copy)]
pub struct SearchNames<'a> {
    pub by_row: &'a [NameId],
    pub scan: &'a search::NameScan,
}

/// The `rows` (the scope's rows in the view's sort order, or the rows a
/// narrower query is known to be within) matching the view's query, in
/// the same order, kept in place: the caller hands over rows it no longer
/// needs, so a keystroke writes no memory the process has not written
/// before. Events are matched by their function: each function is matched
/// once, then the events are scanned by id without being decoded.
pub fn filtered_rows(p: &Profile, view: &View, rows: Rows, names: Option<SearchNames>) -> Rows {
    let Some(q) = &view.query else {
        return rows;
    };
    match (view.scope, rows) {
        (Scope::Events(k), rows) => {
            let all: Vec<u32> = p.function_ids().map(|f| f.index() as u32).collect();
            let mut matching = vec![false; all.len()];
            let name =
                |f: u32| crate::text::visible(p.function_name(FuncId::from_index(f as usize)));
            let mut hits = all;
            search::retain_rows(&mut hits, |f| q.is_match(&name(f)));
            for f in hits {
                matching[f as usize] = true;
            }
            let events = &p.packet(k).events;
            let hit = |i: u32| {
                events
                    .function(i as usize)
                    .is_some_and(|f| matching[f.index()])
            };
            match rows {
                Rows::All(n) => Rows::List(
                    (0..n)
                        .filter_map(|i| u32::try_from(i).ok())
                        .filter(|&i| hit(i))
                        .collect(),
                ),
                Rows::List(mut rows) => {
                    search::retain_rows(&mut rows, hit);
                    Rows::List(rows)
                }
            }
        }
        (scope, Rows::List(rows)) => match scope.kind() {
            Some(kind) => Rows::List(matching(p, kind, (q, &view.filter), rows, names)),
            None => Rows::List(rows),
        },
        (_, rows) => rows,
    }
}

/// The `rows` whose search text matches, in order. A few rows, or rows
/// with no `names` (each row's search name, by row id), are matched one
/// by one; many are picked by which of their names match
/// (`NameScan::hits`, each name matched once).
fn matching(
    p: &Profile,
    kind: Kind,
    (q, text): (&Query, &str),
    mut rows: Vec<u32>,
    names: Option<SearchNames>,
) -> Vec<u32> {
    let total = panes::row_count(p, kind);
    let names = names.filter(|n| n.by_row.len() == total && rows.len() >= total / 64);
    let Some(SearchNames { by_row, scan }) = names else {
        search::retain_rows(&mut rows, |r| q.is_match(&panes::search_text(kind, p, r)));
        return rows;
    };
    let hits = scan.hits(p, text);
    // The hits go to rows in id order, where the 4-byte names lie one
    // after another, as a bit a row: the rows come in sort order, so each
    // looks its bit up at random, and 4 M rows' bits fit a core's cache
    // where their bytes do not.
    let row_hits = hits.by_row(by_row);
    search::retain_rows(&mut rows, |r| row_hits.get(r as usize));
    rows
}

/// `rows` in the view's sort order (`ties`: the tie order of their
/// pane's canonical rows, if made).
pub fn sorted(p: &Profile, view: &View, rows: Rows, ties: Option<&TieOrder>) -> Rows {
    match (rows, view.sort) {
        (Rows::List(mut v), Some((col, desc))) => {
            panes::sort(p, &mut v, col, desc, ties);
            Rows::List(v)
        }
        (rows, _) => rows,
    }
}
