//! What a fuzz target, a property test and a regression fixture all do to
//! a byte string: detect, load, report and draw it, and check the promises
//! that hold for any input at all.
//!
//! Kept in the library (hidden from the docs) so that the libFuzzer targets
//! under `fuzz/` and the stable-toolchain tests run exactly the same code;
//! a crash one finds, the other replays.
//!
//! The promises, each a panic here so a fuzzer reports it as a crash:
//! - no panic, however the input is damaged;
//! - a profile's stacks name only its own functions;
//! - every warning's place is inside the input;
//! - nothing a file holds reaches the terminal raw: the `--table` text of
//!   every view and every cell of every drawn screen are free of control
//!   characters (a newline ends a table row, nothing else);
//! - a query on what loaded (each kind of step, the steps stacked, a
//!   thread choice alone and followed by a step), run by the one runner
//!   as `report` and as the app run it, answers or says why, its profile
//!   keeps the model's promises and its `--json` renders clean; the app
//!   applies a step and a thread choice and draws every pane after them.

use crate::analysis::view::{Table, View};
use crate::load::{Input, LoadOptions, load_inputs};
use crate::model::{Place, Profile};
use crate::report::{json, table};
use crate::text::is_unsafe;
use crate::tui::App;
use crate::tui::intent::{Intent, Op};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

/// Loads `bytes` by detection and as `format`, the second time in small
/// parallel chunks, and checks every profile that loads; gives how many
/// loaded (a fuzzed input may load neither way).
pub fn exercise(bytes: &[u8], format: &str) -> usize {
    let tries = [
        LoadOptions::default(),
        LoadOptions {
            format: Some(format.to_string()),
            chunk_bytes: Some(97),
            timeline: true,
            ..Default::default()
        },
    ];
    let mut loaded = 0;
    for opts in &tries {
        let input = Input::owned("fuzzed", bytes.to_vec());
        if let Ok(p) = load_inputs(&[input], opts) {
            check_profile(&p, bytes.len());
            check_reports(&p);
            check_exports(&p);
            let p = std::sync::Arc::new(p);
            let _ = check_queries(&p, bytes.len());
            let Ok(p) = std::sync::Arc::try_unwrap(p) else {
                panic!("an answer outlived its query");
            };
            check_screens(p);
            loaded += 1;
        }
    }
    loaded
}

/// The model's own promises.
pub fn check_profile(p: &Profile, len: usize) {
    let functions = p.functions().len();
    for s in p.stack_ids() {
        for f in p.frames(s) {
            assert!(f.index() < functions, "a stack names an unknown function");
        }
    }
    for w in p.warnings() {
        if let Place::Offset(at) = w.place {
            assert!(
                at <= len as u64,
                "warning at offset {at} past the end ({len})"
            );
        }
        assert!(!w.message.is_empty(), "a warning says nothing");
    }
}

/// Neither `--json` nor the `--table` of any view holds a raw control character.
pub fn check_reports(p: &Profile) {
    let doc = json::render(p);
    if let Some(c) = doc.chars().find(|&c| c != '\n' && is_unsafe(c)) {
        panic!("--json holds a raw {c:?}");
    }
    let raw = |view: &str, text: &str| {
        if let Some(c) = text.chars().find(|&c| c != '\n' && is_unsafe(c)) {
            panic!("--table --view {view} holds a raw {c:?}");
        }
    };
    for t in Table::ALL {
        if let Ok(text) = table::render(p, t, &Default::default()) {
            raw(t.name(), &text);
        }
    }
    raw(View::Info.name(), &table::info(p, p, None));
}

/// A step of each kind on `p`'s functions, modules and first stack (its
/// first function merged, focused, collapsed; its last dropped; its first
/// stack's node merged and its root's subtree focused).
fn some_steps(p: &Profile) -> Vec<crate::analysis::query::Step> {
    use crate::analysis::query::{Step, spelling};
    let (Some(f), Some(last)) = (p.function_ids().next(), p.function_ids().last()) else {
        return Vec::new();
    };
    let t = spelling(p, f);
    let mut steps = vec![
        Step::Merge(t.clone()),
        Step::Drop(spelling(p, last)),
        Step::Focus(t.clone()),
        Step::CollapseRecursion(t.clone()),
        Step::CollapseDirectRecursion(t.clone()),
        Step::CollapseSubtree(t),
    ];
    if !p.function_module(f).is_empty() {
        steps.push(Step::CollapseModule(p.function_module(f).to_string()));
    }
    if let Some(s) = p.stack_ids().next() {
        let frames: Vec<_> = p.frames(s).into_iter().map(|f| spelling(p, f)).collect();
        steps.push(Step::FocusPath(frames.iter().take(1).cloned().collect()));
        steps.push(Step::MergePath(frames));
    }
    steps
}

