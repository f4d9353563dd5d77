//! `App::update`, one action at a time, on the demo profile (and an
//! Xbase++ trace for the events).

use super::Press::*;
use super::{Scope, pane_key, tabs};
use super::{app_of, demo, demo_profile, fixture};
use super::{run, selected_name};
use crate::analysis::columns::FuncColumn;
use crate::analysis::view::Table;
use crate::model::FuncId;
use crate::tui::app::{App, Mode};
use crate::tui::columns::Col;
use crate::tui::intent::Intent;
use crate::tui::layout;
use crate::tui::pane;
use crate::tui::pane::Focus;
use std::sync::Arc;

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        app.press(Char(c));
    }
}

fn func(app: &App, name: &str) -> FuncId {
    app.profile()
        .function_ids()
        .find(|&f| app.profile().function_name(f) == name)
        .expect("the function exists")
}

/// Moves the cursor down the Functions pane to a function, with the keys.
fn move_to(app: &mut App, name: &str) -> FuncId {
    let f = func(app, name);
    for _ in 0..app.table().rows.len() {
        if app.selected_function() == Some(f) {
            break;
        }
        app.press(Down);
    }
    assert_eq!(app.selected_function(), Some(f), "{name} is in the pane");
    f
}

#[test]
fn opens_on_functions_heaviest_first() {
    let app = demo(80, 24);
    assert_eq!(app.tab(), tabs::FUNCTIONS);
    assert_eq!(app.table().rows.len(), 10);
    assert_eq!(
        app.table().sort,
        Some((Col::F(FuncColumn::ElapsedIncl), true))
    );
    assert_eq!(selected_name(&app), "(main)");
}

/// `profx report`'s table lists each pane's rows in the order the pane
/// opens in, and `--reverse` as `r` reverses it, so that a script's
/// `--top` rows are the rows the app opens on: on timed, sampled and
/// counting profiles (lines with hits and no time), one without a time,
/// hit or call column, and one large enough to open on a thread.
#[test]
fn report_tables_list_the_rows_a_pane_opens_on() {
    use crate::report::table::{TableOptions, listed};
    let profiles = [
        ("demo", demo_profile()),
        ("line-counting", fixture("plist/line-counting.txt")),
        ("function-coverage", fixture("plist/function-coverage.txt")),
        ("demo-orders", fixture("plist/demo-orders.txt")),
        ("percents-only", fixture("vs-csv/percents-only.csv")),
        ("sampling", fixture("vs-csv/sampling.csv")),
        ("orders-run", fixture("xpp/orders-run.prf")),
        ("large", crate::fixture_gen::large::profile(60_000)),
    ];
    for (name, p) in profiles {
        let mut app = app_of(p, name, 120, 40);
        for (tab, view) in [
            (tabs::FUNCTIONS, Table::Functions),
            (tabs::LINES, Table::Lines),
            (tabs::STACKS, Table::Stacks),
        ] {
            app.press(pane_key(pane::tab_index(tab)));
            let reversible = app.table().sort.is_some();
            for reverse in [false, true] {
                if reverse && !reversible {
                    continue;
                }
                let opts = TableOptions {
                    reverse,
                    ..TableOptions::default()
                };
                let want = listed(app.profile(), view, &opts).expect("no --sort to refuse");
                let rows = &app.table().rows;
                let got: Vec<usize> = (0..rows.len())
                    .filter_map(|i| rows.get(i))
                    .map(|r| r as usize)
                    .collect();
                assert_eq!(got, want, "{name} {tab:?} reverse {reverse}");
                app.press(Char('r'));
            }
        }
    }
}

#[test]
fn quit() {
    let mut app = demo(80, 24);
    app.press(Char('q'));
    assert!(app.quit);
}

#[test]
fn move_page_home_end_stay_in_range() {
    let mut app = demo(80, 24);
    run(&mut app, &[Down, Down]);
    assert_eq!(app.cursor(), 2);
    app.press(Rows(-5));
    assert_eq!(app.cursor(), 0);
    app.press(End);
    assert_eq!(app.cursor(), 9);
    app.press(Home);
    assert_eq!(app.cursor(), 0);
    app.press(PageDown);
    assert_eq!(app.cursor(), 9, "a page is more than ten rows at 80×24");
    app.press(PageUp);
    assert_eq!(app.cursor(), 0);
}

#[test]
fn scrolling_keeps_the_cursor_on_screen() {
    let mut app = demo(80, 24);
    app.press(pane_key(1));
    app.press(End);
    let v = app.table();
    let shown = layout::table_rows(app.areas().table);
    assert_eq!(v.cursor, v.rows.len() - 1);
    assert_eq!(v.offset, v.rows.len() - shown);
    app.press(Home);
    assert_eq!(app.table().offset, 0);
}

#[test]
fn tabs_switch_and_keep_each_root_as_left() {
    let mut app = demo(80, 24);
    run(&mut app, &[Rows(3), TabKey]);
    assert_eq!(app.tab(), tabs::LINES);
    app.press(BackTab);
    assert_eq!(app.tab(), tabs::FUNCTIONS);
    assert_eq!(app.cursor(), 3, "the Functions view is as it was left");
    for t in pane::TABS {
        app.press(pane_key(pane::tab_index(t)));
        assert_eq!(app.tab(), t);
    }
    app.press(TabKey);
    assert_eq!(app.tab(), tabs::FUNCTIONS, "Tab wraps around");
}

#[test]
fn sort_next_previous_reverse_keep_the_selection() {
    let mut app = demo(80, 24);
    app.press(Rows(4));
    let chosen = selected_name(&app);
    app.press(Char('s'));
    let (col, desc) = app.table().sort.expect("sorted");
    assert_eq!(col, Col::F(FuncColumn::ElapsedInclPct));
    assert!(desc);
    assert_eq!(selected_name(&app), chosen);
    app.press(Char('S'));
    assert_eq!(
        app.table().sort.map(|s| s.0),
        Some(Col::F(FuncColumn::ElapsedIncl))
    );
    app.press(Char('r'));
    assert_eq!(
        app.table().sort,
        Some((Col::F(FuncColumn::ElapsedIncl), false))
    );
    assert_eq!(selected_name(&app), chosen, "selection kept by identity");
    let first = app
        .table()
        .rows
        .get(0)
        .map(|r| FuncId::from_index(r as usize));
    assert_eq!(
        first.map(|f| app.profile().function_name(f)),
        Some("FNDISCOUNT"),
        "equal times: by name"
    );
}

#[test]
fn sorting_by_name_is_alphabetical_and_stable() {
    let mut app = demo(80, 24);
    while app.table().sort.map(|s| s.0) != Some(Col::F(FuncColumn::Name)) {
        app.press(Char('s'));
    }
    let names: Vec<&str> = (0..app.table().rows.len())
        .filter_map(|i| app.table().rows.get(i))
        .map(|r| app.profile().function_name(FuncId::from_index(r as usize)))
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}

#[test]
fn columns_scroll_sideways_and_the_sort_column_comes_into_view() {
    let mut app = demo(80, 24);
    app.press(Right);
    assert_eq!(app.table().hscroll, 1);
    (0..5).for_each(|_| app.press(Left));
    assert_eq!(app.table().hscroll, 0);
    (0..100).for_each(|_| app.press(Right));
    let max = app.cx().columns(Table::Functions).cols.len() - 2;
    assert_eq!(app.table().hscroll, max);
}

#[test]
fn enter_on_a_function_opens_its_stacks_and_back_restores_everything() {
    let mut app = demo(80, 24);
    run(&mut app, &[Down, Char('s'), Char('/')]);
    type_text(&mut app, "fn");
    app.press(Enter);
    let before = (
        app.cursor(),
        app.table().sort,
        app.filter().to_string(),
        selected_name(&app),
    );
    let f = app.selected_function().expect("selected");
    app.press(Enter);
    assert_eq!(app.scope(), Scope::Stacks(Some(f)));
    assert_eq!(app.history.len(), 2);
    for i in 0..app.table().rows.len() {
        let s = app.table().rows.get(i).expect("row");
        let frames = app
            .profile()
            .frames(crate::model::StackId::from_index(s as usize));
        assert!(
            frames.contains(&f),
            "every stack shown contains the function"
        );
    }
    app.press(Backspace);
    let after = (
        app.cursor(),
        app.table().sort,
        app.filter().to_string(),
        selected_name(&app),
    );
    assert_eq!(before, after);
    assert_eq!(app.history.len(), 1);
}

