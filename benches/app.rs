//! The app with a million rows: one frame of each pane (TestBackend),
//! re-sorting, and a search keystroke, each through `App::update` as a key
//! press would go.

use criterion::{Criterion, criterion_group, criterion_main};
use profx::fixture_gen::large::profile;
use profx::tui::App;
use profx::tui::draw;
use profx::tui::intent::Intent;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use std::time::{Duration, Instant};

const ROWS: u32 = 1_000_000;

/// The panes' places on the tab line (their number keys, from 0).
const TREE: usize = 3;
const FLAME: usize = 4;
const TRACE: usize = 5;
const INFO: usize = 6;
const TIMELINE: usize = 7;

fn app() -> App {
    App::new(profile(ROWS), "generated", Rect::new(0, 0, 160, 48), true)
}

fn render(c: &mut Criterion) {
    let mut app = app();
    let mut term = Terminal::new(TestBackend::new(160, 48)).expect("a test terminal");
    for (label, pane) in [("functions", 0), ("lines", 1), ("stacks", 2)] {
        app.update(Intent::GoPane(pane));
        c.bench_function(&format!("render/{label}_1m_rows"), |b| {
            b.iter(|| term.draw(|f| draw(f, &app)).map(|_| ()))
        });
    }
    app.update(Intent::GoPane(INFO));
    c.bench_function("render/info", |b| {
        b.iter(|| term.draw(|f| draw(f, &app)).map(|_| ()))
    });
    // The trace pane inside a packet of a generated DELDBE trace of about
    // 1.1 M events, scrolled to the middle: rows decoded from the bytes.
    let mut trace = App::new(
        events_profile(),
        "generated",
        Rect::new(0, 0, 160, 48),
        true,
    );
    trace.update(Intent::GoPane(TRACE));
    trace.update(Intent::Open);
    for _ in 0..10_000 {
        trace.update(Intent::PageDown);
    }
    c.bench_function("render/events_1m_rows", |b| {
        b.iter(|| term.draw(|f| draw(f, &trace)).map(|_| ()))
    });
}

fn events_profile() -> profx::model::Profile {
    deldbe_profile(32 << 20)
}

/// A generated DELDBE trace of `bytes`, loaded as the app loads one of
/// that size (its calls in time order kept up to 64 MiB only).
fn deldbe_profile(bytes: u64) -> profx::model::Profile {
    use profx::fixture_gen::large::{Format, Spec, write};
    use profx::load::{Input, LoadOptions, load_inputs};
    let mut out = std::io::Cursor::new(Vec::new());
    let spec = Spec {
        kind: Format::Deldbe,
        bytes,
        names: 5000,
        shape: Default::default(),
    };
    write(spec, &mut out).expect("generates");
    let input = Input::owned("generated.txt", out.into_inner());
    load_inputs(&[input], &LoadOptions::default()).expect("loads")
}

fn sort(c: &mut Criterion) {
    let mut app = app();
    let mut group = c.benchmark_group("sort");
    group.sample_size(10);
    // Each press re-sorts the million rows by the next column, so the
    // time is the average over the pane's columns.
    group.bench_function("functions_1m_next_column", |b| {
        b.iter(|| app.update(Intent::SortNext))
    });
    group.bench_function("functions_1m_reverse", |b| {
        b.iter(|| app.update(Intent::Reverse))
    });
    group.finish();
}

/// Times `keys` typed into the search prompt, clearing it (untimed) first.
fn typing(app: &mut App, keys: &str, iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        app.update(Intent::ClearInput);
        let (first, last) = keys.split_at(keys.len() - 1);
        first.chars().for_each(|k| app.update(Intent::Input(k)));
        let start = Instant::now();
        last.chars().for_each(|k| app.update(Intent::Input(k)));
        total += start.elapsed();
    }
    total
}

fn search(c: &mut Criterion) {
    let mut app = app();
    app.update(Intent::Search);
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("first_key_1m_names", |b| {
        b.iter_custom(|iters| typing(&mut app, "o", iters))
    });
    group.bench_function("fourth_key_1m_names", |b| {
        b.iter_custom(|iters| typing(&mut app, "inv7", iters))
    });
    group.finish();
}

/// A trace whose tree has about a million nodes: `roots` calls of `main`'s
/// children, each a chain `depth` deep.
fn tree_profile(children: u32, depth: u32) -> profx::model::Profile {
    trace_profile(children, depth, false)
}

