//! The query core on small hand-made profiles; its properties over
//! generated profiles of every format are in `tests/properties.rs`.

use super::*;
use profx_model::Watch;
use profx_model::metrics::Sample;
use profx_model::{FuncId, ProfileBuilder};

/// A sampled profile: `(main)` → F → G (2 ms), `(main)` → F (1 ms), and
/// the two functions named `DUP` of modules `a` and `b` under `(main)`.
fn sampled() -> Arc<Profile> {
    let mut b = ProfileBuilder::new("test");
    let (m, a, bm) = (b.intern(""), b.intern("a"), b.intern("b"));
    let names = ["(main)", "F", "G", "operator!=", "DUP"];
    let ids: Vec<NameIds> = names.iter().map(|n| b.intern(n)).collect();
    let main = b.function(ids[0], m);
    let f = b.function(ids[1], m);
    let g = b.function(ids[2], m);
    let op = b.function(ids[3], m);
    let da = b.function(ids[4], a);
    let db = b.function(ids[4], bm);
    for (frames, ns) in [
        (vec![main, f, g], 2_000_000),
        (vec![main, f], 1_000_000),
        (vec![main, op], 1_000_000),
        (vec![main, da], 1_000_000),
        (vec![main, db], 3_000_000),
    ] {
        b.add_sample(Sample {
            frames: &frames,
            time_ns: Some(ns),
            line: None,
        });
    }
    Arc::new(b.finish())
}

type NameIds = profx_model::NameId;

/// One step's profile and what it dropped.
#[derive(Debug)]
struct One {
    profile: Arc<Profile>,
    dropped: Dropped,
}

/// `step` on `p` as the app asks it (`Policy::App`).
fn apply(
    p: &Arc<Profile>,
    step: &Step,
    cancel: &(dyn Fn() -> bool + Sync),
) -> Result<One, QueryError> {
    let w = Watch {
        cancel,
        progress: &|_, _| {},
    };
    let a = Answer::whole(Arc::clone(p)).push(step.clone(), Policy::App, &w)?;
    let l = &a.levels()[1];
    Ok(One {
        profile: Arc::clone(&l.profile),
        dropped: l.dropped.clone(),
    })
}

fn script(p: &Arc<Profile>, q: &Query) -> Answer {
    Answer::run(p, q, Policy::Script, &Watch::NONE).expect("run")
}

fn named(p: &Profile, name: &str, module: &str) -> Option<FuncId> {
    p.function_ids()
        .find(|&f| p.function_name(f) == name && p.function_module(f) == module)
}

fn excl(p: &Profile, name: &str, module: &str) -> Option<f64> {
    named(p, name, module).and_then(|f| p.function(f).time.elapsed_exclusive)
}

#[test]
fn a_name_stands_for_every_module_and_module_bang_name_for_one() {
    let p = sampled();
    assert_eq!(resolve(&p, &Target("DUP".into())).map(|v| v.len()), Ok(2));
    assert_eq!(resolve(&p, &Target("b!DUP".into())).map(|v| v.len()), Ok(1));
    // A name holding `!` is itself first.
    assert_eq!(
        resolve(&p, &Target("operator!=".into())).map(|v| v.len()),
        Ok(1)
    );
    let Err(QueryError::NoFunction { closest, .. }) = resolve(&p, &Target("DUPE".into())) else {
        panic!("DUPE is no function");
    };
    assert_eq!(closest.first().map(String::as_str), Some("DUP"));
}

#[test]
fn the_spelling_of_a_shared_name_is_module_bang_name() {
    let p = sampled();
    let db = named(&p, "DUP", "b").expect("b!DUP");
    assert_eq!(spelling(&p, db), Target("b!DUP".into()));
    let f = named(&p, "F", "").expect("F");
    assert_eq!(spelling(&p, f), Target("F".into()));
}