#[test]
fn enter_on_a_stack_goes_into_its_frames_then_to_a_function() {
    let mut app = demo(80, 24);
    let price = move_to(&mut app, "FNPRICE");
    app.press(Enter);
    app.press(Enter);
    let Focus::Frames(i) = app.table().focus else {
        panic!("focus should be in the frames")
    };
    assert_eq!(app.frames()[i], price, "the marked function is selected");
    app.press(Up);
    app.press(Enter);
    assert_eq!(app.scope(), Scope::Functions);
    assert_eq!(selected_name(&app), "(main)");
    assert_eq!(app.history.len(), 3);
    app.press(Backspace);
    assert!(
        matches!(app.table().focus, Focus::Frames(_)),
        "back to the frames"
    );
    app.press(Backspace);
    assert_eq!(app.table().focus, Focus::Table);
}

#[test]
fn callers_and_callees_take_the_keyboard_in_turn() {
    let mut app = demo(80, 24);
    let price = move_to(&mut app, "FNPRICE");
    assert!(!app.callers().is_empty() && !app.callees().is_empty());
    app.press(Char('c'));
    assert_eq!(app.table().focus, Focus::Callers(0));
    app.press(Char('c'));
    assert_eq!(app.table().focus, Focus::Callees(0));
    app.press(Enter);
    let callee = app.graph().callees(app.profile(), price)[0]
        .func()
        .expect("a function");
    assert_eq!(app.selected_function(), Some(callee));
    app.press(Backspace);
    app.press(Char('c'));
    assert_eq!(
        app.table().focus,
        Focus::Table,
        "c cycles back to the table"
    );
}

#[test]
fn shares_of_callers_add_up_to_100() {
    let app = demo(80, 24);
    let f = func(&app, "FNROUND");
    let total: f64 = app
        .graph()
        .callers(app.profile(), f)
        .iter()
        .filter_map(|e| e.share)
        .sum();
    assert!((total - 100.0).abs() < 1e-9);
}

#[test]
fn l_shows_the_function_s_lines_and_enter_on_a_line_its_function() {
    let mut app = demo(80, 24);
    let price = move_to(&mut app, "FNPRICE");
    app.press(Char('l'));
    assert_eq!(app.scope(), Scope::Lines(Some(price)));
    assert!(!app.table().rows.is_empty());
    for i in 0..app.table().rows.len() {
        let l = app.table().rows.get(i).expect("row");
        let line = app
            .profile()
            .line(crate::model::LineId::from_index(l as usize));
        assert_eq!(line.function, Some(price));
    }
    app.press(Enter);
    assert_eq!(app.scope(), Scope::Functions);
    assert_eq!(app.selected_function(), Some(price));
    assert_eq!(app.history.len(), 3);
}

#[test]
fn search_filters_as_you_type_enter_keeps_esc_clears() {
    let mut app = demo(80, 24);
    app.press(Char('/'));
    assert_eq!(app.mode, Mode::Search);
    type_text(&mut app, "fnr");
    let names: Vec<String> = (0..app.table().rows.len())
        .map(|i| {
            let r = app.table().rows.get(i).expect("row");
            app.profile()
                .function_name(FuncId::from_index(r as usize))
                .to_string()
        })
        .collect();
    assert_eq!(names, ["FNPRICE", "FNREADITEM", "FNREADCUST", "FNROUND"]);
    app.press(Backspace);
    assert_eq!(app.filter(), "fn");
    app.press(Ctrl('u'));
    assert_eq!(app.table().rows.len(), 10);
    type_text(&mut app, "^fnread");
    assert_eq!(app.table().rows.len(), 2);
    app.press(Enter);
    assert_eq!(app.mode, Mode::Normal);
    assert_eq!(app.table().rows.len(), 2, "Enter keeps the filter");
    app.press(Char('/'));
    app.press(Esc);
    assert_eq!(app.filter(), "");
    assert_eq!(app.table().rows.len(), 10, "Esc clears it");
}

#[test]
fn printable_keys_in_the_prompt_do_not_act() {
    let mut app = demo(80, 24);
    app.press(Char('/'));
    type_text(&mut app, "q");
    assert!(!app.quit);
    assert_eq!(app.filter(), "q");
}

#[test]
fn next_and_previous_match_wrap_around() {
    let mut app = demo(80, 24);
    app.press(Char('n'));
    assert!(app.status.is_some(), "no search yet: says so");
    app.press(Char('/'));
    type_text(&mut app, "^fnread");
    app.press(Enter);
    app.press(Char('n'));
    assert_eq!(app.cursor(), 1);
    app.press(Char('n'));
    assert_eq!(app.cursor(), 0);
    app.press(Char('N'));
    assert_eq!(app.cursor(), 1);
}

#[test]
fn esc_at_the_start_clears_a_kept_filter() {
    let mut app = demo(80, 24);
    app.press(Char('/'));
    type_text(&mut app, "tax");
    app.press(Enter);
    app.press(Esc);
    assert_eq!(app.filter(), "");
    app.press(Backspace);
    assert!(app.status.is_some(), "nothing to go back to");
}

#[test]
fn the_finder_ranks_all_functions_and_jumps() {
    let mut app = demo(80, 24);
    app.press(pane_key(2));
    app.press(Char('g'));
    let Mode::Finder(f) = &app.mode else {
        panic!("finder open")
    };
    assert_eq!(f.results.len(), 10);
    type_text(&mut app, "tax");
    let Mode::Finder(f) = &app.mode else {
        panic!("finder open")
    };
    let best = FuncId::from_index(f.results[0] as usize);
    assert_eq!(app.profile().function_name(best), "FNTAX");
    app.press(Enter);
    assert_eq!(app.mode, Mode::Normal);
    assert_eq!(app.scope(), Scope::Functions);
    assert_eq!(selected_name(&app), "FNTAX");
    app.press(Backspace);
    assert_eq!(app.tab(), tabs::STACKS, "the jump is a step of the history");
}

#[test]
fn the_finder_closes_on_esc_without_moving() {
    let mut app = demo(80, 24);
    run(&mut app, &[Char('g'), Rows(2), Esc]);
    assert_eq!(app.mode, Mode::Normal);
    assert_eq!(app.cursor(), 0);
}

#[test]
fn help_opens_and_closes() {
    let mut app = demo(80, 24);
    app.press(Char('?'));
    // At the Functions pane's keys (help.rs: `section_line`).
    let at = crate::tui::help::section_line(crate::tui::keymap::Place::Functions, 76);
    assert_eq!(app.mode, Mode::Help(at.expect("Functions is listed")));
    app.press(Down);
    assert_eq!(app.cursor(), 0, "keys do not reach the pane under help");
    app.press(Esc);
    assert_eq!(app.mode, Mode::Normal);
}

#[test]
fn packets_open_their_events_and_an_event_its_function() {
    let mut app = app_of(fixture("xpp/two-threads.prf"), "two-threads.prf", 80, 24);
    app.press(pane_key(5));
    assert_eq!(app.scope(), Scope::Packets);
    app.press(Enter);
    let Scope::Events(k) = app.scope() else {
        panic!("events open")
    };
    assert_eq!(app.table().rows.len(), app.profile().packet(k).events.len());
    app.press(Down);
    assert_eq!(selected_name(&app), "WORKER");
    app.press(Char('s'));
    assert!(app.status.is_some(), "events keep their order and say so");
    app.press(Enter);
    assert_eq!(app.scope(), Scope::Functions);
    assert_eq!(selected_name(&app), "WORKER");
}

#[test]
fn events_filter_by_their_function() {
    let mut app = app_of(fixture("xpp/two-threads.prf"), "two-threads.prf", 80, 24);
    run(&mut app, &[pane_key(5), Enter, Char('/')]);
    type_text(&mut app, "fetch");
    assert_eq!(app.table().rows.len(), 2, "FETCH's entry and return");
    app.press(Esc);
    assert_eq!(app.table().rows.len(), 8);
}

#[test]
fn clicks_switch_tabs_sort_and_select() {
    let mut app = demo(100, 30);
    let a = app.areas();
    let (_, x, _) = layout::tab_positions(a.crumbs)[2];
    app.press(Do(Intent::Click {
        x: x + 1,
        y: a.crumbs.y,
    }));
    assert_eq!(app.tab(), tabs::STACKS);
    app.press(pane_key(0));
    let a = app.areas();
    app.press(Do(Intent::Click {
        x: a.table.x + 3,
        y: a.table.y + 4,
    }));
    assert_eq!(app.cursor(), 2);
    // The header row: a click on "Name" sorts by it, a second reverses.
    app.press(Do(Intent::Click {
        x: a.table.x + 3,
        y: a.table.y + 1,
    }));
    assert_eq!(app.table().sort, Some((Col::F(FuncColumn::Name), false)));
    app.press(Do(Intent::Click {
        x: a.table.x + 3,
        y: a.table.y + 1,
    }));
    assert_eq!(app.table().sort, Some((Col::F(FuncColumn::Name), true)));
}

