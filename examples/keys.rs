//! Keystroke times on a real file (issue 7: re-sorting 1 M rows by any
//! column in at most 120 ms, a search keystroke over 1 M names in at most
//! 50 ms): loads FILE, opens each pane that has rows, and times
//! `App::update` for
//! - the key that opens the pane (the panes the first frame did not show
//!   are made on a thread from the start, so this may wait for it);
//! - a press of `s` (the next column) through every column twice, then
//!   `r` (reverse) as often; the first press of a pane, which may make its
//!   tie order, is timed apart;
//! - each key of QUERY typed into the search prompt (default `fn0`, which
//!   most generated names match at first), then each erased: every
//!   keystroke's time is printed, in order (the second is often the
//!   slowest: the first narrows nothing).
//!
//! First of all it times the first frame: the app made from the loaded
//! profile and drawn once (issue 40: at most 50 ms after the load), and
//! when the detail's callers and callees, counted on a thread for a large
//! profile, are there to be drawn.
//!
//! Then the Call tree (issue 38: instant on a million nodes): opening the
//! tab, → on the first root, `*` on it, End, a frame drawn there, `p` from
//! the top, `i` (bottom-up) and → on its first root, each key of QUERY.
//!
//! Prints per pane its rows and the fastest, median and slowest press.
//!
//! Usage: cargo run --release --example keys -- FILE [QUERY]

use profx::analysis::view::Table;
use profx::load::{Input, LoadOptions, load_inputs};
use profx::tui::App;
use profx::tui::intent::Intent;
use ratatui::layout::Rect;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: keys FILE [QUERY]");
        return ExitCode::from(2);
    };
    let query = std::env::args().nth(2).unwrap_or_else(|| "fn0".into());
    let profile = match Input::open(&path).and_then(|i| load_inputs(&[i], &LoadOptions::default()))
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("keys: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let mut app = App::new(profile, "keys", Rect::new(0, 0, 160, 48), true);
    let made = start.elapsed().as_secs_f64() * 1e3;
    let drawn = frame_ms(&app);
    println!(
        "first frame: the app made in {made:.1} ms, drawn in {drawn:.1} ms: {:.1} ms after the load (target <= 50)",
        made + drawn
    );
    // A large profile's first frame draws the detail's callers and
    // callees as being counted; its thread counts them next.
    for _ in 0..10_000 {
        if lists_counted(&app) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    println!(
        "first frame: the detail's callers and callees {:.1} ms after the load",
        start.elapsed().as_secs_f64() * 1e3
    );
    app.prepare_other_panes();
    for (label, table, pane) in [
        ("functions", Table::Functions, 0),
        ("lines", Table::Lines, 1),
        ("stacks", Table::Stacks, 2),
    ] {
        let open = timed(&mut app, Intent::GoPane(pane));
        let rows = shown_table(&app).total;
        if rows == 0 {
            continue;
        }
        let first = timed(&mut app, Intent::SortNext);
        let columns = app.cx().columns(table).cols.len();
        let mut ms = Vec::new();
        for action in [Intent::SortNext, Intent::Reverse] {
            for _ in 0..2 * columns {
                ms.push(timed(&mut app, action.clone()));
            }
        }
        println!(
            "{label}: {rows} rows, opened in {open:.1} ms; re-sort: first press {first:.1} ms, then {} (target <= 120)",
            spread(ms)
        );
        app.update(Intent::Search);
        let typed: Vec<f64> = query
            .chars()
            .map(|c| timed(&mut app, Intent::Input(c)))
            .collect();
        let shown = shown_table(&app).rows.len();
        let erased: Vec<f64> = query
            .chars()
            .map(|_| timed(&mut app, Intent::Erase))
            .collect();
        println!(
            "{label}: search {query:?} ({shown} rows match): typed {} [{}], erased {} [{}] (target <= 50)",
            spread(typed.clone()),
            each(&typed),
            spread(erased.clone()),
            each(&erased)
        );
        app.update(Intent::Cancel);
    }
    call_tree(&mut app, &query);
    std::mem::forget(app);
    ExitCode::SUCCESS
}

fn call_tree(app: &mut App, query: &str) {
    let rows = |app: &App| app.pane().as_tree().map_or(0, |t| t.tree.rows.len());
    let open = timed(app, Intent::GoPane(3));
    let right = timed(app, Intent::OpenRow);
    let after_right = rows(app);
    let all = timed(app, Intent::OpenAll);
    let after_all = rows(app);
    let end = timed(app, Intent::Last);
    let frame = frame_ms(app);
    app.update(Intent::First);
    let hot = timed(app, Intent::HotPath);
    println!(
        "call tree: {} nodes; tab {open:.1} ms; → {right:.1} ms ({after_right} rows); \
         * {all:.1} ms ({after_all} rows); End {end:.1} ms; a frame {frame:.1} ms; p {hot:.1} ms",
        app.profile().nodes().len()
    );
    let invert = timed(app, Intent::Invert);
    app.update(Intent::First);
    let up_right = timed(app, Intent::OpenRow);
    println!(
        "call tree: i {invert:.1} ms; → on the first bottom-up root {up_right:.1} ms ({} rows)",
        rows(app)
    );
    app.update(Intent::Invert);
    app.update(Intent::Search);
    let typed: Vec<f64> = query
        .chars()
        .map(|c| timed(app, Intent::Input(c)))
        .collect();
    println!(
        "call tree: search {query:?}: typed {} [{}] (target <= 50)",
        spread(typed.clone()),
        each(&typed)
    );
    app.update(Intent::Cancel);
}

/// The table on screen.
fn shown_table(app: &App) -> &profx::tui::TablePane {
    app.pane().as_table().expect("a table is on screen")
}

/// Whether the detail split's callers and callees are counted (the first
/// view of a large profile counts them on a thread).
fn lists_counted(app: &App) -> bool {
    let cx = app.cx();
    let f = app
        .pane()
        .as_table()
        .and_then(|t| t.split_function(&app.cx()));
    f.is_none_or(|f| cx.neighbours(f).is_some())
}

/// One frame of the app drawn into an off-screen terminal.
fn frame_ms(app: &App) -> f64 {
    let backend = ratatui::backend::TestBackend::new(160, 48);
    let mut term = ratatui::Terminal::new(backend).expect("a test backend never fails");
    let start = Instant::now();
    let _ = term.draw(|f| profx::tui::draw(f, app));
    start.elapsed().as_secs_f64() * 1e3
}

fn timed(app: &mut App, action: Intent) -> f64 {
    let start = Instant::now();
    app.update(action);
    start.elapsed().as_secs_f64() * 1e3
}

/// Each time in order: "12.0, 40.1, 3.2".
fn each(ms: &[f64]) -> String {
    let each: Vec<String> = ms.iter().map(|m| format!("{m:.1}")).collect();
    each.join(", ")
}

/// "N presses: fastest / median / slowest".
fn spread(mut ms: Vec<f64>) -> String {
    ms.sort_by(f64::total_cmp);
    match (ms.first(), ms.last()) {
        (Some(first), Some(last)) => format!(
            "{} presses: {first:.1} / {:.1} / {last:.1} ms",
            ms.len(),
            ms[ms.len() / 2]
        ),
        _ => "no presses".into(),
    }
}
