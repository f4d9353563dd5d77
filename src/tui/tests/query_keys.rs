//! Every key of every pane after every kind of query step (issue 62): on
//! the demo and on two-thread Xbase++ traces, each transform the profile
//! can take (and a thread choice, alone and followed by steps) is applied
//! with its key, then in every pane (the seven tabs and the panes reached
//! from them: a packet's events row by row, callers and callees, a stack's
//! frames, the inverted tree, a sandwich and its callers, the time order)
//! every key the keymap binds there is pressed, each on the app as the
//! route left it. Nothing may panic (drawing included, and no query or
//! export thread may stop), and a key that acts on a function acts on the
//! one the row shows: its name and module, read from the profile the pane
//! draws (an event's from the events' profile), never through the
//! answer's mapping, are those of the sandwich, the tree, the lines or
//! stacks opened, the clipboard, the step pushed or the menu's entry. On a
//! row whose function the query removed, such a key says which step did
//! and changes nothing.

use super::Press::{self, *};
use super::{app_of, demo_profile, fixture_timed, pane_key};
use crate::analysis::query::Step;
use crate::analysis::view::{Table, View};
use crate::model::{FuncId, Profile};
use crate::tui::app::{App, Mode};
use crate::tui::intent::{Intent, Op};
use crate::tui::keymap::{Key, SECTIONS, lookup};
use crate::tui::pane::{Focus, Pane, Within};
use ratatui::crossterm::event::KeyCode;
use std::path::Path;

/// A profile the keys are pressed on.
struct Subject {
    name: &'static str,
    load: fn() -> Profile,
    /// The kinds of step it must take (it may take more).
    takes: &'static [Kind],
}

const DEMO: Subject = Subject {
    name: "orders.prof",
    load: demo_profile,
    takes: &Kind::ALL,
};

fn orders_run() -> Profile {
    fixture_timed("xpp/orders-run.prf")
}

fn two_threads() -> Profile {
    fixture_timed("xpp/two-threads.prf")
}

const ORDERS_RUN: Subject = Subject {
    name: "orders-run.prf",
    load: orders_run,
    takes: &[
        Kind::Merge,
        Kind::MergeNode,
        Kind::Focus,
        Kind::FocusNode,
        Kind::Drop,
        Kind::CollapseSubtree,
    ],
};

const TWO_THREADS: Subject = Subject {
    name: "two-threads.prf",
    load: two_threads,
    takes: &[
        Kind::Merge,
        Kind::MergeNode,
        Kind::Focus,
        Kind::FocusNode,
        Kind::Drop,
        Kind::CollapseSubtree,
    ],
};

/// A kind of query step, as a key asks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Merge,
    MergeNode,
    Focus,
    FocusNode,
    Drop,
    CollapseRecursion,
    CollapseDirectRecursion,
    CollapseModule,
    CollapseSubtree,
}

impl Kind {
    const ALL: [Kind; 9] = [
        Kind::Merge,
        Kind::MergeNode,
        Kind::Focus,
        Kind::FocusNode,
        Kind::Drop,
        Kind::CollapseRecursion,
        Kind::CollapseDirectRecursion,
        Kind::CollapseModule,
        Kind::CollapseSubtree,
    ];

    fn key(self) -> Press {
        match self {
            Kind::Merge => Char('m'),
            Kind::MergeNode => Char('M'),
            Kind::Focus => Char('F'),
            Kind::FocusNode => Char('>'),
            Kind::Drop => Char('d'),
            Kind::CollapseRecursion => Char('R'),
            Kind::CollapseDirectRecursion => Ctrl('r'),
            Kind::CollapseModule => Char('C'),
            Kind::CollapseSubtree => Char('z'),
        }
    }

    fn on_node(self) -> bool {
        matches!(self, Kind::MergeNode | Kind::FocusNode)
    }

    /// The step's `--json` op.
    fn op(self) -> &'static str {
        match self {
            Kind::Merge => "merge",
            Kind::MergeNode => "merge_path",
            Kind::Focus => "focus",
            Kind::FocusNode => "focus_path",
            Kind::Drop => "drop",
            Kind::CollapseRecursion => "collapse_recursion",
            Kind::CollapseDirectRecursion => "collapse_direct_recursion",
            Kind::CollapseModule => "collapse_module",
            Kind::CollapseSubtree => "collapse_subtree",
        }
    }
}

fn build(s: &Subject, keys: &[Press], dir: &Path) -> App {
    let mut app = app_of((s.load)(), s.name, 120, 40);
    app.export_base = dir.join(s.name);
    for k in keys {
        app.press(k.clone());
    }
    app
}

