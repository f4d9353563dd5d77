//! The app's global state and `App::update`, the one door every intent
//! comes in by.
//!
//! State is the loaded profile (never changed) and the query on it (the
//! threads chosen, a stack of transforms, each with its profile: what
//! every pane reads, `query.rs`), the drill-down history (a
//! stack of `Pane`s; the last is on screen, the first is the root of its
//! tab), the saved trail of every other tab, one `Mode` for what the
//! keyboard is talking to (the panes, the search prompt, the finder, the
//! help), the status line and the background jobs. Switching tabs keeps
//! each tab's trail as it was left; a new step or another tab forgets the
//! steps gone back from, as a browser does.
//!
//! An intent goes to the overlay that is open, else to the pane on screen
//! (`Pane::update`), and what the pane leaves (`Effect::Ignored`) to the
//! app: quitting, switching panes, the history, the search prompt, the
//! finder, the help, exporting and copying, and the query's steps, which
//! run on a thread of their own (`QueryJob`) while keys work: any key
//! cancels a step still running.

use super::compare::Compared;
use super::derived::{Opening, Prepared};
use super::finder::Finder;
use super::intent::Intent;
use super::keymap::Place;
use super::layout::{self, Areas};
use super::menu::Menu;
use super::pane::{self, Ctx, Effect, Pane, Step, TABS, TablePane, Within};
use super::query::{Queried, QueryJob};
use super::threads::ThreadsList;
use crate::analysis::query::Reads;
use crate::analysis::view::{Table, View};
use crate::model::{FuncId, Profile};
use compare::base_cx;
use ratatui::layout::{Position, Rect};
use std::path::PathBuf;
use std::sync::Arc;

mod ask;
mod compare;
mod copy;
mod follow;
mod range;
mod search;
mod source;
pub(in crate::tui) use ask::dropped_words;

/// What the keyboard is talking to.
#[derive(Debug, PartialEq)]
pub enum Mode {
    Normal,
    /// The search prompt: keys edit the pane's search.
    Search,
    Finder(Finder),
    /// The key list, scrolled down by this many lines.
    Help(usize),
    /// The `.` menu of transforms on the selection.
    Menu(Menu),
    /// The threads list of a trace (`H`).
    Threads(ThreadsList),
}

/// The app's whole state: the profile, the history of panes, the mode and
/// what the event loop must do next. `update` takes every intent; `draw`
/// reads it.
pub struct App {
    /// The loaded profile and the query's one answer on it, which every
    /// pane reads.
    pub query: Queried,
    /// A step of the query running on its own thread.
    pub(super) query_job: Option<QueryJob>,
    /// A comparison's query running on both sides (`app/compare.rs`).
    pub(super) compare_job: Option<compare::CompareJob>,
    /// A step cancelled and still ending: the next waits for it, so two
    /// never run at once.
    pub(super) stopping: Option<QueryJob>,
    /// What the header calls the input (file names, or "demo").
    pub title: String,
    /// The current tab's trail: its root pane and the steps drilled down
    /// from it; the last is on screen.
    pub history: Vec<Pane>,
    /// The steps gone back from (`Backspace`), latest last, for `]`.
    forward: Vec<Pane>,
    /// Each other tab's trail (its root and the steps drilled down from
    /// it), kept whole so switching back returns to the same place.
    saved: [Option<Vec<Pane>>; TABS.len()],
    /// Where the keyboard is: a pane, the search prompt, the finder, the help.
    pub mode: Mode,
    /// The terminal's size, as the last resize gave it.
    pub size: Rect,
    /// A one-line answer to the last intent ("no stacks contain …").
    pub status: Option<String>,
    /// The status is a result (an export's) that a key must not erase
    /// unseen: when it is boxed, the next key only closes the box.
    pub(super) notice: bool,
    /// Text `y` asked to copy, for the event loop to send the terminal as
    /// an OSC 52 escape (base64: no name's bytes reach it raw).
    pub clipboard: Option<String>,
    /// Set by `q`: the event loop gives the terminal back and ends.
    pub quit: bool,
    /// False under `NO_COLOR`: styles then use only bold, underline and
    /// reverse video.
    pub color: bool,
    /// The input's path: `e` writes `<path>.<pane>.csv` beside it.
    pub export_base: PathBuf,
    /// A large export writing on its own thread (`e`), while keys work.
    pub(super) export_job: Option<super::export::ExportJob>,
    /// A large profile's first view being ordered on a thread, while the
    /// first frame shows its first rows.
    opening: Option<Opening>,
    /// How the flame graph is drawn (`s`, `^`), kept for the rest of the
    /// run, whichever Flame pane a query or a tab makes.
    flame: pane::flame::Look,
    /// Two runs compared (`profx diff`): the query is then NEW's answer,
    /// and the Functions tab the comparison's.
    pub(super) compared: Option<Arc<Compared>>,
    /// In a comparison, the Flame pane draws BASE's widths (`b`).
    pub(super) flame_base: bool,
    /// A trace followed as it is written (`--follow`, `L`).
    pub(super) follow: Option<follow::Follow>,
}