#[test]
fn the_wheel_scrolls_the_list_under_it() {
    let mut app = demo(80, 24);
    let t = app.areas().table;
    app.press(Do(Intent::Wheel {
        x: t.x + 5,
        y: t.y + 5,
        rows: 3,
    }));
    assert_eq!(app.cursor(), 3);
    app.press(Do(Intent::Wheel {
        x: t.x + 5,
        y: t.y + 5,
        rows: -3,
    }));
    assert_eq!(app.cursor(), 0);
}

#[test]
fn resize_changes_the_page() {
    let mut app = demo(80, 24);
    app.press(pane_key(1));
    let small = app.page();
    app.press(Do(Intent::Resize {
        width: 160,
        height: 48,
    }));
    assert_eq!(app.size.height, 48);
    assert!(app.page() > small);
}

#[test]
fn info_has_nothing_to_search_or_sort() {
    let mut app = demo(80, 24);
    app.press(pane_key(6));
    app.press(Char('/'));
    assert_eq!(app.mode, Mode::Normal);
    app.press(Char('s'));
    assert!(app.status.is_some());
    app.press(End);
    assert_eq!(app.cursor(), app.info_len() - 1);
}

/// Typing narrows from the rows already kept, erasing and exclusions start
/// again from the whole pane: at every keystroke the rows are exactly the
/// pane's sorted rows whose names match, whatever path led there.
#[test]
fn narrowing_search_keeps_exactly_the_matching_rows() {
    let p = crate::fixture_gen::large::profile(60_000);
    let mut app = app_of(p, "generated", 120, 40);
    app.press(Char('s'));
    let all: Vec<u32> = (0..app.table().rows.len())
        .filter_map(|i| app.table().rows.get(i))
        .collect();
    app.press(Char('/'));
    let keys = [
        Char('i'),
        Char('n'),
        Char('v'),
        Char('7'),
        Backspace,
        Char(' '),
        Char('!'),
        Char('l'),
        Char('i'),
        Char('b'),
        Backspace,
        Backspace,
        Backspace,
        Char('P'),
        Char('o'),
    ];
    for key in keys {
        app.press(key.clone());
        let q = crate::analysis::search::Query::parse(app.filter());
        let expected: Vec<u32> = all
            .iter()
            .copied()
            .filter(|&r| {
                q.matches(app.profile().function_name(FuncId::from_index(r as usize)))
                    .is_some()
            })
            .collect();
        let shown: Vec<u32> = (0..app.table().rows.len())
            .filter_map(|i| app.table().rows.get(i))
            .collect();
        assert_eq!(shown, expected, "after {key:?}, filter {:?}", app.filter());
    }
}

/// A search matches each name once and picks the rows by their names: in
/// every pane, of profiles whose names repeat across rows (a trace's
/// lines under their callers, stacks under their leaves) or need escapes,
/// the rows kept at each keystroke are exactly the rows whose own search
/// text matches, in the pane's order.
#[test]
fn every_panes_search_keeps_the_rows_whose_text_matches() {
    let cases = [
        (super::hostile(), "evx1b !wide"),
        (fixture("xpp/orders-run.prf"), "rea !fn"),
        (fixture("plist/line-counting.txt"), "ma 'c"),
    ];
    let mut checked = 0;
    for (p, query) in cases {
        let mut app = app_of(p, "t", 120, 40);
        for tab in [tabs::FUNCTIONS, tabs::LINES, tabs::STACKS] {
            app.press(pane_key(pane::tab_index(tab)));
            let kind = app.table().table;
            let all: Vec<u32> = (0..app.table().rows.len())
                .filter_map(|i| app.table().rows.get(i))
                .collect();
            app.press(Char('/'));
            for c in query.chars() {
                app.press(Char(c));
                let q = crate::analysis::search::Query::parse(app.filter());
                let prepared = crate::tui::derived::Prepared::default();
                let src = crate::tui::columns::Src::new(app.profile(), &prepared);
                let text = |r: u32| crate::tui::columns::search_text(kind, src, r);
                let expected: Vec<u32> = all
                    .iter()
                    .copied()
                    .filter(|&r| q.is_match(&text(r)))
                    .collect();
                let shown: Vec<u32> = (0..app.table().rows.len())
                    .filter_map(|i| app.table().rows.get(i))
                    .collect();
                assert_eq!(shown, expected, "{tab:?} after {:?}", app.filter());
                checked += usize::from(!shown.is_empty() && shown.len() < all.len());
            }
            app.press(Esc);
        }
    }
    assert!(checked > 5, "some keystrokes kept some rows and not others");
}

/// The first column of a CSV file's rows (the header left out).
fn csv_first_column(path: &std::path::Path) -> Vec<String> {
    let mut rd = csv::Reader::from_path(path).expect("the export exists");
    rd.records()
        .map(|r| r.expect("a CSV row")[0].to_string())
        .collect()
}

#[test]
fn e_exports_the_rows_shown_beside_the_input_and_never_replaces_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = demo(120, 30);
    app.export_base = dir.path().join("orders.prof");
    run(&mut app, &[Char('/')]);
    type_text(&mut app, "FN");
    run(&mut app, &[Enter, Char('s'), Char('e')]);
    let first = dir.path().join("orders.prof.functions.csv");
    let status = app.status.clone().expect("the export says where");
    assert!(status.starts_with("exported "), "{status}");
    assert!(status.contains(&first.display().to_string()), "{status}");
    // The rows of the pane, filtered and in the order on screen.
    let shown: Vec<String> = (0..app.table().rows.len())
        .map(|i| {
            let f = FuncId::from_index(app.table().rows.get(i).unwrap() as usize);
            app.profile().function_name(f).to_string()
        })
        .collect();
    assert!(shown.len() < app.profile().functions().len());
    assert_eq!(csv_first_column(&first), shown);
    run(&mut app, &[Char('e')]);
    let second = dir.path().join("orders.prof.functions-2.csv");
    assert_eq!(csv_first_column(&second), shown);
    assert_eq!(csv_first_column(&first), shown, "the first file is kept");
}

#[test]
fn e_on_events_and_on_info() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_of(fixture("xpp/two-threads.prf"), "two-threads.prf", 120, 30);
    app.export_base = dir.path().join("t.prf");
    run(&mut app, &[pane_key(5), Enter, Char('e')]);
    let rows = csv_first_column(&dir.path().join("t.prf.events.csv"));
    assert_eq!(rows.len(), app.table().rows.len());
    assert_eq!(rows.first().map(String::as_str), Some("0"));
    run(&mut app, &[pane_key(6), Char('e')]);
    assert!(app.status.as_deref().unwrap().contains("Info is no table"));
    // A folder that cannot be written to is an answer, not a crash.
    app.export_base = dir.path().join("missing/t.prf");
    run(&mut app, &[pane_key(0), Char('e')]);
    let status = app.status.clone().unwrap();
    assert!(status.starts_with("export failed: writing "), "{status}");
}

/// A window of 10000×10000 cells is drawn at most 1000×500: the screen
/// buffers stay a few megabytes.
#[test]
fn a_huge_window_is_drawn_bounded() {
    use ratatui::crossterm::event::Event;
    let mut app = demo(100, 30);
    let places = app.pane().places();
    let a = crate::tui::keymap::intent(&Mode::Normal, places, &Event::Resize(10000, 10000));
    assert_eq!(
        a,
        Some(Intent::Resize {
            width: 1000,
            height: 500
        })
    );
    app.press(Do(a.unwrap()));
    let backend = ratatui::backend::TestBackend::new(1000, 500);
    let mut terminal = ratatui::Terminal::new(backend).unwrap();
    terminal
        .draw(|f| crate::tui::render::draw(f, &app))
        .unwrap();
}

/// A paste is one action: control characters become spaces and it is cut
/// to a query's length, so a 100 KB paste filters once, quickly.
#[test]
fn a_paste_is_one_filtering_of_a_bounded_query() {
    use crate::tui::intent::Pasted;
    let mut app = demo(100, 30);
    app.press(Char('/'));
    let long = format!("FN\nTAX{}", "z".repeat(100_000));
    app.press(Paste(long));
    let filter = app.filter().to_string();
    assert!(filter.starts_with("FN TAX"), "{filter:?}");
    assert_eq!(filter.chars().count(), Pasted::MAX);
}

/// `t` on a function opens the tree at each place it is called, the row
/// of its first place selected; `Enter` goes to the row's function and
/// `Backspace` walks back through both steps.
#[test]
fn a_function_reaches_its_nodes_in_the_tree_and_back() {
    let mut app = demo(120, 40);
    let round = move_to(&mut app, "FNROUND");
    run(&mut app, &[Char('t')]);
    assert_eq!(app.scope(), Scope::Tree(Some(round)));
    assert_eq!(selected_name(&app), "FNROUND");
    let t = &app.tree().tree;
    // main > FNPRICE > FNDISCOUNT > FNROUND: the path to it is open.
    assert_eq!(t.rows[app.cursor()].depth, 3);
    run(&mut app, &[Up, Enter]);
    assert_eq!(app.scope(), Scope::Functions);
    assert_eq!(selected_name(&app), "FNDISCOUNT");
    run(&mut app, &[Backspace]);
    assert_eq!(app.scope(), Scope::Tree(Some(round)));
    run(&mut app, &[Backspace]);
    assert_eq!(selected_name(&app), "FNROUND");
}