fn steps(app: &App) -> usize {
    app.query.steps().count()
}

/// The keys that apply a step of `kind` after `prefix`: its key on the
/// first row that takes it (a Functions row, or a Call tree row with the
/// first root opened), found by pressing it row after row.
fn find_step(s: &Subject, prefix: &[Press], kind: Kind, dir: &Path) -> Option<Vec<Press>> {
    let mut app = build(s, prefix, dir);
    let n = steps(&app);
    let to_rows = match kind.on_node() {
        true => vec![pane_key(3), Home, Char('*')],
        false => vec![pane_key(0), Home],
    };
    for k in &to_rows {
        app.press(k.clone());
    }
    let rows = match app.pane() {
        Pane::Tree(t) => t.tree.rows.len(),
        Pane::Table(t) => t.rows.len(),
        _ => 0,
    };
    for i in 0..rows {
        let mut keys: Vec<Press> = prefix.iter().cloned().chain(to_rows.clone()).collect();
        keys.extend(std::iter::repeat_n(Down, i));
        app = build(s, &keys, dir);
        app.press(kind.key());
        if steps(&app) > n {
            let last = app.query.steps().last().expect("a step").op();
            assert_eq!(last, kind.op(), "{}: {:?} pushed {last}", s.name, kind);
            keys.push(kind.key());
            return Some(keys);
        }
    }
    None
}

/// The query's states the keys are pressed after: the whole profile, each
/// kind of step the profile takes, two steps stacked, and on a trace a
/// thread choice, alone and followed by steps, and a step then a thread
/// choice.
fn cases(s: &Subject, dir: &Path) -> Vec<(String, Vec<Press>)> {
    let mut out = vec![("whole profile".to_string(), Vec::new())];
    let mut took = Vec::new();
    for kind in Kind::ALL {
        if let Some(keys) = find_step(s, &[], kind, dir) {
            took.push(kind);
            out.push((format!("{kind:?}"), keys));
        }
    }
    for kind in s.takes {
        assert!(took.contains(kind), "{} takes {kind:?}", s.name);
    }
    let merge = find_step(s, &[], Kind::Merge, dir).expect("a merge");
    if let Some(then) = find_step(s, &merge, Kind::Focus, dir) {
        out.push(("merge, focus".into(), then));
    }
    if !build(s, &[], dir).query.has_threads() {
        return out;
    }
    // The thread under the threads list's cursor, then steps after it.
    let first = vec![Char('H'), Enter];
    let second = vec![Char('H'), Down, Enter];
    for pick in [&first, &second] {
        let app = build(s, pick, dir);
        assert!(
            app.query.threads().is_some(),
            "{}: a thread chosen: {:?}",
            s.name,
            app.status
        );
    }
    out.push(("a thread".into(), first.clone()));
    for (pick, kind) in [(&first, Kind::Merge), (&second, Kind::FocusNode)] {
        let keys = find_step(s, pick, kind, dir).expect("the thread takes the step");
        out.push((format!("a thread, {kind:?}"), keys));
    }
    let mut rethreaded = merge.clone();
    rethreaded.extend(second);
    out.push(("merge, then a thread".into(), rethreaded));
    out
}

/// The routes to the panes from where a case left the app: each tab, a
/// second row, the split's lists, a function's lines, stacks and places
/// in the tree, a stack's frames, the tree turned over, a sandwich and its
/// callers, the time order, and a packet's events at the first event of
/// each of their functions (paged to: a packet holds thousands).
fn routes(app: &mut App) -> Vec<Vec<Press>> {
    let mut out: Vec<Vec<Press>> = vec![Vec::new()];
    out.extend((0..7).map(|i| vec![pane_key(i)]));
    let more: [&[Press]; 20] = [
        &[pane_key(0), Down],
        &[pane_key(0), End],
        &[pane_key(0), Char('c')],
        &[pane_key(0), Char('c'), Char('c')],
        &[pane_key(0), Char('l')],
        &[pane_key(0), Enter],
        &[pane_key(0), Char('t')],
        &[pane_key(1), Down],
        &[pane_key(2), Down],
        &[pane_key(2), Enter],
        &[pane_key(3), Down],
        &[pane_key(3), Char('*'), End],
        &[pane_key(3), Char('i'), Down],
        &[pane_key(4), Down],
        &[pane_key(4), Down, Char('f')],
        &[pane_key(4), Down, Char('f'), Up],
        &[pane_key(4), Char('t')],
        &[pane_key(4), Char('t'), Down],
        &[pane_key(4), Char('t'), Right, Right],
        &[pane_key(4), Char('t'), Down, Char('f')],
    ];
    out.extend(more.iter().map(|r| r.to_vec()));
    let events = std::sync::Arc::clone(app.query.answer().events());
    for (k, packet) in events.packets().iter().enumerate().take(3) {
        let mut to = vec![pane_key(5), Home];
        to.extend(std::iter::repeat_n(Down, k));
        to.push(Enter);
        for p in &to {
            app.press(p.clone());
        }
        let page = match app.pane().as_table() {
            Some(t) if t.is_events() => app.page(),
            _ => continue,
        };
        let mut seen = Vec::new();
        for i in 0..packet.events.len() {
            let f = packet.events.function(i);
            if seen.contains(&f) {
                continue;
            }
            seen.push(f);
            let mut r = to.clone();
            r.extend(std::iter::repeat_n(PageDown, i / page));
            r.extend(std::iter::repeat_n(Down, i % page));
            out.push(r);
        }
    }
    out
}

