//! In-process parsing per format, over files generated in memory
//! (`fixture_gen::large`), and decoding a screenful of trace events.
//! Whole-process comparisons with `wc -l` and DuckDB are in
//! `scripts/bench.sh`; this measures the pieces.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use profx::fixture_gen::large::{self, Format, Spec};
use profx::load::{Input, LoadOptions, load_inputs};
use std::hint::black_box;

/// Bytes of each generated trace: large enough to use every core.
const SIZE: u64 = 32 << 20;

fn generated(kind: Format, bytes: u64, names: u32) -> Input {
    let shape = Default::default();
    Input::owned(
        "generated",
        large::bytes(Spec {
            kind,
            bytes,
            names,
            shape,
        }),
    )
}

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    group.sample_size(10);
    for (label, kind, names) in [
        ("deldbe", Format::Deldbe, 5000),
        ("dbf", Format::Dbf, 5000),
        ("br", Format::Br, 5000),
        ("plist_20k_functions", Format::Plist, 20_000),
    ] {
        let input = generated(kind, SIZE, names);
        group.throughput(Throughput::Bytes(input.bytes().len() as u64));
        group.bench_function(label, |b| {
            b.iter(|| {
                load_inputs(
                    black_box(std::slice::from_ref(&input)),
                    &LoadOptions::default(),
                )
            })
        });
    }
    group.finish();
}

/// What the trace pane does per frame: decode the 48 visible events, here
/// at spread-out places of a 1 M-event trace.
fn replay(c: &mut Criterion) {
    let input = generated(Format::Deldbe, 32 << 20, 5000);
    let p = load_inputs(&[input], &LoadOptions::default()).expect("loads");
    let packet = p.packet_ids().next().expect("a packet");
    let events = &p.packet(packet).events;
    let n = events.len();
    c.bench_function("replay/decode_48_events", |b| {
        let mut at = 0;
        b.iter(|| {
            at = (at + 7919 * 48) % (n - 48);
            (at..at + 48).filter_map(|i| events.get(i)).count()
        })
    });
}

criterion_group!(benches, parse, replay);
criterion_main!(benches);
