//! Issue 63: damage is said, and the command line's errors are alike
//! (exit codes, closest names, a step naming what an earlier one removed,
//! a path typed as the breadcrumbs write it), through the real binary.

mod common;

use common::{profx, scratch, stderr};

const TRACE: &str = "tests/fixtures/xpp/two-threads.prf";

fn code(out: &std::process::Output) -> i32 {
    out.status.code().expect("an exit code, not a signal")
}

#[test]
fn a_damaged_files_views_say_how_many_warnings_and_where() {
    let damaged = "tests/fixtures/xpp/bad-line.prf";
    for view in ["functions", "lines", "tree", "packets"] {
        let out = profx(&["report", damaged, "--view", view]);
        assert_eq!(code(&out), 0, "{view}");
        let err = stderr(&out);
        assert!(
            err.contains("warnings while loading") && err.contains("--view info"),
            "{view}: {err}"
        );
    }
    // The documents that list the warnings say nothing on stderr.
    for args in [vec!["--json"], vec!["--view", "info"]] {
        let mut all = vec!["report", damaged];
        all.extend(args.iter());
        let out = profx(&all);
        assert_eq!(stderr(&out), "", "{args:?}");
    }
    // A whole file says nothing.
    assert_eq!(stderr(&profx(&["report", TRACE])), "");
    // --strict still fails.
    assert_eq!(code(&profx(&["report", damaged, "--strict"])), 1);
}

#[test]
fn an_empty_view_of_skipped_rows_says_they_were_skipped() {
    let dir = scratch("errors", "skipped");
    let file = dir.join("tree.csv");
    std::fs::write(
        &file,
        "Level,Function Name,Number of Calls,Elapsed Inclusive Time,Elapsed Exclusive Time,Module Name,\n\
         0,\"app.exe\",0,\"2,000.00\",0.00,\"\",\n\
         1,\"Main()\",1,\"zz\",10.00,\"app.exe\",\n",
    )
    .unwrap();
    let out = profx(&["report", file.to_str().unwrap()]);
    assert_eq!(code(&out), 0);
    let err = stderr(&out);
    assert!(
        err.contains("no functions: every function row was skipped: 1 warning"),
        "{err}"
    );
    assert!(!err.contains("does not record"), "{err}");
}

#[test]
fn a_weight_the_profile_lacks_is_a_usage_error() {
    let out = profx(&[
        "export", TRACE, "--to", "folded", "--weight", "hits", "-o", "-",
    ]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("records no hits"), "{}", stderr(&out));
}

#[test]
fn every_name_looked_up_offers_the_closest() {
    let out = profx(&["report", TRACE, "--view", "callers", "--function", "MAN"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("the closest are \"MAIN\""),
        "{}",
        stderr(&out)
    );
    let out = profx(&["report", TRACE, "--focus", "MAN"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("the closest are \"MAIN\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_step_naming_what_an_earlier_step_removed_says_which() {
    let out = profx(&["report", TRACE, "--drop", "FETCH", "--drop", "FETCH"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("\"FETCH\" was dropped by step 1 (drop FETCH)"),
        "{}",
        stderr(&out)
    );
    let out = profx(&["report", TRACE, "--merge", "WORKER", "--focus", "WORKER"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("was merged by step 1"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_path_is_spelled_with_semicolons_and_the_breadcrumbs_spelling_says_so() {
    for flag in ["--focus-path", "--merge-path"] {
        let out = profx(&["report", TRACE, flag, "MAIN>WAITFOR"]);
        assert_eq!(code(&out), 2, "{flag}");
        assert!(
            stderr(&out).contains("(\"MAIN;WAITFOR\")"),
            "{flag}: {}",
            stderr(&out)
        );
        let out = profx(&["report", TRACE, flag, "MAIN;WAITFOR"]);
        assert_eq!(code(&out), 0, "{flag}: {}", stderr(&out));
    }
}
