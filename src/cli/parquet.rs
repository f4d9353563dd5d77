//! `profx export FILE… --to parquet -o DIR` (issue 70): each input a run,
//! loaded and made into rows on every core, a run a core at a time, and
//! written by one thread as the next ones load, so the memory held is that
//! of the runs in flight, not of all of them. A run that cannot be read, or that the query cannot be
//! asked of, is named with its reason and left out; the others are
//! written, and the exit status is 1.

use super::args::ExportArgs;
use super::{Usage, ask, load_options, open_inputs};
use profx::analysis::query::{Answer, Query};
use profx::export::parquet::{CallSpill, Piece, Spilled, Tables, run_rows};
use profx::load::{self, KeepEvents};
use profx::text::visible;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A run loaded and asked.
struct Run {
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
    let spare = tables.spare();
    // Room for a piece from each core while one is written.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Msg>(rayon::current_num_threads().max(1));
    let left_out = AtomicUsize::new(0);
    let numbered: Vec<(i64, Option<&Path>)> = (first..).zip(runs.iter().copied()).collect();
    let written = std::thread::scope(|s| {
        let writer = s.spawn(move || write_runs(tables, rx));
        // Each core loads a run, makes its rows and hands them over, then
        // takes the next: the runs in memory are the ones in flight.
        numbered
            .par_iter()
            .for_each_with(tx, |tx, &(id, file)| match load_run(file, args, q) {
                Ok(run) => {
                    if let Some(note) = profx::report::fmt::warnings_note(run.answer.loaded()) {
                        eprintln!("profx: {}: {note}", shown(file));
                    }
                    let mut emit = |piece| tx.send(Msg::Piece(piece)).is_ok();
                    let msg = match run_rows(id, &run.answer, Some(run.calls), &spare, &mut emit) {
                        Ok(Some(_)) => Msg::Done,
                        // The writer stopped on an error, which it returns.
                        Ok(None) => return,
                        Err(e) => Msg::Failed(anyhow::Error::new(e).context(shown(file))),
                    };
                    let _ = tx.send(msg);
                }
                Err(e) => {
                    left_out.fetch_add(1, Ordering::Relaxed);
                    let why = format!("{e:#}");
                    eprintln!("profx: left out {}: {}", shown(file), visible(&why));
                }
            });
        writer
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("the writer stopped")))
    })?;
    let out = visible(&dir.to_string_lossy()).into_owned();
    match written {
        Some((n, what)) => {
            let runs = if n == 1 { "run" } else { "runs" };
            eprintln!("profx: wrote {n} {runs} (rows: {what}) to {out}")
        }
        None => eprintln!("profx: no run could be read; nothing written to {out}"),
    }
    Ok(match left_out.into_inner() {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

/// What a run's thread tells the writer.
enum Msg {
    /// A table's rows of a run.
    Piece(Piece),
    /// A run's rows are all given.
    Done,
    /// A run's rows could not be made after some were given: the export
    /// fails rather than hold half a run.
    Failed(anyhow::Error),
}

/// The writer's side: every piece written as it comes, then the tables
/// closed and renamed into place; `None` when no run came.
fn write_runs(
    mut tables: Tables,
    rx: std::sync::mpsc::Receiver<Msg>,
) -> anyhow::Result<Option<(usize, String)>> {
    let mut n = 0;
    for msg in rx {
        match msg {
            Msg::Piece(piece) => tables.write(piece)?,
            Msg::Done => n += 1,
            Msg::Failed(e) => return Err(e),
        }
    }
    if n == 0 {
        tables.abandon();
        return Ok(None);
    }
    Ok(Some((n, tables.finish()?.what)))
}

/// One input loaded (its trace's calls spilled as they close) and the
/// query asked of it.
fn load_run(file: Option<&Path>, args: &ExportArgs, q: &Query) -> anyhow::Result<Run> {
    let files: Vec<PathBuf> = file.map(Path::to_path_buf).into_iter().collect();
    let inputs = open_inputs(&files, file.is_none())?;
    // Each run is checked alone: the runs loaded at once are a core's
    // worth, each its own peak.
    super::check_memory(&inputs, &args.load, load::memory::Use::Report)?;
    let (spill, calls) = CallSpill::new()?;
    let opts = load::LoadOptions {
        // No table reads an event back.
        events: KeepEvents::Counted,
        calls: profx::model::CallFeed::new(Box::new(spill)),
        // No table holds them (they are the app's Timeline).
        lanes: load::KeepLanes::Skipped,
        ..load_options(&args.load)
    };
    let profile = load::load_inputs(&inputs, &opts)?;
    // The spill is flushed once the load lets it go.
    drop(opts);
    let answer = ask(profile, q)?;
    Ok(Run { answer, calls })
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
