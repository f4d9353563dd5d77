//! Command line: `profx [FILE...]` (the app), `profx report …`, `profx
//! export …` and `profx diff BASE NEW` (`diff.rs`).
//!
//! Exit codes (report-json.md): 0 loaded (warnings or not), 1 the input
//! could not be loaded (`--to parquet`: a run was left out, the others
//! written), 2 a usage error (clap's own code for bad arguments), 3 a
//! `profx diff --fail-if` condition held.

mod args;
mod diff;
mod follow;
mod parquet;
mod progress;

use anyhow::Context;
use args::{Cli, Command, ExportArgs, LoadArgs, ReportArgs, ToArg};
use clap::{CommandFactory, FromArgMatches};
use profx::analysis::query;
use profx::analysis::view::{Table, View};
use profx::export;
use profx::load::{
    self, Input, KeepDurations, KeepEvents, KeepLanes, KeepStacks, LoadError, LoadOptions,
};
use profx::report::{json, table};
use profx::text::visible;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

pub fn main() -> ExitCode {
    profx::signals::install();
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match run(cli, &matches) {
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
/// column the view lacks or this profile has no values in, options that do not go together, an output that
/// is the input or no regular file) are 2.
fn exit_code(err: &anyhow::Error) -> u8 {
    use export::ExportError::{DirExists, IsInput, NotADir, NotAFile, SchemaDiffers, Weight};
    // A weight the profile does not record is a flag it cannot take.
    let refused_output = matches!(
        err.downcast_ref::<export::ExportError>(),
        Some(
            IsInput { .. }
                | NotAFile { .. }
                | Weight(_)
                | DirExists { .. }
                | NotADir { .. }
                | SchemaDiffers { .. }
        )
    );
    // `--clock-mhz` on a profile not in ticks, or `--follow` on one that
    // cannot grow, asks what the file cannot take.
    let refused_flag = matches!(
        err.downcast_ref::<LoadError>(),
        Some(LoadError::ClockMhz { .. } | LoadError::NotFollowable { .. })
    );
    if err.downcast_ref::<table::NoSortColumn>().is_some()
        || err.downcast_ref::<Usage>().is_some()
        || refused_output
        || refused_flag
    {
        2
    } else {
        1
    }
}

fn run(cli: Cli, matches: &clap::ArgMatches) -> anyhow::Result<ExitCode> {
    // The subcommand's matches keep each query flag's place on the line.
    let sub = matches.subcommand().map(|(_, m)| m);
    let empty = clap::ArgMatches::default();
    let sub = sub.unwrap_or(&empty);
    match cli.command {
        Some(Command::Report(args)) => report(&args, &args.query.query(sub)),
        Some(Command::Export(args)) => export(&args, &args.query.query(sub)),
        Some(Command::Diff(args)) => diff::diff(&args, &args.query.query(sub)),
        None if cli.follow => follow::explore(&cli.files, &cli.load),
        None => explore(&cli.files, &cli.load, cli.timeline),
    }
}

/// The interactive app on the files, or on the demo when there are none.
/// With standard output not a terminal (`profx FILE > out.txt`) there is
/// no one to see the app: the report table is printed instead. A terminal
/// the app cannot run in gets a plain message, not escape codes.
fn explore(files: &[PathBuf], load_args: &LoadArgs, timeline: bool) -> anyhow::Result<ExitCode> {
    let demo = files.is_empty();
    one_file(files)?;
    if !std::io::stdout().is_terminal() {
        let args = ReportArgs::table_of(files, load_args);
        return report(&args, &Default::default());
    }
    if let Some(why) = no_app_here(files) {
        eprintln!(
            "profx: {why}; `profx report {}` prints the same numbers as text",
            if demo {
                "--demo".to_string()
            } else {
                shown(files)
            }
        );
        return Ok(ExitCode::from(2));
    }
    let title = match demo {
        true => format!("{} (demo)", profx::demo::NAME),
        false => title_of(files),
    };
    let inputs = open_inputs(files, demo)?;
    // The Flame pane's time order reads the trace's calls in time order: a
    // small trace keeps them, a large one when asked (`--timeline`), as
    // they cost 16 bytes an event.
    let small = inputs.iter().map(Input::len).sum::<u64>() <= TIMELINE_BYTES;
    let opts = LoadOptions {
        timeline: timeline || small,
        ..load_options(load_args)
    };
    check_memory(&inputs, load_args, load::memory::Use::App)?;
    let profile = progress::while_loading(&inputs, || load::load_inputs(&inputs, &opts))?;
    let input = files
        .first()
        .map_or(PathBuf::from(profx::demo::NAME), Clone::clone);
    // Said now, on the terminal the app gives back; the app looks in
    // the profile's own folder first itself.
    let _ = source_folders(None, load_args);
    profx::tui::use_source_folders(load_args.source.clone(), load_args.source_map.clone());
    profx::tui::run(profile, &title, &input).context("running the terminal app")?;
    Ok(ExitCode::SUCCESS)
}

/// The header's name for the files: as a person calls them (Info lists
/// the paths in full).
fn title_of(files: &[PathBuf]) -> String {
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            f.file_name()
                .map_or_else(|| f.to_string_lossy(), |n| n.to_string_lossy())
                .into_owned()
        })
        .collect();
    names.join(" ")
}