#[test]
fn merge_gives_the_callers_the_time_and_drop_takes_it_out_of_the_total() {
    let p = sampled();
    let merged = apply(&p, &Step::Merge(Target("F".into())), &|| false).expect("merge");
    let q = &merged.profile;
    assert_eq!(excl(q, "(main)", ""), Some(1.0));
    assert_eq!(excl(q, "G", ""), Some(2.0));
    assert_eq!(named(q, "F", ""), None);
    assert_eq!(q.totals.elapsed_inclusive_ms, p.totals.elapsed_inclusive_ms);
    let dropped = apply(&p, &Step::Drop(Target("b!DUP".into())), &|| false).expect("drop");
    assert_eq!(dropped.dropped.ms, Some(3.0));
    assert_eq!(dropped.profile.totals.elapsed_inclusive_ms, Some(5.0));
    assert_eq!(excl(&dropped.profile, "DUP", "a"), Some(1.0));
}

#[test]
fn merging_the_root_makes_its_callees_roots() {
    let p = sampled();
    let a = apply(&p, &Step::Merge(Target("(main)".into())), &|| false).expect("merge");
    // No sample was in (main) alone: nothing is dropped, and each path
    // starts at what (main) called.
    assert_eq!(a.dropped.paths, 0);
    assert_eq!(excl(&a.profile, "F", ""), Some(1.0));
    let roots: Vec<&str> = a
        .profile
        .nodes()
        .iter()
        .filter(|n| n.parent().is_none())
        .map(|n| a.profile.function_name(n.func))
        .collect();
    assert_eq!(roots.len(), 4, "{roots:?}");
}

#[test]
fn a_path_step_names_a_node_the_profile_has() {
    let p = sampled();
    let path = split_path("(main);F");
    let a = apply(&p, &Step::FocusPath(path), &|| false).expect("focus");
    assert_eq!(a.profile.totals.elapsed_inclusive_ms, Some(3.0));
    let none = apply(&p, &Step::FocusPath(split_path("F;G")), &|| false);
    assert!(matches!(none, Err(QueryError::NoPath { .. })), "{none:?}");
}

#[test]
fn a_cancelled_step_says_so_and_threads_need_a_trace() {
    let p = sampled();
    let r = apply(&p, &Step::Merge(Target("F".into())), &|| true);
    assert_eq!(r.err(), Some(QueryError::Cancelled));
    let t = choose_threads(&p, Some(&[1]), &Watch::NONE);
    assert!(matches!(t, Err(QueryError::NoThreads { .. })), "{t:?}");
    assert!(Arc::ptr_eq(
        &choose_threads(&p, None, &Watch::NONE).expect("all"),
        &p
    ));
}

#[test]
fn asked_sums_its_steps_and_labels_read_as_breadcrumbs() {
    let p = sampled();
    let q = Query {
        threads: None,
        steps: vec![
            Step::Drop(Target("G".into())),
            Step::Drop(Target("b!DUP".into())),
        ],
        ..Query::default()
    };
    let answer = script(&p, &q);
    assert_eq!(answer.levels().len(), 3);
    let asked = answer.asked();
    assert_eq!(asked.dropped.ms, Some(5.0));
    assert_eq!(asked.dropped.paths, 2);
    assert_eq!(q.steps[1].label(), "drop b!DUP");
    assert_eq!(
        Step::FocusPath(split_path("A;B")).label(),
        "focus subtree A>B"
    );
    assert_eq!(join_path(&split_path("A;B;C")), "A;B;C");
}

#[test]
fn the_app_refuses_a_step_that_changes_nothing_and_a_script_keeps_it() {
    let p = sampled();
    let step = Step::CollapseRecursion(Target("F".into()));
    let refused = apply(&p, &step, &|| false);
    assert!(
        matches!(refused, Err(QueryError::ChangesNothing { .. })),
        "{refused:?}"
    );
    let q = Query {
        threads: None,
        steps: vec![step],
        ..Query::default()
    };
    let answers = script(&p, &q);
    let answers = answers.levels();
    assert!(Arc::ptr_eq(&answers[1].profile, &p), "the profile itself");
    assert_eq!(
        answers[1].dropped.notes,
        ["collapse recursion F changes nothing here"]
    );
    // Dropping the root leaves nothing: the app refuses, a script gets the
    // empty profile and the note.
    let root = Step::Drop(Target("(main)".into()));
    assert!(matches!(
        apply(&p, &root, &|| false),
        Err(QueryError::LeavesNothing { .. })
    ));
    let q = Query {
        threads: None,
        steps: vec![root],
        ..Query::default()
    };
    let answers = script(&p, &q);
    let answers = answers.levels();
    assert!(answers[1].profile.functions().is_empty());
    assert_eq!(answers[1].profile.totals.elapsed_inclusive_ms, Some(0.0));
}

