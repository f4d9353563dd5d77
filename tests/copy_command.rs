//! `Y` round trip (issue 62, tui.md § The query): the app's query, asked
//! with its keys' intents (a thread choice, steps on rows, call nodes of
//! the tree, a step left out of a thread), is copied as a command line;
//! that line, read back as a POSIX shell reads it and run through the real
//! binary with `--json`, prints the very functions the app shows: every
//! name and module, inclusive and exclusive time, calls and hits, and the
//! total.

mod common;

use common::{profx, stderr};
use profx::load::{LoadOptions, load_inputs, load_paths};
use profx::model::{FuncId, Profile};
use profx::tui::App;
use profx::tui::intent::{Intent, Op};
use ratatui::layout::Rect;
use serde_json::Value;

const TRACE: &str = "tests/fixtures/xpp/orders-run.prf";

fn trace_app() -> App {
    let opts = LoadOptions {
        timeline: true,
        ..LoadOptions::default()
    };
    let p = load_paths(&[TRACE.to_string()], &opts).expect("the trace loads");
    let mut app = App::new(p, "orders-run.prf", Rect::new(0, 0, 120, 40), false);
    // The path as given on the command line, as `term::run` sets it.
    app.export_base = TRACE.into();
    app
}

fn demo_app() -> App {
    let p = load_inputs(&[profx::demo::input()], &LoadOptions::default()).expect("the demo");
    App::new(p, "orders.prof (demo)", Rect::new(0, 0, 120, 40), false)
}

/// What a person does, as intents, each step's answer waited for.
fn act(app: &mut App, intents: &[Intent]) {
    for i in intents {
        app.update(i.clone());
        app.settle_query();
    }
}

/// The function the selection is on, by name.
fn selected(app: &App) -> Option<String> {
    let f = app.pane().function(&app.cx())?;
    Some(app.profile().function_name(f).to_string())
}

/// Moves the selection down the pane on screen to `name`'s row.
fn select(app: &mut App, name: &str) {
    act(app, &[Intent::First]);
    for _ in 0..64 {
        if selected(app).as_deref() == Some(name) {
            return;
        }
        act(app, &[Intent::Move(1)]);
    }
    panic!("{name} is in the pane: {:?}", app.query.crumbs());
}

/// `line` split as a POSIX shell splits it: blanks separate words, `'…'`
/// keeps everything inside, `\` outside quotes keeps the next character.
fn shell_split(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '\'') => quoted = false,
            (true, c) => word.get_or_insert_default().push(c),
            (false, '\'') => {
                quoted = true;
                word.get_or_insert_default();
            }
            (false, '\\') => {
                let next = chars.next().expect("a character after \\");
                word.get_or_insert_default().push(next);
            }
            (false, ' ') => words.extend(word.take()),
            (false, c) => word.get_or_insert_default().push(c),
        }
    }
    assert!(!quoted, "a quote left open in {line}");
    words.extend(word);
    words
}

/// A function's numbers as `--json` states them.
type Numbers = (
    Option<f64>,
    Option<f64>,
    Option<u64>,
    Option<u64>,
    Option<u64>,
);

