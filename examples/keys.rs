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
//!   most generated names match at first), then each erased.
//!
//! Prints per pane its rows and the fastest, median and slowest press.
//!
//! Usage: cargo run --release --example keys -- FILE [QUERY]

use profx::load::{Input, LoadOptions, load_inputs};
use profx::tui::App;
use profx::tui::action::Action;
use profx::tui::view::Tab;
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
    let mut app = App::new(profile, "keys", Rect::new(0, 0, 160, 48), true);
    app.prepare_other_panes();
    for (label, tab) in [
        ("functions", Tab::Functions),
        ("lines", Tab::Lines),
        ("stacks", Tab::Stacks),
    ] {
        let open = timed(&mut app, Action::Tab(tab));
        let rows = app.view().total;
        if rows == 0 {
            continue;
        }
        let first = timed(&mut app, Action::SortNext);
        let columns = app
            .pane(app.view().scope.kind().expect("a table"))
            .cols
            .len();
        let mut ms = Vec::new();
        for action in [Action::SortNext, Action::Reverse] {
            for _ in 0..2 * columns {
                ms.push(timed(&mut app, action.clone()));
            }
        }
        println!(
            "{label}: {rows} rows, opened in {open:.1} ms; re-sort: first press {first:.1} ms, then {} (target <= 120)",
            spread(ms)
        );
        app.update(Action::SearchOpen);
        let typed: Vec<f64> = query
            .chars()
            .map(|c| timed(&mut app, Action::Input(c)))
            .collect();
        let shown = app.view().rows.len();
        let erased: Vec<f64> = query
            .chars()
            .map(|_| timed(&mut app, Action::Erase))
            .collect();
        println!(
            "{label}: search {query:?} ({shown} rows match): typed {}, erased {} (target <= 50)",
            spread(typed),
            spread(erased)
        );
        app.update(Action::Cancel);
    }
    std::mem::forget(app);
    ExitCode::SUCCESS
}

fn timed(app: &mut App, action: Action) -> f64 {
    let start = Instant::now();
    app.update(action);
    start.elapsed().as_secs_f64() * 1e3
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
