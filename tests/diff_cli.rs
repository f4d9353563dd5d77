//! `profx diff BASE NEW` through the real binary (issue 66; model.md §
//! Comparisons, report-json.md § Comparison), on the pairs of runs in
//! `tests/fixtures/diff/` (every format, a listing against a `/T` file, a
//! VS summary against a call tree): a run compared with itself, or with a
//! copy under another name, shows no difference; swapping the runs swaps
//! every value and negates every change; each side's values are exactly
//! `report --json`'s for it with the same query; shares add up; functions
//! paired by name alone are marked; the differential folded stacks are
//! `stack base new` lines that inferno draws; `--fail-if` exits 3 naming
//! each condition that held, 2 for a bad one, 1 for a side that cannot be
//! read (named).

mod common;

use common::{profx, report_json, scratch, stderr, stdout};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const DIR: &str = "tests/fixtures/diff";

/// A pair of runs: its name, and the base and new files (paths from the
/// crate root, or absolute for the BR descriptions compiled).
struct Pair {
    name: &'static str,
    base: String,
    new: String,
}

/// Every pair, BR's descriptions compiled into `dir`.
fn pairs(dir: &Path) -> Vec<Pair> {
    let compiled = |name: &str| {
        let text = std::fs::read_to_string(format!("{DIR}/br/{name}.brdesc")).unwrap();
        let path = dir.join(format!("{name}.br"));
        std::fs::write(&path, profx::fixture_gen::br::compile(&text).unwrap()).unwrap();
        path.to_string_lossy().into_owned()
    };
    let at = |rel: &str| format!("{DIR}/{rel}");
    vec![
        Pair {
            name: "plist",
            base: at("plist/base.txt"),
            new: at("plist/new.txt"),
        },
        Pair {
            name: "br",
            base: compiled("base"),
            new: compiled("new"),
        },
        Pair {
            name: "xpp",
            base: at("xpp/base.prf"),
            new: at("xpp/new.prf"),
        },
        Pair {
            name: "vs-csv",
            base: at("vs-csv/base.csv"),
            new: at("vs-csv/new.csv"),
        },
        Pair {
            name: "listing against /T",
            base: at("plist/base.txt"),
            new: at("plist/new-listing.txt"),
        },
        Pair {
            name: "VS summary against a call tree",
            base: "tests/fixtures/vs-csv/function-summary.csv".into(),
            new: at("vs-csv/base.csv"),
        },
    ]
}

fn run(base: &str, new: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["diff", base, new];
    args.extend_from_slice(extra);
    profx(&args)
}

/// `profx diff BASE NEW --json EXTRA`, asserting it exits 0.
fn diff_json(base: &str, new: &str, extra: &[&str]) -> Value {
    let mut args = vec!["--json"];
    args.extend_from_slice(extra);
    let o = run(base, new, &args);
    assert_eq!(o.status.code(), Some(0), "{base} {new}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

fn rows<'v>(doc: &'v Value, key: &str) -> &'v [Value] {
    doc[key].as_array().expect("an array")
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is a number"))
}

/// A function row's key: name and both modules (`null` where it is not
/// in that run), base first.
fn key(r: &Value) -> (String, String, String) {
    let s = |v: &Value| v.as_str().map_or("-".into(), String::from);
    (s(&r["name"]), s(&r["base_module"]), s(&r["new_module"]))
}

/// The rows of the text table (after the heading and the column names).
fn table_rows(text: &str) -> Vec<&str> {
    text.lines()
        .skip_while(|l| l.starts_with('#'))
        .skip(1)
        .collect()
}

