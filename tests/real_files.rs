//! Real files written by the real tools (`tests/fixtures/real/SOURCES.md`),
//! through the real binary: each loads, with only the warnings it
//! deserves, and its numbers are pinned by a reviewed snapshot.

mod common;

use common::{assert_warnings, profx, real_file, report_json, stack_frames, stderr, stdout};
use serde_json::Value;

/// Every real profile, and the warnings it deserves (where, kind).
const REAL: &[(&str, &[(&str, &str)])] = &[
    (
        "cdex_lame_function_timing.txt",
        &[
            ("line 67", "impossible_value"),
            ("line 91", "impossible_value"),
            ("line 92", "impossible_value"),
            ("line 95", "impossible_value"),
            ("line 103", "impossible_value"),
        ],
    ),
    ("kb_q185295_function_timing_excerpt.txt", &[]),
    ("visperf_l4_cc.csv", &[]),
    ("visperf_pigLatin.csv", &[]),
    ("inferno_CallTreeSummary.csv", &[]),
];

#[test]
fn every_real_file_loads_with_only_the_warnings_it_deserves() {
    for (file, expected) in REAL {
        assert_warnings(file, &report_json(&real_file(file), &[]), expected);
    }
}

#[test]
fn json_of_every_real_file_matches_its_reviewed_snapshot() {
    for (file, _) in REAL {
        let o = profx(&["report", &real_file(file), "--json"]);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
        // The path differs between checkouts: keep the file's name only.
        let text = stdout(&o).replace(&real_file(""), "");
        insta::assert_snapshot!(format!("json-{file}"), text);
    }
}

fn function<'r>(r: &'r Value, name: &str, module: &str) -> &'r Value {
    common::function(r, name, Some(module))
}

/// The listing's statistics and rows: session total, outside time, object
/// modules split off names, and rows kept as the file states them.
#[test]
fn lame_listing_reads_as_plist_prints_it() {
    let r = report_json(&real_file("cdex_lame_function_timing.txt"), &[]);
    assert_eq!(r["format"], "plist");
    assert_eq!(r["meta"]["layout"], "listing");
    assert_eq!(r["meta"]["method_code"], 522);
    assert_eq!(r["meta"]["call_depth"], 14);
    assert_eq!(r["meta"]["total_hits"], 16359081);
    assert_eq!(r["totals"]["elapsed_inclusive_ms"], 72884.827);
    assert_eq!(r["totals"]["outside_ms"], 41.482);
    assert_eq!(r["totals"]["functions"], 99);
    let q = function(&r, "_quantize", "loop.obj");
    assert_eq!(q["calls"], 107166);
    assert_eq!(q["elapsed_exclusive_ms"], 12879.346);
    assert_eq!(q["elapsed_inclusive_ms"], 12938.753);
    // The file's percent is its rounding of the model's.
    let pct = q["elapsed_exclusive_pct"].as_f64().unwrap();
    assert_eq!(format!("{pct:.1}"), "17.7");
    let odd = function(&r, "_III_format_bitstream", "l3bitstream.obj");
    assert_eq!(odd["elapsed_inclusive_ms"], 0.0);
    assert_eq!(odd["elapsed_exclusive_ms"], 386.872);
}

#[test]
fn kb_listing_joins_wrapped_names() {
    let r = report_json(&real_file("kb_q185295_function_timing_excerpt.txt"), &[]);
    assert_eq!(r["totals"]["elapsed_inclusive_ms"], 88816.409);
    for name in [
        "CWinThread::PumpMessage(void)",
        "CMDIFrameWnd::DefWindowProcA(unsigned int,unsigned int,long)",
        "CToolBar::Create(class CWnd *,unsigned long,unsigned int)",
        "CWinThread::PreTranslateMessage(struct tagMSG *)",
        "AfxWinMain(struct HINSTANCE__ *,struct HINSTANCE__ *,char *,int)",
    ] {
        function(&r, name, "mfc42d.dll");
    }
    assert_eq!(r["totals"]["functions"], 7);
}

