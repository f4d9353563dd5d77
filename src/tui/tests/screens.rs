//! Whole screens drawn into ratatui's `TestBackend`, as text, checked
//! against reviewed insta snapshots: every pane at 80×24 and 160×48, the
//! search prompt with its highlights, the finder, the help, a profile of
//! hostile names, and a window that is too small.

use super::Press::{self, *};
use super::run as act;
use super::{app_of, demo, fixture, hostile};
use super::{pane_key, tabs};
use crate::tui::app::{App, Mode};
use crate::tui::intent::Intent;
use crate::tui::pane;
use crate::tui::render::draw;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;
use unicode_width::UnicodeWidthStr;

pub(super) fn render(app: &App) -> Buffer {
    let mut t =
        Terminal::new(TestBackend::new(app.size.width, app.size.height)).expect("a test terminal");
    t.draw(|f| draw(f, app)).expect("draws");
    t.backend().buffer().clone()
}

/// The screen as text, one line a row; a wide character's second cell is
/// not repeated.
pub(super) fn text(buf: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut skip = 0;
        for x in 0..buf.area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let sym = buf[(x, y)].symbol();
            skip = sym.width().saturating_sub(1);
            out.push_str(sym);
        }
        out.push('\n');
    }
    out
}

fn typed(app: &mut App, s: &str) {
    for c in s.chars() {
        app.press(Char(c));
    }
}

/// Snapshots a screen at both sizes, after the same actions.
fn both_sizes(name: &str, make: fn(u16, u16) -> App, actions: &[Press]) {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut app = make(w, h);
        act(&mut app, actions);
        let screen = text(&render(&app));
        insta::assert_snapshot!(format!("{name}-{w}x{h}"), screen);
    }
}

fn xpp(w: u16, h: u16) -> App {
    app_of(fixture("xpp/two-threads.prf"), "two-threads.prf", w, h)
}

/// The two-thread trace with its calls in time order, as the app loads a
/// trace (the threads list's heaviest functions come from them).
fn xpp_timed(w: u16, h: u16) -> App {
    app_of(
        super::fixture_timed("xpp/two-threads.prf"),
        "two-threads.prf",
        w,
        h,
    )
}

fn plist(w: u16, h: u16) -> App {
    app_of(fixture("plist/demo-orders.txt"), "demo-orders.txt", w, h)
}

fn evil(w: u16, h: u16) -> App {
    app_of(hostile(), "evil.txt", w, h)
}

#[test]
fn functions_pane() {
    both_sizes("functions", demo, &[Down]);
}

#[test]
fn functions_pane_of_a_plist_profile() {
    both_sizes("functions-plist", plist, &[]);
}

#[test]
fn lines_pane() {
    both_sizes("lines", demo, &[pane_key(1)]);
}

#[test]
fn stacks_of_a_function_with_it_marked() {
    both_sizes("stacks-of-function", demo, &[Down, Enter]);
}

#[test]
fn stacks_pane() {
    both_sizes("stacks", demo, &[pane_key(2)]);
}

#[test]
fn trace_packets() {
    both_sizes("trace-packets", xpp, &[pane_key(5)]);
}

fn packeted(w: u16, h: u16) -> App {
    app_of(fixture("xpp/packeted-deldbe/D.PRF"), "D.PRF", w, h)
}

/// Packets whose names differ at their end (`D.PRF.000001`, `…000003`):
/// a cut source keeps both ends, so each is told apart.
#[test]
fn packets_told_apart_by_their_end() {
    both_sizes("trace-packeted", packeted, &[pane_key(5)]);
}

#[test]
fn trace_events_indented_by_depth() {
    both_sizes("trace-events", xpp, &[pane_key(5), Enter, Rows(3)]);
}

#[test]
fn trace_of_a_format_without_events() {
    both_sizes("trace-none", plist, &[pane_key(5)]);
}

#[test]
fn info_pane() {
    both_sizes("info", xpp, &[pane_key(6)]);
    // Meta labels longer than the old column (`start_function`) keep a
    // gap before their values.
    both_sizes("info-plist", plist, &[pane_key(6)]);
}

#[test]
fn help_overlay() {
    both_sizes("help", demo, &[Char('?')]);
}

#[test]
fn finder_overlay() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut app = demo(w, h);
        app.press(Char('g'));
        typed(&mut app, "fnr");
        insta::assert_snapshot!(format!("finder-{w}x{h}"), text(&render(&app)));
    }
}

#[test]
fn search_prompt_with_highlights() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut app = demo(w, h);
        app.press(Char('/'));
        typed(&mut app, "fnr");
        let buf = render(&app);
        insta::assert_snapshot!(format!("search-{w}x{h}"), text(&buf));
        // The first row shown is FNPRICE: F, N and R are matched, P is not.
        let t = app.areas().table;
        let (y, x0) = (t.y + 2, t.x + 2);
        let hl = |x: u16| buf[(x, y)].modifier.contains(Modifier::UNDERLINED);
        assert_eq!(buf[(x0, y)].symbol(), "F");
        assert!(hl(x0) && hl(x0 + 1) && hl(x0 + 3), "F N R highlighted");
        assert!(!hl(x0 + 2) && !hl(x0 + 4), "P and I are not");
    }
}

