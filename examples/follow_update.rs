//! What one update of a followed trace costs as the trace grows (issue
//! 68; BENCHMARKS.md § Following): a generated trace of each size is
//! written whole, followed, then grown by a flush of new events; the
//! update that reads them on (`Follower::profile`) is timed against a load
//! of the whole records kept (`Follower::loaded`, what every update cost
//! before the read could go on). Median of five flushes each.
//!
//! `cargo run --release --example follow_update -- [deldbe|dbf] [MiB…]`

use profx::fixture_gen::large::{Format, Shape, Spec, bytes};
use profx::load::LoadOptions;
use profx::load::follow::Follower;
use std::time::{Duration, Instant};

/// New bytes a flush adds: about 10,000 DELDBE events.
const FLUSH: usize = 400 << 10;

fn main() {
    let mut args = std::env::args().skip(1);
    let kind = match args.next().as_deref() {
        Some("dbf") => Format::Dbf,
        _ => Format::Deldbe,
    };
    let sizes: Vec<u64> = args.filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() {
        vec![16, 64, 256]
    } else {
        sizes
    };
    println!("{kind:?}: trace MiB, read on (median ms), whole load (median ms), restarts");
    for mib in sizes {
        let (on, whole, restarts) = measure(kind, mib << 20);
        println!(
            "{mib:>6} {:>10.1} {:>10.1} {restarts:>4}",
            ms(on),
            ms(whole)
        );
    }
}

fn measure(kind: Format, size: u64) -> (Duration, Duration, u64) {
    let all = bytes(Spec {
        kind,
        bytes: size + 6 * FLUSH as u64,
        names: 200,
        shape: Shape::Current,
    });
    let dir = tempfile::tempdir().expect("a scratch folder");
    let path = dir.path().join("T.PRF");
    let mut at = (size as usize).min(all.len());
    std::fs::write(&path, &all[..at]).expect("written");
    let name = path.to_string_lossy().into_owned();
    let mut f = Follower::new(&name, &LoadOptions::default()).expect("followed");
    f.poll().expect("read");
    f.profile().expect("a profile");
    let (mut on, mut whole) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        let end = (at + FLUSH).min(all.len());
        profx::fixture_gen::append(&path, &all[at..end]).expect("written");
        at = end;
        f.poll().expect("read");
        let t = Instant::now();
        std::hint::black_box(f.profile().expect("a profile"));
        on.push(t.elapsed());
        let t = Instant::now();
        std::hint::black_box(f.loaded().expect("a profile"));
        whole.push(t.elapsed());
    }
    (median(on), median(whole), f.restarts())
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
