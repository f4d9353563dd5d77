//! `profx diff BASE NEW`: two runs compared (model.md § Comparisons).
//!
//! Exit codes: 0 compared, 1 a side could not be read (named), 2 a usage
//! error (a bad `--fail-if`, a query neither side can take, sides in
//! different units), 3 a `--fail-if` condition held (each named on
//! stderr).

use super::args::{DiffArgs, DiffTo};
use super::{Usage, load_options, progress};
use anyhow::Context;
use profx::analysis::diff::{self, Comparison, Condition, Outcome, Which};
use profx::analysis::query::Query;
use profx::export;
use profx::load::{self, Input, KeepEvents, KeepLanes, KeepStacks, LoadOptions};
use profx::model::{Profile, TimeUnit};
use profx::text::visible;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// A `--fail-if` condition held: the exit code that says so.
const HELD: u8 = 3;

pub fn diff(args: &DiffArgs, q: &Query) -> anyhow::Result<ExitCode> {
    let conditions = args
        .fail_if
        .iter()
        .map(|c| diff::parse_condition(c))
        .collect::<Result<Vec<Condition>, _>>()
        .map_err(|e| Usage(e.to_string()))?;
    check_args(args)?;
    // A person at a terminal who asked for no text sees the comparison in
    // the app; with `--fail-if`, or standard output not a terminal, it is
    // printed.
    let asked_for_text = args.json || args.table || args.to.is_some() || !conditions.is_empty();
    let app = !asked_for_text && std::io::stdout().is_terminal();
    if app && let Some(why) = super::no_app_here(&[args.base.clone(), args.new.clone()]) {
        eprintln!("profx: {why}; `profx diff --table` prints the comparison as text");
        return Ok(ExitCode::from(2));
    }
    let [base, new] = load_sides(args, app)?;
    let sides = diff::answer_sides(&base, &new, q, &profx::model::Watch::NONE)
        .map_err(|e| Usage(e.to_string()))?;
    let c = Comparison::new(sides).map_err(|e| Usage(e.to_string()))?;
    if app {
        return explore(c, args, q);
    }
    let outcomes = conditions
        .iter()
        .map(|cond| cond.ask(&c))
        .collect::<Result<Vec<Outcome>, _>>()
        .map_err(|e| Usage(e.to_string()))?;
    let written = match (args.to, &args.output) {
        (Some(to), Some(out)) => write_export(&c, args, to, out)?,
        _ if args.json => {
            let mut stdout = std::io::stdout().lock();
            diff::write_json(&c, &outcomes, &mut stdout)
        }
        _ => {
            let opts = diff::TableOptions {
                sort: args.sort.map(Into::into).unwrap_or_default(),
                top: args.top,
            };
            let mut stdout = std::io::stdout().lock();
            diff::write_table(&c, &opts, &mut stdout)
        }
    };
    match written {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.context("writing the comparison")?,
    }
    for w in Which::BOTH {
        if let Some(note) = profx::report::fmt::warnings_note(c.side(w).loaded()) {
            eprintln!("profx: {w}: {note}");
        }
    }
    let mut held = false;
    for o in outcomes.iter().filter(|o| o.held) {
        held = true;
        eprintln!(
            "profx: --fail-if {}: {}",
            visible(&o.condition),
            said(&c, o)
        );
    }
    Ok(ExitCode::from(if held { HELD } else { 0 }))
}

/// The comparison in the app, the header naming each side by its file.
fn explore(c: Comparison, args: &DiffArgs, q: &Query) -> anyhow::Result<ExitCode> {
    let name = |f: &PathBuf| {
        f.file_name()
            .map_or_else(|| f.to_string_lossy(), |n| n.to_string_lossy())
            .into_owned()
    };
    let names = [name(&args.base), name(&args.new)];
    let compared = profx::tui::Compared::new(c, names, q.clone());
    profx::tui::run_comparison(compared, &args.new).context("running the terminal app")?;
    Ok(ExitCode::SUCCESS)
}

/// What a condition that held compared, for stderr: each value it held
/// for, both sides, the change.
fn said(c: &Comparison, o: &Outcome) -> String {
    let unit = |metric: &str| match metric {
        m if m.ends_with("_pct") => " %".to_string(),
        m if m.ends_with("_ms") => format!(" {}", c.time_unit().unwrap_or_default().name()),
        "total_samples" | "hits_total" | "hits_self" => " samples".into(),
        _ => String::new(),
    };
    let each: Vec<String> = o
        .values
        .iter()
        .filter(|v| v.held)
        .map(|v| {
            let who = match (&v.function, &v.module) {
                (Some(f), Some(m)) if !m.is_empty() => format!("{} ({}): ", visible(f), visible(m)),
                (Some(f), _) => format!("{}: ", visible(f)),
                _ => String::new(),
            };
            let u = unit(&v.metric);
            let change = v
                .change_pct
                .map_or(String::new(), |p| format!(" ({p:+.2}%)"));
            // A share is written as the tables write percents (two
            // decimals); times and counts as `--json` states them.
            let (base, new, delta) = match v.metric.ends_with("_pct") {
                true => (
                    format!("{:.2}", v.base),
                    format!("{:.2}", v.new),
                    format!("{:+.2}", v.delta),
                ),
                false => (
                    v.base.to_string(),
                    v.new.to_string(),
                    format!("{:+}", v.delta),
                ),
            };
            format!(
                "{who}{} base {base}{u}, new {new}{u}, change {delta}{u}{change}",
                v.metric
            )
        })
        .collect();
    format!("held: {}", each.join("; "))
}