/// `Type` words, a Root row owning its callers and callees when the names
/// agree (`__onexit` is two functions), and VS's Min/Max columns.
#[test]
fn caller_callee_export_as_vs_writes_it() {
    let r = report_json(&real_file("visperf_l4_cc.csv"), &[]);
    assert_eq!(r["meta"]["report"], "callercallee");
    assert_eq!(r["totals"]["elapsed_inclusive_ms"], 1064922.0);
    let exe = function(&r, "__onexit", "perfPlay.exe");
    let crt = function(&r, "__onexit", "MSVCR100D.dll");
    assert_eq!(exe["elapsed_inclusive_ms"], 8517.0);
    assert_eq!(crt["elapsed_inclusive_ms"], 7962.0);
    // A caller/callee report states edges, not call paths.
    assert!(stack_frames(&r).is_empty());
    // (caller, callee, the edge), each end as (name, module).
    type End = (String, String);
    let edges: Vec<(End, End, Value)> = r["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .map(|e| {
            let end = |x: &Value| {
                (
                    x["name"].as_str().unwrap_or_default().to_string(),
                    x["module"].as_str().unwrap_or_default().to_string(),
                )
            };
            (end(&e["caller"]), end(&e["callee"]), e.clone())
        })
        .collect();
    let edge = |a: (&str, &str), b: (&str, &str)| {
        let q = |(n, m): (&str, &str)| (n.to_string(), m.to_string());
        edges
            .iter()
            .find(|e| e.0 == q(a) && e.1 == q(b))
            .map(|e| e.2.clone())
    };
    // The RtlDecodePointer callee row stands under the exe's Root row.
    let decode = edge(
        ("__onexit", "perfPlay.exe"),
        ("RtlDecodePointer", "ntdll.dll"),
    )
    .expect("__onexit calls RtlDecodePointer");
    assert_eq!(decode["calls"], 1);
    assert_eq!(decode["elapsed_inclusive_ms"], 567.0);
    assert!(
        edge(
            ("__onexit", "MSVCR100D.dll"),
            ("RtlDecodePointer", "ntdll.dll")
        )
        .is_none()
    );
    assert!(edge(("_atexit", "perfPlay.exe"), ("__onexit", "perfPlay.exe")).is_some());
    let fib = function(&r, "Fib(int)", "perfPlay.exe");
    assert_eq!(fib["calls"], 500);
    assert_eq!(fib["min_elapsed_inclusive_ms"], 756.0);
    assert_eq!(fib["max_elapsed_inclusive_ms"], 861.0);
    assert_eq!(fib["min_elapsed_exclusive_ms"], 114.0);
    assert_eq!(fib["max_elapsed_exclusive_ms"], 276.0);
}

#[test]
fn sampling_caller_callee_export_counts_samples() {
    let r = report_json(&real_file("visperf_pigLatin.csv"), &[]);
    assert_eq!(r["totals"]["samples"], 117);
    assert_eq!(r["totals"]["elapsed_inclusive_ms"], Value::Null);
    let main = function(&r, "_mainCRTStartup", "perfplay.exe");
    assert_eq!(main["hits_total"], 117);
    assert_eq!(main["hits_self"], 0);
    // A measured zero against a nonzero total is 0 %, not absent.
    assert_eq!(main["hits_self_pct"], 0.0);
}

