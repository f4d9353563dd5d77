//! Time ranges in the app (issue 65): committed, followed by every pane
//! that reads the paths' profile, nested, taken off by `u` as the last
//! thing asked and by backing out, written by `Y` as `--from`/`--until`.

use super::{Press, app_of, fixture_timed, run, selected_name};
use crate::analysis::query::Reads;

fn two_threads() -> crate::tui::App {
    app_of(
        fixture_timed("xpp/two-threads.prf"),
        "two-threads.prf",
        100,
        30,
    )
}

fn calls_of(app: &crate::tui::App, name: &str) -> Option<u64> {
    let p = app.profile();
    let f = p.function_ids().find(|&f| p.function_name(f) == name)?;
    p.function(f).calls
}

/// Thread 1 runs MAIN 0–13 around WAITFOR 2–10, thread 2 WORKER 1–12
/// around FETCH 4–9: [3, 11) keeps 8 ms of each thread, FETCH's one call
/// entered there, and the calls entered before it at none.
#[test]
fn a_range_cuts_every_number_and_u_takes_it_off() {
    let mut app = two_threads();
    app.ask_range(3.0, 11.0);
    app.settle_query();
    let crumbs = app.query.crumbs();
    assert_eq!(crumbs, ["all threads", "3.000–11.000 ms"], "{crumbs:?}");
    assert_eq!(app.profile().totals.elapsed_inclusive_ms, Some(16.0));
    assert_eq!(calls_of(&app, "FETCH"), Some(1));
    assert_eq!(calls_of(&app, "MAIN"), Some(0));
    // The events stay the thread choice's: no event is cut.
    let events = app.query.answer().profile(Reads::Events);
    assert_eq!(events.totals.elapsed_inclusive_ms, Some(24.0));
    let status = app.status.clone().unwrap_or_default();
    assert!(status.contains("range 3.000–11.000 ms"), "{status}");
    assert!(status.contains("u undoes it"), "{status}");
    run(&mut app, &[Press::Char('u')]);
    assert!(app.query.is_whole());
    assert_eq!(calls_of(&app, "MAIN"), Some(1));
    let status = app.status.clone().unwrap_or_default();
    assert!(status.starts_with("undone: 3.000–11.000 ms"), "{status}");
}

/// A step asked before a range applies again on it; `u` then takes off
/// the range (the last thing asked) and leaves the step; ranges nest; a
/// step asked after a range goes first.
#[test]
fn ranges_nest_and_steps_apply_again_on_them() {
    let mut app = two_threads();
    run(&mut app, &[Press::Char('1')]);
    while selected_name(&app) != "WAITFOR" {
        app.press(Press::Down);
    }
    run(&mut app, &[Press::Char('m')]);
    assert_eq!(app.query.crumbs(), ["all threads", "merge WAITFOR"]);
    app.ask_range(3.0, 11.0);
    app.settle_query();
    assert_eq!(
        app.query.crumbs(),
        ["all threads", "3.000–11.000 ms", "merge WAITFOR"]
    );
    assert_eq!(calls_of(&app, "WAITFOR"), None, "merged on the range too");
    // Nested: cut to the range in effect.
    app.ask_range(5.0, 20.0);
    app.settle_query();
    assert_eq!(
        app.query.crumbs(),
        ["all threads", "5.000–11.000 ms", "merge WAITFOR"]
    );
    assert_eq!(app.profile().totals.elapsed_inclusive_ms, Some(12.0));
    let line = app.command_line();
    assert!(
        line.contains("--from 5 --until 11 --merge WAITFOR"),
        "{line}"
    );
    app.back_out_range();
    app.settle_query();
    assert_eq!(
        app.query.crumbs(),
        ["all threads", "3.000–11.000 ms", "merge WAITFOR"]
    );
    run(&mut app, &[Press::Char('u')]);
    assert_eq!(app.query.crumbs(), ["all threads", "merge WAITFOR"]);
    run(&mut app, &[Press::Char('U')]);
    assert!(app.query.is_whole());
}

/// A profile without a trace's times has no range, and says why.
#[test]
fn a_profile_without_times_says_ranges_need_them() {
    let plist = super::fixture("plist/demo-orders.txt");
    let mut app = app_of(plist, "demo-orders.txt", 100, 30);
    app.ask_range(1.0, 2.0);
    app.settle_query();
    let status = app.status.clone().unwrap_or_default();
    assert!(status.contains("needs a trace's times"), "{status}");
    assert!(app.query.is_whole());
}

/// The time order opens on the range, and zooms out to the whole run.
#[test]
fn the_time_order_opens_on_the_range() {
    let mut app = two_threads();
    app.ask_range(3.0, 11.0);
    app.settle_query();
    run(&mut app, &[Press::Char('5'), Press::Char('t')]);
    assert_eq!(app.flame().chart.window(), (3.0, 11.0));
    run(&mut app, &[Press::Esc]);
    assert_eq!(app.flame().chart.window(), (0.0, 13.0));
}

/// `v` on a call among a packet's events asks its span (its entry to its
/// return, from a return as from its call); on the time order, the
/// selected call's; the `.` menu offers it, dimmed with why elsewhere.
#[test]
fn v_on_a_call_asks_its_span_and_the_menu_offers_it() {
    let mut app = two_threads();
    // Functions: no call here; the menu's row says where calls are.
    let entry = |app: &crate::tui::App| {
        let entries = app.menu_entries();
        let e = entries
            .iter()
            .find(|e| e.op == crate::tui::intent::Op::Range);
        let e = e.expect("the menu has a range row");
        (e.key, e.text.clone(), e.why_not.clone())
    };
    let (key, _, why) = entry(&app);
    assert_eq!(key, "v");
    let why = why.expect("dimmed in Functions");
    assert!(why.contains("packet's events"), "{why}");
    run(&mut app, &[Press::Char('v')]);
    assert_eq!(app.status.as_deref(), Some(why.as_str()));
    assert!(app.query.is_whole());
    // The events: WAITFOR's return (event 5, at 10 ms) spans its call's
    // entry at 2 ms.
    run(&mut app, &[Press::Char('6'), Press::Enter]);
    for _ in 0..5 {
        app.press(Press::Down);
    }
    let (_, text, why) = entry(&app);
    assert_eq!(why, None);
    assert!(text.ends_with("2.000–10.000 ms"), "{text}");
    run(&mut app, &[Press::Char('v')]);
    app.settle_query();
    assert_eq!(app.query.crumbs(), ["all threads", "2.000–10.000 ms"]);
    assert_eq!(calls_of(&app, "WAITFOR"), Some(1));
    assert_eq!(calls_of(&app, "MAIN"), Some(0));
    run(&mut app, &[Press::Char('u')]);
    assert!(app.query.is_whole());
    // The time order: the first call selected is MAIN's, 0–13 ms.
    run(
        &mut app,
        &[Press::Char('5'), Press::Char('t'), Press::Char('v')],
    );
    app.settle_query();
    let r = app.query.answer().range().expect("MAIN's span");
    assert_eq!((r.from_ms, r.until_ms), (0.0, 13.0));
}
