//! The app driven without a terminal: `App::update` action by action
//! (update.rs) and whole screens rendered into ratatui's `TestBackend`
//! and compared with reviewed insta snapshots (screens.rs).

mod compare;
mod durations;
mod flame;
mod follow;
mod keys;
mod live;
mod messages;
mod query_keys;
mod range;
mod screens;
mod small;
mod source;
mod timeline;
mod update;

use super::App;
use crate::load::{Input, LoadOptions, load_inputs};
use crate::model::Profile;
use ratatui::layout::Rect;

pub(crate) fn demo_profile() -> Profile {
    load_inputs(&[crate::demo::input()], &LoadOptions::default()).expect("the demo loads")
}

pub(crate) fn app_of(p: Profile, title: &str, w: u16, h: u16) -> App {
    App::new(p, title, Rect::new(0, 0, w, h), true)
}

pub(crate) fn demo(w: u16, h: u16) -> App {
    app_of(demo_profile(), "orders.prof (demo)", w, h)
}

/// A profile from a fixture of the repository, by a path relative to the
/// package (cargo runs tests there), so screens naming the source do not
/// depend on where the checkout is.
pub(crate) fn fixture(rel: &str) -> Profile {
    let path = format!("tests/fixtures/{rel}");
    crate::load::load_paths(&[path], &LoadOptions::default()).expect("the fixture loads")
}

/// A fixture loaded with its calls in time order (`LoadOptions::timeline`),
/// as the app loads a trace for its flame chart.
pub(crate) fn fixture_timed(rel: &str) -> Profile {
    let path = format!("tests/fixtures/{rel}");
    let opts = LoadOptions {
        timeline: true,
        ..LoadOptions::default()
    };
    crate::load::load_paths(&[path], &opts).expect("the fixture loads")
}

/// A busy trace, as a slow legacy program's (issue 64): on thread 1,
/// `MAIN` loads 25 customers (each `CUSTOMER:LOAD` 150 ms, a little wider
/// than a cell at 80 columns, reading 300 fields of 0.4 ms) with 1,000
/// checks of 0.05 ms after each, then rounds 50,000 times (0.08 ms each:
/// thousands of calls a column), then waits a second with no call open
/// (a stall); thread 2's worker fetches three times. Its calls are kept in
/// time order, as the app loads a trace.
pub(crate) fn busy_trace() -> Profile {
    use crate::model::metrics::TraceTime;
    use crate::model::testing::new_function;
    let mut b = crate::model::ProfileBuilder::new("xpp");
    b.record_timeline();
    let names = [
        "MAIN",
        "CUSTOMER:LOAD",
        "CUSTOMER:GETFIELD",
        "ORDERS:VALIDATEPADR",
        "REPORT():ROUND",
        "WORKER",
        "FETCH",
    ];
    let f: Vec<_> = names.iter().map(|n| new_function(&mut b, n)).collect();
    b.trace_begin(TraceTime::Timed);
    let (one, two) = (b.trace_thread(1), b.trace_thread(2));
    let place = || crate::model::Place::Line(1);
    let mut at = 0.0;
    let call = |b: &mut crate::model::ProfileBuilder, func, ms: f64, at: &mut f64| {
        b.trace_time(one, *at, place);
        b.trace_enter(one, func, 0, None);
        *at += ms;
        b.trace_time(one, *at, place);
        b.trace_exit(one);
    };
    b.trace_time(one, at, place);
    b.trace_enter(one, f[0], 0, None);
    for _ in 0..25 {
        b.trace_time(one, at, place);
        b.trace_enter(one, f[1], 0, None);
        for _ in 0..300 {
            call(&mut b, f[2], 0.4, &mut at);
        }
        at += 30.0;
        b.trace_time(one, at, place);
        b.trace_exit(one);
        for _ in 0..1_000 {
            call(&mut b, f[3], 0.05, &mut at);
        }
    }
    for _ in 0..50_000 {
        call(&mut b, f[4], 0.08, &mut at);
    }
    at += 1_000.0;
    b.trace_time(one, at, place);
    b.trace_exit(one);
    b.trace_time(two, 200.0, place);
    b.trace_enter(two, f[5], 0, None);
    for k in 0..3 {
        b.trace_time(two, 400.0 + 2_000.0 * f64::from(k), place);
        b.trace_enter(two, f[6], 0, None);
        b.trace_time(two, 1_400.0 + 2_000.0 * f64::from(k), place);
        b.trace_exit(two);
    }
    b.trace_time(two, 8_000.0, place);
    b.trace_exit(two);
    b.trace_close_open();
    b.finish()
}

