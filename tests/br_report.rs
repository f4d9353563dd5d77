//! `profx report` on BR logs compiled from the descriptions in
//! `tests/fixtures/br/`, through the real binary.

mod common;

use common::stderr;
use std::path::PathBuf;
use std::process::Command;

const FIXTURES: &[&str] = &[
    "timed",
    "sampled",
    "deep-recursion",
    "frame-kinds",
    "unclosed-sample",
    "record-outside-sample",
    "unmapped-module",
    "module-mapped-twice",
    "module-mapped-late",
    "cut-off-record",
    "unknown-record-type",
    "missing-time",
    "hostile-names",
];

/// Compiles `name.brdesc` to `name.prof` in a scratch folder of the calling
/// test's own (tests run in parallel); returns the folder.
fn compiled(test: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("br")
        .join(test);
    std::fs::create_dir_all(&dir).unwrap();
    let desc_path = format!(
        "{}/tests/fixtures/br/{name}.brdesc",
        env!("CARGO_MANIFEST_DIR")
    );
    let desc = std::fs::read_to_string(&desc_path).unwrap();
    let bytes = profx::fixture_gen::br::compile(&desc).unwrap_or_else(|e| panic!("{name}: {e}"));
    // Write then rename: a test reading the file never sees it half-written.
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!("{name}.{n}.tmp"));
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, dir.join(format!("{name}.prof"))).unwrap();
    dir
}