/// Why the app cannot run on this terminal, if it cannot: a terminal that
/// cannot move the cursor, or no terminal to read keys from (standard
/// input is read as a file, and no `/dev/tty`).
pub(super) fn no_app_here(files: &[PathBuf]) -> Option<String> {
    if std::env::var_os("TERM").is_some_and(|t| t == "dumb") {
        return Some("TERM=dumb: this terminal cannot show the app".into());
    }
    let stdin_is_input = files.iter().any(|f| f.as_os_str() == "-");
    if (stdin_is_input || !std::io::stdin().is_terminal())
        && std::fs::File::open("/dev/tty").is_err()
    {
        return Some("no terminal to read keys from".into());
    }
    None
}

fn shown(files: &[PathBuf]) -> String {
    let names: Vec<String> = files
        .iter()
        .map(|f| visible(&f.to_string_lossy()).into_owned())
        .collect();
    names.join(" ")
}

/// The answer of `q` on `loaded`, by the one runner's script policy
/// (model.md § Queries): a query that names what the profile lacks, or
/// asks what it cannot, is a usage error (2) saying why.
fn ask(
    loaded: profx::model::Profile,
    q: &profx::analysis::query::Query,
) -> anyhow::Result<query::Answer> {
    let loaded = Arc::new(loaded);
    query::Answer::run(
        &loaded,
        q,
        query::Policy::Script,
        &profx::model::Watch::NONE,
    )
    .map_err(|e| Usage(e.to_string()).into())
}

fn report(args: &ReportArgs, q: &profx::analysis::query::Query) -> anyhow::Result<ExitCode> {
    one_file(&args.files)?;
    if args.follow {
        return follow::report(args, q);
    }
    let inputs = open_inputs(&args.files, args.demo)?;
    let opts = report_load_options(args, q);
    let use_ = match opts.stacks {
        KeepStacks::Kept => load::memory::Use::Report,
        KeepStacks::Skipped => load::memory::Use::Table,
    };
    check_memory(&inputs, &args.load, use_)?;
    let profile = load::load_inputs(&inputs, &opts)?;
    report_on(profile, args, q, true)
}

/// How `report` loads for what it shows.
fn report_load_options(args: &ReportArgs, q: &profx::analysis::query::Query) -> LoadOptions {
    // A report shows how many events a trace has, never one of them; a
    // table of functions or lines shows no stack and no call's percentile
    // (and its numbers are the same without them: `KeepStacks`,
    // `KeepDurations`). A query rewrites the call paths: it needs them
    // whatever it shows.
    let table = !args.json && matches!(args.view, View::Table(Table::Functions | Table::Lines));
    let stacks = match table && q.steps.is_empty() {
        true => KeepStacks::Skipped,
        false => KeepStacks::Kept,
    };
    let durations = match table {
        true => KeepDurations::Skipped,
        false => KeepDurations::Kept,
    };
    LoadOptions {
        events: KeepEvents::Counted,
        stacks,
        durations,
        // The threads' heaviest functions are read from the calls in time order.
        timeline: args.view == View::Table(Table::Threads),
        // Only the app's Timeline draws them.
        lanes: KeepLanes::Skipped,
        ..load_options(&args.load)
    }
}

