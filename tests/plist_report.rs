//! `profx report` on PLIST /T fixtures, through the real binary.

mod common;

use common::{profx, report_json, stderr, stdout};

/// Files that load (with or without warnings): their `--json` is reviewed
/// once and then must not change.
const LOADS: &[&str] = &[
    "function-timing",
    "partial-stacks",
    "demo-orders",
    "line-counting",
    "function-coverage",
    "no-session-total",
    "space-separated",
    "crlf-windows-1252",
    "hostile-names",
    "truncated-last-line",
    "bad-first-field",
    "unknown-tag",
    "missing-fields",
    "non-numeric-count",
    "duplicate-function",
    "short-stack",
    "extra-stack-frame",
    "stack-count-mismatch",
    "frame-without-stack",
    "stack-before-function",
    "func-child-below-func",
    "overflowing-sum",
    "listing-function-counting",
    "listing-function-coverage",
    "listing-line-counting",
    "listing-line-coverage",
    "listing-wrapped-names",
    "listing-child-below-func",
    "listing-overflowing-value",
    "listing-pages",
    "listing-other-statistics",
];

fn fixture(name: &str) -> String {
    format!("tests/fixtures/plist/{name}.txt")
}

#[test]
fn json_of_every_fixture_matches_its_reviewed_snapshot() {
    for name in LOADS {
        let o = profx(&["report", &fixture(name), "--json"]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        insta::assert_snapshot!(format!("json-{name}"), stdout(&o));
    }
}

/// The reference loader gives every fixture's `--json`, the real files'
/// too: the fast engine and the format's rules read line by line agree.
#[test]
fn the_reference_loader_reads_every_fixture_alike() {
    let real = [
        "cdex_lame_function_timing",
        "kb_q185295_function_timing_excerpt",
    ];
    let files = LOADS.iter().map(|n| fixture(n));
    let files = files.chain(real.iter().map(|n| format!("tests/fixtures/real/{n}.txt")));
    for file in files {
        let fast = profx(&["report", &file, "--json"]);
        let reference = profx(&["report", &file, "--json", "--reference"]);
        assert_eq!(
            reference.status.code(),
            Some(0),
            "{file}: {}",
            stderr(&reference)
        );
        assert_eq!(stdout(&fast), stdout(&reference), "{file}");
    }
}

/// Each defect formats.md names gives exactly its warning, at the line the
/// spec says (the tag 9 line for a short stack, the tag 8 line for a count
/// that does not match, the later record of a merged pair, the line itself
/// for a bad or unknown record).
#[test]
fn every_spec_warning_is_produced_at_its_place() {
    let cases: &[(&str, &[(&str, &str)])] = &[
        ("bad-first-field", &[("line 2", "not_a_record")]),
        ("unknown-tag", &[("line 3", "unknown_record_type")]),
        ("missing-fields", &[("line 3", "missing_field")]),
        ("non-numeric-count", &[("line 3", "not_a_number")]),
        ("duplicate-function", &[("line 4", "listed_again")]),
        ("short-stack", &[("line 5", "count_mismatch")]),
        ("extra-stack-frame", &[("line 8", "count_mismatch")]),
        ("stack-count-mismatch", &[("line 4", "count_mismatch")]),
        ("frame-without-stack", &[("line 3", "out_of_place")]),
        (
            "stack-before-function",
            &[
                ("line 2", "out_of_place"),
                ("line 3", "out_of_place"),
                ("line 4", "out_of_place"),
            ],
        ),
        // The stack AfxWinMain > PumpMessage, listed twice (its times add
        // up), states 745.255 ms of child time while its listed callee
        // OnWndMsg holds 940.322 (model.md § Calling-context tree).
        ("function-timing", &[("line 13", "stack_below_callees")]),
        ("space-separated", &[]),
        ("crlf-windows-1252", &[]),
        (
            "func-child-below-func",
            &[
                ("line 4", "impossible_value"),
                ("line 6", "impossible_value"),
                ("line 6", "impossible_value"),
            ],
        ),
        (
            "overflowing-sum",
            &[
                ("line 5", "listed_again"),
                ("tests/fixtures/plist/overflowing-sum.txt", "overflow"),
                ("tests/fixtures/plist/overflowing-sum.txt", "overflow"),
            ],
        ),
        ("listing-function-counting", &[]),
        ("listing-function-coverage", &[]),
        ("listing-line-counting", &[]),
        ("listing-line-coverage", &[]),
        ("listing-pages", &[]),
        ("listing-other-statistics", &[]),
        ("listing-wrapped-names", &[("line 19", "listed_again")]),
        (
            "listing-child-below-func",
            &[("line 7", "impossible_value")],
        ),
        (
            "listing-overflowing-value",
            &[
                ("line 8", "number_too_large"),
                ("line 9", "number_too_large"),
            ],
        ),
    ];
    for (name, expected) in cases {
        common::assert_warnings(name, &report_json(&fixture(name), &[]), expected);
    }
}

#[test]
fn merged_and_repaired_records_keep_their_numbers() {
    let dup = report_json(&fixture("duplicate-function"), &[]);
    let main = &dup["functions"][0];
    assert_eq!(main["name"], "main");
    assert_eq!(main["calls"], 3);
    assert_eq!(main["elapsed_inclusive_ms"], 7.5);
    assert_eq!(main["elapsed_exclusive_ms"], 2.5);

    let short = report_json(&fixture("short-stack"), &[]);
    let frames: Vec<&str> = short["stacks"][0]["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        frames,
        ["main", "helper"],
        "kept frame plus the owner as leaf"
    );
}

#[test]
fn counting_profiles_have_null_times_and_keep_counts() {
    let cov = report_json(&fixture("function-coverage"), &[]);
    assert_eq!(
        cov["totals"]["elapsed_inclusive_ms"],
        serde_json::Value::Null
    );
    assert_eq!(cov["totals"]["outside_ms"], serde_json::Value::Null);
    let f = &cov["functions"][0];
    assert_eq!(f["calls"], 1);
    assert!(f["elapsed_inclusive_ms"].is_null() && f["elapsed_inclusive_pct"].is_null());

    let lines = report_json(&fixture("line-counting"), &[]);
    assert_eq!(lines["totals"]["lines"], 5);
    assert_eq!(lines["lines"][0]["file"], "C:\\code\\ProfTest\\MainFrm.cpp");
    assert_eq!(lines["lines"][0]["line"], 7);
    assert_eq!(lines["lines"][2]["hits"], 1);
    assert!(lines["lines"][2]["time_ms"].is_null());
}

#[test]
fn timing_profile_totals_and_percents() {
    let r = report_json(&fixture("function-timing"), &[]);
    assert_eq!(r["schema"], 1);
    assert_eq!(r["format"], "plist");
    assert_eq!(r["totals"]["elapsed_inclusive_ms"], 88816.409);
    assert_eq!(r["totals"]["outside_ms"], 86.09);
    assert_eq!(r["meta"]["method_code"], 522);
    assert_eq!(r["meta"]["start_function"], "_WinMainCRTStartup");
    let pump = &r["functions"][1];
    assert_eq!(pump["name"], "CWinThread::PumpMessage(void)");
    let pct = pump["elapsed_exclusive_pct"].as_f64().unwrap();
    assert!((pct - 100.0 * 86571.608 / 88816.409).abs() < 1e-9);
    // Two listings of one path (root-first, and leaf-first reversed) are one stack.
    assert_eq!(r["totals"]["stacks"], 3);
    assert_eq!(r["stacks"][0]["hits"], 517);
    assert_eq!(r["stacks"][1]["hits"], 70);
}

#[test]
fn files_that_cannot_load_exit_1_naming_file_place_and_reason() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["report", "tests/fixtures/plist/empty.txt"],
            &["empty.txt", "offset 0", "empty"],
        ),
        (
            &["report", "tests/fixtures/plist/listing-without-rows.txt"],
            &[
                "listing-without-rows.txt",
                "line 1",
                "no function row under the Profile line",
            ],
        ),
        (
            &[
                "report",
                "tests/fixtures/xpp/hand-example.prf",
                "--format",
                "plist",
            ],
            &["hand-example.prf", "line 1", "no usable PLIST record"],
        ),
        (
            &["report", "tests/fixtures/plist/no-such-file.txt"],
            &["no-such-file.txt", "cannot read"],
        ),
        (
            &[
                "report",
                "tests/fixtures/plist/duplicate-function.txt",
                "--strict",
            ],
            &["duplicate-function.txt", "line 4", "listed again"],
        ),
    ];
    for (args, needles) in cases {
        let o = profx(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}: nothing on stdout");
        let err = stderr(&o);
        for n in *needles {
            assert!(err.contains(n), "{args:?}: {err:?} lacks {n:?}");
        }
    }
}