#[test]
fn a_function_of_the_events_reaches_the_paths_by_its_one_mapping() {
    let p = sampled();
    let whole = Answer::whole(Arc::clone(&p));
    let g = named(&p, "G", "").expect("G");
    let f = named(&p, "F", "").expect("F");
    let db = named(&p, "DUP", "b").expect("b!DUP");
    assert_eq!(whole.to_paths(whole.time_order_function(g)), Ok(g));
    let a = whole
        .push(Step::Merge(Target("F".into())), Policy::App, &Watch::NONE)
        .expect("merge")
        .push(
            Step::Drop(Target("b!DUP".into())),
            Policy::App,
            &Watch::NONE,
        )
        .expect("drop");
    let q = a.paths();
    // G keeps its name and module, not (necessarily) its id.
    let to = a.to_paths(a.time_order_function(g)).expect("G is kept");
    assert_eq!(q.function_name(to), "G");
    let da = named(&p, "DUP", "a").expect("a!DUP");
    let to = a
        .to_paths(a.time_order_function(da))
        .expect("a!DUP is kept");
    assert_eq!((q.function_name(to), q.function_module(to)), ("DUP", "a"));
    let gone = a
        .to_paths(a.time_order_function(f))
        .expect_err("F is merged");
    assert_eq!(gone.to_string(), "F: merged by step 1 (merge F)");
    let gone = a
        .to_paths(a.time_order_function(db))
        .expect_err("b!DUP is dropped");
    assert_eq!((gone.step, gone.did), (2, "dropped"));
    // Popping a step gives the answer before it, whose mapping is its own.
    let (back, step, why) = a.pop().expect("a step");
    assert_eq!((step, why), (Step::Drop(Target("b!DUP".into())), None));
    assert!(back.to_paths(back.time_order_function(db)).is_ok());
}

#[test]
fn the_app_leaves_out_what_a_script_refuses() {
    let p = sampled();
    let q = Query {
        threads: None,
        steps: vec![
            Step::Merge(Target("NOPE".into())),
            Step::Drop(Target("G".into())),
        ],
        ..Query::default()
    };
    let e = Answer::run(&p, &q, Policy::Script, &Watch::NONE).expect_err("NOPE");
    assert!(matches!(e, QueryError::NoFunction { .. }), "{e:?}");
    let a = Answer::run(&p, &q, Policy::App, &Watch::NONE).expect("left out");
    assert_eq!(a.asked_steps().count(), 2);
    assert_eq!(
        a.steps().collect::<Vec<_>>(),
        [&Step::Drop(Target("G".into()))]
    );
    let (step, why) = a.left_out_steps().next().expect("one left out");
    assert_eq!(step, &Step::Merge(Target("NOPE".into())));
    assert!(why.starts_with("no function is named \"NOPE\""), "{why}");
    // The query an output states is the steps applied.
    assert_eq!(a.query().describe().as_deref(), Some("drop G"));
    assert_eq!(a.dropped().ms, Some(2.0));
}

