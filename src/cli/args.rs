//! The command-line grammar (clap derive).

use clap::{Args, Parser, Subcommand, ValueEnum};
use profx::analysis::flame::Weight;
use profx::analysis::view::{Table, View};
use profx::export::Target;
use std::path::PathBuf;

/// Terminal explorer for legacy profiler output: Visual C++ PLIST, Business
/// Rules! DEBUG PROFILE, Xbase++ traces, Visual Studio reports.
///
/// `profx FILE` opens the interactive explorer on a profile; `profx` alone
/// opens it on the demo profile built into the binary.
#[derive(Debug, Parser)]
#[command(name = "profx", version, about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// The profile to explore, one at a time (none: the built-in demo; `-`:
    /// standard input).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Keep a trace's calls in time order for the Flame pane's time-order
    /// chart (`t`) even when the inputs are over 64 MiB (it costs 16 bytes
    /// an event; smaller traces keep them anyway).
    #[arg(long)]
    pub timeline: bool,

    /// Follow a trace while the program writes it (Xbase++ `.PRF`, DELDBE
    /// or DBF, with its packets): the numbers change as records come, the
    /// header says it is live; `L` stops (and reads it whole) and goes on.
    #[arg(long)]
    pub follow: bool,

    #[command(flatten)]
    pub load: LoadArgs,
}

/// How to read the inputs (the app and `report` share these).
#[derive(Clone, Debug, Args)]
pub struct LoadArgs {
    /// Skip detection and read the input as this format.
    #[arg(long, value_name = "NAME", value_parser = clap::builder::PossibleValuesParser::new(profx::load::format_names()))]
    pub format: Option<String>,

    /// Column order of a delimited Xbase++ trace, e.g. thread,time,op,call,line,params.
    #[arg(long, value_name = "LIST")]
    pub columns: Option<String>,

    /// Fail on the first warning (exit 1, naming its place).
    #[arg(long)]
    pub strict: bool,

    /// Load with the format's reference reading: one thread, every record
    /// by the format's general grammar. Slower; the same numbers.
    #[arg(long)]
    pub reference: bool,

    /// The processor clock, in MHz, of a profile whose times are in ticks
    /// (VSPerfReport's command-line CSV reports): its times are read as
    /// ms = ticks / (N × 1000). A profile not in ticks refuses it.
    #[arg(long, value_name = "N", value_parser = clock_mhz)]
    pub clock_mhz: Option<f64>,

    /// A source folder: where the source files the profile names are
    /// looked for (after the profile's own directory), by file name and
    /// then by ever longer tails of their path. Repeat for several.
    #[arg(long = "source", value_name = "DIR")]
    pub source: Vec<PathBuf>,

    /// Rewrite a source path's prefix before looking for it, e.g.
    /// `C:\proj=/home/me/proj` (either slash matches either). Repeat for
    /// several.
    #[arg(long = "source-map", value_name = "FROM=TO", value_parser = source_map)]
    pub source_map: Vec<profx::analysis::source::SourceMap>,

    /// The most memory a load may need (e.g. 8G, 512M). A load estimated to
    /// need more is refused before it starts (docs/large-inputs.md says
    /// what each format needs); without it, the limit is what the machine
    /// has available.
    #[arg(long, value_name = "SIZE", value_parser = profx::load::memory::parse_size)]
    pub max_memory: Option<u64>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Load profiles and print them: `--json` for scripts, `--table` for people.
    Report(ReportArgs),
    /// Write a profile for other tools: folded stacks (inferno,
    /// flamegraph.pl), speedscope, Chrome trace events (Perfetto), CSV;
    /// many runs as Parquet tables (DuckDB, Spark).
    Export(ExportArgs),
    /// Compare two runs: a table for people, `--json` for scripts,
    /// `--fail-if` to fail a build on a slowdown (exit 3), `--to folded|csv`
    /// for other tools. The two may be of different formats.
    Diff(DiffArgs),
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The run compared against (`-`: standard input).
    #[arg(value_name = "BASE")]
    pub base: PathBuf,

    /// The run compared with it (`-`: standard input).
    #[arg(value_name = "NEW")]
    pub new: PathBuf,

    /// Print JSON (report-json.md § Comparison): both sides' queries and
    /// totals, every function, edge and stack of either run with both
    /// values and their change.
    #[arg(long, conflicts_with_all = ["table", "sort", "top", "to"])]
    pub json: bool,

    /// Print the comparison as a table (on a terminal, without it or
    /// `--json`, `--to` or `--fail-if`, the comparison opens in the app).
    #[arg(long, conflicts_with = "to")]
    pub table: bool,

