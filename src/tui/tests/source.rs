//! The source view (issue 67): `o` on a line or a function, its margin,
//! `{` `}`, `Enter`, `Backspace`, a file not found, a profile naming no
//! files; screens at 80×24 and 120×35.

use super::Press::*;
use super::screens::{render, text};
use super::{Scope, app_of, fixture, pane_key, run};
use crate::tui::app::App;
use crate::tui::pane::Pane;

fn plist(w: u16, h: u16) -> App {
    app_of(
        fixture("source/plist/line-counting.txt"),
        "line-counting.txt",
        w,
        h,
    )
}

fn xpp(w: u16, h: u16) -> App {
    app_of(fixture("source/xpp/orders-run.prf"), "orders-run.prf", w, h)
}

/// The source view on screen: its file's path, the line under the cursor.
fn at(app: &App) -> (String, Option<u32>) {
    match app.pane() {
        Pane::Source(s) => (s.file.path.clone(), s.file.lines[s.cursor].line),
        _ => panic!("the source view is on screen: {:?}", app.scope()),
    }
}

#[test]
fn o_on_a_line_opens_its_file_there_and_backspace_leaves_it() {
    let mut app = plist(120, 35);
    run(&mut app, &[pane_key(1), Char('o')]);
    assert_eq!(app.scope(), Scope::Source);
    assert_eq!(at(&app), (r"C:\code\ProfTest\ProfTest.cpp".into(), Some(7)));
    run(&mut app, &[Char('{')]);
    assert_eq!(at(&app).1, Some(6));
    run(&mut app, &[Char('{'), Char('{')]);
    assert_eq!(at(&app).1, Some(5));
    assert_eq!(
        app.status.as_deref(),
        Some("no costly line before this one")
    );
    run(&mut app, &[Char('}')]);
    assert_eq!(at(&app).1, Some(6));
    run(&mut app, &[Backspace]);
    assert_eq!(app.scope(), Scope::Lines(None));
}

#[test]
fn the_source_view_at_both_sizes() {
    for (w, h) in [(80, 24), (120, 35)] {
        let mut app = plist(w, h);
        run(&mut app, &[pane_key(1), Char('o')]);
        insta::assert_snapshot!(format!("source-{w}x{h}"), text(&render(&app)));
    }
}

#[test]
fn a_file_not_found_says_where_it_looked_and_what_adds_a_place() {
    for (w, h) in [(80, 24), (120, 35)] {
        let mut app = plist(w, h);
        // The lines by hits: 604, 600, 3, 2 (Missing.cpp), ...
        run(&mut app, &[pane_key(1), Rows(3), Char('o')]);
        assert_eq!(at(&app), (r"C:\code\ProfTest\Missing.cpp".into(), Some(9)));
        let screen = text(&render(&app));
        assert!(screen.contains("not found: looked in tests/fixtures/source/plist"));
        assert!(screen.contains("add a place: --source DIR"), "{screen}");
        assert!(screen.contains("--source-map FROM=TO"), "{screen}");
        insta::assert_snapshot!(format!("source-not-found-{w}x{h}"), screen);
    }
}

#[test]
fn an_xbase_callers_line_opens_its_prg_and_enter_goes_to_the_function() {
    let mut app = xpp(120, 35);
    // The lines by time: (top level) 1, then MAIN 20.
    run(&mut app, &[pane_key(1), Down, Char('o')]);
    let (path, line) = at(&app);
    assert!(path.ends_with("orders.prg"), "{path}");
    assert_eq!(line, Some(20));
    let screen = text(&render(&app));
    assert!(screen.contains("ReadItem(i)"), "{screen}");
    run(&mut app, &[Enter]);
    assert_eq!(app.scope(), Scope::Functions);
    assert_eq!(super::selected_name(&app), "MAIN");
}

#[test]
fn o_on_a_function_opens_its_costliest_line() {
    let mut app = xpp(120, 35);
    run(&mut app, &[Char('/')]);
    for c in "READITEM".chars() {
        app.press(Char(c));
    }
    run(&mut app, &[Enter, Char('o')]);
    let (path, line) = at(&app);
    assert!(path.ends_with("orders.prg"), "{path}");
    assert_eq!(line, Some(44));
}

#[test]
fn o_where_the_profile_names_no_file_says_why() {
    let mut app = app_of(
        fixture("vs-csv/function-summary.csv"),
        "function-summary.csv",
        80,
        24,
    );
    run(&mut app, &[Char('o')]);
    assert_eq!(app.scope(), Scope::Functions);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.starts_with("o opens a source file: "), "{said}");
}
