//! The header of a trace followed by the real follow thread (tui.md §
//! Following a trace): the event rate while records come, and once the
//! writer stops, `idle` in its place rather than the last rate.

use super::app_of;
use super::screens::{render, text};
use crate::load::LoadOptions;
use crate::load::follow::Follower;
use crate::tui::App;
use crate::tui::intent::Intent;
use std::path::Path;
use std::time::{Duration, Instant};

/// A generated trace cut at line ends into a first burst, `n` pieces a
/// writer adds one by one, and a last burst.
fn bursts(n: usize) -> (Vec<u8>, Vec<Vec<u8>>, Vec<u8>) {
    let bytes = crate::fixture_gen::large::bytes(crate::fixture_gen::large::Spec {
        kind: crate::fixture_gen::large::Format::Deldbe,
        bytes: 60_000,
        names: 12,
        shape: Default::default(),
    });
    let cut = |upto: usize| {
        bytes[..upto]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1)
    };
    let at: Vec<usize> = (1..=n + 1)
        .map(|i| cut(bytes.len() * i / (n + 2)))
        .collect();
    let pieces = at.windows(2).map(|w| bytes[w[0]..w[1]].to_vec()).collect();
    (bytes[..at[0]].to_vec(), pieces, bytes[at[n]..].to_vec())
}

fn append(path: &Path, bytes: &[u8]) {
    crate::fixture_gen::append(path, bytes).expect("written");
}

fn header(app: &App) -> String {
    let screen = text(&render(app));
    screen.lines().next().unwrap_or_default().to_string()
}

/// The header once `want` holds of it, taking the follow thread's updates
/// as the event loop does; the last header when `within` runs out.
fn header_once(app: &mut App, want: impl Fn(&str) -> bool, within: Duration) -> String {
    let end = Instant::now() + within;
    loop {
        app.follow_tick();
        let h = header(app);
        if want(&h) || Instant::now() >= end {
            return h;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_rate_gives_way_to_idle_once_the_writer_stops() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("T.PRF");
    let (first, writes, last) = bursts(30);
    append(&path, &first);
    let opts = LoadOptions {
        timeline: true,
        ..Default::default()
    };
    let name = path.to_string_lossy().into_owned();
    let loaded = crate::load::load_paths(std::slice::from_ref(&name), &opts).expect("loads");
    let mut app = app_of(loaded, "T.PRF", 200, 30);
    app.follow_with(Follower::new(&name, &opts).expect("followed"));
    let secs = Duration::from_secs(5);
    let h = header_once(&mut app, |h| h.contains("last data"), secs);
    assert!(h.contains("● live") && h.contains("last data"), "{h}");
    // A writer adding records five times a second: the updates have a
    // rate, and the writer is never idle for an update's spacing.
    let mut rate = None;
    for piece in &writes {
        append(&path, piece);
        let h = header_once(&mut app, |_| false, Duration::from_millis(200));
        if h.contains("ev/s") {
            rate = Some(h);
            break;
        }
    }
    let Some(h) = rate else {
        panic!("no rate while records came")
    };
    assert!(!h.contains("idle"), "{h}");
    let h = header_once(&mut app, |h| !h.contains("ev/s"), secs);
    assert!(!h.contains("ev/s"), "no rate once the writer stopped: {h}");
    assert!(h.contains("● live, idle") && h.contains("last data"), "{h}");
    // Records again: live, no longer idle, and no rate spread over the
    // idle spell until the next update.
    append(&path, &last);
    let h = header_once(&mut app, |h| !h.contains("idle"), secs);
    assert!(h.contains("● live") && !h.contains("idle"), "{h}");
    assert!(!h.contains("ev/s"), "{h}");
    app.update(Intent::Follow);
    assert!(!app.following());
}

/// A file that appears under the followed name and is no trace stops
/// following, and the panes say why rather than what following waits for
/// (a new user's walk: the waiting text and the trace format stayed).
#[test]
fn a_file_that_is_no_trace_is_said_so_in_every_pane() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("late.PRF");
    let name = path.to_string_lossy().into_owned();
    let mut b = crate::model::ProfileBuilder::new("xpp");
    let waiting = crate::model::MetaValue::Text("no trace record yet".into());
    b.set_meta(crate::report::fmt::WAITING, waiting);
    let mut app = app_of(b.finish(), "late.PRF", 120, 30);
    app.follow_with(Follower::new(&name, &LoadOptions::default()).expect("followed"));
    let csv = std::fs::read("tests/fixtures/vs-csv/call-tree.csv").expect("a CSV fixture");
    append(&path, &csv);
    let secs = Duration::from_secs(10);
    let h = header_once(&mut app, |h| h.contains("not followed"), secs);
    assert!(h.contains("not followed") && !h.contains("● live"), "{h}");
    let screen = text(&render(&app));
    assert!(screen.contains("nothing to show"), "{screen}");
    assert!(!screen.contains("waits for"), "{screen}");
}
