//! Command line: `profx [FILE...]` (the app) and `profx report …`.
//!
//! Exit codes (report-json.md): 0 loaded (warnings or not), 1 the input
//! could not be loaded, 2 a usage error (clap's own code for bad arguments).

mod args;
mod progress;

use anyhow::Context;
use args::{Cli, Command, ExportArgs, LoadArgs, ReportArgs, ToArg, ViewArg};
use clap::Parser;
use profx::export;
use profx::load::{self, Input, KeepEvents, KeepStacks, LoadError, LoadOptions};
use profx::model::Profile;
use profx::report::{json, table};
use profx::text::visible;
use std::io::Write;
use std::process::ExitCode;

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            // File names and file content end up in errors: never raw.
            let message = format!("{err:#}");
            eprintln!("profx: error: {}", profx::text::visible(&message));
            ExitCode::from(exit_code(&err))
        }
    }
}

/// A usage error clap's grammar cannot express (an option that does not
/// go with another).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Usage(String);

/// A load failure is 1; the usage errors clap cannot see (a `--sort`
/// column the view lacks, options that do not go together) are 2.
fn exit_code(err: &anyhow::Error) -> u8 {
    if err.downcast_ref::<table::UnknownColumn>().is_some() || err.downcast_ref::<Usage>().is_some()
    {
        2
    } else {
        1
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Some(Command::Report(args)) => report(&args),
        Some(Command::Export(args)) => export(&args),
        None => explore(&cli.files, &cli.load),
    }
}

/// The interactive app on the files, or on the demo when there are none.
fn explore(files: &[String], load_args: &LoadArgs) -> anyhow::Result<ExitCode> {
    let demo = files.is_empty();
    let title = if demo {
        format!("{} (demo)", profx::demo::NAME)
    } else {
        // The header names the files as a person calls them; Info lists
        // the paths in full.
        let names: Vec<&str> = files
            .iter()
            .map(|f| {
                std::path::Path::new(f)
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or(f)
            })
            .collect();
        names.join(" ")
    };
    let inputs = open_inputs(files, demo)?;
    let profile = progress::while_loading(&inputs, || load_inputs(&inputs, load_args))?;
    let input = files.first().map_or(profx::demo::NAME, String::as_str);
    profx::tui::run(profile, &title, std::path::Path::new(input))
        .context("running the terminal app")?;
    Ok(ExitCode::SUCCESS)
}

fn report(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let inputs = open_inputs(&args.files, args.demo)?;
    // A report shows how many events a trace has, never one of them; a
    // table of functions or lines shows no stack (and its numbers are the
    // same without them: `KeepStacks`).
    let shows_stacks = args.json || !matches!(args.view, ViewArg::Functions | ViewArg::Lines);
    let opts = LoadOptions {
        events: KeepEvents::Counted,
        stacks: if shows_stacks {
            KeepStacks::Kept
        } else {
            KeepStacks::Skipped
        },
        ..load_options(&args.load)
    };
    let profile = load::load_inputs(&inputs, &opts)?;
    let out = if args.json {
        json::render(&profile)
    } else {
        let opts = table::TableOptions {
            sort: args.sort.clone(),
            reverse: args.reverse,
            top: args.top,
        };
        table::render(&profile, args.view.into(), &opts)?
    };
    // The process ends once the report is out, and the kernel takes its
    // memory back whole: freeing a large profile row by row first cost
    // a tenth of a 200 k-function report.
    std::mem::forget(profile);
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (`| head`) is the reader's choice, not an error.
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        other => other
            .context("writing the report")
            .map(|()| ExitCode::SUCCESS),
    }
}

fn export(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let files: Vec<String> = args.file.iter().cloned().collect();
    check_export_args(args, &files)?;
    let inputs = open_inputs(&files, args.demo)?;
    let target = args.target();
    let profile = progress::while_loading(&inputs, || {
        let mut opts = load_options(&args.load);
        opts.timeline = target.needs_timeline();
        load::load_inputs(&inputs, &opts)
    })?;
    let req = export::Request {
        target,
        weight: args.weight.map(Into::into),
    };
    let write = |out: &mut dyn Write| export::write(&profile, &req, out);
    if args.output == "-" {
        let mut stdout = std::io::stdout().lock();
        match write(&mut stdout) {
            Err(export::ExportError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            other => drop(other?),
        }
    } else {
        let out = std::path::Path::new(&args.output);
        let summary = export::atomic::write_file(out, args.force, write)?;
        eprintln!("profx: wrote {} to {}", summary.what, visible(&args.output));
    }
    let warnings = profile.warnings().len();
    if warnings > 0 {
        eprintln!(
            "profx: {warnings} warning(s) while loading; `profx report --view info` lists them"
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// What can be refused before the load: option pairs clap's grammar lets
/// through but that mean nothing, an output that is the input, an output
/// that exists without `--force` (checked again when the file is written).
fn check_export_args(args: &ExportArgs, files: &[String]) -> anyhow::Result<()> {
    if args.view.is_some() && args.to != ToArg::Csv {
        return Err(Usage("--view goes with --to csv".into()).into());
    }
    if args.weight.is_some() && matches!(args.to, ToArg::Csv | ToArg::Chrome) {
        return Err(Usage("--weight goes with --to folded or --to speedscope".into()).into());
    }
    let out = std::path::Path::new(&args.output);
    if args.output != "-" {
        refuse_replacing_input(out, files)?;
        if !args.force && out.exists() {
            let path = args.output.clone();
            return Err(export::ExportError::Exists { path }.into());
        }
    }
    Ok(())
}

/// `-o` naming the input, even with `--force`, would destroy the data.
fn refuse_replacing_input(out: &std::path::Path, files: &[String]) -> Result<(), Usage> {
    let Ok(out) = out.canonicalize() else {
        return Ok(());
    };
    for f in files {
        if std::path::Path::new(f)
            .canonicalize()
            .is_ok_and(|f| f == out)
        {
            return Err(Usage(format!(
                "-o {} is the input; export to another file",
                visible(f)
            )));
        }
    }
    Ok(())
}

fn open_inputs(files: &[String], demo: bool) -> Result<Vec<Input>, LoadError> {
    if demo {
        return Ok(vec![profx::demo::input()]);
    }
    files.iter().map(|f| Input::open(f)).collect()
}

fn load_inputs(inputs: &[Input], args: &LoadArgs) -> Result<Profile, LoadError> {
    load::load_inputs(inputs, &load_options(args))
}

fn load_options(args: &LoadArgs) -> LoadOptions {
    LoadOptions {
        format: args.format.clone(),
        strict: args.strict,
        columns: args.columns.clone(),
        ..Default::default()
    }
}