/// Opening, closing, moving into and out of rows; the selection kept by
/// identity through a sort and a reverse; `i` keeps the function.
#[test]
fn the_tree_opens_closes_sorts_and_turns_over() {
    let mut app = demo(120, 40);
    run(&mut app, &[pane_key(3)]);
    let rows = |app: &App| app.tree().tree.rows.len();
    let open = rows(&app);
    assert!(open > 1, "the root opens on its callees");
    run(&mut app, &[Left]);
    assert_eq!(rows(&app), 1, "← closes it");
    run(&mut app, &[Right]);
    assert_eq!(rows(&app), open, "→ opens it again");
    run(&mut app, &[Right]);
    assert_eq!(app.cursor(), 1, "→ on an open row moves into it");
    let name = selected_name(&app);
    run(&mut app, &[Char('s'), Char('r')]);
    assert_eq!(selected_name(&app), name, "the selection survives a sort");
    run(&mut app, &[Left]);
    assert_eq!(app.cursor(), 0, "← on a closed row goes to its parent");
    run(&mut app, &[Left]);
    assert_eq!(rows(&app), 1, "← on an open row closes it");
    run(&mut app, &[Char('*')]);
    assert_eq!(rows(&app), app.profile().nodes().len());
    run(&mut app, &[Down]);
    let name = selected_name(&app);
    run(&mut app, &[Char('i')]);
    assert_eq!(selected_name(&app), name, "bottom-up, on the same function");
    assert_eq!(app.tree().tree.rows[app.cursor()].depth, 0);
}

/// The Flame pane's keys: down to the heaviest callee, across, a click,
/// zoom in and out, and `Backspace` leaving the pane's history only once
/// nothing is zoomed.
#[test]
fn the_flame_moves_zooms_and_clicks() {
    let mut app = demo(120, 40);
    run(&mut app, &[pane_key(4)]);
    assert_eq!(selected_name(&app), "(main)");
    run(&mut app, &[Down]);
    assert_eq!(selected_name(&app), "FNPRICE", "the heaviest callee");
    run(&mut app, &[Right]);
    assert_eq!(selected_name(&app), "FNREADCUST", "the frame to its right");
    run(&mut app, &[Up]);
    assert_eq!(selected_name(&app), "(main)");
    let area = app.flame().area(&app.cx());
    run(
        &mut app,
        &[Do(Intent::Click {
            x: area.x + 1,
            y: area.y + 1,
        })],
    );
    assert_eq!(selected_name(&app), "(gosub)", "clicked");
    run(&mut app, &[Enter]);
    assert_eq!(app.flame().zoom.len(), 1);
    let layout = app.flame().layout(&app.cx());
    assert_eq!(
        layout.rows[0][0].width, area.width,
        "the zoomed frame is the full width"
    );
    run(&mut app, &[Backspace]);
    assert!(app.flame().zoom.is_empty());
    assert_eq!(app.scope(), Scope::Flame, "zoomed out, still in Flame");
    run(&mut app, &[Char('T')]);
    assert_eq!(app.scope(), Scope::Tree(Some(func(&app, "(gosub)"))));
}

/// x (m's alias) in the Flame pane merges the selected frame's function
/// into the query: its frames leave the graph, their time goes to their
/// callers (the full width stays); f from another pane opens a sandwich,
/// which the other panes' header says.
#[test]
fn the_flame_merges_and_focuses() {
    let mut app = demo(120, 40);
    let whole = |app: &App| crate::analysis::flame_view::span(&app.flame().tree.clone(), None);
    run(&mut app, &[pane_key(4)]);
    let before = whole(&app);
    run(&mut app, &[Down]);
    let merged = selected_name(&app);
    assert!(in_paths(&app, &merged));
    run(&mut app, &[Char('x')]);
    assert_eq!(app.scope(), Scope::Flame, "still in Flame");
    assert_eq!(app.query.crumbs(), [format!("merge {merged}")]);
    assert!(!in_paths(&app, &merged), "{merged} left every path");
    assert!(
        (whole(&app) - before).abs() < 1e-9,
        "merged time goes to the caller"
    );
    run(&mut app, &[Home, Down]);
    assert!(app.selected_function().is_some());
    run(&mut app, &[pane_key(0)]);
    let item = move_to(&mut app, "FNREADITEM");
    run(&mut app, &[Char('f')]);
    assert_eq!(app.scope(), Scope::Flame);
    assert_eq!(app.flame().sandwich, Some(item));
    assert_eq!(
        app.flame_filters(),
        Some(item),
        "said in the other panes too"
    );
    assert_eq!(
        app.selected_function(),
        Some(item),
        "the sandwich's own frame first"
    );
    run(&mut app, &[Char('f')]);
    assert_eq!(app.flame().sandwich, None, "f again leaves it");
}

/// Whether a function of this name is a frame of any call path.
fn in_paths(app: &App, name: &str) -> bool {
    let p = app.profile();
    let mut frames = Vec::new();
    p.stack_ids().any(|s| {
        p.path_into(p.stack(s).node(), &mut frames);
        frames.iter().any(|&f| p.function_name(f) == name)
    })
}

/// `t` in the Flame pane: the trace's calls in time order. ↓ goes to the
/// longest callee, → along the row, Enter zooms the window of time to the
/// call, Esc back out; n steps through matching calls in the order of the
/// run; ↓ past a call with no callee goes to the next thread's band.
#[test]
fn the_flame_chart_walks_a_run_in_time_order() {
    let mut app = app_of(
        super::fixture_timed("xpp/orders-run.prf"),
        "orders-run.prf",
        120,
        40,
    );
    run(&mut app, &[pane_key(4), Char('t')]);
    assert!(app.flame().in_chart());
    let c = app.flame().chart.chart.clone().expect("made");
    assert_eq!(c.bands.len(), 2);
    assert_eq!((c.start, c.end), (0.0, 91.0));
    assert_eq!(selected_name(&app), "MAIN");
    run(&mut app, &[Down]);
    // The longest READITEM is the last (its FNPRICE grows each time);
    // SAVEORDER is longer still.
    assert_eq!(selected_name(&app), "SAVEORDER");
    run(&mut app, &[Left]);
    assert_eq!(selected_name(&app), "READITEM");
    let id = app.flame().chart.selected_call().unwrap();
    let call = *c.call(id);
    assert_eq!((call.start, call.end), (52.0, 64.0));
    run(&mut app, &[Enter]);
    assert_eq!(app.flame().chart.window(), (52.0, 64.0));
    // The calls before it are outside the window: stepping to one moves
    // the window, its width kept.
    run(&mut app, &[Left]);
    let prev = *c.call(app.flame().chart.selected_call().unwrap());
    let (from, to) = app.flame().chart.window();
    assert!(from <= prev.start && prev.end <= to, "{from}–{to}");
    assert!(((to - from) - 12.0).abs() < 1e-9);
    run(&mut app, &[Esc]);
    assert_eq!(app.flame().chart.window(), (0.0, 91.0));
    assert!(app.flame().in_chart(), "zoomed out, still in time order");
    // From a call with no callee, ↓ goes to the worker's band.
    run(&mut app, &[Home, Down, Down]);
    assert_eq!(selected_name(&app), "WRITEDBF");
    run(&mut app, &[Down]);
    assert_eq!(selected_name(&app), "WORKER");
    run(&mut app, &[Char('/')]);
    type_text(&mut app, "parse");
    run(&mut app, &[Enter, Char('n')]);
    assert_eq!(selected_name(&app), "PARSE");
    let first = app.flame().chart.selected_call();
    run(&mut app, &[Char('n')]);
    assert_ne!(app.flame().chart.selected_call(), first, "the next PARSE");
    run(&mut app, &[Char('N')]);
    assert_eq!(app.flame().chart.selected_call(), first);
    // f: the sandwich of the call's function, in the graph.
    run(&mut app, &[Char('f')]);
    assert!(!app.flame().in_chart());
    assert_eq!(app.flame().sandwich, Some(func(&app, "PARSE")));
    run(&mut app, &[Char('f'), Char('t')]);
    assert!(app.flame().in_chart(), "t again: back to time order");
    run(&mut app, &[Char('t')]);
    assert!(!app.flame().in_chart());
    run(&mut app, &[Char('T')]);
    assert!(matches!(app.scope(), Scope::Tree(Some(_))));
}

