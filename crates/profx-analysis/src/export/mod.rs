//! `profx export`: a loaded profile in the formats other tools read.
//!
//! This module owns the choice of target and weight and the atomic writing
//! of the result; each target lives in its own file and reads only the
//! model (and `analysis`), never the input, so an export shows the numbers
//! the app and `--json` show:
//! - `folded`: Brendan Gregg's folded stacks (inferno, flamegraph.pl);
//! - `speedscope`: speedscope's file format, evented per thread for a trace,
//!   sampled otherwise;
//! - `chrome`: Chrome trace-event JSON (Perfetto, chrome://tracing), traces
//!   only;
//! - `csv`: a pane as a table (Excel, DuckDB, pandas);
//! - `parquet`: many runs as tables (DuckDB, Spark), a folder of them
//!   (`parquet/`, not a `Target`: it writes no one stream).

pub mod atomic;
mod chrome;
pub mod csv;
pub mod folded;
mod json;
pub mod parquet;
mod speedscope;

use crate::flame::{self, NoSuchWeight, Weight};
use crate::view::Table;
use profx_model::Profile;
use std::io::{self, Write};
use thiserror::Error;

/// What to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Folded stacks (inferno, flamegraph.pl).
    Folded,
    /// speedscope's file: evented per thread for a trace, sampled otherwise.
    Speedscope,
    /// Chrome trace-event JSON (Perfetto, chrome://tracing); traces only.
    Chrome,
    /// A table's rows as CSV.
    Csv(Table),
}

impl Target {
    /// Whether the load must keep the trace's calls in time order
    /// (`LoadOptions::timeline`) for this target.
    pub fn needs_timeline(self) -> bool {
        // The threads' heaviest functions are read from it too.
        matches!(
            self,
            Target::Speedscope | Target::Chrome | Target::Csv(crate::view::Table::Threads)
        )
    }
}

/// An export: its target and, for folded stacks and sampled speedscope
/// profiles, the weight (`None`: `Weight::default_for` the profile).
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The format to write.
    pub target: Target,
    /// What a stack weighs (`--weight`); `None` for the profile's default.
    pub weight: Option<Weight>,
    /// The query the export answers, in words (`Answer::label`): the
    /// speedscope profile's name and the Chrome trace's `otherData` state
    /// it; folded stacks and CSV have no place for it (the command says it
    /// on stderr). `None` for the whole profile.
    pub query: Option<String>,
    /// The query's range as calls are held to it (`Answer::entry_range`:
    /// reaching past the run's last event when it ends there, so a call
    /// entered at that instant is written, as the range's profile counts
    /// it): the Chrome trace, drawn from the events' time order, writes the
    /// calls that overlap it, cut at its edges (every other target reads
    /// the range's own profile).
    pub range: Option<profx_model::TimeRange>,
}

impl Target {
    /// Which of a query's profiles the target draws (`Reads`): the time
    /// order (Chrome) and the Trace pane's rows are the events', every
    /// other export the paths'.
    pub fn reads(self) -> crate::query::Reads {
        match self {
            Target::Chrome => crate::query::Reads::TIME_ORDER,
            Target::Csv(t) => crate::query::Reads::of_view(crate::view::View::Table(t)),
            Target::Folded | Target::Speedscope => crate::query::Reads::Paths,
        }
    }

    /// Whether the target's format has a place to name the query it
    /// answers.
    pub fn names_its_query(self) -> bool {
        matches!(self, Target::Chrome | Target::Speedscope)
    }
}

/// What was written, for the message that says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// "312 stacks", "2 threads, 40,118 events", "87 rows".
    pub what: String,
}