/// What can be refused before the load: both sides read from standard
/// input, an export's output that is an input or exists without
/// `--force`, a weight without folded stacks.
fn check_args(args: &DiffArgs) -> anyhow::Result<()> {
    if args.base.as_os_str() == "-" && args.new.as_os_str() == "-" {
        return Err(Usage("only one side can be standard input (`-`)".into()).into());
    }
    if args.weight.is_some() && args.to != Some(DiffTo::Folded) {
        return Err(Usage("--weight goes with --to folded".into()).into());
    }
    let Some(out) = &args.output else {
        return Ok(());
    };
    super::refuse_output(out, &[args.base.clone(), args.new.clone()], args.force)
}

/// Both sides loaded, each on its own thread; a side that cannot be read
/// is named. `--clock-mhz` turns the side (or sides) in ticks into ms; a
/// comparison with no side in ticks refuses it, as `report` does. For the
/// app (`app`), each side keeps its events (the Trace pane shows NEW's),
/// and a small trace its calls in time order, as `profx FILE` loads it.
fn load_sides(args: &DiffArgs, app: bool) -> anyhow::Result<[Arc<Profile>; 2]> {
    let open = |f: &PathBuf, w: Which| Input::open(f).with_context(|| w.to_string());
    let inputs = [open(&args.base, Which::Base)?, open(&args.new, Which::New)?];
    // Stacks kept: the comparison pairs them; a report's event count only.
    let opts = match app {
        true => LoadOptions {
            clock_mhz: None,
            timeline: inputs.iter().map(Input::len).sum::<u64>() <= super::TIMELINE_BYTES,
            ..load_options(&args.load)
        },
        false => LoadOptions {
            events: KeepEvents::Counted,
            stacks: KeepStacks::Kept,
            lanes: KeepLanes::Skipped,
            clock_mhz: None,
            ..load_options(&args.load)
        },
    };
    let one = |input: &Input, w: Which, opts: &LoadOptions| {
        load::load_inputs(std::slice::from_ref(input), opts)
            .map(Arc::new)
            .with_context(|| w.to_string())
    };
    let (b, n) = progress::while_loading(&inputs, || {
        std::thread::scope(|s| {
            let b = s.spawn(|| one(&inputs[0], Which::Base, &opts));
            let n = one(&inputs[1], Which::New, &opts);
            (b.join(), n)
        })
    });
    let b = b.unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
    let mut sides = [b, n?];
    if let Some(mhz) = args.load.clock_mhz {
        let in_ticks = |p: &Profile| p.time_unit() == Some(TimeUnit::Ticks);
        if !sides.iter().any(|p| in_ticks(p)) {
            return Err(Usage(
                "--clock-mhz turns processor ticks into ms, and neither side's times are in ticks"
                    .into(),
            )
            .into());
        }
        let with_clock = LoadOptions {
            clock_mhz: Some(mhz),
            ..opts.clone()
        };
        for (k, w) in Which::BOTH.into_iter().enumerate() {
            if in_ticks(&sides[k]) {
                sides[k] = one(&inputs[k], w, &with_clock)?;
            }
        }
    }
    Ok(sides)
}

/// `--to folded|csv -o OUT`: written atomically, or to standard output.
fn write_export(
    c: &Comparison,
    args: &DiffArgs,
    to: DiffTo,
    out: &std::path::Path,
) -> anyhow::Result<std::io::Result<()>> {
    let weight = match to {
        DiffTo::Folded => Some(
            diff::weight_of(c, args.weight.map(Into::into))
                .map_err(|(w, e)| Usage(format!("{w}: {e}")))?,
        ),
        DiffTo::Csv => None,
    };
    let write = |o: &mut dyn Write| -> Result<export::Summary, export::ExportError> {
        let what = match weight {
            Some(weight) => diff::write_folded(c, weight, o)?,
            None => diff::write_csv(c, o)?,
        };
        Ok(export::Summary { what })
    };
    if out.as_os_str() == "-" {
        let mut stdout = std::io::stdout().lock();
        return Ok(match write(&mut stdout) {
            Err(export::ExportError::Io(e)) => Err(e),
            other => other.map(drop).map_err(std::io::Error::other),
        });
    }
    let sources: Vec<String> = Which::BOTH
        .iter()
        .flat_map(|&w| c.side(w).loaded().sources.clone())
        .collect();
    export::atomic::refuse_input(out, &sources)?;
    let summary = export::atomic::write_file(out, args.force, write)?;
    eprintln!(
        "profx: wrote {} to {}",
        summary.what,
        visible(&out.to_string_lossy())
    );
    Ok(Ok(()))
}
