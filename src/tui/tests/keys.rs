//! What a key does in each pane, pressed through the keymap: the keys the
//! panes share (`t`, `T`, `f`, `/`, Esc), the keys that explain where they
//! do nothing, and the cursor kept on screen whatever happened.

use super::Press::{self, *};
use super::run;
use super::{Scope, app_of, demo, fixture, pane_key};
use crate::tui::app::{App, Mode};
use crate::tui::keymap::{self, Place};
use crate::tui::pane::Focus;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

/// Down until the selection has a function.
fn to_a_function(app: &mut App) {
    for _ in 0..50 {
        if app.selected_function().is_some() {
            return;
        }
        app.press(Down);
    }
    panic!("no row with a function");
}

fn trace(w: u16, h: u16) -> App {
    app_of(fixture("xpp/orders-run.prf"), "orders-run.prf", w, h)
}

/// `t` shows the selected function in the call tree from every pane that
/// has one (Lines, events, the tree itself, a stack's frames); the Flame
/// pane keeps `t` for its time order and `T` for this.
#[test]
fn t_shows_the_function_in_the_tree_from_every_pane() {
    let mut app = app_of(super::fixture_timed("xpp/orders-run.prf"), "t", 120, 40);
    run(&mut app, &[pane_key(1)]);
    to_a_function(&mut app);
    run(&mut app, &[Char('t')]);
    assert!(
        matches!(app.scope(), Scope::Tree(Some(_))),
        "{:?}",
        app.scope()
    );
    run(&mut app, &[pane_key(5), Enter, Down, Char('t')]);
    assert!(matches!(app.scope(), Scope::Tree(Some(_))), "from an event");
    run(&mut app, &[pane_key(2), Enter, Char('t')]);
    assert!(matches!(app.scope(), Scope::Tree(Some(_))), "from a frame");
    run(&mut app, &[pane_key(3), Down, Char('t')]);
    assert!(matches!(app.scope(), Scope::Tree(Some(_))), "from the tree");
    assert!(app.history.len() > 1, "a step of its own");
    run(&mut app, &[pane_key(4), Char('t')]);
    assert!(
        app.flame().in_chart(),
        "t turns the Flame pane to time order"
    );
    run(&mut app, &[Char('T')]);
    assert!(matches!(app.scope(), Scope::Tree(Some(_))));
}

/// On a caller, callee or frame of the split, `t`, `f` and `y` act on
/// that function, not the table's row.
#[test]
fn keys_on_a_list_of_the_split_act_on_its_function() {
    let mut app = demo(120, 40);
    run(&mut app, &[Down, Down, Char('c')]);
    let Focus::Callers(_) = app.table().focus else {
        panic!("in the callers")
    };
    to_a_function(&mut app);
    let row = app.table().row_function(&app.cx());
    let caller = app.selected_function().expect("a caller");
    assert_ne!(Some(caller), row);
    run(&mut app, &[Char('y')]);
    assert_eq!(
        app.clipboard.as_deref(),
        Some(app.profile().function_name(caller))
    );
    run(&mut app, &[Char('t')]);
    assert_eq!(app.scope(), Scope::Tree(Some(caller)));
}

/// Esc cancels a running export in every pane: while one writes, the
/// keymap's first place is the export's.
#[test]
fn esc_cancels_an_export_in_any_pane() {
    let esc = Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
    for pane in [Place::Flame, Place::Chart, Place::Lists, Place::Functions] {
        let places = [Place::Exporting, pane, Place::Everywhere];
        assert_eq!(
            keymap::intent(&Mode::Normal, &places, &esc),
            Some(crate::tui::intent::Intent::Cancel),
            "{pane:?}"
        );
    }
}

/// `/` from a list of the split puts the keyboard back on the table's
/// rows, which the search filters.
#[test]
fn search_from_a_list_goes_to_the_rows() {
    let mut app = demo(120, 40);
    run(&mut app, &[Char('c'), Char('/')]);
    assert_eq!(app.table().focus, Focus::Table);
    run(&mut app, &[Char('f'), Char('n'), Enter, Down]);
    assert_eq!(app.cursor(), 1.min(app.table().rows.len() - 1));
}

/// Whatever changed while the pane was not listening (a resize under the
/// help, on another tab, before going back), its cursor's row is on
/// screen when it shows again.
#[test]
fn the_cursor_stays_on_screen_after_a_resize_anywhere() {
    let resize = |w, h| {
        Do(crate::tui::intent::Intent::Resize {
            width: w,
            height: h,
        })
    };
    let on_screen = |app: &App| {
        let t = app.table();
        let page = t.page(&app.cx());
        assert!(t.cursor >= t.offset && t.cursor < t.offset + page, "{t:?}");
    };
    let mut app = app_of(fixture("xpp/orders-run.prf"), "t", 120, 60);
    run(&mut app, &[pane_key(1), End]);
    run(&mut app, &[Char('?'), resize(80, 24), Esc]);
    on_screen(&app);
    run(
        &mut app,
        &[
            resize(120, 60),
            End,
            pane_key(0),
            resize(80, 24),
            pane_key(1),
        ],
    );
    on_screen(&app);
    run(&mut app, &[resize(120, 60), End, Char('l')]);
    let mut app = app_of(fixture("xpp/orders-run.prf"), "t", 120, 60);
    run(&mut app, &[End, Enter, resize(80, 24), Backspace]);
    on_screen(&app);
    let mut app = app_of(fixture("xpp/orders-run.prf"), "t", 120, 60);
    run(&mut app, &[pane_key(6), End, resize(80, 24)]);
    let body = crate::tui::layout::list_rows(app.areas().table);
    let Some(info) = app.pane().as_info() else {
        panic!("Info is on screen")
    };
    assert!(info.cursor < info.offset + body, "{info:?}");
}

