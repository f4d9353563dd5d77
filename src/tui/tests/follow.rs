//! Issue 68: an update of a followed trace keeps the user's place, found
//! again by identity: a table's sort, search and function; a tree's open
//! rows and cursor row; the flame graph's zoom and selected frame.

use super::{Press, app_of, run, selected_name};
use crate::analysis::query::Answer;
use crate::load::{Input, LoadOptions, load_inputs};
use crate::model::Profile;
use crate::tui::Pane;
use std::sync::Arc;

/// A generated trace's first `part` of lines, and the whole, as the app
/// loads a trace.
fn before_and_after() -> (Profile, Profile) {
    let bytes = crate::fixture_gen::large::bytes(crate::fixture_gen::large::Spec {
        kind: crate::fixture_gen::large::Format::Deldbe,
        bytes: 40_000,
        names: 12,
        shape: Default::default(),
    });
    let cut = bytes[..bytes.len() / 2]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    let load = |b: &[u8]| {
        let opts = LoadOptions {
            timeline: true,
            ..Default::default()
        };
        load_inputs(&[Input::owned("T.PRF", b.to_vec())], &opts).expect("loads")
    };
    (load(&bytes[..cut]), load(&bytes))
}

fn update(app: &mut crate::tui::App, p: Profile) {
    app.take_followed(Answer::whole(Arc::new(p)));
}

#[test]
fn a_tables_sort_search_and_function_stay() {
    let (before, after) = before_and_after();
    let mut app = app_of(before, "T.PRF", 120, 30);
    run(&mut app, &[Press::Char('s'), Press::Rows(3)]);
    let name = selected_name(&app);
    let Pane::Table(t) = app.pane() else {
        panic!("the Functions table")
    };
    let sort = t.sort;
    update(&mut app, after);
    let Pane::Table(t) = app.pane() else {
        panic!("the Functions table")
    };
    assert_eq!(t.sort, sort);
    assert_eq!(selected_name(&app), name);
}

#[test]
fn a_trees_open_rows_and_cursor_stay() {
    let (before, after) = before_and_after();
    let mut app = app_of(before, "T.PRF", 120, 30);
    run(
        &mut app,
        &[Press::Char('4'), Press::Rows(2), Press::Right, Press::Down],
    );
    let path = |app: &crate::tui::App| {
        let Pane::Tree(t) = app.pane() else {
            panic!("the Call tree")
        };
        let p = app.profile();
        let open = t.tree.open_paths(p);
        let at = t.tree.path_of(p, t.tree.rows[t.cursor].id);
        (open, at)
    };
    let (open, at) = path(&app);
    assert!(
        open.iter().any(|o| o.len() == 2),
        "a row below a root opened: {open:?}"
    );
    update(&mut app, after);
    let (open_after, at_after) = path(&app);
    assert_eq!(at_after, at);
    for o in &open {
        assert!(open_after.contains(o), "{o:?} open again: {open_after:?}");
    }
}

#[test]
fn the_flames_zoom_stays() {
    let (before, after) = before_and_after();
    let mut app = app_of(before, "T.PRF", 120, 30);
    run(&mut app, &[Press::Char('5'), Press::Down, Press::Enter]);
    let zoomed = |app: &crate::tui::App| {
        let Some(f) = app.pane().as_flame() else {
            panic!("the Flame pane")
        };
        let p = app.profile();
        let zoom: Vec<Vec<String>> = f.zoom.iter().map(|&z| f.tree.path_of(p, z)).collect();
        (zoom, f.selected.map(|s| f.tree.path_of(p, s)))
    };
    let (zoom, selected) = zoomed(&app);
    assert!(!zoom.is_empty(), "zoomed");
    update(&mut app, after);
    assert_eq!(zoomed(&app), (zoom, selected));
}