#[test]
fn a_run_compared_with_itself_or_a_copy_shows_no_difference() {
    let dir = scratch("diff", "itself");
    let mut files: BTreeSet<String> = BTreeSet::new();
    for p in pairs(&dir) {
        files.insert(p.base);
        files.insert(p.new);
    }
    for (k, file) in files.iter().enumerate() {
        let copy = dir.join(format!("copy-{k}"));
        std::fs::copy(file, &copy).unwrap();
        for other in [file.clone(), copy.to_string_lossy().into_owned()] {
            let doc = diff_json(file, &other, &[]);
            assert_eq!(doc["base"]["totals"], doc["new"]["totals"], "{file}");
            assert_eq!(doc["notes"], serde_json::json!([]), "{file}");
            for r in rows(&doc, "functions") {
                assert_eq!(r["status"], "both", "{file}: {r}");
                assert_eq!(r["paired_by"], "name+module", "{file}: {r}");
                assert_eq!(r["base"], r["new"], "{file}: {r}");
                for (m, d) in r["delta"].as_object().unwrap() {
                    assert_eq!(f(d), 0.0, "{file}: {m} of {r}");
                }
                for (m, x) in r["ratio"].as_object().unwrap() {
                    assert!(x.is_null() || f(x) == 1.0, "{file}: {m} of {r}");
                }
            }
            for key in ["edges", "stacks", "lines"] {
                for r in rows(&doc, key) {
                    assert_eq!(r["status"], "both", "{file}: {r}");
                    assert_eq!(r["base"], r["new"], "{file}: {r}");
                }
            }
            let o = run(file, &other, &["--table"]);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            let text = stdout(&o);
            let changed = regex_free_signed(&text);
            assert!(changed.is_empty(), "{file}: {changed:?}\n{text}");
        }
    }
}

/// The table's rows holding a signed number (`+1`, `-0.5`): a change.
fn regex_free_signed(text: &str) -> Vec<String> {
    table_rows(text)
        .into_iter()
        .filter(|l| {
            l.split_whitespace().any(|w| {
                let mut c = w.chars();
                matches!(c.next(), Some('+' | '-')) && c.next().is_some_and(|d| d.is_ascii_digit())
            })
        })
        .map(String::from)
        .collect()
}

#[test]
fn swapping_base_and_new_swaps_every_value_and_negates_every_change() {
    let dir = scratch("diff", "swap");
    for p in pairs(&dir) {
        let ab = diff_json(&p.base, &p.new, &[]);
        let ba = diff_json(&p.new, &p.base, &[]);
        assert_eq!(ab["base"], ba["new"], "{}", p.name);
        assert_eq!(ab["new"], ba["base"], "{}", p.name);
        let swapped: BTreeMap<(String, String, String), &Value> = rows(&ba, "functions")
            .iter()
            .map(|r| {
                let (n, b, m) = key(r);
                ((n, m, b), r)
            })
            .collect();
        assert_eq!(swapped.len(), rows(&ab, "functions").len(), "{}", p.name);
        for r in rows(&ab, "functions") {
            let s = swapped[&key(r)];
            let flip = match r["status"].as_str().unwrap() {
                "new" => "gone",
                "gone" => "new",
                both => both,
            };
            assert_eq!(s["status"], flip, "{}: {r}", p.name);
            assert_eq!(s["paired_by"], r["paired_by"], "{}: {r}", p.name);
            assert_eq!((&s["base"], &s["new"]), (&r["new"], &r["base"]));
            let (d, e) = (
                r["delta"].as_object().unwrap(),
                s["delta"].as_object().unwrap(),
            );
            assert_eq!(
                d.keys().collect::<Vec<_>>(),
                e.keys().collect::<Vec<_>>(),
                "{}",
                p.name
            );
            for (m, x) in d {
                assert_eq!(f(x), -f(&e[m]), "{}: {m} of {r}", p.name);
            }
        }
        for (what, name) in [
            ("edges", edge_key as fn(&Value) -> String),
            ("stacks", stack_key),
            ("lines", line_key),
        ] {
            let other: BTreeMap<String, &Value> =
                rows(&ba, what).iter().map(|r| (name(r), r)).collect();
            assert_eq!(other.len(), rows(&ab, what).len(), "{} {what}", p.name);
            for r in rows(&ab, what) {
                let s = other[&name(r)];
                assert_eq!((&s["base"], &s["new"]), (&r["new"], &r["base"]));
            }
        }
    }
}

