//! `profx report --table`'s order, through the real binary: each view
//! lists its rows in the order the app's pane opens in, `--top N` the first
//! N of them, and the heading names that order. `--json` keeps its
//! canonical order (the format snapshots hold it).

mod common;

use common::{profx, report_json, stderr, stdout};

const LINE_COUNTING: &str = "tests/fixtures/plist/line-counting.txt";
const FUNCTION_COVERAGE: &str = "tests/fixtures/plist/function-coverage.txt";

/// `profx report ARGS`, asserting it exits 0.
fn table(args: &[&str]) -> String {
    let mut all = vec!["report"];
    all.extend_from_slice(args);
    let o = profx(&all);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The table's rows (heading and column headers left out), each as its
/// cells; fine for names without spaces.
fn rows(table: &str) -> Vec<Vec<&str>> {
    table
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect())
        .collect()
}

/// The demo's lines, by the canonical order, are the BR files' lines in
/// file order; the three with the most time are elsewhere.
#[test]
fn lines_top_3_are_the_three_hottest() {
    let out = table(&["--demo", "--view", "lines", "--top", "3"]);
    let json = report_json("--demo", &[]);
    let mut lines: Vec<(f64, String, u64)> = json["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["time_ms"].as_f64().unwrap(),
                l["file"].as_str().unwrap().to_string(),
                l["line"].as_u64().unwrap(),
            )
        })
        .collect();
    lines.sort_by(|a, b| b.0.total_cmp(&a.0));
    assert!(lines[2].0 > lines[3].0, "the demo's third line is not tied");
    let want: Vec<(String, String)> = lines[..3]
        .iter()
        .map(|(_, file, line)| (file.clone(), line.to_string()))
        .collect();
    let got: Vec<(String, String)> = rows(&out)
        .iter()
        .map(|r| (r[0].to_string(), r[1].to_string()))
        .collect();
    assert_eq!(got, want, "{out}");
    assert!(
        out.starts_with("# lines: 3 of 61 · sorted by time_ms desc"),
        "{out}"
    );
    insta::assert_snapshot!("table-demo-lines-top-3", out);
}

#[test]
fn functions_top_1_is_the_largest_inclusive_time() {
    let out = table(&["--demo", "--top", "1"]);
    let json = report_json("--demo", &[]);
    let heaviest = json["functions"]
        .as_array()
        .unwrap()
        .iter()
        .max_by(|a, b| {
            let t = |f: &serde_json::Value| f["elapsed_inclusive_ms"].as_f64().unwrap();
            t(a).total_cmp(&t(b))
        })
        .unwrap();
    let rows = rows(&out);
    assert_eq!(rows.len(), 1, "{out}");
    assert_eq!(rows[0][0], heaviest["name"].as_str().unwrap(), "{out}");
    assert!(
        out.starts_with("# functions: 1 of 10 · sorted by elapsed_inclusive_ms desc"),
        "{out}"
    );
}

/// Whole tables of the demo's views, and of the fallbacks, as reviewed.
#[test]
fn tables_as_reviewed() {
    for (name, args) in [
        ("table-demo-functions", &["--demo"][..]),
        ("table-demo-stacks", &["--demo", "--view", "stacks"]),
        (
            "table-line-counting-lines",
            &[LINE_COUNTING, "--view", "lines"],
        ),
        ("table-function-coverage", &[FUNCTION_COVERAGE]),
    ] {
        insta::assert_snapshot!(name, table(args));
    }
}

/// Each view's heading names its order: the app's default column where
/// the profile has it, the next the app falls back to where it does not
/// (lines with hits and no times, functions with calls only), the other
/// way with `--reverse`.
#[test]
fn the_heading_names_the_order() {
    for (args, heading) in [
        (
            &["--demo"][..],
            "# functions: 10 of 10 · sorted by elapsed_inclusive_ms desc",
        ),
        (
            &["--demo", "--view", "lines"],
            "# lines: 61 of 61 · sorted by time_ms desc",
        ),
        (
            &["--demo", "--view", "stacks"],
            "# stacks: 10 of 10 · sorted by self_ms desc",
        ),
        (
            &["--demo", "--view", "lines", "--reverse", "--top", "2"],
            "# lines: 2 of 61 · sorted by time_ms asc",
        ),
        (
            &["--demo", "--sort", "hits_self", "--top", "2"],
            "# functions: 2 of 10 · sorted by hits_self desc",
        ),
        (
            &[LINE_COUNTING, "--view", "lines"],
            "# lines: 5 of 5 · sorted by hits desc",
        ),
        (
            &[FUNCTION_COVERAGE],
            "# functions: 3 of 3 · sorted by calls desc",
        ),
    ] {
        let out = table(args);
        assert!(out.starts_with(heading), "{args:?}: {out}");
    }
    let reversed = table(&["--demo", "--view", "lines", "--reverse", "--top", "2"]);
    let times: Vec<f64> = rows(&reversed)
        .iter()
        .map(|r| r[4].parse().unwrap())
        .collect();
    assert!(times[0] <= times[1], "{reversed}");
}