/// The Flame pane of a profile without call paths: Esc clears the search
/// and goes back as elsewhere; `f` says there is no sandwich and changes
/// nothing.
#[test]
fn the_flame_without_call_paths_goes_back_and_refuses_a_sandwich() {
    let mut app = app_of(fixture("vs-csv/percents-only.csv"), "p", 120, 40);
    run(&mut app, &[pane_key(4), Char('/'), Char('a'), Enter]);
    assert_eq!(app.filter(), "a");
    run(&mut app, &[Esc]);
    assert_eq!(app.filter(), "", "Esc clears the kept search at the start");
    run(&mut app, &[pane_key(0), Char('f')]);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("no call paths"), "{said}");
    assert_eq!(app.flame_filters(), None, "no sandwich in any header");
}

/// `f` from another pane shows the sandwich even when the Flame tab was
/// left on a step of its own (`T` from it).
#[test]
fn f_from_a_pane_opens_the_sandwich_in_the_flame_tab() {
    let mut app = demo(120, 40);
    run(
        &mut app,
        &[pane_key(4), Down, Char('T'), pane_key(0), Down, Char('f')],
    );
    let f = app.selected_function();
    assert_eq!(app.scope(), Scope::Flame);
    assert!(app.flame().sandwich.is_some() && f == app.flame().sandwich);
}

/// A key that does nothing in a pane says where it works.
#[test]
fn keys_that_do_nothing_here_say_where_they_work() {
    let cases: &[(&[Press], Press, &str)] = &[
        (&[pane_key(5), Enter], Char('s'), "trace order"),
        (&[pane_key(5), Enter], Char('>'), "call node"),
        (&[pane_key(0)], Char('M'), "call node"),
        (&[pane_key(6)], Char('s'), "nothing to sort"),
        (&[pane_key(6)], Char('/'), "nothing to search"),
        (&[pane_key(6)], Char('n'), "nothing to search"),
        (&[pane_key(6)], Char('e'), "no table"),
        (&[pane_key(1)], Char('c'), "Functions"),
        (&[pane_key(1)], Char('*'), "Call tree"),
    ];
    for (to, key, says) in cases {
        let mut app = trace(120, 40);
        run(&mut app, to);
        app.press(key.clone());
        let said = app.status.clone().unwrap_or_default();
        assert!(said.contains(says), "{key:?} after {to:?}: {said:?}");
    }
}

/// In time order, the node keys say where call nodes are, and change
/// nothing.
#[test]
fn node_keys_in_time_order_say_where_call_nodes_are() {
    let mut app = app_of(
        super::fixture_timed("xpp/two-threads.prf"),
        "two-threads.prf",
        120,
        40,
    );
    run(&mut app, &[pane_key(4), Char('t')]);
    assert!(app.flame().in_chart());
    for k in ['M', '>'] {
        app.press(Char(k));
        let said = app.status.clone().unwrap_or_default();
        assert!(said.contains("call node"), "{k}: {said}");
        assert!(app.query.is_whole());
    }
}

/// Reopening the search shows what it holds: the tree's marked share,
/// the flame's (in time order too).
#[test]
fn reopening_a_search_says_what_it_holds() {
    let mut app = trace(120, 40);
    run(
        &mut app,
        &[pane_key(3), Char('/'), Char('r'), Enter, Char('/')],
    );
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("match"), "{said}");
    let mut app = app_of(super::fixture_timed("xpp/orders-run.prf"), "t", 120, 40);
    run(&mut app, &[pane_key(4), Char('t'), Char('/'), Char('r')]);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.starts_with("matches hold"), "{said}");
    run(&mut app, &[Enter, Char('/')]);
    assert!(
        app.status
            .clone()
            .unwrap_or_default()
            .starts_with("matches hold")
    );
}

/// After a search that matched no node, `n` says so (not "no search").
#[test]
fn n_after_a_search_without_matches() {
    let mut app = trace(120, 40);
    run(
        &mut app,
        &[
            pane_key(3),
            Char('/'),
            Char('q'),
            Char('z'),
            Enter,
            Char('n'),
        ],
    );
    assert_eq!(app.status.as_deref(), Some("no node matches"));
}

