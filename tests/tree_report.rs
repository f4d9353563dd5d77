//! `profx report --view tree|callers|callees` through the real binary
//! (issue 51): the call tree as `perf report --stdio` prints it and as
//! JSON, one function's edges as the butterfly shows them, and the options
//! that do not go with them.

mod common;

use common::{profx, stderr, stdout};
use serde_json::Value;

const PARTIAL: &str = "tests/fixtures/plist/partial-stacks.txt";
const TRACE: &str = "tests/fixtures/xpp/two-threads.prf";

fn run(args: &[&str]) -> String {
    let mut all = vec!["report"];
    all.extend_from_slice(args);
    let o = profx(&all);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&run(args)).expect("JSON")
}

#[test]
fn the_tree_as_text_top_down_and_bottom_up() {
    insta::assert_snapshot!("tree-partial", run(&[PARTIAL, "--view", "tree"]));
    insta::assert_snapshot!(
        "tree-partial-inverted",
        run(&[PARTIAL, "--view", "tree", "--invert"])
    );
    insta::assert_snapshot!("tree-trace", run(&[TRACE, "--view", "tree"]));
}

/// Every node's total is its self plus its children's; the roots add up
/// to the bottom-up roots; `--depth` and `--min-pct` cut the tree.
#[test]
fn the_tree_as_json_adds_up_and_cuts() {
    let doc = json(&[PARTIAL, "--view", "tree", "--json"]);
    assert_eq!(doc["schema"], 1);
    assert_eq!(doc["weight"], "ms");
    let nodes = doc["nodes"].as_array().expect("nodes");
    let f = |v: &Value| v.as_f64().unwrap_or(0.0);
    for n in nodes {
        let kids: f64 = nodes
            .iter()
            .filter(|k| k["parent"] == n["id"])
            .map(|k| f(&k["total"]))
            .sum();
        assert!((f(&n["total"]) - f(&n["self"]) - kids).abs() < 1e-9, "{n}");
    }
    let roots = |doc: &Value| -> f64 {
        doc["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["parent"].is_null())
            .map(|n| f(&n["total"]))
            .sum()
    };
    let up = json(&[PARTIAL, "--view", "tree", "--json", "--invert"]);
    assert_eq!(up["direction"], "bottom-up");
    assert!((roots(&doc) - roots(&up)).abs() < 1e-9);
    let names: Vec<&str> = nodes.iter().map(|n| n["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"(no call path)") && names.contains(&"(unlisted)"));
    let one = json(&[PARTIAL, "--view", "tree", "--json", "--depth", "1"]);
    let one = one["nodes"].as_array().unwrap();
    assert!(one.iter().all(|n| n["parent"].is_null()), "{one:?}");
    assert_eq!(one.len(), 2);
    // main loop holds 66.67 % of the session, (no call path) 29.33 %.
    let cut = json(&[PARTIAL, "--view", "tree", "--json", "--min-pct", "30"]);
    let cut: Vec<&str> = cut["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    assert_eq!(cut, ["main loop", "draw"]);
}

/// A function's callers and callees as the butterfly lists them: shares of
/// its inclusive time, `(root)` for its calls from no caller, `(self)`.
#[test]
fn one_functions_edges_as_text_and_json() {
    insta::assert_snapshot!(
        "callers-draw",
        run(&[PARTIAL, "--view", "callers", "--function", "draw"])
    );
    insta::assert_snapshot!(
        "callees-main-loop",
        run(&[
            PARTIAL,
            "--view",
            "callees",
            "--function",
            "t.obj!main loop"
        ])
    );
    let doc = json(&[PARTIAL, "--view", "callers", "--function", "draw", "--json"]);
    assert_eq!(doc["side"], "callers");
    assert_eq!(doc["share_of"], "elapsed_inclusive_ms");
    let rows = doc["functions"][0]["rows"].as_array().expect("rows");
    let calls: u64 = rows.iter().map(|r| r["calls"].as_u64().unwrap_or(0)).sum();
    assert_eq!(calls, 5, "the edges' calls and the root's are draw's calls");
    assert_eq!(rows[0]["name"], "main loop");
    assert_eq!(rows[0]["share_pct"], 75.0);
    assert_eq!(rows[1]["kind"], "root");
}

#[test]
fn options_that_do_not_go_with_the_views_are_usage_errors() {
    for args in [
        &[PARTIAL, "--view", "callers"][..],
        &[PARTIAL, "--view", "callers", "--function", "nope"],
        &[PARTIAL, "--view", "tree", "--top", "3"],
        &[PARTIAL, "--view", "tree", "--function", "draw"],
        &[PARTIAL, "--view", "functions", "--invert"],
        &[
            PARTIAL,
            "--view",
            "callees",
            "--function",
            "draw",
            "--depth",
            "2",
        ],
        &[PARTIAL, "--view", "tree", "--depth", "0"],
        &[PARTIAL, "--view", "tree", "--min-pct", "NaN"],
        &[PARTIAL, "--view", "tree", "--min-pct", "101"],
    ] {
        let mut all = vec!["report"];
        all.extend_from_slice(args);
        let o = profx(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

/// `parent_pct`: a node's total over its parent's, `null` at a root, both
/// ways round; the text's `Parent%` column prints the same shares.
#[test]
fn each_node_states_its_share_of_its_parent() {
    for invert in [false, true] {
        let mut args = vec![TRACE, "--view", "tree", "--json"];
        if invert {
            args.push("--invert");
        }
        let doc = json(&args);
        let nodes = doc["nodes"].as_array().expect("nodes");
        let total = |id: &Value| {
            nodes
                .iter()
                .find(|n| &n["id"] == id)
                .and_then(|n| n["total"].as_f64())
                .expect("a parent")
        };
        let mut shares = 0;
        for n in nodes {
            let share = &n["parent_pct"];
            if n["parent"].is_null() {
                assert!(share.is_null(), "a root has no parent: {n}");
                continue;
            }
            let want = 100.0 * n["total"].as_f64().unwrap() / total(&n["parent"]);
            let got = share.as_f64().expect("a share");
            assert!((got - want).abs() < 1e-9, "{n}: {got} vs {want}");
            shares += 1;
        }
        assert!(shares >= 2, "{doc}");
    }
    let text = run(&[TRACE, "--view", "tree"]);
    let head = text.lines().nth(1).expect("a heading");
    assert!(head.starts_with("Total%  Parent%"), "{head}");
}