/// The keys the keymap binds where the app is (its places, the query's
/// keys included), one for each intent they ask there (the app takes
/// intents: `k` and `↑` are one).
fn bound_keys(app: &App) -> Vec<(Key, Intent)> {
    let places = app.places();
    let mut keys: Vec<(Key, Intent)> = Vec::new();
    for s in SECTIONS.iter().filter(|s| places.contains(&s.place)) {
        for b in s.bindings {
            for &k in b.keys {
                let Some(intent) = lookup(&places, k) else {
                    continue;
                };
                if !keys.iter().any(|(_, i)| *i == intent) {
                    keys.push((k, intent));
                }
            }
        }
    }
    keys
}

fn press_of(k: Key) -> Press {
    match (k.code, k.ctrl) {
        (KeyCode::Char(c), true) => Ctrl(c),
        (KeyCode::Char(c), false) => Char(c),
        (KeyCode::Up, _) => Up,
        (KeyCode::Down, _) => Down,
        (KeyCode::Left, _) => Left,
        (KeyCode::Right, _) => Right,
        (KeyCode::Enter, _) => Enter,
        (KeyCode::Backspace, _) => Backspace,
        (KeyCode::Esc, _) => Esc,
        (KeyCode::Home, _) => Home,
        (KeyCode::End, _) => End,
        (KeyCode::PageUp, _) => PageUp,
        (KeyCode::PageDown, _) => PageDown,
        (KeyCode::Tab, _) => TabKey,
        (KeyCode::BackTab, _) => BackTab,
        (code, _) => panic!("no press for {code:?}"),
    }
}

/// A function as a row shows it: name and module.
type Named = (String, String);

fn named(p: &Profile, f: FuncId) -> Named {
    (
        p.function_name(f).to_string(),
        p.function_module(f).to_string(),
    )
}

/// The function the row (or frame, or call) on screen shows, read from
/// the profile the pane draws: an event's and a time order call's from
/// the answer's events' profile, by their own ids, never mapped.
fn shown(app: &App) -> Option<Named> {
    let cx = app.cx();
    let p = cx.profile.as_ref();
    let f = match app.pane() {
        Pane::Table(t) => match (t.focus, t.within, t.table) {
            (Focus::Table, Within::Packet(k), _) => {
                let row = t.selected()? as usize;
                let f = p.packet(k).events.function(row)?;
                return Some(named(p, f));
            }
            (Focus::Table, _, Table::Functions) => FuncId::from_index(t.selected()? as usize),
            (Focus::Table, _, Table::Lines) => {
                p.line(crate::model::LineId::from_index(t.selected()? as usize))
                    .function?
            }
            (Focus::Table, _, Table::Stacks) => *t.frames(&cx).last()?,
            (Focus::Table, _, Table::Packets | Table::Threads | Table::Modules) => return None,
            (Focus::Callers(i), ..) => t.callers(&cx).get(i)?.func()?,
            (Focus::Callees(i), ..) => t.callees(&cx).get(i)?.func()?,
            (Focus::Frames(i), ..) => *t.frames(&cx).get(i)?,
            (Focus::Durations, ..) => FuncId::from_index(t.selected()? as usize),
        },
        Pane::Tree(t) => t.tree.func(p, t.tree.rows.get(t.cursor)?.id)?,
        Pane::Flame(fl) if fl.in_chart() => {
            let g = fl.chart.function()?;
            return Some(named(app.query.answer().events(), g));
        }
        Pane::Flame(fl) => match fl.caller_selected() {
            Some((callers, n)) => callers.func(n).func()?,
            None => fl.tree.func(fl.selected_in(&fl.layout(&cx))?).func()?,
        },
        Pane::Timeline(t) => {
            let g = t.under_cursor(&cx)?.func?;
            return Some(named(app.query.answer().events(), g));
        }
        Pane::Compare(c) => c.function(&cx)?,
        Pane::Source(s) => s.function?,
        Pane::Info(_) => return None,
    };
    Some(named(p, f))
}

