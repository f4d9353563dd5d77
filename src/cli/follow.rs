//! `profx report FILE --follow`: a trace read while the program writes it
//! (formats.md § Following a trace), for terminals without the app and for
//! scripts. Each second that brought records (less often where an update
//! costs over a tenth of a second: `next_update_after`) prints the report
//! of the trace so far, headed by a line saying it is live (as `top -b` prints
//! its screens one after another); `--until-idle SECS` stops once no byte
//! has come for that long and prints the final report, read as a load of
//! the final files reads them. `--json` prints that final report only,
//! so it needs `--until-idle`.

use super::args::ReportArgs;
use super::{Usage, report_load_options, report_on};
use profx::load::follow::{Follower, OPEN_CALLS, Readiness, next_update_after};
use profx::model::MetaValue;
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub(super) fn report(
    args: &ReportArgs,
    q: &profx::analysis::query::Query,
) -> anyhow::Result<ExitCode> {
    if args.json && args.until_idle.is_none() {
        return Err(Usage(
            "--json with --follow prints one report, at the end: it needs --until-idle SECS".into(),
        )
        .into());
    }
    let path = args.files[0].to_string_lossy().into_owned();
    let mut follower = Follower::new(&path, &report_load_options(args, q))?;
    let idle = args.until_idle.map(Duration::from_secs_f64);
    let started = Instant::now();
    // When the next table may be printed (`next_update_after`).
    let mut next: Option<Instant> = None;
    let mut unprinted = false;
    let mut waiting_said: Option<String> = None;
    loop {
        unprinted |= follower.poll()? > 0;
        match follower.readiness()? {
            Readiness::Waiting(why) => {
                if waiting_said.as_ref() != Some(&why) {
                    eprintln!("profx: following {}: waiting: {why}", visible(&path));
                    waiting_said = Some(why);
                }
            }
            Readiness::Ready => {
                let due = next.is_none_or(|t| Instant::now() >= t);
                if unprinted && due && !args.json {
                    let start = Instant::now();
                    if !print_live(&mut follower, &path, args, q)? {
                        // The reader went away (`| head -1`): its choice,
                        // not an error, as for any report.
                        return Ok(ExitCode::SUCCESS);
                    }
                    next = Some(start + next_update_after(start.elapsed()));
                    unprinted = false;
                }
            }
        }
        let since = follower.last_data().unwrap_or(started);
        if idle.is_some_and(|idle| since.elapsed() >= idle) {
            break;
        }
        follower.wait();
    }
    let done = follower.finish()?;
    if !args.json {
        let heading = format!(
            "# final: {} read whole, no byte for {} s\n",
            visible(&path),
            args.until_idle.unwrap_or_default()
        );
        if !written(&heading)? {
            return Ok(ExitCode::SUCCESS);
        }
    }
    report_on(done, args, q, true)
}

/// The report of the trace so far, headed by what is live about it;
/// whether its reader is still there (a closed pipe ends following).
fn print_live(
    follower: &mut Follower,
    path: &str,
    args: &ReportArgs,
    q: &profx::analysis::query::Query,
) -> anyhow::Result<bool> {
    let Ok(profile) = follower.profile() else {
        // Whole records that hold no trace record yet (a header alone):
        // the next poll will tell.
        return Ok(true);
    };
    let open = match profile.meta.get(OPEN_CALLS) {
        Some(MetaValue::Int(n)) => *n,
        _ => 0,
    };
    let events = profx::report::fmt::grouped(profile.event_count() as u64);
    let bytes = profx::report::fmt::grouped(follower.bytes_seen());
    let open = match open {
        0 => String::new(),
        n => format!(
            " · {} open (their time so far)",
            profx::report::fmt::counted(n as u64, "calls")
        ),
    };
    let heading = format!(
        "# following {} · live · {events} events · {bytes} bytes{open}\n",
        visible(path)
    );
    if !written(&heading)? {
        return Ok(false);
    }
    report_on(profile, args, q, false)?;
    written("\n")
}

/// Writes `text` to standard output at once; `false` where its reader has
/// gone (a closed pipe), any other failure an error.
fn written(text: &str) -> anyhow::Result<bool> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(e.into()),
    }
}

fn visible(s: &str) -> std::borrow::Cow<'_, str> {
    profx::text::visible(s)
}

/// `profx --follow FILE`: the app on the trace so far (an empty one while
/// the file is not there, empty or too short to tell), following it.
pub(super) fn explore(
    files: &[std::path::PathBuf],
    load_args: &super::LoadArgs,
) -> anyhow::Result<ExitCode> {
    use anyhow::Context;
    super::one_file(files)?;
    let Some(file) = files.first() else {
        return Err(Usage("--follow needs the trace to follow".into()).into());
    };
    if let Some(why) = super::no_app_here(files) {
        eprintln!(
            "profx: {why}; `profx report {} --follow` prints the same numbers as text",
            visible(&file.to_string_lossy())
        );
        return Ok(ExitCode::from(2));
    }
    let path = file.to_string_lossy().into_owned();
    // The app's load: time order kept, as for any trace it opens small.
    let opts = profx::load::LoadOptions {
        timeline: true,
        ..super::load_options(load_args)
    };
    let mut follower = Follower::new(&path, &opts)?;
    follower.poll()?;
    let now = match follower.readiness()? {
        Readiness::Ready => follower.profile().ok(),
        Readiness::Waiting(_) => None,
    };
    let profile = now.unwrap_or_else(|| {
        let mut b = profx::model::ProfileBuilder::new("xpp");
        let why = "no trace record yet: the header says what following waits for";
        let waiting = profx::model::MetaValue::Text(why.into());
        b.set_meta(profx::report::fmt::WAITING, waiting);
        b.finish()
    });
    profx::tui::use_source_folders(load_args.source.clone(), load_args.source_map.clone());
    profx::tui::run_following(profile, &super::title_of(files), file, follower)
        .context("running the terminal app")?;
    Ok(ExitCode::SUCCESS)
}