/// The report `args` ask of `profile`, with the query `q`, on standard
/// output; `last`: the process ends after it (a followed trace's live
/// reports are not the last).
fn report_on(
    profile: profx::model::Profile,
    args: &ReportArgs,
    q: &profx::analysis::query::Query,
    last: bool,
) -> anyhow::Result<ExitCode> {
    let answered = ask(profile, q)?;
    let label = answered.label();
    let profile = answered.for_view(args.view);
    let mut stdout = std::io::stdout().lock();
    let written = if args.view == View::Source {
        source_view(&answered, args, label.as_deref(), &mut stdout)?
    } else if let Some(written) = graph_view(profile, args, label.as_deref(), &mut stdout)? {
        written
    } else if args.json {
        // Streamed: a report of ten million rows is never held as text.
        json::write_answer(&answered, &mut stdout)
    } else if let Some(t) = args.view.table() {
        let opts = table::TableOptions {
            sort: args.sort.clone(),
            reverse: args.reverse,
            top: args.top,
            query: label.clone(),
        };
        match table::write(profile, t, &opts, &mut stdout) {
            Err(table::Failed::Column(e)) => return Err(e.into()),
            Err(table::Failed::Io(e)) => Err(e),
            Ok(()) => stdout.flush(),
        }
    } else if args.view == View::Info {
        stdout
            .write_all(table::info(profile, answered.events(), label.as_deref()).as_bytes())
            .and_then(|()| stdout.flush())
    } else {
        // `graph_view` answers the tree and a function's edges; no report
        // prints a flame graph (clap takes no `--view flame`).
        return Err(Usage(format!("--view {} prints no table", args.view.name())).into());
    };
    // Damage is said (issue 63): a view of a damaged file prints its
    // numbers, and stderr how many warnings the load gave and where they
    // are; `--json` and `--view info` list them themselves.
    if !args.json && args.view != View::Info {
        let p = answered.loaded();
        if let Some(note) = profx::report::fmt::warnings_note(p) {
            eprintln!("profx: {note}");
        }
        if let Some(t) = args.view.table().filter(|&t| table_is_empty(profile, t)) {
            let what = t.name();
            eprintln!(
                "profx: no {what}: {}",
                profx::report::fmt::empty_because(p, what)
            );
        }
    }
    // The process ends once the report is out, and the kernel takes its
    // memory back whole: freeing a large profile row by row first would
    // only add to the report's time.
    if last {
        std::mem::forget(answered);
    }
    // A closed pipe (`| head`) is the reader's choice, not an error.
    match written {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        other => other
            .context("writing the report")
            .map(|()| ExitCode::SUCCESS),
    }
}

/// Whether the profile has no rows of table `t` at all (the packets and
/// threads tables say why themselves, on their first line).
fn table_is_empty(p: &profx::model::Profile, t: Table) -> bool {
    match t {
        Table::Functions => p.functions().is_empty(),
        Table::Lines => p.lines().is_empty(),
        Table::Stacks => p.stacks().is_empty(),
        Table::Packets | Table::Threads | Table::Modules => false,
    }
}

/// `--view tree|callers|callees`, text or `--json`; `None` for the other
/// views.
fn graph_view(
    p: &profx::model::Profile,
    args: &ReportArgs,
    label: Option<&str>,
    out: &mut dyn std::io::Write,
) -> anyhow::Result<Option<std::io::Result<()>>> {
    use profx::report::tree::{self, Side, TreeOptions};
    let graphs = matches!(args.view, View::Tree | View::Callers | View::Callees);
    if graphs && (args.sort.is_some() || args.top.is_some() || args.reverse) {
        return Err(Usage(
            "--sort, --top and --reverse order a table; --view tree orders children by total (--depth and --min-pct cut it)".into(),
        )
        .into());
    }
    let side = match args.view {
        View::Tree => {
            if args.function.is_some() {
                return Err(Usage("--function goes with --view callers or callees".into()).into());
            }
            let opts = TreeOptions {
                invert: args.invert,
                depth: args.depth.map(|d| usize::try_from(d).unwrap_or(usize::MAX)),
                min_pct: args.min_pct,
            };
            return Ok(Some(match args.json {
                true => tree::write_json(p, &opts, label, out),
                false => tree::write_text(p, &opts, label, out),
            }));
        }
        View::Callers => Side::Callers,
        View::Callees => Side::Callees,
        View::Table(_) | View::Info | View::Flame | View::Timeline | View::Source => {
            if args.function.is_some()
                || args.invert
                || args.depth.is_some()
                || args.min_pct.is_some()
            {
                return Err(Usage(
                    "--function goes with --view callers|callees; --invert, --depth and --min-pct with --view tree".into(),
                )
                .into());
            }
            return Ok(None);
        }
    };
    if args.invert || args.depth.is_some() || args.min_pct.is_some() {
        return Err(Usage("--invert, --depth and --min-pct go with --view tree".into()).into());
    }
    let Some(name) = &args.function else {
        return Err(Usage("--view callers and callees need --function NAME".into()).into());
    };
    let funcs = tree::functions_named(p, name).map_err(|e| Usage(e.to_string()))?;
    Ok(Some(match args.json {
        true => tree::write_edges_json(p, &funcs, side, label, out),
        false => tree::write_edges_text(p, &funcs, side, label, out),
    }))
}