#[test]
fn a_query_prints_as_words_and_as_a_command_line() {
    let q = Query {
        threads: Some(vec![2]),
        steps: vec![
            Step::Merge(Target("&(MACRO)".into())),
            Step::FocusPath(split_path("A;B")),
            Step::CollapseModule("it's".into()),
        ],
        ..Query::default()
    };
    assert_eq!(
        q.describe().as_deref(),
        Some("thread 2 › merge &(MACRO) › focus subtree A>B › collapse module it's")
    );
    assert_eq!(Query::default().describe(), None);
    let args = q.to_args();
    assert_eq!(
        shell_words(&args),
        "--thread 2 --merge '&(MACRO)' --focus-path 'A;B' --collapse-module 'it'\\''s'"
    );
    assert_eq!(shell_words(&[""]), "''");
    assert_eq!(
        Step::CollapseDirectRecursion(Target("F".into())).flag(),
        "--collapse-direct-recursion"
    );
}

#[test]
fn which_profile_a_view_reads_is_said_once() {
    use crate::view::{Table, View};
    assert_eq!(Reads::of_view(View::Table(Table::Packets)), Reads::Events);
    assert_eq!(Reads::of_view(View::Timeline), Reads::Events);
    for v in [
        View::Table(Table::Functions),
        View::Tree,
        View::Flame,
        View::Info,
    ] {
        assert_eq!(Reads::of_view(v), Reads::Paths, "{v:?}");
    }
}

/// A timed trace of two threads: thread 1 runs `MAIN` → `A` → `B`, thread
/// 7 runs `MAIN` → `MAIN` → `C` → `A`; `A` and `B` are of module `lib`.
fn two_threads() -> Arc<Profile> {
    use profx_model::Place;
    use profx_model::metrics::TraceTime;
    let mut b = ProfileBuilder::new("test");
    let (none, lib) = (b.intern(""), b.intern("lib"));
    let mut func = |name: &str, module| {
        let n = b.intern(name);
        b.function(n, module)
    };
    let (main, a, bb, c) = (
        func("MAIN", none),
        func("A", lib),
        func("B", lib),
        func("C", none),
    );
    b.trace_begin(TraceTime::Timed);
    for (thread, calls) in [(1, vec![main, a, bb]), (7, vec![main, main, c, a])] {
        let t = b.trace_thread(thread);
        let mut at = f64::from(thread as u32);
        for &f in &calls {
            b.trace_time(t, at, || Place::Line(1));
            b.trace_enter(t, f, 0, None);
            at += 1.0;
        }
        for _ in &calls {
            b.trace_time(t, at, || Place::Line(2));
            b.trace_exit(t);
            at += 2.0;
        }
    }
    Arc::new(b.finish())
}

/// Every kind of step keeps its input's threads rows (model.md § Queries:
/// events are not transformed, and the rows describe them) and shares its
/// name table, a stack of steps the load's one: a name id means the same
/// in every profile of the query.
#[test]
fn a_step_keeps_the_threads_rows_and_shares_the_names() {
    let p = two_threads();
    assert_eq!(thread_ids(&p), [1, 7]);
    let t = |s: &str| Target(s.into());
    let steps = [
        Step::Merge(t("A")),
        Step::MergePath(split_path("MAIN;MAIN;C")),
        Step::Drop(t("B")),
        Step::Focus(t("C")),
        Step::FocusPath(split_path("MAIN;A")),
        Step::CollapseRecursion(t("MAIN")),
        Step::CollapseDirectRecursion(t("MAIN")),
        Step::CollapseModule("lib".into()),
        Step::CollapseSubtree(t("C")),
    ];
    let stacked = [
        Step::CollapseModule("lib".into()),
        Step::Merge(t("MAIN")),
        Step::Drop(t("C")),
    ];
    let queries = steps.map(|s| vec![s]).into_iter().chain([stacked.to_vec()]);
    for steps in queries {
        let label = steps[0].label();
        let q = Query {
            threads: None,
            steps,
            ..Query::default()
        };
        let answer = script(&p, &q);
        let answers = answer.levels();
        assert_eq!(answers.len(), q.steps.len() + 1);
        for a in answers {
            assert!(!a.dropped.unchanged, "{label}");
            assert_eq!(a.profile.threads(), p.threads(), "{label}");
            assert!(a.profile.shares_names_with(&p), "{label}");
            for f in a.profile.functions() {
                let (name, module) = (a.profile.name(f.name), a.profile.name(f.module));
                assert_eq!((p.name(f.name), p.name(f.module)), (name, module));
            }
        }
    }
}

