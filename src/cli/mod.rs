//! Command line: `profx report …` (and, later, the app).
//!
//! Exit codes (report-json.md): 0 loaded (warnings or not), 1 the input
//! could not be loaded, 2 a usage error (clap's own code for bad arguments).

mod args;

use anyhow::Context;
use args::{Cli, Command, ReportArgs};
use clap::Parser;
use profx::load::{self, LoadError, LoadOptions};
use profx::model::Profile;
use profx::report::{json, table};
use std::io::Write;
use std::process::ExitCode;

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("profx: error: {err:#}");
            ExitCode::from(exit_code(&err))
        }
    }
}

/// A load failure is 1; the one usage error clap cannot see (a `--sort`
/// column the view lacks) is 2.
fn exit_code(err: &anyhow::Error) -> u8 {
    if err.downcast_ref::<table::UnknownColumn>().is_some() {
        2
    } else {
        1
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Some(Command::Report(args)) => report(&args),
        None => {
            // The interactive explorer is issue 6; until then, say so plainly
            // and point at what works.
            eprintln!(
                "profx: the interactive explorer is not built yet.\n\
                 Try: profx report --demo --table   or   profx report FILE --json"
            );
            Ok(ExitCode::from(2))
        }
    }
}

fn report(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let profile = load_profile(args)?;
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

fn load_profile(args: &ReportArgs) -> Result<Profile, LoadError> {
    let opts = LoadOptions {
        format: args.format.clone(),
        strict: args.strict,
        columns: args.columns.clone(),
    };
    if args.demo {
        return load::load_inputs(&[profx::demo::input()], &opts);
    }
    load::load_paths(&args.files, &opts)
}
