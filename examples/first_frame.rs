//! Time to first frame (issue 7: at most the load time plus 50 ms): loads
//! FILE as the app does, then times what the app does before its first
//! frame (`App::new`) and that frame, drawn on a `TestBackend` of the
//! given size. Prints the three times and the app's share.
//!
//! With `--every-pane` it then opens every tab in turn, the Functions
//! detail's callers and callees counted, a frame drawn on each, and prints
//! the process's peak resident memory (issue 69: the app's memory after a
//! visit to every pane), and again once the call graph, made on a thread
//! of its own, is made.
//!
//! Usage: cargo run --release --example first_frame -- FILE [WIDTHxHEIGHT] [--every-pane]

use profx::load::{Input, LoadOptions, load_inputs};
use profx::tui::intent::Intent;
use profx::tui::{App, draw};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let every_pane = args.iter().any(|a| a == "--every-pane");
    args.retain(|a| a != "--every-pane");
    let (Some(path), size) = (args.first(), args.get(1).map(String::as_str)) else {
        eprintln!("usage: first_frame FILE [WIDTHxHEIGHT]");
        return ExitCode::from(2);
    };
    let Some((w, h)) = size.unwrap_or("160x48").split_once('x') else {
        eprintln!("first_frame: size is WIDTHxHEIGHT");
        return ExitCode::from(2);
    };
    let (Ok(w), Ok(h)) = (w.parse::<u16>(), h.parse::<u16>()) else {
        eprintln!("first_frame: size is WIDTHxHEIGHT");
        return ExitCode::from(2);
    };
    let start = Instant::now();
    let profile = match Input::open(path).and_then(|i| load_inputs(&[i], &LoadOptions::default())) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("first_frame: {e}");
            return ExitCode::FAILURE;
        }
    };
    let loaded = start.elapsed();
    let mut app = App::new(profile, "first frame", Rect::new(0, 0, w, h), true);
    let made = start.elapsed();
    let Ok(mut term) = Terminal::new(TestBackend::new(w, h));
    if term.draw(|f| draw(f, &app)).is_err() {
        return ExitCode::FAILURE;
    }
    let drawn = start.elapsed();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    println!(
        "load {:.1} ms, app {:.1} ms, first frame {:.1} ms: first frame at load + {:.1} ms (target <= 50)",
        ms(loaded),
        ms(made - loaded),
        ms(drawn - made),
        ms(drawn - loaded)
    );
    if every_pane {
        visit_every_pane(&mut app, &mut term);
    }
    // The app's teardown is not part of the first frame.
    std::mem::forget(app);
    ExitCode::SUCCESS
}

/// Opens every tab and draws it (each intent waits for what its pane
/// needs), with the detail's callers and callees counted; then prints the
/// peak resident memory so far.
fn visit_every_pane(app: &mut App, term: &mut Terminal<TestBackend>) {
    while !neighbours_counted(app) {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    println!("first frame, its detail counted: {} MB", kib("VmRSS") >> 10);
    for (i, tab) in profx::tui::TABS.iter().enumerate() {
        let start = Instant::now();
        app.update(Intent::GoPane(i));
        let _ = term.draw(|f| draw(f, app));
        let ms = start.elapsed().as_secs_f64() * 1e3;
        println!(
            "{tab:?}: {ms:.0} ms, {} MB, peak {} MB",
            kib("VmRSS") >> 10,
            kib("VmHWM") >> 10
        );
    }
    println!("every pane visited: peak {} MB", kib("VmHWM") >> 10);
    // The call graph is made on a thread of its own after the first frame:
    // a large one may still be in the making, its memory not yet counted.
    let start = Instant::now();
    let _ = app.cx().graph();
    println!(
        "call graph made ({:.0} ms more): {} MB, peak {} MB",
        start.elapsed().as_secs_f64() * 1e3,
        kib("VmRSS") >> 10,
        kib("VmHWM") >> 10
    );
}

/// A figure of this process's memory from `/proc/self/status`, in KiB (0
/// where there is none).
fn kib(key: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with(key));
    let figure = line.and_then(|l| l.split_whitespace().nth(1));
    figure.and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// Whether the Functions detail's callers and callees are counted (a
/// thread counts them for a large profile).
fn neighbours_counted(app: &App) -> bool {
    let cx = app.cx();
    let f = app.pane().as_table().and_then(|t| t.split_function(&cx));
    f.is_none_or(|f| cx.neighbours(f).is_some())
}
