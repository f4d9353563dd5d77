//! `profx export FILE… --to parquet -o DIR` (issue 70, docs/spec/parquet.md):
//! many runs as tables DuckDB, Spark, Polars and pandas read, one file a
//! table (`DIR/<table>.parquet`; `--append` adds `<table>-N.parquet`).
//!
//! A run's rows are the rows `report --json` writes of it
//! (`report/json.rs`'s row functions, the same query answer), so every
//! number in a table is the number `--json` gives. Each file is written to
//! a temporary file in DIR, renamed into place once every run is in: a
//! failed export leaves DIR as it was.

pub mod calls;
mod keyed;
pub mod schema;

use super::ExportError;
use crate::query::{Answer, Reads};
use crate::report::json;
use crate::sort::{canonical_functions, canonical_lines, canonical_stacks};
use parquet::basic::{Compression, Encoding};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, SchemaDescriptor};
use schema::{Batch, Cell, TABLES, TableSpec};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use calls::{CallSpill, Spilled};

/// Rows a row group holds at most: a run's rows are one group, a run with
/// more several.
pub const GROUP_ROWS: usize = 1 << 20;

/// The tables being written into a folder.
pub struct Tables {
    dir: PathBuf,
    /// `""` for a new folder, `-N` for an append.
    suffix: String,
    files: Vec<TableFile>,
    next_run: i64,
    /// Whether `create` made the folder (`abandon` removes it then).
    created: bool,
    syncer: Syncer,
    spare: Spare,
}

struct TableFile {
    spec: TableSpec,
    writer: SerializedFileWriter<BufWriter<File>>,
    /// The writer's schema, which the keyed columns are made by.
    schema: SchemaDescriptor,
    temp: tempfile::NamedTempFile<File>,
    rows: u64,
}

fn parquet_error(path: &Path, error: impl std::fmt::Display) -> ExportError {
    ExportError::Parquet {
        path: path.display().to_string(),
        error: error.to_string(),
    }
}

fn io_error(path: &Path, error: std::io::Error) -> ExportError {
    ExportError::Write {
        path: path.display().to_string(),
        error,
    }
}

impl Tables {
    /// Starts the tables in `dir`: a new folder, or with `append` one that
    /// holds tables of the same schema (a folder without any is made or
    /// filled as a new one). Refuses an existing folder without `append`,
    /// and a folder of another schema, saying what differs.
    pub fn create(dir: &Path, append: bool) -> Result<Tables, ExportError> {
        let shown = dir.display().to_string();
        let mut created = false;
        let existing = match std::fs::metadata(dir) {
            Ok(m) if !m.is_dir() => {
                return Err(ExportError::NotADir {
                    path: shown,
                    what: profx_sys::fs::kind_of(&m.file_type()),
                });
            }
            Ok(_) if !append => return Err(ExportError::DirExists { path: shown }),
            Ok(_) => Existing::read(dir)?,
            Err(_) => {
                std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
                created = true;
                Existing::default()
            }
        };
        existing.same_schema(dir)?;
        let suffix = existing.free_suffix(dir);
        let mut files = Vec::new();
        let mut handles = Vec::new();
        for spec in TABLES {
            let file = TableFile::new(dir, spec)?;
            let handle = file.temp.as_file().try_clone();
            handles.push(handle.map_err(|e| io_error(file.path(), e))?);
            files.push(file);
        }
        Ok(Tables {
            dir: dir.to_path_buf(),
            suffix,
            files,
            next_run: existing.last_run + 1,
            created,
            syncer: Syncer::start(handles),
            spare: Spare::default(),
        })
    }

    /// Writes nothing (no run could be read): the temporary files go, and
    /// the folder too if `create` made it.
    pub fn abandon(self) {
        let (dir, created) = (self.dir.clone(), self.created);
        drop(self);
        if created {
            // Only an empty folder is removed: whatever else came there
            // meanwhile is not this export's.
            let _ = std::fs::remove_dir(dir);
        }
    }

    /// The run id the first run written gets; the others follow it.
    pub fn first_run_id(&self) -> i64 {
        self.next_run
    }

    /// Where the rows' makers take their batches (`run_rows`): the ones
    /// this writer has emptied.
    pub fn spare(&self) -> Spare {
        self.spare.clone()
    }

