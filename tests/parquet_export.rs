//! `profx export FILE… --to parquet -o DIR` through the real binary (issue
//! 70): every fixture of every format exported together, each table read
//! back with the parquet crate's own reader and held, row by row and value
//! by value, to `profx report --json` of that run; a run that cannot be
//! read; `--append`; a folder of another schema refused; the schema
//! document (docs/spec/parquet.md) held to the files written.

mod common;

use common::{profx, report_json, stderr};
use parquet::file::reader::{FileReader, SerializedFileReader};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
const TABLES: [&str; 7] = [
    "runs",
    "functions",
    "edges",
    "stacks",
    "lines",
    "threads",
    "calls",
];

/// Every fixture as a loadable file (BR and DBF descriptions compiled),
/// each format's, packets through their base file, and the public VS
/// samples; made once into a fixed folder.
fn inputs() -> &'static [PathBuf] {
    static MADE: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();
    MADE.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("parquet-inputs");
        let _ = std::fs::remove_dir_all(&dir);
        let mut out = Vec::new();
        for sub in [
            "plist",
            "br",
            "vs-csv",
            "xpp",
            "xpp/packeted-deldbe",
            "xpp/packeted-dbf",
        ] {
            let mut names: Vec<PathBuf> = std::fs::read_dir(Path::new(FIXTURES).join(sub))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.is_file())
                .collect();
            names.sort();
            for path in names {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let target = dir
                    .join(sub.replace('/', "_"))
                    .join(name.replace("desc", ""));
                std::fs::create_dir_all(target.parent().unwrap()).unwrap();
                std::fs::write(&target, compile(&path, &name)).unwrap();
                if !name.contains(".0000") {
                    out.push(target);
                }
            }
        }
        out.push(common::real_file("inferno_CallTreeSummary.csv").into());
        out.push(common::real_file("visperf_l4_cc.csv").into());
        out
    })
}

fn compile(path: &Path, name: &str) -> Vec<u8> {
    let text = || std::fs::read_to_string(path).unwrap();
    if name.ends_with(".brdesc") {
        profx::fixture_gen::br::compile(&text()).unwrap()
    } else if name.ends_with(".dbfdesc") {
        let mut bytes = profx::fixture_gen::dbf::compile(&text()).unwrap();
        if name.starts_with("vfp-") {
            bytes[0] = b'0';
        }
        bytes
    } else {
        std::fs::read(path).unwrap()
    }
}

/// The inputs that load, each with its `--json` report.
fn loadable() -> &'static [(PathBuf, Value)] {
    static MADE: std::sync::OnceLock<Vec<(PathBuf, Value)>> = std::sync::OnceLock::new();
    MADE.get_or_init(|| {
        inputs()
            .iter()
            .filter_map(|p| {
                let o = profx(&["report", p.to_str().unwrap(), "--json"]);
                (o.status.code() == Some(0))
                    .then(|| (p.clone(), serde_json::from_slice(&o.stdout).unwrap()))
            })
            .collect()
    })
}

fn scratch(name: &str) -> common::Scratch {
    common::scratch("parquet", name)
}