/// A PLIST profile whose names hold escape sequences, control characters,
/// bidi marks, wide and combining characters.
pub(crate) fn hostile() -> Profile {
    let evil = "evil\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}name\u{8}\u{7f}";
    let wide = "表示関数_wide";
    let combining = "cafe\u{301}_combining";
    let text = format!(
        "0\t1.10\tMicrosoft PLIST\n\
         1\t522\tFunction timing\n\
         2\t100.000\t0.000\t3\n\
         6\tt.exe\tt.obj\t1\t10.000\t100.000\tmain\n\
         8\t1\n\
         9\t1\t1\t10.000\t90.000\n\
         10\tmain\n\
         6\tt.exe\tt.obj\t5\t40.000\t60.000\t{evil}\n\
         8\t1\n\
         9\t2\t5\t40.000\t20.000\n\
         10\tmain\n\
         10\t{evil}\n\
         6\tt.exe\tt.obj\t7\t20.000\t20.000\t{wide}\n\
         8\t1\n\
         9\t3\t7\t20.000\t0\n\
         10\tmain\n\
         10\t{evil}\n\
         10\t{wide}\n\
         6\tt.exe\tt.obj\t2\t30.000\t30.000\t{combining}\n"
    );
    let input = Input::owned("evil\u{1b}[31m.txt", text.into_bytes());
    load_inputs(&[input], &LoadOptions::default()).expect("the hostile profile loads")
}

/// What a person does to the app in a test: a key pressed (sent through
/// the keymap, as the terminal's would be, so each test exercises the
/// bindings it relies on), text pasted, the mouse, the window.
#[derive(Clone, Debug)]
pub(crate) enum Press {
    Up,
    Down,
    Left,
    Right,
    Enter,
    Backspace,
    Esc,
    Home,
    End,
    PageUp,
    PageDown,
    TabKey,
    BackTab,
    /// `←` or `→` with Shift held.
    ShiftLeft,
    ShiftRight,
    Char(char),
    Ctrl(char),
    /// Down (or up, negative) this many times.
    Rows(isize),
    Paste(String),
    /// An intent that is no key: a click, the wheel, a resize, a tick.
    Do(crate::tui::intent::Intent),
}

/// Presses each of `actions`, in order.
pub(crate) fn run(app: &mut App, actions: &[Press]) {
    for a in actions.iter().cloned() {
        app.press(a);
    }
}

/// The name of the function the selection is on.
pub(crate) fn selected_name(app: &App) -> String {
    let f = app.selected_function().expect("a function is selected");
    app.profile().function_name(f).to_string()
}

/// The key of each pane's number, from 0.
pub(crate) fn pane_key(i: usize) -> Press {
    Press::Char(char::from(b'1' + i as u8))
}

impl App {
    /// What the person does, as the event loop would pass it on.
    pub(crate) fn press(&mut self, p: Press) {
        use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
        let key = |code| Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
        let event = match p {
            Press::Up => key(KeyCode::Up),
            Press::Down => key(KeyCode::Down),
            Press::Left => key(KeyCode::Left),
            Press::Right => key(KeyCode::Right),
            Press::Enter => key(KeyCode::Enter),
            Press::Backspace => key(KeyCode::Backspace),
            Press::Esc => key(KeyCode::Esc),
            Press::Home => key(KeyCode::Home),
            Press::End => key(KeyCode::End),
            Press::PageUp => key(KeyCode::PageUp),
            Press::PageDown => key(KeyCode::PageDown),
            Press::TabKey => key(KeyCode::Tab),
            Press::BackTab => key(KeyCode::BackTab),
            Press::ShiftLeft => Event::Key(KeyEvent::new(KeyCode::Left, KeyModifiers::SHIFT)),
            Press::ShiftRight => Event::Key(KeyEvent::new(KeyCode::Right, KeyModifiers::SHIFT)),
            Press::Char(c) => key(KeyCode::Char(c)),
            Press::Ctrl(c) => Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
            Press::Rows(n) => {
                let one = if n < 0 { Press::Up } else { Press::Down };
                (0..n.unsigned_abs()).for_each(|_| self.press(one.clone()));
                return;
            }
            Press::Paste(text) => Event::Paste(text),
            Press::Do(intent) => {
                self.update(intent);
                return self.settle_query();
            }
        };
        let places = self.places();
        if let Some(intent) = crate::tui::keymap::intent(&self.mode, &places, &event) {
            self.update(intent);
        }
        // A query step runs on a thread: the test sees its answer, as a
        // person does once the footer's spinner is gone.
        self.settle_query();
    }
}