/// Collapsing a module makes each run of its frames one frame, a
/// function named after the module, of the module, whose name is the
/// loaded one's (no name added).
#[test]
fn a_collapsed_module_is_one_frame_named_after_it() {
    let p = two_threads();
    let a = apply(&p, &Step::CollapseModule("lib".into()), &|| false).expect("collapse");
    let q = &a.profile;
    assert_eq!(q.name_count(), p.name_count());
    let lib = named(q, "lib", "lib").expect("the module's frame");
    assert_eq!(named(q, "A", "lib"), None);
    // Thread 1: A then B, one run: 1 + 2 + ... Its own time is A's and B's.
    let own = |p: &Profile, n: &str| excl(p, n, "lib").unwrap_or(0.0);
    assert_eq!(
        q.function(lib).time.elapsed_exclusive,
        Some(own(&p, "A") + own(&p, "B"))
    );
    let mut paths: Vec<Vec<&str>> = q
        .stack_ids()
        .map(|s| q.frames(s).iter().map(|&f| q.function_name(f)).collect())
        .collect();
    paths.sort();
    assert_eq!(
        paths,
        [
            vec!["MAIN"],
            vec!["MAIN", "MAIN"],
            vec!["MAIN", "MAIN", "C"],
            vec!["MAIN", "MAIN", "C", "lib"],
            vec!["MAIN", "lib"]
        ]
    );
    // Issue 63: how often the made frame was entered is not known: its
    // calls, and those of every stack ending in it, are absent, never 0;
    // the functions a load made keep theirs.
    assert_eq!(q.function(lib).calls, None);
    for s in q.stack_ids().filter(|&s| q.stack_leaf(s) == lib) {
        assert_eq!(q.stack(s).hits, None, "{:?}", q.frames(s));
    }
    let main = named(q, "MAIN", "").expect("MAIN");
    assert!(q.function(main).calls.is_some_and(|c| c > 0));
}

/// Per-call statistics are absent after a transform (model.md § Queries:
/// a rewrite cannot keep which call was the shortest).
#[test]
fn a_step_keeps_no_per_call_statistics() {
    let p = two_threads();
    assert!(p.function_ids().any(|f| !p.per_call(f).is_absent()));
    let a = apply(&p, &Step::Merge(Target("C".into())), &|| false).expect("merge");
    let q = &a.profile;
    assert!(q.function_ids().all(|f| q.per_call(f).is_absent()));
    // Nor their percentiles (issue 65).
    assert!(p.function_ids().any(|f| p.call_durations(f).is_some()));
    assert!(q.function_ids().all(|f| q.call_durations(f).is_none()));
}

/// A focus keeps only the paths through F: the session is what they hold,
/// the trace's outside time and every other path dropped.
#[test]
fn a_focus_is_the_whole_its_paths_hold() {
    use profx_model::Place;
    use profx_model::metrics::TraceTime;
    let mut b = ProfileBuilder::new("test");
    let none = b.intern("");
    let (a, bb) = (b.intern("A"), b.intern("B"));
    let (a, bb) = (b.function(a, none), b.function(bb, none));
    b.trace_begin(TraceTime::Timed);
    let t = b.trace_thread(1);
    // A from 0 to 1, nothing until 3, B from 3 to 4.
    for (at, f) in [(0.0, Some(a)), (1.0, None), (3.0, Some(bb)), (4.0, None)] {
        b.trace_time(t, at, || Place::Line(1));
        match f {
            Some(f) => b.trace_enter(t, f, 0, None),
            None => {
                b.trace_exit(t);
            }
        }
    }
    let p = Arc::new(b.finish());
    assert_eq!(p.totals.outside_ms, Some(2.0));
    assert_eq!(p.totals.elapsed_inclusive_ms, Some(4.0));
    let f = apply(&p, &Step::Focus(Target("A".into())), &|| false).expect("focus");
    assert_eq!(f.profile.totals.elapsed_inclusive_ms, Some(1.0));
    assert_eq!(f.profile.totals.outside_ms, Some(0.0));
    assert_eq!(f.dropped.ms, Some(3.0));
    // Any other step leaves the outside time as it was.
    let m = apply(&p, &Step::Merge(Target("B".into())), &|| false).expect("merge");
    assert_eq!(m.profile.totals.outside_ms, Some(2.0));
}

