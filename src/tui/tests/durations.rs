//! Issue 65's keys, one test a key: `c` through the callers, the callees
//! and the calls' durations; `w` from a function to its slowest call in
//! the Trace pane; `%` from a call to its return and back (across
//! packets too); what each says where it does nothing; and the durations
//! list drawn at 80×24.

use super::Press::*;
use super::screens::{render, text};
use super::{Scope, app_of, demo, fixture, pane_key, run, selected_name};
use crate::model::{Event, FuncId};
use crate::tui::app::App;
use crate::tui::pane::Focus;

/// The two-thread order run: READITEM's six calls take 7 to 12 ms, the
/// slowest entered at 52 ms and left at 64 ms.
fn orders(w: u16, h: u16) -> App {
    app_of(fixture("xpp/orders-run.prf"), "orders-run.prf", w, h)
}

/// Moves the Functions pane's cursor to `name`, with the keys.
fn move_to(app: &mut App, name: &str) -> FuncId {
    for _ in 0..app.table().rows.len() {
        if selected_name(app) == name {
            break;
        }
        app.press(Down);
    }
    assert_eq!(selected_name(app), name, "{name} is in the pane");
    app.selected_function().expect("a function")
}

/// The event the cursor is on, decoded, with its packet and index.
fn event(app: &App) -> (usize, usize, Event) {
    let Scope::Events(k) = app.scope() else {
        panic!("a packet's events are on screen, not {:?}", app.scope());
    };
    let i = app.table().selected().expect("an event") as usize;
    let e = app
        .cx()
        .profile
        .packet(k)
        .events
        .get(i)
        .expect("it decodes");
    (k.index(), i, e)
}

/// (time, op, function) of the event under the cursor.
fn said(app: &App) -> (Option<f64>, String, String) {
    let (_, _, e) = event(app);
    let name = e
        .function
        .map(|f| app.cx().profile.function_name(f).to_string());
    (e.time_ms, e.op, name.unwrap_or_default())
}

fn status(app: &App) -> String {
    app.status.clone().unwrap_or_default()
}

#[test]
fn c_goes_through_callers_callees_and_the_durations() {
    let mut app = orders(80, 24);
    move_to(&mut app, "READITEM");
    let mut seen = Vec::new();
    for _ in 0..4 {
        app.press(Char('c'));
        seen.push(app.table().focus);
    }
    use Focus::*;
    assert_eq!(seen, [Callers(0), Callees(0), Durations, Table]);
    run(&mut app, &[Char('c'), Char('c'), Char('c')]);
    assert_eq!(app.table().focus, Durations);
    // ↑ ↓ have no row to move to there; Esc leaves it.
    run(&mut app, &[Down, Up]);
    assert_eq!(app.table().focus, Durations);
    app.press(Esc);
    assert_eq!(app.table().focus, Table);
    // A profile without durations (the demo's BR log) keeps two lists.
    let mut demo = demo(80, 24);
    run(&mut demo, &[Char('c'), Char('c'), Char('c')]);
    assert_eq!(demo.table().focus, Table);
}

#[test]
fn w_goes_to_the_first_event_of_the_slowest_call() {
    let mut app = orders(80, 24);
    move_to(&mut app, "READITEM");
    app.press(Char('w'));
    assert_eq!(said(&app), (Some(52.0), "i".into(), "READITEM".into()));
    // Back in Functions, where it was.
    app.press(Backspace);
    assert_eq!(
        (app.scope(), selected_name(&app)),
        (Scope::Functions, "READITEM".into())
    );
    // From the callers' list: the caller's slowest call.
    run(&mut app, &[Char('c'), Char('w')]);
    assert_eq!(said(&app), (Some(0.0), "i".into(), "MAIN".into()));
    // From the durations list, Enter as w (back in Functions, the
    // callers' list is left first).
    let keys = [Backspace, Esc, Char('c'), Char('c'), Char('c'), Enter];
    run(&mut app, &keys);
    assert_eq!(said(&app).0, Some(52.0));
    // A step changes no event: the slowest call is still there.
    let mut app = orders(80, 24);
    move_to(&mut app, "ROUND");
    app.press(Char('m'));
    move_to(&mut app, "READITEM");
    app.press(Char('w'));
    assert_eq!(said(&app), (Some(52.0), "i".into(), "READITEM".into()));
}

