//! The app's state and `App::update`, the only function that changes it.
//!
//! State is the loaded profile (never changed), the drill-down history (a
//! stack of `View`s; the last is on screen, the first is the root of its
//! tab), the saved root of every other tab, and one `Mode` for what the
//! keyboard is talking to. Switching tabs keeps each tab's root view as it
//! was left (sort, filter, selection) but ends the drill-down trail, as
//! going to another tab in a browser-like history would be ambiguous.
//!
//! What the panes derive from the profile once (`Prepared`: columns,
//! canonical orders, the call graph) is not state: it is the same whoever
//! makes it, a thread of its own or a reader that needs it first.

use super::action::Action;
use super::layout::{self, Areas};
use super::panes::{self, Col, Kind};
use super::view::{self, Focus, Rows, Scope, Tab, View};
use crate::analysis::callgraph::{CallGraph, Edge, Lists};
use crate::analysis::calltree::{CallTree, TreeCol, TreeIndex};
use crate::analysis::resort::TieOrder;
use crate::analysis::search::{self, Query};
use crate::model::{FuncId, NameId, PacketId, Profile, StackId};
use crate::text::visible;
use ratatui::layout::{Position, Rect};
use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// What the keyboard is talking to.
#[derive(Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    /// The search prompt: keys edit the current view's filter.
    Search,
    Finder(Finder),
    /// The key list, scrolled down by this many lines.
    Help(usize),
}

/// The jump-to-function finder: all functions ranked by the query.
#[derive(Debug, PartialEq, Eq)]
pub struct Finder {
    pub input: String,
    pub results: Vec<u32>,
    pub cursor: usize,
}

/// A table kind's columns and their widths, fixed for the session.
#[derive(Debug)]
pub struct PaneColumns {
    pub cols: Vec<Col>,
    pub widths: Vec<u16>,
    canonical: Vec<u32>,
}

/// Rows from which a pane's widths are measured on a thread of their own.
const LARGE: usize = 50_000;

impl PaneColumns {
    /// A large pane's widths are measured on a second core while its rows
    /// are ordered (neither needs the other); a small one's on this thread.
    fn new(p: &Profile, k: Kind) -> PaneColumns {
        let cols = panes::present_columns(p, k);
        let (canonical, widths) = if panes::row_count(p, k) < LARGE {
            (
                panes::canonical_rows(p, k),
                panes::column_widths(p, k, &cols),
            )
        } else {
            std::thread::scope(|s| {
                let widths = std::thread::Builder::new()
                    .spawn_scoped(s, || panes::column_widths(p, k, &cols))
                    .ok();
                let canonical = panes::canonical_rows(p, k);
                let widths = match widths.map(|w| w.join()) {
                    Some(Ok(widths)) => widths,
                    Some(Err(panic)) => std::panic::resume_unwind(panic),
                    None => panes::column_widths(p, k, &cols),
                };
                (canonical, widths)
            })
        };
        PaneColumns {
            cols,
            widths,
            canonical,
        }
    }
}

/// What the panes derive from the profile once: each kind's columns,
/// canonical order and tie order, and the call graph. A million stacks take
/// a few hundred milliseconds to order, measure and rank, so the first
/// frame does not wait for the panes it does not show: `App::new` makes the
/// Functions pane and its first view (a large profile's on a thread of its
/// own, `Opening`, the first frame showing its first rows meanwhile), then
/// starts a thread making the
/// graph; once the first frame is drawn, another makes the other panes
/// (before, on two cores, either would slow the first frame).
/// Whoever needs one first makes it (`OnceLock::get_or_init` waits for a
/// thread already making it, or makes it when none is), so a pane asked
/// for early, or a thread that could not start, costs time, never a
/// different answer.
#[derive(Default)]
struct Prepared {
    panes: [OnceLock<PaneColumns>; 4],
    /// Each kind's tie order (`resort`), which every sort of its rows uses:
    /// made and used, it takes no longer than the first sort without it.
    ties: [OnceLock<Option<TieOrder>>; 4],
    graph: OnceLock<CallGraph>,
    /// The call tree's children and weights, made when the Call tree is
    /// first opened.
    tree: OnceLock<Arc<TreeIndex>>,
    /// The last few orders of whole tables (a kind's every row by a column),
    /// newest last: going back to a column sorted a moment ago, as one does
    /// when comparing two columns, takes a copy, not a sort.
    orders: std::sync::Mutex<Vec<(OrderKey, Arc<Vec<u32>>)>>,
    panes_started: OnceLock<()>,
    /// Each kind's search name by row (`panes::search_names`), made at the
    /// first search of it: a search reads these 4 bytes a row, not the
    /// row's 120.
    search_names: [OnceLock<Option<Vec<NameId>>>; 4],
    name_scan: OnceLock<crate::analysis::search::NameScan>,
}

/// A whole table's order: its kind and its sort.
type OrderKey = (Kind, Option<(Col, bool)>);

/// Whole-table orders kept (`Prepared::orders`): at 4 M rows, 16 MB each.
const ORDERS_KEPT: usize = 4;

impl Prepared {
    /// A whole table's order made earlier, if it is still kept.
    fn order(&self, key: OrderKey) -> Option<Vec<u32>> {
        let mut kept = self.orders.lock().ok()?;
        let at = kept.iter().position(|(k, _)| *k == key)?;
        let entry = kept.remove(at);
        let rows = entry.1.as_ref().clone();
        kept.push(entry);
        Some(rows)
    }

    fn keep_order(&self, key: OrderKey, rows: &[u32]) {
        if let Ok(mut kept) = self.orders.lock() {
            kept.retain(|(k, _)| *k != key);
            if kept.len() >= ORDERS_KEPT {
                kept.remove(0);
            }
            kept.push((key, Arc::new(rows.to_vec())));
        }
    }

    fn pane(&self, p: &Profile, k: Kind) -> &PaneColumns {
        self.panes[kind_index(k)].get_or_init(|| PaneColumns::new(p, k))
    }

    fn ties(&self, p: &Profile, k: Kind) -> Option<&TieOrder> {
        self.ties[kind_index(k)]
            .get_or_init(|| panes::tie_order(p, k, &self.pane(p, k).canonical))
            .as_ref()
    }