    /// Writes one table's rows of a run as a row group of its file.
    pub fn write(&mut self, piece: Piece) -> Result<(), ExportError> {
        let file = self
            .files
            .get_mut(piece.table)
            .ok_or_else(|| parquet_error(&self.dir, "a piece of no table"))?;
        let mut batch = piece.batch;
        file.write_group(&mut batch)?;
        self.spare.give(batch);
        let written = self.files.iter().map(|f| f.writer.bytes_written()).sum();
        self.syncer.written(written);
        Ok(())
    }

    /// Closes every table and renames each into place; what was written,
    /// in words: each table's rows (`functions 28`; a table's name is
    /// plural whatever its count).
    pub fn finish(mut self) -> Result<super::Summary, ExportError> {
        self.syncer.stop().map_err(|e| io_error(&self.dir, e))?;
        let mut said = Vec::new();
        let mut done = Vec::new();
        for file in self.files {
            let name = format!("{}{}.parquet", file.spec.name, self.suffix);
            said.push(format!("{} {}", file.spec.name, file.rows));
            done.push((file.close()?, self.dir.join(name)));
        }
        for (temp, path) in done {
            temp.persist_noclobber(&path)
                .map_err(|e| io_error(&path, e.error))?;
        }
        Ok(super::Summary {
            what: said.join(", "),
        })
    }
}

/// Bytes written to the tables between two requests to the disk to take
/// them.
const SYNC_EVERY: usize = 32 << 20;

/// Hands the tables' data to the disk while the export goes on, on a
/// thread of its own, so the `fsync` of each file at the end (before the
/// renames that make them the tables) finds little left to write rather
/// than every byte of the export.
struct Syncer {
    ask: Option<std::sync::mpsc::SyncSender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// The first error a sync met, said by `stop`: a later `fsync` of the
    /// same open file may not say it again.
    error: Arc<std::sync::Mutex<Option<std::io::Error>>>,
    /// Bytes written when it was last asked.
    asked_at: usize,
}

impl Syncer {
    fn start(files: Vec<File>) -> Syncer {
        let (ask, asked) = std::sync::mpsc::sync_channel::<()>(1);
        let error = Arc::new(std::sync::Mutex::new(None));
        let seen = Arc::clone(&error);
        let thread = std::thread::Builder::new()
            .name("parquet-sync".into())
            .spawn(move || {
                for () in asked {
                    for f in &files {
                        if let Err(e) = f.sync_data() {
                            let mut first = seen.lock().unwrap_or_else(|p| p.into_inner());
                            first.get_or_insert(e);
                        }
                    }
                }
            });
        // Without its thread, the files are synced at the end alone.
        let (ask, thread) = match thread {
            Ok(t) => (Some(ask), Some(t)),
            Err(_) => (None, None),
        };
        Syncer {
            ask,
            thread,
            error,
            asked_at: 0,
        }
    }

    /// The tables hold `written` bytes: asks for a sync every
    /// `SYNC_EVERY`, unless one is waiting already.
    fn written(&mut self, written: usize) {
        if written.saturating_sub(self.asked_at) < SYNC_EVERY {
            return;
        }
        if let Some(ask) = &self.ask
            && ask.try_send(()).is_ok()
        {
            self.asked_at = written;
        }
    }