/// The Functions table shows the per-call columns where a file has them,
/// in the file's unit (VSPerfReport's command-line report: ticks).
#[test]
fn table_shows_min_and_max_per_call() {
    let o = profx(&["report", &real_file("visperf_l4_cc.csv"), "--table"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for head in [
        "Min incl ticks",
        "Max incl ticks",
        "Min excl ticks",
        "Max excl ticks",
    ] {
        assert!(out.contains(head), "{head} in {out}");
    }
}

/// formats.md § vs-csv, Time unit, on the public files: VSPerfReport's
/// command-line caller/callee report is in ticks and says so everywhere a
/// time is shown, never `ms`; its sampling report has no times; the IDE's
/// call-tree export is in ms.
#[test]
fn a_command_line_report_is_in_ticks_wherever_a_time_is_shown() {
    let l4 = real_file("visperf_l4_cc.csv");
    let r = report_json(&l4, &[]);
    assert_eq!(r["meta"]["time_unit"], "ticks");
    // The --json keys keep their names and hold ticks, as the file states.
    let f = function(&r, "___CxxSetUnhandledExceptionFilter", "perfPlay.exe");
    assert_eq!(f["elapsed_inclusive_ms"], 39489.0);
    let pig = report_json(&real_file("visperf_pigLatin.csv"), &[]);
    assert_eq!(pig["meta"]["time_unit"], Value::Null);
    let ide = report_json(&real_file("inferno_CallTreeSummary.csv"), &[]);
    assert_eq!(ide["meta"]["time_unit"], "ms");
    let text = |args: &[&str]| {
        let mut all = vec!["report", l4.as_str()];
        all.extend_from_slice(args);
        let o = profx(&all);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    for (args, said) in [
        (&[][..], "Incl ticks"),
        (&[][..], "% of session 1,064,922.000 ticks"),
        (&["--view", "info"][..], "elapsed ticks"),
        (&["--view", "info"][..], "ticks (processor clock cycles"),
        (&["--view", "tree"][..], "Total ticks"),
        (&["--view", "tree"][..], "percents of 1,064,922.000 ticks"),
        (&["--view", "callees", "--function", "_wmain"][..], "ticks"),
    ] {
        let out = text(args);
        assert!(out.contains(said), "{args:?}: {said:?} in {out}");
        let heads: Vec<&str> = out.lines().take(2).collect();
        assert!(
            !heads
                .iter()
                .any(|l| l.split_whitespace().any(|w| w == "ms")),
            "{args:?}: no ms in {heads:?}"
        );
    }
    let tree = report_json(&l4, &["--view", "tree"]);
    assert_eq!(tree["weight"], "ticks");
    let edges = report_json(&l4, &["--view", "callers", "--function", "_wmain"]);
    assert_eq!(edges["time_unit"], "ticks");
}

/// `--clock-mhz N` reads ticks as ms = ticks / (N × 1000): every time
/// divided, the percents as they were, `time_unit` ms and the clock in
/// meta; the app's command line, `report` and `export` take it.
#[test]
fn clock_mhz_turns_the_ticks_into_ms() {
    let l4 = real_file("visperf_l4_cc.csv");
    let ticks = report_json(&l4, &[]);
    let ms = report_json(&l4, &["--clock-mhz", "2400"]);
    assert_eq!(ms["meta"]["time_unit"], "ms");
    assert_eq!(ms["meta"]["clock_mhz"], 2400);
    let at = |r: &Value, k: &str| r["totals"][k].as_f64();
    let session = at(&ticks, "elapsed_inclusive_ms").expect("a session");
    assert_eq!(at(&ms, "elapsed_inclusive_ms"), Some(session / 2_400_000.0));
    let pairs = ticks["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .zip(ms["functions"].as_array().expect("functions"));
    for (t, m) in pairs {
        assert_eq!(t["name"], m["name"]);
        for key in [
            "elapsed_inclusive_ms",
            "elapsed_exclusive_ms",
            "application_inclusive_ms",
            "min_elapsed_inclusive_ms",
            "max_elapsed_exclusive_ms",
        ] {
            let want = t[key].as_f64().map(|x| x / 2_400_000.0);
            assert_eq!(m[key].as_f64(), want, "{key} of {}", t["name"]);
        }
        // The same percent, but for the last bit of a float: the session is
        // recovered from a time and its percent, now a divided time.
        if let (Some(a), Some(b)) = (
            t["elapsed_inclusive_pct"].as_f64(),
            m["elapsed_inclusive_pct"].as_f64(),
        ) {
            assert!((a - b).abs() <= 1e-12 * a.abs().max(1.0), "{a} vs {b}");
        }
    }
    let o = profx(&["report", &l4, "--clock-mhz", "2400", "--top", "1"]);
    assert!(stdout(&o).contains("Incl ms"), "{}", stdout(&o));
    let o = profx(&[
        "export",
        &l4,
        "--to",
        "csv",
        "-o",
        "-",
        "--clock-mhz",
        "2400",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("name,module,calls,elapsed_inclusive_ms,"));
}

/// `--clock-mhz` on a profile not in ticks is a usage error (exit 2)
/// saying what its times are, for the app, `report` and `export`; a clock
/// of 0 or less, or no number, is refused by the command line.
#[test]
fn clock_mhz_elsewhere_is_a_usage_error() {
    let ide = real_file("inferno_CallTreeSummary.csv");
    let pig = real_file("visperf_pigLatin.csv");
    let lame = real_file("cdex_lame_function_timing.txt");
    for (args, why) in [
        (
            vec!["report", &ide, "--clock-mhz", "2400"],
            "its times are ms already",
        ),
        (vec!["report", &pig, "--clock-mhz", "2400"], "has no times"),
        (
            vec!["report", &lame, "--clock-mhz", "2400"],
            "its times are ms already",
        ),
        (
            vec![
                "export",
                &ide,
                "--to",
                "folded",
                "-o",
                "-",
                "--clock-mhz",
                "2400",
            ],
            "its times are ms already",
        ),
        // Standard output is no terminal here: the app prints the table.
        (
            vec![&ide, "--clock-mhz", "2400"],
            "its times are ms already",
        ),
        (vec!["report", &ide, "--clock-mhz", "0"], "above 0"),
        (vec!["report", &ide, "--clock-mhz=-5"], "above 0"),
        (vec!["report", &ide, "--clock-mhz", "fast"], "above 0"),
    ] {
        let o = profx(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(why), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}

/// The butterfly of every function of a real caller/callee export equals
/// the file's rows: each Caller row under a function's Root row is a row of
/// its callers with the row's calls and inclusive time, each Callee row one
/// of its callees (issue 51), read here from the CSV with no profx code.
#[test]
fn a_caller_callee_exports_butterfly_is_its_rows() {
    let path = real_file("visperf_l4_cc.csv");
    let mut csv = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(&path)
        .expect("the fixture reads");
    let head = csv.headers().expect("a header").clone();
    let col = |name: &str| head.iter().position(|h| h == name).expect(name);
    let (kind, name, module, calls, incl) = (
        col("Type"),
        col("Function Name"),
        col("Module Name"),
        col("Number of Calls"),
        col("Elapsed Inclusive Time"),
    );
    // (root name, root module) → its callers and callees as the file says.
    type Rows = Vec<(String, String, u64, f64)>;
    let mut sides: std::collections::BTreeMap<(String, String), (Rows, Rows)> = Default::default();
    let mut root: Option<(String, String)> = None;
    for rec in csv.records() {
        let rec = rec.expect("a row");
        let num = |i: usize| rec[i].replace(',', "");
        let row = (
            rec[name].to_string(),
            rec[module].to_string(),
            num(calls).parse::<u64>().expect("calls"),
            num(incl).parse::<f64>().expect("time"),
        );
        // A Caller or Callee row belongs to the Root row above it.
        match &rec[kind] {
            "Root" => {
                let key = (row.0.clone(), row.1.clone());
                sides.entry(key.clone()).or_default();
                root = Some(key);
            }
            "Caller" => {
                let key = root.clone().expect("a caller under a root");
                sides.entry(key).or_default().0.push(row);
            }
            "Callee" => {
                let key = root.clone().expect("a callee under a root");
                sides.entry(key).or_default().1.push(row);
            }
            other => panic!("row type {other}"),
        }
    }
    assert!(sides.len() > 20, "{} functions", sides.len());
    for ((fname, fmodule), (callers, callees)) in &sides {
        let whom = format!("{fmodule}!{fname}");
        for (side, want) in [("callers", callers), ("callees", callees)] {
            let out = common::profx(&[
                "report",
                &path,
                "--view",
                side,
                "--function",
                &whom,
                "--json",
            ]);
            assert!(out.status.success(), "{whom}: {}", common::stderr(&out));
            let doc: Value = serde_json::from_str(&common::stdout(&out)).expect("json");
            let f = &doc["functions"][0];
            assert_eq!(f["module"], fmodule.as_str());
            let rows: Vec<&Value> = f["rows"]
                .as_array()
                .expect("rows")
                .iter()
                .filter(|x| x["kind"] == "function")
                .collect();
            assert_eq!(rows.len(), want.len(), "{side} of {whom}: {rows:?}");
            for (n, m, c, t) in want {
                let got = rows
                    .iter()
                    .find(|x| x["name"] == n.as_str() && x["module"] == m.as_str())
                    .unwrap_or_else(|| panic!("{side} of {whom}: no {n} [{m}]"));
                assert_eq!(got["calls"].as_u64(), Some(*c), "{side} of {whom}: {n}");
                assert_eq!(
                    got["elapsed_inclusive_ms"].as_f64(),
                    Some(*t),
                    "{side} of {whom}: {n}"
                );
            }
        }
    }
}