#[test]
fn strict_accepts_a_clean_file() {
    let o = profx(&["report", &fixture("space-separated"), "--strict", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["report"][..],
        &["report", "x.txt", "--format", "nope"],
        &[
            "report",
            "tests/fixtures/plist/function-timing.txt",
            "--sort",
            "nope",
        ],
        &["report", "x.txt", "--json", "--top", "3"],
        &["report", "--bogus"],
    ] {
        let o = profx(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
    let sort = profx(&["report", &fixture("function-timing"), "--sort", "nope"]);
    assert!(
        stderr(&sort).contains("elapsed_exclusive_ms"),
        "lists the columns"
    );
}

#[test]
fn help_and_version() {
    let v = profx(&["--version"]);
    assert_eq!(v.status.code(), Some(0));
    assert_eq!(
        stdout(&v).trim(),
        format!("profx {}", env!("CARGO_PKG_VERSION"))
    );
    let h = profx(&["report", "--help"]);
    assert_eq!(h.status.code(), Some(0));
    for flag in [
        "--json", "--table", "--view", "--sort", "--top", "--format", "--strict", "--demo",
    ] {
        assert!(stdout(&h).contains(flag), "help mentions {flag}");
    }
}

#[test]
fn table_sorts_by_any_column_and_cuts_to_top() {
    let o = profx(&[
        "report",
        &fixture("function-timing"),
        "--table",
        "--sort",
        "calls",
        "--top",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let rows: Vec<&str> = out.lines().skip(2).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(rows[0].starts_with("CView::AssertValid(void)"), "{out}");
    assert!(rows[1].starts_with("CWnd::OnWndMsg"), "{out}");
    assert!(
        out.starts_with("# functions: 2 of 5 · sorted by calls desc"),
        "{out}"
    );

    let asc = profx(&[
        "report",
        &fixture("function-timing"),
        "--sort",
        "calls",
        "--reverse",
        "--top",
        "1",
    ]);
    assert!(
        stdout(&asc)
            .lines()
            .nth(2)
            .unwrap()
            .starts_with("CProfTestApp::OnAppAbout")
    );
}

#[test]
fn every_view_renders() {
    for view in ["functions", "lines", "stacks", "packets", "info"] {
        let o = profx(&["report", &fixture("function-timing"), "--view", view]);
        assert_eq!(o.status.code(), Some(0), "{view}");
        assert!(!o.stdout.is_empty(), "{view}");
    }
    let stacks = stdout(&profx(&[
        "report",
        &fixture("function-timing"),
        "--view",
        "stacks",
    ]));
    assert!(stacks.contains("AfxWinMain(struct HINSTANCE__ *,struct HINSTANCE__ *,char *,int) > CWinThread::PumpMessage(void) > CWnd::OnWndMsg"));
}

/// Names with escape sequences reach the table as visible text, never raw.
#[test]
fn hostile_names_never_reach_the_table_raw() {
    for view in ["functions", "info", "stacks"] {
        let o = profx(&["report", &fixture("hostile-names"), "--view", view]);
        assert!(
            !o.stdout.iter().any(|&b| b == 0x1b || b == 0x07),
            "{view}: raw control byte"
        );
        assert!(
            !stdout(&o).contains('\u{202e}'),
            "{view}: raw bidi override"
        );
    }
    let json = profx(&["report", &fixture("hostile-names"), "--json"]);
    assert!(
        !json.stdout.iter().any(|&b| b == 0x1b || b == 0x07),
        "--json: raw control byte"
    );
    assert!(
        !stdout(&json).contains('\u{202e}'),
        "--json: raw bidi override"
    );
    let parsed: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        parsed["functions"][0]["name"], "evil\x1b]0;pwned\x07\x1b[2J\u{202e}name",
        "the model keeps the name"
    );
    let table = stdout(&profx(&["report", &fixture("hostile-names")]));
    assert!(
        table.contains("evil\\x1b]0;pwned\\x07\\x1b[2J\\u{202e}name"),
        "{table}"
    );
}

#[test]
fn input_files_are_left_untouched() {
    let path = format!(
        "{}/{}",
        env!("CARGO_MANIFEST_DIR"),
        fixture("function-timing")
    );
    let before = (
        std::fs::read(&path).unwrap(),
        std::fs::metadata(&path).unwrap().modified().unwrap(),
    );
    report_json(&fixture("function-timing"), &[]);
    let after = (
        std::fs::read(&path).unwrap(),
        std::fs::metadata(&path).unwrap().modified().unwrap(),
    );
    assert_eq!(before, after);
}