fn edge_key(e: &Value) -> String {
    format!("{} > {}", e["caller"]["name"], e["callee"]["name"])
}

fn line_key(l: &Value) -> String {
    format!("{}:{}", l["file"], l["line"])
}

fn stack_key(s: &Value) -> String {
    let names: Vec<String> = rows(s, "frames")
        .iter()
        .map(|f| f["name"].to_string())
        .collect();
    names.join(";")
}

/// Each side's functions, edges, stacks, totals and query are what
/// `report --json` gives for that side with the same query, value for
/// value.
#[test]
fn each_sides_values_are_report_jsons_for_it() {
    let dir = scratch("diff", "report");
    let mut cases: Vec<(String, String, Vec<&str>)> = pairs(&dir)
        .into_iter()
        .map(|p| (p.base, p.new, vec![]))
        .collect();
    let xpp = |rel: &str| format!("{DIR}/xpp/{rel}");
    for q in [
        vec!["--drop", "FETCH"],
        vec!["--thread", "1"],
        vec!["--from", "10", "--until", "60"],
        vec!["--focus", "READITEM", "--merge", "FNPRICE"],
    ] {
        cases.push((xpp("base.prf"), xpp("new.prf"), q));
    }
    for (base, new, q) in &cases {
        let doc = diff_json(base, new, q);
        for (side, file) in [("base", base), ("new", new)] {
            let report = report_json(file, q);
            let d = &doc[side];
            for k in ["sources", "format", "totals", "query"] {
                assert_eq!(d[k], report[k], "{file} {q:?}: {k}");
            }
            assert_eq!(d["time_unit"], report["meta"]["time_unit"]);
            let mine: Vec<&Value> = rows(&doc, "functions")
                .iter()
                .filter(|r| !r[side].is_null())
                .map(|r| &r[side])
                .collect();
            let mut theirs: Vec<&Value> = rows(&report, "functions").iter().collect();
            let by_name = |v: &&Value| (v["name"].to_string(), v["module"].to_string());
            let mut mine = mine;
            mine.sort_by_key(by_name);
            theirs.sort_by_key(by_name);
            assert_eq!(mine, theirs, "{file} {q:?}");
            // Byte for byte: the same text once written.
            let text = |v: &[&Value]| serde_json::to_string(v).unwrap();
            assert_eq!(text(&mine), text(&theirs));
            let values = |r: &Value, keys: &[&str]| -> Value {
                keys.iter()
                    .map(|&k| (k.to_string(), r[k].clone()))
                    .collect()
            };
            for (what, keys, name) in [
                (
                    "edges",
                    &["calls", "hits", "elapsed_inclusive_ms"][..],
                    edge_key as fn(&Value) -> String,
                ),
                ("stacks", &["hits", "self_ms", "child_ms"][..], stack_key),
                ("lines", &["function", "hits", "time_ms"][..], line_key),
            ] {
                let mine: BTreeSet<(String, String)> = rows(&doc, what)
                    .iter()
                    .filter(|r| !r[side].is_null())
                    .map(|r| (name(r), r[side].to_string()))
                    .collect();
                let theirs: BTreeSet<(String, String)> = rows(&report, what)
                    .iter()
                    .map(|r| (name(r), values(r, keys).to_string()))
                    .collect();
                // Frames are named by the new run where modules differ.
                if !rows(&doc, "functions")
                    .iter()
                    .any(|r| r["paired_by"] == "name")
                {
                    assert_eq!(mine, theirs, "{file} {q:?}: {what}");
                }
                assert_eq!(mine.len(), theirs.len(), "{file} {q:?}: {what}");
            }
        }
    }
}

