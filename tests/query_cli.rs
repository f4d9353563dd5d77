//! The query's flags through the real binary (issue 62; model.md §
//! Queries, report-json.md § Query and § Table output): each transform
//! flag and `--thread`, on a two-thread Xbase++ trace and on the demo (a
//! BR log whose functions have modules), alone, after a thread choice and
//! beside another flag in either order. The steps keep the order the
//! flags were given; a name no function has (a module no function is in,
//! a thread the trace lacks) is a usage error naming the closest; `--json`
//! states the query and keeps a trace's threads; every table, tree, list
//! and info view states the query on its first line, and each export
//! where its format has a place for it, else on stderr. The whole profile
//! adds nothing.

mod common;

use common::{profx, scratch, stderr, stdout};
use serde_json::Value;

const TRACE: &str = "tests/fixtures/xpp/orders-run.prf";

/// One query flag as a test passes it: the flag, its value, its `--json`
/// op and the key its value is under, another flag that goes with it in
/// either order, and a misspelled value with the name the error must
/// offer.
struct Flag {
    flag: &'static str,
    value: &'static str,
    op: &'static str,
    key: &'static str,
    /// A step that applies before or after this one.
    partner: [&'static str; 2],
    /// A value no function (path, module) has, and the closest the error
    /// must name.
    typo: (&'static str, &'static str),
}

impl Flag {
    fn args(&self) -> [&'static str; 2] {
        [self.flag, self.value]
    }