/// A profile with no calls in time order says why `t` shows nothing.
#[test]
fn the_flame_chart_says_why_it_is_not_there() {
    let mut app = demo(120, 40);
    run(&mut app, &[pane_key(4), Char('t')]);
    assert!(!app.flame().in_chart());
    let status = app.status.clone().unwrap_or_default();
    assert!(status.contains("no time order"), "{status}");
    assert_eq!(app.scope(), Scope::Flame);
}

/// In a sandwich, ↑ past the function goes to its callers (drawn upside
/// down above the divider, the function itself drawn once, below it): ↑
/// to the heaviest caller, → along the row, ↓ back down and past the
/// divider to the function; Enter makes the caller's sandwich, Esc
/// leaves the callers' side.
#[test]
fn the_sandwich_callers_are_walked() {
    let mut app = demo(120, 40);
    let item = move_to(&mut app, "FNREADITEM");
    run(&mut app, &[Char('f')]);
    assert_eq!(app.selected_function(), Some(item));
    run(&mut app, &[Up]);
    assert!(
        app.flame().caller_selected().is_some(),
        "on the callers' side"
    );
    assert_eq!(selected_name(&app), "(main)", "the heaviest caller");
    run(&mut app, &[Left]);
    assert_eq!(selected_name(&app), "(gosub)");
    run(&mut app, &[Up]);
    assert_eq!(selected_name(&app), "(main)", "(gosub)'s caller");
    run(&mut app, &[Down]);
    assert_eq!(selected_name(&app), "(gosub)");
    run(&mut app, &[Down]);
    assert!(
        app.flame().caller_selected().is_none(),
        "back on the callees' side"
    );
    assert_eq!(app.selected_function(), Some(item), "on the function");
    run(&mut app, &[Up, Esc]);
    assert!(
        app.flame().caller_selected().is_none(),
        "Esc leaves the callers"
    );
    assert_eq!(app.selected_function(), Some(item));
    run(&mut app, &[Up, Left, Enter]);
    let gosub = func(&app, "(gosub)");
    assert_eq!(app.flame().sandwich, Some(gosub), "the caller's sandwich");
    assert_eq!(app.selected_function(), Some(gosub));
}

/// Switching tabs keeps each tab's place: a packet's events scrolled to
/// the end are there again after a look at another tab.
#[test]
fn switching_tabs_keeps_the_place_in_a_packets_events() {
    let mut app = app_of(fixture("xpp/orders-run.prf"), "orders-run.prf", 100, 30);
    run(&mut app, &[pane_key(5), Enter, End]);
    assert!(matches!(app.scope(), Scope::Events(_)));
    let at = app.cursor();
    assert!(at > 0);
    run(&mut app, &[pane_key(0), pane_key(3), pane_key(5)]);
    assert!(
        matches!(app.scope(), Scope::Events(_)),
        "still in the events"
    );
    assert_eq!(app.cursor(), at);
    // Its own tab's key from inside a drill-down goes back to the root.
    run(&mut app, &[pane_key(5)]);
    assert_eq!(app.scope(), Scope::Packets);
}

/// `]` goes forward again to the step `Backspace` left; a new step forgets
/// it. A step into Functions is named by its function in the breadcrumb.
#[test]
fn forward_returns_to_the_step_gone_back_from() {
    let mut app = demo(120, 40);
    let item = move_to(&mut app, "FNREADITEM");
    run(&mut app, &[Enter]);
    assert_eq!(app.scope(), Scope::Stacks(Some(item)));
    run(&mut app, &[Backspace]);
    assert_eq!(app.scope(), Scope::Functions);
    run(&mut app, &[Char(']')]);
    assert_eq!(app.scope(), Scope::Stacks(Some(item)), "forward again");
    run(&mut app, &[Backspace, Char('l'), Backspace, Char(']')]);
    assert_eq!(app.scope(), Scope::Lines(Some(item)));
    run(&mut app, &[Backspace, Enter, Char(']')]);
    assert_eq!(app.scope(), Scope::Stacks(Some(item)), "a new step forgets");
    assert!(
        app.status
            .as_deref()
            .unwrap_or("")
            .contains("nothing to go forward")
    );
}

/// A result too long for the footer is shown whole in a box; the key
/// after an export's result only closes it, so it is never gone unseen.
/// A passing message too long is boxed too, but the next key acts.
#[test]
fn a_long_result_is_boxed_and_the_next_key_only_closes_it() {
    let mut app = demo(80, 24);
    let long = format!(
        "export failed: writing ./{}: Permission denied (os error 13)",
        "x".repeat(70)
    );
    app.status = Some(long.clone());
    app.notice = true;
    assert!(app.status_boxed());
    let at = app.cursor();
    run(&mut app, &[Down]);
    assert_eq!(app.cursor(), at, "the key only closed the box");
    assert!(app.status.is_none());
    run(&mut app, &[Down]);
    assert_eq!(app.cursor(), at + 1);
    app.status = Some(long);
    run(&mut app, &[Down]);
    assert_eq!(app.cursor(), at + 2, "not a result: the key acts");
}

/// A trace of about 300,000 events, generated in memory.
fn big_trace() -> crate::model::Profile {
    use crate::fixture_gen::large::{Format, Shape, Spec, write};
    let mut out = std::io::Cursor::new(Vec::new());
    let spec = Spec {
        kind: Format::Deldbe,
        bytes: 8 << 20,
        names: 300,
        shape: Shape::Current,
    };
    write(spec, &mut out).expect("generates");
    let input = crate::load::Input::owned("big.prf", out.into_inner());
    crate::load::load_inputs(&[input], &crate::load::LoadOptions::default()).expect("loads")
}

/// Waits (up to a minute) until the export's thread is done and taken.
fn finish_export(app: &mut App) {
    let start = std::time::Instant::now();
    while app.exporting() && start.elapsed() < std::time::Duration::from_secs(60) {
        app.press(Do(Intent::Tick));
        std::thread::yield_now();
    }
    assert!(!app.exporting(), "the export ended");
}

/// A large export writes on its own thread: the footer counts its rows,
/// keys still move, and its end is a message; Esc cancels one and leaves
/// no file.
#[test]
fn a_large_export_runs_aside_and_can_be_cancelled() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let mut app = app_of(big_trace(), "big.prf", 120, 40);
    app.export_base = dir.path().join("big.prf");
    run(&mut app, &[pane_key(5), Enter]);
    assert!(app.table().rows.len() > 200_000);
    run(&mut app, &[Char('e')]);
    assert!(app.exporting());
    let progress = app.export_progress().expect("shown");
    assert!(progress.contains("events · Esc cancels"), "{progress}");
    run(&mut app, &[Down]);
    assert_eq!(app.cursor(), 1, "keys work meanwhile");
    finish_export(&mut app);
    let status = app.status.clone().unwrap_or_default();
    assert!(status.starts_with("exported "), "{status}");
    assert!(dir.path().join("big.prf.events.csv").exists());
    // Again, cancelled at once: no second file, no temporary.
    run(&mut app, &[Down, Char('e'), Esc]);
    assert!(!app.exporting());
    let status = app.status.clone().unwrap_or_default();
    let files = std::fs::read_dir(dir.path()).expect("listed").count();
    if status.starts_with("export cancelled") {
        assert_eq!(files, 1, "nothing left by the cancelled export");
    } else {
        assert!(status.starts_with("exported "), "{status}");
        assert_eq!(files, 2);
    }
}

/// Going back to a column sorted a moment ago takes the order kept then:
/// the same rows as sorting afresh, in every pane, either way.
#[test]
fn a_kept_order_is_the_order_a_fresh_sort_gives() {
    let make = || crate::fixture_gen::large::profile(3_000);
    let mut app = app_of(make(), "generated", 120, 40);
    for tab in [tabs::FUNCTIONS, tabs::STACKS, tabs::LINES] {
        app.press(pane_key(pane::tab_index(tab)));
        let rows = |app: &App| app.table().rows.clone();
        app.press(Char('s'));
        let first = rows(&app);
        app.press(Char('s'));
        app.press(Char('r'));
        let second = rows(&app);
        app.press(Char('r'));
        app.press(Char('S'));
        assert_eq!(rows(&app), first, "{tab:?}: back to the first column");
        app.press(Char('s'));
        app.press(Char('r'));
        assert_eq!(rows(&app), second, "{tab:?}: and to the second, reversed");
        let mut fresh = App::without_threads(make(), "generated", app.size);
        fresh.press(pane_key(pane::tab_index(tab)));
        fresh.press(Char('s'));
        fresh.press(Char('s'));
        fresh.press(Char('r'));
        assert_eq!(rows(&fresh), second, "{tab:?}: as a fresh sort");
    }
}