    /// Exit 3 when CONDITION holds, naming it: `incl|self|calls|share(NAME)
    /// OP BOUND`, or `total OP BOUND`; OP `>`, `>=`, `<`, `<=`; BOUND
    /// `±N%` (a change in percent of the base value), `±N [ms]` (a change)
    /// or `N` (the new run's value). `share` is a percent of each run's
    /// total. Repeat for several: any that holds fails.
    #[arg(long = "fail-if", value_name = "CONDITION", allow_hyphen_values = true)]
    pub fail_if: Vec<String>,

    /// The table's order: the largest change of this value first
    /// (default: incl), or `name`.
    #[arg(long, value_enum)]
    pub sort: Option<DiffSort>,

    /// Show only the first N rows of the table.
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,

    /// Write the comparison for other tools instead: `folded`, the two
    /// columns inferno-diff-folded writes (`stack base new`), for
    /// inferno-flamegraph's differential graph; `csv`, the function
    /// comparison.
    #[arg(long, value_enum, requires = "output")]
    pub to: Option<DiffTo>,

    /// The output file of `--to`, `-` for standard output. Written
    /// atomically.
    #[arg(short = 'o', long = "output", value_name = "OUT", requires = "to")]
    pub output: Option<PathBuf>,

    /// Replace OUT if it exists.
    #[arg(long, requires = "to")]
    pub force: bool,

    /// What a stack's weight counts in `--to folded`, the same for both
    /// runs. Default: time where both have it, else hits, else calls.
    #[arg(long, value_enum)]
    pub weight: Option<WeightArg>,

    #[command(flatten)]
    pub query: QueryArgs,