/// Whether the paths' profile (what every function key acts in) has the
/// function.
fn kept(app: &App, n: &Named) -> bool {
    let p = app.profile();
    p.function_ids().any(|g| named(p, g) == *n)
}

/// Whether a step's operand names the function: its name, or
/// `MODULE!NAME` where two modules share the name.
fn spells(operand: &str, n: &Named) -> bool {
    operand == n.0 || operand == format!("{}!{}", n.1, n.0)
}

/// Where the app is, as a key that changes nothing leaves it.
fn place(app: &App) -> String {
    format!(
        "{:?} | {:?} | {:?} | {:?} | {}",
        app.history,
        app.mode,
        app.query.crumbs(),
        app.query.left_out(),
        app.quit
    )
}

/// What a screen is made of, for drawing each once: the query, the
/// overlay, each pane of the trail as the breadcrumbs name it and what it
/// shows (a table's rows and split, the tree's side, the flame's sandwich,
/// side, zoom and drawing), not the cursor or the order.
fn screen(app: &App) -> String {
    let panes: Vec<String> = app
        .history
        .iter()
        .map(|pane| match pane {
            Pane::Table(t) => format!(
                "{:?} {:?} {:?} {}",
                t.table,
                t.within,
                std::mem::discriminant(&t.focus),
                t.search.text
            ),
            Pane::Tree(t) => format!(
                "tree {:?} {:?} {}",
                t.about, t.tree.direction, t.search.text
            ),
            Pane::Flame(f) => format!(
                "flame {:?} {:?} {:?} {} {}",
                f.sandwich,
                f.side,
                f.mode,
                f.zoom.len(),
                f.search.text
            ),
            Pane::Info(_) => "info".into(),
            Pane::Source(s) => format!("source {}", s.file.path),
            Pane::Timeline(t) => format!("timeline {:?} {:?}", t.window, t.marks),
            Pane::Compare(c) => format!("compare {:?} {}", c.shown, c.sort),
        })
        .collect();
    format!(
        "{:?} | {:?} | {:?} | {:?}",
        std::mem::discriminant(&app.mode),
        app.query.crumbs(),
        app.query.left_out(),
        panes,
    )
}

/// The function a drill-down opened is about: a Stacks' or Lines' table
/// of one function, the Functions table on one, the tree at one's places.
fn about(app: &App) -> Option<FuncId> {
    match app.pane() {
        Pane::Table(t) => match (t.table, t.within) {
            (_, Within::Function(f)) => Some(f),
            (Table::Functions, Within::All) => app.selected_function(),
            _ => None,
        },
        Pane::Tree(t) => t.about,
        _ => None,
    }
}

fn sandwich(app: &App) -> Option<FuncId> {
    app.pane().as_flame().and_then(|f| f.sandwich)
}

fn draw(app: &App) {
    let backend = ratatui::backend::TestBackend::new(app.size.width, app.size.height);
    let mut t = ratatui::Terminal::new(backend).expect("a test terminal");
    t.draw(|f| crate::tui::render::draw(f, app)).expect("draws");
}

/// What the app was before a key.
struct Before {
    place: String,
    shown: Option<Named>,
    kept: bool,
    steps: usize,
    history: usize,
    sandwich: Option<FuncId>,
    chart: bool,
    what: String,
}

/// How many times each check compared something: a sweep that compared
/// nothing would pass whatever the app did.
#[derive(Debug, Default)]
struct Tally {
    keys: usize,
    /// A function acted on compared with the row's.
    same_function: usize,
    /// A key on a row whose function the query removed.
    removed: usize,
    /// An event export's rows compared with the events shown.
    events_exported: usize,
}

/// One subject's sweep: where its files go, what was drawn already (a
/// screen is drawn once for each place and each message), and the tally.
struct Sweep<'a> {
    s: &'a Subject,
    dir: tempfile::TempDir,
    drawn: std::collections::HashSet<String>,
    tally: Tally,
}

