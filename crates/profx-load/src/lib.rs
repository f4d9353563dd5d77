//! Input formats → `Profile`.
//!
//! This crate owns opening inputs (read-only, memory-mapped), choosing a
//! loader by content ([`Detection`]: yes / no / need more), running it into a
//! [`ProfileBuilder`] and the `--strict` rule. Each format lives in a folder
//! of its own, private to the crate, and knows nothing of the others;
//! adding one means adding it to [`LOADERS`].

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(unreachable_pub)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

mod br;
pub mod follow;
mod input;
pub mod memory;
mod names;
mod parallel;
mod plist;
mod problem;
mod replay;
mod scan;
mod split;
#[cfg(test)]
mod testing;
mod vs_csv;
pub mod wake;
mod watch;
mod xpp;

pub use input::Input;

use profx_model::{Place, Profile, ProfileBuilder, WarningKind, Watch};
use thiserror::Error;

/// A loader's answer to "is this your format?" for the first bytes of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detection {
    /// The bytes are this loader's format.
    Yes,
    /// They are not.
    No,
    /// The bytes seen so far do not decide; show more.
    NeedMore,
}

/// One input format.
pub trait Loader: Sync {
    /// Name used by `--format` and in reports (`"plist"`).
    fn name(&self) -> &'static str;
    /// Judges `head`, the first bytes of a file; `at_eof` when that is all of it.
    fn detect(&self, head: &[u8], at_eof: bool) -> Detection;
    /// Judges a whole input; loaders that need its name as well as its
    /// bytes (a records-only trace packet) override this.
    fn detect_input(&self, input: &Input) -> Detection {
        detect_growing(self, input.bytes())
    }
    /// Loads `input` into `b`. Unusable records become warnings; an error
    /// means nothing usable was found.
    fn load(
        &self,
        input: &Input,
        opts: &LoadOptions,
        b: &mut ProfileBuilder,
    ) -> Result<(), LoadError>;
    /// `load` for someone who waits for it: `watch` is asked whether to
    /// stop at least every `Watch::EVERY` bytes of input, from each thread
    /// that reads, and told how far the load has read; a load it stops
    /// is [`LoadError::Cancelled`], its threads ended. How a profile's
    /// replay (a thread choice) loads the input again: loaders whose
    /// profiles have none load unwatched.
    #[doc(hidden)]
    fn load_watched(
        &self,
        input: &Input,
        opts: &LoadOptions,
        watch: &Watch<'_>,
        b: &mut ProfileBuilder,
    ) -> Result<(), LoadError> {
        let _ = watch;
        self.load(input, opts, b)
    }
}

/// Every loader, in the order detection asks them.
/// A dBASE III table starts with byte 3, a BR sample's type: `xpp`, whose
/// DBF check is strict, is asked before `br`.
pub static LOADERS: &[&dyn Loader] = &[&plist::Plist, &xpp::Xpp, &br::Br, &vs_csv::VsCsv];

