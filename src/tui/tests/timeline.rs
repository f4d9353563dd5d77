//! The Timeline pane (issue 65): its screens at 80×24 and 120×35 (without
//! colour, so the shading's glyphs show in the text), and its keys, one
//! test a key: the cursor, zooming around it, panning, the lanes, a range
//! marked and asked (`App::ask_range`), a profile with no times.

use super::Press::*;
use super::screens::{render, text};
use super::{busy_trace, demo, fixture, fixture_timed, pane_key, run};
use crate::model::Profile;
use crate::tui::app::App;
use crate::tui::intent::Intent;
use crate::tui::pane::TimelinePane;
use ratatui::layout::Rect;

/// The Timeline's number key, from 0.
const TIMELINE: usize = 7;

/// The app on `p`'s Timeline, without colour.
fn on_timeline(p: Profile, title: &str, w: u16, h: u16) -> App {
    let mut app = App::new(p, title, Rect::new(0, 0, w, h), false);
    run(&mut app, &[pane_key(TIMELINE)]);
    app
}

fn timeline(app: &App) -> &TimelinePane {
    app.pane().as_timeline().expect("the Timeline is on screen")
}

fn said(app: &App) -> String {
    app.status.clone().unwrap_or_default()
}

fn screen(app: &App) -> String {
    text(&render(app))
}

/// A lane a thread, labelled `thread ID`, shaded and named; the cursor's
/// time and function on the last line; at both sizes, on the fixture's
/// run and on a busy trace of 82,000 calls.
#[test]
fn the_timeline_draws_a_lane_a_thread() {
    for (w, h) in [(80, 24), (120, 35)] {
        let app = on_timeline(fixture_timed("xpp/orders-run.prf"), "orders-run.prf", w, h);
        insta::assert_snapshot!(format!("timeline-orders-{w}x{h}"), screen(&app));
        let app = on_timeline(busy_trace(), "busy.prf", w, h);
        insta::assert_snapshot!(format!("timeline-busy-{w}x{h}"), screen(&app));
    }
}

/// Zoomed in, the cursor moved and a range marked: the window in the
/// title, the range on the axis, what ran under the cursor.
#[test]
fn the_timeline_zoomed_with_a_range_marked() {
    for (w, h) in [(80, 24), (120, 35)] {
        let mut app = on_timeline(busy_trace(), "busy.prf", w, h);
        run(&mut app, &[End, Char('+'), Char('+'), Char('v')]);
        for _ in 0..6 {
            app.press(Left);
        }
        app.press(Char('v'));
        insta::assert_snapshot!(format!("timeline-zoomed-{w}x{h}"), screen(&app));
    }
}

/// `←`/`→` move the cursor a cell; `Home`/`End` to the run's ends; the
/// status line says the time under it and what ran there.
#[test]
fn arrows_move_the_cursor_along_the_run() {
    let mut app = on_timeline(fixture_timed("xpp/orders-run.prf"), "o", 80, 24);
    let t = timeline(&app);
    let (run0, run1) = t.run;
    assert_eq!(t.cursor, run0);
    let dx = t.cell(&app.cx());
    app.press(Right);
    app.press(Right);
    assert!((timeline(&app).cursor - (run0 + 2.0 * dx)).abs() < 1e-9);
    app.press(Left);
    assert!((timeline(&app).cursor - (run0 + dx)).abs() < 1e-9);
    app.press(Char('l'));
    assert!((timeline(&app).cursor - (run0 + 2.0 * dx)).abs() < 1e-9);
    app.press(End);
    assert_eq!(timeline(&app).cursor, run1);
    app.press(Right);
    assert_eq!(timeline(&app).cursor, run1, "no further than the run");
    app.press(Home);
    assert_eq!(timeline(&app).cursor, run0);
    // On thread 1 at 0 ms: MAIN.
    let last = screen(&app).lines().nth(21).unwrap_or_default().to_string();
    assert!(last.contains("0.000 ms · thread 1: mostly MAIN"), "{last}");
}