impl Sweep<'_> {
    fn build(&self, keys: &[Press]) -> App {
        build(self.s, keys, self.dir.path())
    }

    fn draw(&mut self, app: &App) {
        let boxed = app.status.clone().filter(|_| app.status_boxed());
        let new_place = self.drawn.insert(screen(app));
        if boxed.is_some_and(|b| self.drawn.insert(b)) || new_place {
            draw(app);
        }
    }

    /// Presses `key` (asking `intent` there) and checks what it did (see
    /// the module's doc).
    fn press(&mut self, app: &mut App, (key, intent): (Key, Intent), what: &str) {
        let shown = shown(app);
        let before = Before {
            place: place(app),
            kept: shown.as_ref().is_some_and(|n| kept(app, n)),
            shown,
            steps: steps(app),
            history: app.history.len(),
            sandwich: sandwich(app),
            chart: app.pane().as_flame().is_some_and(|f| f.in_chart()),
            what: format!("{what}, key {key:?} ({intent:?})"),
        };
        app.clipboard = None;
        app.press(press_of(key));
        self.tally.keys += 1;
        self.draw(app);
        let said = app.status.clone().unwrap_or_default();
        assert!(
            !said.contains("thread stopped"),
            "{}: a thread panicked: {said}",
            before.what
        );
        check(app, &before, &intent, &said, &mut self.tally);
    }

    /// Back where a key found the app, by the cheapest way that gives the
    /// very place (each checked): the quit flag down, an overlay closed,
    /// the key's inverse, back out of a drill-down, the tab again, the
    /// query undone or cleared and the route taken again; else a fresh
    /// app.
    fn restore(&self, app: &mut App, intent: &Intent, at: &Spot) {
        let there = |app: &App| app.mode == Mode::Normal && place(app) == at.place;
        app.quit = false;
        if app.mode != Mode::Normal {
            app.press(Do(Intent::Cancel));
        }
        if there(app) {
            return;
        }
        if let Some(back) = inverse(intent) {
            app.press(Do(back));
            if there(app) {
                return;
            }
        }
        for _ in 0..8 {
            if app.tab() != at.tab || app.history.len() <= at.history {
                break;
            }
            app.press(Do(Intent::Back));
        }
        if there(app) {
            return;
        }
        app.press(Do(Intent::GoPane(crate::tui::pane::tab_index(at.tab))));
        if there(app) {
            return;
        }
        let replay: Vec<Press> = match app.query.crumbs() == at.crumbs {
            // The route's tab at its root, then the route.
            true => at
                .route
                .first()
                .into_iter()
                .chain(&at.route)
                .cloned()
                .collect(),
            false => {
                app.press(Do(Intent::ClearQuery));
                at.to.clone()
            }
        };
        for p in replay {
            app.press(p);
        }
        if !there(app) {
            *app = self.build(&at.to);
        }
    }
}

/// Where a route left the app: the keys there, and what the place is.
struct Spot {
    to: Vec<Press>,
    route: Vec<Press>,
    place: String,
    crumbs: Vec<String>,
    tab: crate::analysis::view::View,
    history: usize,
}

/// The intent that undoes `i` where nothing stops it (an edge, a column
/// with no values).
fn inverse(i: &Intent) -> Option<Intent> {
    Some(match i {
        Intent::Move(n) => Intent::Move(-n),
        Intent::Beside(n) => Intent::Beside(-n),
        Intent::Columns(n) => Intent::Columns(-n),
        Intent::SortNext => Intent::SortPrev,
        Intent::SortPrev => Intent::SortNext,
        Intent::PageDown => Intent::PageUp,
        Intent::PageUp => Intent::PageDown,
        Intent::Reverse | Intent::Invert | Intent::TimeOrder => i.clone(),
        Intent::OpenRow => Intent::CloseRow,
        Intent::Zoom => Intent::ZoomOut,
        Intent::Transform(_) => Intent::PopStep,
        _ => return None,
    })
}

/// Whether an intent acts on the selected function.
fn acts_on_function(intent: &Intent) -> bool {
    matches!(
        intent,
        Intent::Sandwich
            | Intent::ShowInTree
            | Intent::ShowLines
            | Intent::Transform(_)
            | Intent::Transforms
            | Intent::Copy
    ) && *intent != Intent::Transform(Op::Range)
        || *intent == Intent::Open
}

