//! Issue 64's smaller defects (round four), a test a behaviour: the `.`
//! menu's words, the threads list's ticks, the footer's hints, the op
//! letters in the help, a message box and the key after it, what the
//! percents are out of, a function's lines' percents, where `?` opens.

use super::Press::{self, *};
use super::screens::{render, text};
use super::{app_of, demo, fixture, fixture_timed, pane_key, run};
use crate::analysis::columns::{Column, LineColumn, Value};
use crate::tui::app::{App, Mode};
use crate::tui::keymap::help_rows;

fn orders_run(w: u16, h: u16) -> App {
    let p = fixture_timed("xpp/orders-run.prf");
    app_of(p, "orders-run.prf", w, h)
}

fn two_threads(w: u16, h: u16) -> App {
    let p = fixture_timed("xpp/two-threads.prf");
    app_of(p, "two-threads.prf", w, h)
}

/// A PLIST listing of functions' times: no call paths, no stacks.
fn listing(w: u16, h: u16) -> App {
    let p = fixture("real/cdex_lame_function_timing.txt");
    app_of(p, "cdex.txt", w, h)
}

/// A VS call tree: call paths, no calls in time order.
fn vs_tree(w: u16, h: u16) -> App {
    let p = fixture("real/inferno_CallTreeSummary.csv");
    app_of(p, "tree.csv", w, h)
}

fn screen(app: &App) -> String {
    text(&render(app))
}

/// The bottom of the table's frame: its legend.
fn legend(app: &App) -> String {
    let s = screen(app);
    let line = s.lines().find(|l| l.starts_with('└')).unwrap_or_default();
    line.to_string()
}

/// With nothing selected the `.` menu names each transform once, then
/// why it cannot act; `d` says what the profile's hits count (a trace's
/// calls, a sampled log's samples), and the key alone says the same.
#[test]
fn the_menu_names_each_transform_once_in_the_profiles_words() {
    let mut app = orders_run(80, 24);
    run(&mut app, &[pane_key(6), Char('.')]);
    assert!(matches!(app.mode, Mode::Menu(_)));
    for e in app.menu_entries() {
        let why = e.why_not.clone().expect("nothing is selected in Info");
        assert!(!why.contains(&e.text), "{} twice: {why}", e.text);
    }
    let s = screen(&app);
    assert!(s.contains("merge function: select a function first"), "{s}");
    assert!(!s.contains("merge function: merge function"), "{s}");
    assert!(s.contains("drop calls with function: select"), "{s}");
    assert!(!s.contains("samples"), "a trace counts calls: {s}");
    let mut app = demo(80, 24);
    run(&mut app, &[pane_key(6), Char('.')]);
    let s = screen(&app);
    assert!(s.contains("drop samples with function: select"), "{s}");
    run(&mut app, &[Esc, Char('d')]);
    assert_eq!(
        app.status.as_deref(),
        Some("drop samples with function: select a function first")
    );
}

/// While every thread is shown (no choice made) the threads list ticks
/// every thread; Space unticks one and Enter shows the others; a choice
/// shown opens with its threads ticked.
#[test]
fn the_threads_list_ticks_every_thread_while_all_are_shown() {
    let mut app = two_threads(100, 30);
    run(&mut app, &[Char('H')]);
    let Mode::Threads(list) = &app.mode else {
        panic!("the list opens");
    };
    assert_eq!(list.chosen.len(), 2);
    let s = screen(&app);
    assert_eq!(s.matches('✓').count(), 2, "{s}");
    let busiest = list.current().expect("a row").info.id;
    run(&mut app, &[Char(' '), Enter]);
    let shown = app.query.threads().expect("a thread chosen").to_vec();
    assert_eq!(shown.len(), 1);
    assert_ne!(shown[0], busiest, "Space unticked the busiest");
    run(&mut app, &[Char('H')]);
    assert_eq!(screen(&app).matches('✓').count(), 1);
}