/// Why a load failed: what, where, why.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The OS error is part of the message, not a `source`: a chain
    /// printed whole would say it twice.
    #[error("{path}: cannot read: {error}")]
    Io {
        /// The input, as it was named.
        path: String,
        /// What the OS said.
        error: std::io::Error,
    },
    /// The path is no regular file (a directory, a FIFO, a device).
    #[error("{path}: {what}; profx reads regular files, or `-` for standard input")]
    NotAFile {
        /// The input, as it was named.
        path: String,
        /// What it is instead (`profx_sys::fs::kind_of`).
        what: &'static str,
    },
    /// No loader said the file is its format.
    #[error("{path}: not a format profx knows (tried: {tried}); name one with --format")]
    Unrecognized {
        /// The input, as it was named.
        path: String,
        /// The formats asked, in order.
        tried: String,
    },
    /// `--format` names no format.
    #[error("unknown format {name:?} (known: {known})")]
    UnknownFormat {
        /// The name given.
        name: String,
        /// The names profx knows.
        known: String,
    },
    /// The input holds nothing usable, or nothing usable can follow from
    /// what it holds.
    #[error("{path}: {place}: {reason}")]
    Invalid {
        /// The input, as it was named.
        path: String,
        /// Where in it the loader gave up.
        place: Place,
        /// What is wrong, for code to tell failures apart.
        kind: InvalidKind,
        /// The same in words, for people.
        reason: String,
    },
    /// `--columns` does not say which fields are the trace's.
    #[error("{path}: --columns: {reason}")]
    Columns {
        /// The input the columns were given for.
        path: String,
        /// What is wrong with the list.
        reason: String,
    },
    /// The first warning of a `--strict` load.
    #[error("{path}: {place}: {message} (--strict makes every warning fatal)")]
    Strict {
        /// The input the warning is about.
        path: String,
        /// Where in it.
        place: Place,
        /// The warning's kind.
        kind: WarningKind,
        /// The warning's message.
        message: String,
    },
    /// Several files given for a format that loads one (its packets are
    /// found beside it).
    #[error("{format} loads one file at a time, {count} were given")]
    TooManyInputs {
        /// The format.
        format: &'static str,
        /// How many files were given.
        count: usize,
    },
    /// No file given.
    #[error("no input file given")]
    NoInput,
    /// Whoever waited for the load stopped it (`Loader::load_watched`).
    #[error("cancelled")]
    Cancelled,
    /// A load that would need more memory than the machine has, or than
    /// `--max-memory` allows (`memory::check`), refused before it starts.
    #[error(
        "{path}: loading this {format} profile{} needs about {need} of memory ({how}; docs/large-inputs.md), more than the {limit} {}; --max-memory SIZE sets the limit (e.g. --max-memory 64G, if you know the machine can)",
        if *app { " in the app" } else { "" },
        if *machine { "this machine has available" } else { "--max-memory allows" }
    )]
    Memory {
        /// The input, as it was named.
        path: String,
        /// Its format.
        format: &'static str,
        /// For the app (else a report or an export).
        app: bool,
        /// What it would need, written.
        need: String,
        /// How that was estimated.
        how: String,
        /// The limit, written.
        limit: String,
        /// The limit is the machine's (else `--max-memory`'s).
        machine: bool,
    },
    /// `--follow` on a profile that cannot grow: only traces are written
    /// while the program runs.
    #[error(
        "{path}: a {format} profile cannot be followed: it is written once, when the run ends; --follow reads Xbase++ traces (.PRF, DELDBE or DBF) as they are written"
    )]
    NotFollowable {
        /// The input, as it was named.
        path: String,
        /// The format it is.
        format: String,
    },
    /// `--clock-mhz` given for a profile whose times are not in ticks: a
    /// usage error (the command line asks what the file cannot take).
    #[error("{path}: --clock-mhz turns processor ticks into ms, and {why}")]
    ClockMhz {
        /// The input, as it was named.
        path: String,
        /// What the profile's times are instead.
        why: String,
    },
}

/// The meta key a load with `--clock-mhz` states the clock under (the
/// loader that turned ticks into ms sets it; `load_one` asks for it).
pub const CLOCK_MHZ: &str = "clock_mhz";

/// Why an input is [`LoadError::Invalid`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvalidKind {
    /// The file has no byte.
    Empty,
    /// No record the format can use (every one skipped, or none there).
    NoRecords,
    /// A header without the columns or fields the format needs.
    NoColumns,
    /// A header that does not hold together (a DBF header's date, lengths
    /// or field descriptors).
    BadHeader,
    /// A records-only packet whose header packet cannot be read.
    NoHeaderPacket,
    /// An input larger than the loader can address.
    TooLarge,
}

