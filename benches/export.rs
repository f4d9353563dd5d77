//! `profx export`'s writers over profiles loaded from generated files
//! (`fixture_gen::large`): a trace (its timeline recorded, as the export
//! command loads it) to every target, and a sample log to folded stacks.
//! Output goes to a sink, so the numbers are the writers', not the disk's.

use criterion::{Criterion, criterion_group, criterion_main};
use profx::analysis::view::Table;
use profx::export::{Request, Target, write};
use profx::fixture_gen::large::{Format, Spec};
use profx::load::{LoadOptions, load_inputs};
use std::hint::black_box;

fn loaded(kind: Format, bytes: u64, names: u32) -> profx::model::Profile {
    let shape = Default::default();
    let input = profx::load::Input::owned(
        "generated",
        profx::fixture_gen::large::bytes(Spec {
            kind,
            bytes,
            names,
            shape,
        }),
    );
    let opts = LoadOptions {
        timeline: true,
        ..Default::default()
    };
    load_inputs(&[input], &opts).expect("loads")
}

fn export(c: &mut Criterion) {
    let mut group = c.benchmark_group("export");
    group.sample_size(10);
    let trace = loaded(Format::Deldbe, 16 << 20, 5000);
    let samples = loaded(Format::Br, 16 << 20, 5000);
    for (label, p, target) in [
        ("deldbe_16M/folded", &trace, Target::Folded),
        ("deldbe_16M/speedscope", &trace, Target::Speedscope),
        ("deldbe_16M/chrome", &trace, Target::Chrome),
        ("deldbe_16M/csv_stacks", &trace, Target::Csv(Table::Stacks)),
        ("br_16M/folded", &samples, Target::Folded),
        ("br_16M/speedscope", &samples, Target::Speedscope),
    ] {
        let req = Request {
            target,
            weight: None,
            query: None,
            range: None,
        };
        group.bench_function(label, |b| {
            b.iter(|| write(black_box(p), &req, &mut std::io::sink()).expect("writes"))
        });
    }
    group.finish();
}

criterion_group!(benches, export);
criterion_main!(benches);
