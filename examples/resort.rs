//! Re-sort times on a real file (issue 7: re-sorting 1 M rows by any column
//! in at most 120 ms): loads FILE, opens each pane that has rows, and times
//! `App::update` for a press of `s` (the next column) through every column
//! twice, then `r` (reverse) as often. The first press of a pane, which may
//! make its tie order, is timed apart. Prints per pane its rows and the
//! fastest, median and slowest press.
//!
//! Usage: cargo run --release --example resort -- FILE

use profx::load::{Input, LoadOptions, load_inputs};
use profx::tui::App;
use profx::tui::action::Action;
use profx::tui::view::Tab;
use ratatui::layout::Rect;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: resort FILE");
        return ExitCode::from(2);
    };
    let profile = match Input::open(&path).and_then(|i| load_inputs(&[i], &LoadOptions::default()))
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("resort: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut app = App::new(profile, "resort", Rect::new(0, 0, 160, 48), true);
    app.prepare_other_panes();
    for (label, tab) in [
        ("functions", Tab::Functions),
        ("lines", Tab::Lines),
        ("stacks", Tab::Stacks),
    ] {
        app.update(Action::Tab(tab));
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
                ms.push(timed(&mut app, action));
            }
        }
        ms.sort_by(f64::total_cmp);
        println!(
            "{label}: {rows} rows, first press {first:.1} ms, then {} presses: {:.1} / {:.1} / {:.1} ms (fastest / median / slowest; target <= 120)",
            ms.len(),
            ms[0],
            ms[ms.len() / 2],
            ms[ms.len() - 1]
        );
    }
    std::mem::forget(app);
    ExitCode::SUCCESS
}

fn timed(app: &mut App, action: Action) -> f64 {
    let start = Instant::now();
    app.update(action);
    start.elapsed().as_secs_f64() * 1e3
}
