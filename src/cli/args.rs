//! The command-line grammar (clap derive).

use clap::{Args, Parser, Subcommand, ValueEnum};
use profx::report::table::View;

/// Terminal explorer for legacy profiler output: Visual C++ PLIST, Business
/// Rules! DEBUG PROFILE, Xbase++ traces, Visual Studio reports.
///
/// `profx FILE...` opens the interactive explorer on the files; `profx`
/// alone opens it on the demo profile built into the binary.
#[derive(Debug, Parser)]
#[command(name = "profx", version, about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Profile files to explore (none: the built-in demo).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    #[command(flatten)]
    pub load: LoadArgs,
}

/// How to read the inputs (the app and `report` share these).
#[derive(Debug, Args)]
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
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Load profiles and print them: `--json` for scripts, `--table` for people.
    Report(ReportArgs),
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Profile files (the format is detected from their content).
    #[arg(required_unless_present = "demo", value_name = "FILE")]
    pub files: Vec<String>,

    /// Use the demo profile built into profx instead of a file.
    #[arg(long, conflicts_with = "files")]
    pub demo: bool,

    /// Print the whole model as JSON (report-json.md, schema 1).
    #[arg(long, conflicts_with_all = ["table", "view", "sort", "top", "reverse"])]
    pub json: bool,

    /// Print an aligned table (the default).
    #[arg(long)]
    pub table: bool,

    /// Which pane the table shows.
    #[arg(long, value_enum, default_value_t = ViewArg::Functions)]
    pub view: ViewArg,

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
    pub load: LoadArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ViewArg {
    Functions,
    Lines,
    Stacks,
    Packets,
    Info,
}

impl From<ViewArg> for View {
    fn from(v: ViewArg) -> View {
        match v {
            ViewArg::Functions => View::Functions,
            ViewArg::Lines => View::Lines,
            ViewArg::Stacks => View::Stacks,
            ViewArg::Packets => View::Packets,
            ViewArg::Info => View::Info,
        }
    }
}