    /// The step as the first lines say it (`Step::label`): its verb, then
    /// the function, the path with `>`, or the module.
    fn label(&self) -> String {
        let verb = match self.op {
            "merge_path" => "merge node",
            "focus_path" => "focus subtree",
            op => return format!("{} {}", op.replace('_', " "), self.value),
        };
        format!("{verb} {}", self.value.replace(';', ">"))
    }
}

/// The trace's flags: thread 1 calls MAIN > READITEM > FNPRICE > ROUND
/// (and SAVEORDER), thread 2 WORKER > FETCH > PARSE. No function of a
/// trace has a module: `--collapse-module` is the demo's.
const TRACE_FLAGS: &[Flag] = &[
    Flag {
        flag: "--merge",
        value: "FNPRICE",
        op: "merge",
        key: "function",
        partner: ["--drop", "ROUND"],
        typo: ("FNPRICX", "FNPRICE"),
    },
    Flag {
        flag: "--merge-path",
        value: "MAIN;READITEM",
        op: "merge_path",
        key: "path",
        partner: ["--merge", "ROUND"],
        typo: ("MAIN;READITEX", "READITEM"),
    },
    Flag {
        flag: "--drop",
        value: "ROUND",
        op: "drop",
        key: "function",
        partner: ["--merge", "FNPRICE"],
        typo: ("ROUNX", "ROUND"),
    },
    Flag {
        flag: "--focus",
        value: "READITEM",
        op: "focus",
        key: "function",
        partner: ["--merge", "ROUND"],
        typo: ("READITEX", "READITEM"),
    },
    Flag {
        flag: "--focus-path",
        value: "MAIN;READITEM",
        op: "focus_path",
        key: "path",
        partner: ["--merge", "FNPRICE"],
        typo: ("MAIN;READITEX", "READITEM"),
    },
    Flag {
        flag: "--collapse-recursion",
        value: "READITEM",
        op: "collapse_recursion",
        key: "function",
        partner: ["--merge", "ROUND"],
        typo: ("READITEX", "READITEM"),
    },
    Flag {
        flag: "--collapse-direct-recursion",
        value: "FNPRICE",
        op: "collapse_direct_recursion",
        key: "function",
        partner: ["--drop", "ROUND"],
        typo: ("FNPRICX", "FNPRICE"),
    },
    Flag {
        flag: "--collapse-subtree",
        value: "READITEM",
        op: "collapse_subtree",
        key: "function",
        partner: ["--merge", "MAIN"],
        typo: ("READITEX", "READITEM"),
    },
];

/// The demo's flags: `(main)` calls FNPRICE (> FNTAX, > FNDISCOUNT >
/// FNROUND), FNREADCUST, FNEXPAND (recursing), `(gosub)` > FNREADITEM;
/// the FN functions are in `LIB\FNSLIB.BR` or `LIB\DBLIB.BR`.
const DEMO_FLAGS: &[Flag] = &[
    Flag {
        flag: "--merge",
        value: "FNTAX",
        op: "merge",
        key: "function",
        partner: ["--drop", "FNREADCUST"],
        typo: ("FNTAC", "FNTAX"),
    },
    Flag {
        flag: "--merge-path",
        value: "(main);FNPRICE;FNDISCOUNT",
        op: "merge_path",
        key: "path",
        partner: ["--drop", "FNREADCUST"],
        typo: ("(main);FNPRICE;FNDISCOUNX", "FNDISCOUNT"),
    },
    Flag {
        flag: "--drop",
        value: "FNREADCUST",
        op: "drop",
        key: "function",
        partner: ["--merge", "FNTAX"],
        typo: ("FNREADCUSX", "FNREADCUST"),
    },
    Flag {
        flag: "--focus",
        value: "FNPRICE",
        op: "focus",
        key: "function",
        partner: ["--merge", "FNTAX"],
        typo: ("FNPRICX", "FNPRICE"),
    },
    Flag {
        flag: "--focus-path",
        value: "(main);FNPRICE",
        op: "focus_path",
        key: "path",
        partner: ["--merge", "FNROUND"],
        typo: ("(main);FNPRICX", "FNPRICE"),
    },
    Flag {
        flag: "--collapse-recursion",
        value: "FNEXPAND",
        op: "collapse_recursion",
        key: "function",
        partner: ["--merge", "FNTAX"],
        typo: ("FNEXPANX", "FNEXPAND"),
    },
    Flag {
        flag: "--collapse-direct-recursion",
        value: "FNEXPAND",
        op: "collapse_direct_recursion",
        key: "function",
        partner: ["--drop", "FNREADCUST"],
        typo: ("FNEXPANX", "FNEXPAND"),
    },
    Flag {
        flag: "--collapse-module",
        value: "LIB\\FNSLIB.BR",
        op: "collapse_module",
        key: "module",
        partner: ["--drop", "FNREADCUST"],
        typo: ("LIB\\FNSLIX.BR", "LIB\\FNSLIB.BR"),
    },
    Flag {
        flag: "--collapse-subtree",
        value: "FNPRICE",
        op: "collapse_subtree",
        key: "function",
        partner: ["--drop", "FNREADCUST"],
        typo: ("FNPRICX", "FNPRICE"),
    },
];

/// `--demo` or the trace, as the command line names it.
fn input(trace: bool) -> &'static str {
    match trace {
        true => TRACE,
        false => "--demo",
    }
}

/// `profx report INPUT ARGS`, asserting it exits 0.
fn report(trace: bool, args: &[&str]) -> String {
    let mut all = vec!["report", input(trace)];
    all.extend_from_slice(args);
    let o = profx(&all);
    assert_eq!(o.status.code(), Some(0), "{all:?}: {}", stderr(&o));
    stdout(&o)
}

fn json(trace: bool, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    serde_json::from_str(&report(trace, &all)).expect("valid JSON")
}

/// `--json`'s `query.steps` as (op, operand) pairs.
fn steps(doc: &Value) -> Vec<(String, String)> {
    doc["query"]["steps"]
        .as_array()
        .expect("query.steps")
        .iter()
        .map(|s| {
            let o = s.as_object().expect("a step");
            assert_eq!(o.len(), 2, "{s}: an op and its operand");
            let (key, v) = o.iter().find(|(k, _)| *k != "op").expect("an operand");
            let op = o["op"].as_str().expect("op");
            (op.to_string(), format!("{key}={}", v.as_str().unwrap()))
        })
        .collect()
}

fn step_of(f: &Flag) -> (String, String) {
    (f.op.to_string(), format!("{}={}", f.key, f.value))
}