#[test]
fn percent_goes_from_a_call_to_its_return_and_back() {
    let mut app = orders(80, 24);
    move_to(&mut app, "READITEM");
    app.press(Char('w'));
    app.press(Char('%'));
    assert_eq!(said(&app), (Some(64.0), "o".into(), "READITEM".into()));
    app.press(Char('%'));
    assert_eq!(said(&app), (Some(52.0), "i".into(), "READITEM".into()));
    // An unfiltered trace: `i` pairs with `o`, `I` (inside) with `O`.
    let mut app = app_of(fixture("xpp/unfiltered.prf"), "unfiltered.prf", 80, 24);
    run(&mut app, &[pane_key(5), Enter, Char('%')]);
    assert_eq!((event(&app).1, said(&app).1), (9, "o".into()));
    run(&mut app, &[Home, Down, Char('%')]);
    assert_eq!((event(&app).1, said(&app).1), (8, "O".into()));
    run(&mut app, &[Char('%')]);
    assert_eq!(event(&app).1, 1);
}

/// A trace in pieces is one trace: MAIN opens in the first packet and
/// returns in the third; `%` opens that packet's events on its return.
#[test]
fn percent_crosses_packets() {
    let mut app = app_of(fixture("xpp/packeted-deldbe/D.PRF"), "D.PRF", 80, 24);
    move_to(&mut app, "MAIN");
    app.press(Char('w'));
    assert_eq!((event(&app).0, event(&app).1), (0, 0));
    app.press(Char('%'));
    assert_eq!(
        (event(&app).0, event(&app).1, said(&app).1),
        (2, 0, "o".into())
    );
    app.press(Char('%'));
    assert_eq!((event(&app).0, event(&app).1), (0, 0));
}

#[test]
fn w_and_percent_say_why_where_they_do_nothing() {
    let mut app = app_of(fixture("xpp/unknown-op.prf"), "unknown-op.prf", 80, 24);
    run(&mut app, &[pane_key(5), Enter, Down, Char('%')]);
    assert!(
        status(&app).contains("pairs with no event"),
        "{}",
        status(&app)
    );
    // `%` outside a packet's events, `w` outside Functions.
    let mut app = orders(80, 24);
    app.press(Char('%'));
    assert!(status(&app).contains("return"), "{}", status(&app));
    run(&mut app, &[pane_key(3), Char('w')]);
    assert!(status(&app).contains("slowest call"), "{}", status(&app));
    // A profile without durations says so.
    let mut demo = demo(80, 24);
    demo.press(Char('w'));
    assert!(
        status(&demo).contains("no call durations"),
        "{}",
        status(&demo)
    );
}

/// After a transform the list says why it is empty, and how to undo it.
#[test]
fn a_transform_leaves_the_durations_absent() {
    let mut app = orders(80, 24);
    move_to(&mut app, "ROUND");
    app.press(Char('m'));
    move_to(&mut app, "READITEM");
    run(&mut app, &[Char('c'), Char('c'), Char('c')]);
    assert_eq!(app.table().focus, Focus::Durations);
    let screen = text(&render(&app));
    assert!(screen.contains("absent after a transform"), "{screen}");
}

#[test]
fn the_durations_list_at_80x24_and_160x48() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut app = orders(w, h);
        move_to(&mut app, "READITEM");
        run(&mut app, &[Char('c'), Char('c'), Char('c')]);
        insta::assert_snapshot!(format!("durations-{w}x{h}"), text(&render(&app)));
    }
}
