//! How long a thread choice takes to stop (issue 62): the time from its
//! cancel being set to its replay returning, its threads ended.
//!
//! ```text
//! cargo run --release --example gen_large -- deldbe 256M 5000 /tmp/t.deldbe
//! cargo run --release -p profx-load --example cancel_latency -- /tmp/t.deldbe [RUNS] [--reference]
//! ```
//!
//! The trace is loaded as the app loads it; its first thread is chosen
//! once without a stop (the whole replay's time), then RUNS times (default
//! 20) with cancel set at a point spread over that time. Each run prints
//! when cancel was set, how long the replay took to return after it, and
//! how many threads the process had once it returned (as many as before
//! it started: the replay's have ended).

use profx_load::{LoadOptions, load_paths};
use profx_model::{Profile, Watch};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Threads of this process, as the kernel lists them.
fn threads_now() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, Iterator::count)
}

/// One replay of `ids`, cancelled `after` its start (never with `None`):
/// how long it ran, how long it took to return once cancelled, and what
/// it returned.
fn replay(p: &Profile, ids: &[u64], after: Option<Duration>) -> (Duration, Duration, bool) {
    let Some(replay) = p.replay() else {
        return (Duration::ZERO, Duration::ZERO, false);
    };
    let stop = AtomicBool::new(false);
    let cancel = || stop.load(Ordering::Relaxed);
    let watch = Watch {
        cancel: &cancel,
        progress: &|_, _| {},
    };
    std::thread::scope(|s| {
        let start = Instant::now();
        let run = s.spawn(|| {
            let result = replay.threads(ids, &watch);
            (Instant::now(), result.is_ok())
        });
        let set = after.map(|after| {
            while !run.is_finished() && start.elapsed() < after {
                std::thread::sleep(Duration::from_micros(200));
            }
            stop.store(true, Ordering::Relaxed);
            Instant::now()
        });
        let (returned, ok) = run.join().unwrap_or((Instant::now(), false));
        let latency = set.map_or(Duration::ZERO, |set| {
            returned.saturating_duration_since(set)
        });
        (returned - start, latency, ok)
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let reference = args.iter().any(|a| a == "--reference");
    let plain: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let (path, runs) = match plain.as_slice() {
        [path] => (path.to_string(), 20),
        [path, runs] => match runs.parse::<u32>() {
            Ok(n) if n > 0 => (path.to_string(), n),
            _ => return usage(),
        },
        _ => return usage(),
    };
    let opts = LoadOptions {
        reference,
        ..Default::default()
    };
    let loaded = Instant::now();
    let p = match load_paths(std::slice::from_ref(&path), &opts) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("cancel_latency: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(first) = p.threads().first() else {
        eprintln!("cancel_latency: {path} has no threads to choose");
        return ExitCode::FAILURE;
    };
    let ids = [first.id];
    println!(
        "loaded {path} ({} threads) in {:.3} s{}",
        p.threads().len(),
        loaded.elapsed().as_secs_f64(),
        if reference { ", reference" } else { "" }
    );
    let before = threads_now();
    let (whole, _, ok) = replay(&p, &ids, None);
    println!(
        "thread {} chosen, not cancelled: {:.3} s ({})",
        ids[0],
        whole.as_secs_f64(),
        if ok { "ok" } else { "failed" }
    );
    let mut latencies = Vec::new();
    for run in 0..runs {
        // Spread over the replay, the last just before its end.
        let after = whole.mul_f64(f64::from(run + 1) / f64::from(runs + 1));
        let (ran, latency, ok) = replay(&p, &ids, Some(after));
        let threads = threads_now();
        println!(
            "cancel at {:7.1} ms: returned after {:6.2} ms ({}), ran {:7.1} ms, threads {threads} (before {before})",
            after.as_secs_f64() * 1e3,
            latency.as_secs_f64() * 1e3,
            if ok { "finished first" } else { "cancelled" },
            ran.as_secs_f64() * 1e3,
        );
        if !ok {
            latencies.push(latency);
        }
    }
    latencies.sort();
    if let (Some(min), Some(max)) = (latencies.first(), latencies.last()) {
        let median = latencies[latencies.len() / 2];
        println!(
            "cancel → return over {} cancelled runs: min {:.2} ms, median {:.2} ms, max {:.2} ms (target 100 ms)",
            latencies.len(),
            min.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e3,
            max.as_secs_f64() * 1e3
        );
    }
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!("usage: cancel_latency TRACE [RUNS] [--reference]");
    ExitCode::from(2)
}
