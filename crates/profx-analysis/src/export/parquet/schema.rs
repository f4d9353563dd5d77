//! The tables' columns (docs/spec/parquet.md, which a test holds to
//! them), their Parquet schema, and a table's rows gathered column by
//! column until they are written as a row group.
//!
//! A row of every table but `runs` and `calls` is the row `report --json`
//! writes (`report/json.rs`), as a JSON value: each column is read from it
//! by its key, so a column can only hold what `--json` says, with the
//! same number and the same null.

use super::keyed::{self, Keyed};
use parquet::basic::Type as Physical;
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::writer::SerializedRowGroupWriter;
use parquet::schema::types::SchemaDescriptor;
use serde_json::Value;
use std::io::Write;

/// The version of the tables' schema, in every file's key-value metadata
/// (`schema`); raised whenever a column changes.
pub const SCHEMA: u32 = 1;

/// What a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A 64-bit integer.
    Int,
    /// A 64-bit float.
    Float,
    /// A UTF-8 string.
    Text,
    /// A list of strings.
    Texts,
    /// A function: a struct of `name` and `module`.
    Frame,
    /// A list of functions, root first.
    Frames,
}

impl Kind {
    /// The type as docs/spec/parquet.md names it.
    pub fn spec_name(self) -> &'static str {
        match self {
            Kind::Int => "int64",
            Kind::Float => "double",
            Kind::Text => "string",
            Kind::Texts => "list<string>",
            Kind::Frame => "struct<name, module>",
            Kind::Frames => "list<struct<name, module>>",
        }
    }
}

/// One column of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// Its name: the `--json` key it is read from.
    pub name: &'static str,
    /// What it holds.
    pub kind: Kind,
    /// Whether it may be null.
    pub nullable: bool,
}

const fn col(name: &'static str, kind: Kind, nullable: bool) -> Column {
    Column {
        name,
        kind,
        nullable,
    }
}

const RUN_ID: Column = col("run_id", Kind::Int, false);

/// One table: its name (the file's, `<name>.parquet`) and columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSpec {
    /// `runs`, `functions`, ...
    pub name: &'static str,
    /// In the files' order.
    pub columns: &'static [Column],
}

/// `runs`: one row a run.
pub const RUNS: TableSpec = TableSpec {
    name: "runs",
    columns: &[
        RUN_ID,
        col("sources", Kind::Texts, false),
        col("format", Kind::Text, false),
        col("time_unit", Kind::Text, true),
        col("query", Kind::Text, false),
        col("warnings", Kind::Int, false),
        col("elapsed_inclusive_ms", Kind::Float, true),
        col("application_inclusive_ms", Kind::Float, true),
        col("outside_ms", Kind::Float, true),
        col("samples", Kind::Int, true),
        col("functions", Kind::Int, false),
        col("lines", Kind::Int, false),
        col("stacks", Kind::Int, false),
        col("packets", Kind::Int, false),
        col("events", Kind::Int, false),
    ],
};

/// `functions`: `--json`'s `functions` rows.
pub const FUNCTIONS: TableSpec = TableSpec {
    name: "functions",
    columns: &[
        RUN_ID,
        col("name", Kind::Text, false),
        col("module", Kind::Text, false),
        col("calls", Kind::Int, true),
        col("hits_self", Kind::Int, true),
        col("hits_total", Kind::Int, true),
        col("elapsed_inclusive_ms", Kind::Float, true),
        col("elapsed_exclusive_ms", Kind::Float, true),
        col("application_inclusive_ms", Kind::Float, true),
        col("application_exclusive_ms", Kind::Float, true),
        col("elapsed_inclusive_pct", Kind::Float, true),
        col("elapsed_exclusive_pct", Kind::Float, true),
        col("application_inclusive_pct", Kind::Float, true),
        col("application_exclusive_pct", Kind::Float, true),
        col("hits_self_pct", Kind::Float, true),
        col("hits_total_pct", Kind::Float, true),
        col("min_elapsed_inclusive_ms", Kind::Float, true),
        col("max_elapsed_inclusive_ms", Kind::Float, true),
        col("min_elapsed_exclusive_ms", Kind::Float, true),
        col("max_elapsed_exclusive_ms", Kind::Float, true),
        col("p50_elapsed_inclusive_ms", Kind::Float, true),
        col("p90_elapsed_inclusive_ms", Kind::Float, true),
        col("p99_elapsed_inclusive_ms", Kind::Float, true),
        col("p50_elapsed_exclusive_ms", Kind::Float, true),
        col("p90_elapsed_exclusive_ms", Kind::Float, true),
        col("p99_elapsed_exclusive_ms", Kind::Float, true),
        col("source_file", Kind::Text, true),
        col("source_line", Kind::Int, true),
    ],
};

