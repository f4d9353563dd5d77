//! Issue 69: a load that would need more memory than allowed is refused
//! before it starts (exit 1), naming what it needs and `--max-memory`;
//! within the limit it loads as ever.

mod common;

#[test]
fn a_load_over_max_memory_is_refused_naming_the_flag() {
    let file = "tests/fixtures/xpp/two-threads.prf";
    for args in [
        vec!["report", file, "--max-memory", "1M"],
        vec![
            "export",
            file,
            "--to",
            "folded",
            "-o",
            "-",
            "--max-memory",
            "1M",
        ],
    ] {
        let o = common::profx(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", common::stderr(&o));
        let err = common::stderr(&o);
        assert!(err.contains("--max-memory SIZE"), "{err}");
        assert!(
            err.contains("needs about") && err.contains("two-threads.prf"),
            "{err}"
        );
        assert!(
            common::stdout(&o).is_empty(),
            "nothing printed: {}",
            common::stdout(&o)
        );
    }
}

#[test]
fn a_load_within_max_memory_is_the_same_report() {
    let file = "tests/fixtures/xpp/two-threads.prf";
    let plain = common::profx(&["report", file, "--json"]);
    let within = common::profx(&["report", file, "--json", "--max-memory", "4G"]);
    assert_eq!(within.status.code(), Some(0), "{}", common::stderr(&within));
    assert_eq!(within.stdout, plain.stdout);
}

#[test]
fn a_size_that_is_none_is_a_usage_error() {
    let o = common::profx(&[
        "report",
        "tests/fixtures/xpp/two-threads.prf",
        "--max-memory",
        "lots",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::stderr(&o).contains("not a size"),
        "{}",
        common::stderr(&o)
    );
}