impl App {
    /// The app on `profile`'s first pane, with what is worth making ahead
    /// made on threads; `title` names the input in the header.
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
        self.prepared().graph_made().is_some()
    }

    fn with_threads(profile: Profile, title: &str, size: Rect, color: bool, threads: bool) -> App {
        App::on(Arc::new(profile), title, size, color, threads)
    }

    fn on(profile: Arc<Profile>, title: &str, size: Rect, color: bool, threads: bool) -> App {
        let prepared = Arc::new(Prepared::default());
        let mut app = App {
            query: Queried::new(Arc::clone(&profile), Arc::clone(&prepared)),
            query_job: None,
            compare_job: None,
            stopping: None,
            title: title.to_string(),
            history: Vec::new(),
            forward: Vec::new(),
            saved: Default::default(),
            mode: Mode::Normal,
            size,
            status: None,
            notice: false,
            clipboard: None,
            quit: false,
            color,
            export_base: PathBuf::from(crate::demo::NAME),
            export_job: None,
            opening: None,
            flame: Default::default(),
            compared: None,
            flame_base: false,
            follow: None,
        };
        let first = match threads {
            true => Opening::start(&profile, &prepared, usize::from(size.height)),
            false => None,
        };
        let pane = match first {
            // A large profile: its first rows now, the whole order from a
            // thread.
            Some((opening, rows, sort)) => {
                let total = profile.functions().len();
                let rows = pane::Rows::list(rows);
                app.opening = Some(opening);
                TablePane::shown(Table::Functions, Within::All, sort, rows, total)
            }
            None => TablePane::new(Table::Functions, Within::All, &app.cx()),
        };
        app.history.push(Pane::Table(pane));
        // After the first view, which has both cores while it is made: the
        // first frame finds its callers and callees without the graph.
        if threads {
            prepared.start_graph(&profile);
        }
        app
    }

    /// The paths' profile: what every pane but the Trace pane reads.
    pub fn profile(&self) -> &Arc<Profile> {
        self.query.answer().paths()
    }

    /// What the panes derive from the paths' profile.
    fn prepared(&self) -> &Arc<Prepared> {
        self.query.prepared(Reads::Paths)
    }

    /// Starts making the panes the first frame did not show, on a thread
    /// of their own; the event loop calls it once that frame is drawn.
    /// While the first view is ordered on a thread, that thread starts
    /// them when it is done instead: the next key waits for that order.
    pub fn prepare_other_panes(&self) {
        if self.opening.is_none() {
            self.prepared().start_panes(self.profile());
        }
    }

    /// What the pane on screen reads.
    pub fn cx(&self) -> Ctx<'_> {
        if let Some(c) = self.compared.as_deref().filter(|_| self.base_drawn()) {
            return base_cx(c, (self.size, self.flame));
        }
        // The history is empty only while a tab is being switched or made.
        self.cx_of(self.history.last().map_or(Reads::Paths, Pane::reads))
    }

    /// What a pane reads: the profile of the answer `reads` names, and the
    /// answer itself.
    fn cx_of(&self, reads: Reads) -> Ctx<'_> {
        let at = (self.opening.as_ref(), self.size, self.flame);
        cx_of(&self.query, reads, at)
    }

    /// The pane on screen, to change, and what it reads.
    fn split(&mut self) -> (&mut Pane, Ctx<'_>) {
        let (history, cx, _) = self.parts_mut();
        // The history is never empty: `new` pushes the first pane and
        // nothing pops the last one.
        let last = history.len() - 1;
        (&mut history[last], cx)
    }

    /// The history, what panes read (`cx`), and the mode, borrowed apart.
    fn parts_mut(&mut self) -> (&mut Vec<Pane>, Ctx<'_>, &mut Mode) {
        let reads = self.history.last().map_or(Reads::Paths, Pane::reads);
        let base = self.base_drawn();
        let at = (self.opening.as_ref(), self.size, self.flame);
        let cx = match self.compared.as_deref() {
            Some(c) if base => base_cx(c, (self.size, self.flame)),
            _ => cx_of(&self.query, reads, at),
        };
        (&mut self.history, cx, &mut self.mode)
    }

    /// Where the keyboard's keys come from (keymap.rs), most particular
    /// first: while an export runs, Esc cancels it in any pane.
    pub fn places(&self) -> Vec<Place> {
        let mut places = Vec::with_capacity(5);
        if self.export_job.is_some() {
            places.push(Place::Exporting);
        }
        places.extend_from_slice(self.pane().places());
        places.push(Place::Query);
        places
    }

    /// The pane on screen.
    pub fn pane(&self) -> &Pane {
        &self.history[self.history.len() - 1]
    }

    /// The tab the pane on screen belongs to.
    pub fn tab(&self) -> View {
        self.pane().tab()
    }

    /// Where the header, the pane, its split and the footer fall on screen.
    pub fn areas(&self) -> Areas {
        layout::areas(self.size, self.pane().split())
    }

    /// Whether the first view's order is still being made on a thread.
    pub fn opening(&self) -> bool {
        self.opening.is_some()
    }

    /// Puts the first view's whole order in place of its first rows,
    /// waiting for its thread; with `only_if_done`, only when the thread
    /// is done. Every intent but the event loop's poll waits, so no key
    /// ever reads the first rows alone.
    fn settle(&mut self, only_if_done: bool) {
        if only_if_done && !self.opening.as_ref().is_some_and(Opening::is_finished) {
            return;
        }
        let Some(o) = self.opening.take() else {
            return;
        };
        let rows = o.join();
        // No intent ran before this one, so the first view is the only one.
        if let (Pane::Table(t), cx) = self.split() {
            t.settle(rows, &cx);
        }
    }

    /// The Flame tab's sandwich, whether it is shown or saved: the other
    /// panes say when it is in effect there.
    pub fn flame_filters(&self) -> Option<FuncId> {
        let saved = self.saved[pane::tab_index(View::Flame)].iter().flatten();
        self.history
            .iter()
            .rev()
            .chain(saved.rev())
            .find(|p| p.as_flame().is_some())
            .and_then(Pane::sandwich)
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

    /// Takes one intent: to the open overlay if there is one, else to the
    /// pane on screen, then keeps the selection on screen.
    pub fn update(&mut self, intent: Intent) {
        if self.opening.is_some() {
            self.settle(intent == Intent::Tick);
        }
        if self.export_job.is_some() && self.export_intent(&intent) {
            return;
        }
        if self.query_job.is_some() && self.query_intent(&intent) {
            return;
        }
        if self.compare_job.is_some() && self.compare_intent(&intent) {
            return;
        }
        if !matches!(intent, Intent::Resize { .. } | Intent::Tick) {
            // A message too long for the status line is shown whole in a
            // box, which the next key closes. After an export's result
            // that key does nothing else, so a file written is never gone
            // unread; after any other message it acts as well.
            let boxed = self.status_boxed() && self.notice;
            self.status = None;
            self.notice = false;
            if boxed {
                return;
            }
        }
        if let Intent::Resize { width, height } = intent {
            self.size = Rect::new(0, 0, width, height);
        }
        match &self.mode {
            Mode::Finder(_) => self.finder(intent),
            Mode::Help(_) => self.help(intent),
            Mode::Search => self.search(intent),
            Mode::Menu(_) => self.menu(intent),
            Mode::Threads(_) => self.threads(intent),
            Mode::Normal => self.normal(intent),
        }
        // Whatever changed (the window, the step on screen), the cursor
        // stays on a row and its row on screen.
        let (pane, cx) = self.split();
        pane.keep_visible(&cx);
    }

    /// An intent for the pane on screen, and what it leaves for the app.
    fn normal(&mut self, intent: Intent) {
        let (pane, cx) = self.split();
        match pane.update(&intent, &cx) {
            Effect::Done => {}
            Effect::Say(msg) => self.status = Some(msg),
            Effect::Open(step) => self.open(step),
            Effect::Back => self.back(),
            Effect::Look(look, msg) => {
                self.flame = look;
                self.status = Some(msg);
            }
            Effect::AskRange(from, until) => self.ask_range(from, until),
            Effect::BackOutRange => self.back_out_range(),
            Effect::Ignored => self.global(intent),
        }
    }

    fn global(&mut self, intent: Intent) {
        if self.base_drawn() && self.on_news_function(&intent) {
            return;
        }
        let n = TABS.len();
        let at = pane::tab_index(self.tab());
        match intent {
            Intent::Quit => self.quit = true,
            Intent::Help => self.mode = Mode::Help(self.help_at()),
            Intent::NextPane => self.switch_tab(TABS[(at + 1) % n]),
            Intent::PrevPane => self.switch_tab(TABS[(at + n - 1) % n]),
            Intent::GoPane(i) if i < n => self.switch_tab(TABS[i]),
            Intent::Back | Intent::Cancel => self.back(),
            Intent::Forward => self.forward(),
            Intent::Search => self.open_search(),
            Intent::Find => self.mode = Mode::Finder(Finder::new(&self.cx())),
            Intent::ShowInTree => self.open_function(
                |app, f| app.open(Step::Tree(f)),
                (Intent::ShowInTree, "shows a function in the Call tree"),
                "call tree",
            ),
            Intent::Sandwich => self.open_function(
                App::open_sandwich,
                (Intent::Sandwich, "shows a function's sandwich"),
                "sandwich",
            ),
            // A pane with nothing to zoom (the Flame pane without call
            // paths): Esc goes back as it does elsewhere.
            Intent::ZoomOut => self.back(),
            Intent::Zoom => self.status = self.cx().no_call_paths("flame graph"),
            Intent::Export => self.export_pane(),
            Intent::Copy => self.copy(),
            Intent::CopyCommand => self.copy_command(),
            Intent::Click { x, y } => self.click_tab(x, y),
            Intent::Explain(why) => self.status = Some(why.into()),
            Intent::Transform(op) => self.transform(op),
            Intent::PopStep => self.pop_step(),
            Intent::ClearQuery => self.clear_query(),
            Intent::Transforms => self.mode = Mode::Menu(Menu::default()),
            Intent::Threads => self.open_threads(),
            Intent::BaseWidths => self.base_widths(),
            Intent::OpenSource => self.open_source(),
            Intent::Follow => self.toggle_follow(),
            _ => {}
        }
    }

    /// `t`, `T` or `f`: the selected function in another pane, where the
    /// profile has call paths.
    /// `unselected`: the key's intent and what it does, said (with the key
    /// the keymap gives it) when nothing is selected.
    fn open_function(
        &mut self,
        open: fn(&mut App, FuncId),
        unselected: (Intent, &str),
        what: &str,
    ) {
        let cx = self.cx();
        let f = self.pane().function(&cx);
        let why = cx.no_call_paths(what);
        match (why, f, self.pane().removed(&cx)) {
            (Some(why), _, _) => self.status = Some(why),
            (None, None, Some(r)) => self.status = Some(pane::removed_words(&r)),
            (None, None, None) => {
                let key = super::keymap::key_in(&unselected.0, &self.places());
                self.status = Some(format!("{key} {}: select one", unselected.1));
            }
            (None, Some(f), _) => open(self, f),
        }
    }

    /// Opens a step of the history: its pane reads the profile of the
    /// answer its tab reads (a pane's functions are always the paths'
    /// profile's: the Trace pane's cross by the answer's mapping).
    fn open(&mut self, step: Step) {
        let pane = Pane::step(step, &self.cx_of(Reads::of_view(step.tab())));
        let pane = self.against(pane);
        self.history.push(pane);
        self.forward.clear();
    }

    /// The Flame tab at its root (its hidden functions kept), on `f`'s
    /// sandwich.
    fn open_sandwich(&mut self, f: FuncId) {
        self.switch_tab(View::Flame);
        self.history.truncate(1);
        let (pane, cx) = self.split();
        if let Some(flame) = pane.as_flame_mut()
            && let Effect::Say(msg) = flame.sandwich(Some(f), &cx)
        {
            self.status = Some(msg);
        }
    }

    fn switch_tab(&mut self, tab: View) {
        if self.history.len() == 1 && self.tab() == tab {
            return;
        }
        self.forward.clear();
        let mut trail = std::mem::take(&mut self.history);
        let slot = pane::tab_index(trail[0].tab());
        if self.flame_base && slot != pane::tab_index(tab) {
            // BASE's widths are the Flame pane's on screen only: every
            // other pane, and the flame graph come back to, is NEW's.
            self.flame_base = false;
            trail.clear();
        }
        if trail.is_empty() {
            self.history = match self.saved[pane::tab_index(tab)].take() {
                Some(t) => t,
                None => vec![self.root_pane(tab)],
            };
        } else if slot == pane::tab_index(tab) {
            // The tab of the trail's root: back to the root.
            trail.truncate(1);
            self.history = trail;
        } else {
            self.saved[slot] = Some(trail);
            self.history = match self.saved[pane::tab_index(tab)].take() {
                Some(t) => t,
                None => vec![self.root_pane(tab)],
            };
        }
        self.split().0.to_rows();
    }

    fn back(&mut self) {
        if self.history.len() > 1 {
            self.forward.extend(self.history.pop());
        } else if self.pane().search().is_some_and(|s| !s.text.is_empty()) {
            self.set_search(String::new());
        } else {
            self.status = Some("at the start: nothing to go back to".into());
        }
    }

    /// `]`: the step last gone back from.
    fn forward(&mut self) {
        match self.forward.pop() {
            Some(v) => self.history.push(v),
            None => {
                let (fwd, back) = (
                    super::keymap::key_for(&Intent::Forward, Place::Everywhere),
                    super::keymap::key_for(&Intent::Back, Place::Everywhere),
                );
                self.status = Some(format!("nothing to go forward to ({fwd} undoes {back})"));
            }
        }
    }

    fn click_tab(&mut self, x: u16, y: u16) {
        let crumbs = self.areas().crumbs;
        if !crumbs.contains(Position::new(x, y)) {
            return;
        }
        let tab = layout::tab_positions(crumbs)
            .into_iter()
            .find(|&(_, tx, w)| x >= tx && x < tx + w);
        if let Some((tab, _, _)) = tab {
            self.switch_tab(tab);
        }
    }

    /// Where `?` opens the help: at the keys of the pane on screen (its
    /// most particular place the help lists), else at its top.
    fn help_at(&self) -> usize {
        let width = super::help::box_width(self.size.width);
        let at = self
            .pane()
            .places()
            .iter()
            .filter(|&&p| p != Place::Everywhere)
            .find_map(|&p| super::help::section_line(p, width))
            .unwrap_or(0);
        at.min(super::help::max_scroll(self.size))
    }

    fn help(&mut self, intent: Intent) {
        let max = super::help::max_scroll(self.size);
        let Mode::Help(scroll) = &mut self.mode else {
            return;
        };
        *scroll = (*scroll).min(max);
        match intent {
            Intent::Move(n) => *scroll = scroll.saturating_add_signed(n).min(max),
            Intent::PageDown => *scroll = (*scroll + 10).min(max),
            Intent::PageUp => *scroll = scroll.saturating_sub(10),
            Intent::First => *scroll = 0,
            Intent::Last => *scroll = max,
            Intent::Quit => self.quit = true,
            Intent::Cancel | Intent::Help | Intent::Back | Intent::Click { .. } => {
                self.mode = Mode::Normal
            }
            _ => {}
        }
    }

    fn finder(&mut self, intent: Intent) {
        let (_, cx, mode) = self.parts_mut();
        let Mode::Finder(finder) = mode else {
            return;
        };
        match finder.update(&intent, &cx) {
            super::finder::Done::Open(f) => {
                self.mode = Mode::Normal;
                self.open(Step::Function(f));
            }
            super::finder::Done::Close => self.mode = Mode::Normal,
            super::finder::Done::Quit => self.quit = true,
            super::finder::Done::No => {}
        }
    }

    /// The footer's hints for where the keyboard is, those that work
    /// there, as many as the footer's line holds.
    pub fn hints(&self) -> Vec<(&'static str, &'static str)> {
        use super::keymap::hints;
        let mut places: Vec<Place> = match self.mode {
            Mode::Help(_) => vec![Place::Help],
            Mode::Menu(_) => vec![Place::Menu],
            Mode::Threads(_) => vec![Place::Threads],
            Mode::Finder(_) | Mode::Search => vec![Place::Prompt],
            Mode::Normal if self.pane().in_lists() => vec![Place::Lists],
            Mode::Normal => self.pane().places().to_vec(),
        };
        let normal = self.mode == Mode::Normal;
        if normal {
            places.insert(0, Place::Query);
        }
        let searching = self.pane().search().is_some_and(|s| s.query.is_some());
        let queried = !self.query.is_whole();
        let flags = (searching, self.history.len() > 1, queried);
        let works = |i: &Intent| !normal || self.offers(i);
        hints(&places, flags, &works, usize::from(self.size.width))
    }

    /// Whether `intent` does something in the pane on screen, rather than
    /// only say "no …": the footer offers no key that cannot act here
    /// (`⏎ stacks` on a profile without stacks, `t time` where no calls
    /// are kept in time order, a table's keys on a table of no rows).
    fn offers(&self, intent: &Intent) -> bool {
        use Intent::*;
        if matches!(intent, Transforms | Find | Help | Quit | Back | PopStep) {
            return true;
        }
        let cx = self.cx();
        let p = cx.profile;
        let paths = !p.nodes().is_empty();
        let pane = self.pane();
        match (pane, intent) {
            (_, ShowInTree | Sandwich) => paths,
            (Pane::Table(t), _) if t.total == 0 => false,
            (Pane::Table(_), _) if pane.in_lists() => true,
            (Pane::Table(t), Open) => match t.table {
                Table::Functions => !p.stacks().is_empty(),
                Table::Modules | Table::Stacks | Table::Threads => true,
                Table::Packets if !t.is_events() => true,
                // A line's or an event's function, or the step that
                // removed it (which the key names).
                _ => pane.function(&cx).is_some() || pane.removed(&cx).is_some(),
            },
            (Pane::Table(_), ShowLines) => !p.lines().is_empty(),
            (Pane::Source(s), Open) => s.function.is_some(),
            (Pane::Compare(c), CallersCallees) => c.pairs().is_none(),
            (Pane::Flame(f), _) if f.in_chart() => true,
            (Pane::Tree(_) | Pane::Flame(_), _) if !paths => false,
            (Pane::Flame(_), TimeOrder) => {
                let events = self.query.answer().profile(Reads::TIME_ORDER);
                events.timeline().is_some()
            }
            _ => true,
        }
    }
}

/// What a pane reading `reads` of `q`'s answer reads, with the app's
/// state every pane reads: the first view's order, the window's size, the
/// flame graph's look.
fn cx_of<'a>(
    q: &'a Queried,
    reads: Reads,
    (opening, size, flame): (Option<&'a Opening>, Rect, pane::flame::Look),
) -> Ctx<'a> {
    Ctx {
        profile: q.answer().profile(reads),
        prepared: q.prepared(reads),
        answer: q.answer(),
        // The first view's order on a thread is the loaded profile's.
        opening: opening.filter(|_| reads == Reads::Paths),
        size,
        flame,
    }
}