/// `edges`: `--json`'s `edges` rows.
pub const EDGES: TableSpec = TableSpec {
    name: "edges",
    columns: &[
        RUN_ID,
        col("caller", Kind::Frame, false),
        col("callee", Kind::Frame, false),
        col("calls", Kind::Int, true),
        col("hits", Kind::Int, true),
        col("elapsed_inclusive_ms", Kind::Float, true),
    ],
};

/// `stacks`: `--json`'s `stacks` rows.
pub const STACKS: TableSpec = TableSpec {
    name: "stacks",
    columns: &[
        RUN_ID,
        col("frames", Kind::Frames, false),
        col("hits", Kind::Int, true),
        col("self_ms", Kind::Float, true),
        col("child_ms", Kind::Float, true),
    ],
};

/// `lines`: `--json`'s `lines` rows.
pub const LINES: TableSpec = TableSpec {
    name: "lines",
    columns: &[
        RUN_ID,
        col("file", Kind::Text, false),
        col("line", Kind::Int, false),
        col("function", Kind::Text, true),
        col("called", Kind::Text, true),
        col("hits", Kind::Int, true),
        col("time_ms", Kind::Float, true),
    ],
};

/// `threads`: `--json`'s `threads` rows.
pub const THREADS: TableSpec = TableSpec {
    name: "threads",
    columns: &[
        RUN_ID,
        col("id", Kind::Int, false),
        col("first_ms", Kind::Float, true),
        col("last_ms", Kind::Float, true),
        col("busy_ms", Kind::Float, true),
        col("events", Kind::Int, false),
        col("calls", Kind::Int, false),
    ],
};

/// `calls`: a trace's calls, one row a call.
pub const CALLS: TableSpec = TableSpec {
    name: "calls",
    columns: &[
        RUN_ID,
        col("thread", Kind::Int, false),
        col("name", Kind::Text, false),
        col("module", Kind::Text, false),
        col("start_ms", Kind::Float, true),
        col("elapsed_inclusive_ms", Kind::Float, true),
        col("elapsed_exclusive_ms", Kind::Float, true),
        col("depth", Kind::Int, false),
    ],
};

/// Every table, in the order they are written.
pub const TABLES: [TableSpec; 7] = [RUNS, FUNCTIONS, EDGES, STACKS, LINES, THREADS, CALLS];

impl TableSpec {
    /// Whether the table's texts are keys into a dictionary its rows'
    /// maker builds (`keyed.rs`): `calls` and `stacks`, the two with a
    /// name a call or a frame, millions of rows over a few thousand
    /// names. The other tables' texts are dictionary-encoded by the
    /// parquet crate, which hashes each value (what each way costs:
    /// BENCHMARKS.md, issue 70).
    pub fn keyed(&self) -> bool {
        self.name == CALLS.name || self.name == STACKS.name
    }

    /// The Parquet message type of the table.
    pub fn message_type(&self) -> String {
        let mut s = format!("message {} {{\n", self.name);
        for c in self.columns {
            let rep = if c.nullable { "optional" } else { "required" };
            let n = c.name;
            let pair = "required binary name (UTF8); required binary module (UTF8);";
            let field = match c.kind {
                Kind::Int => format!("{rep} int64 {n};"),
                Kind::Float => format!("{rep} double {n};"),
                Kind::Text => format!("{rep} binary {n} (UTF8);"),
                Kind::Texts => format!(
                    "{rep} group {n} (LIST) {{ repeated group list {{ required binary element (UTF8); }} }}"
                ),
                Kind::Frame => format!("{rep} group {n} {{ {pair} }}"),
                Kind::Frames => format!(
                    "{rep} group {n} (LIST) {{ repeated group list {{ required group element {{ {pair} }} }} }}"
                ),
            };
            s.push_str("  ");
            s.push_str(&field);
            s.push('\n');
        }
        s.push('}');
        s
    }
}

