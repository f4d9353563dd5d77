//! `profx export FILE… --to parquet -o DIR` (issue 70): each input a run,
//! loaded on every core a few at a time and written by one thread as the
//! next ones load, so the memory held is that of the runs in flight, not
//! of all of them. A run that cannot be read, or that the query cannot be
//! asked of, is named with its reason and left out; the others are
//! written, and the exit status is 1.

use super::args::ExportArgs;
use super::{Usage, ask, load_options, open_inputs};
use profx::analysis::query::{Answer, Query};
use profx::export::parquet::{CallSpill, Spilled, Tables};
use profx::load::{self, KeepEvents};
use profx::text::visible;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A run loaded and asked, on its way to the writer.
struct Run {
    id: i64,
    answer: Answer,
    calls: Spilled,
}

pub(super) fn export(args: &ExportArgs, q: &Query) -> anyhow::Result<ExitCode> {
    check(args)?;
    let dir = &args.output;
    let inputs: Vec<String> = args
        .files
        .iter()
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    // The folder is written into, never over an input: its files are new.
    profx::export::atomic::refuse_input(dir, &inputs)?;
    let runs: Vec<Option<&Path>> = match args.demo {
        true => vec![None],
        false => args.files.iter().map(|f| Some(f.as_path())).collect(),
    };
    let tables = Tables::create(dir, args.append)?;
    let first = tables.first_run_id();
    let at_once = rayon::current_num_threads().max(1);
    // Room for the runs of the next batch while one is written.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Run>(at_once);
    let mut left_out = 0usize;
    let written = std::thread::scope(|s| {
        let writer = s.spawn(move || write_runs(tables, rx));
        let numbered: Vec<(i64, Option<&Path>)> = (first..).zip(runs.iter().copied()).collect();
        'batches: for batch in numbered.chunks(at_once) {
            let loaded: Vec<(Option<&Path>, anyhow::Result<Run>)> = batch
                .par_iter()
                .map(|&(id, file)| (file, load_run(id, file, args, q)))
                .collect();
            for (file, run) in loaded {
                match run {
                    Ok(run) => {
                        if let Some(note) = profx::report::fmt::warnings_note(run.answer.loaded()) {
                            eprintln!("profx: {}: {note}", shown(file));
                        }
                        // The writer stopped on an error, which it returns.
                        if tx.send(run).is_err() {
                            break 'batches;
                        }
                    }
                    Err(e) => {
                        left_out += 1;
                        let why = format!("{e:#}");
                        eprintln!("profx: left out {}: {}", shown(file), visible(&why));
                    }
                }
            }
        }
        drop(tx);
        writer
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("the writer stopped")))
    })?;
    let out = visible(&dir.to_string_lossy()).into_owned();
    match written {
        Some((n, what)) => eprintln!("profx: wrote {n} runs ({what}) to {out}"),
        None => eprintln!("profx: no run could be read; nothing written to {out}"),
    }
    Ok(match left_out {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

/// The writer's side: every run received, in the order sent, then the
/// tables closed and renamed into place; `None` when no run came.
fn write_runs(
    mut tables: Tables,
    rx: std::sync::mpsc::Receiver<Run>,
) -> anyhow::Result<Option<(usize, String)>> {
    let mut n = 0;
    for run in rx {
        tables.add(run.id, &run.answer, Some(run.calls))?;
        n += 1;
    }
    if n == 0 {
        tables.abandon();
        return Ok(None);
    }
    Ok(Some((n, tables.finish()?.what)))
}

/// One input loaded (its trace's calls spilled as they close) and the
/// query asked of it.
fn load_run(id: i64, file: Option<&Path>, args: &ExportArgs, q: &Query) -> anyhow::Result<Run> {
    let files: Vec<PathBuf> = file.map(Path::to_path_buf).into_iter().collect();
    let inputs = open_inputs(&files, file.is_none())?;
    let (spill, calls) = CallSpill::new()?;
    let opts = load::LoadOptions {
        // No table reads an event back.
        events: KeepEvents::Counted,
        calls: profx::model::CallFeed::new(Box::new(spill)),
        ..load_options(&args.load)
    };
    let profile = load::load_inputs(&inputs, &opts)?;
    // The spill is flushed once the load lets it go.
    drop(opts);
    let answer = ask(profile, q)?;
    Ok(Run { id, answer, calls })
}

/// What `--to parquet` refuses before any load.
fn check(args: &ExportArgs) -> anyhow::Result<()> {
    let refuse = |why: &str| Err(Usage(why.into()).into());
    if args.output.as_os_str() == "-" {
        return refuse("--to parquet writes a folder of tables: -o DIR");
    }
    if args.force {
        return refuse("--to parquet never replaces tables: --append adds runs to DIR's");
    }
    if args.view.is_some() {
        return refuse("--view goes with --to csv; --to parquet writes every table");
    }
    if args.weight.is_some() {
        return refuse("--weight goes with --to folded or --to speedscope");
    }
    Ok(())
}

fn shown(file: Option<&Path>) -> String {
    match file {
        Some(f) => visible(&f.to_string_lossy()).into_owned(),
        None => profx::demo::NAME.to_string(),
    }
}