/// Queries on `p` through the one runner, by a script's policy and the
/// app's: each kind of step alone, all of them stacked, the first thread
/// alone and followed by a step. Each answers or says why; what answers
/// keeps the model's promises, and its `--json` (the query, the chosen
/// threads' events) holds no raw control character and parses. The
/// queries that answered, by either policy (the app's leaves out a step
/// the steps before left nothing to name for).
pub fn check_queries(
    p: &std::sync::Arc<Profile>,
    len: usize,
) -> Vec<crate::analysis::query::Query> {
    use crate::analysis::query::{Answer, Policy, Query, thread_ids};
    let steps = some_steps(p);
    let mut queries: Vec<Query> = steps
        .iter()
        .map(|s| Query {
            steps: vec![s.clone()],
            ..Query::default()
        })
        .collect();
    queries.push(Query {
        steps: steps.clone(),
        ..Query::default()
    });
    if let Some(&t) = thread_ids(p).first() {
        for steps in [Vec::new(), steps.iter().take(1).cloned().collect()] {
            queries.push(Query {
                threads: Some(vec![t]),
                steps,
                ..Query::default()
            });
        }
    }
    // The middle of the run, alone and under the first step.
    if let Some(run) = Answer::whole(p.clone()).run_span() {
        let span = run.until_ms - run.from_ms;
        let range = crate::model::TimeRange {
            from_ms: run.from_ms + span / 4.0,
            until_ms: run.until_ms - span / 4.0,
        };
        for steps in [Vec::new(), steps.iter().take(1).cloned().collect()] {
            queries.push(Query {
                range: Some(range),
                steps,
                ..Query::default()
            });
        }
    }
    let mut answered = Vec::new();
    for q in queries {
        for policy in [Policy::Script, Policy::App] {
            let Ok(a) = Answer::run(p, &q, policy, &crate::model::Watch::NONE) else {
                continue;
            };
            if !answered.contains(&q) {
                answered.push(q.clone());
            }
            check_profile(a.paths(), len);
            let mut out = Vec::new();
            if json::write_answer(&a, &mut out).is_err() {
                panic!("--json of {q:?} fails to render");
            }
            let Ok(doc) = String::from_utf8(out) else {
                panic!("--json of {q:?} is not UTF-8");
            };
            if let Some(c) = doc.chars().find(|&c| c != '\n' && is_unsafe(c)) {
                panic!("--json of {q:?} holds a raw {c:?}");
            }
            let parsed: Result<serde_json::Value, _> = serde_json::from_str(&doc);
            assert!(parsed.is_ok(), "--json of {q:?} is not JSON: {parsed:?}");
        }
    }
    answered
}

/// Every export either writes or says why not; what it writes holds no raw
/// control character, and the JSON ones parse.
pub fn check_exports(p: &Profile) {
    use crate::export::{Request, Target, write};
    let targets = [
        Target::Folded,
        Target::Speedscope,
        Target::Chrome,
        Target::Csv(Table::Functions),
        Target::Csv(Table::Lines),
        Target::Csv(Table::Stacks),
        Target::Csv(Table::Packets),
    ];
    for target in targets {
        let mut out = Vec::new();
        let req = Request {
            target,
            weight: None,
            query: None,
            range: None,
        };
        if write(p, &req, &mut out).is_err() {
            continue;
        }
        // A finding, as every check here: an export is UTF-8 whatever the input.
        let Ok(text) = String::from_utf8(out) else {
            panic!("export {target:?} is not UTF-8");
        };
        if let Some(c) = text.chars().find(|&c| c != '\n' && is_unsafe(c)) {
            panic!("export {target:?} holds a raw {c:?}");
        }
        if matches!(target, Target::Speedscope | Target::Chrome) {
            let parsed: Result<serde_json::Value, _> = serde_json::from_str(&text);
            assert!(parsed.is_ok(), "export {target:?} is not JSON: {parsed:?}");
        }
    }
}