    fn search_names(&self, p: &Profile, k: Kind) -> Option<view::SearchNames<'_>> {
        let by_row = self.search_names[kind_index(k)]
            .get_or_init(|| panes::search_names(p, k))
            .as_deref()?;
        let scan = self
            .name_scan
            .get_or_init(|| crate::analysis::search::NameScan::new(p));
        Some(view::SearchNames { by_row, scan })
    }

    fn graph(&self, p: &Profile) -> &CallGraph {
        self.graph.get_or_init(|| CallGraph::build(p))
    }

    fn tree(&self, p: &Profile) -> Arc<TreeIndex> {
        Arc::clone(self.tree.get_or_init(|| Arc::new(TreeIndex::build(p))))
    }

    /// Runs `job` on a thread of its own. If none starts, the UI thread
    /// makes each thing when it is asked for.
    fn spawn(self: &Arc<Prepared>, profile: &Arc<Profile>, job: fn(&Prepared, &Profile)) {
        let (pr, p) = (Arc::clone(self), Arc::clone(profile));
        let _ = std::thread::Builder::new()
            .name("profx-prepare".into())
            .spawn(move || {
                yield_to_keys();
                job(&pr, &p)
            });
    }

    fn start_graph(self: &Arc<Prepared>, profile: &Arc<Profile>) {
        self.spawn(profile, |pr, p| {
            pr.graph(p);
        });
    }

    fn start_panes(self: &Arc<Prepared>, profile: &Arc<Profile>) {
        self.panes_started.get_or_init(|| {
            self.spawn(profile, |pr, p| {
                // What a search of the functions reads first: a search is
                // the first thing many users do.
                pr.search_names(p, Kind::Functions);
                // A kind's tie order needs its pane, so this makes both.
                for k in [Kind::Stacks, Kind::Lines, Kind::Packets] {
                    pr.ties(p, k);
                }
                pr.tree(p);
                // The other panes' search names last: made at a first
                // search, they cost that keystroke a pass over the rows.
                for k in [Kind::Stacks, Kind::Lines, Kind::Packets] {
                    pr.search_names(p, k);
                }
            });
        });
    }
}

/// Lowers the calling thread's priority (nice 10): what is made ahead of
/// need must not slow the keys a person presses now, and on two cores a
/// keystroke's threads took turns with this one. When a key needs what
/// this thread makes, the key's thread waits and so leaves it the cores.
/// Not the idle class: under a busy machine an idle thread may not run
/// at all, and a key waiting for it would wait as long. Linux only:
/// elsewhere the call would lower the whole process.
fn yield_to_keys() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority takes plain integers; on Linux, `who` 0 with
    // PRIO_PROCESS names the calling thread alone. A refusal leaves the
    // priority as it was, which is harmless.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

pub struct App {
    pub profile: Arc<Profile>,
    /// What the header calls the input (file names, or "demo").
    pub title: String,
    prepared: Arc<Prepared>,
    pub history: Vec<View>,
    /// The status is a result (an export's) that a key must not erase
    /// unseen: when it is boxed, the next key only closes the box.
    pub(super) notice: bool,
    /// The steps gone back from (`Backspace`), latest last, for `]`; a new
    /// step or another tab forgets them, as a browser does.
    forward: Vec<View>,
    /// Each other tab's trail (its root and the steps drilled down from
    /// it), kept whole so switching back returns to the same place.
    saved: [Option<Vec<View>>; 7],
    pub mode: Mode,
    pub size: Rect,
    /// A one-line answer to the last action ("no stacks contain …").
    pub status: Option<String>,
    /// Text `y` asked to copy, for the event loop to send the terminal as
    /// an OSC 52 escape (base64: no name's bytes reach it raw).
    pub clipboard: Option<String>,
    pub quit: bool,
    /// False under `NO_COLOR`: styles then use only bold, underline and
    /// reverse video.
    pub color: bool,
    /// Lines of the Info pane before its warnings.
    pub info_head: Vec<String>,
    /// The input's path: `e` writes `<path>.<pane>.csv` beside it.
    pub export_base: PathBuf,
    /// A large export writing on its own thread (`e`), while keys work.
    pub(super) export_job: Option<super::export::ExportJob>,
    /// A large profile's first view being ordered on a thread, while the
    /// first frame shows its first rows.
    opening: Option<Opening>,
}

/// The first view of a large profile, while its rows are ordered on a
/// thread: the first frame shows the rows that order puts first, found in
/// one pass without sorting them all, measured alone; the next action
/// (or the event loop's poll, once the thread is done) puts the whole
/// order in their place.
struct Opening {
    rows: std::thread::JoinHandle<Vec<u32>>,
    /// The first row's callers and callees, counted by the same thread
    /// before the order.
    neighbours: Arc<OnceLock<Counted>>,
    /// The columns, measured over the first rows only.
    pane: PaneColumns,
}

/// A function with its callers and callees.
type Counted = (FuncId, Lists);

/// A function's callers and callees, borrowed or made for the asking, and
/// whether it calls itself (then their times overlap).
pub type Neighbours<'a> = (Cow<'a, [Edge]>, Cow<'a, [Edge]>, bool);

/// Functions from which the first view is ordered on a thread.
const OPEN_ON_A_THREAD: usize = LARGE;

const KINDS: [Kind; 4] = [Kind::Functions, Kind::Lines, Kind::Stacks, Kind::Packets];

fn kind_index(k: Kind) -> usize {
    KINDS.iter().position(|&x| x == k).unwrap_or(0)
}

impl App {
    pub fn new(profile: Profile, title: &str, size: Rect, color: bool) -> App {
        App::with_threads(profile, title, size, color, true)
    }

    /// `new` with nothing made ahead: every pane and the graph are made
    /// when first asked for, as when no thread could start.
    #[cfg(test)]
    pub(crate) fn without_threads(profile: Profile, title: &str, size: Rect) -> App {
        App::with_threads(profile, title, size, true, false)
    }

    /// Whether the call graph is made (tests of the frames before it).
    #[cfg(test)]
    pub(crate) fn graph_made(&self) -> bool {
        self.prepared.graph.get().is_some()
    }

    fn with_threads(profile: Profile, title: &str, size: Rect, color: bool, threads: bool) -> App {
        let profile = Arc::new(profile);
        let prepared = Arc::new(Prepared::default());
        let info_head = super::info::head_lines(&profile);
        let mut app = App {
            profile,
            title: title.to_string(),
            prepared,
            history: Vec::new(),
            forward: Vec::new(),
            notice: false,
            saved: Default::default(),
            mode: Mode::Normal,
            size,
            status: None,
            clipboard: None,
            quit: false,
            export_job: None,
            opening: None,
            color,
            info_head,
            export_base: PathBuf::from(crate::demo::NAME),
        };
        if !(threads && app.open_on_a_thread()) {
            app.push(Scope::Functions);
        }
        // After the first view, which has both cores while it is made: the
        // first frame finds its callers and callees without the graph.
        if threads {
            app.prepared.start_graph(&app.profile);
        }
        app
    }