/// The source folders of the options: the profile's own directory first
/// (none for the demo or standard input), then each `--source`; a
/// `--source` folder that is not there is said on stderr, never a load
/// warning (the profile is not at fault).
pub(crate) fn source_folders(
    file: Option<&std::path::Path>,
    load: &LoadArgs,
) -> profx::analysis::source::SourceFolders {
    use profx::analysis::source::SourceFolders;
    for missing in SourceFolders::missing(&load.source) {
        eprintln!(
            "profx: source folder {} does not exist (--source); not looked in",
            visible(&missing.to_string_lossy())
        );
    }
    let dir = file
        .filter(|f| f.as_os_str() != "-")
        .map(|f| f.parent().unwrap_or(std::path::Path::new("")));
    SourceFolders::new(dir, &load.source, &load.source_map)
}

/// `--view source`: the files the lines name, each line with its cost.
fn source_view(
    answered: &query::Answer,
    args: &ReportArgs,
    label: Option<&str>,
    out: &mut dyn Write,
) -> anyhow::Result<std::io::Result<()>> {
    use profx::report::source;
    if args.invert || args.depth.is_some() || args.min_pct.is_some() {
        return Err(Usage("--invert, --depth and --min-pct go with --view tree".into()).into());
    }
    if args.sort.is_some() || args.top.is_some() || args.reverse {
        return Err(Usage("--sort, --top and --reverse order a table".into()).into());
    }
    let p = answered.for_view(View::Source);
    let funcs = match &args.function {
        Some(name) => {
            Some(profx::report::tree::functions_named(p, name).map_err(|e| Usage(e.to_string()))?)
        }
        None => None,
    };
    let folders = source_folders(args.files.first().map(PathBuf::as_path), &args.load);
    let files = profx::analysis::source::files(p, answered.loaded(), &folders, funcs.as_deref());
    if files.is_empty()
        && let Some(why) = profx::analysis::source::why_no_source(answered.loaded())
    {
        eprintln!("profx: no source view: {why}");
    }
    Ok(match args.json {
        true => source::write_json(&files, out),
        false => source::write_text(p, &files, label, out),
    })
}

