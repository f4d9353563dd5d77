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
pub mod schema;

use super::ExportError;
use crate::query::{Answer, Reads};
use crate::report::json;
use crate::sort::{canonical_functions, canonical_lines, canonical_stacks};
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
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
}

struct TableFile {
    spec: TableSpec,
    writer: SerializedFileWriter<BufWriter<File>>,
    temp: tempfile::NamedTempFile<File>,
    batch: Batch,
    rows: u64,
}

/// What one run added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Added {
    /// Its `calls` rows.
    pub calls: u64,
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
        for spec in TABLES {
            files.push(TableFile::new(dir, spec)?);
        }
        Ok(Tables {
            dir: dir.to_path_buf(),
            suffix,
            files,
            next_run: existing.last_run + 1,
            created,
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

    /// Writes one run's rows: `answer` is the query's answer on its
    /// loaded profile, `calls` its trace's calls (`None` for no trace, or
    /// a load that kept none). Each table's rows of a run are one row
    /// group (or more, `GROUP_ROWS` rows each).
    pub fn add(
        &mut self,
        run_id: i64,
        answer: &Answer,
        calls: Option<Spilled>,
    ) -> Result<Added, ExportError> {
        let paths = answer.profile(Reads::Paths);
        let events = answer.profile(Reads::Events);
        let mut added = Added::default();
        let mut calls = calls;
        for k in 0..self.files.len() {
            let name = self.files[k].spec.name;
            match name {
                "runs" => self.run_row(k, run_id, answer)?,
                "functions" => {
                    let rows = canonical_functions(paths);
                    self.json_rows(
                        k,
                        run_id,
                        rows.into_iter().map(|f| json::function(paths, f)),
                    )?;
                }
                "edges" => {
                    let edges = crate::callgraph::edges(paths);
                    self.json_rows(k, run_id, edges.iter().map(|e| json::edge(paths, e)))?;
                }
                "stacks" => {
                    let rows = canonical_stacks(paths);
                    self.json_rows(k, run_id, rows.into_iter().map(|s| json::stack(paths, s)))?;
                }
                "lines" => {
                    let rows = canonical_lines(paths);
                    self.json_rows(k, run_id, rows.into_iter().map(|l| json::line(paths, l)))?;
                }
                "threads" => {
                    let rows = crate::query::threads_by_id(events);
                    self.json_rows(k, run_id, rows.iter().map(json::thread))?;
                }
                _ => {
                    if let Some(spilled) = calls.take() {
                        added.calls = self.call_rows(k, run_id, answer, spilled)?;
                    }
                    break;
                }
            }
        }
        for k in 0..self.files.len() {
            self.files[k].flush()?;
        }
        self.next_run = self.next_run.max(run_id + 1);
        Ok(added)
    }

    fn json_rows<T: serde::Serialize>(
        &mut self,
        k: usize,
        run_id: i64,
        rows: impl Iterator<Item = T>,
    ) -> Result<(), ExportError> {
        let file = &mut self.files[k];
        for row in rows {
            let value = serde_json::to_value(row).map_err(std::io::Error::other)?;
            file.batch
                .push_json(run_id, &value)
                .map_err(|e| parquet_error(&self.dir, e))?;
            file.full()?;
        }
        Ok(())
    }

    fn run_row(&mut self, k: usize, run_id: i64, answer: &Answer) -> Result<(), ExportError> {
        let paths = answer.profile(Reads::Paths);
        let events = answer.profile(Reads::Events);
        let totals = serde_json::to_value(json::answer_totals(paths, events))
            .map_err(std::io::Error::other)?;
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
        let file = &mut self.files[k];
        file.batch
            .push_cells(&cells)
            .map_err(|e| parquet_error(&self.dir, e))?;
        Ok(())
    }

    /// The trace's calls the query keeps: those of its threads, entered
    /// inside its range (a call counts where it was entered, model.md §
    /// Time ranges); transforms rewrite call paths, not calls.
    fn call_rows(
        &mut self,
        k: usize,
        run_id: i64,
        answer: &Answer,
        spilled: Spilled,
    ) -> Result<u64, ExportError> {
        let loaded = answer.loaded();
        let threads = answer.threads();
        let range = answer.range();
        let timed = loaded.time_unit().is_some();
        let at = |x: f64| loaded.at_resolution(Some(x)).filter(|_| timed);
        // A duration as the function's percentiles, minimum and maximum
        // hold it (`Profile::call_time`).
        let ms = |x: f64| at(loaded.call_time(x));
        let functions = loaded.functions().len();
        let mut written = 0;
        let file = &mut self.files[k];
        for call in spilled.rows().map_err(|e| io_error(&self.dir, e))? {
            let c = call.map_err(|e| io_error(&self.dir, e))?;
            if threads.is_some_and(|t| !t.contains(&c.thread))
                || range.is_some_and(|r| !r.holds(c.start))
            {
                continue;
            }
            if c.func.index() >= functions {
                let why = format!("a call of function {} of {functions}", c.func.raw());
                return Err(parquet_error(&self.dir, why));
            }
            let cells = [
                Cell::Int(Some(run_id)),
                Cell::Int(i64::try_from(c.thread).ok()),
                Cell::Text(Some(loaded.function_name(c.func))),
                Cell::Text(Some(loaded.function_module(c.func))),
                Cell::Float(at(c.start)),
                Cell::Float(ms(c.inclusive)),
                Cell::Float(ms(c.exclusive)),
                Cell::Int(Some(i64::from(c.depth))),
            ];
            file.batch
                .push_cells(&cells)
                .map_err(|e| parquet_error(&self.dir, e))?;
            file.full()?;
            written += 1;
        }
        Ok(written)
    }

    /// Closes every table and renames each into place; what was written,
    /// in words.
    pub fn finish(self) -> Result<super::Summary, ExportError> {
        let mut said = Vec::new();
        let mut done = Vec::new();
        for file in self.files {
            let name = format!("{}{}.parquet", file.spec.name, self.suffix);
            said.push(format!("{} {}", file.rows, file.spec.name));
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
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_created_by(format!("profx {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(Some(vec![
                KeyValue::new("schema".into(), schema::SCHEMA.to_string()),
                KeyValue::new("table".into(), spec.name.to_string()),
            ]))
            .build();
        let writer = SerializedFileWriter::new(
            BufWriter::with_capacity(1 << 16, out),
            Arc::new(parsed),
            Arc::new(props),
        )
        .map_err(|e| parquet_error(dir, e))?;
        Ok(TableFile {
            spec,
            writer,
            temp,
            batch: Batch::new(spec),
            rows: 0,
        })
    }

    fn path(&self) -> &Path {
        self.temp.path()
    }

    /// Writes the rows waiting as a row group once there are `GROUP_ROWS`.
    fn full(&mut self) -> Result<(), ExportError> {
        match self.batch.rows() >= GROUP_ROWS {
            true => self.flush(),
            false => Ok(()),
        }
    }

    /// Writes the rows waiting as a row group.
    fn flush(&mut self) -> Result<(), ExportError> {
        if self.batch.rows() == 0 {
            return Ok(());
        }
        let path = self.path().to_path_buf();
        let rows = self.batch.rows() as u64;
        let mut group = self
            .writer
            .next_row_group()
            .map_err(|e| parquet_error(&path, e))?;
        self.batch
            .write(&mut group)
            .map_err(|e| parquet_error(&path, e))?;
        group.close().map_err(|e| parquet_error(&path, e))?;
        self.rows += rows;
        Ok(())
    }

    fn close(mut self) -> Result<tempfile::NamedTempFile, ExportError> {
        self.flush()?;
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
