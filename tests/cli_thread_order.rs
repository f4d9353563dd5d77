//! Threads are listed in id order wherever profx lists them (issue 64),
//! whichever ran first: `--json`'s `threads`, `--view threads`' ties, the
//! threads CSV, speedscope's profiles, Chrome's thread ids, `--thread`'s
//! choice and the ids a usage error lists. The fixture's threads first
//! appear as 9, 10, 2: in id order 2, 9, 10 (and not "10" before "2", as
//! text would sort them).

mod common;

use common::{profx, report_json, stderr, stdout};
use serde_json::Value;

const TRACE: &str = "tests/fixtures/xpp/thread-order.prf";
const BY_ID: [u64; 3] = [2, 9, 10];

fn ok(args: &[&str]) -> String {
    let o = profx(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

fn export(to: &[&str]) -> String {
    let mut args = vec!["export", TRACE, "-o", "-", "--to"];
    args.extend_from_slice(to);
    ok(&args)
}

fn ids(rows: &Value) -> Vec<u64> {
    rows.as_array()
        .expect("an array")
        .iter()
        .map(|t| t["id"].as_u64().expect("an id"))
        .collect()
}

#[test]
fn json_lists_the_threads_by_id_though_thread_9_came_first() {
    let r = report_json(TRACE, &[]);
    assert_eq!(ids(&r["threads"]), BY_ID);
    assert_eq!(r["threads"][0]["first_ms"], 2.0, "thread 2's own numbers");
}

#[test]
fn the_threads_table_and_its_csv_tie_in_id_order() {
    // Every thread has 4 events: the sort ties them all.
    let text = ok(&["report", TRACE, "--view", "threads", "--sort", "events"]);
    let listed: Vec<u64> = text
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(listed, BY_ID, "{text}");
    let csv = export(&["csv", "--view", "threads"]);
    let listed: Vec<u64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(listed, BY_ID, "{csv}");
}

#[test]
fn speedscope_opens_on_the_lowest_thread_and_lists_the_rest_by_id() {
    let doc: Value = serde_json::from_str(&export(&["speedscope"])).unwrap();
    let names: Vec<&str> = doc["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "thread-order.prf thread 2",
            "thread-order.prf thread 9",
            "thread-order.prf thread 10"
        ]
    );
    assert_eq!(doc["activeProfileIndex"], 0);
    assert_eq!(doc["profiles"][0]["startValue"], 2.0);
}

#[test]
fn chrome_numbers_the_threads_by_id() {
    let doc: Value = serde_json::from_str(&export(&["chrome"])).unwrap();
    let events = doc["traceEvents"].as_array().unwrap();
    let named: Vec<(u64, &str)> = events
        .iter()
        .filter(|e| e["name"] == "thread_name")
        .map(|e| {
            let tid = e["tid"].as_u64().unwrap();
            (tid, e["args"]["name"].as_str().unwrap())
        })
        .collect();
    assert_eq!(named, [(1, "thread 2"), (2, "thread 9"), (3, "thread 10")]);
    // tid 1 is thread 2's: its calls, listed first.
    let calls: Vec<(u64, &str)> = events
        .iter()
        .filter(|e| e["ph"] == "B")
        .map(|e| (e["tid"].as_u64().unwrap(), e["name"].as_str().unwrap()))
        .collect();
    assert_eq!(
        calls,
        [
            (1, "LOGGER"),
            (1, "WRITE"),
            (2, "MAIN"),
            (2, "FETCH"),
            (3, "WORKER"),
            (3, "FETCH")
        ]
    );
}

#[test]
fn a_thread_choice_is_said_in_id_order() {
    let r = report_json(
        TRACE,
        &["--thread", "10", "--thread", "2", "--thread", "10"],
    );
    assert_eq!(r["query"]["threads"], serde_json::json!([2, 10]));
    assert_eq!(ids(&r["threads"]), [2, 10]);
    let o = profx(&["report", TRACE, "--thread", "5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no thread 5; the trace's threads are 2, 9, 10"),
        "{}",
        stderr(&o)
    );
}
