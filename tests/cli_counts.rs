//! Counts a person reads are grouped, `1 row` is singular (issue 64):
//! the report tables' headings, `--view info` (meta's whole numbers and
//! the warnings too), a packet's events, the tree's and the butterfly's
//! row counts; `--json` keeps plain numbers. The app's Info pane writes its
//! counts with the same helper (`report::fmt::grouped`; its unit test in
//! `src/tui/pane/info.rs`).

mod common;

use common::{profx, real_file, report_json, scratch, stderr, stdout};

fn ok(args: &[&str]) -> String {
    let o = profx(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// A PLIST `/T` file of 1,234 functions, one calling the next.
fn many_functions(dir: &std::path::Path) -> String {
    let mut text = String::from("1\t522\tProfile: Function timing\n");
    for i in 0..1234 {
        text.push_str(&format!("6\tT.EXE\tt.obj\t1\t1.000\t1.000\tf{i:04}\n"));
    }
    let path = dir.join("many.txt");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// An Xbase++ trace of 1,500 calls: 3,000 events.
fn many_events(dir: &std::path::Path) -> String {
    let mut text = String::new();
    for i in 0..1500 {
        text.push_str(&format!("1,{}.0,\"i\",\"F\",1\n", 2 * i));
        text.push_str(&format!("1,{}.0,\"o\",\"F\"\n", 2 * i + 1));
    }
    let path = dir.join("many.prf");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_tables_heading_groups_its_counts() {
    let dir = scratch("cli_counts", "heading");
    let file = many_functions(&dir);
    let text = ok(&["report", &file, "--top", "2"]);
    assert!(
        text.starts_with("# functions: 2 of 1,234 · "),
        "{}",
        text.lines().next().unwrap_or("")
    );
    let info = ok(&["report", &file, "--view", "info"]);
    assert!(
        info.lines()
            .any(|l| l == format!("{:<16} 1,234", "functions")),
        "{info}"
    );
    let r = report_json(&file, &[]);
    assert_eq!(r["totals"]["functions"], 1234, "--json keeps plain numbers");
}

#[test]
fn info_groups_meta_counts_and_aligns_long_keys() {
    let file = real_file("cdex_lame_function_timing.txt");
    let info = ok(&["report", &file, "--view", "info"]);
    let line = |key: &str| {
        info.lines()
            .find(|l| l.starts_with(&format!("{key} ")))
            .unwrap_or_else(|| panic!("no {key}:\n{info}"))
            .to_string()
    };
    assert!(line("total_hits").ends_with(" 16,359,081"), "{info}");
    // The longest key sets the column of every value.
    let column = |l: String| l.find(|c: char| c.is_ascii_digit()).unwrap();
    assert_eq!(
        column(line("overhead_calculated")),
        column(line("total_hits")),
        "{info}"
    );
    assert!(info.contains("\n# warnings: 5\n"), "{info}");
    let r = report_json(&file, &[]);
    assert_eq!(
        r["meta"]["total_hits"], 16359081,
        "--json keeps plain numbers"
    );
}

#[test]
fn a_packets_events_are_grouped() {
    let dir = scratch("cli_counts", "packets");
    let file = many_events(&dir);
    let text = ok(&["report", &file, "--view", "packets"]);
    let row = text.lines().nth(2).unwrap_or("");
    assert!(row.contains(" 3,000 "), "{text}");
    let info = ok(&["report", &file, "--view", "info"]);
    assert!(
        info.lines().any(|l| l == format!("{:<16} 3,000", "events")),
        "{info}"
    );
}

#[test]
fn one_row_is_a_row() {
    let trace = "tests/fixtures/xpp/orders-run.prf";
    let callers = ok(&["report", trace, "--view", "callers", "--function", "FETCH"]);
    assert!(
        callers.starts_with("# callers of FETCH · 1 row · "),
        "{callers}"
    );
    let tree = ok(&["report", trace, "--view", "tree", "--depth", "1"]);
    assert!(
        tree.starts_with("# call tree · top-down · 2 rows · "),
        "{tree}"
    );
    let one = ok(&[
        "report", trace, "--view", "tree", "--depth", "1", "--focus", "MAIN",
    ]);
    assert!(
        one.starts_with("# call tree · top-down · 1 row · "),
        "{one}"
    );
}