#[test]
fn hostile_names_are_shown_escaped_and_aligned() {
    both_sizes("hostile", evil, &[Down]);
    both_sizes("hostile-stacks", evil, &[pane_key(2)]);
    for (w, h) in [(80, 24), (160, 48)] {
        let buf = render(&evil(w, h));
        for cell in buf.content() {
            let raw = cell
                .symbol()
                .chars()
                .any(|c| c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c));
            assert!(
                !raw,
                "a raw control character reached the screen: {:?}",
                cell.symbol()
            );
        }
        // Every line is exactly as wide as the window: nothing shifted.
        for line in text(&buf).lines() {
            assert_eq!(line.width(), usize::from(w), "{line}");
        }
    }
}

#[test]
fn too_small_a_window_says_so() {
    let app = demo(60, 20);
    let screen = text(&render(&app));
    insta::assert_snapshot!("too-small", screen);
    assert!(screen.contains("at least 80×24"));
}

#[test]
fn no_color_uses_no_colour() {
    let mut app = demo(80, 24);
    app.color = false;
    app.press(Char('/'));
    typed(&mut app, "fn");
    let buf = render(&app);
    for cell in buf.content() {
        assert_eq!(cell.fg, ratatui::style::Color::Reset, "{cell:?}");
        assert_eq!(cell.bg, ratatui::style::Color::Reset, "{cell:?}");
    }
}

/// The first frame, drawn before the call graph is made (the selected
/// function's callers and callees found alone), is the frame drawn after,
/// and every pane made on first sight is the pane made by its thread.
#[test]
fn frames_before_the_graph_and_panes_are_made_are_the_same() {
    let files = ["plist/demo-orders.txt", "xpp/two-threads.prf"];
    for name in ["demo", files[0], files[1]] {
        let profile = || match name {
            "demo" => super::demo_profile(),
            file => fixture(file),
        };
        let size = ratatui::layout::Rect::new(0, 0, 160, 48);
        let mut early = App::without_threads(profile(), name, size);
        let first = text(&render(&early));
        assert!(!early.graph_made(), "{name}: the frame needed no graph");
        early.cx().graph();
        assert_eq!(text(&render(&early)), first, "{name}");
        let mut ahead = app_of(profile(), name, 160, 48);
        ahead.cx().graph();
        assert_eq!(text(&render(&ahead)), first, "{name}");
        ahead.prepare_other_panes();
        for tab in [tabs::LINES, tabs::STACKS, tabs::TRACE] {
            act(&mut early, &[pane_key(pane::tab_index(tab))]);
            act(&mut ahead, &[pane_key(pane::tab_index(tab))]);
            assert_eq!(
                text(&render(&early)),
                text(&render(&ahead)),
                "{name} {tab:?}"
            );
        }
    }
}

fn l4_cc(w: u16, h: u16) -> App {
    app_of(fixture("real/visperf_l4_cc.csv"), "visperf_l4_cc.csv", w, h)
}

/// The butterfly's own rows (issue 51): `(root)`, `(self)` and `(unlisted)`
/// on a PLIST file whose stacks cover part of the time, and the titles'
/// note where a function calls itself through another (EVAL > TERM > EVAL).
#[test]
fn butterfly_rows_beyond_the_edges_and_recursion() {
    let mut partial = app_of(
        fixture("plist/partial-stacks.txt"),
        "partial-stacks.txt",
        80,
        24,
    );
    let screen = text(&render(&partial));
    assert!(
        screen.contains("(unlisted)") && screen.contains("(root)"),
        "{screen}"
    );
    insta::assert_snapshot!("butterfly-partial-80x24", screen);
    act(&mut partial, &[Press::Down]);
    insta::assert_snapshot!("butterfly-partial-draw-80x24", text(&render(&partial)));
    let mut rec = app_of(fixture("xpp/recursion.prf"), "recursion.prf", 80, 24);
    act(&mut rec, &[Char('g')]);
    typed(&mut rec, "EVAL");
    act(&mut rec, &[Enter]);
    let screen = text(&render(&rec));
    assert!(screen.contains("shares overlap"), "{screen}");
    insta::assert_snapshot!("butterfly-recursive-80x24", screen);
}

/// The butterfly with numbers, on a real VS export: each caller and callee
/// with its time, calls and share, and the module where two functions
/// share a name (`__onexit` in the exe and in the C runtime).
#[test]
fn butterfly_with_numbers_and_ambiguous_modules() {
    // `__onexit` of the C runtime, whose caller is the exe's `__onexit`.
    let find = |app: &mut App| {
        act(app, &[Char('g')]);
        typed(app, "__onexit");
        act(app, &[Enter]);
    };
    for (w, h) in [(80, 24), (160, 48)] {
        let mut app = l4_cc(w, h);
        find(&mut app);
        let screen = text(&render(&app));
        insta::assert_snapshot!(format!("butterfly-{w}x{h}"), screen);
    }
    let mut app = l4_cc(160, 48);
    find(&mut app);
    let screen = text(&render(&app));
    assert!(
        screen.contains("[MSVCR100D.dll]") || screen.contains("[perfPlay.exe]"),
        "{screen}"
    );
}

fn vs_tree(w: u16, h: u16) -> App {
    app_of(
        fixture("real/inferno_CallTreeSummary.csv"),
        "inferno_CallTreeSummary.csv",
        w,
        h,
    )
}

fn vs_recursive(w: u16, h: u16) -> App {
    app_of(
        fixture("vs-csv/recursive-zero-inclusive.csv"),
        "recursive-zero-inclusive.csv",
        w,
        h,
    )
}