/// `+` halves the window around the cursor, which keeps its place on
/// screen; `-` doubles it, up to the whole run, then says so.
#[test]
fn plus_and_minus_zoom_around_the_cursor() {
    let mut app = on_timeline(busy_trace(), "busy.prf", 80, 24);
    for _ in 0..30 {
        app.press(Right);
    }
    let before = timeline(&app).cell_of(timeline(&app).cursor, &app.cx());
    let (a, b) = timeline(&app).window;
    app.press(Char('+'));
    let t = timeline(&app);
    assert!(((t.window.1 - t.window.0) - (b - a) / 2.0).abs() < 1e-6);
    assert_eq!(
        t.cell_of(t.cursor, &app.cx()),
        before,
        "the cursor stays put"
    );
    assert!(
        screen(&app).contains("(-: out)"),
        "the title says the window"
    );
    app.press(Char('='));
    app.press(Char('-'));
    app.press(Char('-'));
    assert_eq!(timeline(&app).window, timeline(&app).run);
    app.press(Char('-'));
    assert_eq!(said(&app), "the whole run is shown");
}

/// `Shift-→`/`Shift-←` pan the window a quarter of its width, within the
/// run; the cursor stays in the window.
#[test]
fn shift_arrows_pan_the_window() {
    let mut app = on_timeline(busy_trace(), "busy.prf", 80, 24);
    run(&mut app, &[Char('+'), Char('+')]);
    let (a, b) = timeline(&app).window;
    let w = b - a;
    app.press(ShiftRight);
    let t = timeline(&app);
    assert!((t.window.0 - (a + w / 4.0)).abs() < 1e-6, "{:?}", t.window);
    assert!(t.cursor >= t.window.0 && t.cursor <= t.window.1);
    app.press(ShiftLeft);
    app.press(ShiftLeft);
    assert_eq!(
        timeline(&app).window.0,
        timeline(&app).run.0,
        "not before the run"
    );
    for _ in 0..20 {
        app.press(ShiftRight);
    }
    assert_eq!(timeline(&app).window.1, timeline(&app).run.1, "not past it");
}

/// `↑`/`↓` choose the lane the status line speaks of; a click puts the
/// cursor on its cell and lane.
#[test]
fn up_down_and_a_click_choose_the_lane() {
    let mut app = on_timeline(busy_trace(), "busy.prf", 80, 24);
    app.press(Down);
    assert_eq!(timeline(&app).lane, 1);
    assert!(screen(&app).contains("▶ thread 2"));
    app.press(Down);
    assert_eq!(timeline(&app).lane, 1, "the last lane");
    app.press(Up);
    assert_eq!(timeline(&app).lane, 0);
    let area = TimelinePane::area(&app.cx());
    // Thread 2's cells: below the axis and thread 1's two rows, its title.
    app.update(Intent::Click {
        x: area.x + 40,
        y: area.y + 4,
    });
    let t = timeline(&app);
    assert_eq!(t.lane, 1);
    assert_eq!(t.cell_of(t.cursor, &app.cx()), Some(40));
}

/// `v` marks a start, `v` again an end, `Enter` asks the range of the app
/// (`App::ask_range`); `Esc` clears marks, and with none backs out a range
/// (`App::back_out_range`).
#[test]
fn v_v_enter_asks_the_range() {
    let mut app = on_timeline(busy_trace(), "busy.prf", 80, 24);
    run(&mut app, &[Right, Right, Char('v')]);
    assert!(said(&app).starts_with("range from "), "{}", said(&app));
    app.press(Enter);
    assert_eq!(said(&app), "v marks the range's end first");
    run(&mut app, &[Right, Right, Right, Char('v')]);
    assert!(said(&app).contains("Enter asks it"), "{}", said(&app));
    let (a, b) = timeline(&app).marks;
    assert!(a.unwrap() < b.unwrap());
    // Built in memory, this trace keeps no way back to its events: the
    // range is refused with the reason, and the marks are spent.
    app.press(Enter);
    assert!(
        said(&app).contains("no way back to its events"),
        "{}",
        said(&app)
    );
    assert_eq!(timeline(&app).marks, (None, None));
    // Marks cleared by Esc; with none, Esc backs out a range.
    run(&mut app, &[Char('v'), Esc]);
    assert_eq!(said(&app), "the range's marks are cleared");
    app.press(Esc);
    assert!(
        said(&app).starts_with("no range to back out of"),
        "{}",
        said(&app)
    );
    app.press(Enter);
    assert!(
        said(&app).starts_with("no range marked: v marks"),
        "{}",
        said(&app)
    );
}