fn check(app: &App, b: &Before, intent: &Intent, said: &str, tally: &mut Tally) {
    let what = &b.what;
    let p = app.profile();
    let name_of = |f: FuncId| named(p, f);
    if let (Some(n), false) = (&b.shown, b.kept)
        && acts_on_function(intent)
        && !matches!(intent, Intent::Copy | Intent::Transforms)
        && !matches!(intent, Intent::Transform(op) if op.on_node())
    {
        // A row whose function the query removed: the key says which
        // step did, and changes nothing.
        assert!(
            said.contains(&format!("{}: ", n.0))
                && said.contains(" by step ")
                && said.contains(" undoes it"),
            "{what}: {n:?} was removed by the query; said {said:?}"
        );
        assert_eq!(place(app), b.place, "{what}: changes nothing");
        tally.removed += 1;
        return;
    }
    match intent {
        Intent::Quit => assert!(app.quit, "{what}"),
        Intent::Sandwich => {
            if b.sandwich.is_some() && !b.chart {
                assert_eq!(sandwich(app), None, "{what}: f again leaves the sandwich");
            } else if let Some(n) = &b.shown {
                match sandwich(app) {
                    Some(g) => {
                        assert_eq!(&name_of(g), n, "{what}: the row's sandwich");
                        tally.same_function += 1;
                    }
                    None => assert!(!said.is_empty(), "{what}: no sandwich, and no word why"),
                }
            }
        }
        Intent::ShowInTree => {
            if let Some(n) = &b.shown {
                match app.pane().as_tree().and_then(|t| t.about) {
                    Some(g) => {
                        assert_eq!(&name_of(g), n, "{what}: the row's places");
                        tally.same_function += 1;
                    }
                    None => assert!(!said.is_empty(), "{what}: no tree, and no word why"),
                }
            }
        }
        Intent::Open | Intent::ShowLines if app.history.len() > b.history => {
            if let (Some(n), Some(g)) = (&b.shown, about(app)) {
                assert_eq!(&name_of(g), n, "{what}: opened the row's function");
                tally.same_function += 1;
            }
        }
        Intent::Transform(op) => check_step(app, b, *op, said, tally),
        Intent::Transforms => check_menu(app, b, tally),
        Intent::Copy => {
            if let (Some(n), Some(text)) = (&b.shown, &app.clipboard) {
                let last = text.rsplit(" > ").next().unwrap_or_default();
                assert_eq!(last, n.0, "{what}: copied {text:?}");
                tally.same_function += 1;
            }
        }
        Intent::CopyCommand => {
            let line = app.clipboard.clone().expect("Y copies");
            assert_eq!(line, app.command_line(), "{what}");
            let args = crate::analysis::query::shell_words(&app.query.query().to_args());
            assert!(line.contains(&args), "{what}: {line} states {args}");
        }
        Intent::Export => check_export(app, what, said, tally),
        _ => {}
    }
}

/// A step key on a row: the step names the row's function (or its module,
/// or a path ending at it), or is refused with a word.
fn check_step(app: &App, b: &Before, op: Op, said: &str, tally: &mut Tally) {
    let what = &b.what;
    if op == Op::Range {
        // A call's span, not its function: the range asked, or why not.
        // A step the range's time does not hold is left out, and said.
        let steps_now = steps(app);
        assert!(steps_now <= b.steps, "{what}: a range is no step");
        assert!(
            steps_now == b.steps || said.contains("left out"),
            "{what}: {said}"
        );
        return assert!(!said.is_empty(), "{what}: refused without a word");
    }
    let Some(n) = &b.shown else {
        return assert!(steps(app) == b.steps || op.on_node(), "{what}");
    };
    if steps(app) == b.steps {
        assert!(!said.is_empty(), "{what}: refused without a word");
        return;
    }
    assert_eq!(steps(app), b.steps + 1, "{what}");
    let step = app.query.steps().last().expect("a step").clone();
    let (kind, operand) = step.operand();
    match (&step, kind) {
        (Step::CollapseModule(m), _) => assert_eq!(m, &n.1, "{what}: {step:?}"),
        (_, "path") => {
            let last = operand.rsplit(';').next().unwrap_or_default();
            assert!(spells(last, n), "{what}: {step:?} ends at {n:?}");
        }
        _ => assert!(spells(&operand, n), "{what}: {step:?} names {n:?}"),
    }
    tally.same_function += 1;
}

/// `.` on a row: the menu's merge names the row's function, or says which
/// step removed it.
fn check_menu(app: &App, b: &Before, tally: &mut Tally) {
    let what = &b.what;
    let Mode::Menu(_) = app.mode else {
        panic!("{what}: the menu opens")
    };
    let merge = app
        .menu_entries()
        .into_iter()
        .find(|e| e.op == Op::Merge)
        .expect("merge is in the menu");
    match (&b.shown, b.kept) {
        (Some(n), true) => {
            let operand = merge.text.strip_prefix("merge ").unwrap_or_default();
            assert!(spells(operand, n), "{what}: menu {:?} on {n:?}", merge.text);
            tally.same_function += 1;
        }
        (Some(n), false) => {
            let why = merge.why_not.unwrap_or_default();
            assert!(
                why.contains(&format!("{}: ", n.0)) && why.contains(" by step "),
                "{what}: {why:?}"
            );
        }
        (None, _) => {}
    }
}