/// How to load.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// `--format`: skip detection.
    pub format: Option<String>,
    /// `--strict`: the first warning fails the load.
    pub strict: bool,
    /// `--columns`: the order of a delimited trace's columns
    /// (`thread,time,op,call,line,params`), instead of detecting it.
    pub columns: Option<String>,
    /// Bytes a parallel parsing chunk holds (`None`: `parallel::CHUNK`).
    /// Tests make it small so that small files take the many-chunk path.
    #[doc(hidden)]
    pub chunk_bytes: Option<usize>,
    /// Keep a trace's calls in time order (`Profile::timeline`), for evented
    /// exports; the app and reports do without it.
    pub timeline: bool,
    /// What a trace keeps of its events besides their count.
    pub events: KeepEvents,
    /// Whether a trace's call paths and a log's samples make stacks.
    pub stacks: KeepStacks,
    /// Whether a timed trace makes each thread's lane (`Profile::lanes`).
    pub lanes: KeepLanes,
    /// Whether a timed trace keeps each call's durations for its
    /// functions' percentiles (`Profile::call_durations`).
    pub durations: KeepDurations,
    /// Parsers a fast engine runs (the calling thread is one of them):
    /// `None` for one a core, up to eight (`parallel::workers`). Tests give
    /// several, so that the workers' paths (their name tables, batches
    /// handed over in order) run on any machine, one core included.
    #[doc(hidden)]
    pub workers: Option<usize>,
    /// Load with the format's reference loader: one thread, the format's
    /// general grammar, no speed machinery (`plist::reference`,
    /// `xpp::reference`, `br::reference`). It gives the same profile as
    /// the fast engine, slower; the tests hold
    /// the two to that. VS reports have one loader and ignore it.
    pub reference: bool,
    /// The threads a query chose: a trace's records of other threads are
    /// left out, as if the file did not hold them (`Rules`); `None` for
    /// all. Other formats have one implicit thread and ignore it.
    pub threads: Option<Vec<u64>>,
    /// The stretch of a trace a query chose (model.md § Time ranges): every
    /// record still runs through the rules (the stacks it leaves open at
    /// the range's start are the range's), but intervals are cut at its
    /// edges and a call counts only when entered inside it; `None`: the
    /// whole run. Formats without a trace's times ignore it (the query
    /// refuses a range there first).
    pub range: Option<profx_model::TimeRange>,
    /// `--clock-mhz`: the processor clock, in MHz, that turns a profile's
    /// ticks into milliseconds (ms = ticks / (MHz × 1000)) as they are read;
    /// the profile's unit is then ms. A profile not in ticks fails the
    /// load ([`LoadError::ClockMhz`]). `None`: times as the file states them.
    pub clock_mhz: Option<f64>,
    /// A followed trace's numbered packets, as profx kept their bytes
    /// (`follow.rs`): read instead of the files beside the first piece, so
    /// that a packet moved away keeps its numbers and a file rewritten
    /// while read never faults a mapping. `None`: the files on disk.
    pub packets: Option<Vec<Input>>,
    /// The trace is still being written (`follow.rs`): calls open at its
    /// end are not yet returned, so they are counted (meta `open_calls`)
    /// rather than warned about, and a DBF header's record count, which
    /// the writer rewrites, is not compared.
    pub live: bool,
    /// Where a trace's calls go, one by one as they close (the parquet
    /// export's `calls` table): the first load of these options takes it,
    /// a query's replay of the input never does.
    pub calls: profx_model::CallFeed,
}

/// Whether a trace's call paths and a log's samples make stacks. The
/// functions, lines and totals are the same either way, to the bit
/// (`ProfileBuilder::skip_stacks`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeepStacks {
    /// A stack for every call path or sampled backtrace: the stacks pane,
    /// `--json`, exports.
    #[default]
    Kept,
    /// None: a report of functions or lines shows no stack, and finding
    /// each call's path or each sample's stack is a large part of a trace's
    /// or a BR log's load. Files that state their stacks (PLIST, VS
    /// reports) keep them.
    Skipped,
}