/// `y` copies the selected name, a Call tree row's or a flame frame's
/// path, a stack's frames, and says what it copied (issue 52).
#[test]
fn y_copies_the_selected_name_or_path() {
    let mut app = app_of(
        fixture("plist/partial-stacks.txt"),
        "partial-stacks.txt",
        120,
        34,
    );
    run(&mut app, &[Char('y')]);
    assert_eq!(app.clipboard.as_deref(), Some("main loop"));
    assert!(
        app.status
            .as_deref()
            .is_some_and(|s| s.contains("copied") && s.contains("main loop")),
        "{:?}",
        app.status
    );
    app.clipboard = None;
    // The Call tree: the row's path, root first.
    run(&mut app, &[pane_key(3), Home, Char('*'), Down, Char('y')]);
    assert_eq!(app.clipboard.as_deref(), Some("main loop > draw"));
    // The Flame pane: the selected frame's path.
    run(&mut app, &[pane_key(4), Down, Char('y')]);
    let flame = app.clipboard.clone().expect("a frame is selected");
    assert!(flame.starts_with("main loop > "), "{flame}");
    // Stacks: the stack's frames.
    run(&mut app, &[pane_key(2)]);
    let s = app.table().selected().expect("a stack");
    let want: Vec<String> = app
        .profile()
        .frames(crate::model::StackId::from_index(s as usize))
        .iter()
        .map(|&f| app.profile().function_name(f).to_string())
        .collect();
    run(&mut app, &[Char('y')]);
    assert_eq!(app.clipboard.as_deref(), Some(want.join(" > ").as_str()));
}

/// Home and End go to the help's first and last line.
#[test]
fn home_and_end_in_the_help() {
    let mut app = demo(80, 24);
    run(&mut app, &[Char('?'), End]);
    let Mode::Help(end) = app.mode else {
        panic!("the help is open")
    };
    assert!(end > 0);
    run(&mut app, &[Home]);
    assert!(matches!(app.mode, Mode::Help(0)));
}

/// Home and End go to the finder's first and last match.
#[test]
fn home_and_end_in_the_finder() {
    let mut app = demo(80, 24);
    run(&mut app, &[Char('g'), End]);
    let Mode::Finder(f) = &app.mode else {
        panic!("the finder is open")
    };
    assert!(f.results.len() > 1);
    assert_eq!(f.cursor, f.results.len() - 1);
    run(&mut app, &[Home]);
    let Mode::Finder(f) = &app.mode else {
        panic!("the finder is open")
    };
    assert_eq!(f.cursor, 0);
}

/// The names of the Functions table's rows, in order.
fn function_rows(app: &App) -> Vec<String> {
    let t = app.table();
    (0..t.rows.len())
        .filter_map(|i| t.rows.get(i))
        .map(|r| {
            app.profile()
                .function_name(FuncId::from_index(r as usize))
                .to_string()
        })
        .collect()
}

/// `d` drops every path through the selected function: it leaves the
/// Functions table, the call tree and the flame graph, the total loses its
/// time and the header says what was dropped; `u` gives the very profile
/// loaded back, its rows as they were.
#[test]
fn a_drop_leaves_every_pane_and_u_brings_the_whole_profile_back() {
    let mut app = demo(120, 40);
    let loaded_rows = function_rows(&app);
    let total = app.profile().totals.elapsed_inclusive_ms.expect("timed");
    move_to(&mut app, "FNPRICE");
    run(&mut app, &[Char('d')]);
    assert_eq!(app.query.crumbs(), ["drop FNPRICE"]);
    assert!(!function_rows(&app).contains(&"FNPRICE".to_string()));
    assert!(!in_paths(&app, "FNPRICE"));
    let dropped = app
        .query
        .dropped()
        .ms
        .expect("a timed profile says its time");
    assert!(dropped > 0.0);
    let now = app.profile().totals.elapsed_inclusive_ms.expect("timed");
    assert!(
        (now + dropped - total).abs() < 1e-6,
        "{now} + {dropped} = {total}"
    );
    run(&mut app, &[pane_key(4)]);
    let p = Arc::clone(app.profile());
    let tree = app.flame().tree.clone();
    let frames = (0..tree.len() as u32).filter_map(|n| tree.func(n).func());
    assert!(
        frames.clone().all(|f| p.function_name(f) != "FNPRICE"),
        "gone from the flame"
    );
    assert!(frames.count() > 0);
    run(&mut app, &[pane_key(3)]);
    assert!(
        app.tree().tree.rows.iter().all(|r| app
            .tree()
            .tree
            .func(app.profile(), r.id)
            .is_none_or(|f| app.profile().function_name(f) != "FNPRICE")),
        "gone from the call tree"
    );
    run(&mut app, &[Char('u')]);
    assert!(
        Arc::ptr_eq(app.profile(), app.query.loaded()),
        "the loaded profile itself"
    );
    assert!(app.query.is_whole());
    run(&mut app, &[pane_key(0)]);
    assert_eq!(
        function_rows(&app),
        loaded_rows,
        "the whole profile's rows again"
    );
    assert_eq!(app.profile().totals.elapsed_inclusive_ms, Some(total));
}

/// Steps stack as breadcrumbs; `u` pops the last, `U` (and `X`) clears
/// them all; each says so, and with nothing to undo says that.
#[test]
fn steps_stack_u_pops_and_u_clears() {
    let mut app = demo(120, 40);
    run(&mut app, &[Char('u')]);
    assert_eq!(app.status.as_deref(), Some("no query step to undo"));
    move_to(&mut app, "FNPRICE");
    run(&mut app, &[Char('m')]);
    move_to(&mut app, "FNREADITEM");
    run(&mut app, &[Char('F')]);
    assert_eq!(app.query.crumbs(), ["merge FNPRICE", "focus FNREADITEM"]);
    run(&mut app, &[Char('u')]);
    assert_eq!(app.query.crumbs(), ["merge FNPRICE"]);
    assert_eq!(app.status.as_deref(), Some("undone: focus FNREADITEM"));
    assert_eq!(
        app.selected_function()
            .map(|f| app.profile().function_name(f).to_string()),
        Some("FNREADITEM".into()),
        "the selection stays on its function"
    );
    run(&mut app, &[Char('F'), Char('U')]);
    assert!(app.query.is_whole());
    assert!(Arc::ptr_eq(app.profile(), app.query.loaded()));
    run(&mut app, &[Char('m'), Char('X')]);
    assert!(app.query.is_whole(), "X clears as U does");
    run(&mut app, &[Char('U')]);
    assert_eq!(
        app.status.as_deref(),
        Some("the whole profile is shown already")
    );
}

/// `M` and `>` take the selected call node of the Call tree, its path
/// spelled root first; in a table they say where to find one.
#[test]
fn node_steps_take_the_call_trees_row() {
    let mut app = demo(120, 40);
    run(&mut app, &[Char('M')]);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("call node"), "{said}");
    assert!(app.query.is_whole());
    run(&mut app, &[pane_key(3), Down]);
    let path = app.pane().copy_text(&app.cx()).expect("a row");
    run(&mut app, &[Char('>')]);
    let want = format!("focus subtree {}", path.replace(" > ", ">"));
    assert_eq!(app.query.crumbs(), [want]);
    assert_eq!(app.scope(), Scope::Tree(None), "the tree anew");
    run(&mut app, &[Char('u'), Down, Char('M')]);
    assert!(app.query.crumbs()[0].starts_with("merge node "));
    run(&mut app, &[Char('u'), Char('i'), Char('M')]);
    let said = app.status.clone().unwrap_or_default();
    assert!(
        said.contains("top-down"),
        "bottom-up rows are no call nodes: {said}"
    );
}

/// A root's node is a path of one frame: `M` on the tree's first row
/// merges it. `>` there focuses on the whole of the only root, which
/// changes nothing: refused, saying so, and no breadcrumb.
#[test]
fn node_steps_take_a_root_too() {
    let mut app = demo(120, 40);
    run(&mut app, &[pane_key(3)]);
    let root = app.pane().copy_text(&app.cx()).expect("a row");
    run(&mut app, &[Char('>')]);
    assert!(app.query.is_whole(), "{:?}", app.query.crumbs());
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("changes nothing"), "{said}");
    run(&mut app, &[Char('M')]);
    assert_eq!(
        app.query.crumbs(),
        [format!("merge node {root}")],
        "{:?}",
        app.status
    );
}

/// A step that needs call paths says so in the footer on a profile with
/// none; merge and drop apply to its functions.
#[test]
fn a_step_a_profile_cannot_take_says_why() {
    let mut app = app_of(fixture("vs-csv/percents-only.csv"), "p", 120, 40);
    run(&mut app, &[Char('F')]);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("needs call paths"), "{said}");
    assert!(app.query.is_whole());
    let first = app.selected_function().expect("a row");
    let name = app.profile().function_name(first).to_string();
    run(&mut app, &[Char('d')]);
    assert_eq!(
        app.query.crumbs(),
        [format!("drop {name}")],
        "no thread crumb"
    );
    assert!(!function_rows(&app).contains(&name));
    run(&mut app, &[Char('H')]);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("one implicit thread"), "{said}");
}