    #[command(flatten)]
    pub load: LoadArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffTo {
    Folded,
    Csv,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffSort {
    Incl,
    #[value(name = "self")]
    Excl,
    Calls,
    Share,
    Name,
}

impl From<DiffSort> for profx::analysis::diff::SortBy {
    fn from(s: DiffSort) -> Self {
        use profx::analysis::diff::SortBy;
        match s {
            DiffSort::Incl => SortBy::Incl,
            DiffSort::Excl => SortBy::Excl,
            DiffSort::Calls => SortBy::Calls,
            DiffSort::Share => SortBy::Share,
            DiffSort::Name => SortBy::Name,
        }
    }
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The profile file (the format is detected from its content); with
    /// `--to parquet`, any number of them, each a run, of any formats.
    #[arg(required_unless_present = "demo", value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Export the demo profile built into profx instead of a file.
    #[arg(long, conflicts_with = "files")]
    pub demo: bool,

    /// What to write.
    #[arg(long, value_enum)]
    pub to: ToArg,

    /// The output file, `-` for standard output. Written atomically (a
    /// temporary file renamed into place). With `--to parquet`, a folder
    /// of tables, one file each (docs/spec/parquet.md), which must not
    /// exist unless `--append` is given.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,

    /// Replace OUT if it exists.
    #[arg(long)]
    pub force: bool,

    /// `--to parquet`: add the runs to the tables already in the folder
    /// (new run ids, files `<table>-N.parquet`); a folder of another
    /// schema is refused, saying what differs.
    #[arg(long)]
    pub append: bool,

    /// Which pane `--to csv` writes (default: functions).
    #[arg(long, value_enum)]
    pub view: Option<Table>,

    /// What a stack's weight counts (folded; speedscope, which then writes a
    /// sampled profile even for a trace). Default: time where the profile
    /// has it, else hits (samples), else calls.
    #[arg(long, value_enum)]
    pub weight: Option<WeightArg>,

    #[command(flatten)]
    pub query: QueryArgs,

    #[command(flatten)]
    pub load: LoadArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ToArg {
    Folded,
    Speedscope,
    Chrome,
    Csv,
    /// Tables of many runs for DuckDB, Spark, Polars, pandas: a folder.
    Parquet,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum WeightArg {
    Time,
    Hits,
    Calls,
}

impl From<WeightArg> for Weight {
    fn from(w: WeightArg) -> Weight {
        match w {
            WeightArg::Time => Weight::Time,
            WeightArg::Hits => Weight::Hits,
            WeightArg::Calls => Weight::Calls,
        }
    }
}

impl ToArg {
    /// As `--to` takes it.
    pub fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    }
}

impl ExportArgs {
    /// The one stream to write; `None` for `--to parquet`, a folder.
    pub fn target(&self) -> Option<Target> {
        match self.to {
            ToArg::Folded => Some(Target::Folded),
            ToArg::Speedscope => Some(Target::Speedscope),
            ToArg::Chrome => Some(Target::Chrome),
            ToArg::Csv => Some(Target::Csv(self.view.unwrap_or(Table::Functions))),
            ToArg::Parquet => None,
        }
    }
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The profile file, one at a time (the format is detected from its
    /// content).
    #[arg(required_unless_present = "demo", value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Use the demo profile built into profx instead of a file.
    #[arg(long, conflicts_with = "files")]
    pub demo: bool,

    /// Follow a trace while the program writes it (Xbase++ `.PRF`, DELDBE
    /// or DBF, with its packets): print a refreshed table each second new
    /// records came (like `top -b`), and the final report when following
    /// stops (`--until-idle`, or Ctrl-C, which prints nothing more).
    #[arg(long, conflicts_with = "demo")]
    pub follow: bool,

    /// With `--follow`: stop once no byte has come for SECS seconds of
    /// wall-clock time, then print the final report. Not a range's
    /// `--until`, which is a time in the trace.
    #[arg(long, value_name = "SECS", requires = "follow", value_parser = seconds)]
    pub until_idle: Option<f64>,

    /// Print JSON (report-json.md, schema 1): the whole model, or with
    /// `--view tree|callers|callees` that view's document.
    #[arg(long, conflicts_with_all = ["table", "sort", "top", "reverse"])]
    pub json: bool,

    /// Print an aligned table (the default).
    #[arg(long)]
    pub table: bool,

    /// Which pane the table shows; `tree` the call tree (as `perf report
    /// --stdio`), `callers` / `callees` one function's edges (with
    /// `--function`), `source` the source files with each line's cost (as
    /// `pprof list`; `--source DIR` and `--source-map` say where they are).
    #[arg(long, value_enum, default_value_t = View::Table(Table::Functions))]
    pub view: View,

    /// The function `--view callers|callees` is about (`--view source`:
    /// only its lines): its exact name (every function of that name), or
    /// MODULE!NAME for one of them.
    #[arg(long, value_name = "NAME")]
    pub function: Option<String>,

    /// `--view tree`: bottom-up (functions by self weight, callers below).
    #[arg(long)]
    pub invert: bool,

    /// `--view tree`: keep N levels (1: the roots alone).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub depth: Option<u64>,

    /// `--view tree`: leave out rows (and what is under them) holding less
    /// than P percent of the session.
    #[arg(long, value_name = "P", value_parser = percent)]
    pub min_pct: Option<f64>,

    /// Column to sort the table by (its --json key, e.g. elapsed_exclusive_ms).
    #[arg(long, value_name = "COLUMN")]
    pub sort: Option<String>,

    /// Reverse the table's order.
    #[arg(long)]
    pub reverse: bool,

    /// Show only the first N rows of the table.
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,

    #[command(flatten)]
    pub query: QueryArgs,

    #[command(flatten)]
    pub load: LoadArgs,
}

/// The query (model.md § Queries): a trace's threads, then transforms of
/// the call paths, applied in the order given. A function is its exact
/// name (every function of that name) or MODULE!NAME; a path is its
/// frames joined by `;`.
#[derive(Clone, Debug, Default, Args)]
pub struct QueryArgs {
    /// Only this thread of a trace (its id, as the trace records it);
    /// repeat for several. Default: all threads, merged.
    #[arg(long = "thread", value_name = "ID", help_heading = "Query")]
    pub threads: Vec<u64>,
    /// Only the stretch of a trace's run from this time on, in ms of the
    /// trace's own clock (as the Trace pane shows times): every interval
    /// is cut at the range's edges, and a call counts when it was entered
    /// inside it. Alone: to the run's end.
    #[arg(
        long = "from",
        value_name = "MS",
        help_heading = "Query",
        allow_negative_numbers = true
    )]
    pub from: Option<f64>,
    /// Only the stretch of a trace's run before this time, in ms (with
    /// `--from`, or alone: from the run's start). A range ending at or past
    /// the run's last event covers it whole.
    #[arg(
        long = "until",
        value_name = "MS",
        help_heading = "Query",
        allow_negative_numbers = true
    )]
    pub until: Option<f64>,
    /// Merge function F: it leaves every call path, its time goes to its caller.
    #[arg(long, value_name = "F", help_heading = "Query")]
    pub merge: Vec<String>,
    /// Merge one call node: the node at path A;B;C leaves the paths under it.
    #[arg(long, value_name = "A;B;C", help_heading = "Query")]
    pub merge_path: Vec<String>,
    /// Drop F: every call path through F is removed, with its time.
    #[arg(long, value_name = "F", help_heading = "Query")]
    pub drop: Vec<String>,
    /// Focus on F: only paths through F, each from its outermost F.
    #[arg(long, value_name = "F", help_heading = "Query")]
    pub focus: Vec<String>,
    /// Focus on the subtree at path A;B;C: only paths under it, from C.
    #[arg(long, value_name = "A;B;C", help_heading = "Query")]
    pub focus_path: Vec<String>,
    /// Collapse F's recursion: A>F>G>F>H becomes A>F>H.
    #[arg(long, value_name = "F", help_heading = "Query")]
    pub collapse_recursion: Vec<String>,
    /// Collapse F's direct recursion only: A>F>F>H becomes A>F>H.
    #[arg(long, value_name = "F", help_heading = "Query")]
    pub collapse_direct_recursion: Vec<String>,
    /// Collapse module M: each run of its frames becomes one frame named M.
    #[arg(long, value_name = "M", help_heading = "Query")]
    pub collapse_module: Vec<String>,
    /// Collapse F's subtree: its callees' time joins it.
    #[arg(long, value_name = "F", help_heading = "Query")]
    pub collapse_subtree: Vec<String>,
}