/// `tree_profile`, with its calls in time order when `timeline`.
fn trace_profile(children: u32, depth: u32, timeline: bool) -> profx::model::Profile {
    use profx::model::metrics::TraceTime;
    use profx::model::{Place, ProfileBuilder};
    let mut b = ProfileBuilder::new("bench");
    if timeline {
        b.record_timeline();
    }
    let m = b.intern("");
    let func = |b: &mut ProfileBuilder, name: String| {
        let n = b.intern(&name);
        b.function(n, m)
    };
    let main = func(&mut b, "main".into());
    let chain: Vec<_> = (0..depth)
        .map(|d| func(&mut b, format!("level{d}")))
        .collect();
    let kids: Vec<_> = (0..children)
        .map(|k| func(&mut b, format!("child{k}")))
        .collect();
    b.trace_begin(TraceTime::Timed);
    let t = b.trace_thread(1);
    let mut clock = 0.0;
    let mut tick = |b: &mut ProfileBuilder| {
        clock += 1.0;
        b.trace_time(t, clock, || Place::Line(1));
    };
    tick(&mut b);
    b.trace_enter(t, main, 0, None);
    for &k in &kids {
        tick(&mut b);
        b.trace_enter(t, k, 0, None);
        for &f in &chain {
            tick(&mut b);
            b.trace_enter(t, f, 0, None);
        }
        for _ in 0..=chain.len() {
            tick(&mut b);
            b.trace_exit(t);
        }
    }
    tick(&mut b);
    b.trace_exit(t);
    b.finish()
}

/// The Call tree on a million nodes: the key that opens every row, a frame
/// drawn with them open, and opening a node of 100,000 children.
fn call_tree(c: &mut Criterion) {
    let mut group = c.benchmark_group("call_tree");
    group.sample_size(10);
    let mut app = App::new(
        tree_profile(1000, 999),
        "generated",
        Rect::new(0, 0, 160, 48),
        true,
    );
    app.update(Intent::GoPane(TREE));
    group.bench_function("open_everything_1m_nodes", |b| {
        b.iter(|| {
            app.update(Intent::First);
            app.update(Intent::CloseRow);
            app.update(Intent::OpenAll);
        })
    });
    app.update(Intent::PageDown);
    let mut term = Terminal::new(TestBackend::new(160, 48)).expect("a test terminal");
    group.bench_function("frame_1m_nodes_open", |b| {
        b.iter(|| term.draw(|f| draw(f, &app)).map(|_| ()))
    });
    let mut wide = App::new(
        tree_profile(100_000, 1),
        "generated",
        Rect::new(0, 0, 160, 48),
        true,
    );
    wide.update(Intent::GoPane(TREE));
    group.bench_function("open_100k_children", |b| {
        b.iter(|| {
            wide.update(Intent::OpenRow);
            wide.update(Intent::CloseRow);
        })
    });
    group.finish();
}

/// The Flame pane on a million nodes: a frame drawn at 300 columns, a zoom
/// in and out, and a search keystroke (issue 39: under 5 ms a frame, 50 ms
/// a zoom or a search).
fn flame(c: &mut Criterion) {
    let mut group = c.benchmark_group("flame");
    group.sample_size(20);
    let mut app = App::new(
        tree_profile(1000, 999),
        "generated",
        Rect::new(0, 0, 300, 60),
        true,
    );
    app.update(Intent::GoPane(FLAME));
    let mut term = Terminal::new(TestBackend::new(300, 60)).expect("a test terminal");
    group.bench_function("frame_1m_nodes_300_columns", |b| {
        b.iter(|| term.draw(|f| draw(f, &app)).map(|_| ()))
    });
    app.update(Intent::Move(1));
    group.bench_function("zoom_in_and_out_1m_nodes", |b| {
        b.iter(|| {
            app.update(Intent::Zoom);
            app.update(Intent::ZoomOut);
        })
    });
    app.update(Intent::Search);
    group.bench_function("search_key_1m_nodes", |b| {
        b.iter_custom(|iters| typing(&mut app, "level9", iters))
    });
    group.finish();
}