/// A click on an Info line selects that line.
#[test]
fn a_click_selects_an_info_line() {
    let mut app = demo(80, 24);
    run(&mut app, &[pane_key(6)]);
    let body = crate::tui::pane::inner(app.areas().table);
    app.press(Do(crate::tui::intent::Intent::Click {
        x: body.x + 2,
        y: body.y + 3,
    }));
    assert_eq!(app.cursor(), 3);
}

/// `s` in a table the profile has no rows of (no column to sort by) says
/// so; it used to index an empty list of columns.
#[test]
fn sorting_a_table_without_rows_says_so() {
    let mut app = app_of(fixture("vs-csv/function-summary.csv"), "f", 120, 40);
    for pane in [1, 2, 5] {
        run(&mut app, &[pane_key(pane), Char('s'), Char('S'), Char('r')]);
        assert_eq!(app.table().rows.len(), 0);
    }
    run(&mut app, &[pane_key(1), Char('s')]);
    assert_eq!(app.status.as_deref(), Some("nothing to sort here"));
}

/// The Call tree's title names its sort as its columns do: bottom-up, the
/// total column is the self weight, and there is no other self column.
#[test]
fn the_tree_names_its_sort_as_its_columns() {
    let mut app = demo(120, 40);
    run(&mut app, &[pane_key(3)]);
    let title = |app: &App| {
        let t = app.tree();
        format!("{} {}", t.sort_name(app.profile()), t.sortable().len())
    };
    assert_eq!(title(&app), "total 4");
    run(&mut app, &[Char('i')]);
    assert_eq!(title(&app), "self 3");
    run(&mut app, &[Char('s')]);
    assert_eq!(app.tree().sort_name(app.profile()), "samples");
}

/// `l` on a caller shows that caller's lines, as `t` and `f` take it.
#[test]
fn l_on_a_caller_shows_its_lines() {
    let mut app = demo(120, 40);
    run(&mut app, &[Down, Down, Char('c')]);
    to_a_function(&mut app);
    let caller = app.selected_function();
    run(&mut app, &[Char('l')]);
    assert_eq!(app.scope(), Scope::Lines(caller));
}

/// In a sandwich, `f` leaves it, whichever frame is selected: a callee
/// below the function, or a caller above it (Enter makes a caller's
/// sandwich).
#[test]
fn f_in_a_sandwich_always_leaves_it() {
    let mut app = demo(120, 40);
    run(&mut app, &[pane_key(4), Down, Char('f')]);
    assert!(app.flame().sandwich.is_some());
    run(&mut app, &[Down, Char('f')]);
    assert_eq!(app.flame().sandwich, None, "from a callee");
    run(&mut app, &[Down, Char('f'), Up, Up]);
    assert!(
        app.flame().caller_selected().is_some(),
        "on the callers' side"
    );
    run(&mut app, &[Char('f')]);
    assert_eq!(app.flame().sandwich, None, "from a caller");
}

/// `e` in the Call tree and the Flame pane writes the paths shown as
/// folded stacks beside the input: the whole tree, then the flame zoomed
/// into a frame (its path kept, only what is under it), then a search's
/// paths; the weights add up to what the pane shows, in µs.
#[test]
fn e_writes_the_paths_shown_as_folded_stacks() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut app = demo(120, 40);
    app.export_base = dir.path().join("orders.prof");
    let read = |name: &str| {
        let text = std::fs::read_to_string(dir.path().join(name)).expect("written");
        let lines: Vec<(String, u64)> = text
            .lines()
            .map(|l| {
                let (path, n) = l.rsplit_once(' ').expect("path and weight");
                (path.to_string(), n.parse().expect("a weight"))
            })
            .collect();
        lines
    };
    run(&mut app, &[pane_key(3), Char('e')]);
    let tree = read("orders.prof.tree.folded");
    let total: u64 = tree.iter().map(|l| l.1).sum();
    assert_eq!(total, 2_337_474, "the session in µs");
    assert!(app.status.as_deref().is_some_and(|s| s.contains("folded")));
    // The flame zoomed on FNPRICE (the heaviest callee of the root).
    run(&mut app, &[pane_key(4), Down, Enter, Char('e')]);
    let zoomed = read("orders.prof.flame.folded");
    assert!(
        zoomed
            .iter()
            .all(|(p, _)| p.starts_with("ORDERS.BR!(main);")),
        "{zoomed:?}"
    );
    assert!(
        zoomed.iter().all(|(p, _)| p.contains("FNPRICE")),
        "{zoomed:?}"
    );
    assert_eq!(zoomed.iter().map(|l| l.1).sum::<u64>(), 786_262);
    // A search keeps the paths through a matching frame.
    run(
        &mut app,
        &[
            Esc,
            Char('/'),
            Char('t'),
            Char('a'),
            Char('x'),
            Enter,
            Char('e'),
        ],
    );
    let found = read("orders.prof.flame-2.folded");
    assert!(
        !found.is_empty() && found.iter().all(|(p, _)| p.contains("FNTAX")),
        "{found:?}"
    );
}