/// Whether a timed trace makes each thread's busy time across the run
/// (`Profile::lanes`): the app's Timeline draws them; no report, export or
/// comparison reads them, and making them is a share of a trace's load
/// worth saving (BENCHMARKS.md, issue 69). Every other number is the same
/// either way (`ProfileBuilder::skip_lanes`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeepLanes {
    /// Lanes made: the app, and any load that may be shown in it.
    #[default]
    Kept,
    /// None: `report`, `export`, `diff` without the app.
    Skipped,
}

/// Whether a timed trace keeps each call's two durations until it ends,
/// for its functions' percentiles, histograms and slowest calls
/// (`Profile::call_durations`): `--json`, Parquet's `functions` and the
/// app show them; a table of functions or lines and the exports of one
/// profile do not. Every other number, the shortest and longest call
/// included, is the same either way (`ProfileBuilder::skip_durations`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeepDurations {
    /// Kept: what shows a function's calls' distribution.
    #[default]
    Kept,
    /// Only each function's shortest and longest call: `report --table`
    /// of functions or lines, `export` of one profile.
    Skipped,
}

/// What a trace's packets keep of their events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeepEvents {
    /// Where each event is in the file, its function and depth, so the
    /// trace pane and the CSV export read rows back (four to eight bytes
    /// an event).
    #[default]
    Indexed,
    /// How many there are and nothing else: `report` reads no event back,
    /// so it need not build the index.
    Counted,
}

/// The names `--format` accepts.
pub fn format_names() -> Vec<&'static str> {
    LOADERS.iter().map(|l| l.name()).collect()
}

fn by_name(name: &str) -> Result<&'static dyn Loader, LoadError> {
    LOADERS
        .iter()
        .copied()
        .find(|l| l.name() == name)
        .ok_or_else(|| LoadError::UnknownFormat {
            name: name.to_string(),
            known: format_names().join(", "),
        })
}

/// The loader whose detection says yes to `input`, the first one in
/// [`LOADERS`] order when several would.
pub fn detect(input: &Input) -> Result<&'static dyn Loader, LoadError> {
    LOADERS
        .iter()
        .copied()
        .find(|l| l.detect_input(input) == Detection::Yes)
        .ok_or_else(|| LoadError::Unrecognized {
            path: input.name().to_string(),
            tried: format_names().join(", "),
        })
}

/// Offers a loader ever larger heads of the file until it decides.
pub fn detect_growing<L: Loader + ?Sized>(loader: &L, bytes: &[u8]) -> Detection {
    detect_heads(bytes, |head, at_eof| loader.detect(head, at_eof))
}

/// Offers `detect` ever larger heads of `bytes` until it decides: the
/// whole file only when no head of 256 KiB would do (a test of every byte
/// of a gigabyte, a NUL's, would read it all before the load begins).
pub(crate) fn detect_heads(bytes: &[u8], detect: impl Fn(&[u8], bool) -> Detection) -> Detection {
    for size in [512, 8 << 10, 256 << 10] {
        if size >= bytes.len() {
            break;
        }
        match detect(&bytes[..size], false) {
            Detection::NeedMore => continue,
            decided => return decided,
        }
    }
    match detect(bytes, true) {
        Detection::NeedMore => Detection::No,
        decided => decided,
    }
}

/// Opens and loads the files at `paths` as one profile.
pub fn load_paths(paths: &[String], opts: &LoadOptions) -> Result<Profile, LoadError> {
    let inputs = paths
        .iter()
        .map(Input::open)
        .collect::<Result<Vec<_>, _>>()?;
    load_inputs(&inputs, opts)
}