/// Why an export was not written.
#[derive(Debug, Error)]
pub enum ExportError {
    /// The weight asked for is one the profile does not record.
    #[error(transparent)]
    Weight(#[from] NoSuchWeight),
    /// `--to chrome` of a profile without a trace's calls in time order.
    #[error(
        "--to chrome needs a trace (the calls of each thread in time order); this {format} profile has none: try --to speedscope or --to folded"
    )]
    NotATrace {
        /// The profile's format name.
        format: String,
    },
    /// The output file exists and `--force` was not given.
    #[error("{path} exists; add --force to replace it")]
    Exists {
        /// The output file, as given.
        path: String,
    },
    /// Making, writing or renaming the output file failed.
    ///
    /// The OS error is part of the message, not a `source`, which a chain
    /// printed whole would repeat.
    #[error("writing {path}: {error}")]
    Write {
        /// The output file, as given.
        path: String,
        /// The OS's error.
        error: io::Error,
    },
    /// The output exists and is not a regular file (a directory, a FIFO, a
    /// device).
    #[error(
        "{path} {what}; an export replaces only a regular file (`-o -` writes to standard output)"
    )]
    NotAFile {
        /// The output file, as given.
        path: String,
        /// What it is instead (`is a directory`, `is a FIFO (named pipe)`, ...).
        what: &'static str,
    },
    /// The output is one of the inputs (the same device and inode).
    #[error("{path} is the input {input}; export to another file")]
    IsInput {
        /// The output file, as given.
        path: String,
        /// The input it is, as given.
        input: String,
    },
    /// An I/O error while the export's data was written.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The Parquet writer or reader failed (`--to parquet`).
    #[error("{path}: {error}")]
    Parquet {
        /// The file or folder.
        path: String,
        /// What failed, in the Parquet library's words.
        error: String,
    },
    /// `--to parquet`'s folder exists and `--append` was not given.
    #[error("{path} exists; add --append to add these runs to its tables, or give a new folder")]
    DirExists {
        /// The folder, as given.
        path: String,
    },
    /// `--to parquet`'s output exists and is no folder.
    #[error("{path} {what}; --to parquet writes a folder of tables")]
    NotADir {
        /// The output, as given.
        path: String,
        /// What it is instead.
        what: &'static str,
    },
    /// `--append` to a folder whose tables are not of the schema written
    /// now.
    #[error("{path} holds tables of another schema, left as they are: {what}")]
    SchemaDiffers {
        /// The folder, as given.
        path: String,
        /// What differs, table by table.
        what: String,
    },
}

impl From<::csv::Error> for ExportError {
    /// Keeps an I/O error's kind, so a closed pipe stays a closed pipe.
    fn from(e: ::csv::Error) -> Self {
        let message = e.to_string();
        match e.into_kind() {
            ::csv::ErrorKind::Io(io) => ExportError::Io(io),
            _ => ExportError::Io(io::Error::other(message)),
        }
    }
}

/// Writes `p` as `req` asks to `out`.
pub fn write(p: &Profile, req: &Request, out: &mut dyn Write) -> Result<Summary, ExportError> {
    let weight = match req.weight {
        Some(w) => {
            flame::check(p, w)?;
            w
        }
        // CSV needs no weight; chrome and evented speedscope take the
        // trace's own times.
        None => match (req.target, p.timeline()) {
            (Target::Speedscope, Some(tl)) if !tl.marks.is_empty() => Weight::Time,
            (Target::Folded | Target::Speedscope, _) => Weight::default_for(p)?,
            _ => Weight::Time,
        },
    };
    let what = match req.target {
        Target::Folded => folded::write(p, weight, out)?,
        Target::Speedscope => match (req.weight, p.timeline()) {
            (None, Some(tl)) if !tl.marks.is_empty() => {
                speedscope::write_evented(p, tl, req.query.as_deref(), out)?
            }
            _ => speedscope::write_sampled(p, weight, req.query.as_deref(), out)?,
        },
        Target::Chrome => match (p.timeline(), req.range) {
            (Some(tl), Some(range)) => chrome::write(p, &tl.cut(range), req.query.as_deref(), out)?,
            (Some(tl), None) => chrome::write(p, tl, req.query.as_deref(), out)?,
            (None, _) => {
                return Err(ExportError::NotATrace {
                    format: p.format.clone(),
                });
            }
        },
        Target::Csv(table) => csv::write_view(p, table, out)?,
    };
    out.flush()?;
    Ok(Summary { what })
}