/// The `--json` op and operand of a partner flag.
fn partner_step(p: [&str; 2]) -> (String, String) {
    let op = p[0].trim_start_matches("--").replace('-', "_");
    (op, format!("function={}", p[1]))
}

/// Thread ids of `--json`'s `threads`.
fn thread_ids(doc: &Value) -> Vec<u64> {
    doc["threads"]
        .as_array()
        .expect("threads")
        .iter()
        .map(|t| t["id"].as_u64().expect("an id"))
        .collect()
}

fn flags(trace: bool) -> &'static [Flag] {
    match trace {
        true => TRACE_FLAGS,
        false => DEMO_FLAGS,
    }
}

/// Every transform flag is one step, with its operand as given, and
/// leaves a trace's threads as they are (they were `[]` after a
/// transform); after `--thread 1` the query names the thread and
/// `threads` is that thread's row.
#[test]
fn each_flag_is_a_step_and_keeps_the_threads() {
    let whole = json(true, &[]);
    assert_eq!(thread_ids(&whole), [1, 2]);
    for trace in [true, false] {
        for f in flags(trace) {
            let doc = json(trace, &f.args());
            assert_eq!(steps(&doc), [step_of(f)], "{}", f.flag);
            assert_eq!(doc["query"]["threads"], Value::Null, "{}", f.flag);
            match trace {
                true => assert_eq!(doc["threads"], whole["threads"], "{}", f.flag),
                false => assert_eq!(doc["threads"], serde_json::json!([]), "{}", f.flag),
            }
        }
    }
    let one = json(true, &["--thread", "1"]);
    for f in TRACE_FLAGS {
        let doc = json(true, &["--thread", "1", f.flag, f.value]);
        assert_eq!(
            doc["query"]["threads"],
            serde_json::json!([1]),
            "{}",
            f.flag
        );
        assert_eq!(steps(&doc), [step_of(f)], "{}", f.flag);
        assert_eq!(thread_ids(&doc), [1], "{}", f.flag);
        assert_eq!(doc["threads"], one["threads"], "{}: as chosen", f.flag);
        assert_eq!(doc["packets"], one["packets"], "{}: the events'", f.flag);
    }
}

/// Two flags in either order are two steps in that order.
#[test]
fn the_steps_keep_the_order_the_flags_were_given() {
    for trace in [true, false] {
        for f in flags(trace) {
            let [a, b] = f.partner;
            let first = json(trace, &[f.flag, f.value, a, b]);
            assert_eq!(
                steps(&first),
                [step_of(f), partner_step(f.partner)],
                "{} then {a}",
                f.flag
            );
            let second = json(trace, &[a, b, f.flag, f.value]);
            assert_eq!(
                steps(&second),
                [partner_step(f.partner), step_of(f)],
                "{a} then {}",
                f.flag
            );
        }
    }
    // --thread wherever it is given: the threads first, then the steps.
    let doc = json(
        true,
        &["--merge", "FNPRICE", "--thread", "1", "--drop", "ROUND"],
    );
    assert_eq!(doc["query"]["threads"], serde_json::json!([1]));
    assert_eq!(
        steps(&doc),
        [
            ("merge".into(), "function=FNPRICE".into()),
            ("drop".into(), "function=ROUND".into())
        ]
    );
}