#[test]
fn shares_add_up() {
    let dir = scratch("diff", "shares");
    for p in pairs(&dir) {
        let doc = diff_json(&p.base, &p.new, &[]);
        let key = "elapsed_exclusive_pct";
        let sum = |side: &str| -> f64 {
            rows(&doc, "functions")
                .iter()
                .filter_map(|r| r[side][key].as_f64())
                .sum()
        };
        let delta: f64 = rows(&doc, "functions")
            .iter()
            .filter_map(|r| r["delta"][key].as_f64())
            .sum();
        for (side, file) in [("base", &p.base), ("new", &p.new)] {
            let report = report_json(file, &[]);
            let theirs: f64 = rows(&report, "functions")
                .iter()
                .filter_map(|r| r[key].as_f64())
                .sum();
            assert!((sum(side) - theirs).abs() < 1e-9, "{} {side}", p.name);
            // A trace's or a log's functions share every moment of the run.
            if ["xpp", "br"].contains(&p.name) {
                assert!((sum(side) - 100.0).abs() < 1e-9, "{} {side}", p.name);
            }
        }
        assert!(
            (delta - (sum("new") - sum("base"))).abs() < 1e-9,
            "{}: Σ Δ {delta} against {} − {}",
            p.name,
            sum("new"),
            sum("base")
        );
    }
}

fn row<'v>(doc: &'v Value, name: &str) -> &'v Value {
    rows(doc, "functions")
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no row {name}"))
}

#[test]
fn functions_paired_by_name_alone_are_marked() {
    let (base, new) = (
        format!("{DIR}/plist/base.txt"),
        format!("{DIR}/plist/new.txt"),
    );
    let doc = diff_json(&base, &new, &[]);
    let r = row(&doc, "ApplyDiscount(struct Order *, double)");
    assert_eq!(r["status"], "both");
    assert_eq!(r["paired_by"], "name");
    assert_eq!(
        (&r["base_module"], &r["new_module"], &r["module"]),
        (
            &"pricing.obj".into(),
            &"discount.obj".into(),
            &"discount.obj".into()
        )
    );
    assert_eq!(f(&r["delta"]["elapsed_inclusive_ms"]), 196.88);
    assert!(
        rows(&doc, "notes")[0]
            .as_str()
            .unwrap()
            .contains("1 function paired by name")
    );
    let o = run(&base, &new, &[]);
    let text = stdout(&o);
    assert!(
        text.contains("pricing.obj → discount.obj · by name"),
        "{text}"
    );
    assert!(
        text.contains("# note: 1 function paired by name alone"),
        "{text}"
    );
    // A listing names no module for `main` where the `/T` file does.
    let listing = format!("{DIR}/plist/new-listing.txt");
    let doc = diff_json(&new, &listing, &[]);
    let main = row(&doc, "main");
    assert_eq!(
        (&main["paired_by"], &main["new_module"]),
        (&"name".into(), &"".into())
    );
}

/// A function of one run is marked new or gone and compares against 0.
#[test]
fn functions_of_one_run_are_new_or_gone_against_0() {
    let (base, new) = (
        format!("{DIR}/plist/base.txt"),
        format!("{DIR}/plist/new.txt"),
    );
    let doc = diff_json(&base, &new, &[]);
    let v = row(&doc, "ValidateOrder(struct Order *)");
    assert_eq!(
        (&v["status"], &v["base"], &v["base_module"]),
        (&"new".into(), &Value::Null, &Value::Null)
    );
    assert_eq!(f(&v["delta"]["elapsed_inclusive_ms"]), 412.5);
    assert_eq!(v["delta"]["calls"], 3010);
    assert!(v["ratio"]["calls"].is_null());
    let w = row(&doc, "WriteInvoice(struct Order const &)");
    assert_eq!((&w["status"], &w["new"]), (&"gone".into(), &Value::Null));
    assert_eq!(f(&w["delta"]["elapsed_exclusive_ms"]), -1373.4);
    assert_eq!(f(&w["ratio"]["elapsed_exclusive_ms"]), 0.0);
    let text = stdout(&run(&base, &new, &[]));
    assert!(text.contains("orders.obj · new"), "{text}");
    assert!(text.contains("store.obj · gone"), "{text}");
}

/// A function's change: its name, the metric, by how much.
type Change<'a> = (&'a str, &'a str, f64);