impl QueryArgs {
    /// The query, its steps in the order the command line gave them
    /// (`matches` is the subcommand's: clap keeps each value's index).
    pub fn query(&self, matches: &clap::ArgMatches) -> profx::analysis::query::Query {
        use profx::analysis::query::{Query, Step, Target, split_path};
        let t = |s: &String| Target(s.clone());
        let mut steps: Vec<(usize, Step)> = Vec::new();
        let mut take = |id: &str, values: &[String], make: &dyn Fn(&String) -> Step| {
            let at: Vec<usize> = matches
                .indices_of(id)
                .map(|i| i.collect())
                .unwrap_or_default();
            for (k, v) in values.iter().enumerate() {
                steps.push((at.get(k).copied().unwrap_or(usize::MAX), make(v)));
            }
        };
        take("merge", &self.merge, &|v| Step::Merge(t(v)));
        take("merge_path", &self.merge_path, &|v| {
            Step::MergePath(split_path(v))
        });
        take("drop", &self.drop, &|v| Step::Drop(t(v)));
        take("focus", &self.focus, &|v| Step::Focus(t(v)));
        take("focus_path", &self.focus_path, &|v| {
            Step::FocusPath(split_path(v))
        });
        take("collapse_recursion", &self.collapse_recursion, &|v| {
            Step::CollapseRecursion(t(v))
        });
        take(
            "collapse_direct_recursion",
            &self.collapse_direct_recursion,
            &|v| Step::CollapseDirectRecursion(t(v)),
        );
        take("collapse_module", &self.collapse_module, &|v| {
            Step::CollapseModule(v.clone())
        });
        take("collapse_subtree", &self.collapse_subtree, &|v| {
            Step::CollapseSubtree(t(v))
        });
        steps.sort_by_key(|s| s.0);
        // In id order, as profx lists threads everywhere; once each.
        let mut threads = self.threads.clone();
        threads.sort_unstable();
        threads.dedup();
        let range =
            (self.from.is_some() || self.until.is_some()).then(|| profx::model::TimeRange {
                from_ms: self.from.unwrap_or(f64::NEG_INFINITY),
                until_ms: self.until.unwrap_or(f64::INFINITY),
            });
        Query {
            threads: (!threads.is_empty()).then_some(threads),
            range,
            steps: steps.into_iter().map(|s| s.1).collect(),
        }
    }
}

impl ReportArgs {
    /// What `profx report FILES --table` would be given: the app's stand-in
    /// when standard output is not a terminal.
    pub fn table_of(files: &[PathBuf], load: &LoadArgs) -> ReportArgs {
        let mut argv = vec!["profx".into(), "report".into()];
        if files.is_empty() {
            argv.push("--demo".into());
        } else {
            argv.push("--".into());
        }
        argv.extend(files.iter().map(|f| f.as_os_str().to_owned()));
        let mut args = match Cli::parse_from::<_, std::ffi::OsString>(argv).command {
            Some(Command::Report(r)) => r,
            _ => unreachable!("a report command line parses as a report"),
        };
        args.load = load.clone();
        args
    }
}

/// `--source-map FROM=TO`.
fn source_map(text: &str) -> Result<profx::analysis::source::SourceMap, String> {
    profx::analysis::source::SourceMap::parse(text)
        .ok_or_else(|| format!("{text:?} is no FROM=TO: a path prefix, `=`, what it becomes here"))
}

/// A percent from 0 to 100 (`--min-pct`): no NaN, no infinity.
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err(format!("{text:?} is not a number of seconds (0 or more)")),
    }
}

fn percent(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        _ => Err(format!("{text:?} is not a percent from 0 to 100")),
    }
}

/// A processor clock in MHz (`--clock-mhz`): a number above 0, finite.
fn clock_mhz(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(n) if n > 0.0 && n.is_finite() => Ok(n),
        _ => Err(format!(
            "{text:?} is not a clock rate: a number of MHz above 0 (2400 for 2.4 GHz)"
        )),
    }
}