/// At 80 columns every pane's footer keeps `. transform` (the query's
/// menu, for a new user to meet), `?` and `q`; what gives way is the
/// pane's own keys, its last first; the line fits.
#[test]
fn the_footer_keeps_transform_at_80_columns() {
    for make in [demo, orders_run, vs_tree] {
        for i in 0..7 {
            let mut app = make(80, 24);
            run(&mut app, &[pane_key(i)]);
            let hints = app.hints();
            assert!(hints.contains(&(".", "transform")), "{i}: {hints:?}");
            assert!(
                hints.ends_with(&[("?", "help"), ("q", "quit")]),
                "{hints:?}"
            );
            let s = screen(&app);
            let line = s.lines().last().unwrap_or_default();
            assert!(line.contains(". transform"), "{i}: {line}");
        }
    }
    let app = orders_run(80, 24);
    assert_eq!(
        app.hints()[..4],
        [
            ("/", "search"),
            ("s", "sort"),
            ("r", "reverse"),
            ("⏎", "stacks")
        ],
        "the pane's first keys stay"
    );
}

/// The press a footer hint's key stands for, where it is one key.
fn press_of(key: &str) -> Option<Press> {
    let mut chars = key.chars();
    match (key, chars.next(), chars.next()) {
        ("⏎", ..) => Some(Enter),
        ("⌫", ..) => Some(Backspace),
        ("Esc", ..) => Some(Esc),
        (_, Some(c), None) => Some(Char(c)),
        _ => None,
    }
}

/// The footer offers no key that can only answer "no …": a listing
/// without call paths has no `⏎ stacks` or `t in tree` in Functions and
/// none of the Call tree's or the Flame pane's keys; a VS flame graph no
/// `t time`. Each key offered, pressed, says no "no …".
#[test]
fn the_footer_offers_only_keys_that_work_here() {
    let keys = |app: &App| app.hints().iter().map(|h| h.0).collect::<Vec<_>>();
    let mut app = listing(200, 40);
    let k = keys(&app);
    assert!(!k.contains(&"⏎") && !k.contains(&"t"), "{k:?}");
    for tab in [3, 4] {
        run(&mut app, &[pane_key(tab)]);
        assert_eq!(keys(&app), [".", "g", "?", "q"], "pane {tab}");
    }
    let mut app = vs_tree(200, 40);
    run(&mut app, &[pane_key(4)]);
    let k = keys(&app);
    assert!(!k.contains(&"t") && k.contains(&"T"), "{k:?}");
    for make in [listing, vs_tree, orders_run, demo] {
        for tab in 0..7 {
            let mut app = make(200, 40);
            run(&mut app, &[pane_key(tab)]);
            for (key, word) in app.hints() {
                let Some(press) = press_of(key) else { continue };
                let mut app = make(200, 40);
                run(&mut app, &[pane_key(tab), press]);
                let said = app.status.clone().unwrap_or_default();
                assert!(!said.starts_with("no "), "{tab}: {key} {word}: {said}");
            }
        }
    }
}

/// The help lists no op letter as a key: it says they are the letters of
/// the events' Op column, each with what it means (formats.md § xpp);
/// and the search's line names fzf's `|` with the rest of its syntax.
#[test]
fn the_help_says_the_op_letters_are_no_keys() {
    let rows = help_rows();
    for (section, keys) in &rows {
        for (k, _) in keys {
            assert!(!k.contains("i I O o"), "{section}: {k}");
        }
    }
    let (_, events) = rows.iter().find(|r| r.0 == "Events").expect("listed");
    let ops = events.iter().find(|r| r.0 == "Op column").expect("a note");
    for meaning in [
        "not keys",
        "i about to enter",
        "I entered",
        "O about to return",
        "o returned",
    ] {
        assert!(ops.1.contains(meaning), "{meaning}: {}", ops.1);
    }
    let (_, prompt) = rows
        .iter()
        .find(|r| r.0 == "Search and finder")
        .expect("listed");
    assert!(prompt[0].1.contains("a | b"), "{}", prompt[0].1);
}