/// The paths of a table's string leaves (a frame's name and module, a
/// list's items included).
pub fn text_leaves(spec: &TableSpec) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for c in spec.columns {
        let n = c.name.to_string();
        let path = |rest: &[&str]| {
            let mut p = vec![n.clone()];
            p.extend(rest.iter().map(|s| s.to_string()));
            p
        };
        match c.kind {
            Kind::Text => out.push(path(&[])),
            Kind::Texts => out.push(path(&["list", "element"])),
            Kind::Frame => out.extend([path(&["name"]), path(&["module"])]),
            Kind::Frames => out.extend([
                path(&["list", "element", "name"]),
                path(&["list", "element", "module"]),
            ]),
            Kind::Int | Kind::Float => {}
        }
    }
    out
}

/// A value of a leaf column.
#[derive(Debug)]
enum Values {
    Int(Vec<i64>),
    Float(Vec<f64>),
    Bytes(Vec<ByteArray>),
    /// Texts as keys into the leaf's own dictionary ([`TableSpec::keyed`]).
    Keys(Keyed),
}

/// One leaf column's values and levels (a list's leaves have repetition
/// levels; a nullable column's, definition levels).
#[derive(Debug)]
struct Leaf {
    values: Values,
    defs: Vec<i16>,
    reps: Vec<i16>,
    nullable: bool,
    repeated: bool,
}

impl Leaf {
    fn new(values: Values, nullable: bool, repeated: bool) -> Leaf {
        Leaf {
            values,
            defs: Vec::new(),
            reps: Vec::new(),
            nullable,
            repeated,
        }
    }

    fn clear(&mut self) {
        match &mut self.values {
            Values::Int(v) => v.clear(),
            Values::Float(v) => v.clear(),
            Values::Bytes(v) => v.clear(),
            Values::Keys(k) => k.clear(),
        }
        self.defs.clear();
        self.reps.clear();
    }
}

