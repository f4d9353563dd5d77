//! The Flame pane's keys of issue 64, one test a key: `s` (children by
//! name or heaviest first) and `^` (icicle or flame graph), each kept for
//! the rest of the run; zooming keeping the ancestors; the time order's
//! selection always in sight, and its `s` and `^` saying where they work.

use super::Press::*;
use super::{app_of, busy_trace, demo, pane_key};
use super::{run, selected_name};
use crate::analysis::flame_view::Order;
use crate::tui::app::App;
use crate::tui::intent::Intent;

/// The names of a layout row's frames, left to right (`…` for thin ones).
fn row_names(app: &App, row: usize) -> Vec<String> {
    let f = app.flame();
    let layout = f.layout(&app.cx());
    let p = app.profile();
    layout.rows[row]
        .iter()
        .map(|b| {
            b.node
                .map_or("…".into(), |n| f.tree.func(n).name(p).to_string())
        })
        .collect()
}

/// `s`: each frame's children heaviest first, then by name again; the
/// order is the app's, so a new query's Flame pane and another tab's
/// visit keep it.
#[test]
fn s_orders_children_heaviest_first_for_the_run() {
    let mut app = demo(120, 40);
    run(&mut app, &[pane_key(4)]);
    let by_name = row_names(&app, 1);
    assert_eq!(by_name[0], "(gosub)", "by name first");
    run(&mut app, &[Char('s')]);
    assert_eq!(app.cx().flame.order, Order::Heaviest);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("heaviest first"), "{said}");
    let heavy = row_names(&app, 1);
    assert_eq!(heavy[0], "FNPRICE", "the heaviest callee of (main) first");
    assert!(heaviest_first(&app, 1));
    // ↓ still goes to the heaviest callee, now the leftmost.
    run(&mut app, &[Down]);
    assert_eq!(selected_name(&app), "FNPRICE");
    // A query step makes a new pane: the order stays.
    run(&mut app, &[Char('x')]);
    assert_eq!(app.cx().flame.order, Order::Heaviest);
    assert!(heaviest_first(&app, 1), "the new pane's too");
    run(&mut app, &[pane_key(0), pane_key(4)]);
    assert_eq!(app.cx().flame.order, Order::Heaviest, "kept across tabs");
    run(&mut app, &[Char('s')]);
    assert_eq!(app.cx().flame.order, Order::ByName);
}

/// Whether a layout row's frames go from the heaviest down.
fn heaviest_first(app: &App, row: usize) -> bool {
    let f = app.flame();
    let layout = f.layout(&app.cx());
    let weights: Vec<f64> = layout.rows[row]
        .iter()
        .filter_map(|b| b.node)
        .map(|n| f.tree.weight(n))
        .collect();
    weights.len() > 1 && weights.windows(2).all(|w| w[0] >= w[1])
}

/// `^`: a flame graph, the roots at the bottom; ↑ climbs to the heaviest
/// callee (up on the screen), ↓ back to the caller, a click on the bottom
/// row selects the root; kept after a query step; `^` again: an icicle.
#[test]
fn caret_turns_the_icicle_into_a_flame_graph_for_the_run() {
    let mut app = demo(120, 40);
    run(&mut app, &[pane_key(4), Char('^')]);
    assert!(app.cx().flame.flame);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("roots at the bottom"), "{said}");
    let area = app.flame().area(&app.cx());
    assert_eq!(
        app.flame().screen_row(&app.cx(), 0),
        Some(area.bottom() - 1),
        "the root's row at the bottom"
    );
    assert_eq!(selected_name(&app), "(main)");
    run(&mut app, &[Up]);
    assert_eq!(selected_name(&app), "FNPRICE", "↑: the heaviest callee");
    run(&mut app, &[Down]);
    assert_eq!(selected_name(&app), "(main)", "↓: the caller");
    run(&mut app, &[Up]);
    let click = Intent::Click {
        x: area.x + 1,
        y: area.bottom() - 1,
    };
    run(&mut app, &[Do(click)]);
    assert_eq!(selected_name(&app), "(main)", "the bottom row is the root");
    run(&mut app, &[Up, Char('x')]);
    assert!(app.cx().flame.flame, "kept after a query step");
    run(&mut app, &[Char('^')]);
    assert!(!app.cx().flame.flame);
    assert_eq!(
        app.flame().screen_row(&app.cx(), 0),
        Some(area.y),
        "an icicle again: the root on top"
    );
}