/// `profx export FILES --to parquet -o DIR EXTRA`.
fn export(files: &[&Path], dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args: Vec<&str> = vec!["export"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    args.extend(["--to", "parquet", "-o", dir.to_str().unwrap()]);
    args.extend_from_slice(extra);
    profx(&args)
}

/// A file's reader, its page index read too (a malformed index is an
/// error).
fn reader(path: &Path) -> SerializedFileReader<std::fs::File> {
    let options = parquet::file::serialized_reader::ReadOptionsBuilder::new()
        .with_page_index()
        .build();
    SerializedFileReader::new_with_options(std::fs::File::open(path).unwrap(), options)
        .unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// Every row of `table` in `dir` (all its files), as JSON objects.
fn rows(dir: &Path, table: &str) -> Vec<Value> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n == format!("{table}.parquet")
                || n.strip_prefix(&format!("{table}-"))
                    .and_then(|r| r.strip_suffix(".parquet"))
                    .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no {table} file in {dir:?}");
    let mut out = Vec::new();
    for f in files {
        for row in reader(&f).get_row_iter(None).unwrap() {
            out.push(row.unwrap().to_json_value());
        }
    }
    // By run, each run's rows in their order (an append's files list
    // before the first's: `runs-1` < `runs.`).
    out.sort_by_key(|r| r["run_id"].as_i64());
    out
}

/// The rows of `run` in `rows`, without their `run_id`.
fn of_run(rows: &[Value], run: i64) -> Vec<Value> {
    rows.iter()
        .filter(|r| r["run_id"] == json!(run))
        .map(|r| {
            let mut r = r.clone();
            r.as_object_mut().unwrap().remove("run_id");
            r
        })
        .collect()
}

/// `--json`'s rows with every column a table has: a key `--json` leaves
/// out where it has no value (`source_file`, `called`) is null there.
fn with_columns(report_rows: &Value, columns: &[String]) -> Vec<Value> {
    report_rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let mut r = r.clone();
            let o = r.as_object_mut().unwrap();
            for c in columns {
                o.entry(c.clone()).or_insert(Value::Null);
            }
            r
        })
        .collect()
}

fn columns_of(dir: &Path, table: &str) -> Vec<String> {
    let r = reader(&dir.join(format!("{table}.parquet")));
    let schema = r.metadata().file_metadata().schema_descr();
    let root = schema.root_schema();
    root.get_fields()
        .iter()
        .map(|f| f.name().to_string())
        .filter(|n| n != "run_id")
        .collect()
}

/// The `runs` row `--json` says: its sources, format, unit, query,
/// warnings and totals.
fn run_row(report: &Value) -> Value {
    let mut row = json!({
        "sources": report["sources"],
        "format": report["format"],
        "time_unit": report["meta"]["time_unit"],
        "query": report["query"],
        "warnings": report["warnings"].as_array().unwrap().len(),
    });
    for (k, v) in report["totals"].as_object().unwrap() {
        row[k] = v.clone();
    }
    row
}

/// Each run's every table equals its report: the same rows in the same
/// order, every value the same number (or null), and its calls add up to
/// its functions' calls and times.
fn check_run(dir: &Path, all: &HashMap<&str, Vec<Value>>, run: i64, name: &str, report: &Value) {
    let mut runs = of_run(&all["runs"], run);
    assert_eq!(runs.len(), 1, "{name}: one runs row");
    let query: Value = serde_json::from_str(runs[0]["query"].as_str().unwrap()).unwrap();
    runs[0]["query"] = query;
    assert_eq!(runs[0], run_row(report), "{name}: runs");
    for table in ["functions", "edges", "stacks", "lines", "threads"] {
        let want = with_columns(&report[table], &columns_of(dir, table));
        assert_eq!(of_run(&all[table], run), want, "{name}: {table}");
    }
    check_calls(&of_run(&all["calls"], run), name, report);
}

