//! `profx report` on Visual Studio CSV reports, through the real binary.

mod common;

use common::{
    assert_warnings, function, profx, real_file, report_json, stack_frames, stderr, stdout,
};
use std::collections::HashSet;

const FIXTURES: &[&str] = &[
    "function-summary",
    "call-tree",
    "ide-call-tree",
    "caller-callee",
    "sampling",
    "percents-only",
    "decimal-comma",
    "level-jump",
    "exclusive-above-inclusive",
    "percent-out-of-range",
    "hits-self-above-total",
    "negative-time",
    "overflowing-value",
    "caller-without-own-row",
    "threads-entry-point-35-percent",
    "unlisted-time",
    "recursive-zero-inclusive",
    "command-line-call-tree",
    "percent-rounding",
];

/// A run of several threads whose entry point holds 35 % of the session:
/// the session total is what the file's percents imply (3500 ms at 35 %),
/// not the largest inclusive time, and every percent agrees with the file's.
#[test]
fn a_session_of_several_threads_keeps_the_total_its_percents_imply() {
    let r = report_json(&fixture("threads-entry-point-35-percent"), &[]);
    assert_eq!(r["totals"]["elapsed_inclusive_ms"], 10000.0);
    let pct = |name: &str| {
        function(&r, name, None)["elapsed_inclusive_pct"]
            .as_f64()
            .unwrap()
    };
    assert!((pct("_mainCRTStartup") - 35.0).abs() < 1e-9);
    assert!((pct("WorkerThread()") - 30.0).abs() < 1e-9);
    assert!((pct("Work()") - 34.0).abs() < 1e-9);
}

/// Numbers that cannot be true are kept as the file states them, and each
/// gets a warning at its line; a value too large for any number is a row
/// skipped with its reason, never a silent loss.
#[test]
fn impossible_numbers_are_never_silent() {
    let cases: &[(&str, &[(&str, &str)])] = &[
        (
            "exclusive-above-inclusive",
            &[("line 3", "impossible_value")],
        ),
        (
            "recursive-zero-inclusive",
            &[("line 5", "impossible_value")],
        ),
        (
            "percent-out-of-range",
            &[
                ("line 3", "impossible_value"),
                ("line 3", "impossible_value"),
            ],
        ),
        ("hits-self-above-total", &[("line 3", "impossible_value")]),
        (
            "negative-time",
            &[
                ("line 3", "impossible_value"),
                ("line 3", "impossible_value"),
            ],
        ),
        ("overflowing-value", &[("line 3", "number_too_large")]),
        ("caller-without-own-row", &[]),
    ];
    for (name, expected) in cases {
        assert_warnings(name, &report_json(&fixture(name), &[]), expected);
    }
}

/// A caller or callee with no Root row of its own is still a function,
/// with every value absent; `Type` words are read in any case.
#[test]
fn a_caller_without_its_own_row_is_a_function_with_absent_values() {
    let r = report_json(&fixture("caller-without-own-row"), &[]);
    let helper = function(&r, "Helper()", None);
    assert_eq!(helper["module"], "lib.dll");
    for key in [
        "calls",
        "elapsed_inclusive_ms",
        "elapsed_exclusive_ms",
        "elapsed_inclusive_pct",
    ] {
        assert_eq!(helper[key], serde_json::Value::Null, "{key}");
    }
    // Its edges are stated, not call paths.
    assert_eq!(r["totals"]["stacks"], 0);
    assert_eq!(r["edges"].as_array().map(Vec::len), Some(2));
}

/// VS writes 0 inclusive on a recursive row: its stack's child time,
/// inclusive less exclusive, would be negative and is absent; the file's
/// own numbers (its exclusive time) stay as stated.
#[test]
fn a_recursive_row_with_no_inclusive_time_has_no_child_time() {
    let r = report_json(&fixture("recursive-zero-inclusive"), &[]);
    let frames = stack_frames(&r);
    let depth = |n: usize| {
        let at = frames
            .iter()
            .position(|f| f.len() == n)
            .expect("a stack that deep");
        &r["stacks"][at]
    };
    assert_eq!(depth(3)["child_ms"], serde_json::Value::Null);
    assert_eq!(depth(3)["self_ms"], 1200.0);
    assert_eq!(depth(2)["child_ms"], 1200.0);
    let out = stdout(&profx(&[
        "report",
        &fixture("recursive-zero-inclusive"),
        "--view",
        "stacks",
    ]));
    let row = out
        .lines()
        .find(|l| l.contains("Walk() > Walk()"))
        .expect("the recursive stack's row");
    assert!(row.contains('—') && !row.contains("-1,200"), "{out}");
}

fn fixture(name: &str) -> String {
    format!("tests/fixtures/vs-csv/{name}.csv")
}