/// On a trace read from a file, the marks become the query's range: every
/// pane follows it (the crumbs name it), and `Esc` (then `Backspace`)
/// backs it out.
#[test]
fn a_range_marked_on_the_timeline_is_the_querys_and_esc_backs_it_out() {
    let mut app = super::app_of(
        fixture_timed("xpp/two-threads.prf"),
        "two-threads.prf",
        100,
        30,
    );
    run(&mut app, &[pane_key(TIMELINE)]);
    run(&mut app, &[Right, Right, Right, Char('v')]);
    run(
        &mut app,
        &[Right, Right, Right, Right, Right, Right, Char('v')],
    );
    let (a, b) = timeline(&app).marks;
    let (a, b) = (a.unwrap(), b.unwrap());
    app.press(Enter);
    app.settle_query();
    let crumbs = app.query.crumbs();
    assert_eq!(crumbs.len(), 2, "{crumbs:?}");
    let r = app.query.answer().range().expect("a range in effect");
    assert_eq!((r.from_ms, r.until_ms), (a.min(b), a.max(b)));
    // The Timeline opens on it, as the time order does.
    assert_eq!(timeline(&app).window, (r.from_ms, r.until_ms));
    let whole = app.query.loaded().totals.elapsed_inclusive_ms.unwrap();
    let cut = app.profile().totals.elapsed_inclusive_ms.unwrap();
    assert!(cut < whole, "{cut} of {whole}");
    app.press(Esc);
    app.settle_query();
    assert!(app.query.answer().range().is_none());
    assert_eq!(app.profile().totals.elapsed_inclusive_ms, Some(whole));
}

/// Zoomed in past a lane's buckets: the calls in time order name each
/// cell where the load kept them; where it did not, the title says only
/// busy time shows.
#[test]
fn zoomed_past_the_lanes_the_calls_name_the_cells() {
    let mut kept = on_timeline(busy_trace(), "busy.prf", 80, 24);
    for _ in 0..14 {
        kept.press(Char('+'));
    }
    let t = timeline(&kept);
    let p = kept.cx().profile;
    assert!(t.past(p, 0, &kept.cx()), "past thread 1's buckets");
    assert!(t.chart.is_some(), "the calls are read");
    let u = t.under_cursor(&kept.cx()).expect("a lane");
    assert!(u.exact);
    assert_eq!(
        u.func.map(|f| p.function_name(f)),
        Some("CUSTOMER:GETFIELD")
    );
    assert!(!screen(&kept).contains("busy time only"));
    let mut bare = on_timeline(fixture("xpp/orders-run.prf"), "orders-run.prf", 80, 24);
    for _ in 0..14 {
        bare.press(Char('+'));
    }
    assert!(timeline(&bare).chart.is_none());
    assert!(screen(&bare).contains("busy time only"));
}

/// While a transform is in effect the Timeline draws the run as it ran,
/// and says so; the query's keys act on the function under the cursor.
#[test]
fn a_transform_leaves_the_run_as_it_ran() {
    let mut app = on_timeline(busy_trace(), "busy.prf", 120, 35);
    assert!(!screen(&app).contains("as it ran"));
    app.press(Char('x'));
    assert!(said(&app).contains("merge"), "{}", said(&app));
    assert!(screen(&app).contains("as it ran: the query's steps not drawn"));
}

/// A profile with no times per thread: the tab says so, and its keys too.
#[test]
fn a_profile_without_times_has_no_timeline() {
    let mut app = demo(80, 24);
    app.press(pane_key(TIMELINE));
    assert!(screen(&app).contains("No timeline: this br profile has no times per thread"));
    app.press(Char('+'));
    assert!(said(&app).starts_with("no timeline"), "{}", said(&app));
    let mut untimed = on_timeline(fixture("xpp/no-time.prf"), "no-time.prf", 80, 24);
    untimed.press(Char('v'));
    assert_eq!(said(&untimed), "no timeline: this trace records no times");
}

/// With colour a cell is shaded by its busy share, the busiest the
/// brightest blue, under the label's white; an idle cell keeps the
/// terminal's background.
#[test]
fn colour_shades_each_cell_by_its_busy_share() {
    use ratatui::style::Color;
    let mut app = App::new(busy_trace(), "busy.prf", Rect::new(0, 0, 80, 24), true);
    app.press(pane_key(TIMELINE));
    let buf = render(&app);
    let area = TimelinePane::area(&app.cx());
    // Thread 1's cells (under the axis and its title), busy throughout.
    let busy = buf[(area.x + 10, area.y + 2)].style();
    assert_eq!(busy.bg, Some(Color::Indexed(27)));
    // Thread 2's after its last event at 8,000 of the 10,000 ms.
    let idle = buf[(area.x + 70, area.y + 4)].style();
    assert!(!matches!(idle.bg, Some(Color::Indexed(_))), "{idle:?}");
}