/// The Flame pane's time order on a million calls, a thousand deep and
/// all side by side: making the chart (the first `t`), a frame at 300
/// columns, a zoom in and out (issue 39: under 5 ms a frame, 50 ms a zoom).
fn flame_chart(c: &mut Criterion) {
    use profx::analysis::flame_chart::Chart;
    let mut group = c.benchmark_group("flame_chart");
    group.sample_size(10);
    for (label, children, depth) in [("deep", 1000, 999), ("wide", 1_000_000, 0)] {
        let p = trace_profile(children, depth, true);
        let tl = p.timeline().expect("asked for");
        group.bench_function(format!("make_1m_calls_{label}"), |b| {
            b.iter(|| Chart::from_timeline(tl).calls.len())
        });
        let mut app = App::new(p, "generated", Rect::new(0, 0, 300, 60), true);
        app.update(Intent::GoPane(FLAME));
        app.update(Intent::TimeOrder);
        let mut term = Terminal::new(TestBackend::new(300, 60)).expect("a test terminal");
        group.bench_function(format!("frame_1m_calls_{label}_300_columns"), |b| {
            b.iter(|| term.draw(|f| draw(f, &app)).map(|_| ()))
        });
        app.update(Intent::Move(1));
        group.bench_function(format!("zoom_in_and_out_1m_calls_{label}"), |b| {
            b.iter(|| {
                app.update(Intent::Zoom);
                app.update(Intent::ZoomOut);
            })
        });
    }
    group.finish();
}

/// The Timeline on a generated DELDBE trace of 256 MiB (4 threads, about
/// 9 M events; its calls in time order not kept, as the app loads it):
/// a frame of the whole run and one zoomed in past the lanes' buckets
/// (busy time only), at 160 columns (issue 65: under 20 ms a frame).
fn timeline(c: &mut Criterion) {
    let mut group = c.benchmark_group("timeline");
    group.sample_size(20);
    let mut app = App::new(
        deldbe_profile(256 << 20),
        "generated",
        Rect::new(0, 0, 160, 48),
        true,
    );
    app.update(Intent::GoPane(TIMELINE));
    let mut term = Terminal::new(TestBackend::new(160, 48)).expect("a test terminal");
    group.bench_function("frame_9m_events", |b| {
        b.iter(|| term.draw(|f| draw(f, &app)).map(|_| ()))
    });
    for _ in 0..16 {
        app.update(Intent::ZoomTime(1));
    }
    group.bench_function("frame_9m_events_zoomed", |b| {
        b.iter(|| term.draw(|f| draw(f, &app)).map(|_| ()))
    });
    group.finish();
}

/// A PLIST line-counting profile naming every tenth line of a 100,000-line
/// `big.c` beside it, in `dir`.
fn big_source(dir: &std::path::Path) -> profx::model::Profile {
    const LINES: u32 = 100_000;
    let mut text: String = (1..=LINES)
        .map(|n| format!("\tint v{n} = {n}; /* line {n} */\n"))
        .collect();
    std::fs::write(dir.join("big.c"), std::mem::take(&mut text)).expect("writes big.c");
    text.push_str("0\t1.10\tMicrosoft PLIST\n1\t321\tProfile: Line counting, sorted by line\n");
    for n in (1..=LINES).step_by(10) {
        text.push_str(&format!(
            "7\tbig.exe\tC:\\src\\big.c\t{n}\t{}\n",
            n % 97 + 1
        ));
    }
    let path = dir.join("big-lines.txt");
    std::fs::write(&path, text).expect("writes the profile");
    let path = path.to_string_lossy().into_owned();
    profx::load::load_paths(&[path], &Default::default()).expect("the profile loads")
}

/// The source view (issue 67) of a 100,000-line file, scrolled to its
/// middle: opening it (`o`, the file read and every line given its cost)
/// and one frame (only the rows on screen are drawn: under 20 ms).
fn source_view(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let p = big_source(dir.path());
    let mut app = App::new(p, "big-lines.txt", Rect::new(0, 0, 160, 48), true);
    app.update(Intent::GoPane(1));
    c.bench_function("source/open_100k_lines", |b| {
        b.iter(|| {
            app.update(Intent::OpenSource);
            app.update(Intent::Back);
        })
    });
    app.update(Intent::OpenSource);
    for _ in 0..1_000 {
        app.update(Intent::PageDown);
    }
    let mut term = Terminal::new(TestBackend::new(160, 48)).expect("a test terminal");
    c.bench_function("source/render_100k_lines", |b| {
        b.iter(|| term.draw(|f| draw(f, &app)).map(|_| ()))
    });
}

criterion_group!(
    benches,
    source_view,
    render,
    sort,
    search,
    call_tree,
    flame,
    flame_chart,
    timeline
);
criterion_main!(benches);