/// What each pair's runs differ by, as the fixtures were made.
#[test]
fn pairs_of_every_format_compare() {
    let dir = scratch("diff", "formats");
    let want: &[(&str, &[Change])] = &[
        (
            "plist",
            &[(
                "LookupTariff(int, const char *)",
                "elapsed_inclusive_ms",
                590.3,
            )],
        ),
        (
            "br",
            &[
                ("FNTAX", "elapsed_inclusive_ms", 1.0),
                ("FNROUND", "hits_total", 1.0),
            ],
        ),
        (
            "xpp",
            &[
                ("WRITEDBF", "elapsed_inclusive_ms", 10.0),
                ("MAIN", "elapsed_inclusive_ms", 10.0),
                ("PARSE", "calls", -3.0),
                ("DECODE", "elapsed_inclusive_ms", 19.0),
            ],
        ),
        (
            "vs-csv",
            &[
                ("Report.Print()", "elapsed_inclusive_ms", -199.25),
                ("Db.Query(string)", "application_inclusive_ms", 112.0),
                ("Cache.Get(string)", "calls", 20.0),
            ],
        ),
    ];
    let all = pairs(&dir);
    for (name, changes) in want {
        let p = all.iter().find(|p| p.name == *name).unwrap();
        let doc = diff_json(&p.base, &p.new, &[]);
        for (func, metric, d) in *changes {
            let r = row(&doc, func);
            assert_eq!(f(&r["delta"][metric]), *d, "{name}: {func} {metric}");
        }
        let text = stdout(&run(&p.base, &p.new, &[]));
        assert!(text.starts_with("# comparison: "), "{text}");
        assert_eq!(
            table_rows(&text).len(),
            rows(&doc, "functions").len(),
            "{text}"
        );
    }
    // The same run written two ways: every function's times agree (the
    // call tree counts a recursive call's row among the calls).
    for name in ["VS summary against a call tree"] {
        let p = all.iter().find(|p| p.name == name).unwrap();
        let doc = diff_json(&p.base, &p.new, &[]);
        for r in rows(&doc, "functions") {
            assert_eq!(r["status"], "both", "{name}: {r}");
            for m in [
                "elapsed_inclusive_ms",
                "elapsed_exclusive_ms",
                "application_inclusive_ms",
            ] {
                assert_eq!(f(&r["delta"][m]), 0.0, "{name}: {m} of {r}");
            }
        }
    }
    let new = format!("{DIR}/plist/new.txt");
    let listing = format!("{DIR}/plist/new-listing.txt");
    let doc = diff_json(&new, &listing, &[]);
    assert_eq!(doc["base"]["format"], doc["new"]["format"]);
    for r in rows(&doc, "functions") {
        assert_eq!(r["status"], "both", "{r}");
        for m in ["calls", "elapsed_inclusive_ms", "elapsed_exclusive_ms"] {
            assert_eq!(f(&r["delta"][m]), 0.0, "{m} of {r}");
        }
    }
    // A listing states no stack: the `/T` file's are gone from it.
    assert!(rows(&doc, "stacks").iter().all(|s| s["status"] == "gone"));
}

fn folded_lines(text: &str) -> Vec<(String, u64, u64)> {
    text.lines()
        .map(|l| {
            let mut it = l.rsplitn(3, ' ');
            let new = it
                .next()
                .unwrap()
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("{l}"));
            let base = it
                .next()
                .unwrap()
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("{l}"));
            (it.next().unwrap().to_string(), base, new)
        })
        .collect()
}