/// `--sort` by a column the profile has no values in is a usage error that
/// lists the columns it has values in; so is an unknown column.
#[test]
fn sorting_by_an_absent_column_lists_the_present_ones() {
    let present = "columns with values: name, module, hits_self, hits_self_pct, hits_total, \
                   hits_total_pct, elapsed_inclusive_ms, elapsed_inclusive_pct, \
                   elapsed_exclusive_ms, elapsed_exclusive_pct)";
    for (args, said) in [
        (
            &["report", "--demo", "--sort", "calls"][..],
            "the functions view's column \"calls\" has no values in this profile",
        ),
        (
            &["report", "--demo", "--sort", "nope"],
            "no column \"nope\" in the functions view",
        ),
    ] {
        let o = profx(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(err.contains(present), "{args:?}: {err}");
    }
    let o = profx(&[
        "report",
        LINE_COUNTING,
        "--view",
        "lines",
        "--sort",
        "time_ms",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("(columns with values: file, line, hits)"),
        "{}",
        stderr(&o)
    );
    let o = profx(&[
        "report",
        LINE_COUNTING,
        "--view",
        "stacks",
        "--sort",
        "hits",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("(this profile has no stacks)"),
        "{}",
        stderr(&o)
    );
}

/// `--view threads` is a table like the others: a trace's threads, the
/// busiest first, each row's numbers `--json`'s `threads` (its heaviest
/// function read from the calls in time order); `--sort` and `--top` cut
/// it; a profile of one implicit thread says it has none.
#[test]
fn the_threads_view_is_a_table_of_the_threads() {
    let trace = "tests/fixtures/xpp/orders-run.prf";
    let out = table(&[trace, "--view", "threads"]);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("# threads: 2 of 2 · sorted by busy_ms desc"),
        "{out}"
    );
    assert!(
        lines
            .next()
            .is_some_and(|h| h.starts_with("Thread  First ms"))
    );
    let json = report_json(trace, &[]);
    let threads = json["threads"].as_array().unwrap();
    let mut busiest: Vec<&serde_json::Value> = threads.iter().collect();
    busiest.sort_by(|a, b| {
        b["busy_ms"]
            .as_f64()
            .unwrap()
            .total_cmp(&a["busy_ms"].as_f64().unwrap())
    });
    let shown = rows(&out);
    assert_eq!(shown.len(), threads.len(), "{out}");
    for (row, t) in shown.iter().zip(&busiest) {
        assert_eq!(row[0], t["id"].to_string(), "{out}");
        assert_eq!(row[4], t["events"].to_string(), "{out}");
        assert_eq!(row[5], t["calls"].to_string(), "{out}");
    }
    assert_eq!(shown[0][7], "FNPRICE", "thread 1's heaviest: {out}");
    let top = table(&[
        trace,
        "--view",
        "threads",
        "--sort",
        "id",
        "--reverse",
        "--top",
        "1",
    ]);
    assert_eq!(rows(&top).len(), 1, "{top}");
    assert_eq!(rows(&top)[0][0], "1", "{top}");
    let none = table(&["--demo", "--view", "threads"]);
    assert!(none.starts_with("# threads: none"), "{none}");
}

/// A number as the table writes it (`1,234.567`, `—`).
fn number(cell: &str) -> Option<f64> {
    cell.replace(',', "").parse().ok()
}

/// `--view modules`: a row a module, heaviest first by inclusive time;
/// a module's exclusive time is its functions' summed, its inclusive time
/// the `--collapse-module M` profile's inclusive time of M (model.md §
/// Modules); `--json` is the whole model as for every table view; a trace
/// whose functions name no module says it has none.
#[test]
fn the_modules_view_is_a_table_of_the_modules() {
    let out = table(&["--demo", "--view", "modules"]);
    let mut lines = out.lines();
    let first = lines.next().expect("a heading");
    assert!(
        first.starts_with("# modules: 3 of 3 · sorted by elapsed_inclusive_ms desc · % of"),
        "{out}"
    );
    assert!(
        lines.next().is_some_and(|h| h.starts_with("Module")),
        "{out}"
    );
    let json = report_json("--demo", &[]);
    let functions = json["functions"].as_array().unwrap();
    let shown = rows(&out);
    assert_eq!(shown.len(), 3, "{out}");
    let mut last = f64::INFINITY;
    for row in &shown {
        // Module, Incl ms, Incl %, Excl ms, Excl %, … , Functions: the demo
        // (a BR log) records no calls.
        let (module, n) = (row[0], row.len());
        let (incl, excl) = (number(row[1]).unwrap(), number(row[3]).unwrap());
        assert!(incl <= last, "heaviest first: {out}");
        last = incl;
        let of: Vec<&serde_json::Value> =
            functions.iter().filter(|f| f["module"] == module).collect();
        assert_eq!(
            row[n - 1],
            of.len().to_string(),
            "{module}'s functions: {out}"
        );
        let sum: f64 = of
            .iter()
            .map(|f| f["elapsed_exclusive_ms"].as_f64().unwrap())
            .sum();
        assert!((excl - sum).abs() < 5e-4, "{module}: {excl} vs {sum}");
        let collapsed = report_json("--demo", &["--collapse-module", module]);
        let m = collapsed["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == module && f["module"] == module)
            .expect("the collapsed module");
        let want = m["elapsed_inclusive_ms"].as_f64().unwrap();
        assert!((incl - want).abs() < 5e-4, "{module}: {incl} vs {want}");
    }
    insta::assert_snapshot!("table-demo-modules", out);
    let whole = table(&["--demo", "--json"]);
    assert_eq!(table(&["--demo", "--view", "modules", "--json"]), whole);
    let top = table(&[
        "--demo", "--view", "modules", "--sort", "module", "--top", "1",
    ]);
    assert_eq!(rows(&top).len(), 1, "{top}");
    assert!(
        top.starts_with("# modules: 1 of 3 · sorted by module asc"),
        "{top}"
    );
    let none = table(&["tests/fixtures/xpp/orders-run.prf", "--view", "modules"]);
    assert!(none.starts_with("# modules: none"), "{none}");
}