/// A pane drilled down to (a function's stacks, opened from Functions)
/// is opened again on the update: the same function's, under the same
/// tab, in the same sort; `Backspace` goes back to the Functions root.
#[test]
fn a_pane_drilled_down_to_stays() {
    let (before, after) = before_and_after();
    let mut app = app_of(before, "T.PRF", 120, 30);
    run(&mut app, &[Press::Rows(2)]);
    let name = selected_name(&app);
    run(&mut app, &[Press::Enter, Press::Char('s')]);
    let Pane::Table(t) = app.pane() else {
        panic!("a function's stacks")
    };
    let (table, sort) = (t.table, t.sort);
    let about = |app: &crate::tui::App| match app.pane() {
        Pane::Table(t) => match t.within {
            crate::tui::pane::Within::Function(f) => app.profile().function_name(f).to_string(),
            other => panic!("not one function's: {other:?}"),
        },
        _ => panic!("not a table"),
    };
    assert_eq!(about(&app), name);
    let tab = app.pane().tab();
    update(&mut app, after);
    let Pane::Table(t) = app.pane() else {
        panic!("a function's stacks")
    };
    assert_eq!((t.table, t.sort), (table, sort));
    assert_eq!(about(&app), name);
    assert_eq!(app.pane().tab(), tab);
    run(&mut app, &[Press::Backspace]);
    let Pane::Table(t) = app.pane() else {
        panic!("the Functions table")
    };
    assert_eq!(t.table, crate::analysis::view::Table::Functions);
    assert_eq!(selected_name(&app), name);
}

/// A tab left for another keeps its place across an update, as the tab on
/// screen does: back on Functions, the same sort and function.
#[test]
fn a_tab_left_keeps_its_place() {
    let (before, after) = before_and_after();
    let mut app = app_of(before, "T.PRF", 120, 30);
    run(
        &mut app,
        &[Press::Char('s'), Press::Char('s'), Press::Rows(3)],
    );
    let name = selected_name(&app);
    let Pane::Table(t) = app.pane() else {
        panic!("the Functions table")
    };
    let sort = t.sort;
    run(&mut app, &[super::pane_key(3)]);
    assert!(matches!(app.pane(), Pane::Tree(_)), "the Call tree");
    update(&mut app, after);
    run(&mut app, &[super::pane_key(0)]);
    let Pane::Table(t) = app.pane() else {
        panic!("the Functions table")
    };
    assert_eq!(t.sort, sort);
    assert_eq!(selected_name(&app), name);
}

/// A packet's events with the cursor on the last follow the trace's end
/// across an update, as `tail -F` does; one elsewhere stays on its event.
#[test]
fn the_events_cursor_stays_or_follows_the_end() {
    let (before, after) = before_and_after();
    let (_, again) = before_and_after();
    let total = after.packets()[0].events.len();
    let mut app = app_of(before, "T.PRF", 120, 30);
    run(&mut app, &[super::pane_key(5), Press::Enter, Press::End]);
    let Pane::Table(t) = app.pane() else {
        panic!("a packet's events")
    };
    assert!(t.is_events());
    update(&mut app, after);
    let Pane::Table(t) = app.pane() else {
        panic!("a packet's events")
    };
    assert!(t.is_events(), "the events are opened again");
    assert_eq!(
        t.selected(),
        Some(total as u32 - 1),
        "on the new last event"
    );
    run(&mut app, &[Press::Home, Press::Rows(5)]);
    update(&mut app, again);
    let Pane::Table(t) = app.pane() else {
        panic!("a packet's events")
    };
    assert_eq!(t.selected(), Some(5), "on the same event");
}

/// The Timeline zoomed in stays zoomed on the same stretch.
#[test]
fn the_timelines_zoom_stays() {
    let (before, after) = before_and_after();
    let mut app = app_of(before, "T.PRF", 120, 30);
    run(
        &mut app,
        &[super::pane_key(7), Press::Char('+'), Press::Char('+')],
    );
    let Pane::Timeline(t) = app.pane() else {
        panic!("the Timeline")
    };
    let window = t.window;
    assert!(window != t.run, "zoomed in");
    update(&mut app, after);
    let Pane::Timeline(t) = app.pane() else {
        panic!("the Timeline")
    };
    assert_eq!(t.window, window);
}