/// A sampled profile's times are summed in whole nanoseconds, as a load
/// sums them: 0.1 ms and 0.2 ms make 0.3 ms, not 0.30000000000000004; a
/// drop takes its samples out of the sample count.
#[test]
fn a_sampled_step_sums_nanoseconds_and_drops_samples() {
    let mut b = ProfileBuilder::new("test");
    let m = b.intern("");
    let ids: Vec<_> = ["(main)", "F", "G"].iter().map(|n| b.intern(n)).collect();
    let (main, f, g) = (
        b.function(ids[0], m),
        b.function(ids[1], m),
        b.function(ids[2], m),
    );
    for (frames, ns) in [(vec![main, f], 100_000), (vec![main, f, g], 200_000)] {
        b.add_sample(Sample {
            frames: &frames,
            time_ns: Some(ns),
            line: None,
        });
    }
    let p = Arc::new(b.finish());
    let merged = apply(&p, &Step::Merge(Target("G".into())), &|| false).expect("merge");
    assert_eq!(excl(&merged.profile, "F", ""), Some(0.3));
    let dropped = apply(&p, &Step::Drop(Target("G".into())), &|| false).expect("drop");
    assert_eq!(p.totals.samples, Some(2));
    assert_eq!(dropped.profile.totals.samples, Some(1));
    assert_eq!(dropped.profile.totals.elapsed_inclusive_ms, Some(0.1));
}

/// Lines follow their function (model.md § Queries): a function the step
/// removed takes its lines; one whose own time moved keeps them listed
/// with absent numbers; every other line is as loaded; a line of no
/// function keeps its numbers only where the step changed no path.
#[test]
fn after_a_step_lines_follow_their_function() {
    let mut b = ProfileBuilder::new("test");
    let m = b.intern("");
    let names: Vec<_> = ["(main)", "F", "G", "H", "f.prg", "(top level)"]
        .iter()
        .map(|n| b.intern(n))
        .collect();
    let (main, f, g, h) = (
        b.function(names[0], m),
        b.function(names[1], m),
        b.function(names[2], m),
        b.function(names[3], m),
    );
    let file = names[4];
    let (lf, lg, lh) = (
        b.line(file, 1, Some(f)),
        b.line(file, 2, Some(g)),
        b.line(file, 3, Some(h)),
    );
    for (frames, line) in [
        (vec![main, f], lf),
        (vec![main, f, g], lg),
        (vec![main, h], lh),
    ] {
        b.add_sample(Sample {
            frames: &frames,
            time_ns: Some(1_000_000),
            line: Some(line),
        });
    }
    let top = b.line(names[5], 9, None);
    b.line_at_top_level(top);
    b.line_summary(top, Some(2), Some(2.0));
    let p = Arc::new(b.finish());
    let a = apply(&p, &Step::Merge(Target("G".into())), &|| false).expect("merge");
    let q = &a.profile;
    let line = |n: u32| q.lines().iter().find(|l| l.line == n);
    assert!(line(2).is_none(), "G's line left with G");
    let of_f = line(1).expect("F's line");
    assert_eq!(
        (of_f.hits, of_f.time_ms),
        (None, None),
        "F's own time moved"
    );
    let of_h = line(3).expect("H's line");
    assert_eq!((of_h.hits, of_h.time_ms), (Some(1), Some(1.0)), "as loaded");
    let top = line(9).expect("the top level's line");
    assert_eq!((top.hits, top.time_ms), (None, None), "a path changed");
}