/// Any key cancels a step still running, and does nothing else; the
/// query stays as it was.
#[test]
fn a_key_cancels_a_running_step() {
    use crate::tui::intent::Op;
    let mut app = demo(120, 40);
    move_to(&mut app, "FNPRICE");
    let cursor = app.cursor();
    app.update(Intent::Transform(Op::Drop));
    assert!(app.querying());
    app.press(Down);
    assert!(!app.querying());
    assert_eq!(app.status.as_deref(), Some("drop FNPRICE: cancelled"));
    assert_eq!(app.cursor(), cursor, "the key only cancelled");
    assert!(app.query.is_whole());
    // A tick while it runs changes nothing; once it ended, its answer.
    app.update(Intent::Transform(Op::Drop));
    app.update(Intent::Tick);
    app.settle_query();
    assert_eq!(app.query.crumbs(), ["drop FNPRICE"]);
}

/// The `.` menu lists every transform with its key; the key or Enter
/// applies it, Esc closes it.
#[test]
fn the_menu_applies_a_transform() {
    let mut app = demo(120, 40);
    move_to(&mut app, "FNPRICE");
    run(&mut app, &[Char('.')]);
    let entries = app.menu_entries();
    assert_eq!(entries.len(), 10);
    assert_eq!(entries[0].key, "m  x");
    assert_eq!(entries[0].text, "merge FNPRICE");
    assert!(entries[1].why_not.is_some(), "no call node in a table");
    run(&mut app, &[Esc]);
    assert_eq!(app.mode, Mode::Normal);
    assert!(app.query.is_whole());
    run(&mut app, &[Char('.'), Char('d')]);
    assert_eq!(app.mode, Mode::Normal);
    assert_eq!(app.query.crumbs(), ["drop FNPRICE"]);
    run(&mut app, &[Char('u')]);
    move_to(&mut app, "FNPRICE");
    run(&mut app, &[Char('.'), Down, Down, Enter]);
    assert_eq!(app.query.crumbs(), ["focus FNPRICE"]);
}

/// `H` lists a trace's threads; Enter shows the one under the cursor,
/// whose numbers every pane reads (its total is its own), the Trace pane
/// only its events; `a` every thread again, the loaded profile itself.
#[test]
fn the_threads_list_chooses_a_thread() {
    let mut app = app_of(
        super::fixture_timed("xpp/two-threads.prf"),
        "two-threads.prf",
        120,
        40,
    );
    let all = app.profile().totals.elapsed_inclusive_ms.expect("timed");
    let packets = app.profile().packets().len();
    run(&mut app, &[Char('H')]);
    let Mode::Threads(list) = &app.mode else {
        panic!("the threads list is open");
    };
    assert_eq!(list.rows().len(), 2);
    let id = list.current().expect("a row").info.id;
    run(&mut app, &[Enter]);
    assert_eq!(app.mode, Mode::Normal);
    assert_eq!(app.query.crumbs(), [format!("thread {id}")]);
    let one = app.profile().totals.elapsed_inclusive_ms.expect("timed");
    assert!(one < all, "{one} < {all}");
    run(&mut app, &[pane_key(5)]);
    assert!(app.table().rows.len() <= packets);
    run(&mut app, &[pane_key(0)]);
    move_to(&mut app, "MAIN");
    run(&mut app, &[Char('m')]);
    assert_eq!(
        app.query.crumbs(),
        [format!("thread {id}"), "merge MAIN".into()]
    );
    run(&mut app, &[Char('H'), Char('a')]);
    assert_eq!(
        app.query.crumbs(),
        ["all threads", "merge MAIN"],
        "the steps are applied again after the thread choice"
    );
    run(&mut app, &[Char('U')]);
    assert!(Arc::ptr_eq(app.profile(), app.query.loaded()));
}

/// A step that runs a quarter of a second says so in the footer, with a
/// spinner and how to cancel it; one answered sooner shows only its
/// answer.
#[test]
fn a_long_step_shows_in_the_footer() {
    use crate::tui::intent::Op;
    let mut app = demo(120, 40);
    move_to(&mut app, "FNPRICE");
    app.update(Intent::Transform(Op::Merge));
    assert_eq!(app.query_progress(), None, "not before a quarter second");
    let job = app.query_job.as_mut().expect("the step runs");
    job.started = job
        .started
        .checked_sub(crate::tui::query::SHOW_AFTER)
        .expect("the clock goes back that far");
    let said = app.query_progress().expect("shown after a quarter second");
    assert!(said.ends_with("merge FNPRICE… · any key cancels"), "{said}");
    app.settle_query();
    assert_eq!(app.query_progress(), None);
    assert_eq!(app.query.crumbs(), ["merge FNPRICE"]);
}

/// `q` while a step runs cancels it and quits, as it does an export.
#[test]
fn q_cancels_a_running_step_and_quits() {
    use crate::tui::intent::Op;
    let mut app = demo(120, 40);
    app.update(Intent::Transform(Op::Drop));
    assert!(app.querying());
    app.press(Char('q'));
    assert!(!app.querying());
    assert!(app.quit);
    assert!(app.query.is_whole());
}

/// The two-thread trace as the app loads it, calls in time order.
fn two_threads(w: u16, h: u16) -> App {
    app_of(
        super::fixture_timed("xpp/two-threads.prf"),
        "two-threads.prf",
        w,
        h,
    )
}

/// Profiles of one implicit thread (BR, PLIST, VS) show no thread crumb;
/// a trace does, and choosing every thread again does not offer `U` to
/// show every thread.
#[test]
fn no_thread_crumb_without_threads() {
    for (rel, what) in [
        ("plist/demo-orders.txt", "plist"),
        ("vs-csv/function-summary.csv", "vs"),
    ] {
        let mut app = app_of(fixture(rel), rel, 120, 40);
        let f = selected_name(&app);
        run(&mut app, &[Char('m')]);
        assert_eq!(app.query.crumbs(), [format!("merge {f}")], "{what}");
    }
    let mut app = demo(120, 40);
    run(&mut app, &[Down, Char('m')]);
    assert_eq!(app.query.crumbs().len(), 1, "br: {:?}", app.query.crumbs());
    let mut app = two_threads(120, 40);
    run(&mut app, &[Char('H'), Enter]);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("U: every thread again"), "{said}");
    run(&mut app, &[Char('H'), Char('a')]);
    assert_eq!(app.query.crumbs(), ["all threads"]);
    let said = app.status.clone().unwrap_or_default();
    assert!(!said.contains("U:"), "every thread is shown: {said}");
}

/// Enter in the threads list shows the thread under the cursor when no
/// thread was newly chosen, not the ones shown already.
#[test]
fn enter_shows_the_cursors_thread_when_none_is_newly_chosen() {
    let mut app = two_threads(120, 40);
    run(&mut app, &[Char('H'), Down, Enter]);
    let second = app.query.crumbs()[0].clone();
    run(&mut app, &[Char('H'), Up, Enter]);
    let first = app.query.crumbs()[0].clone();
    assert_ne!(first, second, "{:?}", app.status);
    assert!(first.starts_with("thread "), "{first}");
    // Space then Enter: the threads chosen, merged (both: all).
    run(&mut app, &[Char('H'), Down, Char(' '), Enter]);
    assert_eq!(app.query.crumbs(), ["all threads"], "{:?}", app.status);
}

/// `m` on a Stacks row merges the row's leaf.
#[test]
fn a_step_on_a_stacks_row_takes_its_leaf() {
    let mut app = demo(120, 40);
    run(&mut app, &[pane_key(2)]);
    let leaf = *app.frames().last().expect("a stack");
    let name = app.profile().function_name(leaf).to_string();
    run(&mut app, &[Char('m')]);
    assert_eq!(
        app.query.crumbs(),
        [format!("merge {name}")],
        "{:?}",
        app.status
    );
}

/// On a profile without call paths the menu dims the transforms that
/// need them, saying so, M and > too; merge and drop stay.
#[test]
fn the_menu_dims_what_needs_call_paths() {
    use crate::tui::intent::Op;
    let mut app = app_of(fixture("vs-csv/function-summary.csv"), "s.csv", 120, 40);
    run(&mut app, &[Down, Char('.')]);
    for e in app.menu_entries() {
        match e.op {
            Op::Merge | Op::Drop => assert_eq!(e.why_not, None, "{:?}", e.op),
            Op::Range => {
                let why = e.why_not.unwrap_or_default();
                assert!(why.contains("takes a call's span"), "{why}");
            }
            op => {
                let why = e.why_not.unwrap_or_default();
                assert!(why.contains("needs call paths"), "{op:?}: {why}");
            }
        }
    }
}