#[test]
fn json_of_every_fixture_matches_its_reviewed_snapshot() {
    for name in FIXTURES {
        let o = profx(&["report", &fixture(name), "--json"]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        insta::assert_snapshot!(format!("json-{name}"), stdout(&o));
    }
}

#[test]
fn application_values_stay_apart_from_elapsed_ones() {
    for name in ["function-summary", "call-tree", "caller-callee"] {
        let r = report_json(&fixture(name), &[]);
        let load = r["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == "Orders.Load()")
            .unwrap();
        assert_eq!(load["elapsed_inclusive_ms"], 1200.5, "{name}");
        assert_eq!(load["application_inclusive_ms"], 900.25, "{name}");
        assert_eq!(load["application_exclusive_ms"], 150.25, "{name}");
    }
    let tree = report_json(&fixture("call-tree"), &[]);
    assert_eq!(tree["totals"]["elapsed_inclusive_ms"], 2000.0);
    assert_eq!(tree["totals"]["application_inclusive_ms"], 1500.0);
    let query = tree["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "Db.Query(string)")
        .unwrap();
    assert_eq!(query["calls"], 40);
    assert_eq!(query["elapsed_inclusive_ms"], 1000.0);
    let load = tree["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "Orders.Load()")
        .unwrap();
    assert_eq!(load["calls"], 2);
    assert_eq!(
        load["elapsed_inclusive_ms"], 1200.5,
        "the recursive node is counted once"
    );
}

#[test]
fn the_ide_export_recovers_times_from_percents() {
    let r = report_json(&fixture("ide-call-tree"), &[]);
    // Largest Avg × Calls with a percent: Main, 2,000 ms at 100 %.
    assert_eq!(r["totals"]["elapsed_inclusive_ms"], 2000.0);
    let print = r["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "Report.Print()")
        .unwrap();
    assert_eq!(print["elapsed_inclusive_ms"], 699.6, "34.98 % of 2,000 ms");
}

#[test]
fn warnings_name_their_lines() {
    assert_warnings(
        "level-jump",
        &report_json(&fixture("level-jump"), &[]),
        &[("line 3", "out_of_place")],
    );
    for name in [
        "function-summary",
        "call-tree",
        "ide-call-tree",
        "caller-callee",
        "sampling",
    ] {
        assert_warnings(name, &report_json(&fixture(name), &[]), &[]);
    }
}

#[test]
fn the_real_call_tree_export_loads_whole() {
    let r = report_json(&real_file("inferno_CallTreeSummary.csv"), &[]);
    assert_eq!(r["format"], "vs-csv");
    assert_eq!(r["meta"]["report"], "calltree");
    assert_eq!(r["totals"]["functions"], 100);
    assert!(r["warnings"].as_array().unwrap().is_empty());
    let top = &r["functions"][0];
    assert_eq!(
        top["name"],
        "Raytracer.Raytracer.Tracer.<TraceImage>b__5_0(int32)"
    );
    assert_eq!(top["calls"], 512, "471 at level 1 plus 41 deeper");
}

/// inferno's collapse-vsprof reading of the same file (its expected
/// output, beside the sample): every call path it finds is one of our stacks.
#[test]
fn stacks_cover_every_path_inferno_finds() {
    let r = report_json(&real_file("inferno_CallTreeSummary.csv"), &[]);
    let ours: HashSet<String> = stack_frames(&r)
        .into_iter()
        .map(|frames| {
            let names: Vec<String> = frames.into_iter().map(|(name, _)| name).collect();
            names.join(";")
        })
        .collect();
    let folded = std::fs::read_to_string(real_file("inferno_vsprof-default.txt")).unwrap();
    let mut checked = 0;
    for line in folded.lines().filter(|l| !l.trim().is_empty()) {
        let (path, _) = line.rsplit_once(' ').unwrap();
        assert!(ours.contains(path), "inferno's path is not a stack: {path}");
        checked += 1;
    }
    assert_eq!(checked, 146);
}

#[test]
fn the_malformed_samples_give_an_error_or_a_warning_with_the_line() {
    let cases: &[(&str, Option<i32>, &str)] = &[
        (
            "inferno_empty-file.csv",
            Some(1),
            "offset 0: the file is empty",
        ),
        (
            "inferno_incorrect-header.csv",
            Some(1),
            "not a format profx knows",
        ),
        (
            "inferno_invalid-depth.csv",
            Some(0),
            "line 3: level \"x\" is not a depth",
        ),
        (
            "inferno_invalid-function-name.csv",
            Some(0),
            "line 3: a quote is not closed",
        ),
        (
            "inferno_invalid-number-of-calls.csv",
            Some(0),
            "line 3: number of calls \"4,718.25\" is not a whole number",
        ),
        (
            "inferno_missing-function-name.csv",
            Some(1),
            "line 2: no usable row under the header",
        ),
    ];
    for (file, code, needle) in cases {
        let o = profx(&[
            "report",
            &real_file(&format!("malformed/{file}")),
            "--view",
            "info",
        ]);
        assert_eq!(o.status.code(), *code, "{file}: {}", stderr(&o));
        let text = format!("{}{}", stdout(&o), stderr(&o));
        assert!(text.contains(needle), "{file}: {text}");
    }
    let forced = profx(&[
        "report",
        &real_file("malformed/inferno_incorrect-header.csv"),
        "--format",
        "vs-csv",
    ]);
    assert_eq!(forced.status.code(), Some(1));
    assert!(
        stderr(&forced).contains("line 1: no Function Name column"),
        "{}",
        stderr(&forced)
    );
}

/// A call-tree row whose stated inclusive time exceeds its own and its
/// listed children's has the rest as `(unlisted)`, so its total is what the
/// file states in the tree, the flame and the export; one whose stated time
/// is below them is a warning at its line and totals the listed sum.
#[test]
fn a_call_tree_rows_time_in_callees_it_does_not_list_is_unlisted() {
    let path = fixture("unlisted-time");
    let r = report_json(&path, &[]);
    assert_warnings("unlisted-time", &r, &[("line 7", "stack_below_callees")]);
    let out = profx(&["report", &path, "--view", "tree", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(doc["weight"], "ms");
    let nodes = doc["nodes"].as_array().expect("nodes");
    let path_of = |id: u64| {
        let mut names = Vec::new();
        let mut at = Some(id);
        while let Some(i) = at {
            let n = &nodes[i as usize];
            names.push(n["name"].as_str().unwrap().to_string());
            at = n["parent"].as_u64();
        }
        names.reverse();
        names.join(" > ")
    };
    let got: Vec<(String, f64, f64)> = nodes
        .iter()
        .map(|n| {
            (
                path_of(n["id"].as_u64().unwrap()),
                n["total"].as_f64().unwrap(),
                n["self"].as_f64().unwrap(),
            )
        })
        .collect();
    let want = [
        ("Main()", 1000.0, 100.0),
        ("Main() > Load()", 400.0, 150.0),
        ("Main() > Load() > Read()", 200.0, 200.0),
        ("Main() > Load() > (unlisted)", 50.0, 50.0),
        ("Main() > Save()", 300.0, 300.0),
        ("Main() > (unlisted)", 200.0, 200.0),
        ("Print()", 130.0, 50.0),
        ("Print() > Fmt()", 80.0, 80.0),
    ];
    let got: Vec<(&str, f64, f64)> = got.iter().map(|(p, t, s)| (p.as_str(), *t, *s)).collect();
    assert_eq!(got, want);
    // The folded export draws the same: Main's frames weigh 1000 ms.
    let out = profx(&["export", &path, "--to", "folded", "-o", "-"]);
    let text = stdout(&out);
    let main: u64 = text
        .lines()
        .filter(|l| l.starts_with("m.exe!Main()") || l.starts_with("app.exe!Main()"))
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(main, 1_000_000, "{text}");
    assert!(text.contains("app.exe!Main();(unlisted) 200000"), "{text}");
}

/// A VSPerfReport command-line call tree (a `Level` column and probe
/// overhead columns, whole numbers): its tree says ticks in every heading,
/// and `--clock-mhz` makes them ms (formats.md § vs-csv, Time unit).
#[test]
fn a_command_line_call_tree_is_in_ticks() {
    let file = fixture("command-line-call-tree");
    let tree = |extra: &[&str]| {
        let mut args = vec!["report", file.as_str(), "--view", "tree"];
        args.extend_from_slice(extra);
        let o = profx(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let out = tree(&[]);
    assert!(out.contains("percents of 4,800,000,000.000 ticks"), "{out}");
    assert!(
        out.contains("Total ticks") && out.contains("Self ticks"),
        "{out}"
    );
    let out = tree(&["--clock-mhz", "2400"]);
    assert!(out.contains("percents of 2,000.000 ms"), "{out}");
    assert!(out.contains("Total ms"), "{out}");
    let r = report_json(&file, &["--clock-mhz", "2400"]);
    assert_eq!(r["meta"]["time_unit"], "ms");
    let read = r["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "read")
        .unwrap();
    assert_eq!(
        read["elapsed_inclusive_ms"], 750.0,
        "1,800,000,000 ticks at 2,400 MHz"
    );
    assert_eq!(read["elapsed_inclusive_pct"], 37.5);
}

// ---------------------------------------------------------------------
// Issue 63: one figure per function in every view of a stated tree. The
// fixture's times come from its percents, in 0.01 % steps of 10,000 ms:
// `Window.Run()` states 80.70 % (8,070 ms) while its own 1.30 % and its
// callees' 69.20 + 10.18 + 0.00 % list 8,068 ms, a difference within the
// file's rounding.

const ROUNDED: &str = "percent-rounding";

/// `--view tree --json`'s nodes: (path joined by " > ", total).
fn tree_totals(path: &str, extra: &[&str]) -> Vec<(String, f64)> {
    let mut args = vec!["report", path, "--view", "tree", "--json"];
    args.extend_from_slice(extra);
    let out = profx(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let nodes = doc["nodes"].as_array().expect("nodes").clone();
    let path_of = |id: u64| {
        let mut names = Vec::new();
        let mut at = Some(id);
        while let Some(i) = at {
            let n = &nodes[i as usize];
            names.push(n["name"].as_str().expect("a name").to_string());
            at = n["parent"].as_u64();
        }
        names.reverse();
        names.join(" > ")
    };
    nodes
        .iter()
        .map(|n| {
            let id = n["id"].as_u64().expect("an id");
            (path_of(id), n["total"].as_f64().expect("a total"))
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// Functions, the tree's node and the edge from its one caller give
/// `Window.Run()` one inclusive time: the file's 80.70 %.
#[test]
fn a_percent_rounded_tree_gives_a_function_one_inclusive_time() {
    let path = fixture(ROUNDED);
    let r = report_json(&path, &[]);
    assert_warnings(ROUNDED, &r, &[]);
    let run = function(&r, "Window.Run()", None)["elapsed_inclusive_ms"]
        .as_f64()
        .expect("a time");
    assert!(close(run, 8070.0), "the file's 80.70 %: {run}");
    let edge = r["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .find(|e| e["callee"]["name"] == "Window.Run()")
        .expect("Main → Run");
    let edge = edge["elapsed_inclusive_ms"].as_f64().expect("a time");
    assert!(close(edge, run), "edge {edge} against Functions {run}");
    let tree = tree_totals(&path, &[]);
    let node = tree
        .iter()
        .find(|(p, _)| p == "App.Main() > Window.Run()")
        .expect("Run's node");
    assert!(
        close(node.1, run),
        "node {} against Functions {run}",
        node.1
    );
    assert!(
        !tree.iter().any(|(p, _)| p.contains("(unlisted)")),
        "no (unlisted) of rounding size: {tree:?}"
    );
}

/// A difference within the file's rounding is no caller: the butterfly
/// of `Window.Run()` has its one caller and no `(root)`.
#[test]
fn a_rounding_remainder_is_no_caller() {
    let path = fixture(ROUNDED);
    let table = stdout(&profx(&[
        "report",
        &path,
        "--view",
        "callers",
        "--function",
        "Window.Run()",
    ]));
    assert!(!table.contains("(root)"), "{table}");
    let out = profx(&[
        "report",
        &path,
        "--view",
        "callers",
        "--function",
        "Window.Run()",
        "--json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let f = &doc["functions"][0];
    let rows = f["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 1, "{rows:?}");
    let (row, whole) = (
        rows[0]["elapsed_inclusive_ms"].as_f64().expect("a time"),
        f["elapsed_inclusive_ms"].as_f64().expect("a time"),
    );
    assert!(close(row, whole), "caller {row} against {whole}");
    let callees = stdout(&profx(&[
        "report",
        &path,
        "--view",
        "callees",
        "--function",
        "Window.Run()",
    ]));
    assert!(!callees.contains("(unlisted)"), "{callees}");
}

/// Merging a function on none of their paths leaves every other
/// function's inclusive time as loaded, in `--json` and in the tree.
#[test]
fn an_unrelated_step_moves_no_inclusive_time() {
    let path = fixture(ROUNDED);
    let before = report_json(&path, &[]);
    let after = report_json(&path, &["--merge", "Log.Write(string)"]);
    let incl = |r: &serde_json::Value, name: &str| {
        function(r, name, None)["elapsed_inclusive_ms"]
            .as_f64()
            .expect("a time")
    };
    for name in [
        "App.Main()",
        "Window.Run()",
        "App.OnLoad()",
        "App.OnRender()",
        "App.OnResize()",
    ] {
        let (a, b) = (incl(&before, name), incl(&after, name));
        assert!(close(a, b), "{name}: {a} loaded, {b} after the merge");
    }
    let tree = tree_totals(&path, &["--merge", "Log.Write(string)"]);
    let node = tree
        .iter()
        .find(|(p, _)| p == "App.Main() > Window.Run()")
        .expect("Run's node");
    assert!(close(node.1, incl(&before, "Window.Run()")), "{tree:?}");
}