/// A VS call tree's recursive row states 0 inclusive: its stack's child
/// time would be negative and shows `—` (the header counts the warning).
#[test]
fn stacks_of_a_recursive_row_with_no_inclusive_time() {
    both_sizes(
        "stacks-recursive-zero-inclusive",
        vs_recursive,
        &[pane_key(2)],
    );
}

fn vs_huge(w: u16, h: u16) -> App {
    app_of(fixture("vs-csv/huge-times.csv"), "huge-times.csv", w, h)
}

/// Times in the tens of billions of ms lose no digit: the Call tree's
/// columns widen, and where the names would be left no room they are
/// written in seconds (`Total s`); the Functions table's columns scroll.
#[test]
fn huge_times_keep_every_digit() {
    both_sizes("tree-huge-times", vs_huge, &[pane_key(3)]);
    both_sizes("functions-huge-times", vs_huge, &[]);
}

/// Two programs' `(main)`, one name in two modules, the menu's calling
/// the orders': the tree, the stacks and the flame's status line say each
/// one's module.
fn shared_main(w: u16, h: u16) -> App {
    let mut b = crate::model::ProfileBuilder::new("plist");
    let main = b.intern("(main)");
    let (menu, orders) = (b.intern("MENU.BR"), b.intern("ORDERS.BR"));
    let (outer, inner) = (b.function(main, menu), b.function(main, orders));
    let top = b.node(None, outer);
    let below = b.node(Some(top), inner);
    for (node, ms) in [(top, 1.0), (below, 4.0)] {
        let s = b.stack_at(node);
        b.stack_summary(s, Some(1), Some(ms), None);
    }
    for (f, incl, excl) in [(outer, 5.0, 1.0), (inner, 4.0, 4.0)] {
        let time = crate::model::TimeValues {
            elapsed_inclusive: Some(incl),
            elapsed_exclusive: Some(excl),
            ..Default::default()
        };
        let summary = crate::model::FuncSummary {
            calls: Some(1),
            time,
            ..Default::default()
        };
        b.summary(f, summary);
    }
    b.totals_mut().elapsed_inclusive_ms = Some(5.0);
    app_of(b.finish(), "shared-main", w, h)
}

#[test]
fn one_name_in_two_modules_is_told_apart() {
    both_sizes("shared-name-tree", shared_main, &[pane_key(3)]);
    both_sizes("shared-name-stacks", shared_main, &[pane_key(2)]);
    both_sizes("shared-name-flame", shared_main, &[pane_key(4), Down]);
}

/// A profile without call paths (a VS caller/callee report): the Call
/// tree says so, with no row count, order or total over it.
#[test]
fn a_tree_without_call_paths_says_so() {
    let mut app = app_of(fixture("vs-csv/caller-callee.csv"), "cc.csv", 80, 24);
    act(&mut app, &[pane_key(3)]);
    let screen = text(&render(&app));
    assert!(
        screen.contains("No call tree: this vs-csv profile has no call paths"),
        "{screen}"
    );
    assert!(
        !screen.contains(" rows ") && !screen.contains("% of"),
        "{screen}"
    );
}

/// The Call tree as it opens: the roots open on their callees.
#[test]
fn call_tree_opened() {
    both_sizes("tree-opened", demo, &[pane_key(3)]);
}

/// Every row open, on the demo and on a real VS call tree; the hot path
/// from the first root.
#[test]
fn call_tree_expanded() {
    both_sizes("tree-expanded", demo, &[pane_key(3), Char('*'), Rows(2)]);
    both_sizes("tree-hot-path", vs_tree, &[pane_key(3), Char('p')]);
}

/// A VSPerfReport call tree in ticks, every row open: each heading and
/// the percents' total say ticks (at 80 columns, thousands of them).
#[test]
fn call_tree_in_ticks() {
    fn ticks(w: u16, h: u16) -> App {
        let p = fixture("vs-csv/command-line-call-tree.csv");
        app_of(p, "command-line-call-tree.csv", w, h)
    }
    both_sizes("tree-ticks", ticks, &[pane_key(3), Char('*')]);
}

/// Snapshots a screen at 80×24 and at 200×60 (a wide window), after the
/// same actions.
fn narrow_and_wide(name: &str, make: fn(u16, u16) -> App, actions: &[Press]) {
    for (w, h) in [(80, 24), (200, 60)] {
        let mut app = make(w, h);
        act(&mut app, actions);
        let screen = text(&render(&app));
        insta::assert_snapshot!(format!("{name}-{w}x{h}"), screen);
    }
}

/// `E`: every row of the tree open, each row's share of its parent in
/// `Parent%`; on the demo and on a VS call tree.
#[test]
fn call_tree_every_row_with_parent_shares() {
    narrow_and_wide("tree-every-row", demo, &[pane_key(3), Char('E'), Rows(3)]);
    narrow_and_wide("tree-every-row-vs", vs_tree, &[pane_key(3), Char('E')]);
}

/// `D` from Functions: the modules, heaviest first by inclusive time;
/// a PLIST profile's (summaries: no inclusive time without call paths).
#[test]
fn modules_view() {
    narrow_and_wide("modules", demo, &[Char('D')]);
    narrow_and_wide("modules-plist", plist, &[Char('D')]);
}

/// The finder with each hit's inclusive time, narrow and wide.
#[test]
fn finder_weighs_its_hits() {
    for (w, h) in [(80, 24), (200, 60)] {
        let mut app = demo(w, h);
        app.press(Char('g'));
        typed(&mut app, "fn");
        insta::assert_snapshot!(format!("finder-weighed-{w}x{h}"), text(&render(&app)));
    }
}