/// A cell given directly (the `runs` and `calls` rows, which no `--json`
/// array holds as such).
#[derive(Clone, Copy, Debug)]
pub enum Cell<'a> {
    /// An integer, or null.
    Int(Option<i64>),
    /// A float, or null.
    Float(Option<f64>),
    /// A string, or null.
    Text(Option<&'a str>),
    /// A list of strings.
    Texts(&'a [String]),
    /// A list of functions, root first, each as its name's and its
    /// module's keys in the batch's dictionaries ([`Batch::add_word`]).
    FrameKeys(&'a [[u32; 2]]),
}

/// Why a row does not fit its table: a column's key missing from the row
/// or of another type (the tables and `--json` disagree, a defect).
#[derive(Debug, thiserror::Error)]
#[error("{table}.{column}: {why}")]
pub struct Mismatch {
    table: &'static str,
    column: &'static str,
    why: String,
}

/// The rows of a table waiting to be written, column by column.
#[derive(Debug)]
pub struct Batch {
    spec: TableSpec,
    /// Per column, its leaves (two for a frame's name and module).
    leaves: Vec<Vec<Leaf>>,
    rows: usize,
}

impl Batch {
    /// An empty batch of `spec`'s rows.
    pub fn new(spec: TableSpec) -> Batch {
        let text = || match spec.keyed() {
            true => Values::Keys(Keyed::default()),
            false => Values::Bytes(Vec::new()),
        };
        let leaves = spec
            .columns
            .iter()
            .map(|c| match c.kind {
                Kind::Int => vec![Leaf::new(Values::Int(Vec::new()), c.nullable, false)],
                Kind::Float => vec![Leaf::new(Values::Float(Vec::new()), c.nullable, false)],
                Kind::Text => vec![Leaf::new(text(), c.nullable, false)],
                Kind::Texts => vec![Leaf::new(text(), c.nullable, true)],
                Kind::Frame => (0..2)
                    .map(|_| Leaf::new(text(), c.nullable, false))
                    .collect(),
                Kind::Frames => (0..2)
                    .map(|_| Leaf::new(text(), c.nullable, true))
                    .collect(),
            })
            .collect();
        Batch {
            spec,
            leaves,
            rows: 0,
        }
    }

    /// The table it is of.
    pub fn spec(&self) -> TableSpec {
        self.spec
    }

    /// Rows waiting.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Adds `text` to the dictionary of `column`'s leaf `part` (a frame's
    /// name 0, its module 1) of a keyed table: its key.
    pub fn add_word(&mut self, column: usize, part: usize, text: &str) -> Result<u32, Mismatch> {
        match self.leaves.get_mut(column).and_then(|l| l.get_mut(part)) {
            Some(Leaf {
                values: Values::Keys(keyed),
                ..
            }) => keyed
                .add(text.as_bytes())
                .map_err(|e| self.mismatch(column, e.to_string())),
            _ => Err(self.mismatch(column.min(self.spec.columns.len() - 1), "no keyed text")),
        }
    }

    fn mismatch(&self, column: usize, why: impl Into<String>) -> Mismatch {
        Mismatch {
            table: self.spec.name,
            column: self.spec.columns[column].name,
            why: why.into(),
        }
    }

    /// Adds a row of `run` read from `row`, a `--json` row: each column
    /// after `run_id` is its key's value.
    pub fn push_json(&mut self, run: i64, row: &Value) -> Result<(), Mismatch> {
        self.check_json(row)?;
        push_scalar(&mut self.leaves[0][0], Scalar::Int(Some(run)));
        for (i, c) in self.spec.columns.iter().enumerate().skip(1) {
            let v = &row[c.name];
            let leaves = &mut self.leaves[i];
            match c.kind {
                Kind::Int => push_scalar(&mut leaves[0], Scalar::Int(json_int(v))),
                Kind::Float => push_scalar(&mut leaves[0], Scalar::Float(v.as_f64())),
                Kind::Text => push_scalar(&mut leaves[0], Scalar::Text(v.as_str())),
                Kind::Texts => {
                    let items = v.as_array().map(Vec::as_slice).unwrap_or_default();
                    push_list(
                        &mut leaves[0],
                        items.iter().map(|s| s.as_str().unwrap_or("")),
                    );
                }
                Kind::Frame => {
                    for (leaf, key) in leaves.iter_mut().zip(["name", "module"]) {
                        push_scalar(leaf, Scalar::Text(v[key].as_str()));
                    }
                }
                Kind::Frames => {
                    let items = v.as_array().map(Vec::as_slice).unwrap_or_default();
                    for (leaf, key) in leaves.iter_mut().zip(["name", "module"]) {
                        push_list(leaf, items.iter().map(|f| f[key].as_str().unwrap_or("")));
                    }
                }
            }
        }
        self.rows += 1;
        Ok(())
    }

    /// Refuses a row whose values are not of their column's kind, before
    /// any of it is added: a table never holds half a row.
    fn check_json(&self, row: &Value) -> Result<(), Mismatch> {
        if self.spec.keyed() {
            return Err(self.mismatch(0, "a row of keyed texts given as JSON"));
        }
        for (i, c) in self.spec.columns.iter().enumerate().skip(1) {
            let v = row.get(c.name).unwrap_or(&Value::Null);
            let text = |v: &Value| v.is_string();
            let frame = |v: &Value| text(&v["name"]) && text(&v["module"]);
            let fits = match (c.kind, v) {
                (_, Value::Null) => c.nullable,
                (Kind::Int, v) => json_int(v).is_some(),
                (Kind::Float, v) => v.is_number(),
                (Kind::Text, v) => text(v),
                (Kind::Texts, Value::Array(a)) => a.iter().all(text),
                (Kind::Frame, v) => frame(v),
                (Kind::Frames, Value::Array(a)) => a.iter().all(frame),
                _ => false,
            };
            if !fits {
                return Err(self.mismatch(i, format!("{v} is no {}", c.kind.spec_name())));
            }
        }
        Ok(())
    }

    /// Adds a row given cell by cell, in the columns' order.
    pub fn push_cells(&mut self, cells: &[Cell<'_>]) -> Result<(), Mismatch> {
        let keyed = self.spec.keyed();
        if cells.len() != self.spec.columns.len() {
            return Err(self.mismatch(0, format!("{} cells for the row", cells.len())));
        }
        for (i, (c, cell)) in self.spec.columns.iter().zip(cells).enumerate() {
            let fits = match (c.kind, cell) {
                (Kind::Int, Cell::Int(v)) => v.is_some() || c.nullable,
                (Kind::Float, Cell::Float(v)) => v.is_some() || c.nullable,
                (Kind::Text, Cell::Text(v)) => (v.is_some() || c.nullable) && !keyed,
                (Kind::Texts, Cell::Texts(_)) => !keyed,
                (Kind::Frames, Cell::FrameKeys(path)) => {
                    keyed
                        && path.iter().all(|keys| {
                            self.leaves[i].iter().zip(keys).all(|(leaf, &key)| {
                                matches!(&leaf.values, Values::Keys(k) if k.has(key))
                            })
                        })
                }
                _ => false,
            };
            if !fits {
                let why = match cell {
                    Cell::FrameKeys(..) if c.kind == Kind::Frames => {
                        "a frame's key in no dictionary".into()
                    }
                    _ => format!("{cell:?} is no {}", c.kind.spec_name()),
                };
                return Err(self.mismatch(i, why));
            }
        }
        for (leaves, cell) in self.leaves.iter_mut().zip(cells) {
            match *cell {
                Cell::Int(v) => push_scalar(&mut leaves[0], Scalar::Int(v)),
                Cell::Float(v) => push_scalar(&mut leaves[0], Scalar::Float(v)),
                Cell::Text(v) => push_scalar(&mut leaves[0], Scalar::Text(v)),
                Cell::Texts(v) => push_list(&mut leaves[0], v.iter().map(String::as_str)),
                Cell::FrameKeys(path) => {
                    for (k, leaf) in leaves.iter_mut().enumerate() {
                        push_key_list(leaf, path.iter().map(|keys| keys[k]));
                    }
                }
            }
        }
        self.rows += 1;
        Ok(())
    }

    /// Room for `rows` more rows of single values (a list's items are
    /// not counted).
    pub fn reserve(&mut self, rows: usize) {
        for leaf in self.leaves.iter_mut().flatten() {
            match &mut leaf.values {
                Values::Int(v) => v.reserve(rows),
                Values::Float(v) => v.reserve(rows),
                Values::Bytes(v) => v.reserve(rows),
                Values::Keys(k) => k.reserve(rows),
            }
            if leaf.nullable || leaf.repeated {
                leaf.defs.reserve(rows);
            }
        }
    }

    /// Room for `items` more items of the lists' leaves, over all rows.
    pub fn reserve_items(&mut self, items: usize) {
        for leaf in self.leaves.iter_mut().flatten().filter(|l| l.repeated) {
            match &mut leaf.values {
                Values::Bytes(v) => v.reserve(items),
                Values::Keys(k) => k.reserve(items),
                Values::Int(_) | Values::Float(_) => {}
            }
            leaf.defs.reserve(items);
            leaf.reps.reserve(items);
        }
    }

    /// Adds a row of the `calls` table ([`CALLS`]' columns, in order), its
    /// function as its name's and module's keys ([`Batch::add_word`]).
    /// Its cells are of their columns' kinds by their types, so none but
    /// the keys is checked as `push_cells` checks them: a trace has
    /// millions of calls, and the checks cost about as much as the pushes.
    #[allow(clippy::too_many_arguments)]
    pub fn push_call(
        &mut self,
        run: i64,
        thread: i64,
        [name, module]: [u32; 2],
        start: Option<f64>,
        inclusive: Option<f64>,
        exclusive: Option<f64>,
        depth: i64,
    ) -> Result<(), Mismatch> {
        let [
            run_id,
            threads,
            names,
            modules,
            starts,
            inclusives,
            exclusives,
            depths,
        ] = self.leaves.as_mut_slice()
        else {
            return Err(self.mismatch(0, "a call's row in another table"));
        };
        // Both keys asked before either is pushed: a table never holds
        // half a row.
        if !holds_key(&names[0], name) || !holds_key(&modules[0], module) {
            return Err(self.mismatch(2, "a key in no dictionary"));
        }
        push_key(&mut names[0], name);
        push_key(&mut modules[0], module);
        int(&mut run_id[0], run);
        int(&mut threads[0], thread);
        float(&mut starts[0], start);
        float(&mut inclusives[0], inclusive);
        float(&mut exclusives[0], exclusive);
        int(&mut depths[0], depth);
        self.rows += 1;
        Ok(())
    }

    /// Writes the rows waiting as the row group's columns, in order, and
    /// empties the batch.
    pub fn write<W: Write + Send>(
        &mut self,
        group: &mut SerializedRowGroupWriter<'_, W>,
        schema: &SchemaDescriptor,
    ) -> parquet::errors::Result<()> {
        for (i, leaf) in self.leaves.iter_mut().flatten().enumerate() {
            let defs = (leaf.nullable || leaf.repeated).then_some(leaf.defs.as_slice());
            let reps = leaf.repeated.then_some(leaf.reps.as_slice());
            if let Values::Keys(keyed) = &leaf.values {
                if i >= schema.num_columns() {
                    return Err(parquet::errors::ParquetError::General(
                        "the schema has fewer columns than the table".into(),
                    ));
                }
                let (bytes, close) = keyed::chunk(&schema.column(i), keyed, defs, reps)?;
                group.append_column(&bytes, close)?;
                leaf.clear();
                continue;
            }
            let Some(mut column) = group.next_column()? else {
                return Err(parquet::errors::ParquetError::General(
                    "the schema has fewer columns than the table".into(),
                ));
            };
            match &leaf.values {
                Values::Int(v) => column.typed::<Int64Type>().write_batch(v, defs, reps)?,
                Values::Float(v) => column.typed::<DoubleType>().write_batch(v, defs, reps)?,
                Values::Bytes(v) => column.typed::<ByteArrayType>().write_batch(v, defs, reps)?,
                Values::Keys(_) => 0,
            };
            column.close()?;
            leaf.clear();
        }
        self.rows = 0;
        Ok(())
    }
}

/// A JSON number as an integer (`--json`'s counts are unsigned; none
/// reaches 2⁶³).
fn json_int(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_u64().and_then(|u| i64::try_from(u).ok()))
}

#[derive(Clone, Copy)]
enum Scalar<'a> {
    Int(Option<i64>),
    Float(Option<f64>),
    Text(Option<&'a str>),
}

fn push_scalar(leaf: &mut Leaf, v: Scalar<'_>) {
    let present = match (&mut leaf.values, v) {
        (Values::Int(out), Scalar::Int(Some(x))) => {
            out.push(x);
            true
        }
        (Values::Float(out), Scalar::Float(Some(x))) => {
            out.push(x);
            true
        }
        (Values::Bytes(out), Scalar::Text(Some(x))) => {
            out.push(ByteArray::from(x.as_bytes().to_vec()));
            true
        }
        _ => false,
    };
    if leaf.nullable {
        leaf.defs.push(i16::from(present));
    }
}

/// A required integer's value.
fn int(leaf: &mut Leaf, v: i64) {
    if let Values::Int(out) = &mut leaf.values {
        out.push(v);
    }
}

/// A required keyed string's value; false if the key is in no
/// dictionary.
fn holds_key(leaf: &Leaf, key: u32) -> bool {
    matches!(&leaf.values, Values::Keys(out) if out.has(key))
}

/// `key` pushed where the leaf is keyed (`holds_key` asked first).
fn push_key(leaf: &mut Leaf, key: u32) {
    if let Values::Keys(out) = &mut leaf.values {
        out.push(key);
    }
}

/// A nullable float's value or null.
fn float(leaf: &mut Leaf, v: Option<f64>) {
    if let Values::Float(out) = &mut leaf.values {
        if let Some(x) = v {
            out.push(x);
        }
        leaf.defs.push(i16::from(v.is_some()));
    }
}

/// A list's items: each a value at definition level 1, the first at
/// repetition level 0 (a new row); an empty list one level-0 entry.
fn push_list<'a>(leaf: &mut Leaf, items: impl Iterator<Item = &'a str>) {
    let Values::Bytes(out) = &mut leaf.values else {
        return;
    };
    let mut any = false;
    for item in items {
        out.push(ByteArray::from(item.as_bytes().to_vec()));
        leaf.defs.push(1);
        leaf.reps.push(i16::from(any));
        any = true;
    }
    if !any {
        leaf.defs.push(0);
        leaf.reps.push(0);
    }
}

/// `push_list`, of keys.
fn push_key_list(leaf: &mut Leaf, items: impl Iterator<Item = u32>) {
    let Values::Keys(out) = &mut leaf.values else {
        return;
    };
    let mut any = false;
    for item in items {
        out.push(item);
        leaf.defs.push(1);
        leaf.reps.push(i16::from(any));
        any = true;
    }
    if !any {
        leaf.defs.push(0);
        leaf.reps.push(0);
    }
}

/// The leaf columns of a Parquet schema as `path: type` (with how many of
/// each level may nest), for telling two schemas apart in words.
pub fn describe(schema: &parquet::schema::types::SchemaDescriptor) -> Vec<String> {
    schema
        .columns()
        .iter()
        .map(|c| {
            let ty = match c.physical_type() {
                Physical::INT64 => "int64".to_string(),
                Physical::DOUBLE => "double".to_string(),
                Physical::BYTE_ARRAY => "string".to_string(),
                other => other.to_string().to_lowercase(),
            };
            format!(
                "{} {ty}{}{}",
                c.path().string(),
                if c.max_def_level() > 0 {
                    " (nullable or listed)"
                } else {
                    ""
                },
                if c.max_rep_level() > 0 {
                    " (repeated)"
                } else {
                    ""
                },
            )
        })
        .collect()
}