/// Every tab, a drill-down, a search prompt and the finder, drawn at
/// 80×24: no cell may hold a control character. (The help's text is fixed;
/// a hostile name cannot reach it.)
pub fn check_screens(p: Profile) {
    let mut app = App::new(p, "fuzzed", Rect::new(0, 0, 80, 24), true);
    let tabs = (0..crate::tui::TABS.len()).map(|i| vec![Intent::GoPane(i)]);
    let others = [
        vec![Intent::GoPane(0), Intent::Move(1), Intent::Open],
        // A pasted control or bidi mark in the prompt is shown escaped too.
        vec![
            Intent::Back,
            Intent::Search,
            Intent::Input('\u{1b}'),
            Intent::Input('\u{202e}'),
        ],
        vec![Intent::ClearInput, Intent::Input('e')],
        vec![Intent::Accept, Intent::Find, Intent::Input('a')],
        // The query: a merge, a packet's events after it, an event's
        // function (or which step removed it), a thread choice, the time
        // order's sandwich, every pane again.
        vec![
            Intent::Cancel,
            Intent::GoPane(0),
            Intent::First,
            Intent::Transform(Op::Merge),
        ],
        vec![
            Intent::GoPane(5),
            Intent::First,
            Intent::Open,
            Intent::Move(1),
        ],
        vec![Intent::Open],
        vec![Intent::Threads, Intent::Accept],
        vec![Intent::GoPane(4), Intent::TimeOrder, Intent::Sandwich],
    ];
    let again = (0..crate::tui::TABS.len()).map(|i| vec![Intent::GoPane(i)]);
    for actions in tabs.chain(others).chain(again) {
        for a in actions {
            app.update(a);
            // A step runs on a thread: its answer, as the next frame shows.
            app.settle_query();
        }
        draw_clean(&app);
    }
}

fn draw_clean(app: &App) {
    let Ok(mut t) = Terminal::new(TestBackend::new(app.size.width, app.size.height));
    if t.draw(|f| crate::tui::draw(f, app)).is_err() {
        return;
    }
    check_buffer(t.backend().buffer());
}

fn check_buffer(buffer: &ratatui::buffer::Buffer) {
    for cell in buffer.content() {
        let sym = cell.symbol();
        // Most cells hold one printable ASCII byte: decide those cheaply.
        if let [b' '..=b'~'] = sym.as_bytes() {
            continue;
        }
        if let Some(c) = sym.chars().find(|&c| is_unsafe(c)) {
            panic!("a screen cell holds a raw {c:?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_passes_every_check() {
        let input = crate::demo::input();
        // Both ways must load, or the checks ran on nothing: the demo is a
        // Business Rules! profile, and loaded as another format it fails.
        assert_eq!(exercise(input.bytes(), "br"), 2);
        assert_eq!(
            exercise(input.bytes(), "xpp"),
            1,
            "as xpp only by detection"
        );
    }

    /// The entry point asks queries of what it loads: every kind of step
    /// on the demo (its first function has a module, its stacks paths),
    /// and on a two-thread trace a thread alone and followed by a step.
    #[test]
    fn queries_of_every_kind_and_a_thread_choice_are_asked() {
        use crate::analysis::query::Step;
        use std::sync::Arc;
        let demo = load_inputs(&[crate::demo::input()], &LoadOptions::default()).expect("demo");
        let answered = check_queries(&Arc::new(demo), usize::MAX);
        let ops: Vec<&str> = answered
            .iter()
            .filter(|q| q.steps.len() == 1)
            .map(|q| q.steps[0].op())
            .collect();
        for op in ["merge", "drop", "focus", "collapse_module", "merge_path"] {
            assert!(ops.contains(&op), "{op}: {ops:?}");
        }
        assert!(answered.iter().any(|q| q.steps.len() > 2), "stacked");
        let opts = LoadOptions {
            timeline: true,
            ..LoadOptions::default()
        };
        let trace = crate::load::load_paths(&["tests/fixtures/xpp/orders-run.prf".into()], &opts)
            .expect("the trace");
        let answered = check_queries(&Arc::new(trace), usize::MAX);
        let threads: Vec<&[Step]> = answered
            .iter()
            .filter(|q| q.threads.is_some())
            .map(|q| q.steps.as_slice())
            .collect();
        assert_eq!(threads.len(), 2, "a thread alone and with a step");
        assert!(threads.iter().any(|s| s.len() == 1));
        let bytes = std::fs::read("tests/fixtures/xpp/orders-run.prf").expect("the trace");
        assert_eq!(exercise(&bytes, "xpp"), 2);
    }

    #[test]
    #[should_panic(expected = "a screen cell holds a raw")]
    fn an_unsafe_mark_in_a_cell_is_caught() {
        let p = load_inputs(&[crate::demo::input()], &LoadOptions::default()).expect("demo loads");
        let app = App::new(p, "x\u{7}", Rect::new(0, 0, 80, 24), true);
        let Ok(mut t) = Terminal::new(TestBackend::new(80, 24));
        let _ = t.draw(|f| {
            crate::tui::draw(f, &app);
            f.buffer_mut()[(0, 0)].set_symbol("\u{202e}");
        });
        check_buffer(t.backend().buffer());
    }
}