/// Bottom-up: functions by self time, the first one's callers open.
#[test]
fn call_tree_inverted() {
    both_sizes(
        "tree-inverted",
        demo,
        &[pane_key(3), Char('i'), Home, Right],
    );
}

/// A search marks the matching nodes and opens the paths to them.
#[test]
fn call_tree_searched() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut app = demo(w, h);
        act(&mut app, &[pane_key(3), Char('/')]);
        typed(&mut app, "price");
        act(&mut app, &[Enter]);
        let screen = text(&render(&app));
        insta::assert_snapshot!(format!("tree-searched-{w}x{h}"), screen);
    }
}

/// `t` on a function opens the tree at every place it is called.
#[test]
fn call_tree_of_a_function() {
    both_sizes("tree-of-function", xpp, &[Rows(2), Char('t')]);
}

/// The Flame pane: as it opens, with a frame selected deeper, zoomed, and
/// searched; at both sizes.
#[test]
fn flame_graph() {
    both_sizes("flame", demo, &[pane_key(4)]);
    both_sizes("flame-selected", demo, &[pane_key(4), Down, Down, Right]);
    both_sizes("flame-zoomed", demo, &[pane_key(4), Down, Down, Enter]);
    for (w, h) in [(80, 24), (160, 48)] {
        let mut app = demo(w, h);
        act(&mut app, &[pane_key(4), Char('/')]);
        typed(&mut app, "round");
        act(&mut app, &[Enter]);
        insta::assert_snapshot!(format!("flame-searched-{w}x{h}"), text(&render(&app)));
    }
    both_sizes("flame-none", listing, &[pane_key(4)]);
    // x (m's alias) on FNPRICE: merged by the query, its frames gone, its
    // time with (main), its callees lifted under (main); the header's
    // breadcrumbs say so.
    both_sizes("flame-merged", demo, &[pane_key(4), Down, Char('x')]);
    // f on FNREADITEM from Functions: its callers above, its callees below.
    both_sizes("flame-sandwich", demo, &[Rows(2), Char('f')]);
    // ↑: the heaviest caller of FNREADITEM selected.
    both_sizes("flame-sandwich-caller", demo, &[Rows(2), Char('f'), Up]);
    // 300 columns: the same frames, each wider; the widths still add up.
    let mut app = app_of(fixture("xpp/two-threads.prf"), "two-threads.prf", 300, 30);
    act(&mut app, &[pane_key(4), Down]);
    insta::assert_snapshot!("flame-300x30", text(&render(&app)));
}

/// Under NO_COLOR the frames carry no colour, each starts with `▏` and
/// is underlined across its width.
#[test]
fn flame_without_colour_shows_boundaries() {
    let mut app = crate::tui::App::new(
        super::demo_profile(),
        "orders.prof (demo)",
        ratatui::layout::Rect::new(0, 0, 100, 30),
        false,
    );
    act(&mut app, &[pane_key(4)]);
    let buf = render(&app);
    let screen = text(&buf);
    assert!(screen.contains("▏FNPRICE"), "{screen}");
    for cell in buf.content() {
        assert_eq!(cell.bg, ratatui::style::Color::Reset, "no colour");
    }
    // (main) spans the width: underlined to its last cell, so where a
    // frame ends shows without colour.
    let right = buf.area.width - 2;
    assert!(buf[(right, 3)].modifier.contains(Modifier::UNDERLINED));
}

/// The flame chart of a two-thread run: whole, then zoomed on the
/// longest order (a call of READITEM) with its FNPRICE selected.
#[test]
fn flame_chart() {
    both_sizes("flame-chart", run_trace, &[pane_key(4), Char('t')]);
    both_sizes(
        "flame-chart-zoomed",
        run_trace,
        &[pane_key(4), Char('t'), Down, Left, Enter, Down],
    );
}

/// The sizes issue 64's walk is made at.
const WALK: [(u16, u16); 3] = [(80, 24), (120, 35), (200, 60)];

/// Snapshots a screen at the walk's three sizes, after the same actions.
fn walk_sizes(name: &str, make: &dyn Fn(u16, u16) -> App, actions: &[Press]) {
    for (w, h) in WALK {
        let mut app = make(w, h);
        act(&mut app, actions);
        insta::assert_snapshot!(format!("{name}-{w}x{h}"), text(&render(&app)));
    }
}

/// The time order leaves out no call (issue 64): on a busy thread every
/// cell from `MAIN`'s first callee to its last is drawn, a box or a `…`
/// (several calls), each customer's load a box of its own, the 50,000
/// rounds a run of `…`, and only the stall after them is blank; the
/// fixtures' runs likewise.
#[test]
fn time_order_leaves_out_no_call() {
    for (w, h) in WALK {
        let mut app = super::app_of(super::busy_trace(), "busy.prf", w, h);
        act(&mut app, &[pane_key(4), Char('t')]);
        let buf = render(&app);
        insta::assert_snapshot!(format!("chart-busy-{w}x{h}"), text(&buf));
        // MAIN's callees: the row under MAIN's (the band's title first),
        // busy for 9 of its 10 seconds.
        let area = app.flame().chart.area(&app.cx());
        let y = area.y + 2;
        let busy = (f64::from(area.width) * 0.89) as u16;
        for x in area.x..area.x + busy {
            let cell = &buf[(x, y)];
            assert!(cell.bg != ratatui::style::Color::Reset, "{w}: blank at {x}");
        }
        let stall = area.x + area.width - 2;
        assert_eq!(
            buf[(stall, y)].bg,
            ratatui::style::Color::Reset,
            "the stall"
        );
    }
    walk_sizes("chart-orders-run", &run_trace, &[pane_key(4), Char('t')]);
    walk_sizes("chart-two-threads", &xpp_timed, &[pane_key(4), Char('t')]);
}