    /// Waits for the sync under way; the first error any met.
    fn stop(&mut self) -> std::io::Result<()> {
        self.ask = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let mut first = self.error.lock().unwrap_or_else(|p| p.into_inner());
        match first.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Drop for Syncer {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

/// Emptied batches the writer hands back, a few a table: a run's rows go
/// into columns the runs before it grew, rather than into new memory
/// (pages the kernel clears again) every run. What is kept is at most a
/// few batches of the largest run's rows, as many as are in flight.
#[derive(Clone, Debug, Default)]
pub struct Spare {
    kept: Arc<std::sync::Mutex<Vec<Batch>>>,
}

/// Emptied batches kept a table.
const SPARE_EACH: usize = 2;

impl Spare {
    /// An empty batch of `spec`'s rows, one handed back if any is.
    fn take(&self, spec: TableSpec) -> Batch {
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        match kept.iter().position(|b| b.spec().name == spec.name) {
            Some(i) => kept.swap_remove(i),
            None => Batch::new(spec),
        }
    }

    /// Keeps `batch`, written and so empty, unless enough of its table's
    /// are kept.
    fn give(&self, batch: Batch) {
        if batch.rows() > 0 {
            return;
        }
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        let name = batch.spec().name;
        if kept.iter().filter(|b| b.spec().name == name).count() < SPARE_EACH {
            kept.push(batch);
        }
    }
}

/// One table's rows of one run, made on the run's own thread and written
/// by the one writer (`Tables::write`) as a row group.
#[derive(Debug)]
pub struct Piece {
    /// The table's place in `TABLES`.
    table: usize,
    batch: Batch,
}

/// Makes one run's rows, table by table, and hands each table's to `emit`
/// `GROUP_ROWS` rows at a time at most (a row group: a run's rows are one
/// unless it has more): `answer` is the query's answer on the run's
/// loaded profile, `calls` its trace's calls. Stops when `emit` says the
/// writer has (`Ok(None)`). How many calls it gave. Its batches are taken
/// from `spare`.
pub fn run_rows(
    run_id: i64,
    answer: &Answer,
    calls: Option<Spilled>,
    spare: &Spare,
    emit: &mut dyn FnMut(Piece) -> bool,
) -> Result<Option<u64>, ExportError> {
    run_rows_in(run_id, answer, calls, spare, GROUP_ROWS, emit)
}

/// `run_rows` with groups of at most `group_rows` rows.
fn run_rows_in(
    run_id: i64,
    answer: &Answer,
    calls: Option<Spilled>,
    spare: &Spare,
    group_rows: usize,
    emit: &mut dyn FnMut(Piece) -> bool,
) -> Result<Option<u64>, ExportError> {
    let paths = answer.profile(Reads::Paths);
    let events = answer.profile(Reads::Events);
    let mut calls = calls;
    let mut n_calls = 0;
    for (table, spec) in TABLES.iter().enumerate() {
        let mut out = Groups {
            table,
            batch: spare.take(*spec),
            spare,
            rows: group_rows.max(1),
            emit: &mut *emit,
        };
        let going = match spec.name {
            "runs" => run_row(&mut out.batch, run_id, answer).map(|()| true)?,
            "functions" => {
                let rows = canonical_functions(paths);
                let rows = rows.into_iter().map(|f| json::function(paths, f));
                json_rows(&mut out, run_id, rows)?
            }
            "edges" => {
                let edges = crate::callgraph::edges(paths);
                json_rows(&mut out, run_id, edges.iter().map(|e| json::edge(paths, e)))?
            }
            "stacks" => stack_rows(&mut out, run_id, paths)?,
            "lines" => {
                let rows = canonical_lines(paths);
                json_rows(
                    &mut out,
                    run_id,
                    rows.into_iter().map(|l| json::line(paths, l)),
                )?
            }
            "threads" => {
                let rows = crate::query::threads_by_id(events);
                json_rows(&mut out, run_id, rows.iter().map(json::thread))?
            }
            _ => match calls.take() {
                Some(spilled) => match call_rows(&mut out, run_id, answer, spilled)? {
                    Some(n) => {
                        n_calls = n;
                        true
                    }
                    None => false,
                },
                None => true,
            },
        };
        if !going || !out.finish() {
            return Ok(None);
        }
    }
    Ok(Some(n_calls))
}

/// One table's rows of one run as they are made, handed on a group (at
/// most `rows` rows) at a time.
struct Groups<'a, 'e> {
    /// The table's place in `TABLES`.
    table: usize,
    /// The group being filled.
    batch: Batch,
    spare: &'a Spare,
    rows: usize,
    emit: &'a mut (dyn FnMut(Piece) -> bool + 'e),
}

/// What became of the group after a row.
#[derive(PartialEq)]
enum After {
    /// It has room for more.
    Same,
    /// It was full and handed on; the next is empty (keys made for the
    /// one handed on are not the next's).
    Next,
    /// It was full, and the writer has stopped.
    Stopped,
}

impl Groups<'_, '_> {
    /// Hands the group on when the row just added filled it.
    fn row_added(&mut self) -> After {
        if self.batch.rows() < self.rows {
            return After::Same;
        }
        let next = self.spare.take(TABLES[self.table]);
        let full = std::mem::replace(&mut self.batch, next);
        match (self.emit)(Piece {
            table: self.table,
            batch: full,
        }) {
            true => After::Next,
            false => After::Stopped,
        }
    }

    /// Hands on the last group, if it has rows; false when the writer has
    /// stopped.
    fn finish(self) -> bool {
        self.batch.rows() == 0
            || (self.emit)(Piece {
                table: self.table,
                batch: self.batch,
            })
    }
}

fn table_error(table: &str, error: impl std::fmt::Display) -> ExportError {
    ExportError::Parquet {
        path: format!("{table}.parquet"),
        error: error.to_string(),
    }
}

/// Adds `rows`, `--json` rows, to `out`, each through its JSON value:
/// a column is its key's value. False when the writer has stopped.
fn json_rows<T: serde::Serialize>(
    out: &mut Groups<'_, '_>,
    run_id: i64,
    rows: impl Iterator<Item = T>,
) -> Result<bool, ExportError> {
    for row in rows {
        let value = serde_json::to_value(row).map_err(std::io::Error::other)?;
        out.batch
            .push_json(run_id, &value)
            .map_err(|e| table_error("", e))?;
        if out.row_added() == After::Stopped {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `--json`'s stacks: its numbers (`json::stack_numbers`), and its
/// frames as their names' keys (a run has tens of thousands of stacks,
/// each of tens of frames, over a few hundred functions), each path
/// walked into one buffer rather than made a list of names per stack.
fn stack_rows(
    out: &mut Groups<'_, '_>,
    run_id: i64,
    p: &profx_model::Profile,
) -> Result<bool, ExportError> {
    let mut frame_keys = keyed::FrameKeys::default();
    let mut keys = Vec::new();
    let words = |f| {
        let frame = json::frame(p, f);
        [frame.name, frame.module]
    };
    let stacks = canonical_stacks(p);
    // Room for the group's rows and frames, each group's share of them.
    let frames_in_all: usize = stacks.iter().map(|&s| p.stack_depth(s)).sum();
    let group_rows = out.rows;
    let reserve = |batch: &mut Batch, left: usize| {
        let rows = left.min(group_rows);
        batch.reserve(rows);
        let share = frames_in_all as f64 * rows as f64 / stacks.len().max(1) as f64;
        batch.reserve_items(share.ceil() as usize);
    };
    reserve(&mut out.batch, stacks.len());
    let mut path = Vec::new();
    for (done, &s) in stacks.iter().enumerate() {
        let row = json::stack_numbers(p, s);
        p.path_into(p.stack_node(s), &mut path);
        keys.clear();
        for &f in &path {
            let add = |part, text: &str| out.batch.add_word(1, part, text);
            let of = frame_keys.of(f, || words(f), add);
            keys.push(of.map_err(|e| table_error("stacks", e))?);
        }
        let count = |n: Option<u64>| n.and_then(|n| i64::try_from(n).ok());
        let cells = [
            Cell::Int(Some(run_id)),
            Cell::FrameKeys(&keys),
            Cell::Int(count(row.hits)),
            Cell::Float(row.self_ms),
            Cell::Float(row.child_ms),
        ];
        out.batch
            .push_cells(&cells)
            .map_err(|e| table_error("stacks", e))?;
        match out.row_added() {
            After::Same => {}
            After::Next => {
                // The keys were the group's handed on.
                frame_keys.reset();
                reserve(&mut out.batch, stacks.len() - done - 1);
            }
            After::Stopped => return Ok(false),
        }
    }
    Ok(true)
}

fn run_row(batch: &mut Batch, run_id: i64, answer: &Answer) -> Result<(), ExportError> {
    let paths = answer.profile(Reads::Paths);
    let events = answer.profile(Reads::Events);
    let totals =
        serde_json::to_value(json::answer_totals(paths, events)).map_err(std::io::Error::other)?;
    let query = serde_json::to_string(&json::query_json(&answer.asked(), paths))
        .map_err(std::io::Error::other)?;
    let t = |key: &str| totals[key].as_f64();
    let n = |key: &str| totals[key].as_u64().and_then(|n| i64::try_from(n).ok());
    let count = |n: usize| i64::try_from(n).ok();
    let cells = [
        Cell::Int(Some(run_id)),
        Cell::Texts(&paths.sources),
        Cell::Text(Some(&paths.format)),
        Cell::Text(paths.time_unit().map(|u| u.name())),
        Cell::Text(Some(&query)),
        Cell::Int(count(paths.warnings().len())),
        Cell::Float(t("elapsed_inclusive_ms")),
        Cell::Float(t("application_inclusive_ms")),
        Cell::Float(t("outside_ms")),
        Cell::Int(n("samples")),
        Cell::Int(n("functions")),
        Cell::Int(n("lines")),
        Cell::Int(n("stacks")),
        Cell::Int(n("packets")),
        Cell::Int(n("events")),
    ];
    batch.push_cells(&cells).map_err(|e| table_error("runs", e))
}

/// The trace's calls the query keeps: those of its threads, entered
/// inside its range (a call counts where it was entered, model.md § Time
/// ranges, a call entered at the run's last event too when the range
/// reaches it: `Answer::entry_range`); transforms rewrite call paths,
/// not calls. Handed on a group at a time, so a trace of any size holds
/// one group's rows; `None` when the writer has stopped.
fn call_rows(
    out: &mut Groups<'_, '_>,
    run_id: i64,
    answer: &Answer,
    spilled: Spilled,
) -> Result<Option<u64>, ExportError> {
    let loaded = answer.loaded();
    let threads = answer.threads();
    let range = answer.entry_range();
    let timed = loaded.time_unit().is_some();
    let at = |x: f64| loaded.at_resolution(Some(x)).filter(|_| timed);
    // A duration as the function's percentiles, minimum and maximum hold
    // it (`Profile::call_time`).
    let ms = |x: f64| at(loaded.call_time(x));
    let functions = loaded.functions().len();
    // Each function's name and module keys in the group's dictionaries,
    // added the first time a call names it.
    let mut frame_keys = keyed::FrameKeys::default();
    let words = |f| [loaded.function_name(f), loaded.function_module(f)];
    let mut written = 0;
    let spill_error = |e| table_error("calls", e);
    let mut blocks = spilled.blocks().map_err(spill_error)?;
    let all = usize::try_from(blocks.len()).unwrap_or(usize::MAX);
    out.batch.reserve(all.min(out.rows));
    let mut seen = 0;
    while let Some(block) = blocks.next_block().map_err(spill_error)? {
        for c in block {
            seen += 1;
            if threads.is_some_and(|t| !t.contains(&c.thread))
                || range.is_some_and(|r| !r.holds(c.start))
            {
                continue;
            }
            if c.func.index() >= functions {
                let why = format!("a call of function {} of {functions}", c.func.raw());
                return Err(table_error("calls", why));
            }
            // The name's column is the table's third, the module's its fourth.
            let add = |part, text: &str| out.batch.add_word(2 + part, 0, text);
            let keys = frame_keys
                .of(c.func, || words(c.func), add)
                .map_err(|e| table_error("calls", e))?;
            let Ok(thread) = i64::try_from(c.thread) else {
                let why = format!("thread {} is no int64", c.thread);
                return Err(table_error("calls", why));
            };
            out.batch
                .push_call(
                    run_id,
                    thread,
                    keys,
                    at(c.start),
                    ms(c.inclusive),
                    ms(c.exclusive),
                    i64::from(c.depth),
                )
                .map_err(|e| table_error("calls", e))?;
            written += 1;
            match out.row_added() {
                After::Same => {}
                After::Next => {
                    // The keys were the group's handed on.
                    frame_keys.reset();
                    out.batch.reserve(all.saturating_sub(seen).min(out.rows));
                }
                After::Stopped => return Ok(None),
            }
        }
    }
    Ok(Some(written))
}

impl TableFile {
    fn new(dir: &Path, spec: TableSpec) -> Result<TableFile, ExportError> {
        // Readable as any new file once renamed (the umask's permissions,
        // not a temporary's 0600): the tables are for other tools.
        let temp = tempfile::Builder::new()
            .prefix(&format!(".{}-", spec.name))
            .suffix(".parquet.tmp")
            .make_in(dir, |path| {
                let mut o = std::fs::OpenOptions::new();
                o.read(true).write(true).create_new(true);
                #[cfg(unix)]
                {
                    use std::os::unix::fs::OpenOptionsExt;
                    o.mode(0o666);
                }
                o.open(path)
            })
            .map_err(|e| io_error(dir, e))?;
        let out = temp.as_file().try_clone().map_err(|e| io_error(dir, e))?;
        let message = spec.message_type();
        let parsed = parquet::schema::parser::parse_message_type(&message)
            .map_err(|e| parquet_error(dir, e))?;
        let mut props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            // Statistics and dictionaries cost a comparison or a hash a
            // value, on every column of every call: kept where they pay,
            // `run_id`'s chunk bounds (a reader skips other runs' groups
            // by them) and dictionaries of names, which repeat: the
            // crate's in the small tables, the rows' maker's own in those
            // `TableSpec::keyed` names (`keyed.rs`).
            .set_statistics_enabled(EnabledStatistics::None)
            .set_column_statistics_enabled(ColumnPath::from("run_id"), EnabledStatistics::Chunk)
            .set_dictionary_enabled(false);
        // Integers delta-encoded: `run_id` is one value a group, a call's
        // thread and depth change little from row to row; as plain 8-byte
        // values they were a third of the `calls` bytes Snappy went over
        // (BENCHMARKS.md, issue 70). Every reader named in parquet.md
        // reads the encoding.
        for c in spec.columns.iter().filter(|c| c.kind == schema::Kind::Int) {
            props =
                props.set_column_encoding(ColumnPath::from(c.name), Encoding::DELTA_BINARY_PACKED);
        }
        if !spec.keyed() {
            for path in schema::text_leaves(&spec) {
                props = props.set_column_dictionary_enabled(ColumnPath::new(path), true);
            }
        }
        let props = props
            .set_created_by(format!("profx {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(Some(vec![
                KeyValue::new("schema".into(), schema::SCHEMA.to_string()),
                KeyValue::new("table".into(), spec.name.to_string()),
            ]))
            .build();
        let parsed = Arc::new(parsed);
        let schema = SchemaDescriptor::new(Arc::clone(&parsed));
        let writer = SerializedFileWriter::new(
            BufWriter::with_capacity(1 << 16, out),
            parsed,
            Arc::new(props),
        )
        .map_err(|e| parquet_error(dir, e))?;
        Ok(TableFile {
            spec,
            writer,
            schema,
            temp,
            rows: 0,
        })
    }

    fn path(&self) -> &Path {
        self.temp.path()
    }

    /// Writes `batch`'s rows as a row group, and empties it.
    fn write_group(&mut self, batch: &mut Batch) -> Result<(), ExportError> {
        if batch.rows() == 0 {
            return Ok(());
        }
        let path = self.path().to_path_buf();
        let rows = batch.rows() as u64;
        let mut group = self
            .writer
            .next_row_group()
            .map_err(|e| parquet_error(&path, e))?;
        batch
            .write(&mut group, &self.schema)
            .map_err(|e| parquet_error(&path, e))?;
        group.close().map_err(|e| parquet_error(&path, e))?;
        self.rows += rows;
        Ok(())
    }

    fn close(self) -> Result<tempfile::NamedTempFile, ExportError> {
        let path = self.path().to_path_buf();
        let out = self
            .writer
            .into_inner()
            .map_err(|e| parquet_error(&path, e))?;
        let file = out
            .into_inner()
            .map_err(|e| io_error(&path, e.into_error()))?;
        file.sync_all().map_err(|e| io_error(&path, e))?;
        Ok(self.temp)
    }
}

/// The tables a folder holds already: each table's files, and the
/// largest run id of its `runs` files.
#[derive(Debug, Default)]
struct Existing {
    /// (table, its files), for the tables with files.
    files: Vec<(TableSpec, Vec<PathBuf>)>,
    last_run: i64,
}

impl Existing {
    fn read(dir: &Path) -> Result<Existing, ExportError> {
        let entries = std::fs::read_dir(dir).map_err(|e| io_error(dir, e))?;
        let mut names: Vec<String> = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| io_error(dir, e))?;
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
        names.sort();
        let mut out = Existing::default();
        for spec in TABLES {
            let mine: Vec<PathBuf> = names
                .iter()
                .filter(|n| is_file_of(n, spec.name))
                .map(|n| dir.join(n))
                .collect();
            if !mine.is_empty() {
                out.files.push((spec, mine));
            }
        }
        if let Some((_, runs)) = out.files.iter().find(|(s, _)| s.name == "runs") {
            for path in runs {
                out.last_run = out.last_run.max(last_run_id(path)?);
            }
        }
        Ok(out)
    }

    /// Refuses a folder whose tables are not the ones written now: a table
    /// missing, a column missing, added or of another type, another
    /// `schema` version.
    fn same_schema(&self, dir: &Path) -> Result<(), ExportError> {
        if self.files.is_empty() {
            return Ok(());
        }
        let mut differs = Vec::new();
        for spec in TABLES {
            let Some((_, paths)) = self.files.iter().find(|(s, _)| s.name == spec.name) else {
                differs.push(format!(
                    "{}: no {}*.parquet in the folder",
                    spec.name, spec.name
                ));
                continue;
            };
            let want = parquet::schema::parser::parse_message_type(&spec.message_type())
                .map_err(|e| parquet_error(dir, e))?;
            let want = schema::describe(&parquet::schema::types::SchemaDescriptor::new(Arc::new(
                want,
            )));
            for path in paths {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
                let name = name.unwrap_or_default();
                let reader = open(path)?;
                let meta = reader.metadata().file_metadata();
                let version = meta
                    .key_value_metadata()
                    .and_then(|kv| kv.iter().find(|k| k.key == "schema"))
                    .and_then(|k| k.value.clone());
                if version.as_deref() != Some(&schema::SCHEMA.to_string()) {
                    differs.push(format!(
                        "{name}: schema {} (this profx writes {})",
                        version.as_deref().unwrap_or("not stated"),
                        schema::SCHEMA
                    ));
                }
                let have = schema::describe(meta.schema_descr());
                for c in want.iter().filter(|c| !have.contains(c)) {
                    differs.push(format!("{name}: has no column {c}"));
                }
                for c in have.iter().filter(|c| !want.contains(c)) {
                    differs.push(format!(
                        "{name}: has column {c}, which this profx does not write"
                    ));
                }
            }
        }
        match differs.is_empty() {
            true => Ok(()),
            false => Err(ExportError::SchemaDiffers {
                path: dir.display().to_string(),
                what: differs.join("; "),
            }),
        }
    }

    /// `-N`, the smallest N ≥ 1 no table's file has yet (`""` for a
    /// folder without tables).
    fn free_suffix(&self, dir: &Path) -> String {
        if self.files.is_empty() {
            return String::new();
        }
        let taken = |n: u64| {
            TABLES
                .iter()
                .any(|t| dir.join(format!("{}-{n}.parquet", t.name)).exists())
        };
        let n = (1..).find(|&n| !taken(n)).unwrap_or(u64::MAX);
        format!("-{n}")
    }
}

/// Whether `file` is one of `table`'s files: `<table>.parquet` or
/// `<table>-N.parquet`.
fn is_file_of(file: &str, table: &str) -> bool {
    let Some(rest) = file.strip_prefix(table) else {
        return false;
    };
    let Some(rest) = rest.strip_suffix(".parquet") else {
        return false;
    };
    rest.is_empty()
        || rest
            .strip_prefix('-')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

fn open(path: &Path) -> Result<SerializedFileReader<File>, ExportError> {
    let file = File::open(path).map_err(|e| io_error(path, e))?;
    SerializedFileReader::new(file).map_err(|e| parquet_error(path, e))
}

/// The largest `run_id` of a `runs` file (0 for none).
fn last_run_id(path: &Path) -> Result<i64, ExportError> {
    use parquet::record::RowAccessor;
    let reader = open(path)?;
    let rows = reader
        .get_row_iter(None)
        .map_err(|e| parquet_error(path, e))?;
    let mut last = 0;
    for row in rows {
        let row = row.map_err(|e| parquet_error(path, e))?;
        last = last.max(row.get_long(0).map_err(|e| parquet_error(path, e))?);
    }
    Ok(last)
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables")
            .field("dir", &self.dir)
            .field("suffix", &self.suffix)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What an export in groups gave: the rows each piece handed on held
    /// (by table), every table's rows read back, and each file's row
    /// groups.
    struct Exported {
        pieces: Vec<(usize, usize)>,
        rows: Vec<Vec<String>>,
        groups: Vec<usize>,
    }

    /// A trace exported with groups of `group_rows` rows.
    fn export_in_groups(group_rows: usize) -> Exported {
        let fixture = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/xpp/orders-run.prf"
        );
        let (spill, calls) = CallSpill::new().unwrap();
        let opts = profx_load::LoadOptions {
            calls: profx_model::CallFeed::new(Box::new(spill)),
            ..Default::default()
        };
        let p = profx_load::load_paths(&[fixture.to_string()], &opts).unwrap();
        drop(opts);
        let q = crate::query::Query::default();
        let watch = profx_model::Watch::NONE;
        let answer = Answer::run(&Arc::new(p), &q, crate::query::Policy::Script, &watch).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("tables");
        let mut tables = Tables::create(&out, false).unwrap();
        let spare = tables.spare();
        let mut pieces = Vec::new();
        let mut emit = |piece| {
            pieces.push(piece);
            true
        };
        run_rows_in(1, &answer, Some(calls), &spare, group_rows, &mut emit)
            .unwrap()
            .unwrap();
        let sizes = pieces.iter().map(|p| (p.table, p.batch.rows())).collect();
        for piece in pieces {
            tables.write(piece).unwrap();
        }
        tables.finish().unwrap();
        let mut rows = Vec::new();
        let mut groups = Vec::new();
        for t in TABLES {
            let file = File::open(out.join(format!("{}.parquet", t.name))).unwrap();
            let reader = SerializedFileReader::new(file).unwrap();
            groups.push(reader.num_row_groups());
            let read = reader.get_row_iter(None).unwrap();
            rows.push(read.map(|r| r.unwrap().to_string()).collect());
        }
        Exported {
            pieces: sizes,
            rows,
            groups,
        }
    }

    /// A run of more rows than a group holds is written as several groups
    /// of at most that many, in order, every table's (the keyed ones'
    /// dictionaries made again for each), and reads back as one group.
    #[test]
    fn a_runs_rows_split_into_groups_read_back_as_one() {
        let Exported {
            pieces: whole_sizes,
            rows: whole,
            groups: whole_groups,
        } = export_in_groups(GROUP_ROWS);
        let Exported {
            pieces: sizes,
            rows,
            groups,
        } = export_in_groups(2);
        assert_eq!(rows, whole);
        for (t, spec) in TABLES.iter().enumerate() {
            let n = whole[t].len();
            let one: Vec<usize> = whole_sizes
                .iter()
                .filter(|p| p.0 == t)
                .map(|p| p.1)
                .collect();
            assert_eq!(one, [n].repeat(usize::from(n > 0)), "{}", spec.name);
            assert_eq!(whole_groups[t], usize::from(n > 0), "{}", spec.name);
            let split: Vec<usize> = sizes.iter().filter(|p| p.0 == t).map(|p| p.1).collect();
            let mut want = vec![2; n / 2];
            if n % 2 == 1 {
                want.push(1);
            }
            assert_eq!(split, want, "{}", spec.name);
            assert_eq!(groups[t], want.len(), "{}", spec.name);
        }
        let of = |name| whole[TABLES.iter().position(|t| t.name == name).unwrap()].len();
        assert!(of("calls") > 4 && of("stacks") > 4 && of("functions") > 4);
    }

    #[test]
    fn a_tables_files_are_its_name_and_a_number() {
        assert!(is_file_of("runs.parquet", "runs"));
        assert!(is_file_of("runs-12.parquet", "runs"));
        assert!(!is_file_of("runs-.parquet", "runs"));
        assert!(!is_file_of("runs-x.parquet", "runs"));
        assert!(!is_file_of("runsx.parquet", "runs"));
        assert!(!is_file_of("functions.parquet", "runs"));
    }

    /// Every table's message type parses.
    #[test]
    fn every_schema_parses() {
        for t in TABLES {
            parquet::schema::parser::parse_message_type(&t.message_type())
                .unwrap_or_else(|e| panic!("{}: {e}", t.name));
        }
    }
}