    /// Starts making the panes the first frame did not show, on a thread
    /// of their own; the event loop calls it once that frame is drawn.
    /// While the first view is ordered on a thread, that thread starts
    /// them when it is done instead: the next key waits for that order.
    pub fn prepare_other_panes(&self) {
        if self.opening.is_none() {
            self.prepared.start_panes(&self.profile);
        }
    }

    pub fn pane(&self, k: Kind) -> &PaneColumns {
        match &self.opening {
            Some(o) if k == Kind::Functions && self.prepared.panes[0].get().is_none() => &o.pane,
            _ => self.prepared.pane(&self.profile, k),
        }
    }

    /// The first view of a large profile: its first rows now, the whole
    /// order from a thread (`Opening`). False, with nothing done, when the
    /// profile is small or no thread starts.
    fn open_on_a_thread(&mut self) -> bool {
        let p = Arc::clone(&self.profile);
        if p.functions().len() < OPEN_ON_A_THREAD {
            return false;
        }
        let cols = panes::present_columns(&p, Kind::Functions);
        let sort = panes::default_sort(Kind::Functions, &cols);
        let first: Vec<u32> = match sort {
            Some((Col::F(c), descending)) => {
                let n = usize::from(self.size.height);
                let first = crate::analysis::sort::first_functions_by(&p, c, descending, n);
                first.iter().map(|f| f.index() as u32).collect()
            }
            _ => return false,
        };
        let pr = Arc::clone(&self.prepared);
        let neighbours = Arc::new(OnceLock::new());
        let counted = Arc::clone(&neighbours);
        let selected = first.first().map(|&r| FuncId::from_index(r as usize));
        let job = move || {
            // The detail's lists first: the first frame is drawn without
            // them (a pass over every node), and the next shows them.
            if let Some(f) = selected {
                let _ = counted.set((f, CallGraph::neighbours(&p, f)));
            }
            let mut rows = pr.pane(&p, Kind::Functions).canonical.clone();
            if let Some((col, descending)) = sort {
                let ties = pr.ties(&p, Kind::Functions);
                panes::sort(&p, &mut rows, col, descending, ties);
            }
            // The other panes wait for this order, which the next key needs.
            pr.start_panes(&p);
            rows
        };
        let Ok(rows) = std::thread::Builder::new()
            .name("profx-open".into())
            .spawn(job)
        else {
            return false;
        };
        let widths =
            panes::column_widths_of(&self.profile, Kind::Functions, &cols, first.iter().copied());
        let mut view = View::new(Scope::Functions, sort);
        view.total = self.profile.functions().len();
        view.rows = Rows::List(first);
        self.history.push(view);
        self.opening = Some(Opening {
            rows,
            neighbours,
            pane: PaneColumns {
                cols,
                widths,
                canonical: Vec::new(),
            },
        });
        true
    }

    /// Whether the first view's order is still being made on a thread.
    pub fn opening(&self) -> bool {
        self.opening.is_some()
    }

    /// Puts the first view's whole order in place of its first rows,
    /// waiting for its thread; with `only_if_done`, only when the thread
    /// is done. Every action but the event loop's poll waits, so no key
    /// ever reads the first rows alone.
    fn settle(&mut self, only_if_done: bool) {
        if only_if_done && !self.opening.as_ref().is_some_and(|o| o.rows.is_finished()) {
            return;
        }
        let Some(o) = self.opening.take() else {
            return;
        };
        let rows = o
            .rows
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        // No action ran before this one, so the first view is the only one.
        let v = self.view_mut();
        let sort = v.sort;
        self.prepared.keep_order((Kind::Functions, sort), &rows);
        let v = self.view_mut();
        v.sorted = Some((sort, Rows::List(rows)));
        self.refresh();
    }

    /// The Flame tab's state, whether it is shown or saved: the other panes
    /// say when a focus or a hide is in effect there.
    pub fn flame_filters(&self) -> (Option<FuncId>, usize) {
        let shown = self.history.iter().rev().find_map(|v| v.flame.as_deref());
        let saved = self.saved[Tab::Flame.index()]
            .as_ref()
            .and_then(|trail| trail.iter().rev().find_map(|v| v.flame.as_deref()));
        shown
            .or(saved)
            .map_or((None, 0), |st| (st.focus, st.hidden.len()))
    }

    /// f outside the Flame pane: the Flame pane, on the selected
    /// function's sandwich.
    fn focus_from_pane(&mut self) {
        let Some(f) = self.selected_function().or_else(|| self.detail_function()) else {
            self.status = Some("f shows a function's sandwich: select one".into());
            return;
        };
        if self.profile.nodes().is_empty() {
            self.status = Some(format!(
                "no sandwich: this {} profile has no call paths",
                self.profile.format
            ));
            return;
        }
        self.switch_tab(Tab::Flame);
        self.flame_focus(Some(f));
    }

    /// The call tree's children and weights (made once, shared by the
    /// Call tree and Flame panes).
    pub fn tree_index(&self) -> Arc<TreeIndex> {
        self.prepared.tree(&self.profile)
    }

    /// The call graph (model.md), made on first need if its thread has
    /// not made it yet.
    pub fn graph(&self) -> &CallGraph {
        self.prepared.graph(&self.profile)
    }

    pub fn view(&self) -> &View {
        // The history is never empty: `new` pushes the first view and
        // nothing pops the last one.
        &self.history[self.history.len() - 1]
    }

    pub(super) fn view_mut(&mut self) -> &mut View {
        let last = self.history.len() - 1;
        &mut self.history[last]
    }

    pub fn tab(&self) -> Tab {
        self.view().scope.tab()
    }

    pub fn areas(&self) -> Areas {
        layout::areas(self.size, self.view().scope)
    }

    /// The selected row's function, where the pane has one.
    pub fn selected_function(&self) -> Option<FuncId> {
        let v = self.view();
        if v.scope == Scope::Flame && self.in_chart() {
            return self.chart_function();
        }
        if v.scope == Scope::Flame {
            return self.flame_function();
        }
        let row = v.selected()?;
        match v.scope {
            Scope::Functions => Some(FuncId::from_index(row as usize)),
            Scope::Lines(_) => self.profile.line(line_id(row)).function,
            Scope::Events(k) => self.profile.packet(k).events.function(row as usize),
            Scope::Tree(_) => {
                let t = v.tree.as_ref()?;
                let r = t.rows.get(row as usize)?;
                t.func(&self.profile, r.id)
            }
            _ => None,
        }
    }