/// Where the app is, as the tests name it: the pane on screen and what it
/// is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    Functions,
    Lines(Option<crate::model::FuncId>),
    Stacks(Option<crate::model::FuncId>),
    Tree(Option<crate::model::FuncId>),
    Flame,
    Packets,
    Events(crate::model::PacketId),
    Info,
    Timeline,
    /// The modules (`D` from Functions).
    Modules,
    /// One module's functions (its name).
    ModuleFunctions(crate::model::NameId),
    /// A comparison's functions.
    Compared,
    /// A source view (`o`).
    Source,
}

/// The panes by their number keys.
pub(crate) mod tabs {
    use crate::analysis::view::{Table, View};
    pub(crate) const FUNCTIONS: View = View::Table(Table::Functions);
    pub(crate) const LINES: View = View::Table(Table::Lines);
    pub(crate) const STACKS: View = View::Table(Table::Stacks);
    pub(crate) const TRACE: View = View::Table(Table::Packets);
}

impl App {
    pub(crate) fn scope(&self) -> Scope {
        use crate::analysis::view::Table;
        use crate::tui::pane::{Pane, Within};
        match self.pane() {
            Pane::Table(t) => match (t.table, t.within) {
                (_, Within::Packet(k)) => Scope::Events(k),
                (Table::Functions, Within::Module(m)) => Scope::ModuleFunctions(m),
                (Table::Functions, _) => Scope::Functions,
                (Table::Modules, _) => Scope::Modules,
                (Table::Lines, w) => Scope::Lines(t.about().filter(|_| w != Within::All)),
                (Table::Stacks, _) => Scope::Stacks(t.about()),
                (Table::Packets, _) => Scope::Packets,
                (Table::Threads, _) => unreachable!("the threads list is no pane"),
            },
            Pane::Tree(t) => Scope::Tree(t.about),
            Pane::Flame(_) => Scope::Flame,
            Pane::Info(_) => Scope::Info,
            Pane::Timeline(_) => Scope::Timeline,
            Pane::Compare(_) => Scope::Compared,
            Pane::Source(_) => Scope::Source,
        }
    }

    /// The table on screen.
    pub(crate) fn table(&self) -> &crate::tui::pane::TablePane {
        self.pane().as_table().expect("a table is on screen")
    }

    pub(crate) fn tree(&self) -> &crate::tui::pane::TreePane {
        self.pane().as_tree().expect("the call tree is on screen")
    }

    pub(crate) fn flame(&self) -> &crate::tui::pane::FlamePane {
        self.pane().as_flame().expect("the flame pane is on screen")
    }

    /// The row the cursor is on, in any pane with rows.
    pub(crate) fn cursor(&self) -> usize {
        use crate::tui::pane::Pane;
        match self.pane() {
            Pane::Table(t) => t.cursor,
            Pane::Tree(t) => t.cursor,
            Pane::Info(i) => i.cursor,
            Pane::Compare(c) => c.cursor,
            Pane::Source(s) => s.cursor,
            Pane::Flame(_) | Pane::Timeline(_) => panic!("a pane of rows"),
        }
    }

    /// The search typed in the pane on screen.
    pub(crate) fn filter(&self) -> &str {
        self.pane().search().map_or("", |s| s.text.as_str())
    }

    pub(crate) fn graph(&self) -> &crate::analysis::callgraph::CallGraph {
        self.cx().graph()
    }

    pub(crate) fn callers(&self) -> &[crate::analysis::callgraph::Edge] {
        self.table().callers(&self.cx())
    }

    pub(crate) fn callees(&self) -> &[crate::analysis::callgraph::Edge] {
        self.table().callees(&self.cx())
    }

    pub(crate) fn frames(&self) -> Vec<crate::model::FuncId> {
        self.table().frames(&self.cx())
    }

    /// Rows a page moves in the pane on screen.
    pub(crate) fn page(&self) -> usize {
        use crate::tui::pane::Pane;
        match self.pane() {
            Pane::Table(t) => t.page(&self.cx()),
            Pane::Tree(t) => t.page(&self.cx()),
            _ => panic!("a pane of rows"),
        }
    }

    pub(crate) fn info_len(&self) -> usize {
        match self.pane() {
            crate::tui::pane::Pane::Info(i) => i.len(self.profile()),
            _ => panic!("Info is on screen"),
        }
    }

    pub(crate) fn selected_function(&self) -> Option<crate::model::FuncId> {
        self.pane().function(&self.cx())
    }
}