#[test]
fn the_folded_export_is_stack_base_new_and_inferno_draws_it() {
    let dir = scratch("diff", "folded");
    for p in pairs(&dir) {
        let o = run(&p.base, &p.new, &["--to", "folded", "-o", "-"]);
        assert_eq!(o.status.code(), Some(0), "{}: {}", p.name, stderr(&o));
        let text = stdout(&o);
        let lines = folded_lines(&text);
        assert!(!lines.is_empty(), "{}", p.name);
        assert!(lines.iter().all(|l| l.1 + l.2 > 0), "{}: {text}", p.name);
        let by_name = {
            let doc = diff_json(&p.base, &p.new, &[]);
            rows(&doc, "functions")
                .iter()
                .any(|r| r["paired_by"] == "name")
        };
        // Each column is that run's own folded export.
        for (k, file) in [&p.base, &p.new].into_iter().enumerate() {
            let e = profx(&["export", file, "--to", "folded", "-o", "-"]);
            assert_eq!(e.status.code(), Some(0), "{}", stderr(&e));
            let own: BTreeMap<String, u64> = stdout(&e)
                .lines()
                .map(|l| {
                    let (s, n) = l.rsplit_once(' ').unwrap();
                    (s.to_string(), n.parse().unwrap())
                })
                .collect();
            let column: BTreeMap<String, u64> = lines
                .iter()
                .map(|l| (l.0.clone(), if k == 0 { l.1 } else { l.2 }))
                .filter(|l| l.1 > 0)
                .collect();
            assert_eq!(
                column.values().sum::<u64>(),
                own.values().sum::<u64>(),
                "{} {file}",
                p.name
            );
            if !by_name {
                assert_eq!(column, own, "{} {file}", p.name);
            }
        }
        let mut opts = inferno::flamegraph::Options::default();
        let mut svg = Vec::new();
        inferno::flamegraph::from_lines(&mut opts, text.lines(), &mut svg)
            .unwrap_or_else(|e| panic!("{}: inferno: {e}", p.name));
        assert!(!svg.is_empty());
    }
    // Written to a file, atomically, saying what it wrote.
    let out = dir.join("diff.folded");
    let o = run(
        &format!("{DIR}/xpp/base.prf"),
        &format!("{DIR}/xpp/new.prf"),
        &["--to", "folded", "-o", out.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("profx: wrote 10 stacks"),
        "{}",
        stderr(&o)
    );
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .contains("WORKER;FETCH;PARSE 19000 0\n")
    );
}