    /// The selected function's callers and callees for the detail split:
    /// the graph's lists once it is made; before, the function's own (the
    /// nodes at and below its own, the same lists to the bit), so the
    /// first frame does not wait for the whole graph. `None` while they are being counted: a
    /// large profile's first view counts them on its thread.
    pub fn neighbours(&self) -> Option<Neighbours<'_>> {
        let Some(f) = self.split_function() else {
            return Some((Cow::Borrowed(&[]), Cow::Borrowed(&[]), false));
        };
        if let Some(o) = &self.opening {
            return match o.neighbours.get() {
                Some((g, l)) if *g == f => Some((
                    Cow::Borrowed(&l.callers[..]),
                    Cow::Borrowed(&l.callees[..]),
                    l.recursive,
                )),
                _ => None,
            };
        }
        Some(match self.prepared.graph.get() {
            Some(g) => (g.callers(f).into(), g.callees(f).into(), g.recursive(f)),
            None => {
                let l = CallGraph::neighbours(&self.profile, f);
                (l.callers.into(), l.callees.into(), l.recursive)
            }
        })
    }

    /// `neighbours` for a key: the graph's lists, waiting for the graph if
    /// its thread is still making it (at most the first tenth of a second),
    /// rather than a pass over the stacks at each question.
    pub fn callers(&self) -> &[Edge] {
        self.split_function()
            .map_or(&[], |f| self.graph().callers(f))
    }

    pub fn callees(&self) -> &[Edge] {
        self.split_function()
            .map_or(&[], |f| self.graph().callees(f))
    }

    /// The function whose callers and callees the detail split lists.
    fn split_function(&self) -> Option<FuncId> {
        self.selected_function()
            .filter(|_| self.view().scope == Scope::Functions)
    }

    /// The selected stack's frames, root first (walked up the tree when
    /// asked: one stack's, as deep as it is).
    pub fn frames(&self) -> Vec<FuncId> {
        let v = self.view();
        match (v.scope, v.selected()) {
            (Scope::Stacks(_), Some(s)) => self.profile.frames(StackId::from_index(s as usize)),
            _ => Vec::new(),
        }
    }

    /// The function under the cursor of the detail split.
    fn detail_function(&self) -> Option<FuncId> {
        match self.view().focus {
            Focus::Callers(i) => self.callers().get(i).and_then(|e| e.func()),
            Focus::Callees(i) => self.callees().get(i).and_then(|e| e.func()),
            Focus::Frames(i) => self.frames().get(i).copied(),
            Focus::Table => None,
        }
    }

    /// Columns a message has: the footer's line, which shows it in place
    /// of the key hints until the next key.
    pub fn status_room(&self) -> usize {
        usize::from(self.size.width.saturating_sub(2))
    }

    /// Whether the status is too long for its line, and shown in a box.
    pub fn status_boxed(&self) -> bool {
        use unicode_width::UnicodeWidthStr;
        self.status
            .as_ref()
            .is_some_and(|m| crate::text::visible(m).width() + 2 > self.status_room())
    }

    pub fn info_len(&self) -> usize {
        self.info_head.len() + self.profile.warnings().len()
    }

    pub fn update(&mut self, action: Action) {
        if self.opening.is_some() {
            self.settle(action == Action::Tick);
        }
        if self.export_job.is_some() && self.export_action(&action) {
            return;
        }
        if !matches!(action, Action::Resize { .. } | Action::Tick) {
            // A message too long for the status line is shown whole in a
            // box; the key after it closes the box and does nothing else,
            // so a result is never gone before it was read.
            let boxed = self.status_boxed() && self.notice;
            self.status = None;
            self.notice = false;
            if boxed {
                return;
            }
        }
        match &self.mode {
            Mode::Finder(_) => self.finder_action(action),
            Mode::Help(_) => self.help_action(action),
            Mode::Search => self.search_action(action),
            Mode::Normal => self.normal_action(action),
        }
        self.keep_visible();
    }

    fn normal_action(&mut self, action: Action) {
        if self.in_flame() && self.flame_action(&action) {
            return;
        }
        match action {
            Action::Tick => {}
            Action::Quit => self.quit = true,
            Action::Move(n) => self.move_by(n),
            Action::PageUp => self.move_by(-(self.page() as isize)),
            Action::PageDown => self.move_by(self.page() as isize),
            Action::Home => self.move_by(isize::MIN / 2),
            Action::End => self.move_by(isize::MAX / 2),
            Action::NextTab => self.switch_tab(Tab::ALL[(self.tab().index() + 1) % Tab::ALL.len()]),
            Action::PrevTab => {
                let n = Tab::ALL.len();
                self.switch_tab(Tab::ALL[(self.tab().index() + n - 1) % n])
            }
            Action::Tab(t) => self.switch_tab(t),
            Action::SortNext => self.step_sort(1),
            Action::SortPrev => self.step_sort(-1),
            Action::Reverse => self.reverse(),
            Action::ScrollColumns(d) if self.in_tree() => match d > 0 {
                true => self.tree_expand(),
                false => self.tree_collapse(),
            },
            Action::ScrollColumns(d) => self.scroll_columns(d),
            Action::Lines if self.in_tree() => self.tree_expand(),
            Action::ExpandAll => self.tree_expand_all(),
            Action::HotPath => self.tree_hot_path(),
            Action::Invert => self.tree_invert(),
            Action::ShowInTree | Action::TreeOfSelected => self.show_in_tree(),
            Action::Focus => self.focus_from_pane(),
            Action::Hide | Action::Unhide => {
                self.status = Some("x and X hide and show functions in the Flame pane (5)".into());
            }
            Action::Enter => self.enter(),
            Action::Back => self.back(),
            Action::Forward => self.forward(),
            Action::Callers => self.cycle_callers(),
            Action::Lines => self.show_lines(),
            Action::SearchOpen => self.open_search(),
            Action::NextMatch => self.step_match(1),
            Action::PrevMatch => self.step_match(-1),
            Action::FinderOpen => self.open_finder(),
            Action::Help => self.mode = Mode::Help(0),
            Action::Export => self.export_pane(),
            Action::Copy => super::copy::copy_selected(self),
            Action::Click { x, y } => self.click(x, y),
            Action::Wheel { x, y, rows } => self.wheel(x, y, rows),
            Action::Resize { width, height } => self.size = Rect::new(0, 0, width, height),
            Action::Cancel => self.back(),
            Action::Input(_)
            | Action::Paste(_)
            | Action::Erase
            | Action::ClearInput
            | Action::Accept => {}
        }
    }

    fn search_action(&mut self, action: Action) {
        match action {
            Action::Input(c) => self.edit_filter(|f| f.push(c)),
            Action::Paste(p) => self.edit_filter(|f| f.push_str(&p.0)),
            Action::Erase => self.edit_filter(|f| {
                f.pop();
            }),
            Action::ClearInput => self.edit_filter(String::clear),
            Action::Accept => self.mode = Mode::Normal,
            Action::Cancel => {
                self.edit_filter(String::clear);
                self.mode = Mode::Normal;
            }
            Action::Quit
            | Action::Move(_)
            | Action::PageUp
            | Action::PageDown
            | Action::Resize { .. }
            | Action::Wheel { .. } => self.normal_action(action),
            _ => {}
        }
    }

    fn help_action(&mut self, action: Action) {
        let Mode::Help(scroll) = &mut self.mode else {
            return;
        };
        let max = super::help::wrapped_line_count(super::help::box_width(self.size.width))
            .saturating_sub(1);
        match action {
            Action::Move(n) => *scroll = scroll.saturating_add_signed(n).min(max),
            Action::PageDown => *scroll = (*scroll + 10).min(max),
            Action::PageUp => *scroll = scroll.saturating_sub(10),
            Action::Home => *scroll = 0,
            Action::End => *scroll = max,
            Action::Quit => self.quit = true,
            Action::Resize { .. } => self.normal_action(action),
            Action::Cancel | Action::Help | Action::Back | Action::Click { .. } => {
                self.mode = Mode::Normal
            }
            _ => {}
        }
    }

    fn finder_action(&mut self, action: Action) {
        let Mode::Finder(finder) = &mut self.mode else {
            return;
        };
        match action {
            Action::Input(c) => finder.input.push(c),
            Action::Paste(p) => finder.input.push_str(&p.0),
            Action::Erase => {
                finder.input.pop();
            }
            Action::ClearInput => finder.input.clear(),
            Action::Move(n) => {
                finder.cursor = step(finder.cursor, n, finder.results.len());
                return;
            }
            Action::PageUp | Action::PageDown => {
                let n = if action == Action::PageUp { -10 } else { 10 };
                finder.cursor = step(finder.cursor, n, finder.results.len());
                return;
            }
            Action::Home | Action::End => {
                let last = finder.results.len().saturating_sub(1);
                finder.cursor = if action == Action::Home { 0 } else { last };
                return;
            }
            Action::Accept => {
                let chosen = finder.results.get(finder.cursor).copied();
                self.mode = Mode::Normal;
                if let Some(f) = chosen {
                    self.goto_function(FuncId::from_index(f as usize));
                }
                return;
            }
            Action::Cancel | Action::Back => {
                self.mode = Mode::Normal;
                return;
            }
            Action::Quit => {
                self.quit = true;
                return;
            }
            Action::Resize { .. } => {
                self.normal_action(action);
                return;
            }
            _ => return,
        }
        self.rank_finder();
    }

    fn open_finder(&mut self) {
        self.mode = Mode::Finder(Finder {
            input: String::new(),
            results: Vec::new(),
            cursor: 0,
        });
        self.rank_finder();
    }

    /// All functions matching the finder's input, best first (ties by the
    /// canonical order); every function when the input is empty.
    fn rank_finder(&mut self) {
        let Mode::Finder(finder) = &mut self.mode else {
            return;
        };
        let canonical = &self.prepared.pane(&self.profile, Kind::Functions).canonical;
        let q = Query::parse(&finder.input);
        let mut scored: Vec<(i64, u32)> = canonical
            .iter()
            .filter_map(|&f| {
                let name = visible(self.profile.function_name(FuncId::from_index(f as usize)));
                q.matches(&name).map(|m| (m.score, f))
            })
            .collect();
        // Stable, so equal scores keep the canonical (heaviest first) order.
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        finder.results = scored.into_iter().map(|(_, f)| f).collect();
        finder.cursor = 0;
    }

    /// Rows the current pane shows at once.
    pub fn page(&self) -> usize {
        let table = self.areas().table;
        match self.view().scope {
            Scope::Info => layout::list_rows(table).max(1),
            _ => layout::table_rows(table).max(1),
        }
    }

    fn move_by(&mut self, n: isize) {
        let len = self.focus_len();
        let v = self.view_mut();
        match &mut v.focus {
            Focus::Table => v.cursor = step(v.cursor, n, len),
            Focus::Callers(i) | Focus::Callees(i) | Focus::Frames(i) => *i = step(*i, n, len),
        }
    }

    /// Rows of whatever has the keyboard.
    fn focus_len(&self) -> usize {
        match self.view().focus {
            Focus::Table => self.view().rows.len(),
            Focus::Callers(_) => self.callers().len(),
            Focus::Callees(_) => self.callees().len(),
            Focus::Frames(_) => self.frames().len(),
        }
    }

    fn switch_tab(&mut self, tab: Tab) {
        if self.history.len() == 1 && self.tab() == tab {
            return;
        }
        self.forward.clear();
        let mut trail = std::mem::take(&mut self.history);
        let slot = trail[0].scope.tab().index();
        if slot == tab.index() {
            // The tab of the trail's root: back to the root.
            trail.truncate(1);
            self.history = trail;
        } else {
            self.saved[slot] = Some(trail);
            match self.saved[tab.index()].take() {
                Some(t) => self.history = t,
                None => self.push(tab.root()),
            }
        }
        self.view_mut().focus = Focus::Table;
    }

    /// Opens a view of `scope` on top of the history.
    fn push(&mut self, scope: Scope) {
        let sort = scope
            .kind()
            .and_then(|k| panes::default_sort(k, &self.pane(k).cols));
        let mut view = View::new(scope, sort);
        if let Scope::Tree(f) = scope {
            let p = &self.profile;
            let mut tree = CallTree::new(p, self.prepared.tree(p));
            if let Some(f) = f {
                tree.mark(p, &|g| g == f);
                view.cursor = tree.next_marked(tree.rows.len(), 1).unwrap_or(0);
            }
            view.tree = Some(Box::new(tree));
        }
        if scope == Scope::Flame {
            let mut st = super::view::FlameState::default();
            self.build_flame(&mut st);
            view.flame = Some(Box::new(st));
        }
        self.history.push(view);
        self.forward.clear();
        self.refresh();
    }

    /// Rebuilds the current view's rows after its scope, filter or sort
    /// changed, keeping the selected row selected when it is still shown.
    fn refresh(&mut self) {
        self.refresh_within(false);
    }

    /// `refresh`; `narrowing` when the new query is known to keep a subset
    /// of the rows shown (a search narrowing as it is typed), which are
    /// then the only rows filtered.
    fn refresh_within(&mut self, narrowing: bool) {
        if self.in_tree() {
            return self.tree_op(|_, _, _| None);
        }
        let v = self.view();
        let key = v.selected();
        if !v.sorted.as_ref().is_some_and(|(sort, _)| *sort == v.sort) {
            let whole = match v.scope {
                Scope::Functions | Scope::Lines(None) | Scope::Stacks(None) | Scope::Packets => {
                    v.scope.kind().map(|k| (k, v.sort))
                }
                _ => None,
            };
            let mut kept = whole.and_then(|key| self.prepared.order(key));
            let was_kept = kept.is_some();
            let base = match v.scope {
                Scope::Info => Rows::All(self.info_len()),
                _ if was_kept => Rows::List(kept.take().unwrap_or_default()),
                scope => {
                    let rows =
                        view::scope_rows(&self.profile, scope, &|k| self.pane(k).canonical.clone());
                    let ties = scope
                        .kind()
                        .and_then(|k| self.prepared.ties(&self.profile, k));
                    view::sorted(&self.profile, v, rows, ties)
                }
            };
            if let (Some(key), false, Rows::List(rows)) = (whole, was_kept, &base) {
                self.prepared.keep_order(key, rows);
            }
            let sort = v.sort;
            self.view_mut().sorted = Some((sort, base));
        }
        // The rows shown are replaced: narrowing, they are what is
        // filtered; otherwise their room takes a copy of the sorted rows.
        let shown = std::mem::replace(&mut self.view_mut().rows, Rows::All(0));
        let v = self.view();
        let Some((_, base)) = &v.sorted else {
            self.view_mut().rows = shown;
            return;
        };
        let total = base.len();
        let rows = match (narrowing, shown, base) {
            (true, shown, _) => shown,
            (false, Rows::List(mut room), Rows::List(base)) => {
                room.clear();
                room.extend_from_slice(base);
                Rows::List(room)
            }
            (false, _, base) => base.clone(),
        };
        let names = v
            .query
            .as_ref()
            .and(v.scope.kind())
            .and_then(|k| self.prepared.search_names(&self.profile, k));
        let rows = view::filtered_rows(&self.profile, v, rows, names);
        let v = self.view_mut();
        v.total = total;
        v.rows = rows;
        if !key.is_some_and(|k| v.select(k)) {
            v.cursor = 0;
        }
    }

    fn step_sort(&mut self, dir: isize) {
        if self.in_tree() {
            return self.tree_op(|p, t, c| {
                let now = TreeCol::ALL
                    .iter()
                    .position(|&x| x == t.sort.0)
                    .unwrap_or(0);
                let col = TreeCol::ALL[step_wrap(now, dir, TreeCol::ALL.len())];
                let id = t.rows.get(c).map(|r| r.id);
                t.sort_by(p, col, col != TreeCol::Name);
                id.and_then(|id| t.position(id))
            });
        }
        let Some(kind) = self.view().scope.kind() else {
            return self.no_sort();
        };
        let cols = &self.pane(kind).cols;
        let now = self
            .view()
            .sort
            .and_then(|(c, _)| cols.iter().position(|&x| x == c))
            .unwrap_or(0);
        let next = step_wrap(now, dir, cols.len());
        let col = cols[next];
        self.sort_by(col, col.descending_by_default());
    }

    fn reverse(&mut self) {
        if self.in_tree() {
            return self.tree_op(|p, t, c| {
                let id = t.rows.get(c).map(|r| r.id);
                t.sort_by(p, t.sort.0, !t.sort.1);
                id.and_then(|id| t.position(id))
            });
        }
        match self.view().sort {
            Some((col, desc)) => self.sort_by(col, !desc),
            None => self.no_sort(),
        }
    }

    fn no_sort(&mut self) {
        self.status = Some(match self.view().scope {
            Scope::Events(_) => "events keep their trace order".into(),
            _ => "nothing to sort here".into(),
        });
    }

    fn sort_by(&mut self, col: Col, descending: bool) {
        self.view_mut().sort = Some((col, descending));
        self.refresh();
        self.show_column(col);
    }

    /// Scrolls the columns so the sort column is on screen.
    fn show_column(&mut self, col: Col) {
        let Some(kind) = self.view().scope.kind() else {
            return;
        };
        let pane = self.pane(kind);
        let Some(i) = pane.cols.iter().position(|&c| c == col) else {
            return;
        };
        let inner = inner(self.areas().table);
        let v = self.view();
        let area = layout::columns_area(v.scope, inner);
        let placed = layout::place_columns(area, &pane.cols, &pane.widths, v.hscroll);
        if i > 0 && !placed.iter().any(|p| p.col == i) {
            let first_shown = placed.get(1).map_or(i, |p| p.col);
            let hscroll = if i < first_shown {
                i - 1
            } else {
                v.hscroll + (i - placed.last().map_or(i, |p| p.col))
            };
            self.view_mut().hscroll = hscroll;
        }
    }

    fn scroll_columns(&mut self, d: isize) {
        let Some(kind) = self.view().scope.kind() else {
            return;
        };
        let max = self.pane(kind).cols.len().saturating_sub(2);
        let v = self.view_mut();
        v.hscroll = v.hscroll.saturating_add_signed(d).min(max);
    }

    fn enter(&mut self) {
        let v = self.view();
        if v.focus != Focus::Table {
            match self.detail_function() {
                Some(f) => self.goto_function(f),
                // (root), (self), (unlisted): what the edges miss.
                None => self.status = Some("this row has no function".into()),
            }
            return;
        }
        let Some(row) = v.selected() else {
            self.status = Some("no row selected".into());
            return;
        };
        match v.scope {
            Scope::Functions => self.open_stacks(FuncId::from_index(row as usize)),
            Scope::Stacks(marked) => {
                let frames = self.frames();
                let at = marked
                    .and_then(|f| frames.iter().position(|&x| x == f))
                    .unwrap_or(frames.len().saturating_sub(1));
                self.view_mut().focus = Focus::Frames(at);
            }
            Scope::Packets => self.push(Scope::Events(PacketId::from_index(row as usize))),
            Scope::Lines(_) | Scope::Events(_) | Scope::Tree(_) | Scope::Flame => {
                match self.selected_function() {
                    Some(f) => self.goto_function(f),
                    None => self.status = Some("this row has no function".into()),
                }
            }
            Scope::Info => {}
        }
    }

    fn open_stacks(&mut self, f: FuncId) {
        if self.profile.stacks().is_empty() {
            self.status = Some(format!(
                "no stacks: this {} profile has none",
                self.profile.format
            ));
            return;
        }
        self.push(Scope::Stacks(Some(f)));
    }

    /// Shows a function in the Functions pane (a new step of the history).
    fn goto_function(&mut self, f: FuncId) {
        self.push(Scope::Functions);
        self.view_mut().select(f.index() as u32);
    }

    fn show_lines(&mut self) {
        let Some(f) = self
            .selected_function()
            .filter(|_| self.view().scope == Scope::Functions)
        else {
            self.status = Some("l shows a function's lines: select one in Functions".into());
            return;
        };
        if self.profile.lines().is_empty() {
            self.status = Some(format!(
                "no lines: this {} profile has none",
                self.profile.format
            ));
            return;
        }
        self.push(Scope::Lines(Some(f)));
    }

    fn cycle_callers(&mut self) {
        if self.view().scope != Scope::Functions {
            self.status = Some("c works in Functions".into());
            return;
        }
        let (callers, callees) = (!self.callers().is_empty(), !self.callees().is_empty());
        let next = match self.view().focus {
            Focus::Table if callers => Focus::Callers(0),
            Focus::Table | Focus::Callers(_) if callees => Focus::Callees(0),
            _ => Focus::Table,
        };
        if next == Focus::Table && self.view().focus == Focus::Table {
            self.status = Some("no callers or callees known for this function".into());
        }
        self.view_mut().focus = next;
    }

    fn back(&mut self) {
        if self.view().focus != Focus::Table {
            self.view_mut().focus = Focus::Table;
        } else if self.history.len() > 1 {
            self.forward.extend(self.history.pop());
        } else if !self.view().filter.is_empty() {
            self.edit_filter(String::clear);
        } else {
            self.status = Some("at the start: nothing to go back to".into());
        }
    }

    /// `]`: the step last gone back from.
    fn forward(&mut self) {
        match self.forward.pop() {
            Some(v) => self.history.push(v),
            None => self.status = Some("nothing to go forward to (] undoes ⌫)".into()),
        }
    }

    fn open_search(&mut self) {
        if self.view().scope == Scope::Info {
            self.status = Some("Info has nothing to search".into());
            return;
        }
        self.view_mut().focus = Focus::Table;
        self.mode = Mode::Search;
    }

    fn edit_filter(&mut self, edit: impl FnOnce(&mut String)) {
        if self.in_flame() {
            let mut text = self.view().filter.clone();
            edit(&mut text);
            self.view_mut().set_filter(&text);
            return self.flame_search();
        }
        if self.in_tree() {
            let mut text = self.view().filter.clone();
            edit(&mut text);
            self.view_mut().set_filter(&text);
            return self.tree_search();
        }
        let old = self.view().filter.clone();
        let mut text = old.clone();
        edit(&mut text);
        let narrowing = search::narrows(&old, &text);
        self.view_mut().set_filter(&text);
        self.refresh_within(narrowing);
    }

    /// Every row shown under a filter matches it, so stepping through
    /// matches steps through rows, wrapping around.
    fn step_match(&mut self, dir: isize) {
        if self.view().query.is_none() && !self.tree_marked() {
            self.status = Some("no search: / to start one".into());
            return;
        }
        if self.in_tree() {
            return self.tree_op(|_, t, c| t.next_marked(c, dir));
        }
        let v = self.view_mut();
        v.cursor = step_wrap(v.cursor, dir, v.rows.len());
    }

    fn click(&mut self, x: u16, y: u16) {
        let at = Position::new(x, y);
        let a = self.areas();
        if a.crumbs.contains(at) {
            let tab = layout::tab_positions(a.crumbs)
                .into_iter()
                .find(|&(_, tx, w)| x >= tx && x < tx + w);
            if let Some((tab, _, _)) = tab {
                self.switch_tab(tab);
            }
        } else if a.table.contains(at) {
            self.click_table(x, y, a.table);
        } else if let Some(d) = a.detail.filter(|d| d.contains(at)) {
            self.click_detail(x, y, d);
        }
    }

    fn click_table(&mut self, x: u16, y: u16, table: Rect) {
        let v = self.view();
        if y == table.y + 1 {
            let Some(kind) = v.scope.kind() else {
                return;
            };
            let pane = self.pane(kind);
            let area = layout::columns_area(v.scope, inner(table));
            let placed = layout::place_columns(area, &pane.cols, &pane.widths, v.hscroll);
            if let Some(p) = placed.iter().find(|p| x >= p.x && x < p.x + p.width) {
                let col = pane.cols[p.col];
                let desc = match v.sort {
                    Some((c, d)) if c == col => !d,
                    _ => col.descending_by_default(),
                };
                self.sort_by(col, desc);
            }
        } else if y >= table.y + 2 && y + 1 < table.bottom() {
            let i = v.offset + usize::from(y - table.y - 2);
            if i < v.rows.len() {
                let v = self.view_mut();
                v.focus = Focus::Table;
                v.cursor = i;
            }
        }
    }

    fn click_detail(&mut self, x: u16, y: u16, detail: Rect) {
        if y <= detail.y || y + 1 >= detail.bottom() {
            return;
        }
        let i = usize::from(y - detail.y - 1);
        let focus = match self.view().scope {
            Scope::Functions => {
                // The lists' first line names their columns.
                let Some(i) = i.checked_sub(1) else { return };
                let (left, _) = layout::detail_halves(detail);
                if x < left.right() {
                    (i < self.callers().len()).then_some(Focus::Callers(i))
                } else {
                    (i < self.callees().len()).then_some(Focus::Callees(i))
                }
            }
            _ => {
                let first = self.frames_offset(detail);
                (first + i < self.frames().len()).then_some(Focus::Frames(first + i))
            }
        };
        if let Some(f) = focus {
            self.view_mut().focus = f;
        }
    }

    /// The first frame shown in the frames list: the list scrolls so the
    /// focused (or marked) frame is in view.
    pub fn frames_offset(&self, detail: Rect) -> usize {
        let rows = layout::list_rows(detail).max(1);
        let v = self.view();
        let at = match v.focus {
            Focus::Frames(i) => i,
            _ => v
                .scope
                .focus_function()
                .and_then(|f| self.frames().iter().position(|&x| x == f))
                .unwrap_or(0),
        };
        (at + 1).saturating_sub(rows)
    }

    fn wheel(&mut self, x: u16, y: u16, rows: isize) {
        let at = Position::new(x, y);
        let a = self.areas();
        let in_detail = a.detail.is_some_and(|d| d.contains(at));
        if in_detail == (self.view().focus != Focus::Table) {
            self.move_by(rows);
        } else if !in_detail {
            let v = self.view_mut();
            v.focus = Focus::Table;
            v.cursor = step(v.cursor, rows, v.rows.len());
        }
    }

    fn in_tree(&self) -> bool {
        matches!(self.view().scope, Scope::Tree(_))
    }

    fn tree_marked(&self) -> bool {
        self.view()
            .tree
            .as_ref()
            .is_some_and(|t| !t.marked.is_empty())
    }

    /// Runs `op` on the Call tree with the cursor's row, then shows the
    /// tree's rows, the cursor on the row `op` names (or where it was).
    fn tree_op(&mut self, op: impl FnOnce(&Profile, &mut CallTree, usize) -> Option<usize>) {
        let p = Arc::clone(&self.profile);
        let v = self.view_mut();
        let Some(t) = v.tree.as_mut() else {
            return;
        };
        let at = op(&p, t, v.cursor);
        let len = t.rows.len();
        v.rows = Rows::All(len);
        v.total = len;
        if let Some(at) = at {
            v.cursor = at;
        }
        v.cursor = v.cursor.min(len.saturating_sub(1));
    }

    /// → or l: opens the row, or moves into it when it is open.
    fn tree_expand(&mut self) {
        self.tree_op(|p, t, c| {
            if t.expand(p, c) {
                return None;
            }
            let r = t.rows.get(c)?;
            (t.is_open(r.id) && t.has_children(r.id)).then_some(c + 1)
        });
    }

    /// ← or h: closes the row, or moves to its parent when it is closed.
    fn tree_collapse(&mut self) {
        self.tree_op(|p, t, c| {
            if t.collapse(c) {
                return None;
            }
            let parent = t.parent(p, t.rows.get(c)?.id)?;
            t.rows[..c].iter().rposition(|r| r.id == parent)
        });
    }

    fn tree_expand_all(&mut self) {
        if !self.in_tree() {
            self.status = Some("* opens rows of the Call tree".into());
            return;
        }
        let mut stopped = false;
        self.tree_op(|p, t, c| {
            let id = t.rows.get(c)?.id;
            t.expand_all(p, c);
            stopped = t.over_budget();
            t.position(id)
        });
        if stopped {
            self.status =
                Some("stopped opening: a deep recursion, turned over; open rows one by one".into());
        }
    }

    fn tree_hot_path(&mut self) {
        if !self.in_tree() {
            self.status = Some("p opens the hot path in the Call tree".into());
            return;
        }
        self.tree_op(|p, t, c| Some(t.hot_path(p, c)));
    }

    /// i: top-down ⇄ bottom-up, the selection kept on its function.
    fn tree_invert(&mut self) {
        if !self.in_tree() {
            self.status = Some("i turns the Call tree over (bottom-up)".into());
            return;
        }
        self.tree_op(|p, t, c| {
            let f = t.rows.get(c).map(|r| t.label(p, r.id));
            t.invert(p);
            let f = f?;
            t.rows.iter().position(|r| t.label(p, r.id) == f)
        });
        if !self.view().filter.is_empty() {
            self.tree_search();
        }
    }

    /// Which functions' names match the query `text`, by function id: each
    /// name matched once, front to back in memory, as a pane's search does.
    fn function_hits(&self, text: &str) -> Vec<bool> {
        let p = &self.profile;
        match self.prepared.search_names(p, Kind::Functions) {
            Some(names) => {
                let hits = names.scan.hits(p, text);
                names.by_row.iter().map(|n| hits.get(n.index())).collect()
            }
            None => {
                let q = Query::parse(text);
                p.function_ids()
                    .map(|f| q.is_match(&visible(p.function_name(f))))
                    .collect()
            }
        }
    }

    /// Marks the tree's rows whose function the search matches, opens the
    /// paths to them and says how many and what share they hold.
    fn tree_search(&mut self) {
        let filter = self.view().filter.clone();
        let hits = self
            .view()
            .query
            .is_some()
            .then(|| self.function_hits(&filter));
        let mut found = None;
        self.tree_op(|p, t, c| {
            let Some(hits) = &hits else {
                let id = t.rows.get(c).map(|r| r.id);
                t.unmark(p);
                return id.and_then(|id| t.position(id));
            };
            let n = t.mark(p, &|f| hits.get(f.index()).copied().unwrap_or(false));
            found = Some((n, t.marked_share(p)));
            t.next_marked(c.saturating_sub(1).min(t.rows.len()), 1)
        });
        if let Some((n, share)) = found {
            self.status = Some(match share {
                Some(s) if n > 0 => {
                    let pct =
                        crate::report::fmt::cell(crate::analysis::columns::Value::Pct(Some(s)));
                    format!(
                        "{} node{} match · {pct}% of the total",
                        crate::report::fmt::grouped(n as u64),
                        if n == 1 { "" } else { "s" },
                    )
                }
                _ => "no node matches".into(),
            });
        }
    }

    /// t: the selected function's places in the call tree.
    fn show_in_tree(&mut self) {
        let Some(f) = self.selected_function().or_else(|| self.detail_function()) else {
            self.status = Some("t shows a function in the Call tree: select one".into());
            return;
        };
        if self.profile.nodes().is_empty() {
            self.status = Some(format!(
                "no call tree: this {} profile has no call paths",
                self.profile.format
            ));
            return;
        }
        self.push(Scope::Tree(Some(f)));
    }

    /// Keeps the cursor on a row and the table scrolled to show it.
    fn keep_visible(&mut self) {
        let shown = self.page();
        let len = self.focus_len();
        let v = self.view_mut();
        match &mut v.focus {
            Focus::Table => {}
            Focus::Callers(i) | Focus::Callees(i) | Focus::Frames(i) => {
                if len == 0 {
                    v.focus = Focus::Table;
                } else {
                    *i = (*i).min(len - 1);
                }
            }
        }
        v.cursor = v.cursor.min(v.rows.len().saturating_sub(1));
        if v.cursor < v.offset {
            v.offset = v.cursor;
        } else if v.cursor >= v.offset + shown {
            v.offset = v.cursor + 1 - shown;
        }
        // No empty rows below the last one while rows are hidden above.
        v.offset = v.offset.min(v.rows.len().saturating_sub(shown));
    }
}