/// In a sandwich `^` is kept for when it is left: the sandwich keeps its
/// callers above the function.
#[test]
fn caret_in_a_sandwich_waits_for_it_to_be_left() {
    let mut app = demo(120, 40);
    run(&mut app, &[pane_key(4), Down, Char('f'), Char('^')]);
    assert!(app.cx().flame.flame);
    assert!(!app.flame().flipped(&app.cx()), "the sandwich as it was");
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("once the sandwich is left"), "{said}");
    run(&mut app, &[Char('f')]);
    assert!(app.flame().flipped(&app.cx()));
}

/// Enter zooms and keeps the ancestors above the zoomed frame, each the
/// full width; ↑ from it goes to its caller, drawn there.
#[test]
fn zooming_keeps_the_ancestors_above() {
    let mut app = demo(120, 40);
    run(&mut app, &[pane_key(4), Down, Down, Enter]);
    let zoomed = selected_name(&app);
    let names: Vec<String> = (0..3).map(|r| row_names(&app, r)[0].clone()).collect();
    assert_eq!(names, ["(main)", "FNPRICE", zoomed.as_str()]);
    let width = app.flame().area(&app.cx()).width;
    let layout = app.flame().layout(&app.cx());
    assert!(layout.rows[..3].iter().all(|r| r[0].width == width));
    run(&mut app, &[Up]);
    assert_eq!(selected_name(&app), "FNPRICE", "its caller, above it");
    run(&mut app, &[Esc]);
    assert!(app.flame().zoom.is_empty());
}

/// In time order, `s` and `^` do nothing and say they are the flame
/// graph's.
#[test]
fn s_and_caret_in_time_order_say_where_they_work() {
    let mut app = app_of(busy_trace(), "busy.prf", 120, 35);
    run(&mut app, &[pane_key(4), Char('t')]);
    assert!(app.flame().in_chart());
    for key in ['s', '^'] {
        run(&mut app, &[Char(key)]);
        let said = app.status.clone().unwrap_or_default();
        assert!(said.contains("as they ran"), "{key}: {said}");
        assert_eq!(app.cx().flame, Default::default(), "nothing changed");
    }
}

/// The time order on a busy thread: ↓ to the first customer's load, → to
/// the check after it (far thinner than a cell): each selected call is in
/// sight, a box or its `…` cell drawn as selected.
#[test]
fn the_selected_call_is_always_in_sight() {
    let mut app = app_of(busy_trace(), "busy.prf", 80, 24);
    run(&mut app, &[pane_key(4), Char('t'), Down]);
    assert_eq!(selected_name(&app), "CUSTOMER:LOAD");
    assert!(selection_drawn(&app));
    run(&mut app, &[Right]);
    assert_eq!(selected_name(&app), "ORDERS:VALIDATEPADR");
    assert!(selection_drawn(&app), "a thin call's cell");
    run(&mut app, &[Right, Right]);
    assert!(selection_drawn(&app));
}

/// Whether a cell of the screen is drawn as the selected frame (white, in
/// colour).
fn selection_drawn(app: &App) -> bool {
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(
        app.size.width,
        app.size.height,
    ))
    .expect("a test terminal");
    t.draw(|f| crate::tui::render::draw(f, app)).expect("draws");
    let area = app.flame().chart.area(&app.cx());
    let buf = t.backend().buffer();
    (area.y..area.bottom())
        .any(|y| (area.x..area.right()).any(|x| buf[(x, y)].bg == ratatui::style::Color::White))
}
