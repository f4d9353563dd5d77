//! `profx report` on Xbase++ traces: DELDBE fixtures as they are, DBF ones
//! compiled from `.dbfdesc` descriptions, through the real binary.

mod common;

use common::{assert_warnings, stderr};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/xpp");

/// Writes the fixtures of `sub` (a folder of FIXTURES, "" for the top) into
/// a scratch folder of the calling test's own: text as it is, `.dbfdesc`
/// compiled to the file named without that suffix.
fn prepare(test: &str, sub: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("xpp")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(Path::new(FIXTURES).join(sub)).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            continue;
        }
        let (name, bytes) = match name.strip_suffix(".dbfdesc") {
            Some(stem) => {
                let desc = std::fs::read_to_string(&path).unwrap();
                let mut bytes = profx::fixture_gen::dbf::compile(&desc)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                if stem.starts_with("vfp-") {
                    bytes[0] = b'0'; // Visual FoxPro's version byte is the digit 0.
                }
                (stem.to_string(), bytes)
            }
            None => (name, std::fs::read(&path).unwrap()),
        };
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    dir
}

fn profx_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_profx"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn json_in(dir: &Path, file: &str) -> serde_json::Value {
    let o = profx_in(dir, &["report", file, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

const LOADS: &[&str] = &[
    "hand-example",
    "filtered",
    "filtered-dbf",
    "unfiltered",
    "unfiltered-dbf",
    "two-threads",
    "recursion",
    "recursion-site",
    "break",
    "no-time",
    "no-line",
    "with-header",
    "unknown-op",
    "stray-return",
    "open-calls",
    "time-backwards",
    "bad-line",
    "vfp-stale-count",
];

#[test]
fn json_of_every_fixture_matches_its_reviewed_snapshot() {
    let dir = prepare("snapshots", "");
    for name in LOADS {
        let file = format!("{name}.prf");
        let o = profx_in(&dir, &["report", &file, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        insta::assert_snapshot!(format!("json-{name}"), String::from_utf8(o.stdout).unwrap());
    }
    for (sub, file) in [
        ("packeted-dbf", "T.PRF"),
        ("packeted-dbf-complete", "T.PRF"),
        ("packeted-deldbe", "D.PRF"),
    ] {
        let dir = prepare(&format!("snapshots-{sub}"), sub);
        let o = profx_in(&dir, &["report", file, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{sub}: {}", stderr(&o));
        insta::assert_snapshot!(format!("json-{sub}"), String::from_utf8(o.stdout).unwrap());
    }
}

/// The reference loader gives every fixture's `--json`, DBF and DELDBE,
/// whole or in packets: the fast engine and the format's rules read a
/// record at a time agree.
#[test]
fn the_reference_loader_reads_every_fixture_alike() {
    let same = |dir: &std::path::Path, file: &str| {
        let fast = profx_in(dir, &["report", file, "--json"]);
        let reference = profx_in(dir, &["report", file, "--json", "--reference"]);
        assert_eq!(
            reference.status.code(),
            Some(0),
            "{file}: {}",
            stderr(&reference)
        );
        assert_eq!(fast.stdout, reference.stdout, "{file}");
    };
    let dir = prepare("reference", "");
    for name in LOADS {
        same(&dir, &format!("{name}.prf"));
    }
    for (sub, file) in [
        ("packeted-dbf", "T.PRF"),
        ("packeted-dbf", "T.PRF.000001"),
        ("packeted-dbf-complete", "T.PRF"),
        ("packeted-deldbe", "D.PRF"),
        ("packeted-deldbe", "D.PRF.000003"),
    ] {
        same(&prepare(&format!("reference-{sub}"), sub), file);
    }
}

#[test]
fn the_hand_example_of_model_md() {
    let r = json_in(&prepare("hand", ""), "hand-example.prf");
    let f = |i: usize, key: &str| r["functions"][i][key].clone();
    assert_eq!(
        (
            f(0, "name"),
            f(0, "elapsed_inclusive_ms"),
            f(0, "elapsed_exclusive_ms")
        ),
        ("A".into(), 35.0.into(), 15.0.into())
    );
    assert_eq!(
        (
            f(1, "name"),
            f(1, "elapsed_inclusive_ms"),
            f(1, "elapsed_exclusive_ms")
        ),
        ("B".into(), 20.0.into(), 20.0.into())
    );
    assert_eq!(f(0, "elapsed_exclusive_pct"), 42.857142857142854);
    assert_eq!(f(1, "elapsed_inclusive_pct"), 57.142857142857146);
    assert_eq!(r["totals"]["elapsed_inclusive_ms"], 35.0);
    assert_eq!(r["totals"]["events"], 4);
    assert_eq!(r["meta"]["threads"], 1);
}

/// model.md § Intervals: a call made while another from the same site is
/// open on its thread adds nothing to the line. `recursion-site.prf` is
/// model.md's example on thread 1 (F calls itself twice from line 20),
/// and on thread 2, at the same time, MAIN calls F from line 5 and F
/// itself once from line 20: the two threads' calls from one line each
/// count (another thread's open call is not below them).
#[test]
fn recursion_through_one_call_site_counts_once() {
    let r = json_in(&prepare("recursion-site", ""), "recursion-site.prf");
    let function = |name: &str| {
        let f = r["functions"].as_array().unwrap().iter();
        let f = f.clone().find(|f| f["name"] == name).unwrap().clone();
        (f["calls"].as_u64(), f["elapsed_inclusive_ms"].as_f64())
    };
    assert_eq!(function("F"), (Some(5), Some(21.0)));
    assert_eq!(function("MAIN"), (Some(2), Some(26.0)));
    let line = |file: &str, line: u64| {
        let l = r["lines"].as_array().unwrap().iter();
        let l = l.clone().find(|l| l["file"] == file && l["line"] == line);
        let l = l.unwrap().clone();
        (
            l["hits"].as_u64(),
            l["time_ms"].as_f64(),
            l["called"].clone(),
        )
    };
    // Every call counts; the time of thread 1's 5–13 (within 3–14) and of
    // nothing else is left out: 11 + 3, not 11 + 8 + 3 = 22 (more than
    // F's 21 in all).
    assert_eq!(line("F", 20), (Some(3), Some(14.0), "F".into()));
    // Open at once on two threads (1–16 and 4–10): both count.
    assert_eq!(line("MAIN", 5), (Some(2), Some(21.0), "F".into()));
    assert_eq!(line("(top level)", 1), (Some(2), Some(26.0), "MAIN".into()));
    // As the call graph's edge F → F counts them.
    let edge = r["edges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["caller"]["name"] == "F" && e["callee"]["name"] == "F");
    let edge = edge.unwrap();
    assert_eq!(
        (
            edge["calls"].as_u64(),
            edge["elapsed_inclusive_ms"].as_f64()
        ),
        (Some(3), Some(14.0))
    );
}

/// No line of any fixture holds more than the inclusive time of the one
/// function it called.
#[test]
fn no_call_site_holds_more_than_its_callee() {
    let dir = prepare("site-bound", "");
    for name in LOADS {
        let r = json_in(&dir, &format!("{name}.prf"));
        let inclusive = |callee: &str| {
            r["functions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["name"] == callee)
                .and_then(|f| f["elapsed_inclusive_ms"].as_f64())
        };
        for l in r["lines"].as_array().unwrap() {
            let (Some(callee), Some(ms)) = (l["called"].as_str(), l["time_ms"].as_f64()) else {
                continue;
            };
            if callee.contains(", ") {
                continue;
            }
            let bound = inclusive(callee).unwrap();
            assert!(ms <= bound, "{name}: {l} holds {ms} > {callee}'s {bound}");
        }
    }
}

#[test]
fn every_spec_warning_is_produced_at_its_place() {
    let dir = prepare("warnings", "");
    let cases: &[(&str, &[(&str, &str)])] = &[
        ("break", &[("line 5", "unwind")]),
        (
            "unknown-op",
            &[("line 2", "unknown_op"), ("line 4", "unknown_op")],
        ),
        ("stray-return", &[("line 2", "return_without_call")]),
        ("open-calls", &[("open-calls.prf", "unclosed")]),
        ("time-backwards", &[("line 3", "time_backwards")]),
        (
            "bad-line",
            &[("line 2", "missing_field"), ("line 3", "not_a_number")],
        ),
        (
            "vfp-stale-count",
            &[
                ("offset 4", "count_mismatch"),
                ("offset 283", "deleted_records"),
                ("offset 399", "truncated_record"),
            ],
        ),
        ("filtered", &[]),
        ("unfiltered", &[]),
        ("unfiltered-dbf", &[]),
        ("two-threads", &[]),
        ("recursion", &[]),
        ("recursion-site", &[]),
        ("with-header", &[]),
    ];
    for (name, expected) in cases {
        assert_warnings(name, &json_in(&dir, &format!("{name}.prf")), expected);
    }
    let packets = json_in(&prepare("warnings-dbf", "packeted-dbf"), "T.PRF");
    assert_warnings(
        "packeted-dbf",
        &packets,
        &[
            ("T.PRF: offset 4", "count_mismatch"),
            ("T.PRF.000002", "missing_packet"),
        ],
    );
    // formats.md: the header's count is the whole trace's.
    let complete = json_in(
        &prepare("warnings-complete", "packeted-dbf-complete"),
        "T.PRF",
    );
    assert_warnings("packeted-dbf-complete", &complete, &[]);
    let packets = json_in(&prepare("warnings-del", "packeted-deldbe"), "D.PRF");
    assert_warnings(
        "packeted-deldbe",
        &packets,
        &[("D.PRF.000002", "missing_packet")],
    );
}

#[test]
fn packeted_traces_are_one_trace_with_a_packet_per_piece() {
    let r = json_in(&prepare("packets", "packeted-dbf"), "T.PRF");
    assert_eq!(r["sources"].as_array().unwrap().len(), 3);
    let packets: Vec<(String, u64)> = r["packets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["source"].as_str().unwrap().to_string(),
                p["events"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        packets,
        [
            ("T.PRF".into(), 2),
            ("T.PRF.000001".into(), 2),
            ("T.PRF.000003".into(), 2)
        ]
    );
    let main = &r["functions"][0];
    assert_eq!(
        (main["name"].as_str(), main["elapsed_inclusive_ms"].as_f64()),
        (Some("MAIN"), Some(9.0))
    );
}

#[test]
fn tables_without_op_or_call_and_headerless_dbf_packets_fail_clearly() {
    let dir = prepare("errors", "");
    let o = profx_in(&dir, &["report", "no-op-field.prf"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no op and call fields among THREAD, WHAT"),
        "{}",
        stderr(&o)
    );

    let lone = prepare("errors-lone", "packeted-dbf");
    std::fs::remove_file(lone.join("T.PRF")).unwrap();
    let o = profx_in(&lone, &["report", "T.PRF.000001"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o)
            .contains("T.PRF.000001: offset 0: a DBF trace packet needs its header packet T.PRF"),
        "{}",
        stderr(&o)
    );
}

/// Trace pane rows come from the file on demand; an unknown DBF field is
/// shown with them.
#[test]
fn packets_view_lists_every_piece() {
    let dir = prepare("view", "packeted-deldbe");
    let o = profx_in(&dir, &["report", "D.PRF", "--view", "packets"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.starts_with("# packets: 3"), "{out}");
    assert!(out.contains("D.PRF.000003"), "{out}");
}

/// A table of functions or lines is loaded without the trace's stacks
/// (`KeepStacks::Skipped`), and shows what the same table of the profile
/// with them shows; the stacks view keeps them.
#[test]
fn tables_without_stacks_show_what_they_show_with_them() {
    let dir = prepare("tables", "");
    for name in LOADS {
        common::tables_match_a_load_with_stacks(&dir, &format!("{name}.prf"));
    }
}

/// A trace's Lines table names its columns for what they hold: a call's
/// line is filed under its calling function, and hits are calls.
#[test]
fn a_traces_lines_table_says_caller_and_calls() {
    let o = common::profx(&[
        "report",
        "tests/fixtures/xpp/orders-run.prf",
        "--view",
        "lines",
        "--table",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let heading = out.lines().nth(1).unwrap_or_default();
    assert!(heading.starts_with("Caller "), "{heading}");
    assert!(heading.contains(" Calls "), "{heading}");
    assert!(!heading.contains("Hits"), "{heading}");
}

/// Issue 65: each function's calls' durations, p50/p90/p99 by nearest
/// rank, against the plain way: the fixture's calls paired on each
/// thread's stack, their spans and own times sorted, `sorted[ceil(p/100 ×
/// n) − 1]`. A thread choice recomputes them; a transform leaves them
/// `null`, as it leaves min and max.
#[test]
fn call_durations_are_nearest_rank_percentiles_of_each_call() {
    let dir = prepare("durations", "");
    let text = std::fs::read_to_string(dir.join("orders-run.prf")).unwrap();
    // (thread, time, op, call) of each record, then each call's span and
    // own time by function, a stack a thread.
    // A thread's clock, and its open calls: (function, entered, child time).
    type Thread<'a> = (f64, Vec<(&'a str, f64, f64)>);
    let mut stacks: std::collections::HashMap<&str, Thread> = Default::default();
    let mut calls: std::collections::BTreeMap<&str, (Vec<f64>, Vec<f64>)> = Default::default();
    for line in text.lines() {
        let f: Vec<&str> = line.split(',').collect();
        let (thread, t, op, call) = (f[0], f[1].parse::<f64>().unwrap(), f[2], f[3]);
        let (clock, stack) = stacks.entry(thread).or_insert((t, Vec::new()));
        if let Some(top) = stack.last_mut() {
            top.2 += t - *clock;
        }
        *clock = t;
        if op == "\"i\"" {
            stack.push((call, t, 0.0));
        } else {
            let (name, at, own) = stack.pop().unwrap();
            assert_eq!(name, call);
            let c = calls.entry(name.trim_matches('"')).or_default();
            c.0.push(t - at);
            c.1.push(own);
        }
    }
    let rank = |v: &[f64], p: f64| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v[((p / 100.0) * v.len() as f64).ceil() as usize - 1]
    };
    let r = json_in(&dir, "orders-run.prf");
    let functions = r["functions"].as_array().unwrap();
    assert_eq!(functions.len(), calls.len());
    for f in functions {
        let (incl, excl) = &calls[f["name"].as_str().unwrap()];
        for p in [50.0, 90.0, 99.0] {
            let key = |side| format!("p{p}_elapsed_{side}_ms");
            assert_eq!(
                f[key("inclusive")],
                rank(incl, p),
                "{} {}",
                f["name"],
                key("inclusive")
            );
            assert_eq!(
                f[key("exclusive")],
                rank(excl, p),
                "{} {}",
                f["name"],
                key("exclusive")
            );
        }
    }
    let named = |r: &serde_json::Value, name: &str| {
        r["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == name)
            .cloned()
            .unwrap()
    };
    // READITEM's six calls: 7 to 12 ms, each 2 ms its own.
    let read = named(&r, "READITEM");
    assert_eq!(
        (
            read["p50_elapsed_inclusive_ms"].clone(),
            read["p90_elapsed_inclusive_ms"].clone()
        ),
        (9.0.into(), 12.0.into())
    );
    assert_eq!(read["p99_elapsed_exclusive_ms"], 2.0);
    // One thread: its calls only (WORKER 5 to 64).
    let o = profx_in(
        &dir,
        &["report", "orders-run.prf", "--json", "--thread", "2"],
    );
    let one: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(named(&one, "WORKER")["p50_elapsed_inclusive_ms"], 59.0);
    // A range: the calls entered in it (READITEM's at 40 and 52 ms).
    let o = profx_in(
        &dir,
        &[
            "report",
            "orders-run.prf",
            "--json",
            "--from",
            "40",
            "--until",
            "70",
        ],
    );
    let ranged: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let read = named(&ranged, "READITEM");
    assert_eq!(
        (
            read["calls"].clone(),
            read["p50_elapsed_inclusive_ms"].clone()
        ),
        (2.into(), 11.0.into())
    );
    assert_eq!(read["p99_elapsed_inclusive_ms"], 12.0);
    // A transform: absent, as min and max are.
    let o = profx_in(
        &dir,
        &["report", "orders-run.prf", "--json", "--merge", "ROUND"],
    );
    let merged: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for f in merged["functions"].as_array().unwrap() {
        for key in [
            "p50_elapsed_inclusive_ms",
            "p99_elapsed_exclusive_ms",
            "max_elapsed_inclusive_ms",
        ] {
            assert!(f[key].is_null(), "{} {key}", f["name"]);
        }
    }
    // An untimed trace has none: the key is there, `null`.
    assert!(named(&json_in(&dir, "no-time.prf"), "MAIN")["p50_elapsed_inclusive_ms"].is_null());
}