/// A trace's calls: a function's rows number its calls, their exclusive
/// times add up to its exclusive time, their longest and shortest are its
/// max and min; other formats have none.
fn check_calls(calls: &[Value], name: &str, report: &Value) {
    if report["format"] != "xpp" {
        assert!(calls.is_empty(), "{name}: calls of a {}", report["format"]);
        return;
    }
    let mut by: BTreeMap<(String, String), Vec<&Value>> = BTreeMap::new();
    for c in calls {
        let key = (
            c["name"].as_str().unwrap().to_string(),
            c["module"].as_str().unwrap().to_string(),
        );
        by.entry(key).or_default().push(c);
    }
    for f in report["functions"].as_array().unwrap() {
        let key = (
            f["name"].as_str().unwrap().to_string(),
            f["module"].as_str().unwrap().to_string(),
        );
        let mine = by.remove(&key).unwrap_or_default();
        let n = f["calls"].as_u64().unwrap_or(0) as usize;
        assert_eq!(mine.len(), n, "{name}: calls of {key:?}");
        if n == 0 || f["elapsed_exclusive_ms"].is_null() {
            assert!(mine.iter().all(|c| c["start_ms"].is_null()), "{name}");
            continue;
        }
        let excl: f64 = mine
            .iter()
            .map(|c| c["elapsed_exclusive_ms"].as_f64().unwrap())
            .sum();
        let want = f["elapsed_exclusive_ms"].as_f64().unwrap();
        assert!(
            (excl - want).abs() <= 1e-6 * want.abs().max(1.0),
            "{name}: {key:?} {excl} {want}"
        );
        let incl = mine
            .iter()
            .map(|c| c["elapsed_inclusive_ms"].as_f64().unwrap());
        let max = incl.clone().fold(f64::NEG_INFINITY, f64::max);
        let min = incl.fold(f64::INFINITY, f64::min);
        assert_eq!(
            json!(max),
            f["max_elapsed_inclusive_ms"],
            "{name}: {key:?} max"
        );
        assert_eq!(
            json!(min),
            f["min_elapsed_inclusive_ms"],
            "{name}: {key:?} min"
        );
    }
    assert!(by.is_empty(), "{name}: calls of no function: {by:?}");
}