/// Loads inputs already opened (files, or the embedded demo).
pub fn load_inputs(inputs: &[Input], opts: &LoadOptions) -> Result<Profile, LoadError> {
    let first = inputs.first().ok_or(LoadError::NoInput)?;
    if first.bytes().is_empty() {
        return Err(LoadError::Invalid {
            path: first.name().to_string(),
            place: Place::Offset(0),
            kind: InvalidKind::Empty,
            reason: "the file is empty".into(),
        });
    }
    let loader = match &opts.format {
        Some(name) => by_name(name)?,
        None => detect(first)?,
    };
    if inputs.len() > 1 {
        return Err(LoadError::TooManyInputs {
            format: loader.name(),
            count: inputs.len(),
        });
    }
    load_one(first, loader, opts, None)
}

/// Loads one input with `loader`, watched by `watch` if given; a trace's
/// profile keeps the way back to its events (`replay::FromInput`), for a
/// query choosing threads.
fn load_one(
    first: &Input,
    loader: &'static dyn Loader,
    opts: &LoadOptions,
    watch: Option<&Watch<'_>>,
) -> Result<Profile, LoadError> {
    let mut b = builder_for(first.name(), loader, opts);
    match watch {
        Some(watch) => {
            loader.load_watched(first, opts, watch, &mut b)?;
            // Asked once more before the profile is made: a stop that
            // came after the last byte was read need not wait for it.
            if watch.cancelled() {
                return Err(LoadError::Cancelled);
            }
        }
        None => loader.load(first, opts, &mut b)?,
    }
    first.mark_read(first.bytes().len());
    made(b, first, loader, opts)
}

/// A builder for `loader`'s profile of the input `first` names, as `opts`
/// asks (a timeline, a range, no stacks, a sink for the calls). A load and
/// a followed trace's resumable read (`xpp/resume.rs`) start alike.
pub(crate) fn builder_for(first: &str, loader: &dyn Loader, opts: &LoadOptions) -> ProfileBuilder {
    let mut b = ProfileBuilder::new(loader.name());
    b.begin_source(first);
    if opts.timeline {
        b.record_timeline();
    }
    if let Some(range) = opts.range {
        b.cut_to(range);
    }
    if opts.stacks == KeepStacks::Skipped {
        b.skip_stacks();
    }
    if opts.lanes == KeepLanes::Skipped {
        b.skip_lanes();
    }
    if opts.durations == KeepDurations::Skipped {
        b.skip_durations();
    }
    if let Some(sink) = opts.calls.take() {
        b.feed_calls(sink);
    }
    b
}

/// The profile `b` holds of `first` once read: a trace's keeps the way
/// back to its events (`replay::FromInput`), for a query choosing
/// threads; `--clock-mhz` and `--strict` are held to it. A load and a
/// followed trace's update end alike.
pub(crate) fn made(
    mut b: ProfileBuilder,
    first: &Input,
    loader: &'static dyn Loader,
    opts: &LoadOptions,
) -> Result<Profile, LoadError> {
    if b.trace_thread_count() > 0 {
        b.state_replay(std::sync::Arc::new(replay::FromInput::new(
            first, loader, opts,
        )));
    }
    let profile = b.finish();
    if opts.clock_mhz.is_some() && !profile.meta.contains_key(CLOCK_MHZ) {
        return Err(clock_refused(first, &profile));
    }
    if let (true, Some(w)) = (opts.strict, profile.warnings().first()) {
        return Err(LoadError::Strict {
            path: profile.sources[w.source].clone(),
            place: w.place.clone(),
            kind: w.kind,
            message: w.message.clone(),
        });
    }
    Ok(profile)
}

/// Why `--clock-mhz` means nothing for `profile`: only a loader that read
/// ticks turns them into ms (and says so under [`CLOCK_MHZ`]).
fn clock_refused(input: &Input, profile: &Profile) -> LoadError {
    let why = match profile.time_unit() {
        Some(unit) => format!(
            "its times are {} already (VSPerfReport's command-line CSV reports are the profiles in ticks)",
            unit.name()
        ),
        None => format!("this {} profile has no times", profile.format),
    };
    LoadError::ClockMhz {
        path: input.name().to_string(),
        why,
    }
}