/// A step left out of a thread choice stays in the query: the footer
/// and the header say so, and choosing every thread applies it again;
/// `u` takes it off like any step.
#[test]
fn a_step_left_out_comes_back_with_the_threads() {
    let mut app = two_threads(160, 40);
    move_to(&mut app, "WORKER");
    run(&mut app, &[Char('m')]);
    assert_eq!(app.query.crumbs(), ["all threads", "merge WORKER"]);
    // Thread 1 never calls WORKER.
    run(&mut app, &[Char('H'), Home, Enter]);
    assert_eq!(app.query.crumbs(), ["thread 1"], "{:?}", app.status);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("merge WORKER left out"), "{said}");
    assert_eq!(app.query.left_out().len(), 1);
    run(&mut app, &[Char('H'), Char('a')]);
    assert_eq!(
        app.query.crumbs(),
        ["all threads", "merge WORKER"],
        "applied again: {:?}",
        app.status
    );
    assert!(app.query.left_out().is_empty());
    run(&mut app, &[Char('H'), Home, Enter]);
    run(&mut app, &[Char('u')]);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("undone: merge WORKER"), "{said}");
    run(&mut app, &[Char('H'), Char('a')]);
    assert_eq!(app.query.crumbs(), ["all threads"]);
}

/// A step's drop and notes are said in the footer when it is applied.
#[test]
fn a_steps_notes_show_in_the_footer() {
    let mut app = app_of(fixture("vs-csv/function-summary.csv"), "s.csv", 120, 40);
    run(&mut app, &[Down, Char('m')]);
    let note = app.query.dropped().notes;
    assert!(!note.is_empty(), "merge on functions only has a note");
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains(&note[0]), "{said}");
}

/// `E` opens every row of the tree, the selection kept on its row; `-`
/// closes every row, the selection on the root above it; neither is the
/// query's `C`. Elsewhere both say they are the Call tree's.
#[test]
fn e_opens_every_row_and_minus_closes_every_row() {
    let mut app = demo(120, 40);
    run(&mut app, &[pane_key(3), Down, Down]);
    let name = selected_name(&app);
    let rows = |app: &App| app.tree().tree.rows.len();
    run(&mut app, &[Char('E')]);
    assert_eq!(rows(&app), app.profile().nodes().len(), "every node a row");
    assert_eq!(selected_name(&app), name, "the selection stays on its row");
    assert!(
        app.status.is_none(),
        "a small tree opens whole: {:?}",
        app.status
    );
    assert!(app.query.is_whole(), "no step of the query");
    run(&mut app, &[Char('-')]);
    let t = &app.tree().tree;
    assert!(t.rows.iter().all(|r| r.depth == 0), "only the roots");
    assert_eq!(rows(&app), 1);
    assert_eq!(selected_name(&app), "(main)", "on the root above the row");
    // Bottom-up too: every caller of every function.
    run(&mut app, &[Char('i'), Char('E')]);
    assert!(app.tree().tree.rows.iter().any(|r| r.depth > 1));
    run(&mut app, &[Char('-')]);
    assert!(app.tree().tree.rows.iter().all(|r| r.depth == 0));
    run(&mut app, &[pane_key(0), Char('E')]);
    let said = app.status.clone().expect("E says where it works");
    assert!(said.contains("E") && said.contains("Call tree"), "{said}");
    run(&mut app, &[Char('-')]);
    assert!(app.status.is_some(), "- says where it works");
}

/// A row's `Parent%` is its total over its parent's; a root has none.
#[test]
fn the_tree_gives_each_row_its_share_of_its_parent() {
    let mut app = demo(120, 40);
    run(&mut app, &[pane_key(3), Char('E')]);
    let (p, t) = (app.profile().clone(), &app.tree().tree);
    let mut under_a_parent = 0;
    for r in &t.rows {
        let v = t.values(&p, r.id);
        match t.parent(&p, r.id) {
            None => assert_eq!(v.parent_pct, None),
            Some(q) => {
                let of = t.values(&p, q).total.expect("a weight");
                let want = 100.0 * v.total.expect("a weight") / of;
                assert!((v.parent_pct.expect("a share") - want).abs() < 1e-9);
                under_a_parent += 1;
            }
        }
    }
    assert!(under_a_parent > 5);
}

/// `D` from Functions opens the modules as a step of the Functions tab
/// (Backspace returns); they sort, search by name and export as every
/// table; `Enter` lists a module's functions; `Y` copies the report that
/// prints them.
#[test]
fn d_opens_the_modules_from_functions() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = demo(120, 40);
    app.export_base = dir.path().join("orders.prof");
    run(&mut app, &[Down, Char('D')]);
    assert_eq!(app.scope(), Scope::Modules);
    assert_eq!(app.tab(), tabs::FUNCTIONS, "a step of Functions, no tab");
    assert_eq!(app.history.len(), 2);
    let p = app.profile().clone();
    let rows = crate::analysis::modules::module_rows(&p);
    assert_eq!(app.table().rows.len(), rows.len());
    // Heaviest first by inclusive time, as the report lists them.
    let opts = crate::report::table::TableOptions::default();
    let listed = crate::report::table::listed(&p, Table::Modules, &opts).expect("modules");
    let shown: Vec<usize> = (0..app.table().rows.len())
        .map(|i| app.table().rows.get(i).unwrap() as usize)
        .collect();
    assert_eq!(shown, listed);
    let before = app.table().sort;
    run(&mut app, &[Char('s')]);
    assert_ne!(app.table().sort, before, "s sorts by the next column");
    run(&mut app, &[Char('/')]);
    type_text(&mut app, "FNSLIB");
    run(&mut app, &[Enter]);
    assert_eq!(app.table().rows.len(), 1, "the search matches module names");
    run(&mut app, &[Char('e')]);
    let csv = dir.path().join("orders.prof.modules.csv");
    assert_eq!(csv_first_column(&csv), ["LIB\\FNSLIB.BR"]);
    run(&mut app, &[Char('Y')]);
    assert!(
        app.clipboard
            .as_deref()
            .unwrap()
            .ends_with("--view modules")
    );
    run(&mut app, &[Enter]);
    let m = rows
        .iter()
        .find(|r| p.name(r.module) == "LIB\\FNSLIB.BR")
        .expect("the module");
    assert_eq!(app.scope(), Scope::ModuleFunctions(m.module));
    assert_eq!(app.table().rows.len() as u64, m.functions);
    for i in 0..app.table().rows.len() {
        let f = FuncId::from_index(app.table().rows.get(i).unwrap() as usize);
        assert_eq!(p.function_module(f), "LIB\\FNSLIB.BR");
    }
    assert!(
        app.pane().has_detail(),
        "a module's functions keep the butterfly"
    );
    run(&mut app, &[Backspace, Backspace]);
    assert_eq!(app.scope(), Scope::Functions);
    assert_eq!(app.history.len(), 1);
    run(&mut app, &[pane_key(3), Char('D')]);
    let said = app.status.clone().expect("D says where it works");
    assert!(
        said.starts_with("D shows the modules from Functions"),
        "{said}"
    );
}

/// A profile whose functions name no module (an Xbase++ trace) has no
/// Modules view: `D` says so and opens nothing.
#[test]
fn d_on_a_profile_without_modules_says_so() {
    let mut app = app_of(fixture("xpp/orders-run.prf"), "orders-run.prf", 120, 40);
    run(&mut app, &[Char('D')]);
    assert_eq!(app.scope(), Scope::Functions);
    let said = app.status.clone().expect("an answer");
    assert!(said.starts_with("no modules"), "{said}");
}

/// The finder shows each hit's inclusive time, the column the Functions
/// table opens sorted by, and hits that match alike come heaviest first.
#[test]
fn the_finder_weighs_each_hit() {
    let mut app = demo(120, 40);
    run(&mut app, &[Char('g')]);
    type_text(&mut app, "FNREAD");
    let Mode::Finder(f) = &app.mode else {
        panic!("finder open")
    };
    assert_eq!(f.weight, Some(FuncColumn::ElapsedIncl));
    let p = app.profile().clone();
    let incl = |id: u32| {
        p.function(FuncId::from_index(id as usize))
            .time
            .elapsed_inclusive
            .unwrap_or(0.0)
    };
    assert_eq!(f.results.len(), 2);
    assert!(incl(f.results[0]) >= incl(f.results[1]), "heaviest first");
    let screen = super::screens::text(&super::screens::render(&app));
    let heavy = crate::report::fmt::cell(crate::analysis::columns::Value::Ms(Some(incl(
        f.results[0],
    ))));
    assert!(screen.contains(&heavy), "{heavy} on screen:\n{screen}");
    assert!(screen.contains("Incl ms"), "the title says what it is");
}