/// `e`'s file holds the rows the pane shows: a table's (an event's
/// function as the events' profile names it), or the paths as folded
/// stacks.
fn check_export(app: &App, what: &str, said: &str, tally: &mut Tally) {
    let Some(rest) = said.strip_prefix("exported ") else {
        assert!(!said.is_empty(), "{what}: no export, and no word why");
        return;
    };
    let path = Path::new(rest.rsplit(" to ").next().expect("a path"));
    if let Some(t) = app.pane().as_table() {
        let mut rd = csv::Reader::from_path(path).expect("the export exists");
        let rows: Vec<csv::StringRecord> = rd.records().map(|r| r.expect("a row")).collect();
        assert_eq!(rows.len(), t.rows.len(), "{what}: the rows shown");
        if let Within::Packet(k) = t.within {
            let events = app.query.answer().events();
            for (i, r) in rows.iter().enumerate() {
                let e = t.rows.get(i).expect("a row") as usize;
                assert_eq!(r[0], e.to_string(), "{what}");
                let f = events.packet(k).events.function(e);
                let name = f.map_or("", |f| events.function_name(f));
                assert_eq!(&r[4], name, "{what}: event {e}");
            }
            tally.events_exported += 1;
        }
    }
    // Gone once read: the next export takes the same name, not the
    // thousandth after it.
    std::fs::remove_file(path).unwrap_or_else(|e| panic!("{what}: {path:?} exists: {e}"));
}

/// A folder for `e`'s files: in memory where the system has one, as
/// every export is synced to its disk.
fn scratch() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    let dir = match shm.is_dir() {
        true => tempfile::tempdir_in(shm).ok(),
        false => None,
    };
    dir.unwrap_or_else(|| tempfile::tempdir().expect("a temp dir"))
}

/// Presses every key of every pane after every case; what it compared.
fn every_key_after_every_step(s: &Subject) -> Tally {
    let mut sweep = Sweep {
        s,
        dir: scratch(),
        drawn: Default::default(),
        tally: Tally::default(),
    };
    let mut seen = std::collections::HashSet::new();
    for (case, keys) in cases(s, sweep.dir.path()) {
        let mut base = sweep.build(&keys);
        for route in routes(&mut base) {
            let to: Vec<Press> = keys.iter().chain(&route).cloned().collect();
            let mut app = sweep.build(&to);
            let was = place(&app);
            if !seen.insert(was.clone()) {
                continue;
            }
            let at = Spot {
                crumbs: app.query.crumbs(),
                tab: app.tab(),
                history: app.history.len(),
                place: was,
                route,
                to,
            };
            let what = format!("{} after {case}, route {:?}", s.name, at.route);
            sweep.draw(&app);
            for key in bound_keys(&app) {
                let intent = key.1.clone();
                sweep.press(&mut app, key, &what);
                sweep.restore(&mut app, &intent, &at);
            }
        }
    }
    sweep.tally
}

#[test]
fn every_key_of_every_pane_after_each_step_on_the_demo() {
    let t = every_key_after_every_step(&DEMO);
    assert!(t.keys > 1000 && t.same_function > 100, "{t:?}");
    // The demo's sample events: a merged function's events say so.
    assert!(t.removed > 0 && t.events_exported > 0, "{t:?}");
}

#[test]
fn every_key_of_every_pane_after_each_step_on_a_two_thread_trace() {
    let t = every_key_after_every_step(&ORDERS_RUN);
    assert!(t.keys > 1000 && t.same_function > 100, "{t:?}");
    assert!(t.removed > 0 && t.events_exported > 0, "{t:?}");
}

#[test]
fn every_key_of_every_pane_after_each_step_on_the_smallest_trace() {
    let t = every_key_after_every_step(&TWO_THREADS);
    assert!(t.keys > 1000 && t.same_function > 100, "{t:?}");
    assert!(t.removed > 0 && t.events_exported > 0, "{t:?}");
}

/// The events of the Trace pane's first packet, by their own function
/// (the events' profile's names).
fn event_names(app: &App) -> Vec<Option<String>> {
    let events = app.query.answer().events();
    let packet = events.packet(crate::model::PacketId::from_index(0));
    (0..packet.events.len())
        .map(|i| {
            let f = packet.events.function(i)?;
            Some(events.function_name(f).to_string())
        })
        .collect()
}