#[test]
fn the_csv_export_compares_functions() {
    let (base, new) = (
        format!("{DIR}/plist/base.txt"),
        format!("{DIR}/plist/new.txt"),
    );
    let o = run(&base, &new, &["--to", "csv", "-o", "-"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut r = csv::Reader::from_reader(&o.stdout[..]);
    let head: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        head[..9],
        [
            "name",
            "module",
            "status",
            "paired_by",
            "base_module",
            "new_module",
            "base_calls",
            "new_calls",
            "delta_calls"
        ]
    );
    let records: Vec<Vec<String>> = r
        .records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect();
    let doc = diff_json(&base, &new, &[]);
    assert_eq!(records.len(), rows(&doc, "functions").len());
    let v = records
        .iter()
        .find(|x| x[0] == "ValidateOrder(struct Order *)")
        .unwrap();
    assert_eq!(v[2..9], ["new", "", "", "orders.obj", "", "3010", "3010"]);
}

const PLIST_BASE: &str = "tests/fixtures/diff/plist/base.txt";
const PLIST_NEW: &str = "tests/fixtures/diff/plist/new.txt";

#[test]
fn fail_if_exits_3_naming_each_condition_that_held() {
    let slower = "incl(LookupTariff(int, const char *)) > +10%";
    let o = run(PLIST_BASE, PLIST_NEW, &["--fail-if", slower]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("profx: --fail-if {slower}: held:")),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("+590.3 ms (+20.01%)"), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("# comparison: "),
        "the table is printed too"
    );
    let o = run(
        PLIST_BASE,
        PLIST_NEW,
        &["--fail-if", "incl(LookupTariff(int, const char *)) > +50%"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Several: each that held is named, the others not.
    let o = run(
        PLIST_BASE,
        PLIST_NEW,
        &[
            "--fail-if",
            "total < -4%",
            "--fail-if",
            "self(main) > +1 ms",
            "--fail-if",
            "calls(ValidateOrder(struct Order *)) >= 3000",
            "--fail-if",
            "share(LookupTariff(int, const char *)) > +10",
        ],
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("--fail-if total < -4%: held"), "{err}");
    assert!(!err.contains("self(main)"), "{err}");
    assert!(
        err.contains("calls(ValidateOrder(struct Order *)) >= 3000: held"),
        "{err}"
    );
    assert!(
        err.contains("share(LookupTariff(int, const char *)) > +10: held"),
        "{err}"
    );
    // --json lists every condition, its values and whether it held.
    let o = run(
        PLIST_BASE,
        PLIST_NEW,
        &["--json", "--fail-if", slower, "--fail-if", "total > +1%"],
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let c = rows(&doc, "conditions");
    assert_eq!(
        (c.len(), &c[0]["condition"], &c[0]["held"]),
        (2, &slower.into(), &true.into())
    );
    assert_eq!(
        (&c[1]["held"], &c[1]["values"][0]["metric"]),
        (&false.into(), &"total_ms".into())
    );
    let v = &c[0]["values"][0];
    assert_eq!(
        (f(&v["base"]), f(&v["new"]), f(&v["delta"])),
        (2950.7, 3541.0, 590.3)
    );
}

#[test]
fn a_bad_condition_is_a_usage_error_and_an_unreadable_side_is_named() {
    for bad in [
        "incl(F) = 1",
        "incl(F) > 10 furlongs",
        "mean(F) > 1",
        "incl(LookupTarif) > 1",
    ] {
        let o = run(PLIST_BASE, PLIST_NEW, &["--fail-if", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains("--fail-if"), "{}", stderr(&o));
        assert!(o.stdout.is_empty(), "nothing is shown as a comparison");
    }
    let o = run(
        PLIST_BASE,
        PLIST_NEW,
        &["--fail-if", "incl(LookupTarif) > 1"],
    );
    assert!(stderr(&o).contains("the closest are \"LookupTariff(int, const char *)\""));
    // A bad condition is refused before any side is read.
    let o = run("no-such-file", PLIST_NEW, &["--fail-if", "incl(F) ="]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let dir = scratch("diff", "unreadable");
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let empty = empty.to_str().unwrap();
    for (base, new, side, why) in [
        ("no-such-file", PLIST_NEW, "base", "cannot read"),
        (PLIST_BASE, empty, "new", "the file is empty"),
        (PLIST_BASE, "Cargo.toml", "new", "not a format profx knows"),
    ] {
        let o = run(base, new, &["--fail-if", "total > +1%"]);
        assert_eq!(o.status.code(), Some(1), "{base} {new}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.starts_with(&format!("profx: error: {side}: ")), "{err}");
        assert!(err.contains(why), "{err}");
        assert!(o.stdout.is_empty(), "nothing is shown as a comparison");
    }
}

/// The query applies to both sides (model.md § Queries, the policy for
/// two sides).
#[test]
fn the_query_applies_to_each_side() {
    let (base, new) = (format!("{DIR}/xpp/base.prf"), format!("{DIR}/xpp/new.prf"));
    // PARSE is the base's only: dropped there, left out of the new side.
    let doc = diff_json(&base, &new, &["--drop", "PARSE"]);
    assert_eq!(doc["base"]["query"]["steps"][0]["op"], "drop");
    assert_eq!(doc["new"]["query"]["steps"], serde_json::json!([]));
    let notes = doc["new"]["query"]["notes"].to_string();
    assert!(
        notes.contains("step 1 (drop PARSE) is left out of this side"),
        "{notes}"
    );
    assert!(rows(&doc, "functions").iter().all(|r| r["name"] != "PARSE"));
    let text = stdout(&run(&base, &new, &["--drop", "PARSE"]));
    assert!(
        text.contains("# new note: step 1 (drop PARSE) is left out"),
        "{text}"
    );
    // Neither has it: a usage error.
    let o = run(&base, &new, &["--drop", "NOPE"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("names what neither side has"),
        "{}",
        stderr(&o)
    );
    // A thread, looked up on each side.
    let doc = diff_json(&base, &new, &["--thread", "2"]);
    for side in ["base", "new"] {
        assert_eq!(doc[side]["query"]["threads"], serde_json::json!([2]));
    }
    assert!(rows(&doc, "functions").iter().all(|r| r["name"] != "MAIN"));
    let o = run(&base, PLIST_NEW, &["--thread", "2"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("profx: error: new: "),
        "{}",
        stderr(&o)
    );
    // A range, each side in its own clock.
    let doc = diff_json(&base, &new, &["--from", "10", "--until", "60"]);
    for side in ["base", "new"] {
        let r = &doc[side]["query"]["range"];
        assert_eq!((f(&r["from_ms"]), f(&r["to_ms"])), (10.0, 60.0));
    }
    let o = run(PLIST_BASE, &new, &["--from", "10"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("profx: error: base: a time range"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn runs_with_no_function_in_common_compare_saying_so() {
    let (base, new) = (
        format!("{DIR}/xpp/base.prf"),
        format!("{DIR}/vs-csv/base.csv"),
    );
    let doc = diff_json(&base, &new, &[]);
    assert!(
        rows(&doc, "functions")
            .iter()
            .all(|r| r["status"] != "both")
    );
    assert!(
        doc["notes"][0]
            .as_str()
            .unwrap()
            .contains("no function in common")
    );
    let o = run(&base, &new, &[]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("# note: the two runs have no function in common"));
}

#[test]
fn sides_in_different_units_need_the_clock() {
    let ticks = "tests/fixtures/vs-csv/command-line-call-tree.csv";
    let ms = format!("{DIR}/vs-csv/base.csv");
    let o = run(ticks, &ms, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--clock-mhz"), "{}", stderr(&o));
    let doc = diff_json(ticks, &ms, &["--clock-mhz", "2400"]);
    assert_eq!(
        (&doc["base"]["time_unit"], &doc["new"]["time_unit"]),
        (&"ms".into(), &"ms".into())
    );
    assert_eq!(f(&doc["base"]["totals"]["elapsed_inclusive_ms"]), 2000.0);
    // A clock for runs with no ticks means nothing.
    let o = run(&ms, &ms, &["--clock-mhz", "2400"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// Without a terminal (as here) the table is printed, sorted by the
/// largest change, and nothing on stderr (a terminal opens the app).
#[test]
fn without_a_terminal_the_table_is_printed() {
    let (base, new) = (format!("{DIR}/xpp/base.prf"), format!("{DIR}/xpp/new.prf"));
    let o = run(&base, &new, &[]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[1]
            .starts_with("# base: tests/fixtures/diff/xpp/base.prf (xpp, ms) · the whole profile")
    );
    assert!(lines[2].contains("· Δ +10.000 ms (×1.067)"), "{text}");
    let first: Vec<&str> = table_rows(&text)
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(first[..2], ["DECODE", "PARSE"], "{text}");
    let top = stdout(&run(&base, &new, &["--sort", "name", "--top", "2"]));
    let first: Vec<&str> = table_rows(&top)
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(first, ["DECODE", "FETCH"], "{top}");
}

#[test]
fn options_that_do_not_go_together_are_usage_errors() {
    let (base, new) = (format!("{DIR}/xpp/base.prf"), format!("{DIR}/xpp/new.prf"));
    for args in [
        &["--weight", "time"][..],
        &["--to", "csv", "-o", "-", "--weight", "time"],
        &["--json", "--table"],
        &["--to", "folded"],
        &["-o", "x.folded"],
        &[
            "--to",
            "folded",
            "-o",
            "tests/fixtures/diff/xpp/new.prf",
            "--force",
        ],
    ] {
        let o = run(&base, &new, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
    let o = profx(&["diff", "-", "-"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// A share that held is written as the tables write percents, two
/// decimals, never a float's every digit.
#[test]
fn a_share_that_held_is_written_with_two_decimals() {
    let o = common::profx(&[
        "diff",
        "tests/fixtures/diff/xpp/base.prf",
        "tests/fixtures/diff/xpp/new.prf",
        "--fail-if",
        "share(DECODE) > +1%",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", common::stderr(&o));
    let err = common::stderr(&o);
    assert!(
        err.contains("base 0.00 %, new 11.88 %, change +11.88 %"),
        "{err}"
    );
}