fn line_id(row: u32) -> crate::model::LineId {
    crate::model::LineId::from_index(row as usize)
}

/// The area inside a bordered block.
pub fn inner(r: Rect) -> Rect {
    Rect::new(
        r.x + 1,
        r.y + 1,
        r.width.saturating_sub(2),
        r.height.saturating_sub(2),
    )
}

/// `at + n`, kept within `0..len`.
fn step(at: usize, n: isize, len: usize) -> usize {
    at.saturating_add_signed(n).min(len.saturating_sub(1))
}

/// `at + dir`, wrapping around `0..len`.
fn step_wrap(at: usize, dir: isize, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    (at as isize + dir).rem_euclid(len as isize) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pane large enough to have its widths measured on a second thread
    /// is the pane measured and ordered on one.
    #[test]
    fn a_large_pane_is_made_as_on_one_thread() {
        let p = crate::fixture_gen::large::profile(60_000);
        for k in KINDS {
            let pane = PaneColumns::new(&p, k);
            let cols = panes::present_columns(&p, k);
            assert_eq!(pane.canonical, panes::canonical_rows(&p, k), "{k:?}");
            assert_eq!(pane.widths, panes::column_widths(&p, k, &cols), "{k:?}");
            assert_eq!(pane.cols, cols, "{k:?}");
        }
        assert!(panes::row_count(&p, Kind::Stacks) >= LARGE);
    }
}