/// A trace of a few megabytes as the generator writes real programs'
/// (long names, eight threads): in time order every band's rows are
/// drawn across the run, none reduced to one `…` column.
#[test]
fn time_order_of_a_generated_trace() {
    use crate::fixture_gen::large::{self, Format, Shape, Spec};
    let bytes = large::bytes(Spec {
        kind: Format::Deldbe,
        bytes: 3 << 20,
        names: 300,
        shape: Shape::Real,
    });
    let make = |w, h| {
        let input = crate::load::Input::owned("large.prf", bytes.clone());
        let opts = crate::load::LoadOptions {
            timeline: true,
            ..Default::default()
        };
        let p = crate::load::load_inputs(&[input], &opts).expect("the generated trace loads");
        super::app_of(p, "large.prf", w, h)
    };
    walk_sizes("chart-generated", &make, &[pane_key(4), Char('t')]);
}

/// Flame labels (issue 64): every frame and every `…` starts with `▏`, so
/// no label runs into the next (`FNREADITEM` beside `FNTAX`), the same
/// with colour and without; names are cut as the tables cut them.
#[test]
fn flame_boundaries_with_and_without_colour() {
    for colour in [true, false] {
        let make = move |w, h| {
            let size = ratatui::layout::Rect::new(0, 0, w, h);
            App::new(super::demo_profile(), "orders.prof (demo)", size, colour)
        };
        let name = match colour {
            true => "flame-boundaries",
            false => "flame-boundaries-no-colour",
        };
        walk_sizes(name, &make, &[pane_key(4), Down, Char('x')]);
    }
}

/// `s` and `^` (issue 64): children heaviest first, in a flame graph (the
/// roots at the bottom); zoomed on a frame, its ancestors above it.
#[test]
fn flame_heaviest_first_upside_and_zoomed() {
    walk_sizes(
        "flame-heavy-flipped",
        &demo,
        &[pane_key(4), Char('s'), Char('^')],
    );
    walk_sizes(
        "flame-zoomed-ancestors",
        &demo,
        &[pane_key(4), Down, Down, Enter],
    );
}

/// A message too long for the footer, whole in a box above it.
#[test]
fn a_long_message_in_a_box() {
    let mut app = demo(80, 24);
    app.status = Some(format!(
        "exported 10 rows to /home/someone/profiles/{}/orders.prof.functions.csv",
        "a-long-folder-name".repeat(3)
    ));
    insta::assert_snapshot!("message-box-80x24", text(&render(&app)));
}

/// A trace's Char('l') pane: `Caller` and `Calls`, as a trace holds them.
#[test]
fn lines_pane_of_a_trace() {
    both_sizes("lines-trace", run_trace, &[pane_key(1)]);
}

fn run_trace(w: u16, h: u16) -> App {
    app_of(
        super::fixture_timed("xpp/orders-run.prf"),
        "orders-run.prf",
        w,
        h,
    )
}

/// A printed PLIST listing: functions only, no call paths.
fn listing(w: u16, h: u16) -> App {
    app_of(
        fixture("real/cdex_lame_function_timing.txt"),
        "cdex_lame_function_timing.txt",
        w,
        h,
    )
}

/// A large profile's first frame is drawn before its rows are all ordered
/// (they are ordered on a thread): it shows the rows the whole order puts
/// first, and the first action puts the whole order in their place, the
/// same rows on top and the same order as a profile ordered at once.
#[test]
fn a_large_profiles_first_frame_comes_before_its_order() {
    let make = || crate::fixture_gen::large::profile(60_000);
    let mut app = app_of(make(), "generated", 120, 30);
    assert!(app.opening(), "ordered on a thread");
    let first: Vec<u32> = (0..20).filter_map(|i| app.table().rows.get(i)).collect();
    assert_eq!(first.len(), 20);
    let top = app
        .profile()
        .function_name(crate::model::FuncId::from_index(first[0] as usize))
        .to_string();
    let before = text(&render(&app));
    assert!(before.contains(&top), "{before}");
    assert!(
        before.contains("60,000"),
        "the whole count in the title: {before}"
    );

    app.press(Do(Intent::Move(0)));
    assert!(!app.opening());
    let at_once = App::without_threads(
        make(),
        "generated",
        ratatui::layout::Rect::new(0, 0, 120, 30),
    );
    assert_eq!(app.table().rows, at_once.table().rows);
    assert_eq!(app.table().rows.len(), 60_000);
    let now: Vec<u32> = (0..20).filter_map(|i| app.table().rows.get(i)).collect();
    assert_eq!(now, first);
    assert!(text(&render(&app)).contains(&top));
    // The detail's lists, counted on the thread, are the ones an app made
    // at once shows: the same screen. The first frame either shows them
    // or says they are being counted.
    assert_eq!(text(&render(&app)), text(&render(&at_once)));
    let cx = at_once.cx();
    let f = at_once.selected_function().expect("a function is selected");
    let (callers, _, _) = cx.neighbours(f).expect("counted at once");
    let caller = callers.first().expect("the top function has a caller");
    let caller = caller.who.name(app.profile()).to_string();
    assert!(
        before.contains("(counting…)") || before.contains(&caller),
        "{before}"
    );
}