/// A name no function has (a frame of a path, a module, a thread) is a
/// usage error, exit 2, naming the closest the profile has, before or
/// after a thread choice and another step.
#[test]
fn a_name_no_function_has_exits_2_with_the_closest() {
    let refused = |trace: bool, args: &[&str], closest: &str| {
        let mut all = vec!["report", input(trace)];
        all.extend_from_slice(args);
        let o = profx(&all);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{all:?}: {err}");
        assert!(stdout(&o).is_empty(), "{all:?}");
        assert!(err.starts_with("profx: error: "), "{all:?}: {err}");
        let named = format!("{closest:?}");
        assert!(
            err.contains("the closest are ") && err.contains(&named),
            "{all:?} names {named}: {err}"
        );
    };
    for trace in [true, false] {
        for f in flags(trace) {
            let (typo, closest) = f.typo;
            refused(trace, &[f.flag, typo], closest);
            let [a, b] = f.partner;
            refused(trace, &[a, b, f.flag, typo], closest);
            refused(trace, &[f.flag, typo, "--json"], closest);
        }
    }
    for f in TRACE_FLAGS {
        refused(true, &["--thread", "1", f.flag, f.typo.0], f.typo.1);
    }
    // A function of the other thread is no function of thread 1's.
    let o = profx(&["report", TRACE, "--thread", "1", "--merge", "FETCH"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no function is named \"FETCH\""),
        "{}",
        stderr(&o)
    );
    let o = profx(&["report", TRACE, "--thread", "7", "--merge", "FNPRICE"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("no thread 7; the trace's threads are 1, 2"),
        "{err}"
    );
}

/// The first line of every view after `--thread` and each flag, as
/// report-json.md § Table output writes it.
fn first_line(trace: bool, view: &str, query: &[&str], function: &str) -> String {
    let mut args = vec!["--view", view];
    if matches!(view, "callers" | "callees") {
        args.extend(["--function", function]);
    }
    args.extend_from_slice(query);
    let out = report(trace, &args);
    match view {
        // Info's query is its own line, after the format's.
        "info" => out.lines().take(2).collect::<Vec<_>>().join("\n"),
        _ => out.lines().next().unwrap_or_default().to_string(),
    }
}

/// The heaviest function of the query's profile that the whole profile
/// has too (a collapsed module's is new): whose callers and callees the
/// lists show.
fn heaviest(trace: bool, query: &[&str]) -> String {
    let names = |doc: Value| -> Vec<String> {
        doc["functions"]
            .as_array()
            .expect("functions")
            .iter()
            .map(|f| f["name"].as_str().expect("a name").to_string())
            .collect()
    };
    let whole = names(json(trace, &[]));
    names(json(trace, query))
        .into_iter()
        .find(|n| whole.contains(n))
        .expect("a function both have")
}

const VIEWS: [&str; 8] = [
    "functions",
    "lines",
    "stacks",
    "tree",
    "callers",
    "callees",
    "packets",
    "info",
];

/// A view's first line with `words` as the query: after the row count
/// and before the order (`# functions: 3 of 11 · thread 2 › merge F ·
/// sorted by …`), `# packets: 1 · words`, and Info's `query` line.
fn states(view: &str, line: &str, words: &str) -> bool {
    match view {
        "info" => line.lines().nth(1) == Some(&format!("query    {words}")),
        "packets" => line.starts_with("# packets: ") && line.ends_with(&format!(" · {words}")),
        // `1 row`, `2 rows` (issue 64).
        "tree" => {
            line.starts_with("# call tree · ")
                && [" rows", " row"]
                    .iter()
                    .any(|n| line.contains(&format!("{n} · {words} · ")))
        }
        "callers" | "callees" => [" rows", " row"]
            .iter()
            .any(|n| line.contains(&format!("{n} · {words} · shares of "))),
        _ => {
            let rest = line.split_once(" of ").map_or("", |r| r.1);
            let after_count = rest.split_once(" · ").map_or("", |r| r.1);
            after_count.starts_with(&format!("{words} · sorted by "))
        }
    }
}

/// Every view's first line states the query after its count: the thread
/// choice, then each step in the order given; the whole profile's adds
/// nothing.
#[test]
fn every_views_first_line_states_the_query() {
    for trace in [true, false] {
        for f in flags(trace) {
            let function = heaviest(trace, &f.args());
            for view in VIEWS {
                let whole = first_line(trace, view, &[], &function);
                assert!(!whole.contains('›'), "{view}: {whole}");
                assert!(!whole.contains("query"), "{view}: {whole}");
                let line = first_line(trace, view, &f.args(), &function);
                assert!(states(view, &line, &f.label()), "{view} {}: {line}", f.flag);
                // Only the query's words were added (Info's own line aside).
                if view != "info" {
                    let without = line.replace(&format!(" · {}", f.label()), "");
                    let (a, b) = (count_free(&without), count_free(&whole));
                    assert_eq!(a, b, "{view} {}: {line}", f.flag);
                }
            }
        }
    }
    let f = &TRACE_FLAGS[0];
    let [a, b] = f.partner;
    let query = ["--thread", "1", f.flag, f.value, a, b];
    let function = heaviest(true, &query);
    let words = format!("thread 1 › {} › {} {b}", f.label(), &a[2..]);
    for view in VIEWS {
        let line = first_line(true, view, &query, &function);
        assert!(states(view, &line, &words), "{view}: {line}");
    }
}

/// A first line with its numbers as `N`: the query's words aside, a step
/// changes the counts and totals, not what the line says.
fn count_free(line: &str) -> String {
    let mut out = String::new();
    for c in line.chars() {
        match c.is_ascii_digit() || ((c == '.' || c == ',') && out.ends_with('N')) {
            true if out.ends_with('N') => {}
            true => out.push('N'),
            false => out.push(c),
        }
    }
    out
}

/// `export` names the query where its format has a place for it (the
/// speedscope file's and each profile's name, the Chrome trace's
/// `otherData.query`) and says it on stderr for folded stacks and CSV;
/// the whole profile's name nothing.
#[test]
fn exports_state_the_query() {
    let dir = scratch("query_cli", "exports");
    let export = |trace: bool, to: &str, query: &[&str], n: usize| {
        let out = dir.join(format!("{n}.{to}"));
        let out = out.to_str().expect("a UTF-8 path").to_string();
        let mut args = vec!["export", input(trace), "--to", to, "-o", &out];
        args.extend_from_slice(query);
        let o = profx(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let text = std::fs::read_to_string(&out).expect("written");
        (text, stderr(&o))
    };
    let mut n = 0;
    for trace in [true, false] {
        let mut queries: Vec<(Vec<&str>, Option<String>)> = vec![(vec![], None)];
        for f in flags(trace) {
            queries.push((f.args().to_vec(), Some(f.label())));
        }
        if trace {
            let words = "thread 2 › merge FETCH".to_string();
            queries.push((vec!["--thread", "2", "--merge", "FETCH"], Some(words)));
        }
        for (query, words) in queries {
            n += 1;
            let said = |err: &str| {
                err.lines()
                    .find_map(|l| l.strip_prefix("profx: the export answers the query "))
                    .map(str::to_string)
            };
            let (text, err) = export(trace, "speedscope", &query, n);
            let doc: Value = serde_json::from_str(&text).expect("speedscope JSON");
            let name = doc["name"].as_str().expect("a name");
            let names: Vec<&str> = doc["profiles"]
                .as_array()
                .expect("profiles")
                .iter()
                .map(|p| p["name"].as_str().expect("a profile's name"))
                .collect();
            match &words {
                Some(w) => {
                    assert!(name.ends_with(&format!(" · {w}")), "{query:?}: {name}");
                    for p in &names {
                        assert!(p.contains(w.as_str()), "{query:?}: {p}");
                    }
                }
                None => {
                    assert!(!name.contains('·'), "{name}");
                    assert!(names.iter().all(|p| !p.contains('·')), "{names:?}");
                }
            }
            assert_eq!(said(&err), None, "speedscope names it: {err}");
            // A trace's calls in time order (the demo's samples are none).
            if trace {
                let (text, err) = export(trace, "chrome", &query, n);
                let doc: Value = serde_json::from_str(&text).expect("Chrome JSON");
                let other = &doc["otherData"];
                assert_eq!(
                    other["query"].as_str(),
                    words.as_deref(),
                    "{query:?}: {other}"
                );
                assert_eq!(said(&err), None, "Chrome's metadata names it: {err}");
            }
            for to in ["folded", "csv"] {
                let (_, err) = export(trace, to, &query, n);
                assert_eq!(said(&err), words, "{to} {query:?}: {err}");
            }
        }
    }
}