fn app_numbers(p: &Profile) -> Vec<((String, String), Numbers)> {
    let mut out: Vec<_> = p
        .function_ids()
        .map(|f: FuncId| {
            let func = p.function(f);
            let key = (
                p.function_name(f).to_string(),
                p.function_module(f).to_string(),
            );
            let n = (
                func.time.elapsed_inclusive,
                func.time.elapsed_exclusive,
                func.calls,
                func.hits_self,
                func.hits_total,
            );
            (key, n)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn json_numbers(doc: &Value) -> Vec<((String, String), Numbers)> {
    let mut out: Vec<_> = doc["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().expect("a string").to_string();
            let n = (
                f["elapsed_inclusive_ms"].as_f64(),
                f["elapsed_exclusive_ms"].as_f64(),
                f["calls"].as_u64(),
                f["hits_self"].as_u64(),
                f["hits_total"].as_u64(),
            );
            ((s("name"), s("module")), n)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Copies the command line with `Y` from the Functions pane, runs it with
/// `--json`, and holds its functions and total to the app's. The line.
fn round_trip(app: &mut App) -> String {
    act(app, &[Intent::GoPane(0), Intent::CopyCommand]);
    let line = app.clipboard.clone().expect("Y copies the command line");
    assert_eq!(line, app.command_line());
    let words = shell_split(&line);
    assert_eq!(words[..2], ["profx", "report"], "{line}");
    let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    args.push("--json");
    let o = profx(&args);
    assert_eq!(o.status.code(), Some(0), "{line}: {}", stderr(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let p = app.profile();
    assert!(!p.functions().is_empty(), "{line}");
    assert_eq!(json_numbers(&doc), app_numbers(p), "{line}");
    assert_eq!(
        doc["totals"]["elapsed_inclusive_ms"].as_f64(),
        p.totals.elapsed_inclusive_ms,
        "{line}"
    );
    // The query it states is the app's.
    let steps = doc["query"]["steps"].as_array().expect("steps").len();
    assert_eq!(steps, app.query.steps().count(), "{line}");
    line
}

#[test]
fn the_shell_splitter_reads_what_the_app_quotes() {
    assert_eq!(
        shell_split(r#"profx report --demo --merge '(main)' --x 'it'\''s' a\ b"#),
        [
            "profx", "report", "--demo", "--merge", "(main)", "--x", "it's", "a b"
        ]
    );
}

/// A thread chosen, then a merge and a focus on rows of the Functions
/// pane.
#[test]
fn a_thread_and_steps_print_the_apps_numbers() {
    let mut app = trace_app();
    act(&mut app, &[Intent::Threads, Intent::First, Intent::Accept]);
    let thread = app.query.crumbs()[0].clone();
    assert!(thread.starts_with("thread "), "{thread}: {:?}", app.status);
    select(&mut app, "FNPRICE");
    act(&mut app, &[Intent::Transform(Op::Merge)]);
    select(&mut app, "READITEM");
    act(&mut app, &[Intent::Transform(Op::Focus)]);
    assert_eq!(app.query.crumbs().len(), 3, "{:?}", app.status);
    let line = round_trip(&mut app);
    let id = thread.trim_start_matches("thread ");
    assert_eq!(
        line,
        format!("profx report {TRACE} --thread {id} --merge FNPRICE --focus READITEM")
    );
}

/// The other thread, and a step on a call node of the Call tree: its path
/// joined by `;`, one argument.
#[test]
fn a_call_node_step_after_a_thread_choice() {
    let mut app = trace_app();
    act(
        &mut app,
        &[
            Intent::Threads,
            Intent::Last,
            Intent::Accept,
            Intent::GoPane(3),
        ],
    );
    act(
        &mut app,
        &[Intent::Move(1), Intent::Transform(Op::MergeNode)],
    );
    assert_eq!(app.query.crumbs().len(), 2, "{:?}", app.status);
    let line = round_trip(&mut app);
    assert!(line.contains(" --merge-path "), "{line}");
}

/// A step the thread choice leaves out is not in the command (the status
/// says it was omitted): the command prints what the screen shows.
#[test]
fn a_step_left_out_is_omitted() {
    let mut app = trace_app();
    select(&mut app, "WORKER");
    act(&mut app, &[Intent::Transform(Op::Merge)]);
    // The busiest thread, listed first, is thread 1, which never calls
    // WORKER.
    act(&mut app, &[Intent::Threads, Intent::First, Intent::Accept]);
    assert_eq!(app.query.left_out().len(), 1, "{:?}", app.status);
    select(&mut app, "READITEM");
    act(&mut app, &[Intent::Transform(Op::Drop)]);
    let line = round_trip(&mut app);
    assert!(!line.contains("WORKER"), "{line}");
    assert!(line.ends_with(" --drop READITEM"), "{line}");
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("omitted, left out: merge WORKER"), "{said}");
}

/// The demo's names need quoting: `(main)` and a module's backslash. A
/// collapsed module, a merged call node, a collapsed recursion and a
/// drop, each printed as the app shows it.
#[test]
fn quoted_names_round_trip() {
    let mut app = demo_app();
    select(&mut app, "FNREADITEM");
    act(&mut app, &[Intent::Transform(Op::CollapseModule)]);
    act(
        &mut app,
        &[Intent::GoPane(3), Intent::First, Intent::Move(1)],
    );
    act(&mut app, &[Intent::Transform(Op::MergeNode)]);
    act(&mut app, &[Intent::GoPane(0)]);
    select(&mut app, "FNEXPAND");
    act(&mut app, &[Intent::Transform(Op::CollapseDirectRecursion)]);
    select(&mut app, "FNTAX");
    act(&mut app, &[Intent::Transform(Op::Drop)]);
    assert_eq!(app.query.crumbs().len(), 4, "{:?}", app.status);
    let line = round_trip(&mut app);
    assert!(
        line.starts_with(
            "profx report --demo --collapse-module 'LIB\\DBLIB.BR' --merge-path '(main);"
        ),
        "{line}"
    );
}