/// The query's breadcrumbs in the header: two steps and what the drop
/// left out; on the narrow screen the title and the crumbs give way.
#[test]
fn query_breadcrumbs() {
    both_sizes(
        "query-crumbs",
        demo,
        &[Down, Char('m'), Down, Down, Char('d'), Down, Char('F')],
    );
}

/// The `.` menu on a call tree's row: every transform with its key and
/// what it would do to the row's function or its call node.
#[test]
fn query_menu() {
    both_sizes("query-menu", demo, &[pane_key(3), Down, Down, Char('.')]);
}

/// The threads list of a two-thread trace, the first row unticked (all
/// open ticked while all are shown); then
/// the thread shown, its breadcrumb in the header.
#[test]
fn threads_list() {
    both_sizes("threads", xpp_timed, &[Char('H'), Char(' ')]);
    both_sizes("threads-chosen", xpp_timed, &[Char('H'), Down, Enter]);
}

fn orders_run(w: u16, h: u16) -> App {
    app_of(
        super::fixture_timed("xpp/orders-run.prf"),
        "orders-run.prf",
        w,
        h,
    )
}

/// The header's first line.
fn header_line(app: &App) -> String {
    text(&render(app))
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// While a query is asked its crumbs come before the header's other
/// facts: at 80 columns the step shows, where "summed over 2 threads"
/// and the warnings give way; the thread choice and the last step stay
/// whole.
#[test]
fn the_crumbs_come_before_the_headers_other_facts() {
    let steps = [pane_key(3), Char('*'), Down, Down, Char('m')];
    both_sizes("query-crumbs-trace", orders_run, &steps);
    both_sizes("query-crumbs-plist", plist, &[Down, Char('m')]);
    let mut app = orders_run(80, 24);
    act(&mut app, &steps);
    let crumbs = app.query.crumbs().join(" › ");
    let line = header_line(&app);
    assert!(line.contains(&crumbs), "{crumbs:?} in {line:?}");
    let mut app = plist(80, 24);
    act(&mut app, &[Down, Char('m')]);
    let crumbs = app.query.crumbs().join(" › ");
    let line = header_line(&app);
    assert!(line.contains(&crumbs), "{crumbs:?} in {line:?}");
    // Three steps at 120 columns: every crumb, the samples giving way.
    let mut app = demo(120, 40);
    act(
        &mut app,
        &[Down, Char('m'), Down, Down, Char('d'), Down, Char('F')],
    );
    let crumbs = app.query.crumbs().join(" › ");
    let line = header_line(&app);
    assert!(line.contains(&crumbs), "{crumbs:?} in {line:?}");
}

/// However narrow, the thread choice and the last step stay whole when
/// they fit at all; a call node's path loses its middle frames.
#[test]
fn the_last_crumb_stays_whole() {
    let mut app = orders_run(80, 24);
    act(&mut app, &[Char('H'), Down, Enter, pane_key(3), Char('*')]);
    act(&mut app, &[Down, Down, Down, Char('M')]);
    let crumbs = app.query.crumbs();
    assert!(crumbs[1].starts_with("merge node "), "{crumbs:?}");
    let line = header_line(&app);
    assert!(line.contains(&crumbs[0]), "{line}");
    let last = crumbs[1].rsplit('>').next().unwrap_or_default();
    assert!(line.contains(last), "{last:?} in {line:?}");
}

/// The threads list at 80 columns cuts a heaviest function's name, never
/// its time, and its hint line fits.
#[test]
fn the_threads_list_keeps_times_whole() {
    both_sizes("threads-orders-run", orders_run, &[Char('H')]);
    let mut app = orders_run(80, 24);
    act(&mut app, &[Char('H')]);
    let screen = text(&render(&app));
    let Mode::Threads(list) = &app.mode else {
        panic!("the threads list is open");
    };
    // Every thread's row with its heaviest function's time whole, in the
    // heaviest's own column.
    for r in list.rows() {
        let (f, ms) = r.heaviest.expect("a timed trace's heaviest function");
        let name = app.profile().function_name(f);
        let ms = crate::report::fmt::cell(crate::analysis::columns::Value::Ms(Some(ms)));
        assert!(
            screen.lines().any(|l| l.contains(&format!(" {ms} {name}"))),
            "{ms} {name} whole: {screen}"
        );
    }
    let hint = screen
        .lines()
        .find(|l| l.contains("Space choose") && l.contains("Enter"))
        .expect("the list's hint line");
    let hint = hint.trim_matches(|c| c == '│' || c == ' ' || c == '┘' || c == '─');
    assert!(
        hint.ends_with("a: all, merged") || hint.ends_with("a: all"),
        "whole: {hint:?}"
    );
}

/// The `.` menu on a profile without call paths: the transforms that
/// need them dimmed with why; on a long call node the path loses its
/// middle, the root and last frame kept; the box off the selected row.
#[test]
fn the_menu_without_call_paths_and_on_a_long_node() {
    let vs = |w, h| app_of(fixture("vs-csv/function-summary.csv"), "s.csv", w, h);
    both_sizes("query-menu-no-paths", vs, &[Down, Char('.')]);
    let steps = [pane_key(3), Char('*'), Down, Down, Down, Char('.')];
    both_sizes("query-menu-long-node", plist, &steps);
    let mut app = plist(80, 24);
    act(&mut app, &steps);
    let screen = text(&render(&app));
    let path = app.pane().node_path(&app.cx()).expect("a call node");
    let last = crate::text::visible(app.profile().function_name(path[path.len() - 1])).into_owned();
    let line = screen
        .lines()
        .find(|l| l.contains("merge node "))
        .expect("the menu's M line");
    assert!(line.contains(&format!(">{last}")), "{last:?} in {line:?}");
    assert!(
        screen.lines().any(|l| l.contains('▶')),
        "the selected row shows:\n{screen}"
    );
}

/// Time order under a transform: its title says the query's steps are
/// not drawn there.
#[test]
fn time_order_says_the_steps_are_not_drawn() {
    let steps = [
        Char('H'),
        Down,
        Enter,
        pane_key(4),
        Char('t'),
        Down,
        Char('m'),
        Char('t'),
    ];
    both_sizes("time-order-queried", orders_run, &steps);
    let mut app = orders_run(80, 24);
    act(&mut app, &steps);
    assert_eq!(app.query.crumbs().len(), 2, "{:?}", app.status);
    let screen = text(&render(&app));
    assert!(screen.contains("steps not drawn"), "{screen}");
}

/// Names that a cut would make read the same (issue 64): three
/// `IPrimitive.Intersect`s of a ray tracer (an interface's and two
/// classes' implementations of it, whose names end alike), two C++
/// overloads and two instances of a template; called from `main` so the
/// Call tree lists them as siblings.
fn alike_names(w: u16, h: u16) -> App {
    let intersect = "IPrimitive.Intersect(class Raytracer.Ray&,bool&)";
    let mesh = "geometry::shapes::Mesh<std::vector<float>>::intersect";
    let names = [
        ("main", 1.0, None),
        (
            "Raytracer.Raytracer.Tracer.TraceRay(class Raytracer.Ray)",
            2.0,
            Some(0),
        ),
        (&*format!("Raytracer.Primitives.{intersect}"), 3.0, Some(1)),
        (
            &*format!("Raytracer.Primitives.Sphere.Raytracer.Primitives.{intersect}"),
            20.0,
            Some(2),
        ),
        (
            &*format!("Raytracer.Primitives.Box.Raytracer.Primitives.{intersect}"),
            10.0,
            Some(2),
        ),
        ("ns::Foo<int>::bar(int)", 6.0, Some(0)),
        ("ns::Foo<int>::bar(double)", 5.0, Some(0)),
        (&*format!("{mesh}(const Ray<float>&, Hit&)"), 4.0, Some(0)),
        (&*format!("{mesh}(const Ray<double>&, Hit&)"), 3.5, Some(0)),
    ]
    .map(|(n, ms, parent)| (n.to_string(), ms, parent));
    let mut b = crate::model::ProfileBuilder::new("plist");
    let module = b.intern("");
    let mut nodes = Vec::new();
    let mut funcs = Vec::new();
    for (name, ms, parent) in &names {
        let name = b.intern(name);
        let f = b.function(name, module);
        let node = b.node(parent.map(|i: usize| nodes[i]), f);
        let s = b.stack_at(node);
        b.stack_summary(s, Some(1), Some(*ms), None);
        nodes.push(node);
        funcs.push(f);
    }
    // A function's inclusive time: its own and its callees'.
    fn incl(names: &[(String, f64, Option<usize>)], i: usize) -> f64 {
        let below = (0..names.len()).filter(|&j| names[j].2 == Some(i));
        names[i].1 + below.map(|j| incl(names, j)).sum::<f64>()
    }
    for (i, &f) in funcs.iter().enumerate() {
        let time = crate::model::TimeValues {
            elapsed_inclusive: Some(incl(&names, i)),
            elapsed_exclusive: Some(names[i].1),
            ..Default::default()
        };
        let summary = crate::model::FuncSummary {
            calls: Some(1),
            time,
            ..Default::default()
        };
        b.summary(f, summary);
    }
    b.totals_mut().elapsed_inclusive_ms = Some(incl(&names, 0));
    app_of(b.finish(), "alike-names", w, h)
}

/// The names of a pane's rows on screen, as drawn: each row's text from
/// its marks to its first number.
fn row_names(app: &App, screen: &str) -> Vec<String> {
    let table = app.areas().table;
    let number = |t: &str| t.chars().all(|c| c.is_ascii_digit() || ",.—%█".contains(c));
    screen
        .lines()
        .skip(usize::from(table.y) + 2)
        .take(usize::from(table.height.saturating_sub(3)))
        .map(|line| {
            let words = line.trim_matches(|c| c == '│' || c == ' ');
            let words = words.trim_start_matches(['▶', '▾', '▸', ' ']);
            let name: Vec<&str> = words
                .split(' ')
                .filter(|w| !w.is_empty())
                .take_while(|w| !number(w))
                .collect();
            name.join(" ")
        })
        .filter(|name| !name.is_empty())
        .collect()
}

/// No two rows on screen read the same: each full name differs.
fn assert_told_apart(app: &App, screen: &str, rows: usize) {
    let names = row_names(app, screen);
    assert_eq!(names.len(), rows, "{screen}");
    for (i, a) in names.iter().enumerate() {
        assert!(!names[..i].contains(a), "{a:?} twice:\n{screen}");
    }
}

/// Names cut at the walk's sizes lose their template arguments, their
/// parameters, their namespaces; where two would still read the same,
/// each keeps what tells it apart: in the Functions table, in the Call
/// tree (siblings), every row open.
#[test]
fn names_that_would_read_the_same_are_told_apart() {
    for (w, h) in WALK {
        let mut app = alike_names(w, h);
        let screen = text(&render(&app));
        insta::assert_snapshot!(format!("alike-functions-{w}x{h}"), screen);
        assert_told_apart(&app, &screen, 9);
        act(&mut app, &[pane_key(3), Char('E')]);
        let screen = text(&render(&app));
        insta::assert_snapshot!(format!("alike-tree-{w}x{h}"), screen);
        assert_told_apart(&app, &screen, 9);
    }
    // At 80 columns the three `Intersect`s keep their class or their start.
    let app = alike_names(80, 24);
    let screen = text(&render(&app));
    for told in ["Sphere.…", "Box.…", "Raytracer.…IPrimitive"] {
        assert!(screen.contains(told), "{told}:\n{screen}");
    }
}

/// A wide window gives the names its room: the Functions table's names of
/// a real VS call tree whole at 200 columns, the Call tree's numbers
/// beside its names, not across the screen.
#[test]
fn a_wide_window_gives_the_names_room() {
    let longest = "Raytracer.Primitives.Sphere.Raytracer.Primitives.IPrimitive.Intersect(class Raytracer.Ray&,bool&)";
    walk_sizes("functions-wide-names", &vs_tree, &[]);
    let app = vs_tree(200, 60);
    let screen = text(&render(&app));
    assert!(screen.contains(longest), "{screen}");
    walk_sizes("tree-wide-names", &vs_tree, &[pane_key(3), Char('E')]);
    let app = {
        let mut app = vs_tree(200, 60);
        act(&mut app, &[pane_key(3), Char('E')]);
        app
    };
    let screen = text(&render(&app));
    let row = screen
        .lines()
        .find(|l| l.contains(longest))
        .expect("the longest name whole");
    // The name's end is a few columns from its total.
    let end = row.find(longest).map_or(0, |at| at + longest.len());
    let gap = row[end..].chars().take_while(|&c| c == ' ').count();
    assert!(
        gap < 16,
        "{gap} columns between the name and its numbers:\n{row}"
    );
}

/// A trace whose lines call functions of long names: the Lines pane's
/// `Called` takes the room a wide window has; the events' ops say what
/// they are on the frame.
fn long_calls(w: u16, h: u16) -> App {
    let trace = [
        r#"1,0.0,"i","MAIN",1"#,
        r#"1,1.0,"i","PRICING:CALCULATEDISCOUNTFORCUSTOMERORDER",20"#,
        r#"1,3.0,"o","PRICING:CALCULATEDISCOUNTFORCUSTOMERORDER""#,
        r#"1,4.0,"i","INVENTORY:RESERVESTOCKFORPENDINGORDERLINES",20"#,
        r#"1,9.0,"o","INVENTORY:RESERVESTOCKFORPENDINGORDERLINES""#,
        r#"1,10.0,"i","SHIPPING:SCHEDULEDELIVERYWITHPREFERREDCARRIER",20"#,
        r#"1,11.0,"o","SHIPPING:SCHEDULEDELIVERYWITHPREFERREDCARRIER""#,
        r#"1,12.0,"i","BILLING:WRITEINVOICEANDPOSTTOGENERALLEDGER",70"#,
        r#"1,15.0,"o","BILLING:WRITEINVOICEANDPOSTTOGENERALLEDGER""#,
        r#"1,16.0,"o","MAIN""#,
    ]
    .join("\n");
    let input = crate::load::Input::owned("long-calls.prf", trace.into_bytes());
    let opts = crate::load::LoadOptions::default();
    let p = crate::load::load_inputs(&[input], &opts).expect("the trace loads");
    app_of(p, "long-calls.prf", w, h)
}

#[test]
fn a_traces_calls_take_the_room_and_its_ops_are_named() {
    walk_sizes("lines-long-calls", &long_calls, &[pane_key(1)]);
    let mut app = long_calls(200, 60);
    act(&mut app, &[pane_key(1)]);
    let screen = text(&render(&app));
    for name in [
        "PRICING:CALCULATEDISCOUNTFORCUSTOMERORDER",
        "INVENTORY:RESERVESTOCKFORPENDINGORDERLINES",
        "SHIPPING:SCHEDULEDELIVERYWITHPREFERREDCARRIER",
    ] {
        let row = screen
            .lines()
            .find(|l| l.contains("MAIN ") && l.contains(" 20 "));
        assert!(
            row.is_some_and(|r| r.contains(name)),
            "{name} whole:\n{screen}"
        );
    }
    walk_sizes(
        "events-long-calls",
        &long_calls,
        &[pane_key(5), Enter, Down],
    );
    let mut app = long_calls(80, 24);
    act(&mut app, &[pane_key(5), Enter]);
    let screen = text(&render(&app));
    assert!(screen.contains(" Op "), "{screen}");
    assert!(
        screen.contains("Op: i about to enter · I entered · O about to return · o returned"),
        "{screen}"
    );
}

/// At 120×35 a short table leaves its empty rows to the split under it:
/// the butterfly shows every caller and callee of `(main)`'s callee.
#[test]
fn a_short_table_gives_its_rows_to_the_split() {
    let app = alike_names(120, 35);
    let a = app.areas();
    assert_eq!(crate::tui::layout::table_rows(a.table), 9);
    let screen = text(&render(&app));
    assert!(!screen.contains("more"), "nothing left out:\n{screen}");
    walk_sizes("split-of-a-short-table", &demo, &[Down]);
}