#[test]
fn every_table_of_every_format_is_its_report() {
    let dir = scratch("every");
    let out = dir.join("tables");
    let runs = loadable();
    let files: Vec<&Path> = runs.iter().map(|(p, _)| p.as_path()).collect();
    let o = export(&files, &out, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let all: HashMap<&str, Vec<Value>> = TABLES.iter().map(|&t| (t, rows(&out, t))).collect();
    assert_eq!(all["runs"].len(), runs.len());
    let n = runs.len();
    let said = format!(
        "wrote {n} runs (rows: runs {n}, functions {}, ",
        all["functions"].len()
    );
    assert!(stderr(&o).contains(&said), "{said:?} in {}", stderr(&o));
    for (k, (path, report)) in runs.iter().enumerate() {
        let name = path.file_name().unwrap().to_string_lossy();
        check_run(&out, &all, k as i64 + 1, &name, report);
    }
    for f in ["plist", "br", "xpp", "vs-csv"] {
        assert!(runs.iter().any(|(_, r)| r["format"] == f), "no {f} run");
    }
    // Every file states the schema's version and its table.
    for t in TABLES {
        let r = reader(&out.join(format!("{t}.parquet")));
        let kv: BTreeMap<String, Option<String>> = r
            .metadata()
            .file_metadata()
            .key_value_metadata()
            .unwrap()
            .iter()
            .map(|k| (k.key.clone(), k.value.clone()))
            .collect();
        assert_eq!(kv["schema"].as_deref(), Some("1"), "{t}");
        assert_eq!(kv["table"].as_deref(), Some(t));
        // Texts are dictionary-encoded in every table (parquet.md §
        // Files), `calls`' and `stacks'` by profx's keys: no page of them
        // is plain. Integers are delta-encoded. Every column has an offset
        // index (the pages' places and first rows), the keyed ones too.
        for (k, g) in r.metadata().row_groups().iter().enumerate() {
            let index = r.metadata().page_index_for_row_group(k);
            for (i, c) in g.columns().iter().enumerate() {
                let path = c.column_path();
                assert!(c.offset_index_offset().is_some(), "{t}: {path}");
                let pages = index.page_locations(i).expect("an offset index");
                assert_eq!(pages.first().map(|p| p.first_row_index), Some(0));
                assert_eq!(pages[0].offset, c.data_page_offset(), "{t}: {path}");
                match c.column_type() {
                    parquet::basic::Type::BYTE_ARRAY => {
                        assert!(c.dictionary_page_offset().is_some(), "{t}: {path}");
                        if ["calls", "stacks"].contains(&t) {
                            // The reader keeps the data pages' encodings.
                            let keyed = parquet::basic::Encoding::RLE_DICTIONARY;
                            let pages = c.page_encoding_stats_mask();
                            assert!(pages.is_some_and(|m| m.is_only(keyed)), "{t}: {path}");
                        }
                    }
                    parquet::basic::Type::INT64 => {
                        let delta = parquet::basic::Encoding::DELTA_BINARY_PACKED;
                        assert!(c.encodings().any(|e| e == delta), "{t}: {path}");
                    }
                    _ => {}
                }
            }
        }
    }
}

/// One run is said as one.
#[test]
fn one_run_is_said_as_one() {
    let dir = scratch("one");
    let out = dir.join("tables");
    let (path, _) = &loadable()[0];
    let o = export(&[path.as_path()], &out, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("wrote 1 run (rows: runs 1, "),
        "{}",
        stderr(&o)
    );
}

/// The query's flags: each run answers them as `report --json` does with
/// the same flags.
#[test]
fn a_query_is_asked_of_every_run() {
    let dir = scratch("query");
    let out = dir.join("tables");
    let two = Path::new(FIXTURES).join("xpp/two-threads.prf");
    let orders = Path::new(FIXTURES).join("xpp/orders-run.prf");
    for flags in [
        vec!["--thread", "1"],
        vec!["--merge", "WORKER"],
        vec!["--from", "2", "--until", "9"],
    ] {
        let _ = std::fs::remove_dir_all(&out);
        let o = export(&[&two, &orders], &out, &flags);
        assert_eq!(o.status.code(), Some(0), "{flags:?}: {}", stderr(&o));
        let all: HashMap<&str, Vec<Value>> = TABLES.iter().map(|&t| (t, rows(&out, t))).collect();
        for (k, f) in [&two, &orders].iter().enumerate() {
            let report = report_json(f.to_str().unwrap(), &flags);
            let run = k as i64 + 1;
            let mut runs = of_run(&all["runs"], run);
            runs[0]["query"] = serde_json::from_str(runs[0]["query"].as_str().unwrap()).unwrap();
            assert_eq!(runs[0], run_row(&report), "{flags:?}");
            for table in ["functions", "edges", "stacks", "lines", "threads"] {
                let want = with_columns(&report[table], &columns_of(&out, table));
                assert_eq!(of_run(&all[table], run), want, "{flags:?} {table}");
            }
            if flags[0] == "--thread" {
                let calls = of_run(&all["calls"], run);
                assert!(calls.iter().all(|c| c["thread"] == json!(1)), "{flags:?}");
                check_calls(&calls, "thread 1", &report);
            }
        }
    }
}

#[test]
fn a_run_that_cannot_be_read_is_named_and_the_others_written() {
    let dir = scratch("unreadable");
    let out = dir.join("tables");
    let bad = dir.join("broken.prf");
    std::fs::write(&bad, b"\x00\x01 this is no profile of any format\n").unwrap();
    let missing = dir.join("missing.prf");
    let a = Path::new(FIXTURES).join("xpp/two-threads.prf");
    let b = Path::new(FIXTURES).join("plist/demo-orders.txt");
    let o = export(&[&a, &bad, &b, &missing], &out, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("left out") && err.contains("broken.prf"),
        "{err}"
    );
    assert!(err.contains("missing.prf"), "{err}");
    let runs = rows(&out, "runs");
    let ids: Vec<Value> = runs.iter().map(|r| r["run_id"].clone()).collect();
    assert_eq!(
        ids,
        vec![json!(1), json!(3)],
        "the others keep their numbers"
    );
    let report = report_json(b.to_str().unwrap(), &[]);
    assert_eq!(runs[1]["format"], report["format"]);
    // No run at all: nothing written, no folder made.
    let none = dir.join("none");
    let o = export(&[&bad], &none, &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!none.exists(), "a folder of no run");
}

#[test]
fn append_adds_runs_with_new_ids_and_refuses_another_schema() {
    let dir = scratch("append");
    let out = dir.join("tables");
    let a = Path::new(FIXTURES).join("xpp/two-threads.prf");
    let b = Path::new(FIXTURES).join("plist/demo-orders.txt");
    assert_eq!(export(&[&a], &out, &[]).status.code(), Some(0));
    // An existing folder without --append: a usage error, left as it was.
    let o = export(&[&b], &out, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--append"), "{}", stderr(&o));
    let o = export(&[&b, &a], &out, &["--append"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for t in TABLES {
        assert!(out.join(format!("{t}-1.parquet")).is_file(), "{t}-1");
    }
    let runs = rows(&out, "runs");
    let ids: Vec<Value> = runs.iter().map(|r| r["run_id"].clone()).collect();
    assert_eq!(ids, vec![json!(1), json!(2), json!(3)]);
    assert_eq!(runs[1]["format"], json!("plist"));
    let all: HashMap<&str, Vec<Value>> = TABLES.iter().map(|&t| (t, rows(&out, t))).collect();
    let ra = report_json(a.to_str().unwrap(), &[]);
    check_run(&out, &all, 1, "first", &ra);
    check_run(&out, &all, 3, "appended", &ra);
    let o = export(&[&a], &out, &["--append"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(out.join("runs-2.parquet").is_file());

    // A folder whose functions table lacks a column, of another version.
    let other = dir.join("other");
    assert_eq!(export(&[&a], &other, &[]).status.code(), Some(0));
    let before = listing(&other);
    write_other_schema(&other.join("functions.parquet"));
    let before_files = listing(&other);
    let o = export(&[&b], &other, &["--append"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("another schema"), "{err}");
    assert!(err.contains("functions.parquet: schema 0"), "{err}");
    assert!(
        err.contains("has no column p99_elapsed_exclusive_ms"),
        "{err}"
    );
    assert_eq!(listing(&other), before_files, "nothing written");
    assert_eq!(before.len(), before_files.len());
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A range that reaches a run's last event covers it whole (model.md §
/// Time ranges): a call entered at that last instant is a row, as it is
/// one of its function's `calls` in `report --json` with the same range.
/// Over the whole run, every check of the calls holds; from its middle,
/// each function's rows still number its calls.
#[test]
fn a_range_to_the_runs_end_keeps_the_calls_entered_there() {
    let dir = scratch("range-end");
    let out = dir.join("tables");
    let timed: Vec<&Path> = loadable()
        .iter()
        .filter(|(_, r)| r["format"] == "xpp" && !r["meta"]["time_unit"].is_null())
        .map(|(p, _)| p.as_path())
        .collect();
    assert!(timed.len() >= 3, "{timed:?}");
    let whole = ["--until", "1e12"];
    let o = export(&timed, &out, &whole);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let calls = rows(&out, "calls");
    for (k, f) in timed.iter().enumerate() {
        let report = report_json(f.to_str().unwrap(), &whole);
        let name = format!("{} {whole:?}", f.display());
        check_calls(&of_run(&calls, k as i64 + 1), &name, &report);
    }
    // The last event of open-calls.prf enters ACCEPT at 6 ms.
    let open = Path::new(FIXTURES).join("xpp/open-calls.prf");
    for flags in [["--from", "2"], ["--until", "6"]] {
        let _ = std::fs::remove_dir_all(&out);
        let o = export(&[&open], &out, &flags);
        assert_eq!(o.status.code(), Some(0), "{flags:?}: {}", stderr(&o));
        let report = report_json(open.to_str().unwrap(), &flags);
        let mut rows_of: BTreeMap<&str, u64> = BTreeMap::new();
        let calls = rows(&out, "calls");
        for c in &calls {
            *rows_of.entry(c["name"].as_str().unwrap()).or_default() += 1;
        }
        let counted: BTreeMap<&str, u64> = report["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["name"].as_str().unwrap(),
                    f["calls"].as_u64().unwrap_or(0),
                )
            })
            .filter(|&(_, n)| n > 0)
            .collect();
        assert_eq!(rows_of, counted, "{flags:?}");
        assert_eq!(counted.get("ACCEPT"), Some(&1), "{flags:?}");
    }
}

/// Replaces `path` with a functions table of an older shape: two
/// columns, schema version 0.
fn write_other_schema(path: &Path) {
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    let schema = parquet::schema::parser::parse_message_type(
        "message functions { required int64 run_id; required binary name (UTF8); }",
    )
    .unwrap();
    let props = WriterProperties::builder()
        .set_key_value_metadata(Some(vec![parquet::file::metadata::KeyValue::new(
            "schema".into(),
            "0".to_string(),
        )]))
        .build();
    let file = std::fs::File::create(path).unwrap();
    let w = SerializedFileWriter::new(file, schema.into(), props.into()).unwrap();
    w.close().unwrap();
}

#[test]
fn several_inputs_go_with_parquet_only() {
    let dir = scratch("usage");
    let a = Path::new(FIXTURES).join("xpp/two-threads.prf");
    let b = Path::new(FIXTURES).join("xpp/orders-run.prf");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let csv = dir.join("out.csv");
    let o = profx(&["export", a, b, "--to", "csv", "-o", csv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--to parquet"), "{}", stderr(&o));
    assert!(!csv.exists());
    let o = profx(&["export", a, "--to", "parquet", "-o", "-"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = profx(&["export", a, "--to", "csv", "-o", "-", "--append"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // A file where the folder would be.
    let o = profx(&["export", a, "--to", "parquet", "-o", a]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// docs/spec/parquet.md's column lists are the files' schemas: every
/// table's columns, in order, with their types and whether they may be
/// null.
#[test]
fn the_schema_document_is_the_files() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/spec/parquet.md"))
        .unwrap();
    let mut documented: BTreeMap<String, Vec<(String, String, bool)>> = BTreeMap::new();
    let mut table = None;
    for line in doc.lines() {
        if let Some(t) = line.strip_prefix("### `").and_then(|t| t.strip_suffix('`')) {
            table = Some(t.to_string());
        } else if let (Some(t), Some(row)) = (&table, line.strip_prefix("| `")) {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let name = cells[0].trim_end_matches('`').to_string();
            let nullable = match cells[2] {
                "yes" => true,
                "no" => false,
                other => panic!("{t}.{name}: nullable {other:?}"),
            };
            documented
                .entry(t.clone())
                .or_default()
                .push((name, cells[1].to_string(), nullable));
        }
    }
    let dir = scratch("schema");
    let out = dir.join("tables");
    let a = Path::new(FIXTURES).join("xpp/two-threads.prf");
    assert_eq!(export(&[&a], &out, &[]).status.code(), Some(0));
    let written: Vec<String> = listing(&out);
    let mut want_files: Vec<String> = documented.keys().map(|t| format!("{t}.parquet")).collect();
    want_files.sort();
    assert_eq!(written, want_files, "one file a documented table");
    for (t, cols) in &documented {
        let r = reader(&out.join(format!("{t}.parquet")));
        let schema = r.metadata().file_metadata().schema_descr();
        let have: Vec<(String, String, bool)> = schema
            .root_schema()
            .get_fields()
            .iter()
            .map(|f| {
                let nullable =
                    f.get_basic_info().repetition() == parquet::basic::Repetition::OPTIONAL;
                (f.name().to_string(), type_name(f), nullable)
            })
            .collect();
        assert_eq!(&have, cols, "{t}");
    }
}

/// A field's type as parquet.md names it.
fn type_name(f: &parquet::schema::types::Type) -> String {
    use parquet::basic::{ConvertedType, Type as Physical};
    use parquet::schema::types::Type;
    match f {
        Type::PrimitiveType { physical_type, .. } => match physical_type {
            Physical::INT64 => "int64".into(),
            Physical::DOUBLE => "double".into(),
            Physical::BYTE_ARRAY => "string".into(),
            other => format!("{other}"),
        },
        Type::GroupType { fields, .. } => {
            let names: Vec<String> = fields.iter().map(|x| x.name().to_string()).collect();
            if f.get_basic_info().converted_type() == ConvertedType::LIST {
                let element = fields[0].get_fields()[0].as_ref();
                format!("list<{}>", type_name(element))
            } else {
                format!("struct<{}>", names.join(", "))
            }
        }
    }
}