/// Issue 62: after `m` on a trace's first function, `f` on an event of
/// another function opened another function's sandwich (the events' ids
/// read in the query's profile). Every event of a function the merge
/// kept opens that function's sandwich.
#[test]
fn after_a_merge_an_events_f_opens_that_functions_sandwich() {
    let dir = scratch();
    let mut app = build(&ORDERS_RUN, &[Char('m')], dir.path());
    let merged = app.query.crumbs()[1].clone();
    assert!(merged.starts_with("merge "), "{merged}");
    app.press(pane_key(5));
    app.press(Enter);
    let names = event_names(&app);
    let mut opened = 0;
    for (i, name) in names.iter().enumerate() {
        let name = name.clone().expect("every event has a function");
        assert_eq!(app.table().cursor, i);
        app.press(Char('f'));
        if format!("merge {name}") == merged {
            assert_eq!(
                app.status.as_deref(),
                Some(format!("{name}: merged by step 1 ({merged}) · u undoes it").as_str())
            );
            assert_eq!(app.tab(), View::Table(Table::Packets), "it stays");
        } else {
            let f = sandwich(&app).expect("a sandwich");
            assert_eq!(app.profile().function_name(f), name, "event {i}");
            opened += 1;
            app.press(pane_key(5));
        }
        app.press(Down);
    }
    assert!(opened > 10, "{opened} sandwiches");
}

/// Issue 62: `e` in a packet's events after a step panicked (the events'
/// row ids read in the query's profile). After every kind of step, on the
/// demo's samples and a trace's calls, it writes the events shown, each
/// with its own function.
#[test]
fn e_on_a_packets_events_after_each_step_writes_the_events_shown() {
    for s in [&DEMO, &ORDERS_RUN] {
        let dir = scratch();
        let mut written = 0;
        for kind in Kind::ALL {
            let Some(mut keys) = find_step(s, &[], kind, dir.path()) else {
                continue;
            };
            keys.extend([pane_key(5), Enter]);
            let mut app = build(s, &keys, dir.path());
            let names = event_names(&app);
            app.press(Char('e'));
            let said = app.status.clone().unwrap_or_default();
            let path = said.rsplit(" to ").next().unwrap_or_default();
            assert!(said.starts_with("exported "), "{} {kind:?}: {said}", s.name);
            let mut rd = csv::Reader::from_path(path).expect("the export exists");
            let got: Vec<String> = rd
                .records()
                .map(|r| r.expect("a row")[4].to_string())
                .collect();
            let want: Vec<String> = names.into_iter().map(Option::unwrap_or_default).collect();
            assert_eq!(got, want, "{} {kind:?}", s.name);
            std::fs::remove_file(path).expect("written");
            written += 1;
        }
        assert!(written >= s.takes.len(), "{}: {written}", s.name);
    }
}

/// On an event of a function a step merged, every key that acts on a
/// function says which step removed it and how to undo it, and changes
/// nothing: not the pane, not the query.
#[test]
fn keys_on_an_event_of_a_merged_function_say_so_and_change_nothing() {
    let dir = scratch();
    let mut app = build(&ORDERS_RUN, &[Char('m'), pane_key(5), Enter], dir.path());
    let merged = app.query.crumbs()[1].clone();
    let name = merged.strip_prefix("merge ").expect("a merge").to_string();
    let at = event_names(&app)
        .iter()
        .position(|n| n.as_deref() == Some(name.as_str()))
        .expect("an event of the merged function");
    app.press(Rows(at as isize));
    let was = place(&app);
    let want = format!("{name}: merged by step 1 ({merged}) · u undoes it");
    let keys = [
        Char('f'),
        Char('t'),
        Char('T'),
        Enter,
        Char('m'),
        Char('x'),
        Char('F'),
        Char('d'),
        Char('C'),
        Char('R'),
        Ctrl('r'),
        Char('z'),
    ];
    for key in keys {
        app.press(key.clone());
        assert_eq!(app.status.as_deref(), Some(want.as_str()), "{key:?}");
        assert_eq!(place(&app), was, "{key:?} changes nothing");
    }
    app.press(Char('.'));
    let entries = app.menu_entries();
    // A range is a call's span, not its function: dimmed here for want
    // of a call (`v_on_a_call_asks_its_span_and_the_menu_offers_it`).
    for e in entries
        .iter()
        .filter(|e| !e.op.on_node() && e.op != Op::Range)
    {
        assert_eq!(e.why_not.as_deref(), Some(want.as_str()), "{:?}", e.op);
    }
    // `y` copies the name the row shows, removed or not.
    app.press(Esc);
    app.press(Char('y'));
    assert_eq!(app.clipboard.as_deref(), Some(name.as_str()));
}