fn export(args: &ExportArgs, q: &profx::analysis::query::Query) -> anyhow::Result<ExitCode> {
    let Some(target) = args.target() else {
        return parquet::export(args, q);
    };
    let files = &args.files;
    check_export_args(args, files)?;
    let inputs = open_inputs(files, args.demo)?;
    check_memory(&inputs, &args.load, load::memory::Use::Report)?;
    let profile = progress::while_loading(&inputs, || {
        let mut opts = load_options(&args.load);
        opts.timeline = target.needs_timeline();
        // No export of one profile writes lanes or a call's percentile
        // (a CSV table has each function's min and max, which are kept).
        opts.lanes = KeepLanes::Skipped;
        opts.durations = KeepDurations::Skipped;
        load::load_inputs(&inputs, &opts)
    })?;
    let answered = ask(profile, q)?;
    let label = answered.label();
    let profile = answered.profile(target.reads());
    let req = export::Request {
        target,
        weight: args.weight.map(Into::into),
        query: label.clone(),
        range: answered.entry_range(),
    };
    let write = |out: &mut dyn Write| export::write(profile, &req, out);
    let to_stdout = args.output.as_os_str() == "-";
    if !to_stdout {
        // Every piece the load read (a trace's packets too) is an input.
        export::atomic::refuse_input(&args.output, &profile.sources)?;
    }
    if to_stdout {
        let mut stdout = std::io::stdout().lock();
        match write(&mut stdout) {
            Err(export::ExportError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            other => drop(other?),
        }
    } else {
        let summary = export::atomic::write_file(&args.output, args.force, write)?;
        let out = args.output.to_string_lossy();
        eprintln!("profx: wrote {} to {}", summary.what, visible(&out));
    }
    // Folded stacks and CSV have no place to name the query: stderr says
    // what the file answers.
    if let Some(label) = label.filter(|_| !target.names_its_query()) {
        eprintln!("profx: the export answers the query {label}");
    }
    if let Some(note) = profx::report::fmt::warnings_note(profile) {
        eprintln!("profx: {note}");
    }
    Ok(ExitCode::SUCCESS)
}

/// What can be refused before the load: option pairs clap's grammar lets
/// through but that mean nothing, an output that is the input (checked
/// again with every piece once loaded), an output that is not a regular
/// file, an output that exists without `--force` (checked again when the
/// file is written).
fn check_export_args(args: &ExportArgs, files: &[PathBuf]) -> anyhow::Result<()> {
    if files.len() > 1 {
        return Err(Usage(format!(
            "--to {} writes one profile ({} files given): export each on its own, or give them all to --to parquet -o DIR (a run each)",
            args.to.name(),
            files.len()
        ))
        .into());
    }
    if args.append {
        return Err(Usage("--append goes with --to parquet".into()).into());
    }
    if args.view.is_some() && args.to != ToArg::Csv {
        return Err(Usage("--view goes with --to csv".into()).into());
    }
    if args.weight.is_some() && matches!(args.to, ToArg::Csv | ToArg::Chrome | ToArg::Parquet) {
        return Err(Usage("--weight goes with --to folded or --to speedscope".into()).into());
    }
    refuse_output(&args.output, files, args.force)
}

/// An export's output refused before the load: one of the inputs, or (not
/// standard output) a file that exists without `--force`.
pub(super) fn refuse_output(
    out: &std::path::Path,
    files: &[PathBuf],
    force: bool,
) -> anyhow::Result<()> {
    if out.as_os_str() != "-" {
        let inputs: Vec<String> = files
            .iter()
            .map(|f| f.to_string_lossy().into_owned())
            .collect();
        export::atomic::refuse_input(out, &inputs)?;
        if !force && out.exists() && std::fs::metadata(out).is_ok_and(|m| m.is_file()) {
            let path = out.display().to_string();
            return Err(export::ExportError::Exists { path }.into());
        }
    }
    Ok(())
}

/// Inputs up to this size keep a trace's calls in time order in the app.
pub(super) const TIMELINE_BYTES: u64 = 64 << 20;

/// Two files are no one profile: a usage error that says what to do
/// (open each, or compare two with `profx diff`), before any is read.
fn one_file(files: &[PathBuf]) -> anyhow::Result<()> {
    if files.len() > 1 {
        let each: Vec<String> = files
            .iter()
            .map(|f| format!("`profx {}`", visible(&f.to_string_lossy())))
            .collect();
        let compare = match files {
            [a, b] => format!(
                "; `profx diff {} {}` compares two runs",
                visible(&a.to_string_lossy()),
                visible(&b.to_string_lossy())
            ),
            _ => String::new(),
        };
        return Err(Usage(format!(
            "profx reads one profile at a time ({} files given): open each on its own, {}{compare}",
            files.len(),
            each.join(", ")
        ))
        .into());
    }
    Ok(())
}

/// Refuses a load that would need more memory than `--max-memory`, or
/// than the machine has (`load::memory::check`).
fn check_memory(
    inputs: &[Input],
    args: &LoadArgs,
    use_: load::memory::Use,
) -> Result<(), LoadError> {
    load::memory::check(inputs, args.format.as_deref(), use_, args.max_memory)
}

fn open_inputs(files: &[PathBuf], demo: bool) -> Result<Vec<Input>, LoadError> {
    if demo {
        return Ok(vec![profx::demo::input()]);
    }
    files.iter().map(Input::open).collect()
}

fn load_options(args: &LoadArgs) -> LoadOptions {
    LoadOptions {
        format: args.format.clone(),
        strict: args.strict,
        columns: args.columns.clone(),
        reference: args.reference,
        clock_mhz: args.clock_mhz,
        ..Default::default()
    }
}