/// A message too long for the footer is boxed; the next key closes the
/// box and acts too: a long why, a thread choice's long result.
#[test]
fn a_message_box_closes_and_the_key_acts() {
    let mut app = demo(80, 24);
    app.status = Some(format!("a why {}", "x".repeat(100)));
    assert!(app.status_boxed());
    let at = app.cursor();
    run(&mut app, &[Down]);
    assert_eq!((app.cursor(), app.status.as_deref()), (at + 1, None));
    let mut app = two_threads(80, 24);
    for _ in 0..app.table().rows.len() {
        if super::selected_name(&app) == "WORKER" {
            break;
        }
        app.press(Down);
    }
    assert_eq!(super::selected_name(&app), "WORKER");
    run(&mut app, &[Char('m'), Char('H'), Home, Enter]);
    assert!(app.status_boxed(), "{:?}", app.status);
    run(&mut app, &[pane_key(2)]);
    assert_eq!(app.tab(), super::tabs::STACKS, "the key acted");
    assert!(app.status.is_none());
}

/// The legend under a table says what its percent columns are out of,
/// and only those: the stacks and the packets have none.
#[test]
fn the_legend_says_only_the_percents_shown() {
    let mut app = demo(120, 40);
    let l = legend(&app);
    assert!(
        l.contains("% of session 2,337.474 ms · hit % of 3,010 samples"),
        "{l}"
    );
    for tab in [2, 5] {
        run(&mut app, &[pane_key(tab)]);
        assert!(!legend(&app).contains('%'), "{tab}: {}", legend(&app));
    }
    let mut app = orders_run(120, 40);
    run(&mut app, &[pane_key(1)]);
    let l = legend(&app);
    assert!(
        l.contains("% of the line's function (no function: of session 150.000 ms)"),
        "{l}"
    );
}

/// A function's lines (`l`) are shares of its time: MAIN's two call
/// sites in orders-run hold 57 and 23 of its 91 ms, and the legend names
/// MAIN's time; the report's lines give the same percents.
#[test]
fn a_functions_lines_are_shares_of_its_time() {
    let mut app = orders_run(80, 24);
    assert_eq!(super::selected_name(&app), "MAIN");
    run(&mut app, &[Char('l')]);
    let s = screen(&app);
    assert!(legend(&app).contains("% of MAIN's 91.000 ms"), "{s}");
    assert!(s.contains("62.64") && s.contains("25.27"), "{s}");
    let p = app.profile();
    let pct = |name: &str| {
        let l = p.line_ids().find(|&l| p.name(p.line(l).file) == name);
        let l = l.expect("a call site of that caller");
        match LineColumn::Pct.value(p, l) {
            Value::Pct(x) => x,
            other => panic!("{other:?}"),
        }
    };
    let round = |x: Option<f64>| x.map(|x| (x * 100.0).round() / 100.0);
    assert_eq!(
        round(pct("READITEM")),
        Some(78.95),
        "45 of READITEM's 57 ms"
    );
    assert_eq!(round(pct("(top level)")), Some(100.0), "of the session");
}

/// `?` opens the help at the keys of the pane on screen (its title says
/// there is more above), at its top where the pane has none of its own;
/// it never scrolls past its end, so `↑` after `End` moves at once.
#[test]
fn help_opens_at_the_panes_keys() {
    for (tab, heading) in [
        (0, "Functions"),
        (3, "Call tree"),
        (4, "Flame"),
        (1, "Lines"),
    ] {
        let mut app = demo(80, 24);
        run(&mut app, &[pane_key(tab), Char('?')]);
        let s = screen(&app);
        let top = s.lines().nth(1).unwrap_or_default();
        assert!(top.contains("↑"), "more above: {top}");
        let on_screen = s
            .lines()
            .skip(2)
            .any(|l| l.contains(&format!("│ {heading} ")));
        assert!(on_screen, "{heading}: {s}");
    }
    let mut app = demo(80, 24);
    run(&mut app, &[Char('?')]);
    let first = screen(&app).lines().nth(2).unwrap_or_default().to_string();
    assert!(first.contains("│ Functions "), "{first}");
    run(&mut app, &[Esc, pane_key(6), Char('?')]);
    assert_eq!(app.mode, Mode::Help(0), "Info has no keys of its own");
    let max = crate::tui::help::max_scroll(app.size);
    run(&mut app, &[End]);
    assert_eq!(app.mode, Mode::Help(max));
    run(&mut app, &[Up]);
    assert_eq!(app.mode, Mode::Help(max - 1), "↑ moves at once");
}