/// Runs profx in `dir`, so `sources` is the bare file name in snapshots.
fn profx_in(dir: &PathBuf, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_profx"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn json(name: &str) -> serde_json::Value {
    let dir = compiled(&format!("json-{name}"), name);
    let o = profx_in(&dir, &["report", &format!("{name}.prof"), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The reference loader (`--reference`: one thread, record by record)
/// gives every fixture's `--json`, warnings included: the fast engine and
/// the format's rules read in one place agree, on damage too.
#[test]
fn the_reference_loader_reads_every_fixture_alike() {
    for name in FIXTURES {
        let dir = compiled("reference", name);
        let file = format!("{name}.prof");
        let fast = profx_in(&dir, &["report", &file, "--json"]);
        let reference = profx_in(&dir, &["report", &file, "--json", "--reference"]);
        assert_eq!(
            reference.status.code(),
            Some(0),
            "{name}: {}",
            stderr(&reference)
        );
        assert_eq!(fast.stdout, reference.stdout, "{name}");
    }
}

#[test]
fn json_of_every_fixture_matches_its_reviewed_snapshot() {
    for name in FIXTURES {
        let dir = compiled("snapshots", name);
        // Detection, not --format: every fixture must be recognised as BR.
        let o = profx_in(&dir, &["report", &format!("{name}.prof"), "--json"]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        insta::assert_snapshot!(format!("json-{name}"), String::from_utf8(o.stdout).unwrap());
    }
}

/// Each damaged-input rule of formats.md § br, at the offset it names.
#[test]
fn every_spec_warning_is_produced_at_its_offset() {
    let cases: &[(&str, &[(&str, &str)])] = &[
        ("unclosed-sample", &[("offset 26", "unclosed")]),
        (
            "record-outside-sample",
            &[
                ("offset 9", "out_of_place"),
                ("offset 17", "out_of_place"),
                ("offset 25", "out_of_place"),
                ("offset 52", "out_of_place"),
                ("offset 53", "out_of_place"),
                ("offset 54", "out_of_place"),
            ],
        ),
        ("unmapped-module", &[("offset 17", "unmapped_module")]),
        ("module-mapped-twice", &[("offset 18", "mapped_again")]),
        ("module-mapped-late", &[]),
        (
            "cut-off-record",
            &[("offset 44", "truncated_record"), ("offset 44", "unclosed")],
        ),
        (
            "unknown-record-type",
            &[("offset 27", "unknown_record_type")],
        ),
        ("missing-time", &[("offset 27", "missing_time")]),
        ("timed", &[]),
        ("sampled", &[]),
        ("frame-kinds", &[]),
    ];
    for (name, expected) in cases {
        common::assert_warnings(name, &json(name), expected);
    }
}

#[test]
fn timed_numbers() {
    let r = json("timed");
    assert_eq!(r["format"], "br");
    assert_eq!(r["meta"]["mode"], "timed");
    assert_eq!(r["totals"]["samples"], 3);
    assert_eq!(r["totals"]["elapsed_inclusive_ms"], 4.75);
    assert_eq!(r["totals"]["events"], 3);
    let main = &r["functions"][0];
    assert_eq!(
        (main["name"].as_str(), main["module"].as_str()),
        (Some("(main)"), Some("ORDERS.BR"))
    );
    assert_eq!(main["hits_total"], 3);
    assert_eq!(main["hits_self"], 1);
    assert_eq!(main["elapsed_exclusive_ms"], 0.75);
    let price = &r["functions"][1];
    assert_eq!(price["name"], "FNPRICE");
    assert_eq!(price["elapsed_inclusive_ms"], 4.0);
    assert_eq!(price["elapsed_exclusive_ms"], 1.5);
    let frames: Vec<&str> = r["stacks"][0]["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert!(r["stacks"][0]["child_ms"].is_null());
    assert_eq!(r["packets"][0]["last_ms"], 4.75);
    assert_eq!(r["packets"][0]["first_ms"], 0.0);
    assert!(frames.first() == Some(&"(main)"), "root first: {frames:?}");
}

#[test]
fn frame_kinds_name_functions_as_the_spec_says() {
    let r = json("frame-kinds");
    let frames: Vec<(String, String)> = r["stacks"][0]["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["name"].as_str().unwrap().into(),
                f["module"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want = [
        ("(main)", "MAIN.BR"),
        ("(gosub)", "MAIN.BR"),
        ("UTIL.BR", "UTIL.BR"),
        ("FNLEAF", "UTIL.BR"),
    ];
    assert_eq!(frames, want.map(|(a, b)| (a.to_string(), b.to_string())));
}

#[test]
fn deep_recursion_counts_once() {
    let r = json("deep-recursion");
    let fact = r["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "FNFACT")
        .unwrap();
    assert_eq!(fact["hits_total"], 2);
    assert_eq!(fact["hits_self"], 2);
    assert_eq!(fact["elapsed_inclusive_ms"], 5.0);
    assert_eq!(fact["elapsed_inclusive_pct"], 100.0);
}

/// A log cut at any byte loads (exit 0, with a warning when damaged) or is
/// refused (exit 1); it never panics.
#[test]
fn truncated_logs_never_panic() {
    let dir = compiled("truncated", "timed");
    let bytes = std::fs::read(dir.join("timed.prof")).unwrap();
    for cut in 0..bytes.len() {
        let path = dir.join("cut.prof");
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let o = profx_in(&dir, &["report", "cut.prof", "--json", "--format", "br"]);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "cut at {cut}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn strict_fails_on_the_first_warning_with_its_offset() {
    let dir = compiled("strict", "unclosed-sample");
    let o = profx_in(&dir, &["report", "unclosed-sample.prof", "--strict"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("unclosed-sample.prof: offset 26: sample at offset 9"),
        "{}",
        stderr(&o)
    );
}

/// A table of functions or lines is loaded without stacks
/// (`KeepStacks::Skipped`), and shows what the same table of the profile
/// with them shows; the stacks view keeps them.
#[test]
fn tables_without_stacks_show_what_they_show_with_them() {
    for name in FIXTURES {
        let dir = compiled("tables", name);
        common::tables_match_a_load_with_stacks(&dir, &format!("{name}.prof"));
    }
}

/// Issue 63: a BR log's times are whole nanoseconds, and every time
/// derived from them is written at that resolution in every `--json`
/// document (never `437.09929999999997` for `437.0993`), after a query too.
#[test]
fn json_times_are_written_in_whole_nanoseconds() {
    let bin = env!("CARGO_BIN_EXE_profx");
    let json = |args: &[&str]| -> serde_json::Value {
        let out = Command::new(bin)
            .args(["report", "--demo", "--json"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    fn times(v: &serde_json::Value, key: &str, out: &mut Vec<(String, String)>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    times(x, k, out);
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| times(x, key, out)),
            serde_json::Value::Number(n)
                if key.ends_with("_ms") || key == "total" || key == "self" =>
            {
                out.push((key.to_string(), n.to_string()))
            }
            _ => {}
        }
    }
    let whole = json(&[]);
    let top = whole["functions"][1]["name"].as_str().unwrap().to_string();
    let docs = [
        whole,
        json(&["--view", "tree"]),
        json(&["--view", "callers", "--function", &top]),
        json(&["--view", "callees", "--function", &top]),
        json(&["--merge", &top]),
    ];
    let mut seen = 0;
    for doc in &docs {
        let mut all = Vec::new();
        times(doc, "", &mut all);
        for (key, text) in all {
            let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
            assert!(decimals <= 6, "{key}: {text} is finer than a nanosecond");
            seen += 1;
        }
    }
    assert!(seen > 50, "times were read: {seen}");
}
